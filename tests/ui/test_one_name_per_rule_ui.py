"""ux10: one name per planning rule and one word for the padded unit.

The Plans page's switches read "safe deadline" and "networked multi-node price" (and "≥80 GB cards") while the plan's
check lines, the rank lines and the CLI called the same rules "deadline at the band's far end", "multi-node price from
a networked offer" and "card class". The switches now read the rules' own names (rules.RULE_NAMES, via
plans_page.rule_name), in English and in Chinese; the names are short enough for a switch at 1280×800
(tests/ui/test_i18n_ui.py checks nothing is clipped). The Training page's pad checkbox said "every row padded" beside a
tooltip that says "Pad every sample"."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QCoreApplication

from gpuplanner.core.rules import RULE_IDS, RULE_NAMES


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_each_switch_reads_its_rules_name(make_window, language, lang):
    language.install(lang)
    w = make_window()
    page = w.page("plans")
    for rid in RULE_IDS:
        name = QCoreApplication.translate("Rules", RULE_NAMES[rid])
        assert page.rule_checks[rid].text() == name, (rid, page.rule_checks[rid].text(), name)
    if lang == "en":
        assert page.rule_checks["deadline_risk"].text() == "safe deadline and budget"
        assert page.rule_checks["price_fabric"].text() == "networked multi-node price"
        assert page.rule_checks["card_class"].text() == "≥80 GB cards"
    else:
        assert page.rule_checks["card_class"].text() == "≥80 GB 显卡"


def test_the_pad_checkbox_says_sample_as_its_tooltip_does(make_window, language):
    language.install("en")
    w = make_window()
    chk = w.page("training").pad_to_seq_len
    assert chk.text() == "every sample padded to the sequence length"
    assert "Pad every sample" in chk.toolTip() and "row" not in chk.text()


@pytest.mark.parametrize(("lang", "none", "full"), [("en", "no recompute", "recompute full"),
                                                    ("zh_CN", "不重计算", "完全重计算")])
def test_the_plans_layout_line_says_no_recompute(make_window, language, qtbot, lang, none, full):
    """The Plans details' layout line read "recompute none" (zh "重计算 无"); it reads "no recompute", as the PDF.
    zh puts the kind before the word, "完全重计算" (was "重计算 完全", English word order; ux24)."""
    from gpuplanner.ui.pages.plans_page import recompute_phrase  # noqa: PLC0415

    language.install(lang)
    make_window()
    assert recompute_phrase("none", "none") == none
    assert recompute_phrase("full", QCoreApplication.translate("PlansPage", "full")) == full
