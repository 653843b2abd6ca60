"""Issue 35, round 11 (serve11): NEW out-of-sample serving rows for vLLM's V0 engine by version, entered as a user would
enter them (model preset, card, engine version, lengths, requests, scheduler settings) and scored with the model. None of
these sources is used by scripts/validate_inference.py, bench/validate_serve_oos9.py, bench/validate_serve_oos10.py or
bench/data (grepped for "7117", "7162", "8804", "7652", "19.48", "6312").

Every row: one H100 80GB (stated by the source), BF16, vLLM's V0 engine (V1 did not exist before Dec 2024), all
requests sent at once (benchmark_throughput's LLM.generate, or benchmark_serving at request rate inf), default
gpu_memory_utilization 0.90 and max_num_seqs 256. -> MAXIMUM LOAD (requests a second, as published).

Sources
-------
(A1) vllm-project/vllm PR #7117 (2024-08-04, "simplify output processing with shortcut for non-parallel sampling"), the
     author's own runs "On H100": ``benchmarks/benchmark_throughput.py --input-len 256 --output-len 256 --model
     meta-llama/Meta-Llama-3-8B`` (1000 prompts, the script's default; ``ignore_eos``: every output 256 tokens).
     Main branch, three trials 24.32 / 24.11 / 24.29 req/s (mean 24.24). vLLM main of 2024-08-04 (0.5.4 dev):
     before async output processing (PR #7049, v0.6.0) and before PR #7162.
(A2) the same PR's branch, three trials 24.52 / 24.59 / 24.74 req/s (mean 24.62).
(A3) vllm-project/vllm PR #7162 (2024-08-05, "Optimize e2e overheads: Reduce python allocations"): "End-to-end
     throughput of Llama3 8B on 1xH100 is 24% faster with this PR", ``benchmark_throughput.py --model
     meta-llama/Meta-Llama-3.1-8B-Instruct --input-len 512 --output-len 256 --num-prompts 1000``: main 19.48 req/s.
     Llama 3.1's 131,072-token context turns V0's chunked prefill on by itself (vllm engine/arg_utils.py: "Chunked
     prefill is enabled by default for models with max_model_len > 32K"), 512 tokens a step (V0's chunked default).
(A4) the same PR's branch: 24.32 req/s.
(B1) vllm-project/vllm PR #8804 (2024-09-25, "Combined support for multi-step scheduling, chunked prefill & prefix
     caching"), the baseline run 1 on "1x H100 80GB HBM3": ``vllm.entrypoints.openai.api_server --model
     meta-llama/Meta-Llama-3-8B --use-v2-block-manager --gpu-memory-utilization 0.90 --num-scheduler-steps 8`` (async
     output processing on: v0.6 default), ``benchmark_serving.py --dataset-name sharegpt`` (1000 prompts, rate inf):
     215,196 input and 128,347 generated tokens in 20.33 s, 49.18 req/s.
(B2) vllm-project/vllm PR #7652 (2024-09-03, "Logprobs support in Multi-step"), "8x multi-step + async output proc,
     - logprobs": TP 1 on "2x NVIDIA H100 80GB" (one used), Llama-3-8B, ``--num-scheduler-steps 8 --worker-use-ray``,
     the same ShareGPT client run: 215,196 input and 128,650 generated tokens, 25.30 s, 39.52 req/s.
Rows A3/A4 are one A/B pair of the same machine; so are A1/A2. Lengths of B1/B2: the ShareGPT spread at the run's own
means (inf.request_mix "sharegpt").
Looked at, not entered: vllm PR #8050 / #7921 / #7743 (API-server runs at a fixed request rate, or multi-step without
async output processing: no engine the model names); vllm issue #12315 (vLLM 0.6.6, "4 x A100": which A100 not stated);
vllm PR #8125 (a work-in-progress engine that never shipped); sglang issue #1639 (card not stated).
"""
from __future__ import annotations

import statistics
import sys

from gpuplanner.core import inference as inf
from gpuplanner.core.catalog_hw import get_gpu
from gpuplanner.core.estimate import resolve
from gpuplanner.core.scenario import Scenario

H100 = "h100-sxm-80gb"
# (label, preset, requests, prompt, output, spread, V0 era, budget (tokens, seqs), scheduler steps, published req/s,
#  source)
ROWS = [
    ("A1", "llama-3-8b", 1000, 256, 256, "fixed", "0.5", (8192, 256), 1, 24.24, "vLLM PR #7117 main (2024-08-04)"),
    ("A2", "llama-3-8b", 1000, 256, 256, "fixed", "0.5", (8192, 256), 1, 24.62, "vLLM PR #7117 branch"),
    ("A3", "llama-3.1-8b", 1000, 512, 256, "fixed", "0.5", (512, 256), 1, 19.48, "vLLM PR #7162 main (2024-08-05)"),
    ("A4", "llama-3.1-8b", 1000, 512, 256, "fixed", "0.5+7162", (512, 256), 1, 24.32, "vLLM PR #7162 branch"),
    ("B1", "llama-3-8b", 1000, 215.196, 128.347, "sharegpt", "0.6", (8192, 256), 8, 49.18,
     "vLLM PR #8804 baseline run 1 (2024-09-25)"),
    ("B2", "llama-3-8b", 1000, 215.196, 128.650, "sharegpt", "0.6", (8192, 256), 8, 39.52,
     "vLLM PR #7652, Ray worker (2024-09-03)"),
]
BEFORE = "--before" in sys.argv  # the model before round 11: every V0 build on the round-10 loop "v0"


def loop_of(era: str) -> str:
    """The engine loop of a V0 build (inf.ENGINE_LOOPS): round 10's ``v0`` for every era with ``--before``."""
    if BEFORE:
        return "v0"
    return inf.vllm_v0_loop(era)


def model(preset):
    r = resolve(Scenario.model_validate({"model": {"preset": preset}}))
    return inf.ServingModel.of(r.arch, r.params)


def score():
    """[(signed error, label)] of every row, printed row by row."""
    out = []
    print("| row | model | requests (in/out) | V0 build | loop | steps | published req/s | modelled | error | source |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for lab, p, n, pi, po, spread, era, budget, steps, meas, src in ROWS:
        ps, os_ = inf.request_mix(pi, po, spread, samples=200)
        loop = loop_of(era)
        run = inf.max_load_run(model(p), get_gpu(H100), prompts=ps, outputs=os_, requests=n, precision="bf16", tp=1,
                               engine="vllm", utilization=0.90, max_batch=budget[1], loop=loop,
                               steps_per_schedule=steps, budget=budget)
        got = n / run.duration_s if run else 0.0
        e = got / meas - 1
        out.append((e, f"{lab} {p} V0 {era}"))
        print(f"| {lab} | {p} | {n} ({pi:.0f}/{po:.0f} {spread}) | {era} | {loop} | {steps} | {meas:.2f} | {got:.2f} | "
              f"{e:+.1%} | {src} |")
    return out


def _line(name, xs):
    a = sorted(abs(x) for x in xs)
    p90 = a[min(len(a) - 1, int(round(0.9 * (len(a) - 1))))]
    return (f"{name}: {len(a)} rows, median {statistics.median(a) * 100:.1f}%, p90 {p90 * 100:.1f}%, "
            f"signed median {statistics.median(xs) * 100:+.1f}%")


def main():
    rows = score()
    print()
    print(_line("max load, vLLM V0 by version (r11), all", [e for e, _ in rows]))
    print(_line("  V0 0.5 (before PR #7162: A1-A3)", [e for e, lab in rows if lab.endswith(" 0.5")]))
    print(_line("  V0 0.6 (async output processing, multi-step 8: B1, B2)", [e for e, lab in rows if " 0.6" in lab]))


if __name__ == "__main__":
    main()
