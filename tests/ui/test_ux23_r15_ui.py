"""Round 15 (helper ux23), the app's side of tests/test_ux23_r15_first_hour.py, seen in a new user's first hour at
1280×800: the scaling chart's deadline line read "赶上截止时间需要：3307 token/s" in Chinese (an axis tick's
ungrouped number inside a sentence, beside "1,079" in the table under it), and the Project page showed an empty
table and a bare 0–1 chart, saying nothing, while its answer was on the way."""

from __future__ import annotations

import pytest

from gpuplanner.formatting import format_sig

#: what a new user types first (scripts/_screens.FIRST_TASK): a full fine-tune of an 8B model on 2B tokens in a week
TASK = {"model.preset": "llama-3.1-8b", "training.method": "full", "data.tokens": 2_000_000_000,
        "constraints.deadline_days": 7}


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_deadline_lines_tokens_per_second_is_grouped(make_window, language, qtbot, lang):
    language.install(lang)
    w = make_window()
    w.resize(1280, 800)
    for k, v in TASK.items():
        assert not w.model.set(k, v), k
    chart = w.live.scaling_chart
    qtbot.waitUntil(lambda: bool(getattr(chart, "_line_target", None)), timeout=60000)
    target = chart._line_target
    # hand: 2e9 tokens in 7 days of 168 hours a week ≈ 3,307 tokens/s (calendar time less setup and checkpoints)
    assert 1000 <= target < 10000, target
    text = chart.deadline.label.format
    assert format_sig(target, 3, lang) in text and "," in format_sig(target, 3, lang), text
    assert f"{target:.0f}" not in text.replace(",", "X"), text  # never the ungrouped "3307"


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_project_page_says_its_answer_is_on_the_way(make_window, language, qtbot, lang):
    from PySide6.QtCore import QCoreApplication

    language.install(lang)
    w = make_window()
    w.resize(1280, 800)
    page = w.page("project")
    page.result, page.error = None, ""
    page.recompute()
    working = QCoreApplication.translate("ProjectPage", "Working out the project's cost and timeline…")
    assert page.total.text() == working and working != "", page.total.text()
    assert not page.timeline.isVisibleTo(page)  # no bare 0–1 axes
    qtbot.waitUntil(lambda: page.result is not None, timeout=120000)
    assert page.total.text() != working and page.timeline.isVisibleTo(page)
    assert page.table.rowCount() >= 1
