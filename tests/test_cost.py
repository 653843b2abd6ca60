"""Rental modes, crossovers, overheads and rent-vs-build, checked against hand-computed numbers."""

from __future__ import annotations

import math

import numpy as np
import pytest

from gpuplanner.core import cost
from gpuplanner.core.cost import (
    BuildInputs,
    GpuPrice,
    Overheads,
    PriceTable,
    complete_price,
    rent_vs_build,
    rental_costs,
)

NO_OVERHEAD = Overheads(env_setup_hours=0.0, resume_hours=0.0, gpu_interruptions_per_gpu_hour=0.0,
                        session_hours=10.0, research_session_hours=4.0)


def _price(card_hour=10.0, week=None, month=None, spot=None, g=8):
    return complete_price(GpuPrice(gpu="x", currency="CNY", card_hour=card_hour, machine_week=week, machine_month=month,
                                   spot_card_hour=spot, machine_gpus=g, source="test", source_date="2026"))


def _mode_costs(r):
    return {m: float(r.costs[i][0]) for i, m in enumerate(cost.MODES)}


def test_complete_price_never_derives_a_package_from_hourly_prices():
    p = _price(card_hour=10.0)
    # issue 31: a month at the hourly rate × 720 h (the 30-day month, econ17) is a price nobody offers; the mode is simply not compared
    assert p.machine_week is None and p.machine_month is None and p.derived == ()
    r = rental_costs(p, num_gpus=8, nodes=1, train_hours=100.0, ckpt_bytes=0.0, setup_hours=0.0,
                     hours_per_week=168.0, phase="stable", overheads=NO_OVERHEAD)
    assert not np.isfinite(r.costs[cost.MODES.index("month")][0])
    # a monthly lease is not an hourly rental: no card-hour price is made up from it
    q = complete_price(GpuPrice(gpu="x", currency="CNY", card_hour=None, machine_week=None, machine_month=73000.0,
                                spot_card_hour=None, machine_gpus=8, source="t", source_date="t"))
    assert q.card_hour is None and q.machine_week is None and q.derived == () and q.has_price
    assert q.mode_card_hour("month") == pytest.approx(73000 / 720 / 8)  # 12.67 per card-hour of the 30-day lease
    r = rental_costs(q, num_gpus=8, nodes=1, train_hours=100.0, ckpt_bytes=0.0, setup_hours=0.0,
                     hours_per_week=168.0, phase="stable", overheads=NO_OVERHEAD)
    assert cost.MODES[int(r.best[0])] == "month" and float(r.best_cost[0]) == pytest.approx(73000.0)
    assert not np.isfinite(r.costs[cost.MODES.index("card_hour")][0])


def test_price_table_defaults_and_overrides():
    t = PriceTable("CNY", exchange_rate=7.0)
    d = t.get("rtx-4090-24gb")
    # AutoDL's list price per card-hour, and AutoDL's own 包月 package (1052 per card-month), each as quoted
    assert d.is_default and d.card_hour == 1.98 and d.machine_gpus == 1 and d.kind == "list"
    assert d.machine_month == pytest.approx(1052.0) and d.kinds["machine_month"] == "package"
    assert dict(d.basis) == {"card_hour": "on_demand:card_hour", "machine_month": "monthly:card_month"}
    t.set_quote("rtx-4090-24gb", card_hour=2.0, machine_week=1500.0)
    q = t.get("rtx-4090-24gb")
    assert not q.is_default and q.card_hour == 2.0 and q.machine_week == 1500.0
    assert q.machine_month == pytest.approx(1052.0)  # the quoted default the user did not replace is kept
    assert q.basis["card_hour"] == "your_quote" and q.basis["machine_month"] == "monthly:card_month"
    assert q.kinds["card_hour"] == "your_quote" and q.kinds["machine_month"] == "package"
    t.set_quote("h100-sxm-80gb", card_hour=2.0, currency="USD", machine_month=None)
    h = t.get("h100-sxm-80gb")
    assert h.card_hour == pytest.approx(14.0)  # 2 USD × 7
    # a USD (worldwide) table converts the CNY-only list price at the rate, labelled converted
    u = PriceTable("USD", exchange_rate=7.0).get("rtx-4090-24gb")
    assert u.card_hour == pytest.approx(1.98 / 7.0) and u.kind == "converted"
    # ... but not a China-market SKU's (RTX 4090D), unless the plan asks for converted prices
    assert PriceTable("USD", exchange_rate=7.0).get("rtx-4090d-24gb") is None
    d = PriceTable("USD", exchange_rate=7.0, converted=True).get("rtx-4090d-24gb")
    assert d.card_hour == pytest.approx(2.08 / 7.0) and d.kind == "converted"


def test_price_table_from_constraints_dict():
    class C:
        currency = "USD"
        exchange_rate = 8.0
        prices = {"a800-sxm-80gb": {"card_hour": 16.0, "currency": "CNY"}}

    t = PriceTable.from_constraints(C)
    assert t.get("a800-sxm-80gb").card_hour == pytest.approx(2.0)


@pytest.mark.parametrize("hours, expect", [(60.0, "card_hour"), (69.0, "card_hour"), (71.0, "week"), (100.0, "week")])
def test_weekly_crossover_at_70_hours(hours, expect):
    # 8 cards × 10/h; a machine-week costs 5,600 → pays off above 5600 / (8·10) = 70 h/week
    p = _price(card_hour=10.0, week=5600.0, month=10 ** 9)
    assert cost.weekly_crossover_hours(p) == pytest.approx(70.0)
    work = 10 * hours  # exactly 10 weeks of work at this pattern
    r = rental_costs(p, num_gpus=8, nodes=1, train_hours=work, ckpt_bytes=0.0, setup_hours=0.0,
                     hours_per_week=hours, phase="stable", overheads=NO_OVERHEAD)
    c = _mode_costs(r)
    assert c["card_hour"] == pytest.approx(8 * work * 10)
    assert c["week"] == pytest.approx(10 * 5600)
    assert cost.MODES[int(r.best[0])] in (expect, "hybrid_week" if expect == "week" else expect)
    assert min(c["card_hour"], c["week"]) == pytest.approx(8 * work * 10 if expect == "card_hour" else 56000)


def test_monthly_crossover_hours():
    # machine-month 29,200 for 8 cards at 10/h: 29200/80 = 365 h per month = 365·168/720 = 85.17 h/week (30-day month)
    p = _price(card_hour=10.0, month=29200.0)
    assert cost.monthly_crossover_hours(p) == pytest.approx(365 * 7 / 30)


def test_setup_paid_each_fresh_session_in_card_mode():
    p = _price(card_hour=10.0, week=10 * 168 * 8)
    ov = Overheads(env_setup_hours=0.0, resume_hours=0.25, gpu_interruptions_per_gpu_hour=0.0,
                   research_session_hours=4.0)
    r = rental_costs(p, num_gpus=2, nodes=1, train_hours=30.0, ckpt_bytes=0.0, setup_hours=1.0,
                     hours_per_week=40.0, phase="research", overheads=ov)
    # card-hours: 3 productive hours per 4-hour session → 10 sessions → 30 + 10·1 = 40 h per GPU
    assert r.card_billed_hours[0] == pytest.approx(40.0)
    assert _mode_costs(r)["card_hour"] == pytest.approx(2 * 40 * 10)
    # whole machine: 3.75 productive h/session → 8 sessions: 30 + 1 setup + 7 × 0.25 resume = 32.75 h on the clock
    assert r.calendar_hours[2][0] == pytest.approx(32.75 * 168 / 40)
    # one machine-week (10·168·8) covers the 137.6 calendar hours
    assert _mode_costs(r)["week"] == pytest.approx(13440.0)
    assert cost.MODES[int(r.best[0])] == "card_hour"


def test_hybrid_weekly_cap():
    p = _price(card_hour=10.0, week=5000.0, month=10 ** 9)
    r = rental_costs(p, num_gpus=8, nodes=1, train_hours=188.0, ckpt_bytes=0.0, setup_hours=0.0,
                     hours_per_week=168.0, phase="stable", overheads=NO_OVERHEAD)
    c = _mode_costs(r)
    assert c["card_hour"] == pytest.approx(8 * 188 * 10)  # 15,040
    assert c["week"] == pytest.approx(2 * 5000)  # 188 h → 2 weeks
    # week 1 capped at 5,000; the last 20 h cost 8·20·10 = 1,600 < cap
    assert c["hybrid_week"] == pytest.approx(6600.0)
    assert cost.MODES[int(r.best[0])] == "hybrid_week"


def test_young_checkpoint_overhead_by_hand():
    # 1000 GPUs: M = 1/(1000·419/(54·24·16384)) = 50.677 h; 70B×14 B over 125 nodes × 1 GB/s: δ = 7.84 s;
    # τ = √(2δM) = 0.46982 h; overhead = δ/τ + (τ/2 + 0.25)/M = 0.014204
    frac, tau, mtbi = cost.interruption_overhead(1000, 125, 70e9 * 14, 0.25, 1.0)
    assert float(mtbi) == pytest.approx(50.677, rel=1e-4)
    assert float(tau) == pytest.approx(0.46982, rel=1e-4)
    assert float(frac) == pytest.approx(0.014204, rel=1e-3)


def test_interruptions_grow_cost_with_scale():
    p = _price(card_hour=10.0)
    ov = Overheads()
    r = rental_costs(p, num_gpus=np.array([8, 1024]), nodes=np.array([1, 128]), train_hours=np.array([1000.0, 1000.0]),
                     ckpt_bytes=70e9 * 14, setup_hours=0.0, hours_per_week=168.0, phase="stable", overheads=ov)
    per_gpu_hours = r.card_billed_hours
    assert per_gpu_hours[1] > per_gpu_hours[0] > 1000.0


def test_data_migration_hours():
    # 1T tokens with a 128,256-entry vocabulary: int32 → 4 TB; at 1 Gb/s: 4e12·8/1e9 s = 8.889 h
    assert cost.data_migration_hours(1e12, 128256, 0, 1.0) == pytest.approx(8.8889, rel=1e-4)
    # 32k vocabulary → uint16; plus 7B starting weights at 2 B: (2e9·2 + 14e9)·8/1e9/3600
    assert cost.data_migration_hours(2e9, 32000, 7e9, 1.0) == pytest.approx(18e9 * 8 / 1e9 / 3600)


def test_electricity_matches_reference_tco_sketch():
    # gpu-catalog.md §3.6's arithmetic on the 30-day month (econ17): 10.2 kW × PUE 1.3 × 720 h × 0.7001 ¥/kWh ≈ 6.7k ¥
    assert float(cost.electricity_per_month(10.2, 1.0, 1.3, 0.7001)) == pytest.approx(6684.0, rel=1e-3)


def test_rent_vs_build_five_parts_by_hand():
    """A year of work on one 8-GPU server bought for 1M: every part derived by hand."""
    b = BuildInputs(machines=1, gpus_per_machine=8, machine_price=1_000_000.0, currency="CNY", depreciation_years=2,
                    power_kw_per_machine=10.0, pue=1.3, tariff_per_kwh=0.7, colocation_per_machine_month=5000.0,
                    ops_staff_per_month=10000.0, spare_rate_per_year=0.06)
    res = rent_vs_build(b, rent_total=700_000.0, busy_hours=6000.0, horizon_months=12, jobs=10, single_job=False,
                        rent_card_hour=10.0)
    bd = res.breakdown
    assert list(bd) == ["hardware", "rack", "electricity", "staff", "spares"]
    # no resale: a 12-month period inside a 24-month life still buys the whole server
    assert bd["hardware"] == pytest.approx(1_000_000.0)
    assert bd["rack"] == pytest.approx(5000.0 * 12)
    assert bd["electricity"] == pytest.approx(10.0 * 1.3 * 0.7 * 6000.0)  # 54,600
    assert bd["staff"] == pytest.approx(10000.0 * 12)
    assert bd["spares"] == pytest.approx(0.06 * 1e6)  # a year
    assert res.build_total == pytest.approx(1_000_000 + 60_000 + 54_600 + 120_000 + 60_000)
    assert res.verdict == "rent" and res.payback_months is None
    # break-even utilisation over the life: fixed 1e6/24 + 5,000 + 10,000 + 5,000 = 61,666.67 per month;
    # renting 8 cards at 10/h for a busy 30-day month = 57,600; electricity of a busy month 10·1.3·0.7·720 = 6,552
    # → 57,600 < 6,552 + 61,667: owning never pays off
    assert res.break_even_utilisation is None
    cheap = rent_vs_build(b, rent_total=700_000.0, busy_hours=6000.0, horizon_months=12, rent_card_hour=20.0)
    # 8·20·720 = 115,200 per busy month → u* = 61,666.67 / (115,200 − 6,552) = 0.5676
    assert cheap.break_even_utilisation == pytest.approx(61_666.667 / (115_200 - 6_552), rel=1e-4)
    assert "57%" in cheap.sentence.render()
    j = res.to_json()
    assert {"rent_total", "build_total", "horizon_months", "breakdown", "verdict"} <= set(j)
    assert j["build_total"] == pytest.approx(sum(j["breakdown"].values())) and res.missing == []


def test_rent_vs_build_builds_and_pays_back_within_the_period():
    b = BuildInputs(machines=2, gpus_per_machine=8, machine_price=500_000.0, currency="CNY", depreciation_years=3,
                    power_kw_per_machine=5.0, pue=1.5, tariff_per_kwh=1.0, colocation_per_machine_month=2000.0,
                    ops_staff_per_month=6000.0, spare_rate_per_year=0.12)
    # 36 months busy all the time, renting it costs 100k a month
    res = rent_vs_build(b, rent_total=3_600_000.0, busy_hours=36 * 720.0, horizon_months=36, single_job=False)
    bd = res.breakdown
    assert bd["hardware"] == pytest.approx(1_000_000.0)  # 36 months = the life
    assert bd["rack"] == pytest.approx(2 * 2000.0 * 36) and bd["staff"] == pytest.approx(6000.0 * 36)
    assert bd["electricity"] == pytest.approx(2 * 5.0 * 1.5 * 1.0 * 36 * 720)  # 388,800
    assert bd["spares"] == pytest.approx(0.12 * 1e6 * 3)
    running = bd["rack"] + bd["electricity"] + bd["staff"] + bd["spares"]
    assert running == pytest.approx(144_000 + 388_800 + 216_000 + 360_000)  # 1,108,800
    assert res.verdict == "build"
    # payback: 1e6 / (100,000 − 1,108,800/36) = 1e6 / 69,200 = 14.5 months
    assert res.payback_months == pytest.approx(1e6 / (100_000 - running / 36), rel=1e-9)
    assert "14.5 months" in res.sentence.render()
    # a period longer than the life buys the servers again (straight line)
    longer = rent_vs_build(b, rent_total=7_200_000.0, busy_hours=72 * 720.0, horizon_months=72, single_job=False)
    assert longer.breakdown["hardware"] == pytest.approx(2_000_000.0)


def test_half_day_job_claims_no_payback():
    """The issue's case: a 0.5-day job must not 'pay for itself after 15.4 months'."""
    b = BuildInputs(machines=1, gpus_per_machine=8, machine_price=2_700_000.0, currency="CNY",
                    power_kw_per_machine=10.2, pue=1.3, tariff_per_kwh=0.7001, colocation_per_machine_month=0.0,
                    ops_staff_per_month=0.0, spare_rate_per_year=0.0)
    half_day = 12.0
    res = rent_vs_build(b, rent_total=8 * half_day * 20.0, busy_hours=half_day, horizon_months=half_day / 720.0,
                        rent_card_hour=20.0)
    assert res.verdict == "rent" and res.payback_months is None
    text = res.sentence.render()
    assert "pays for itself" not in text and "(12.0 hours)" in text  # below a day in hours (format_elapsed; ux15)
    assert "¥1,920" in text and "CNY" not in text  # the amounts as the other cost lines write them, not "1,920 CNY"
    # the whole server is bought for it: 2.7M against 1,920 of rent
    assert res.build_total == pytest.approx(2_700_000.0 + 10.2 * 1.3 * 0.7001 * half_day)
    # break-even: fixed 2.7M/36 = 75,000/month; busy 30-day month rent 8·20·720 = 115,200; electricity 6,684.0
    assert res.break_even_utilisation == pytest.approx(75_000 / (115_200 - 6_683.99), rel=1e-4)


def test_default_build_inputs_h100_cny_and_the_users_figures():
    t = PriceTable("CNY", exchange_rate=7.0)
    b = cost.default_build_inputs("h100-sxm-80gb", 16, t)
    assert b.machines == 2 and b.gpus_per_machine == 8
    assert b.machine_price == pytest.approx(2_700_000.0)  # China 8-card server, gpu-catalog.md §3.4
    assert b.power_kw_per_machine == pytest.approx(10.2)  # DGX H100
    assert b.tariff_per_kwh == pytest.approx(0.7001) and b.pue == 1.3
    assert b.ops_staff_per_month == pytest.approx(231_810 / 12, abs=1)  # NBS 2023 IT-sector wage
    assert b.spare_rate_per_year == pytest.approx(220 / 16384 * 365 / 54, abs=5e-4)  # Llama 3 Table 5
    assert all(b.sources.get(k) for k in ("machine_price", "tariff_per_kwh", "pue", "ops_staff_per_month",
                                          "spare_rate_per_year"))
    from gpuplanner.core.scenario import Ownership

    mine = cost.default_build_inputs("h100-sxm-80gb", 16, t, Ownership(machine_price=2e6, pue=1.5, staff_per_month=0))
    assert (mine.machine_price, mine.pue, mine.ops_staff_per_month) == (2e6, 1.5, 0.0)
    assert mine.sources["machine_price"] == "your figure" and mine.tariff_per_kwh == pytest.approx(0.7001)


def test_rental_advice_quotes_the_numbers():
    p = _price(card_hour=10.0, week=5600.0)
    msgs = cost.rental_advice(p, "card_hour", costs={"card_hour": 48000.0, "week": 56000.0}, hours_per_week=60,
                              phase="research", num_gpus=8, currency="CNY")
    text = " ".join(m.render() for m in msgs)
    assert "above 70 hours" in text and "56,000" in text and "48,000" in text


def test_rent_vs_build_without_purchase_price_gives_no_verdict():
    """A missing server price must not make building look free (it used to print 'pays for itself after 0.0
    months')."""
    from gpuplanner.core import cost as C

    kwargs = dict(machines=1, gpus_per_machine=8, machine_price=None, currency="CNY", power_kw_per_machine=5.0,
                  pue=1.3, tariff_per_kwh=0.7, colocation_per_machine_month=1000.0,
                  ops_staff_per_month=0.0, spare_rate_per_year=0.0)
    res = C.rent_vs_build(C.BuildInputs(**kwargs), rent_total=50_000.0, busy_hours=700.0, horizon_months=1.0)
    assert res.verdict == "unknown" and res.payback_months is None and "machine_price" in res.missing
    assert "purchase price" in res.sentence.render()


@pytest.mark.parametrize("phase,hpw", [("stable", 168.0), ("stable", 40.0), ("research", 30.0), ("burst", 100.0)])
def test_calendar_floor_is_below_every_modes_calendar(phase, hpw):
    """The plan search skips pricing rows whose calendar floor is later than a priced row's calendar
    (search._unpriced): the floor must never exceed any mode's calendar hours, and it is the whole-machine
    calendar itself when the job runs in one session."""
    rng = np.random.default_rng(7)
    n = rng.choice([1, 2, 8, 64, 512, 4096], 400).astype(float)
    nodes = np.maximum(np.ceil(n / 8), 1)
    hours = np.concatenate([[0.0, 1e-6], rng.lognormal(3, 3, 398)])
    ov = Overheads()
    p = _price(card_hour=10.0, week=9000.0, month=30000.0, spot=4.0)
    kw = dict(num_gpus=n, nodes=nodes, train_hours=hours, ckpt_bytes=14.0 * 8e9, setup_hours=2.5,
              hours_per_week=hpw, overheads=ov)
    r = rental_costs(p, phase=phase, **kw)
    floor = cost.calendar_floor(**kw)
    assert (floor <= r.calendar_hours.min(axis=0)).all()
    assert (floor[hours > 0] > 0).all()
    # per GPU count: the same as per candidate
    counts, rows = np.unique(n, return_inverse=True)
    first = np.array([np.flatnonzero(rows == i)[0] for i in range(len(counts))])
    kw2 = dict(kw, num_gpus=n[first], nodes=nodes[first])
    assert np.array_equal(cost.calendar_floor(**kw2, rows=rows), floor)
    if hpw == 168.0 and phase != "research":
        # around the clock: one setup, no resume; whole machines run exactly the floor
        assert np.array_equal(floor[hours > 0], r.calendar_hours[2][hours > 0])


@pytest.mark.parametrize("hpw", [168.0, 40.0])
def test_hours_within_calendar_bounds_the_floor(hpw):
    """Beyond ``hours_within_calendar`` the calendar floor is later than the calendar given (by more than the
    1e-9 the search allows for rounding); at it, by about the 1e-6 margin only."""
    rng = np.random.default_rng(11)
    n = rng.choice([1, 8, 64, 4096], 300).astype(float)
    nodes = np.maximum(np.ceil(n / 8), 1)
    cal = np.concatenate([[0.5, 3.0], rng.lognormal(4, 3, 298)])
    kw = dict(num_gpus=n, nodes=nodes, ckpt_bytes=14.0 * 70e9, setup_hours=2.5, hours_per_week=hpw,
              overheads=Overheads())
    lim = cost.hours_within_calendar(calendar_hours=cal, **kw)
    ok = lim > 0
    assert ok.sum() > 150
    above = np.nextafter(lim, np.inf)
    floor = cost.calendar_floor(train_hours=above, **kw)
    assert (floor[ok] > cal[ok] * (1 + 1e-9)).all()
    # and not far above: the margin is 1e-6 of the calendar
    assert (floor[ok] < cal[ok] * (1 + 2e-6)).all()


@pytest.mark.parametrize("quote", [dict(card_hour=10.0), dict(card_hour=10.0, spot=4.0),
                                   dict(card_hour=10.0, week=9000.0, month=30000.0, spot=4.0),
                                   dict(card_hour=None, month=30000.0), dict(card_hour=1e-3, week=1e6),
                                   dict(card_hour=None, spot=4.0)])
@pytest.mark.parametrize("phase,hpw", [("stable", 168.0), ("research", 30.0), ("stable", 40.0)])
@pytest.mark.parametrize("pin", [None, "spot", "card_hour"])
def test_calendar_ceiling_is_above_the_chosen_modes_calendar(quote, phase, hpw, pin):
    """The search bounds the cheapest mode's calendar without pricing (search._unpriced): the ceiling is never
    below it, whichever mode the prices pick, and equals it when every mode runs the same calendar."""
    rng = np.random.default_rng(5)
    n = rng.choice([1, 8, 64, 512], 300).astype(float)
    nodes = np.maximum(np.ceil(n / 8), 1)
    hours = np.concatenate([[0.0], rng.lognormal(3, 3, 299)])
    p = complete_price(GpuPrice(gpu="x", currency="CNY", card_hour=quote.get("card_hour"),
                                machine_week=quote.get("week"), machine_month=quote.get("month"),
                                spot_card_hour=quote.get("spot"), machine_gpus=8, source="t", source_date="2026"))
    kw = dict(num_gpus=n, nodes=nodes, train_hours=hours, ckpt_bytes=14.0 * 8e9, setup_hours=2.5,
              hours_per_week=hpw, phase=phase, overheads=Overheads())
    r = rental_costs(p, pin=pin, **kw)
    ceiling, frac = cost.calendar_ceiling(p, pin=pin, **kw)
    fin = np.isfinite(r.best_calendar_hours)  # (a pin to a mode the price lacks bills nothing: no calendar)
    assert (ceiling[fin] >= r.best_calendar_hours[fin]).all()
    # spot's calendar counts only where spot can bill the plan (pinned, or the only price): else the ceiling is
    # the steady modes' own (round 7 review: it held spot's even where spot is never chosen)
    assert cost.spot_can_bill(p, pin) == (p.spot_card_hour is not None and (
        pin == "spot" or (pin is None and quote.get("card_hour") is None and "week" not in quote
                          and "month" not in quote)))
    if phase == "stable" and hpw == 168.0 and pin is None and not cost.spot_can_bill(p, pin):
        assert np.array_equal(ceiling, r.best_calendar_hours)
    assert np.array_equal(frac, cost.interruption_overhead(n, nodes, 14.0 * 8e9, Overheads().resume_hours,
                                                           Overheads().checkpoint_write_gbs_per_node)[0])


def test_sub_day_job_reads_its_days_to_two_digits():
    """A 0.24-day job read "(0.2 days)" and "369 USD" in the rent-or-build sentence, beside "$369" and "0.24 calendar
    days" everywhere else."""
    b = BuildInputs(machines=1, gpus_per_machine=8, machine_price=2_700_000.0, currency="USD",
                    power_kw_per_machine=10.2, pue=1.3, tariff_per_kwh=0.1, colocation_per_machine_month=0.0,
                    ops_staff_per_month=0.0, spare_rate_per_year=0.0)
    hours = 0.24 * 24
    res = rent_vs_build(b, rent_total=369.0, busy_hours=hours, horizon_months=hours / 720.0, rent_card_hour=2.0)
    text = res.sentence.render()
    assert "(5.8 hours)" in text and "$369" in text and "USD" not in text, text  # 0.24 days, in hours (ux15)
