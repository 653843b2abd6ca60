"""Issue 35 round 11 (nemorl12): an RL rollout's vLLM engine sizes its KV pool as vLLM V1 does for any ``LLM``
instance — ``total × gpu_memory_utilization − weights − the profile run's torch peak − its non-torch increase``
(vllm ``v1/worker/gpu_worker.py`` ``determine_available_memory``) — with the serving model's own mechanism and
constants (``inference.vllm_profile_peak_bytes``, ``inference.VLLM_NON_TORCH_GIB``, ``inference.CUDA_VISIBLE_SHARE``),
not ``fraction × card − weights``."""
import copy
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from gpuplanner.core import inference as I  # noqa: E402
from gpuplanner.core import timing as T  # noqa: E402
from gpuplanner.core.catalog_hw import get_gpu  # noqa: E402
from gpuplanner.core.estimate import resolve  # noqa: E402
from gpuplanner.core.scenario import Scenario  # noqa: E402

GIB = 1024.0 ** 3


def _r(preset):
    return resolve(Scenario.model_validate({"model": {"preset": preset}}))


def _row(rid):
    import rl_step_times as r
    for row in r.STEP_ROWS + r.STEP_ROWS_V05 + r.STEP_ROWS_V06:
        if row[0] == rid:
            return copy.deepcopy(row[2])
    raise KeyError(rid)


def test_reserve_by_hand_qwen3_30b_a3b_tp2_h100():
    """By hand (the LLM class on an 80 GB H100: 16,384 tokens, 1,024 sequences): the sampler's fp32 logits,
    1,024 x 151,936 x 4 B x 4 copies = 2.318 GiB, outweigh one layer's tensors, 16,384 x (2 x 2,048 + 3 x 6,144 / 2)
    x 2 B = 0.406 GiB; with TP 2 on NVLink the profile run adds 2.07 GiB outside PyTorch: 4.388 GiB."""
    arch = _r("qwen3-30b-a3b").arch
    got = T.rollout_engine_reserve_bytes(arch, 2.0, 1024.0, 16384.0, True)
    assert got / GIB == pytest.approx(1024 * 151936 * 16 / GIB + 2.07, rel=1e-9)
    assert got / GIB == pytest.approx(4.388, abs=0.001)


@pytest.mark.parametrize("preset,tp", [("qwen3-30b-a3b", 2), ("llama-3.1-8b", 1), ("qwen2.5-7b", 4)])
def test_same_as_the_serving_model(preset, tp):
    """One mechanism: the rollout's reserve is the serving model's vLLM reserve for the same budget."""
    r = _r(preset)
    gpu = get_gpu("h100-sxm-80gb")
    want = I.engine_reserved_bytes(I.ServingModel.of(r.arch, r.params), gpu, tp, "vllm", budget=(16384, 1024))
    assert T.rollout_engine_reserve_bytes(r.arch, float(tp), 1024.0, 16384.0, True) == pytest.approx(want, rel=1e-9)


def test_budget_follows_the_card():
    assert T.vllm_default_profile_tokens(get_gpu("h100-sxm-80gb")) == 16384.0
    assert T.vllm_default_profile_tokens(get_gpu("a100-sxm-80gb")) == 8192.0


def test_pool_bound_rollouts_slow_down(monkeypatch):
    """NeMo RL v0.6 Qwen3-30B-A3B on 32 H100s (vLLM TP 2 at 0.6): 19.6 GiB of KV per GPU before, 14.7 after; the
    engine holds fewer sequences at once, so the rollouts take longer. With the reserve set to zero the old pool
    returns (less the visible-memory share)."""
    import rl_step_times as RL
    scn = _row("nemo-rl v0.6 qwen3-30b-a3b grpo 32xh100")
    now = RL.predict(scn)["gen"]
    monkeypatch.setattr(T, "rollout_engine_reserve_bytes", lambda *a, **k: 0.0)
    without = RL.predict(scn)["gen"]
    assert now > without + 5.0


def test_unbound_rollouts_do_not_move(monkeypatch):
    """Llama-3.1-8B at vLLM TP 1 on an H100 (0.6): the pool holds every sequence either way."""
    import rl_step_times as RL
    scn = _row("nemo-rl v0.5 llama3.1-8b grpo 16xh100")
    now = RL.predict(scn)["gen"]
    monkeypatch.setattr(T, "rollout_engine_reserve_bytes", lambda *a, **k: 0.0)
    assert RL.predict(scn)["gen"] == pytest.approx(now, rel=1e-9)
