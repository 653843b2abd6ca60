"""Issue 35, round 10, mend10c: one figure reads the same everywhere, through gpuplanner/formatting.py."""

from __future__ import annotations

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
