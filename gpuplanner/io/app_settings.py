"""The app's own settings file, readable without Qt (the CLI reads the report author from it).

The app writes ``<config dir>/gpuplanner-ui.ini`` through ``QSettings`` (INI format, UTF-8; see
:mod:`gpuplanner.ui.settings`). ``GPUPLANNER_CONFIG_DIR`` overrides the folder (tests and portable builds),
otherwise platformdirs' per-user config folder. This module only reads it, with :mod:`configparser`.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

APP_NAME = "gpuplanner"
SETTINGS_FILE = "gpuplanner-ui.ini"
MAX_BYTES = 1024 * 1024
#: the report author/team: one line of the PDF's title block (a 900 kB author held its layout for minutes, probe14)
MAX_AUTHOR = 200


def config_dir() -> Path:
    env = os.environ.get("GPUPLANNER_CONFIG_DIR")
    if env:
        return Path(env)
    base = _xdg_config_home()
    if base is not None:
        return Path(base) / APP_NAME
    import platformdirs

    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def _xdg_config_home() -> str | None:
    """Linux: the per-user config folder as platformdirs finds it in the common case, without importing it
    (its Unix module imports ``tempfile``, ``shutil`` and ``random``: ~8 ms of every command; issue #20).
    The XDG Base Directory rule (``$XDG_CONFIG_HOME`` when it is an absolute path, else ``$HOME/.config``),
    as platformdirs 4 applies it (``platformdirs/_xdg.py``: ``user_config_dir``, ``xdg_dir``; ``unix.py``:
    ``expand_user("~/.config")``). None where platformdirs has more to decide (another system, no absolute
    ``HOME``): it is asked then. tests/test_app_settings.py compares both answers."""
    if sys.platform != "linux":
        return None
    xdg = os.environ.get("XDG_CONFIG_HOME", "")
    if os.path.isabs(xdg):
        return xdg
    home = os.environ.get("HOME", "")
    if os.path.isabs(home):
        return os.path.join(home.rstrip("/") or "/", ".config")
    return None


def settings_path() -> Path:
    return config_dir() / SETTINGS_FILE


def read_setting(section: str, key: str, default: str = "") -> str:
    """One text value (``section/key`` in QSettings terms); ``default`` when the file or key is missing or
    unreadable. QSettings quotes values that contain separators: the quotes are removed."""
    from ..core.errors import PlannerError
    from .safe_read import read_limited

    try:  # the safe reader: a regular file (never a FIFO or a device), at most MAX_BYTES
        text = read_limited(settings_path(), MAX_BYTES, "file").decode("utf-8", errors="replace")
    except (PlannerError, OSError, ValueError):
        return default
    import configparser  # only when there is a file to read (its import compiles a dozen patterns)

    cp = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        cp.read_string(text)
        value = cp.get(section, key, fallback=default)
    except configparser.Error:
        return default
    if len(value) >= 2 and value[0] == value[-1] == '"':
        value = value[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    return value


def report_author() -> str:
    """The author/team the app stores under ``report/author`` (empty if none), at most :data:`MAX_AUTHOR`
    characters: the settings file is text anyone can edit, and the title block lays it out as one line."""
    return read_setting("report", "author", "")[:MAX_AUTHOR]
