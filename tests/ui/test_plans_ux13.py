"""ux13, the Plans page as a user sees it after round 9's merges:

- the starting document's table fits 1280×800 in Chinese too (the zh "Rental" header, 租用方式, was four
  characters over two-character cells 按需/按周/按月, and the table was 1 px wider than the viewport; now 计费);
- the "Stack" column's header has a tooltip saying what it is, in both languages;
- a saving under 1% does not read "0% cheaper" ("便宜 ¥218（省 0%）" on the 70B pre-training example)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from gpuplanner.ui.pages.plans_page import COLUMNS, share_percent_number


def _plans_page(win, qtbot):
    win.resize(1280, 800)
    win.show()
    win.go_to(5)
    page = win.page("plans")
    qtbot.waitUntil(lambda: bool(page.table_model.plans) and page.isVisible(), timeout=30000)
    qtbot.wait(50)
    return page


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_starting_table_fits_and_the_stack_header_says_what_it_is(win, qtbot, lang):
    from PySide6.QtWidgets import QApplication

    from gpuplanner.i18n import LanguageManager, ensure_cjk_font

    ensure_cjk_font()
    lm = LanguageManager(QApplication.instance())
    lm.install(lang)
    try:
        page = _plans_page(win, qtbot)
        qtbot.waitUntil(lambda: win.search.state == "done", timeout=30000)
        qtbot.wait(50)
        hh = page.view.horizontalHeader()
        shown = [hh.sectionSize(i) for i in range(hh.count()) if not page.view.isColumnHidden(i)]
        assert sum(shown) <= page.view.viewport().width(), (lang, shown, page.view.viewport().width())
        assert not page.view.horizontalScrollBar().isVisible()
        c = COLUMNS.index("framework")
        tip = page.proxy.headerData(c, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
        assert tip == {"en": "Framework or tool that runs the plan", "zh_CN": "运行该方案的框架或工具"}[lang]
        if lang == "zh_CN":
            assert page.proxy.headerData(COLUMNS.index("rental_mode"), Qt.Orientation.Horizontal) == "计费"
    finally:
        lm.install("en")


def test_a_saving_under_one_percent_is_not_zero_percent():
    assert share_percent_number(218 / 290_785) == "0.07"  # 0.075% (the 70B example's #2 against #3)
    assert share_percent_number(0.004) == "0.4"
    assert share_percent_number(16 / 681) == "2"  # whole percents from 1%, as before
    assert share_percent_number(0.25) == "25"
