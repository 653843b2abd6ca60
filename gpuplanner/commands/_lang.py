"""The CLI's language: every command takes ``--lang en|zh_CN`` (default: the app's saved language, else the
system locale from ``LC_ALL``/``LC_MESSAGES``/``LANG``), and prints its sentences and numbers in it.

English needs nothing (the sources are English, no Qt is imported). Chinese installs the same Qt translation
the app uses (a ``QCoreApplication`` without a window) and sets Qt's default locale, which
:mod:`gpuplanner.formatting` follows (万/亿, ¥). Sentences of the commands are marked
``translate(CTX, "…")`` (context ``CLI``) so ``scripts/update_translations.py`` extracts them; core messages
(:class:`~gpuplanner.core.messages.Msg`) are translated in their own context by :func:`msg`.
"""

from __future__ import annotations

import os

CTX = "CLI"
LANGS = ("en", "zh_CN")

_state = {"lang": "en", "manager": None, "app": None}


def default_language() -> str:
    """The app's saved UI language (``ui/language`` in its settings file), or the system locale's."""
    try:
        from ..io.app_settings import read_setting

        saved = read_setting("ui", "language", "system")
    except Exception:  # noqa: BLE001 - an unreadable settings file never stops a command
        saved = "system"
    if saved in LANGS:
        return saved
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        if value:
            return "zh_CN" if value.lower().startswith("zh") else "en"
    return "en"


def install(lang: str | None, gui: bool = False) -> str:
    """Use ``lang`` (None: :func:`default_language`) for this process's output; returns the language used.
    ``gui``: the command draws (the PDF report) and needs a QApplication rather than a QCoreApplication."""
    lang = lang if lang in LANGS else default_language()
    _state["lang"] = lang
    if _state["manager"] is not None:  # a previous command in this process (tests) installed Chinese
        _state["manager"].install("en")
        _state["manager"] = None
    if lang == "en" or gui:  # the report installs its language itself, on its own QApplication
        return lang
    from PySide6.QtCore import QCoreApplication

    from ..i18n import LanguageManager

    app = QCoreApplication.instance()
    if app is None:
        # a QApplication, not a bare QCoreApplication: a later report in the same process (tests, scripts)
        # needs fonts and images; offscreen, as a command draws nothing on screen (no display needed)
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        from PySide6.QtWidgets import QApplication

        app = QApplication([])
    _state["app"] = app
    manager = LanguageManager(app)
    if not manager.install(lang):
        import sys

        print(f"gpuplanner: note: no translation file for {lang}; the output is in English", file=sys.stderr)
    _state["manager"] = manager
    return lang


def language() -> str:
    return _state["lang"]


def translate(context: str, text: str) -> str:
    """``text`` in the CLI's language (the English source when English or not translated)."""
    if _state["lang"] == "en":
        return text
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.translate(context, text)


def msg(m) -> str:
    """A core message (:class:`~gpuplanner.core.messages.Msg`) in the CLI's language."""
    if _state["lang"] == "en" or not getattr(m, "context", ""):
        return m.render() if hasattr(m, "render") else str(m)
    from ..i18n import translate_message

    return translate_message(m.context, m.text, dict(m.params))


def name(context: str, text: str) -> str:
    """A marked name (a rental mode, a link kind …) from the core, translated where a translation exists."""
    if _state["lang"] == "en" or not isinstance(text, str):
        return text
    from ..i18n import translate_param

    return translate_param(context, text)
