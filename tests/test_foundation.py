"""Foundation: the core is pure Python, the network is blocked, the CLI and app start."""

from __future__ import annotations

import ast
import socket
import subprocess
import sys
from pathlib import Path

import pytest

import gpuplanner

CORE = Path(gpuplanner.__file__).parent / "core"
QT_MODULES = ("PySide6", "pyqtgraph", "shiboken6", "PyQt5", "PyQt6")


def test_core_sources_import_no_qt():
    offenders = []
    for path in CORE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                if name.split(".")[0] in QT_MODULES:
                    offenders.append(f"{path.name}:{node.lineno} {name}")
    assert not offenders, offenders


def test_importing_core_loads_no_qt_module():
    code = (
        "import sys, pkgutil, importlib, gpuplanner.core as c\n"
        "for m in pkgutil.walk_packages(c.__path__, 'gpuplanner.core.'):\n"
        "    importlib.import_module(m.name)\n"
        "bad=[m for m in sys.modules if m.split('.')[0] in ('PySide6','pyqtgraph','shiboken6')]\n"
        "print(bad); sys.exit(1 if bad else 0)\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr


def test_network_is_blocked():
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        with pytest.raises(RuntimeError, match="network access attempted"):
            s.connect(("127.0.0.1", 9))
    finally:
        s.close()


def test_cli_help_and_version():
    res = subprocess.run([sys.executable, "-m", "gpuplanner", "--version"], capture_output=True, text=True)
    assert res.returncode == 0 and gpuplanner.__version__ in res.stdout


def test_app_self_test_offscreen():
    res = subprocess.run(
        [sys.executable, "-m", "gpuplanner", "--self-test"],
        capture_output=True, text=True, timeout=120,
        env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert res.returncode == 0, res.stderr[-2000:]
