"""A refusal shown at a Training page field names the other fields by their labels, not by the plan file's dotted
paths: ticking "MoE padding" on the MoE example without a capacity factor read "parallel.moe_pad_to_capacity needs
parallel.moe_capacity_factor (Megatron-Core)" under the box, in English and in Chinese. The padding switch's own
label says what it does (it read "MoE token dropping", the opposite of what the box beside it does)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_pad_without_capacity_names_the_capacity_field(make_window, language, lang):
    language.install(lang)
    w = make_window(search_enabled=False)
    assert w.open_path(ROOT / "examples" / "qwen3-moe-full-16xh100.gpuplan", show_errors=False)
    w.go_to(1)
    adv = w.page("training").advanced
    pad, factor = adv.fields["moe_pad_to_capacity"], adv.fields["moe_capacity_factor"]
    pad.setChecked(True)
    QApplication.processEvents()
    shown = pad.box.error_label.text()
    assert pad.box.error is not None and shown
    assert "parallel." not in shown, shown
    factor_label = adv.labels["moe_capacity_factor"].text()
    assert factor_label and f"\u201c{factor_label}\u201d" in shown, (factor_label, shown)
    assert "parallel." not in pad.toolTip()
    pad_label = adv.labels["moe_pad_to_capacity"].text()
    assert ("padding" in pad_label) if lang == "en" else ("填充" in pad_label), pad_label
    w.model.set_dirty(False)


def test_path_with_a_value_stays_and_unknown_paths_stay():
    from gpuplanner.ui.text import name_fields

    class _NoWindow:
        def window(self):
            return None

    text = "parallel.cuda_graph_scope=layer with training.recompute=full; needs parallel.x_unknown."
    assert name_fields(text, _NoWindow()) == text
    assert name_fields(text, None) == text


def test_chinese_sets_no_space_around_the_quoted_label():
    from gpuplanner.ui.text import _CJK_QUOTE_SPACE

    assert _CJK_QUOTE_SPACE.sub("", "需要打开 \u201cFlash attention\u201d 才行") == "需要打开\u201cFlash attention\u201d才行"
    assert _CJK_QUOTE_SPACE.sub("", "needs \u201cFlash attention\u201d on") == "needs \u201cFlash attention\u201d on"


def test_custom_gpu_dialog_power_label_uses_full_width_brackets_in_chinese(qapp):
    from gpuplanner.i18n import LanguageManager
    from PySide6.QtCore import QCoreApplication

    lm = LanguageManager(qapp)
    try:
        lm.install("zh_CN")
        text = QCoreApplication.translate("CustomGpuDialog", "TDP (W)")
        assert text == "TDP（W）", text
    finally:
        lm.install("en")


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_path_given_a_value_reads_as_the_label_and_the_shown_choice(make_window, language, lang):
    language.install(lang)
    w = make_window(search_enabled=False)
    assert w.open_path(ROOT / "examples" / "qwen3-moe-full-16xh100.gpuplan", show_errors=False)
    assert w.model.scenario.training.recompute == "full"
    w.go_to(1)
    page = w.page("training")
    combo = page.advanced.fields["cuda_graph_scope"]
    i = combo.findData("layer")
    combo.setCurrentIndex(i)
    combo.activated.emit(i)
    QApplication.processEvents()
    shown = combo.box.error_label.text()
    assert combo.box.error is not None and "parallel." not in shown and "training." not in shown, shown
    sep = ": " if lang == "en" else "："
    label = page.advanced.labels["cuda_graph_scope"].text()
    assert f"\u201c{label}{sep}{combo.itemText(i)}\u201d" in shown, shown
    w.model.set_dirty(False)
