"""The Plans page writes money as the live panel, the CLI and the PDF do ("$194", "¥70,000"): its details read
"194 USD" in the cost-by-mode table, the likely range, the rent-or-build table and "it costs 7 USD more", beside
"$194" on the live panel for the same plan."""

from __future__ import annotations

from gpuplanner.core.scenario import scenario_from_dict
from gpuplanner.formatting import format_money
from tests.ui.conftest import first_plan_details

SCENARIO = {"model": {"preset": "llama-3-8b"}, "training": {"method": "full", "framework": "fsdp"},
            "hardware": {"gpu": "h200-sxm-141gb", "num_gpus": 8}, "parallel": {"zero": 3},
            "data": {"tokens": "2B"}, "constraints": {"max_gpus": 16, "currency": "USD",
                                                      "gpu_candidates": ["h200-sxm-141gb", "h100-sxm-80gb"]}}


def test_plans_details_write_money_with_its_symbol(win, qtbot):
    win.model.load(scenario_from_dict(SCENARIO))
    page = first_plan_details(win, qtbot, "Rent, total")
    text = page.details.toPlainText()
    row = page.table_model.plans[0]
    ev = row.plan.evaluation
    assert format_money(ev.rent_vs_build.rent_total, "USD", decimals=0) in text
    for v in ev.mode_costs.values():
        assert format_money(v, "USD", decimals=0) in text
    # the page's own lines: no "<amount> USD" (the advisor's sentences from core/search.py are left to it)
    own = [ln for ln in text.splitlines() if ln.strip().endswith(" USD")]
    assert not own, own


def test_details_name_the_framework_as_its_sentences_do(win, qtbot):
    """The details read "Framework: Megatron" over "Framework: Megatron-Core, as set in the scenario …": the table's
    short name (narrow column) stood above the sentences' product name. The details use the product name."""
    win.model.load(scenario_from_dict(SCENARIO))
    page = first_plan_details(win, qtbot, "Rent, total")
    plan = page.table_model.plans[0].plan
    assert plan.framework_reason
    text = page.details.toPlainText()
    # ux11: the sentence "Framework: <product>, as set in the scenario …" is the heading (no repeated line above it)
    assert f"\nFramework: {plan.framework_name}, " in text, text[:2000]


def test_plans_details_advisor_sentences_write_money_with_its_symbol(win, qtbot):
    """The advisor's sentences in the details ("How it works": "… 0.4 calendar days, 194 USD", "card-hours on
    demand: 194 USD; the next best … 419 USD") write money as the page's tables do ("$194")."""
    import re

    win.model.load(scenario_from_dict(SCENARIO))
    page = first_plan_details(win, qtbot, "Rent, total")
    text = page.details.toPlainText()
    plan = page.table_model.plans[0].plan
    coded = [ln for ln in text.splitlines() if re.search(r"\d USD\b(?!/)", ln)]
    assert not coded, coded
    # below a day the span reads in hours, as the Project page (ux21)
    assert (f"calendar days, {format_money(plan.cost, 'USD', decimals=0)}" in text
            or f"in calendar time, {format_money(plan.cost, 'USD', decimals=0)}" in text), text[:3000]
