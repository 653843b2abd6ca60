"""The money side (issue 35 round 17, econ17): one month across the plan and the quotes, a project compared with its
budget, and the guide's three breakpoints (rent vs build, whole machine vs card-hours, week vs month) checked on
hand-derived cases. Every expected figure is worked by hand in the test's comment and in
``docs/notes/2026-12-07/issue-35-r17-econ17.md``.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest

from gpuplanner.core import cost as costmod
from gpuplanner.core import catalog_hw, quotes, units
from gpuplanner.core.cost import GpuPrice, monthly_crossover_hours, rental_costs, weekly_crossover_hours
from gpuplanner.core.quotes import Offer, QuotedPlan, VendorQuote, compare


def _h800(card_hour=10.5, week=None, month=69_000.0) -> GpuPrice:
    # AutoDL H800 list 10.50 per card-hour (autodl.com originalPrice, list file 2026-09-24); 云擎天下 H800 ×8
    # 69,000 per server-month (omniyq.com via Gavinzll/compute-market-report cmis_snapshot_2026-08-22 @64295991)
    return GpuPrice(gpu="h800-sxm-80gb", currency="CNY", card_hour=card_hour, machine_week=week, machine_month=month,
                    spot_card_hour=None, machine_gpus=8, source="test", source_date="2026-12", is_default=False)


def _plan(**kw) -> QuotedPlan:
    base = dict(gpu_id="h800-sxm-80gb", gpu_name="H800", gpu_memory_gib=80.0, num_gpus=8, gpus_per_node=8, nodes=1,
                card_hours=5_000.0, calendar_days=30.2, calendar_days_band=None, setup_hours=0.0,
                hours_per_week=168.0, currency="CNY", storage_tb=0.0, egress_tb=0.0, inter_node=None,
                inter_node_gbps=None)
    base.update(kw)
    return QuotedPlan(**base)


# ---------------------------------------------------------------------------------------------------------------
# (1) one month: 30 days = 720 h, in the plan, the quotes, the catalogue's derived prices and economics.json


def test_one_month_everywhere_is_thirty_days():
    # GPUGEEK "Monthly = 30x24h", 共绩 "30 天包", 优云智算 包月 1,154.64 = 1.60/h (÷ 720): the vendors' month
    assert units.DAYS_PER_MONTH == 30 and units.HOURS_PER_MONTH == 720.0
    assert costmod.HOURS_PER_MONTH == units.HOURS_PER_MONTH
    assert quotes.PERIOD_DAYS["server_month"] * 24 == quotes.PERIOD_DAYS["card_month"] * 24 == units.HOURS_PER_MONTH
    assert catalog_hw.economics_default("hours_per_month") == units.HOURS_PER_MONTH
    from gpuplanner.core.advisor_savers import TERM_DAYS
    assert TERM_DAYS["month"] == units.DAYS_PER_MONTH


def test_a_job_just_over_thirty_days_is_two_months_in_the_plan_as_in_the_quotes():
    # A job held 30.2 days (725 h) on one 8 × H800 server at 69,000 a month: the vendor bills two 30-day months
    # (138,000). Before, the plan's 730-h month billed one (69,000) while the quotes billed two.
    price = _h800(card_hour=None)
    found = None
    for train in np.arange(690.0, 730.0, 0.25):
        r = rental_costs(price, num_gpus=8, nodes=1, train_hours=train, ckpt_bytes=1e9, setup_hours=0.5,
                         hours_per_week=168.0, phase="stable")
        cal = float(r.calendar_hours[costmod.MODES.index("month")][0])
        if 721.0 < cal < 729.0:
            found = float(r.costs[costmod.MODES.index("month")][0])
            break
    assert found == pytest.approx(2 * 69_000.0)
    q = VendorQuote(provider="omniyq", offers=[Offer(gpu="h800-sxm-80gb", unit="server_month", price=Decimal(69000))])
    assert compare([q], _plan(calendar_days=30.2)).vendors[0].breakdown["compute"] == Decimal("138000.00")


def test_plan_and_quotes_give_the_same_whole_machine_break_even():
    # 69,000 ÷ 8 cards ÷ 10.50 = 821.4 card-hours a month per card; ÷ (30/7) weeks = 191.7 h/week (both). Before:
    # the plan said 821.4 × 168 / 730 = 189.0 h/week, the quotes 191.7.
    plan_side = monthly_crossover_hours(_h800())
    assert plan_side == pytest.approx(69_000 / 8 / 10.5 * 7 / 30)
    hourly = VendorQuote(provider="AutoDL", setup_billed="no",
                         offers=[Offer(gpu="h800-sxm-80gb", unit="card_hour", price=Decimal("10.50"))])
    monthly = VendorQuote(provider="omniyq",
                          offers=[Offer(gpu="h800-sxm-80gb", unit="server_month", price=Decimal(69000))])
    w = compare([hourly, monthly], _plan()).whole_vs_hourly
    assert w is not None and w.break_even_hours_per_week == pytest.approx(round(plan_side, 1))


def test_a_per_card_hour_monthly_quote_becomes_a_thirty_day_month():
    # prices.json's 算家云 row: a 30-day package quoted per card-hour, 1.24 × 720 h = 892.80 per card-month
    assert catalog_hw._normalise_quote(1.24, "card_hour", "monthly", None) == ("card_month", pytest.approx(892.8))


# ---------------------------------------------------------------------------------------------------------------
# (2) a project compared with its budget at the likely range's far end, per phase, and the phase to cut

from gpuplanner.core.project import PhaseBudget, ProjectBudget, evaluate_project, single_phase_project  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_budget_lines_by_hand_and_the_phase_to_cut():
    # advice17's request 02 as it was before its DPO fix: data 50, SFT 700 (far end 770), DPO 70,000, serve 14,117
    # against ¥80,000: far end 50 + 770 + 70,000 + 14,117 = 84,937, 4,937 over; the largest phase is the DPO month
    # (70,000), 4,937 / 70,000 = 7% of it
    b = ProjectBudget(budget=80_000.0, currency="CNY", phases=(
        PhaseBudget("data prep", 50.0, 50.0), PhaseBudget("sft", 700.0, 770.0), PhaseBudget("dpo", 70_000.0, 70_000.0),
        PhaseBudget("serve", 14_117.0, 14_117.0)))
    assert b.total == pytest.approx(84_867.0) and b.far_end == pytest.approx(84_937.0)
    assert b.over_by == pytest.approx(4_937.0) and b.cut.name == "dpo"
    lines = [m.render() for m in b.lines()]
    assert lines[0] == ("Over the budget of ¥80,000: the project costs ¥84,867, ¥84,937 at the likely range's far end, "
                        "¥4,937 over.")
    assert lines[2] == "sft: ¥700, ¥770 at the far end (1% of the total)."
    assert lines[-1] == ("Cut dpo first, the largest phase: it must come down by ¥4,937 (7% of its far end) for the "
                         "project to fit the budget.")
    # a budget no single phase can rescue: 84,937 − 10,000 = 74,937 over; without the DPO 4,937 remain
    low = ProjectBudget(budget=10_000.0, currency="CNY", phases=b.phases)
    assert [m.render() for m in low.lines()][-1] == (
        "Cutting dpo, the largest phase, is not enough: even without it the project is ¥4,937 over; cut more phases "
        "or raise the budget.")
    # a phase without a price: no comparison
    unknown = ProjectBudget(budget=10_000.0, currency="CNY", phases=(PhaseBudget("a", None, None),))
    assert unknown.far_end is None and "cannot be compared" in unknown.lines()[0].render()


def test_a_one_phase_project_within_its_budget_at_the_point_but_not_at_the_far_end():
    # llama3-8b-full example: the plan's cost and its band's upper end; a budget between them is met at the point
    # estimate and missed at the far end, by (far − budget)
    from gpuplanner.io.scenario_files import load_scenario

    s, _ = load_scenario(EXAMPLES / "llama3-8b-full.json")
    from gpuplanner.core.evaluate import evaluate

    ev = evaluate(s)
    far = max(ev.cost_band[1], ev.cost)
    assert far > ev.cost * 1.01
    budget = round((ev.cost + far) / 2)
    s2 = s.model_copy(update={"constraints": s.constraints.model_copy(update={"budget": float(budget)})})
    res = evaluate_project(single_phase_project(s2), s2, what_if=False)
    b = res.budget
    assert b is not None and b.total == pytest.approx(ev.cost) and b.far_end == pytest.approx(far)
    assert b.over_by == pytest.approx(far - budget) and b.cut is not None
    assert "but" in b.lines()[0].render() and res.to_json()["budget"]["within"] is False
    # no budget: nothing said
    assert evaluate_project(single_phase_project(s), s, what_if=False).budget is None


def _budgeted_example(tmp_path, budget: float) -> Path:
    d = json.loads((EXAMPLES / "shenzhen-7b-domain-project.gpuplan").read_text(encoding="utf-8"))
    d["scenario"]["constraints"]["budget"] = budget
    p = tmp_path / "budgeted.gpuplan"
    p.write_text(json.dumps(d), encoding="utf-8")
    return p


def test_project_command_compares_the_shenzhen_project_with_its_budget(tmp_path, capsys):
    # The Shenzhen example's phases: clean 20, LoRA experiments 363, full fine-tuning 10,740, serving 3,954
    # (total 15,077). A ¥12,000 budget: over by 15,077 − 12,000 at the point already; the phase to cut is the full
    # fine-tuning, the largest. JSON, text (en and zh) read the same ProjectBudget.
    from gpuplanner.cli import run_cli

    path = _budgeted_example(tmp_path, 12_000.0)
    assert run_cli(["project", str(path), "--json"]) == 0
    j = json.loads(capsys.readouterr().out)["budget"]
    assert j["budget"] == 12_000.0 and j["within"] is False and j["cut"] == "full fine-tuning"
    assert j["total"] == pytest.approx(15_077, abs=2) and j["total_far_end"] >= j["total"]
    assert j["over_by"] == pytest.approx(j["total_far_end"] - 12_000.0)
    ft = next(p for p in j["phases"] if p["name"] == "full fine-tuning")
    assert ft["far_end"] >= ft["cost"] == pytest.approx(10_740, abs=2)
    assert run_cli(["project", str(path), "--lang", "en"]) == 0
    text = capsys.readouterr().out
    assert "Over the budget of ¥12,000" in text and "Cut full fine-tuning first, the largest phase" in text
    assert run_cli(["project", str(path), "--lang", "zh_CN"]) == 0
    zh = capsys.readouterr().out
    assert "超出预算 ¥12,000" in zh and "先削减最大的阶段 full fine-tuning" in zh


def test_report_and_project_page_show_the_budget_lines(tmp_path, qapp=None):
    # the PDF's project section and the Project page print ProjectBudget.lines(), as the project command does
    from gpuplanner.report.content import project_info
    from gpuplanner.report.render import _html_project_budget

    from gpuplanner.io.scenario_files import load_scenario

    s, _ = load_scenario(EXAMPLES / "llama3-8b-full.json")
    s2 = s.model_copy(update={"constraints": s.constraints.model_copy(update={"budget": 1_000.0})})
    res = evaluate_project(single_phase_project(s2), s2, what_if=False)
    info = project_info(res)
    assert info.over_budget and len(info.budget) == 3  # verdict, the phase, the cut
    html = _html_project_budget(info)
    assert "Over the budget of ¥1,000" in html and "#b00020" in html and "Cut " in html
