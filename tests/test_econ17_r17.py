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
