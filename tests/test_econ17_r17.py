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
    # The Shenzhen example's phases: clean 20, LoRA experiments 363, full fine-tuning 12,750, serving 3,954
    # (total 17,087). advice19 (round 17): the full fine-tuning phase (4 × A800 DeepSpeed ZeRO-3, full recompute:
    # modelled MFU 41.7%, HFU 54.6%) borrows Narayanan et al.'s 46% HFU and is now compared on its HFU (like with
    # like), so it is timed at 46% HFU (MFU 35.1%): ¥10,740 → ¥12,750, total 15,077 → 17,087. A ¥12,000 budget: over by 15,077 − 12,000 at the point already; the phase to cut is the full
    # fine-tuning, the largest. JSON, text (en and zh) read the same ProjectBudget.
    from gpuplanner.cli import run_cli

    path = _budgeted_example(tmp_path, 12_000.0)
    assert run_cli(["project", str(path), "--json"]) == 0
    j = json.loads(capsys.readouterr().out)["budget"]
    assert j["budget"] == 12_000.0 and j["within"] is False and j["cut"] == "full fine-tuning"
    assert j["total"] == pytest.approx(17_087, abs=2) and j["total_far_end"] >= j["total"]
    assert j["over_by"] == pytest.approx(j["total_far_end"] - 12_000.0)
    ft = next(p for p in j["phases"] if p["name"] == "full fine-tuning")
    assert ft["far_end"] >= ft["cost"] == pytest.approx(12_750, abs=2)
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


# ---------------------------------------------------------------------------------------------------------------
# (3) the guide's breakpoints on hand-derived cases (planning-guide.md §4): one 8-card server at 10 per card-hour,
# 20,000 a month (and 6,000 a week where said); setup 1 h per fresh start, checkpoints of 14 B × 8e9 parameters.
# Break-even of the month against card-hours: 20,000 ÷ (8 × 10) = 250 h a month = 250 × 7/30 = 58.3 h/week.

def _bill(price, train, hpw, phase="stable"):
    r = rental_costs(price, num_gpus=8, nodes=1, train_hours=train, ckpt_bytes=14 * 8e9, setup_hours=1.0,
                     hours_per_week=hpw, phase=phase)
    costs = {m: float(r.costs[i][0]) for i, m in enumerate(costmod.MODES)}
    return costmod.MODES[int(r.best[0])], costs, float(r.calendar_hours[costmod.MODES.index("month")][0])


def _p(week=None):
    return _h800(card_hour=10.0, week=week, month=20_000.0)


def test_whole_machine_vs_card_hours_three_cases():
    assert monthly_crossover_hours(_p()) == pytest.approx(250 * 7 / 30)  # 58.3 h/week
    # A. fragmented research: 40 h of work in 4-h sessions at 20 h/week (10 sessions, each a fresh 1-h setup):
    # card-hours ≈ 8 × 10 × (40 + 10 + interruptions) ≈ 4,300; a month 20,000 → card-hours (guide: "fragmented jobs
    # of a few hours favour card-hours")
    mode, c, _ = _bill(_p(), 40.0, 20.0, "research")
    assert mode == "card_hour" and 4_000 < c["card_hour"] < 4_500 and c["month"] == 20_000
    # B. 600 h at 168 h/week (25 days, one month): card-hours ≈ 8 × 10 × 603 = 48,200; the month 20,000 → month
    # (guide: "more than ~40 hours a week for several weeks favours the whole machine")
    mode, c, cal = _bill(_p(), 600.0, 168.0)
    assert mode == "month" and c["month"] == 20_000 and cal < 720 and c["card_hour"] == pytest.approx(80 * cal, rel=0.01)
    # C. 100 h at 168 h/week: above the 58.3 h/week break-even, but 4 days do not fill the month paid for:
    # card-hours 8 × 10 × 101 ≈ 8,100 < 20,000 → card-hours ("for several weeks"), and the advice says why
    mode, c, _ = _bill(_p(), 100.0, 168.0)
    assert mode == "card_hour" and c["card_hour"] < 8_200
    lines = [m.render() for m in costmod.rental_advice(_p(), "card_hour", costs=c, hours_per_week=168.0,
                                                       phase="stable", num_gpus=8, currency="CNY", run_days=4.2)]
    assert any(x.startswith("Not for this plan") for x in lines)


def test_week_vs_month_three_cases_and_ten_times_the_data():
    # 6,000 a week, 20,000 a month: a month costs less than weeks from 20,000 / 6,000 = 3.3 weeks on
    p = _p(week=6_000.0)
    # W1. 160 h (6.7 days): one week 6,000 against a month 20,000 → the week
    mode, c, _ = _bill(p, 160.0, 168.0)
    assert mode == "week" and c["week"] == 6_000 and c["month"] == 20_000
    # W2. 660 h (27.6 days): four weeks 24,000 against one month 20,000 → the month
    mode, c, _ = _bill(p, 660.0, 168.0)
    assert mode == "month" and c["week"] == 24_000 and c["month"] == 20_000
    # W3. ten times W1's data, 1,660 h (69.4 days): ten weeks 60,000, three months 60,000, two months and the rest
    # (229 h) in two weeks 2 × 20,000 + 2 × 6,000 = 52,000 → the month, renewed by the week at the end. Before:
    # months were billed whole (60,000) and the month capped card-hours won at 58,101. Guide: "ten times more data
    # than expected turns weekly rental into monthly rental"
    mode, c, cal = _bill(p, 1_660.0, 168.0)
    assert 2 * 720 + 168 < cal < 2 * 720 + 2 * 168
    assert mode == "month" and c["month"] == 52_000 and c["week"] == 60_000
    from gpuplanner.core.cost import months_then_weeks

    # the rest costs at most one more month: 2 months + 5 weeks (30,000) would be dearer than a third month
    assert float(months_then_weeks(2 * 720 + 700, 20_000.0, 6_000.0)) == 60_000
    assert float(months_then_weeks(100.0, 20_000.0, 6_000.0)) == 20_000  # under a month: the week mode's job


def test_rent_vs_build_three_cases():
    from gpuplanner.core.cost import BuildInputs, cheapest_card_hour, rent_vs_build

    # R1. one 12-h job on a new 8 × H100 server (2.7M, gpu-catalog.md §3.4): building buys the server for it:
    # 2,700,000 + 10.2 kW × 1.3 × 0.7001 × 12 h = 2,700,111 against 1,920 of rent → rent, no payback
    h100 = BuildInputs(machines=1, gpus_per_machine=8, machine_price=2_700_000.0, currency="CNY",
                       power_kw_per_machine=10.2, pue=1.3, tariff_per_kwh=0.7001, colocation_per_machine_month=0.0,
                       ops_staff_per_month=0.0, spare_rate_per_year=0.0)
    r1 = rent_vs_build(h100, rent_total=1_920.0, busy_hours=12.0, horizon_months=12 / 720, rent_card_hour=20.0)
    assert r1.verdict == "rent" and r1.payback_months is None
    assert r1.build_total == pytest.approx(2_700_000 + 10.2 * 1.3 * 0.7001 * 12)
    # R2. long steady work: 2 servers busy 36 months, renting 100,000 a month. Owning: hardware 1,000,000; rack
    # 2 × 2,000 × 36 = 144,000; electricity 2 × 5 kW × 1.5 × 1.0 × 36 × 720 = 388,800; staff 216,000; spares
    # 0.12 × 1e6 × 3 = 360,000 → 2,108,800 < 3,600,000 → build, payback 1e6 / (100,000 − 1,108,800 / 36) = 14.45
    two = BuildInputs(machines=2, gpus_per_machine=8, machine_price=500_000.0, currency="CNY", depreciation_years=3,
                      power_kw_per_machine=5.0, pue=1.5, tariff_per_kwh=1.0, colocation_per_machine_month=2000.0,
                      ops_staff_per_month=6000.0, spare_rate_per_year=0.12)
    r2 = rent_vs_build(two, rent_total=3_600_000.0, busy_hours=36 * 720.0, horizon_months=36, single_job=False)
    assert r2.verdict == "build" and r2.build_total == pytest.approx(2_108_800.0)
    assert r2.payback_months == pytest.approx(1e6 / (100_000 - 1_108_800 / 36))
    # R3. "with long steady work, yearly whole-machine rental or building may win": an 8 × RTX 4090 server at
    # 200,000 (an assumption for the case), 3 years, colocation 3,000 a month, 4 kW, PUE 1.3, 0.7 per kWh, against
    # AutoDL's 1.98 per card-hour and omniyq's 7,800 per server-month. Fixed F = 200,000/36 + 3,000 = 8,555.6 a month;
    # a busy month's power E = 4 × 1.3 × 0.7 × 720 = 2,620.8. Against card-hours (1.98 × 8 × 720 = 11,404.8) owning
    # would pay off at u* = 8,555.6 / (11,404.8 − 2,620.8) = 97% busy; against the monthly rent (7,800 = 1.354 per
    # card-hour) u* = 8,555.6 / (7,800 − 2,620.8) = 1.65 > 1: owning never pays off. The plan reads the cheapest.
    rtx = BuildInputs(machines=1, gpus_per_machine=8, machine_price=200_000.0, currency="CNY", depreciation_years=3,
                      power_kw_per_machine=4.0, pue=1.3, tariff_per_kwh=0.7, colocation_per_machine_month=3000.0,
                      ops_staff_per_month=0.0, spare_rate_per_year=0.0)
    price = GpuPrice(gpu="rtx-4090-24gb", currency="CNY", card_hour=1.98, machine_week=None, machine_month=7_800.0,
                     spot_card_hour=None, machine_gpus=8, source="t", source_date="2026-12", is_default=False)
    assert cheapest_card_hour(price) == pytest.approx(7_800 / 8 / 720)
    on_cards = rent_vs_build(rtx, rent_total=1e5, busy_hours=2_000.0, horizon_months=12, single_job=False,
                             rent_card_hour=1.98)
    assert on_cards.break_even_utilisation == pytest.approx((200_000 / 36 + 3_000) / (1.98 * 8 * 720 - 2_620.8))
    cheapest = rent_vs_build(rtx, rent_total=1e5, busy_hours=2_000.0, horizon_months=12, single_job=False,
                             rent_card_hour=cheapest_card_hour(price))
    assert cheapest.break_even_utilisation is None and "never pays off" in cheapest.sentence.render()
