"""The Quotes page shows a vendor's offers billed together as the plan bills its prices (issue 35 round 17,
quotes17): the Shenzhen example's plan (4 × A800, 22.5876 days = 542.10 h held, since advice19 caps the layout at the
borrowed 46% HFU) at a server-week of 6,000 and a server-day of 900 is 3 weeks and the 38.10-h rest in
ceil(38.10 / 24) = 2 days, 18,000 + 1,800 = 19,800 (4 weeks: 24,000; 2 weeks + 9 days: 20,100; 23 days: 20,700),
the line the CLI and the PDF print (report.quotes_section.billing_text). Before advice19 (mend17a): 19.03 days =
456.6 h, 2 weeks + 6 days = 17,400."""

from __future__ import annotations

import shutil
from decimal import Decimal
from pathlib import Path

from gpuplanner.core.quotes import Offer, VendorQuote

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "shenzhen-7b-domain-project.gpuplan"


def test_quotes_page_shows_the_combination(make_window, tmp_path, qtbot):
    path = tmp_path / "p.gpuplan"
    shutil.copy(EXAMPLE, path)
    w = make_window(search_enabled=False)
    assert w.open_path(path, show_errors=False)
    w.go_to(8)
    page = w.pages[8]
    q = VendorQuote(provider="Weekly", offers=[Offer(gpu="a800-sxm-80gb", unit="server_week", price=Decimal(6000)),
                                               Offer(gpu="a800-sxm-80gb", unit="server_day", price=Decimal(900))])
    page.set_quotes([q])
    qtbot.waitUntil(lambda: w.estimator.result is not None, timeout=10000)
    page.refresh_comparison()
    text = page.compare_view.toPlainText()
    assert "3 weeks + 2 days: ¥6,000.00 per server-week, ¥900.00 per server-day; 1 server" in text, text
    assert "¥19,800" in text  # the total whole (ux27)
