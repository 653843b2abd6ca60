"""Issue 35, round 12 (fp8serve12): published FP8 / BF16 serving PAIRS of vLLM, scored row by row, and the FP8 rows of
round 12's silybench set (bench/validate_serve_vllm12.py) before and after this round's FP8 mechanism.

``--before`` is not a flag: run this script once against the tree before the change (``git archive`` of the base
commit on ``PYTHONPATH``) and once against this branch; the before figures below were produced that way and are
printed from ``BEFORE`` next to the current model's.

Rows entered (out of sample, scored before any change, section "before" of docs/validation_inference.md's round-12
fp8serve12 part):
(I) vllm-project/vllm issue #25915 ("Limited improvements when compared Qwen3 / Qwen3-FP8", 2025-09-30): ``vllm bench
    throughput --model Qwen/Qwen3-8B --input-len 1024 --output-len 2048`` and the same with ``Qwen/Qwen3-8B-FP8``, "h100
    hardware", images ``vllm/vllm-openai:v0.8.5`` and ``v0.10.2``; the progress bar's "est. speed ... output" figures:
    BF16 4,481.69 / FP8 4,868.31 tok/s (0.8.5), BF16 5,408.88 / FP8 5,304.03 tok/s (0.10.2). ``vllm bench throughput``
    defaults: 1,000 prompts (``--num-prompts``), the random dataset at fixed lengths, ``ignore_eos``, the offline
    ``LLM`` class (its budget on an 80 GB card: 16,384 tokens / 1,024 sequences, ``serving_facts.VLLM_LLM_CLASS_BUDGET``),
    ``gpu_memory_utilization`` 0.90, KV cache at the model dtype (bf16: the FP8 checkpoint sets no KV dtype).
    ASSUMED: an H100 SXM 80GB (the variant is not named). V1 before async scheduling (on by default only from late
    2025, vllm PR #27614): loop "serial", as bench/validate_serve_oos10.py's V1 rows of that era. The FP8 checkpoint
    is block-quantized (``weight_block_size`` [128, 128], per-token-group activation scales of 128: vLLM's
    ``W8A8BlockFp8LinearOp``), not ``--quantization fp8``'s per-tensor weights: the planner has one FP8 path for both.
Looked at, not entered: vLLM issue #25540 (Qwen3-235B-A22B FP8 vs BF16 on 4 GPUs, card not named in the excerpt, the
FP8 table not in the stored text), #17788 (Qwen3-32B BF16 against Qwen2-32B-FP8: two models), #19264 (RTX 4090, an HF
dataset of unstated lengths), SGLang #7352 (Qwen-32B FP8 at DP 2 × TP 4, lengths from a dataset), QwenLM/Qwen3-VL #1709
(a vision model), vLLM PR #17126 / #49363 (GEMM kernels alone: used as sources in inference.py, not as serving rows).

Error = modelled / published − 1 (the serving scripts' convention); the brief's published / predicted − 1 in brackets.
"""
from __future__ import annotations

import statistics
import sys

from gpuplanner.core import inference as inf
from gpuplanner.core.catalog_hw import get_gpu
from gpuplanner.core.estimate import resolve
from gpuplanner.core.scenario import Scenario

# (label, preset, card, precision, requests, prompt, output, loop, published output tok/s)
PAIRS = [
    ("#25915 vLLM 0.8.5", "qwen3-8b", "h100-sxm-80gb", "bf16", 1000, 1024, 2048, "serial", 4481.69),
    ("#25915 vLLM 0.8.5", "qwen3-8b", "h100-sxm-80gb", "fp8", 1000, 1024, 2048, "serial", 4868.31),
    ("#25915 vLLM 0.10.2", "qwen3-8b", "h100-sxm-80gb", "bf16", 1000, 1024, 2048, "serial", 5408.88),
    ("#25915 vLLM 0.10.2", "qwen3-8b", "h100-sxm-80gb", "fp8", 1000, 1024, 2048, "serial", 5304.03),
]
# modelled before this round's change (the base tree, same script): output tok/s per PAIRS row
BEFORE = [4892.0, 5926.0, 4892.0, 5926.0]


def model(preset):
    r = resolve(Scenario.model_validate({"model": {"preset": preset}}))
    return inf.ServingModel.of(r.arch, r.params)


def pair_rows():
    """Each PAIRS row through the modelled scheduler: signed errors, printed with before / after."""
    errs = []
    print("| run | precision | published out tok/s | modelled before (err) [pub/pred-1] | now (err) [pub/pred-1] |")
    print("|---|---|---|---|---|")
    for k, (lab, p, g, prec, n, pi, po, loop, pub) in enumerate(PAIRS):
        gpu = get_gpu(g)
        run = inf.max_load_run(model(p), gpu, prompts=[float(pi)] * n, outputs=[float(po)] * n, requests=n, precision=prec,
                               kv_precision="bf16", tp=1, engine="vllm", utilization=0.90, loop=loop,
                               budget=inf.VLLM_LLM_CLASS_BUDGET[True])
        v = run.output_tokens_per_s if run else 0.0
        b = BEFORE[k] if k < len(BEFORE) else float("nan")
        errs.append((v / pub - 1, f"{lab} {p} {prec}"))
        print(f"| {lab} {p} {g} {pi}/{po} x{n} | {prec} | {pub:,.0f} | {b:,.0f} ({b / pub - 1:+.0%}) "
              f"[{pub / b - 1:+.0%}] | {v:,.0f} ({v / pub - 1:+.0%}) [{pub / v - 1:+.0%}] |")
    for lab in ("#25915 vLLM 0.8.5", "#25915 vLLM 0.10.2"):
        pub = {r[3]: r[8] for r in PAIRS if r[0] == lab}
        got = {r[1].split()[-1]: (1 + r[0]) * pub[r[1].split()[-1]] for r in errs if r[1].startswith(lab)}
        print(f"  {lab}: FP8 / BF16 published {pub['fp8'] / pub['bf16']:.2f}x, modelled {got['fp8'] / got['bf16']:.2f}x")
    return errs


def summary(errs):
    a = [abs(x) for x, _ in errs]
    b = [abs(1.0 / (1.0 + x) - 1.0) for x, _ in errs]
    print(f"  {len(a)} rows: median |err| {statistics.median(a) * 100:.1f}%, max {max(a) * 100:.1f}% "
          f"[pub/pred-1: median {statistics.median(b) * 100:.1f}%, max {max(b) * 100:.1f}%]")


if __name__ == "__main__":
    summary(pair_rows())
    sys.exit(0)
