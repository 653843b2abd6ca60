"""Issue 35, round 14 (fp8block14): BLOCK-SCALED FP8 checkpoints (Qwen3-*-FP8, DeepSeek-V3/R1: weights in 128 x 128
blocks with one FP32 scale each, activations quantised per token per 128-column group; ``weight_block_size`` in the
config's ``quantization_config``) against the planner's one ``fp8`` path (per-tensor / per-channel weights, per-token
activations). Run: ``python bench/validate_serve_fp8block14.py``.

What the engines run for a block-FP8 linear layer (code read, see docs/notes/2026-12-07/issue-35-r14-fp8block14.md):
* vLLM ``Fp8LinearMethod`` with ``weight_block_size`` -> ``W8A8BlockFp8LinearOp``: ``per_token_group_quant_fp8`` of the
  BF16 input (group 128: one FP32 scale per token per 128 columns), then the block GEMM: CUTLASS
  ``cutlass_scaled_mm`` blockwise on SM90/SM100 (``CUTLASS_BLOCK_FP8_SUPPORTED``), DeepGEMM ``fp8_gemm_nt`` where
  ``should_use_deepgemm_for_fp8_linear``, else the Triton ``w8a8_block_fp8_matmul`` (``fp8_utils.py``).
* SGLang ``dispatch_w8a8_block_fp8_linear`` (auto): DeepGEMM when ``ENABLE_JIT_DEEPGEMM`` (SM90 default), FlashInfer
  TRT-LLM groupwise on Blackwell, CUTLASS on SM120, else Triton ``w8a8_block_fp8_matmul``; each calls
  ``sglang_per_token_group_quant_fp8`` first. FlashInfer's SM90 DeepGEMM variant is opt-in and documented as the one
  that "automatically selects the swapAB kernel for small M (M < 32) for better performance during decoding"
  (``srt/layers/quantization/fp8_utils.py`` @002ed7e4).

Published kernel figures (H100 unless said; TFLOP/s, larger is better):
(P1) vllm-project/vllm PR #49363 "[Benchmark] Add FP8 block-scaled GEMM to fp8_gemm benchmark" (H100,
     ``benchmark_fp8_gemm.py``, gemma-4-31B-it shapes): BF16 / FP8 per-tensor-w per-token-a (with the activation
     quant) / FP8 per-tensor noquant / FP8 BLOCK noquant.
(P2) vllm-project/vllm PR #23280 "[Perf] Use upstream CUTLASS for SM90 Block FP8 kernel" (H100 80GB HBM3,
     DeepSeek-V3 N=2112 K=7168): torch BF16 / block-FP8 Triton / block-FP8 CUTLASS.
(P3) pytorch/FBGEMM PR #2546 "Add fp8 row/block-wise scaled GEMMs" (H100 500W): BF16, row-wise FP8 GEMM only,
     block-wise FP8 GEMM only, large shapes.

Rows re-scored (held in bench/, all block-scaled checkpoints):
(G) servoos14: SGLang 0.5.3.post3 Qwen3-8B-FP8 on one H100, C = 4, TPOT (bench/validate_serve_oos14.py).
(Q) servoos14: Qwen3 speed benchmark, SGLang 0.4.6.post1 on the H20, the 18 FP8 rows (same script).
(I) fp8serve12: vLLM issue #25915, Qwen3-8B-FP8 on an H100, 0.8.5 and 0.10.2 (bench/validate_serve_fp8serve12.py).

``after``: the planner's block path (``inference.BLOCK_FP8_GEMM_RATIO``, ``BLOCK_FP8_DECODE_STREAM_RATIO``,
``BLOCK_FP8_QUANTS_PER_LAYER``), switched on for these rows by serving their presets as block-scaled checkpoints
(``ServingModel.block_scaled``, what an imported Qwen3-*-FP8 config.json gives); ``before``: the preset as scored now.

Error convention: published / predicted - 1 (the brief's).
"""
from __future__ import annotations

import contextlib
import dataclasses
import io
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from gpuplanner.core import inference as inf  # noqa: E402
from gpuplanner.core.serving_facts import DECODE_KERNEL_S  # noqa: E402

import validate_serve_fp8serve12 as s12  # noqa: E402
import validate_serve_oos14 as s14  # noqa: E402

# (P1) PR #49363, H100: {(N, K): {rows: (BF16, FP8 tensor-w token-a with quant, FP8 tensor noquant, FP8 block noquant)}}
P1 = {(12288, 5376): {1: (2.870333, 4.733311, 5.162899, 4.907601), 16: (46.541434, 71.740831, 83.053145, 74.557993),
                      64: (182.588263, 275.078859, 318.410871, 263.261886)},
      (43008, 5376): {1: (3.072025, 5.796762, 6.077129, 5.870524), 16: (48.328807, 89.108458, 93.962340, 72.973218),
                      64: (187.994464, 340.803081, 356.667172, 309.152364),
                      128: (364.745064, 615.837656, 647.281778, 667.370105)}}
# (P2) PR #23280, H100, N=2112 K=7168: {rows: (BF16, block Triton, block CUTLASS)}
P2 = {1024: (619.771938, 366.839772, 350.649020), 2048: (648.192575, 396.032348, 426.640953),
      4096: (715.781529, 402.982983, 456.931446), 8192: (666.385367, 406.511360, 489.655688)}
# (P3) FBGEMM PR #2546, H100 500W: {(M, N, K): (BF16, row-wise FP8 GEMM only, block-wise FP8 GEMM only)}
P3 = {(8192, 8192, 8192): (585.23, 1125.51, 870.40), (65536, 8192, 7168): (575.12, 1082.75, 828.34),
      (65536, 3584, 8192): (546.31, 1141.38, 828.31)}

#: activation-quant kernels a dense decoder layer runs before its block GEMMs (QKV, O, gate/up, down), none fused
#: into the norm / activation kernels: SGLang's ``sglang_per_token_group_quant_fp8`` in every block linear; vLLM's
#: ``per_token_group_quant_fp8`` custom op (a Triton kernel Inductor cannot fuse before PR #24342).
QUANTS_PER_LAYER = 4


def decode_stream_ratio() -> float:
    """Median over (P1)'s decode sizes (1-16 rows) of the block GEMM's rate / the per-tensor GEMM's (both noquant)."""
    return statistics.median(r[3] / r[2] for t in P1.values() for n, r in t.items() if n <= 16)


def prefill_rate_ratio() -> float:
    """Median over (P3)'s large shapes of the block-wise FP8 GEMM's rate / the row-wise FP8 GEMM's."""
    return statistics.median(r[2] / r[1] for r in P3.values())


def quant_kernel_s() -> list[float]:
    """(P1)'s activation quant at 1 row: the with-quant time minus the noquant time, seconds per call."""
    return [2 * n * k / (r[1][1] * 1e12) - 2 * n * k / (r[1][2] * 1e12) for (n, k), r in P1.items()]


@contextlib.contextmanager
def block_checkpoints(on=True):
    """The held scripts' presets served as block-scaled checkpoints (``ServingModel.block_scaled``), as the
    Qwen3-*-FP8 configs say (``weight_block_size`` [128, 128]); ``on=False``: as the planner scores a preset."""
    keep = (s14.model, s12.model)

    def wrap(f):
        return lambda preset: dataclasses.replace(f(preset), block_scaled=on)
    s14.model, s12.model = wrap(keep[0]), wrap(keep[1])
    try:
        yield
    finally:
        s14.model, s12.model = keep


def g_rows():
    """(G) SGLang FP8 C=4 TPOT, ms."""
    label, eng, prec, c, tpot, _ = [r for r in s14.GPUSTACK if r[2] == "fp8"][0]
    got = []
    for on in (False, True):
        with block_checkpoints(on):
            got.append(s14.gpustack_modelled(eng, prec, c)[0] * 1e3)
    return [(f"(G) {label} qwen3-8b FP8 H100 C={c} TPOT ms", tpot, *got)]


def q_rows():
    """(Q) the 18 FP8 rows, tok/s: (prompt + 2048) / (first token + 2047 steps)."""
    out = []
    for p, prec, tp, n, meas in s14.rows():
        if prec != "fp8":
            continue
        got = []
        for on in (False, True):
            with block_checkpoints(on):
                got.append(s14.predicted_speed(p, prec, tp, n))
        out.append((f"(Q) {p} FP8 TP{tp} {n}/{s14.OUTPUT} tok/s", meas, *got))
    return out


def i_rows():
    """(I) #25915 FP8 rows, output tok/s of the max-load run."""
    pubs = {f"{r[0]} {r[1]} {r[3]}": r[8] for r in s12.PAIRS}
    got = []
    for on in (False, True):
        with block_checkpoints(on), contextlib.redirect_stdout(io.StringIO()):
            got.append({lab: (1 + e) * pubs[lab] for e, lab in s12.pair_rows() if lab.endswith("fp8")})
    return [(f"(I) {lab} out tok/s", pubs[lab], got[0][lab], got[1][lab]) for lab in got[0]]


def scored():
    return g_rows() + q_rows() + i_rows()


def main():
    rd, rp, tq = decode_stream_ratio(), prefill_rate_ratio(), quant_kernel_s()
    print("## Published block-FP8 kernel figures (H100)\n")
    print("| source | shape | rows | BF16 | FP8 tensor (+quant) | FP8 tensor noquant | FP8 block noquant | block / tensor |")
    print("|---|---|---|---|---|---|---|---|")
    for (n, k), t in P1.items():
        for rows, r in t.items():
            print(f"| vLLM PR #49363 | N={n} K={k} | {rows} | {r[0]:.1f} | {r[1]:.1f} | {r[2]:.1f} | {r[3]:.1f} | "
                  f"{r[3] / r[2]:.3f} |")
    for rows, r in P2.items():
        print(f"| vLLM PR #23280 | N=2112 K=7168 | {rows} | {r[0]:.0f} | - | - | Triton {r[1]:.0f} / CUTLASS {r[2]:.0f} "
              f"| block/BF16 {r[1] / r[0]:.2f} / {r[2] / r[0]:.2f} |")
    for (mm, n, k), r in P3.items():
        print(f"| FBGEMM PR #2546 | M={mm} N={n} K={k} | {mm} | {r[0]:.0f} | - | row-wise {r[1]:.0f} | {r[2]:.0f} | "
              f"{r[2] / r[1]:.3f} |")
    print(f"\ndecode stream ratio (P1, 1-16 rows, median): {rd:.3f}; prefill rate ratio (P3, median): {rp:.3f}; "
          f"activation quant at 1 row (P1): {', '.join(f'{x * 1e6:.1f} us' for x in tq)} "
          f"(planner's fixed kernel time {DECODE_KERNEL_S * 1e6:.1f} us)\n")
    print(f"planner: BLOCK_FP8_GEMM_RATIO {inf.BLOCK_FP8_GEMM_RATIO}, BLOCK_FP8_DECODE_STREAM_RATIO "
          f"{inf.BLOCK_FP8_DECODE_STREAM_RATIO}, BLOCK_FP8_QUANTS_PER_LAYER {inf.BLOCK_FP8_QUANTS_PER_LAYER}\n")
    rows = scored()
    print("## Held block-FP8 rows: scored as per-tensor FP8 (before) and as block-scaled (after), published / predicted - 1\n")
    print("| row | published | before (per-tensor) | after (block-scaled) |")
    print("|---|---|---|---|")
    for lab, pub, b, a in rows:
        print(f"| {lab} | {pub:,.2f} | {b:,.2f} ({pub / b - 1:+.1%}) | {a:,.2f} ({pub / a - 1:+.1%}) |")
    print()
    for name in ("(G)", "(Q)", "(I)"):
        grp = [r for r in rows if r[0].startswith(name)]
        for k, col in ((2, "before"), (3, "after")):
            errs = sorted(abs(r[1] / r[k] - 1) for r in grp)
            signed = statistics.median(r[1] / r[k] - 1 for r in grp)
            print(f"{name} {col}: {len(errs)} rows, median |err| {statistics.median(errs):.1%}, max {errs[-1]:.1%}, "
                  f"signed median {signed:+.1%}")
    return rows


if __name__ == "__main__":
    main()
