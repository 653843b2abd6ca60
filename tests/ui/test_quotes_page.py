"""Step 9, the Quotes page: vendors edited in tables, stored in the plan file, and the comparison for the plan
the window shows (core.quotes.compare of the live Evaluation: the same totals as ``gpuplanner quotes``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from gpuplanner.core.quotes import compare, plan_figures
from gpuplanner.io.quote_sheets import read_quotes

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "shenzhen-7b-domain-project.gpuplan"
SHEETS = sorted((ROOT / "examples" / "quotes").glob("*.csv"))


def _open(make_window, tmp_path, qtbot):
    path = tmp_path / "p.gpuplan"
    shutil.copy(EXAMPLE, path)
    w = make_window(search_enabled=False)
    assert w.open_path(path, show_errors=False)
    w.go_to(8)
    page = w.pages[8]
    page.set_quotes([q for s in SHEETS for q in read_quotes(s)])
    qtbot.waitUntil(lambda: w.estimator.result is not None, timeout=10000)
    page.refresh_comparison()
    return w, page, path


def test_quotes_page_edits_compares_and_saves(make_window, tmp_path, qtbot):
    w, page, path = _open(make_window, tmp_path, qtbot)
    # the first vendor (AutoDL) offers A800 and H800 card-hours: one row per offer
    assert page.vendor.count() == 3 and page.offers.rowCount() == 2
    html = page.compare_view.toPlainText()
    # the totals are the core's for the window's Evaluation (the CLI's figures for the same plan)
    c = compare([q for s in SHEETS for q in read_quotes(s)], plan_figures(w.estimator.result.evaluation))
    # tests/test_quotes.py by hand: 2,160.8819 card-h x 5.88 + 16.53 setup = 12,722.52 (advice19's capped phase; 10,716.87
    # before), shown whole (ux27): ¥12,723 (mend17a)
    assert "¥12,723" in html and c.vendors[0].total is not None and str(c.vendors[0].total) == "12722.52"
    # edit the first vendor's price: 5.88 -> 6.00; the comparison follows
    price = page.offers.item(0, 2)
    price.setText("6.00")
    assert page.quotes[0]["offers"][0]["price"] == "6.00"
    assert "¥12,723" not in page.compare_view.toPlainText()  # 2,160.8819 x 6.00 + 0.702736 x 4 x 6.00 = 12,982.16
    # a bad value is refused with the field named, and the model keeps the last valid quotes
    price.setText("-1")
    assert "Offer 1 Price: a price cannot be below zero (-1)" in page.error.text()
    price.setText("6.00")
    assert page.error.text() == ""
    assert w.save_to(path) if hasattr(w, "save_to") else w.doc.save_to(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert [q["provider"] for q in data["quotes"]][:1] == ["AutoDL (example)"]
    assert data["quotes"][0]["offers"][0]["price"] == "6.00"


def test_editor_shows_labels_not_ids_and_the_project_phases(make_window, tmp_path, qtbot):
    w, page, _ = _open(make_window, tmp_path, qtbot)
    unit = page.offers.cellWidget(0, 1)
    assert unit.currentText() == "per card-hour" and unit.currentData() == "card_hour"
    assert "card_hour" not in [unit.itemText(i) for i in range(unit.count())]
    rows = {page.terms.item(r, 0).text(): r for r in range(page.terms.rowCount())}
    billed = page.terms.cellWidget(rows["Setup hours billed"], 1)
    assert billed.currentData() == "yes" and billed.currentText() == "yes"
    net = page.terms.cellWidget(rows["Network between nodes"], 1)
    assert net.currentText() == "not stated"
    # choosing a label stores the id
    net.setCurrentIndex(net.findData("roce"))
    assert page.quotes[0]["network"] == "roce"
    # the GPU shown by name, stored by id; a typed catalog name is taken back to its id
    gpu = page.offers.item(0, 0)
    assert gpu.text() == "A800 SXM4 80GB (China)" and gpu.toolTip() == "NVIDIA A800 SXM4 80GB (China) (a800-sxm-80gb)"
    assert page.quotes[0]["offers"][0]["gpu"] == "a800-sxm-80gb"
    # the project's GPU phases (LoRA experiments, full fine-tuning, serving) compared in the tab, off the GUI thread
    qtbot.waitUntil(lambda: "cheapest vendor per phase" in page.compare_view.toPlainText(), timeout=60000)
    text = page.compare_view.toPlainText()
    # tests/test_quotes.py by hand (quotes16: training phases quoted for their work): 318.09 + 12,722.52 + 3,955.49 =
    # 16,996.10, shown whole (ux27); 14,990.45 before advice19 (mend17a)
    assert "all phases at AutoDL (example)" in text and "¥16,996" in text
    # a catalog name typed (any case) is stored as its id
    page.offers.item(1, 0).setText("nvidia a800 sxm4 80gb (china)")
    assert page.quotes[0]["offers"][1]["gpu"] == "a800-sxm-80gb"


def test_validation_message_in_chinese(make_window, tmp_path, qtbot):
    from gpuplanner.core.messages import validation_reason
    from gpuplanner.core.quotes import VendorQuote, field_message
    from gpuplanner.i18n import translate_message
    from gpuplanner.report import render

    try:
        VendorQuote.model_validate({"provider": "V", "offers": [{"gpu": "x", "unit": "card_hour", "price": "-1"}]})
    except ValueError as err:
        first = err.errors()[0]
    m = field_message(tuple(first["loc"]), validation_reason(first))
    assert m == "Offer 1 Price: a price cannot be below zero (-1)"
    render.install_language("zh_CN")
    try:
        zh = translate_message(m.context, m.text, m.params)
    finally:
        render.install_language("en")
    assert "报价 1" in zh and "单价" in zh and "价格不能小于零（-1）" in zh and "price" not in zh, zh


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_offers_table_fits_at_1280x800_without_a_horizontal_scroll(make_window, tmp_path, qtbot, lang):
    """Issue 36's review: the offers table's columns were fixed widths (the GPU name and the unit box took the room,
    the price, cards and term columns needed a horizontal scroll at 1280×800); now each column is as wide as its
    contents and the whole table fits in both languages."""
    from PySide6.QtWidgets import QApplication

    from gpuplanner.i18n import LanguageManager, ensure_cjk_font

    ensure_cjk_font()
    lm = LanguageManager(QApplication.instance())
    lm.install(lang)
    try:
        w, page, _ = _open(make_window, tmp_path, qtbot)
        w.resize(1280, 800)
        qtbot.wait(100)
        page._show_vendor()
        qtbot.wait(50)
        t = page.offers
        hh = t.horizontalHeader()
        widths = [hh.sectionSize(c) for c in range(hh.count())]
        assert sum(widths[:-1]) < t.viewport().width(), (widths, t.viewport().width())
        assert t.horizontalScrollBar().maximum() == 0, (widths, t.viewport().width(), hh.length())
        fm = t.fontMetrics()
        from gpuplanner.ui.pages.quotes_page import _two_line_width

        for c in range(hh.count() - 1):  # nothing cut: each column at least as wide as its text and its box
            for r in range(t.rowCount()):
                cell = t.cellWidget(r, c)
                # (ux25: the GPU's name on two lines, its wider line, so the note has room to be read)
                need = cell.sizeHint().width() if cell is not None else (
                    _two_line_width(fm, t.item(r, c).text()) if c == 0 else fm.horizontalAdvance(t.item(r, c).text()))
                assert need <= widths[c], (lang, c, need, widths[c])
        note = t.item(0, t.columnCount() - 1)
        assert note.text() and note.toolTip() == note.text()  # the note, elided in its column, whole on hover
    finally:
        lm.install("en")


def test_a_term_the_quote_does_not_state_is_not_written_by_another_edit(make_window, tmp_path, qtbot):
    """A quote without setup_billed (a plan file's quotes keep what the user gave) means "still to ask", the
    schema's default. The list's first item is "yes": showing that and writing it back when the user edits a price
    would say setup is billed, which nobody said."""
    from gpuplanner.core.quotes import VendorQuote
    from gpuplanner.ui.pages.quotes_page import _VENDOR_FIELDS

    w, page, _ = _open(make_window, tmp_path, qtbot)
    page.quotes[0].pop("setup_billed")
    page._fill_vendors()
    assert page.terms.cellWidget(_VENDOR_FIELDS.index("setup_billed"), 1).currentData() == "unknown"
    page.offers.item(0, 2).setText("6.00")
    assert page.quotes[0]["offers"][0]["price"] == "6.00"
    assert VendorQuote.model_validate(page.quotes[0]).setup_billed == "unknown"
