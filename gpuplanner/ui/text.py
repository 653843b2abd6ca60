"""Display helpers: translate the core's marked messages at display time."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication


def tr_msg(m: Any) -> str:
    """A core message (``Msg`` with context/text/params, or a plain marked string) in the UI language."""
    if m is None:
        return ""
    text = getattr(m, "text", None)
    ctx = getattr(m, "context", None)
    if isinstance(text, str) and isinstance(ctx, str):
        params = dict(getattr(m, "params", {}) or {})
        translated = QCoreApplication.translate(ctx, text)
        try:
            return translated.format(**params)
        except (KeyError, IndexError, ValueError):
            return m.render() if hasattr(m, "render") else text.format(**params)
    return str(m)
