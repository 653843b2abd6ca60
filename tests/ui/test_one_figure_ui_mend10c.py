"""mend10c: the live panel and the Plans details wrote a plan's days with 2 decimals ("16.62 calendar days")
beside its likely range at 1 ("16.6–18.8"): both now use formatting.format_days_band, as the CLI and the PDF."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "70b-cpt-64xh100.gpuplan"
_RANGE = r"(\d+\.\d+)–(\d+\.\d+) (?:calendar days|个日历天|日历天|days|hours|天|小时)"  # in the plan's unit (ux21, ux22)


def _decimals(x: str) -> int:
    return len(x.split(".")[1]) if "." in x else 0


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_plans_details_days_read_at_the_ranges_precision(make_window, language, qtbot, lang):
    language.install(lang)
    w = make_window()
    assert w.open_path(EXAMPLE, show_errors=False)
    qtbot.waitUntil(lambda: w.search.state in ("done", "failed"), timeout=60000)
    page = w.page("plans")
    w.go_to(5)
    qtbot.waitUntil(lambda: page.table_model.rowCount() > 1, timeout=10000)
    page.view.selectRow(0)
    QApplication.processEvents()
    text = page.details.toPlainText()
    rng = re.search(_RANGE, text)
    head = re.search(r"(\d[\d,]*\.\d+) (?:days|hours) in calendar time \(|日历时间 (\d[\d,]*\.\d+) (?:天|小时)（", text)  # one message (ux22)
    assert rng and head, text[:1500]
    assert _decimals(head.group(1) or head.group(2)) == _decimals(rng.group(2)), (head.group(0), rng.group(0))
    # the live panel says the same figures for the open scenario
    panel = w.live
    qtbot.waitUntil(lambda: re.search(_RANGE, panel.time_value.toolTip()) is not None, timeout=60000)
    lrng = re.search(_RANGE, panel.time_value.toolTip())
    lhead = re.search(r"(\d[\d,]*\.\d+)", panel.time_value.text())
    assert _decimals(lhead.group(1)) == _decimals(lrng.group(2)), (panel.time_value.text(), lrng.group(0))
