"""ux11: the estimate's GiB reserve and the planning rule "memory headroom" had one name.

The Training page's assumption row for ``assumptions.memory_headroom_gib`` read "Memory headroom" (zh 显存余量),
the very name of the planning rule that compares a plan's free share with the memory model's p75 error (14.4%), so
a user read "Memory headroom: 2 GiB" beside "memory headroom: passed, 16% free, more than 14.4%". The row now reads
"Kept free per GPU" (zh 每卡预留显存), as the PDF's "Headroom kept free" row, and its tooltip names the rule as
another check. The empty-cache row's zh label said the unit twice ("每隔若干步清空缓存 … 步")."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QCoreApplication

from gpuplanner.core.rules import RULE_NAMES


@pytest.mark.parametrize(("lang", "label"), [("en", "Kept free per GPU"), ("zh_CN", "每卡预留显存")])
def test_the_gib_reserve_is_not_named_as_the_rule(make_window, language, lang, label):
    language.install(lang)
    w = make_window(search_enabled=False)
    adv = w.page("training").advanced
    text = adv.labels["memory_headroom_gib"].text().rstrip(":：")
    rule = QCoreApplication.translate("Rules", RULE_NAMES["memory_headroom"])
    assert text == label, text
    assert rule.lower() not in text.lower()
    assert rule in adv.fields["memory_headroom_gib"].toolTip() or rule in adv.labels["memory_headroom_gib"].toolTip()


def test_the_empty_cache_label_says_steps_once_in_chinese(make_window, language):
    language.install("zh_CN")
    w = make_window(search_enabled=False)
    adv = w.page("training").advanced
    assert adv.labels["empty_cache_steps"].text().count("步") == 0  # the unit beside the box says 步
