"""The chart "memory per GPU against GPU count" on the Hardware page: it shows the core's figures (each point
an Evaluation), one capacity line per size of the ticked cards, GPU ticks at 1, 2, 4, 8, … and an empty state."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from gpuplanner.core.evaluate import memory_by_gpu_count
from gpuplanner.io.scenario_files import load_scenario

ROOT = Path(__file__).resolve().parents[2]


def test_chart_reads_the_core_figures(qtbot):
    from gpuplanner.ui.charts import MemoryCountChart

    s, models = load_scenario(ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json")
    s = s.model_copy(update={"constraints": s.constraints.model_copy(
        update={"gpu_candidates": ["a100-sxm-80gb", "rtx-4090-24gb", "h20-96gb"], "max_gpus": 16})})
    res = memory_by_gpu_count(s, models)
    c = MemoryCountChart()
    qtbot.addWidget(c)
    c.resize(600, 400)
    c.update_from(res)
    assert not c.empty.isVisible()
    assert list(c.data["gpus"]) == [1, 2, 4, 8, 16]
    assert list(c.data["gib"]) == [p.memory.total for p in res.points]
    # H100 and A100 are both 80 GiB: one line naming both; one line per other size
    assert c.data["capacities"] == [96.0, 80.0, 24.0]
    legend = c.legend_label.text()
    assert "H100&nbsp;SXM5&nbsp;80GB</span>, <span style='white-space:nowrap'>A100&nbsp;SXM4" in legend
    assert "RTX&nbsp;4090&nbsp;24GB" in legend
    ticks = [lab for _, lab in c.plot.getPlotItem().getAxis("bottom")._tickLevels[0]]
    assert ticks == ["1", "2", "4", "8", "16"]
    # hovering the 8-GPU point names its layout and the cards it fits on
    tip = next(h.text for h in c._hover if abs(h.x - math.log10(8)) < 1e-9 and "ZeRO-3" in h.text)
    assert "8 GPUs" in tip and "fits on" in tip and "RTX 4090" not in tip.split("fits on")[1]
    c.update_from(None)
    assert c.empty.text() and not c.data


def test_hardware_page_shows_the_curve(win, qtbot):
    win.go_to(4)
    page = win.page("hardware")
    win.estimator.run_now()  # the live Evaluation of the scenario now (the search's adopted plan), not a queued one
    win.estimator.run_scaling_now()
    qtbot.waitUntil(lambda: bool(page.count_chart.data), timeout=5000)
    mb = win.estimator.scaling.memory
    assert list(page.count_chart.data["gib"]) == [p.memory.total for p in mb.points if p.memory is not None]
    n = win.model.scenario.hardware.num_gpus
    own = next(p for p in mb.points if p.num_gpus == n)
    # the live estimate is answered on the estimate thread: wait for the answer of the inputs swept above (an
    # estimate of earlier inputs may still be the one applied when the window has just opened)
    est = win.estimator

    def answered() -> bool:
        res = est.result
        return (not est.estimate_busy() and res is not None and res.evaluation is not None
                and res.evaluation.scenario == win.model.scenario)

    qtbot.waitUntil(answered, timeout=10000)
    assert own.current.total == pytest.approx(est.result.evaluation.memory.total, rel=1e-9)


def test_legend_entries_never_break_inside():
    """A legend wraps between its entries, never inside one ("截止时/间" was seen): every character of an entry
    is joined to the next by a word joiner (UAX #14 class WJ) and spaces are no-break spaces."""
    from PySide6.QtGui import QTextDocumentFragment

    from gpuplanner.ui.charts import legend_html

    text = legend_html([("#f00", "─·─", "截止时间"), ("#00f", "●", "NVLink (1 node)")])
    plain = QTextDocumentFragment.fromHtml(text).toPlainText()
    assert "截\u2060止\u2060时\u2060间" in plain
    assert "N\u2060V\u2060L\u2060i\u2060n\u2060k\u2060\u00a0\u2060(" in text  # a no-break space
    assert plain.replace("\u2060", "").replace("\u00a0", " ") == "─·─ 截止时间  ● NVLink (1 node)"
