"""The Data page's token field: it reads 万/亿/万亿 as well as K/M/B/T, refuses bad text in one line in the UI
language (keeping what was typed), and once edited shows the count the way the UI language counts it
(``formatting.format_tokens``: "2B" / "20 亿")."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from tests.ui.test_issue35_fields_ui import refused, type_text


@pytest.fixture
def data(make_window):
    w = make_window(search_enabled=False)
    page = w.page("data")
    page.mode_buttons["tokens"].setChecked(True)
    return w, page


def _finish(edit) -> None:
    edit.editingFinished.emit()
    QApplication.processEvents()


def test_chinese_units_are_read_and_shown_in_the_ui_language(data, language):
    w, page = data
    assert language.install("zh_CN")
    QApplication.processEvents()
    type_text(page.tokens, "1.41万亿")
    assert w.model.user_scenario().data.tokens == pytest.approx(1.41e12)
    _finish(page.tokens)
    assert page.tokens.text() == "1.41 万亿"
    type_text(page.tokens, "3000万")
    _finish(page.tokens)
    assert w.model.user_scenario().data.tokens == pytest.approx(3e7)
    assert page.tokens.text() == "3,000 万"
    type_text(page.tokens, "100B")  # the trade's form typed in the Chinese UI: shown as 1,000 亿
    _finish(page.tokens)
    assert page.tokens.text() == "1,000 亿"
    language.install("en")
    QApplication.processEvents()
    assert page.tokens.text() == "100B"  # the same count, in English
    type_text(page.tokens, "20亿")
    _finish(page.tokens)
    assert page.tokens.text() == "2B" and w.model.user_scenario().data.tokens == 2e9


def test_showing_a_count_never_rounds_it(data):
    w, page = data
    type_text(page.tokens, "1.4123T")
    _finish(page.tokens)
    assert page.tokens.text() == "1.4123T" and w.model.user_scenario().data.tokens == pytest.approx(1.4123e12)
    type_text(page.tokens, "1234567")
    _finish(page.tokens)
    assert page.tokens.text() == "1.234567M"


@pytest.mark.parametrize("bad", ["20亿亿", "nan", "1e999", "9" * 300, "二十亿"])
def test_bad_text_is_refused_in_one_chinese_line_and_kept(data, language, bad):
    w, page = data
    type_text(page.tokens, "20亿")
    assert language.install("zh_CN")
    QApplication.processEvents()
    type_text(page.tokens, bad)
    _finish(page.tokens)
    refused(page.tokens)
    err = page.tokens.box.error_label.text()  # the line shown, in the UI language
    assert any("\u4e00" <= ch <= "\u9fff" for ch in err.replace(bad, "")), err
    assert "Traceback" not in err and "count" not in err
    assert page.tokens.text() == bad  # nothing typed is lost
    assert w.model.user_scenario().data.tokens == 2e9  # the last good count stays
