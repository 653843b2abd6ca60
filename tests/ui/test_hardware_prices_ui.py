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
    # what was typed is shown back: a week's rent in whole money where it is whole, "700" (ux24; was "700.00")
    assert page.table.item(row, PRICE_COLS["card_week"]).text() == "700" == format_number(price.card_week, 0)


def test_the_price_source_column_takes_a_large_windows_width(win, qtbot):
    """Issue 36's review at 1920×1080: the GPU table ended in a blank strip while its last column, the price
    source, was cut ("AutoDL hom…"); the source column now stretches over the width the window has."""
    win.resize(1920, 1080)
    win.go_to(4)
    qtbot.wait(100)
    t = win.page("hardware").table
    hh = t.horizontalHeader()
    assert hh.length() >= t.viewport().width() - 1, (hh.length(), t.viewport().width())
    assert hh.sectionSize(hh.count() - 1) > 100
