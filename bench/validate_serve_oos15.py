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

import contextlib
import dataclasses
import sys

from gpuplanner.core import inference as inf
from gpuplanner.core.catalog_hw import get_gpu
from gpuplanner.core.estimate import resolve
from gpuplanner.core.scenario import Scenario
from validate_serve_oos10 import summary  # the serving benches' one summary line (round 10)

PRESET = {"H": "qwen3-235b-a22b", "A": "qwen3-235b-a22b", "D": "deepseek-v3"}
KV = "bf16"
LOOP = {"vllm": "serial", "sglang": "overlapped"}  # vLLM 0.11.0 before async scheduling; SGLang 0.5 overlap
SOURCES = {
    "H": "gpustack/gpustack docs/performance-lab/qwen3-235b-a22b/h100.md @10e9444a (vLLM 0.11.0, SGLang 0.5.5.post1)",
    "A": "gpustack/gpustack docs/performance-lab/qwen3-235b-a22b/a100.md @9babbd26 (vLLM 0.11.0, SGLang 0.5.5.post1)",
    "D": "gpustack/gpustack docs/performance-lab/deepseek-r1/h200.md @a5c9fafc (vLLM 0.11.0, SGLang 0.5.3)",
}
CARD = {"H": "h100-sxm-80gb", "A": "a100-sxm-80gb", "D": "h200-sxm-141gb"}
VERSION = {("H", "vllm"): "vLLM 0.11.0", ("A", "vllm"): "vLLM 0.11.0", ("D", "vllm"): "vLLM 0.11.0",
           ("H", "sglang"): "SGLang 0.5.5.post1", ("A", "sglang"): "SGLang 0.5.5.post1", ("D", "sglang"): "SGLang 0.5.3"}
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
    ("D", "1 engine", "vllm", "fp8", 8, None, "sharegpt", 1000, 76.59, 219171, 200752, 5482.59),
    ("D", "1 engine", "sglang", "fp8", 8, None, "sharegpt", 1000, 63.28, 219171, 200767, 6635.73),
    ("D", "baseline", "vllm", "fp8", 8, None, "random 32000/100", 100, 206.90, 3199900, 10000, 15514.57),
    ("D", "baseline", "vllm", "fp8", 8, None, "random 4000/200", 500, 132.68, 1997530, 100000, 15808.55),
    ("D", "baseline", "vllm", "fp8", 8, None, "random 2000/100", 500, 59.26, 998393, 50000, 17690.89),
    ("D", "baseline", "vllm", "fp8", 8, None, "random 128/4", 1000, 22.07, 126882, 4000, 5931.25),
]
# (D) "ShareGPT batch size 4": the vLLM baseline server, ``--max-concurrency 4``, 100 ShareGPT prompts: (requests,
#  duration s, input tokens, generated tokens, mean TPOT ms, mean TTFT ms)
D_CONC4 = (100, 108.42, 22836, 21338, 19.36, 123.30)


def model(precision, preset="qwen3-235b-a22b"):
    """The preset as the run served it: the FP8 checkpoints (Qwen3-235B-A22B-Instruct-2507-FP8, DeepSeek-R1-0528) are
    block-scaled (``weight_block_size`` [128, 128])."""
    r = resolve(Scenario.model_validate({"model": {"preset": preset}}))
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
    return inf.max_load_run(model(prec, PRESET[src]), gpu, prompts=ps, outputs=os_, requests=n, precision=prec,
                            kv_precision=KV, tp=tp, engine=eng, loop=LOOP[eng], budget=budget)


def label(row):
    src, sec, eng, prec, tp, mnbt, dataset = row[:7]
    knob = f" mnbt {mnbt}" if mnbt else ""
    name = VERSION[(src, eng)]
    return f"({src}) {CARD[src].split('-')[0].upper()}x{tp} {PRESET[src]} {name} {prec.upper()} TP{tp}{knob} {dataset}"


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


def conc4_scored():
    """(D) at ``--max-concurrency 4``: [(|err|, err, label, published ms, predicted ms)] for mean TPOT and TTFT, modelled
    as the r14 GPUStack rows (bench/validate_serve_oos14.py ``gpustack_modelled``): TPOT = the decode step at a batch of
    4 over the mean context + the 3 other requests' prefills spread over a request's later tokens; TTFT = the idle
    replica's first token + the engine's API wait."""
    n, _, tin, tout, tpot, ttft = D_CONC4
    pm, om, conc = tin / n, tout / n, 4
    m, gpu = model("fp8", PRESET["D"]), get_gpu(CARD["D"])
    step, _ = inf.decode_step_s(m, gpu, precision="fp8", kv_bytes=inf.KV_BYTES[KV], batch=conc, context=pm + om / 2,
                                tp=8, eff=inf.ServingEfficiency(), loop=LOOP["vllm"])
    pre = inf.prefill_s(m, gpu, precision="fp8", prompt=pm, tp=8, eff=inf.ServingEfficiency(), attn_precision=KV,
                        engine="vllm")
    got_tpot = (step + (conc - 1) * pre / (om - 1)) * 1e3
    got_ttft = (inf.api_request_wait_s("vllm") + inf.time_to_first_token_s(
        m, gpu, prompt_tokens=pm, precision="fp8", tp=8, loop=LOOP["vllm"], chunk=inf.prefill_chunk_tokens("vllm", gpu),
        kv_precision=KV, engine="vllm")) * 1e3
    out = []
    for metric, meas, got in (("TPOT", tpot, got_tpot), ("TTFT", ttft, got_ttft)):
        e = meas / got - 1
        out.append((abs(e), e, f"(D) H200x8 deepseek-v3 vLLM 0.11.0 FP8 TP8 ShareGPT C=4 {metric}", meas, got))
    return out


@contextlib.contextmanager
def base_model():
    """The planner as it was before this round's change (the experts' GEMMs at the hidden width's factor)."""
    keep = inf.expert_gemm_width
    inf.expert_gemm_width = lambda m, tp: m.hidden / max(tp, 1)
    try:
        yield
    finally:
        inf.expert_gemm_width = keep


def print_summaries(res, title):
    print(summary(f"{title}: all max-load rows", res))
    for tag, name in (("(H)", "H100 Qwen3-235B"), ("(A)", "A100 Qwen3-235B"), ("(D)", "H200 DeepSeek-R1")):
        print(summary(f"  {name}", [x for x in res if x[2].startswith(tag)]))
    print(summary("  ShareGPT", [x for x in res if x[2].endswith("sharegpt")]))
    print(summary("  random (fixed lengths)", [x for x in res if " random " in x[2]]))
    for ds in ("32000/100", "4000/200", "2000/100", "128/4"):
        print(summary(f"    random {ds}", [x for x in res if x[2].endswith(f" random {ds}")]))
    print(summary("  all but random 128/4", [x for x in res if not x[2].endswith("128/4")]))
    for prec in ("BF16", "FP8"):
        print(summary(f"  {prec}", [x for x in res if f" {prec} " in x[2]]))
    print(summary("  SGLang", [x for x in res if "SGLang" in x[2]]))


def main():
    with base_model():
        before, c4_before = scored(), conc4_scored()
    res = scored()
    for k, v in SOURCES.items():
        print(f"Source ({k}): {v}")
    print("| run | published total tok/s | predicted before | error before (pub/pred-1) | predicted after | "
          "error after | [model/pub-1 after] | published s | predicted s after | modelled mean batch |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for b, (a, e, lab, meas, got, gd, mb), row in zip(before, res, RUNS):
        print(f"| {lab} | {meas:,.2f} | {b[4]:,.0f} | {b[1]:+.1%} | {got:,.0f} | {e:+.1%} | [{got / meas - 1:+.1%}] | "
              f"{row[8]:.2f} | {gd:.2f} | {mb:.0f} |")
    print()
    c4 = conc4_scored()
    print("| run | published ms | predicted before | error before | predicted after | error after |")
    print("|---|---|---|---|---|---|")
    for b, a in zip(c4_before, c4):
        print(f"| {a[2]} | {a[3]:.2f} | {b[4]:.2f} | {b[1]:+.1%} | {a[4]:.2f} | {a[1]:+.1%} |")
    print()
    print_summaries(before, "BEFORE")
    print()
    print_summaries(res, "AFTER")
    return 0


if __name__ == "__main__":
    sys.exit(main())
