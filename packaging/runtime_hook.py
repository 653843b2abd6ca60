"""PyInstaller runtime hook for the frozen GPU Planner (runs before any app code).

* macOS: an app started from Finder gets ``/`` as working directory, and a working directory equal to
  ``sys._MEIPASS`` has crashed Qt apps on launch (MusicBrainz Picard, ``macos-library-path-hook.py``);
  move to the home folder in both cases, unless a relative path on the command line still needs the
  current folder to be resolved.
* Windows: the GUI executable has no console, so ``sys.stdout``/``sys.stderr`` are ``None``. When it is
  started from a terminal, attach to that terminal (``AttachConsole(ATTACH_PARENT_PROCESS)``, as Picard's
  ``win-startup-hook.py`` does) so ``--help``/CLI output is visible; otherwise send output to
  ``os.devnull`` so a stray ``print`` cannot raise. Output redirected to a file or pipe is written as
  UTF-8 (what ``PYTHONUTF8=1`` would do) so Chinese text cannot fail on the ANSI code page.
"""

import os
import sys


def _macos_cwd() -> None:
    try:
        cwd = os.getcwd()
    except OSError:
        cwd = "/"
    meipass = getattr(sys, "_MEIPASS", None)
    if cwd in ("/", meipass) and not any(a and not a.startswith("-") and not os.path.isabs(a) for a in sys.argv[1:]):
        try:
            os.chdir(os.path.expanduser("~"))
        except OSError:
            pass


def _windows_console() -> None:
    if sys.stdout is not None and sys.stderr is not None:
        # The console executable (gpuplanner-cli.exe): keep the console, make redirected output UTF-8.
        for stream in (sys.stdout, sys.stderr):
            try:
                if not stream.isatty():
                    stream.reconfigure(encoding="utf-8", errors="replace")
            except (AttributeError, OSError, ValueError):
                pass
        return
    attached = False
    try:
        import ctypes

        attached = bool(ctypes.windll.kernel32.AttachConsole(-1))  # ATTACH_PARENT_PROCESS
    except Exception:
        attached = False
    target = "CONOUT$" if attached else os.devnull
    try:
        stream = open(target, "w", encoding="utf-8", errors="replace")
    except OSError:
        stream = open(os.devnull, "w", encoding="utf-8")
    if sys.stdout is None:
        sys.stdout = stream
    if sys.stderr is None:
        sys.stderr = stream


if sys.platform == "darwin":
    _macos_cwd()
elif sys.platform == "win32":
    _windows_console()
