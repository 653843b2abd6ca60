"""The Training page's objective tooltip names every preference and RL objective the list offers: CPO (added in
round 7) was in the list as "CPO (no reference)" but the tooltip said only "ORPO/SimPO need none"."""

from __future__ import annotations


def test_objective_tooltip_names_each_objective(make_window):
    from gpuplanner.ui.pages.training_page import OBJECTIVES

    w = make_window(search_enabled=False)
    w.go_to(1)
    page = w.page("training")
    tip = page.objective.toolTip().lower()
    missing = [o for o in OBJECTIVES if o not in ("sft", "reward") and o not in tip]
    assert not missing, (missing, tip)
