"""The self-test's screen grab (``GPUPLANNER_SELF_TEST_SCREENSHOT``), which packaging/build_linux.sh uses on
Xvfb with the xcb platform to see the frozen app's first window."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _check_screenshot():
    spec = importlib.util.spec_from_file_location("check_screenshot", ROOT / "packaging" / "check_screenshot.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_self_test_saves_a_screen_grab_of_the_first_window(tmp_path):
    """``GPUPLANNER_SELF_TEST_SCREENSHOT``: the hook build_linux.sh uses on Xvfb (here offscreen, whose screen
    is 800x800): the self-test saves what the screen shows once the window is exposed, and it is not blank."""
    shot = tmp_path / "first-window.png"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_DATA_HOME=str(tmp_path / "data"), GPUPLANNER_SELF_TEST_SCREENSHOT=str(shot))
    proc = subprocess.run([sys.executable, "-m", "gpuplanner", "--self-test"], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert f"saved to {shot}" in proc.stdout and "self-test: ok" in proc.stdout
    assert _check_screenshot().main([str(shot)]) == 0
