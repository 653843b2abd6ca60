"""UI test fixtures: a main window per test, dialogs that never block, no thread left running."""

from __future__ import annotations

import json

import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox


class DialogLog:
    """Records message boxes; ``answer`` is what QMessageBox.question returns."""

    def __init__(self):
        self.calls: list[tuple[str, str]] = []
        self.answer = QMessageBox.StandardButton.Discard


@pytest.fixture(autouse=True)
def _gc_on_the_main_thread():
    """No automatic garbage collection during a UI test, one full collection after it on the main thread.

    A collection triggered inside a search or sweep worker thread destroys the QObjects in the garbage there, and
    ~QObject (holding Qt's signal lock, waiting for the GIL) deadlocks with the main thread deleting a widget
    (holding the GIL, waiting for that lock): a CI hang in tests/ui/test_parity_ui.py (gdb: both threads in
    ~QObject). Set up before qtbot, so this collection runs after qtbot has closed the test's windows."""
    import gc

    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.collect()


@pytest.fixture(autouse=True)
def dialogs(monkeypatch):
    log = DialogLog()

    def question(parent, title, text, *a, **k):
        log.calls.append(("question", text))
        return log.answer

    def record(kind):
        def f(parent, title, text, *a, **k):
            log.calls.append((kind, text))
            return QMessageBox.StandardButton.Ok
        return f

    monkeypatch.setattr(QMessageBox, "question", question)
    monkeypatch.setattr(QMessageBox, "warning", record("warning"))
    monkeypatch.setattr(QMessageBox, "information", record("information"))
    monkeypatch.setattr(QMessageBox, "about", record("about"))
    # any file dialog a test did not patch fails loudly instead of blocking
    for name in ("getOpenFileName", "getSaveFileName", "getExistingDirectory"):
        monkeypatch.setattr(QFileDialog, name, lambda *a, **k: pytest.fail("unpatched file dialog"))
    # the recovery dialog is modal too: a test that did not patch it fails instead of waiting forever
    from gpuplanner.ui.recovery import RecoveryDialog

    monkeypatch.setattr(RecoveryDialog, "exec", lambda *a, **k: pytest.fail("unpatched recovery dialog"))
    return log


@pytest.fixture
def make_window(qtbot):
    from gpuplanner.ui.main_window import MainWindow

    made = []

    def make(**kw):
        kw.setdefault("autosave", False)
        w = MainWindow(**kw)
        qtbot.addWidget(w)
        w.show()
        made.append(w)
        return w

    yield make
    for w in made:
        w.model.set_dirty(False)
        w.search.shutdown()
        w.estimator.shutdown()


@pytest.fixture
def language(qapp):
    """The app's language manager, for a test to install a language in (English again afterwards)."""
    from PySide6.QtWidgets import QApplication

    from gpuplanner.i18n import LanguageManager

    lm = LanguageManager(qapp)
    yield lm
    lm.install("en")
    QApplication.processEvents()


@pytest.fixture
def win(make_window, qtbot):
    w = make_window()
    qtbot.waitUntil(lambda: w.search.state == "done", timeout=20000)
    return w


from ui_helpers import TINY_CONFIG  # noqa: E402


@pytest.fixture
def tiny_config(tmp_path):
    p = tmp_path / "tiny" / "config.json"
    p.parent.mkdir()
    p.write_text(json.dumps(TINY_CONFIG), encoding="utf-8")
    return p


def searched(win) -> bool:
    """The window's plan search is done for the document as it is now (not an earlier one's, none pending)."""
    s = win.search
    return s.state in ("done", "failed") and not s._timer.isActive() and s._key == s.search_key(win.model)


def first_plan_details(win, qtbot, until: str, timeout: int = 60000):
    """The Plans page, once the window's search is done (:func:`searched`), with its first plan selected and its
    details showing ``until``."""
    qtbot.waitUntil(lambda: searched(win) and win.search.outcome is not None, timeout=timeout)
    win.go_to(5)
    page = win.page("plans")
    page.view.selectRow(0)
    qtbot.waitUntil(lambda: until in page.details.toPlainText(), timeout=10000)
    return page


@pytest.fixture
def search_done():
    """:func:`searched`, for the tests that wait for the window's own search."""
    return searched

