"""Issue 35, round 15 (h20dec15): SGLang's block-scaled FP8 decode kernels on Hopper put the tokens on a 64-row tile
(DeepGEMM ``block_ms = (64 if m <= 64 else 128, )``; the Triton block linear's and block fused-MoE's default
``BLOCK_SIZE_M`` 64), so a decode step pays 64 rows of FP8 MMA in the small-M bound and in the experts. It binds where
64 rows cost more than the weight stream (the H20); elsewhere nothing moves. Hand-derived and against the H20 rows."""
from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

from gpuplanner.core import inference as I
from gpuplanner.core.catalog_hw import get_gpu

H20, H100 = "h20-96gb", "h100-sxm-80gb"


def _model(name: str = "qwen3-8b", block: bool = False) -> I.ServingModel:
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import Scenario
    r = resolve(Scenario.model_validate({"model": {"preset": name}}))
    return dataclasses.replace(I.ServingModel.of(r.arch, r.params), block_scaled=block)


def _step(m, gpu, engine, precision="fp8", batch=1, tp=1):
    return I.decode_step_s(m, gpu, precision=precision, kv_bytes=2.0, batch=batch, context=1024, tp=tp,
                           eff=I.ServingEfficiency(), loop="overlapped",
                           tile_rows=I.dense_tile_rows(engine, gpu, precision, m),
                           pad_rows=I.block_tile_rows(engine, gpu, precision, m))


def test_tile_rows_only_for_sglang_block_fp8_on_hopper():
    h20, h100 = get_gpu(H20), get_gpu(H100)
    block, plain = _model(block=True), _model()
    assert I.BLOCK_FP8_TILE_ROWS == {("sglang", "hopper"): 64.0}
    for g in (h20, h100):
        assert I.block_tile_rows("sglang", g, "fp8", block) == 64.0
        assert I.dense_tile_rows("sglang", g, "fp8", block) == 64.0
        assert I.block_tile_rows("sglang", g, "fp8", plain) is None  # per-tensor checkpoint: the 16-row rule
        assert I.dense_tile_rows("sglang", g, "fp8", plain) is None
        assert I.block_tile_rows("sglang", g, "bf16", block) is None
        assert I.block_tile_rows("vllm", g, "fp8", block) is None  # vLLM's block kernels not read: unchanged
        assert I.block_tile_rows(None, g, "fp8", block) is None
    assert I.dense_tile_rows("tensorrt-llm", h100, "fp8", block) == 64.0  # gemmtile11's table, as before
    assert I.block_tile_rows("sglang", get_gpu("a100-sxm-80gb"), "fp8", block) is None  # weight-only FP8 Marlin
    assert I.block_tile_rows("sglang", get_gpu("l40s-48gb"), "fp8", block) is None  # not Hopper


def test_small_m_bound_pads_to_the_tile_by_hand():
    m, g = _model(block=True), get_gpu(H20)
    t_read = 2.5e-3
    for pad, batch in ((64.0, 1), (64.0, 64), (64.0, 65), (None, 1), (None, 17)):
        rows = {None: 16.0}.get(pad, pad)
        padded = -(-batch // rows) * rows
        want = t_read + I.lm_head_split_gemm_s(m, g, "fp8", padded, 1, 0.0, head_t0=0.0)
        assert I.no_overlap_gemm_s(m, g, "fp8", batch, 1, t_read, pad) == pytest.approx(want, rel=1e-12)
    # 64 padded rows multiply four times the 16-row FLOPs of the decoder's FP8 weights (the LM head too)
    c16 = I.no_overlap_gemm_s(m, g, "fp8", 1, 1, 0.0)
    c64 = I.no_overlap_gemm_s(m, g, "fp8", 1, 1, 0.0, 64.0)
    assert c64 == pytest.approx(4.0 * c16, rel=1e-9)


def test_h20_block_step_is_the_64_row_tile_and_h100_does_not_move():
    m = _model(block=True)
    h20, h100 = get_gpu(H20), get_gpu(H100)
    t_on, bound = _step(m, h20, "sglang")
    t_v, _ = _step(m, h20, "vllm")
    # on the H20 64 rows of FP8 MMA (Qwen3-8B: 7.57 B weights) outlast the 2.6 ms weight stream; DeepGEMM's tile runs
    # at the per-tensor FP8 rate: the step's GEMMs are the per-tensor checkpoint's at T0 = 64, (1 + 64/1) rows
    plain = _model()
    want = I.lm_head_split_gemm_s(plain, h20, "fp8", 1, 1, 64.0, grouped_t0=64.0)
    flops64 = 64 * 2.0 * I.matmul_params(m) / I.peak_flops(h20, "fp8")
    assert want > flops64  # below the peak
    _, other = I.decode_kernels_s(m)
    extra_k = I.block_fp8_decode_extra_s(m, "fp8", 1, 1, 1.0)[1]
    t_attn = 1024 * I.kv_bytes_per_token_per_gpu(m, 2.0, 1) / I.kv_read_bandwidth(h20, I.ServingEfficiency())
    assert bound == "compute"
    assert t_on == pytest.approx(want + other + extra_k + t_attn, rel=1e-9)
    assert t_on > t_v + 0.5e-3
    assert 6.0e-3 < t_on < 6.66e-3  # published step (Qwen3 speed benchmark, SGLang 0.4.6): 6.66 ms
    # on the H100 the same 64 rows are under the weight stream: identical to the vLLM (16-row) step
    assert _step(m, h100, "sglang") == _step(m, h100, "vllm")
    # a per-tensor checkpoint and BF16 do not move
    assert _step(plain, h20, "sglang") == _step(plain, h20, "vllm")
    assert _step(m, h20, "sglang", "bf16") == _step(m, h20, "vllm", "bf16")


def test_moe_checkpoints_keep_the_16_row_rule():
    """An MoE step's experts run SGLang's Triton fused MoE, not DeepGEMM: no block tile (inference's comment)."""
    for name in ("qwen3-30b-a3b", "deepseek-v3"):
        m, g = _model(name, block=True), get_gpu(H20)
        assert I.block_tile_rows("sglang", g, "fp8", m) is None
        assert I.dense_tile_rows("sglang", g, "fp8", m) is None
        assert _step(m, g, "sglang") == _step(m, g, "vllm")


def test_h20_block_rows_move_toward_published():
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import validate_serve_h20dec15 as b
    q, d = b.q_scored(), b.d_scored()
    assert len(q) == 36 and len(d) == 2
    for label, (pub, before, after) in q.items():
        if "BF16" in label or "qwen3-8b" not in label:
            assert after == before, label  # BF16 (no sourced mechanism) and MoE rows do not move (note)
        else:  # dense FP8: DeepGEMM's 64-row tile
            assert abs(pub / after - 1) < abs(pub / before - 1), label
    pub, before, after = q["qwen3-8b FP8 TP1 1/2048"]
    assert pub / before - 1 < -0.14 and abs(pub / after - 1) < 0.06  # -14.6% -> -5.7%
    for pub, before, after in d.values():
        assert after == before  # DeepSeek-V3 (MoE): unchanged, +51% / +62%
    steps = b.dense_steps()  # the six dense sizes' 1-token steps: FP8 8B-32B within 7% after, BF16 unchanged
    for size in ("8B", "14B", "32B"):
        pub, before, after = steps[(size, "fp8")]
        assert abs(pub / after - 1) < 0.07 < abs(pub / before - 1) - 0.03
        pub, before, after = steps[(size, "bf16")]
        assert after == before and pub / after - 1 > 0.5


def test_dense_size_table_rules_out_a_bandwidth_share():
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import validate_serve_h20dec15 as b
    rows = {r[0]: r for r in b.dense_sizes()}
    # the config's linears = the preset's multiplied weights, less the norms' 0.3 M (which the preset counts)
    assert rows["8B"][1] == pytest.approx(I.matmul_params(_model()), rel=1e-4)
    assert rows["8B"][2] == pytest.approx(2049 / 81.73 / 2048 * 1e3, rel=1e-9)  # 12.24 ms
    for size in ("4B", "8B", "14B", "32B"):  # AWQ-INT4 (half FP8's bytes) is no faster than FP8
        assert 0.95 < rows[size][7] < 1.06


def test_above_64_tokens_deepgemm_takes_128_row_blocks():
    """DeepGEMM's ``block_ms = (64 if m <= 64 else 128, )``: above 64 tokens the step is the time model's T0 rule, with
    the sum bound padded to 128-row blocks, still at the per-tensor FP8 rate."""
    from gpuplanner.core import timing as T
    m, g = _model(block=True), get_gpu(H20)
    kw = dict(precision="fp8", kv_bytes=2.0, context=1024, tp=1, eff=I.ServingEfficiency(), loop="overlapped")
    for b in (65, 100, 200):
        got = I.decode_step_s(m, g, batch=b, **kw, tile_rows=64.0, pad_rows=64.0)
        assert got == I.decode_step_s(m, g, batch=b, **kw, tile_rows=None, pad_rows=float(T.T0))
    assert I.decode_step_s(m, g, batch=64, **kw, tile_rows=64.0, pad_rows=64.0) != \
        I.decode_step_s(m, g, batch=64, **kw, tile_rows=None, pad_rows=float(T.T0))


def test_fragment_is_registered_and_carries_the_scripts_figures():
    """bench/data/h20dec15.md is in bench/validate_time.py's list, starts with its HTML comment and carries the dense
    FP8 steps' errors the script computes now (a model change that moves them fails here until the note is updated)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import validate_serve_h20dec15 as b
    root = Path(__file__).resolve().parents[1]
    assert '*_fragments("h20dec15.md")' in (root / "bench" / "validate_time.py").read_text(encoding="utf-8")
    text = (root / "bench" / "data" / "h20dec15.md").read_text(encoding="utf-8")
    assert text.startswith("<!--")
    steps = b.dense_steps()
    for i in (1, 2):
        want = " / ".join(f"{steps[(s, 'fp8')][0] / steps[(s, 'fp8')][i] - 1:+.1%}" for s in ("8B", "14B", "32B"))
        assert want in text
