"""The Quotes page keeps an offer's ``multi_node`` (core/quotes.Offer, the sheet's optional column; rules.price_fabric
asks the same of the price table): read back after an edit, never dropped (the offers table has no room for it at
1280 px; the comparison's network check shows it)."""

from __future__ import annotations

from decimal import Decimal

from gpuplanner.core import quotes


def test_the_quotes_page_keeps_the_offers_word(make_window, tmp_path, qtbot):
    """An offer's ``multi_node`` survives the Quotes page's table (shown, read back after an edit), never dropped."""
    w = make_window(search_enabled=False)
    w.go_to(8)
    page = w.pages[8]
    values = (True, False, None)
    page.set_quotes([quotes.VendorQuote(provider=f"V{i}", offers=[quotes.Offer(
        gpu="h800-sxm-80gb", unit="card_hour", price=Decimal("10"), multi_node=v)]) for i, v in enumerate(values)])
    for i, v in enumerate(values):
        page.vendor.setCurrentIndex(i)
        page._edited()  # the table read back, as after any edit
        assert page.quotes[i]["offers"][0].get("multi_node") is v
