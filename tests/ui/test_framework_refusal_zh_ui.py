"""A framework refusal in the live panel reads Chinese in the Chinese UI: its layout words ("ZeRO-3 与 PP 同用",
"TP 与 PP 同用"), the method ("全参微调"), its lists (joined with "、") and the source it cites are translated, so no
English word is left beside the product names (tests/ui/test_i18n_ui.py ALLOWED_WORDS)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from tests.ui.test_i18n_ui import ALLOWED_WORDS, data_words, untranslated_words

#: the product names and citations these refusals show as they are: frameworks (DeepSpeed, Hugging Face
#: Trainer / Accelerate, Transformers), parallelism names, an author's name and the arXiv id of a cited paper
NAMES = {"DDP", "Hugging", "Face", "Trainer", "Accelerate", "Transformers", "TorchTitan", "Liang", "arXiv",
         "fully_shard", "fully", "shard"}

CASES = [
    ("deepspeed", "full", {"tp": 2, "pp": 2, "zero": 3}, ("ZeRO-3 与 PP 同用", "TP 与 PP 同用", "全参微调")),
    ("hf", "full", {"tp": 2}, ("全参微调", "DDP、ZeRO-1")),
    ("hf", "full", {"pp": 2, "cp": 2}, ("PP 2、CP 2",)),
    ("fsdp", "lora", {"tp": 2}, ("Liang 等",)),
]


@pytest.mark.parametrize("framework, method, layout, words", CASES)
def test_a_framework_refusal_in_the_live_panel_is_chinese(make_window, language, qtbot, framework, method,
                                                          layout, words):
    assert language.install("zh_CN")
    w = make_window(search_enabled=False)
    w.model.set("training.method", method)
    w.model.set("training.framework", framework)
    w.model.set("parallel.auto", False)
    w.model.set("hardware.num_gpus", 16)
    for key, v in layout.items():
        w.model.set(f"parallel.{key}", v)
    qtbot.waitUntil(lambda: w.estimator.result is not None and bool(w.estimator.result.error), timeout=10000)
    assert "framework" in getattr(w.estimator.result.error, "field", "training.framework")
    QApplication.processEvents()
    text = w.live.error.text()
    assert "不支持" in text, text  # the framework's refusal, not another error
    for word in words:
        assert word in text, (word, text)
    left = untranslated_words(text, ALLOWED_WORDS | data_words() | NAMES)
    assert not left, f"English in the Chinese live panel: {left} in {text!r}"
    assert ", " not in text and "; " not in text, text
    assert not text.startswith("training."), text  # no plan-file path in front of the Chinese sentence


def test_the_refusal_names_the_field_by_its_label(make_window, language, qtbot):
    assert language.install("zh_CN")
    w = make_window(search_enabled=False)
    label = w.page("training").labels["framework"].text()
    w.model.set("training.framework", "hf")
    w.model.set("parallel.auto", False)
    w.model.set("parallel.tp", 2)
    qtbot.waitUntil(lambda: w.estimator.result is not None and bool(w.estimator.result.error), timeout=10000)
    QApplication.processEvents()
    text = w.live.error.text()
    assert label and text.startswith(label + "："), (label, text)
    assert "不支持" in text and "training.framework" not in text, text
    box = w.page("training").framework.box  # at the field itself: the sentence alone, no path in front
    qtbot.waitUntil(lambda: bool(box.error_label.text()), timeout=5000)
    shown = box.error_label.text()
    assert shown.startswith("Hugging Face") and "不支持" in shown and "training." not in box.toolTip(), shown
