"""torchtitan's eager cross-entropy (issue 35 round 13, helper titan13; timing.TORCHTITAN_EAGER_CE_BYTES).

torchtitan's ``loss_fn`` is ``cross_entropy(pred.flatten(0, 1).float(), labels)``; before bbb1b616 (April 2025)
``torch.compile`` wrapped the blocks only ("TODO: compiling loss function causes CUDA errors"). Per ATen kernel,
one read and one write each: forward cast 2 + 4, log_softmax 4 + 4; backward the zero-filled nll gradient 4,
log_softmax backward 4 + 4 + 4, the cast back 4 + 2: 36 bytes per logit, against the compiled loss's 8.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from gpuplanner.core import timing
from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.methods import MethodProfile, SFT
from gpuplanner.core.scenario import scenario_from_dict

ROOT = Path(__file__).resolve().parent.parent


def _vt():
    name = "validate_time_for_titan13_tests"
    if name in sys.modules:
        return sys.modules[name]
    sys.path.insert(0, str(ROOT / "bench"))
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / "validate_time.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def _step(**t) -> float:
    sc = _vt()._tt("llama-3.1-8b", 8, 4096, 1, **t)
    return evaluate(scenario_from_dict(sc)).time_modelled.step_time_s


def test_bytes_counted_per_kernel():
    fwd = (2 + 4) + (4 + 4)
    bwd = 4 + (4 + 4 + 4) + (4 + 2)
    assert timing.TORCHTITAN_EAGER_CE_BYTES == fwd + bwd == 36.0


@pytest.mark.parametrize("t, prof, expected", [
    (dict(framework="fsdp", fsdp_version=2, torch_compile=False, compile_loss=None), SFT, True),
    (dict(framework="fsdp", fsdp_version=2, torch_compile=True, compile_loss=False), SFT, True),
    (dict(framework="fsdp", fsdp_version=2, torch_compile=True, compile_loss=None), SFT, False),
    (dict(framework="fsdp", fsdp_version=2, torch_compile=True, compile_loss=True), SFT, False),
    (dict(framework="fsdp", fsdp_version=1, torch_compile=False, compile_loss=None), SFT, False),
    (dict(framework="hf", fsdp_version=2, torch_compile=False, compile_loss=None), SFT, False),
    (dict(framework="fsdp", fsdp_version=2, torch_compile=False, compile_loss=None, liger_kernel=True), SFT, False),
    (dict(framework="fsdp", fsdp_version=2, torch_compile=False, compile_loss=None),
     MethodProfile(objective="grpo"), False),
])
def test_rule(t, prof, expected):
    assert timing.titan_eager_loss(SimpleNamespace(**t), prof) is expected


def test_step_grows_by_the_hand_derived_loss_traffic():
    """Llama 3 8B (V = 128,256), 8 H100 SXM (3.35 TB/s × 0.8), 1 × 4,096 tokens per GPU, compiled blocks: the
    eager loss moves (36 − 8) bytes per logit more than the compiled one, on the compute stream (no overlap window
    reads the loss), so the step grows by exactly 28 · 128,256 · 4,096 / (3.35e12 · 0.8) = 5.49 ms."""
    hand = 28.0 * 128256 * 4096 / (3.35e12 * 0.8)
    delta = _step(compile_loss=False) - _step(compile_loss=True)
    assert delta == pytest.approx(hand, rel=1e-3)
    assert delta == pytest.approx(0.005489, abs=2e-6)


def test_eager_model_pays_36_not_16():
    """Eager torchtitan (no compile): the loss term went from the generic unfused 16 bytes to 36: the step is
    20 · 128,256 · 4,096 / 2.68e12 = 3.92 ms longer than with the generic count."""
    sc = _vt()._tt("llama-3.1-8b", 8, 4096, 1, compile_=False)
    s = scenario_from_dict(sc)
    now = evaluate(s).time_modelled.step_time_s
    old = timing.TORCHTITAN_EAGER_CE_BYTES
    try:
        timing.TORCHTITAN_EAGER_CE_BYTES = 16.0
        timing.gpu_time_facts.cache_clear() if hasattr(timing.gpu_time_facts, "cache_clear") else None
        generic = evaluate(scenario_from_dict(sc)).time_modelled.step_time_s
    finally:
        timing.TORCHTITAN_EAGER_CE_BYTES = old
    assert now - generic == pytest.approx(20.0 * 128256 * 4096 / (3.35e12 * 0.8), rel=1e-3)


def test_rl_fsdp2_rows_do_not_move():
    """verl's FSDP2 actor (framework fsdp, GRPO objective) computes log-probabilities with its own kernels."""
    prof = MethodProfile(objective="grpo")
    t = SimpleNamespace(framework="fsdp", fsdp_version=2, torch_compile=False, compile_loss=None)
    assert not timing.titan_eager_loss(t, prof)


def test_fixed_gap_bench_helpers():
    """bench/titan13_fixed_gap.py: seconds per step from tokens/s/GPU, and the gap's slope on the modelled step."""
    sys.path.insert(0, str(ROOT / "bench"))
    import titan13_fixed_gap as fg
    pub, mod, gap = fg.step_gap(5000.0, 6000.0, 4096.0)
    assert (pub, mod) == (pytest.approx(0.8192), pytest.approx(4096.0 / 6000.0))
    assert gap == pytest.approx(0.8192 - 0.682667, abs=1e-6)
    assert fg.slope([(1.0, 2.0), (2.0, 4.0), (3.0, 6.0)]) == pytest.approx(2.0)
    assert fg.slope([(0.6, 0.14), (0.7, 0.14), (0.8, 0.14)]) == pytest.approx(0.0)
