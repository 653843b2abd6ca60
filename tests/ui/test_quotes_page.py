"""Step 9, the Quotes page: vendors edited in tables, stored in the plan file, and the comparison for the plan
the window shows (core.quotes.compare of the live Evaluation: the same totals as ``gpuplanner quotes``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from gpuplanner.core.quotes import compare, plan_figures
from gpuplanner.io.quote_sheets import read_quotes

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "shenzhen-7b-domain-project.gpuplan"
SHEETS = sorted((ROOT / "examples" / "quotes").glob("*.csv"))


def _open(make_window, tmp_path, qtbot):
    path = tmp_path / "p.gpuplan"
    shutil.copy(EXAMPLE, path)
    w = make_window(search_enabled=False)
    assert w.open_path(path, show_errors=False)
    w.go_to(8)
    page = w.pages[8]
    page.set_quotes([q for s in SHEETS for q in read_quotes(s)])
    qtbot.waitUntil(lambda: w.estimator.result is not None, timeout=10000)
    page.refresh_comparison()
    return w, page, path


def test_quotes_page_edits_compares_and_saves(make_window, tmp_path, qtbot):
    w, page, path = _open(make_window, tmp_path, qtbot)
    assert page.vendor.count() == 3 and page.offers.rowCount() == 1
    html = page.compare_view.toPlainText()
    # the totals are the core's for the window's Evaluation (the CLI's figures for the same plan)
    c = compare([q for s in SHEETS for q in read_quotes(s)], plan_figures(w.estimator.result.evaluation))
    assert "11,399.78" in html and c.vendors[0].total is not None and str(c.vendors[0].total) == "11399.78"
    # edit the first vendor's price: 5.88 -> 6.00; the comparison follows
    price = page.offers.item(0, 2)
    price.setText("6.00")
    assert page.quotes[0]["offers"][0]["price"] == "6.00"
    assert "11,399.78" not in page.compare_view.toPlainText()
    # a bad value is refused with the field named, and the model keeps the last valid quotes
    price.setText("-1")
    assert "price" in page.error.text()
    price.setText("6.00")
    assert page.error.text() == ""
    assert w.save_to(path) if hasattr(w, "save_to") else w.doc.save_to(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert [q["provider"] for q in data["quotes"]][:1] == ["AutoDL (example)"]
    assert data["quotes"][0]["offers"][0]["price"] == "6.00"
