"""Issue 35, round 10, mend10c: one figure reads the same everywhere, through gpuplanner/formatting.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gpuplanner.cli import run_cli
from gpuplanner.core import cost
from gpuplanner.core.cost import GpuPrice, complete_price

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _price(month=50000.0, g=8):
    return complete_price(GpuPrice(gpu="x", currency="CNY", card_hour=10.0, machine_week=None, machine_month=month,
                                   spot_card_hour=None, machine_gpus=g, source="test", source_date="2026"))


@pytest.mark.parametrize("n, days, expect", [
    # hand: 0.27 days x 24 = 6.48 hours, one decimal ("6.5 hours", as ux15's format_elapsed; was "0.3 days")
    (1, 0.27, "Not for this plan: it uses 1 of a machine's 8 cards for 6.5 hours, and a monthly rent bills whole "
              "machines for whole months."),
    (8, 0.27, "Not for this plan: it runs 6.5 hours, and a monthly rent bills whole machines for whole months."),
    (8, 3.66, "Not for this plan: it runs 3.7 days, and a monthly rent bills whole machines for whole months.")])
def test_not_for_this_plan_says_its_span_as_every_other_span(n, days, expect):
    costs = {"card_hour": n * 10.0 * 24 * days, "month": 50000.0}
    lines = [m.render() for m in cost.rental_advice(_price(), "card_hour", costs=costs, hours_per_week=168.0,
                                                     phase="stable", num_gpus=n, currency="CNY", run_days=days)]
    assert expect in lines


@pytest.mark.parametrize("lang, unit", [("en", " hours,"), ("zh_CN", " 小时，")])
def test_not_for_this_plan_in_the_cli_reads_hours(capsys, lang, unit):
    # the 7B LoRA project's plans: #2..#3 run under a day on 2 of 8 cards ("for 0.5 days" before)
    assert run_cli(["plan", str(EXAMPLES / "7b-lora-1x4090.gpuplan"), "--top", "3", "--lang", lang]) == 0
    out = capsys.readouterr().out
    lines = [x for x in out.splitlines() if "Not for this plan" in x or "对本方案并不划算" in x]
    assert any(unit in x for x in lines), lines
    assert not any(("0." in x and " days" in x) or ("0." in x and "天" in x) for x in lines), lines


def test_a_plans_days_and_its_range_share_one_rule_by_hand():
    from gpuplanner.formatting import days_decimals, format_days_band, format_time_number as format_days

    assert format_days_band(16.62, 16.6, 18.8) == ("16.6", "16.6", "18.8")   # was "16.62 days" beside "16.6–18.8"
    assert format_days_band(0.27, 0.25, 0.29) == ("0.27", "0.25", "0.29")
    assert format_days_band(2.80, 2.76, 2.84) == ("2.80", "2.76", "2.84")   # the range needs 2: the headline too
    assert format_days(0.27) == "0.27" and format_days(3.8) == "3.8" and format_days(0.004) == "0.004"
    assert days_decimals(150.4) == 0 and format_days(150.4) == "150"          # as the PDF always wrote it


_DAYS = r"(\d[\d,]*(?:\.\d+)?)"


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_estimate_prints_its_days_and_range_at_one_precision(capsys, lang):
    assert run_cli(["estimate", str(EXAMPLES / "70b-cpt-64xh100.gpuplan"), "--lang", lang]) == 0
    out = capsys.readouterr().out
    head = next(x for x in out.splitlines() if x.strip().startswith(("calendar", "日历时间")))
    rng = next(x for x in out.splitlines() if x.strip().startswith(("likely range", "可能区间")))
    d = re.search(_DAYS, head.split(None, 1)[1]).group(1)
    lo, hi = re.search(_DAYS + "–" + _DAYS, rng).groups()
    assert d == "3.8", head                                  # the estimate: 3.80 days before, 1 decimal from a day
    assert len(lo.split(".")[1]) == len(hi.split(".")[1]) == 1, rng
    cmp_ = next(x for x in out.splitlines() if x.strip().startswith(("compute", "算力时间")))
    assert re.search(r"\b\d+\.\d days", cmp_) or "天" in cmp_, cmp_


def test_a_span_below_one_reads_by_one_rule_everywhere():
    """A span below 1 had two rules: format_tenths' two significant digits ("0.023 weeks") and a plan's days'
    two decimals ("0.02 days"). One rule now (formatting.format_time_number), by hand."""
    from gpuplanner.commands.plan import _days
    from gpuplanner.formatting import elapsed_numbers, format_time_number

    # a weeks column: 0.16 days = 0.0229 weeks beside 3.0 weeks; was "0.023" (no span picks weeks since ux22: the
    # unit asked for)
    assert elapsed_numbers([0.16, 21.0], "weeks") == ["0.02", "3.0"]
    assert _days(0.0229) == format_time_number(0.0229) == "0.02"
    assert _days(0.004) == format_time_number(0.004) == "0.004"     # never "0.00"
    assert format_time_number(0.48) == "0.48" and format_time_number(0) == "0"
    import gpuplanner.formatting as F
    assert not hasattr(F, "format_tenths")                              # the second rule is gone
