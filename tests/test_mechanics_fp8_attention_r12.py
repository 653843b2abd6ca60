"""Issue 35, round 12 (fp8serve12): a prefill's attention products run in FP8 only with FP8 weights AND an FP8 KV
cache (vLLM ``--quantization fp8`` leaves FlashAttention on BF16 inputs with ``--kv-cache-dtype auto``); the linear
layers keep the FP8 rate. Checks against the hand-derived attention time and the silybench vLLM 0.30 rows."""
from __future__ import annotations

import math

import pytest

from gpuplanner.core import inference as inf
from gpuplanner.core.catalog_hw import get_gpu
from gpuplanner.core.estimate import resolve
from gpuplanner.core.scenario import Scenario


def _model(preset="qwen3-8b"):
    r = resolve(Scenario.model_validate({"model": {"preset": preset}}))
    return inf.ServingModel.of(r.arch, r.params)


def test_attention_precision_by_weights_and_cache():
    assert inf.attention_precision("fp8") == "fp8"  # fp8 weights default to an fp8 cache
    assert inf.attention_precision("fp8", "fp8") == "fp8"
    assert inf.attention_precision("fp8", "bf16") == "bf16"
    assert inf.attention_precision("int8") == "bf16"  # W8A8 INT8: no 8-bit attention
    assert inf.attention_precision("bf16", "fp8") == "bf16"
    assert inf.attention_precision("int4") == "bf16"


def test_fp8_first_token_with_bf16_cache_pays_the_attention_at_the_16_bit_rate():
    m, g, p = _model(), get_gpu("h100-sxm-80gb"), 8192
    with8 = inf.time_to_first_token_s(m, g, prompt_tokens=p, precision="fp8", kv_precision="fp8")
    with16 = inf.time_to_first_token_s(m, g, prompt_tokens=p, precision="fp8", kv_precision="bf16")
    # hand-derived: causal attention 2·L·H·d·P² FLOPs at each rate and the prompt's GEMM share (ridge rows of fp8)
    flops = 2.0 * m.num_layers * m.num_heads * m.head_dim * p * p
    t0 = inf.ridge_rows(g, "fp8")
    t16 = flops / (inf.peak_flops(g, "bf16") * inf.gemm_efficiency(m, g, "bf16", p, 1, t0=t0))
    t8 = flops / (inf.peak_flops(g, "fp8") * inf.gemm_efficiency(m, g, "fp8", p, 1, t0=t0))
    assert with16 - with8 == pytest.approx(t16 - t8, rel=1e-6)
    assert with16 - with8 > 0.010  # Qwen3-8B at 8,192 tokens on an H100: ~17 ms
    # the default (no cache precision given) is the fp8 cache: unchanged for the FP8 tables scored before
    assert inf.time_to_first_token_s(m, g, prompt_tokens=p, precision="fp8") == pytest.approx(with8)


def test_bf16_and_short_prompts_do_not_move():
    m, g = _model(), get_gpu("h100-sxm-80gb")
    a = inf.time_to_first_token_s(m, g, prompt_tokens=2048, precision="bf16")
    b = inf.time_to_first_token_s(m, g, prompt_tokens=2048, precision="bf16", kv_precision="fp8")
    assert a == pytest.approx(b)
    s8 = inf.time_to_first_token_s(m, g, prompt_tokens=16, precision="fp8", kv_precision="fp8")
    s16 = inf.time_to_first_token_s(m, g, prompt_tokens=16, precision="fp8", kv_precision="bf16")
    assert s16 == pytest.approx(s8, rel=2e-3)  # a short prompt streams its weights: attention is negligible


def test_chunked_prompt_attention_to_prior_chunks_follows_the_cache():
    m, g = _model(), get_gpu("h100-sxm-80gb")
    f8 = inf.time_to_first_token_s(m, g, prompt_tokens=16384, precision="fp8", chunk=8192, kv_precision="fp8")
    f16 = inf.time_to_first_token_s(m, g, prompt_tokens=16384, precision="fp8", chunk=8192, kv_precision="bf16")
    one8 = inf.time_to_first_token_s(m, g, prompt_tokens=8192, precision="fp8", kv_precision="fp8")
    one16 = inf.time_to_first_token_s(m, g, prompt_tokens=8192, precision="fp8", kv_precision="bf16")
    assert f16 - f8 > 2.0 * (one16 - one8)  # the second chunk also attends to the first 8,192 tokens


def test_size_serving_first_token_uses_the_plans_cache_precision():
    m, g = _model(), get_gpu("h100-sxm-80gb")
    kw = dict(concurrency=8, context_tokens=8704, prompt_tokens=8192, output_tokens=512, precision="fp8")
    a = inf.size_serving(m, g, kv_precision="fp8", **kw)
    b = inf.size_serving(m, g, kv_precision="bf16", **kw)
    assert b.ttft_s > a.ttft_s + 0.010
    assert a.kv_precision == "fp8" and b.kv_precision == "bf16"


def test_silybench_fp8_long_prompt_first_token_moves_toward_published():
    """vLLM 0.30, Qwen3-8B, one H100, --quantization fp8, KV bf16: TTFT p95 205.1 ms at 8,192 tokens
    (tgarg01/silybench-data). With FP8 attention the model said 147 ms (−28%); with BF16 attention it must be closer."""
    m, g = _model(), get_gpu("h100-sxm-80gb")
    kw = dict(prompt_tokens=8192, precision="fp8", tp=1, loop=inf.ENGINE_LOOP["vllm"],
              chunk=inf.prefill_chunk_tokens("vllm", g))
    old = inf.time_to_first_token_s(m, g, kv_precision="fp8", **kw) * 1e3
    new = inf.time_to_first_token_s(m, g, kv_precision="bf16", **kw) * 1e3
    assert abs(new / 205.084 - 1) < abs(old / 205.084 - 1) - 0.05
    assert math.isfinite(new) and new < 205.084  # still short of it: vLLM's FP8 GEMMs (docs/validation_inference.md)


def test_suite_c_fp8_rows_run_with_vllms_auto_kv_cache():
    """AccelMark suite C (vLLM 0.7.3, Llama-3.1-8B FP8 W8A8, one A100-SXM4-80GB, 100 prompts at once): the runner sets no
    kv_cache_dtype, so vLLM keeps the cache in bf16; scored so, the row is within 18% of the published 2,823 tok/s,
    where the planner's fp8-cache default gave +23%."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import validate_serve_oos9 as v
    got = v.offline_run("a100-sxm-80gb", "C", "0.7.3", "fp8").output_tokens_per_s
    assert abs(got / 2823.0 - 1) < 0.18
    v.KV_AS_BEFORE = True
    try:
        old = v.offline_run("a100-sxm-80gb", "C", "0.7.3", "fp8").output_tokens_per_s
    finally:
        v.KV_AS_BEFORE = False
    assert old / 2823.0 - 1 > 0.2 and got < old
