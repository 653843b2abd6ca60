"""The scaling chart lists the deadline in its legend only when it draws one: the Shenzhen project sets no
deadline, and its legend said "─·─ deadline" over a chart with no such line."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _legend(make_window, qtbot, example: str | None) -> tuple[str, object]:
    w = make_window(search_enabled=False)
    w.resize(1280, 800)
    if example:
        assert w.open_path(ROOT / "examples" / example, show_errors=False)
    chart = w.live.scaling_chart
    qtbot.waitUntil(lambda: bool(chart.data), timeout=30000)
    return chart.legend_label.text().replace("\u2060", "").replace("\xa0", " "), chart


def test_no_deadline_no_deadline_in_the_legend(make_window, qtbot):
    legend, chart = _legend(make_window, qtbot, "shenzhen-7b-domain-project.gpuplan")
    assert not chart.deadline.isVisible()
    assert "deadline" not in legend, legend


def test_a_deadline_is_in_the_legend(make_window, qtbot):
    legend, chart = _legend(make_window, qtbot, None)  # the fresh start: 14 days
    qtbot.waitUntil(lambda: chart.deadline.isVisible(), timeout=30000)
    legend = chart.legend_label.text().replace("\u2060", "").replace("\xa0", " ")
    assert "deadline" in legend, legend
