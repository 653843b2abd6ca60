"""Session 7's review leftovers (issue 35 round 8, tidy8): one list of the prices each rental mode needs, one
shape for generation's detail, and the serving phase's GPU passed on rather than looked up again."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from gpuplanner.core import cost
from gpuplanner.core.cost import GpuPrice, Overheads, rental_costs

FIELDS = ("card_hour", "machine_week", "machine_month", "spot_card_hour")


def _price(**figures) -> GpuPrice:
    return GpuPrice(gpu="x", currency="CNY", machine_gpus=8, source="test", source_date="2026",
                    **{k: figures.get(k) for k in FIELDS})


def test_mode_prices_name_every_mode_and_only_price_fields():
    assert tuple(cost.MODE_PRICES) == cost.MODES
    assert all(set(need) <= set(FIELDS) and need for need in cost.MODE_PRICES.values())
    # a hybrid is card-hours capped at its period's whole-machine price (hand: rental_costs' docstring)
    assert cost.MODE_PRICES["hybrid_week"] == ("card_hour", "machine_week")
    assert cost.MODE_PRICES["hybrid_month"] == ("card_hour", "machine_month")


@pytest.mark.parametrize("present", list(itertools.product((False, True), repeat=4)))
def test_rental_costs_prices_exactly_the_modes_has_mode_allows(present):
    """Every mode rental_costs gives a cost is one has_mode says the price can bill, and the other way round, for
    all 16 ways of quoting (pinned to card-hours so that spot is computed where it is priced)."""
    figures = {k: v for k, v, on in zip(FIELDS, (10.0, 1500.0, 5000.0, 4.0), present) if on}
    price = _price(**figures)
    r = rental_costs(price, num_gpus=8, nodes=1, train_hours=100.0, ckpt_bytes=0.0, setup_hours=0.0,
                     hours_per_week=168.0, phase="stable", overheads=Overheads(), pin="card_hour")
    priced = {m for i, m in enumerate(cost.MODES) if np.isfinite(r.costs[i][0])}
    assert priced == {m for m in cost.MODES if price.has_mode(m)}


def test_spot_can_bill_reads_the_one_list():
    assert cost.spot_can_bill(_price(spot_card_hour=4.0))
    assert not cost.spot_can_bill(_price(spot_card_hour=4.0, machine_month=5000.0))
    assert cost.spot_can_bill(_price(spot_card_hour=4.0, machine_month=5000.0), pin="spot")
    assert not cost.spot_can_bill(_price(card_hour=10.0), pin="spot")
