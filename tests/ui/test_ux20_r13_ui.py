"""A new user's first hour, round 13 (helper ux20): what the screenshots at 1280×800 showed a demanding user would
reject, each asserted where the app shows it.

* The Chinese cost-against-time chart's cost axis read "0.1万 / 1万 / 10万" (1,000 as a tenth of a myriad).
* The scaling chart's unit menu and axis said "tokens/s" in Chinese; its point tooltips put the axis's word after
  a number ("→ 3.5 天数").
* The Vendor quotes page showed the example sheets' region as the identifier "mainland_china" in both languages.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json"


def _searched(make_window, qtbot, path=EXAMPLE):
    w = make_window()
    w.resize(1280, 800)
    assert w.open_path(path, show_errors=False)
    qtbot.waitUntil(lambda: w.search.state in ("done", "failed"), timeout=120000)
    QApplication.processEvents()
    return w


def test_the_chinese_cost_axis_counts_in_myriads(make_window, language, qtbot):
    language.install("zh_CN")
    w = _searched(make_window, qtbot)
    axis = w.live.cost_chart.plot.getPlotItem().getAxis("left")
    qtbot.waitUntil(lambda: bool(getattr(axis, "_gp_ticks", None) and axis._gp_ticks[0]), timeout=60000)
    labels = [t for _v, t in axis._gp_ticks[0]]
    assert len(labels) >= 2, labels
    # was "0.1万 / 1万 / 10万"
    assert not any(re.match(r"0\.\d+[万亿]", t) or "," in t for t in labels), labels
    for v, t in axis._gp_ticks[0]:
        if 10 ** v >= 1e4 * (1 - 1e-9):
            assert t.endswith(("万", "亿")), labels


@pytest.mark.parametrize("lang, menu, tip_days, tip_speed", [
    ("zh_CN", "每秒 token 数", "天", "token/s"),
    ("en", "tokens/s", "days", "tokens/s"),
])
def test_scaling_chart_units_read_in_the_language(make_window, language, qtbot, lang, menu, tip_days, tip_speed):
    language.install(lang)
    w = make_window(search_enabled=False)
    chart = w.live.scaling_chart
    assert chart.mode.itemText(0) == menu  # was "tokens/s" in Chinese
    days = chart._point_tip("nvlink", 8, 3.5, True)
    speed = chart._point_tip("nvlink", 8, 2000, False)
    assert days.endswith(f"3.5 {tip_days}"), days  # was "→ 3.5 天数"
    assert speed.endswith(f" {tip_speed}") and "tokens/s" not in (speed if lang == "zh_CN" else ""), speed


@pytest.mark.parametrize("lang, region", [("en", "mainland China"), ("zh_CN", "中国大陆")])
def test_quotes_page_shows_the_region_in_words_and_keeps_its_id(make_window, language, qtbot, lang, region):
    from gpuplanner.io.quote_sheets import read_quotes

    language.install(lang)
    w = make_window(search_enabled=False)
    page = w.page("quotes")
    page.set_quotes(read_quotes(ROOT / "examples" / "quotes" / "autodl-a800.csv"))
    QApplication.processEvents()
    row = [page.terms.item(r, 0).toolTip() for r in range(page.terms.rowCount())].index("region")
    assert page.terms.item(row, 1).text() == region  # was "mainland_china"
    # an edit elsewhere writes the region back as the id the sheet and the catalogue use
    contact = [page.terms.item(r, 0).toolTip() for r in range(page.terms.rowCount())].index("contact")
    page.terms.item(contact, 1).setText("ops@example.com")
    QApplication.processEvents()
    assert page.quotes[0]["region"] == "mainland_china", page.quotes[0]
    assert page.quotes[0]["contact"] == "ops@example.com"


def test_quote_comparison_reads_as_chinese_sentences(make_window, language, qtbot):
    """The vendor ranking's reasons were joined with an English space: "计入隐性费用后总价最低。 价格之外的费用…";
    and the plan's span read "从开始到结束 0.66 天" while the Project page said "15.8 小时" for the same plan."""
    from gpuplanner.formatting import format_elapsed
    from gpuplanner.io.quote_sheets import read_quotes

    language.install("zh_CN")
    w = make_window()  # a new user's first document and task (scripts/screenshots_issue35_r13_ux20.py)
    w.resize(1280, 800)
    for k, v in {"model.preset": "llama-3.1-8b", "training.method": "full", "data.tokens": 2_000_000_000,
                 "constraints.deadline_days": 7}.items():
        w.model.set(k, v)
    qtbot.waitUntil(lambda: w.search.state in ("done", "failed"), timeout=120000)
    qtbot.wait(500)
    page = w.page("quotes")
    page.set_quotes([q for f in sorted((ROOT / "examples" / "quotes").glob("*.csv")) for q in read_quotes(f)])
    page.refresh_comparison()
    QApplication.processEvents()
    text = page.compare_view.toPlainText()
    assert "。 " not in text, [ln for ln in text.splitlines() if "。 " in ln]
    days = page.ctx.estimator.result.evaluation.calendar_days
    assert f"从开始到结束 {format_elapsed(days, 'zh_CN')}" in text, text[:400]


def test_quote_offers_leave_the_note_readable_in_chinese(make_window, language, qtbot):
    """At 1280×800 the Chinese offers table gave its note column what "最短租期（天）" on one line left: ~30 px,
    "A… lis…". The header breaks before its full-width bracket, as English headers break at a space."""
    from gpuplanner.io.quote_sheets import read_quotes
    from gpuplanner.ui.main_window import PAGE_KEYS

    language.install("zh_CN")
    w = make_window(search_enabled=False)
    w.resize(1280, 800)
    page = w.page("quotes")
    page.set_quotes(read_quotes(ROOT / "examples" / "quotes" / "autodl-a800.csv"))
    w.go_to(PAGE_KEYS.index("quotes"))
    qtbot.wait(300)
    t = page.offers
    heads = [t.horizontalHeaderItem(c).text() for c in range(t.columnCount())]
    assert any(h.startswith("最短租期\n（") for h in heads), heads
    assert t.columnWidth(t.columnCount() - 1) >= 60, [t.columnWidth(c) for c in range(t.columnCount())]


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_plans_details_write_the_deadline_as_the_cli_and_the_pdf(make_window, language, qtbot, lang):
    """The Plans page's details read the same deadline lines as ``gpuplanner plan`` and the PDF
    (tests/test_ux20_r13_spans.py): the deadline through formatting.format_elapsed in days, "2.0 days" / "2.0 天"
    (the search wrote "2 days", the PDF "2.0 days")."""
    from gpuplanner.formatting import format_elapsed

    language.install(lang)
    w = _searched(make_window, qtbot, ROOT / "tests" / "data" / "ux20" / "full-8b-late-8-gpus.json")
    page = w.page("plans")
    w.go_to(5)
    qtbot.waitUntil(lambda: page.table_model.rowCount() > 1, timeout=10000)
    page.view.selectRow(0)
    QApplication.processEvents()
    text = page.details.toPlainText()
    span = format_elapsed(2.0, lang, "days").replace("2.0", "2")  # the typed deadline as typed (ux25; was "2.0")
    want = f"Misses the deadline already at the estimate (" if lang == "en" else "按估计值就已错过截止时间（"
    line = next((ln for ln in text.splitlines() if want in ln), "")
    assert line and (f"against {span})" in line if lang == "en" else f"截止 {span}）" in line), text[:3000]
