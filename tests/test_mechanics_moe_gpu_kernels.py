"""Issue 35 round 6 (helper moe9): the GPU side of small experts.

* Transformer Engine's per-expert FP8 quantisation kernels cost the GPU a fixed time each
  (``timing.moe_quant_kernels``, ``MOE_QUANT_KERNELS_PER_SLICE``). Sources: TransformerEngine
  ``transformer_engine/pytorch/csrc/extensions/cast.cpp`` ``multi_tensor_quantize_impl`` (one fused kernel for all
  slices under delayed scaling only) and ``csrc/quantizer.cpp`` ``Float8CurrentScalingQuantizer::quantize_impl``
  (amax, scale, cast: 3 kernels).
* The expert GEMMs' row-count factor (``1 / (1 + T0 / rows)``) checked against DeepGEMM's published grouped-GEMM
  table (deepseek-ai/DeepGEMM ``README.md`` at 989c9e3, H800, FP8), and their rate against TE PR #2045's measured
  ``general_grouped_gemm`` (H100, BF16)."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

from gpuplanner.core import timing as T
from gpuplanner.core.estimate import resolve, time_estimate
from gpuplanner.core.scenario import scenario_from_dict

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import validate_time as V  # noqa: E402
from search_helpers import sampled_candidates, vectorised_step_s  # noqa: E402


def _qwen3(recipe="te_current", precision="fp8", ep=8, gpu="h100-sxm-80gb", framework="megatron", **training) -> dict:
    tr = {"framework": framework, "precision": precision, "seq_len": 4096, "micro_batch_size": 1,
          "global_batch_size": 512, **training}
    if precision == "fp8":
        tr["fp8_recipe"] = recipe
    return {"model": {"preset": "qwen3-30b-a3b"}, "training": tr,
            "parallel": {"tp": 1, "pp": 1, "ep": ep, "expert_tp": 1, "zero": 1},
            "hardware": {"gpu": gpu, "num_gpus": 16}}


def test_kernels_per_slice_from_te_code():
    """Current scaling: amax, scale, cast; MXFP8: one cast (scales inside); delayed: one fused kernel for all."""
    assert T.MOE_QUANT_KERNELS_PER_SLICE == {"te_current": 3.0, "te_mxfp8": 1.0, "te_delayed": 0.0}


def test_quant_kernel_count_hand_derived():
    """Qwen3-30B-A3B (48 MoE layers, 128 experts), EP 8 → 16 local experts; 4 slices per expert (fc1/fc2 input
    forward, fc1/fc2 output gradient backward), + 2 per recomputed forward."""
    m = resolve(scenario_from_dict(_qwen3())).facts
    assert T.moe_quant_kernels(m, "megatron", "fp8", "te_current", 8, 1) == 48 * 16 * 3 * 4
    assert T.moe_quant_kernels(m, "megatron", "fp8", "te_current", 8, 2, rec_whole=1.0) == 24 * 16 * 3 * 6
    assert T.moe_quant_kernels(m, "megatron", "fp8", "te_mxfp8", 16, 1) == 48 * 8 * 1 * 4
    assert T.moe_quant_kernels(m, "megatron", "fp8", "te_delayed", 8, 1) == 0.0
    assert T.moe_quant_kernels(m, "megatron", "fp8", None, 8, 1) == 0.0  # Megatron's default recipe: delayed
    assert T.moe_quant_kernels(m, "megatron", "bf16", None, 8, 1) == 0.0
    assert T.moe_quant_kernels(m, "torchtitan", "fp8", "te_current", 8, 1) == 0.0
    dense = resolve(scenario_from_dict({**_qwen3(), "model": {"preset": "llama-3.1-8b"},
                                        "parallel": {"tp": 1, "pp": 1, "zero": 1}})).facts
    assert T.moe_quant_kernels(dense, "megatron", "fp8", "te_current", 1, 1) == 0.0


def test_wiring_in_the_step():
    """H100, EP 16 (8 local experts), one micro-batch, GBS 512 on 16 GPUs = 32 micro-batches: the named part
    ``moe_gemm_launch`` is (6 GEMMs + 12 casts) × 8 experts × 48 layers × 2.7 µs × 32 under current scaling and
    6 GEMMs' worth under delayed scaling; the step grows by the casts' GPU time (the host does not bind here)."""
    cur = time_estimate(resolve(scenario_from_dict(_qwen3(ep=16))))
    dly = time_estimate(resolve(scenario_from_dict(_qwen3("te_delayed", ep=16))))
    assert cur.parts["moe_gemm_launch"] == pytest.approx(18 * 8 * 48 * 2.7e-6 * 32, rel=1e-9)
    assert dly.parts["moe_gemm_launch"] == pytest.approx(6 * 8 * 48 * 2.7e-6 * 32, rel=1e-9)
    bf = time_estimate(resolve(scenario_from_dict(_qwen3(precision="bf16", ep=16))))
    assert bf.parts["moe_gemm_launch"] == pytest.approx(dly.parts["moe_gemm_launch"], rel=1e-9)


#: deepseek-ai/DeepGEMM README.md (commit 989c9e3, 2025-04-09), H800 SXM5, FP8: grouped GEMMs, TFLOP/s
#: (M per group, N, K) → TFLOP/s; the contiguous layout at 4096/8192 rows and the masked layout at 256–1024.
DEEPGEMM_GROUPED = {(8192, 4096, 7168): 1346, (8192, 7168, 2048): 1214, (4096, 4096, 7168): 1346,
                    (4096, 7168, 2048): 1214, (1024, 4096, 7168): 1233, (1024, 7168, 2048): 925,
                    (512, 4096, 7168): 1040, (512, 7168, 2048): 916, (256, 4096, 7168): 932, (256, 7168, 2048): 815}


def test_row_factor_against_deepgemm():
    """The expert GEMMs' rate falls with the rows per expert as ``1 / (1 + T0 / rows)``. DeepGEMM's table, same N and
    K, at 256 / 512 / 1024 rows relative to 4096: 0.69 / 0.77 / 0.92 (N 4096, K 7168) and 0.67 / 0.75 / 0.76
    (N 7168, K 2048); the factor gives 0.69 / 0.82 / 0.92: within 10% at five points, 20% too fast at the sixth
    (1,024 rows × 7168 × 2048, masked layout); median deviation +4.5%."""
    def factor(rows):
        return 1.0 / (1.0 + T.T0 / rows)
    dev = []
    for n, k in ((4096, 7168), (7168, 2048)):
        for rows in (256, 512, 1024):
            published = DEEPGEMM_GROUPED[(rows, n, k)] / DEEPGEMM_GROUPED[(4096, n, k)]
            dev.append(factor(rows) / factor(4096) / published - 1.0)
    assert max(abs(d) for d in dev) < 0.21 and sum(abs(d) < 0.10 for d in dev) == 5
    assert abs(float(np.median(dev))) < 0.07


def test_expert_gemm_rate_not_above_te_measurement():
    """TE PR #2045 (``general_grouped_gemm``, TE 2.7, CUDA 12.9, H100, BF16): (experts, rows, N, K) =
    (8, 4096, 768, 2048) 627.9 TFLOP/s, (16, 2048, 768, 2048) 553.9. The model's rate for the same GEMMs (the
    generation's sustained share × the size factor on the expert width and rows, plus the per-launch time) stays
    below both: the grouped GEMM is not where small-expert runs are predicted too fast."""
    peak = 989.4e12
    for g, rows, n, k, meas in ((8, 4096, 768, 2048, 627.9), (16, 2048, 768, 2048, 553.9)):
        size = 1.0 / (1.0 + T.D0 / n) / (1.0 + T.T0 / rows)
        flops = 2.0 * rows * n * k
        t = flops / (peak * T.GEN_EFFICIENCY["hopper"] * size) + T.MOE_GEMM_LAUNCH_S
        model_tflops = flops / t / 1e12
        assert 0.6 * meas < model_tflops < meas, (g, rows, model_tflops)


def test_bridge_moe_table_not_worse():
    """|error| over the 24 Megatron-Bridge MoE rows: 28.1% / 62.9% before (moe8) → 26.4% / 61.1%."""
    n, med, p90 = V.bridge_moe_stats(V.bridge_moe_results())
    assert n == 24 and med < V.BRIDGE_MOE_BEFORE_MOE9["median"] - 0.01 and p90 <= V.BRIDGE_MOE_BEFORE_MOE9["p90"]


def test_search_equals_evaluate_with_current_scaling():
    d = {"model": {"preset": "qwen3-30b-a3b"},
         "training": {"method": "pretrain", "framework": "megatron", "precision": "fp8", "fp8_recipe": "te_current",
                      "seq_len": 4096},
         "data": {"tokens": 2e10}, "constraints": {"max_gpus": 16, "gpu_candidates": ["h100-sxm-80gb", "b200-180gb"],
                                                   "prices": {g: {"card_hour": 30.0, "machine_month": 120000.0,
                                                                  "currency": "CNY"}
                                                              for g in ("h100-sxm-80gb", "b200-180gb")}}}
    s = scenario_from_dict(d)
    checked = 0
    for ctx, vec, i, sc, ev in sampled_candidates(s, np.random.default_rng(9), 30):
        step = vectorised_step_s(vec, i, ev)
        assert math.isclose(step, ev.time.step_time_s, rel_tol=1e-9), (ctx.gpu.id, sc.parallel)
        checked += 1
    assert checked >= 10


def _busiest_rank(ep: int, copies: float, n_exp: int = 128, k: int = 8) -> float:
    """moeimb10, hand-derived: the busiest of ``ep`` ranks under random routing over the mean one, ``copies`` routed
    copies per rank, the expected maximum of ``ep`` standard normals (Qwen3-30B-A3B: 128 experts, top 8)."""
    from gpuplanner.core.rank_imbalance import expected_max_normal  # checked against the integral by hand elsewhere
    z = expected_max_normal(ep)
    return 1.0 + z * ((1.0 - 1.0 / ep) * (n_exp - k) / (n_exp - 1) / copies) ** 0.5


def test_token_count_all_gather_latency():
    """Megatron's all-to-all dispatcher all-gathers the token counts over the expert-TP × EP group once per MoE
    layer's forward (``MoEAlltoAllTokenDispatcher.preprocess``): H100, EP 8 inside one node, 8.4 µs + 7 × 3.4 µs =
    32.2 µs per MoE layer on top of the all-to-all's bytes; none with expert-TP × EP = 1."""
    r = resolve(scenario_from_dict(_qwen3(precision="bf16", ep=8)))
    kw, _ = T.time_kwargs(r)
    kw = {**kw, "moe_dispatcher": "alltoall"}
    out = T.time_arrays(r.facts, **kw, tp=1, pp=1, cp=1, ep=8, dp=8, zero=1, recompute=0, mbs=1, sp=False,
                        grad_accum=4, vpp=1, num_gpus=8, gpus_per_node=8, offload=False)
    m = r.facts
    # (moeimb10: × the busiest of the 8 ranks' load over the mean, 32,768 routed copies per rank: 1.0072)
    per_layer = 4.0 * 4096 * m.k_active * m.h * 2.0 * 7 / 8 / (kw["intra_p2p_gbs"] * 1e9) * _busiest_rank(8, 4096 * 8)
    assert out["ep_comm"] == pytest.approx((per_layer + 8.4e-6 + 7 * 3.4e-6) * m.moe_frac * m.L * 4, rel=1e-9)
    assert float(T._ring_latency(1, 8, T.MOE_COUNTS_ALLGATHER, T._ScalarOps)) == 0.0


def test_host_parts_follow_the_recipe():
    """The host issues TE's per-expert casts by the same count: Qwen3-30B-A3B, EP 8 (16 local experts), 48 layers.
    Current scaling 8 forward / 18 in all per expert (moe5's count: 61.44 ms forward, 116.16 ms backward); MXFP8 kept
    at the same count (MOE_HOST_QUANT_PER_SLICE: Bridge issue #2885); delayed scaling (Megatron's default) 2 / 6 as
    BF16 (15.36, 70.08 ms). The all-to-all dispatcher's own kernels (moe11, MOE_DISPATCH_HOST_OPS: 21 forward at 24 µs,
    10 backward at 10 µs per layer) are in the parts since tidy9: + 24.192 ms and + 4.8 ms, whatever the recipe."""
    m = resolve(scenario_from_dict(_qwen3())).facts
    def parts(recipe):
        return T.moe_host_parts(m, "megatron", "fp8", 8, 1, None, recipe)
    assert np.allclose(parts("te_current"), (61.44e-3, (41 + 21) * 24e-6 * 48, 116.16e-3 + 4.8e-3))
    assert np.allclose(parts("te_current"), T.moe_host_parts(m, "megatron", "fp8", 8, 1))
    assert np.allclose(parts("te_mxfp8"), parts("te_current"))
    assert np.allclose(parts("te_delayed"), (15.36e-3, (41 + 21) * 24e-6 * 48, 70.08e-3 + 4.8e-3))
    assert np.allclose(parts(None), parts("te_delayed"))
    assert np.allclose(parts("te_delayed"), T.moe_host_parts(m, "megatron", "bf16", 8, 1))
    # B200, one micro-batch (host-bound): delayed scaling issues 12 fewer kernels per expert, so the step is shorter
    cur = time_estimate(resolve(scenario_from_dict(_qwen3(gpu="b200-180gb", ep=8))))
    dly = time_estimate(resolve(scenario_from_dict(_qwen3("te_delayed", gpu="b200-180gb", ep=8))))
    assert dly.step_time_s < cur.step_time_s
