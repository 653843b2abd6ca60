"""Round 13 (helper ux21): a plan below one day reads in hours on the Plans page and the live panel, as the Project
page, ``gpuplanner plan``/``estimate`` and the PDF write it (formatting.format_elapsed through format_plan_span):
the Plans details and the live panel read "0.79 calendar days" / "0.16 calendar days" for plans the Project page
wrote as "19.0 hours" / "3.9 hours" (tests/test_ux21_r13_spans.py: the CLI and the PDF)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from gpuplanner.cli import run_cli
from gpuplanner.formatting import format_elapsed, format_plan_span

ROOT = Path(__file__).resolve().parents[2]
SHORT = ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json"
DPO = ROOT / "tests" / "data" / "examples_fixed" / "8b-dpo-full-8xh100-zero3.json"
BAD = re.compile(r"\b0\.\d\d (calendar days|days|个日历天|天)|日历 0\.\d\d 天")


def _json(capsys, *args):
    assert run_cli([*args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_plans_details_write_the_span_as_the_cli(make_window, language, qtbot, capsys, lang):
    p = _json(capsys, "plan", str(SHORT))["plans"][0]
    span = format_elapsed(p["calendar_days"], lang)
    rng = format_plan_span(p["calendar_days"], tuple(p["calendar_days_band"]), lang)[1]
    language.install(lang)
    w = make_window()
    w.resize(1280, 800)
    assert w.open_path(SHORT, show_errors=False)
    qtbot.waitUntil(lambda: w.search.state in ("done", "failed"), timeout=120000)
    page = w.page("plans")
    w.go_to(5)
    qtbot.waitUntil(lambda: page.table_model.rowCount() > 1, timeout=10000)
    page.view.selectRow(0)
    QApplication.processEvents()
    text = page.details.toPlainText()
    assert span in text and rng in text, text[:3000]
    # the plan's own days nowhere as "0.79 calendar days" / "日历 0.79 天" / "0.79 days" alone; a sentence comparing
    # two spans writes both in the longer one's unit ("0.79 days against 3.66 days", messages.elapsed_msgs)
    cal = re.compile(r"\b0\.\d\d (calendar days|个日历天)|日历 0\.\d\d 天")
    assert not cal.search(text), cal.findall(text)
    alone = [ln for ln in text.splitlines() if BAD.search(ln) and not re.search(r"against|对比", ln)]
    assert not alone, alone


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_live_panel_and_project_page_write_one_span(make_window, language, qtbot, capsys, lang):
    ev = _json(capsys, "estimate", str(DPO))
    span = format_elapsed(ev["calendar_days"], lang)
    rng = format_plan_span(ev["calendar_days"], tuple(ev["calendar_days_band"]), lang)[1]
    language.install(lang)
    w = make_window(search_enabled=False)
    assert w.open_path(DPO, show_errors=False)
    panel = w.live
    qtbot.waitUntil(lambda: bool(panel.time_value.text()) and "70,000" in panel.time_value.toolTip(), timeout=60000)
    assert span in panel.time_value.text(), panel.time_value.text()
    assert rng in panel.time_value.toolTip(), panel.time_value.toolTip()
    assert not BAD.search(panel.time_value.text() + panel.time_value.toolTip())
    w.go_to(7)
    page = w.pages[7]
    qtbot.waitUntil(lambda: not page.busy() and page.result is not None and bool(page.total.text()), timeout=60000)
    assert page.total.text().endswith(span), page.total.text()  # "Project total: ¥70,000 over 3.9 hours"
