"""Serving mechanics (core/inference.py): KV heads replicated under TP, MoE decode reads the experts reached,
prefill stalls inside the latency target, the engine's memory fraction."""

from __future__ import annotations

import pytest

from gpuplanner.core import inference as I
from gpuplanner.core.catalog_hw import get_gpu

GQA = I.ServingModel(name="gqa", params_total=8e9, params_active=8e9, num_layers=32, num_heads=32, num_kv_heads=8,
                     head_dim=128)
MOE = I.ServingModel(name="moe", params_total=47e9, params_active=13e9, num_layers=32, num_heads=32, num_kv_heads=8,
                     head_dim=128, expert_params=45e9, num_experts=8, experts_per_tok=2)
MLA = I.ServingModel(name="mla", params_total=16e9, params_active=3e9, num_layers=27, num_heads=16, num_kv_heads=16,
                     head_dim=128, kv_lora_rank=512, qk_rope_head_dim=64)


def test_kv_heads_replicated_beyond_tp():
    full = I.kv_bytes_per_token(GQA, 2.0)
    assert I.kv_bytes_per_token_per_gpu(GQA, 2.0, 4) == pytest.approx(full / 4)
    assert I.kv_bytes_per_token_per_gpu(GQA, 2.0, 8) == pytest.approx(full / 8)
    # 16 ranks, 8 KV heads: each rank still holds one head (vLLM get_num_kv_heads)
    assert I.kv_bytes_per_token_per_gpu(GQA, 2.0, 16) == pytest.approx(full / 8)
    # MLA: the latent on every rank
    assert I.kv_bytes_per_token_per_gpu(MLA, 2.0, 4) == pytest.approx(I.kv_bytes_per_token(MLA, 2.0))


def test_moe_decode_reads_the_experts_reached():
    one = I.decode_weight_bytes(MOE, "bf16", 1)
    # batch 1: shared weights + k/E of the experts
    assert one == pytest.approx((47e9 - 45e9 + 45e9 * 2 / 8) * 2.0)
    assert I.decode_weight_bytes(MOE, "bf16", 4) == pytest.approx((2e9 + 45e9 * (1 - (6 / 8) ** 4)) * 2.0)
    assert I.decode_weight_bytes(MOE, "bf16", 1000) == pytest.approx(I.weight_bytes(MOE, "bf16"), rel=1e-6)
    assert I.decode_weight_bytes(GQA, "bf16", 1) == I.weight_bytes(GQA, "bf16")


def test_latency_target_counts_prefill_stalls():
    g = get_gpu("h100-sxm-80gb")
    size = I.size_serving(GQA, g, concurrency=200, context_tokens=4096, prompt_tokens=3584, output_tokens=512,
                          tokens_per_s_per_user=20.0)
    pre = I.prefill_s(GQA, g, precision="bf16", prompt=3584, tp=size.tp, eff=I.ServingEfficiency())
    # what each user sees: the step plus the prefills of the batch's other requests, per output token
    per_user = 1.0 / (size.step_s + size.batch_per_replica * pre / 512)
    assert per_user >= 20.0 - 1e-9


def test_memory_utilization_sets_kv_capacity():
    g = get_gpu("h100-sxm-80gb")
    kw = dict(precision="bf16", kv_bytes=2.0, context=4096, tp=1, eff=I.ServingEfficiency())
    assert I.max_batch_by_memory(GQA, g, **kw, utilization=0.5) < I.max_batch_by_memory(GQA, g, **kw)


#: GQA's fixed kernel time by hand (issue 35 round 5): 32 layers × 4 GEMMs + the LM head = 129 GEMM kernels; 32 × 11
#: + 12 = 364 kernels in all, so 235 others; 2.7 µs each
GQA_GEMM_K, GQA_OTHER_K = 129 * 2.7e-6, 235 * 2.7e-6


def test_decode_streams_the_weights_at_one_share_on_every_card():
    """Issue 35 round 5: the weights stream at the copy share (0.8) on HBM and GDDR alike; what a single MBU of 0.6 /
    0.75 stood for is the fixed time of the step's kernels (decode_kernels_s)."""
    eff = I.ServingEfficiency()
    for g in ("rtx-4090-24gb", "l40s-48gb", "h100-sxm-80gb"):
        assert I.bandwidth_fraction(get_gpu(g), eff) == 0.8
    t, bound = I.decode_step_s(GQA, get_gpu("rtx-4090-24gb"), precision="bf16", kv_bytes=2.0, batch=1, context=1,
                               tp=1, eff=eff)
    assert bound == "memory"
    assert t == pytest.approx(16e9 / (1.008e12 * 0.8) + GQA_GEMM_K + GQA_OTHER_K
                              + I.kv_bytes_per_token(GQA, 2.0) / (1.008e12 * 0.8), rel=1e-12)


# ------------------------------------------------------------------ issue 35, round 3: engine mechanics

H100 = "h100-sxm-80gb"
GIB = 1024.0 ** 3


def _preset(name):
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import Scenario
    r = resolve(Scenario.model_validate({"model": {"preset": name}}))
    return I.ServingModel.of(r.arch, r.params)


def test_gemm_efficiency_is_the_time_models_rule():
    g = get_gpu(H100)
    # Hopper 0.55 × FP8 MAMF ratio 70.9/80.3 × width factor 1/(1 + 64/4096) × rows factor 1/(1 + 128/128)
    assert I.gemm_efficiency(GQA, g, "fp8", 128, 1) == pytest.approx(0.55 * 70.9 / 80.3 / (1 + 64 / 4096) / 2)
    # A100 BF16 at 2048 rows, TP 4 (width 1024)
    a = get_gpu("a100-sxm-80gb")
    assert I.gemm_efficiency(GQA, a, "bf16", 2048, 4) == pytest.approx(0.70 / (1 + 64 / 1024) / (1 + 128 / 2048))
    # more rows fill more tiles
    assert I.gemm_efficiency(GQA, g, "bf16", 64, 1) < I.gemm_efficiency(GQA, g, "bf16", 8192, 1)


def test_tp_all_reduce_by_hand():
    g = get_gpu(H100)
    assert I.tp_all_reduce_s(GQA, g, tokens=100, tp=1) == 0.0
    # two per layer; 2(n−1)/n of tokens × 4096 × 2 B at the 370 GB/s busbw; NCCL picks the faster protocol:
    # LL (6.6 µs + 0.6 µs per NVLink step, half the bandwidth) for a decode step's small message ...
    small = 2 * 3 / 4 * 100 * 4096 * 2
    ll = 6.6e-6 + 6 * 0.6e-6 + small / (370e9 * 0.5)
    assert I.tp_all_reduce_s(GQA, g, tokens=100, tp=4) == pytest.approx(2 * 32 * ll)
    # ... Simple (8.4 µs + 3.4 µs per step, full bandwidth) for a prefill chunk's
    big = 2 * 3 / 4 * 8192 * 4096 * 2
    simple = 8.4e-6 + 6 * 3.4e-6 + big / 370e9
    assert I.tp_all_reduce_s(GQA, g, tokens=8192, tp=4) == pytest.approx(2 * 32 * simple)


def test_decode_kernels_add_at_large_batch():
    """At a large batch the GEMMs are compute bound and the attention still has to stream every KV cache: the
    step is their sum, not the larger of all bytes and all FLOPs."""
    g = get_gpu(H100)
    eff = I.ServingEfficiency()
    b, ctx = 2048, 1024
    t, bound = I.decode_step_s(GQA, g, precision="fp8", kv_bytes=1.0, batch=b, context=ctx, tp=1, eff=eff)
    gemm = b * 2 * 8e9 / (1979e12 * I.gemm_efficiency(GQA, g, "fp8", b, 1))
    attn = b * ctx * I.kv_bytes_per_token(GQA, 1.0) / (3.35e12 * 0.8)
    # the GEMMs' fixed kernel time is inside the compute roof's share; the other kernels' is paid (round 5)
    assert bound == "compute" and t == pytest.approx(gemm + attn + GQA_OTHER_K, rel=1e-12)
    assert t > max(gemm, attn) * 1.3


def test_ttft_against_tensorrt_llm_first_token_tables():
    """TensorRT-LLM docs/source/performance.md (commit 138f96d), batch-1 first-token latency (v0.5): the prompt's
    GEMMs at the efficiency of its own rows. A100 rows within 12%, the 2048-token rows within 12%."""
    m7, m70 = _preset("llama-2-7b"), _preset("llama-2-70b")
    rows = [(m7, "a100-sxm-80gb", "bf16", 1, 128, 16), (m7, "a100-sxm-80gb", "bf16", 1, 2048, 133),
            (m70, "a100-sxm-80gb", "bf16", 4, 128, 47), (m70, "a100-sxm-80gb", "bf16", 4, 2048, 377),
            (m7, H100, "fp8", 1, 2048, 36), (m70, H100, "fp8", 4, 2048, 109)]
    rows += [(m7, H100, "fp8", 1, 128, 7), (m70, H100, "fp8", 4, 128, 26)]
    errs = []
    for m, gid, prec, tp, isl, ms in rows:
        got = I.time_to_first_token_s(m, get_gpu(gid), prompt_tokens=isl, precision=prec, tp=tp) * 1e3
        errs.append(abs(got / ms - 1))
        # the two H100 FP8 rows at 128 tokens were −47…−48% before the ridge rows (issue 35, round 3)
        assert abs(got / ms - 1) < 0.25, (gid, prec, tp, isl, got, ms)
    assert sorted(errs)[len(errs) // 2] < 0.12


def test_ridge_rows_by_hand():
    """Rows at which a GEMM's FLOPs take as long as reading its weights: peak × bytes/weight ÷ (2 × bandwidth)."""
    assert I.ridge_rows(get_gpu("a100-sxm-80gb"), "bf16") == pytest.approx(312e12 * 2 / (2 * 2.039e12))  # 153
    assert I.ridge_rows(get_gpu(H100), "fp8") == pytest.approx(1979e12 * 1 / (2 * 3.35e12))  # 295
    assert I.ridge_rows(get_gpu(H100), "bf16") == pytest.approx(I.ridge_rows(get_gpu(H100), "fp8"), rel=0.01)
    # a 128-token prompt's GEMMs: half the A100 BF16 share at T0 = 128 would be 0.5; at 153 rows it is 128/281
    g = get_gpu("a100-sxm-80gb")
    assert I.gemm_efficiency(GQA, g, "bf16", 128, 1, t0=I.ridge_rows(g, "bf16")) == pytest.approx(
        I.gemm_efficiency(GQA, g, "bf16", 1e12, 1) / (1 + 153.0 / 128), rel=1e-3)
    # a short FP8 prompt run alone on H100 streams its own weights: (1 + 128/295)/(1 + 128/128) of the T0 time ...
    eff = I.ServingEfficiency()
    h = get_gpu(H100)
    alone = I.prefill_s(GQA, h, precision="fp8", prompt=128, tp=1, eff=eff, rows=128, own_weights=True)
    at_t0 = I.prefill_s(GQA, h, precision="fp8", prompt=128, tp=1, eff=eff, rows=128)
    assert alone / at_t0 == pytest.approx((1 + 295.4 / 128) / (1 + 128 / 128), rel=1e-3)
    # ... while inside a continuous batch the step it joins reads them (decode_step_s): the tile constant T0 stays
    assert at_t0 == pytest.approx(2 * (8e9 * 128 + 32 * 32 * 128 * 128 * 128) / (
        1979e12 * I.gemm_efficiency(GQA, h, "fp8", 128, 1)), rel=1e-9)


#: TensorRT-LLM v0.9.0 batch-1 first-token latency, ms (docs/source/performance/perf-overview.md "Low Latency":
#: "All data was generated using version 0.9.0"): dense models only (the Mixtral engines were built from a config
#: file alone)
TTFT_V09 = [
    ("llama-2-7b", "h200-sxm-141gb", "fp8", 1, 128, 5.7), ("llama-2-7b", "h200-sxm-141gb", "fp8", 1, 2048, 30.2),
    ("llama-2-70b", "h200-sxm-141gb", "fp8", 4, 128, 17.8), ("llama-2-70b", "h200-sxm-141gb", "fp8", 4, 2048, 103.0),
    ("mistral-7b-v0.1", "h200-sxm-141gb", "fp8", 1, 128, 5.9),
    ("mistral-7b-v0.1", "h200-sxm-141gb", "fp8", 1, 2048, 31.7),
    ("llama-2-7b", H100, "fp8", 1, 128, 6.3), ("llama-2-7b", H100, "fp8", 1, 2048, 30.8),
    ("llama-2-70b", H100, "fp8", 4, 128, 19.6), ("llama-2-70b", H100, "fp8", 8, 2048, 85.1),
    ("mistral-7b-v0.1", H100, "fp8", 1, 128, 6.5), ("mistral-7b-v0.1", H100, "fp8", 1, 2048, 32.4),
    ("llama-2-7b", "l40s-48gb", "fp8", 1, 128, 14.1), ("llama-2-7b", "l40s-48gb", "fp8", 1, 2048, 80.1),
    ("llama-2-70b", "l40s-48gb", "fp8", 8, 128, 70.4), ("llama-2-70b", "l40s-48gb", "fp8", 4, 2048, 673.3),
    ("mistral-7b-v0.1", "l40s-48gb", "fp8", 1, 128, 15.4), ("mistral-7b-v0.1", "l40s-48gb", "fp8", 1, 2048, 87.3),
    ("llama-2-7b", "a100-sxm-80gb", "bf16", 1, 128, 16.2), ("llama-2-7b", "a100-sxm-80gb", "bf16", 1, 2048, 132.4),
    ("llama-2-70b", "a100-sxm-80gb", "bf16", 4, 128, 45.6), ("llama-2-70b", "a100-sxm-80gb", "bf16", 8, 2048, 249.2),
    ("mistral-7b-v0.1", "a100-sxm-80gb", "bf16", 1, 128, 16.3),
    ("mistral-7b-v0.1", "a100-sxm-80gb", "bf16", 1, 2048, 139.6),
]


def test_ttft_against_tensorrt_llm_v09_tables():
    """Out of sample (not looked at while the ridge rows were written): median < 12%, p90 < 25%, every row < 30%.
    Before the ridge rows the 128-token FP8 rows on H100/H200 were −22…−42%."""
    errs = []
    for p, gid, prec, tp, isl, ms in TTFT_V09:
        got = I.time_to_first_token_s(_preset(p), get_gpu(gid), prompt_tokens=isl, precision=prec, tp=tp) * 1e3
        errs.append(abs(got / ms - 1))
        assert abs(got / ms - 1) < 0.30, (p, gid, tp, isl, got, ms)
    errs.sort()
    assert errs[len(errs) // 2] < 0.12 and errs[int(round(0.9 * (len(errs) - 1)))] < 0.25


#: Published batch-1 decode speeds, tokens/s: pytorch-labs/gpt-fast README (8×A100-80GB SXM at 330 W, bf16,
#: torch.compile + CUDA graphs, 5-token prompt; "Tensor Parallelism" table) and XiongjieDai/GPU-Benchmarks-on-LLM-
#: Inference README (llama.cpp, all layers on the GPU, F16: LLaMA 2 7B average eval speed, LLaMA 3 8B tg 512)
DECODE_B1 = [
    ("llama-2-7b", "a100-sxm-80gb", 1, 104.9), ("llama-2-7b", "a100-sxm-80gb", 2, 168.84),
    ("llama-2-7b", "a100-sxm-80gb", 4, 254.02), ("llama-2-7b", "a100-sxm-80gb", 8, 328.43),
    ("llama-2-70b", "a100-sxm-80gb", 2, 21.32), ("llama-2-70b", "a100-sxm-80gb", 4, 38.01),
    ("llama-2-70b", "a100-sxm-80gb", 8, 62.50),
    ("llama-2-7b", "rtx-4090-24gb", 1, 60.78), ("llama-3-8b", "rtx-4090-24gb", 1, 54.84),
    ("llama-2-7b", "rtx-a6000-48gb", 1, 44.01),
]


def test_batch1_decode_against_published_runs():
    """One request decoding: the weights at the card's bandwidth share (HBM 0.6, GDDR 0.75), the attention over a
    short context and the TP all-reduces. Median < 15%, every row < 35%."""
    eff = I.ServingEfficiency()
    errs = []
    for p, gid, tp, tok_s in DECODE_B1:
        t, bound = I.decode_step_s(_preset(p), get_gpu(gid), precision="bf16", kv_bytes=2.0, batch=1, context=256,
                                   tp=tp, eff=eff)
        assert bound == "memory"
        errs.append(abs(1 / t / tok_s - 1))
        assert abs(1 / t / tok_s - 1) < 0.35, (p, gid, tp, 1 / t, tok_s)
    assert sorted(errs)[len(errs) // 2] < 0.15
    # the published runs themselves: a GDDR card reaches a larger share of its bandwidth than the HBM A100
    w7 = I.weight_bytes(_preset("llama-2-7b"), "bf16")
    assert w7 * 60.78 / 1.008e12 > w7 * 104.9 / 2.039e12


def test_vllm_kv_pool_by_hand_and_against_its_log():
    m = _preset("llama-3-8b")
    g = get_gpu(H100)
    # total × 0.9 − weights − vLLM V1's profile peak: the larger of the forward (8192 tokens × (2h + 3 ffn) × 2 B)
    #   and the sampler (1024 seqs × vocab × 4 B × 4), run one after the other (issue 35 r7) − 0.25 GiB that the profile
    #   adds outside torch (H100: 8192 tokens and 1024 sequences, vLLM get_batch_defaults)
    act = max(8192 * (2 * 4096 + 3 * 14336) * 2, 1024 * 128256 * 4 * 4)
    # (the total is what CUDA reports: 79.22 GiB of the catalog's 80, CUDA_VISIBLE_SHARE)
    expect = 79.22 * GIB * 0.9 - m.params_total * 2 - act - 0.25 * GIB
    assert I.kv_cache_bytes_per_gpu(m, g, precision="bf16", tp=1) == pytest.approx(expect)
    assert I.activation_peak_bytes(m, 1, (8192, 256)) / GIB == pytest.approx(1.27, abs=0.01)  # the log: 1.26 GiB
    # vLLM PR #10511 (vLLM 0.6, its older split: 1.79 GiB outside torch, 1.26 GiB peak): 0.90 → 53.29 GiB of KV cache
    got = I.kv_cache_bytes_per_gpu(m, g, precision="bf16", tp=1) / GIB
    assert abs(got / 53.29 - 1) < 0.04, got
    # smaller cards run vLLM's small budget (2048 tokens, 256 sequences)
    assert I.token_budget("vllm", get_gpu("l40s-48gb")) == (2048, 256)
    assert I.token_budget("vllm", get_gpu("a100-sxm-80gb")) == (2048, 256)
    assert I.token_budget("vllm", g) == (8192, 1024)


def test_vllm_v1_profile_peak_and_non_torch_share():
    """vLLM V1 runs the profile forward and then the sampler (GPUModelRunner.profile_run): the torch peak is the larger
    part, not the sum; only what the profile adds outside torch counts (issue 35 round 7). Checked against vLLM 0.19.0
    start-up logs (llm-d-planner accuracy sweep, H100 80GB, gpu_memory_utilization 0.95, 79.19 GiB seen)."""
    m = _preset("llama-3.1-8b")
    fwd = 8192 * (2 * 4096 + 3 * 14336) * 2
    smp = 1024 * 128256 * 4 * 4
    assert I.vllm_profile_peak_bytes(m, 1, (8192, 1024)) == pytest.approx(max(fwd, smp))
    assert I.vllm_profile_peak_bytes(m, 1, (8192, 1024)) / GIB == pytest.approx(1.96, abs=0.01)  # the log: 1.89
    # the other engines keep the sum (their own profiling is not vLLM's)
    assert I.activation_peak_bytes(m, 1, (8192, 1024)) == pytest.approx(fwd + smp)
    g = get_gpu(H100)
    assert I.engine_reserved_bytes(m, g, 1, "vllm") == pytest.approx(max(fwd, smp) + 0.25 * GIB)
    assert I.engine_reserved_bytes(m, g, 2, "vllm") == pytest.approx(max(fwd, smp) + 2.07 * GIB)
    trt = fwd + 256 * 128256 * 4 * 4 + 1.79 * GIB  # TensorRT-LLM: 8192 tokens, 256 sequences, the sum
    assert I.engine_reserved_bytes(m, g, 1, "tensorrt-llm") == pytest.approx(trt)
    # published pools (GiB) of models whose logs did not set the 0.25 / 2.07 GiB: within 4% (the old split: −3…−76%)
    rows = [("qwen2.5-7b", "bf16", 1, 58.53), ("qwen2.5-7b", "bf16", 4, 67.34), ("qwen3-8b", "bf16", 1, 57.50),
            ("llama-3.1-70b", "fp8", 2, 37.28), ("llama-2-7b", "bf16", 1, 61.66), ("gemma-2-27b", "bf16", 1, 20.59),
            ("qwen2.5-72b", "bf16", 2, 3.04), ("mixtral-8x7b", "bf16", 2, 28.44), ("deepseek-v2-lite", "bf16", 1, 43.61)]
    for p, prec, tp, pub in rows:
        got = I.kv_cache_bytes_per_gpu(_preset(p), g, precision=prec, tp=tp, utilization=0.95) / GIB
        assert abs(got / pub - 1) < 0.04, (p, tp, got, pub)


def test_engines_reserve_memory_their_own_way():
    m = _preset("llama-3.1-70b")
    g = get_gpu("h200-sxm-141gb")
    w = m.params_total * 1.0 + I.sixteen_bit_params(m)  # the vocabulary tables stay 16-bit (issue 35 r6 serve8)
    other = I.activation_peak_bytes(m, 1, I.token_budget("tensorrt-llm", g)) + 1.79 * GIB
    trt = I.kv_cache_bytes_per_gpu(m, g, precision="fp8", tp=1, engine="tensorrt-llm")
    seen = 141 * GIB * I.CUDA_VISIBLE_SHARE
    assert trt == pytest.approx(0.9 * (seen - w - other))  # a share of what is left free
    sgl = I.kv_cache_bytes_per_gpu(m, g, precision="fp8", tp=1, engine="sglang", utilization=0.93)
    # SGLang: a share of the memory free after its start-up, 0.5 GiB on one NVLink card (issue 35 round 10)
    assert sgl == pytest.approx(0.93 * (seen - 0.5 * GIB) - w)
    # TensorRT-LLM's GUARANTEED_NO_EVICT holds the whole request; vLLM pages as it grows
    assert I.reserved_context("tensorrt-llm", 128, 2048, 1152) == 2176
    assert I.reserved_context("vllm", 128, 2048, 1152) == 1152
    kw = dict(precision="fp8", kv_precision=None, context=1152, prompt=128, output=2048, tp=1,
              tokens_per_s_per_user=None)
    v = I.replica(m, g, **kw)
    t = I.replica(m, g, **kw, engine="tensorrt-llm")
    # issue 35 r13 (trtmem13): the engine trtllm-bench builds for 128/2048 (its max_num_tokens, max_batch_size)
    built = I.trtllm_bench_budget(m, g, tp=1, precision="fp8", kv_precision=None, prompt=128, output=2048)
    trt_built = I.kv_cache_bytes_per_gpu(m, g, precision="fp8", tp=1, engine="tensorrt-llm", budget=built)
    assert trt_built > trt
    assert t.max_batch_memory == int(trt_built // (2176 * I.kv_bytes_per_token_per_gpu(m, 1.0, 1)))
    assert t.batch < v.batch


def test_max_load_405b_out_of_sample():
    """TensorRT-LLM perf-overview (commit 00f3768), Llama 3.1 405B FP8 TP8 on H100: rows not used to build the
    mechanisms. Median within 15%, every row within 40%."""
    m = _preset("llama-3.1-405b")
    g = get_gpu(H100)
    isl_osl = [(128, 128), (128, 2048), (128, 4096), (500, 2000), (1000, 1000), (1000, 2000), (2048, 128),
               (2048, 2048), (5000, 500), (20000, 2000)]
    meas = [3627, 4340, 3116, 3994, 2919, 2895, 453, 2296, 610, 345]
    errs = sorted(abs(I.max_throughput_per_gpu(m, g, prompt_tokens=i, output_tokens=o, precision="fp8", tp=8,
                                               engine="tensorrt-llm") * 8 / x - 1) for (i, o), x in zip(isl_osl, meas))
    assert (errs[4] + errs[5]) / 2 < 0.15 and errs[-1] < 0.40, errs


def test_engine_field_reaches_the_serving_size_and_its_json():
    """``inference.engine`` (default vLLM) is validated, reaches :func:`size_serving` and the figures the CLI and
    the PDF print (KV pool per GPU, first-token time) come from the one ServingSize."""
    from gpuplanner.core.project import InferenceSpec, Phase, Project, evaluate_project
    from gpuplanner.core.scenario import Scenario

    assert InferenceSpec().engine == "vllm"
    with pytest.raises(ValueError):
        InferenceSpec(engine="ollama")
    base = Scenario.model_validate({"model": {"preset": "llama-3.1-8b"}})
    sizes = {}
    for eng in ("vllm", "tensorrt-llm", "sglang"):
        spec = InferenceSpec(concurrency=2000, context_tokens=4096, output_tokens=512, gpu=H100, engine=eng)
        res = evaluate_project(Project(phases=[Phase(name="serve", kind="inference", weeks=4, inference=spec)]),
                               base, what_if=False)
        s = res.phases[0].serving
        m = _preset("llama-3.1-8b")
        assert s.engine == eng
        assert s.kv_cache_gib_per_gpu == pytest.approx(
            # the plan sets no fraction: each engine's own default (issue 35 r7, sglmem7: SGLang's is 0.834 here)
            I.kv_cache_bytes_per_gpu(m, get_gpu(H100), precision="bf16", tp=s.tp, engine=eng, utilization=None,
                                     budget=I.workload_budget(m, get_gpu(H100), tp=s.tp, engine=eng,
                                                              precision="bf16", kv_precision=None, prompt=3584,
                                                              output=512)) / GIB)
        # issue 35 r12 (vllm12): plus the engine's API-server tokenizer window (vLLM 2 ms, the others 0)
        assert s.ttft_s == pytest.approx(I.time_to_first_token_s(m, get_gpu(H100), prompt_tokens=3584,
                                                                 precision="bf16", tp=s.tp,
                                                                 loop=I.ENGINE_LOOP[eng])
                                         + I.api_request_wait_s(eng))
        assert s.to_json()["kv_cache_gib_per_gpu"] == s.kv_cache_gib_per_gpu
        sizes[eng] = s
    # TensorRT-LLM holds each request's whole length: fewer users per replica than vLLM's paged growth
    assert sizes["tensorrt-llm"].batch_per_replica <= sizes["vllm"].batch_per_replica
    assert len({round(s.kv_cache_gib_per_gpu, 3) for s in sizes.values()}) == 3


def test_gddr_boards_lose_inline_ecc_memory():
    """Datacenter GDDR boards report 15/16 of their memory with ECC on (nvidia-smi: L40S 46,068 MiB of 49,152);
    every card then loses what the driver keeps below nvidia-smi's total (CUDA_VISIBLE_SHARE = 79.22/80)."""
    share = 79.22 / 80
    assert I.visible_memory_bytes(get_gpu("l40s-48gb")) == pytest.approx(46068 * 1024 ** 2 * share)
    assert I.visible_memory_bytes(get_gpu(H100)) == pytest.approx(79.22 * GIB)
    assert I.visible_memory_bytes(get_gpu("rtx-4090-24gb")) == pytest.approx(24 * GIB * share)
    # against what CUDA reports in the engines' logs and PyTorch's out-of-memory messages (within 1%): L40S 44.42 GiB
    # (vLLM issue #15815), H200 139.80 GiB, RTX 4090 23.65 GiB
    for gid, cuda_gib in (("l40s-48gb", 44.42), ("h200-sxm-141gb", 139.80), ("rtx-4090-24gb", 23.65)):
        assert abs(I.visible_memory_bytes(get_gpu(gid)) / GIB / cuda_gib - 1) < 0.01, gid
    m = _preset("qwen2.5-32b")
    kv = I.kv_cache_bytes_per_gpu(m, get_gpu("l40s-48gb"), precision="bf16", tp=2)
    # vLLM issue #15815 (two L40S, TP 2, 0.90): 7.71 GiB; the catalog's card within 14% (was +15% before the share;
    # +10% → +13% when vLLM's profile peak became the larger part instead of the sum, issue 35 r7)
    assert abs(kv / GIB / 7.71 - 1) < 0.14


def test_decode_all_reduce_against_measured_custom_all_reduce():
    """A decode step's all-reduces are small: the model's NCCL LL/Simple cost lies between the one-shot kernels the
    engines run instead. sgl-project/sglang PR #2904 (H100, TP 2/4/8, no CUDA graph) measured vLLM's custom
    all-reduce at 8.5–11.8 µs for 4–32 KB and 26.6–45.0 µs for 1 MB, SGLang's at 3.7–7.8 µs and 19.9–33.8 µs."""
    g = get_gpu(H100)
    one_layer = I.ServingModel(name="h4096", params_total=1e9, params_active=1e9, num_layers=1, num_heads=32,
                               num_kv_heads=8, head_dim=128)
    for tokens, lo, hi in ((1, 3.7e-6, 11.8e-6), (128, 19.9e-6, 45.0e-6)):  # 8 KB and 1 MB of bf16 activations
        for tp in (2, 4, 8):
            one = I.tp_all_reduce_s(one_layer, g, tokens=tokens, tp=tp) / 2
            assert 0.6 * lo < one < 1.5 * hi, (tokens, tp, one)


# ------------------------------------------------------------------ issue 35, round 4: other engines, MoE, quantised


def test_weight_only_decode_pads_to_marlins_16_row_blocks():
    a100, h100 = get_gpu("a100-sxm-80gb"), get_gpu(H100)
    assert I.weight_only(a100, "int4") and I.weight_only(a100, "int8") and I.weight_only(h100, "int4")
    assert not I.weight_only(h100, "int8") and not I.weight_only(a100, "bf16") and not I.weight_only(h100, "fp8")
    eff = I.ServingEfficiency()
    # by hand: batch 1, int8 on an A100 is bound by its 1-byte weights (the 16-bit GEMM padded to 16 rows is faster)
    t, bound = I.decode_step_s(GQA, a100, precision="int8", kv_bytes=2.0, batch=1, context=1, tp=1, eff=eff)
    read = 8e9 / (2.039e12 * 0.8) + GQA_GEMM_K
    flops = 2 * 8e9 / (312e12 * I.gemm_efficiency(GQA, a100, "int8", 1, 1, t0=16.0))
    assert flops < read and bound == "memory"
    assert t == pytest.approx(read + GQA_OTHER_K + I.kv_bytes_per_token(GQA, 2.0) / (2.039e12 * 0.8), rel=1e-12)
    # with the 128-row tile the same step would be compute bound and ~40% slower: the gpt-fast measurement says not
    pad128 = 2 * 8e9 / (312e12 * I.gemm_efficiency(GQA, a100, "int8", 1, 1))
    assert pad128 > 1.3 * read


def test_moe_batch1_decode_against_gpt_fast_mixtral():
    # pytorch-labs/gpt-fast mixtral-moe/README.md: A100-80GB at 330 W, batch 1; bf16 TP2 and int8 TP1/TP2 (the TP 4/8
    # rows pay gpt-fast's own ~25 µs all-reduces, docs/validation_inference.md)
    m, g = _preset("mixtral-8x7b"), get_gpu("a100-sxm-80gb")
    for prec, tp, meas in (("bf16", 2, 96.67), ("int8", 1, 97.92), ("int8", 2, 155.03)):
        t, _ = I.decode_step_s(m, g, precision=prec, kv_bytes=2.0, batch=1, context=256, tp=tp, eff=I.ServingEfficiency())
        assert abs(1 / t / meas - 1) < 0.15, (prec, tp, 1 / t)
    # a dense read of all 8 experts would be 3.5x slower than measured: decode reads the 2 experts a token reaches
    import dataclasses
    t_all, _ = I.decode_step_s(dataclasses.replace(m, expert_params=0.0), g, precision="bf16", kv_bytes=2.0, batch=1,
                               context=256, tp=2, eff=I.ServingEfficiency())
    assert 1 / t_all < 0.5 * 96.67


def test_vllm_max_num_seqs_caps_the_batch():
    m = _preset("llama-3.1-8b")
    a100, h100 = get_gpu("a100-sxm-80gb"), get_gpu(H100)
    assert I.max_running_requests("vllm", a100) == 256 and I.max_running_requests("vllm", h100) == 1024
    assert I.max_running_requests("tensorrt-llm", h100) is None and I.max_running_requests("sglang", h100) is None
    kw = dict(precision="bf16", kv_precision=None, context=323, prompt=226, output=194, tp=1,
              tokens_per_s_per_user=None)
    rp = I.replica(m, a100, **kw, engine="vllm")
    assert rp.batch == 256 and rp.max_batch_memory > 256
    assert I.replica(m, a100, **kw, engine="sglang").batch == I.replica(m, a100, **kw, engine="sglang").max_batch_memory
    # sglang/benchmark_vllm_060 README: vLLM 0.6.0 on one A100, 5,000 ShareGPT prompts (226 in / 194 out on average)
    v = I.max_throughput_per_gpu(m, a100, prompt_tokens=226, output_tokens=194, precision="bf16", engine="vllm")
    # +13% as a steady state at the mean lengths since the untied embedding table left the weight stream and the LM
    # head the prompts' GEMMs (serve6); the run with the ShareGPT spread is the figure validate_inference.py scores
    assert abs(v / 4132.37 - 1) < 0.15


def test_other_engines_tables_hold():
    """LMDeploy TurboMind (a100_fp16.md, v0.1.0a1) batch-1 and fixed-batch rows; vLLM's perf-benchmark latency tests
    (batch 8, 32 in / 128 out, H200); NIM 1.8.0 Llama 3.3 70B FP8 TP2 inter-token latency at concurrency 1."""
    a100, h200, h100 = get_gpu("a100-sxm-80gb"), get_gpu("h200-sxm-141gb"), get_gpu(H100)
    errs = []
    for p, tp, b, i, o, meas in (("llama-2-7b", 1, 1, 128, 128, 102.21), ("llama-2-7b", 1, 16, 128, 2048, 1010.62),
                                 ("llama-2-13b", 1, 32, 128, 128, 1301.27), ("llama-2-70b", 4, 1, 128, 128, 33.63),
                                 ("llama-2-70b", 4, 32, 2048, 128, 232.6)):
        v = I.static_batch_tokens_per_s_per_gpu(_preset(p), a100, batch=b, prompt_tokens=i, output_tokens=o,
                                                precision="bf16", tp=tp) * tp
        errs.append(abs(v / meas - 1))
    for p, tp, ms in (("llama-3.1-8b", 1, 833.421), ("llama-3-70b", 4, 2077.53), ("mixtral-8x7b", 2, 1917.44)):
        tps = I.static_batch_tokens_per_s_per_gpu(_preset(p), h200, batch=8, prompt_tokens=32, output_tokens=128,
                                                  precision="bf16", tp=tp, loop="serial") * tp
        errs.append(abs(8 * 128 / tps * 1000 / ms - 1))
    t, _ = I.decode_step_s(_preset("llama-3.1-70b"), h100, precision="fp8", kv_bytes=1.0, batch=1, context=5250, tp=2,
                           eff=I.ServingEfficiency())
    errs.append(abs(t * 1000 / 18.58 - 1))
    # the vLLM H200 batch-8 latency test of Llama 3.1 8B: −23% since serve6 (the embedding table is gathered, not
    # streamed), −16% with vLLM's serial host work per step (serve7): the H200's small-batch gap (round 5 "Left out")
    assert max(errs) < 0.20, errs
    assert sorted(errs)[len(errs) // 2] < 0.12


def test_int4_batch1_on_rtx4090_against_mlc_llm():
    # mlc-ai/llm-perf-bench README "Int4-quantized, Single GPU": MLC LLM q4f16_1, RTX 4090, Llama2-7B 204.8 and 13B
    # 113.5 tokens/s. With the 128-row pad at the 16-bit rate the model said 65 and 34 (-68%, -70%).
    g = get_gpu("rtx-4090-24gb")
    for p, meas in (("llama-2-7b", 204.8), ("llama-2-13b", 113.5)):
        t, bound = I.decode_step_s(_preset(p), g, precision="int4", kv_bytes=2.0, batch=1, context=128, tp=1,
                                   eff=I.ServingEfficiency())
        assert bound == "memory" and abs(1 / t / meas - 1) < 0.12, (p, 1 / t)


def test_request_mix_keeps_the_means_inside_the_sharegpt_filter():
    """request_mix "sharegpt": the stated means, the benchmark scripts' filter (prompt 4-1024, total ≤ 2048), an
    exponential's shape (median about ln 2 of the mean); "fixed": every request at the means; others refused."""
    ps, os_ = I.request_mix(226, 194, "sharegpt")
    assert len(ps) == len(os_) == I.MIX_SAMPLES
    assert abs(sum(ps) / len(ps) - 226) < 0.5 and abs(sum(os_) / len(os_) - 194) < 0.5
    assert min(ps) >= 4 and max(ps) <= 1024 and min(os_) >= 4 and max(p + o for p, o in zip(ps, os_)) <= 2048
    assert 0.6 < sorted(os_)[len(os_) // 2] / 194 < 0.8 and max(os_) > 4 * 194  # a long tail
    assert I.request_mix(100, 50, "fixed", samples=3) == ([100.0] * 3, [50.0] * 3)
    with pytest.raises(ValueError):
        I.request_mix(226, 194, "uniform")
    with pytest.raises(ValueError):
        I.request_mix(1500, 194, "sharegpt")


def test_max_load_run_by_hand_waves_and_drain():
    """vLLM's cap of 256 on an A100, fixed lengths (100 in, 50 out), memory far from full: 512 requests run as two
    full waves; 384 as a full wave and a half-empty one (the drain), slower per token. Each wave: its prompts'
    prefill, then 50 decode steps at contexts 100…149 (the admitted requests decode in their first step)."""
    m, a100 = _preset("llama-3.1-8b"), get_gpu("a100-sxm-80gb")
    eff = I.ServingEfficiency()

    def wave(b):
        pre = b * I.prefill_s(m, a100, precision="bf16", prompt=100, tp=1, eff=eff, rows=2048)
        return pre + sum(I.decode_step_s(m, a100, precision="bf16", kv_bytes=2.0, batch=b, context=100 + g, tp=1,
                                         eff=eff)[0] for g in range(50))

    for n, waves in ((512, (256, 256)), (384, (256, 128))):
        run = I.max_load_run(m, a100, prompts=[100.0] * n, outputs=[50.0] * n, requests=n, precision="bf16",
                             engine="vllm")
        assert run.steps == 100 and run.preemptions == 0 and run.peak_batch == 256
        assert run.output_tokens_per_s == pytest.approx(n * 50 / sum(wave(b) for b in waves), rel=1e-9)
    full = I.max_load_run(m, a100, prompts=[100.0] * 512, outputs=[50.0] * 512, requests=512, precision="bf16")
    drain = I.max_load_run(m, a100, prompts=[100.0] * 384, outputs=[50.0] * 384, requests=384, precision="bf16")
    assert drain.output_tokens_per_s < 0.98 * full.output_tokens_per_s
    # the steady state at the means is what max_throughput_per_gpu gives without a run's request count
    assert I.max_throughput_per_gpu(m, a100, prompt_tokens=100, output_tokens=50, precision="bf16") == pytest.approx(
        I.replica(m, a100, precision="bf16", kv_precision=None, context=125, prompt=100, output=50, tp=1,
                  tokens_per_s_per_user=None).output_tokens_per_s)


def test_sglang_reserves_future_tokens():
    """SGLang's new_token_ratio: 0.7 at the start, down to 0.7 × 0.14 after 600 decode steps, halfway at 300."""
    assert I._sglang_ratio("sglang", 0) == pytest.approx(0.7)
    assert I._sglang_ratio("sglang", 300) == pytest.approx((0.7 + 0.098) / 2)
    assert I._sglang_ratio("sglang", 5000) == pytest.approx(0.098) and I._sglang_ratio("vllm", 0) == 0.0
    # long requests that fill the pool as they grow: vLLM admits on the prompt alone and then preempts (recompute),
    # SGLang keeps room for the outputs and sends back far fewer
    m, h100 = _preset("llama-3.1-8b"), get_gpu(H100)
    kw = dict(prompts=[1000.0] * 400, outputs=[1000.0] * 400, requests=4000, precision="bf16")
    s, v = I.max_load_run(m, h100, engine="sglang", **kw), I.max_load_run(m, h100, engine="vllm", **kw)
    assert s.peak_batch < v.peak_batch and s.preemptions < 0.5 * v.preemptions and v.preemptions > 0


def test_sharegpt_max_load_rows_as_the_runs_were():
    """sgl-project/sglang benchmark/benchmark_vllm_060/README.md: 5,000 ShareGPT prompts at once, output tokens/s;
    vLLM 0.6.0 (max_num_seqs 256) and SGLang 0.3.0 (scheduler not overlapped). Steady state at the means: +5…+27%."""
    rows = (("llama-3.1-8b", "a100-sxm-80gb", 1, "sglang", 0.88, 4281.51), ("llama-3.1-8b", "a100-sxm-80gb", 1, "vllm",
            0.90, 4132.37), ("llama-3.1-70b", H100, 4, "sglang", 0.88, 3856.01), ("llama-3.1-70b", H100, 4, "vllm", 0.90,
                                                                                 3700.64))
    errs, steady = [], []
    for p, g, tp, eng, frac, meas in rows:
        kw = dict(prompt_tokens=226, output_tokens=194, precision="bf16", tp=tp, engine=eng, utilization=frac)
        v = I.max_throughput_per_gpu(_preset(p), get_gpu(g), spread="sharegpt", requests=5000,
                                     max_batch=256 if eng == "vllm" else None,
                                     host_step=I.SGLANG_PRE_OVERLAP_STEP if eng == "sglang" else 1.0, **kw) * tp
        errs.append(v / meas - 1)
        steady.append(I.max_throughput_per_gpu(_preset(p), get_gpu(g), **kw) * tp / meas - 1)
    # 0.10 until issue 35 round 6 (serve8): a prompt now shares its forward's all-reduces (prefill_all_reduce_s), and
    # SGLang 0.3's 70B TP4 row moves +8 → +15% (its per-prompt all-reduce latency had stood in for something else)
    assert max(abs(e) for e in errs) < 0.16, errs
    assert min(steady) > 0.03 and max(steady) > 0.2, steady


def test_vllm_throughput_tests_200_sharegpt_prompts_are_a_drain():
    """vLLM performance benchmark, throughput tests (builds 9513 H200, 9523 A100, 9555 H100): 200 ShareGPT prompts at
    once, req/s. All fit at once, so the run is a drain: every request at the mean lengths is +84…+163% too fast; with
    ShareGPT's spread within ±20% (out of sample: not used to build the mechanism)."""
    rows = (("llama-3.1-8b", 1, "h200-sxm-141gb", 21.8334), ("llama-3.1-8b", 1, "a100-sxm-80gb", 11.0567),
            ("llama-3-70b", 4, "h100-sxm-80gb", 8.86239), ("llama-3-70b", 4, "a100-sxm-80gb", 4.78859))
    for p, tp, g, meas in rows:
        got = {}
        for spread in ("fixed", "sharegpt"):
            ps, os_ = I.request_mix(226, 194, spread, samples=200)
            got[spread] = 200 / I.max_load_run(_preset(p), get_gpu(g), prompts=ps, outputs=os_, requests=200,
                                               precision="bf16", tp=tp).duration_s
        assert got["fixed"] / meas > 1.8 and abs(got["sharegpt"] / meas - 1) < 0.20, (p, g, got, meas)


def test_length_spread_field_default_refusal_and_held_context():
    """inference.length_spread: "fixed" by default (the old sizing, unchanged); "sharegpt" holds the length-biased
    context Σ o(p + o/2) / Σ o — by hand for an exponential, about p + o (E[o²] = 2E[o]²) — and refuses, in one line,
    lengths outside the ShareGPT filter."""
    from pydantic import ValidationError
    from gpuplanner.core.project import InferenceSpec
    assert InferenceSpec().length_spread == "fixed"
    with pytest.raises(ValidationError) as exc:
        InferenceSpec(context_tokens=4096, output_tokens=512, length_spread="sharegpt")
    assert "length_spread sharegpt needs prompts under 1024" in str(exc.value)
    assert InferenceSpec(context_tokens=2048, prompt_tokens=226, output_tokens=194, length_spread="sharegpt")
    assert I.held_context(226, 194) == 226 + 97
    held = I.held_context(226, 194, "sharegpt")
    assert 226 + 0.8 * 194 < held < 226 + 1.05 * 194  # truncation at 2048 − p trims the exponential's tail
    m, a100 = _preset("llama-3.1-8b"), get_gpu("a100-sxm-80gb")
    kw = dict(concurrency=100000, context_tokens=2048, prompt_tokens=226, output_tokens=194, tokens_per_s_per_user=None,
              engine="sglang")
    fixed, spread = I.size_serving(m, a100, **kw), I.size_serving(m, a100, **kw, spread="sharegpt")
    assert spread.batch_per_replica == pytest.approx(fixed.batch_per_replica * (226 + 97) / held, rel=0.01)


# ------------------------------------------------------------------ issue 35, round 5 (serve5)

def test_decode_kernel_time_by_hand():
    """(GEMMs, other kernels) × 2.7 µs: a dense layer has 4 GEMMs of its 11 kernels (vLLM's count), the step 12 more
    (the LM head a GEMM among them); an MoE layer adds the router GEMM and three other kernels."""
    from gpuplanner.core import timing
    from gpuplanner.core.serving_facts import DECODE_KERNEL_S
    assert DECODE_KERNEL_S == timing.MOE_GEMM_LAUNCH_S  # one measurement (TE PR #2045), two uses
    gemm, other = I.decode_kernels_s(GQA)
    assert gemm == pytest.approx(129 * 2.7e-6) and other == pytest.approx(235 * 2.7e-6)
    assert gemm + other == pytest.approx(0.98e-3, rel=0.01)  # (11 × 32 + 12) × 2.7 µs
    gm, om = I.decode_kernels_s(MOE)
    assert gm == pytest.approx((5 * 32 + 1) * 2.7e-6) and om == pytest.approx((15 * 32 + 12 - 161) * 2.7e-6)


def _b1_ms(p, g, prec, tp, ctx, batch=1):
    m = _preset(p)
    return I.decode_step_s(m, get_gpu(g), precision=prec, kv_bytes=I.KV_BYTES[I.kv_precision_for(prec)], batch=batch,
                           context=ctx, tp=tp, eff=I.ServingEfficiency())[0] * 1e3


def test_one_decode_model_for_batch_1_and_batch_8_on_a100_h100():
    """Time per output token, published: current vLLM at batch 1 (0.21 on an H100: 6.48 ms, InferenceBench; 0.23 on an
    A100 40GB: 75 tok/s, J. Musgrave), NIM 1.8.0 at one user (70B FP8 TP2 on H100s: 18.58 ms), gpt-fast (A100 at 330 W,
    7B: 104.9 tok/s), and vLLM's batch-8 latency tests on A100/H100 (32/128, less the modelled prefill). The single
    share 0.6 put current vLLM 19–23% too slow; the streaming share with the kernels' fixed time holds all within 12%."""
    rows = [("llama-3.1-8b", "h100-sxm-80gb", "bf16", 1, 576, 1, 6.48), ("llama-3.1-8b", "a100-sxm-40gb", "bf16", 1, 1088,
            1, 1000 / 75), ("llama-3.1-70b", "h100-sxm-80gb", "fp8", 2, 5250, 1, 18.58),
            ("llama-2-7b", "a100-sxm-80gb", "bf16", 1, 256, 1, 1000 / 104.9)]
    for p, g, prec, tp, ctx, b, meas in rows:
        assert _b1_ms(p, g, prec, tp, ctx, b) == pytest.approx(meas, rel=0.12), (p, g)
    # vLLM latency tests, batch 8: mean end-to-end latency over 128 steps, the 8 prompts' prefill taken off
    for p, g, tp, ms in (("llama-3.1-8b", "a100-sxm-80gb", 1, 1579.27), ("llama-3.1-8b", H100, 1, 997.542),
                         ("llama-3-70b", H100, 4, 2444.47)):
        m = _preset(p)
        pre = 8 * I.prefill_s(m, get_gpu(g), precision="bf16", prompt=32, tp=tp, eff=I.ServingEfficiency(), rows=256,
                              own_weights=True)
        # 14–16% short for Llama 3.1 8B since serve6 (its 0.5 B-weight embedding table is gathered, not streamed):
        # per-step host time of the engine build these tests ran is not modelled (docs/validation_inference.md)
        assert _b1_ms(p, g, "bf16", tp, 96, 8) == pytest.approx((ms / 1000 - pre) / 128 * 1e3, rel=0.17), (p, g)
    # the kernels are ~14% of an 8B step on an H100 at batch 1: (11 × 32 + 12) × 2.7 µs = 0.98 ms of ~7 ms
    assert sum(I.decode_kernels_s(_preset("llama-3.1-8b"))) / _b1_ms("llama-3.1-8b", H100, "bf16", 1, 576) * 1e3 \
        == pytest.approx(0.14, abs=0.01)


def test_tensorrt_llm_before_xqa_streams_kv_per_query_head():
    """TensorRT-LLM v0.6.1's masked multi-head attention kernel: one block per query head, each loading its group's
    KV head (hi_kv = hi / qhead_per_kv). Llama 2 70B: 64 query heads on 8 KV heads, 8 passes; the 7B (multi-head) 1."""
    m70, m7 = _preset("llama-2-70b"), _preset("llama-2-7b")
    assert I.attention_kv_passes(m70, grouped_kernel=False) == 8.0 and I.attention_kv_passes(m70) == 1.0
    assert I.attention_kv_passes(m7, grouped_kernel=False) == 1.0 and I.attention_kv_passes(MLA, grouped_kernel=False) == 1.0
    # the attention term scales by the passes, nothing else does
    kw = dict(precision="fp8", kv_bytes=1.0, batch=64, context=3072, tp=2, eff=I.ServingEfficiency())
    g = get_gpu(H100)
    attn = 64 * 3072 * I.kv_bytes_per_token_per_gpu(m70, 1.0, 2) / (3.35e12 * 0.8)
    assert I.decode_step_s(m70, g, kv_passes=8.0, **kw)[0] - I.decode_step_s(m70, g, **kw)[0] == pytest.approx(7 * attn)
    # v0.6.1 fixed-batch rows (docs/validation_inference.md): 70B FP8 on H100, (batch, tp, in, out, tok/s per GPU)
    for b, tp, i, o, meas in ((480, 4, 128, 2048, 1486), (64, 2, 2048, 2048, 547), (1024, 2, 128, 128, 2657),
                              (96, 2, 2048, 128, 306)):
        v = I.static_batch_tokens_per_s_per_gpu(m70, g, batch=b, prompt_tokens=i, output_tokens=o, precision="fp8",
                                                tp=tp, kv_passes=8.0)
        grouped = I.static_batch_tokens_per_s_per_gpu(m70, g, batch=b, prompt_tokens=i, output_tokens=o,
                                                      precision="fp8", tp=tp)
        assert abs(v / meas - 1) < 0.25, (b, i, o, v)
        if o == 2048:  # the long decodes: a grouped kernel would be ~1.9x too fast
            assert grouped / meas > 1.75
    # the XQA blog (H200, Llama-70B FP8, 128/2048, one GPU): 2.4x from XQA; modelled at the largest static batch
    h200 = get_gpu("h200-sxm-141gb")
    b = int(I.kv_cache_bytes_per_gpu(m70, h200, precision="fp8", tp=1, engine="tensorrt-llm")
            // (2176 * I.kv_bytes_per_token_per_gpu(m70, 1.0, 1)))
    tps = [I.static_batch_tokens_per_s_per_gpu(m70, h200, batch=b, prompt_tokens=128, output_tokens=2048,
                                               precision="fp8", tp=1, kv_passes=k) for k in (8.0, 1.0)]
    assert tps[1] / tps[0] == pytest.approx(2941 / 1227, rel=0.15)


def test_embedding_gathered_and_lm_head_on_the_last_prompt_token():
    """Issue 35 round 6 (serve6): a decode step gathers rows of an untied input embedding table (no stream, no FLOPs);
    a prefill runs the LM head on each prompt's last token only (vLLM ``logits_indices``, TensorRT-LLM
    ``gather_context_logits`` False, SGLang ``LogitsProcessor``). By hand for Llama 3.1 8B (vocab 128,256 × 4,096,
    untied) and Qwen2.5-0.5B (tied: its table is the LM head's weight, streamed)."""
    m = _preset("llama-3.1-8b")
    table = 128256 * 4096
    assert m.input_embedding == table and m.lm_head == table
    assert I.streamed_params(m) == pytest.approx(8030261248 - table)
    assert I.decode_weight_bytes(m, "bf16", 1) == pytest.approx(2 * (8030261248 - table))
    assert I.matmul_params(m) == pytest.approx(m.params_active - table)
    assert I.matmul_params(m, 2048) == pytest.approx(m.params_active - 2 * table + table / 2048)
    q = _preset("qwen2.5-0.5b")
    assert q.input_embedding == 0 and q.lm_head == 151936 * 896
    assert I.streamed_params(q) == q.params_total and I.matmul_params(q) == q.params_active
    assert I.matmul_params(q, 100) == pytest.approx(q.params_active - q.lm_head * 0.99)
    # published, not used to build it: current vLLM at batch 1 (0.21 on an H100, TPOT 6.48 ms; 0.23 on an A100 40GB,
    # 75 tok/s) were 7.5% and 4.8% slow with the table streamed; now within 3%
    assert _b1_ms("llama-3.1-8b", H100, "bf16", 1, 576) == pytest.approx(6.48, rel=0.03)
    assert _b1_ms("llama-3.1-8b", "a100-sxm-40gb", "bf16", 1, 1088) == pytest.approx(1000 / 75, rel=0.03)
    # TensorRT-LLM v0.17 perf-overview (commit 258c7540), Llama 3.1 8B FP8 on one H100, 2048/128: 3,556.73 tok/s.
    # With the table streamed and the LM head on every prompt token (the model before serve6) it is further off.
    import dataclasses
    old = dataclasses.replace(m, input_embedding=0.0, lm_head=0.0)
    kw = dict(prompt_tokens=2048, output_tokens=128, precision="fp8", engine="tensorrt-llm")
    v, v0 = (I.max_throughput_per_gpu(x, get_gpu(H100), **kw) for x in (m, old))
    assert abs(v / 3556.73 - 1) < 0.15 and abs(v / 3556.73 - 1) < abs(v0 / 3556.73 - 1) - 0.04, (v, v0)


def test_first_token_pays_the_forwards_kernels():
    """Issue 35 round 6 (serve6): an idle replica's first token is one forward, with the decode step's kernels and their
    fixed time (decode_kernels_s), summed as in decode_step_s: max(prefill, weights + GEMM kernels) + other kernels
    (Llama 3.1 8B: 0.35 + 0.63 ms). Published,
    not used to build it: TensorRT-LLM v0.14 through Triton (perf-overview.md, commit 258c7540, "Online Serving
    Measurements", BF16, 2 requests/s, 16 output tokens), mean TTFT of 467-token prompts: 8B 19/18 ms (H100/H200),
    70B TP4 53/50 ms."""
    m, g = _preset("llama-3.1-8b"), get_gpu(H100)
    gemm_k, other_k = I.decode_kernels_s(m)
    assert gemm_k == pytest.approx(129 * 2.7e-6) and other_k == pytest.approx((364 - 129) * 2.7e-6)
    for p in (1, 467, 4096):
        pre = I.prefill_s(m, g, precision="bf16", prompt=p, tp=1, eff=I.ServingEfficiency(), rows=p, own_weights=True)
        read = (m.params_total - 128256 * 4096) * 2 / (3.35e12 * 0.8)
        assert I.time_to_first_token_s(m, g, prompt_tokens=p, precision="bf16") == pytest.approx(
            max(pre, read + gemm_k) + other_k, rel=1e-9)
    for p, gid, tp, ms in (("llama-3.1-8b", H100, 1, 19), ("llama-3.1-8b", "h200-sxm-141gb", 1, 18),
                           ("llama-3.1-70b", H100, 4, 53), ("llama-3.1-70b", "h200-sxm-141gb", 4, 50)):
        v = I.time_to_first_token_s(_preset(p), get_gpu(gid), prompt_tokens=467, precision="bf16", tp=tp) * 1000
        assert v == pytest.approx(ms, rel=0.16), (p, gid, v)


def test_engine_host_work_per_decode_step():
    """Issue 35 round 6 (serve7): the engine loop's host work per decode step (inference.exposed_host_s). By hand:
    vLLM PR #42131's per-step parts 0.2 + 0.18 + 0.05 ms; serial adds them whole (or a tenth with 10 steps per
    scheduling pass), overlapped only what the GPU's step does not cover; without CUDA graphs Llama 3 8B's
    32 × 11 + 12 = 364 kernels are launched from Python at 24 µs each. The planner's engines overlap it (no change
    for an 8B on an H100); vLLM's perf-benchmark latency tests (serial loop) move closer, every row."""
    m, g = _preset("llama-3.1-8b"), get_gpu(H100)
    assert I.ENGINE_HOST_STEP_S == pytest.approx(0.43e-3)
    assert I.engine_host_s(m, "none") == 0.0
    assert I.engine_host_s(m, "serial", cuda_graphs=False) == pytest.approx(0.43e-3 + 364 * 24e-6)
    assert I.exposed_host_s(m, 5e-3, "serial") == pytest.approx(0.43e-3)
    assert I.exposed_host_s(m, 5e-3, "serial", steps_per_schedule=10) == pytest.approx(0.043e-3)
    assert I.exposed_host_s(m, 0.3e-3, "overlapped") == pytest.approx(0.13e-3)
    assert I.exposed_host_s(m, 5e-3, "overlapped") == 0.0
    with pytest.raises(ValueError):
        I.engine_host_s(m, "async")
    kw = dict(precision="bf16", kv_bytes=2.0, batch=8, context=96, tp=1, eff=I.ServingEfficiency())
    gpu_t = I.decode_step_s(m, g, **kw)[0]
    assert I.decode_step_s(m, g, loop="serial", **kw)[0] - gpu_t == pytest.approx(0.43e-3)
    assert I.decode_step_s(m, g, loop="overlapped", **kw)[0] == gpu_t
    # an idle replica's first token waits for the first step's host work whole
    ttft = dict(prompt_tokens=512, precision="bf16")
    assert I.time_to_first_token_s(m, g, loop="overlapped", **ttft) - I.time_to_first_token_s(m, g, **ttft) \
        == pytest.approx(0.43e-3)
    # buildkite.com/vllm/performance-benchmark builds 9515 (H200), 9523 (A100), 9555 (H100): batch 8, 32/128, ms
    rows = [("llama-3.1-8b", "h200-sxm-141gb", 1, 833.421), ("llama-3-70b", "h200-sxm-141gb", 4, 2077.53),
            ("mixtral-8x7b", "h200-sxm-141gb", 2, 1917.44), ("llama-3.1-8b", "a100-sxm-80gb", 1, 1579.27),
            ("llama-3-70b", "a100-sxm-80gb", 4, 3990.59), ("mixtral-8x7b", "a100-sxm-80gb", 2, 3643.84),
            ("llama-3.1-8b", H100, 1, 997.542), ("llama-3-70b", H100, 4, 2444.47), ("mixtral-8x7b", H100, 2, 2326.97)]
    before, after = [], []
    for p, gid, tp, ms in rows:
        for loop, out in (("none", before), ("serial", after)):
            tps = I.static_batch_tokens_per_s_per_gpu(_preset(p), get_gpu(gid), batch=8, prompt_tokens=32,
                                                      output_tokens=128, precision="bf16", tp=tp, loop=loop) * tp
            out.append(abs(8 * 128 / tps * 1000 / ms - 1))
    assert all(a < b for a, b in zip(after, before)), (before, after)
    assert max(after) < 0.17 and sorted(after)[4] < 0.12


def test_prompt_shares_the_forwards_all_reduces():
    """Issue 35 round 6 (serve8): a prompt inside a forward of R rows pays P/R of that forward's TP all-reduces
    (inference.prefill_all_reduce_s): one all-reduce per layer over the whole ragged batch, its latency paid once. By
    hand; a prompt alone pays its own; TensorRT-LLM v0.17 perf-overview (commit 258c7540), Llama 3.1 70B FP8 TP8,
    128/128, 15,355.84 tok/s on H200 and 14,730.69 on H100: before, −32% and −30%; now within 10%."""
    m, g = _preset("llama-3.1-70b"), get_gpu(H100)
    whole = I.tp_all_reduce_s(m, g, tokens=8192, tp=8)
    assert I.prefill_all_reduce_s(m, g, prompt=128, rows=8192, tp=8) == pytest.approx(whole * 128 / 8192)
    assert I.prefill_all_reduce_s(m, g, prompt=128, rows=128, tp=8) == pytest.approx(
        I.tp_all_reduce_s(m, g, tokens=128, tp=8))
    assert I.prefill_all_reduce_s(m, g, prompt=20000, rows=8192, tp=8) == pytest.approx(
        I.tp_all_reduce_s(m, g, tokens=20000, tp=8))
    assert I.prefill_all_reduce_s(m, g, prompt=128, rows=8192, tp=1) == 0.0
    # the fixed latency is shared: 64 prompts of 128 in one forward pay less than 64 forwards of 128
    assert I.prefill_all_reduce_s(m, g, prompt=128, rows=8192, tp=8) < I.tp_all_reduce_s(m, g, tokens=128, tp=8) / 2
    for gid, meas in (("h200-sxm-141gb", 15355.84), (H100, 14730.69)):
        v = I.max_throughput_per_gpu(m, get_gpu(gid), prompt_tokens=128, output_tokens=128, precision="fp8", tp=8,
                                     engine="tensorrt-llm") * 8
        assert v == pytest.approx(meas, rel=0.10), (gid, v)


def test_quantised_checkpoints_keep_the_vocabulary_tables_16_bit():
    """Issue 35 round 6 (serve8): FP8/INT8/INT4 checkpoints of the serving engines quantise the decoder blocks' linear
    layers only (TensorRT-LLM ``quantize_layers`` excludes '*lm_head' and '*vocab_embedding'; ModelOpt disables
    '*lm_head*'; vLLM's Fp8Config quantises LinearBase only; nvidia/Llama-3.1-405B-Instruct-FP8 card: "Only the
    weights and activations of the linear operators within transformers blocks are quantized"). By hand for
    Llama 3.1 8B (table and head 128,256 × 4,096 = 0.525 B each): memory, the decode stream, the LM head's GEMM at the
    16-bit rate; 16-bit serving unchanged; a checkpoint that quantises the head (gpt-fast, MLC) as before."""
    import dataclasses
    m, g = _preset("llama-3.1-8b"), get_gpu(H100)
    head = 128256 * 4096
    assert m.lm_head == pytest.approx(head) and m.input_embedding == pytest.approx(head, rel=1e-3)
    assert I.weight_bytes(m, "fp8") == pytest.approx((m.params_total - 2 * head) * 1.0 + 2 * head * 2.0, rel=1e-3)
    assert I.weight_bytes(m, "int4") == pytest.approx((m.params_total - 2 * head) * 0.5 + 2 * head * 2.0, rel=1e-3)
    assert I.weight_bytes(m, "bf16") == pytest.approx(m.params_total * 2.0)
    assert I.decode_weight_bytes(m, "fp8", 1) == pytest.approx(m.params_total - 2 * head + head * 2.0, rel=1e-3)
    q = dataclasses.replace(m, vocab_quantized=True)
    assert I.weight_bytes(q, "fp8") == pytest.approx(m.params_total)
    assert I.decode_weight_bytes(q, "fp8", 1) == pytest.approx(m.params_total - m.input_embedding)
    # the compute roof: the decoder at the FP8 rate, the head at the 16-bit rate
    b = 4096
    lin = I.matmul_params(m) - head
    want = b * 2 * lin / (g.fp8_tflops * 1e12 * I.gemm_efficiency(m, g, "fp8", b, 1)) \
        + b * 2 * head / (g.bf16_tflops * 1e12 * I.gemm_efficiency(m, g, "bf16", b, 1))
    assert I.lm_head_split_gemm_s(m, g, "fp8", b, 1, None) == pytest.approx(want)
    assert I.lm_head_split_gemm_s(m, g, "bf16", b, 1, None) == pytest.approx(
        b * 2 * I.matmul_params(m) / (g.bf16_tflops * 1e12 * I.gemm_efficiency(m, g, "bf16", b, 1)))
    assert I.lm_head_split_gemm_s(q, g, "fp8", b, 1, None) < want
