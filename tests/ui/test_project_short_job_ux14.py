"""ux14: the Project page of a job of a few hours (tests/data/examples_fixed/8b-dpo-full-8xh100-zero3.json, 0.16 days) read
"项目总价：¥70,000，共 0.0 周" and "0–0.0" in the weeks column; both now show the span (formatting.format_tenths)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "tests" / "data" / "examples_fixed" / "8b-dpo-full-8xh100-zero3.json"


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_project_total_of_a_short_job_is_not_zero_weeks(make_window, language, tmp_path, qtbot, lang):
    language.install(lang)
    path = tmp_path / "s.json"
    shutil.copy(EXAMPLE, path)
    w = make_window(search_enabled=False)
    assert w.open_path(path, show_errors=False)
    w.go_to(7)
    page = w.pages[7]
    qtbot.waitUntil(lambda: not page.busy() and page.result is not None and bool(page.total.text()), timeout=60000)
    total = page.total.text()
    # in hours since ux15 (formatting.format_elapsed), was "0.023" weeks
    assert not re.search(r"(?<![\d.])0\.0(?!\d)", total) and "3.8" in total, total  # (3.9 before round 16: ac16's early stop)
    weeks = page.table.item(0, 1).text()
    assert weeks == "0–3.8", weeks
