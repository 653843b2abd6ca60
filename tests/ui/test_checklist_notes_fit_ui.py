"""The vendor checklist's notes fields at 1280×800: each field's placeholder is read whole in English and Chinese
(beside a long English title the field is narrow, and "Notes (what the vendor said, quote, date)" showed as
"Notes (what t…"); what to write is in the field's tooltip."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_notes_placeholders_fit(make_window, language, qtbot, lang):
    language.install(lang)
    w = make_window(search_enabled=False)
    w.resize(1280, 800)
    w.go_to(6)
    panel = w.page("verify").panel
    QApplication.processEvents()
    rows = [r for r in panel._check_rows.values() if not r[0].isHidden()]
    assert len(rows) >= 9
    for box, _why, notes in rows:
        qtbot.waitUntil(lambda n=notes: n.width() > 0, timeout=5000)
        text = notes.placeholderText()
        room = notes.width() - 12  # the frame and text margins of a line edit
        assert notes.fontMetrics().horizontalAdvance(text) <= room, (box.text(), text, notes.width())
        assert notes.toolTip() and notes.toolTip() != text
