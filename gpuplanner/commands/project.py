"""``gpuplanner project FILE [--json]``: the plan's project — every phase sized and priced, the total, the
timeline and the what-if table of the main training phase (:func:`gpuplanner.core.project.evaluate_project`).

A plan file without a project (or a scenario JSON) is one phase running its plan. ``--json`` prints
:meth:`ProjectResult.to_json`: ``phases`` (each with ``name``, ``kind``, ``weeks``, ``hours_per_week``,
``gpu`` or ``cpu``, ``count``, ``rental_mode``, ``cost`` …), ``total_cost`` (the sum of the phases),
``currency``, ``timeline`` (week by week), ``overlap_advice``, ``rent_vs_build`` and ``what_if`` (entries with
``change`` = ``params_x2``, ``tokens_x10``, ``upgrade_gpus`` and ``fits``, ``calendar_days``, ``cost``,
``in_place_upgrade``, ``layout_changes``).
"""

from __future__ import annotations

import json
from pathlib import Path

from ..core.project import KIND_LABELS, evaluate_project, single_phase_project
from ..io.model_files import ModelFiles
from ..io.scenario_files import load_scenario


def register(sub) -> None:
    p = sub.add_parser("project", help="the project: phases (CPU preprocessing, research, training, inference), "
                                       "one cost, the timeline and what-if growth")
    p.add_argument("file", help=".gpuplan file (its project) or scenario JSON (one phase)")
    p.add_argument("--json", action="store_true", help="print a JSON object instead of a table")
    p.set_defaults(func=run)


def load_project(path: str | Path):
    """(project, base scenario, model source, checklist state) for a plan file or a scenario JSON."""
    path = Path(path)
    from ..io import planfile

    is_plan = path.suffix.lower() == planfile.SUFFIX
    if not is_plan:
        scenario, models = load_scenario(path)
        return single_phase_project(scenario), scenario, models, {}
    doc, _warnings = planfile.load(path)
    base_dir = path.resolve().parent
    scenario = planfile.scenario_for_estimate(doc, base_dir, path.name, selected=True)
    project = doc.project or single_phase_project(scenario)
    return project, scenario, ModelFiles(base_dir, confine=True), doc.checklist_state()


def _money(v, cur: str) -> str:
    return "no price" if v is None else f"{v:,.0f} {cur}"


def run(args) -> int:
    project, scenario, models, checklist = load_project(args.file)
    res = evaluate_project(project, scenario, models, checklist=checklist)
    data = res.to_json()
    if args.json:
        print(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))
        return 0
    cur = res.currency
    lines = [f"{'phase':<22}{'kind':<20}{'weeks':>12}{'h/week':>8}  {'resources':<34}{'rental':<14}{'cost':>16}"]
    for p in res.phases:
        what = f"{p.count} × {p.device_name or p.device}" if p.resource == "gpu" else f"{p.nodes} node(s), {p.count} cores"
        lines.append(f"{p.name[:21]:<22}{KIND_LABELS[p.kind][:19]:<20}{p.start_week:>5.1f}–{p.end_week:<5.1f} "
                     f"{p.hours_per_week:>7.0f}  {what[:33]:<34}{(p.rental_mode or '-'):<14}{_money(p.cost, cur):>16}")
        if p.serving is not None:
            s = p.serving
            lines.append(f"{'':<22}serving: tp={s.tp}, {s.batch_per_replica} users per replica, {s.replicas} "
                         f"replica(s), {s.tokens_per_s_per_gpu:,.0f} tokens/s per GPU ({s.bound} bound), "
                         f"{_money(p.cost_per_million_tokens, cur)} per million tokens"
                         if p.cost_per_million_tokens is None else
                         f"{'':<22}serving: tp={s.tp}, {s.batch_per_replica} users per replica, {s.replicas} "
                         f"replica(s), {s.tokens_per_s_per_gpu:,.0f} tokens/s per GPU ({s.bound} bound), "
                         f"{p.cost_per_million_tokens:,.2f} {cur} per million tokens")
        if p.cpu is not None:
            lines.append(f"{'':<22}CPU: {p.cpu.data_gb:,.0f} GB at {p.cpu.mb_s_per_core:.2f} MB/s per core = "
                         f"{p.cpu.core_hours:,.0f} core-hours")
        for m in p.messages:
            lines.append(f"{'':<22}! {m.render()}")
    lines.append("")
    lines.append(f"Total        {_money(res.total_cost, cur)} over {res.total_weeks:.1f} weeks")
    if res.by_mode:
        lines.append("By rental    " + ", ".join(f"{k} {_money(v, cur)}" for k, v in res.by_mode.items()))
    for m in res.overlap_advice:
        lines.append(f"Overlap      {m.render()}")
    if res.rent_vs_build is not None:
        lines.append(f"Rent/build   {res.rent_vs_build.sentence.render()}")
    for m in res.messages:
        lines.append(f"! {m.render()}")
    if res.what_if:
        lines += ["", f"What if ({res.main_phase})",
                  f"  {'change':<14}{'fits':<6}{'days':>8}{'cost':>16}  {'GPUs':>5}  {'in place':<9}layout changes"]
        for w in res.what_if:
            days = "-" if w.calendar_days is None else f"{w.calendar_days:.1f}"
            lines.append(f"  {w.change:<14}{('yes' if w.fits else 'no'):<6}{days:>8}{_money(w.cost, cur):>16}  "
                         f"{(w.gpus_needed or w.num_gpus):>5}  {('yes' if w.in_place_upgrade else 'no'):<9}"
                         f"{', '.join(w.layout_changes) or '-'}")
            if w.note is not None:
                lines.append(f"    {w.note.render()}")
    print("\n".join(lines))
    return 0
