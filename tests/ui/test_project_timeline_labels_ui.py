"""The Project page's timeline at 1280×800: every phase's label lies inside the chart (a long Chinese label on a
middle phase, "full fine-tuning · 4 × A800 SXM4 80GB（中国特供版） · ¥10,224（¥1,704/周）", ran off its right edge),
and the weekly cost is in the language's brackets (full-width in Chinese, "¥1,704/周" not "(¥1,704/周)")."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from tests.ui.test_project_page import _open


@pytest.mark.parametrize("lang, bracket", [("zh_CN", "（"), ("en", " (")])
def test_timeline_labels_fit_inside_the_chart(make_window, language, tmp_path, qtbot, lang, bracket):
    language.install(lang)
    w, page, _ = _open(make_window, tmp_path, qtbot)
    w.resize(1280, 800)
    QApplication.processEvents()
    chart = page.timeline
    vb = chart.plot.getPlotItem().getViewBox()
    qtbot.waitUntil(lambda: vb.width() > 100, timeout=5000)
    chart.plot.grab()  # painted: pyqtgraph maps its text items when it draws them
    QApplication.processEvents()
    assert len(chart.labels) == 4
    box = vb.sceneBoundingRect()
    weekly = [t.toPlainText() for t, *_ in chart.labels if "/" in t.toPlainText()]
    assert weekly and all(bracket in x for x in weekly), weekly
    if lang == "zh_CN":
        assert not any("(" in x for x in weekly), weekly
    for text, start, end, _right in chart.labels:
        r = text.sceneBoundingRect()
        assert box.left() - 1 <= r.left() and r.right() <= box.right() + 1, (text.toPlainText(), r, box)


def test_a_phase_named_after_its_kind_is_named_once(make_window, qtbot):
    """A fresh document's one phase is called after its kind: the list reads "1. stable training", not
    "1. stable training (stable training)"; a phase with a name of its own keeps its kind in brackets."""
    w = make_window(search_enabled=False)
    w.go_to(7)
    page = w.pages[7]
    qtbot.waitUntil(lambda: page.list.count() == 1, timeout=10000)
    assert page.list.item(0).text() == "1. stable training"
    page._data["phases"][0]["name"] = "main run"
    page._refresh_list_texts()
    assert page.list.item(0).text() == "1. main run (stable training)"
    w.model.set_dirty(False)
