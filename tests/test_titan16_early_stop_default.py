"""Issue 35 round 16 (titan16): the ``fsdp`` row's early-stop default follows the stack that runs it.

torchtitan passes ``early_stop=False`` to ``ptd_checkpoint_wrapper`` since pytorch/torchtitan 25413d224 (#1580,
2025-08-29; at b5bcd76c6 ``FullAC``/``SelectiveAC`` hard-code it), so a torchtitan plan (framework ``fsdp``, FSDP2,
full training) re-runs the whole layer in eager mode; before that commit torchtitan ran PyTorch's default (on), and the
validation rows of those commits state ``checkpoint_early_stop: true``. Under ``torch.compile`` the flag does not
reach the recompute (AOTAutograd's partitioner re-runs only what the backward reads), so compiled plans skip the MLP
output GEMM either way.

Hand-derived: Llama 3.1 8B (h = 4096, MLP 14,336, L = 32): the skipped GEMM is 2 · 14,336 · 4,096 · 32 = 3.758e9
FLOPs a token."""
from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import validate_time as vt  # noqa: E402

from gpuplanner.core import frameworks  # noqa: E402
from gpuplanner.core.estimate import resolve, time_estimate  # noqa: E402
from gpuplanner.core.scenario import scenario_from_dict  # noqa: E402

SKIP = 2.0 * 14336 * 4096 * 32


def _hw(compile_=False, **training) -> float:
    sc = copy.deepcopy(vt._tt("llama-3.1-8b", 8, 4096, 1, rec="full", compile_=compile_))
    sc["training"].update(training)
    return time_estimate(resolve(scenario_from_dict(sc))).hardware_flops_per_token


def test_torchtitan_eager_default_reruns_the_whole_layer():
    assert _hw() == pytest.approx(_hw(checkpoint_early_stop=False), rel=1e-9)
    assert _hw() - _hw(checkpoint_early_stop=True) == pytest.approx(SKIP, rel=1e-3)


def test_compiled_layers_skip_the_last_gemm_whatever_the_flag():
    on = _hw(compile_=True, checkpoint_early_stop=True)
    assert _hw(compile_=True) == pytest.approx(on, rel=1e-9)
    assert _hw(compile_=True, checkpoint_early_stop=False) == pytest.approx(on, rel=1e-9)
    assert _hw() - on == pytest.approx(SKIP, rel=1e-3)


def test_other_stacks_keep_pytorchs_default():
    """FSDP1 on the fsdp row (Composer, fms-fsdp), a preference objective (OLMo-core, not torchtitan), the Hugging
    Face stack: on."""
    d = frameworks.checkpoint_early_stop_default
    assert d("fsdp", 2, False) is False
    assert d("fsdp", 1, False) is True
    assert d("fsdp", 2, False, "dpo") is True
    assert d("fsdp", 2, True) is True
    assert d("hf", 2, False) is True and d("trl", 2, False) is True
    assert _hw(fsdp_version=1) - _hw(fsdp_version=1, checkpoint_early_stop=False) == pytest.approx(-SKIP, rel=1e-3)


def test_every_torchtitan_row_before_25413d224_states_early_stop_on():
    """validate_fsdp_oos: all rows but the two from after 25413d224 (nvfp4.md, Aug 2026; PR #179937, Apr 2026)."""
    import validate_fsdp_oos as fo
    after = {"PR #179937 baseline 8B s4096 bs 2 (Apr 2026)"} | {f"nvfp4 docs {m}" for m in (
        "Llama 3 8B BF16", "Llama 3 8B MXFP8", "Qwen3 8B BF16", "Qwen3 8B MXFP8")}
    rows = fo.rows()
    assert len(rows) == 57
    for _grp, label, sc, _pub, _src in rows:
        assert sc["training"].get("checkpoint_early_stop") is (None if label in after else True), label
    assert all(sc["training"]["checkpoint_early_stop"] is True for _l, sc, *_ in vt.TORCHTITAN_SANITY)
