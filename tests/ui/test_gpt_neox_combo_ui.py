"""The Training page's framework list offers GPT-NeoX wherever it offers Nanotron (issue 35 round 10, neox11): a
product name, shown as it is, and choosing it writes ``training.framework: gpt-neox``."""

from __future__ import annotations


def test_framework_combo_offers_gpt_neox(make_window):
    w = make_window(search_enabled=False)
    combo = w.page("training").framework
    items = {combo.itemData(i): combo.itemText(i) for i in range(combo.count())}
    assert "nanotron" in items and items.get("gpt-neox") == "GPT-NeoX"
    i = combo.findData("gpt-neox")
    combo.setCurrentIndex(i)
    combo.activated.emit(i)
    assert w.model.user_scenario().training.framework == "gpt-neox"
