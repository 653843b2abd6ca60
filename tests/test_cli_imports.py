"""Commands import only what they run: ``--version`` and ``--help`` load neither numpy nor pydantic, and each
command's parser is registered without importing the core (issue "Fast at any size")."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import contextlib, io, sys
from gpuplanner.__main__ import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    try:
        rc = main({argv!r})
    except SystemExit as e:
        rc = e.code
heavy = sorted(m for m in ("numpy", "pydantic", "PySide6", "gpuplanner.core.scenario", "gpuplanner.core.search",
                           "gpuplanner.verify.acceptance", "gpuplanner.report.render") if m in sys.modules)
print(rc, ",".join(heavy) or "-", len(out.getvalue()))
"""


def _probe(argv: list[str]) -> tuple[int, str, int]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.run([sys.executable, "-c", PROBE.format(argv=argv)], capture_output=True, text=True, env=env,
                       cwd=ROOT, timeout=60)
    assert p.returncode == 0, p.stderr
    rc, heavy, n = p.stdout.split()
    return int(rc), heavy, int(n)


@pytest.mark.parametrize("argv", [["--version"], ["--help"], ["plan", "--help"], ["report", "--help"]])
def test_version_and_help_load_no_numpy_or_pydantic(argv):
    rc, heavy, printed = _probe(argv)
    assert rc == 0 and printed > 0
    assert heavy == "-", heavy


def test_estimate_still_runs_and_loads_only_the_core(tmp_path):
    rc, heavy, printed = _probe(["estimate", str(ROOT / "examples" / "llama3-8b-full-8xh100-zero3.json")])
    assert rc == 0 and printed > 500
    assert "numpy" in heavy and "pydantic" in heavy and "gpuplanner.core.scenario" in heavy
    for not_needed in ("PySide6", "gpuplanner.core.search", "gpuplanner.verify.acceptance", "gpuplanner.report.render"):
        assert not_needed not in heavy.split(","), heavy
