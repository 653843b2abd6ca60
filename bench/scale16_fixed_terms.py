"""Where a large-scale pre-training step's once-a-step cost goes missing (issue 35, round 16, helper scale16).

Usage: python bench/scale16_fixed_terms.py

Every MLPerf pre-training scaling series the project holds (one benchmark, card, round and code: the rows differ only
in the number of GPUs, hence in the data-parallel size DP and the micro-batches ``m`` each replica runs) is fitted
``step = a + b·m`` by least squares, published and modelled. ``b`` is the per-micro-batch cost, ``a`` what a step
pays once (pipeline fill and drain, the exposed part of the data-parallel collectives, the optimizer step, host
syncs). Round 15 (``docs/notes/2026-12-07/issue-35-r15-scale15.md`` §2) printed the same fit; this script reprints it
on today's model and adds, per row, the model's named once-a-step parts (bubble, fill transfers, exposed and hidden
data-parallel seconds, the compute slowdown under the hidden ones) so a candidate mechanism can be sized against the
gap before it is built. Rows: ``bench/validate_mlperf_oos.py`` and ``bench/validate_pt_oos14.py`` / ``_oos15.py``
(their sources and mappings). Nothing here is fitted into the model.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import validate_mlperf_oos as MO  # noqa: E402
import validate_pt_oos14 as P14  # noqa: E402
import validate_pt_oos15 as P15  # noqa: E402

from gpuplanner.core.estimate import resolve  # noqa: E402
from gpuplanner.core.scenario import scenario_from_dict  # noqa: E402
from gpuplanner.core.timing import time_estimate  # noqa: E402


def _mo_rows():
    for row in MO.ROWS:
        rnd, res, _cfg, bench, system, n, gbs, mbs, tp, pp, cp, vp, step, _how = row
        if bench == "llama2_70b_lora":
            continue
        dp = n // (tp * pp * cp)
        yield (f"{bench} {system} {rnd} (mlperf_oos)", res, n, dp, gbs // (dp * mbs), step, MO.scenario(row))


def _p14_rows():
    for row in P14.ROWS:
        name = f"{row[4]} {row[5]} {row[0]} (pt_oos14)"
        yield (name, row[2], row[6], P14.dp(row), P14.micro_batches(row), row[13], P14.scenario(row))


def _p15_rows():
    for row in P15.MLPERF:
        rnd, _org, res, _cfg, system, n, gbs, tp, cp, step, _s = row
        dp = n // (tp * cp)
        yield (f"llama31_8b {system} {rnd} (pt_oos15)", res, n, dp, gbs // dp, step, P15.mlperf_scenario(row))


def rows() -> list[dict]:
    """Each MLPerf pre-training row with the model's step and its once-a-step parts (seconds)."""
    out = []
    for series, res, n, dp, m, pub, sc in [*_mo_rows(), *_p14_rows(), *_p15_rows()]:
        t = time_estimate(resolve(scenario_from_dict(sc)))
        sec, parts = t.seconds, t.parts
        out.append({"series": series, "run": res, "gpus": n, "dp": dp, "m": m, "pub": pub, "model": t.step_time_s,
                    "bubble": sec.get("pp_bubble", 0.0), "fill": t.p2p_s, "dp_exposed": sec.get("dp_comm", 0.0),
                    "dp_hidden": t.hidden.get("dp_comm", 0.0), "contention": parts.get("overlap_contention", 0.0),
                    "other": sec.get("other", 0.0)})
    return out


def fit(points: list[tuple[float, float]]) -> tuple[float, float] | None:
    """Least-squares ``(a, b)`` of ``y = a + b·x``; None with fewer than two distinct ``x``."""
    xs = [p[0] for p in points]
    if len(set(xs)) < 2:
        return None
    n = len(points)
    mx, my = sum(xs) / n, sum(p[1] for p in points) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in points) / sxx
    return my - b * mx, b


def series_lines(rs: list[dict]) -> list[str]:
    out = ["| series | runs | m | published a (s) / b (ms) | model a (s) / b (ms) | a: model − published | "
           "b: model / published |", "|---|---:|---|---|---|---:|---:|"]
    for name in dict.fromkeys(r["series"] for r in rs):
        sub = [r for r in rs if r["series"] == name]
        fp = fit([(r["m"], r["pub"]) for r in sub])
        fm = fit([(r["m"], r["model"]) for r in sub])
        if fp is None or fm is None:
            continue
        ms = ", ".join(str(m) for m in sorted({r["m"] for r in sub}))
        out.append(f"| {name} | {len(sub)} | {ms} | {fp[0]:.3f} / {1e3 * fp[1]:.1f} | {fm[0]:.3f} / {1e3 * fm[1]:.1f} "
                   f"| {fm[0] - fp[0]:+.3f} | {fm[1] / fp[1]:.3f} |")
    return out


def row_lines(rs: list[dict]) -> list[str]:
    out = ["| series | run | GPUs | DP | m | published s | model s | error | bubble | fill | DP exposed | DP hidden | "
           "contention |", "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rs:
        out.append(f"| {r['series']} | {r['run']} | {r['gpus']} | {r['dp']} | {r['m']} | {r['pub']:.4f} | "
                   f"{r['model']:.4f} | {r['pub'] / r['model'] - 1:+.1%} | {r['bubble']:.3f} | {r['fill']:.3f} | "
                   f"{r['dp_exposed']:.3f} | {r['dp_hidden']:.3f} | {r['contention']:.3f} |")
    return out


def _with_extra(delta: float, min_dp: int):
    """``time_estimate`` with ``delta`` seconds added to every Megatron step whose data-parallel size is at least
    ``min_dp`` (a what-if of an unsourced once-a-step cost: it sizes what such a term does to the bands)."""
    import dataclasses

    import validate_bridge_dense as vbd
    import validate_time as V

    from gpuplanner.core import timing

    def est(r):
        t = timing.time_estimate(r)
        s = r.scenario
        if delta <= 0.0 or s.training.framework != "megatron" or s.dp < min_dp:
            return t
        step = t.step_time_s + delta
        return dataclasses.replace(t, step_time_s=step, tokens_per_s_per_gpu=t.tokens_per_s_per_gpu
                                   * t.step_time_s / step)
    for mod in (V, vbd):
        mod.time_estimate = est
    globals()["time_estimate"] = est
    return V


def tie_lines(deltas=(0.0, 0.05, 0.1, 0.2, 0.3), min_dps=(1, 32, 64)) -> list[str]:
    """What a once-a-step cost of ``delta`` seconds (Megatron runs with DP ≥ ``min_dp``) does to the MLPerf series
    and to the narrowest validation band (``bench/validation_bands.py``): √2 × its half-width against the ties."""
    import math

    import validation_bands as VB

    out = ["| extra s a step | applied at DP ≥ | MLPerf rows median / p90 |error| | megatron band p10 / p90 | "
           "√2 × half-width |", "|---:|---:|---|---|---:|"]
    for min_dp in min_dps:
        for d in deltas:
            V = _with_extra(d, min_dp)
            rs = rows()
            errs = sorted(abs(r["pub"] / r["model"] - 1) for r in rs)
            med, p90 = errs[len(errs) // 2], errs[int(0.9 * (len(errs) - 1))]
            b = VB.bands([V.run_row(r) for r in V.throughput_rows()])["megatron"]
            half = (b["p90"] - b["p10"]) / 2
            out.append(f"| {d:.2f} | {min_dp} | {med:.1%} / {p90:.1%} | {b['p10']:.3f} / {b['p90']:.3f} | "
                       f"{math.sqrt(2) * half:.4f} |")
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--ties" in argv:
        print("\n".join(tie_lines()))
        return 0
    rs = rows()
    print("\n".join(series_lines(rs)))
    print()
    print("\n".join(row_lines(rs)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
