"""ux14: the Plans details of a job under a day (tests/data/examples_fixed/8b-dpo-full-8xh100-zero3.json, #2 at 0.15 days) read
"0.15 calendar days" beside "Likely range: 0.1–0.2 calendar days" and "… upper end of its band (0.2 days)". The range
and the rule now carry the two decimals the Time line does (formatting.days_decimals)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

EXAMPLE = Path(__file__).resolve().parents[2] / "tests" / "data" / "examples_fixed" / "8b-dpo-full-8xh100-zero3.json"


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_range_of_a_short_job_reads_at_the_times_decimals(make_window, language, qtbot, lang):
    language.install(lang)
    w = make_window()
    assert w.open_path(EXAMPLE, show_errors=False)
    qtbot.waitUntil(lambda: w.search.state in ("done", "failed"), timeout=60000)
    page = w.page("plans")
    w.go_to(5)
    qtbot.waitUntil(lambda: page.table_model.rowCount() > 2, timeout=10000)
    for row in (0, 1):
        page.view.selectRow(row)
        QApplication.processEvents()
        text = page.details.toPlainText()
        # below a day the range reads in hours, as the Project page (formatting.format_plan_span; ux21), at the
        # headline's decimals (one for hours from 1 hour)
        rng = re.search(r"(\d+\.\d+)–(\d+\.\d+) (?:calendar days|个日历天|日历天|hours|小时)", text)
        assert rng, text[:1500]
        assert len({len(x.split(".")[1]) for x in rng.groups()}) == 1, rng.group(0)
        far = re.search(r"(?:upper end of its band \(|按区间上限（)(\d+\.\d+)", text)
        assert far and far.group(1) == rng.group(2), (far, rng.group(0))
