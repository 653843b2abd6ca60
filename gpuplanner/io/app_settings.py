"""The app's own settings file, readable without Qt (the CLI reads the report author from it).

The app writes ``<config dir>/gpuplanner-ui.ini`` through ``QSettings`` (INI format, UTF-8; see
:mod:`gpuplanner.ui.settings`). ``GPUPLANNER_CONFIG_DIR`` overrides the folder (tests and portable builds),
otherwise platformdirs' per-user config folder. This module only reads it, with :mod:`configparser`.
"""

from __future__ import annotations

import os
from pathlib import Path

APP_NAME = "gpuplanner"
SETTINGS_FILE = "gpuplanner-ui.ini"
MAX_BYTES = 1024 * 1024


def config_dir() -> Path:
    env = os.environ.get("GPUPLANNER_CONFIG_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def settings_path() -> Path:
    return config_dir() / SETTINGS_FILE


def read_setting(section: str, key: str, default: str = "") -> str:
    """One text value (``section/key`` in QSettings terms); ``default`` when the file or key is missing or
    unreadable. QSettings quotes values that contain separators: the quotes are removed."""
    path = settings_path()
    try:
        if not path.is_file() or path.stat().st_size > MAX_BYTES:
            return default
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
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
    """The author/team the app stores under ``report/author`` (empty if none)."""
    return read_setting("report", "author", "")
