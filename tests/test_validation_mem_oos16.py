"""Issue 35 round 16 (memoos16): fms-acceleration's A100 table (bench/validate_mem_oos16.py).

Each row's figure is the CSV's ``mem_peak_torch_mem_alloc_in_bytes`` (foundation-model-stack/fms-acceleration
``scripts/benchmarks/refs/a100_80gb.csv`` at 24bdadb); the full fine-tuning rows are weights, gradients, two bf16
moments and the foreach list (10 bytes a Mistral-7B parameter on one GPU, 5 on two)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _mod():
    spec = importlib.util.spec_from_file_location("validate_mem_oos16", ROOT / "bench" / "validate_mem_oos16.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_rows_quote_the_csv():
    m = _mod()
    rows = {r[0]: r for r in m.ROWS}
    assert len(rows) == 36 and sum(r[1] is not None for r in m.ROWS) == 19
    assert rows["full-mistral-1x4"][1] == 72434837504 and rows["full-mistral-2x2"][1] == 36225939968
    assert rows["lora-mixtral-2x4"][1] == 64851605504 and rows["qlora-llama70-2x2"][1] == 46685287936
    assert rows["full-mixtral-1x4"][1] is None  # did not finish (nvidia-smi 81166 MiB)


def test_before_file_scored_every_row():
    m = _mod()
    before = json.loads(m.BEFORE.read_text(encoding="utf-8"))["rows"]
    assert set(before) == {r[0] for r in m.ROWS if r[1] is not None}
    assert before["full-mistral-1x8"] == pytest.approx(75.57, abs=0.01)  # main 96ef3860: gradients beside activations


def test_full_rows_by_hand():
    m = _mod()
    p = 7_241_732_096
    for row in m.ROWS:
        if row[0].startswith("full-mistral"):
            gpus = row[4]
            assert m.predict(row) * 2**30 == pytest.approx(10 * p / gpus, rel=0.003)
            assert m.published(row) == pytest.approx(m.predict(row), rel=0.005)
