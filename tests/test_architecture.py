"""The layers as drawn (docs/architecture.md): import contracts checked by import-linter, and a core that never
touches files."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "gpuplanner" / "core"

# calls and attributes that read, write or list files (or reach shipped data behind the resources package)
FILE_ACCESS = {"open", "read_text", "read_bytes", "write_text", "write_bytes", "iterdir", "glob", "rglob",
               "load", "scandir", "listdir", "walk", "stat", "exists", "is_file", "is_dir"}
FILE_MODULES = {"importlib.resources", "os", "shutil", "pathlib", "io", "tempfile", "glob"}


def _lint_imports() -> str | None:
    exe = Path(sys.executable).with_name("lint-imports")
    return str(exe) if exe.exists() else shutil.which("lint-imports")


def test_import_contracts_hold():
    exe = _lint_imports()
    assert exe is not None, "import-linter is part of the [test] extra"
    proc = subprocess.run([exe, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "0 broken" in proc.stdout


def test_the_core_contracts_are_declared():
    """The core's own contracts (checked by lint-imports above): no cycle among its modules, and shipped data
    only through core/shipped.py."""
    import tomllib

    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]
    assert any(c["type"] == "acyclic_siblings" and c["ancestors"] == ["gpuplanner.core"] for c in contracts)
    shipped = [c for c in contracts if c["type"] == "forbidden" and c["source_modules"] == ["gpuplanner.core"]
               and c["forbidden_modules"] == ["gpuplanner.resources"]]
    assert len(shipped) == 1 and shipped[0]["ignore_imports"] == ["gpuplanner.core.shipped -> gpuplanner.resources"]


def _violations(tree: ast.AST) -> list[str]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
            if name == "open":
                out.append(f"line {node.lineno}: open()")
            elif isinstance(f, ast.Attribute) and name in FILE_ACCESS - {"load"}:
                out.append(f"line {node.lineno}: .{name}()")
            elif isinstance(f, ast.Attribute) and name == "load" and isinstance(f.value, ast.Name) \
                    and f.value.id == "json":
                out.append(f"line {node.lineno}: json.load()")
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            mods = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            for m in mods:
                if m in FILE_MODULES or m.startswith("importlib.resources"):
                    out.append(f"line {node.lineno}: import {m}")
    return out


@pytest.mark.parametrize("module", sorted(p.name for p in CORE.glob("*.py")))
def test_core_module_touches_no_files(module):
    tree = ast.parse((CORE / module).read_text(encoding="utf-8"))
    assert _violations(tree) == []


def test_the_file_access_scan_can_fail():
    bad = ast.parse("import json\nfrom pathlib import Path\n"
                    "def f(p):\n    return json.load(open(p)), Path(p).read_text(), Path(p).iterdir()\n")
    found = _violations(bad)
    assert any("open()" in v for v in found) and any("json.load" in v for v in found)
    assert any(".read_text()" in v for v in found) and any(".iterdir()" in v for v in found)
    assert any("import pathlib" in v for v in found)
