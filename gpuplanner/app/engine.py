"""What the views ask the core for, off the GUI thread when it takes long (no Qt here).

No formulas live here: every figure comes from :func:`gpuplanner.core.evaluate.evaluate` (one scenario),
:func:`gpuplanner.core.evaluate.scaling` (the scaling chart's sweep), :func:`gpuplanner.core.search.search`
(ranked plans, each carrying its complete scenario and Evaluation) and :func:`gpuplanner.core.units.dataset_tokens`
(the data page's description of the data as a token count). This module only shapes the results for the pages
and charts: rows that read their plan's Evaluation, and the scenario fields a plan changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gpuplanner.core.errors import PlannerError, ScenarioError
from gpuplanner.core.messages import error_text
from gpuplanner.app.answer import chart_star, evaluate_shown  # noqa: F401  (chart_star: the cost chart's star)
from gpuplanner.core.evaluate import Evaluation, MemoryAlternative, PlanFigures, Scaling, memory_alternatives, \
    memory_alternatives_note
from gpuplanner.core.evaluate import scaling as core_scaling
from gpuplanner.core.scenario import Scenario
from gpuplanner.io.model_files import ModelFiles

Alternative = MemoryAlternative
ScalingResult = Scaling


@dataclass
class LiveResult:
    """The live panel's answer for the current scenario: its Evaluation, or the one-line error."""

    evaluation: Evaluation | None = None
    error: str | None = None
    error_field: str | None = None
    alternatives: list[MemoryAlternative] = field(default_factory=list)
    #: why the memory chart shows no ZeRO bars (core.evaluate.memory_alternatives_note), or None
    alternatives_note: Any = None


def live(scenario: Scenario, base_dir: Path | None = None) -> LiveResult:
    """The Evaluation of ``scenario`` plus the memory chart's what-ifs (core.evaluate.memory_alternatives)."""
    try:
        ev = evaluate_shown(scenario, ModelFiles(base_dir))  # an absurd plan (MFU < 0.1 %, > 100 years): one line
    except ScenarioError as err:
        return LiveResult(error=error_text(err), error_field=err.field)  # keeps its message id
    except PlannerError as err:
        return LiveResult(error=error_text(err))
    return LiveResult(evaluation=ev, alternatives=memory_alternatives(ev),
                      alternatives_note=memory_alternatives_note(ev))


def model_is_moe(scenario: Scenario, live_result: Any = None) -> bool:
    """Whether the scenario's model has routed experts (``ModelArch.is_moe``), the one answer the Training page's
    MoE rows read (expert parallelism, expert TP, Megatron's token dropping, dispatcher and router graphs): the
    preset or the typed fields (:func:`core.architecture.resolve_arch`, no file read), else the live estimate's
    architecture (``live_result``: a :class:`LiveResult`, its config.json read by the io layer); True while neither
    is known, so that no control that may apply is disabled or hidden."""
    from gpuplanner.core.architecture import resolve_arch

    if not scenario.model.hf_config:
        try:
            return bool(resolve_arch(scenario.model).is_moe)
        except PlannerError:
            return True
    ev = getattr(live_result, "evaluation", None)
    return True if ev is None else bool(ev.arch.is_moe)


def scaling(scenario: Scenario, base_dir: Path | None = None, max_gpus: int | None = None) -> Scaling:
    return core_scaling(scenario, ModelFiles(base_dir), max_gpus)


# ------------------------------------------------------------------------------------------ plans


@dataclass
class PlanRow(PlanFigures):
    """One ranked plan as the Plans page and the cost chart show it: a view of ``plan.evaluation``."""

    plan: Any              # core.search.Plan
    rank: int
    pareto: bool
    values: dict[str, Any] = field(default_factory=dict)   # dotted paths where the plan differs from the input

    # ---- read from the plan's Evaluation (nothing computed here)
    @property
    def evaluation(self) -> Evaluation:
        return self.plan.evaluation

    gpu = property(lambda self: self.plan.gpu)
    memory = property(lambda self: self.plan.evaluation.memory)
    tokens_per_s = property(lambda self: self.plan.evaluation.tokens_per_s)
    cost = property(lambda self: self.plan.evaluation.cost)
    rental_mode = property(lambda self: self.plan.evaluation.rental_mode)
    explanation = property(lambda self: list(self.plan.explanation))
    warnings = property(lambda self: list(self.plan.warnings))

    @property
    def layout(self) -> Any:
        """The plan's :class:`core.evaluate.Layout` itself (its own field names: views select, never rename)."""
        return self.plan.evaluation.layout


@dataclass
class SearchOutcome:
    plans: list[PlanRow]
    considered: int = 0
    fitting: int = 0
    search_ms: float = 0.0
    notes: list[Any] = field(default_factory=list)    # str or core.cost.Msg
    skipped: dict[str, str] = field(default_factory=dict)
    feasible: bool = True
    result: Any = None    # the core.search.SearchResult itself (the window's Answer reads it: no second search)


class Cancelled(Exception):
    pass


def scenario_changes(base: Scenario, target: Scenario) -> dict[str, Any]:
    """The dotted paths (``section.field``) whose values differ between two scenarios: adopting a plan sets
    exactly these, so the user's other choices stay as they are."""
    out: dict[str, Any] = {}
    a, b = base.model_dump(), target.model_dump()
    for section, vals in b.items():
        for key, v in (vals or {}).items():
            if (a.get(section) or {}).get(key) != v:
                out[f"{section}.{key}"] = v
    return out


def search_plans(scenario: Scenario, base_dir: Path | None = None, *, cancel: Any = None, progress: Any = None,
                 top: int = 20) -> SearchOutcome:
    """Ranked plans from :func:`gpuplanner.core.search.search` as rows for the Plans page."""
    from gpuplanner.core import search as core_search

    try:
        res = core_search.search(scenario, ModelFiles(base_dir), top=top, cancel=cancel)
    except core_search.SearchCancelled:
        raise Cancelled() from None
    if progress is not None:
        progress(0.8)
    front = {(d["gpu"], d["num_gpus"], d["tp"], d["pp"]) for d in res.pareto}
    rows = []
    for i, p in enumerate(res.plans, 1):
        if cancel is not None and cancel():
            raise Cancelled()
        rows.append(PlanRow(plan=p, rank=i, pareto=(p.gpu, p.num_gpus, p.tp, p.pp) in front,
                            values=scenario_changes(scenario, p.scenario)))
    if progress is not None:
        progress(1.0)
    return SearchOutcome(rows, considered=res.candidates_evaluated, fitting=res.candidates_fitting,
                         search_ms=res.search_ms, notes=list(res.notes), skipped=dict(res.skipped_gpus),
                         feasible=res.feasible, result=res)


def better(scenario: Scenario, evaluation: Any, outcome: SearchOutcome | None) -> Any:
    """The window's :attr:`gpuplanner.app.answer.Answer.better`: the search's #1 against the manual layout's own
    Evaluation (the live estimate), by :func:`gpuplanner.app.answer.better_plan` — the rule the CLI and the PDF
    read; None with automatic layout, with no estimate, or before a search that met the constraints."""
    from gpuplanner.app.answer import better_plan

    if scenario.parallel.auto or evaluation is None or outcome is None or not outcome.plans or not outcome.feasible:
        return None
    objective = getattr(outcome.result, "objective", None) or scenario.constraints.objective
    return better_plan(evaluation, outcome.plans[0].plan, objective)


def compare(a: PlanRow, b: PlanRow) -> Any:
    """Why ``a`` ranks above ``b``: the one comparison (:func:`gpuplanner.app.answer.compare`)."""
    from gpuplanner.app.answer import compare as compare_plans

    return compare_plans(a.plan, b.plan)


def unique_tokens(ui: dict) -> float:
    """Tokens in one pass over the data, as the data page's inputs describe it (:func:`core.units.dataset_tokens`)."""
    from gpuplanner.core.units import dataset_tokens

    return dataset_tokens(ui.get("data_mode", "tokens"), tokens_text=ui.get("tokens_text") or "0",
                          samples=ui.get("samples") or 0, avg_len=ui.get("avg_len") or 0,
                          dataset_gb=ui.get("dataset_gb") or 0, tokens_per_gb=ui.get("tokens_per_gb") or 0)


def project_result(project: Any, scenario: Scenario, base_dir: Path | None = None,
                   checklist: dict[str, bool] | None = None) -> Any:
    """The Project page's answer: :func:`core.project.evaluate_project` of ``project`` on the plan the window
    shows (raises the core's error)."""
    from gpuplanner.app.answer import planned_phases
    from gpuplanner.core.project import evaluate_project

    models = ModelFiles(base_dir)
    project = planned_phases(project, scenario, models)
    return keep_deadline(evaluate_project(project, scenario, models, checklist=checklist), models)


def keep_deadline(res: Any, models: Any = None, cancel: Any = None) -> Any:
    """The project result ``res`` with, for ×2 parameters and ×10 data, "what it takes to keep the same deadline"
    (issue 31): the search's best plan for the changed job with the main phase's slot as its deadline — GPUs,
    layout, rental mode and cost (:class:`core.project.Replan`); where no plan ends within the slot, the
    fastest the search found, said as missing it."""
    from gpuplanner.core.i18n import QT_TRANSLATE_NOOP
    from gpuplanner.core.messages import Msg
    from gpuplanner.core.project import Replan, replan_scenario, with_replans
    from gpuplanner.core.search import search
    from gpuplanner.core.messages import elapsed_msgs
    from gpuplanner.formatting import elapsed_unit

    out = {}
    for w in res.what_if:
        s = replan_scenario(w)
        if s is None:
            continue
        days = float(s.constraints.deadline_days)
        try:
            found = search(s, models, top=10, cancel=cancel, savers=False)  # #1 (hourly, for a short slot) is read
        except PlannerError as err:
            out[w.change] = Replan(change=w.change, deadline_days=days, evaluation=None,
                                   note=Msg("Project", QT_TRANSLATE_NOOP(
                                       "Project", "The search cannot plan the changed job: {e}"),
                                       {"e": error_text(err)}))  # keeps its id: shown translated
            continue
        plans, whole = _short_slot_plans(list(found.plans), s)
        plan = plans[0] if plans else None
        if whole is not None and (plan is None or not plan.meets_deadline):
            out[w.change] = _only_whole_machines(w.change, days, whole, s.constraints.max_gpus)
            continue
        if plan is None and found.notes:  # nothing fits: the search's reason, not "the fastest: —" (whatif18)
            out[w.change] = Replan(change=w.change, deadline_days=days, evaluation=None, note=Msg(
                "Project", QT_TRANSLATE_NOOP("Project", "No plan within {n} GPUs finishes the changed job within "
                                                        "{days}. {why}"),
                {"n": s.constraints.max_gpus, "why": found.notes[0], **elapsed_msgs(elapsed_unit(days), days=days)}))
            continue
        if plan is None or not plan.meets_deadline:
            out[w.change] = Replan(change=w.change, deadline_days=days, evaluation=None, note=Msg(
                "Project", QT_TRANSLATE_NOOP("Project", "No plan within {n} GPUs finishes the changed job within {days} "
                                            "(the fastest: {best})."),
                # the slot and the fastest in one unit, the slot's (cli18: "within 0.77 days" under "its slot of
                # 18.4 hours", the overrun sentence above it, WhatIf.overrun_note; formatting.elapsed_unit)
                {"n": s.constraints.max_gpus, **elapsed_msgs(
                    elapsed_unit(days), days=days, best=min((p.calendar_days for p in plans), default=float("inf")))}))
            continue
        out[w.change] = Replan(change=w.change, deadline_days=days, evaluation=plan.evaluation,
                               framework=plan.framework_name)
    return with_replans(res, out)


def _short_slot_plans(plans: list, s: Any) -> tuple[list, Any]:
    """The re-plan's ranked ``plans`` for a slot of under a week (core.project.SHORT_SLOT_DAYS) without a rental
    mode the user chose: those billed by the hour (card-hours, spot, the capped hybrids) — planning guide §4,
    "Whole machine vs card-hours": jobs of a few hours favour card-hours, whole machines pay for runs of more than
    ~40 hours a week over several weeks. Before this (whatif18, cli18's find) an 18.4-hour slot's re-plan was
    "8 × H200, whole machines per month, 5.6 hours, ¥94,000": the H200's only mainland quote is a month of a
    server. Returns (the plans kept, the best whole-machine plan that meets the slot where no hourly one does and
    the list was cut, else None)."""
    from gpuplanner.core.project import SHORT_SLOT_DAYS, WHOLE_MACHINE_MODES

    con = s.constraints
    if con.rental_mode is not None or con.deadline_days is None or con.deadline_days >= SHORT_SLOT_DAYS:
        return plans, None
    hourly = [p for p in plans if p.evaluation.rental_mode not in WHOLE_MACHINE_MODES]
    whole = [p for p in plans if p.evaluation.rental_mode in WHOLE_MACHINE_MODES and p.meets_deadline]
    met = any(p.meets_deadline for p in hourly)
    return hourly, (None if met or not whole else whole[0])


def _only_whole_machines(change: str, days: float, plan: Any, max_gpus: int) -> Any:
    """The re-plan where, for a short slot, only whole machines rented by the week or month finish in time: no plan
    is ranked on such a rent (:func:`_short_slot_plans`); the sentence names the one that would, its cost and what
    that costs per hour worked, and what to do (whatif18)."""
    from gpuplanner.core import cost as costmod
    from gpuplanner.core.i18n import QT_TRANSLATE_NOOP
    from gpuplanner.core.messages import Msg, elapsed_msgs
    from gpuplanner.core.project import Replan
    from gpuplanner.formatting import elapsed_unit

    ev = plan.evaluation
    worked = ev.calendar_days * 24.0 * ev.scenario.constraints.hours_per_week / 168.0
    return Replan(change=change, deadline_days=days, evaluation=None, note=Msg("Project", QT_TRANSLATE_NOOP(
        "Project", "No plan billed by the hour within {n} GPUs finishes the changed job within {days}. Only {g} × "
                   "{gpu} does, billed as {mode}: {cost:,.0f} {cur} for {cal} of work ({per:,.0f} "
                   "{cur} per hour worked). A job this short is planned on card-hours (planning guide: whole "
                   "machines for long runs): enter a card-hour quote for it, or choose that rental mode."),
        {"n": max_gpus, "g": ev.num_gpus, "gpu": ev.gpu_name, "cost": ev.cost or 0.0, "cur": ev.currency,
         "per": (ev.cost or 0.0) / max(worked, 1e-9),
         "mode": Msg("Cost", costmod.MODE_LABELS.get(ev.rental_mode or "month", "")),
         **elapsed_msgs(elapsed_unit(days), days=days, cal=ev.calendar_days)}))
