"""Issue 35, round 10 (serve10): NEW out-of-sample serving rows from engines' own start-up logs and one SGLang
bench_latency run, entered as a user would enter them (model preset, card, precision, TP, engine, memory knob) and
scored with the current model. None of these sources is used by scripts/validate_inference.py,
bench/validate_serve_oos9.py or bench/ (grepped for each: "send_request", "444500", "442750", "1256440", "12569",
"hotaisle", "Grok", "903439").

Sources (the figure is the engine's own log line; "GB" in SGLang's logs is GiB: ``get_available_gpu_memory`` divides
by ``1 << 30``)
-------
(S1) SGLang docs, "Quick Start: Sending Requests" (docs.sglang.ai/start/send_request.html, notebook output of the
     2025-01-23 build, a clipping in a public notes repository): ``python -m sglang.launch_server --model-path
     meta-llama/Meta-Llama-3.1-8B-Instruct``, server_args mem_fraction_static=0.88, tp_size=1, bf16. "Load weight
     begin. avail mem=78.81 GB", "Load weight end ... avail mem=63.72 GB", "KV Cache is allocated. K size: 27.13 GB,
     V size: 27.13 GB", max_total_num_tokens=444500. Card not named: ASSUMED H100 SXM 80GB (78.81 GiB free after the
     CUDA context: an 80 GB card; the docs CI runs on H100s).
(S2) sgl-project/sglang PR "add more unit tests and integration test for Flash Attention 3" (2025-03-25, the
     author's test log, Meta-Llama-3.1-8B-Instruct, TP0 only): "Load weight end ... avail mem=63.48 GB, mem
     usage=15.11 GB", "KV Cache is allocated. #tokens: 442750, K size: 27.02 GB, V size: 27.02 GB". ASSUMED H100 SXM
     80GB (FA3 is Hopper-only; 78.59 GiB free before loading) and the default fraction 0.88 (SGLang 0.4.4, TP 1;
     the log's own figures give 0.880).
(S3) hotaisle MI300X notes (2024-10-10), ``python -m sglang.bench_latency --model-path
     meta-llama/Meta-Llama-3-8B-Instruct --batch 32 --input-len 256 --output-len 32`` on one MI300X (SGLang 0.3,
     ROCm, Triton attention): "Load weight begin. avail mem=191.33 GB", "Load weight end ... avail mem=176.33 GB",
     max_total_num_tokens=1256440 (× 128 KiB = 153.38 GiB); mem_fraction_static the default 0.88 (TP 1; the log's
     figures give 0.880). The same run's "Benchmark" pass: decode median latency 9.73 ms at batch 32 (a fixed batch
     of 32 requests, context 256-288), prefill 0.25074 s for 32 × 256 tokens.
(S4) Grok-2 on 8 × H100 80GB HBM3, TP 8, SGLang 0.5 (2025-09-11, a public deployment log): "Init torch distributed
     ends. mem usage=1.25 GB", "Load weight begin. avail mem=77.43 GB". No preset: used only for the size of
     SGLang's start-up memory (the mechanism below), not scored.
(S5) sgl-project/sglang PR #11716 (2025-10-16, "try to support sgl-kernel in piecewise-cuda-graph", the author's log):
     30 safetensors shards and 40,960 bytes of KV a token a rank (80 layers × 1 KV head × 128 × K,V × bf16): Llama-3.1-70B
     (Instruct) in BF16 on eight H200, TP 8; "Init torch distributed ends. mem usage=2.01 GB", "Load weight begin. avail
     mem=137.29 GB", "KV Cache is allocated. #tokens: 2795207, K size: 53.31 GB, V size: 53.31 GB", CUDA graphs up to
     batch 512. mem_fraction_static not printed in the excerpt: ASSUMED SGLang's own default (0.896 for a 141 GB card
     at TP 8, which the log's figures reproduce: (106.62 + 16.4) / 137.29 = 0.896).
(V1) vllm-project/vllm PR #12569 (2025-01-30, V1's "Maximum concurrency" log): ``VLLM_USE_V1=1 vllm serve
     neuralmagic/Meta-Llama-3.1-70B-Instruct-quantized.w8a8 --max-model-len 2048 --gpu-memory-utilization 0.98``:
     "Loading model weights took 67.7229 GB", "# GPU blocks: 1381" (block 16: 22,096 tokens × 320 KiB = 6.74 GiB).
     Card ASSUMED one H100 SXM 80GB (the author's; W8A8 INT8 runs there); scheduler budget ASSUMED the server's
     defaults.
(V2) vllm-project/vllm PR #18566 (2025-05-22, "Support datasets in `vllm bench serve`", the author's run): ``vllm serve
     meta-llama/Llama-3.1-8B-Instruct --disable-log-requests`` (V1, every default: util 0.90, 8,192 tokens / 1,024
     sequences a step on an 80 GB card), ``vllm bench serve ... --dataset-name hf --dataset-path
     Aeala/ShareGPT_Vicuna_unfiltered`` (1,000 prompts at once, request rate inf): 229,711 input and 203,068 generated
     tokens in 30.85 s, output 6,582.87 tok/s. -> MAXIMUM LOAD. Card ASSUMED one H100 SXM 80GB (not named). Lengths:
     the means 229.7 / 203.1 with ShareGPT's spread (inf.request_mix "sharegpt", as the public ShareGPT rows);
     ASSUMED the chat template's ~30 tokens are not in the client's count (left out). V1 of May 2025 ran its scheduler
     and the model one after the other (async scheduling came later, opt-in): loop "serial", as the vLLM perf-benchmark
     rows.
Looked at, not entered: SGLang QwQ-32B on 4 × L4 (the L4 is not in the catalog; its log sizes SGLang's start-up memory
on PCIe: 21.63 GiB free of 22.49 before loading); SGLang Llama-3.1-8B on a 24 GB card under Docker Desktop (card not
named); LMCache #1739 (Qwen3-14B: no preset, card not named); vLLM #10517 (RTX 3090); club-3090 logs (RTX 3090,
hybrid models).
"""
from __future__ import annotations

import statistics
import sys

from gpuplanner.core import inference as inf
from gpuplanner.core.catalog_hw import get_gpu
from gpuplanner.core.estimate import resolve
from gpuplanner.core.scenario import Scenario

GIB = 1024.0 ** 3
KV_TOKEN_LLAMA3_8B = 32 * 8 * 128 * 2 * 2  # bytes a token: layers × kv heads × head dim × K,V × bf16
# (label, preset, card, weight precision, tp, engine, memory knob, published KV GiB per GPU, source)
KV_ROWS = [
    ("S1", "llama-3.1-8b", "h100-sxm-80gb", "bf16", 1, "sglang", 0.88, 2 * 27.13,
     "SGLang docs send_request (build 2025-01-23): 444,500 tokens"),
    ("S2", "llama-3.1-8b", "h100-sxm-80gb", "bf16", 1, "sglang", 0.88, 2 * 27.02,
     "sglang FA3 test PR (2025-03-25): 442,750 tokens"),
    ("S3", "llama-3-8b", "mi300x-192gb", "bf16", 1, "sglang", 0.88, 1256440 * KV_TOKEN_LLAMA3_8B / GIB,
     "hotaisle MI300X notes, SGLang 0.3 bench_latency: 1,256,440 tokens"),
    ("S5", "llama-3.1-70b", "h200-sxm-141gb", "bf16", 8, "sglang", None, 2 * 53.31,
     "sglang PR #11716 (2025-10-16): 2,795,207 tokens a rank"),
    ("V1", "llama-3.1-70b", "h100-sxm-80gb", "int8", 1, "vllm", 0.98, 1381 * 16 * 80 * 8 * 128 * 2 * 2 / GIB,
     "vLLM PR #12569 (V1, Jan 2025): 1,381 blocks of 16"),
]
# (label, preset, card, batch, prompt, output, published decode step ms, published prefill s of the batch)
FIXED_ROWS = [("S3", "llama-3-8b", "mi300x-192gb", 32, 256, 32, 9.73, 0.25074)]


# (label, preset, card, tp, requests, prompt mean, output mean, loop, published output tok/s)
LOAD_ROWS = [("V2", "llama-3.1-8b", "h100-sxm-80gb", 1, 1000, 229.711, 203.068, "serial", 6582.87)]


def model(preset):
    r = resolve(Scenario.model_validate({"model": {"preset": preset}}))
    return inf.ServingModel.of(r.arch, r.params)


def kv_table():
    """|error| of each KV row and its line."""
    errs, lines = [], []
    for label, p, g, prec, tp, eng, frac, meas, src in KV_ROWS:
        got = inf.kv_cache_bytes_per_gpu(model(p), get_gpu(g), precision=prec, tp=tp, engine=eng,
                                         utilization=frac) / GIB
        e = got / meas - 1
        knob = "default" if frac is None else f"{frac:.2f}"
        errs.append((abs(e), e, f"{label} {p} {g} {prec} TP{tp} {eng} {knob}"))
        lines.append(f"| {label} | {p} | {g} | {prec.upper()} TP{tp} | {eng} {knob} | {meas:.2f} | {got:.2f} | "
                     f"{e:+.1%} | {src} |")
    return errs, lines


def fixed_table():
    """The MI300X fixed batch: decode step and the batch's prefill."""
    errs, lines = [], []
    for label, p, g, b, prompt, out, step_ms, pre_s in FIXED_ROWS:
        m, gpu = model(p), get_gpu(g)
        t, _ = inf.decode_step_s(m, gpu, precision="bf16", kv_bytes=inf.KV_BYTES["bf16"], batch=b,
                                 context=prompt + out / 2, tp=1, eff=inf.ServingEfficiency())
        pre = b * inf.prefill_s(m, gpu, precision="bf16", prompt=prompt, tp=1, eff=inf.ServingEfficiency(),
                                rows=b * prompt, own_weights=True)
        for what, got, meas in (("decode step ms", t * 1e3, step_ms), ("prefill s", pre, pre_s)):
            e = got / meas - 1
            errs.append((abs(e), e, f"{label} {p} {g} batch {b} {what}"))
            lines.append(f"| {label} | {p} | {g} | batch {b}, {prompt}/{out} | {what} | {meas:.4g} | {got:.4g} | "
                         f"{e:+.1%} |")
    return errs, lines


def load_table():
    """Maximum-load rows: the benchmark's requests sent at once through the modelled scheduler."""
    errs, lines = [], []
    for label, p, g, tp, n, pm, om, loop, meas in LOAD_ROWS:
        ps, os_ = inf.request_mix(pm, om, "sharegpt", samples=n)
        run = inf.max_load_run(model(p), get_gpu(g), prompts=ps, outputs=os_, requests=n, precision="bf16", tp=tp,
                               loop=loop)
        got = run.output_tokens_per_s if run else 0.0
        e = got / meas - 1
        errs.append((abs(e), e, f"{label} {p} {g} TP{tp} max load"))
        lines.append(f"| {label} | {p} | {g} | {n} ShareGPT requests ({pm:.0f}/{om:.0f} mean), TP{tp}, vLLM V1 | "
                     f"output tok/s | {meas:,.0f} | {got:,.0f} | {e:+.1%} |")
    return errs, lines


def summary(name, errs):
    if not errs:
        return f"{name}: no rows"
    a = sorted(x[0] for x in errs)
    p90 = a[min(len(a) - 1, int(round(0.9 * (len(a) - 1))))]
    return (f"{name}: {len(a)} rows, median {statistics.median(a) * 100:.1f}%, p90 {p90 * 100:.1f}%, "
            f"signed median {statistics.median(x[1] for x in errs) * 100:+.1f}%")


def before_r10_pool(gpu, tp, fraction, weights):
    """SGLang's pool as the model had it before round 10: a share of the card's total, less vLLM 0.6's non-torch."""
    return max(inf.visible_memory_bytes(gpu) * fraction - weights - inf.non_torch_bytes(gpu, tp), 0.0)


def main():
    if "--before" in sys.argv:  # the model before round 10
        inf.sglang_kv_pool_bytes = before_r10_pool
    kv, kv_lines = kv_table()
    fx, fx_lines = fixed_table()
    ld, ld_lines = load_table()
    print("| row | model | card | precision TP | engine knob | published KV GiB | modelled | error | source |")
    print("|---|---|---|---|---|---|---|---|---|")
    print("\n".join(kv_lines))
    print()
    print("| row | model | card | run | metric | published | modelled | error |")
    print("|---|---|---|---|---|---|---|---|")
    print("\n".join(fx_lines))
    print("\n".join(ld_lines))
    print()
    print(summary("KV capacity, new rows (r10)", kv))
    print(summary("KV capacity, SGLang rows (r10)", [x for x in kv if " sglang " in x[2]]))
    print(summary("fixed batch, MI300X SGLang 0.3 (r10)", fx))
    print(summary("max load, vLLM V1 ShareGPT (r10)", ld))
    print(summary("all new rows (r10)", kv + fx + ld))


if __name__ == "__main__":
    main()
