"""Whole-layer recompute re-runs the MoE layer's expert dispatch (timing.ep_recompute_passes, issue 35 round 11,
ptoos11): Megatron-Core's checkpointed layers re-run ``MoELayer.forward``, dispatch and combine included, so a
micro-batch's expert transfers are 4 + 2·rec_whole instead of 4, as the TP collectives already count."""
from __future__ import annotations

import pytest

from gpuplanner.core import recompute as rc
from gpuplanner.core.estimate import resolve
from gpuplanner.core.scenario import scenario_from_dict
from gpuplanner.core.timing import ep_recompute_passes, time_estimate


def _moe(rec: str, disp: str = "flex", ep: int = 8, model: str = "qwen3-30b-a3b", **training) -> dict:
    return {"model": {"preset": model},
            "training": {"framework": "megatron", "precision": "bf16", "seq_len": 4096, "micro_batch_size": 1,
                         "global_batch_size": 64, "recompute": rec, **training},
            "parallel": {"tp": 1, "pp": 1, "ep": ep, "expert_tp": 1, "zero": 1, "moe_dispatcher": disp},
            "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}}


def _ep_s(sc: dict) -> float:
    return time_estimate(resolve(scenario_from_dict(sc))).seconds["ep_comm"]


def test_passes_by_hand():
    # 4 transfers (dispatch, combine; forward and backward) + 2 per recomputed forward; the count exchange once
    # per forward
    assert ep_recompute_passes(0.0) == (1.0, 1.0)
    assert ep_recompute_passes(1.0) == (1.5, 2.0)
    assert ep_recompute_passes(0.25) == (pytest.approx(1.125), pytest.approx(1.25))


def test_full_recompute_adds_half_the_dispatch():
    none, full = _ep_s(_moe("none")), _ep_s(_moe("full"))
    assert none > 0.0
    # flex (DeepEP / HybridEP) has no count exchange: exactly 6 transfers against 4
    assert full == pytest.approx(1.5 * none, rel=1e-9)


def test_alltoall_counts_exchange_once_per_forward():
    none, full = _ep_s(_moe("none", disp="alltoall")), _ep_s(_moe("full", disp="alltoall"))
    # the transfers ×1.5, the latency-bound count all-gather ×2: between the two
    assert 1.5 * none <= full <= 2.0 * none
    assert full > 1.5 * none


def test_selective_and_partial_recompute():
    none = _ep_s(_moe("none"))
    # Megatron's selective recompute re-runs only the attention core: no dispatch again
    assert _ep_s(_moe("megatron_selective")) == pytest.approx(none, rel=1e-9)
    # Megatron's block method, 12 of the 48 layers: a quarter of the layers re-run their forward (the uniform
    # method checkpoints every chunk of 12, i.e. all of them)
    whole = float(rc.time_shares(rc.FULL, 48, num_layers=12, method="block")[0])
    assert whole == pytest.approx(0.25)
    part = _ep_s(_moe("full", recompute_num_layers=12, recompute_method="block"))
    assert part == pytest.approx(none * ep_recompute_passes(whole)[0], rel=1e-9)
    assert none < part < 1.5 * none


def test_dense_and_single_rank_experts_unchanged():
    dense = {"model": {"preset": "llama-3-8b"},
             "training": {"framework": "megatron", "precision": "bf16", "seq_len": 4096, "micro_batch_size": 1,
                          "global_batch_size": 64, "recompute": "full"},
             "parallel": {"tp": 1, "pp": 1, "zero": 1}, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}}
    assert _ep_s(dense) == 0.0
    assert _ep_s(_moe("full", disp="alltoall", ep=1)) == _ep_s(_moe("none", disp="alltoall", ep=1)) == 0.0


def test_no_grad_reference_pass_is_not_recomputed():
    # DPO's reference forward (one no-grad forward per trained token, nemorl11's EP_FORWARD_SHARE of the four
    # transfers) has no backward and so no recompute: (4 + 2 + 2) / (4 + 2) = 4/3, not 1.5
    def dpo(rec):
        sc = _moe(rec, objective="dpo")
        sc["training"].update({"framework": "megatron-swift", "method": "full"})
        return _ep_s(sc)
    assert dpo("full") == pytest.approx(dpo("none") * 4.0 / 3.0, rel=1e-9)


def test_ep_passes_are_the_tp_count_to_the_last_bit():
    """Round 12 (tidy12): ``ep_recompute_passes`` reads ``timing.tp_layer_collectives`` (the forward re-runs its
    collectives) instead of its own ``1 + 0.5·rec``; the two are the same float for every share (dividing by 4 and
    halving are exact), so no estimate moves."""
    import numpy as np

    r = np.concatenate([np.linspace(0.0, 1.0, 10001), np.random.default_rng(1).random(10000)])
    passes, counts = ep_recompute_passes(r)
    assert np.array_equal(passes, 1.0 + 0.5 * r) and np.array_equal(counts, 1.0 + r)
    assert ep_recompute_passes(0.0) == (1.0, 1.0) and ep_recompute_passes(1.0) == (1.5, 2.0)
