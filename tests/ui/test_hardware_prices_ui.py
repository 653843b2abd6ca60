"""The hardware table shows a per-card week price and stores the machine's quote the core computes
(core.cost.quote_from_card_price with the price table's machine_gpus): the page only formats (issue 34)."""

from __future__ import annotations


def test_week_price_typed_per_card_is_the_cores_machine_quote(win):
    from gpuplanner.core.cost import PriceTable, quote_from_card_price
    from gpuplanner.formatting import format_number
    from gpuplanner.ui.pages.hardware_page import PRICE_COLS

    page = win.page("hardware")
    gid = "h100-sxm-80gb"
    row = page.row_ids.index(gid)
    before = PriceTable.from_constraints(win.model.scenario.constraints).machine_gpus(gid)
    page.table.item(row, PRICE_COLS["card_week"]).setText("700")
    q = win.model.scenario.constraints.prices[gid]
    want = quote_from_card_price("card_week", 700.0, before)
    assert (q.machine_week, q.machine_gpus) == (want["machine_week"], want["machine_gpus"])
    price = PriceTable.from_constraints(win.model.scenario.constraints).get(gid)
    assert price.card_week == 700.0
    row = page.row_ids.index(gid)
    assert page.table.item(row, PRICE_COLS["card_week"]).text() == format_number(price.card_week, 2)
