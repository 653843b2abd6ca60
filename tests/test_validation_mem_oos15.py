"""Issue 35 round 15 (memoos15): the ms-swift example-script rows of bench/validate_mem_oos15.py.

Each row names its script, the commit that wrote its memory comment and the comment itself; the published figure
and the GPU count must be the ones that comment states (a typo in the row table fails here)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import validate_mem_oos15 as v  # noqa: E402

COMMENT = re.compile(r"'# (?:(\d+) \* )?([\d.]+) ?Gi?B(?: \* (\d+))?'")


def _comment(src: str) -> tuple[float, int]:
    m = COMMENT.search(src)
    assert m, src
    gpus = int(m.group(1) or m.group(3) or 1)
    return float(m.group(2)), gpus


@pytest.mark.parametrize("row", v.ROWS, ids=[r[0] for r in v.ROWS])
def test_row_matches_its_comment(row):
    gib, gpus = _comment(row[1])
    assert row[2] == gib
    assert row[6] == gpus
    assert re.search(r"@[0-9a-f]{9} \(v3\.\d+\.\d+\)", row[1])


def test_rows_and_distinct_ids():
    assert len(v.ROWS) == 17
    assert len({r[0] for r in v.ROWS}) == 17


def test_parser_reads_both_orders():
    assert _comment("x '# 27.5GiB * 2'") == (27.5, 2)
    assert _comment("x '# 2 * 76GiB'") == (76.0, 2)
    assert _comment("x '# 22GB'") == (22.0, 1)


def test_scenarios_validate_and_reserved_is_read():
    from gpuplanner.core.estimate import estimate
    from gpuplanner.core.scenario import scenario_from_dict

    row = next(r for r in v.ROWS if r[0] == "full-qwen2-7b")
    sc = v.scenario(row)
    assert sc["training"]["seq_len"] == 131 and sc["assumptions"]["memory_metric"] == "reserved"
    mem = estimate(scenario_from_dict(sc)).memory
    # full bf16 fine-tuning of a 7.6e9-parameter model: weights, gradients and two bf16 AdamW moments, 8 bytes a
    # parameter (master_weights false), i.e. at least 7.6e9 * 8 / 2**30 = 56.6 GiB before activations
    assert mem.weights + mem.gradients + mem.optimizer == pytest.approx(7.6e9 * 8 / 2**30, rel=0.02)
    assert mem.metric("reserved") >= mem.metric("allocated")


def test_before_file_holds_every_row():
    before = v.before()
    assert set(before) == {r[0] for r in v.ROWS}
