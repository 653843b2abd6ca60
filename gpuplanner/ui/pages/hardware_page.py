"""Step 5: hardware and prices — the GPU catalog with editable prices, candidates, node and network."""

from __future__ import annotations

from gpuplanner.formatting import colon, format_clauses, format_number, format_sig, link_display_name

import re

from PySide6.QtCore import QCoreApplication, QEvent, Qt, QTimer
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView, QComboBox, QDialog, QDialogButtonBox, QFormLayout, QHBoxLayout, QHeaderView, QLabel, QLineEdit,
    QPushButton, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget,
)

from gpuplanner.core.catalog_hw import custom_gpu_record, load_gpus, load_networks, lookup_gpu
from gpuplanner.core.cost import QUOTE_FIELD_OF_COLUMN, quote_from_card_price
from gpuplanner.core.errors import PlannerError

from ..fields import BoundCombo, BoundEdit, align_units, fmt_float, parse_float
from ..text import error_message, plain, tr_error, tr_msg
from .base import BasePage

COLS = ("use", "gpu", "memory", "bf16", "card_hour", "card_week", "card_month", "link", "tdp", "source")
PRICE_COLS = {"card_hour": 4, "card_week": 5, "card_month": 6}
C_MEM, C_BF16, C_LINK, C_TDP, C_SRC = 2, 3, 7, 8, 9
OPTIONAL_COLS = (C_SRC, C_TDP, C_LINK)  # hidden in this order when the table has no room (shown under it instead)
MIN_GPU_WIDTH = 140  # the GPU column is never narrower (its names elide, the full name on hover)
UNKNOWN_SPEC = "—"


def short_gpu_name(name: str) -> str:
    """The product name without the vendor prefix, its regional suffix in the UI language."""
    from gpuplanner.formatting import gpu_display_name

    return gpu_display_name(name, short=True)


def _price_table(constraints):
    from gpuplanner.core.cost import PriceTable

    return PriceTable.from_constraints(constraints)


def _quotes(constraints) -> dict[str, dict]:
    return {k: v.model_dump(exclude_none=True) for k, v in (constraints.prices or {}).items()}


def price_cell_text(key: str, value: float) -> str:
    """A price cell of the GPU table: a card-hour with its cents ("10.50"); a week's or a month's rent in whole money
    where it is whole ("8,750", as the PDF's sources table and every cost: it read "8,750.00"; issue 35 round 16,
    ux24), with its cents where it has some (a typed quote of 8,625.50 keeps them)."""
    v = float(value)
    whole = key != "card_hour" and abs(v - round(v)) < 0.005
    return format_number(v, 0 if whole else 2)


class CustomGpuDialog(QDialog):
    """Name and specs of a GPU that is not in the catalog (kept with the document)."""

    def __init__(self, parent: QWidget | None = None, currency: str = "USD"):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Add a custom GPU"))
        form = QFormLayout(self)
        self.name = QLineEdit()
        self.memory = QLineEdit()
        self.tflops = QLineEdit()
        self.fp8 = QLineEdit()
        self.membw = QLineEdit()
        self.link = QComboBox()
        self.link.addItem(self.tr("PCIe only"), "pcie")
        self.link.addItem(self.tr("NVLink (or another fast GPU-to-GPU link)"), "nvlink")
        self.tdp = QLineEdit()
        self.price = QLineEdit()
        # the card's architecture (scenario CustomGpu.architecture): a variant of a known card keeps its generation's
        # efficiency, attention kernels and FP8 recipes in the time estimate
        self.arch = QComboBox()
        for text, value in ((self.tr("Not known (generic efficiency)"), None), (self.tr("NVIDIA Volta"), "volta"),
                            (self.tr("NVIDIA Ampere"), "ampere"), (self.tr("NVIDIA Ada Lovelace"), "ada"),
                            (self.tr("NVIDIA Hopper"), "hopper"), (self.tr("NVIDIA Blackwell (data centre)"), "blackwell"),
                            (self.tr("NVIDIA Blackwell (GeForce)"), "blackwell-consumer"),
                            (self.tr("AMD CDNA 2"), "cdna2"), (self.tr("AMD CDNA 3"), "cdna3")):
            self.arch.addItem(text, value)
        self.arch.setToolTip(self.tr("For a variant of a known card (other memory, clocks or power limit): the time "
                                     "estimate then uses that architecture's matmul efficiency, attention kernels "
                                     "and FP8 recipes instead of a cautious generic efficiency."))
        self.tflops.setToolTip(self.tr("Dense (not sparse) BF16 tensor TFLOPS from the datasheet; the time "
                                       "estimate needs it."))
        self.fp8.setToolTip(self.tr("Dense (not sparse) FP8 tensor TFLOPS from the datasheet, usually twice the "
                                    "BF16 figure on cards that have FP8 (Hopper, Ada, Blackwell). It is the "
                                    "peak of FP8 training and of FP8/INT8 serving. Empty (default): FP8 "
                                    "training on this card is refused and serving uses the BF16 peak."))
        self.membw.setToolTip(self.tr("Memory bandwidth in TB/s; used for the memory-bound parts of a step."))
        for label, w in [(self.tr("Name"), self.name), (self.tr("Memory (GiB)"), self.memory),
                         (self.tr("Dense BF16 TFLOPS"), self.tflops),
                         (self.tr("Dense FP8 TFLOPS"), self.fp8), (self.tr("Memory bandwidth (TB/s)"), self.membw),
                         (self.tr("Interconnect"), self.link), (self.tr("Architecture"), self.arch),
                         (self.tr("TDP (W)"), self.tdp),
                         # the currency named, as every other price field (issue 35 r17, ux26)
                         (self.tr("Price per card-hour ({0})").format(currency), self.price)]:
            form.addRow(label, w)
        self.error = plain(QLabel())
        self.error.setStyleSheet("color: #c62828;")
        form.addRow(self.error)
        bb = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        bb.accepted.connect(self._accept)
        bb.rejected.connect(self.reject)
        form.addRow(bb)
        self.result_gpu: dict | None = None

    def _num(self, w: QLineEdit, what: str, required: bool = False):
        t = w.text().strip()
        if not t:
            if required:
                raise ValueError(self.tr("{0} is required").format(what))
            return None
        try:
            v = parse_float(t)
        except ValueError as err:  # the field named, as for the other refusals of this dialog
            raise ValueError(self.tr("{0}: {1}").format(what, error_message(err))) from None
        if v <= 0:
            raise ValueError(self.tr("{0} must be more than zero").format(what))
        return v

    def _check_limits(self, spec: dict) -> None:
        """The scenario's own limits for a custom GPU (:class:`core.scenario.CustomGpu`), said while the typed values
        are still in the dialog: a figure the scenario refuses used to be reported only after the dialog closed."""
        from pydantic import ValidationError

        from gpuplanner.core.scenario import CustomGpu

        labels = {"memory_gib": self.tr("Memory"), "bf16_tflops": self.tr("TFLOPS"), "fp8_tflops": self.tr("FP8 TFLOPS"),
                  "mem_bw_tbs": self.tr("Memory bandwidth"), "tdp_w": self.tr("TDP")}
        try:
            CustomGpu(id="custom-check", name=spec["name"], architecture=spec["architecture"],
                      **{k: spec[k] for k in labels})
        except ValidationError as err:
            e = err.errors()[0]
            key, ctx = str(e["loc"][0]), e.get("ctx") or {}
            if key == "name":
                raise ValueError(self.tr("a name has at most {0} characters").format(
                    format_number(ctx.get("max_length", 0), 0))) from None
            raise ValueError(self.tr("{0} must be at most {1}").format(
                labels.get(key, key), format_number(ctx.get("le", 0), 0))) from None

    def _accept(self) -> None:
        try:
            name = self.name.text().strip()
            if not name:
                raise ValueError(self.tr("a name is required"))
            self.result_gpu = {
                "name": name, "memory_gib": self._num(self.memory, self.tr("Memory"), True),
                "bf16_tflops": self._num(self.tflops, self.tr("TFLOPS")),
                "fp8_tflops": self._num(self.fp8, self.tr("FP8 TFLOPS")),
                "mem_bw_tbs": self._num(self.membw, self.tr("Memory bandwidth")), "link": self.link.currentData(),
                "tdp_w": self._num(self.tdp, self.tr("TDP")), "card_hour": self._num(self.price, self.tr("Price")),
                "architecture": self.arch.currentData(),
            }
            self._check_limits(self.result_gpu)
        except ValueError as err:
            self.result_gpu = None
            self.error.setText(error_message(err))
            return
        self.accept()


class HardwarePage(BasePage):
    def title(self) -> str:
        return self.tr("Hardware and prices")

    def build(self) -> None:
        m = self.model
        self.table_box, tl = self.group(QVBoxLayout)
        self.table = QTableWidget(0, len(COLS))
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        self.table.setAlternatingRowColors(True)
        self.table.setMinimumHeight(380)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                                   | QAbstractItemView.EditTrigger.EditKeyPressed
                                   | QAbstractItemView.EditTrigger.AnyKeyPressed)
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        hh.setSectionResizeMode(len(COLS) - 1, QHeaderView.ResizeMode.Interactive)
        hh.setStretchLastSection(True)  # the price source takes the width a large window has (no blank strip)
        hh.setSectionResizeMode(1, QHeaderView.ResizeMode.Interactive)
        self.table.setColumnWidth(1, 165)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setDefaultSectionSize(24)
        tl.addWidget(self.table)
        row = QHBoxLayout()
        self.use_btn = QPushButton()
        self.use_btn.clicked.connect(self.use_selected)
        self.all_btn = QPushButton()
        self.all_btn.clicked.connect(lambda: self.set_candidates(None))
        self.add_btn = QPushButton()
        self.add_btn.clicked.connect(self.add_custom)
        self.reset_prices_btn = QPushButton()
        self.reset_prices_btn.clicked.connect(self.reset_prices)
        for b in (self.use_btn, self.all_btn, self.add_btn, self.reset_prices_btn):
            row.addWidget(b)
        row.addStretch(1)
        tl.addLayout(row)
        from .spot_price import SpotPrice

        self.spot = SpotPrice(self, tl)  # constraints.prices[<gpu>].spot_card_hour, for the selected row's GPU
        self.table_error = plain(QLabel())
        self.table_error.setStyleSheet("color: #c62828;")
        self.table_error.setWordWrap(True)
        self.table_error.hide()
        tl.addWidget(self.table_error)
        self.table_note = QLabel()
        self.table_note.setWordWrap(True)
        self.table_note.setStyleSheet("color: #555;")
        tl.addWidget(self.table_note)
        self._build_row_detail(tl)

        # memory per GPU against GPU count, with each ticked card's capacity: "4 or 8 cards, and which?"
        from ..charts import MemoryCountChart

        self.count_chart = MemoryCountChart()
        self.count_chart.setMinimumHeight(320)
        self.body.addWidget(self.count_chart)
        est = getattr(self.ctx, "estimator", None)
        if est is not None and hasattr(est, "scalingUpdated"):
            est.scalingUpdated.connect(self.count_chart.update_from)
            self.count_chart.update_from(getattr(est, "scaling", None))

        self.net_box, nf = self.group()
        self.node = BoundCombo(m, "hardware.gpus_per_node", [1, 2, 4, 8, 16])
        nets = [nid for nid, n in load_networks().items() if n.kind == "inter_node"]
        self.net_names = {nid: load_networks()[nid].name for nid in nets}
        self.inter = BoundCombo(m, "hardware.inter_node", [None, *nets])
        self.nics = BoundEdit(m, "hardware.nics_per_node", allow_empty=True)
        self.labels = {}
        for key in ("node", "inter", "nics"):
            self.labels[key] = self.add_field(nf, getattr(self, key))
        from .advanced_fields import HardwareAdvanced

        self.advanced = HardwareAdvanced(self, nf)  # the link inside a server, the host memory
        self.build_ownership()
        self._filling = False
        self.table.itemChanged.connect(self._on_item_changed)
        self.table.itemSelectionChanged.connect(self._on_selection)
        self.fill_table()

    def _build_row_detail(self, tl) -> None:
        """The line under the table with the columns a narrow window hides (interconnect, board power, price
        source), for the selected GPU; the table fits its columns to its width whenever it is resized."""
        self.row_detail = QLabel()
        self.row_detail.setWordWrap(True)
        self.row_detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.row_detail.hide()
        tl.insertWidget(tl.indexOf(self.table) + 1, self.row_detail)
        self.table.installEventFilter(self)

    # ------------------------------------------------------------------------------- table
    def _unknown_item(self) -> QTableWidgetItem:
        """A spec the datasheet does not give: "—" (the table note says what it means), "unknown" on hover (ux17: the
        word made the GiB and TFLOPS columns twice as wide as their figures, and the table scroll sideways)."""
        it = QTableWidgetItem(UNKNOWN_SPEC)
        it.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        it.setToolTip(self.tr("unknown"))
        f = it.font()
        f.setItalic(True)
        it.setFont(f)
        it.setForeground(QBrush(QColor("#888")))
        it.setFlags(it.flags() & ~Qt.ItemFlag.ItemIsEditable)
        return it

    def _spec_item(self, col: int, value: float) -> QTableWidgetItem:
        """A datasheet figure: TFLOPS in whole numbers, one precision down the column (ux17: "989" above "835.5"
        and "362.1"), the exact figure on hover where rounding changed it; memory and power as published."""
        if col == C_BF16 and value >= 10:
            it = self._ro(format_number(value, 0), True)
            if abs(value - round(value)) > 1e-9:
                it.setToolTip(format_sig(value, 6))
            return it
        return self._ro(format_sig(value, 4), True)

    def _ro(self, text: str, align_right: bool = False) -> QTableWidgetItem:
        it = QTableWidgetItem(text)
        it.setFlags(it.flags() & ~Qt.ItemFlag.ItemIsEditable)
        if align_right:
            it.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return it

    # long: fills the GPU table row by row and column by column (Qt item code), in the column order
    def fill_table(self) -> None:
        self._filling = True
        try:
            s = self.model.scenario
            gpus = load_gpus()
            cands = s.constraints.gpu_candidates
            try:
                table = _price_table(s.constraints)
            except PlannerError:
                table = None
            if cands is None:  # the search's own default: GPUs with memory, peak and a price
                try:
                    from gpuplanner.core.search import default_gpu_candidates

                    cands = (default_gpu_candidates(table, s.training.precision, s.hardware.custom_gpus)
                             if table is not None else [])
                except (ImportError, PlannerError):
                    cands = []
            # the user's own GPUs join the catalog rows (same ticking, prices and "use for live estimate")
            gpus.update({c.id: custom_gpu_record(c) for c in s.hardware.custom_gpus})
            self.table.setRowCount(len(gpus))
            self.row_ids: list[str] = []
            for r, (gid, g) in enumerate(gpus.items()):
                self.row_ids.append(gid)
                use = QTableWidgetItem()
                use.setFlags(Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
                on = gid in cands
                use.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)
                self.table.setItem(r, 0, use)
                if g.vendor == "custom":
                    name = self._ro(self.tr("{0} (custom)").format(g.name))
                    name.setToolTip(self.tr("{0}: figures you entered").format(g.id))
                else:
                    name = self._ro(short_gpu_name(g.name))
                    name.setToolTip(f"{short_gpu_name(g.name)} ({g.id})\n{g.source} ({g.source_date})"
                                    + (f"\n{g.notes}" if g.notes else ""))  # the whole name, also when elided
                if gid == s.hardware.gpu:
                    f = name.font()
                    f.setBold(True)
                    name.setFont(f)
                self.table.setItem(r, 1, name)
                for c, v in ((C_MEM, g.memory_gib), (C_BF16, g.bf16_tflops), (C_TDP, g.tdp_w)):
                    self.table.setItem(r, c, self._unknown_item() if v is None else self._spec_item(c, v))
                link = g.intra_node_link
                if link is None:
                    self.table.setItem(r, C_LINK, self._unknown_item())
                else:
                    bw = f" {format_sig(g.intra_node_bw_gbs, 4)} GB/s" if g.intra_node_bw_gbs else ""
                    link_name = link_display_name(link)  # "NVLink", not the catalog's key "nvlink"
                    self.table.setItem(r, C_LINK, self._ro(f"{link_name}{bw}"))
                price = None
                if table is not None:
                    try:
                        price = table.get(g)
                    except PlannerError:
                        price = None
                ov = _quotes(s.constraints).get(gid, {})
                vals = {"card_hour": price.card_hour if price else None,
                        "card_week": price.card_week if price else None,
                        "card_month": price.card_month if price else None}
                for key, col in PRICE_COLS.items():
                    v = vals[key]
                    it = QTableWidgetItem("" if v is None else price_cell_text(key, v))
                    it.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                    derived = price is not None and QUOTE_FIELD_OF_COLUMN[key] in price.derived
                    mine = QUOTE_FIELD_OF_COLUMN[key] in ov
                    if v is None:
                        it.setText(self.tr("unknown"))
                        it.setForeground(QBrush(QColor("#888")))
                    elif mine:
                        f = it.font()
                        f.setBold(True)
                        it.setFont(f)
                    elif derived:
                        it.setForeground(QBrush(QColor("#777")))
                    it.setToolTip(self.tr("Your quote") if mine else (
                        self.tr("Derived from another rental mode without a discount") if derived else
                        self.tr("Default price; type your own quote (double-click or start typing)")))
                    self.table.setItem(r, col, it)
                src = self.price_source_text(price) if price else self.tr("no price")
                if g.vendor == "custom" and not price:
                    src = self.tr("your entry: add a price to rank it")
                self.table.setItem(r, C_SRC, self._ro(src))
            # names are never cut ("A800 SXM4 80G…") while the table has room: the column is as wide as the
            # longest name (fit_columns hides the optional columns first)
            self.table.resizeColumnToContents(1)
        finally:
            self._filling = False
        self.fit_columns()

    def _column_width(self, col: int) -> int:
        """What a column needs for its header and every cell (also while it is hidden)."""
        return max(self.table.sizeHintForColumn(col), self.table.horizontalHeader().sectionSizeHint(col))

    def fit_columns(self) -> None:
        """The catalog never scrolls sideways (ux17: at 1280×800 it was 899 px in a 539-px view): the optional
        columns (price source, board power, interconnect) are hidden in that order until the rest fit, and the
        line under the table gives them for the selected GPU; a window narrower still elides the GPU names."""
        hh = self.table.horizontalHeader()
        room = self.table.viewport().width()
        if room <= 0 or not self.table.isVisible():  # a hidden page fits when it is shown (its resize event)
            self.update_row_detail()  # but its line follows the document now (it may be shown at the same size)
            return
        widths = {c: self._column_width(c) for c in range(len(COLS))}
        widths[C_SRC] = min(widths[C_SRC], 160)  # the stretching last column: room for a short source at least
        hidden: set[int] = set()
        for col in OPTIONAL_COLS:
            if sum(w for c, w in widths.items() if c not in hidden) <= room:
                break
            hidden.add(col)
        for col in OPTIONAL_COLS:
            hh.setSectionHidden(col, col in hidden)
        need = sum(w for c, w in widths.items() if c not in hidden)
        gpu = widths[1] if need <= room else max(MIN_GPU_WIDTH, widths[1] - (need - room))
        if hh.sectionSize(1) != gpu:
            self.table.setColumnWidth(1, gpu)
        self.update_row_detail()

    def update_row_detail(self) -> None:
        """The hidden columns' figures for the selected GPU (or the live estimate's), one line under the table."""
        hh = self.table.horizontalHeader()
        cols = [c for c in reversed(OPTIONAL_COLS) if hh.isSectionHidden(c)]
        rows = getattr(self, "row_ids", [])
        picked = self.table.selectionModel().selectedRows()
        r = picked[0].row() if picked else -1  # a row the user picked, else the live estimate's GPU
        if not (0 <= r < len(rows)):
            gpu = self.model.scenario.hardware.gpu
            r = rows.index(gpu) if gpu in rows else -1
        if not cols or r < 0:
            self.row_detail.hide()
            return
        bits = []
        for c in cols:
            it = self.table.item(r, c)
            if it is None:
                continue
            text = it.toolTip() if it.text() == UNKNOWN_SPEC else it.text()
            if c == C_TDP:
                bits.append(self.tr("board power {0} W").format(it.text()) if it.text() != UNKNOWN_SPEC else
                            self.tr("board power {0}").format(text))
            elif c == C_SRC:
                plain = (self.tr("no price"), self.tr("your entry: add a price to rank it"))
                bits.append(text if (not text or text in plain) else self.tr("price from {0}").format(text))
            else:
                bits.append(text)
        name = self.table.item(r, 1)
        text = (name.text() + colon() if name is not None else "") + " · ".join(bits)
        if text != self.row_detail.text():  # (a changed label re-lays out the page)
            self.row_detail.setText(text)
        self.row_detail.show()

    def eventFilter(self, obj, ev):  # noqa: N802 (Qt)
        if obj is getattr(self, "table", None) and ev.type() == QEvent.Type.Resize:
            QTimer.singleShot(0, self.fit_columns)  # after the view has laid out its scroll bars
        return super().eventFilter(obj, ev)

    def price_source_text(self, price) -> str:
        """Source and date of a price; the core's "(converted at R CNY/USD)" note is translated here."""
        src = price.source
        m = re.match(r"^(.*) \(converted at ([0-9.]+) CNY/USD\)$", src)
        if m:
            src = self.tr("{0} (converted at {1} CNY/USD)").format(m.group(1), m.group(2))
        if not price.is_default:
            src = self.tr("your quote")
        return f"{src} {price.source_date}".strip()

    def _on_item_changed(self, item: QTableWidgetItem) -> None:
        if self._filling:
            return
        r, c = item.row(), item.column()
        if r >= len(self.row_ids):
            return
        gid = self.row_ids[r]
        if c == 0:
            self._candidates_from_table()
            return
        key = next((k for k, col in PRICE_COLS.items() if col == c), None)
        if key is None:
            return
        text = item.text().strip()
        overrides = _quotes(self.model.scenario.constraints)
        ov = overrides.setdefault(gid, {})
        field = QUOTE_FIELD_OF_COLUMN[key]
        if not text or text == self.tr("unknown"):
            ov.pop(field, None)
        else:
            v = self.typed_price(text, gid)
            if v is None:
                return
            # the machine the table's per-card figure is shown for (the core's price: machine_gpus), so what
            # was typed is what the table shows back; the per-machine quote is the core's (cost)
            ov.update(quote_from_card_price(key, v, self._machine_gpus(gid)))
        self.store_quotes(overrides, gid)
        self.fill_table()

    def gpu_label(self, gid: str) -> str:
        """``gid``'s short name as the table shows it (the id itself when the catalog does not know it)."""
        try:
            return short_gpu_name(lookup_gpu(gid, self.model.scenario.hardware.custom_gpus).name)
        except PlannerError:
            return gid

    def typed_price(self, text: str, gid: str, spot: bool = False) -> float | None:
        """The price typed for ``gid`` (the table's cells, the spot field: thousands separators ignored), or None
        with the reason on the table's message line, one translated line each: not a number, or below zero."""
        try:
            v = parse_float(text)
        except ValueError:
            why = (self.tr("Spot price '{0}' for {1} is not a number; it was not changed.") if spot else
                   self.tr("Price '{0}' for {1} is not a number; it was not changed."))
        else:
            if v >= 0:
                return v
            why = (self.tr("Spot price '{0}' for {1} is below zero; it was not changed.") if spot else
                   self.tr("Price '{0}' for {1} is below zero; it was not changed."))
        self.table_error.setText(why.format(text, self.gpu_label(gid)))
        self.table_error.show()
        return None

    def store_quotes(self, overrides: dict[str, dict], gid: str) -> None:
        """Store ``overrides`` (``constraints.prices``) after a change to ``gid``'s quote: a quote left with nothing
        but its machine size and currency goes, a kept one takes the document's currency; a refusal shows on the
        table's message line, in the UI language."""
        ov = overrides.get(gid, {})
        if not {k for k in ov if k not in ("machine_gpus", "currency")}:
            overrides.pop(gid, None)
        else:
            ov["currency"] = self.model.scenario.constraints.currency
        err = self.model.set("constraints.prices", overrides or None)
        self.table_error.setText(tr_error(err, self) if err else "")
        self.table_error.setVisible(bool(err))

    def _machine_gpus(self, gid: str) -> int:
        """GPUs per machine of ``gid``'s price as the price table counts them (core.cost)."""
        s = self.model.scenario
        return _price_table(s.constraints).machine_gpus(lookup_gpu(gid, s.hardware.custom_gpus))

    def _candidates_from_table(self) -> None:
        ids = [self.row_ids[r] for r in range(self.table.rowCount())
               if self.table.item(r, 0).checkState() == Qt.CheckState.Checked]
        self.set_candidates(ids or None)

    def set_candidates(self, ids: list[str] | None) -> None:
        if ids is None:
            ids = list(self.row_ids)
        self.model.set("constraints.gpu_candidates", list(ids))
        self.fill_table()

    def _on_selection(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        self.use_btn.setEnabled(bool(rows))
        self.update_row_detail()

    def use_selected(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        if not rows:
            return
        gid = self.row_ids[rows[0].row()]
        self.model.set("hardware.gpu", gid)
        self.fill_table()

    def add_custom(self) -> None:
        dlg = CustomGpuDialog(self, currency=self.model.scenario.constraints.currency)
        if dlg.exec() and dlg.result_gpu:
            self.add_custom_gpu(dlg.result_gpu)

    def add_custom_gpu(self, spec: dict) -> None:
        """Add a GPU the catalog lacks: it joins the table, the candidates and (with a price) the search.

        ``spec``: name, memory_gib, bf16_tflops, fp8_tflops, mem_bw_tbs, tdp_w, link ("nvlink"/"pcie"/None),
        card_hour, architecture (optional: a generation of ``scenario.CustomGpuArchitecture``).
        """
        s = self.model.scenario
        slug = re.sub(r"[^a-z0-9]+", "-", str(spec.get("name", "")).lower()).strip("-") or "gpu"
        taken = {c.id for c in s.hardware.custom_gpus}
        gid, n = f"custom-{slug}", 2
        while gid in taken:
            gid, n = f"custom-{slug}-{n}", n + 1
        link = "nvlink" if "nv" in str(spec.get("link") or "").lower() else "pcie"
        entry = {"id": gid, "name": spec.get("name") or gid, "memory_gib": spec.get("memory_gib"),
                 "bf16_tflops": spec.get("bf16_tflops"), "fp8_tflops": spec.get("fp8_tflops"),
                 "mem_bw_tbs": spec.get("mem_bw_tbs"),
                 "tdp_w": spec.get("tdp_w"), "intra_node_link": link}
        if spec.get("architecture"):
            entry["architecture"] = spec["architecture"]
        values = {"hardware.custom_gpus": [c.model_dump() for c in s.hardware.custom_gpus] + [entry]}
        if spec.get("card_hour"):
            quotes = _quotes(s.constraints)
            quotes[gid] = {"card_hour": float(spec["card_hour"]), "currency": s.constraints.currency}
            values["constraints.prices"] = quotes
        if s.constraints.gpu_candidates is not None:
            values["constraints.gpu_candidates"] = list(s.constraints.gpu_candidates) + [gid]
        errors = self.model.set_many(values)
        if errors:
            self.table_error.setText(format_clauses(tr_msg(e) for e in errors.values()))
            self.table_error.show()
        self.fill_table()

    def reset_prices(self) -> None:
        self.model.set("constraints.prices", None)
        self.fill_table()

    # ------------------------------------------------------------------------------- owning instead of renting
    #: constraints.ownership fields in the order shown, with how each is typed (percent: stored as a fraction)
    OWNERSHIP = (("machine_price", "money"), ("depreciation_years", "num"), ("rack_per_month", "money"),
                 ("power_kw", "num"), ("tariff_per_kwh", "money"), ("pue", "num"), ("staff_per_month", "money"),
                 ("spares_per_year", "percent"), ("horizon_months", "num"), ("jobs", "int"))
    #: ownership field → the BuildInputs field whose default and source the placeholder shows
    OWNERSHIP_DEFAULT = {"machine_price": "machine_price", "depreciation_years": "depreciation_years",
                         "rack_per_month": "colocation_per_machine_month", "power_kw": "power_kw_per_machine",
                         "tariff_per_kwh": "tariff_per_kwh", "pue": "pue", "staff_per_month": "ops_staff_per_month",
                         "spares_per_year": "spare_rate_per_year"}

    def build_ownership(self) -> None:
        """The figures of building instead of renting (``constraints.ownership``): empty = the dated default
        shown in grey, with its source as the tooltip."""
        m = self.model
        self.own_box, of = self.group()
        self.own_fields: dict[str, BoundEdit] = {}
        self.own_labels: dict[str, QLabel] = {}
        pct_parse = lambda t: parse_float(t.rstrip("% ")) / 100.0  # noqa: E731
        # the field round-trips what the user typed: fields.fmt_float (6 significant digits, never scientific)
        pct_fmt = lambda v: "" if v is None else fmt_float(float(v) * 100)  # noqa: E731
        for key, kind in self.OWNERSHIP:
            path = f"constraints.ownership.{key}"
            if kind == "int":
                f = BoundEdit(m, path)
            elif kind == "percent":
                f = BoundEdit(m, path, parse=pct_parse, fmt=pct_fmt, allow_empty=True)
            else:
                f = BoundEdit(m, path, parse=parse_float, fmt=fmt_float, allow_empty=True)
            self.own_fields[key] = f
            self.own_labels[key] = self.add_field(of, f)
        self.own_note = QLabel()
        self.own_note.setWordWrap(True)
        self.own_note.setStyleSheet("color: #555;")
        of.addRow(self.own_note)

    def ownership_defaults(self):
        """The dated defaults for the bold GPU and the scenario's GPU count (core.cost.default_build_inputs,
        without the user's figures); None when the GPU is unknown."""
        from gpuplanner.core.cost import default_build_inputs

        s = self.model.scenario
        try:
            table = _price_table(s.constraints)
            return default_build_inputs(lookup_gpu(s.hardware.gpu, s.hardware.custom_gpus), s.hardware.num_gpus, table,
                                        gpus_per_node=s.hardware.gpus_per_node)
        except (PlannerError, KeyError, ValueError):
            return None

    def fill_ownership(self) -> None:
        d = self.ownership_defaults()
        cur = self.model.scenario.constraints.currency
        units = {"machine_price": self.tr("{0} per server").format(cur), "depreciation_years": self.tr("years"),
                 "rack_per_month": self.tr("{0} per server-month").format(cur), "power_kw": self.tr("kW per server"),
                 # one way of writing a unit ("CNY per server-month" beside "CNY/month" read as two kinds; ux26)
                 "tariff_per_kwh": self.tr("{0} per kWh").format(cur), "pue": "",
                 "staff_per_month": self.tr("{0} per month").format(cur),
                 "spares_per_year": self.tr("% of hardware / year"), "horizon_months": self.tr("months"),
                 "jobs": self.tr("jobs")}
        for key, f in self.own_fields.items():
            f.box.set_unit(units[key])
        align_units(f.box for f in self.own_fields.values())
        for key, f in self.own_fields.items():
            src_key = self.OWNERSHIP_DEFAULT.get(key)
            value = None if (d is None or src_key is None) else getattr(d, src_key)
            if key == "horizon_months":
                f.setPlaceholderText(self.tr("this job alone"))
            elif key == "jobs":
                f.setPlaceholderText("1")
            elif value is None:
                f.setPlaceholderText(self.tr("unknown: enter a figure"))
            elif key == "spares_per_year":
                f.setPlaceholderText(format_sig(value * 100, 3))
            else:
                f.setPlaceholderText(format_sig(value, 4) if value < 1000 else format_number(value, 0))
            src = "" if (d is None or src_key is None) else d.sources.get(src_key, "")
            f.box.set_help(self.own_help[key] + (("\n" + self.tr("Default: {0}").format(src)) if src else ""))

    # ------------------------------------------------------------------------------- texts
    def retranslate(self) -> None:
        self.heading.setText(self.tr("5 · Hardware and prices"))
        self.intro.setText(self.tr(
            "Tick the GPUs the plan search may use; the bold GPU drives the live charts. Prices are "
            "defaults with their sources — type your own quotes (per card). Unknown specs stay unknown."))
        self.table_box.setTitle(self.tr("GPU catalog"))
        cur = self.model.scenario.constraints.currency
        price = self.price_heads(cur)
        heads = [self.tr("Use"), self.tr("GPU"), self.tr("GiB"), self.tr("TFLOPS"),
                 price["card_hour"], price["card_week"], price["card_month"], self.tr("Interconnect"), self.tr("TDP W"),
                 self.tr("Price source")]
        self.table.setHorizontalHeaderLabels(heads)
        tips = [self.tr("Candidate for the plan search"), self.tr("Hover for the datasheet source"),
                self.tr("Memory per card: decides what fits"), self.tr("Dense BF16 tensor TFLOPS (no sparsity)"),
                self.tr("On-demand price per card and hour"), self.tr("Weekly rent of a whole machine, per card"),
                self.tr("Monthly rent of a whole machine, per card"),
                self.tr("Link between the GPUs of one server, bidirectional per GPU"), self.tr("Board power"),
                self.tr("Where the default price comes from")]
        for i, tip in enumerate(tips):
            self.table.horizontalHeaderItem(i).setToolTip(tip)
        self.spot.retranslate()
        self.use_btn.setText(self.tr("Use for live estimate"))
        self.use_btn.setToolTip(self.tr("Make the selected GPU the one the live charts show"))
        self.all_btn.setText(self.tr("Tick all"))
        self.all_btn.setToolTip(self.tr("Let the search consider every catalog GPU (those without a price or "
                                        "known specs are skipped)"))
        self.add_btn.setText(self.tr("Add custom GPU…"))
        self.add_btn.setToolTip(self.tr("List a GPU that is not in the catalog, with the specs you know"))
        self.reset_prices_btn.setText(self.tr("Reset prices"))
        self.reset_prices_btn.setToolTip(self.tr("Drop your quotes and use the default prices again"))
        self.table_note.setText(self.tr(
            "Grey prices are derived from another rental mode without a discount; bold prices are your quotes; "
            "— : not published for this card."))
        self.net_box.setTitle(self.tr("Servers and network"))
        self.labels["node"].setText(self.tr("GPUs per server"))
        self.node.box.set_help(self.tr("Cards in one server: the NVLink/PCIe domain; more GPUs need whole servers"))
        self.labels["inter"].setText(self.tr("Between servers"))
        self.inter.box.set_help(self.tr("Network between servers: limits data-parallel and pipeline traffic "
                                        "across nodes"))
        self.inter.set_labels({None: self.tr("default for the GPU"),
                               **{k: QCoreApplication.translate("catalog", v) for k, v in self.net_names.items()}})
        self.labels["nics"].setText(self.tr("NICs per server"))
        self.nics.box.set_help(self.tr("Network cards per server (empty: the network's default, often one per GPU)"))
        # an empty box said nothing of what it stands for, where its neighbours do ("not checked"; ux24)
        self.nics.setPlaceholderText(self.tr("the network's default"))
        self.advanced.retranslate()
        self.own_box.setTitle(self.tr("Owning instead of renting"))
        names = {"machine_price": self.tr("Purchase price"), "depreciation_years": self.tr("Depreciation"),
                 "rack_per_month": self.tr("Rack / colocation"), "power_kw": self.tr("Server power"),
                 "tariff_per_kwh": self.tr("Electricity tariff"), "pue": self.tr("PUE"),
                 "staff_per_month": self.tr("Operations staff"), "spares_per_year": self.tr("Spares"),
                 "horizon_months": self.tr("Period compared"), "jobs": self.tr("Jobs in the period")}
        for key, text in names.items():
            self.own_labels[key].setText(text)
        self.own_help = {
            "machine_price": self.tr("What one server (node) of the plan's GPUs costs to buy"),
            "depreciation_years": self.tr("Straight-line life of the hardware, no resale value"),
            "rack_per_month": self.tr("Rack space, cooling and network at a colocation site, per server and month"),
            "power_kw": self.tr("Power one server draws at full load"),
            "tariff_per_kwh": self.tr("Electricity price you pay per kWh"),
            "pue": self.tr("Data-centre power usage effectiveness: facility power ÷ IT power"),
            "staff_per_month": self.tr("Operations staff for these servers, per month"),
            "spares_per_year": self.tr("Spare parts and replaced cards, as a share of the hardware price per year"),
            "horizon_months": self.tr("How long the comparison runs; empty: this job alone"),
            "jobs": self.tr("How many jobs like this one run in that period"),
        }
        self.own_note.setText(self.tr(
            "Empty fields use the dated public figure shown in grey (hover for its source). The Plans page and the "
            "report compare renting the work with buying and running these servers, part by part, and give the "
            "utilisation at which owning breaks even."))
        self.fill_ownership()
        self.fill_table()

    def on_model_changed(self, section: str) -> None:
        if section in ("all", "plan"):  # another document or plan: the row picked for the last one means nothing
            self.table.clearSelection()
        if section in ("constraints", "hardware", "all", "plan"):
            self.fill_table()
            self.spot.refresh()
            self.fill_ownership()
            self.retranslate_headers_only()

    def retranslate_headers_only(self) -> None:
        cur = self.model.scenario.constraints.currency
        for key, text in self.price_heads(cur).items():
            self.table.horizontalHeaderItem(PRICE_COLS[key]).setText(text)

    def price_heads(self, cur: str) -> dict[str, str]:
        """The price columns' headers, short ("CNY/hr"; ux17: "CNY/month" was wider than its figures and pushed the
        catalog past its view); the header tooltips say what each price is."""
        return {"card_hour": self.tr("{0}/hr").format(cur), "card_week": self.tr("{0}/wk").format(cur),
                "card_month": self.tr("{0}/mo").format(cur)}
