"""Issue 35, round 15 (servoos15): NEW out-of-sample serving rows — maximum-load runs of Qwen3-235B-A22B (MoE) on
eight H100s and eight A100s under vLLM 0.11.0 and SGLang 0.5.5.post1, BF16 and block-scaled FP8, ShareGPT and fixed
random lengths from 128 to 32,000 prompt tokens — entered as a user would enter them (model preset, card, precision,
TP, engine, request set) and scored with the current model BEFORE any change. None of these figures is used by
scripts/validate_inference.py, bench/ or docs/validation*.md (grepped for "qwen3-235b-a22b/h100", "qwen3-235b-a22b/a100",
"performance-lab", "8424.86", "3792.50", "212894", "217393").

Sources
-------
(H) GPUStack "Performance Lab", "Optimizing Qwen3-235B-A22B Throughput on NVIDIA H100 GPUs" (gpustack/gpustack
    ``docs/performance-lab/qwen3-235b-a22b/h100.md``, commit 10e9444a07c73556f2ef0d10d2b2766bbf54c9c0).
(A) The same lab, "... on NVIDIA A100 GPUs" (``docs/performance-lab/qwen3-235b-a22b/a100.md``, commit
    9babbd2674ad9b74c2ea48d804c79d845b6c329b).
Both: model Qwen3-235B-A22B-Instruct-2507 (the preset's architecture; BF16 or the ``-FP8`` checkpoint, 128 x 128
block-scaled FP8 per its config's ``weight_block_size``); vLLM v0.11.0 and SGLang v0.5.5.post1; servers started with
``vllm serve <model> -tp N [--max-num-batched-tokens T]`` or ``python3 -m sglang.launch_server --model-path <model>
--tp-size 8`` (every other setting the engine's default); client ``vllm bench serve --backend openai-chat --endpoint
/v1/chat/completions`` with every request sent at once (no ``--request-rate``: inf), ShareGPT (``--num-prompts 1000``)
or ``--dataset-name random --random-input-len I --random-output-len O --num-prompts N --seed 42`` (I/O = 32000/100,
N 100; 4000/200, N 500; 2000/100, N 500; 128/4, N 1000). Each row's published figures are the run's own printout:
successful requests, duration, total input and generated tokens, "Total Token throughput (tok/s)" (= (input +
generated) / duration). Measured: MAXIMUM LOAD (the whole replica, a finite request set sent at once).

Entered: every run whose configuration the planner can express (TP alone). Left out: the ``--enable-expert-parallel``
runs (H100 FP8 TP8+EP, TP4+EP; A100 FP8 TP8+EP, TP4+EP: the max-load scheduler has no expert-parallel layout) and the
attention-backend runs (crashed).

ASSUMED (not stated): the cards are the SXM 80 GB parts (the pages say "NVIDIA H100 GPUs" / "NVIDIA A100 GPUs"; the
BF16 model's 470 GB needs eight 80 GB cards); vLLM 0.11.0 runs V1 without async scheduling (on by default only from
vllm-project/vllm PR #27614, late 2025): loop ``serial``; SGLang's overlap scheduler (``overlapped``); KV cache in the
model's dtype (BF16; ``kv_cache_dtype`` "auto"); FP8 on the A100 is vLLM's weight-only FP8 Marlin path (the pages: "vLLM
supports running as w8a16 quantization on A100 GPUs via its Marlin kernel"), which the planner's ``fp8`` on an Ampere
card already is (products at the 16-bit rate); the chat template's tokens are not in the client's input count (left
out, as the r14 GPUStack rows); lengths: the run's own means (total tokens / successful requests) — ShareGPT with the
planner's ShareGPT spread (``inf.request_mix`` "sharegpt"), the random sets fixed at their means (vLLM 0.11's random
dataset samples exactly ``--random-input-len`` when ``--random-range-ratio`` is 0, its default; the outputs stop early
on EOS, hence means below O).

Error convention: published / predicted − 1 (the brief's); modelled / published − 1 in brackets.
"""
from __future__ import annotations

import dataclasses
import sys

from gpuplanner.core import inference as inf
from gpuplanner.core.catalog_hw import get_gpu
from gpuplanner.core.estimate import resolve
from gpuplanner.core.scenario import Scenario
from validate_serve_oos10 import summary  # the serving benches' one summary line (round 10)

PRESET = "qwen3-235b-a22b"
KV = "bf16"
LOOP = {"vllm": "serial", "sglang": "overlapped"}  # vLLM 0.11.0 before async scheduling; SGLang 0.5 overlap
SOURCES = {
    "H": "gpustack/gpustack docs/performance-lab/qwen3-235b-a22b/h100.md @10e9444a (vLLM 0.11.0, SGLang 0.5.5.post1)",
    "A": "gpustack/gpustack docs/performance-lab/qwen3-235b-a22b/a100.md @9babbd26 (vLLM 0.11.0, SGLang 0.5.5.post1)",
}
CARD = {"H": "h100-sxm-80gb", "A": "a100-sxm-80gb"}
# (source, section, engine, precision, tp, --max-num-batched-tokens (None: default), dataset, successful requests,
#  duration s, total input tokens, total generated tokens, published total token throughput tok/s)
RUNS = [
    ("H", "1 engine", "vllm", "bf16", 8, None, "sharegpt", 984, 48.28, 212894, 193865, 8424.86),
    ("H", "1 engine", "sglang", "bf16", 8, None, "sharegpt", 984, 53.18, 214137, 193829, 7671.31),
    ("H", "3 TP4", "vllm", "fp8", 4, None, "sharegpt", 984, 54.12, 212992, 194446, 7527.80),
    ("H", "5 mnbt", "vllm", "fp8", 4, 16384, "sharegpt", 984, 52.46, 214381, 194148, 7787.17),
    ("H", "baseline", "vllm", "bf16", 8, None, "random 32000/100", 100, 141.60, 3200000, 8191, 22657.51),
    ("H", "baseline", "vllm", "bf16", 8, None, "random 4000/200", 500, 98.99, 1997942, 92185, 21113.53),
    ("H", "baseline", "vllm", "bf16", 8, None, "random 2000/100", 500, 43.91, 998175, 49500, 23858.69),
    ("H", "baseline", "vllm", "bf16", 8, None, "random 128/4", 984, 8.83, 125650, 3936, 14668.27),
    ("H", "optimized", "vllm", "fp8", 4, 16384, "random 32000/100", 100, 208.79, 3200000, 8281, 15366.32),
    ("H", "optimized", "vllm", "fp8", 4, 16384, "random 4000/200", 500, 126.76, 1997942, 90966, 16478.79),
    ("H", "optimized", "vllm", "fp8", 4, 16384, "random 2000/100", 500, 55.28, 998175, 49471, 18950.04),
    ("H", "optimized", "vllm", "fp8", 4, 16384, "random 128/4", 984, 6.11, 125650, 3936, 21211.83),
    ("A", "1 engine", "vllm", "bf16", 8, None, "sharegpt", 1000, 109.00, 217393, 196004, 3792.50),
    ("A", "1 engine", "sglang", "bf16", 8, None, "sharegpt", 1000, 89.35, 217393, 196763, 4635.31),
    ("A", "3 TP4", "vllm", "fp8", 4, None, "sharegpt", 1000, 136.64, 217393, 195140, 3019.19),
    ("A", "4 mnbt", "vllm", "fp8", 4, 4096, "sharegpt", 1000, 136.64, 217393, 195953, 3025.05),
    ("A", "4 mnbt", "vllm", "fp8", 4, 8192, "sharegpt", 1000, 137.59, 217393, 195781, 3003.01),
    ("A", "baseline", "vllm", "bf16", 8, None, "random 32000/100", 100, 481.89, 3200000, 8191, 6657.49),
    ("A", "baseline", "vllm", "bf16", 8, None, "random 4000/200", 500, 255.70, 1997942, 91352, 8170.72),
    ("A", "baseline", "vllm", "bf16", 8, None, "random 2000/100", 500, 112.15, 998175, 49632, 9342.67),
    ("A", "baseline", "vllm", "bf16", 8, None, "random 128/4", 1000, 17.68, 127698, 4000, 7449.43),
    ("A", "optimized", "vllm", "fp8", 4, None, "random 32000/100", 100, 776.36, 3200000, 8300, 4132.51),
    ("A", "optimized", "vllm", "fp8", 4, None, "random 4000/200", 500, 450.71, 1997942, 90389, 4633.41),
    ("A", "optimized", "vllm", "fp8", 4, None, "random 2000/100", 500, 196.42, 998175, 49495, 5333.91),
    ("A", "optimized", "vllm", "fp8", 4, None, "random 128/4", 1000, 26.54, 127698, 4000, 4961.66),
]


def model(precision):
    """The preset as the run served it: the ``-FP8`` checkpoint is block-scaled (``weight_block_size`` [128, 128])."""
    r = resolve(Scenario.model_validate({"model": {"preset": PRESET}}))
    m = inf.ServingModel.of(r.arch, r.params)
    return dataclasses.replace(m, block_scaled=True) if precision == "fp8" else m


def lengths(dataset, n, tin, tout):
    """(prompts, outputs) samples of the run's requests: ShareGPT spread or fixed, at the run's own means."""
    pm, om = tin / n, tout / n
    if dataset == "sharegpt":
        return inf.request_mix(pm, om, "sharegpt", samples=min(n, inf.MIX_SAMPLES))
    k = min(n, 100)
    return [pm] * k, [om] * k


def modelled_run(src, eng, prec, tp, mnbt, dataset, n, tin, tout):
    """The planner's maximum-load run of one published run (``inf.max_load_run``), or None."""
    gpu = get_gpu(CARD[src])
    budget = None
    if mnbt is not None:  # the server's --max-num-batched-tokens; the sequence cap stays the default
        budget = (int(mnbt), inf.token_budget(eng, gpu)[1])
    ps, os_ = lengths(dataset, n, tin, tout)
    return inf.max_load_run(model(prec), gpu, prompts=ps, outputs=os_, requests=n, precision=prec, kv_precision=KV,
                            tp=tp, engine=eng, loop=LOOP[eng], budget=budget)


def label(row):
    src, sec, eng, prec, tp, mnbt, dataset = row[:7]
    knob = f" mnbt {mnbt}" if mnbt else ""
    name = "vLLM 0.11.0" if eng == "vllm" else "SGLang 0.5.5.post1"
    return f"({src}) {CARD[src].split('-')[0].upper()}x{tp} {name} {prec.upper()} TP{tp}{knob} {dataset}"


def scored():
    """[(|err|, err, label, published total tok/s, predicted total tok/s, predicted duration s, mean batch)]."""
    out = []
    for row in RUNS:
        src, _, eng, prec, tp, mnbt, dataset, n, dur, tin, tout, tps = row
        run = modelled_run(src, eng, prec, tp, mnbt, dataset, n, tin, tout)
        got_dur = run.duration_s if run else float("inf")
        got = (tin + tout) / got_dur
        e = tps / got - 1
        out.append((abs(e), e, label(row), tps, got, got_dur, run.mean_batch if run else 0.0))
    return out


def main():
    res = scored()
    for k, v in SOURCES.items():
        print(f"Source ({k}): {v}")
    print("| run | published total tok/s | predicted | error (pub/pred-1) | [model/pub-1] | published s | "
          "predicted s | modelled mean batch |")
    print("|---|---|---|---|---|---|---|---|")
    for (a, e, lab, meas, got, gd, mb), row in zip(res, RUNS):
        print(f"| {lab} | {meas:,.2f} | {got:,.2f} | {e:+.1%} | [{got / meas - 1:+.1%}] | {row[8]:.2f} | "
              f"{gd:.2f} | {mb:.0f} |")
    print()
    print(summary("all new rows (servoos15, max load, Qwen3-235B-A22B)", res))
    for tag, name in (("(H)", "H100"), ("(A)", "A100")):
        print(summary(f"  {name}", [x for x in res if x[2].startswith(tag)]))
    print(summary("  ShareGPT", [x for x in res if x[2].endswith("sharegpt")]))
    print(summary("  random (fixed lengths)", [x for x in res if " random " in x[2]]))
    for ds in ("32000/100", "4000/200", "2000/100", "128/4"):
        print(summary(f"    random {ds}", [x for x in res if x[2].endswith(f" random {ds}")]))
    for prec in ("BF16", "FP8"):
        print(summary(f"  {prec}", [x for x in res if f" {prec} " in x[2]]))
    print(summary("  SGLang", [x for x in res if "SGLang" in x[2]]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
