"""ux12: the Chinese Plans details read "3.22K tokens/s" (review ux11): a Chinese reader counts in 万, not in
thousands, so the speed goes through formatting.format_tokens (format_large's 万/亿 in Chinese, K/M in English)."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtWidgets import QApplication

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "7b-lora-1x4090.json"


def _details(make_window, language, qtbot, lang):
    language.install(lang)
    w = make_window()
    assert w.open_path(EXAMPLE, show_errors=False)
    qtbot.waitUntil(lambda: w.search.state in ("done", "failed"), timeout=60000)
    page = w.page("plans")
    w.go_to(5)
    qtbot.waitUntil(lambda: page.table_model.rowCount() > 1, timeout=10000)
    page.view.selectRow(0)
    QApplication.processEvents()
    return page.details.toPlainText()


def test_the_chinese_speed_has_no_k_suffix(make_window, language, qtbot):
    text = _details(make_window, language, qtbot, "zh_CN")
    speed = [x for x in text.splitlines() if "MFU" in x and "token" in x]
    assert speed, text[:600]
    assert not re.search(r"\d[KMBT]\b", speed[0]), speed[0]


def test_the_english_speed_keeps_the_short_form(make_window, language, qtbot):
    text = _details(make_window, language, qtbot, "en")
    speed = [x for x in text.splitlines() if "tokens/s" in x]
    assert speed and re.search(r"\d(\.\d+)?K tokens/s|\d{1,3} tokens/s", speed[0]), speed
