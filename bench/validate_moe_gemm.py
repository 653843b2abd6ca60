"""Could the grouped expert GEMMs be where the Megatron-Bridge MoE rows' time goes? Row by row, against published rates.

Usage: python bench/validate_moe_gemm.py

Issue 35 round 9 (helper moe12). For every row of the MoE table (``validate_time.BRIDGE_MOE``) and of the out-of-sample
table (``validate_moe_oos.BRIDGE_MOE_OOS``) this prints the shapes of one local expert's GEMMs per micro-batch, the rate
the model gives them, the time the model gives all of one layer's expert GEMMs on one GPU, the row's gap
(``validate_moe_gap``: published − predicted, per layer and micro-batch), and the rate the expert GEMMs would have to
run at for the gap to be theirs alone (``implied``). Nothing here changes the model.

Shapes (Megatron-Core ``TEGroupedMLP`` over TE ``GroupedLinear``; each local expert multiplies the rows routed to it):
rows per expert ``= MBS × sequence / TP × EP × k / E`` (the tokens are split over the TP ranks before dispatch,
sequence parallelism; the all-to-all brings the EP ranks' tokens to the expert's owner); fc1 is
``rows × (2 f if gated else f) × h``, fc2 ``rows × h × f``; forward, data gradient and weight gradient each move the
same FLOPs (``3 × 2 × rows × (fc1 N + h) × f`` per expert and micro-batch, gated: ``6 × rows × 3 h f``).

The model's rate for them (``timing._moe_terms``, ``time_gpu``): ``peak × gen_efficiency × size_exp × fp8_gemm_scale``
(``gen_efficiency`` × ``FP8_EFFICIENCY_RATIO`` under FP8, ``GpuTimeFacts.kwargs``)
with ``size_exp = 1/(1 + D0 / f) × 1/(1 + T0 / rows)`` and the per-expert launch and FP8 quantisation kernels on top
(``moe_gemm_launch``: 2.7 µs each).

Published rates for such GEMMs (the only ones found with the shapes stated):

- TransformerEngine PR #2045 (``general_grouped_gemm``, TE 2.7, CUDA 12.9, H100 SXM, BF16): 8 experts × 4,096 rows ×
  N 768 × K 2,048: 627.9 TFLOP/s; 16 × 2,048 × 768 × 2,048: 553.9 TFLOP/s (63% and 56% of the 989.4 dense peak).
- deepseek-ai/DeepGEMM ``README.md`` at 989c9e3 (2025-04-09; H800 SXM5, FP8 with 1×128/128×128 scaling, one kernel for
  all groups): contiguous layout, 4,096–8,192 rows per group: 1,214–1,346 TFLOP/s (61–68% of 1,979); masked layout,
  256–1,024 rows: 815–1,233 TFLOP/s (925–1,233 at 1,024 rows). The lowest published rate at ≥ 2,048 rows per expert is
  therefore 56% of the dense peak (H100 BF16) and 61% (H800 FP8); at 1,024 rows 47%.
- Blackwell (B200, GB200; MXFP8 or BF16): no published grouped-GEMM rate with the shape stated was found (TE issue
  #2281 posts B200 ``GroupedLinear`` timings for DeepSeek-V3 shapes in an image-free code block that the stored copy
  cuts off; the TE benchmark script ``benchmarks/linear/benchmark_grouped_linear.py`` prints no reference numbers).

``implied`` is ``FLOPs / (model expert-GEMM time + gap)``; ``/ peak`` is it as a share of the dense peak of the row's
precision. Where the gap is negative (the model is too slow) the GEMMs would have to be faster than modelled.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

#: The lowest published grouped-GEMM rate (share of the dense peak of the precision) at 2,048 rows per expert or more
#: (module docstring): TE PR #2045, H100 BF16, 553.9 / 989.4; DeepGEMM README 989c9e3, H800 FP8, 1,214 / 1,979.
PUBLISHED_MIN_SHARE = {("hopper", "bf16"): 553.9 / 989.4, ("hopper", "fp8"): 1214.0 / 1979.0}
#: Below 2,048 rows per expert (the rows here have 1,024): DeepGEMM's lower grouped rate at 1,024 rows (masked layout,
#: 1,024 × 7168 × 2048: 925 / 1,979), taken for either Hopper precision (TE PR #2045 has no BF16 figure below 2,048 rows).
PUBLISHED_MIN_SHARE_FEW_ROWS = 925.0 / 1979.0


def expert_shapes(r) -> dict:
    """One local expert's GEMM rows and widths per micro-batch, and the expert GEMM FLOPs of one MoE layer and
    micro-batch on one GPU (forward, data gradient, weight gradient)."""
    a, s = r.arch, r.scenario
    p, t = s.parallel, s.training
    ep, tp = p.ep, p.tp
    rows = t.micro_batch_size * t.seq_len / tp * ep * a.num_experts_per_tok / a.num_experts
    f, h = a.moe_intermediate_size / max(p.expert_tp, 1), a.hidden_size
    n1 = 2 * f if a.gated_mlp else f
    local = a.num_experts / ep
    flops = 3.0 * 2.0 * rows * (n1 * h + h * f) * local
    return {"rows": rows, "fc1": (rows, n1, h), "fc2": (rows, h, f), "local": local, "flops": flops}


def gemm_result(row, table: str) -> dict:
    """The model's expert-GEMM rate and time for one row, its gap, and the rate that would close the gap."""
    import validate_moe_gap as gap
    from gpuplanner.core import fp8 as fp8mod
    from gpuplanner.core import timing as T
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import scenario_from_dict

    sc = gap._scenario(row)
    r = resolve(scenario_from_dict(sc))
    kw, gf = T.time_kwargs(r)
    sh = expert_shapes(r)
    prec = r.scenario.training.precision
    scale = 1.0
    if prec == "fp8":
        scale = fp8mod.recipe_for("megatron", kw.get("fp8_recipe")).gemm_ratio / T.FP8_EFFICIENCY_RATIO
    f = sh["fc2"][2]
    size_exp = 1.0 / (1.0 + T.D0 / f) / (1.0 + T.T0 / sh["rows"])
    rate = kw["peak_tflops"] * 1e12 * kw["gen_efficiency"] * size_exp * scale  # GpuTimeFacts.kwargs: FP8's 0.7 in
    t_gemm = sh["flops"] / rate
    g = gap.gap_result(row, table)
    t_gap = g["gap"] / 1e3
    implied = sh["flops"] / (t_gemm + t_gap) if t_gemm + t_gap > 0 else float("inf")
    # (b) the gap as 16-bit passes of width h over the GPU's routed copies at the model's HBM rate, beside the passes
    # the model already prices per copy (permute/unpermute, FP8 pad, bias, the all-to-all dispatcher's second sort)
    a, p = r.arch, r.scenario.parallel
    copies = r.scenario.training.micro_batch_size * r.scenario.training.seq_len / p.tp * a.num_experts_per_tok
    bw = kw["mem_bw_tbs"] * 1e12 * T.MEM_BW_EFFICIENCY
    passes_gap = t_gap * bw / (copies * a.hidden_size * 2.0)
    m = r.facts
    passes_model = (T.MOE_PERMUTE_ELEMS_PER_COPY + T.moe_copy_elems(m, "megatron", prec)
                    + T.moe_sort_elems(m, "megatron", p.ep, moe_dispatcher=kw.get("moe_dispatcher")))
    gen = T.gpu_generation(r.gpu)
    return {"table": table, "row": row, "rows": sh["rows"], "fc1": sh["fc1"], "fc2": sh["fc2"], "local": sh["local"],
            "rate": rate / 1e12, "share": rate / (gf.peak_tflops * 1e12), "t_gemm": 1e3 * t_gemm, "gap": g["gap"],
            "implied": implied / 1e12, "implied_share": implied / (gf.peak_tflops * 1e12), "err": g["err"],
            "gen": gen, "prec": "fp8" if prec == "fp8" else "bf16", "pub": g["pub"], "passes_gap": passes_gap,
            "passes_model": passes_model}


def gemm_results() -> list[dict]:
    import validate_moe_oos as oos
    import validate_time as vt

    return ([gemm_result(row, "MoE table") for row in vt.BRIDGE_MOE if row[0][:1].isdigit()]
            + [gemm_result(row, "out-of-sample") for row in oos.BRIDGE_MOE_OOS])


def verdict(res: dict) -> str:
    """Whether the expert GEMMs can carry the row's gap, against the published rates."""
    if res["gap"] <= 0:
        return "model too slow: GEMMs would have to be faster than modelled"
    floor = PUBLISHED_MIN_SHARE.get((res["gen"], res["prec"]))
    if floor is not None and res["rows"] < 2048:
        floor = PUBLISHED_MIN_SHARE_FEW_ROWS
    if floor is None:
        return "no published rate for this GPU and precision"
    if res["implied_share"] < floor:
        return f"no: needs {res['implied_share']:.0%} of peak, published ≥ {floor:.0%}"
    return "possible"


def gemm_rows() -> list[str]:
    res = gemm_results()
    out = ["| table | release | system | model | MBS | TP/PP/VP/EP | local experts | rows per expert | fc1 (M×N×K) | "
           "fc2 (M×N×K) | model rate TFLOP/s (share of peak) | expert GEMMs ms | gap ms | implied TFLOP/s (share) | "
           "error | can the GEMMs carry the gap? | gap as passes over the routed copies (model's) |",
           "|---|---|---|---|---:|---|---:|---:|---|---|---:|---:|---:|---:|---:|---|---:|"]
    for x in res:
        rel, system, model, _p, _n, _g, mbs, _s, tp, pp, vp, ep = x["row"][:12]
        fc1 = "×".join(f"{v:,.0f}" for v in x["fc1"])
        fc2 = "×".join(f"{v:,.0f}" for v in x["fc2"])
        imp = "—" if x["gap"] <= 0 else f"{x['implied']:,.0f} ({x['implied_share']:.0%})"
        out.append(f"| {x['table']} | {rel} | {system} | {model} | {mbs} | {tp}/{pp}/{vp}/{ep} | {x['local']:.0f} | "
                   f"{x['rows']:,.0f} | {fc1} | {fc2} | {x['rate']:,.0f} ({x['share']:.0%}) | {x['t_gemm']:.2f} | "
                   f"{x['gap']:+.2f} | {imp} | {x['err']:+.0%} | {verdict(x)} | "
                   f"{x['passes_gap']:+.0f} ({x['passes_model']:.0f}) |")
    pos = [x for x in res if x["gap"] > 0]
    out += ["", f"Rows the model predicts too fast: {len(pos)} of {len(res)}. Median gap / model expert-GEMM time: "
                f"{statistics.median(x['gap'] / x['t_gemm'] for x in pos):.2f}."]
    return out


def main() -> int:
    print("\n".join(gemm_rows()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
