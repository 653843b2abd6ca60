"""Entry point: ``gpuplanner`` opens the app; ``gpuplanner COMMAND ...`` runs the command line."""

from __future__ import annotations

import os
import sys
import time

_T0 = time.perf_counter()
FIRST_WINDOW_ENV = "GPUPLANNER_EXIT_AFTER_FIRST_WINDOW"
FIRST_WINDOW_MARKER = "gpuplanner: first window painted"


def _exit_after_first_window() -> None:
    """Benchmark hook (``GPUPLANNER_EXIT_AFTER_FIRST_WINDOW=1``, used by ``bench/bench_bundle.py``).

    Creates the QApplication before the app does and watches for the first paint of a visible top-level
    window; once that paint has been processed it prints ``FIRST_WINDOW_MARKER ms=<ms since this module
    was imported>`` to stdout and ends the process at once (``os._exit``: start-up is measured, not
    teardown).
    """
    from PySide6.QtCore import QEvent, QObject, Qt, QTimer
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(sys.argv[:1])

    shown: list = []

    def report() -> None:
        title = shown[0].windowTitle() if shown else ""
        print(f"{FIRST_WINDOW_MARKER} ms={(time.perf_counter() - _T0) * 1000:.0f} title={title}", flush=True)
        os._exit(0)

    shown_kinds = (Qt.WindowType.Window, Qt.WindowType.Dialog, Qt.WindowType.SplashScreen)

    class _FirstPaint(QObject):
        fired = False

        def eventFilter(self, obj, event):  # noqa: N802 (Qt API)
            if not self.fired and event.type() == QEvent.Type.Paint and obj.isWidgetType():
                top = obj.window()
                if top.isVisible() and top.windowType() in shown_kinds:
                    self.fired = True
                    shown.append(top)
                    QTimer.singleShot(0, report)
            return False

    app._gpuplanner_first_paint = _FirstPaint(app)  # keep a reference
    app.installEventFilter(app._gpuplanner_first_paint)


def not_an_app_argument(argv: list[str]) -> str | None:
    """Why ``argv`` (not a command) must not open the window, or None. The app takes no argument or one file
    that exists: a word that is no file is a mistyped command (``estimte`` → "did you mean 'estimate'?"),
    anything else that is no file is a missing file; either way the caller exits 2 and no window opens."""
    import re

    positional = [a for a in argv if not a.startswith("-")]
    if not positional or os.path.isfile(positional[0]):
        return None
    name = positional[0]
    if re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", name):
        import difflib

        from .cli import command_names

        names = sorted(command_names())
        close = difflib.get_close_matches(name.lower(), names, n=1, cutoff=0.6)
        if close:
            return f"unknown command '{name}' — did you mean '{close[0]}'?"
        return f"unknown command '{name}' (commands: {', '.join(names)}; gpuplanner --help lists them)"
    if os.path.isdir(name):
        return f"'{name}' is a folder, not a plan file"
    return f"file not found: {name}"


def _lang_after_the_command(argv: list[str]) -> list[str]:
    """``gpuplanner --lang zh_CN estimate FILE`` as ``gpuplanner estimate FILE --lang zh_CN``: ``--lang`` is each
    command's option, and written first it was read as the command "zh_CN" ("unknown command 'zh_CN'"; issue 35
    r18, ux28). Anything else is returned as it is."""
    from .cli import is_command

    if argv[:1] == ["--lang"] and len(argv) > 2 and is_command(argv[2]):
        return argv[2:] + argv[:2]
    if argv[:1] and argv[0].startswith("--lang=") and len(argv) > 1 and is_command(argv[1]):
        return argv[1:] + argv[:1]
    return argv


#: a ``--lang`` given to the window (no command): "gpuplanner --lang zh_CN" said "unknown command 'zh_CN'"
LANG_WITHOUT_A_COMMAND = ("--lang goes with a command (gpuplanner COMMAND ... --lang zh_CN); the window's language: "
                          "Settings → Language")


def _without_lang(argv: list[str]) -> tuple[list[str], bool]:
    """``argv`` without its ``--lang X`` / ``--lang=X``, and whether it had one."""
    rest, lang = [], False
    it = iter(argv)
    for a in it:
        if a == "--lang":
            lang = True
            next(it, None)
        elif a.startswith("--lang="):
            lang = True
        else:
            rest.append(a)
    return rest, lang


def main(argv: list[str] | None = None) -> int:
    if getattr(sys, "frozen", False):
        # a frozen executable started as the plan search's process runs that and exits here
        # (packaging/launcher.py does the same first; gpuplanner/app/search_process.py)
        import multiprocessing

        multiprocessing.freeze_support()
    # We use no pydantic plugins: without this pydantic scans every installed distribution's entry points (the
    # ``pydantic`` group) when it builds the first model. PYDANTIC_DISABLE_PLUGINS is pydantic's documented switch
    # (https://docs.pydantic.dev/latest/concepts/plugins/#disabling-plugins; read in pydantic/plugin/_loader.py);
    # setdefault: whoever sets it otherwise keeps their setting. Here, at the process's start, not on import of
    # the package: a program that imports gpuplanner keeps its own plugins. Child processes inherit it.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    argv = _lang_after_the_command(list(sys.argv[1:] if argv is None else argv))
    from .cli import is_command, run_cli

    if argv and (argv[0] in ("-h", "--help", "--version") or is_command(argv[0])):
        return run_cli(argv)
    rest, lang = _without_lang(argv)
    if rest[:1] and rest[0] in ("-h", "--help", "--version"):
        # "gpuplanner --lang zh_CN --help": the help in that language (the parser reads --help first and stops)
        from .commands._args import argv_language

        asked = argv_language(argv) if lang else None
        return run_cli(rest + ["--lang", asked] if asked else rest)
    # Otherwise: the desktop app (optional plan file, --self-test), only for no argument or a file that exists;
    # its language is a setting, not --lang (told in the language asked for, ux28)
    problem = not_an_app_argument(rest) or (LANG_WITHOUT_A_COMMAND if lang else None)
    if problem is not None:
        from . import cli

        cli._ARGV[:] = argv  # the --lang of this command line, as a parse error's (ux26)
        text = cli._parse_error(problem)  # first: it installs the command line's language
        print(f"{cli.error_prefix()}{text}", file=sys.stderr)
        return 2
    if os.environ.get(FIRST_WINDOW_ENV) == "1":
        _exit_after_first_window()
    from .ui.app import run_app

    return run_app(argv)


if __name__ == "__main__":
    sys.exit(main())
