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


from ..core.i18n import QT_TRANSLATE_NOOP
from ..formatting import format_money, join_clause, gpu_display_name, format_number, format_percent, format_mfu, format_sig
from ._lang import msg, name, translate
from ._args import display_width, int_in, likely_range, ljust, rent_vs_build_lines, strict_json
from ..formatting import colon, days_decimals, elapsed_numbers, elapsed_unit, elapsed_word, format_plan_span, format_plan_time, format_time_number, format_list, paren, format_wall_time


CTX = "CLI"


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "plan",
        help=QT_TRANSLATE_NOOP("CLI", "search GPU types, counts and layouts; print the ranked plans to rent"),
        description=QT_TRANSLATE_NOOP("CLI", "Search every candidate GPU type × GPU count × parallel layout that fits in memory, "
        "estimate time and rental cost, and rank them by the objective: cheapest meeting the deadline, fastest "
        "within the budget, or lowest cost per PFLOP of useful work (the FLOPs the model needs, not the GPUs' "
        "peak)."),
    )
    p.add_argument("file", metavar="FILE", help=QT_TRANSLATE_NOOP("CLI", "scenario JSON or .gpuplan file"))
    p.add_argument("--top", type=int_in(1, 1000), default=5, metavar="N", help=QT_TRANSLATE_NOOP("CLI", "how many plans to show (default 5)"))
    p.add_argument("--objective", choices=("cheapest", "fastest", "value"),
                   help=QT_TRANSLATE_NOOP("CLI", "ranking (default: the objective saved in the scenario file)"))
    p.add_argument("--json", action="store_true", help=QT_TRANSLATE_NOOP("CLI", "print the result as JSON"))
    p.set_defaults(func=run)


def run(args) -> int:
    from ..app.answer import answer

    from ..app.answer import SEARCH

    ans = answer(args.file, top=args.top, objective=args.objective)
    if ans.chosen_by != SEARCH:  # the document stands for a layout of the user's own: its card is the user's
        from ..core.estimate import scenario_gpu  # choice, refused as `estimate` refuses it (ux28), never ignored

        scenario_gpu(ans.plan_scenario)
    result = ans.search_or_raise()
    scenario = ans.scenario
    better = ans.better  # the search's #1 against the file's own layout (app.answer.better; choice15)
    if args.json:
        data = result.to_json()
        data["better_plan"] = None if better is None else better.to_json()
        print(strict_json(data, indent=2))
        return 0
    con = scenario.constraints
    lines = text_lines(result, con, scenario.training.method, scenario.training.recompute_modules)
    if better is not None:  # under the search's summary line, above the table that lists the plan
        lines.insert(2 if len(lines) > 2 else len(lines), "> " + msg(better.message))
    if ans.serving_only:  # issue 35 r18 (serve18): the service first; the training table is the file's placeholder
        lines = _service_first(ans) + lines
    print("\n".join(lines))
    return 0


def _service_first(ans) -> list[str]:
    """A serving-only document's plans (the Answer's ``serving_only``): the service as ``project`` prints it, then
    a line saying the ranked table below is the file's placeholder training scenario, not the request."""
    from .project import text_lines as project_lines

    return ([translate(CTX, "This file asks for a service, not a training run:")] + project_lines(ans.project)
            + ["", translate(CTX, "Below: the plans for the file's training scenario, a placeholder every plan file "
                                  "holds; it is not part of this request.")])


def _mode_cell(ev) -> str:
    """The plan table's rental mode: marked when the scenario sets it for every plan (constraints.rental_mode)."""
    mode = name("Cost", ev.rental_mode_label)
    if ev.rental_mode is not None and ev.scenario.constraints.rental_mode is not None:
        return translate(CTX, "{mode} (as set)").format(mode=mode)
    return mode


# long: the ranked plans as printed: the table, then each plan's details, one statement per printed line
def text_lines(result, con, method: str = "", recompute_modules=None) -> list[str]:
    """The ranked plans as text in the CLI's language; every figure read from the plans' Evaluations and
    printed through the one formatter."""
    from ..core.rules import RULE_NAMES  # (imported here: --help and --version load no numpy)

    out = [translate("Tier", result.tier_guidance),  # it names its tier ("~100B tier: …"; was "Tier 100B: ~100B tier: …")
           translate(CTX, "{n} candidates evaluated, {fit} fit and are priced ({time}); objective: {objective}").format(
               n=format_number(result.candidates_evaluated), fit=format_number(result.candidates_fitting),
               time=format_wall_time(result.search_ms), objective=_objective(result.objective))]
    # the request's method (``method``), else plan #1's: a LoRA search with no plan still names torchtune
    method = method or (result.plans[0].scenario.training.method if result.plans else "")
    if result.frameworks:
        out.append(translate(CTX, "frameworks searched: {names}").format(
            names=format_list(_framework_name(f, method) for f in result.frameworks)))
    for m in result.notes:
        out.append(translate(CTX, "note: {text}").format(text=msg(m)))
    for d in result.skipped:
        out.append(translate(CTX, "skipped: {name} ({gpu}): {reason}").format(gpu=d["gpu"], name=gpu_display_name(d["gpu_name"]),
                                                                           reason=msg(d["reason"])))
    if not result.plans:
        return out
    grades = {"good": translate(CTX, "good"), "fair": translate(CTX, "fair"), "poor": translate(CTX, "poor"),
              "optimistic": translate(CTX, "optimistic")}
    extra = layout_columns(result.plans)  # cp / ep: only when a plan shown uses them, as the Plans page's layout
    # the GPU and the failed rules as ids (to paste into a scenario or look up with ``gpuplanner gpus``; the
    # header says so); the framework and the recompute policy by their names, as the Plans page and the report
    header = ("#", translate(CTX, "GPU id"), translate(CTX, "count"), translate(CTX, "nodes"),
              translate(CTX, "framework"), "tp", "pp",
              *extra, "dp", translate(CTX, "zero"), translate(CTX, "recompute"), translate(CTX, "mbs"), "GiB/GPU", translate(CTX, "calendar time"),
              translate(CTX, "cost ({currency})").format(currency=con.currency), translate(CTX, "rental mode"), "MFU",
              translate(CTX, "rule ids failed"))
    rows, rl_rows, capped_rows = [], False, False
    for i, p in enumerate(result.plans, 1):
        mfu = "-" if p.mfu is None else f"{format_mfu(p.mfu)} {grades.get(p.mfu_grade, p.mfu_grade)}"
        train = p.evaluation.rl_training_mfu
        if train is not None:  # RL: the grade is of the training passes (rules.mfu_grade), shown with its figure
            mfu = join_clause(format_mfu(p.mfu), paren(f"{format_mfu(train)} {grades.get(p.mfu_grade, p.mfu_grade)}"))
            rl_rows = True
        # timed at its class's best published run (advice18); after the RL cell, which would drop the mark (review17)
        if p.mfu is not None and p.evaluation.mfu_capped:
            mfu = join_clause(mfu, paren(translate(CTX, "capped")))
            capped_rows = True
        failed = ",".join(r.id for r in p.evaluation.failed_rules) or "-"  # the Evaluation's (parity16)
        rows.append((str(i), p.gpu, str(p.num_gpus), str(p.nodes), _framework_name(p.framework, method), str(p.tp),
                     str(p.pp), *(str(getattr(p, k)) for k in extra), str(p.dp), str(p.zero),
                     _recompute_name(p.recompute, recompute_modules), str(p.micro_batch_size),
                     f"{format_number(p.memory_per_gpu_gib, 1)}/{format_sig(p.gpu_memory_gib)}",
                     # the plan's headline, word and all ("15.4 hours" beside "1.4 days"; ux22: "0.64" under
                     # "cal. days" beside a headline of "15.4 hours")
                     format_plan_span(p.calendar_days, p.evaluation.calendar_days_band)[0], format_number(p.cost),
                     _mode_cell(p.evaluation), mfu, failed))
    widths = [max(display_width(h), *(display_width(r[k]) for r in rows)) for k, h in enumerate(header)]
    out.append("  ".join(ljust(h, w) for h, w in zip(header, widths)).rstrip())
    for r in rows:
        out.append("  ".join(ljust(c, w) for c, w in zip(r, widths)).rstrip())
    if rl_rows:
        out.append(translate(CTX, "MFU of an RL plan: the whole step, rollout generation included (in brackets: "
                                  "its training passes, which the grade is of)."))
    if capped_rows:
        out.append(translate(CTX, "MFU (capped): the model gives more than the best published run of the plan's class "
                                  "reached; the plan is timed and costed at that run's figure (see the plan's "
                                  "utilisation line)."))
    status = {"passed": translate(CTX, "passed"), "failed": translate(CTX, "failed")}
    for i, p in enumerate(result.plans, 1):
        ev = p.evaluation
        out.append("")
        # one message in the one unit of the plan's whole range (formatting.format_plan_time; ux21, ux22)
        head, compute, _ = format_plan_time(p.calendar_days, p.compute_days, ev.calendar_days_band)
        out.append(translate(CTX, "{i}. {n} × {gpu}: {days} in calendar time ({compute} of compute), {cost}").format(
            i=i, n=p.num_gpus, gpu=gpu_display_name(ev.gpu_name), days=head, compute=compute,
            cost=format_money(p.cost, p.currency)))
        band = likely_range(ev, p.currency)  # 2 decimals below a day (formatting.days_decimals)
        if band is not None:
            out.append("   " + translate(CTX, "likely range") + " " + join_clause(*band))
        for m in p.framework_reason:
            out.append(f"   * {msg(m)}")
        for m in ev.calibration_notes:
            out.append(f"   ~ {msg(m)}")
        for m in p.explanation:
            out.append(f"   - {msg(m)}")
        for r in p.rules:
            if r.status != "not_applicable":
                title = translate("Rules", RULE_NAMES.get(r.id, r.id))  # the rule's name, as the Plans page shows it
                out.append(f"   {'✓' if r.status == 'passed' else '✗'} [{title}{colon()}{status.get(r.status, r.status)}] "
                           f"{msg(r.message)}")
        for m in p.rental_advice:
            out.append(f"   • {msg(m)}")  # a bullet, not "$" before yuan (ux27)
        for m in p.warnings:
            out.append(f"   ! {msg(m)}")
    if result.rent_vs_build is not None:
        rb = result.rent_vs_build
        first = result.plans[0]
        out.append("")
        out.append(translate(CTX, "Rent or build ({n} × {gpu}): {sentence}").format(
            n=first.num_gpus, gpu=gpu_display_name(first.evaluation.gpu_name), sentence=msg(rb.sentence)))
        out.extend(rent_vs_build_lines(rb))
    if result.pareto:
        out.append("")
        out.append(translate(CTX, "Time vs cost, the best trade-offs (no other plan is both faster and cheaper):"))
        names = {p.gpu: p.gpu_name for p in result.plans}
        front = [q["calendar_days"] for q in result.pareto]
        # below a day in hours, as each plan's headline (formatting.elapsed_unit; ux21); one unit for the list
        unit = elapsed_unit(max(front))
        shown = elapsed_numbers(front, "hours") if unit == "hours" else _front_days(front)
        for q, days in zip(result.pareto, shown):
            gpu = gpu_display_name(names.get(q["gpu"]) or _catalog_name(q["gpu"], result.plans), short=True)
            out.append("   " + translate(CTX, "{n} × {gpu}: {span}, {cost}").format(
                n=q["num_gpus"], gpu=gpu, span=f"{days} {elapsed_word(unit, None, days)}",
                cost=format_money(q["cost"], con.currency)))
    return out


def layout_columns(plans) -> tuple[str, ...]:
    """The table's optional degrees: ``cp`` and ``ep`` when any plan shown uses them (above 1). The Plans page's
    layout names a degree only above 1 (``ui/pages/plans_page.layout_text``); a column of 1s would only crowd
    the table for the dense models that never split a sequence or an expert."""
    return tuple(k for k in ("cp", "ep") if any(getattr(p, k) > 1 for p in plans))


def _days(days: float, extra: int = 0) -> str:
    """Calendar days with the decimals a short job needs (a LoRA run of a few hours is not "0.0 days");
    ``extra`` more decimals where neighbours would otherwise read the same (:func:`_front_days`)."""
    d = float(days)
    if not extra:  # the one rule of a span's number (formatting.format_time_number; mend10c)
        return format_time_number(d)
    return format_number(d, days_decimals(d) + extra) if d >= 0.01 else format_sig(d, 2 + extra)


def _front_days(days: list[float]) -> list[str]:
    """The Pareto front's days, each row with as many extra decimals (0 to 2) as tell it apart from its neighbours:
    a front of three plans all read "0.05 days" at ¥94,000, ¥70,000 and ¥102 looked as if the dearer ones were
    no faster (ux11); "0.046", "0.047", "0.049" says they are faster, by little."""
    extras = []
    for i, d in enumerate(days):
        near = [days[j] for j in (i - 1, i + 1) if 0 <= j < len(days) and days[j] != d]  # equal: said equal
        extras.append(next((k for k in (0, 1, 2) if all(_days(d, k) != _days(n, k) for n in near)), 2))
    # equal figures side by side read alike
    return [_days(d, max(e for x, e in zip(days, extras) if x == d)) for d in days]


def _catalog_name(gpu_id: str, plans) -> str:
    """The catalog's product name of a GPU id (the Pareto list names plans beyond the ranked top ones)."""
    from ..core.catalog_hw import lookup_gpu
    from ..core.errors import PlannerError

    try:
        return lookup_gpu(gpu_id, plans[0].scenario.hardware.custom_gpus if plans else None).name
    except PlannerError:
        return gpu_id


def _objective(key: str) -> str:
    return {"cheapest": translate(CTX, "cheapest meeting the deadline"),
            "fastest": translate(CTX, "fastest within the budget"),
            "value": translate(CTX, "lowest cost per effective PFLOP")}.get(key, key)




def _recompute_name(policy: str, modules=None) -> str:
    """A recompute policy's label in the CLI's language (core/recompute.py ``RECOMPUTE_LABELS``, the Plans page's);
    Megatron's selective recompute names the scenario's ``training.recompute_modules`` when it sets them."""
    from ..core.recompute import label_msg

    return msg(label_msg(policy, modules))


def _framework_name(fw: str, method: str = "") -> str:
    """A framework's product name (the calibration data keeps its identifier); with ``method``, the program a
    plan of that method runs (core.frameworks.name_for: torchtune for LoRA on FSDP2)."""
    from ..core.frameworks import name_for

    return name_for(fw, method)
