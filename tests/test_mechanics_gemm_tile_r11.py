"""Issue 35, round 11 (gemmtile11): TensorRT-LLM's dense FP8 GEMMs on Hopper pay a 64-row tile (its SM90 candidate
tiles start at 64 rows, the wgmma M), the MoE experts' grouped GEMM and vLLM keep the 128-row ``T0``. Hand-derived."""
from __future__ import annotations

import pytest

from gpuplanner.core import inference as I
from gpuplanner.core import timing as T
from gpuplanner.core.catalog_hw import get_gpu


def _model(name: str) -> I.ServingModel:
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import Scenario
    r = resolve(Scenario.model_validate({"model": {"preset": name}}))
    return I.ServingModel.of(r.arch, r.params)


def test_tile_rows_by_engine_card_and_precision():
    h200, h100 = get_gpu("h200-sxm-141gb"), get_gpu("h100-sxm-80gb")
    assert I.dense_tile_rows("tensorrt-llm", h200, "fp8") == 64.0
    assert I.dense_tile_rows("tensorrt-llm", h100, "fp8") == 64.0
    assert I.dense_tile_rows("vllm", h200, "fp8") is None  # 128-row tiles above M = 128
    assert I.dense_tile_rows("sglang", h200, "fp8") is None
    assert I.dense_tile_rows("tensorrt-llm", h200, "bf16") is None  # cuBLAS 16-bit: T0
    assert I.dense_tile_rows("tensorrt-llm", get_gpu("a100-sxm-80gb"), "fp8") is None  # no FP8 tensor cores
    assert I.dense_tile_rows("tensorrt-llm", get_gpu("l40s-48gb"), "fp8") is None  # Ada: no wgmma
    assert I.dense_tile_rows(None, h200, "fp8") is None


def test_dense_gemm_share_by_hand_70b_h200_184_rows():
    m, g, b = _model("llama-3.1-70b"), get_gpu("h200-sxm-141gb"), 184.0
    full = {t: I.lm_head_split_gemm_s(m, g, "fp8", b, 1, t) for t in (None, 64.0)}
    # the 16-bit LM head keeps T0 in both; the decoder's FP8 GEMMs take time ∝ 1 + rows/b
    h = min(I._head16(m), I.matmul_params(m))
    t_head = b * 2.0 * h / (I.peak_flops(g, "bf16") * I.gemm_efficiency(m, g, "bf16", b, 1))
    ratio = (full[64.0] - t_head) / (full[None] - t_head)
    assert ratio == pytest.approx((1 + 64.0 / b) / (1 + T.T0 / b), rel=1e-9)  # 0.79 of the 128-row time


def test_trt_decode_step_faster_vllm_unchanged():
    m, g = _model("llama-3.1-70b"), get_gpu("h200-sxm-141gb")
    kw = dict(precision="fp8", kv_bytes=1.0, batch=184, context=1100, tp=1, eff=I.ServingEfficiency())
    t128, _ = I.decode_step_s(m, g, **kw)
    t64, _ = I.decode_step_s(m, g, **kw, tile_rows=I.dense_tile_rows("tensorrt-llm", g, "fp8"))
    t_v, _ = I.decode_step_s(m, g, **kw, tile_rows=I.dense_tile_rows("vllm", g, "fp8"))
    assert t64 < 0.9 * t128
    assert t_v == t128


def test_moe_grouped_gemm_keeps_128_rows():
    m, g, b = _model("mixtral-8x7b"), get_gpu("h100-sxm-80gb"), 256.0
    peak = I.peak_flops(g, "fp8")
    active = m.expert_params * I._routed_share(m)
    e_step = I.gemm_efficiency(m, g, "fp8", b, 2, t0=64.0)
    e_exp = I.gemm_efficiency(m, g, "fp8", I.expert_rows(m, b), 2, t0=None)
    want = b * 2.0 * active / 2 / peak * (1.0 / e_exp - 1.0 / e_step)
    got = I.expert_grouped_gemm_extra_s(m, g, "fp8", b, b, 2, 64.0, expert_t0=None)
    assert got == pytest.approx(want, rel=1e-12)
    # the dense part at 64 rows plus the experts' extra: the experts end at their 128-row rule
    same = I.expert_grouped_gemm_extra_s(m, g, "fp8", b, b, 2, 64.0)
    assert got > same


def test_trt_max_load_row_moves_toward_published(monkeypatch):
    # TensorRT-LLM perf-overview (PyTorch backend), Llama 3.1 70B FP8 TP1 H200 128/2048: 4,351 output tok/s
    m, g = _model("llama-3.1-70b"), get_gpu("h200-sxm-141gb")
    kw = dict(prompt_tokens=128, output_tokens=2048, precision="fp8", tp=1, engine="tensorrt-llm")
    after = I.max_throughput_per_gpu(m, g, **kw)
    monkeypatch.setattr(I, "DENSE_FP8_TILE_ROWS", {})
    before = I.max_throughput_per_gpu(m, g, **kw)
    assert before < after < 4351.0 * 1.05
    assert abs(after / 4351.0 - 1) < abs(before / 4351.0 - 1)
