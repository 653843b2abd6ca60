"""`gpuplanner --self-test BAD_FILE` fails fast with a one-line message instead of waiting on a dialog."""

from __future__ import annotations

import os
import subprocess
import sys


def test_self_test_with_bad_plan_exits_2(tmp_path):
    bad = tmp_path / "bad.gpuplan"
    bad.write_text("{bad", encoding="utf-8")
    res = subprocess.run([sys.executable, "-m", "gpuplanner", "--self-test", str(bad)], capture_output=True,
                         text=True, timeout=120, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert res.returncode == 2
    assert "bad.gpuplan: not valid JSON" in res.stderr
    assert "Traceback" not in res.stderr
