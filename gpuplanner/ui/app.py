"""Start the desktop application."""

from __future__ import annotations

import argparse
import sys

# Import the pure-Python core (numpy, pydantic) before PySide6: once PySide6 is loaded, its __feature__
# import hook reads the source of every module imported afterwards (inspect.getsource), which cost
# ~0.4 s of start-up here.
from gpuplanner.app import engine  # noqa: F401  (Qt-free)
from gpuplanner.io import autosave, planfile  # noqa: F401,E402  (Qt-free: the document controller's file layer)

from PySide6.QtCore import QEvent, QObject  # noqa: E402


class FileOpenFilter(QObject):
    """macOS sends a double-clicked document as a QFileOpenEvent, not in argv (Frescobaldi's handler)."""

    def __init__(self, window):
        super().__init__(window)
        self.window = window

    def eventFilter(self, obj, ev):  # noqa: N802 (Qt)
        if ev.type() == QEvent.Type.FileOpen:
            path = ev.file()
            if path and self.window.doc.maybe_save():
                self.window.doc.open_path(path)
            return True
        return False


#: Qt warnings that say nothing to a user: the offscreen platform (self-test, screenshots, CI) prints this one
#: for every window it shows (QOffscreenWindow has no size hints to pass on).
QUIET_QT_MESSAGES = frozenset({"This plugin does not support propagateSizeHints()"})
_message_handler: list = []  # the installed handler, kept alive


def install_message_filter() -> None:
    """Route Qt's messages through a handler that drops :data:`QUIET_QT_MESSAGES` and prints the rest as Qt's
    default handler would (its format, on stderr)."""
    if _message_handler:
        return
    from PySide6.QtCore import qFormatLogMessage, qInstallMessageHandler

    def handler(mode, context, message):
        if message in QUIET_QT_MESSAGES:
            return
        sys.stderr.write(qFormatLogMessage(mode, context, message) + "\n")

    _message_handler.append(handler)
    qInstallMessageHandler(handler)


class _OneLineParser(argparse.ArgumentParser):
    def error(self, message: str):
        """A bad option for the app (``gpuplanner --bogus``): one line on stderr, exit 2, as the commands' own
        parser says it (cli._Parser); argparse's own printed the usage line first (probe13)."""
        from gpuplanner.io.safe_read import one_line

        self.exit(2, f"gpuplanner: error: {one_line(message, 360)}\n")


def run_app(argv: list[str]) -> int:
    parser = _OneLineParser(prog="gpuplanner", description="GPU Planner desktop app")
    parser.add_argument("file", nargs="?", help="a scenario or .gpuplan file to open")
    parser.add_argument("--self-test", action="store_true", help="open the window, render every page, exit 0")
    args = parser.parse_args(argv)
    install_message_filter()
    import warnings

    # numpy's RuntimeWarnings from our own arithmetic (an overflow in a candidate then dropped) are not messages
    # for the user, as in the CLI (issue #32); other libraries' warnings stay visible
    warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"gpuplanner\.")

    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(sys.argv[:1])
    # cyclic garbage collection on this (the GUI) thread only, from a timer: a collection that runs in a worker
    # thread can destroy QObjects there and deadlock with this thread (gc_collector.py)
    from .gc_collector import install as install_gc_collector

    install_gc_collector(app)
    app.setApplicationName("GPU Planner")
    # Wayland compositors match the window to packaging/linux/gpuplanner.desktop by this name (icon, menu entry)
    app.setDesktopFileName("gpuplanner")
    app.setOrganizationName("GPU Planner")

    # UI language: the saved choice, else the system locale (live switch: Settings → Language)
    from gpuplanner.i18n import LanguageManager, ensure_cjk_font

    # Chinese glyphs on every machine: an installed CJK font, else the bundled one (resources/fonts),
    # registered before the first window so Qt's font fallback draws Chinese with it
    ensure_cjk_font()

    from .settings import language_setting, resolve_language

    app.language_manager = LanguageManager(app)
    app.language_manager.install(resolve_language(language_setting()))

    from .main_window import MainWindow

    window = MainWindow(autosave=not args.self_test)
    if args.file:
        # In self-test mode nobody can dismiss a dialog: report the problem on stderr and fail instead.
        opened = window.doc.open_path(args.file, show_errors=not args.self_test)
        if args.self_test and not opened:
            print(f"gpuplanner: error: {window.statusBar().currentMessage()}", file=sys.stderr)
            return 2
    window.show()
    if args.self_test:
        return window.self_test()
    app.installEventFilter(FileOpenFilter(window))
    if not args.file:
        QTimer.singleShot(0, window.doc.offer_recovery)
    return app.exec()
