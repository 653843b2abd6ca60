"""Megatron-SWIFT LoRA on a MoE model's routed experts (issue 35 round 9, megft9): ms-swift's tuner gives each grouped
expert linear grouped adapters (``swift/megatron/tuners/lora.py``), one GEMM per local expert for A and for B, so
the per-expert GEMM launches and host ops grow (``timing.MOE_LORA_EXPERT_GEMMS``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from gpuplanner.core import timing as T
from gpuplanner.core.estimate import resolve
from gpuplanner.core.methods import EAGER_OP_S
from gpuplanner.core.scenario import scenario_from_dict
from gpuplanner.core.timing import time_estimate

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))


def scn(tool="megatron-swift", method="lora", targets="all_linear", preset="qwen3-30b-a3b"):
    t = {"framework": tool, "method": method, "seq_len": 2048, "micro_batch_size": 8, "global_batch_size": 16,
         "padding_free": True, "recompute": "full"}
    if method == "lora":
        t.update(lora_rank=8, lora_targets=targets)
    return scenario_from_dict({"model": {"preset": preset}, "training": t, "parallel": {"ep": 2, "zero": 1},
                               "hardware": {"gpu": "a800-sxm-80gb", "num_gpus": 2},
                               "data": {"mean_sample_len": 465}})


def test_which_runs_have_adapters_on_the_experts():
    m = resolve(scn()).facts
    assert T.moe_lora_on_experts(m, "megatron-swift", True, "all_linear")
    assert T.moe_lora_on_experts(m, "megatron-swift", True, "mlp")
    assert not T.moe_lora_on_experts(m, "megatron-swift", True, "attention")
    assert not T.moe_lora_on_experts(m, "megatron-swift", False, "all_linear")
    assert not T.moe_lora_on_experts(m, "megatron-bridge", True, "all_linear")  # Bridge's peft not read
    dense = resolve(scenario_from_dict({"model": {"preset": "qwen2.5-7b"}, "training": {
        "framework": "megatron-swift", "method": "lora", "seq_len": 2048, "micro_batch_size": 1,
        "global_batch_size": 2}, "hardware": {"gpu": "a800-sxm-80gb", "num_gpus": 2}})).facts
    assert not T.moe_lora_on_experts(dense, "megatron-swift", True, "all_linear")


def test_launch_count_by_hand():
    # Qwen3-30B-A3B: 48 MoE layers, 128 experts; EP 2 -> 64 local experts; full recompute re-runs the forward
    m = resolve(scn()).facts
    assert T.moe_gemm_launches(m, "megatron", 2, 1, 1.0) == pytest.approx(48 * 64 * (6 + 2))
    # frozen base: forward + data gradient of fc1 and fc2 (4); adapters A and B of both: 3 GEMMs each (12);
    # the forward's 2 + 4 re-run by the recompute
    assert T.moe_gemm_launches(m, "megatron", 2, 1, 1.0, True) == pytest.approx(48 * 64 * (16 + 6))


def test_host_ops_by_hand():
    m = resolve(scn()).facts
    f0, r0, b0 = T.moe_host_parts(m, "megatron", "bf16", 2, 1)
    f1, r1, b1 = T.moe_host_parts(m, "megatron", "bf16", 2, 1, lora_experts=True)
    assert f1 - f0 == pytest.approx(48 * 64 * 4 * EAGER_OP_S)  # 6 forward GEMMs per expert instead of 2
    assert b1 - b0 == pytest.approx(48 * 64 * 6 * EAGER_OP_S)  # 10 backward instead of 4
    assert r1 == r0


def test_step_slower_only_where_the_adapters_are():
    from gpuplanner.core import timing as T2

    lora = time_estimate(resolve(scn())).step_time_s
    attn = time_estimate(resolve(scn(targets="attention"))).step_time_s
    assert lora > attn
    # the same run without the mechanism (monkeypatched count): the mechanism adds time
    orig = T2.moe_lora_on_experts
    try:
        T2.moe_lora_on_experts = lambda *a, **k: False
        without = time_estimate(resolve(scn())).step_time_s
    finally:
        T2.moe_lora_on_experts = orig
    assert lora > without
    # Megatron-Bridge and full fine-tuning unchanged by it
    for s in (scn(tool="megatron-bridge"), scn(method="full")):
        a = time_estimate(resolve(s)).step_time_s
        try:
            T2.moe_lora_on_experts = lambda *a, **k: False
            b = time_estimate(resolve(s)).step_time_s
        finally:
            T2.moe_lora_on_experts = orig
        assert a == pytest.approx(b)


def test_published_swift_moe_lora_rows_still_slower_than_the_model():
    """ms-swift's examples/megatron/lora/loss_scale.sh, moe.sh: published 3.4 s and 5.1 s; the model moved toward
    them (before this change 0.81 s and 1.62 s) and stays below (the rest of the gap is not explained)."""
    import validate_megatron_ft_oos9 as v

    rows = {r[0]: r for r in v.ROWS}
    for rid in ("swift-qwen3-30b-a3b-lora-loss-scale", "swift-qwen3-30b-a3b-lora-ep2"):
        _id, _g, _src, pub, sc, _named = rows[rid]
        pred = v.predict(sc).step_time_s
        assert v.BEFORE[rid] < pred < pub


def _dense(tool="megatron-swift", method="lora", targets="all_linear", sp=True, tp=2, recompute="full"):
    t = {"framework": tool, "method": method, "seq_len": 2048, "micro_batch_size": 16, "global_batch_size": 16,
         "padding_free": True, "recompute": recompute}
    if method == "lora":
        t.update(lora_rank=8, lora_targets=targets)
    return scenario_from_dict({"model": {"preset": "qwen2.5-7b"}, "training": t,
                               "parallel": {"tp": tp, "sequence_parallel": sp},
                               "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 2}, "data": {"mean_sample_len": 128}})


def test_lora_tp_collectives_by_hand():
    m = resolve(_dense()).facts
    # all-linear, sequence parallel, full recompute: 4 linears × (forward + recompute + backward)
    assert T.lora_tp_collectives(m, "megatron-swift", True, "all_linear", True, 1.0) == (12.0, True)
    # without sequence parallelism: column linears 1 (backward all-reduce), row linears 1 + recompute (forward)
    assert T.lora_tp_collectives(m, "megatron-swift", True, "all_linear", False, 1.0) == (2.0 + 2.0 * 2.0, False)
    assert T.lora_tp_collectives(m, "megatron-swift", True, "qkv", True, 0.0) == (2.0, True)
    assert T.lora_tp_collectives(m, "megatron-bridge", True, "all_linear", True, 1.0) == (0.0, False)
    assert T.lora_tp_collectives(m, "megatron-swift", False, "all_linear", True, 1.0) == (0.0, False)
    # a MoE model: the MLP linears are experts (no TP collectives of their own under expert TP)
    moe = resolve(scn()).facts
    n, _ = T.lora_tp_collectives(moe, "megatron-swift", True, "all_linear", True, 1.0)
    assert n == pytest.approx(2.0 * 3.0 * (2.0 - moe.moe_frac))


def test_lora_tp_collectives_priced_at_ring_latency():
    from gpuplanner.core import timing as T2

    lora = time_estimate(resolve(_dense()))
    orig = T2.lora_tp_collectives
    try:
        T2.lora_tp_collectives = lambda *a, **k: (0.0, False)
        without = time_estimate(resolve(_dense()))
    finally:
        T2.lora_tp_collectives = orig
    # 28 layers × 12 all-gathers / reduce-scatters over 2 GPUs in one node: 8.4 µs + 3.4 µs each
    hand = 28 * 12 * (T.NCCL_BASE_LAT + T.NCCL_INTRA_STEP_LAT)
    assert lora.seconds["tp_comm"] - without.seconds["tp_comm"] == pytest.approx(hand, rel=1e-6)
    # full fine-tuning and TP 1 are unchanged
    assert T.lora_tp_collectives(resolve(_dense(method="full")).facts, "megatron-swift", False, "all_linear",
                                 True, 1.0) == (0.0, False)


def test_qkv_mlp_targets():
    # q/k/v + gate/up + down (no o_proj): two column-parallel linears and one row-parallel; the MLP's are experts
    m = resolve(_dense()).facts
    assert T.lora_tp_collectives(m, "megatron-swift", True, "qkv_mlp", True, 0.0) == (6.0, True)
    assert T.moe_lora_on_experts(resolve(scn()).facts, "megatron-swift", True, "qkv_mlp")
