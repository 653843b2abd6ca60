"""Issue 35, round 14 (serve14): three serving misses left by round 13, each checked against what the engines' code
and published kernel tables show, and scored as a sensitivity (nothing here changes the planner). Run:
``python bench/validate_serve_serve14.py`` (``--rows``: every moved row of (B) as well).

Error convention: **published / predicted - 1** (the brief's) in the tables of this script; the r8-r12 scripts'
modelled / published - 1 where a summary line is copied from ``scripts/validate_inference.py`` (its own convention).

(A) vLLM's 8-bit decode cost per step. vllm-project/vllm PR #49363 ("[Benchmark] Add FP8 block-scaled GEMM to
    fp8_gemm benchmark", ``benchmarks/kernels/bench_fp8_gemm.py`` on one H100 SXM, TFLOP/s): gemma-4-31B
    N=12288 K=5376 at 1 row: torch BF16 2.87, FP8 per-tensor weight / per-token activation 4.73 (with the
    ``scaled_fp8_quant`` of the input), 5.16 without it; N=43008 K=5376: 3.072, 5.797, 6.077. With the planner's fixed
    kernel time (``serving_facts.DECODE_KERNEL_S``, 2.7 us) split off, the CUTLASS FP8 GEMM streams its weights at
    0.95-1.01 of the BF16 GEMM's share and the quantize kernel adds 2.3-3.7 us a call — the planner's one-kernel
    figure. How many quantize kernels a vLLM V1 decode step runs: ``docs/design/fusions.md`` (vllm @033b794b): on
    NVIDIA "Inductor actually generates a faster fused kernel" for RMSNorm + quant and SiLU-and-mul + quant, so the
    inputs of QKV, gate/up and down are quantised inside kernels the step runs anyway; the O-projection's input (the
    attention output: attention is a graph-splitting op) is quantised alone: one extra kernel a layer.
(B) The decode GEMMs' compute roof. ``timing.GEN_EFFICIENCY`` (Hopper 0.55) is a training step's share (llm-foundry
    H100 39.8-46.4% MFU, 51-57% HFU; Megatron-LM 41-48% MFU: gpu-catalog.md section 4.1, the module docstring of
    ``core.timing``), below the MAMF finder's matmul ceiling (``timing.MAMF_TFLOPS``: H100 794.5 of 989 = 0.803). The
    decode step charges its GEMMs ``GEN_EFFICIENCY x 1/(1 + D0/width) x 1/(1 + T0/rows)`` and its other kernels apart
    (``inference.decode_kernels_s``). Published H100 BF16 GEMMs at decode sizes (cuBLAS through ``torch.mm``, vLLM's
    kernel benchmarks): PR #23280 (N=2112 K=7168, H100 80GB HBM3) 275.7 / 401.9 / 566.3 / 619.8 / 648.2 / 715.8
    TFLOP/s at 128 / 256 / 512 / 1,024 / 2,048 / 4,096 rows; PR #49363 (N=43008 K=5376) 364.7 / 593.3 at 128 / 256
    rows. Divided by the planner's row factor they give the share a decode GEMM reaches: printed below.
(C) TensorRT-LLM v0.9 "Peak Throughput" Mistral 7B / Mixtral 8x7B rows on Hopper (perf-overview.md as of v0.9.0,
    held in ``scripts/validate_inference.py``). The page: its GQA (XQA) kernels "are currently experimental and not
    enabled by default", ``export TRTLLM_ENABLE_XQA=1`` appears only in its Llama-2-70B and Falcon-180B commands, and it
    gives no Mistral / Mixtral command; every engine it builds has ``--paged_kv_cache disable``. TensorRT-LLM's
    release notes (``docs/source/release-notes.md``): 0.10.0 "Added FP8 quantization support for Mixtral" and
    "Integrated the new NVIDIA Hopper XQA kernels for LLaMA 2 70B model"; 0.8.0 "Add bfloat16 and paged kv cache
    support for optimized generation MQA/GQA kernels". Two readings, each scored: Mistral/Mixtral decode attention in
    the masked MHA kernel, one KV pass per query head (``inference.attention_kv_passes(grouped_kernel=False)``); and
    Mixtral at 16 bits (no FP8 Mixtral before 0.10).
"""
from __future__ import annotations

import contextlib
import io
import os
import runpy
import statistics
import sys

from gpuplanner.core import inference as inf
from gpuplanner.core import timing as T
from gpuplanner.core.catalog_hw import get_gpu
from gpuplanner.core.estimate import resolve
from gpuplanner.core.scenario import Scenario
from gpuplanner.core.serving_facts import DECODE_KERNEL_S

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
H100 = "h100-sxm-80gb"
# (A) PR #49363, H100, batch 1: (N, K, BF16, FP8 with the activation quant, FP8 without) TFLOP/s
PR49363_B1 = [(12288, 5376, 2.87, 4.73, 5.16), (43008, 5376, 3.072025, 5.796762, 6.077129)]
# (B) H100 BF16 GEMM TFLOP/s by rows: {(source, N, K): {rows: TFLOP/s}}
H100_BF16_GEMM = {
    ("vLLM PR #23280", 2112, 7168): {128: 275.740510, 256: 401.863069, 512: 566.262626, 1024: 619.771938,
                                     2048: 648.192575, 4096: 715.781529},
    ("vLLM PR #49363", 43008, 5376): {128: 364.745064, 256: 593.264799},
}
# (A) silybench vLLM 0.30 (V1) on one H100 SXM, Qwen3-8B, ITL median ms at concurrency 1 (bench/validate_serve_vllm12.py)
SILY_ITL = [("chat-128-128", 128, 128, 6.8255, 4.6183), ("prefill-1024-128", 1024, 128, 6.8887, 4.6963),
            ("decode-128-1024", 128, 1024, 6.8579, 4.6620), ("balanced-2048-2048", 2048, 2048, 6.9976, 4.7958),
            ("longctx-8192-512", 8192, 512, 7.3006, 5.1041)]
# (B) sensitivity modes: decode GEMM share multiplied per generation / precision
MODES = {
    "ceiling, 16-bit, every generation": ("all-gens", False),
    "ceiling, 16-bit, Hopper": ("hopper", False),
    "0.71 (the H100 tables' level), 16-bit, Hopper": ("hopper71", False),
    "ceiling, 16- and 8-bit, Hopper": ("hopper", True),
}


def gemm_time_s(n, k, rows, tflops):
    return 2.0 * n * k * rows / (tflops * 1e12)


def pr49363_split():
    """[(N, K, BF16 us, FP8 us without quant, BF16 stream share, FP8 stream share, quantize us)] of PR #49363's batch-1
    rows: each GEMM's time less the planner's fixed kernel time is its weights over the share of the H100's bandwidth."""
    bw = float(get_gpu(H100).mem_bw_tbs) * 1e12
    out = []
    for n, k, bf, fq, fn in PR49363_B1:
        tb, tq, tn = (gemm_time_s(n, k, 1, x) for x in (bf, fq, fn))
        out.append((n, k, tb * 1e6, tn * 1e6, n * k * 2 / ((tb - DECODE_KERNEL_S) * bw),
                    n * k / ((tn - DECODE_KERNEL_S) * bw), (tq - tn) * 1e6))
    return out


def fp8_decode_lines():
    """(A): the kernel figures PR #49363 gives, and the silybench FP8 ITL rows with one quantize kernel a layer."""
    out = ["| N x K (H100, 1 row) | BF16 GEMM us | FP8 GEMM us (no quant) | BF16 stream share | FP8 stream share | "
           "FP8 / BF16 | quantize kernel us |", "|---|---|---|---|---|---|---|"]
    for n, k, tb, tn, sb, sf, tq in pr49363_split():
        out.append(f"| {n} x {k} | {tb:.1f} | {tn:.1f} | {sb:.3f} | {sf:.3f} | {sf / sb:.3f} | {tq:.1f} |")
    m, g = _model("qwen3-8b"), get_gpu(H100)
    extra = m.num_layers * DECODE_KERNEL_S
    out += ["", f"One quantize kernel a layer (the O-projection's input), {m.num_layers} layers x "
                f"{DECODE_KERNEL_S * 1e6:.1f} us = {extra * 1e3:.3f} ms a decode step:", "",
            "| silybench row (Qwen3-8B, H100, vLLM 0.30) | BF16 ITL pub / model (err) | FP8 ITL published | "
            "FP8 model now (err) | + quantize kernels (err) |", "|---|---|---|---|---|"]
    for name, p, o, itl16, itl8 in SILY_ITL:
        t16, t8 = (inf.decode_step_s(m, g, precision=pr, kv_bytes=inf.KV_BYTES["bf16"], batch=1, context=p + o / 2,
                                     tp=1, eff=inf.ServingEfficiency(), loop=inf.ENGINE_LOOP["vllm"])[0] * 1e3
                   for pr in ("bf16", "fp8"))
        t8q = t8 + extra * 1e3
        out.append(f"| {name} | {itl16:.2f} / {t16:.2f} ({itl16 / t16 - 1:+.1%}) | {itl8:.2f} | {t8:.2f} "
                   f"({itl8 / t8 - 1:+.1%}) | {t8q:.2f} ({itl8 / t8q - 1:+.1%}) |")
    return out


def implied_shares():
    """[(source, N, K, rows, TFLOP/s, row factor, share before the row factor)] of the H100 BF16 GEMM tables."""
    peak = float(get_gpu(H100).bf16_tflops)
    return [(src, n, k, rows, tf, 1.0 / (1.0 + T.T0 / rows), tf / peak * (1.0 + T.T0 / rows))
            for (src, n, k), by_rows in H100_BF16_GEMM.items() for rows, tf in by_rows.items()]


def implied_share_lines():
    """(B): the share of the H100's 989 BF16 TFLOP/s each published GEMM reaches after the planner's row factor."""
    peak = float(get_gpu(H100).bf16_tflops)
    g, s = T.GEN_EFFICIENCY["hopper"], inf.matmul_ceiling_16bit("hopper")
    out = [f"GEN_EFFICIENCY hopper {g:.3f}; MAMF ceiling {s:.3f} (794.5 / 989)", "",
           "| source | N x K | rows | TFLOP/s | share of 989 | row factor 1/(1+128/rows) | share before the row factor "
           "| planner now (g) | at the ceiling (s) |", "|---|---|---|---|---|---|---|---|---|"]
    implied = []
    for src, n, k, rows, tf, f, share in implied_shares():
        implied.append(share)
        out.append(f"| {src} | {n} x {k} | {rows} | {tf:.1f} | {tf / peak:.3f} | {f:.3f} | {share:.3f} | "
                   f"{g * f * peak:.0f} | {s * f * peak:.0f} |")
    out.append(f"share before the row factor: median {statistics.median(implied):.3f}, "
               f"range {min(implied):.3f}-{max(implied):.3f}")
    return out


@contextlib.contextmanager
def decode_share(mode, eight_bit):
    """Decode GEMMs (those :func:`inference.decode_step_s` charges) at another share for the ``with`` body."""
    orig_ge, orig_ds, depth = inf.gemm_efficiency, inf.decode_step_s, [0]

    def ge(m, gpu, precision, tokens, tp, t0=None, forward=False):
        e = orig_ge(m, gpu, precision, tokens, tp, t0=t0, forward=forward)
        gen = T.gpu_generation(gpu)
        if depth[0] and not forward and (eight_bit or precision not in ("fp8", "int8")) and \
                (mode == "all-gens" or gen == "hopper"):
            e *= (0.71 if mode == "hopper71" else inf.matmul_ceiling_16bit(gen)) / T.GEN_EFFICIENCY[gen]
        return e

    def ds(*a, **k):
        depth[0] += 1
        try:
            return orig_ds(*a, **k)
        finally:
            depth[0] -= 1

    inf.gemm_efficiency, inf.decode_step_s = ge, ds
    try:
        yield
    finally:
        inf.gemm_efficiency, inf.decode_step_s = orig_ge, orig_ds


def run_inference():
    """(summary lines, {label: signed model/pub - 1}) of scripts/validate_inference.py run in this process."""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        env = runpy.run_path(os.path.join(ROOT, "scripts", "validate_inference.py"), run_name="validate_inference")
    rows = {}
    for v in list(env.values()):
        for x in (v if isinstance(v, (list, tuple)) else list(v.values()) if isinstance(v, dict) else [v]):
            for part in (x if isinstance(x, (list, tuple)) and x and hasattr(x[0], "rows") else [x]):
                for e, lab in getattr(part, "rows", []) or []:
                    rows[lab] = e
    summary = [ln for ln in buf.getvalue().splitlines() if "rows, median" in ln]
    return summary, rows


def decode_share_lines(show_rows):
    """(B): scripts/validate_inference.py's summaries (its convention: model / published - 1) under each mode."""
    base_sum, base_rows = run_inference()
    out = []
    for name, (mode, eight) in MODES.items():
        with decode_share(mode, eight):
            s, r = run_inference()
        out += ["", f"decode GEMMs at {name}: summaries that move (before -> after)"]
        out += [f"  {a.strip()}  ->  {b.split(':', 1)[-1].strip()}" for a, b in zip(base_sum, s) if a != b]
        moved = sorted((lab for lab in base_rows if lab in r and abs(abs(r[lab]) - abs(base_rows[lab])) > 0.02),
                       key=lambda lab: abs(r[lab]) - abs(base_rows[lab]))
        out.append(f"  rows whose |error| moves by more than 2 points: {len(moved)} "
                   f"({sum(abs(r[x]) < abs(base_rows[x]) for x in moved)} better)")
        if show_rows:
            out += [f"    {lab:<90} {base_rows[lab]:+7.1%} -> {r[lab]:+7.1%}" for lab in moved]
    return out


def _model(preset):
    r = resolve(Scenario.model_validate({"model": {"preset": preset}}))
    return inf.ServingModel.of(r.arch, r.params)


def v09_rows(mistral_passes, mixtral16):
    """(C): [(label, published, predicted)] of the v0.9 Mistral / Mixtral fixed-batch rows."""
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        import validate_inference as vi  # noqa: E402 (the held rows)
    out = []
    for g, models in vi.V09_THR.items():
        for p, tps, batches, vals in models:
            if not p.startswith(("mistral", "mixtral")):
                continue
            m = _model(p)
            prec = "bf16" if g.startswith("a100") or (mixtral16 and p.startswith("mixtral")) else "fp8"
            passes = inf.attention_kv_passes(m, grouped_kernel=not mistral_passes)
            tps = tps if isinstance(tps, tuple) else (tps,) * 4
            for (i, o), tp, b, meas in zip(vi.V09_LENS, tps, batches, vals):
                v = inf.static_batch_tokens_per_s_per_gpu(m, get_gpu(g), batch=b, prompt_tokens=i, output_tokens=o,
                                                          precision=prec, tp=tp, kv_passes=passes)
                out.append((f"v0.9 {p} {g} TP{tp} b{b} {i}/{o}", meas, v))
    return out


def v09_lines():
    base, npass, m16, both = (v09_rows(a, b) for a, b in ((False, False), (True, False), (False, True), (True, True)))
    out = ["| row | published | scored now | one KV pass per query head | Mixtral 16-bit | both |",
           "|---|---|---|---|---|---|"]
    for r0, r1, r2, r3 in zip(base, npass, m16, both):
        out.append(f"| {r0[0]} | {r0[1]:,} | " + " | ".join(f"{x[2]:,.0f} ({x[1] / x[2] - 1:+.0%})"
                                                          for x in (r0, r1, r2, r3)) + " |")
    for name, rs in (("scored now", base), ("one KV pass per query head", npass), ("Mixtral 16-bit", m16),
                     ("both", both)):
        for sub in ("mistral", "mixtral"):
            errs = sorted(abs(pub / v - 1) for lab, pub, v in rs if sub in lab)
            out.append(f"  {name}, {sub}: {len(errs)} rows, median {statistics.median(errs):.1%}, "
                       f"p90 {errs[min(len(errs) - 1, int(round(0.9 * (len(errs) - 1))))]:.1%}")
    return out


def main(argv):
    print("## (A) vLLM 8-bit decode: what PR #49363's H100 table gives per GEMM and per step\n")
    print("\n".join(fp8_decode_lines()))
    print("\n## (B) the decode GEMMs' share: H100 BF16 GEMMs at decode sizes\n")
    print("\n".join(implied_share_lines()))
    print("\n".join(decode_share_lines("--rows" in argv)))
    print("\n## (C) TensorRT-LLM v0.9 Mistral / Mixtral fixed batch (published / predicted - 1)\n")
    print("\n".join(v09_lines()))


if __name__ == "__main__":
    main(sys.argv[1:])
