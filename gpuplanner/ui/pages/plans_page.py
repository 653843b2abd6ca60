"""Step 6: the ranked plans from the search, the selected plan's details, and why it beat the next one."""

from __future__ import annotations

import re

from gpuplanner.formatting import colon, format_number, format_percent, format_mfu, format_sig, gpu_display_name
from gpuplanner.formatting import format_money, format_tokens, plural_s, share_percent_number, format_wall_time

import html
import math

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP, QAbstractTableModel, QCoreApplication, QModelIndex, QSortFilterProxyModel, Qt,
)
from PySide6.QtWidgets import (
    QAbstractItemView, QGridLayout, QHBoxLayout, QHeaderView, QLabel, QProgressBar, QPushButton, QSizePolicy, QSplitter,
    QTableView, QTextBrowser, QVBoxLayout, QWidget,
)

from gpuplanner.app import engine
from ..fields import BoundCheck, BoundCombo
from .advanced_fields import FrameworkChecks
from ..text import better_line, mfu_cell, plural, tr_error, tr_msg, set_style
from .base import BasePage
from gpuplanner.formatting import format_clauses, format_list, format_sentences, join_clause, paren
from gpuplanner.i18n import _close_paren_space  # "llm-foundry（PyTorch FSDP）训练": no space after the bracket

# new columns go at the end: views and tests address the first ones by position
COLUMNS = ("rank", "gpu", "num_gpus", "layout", "memory", "days", "cost", "mfu", "framework", "rental_mode")
#: core.rules.RULE_IDS (written out: the page does not load the core at import; tests/test_advisor.py checks they agree)
RULE_IDS = ("mfu_grade", "card_class", "consumer_multinode", "pipeline_layers", "mfu_ceiling", "deadline_risk",
            "memory_headroom", "tp_over_pcie", "price_fabric", "price_kind")
GRADE_COLOURS = {"poor": "#c62828", "fair": "#8a6d00", "optimistic": "#b26a00"}
FRAMEWORK_SHORT = {"hf": QT_TRANSLATE_NOOP("PlansPage", "HF Trainer"), "deepspeed": QT_TRANSLATE_NOOP("PlansPage", "DeepSpeed"),
                   "fsdp": QT_TRANSLATE_NOOP("PlansPage", "FSDP2"), "megatron": QT_TRANSLATE_NOOP("PlansPage", "Megatron")}


def framework_name(p: engine.PlanRow) -> str:
    """The plan's framework, short (a product name, through the translator like every shown text; the full
    name is in the tooltip and the details' sentences)."""
    short = FRAMEWORK_SHORT.get(p.plan.framework)
    return QCoreApplication.translate("PlansPage", short) if short else p.plan.framework_name


#: the rental mode that bills a plan, short for the table (core/cost.MODE_LABELS has the full names, in the tooltip)
#: (a word or two: with the framework column shown the table's ten columns must fit 1280×800 without scrolling)
MODE_SHORT = {"card_hour": QT_TRANSLATE_NOOP("PlansPage", "hourly"), "spot": QT_TRANSLATE_NOOP("PlansPage", "spot"),
              "week": QT_TRANSLATE_NOOP("PlansPage", "week"), "month": QT_TRANSLATE_NOOP("PlansPage", "month"),
              "hybrid_week": QT_TRANSLATE_NOOP("PlansPage", "week cap"),
              "hybrid_month": QT_TRANSLATE_NOOP("PlansPage", "month cap")}


def rental_mode_cells(p: engine.PlanRow) -> tuple[str, str]:
    """The plan's billed rental mode as (cell, tooltip), read from its Evaluation; a mode the scenario sets for every
    plan (``constraints.rental_mode``) is marked "(as set)" once, in the column's title (:func:`mode_pinned`), as the
    CLI's plan table marks each row (a narrower column at 1280 px)."""
    ev = p.plan.evaluation
    if ev.rental_mode is None:
        return "—", ""
    short = QCoreApplication.translate("PlansPage", MODE_SHORT.get(ev.rental_mode, ev.rental_mode))
    full = QCoreApplication.translate("Cost", ev.rental_mode_label)
    if ev.scenario.constraints.rental_mode is not None:  # the column's title says "(as set)" (mode_pinned)
        return short, QCoreApplication.translate("PlansPage", "Billed on {0}, as set on the Time and budget page").format(
            full)
    if ev.rental_mode == "spot":  # the card's only price (rules.price_kind says so in the details)
        return short, QCoreApplication.translate("PlansPage", "Billed on {0}, the only price of this card").format(full)
    return short, QCoreApplication.translate(
        "PlansPage", "Billed on {0}, the cheapest price without interruptions").format(full)


def mode_column_shown(plans: list[engine.PlanRow]) -> bool:
    """The rental-mode column, where it says more than "on demand" on every row: a mode set in the scenario, or a
    plan billed per week, per month, with a cap or on spot. At 1280×800 the nine other columns fill the table
    (tests/ui/test_first_hour_ui.py): the common case keeps them all in sight (the cost's tooltip names the mode);
    with the column shown the last one, the framework, is reached by scrolling."""
    evs = [p.plan.evaluation for p in plans]
    modes = {ev.rental_mode for ev in evs if ev.rental_mode is not None}
    return bool(modes) and (modes != {"card_hour"} or any(ev.scenario.constraints.rental_mode for ev in evs))


def framework_column_shown(plans: list[engine.PlanRow]) -> bool:
    """The framework column, where the plans differ in it: with one framework for every plan (the scenario names it,
    or the search found one best) the column repeats it on every row, and the details name it; hiding it keeps the
    table inside 1280 px when the rental-mode column is shown (tests/ui/test_first_hour_ui.py)."""
    return len({p.plan.evaluation.scenario.training.framework for p in plans}) > 1


def mode_pinned(plans: list[engine.PlanRow]) -> bool:
    """Whether the plans were billed in a mode the scenario sets (their Evaluations' ``constraints.rental_mode``)."""
    return any(p.plan.evaluation.scenario.constraints.rental_mode for p in plans)


def grade_text(grade: str | None) -> str:
    """The MFU grade in the UI language (the core's names, context "Rules")."""
    return "" if not grade else QCoreApplication.translate("Rules", grade)


def mfu_with_grade(mfu: float, ev) -> str:
    """"44% (good)"; for an RL plan the grade's own figure beside it, "29% (training passes 44%, good)": the grade is
    of the training passes (core.evaluate mfu_graded), as ``gpuplanner plan`` writes "29% (44% good)" — not
    "29% (good)" under a rule line that says "Estimated MFU 44%: good" (ux14; Evaluation.rl_training_mfu)."""
    grade = grade_text(ev.mfu_grade)
    if ev.rl_training_mfu is not None:
        grade = QCoreApplication.translate("PlansPage", "training passes {0}, {1}").format(
            format_mfu(ev.rl_training_mfu), grade)
    return join_clause(format_mfu(mfu), paren(grade))


def recompute_phrase(policy: str, name: str) -> str:
    """A layout's recompute as a phrase: "recompute full", and the policy "none" by its own name, "no recompute"
    (the core's label, as the PDF's render._recompute_phrase writes it), never "recompute none" (ux10)."""
    from gpuplanner.core.recompute import LABEL_CTX, RECOMPUTE_LABELS

    if policy == "none":
        return QCoreApplication.translate(LABEL_CTX, RECOMPUTE_LABELS["none"])
    return QCoreApplication.translate("PlansPage", "recompute {0}").format(name)


def rule_name(rule_id: str) -> str:
    from gpuplanner.core.rules import RULE_NAMES

    return QCoreApplication.translate("Rules", RULE_NAMES.get(rule_id, rule_id))


def span_cell(p, unit: str) -> str:
    """A plan's calendar time in the Plans table, under a header naming the column's one unit (``unit``:
    :meth:`PlanTableModel.span_unit`): the plan's headline number where the plan reads in that unit
    (formatting.plan_span_numbers: the unit of its whole range, the range's precision), else its span in the
    column's unit ("31.2" hours for a plan of 1.3 days) — so a cell never reads "0.64" days beside a headline of
    "15.4 hours" (issue 35 round 14, ux22). Without a word, so the columns fit 1280×800."""
    from gpuplanner.formatting import elapsed_numbers, plan_span_numbers

    band = p.plan.evaluation.calendar_days_band
    own, num, _, _ = plan_span_numbers(p.calendar_days, band)
    return num if own == unit else elapsed_numbers([p.calendar_days], unit)[0]


def failed_rules(p: engine.PlanRow) -> list:
    return list(p.plan.evaluation.failed_rules)  # the Evaluation's (parity16: not filtered again here)


def layout_text(p: engine.PlanRow) -> str:
    """Compact layout: the model-parallel degrees above 1, the data-parallel degree, and the ZeRO stage when
    there is one, e.g. 'TP2·DP4·Z1', 'TP2·PP2·DP1' (no ZeRO); the details give every degree."""
    L = p.layout
    bits = [f"{k.upper()}{getattr(L, k)}" for k in ("tp", "pp", "cp", "ep") if getattr(L, k) > 1]
    bits.append(f"DP{L.dp}")
    if L.zero:
        bits.append(f"Z{L.zero}")
    return "·".join(bits)


def short_gpu_name(name: str) -> str:
    """The product name without the vendor prefix, its regional suffix in the UI language."""
    from gpuplanner.formatting import gpu_display_name

    return gpu_display_name(name, short=True)


def table_gpu_name(name: str) -> str:
    """The GPU in the ranked table, compact so the row fits: the product name without the vendor, the memory
    size (the GiB column shows it) and the regional suffix; the cell's tooltip gives the full name."""
    short = name
    for prefix in ("NVIDIA GeForce ", "NVIDIA ", "AMD Instinct ", "AMD ", "Huawei "):
        if short.startswith(prefix):
            short = short[len(prefix):]
            break
    short = re.sub(r"\s*\([^()]*\)", "", short)  # "(China)", "(HGX B200)", "(per Blackwell GPU)": in the tooltip
    return re.sub(r"\s+\d+\s*GB$", "", short) or short


def two_line_header(text: str) -> str:
    """A column title with its unit on a second line ("Cost (CNY)" → "Cost" / "(CNY)"), so that the unit does not
    widen a column of short figures."""
    for opening in (" (", "（"):
        if opening in text and not text.startswith(opening):
            head, _, tail = text.partition(opening)
            return head.rstrip() + "\n" + opening.strip() + tail
    return text


class ElidedLabel(QLabel):
    """One line at any width: a text wider than the label ends in "…" instead of being cut; the whole text is
    :meth:`full_text` (and whatever tooltip the owner sets)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._full = ""

    def set_full_text(self, text: str) -> None:
        self._full = text
        self._elide()

    def full_text(self) -> str:
        return self._full

    def resizeEvent(self, ev) -> None:  # noqa: N802 (Qt)
        super().resizeEvent(ev)
        self._elide()

    def _elide(self) -> None:
        shown = self.fontMetrics().elidedText(self._full, Qt.TextElideMode.ElideRight, max(self.width(), 16))
        if shown != self.text():
            self.setText(shown)


class PlanHeader(QHeaderView):
    """The table's header, each column as wide as its title and figures: Qt reserves room for the sort arrow
    (the header's height and a margin, ~28 px) in every column; here only in the sorted one, which left the
    last columns of the Plans page cut off at 1280×800."""

    def __init__(self, parent=None):
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.sortIndicatorChanged.connect(lambda *_a: self.resizeSections(QHeaderView.ResizeMode.ResizeToContents))

    def sectionSizeFromContents(self, logical: int):  # noqa: N802 (Qt)
        size = super().sectionSizeFromContents(logical)
        if self.isSortIndicatorShown() and logical != self.sortIndicatorSection():
            from PySide6.QtWidgets import QStyle

            margin = self.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, self)
            size.setWidth(max(size.width() - size.height() - margin, self.minimumSectionSize()))
        return size


class PlanTableModel(QAbstractTableModel):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.plans: list[engine.PlanRow] = []
        self.headers = list(COLUMNS)
        self.header_tips: dict[int, str] = {}  # column -> header tooltip (translated in retranslate)
        self.span_headers: dict[str, str] = {}  # the time column's header by the unit its cells share (retranslate)

    def set_plans(self, plans: list[engine.PlanRow]) -> None:
        self.beginResetModel()
        self.plans = list(plans)
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()):  # noqa: N802 (Qt)
        return 0 if parent.isValid() else len(self.plans)

    def columnCount(self, parent=QModelIndex()):  # noqa: N802 (Qt)
        return 0 if parent.isValid() else len(COLUMNS)

    def span_unit(self) -> str:
        """The time column's one unit: hours as soon as one plan's headline reads in hours, else days — so every plan
        read in hours in its headline reads the same number in the table (formatting.plan_span_unit; ux22)."""
        from gpuplanner.formatting import plan_span_unit

        units = {plan_span_unit(p.calendar_days, p.plan.evaluation.calendar_days_band) for p in self.plans}
        return "hours" if "hours" in units else "days"

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802 (Qt)
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            if COLUMNS[section] == "days" and self.span_headers:  # the column's one unit
                return self.span_headers.get(self.span_unit(), self.headers[section])
            return self.headers[section]
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.ToolTipRole:
            return self.header_tips.get(section)
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        p = self.plans[index.row()]
        col = COLUMNS[index.column()]
        if role == Qt.ItemDataRole.UserRole:  # sort key
            return {"rank": p.rank, "gpu": p.gpu_name, "num_gpus": p.num_gpus, "layout": layout_text(p),
                    "memory": p.memory.total, "days": _num(p.calendar_days), "tokens_per_s": _num(p.tokens_per_s),
                    "mfu": _num(p.mfu), "cost": _num(p.cost), "framework": framework_name(p),
                    "rental_mode": rental_mode_cells(p)[0]}[col]
        if role == Qt.ItemDataRole.UserRole + 1:
            return p
        if role == Qt.ItemDataRole.DisplayRole:
            if col == "rank":  # ★ Pareto front, ✗ fails a planning rule (tooltip: which); no spaces: the nine
                # columns fit 1280 px with every mark shown (tests/ui/test_first_hour_ui.py)
                return f"{p.rank}" + ("★" if p.pareto else "") + ("✗" if failed_rules(p) else "")
            if col == "gpu":
                return table_gpu_name(p.gpu_name)
            if col == "num_gpus":
                return f"{p.num_gpus}"
            if col == "layout":
                return layout_text(p)
            if col == "memory":
                return f"{format_number(p.memory.total, 1)} / {format_sig(p.memory.capacity)}"
            if col == "days":  # the headline's number in the column's unit (ux22: "0.64" under "Days" beside "15.4 hours")
                return span_cell(p, self.span_unit())
            if col == "tokens_per_s":
                return "—" if p.tokens_per_s is None else format_tokens(p.tokens_per_s, digits=3)
            if col == "mfu":
                if p.mfu is None:
                    return "—"
                # the grade: the cell's colour, its tooltip, the details and the ✗ of a failed rule; a plan timed
                # at its class's best published run marked as ``gpuplanner plan`` marks it (Evaluation.mfu_capped)
                return mfu_cell(p.mfu, p.plan.evaluation, short=True)
            if col == "cost":
                return "—" if p.cost is None else format_number(p.cost, 0)
            if col == "framework":
                return framework_name(p)
            if col == "rental_mode":
                return rental_mode_cells(p)[0]
        if role == Qt.ItemDataRole.ToolTipRole:
            if col == "gpu":
                from gpuplanner.formatting import gpu_display_name

                return f"{gpu_display_name(p.gpu_name)} ({p.gpu})"
            if col == "num_gpus":
                return plural_s(QCoreApplication.translate("PlansPage", "{0} node(s) of {1}"), p.nodes).format(
                    p.nodes, p.gpus_per_node)
            if col in ("rank", "mfu"):
                head = [QCoreApplication.translate("PlansPage", "MFU grade") + ": " + grade_text(p.plan.mfu_grade)] \
                    if col == "mfu" and p.plan.mfu_grade else []
                if col == "mfu" and p.plan.evaluation.mfu_note is not None:  # the star's reason (the CLI's note)
                    head.append(mfu_cell(p.mfu, p.plan.evaluation) + ": " + tr_msg(p.plan.evaluation.mfu_note))
                return "\n".join(head + [("✓ " if r.status == "passed" else "✗ ") + rule_name(r.id) + ": " + tr_msg(r.message)
                                 for r in p.plan.evaluation.rules
                                 if r.status != "not_applicable" and (col == "rank" or r.id == "mfu_grade")])
            if col == "framework":
                return "\n".join([p.plan.framework_name] + [tr_msg(m) for m in p.plan.framework_reason[:1]])
            if col == "cost" and p.cost is not None:
                return "\n".join(t for t in (format_money(p.cost, p.currency, decimals=0), rental_mode_cells(p)[1]) if t)
            if col == "rental_mode" and p.plan.evaluation.rental_mode is not None:
                return rental_mode_cells(p)[1]
            # a column narrower than its text (a small window) still shows it whole on hover
            return self.data(index, Qt.ItemDataRole.DisplayRole)
        if role == Qt.ItemDataRole.ForegroundRole and col in ("rank", "days", "cost", "mfu"):
            from PySide6.QtGui import QColor

            if col == "mfu":
                c = GRADE_COLOURS.get(p.plan.mfu_grade or "")
                return QColor(c) if c else None
            bad = (col == "days" and not p.meets_deadline) or (col == "cost" and not p.within_budget) or \
                (col == "rank" and bool(failed_rules(p)))
            return QColor("#c62828") if bad else None
        if role == Qt.ItemDataRole.TextAlignmentRole and col not in ("gpu", "layout", "framework", "rental_mode"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


def _num(v):
    return math.inf if v is None else float(v)


class PlansPage(BasePage):
    SCROLL = False

    def title(self) -> str:
        return self.tr("Plans")

    # long: builds the page's form and table row by row (Qt layout code)
    def build(self) -> None:
        m = self.model
        # while the page is hidden: the rank to select and whether the details wait for it (showEvent)
        self._pending_rank: int | None = None
        self._details_stale = False
        top = QHBoxLayout()
        self.objective_label = QLabel()
        self.objective = BoundCombo(m, "constraints.objective", ["cheapest", "fastest", "value"])
        self.fields.append(self.objective)
        top.addWidget(self.objective_label)
        top.addWidget(self.objective.box)
        self.progress = QProgressBar()
        self.progress.setRange(0, 100)
        self.progress.setMaximumWidth(160)
        self.progress.setTextVisible(False)
        top.addWidget(self.progress)
        self.status = QLabel()
        self.status.setWordWrap(True)
        top.addWidget(self.status, 1)
        self.adopt = QPushButton()
        self.adopt.clicked.connect(self.adopt_current)
        self.adopt.setVisible(False)
        top.addWidget(self.adopt)
        self.rerun = QPushButton()
        self.rerun.clicked.connect(self.ctx.search.restart)
        top.addWidget(self.rerun)
        self.body.addLayout(top)
        # the search's best plan when it beats the manual layout by more than its tie (text.better_line; choice15)
        self.better = QLabel()
        self.better.setObjectName("betterPlan")
        self.better.setTextFormat(Qt.TextFormat.PlainText)
        self.better.setWordWrap(True)
        self.better.setStyleSheet("color: #8a5300; font-weight: bold;")
        self.better.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.better.hide()
        self.body.addWidget(self.better)

        # the search's own switches: framework search and the planning rules (constraints.*)
        # a grid of three rows, so the page stays narrow enough for the live panel beside it (Chinese included)
        switches = QGridLayout()
        switches.setHorizontalSpacing(12)
        switches.setVerticalSpacing(2)
        self.search_frameworks = BoundCheck(m, "constraints.search_frameworks")
        self.fields.append(self.search_frameworks)
        switches.addWidget(self.search_frameworks.box, 0, 0)
        self.framework_candidates = FrameworkChecks(m, "constraints.framework_candidates")
        self.fields.append(self.framework_candidates)
        switches.addWidget(self.framework_candidates.box, 0, 1, 1, 2)
        self.rules_label = QLabel()
        switches.addWidget(self.rules_label, 1, 0)
        self.rule_checks: dict[str, BoundCheck] = {}
        for k, rid in enumerate(RULE_IDS):
            chk = BoundCheck(m, f"constraints.rules.{rid}")
            self.fields.append(chk)
            self.rule_checks[rid] = chk
            switches.addWidget(chk.box, 1 + k // 2, 1 + k % 2)
        switches.setColumnStretch(3, 1)
        box = QWidget()  # its width never widens the page (the live panel keeps its share of the window)
        box.setLayout(switches)
        switches.setContentsMargins(0, 0, 0, 0)
        box.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.body.addWidget(box)
        # one line (the full list: its tooltip and the end of the details), so the page never grows taller
        self.skipped_label = ElidedLabel()
        self.skipped_label.setWordWrap(False)
        self.skipped_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.skipped_label.setStyleSheet("color: #555;")
        self.skipped_label.setVisible(False)
        self.body.addWidget(self.skipped_label)

        self.split = QSplitter(Qt.Orientation.Vertical)
        self.table_model = PlanTableModel(self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.table_model)
        self.proxy.setSortRole(Qt.ItemDataRole.UserRole)
        self.view = QTableView()
        self.view.setHorizontalHeader(PlanHeader(self.view))
        self.view.setModel(self.proxy)
        self.view.setSortingEnabled(True)
        self.view.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.verticalHeader().setVisible(False)
        self.view.setAlternatingRowColors(True)
        self.view.setWordWrap(False)
        self.view.verticalHeader().setDefaultSectionSize(24)
        self.view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        # every column as wide as its text (GPU names are never cut); the last one takes what is left
        self.view.horizontalHeader().setStretchLastSection(True)
        self.view.horizontalHeader().setMinimumSectionSize(36)
        # the rental mode beside the cost it bills (the model keeps it last: COLUMNS' positions stay)
        self.view.horizontalHeader().moveSection(COLUMNS.index("rental_mode"), COLUMNS.index("cost") + 1)
        self.view.setMinimumHeight(140)
        self.view.selectionModel().currentRowChanged.connect(self._on_current)
        self.split.addWidget(self.view)
        self.details = QTextBrowser()
        self.details.setOpenExternalLinks(False)
        self.details.setMinimumHeight(150)
        self.split.addWidget(self.details)
        self.split.setSizes([260, 320])
        self.body.addWidget(self.split, 1)

        s = self.ctx.search
        s.started.connect(self._on_started)
        s.progress.connect(lambda f: self.progress.setValue(int(f * 100)))
        s.finished.connect(self._on_finished)
        s.failed.connect(self._on_failed)
        self.ctx.estimator.updated.connect(lambda _r: self.show_details(self.current_plan()))
        self.ctx.estimator.updated.connect(lambda _r: self._update_better())
        if s.outcome is not None:
            self._on_finished(s.outcome)
            self.select_rank(self.model.ui.get("selected_plan") or 1)

    def showEvent(self, ev) -> None:  # noqa: N802 (Qt)
        """What waited for the page to be shown: the selected plan's row (:meth:`select_rank`) and its details
        (:meth:`show_details`)."""
        super().showEvent(ev)
        rank = self._pending_rank
        if rank is not None:
            self.select_rank(rank)
        if self._details_stale:
            self.show_details(self.current_plan())

    def retranslate(self) -> None:
        self.heading.setText(self.tr("6 · Plans"))
        self.intro.setText(self.tr(
            "Configurations that fit, ranked. ★ marks the best trade-offs (no other plan is both cheaper "
            "and faster). Select a plan to see its details and adopt it in the live charts; click a column to sort."))
        self.objective_label.setText(self.tr("Rank by"))
        self.objective.box.set_help(self.tr("Cheapest total cost, fastest finish, or best value (cost × time)"))
        self.objective.set_labels({"cheapest": self.tr("cheapest"), "fastest": self.tr("fastest"),
                                   "value": self.tr("best value")})
        self.adopt.setText(self.tr("Use this layout"))
        self.adopt.setToolTip(self.tr("Copy this plan's GPUs and layout into your manual layout"))
        self.rerun.setText(self.tr("Search again"))
        self.rerun.setToolTip(self.tr("Run the plan search again with the current inputs"))
        self.search_frameworks.setText(self.tr("Choose the framework"))
        self.framework_candidates.retranslate()
        self.search_frameworks.box.set_help(self.tr(
            "Let the search compare Hugging Face Trainer, DeepSpeed, PyTorch FSDP2 and Megatron-Core; off: only "
            "the framework on the Training page"))
        self.rules_label.setText(self.tr("Planning rules:"))
        tips = {  # each switch reads its rule's name (rule_name: the check lines' and rank lines' name)
            "mfu_grade": self.tr(
                "Rank plans with a poor estimated MFU (below 30% on mainstream GPUs) after the others, unless "
                "nothing else meets the deadline. Poor and good are the guide's 30% and 40–55% on mainstream "
                "GPUs, scaled on a card whose best published run is higher; above the best published run of the "
                "plan's class is optimistic."),
            "card_class": self.tr(
                "Leave out cards under 80 GB for full training of dense models of ~70B and more"),
            "consumer_multinode": self.tr(
                "Consumer cards without P2P keep tensor/pipeline parallelism and ZeRO-2/3 inside one node"),
            "pipeline_layers": self.tr(
                "Pipeline stages must divide the model's layers evenly"),
            "mfu_ceiling": self.tr(
                "Time and cost a plan at no more than the best published MFU of its GPU and framework family "
                "(source, date and layout in the plan's rules)"),
            "deadline_risk": self.tr(
                "Rank plans that meet the deadline or budget only at the estimate, not at the upper end of their "
                "range, after safe ones"),
            "memory_headroom": self.tr(
                "Rank plans with less free memory than the memory model's p75 error after those with room"),
            "tp_over_pcie": self.tr(
                "Rank tensor parallelism over PCIe (no NVLink) after plans without it"),
            "price_fabric": self.tr(
                "A plan over several nodes priced from a quote not known to offer networked servers (InfiniBand "
                "or RoCE) fails this check, ranks after plans priced from quotes of the right kind and says what "
                "to ask the vendor"),
            "price_kind": self.tr(
                "Plans are compared on prices without interruptions (or the rental mode you set); a plan billed on "
                "spot because its card has no other price fails this check"),
        }
        for rid, tip in tips.items():
            self.rule_checks[rid].setText(rule_name(rid))
            self.rule_checks[rid].box.set_help(tip + " " + self.tr("(untick to allow it)"))
        cur = self.model.scenario.constraints.currency
        self.table_model.headers = [self.tr("#"), self.tr("GPU"), self.tr("GPUs"), self.tr("Layout"),
                                    self.tr("GiB/GPU"), self.tr("Time"), two_line_header(self.tr("Cost ({0})").format(cur)),
                                    self.tr("MFU"), self.tr("Stack"), self.tr("Rental")]
        # "Stack" is short for the column to fit at 1280×800; its tooltip says what it is (ux13)
        # "Hrs": the nine columns fit 1280×800 with "Days" and no wider (tests/ui/test_first_hour_ui.py)
        self.table_model.span_headers = {"hours": self.tr("Hrs"), "days": self.tr("Days")}
        self.table_model.header_tips = {COLUMNS.index("framework"): self.tr("Framework or tool that runs the plan"),
                                        COLUMNS.index("days"): self.tr("Calendar time: what you wait, with setup, "
                                                                       "checkpoints and interruptions"),
                                        COLUMNS.index("mfu"): self.tr(
                                            "Model FLOPs utilisation. *: capped, the model gives more than the best "
                                            "published run of the plan's class reached; the plan is timed and costed "
                                            "at that run's figure")}
        self._set_mode_header()
        self.table_model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(COLUMNS) - 1)
        self._update_status()
        self.show_details(self.current_plan())

    # ------------------------------------------------------------------------------- search events
    def _on_started(self) -> None:
        self.progress.setValue(0)
        self._update_status()

    def _on_finished(self, out: engine.SearchOutcome) -> None:
        self.progress.setValue(100)
        if out.plans:
            self._set_cost_header(out.plans[0].currency)
        self.table_model.set_plans(out.plans)
        self.view.setColumnHidden(COLUMNS.index("rental_mode"), not mode_column_shown(out.plans))
        self.view.setColumnHidden(COLUMNS.index("framework"), not framework_column_shown(out.plans))
        self._set_mode_header()
        self.proxy.sort(self.proxy.sortColumn(), self.proxy.sortOrder())
        self._update_status()
        if not out.plans:
            self.show_details(None)

    def _on_failed(self, msg: str) -> None:
        self._update_status()

    def _update_status(self) -> None:
        s = self.ctx.search
        if s.state == "running":
            text = self.tr("Searching…")
        elif s.state == "failed":
            text = self.tr("The search failed: {0}").format(tr_error(s.error, self) if s.error else "")
        elif s.state == "done" and s.outcome is not None:
            n = len(s.outcome.plans)
            text = plural(self.tr("%n plan(s) shown; {0} of {1} configurations fit ({2}).", "", n), n).format(
                format_number(s.outcome.fitting), format_number(s.outcome.considered),
                # number and unit kept on one line ("（572" / "毫秒）。" wrapped apart in Chinese; ux26)
                format_wall_time(s.outcome.search_ms).replace(" ", "\u00a0"))
            for note in s.outcome.notes:
                text += " " + tr_msg(note)
        else:
            text = self.tr("The search starts when the inputs are complete.")
        self.status.setText(text)
        self._update_skipped()
        self._update_better()
        set_style(self.status, "color: #c62828;" if s.state == "failed" else "")
        self.progress.setVisible(s.state == "running")

    def _update_better(self) -> None:
        line = better_line(self.model.scenario, self.ctx.estimator, self.ctx.search)
        if self.better.text() != line:
            self.better.setText(line)
        self.better.setVisible(bool(line))

    def skipped_groups(self) -> dict[str, list[str]]:
        """The candidate GPUs the search left out, by reason (in the UI language): nothing disappears silently."""
        s = self.ctx.search
        skipped = dict(s.outcome.skipped) if s.state == "done" and s.outcome is not None else {}
        from gpuplanner.core.catalog_hw import lookup_gpu
        from gpuplanner.core.errors import PlannerError

        groups: dict[str, list[str]] = {}  # the reason (in the UI language) -> the cards it leaves out
        for gid, why in skipped.items():
            try:
                name = short_gpu_name(lookup_gpu(gid, self.model.scenario.hardware.custom_gpus).name)
            except PlannerError:
                name = gid
            groups.setdefault(tr_msg(why), []).append(name)
        return groups

    def _update_skipped(self) -> None:
        groups = self.skipped_groups()
        if not groups:
            self.skipped_label.setVisible(False)
            return
        lines = [self.tr("{0}: {1}").format(why, format_list(names)) for why, names in groups.items()]
        self.skipped_label.set_full_text(self.tr("Not ranked — {0}").format(" · ".join(lines)))
        self.skipped_label.setToolTip(self.tr("Not ranked — {0}").format("\n" + "\n".join(lines)))
        self.skipped_label.setVisible(True)

    # ------------------------------------------------------------------------------- selection
    def current_plan(self) -> engine.PlanRow | None:
        rank = self._pending_rank
        if rank is not None:  # selected while the page was hidden: its row is selected when the page is shown
            p = next((q for q in self.table_model.plans if q.rank == rank), None)
            if p is not None:
                return p
        idx = self.view.currentIndex()
        if not idx.isValid():
            return None
        return self.proxy.data(idx, Qt.ItemDataRole.UserRole + 1)

    def _on_current(self, current: QModelIndex, _prev: QModelIndex) -> None:
        if not current.isValid():
            return
        plan = self.proxy.data(current, Qt.ItemDataRole.UserRole + 1)
        self.select_plan(plan)

    def select_plan(self, plan: engine.PlanRow | None) -> None:
        """Show the plan; with the automatic layout the live charts adopt it too."""
        if plan is None:
            return
        self.model.set_ui("selected_plan", plan.rank)
        if plan.values and self.model.scenario.parallel.auto:
            self.model.apply_plan(dict(plan.values))
        self.show_details(plan)
        self.adopt.setVisible(not self.model.scenario.parallel.auto)

    def adopt_current(self) -> None:
        """Manual layout: copy the selected plan's GPUs and layout into the Training setup fields."""
        plan = self.current_plan()
        if plan is not None:
            self.model.set_many(dict(plan.values))

    def select_rank(self, rank: int) -> None:
        """Select the plan of that rank. While the page is hidden the plan is taken at once (the model's selected
        plan, the live charts) and its row is selected when the page is shown: selecting a row of a hidden table
        after new rows arrived made it measure every cell (~4 ms per finished search, every keystroke)."""
        if not self.isVisible():
            p = next((q for q in self.table_model.plans if q.rank == rank), None)
            if p is not None:
                self._pending_rank = rank
                self.select_plan(p)
            return
        self._pending_rank = None
        for r in range(self.proxy.rowCount()):
            p = self.proxy.data(self.proxy.index(r, 0), Qt.ItemDataRole.UserRole + 1)
            if p.rank == rank:
                if self.view.currentIndex().row() == r:
                    self.select_plan(p)
                else:
                    self.view.selectRow(r)
                return

    def next_plan(self, plan: engine.PlanRow) -> engine.PlanRow | None:
        plans = self.table_model.plans
        return next((p for p in plans if p.rank == plan.rank + 1), None)

    def why_summary(self, a: engine.PlanRow, b: engine.PlanRow | None) -> str:
        """Two sentences at the top of the details: how this plan compares with the next on the ranking, then
        the core's reason (price against delivered TFLOPS for two cards, layout and framework for one card)."""
        if b is None:
            return ""
        first = self.why_head(a, b)
        decisive = engine.compare(a, b).decisive
        second = tr_msg(decisive) if decisive is not None else ""
        # (a poor grade ranks lower only where it fails the rule: core.rules.poor_penalised)
        if not second and a.plan.mfu_grade != b.plan.mfu_grade and b.plan.mfu_grade == "poor" and any(
                r.id == "mfu_grade" and r.status == "failed" for r in b.plan.rules):
            second = self.tr("#{0} is graded poor (MFU below its card class's poor line), so it ranks "
                             "lower.").format(b.rank)
        return format_sentences([first, second]).strip()  # "。" carries its own space in Chinese (ux11)

    def why_head(self, a: engine.PlanRow, b: engine.PlanRow) -> str:
        bits = []
        cmp = engine.compare(a, b)  # the one "why A and not B" (app.answer.compare): this only formats it
        if cmp.cost_saved is not None and round(abs(cmp.cost_saved)) == 0 and a.cost is not None:
            # "it costs ¥0 more" said nothing (ux28): the two round to the same money
            bits.append(self.tr("it costs the same ({0})").format(format_money(a.cost, a.currency, decimals=0)))
        elif cmp.cheaper_share is not None:
            bits.append(self.tr("it costs {0} less ({1}% cheaper)").format(
                format_money(cmp.cost_saved, a.currency, decimals=0), share_percent_number(cmp.cheaper_share)))
        elif cmp.cost_saved is not None and cmp.cost_saved < 0:
            bits.append(self.tr("it costs {0} more").format(format_money(-cmp.cost_saved, a.currency, decimals=0)))
        from gpuplanner.core.messages import elapsed_msg

        # in hours below a day, as every span (formatting.format_elapsed's words, translated; ux21, ux22)
        gap = tr_msg(elapsed_msg(abs(cmp.days_sooner)))
        if cmp.days_sooner > 0:
            bits.append(self.tr("it finishes {0} sooner").format(gap))
        elif cmp.days_sooner < 0:
            bits.append(self.tr("it takes {0} longer").format(gap))
        if not bits:
            return self.tr("Against #{0} ({1} × {2}): it ties on the ranking objective.").format(
                b.rank, b.num_gpus, short_gpu_name(b.gpu_name))
        return self.tr("Against #{0} ({1} × {2}): {3}.").format(b.rank, b.num_gpus, short_gpu_name(b.gpu_name),
                                                            format_clauses(bits))

    def why_text(self, a: engine.PlanRow, b: engine.PlanRow | None) -> str:
        """Why ``a`` beat the next plan: the ranking numbers, then the core's per-token comparison."""
        if b is None:
            return self.tr("It is the only plan that fits.") if len(self.table_model.plans) == 1 else \
                self.tr("It is the last plan shown.")
        head = html.escape(self.why_head(a, b))
        more = [tr_msg(m) for m in engine.compare(a, b).reasons]
        return head + ("<ul>" + "".join(f"<li>{html.escape(t)}</li>" for t in more) + "</ul>" if more else "")

    # long: the selected plan's details as HTML, paragraph by paragraph in the shown order
    def show_details(self, p: engine.PlanRow | None) -> None:
        """The selected plan's details. While the page is hidden (the person types on another page: every estimate
        and every search would rebuild them, ~5 ms of the GUI thread per keystroke) they are only marked stale and
        built for the plan selected then, when the page is shown (:meth:`showEvent`)."""
        if not self.isVisible():
            self._details_stale = True
            return
        self._details_stale = False
        if p is None:
            self.details.setHtml(self.tr("<p>No plan selected.</p>"))
            return
        m = p.memory
        tr = self.tr
        esc = html.escape
        rows = [f"<h3>{esc(tr('#{0}: {1} × {2}').format(p.rank, p.num_gpus, gpu_display_name(p.gpu_name)))}</h3>"]
        if not self.model.scenario.parallel.auto and p.scenario != self.model.scenario:
            # a manual layout is the user's: selecting a plan only previews it (the summary and charts stay theirs)
            rows.append("<p style='color:#8a5300'><b>" + esc(tr(
                "Preview: the summary and the live charts show your own layout until you press “Use this "
                "layout”.")) + "</b></p>")
        summary = self.why_summary(p, self.next_plan(p))
        if summary:
            rows.append(f"<p><b>{esc(summary)}</b></p>")
        if p.plan.decision:  # #1: why it beat the next GPU type and framework (the search's sentences)
            rows.append(f"<p><b>{tr('Why this plan')}</b>" + colon() + esc(format_sentences(tr_msg(d["message"]) for d in p.plan.decision))
                        + "</p>")
        ev = p.plan.evaluation
        if ev.deadline_risk:
            rows.append("<p style='color:#b26a00'><b>" + esc(tr(
                "At risk: meets the deadline or budget at the estimate, but not at the upper end of its band.")) + "</b></p>")
        bad = failed_rules(p)
        if bad:
            rows.append("<p style='color:#c62828'><b>" + esc(tr("Fails the planning rules: {0}").format(
                format_list(rule_name(r.id) for r in bad))) + "</b></p>")
        if not p.meets_deadline or not p.within_budget:
            flags = []
            if not p.meets_deadline:
                flags.append(tr("misses the deadline"))
            if not p.within_budget:
                flags.append(tr("over budget"))
            rows.append(f"<p style='color:#c62828'><b>{esc(', '.join(flags))}</b></p>")
        L = p.layout
        rows.append(f"<p><b>{tr('Parallel layout')}</b>" + colon() + esc(plural_s(tr(
            "TP {0} · PP {1} · CP {2} · EP {3} · DP {4} · ZeRO-{5} · {6} · micro-batch {7} × "
            "accumulation {8} · {9} node(s) of {10}"), p.nodes).format(
            L.tp, L.pp, L.cp, L.ep, L.dp, L.zero, recompute_phrase(L.recompute, {
                "selective": tr("selective"), "megatron_selective": tr("selective"), "op_sac": tr("per-op selective"),
                "layer_sac": tr("every N-th layer"), "full": tr("full")}.get(L.recompute, L.recompute)),
            L.micro_batch_size, L.grad_accum, p.nodes, p.gpus_per_node))
            + esc("".join([tr(" · interleaved ×{0}").format(L.vpp) if L.vpp > 1 else "",
                           tr(" · sequence parallel") if L.sequence_parallel else "",
                           tr(" · optimizer offloaded to CPU") if L.offload_optimizer else ""])) + "</p>")
        if p.plan.framework_reason:
            # the first reason names the framework ("Framework: X, chosen by the search …", core.search
            # framework_reason): it is the heading, not a repeat of a "Framework: X" line above it (ux11)
            first, *more = p.plan.framework_reason
            rows.append(f"<p>{esc(tr_msg(first))}</p>" + ("<ul>" + "".join(
                f"<li>{esc(tr_msg(x))}</li>" for x in more) + "</ul>" if more else ""))
        if ev.rules:
            marks = {"passed": "✓", "failed": "✗", "allowed": "✗", "not_applicable": "–"}
            status = {"passed": tr("passed"), "failed": tr("failed"), "allowed": tr("allowed by you"),
                      "not_applicable": tr("does not apply")}
            cells = []
            for r in ev.rules:
                colour = " style='color:#c62828'" if r.status == "failed" else ""
                cells.append(f"<tr{colour}><td>{marks[r.status]} {esc(rule_name(r.id))}</td>"
                             f"<td>{esc(status[r.status])}</td><td>{esc(tr_msg(r.message))}</td></tr>")
            rows.append(f"<p><a name='rules'></a><b>{tr('Planning rules')}</b></p><table cellspacing=0 cellpadding=3 border=1>"
                        + "".join(cells) + "</table>")
        parts = m.parts  # the base parts, then the objective's models (reference, reward, critic, …)
        mem_cells = "".join(f"<td align=right>{format_number(v, 1)}</td>" for v in parts.values())
        part_names = {"weights": tr("weights"), "gradients": tr("gradients"), "optimizer": tr("optimizer"),
                      "activations": tr("activations"), "other": tr("other"), "reference": tr("reference model"),
                      "reward": tr("reward model"), "critic": tr("critic"), "rollout_weights": tr("vLLM weights"),
                      "kv_cache": tr("rollout KV cache")}
        heads = "".join(f"<th>{part_names.get(k, k)}</th>" for k in parts)
        fit = tr("fits") if m.fits else "<span style='color:#c62828'>" + tr("does not fit") + "</span>"
        # the margin kept free on top of the estimate, as the sum it is (as `estimate` and the PDF say it; ux27)
        fit += esc(tr(": {0} + {1} kept free on top of the estimate = {2} of {3}").format(
            format_number(m.total, 1), format_number(m.headroom, 1), format_number(m.total + m.headroom, 1),
            format_sig(m.capacity)))
        rows.append(f"<p><b>{tr('Memory per GPU (GiB)')}</b> — {fit}</p><table cellspacing=0 cellpadding=3 border=1>"
                    f"<tr>{heads}<th>{tr('total')}</th>"
                    f"<th>{tr('capacity')}</th></tr><tr>{mem_cells}<td align=right><b>{format_number(m.total, 1)}</b></td>"
                    f"<td align=right>{format_sig(m.capacity)}</td></tr></table>")
        # one message in the one unit of the plan's whole range (formatting.format_plan_time; ux21, ux22)
        from gpuplanner.core.messages import plan_span_msgs

        head, compute, span_rng = (tr_msg(m) if m is not None else None for m in plan_span_msgs(
            p.calendar_days, p.compute_days, ev.calendar_days_band))
        rows.append("<p><a name='time'></a><b>" + tr("Time") + "</b>" + colon() + esc(tr(
            "{0} in calendar time ({1} of compute) · {2} tokens/s · MFU {3}").format(
            head, compute, format_tokens(p.tokens_per_s or 0, digits=3),
            "—" if p.mfu is None else mfu_with_grade(p.mfu, ev))) + "</p>")
        if ev.mfu_note is not None:  # the MFU shown is the ceiling's; the modelled one beside it, with the reason
            rows.append("<p style='color:#b26a00'>" + esc(tr("MFU {0}: {1}.").format(
                format_mfu(ev.mfu), tr_msg(ev.mfu_note))) + "</p>")
        if ev.calendar_days_band is not None:
            from gpuplanner.core.evaluate import band_name, cost_band_msg

            rng = span_rng or "—"  # the headline's unit and precision, with its word (format_plan_time; ux22)
            if ev.cost_band is not None:
                rng += " · " + tr_msg(cost_band_msg(ev))  # as the live panel's tooltip; one figure says why (ux15)
            rows.append("<p><b>" + tr("Likely range") + "</b>" + colon() + esc(rng) + "<br/><span style='color:#555'>"
                        + esc(_close_paren_space(self.tr("p10–p90 of the model's error on {0} published {1} runs: {2}").format(
                            ev.band["rows"], band_name(ev.band, QCoreApplication.translate), QCoreApplication.translate("Evaluation", ev.band["meaning"]))))
                        + "</span></p>")
        if ev.calibration_notes:
            rows.append("<ul>" + "".join(f"<li>{esc(tr_msg(m))}</li>" for m in ev.calibration_notes) + "</ul>")
        if ev.time.breakdown:
            from gpuplanner.formatting import breakdown_rows

            names = {k: QCoreApplication.translate("Timing", v) for k, v in ev.time.breakdown_labels.items()}
            cells = "".join(f"<tr><td>{esc(names.get(k, k))}</td><td align=right>{pct}</td></tr>"
                            for k, pct in breakdown_rows(ev.time.breakdown))  # the CLI's and the PDF's rows
            from gpuplanner.core.timing import HIDDEN_LABELS
            from gpuplanner.formatting import hidden_share_rows

            cells += "".join(
                f"<tr style='color:#555'><td>{esc(self.tr('{0}, hidden under compute (not in the step)').format(QCoreApplication.translate('Timing', HIDDEN_LABELS[k])))}</td>"
                f"<td align=right>{pct}</td></tr>" for k, pct in hidden_share_rows(ev.time.hidden_shares))
            rows.append(f"<p><b>{tr('Step time breakdown')}</b></p><table cellspacing=0 cellpadding=3 border=1>"
                        f"{cells}</table>")
        if ev.mode_costs:
            try:
                from gpuplanner.core.cost import MODE_LABELS
            except ImportError:
                MODE_LABELS = {}
            cells = []
            for k, v in sorted(ev.mode_costs.items(), key=lambda kv: kv[1]):
                label = QCoreApplication.translate("Cost", MODE_LABELS[k]) if k in MODE_LABELS else k
                star = " ✔" if k == p.rental_mode else ""
                cells.append(f"<tr><td>{esc(label)}{star}</td><td align=right>{format_money(v, p.currency, decimals=0)}</td></tr>")
            rows.append(f"<p><a name='cost'></a><b>{tr('Cost by rental mode')}</b></p><table cellspacing=0 cellpadding=3 border=1>"
                        f"{''.join(cells)}</table>")
            from gpuplanner.core.cost import KIND_LABELS

            pr = ev.price
            if pr is not None and pr.kinds:
                parts = [f"{QCoreApplication.translate('Cost', MODE_LABELS['card_hour' if k == 'card_hour' else 'month' if k == 'machine_month' else 'week' if k == 'machine_week' else 'spot'])}{colon()}"
                         f"{QCoreApplication.translate('Cost', KIND_LABELS.get(v, v))}" for k, v in pr.kinds.items()]
                from gpuplanner.core.search import REGION_NAMES

                region = QCoreApplication.translate("Plan", REGION_NAMES[pr.region]) if pr.region in REGION_NAMES else "—"
                rows.append("<p>" + esc(tr("Priced from: {0} · region {1} · {2}, {3}").format(
                    format_clauses(parts), region, pr.provider or "", pr.source_date)) + "</p>")
            # the break-even hours are said once, by the Evaluation's rental advice below (cost.rental_advice,
            # the figure Evaluation.break_even holds), as the CLI and the report say them
            offered = set(ev.mode_costs)
            missing = [QCoreApplication.translate("Cost", MODE_LABELS[k]) for k in MODE_LABELS if k not in offered]
            if missing:
                rows.append("<p style='color:#555'>" + esc(tr("Not compared (no quote of that kind): {0}").format(
                    format_list(missing))) + "</p>")
            if ev.rental_advice:
                rows.append("<ul>" + "".join(f"<li>{esc(tr_msg(a))}</li>" for a in ev.rental_advice) + "</ul>")
        if ev.rent_vs_build is not None:
            rows.append(f"<p><a name='rent-or-build'></a><b>{tr('Rent or build')}</b>{colon()}"
                        f"{esc(tr_msg(ev.rent_vs_build.sentence))}</p>")
            rows.append(self.rent_vs_build_table(ev.rent_vs_build))
        if p.warnings:
            rows.append(f"<p><b>{tr('Warnings')}</b></p><ul>" +
                        "".join(f"<li>{esc(tr_msg(w))}</li>" for w in p.warnings) + "</ul>")
        if p.explanation:
            rows.append(f"<p><b>{tr('How it works')}</b></p><ul>" +
                        "".join(f"<li>{esc(tr_msg(e))}</li>" for e in p.explanation) + "</ul>")
        rows.append(f"<p><b>{tr('Why it beat the next plan')}</b>{colon()}{self.why_text(p, self.next_plan(p))}</p>")
        groups = self.skipped_groups()
        if groups:
            rows.append(f"<p><b>{tr('Not ranked')}</b></p><ul>" + "".join(
                # the language's colon and list separator, as the line above the table writes them (ux9)
                f"<li>{esc(self.tr('{0}: {1}').format(why, format_list(names)))}</li>"
                for why, names in groups.items()) + "</ul>")
        self.details.setHtml("".join(rows))

    def rent_vs_build_table(self, rb) -> str:
        """Renting next to the five parts of building, and the break-even utilisation (read from the plan's
        Evaluation; nothing computed here)."""
        from PySide6.QtCore import QCoreApplication

        from gpuplanner.core.cost import BUILD_PART_LABELS, break_even_line, unknown_build_parts

        esc = html.escape
        cur = rb.currency
        cells = [f"<tr><td><b>{esc(self.tr('Rent, total'))}</b></td><td align=right><b>{format_money(rb.rent_total, cur, decimals=0)}</b>"
                 f"</td></tr>"]
        unknown = unknown_build_parts(rb)  # a part whose input is missing is unknown, not zero

        def amount(v: float, known: bool) -> str:
            return format_money(v, cur, decimals=0) if known else esc(self.tr("unknown"))

        for key, label in BUILD_PART_LABELS.items():
            cells.append(f"<tr><td>{esc(self.tr('Build'))}: {esc(QCoreApplication.translate('Cost', label))}</td>"
                         f"<td align=right>{amount(rb.breakdown[key], key not in unknown)}</td></tr>")
        won = " ✔" if rb.verdict == "build" else ""
        cells.append(f"<tr><td><b>{esc(self.tr('Build, total'))}{won}</b></td>"
                     f"<td align=right><b>{amount(rb.build_total, not unknown)}</b></td></tr>")
        be = tr_msg(break_even_line(rb))  # the PDF's sentence (core.cost); none when owning never pays off
        names = {"machine_price": self.tr("Purchase price"), "power_kw_per_machine": self.tr("Server power"),
                 "tariff_per_kwh": self.tr("Electricity tariff"), "colocation_per_machine_month": self.tr("Rack / colocation"),
                 "ops_staff_per_month": self.tr("Operations staff"), "spare_rate_per_year": self.tr("Spares")}
        missing = ""
        if rb.missing:
            missing = "<br/><span style='color:#c62828'>" + esc(self.tr(
                "Not counted (enter them on the Hardware page): {0}").format(
                format_list(names.get(k, k) for k in rb.missing))) + "</span>"
        return (f"<table cellspacing=0 cellpadding=3 border=1>{''.join(cells)}</table>"
                f"<p>{esc(be)}{missing if be else missing.removeprefix('<br/>')}</p>")

    def on_model_changed(self, section: str) -> None:
        # the frameworks searched: only while the search chooses the framework
        self.framework_candidates.box.setVisible(bool(self.model.user_scenario().constraints.search_frameworks))
        if section in ("constraints", "all"):  # "all": a file was opened (its currency may differ)
            self._set_cost_header(self.model.scenario.constraints.currency)

    def _set_mode_header(self) -> None:
        """The rental-mode column's title, "(as set)" on a second line when the scenario set the mode."""
        col = COLUMNS.index("rental_mode")
        pinned = mode_pinned(self.table_model.plans)
        header = two_line_header(self.tr("Rental (as set)")) if pinned else self.tr("Rental")
        if len(self.table_model.headers) > col and self.table_model.headers[col] != header:
            self.table_model.headers[col] = header
            self.table_model.headerDataChanged.emit(Qt.Orientation.Horizontal, col, col)

    def _set_cost_header(self, currency: str) -> None:
        """The cost column's header names the currency of the figures under it (the plans' own)."""
        col = COLUMNS.index("cost")
        header = two_line_header(self.tr("Cost ({0})").format(currency))
        if len(self.table_model.headers) > col and self.table_model.headers[col] != header:
            self.table_model.headers[col] = header
            self.table_model.headerDataChanged.emit(Qt.Orientation.Horizontal, col, col)
