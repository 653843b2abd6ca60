"""One answer per document: the plan a document stands for, decided in one place, and everything shown about it.

A :class:`Document` is what the user has open: the scenario they set (the search's input), where its model
files are read from, and the plan file around it when there is one (selected plan, checklist, project, notes).
:func:`answer` turns it into an :class:`Answer`:

* ``plan_scenario`` / ``evaluation``: the plan the document stands for, by **one rule** (:func:`decide`): the
  user's selected plan; else, with automatic layout (``parallel.auto``), the search's #1; else the scenario as
  given. ``gpuplanner estimate``, ``plan``, ``report`` and ``project``, the PDF and the window all read it.
* ``search`` (the ranked plans), ``scaling`` (days against GPU count for the chosen plan, with the memory-by-count
  series) and ``project`` (:func:`core.project.evaluate_project` on the chosen plan): computed when first read,
  or handed in by a caller that already has them (the window hands in its own search outcome and sweep, so the
  report it writes runs no second search).

Nothing here imports Qt; the report (:mod:`gpuplanner.report`) takes an Answer and only formats it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Callable, Sequence

from gpuplanner.core.errors import PlannerError

#: why the answer stands for its plan (:func:`decide`)
SELECTED, SEARCH, SCENARIO = "selected", "search", "scenario"


@dataclass
class Document:
    """What one answer is about.

    ``scenario``: what the user set (the search's input; a plan file's embedded model resolved).
    ``selected``: a plan file's selected plan, its complete scenario (None: nothing selected).
    ``models``: where ``model.hf_config`` is read from (:class:`io.model_files.ModelFiles`).
    ``plan``: the :class:`io.planfile.PlanDocument` around it (None for a bare scenario).
    ``source_file``: the file's name, for the report's footer."""

    scenario: Any
    models: Any = None
    selected: Any = None
    plan: Any = None
    source_file: str = ""
    selected_label: str = ""

    @property
    def base_dir(self) -> Path | None:
        return getattr(self.models, "base_dir", None)


def document_from_scenario(scenario, base_dir: Any = None, source_file: str = "") -> Document:
    """A bare scenario (its model files read from ``base_dir``)."""
    from gpuplanner.io.model_files import ModelFiles

    models = base_dir if isinstance(base_dir, ModelFiles) else ModelFiles(Path(base_dir) if base_dir else None)
    return Document(scenario=scenario, models=models, source_file=source_file)


def document_from_plan(doc, base_dir: Any = None, source_file: str = "", models: Any = None) -> Document:
    """A :class:`io.planfile.PlanDocument` whose relative paths resolve against ``base_dir`` (``models``: where
    model files are read from; by default ``base_dir``, confined to it as for any stranger's file)."""
    from gpuplanner.io import planfile
    from gpuplanner.io.model_files import ModelFiles

    base = Path(base_dir) if base_dir is not None else None
    user = planfile.scenario_for_estimate(doc, base, source_file, selected=False)
    sel = doc.selected_plan
    selected = None
    if sel is not None and sel.scenario is not None:
        selected = planfile.scenario_for_estimate(doc, base, source_file, selected=True)
    models = models if models is not None else ModelFiles(base, confine=True)
    return Document(scenario=user, models=models, selected=selected, plan=doc,
                    source_file=source_file, selected_label=(sel.label or "") if sel is not None else "")


def scenario_to_open(doc, base_dir: Any = None, source_file: str = ""):
    """The scenario the app edits when it opens the plan file ``doc``: with a manual layout, the plan the
    document stands for by :func:`decide` (its selected plan when it has one), so the app's pages show what
    ``gpuplanner estimate``/``report`` print for the file; with automatic layout what the user set (the app runs
    the search and keeps the selected rank). The app itself never writes a manual layout with a selected plan
    (``ui/document.py``); a file written by another version or by hand can, e.g. a plan priced from the quote it
    carries in its own ``constraints.prices``."""
    document = document_from_plan(doc, base_dir, source_file)
    if document.scenario.parallel.auto:
        return document.scenario
    return decide(document.scenario, document.selected, lambda: ())[1]


def load_document(path: str | Path) -> Document:
    """A scenario JSON or a ``.gpuplan`` plan file (a plan file under another name included)."""
    from gpuplanner.io.scenario_files import load_scenario

    path = Path(path)
    if path.suffix.lower() == ".gpuplan":  # io.planfile.SUFFIX; a scenario JSON does not load the plan-file module
        from gpuplanner.io import planfile

        doc, _warnings = planfile.load(path)
        return document_from_plan(doc, path.resolve().parent, path.name)
    scenario, models = load_scenario(path)  # a plan file under another name comes back as its selected plan
    return Document(scenario=scenario, models=models, source_file=path.name)


def planned_phases(project, base, models=None):
    """``project`` with :func:`decide`'s rule applied to every training-like phase that carries a scenario of its
    own: under automatic layout (``parallel.auto``, "let the plan search choose the layout") the phase runs the
    search's #1 for that scenario, searched as the phase runs it (:func:`core.project.phase_scenario`: its work
    pattern, hours and the project's currency); a manual layout, or a search that finds nothing, runs as given.
    The document's own phase already runs the plan the document stands for (``base``). Before this (advice17,
    request 02) a DPO phase written with ``parallel.auto`` was evaluated on the scenario's default hardware
    (1 x H100, "does not fit") and billed a month of a whole machine inside the project's total."""
    from gpuplanner.core.project import TRAINING_KINDS, phase_scenario
    from gpuplanner.core.search import search

    phases = list(project.phases)
    for i, phase in enumerate(phases):
        if phase.kind not in TRAINING_KINDS or phase.scenario is None or not phase.scenario.parallel.auto:
            continue
        try:
            found = search(phase_scenario(phase, base), models, top=1)
        except PlannerError:
            continue  # evaluate_project reports the phase's own error as before
        why, what = decide(phase.scenario, None, lambda: list(found.plans))
        if why == SEARCH:
            phases[i] = phase.model_copy(update={"scenario": what.scenario})
    return project.model_copy(update={"phases": phases})


def decide(scenario, selected, ranked: Callable[[], Sequence[Any]]) -> tuple[str, Any]:
    """**The** rule for the plan a document stands for: ``(why, what)``.

    The user's selected plan (``(SELECTED, its scenario)``); else, with automatic layout, the search's #1
    (``(SEARCH, core.search.Plan)``; ``ranked`` is called only then); else the scenario as given
    (``(SCENARIO, scenario)``, also when the search found nothing)."""
    if selected is not None:
        return SELECTED, selected
    if scenario.parallel.auto:
        plans = ranked()
        if plans:
            return SEARCH, plans[0]
    return SCENARIO, scenario


def chart_star(scenario, plans: Sequence[Any], selected_rank: int | None,
               evaluation) -> tuple[int | None, tuple[float, float] | None]:
    """**The** rule for the cost chart's "chosen" star, :func:`decide`'s as the window applies it: ``(index, at)``.

    With automatic layout the scenario adopts the selected plan, so the star marks that row: ``(its index in
    plans, None)`` (``selected_rank``: the row's ``rank``, 1-based; a core.search.Plan's is its place). With a
    manual layout the scenario itself is the plan and the table only browses, so the star marks the plan's own
    Evaluation: ``(None, (calendar days, cost))``; ``(None, None)`` when it has no cost (review ux11: the star sat
    on #1 while the summary showed the document's own 64 x H800 layout). The live panel only draws it."""
    index = None
    if scenario.parallel.auto:
        ranks = (getattr(p, "rank", i + 1) for i, p in enumerate(plans))
        index = next((i for i, r in enumerate(ranks) if r == selected_rank), None)
    return _star(scenario, index, evaluation)


def _star(scenario, index: int | None, evaluation) -> tuple[int | None, tuple[float, float] | None]:
    """:func:`chart_star`'s rule once the chosen row's ``index`` (automatic layout) is known."""
    if scenario.parallel.auto:
        return index, None
    if evaluation is None or evaluation.cost is None or not evaluation.fits:
        # a layout that does not fit is not priced (the PDF, ``estimate``, the live panel; ux21, ux22): no star
        return None, None
    return None, (float(evaluation.calendar_days), float(evaluation.cost))


@dataclass(frozen=True)
class Comparison:
    """Why plan ``a`` and not plan ``b``, from their Evaluations: the one comparison the Plans page ("Against
    #2 …") and the report's alternatives ("why not this one") read. Money in the plans' currency."""

    cost_saved: float | None      # b's cost − a's cost (negative: a costs more; None: a cost is unknown)
    cheaper_share: float | None   # 1 − a's cost / b's cost when a is cheaper, else None
    days_sooner: float            # b's calendar days − a's (negative: a takes longer)
    reasons: tuple = ()           # core.search.compare_plans(a, b): cost per token, price, throughput, layout

    @property
    def decisive(self):
        """The reason that decided it (the per-token comparison's last sentence), when there is one."""
        return self.reasons[-1] if len(self.reasons) > 2 else None


def compare(a, b) -> Comparison:
    """:class:`Comparison` of two ranked plans (:class:`core.search.Plan`)."""
    from gpuplanner.core.search import compare_plans

    ca, cb = a.evaluation.cost, b.evaluation.cost
    saved = None if ca is None or cb is None else cb - ca
    share = (1.0 - ca / cb) if saved is not None and saved > 0 and cb else None
    return Comparison(cost_saved=saved, cheaper_share=share,
                      days_sooner=b.evaluation.calendar_days - a.evaluation.calendar_days,
                      reasons=tuple(compare_plans(a, b)))


#: the message context of :class:`BetterPlan`'s line (``scripts/update_translations.py`` collects it)
ADVICE_CTX = "Answer"


@dataclass(frozen=True, slots=True)
class BetterPlan:
    """The search's best plan by the user's own goal when it beats the layout the document stands for by more than
    the search's tie (:data:`core.search.FASTEST_TIE` for "fastest", :data:`core.search.CHEAPEST_TIE` for
    "cheapest": within it the two cannot be told apart by the estimate, so the user's layout stands unremarked).
    The document keeps its plan (the user's layout is their choice); ``message`` is the one line every view shows
    where the answer is given (the PDF's section 2, ``estimate``/``plan``, the Plans page and live panel, the
    project view): which plan, its time and cost, and how to take it."""

    plan: Any            # core.search.Plan: the search's #1
    objective: str       # "cheapest" or "fastest"
    days: float          # its calendar days
    cost: float          # its cost, in ``currency``
    own_days: float      # the document's layout's calendar days
    own_cost: float      # … and cost
    currency: str
    message: Any         # core.messages.Msg

    def to_json(self) -> dict:
        """``better_plan`` in ``estimate --json`` and ``plan --json``."""
        return {"objective": self.objective, "gpu": self.plan.evaluation.scenario.hardware.gpu,
                "gpu_name": self.plan.gpu_name, "num_gpus": self.plan.num_gpus,
                "calendar_days": round(self.days, 6), "cost": round(self.cost, 2),
                "layout_calendar_days": round(self.own_days, 6), "layout_cost": round(self.own_cost, 2),
                "currency": self.currency, "message": self.message.render()}


def better_plan(own, best, objective: str) -> BetterPlan | None:
    """:class:`BetterPlan` when ``best`` (the search's #1, a core.search.Plan) beats the Evaluation ``own`` by more
    than the tie of ``objective``; None otherwise (also for "value", whose key is no figure a user reads, and for a
    plan without a price or a layout that does not fit: the views already say that one cannot be rented)."""
    from gpuplanner.core.i18n import QT_TRANSLATE_NOOP
    from gpuplanner.core.messages import Msg, plan_span_msgs
    from gpuplanner.core.search import CHEAPEST_TIE, FASTEST_TIE

    ev = best.evaluation
    if objective not in ("cheapest", "fastest") or not own.fits or own.cost is None or ev.cost is None:
        return None
    if ev.currency != own.currency or ev.scenario == own.scenario:
        return None
    if objective == "cheapest":
        beats = own.cost > ev.cost * (1.0 + CHEAPEST_TIE)
    else:
        beats = own.calendar_days > ev.calendar_days * (1.0 + FASTEST_TIE)
    if not beats:
        return None
    goal = Msg("Report", {"cheapest": QT_TRANSLATE_NOOP("Report", "cheapest"),
                          "fastest": QT_TRANSLATE_NOOP("Report", "fastest")}[objective])
    # each span as its plan's headline writes it (the Plans table, ``plan``, the PDF: "3.8 hours … 1.5 days")
    spans = {"span": plan_span_msgs(ev.calendar_days, None, ev.calendar_days_band)[0],
             "own_span": plan_span_msgs(own.calendar_days, None, own.calendar_days_band)[0]}
    text = QT_TRANSLATE_NOOP(ADVICE_CTX, "By your goal ({goal}) the search's best plan is {n} × {gpu}: {span}, "
                                         "{cost:,.0f} {cur}, against {own_span}, {own_cost:,.0f} {cur} for this "
                                         "layout. Take it with “Use this layout” on the Plans page, or set "
                                         "Layout to “automatic (best found)” on the Training page.")
    message = Msg(ADVICE_CTX, text, {"goal": goal, "n": ev.num_gpus, "gpu": ev.gpu_name, "cost": float(ev.cost),
                                     "own_cost": float(own.cost), "cur": own.currency, **spans})
    return BetterPlan(plan=best, objective=objective, days=float(ev.calendar_days), cost=float(ev.cost),
                      own_days=float(own.calendar_days), own_cost=float(own.cost), currency=own.currency,
                      message=message)


@dataclass
class Answer:
    """The answer to one document; see the module docstring. Expensive parts are computed when first read."""

    document: Document
    top: int = 10
    objective: str | None = None
    given_search: Any = None        # a core.search.SearchResult the caller already has
    given_scaling: Any = None       # (complete scenario, core.evaluate.Scaling of it) the caller already has
    given_evaluation: Any = None    # the chosen plan's Evaluation the caller already has
    search_error: PlannerError | None = field(default=None, init=False)  # why ``search`` is None

    # ------------------------------------------------------------------ inputs
    @property
    def scenario(self):
        """What the user set (the search's input)."""
        return self.document.scenario

    @property
    def models(self):
        return self.document.models

    @cached_property
    def prices(self):
        """The price table of the chosen plan (its constraints: a selected plan keeps its own quotes)."""
        from gpuplanner.core.cost import PriceTable

        return PriceTable.from_constraints(self.evaluation.scenario.constraints)

    # ------------------------------------------------------------------ the ranked plans
    @cached_property
    def search(self):
        """The search's result for the user's scenario (None when it cannot run: ``search_error`` says why)."""
        if self.given_search is not None:
            return self.given_search
        from gpuplanner.core.search import search

        try:
            return search(self.scenario, self.models, top=self.top, objective=self.objective)
        except PlannerError as err:
            self.search_error = err
            return None

    def search_or_raise(self):
        """:attr:`search`, raising the core's error when the search cannot run (the ``plan`` command), or
        :func:`shown`'s when the plan the document stands for is absurd (the search's #1, else the scenario as
        given: an MFU or a work pattern no ranking makes sensible). A scenario as given that cannot be
        evaluated (a manual layout that does not divide) leaves the ranked plans standing, as it always did."""
        from gpuplanner.core.plausible import ImplausibleError

        res = self.search
        if res is None:
            raise self.search_error
        try:
            self.evaluation
        except ImplausibleError:
            raise
        except PlannerError:
            pass
        return res

    @property
    def plans(self) -> list:
        res = self.search
        return list(res.plans) if res is not None else []

    # ------------------------------------------------------------------ the plan the document stands for
    @cached_property
    def _decision(self) -> tuple[str, Any]:
        return decide(self.scenario, self.document.selected, lambda: self.plans)

    @property
    def chosen_by(self) -> str:
        """SELECTED, SEARCH or SCENARIO: which branch of :func:`decide` chose the plan."""
        return self._decision[0]

    @property
    def plan_scenario(self):
        """The complete scenario of the plan the document stands for."""
        why, what = self._decision
        return what.scenario if why == SEARCH else what

    @cached_property
    def evaluation(self):
        """The Evaluation of the plan the document stands for (raises the core's error for an impossible one,
        and :func:`shown`'s for an absurd one: every command and view that shows the plan reads it here)."""
        why, what = self._decision
        if why == SEARCH:
            return shown(what.evaluation)
        if self.given_evaluation is not None and self.given_evaluation.scenario == what:
            return shown(self.given_evaluation)
        return evaluate_shown(what, self.models)

    @cached_property
    def chosen_plan(self):
        """The ranked plan that is the chosen plan (the same complete scenario), if the search lists it."""
        why, what = self._decision
        if why == SEARCH:
            return what
        target = self.evaluation.scenario
        return next((p for p in self.plans if p.scenario == target), None)

    @property
    def label(self) -> str:
        return self.document.selected_label if self.chosen_by == SELECTED else ""

    @property
    def star(self) -> tuple[int | None, tuple[float, float] | None]:
        """Where the cost chart's star goes for this answer (:func:`chart_star`: the chosen plan's place among
        :attr:`plans`, or the chosen plan's own days and cost with a manual layout). The report draws it."""
        if not self.scenario.parallel.auto:  # the plan's own point: no search needed
            return _star(self.scenario, None, self.evaluation)
        chosen = self.chosen_plan
        return _star(self.scenario, next((i for i, p in enumerate(self.plans) if p is chosen), None), None)

    @cached_property
    def better(self) -> BetterPlan | None:
        """The search's best plan when the document stands for a layout of the user's own (a manual layout, or
        a plan file's selected plan under one: :func:`decide`) and that plan beats it by more than the search's tie, by the user's own
        goal (:func:`better_plan`). Decided here once; every view shows its ``message``. None when the document
        stands for the search's #1, when the search cannot run or found nothing that meets the constraints."""
        if self.scenario.parallel.auto:  # the search's #1, or a plan the user took from its ranking
            return None
        try:
            own = self.evaluation
        except PlannerError:
            return None
        res = self.search
        if res is None or not res.plans or not res.feasible or self.chosen_plan is res.plans[0]:
            return None
        return better_plan(own, res.plans[0], res.objective)

    def alternatives(self, n: int = 2) -> list:
        """The search's best plans other than the chosen one (at most ``n``)."""
        chosen, target = self.chosen_plan, self.evaluation.scenario
        return [p for p in self.plans if p is not chosen and p.scenario != target][:n]

    def compare(self, plan) -> Comparison | None:
        """``plan`` against the chosen plan (:func:`compare`; None when the search does not list the chosen plan)."""
        chosen = self.chosen_plan
        return None if chosen is None else compare(plan, chosen)

    # ------------------------------------------------------------------ the chosen plan's sweeps
    @cached_property
    def scaling(self):
        """Days against GPU count for the chosen plan, with memory per GPU against GPU count (None: no sweep)."""
        if self.given_scaling is not None and self.given_scaling[0] == self.evaluation.scenario:
            return self.given_scaling[1]
        from gpuplanner.core.evaluate import scaling

        try:
            return scaling(self.evaluation.scenario, self.models)
        except PlannerError:
            return None

    @property
    def memory_by_count(self):
        sw = self.scaling
        return None if sw is None else sw.memory

    # ------------------------------------------------------------------ the project
    @cached_property
    def project(self):
        """The plan file's project evaluated on the chosen plan (a one-phase project for a bare scenario)."""
        from gpuplanner.core.project import evaluate_project, single_phase_project

        doc = self.document.plan
        base = self.evaluation.scenario
        project = doc.project if doc is not None and doc.project is not None else single_phase_project(base)
        checklist = doc.checklist_state() if doc is not None else {}
        # the budget is the file's (the user's), also where a selected plan's stored scenario carries none (econ17)
        own = getattr(getattr(getattr(doc, "scenario", None), "constraints", None), "budget", None)
        return evaluate_project(planned_phases(project, base, self.models), base, self.models, checklist=checklist,
                                budget=own)

    @cached_property
    def project_replanned(self):
        """:attr:`project` with "what it takes to keep the same deadline" for ×2 parameters and ×10 data: a search
        each (:func:`app.engine.keep_deadline`); the ``project`` command and the Project page read it."""
        from gpuplanner.app.engine import keep_deadline

        return keep_deadline(self.project, self.models)

    # ------------------------------------------------------------------ vendor quotes
    def quotes(self, sheets=None):
        """``sheets`` (vendor quotes read by the caller), else the plan file's stored quotes, compared for the chosen
        plan (:func:`compare_quotes`); None without any."""
        doc = self.document.plan
        quotes = list(sheets) if sheets is not None else list(getattr(doc, "quotes", None) or [])
        return compare_quotes(quotes, self.evaluation) if quotes else None

    def quotes_by_phase(self, comparison, sheets=None):
        """The same quotes for every GPU phase of the plan file's project (:func:`compare_project_quotes` of
        :attr:`project`); None without quotes or without a project of several phases."""
        doc = self.document.plan
        quotes = list(sheets) if sheets is not None else list(getattr(doc, "quotes", None) or [])
        if comparison is None or not quotes or not self.has_project:
            return None
        return compare_project_quotes(quotes, self.project, comparison.plan)

    @property
    def has_project(self) -> bool:
        """A plan file's project of more than one phase, or of one phase that is not the plan's own training (what
        the report shows as its own section). A serving-only (or CPU-only) project's one phase is the whole request:
        issue 35 round 18, advice21, a 500-user chat service on 20 × H800 printed a PDF of the file's placeholder
        LoRA plan and nothing of the service, while ``project`` printed the service."""
        from gpuplanner.core.project import TRAINING_KINDS

        doc = self.document.plan
        if doc is None or doc.project is None:
            return False
        phases = doc.project.phases
        return len(phases) > 1 or phases[0].kind not in TRAINING_KINDS


    @property
    def serving_only(self) -> bool:
        """A plan file whose project holds no training phase (serving, CPU): the request is the service, and the
        file's training scenario is only the placeholder a plan file needs. The report leads with the service and
        leaves the placeholder plan out (issue 35 round 18, serve18: advice21's requests 04-07 opened their PDF with
        a LoRA plan nobody asked for)."""
        from gpuplanner.core.project import TRAINING_KINDS

        doc = self.document.plan
        if doc is None or doc.project is None or not doc.project.phases:
            return False
        return all(p.kind not in TRAINING_KINDS for p in doc.project.phases)


def compare_quotes(quotes, evaluation):
    """Vendor quotes compared for one plan: :func:`core.quotes.compare` against the plan's figures
    (:func:`core.quotes.plan_figures` of its Evaluation). The one comparison ``gpuplanner quotes``, the PDF's quotes
    section (:meth:`Answer.quotes`) and the Quotes page (the live estimate's Evaluation) show; no view calls the
    core's comparison itself (parity16)."""
    from gpuplanner.core.quotes import compare, plan_figures

    return compare(list(quotes), plan_figures(evaluation))


def compare_project_quotes(quotes, project_result, main):
    """The quotes compared for every GPU phase of a project (:func:`core.quotes.project_quotes`: one vendor against
    the cheapest per phase, with the egress of each move), ``main`` the main plan's QuotedPlan (a comparison's
    ``plan``); the CLI, the PDF and the Quotes page read it."""
    from gpuplanner.core.quotes import project_quotes

    return project_quotes(list(quotes), project_result, main)


def shown(ev):
    """``ev`` when it may be shown as a plan; :class:`core.plausible.ImplausibleError` naming the field when it is
    absurd although each input is in its range (:func:`core.plausible.check_plausible`: an MFU below 0.1 %, a
    calendar that never ends or passes 100 years). **The** gate for every plan shown: ``estimate``, ``plan``,
    ``report``, ``project``, ``quotes``, ``kit``, the window's live estimate (:func:`app.engine.live`) and its
    report all reach it through :attr:`Answer.evaluation` or :func:`evaluate_shown`."""
    from gpuplanner.core.plausible import check_plausible

    check_plausible(ev, ev.scenario.constraints.hours_per_week)
    return ev


def evaluate_shown(scenario, models=None):
    """:func:`core.evaluate.evaluate` of a plan to show, through the gate (:func:`shown`)."""
    from gpuplanner.core.evaluate import evaluate

    return shown(evaluate(scenario, models))


def report_data(document: Document | str | Path, *, author: str = "", now: Any = None, answer_: Answer | None = None):
    """The report's :class:`gpuplanner.report.content.ReportData` of a document (or of an Answer already made)."""
    from gpuplanner.report.content import build_report_data

    return build_report_data(answer_ if answer_ is not None else answer(document), author=author, now=now)


def answer(document: Document | str | Path, **kw) -> Answer:
    """The :class:`Answer` for ``document`` (a :class:`Document`, or the path of a scenario or plan file)."""
    if not isinstance(document, Document):
        document = load_document(document)
    return Answer(document, **kw)
