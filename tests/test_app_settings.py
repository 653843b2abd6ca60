"""The settings folder found without platformdirs (Linux) is the one platformdirs finds, in every case it answers."""

import sys

import platformdirs
import pytest

from gpuplanner.io import app_settings

linux = pytest.mark.skipif(sys.platform != "linux", reason="the shortcut is for Linux only")


@linux
@pytest.mark.parametrize("xdg, home", [
    (None, "/home/ana"),
    (None, "/home/ana/"),
    (None, "/"),
    ("/srv/cfg", "/home/ana"),
    ("/srv/cfg/", "/home/ana"),
    ("relative/cfg", "/home/ana"),     # not absolute: ignored, as the XDG rule says
    ("", "/home/ana"),
    ("/srv/cfg", None),
    ("/srv/cfg", "relative"),
])
def test_config_dir_is_platformdirs_answer(monkeypatch, xdg, home):
    monkeypatch.delenv("GPUPLANNER_CONFIG_DIR", raising=False)
    for name, value in (("XDG_CONFIG_HOME", xdg), ("HOME", home)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    assert app_settings._xdg_config_home() is not None
    assert str(app_settings.config_dir()) == str(platformdirs.user_config_dir("gpuplanner", appauthor=False)).rstrip("/")


@linux
def test_without_an_absolute_home_platformdirs_decides(monkeypatch):
    monkeypatch.delenv("GPUPLANNER_CONFIG_DIR", raising=False)
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.setenv("HOME", "relative/home")
    assert app_settings._xdg_config_home() is None
    assert str(app_settings.config_dir()) == platformdirs.user_config_dir("gpuplanner", appauthor=False)


def test_the_override_wins(monkeypatch, tmp_path):
    monkeypatch.setenv("GPUPLANNER_CONFIG_DIR", str(tmp_path))
    assert app_settings.config_dir() == tmp_path
