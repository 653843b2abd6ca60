"""Issue 35 round 12 (moetrain12): rows per local expert follow expert TP (timing.expert_rows), and the routed experts'
weight-gradient GEMMs accumulating into an fp32 main_grad bind on HBM at few rows (timing.moe_wgrad_terms, the named
part ``moe_wgrad_main_grad``)."""

from __future__ import annotations

import pytest

from gpuplanner.core import timing as T
from gpuplanner.core.estimate import estimate, resolve
from gpuplanner.core.scenario import scenario_from_dict


def zoo(tp=4, ep=8, etp=1, method="pretrain", mbs=1, lora=False):
    """The Model Zoo's Qwen3-235B TP 4 × PP 8 × VP 4 × EP 8 row (bench/validate_pretrain_oos11.py)."""
    tr = {"framework": "megatron", "precision": "bf16", "seq_len": 4096, "micro_batch_size": mbs,
          "global_batch_size": 2048, "fused_cross_entropy": True, "recompute": "none", "method": method}
    if lora:
        tr["method"] = "lora"
    return scenario_from_dict({
        "model": {"preset": "qwen3-235b-a22b"}, "training": tr,
        "parallel": {"tp": tp, "pp": 8, "vpp": 4, "ep": ep, "cp": 1, "expert_tp": etp, "sequence_parallel": tp > 1,
                     "zero": 1, "moe_dispatcher": "flex", "pp_account_embedding_loss": True},
        "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 256}})


def test_rows_follow_expert_tp_by_hand():
    m = resolve(zoo()).facts
    # 4,096 tokens split over TP 4 by sequence parallelism, EP 8 ranks' copies, top-8 of 128: 512 rows
    assert T.expert_rows(m, 4096.0, 8, 1.0, 4) == pytest.approx(4096 / 4 * 8 * 8 / 128)
    # expert TP = TP (Megatron's default): the expert-TP group gathers the TP ranks' tokens back, as before
    assert T.expert_rows(m, 4096.0, 8, 4.0, 4) == pytest.approx(4096 * 8 * 8 / 128)
    fwd = T.F.forward_flops_per_token(m, 4096)
    _, size, _ = T._moe_terms(m, fwd, 1.0, 4096.0, 8.0, 1.0, 4.0, 8.0, 1.0)
    assert size == pytest.approx(1 / (1 + 64 / 1536) / (1 + 128 / 512))


def test_wgrad_main_grad_bytes_and_flops_by_hand():
    m = resolve(zoo()).facts
    flops, nbytes = T.moe_wgrad_terms(m, "megatron", "pretrain", False, 512.0, 8, 1.0, 8)
    w = 3 * 4096 * 1536  # one expert: gated fc1 (2 × 1536 × 4096) and fc2 (4096 × 1536)
    per = 128 / 8 * 94 / 8  # local experts × MoE layers on a stage
    assert flops == pytest.approx(2 * 512 * w * per)
    assert nbytes == pytest.approx((8 * w + 2 * 512 * (2 * 4096 + 3 * 1536)) * per)
    # frozen experts (LoRA) and another framework: no fp32 main_grad traffic of the experts
    assert T.moe_wgrad_terms(m, "megatron", "lora", False, 512.0, 8, 1.0, 8) == (0.0, 0.0)
    assert T.moe_wgrad_terms(m, "fsdp", "pretrain", False, 512.0, 8, 1.0, 8) == (0.0, 0.0)


def test_wgrad_part_binds_only_at_few_rows():
    few = estimate(zoo()).time  # 512 rows: the fp32 buffer's 8 B per weight outweigh 2·512 FLOPs per weight
    many = estimate(zoo(tp=2, ep=32)).time  # 2,048 rows: FLOP-bound, nothing added
    assert few.parts["moe_wgrad_main_grad"] > 0.02 * few.step_time_s
    assert many.parts.get("moe_wgrad_main_grad", 0.0) == pytest.approx(0.0, abs=1e-12)
    assert T.PART_PARENT["moe_wgrad_main_grad"] == "compute" and "moe_wgrad_main_grad" in T.PART_LABELS


def test_wgrad_part_by_hand_on_h100():
    r = resolve(zoo())
    kw, _ = T.time_kwargs(r)
    m = r.facts
    t = estimate(zoo()).time
    flops, nbytes = T.moe_wgrad_terms(m, "megatron", "pretrain", False, 512.0, 8, 1.0, 8)
    mem_bw = kw["mem_bw_tbs"] * 1e12 * T.MEM_BW_EFFICIENCY
    rate = kw["peak_tflops"] * 1e12 * kw["gen_efficiency"] / (1 + 64 / 1536) / (1 + 128 / 512)
    # dropless routing's rank imbalance (core/moe_balance.py) scales the rows' FLOPs, not the fp32 buffer
    from gpuplanner.core import moe_balance as B
    from gpuplanner.core.arrayops import ScalarOps
    cap = T.moe_capacity_scale(None, False, imbalance=B.moe_rank_imbalance(128, 8, 4096 / 4, 8, ScalarOps, exp_tp=1))
    assert cap >= 1.0
    per_mb = nbytes / mem_bw - flops * cap / rate
    micro = 2048 / (256 / (4 * 8))  # GBS over the data-parallel ranks
    assert per_mb > 0
    assert t.parts["moe_wgrad_main_grad"] == pytest.approx(per_mb * micro, rel=1e-6)
