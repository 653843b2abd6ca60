"""Issue 35, round 13 (fp8lin13): vLLM's 8-bit forward, row by row, before and after this round's mechanism
(``inference.eight_bit_gemm_share``: an 8-bit prefill of vLLM or SGLang speeds up its matmuls only; the norms, rotary,
SiLU-and-mul, residual adds and the GEMMs' operand traffic stay 16-bit memory time), and AccelMark's suite C W8A8 INT8
rows, entered this round and scored before the change.

"Before" is the same model with the rule switched off (``inference.EIGHT_BIT_16BIT_ACTIVATION_ENGINES = ()``), which
is byte for byte the base tree's (a8283e44) output for every row here (checked with ``diff`` against the base tree's
bench/validate_serve_vllm12.py, _fp8serve12.py and _oos9.py).

Rows:
(S) silybench (bench/validate_serve_vllm12.py): vLLM 0.30, one H100 SXM, Qwen3-8B, BF16 and ``--quantization fp8``
    (dynamic per-token W8A8, KV bf16): TTFT p95 at c1 (first token), output tok/s at c512 (maximum load).
(I) vLLM issue #25915 (bench/validate_serve_fp8serve12.py): ``vllm bench throughput`` Qwen3-8B / -FP8, H100.
(C) AccelMark suite C (bench/validate_serve_oos9.py, FreedomIntelligence/AccelMark @5797fc42, results/verified/
    <chip>_suite_C_nvidia_vllm_*/<format>/offline/result.json, best output tok/s over the client concurrencies):
    FP8 = RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8 (static per-tensor W8A8); the rows bench/validate_serve_oos9.py
    labels "int8" are the ``w8a16`` directories (RedHatAI/...-quantized.w8a16, INT8 WEIGHT-ONLY: 5,369.94 tok/s on the
    H100 is ``w8a16/offline/result.json``), not W8A8.
(W) NEW this round: the same submissions' ``w8a8`` directories (RedHatAI/Meta-Llama-3.1-8B-Instruct-quantized.w8a8,
    ``quantization: compressed-tensors``: INT8 weights per channel, INT8 activations dynamic per token, vLLM
    ``CompressedTensorsW8A8Int8`` → ``apply_int8_linear`` = ``scaled_int8_quant`` + CUTLASS ``cutlass_scaled_mm``),
    cards in the catalog. The planner's ``int8`` is W8A8 where the catalog gives an 8-bit tensor rate (Ada, Hopper,
    Blackwell) and weight-only elsewhere: the Ampere rows (A100, A800, RTX A6000) are modelled as weight-only although
    vLLM runs INT8 tensor cores there (sm80 CUTLASS int8) — printed, scored apart.

Error = modelled / published − 1 (the serving scripts' convention); published / predicted − 1 in brackets.
"""
from __future__ import annotations

import statistics
import sys

from gpuplanner.core import inference as inf
from gpuplanner.core.catalog_hw import get_gpu

import validate_serve_fp8serve12 as i25915
import validate_serve_oos9 as oos9
import validate_serve_vllm12 as sily

ENGINES = inf.EIGHT_BIT_16BIT_ACTIVATION_ENGINES
# (card, vLLM version, published output tok/s of the w8a8 directory)
W8A8 = [
    ("a100-sxm-40gb", "0.7.3", 3205.63), ("a100-sxm-80gb", "0.7.3", 3521.09), ("a100-sxm-80gb", "0.20.1", 3208.11),
    ("a800-sxm-80gb", "0.7.3", 3570.30), ("rtx-4090d-24gb", "0.7.3", 2678.33), ("rtx-4090-24gb", "0.7.3", 2622.06),
    ("h100-sxm-80gb", "0.7.3", 6203.69), ("h200-sxm-141gb", "0.7.3", 6146.56), ("rtx-a6000-48gb", "0.7.3", 1971.81),
]


def both(fn):
    """fn() with this round's rule off, then on."""
    inf.EIGHT_BIT_16BIT_ACTIVATION_ENGINES = ()
    try:
        before = fn()
    finally:
        inf.EIGHT_BIT_16BIT_ACTIVATION_ENGINES = ENGINES
    return before, fn()


def sily_ttft(p, prec):
    m, g = sily.model(sily.SILY_MODEL), get_gpu(sily.SILY_CARD)
    return 1e3 * (inf.time_to_first_token_s(m, g, prompt_tokens=p, precision=prec, tp=1, loop=inf.ENGINE_LOOP["vllm"],
                                            chunk=inf.prefill_chunk_tokens("vllm", g), kv_precision="bf16",
                                            engine="vllm") + inf.api_request_wait_s("vllm"))


def sily_max_load(p, o, prec):
    m, g, n = sily.model(sily.SILY_MODEL), get_gpu(sily.SILY_CARD), 5 * sily.SILY_C
    run = inf.max_load_run(m, g, prompts=[float(p)] * n, outputs=[float(o)] * n, requests=n, precision=prec,
                           kv_precision="bf16", tp=1, engine="vllm", utilization=0.90, max_batch=sily.SILY_C,
                           loop=inf.ENGINE_LOOP["vllm"])
    return run.output_tokens_per_s if run else 0.0


def i25915_run(prec):
    m, g = i25915.model("qwen3-8b"), get_gpu("h100-sxm-80gb")
    run = inf.max_load_run(m, g, prompts=[1024.0] * 1000, outputs=[2048.0] * 1000, requests=1000, precision=prec,
                           kv_precision="bf16", tp=1, engine="vllm", utilization=0.90, loop="serial",
                           budget=inf.VLLM_LLM_CLASS_BUDGET[True])
    return run.output_tokens_per_s if run else 0.0


def suite_c(card, ver, prec):
    run = oos9.offline_run(card, "C", ver, prec)
    return run.output_tokens_per_s if run else 0.0


def rows():
    """[(set, label, published, before, after)] for every 8-bit vLLM row and its BF16 pair."""
    out = []
    for name, p, o, by_prec in sily.SILY:
        for prec, (ttft, _itl, tput) in by_prec.items():
            out.append(("S first token", f"{name} {prec}", ttft, *both(lambda: sily_ttft(p, prec))))
            out.append(("S max load c512", f"{name} {prec}", tput, *both(lambda: sily_max_load(p, o, prec))))
    for lab, _p, _g, prec, *_rest, pub in i25915.PAIRS:
        out.append(("I #25915", f"{lab} {prec}", pub, *both(lambda: i25915_run(prec))))
    for card, ver, by_prec in oos9.ACCEL_C:
        for prec in ("bf16", "fp8", "int8"):
            if prec in by_prec:
                tag = "int8 (w8a16)" if prec == "int8" else prec
                out.append(("C suite C", f"{card} {ver} {tag}", by_prec[prec],
                            *both(lambda: suite_c(card, ver, prec))))
    for card, ver, pub in W8A8:
        apart = "" if getattr(get_gpu(card), "fp8_tflops", None) else " [weight-only in the planner]"
        out.append(("W suite C W8A8 (new)", f"{card} {ver} int8 (w8a8){apart}", pub,
                    *both(lambda: suite_c(card, ver, "int8"))))
    return out


def _stats(xs):
    a = sorted(abs(x) for x in xs)
    p90 = a[min(len(a) - 1, int(round(0.9 * (len(a) - 1))))]
    return f"{len(a)} rows, median {statistics.median(a) * 100:.1f}%, p90 {p90 * 100:.1f}%"


def report(table):
    print("| set | row | published | before (err) [pub/pred-1] | after (err) [pub/pred-1] |")
    print("|---|---|---|---|---|")
    for s, lab, pub, b, a in table:
        print(f"| {s} | {lab} | {pub:,.1f} | {b:,.1f} ({b / pub - 1:+.1%}) [{pub / b - 1:+.1%}] | "
              f"{a:,.1f} ({a / pub - 1:+.1%}) [{pub / a - 1:+.1%}] |")
    print()
    groups = {}
    for s, lab, pub, b, a in table:
        prec = "bf16" if lab.endswith("bf16") else "8-bit"
        if "weight-only" in lab:
            prec = "8-bit, Ampere W8A8 (planner: weight-only)"
        groups.setdefault((s, prec), []).append((b / pub - 1, a / pub - 1))
    for (s, prec), xs in groups.items():
        print(f"  {s}, {prec}: before {_stats([x for x, _ in xs])}; after {_stats([y for _, y in xs])}")
    moved = [r for r in table if r[1].endswith("bf16") and abs(r[4] - r[3]) > 1e-9]
    print(f"  BF16 rows moved: {len(moved)}")


if __name__ == "__main__":
    report(rows())
    sys.exit(0)
