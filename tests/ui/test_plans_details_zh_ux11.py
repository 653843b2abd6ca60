"""ux11: the Plans details of examples/7b-lora-1x4090.json in Chinese ran sentences on with an ASCII space after
"。" ("早 0.47 天完成。 NVIDIA …", "（0.8 天对比 1.3 天）。 PyTorch FSDP2 …"), put the MFU grade in ASCII brackets
("MFU 46% (良好)") and a space after a full-width bracket ("llm-foundry（PyTorch FSDP） 训练记录")."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtWidgets import QApplication

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "7b-lora-1x4090.json"


def test_the_details_punctuate_in_chinese(make_window, language, qtbot):
    language.install("zh_CN")
    w = make_window()
    assert w.open_path(EXAMPLE, show_errors=False)
    qtbot.waitUntil(lambda: w.search.state in ("done", "failed"), timeout=60000)
    page = w.page("plans")
    w.go_to(5)
    qtbot.waitUntil(lambda: page.table_model.rowCount() > 1, timeout=10000)
    page.view.selectRow(0)
    QApplication.processEvents()
    text = page.details.toPlainText()
    assert "为什么选这个方案" in text and "与 #2" in text, text[:500]
    assert "。 " not in text, [x for x in text.splitlines() if "。 " in x]
    assert not re.search(r"\d% \(", text), [x for x in text.splitlines() if "% (" in x]
    assert re.search(r"MFU \d+%（", text)
    assert not re.search(r"） +[\u4e00-\u9fff]", text), [x for x in text.splitlines() if re.search(r"） +[\u4e00-\u9fff]", x)]


def test_the_details_still_read_in_english(make_window, language, qtbot):
    language.install("en")
    w = make_window()
    assert w.open_path(EXAMPLE, show_errors=False)
    qtbot.waitUntil(lambda: w.search.state in ("done", "failed"), timeout=60000)
    page = w.page("plans")
    w.go_to(5)
    qtbot.waitUntil(lambda: page.table_model.rowCount() > 1, timeout=10000)
    page.view.selectRow(0)
    QApplication.processEvents()
    text = page.details.toPlainText()
    assert re.search(r"MFU \d+% \((good|fair|poor)\)", text), text
    assert re.search(r"longer\. NVIDIA|sooner\. NVIDIA|\. [A-Z#]", text)


def test_the_framework_is_named_once(make_window, language, qtbot):
    """The details said "Framework: PyTorch FSDP2 (torchtune)" and, on the next line, "Framework: PyTorch FSDP2
    (torchtune), chosen by the search …"."""
    language.install("en")
    w = make_window()
    assert w.open_path(EXAMPLE, show_errors=False)
    qtbot.waitUntil(lambda: w.search.state in ("done", "failed"), timeout=60000)
    page = w.page("plans")
    w.go_to(5)
    qtbot.waitUntil(lambda: page.table_model.rowCount() > 1, timeout=10000)
    page.view.selectRow(0)
    QApplication.processEvents()
    lines = [x for x in page.details.toPlainText().splitlines() if x.startswith("Framework:")]
    assert len(lines) == 1 and "chosen by the search" in lines[0], lines
