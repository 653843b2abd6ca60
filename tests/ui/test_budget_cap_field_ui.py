"""The Time and budget page's budget cap on a fresh start: an empty box with no unit and no hint read as a field left
to fill in. It now says what empty means ("no cap" / "不设上限") and carries the plan's currency as its unit, which
follows the currency chosen below it."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication


@pytest.mark.parametrize("lang,hint", [("en", "no cap"), ("zh_CN", "不设上限")])
def test_budget_cap_says_empty_means_no_cap_in_the_plans_currency(make_window, language, lang, hint):
    language.install(lang)
    w = make_window(search_enabled=False)
    w.go_to(3)
    page = w.page("budget")
    assert page.budget.text() == "" and page.budget.placeholderText() == hint
    cur = w.model.scenario.constraints.currency
    assert page.budget.box.unit.text() == cur and not page.budget.box.unit.isHidden()
    other = "USD" if cur == "CNY" else "CNY"
    assert w.model.set("constraints.currency", other) is None
    QApplication.processEvents()
    assert page.budget.box.unit.text() == other
    w.model.set_dirty(False)
