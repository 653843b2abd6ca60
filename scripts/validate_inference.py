"""Prints the table of docs/validation_inference.md: TensorRT-LLM perf-overview throughput (NVIDIA/TensorRT-LLM
commit 00f3768, docs/source/performance/perf-overview.md) against core/inference.max_throughput_per_gpu."""
import dataclasses as _dc
from gpuplanner.core.scenario import Scenario
from gpuplanner.core.estimate import resolve
from gpuplanner.core.catalog_hw import get_gpu
from gpuplanner.core import inference as inf
import statistics


def p90(xs):
    """The 90th percentile of |error| (nearest rank, as the bench scripts report it)."""
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.9 * (len(xs) - 1))))]


class Errs(list):
    """|error| per row (a list, as before) that also keeps each row's signed error and label: the per-category
    summary names its worst rows."""

    def __init__(self):
        super().__init__()
        self.rows = []

    def add(self, err, label):
        self.append(abs(err))
        self.rows.append((err, label))




rows_isl=[(128,128),(128,2048),(128,4096),(500,2000),(1000,1000),(1000,2000),(2048,128),(2048,2048),(5000,500),(20000,2000)]
tables={
 ("llama-3.1-8b","h200-sxm-141gb",1):[27911,26221,18027,20770,17744,16828,3538,12194,3902,1804],
 ("llama-3.1-8b","h100-sxm-80gb",1):[28312,22714,14325,17660,15220,13899,3450,9305,3459,1351],
 ("llama-3.1-70b","h200-sxm-141gb",1):[3803,4336,2872,3666,2909,2994,442,2003,566,283],
 ("llama-3.1-70b","h100-sxm-80gb",2):[6378,6651,4199,5222,4205,4146,762,3082,898,437],
}
allerr=Errs()
out=[]
for (preset,gpu,tp),vals in tables.items():
    r=resolve(Scenario.model_validate({'model':{'preset':preset}}))
    m=inf.ServingModel.of(r.arch,r.params); g=get_gpu(gpu)
    errs=[]
    for (isl,osl),meas in zip(rows_isl,vals):
        per=inf.max_throughput_per_gpu(m,g,prompt_tokens=isl,output_tokens=osl,precision='fp8',tp=tp,engine='tensorrt-llm')
        pred=per*tp
        e=pred/meas-1; errs.append(abs(e)); allerr.add(e, f"TRT-LLM max load {preset} {gpu} TP{tp} {isl}/{osl}")
        out.append(f"| {preset} | {gpu} | TP{tp} FP8 | {isl}/{osl} | {meas:,} | {pred:,.0f} | {e*100:+.0f}% |")
    out.append(f"| | | | **median \\|error\\|** | | | **{statistics.median(errs)*100:.0f}%** |")
print("\n".join(out))
out = []
# Llama 3.1 405B FP8, TP8, same page and commit: not looked at while the mechanisms were built (issue 35, round 3)
t405 = {("llama-3.1-405b", "h200-sxm-141gb", 8): [3814, 5348, 4741, 4724, 3330, 3722, 456, 2948, 650, 505],
        ("llama-3.1-405b", "h100-sxm-80gb", 8): [3627, 4340, 3116, 3994, 2919, 2895, 453, 2296, 610, 345]}
err405 = Errs()
for (preset, gpu, tp), vals in t405.items():
    r = resolve(Scenario.model_validate({'model': {'preset': preset}}))
    m = inf.ServingModel.of(r.arch, r.params); g = get_gpu(gpu)
    for (isl, osl), meas in zip(rows_isl, vals):
        pred = inf.max_throughput_per_gpu(m, g, prompt_tokens=isl, output_tokens=osl, precision='fp8', tp=tp,
                                          engine='tensorrt-llm') * tp
        err405.add(pred / meas - 1, f"TRT-LLM max load {preset} {gpu} TP{tp} {isl}/{osl}")
        out.append(f"| {preset} | {gpu} | TP{tp} FP8 | {isl}/{osl} | {meas:,} | {pred:,.0f} | {pred/meas-1:+.0%} |")
print("\n".join(out[-20:]))
print(f"max load 405B TP8: {len(err405)} rows, median {statistics.median(err405)*100:.1f}%, p90 {p90(err405)*100:.1f}%")
print(f"max load: {len(allerr)} rows, median {statistics.median(allerr)*100:.1f}%, p90 {p90(allerr)*100:.1f}%, max {max(allerr)*100:.1f}%")
def M(p):
    r=resolve(Scenario.model_validate({'model':{'preset':p}})); return inf.ServingModel.of(r.arch,r.params)
rows=[("llama-2-7b","h100-sxm-80gb","fp8",768,1,128,128,19694),("llama-2-7b","h100-sxm-80gb","fp8",112,1,128,2048,6818),
("llama-2-7b","h100-sxm-80gb","fp8",80,1,2048,128,2244),("llama-2-7b","h100-sxm-80gb","fp8",48,1,2048,2048,2740),
("llama-2-70b","h100-sxm-80gb","fp8",1024,2,128,128,2657),("llama-2-70b","h100-sxm-80gb","fp8",480,4,128,2048,1486),
("llama-2-70b","h100-sxm-80gb","fp8",96,2,2048,128,306),("llama-2-70b","h100-sxm-80gb","fp8",64,2,2048,2048,547),
("llama-2-7b","a100-sxm-80gb","bf16",384,1,128,128,5586),("llama-2-7b","a100-sxm-80gb","bf16",60,1,128,2048,1928),
("llama-2-7b","a100-sxm-80gb","bf16",52,1,2048,128,591)]
errs=Errs()
errs_xqa = []  # the same rows as if v0.6.1 had a grouped-query decode kernel (before serve5)
for p,g,prec,b,tp,i,o,meas in rows:
    # v0.6.1 ran GQA decode attention in its masked multi-head attention kernel, before XQA (issue 35 round 5, serve5;
    # inf.attention_kv_passes): Llama 2 70B streams each KV head 8 times, the 7B (multi-head) once
    v0=inf.static_batch_tokens_per_s_per_gpu(M(p),get_gpu(g),batch=b,prompt_tokens=i,output_tokens=o,precision=prec,tp=tp)
    errs_xqa.append(abs(v0/meas-1))
    v=inf.static_batch_tokens_per_s_per_gpu(M(p),get_gpu(g),batch=b,prompt_tokens=i,output_tokens=o,precision=prec,tp=tp,
                                            kv_passes=inf.attention_kv_passes(M(p), grouped_kernel=False))
    e=v/meas-1; errs.add(e, f"TRT-LLM v0.6.1 fixed batch {p} {g} TP{tp} b{b} {i}/{o}"); print(f"| {p} | {g} | {prec.upper()} TP{tp} | {b} | {i}/{o} | {meas:,} | {v:,.0f} | {e*100:+.0f}% |")
print(f"static batch: {len(errs)} rows, median {statistics.median(errs)*100:.1f}%, p90 {p90(errs)*100:.1f}%"
      f" (with a grouped-query kernel, as before serve5: median {statistics.median(errs_xqa)*100:.1f}%, "
      f"p90 {p90(errs_xqa)*100:.1f}%)")
# TensorRT-LLM's XQA blog (NVIDIA/TensorRT-LLM docs/source/blogs/XQA-kernel.md, "H200 2.4x with XQA"; v0.8a, FP8,
# Llama-70B, 128/2048, output tok/s per GPU without and with XQA). The batch is not stated: taken as the largest whose
# whole requests the engine's KV pool holds (a static batch at maximum throughput).
XQA_BLOG = [("llama-2-70b", "h200-sxm-141gb", 1, 1227, 2941), ("llama-2-70b", "h200-sxm-141gb", 8, 13232 / 8, 25300 / 8)]
exqa = Errs()
for p, g, tp, without, with_ in XQA_BLOG:
    m, gpu = M(p), get_gpu(g)
    b = int(inf.kv_cache_bytes_per_gpu(m, gpu, precision="fp8", tp=tp, engine="tensorrt-llm")
            // ((128 + 2048) * inf.kv_bytes_per_token_per_gpu(m, 1.0, tp)))
    got = [inf.static_batch_tokens_per_s_per_gpu(m, gpu, batch=b, prompt_tokens=128, output_tokens=2048, precision="fp8",
                                                 tp=tp, kv_passes=inf.attention_kv_passes(m, grouped_kernel=k))
           for k in (False, True)]
    exqa.add(got[0] / without - 1, f"XQA blog without XQA {p} TP{tp}"); exqa.add(got[1] / with_ - 1, f"XQA blog with XQA {p} TP{tp}")
    print(f"| {p} | {g} | FP8 TP{tp} | batch {b} | 128/2048 | without XQA {without:,.0f} -> {got[0]:,.0f} "
          f"({got[0] / without - 1:+.0%}) | with XQA {with_:,.0f} -> {got[1]:,.0f} ({got[1] / with_ - 1:+.0%}) | "
          f"speed-up {with_ / without:.2f}x published, {got[1] / got[0]:.2f}x modelled |")
print(f"XQA blog, without and with XQA (batch assumed, not pooled): {len(exqa)} rows, median "
      f"{statistics.median(exqa)*100:.1f}%, max {max(exqa)*100:.1f}%")
lat=[("llama-2-7b","h100-sxm-80gb","fp8",1,128,7),("llama-2-7b","h100-sxm-80gb","fp8",1,2048,36),("llama-2-70b","h100-sxm-80gb","fp8",4,128,26),("llama-2-70b","h100-sxm-80gb","fp8",4,2048,109),
("llama-2-7b","a100-sxm-80gb","bf16",1,128,16),("llama-2-7b","a100-sxm-80gb","bf16",1,2048,133),("llama-2-70b","a100-sxm-80gb","bf16",4,128,47),("llama-2-70b","a100-sxm-80gb","bf16",4,2048,377)]
e2=Errs()
for p,g,prec,tp,i,meas in lat:
    v=inf.time_to_first_token_s(M(p),get_gpu(g),prompt_tokens=i,precision=prec,tp=tp)*1000
    e=v/meas-1; e2.add(e, f"TRT-LLM v0.5 first token {p} {g} TP{tp} {i}"); print(f"| {p} | {g} | {prec.upper()} TP{tp} | 1 | {i} | {meas} | {v:.0f} | {e*100:+.0f}% |")
print(f"TTFT: {len(e2)} rows, median {statistics.median(e2)*100:.1f}%, p90 {p90(e2)*100:.1f}%")

# KV capacity: the KV pool the engine allocates per GPU, against the engines' own start-up logs (GiB per GPU).
# (preset, gpu, precision, tp, engine, memory knob, CUDA-visible total GiB in the log, published KV GiB, source)
KV_ROWS = [
    ("llama-3-8b", "h100-sxm-80gb", "bf16", 1, "vllm", 0.90, 79.22, 53.29,
     "vLLM PR #10511 (Dec 2024): vllm serve meta-llama/Meta-Llama-3-8B"),
    ("qwen2.5-32b", "l40s-48gb", "bf16", 2, "vllm", 0.90, 44.42, 7.71,
     "vLLM issue #15815 (Apr 2025): Qwen2.5-32B-Instruct, TP 2"),
    ("llama-3.1-8b", "l40s-48gb", "bf16", 1, "vllm", 0.90, 44.42, 158656 * 131072 / 1024 ** 3,
     "vLLM PR #17122 (Apr 2025, V1): 158,656 tokens"),
    ("qwen3-235b-a22b", "h100-sxm-80gb", "fp8", 4, "vllm", 0.90, 79.22, 8.11,
     "vLLM issue #21348 (Jul 2025): Qwen3-235B-A22B-FP8, TP 4"),
    ("qwen3-235b-a22b", "h100-sxm-80gb", "fp8", 4, "sglang", 0.93, 79.22, 2 * 8.23,
     "same issue, SGLang --mem-fraction-static 0.93: K 8.23 + V 8.23 GB"),
    # issue 35 round 4: a current vLLM's own split, printed in ovg-project/kvcached PR #448 (Aug 2026): "Measured on an
    # A100, enforce_eager, util 0.92, requested 36.33 GiB": Qwen2.5-0.5B weights 0.93, torch peak 0.59, non-torch
    # 0.11 GiB, real KV capacity 34.70 GiB (36.33 / 0.92 = 39.49 GiB seen: an A100 40GB)
    ("qwen2.5-0.5b", "a100-sxm-40gb", "bf16", 1, "vllm", 0.92, 39.49, 34.70,
     "ovg-project/kvcached PR #448 (Aug 2026): Qwen2.5-0.5B, A100 40GB, util 0.92, enforce_eager"),
]
kv_cat, kv_log = Errs(), []
for p, g, prec, tp, eng, frac, total, meas, src in KV_ROWS:
    gpu = get_gpu(g)
    a = inf.kv_cache_bytes_per_gpu(M(p), gpu, precision=prec, tp=tp, engine=eng, utilization=frac) / inf.GIB
    # the log's CUDA total as what the engine sees (undo the ECC share the card's id would apply)
    seen = total * gpu.memory_gib * inf.GIB / inf.visible_memory_bytes(gpu)
    alt = gpu.model_copy(update={"memory_gib": seen}) if hasattr(gpu, "model_copy") else \
        __import__("dataclasses").replace(gpu, memory_gib=seen)
    b = inf.kv_cache_bytes_per_gpu(M(p), alt, precision=prec, tp=tp, engine=eng, utilization=frac) / inf.GIB
    kv_cat.add(a / meas - 1, f"KV pool {p} {g} TP{tp} {eng}"); kv_log.append(abs(b / meas - 1))
    print(f"| {p} | {g} | {prec.upper()} TP{tp} | {eng} {frac:.2f} | {meas:.2f} | {a:.2f} ({a / meas - 1:+.0%}) | "
          f"{b:.2f} ({b / meas - 1:+.0%}) | {src} |")
print(f"KV capacity: {len(kv_cat)} rows, catalog memory median {statistics.median(kv_cat)*100:.1f}%, "
      f"p90 {p90(kv_cat)*100:.1f}%; the log's memory median {statistics.median(kv_log)*100:.1f}%, p90 {p90(kv_log)*100:.1f}%")

# Batch-1 first token, TensorRT-LLM v0.9.0 (NVIDIA/TensorRT-LLM docs/source/performance/perf-overview.md, "Low Latency"
# tables: "All data was generated using version 0.9.0"; gptSessionBenchmark, output length 1, FP8 weights and KV cache on
# H100/H200/L40S, FP16 on A100). Not looked at while the ridge rows (inference.ridge_rows) were written.
TTFT_V09 = [
    ("llama-2-7b", "h200-sxm-141gb", "fp8", 1, 128, 5.7), ("llama-2-7b", "h200-sxm-141gb", "fp8", 1, 2048, 30.2),
    ("llama-2-70b", "h200-sxm-141gb", "fp8", 4, 128, 17.8), ("llama-2-70b", "h200-sxm-141gb", "fp8", 4, 2048, 103.0),
    ("mistral-7b-v0.1", "h200-sxm-141gb", "fp8", 1, 128, 5.9), ("mistral-7b-v0.1", "h200-sxm-141gb", "fp8", 1, 2048, 31.7),
    ("mixtral-8x7b", "h200-sxm-141gb", "fp8", 2, 128, 12.1), ("mixtral-8x7b", "h200-sxm-141gb", "fp8", 2, 2048, 87.7),
    ("llama-2-7b", "h100-sxm-80gb", "fp8", 1, 128, 6.3), ("llama-2-7b", "h100-sxm-80gb", "fp8", 1, 2048, 30.8),
    ("llama-2-70b", "h100-sxm-80gb", "fp8", 4, 128, 19.6), ("llama-2-70b", "h100-sxm-80gb", "fp8", 8, 2048, 85.1),
    ("mistral-7b-v0.1", "h100-sxm-80gb", "fp8", 1, 128, 6.5), ("mistral-7b-v0.1", "h100-sxm-80gb", "fp8", 1, 2048, 32.4),
    ("mixtral-8x7b", "h100-sxm-80gb", "fp8", 2, 128, 13.4), ("mixtral-8x7b", "h100-sxm-80gb", "fp8", 2, 2048, 89.5),
    ("llama-2-7b", "l40s-48gb", "fp8", 1, 128, 14.1), ("llama-2-7b", "l40s-48gb", "fp8", 1, 2048, 80.1),
    ("llama-2-70b", "l40s-48gb", "fp8", 8, 128, 70.4), ("llama-2-70b", "l40s-48gb", "fp8", 4, 2048, 673.3),
    ("mistral-7b-v0.1", "l40s-48gb", "fp8", 1, 128, 15.4), ("mistral-7b-v0.1", "l40s-48gb", "fp8", 1, 2048, 87.3),
    ("mixtral-8x7b", "l40s-48gb", "fp8", 4, 128, 19.5), ("mixtral-8x7b", "l40s-48gb", "fp8", 4, 2048, 165.6),
    ("llama-2-7b", "a100-sxm-80gb", "bf16", 1, 128, 16.2), ("llama-2-7b", "a100-sxm-80gb", "bf16", 1, 2048, 132.4),
    ("llama-2-70b", "a100-sxm-80gb", "bf16", 4, 128, 45.6), ("llama-2-70b", "a100-sxm-80gb", "bf16", 8, 2048, 249.2),
    ("mistral-7b-v0.1", "a100-sxm-80gb", "bf16", 1, 128, 16.3), ("mistral-7b-v0.1", "a100-sxm-80gb", "bf16", 1, 2048, 139.6),
    ("mixtral-8x7b", "a100-sxm-80gb", "bf16", 2, 128, 23.8), ("mixtral-8x7b", "a100-sxm-80gb", "bf16", 2, 2048, 160.9),
]
e9, e9moe = Errs(), Errs()
for p, g, prec, tp, i, meas in TTFT_V09:
    v = inf.time_to_first_token_s(M(p), get_gpu(g), prompt_tokens=i, precision=prec, tp=tp) * 1000
    # Mixtral apart: the v0.9 engines were built from a config file alone (random weights, so the router's choices
    # are not a real prompt's), and its grouped-GEMM prefill is a kernel the dense model does not describe
    (e9moe if p.startswith("mixtral") else e9).add(v / meas - 1, f"TRT-LLM v0.9 first token {p} {g} TP{tp} {i}")
    print(f"| {p} | {g} | {prec.upper()} TP{tp} | 1 | {i} | {meas} | {v:.1f} | {v / meas - 1:+.0%} |")
print(f"TTFT v0.9 (dense): {len(e9)} rows, median {statistics.median(e9)*100:.1f}%, p90 {p90(e9)*100:.1f}%; "
      f"Mixtral {len(e9moe)} rows, median {statistics.median(e9moe)*100:.1f}%")

# Batch-1 decode (one request, tokens/s = 1 / time per output token), context ~256 tokens.
# (preset, gpu, precision, tp, measured tokens/s, source)
DECODE_B1 = [
    # pytorch-labs/gpt-fast README "Benchmarks" (8xA100-80GB SXM power-limited to 330 W, batch size 1, 5-token prompt,
    # torch.compile + CUDA graphs, bf16; "Tensor Parallelism" table, ENABLE_INTRA_NODE_COMM=1)
    ("llama-2-7b", "a100-sxm-80gb", "bf16", 1, 104.9, "gpt-fast"), ("llama-2-7b", "a100-sxm-80gb", "bf16", 2, 168.84, "gpt-fast"),
    ("llama-2-7b", "a100-sxm-80gb", "bf16", 4, 254.02, "gpt-fast"), ("llama-2-7b", "a100-sxm-80gb", "bf16", 8, 328.43, "gpt-fast"),
    ("llama-2-70b", "a100-sxm-80gb", "bf16", 2, 21.32, "gpt-fast"), ("llama-2-70b", "a100-sxm-80gb", "bf16", 4, 38.01, "gpt-fast"),
    ("llama-2-70b", "a100-sxm-80gb", "bf16", 8, 62.50, "gpt-fast"),
    # XiongjieDai/GPU-Benchmarks-on-LLM-Inference README (llama.cpp, -ngl all layers, F16 GGUF): LLaMA 2 7B f16 average
    # eval speed, and LLaMA 3 8B F16 tg 512 (May 2024)
    ("llama-2-7b", "rtx-4090-24gb", "bf16", 1, 60.78, "llama.cpp"), ("llama-3-8b", "rtx-4090-24gb", "bf16", 1, 54.84, "llama.cpp"),
    ("llama-2-7b", "rtx-a6000-48gb", "bf16", 1, 44.01, "llama.cpp"),
]
eb1 = Errs()
for p, g, prec, tp, meas, src in DECODE_B1:
    t, _ = inf.decode_step_s(M(p), get_gpu(g), precision=prec, kv_bytes=inf.KV_BYTES["bf16"], batch=1, context=256,
                             tp=tp, eff=inf.ServingEfficiency())
    eb1.add(1 / t / meas - 1, f"{src} batch 1 {p} {g} TP{tp}")
    print(f"| {p} | {g} | {prec.upper()} TP{tp} | {src} | {meas:.1f} | {1 / t:.1f} | {1 / t / meas - 1:+.0%} |")
print(f"batch-1 decode: {len(eb1)} rows, median {statistics.median(eb1)*100:.1f}%, p90 {p90(eb1)*100:.1f}%")


# ---------------------------------------------------------------------------------------------------------------
# Issue 35, round 4: other engines (vLLM, LMDeploy TurboMind, NVIDIA NIM) and MoE. Each row as a user would enter
# it: the model preset, the card, the precision, TP, the lengths and (fixed batch) the batch; the source per table.
def _report(name, errs):
    print(f"{name}: {len(errs)} rows, median {statistics.median(errs)*100:.1f}%, p90 {p90(errs)*100:.1f}%, "
          f"max {max(errs)*100:.1f}%")


def _fits(p, g, prec, tp, batch, tokens, engine="vllm"):
    """Does the batch's whole KV (batch × tokens) fit in the pool the engine would allocate? (a row that does not
    queues requests: its figure is no longer a fixed batch)"""
    m = M(p)
    kvb = inf.KV_BYTES[inf.kv_precision_for(prec)]
    return batch * tokens * inf.kv_bytes_per_token_per_gpu(m, kvb, tp) <= inf.kv_cache_bytes_per_gpu(
        m, get_gpu(g), precision=prec, tp=tp, engine=engine)


# MoE batch-1 decode: pytorch-labs/gpt-fast mixtral-moe/README.md "Benchmarks" (8xA100-80GB power-limited to 330 W,
# batch size 1, 5-token prompt, torch.compile, tensor parallelism with ENABLE_INTRA_NODE_COMM=1); bf16 does not fit
# one GPU (OOM); int8 is weight-only int8 (1 byte per weight). Each token reads its 2 of 8 experts.
MOE_B1 = [("mixtral-8x7b", "a100-sxm-80gb", "bf16", 2, 96.67), ("mixtral-8x7b", "a100-sxm-80gb", "bf16", 4, 155.35),
          ("mixtral-8x7b", "a100-sxm-80gb", "bf16", 8, 227.82), ("mixtral-8x7b", "a100-sxm-80gb", "int8", 1, 97.92),
          ("mixtral-8x7b", "a100-sxm-80gb", "int8", 2, 155.03), ("mixtral-8x7b", "a100-sxm-80gb", "int8", 4, 216.87),
          ("mixtral-8x7b", "a100-sxm-80gb", "int8", 8, 279.35)]


def decode_tps(p, g, prec, tp, batch=1, context=256, vocab_quantized=False):
    """Batch-``batch`` decode tokens/s. ``vocab_quantized``: gpt-fast and MLC LLM quantise the LM head too (issue 35 r6
    serve8, inf.sixteen_bit_params); the serving engines keep it 16-bit."""
    m = M(p) if not vocab_quantized else _dc.replace(M(p), vocab_quantized=True)
    t, _ = inf.decode_step_s(m, get_gpu(g), precision=prec, kv_bytes=inf.KV_BYTES[inf.kv_precision_for(prec)],
                             batch=batch, context=context, tp=tp, eff=inf.ServingEfficiency())
    return batch / t


emoe = Errs()
for p, g, prec, tp, meas in MOE_B1:
    v = decode_tps(p, g, prec, tp, vocab_quantized=True)
    emoe.add(v / meas - 1, f"gpt-fast MoE batch 1 {p} {prec} TP{tp}")
    print(f"| {p} | {g} | {prec.upper()} TP{tp} | gpt-fast | {meas:.1f} | {v:.1f} | {v / meas - 1:+.0%} |")
_report("MoE batch-1 decode (gpt-fast Mixtral)", emoe)

# LMDeploy TurboMind, InternLM/lmdeploy docs/en/benchmark/a100_fp16.md (commit 3e391df4673326f79363eebe030876861a9b7090;
# "All the following results are tested on (x8) A100-80G CUDA 11.8", lmdeploy v0.1.0a1, profile_generation.py: a fixed
# batch of requests with fixed prompt/output lengths; FP16 weights and KV cache). (preset, tp, batch, prompt, output,
# output tok/s, first-token latency at batch 1 in s)
LMD = [
    ("llama-2-7b", 1, 1, 1, 128, 100.02, None), ("llama-2-7b", 1, 1, 128, 128, 102.21, 0.022),
    ("llama-2-7b", 1, 1, 2048, 128, 86.1, 0.139),
    ("llama-2-7b", 1, 16, 1, 128, 1504.72, None), ("llama-2-7b", 1, 16, 128, 128, 1272.47, None),
    ("llama-2-7b", 1, 16, 128, 2048, 1010.62, None), ("llama-2-7b", 1, 16, 2048, 128, 348.87, None),
    ("llama-2-7b", 1, 16, 2048, 2048, 601.63, None),
    ("llama-2-7b", 1, 32, 1, 128, 2136.73, None), ("llama-2-7b", 1, 32, 128, 128, 2125.47, None),
    ("llama-2-7b", 1, 32, 128, 2048, 1462.12, None), ("llama-2-7b", 1, 32, 2048, 128, 450.43, None),
    ("llama-2-7b", 1, 32, 2048, 2048, 733.34, None),
    ("llama-2-7b", 1, 64, 1, 128, 4154.81, None), ("llama-2-7b", 1, 64, 128, 128, 3024.07, None),
    ("llama-2-7b", 1, 64, 128, 2048, 1852.06, None), ("llama-2-7b", 1, 64, 2048, 128, 493.46, None),
    ("llama-2-7b", 1, 64, 2048, 2048, 755.65, None),
    ("llama-2-13b", 1, 1, 1, 128, 57.49, None), ("llama-2-13b", 1, 1, 128, 128, 56.58, 0.040),
    ("llama-2-13b", 1, 1, 2048, 128, 48.99, 0.242),
    ("llama-2-13b", 1, 16, 1, 128, 869.45, None), ("llama-2-13b", 1, 16, 128, 128, 757.3, None),
    ("llama-2-13b", 1, 16, 128, 2048, 605.88, None), ("llama-2-13b", 1, 16, 2048, 128, 257.92, None),
    ("llama-2-13b", 1, 16, 2048, 2048, 366.67, None),
    ("llama-2-13b", 1, 32, 1, 128, 1667.5, None), ("llama-2-13b", 1, 32, 128, 128, 1301.27, None),
    ("llama-2-13b", 1, 32, 128, 2048, 860.14, None), ("llama-2-13b", 1, 32, 2048, 128, 291.54, None),
    ("llama-2-13b", 1, 64, 1, 128, 3049.16, None), ("llama-2-13b", 1, 64, 128, 128, 2033.22, None),
    ("llama-2-70b", 4, 1, 1, 128, 33.94, None), ("llama-2-70b", 4, 1, 128, 128, 33.63, 0.074),
    ("llama-2-70b", 4, 1, 2048, 128, 28.32, 0.402),
    ("llama-2-70b", 4, 16, 1, 128, 468.52, None), ("llama-2-70b", 4, 16, 128, 128, 439.77, None),
    ("llama-2-70b", 4, 16, 128, 2048, 482.99, None), ("llama-2-70b", 4, 16, 2048, 128, 189.34, None),
    ("llama-2-70b", 4, 16, 2048, 2048, 399.42, None),
    ("llama-2-70b", 4, 32, 1, 128, 906.03, None), ("llama-2-70b", 4, 32, 128, 128, 746.36, None),
    ("llama-2-70b", 4, 32, 128, 2048, 853.56, None), ("llama-2-70b", 4, 32, 2048, 128, 232.6, None),
    ("llama-2-70b", 4, 32, 2048, 2048, 636.23, None),
    ("llama-2-70b", 4, 64, 1, 128, 1425.79, None), ("llama-2-70b", 4, 64, 128, 128, 1159.84, None),
    ("llama-2-70b", 4, 64, 128, 2048, 1391.8, None), ("llama-2-70b", 4, 64, 2048, 128, 270.47, None),
    ("llama-2-70b", 4, 64, 2048, 2048, 930.46, None),
]
G_LMD = "a100-sxm-80gb"
elmd_b1, elmd_fix, elmd_ttft, lmd_out = Errs(), Errs(), Errs(), []
for p, tp, b, i, o, meas, ftl in LMD:
    if not _fits(p, G_LMD, "bf16", tp, b, i + o):
        lmd_out.append((p, tp, b, i, o))
        continue
    v = inf.static_batch_tokens_per_s_per_gpu(M(p), get_gpu(G_LMD), batch=b, prompt_tokens=i, output_tokens=o,
                                              precision="bf16", tp=tp) * tp
    (elmd_b1 if b == 1 else elmd_fix).add(v / meas - 1, f"LMDeploy {p} TP{tp} b{b} {i}/{o}")
    print(f"| {p} | {G_LMD} | BF16 TP{tp} | {b} | {i}/{o} | {meas:,.1f} | {v:,.1f} | {v / meas - 1:+.0%} |")
    if ftl:
        f = inf.time_to_first_token_s(M(p), get_gpu(G_LMD), prompt_tokens=i, precision="bf16", tp=tp)
        elmd_ttft.add(f / ftl - 1, f"LMDeploy first token {p} TP{tp} {i}")
        print(f"|   first token | | | 1 | {i} | {ftl * 1000:.0f} ms | {f * 1000:.0f} ms | {f / ftl - 1:+.0%} |")
_report("LMDeploy batch 1 (output tok/s)", elmd_b1)
_report("LMDeploy fixed batch 16-64 (output tok/s)", elmd_fix)
_report("LMDeploy first token (batch 1)", elmd_ttft)
print(f"LMDeploy rows whose batch does not fit the KV pool (requests queue), left out: {lmd_out}")

# vLLM's own performance benchmark, latency tests (.buildkite/nightly-benchmarks/tests/latency-tests.json;
# buildkite.com/vllm/performance-benchmark/builds/9515: "Input length: 32 tokens. Output length: 128 tokens.
# Batch size: fixed (8)", H200, mean end-to-end latency of the batch; bf16 weights). Llama 3 70B is llama-3-70b.
VLLM_LAT = [("llama-3.1-8b", "h200-sxm-141gb", 1, 833.421), ("llama-3-70b", "h200-sxm-141gb", 4, 2077.53),
            ("mixtral-8x7b", "h200-sxm-141gb", 2, 1917.44),
            # issue 35 round 4 (serve4): the same tests on the other cards of the same benchmark: build 9523 (A100-SXM4-80GB)
            # and build 9555 ("8xH100") of buildkite.com/vllm/performance-benchmark, mean latency (ms)
            ("llama-3.1-8b", "a100-sxm-80gb", 1, 1579.27), ("llama-3-70b", "a100-sxm-80gb", 4, 3990.59),
            ("mixtral-8x7b", "a100-sxm-80gb", 2, 3643.84), ("llama-3.1-8b", "h100-sxm-80gb", 1, 997.542),
            ("llama-3-70b", "h100-sxm-80gb", 4, 2444.47), ("mixtral-8x7b", "h100-sxm-80gb", 2, 2326.97)]
# Issue 35 round 6 (serve7): these builds ran vLLM's benchmark_latency (LLM.generate) before async scheduling became
# vLLM's default (PR #27614, late 2025; ASSUMED from the builds' nightly-benchmarks layout and models): the engine loop
# runs its host work between the GPU's steps (inf.ENGINE_LOOPS "serial": V0, or V1's synchronous EngineCore loop).
VLLM_BENCH_LOOP = "serial"
evl = Errs()
for p, g, tp, ms in VLLM_LAT:
    tps = inf.static_batch_tokens_per_s_per_gpu(M(p), get_gpu(g), batch=8, prompt_tokens=32, output_tokens=128,
                                                precision="bf16", tp=tp, loop=VLLM_BENCH_LOOP) * tp
    v = 8 * 128 / tps * 1000
    evl.add(v / ms - 1, f"vLLM latency test b8 {p} {g} TP{tp}")
    print(f"| {p} | {g} | BF16 TP{tp} | vLLM | 8 | 32/128 | {ms:,.0f} ms | {v:,.0f} ms | {v / ms - 1:+.0%} |")
_report("vLLM latency tests (batch 8, 32/128, end-to-end)", evl)

# NVIDIA NIM for LLMs benchmarking guide, "Performance" (docs.nvidia.com/nim/benchmarking/llm/1.0.0/performance.md):
# Llama-3.3-70b-instruct, NIM 1.8.0, 2 x H100 80G, fp8 TP2; concurrency 1 (one user): TTFT and inter-token latency.
NIM = [("llama-3.1-70b", "h100-sxm-80gb", "fp8", 2, 5000, 500, 406.77, 18.58),
       ("llama-3.1-70b", "h100-sxm-80gb", "fp8", 2, 500, 2000, 47.77, 18.91)]
enim_itl, enim_ttft = Errs(), Errs()
for p, g, prec, tp, i, o, ttft, itl in NIM:
    v = 1000 / decode_tps(p, g, prec, tp, context=i + o / 2)
    f = inf.time_to_first_token_s(M(p), get_gpu(g), prompt_tokens=i, precision=prec, tp=tp) * 1000
    enim_itl.add(v / itl - 1, f"NIM ITL {p} {i}/{o}"); enim_ttft.add(f / ttft - 1, f"NIM TTFT {p} {i}/{o}")
    print(f"| {p} | {g} | FP8 TP{tp} | NIM | {i}/{o} | ITL {itl} ms | {v:.1f} ms | {v / itl - 1:+.0%} | "
          f"TTFT {ttft} ms | {f:.0f} ms | {f / ttft - 1:+.0%} |")
_report("NIM concurrency-1 inter-token latency", enim_itl)
_report("NIM concurrency-1 first token", enim_ttft)

# Maximum load on ShareGPT, vLLM v0.6.0 and SGLang v0.3.0: sgl-project/sglang benchmark/benchmark_vllm_060/README.md
# (commit 120affb9613cc3f5bcd055ec09c7621d3ced0ebc), "Offline benchmark results": 5,000 ShareGPT prompts at an infinite
# request rate, BF16, output tokens/s of the whole TP group. vLLM: gpu_memory_utilization 0.90 (default), --num-scheduler-
# steps 10; SGLang: mem_fraction_static 0.88 (TP 1 default; set to 0.88 at TP 4). ShareGPT's lengths vary by request;
# the rows use the means of the same 5,000-prompt sample: 1,130,466 input and 971,613 generated tokens with the Llama 3.1
# tokenizer (sgl-project/sglang issue #1505, bench_serving --num-prompts 5000), 226 in / 194 out (the README's own
# output/request ratio, 4281.51 / 22.03 = 194.3, agrees).
SHAREGPT = [("llama-3.1-8b", "a100-sxm-80gb", 1, "sglang", 0.88, 4281.51), ("llama-3.1-8b", "a100-sxm-80gb", 1, "vllm", 0.90, 4132.37),
            ("llama-3.1-70b", "h100-sxm-80gb", 4, "sglang", 0.88, 3856.01), ("llama-3.1-70b", "h100-sxm-80gb", 4, "vllm", 0.90, 3700.64)]
# Issue 35 round 4 (serve4): the same rows as the runs they were: 5,000 requests at once whose lengths spread like
# ShareGPT's within the scripts' filter (inf.request_mix "sharegpt", inf.max_load_run), each engine at its version's
# defaults: vLLM 0.6.0's max_num_seqs was 256 on every card (vllm v0.6.0 vllm/engine/arg_utils.py EngineArgs), and
# SGLang 0.3.0 ran its scheduler between the GPU's batches (inf.SGLANG_PRE_OVERLAP_STEP, overlap from v0.4).
# Issue 35 round 6 (serve7): vLLM 0.6.0 (V0) ran its host work between the GPU's steps once every 10 steps
# (--num-scheduler-steps 10, inf.exposed_host_s "serial"); SGLang 0.3's serial share is its 1.1 factor (loop "none").
# Issue 35 round 10 (v0serve10): vLLM 0.6.0 is the V0 engine: its own host work per scheduling pass (inf loop "v0",
# methods.ENGINE_STEP_S + ENGINE_SEQ_S a running request), once every 10 steps.
# Issue 35 round 11 (serve11): the V0 loop of its release (inf.vllm_v0_loop("0.6.0"): "v0async", PR #7162 / #7117's
# per-request savings and the one-request output processing off the path), and each request's steps past its stop
# (inf.v0_extra_steps: the 10-step pass runs to its end, async output processing one step more).
SHAREGPT_RUN = {"vllm": dict(max_batch=256, host_step=1.0, loop=inf.vllm_v0_loop("0.6.0"), steps_per_schedule=10),
                "sglang": dict(max_batch=None, host_step=inf.SGLANG_PRE_OVERLAP_STEP, loop="none")}
eshare, eshare_means = Errs(), []
for p, g, tp, eng, frac, meas in SHAREGPT:
    v0 = inf.max_throughput_per_gpu(M(p), get_gpu(g), prompt_tokens=226, output_tokens=194, precision="bf16", tp=tp,
                                    engine=eng, utilization=frac) * tp
    v = inf.max_throughput_per_gpu(M(p), get_gpu(g), prompt_tokens=226, output_tokens=194, precision="bf16", tp=tp,
                                   engine=eng, utilization=frac, spread="sharegpt", requests=5000,
                                   **SHAREGPT_RUN[eng]) * tp
    eshare.add(v / meas - 1, f"ShareGPT max load {eng} {p} {g} TP{tp}"); eshare_means.append(abs(v0 / meas - 1))
    print(f"| {p} | {g} | BF16 TP{tp} | {eng} {frac:.2f} | 5,000 ShareGPT requests (226/194 mean) | {meas:,.0f} | "
          f"{v0:,.0f} ({v0 / meas - 1:+.0%}) | {v:,.0f} ({v / meas - 1:+.0%}) |")
_report("max load ShareGPT, steady state at the mean lengths (before serve4)", eshare_means)
_report("max load ShareGPT, vLLM 0.6 / SGLang 0.3", eshare)

# vLLM's performance benchmark, throughput tests (issue 35 round 4, serve4; not used to build the mechanism):
# benchmarks/benchmark_throughput.py, "randomly sample 200 prompts from ShareGPT dataset (with fixed random seed). Output
# length: the corresponding output length of these 200 prompts", all sent at once; "Tput (req/s)". Builds 9513 (H200),
# 9523 (A100-SXM4-80GB) and 9555 ("8xH100") of buildkite.com/vllm/performance-benchmark; bf16. 200 requests fit every
# card's pool and vLLM's sequence cap at once: the run is one prefill and a drain whose batch shrinks as the short
# requests finish, so the spread of the output lengths sets it (the same ShareGPT filter; the Llama 3 means 226/194).
# Mixtral apart: its tokenizer is not Llama 3's, so the same prompts are other lengths.
VLLM_THR = [("llama-3.1-8b", 1, {"h200-sxm-141gb": 21.8334, "a100-sxm-80gb": 11.0567, "h100-sxm-80gb": 19.5005}),
            ("llama-3-70b", 4, {"h200-sxm-141gb": 9.74671, "a100-sxm-80gb": 4.78859, "h100-sxm-80gb": 8.86239}),
            ("mixtral-8x7b", 2, {"h200-sxm-141gb": 8.04811, "a100-sxm-80gb": 5.2096, "h100-sxm-80gb": 8.15186})]
ethr, ethr_fixed, ethr_moe, ethr_steady = Errs(), [], Errs(), []
for p, tp, by_gpu in VLLM_THR:
    for g, meas in by_gpu.items():
        got = {}
        for spread in ("fixed", "sharegpt"):
            ps_, os_ = inf.request_mix(226, 194, spread, samples=200)
            run = inf.max_load_run(M(p), get_gpu(g), prompts=ps_, outputs=os_, requests=200, precision="bf16", tp=tp,
                                   loop=VLLM_BENCH_LOOP)  # the same builds as the latency tests (serve7)
            got[spread] = 200 / run.duration_s
        e = got["sharegpt"] / meas - 1
        (ethr_moe if p.startswith("mixtral") else ethr).add(e, f"vLLM throughput test {p} {g} TP{tp}")
        if not p.startswith("mixtral"):
            ethr_fixed.append(abs(got["fixed"] / meas - 1))
            steady = inf.max_throughput_per_gpu(M(p), get_gpu(g), prompt_tokens=226, output_tokens=194,
                                                precision="bf16", tp=tp) * tp / 194
            ethr_steady.append(abs(steady / meas - 1))
        print(f"| {p} | {g} | BF16 TP{tp} | vLLM | 200 ShareGPT prompts | {meas:.2f} req/s | every request 226/194: "
              f"{got['fixed']:.2f} ({got['fixed'] / meas - 1:+.0%}) | ShareGPT spread: {got['sharegpt']:.2f} ({e:+.0%}) |")
_report("vLLM throughput tests (200 ShareGPT prompts), steady state at the means (before serve4)", ethr_steady)
_report("vLLM throughput tests (200 ShareGPT prompts), every request at the means", ethr_fixed)
_report("vLLM throughput tests (200 ShareGPT prompts), Llama, ShareGPT spread", ethr)
_report("vLLM throughput tests, Mixtral (other tokenizer), ShareGPT spread", ethr_moe)

# MoE: which weights a decode step reads. The vLLM H200 Mixtral row (batch 8) and gpt-fast's batch-1 rows, predicted
# with the union of activated experts (the model), with every expert (a dense read) and with only k/E of them per
# token summed over the batch without overlap.
import dataclasses as _dc
for p, g, prec, tp, b, meas_s in [("mixtral-8x7b", "a100-sxm-80gb", "bf16", 2, 1, 1 / 96.67),
                                  ("mixtral-8x7b", "a100-sxm-80gb", "bf16", 8, 1, 1 / 227.82),
                                  ("mixtral-8x7b", "h200-sxm-141gb", "bf16", 2, 8, None)]:
    m = M(p)
    dense = _dc.replace(m, expert_params=0.0)
    kv = inf.KV_BYTES["bf16"]
    def _t(mm):
        return inf.decode_step_s(mm, get_gpu(g), precision=prec, kv_bytes=kv, batch=b, context=256, tp=tp,
                                 eff=inf.ServingEfficiency())[0]
    print(f"  MoE read, {p} {g} TP{tp} batch {b}: union {_t(m) * 1000:.2f} ms, every expert {_t(dense) * 1000:.2f} ms"
          + (f", measured {meas_s * 1000:.2f} ms" if meas_s else "")
          + f" (experts reached: {1 - (1 - m.experts_per_tok / m.num_experts) ** b:.0%})")

# Batch-1 decode under current vLLM (V1), one request at a time:
# * InferenceBench "Recipe: concurrency sweep" (yobitelcomm.github.io/bench/recipes/concurrency-sweep/, 2026-05-16):
#   H100-80GB-HBM3, vLLM 0.21.0, Llama-3.1-8B-Instruct fp16, concurrency 1: TPOT p50 6.48 ms (short chatbot prompts;
#   the prompt length is not stated, 512 tokens assumed: its KV is 0.4% of the bytes a step reads);
# * J. Musgrave, "vLLM throughput-latency sweep on NVIDIA A100" (johnmusgrave.com, vLLM 0.23.0, A100 40GB on Lambda,
#   Llama-3.1-8B-Instruct BF16, 1024 in / 128 out, --max-concurrency 1): "about 75 tokens/sec".
VLLM_B1 = [("llama-3.1-8b", "h100-sxm-80gb", 1, 512 + 64, 1000 / 6.48, "vLLM 0.21 (InferenceBench)"),
           ("llama-3.1-8b", "a100-sxm-40gb", 1, 1024 + 64, 75.0, "vLLM 0.23 (J. Musgrave)")]
evb1 = Errs()
for p, g, tp, ctx, meas, src in VLLM_B1:
    v = decode_tps(p, g, "bf16", tp, context=ctx)
    evb1.add(v / meas - 1, f"{src} batch 1 {p} {g}")
    print(f"| {p} | {g} | BF16 TP{tp} | {src} | {meas:.1f} | {v:.1f} | {v / meas - 1:+.0%} |")
_report("batch-1 decode, current vLLM", evb1)

# Weight-only int4 at batch 1 on a consumer card: mlc-ai/llm-perf-bench README, "Int4-quantized, Single GPU" (MLC LLM,
# q4f16_1: 4-bit weights with fp16 activations and compute, decoding 256 tokens): Llama2-7B 204.8 and Llama2-13B 113.5
# tokens/s on an RTX 4090. (q4f16_1 adds an fp16 scale per 32 weights, 4.5 bits a weight; the model's int4 is 4.)
INT4_B1 = [("llama-2-7b", "rtx-4090-24gb", 204.8), ("llama-2-13b", "rtx-4090-24gb", 113.5)]
eint4 = Errs()
for p, g, meas in INT4_B1:
    v = decode_tps(p, g, "int4", 1, context=128, vocab_quantized=True)
    eint4.add(v / meas - 1, f"MLC LLM int4 batch 1 {p} {g}")
    print(f"| {p} | {g} | INT4 TP1 | MLC LLM | {meas:.1f} | {v:.1f} | {v / meas - 1:+.0%} |")
_report("batch-1 decode, int4 weight-only (MLC LLM)", eint4)

# Weight-only int8/int4 at batch 1 under gpt-fast (pytorch-labs/gpt-fast README, "Benchmarks" and "Tensor Parallelism +
# Quantization", same A100s at 330 W as the dense rows above): int8 per-channel, int4 with a bf16 scale and zero per
# 32 weights (G=32: 5 bits a weight, the model's int4 counts 4), tinygemm's int4 kernel. The README prints the bandwidth
# each run reached: 1,069 GB/s (7B int8), 863 GB/s (7B int4), 1,323 / 1,098 GB/s (70B int8 / int4).
GPTFAST_Q = [("llama-2-7b", "int8", 1, 155.58), ("llama-2-7b", "int4", 1, 196.80), ("llama-2-70b", "int8", 1, 19.13),
             ("llama-2-70b", "int4", 1, 25.25), ("llama-2-70b", "int8", 8, 80.44), ("llama-2-70b", "int4", 8, 90.77)]
egfq = Errs()
for p, prec, tp, meas in GPTFAST_Q:
    v = decode_tps(p, "a100-sxm-80gb", prec, tp, vocab_quantized=True)
    egfq.add(v / meas - 1, f"gpt-fast {prec} batch 1 {p} TP{tp}")
    print(f"| {p} | a100-sxm-80gb | {prec.upper()} TP{tp} | gpt-fast | {meas:.1f} | {v:.1f} | {v / meas - 1:+.0%} |")
_report("batch-1 decode, gpt-fast int8/int4", egfq)

# The five serving categories over every table above (|error| pooled; Mixtral v0.9 first token stays apart).
_CAT_PARTS = {
    "batch-1 decode": [eb1, emoe, elmd_b1, enim_itl, evb1, eint4, egfq],
    "fixed batch": [errs, elmd_fix, evl],
    "max load": [allerr, err405, eshare, ethr],
    "first token": [e2, e9, elmd_ttft, enim_ttft],
    "KV capacity (catalog memory)": [kv_cat],
}
CATEGORIES = {_n: [x for part in _parts for x in part] for _n, _parts in _CAT_PARTS.items()}
print("\nBy category (all sources pooled):")
for _name, _e in CATEGORIES.items():
    _report(f"  {_name}", _e)
_all = [x for _e in CATEGORIES.values() for x in _e]
_report("  all serving rows", _all)
# before issue 35 round 4 serve4: the ShareGPT runs as a steady state at the mean lengths
_before = allerr + err405 + eshare_means + ethr_steady
_report("  max load before serve4 (steady state at the means)", _before)
_report("  all serving rows before serve4", [x for _n, _e in CATEGORIES.items() if _n != "max load" for x in _e] + _before)
# The same without the rows of gpt-fast and llama.cpp (reference implementations, not the serving engines the planner
# sizes for: gpt-fast's own all-reduce and its tinygemm int4 kernel, llama.cpp's GGUF kernels)
ENGINE_ONLY = {"batch-1 decode": elmd_b1 + enim_itl + evb1 + eint4, "fixed batch": errs + elmd_fix + evl}
print("Serving engines only (vLLM, SGLang, TensorRT-LLM, NIM, LMDeploy, MLC LLM):")
for _name, _e in ENGINE_ONLY.items():
    _report(f"  {_name}", _e)
_report("  all serving rows", ENGINE_ONLY["batch-1 decode"] + ENGINE_ONLY["fixed batch"] + CATEGORIES["max load"]
        + CATEGORIES["first token"] + CATEGORIES["KV capacity (catalog memory)"])

# issue 35 round 5 (serve5): the rows that set each category's tail
WORST = 5
print(f"\nWorst {WORST} rows per category (signed error of the predicted figure as each table states it: tokens/s, or time for the latency and first-token rows):")
for _name, _e in CATEGORIES.items():
    _rows = sorted((r for part in _CAT_PARTS[_name] for r in part.rows), key=lambda r: -abs(r[0]))
    print(f"  {_name}: " + "; ".join(f"{lab} {err:+.0%}" for err, lab in _rows[:WORST]))


# ---------------------------------------------------------------------------------------------------------------
# Issue 35, round 6 (serve6): OUT-OF-SAMPLE rows. Published serving figures that none of the tables above hold, entered
# as a user would enter them (model preset, card, precision, TP, lengths, engine; ASSUMED where the source is silent),
# and scored before any mechanism was changed for them. Each source with its URL or repo + path + commit.
OOS_LENS = [(128, 128), (128, 2048), (128, 4096), (500, 2000), (1000, 1000), (2048, 128), (2048, 2048), (5000, 500),
            (20000, 2000)]
# (1) TensorRT-LLM perf-overview at v0.17: NVIDIA/TensorRT-LLM docs/source/performance/perf-overview.md, commit
# 258c7540c03517def55d9a5aadfa9288af474e1b, "All data in the table below was generated using version 0.17":
# trtllm-bench throughput, synthetic requests of fixed lengths (stdev 0), FP8 weights and KV on H200/H100/L40S, FP16 on
# A100-SXM4-80GB, total output tokens/s of the TP group. kv_cache_free_gpu_mem_fraction: "0.95 in majority of cases"
# (not per row): ASSUMED the engine default 0.90, as the main TRT-LLM rows above. Mixtral rows left out (MoE at maximum
# load is printed apart above; the v0.17 MoE engines' kernels are not the dense model's).
# {(preset, tp): {gpu: [tok/s for OOS_LENS, None where the page has no figure]}}
TRT017 = {
    ("llama-3.1-8b", 1): {
        "h200-sxm-141gb": [29526.04, 25398.86, 17370.8, 21020.81, 17537.96, 3794.14, 11968.5, 3987.79, 1804.1],
        "h100-sxm-80gb": [28836.77, 21109.38, 13593.65, 16500.69, 15244.78, 3556.73, 9488.42, 3559.36, 1401.31],
        "l40s-48gb": [9104.61, 5365.81, 3025.92, 4273.75, 4054.71, 1066.52, 2225.27, 981.2, 327.97],
        "a100-sxm-80gb": [6627.27, 5255.99, 3453.79, 4276.58, 3786.83, 799.61, 2424.16, 825.13, 330.04]},
    ("llama-3.1-70b", 1): {
        "h200-sxm-141gb": [4020.75, 4165.68, 2651.75, 3018.39, 2823.45, 465.99, 1913.8, 560.16, 279.52],
        "h100-sxm-80gb": [3378.03, 911.62, 426.32, 775.57, 839.97, 343.29, None, 245.34, None]},
    ("llama-3.1-70b", 2): {
        "h200-sxm-141gb": [6823.01, 8290.35, 6526.67, 6848.02, 5164.76, 809, 4183.88, 1025.38, 640.62],
        "h100-sxm-80gb": [6645.12, 6169.58, 3897.06, 4972.57, 4390.53, 772.66, 2898.16, 919.73, 443.01],
        "a100-sxm-80gb": [1313.96, 531.26, None, 439.41, 472.94, 148.96, 261.1, 121.47, None]},
    ("llama-3.1-70b", 4): {
        "h200-sxm-141gb": [11098.63, 14156, 10574.06, 12452.79, 8911.29, 1358.06, 7130.44, 1811.55, 1199.68],
        "h100-sxm-80gb": [11127.53, 11511.93, 7439.41, 9836.7, 7430.99, 1302.6, 5480.03, 1602.78, 920.19],
        "l40s-48gb": [1523.52, 1942.66, 1440.23, 1634.72, 1209.25, 177.72, 969.68, 249.52, 162.25],
        "a100-sxm-80gb": [2733.48, 2811.27, 1976.49, 2275.79, 1921.77, 325.15, 1393.64, 392.62, 212.08]},
    ("llama-3.1-70b", 8): {
        "h200-sxm-141gb": [15355.84, 21195.88, 16941.52, 17278.4, 13181.24, 1983.03, 11142.47, 2717.83, 1920.45],
        "h100-sxm-80gb": [14730.69, 17061.82, 14171.43, 14679.33, 11451.16, 1923.41, 8801.95, 2457.42, 1512.6],
        "l40s-48gb": [1464.03, 2303.31, 2018.22, 1971.96, 1333.62, 176.16, 1200.16, 259.71, 209.87],
        "a100-sxm-80gb": [4717.62, 5241.5, 3724.67, 4445.37, 3320.41, 542.38, 2553.71, 696.34, 413.38]},
    ("llama-3.1-405b", 8): {
        "h200-sxm-141gb": [3874.19, 5938.09, 5168.37, 5084.29, 3399.69, 463.42, 2940.62, 669.13, 535.31]},
    ("mistral-7b-v0.1", 1): {
        "h200-sxm-141gb": [31938.12, 27409.3, 18505.03, 22354.67, 18426.16, 3834.43, 12347.37, 4041.59, 1822.69],
        "h100-sxm-80gb": [31674.49, 23496.42, 14350.99, 18026.27, 16035.66, 3642.48, 9958.17, 3591.33, 1373.24],
        "l40s-48gb": [9664.13, 5720.65, 3136.33, 4521.77, 4177.76, 1076.74, 2286.71, 1001.02, 337.83],
        "a100-sxm-80gb": [6982.53, 5630.62, 3591.22, 4400.48, 3896.58, 808.58, 2489.77, 844.64, 332.3]},
}


def oos_trt017():
    """The v0.17 maximum-load rows (Errs), each as the steady state trtllm-bench measures (as the main table)."""
    e = Errs()
    for (p, tp), by_gpu in TRT017.items():
        for g, vals in by_gpu.items():
            prec = "bf16" if g.startswith("a100") else "fp8"
            for (i, o), meas in zip(OOS_LENS, vals):
                if meas is None:
                    continue
                v = inf.max_throughput_per_gpu(M(p), get_gpu(g), prompt_tokens=i, output_tokens=o, precision=prec,
                                               tp=tp, engine="tensorrt-llm")
                v = 0.0 if v is None else v * tp
                e.add(v / meas - 1, f"TRT-LLM v0.17 max load {p} {g} {prec} TP{tp} {i}/{o}")
    return e


# (2) The same page and commit, "Online Serving Measurements": "All data in the table below was generated using version
# 0.14.0, with 500 requests and BF16 precision" (Triton tensorrtllm_backend, fixed lengths). At 2 requests/s with 16
# output tokens a request lasts ~0.1 s, so ~0.3 requests run at once: Mean TTFT is an idle replica's first token and
# Mean ITL a batch-1 decode step at ~475 tokens of context (the page rounds to whole ms: ±0.5 ms). At QPS INF the 500
# requests go at once: maximum load (output tok/s of the TP group), a run of 500 requests.
# (preset, gpu, tp, prompt, TTFT ms at QPS 2 with 16 out, ITL ms same, {output len: output tok/s at QPS INF})
TRT014 = [("llama-3.1-8b", "h100-sxm-80gb", 1, 467, 19, 7, {256: 9420, 16: 1269}),
          ("llama-3.1-8b", "h200-sxm-141gb", 1, 467, 18, 5, {256: 10121, 16: 1291}),
          ("llama-3.1-70b", "h100-sxm-80gb", 4, 467, 53, 18, {256: 4103, 16: 454}),
          ("llama-3.1-70b", "h200-sxm-141gb", 4, 467, 50, 15, {256: 4185, 16: 457})]
TRT014_SHORT = {("llama-3.1-8b", "h100-sxm-80gb"): 8291, ("llama-3.1-8b", "h200-sxm-141gb"): 9189,
                ("llama-3.1-70b", "h100-sxm-80gb"): 3459, ("llama-3.1-70b", "h200-sxm-141gb"): 3719}  # 202/214 at INF


def oos_trt014():
    """(TTFT, batch-1 ITL, max load of 500 requests) Errs of the v0.14 online-serving rows."""
    ettft, eitl, emax = Errs(), Errs(), Errs()
    for p, g, tp, i, ttft, itl, inf_rows in TRT014:
        f = inf.time_to_first_token_s(M(p), get_gpu(g), prompt_tokens=i, precision="bf16", tp=tp) * 1000
        ettft.add(f / ttft - 1, f"TRT-LLM v0.14 Triton TTFT {p} {g} TP{tp} {i}")
        v = 1000 / decode_tps(p, g, "bf16", tp, context=i + 8)
        eitl.add(v / itl - 1, f"TRT-LLM v0.14 Triton ITL {p} {g} TP{tp} {i}/16")
        for (o, meas) in list(inf_rows.items()) + [(214, TRT014_SHORT[(p, g)])]:
            pi = 202 if o == 214 else i
            r = inf.max_throughput_per_gpu(M(p), get_gpu(g), prompt_tokens=pi, output_tokens=o, precision="bf16",
                                           tp=tp, engine="tensorrt-llm", requests=500)
            r = 0.0 if r is None else r * tp
            emax.add(r / meas - 1, f"TRT-LLM v0.14 Triton 500 requests {p} {g} TP{tp} {pi}/{o}")
    return ettft, eitl, emax


# (3) llama.cpp at batch 1 on one card, F16 GGUF (XiongjieDai/GPU-Benchmarks-on-LLM-Inference README, commit
# aa72e0ec86c356c41f8281c9733e9a13c3675800, May 2024, Overview: "Average speed (tokens/s) of generating 1024 tokens",
# LLaMA 3 8B F16, -ngl all layers; llama-bench tg 1024 from an empty prompt: ~512 tokens of context on average).
# The 4090 row of the same table is in DECODE_B1 above (tg 512); the multi-card rows split layers (not TP): left out.
LCPP = [("rtx-a6000-48gb", 40.25), ("l40s-48gb", 43.42), ("a100-pcie-80gb", 54.56), ("a100-sxm-80gb", 53.18),
        ("h100-pcie-80gb", 67.79)]


def oos_lcpp():
    e = Errs()
    for g, meas in LCPP:
        v = decode_tps("llama-3-8b", g, "bf16", 1, context=512)
        e.add(v / meas - 1, f"llama.cpp F16 batch 1 llama-3-8b {g}")
    return e


def oos_report():
    """Per category: the out-of-sample rows alone, and pooled with the public table's."""
    t017 = oos_trt017()
    ttft, itl, m014 = oos_trt014()
    lcpp = oos_lcpp()
    parts = {"batch-1 decode": [itl, lcpp], "fixed batch": [], "max load": [t017, m014], "first token": [ttft],
             "KV capacity (catalog memory)": []}
    print("\nRound 6 out-of-sample rows (serve6), by category:")
    for name, ps in parts.items():
        rows = [x for part in ps for x in part]
        if rows:
            _report(f"  {name} (new only)", rows)
    _report("  max load, TRT-LLM v0.17 alone", t017)
    _report("  max load, TRT-LLM v0.14 500 requests alone", m014)
    _report("  batch-1, TRT-LLM v0.14 ITL alone", itl)
    _report("  batch-1, llama.cpp F16 alone", lcpp)
    new = [x for ps in parts.values() for part in ps for x in part]
    _report("  all new rows", new)
    print("Public table + round 6 rows, by category:")
    for name, ps in parts.items():
        _report(f"  {name}", CATEGORIES[name] + [x for part in ps for x in part])
    _report("  all serving rows", _all + new)
    for name, ps in parts.items():
        rows = sorted((r for part in ps for r in part.rows), key=lambda r: -abs(r[0]))
        if rows:
            print(f"  worst new {name}: " + "; ".join(f"{lab} {err:+.0%}" for err, lab in rows[:8]))
    return parts


OOS_PARTS = oos_report()


# ---------------------------------------------------------------------------------------------------------------
# Issue 35, round 7 (serve10): NEW KV-capacity rows, scored before any change (the public table held six).
# (a) vLLM 0.19.0 start-up logs of llm-d-incubation/llm-d-planner (accuracy/results/v0.19.0/logs/, commit
#     56dc5b7 of the accuracy sweep, Apr 2026): `vllm serve MODEL --max-model-len 8192 --gpu-memory-utilization 0.95
#     [-tp N]`, one H100 80GB HBM3 per rank (the log: "requested memory: 75.23GiB" = 0.95 × 79.19 GiB seen), chunked
#     prefill with max_num_batched_tokens 8192 and max_num_seqs 1024 ("Defaulting ... for OPENAI_API_SERVER"), CUDA
#     graphs on. Published figure: "Available KV cache memory: X GiB" (rank 0). Each model once (the sweep's
#     max_model_len and dtype=float16 repeats give the same pool). Qwen3-14B has no preset; Gemma-3, Granite, Phi,
#     Kimi, Llama 4 and gpt-oss neither. CodeLlama-7b is Llama 2 7B's shape (vocab 32,016 vs 32,000).
# (preset, gpu, weight precision, tp, engine, knob, CUDA total GiB in the log, published KV GiB, source)
_LLMD = "llm-d-planner vLLM 0.19.0 log"
KV_V019 = [
    ("llama-3.1-8b", "h100-sxm-80gb", "bf16", 1, "vllm", 0.95, 79.19, 58.11, f"{_LLMD}: Llama-3.1-8B-Instruct"),
    ("llama-3.1-8b", "h100-sxm-80gb", "bf16", 2, "vllm", 0.95, 79.19, 63.76, f"{_LLMD}: Llama-3.1-8B-Instruct TP2"),
    ("llama-3.1-8b", "h100-sxm-80gb", "bf16", 4, "vllm", 0.95, 79.19, 67.44, f"{_LLMD}: Llama-3.1-8B-Instruct TP4"),
    ("llama-3.1-8b", "h100-sxm-80gb", "int4", 1, "vllm", 0.95, 79.19, 67.71,
     f"{_LLMD}: RedHatAI Meta-Llama-3.1-8B-Instruct-quantized.w4a16 (GPTQ-Marlin)"),
    ("qwen2.5-7b", "h100-sxm-80gb", "bf16", 1, "vllm", 0.95, 79.19, 58.53, f"{_LLMD}: Qwen2.5-7B-Instruct"),
    ("qwen2.5-7b", "h100-sxm-80gb", "bf16", 2, "vllm", 0.95, 79.19, 63.84, f"{_LLMD}: Qwen2.5-7B-Instruct TP2"),
    ("qwen2.5-7b", "h100-sxm-80gb", "bf16", 4, "vllm", 0.95, 79.19, 67.34, f"{_LLMD}: Qwen2.5-7B-Instruct TP4"),
    ("qwen2.5-7b", "h100-sxm-80gb", "fp8", 1, "vllm", 0.95, 79.19, 64.64, f"{_LLMD}: RedHatAI Qwen2.5-7B-Instruct-FP8-dynamic"),
    ("qwen3-8b", "h100-sxm-80gb", "bf16", 1, "vllm", 0.95, 79.19, 57.50, f"{_LLMD}: Qwen3-8B"),
    ("qwen2.5-72b", "h100-sxm-80gb", "bf16", 2, "vllm", 0.95, 79.19, 3.04, f"{_LLMD}: Qwen2.5-72B-Instruct TP2"),
    ("llama-3.1-70b", "h100-sxm-80gb", "fp8", 2, "vllm", 0.95, 79.19, 37.28, f"{_LLMD}: RedHatAI Llama-3.3-70B-Instruct-FP8-dynamic TP2"),
    ("llama-3.1-70b", "h100-sxm-80gb", "fp8", 4, "vllm", 0.95, 79.19, 54.09, f"{_LLMD}: RedHatAI Llama-3.3-70B-Instruct-FP8-dynamic TP4"),
    ("llama-2-7b", "h100-sxm-80gb", "bf16", 1, "vllm", 0.95, 79.19, 61.66, f"{_LLMD}: CodeLlama-7b-hf"),
    ("gemma-2-9b", "h100-sxm-80gb", "bf16", 1, "vllm", 0.95, 79.19, 54.12, f"{_LLMD}: gemma-2-9b-it"),
    ("gemma-2-27b", "h100-sxm-80gb", "bf16", 1, "vllm", 0.95, 79.19, 20.59, f"{_LLMD}: gemma-2-27b-it"),
    ("qwen3-30b-a3b", "h100-sxm-80gb", "bf16", 1, "vllm", 0.95, 79.19, 15.41, f"{_LLMD}: Qwen3-30B-A3B"),
    ("qwen1.5-moe-a2.7b", "h100-sxm-80gb", "bf16", 1, "vllm", 0.95, 79.19, 45.83, f"{_LLMD}: Qwen1.5-MoE-A2.7B"),
    ("mixtral-8x7b", "h100-sxm-80gb", "bf16", 2, "vllm", 0.95, 79.19, 28.44, f"{_LLMD}: Mixtral-8x7B-Instruct-v0.1 TP2"),
    ("deepseek-v2-lite", "h100-sxm-80gb", "bf16", 1, "vllm", 0.95, 79.19, 43.61, f"{_LLMD}: DeepSeek-V2-Lite-Chat (MLA)"),
    # (b) a GeForce card: casys-kaist/LLMServingSim PR #59 (Aug 2026, "RTX 4090 profile bundle", the maintainer's
    # re-validation): vLLM resolved num_gpu_blocks 2588 × block_size 16 = 41,408 KV tokens for Llama-3.1-8B bf16 TP1 at
    # mem_util 0.9, max_num_seqs 256, max_num_batched_tokens 2048 (× 128 KiB a token = 5.05 GiB). The bundle's
    # profiler/perf/RTX4090/meta-llama/Llama-3.1-8B/bf16/meta.yaml says vllm_version 0.19.0 (ASSUMED the same for the
    # validation run); CUDA total ASSUMED 23.65 GiB (PyTorch's 23.64-23.69 GiB on a 4090).
    ("llama-3.1-8b", "rtx-4090-24gb", "bf16", 1, "vllm", 0.90, 23.65, 41408 * 131072 / 1024 ** 3,
     "LLMServingSim PR #59: 41,408 tokens"),
]


def kv_rows(rows, label="KV pool"):
    """Errs of the KV pool per GPU against each row's published GiB (the catalog's memory)."""
    e = Errs()
    for p, g, prec, tp, eng, frac, total, meas, src in rows:
        a = inf.kv_cache_bytes_per_gpu(M(p), get_gpu(g), precision=prec, tp=tp, engine=eng, utilization=frac) / inf.GIB
        e.add(a / meas - 1, f"{label} {p} {g} {prec} TP{tp} {eng} {frac:.2f}")
        print(f"| {p} | {g} | {prec.upper()} TP{tp} | {eng} {frac:.2f} | {meas:.2f} | {a:.2f} | {a / meas - 1:+.1%} | {src} |")
    return e


print("\nRound 7 (serve10) new KV-capacity rows (vLLM 0.19 logs, LLMServingSim 4090):")
KV_NEW = kv_rows(KV_V019, "KV pool (r7)")
_report("KV capacity, new rows (r7)", KV_NEW)
_report("KV capacity, public six + new rows", kv_cat + KV_NEW)
# The same sweep with --kv-cache-dtype fp8 (bf16 weights): "GPU KV cache size" in tokens, the pool unchanged (58.11 and
# 58.53 GiB) and each token half the bytes. Printed, not pooled (the pools are the rows above).
for p, tokens in (("llama-3.1-8b", 952032), ("qwen2.5-7b", 2192000)):
    pool = inf.kv_cache_bytes_per_gpu(M(p), get_gpu("h100-sxm-80gb"), precision="bf16", tp=1, utilization=0.95)
    got = pool / inf.kv_bytes_per_token_per_gpu(M(p), inf.KV_BYTES["fp8"], 1)
    print(f"  fp8 KV cache, {p} H100 TP1 0.95: {tokens:,} tokens published, {got:,.0f} modelled ({got / tokens - 1:+.1%})")


# ---------------------------------------------------------------------------------------------------------------
# Issue 35, round 7 (serve10): every scored row broken down by metric × engine × card class × dense/MoE. The engine,
# card and model come from the row's label (each table's label names them; the tables that do not name the card ran on
# one: gpt-fast and LMDeploy on A100-SXM 80GB, NIM on H100-SXM).
_ENGINE_OF = [("TRT-LLM", "TensorRT-LLM"), ("NIM", "TensorRT-LLM"), ("vLLM", "vLLM"), ("vllm", "vLLM"),
              ("sglang", "SGLang"), ("SGLang", "SGLang"), ("LMDeploy", "LMDeploy"), ("gpt-fast", "gpt-fast"),
              ("llama.cpp", "llama.cpp"), ("MLC", "MLC LLM")]
_GPU_DEFAULT = {"gpt-fast": "a100-sxm-80gb", "LMDeploy": "a100-sxm-80gb", "NIM": "h100-sxm-80gb"}
_MOE_WORDS = ("mixtral", "qwen3-235b", "deepseek", "moe", "qwen3-30b", "gpt-oss", "qwen1.5-moe")


def row_tags(label):
    """(engine, card class, dense/MoE) of a row's label."""
    eng = next((e for k, e in _ENGINE_OF if k in label), "other")
    gpu = next((w for w in label.split() if "-" in w and any(w.startswith(x) for x in
               ("a100", "h100", "h200", "l40", "rtx", "a10", "l4", "b200", "gb200", "a6000", "a800", "h800", "h20"))),
               None)
    if gpu is None:
        gpu = next((v for k, v in _GPU_DEFAULT.items() if k in label), "?")
    cls = ("GeForce" if gpu.startswith("rtx-") and "a6000" not in gpu and "rtx-6000" not in gpu else
           "GDDR pro" if gpu.startswith(("l40", "rtx-a6000", "rtx-6000", "a10-", "l4-", "l20")) else "HBM")
    moe = "MoE" if any(w in label.lower() for w in _MOE_WORDS) else "dense"
    return eng, cls, moe


def breakdown(parts_by_metric, title):
    """Median / p90 per metric and per engine, card class and dense/MoE (rows with their signed errors)."""
    print(f"\n{title}")
    for name, parts in parts_by_metric.items():
        rows = [r for part in parts for r in part.rows]
        if not rows:
            print(f"  {name}: no rows")
            continue
        _report(f"  {name}", [abs(e) for e, _ in rows])
        for k, axis in enumerate(("engine", "card", "model")):
            groups = {}
            for e, lab in rows:
                groups.setdefault(row_tags(lab)[k], []).append(e)
            for g, es in sorted(groups.items()):
                a = [abs(x) for x in es]
                print(f"      {axis} {g:<13} {len(es):>4} rows  median {statistics.median(a)*100:5.1f}%  "
                      f"p90 {p90(a)*100:5.1f}%  signed median {statistics.median(es)*100:+5.1f}%")


PUBLIC_PARTS = dict(_CAT_PARTS)
breakdown(PUBLIC_PARTS, "Round 7 (serve10): public rows by metric × engine / card class / dense-MoE")
breakdown(OOS_PARTS, "Round 7 (serve10): round 6 out-of-sample rows by metric × engine / card class / dense-MoE")
breakdown({"KV capacity (r7 new rows)": [KV_NEW]}, "Round 7 (serve10): new KV-capacity rows")
_r6_new = [x for ps in OOS_PARTS.values() for part in ps for x in part]
_report("\nAll serving rows: public + round 6 out-of-sample + round 7 KV rows", _all + _r6_new + KV_NEW)
_report("KV capacity: public six + round 7 rows", kv_cat + KV_NEW)

# Issue 35 round 7 (serve10), printed check, not pooled (kernel level, not an end-to-end run): a Llama-3.1-8B decoder
# layer's four linear layers on an RTX 4090 under vLLM 0.19.0's kernels, measured by casys-kaist/LLMServingSim's profiler
# (profiler/perf/RTX4090/meta-llama/Llama-3.1-8B/bf16/tp1/dense.csv, commit 856225a, Aug 2026: qkv_proj + o_proj +
# gate_up_proj + down_proj, µs at each token count), against the model's linear-layer time for the same rows: the
# longer of the weight stream and the FLOPs at gemm_efficiency, plus each GEMM's fixed kernel time.
RTX4090_LAYER_US = {1: 467.09, 16: 482.06, 64: 532.37, 256: 724.06, 512: 1387.11, 1024: 2722.99, 2048: 5406.91}


def rtx4090_layer_check():
    from gpuplanner.core.serving_facts import DECODE_KERNEL_S
    m, g = M("llama-3.1-8b"), get_gpu("rtx-4090-24gb")
    h, kvh, hd, ffn = m.hidden, 8, 128, m.ffn_size
    params = h * (h + 2 * kvh * hd) + h * h + 2 * h * ffn + ffn * h
    bw = g.mem_bw_tbs * 1e12 * inf.bandwidth_fraction(g, inf.ServingEfficiency())
    out = []
    for t, meas in RTX4090_LAYER_US.items():
        flops_s = 2 * params * t / (inf.peak_flops(g, "bf16") * inf.gemm_efficiency(m, g, "bf16", t, 1))
        model = (max(params * 2 / bw, flops_s) + 4 * DECODE_KERNEL_S) * 1e6
        out.append(f"{t}: {meas:.0f} µs measured, {model:.0f} modelled ({model / meas - 1:+.0%})")
    print("RTX 4090 decoder layer, four linear layers (vLLM 0.19 kernels, LLMServingSim profile): " + "; ".join(out))


rtx4090_layer_check()


# Issue 35 round 8 (smallm8), printed check, not pooled (kernel level): one H20's bf16 fused-MoE first GEMM (Mixtral
# 8x7B at TP 2: E=8 experts, N=14336, K=4096, top-2), the tuned column of vllm-project/vllm PR #44152 ("Performance
# comparison: default-fallback vs tuned configs (NVIDIA H20)", torch 2.5.1, triton 3.1.0, ms per call). Modelled with the
# decode rule: the reached experts' weights at the decode bandwidth share, the FLOPs at gemm_efficiency of each expert's
# rows, capped at the roofline's sum bound (weights + FLOPs on 16-row padded rows), plus one kernel's fixed time. "before"
# is the 128-row tile term alone with the H100's share (no H20 sweep factor).
H20_MOE_GEMM_MS = {1: 0.076, 32: 0.279, 128: 0.435, 512: 1.069, 2048: 3.606}


def h20_moe_gemm_check():
    import math
    from gpuplanner.core import timing as _t
    from gpuplanner.core.serving_facts import DECODE_KERNEL_S
    g, e, k, n, kk = get_gpu("h20-96gb"), 8, 2, 14336, 4096
    bw = g.mem_bw_tbs * 1e12 * inf.bandwidth_fraction(g, inf.ServingEfficiency())
    peak = inf.peak_flops(g, "bf16")
    share = _t.GEN_EFFICIENCY["hopper"] * _t.sustained_clock_factor(g, "bf16")
    out = []
    for tokens, meas in H20_MOE_GEMM_MS.items():
        reach = e * (1 - (1 - k / e) ** tokens)
        rows = tokens * k / reach
        t_read = reach * n * kk * 2 / bw
        flops = 2 * tokens * k * n * kk
        t_tile = flops / (peak * share / (1 + _t.T0 / rows))
        t_sum = t_read + 2 * reach * math.ceil(rows / inf.SMALL_M_TILE_ROWS - 1e-9) * inf.SMALL_M_TILE_ROWS * n * kk / (peak * share)
        before = (max(t_read, flops / (peak * _t.GEN_EFFICIENCY["hopper"] / (1 + _t.T0 / rows))) + DECODE_KERNEL_S) * 1e3
        model = (max(t_read, min(t_tile, t_sum)) + DECODE_KERNEL_S) * 1e3
        out.append(f"{tokens}: {meas:.3f} ms measured, {model:.3f} modelled ({model / meas - 1:+.0%}; "
                   f"before {before / meas - 1:+.0%})")
    print("H20 bf16 fused-MoE GEMM (vLLM PR #44152, tuned): " + "; ".join(out))


h20_moe_gemm_check()


# Issue 35 round 7 (geserve7): new GeForce serving rows, out of sample (not looked at while the mechanisms were built).
# (a) casys-kaist/LLMServingSim commit 5daddb2 (2026-08-21) bench/examples/RTX4090/Llama-3.1-8B/vllm/ (meta.json,
#     requests.jsonl): vLLM 0.19.0 on one RTX 4090, Llama-3.1-8B BF16, max_num_seqs 256, max_num_batched_tokens 2048,
#     gpu_memory_utilization 0.90, async scheduling, CUDA graphs; 300 ShareGPT requests sent at 10 req/s (the queue
#     stays full: KV cache at 96-100% from 4 s to 168 s, timeseries.csv), mean 857 in / 653 out. Output tokens ÷ the
#     time from the first request queued to the last token: 195,753 / 183.6 s = 1,066 tok/s. Scored as a maximum-load
#     run over the same 300 requests (inf.max_load_run with their own lengths; bench/data/geserve7_rtx4090_vllm019_requests.json).
import json as _json
import pathlib as _pl
_G7 = _json.loads((_pl.Path(__file__).resolve().parents[1] / "bench/data/geserve7_rtx4090_vllm019_requests.json").read_text())
GEFORCE_NEW = Errs()


def geforce_new_rows():
    meas = sum(_G7["outputs"]) / (_G7["last_token_s"] - _G7["first_queued_s"])
    run = inf.max_load_run(M("llama-3.1-8b"), get_gpu("rtx-4090-24gb"), prompts=[float(x) for x in _G7["prompts"]],
                           outputs=[float(x) for x in _G7["outputs"]], requests=len(_G7["prompts"]),
                           precision="bf16", tp=1, engine="vllm", utilization=0.90, max_batch=256,
                           loop=inf.ENGINE_LOOP["vllm"])
    v = run.output_tokens_per_s
    GEFORCE_NEW.add(v / meas - 1, "vLLM 0.19 max load llama-3.1-8b rtx-4090-24gb TP1 (LLMServingSim ShareGPT 300)")
    print(f"| llama-3.1-8b | rtx-4090-24gb | BF16 TP1 | vLLM 0.19 | 300 ShareGPT (857/653 mean) | {meas:,.0f} | "
          f"{v:,.0f} | {v / meas - 1:+.0%} | mean batch {run.mean_batch:.0f}, preemptions {run.preemptions:.0f} |")


# (b) Database Mart, "RTX4090 vLLM Benchmark: Best GPU for LLMs Below 8B on Hugging Face" (databasemart.com/blog/
#     vllm-gpu-benchmark-rtx4090, 2025): one RTX 4090, vLLM (version not stated), 16-bit weights, 300 requests of
#     100 input / 600 output tokens sent at once ("offline"), request/s per model. Output tok/s = req/s × 600. Models with
#     a preset of the same shape: DeepSeek-R1-Distill-Llama-8B (Llama-3.1-8B), -Qwen-7B (Qwen2.5-7B), -Qwen-1.5B
#     (Qwen2.5-1.5B). Left out: gemma-2-9b-it (0.68 req/s, 18.5 GB of weights leave ~1 GB of KV at their setting, not
#     stated), Qwen2.5-VL-7B (vision tower) and Qwen2.5-3B (no preset). The version is unstated: scored with the
#     current vLLM's defaults (max_num_seqs 256 on a 24 GB card), as a separate group.
DBM_4090 = [("llama-3.1-8b", 3.96), ("qwen2.5-7b", 5.96), ("qwen2.5-1.5b", 13.85)]
GEFORCE_DBM = Errs()


def geforce_dbm_rows():
    for p, rps in DBM_4090:
        meas = rps * 600
        run = inf.max_load_run(M(p), get_gpu("rtx-4090-24gb"), prompts=[100.0] * 300, outputs=[600.0] * 300, requests=300,
                               precision="bf16", tp=1, engine="vllm", utilization=0.90, loop=inf.ENGINE_LOOP["vllm"])
        v = run.output_tokens_per_s
        GEFORCE_DBM.add(v / meas - 1, f"vLLM (version unstated) max load {p} rtx-4090-24gb 100/600 x300 (Database Mart)")
        print(f"| {p} | rtx-4090-24gb | BF16 TP1 | vLLM (unstated) | 300 × 100/600 | {meas:,.0f} | {v:,.0f} | "
              f"{v / meas - 1:+.0%} | mean batch {run.mean_batch:.0f} |")


def geforce_section():
    print("\nRound 7 (geserve7): new GeForce rows (out of sample)")
    geforce_new_rows()
    geforce_dbm_rows()
    _report("GeForce new rows, LLMServingSim vLLM 0.19 (geserve7)", GEFORCE_NEW)
    _report("GeForce new rows, Database Mart vLLM (version unstated) (geserve7)", GEFORCE_DBM)
    _report("GeForce new rows, all (geserve7)", GEFORCE_NEW + GEFORCE_DBM)
    _report("All serving rows with the geserve7 GeForce rows", _all + _r6_new + KV_NEW + GEFORCE_NEW + GEFORCE_DBM)


geforce_section()


# Round 7 (sglmem7): each engine's own default memory fraction when the plan sets none (inf.engine_default_fraction).
# Every scored row above states its fraction (SGLang 0.88 and 0.93, vLLM 0.90/0.95, TensorRT-LLM 0.90), so none of
# them moves; this prints what a plan without the field now gets. Published check: SGLang's own docs build (the
# rendered "Offline Engine API" notebook, sgl-project docs, 2026-02-05) prints ServerArgs(... mem_fraction_static=0.835,
# chunked_prefill_size=8192, tp_size=1, cuda_graph_bs up to 256 ...) on an 80 GB card (CUDA graphs captured at 76.8 GB
# free): the default the rule gives with nvidia-smi's 81,559 MiB; 0.834 from the 79.22 GiB CUDA reports.
SGLANG_DEFAULT_LOGS = [("h100-sxm-80gb", 1, 0.835, "SGLang docs 'Offline Engine API' build 2026-02-05, tp_size=1")]


def engine_default_section():
    print("\nRound 7 (sglmem7): each engine's default memory fraction (None in the plan)")
    print("| card | TP | SGLang mem_fraction_static | vLLM | TensorRT-LLM (of free) |")
    print("|---|---|---|---|---|")
    for g in ("rtx-4090-24gb", "l40s-48gb", "a100-sxm-40gb", "h100-sxm-80gb", "h200-sxm-141gb"):
        for tp in (1, 4):
            f = [inf.engine_default_fraction(e, get_gpu(g), tp) for e in ("sglang", "vllm", "tensorrt-llm")]
            print(f"| {g} | {tp} | {f[0]:.3f} | {f[1]:.2f} | {f[2]:.2f} |")
    for g, tp, logged, src in SGLANG_DEFAULT_LOGS:
        v = inf.engine_default_fraction("sglang", get_gpu(g), tp)
        print(f"  check: {g} TP{tp} default {v:.3f} against the log's {logged:.3f} ({v - logged:+.3f}; {src})")
    print("| model | card | TP | SGLang KV pool at 0.90 (before) | at its default (after) | change |")
    print("|---|---|---|---|---|---|")
    for p, g, tp in (("llama-3.1-8b", "h100-sxm-80gb", 1), ("llama-3.1-70b", "h100-sxm-80gb", 4),
                     ("llama-3.1-8b", "rtx-4090-24gb", 1), ("qwen2.5-32b", "l40s-48gb", 2)):
        b = inf.kv_cache_bytes_per_gpu(M(p), get_gpu(g), precision="bf16", tp=tp, engine="sglang", utilization=0.90)
        a = inf.kv_cache_bytes_per_gpu(M(p), get_gpu(g), precision="bf16", tp=tp, engine="sglang", utilization=None)
        print(f"| {p} | {g} | {tp} | {b / inf.GIB:.2f} GiB | {a / inf.GIB:.2f} GiB | {a / b - 1:+.0%} |")


engine_default_section()


# ---------------------------------------------------------------------------------------------------------------
# Issue 35, round 8 (serveoos8): NEW out-of-sample rows, MoE and FP8 at maximum load, entered as a user would and
# scored before any change. None of them is in a table above (the v0.17 Mixtral rows were left out by serve6; the
# v1.0 page's Qwen3 rows were never entered).
# (a) TensorRT-LLM perf-overview at v0.17 (NVIDIA/TensorRT-LLM docs/source/performance/perf-overview.md, commit
#     258c7540c03517def55d9a5aadfa9288af474e1b), the Mixtral 8x7B and 8x22B rows: trtllm-bench throughput, fixed
#     lengths, FP8 weights and KV (H200, H100, L40S), FP16 (A100-SXM4-80GB), total output tok/s of the TP group; engines
#     built with --tp_size only (experts split by TP, the v0.17 default moe_tp = tp). Same OOS_LENS as TRT017.
TRT017_MOE = {
    ("mixtral-8x7b", 1): {
        "h200-sxm-141gb": [17157.72, 15095.21, 9534.62, 12105.27, 10371.36, 2009.67, 6940.32, 2309.1, 1151.78],
        "h100-sxm-80gb": [15962.49, 8290.13, 4784.86, 6800.6, 6868.52, 1892.81, 3983.1, 1764.7, 673.7]},
    ("mixtral-8x7b", 2): {
        "h200-sxm-141gb": [27825.34, 29584.05, 21564.68, 23410.63, 19151.19, 3383.16, 14007.29, 4223.68, 2299.21],
        "h100-sxm-80gb": [27451.13, 22830.08, 14237.01, 17036.04, 15770.89, 3333.68, 10685.85, 3646.09, 1757.45],
        "a100-sxm-80gb": [5541.47, 4169.78, 2608.05, 3446.37, 3154.52, 649, 2056.58, 724.44, 337.51]},
    ("mixtral-8x7b", 4): {
        "h200-sxm-141gb": [42551.59, 52291.78, 39513.73, 43818.99, 33580.9, 5467.62, 24980.93, 7084.94, 4236.84],
        "h100-sxm-80gb": [41068.23, 41164.73, 27912.48, 34489.34, 27784.74, 5234.98, 19432.08, 6401.56, 3303.83],
        "l40s-48gb": [6921.87, 7996.93, 5736.09, 6914.68, 5251.49, 827.62, 3935.32, 1092.88, 682.48],
        "a100-sxm-80gb": [10324.28, 10911.86, 7666.51, 8456.21, 7122.84, 1237.62, 5222.98, 1500.55, 829.59]},
    ("mixtral-8x7b", 8): {
        "h200-sxm-141gb": [53212.55, 68608.45, 54827.78, 58706.39, 44705.48, 7554.38, 36193.64, 10271.8, 6835.53],
        "h100-sxm-80gb": [50849.55, 61607.7, 48280.37, 52583.65, 40631.71, 6988.18, 30983.35, 9210.11, 5602.43],
        "l40s-48gb": [6740.84, 10393.3, 8472.35, 8660.71, 5947.72, 811.96, 5136.98, 1153.76, 918.95],
        "a100-sxm-80gb": [17043.54, 20277.88, 15282.89, 17184.24, 12851.44, 2165.52, 9809.76, 2761.28, 1592.53]},
    ("mixtral-8x22b", 8): {
        "h200-sxm-141gb": [22948.57, 32415.81, 25753.14, 27429.6, 19712.35, 2899.84, 15798.59, 4031.79, 2815.76],
        "h100-sxm-80gb": [21876.08, 25150.03, 18387.4, 21421.86, 16573.24, 2794.97, 12244.93, 3645.27, 2227.63],
        "a100-sxm-80gb": [6381.95, 6685.99, 4789.13, 5648.46, 4549.46, 761.56, 3521.98, 959.14, 575.02]},
}
# (b) The same page at v1.0 (commit 00f37686aa854010d68bcbd0f4ab000221541ca6, the commit of the first table above),
#     Qwen3-235B-A22B FP8 (nvidia/Qwen3-235B-A22B-FP8), TP8 on H200 and H100: PyTorch backend, "For MoE models"
#     llm_options enable_attention_dp (the EP size is not printed: ASSUMED experts split over the 8 GPUs as the
#     planner's TP does). Lengths as the first table's rows_isl; None where the page has no figure.
TRT10_QWEN3 = {
    ("qwen3-235b-a22b", 8): {
        "h200-sxm-141gb": [30429, 42821, 26852, 28026, 23789, 22061, 3331, 16672, 3623, 1876],
        "h100-sxm-80gb": [None, 19658, 12447, 18351, 14898, 15136, None, 9924, 3225, None]},
}


def oos8_moe_rows():
    """(v0.17 Mixtral Errs, v1.0 Qwen3 Errs): each row the steady state trtllm-bench measures, as the TRT017 rows."""
    out = []
    for table, lens, ver in ((TRT017_MOE, OOS_LENS, "v0.17"), (TRT10_QWEN3, rows_isl, "v1.0")):
        e = Errs()
        for (p, tp), by_gpu in table.items():
            for g, vals in by_gpu.items():
                prec = "bf16" if g.startswith("a100") else "fp8"
                for (i, o), meas in zip(lens, vals):
                    if meas is None:
                        continue
                    v = inf.max_throughput_per_gpu(M(p), get_gpu(g), prompt_tokens=i, output_tokens=o,
                                                   precision=prec, tp=tp, engine="tensorrt-llm")
                    v = 0.0 if v is None else v * tp
                    e.add(v / meas - 1, f"TRT-LLM {ver} max load {p} {g} {prec} TP{tp} {i}/{o}")
        out.append(e)
    return out

# (c) Fixed batch, TensorRT-LLM v0.9.0 "Peak Throughput" tables (NVIDIA/TensorRT-LLM docs/source/performance/
#     perf-overview.md as of v0.9.0, the page whose "Low Latency" rows are TTFT_V09 above; "All data was generated using
#     version 0.9.0"; gptSessionBenchmark static batches at the stated batch size; out tok/s per GPU; FP8 weights and KV on
#     H200/H100/L40S, FP16 on A100). Scored with kv_passes 1 (a grouped-query decode kernel) for every model, though the
#     page says its GQA (XQA) kernels are "currently experimental and not enabled by default" and exports
#     TRTLLM_ENABLE_XQA=1 only in its Llama-2-70B and Falcon-180B commands; Mistral 7B and Mixtral have no command on the
#     page. Issue 35 round 14 (serve14): one KV pass per query head for Mistral fits H200 (modelled / published - 1:
#     -8...+13%) but not H100 (-30...-5%), A100 (-51...-21%) or L40S (-59...-26%): left at 1
#     (bench/validate_serve_serve14.py prints both). GPT-J 6B and Falcon 180B have no preset. LLaMA 7B / 70B are Llama 2's. (preset, gpu, tp, batch, prompt, output, tok/s/GPU)
V09_LENS = [(128, 128), (128, 2048), (2048, 128), (2048, 2048)]
V09_THR = {
    "h200-sxm-141gb": [("mistral-7b-v0.1", 1, (896, 120, 64, 56), (20460, 8950, 2423, 3867)),
                       ("mixtral-8x7b", 2, (1024, 256, 64, 64), (5444, 4973, 605, 1821)),
                       ("llama-2-7b", 1, (896, 120, 64, 56), (20618, 8348, 2391, 3522)),
                       ("llama-2-70b", (1, 2, 1, 1), (1024, 512, 64, 64), (3989, 3963, 418, 1458))],
    "h100-sxm-80gb": [("mistral-7b-v0.1", 1, (896, 120, 84, 56), (20404, 8623, 2405, 3731)),
                      ("mixtral-8x7b", 2, (512, 128, 64, 32), (5255, 3408, 588, 1317)),
                      ("llama-2-7b", 1, (896, 120, 84, 56), (19854, 6944, 2163, 2826)),
                      ("llama-2-70b", (2, 4, 2, 2), (1024, 512, 96, 64), (3214, 2725, 346, 1011))],
    "l40s-48gb": [("mistral-7b-v0.1", 1, (896, 120, 84, 56), (9562, 4387, 971, 1721)),
                  ("mixtral-8x7b", 4, (256, 256, 64, 32), (1266, 1490, 155, 412)),
                  ("llama-2-7b", 1, (256, 64, 32, 16), (5885, 1654, 574, 537)),
                  ("llama-2-70b", (2, 4, 2, 4), (256, 256, 16, 64), (562, 478, 49, 185))],
    "a100-sxm-80gb": [("mistral-7b-v0.1", 1, (896, 120, 64, 56), (6251, 3776, 698, 1576)),
                      ("mixtral-8x7b", 2, (512, 128, 64, 32), (2842, 1724, 319, 801)),
                      ("llama-2-7b", 1, (256, 32, 32, 16), (5390, 1484, 533, 603)),
                      ("llama-2-70b", (4, 8, 4, 4), (1024, 512, 96, 64), (686, 684, 80, 289))],
}
# (d) TensorRT-LLM blogs with the batch stated, static batches, out tok/s per GPU, FP8 on H200:
#     docs/source/blogs/H200launch.md (commit 1555478c1b417a0b34de05209862ea5a2ab9add1, "TensorRT-LLM v0.5.0", before
#     the grouped-query kernel: Llama 2 70B streams each KV head once per query head group, kv_passes 8, as the v0.6.1
#     rows) and docs/source/blogs/Falcon180B-H200.md (commit 3c44cb974badec8966108b16054a99c0923e410d, "TensorRT-LLM v0.7a",
#     "improved its Group Query Attention (GQA) kernels": kv_passes 1; its 8-GPU rows are a "max TP/PP/DP config", left
#     out; its 128/2048 row is the XQA blog's 2,941 above, left out). (preset, tp, batch, prompt, output, tok/s/GPU,
#     grouped-query kernel, source)
BLOG_FIXED = [("llama-2-13b", 1, 1024, 128, 128, 11819, True, "H200launch v0.5"),
              ("llama-2-13b", 1, 128, 128, 2048, 4750, True, "H200launch v0.5"),
              ("llama-2-13b", 1, 64, 2048, 128, 1349, True, "H200launch v0.5"),
              ("llama-2-70b", 1, 512, 128, 128, 3014, False, "H200launch v0.5"),
              ("llama-2-70b", 2, 512, 128, 2048, 1654, False, "H200launch v0.5"),
              ("llama-2-70b", 1, 64, 2048, 128, 341, False, "H200launch v0.5"),
              ("llama-2-70b", 1, 32, 2048, 128, 303, False, "H200launch v0.5"),
              ("llama-2-70b", 1, 960, 128, 128, 3803, True, "Falcon180B-H200 v0.7a"),
              ("llama-2-70b", 1, 96, 128, 4096, 1946, True, "Falcon180B-H200 v0.7a")]


def oos8_fixed_rows():
    """(v0.9 peak-throughput Errs, blog Errs): static batches at the stated batch (as the v0.6.1 rows)."""
    e09, eblog = Errs(), Errs()
    for g, models in V09_THR.items():
        prec = "bf16" if g.startswith("a100") else "fp8"
        for p, tps, batches, vals in models:
            tps = tps if isinstance(tps, tuple) else (tps,) * 4
            for (i, o), tp, b, meas in zip(V09_LENS, tps, batches, vals):
                v = inf.static_batch_tokens_per_s_per_gpu(M(p), get_gpu(g), batch=b, prompt_tokens=i, output_tokens=o,
                                                          precision=prec, tp=tp)
                e09.add(v / meas - 1, f"TRT-LLM v0.9 fixed batch {p} {g} {prec} TP{tp} b{b} {i}/{o}")
    for p, tp, b, i, o, meas, grouped, src in BLOG_FIXED:
        v = inf.static_batch_tokens_per_s_per_gpu(M(p), get_gpu("h200-sxm-141gb"), batch=b, prompt_tokens=i,
                                                  output_tokens=o, precision="fp8", tp=tp,
                                                  kv_passes=inf.attention_kv_passes(M(p), grouped_kernel=grouped))
        eblog.add(v / meas - 1, f"TRT-LLM {src} fixed batch {p} h200-sxm-141gb fp8 TP{tp} b{b} {i}/{o}")
    return e09, eblog


def oos8_section():
    """Print the round 8 rows by metric × engine / card class, then per model × card × TP (signed median)."""
    mix, qwen = oos8_moe_rows()
    e09, eblog = oos8_fixed_rows()
    parts = {"fixed batch": [e09, eblog], "max load": [mix, qwen]}
    breakdown(parts, "Round 8 (serveoos8): new out-of-sample rows (MoE, FP8/FP16, TensorRT-LLM)")
    _report("  TRT-LLM v0.17 Mixtral max load", mix)
    _report("  TRT-LLM v1.0 Qwen3-235B-A22B max load", qwen)
    _report("  TRT-LLM v0.9 fixed batch (peak-throughput tables)", e09)
    _report("  TRT-LLM v0.5 / v0.7a blogs, fixed batch on H200", eblog)
    for lab_err in sorted(e09.rows + eblog.rows, key=lambda r: r[1]):
        print(f"    {lab_err[1]:<80} {lab_err[0] * 100:+5.0f}%")
    groups = {}
    for e, lab in mix.rows + qwen.rows:
        w = lab.split()
        groups.setdefault(" ".join(w[4:8]), []).append(e)
    for k, es in groups.items():
        print(f"    {k:<45} signed median {statistics.median(es) * 100:+6.1f}%  max |err| "
              f"{max(abs(x) for x in es) * 100:5.1f}%  " + " ".join(f"{x * 100:+.0f}" for x in es))
    return parts


OOS8_PARTS = oos8_section()
_r8_new = [x for ps in OOS8_PARTS.values() for part in ps for x in part]
_report("All serving rows with the round 8 rows", _all + _r6_new + KV_NEW + GEFORCE_NEW + GEFORCE_DBM + _r8_new)
