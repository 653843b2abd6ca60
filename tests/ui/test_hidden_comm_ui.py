"""The Plans details name the communication run under compute with its share of the step (issue 35), the figure
the Evaluation holds (TimeEstimate.hidden_shares)."""

from __future__ import annotations

from gpuplanner.core.scenario import scenario_from_dict
from gpuplanner.formatting import format_percent
from tests.ui.conftest import searched

SCENARIO = {"model": {"preset": "llama-3.1-70b"}, "training": {"method": "pretrain", "framework": "megatron"},
            "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 64}, "parallel": {"tp": 8, "pp": 4},
            "data": {"tokens": "20B"}, "constraints": {"max_gpus": 64, "gpu_candidates": ["h100-sxm-80gb"],
                                                      "currency": "USD"}}


def test_plans_details_show_the_hidden_communication(win, qtbot):
    win.model.load(scenario_from_dict(SCENARIO))
    qtbot.waitUntil(lambda: searched(win) and win.search.outcome is not None, timeout=60000)
    win.go_to(5)
    page = win.page("plans")
    page.view.selectRow(0)
    qtbot.waitUntil(lambda: "hidden under compute" in page.details.toPlainText(), timeout=10000)
    text = page.details.toPlainText()
    ev = page.table_model.plans[0].plan.evaluation
    shares = {k: v for k, v in ev.time.hidden_shares.items() if v > 0.0005}
    assert shares
    for k, v in shares.items():
        assert format_percent(v, 1) in text
