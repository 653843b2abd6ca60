"""Round 15 (helper choice15): when the user's own layout is far from the search's best plan, the answer says so
where it is given.

The GRPO example (``tests/data/examples_fixed/7b-grpo-lora-8xh100-vllm.json``, goal "cheapest", a manual layout of 8 × H100 billed
as a whole machine for a month) recommended "about ¥70,000" for 4.6 hours, with 1 × H800 for ¥117 only in the
alternatives table further down. The document still stands for the user's layout (``app.answer.decide``); the
Answer now carries :class:`app.answer.BetterPlan` (the search's #1 when it beats that layout by more than the
search's tie, ``core.search.CHEAPEST_TIE`` / ``FASTEST_TIE``), and the PDF's section 2, ``estimate``, ``plan`` and
``project`` (text and ``--json``) show its one line. The new document's default card (``ui.model.default_scenario``)
is rented by the card-hour, not by the month.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from gpuplanner.cli import run_cli

ROOT = Path(__file__).resolve().parents[1]
GRPO = ROOT / "tests" / "data" / "examples_fixed" / "7b-grpo-lora-8xh100-vllm.json"  # manual 8 × H100, server-month, goal cheapest


@pytest.fixture(scope="module")
def grpo():
    from gpuplanner.app.answer import answer

    return answer(GRPO)


@pytest.fixture
def lang(app, request):
    from gpuplanner.report.render import install_language

    def use(code: str) -> None:
        install_language(None if code == "en" else code)

    request.addfinalizer(lambda: install_language(None))
    return use


# ------------------------------------------------------------------------ the rule, by hand

def _ev(cost, days, scenario="own", cur="CNY", fits=True):
    return SimpleNamespace(cost=cost, calendar_days=days, calendar_days_band=None, scenario=scenario, currency=cur,
                           fits=fits, num_gpus=1,
                           gpu_name="NVIDIA H800 SXM5 80GB (China)")


def _plan(cost, days):
    return SimpleNamespace(evaluation=_ev(cost, days, scenario="best"), gpu_name="NVIDIA H800 SXM5 80GB (China)",
                           num_gpus=1)


def test_the_tie_decides_when_the_line_is_said():
    """Cheapest: 100 against 107 is inside the 7% tie (the estimate cannot tell them apart), 100 against 107.5 is
    not; fastest the same on days. "value" has no figure a user reads as "better by": no line."""
    from gpuplanner.app.answer import better_plan
    from gpuplanner.core.search import CHEAPEST_TIE, FASTEST_TIE

    assert CHEAPEST_TIE == pytest.approx(0.07) and FASTEST_TIE == pytest.approx(0.07)
    assert better_plan(_ev(107.0, 1.0), _plan(100.0, 2.0), "cheapest") is None
    b = better_plan(_ev(107.5, 1.0), _plan(100.0, 2.0), "cheapest")
    assert b is not None and (b.cost, b.own_cost, b.days, b.own_days) == (100.0, 107.5, 2.0, 1.0)
    assert better_plan(_ev(1.0, 2.14), _plan(5.0, 2.0), "fastest") is None
    assert better_plan(_ev(1.0, 2.15), _plan(5.0, 2.0), "fastest") is not None
    assert better_plan(_ev(1e6, 9.0), _plan(1.0, 1.0), "value") is None
    # a layout that does not fit or has no price: the views already say it cannot be rented
    assert better_plan(_ev(1e6, 9.0, fits=False), _plan(1.0, 1.0), "cheapest") is None
    assert better_plan(_ev(None, 9.0), _plan(1.0, 1.0), "cheapest") is None


def test_the_grpo_example_names_the_searchs_best_plan(grpo):
    """The user's layout stays the plan; the line names the search's #1 with its own figures."""
    from gpuplanner.app.answer import SCENARIO
    from gpuplanner.formatting import format_plan_span
    from gpuplanner.core.search import CHEAPEST_TIE
    from gpuplanner.formatting import format_money

    assert grpo.chosen_by == SCENARIO
    own, best = grpo.evaluation, grpo.plans[0]
    assert own.num_gpus == 8 and "H100" in own.gpu_name  # the user's layout, never swapped
    b = grpo.better
    assert b is not None and b.plan is best and b.objective == "cheapest"
    assert own.cost > best.evaluation.cost * (1 + CHEAPEST_TIE)
    text = b.message.render()
    # each span as its plan's headline (the Plans table, ``plan``, the PDF's "Training takes about …")
    spans = {"span": format_plan_span(best.calendar_days, best.evaluation.calendar_days_band, "en")[0],
             "own_span": format_plan_span(own.calendar_days, own.calendar_days_band, "en")[0]}
    for part in (format_money(best.evaluation.cost, "CNY", "en", decimals=0), spans["span"],
                 format_money(own.cost, "CNY", "en", decimals=0), spans["own_span"],
                 f"{best.num_gpus} × {best.gpu_name}", "Use this layout", "automatic (best found)"):
        assert part in text, (part, text)


def test_automatic_layout_says_nothing():
    """With automatic layout the document stands for the search's #1 (or a plan taken from its ranking)."""
    from gpuplanner.app.answer import Answer, document_from_scenario
    from gpuplanner.ui.model import default_scenario

    s = default_scenario()
    assert s.parallel.auto
    assert Answer(document_from_scenario(s)).better is None
    # the same scenario with its layout fixed: the search's #1 (8 × H800, Megatron-Core, 7.9 hours, ¥667) beats the
    # default layout's own figures (10.5 hours, ¥883: 32% dearer) by more than the tie
    manual = s.model_copy(update={"parallel": s.parallel.model_copy(update={"auto": False})})
    assert Answer(document_from_scenario(manual)).better is not None


# ------------------------------------------------------------------------ every view: the same line

@pytest.mark.parametrize("code", ["en", "zh_CN"])
def test_the_pdf_says_it_under_the_recommendation(grpo, lang, code):
    from gpuplanner.app.answer import report_data
    from gpuplanner.report.render import _html_plan, _e, tr_text

    lang(code)
    data = report_data(GRPO, answer_=grpo)
    line = tr_text(data.better_plan)
    assert line and ("automatic (best found)" in line or "自动（取最优）" in line) and (f"¥{grpo.better.cost:,.0f}" in line)
    html = _html_plan(data)
    assert _e(line) in html
    # right after the headline "Rent 8 × …" paragraph, before the likely range
    assert html.index(_e(line)) < html.index("<table")
    if code == "zh_CN":
        assert "搜索的最佳方案" in line


@pytest.mark.parametrize("code", ["en", "zh_CN"])
@pytest.mark.parametrize("command", ["estimate", "plan", "project"])
def test_the_cli_prints_the_same_line(capsys, grpo, lang, code, command):
    from gpuplanner.report.render import tr_text
    from gpuplanner.core.messages import Msg

    assert run_cli([command, str(GRPO), "--lang", code]) == 0
    out = capsys.readouterr().out
    lang(code)
    line = tr_text(Msg.of(grpo.better.message))
    assert line in out, out[:2000]


@pytest.mark.parametrize("command", ["estimate", "plan", "project"])
def test_the_json_carries_it(capsys, grpo, command):
    assert run_cli([command, str(GRPO), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    b = data["better_plan"]
    best = grpo.plans[0].evaluation
    assert b["gpu"] == best.scenario.hardware.gpu and b["num_gpus"] == best.num_gpus
    assert b["cost"] == pytest.approx(best.cost, abs=0.01) and b["layout_cost"] == pytest.approx(grpo.evaluation.cost)
    assert b["message"] == grpo.better.message.render()


def test_the_json_says_none_for_automatic_layout(capsys, tmp_path):
    from gpuplanner.ui.model import default_scenario

    path = tmp_path / "auto.json"
    path.write_text(default_scenario().model_dump_json(exclude_unset=True))
    assert run_cli(["estimate", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["better_plan"] is None


# ------------------------------------------------------------------------ the new document's first screen

def test_a_new_documents_first_screen_is_rented_by_the_card_hour():
    """The default document priced 8 × H100 as "¥70,000 (whole machines per month)" for a 10-hour job (the mainland
    table has no H100 card-hour quote). Its card is now one the price table quotes by the card-hour, and its first
    screen costs that job's hours, not a month."""
    from gpuplanner.app.answer import evaluate_shown
    from gpuplanner.ui.model import default_scenario

    ev = evaluate_shown(default_scenario())
    assert ev.fits and ev.calendar_days < 1.0
    assert ev.rental_mode == "card_hour" and ev.cost == ev.mode_costs["card_hour"]
    # a month of whole machines would bill the job many times over; the card-hours bill its hours
    assert ev.mode_costs.get("month", float("inf")) > 10 * ev.cost
