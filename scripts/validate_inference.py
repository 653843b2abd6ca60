"""Prints the table of docs/validation_inference.md: TensorRT-LLM perf-overview throughput (NVIDIA/TensorRT-LLM
commit 00f3768, docs/source/performance/perf-overview.md) against core/inference.max_throughput_per_gpu."""
from gpuplanner.core.scenario import Scenario
from gpuplanner.core.estimate import resolve
from gpuplanner.core.catalog_hw import get_gpu
from gpuplanner.core import inference as inf
import statistics


def p90(xs):
    """The 90th percentile of |error| (nearest rank, as the bench scripts report it)."""
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.9 * (len(xs) - 1))))]


rows_isl=[(128,128),(128,2048),(128,4096),(500,2000),(1000,1000),(1000,2000),(2048,128),(2048,2048),(5000,500),(20000,2000)]
tables={
 ("llama-3.1-8b","h200-sxm-141gb",1):[27911,26221,18027,20770,17744,16828,3538,12194,3902,1804],
 ("llama-3.1-8b","h100-sxm-80gb",1):[28312,22714,14325,17660,15220,13899,3450,9305,3459,1351],
 ("llama-3.1-70b","h200-sxm-141gb",1):[3803,4336,2872,3666,2909,2994,442,2003,566,283],
 ("llama-3.1-70b","h100-sxm-80gb",2):[6378,6651,4199,5222,4205,4146,762,3082,898,437],
}
allerr=[]
out=[]
for (preset,gpu,tp),vals in tables.items():
    r=resolve(Scenario.model_validate({'model':{'preset':preset}}))
    m=inf.ServingModel.of(r.arch,r.params); g=get_gpu(gpu)
    errs=[]
    for (isl,osl),meas in zip(rows_isl,vals):
        per=inf.max_throughput_per_gpu(m,g,prompt_tokens=isl,output_tokens=osl,precision='fp8',tp=tp,engine='tensorrt-llm')
        pred=per*tp
        e=pred/meas-1; errs.append(abs(e)); allerr.append(abs(e))
        out.append(f"| {preset} | {gpu} | TP{tp} FP8 | {isl}/{osl} | {meas:,} | {pred:,.0f} | {e*100:+.0f}% |")
    out.append(f"| | | | **median \\|error\\|** | | | **{statistics.median(errs)*100:.0f}%** |")
print("\n".join(out))
out = []
# Llama 3.1 405B FP8, TP8, same page and commit: not looked at while the mechanisms were built (issue 35, round 3)
t405 = {("llama-3.1-405b", "h200-sxm-141gb", 8): [3814, 5348, 4741, 4724, 3330, 3722, 456, 2948, 650, 505],
        ("llama-3.1-405b", "h100-sxm-80gb", 8): [3627, 4340, 3116, 3994, 2919, 2895, 453, 2296, 610, 345]}
err405 = []
for (preset, gpu, tp), vals in t405.items():
    r = resolve(Scenario.model_validate({'model': {'preset': preset}}))
    m = inf.ServingModel.of(r.arch, r.params); g = get_gpu(gpu)
    for (isl, osl), meas in zip(rows_isl, vals):
        pred = inf.max_throughput_per_gpu(m, g, prompt_tokens=isl, output_tokens=osl, precision='fp8', tp=tp,
                                          engine='tensorrt-llm') * tp
        err405.append(abs(pred / meas - 1))
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
errs=[]
for p,g,prec,b,tp,i,o,meas in rows:
    v=inf.static_batch_tokens_per_s_per_gpu(M(p),get_gpu(g),batch=b,prompt_tokens=i,output_tokens=o,precision=prec,tp=tp)
    e=v/meas-1; errs.append(abs(e)); print(f"| {p} | {g} | {prec.upper()} TP{tp} | {b} | {i}/{o} | {meas:,} | {v:,.0f} | {e*100:+.0f}% |")
print(f"static batch: {len(errs)} rows, median {statistics.median(errs)*100:.1f}%, p90 {p90(errs)*100:.1f}%")
lat=[("llama-2-7b","h100-sxm-80gb","fp8",1,128,7),("llama-2-7b","h100-sxm-80gb","fp8",1,2048,36),("llama-2-70b","h100-sxm-80gb","fp8",4,128,26),("llama-2-70b","h100-sxm-80gb","fp8",4,2048,109),
("llama-2-7b","a100-sxm-80gb","bf16",1,128,16),("llama-2-7b","a100-sxm-80gb","bf16",1,2048,133),("llama-2-70b","a100-sxm-80gb","bf16",4,128,47),("llama-2-70b","a100-sxm-80gb","bf16",4,2048,377)]
e2=[]
for p,g,prec,tp,i,meas in lat:
    v=inf.time_to_first_token_s(M(p),get_gpu(g),prompt_tokens=i,precision=prec,tp=tp)*1000
    e=v/meas-1; e2.append(abs(e)); print(f"| {p} | {g} | {prec.upper()} TP{tp} | 1 | {i} | {meas} | {v:.0f} | {e*100:+.0f}% |")
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
]
kv_cat, kv_log = [], []
for p, g, prec, tp, eng, frac, total, meas, src in KV_ROWS:
    gpu = get_gpu(g)
    a = inf.kv_cache_bytes_per_gpu(M(p), gpu, precision=prec, tp=tp, engine=eng, utilization=frac) / inf.GIB
    # the log's CUDA total as what the engine sees (undo the ECC share the card's id would apply)
    seen = total * gpu.memory_gib * inf.GIB / inf.visible_memory_bytes(gpu)
    alt = gpu.model_copy(update={"memory_gib": seen}) if hasattr(gpu, "model_copy") else \
        __import__("dataclasses").replace(gpu, memory_gib=seen)
    b = inf.kv_cache_bytes_per_gpu(M(p), alt, precision=prec, tp=tp, engine=eng, utilization=frac) / inf.GIB
    kv_cat.append(abs(a / meas - 1)); kv_log.append(abs(b / meas - 1))
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
e9, e9moe = [], []
for p, g, prec, tp, i, meas in TTFT_V09:
    v = inf.time_to_first_token_s(M(p), get_gpu(g), prompt_tokens=i, precision=prec, tp=tp) * 1000
    # Mixtral apart: the v0.9 engines were built from a config file alone (random weights, so the router's choices
    # are not a real prompt's), and its grouped-GEMM prefill is a kernel the dense model does not describe
    (e9moe if p.startswith("mixtral") else e9).append(abs(v / meas - 1))
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
eb1 = []
for p, g, prec, tp, meas, src in DECODE_B1:
    t, _ = inf.decode_step_s(M(p), get_gpu(g), precision=prec, kv_bytes=inf.KV_BYTES["bf16"], batch=1, context=256,
                             tp=tp, eff=inf.ServingEfficiency())
    eb1.append(abs(1 / t / meas - 1))
    print(f"| {p} | {g} | {prec.upper()} TP{tp} | {src} | {meas:.1f} | {1 / t:.1f} | {1 / t / meas - 1:+.0%} |")
print(f"batch-1 decode: {len(eb1)} rows, median {statistics.median(eb1)*100:.1f}%, p90 {p90(eb1)*100:.1f}%")
