"""Verify a rented server: topology matrix, acceptance-test kit export/import, vendor checklist.

A self-contained QWidget; the main window adds it and feeds it the current scenario with
:meth:`VerifyPanel.set_scenario`. It emits :attr:`VerifyPanel.checklistChanged` when the user ticks an item
or edits a note (the plan file stores :class:`ChecklistState`) and :attr:`VerifyPanel.measuredMfuApplied`
with the re-estimated scenario when the user adopts the measured MFU.

Every string is set in :meth:`retranslate` (called again on ``QEvent.LanguageChange``); texts from the core
(checklist items, findings) are translated with ``QCoreApplication.translate(context, text)``.
"""

from __future__ import annotations

from pathlib import Path

import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QEvent, Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QCheckBox, QFileDialog, QGridLayout, QGroupBox, QHBoxLayout, QHeaderView, QLabel, QLineEdit, QPlainTextEdit,
    QPushButton, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget,
)

from gpuplanner.core import checklist as ck
from .text import tr_msg
from gpuplanner.verify.acceptance import Analysis, KitResult, analyse, before_after, load_kit_result, measured_run, render_kit
from gpuplanner.core.errors import PlannerError
from gpuplanner.core.scenario import Scenario
from gpuplanner.verify.topology import Topology, class_rank, diagnose, parse_topo

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


def _tr_core(context: str, text: str) -> str:
    return QCoreApplication.translate(context, text)


class VerifyPanel(QWidget):
    checklistChanged = Signal(object)  # ChecklistState
    measuredMfuApplied = Signal(object)  # Scenario with the measured run added to assumptions.measured_runs

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
        self._check_rows: dict[str, tuple[QCheckBox, QLabel, QLineEdit]] = {}

        root = QVBoxLayout(self)
        # --- topology
        self.topo_box = QGroupBox()
        tl = QVBoxLayout(self.topo_box)
        self.topo_intro = QLabel()
        self.topo_intro.setWordWrap(True)
        tl.addWidget(self.topo_intro)
        self.topo_edit = QPlainTextEdit()
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
        tl.addWidget(self.topo_table)
        self.topo_legend = QLabel()
        self.topo_legend.setWordWrap(True)
        tl.addWidget(self.topo_legend)
        self.topo_verdict = QLabel()
        self.topo_verdict.setWordWrap(True)
        self.topo_verdict.setTextFormat(Qt.TextFormat.RichText)
        tl.addWidget(self.topo_verdict)
        root.addWidget(self.topo_box)

        # --- kit
        self.kit_box = QGroupBox()
        kl = QVBoxLayout(self.kit_box)
        self.kit_intro = QLabel()
        self.kit_intro.setWordWrap(True)
        kl.addWidget(self.kit_intro)
        row = QHBoxLayout()
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
        self.scaling_plot = pg.PlotWidget(background="w")
        self.scaling_plot.setMinimumHeight(180)
        self.scaling_plot.showGrid(x=True, y=True, alpha=0.3)
        self.measured_curve = self.scaling_plot.plot([], [], pen=pg.mkPen("#1565c0", width=2), symbol="o",
                                                     symbolBrush="#1565c0")
        self.linear_curve = self.scaling_plot.plot([], [], pen=pg.mkPen("#9e9e9e", width=1.5, style=Qt.PenStyle.DashLine))
        kl.addWidget(self.scaling_plot)
        self.scaling_legend = QLabel()
        kl.addWidget(self.scaling_legend)
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
        self.kit_box.setTitle(self.tr("Acceptance test kit"))
        self.kit_intro.setText(self.tr(
            "Export a test script, run it on the rented server with 'bash kit.sh' (it needs only Python and "
            "PyTorch), then import the JSON file it writes. The measured MFU can replace the assumed one."))
        self.export_button.setText(self.tr("Export test script…"))
        self.import_button.setText(self.tr("Import result…"))
        self.apply_button.setText(self.tr("Use measured MFU in the plan"))
        self.compare_table.setHorizontalHeaderLabels([self.tr("Before (assumed MFU)"), self.tr("After (measured MFU)")])
        self.compare_table.setVerticalHeaderLabels([self.tr("MFU"), self.tr("Tokens/s per GPU"), self.tr("Days"),
                                                    self.tr("GPU-hours"), self.tr("Cost")])
        self.scaling_plot.setLabel("bottom", self.tr("GPUs"))
        self.scaling_plot.setLabel("left", self.tr("Tokens/s"))
        self.scaling_legend.setText(self.tr("Blue: measured · grey dashes: linear scaling"))
        self.check_box.setTitle(self.tr("Vendor checklist"))
        for it in ck.ITEMS:
            box, why, notes = self._check_rows[it.id]
            box.setText(_tr_core(ck.CTX, it.title))
            why.setText(_tr_core(ck.CTX, it.why))
            box.setToolTip(_tr_core(ck.CTX, it.why))
            notes.setPlaceholderText(self.tr("Notes (what the vendor said, quote, date)"))
        self._update_progress()
        self._render_topology()
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
        self._apply_domestic_visibility()
        if self._result is not None:
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

    def _on_load_topo(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Open nvidia-smi topo -m output"), "",
                                              self.tr("Text files (*.txt *.log);;All files (*)"))
        if path:
            try:
                text = Path(path).read_text(encoding="utf-8", errors="replace")
            except OSError as err:
                self.topo_verdict.setText(_html(self.tr("Cannot read the file: {0}").format(err.strerror or str(err))))
                return
            self.load_topology_text(text)

    def _on_check_topo(self) -> bool:
        text = self.topo_edit.toPlainText()
        try:
            self._topo = parse_topo(text)
            self._topo_error = None
        except PlannerError as err:
            self._topo = None
            self._topo_error = str(err)
        self._render_topology()
        return self._topo is not None

    def _render_topology(self) -> None:
        topo = self._topo
        t = self.topo_table
        if topo is None:
            t.setRowCount(0)
            t.setColumnCount(0)
            err = getattr(self, "_topo_error", None)
            self.topo_verdict.setText(_html(self.tr("Cannot read this output: {0}").format(err)) if err else "")
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
            f"<span style='color:{SEVERITY_COLOURS.get(f.severity, '#000')}'>●</span> {_html(f.text)}"
            for f in diag.verdict))

    # ------------------------------------------------------------------------------------ kit

    def export_kit_file(self, path: str | Path) -> None:
        if self._scenario is None:
            raise PlannerError(self.tr("Describe the training task first"))
        text = render_kit(self._scenario, base_dir=self._base_dir)
        p = Path(path)
        try:
            p.write_text(text, encoding="utf-8", newline="\n")
            p.chmod(0o755)
        except OSError as err:
            raise PlannerError(self.tr("Cannot write {0}: {1}").format(p.name, err.strerror or err)) from None

    def _on_export(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export test script"), "kit.sh",
                                              self.tr("Shell scripts (*.sh);;All files (*)"))
        if not path:
            return
        try:
            self.export_kit_file(path)
            self.kit_status.setText(self.tr("Saved {0}. Run it on the server with: bash {1}").format(
                path, Path(path).name))
        except PlannerError as err:
            self.kit_status.setText(str(err))

    def import_result_file(self, path: str | Path) -> bool:
        """Read and analyse a kit result; False (with the one-line reason shown) when it cannot be read."""
        try:
            self._result = load_kit_result(path)
        except PlannerError as err:
            self._result = None
            self._analysis = None
            self.kit_status.setText(self.tr("Cannot import the result: {0}").format(str(err)))
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
        return self._analysis is not None

    def _analyse(self) -> None:
        from gpuplanner.core.calibration import run_status

        self._analysis = None
        self._compare = None
        self._run, self._run_blocked = None, None
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
            self.kit_status.setText(self.tr("Cannot analyse the result: {0}").format(str(err)))

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
        if a is None:
            self.findings_label.setText("")
            self.measured_curve.setData([], [])
            self.linear_curve.setData([], [])
            for r in range(5):
                for c in range(2):
                    self.compare_table.setItem(r, c, QTableWidgetItem(""))
            return
        self.findings_label.setText("<br>".join(
            f"<span style='color:{SEVERITY_COLOURS.get(f.severity, '#000')}'>●</span> {_html(f.text)}"
            for f in a.findings))
        xs, measured, linear = a.scaling_series()
        self.measured_curve.setData(xs, measured)
        self.linear_curve.setData(xs, linear)
        for c, key in enumerate(("before", "after")):
            fig = (cmp_ or {}).get(key) or {}
            cur = fig.get("currency", "")
            cells = [
                _fmt(fig.get("mfu"), lambda v: f"{v * 100:.3g}%"),
                _fmt(fig.get("tokens_per_s_per_gpu"), lambda v: f"{v:,.0f}"),
                _fmt(fig.get("compute_days"), lambda v: f"{v:,.2f}"),
                _fmt(fig.get("gpu_hours"), lambda v: f"{v:,.0f}"),
                _fmt(fig.get("cost"), lambda v, cur=cur: f"{v:,.0f} {cur}"),
            ]
            for r, text in enumerate(cells):
                self.compare_table.setItem(r, c, QTableWidgetItem(text))

    # ------------------------------------------------------------------------------------ checklist

    def _build_checklist(self) -> None:
        g = self.check_grid
        g.addWidget(self.check_progress, 0, 0, 1, 2)
        row = 1
        for it in ck.ITEMS:
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
        self._update_progress()

    def _applicable(self):
        return ck.items(domestic=self._domestic)

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


def _fmt(v, f) -> str:
    return "—" if v is None else f(v)


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
