"""Issue 35 round 12 (verl12): verl's FSDP workers step torch.optim.AdamW without ``fused``.

verl builds the actor's and the critic's optimizer as ``optim.AdamW(module.parameters(), lr, betas, weight_decay)``
(``verl/workers/fsdp_workers.py``, v0.3.0.post1 to v0.5.0; ``build_optimizer`` with ``torch.optim`` at HEAD), so
torch runs its unfused passes: foreach over plain or DTensor parameters, the single-tensor loop over FSDP1's
``FlatParameter`` (not in ``_foreach_supported_types``) — eight passes, 80 bytes a parameter, against the fused
kernel's 30 (``timing.adamw_unfused``). One step per mini-batch (``dp_actor.update_policy``)."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

from gpuplanner.core import timing as T
from gpuplanner.core.estimate import estimate, resolve_arch
from gpuplanner.core.methods import MethodProfile
from gpuplanner.core.params import count_params
from gpuplanner.core.scenario import scenario_from_dict

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import rl_step_times as R  # noqa: E402

ROWS = {r[0]: r for r in R.ROWS}
MIN = "play-verl qwen2-7b ppo min"
#: NVIDIA H100 SXM datasheet: 3.35 TB/s of HBM3
H100_HBM = 3.35e12


def test_which_runs_step_unfused():
    rl = MethodProfile(objective="grpo", rl=True, prompt_len=100, rollout_len=512)
    assert T.adamw_unfused(None, rl, "fsdp")  # verl: torch's default
    assert not T.adamw_unfused(None, rl, "megatron")  # verl's / NeMo RL's Megatron workers: Megatron's fused Adam
    assert not T.adamw_unfused(None, MethodProfile(), "fsdp")  # FSDP SFT (torchtitan): fused
    assert not T.adamw_unfused("fused", rl, "fsdp")  # the field, when set, decides
    assert T.adamw_unfused("foreach", MethodProfile(), "fsdp")


def _with(scn, impl):
    out = copy.deepcopy(scn)
    out["training"]["optimizer_implementation"] = impl
    return out


def test_none_is_foreach_for_verl():
    scn = ROWS[MIN][2]
    none = estimate(scenario_from_dict(copy.deepcopy(scn))).time.step_time_s
    assert none == pytest.approx(estimate(scenario_from_dict(_with(scn, "foreach"))).time.step_time_s, rel=1e-12)
    assert none > estimate(scenario_from_dict(_with(scn, "fused"))).time.step_time_s


def test_actor_update_grows_by_the_extra_bytes():
    """The 7B "min" row: 16 AdamW steps a verl step over the actor's fp32 shard (the Qwen2.5-7B preset's parameters
    over 8 GPUs). Unfused AdamW moves 80 − 30 = 50 bytes a parameter more: at least that at the H100's full HBM rate,
    at most twice as long (memory efficiency ≥ 0.5). And the update moves towards its log (11.15 s)."""
    scn = ROWS[MIN][2]
    now = R.key_split(copy.deepcopy(scn))["update_actor"]
    fused = R.key_split(_with(scn, "fused"))["update_actor"]
    shard = count_params(resolve_arch(scenario_from_dict(copy.deepcopy(scn)).model)).total / 8
    low = 16 * (T.OPT_BYTES_ADAMW_FOREACH - T.OPT_BYTES["adamw"]) * shard / H100_HBM
    assert low <= now - fused <= 2 * low
    assert abs(now / 11.15 - 1) < abs(fused / 11.15 - 1)


def test_fsdp_sft_keeps_fused():
    scn = copy.deepcopy(ROWS[MIN][2])
    scn["training"] = {"objective": "sft", "method": "full", "framework": "fsdp", "seq_len": 2048,
                       "micro_batch_size": 1, "global_batch_size": 64, "recompute": "full", "fsdp_version": 1}
    scn["parallel"] = {"zero": 3}
    none = estimate(scenario_from_dict(copy.deepcopy(scn))).time.step_time_s
    assert none == pytest.approx(estimate(scenario_from_dict(_with(scn, "fused"))).time.step_time_s, rel=1e-12)
    assert none < estimate(scenario_from_dict(_with(scn, "foreach"))).time.step_time_s


def test_fsdp1_grad_cast_which_runs():
    """FSDP1's post-backward hook casts the 16-bit unsharded gradient to the reduce dtype where they differ (read 2,
    write 4): verl's fp32 reduce, Composer's DEFAULT; not where the gradient is already in the reduce dtype. Round 13
    (fsdpstream13): the same torch code for every FSDP1 stack, so no longer gated on verl."""
    assert T.fsdp1_grad_cast_bytes("fsdp", 2.0, 4.0) == 6.0
    assert T.fsdp1_grad_cast_bytes("fsdp", 4.0, 4.0) == 0.0
    assert T.fsdp1_grad_cast_bytes("fsdp", 2.0, 2.0) == 0.0
    assert T.fsdp1_grad_cast_bytes("megatron", 2.0, 4.0) == 0.0


def test_fsdp1_grad_cast_on_the_7b_min_row(monkeypatch):
    """The 7B "min" row as GRPO: one reduce-scatter per micro-batch (one an optimizer step) over the actor's 7.6B
    gradients, 6 bytes each cast on the post-backward stream (fsdpstream13): the step pays the last of the 28 units'
    casts (the backward outlasts the queue) and the contention of the other 27 with the compute."""
    grpo = R._variant(ROWS[MIN][2], objective="grpo")
    now = estimate(scenario_from_dict(copy.deepcopy(grpo))).time.step_time_s
    monkeypatch.setattr(T, "fsdp1_grad_cast_bytes", lambda *a: 0.0)
    before = estimate(scenario_from_dict(copy.deepcopy(grpo))).time.step_time_s
    params = count_params(resolve_arch(scenario_from_dict(copy.deepcopy(grpo)).model)).total
    cast_s = 6.0 * params / (H100_HBM * T.MEM_BW_EFFICIENCY)
    assert now - before == pytest.approx(cast_s * (1.0 / 28 + T.OVERLAP_COMPUTE_SLOWDOWN * 27.0 / 28), rel=0.02)
