"""Where the app keeps its own settings (window state, last directory, recent files).

``GPUPLANNER_CONFIG_DIR`` overrides the folder (tests and portable builds use it, as Picard's
``PICARD_CONFIG_DIR`` does); otherwise platformdirs' per-user config folder. The settings are an INI
file read through :class:`QSettings`, so nothing is written to the registry or to ~/.config/<org>.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings

from gpuplanner.io.app_settings import APP_NAME, config_dir, settings_path  # noqa: F401 (re-exported)


def settings() -> QSettings:
    """A QSettings on ``<config dir>/gpuplanner-ui.ini`` (created on first write; the CLI reads it with
    :mod:`gpuplanner.io.app_settings`)."""
    return QSettings(str(settings_path()), QSettings.Format.IniFormat)


def last_dir() -> str:
    value = settings().value("paths/last_dir", "")
    return str(value) if value and Path(str(value)).is_dir() else str(Path.home())


def remember_dir(path: str | Path) -> None:
    p = Path(path)
    folder = p if p.is_dir() else p.parent
    s = settings()
    s.setValue("paths/last_dir", str(folder))
    s.sync()


def recent_files() -> list[str]:
    value = settings().value("paths/recent", [])
    if isinstance(value, str):
        value = [value] if value else []
    return [str(v) for v in (value or [])]


def language_setting() -> str:
    """The chosen UI language: ``system`` (follow the system locale), ``en`` or ``zh_CN``."""
    value = str(settings().value("ui/language", "system") or "system")
    return value if value in ("system", "en", "zh_CN") else "system"


def save_language_setting(code: str) -> None:
    s = settings()
    s.setValue("ui/language", code)
    s.sync()


def resolve_language(code: str) -> str:
    """``system`` → the system locale's language (zh → zh_CN, else en)."""
    if code == "system":
        from gpuplanner.i18n import system_language

        return system_language()
    return code


def report_author() -> str:
    return str(settings().value("report/author", "") or "")


def save_report_author(text: str) -> None:
    s = settings()
    s.setValue("report/author", text)
    s.sync()
