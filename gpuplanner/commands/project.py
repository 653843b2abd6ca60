"""``gpuplanner project FILE [--json]``: the plan's project — every phase sized and priced, the total, the
timeline and the what-if table of the main training phase (:func:`gpuplanner.core.project.evaluate_project`).

A plan file without a project (or a scenario JSON) is one phase running its plan. ``--json`` prints
:meth:`ProjectResult.to_json`: ``phases`` (each with ``name``, ``kind``, ``weeks``, ``hours_per_week``,
``gpu`` or ``cpu``, ``count``, ``rental_mode``, ``cost`` …), ``total_cost`` (the sum of the phases),
``currency``, ``timeline`` (week by week), ``overlap_advice``, ``rent_vs_build`` and ``what_if`` (entries with
``change`` = ``params_x2``, ``tokens_x10``, ``upgrade_gpus`` and ``fits``, ``calendar_days``, ``cost``,
``in_place_upgrade``, ``layout_changes``, ``slot_weeks``/``overrun_weeks`` (same servers, longer) and
``keep_deadline`` (the search's plan for the changed job within the phase's slot: GPUs, layout, rental mode, cost)).
"""

from __future__ import annotations

from pathlib import Path

from ..core.i18n import QT_TRANSLATE_NOOP
from ..core.serving_facts import bound_text, serving_lines, throughput_line
from ..formatting import format_money, format_number, gpu_display_name
from ._args import cut, ljust, rjust, strict_json
from ._lang import language, msg, name, translate
from ..formatting import elapsed_numbers, format_list, format_weeks, phase_spans, plural_s

CTX = "CLI"
#: the rental column: the longest mode label ("card-hours with a monthly cap", 29 columns) uncut; at 21 columns
#: "whole machines per month" printed as "whole machines per…" (issue 35 round 12, expert12)
RENTAL_WIDTH = 29
#: a column of spans' header in its unit (formatting.elapsed_unit; ux15)
UNIT_HEADERS = {"hours": QT_TRANSLATE_NOOP(CTX, "hours"), "days": QT_TRANSLATE_NOOP(CTX, "days"),
                "weeks": QT_TRANSLATE_NOOP(CTX, "weeks")}


def register(sub) -> None:
    p = sub.add_parser(
        "project",
        help=QT_TRANSLATE_NOOP("CLI", "the project: phases (CPU preprocessing, research, training, inference), "
                                      "one cost, the timeline and what-if growth"),
        description=QT_TRANSLATE_NOOP("CLI", "Print the whole project of a .gpuplan file: each phase with its GPUs, "
                                      "time and cost, the project's one total, the timeline, and what growing the "
                                      "data or the model would cost. A scenario file is one phase."))
    p.add_argument("file", help=QT_TRANSLATE_NOOP("CLI", ".gpuplan file (its project) or scenario JSON (one phase)"))
    p.add_argument("--json", action="store_true", help=QT_TRANSLATE_NOOP("CLI", "print a JSON object instead of a table"))
    p.set_defaults(func=run)


def _money(v, cur: str) -> str:
    return translate(CTX, "no price") if v is None else format_money(v, cur, decimals=0)


def run(args) -> int:
    from ..app.answer import answer

    # the project on the plan the file stands for (app.answer.decide), with what keeping its deadline takes
    ans = answer(args.file)
    res = ans.project_replanned
    data = res.to_json()
    better = ans.better  # the search's #1 against the file's own layout, which the phases run on (choice15)
    if args.json:
        data["better_plan"] = None if better is None else better.to_json()
        print(strict_json(data, indent=2, sort_keys=True))
        return 0
    lines = text_lines(res)
    if better is not None:  # above the phase table, not between its header and its rows (cli18)
        lines[:0] = ["> " + msg(better.message), ""]
    print("\n".join(lines))
    return 0


def _mode(key: str | None) -> str:
    from ..core.cost import MODE_LABELS

    if not key:
        return "-"
    if key in MODE_LABELS:
        return name("Cost", MODE_LABELS[key])
    return {"core_hour": translate(CTX, "per core-hour"), "node_month": translate(CTX, "CPU nodes per month")}.get(key, key)


def _bound_text(bound: str) -> str:
    """What bounds a serving replica's decode step (``ServingSize.bound``): the weights' stream, the GEMMs' FLOPs or
    the engine's host work per step (inference.decode_step_s); the phrase of ``core.serving_facts.bound_text``."""
    return msg(bound_text(bound))


def text_lines(res) -> list[str]:
    """The project as text in the CLI's language (every figure read from the core's ProjectResult)."""
    from ..core.project import layout_change_text  # (only here: --help imports every command module)
    from ..core.project import KIND_LABELS

    cur = res.currency
    yes, no = translate(CTX, "yes"), translate(CTX, "no")
    # the phases' spans in one unit, the longest's: "0–3.8" hours for a job of a few hours, not "0–0.023" weeks (ux15)
    unit, spans = phase_spans(res.phases, lang=language())
    lines = [ljust(translate(CTX, "phase"), 22, min_gap=1) + ljust(translate(CTX, "kind"), 26, min_gap=1) + rjust(translate(CTX, UNIT_HEADERS[unit]), 12)
             + rjust(translate(CTX, "h/week"), 8) + "  " + ljust(translate(CTX, "resources"), 34, min_gap=1)
             + ljust(translate(CTX, "rental"), RENTAL_WIDTH + 1, min_gap=1) + rjust(translate(CTX, "cost"), 13)]
    for i, p in enumerate(res.phases):
        what = (f"{p.count} × {gpu_display_name(p.device_name, short=True)}" if p.resource == "gpu" else
                plural_s(translate(CTX, "{nodes} node(s), {n} cores"), p.nodes).format(nodes=p.nodes, n=p.count))
        weeks = f"{spans[2 * i]}–{spans[2 * i + 1]}"
        lines.append(ljust(cut(p.name, 21), 22, min_gap=1) + ljust(cut(name("Project", KIND_LABELS[p.kind]), 25), 26, min_gap=1)
                     + rjust(weeks, 12) + rjust(format_number(p.hours_per_week), 8) + "  "
                     + ljust(cut(what, 33), 34, min_gap=1) + ljust(cut(_mode(p.rental_mode), RENTAL_WIDTH), RENTAL_WIDTH + 1, min_gap=1)
                     + rjust(_money(p.cost, cur), 13))
        if p.serving is not None:
            s = p.serving
            lines.append(" " * 22 + msg(throughput_line(s, p.cost_per_million_tokens, cur)))
            lines += [" " * 22 + msg(m) for m in serving_lines(s)]  # first token, p95 under load, offline target
        if p.cpu is not None:
            lines.append(" " * 22 + translate(CTX, "CPU: {gb} GB at {rate} MB/s per core = {h} core-hours").format(
                gb=format_number(p.cpu.data_gb), rate=format_number(p.cpu.mb_s_per_core, 2),
                h=format_number(p.cpu.core_hours)))
        for m in p.messages:
            lines.append(" " * 22 + f"! {msg(m)}")
    lines.append("")
    lines.append(ljust(translate(CTX, "Total"), 13, min_gap=1) + translate(CTX, "{cost} over {w}").format(
        cost=_money(res.total_cost, cur), w=format_weeks(res.total_weeks, language())))
    if res.by_mode:
        lines.append(ljust(translate(CTX, "By rental"), 13, min_gap=1)
                     + format_list(f"{_mode(k)} {_money(v, cur)}" for k, v in res.by_mode.items()))
    for m in res.overlap_advice:
        lines.append(ljust(translate(CTX, "Overlap"), 13, min_gap=1) + msg(m))
    if res.rent_vs_build is not None:
        lines.append(ljust(translate(CTX, "Rent/build"), 13, min_gap=1) + msg(res.rent_vs_build.sentence))
    if res.budget is not None:  # the total against the budget at the likely range's far end, per phase, the cut
        for i, m in enumerate(res.budget.lines()):
            lines.append(ljust(translate(CTX, "Budget") if i == 0 else "", 13, min_gap=1) + msg(m))
    for m in res.messages:
        lines.append(f"! {msg(m)}")
    if res.what_if:
        changes = {"params_x2": translate(CTX, "2× parameters"), "tokens_x10": translate(CTX, "10× data"),
                   "upgrade_gpus": translate(CTX, "next GPU count")}
        # the what-if spans in the phases' unit, the project's scale (hours beside a project read in hours, not
        # days because one what-if row passes a day; ux27)
        known = [w.calendar_days for w in res.what_if if w.calendar_days is not None]
        w_unit = unit
        w_nums = iter(elapsed_numbers(known, w_unit, language()))
        w_days = ["-" if w.calendar_days is None else next(w_nums) for w in res.what_if]
        lines += ["", translate(CTX, "What if ({phase})").format(phase=res.main_phase),
                  "  " + ljust(translate(CTX, "change"), 16, min_gap=1) + ljust(translate(CTX, "fits"), 6, min_gap=1)
                  + rjust(translate(CTX, UNIT_HEADERS[w_unit]), 8) + rjust(translate(CTX, "cost"), 16) + "  "
                  + rjust(translate(CTX, "GPUs"), 5) + "  " + ljust(translate(CTX, "in place"), 9, min_gap=1) + translate(CTX, "layout changes")]
        for w, days in zip(res.what_if, w_days):
            lines.append("  " + ljust(changes.get(w.change, w.change), 16, min_gap=1) + ljust(yes if w.fits else no, 6, min_gap=1)
                         + rjust(days, 8) + rjust(_money(w.cost, cur) if w.fits else "-", 16) + "  "
                         + rjust(str(w.gpus_needed or w.num_gpus), 5) + "  "
                         + ljust(yes if w.in_place_upgrade else no, 9, min_gap=1) + (format_list(layout_change_text(c, translate) for c in w.layout_changes) or "-"))
            if w.note is not None:
                lines.append(f"    {msg(w.note)}")
            if w.overrun_note is not None:  # same servers, longer
                lines.append(f"    {msg(w.overrun_note)}")
            if w.keep_deadline is not None:  # what it takes to keep the deadline (a search)
                lines.append(f"    {msg(w.keep_deadline.sentence)}")
    return lines



