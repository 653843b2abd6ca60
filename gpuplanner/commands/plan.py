"""``gpuplanner plan FILE [--top N] [--objective cheapest|fastest|value] [--json]``: what to rent.

Searches GPU types, counts and parallel layouts for the scenario (``data.tokens`` and the ``constraints``
section drive it) and prints the ranked plans. ``--json`` prints
``{"plans": [...], "candidates_evaluated": int, "search_ms": float, ...}``; each plan is the Evaluation of
its complete ``scenario`` (the keys of ``gpuplanner estimate --json``: ``memory_per_gpu_gib`` with
``total``, ``compute_days``, ``calendar_days``, ``cost``, ``currency``, ``rental_mode``, ``scenario`` …) plus
the flat layout keys ``gpu, num_gpus, nodes, tp, pp, dp, zero, recompute, micro_batch_size``, the plan's
``framework`` (``framework_name``, ``framework_searched``, ``framework_reason``: which framework and why),
``mfu_grade`` (good / fair / poor / optimistic), ``rules`` (``[{"id", "status", "passed", "message"}]``: every
planning rule, passed or failed) and its ``explanation`` and ``warnings``. ``skipped`` lists every candidate
GPU left out of the ranking with the reason (``[{"gpu", "gpu_name", "reason"}]``: no price — enter a quote,
below the card class, nothing fits ...). ``gpuplanner estimate`` on a plan's ``scenario`` reproduces it.
"""

from __future__ import annotations

import json

from ._args import positive_int


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "plan",
        help="search GPU types, counts and layouts; print the ranked plans to rent",
        description="Search every candidate GPU type x count x parallel layout that fits in memory, estimate "
        "time and rental cost, and rank them by the objective (cheapest meeting the deadline, fastest within "
        "the budget, or lowest cost per effective PFLOP).",
    )
    p.add_argument("file", metavar="FILE", help="scenario JSON or .gpuplan file")
    p.add_argument("--top", type=positive_int, default=5, metavar="N", help="how many plans to show (default 5)")
    p.add_argument("--objective", choices=("cheapest", "fastest", "value"),
                   help="ranking (default: the scenario's constraints.objective)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(func=run)


def _fmt_money(v: float, cur: str) -> str:
    return f"{v:,.0f} {cur}"


def run(args) -> int:
    from ..core.search import search
    from ..io.scenario_files import load_scenario

    scenario, base_dir = load_scenario(args.file)
    result = search(scenario, base_dir, top=args.top, objective=args.objective)
    if args.json:
        print(json.dumps(result.to_json(), indent=2, ensure_ascii=False))
        return 0
    con = scenario.constraints
    print(f"Tier {result.tier}: {result.tier_guidance}")
    print(f"{result.candidates_evaluated:,} candidates evaluated, {result.candidates_fitting:,} fit and are priced "
          f"({result.search_ms:.0f} ms); objective: {result.objective}")
    if result.frameworks:
        print("frameworks searched: " + ", ".join(result.frameworks))
    for m in result.notes:
        print(f"note: {m.render()}")
    for d in result.skipped:
        print(f"skipped: {d['gpu']} ({d['gpu_name']}): {d['reason'].render()}")
    if not result.plans:
        return 0
    header = ("#", "GPU", "count", "nodes", "framework", "tp", "pp", "dp", "zero", "recompute", "mbs", "GiB/GPU",
              "cal. days", f"cost ({con.currency})", "rental mode", "MFU", "rules failed")
    rows = []
    for i, p in enumerate(result.plans, 1):
        mfu = "-" if p.mfu is None else f"{p.mfu:.0%} {p.mfu_grade}"
        failed = ",".join(r.id for r in p.rules if r.status == "failed") or "-"
        rows.append((str(i), p.gpu, str(p.num_gpus), str(p.nodes), p.framework, str(p.tp), str(p.pp), str(p.dp),
                     str(p.zero), p.recompute, str(p.micro_batch_size),
                     f"{p.memory_per_gpu_gib:.1f}/{p.gpu_memory_gib:g}", f"{p.calendar_days:.1f}", f"{p.cost:,.0f}",
                     p.rental_mode, mfu, failed))
    widths = [max(len(h), *(len(r[k]) for r in rows)) for k, h in enumerate(header)]
    print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)))
    for i, p in enumerate(result.plans, 1):
        print(f"\n{i}. {p.num_gpus} x {p.gpu}: {p.calendar_days:.1f} calendar days ({p.compute_days:.1f} compute), "
              f"{_fmt_money(p.cost, p.currency)}")
        for m in p.framework_reason:
            print(f"   * {m.render()}")
        for m in p.explanation:
            print(f"   - {m.render()}")
        for r in p.rules:
            if r.status != "not_applicable":
                print(f"   {'✓' if r.status == 'passed' else '✗'} [{r.id}: {r.status}] {r.message.render()}")
        for m in p.rental_advice:
            print(f"   $ {m.render()}")
        for m in p.warnings:
            print(f"   ! {m.render()}")
    if result.rent_vs_build is not None:
        rb = result.rent_vs_build
        print(f"\nRent or build ({result.plans[0].num_gpus} x {result.plans[0].gpu}): {rb.sentence.render()}")
        parts = ", ".join(f"{k.replace('_', ' ')} {_fmt_money(v, rb.currency)}" for k, v in rb.own_breakdown.items())
        print(f"   own over {rb.horizon_months:.0f} months: {parts}; rent {_fmt_money(rb.rent_monthly, rb.currency)}/month")
        if rb.missing:
            print(f"   not counted (enter your figures): {', '.join(rb.missing)}")
    if result.pareto:
        print("\nTime vs cost (Pareto front):")
        for q in result.pareto:
            print(f"   {q['num_gpus']:>5} x {q['gpu']:<18} {q['calendar_days']:>8.1f} days  {_fmt_money(q['cost'], con.currency)}")
    return 0
