"""The scaling chart's deadline label sits where it crosses no curve (ui/charts/scaling.free_label_place)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from gpuplanner.ui.charts.scaling import LABEL_PLACES, free_label_place, label_box

VIEW = (0.0, 2.0, 3.0, 5.0)  # log10 GPUs 1…100, log10 tokens/s 1,000…100,000
SIZE = (0.6, 0.2)  # the label's width and height in view units


def _src(name: str) -> Path:
    """An example by name: examples/, or tests/data/examples_fixed/ for the fixed-layout files that left
    examples/ in issue 35 round 16 (examples16: those examples now let the search choose)."""
    here = Path(__file__).resolve().parents[2] / "examples" / name
    return here if here.exists() else Path(__file__).resolve().parents[2] / "tests" / "data" / "examples_fixed" / name


def _crosses(place, curves, line_y=4.0) -> bool:
    x0, x1, y0, y1 = label_box(VIEW, line_y, SIZE, place)
    for pts in curves:
        for (xa, ya), (xb, yb) in zip(pts, pts[1:]):
            for t in range(101):
                x, y = xa + (xb - xa) * t / 100, ya + (yb - ya) * t / 100
                if x0 <= x <= x1 and y0 <= y <= y1:
                    return True
    return False


def test_the_box_sits_on_the_line_at_its_end():
    assert label_box(VIEW, 4.0, SIZE, LABEL_PLACES[0]) == (2.0 * 0.98 - 0.6, 2.0 * 0.98, 4.0, 4.2)  # right, above
    x0, x1, y0, y1 = label_box(VIEW, 4.0, SIZE, LABEL_PLACES[4])  # left, below
    assert math.isclose(x0, 0.04) and math.isclose(y1, 4.0)


def test_a_curve_rising_through_the_right_end_moves_the_label():
    rising = [[(0.0, 3.2), (1.0, 3.7), (2.0, 4.1)]]  # crosses the line (4.0) near the right end, just above it
    assert _crosses(LABEL_PLACES[0], rising)
    place = free_label_place(VIEW, 4.0, SIZE, rising)
    assert place != LABEL_PLACES[0] and not _crosses(place, rising)


def test_no_free_place_gives_none():
    wide = (1.5, 0.3)  # three quarters of the width: a curve crossing the middle of the line takes every place
    across = [[(0.0, 3.3), (1.0, 3.9), (2.0, 4.6)]]
    assert free_label_place(VIEW, 4.0, wide, across) is None


def test_a_free_right_end_keeps_the_first_place():
    low = [[(0.0, 3.1), (2.0, 3.5)]]
    assert free_label_place(VIEW, 4.0, SIZE, low) == LABEL_PLACES[0]


def _shown_chart(make_window, example: str):
    import time
    from pathlib import Path

    from PySide6.QtWidgets import QApplication

    w = make_window(search_enabled=False)
    w.resize(1280, 800)
    root = Path(__file__).resolve().parents[2]
    assert w.open_path(_src(example), show_errors=False)
    chart = w.live.scaling_chart
    for _ in range(200):
        QApplication.processEvents()
        if chart.deadline.isVisible() and chart.data:
            break
        time.sleep(0.05)
    assert chart.deadline.isVisible()
    return chart


@pytest.mark.parametrize("example", ["llama3-70b-pretrain-64xh800-tp8pp4.json", "mixtral-8x7b-ep8-16xa800.json",
                                     "llama3-8b-full-8xh100-zero3.json"])
@pytest.mark.parametrize("mode", [0, 1])
def test_the_chart_places_its_label_clear_of_the_curves(make_window, example, mode):
    """The live scaling chart of three examples, tokens/s and days: the label's box (view units) crosses none of
    the drawn curves, or the label is hidden and its text is in the legend (the Mixtral tokens/s chart: its
    curves cross the line in the middle and the text is two thirds of the width)."""
    from gpuplanner.ui.charts.scaling import _log_points

    chart = _shown_chart(make_window, example)
    chart.mode.setCurrentIndex(mode)
    label = chart.deadline.label
    text = label.format
    legend = chart.legend_label.text().replace("\u2060", "").replace("\xa0", " ")
    if not label.isVisible():
        assert text and text in legend
        return
    assert text not in legend
    vb = chart.plot.getPlotItem().vb
    (x0, x1), (y0, y1) = vb.viewRange()
    br = label.boundingRect()
    size = (br.width() * (x1 - x0) / vb.width(), br.height() * (y1 - y0) / vb.height())
    box = label_box((x0, x1, y0, y1), chart.deadline.value(), size, (label.orthoPos, tuple(label.anchors[0])))
    for x, y in chart.data.values():
        pts = _log_points(x, y)
        for (xa, ya), (xb, yb) in zip(pts, pts[1:]):
            for t in range(101):
                px, py = xa + (xb - xa) * t / 100, ya + (yb - ya) * t / 100
                assert not (box[0] <= px <= box[1] and box[2] <= py <= box[3]), (px, py, box)
