"""Round 15 (helper choice15), the app's side of tests/test_choice15_better_plan.py: with a manual layout far from
the search's best plan (the GRPO example: 8 × H100 by the month, ¥70,000 for 4.6 hours; the search's #1 1 × H800,
¥117), the live panel, the Plans page and the Project page say so in the line the CLI and the PDF print
(``app.answer.BetterPlan.message``, decided by ``app.answer.better_plan``); with automatic layout they say nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GRPO = ROOT / "tests" / "data" / "examples_fixed" / "7b-grpo-lora-8xh100-vllm.json"


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_every_page_says_the_line_the_cli_prints(make_window, language, qtbot, lang):
    from gpuplanner.app.answer import answer
    from gpuplanner.ui.text import tr_msg

    language.install(lang)
    w = make_window()
    w.resize(1280, 800)
    assert w.open_path(GRPO, show_errors=False)
    qtbot.waitUntil(lambda: w.search.state == "done" and w.estimator.result is not None
                    and bool(w.live.better.text()), timeout=180000)
    expected = tr_msg(answer(GRPO).better.message)  # the Answer the CLI and the PDF read
    assert w.live.better.text() == expected and w.live.better.isVisibleTo(w.live)
    plans = w.page("plans")
    plans._update_better()
    assert plans.better.text() == expected
    project = w.page("project")
    project._update_better()
    assert project.better.text() == expected
    better = answer(GRPO).better  # the search's #1 by cost (1 × A800 or 1 × H800: the price tie decides)
    assert f"¥{better.cost:,.0f}" in expected and ("automatic (best found)" in expected or "自动（取最优）" in expected)
    # the document keeps the user's layout: the live panel's plan line is still 8 × H100 and its price
    assert w.model.scenario.hardware.num_gpus == 8 and "H100" in w.live.plan_value.text()


def test_automatic_layout_shows_no_line(make_window, qtbot):
    w = make_window()
    w.resize(1280, 800)
    assert w.model.scenario.parallel.auto  # the new document's default
    qtbot.waitUntil(lambda: w.search.state == "done" and w.estimator.result is not None, timeout=180000)
    w.live.refresh_better()
    assert w.live.better.text() == "" and not w.live.better.isVisibleTo(w.live)
