"""Shared helpers of the screenshot scripts (``scripts/screenshots_*.py``): let Qt run for a while, and open the
main window at 1280×800 and wait for its plan search."""

from __future__ import annotations

import time


def spin(app, seconds: float) -> None:
    """Process events for ``seconds`` (paints, timers, queued results)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)


def open_window(app, *, search: bool = True, settle_s: float = 0.3, timeout_s: float = 60.0):
    """A shown 1280×800 main window (no autosave); with ``search``, once the plan search has finished."""
    from gpuplanner.ui.main_window import MainWindow

    w = MainWindow(autosave=False, search_enabled=search)
    w.resize(1280, 800)
    w.show()
    t0 = time.monotonic()
    while search and w.search.state not in ("done", "failed") and time.monotonic() - t0 < timeout_s:
        app.processEvents()
        time.sleep(0.01)
    spin(app, settle_s)
    return w


def wait_search(app, w, timeout_s: float = 90.0) -> None:
    """Lets the window's plan search start (after opening a plan), waits up to ``timeout_s`` for it to finish, and
    lets the results paint."""
    t0 = time.monotonic()
    spin(app, 0.5)
    while w.search.state not in ("done", "failed") and time.monotonic() - t0 < timeout_s:
        app.processEvents()
        time.sleep(0.02)
    spin(app, 0.5)


def qt_app():
    """The running QApplication, or a new one (offscreen unless told otherwise, with settings and caches of its
    own: a screenshot never reads or writes the user's)."""
    import os
    import sys
    import tempfile

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ.setdefault("GPUPLANNER_CONFIG_DIR", tempfile.mkdtemp(prefix="gpuplanner-shots-"))
    os.environ.setdefault("GPUPLANNER_CACHE_DIR", tempfile.mkdtemp(prefix="gpuplanner-shots-cache-"))
    from PySide6.QtWidgets import QApplication

    return QApplication.instance() or QApplication(sys.argv[:1])


def each_language(app, langs: tuple[str, ...] = ("en", "zh_CN")):
    """Installs each of ``langs`` in turn (the bundled CJK font registered first) and yields it; English again
    at the end."""
    from gpuplanner.i18n import LanguageManager, ensure_cjk_font

    ensure_cjk_font()
    lm = LanguageManager(app)
    try:
        for lang in langs:
            lm.install(lang)
            yield lang
    finally:
        lm.install("en")
