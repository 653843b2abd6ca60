"""ux15 (issue 35 round 10): the Project page of a job of a few hours (tests/data/examples_fixed/8b-dpo-full-8xh100-zero3.json,
0.16 days) read "Project total: ¥70,000 over 0.023 weeks" and "0–0.023" under "Weeks"; it now reads in hours, the
column's header in the same unit (formatting.format_elapsed / elapsed_unit). The same document's plan, rented by the
month, read "likely range …, ¥70,000" in the live panel's tooltip: the one figure now says why
(core.evaluate.cost_band_msg), as in the CLI and the PDF."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "tests" / "data" / "examples_fixed" / "8b-dpo-full-8xh100-zero3.json"
TEXTS = {"en": ("Project total: ¥70,000 over 3.8 hours", "Hours", "Days",
                "¥70,000 (rented by the whole month: the same whatever the run's length in its range)"),
         "zh_CN": ("项目总价：¥70,000，共 3.8 小时", "小时数", "天数", "¥70,000（整机按月租用：在此区间内无论运行多久，费用都一样）")}


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_few_hours_project_page_reads_in_hours(make_window, language, tmp_path, qtbot, lang):
    language.install(lang)
    path = tmp_path / "s.json"
    shutil.copy(EXAMPLE, path)
    w = make_window(search_enabled=False)
    assert w.open_path(path, show_errors=False)
    w.go_to(7)
    page = w.pages[7]
    qtbot.waitUntil(lambda: not page.busy() and page.result is not None and bool(page.total.text()), timeout=60000)
    total, hours, days, _ = TEXTS[lang]
    assert page.total.text() == total
    assert page.table.horizontalHeaderItem(1).text() == hours
    assert page.table.item(0, 1).text() == "0–3.8"
    # the what-if column in the phases' unit, the project's scale (ux27: it read in the unit of its largest row,
    # "0.29 / 1.4 / 0.09" days beside a project read in hours); every row in it
    assert page.whatif.horizontalHeaderItem(2).text() == hours != days
    got = [float(page.whatif.item(r, 2).text()) for r in range(page.whatif.rowCount())]
    assert got == pytest.approx([0.29 * 24, 1.4 * 24, 0.09 * 24], rel=0.05), got
    said = page.replans.text()
    assert ("3.8 hours" in said) if lang == "en" else ("3.8 小时" in said), said


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_monthly_plans_one_cost_says_why_in_the_live_panel(make_window, language, qtbot, lang):
    language.install(lang)
    w = make_window(search_enabled=False)
    assert w.open_path(EXAMPLE, show_errors=False)
    panel = w.live
    qtbot.waitUntil(lambda: "70,000" in panel.time_value.toolTip(), timeout=60000)
    assert TEXTS[lang][3] in panel.time_value.toolTip(), panel.time_value.toolTip()


MIXTRAL = Path(__file__).resolve().parents[2] / "examples" / "mixtral-8x7b-ep8-16xa800.json"


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_monthly_plans_one_cost_says_why_in_the_plans_details(make_window, language, qtbot, lang, tmp_path):
    """Mixtral's #1 rents 8 × H200 by the month: its range read "5.1–5.8 calendar days · ¥94,000". (The savers
    written off: round 15 searches the unset ones, savers15, and #1 with the defaults is this lease.)"""
    from PySide6.QtWidgets import QApplication
    from tests.savers_off import savers_off_file

    language.install(lang)
    w = make_window()
    assert w.open_path(savers_off_file(MIXTRAL, tmp_path), show_errors=False)
    qtbot.waitUntil(lambda: w.search.state in ("done", "failed"), timeout=90000)
    page = w.page("plans")
    w.go_to(5)
    qtbot.waitUntil(lambda: page.table_model.rowCount() > 0, timeout=10000)
    page.view.selectRow(0)
    QApplication.processEvents()
    text = page.details.toPlainText()
    want = ("¥94,000 (rented by the whole month: the same whatever the run's length in its range)" if lang == "en"
            else "¥94,000（整机按月租用：在此区间内无论运行多久，费用都一样）")
    assert want in text, text[:2000]
