"""A number a field cannot read is refused at the field in the UI language (issue 35 r4): the fields' own parse
errors ("'abc' is not a number", "must be more than zero") and the core's count parser's keep their message id
to the display, so the Chinese UI shows no English sentence there."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from tests.ui.test_i18n_ui import ALLOWED_WORDS, untranslated_words, window  # noqa: F401 (fixtures)

BAD = "abc"


def _chinese(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def _type(qtbot, edit, text: str) -> None:
    edit.setFocus()
    edit.selectAll()
    qtbot.keyClicks(edit, text)  # textEdited per key, as a person types
    QApplication.processEvents()


def test_every_number_field_refuses_a_bad_value_in_chinese(window, language, qtbot):  # noqa: F811
    from gpuplanner.ui.fields import BoundEdit

    from tests.ui.test_i18n_ui import page_count

    assert language.install("zh_CN")
    for i in range(page_count(window)):  # the pages are built when first shown
        window.go_to(i)
        QApplication.processEvents()
    edits = [e for e in window.findChildren(BoundEdit) if e.isEnabled()]
    assert len(edits) > 20, len(edits)
    refused, english = 0, []
    for edit in edits:
        before = edit.text()
        _type(qtbot, edit, BAD)
        if edit.local_error is None:
            continue  # a field that takes text (a model id …) is not a number field
        refused += 1
        assert hasattr(edit.local_error, "context"), f"the parse error lost its message id: {edit.local_error!r}"
        for shown in (edit.box.error_label.text(), edit.box.toolTip().rpartition("⚠")[2]):
            left = untranslated_words(shown.replace(BAD, " "), ALLOWED_WORDS)
            if left or not _chinese(shown):
                english.append((edit.path, shown))
        edit.setText(before)
        edit.local_error = None
    assert refused > 20, refused
    assert not english, english


def test_zero_is_refused_in_chinese_where_a_positive_number_is_needed(window, language, qtbot):  # noqa: F811
    from gpuplanner.ui.pages.budget_page import parse_pos
    from gpuplanner.ui.pages.data_page import parse_positive_count, parse_positive_float
    from gpuplanner.ui.text import error_message

    assert language.install("zh_CN")
    for parse, text in ((parse_pos, "0"), (parse_positive_float, "-1"), (parse_positive_count, "0"),
                        (parse_positive_count, "abc")):
        try:
            parse(text)
        except ValueError as err:
            shown = error_message(err)
        else:
            raise AssertionError(f"{parse.__name__}({text!r}) was accepted")
        assert _chinese(shown) and not untranslated_words(shown.replace("abc", " "), ALLOWED_WORDS), shown
