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
    # the shared rows (the pretraining section outside the shared set follows its heading)
    shared = out.split("### Pretraining runs")[0]
    errs = [abs(float(line.split("|")[4].strip().rstrip("%"))) for line in shared.splitlines()
            if line.startswith("| ") and line.split("|")[4].strip().endswith("%")]
    assert len(errs) >= 20
    assert statistics.median(errs) <= 10.0


def test_pretraining_memory_rows_within_the_issue_targets():
    """The published torchtitan / torchao pretraining rows (bench/pretrain_memory_rows.py): median |error| within
    12% and the 90th percentile within 25% (issue 35's targets), as validate_memory prints them."""
    spec = importlib.util.spec_from_file_location("validate_memory_pt", BENCH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    lines = mod.pretrain_lines()
    row = next(line for line in lines if line.startswith("| all |"))
    median_now = float(row.split("|")[3].split("→")[1].strip().rstrip("%"))
    p90_now = float(row.split("|")[4].split("→")[1].strip().rstrip("%"))
    assert median_now <= 12.0 and p90_now <= 25.0
