"""Issue 35 round 11 (nemorl12): NeMo RL's refit walks the model one Hugging Face tensor at a time on every training
rank and vLLM worker (Megatron-Bridge ``export_hf_weights``: one conversion task and, for a routed expert, one
all-gather per local expert; vLLM ``load_weights`` per name), colocated or separate, so it pays host time per tensor
(``timing.NEMO_RL_REFIT_S_PER_TENSOR``, NVIDIA-NeMo/RL PR #3294) on top of its bytes. Named apart in the breakdown
(``nemo_rl_refit_tensors``, inside generation)."""
import copy
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from gpuplanner.core import timing  # noqa: E402
from gpuplanner.core.estimate import estimate  # noqa: E402
from gpuplanner.core.scenario import scenario_from_dict  # noqa: E402


def _row(rid):
    import rl_step_times as r
    for row in r.STEP_ROWS + r.STEP_ROWS_V05 + r.STEP_ROWS_V06:
        if row[0] == rid:
            return copy.deepcopy(row[2])
    raise KeyError(rid)


A3B = "nemo-rl v0.6 qwen3-30b-a3b grpo 32xh100"
A3B_OFF = "nemo-rl v0.6 qwen3-30b-a3b grpo 32xh100 1-step off"
LLAMA = "nemo-rl v0.5 llama3.1-8b grpo 16xh100"


def _per_generation(scn, key):
    t = estimate(scenario_from_dict(scn)).time
    return t.parts.get(key, 0.0) * scn["training"]["rl"]["updates_per_generation"]


def test_constant_is_the_published_per_tensor_floor():
    # PR #3294: 2.98 s over Qwen3-30B-A3B's 18,867 tensors (the optimised path's smaller per-tensor figure)
    assert timing.NEMO_RL_REFIT_S_PER_TENSOR == pytest.approx(2.98 / 18867, rel=0.02)


def test_moe_refit_pays_every_hf_tensor_by_hand():
    """By hand: Qwen3-30B-A3B has 18,867 Hugging Face tensors (its safetensors header); at 0.16 ms each the refit
    of one generation batch holds 18,867 x 0.16e-3 = 3.019 s of per-tensor host work."""
    got = _per_generation(_row(A3B), "nemo_rl_refit_tensors")
    assert got == pytest.approx(18867 * 0.16e-3, rel=1e-6)


def test_step_grows_by_the_part(monkeypatch):
    scn = _row(A3B)
    k = scn["training"]["rl"]["updates_per_generation"]
    with_it = estimate(scenario_from_dict(scn)).time
    monkeypatch.setattr(timing, "NEMO_RL_REFIT_S_PER_TENSOR", 0.0)
    without = estimate(scenario_from_dict(scn)).time
    assert (with_it.step_time_s - without.step_time_s) * k == pytest.approx(18867 * 0.16e-3, rel=1e-6)
    # the byte-priced refit is unchanged: the new part is its own sibling inside generation
    assert with_it.parts["weight_refit"] == pytest.approx(without.parts["weight_refit"], rel=1e-9)


def test_separate_engine_pays_it_too():
    # the one-step-off recipe refits over NCCL (broadcast_weights_for_collective): the same export and load_weights
    assert _per_generation(_row(A3B_OFF), "nemo_rl_refit_tensors") == pytest.approx(18867 * 0.16e-3, rel=1e-6)


def test_dense_model_pays_little():
    # Llama-3.1-8B: 291 tensors, 0.047 s a refit — the mechanism is what sets an MoE apart
    got = _per_generation(_row(LLAMA), "nemo_rl_refit_tensors")
    assert got == pytest.approx(291 * 0.16e-3, rel=1e-6)
    assert got < 0.02 * _per_generation(_row(A3B), "nemo_rl_refit_tensors")


def test_other_tools_do_not_pay_it():
    scn = _row(A3B)
    scn["training"]["framework"] = "fsdp"
    scn["parallel"] = {"zero": 3}
    assert _per_generation(scn, "nemo_rl_refit_tensors") == 0.0


def test_named_in_the_breakdown():
    assert timing.PART_PARENT["nemo_rl_refit_tensors"] == "generation"
    assert "nemo_rl_refit_tensors" in timing.PART_LABELS
    t = estimate(scenario_from_dict(_row(A3B))).time
    inside = sum(t.parts.get(p, 0.0) for p, parent in timing.PART_PARENT.items() if parent == "generation")
    assert inside <= t.seconds["generation"] * (1 + 1e-9)
