"""Step 8: the project — the plan's phases (CPU preprocessing, research, training, burst, inference), each
with its duration, hours per week and rental mode; one project cost, a Gantt timeline and the what-if table.

The page edits the plan file's ``project`` (kept in the document's UI state until it is saved, see
``MainWindow.document``) and shows :func:`gpuplanner.core.project.evaluate_project`'s answer: every figure is
read from the :class:`~gpuplanner.core.project.ProjectResult`, nothing is computed here. A training-like phase
either runs the plan of steps 1–5 (its workload is edited on those pages: "Edit workload") or carries its own
scenario (a copy of the plan taken with "Use the current plan").
"""

from __future__ import annotations

import copy
import typing
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QColor
from PySide6.QtWidgets import (
    QAbstractItemView, QComboBox, QDoubleSpinBox, QFormLayout, QGroupBox, QHBoxLayout, QHeaderView, QLabel,
    QLineEdit, QListWidget, QListWidgetItem, QMenu, QPushButton, QSizePolicy, QSpinBox, QStackedWidget,
    QTableWidget, QTableWidgetItem, QToolButton, QVBoxLayout, QWidget,
)

from gpuplanner.core.errors import PlannerError
from gpuplanner.core.messages import error_text
from gpuplanner.core.cost import MODES as GPU_MODES
from gpuplanner.core.project import CPU_MODES, KIND_LABELS, PHASE_KINDS, TRAINING_KINDS, InferenceSpec, Project
from gpuplanner.formatting import format_money, format_number, gpu_display_name, join_clause, paren

from .base import BasePage
from ..text import better_line, plain, tr_msg
from gpuplanner.formatting import (colon, elapsed_numbers, format_list,
                                   format_sentences, DAYS_PER_WEEK, format_weeks, in_unit, phase_spans,
                                   plural_s)

#: the phase a new entry of each kind starts with
_NEW_PHASE = {
    "cpu_preprocessing": {"kind": "cpu_preprocessing", "weeks": 1, "cpu": {"data_gb": 100}},
    "research": {"kind": "research", "weeks": 2, "hours_per_week": 40},
    "training": {"kind": "training"},
    "burst": {"kind": "burst", "weeks": 1},
    "inference": {"kind": "inference", "weeks": 4, "inference": {"concurrency": 50, "context_tokens": 4096}},
}
_KIND_COLOURS = {"cpu_preprocessing": "#9e9e9e", "research": "#66bb6a", "training": "#1565c0", "burst": "#ef6c00",
                 "inference": "#8e24aa"}
#: the serving engines the schema knows and its default memory share (core/project.InferenceSpec)
SERVING_ENGINES = typing.get_args(InferenceSpec.model_fields["engine"].annotation)
LENGTH_SPREADS = typing.get_args(InferenceSpec.model_fields["length_spread"].annotation)
#: None: the engine's own default memory share, shown as 0 with the special text "engine default"
GPU_MEMORY_UTILIZATION = InferenceSpec.model_fields["gpu_memory_utilization"].default
#: the KV-cache precisions the schema takes (empty: the core's default, core/inference.kv_precision_for)
KV_PRECISIONS = typing.get_args(typing.get_args(InferenceSpec.model_fields["kv_precision"].annotation)[0])


def serving_first_token_lines(s) -> list[str]:
    """A serving phase's first-token sentence, its 95th-percentile latencies under load and an offline target's
    sizing (``core.serving_facts.serving_lines``, the lines ``gpuplanner project`` and the PDF print; issue 35 r17)."""
    from gpuplanner.core.serving_facts import serving_lines

    return [tr_msg(m) for m in serving_lines(s)]


def serving_throughput_line(s, cost_per_million_tokens: float | None, currency: str) -> str:
    """A serving phase's "serving: TP …, … tokens/s per GPU (…), … per million tokens" line, read from its
    core.inference.ServingSize and the phase's price per million tokens: the line ``gpuplanner project`` prints
    (``core.serving_facts.throughput_line``; issue 35 r15 fix15: the page showed only the first-token sentence)."""
    from gpuplanner.core.serving_facts import throughput_line

    return tr_msg(throughput_line(s, cost_per_million_tokens, currency))


def kind_name(kind: str) -> str:
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.translate("Project", KIND_LABELS.get(kind, kind))


def mode_name(mode: str | None) -> str:
    from PySide6.QtCore import QCoreApplication

    from gpuplanner.core.cost import MODE_LABELS

    if mode is None:
        return "—"
    if mode == "core_hour":
        return QCoreApplication.translate("ProjectPage", "per core-hour")
    if mode == "node_month":
        return QCoreApplication.translate("ProjectPage", "nodes per month")
    return QCoreApplication.translate("Cost", MODE_LABELS.get(mode, mode))


class TimelineChart(QWidget):
    """The project's phases as bars over the weeks (a Gantt chart), labelled with GPUs/CPU cores and cost."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        import pyqtgraph as pg

        from ..charts import configure_pyqtgraph

        configure_pyqtgraph()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.plot = pg.PlotWidget()
        self.plot.setFixedHeight(230)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.getPlotItem().setMenuEnabled(False)
        self.plot.getPlotItem().hideButtons()
        self.plot.getPlotItem().showGrid(x=True, y=False, alpha=0.25)
        lay.addWidget(self.plot)
        self.bars: list[Any] = []
        self.labels: list[tuple[Any, float, float, bool]] = []  # each phase's label: item, start, end, right
        self.week_unit = "wk"
        self.plot.getPlotItem().getViewBox().sigResized.connect(self.place_labels)

    def set_result(self, res, currency: str, axis_label: str, scale: float = 1.0) -> None:
        """``scale``: the axis's units per week (the table's unit, formatting.elapsed_unit: 168 for hours; ux15)."""
        import pyqtgraph as pg

        pi = self.plot.getPlotItem()
        pi.clear()
        self.bars = []
        self.labels = []
        if res is None:
            return
        n = len(res.phases)
        for i, ph in enumerate(res.phases):
            y = n - 1 - i
            colour = QColor(_KIND_COLOURS.get(ph.kind, "#777777"))
            bar = pg.BarGraphItem(x0=[ph.start_week * scale], width=[max(ph.weeks * scale, 0.05)], y=[y], height=0.55,
                                  brush=pg.mkBrush(colour), pen=pg.mkPen("k", width=1))
            pi.addItem(bar)
            self.bars.append(bar)
            what = (f"{ph.count} × {gpu_display_name(ph.device_name, short=True)}" if ph.resource == "gpu"
                    else f"{ph.count} CPU")
            cost = "—" if ph.cost is None else format_money(ph.cost, currency, decimals=0)
            if ph.cost_per_week is not None and ph.weeks > 1:  # "¥362 (¥181/wk)" / "¥362（¥181/周）"
                cost = join_clause(cost, paren(f"{format_money(ph.cost_per_week, currency, decimals=0)}/"
                                               f"{self.week_unit}"))
            right = ph.start_week * scale > max(res.total_weeks * scale, 1.0) / 2
            name = kind_name(ph.kind) if ph.name == ph.kind else ph.name
            text = pg.TextItem(f"{name} · {what} · {cost}", color="k", anchor=(0.0, 1.0))
            text.setPos(ph.start_week * scale, y + 0.3)  # just above the bar; place_labels keeps it inside the chart
            pi.addItem(text)
            self.labels.append((text, ph.start_week * scale, ph.end_week * scale, right))
        pi.setXRange(0, max(res.total_weeks * scale, 1.0) * 1.02, padding=0)
        pi.setYRange(-0.5, n - 0.1, padding=0)
        pi.getAxis("left").setTicks([[(n - 1 - i, "") for i in range(n)]])
        pi.setLabel("bottom", axis_label)
        self.place_labels()

    def place_labels(self, *_args) -> None:
        """Each label starts at its bar (a bar in the right half: ends at its bar's end), moved left as far as it
        must to end inside the chart (a long Chinese label on a middle phase was cut at the right edge)."""
        vb = self.plot.getPlotItem().getViewBox()
        (x0, x1), _ = vb.viewRange()
        if vb.width() <= 0 or x1 <= x0:
            return
        per_px = (x1 - x0) / vb.width()
        for text, start, end, right in self.labels:
            w = text.boundingRect().width() * per_px
            x = end - w if right else start
            text.setPos(max(x0, min(x, x1 - w)), text.pos().y())


class ProjectPage(BasePage):
    def title(self) -> str:
        return self.tr("Project")

    # ------------------------------------------------------------------------------------------ build
    # long: builds the page's form row by row (Qt layout code)
    def build(self) -> None:
        self._loading = False
        self._shown: dict[QWidget, Any] = {}  # what each editor box showed of the phase (see _touched)
        self.result = None
        self.error = ""
        # ---- phases: list and buttons
        self.phases_box = QGroupBox()
        pl = QHBoxLayout(self.phases_box)
        self.list = QListWidget()
        self.list.setObjectName("project_phases")
        self.list.setMaximumHeight(130)
        self.list.currentRowChanged.connect(self._on_row)
        pl.addWidget(self.list, 1)
        bl = QVBoxLayout()
        self.add_btn = QToolButton()
        self.add_btn.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.add_menu = QMenu(self)
        self.add_actions: dict[str, QAction] = {}
        for kind in PHASE_KINDS:
            a = self.add_menu.addAction("")
            a.triggered.connect(lambda _c=False, k=kind: self.add_phase(k))
            self.add_actions[kind] = a
        self.add_btn.setMenu(self.add_menu)
        self.remove_btn = QPushButton()
        self.up_btn = QPushButton()
        self.down_btn = QPushButton()
        self.remove_btn.clicked.connect(self.remove_phase)
        self.up_btn.clicked.connect(lambda: self.move_phase(-1))
        self.down_btn.clicked.connect(lambda: self.move_phase(1))
        for b in (self.add_btn, self.remove_btn, self.up_btn, self.down_btn):
            b.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
            bl.addWidget(b)
        bl.addStretch(1)
        pl.addLayout(bl)
        self.body.addWidget(self.phases_box)

        # ---- the selected phase
        self.edit_box = QGroupBox()
        form = QFormLayout(self.edit_box)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.form = form
        self.name = QLineEdit()
        self.name.setMaxLength(120)
        self.name.editingFinished.connect(self._edited)
        self.kind = QComboBox()
        for k in PHASE_KINDS:
            self.kind.addItem("", k)
        self.kind.currentIndexChanged.connect(self._kind_changed)
        self.weeks = QDoubleSpinBox()
        self.weeks.setRange(0, 520)
        self.weeks.setDecimals(1)
        self.weeks.setSingleStep(1)
        self.weeks.valueChanged.connect(self._edited)
        self.hours = QDoubleSpinBox()
        self.hours.setRange(0, 168)
        self.hours.setDecimals(0)
        self.hours.valueChanged.connect(self._edited)
        self.mode = QComboBox()
        self.mode.currentIndexChanged.connect(self._edited)
        self.labels: dict[str, QLabel] = {}
        for key, w in (("name", self.name), ("kind", self.kind), ("weeks", self.weeks), ("hours", self.hours),
                       ("mode", self.mode)):
            self.labels[key] = QLabel()
            form.addRow(self.labels[key], w)
        # kind-specific part
        self.detail = QStackedWidget()
        self.detail.addWidget(self._build_training())
        self.detail.addWidget(self._build_inference())
        self.detail.addWidget(self._build_cpu())
        form.addRow(self.detail)
        self.detail.currentChanged.connect(self._fit_detail)
        self._fit_detail(self.detail.currentIndex())
        self.body.addWidget(self.edit_box)

        # ---- results
        self.result_box = QGroupBox()
        rl = QVBoxLayout(self.result_box)
        self.total = plain(QLabel())
        self.total.setObjectName("project_total")
        f = self.total.font()
        f.setBold(True)
        self.total.setFont(f)
        rl.addWidget(self.total)
        # the total against constraints.budget at the likely range's far end, per phase, the phase to cut (econ17)
        self.budget = QLabel()
        self.budget.setObjectName("project_budget")
        self.budget.setWordWrap(True)
        self.budget.setTextFormat(Qt.TextFormat.PlainText)
        self.budget.setVisible(False)
        rl.addWidget(self.budget)
        # the search's best plan when it beats the manual layout the phases run on (text.better_line; choice15)
        self.better = QLabel()
        self.better.setObjectName("betterPlan")
        self.better.setTextFormat(Qt.TextFormat.PlainText)
        self.better.setWordWrap(True)
        self.better.setStyleSheet("color: #8a5300;")
        self.better.hide()
        rl.addWidget(self.better)
        self.ctx.search.finished.connect(lambda _o: self._update_better())
        self.ctx.estimator.updated.connect(lambda _r: self._update_better())
        self.table = QTableWidget(0, 5)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)  # resources elide
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.setMaximumHeight(160)
        rl.addWidget(self.table)
        self.timeline = TimelineChart()
        rl.addWidget(self.timeline)
        self.advice = QLabel()
        self.advice.setWordWrap(True)
        self.advice.setTextFormat(Qt.TextFormat.PlainText)
        self.advice.setStyleSheet("color: #444;")
        rl.addWidget(self.advice)
        self.body.addWidget(self.result_box)
        self.whatif_box = QGroupBox()
        wl = QVBoxLayout(self.whatif_box)
        self.whatif = QTableWidget(0, 6)
        self.whatif.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.whatif.verticalHeader().setVisible(False)
        self.whatif.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.whatif.horizontalHeader().setStretchLastSection(True)
        self.whatif.setMaximumHeight(130)
        self.whatif.setWordWrap(True)
        # the layout changes wrap onto the lines they need as the last column changes width (ux26: the Chinese
        # "…、梯度累积 4→2" was cut to "梯度累积…" in a row of English height)
        self.whatif.horizontalHeader().sectionResized.connect(
            lambda col, _old, _new: col == self.whatif.columnCount() - 1 and self._fit_whatif())
        wl.addWidget(self.whatif)
        self.replans = QLabel()  # the what-ifs re-planned: overrun of the slot, what keeps the deadline
        self.replans.setWordWrap(True)
        self.replans.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.replans.setVisible(False)
        wl.addWidget(self.replans)
        self.error_label = QLabel()
        self.error_label.setWordWrap(True)
        self.error_label.setTextFormat(Qt.TextFormat.PlainText)
        self.error_label.setStyleSheet("color: #b71c1c;")
        self.body.addWidget(self.error_label)
        self.body.addWidget(self.whatif_box)

        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(250)
        self._timer.timeout.connect(self.recompute)
        self.load_from_model()

    def _fit_detail(self, current: int) -> None:
        """The kind-specific part is as tall as the kind shown: a QStackedWidget takes its tallest page's height
        (the serving phase's), which left a training phase's two lines in a blank box."""
        ignored, preferred = QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred
        for i in range(self.detail.count()):
            w = self.detail.widget(i)
            w.setSizePolicy(preferred, preferred if i == current else ignored)
        self.detail.updateGeometry()

    def _build_training(self) -> QWidget:
        w = QWidget()
        lay = QVBoxLayout(w)
        lay.setContentsMargins(0, 0, 0, 0)
        self.workload = QLabel()
        self.workload.setWordWrap(True)
        self.workload.setTextFormat(Qt.TextFormat.PlainText)
        lay.addWidget(self.workload)
        row = QHBoxLayout()
        self.edit_workload_btn = QPushButton()
        self.edit_workload_btn.clicked.connect(self.edit_workload)
        self.take_plan_btn = QPushButton()
        self.take_plan_btn.clicked.connect(self.take_current_plan)
        self.use_plan_btn = QPushButton()
        self.use_plan_btn.clicked.connect(self.use_document_plan)
        for b in (self.edit_workload_btn, self.take_plan_btn, self.use_plan_btn):
            row.addWidget(b)
        row.addStretch(1)
        lay.addLayout(row)
        return w

    def _build_inference(self) -> QWidget:
        w = QWidget()
        form = QFormLayout(w)
        form.setContentsMargins(0, 0, 0, 0)
        self.concurrency = QSpinBox()
        self.concurrency.setRange(1, 1_000_000)
        self.context = QSpinBox()
        self.context.setRange(16, 10_000_000)
        self.context.setSingleStep(1024)
        self.output = QSpinBox()
        self.output.setRange(1, 10_000_000)
        self.output.setSingleStep(128)
        self.precision = QComboBox()
        for p in ("bf16", "fp8", "int8", "int4"):
            self.precision.addItem(p, p)
        self.speed = QDoubleSpinBox()
        self.speed.setRange(0, 100_000)
        self.speed.setDecimals(0)
        # prompt tokens per request (0: context − answer, the schema's default) and the KV-cache precision
        # (first item: the core's default, fp8 with fp8 weights, else 16-bit)
        self.prompt = QSpinBox()
        self.prompt.setRange(0, 10_000_000)
        self.prompt.setSingleStep(128)
        self.kv_precision = QComboBox()
        self.kv_precision.addItem("", None)
        for p in KV_PRECISIONS:
            self.kv_precision.addItem(p, p)
        self.serve_gpu = QComboBox()
        self.serve_gpu.addItem("", None)
        from gpuplanner.core.catalog_hw import load_gpus

        for gid, g in load_gpus().items():
            self.serve_gpu.addItem(g.name, gid)
        # the serving engine and its memory share (core/inference.py: how each engine reserves the KV cache);
        # the range is the schema's (0 < share ≤ 1), so the box never holds a value the project refuses
        self.serve_engine = QComboBox()
        for e in SERVING_ENGINES:
            self.serve_engine.addItem(e, e)
        self.length_spread = QComboBox()  # inference.length_spread (core/inference.py held_context)
        for e in LENGTH_SPREADS:
            self.length_spread.addItem(e, e)
        self.mem_share = QDoubleSpinBox()
        self.mem_share.setRange(0.0, 1.0)  # 0: the engine's own default (the schema's None)
        self.mem_share.setDecimals(2)
        self.mem_share.setSingleStep(0.05)
        # an offline job's target (inference.documents_per_s / output_tokens_per_s; 0: none, the schema's default)
        self.docs_per_s = QDoubleSpinBox()
        self.docs_per_s.setRange(0.0, 1e7)
        self.docs_per_s.setDecimals(2)
        self.out_tps = QDoubleSpinBox()
        self.out_tps.setRange(0.0, 1e10)
        self.out_tps.setDecimals(0)
        self.out_tps.setSingleStep(1000)
        for sig in (self.docs_per_s.valueChanged, self.out_tps.valueChanged):
            sig.connect(self._edited)
        for sig in (self.concurrency.valueChanged, self.context.valueChanged, self.output.valueChanged,
                    self.prompt.valueChanged, self.precision.currentIndexChanged,
                    self.kv_precision.currentIndexChanged, self.speed.valueChanged,
                    self.serve_gpu.currentIndexChanged, self.serve_engine.currentIndexChanged,
                    self.mem_share.valueChanged, self.length_spread.currentIndexChanged):
            sig.connect(self._edited)
        for key, wid in (("concurrency", self.concurrency), ("context", self.context), ("output", self.output),
                         ("prompt", self.prompt), ("precision", self.precision),
                         ("kv_precision", self.kv_precision), ("speed", self.speed), ("serve_gpu", self.serve_gpu),
                         ("serve_engine", self.serve_engine), ("mem_share", self.mem_share),
                         ("length_spread", self.length_spread), ("docs_per_s", self.docs_per_s),
                         ("out_tps", self.out_tps)):
            self.labels[key] = QLabel()
            form.addRow(self.labels[key], wid)
        return w

    def _build_cpu(self) -> QWidget:
        w = QWidget()
        form = QFormLayout(w)
        form.setContentsMargins(0, 0, 0, 0)
        self.data_gb = QDoubleSpinBox()
        self.data_gb.setRange(0.001, 1e9)
        self.data_gb.setDecimals(0)
        self.data_gb.setSingleStep(10)
        self.cores = QSpinBox()
        self.cores.setRange(1, 4096)
        for sig in (self.data_gb.valueChanged, self.cores.valueChanged):
            sig.connect(self._edited)
        for key, wid in (("data_gb", self.data_gb), ("cores", self.cores)):
            self.labels[key] = QLabel()
            form.addRow(self.labels[key], wid)
        return w

    # ------------------------------------------------------------------------------------------ texts
    def _retranslate_length_spread(self) -> None:
        """The request-length spread box (inference.length_spread): its items and tooltip."""
        spread_names = {"fixed": self.tr("all alike"), "sharegpt": self.tr("varied, like chat (ShareGPT)")}
        for i in range(self.length_spread.count()):
            self.length_spread.setItemText(i, spread_names.get(self.length_spread.itemData(i), ""))
        self.length_spread.setToolTip(self.tr(
            "How prompt and answer lengths vary between requests. All alike (default): every request at the "
            "lengths above. Varied: as spread as chat traffic within the ShareGPT filter of the engines' benchmark "
            "scripts (prompt under 1024 tokens, prompt plus answer under 2048); long requests hold their KV cache "
            "longer, so fewer users fit per GPU"))

    def _retranslate_offline(self) -> None:
        """The offline target boxes (inference.documents_per_s / output_tokens_per_s): empty text and tooltip."""
        self.labels["docs_per_s"].setText(self.tr("Offline documents per second"))
        self.labels["out_tps"].setText(self.tr("Offline output tokens per second"))
        for box in (self.docs_per_s, self.out_tps):
            box.setSpecialValueText(self.tr("none (size for the users)"))
            box.setToolTip(self.tr(
                "An offline batch job's throughput target: the replicas are sized to finish this many documents (or "
                "generate this many output tokens) per second, each at its full batch, instead of serving the "
                "concurrent users. Give one of the two."))

    def retranslate(self) -> None:
        self.heading.setText(self.tr("8 · Project"))
        self.intro.setText(self.tr(
            "A team does not rent for one run: list the phases — data cleaning on CPU nodes, experiments, stable "
            "training, bursts, serving — each sized and priced for its own job. The total is the sum of the "
            "phases; the what-if table grows the main training phase."))
        self.phases_box.setTitle(self.tr("Phases (in order)"))
        self.add_btn.setText(self.tr("Add phase"))
        for k, a in self.add_actions.items():
            a.setText(kind_name(k))
        self.remove_btn.setText(self.tr("Remove"))
        self.up_btn.setText(self.tr("Move up"))
        self.down_btn.setText(self.tr("Move down"))
        self.edit_box.setTitle(self.tr("Selected phase"))
        texts = {"name": self.tr("Name"), "kind": self.tr("Kind"), "weeks": self.tr("Weeks"),
                 "hours": self.tr("Hours per week"), "mode": self.tr("Rental mode"),
                 "concurrency": self.tr("Concurrent users"), "context": self.tr("Context per user"),
                 "output": self.tr("Answer length"), "prompt": self.tr("Prompt length"),
                 "precision": self.tr("Serving precision"), "kv_precision": self.tr("KV-cache precision"),
                 "speed": self.tr("Speed per user"), "serve_gpu": self.tr("Serve on"),
                 "serve_engine": self.tr("Serving engine"), "mem_share": self.tr("Engine memory share"),
                 "length_spread": self.tr("Request lengths"),
                 "data_gb": self.tr("Raw text"), "cores": self.tr("Cores per node")}
        for k, lab in self.labels.items():
            lab.setText(texts.get(k) or lab.text())  # the offline boxes': _retranslate_offline
        for i in range(self.kind.count()):
            self.kind.setItemText(i, kind_name(self.kind.itemData(i)))
        self._retranslate_offline()
        self.weeks.setSpecialValueText(self.tr("what the work takes"))
        self.weeks.setSuffix(self.tr(" weeks"))
        self.hours.setSpecialValueText(self.tr("the plan's"))
        self.hours.setSuffix(self.tr(" h/week"))
        self.context.setSuffix(self.tr(" tokens"))
        self.output.setSuffix(self.tr(" tokens"))
        self.prompt.setSuffix(self.tr(" tokens"))
        self.prompt.setSpecialValueText(self.tr("context − answer"))
        self.kv_precision.setItemText(0, self.tr("as the weights (fp8 with fp8, else bf16)"))
        self.prompt.setToolTip(self.tr(
            "Prompt tokens per request: the prefill work (time to first token) and the KV cache each request "
            "holds (vLLM and SGLang: the prompt plus the tokens generated so far; TensorRT-LLM reserves prompt "
            "plus the whole answer). Prompt plus answer must fit the context. Default: context per user minus "
            "answer length"))
        self.kv_precision.setToolTip(self.tr(
            "Precision of the KV cache: fp8 halves its memory per token against bf16, so more users fit on a "
            "GPU. vLLM and SGLang --kv-cache-dtype (default auto: the model's precision); TensorRT-LLM "
            "kv_cache_quant_algo FP8. Default here: fp8 with fp8 weights, else bf16"))
        self.speed.setSuffix(self.tr(" tokens/s"))
        self.speed.setSpecialValueText(self.tr("no target"))
        self.data_gb.setSuffix(" GB")
        self.serve_gpu.setItemText(0, self.tr("cheapest per million tokens"))
        engine_names = {"vllm": "vLLM", "sglang": "SGLang", "tensorrt-llm": "TensorRT-LLM"}
        for i in range(self.serve_engine.count()):
            self.serve_engine.setItemText(i, engine_names.get(self.serve_engine.itemData(i), ""))
        self.serve_engine.setToolTip(self.tr(
            "How the engine reserves memory for the KV cache. vLLM (default) profiles a forward pass and takes "
            "the memory share of the whole card; TensorRT-LLM takes that share of the memory left free and holds "
            "each request's whole length; SGLang's mem_fraction_static holds weights and KV cache"))
        self._retranslate_length_spread()
        self.mem_share.setToolTip(self.tr(
            "Share of each GPU the engine takes for weights, activations and KV cache: vLLM "
            "gpu_memory_utilization (default 0.9), TensorRT-LLM kv_cache_free_gpu_mem_fraction, SGLang "
            "mem_fraction_static (default by the card's memory and TP). Default here: each engine's own"))
        self.mem_share.setSpecialValueText(self.tr("engine default"))
        self.edit_workload_btn.setText(self.tr("Edit workload…"))
        self.edit_workload_btn.setToolTip(self.tr("The plan's model, training and data are set in steps 1–5"))
        self.take_plan_btn.setText(self.tr("Use the current plan"))
        self.take_plan_btn.setToolTip(self.tr("Give this phase its own copy of the plan as it is now"))
        self.use_plan_btn.setText(self.tr("Follow the plan"))
        self.use_plan_btn.setToolTip(self.tr("Drop this phase's own copy: it runs the plan of steps 1–5"))
        self.result_box.setTitle(self.tr("Project cost and timeline"))
        self.whatif_box.setTitle(self.tr("What if the work grows"))
        self.table.setHorizontalHeaderLabels([self.tr("Phase"), self.tr("Weeks"), self.tr("Resources"),
                                              self.tr("Rental"), self.tr("Cost")])
        self.whatif.setHorizontalHeaderLabels([self.tr("Change"), self.tr("Fits"), self.tr("Days"), self.tr("Cost"),
                                               self.tr("In place"), self.tr("Layout changes")])
        self._refresh_list_texts()
        if hasattr(self, "_data"):
            self._on_row(self.list.currentRow())  # the editor's texts (workload sentence, rental modes)
        self.show_result()

    # ------------------------------------------------------------------------------------------ data
    def project_data(self) -> dict:
        return self._data

    def load_from_model(self) -> None:
        """The document's project (UI state ``project``), else one phase running the plan."""
        data = self.model.ui.get("project")
        if not isinstance(data, dict) or not data.get("phases"):
            from gpuplanner.core.project import single_phase_project

            from gpuplanner.io.planfile import project_data

            data = project_data(single_phase_project(self.model.user_scenario()))
        self._data = copy.deepcopy(data)
        self._loading = True
        self.list.clear()
        for _ in self._data["phases"]:
            self.list.addItem(QListWidgetItem())
        self._loading = False
        self._refresh_list_texts()
        self.list.setCurrentRow(0)
        self._on_row(0)
        self.recompute()

    def _refresh_list_texts(self) -> None:
        if not hasattr(self, "_data"):
            return
        for i, ph in enumerate(self._data["phases"]):
            item = self.list.item(i)
            if item is None:
                continue
            name, kind = self.display_name(ph.get("name", ""), ph.get("kind", "")), kind_name(ph.get("kind", ""))
            # a phase named after its kind is named once ("1. stable training", not "… (stable training)")
            item.setText(self.tr("{0}. {1}").format(i + 1, name) if name == kind else
                         self.tr("{0}. {1} ({2})").format(i + 1, name, kind))

    def _phase(self) -> dict | None:
        i = self.list.currentRow()
        phases = self._data["phases"]
        return phases[i] if 0 <= i < len(phases) else None

    def _store(self) -> None:
        """Validate and keep the project in the document (the model's UI state), then recompute."""
        try:
            Project.model_validate(self._data)
        except ValueError as err:
            from gpuplanner.core.scenario import format_validation_error

            self.error = format_validation_error(err) if hasattr(err, "errors") else error_text(err)
            self._generation = getattr(self, "_generation", 0) + 1  # an answer on its way must not clear this
            self.show_result()
            return
        self.error = ""
        self.model.set_ui("project", copy.deepcopy(self._data))
        self._timer.start()

    # ------------------------------------------------------------------------------------------ actions
    def add_phase(self, kind: str) -> None:
        names = {p["name"] for p in self._data["phases"]}
        base = kind_name(kind)
        name, n = base, 2
        while name in names:
            name, n = f"{base} {n}", n + 1
        ph = {"name": name, **copy.deepcopy(_NEW_PHASE[kind])}
        self._data["phases"].append(ph)
        self.list.addItem(QListWidgetItem())
        self._refresh_list_texts()
        self.list.setCurrentRow(len(self._data["phases"]) - 1)
        self._store()

    def remove_phase(self) -> None:
        i = self.list.currentRow()
        if len(self._data["phases"]) <= 1 or i < 0:
            return
        removed = self._data["phases"].pop(i)
        if self._data.get("main_phase") == removed.get("name"):
            self._data.pop("main_phase", None)
        self.list.takeItem(i)
        self._refresh_list_texts()
        self.list.setCurrentRow(min(i, len(self._data["phases"]) - 1))
        self._store()

    def move_phase(self, step: int) -> None:
        i = self.list.currentRow()
        j = i + step
        phases = self._data["phases"]
        if i < 0 or not (0 <= j < len(phases)):
            return
        phases[i], phases[j] = phases[j], phases[i]
        self._refresh_list_texts()
        self.list.setCurrentRow(j)
        self._store()

    def edit_workload(self) -> None:
        win = self.window()
        if hasattr(win, "go_to"):
            win.go_to(0)

    def take_current_plan(self) -> None:
        ph = self._phase()
        if ph is None:
            return
        from gpuplanner.io.planfile import scenario_data

        # the fields set, as the file keeps them (round 16): what the user left unset stays unset in the phase
        ph["scenario"] = scenario_data(self.model.scenario)
        self._on_row(self.list.currentRow())
        self._store()

    def use_document_plan(self) -> None:
        ph = self._phase()
        if ph is None:
            return
        ph.pop("scenario", None)
        self._on_row(self.list.currentRow())
        self._store()

    # ------------------------------------------------------------------------------------------ editor
    def _fill_mode_combo(self, kind: str | None = None) -> None:
        ph = self._phase() if hasattr(self, "_data") else None
        kind = kind or (ph or {}).get("kind", "training")
        modes = CPU_MODES if kind == "cpu_preprocessing" else GPU_MODES
        was = self._loading
        self._loading = True
        self.mode.clear()
        self.mode.addItem(self.tr("the cheapest"), None)
        for m in modes:
            self.mode.addItem(mode_name(m), m)
        cur = (ph or {}).get("rental_mode")
        self._show(self.mode, max(0, self.mode.findData(cur)) if cur else 0)
        self._loading = was

    def _on_row(self, i: int) -> None:
        ph = self._phase()
        self.edit_box.setEnabled(ph is not None)
        self.remove_btn.setEnabled(len(self._data["phases"]) > 1)
        self.up_btn.setEnabled(i > 0)
        self.down_btn.setEnabled(0 <= i < len(self._data["phases"]) - 1)
        if ph is None:
            return
        self._loading = True
        self._shown = {}
        self._show(self.name, self.display_name(ph.get("name", ""), ph.get("kind", "")))
        self.kind.setCurrentIndex(max(0, self.kind.findData(ph.get("kind"))))
        self._show(self.weeks, float(ph.get("weeks") or 0))
        self._show(self.hours, float(ph.get("hours_per_week") or 0))
        self._fill_mode_combo(ph.get("kind"))
        kind = ph.get("kind")
        if kind in TRAINING_KINDS:
            self.detail.setCurrentIndex(0)
            own = ph.get("scenario")
            if own:
                model = (own.get("model") or {}).get("preset") or (own.get("model") or {}).get("name") or "?"
                hw = own.get("hardware") or {}
                self.workload.setText(self.tr("Its own workload: {0} on {1} × {2}.").format(
                    model, hw.get("num_gpus", 1), hw.get("gpu", "?")))
            else:
                self.workload.setText(self.tr("Runs the plan of steps 1–5 (model, training, data, hardware)."))
            self.use_plan_btn.setEnabled(bool(own))
        elif kind == "inference":
            self.detail.setCurrentIndex(1)
            self._show_inference(ph.get("inference") or {})
        else:
            self.detail.setCurrentIndex(2)
            cpu = ph.get("cpu") or {}
            self._show(self.data_gb, float(cpu.get("data_gb", 100)))
            self._show(self.cores, int(cpu.get("cores_per_node", 64)))
        self._loading = False

    def _show_inference(self, inf: dict) -> None:
        self._show(self.concurrency, int(inf.get("concurrency", 1)))
        self._show(self.context, int(inf.get("context_tokens", 4096)))
        self._show(self.output, int(inf.get("output_tokens", 512)))
        self._show(self.prompt, int(inf.get("prompt_tokens") or 0))
        self._show(self.precision, max(0, self.precision.findData(inf.get("precision", "bf16"))))
        kv = inf.get("kv_precision")
        self._show(self.kv_precision, max(0, self.kv_precision.findData(kv)) if kv else 0)
        offline = bool(inf.get("documents_per_s") or inf.get("output_tokens_per_s"))  # unset speed: none (r17)
        self._show(self.speed, float(inf.get("tokens_per_s_per_user", 0.0 if offline else 20.0) or 0))
        gpu = inf.get("gpu")
        self._show(self.serve_gpu, max(0, self.serve_gpu.findData(gpu)) if gpu else 0)
        self._show(self.serve_engine, max(0, self.serve_engine.findData(inf.get("engine", "vllm"))))
        self._show(self.mem_share, float(inf.get("gpu_memory_utilization", GPU_MEMORY_UTILIZATION) or 0.0))
        self._show(self.length_spread, max(0, self.length_spread.findData(inf.get("length_spread", "fixed"))))
        self._show(self.docs_per_s, float(inf.get("documents_per_s") or 0.0))
        self._show(self.out_tps, float(inf.get("output_tokens_per_s") or 0.0))

    # A box shows a plan's value rounded to its decimals, clamped to its range, or (a combo) as its first item
    # when the plan's value is not in its list; writing every box back when one field changes would rewrite the
    # others (a plan's 2.25 weeks as 2.3). So each box remembers what it showed, and a box the user has not
    # changed since leaves the plan's value exactly as it was ("the user's choices are sacred").
    @staticmethod
    def _state(box: QWidget) -> Any:
        if isinstance(box, QComboBox):
            return box.currentIndex()
        if isinstance(box, QLineEdit):
            return box.text()
        return box.value()

    def _show(self, box: QWidget, value: Any) -> None:
        """Show a plan value (a combo: the index) and remember what the box shows of it."""
        if isinstance(box, QComboBox):
            box.setCurrentIndex(value)
        elif isinstance(box, QLineEdit):
            box.setText(value)
        else:
            box.setValue(value)
        self._shown[box] = self._state(box)

    def _touched(self, box: QWidget) -> bool:
        """The user changed this box since the phase was shown; from then on its value is the user's."""
        if box in self._shown and self._shown[box] == self._state(box):
            return False
        self._shown.pop(box, None)
        return True

    def _write(self, section: dict, key: str, box: QWidget, value: Any) -> None:
        """``value`` (None: the field's default, the key removed) into ``section`` if the user changed ``box``."""
        if not self._touched(box):
            return
        if value is None:
            section.pop(key, None)
        else:
            section[key] = value

    def _kind_changed(self) -> None:
        if self._loading:
            return
        ph = self._phase()
        if ph is None:
            return
        kind = self.kind.currentData()
        if kind == ph.get("kind"):
            return
        keep = {"name": ph["name"]}
        ph.clear()
        ph.update(keep)
        ph.update(copy.deepcopy(_NEW_PHASE[kind]))
        self._refresh_list_texts()
        self._on_row(self.list.currentRow())
        self._store()

    def _edited(self) -> None:
        if self._loading:
            return
        ph = self._phase()
        if ph is None:
            return
        old_name = ph.get("name")
        if self._touched(self.name):
            name = self.name.text().strip() or old_name
            if name == self.display_name(old_name, ph.get("kind", "")):
                name = old_name  # the shown name of a phase named after its kind is not a rename
            ph["name"] = name
            if self._data.get("main_phase") == old_name:
                self._data["main_phase"] = name
        for key, box in (("weeks", self.weeks), ("hours_per_week", self.hours)):
            self._write(ph, key, box, box.value() or None)  # 0: the special value (what the work takes)
        self._write(ph, "rental_mode", self.mode, self.mode.currentData() or None)
        kind = ph.get("kind")
        if kind == "inference":
            inf = dict(ph.get("inference") or {})
            for key, box, value in (
                    ("concurrency", self.concurrency, self.concurrency.value()),
                    ("context_tokens", self.context, self.context.value()),
                    ("output_tokens", self.output, self.output.value()),
                    ("prompt_tokens", self.prompt, self.prompt.value() or None),
                    ("precision", self.precision, self.precision.currentData()),
                    ("kv_precision", self.kv_precision, self.kv_precision.currentData()),
                    ("gpu", self.serve_gpu, self.serve_gpu.currentData() or None),
                    ("engine", self.serve_engine, self.serve_engine.currentData()),
                    ("gpu_memory_utilization", self.mem_share, self.mem_share.value() or None),
                    ("length_spread", self.length_spread, self.length_spread.currentData()),
                    ("documents_per_s", self.docs_per_s, self.docs_per_s.value() or None),
                    ("output_tokens_per_s", self.out_tps, self.out_tps.value() or None)):
                self._write(inf, key, box, value)
            if self._touched(self.speed):  # 0: no target (null: the schema's default is 20)
                inf["tokens_per_s_per_user"] = self.speed.value() or None
            ph["inference"] = inf
        elif kind == "cpu_preprocessing":
            cpu = dict(ph.get("cpu") or {})
            self._write(cpu, "data_gb", self.data_gb, self.data_gb.value())
            self._write(cpu, "cores_per_node", self.cores, self.cores.value())
            ph["cpu"] = cpu
        self._refresh_list_texts()
        self._store()

    # ------------------------------------------------------------------------------------------ results
    def on_model_changed(self, section: str) -> None:
        if section == "all":
            self.load_from_model()
        elif section not in ("ui", "meta"):
            self._timer.start()  # the plan changed: the phases that run it change with it

    def recompute(self) -> None:
        """Ask the core for the project (:func:`gpuplanner.app.engine.project_result`) on a worker thread; the
        page shows the latest answer only. A project that does not validate is said at once."""
        self._generation = gen = getattr(self, "_generation", 0) + 1
        try:
            project = Project.model_validate(self._data)
        except ValueError as err:
            from gpuplanner.core.scenario import format_validation_error

            # the field and why, keeping the message id (str(err) began "1 validation error for Project")
            self.result = None
            self.error = format_validation_error(err) if hasattr(err, "errors") else error_text(err)
            self.show_result()
            return
        checklist = {k: bool(v.get("checked")) for k, v in (self.model.ui.get("checklist") or {}).items()
                     if isinstance(v, dict)}
        scenario, base_dir = self.model.scenario, self.model.base_dir

        def then(res, err) -> None:
            if gen != self._generation:
                return  # the project or the plan changed meanwhile
            self._pending = False
            if err is None:
                self.result, self.error = res, ""
            else:
                self.result = None
                self.error = error_text(err) if isinstance(err, (PlannerError, ValueError)) else str(err).splitlines()[0]
            self.show_result()

        from gpuplanner.app.engine import project_result

        from ..offthread import run_off_gui

        self._pending = True
        if self.result is None and not self.error:
            self.show_result()  # say it is being worked out (an empty table and a bare 0–1 chart said nothing; ux23)
        run_off_gui(lambda: project_result(project, scenario, base_dir, checklist), then)

    def busy(self) -> bool:
        """A recompute is on its way (its answer not shown yet)."""
        from ..offthread import busy

        return busy() or self._timer.isActive()

    def _fit_whatif(self) -> None:
        """The what-if rows as tall as their text, the table as tall as its rows (no scroll bar for three)."""
        t = self.whatif
        t.resizeRowsToContents()
        rows = sum(t.rowHeight(r) for r in range(t.rowCount()))
        t.setMaximumHeight(max(130, t.horizontalHeader().height() + rows + 2 * t.frameWidth() + 4))

    def _unit_header(self, unit: str) -> str:
        """A column of spans' header in its unit (formatting.elapsed_unit: hours, days or weeks; ux15)."""
        return {"hours": self.tr("Hours"), "days": self.tr("Days")}.get(unit) or self.tr("Weeks")

    def _update_better(self) -> None:
        line = better_line(self.model.scenario, self.ctx.estimator, self.ctx.search)
        if self.better.text() != line:
            self.better.setText(line)
        self.better.setVisible(bool(line))

    def _show_no_result(self) -> None:
        """No answer to show: the error, or that the answer is on its way (an empty table said nothing; ux23)."""
        self.total.setText(self.tr("No result: {0}").format(tr_msg(self.error)) if self.error else
                           self.tr("Working out the project's cost and timeline…")
                           if getattr(self, "_pending", False) else "")
        self.table.setRowCount(0)
        self.whatif.setRowCount(0)
        self.replans.setText("")
        self.replans.setVisible(False)
        self.timeline.set_result(None, "CNY", "")
        self.advice.setText("")
        self._show_budget(None)

    def _show_budget(self, res) -> None:
        """The project's :class:`core.project.ProjectBudget` lines (as the ``project`` command and the PDF print
        them), red when the far end passes the budget; hidden without a budget."""
        b = None if res is None else res.budget
        self.budget.setVisible(b is not None)
        if b is None:
            self.budget.setText("")
            return
        lines = [_tr_msg(m) for m in b.lines()]
        self.budget.setText("\n".join([lines[0]] + [f"• {x}" for x in lines[1:]]))
        self.budget.setStyleSheet("color: #1b5e20;" if b.within else "color: #b00020;")

    def show_result(self) -> None:
        res = self.result
        self._update_better()
        self.error_label.setText(tr_msg(self.error))
        self.error_label.setVisible(bool(self.error))
        self.timeline.setVisible(res is not None)  # no bare 0–1 axes before the first answer (ux23)
        self.whatif_box.setVisible(res is not None)  # nor an empty what-if table under its title (ux24)
        if res is None:
            self._show_no_result()
            return
        cur = res.currency
        total = "—" if res.total_cost is None else format_money(res.total_cost, cur, decimals=0)
        self.total.setText(self.tr("Project total: {0} over {1}").format(total, format_weeks(res.total_weeks)))
        self._show_budget(res)
        # the phases' spans in one unit, the longest's: "0–3.9" hours for a job of a few hours (ux15)
        unit, spans = phase_spans(res.phases)
        self.table.horizontalHeaderItem(1).setText(self._unit_header(unit))
        self.table.setRowCount(len(res.phases))
        for r, ph in enumerate(res.phases):
            # the card's short name, as the timeline and the Plans table: "1 × NVIDIA A80…XM4 80GB（中国特供…" was cut
            # in the middle at 1280×800 (ux22); the full name on hover
            full = (self.tr("{0} × {1}").format(ph.count, gpu_display_name(ph.device_name)) if ph.resource == "gpu"
                    else plural_s(self.tr("{0} node(s), {1} CPU cores"), ph.nodes).format(ph.nodes, ph.count))
            from .plans_page import table_gpu_name  # the Plans table's compact name ("A800 SXM4")

            what = self.tr("{0} × {1}").format(ph.count, table_gpu_name(ph.device_name)) if ph.resource == "gpu" else full
            cells = [self.display_name(ph.name, ph.kind), f"{spans[2 * r]}–{spans[2 * r + 1]}", what,
                     mode_name(ph.rental_mode),
                     "—" if ph.cost is None else format_money(ph.cost, cur, decimals=0)]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if c == 4:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if c == 2:
                    item.setToolTip(full)
                self.table.setItem(r, c, item)
        self.timeline.week_unit = self.tr("week")
        # the timeline in the table's unit: a few hours' job over 0–4 hours, not a sliver of a week (ux15)
        axis = {"hours": self.tr("hours from the start"), "days": self.tr("days from the start")}.get(unit)
        self.timeline.set_result(res, cur, axis or self.tr("weeks from the start"),
                                 in_unit(DAYS_PER_WEEK, unit))  # the axis's units per week
        notes = [_tr_msg(m) for m in res.overlap_advice]
        for ph in res.phases:
            notes += [_tr_msg(m) for m in ph.messages]
            if ph.serving is not None:
                notes.append(serving_throughput_line(ph.serving, ph.cost_per_million_tokens, cur))
                notes += serving_first_token_lines(ph.serving)
        if res.rent_vs_build is not None:
            notes.append(_tr_msg(res.rent_vs_build.sentence))
        self.advice.setText("\n".join(f"• {n}" for n in notes))
        names = {"params_x2": self.tr("2× parameters"), "tokens_x10": self.tr("10× data"),
                 "upgrade_gpus": self.tr("next GPU count")}
        self.whatif.setRowCount(len(res.what_if))
        known = [w.calendar_days for w in res.what_if if w.calendar_days is not None]
        # the phases' unit, the project's scale: "74.4" hours beside a project read in hours, not "3.1" days (ux27)
        self.whatif.horizontalHeaderItem(2).setText(self._unit_header(unit))
        w_nums = iter(elapsed_numbers(known, unit))
        for r, w in enumerate(res.what_if):
            cells = [names.get(w.change, w.change), self.tr("yes") if w.fits else self.tr("no"),
                     "—" if w.calendar_days is None else next(w_nums),
                     "—" if w.cost is None else format_money(w.cost, cur, decimals=0),
                     self.tr("yes") if w.in_place_upgrade else self.tr("no"),
                     format_list(f"{self._field_name(k)} {a}→{b}" for k, a, b in w.diff) or "—"]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if w.note is not None:
                    item.setToolTip(_tr_msg(w.note))
                self.whatif.setItem(r, c, item)
        self._fit_whatif()
        # same servers, longer (and whether the phase overruns its slot) / what keeping the deadline takes
        lines = []
        for w in res.what_if:
            said = [_tr_msg(m) for m in (w.overrun_note, None if w.keep_deadline is None else w.keep_deadline.sentence)
                    if m is not None]
            if said:
                lines.append(f"• {names.get(w.change, w.change)}{colon()}" + format_sentences(said))
        self.replans.setText("\n".join(lines))
        self.replans.setVisible(bool(lines))


    def _field_name(self, key: str) -> str:
        names = {"num_gpus": self.tr("GPUs"), "nodes": self.tr("nodes"), "dp": "DP", "tp": "TP", "pp": "PP",
                 "cp": "CP", "ep": "EP", "vpp": "VPP", "zero": "ZeRO", "grad_accum": self.tr("accumulation"),
                 "micro_batch_size": self.tr("micro-batch"), "global_batch_size": self.tr("global batch"),
                 "recompute": self.tr("recompute"), "framework": self.tr("framework"),
                 "sequence_parallel": "SP", "offload_optimizer": self.tr("optimizer offload"),
                 "offload_params": self.tr("parameter offload"),
                 "pipeline_microbatches": self.tr("pipeline micro-batches"),
                 "pipeline_microbatch_size": self.tr("pipeline micro-batch")}
        return names.get(key, key)

    def display_name(self, phase_name: str, kind: str) -> str:
        """A phase named after its kind (a plan without a project: one phase called ``training``) is shown
        under the kind's translated name."""
        return kind_name(kind) if phase_name == kind else phase_name


def _tr_msg(m) -> str:
    from gpuplanner.i18n import translate_message

    try:
        return translate_message(m.context, m.text, m.params)
    except (KeyError, IndexError, ValueError):
        return m.render()
