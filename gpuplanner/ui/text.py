"""Display helpers: translate the core's marked messages at display time."""

from __future__ import annotations

import re
from typing import Any

from gpuplanner.formatting import quoted


def tr_msg(m: Any) -> str:
    """A core message (``Msg`` with context/text/params, or a plain marked string) in the UI language."""
    if m is None:
        return ""
    text = getattr(m, "text", None)
    ctx = getattr(m, "context", None)
    if isinstance(text, str) and isinstance(ctx, str):
        from gpuplanner.i18n import translate_message

        try:
            return translate_message(ctx, text, getattr(m, "params", {}) or {})
        except (KeyError, IndexError, ValueError):
            return m.render() if hasattr(m, "render") else text
    return str(m)


def mfu_cell(mfu: float, ev: Any, short: bool = False) -> str:
    """A plan's MFU as the live panel shows it: "52% (capped)" where the plan is timed and costed at the best
    published run of its class (``Evaluation.mfu_capped``, the mark ``gpuplanner plan`` prints; issue 35 r17
    parity17), else the figure alone. ``short``: the Plans table's narrow cell, "52%*" (its header's and the cell's
    tooltips say what the star means; the nine columns fit 1280×800, tests/ui/test_first_hour_ui.py)."""
    from PySide6.QtCore import QCoreApplication

    from gpuplanner.formatting import format_mfu, join_clause, paren

    if not ev.mfu_capped:
        return format_mfu(mfu)
    if short:
        return format_mfu(mfu) + CAPPED_STAR
    return join_clause(format_mfu(mfu), paren(QCoreApplication.translate("PlansPage", "capped")))


#: the Plans table's mark of a capped MFU (:func:`mfu_cell`)
CAPPED_STAR = "*"


def field_label(widget: Any, path: str) -> str:
    """The text of the form label (in ``widget``'s window) whose field is bound to the scenario ``path``, or "" when
    no page built so far shows that field."""
    return _field_row(widget, path)[0]


def tr_error(m: Any, widget: Any = None, own: bool = False) -> str:
    """A scenario error in the UI language. The core names the field by its dotted path in front ("training.framework:
    …", the plan file's name for it); a view names it by its label on its page ("框架：…", :func:`field_label` in
    ``widget``'s window), or leaves it out at the field itself (``own``) and, in a translated UI, where no page
    shows it yet: no English path stands in front of a Chinese sentence."""
    return name_fields(_tr_error(m, widget, own), widget)


#: a scenario field's dotted path inside a message ("parallel.moe_capacity_factor"), or with the value it is given
#: ("parallel.cuda_graph_scope=layer")
_FIELD_PATH = re.compile(r"(?<![A-Za-z0-9_.])((?:model|training|parallel|hardware|data|assumptions|constraints)"
                         r"\.[a-z][a-z0-9_]*)(?:=([A-Za-z0-9_]+(?:\.[0-9]+)?))?(?![A-Za-z0-9_=])")
#: Chinese sets no space between its own characters and the curly quotes (the .ts keeps the space the English path
#: needed: "需要打开 training.flash_attention" → "需要打开“Flash attention”")
_CJK_QUOTE_SPACE = re.compile(r"(?<=[\u3000-\u9fff\uff00-\uffef]) (?=\u201c)|(?<=\u201d) (?=[\u3000-\u9fff\uff00-\uffef])")


def _field_row(widget: Any, path: str) -> tuple[str, Any]:
    """The label text and the editor of the form row bound to ``path`` in ``widget``'s window (``("", None)``)."""
    from PySide6.QtWidgets import QLabel

    root = widget.window() if widget is not None else None
    for label in root.findChildren(QLabel) if root is not None else ():
        buddy = label.buddy()
        if buddy is not None and getattr(buddy, "path", None) == path and label.text().strip():
            return label.text().strip(), buddy
    return "", None


def _value_text(editor: Any, value: str) -> str | None:
    """How the row's editor shows ``value`` (a choice's item text, a typed number as it is), or None when it
    cannot say (a switch: the message's own words stay)."""
    from PySide6.QtWidgets import QComboBox, QLineEdit

    if isinstance(editor, QComboBox):
        for i in range(editor.count()):
            if str(editor.itemData(i)) == value:
                return editor.itemText(i)
        return None
    return value if isinstance(editor, QLineEdit) else None


def name_fields(text: str, widget: Any = None) -> str:
    """``text`` with each field path it names inside ("… needs parallel.moe_capacity_factor") replaced by that
    field's label on its page, quoted (… needs “MoE capacity factor”), and a path given a value by the label and
    the value as the field shows it ("parallel.cuda_graph_scope=layer" → “CUDA graphs: whole layer”), where a page
    built so far in ``widget``'s window shows the field; anything else stays as it is (the plan file's words)."""
    if widget is None or "." not in text:
        return text
    from gpuplanner.formatting import colon

    def label(match: re.Match) -> str:
        name, editor = _field_row(widget, match.group(1))
        if not name:
            return match.group(0)
        if match.group(2) is None:
            return quoted(name)
        shown = _value_text(editor, match.group(2))
        return quoted(f"{name}{colon()}{shown}") if shown else match.group(0)

    return _CJK_QUOTE_SPACE.sub("", _FIELD_PATH.sub(label, text))


def _tr_error(m: Any, widget: Any, own: bool) -> str:
    params = getattr(m, "params", None) or {}
    if getattr(m, "context", None) != "Errors" or getattr(m, "text", None) != "{field}: {message}" \
            or "field" not in params or "message" not in params:
        return tr_msg(m)
    from PySide6.QtCore import QCoreApplication

    message = tr_msg(params["message"])
    if own:
        return message
    template = QCoreApplication.translate("Errors", "{field}: {message}")
    label = field_label(widget, str(params["field"])) if widget is not None else ""
    if label:
        return template.format(field=label, message=message)
    return tr_msg(m) if template == "{field}: {message}" else message


def error_message(err: BaseException) -> str:
    """An error's one-line sentence in the UI language: its message id when it keeps one (``MsgStr`` as the
    exception's argument: the core's, io's and the fields' refusals), else its text as it is. ``str(err)`` would
    lose the id and show the English sentence in the Chinese UI."""
    from gpuplanner.core.messages import error_text

    return tr_msg(error_text(err))


def plural(text: str, n: int) -> str:
    """A ``tr(…, "", n)`` result read right in English too: Qt fills ``%n`` but the app ships no English
    catalogue for plural forms, so an English source's ``(s)`` becomes ``s`` or nothing here (a translation,
    such as the Chinese one, has no ``(s)`` and is left as it is)."""
    return text.replace("(s)", "" if abs(int(n)) == 1 else "s")


def set_style(widget: Any, css: str) -> None:
    """``widget.setStyleSheet(css)`` only when it changes: setting a style sheet (even the same one) re-polishes
    the widget and asks every enclosing layout to recompute, which repaints much of the window on each
    keystroke (issue "Fast at any size": measured with an event filter on the live path)."""
    if widget.styleSheet() != css:
        widget.setStyleSheet(css)


def plain(label: Any) -> Any:
    """``label`` (a QLabel) showing its text as typed: Qt's default (``Qt.AutoText``) takes a text whose first line
    holds something like a tag for HTML, and an error naming a stranger's value ("unknown GPU
    '<img src=/dev/zero>'") then loaded that file as an image and hung the window (probe16). Returns ``label``."""
    from PySide6.QtCore import Qt

    label.setTextFormat(Qt.TextFormat.PlainText)
    return label


def warning_box(parent: Any, title: str, text: str) -> None:
    """``QMessageBox.warning(parent, title, text)`` with ``text`` shown as typed: the message boxes that show an
    error naming a file or a value from it. A text Qt would take for HTML (``Qt.mightBeRichText``: a tag on its
    first line, see :func:`plain`) gets a box of its own with plain text; any other the static call."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import Qt as GuiQt
    from PySide6.QtWidgets import QMessageBox

    if not GuiQt.mightBeRichText(text):
        QMessageBox.warning(parent, title, text)
        return
    box = QMessageBox(QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.Ok, parent)
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.exec()


def set_text(widget: Any, text: str) -> None:
    """``widget.setText(text)`` only when it changes (a rich-text label re-lays out its document on every call)."""
    if widget.text() != text:
        widget.setText(text)


def better_line(scenario, estimator, search) -> str:
    """The line that says the search's best plan beats the manual layout by more than its tie, in the UI language
    ("" when it does not): :func:`gpuplanner.app.engine.better` decides it (the rule ``estimate``, ``plan`` and the
    PDF read through ``Answer.better``); the live panel and the Plans page show the same words (choice15)."""
    from gpuplanner.app import engine

    res = getattr(estimator, "result", None)
    outcome = search.outcome if getattr(search, "state", None) == "done" else None
    better = engine.better(scenario, None if res is None else res.evaluation, outcome)
    return "" if better is None else tr_msg(better.message)
