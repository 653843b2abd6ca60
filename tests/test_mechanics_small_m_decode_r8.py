"""Issue 35, round 8 (smallm8): a decode GEMM's 128-row tile term capped at the roofline's sum bound, and the H20's
matmul share from the public sweep against the H100. Values by hand and against published measurements."""
from __future__ import annotations

import math

import pytest

from gpuplanner.core import inference as I
from gpuplanner.core import timing as T
from gpuplanner.core.catalog_hw import get_gpu


def _model(name: str) -> I.ServingModel:
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import Scenario
    r = resolve(Scenario.model_validate({"model": {"preset": name}}))
    return I.ServingModel.of(r.arch, r.params)


def _step(m, gid, b, tp, prec="bf16"):
    return I.decode_step_s(m, get_gpu(gid), precision=prec, kv_bytes=2.0, batch=b, context=2048, tp=tp,
                           eff=I.ServingEfficiency())


def _tile_only_gemm_s(m, g, prec, b, tp):
    """The decode GEMMs before smallm8: the longer of the weight stream and the 128-row tile rule."""
    eff = I.ServingEfficiency()
    bw = float(g.mem_bw_tbs) * 1e12 * I.bandwidth_fraction(g, eff)
    t_read = I.decode_weight_bytes(m, prec, b) / tp / bw + I.decode_kernels_s(m)[0]
    return t_read, I.lm_head_split_gemm_s(m, g, prec, b, tp, None)


def test_h20_share_from_the_sweep_against_the_h100():
    # zzc0721/torch-performance-test-data database.md @9d82827637: H20 142.25 of 148, H100 SXM 797.51 of 989
    # (issue 35 round 9, h20_9: the H100's loss below its sweep is carried over as memory time, fixed_loss_share;
    # the round-8 ratio rule, (142.25 / 148) / (797.51 / 989) = 1.192, is replaced)
    loss = 1 / 0.55 - 989.0 / 797.51
    want = 1 / (148.0 / 142.25 + loss * (148.0 / 989.0) * (3.35 / 4.0)) / 0.55
    assert T.sustained_clock_factor(get_gpu("h20-96gb"), "bf16") == pytest.approx(want, rel=1e-9)
    assert want == pytest.approx(1.634, abs=1e-3)
    assert T.sustained_clock_factor(get_gpu("h20-96gb"), "fp8") == pytest.approx(want, rel=1e-9)
    assert T.sustained_clock_factor(get_gpu("h100-sxm-80gb"), "bf16") == 1.0
    # the L20/L40S keep the A100 as their reference (Ada borrows Ampere's share)
    assert T.sustained_clock_factor(get_gpu("l20-48gb"), "bf16") == pytest.approx((114.14 / 119.5) / (264.53 / 312))


def test_sum_bound_by_hand_on_h20():
    m, g = _model("qwen2.5-72b"), get_gpu("h20-96gb")
    b, tp = 8, 8
    t_read, _ = _tile_only_gemm_s(m, g, "bf16", b, tp)
    # the bound: the weight stream plus the FLOPs of 16 padded rows at the large-GEMM share (no tile term)
    e = I.gemm_efficiency(m, g, "bf16", 16, tp, t0=0.0)
    assert e == pytest.approx(0.8986 / (1 + 64 / (8192 / 8)), rel=1e-3)  # fixed_loss_share (round 9)
    want = t_read + 16 * 2 * I.matmul_params(m) / tp / (148e12 * e)
    assert I.no_overlap_gemm_s(m, g, "bf16", b, tp, t_read) == pytest.approx(want, rel=1e-9)
    assert I.no_overlap_gemm_s(m, g, "bf16", 17, tp, t_read) > I.no_overlap_gemm_s(m, g, "bf16", 16, tp, t_read)


def test_h20_72b_decode_no_longer_several_weight_streams():
    # advice8 (request 116): Qwen2.5-72B bf16 TP 8 on H20 at 8-15 users took 36-38 ms a step, its weights ~5.6 ms
    m = _model("qwen2.5-72b")
    g = get_gpu("h20-96gb")
    t_read, t_tile = _tile_only_gemm_s(m, g, "bf16", 8, 8)
    assert t_tile > 3 * t_read  # the old rule: the 128-row term alone is over three weight streams (four at round 8's share)
    t, bound = _step(m, "h20-96gb", 8, 8)
    assert t < 0.5 * 36e-3  # the step before smallm8 (advice8)
    assert bound == "memory"  # the weight stream is the larger part of the bound


@pytest.mark.parametrize("gid,prec", [("a100-sxm-80gb", "bf16"), ("h100-sxm-80gb", "bf16"), ("h100-sxm-80gb", "fp8"),
                                      ("h200-sxm-141gb", "bf16"), ("rtx-4090-24gb", "bf16")])
@pytest.mark.parametrize("b", [1, 16, 64, 256])
def test_cards_with_the_ridge_above_the_tile_unchanged(gid, prec, b):
    # where 128 rows of FLOPs take no longer than the weights stream (A100, H100, H200, 4090) the tile rule stays
    m, g = _model("llama-3.1-70b"), get_gpu(gid)
    t_read, t_tile = _tile_only_gemm_s(m, g, prec, b, 8)
    assert min(t_tile, I.no_overlap_gemm_s(m, g, prec, b, 8, t_read)) == pytest.approx(t_tile, rel=1e-12)


def test_h20_fused_moe_kernel_closer_than_the_tile_rule():
    # vllm-project/vllm PR #44152, one H20, bf16 fused-MoE first GEMM, E=8, N=14336, K=4096, top-2, tuned (ms)
    g, e, k, n, kk = get_gpu("h20-96gb"), 8, 2, 14336, 4096
    bw = g.mem_bw_tbs * 1e12 * I.bandwidth_fraction(g, I.ServingEfficiency())
    peak = I.peak_flops(g, "bf16")
    for tokens, meas in {1: 0.076e-3, 32: 0.279e-3, 128: 0.435e-3, 2048: 3.606e-3}.items():
        reach = e * (1 - (1 - k / e) ** tokens)
        rows = tokens * k / reach
        t_read = reach * n * kk * 2 / bw
        flops = 2 * tokens * k * n * kk
        share = T.GEN_EFFICIENCY["hopper"] * T.sustained_clock_factor(g, "bf16")
        pad = math.ceil(rows / I.SMALL_M_TILE_ROWS - 1e-9) * I.SMALL_M_TILE_ROWS
        new = max(t_read, min(flops / (peak * share / (1 + T.T0 / rows)), t_read + 2 * reach * pad * n * kk / (peak * share)))
        old = max(t_read, flops / (peak * T.GEN_EFFICIENCY["hopper"] / (1 + T.T0 / rows)))
        assert abs(new / meas - 1) < 0.8 < abs(old / meas - 1), tokens
