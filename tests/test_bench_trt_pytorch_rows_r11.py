"""Issue 35, round 11 (servoos11): the out-of-sample TensorRT-LLM PyTorch-backend maximum-load rows
(bench/validate_serve_servoos11.py: perf-overview v0.19+ / v0.21 / newest page, FP8 Llama on H100/H200) stay inside the
serving targets (median |error| <= 12%, p90 <= 30%), and the table's units are read as the page states them."""
from __future__ import annotations

import statistics
import sys
from pathlib import Path

import pytest


def _bench():
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import validate_serve_servoos11 as v
    return v


@pytest.fixture(scope="module")
def rows():
    return _bench().rows()


def test_row_count_and_sources(rows):
    v = _bench()
    want = sum(x is not None for t in (v.TABLE_P, v.TABLE_V, v.TABLE_L) for vals in t.values() for x in vals)
    assert len(rows) == want == 201
    assert {r[0] for r in rows} == {"P", "V", "L"}


def test_newest_page_is_per_gpu(rows):
    # the newest page reports output tok/s PER GPU: the TP2 group's total is twice the printed 2,587
    r = next(r for r in rows if r[0] == "L" and "h200" in r[1] and r[1].endswith("1000/1000"))
    assert r[2] == pytest.approx(2 * 2587)


def test_larger_kv_share_never_slower(rows):
    # more KV memory (0.95 vs the default 0.90 of free memory) can only admit more requests
    assert all(r[4] >= r[3] * (1 - 1e-9) for r in rows)
    assert sum(r[4] > r[3] * 1.001 for r in rows) > 10


def test_inside_serving_targets(rows):
    errs = [got / meas - 1 for _, _, meas, got, _ in rows]
    a = sorted(abs(e) for e in errs)
    assert statistics.median(a) <= 0.12
    assert a[int(round(0.9 * (len(a) - 1)))] <= 0.30
