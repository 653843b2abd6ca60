"""Verify a rented server: topology matrix, the network between nodes (ibstat), the health of every card, the
acceptance-test kit (one node or N nodes) export/import, vendor checklist.

A self-contained QWidget; the main window adds it and feeds it the current scenario with
:meth:`VerifyPanel.set_scenario`. It emits :attr:`VerifyPanel.checklistChanged` when the user ticks an item
or edits a note (the plan file stores :class:`ChecklistState`) and :attr:`VerifyPanel.measuredMfuApplied`
with the re-estimated scenario when the user adopts the measured MFU.

Every string is set in :meth:`retranslate` (called again on ``QEvent.LanguageChange``); texts from the core
(checklist items, findings) are translated with ``QCoreApplication.translate(context, text)``.
"""

from __future__ import annotations

from gpuplanner.formatting import format_number, format_sig, plural_s

from pathlib import Path

import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QEvent, Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QCheckBox, QFileDialog, QGridLayout, QGroupBox, QHBoxLayout, QHeaderView, QLabel, QLineEdit, QPlainTextEdit,
    QPushButton, QSpinBox, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget,
)

from gpuplanner.core.units import nodes as units_nodes
from gpuplanner.core import checklist as ck
from .text import error_message, tr_msg
from gpuplanner.verify.acceptance import Analysis, KitResult, analyse, before_after, load_kit_result, measured_run, render_kit
from gpuplanner.verify.acceptance import host_ram_need_gib
from gpuplanner.core.errors import PlannerError
from gpuplanner.core.scenario import Scenario
from gpuplanner.verify.topology import MAX_TOPO_CHARS, Topology, class_rank, diagnose, parse_topo
from gpuplanner.verify import health as vhealth
from gpuplanner.verify import multinode as vmulti
from gpuplanner.verify import network as vnet

#: Cell colours by link class (gpu-catalog.md §2.4 order NV# > PIX > PXB > PHB > NODE > SYS).
LINK_COLOURS = {
    "X": "#e0e0e0",
    "NV": "#a5d6a7",    # NVLink: green
    "PIX": "#dcedc8",   # one PCIe switch: pale green
    "PXB": "#fff59d",   # several PCIe switches: yellow
    "PHB": "#ffcc80",   # through the CPU's host bridge: orange
    "NODE": "#ffab91",  # between host bridges in one NUMA node: deep orange
    "SYS": "#ef9a9a",   # across sockets: red
    None: "#ffffff",    # unknown
}
SEVERITY_COLOURS = {"ok": "#2e7d32", "info": "#455a64", "warn": "#ef6c00", "bad": "#c62828"}


def link_colour(cls: str | None) -> str:
    if cls is None:
        return LINK_COLOURS[None]
    if cls == "X":
        return LINK_COLOURS["X"]
    if class_rank(cls) == 0:
        return LINK_COLOURS["NV"]
    return LINK_COLOURS.get(cls, LINK_COLOURS[None])


#: the Verify page's checklist rows: every item, and the host RAM item that shows only for a plan with CPU offload
#: (core.checklist.items_for_plan; issue 35 round 18, review18: the printed plan listed it, the page did not)
_CHECK_ITEMS = ck.ITEMS + (ck.HOST_RAM_ITEM,)


class PasteEdit(QPlainTextEdit):
    """A box for pasted tool output that refuses a paste (or drop) which would take it past the parser's ``limit``
    characters: Qt lays out every line of a 10 MB paste before any parser can refuse it, tens of seconds with the
    window frozen (5 million lines: 44 s, issue 35 round 10). The box keeps what it held (the clipboard keeps the
    rest) and ``on_refused`` gets the text it would have held, for the parser's one-line reason."""

    def __init__(self, limit: int, on_refused, parent: QWidget | None = None):
        super().__init__(parent)
        self._limit, self._on_refused = limit, on_refused

    def insertFromMimeData(self, source) -> None:  # noqa: N802 (Qt)
        text = source.text() if source.hasText() else ""
        kept = len(self.toPlainText()) - len(self.textCursor().selectedText())
        if kept + len(text) > self._limit:
            self._on_refused(self.toPlainText() + text)
            return
        super().insertFromMimeData(source)


def _tr_core(context: str, text: str) -> str:
    return QCoreApplication.translate(context, text)


class VerifyPanel(QWidget):
    checklistChanged = Signal(object)  # ChecklistState
    measuredMfuApplied = Signal(object)  # Scenario with the measured run added to assumptions.measured_runs

    # long: builds the panel's tabs and forms row by row (Qt layout code)
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._scenario: Scenario | None = None
        self._base_dir: Path | None = None
        self._topo: Topology | None = None
        self._result: KitResult | None = None
        self._run = None  # the kit result as a core MeasuredRun (what "Use measured MFU" records)
        self._run_blocked = None  # core.calibration's reason it cannot calibrate this plan (None: it can)
        self._result_name: str | None = None
        self._analysis: Analysis | None = None
        self._state = ck.ChecklistState()
        self._domestic = False
        self._host_ram = False  # the plan keeps states in CPU memory (set_scenario)
        self._check_rows: dict[str, tuple[QCheckBox, QLabel, QLineEdit]] = {}

        root = QVBoxLayout(self)
        # --- topology
        self.topo_box = QGroupBox()
        tl = QVBoxLayout(self.topo_box)
        self.topo_intro = QLabel()
        self.topo_intro.setWordWrap(True)
        tl.addWidget(self.topo_intro)
        self.topo_edit = PasteEdit(MAX_TOPO_CHARS, lambda text: self._paste_refused("topo", text))
        self.topo_edit.setMaximumHeight(110)
        tl.addWidget(self.topo_edit)
        row = QHBoxLayout()
        self.topo_check_button = QPushButton()
        self.topo_check_button.clicked.connect(self._on_check_topo)
        self.topo_load_button = QPushButton()
        self.topo_load_button.clicked.connect(self._on_load_topo)
        row.addWidget(self.topo_check_button)
        row.addWidget(self.topo_load_button)
        row.addStretch(1)
        tl.addLayout(row)
        self.topo_table = QTableWidget()
        self.topo_table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.topo_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.topo_table.setVisible(False)  # shown with a matrix: empty, it was a blank box under "Check" (ux24)
        tl.addWidget(self.topo_table)
        self.topo_legend = QLabel()
        self.topo_legend.setWordWrap(True)
        tl.addWidget(self.topo_legend)
        self.topo_verdict = QLabel()
        self.topo_verdict.setWordWrap(True)
        self.topo_verdict.setTextFormat(Qt.TextFormat.RichText)
        tl.addWidget(self.topo_verdict)
        root.addWidget(self.topo_box)

        # --- network between nodes and health of the cards, side by side
        pair = QHBoxLayout()
        self.net_box = QGroupBox()
        nl = QVBoxLayout(self.net_box)
        self.net_intro = QLabel()
        self.net_intro.setWordWrap(True)
        nl.addWidget(self.net_intro)
        self.net_edit = PasteEdit(vnet.MAX_CHARS, lambda text: self._paste_refused("net", text))
        self.net_edit.setMaximumHeight(90)
        nl.addWidget(self.net_edit)
        row = QHBoxLayout()
        self.net_check_button = QPushButton()
        self.net_check_button.clicked.connect(self._on_check_net)
        self.net_load_button = QPushButton()
        self.net_load_button.clicked.connect(self._on_load_net)
        row.addWidget(self.net_check_button)
        row.addWidget(self.net_load_button)
        row.addStretch(1)
        nl.addLayout(row)
        self.net_table = QTableWidget(0, 5)
        self.net_table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.net_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.net_table.horizontalHeader().setStretchLastSection(True)
        self.net_table.verticalHeader().setVisible(False)
        self.net_table.verticalHeader().setDefaultSectionSize(22)
        self.net_table.setMaximumHeight(170)
        nl.addWidget(self.net_table)
        self.net_verdict = QLabel()
        self.net_verdict.setWordWrap(True)
        self.net_verdict.setTextFormat(Qt.TextFormat.RichText)
        nl.addWidget(self.net_verdict)
        nl.addStretch(1)
        pair.addWidget(self.net_box, 1)

        self.health_box = QGroupBox()
        hl = QVBoxLayout(self.health_box)
        self.health_intro = QLabel()
        self.health_intro.setWordWrap(True)
        hl.addWidget(self.health_intro)
        self.health_edit = PasteEdit(vhealth.MAX_CHARS, lambda text: self._paste_refused("health", text))
        self.health_edit.setMaximumHeight(90)
        hl.addWidget(self.health_edit)
        row = QHBoxLayout()
        self.health_check_button = QPushButton()
        self.health_check_button.clicked.connect(self._on_check_health)
        self.health_load_button = QPushButton()
        self.health_load_button.clicked.connect(self._on_load_health)
        row.addWidget(self.health_check_button)
        row.addWidget(self.health_load_button)
        row.addStretch(1)
        hl.addLayout(row)
        self.health_summary = QLabel()
        self.health_summary.setWordWrap(True)
        hl.addWidget(self.health_summary)
        self.health_verdict = QLabel()
        self.health_verdict.setWordWrap(True)
        self.health_verdict.setTextFormat(Qt.TextFormat.RichText)
        hl.addWidget(self.health_verdict)
        hl.addStretch(1)
        pair.addWidget(self.health_box, 1)
        root.addLayout(pair)
        self._net = None
        self._net_error = None
        self._health = None
        self._health_error = None
        self._mn_result = None
        self._mn_analysis = None

        # --- kit
        self.kit_box = QGroupBox()
        kl = QVBoxLayout(self.kit_box)
        self.kit_intro = QLabel()
        self.kit_intro.setWordWrap(True)
        kl.addWidget(self.kit_intro)
        row = QHBoxLayout()
        self.nodes_label = QLabel()
        self.nodes_spin = QSpinBox()
        self.nodes_spin.setRange(1, 512)
        self.nodes_spin.setValue(1)
        row.addWidget(self.nodes_label)
        row.addWidget(self.nodes_spin)
        self.export_button = QPushButton()
        self.export_button.clicked.connect(self._on_export)
        self.import_button = QPushButton()
        self.import_button.clicked.connect(self._on_import)
        self.apply_button = QPushButton()
        self.apply_button.setEnabled(False)
        self.apply_button.clicked.connect(self._on_apply)
        for b in (self.export_button, self.import_button, self.apply_button):
            row.addWidget(b)
        row.addStretch(1)
        kl.addLayout(row)
        self.kit_status = QLabel()
        self.kit_status.setTextFormat(Qt.TextFormat.PlainText)
        self.kit_status.setWordWrap(True)
        kl.addWidget(self.kit_status)
        self.findings_label = QLabel()
        self.findings_label.setWordWrap(True)
        self.findings_label.setTextFormat(Qt.TextFormat.RichText)
        kl.addWidget(self.findings_label)
        self.compare_table = QTableWidget(5, 2)
        self.compare_table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.compare_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.compare_table.setMaximumHeight(190)
        kl.addWidget(self.compare_table)
        from .charts import FormattedAxis

        self.scaling_plot = pg.PlotWidget(background="w", axisItems={"left": FormattedAxis("left"),
                                                                     "bottom": FormattedAxis("bottom")})
        self.scaling_plot.setMinimumHeight(180)
        self.scaling_plot.showGrid(x=True, y=True, alpha=0.3)
        self.measured_curve = self.scaling_plot.plot([], [], pen=pg.mkPen("#1565c0", width=2), symbol="o",
                                                     symbolBrush="#1565c0")
        self.linear_curve = self.scaling_plot.plot([], [], pen=pg.mkPen("#9e9e9e", width=1.5, style=Qt.PenStyle.DashLine))
        kl.addWidget(self.scaling_plot)
        self.scaling_legend = QLabel()
        kl.addWidget(self.scaling_legend)
        # before any import: a sentence saying what to do, not an empty 0–1 plot
        self.scaling_empty = QLabel()
        self.scaling_empty.setWordWrap(True)
        self.scaling_empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.scaling_empty.setStyleSheet("color: #666; border: 1px dashed #bbb; padding: 18px;")
        kl.addWidget(self.scaling_empty)
        self._show_scaling([])
        root.addWidget(self.kit_box)

        # --- checklist
        self.check_box = QGroupBox()
        self.check_grid = QGridLayout(self.check_box)
        self.check_progress = QLabel()
        self._build_checklist()
        root.addWidget(self.check_box)
        root.addStretch(1)
        self.retranslate()
        self._update_buttons()

    # ------------------------------------------------------------------------------------ i18n

    def changeEvent(self, ev):  # noqa: N802 (Qt)
        if ev.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(ev)

    def retranslate(self) -> None:
        self.topo_box.setTitle(self.tr("Interconnect (nvidia-smi topo -m)"))
        self.topo_intro.setText(self.tr(
            "Paste the output of 'nvidia-smi topo -m' from the server, or load it from a file. Green cells are "
            "NVLink, red cells cross CPU sockets."))
        self.topo_edit.setPlaceholderText(self.tr("Paste nvidia-smi topo -m output here"))
        self.topo_check_button.setText(self.tr("Check"))
        self.topo_load_button.setText(self.tr("Load file…"))
        self.topo_legend.setText(self.tr(
            "NV# = NVLink (best) · PIX = one PCIe switch · PXB = several PCIe switches · PHB = through the CPU · "
            "NODE = between PCIe host bridges · SYS = across CPU sockets (worst)"))
        self.net_box.setTitle(self.tr("Network between nodes (ibstat / ibv_devinfo)"))
        self.net_intro.setText(self.tr(
            "Paste the output of 'ibstat' or 'ibv_devinfo -v' from one node: each port's link layer (InfiniBand, or "
            "Ethernet = RoCE), state and rate are checked against the plan's network."))
        self.net_edit.setPlaceholderText(self.tr("Paste ibstat or ibv_devinfo output here"))
        self.net_check_button.setText(self.tr("Check"))
        self.net_load_button.setText(self.tr("Load file…"))
        self.net_table.setHorizontalHeaderLabels([self.tr("Device"), self.tr("Port"), self.tr("Link layer"),
                                                  self.tr("State"), self.tr("Gb/s")])
        self.health_box.setTitle(self.tr("Health of the cards"))
        self.health_intro.setText(self.tr(
            "Paste 'nvidia-smi -q', 'npu-smi info', 'rocm-smi' or the kernel log (Xid errors): temperatures, "
            "throttling, power caps, ECC errors, other processes and driver versions are checked."))
        self.health_edit.setPlaceholderText(self.tr("Paste nvidia-smi -q, npu-smi info, rocm-smi or dmesg output here"))
        self.health_check_button.setText(self.tr("Check"))
        self.health_load_button.setText(self.tr("Load file…"))
        self.nodes_label.setText(self.tr("Nodes:"))
        self.nodes_spin.setToolTip(self.tr("More than one node: the kit runs with torchrun on every node and "
                                           "measures the network between them"))
        self.kit_box.setTitle(self.tr("Acceptance test kit"))
        self.kit_intro.setText(self.tr(
            "Export a test script, run it on the rented server with 'bash kit.sh' (it needs only Python and "
            "PyTorch), then import the JSON file it writes. The measured MFU can replace the assumed one."))
        self.export_button.setText(self.tr("Export test script…"))
        self.import_button.setText(self.tr("Import result…"))
        self.apply_button.setText(self.tr("Use measured MFU in the plan"))
        self.compare_table.setHorizontalHeaderLabels([self.tr("Before (assumed MFU)"), self.tr("After (measured MFU)")])
        self.compare_table.setVerticalHeaderLabels([self.tr("MFU"), self.tr("Tokens/s per GPU"), self.tr("Days"),
                                                    self.tr("Card-hours"), self.tr("Cost")])
        self.scaling_plot.setLabel("bottom", self.tr("GPUs"))
        self.scaling_plot.setLabel("left", self.tr("Tokens/s"))
        self.scaling_legend.setText(self.tr("Blue: measured · grey dashes: linear scaling"))
        self.scaling_empty.setText(self.tr(
            "Measured scaling appears here: export the test script, run it on the rented server and import the "
            "result file it writes."))
        self.check_box.setTitle(self.tr("Vendor checklist"))
        for it in _CHECK_ITEMS:
            box, why, notes = self._check_rows[it.id]
            box.setText(_tr_core(ck.CTX, it.title))
            why.setText(_tr_core(ck.CTX, it.why))
            box.setToolTip(_tr_core(ck.CTX, it.why))
            # short enough for the narrow field beside a long English title ("Notes (what t…" was cut); the
            # tooltip says what to write
            notes.setPlaceholderText(self.tr("Answer, date"))
            notes.setToolTip(self.tr("Notes (what the vendor said, quote, date)"))
        self._update_progress()
        self._render_topology()
        self._render_network()
        self._render_health()
        self._render_result()

    # ------------------------------------------------------------------------------------ scenario

    def set_scenario(self, scenario: Scenario | None, base_dir: Path | None = None) -> None:
        self._scenario = scenario
        self._base_dir = base_dir
        domestic = False
        if scenario is not None:
            try:
                from gpuplanner.core.catalog_hw import lookup_gpu

                domestic = lookup_gpu(scenario.hardware.gpu, scenario.hardware.custom_gpus).gpu_class == "domestic"
            except PlannerError:
                domestic = False
        self._domestic = domestic
        # the host RAM item where the plan's CPU offload keeps states in CPU memory (checklist.items_for_plan, as the
        # printed plan's checklist; the core's figure, verify.acceptance.host_ram_need_gib)
        self._host_ram = scenario is not None and bool(host_ram_need_gib(scenario, base_dir))
        self._apply_domestic_visibility()
        if scenario is not None:
            nodes = units_nodes(scenario.hardware.num_gpus, scenario.hardware.gpus_per_node)
            self.nodes_spin.setValue(max(1, nodes))
        if self._result is not None or self._mn_result is not None:
            self._analyse()
        self._update_buttons()
        self._render_result()

    def _update_buttons(self) -> None:
        self.export_button.setEnabled(self._scenario is not None)
        self.import_button.setEnabled(self._scenario is not None)
        # the core decides: a CPU smoke test or a run on another GPU than the plan's is shown, never applied
        self.apply_button.setEnabled(self._run is not None and self._run_blocked is None)
        self.apply_button.setToolTip(tr_msg(self._run_blocked) if self._run_blocked is not None else self.tr(
            "Record this measurement: it calibrates the plans on the GPU it ran on, through their own layouts"))

    # ------------------------------------------------------------------------------------ topology

    def load_topology_text(self, text: str) -> bool:
        """Parse and show a topology; returns False (and shows the one-line reason) when it cannot be read."""
        self.topo_edit.setPlainText(text)
        return self._on_check_topo()

    def _paste_refused(self, kind: str, text: str) -> None:
        """A paste over its box's limit: the parser's one-line reason (too long) in the box's verdict."""
        parse = {"topo": parse_topo, "net": vnet.parse_ports, "health": lambda t: vhealth.check_health(t, None)}[kind]
        try:
            parse(text)
            return
        except PlannerError as err:
            error = err
        if kind == "topo":
            self._topo, self._topo_error = None, error.args[0] if error.args else str(error)
            self._render_topology()
        elif kind == "net":
            self._net, self._net_error = None, _err_text(error)
            self._render_network()
        else:
            self._health, self._health_error = None, _err_text(error)
            self._render_health()

    def _on_load_topo(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Open nvidia-smi topo -m output"), "",
                                              self.tr("Text files (*.txt *.log);;All files (*)"))
        if path:
            from gpuplanner.io.safe_read import read_limited

            try:  # the CLI's reader: a regular file, bounded
                text = read_limited(path, MAX_TOPO_CHARS, "nvidia-smi topo -m output").decode("utf-8", errors="replace")
            except (PlannerError, OSError) as err:
                self.topo_verdict.setText(_html(self.tr("Cannot read the file: {0}").format(
                    error_message(err) if isinstance(err, PlannerError) else err.strerror or str(err))))
                return
            self.load_topology_text(text)

    def _on_check_topo(self) -> bool:
        text = self.topo_edit.toPlainText()
        try:
            self._topo = parse_topo(text)
            self._topo_error = None
        except PlannerError as err:
            self._topo = None
            self._topo_error = err.args[0] if err.args else str(err)  # keeps its message id (MsgStr)
        self._render_topology()
        return self._topo is not None

    def _render_topology(self) -> None:
        topo = self._topo
        t = self.topo_table
        t.setVisible(topo is not None)
        if topo is None:
            t.setRowCount(0)
            t.setColumnCount(0)
            err = getattr(self, "_topo_error", None)
            self.topo_verdict.setText(_html(self.tr("Cannot read this output: {0}").format(tr_msg(err))) if err else "")
            return
        n = topo.gpus
        t.setRowCount(n)
        t.setColumnCount(n)
        t.setHorizontalHeaderLabels(topo.gpu_names)
        t.setVerticalHeaderLabels(topo.gpu_names)
        for i in range(n):
            for j in range(n):
                cls = topo.link(i, j)
                item = QTableWidgetItem(cls or "?")
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                item.setBackground(QBrush(QColor(link_colour(cls))))
                item.setForeground(QBrush(QColor("#000000")))
                t.setItem(i, j, item)
        plan_tp = self._scenario.parallel.tp if self._scenario else None
        plan_gpus = self._scenario.hardware.num_gpus if self._scenario else None
        diag = diagnose(topo, plan_tp=plan_tp, plan_gpus=plan_gpus)
        self.topo_verdict.setText("<br>".join(
            f"<span style='color:{SEVERITY_COLOURS.get(f.severity, '#000')}'>●</span> {_html(tr_msg(f.text))}"
            for f in diag.verdict))

    # ------------------------------------------------------------------------------------ network

    def load_network_text(self, text: str) -> bool:
        """Parse and judge ibstat / ibv_devinfo output; False (with the one-line reason shown) when unreadable."""
        self.net_edit.setPlainText(text)
        return self._on_check_net()

    def _read_text_file(self, title: str) -> str | None:
        path, _ = QFileDialog.getOpenFileName(self, title, "", self.tr("Text files (*.txt *.log);;All files (*)"))
        if not path:
            return None
        from gpuplanner.io.safe_read import read_limited

        try:
            return read_limited(path, vhealth.MAX_CHARS, "text file").decode("utf-8", errors="replace")
        except PlannerError as err:
            return "\x00" + error_message(err)

    def _on_load_net(self) -> None:
        text = self._read_text_file(self.tr("Open ibstat or ibv_devinfo output"))
        if text is None:
            return
        if text.startswith("\x00"):
            self._net, self._net_error = None, text[1:]
            self._render_network()
            return
        self.load_network_text(text)

    def _on_check_net(self) -> bool:
        try:
            self._net = vnet.parse_ports(self.net_edit.toPlainText())
            self._net_error = None
        except PlannerError as err:
            self._net, self._net_error = None, _err_text(err)
        self._render_network()
        return self._net is not None

    def network_report(self):
        """The verdict on the pasted ports against the plan (None when nothing readable is pasted)."""
        if self._net is None:
            return None
        plan = None
        if self._scenario is not None:
            try:
                plan = vnet.plan_network(self._scenario)
            except PlannerError:
                plan = None
        return vnet.diagnose_network(self._net, plan, self._topo)

    def _render_network(self) -> None:
        t = self.net_table
        if self._net is None:
            t.setRowCount(0)
            err = self._net_error
            self.net_verdict.setText(_html(self.tr("Cannot read this output: {0}").format(err)) if err else "")
            return
        t.setRowCount(len(self._net))
        for r, p in enumerate(self._net):
            layer = {"InfiniBand": self.tr("InfiniBand"), "Ethernet": self.tr("RoCE")}.get(
                p.link_layer or "", "?")
            state = {"Active": self.tr("Active"), "Down": self.tr("Down"), "Initializing": self.tr("Initializing"),
                     "Armed": self.tr("Armed")}.get(p.state, p.state)
            cells = [p.device, str(p.port), layer, state,
                     "?" if p.rate_gbps is None else format_number(p.rate_gbps)]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if c == 3:
                    item.setForeground(QBrush(QColor(SEVERITY_COLOURS["ok" if p.active else "warn"])))
                t.setItem(r, c, item)
        rep = self.network_report()
        self.net_verdict.setText(_findings_html(rep.findings) if rep else "")

    # ------------------------------------------------------------------------------------ health

    def load_health_text(self, text: str) -> bool:
        """Parse and judge nvidia-smi -q / npu-smi info / rocm-smi / dmesg text; False when unreadable."""
        self.health_edit.setPlainText(text)
        return self._on_check_health()

    def _on_load_health(self) -> None:
        text = self._read_text_file(self.tr("Open nvidia-smi -q, npu-smi, rocm-smi or dmesg output"))
        if text is None:
            return
        if text.startswith("\x00"):
            self._health, self._health_error = None, text[1:]
            self._render_health()
            return
        self.load_health_text(text)

    def _on_check_health(self) -> bool:
        gpu = self._scenario.hardware.gpu if self._scenario is not None else None
        try:
            self._health = vhealth.check_health(self.health_edit.toPlainText(), gpu)
            self._health_error = None
        except PlannerError as err:
            self._health, self._health_error = None, _err_text(err)
        self._render_health()
        return self._health is not None

    def _render_health(self) -> None:
        rep = self._health
        if rep is None:
            err = self._health_error
            self.health_summary.setText("")
            self.health_verdict.setText(_html(self.tr("Cannot read this output: {0}").format(err)) if err else "")
            return
        cards = len(rep.gpus) or len(rep.npus) or len(rep.amd)
        tool = {"nvidia": "nvidia-smi -q", "ascend": "npu-smi info", "amd": "rocm-smi"}.get(rep.kind)
        if tool:
            text = plural_s(self.tr("{0}: {1} card(s)"), cards).format(tool, cards)
        else:
            text = plural_s(self.tr("Kernel log: {0} Xid event(s)"), len(rep.xids)).format(len(rep.xids))
        if rep.driver:
            text += " · " + self.tr("driver {0}").format(rep.driver)
        if rep.cuda:
            text += " · CUDA " + rep.cuda
        self.health_summary.setText(text)
        self.health_verdict.setText(_findings_html(rep.findings))

    # ------------------------------------------------------------------------------------ kit

    def export_kit_file(self, path: str | Path) -> None:
        if self._scenario is None:
            raise PlannerError(self.tr("Describe the training task first"))
        nodes = self.nodes_spin.value()
        if nodes > 1 or self._vendor() not in ("NVIDIA", "custom"):
            text = vmulti.render_multinode_kit(self._scenario, nodes, base_dir=self._base_dir)
        else:
            text = render_kit(self._scenario, base_dir=self._base_dir)
        p = Path(path)
        try:
            p.write_text(text, encoding="utf-8", newline="\n")
            p.chmod(0o755)
        except OSError as err:
            raise PlannerError(self.tr("Cannot write {0}: {1}").format(p.name, err.strerror or err)) from None

    def _vendor(self) -> str:
        try:
            from gpuplanner.core.catalog_hw import lookup_gpu

            return lookup_gpu(self._scenario.hardware.gpu, self._scenario.hardware.custom_gpus).vendor
        except (PlannerError, AttributeError):
            return "NVIDIA"

    def _on_export(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export test script"), "kit.sh",
                                              self.tr("Shell scripts (*.sh);;All files (*)"))
        if not path:
            return
        try:
            self.export_kit_file(path)
            if self.nodes_spin.value() > 1:
                self.kit_status.setText(self.tr(
                    "Saved {0}. Copy it to every node and run: bash {1} --master ADDRESS_OF_NODE_0 "
                    "(it prints the command for each node)").format(path, Path(path).name))
            else:
                self.kit_status.setText(self.tr("Saved {0}. Run it on the server with: bash {1}").format(
                    path, Path(path).name))
        except PlannerError as err:
            self.kit_status.setText(_err_text(err))

    def import_result_file(self, path: str | Path) -> bool:
        """Read and analyse a kit result; False (with the one-line reason shown) when it cannot be read."""
        self._mn_result = self._mn_analysis = None
        try:
            if vmulti.result_schema(path) == vmulti.SCHEMA:
                self._result = None
                self._analysis = None
                self._mn_result = vmulti.load_multinode_result(path)
            else:
                self._result = load_kit_result(path)
        except PlannerError as err:
            self._result = None
            self._analysis = None
            self.kit_status.setText(self.tr("Cannot import the result: {0}").format(_err_text(err)))
            self._update_buttons()
            self._render_result()
            return False
        self.kit_status.setText(self.tr("Imported {0}").format(Path(path).name))
        self._result_name = Path(path).name
        self._analyse()
        if self._run_blocked is not None:
            self.kit_status.setText(self.tr("Imported {0}. Not applied to this plan: {1}").format(
                Path(path).name, tr_msg(self._run_blocked)))
        self._update_buttons()
        self._render_result()
        return self._analysis is not None or self._mn_analysis is not None

    def _analyse(self) -> None:
        from gpuplanner.core.calibration import run_status

        self._analysis = None
        self._compare = None
        self._mn_analysis = None
        self._run, self._run_blocked = None, None
        if self._mn_result is not None and self._scenario is not None:
            try:
                self._mn_analysis = vmulti.analyse_multinode(self._mn_result, self._scenario)
            except PlannerError as err:
                self.kit_status.setText(self.tr("Cannot analyse the result: {0}").format(_err_text(err)))
            return
        if self._result is None or self._scenario is None:
            return
        try:
            self._analysis = analyse(self._result, self._scenario, base_dir=self._base_dir)
            self._run = measured_run(self._result, self._analysis, self._scenario, source=self._result_name)
            if self._run is not None:
                self._run_blocked = run_status(self._run, self._scenario.hardware.gpu)
            if self._run is not None and self._run_blocked is None and 0 < self._analysis.measured_mfu <= 1:
                self._compare = before_after(self._scenario, self._analysis, self._base_dir)
        except PlannerError as err:
            self.kit_status.setText(self.tr("Cannot analyse the result: {0}").format(_err_text(err)))

    def _on_import(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Import kit result"), "",
                                              self.tr("JSON files (*.json);;All files (*)"))
        if path:
            self.import_result_file(path)

    def _on_apply(self) -> None:
        """Record the measured run in the scenario (``assumptions.measured_runs``); the core applies it to the
        plans on its GPU only (core/calibration.py). A run of the same GPU and layout is replaced."""
        if self._run is None or self._run_blocked is not None or self._scenario is None:
            return
        run = self._run
        keep = [r for r in self._scenario.assumptions.measured_runs
                if (r.gpu, r.num_gpus, r.nodes, r.tp, r.pp) != (run.gpu, run.num_gpus, run.nodes, run.tp, run.pp)]
        new = self._scenario.model_copy(deep=True)
        new.assumptions.measured_runs = keep + [run]
        self.measuredMfuApplied.emit(new)

    def compare_text(self, row: int, col: int) -> str:
        item = self.compare_table.item(row, col)
        return item.text() if item else ""

    def _render_result(self) -> None:
        a = self._analysis
        cmp_ = getattr(self, "_compare", None)
        mn = getattr(self, "_mn_analysis", None)
        if mn is not None:
            self.findings_label.setText(_findings_html(mn.findings))
            xs, measured, linear = mn.scaling_series()  # the analysis's series: the view only draws them
            self.measured_curve.setData(xs, measured)
            self.linear_curve.setData(xs, linear)
            self._show_scaling(xs)
            for r in range(5):
                for c in range(2):
                    self.compare_table.setItem(r, c, QTableWidgetItem(""))
            return
        if a is None:
            self.findings_label.setText("")
            self.measured_curve.setData([], [])
            self.linear_curve.setData([], [])
            self._show_scaling([])
            for r in range(5):
                for c in range(2):
                    self.compare_table.setItem(r, c, QTableWidgetItem(""))
            return
        self.findings_label.setText("<br>".join(
            f"<span style='color:{SEVERITY_COLOURS.get(f.severity, '#000')}'>●</span> {_html(tr_msg(f.text))}"
            for f in a.findings))
        xs, measured, linear = a.scaling_series()
        self.measured_curve.setData(xs, measured)
        self.linear_curve.setData(xs, linear)
        self._show_scaling(xs)
        for c, key in enumerate(("before", "after")):
            fig = (cmp_ or {}).get(key) or {}
            cur = fig.get("currency", "")
            cells = [
                _fmt(fig.get("mfu"), lambda v: format_sig(v * 100) + "%"),
                _fmt(fig.get("tokens_per_s_per_gpu"), lambda v: format_number(v, 0)),
                _fmt(fig.get("compute_days"), lambda v: format_number(v, 2)),
                _fmt(fig.get("gpu_hours"), lambda v: format_number(v, 0)),
                _fmt(fig.get("cost"), lambda v, cur=cur: f"{format_number(v, 0)} {cur}"),
            ]
            for r, text in enumerate(cells):
                self.compare_table.setItem(r, c, QTableWidgetItem(text))

    def _show_scaling(self, xs) -> None:
        """The measured scaling plot with ticks at the GPU counts measured (no fractional GPUs), or, before a
        result with several counts is imported, a sentence saying what to do."""
        from gpuplanner.formatting import format_count

        counts = sorted({int(x) for x in xs if x and x > 0})
        have = len(counts) >= 1
        self.scaling_plot.setVisible(have)
        self.scaling_legend.setVisible(have)
        self.scaling_empty.setVisible(not have)
        if have:
            self.scaling_plot.getPlotItem().getAxis("bottom").setTicks([[(n, format_count(n)) for n in counts], []])
            lo, hi = counts[0], counts[-1]
            self.scaling_plot.setXRange(lo - 0.5 if lo == hi else lo, hi + 0.5 if lo == hi else hi, padding=0.08)

    # ------------------------------------------------------------------------------------ checklist

    def _build_checklist(self) -> None:
        g = self.check_grid
        g.addWidget(self.check_progress, 0, 0, 1, 2)
        row = 1
        for it in _CHECK_ITEMS:
            box = QCheckBox()
            box.toggled.connect(lambda on, iid=it.id: self._on_check(iid, on))
            why = QLabel()
            why.setWordWrap(True)
            why.setStyleSheet("color: #555;")
            notes = QLineEdit()
            notes.editingFinished.connect(lambda iid=it.id: self._on_notes(iid))
            g.addWidget(box, row, 0)
            g.addWidget(notes, row, 1)
            g.addWidget(why, row + 1, 0, 1, 2)
            row += 2
            self._check_rows[it.id] = (box, why, notes)
        g.setColumnStretch(0, 3)
        g.setColumnStretch(1, 2)
        self._apply_domestic_visibility()

    def _apply_domestic_visibility(self) -> None:
        for it in ck.ITEMS:
            if it.domestic_only and it.id in self._check_rows:
                for w in self._check_rows[it.id]:
                    w.setVisible(self._domestic)
        for w in self._check_rows.get(ck.HOST_RAM_ITEM.id, ()):
            w.setVisible(self._host_ram)
        self._update_progress()

    def _applicable(self):
        return ck.items(domestic=self._domestic) + ([ck.HOST_RAM_ITEM] if self._host_ram else [])

    def _update_progress(self) -> None:
        done, total = self._state.progress(self._applicable())
        self.check_progress.setText(self.tr("{0} of {1} checked").format(done, total))

    def _on_check(self, item_id: str, on: bool) -> None:
        if self._state.entry(item_id).checked == on:
            return
        self._state.set(item_id, checked=on)
        self._update_progress()
        self.checklistChanged.emit(self.checklist_state())

    def _on_notes(self, item_id: str) -> None:
        text = self._check_rows[item_id][2].text()
        if self._state.entry(item_id).notes == text:
            return
        self._state.set(item_id, notes=text)
        self.checklistChanged.emit(self.checklist_state())

    def checklist_state(self) -> ck.ChecklistState:
        return self._state.model_copy(deep=True)

    def set_checklist_state(self, state: ck.ChecklistState | None) -> None:
        """Show a saved state (no ``checklistChanged`` emitted)."""
        self._state = (state or ck.ChecklistState()).model_copy(deep=True)
        for iid, (box, _why, notes) in self._check_rows.items():
            e = self._state.entry(iid)
            box.blockSignals(True)
            box.setChecked(e.checked)
            box.blockSignals(False)
            notes.setText(e.notes)
        self._update_progress()


def _findings_html(findings) -> str:
    """Translated findings (verify.findings.Finding: a severity and a core message), problems first."""
    from gpuplanner.i18n import translate_message

    return "<br>".join(
        f"<span style='color:{SEVERITY_COLOURS.get(f.severity, '#000')}'>●</span> "
        f"{_html(translate_message(f.msg.context, f.msg.text, dict(f.msg.params)))}" for f in findings)


def _fmt(v, f) -> str:
    return "—" if v is None else f(v)


def _err_text(err: BaseException) -> str:
    """An error's one line in the UI language when it carries its message id (``MsgStr``), else as it is."""
    first = err.args[0] if err.args else None
    return tr_msg(first) if hasattr(first, "context") and hasattr(first, "text") else str(err)


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
