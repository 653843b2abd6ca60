"""Test-wide fixtures: headless Qt, no network, no real user config."""

from __future__ import annotations

import os
import socket

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


class NetworkBlocked(RuntimeError):
    pass


@pytest.fixture(autouse=True)
def _no_network(monkeypatch):
    """The app works offline: any outgoing connection attempt fails the test."""

    def guard(self, address, *args, **kwargs):
        family = getattr(self, "family", None)
        if family == socket.AF_UNIX:
            return _orig_connect(self, address, *args, **kwargs)
        raise NetworkBlocked(f"network access attempted: {address!r}")

    monkeypatch.setattr(socket.socket, "connect", guard)
    monkeypatch.setattr(socket.socket, "connect_ex", guard)
    monkeypatch.setattr(socket, "create_connection", lambda *a, **k: (_ for _ in ()).throw(NetworkBlocked(str(a))))
    yield


_orig_connect = socket.socket.connect


@pytest.fixture(autouse=True)
def _isolated_user_dirs(tmp_path_factory, monkeypatch):
    """Never touch the real user's config/data dirs (platformdirs honours XDG_* on Linux)."""
    base = tmp_path_factory.mktemp("userdirs")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(base / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(base / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(base / "cache"))
    monkeypatch.setenv("XDG_STATE_HOME", str(base / "state"))
    monkeypatch.setenv("GPUPLANNER_CONFIG_DIR", str(base / "gpuplanner-config"))
    monkeypatch.setenv("GPUPLANNER_DATA_DIR", str(base / "gpuplanner-data"))
    for key in ("HF_HOME", "HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE"):  # the Hugging Face cache: under XDG_CACHE_HOME
        monkeypatch.delenv(key, raising=False)
    # the CLI's default language follows the system locale: tests run in English unless they pass --lang
    for key in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    yield
    # a command run with --lang zh_CN leaves its translator installed for the process: back to English
    import sys as _sys

    lang_mod = _sys.modules.get("gpuplanner.commands._lang")
    if lang_mod is not None and lang_mod.language() != "en":
        lang_mod.install("en")
    # the report command installs its language on the QApplication itself (report.render.install_language): a
    # ``report --lang zh_CN`` run in this process must not leave the next test's window in Chinese (ux27's tests)
    render_mod = _sys.modules.get("gpuplanner.report.render")
    if render_mod is not None and getattr(render_mod, "_translators", None):
        render_mod.install_language(None)


@pytest.fixture(scope="module")
def app():
    """The GUI application the PDF report draws with (``report.render.ensure_app``), once per test module."""
    from PySide6.QtCore import QCoreApplication
    from PySide6.QtWidgets import QApplication

    from gpuplanner.report.render import ensure_app

    other = QCoreApplication.instance()
    if other is not None and not isinstance(other, QApplication):
        # an earlier test left a bare QCoreApplication (no fonts, no painting): replace it with a GUI one
        import shiboken6

        shiboken6.delete(other)
    return ensure_app()
