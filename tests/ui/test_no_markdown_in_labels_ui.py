"""No page shows markdown marks as text: the Verify page's introduction read "paste `nvidia-smi topo -m`" with the
backticks, in English and Chinese (a QLabel in plain text shows them as they are)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication, QLabel


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_no_backticks_on_any_page(make_window, language, lang):
    language.install(lang)
    w = make_window(search_enabled=False)
    for i in range(9):
        w.go_to(i)
        QApplication.processEvents()
    shown = [lab.text() for lab in w.findChildren(QLabel) if "`" in lab.text()]
    assert not shown, shown
