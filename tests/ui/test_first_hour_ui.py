"""Issue 36 in the app at 1280×800: the Plans table's columns fit in English and Chinese (nothing cut), a manual
layout's selected plan is marked a preview, and the Training page's step line follows the adopted plan."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from gpuplanner.ui.pages.plans_page import COLUMNS

ROOT = Path(__file__).resolve().parents[2]


def _plans_page(win, qtbot):
    win.resize(1280, 800)
    win.show()
    win.go_to(5)
    page = win.page("plans")
    qtbot.waitUntil(lambda: bool(page.table_model.plans) and page.isVisible(), timeout=20000)
    qtbot.wait(50)
    return page


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_every_column_of_the_plans_table_fits_at_1280x800(win, qtbot, lang, tmp_path):
    from PySide6.QtWidgets import QApplication

    from gpuplanner.i18n import LanguageManager, ensure_cjk_font

    ensure_cjk_font()
    lm = LanguageManager(QApplication.instance())
    lm.install(lang)
    try:
        d = json.loads((ROOT / "examples" / "llama3-70b-pretrain-64xh800-tp8pp4.json").read_text(encoding="utf-8"))
        d["hardware"]["num_gpus"] = 256
        f = tmp_path / "s.json"
        f.write_text(json.dumps(d), encoding="utf-8")
        assert win.open_path(f, show_errors=False)
        qtbot.waitUntil(lambda: win.search.state == "done", timeout=30000)
        page = _plans_page(win, qtbot)
        hh = page.view.horizontalHeader()
        widths = [hh.sectionSize(i) for i in range(hh.count())]
        # the rental-mode column is shown (these plans are billed on demand, per month and with a monthly cap) and
        # the framework column hidden (one framework for every plan: plans_page.framework_column_shown): all fit
        assert not page.view.isColumnHidden(COLUMNS.index("rental_mode"))
        assert page.view.isColumnHidden(COLUMNS.index("framework"))
        shown = [w for i, w in enumerate(widths) if not page.view.isColumnHidden(i)]
        assert sum(shown) <= page.view.viewport().width(), (widths, page.view.viewport().width())
        assert not page.view.horizontalScrollBar().isVisible()
        # each column at least as wide as its widest shown cell (nothing cut)
        fm = page.view.fontMetrics()
        for c in range(page.proxy.columnCount()):
            if page.view.isColumnHidden(c):
                continue
            texts = [page.proxy.data(page.proxy.index(r, c), Qt.ItemDataRole.DisplayRole) or ""
                     for r in range(page.proxy.rowCount())]
            assert max(fm.horizontalAdvance(t) for t in texts) <= widths[c], (c, widths[c], texts[:3])
        # the capped mode in words ("month cap", was "mo cap"), its full name in the tooltip (ux10)
        col = COLUMNS.index("rental_mode")
        cells = {page.proxy.data(page.proxy.index(r, col), Qt.ItemDataRole.DisplayRole):
                 page.proxy.data(page.proxy.index(r, col), Qt.ItemDataRole.ToolTipRole)
                 for r in range(page.proxy.rowCount())}
        capped = "month cap" if lang == "en" else "月封顶"
        assert capped in cells, cells
        assert ("card-hours with a monthly cap" if lang == "en" else "封顶") in cells[capped], cells[capped]
        # the skipped GPUs' line ends in "…" when it is longer than the page, with the whole list as its tooltip
        label = page.skipped_label
        assert label.isVisible() and label.toolTip()
        assert label.text() == label.full_text() or label.text().endswith("…")
    finally:
        lm.install("en")


def test_a_manual_layout_marks_the_selected_plan_a_preview(win, qtbot):
    page = _plans_page(win, qtbot)
    win.model.set_many({"parallel.auto": False})
    qtbot.waitUntil(lambda: win.search.state == "done" and bool(page.table_model.plans), timeout=20000)
    page.select_rank(3)
    qtbot.wait(50)
    html = page.details.toPlainText()
    assert "Preview: the summary and the live charts show your own layout" in html


def test_the_training_page_states_the_adopted_plans_step(win, qtbot):
    page = _plans_page(win, qtbot)
    page.select_rank(3)
    qtbot.waitUntil(lambda: win.model.ui.get("selected_plan") == 3, timeout=5000)
    plan = page.current_plan()
    train = win.page("training")
    train.on_model_changed("plan")
    L = plan.layout
    text = train.batch_info.text()
    assert f"data-parallel {L.dp} × accumulation {L.grad_accum}" in text, (text, L)


def test_the_starting_documents_plans_table_fits_with_framework_and_rental(win, qtbot):
    """The document a new user starts with: its plans differ in framework (the search chooses it) and some are
    billed per month, so both the framework and the rental columns are shown; all ten fit 1280×800 without a
    horizontal scroll bar (the rental column's labels are a word or two: plans_page.MODE_SHORT)."""
    page = _plans_page(win, qtbot)
    hidden = [c for c in ("framework", "rental_mode") if page.view.isColumnHidden(COLUMNS.index(c))]
    hh = page.view.horizontalHeader()
    shown = [hh.sectionSize(i) for i in range(hh.count()) if not page.view.isColumnHidden(i)]
    assert sum(shown) <= page.view.viewport().width(), (shown, page.view.viewport().width(), hidden)
    assert not page.view.horizontalScrollBar().isVisible()
    from gpuplanner.ui.pages.plans_page import layout_text  # noqa: PLC0415
    assert all(not layout_text(p).endswith("Z0") for p in page.table_model.plans)  # no ZeRO is no mark
