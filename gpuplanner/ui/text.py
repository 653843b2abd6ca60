"""Display helpers: translate the core's marked messages at display time."""

from __future__ import annotations

from typing import Any



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


def set_text(widget: Any, text: str) -> None:
    """``widget.setText(text)`` only when it changes (a rich-text label re-lays out its document on every call)."""
    if widget.text() != text:
        widget.setText(text)
