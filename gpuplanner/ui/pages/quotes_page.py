"""Step 9: vendor quotes — a table editor for each vendor's quote sheet (terms, offers, answers to the hard
questions), import/export as CSV or XLSX, and the comparison for the current plan.

The quotes live in the model's UI state (``ui["quotes"]``: the plan file's ``quotes`` once saved, see
``ui/document.py``). The comparison is :func:`gpuplanner.app.answer.compare_quotes` of the live estimate's Evaluation,
shown as the report prints it (:func:`gpuplanner.report.quotes_section.html_section`); nothing is computed here.
"""

from __future__ import annotations

import copy
import html
from typing import Any

from PySide6.QtWidgets import (
    QComboBox, QFileDialog, QHBoxLayout, QHeaderView, QLabel, QPushButton, QTabWidget, QTableWidget, QTableWidgetItem,
    QTextBrowser, QVBoxLayout, QWidget,
)
from PySide6.QtCore import Qt

from gpuplanner.core.errors import PlannerError
from gpuplanner.core.messages import error_text
from gpuplanner.core.messages import validation_reason
from gpuplanner.core.quotes import (
    ANSWER_LABELS, FIELD_LABELS, NETWORK_LABELS, QUESTIONS, STORAGE_BILLING_LABELS, UNIT_LABELS, UNITS, VendorQuote,
    field_message,
)

from .base import BasePage
from ..text import plain, tr_msg

_VENDOR_FIELDS = ("provider", "date", "region", "contact", "currency", "exchange_rate", "exchange_rate_date",
                  "storage_per_tb_month", "storage_billing", "egress_per_tb", "setup_hours", "setup_billed", "migration_hours", "network",
                  "network_gbps", "nics_per_node", "preinstalled", "source")
_OFFER_COLS = ("gpu", "unit", "price", "gpus_per_server", "min_term_days", "cap_at_month", "note")
_ANSWERS = ("unknown", "yes", "no")
#: vendor fields chosen from a list: the values (ids, as the sheet stores them) and their labels
_CHOICES = {"setup_billed": ANSWER_LABELS, "network": NETWORK_LABELS, "storage_billing": STORAGE_BILLING_LABELS}
_YES_NO = {"no": "no", "yes": "yes"}


class QuotesPage(BasePage):
    SCROLL = False

    def title(self) -> str:
        return self.tr("Vendor quotes")

    def build(self) -> None:
        self._loading = False
        self.quotes: list[dict] = copy.deepcopy(self.model.ui.get("quotes") or [])
        bar = QHBoxLayout()
        self.vendor = QComboBox()
        self.vendor.setMinimumWidth(160)
        self.vendor.currentIndexChanged.connect(self._show_vendor)
        self.add_btn, self.remove_btn = QPushButton(), QPushButton()
        self.import_btn, self.export_btn, self.template_btn = QPushButton(), QPushButton(), QPushButton()
        self.add_btn.clicked.connect(self._add_vendor)
        self.remove_btn.clicked.connect(self._remove_vendor)
        self.import_btn.clicked.connect(self._import)
        self.export_btn.clicked.connect(self._export)
        self.template_btn.clicked.connect(self._template)
        self.vendor_label = QLabel()
        bar.addWidget(self.vendor_label)
        for w in (self.vendor, self.add_btn, self.remove_btn):
            bar.addWidget(w)
        bar.addStretch(1)
        files = QHBoxLayout()
        for w in (self.import_btn, self.export_btn, self.template_btn):
            files.addWidget(w)
        files.addStretch(1)
        self.body.addLayout(bar)
        self.body.addLayout(files)
        # no vendor yet: say what to do (the sheet's cells would take typing that goes nowhere, so they are
        # disabled until a vendor exists)
        self.empty_hint = QLabel()
        self.empty_hint.setObjectName("quotes_empty_hint")
        self.empty_hint.setWordWrap(True)
        self.empty_hint.setStyleSheet("color: #555;")
        self.body.addWidget(self.empty_hint)
        self.tabs = QTabWidget()
        sheet = QWidget()
        lv = QVBoxLayout(sheet)
        self.terms = self._table(2)
        self.offers = self._table(len(_OFFER_COLS))
        # the note wraps onto more lines as its column narrows or widens (ux25: one line of 49 px read "A80… list…")
        self.offers.setWordWrap(True)
        self.offers.horizontalHeader().sectionResized.connect(
            lambda col, _old, _new: col == self.offers.columnCount() - 1 and self.offers.resizeRowsToContents())
        self.answers = self._table(4)
        # each row as tall as its question wrapped in the (stretched) column, whatever its width (ux26)
        self.answers.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.terms_label, self.offers_label = QLabel(), QLabel()
        self.add_offer_btn = QPushButton()
        self.add_offer_btn.clicked.connect(self._add_offer)
        offer_bar = QHBoxLayout()
        offer_bar.addWidget(self.offers_label, 1)
        offer_bar.addWidget(self.add_offer_btn)
        lv.addWidget(self.terms_label)
        lv.addWidget(self.terms, 3)
        lv.addLayout(offer_bar)
        lv.addWidget(self.offers, 2)
        self.compare_view = QTextBrowser()
        self.tabs.addTab(sheet, "")
        self.tabs.addTab(self.answers, "")
        self.tabs.addTab(self.compare_view, "")
        self.body.addWidget(self.tabs, 1)
        self.error = plain(QLabel())  # vendor names and cells of a stranger's sheet: shown as typed
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #b00020;")
        self.body.addWidget(self.error)
        self.ctx.estimator.updated.connect(lambda _r: self.refresh_comparison())
        for t in (self.terms, self.offers, self.answers):
            t.itemChanged.connect(self._edited)
        self._fill_vendors()

    @staticmethod
    def _table(cols: int) -> QTableWidget:
        t = QTableWidget(0, cols)
        t.setMinimumWidth(200)
        t.verticalHeader().setVisible(False)
        t.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        t.horizontalHeader().setStretchLastSection(True)
        return t

    # ------------------------------------------------------------------------------------------ texts
    def retranslate(self) -> None:
        self.heading.setText(self.tr("9 · Vendor quotes"))
        self.intro.setText(self.tr(
            "Enter each vendor's quote (or import their sheet), answer the hard questions as they reply, and "
            "compare the totals for this plan with the costs quotes leave out: storage, egress, setup and migration."))
        self.vendor_label.setText(self.tr("Vendor:"))
        self.empty_hint.setText(self.tr(
            "No vendor yet. Click “Add vendor” to type a vendor's quote, or “Import sheet…” to read a quote "
            "sheet; “Blank template…” writes one to send to the vendors."))
        self.add_btn.setText(self.tr("Add vendor"))
        self.remove_btn.setText(self.tr("Remove"))
        self.import_btn.setText(self.tr("Import sheet…"))
        self.export_btn.setText(self.tr("Export sheet…"))
        self.template_btn.setText(self.tr("Blank template…"))
        self.add_offer_btn.setText(self.tr("Add offer"))
        self.terms_label.setText(self.tr("Terms"))
        self.offers_label.setText(self.tr("Offers (one line per price)"))
        for i, text in enumerate((self.tr("Quote sheet"), self.tr("Hard questions"), self.tr("Comparison"))):
            self.tabs.setTabText(i, text)
        self.terms.setHorizontalHeaderLabels([self.tr("Field"), self.tr("Value")])
        self.offers.setHorizontalHeaderLabels([self.tr("GPU"), self.tr("Unit"), self.tr("Price"), self.tr("Cards/server"),
                                               self.tr("Min. term (days)"), self.tr("Cap at month"), self.tr("Note")])
        self.answers.setHorizontalHeaderLabels([self.tr("Question"), self.tr("Answer"), self.tr("Note"), self.tr("Date")])
        self._show_vendor()

    # ------------------------------------------------------------------------------------------ vendors
    def _fill_vendors(self) -> None:
        self._loading = True
        i = max(0, self.vendor.currentIndex())
        self.vendor.clear()
        for q in self.quotes:
            self.vendor.addItem(str(q.get("provider") or "?"))
        self.vendor.setCurrentIndex(min(i, len(self.quotes) - 1))
        self._loading = False
        self._show_empty_state()
        self._show_vendor()

    def _show_empty_state(self) -> None:
        has = bool(self.quotes)
        self.empty_hint.setVisible(not has)
        for w in (self.vendor, self.remove_btn, self.export_btn, self.tabs.widget(0), self.answers):
            w.setEnabled(has)

    def _current(self) -> dict | None:
        i = self.vendor.currentIndex()
        return self.quotes[i] if 0 <= i < len(self.quotes) else None

    def _show_vendor(self, *_a) -> None:
        if getattr(self, "_loading", True):
            return
        q = self._current() or {}
        self._loading = True
        self.terms.setRowCount(len(_VENDOR_FIELDS))
        for r, f in enumerate(_VENDOR_FIELDS):
            key = QTableWidgetItem(self._field_names().get(f, f))
            key.setToolTip(f)
            key.setFlags(key.flags() & ~Qt.ItemFlag.ItemIsEditable)
            self.terms.setItem(r, 0, key)
            v = q.get(f)
            if f in _CHOICES:
                ids = tuple(_CHOICES[f])
                self.terms.setItem(r, 1, QTableWidgetItem(""))
                # a term the quote does not state shows the schema's default (setup_billed: "still to ask", not
                # the list's first item "yes"), so editing another field does not write an answer nobody gave
                self._combo(self.terms, r, 1, ids, str(v if v is not None else VendorQuote.model_fields[f].default),
                            [self._tr_q(_CHOICES[f][i]) for i in ids])
                continue
            if self.terms.cellWidget(r, 1) is not None:
                self.terms.cellWidget(r, 1).hide()
                self.terms.removeCellWidget(r, 1)
            self.terms.setItem(r, 1, self._region_item(v) if f == "region" else
                               QTableWidgetItem("" if v is None else str(v)))
        offers = q.get("offers") or []
        self.offers.setRowCount(len(offers))
        for r, o in enumerate(offers):
            for c, col in enumerate(_OFFER_COLS):
                if col == "unit":
                    self._combo(self.offers, r, c, UNITS, o.get("unit", "card_hour"),
                                [self._tr_q(UNIT_LABELS[u]) for u in UNITS])
                    continue
                if col == "cap_at_month":
                    v = o.get(col)
                    on = v is True or str(v).lower() in ("yes", "true", "1", "是")
                    self._combo(self.offers, r, c, tuple(_YES_NO), "yes" if on else "no",
                                [self._tr_q(ANSWER_LABELS[k]) for k in _YES_NO])
                    continue
                v = o.get(col)
                if col == "gpu":
                    self.offers.setItem(r, c, self._gpu_item(str(v or "")))
                    continue
                item = QTableWidgetItem("" if v is None else ("yes" if v is True else "no" if v is False else str(v)))
                item.setToolTip(item.text())  # the note column takes what is left: its whole text on hover
                self.offers.setItem(r, c, item)
        self.answers.setRowCount(len(QUESTIONS))
        answers = q.get("answers") or {}
        for r, (qid, text) in enumerate(QUESTIONS.items()):
            item = QTableWidgetItem(self._tr_q(text))
            item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
            item.setToolTip(qid)
            self.answers.setItem(r, 0, item)
            a = answers.get(qid) or {}
            self._combo(self.answers, r, 1, _ANSWERS, a.get("answer", "unknown"), self._answer_names())
            self.answers.setItem(r, 2, QTableWidgetItem(str(a.get("note") or "")))
            self.answers.setItem(r, 3, QTableWidgetItem(str(a.get("date") or "")))
        for t in (self.terms, self.offers, self.answers):
            t.resizeColumnToContents(0)
        self._fit_answers()
        self._fit_offers()
        self._loading = False
        self.refresh_comparison()

    def _fit_answers(self) -> None:
        """The hard questions' table within its tab: the question column takes what the answer box, a note and a
        date (its own width) leave, its text wrapped; at 1280×800 the Date column was behind a horizontal scroll
        bar, out of sight (issue 35 r17, ux26)."""
        t = self.answers
        h = t.horizontalHeader()
        h.setStretchLastSection(False)
        h.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        fm = t.fontMetrics()
        t.setColumnWidth(1, 110)
        t.setColumnWidth(2, 160)
        t.setColumnWidth(3, max(fm.horizontalAdvance("2026-12-07"), fm.horizontalAdvance(self.tr("Date"))) + 24)
        t.setWordWrap(True)

    def _fit_offers(self) -> None:
        """The offers table's columns as wide as their contents (text, unit box), a header wider than its column
        on two lines (broken at a space or after a slash), the note column taking the rest: at 1280×800 the table
        fits without a horizontal scroll bar in either language."""
        t = self.offers
        fm = t.horizontalHeader().fontMetrics()
        last = t.columnCount() - 1
        for c in range(last):
            head = t.horizontalHeaderItem(c)
            title = head.text().replace("\n", " ") if head is not None else ""
            cells = [t.cellWidget(r, c).sizeHint().width() if t.cellWidget(r, c) is not None else
                     fm.horizontalAdvance(t.item(r, c).text() if t.item(r, c) is not None else "") + 12
                     for r in range(t.rowCount())]
            if head is not None:
                head.setText(_two_lines(title) if fm.horizontalAdvance(title) + 16 > max(cells, default=0) else title)
            t.resizeColumnToContents(c)
            boxes = [t.cellWidget(r, c).sizeHint().width() for r in range(t.rowCount()) if t.cellWidget(r, c)]
            t.setColumnWidth(c, max([t.columnWidth(c), *boxes]))
            if _OFFER_COLS[c] == "gpu":  # a GPU's name on two lines ("A800 SXM4 / 80GB (China)"): the note's room
                t.setColumnWidth(c, max([fm.horizontalAdvance(title) + 16, *(
                    _two_line_width(fm, t.item(r, c).text()) + 12 for r in range(t.rowCount()) if t.item(r, c))]))
        t.horizontalHeader().setStretchLastSection(False)  # the note column stretched again over what is left
        t.setColumnWidth(last, t.horizontalHeader().minimumSectionSize())
        t.horizontalHeader().setStretchLastSection(True)
        t.resizeRowsToContents()

    @staticmethod
    def _gpu_names(short: bool = True) -> dict[str, str]:
        """Catalog GPU id -> its name as people read it (the offers table shows names without the vendor prefix,
        ``A800 SXM4 80GB (China)``, so the table fits at 1280×800; the sheet keeps ids)."""
        from gpuplanner.core.catalog_hw import load_gpus
        from gpuplanner.formatting import gpu_display_name

        return {gid: gpu_display_name(g.name, short=short) for gid, g in load_gpus().items()}

    def _gpu_item(self, gid: str) -> QTableWidgetItem:
        name = self._gpu_names().get(gid.lower())
        item = QTableWidgetItem(name or gid)
        item.setData(Qt.ItemDataRole.UserRole, gid)
        full = self._gpu_names(short=False).get(gid.lower())
        item.setToolTip(f"{full} ({gid})" if full else gid)
        return item

    def _gpu_id(self, item: QTableWidgetItem | None) -> str:
        """The GPU id of an offers-table cell: the id behind the name shown, or what was typed (a catalog name is
        taken back to its id; anything else is kept as typed, the comparison says when it offers no plan GPU)."""
        if item is None:
            return ""
        text, gid = item.text().strip(), item.data(Qt.ItemDataRole.UserRole)
        names = self._gpu_names()
        if gid and names.get(str(gid).lower(), gid) == text:
            return str(gid)
        by_name = {n.lower(): k for k, n in (*self._gpu_names(short=False).items(), *names.items())}
        return by_name.get(text.lower(), text)

    def _region_names(self) -> dict[str, str]:
        """The price regions the catalogue knows (core.catalog_hw.PRICE_REGIONS) by the words the Budget page's
        region list uses: the example sheets store the id, and the terms table read "mainland_china" (ux20)."""
        return {"mainland_china": self.tr("mainland China"), "worldwide": self.tr("worldwide")}

    def _region_item(self, value) -> QTableWidgetItem:
        """A quote's region as people read it; the id it stands for kept with it (a region typed freely, e.g. a city,
        shows as typed)."""
        rid = "" if value is None else str(value)
        item = QTableWidgetItem(self._region_names().get(rid, rid))
        item.setData(Qt.ItemDataRole.UserRole, rid)
        item.setToolTip(rid)
        return item

    def _region_id(self, item: QTableWidgetItem | None) -> str:
        """The region a terms-table cell stands for: the id behind a known region's words, else the text typed."""
        if item is None:
            return ""
        text = item.text().strip()
        by_name = {n.lower(): k for k, n in self._region_names().items()}
        return by_name.get(text.lower(), text)

    def _field_names(self) -> dict[str, str]:
        """The vendor fields as labels (the sheet's column ``item`` keeps the ids, shown as tooltips)."""
        return {f: self._tr_q(FIELD_LABELS[f]) for f in _VENDOR_FIELDS}

    def _tr_q(self, text: str) -> str:
        from PySide6.QtCore import QCoreApplication

        return QCoreApplication.translate("Quotes", text)

    def _answer_names(self) -> list[str]:
        from PySide6.QtCore import QCoreApplication

        return [QCoreApplication.translate("Quotes", ANSWER_LABELS[a]) for a in _ANSWERS]

    def _combo(self, table: QTableWidget, r: int, c: int, values, current: str, labels=None) -> None:
        box = QComboBox()
        for v, label in zip(values, labels or values):
            box.addItem(label, v)
        box.setCurrentIndex(max(0, list(values).index(current) if current in values else 0))
        box.currentIndexChanged.connect(lambda _i: self._edited())
        old = table.cellWidget(r, c)
        if old is not None:
            old.hide()  # Qt deletes the replaced widget later (deleteLater); until then it must not be drawn
        table.setCellWidget(r, c, box)

    # ------------------------------------------------------------------------------------------ editing
    def _edited(self, *_a) -> None:
        if self._loading or self._current() is None:
            return
        i = self.vendor.currentIndex()
        q: dict[str, Any] = {}
        for r, f in enumerate(_VENDOR_FIELDS):
            w = self.terms.cellWidget(r, 1)
            if w is not None:
                text = str(w.currentData() or "")
            elif f == "region":
                text = self._region_id(self.terms.item(r, 1))
            else:
                text = (self.terms.item(r, 1).text() if self.terms.item(r, 1) else "").strip()
            if text or f == "provider":
                q[f] = text
        offers = []
        # the offers' own word on networked servers (core/quotes.Offer.multi_node, from the sheet's optional column)
        # is not a column of this table (it must fit at 1280 px): kept row by row, shown in the comparison's
        # network check, never dropped by an edit
        before = (self.quotes[i].get("offers") or []) if 0 <= i < len(self.quotes) else []
        for r in range(self.offers.rowCount()):
            o: dict[str, Any] = {}
            if r < len(before) and before[r].get("multi_node") is not None:
                o["multi_node"] = before[r]["multi_node"]
            for c, col in enumerate(_OFFER_COLS):
                w = self.offers.cellWidget(r, c)
                if col == "gpu":
                    text = self._gpu_id(self.offers.item(r, c))
                else:
                    text = w.currentData() if w is not None else (self.offers.item(r, c).text().strip()
                                                                   if self.offers.item(r, c) else "")
                if text != "":
                    o[col] = (text == "yes") if col == "cap_at_month" else text
            offers.append(o)
        answers = {}
        for r, qid in enumerate(QUESTIONS):
            a: dict[str, Any] = {"answer": self.answers.cellWidget(r, 1).currentData(),
                                 "note": self.answers.item(r, 2).text() if self.answers.item(r, 2) else ""}
            date = self.answers.item(r, 3).text().strip() if self.answers.item(r, 3) else ""
            if date:
                a["date"] = date
            answers[qid] = a
        q["offers"], q["answers"] = offers, answers
        self.quotes[i] = q
        if self.vendor.itemText(i) != q.get("provider"):
            self.vendor.setItemText(i, str(q.get("provider") or "?"))
        self._store()

    def _store(self) -> None:
        """Keep the quotes in the model when every vendor is valid; otherwise say which field is wrong."""
        for q in self.quotes:
            try:
                VendorQuote.model_validate(q)
            except ValueError as err:
                first = err.errors()[0] if hasattr(err, "errors") else {}
                why = field_message(tuple(first.get("loc", ())), validation_reason(first)) if first else error_text(err)
                self.error.setText(self.tr("{name}: {why}").format(name=q.get("provider") or "?", why=tr_msg(why)))
                return
        self.error.setText("")
        self.model.set_ui("quotes", copy.deepcopy(self.quotes))
        self.refresh_comparison()

    def _add_vendor(self) -> None:
        self.quotes.append({"provider": self.tr("New vendor"), "offers": [], "answers": {}})
        self._fill_vendors()
        self.vendor.setCurrentIndex(len(self.quotes) - 1)
        self._store()

    def _remove_vendor(self) -> None:
        i = self.vendor.currentIndex()
        if 0 <= i < len(self.quotes):
            del self.quotes[i]
            self._fill_vendors()
            self._store()

    def _add_offer(self) -> None:
        q = self._current()
        if q is None:
            return
        gpu = self.model.scenario.hardware.gpu or ""
        q.setdefault("offers", []).append({"gpu": gpu, "unit": "card_hour", "price": "0"})
        self._show_vendor()
        self._store()

    def set_quotes(self, quotes: list[VendorQuote]) -> None:
        """Replace the vendors (an imported sheet, or tests)."""
        self.quotes = [q.model_dump(mode="json") for q in quotes]
        self._fill_vendors()
        self._store()

    # ------------------------------------------------------------------------------------------ files
    def _import(self) -> None:
        from gpuplanner.io.quote_sheets import read_quotes

        path, _ = QFileDialog.getOpenFileName(self, self.tr("Import quote sheet"), "",
                                              self.tr("Quote sheets (*.xlsx *.csv)"))
        if not path:
            return
        try:
            new = read_quotes(path)
        except PlannerError as err:
            self.error.setText(tr_msg(err.args[0]) if err.args else str(err))
            return
        self.quotes += [q.model_dump(mode="json") for q in new]
        self._fill_vendors()
        self.vendor.setCurrentIndex(len(self.quotes) - 1)
        self._store()

    def _export(self) -> None:
        self._write(self.tr("Export quote sheet"), [VendorQuote.model_validate(q) for q in self.quotes] or None)

    def _template(self) -> None:
        self._write(self.tr("Blank quote sheet"), None)

    def _write(self, caption: str, quotes) -> None:
        from gpuplanner.io.quote_sheets import write_sheet

        path, _ = QFileDialog.getSaveFileName(self, caption, "quotes.xlsx", self.tr("Quote sheets (*.xlsx *.csv)"))
        if not path:
            return
        from gpuplanner.formatting import current_language

        try:
            write_sheet(path, quotes, lang=current_language())
        except PlannerError as err:
            self.error.setText(tr_msg(err.args[0]) if err.args else str(err))

    # ------------------------------------------------------------------------------------------ comparison
    def refresh_comparison(self) -> None:
        res = getattr(self.ctx.estimator, "result", None)
        ev = getattr(res, "evaluation", None)
        valid = []
        for q in self.quotes:
            try:
                valid.append(VendorQuote.model_validate(q))
            except ValueError:
                continue
        if ev is None or not valid:
            self.compare_view.setHtml("<p>" + self.tr("Add a vendor's quote to compare it with this plan.") + "</p>")
            return
        from gpuplanner.app.answer import compare_quotes  # the comparison `quotes` and the PDF show (parity16)

        try:
            c = compare_quotes(valid, ev)
        except PlannerError as err:
            self.compare_view.setHtml(f"<p>{html.escape(error_text(err))}</p>")  # names a vendor: as typed
            return
        self._comparison = c
        self._show_comparison(valid)
        self._ask_project(valid)

    def _show_comparison(self, quotes: list, project=None) -> None:
        from gpuplanner.report.quotes_section import html_section

        self.compare_view.setHtml(html_section(self._comparison, number="", msg=tr_msg, project=project).replace(
            "page-break-before: always", ""))

    def _ask_project(self, quotes: list) -> None:
        """The plan file's project of several GPU phases: its result from the app layer (as the Project page asks
        for it, off the GUI thread), then the quotes compared per phase (app.answer.compare_project_quotes)."""
        data = self.model.ui.get("project")
        if not data or len(data.get("phases") or []) < 2:
            return
        from gpuplanner.core.project import Project

        try:
            project = Project.model_validate(data)
        except ValueError:
            return
        self._project_gen = gen = getattr(self, "_project_gen", 0) + 1
        checklist = {k: bool(v.get("checked")) for k, v in (self.model.ui.get("checklist") or {}).items()
                     if isinstance(v, dict)}
        scenario, base_dir, main = self.model.scenario, self.model.base_dir, self._comparison.plan

        def then(res, err) -> None:
            if gen != self._project_gen or err is not None or res is None:
                return
            from gpuplanner.app.answer import compare_project_quotes

            self._show_comparison(quotes, compare_project_quotes(quotes, res, main))

        from gpuplanner.app.engine import project_result

        from ..offthread import run_off_gui

        run_off_gui(lambda: project_result(project, scenario, base_dir, checklist), then)


def _two_line_width(fm, text: str) -> int:
    """The width ``text`` needs on two lines broken as :func:`_two_lines` breaks a title (its wider line)."""
    return max(fm.horizontalAdvance(line) for line in _two_lines(text).split("\n"))


def _two_lines(title: str) -> str:
    """A column title on two lines, broken at the space (or after the slash) nearest its middle, or before a
    full-width bracket ("最短租期\n（天）": on one line it left the note column 30 px, "A… lis…"; ux20); a title
    with none of these as it is."""
    cuts = ([i for i, ch in enumerate(title) if ch == " "] + [i + 1 for i, ch in enumerate(title[:-1]) if ch == "/"]
            + [i for i, ch in enumerate(title) if ch == "（" and i > 0])
    if not cuts:
        return title
    i = min(cuts, key=lambda k: abs(k - len(title) / 2))
    return title[:i].rstrip() + "\n" + title[i:].lstrip()
