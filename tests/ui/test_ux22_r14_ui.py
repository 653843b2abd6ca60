"""Round 14 (helper ux22), the app's side of tests/test_ux22_r14_spans.py: the Plans table's time column writes each
plan read in hours with its headline's number under "Hrs" (it read "0.83" under "Days" beside a headline of
"19.9 hours"), the
details' "Time" line and likely range in the one unit of the plan's whole range, and the Project page's total in
days, never weeks (it read "over 10.0 weeks" for a project of 70 days)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from gpuplanner.cli import run_cli
from gpuplanner.formatting import format_elapsed, format_plan_span

ROOT = Path(__file__).resolve().parents[2]
LORA = ROOT / "examples" / "7b-lora-1x4090.json"
PROJECT = ROOT / "examples" / "shenzhen-7b-domain-project.gpuplan"


def _json(capsys, *args):
    assert run_cli([*args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_plans_table_writes_each_plans_headline(make_window, language, qtbot, capsys, lang):
    # the first ten: since round 15's price tie the first five are all in hours
    plans = _json(capsys, "plan", str(LORA), "--top", "10")["plans"]
    heads = [format_plan_span(p["calendar_days"], tuple(p["calendar_days_band"]), lang)[0] for p in plans]
    language.install(lang)
    w = make_window()
    w.resize(1280, 800)
    assert w.open_path(LORA, show_errors=False)
    qtbot.waitUntil(lambda: w.search.state in ("done", "failed"), timeout=120000)
    page = w.page("plans")
    w.go_to(5)
    qtbot.waitUntil(lambda: page.table_model.rowCount() >= len(plans), timeout=10000)
    m = page.table_model
    from gpuplanner.ui.pages.plans_page import COLUMNS

    col = COLUMNS.index("days")
    cells = [m.data(m.index(r, col)) for r in range(len(plans))]
    # one plan reads in hours: the column is in hours, every plan read in hours with its headline's number (it
    # read "0.83" under "Days" beside a headline of "19.9 hours"), a plan of days in hours too
    assert any(h.split()[-1] in ("hours", "小时") for h in heads) and any(h.split()[-1] in ("days", "天") for h in heads)
    assert m.headerData(col, Qt.Orientation.Horizontal) == ("Hrs" if lang == "en" else "小时数")
    for cell, p, head in zip(cells, plans, heads):
        want = head.split()[0] if head.split()[-1] in ("hours", "小时") else format_elapsed(p["calendar_days"], lang,
                                                                                         "hours").split()[0]
        assert cell == want, (cell, head)
    # every plan of a day or more: the column in days, each cell its headline's number
    keep = m.plans
    m.plans = [p for p in keep if p.calendar_days >= 1.2]
    assert m.plans
    assert m.headerData(col, Qt.Orientation.Horizontal) == ("Days" if lang == "en" else "天数")
    for r, p in enumerate(m.plans):
        head = format_plan_span(p.calendar_days, p.plan.evaluation.calendar_days_band, lang)[0]
        assert m.data(m.index(r, col)) == head.split()[0], (m.data(m.index(r, col)), head)
    m.plans = keep
    page.view.selectRow(0)
    QApplication.processEvents()
    text = page.details.toPlainText()
    band = tuple(plans[0]["calendar_days_band"])
    assert heads[0] in text and format_plan_span(plans[0]["calendar_days"], band, lang)[1] in text, text[:2000]


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_project_total_reads_in_days(make_window, language, qtbot, capsys, lang):
    days = 7 * float(_json(capsys, "project", str(PROJECT))["total_weeks"])
    assert days >= 14
    language.install(lang)
    w = make_window(search_enabled=False)
    assert w.open_path(PROJECT, show_errors=False)
    w.go_to(7)
    page = w.pages[7]
    qtbot.waitUntil(lambda: not page.busy() and page.result is not None and bool(page.total.text()), timeout=60000)
    assert page.total.text().endswith(format_plan_span(days, None, lang)[0]), page.total.text()


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_live_panel_prices_no_layout_that_does_not_fit(make_window, language, qtbot, lang):
    """A scenario file whose own layout does not fit: the summary read "MFU 26% · ¥70,000 (whole machines per
    month)" and the cost chart starred it, while the PDF and ``estimate`` say "No price"."""
    language.install(lang)
    w = make_window(search_enabled=False)
    assert w.open_path(ROOT / "tests" / "data" / "ux20" / "first-task-as-given.json", show_errors=False)
    panel = w.live
    qtbot.waitUntil(lambda: bool(panel.plan_value.text()), timeout=60000)
    text = panel.plan_value.text()
    assert "70,000" not in text and ("no price" in text if lang == "en" else "不报价" in text), text


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_project_table_shows_each_phases_resources_whole(make_window, language, qtbot, lang):
    """At 1280×800 the resources column read "1 × NVIDIA A80…XM4 80GB（中国特供…" (cut in the middle): the card's
    short name, as the timeline and the Plans table, with the full name on hover."""
    language.install(lang)
    w = make_window(search_enabled=False)
    w.resize(1280, 800)
    assert w.open_path(PROJECT, show_errors=False)
    w.go_to(7)
    page = w.pages[7]
    qtbot.waitUntil(lambda: not page.busy() and page.result is not None and bool(page.total.text()), timeout=60000)
    QApplication.processEvents()
    t = page.table
    fm = t.fontMetrics()
    for r in range(t.rowCount()):
        item = t.item(r, 2)
        assert fm.horizontalAdvance(item.text()) + 8 <= t.columnWidth(2), (item.text(), t.columnWidth(2))
        assert item.toolTip().startswith(item.text().split(" × ")[0])
