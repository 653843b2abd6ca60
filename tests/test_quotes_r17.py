"""A vendor's sheet billed the way the plan bills its prices (issue 35 round 17, quotes17): one function,
``core.cost.cheapest_periods``, decides the cheapest combination of months, weeks, days and hours; the plan's month
mode (``cost.months_then_weeks``) and the quotes (``core.quotes.combined_cost``) both read it. Every expected figure
is worked by hand in the comment beside it and in ``docs/notes/2026-12-07/issue-35-r17-quotes17.md``. Before this
round the quotes billed the cheapest SINGLE offer (10 weeks at 20,000 a server-month and 6,000 a server-week:
60,000 in the quotes, 52,000 in the plan).
"""

from __future__ import annotations

import itertools
import json
import random
from decimal import Decimal as D
from pathlib import Path

import pytest

from gpuplanner.core import cost as costmod
from gpuplanner.core.quotes import Offer, QuotedPlan, VendorQuote, compare

GPU = "h800-sxm-80gb"
EN = lambda ctx, text: text  # noqa: E731


def _plan(**kw) -> QuotedPlan:
    base = dict(gpu_id=GPU, gpu_name="H800", gpu_memory_gib=80.0, num_gpus=8, gpus_per_node=8, nodes=1,
                card_hours=8 * 1_600.0, calendar_days=1_660.0 / 24, calendar_days_band=None, setup_hours=0.0,
                hours_per_week=168.0, currency="CNY", storage_tb=0.0, egress_tb=0.0, inter_node=None,
                inter_node_gbps=None)
    base.update(kw)
    return QuotedPlan(**base)


def _sheet(*offers, **kw) -> VendorQuote:
    return VendorQuote(provider=kw.pop("provider", "V"), offers=[Offer(gpu=GPU, unit=u, price=D(str(p)), **kw)
                                                                 for u, p in offers])


def _brute(hours, month, week, day, hour):
    """Every count of months, weeks and days up to covering ``hours``, the rest by the hour (exhaustive)."""
    best = float("inf")
    for m in range(int(hours // 720) + 2):
        for w in range(int(hours // 168) + 2):
            for d in range(int(hours // 24) + 2):
                rest = max(hours - 720 * m - 168 * w - 24 * d, 0.0)
                c = sum(k * p for k, p in ((m, month), (w, week), (d, day)) if k > 0) + (rest * hour if rest > 0 else 0)
                best = min(best, c)
                if 720 * m + 168 * w + 24 * d >= hours:
                    break
            if 720 * m + 168 * w >= hours:
                break
    return best


def test_cheapest_periods_by_hand_and_against_every_combination():
    inf = float("inf")
    # 1,660 h (69.2 days) at 20,000 a month and 6,000 a week: 3 months 60,000; 10 weeks 60,000; 2 months and the
    # 220 h rest in 2 weeks 2 × 20,000 + 2 × 6,000 = 52,000 (econ17's case W3)
    r = costmod.cheapest_periods(1_660.0, month=20_000.0, week=6_000.0)
    assert (r.months[0], r.weeks[0], r.days[0], r.hours[0], r.cost[0]) == (2, 2, 0, 0, 52_000)
    # where "whole months, then the rest" is not the cheapest: 1,520 h at 20,000 a month and 4,500 a week.
    # 2 months + 80 h in 1 week = 44,500; 10 weeks = 45,000; 1 month + 800 h in 5 weeks = 20,000 + 22,500 = 42,500
    r = costmod.cheapest_periods(1_520.0, month=20_000.0, week=4_500.0)
    assert (r.months[0], r.weeks[0], float(r.cost[0])) == (1, 5, 42_500)
    # days and hours: 1,000 h at 20,000 / 6,000 / 1,000 a day / 60 an hour. 1 month + 280 h: 1 week + 112 h →
    # 4 days + 16 h = 4,000 + 960 → 20,000 + 6,000 + 4,960 = 30,960; against 1 month + 2 weeks 32,000, 2 months
    # 40,000, 1 month + 1 week + 5 days 31,000
    r = costmod.cheapest_periods(1_000.0, month=20_000.0, week=6_000.0, day=1_000.0, hour=60.0)
    assert (r.months[0], r.weeks[0], r.days[0], r.hours[0], float(r.cost[0])) == (1, 1, 4, 16, 30_960)
    # the plan's month mode holds at least one month: 100 h is one month (its weeks are the week mode)
    assert float(costmod.months_then_weeks(100.0, 20_000.0, 6_000.0)) == 20_000
    # exact: against every combination (random prices, some periods not offered)
    rng = random.Random(17)
    for _ in range(150):
        h = rng.uniform(1, 2_400)
        prices = [rng.choice([None, rng.uniform(lo, hi)]) for lo, hi in ((5e3, 3e4), (1e3, 9e3), (100, 2e3), (5, 150))]
        if all(p is None for p in prices):
            continue
        got = costmod.cheapest_periods(h, *prices)
        want = _brute(h, *(inf if p is None else p for p in prices))
        assert float(got.cost[0]) == pytest.approx(want, rel=1e-9)
        held = got.months[0] * 720 + got.weeks[0] * 168 + got.days[0] * 24 + got.hours[0]
        assert held >= h - 1e-6


def test_quote_sheet_with_a_week_and_a_month_is_billed_months_then_weeks():
    # 8 × H800 held 1,660 h (69.2 days) by one vendor selling a server at 20,000 a month and 6,000 a week: the
    # vendor renews by the week at the end, 2 months + 2 weeks = 52,000. Before: the cheaper single offer, 60,000
    q = _sheet(("server_month", 20_000), ("server_week", 6_000))
    c = compare([q], _plan())
    v = c.vendors[0]
    assert v.breakdown["compute"] == D("52000.00") and v.total == D("52000.00")
    billing = json.loads(json.dumps(c.to_json()))["vendors"][0]["billing"]
    assert billing["combination"] == [{"unit": "server_month", "price": 20000.0, "periods": 2},
                                      {"unit": "server_week", "price": 6000.0, "periods": 2}]
    assert billing["servers"] == 1
    from gpuplanner.report.quotes_section import billing_text, html_section, text_lines

    line = billing_text(v, "CNY", EN, 8)
    assert line == "2 months + 2 weeks: ¥20,000.00 per server-month, ¥6,000.00 per server-week; 1 server"
    assert any("2 months + 2 weeks" in x for x in text_lines(c, EN))
    assert "2 months + 2 weeks" in html_section(c, translate=EN, msg=lambda m: m.render())
    # one offer alone where it is the cheapest: 3 weeks (504 h) at 6,000 = 18,000 < a month; no combination
    v = compare([q], _plan(calendar_days=21.0)).vendors[0]
    assert v.offer.parts == () and v.total == D("18000.00") and v.offer.offer.unit == "server_week"


def test_combination_in_chinese():
    # the CLI's --lang zh_CN path: "2 个月 + 2 周：¥20,000.00 每台整机每月、¥6,000.00 每台整机每周；1 台整机"
    from gpuplanner.commands import _lang
    from gpuplanner.report.quotes_section import billing_text

    v = compare([_sheet(("server_month", 20_000), ("server_week", 6_000))], _plan()).vendors[0]
    _lang.install("zh_CN")
    try:
        zh = billing_text(v, "CNY", _lang.translate, 8)
    finally:
        _lang.install("en")
    assert zh.startswith("2 个月 + 2 周：") and zh.endswith("；1 台整机"), zh
    assert "、" in zh and not any(w in zh for w in ("month", "week", "server", "(s)")), zh


def test_month_then_card_hours_for_the_rest():
    # 8 cards held 40 days (960 h) at 168 h/week, 6,912 card-hours of work; a card-month 5,000 and 10.50 a
    # card-hour. All card-hours 6,912 × 10.5 = 72,576; two months 8 × 10,000 = 80,000; one month (8 × 5,000 =
    # 40,000) and the last 240 h by the hour: 6,912 × 240 / 960 = 1,728 card-hours × 10.5 = 18,144 → 58,144
    q = _sheet(("card_month", 5_000), ("card_hour", "10.5"))
    v = compare([q], _plan(calendar_days=40.0, card_hours=6_912.0)).vendors[0]
    assert v.breakdown["compute"] == D("58144.00")
    assert [(o.unit, k) for o, k in v.offer.parts] == [("card_month", D(1)), ("card_hour", D("1728"))]
    from gpuplanner.report.quotes_section import billing_text

    assert billing_text(v, "CNY", EN, 8).startswith("1 month + 1,728 card-hours: ")


def test_only_hourly_prices_and_a_long_job_bill_the_hours_worked():
    # A vendor with only 10.50 a card-hour, a 62.5-day job of 12,000 card-hours on 8 cards with 1 h of setup per
    # instance (setup billed: not stated, so counted). At 168 h/week one instance: 12,000 × 10.5 = 126,000 plus
    # 8 × 1 × 10.5 = 84 of setup = 126,084; no month rounding and no period (the vendor bills hours used).
    # At 40 h/week the machine is given back each week: ceil(62.5 / 7) = 9 instances, 9 × 8 × 1 × 10.5 = 756 →
    # 126,756
    q = _sheet(("card_hour", "10.5"))
    v = compare([q], _plan(calendar_days=62.5, card_hours=12_000.0, setup_hours=1.0)).vendors[0]
    assert v.offer.parts == () and v.breakdown["compute"] == D("126000.00") and v.breakdown["setup"] == D("84.00")
    assert v.total == D("126084.00") and v.to_json()["billing"] == {**v.to_json()["billing"], "card_hours": 12000.0}
    v = compare([q], _plan(calendar_days=62.5, card_hours=12_000.0, setup_hours=1.0, hours_per_week=40.0)).vendors[0]
    assert v.offer.instances == 9 and v.total == D("126756.00")


def test_only_a_monthly_price_and_a_three_day_job_pay_one_whole_month():
    # 包月 is one 30-day month paid whole (GPUGEEK "Monthly = 30x24h"; no proration): a 3-day job on one 8-card
    # server at 20,000 a month pays 20,000 (per card-hour of 8 × 72 = 576 card-hours: 34.72); on 4 cards of a
    # card-month at 5,000: 4 × 5,000 = 20,000. A day price beside it bills 3 days instead (3 × 1,000 = 3,000)
    v = compare([_sheet(("server_month", 20_000))], _plan(calendar_days=3.0, card_hours=576.0)).vendors[0]
    assert v.total == D("20000.00") and v.to_json()["billing"]["periods"] == 1 and v.per_card_hour == D("34.72")
    v = compare([_sheet(("card_month", 5_000))], _plan(num_gpus=4, calendar_days=3.0, card_hours=288.0)).vendors[0]
    assert v.total == D("20000.00") and v.to_json()["billing"] == {**v.to_json()["billing"], "periods": 1, "cards": None}
    v = compare([_sheet(("server_month", 20_000), ("server_day", 1_000))],
                _plan(calendar_days=3.0, card_hours=576.0)).vendors[0]
    assert v.total == D("3000.00") and v.offer.offer.unit == "server_day" and v.offer.parts == ()


def _evaluation(tokens: str, hours_per_week: float = 168.0):
    from gpuplanner.core.evaluate import evaluate
    from gpuplanner.core.scenario import scenario_from_dict

    d = json.loads((Path(__file__).resolve().parents[1] / "examples" / "llama3-8b-full.json").read_text("utf-8"))
    d["data"]["tokens"] = tokens
    d["constraints"].pop("deadline_days", None)
    d["constraints"].update(rental_mode="month", hours_per_week=hours_per_week)
    table = costmod.PriceTable(currency="CNY", overrides={GPU: {"machine_week": 6_000.0, "machine_month": 20_000.0}})
    return evaluate(scenario_from_dict(d), prices=table)


@pytest.mark.parametrize("tokens,hpw,want", [("380B", 168.0, 52_000), ("200B", 168.0, 26_000),
                                             ("150B", 80.0, 40_000)])
def test_plan_cost_and_quote_total_agree_for_the_same_offers(tokens, hpw, want):
    # The plan (8 × H800, billed by the month at 20,000 a server-month and 6,000 a server-week) and a vendor
    # sheet with the same two offers, for the days the plan holds the server: the same money.
    # 380B: 68.2 days (1,637 h) = 2 months + 197 h in 2 weeks = 52,000; 200B: 35.9 days (862 h) = 1 month + 1 week
    # = 26,000; 150B at 80 h/week: 58.0 days (1,392 h) = 1 month + 672 h, four weeks 24,000 > a month → 40,000
    from gpuplanner.core.quotes import plan_figures

    ev = _evaluation(tokens, hpw)
    assert ev.rental_mode == "month" and ev.cost == want
    q = _sheet(("server_month", 20_000), ("server_week", 6_000))
    v = compare([q], plan_figures(ev)).vendors[0]
    assert v.breakdown["compute"] == D(str(ev.cost)).quantize(D("0.01"))
