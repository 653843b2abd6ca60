"""Guard: the memory model's error against the published calibration rows must not get worse."""

from __future__ import annotations

import importlib.util
import statistics
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench" / "validate_memory.py"


def test_memory_validation_median_within_target(capsys):
    spec = importlib.util.spec_from_file_location("validate_memory", BENCH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    if not mod.CAL.exists():
        pytest.skip("shared reference not present")
    mod.main([])
    out = capsys.readouterr().out
    errs = [abs(float(line.split("|")[4].strip().rstrip("%"))) for line in out.splitlines()
            if line.startswith("| ") and line.split("|")[4].strip().endswith("%")]
    assert len(errs) >= 20
    assert statistics.median(errs) <= 10.0
