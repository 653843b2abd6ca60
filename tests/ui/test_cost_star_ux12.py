"""ux12: the cost chart's "chosen" star stood on the search's #1 (256 × A100, ¥1.1M) while the summary showed the
document's own 64 × H800 layout (review ux11, pre-training example, manual layout). The star must stand on the
plan the summary shows: with a manual layout the scenario's own Evaluation; with automatic layout the selected
(adopted) plan, the same one the live summary then evaluates."""

from __future__ import annotations

import math
from pathlib import Path

from PySide6.QtWidgets import QApplication

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "llama3-70b-pretrain-64xh800-tp8pp4.json"


def _settled(w, qtbot):
    qtbot.waitUntil(lambda: w.search.state in ("done", "failed"), timeout=120000)
    qtbot.waitUntil(lambda: not w.estimator.estimate_busy() and w.estimator.result is not None
                    and w.estimator.result.evaluation is not None, timeout=60000)
    QApplication.processEvents()


def test_a_manual_layouts_star_is_the_documents_plan(make_window, qtbot):
    w = make_window()
    assert w.open_path(EXAMPLE, show_errors=False)
    w.model.set_many({"parallel.auto": False})
    _settled(w, qtbot)
    plans = w.live.cost_chart.plans
    assert plans, "the search found no plans"
    ev = w.estimator.result.evaluation
    assert ev.num_gpus == 64 and ev.cost is not None
    star = w.live.cost_chart.data["chosen"]
    assert len(star) == 1
    assert math.isclose(star[0][0], ev.calendar_days) and math.isclose(star[0][1], ev.cost), (star, ev.cost)
    # the app layer decides it (app.answer.chart_star), as for the CLI and the report: the same point
    from gpuplanner.app.answer import answer

    assert answer(EXAMPLE).star == (None, star[0])
    top = plans[0]
    if (top.calendar_days, top.cost) != (ev.calendar_days, ev.cost):
        assert star[0] != (top.calendar_days, top.cost)   # not the search's #1


def test_an_automatic_layouts_star_follows_the_selected_plan(make_window, qtbot):
    w = make_window()
    assert w.open_path(EXAMPLE, show_errors=False)
    w.model.set_many({"parallel.auto": True})
    _settled(w, qtbot)
    page = w.page("plans")
    w.go_to(5)
    qtbot.waitUntil(lambda: page.table_model.rowCount() > 3, timeout=10000)
    page.view.selectRow(2)
    QApplication.processEvents()
    p3 = page.current_plan()
    assert p3.rank == 3 and w.model.ui["selected_plan"] == 3
    _settled(w, qtbot)
    ev = w.estimator.result.evaluation
    star = w.live.cost_chart.data["chosen"]
    assert star == [(p3.calendar_days, p3.cost)]
    # the summary reads the same plan: its Evaluation's figures are the star's
    assert ev.num_gpus == p3.num_gpus and math.isclose(ev.cost, p3.cost, rel_tol=1e-9)
