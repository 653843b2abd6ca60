"""The Time and budget page's rows for where default prices come from (``constraints.region``,
``constraints.price_kinds``, ``constraints.converted_prices``): each writes its field, the plan's price reads it,
and ticking no kind of quote is refused at the field and not stored."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuplanner.core.evaluate import evaluate
from tests.ui.test_issue35_fields_ui import choose

EXAMPLE = Path(__file__).resolve().parents[2] / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json"


@pytest.fixture
def rows(make_window):
    w = make_window(search_enabled=False)
    assert w.open_path(EXAMPLE, show_errors=False)
    w.go_to(3)
    page = w.page("budget")
    return w, page.prices.fields


def _cost(w):
    return evaluate(w.model.user_scenario()).cost


def test_region_and_converted_quotes(rows):
    w, f = rows
    assert f["region"].currentData() is None and f["converted_prices"].currentData() == "default"
    home = _cost(w)  # 8 H100 SXM, CNY: mainland China's package month
    choose(f["region"], "worldwide")
    assert w.model.user_scenario().constraints.region == "worldwide"
    assert _cost(w) != pytest.approx(home)  # priced from the worldwide quotes, converted to CNY
    choose(f["region"], None)
    assert w.model.user_scenario().constraints.region is None and _cost(w) == pytest.approx(home)
    # H100 PCIe has no mainland quote: no price by default in CNY, the worldwide one converted when allowed
    w.model.set("hardware.gpu", "h100-pcie-80gb")
    assert _cost(w) is None
    choose(f["converted_prices"], "on")
    assert w.model.user_scenario().constraints.converted_prices is True and _cost(w) > 0
    choose(f["converted_prices"], "off")
    assert w.model.user_scenario().constraints.converted_prices is False and _cost(w) is None


def test_kinds_of_quote_write_the_field_and_refuse_none(rows):
    w, f = rows
    kinds = f["price_kinds"].checks
    assert [k for k, c in kinds.items() if c.isChecked()] == ["list", "package", "wholesale"]  # the default
    assert w.model.user_scenario().constraints.price_kinds is None
    home = _cost(w)
    kinds["package"].setChecked(False)
    kinds["wholesale"].setChecked(False)
    assert w.model.user_scenario().constraints.price_kinds == ["list"]
    assert _cost(w) != home  # the package month no longer prices the plan
    kinds["list"].setChecked(False)  # none ticked: refused, the last choice kept
    err = f["price_kinds"].box.error
    assert err and "\n" not in err and not f["price_kinds"].box.error_label.isHidden()
    assert w.model.user_scenario().constraints.price_kinds == ["list"]
    kinds["package"].setChecked(True)
    assert f["price_kinds"].box.error is None
    assert w.model.user_scenario().constraints.price_kinds == ["package"]


def test_the_rows_follow_an_opened_plan(rows):
    w, f = rows
    w.model.set_many({"constraints.price_kinds": ["marketplace"], "constraints.region": "worldwide",
                      "constraints.converted_prices": False})
    assert [k for k, c in f["price_kinds"].checks.items() if c.isChecked()] == ["marketplace"]
    assert f["region"].currentData() == "worldwide" and f["converted_prices"].currentData() == "off"
