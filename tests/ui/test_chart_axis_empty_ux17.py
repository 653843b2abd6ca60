"""Chart axes read in one scale, and an empty chart's message stays off its axes (issue 35 round 11, ux17).

ux16 saw the Chinese scaling chart's tokens/s axis read "3,000 / 1万 / 3万" (the English one read
"3,000 / 10K / 30K"): each tick was formatted alone. ``formatting.format_axis_ticks`` labels an axis in one scale.
With no layout that fits, the message "No layout of this scenario fits…" sat across the left axis, over the last
data's tick labels ("1万" half hidden); it now sits in the data area and the stale ticks are cleared."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuplanner.formatting import format_axis_ticks

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("values, lang, expected", [
    ([3000, 1e4, 3e4], "zh_CN", ["3000", "1万", "3万"]),  # round 13, ux20: Chinese writes 3000, not "0.3万"
    ([3000, 1e4, 3e4], "en", ["3K", "10K", "30K"]),
    ([100, 1000, 1e4], "en", ["100", "1K", "10K"]),  # terms18: one form per value on every chart
    ([100, 1000, 1e4], "zh_CN", ["100", "1000", "1万"]),
    ([5e5, 1e6, 2e6], "en", ["0.5M", "1M", "2M"]),
    ([1e4, 3e4, 1e5], "zh_CN", ["1万", "3万", "10万"]),
    ([200, 500, 1000], "en", ["200", "500", "1K"]),
    ([0, 20, 40, 60, 80], "en", ["0", "20", "40", "60", "80"]),
])
def test_one_scale_per_axis(values, lang, expected):
    assert format_axis_ticks(values, lang) == expected


def _scale(label: str) -> str:
    return "".join(ch for ch in label if not (ch.isdigit() or ch in ".,-"))


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_scaling_chart_ticks_share_a_scale(make_window, language, qtbot, lang):
    language.install(lang)
    w = make_window(search_enabled=False)
    assert w.open_path(ROOT / "examples" / "mixtral-8x7b-ep8-16xa800.json", show_errors=False)
    chart = w.live.scaling_chart
    axis = chart.plot.getPlotItem().getAxis("left")
    qtbot.waitUntil(lambda: bool(getattr(axis, "_gp_ticks", None) and axis._gp_ticks[0]), timeout=60000)
    labels = [t for _v, t in axis._gp_ticks[0]]
    assert len(labels) >= 3, labels
    if lang == "en":
        assert len({_scale(t) for t in labels}) == 1, labels  # was "3,000 / 10K / 30K"
    else:  # Chinese writes each tick in its own myriad unit ("3000 / 1万 / 3万"), never "0.3万" (round 13, ux20)
        assert not any(t.startswith("0.") or "," in t for t in labels), labels


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_empty_message_sits_inside_the_axes(make_window, language, qtbot, lang):
    language.install(lang)
    w = make_window(search_enabled=False)
    w.resize(1280, 800)
    chart = w.live.scaling_chart
    axis = chart.plot.getPlotItem().getAxis("left")
    qtbot.waitUntil(lambda: bool(getattr(axis, "_gp_ticks", None) and axis._gp_ticks[0]), timeout=60000)
    # Llama 3.1 405B, full fine-tuning on RTX 4090s: no GPU count of the chart fits
    w.model.set_many({"model.preset": "llama-3.1-405b", "training.method": "full", "hardware.gpu": "rtx-4090-24gb",
                      "hardware.num_gpus": 8})
    qtbot.waitUntil(lambda: chart.empty.isVisibleTo(chart.plot), timeout=60000)
    qtbot.wait(100)
    assert axis._gp_ticks == [[], []]  # no tick labels of the last data left beside the message
    deadline = "deadline" if lang == "en" else "截止时间"
    assert deadline not in chart.legend_label.text()  # no deadline line drawn: none in the legend
    pi = chart.plot.getPlotItem()

    def on_screen(ax):  # the axis's own strip (its bounding rect spans the plot: it draws the grid lines)
        return chart.plot.mapFromScene(ax.parentItem().mapRectToScene(ax.geometry())).boundingRect()

    left, bottom = on_screen(axis), on_screen(pi.getAxis("bottom"))
    assert left.width() < 120 and bottom.height() < 80, (left, bottom)
    box = chart.empty.geometry()
    assert not box.intersects(left), (box, left)  # it sat across the left axis
    assert not box.intersects(bottom), (box, bottom)
    assert box.left() >= left.right(), (box, left)


def test_a_short_axis_keeps_two_labels_off_its_edges():
    """The Chinese GRPO example's scaling chart (1,778–10,000 tokens/s on a 76-px axis, room for three labels) chose
    2,000 / 5,000 / 10,000: 2,000 lay 5 px above the bottom edge and 10,000 on the top edge, and pyqtgraph hid both,
    leaving one label ("0.5万"). Ticks near an edge no longer count as labels."""
    import math

    from gpuplanner.ui.charts import log_ticks

    lo, hi = 10 ** 3.25, 1e4
    ticks = log_ticks(lo, hi, max_ticks=3)
    margin = 0.08 * math.log10(hi / lo)
    shown = [t for v, t in ticks if math.log10(lo) + margin < v < math.log10(hi) - margin]
    assert len(shown) >= 2, ticks
