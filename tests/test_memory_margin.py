"""The memory headroom every plan is checked against (``advisor.memory_margin``, issue 35 round 9).

``validation_bands.json`` → ``memory_margin`` is written by ``bench/mfu_ceilings.py --write-margin`` from
``bench/memory_margin.py``: the nearest-rank 75th percentile of the memory model's under-predictions on every
published-peak table, each row once. The first test recomputes it from the validation scripts' rows, so the file
cannot go stale when a memory mechanism moves a row; the others check the percentile and the row choice by hand."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"
BANDS = ROOT / "gpuplanner" / "resources" / "validation_bands.json"

try:
    sys.path.insert(0, str(BENCH))
    import memory_margin as mm  # noqa: E402
    _CAL_OK = True
except SystemExit:  # pragma: no cover - ../shared/reference missing on this machine
    _CAL_OK = False


@pytest.fixture(scope="module")
def rows():
    if not _CAL_OK:
        pytest.skip("calibration-runs.jsonl not found")
    try:
        return mm.margin_rows()
    except (FileNotFoundError, SystemExit):
        pytest.skip("calibration-runs.jsonl not found")


def test_the_margin_in_validation_bands_is_the_rows_p75(rows):
    """Regenerate with: python bench/mfu_ceilings.py --write-margin gpuplanner/resources/validation_bands.json"""
    from gpuplanner.core import advisor

    got = mm.memory_margin(rows[0])
    stored = json.loads(BANDS.read_text(encoding="utf-8"))["memory_margin"]
    assert abs(stored["p75"] - got["p75"]) < 5e-5, (stored["p75"], got["p75"])
    assert (stored["rows_compared"], stored["rows_under"]) == (got["rows_compared"], got["rows_under"])
    assert advisor.memory_margin() == stored["p75"]


def test_nearest_rank_p75_by_hand():
    # 8 values: rank ceil(0.75 · 8) = 6 → the 6th smallest, 0.14 (not an interpolation between 0.14 and 0.20)
    assert mm.nearest_rank([0.20, 0.01, 0.05, 0.30, 0.03, 0.14, 0.10, 0.07], 0.75) == 0.14
    # 5 values: rank ceil(3.75) = 4 → 0.4; one value: itself; none: 0
    assert mm.nearest_rank([0.5, 0.1, 0.4, 0.2, 0.3], 0.75) == 0.4
    assert mm.nearest_rank([0.09], 0.75) == 0.09
    assert mm.nearest_rank([], 0.75) == 0.0


def test_only_under_predictions_count_and_the_error_is_the_share_of_the_published_peak():
    # (category, family, id, predicted, published): +10% over-prediction is left out; 90 against 100 published is a
    # 10% under-prediction (a plan at 90% of the card by the model is at the card's limit in reality)
    rs = [("c", "f", "over", 110.0, 100.0), ("c", "f", "a", 90.0, 100.0), ("c", "f", "b", 80.0, 100.0),
          ("c", "f", "c", 95.0, 100.0), ("c", "f", "d", 70.0, 100.0)]
    under = mm.under_predictions(rs)
    assert [r for _, r in under] == ["c", "a", "b", "d"]
    m = mm.memory_margin(rs)
    assert m["p75"] == pytest.approx(0.20) and m["rows_compared"] == 5 and m["rows_under"] == 4


def test_the_rows_are_every_published_peak_table_once_without_doubtful_or_capacity_rows(rows):
    counted, left = rows
    keys = [(r[1], r[2]) for r in counted]
    assert len(keys) == len(set(keys))
    cats = {r[0] for r in counted}
    assert {"calibration", "pretraining", "fine-tuning", "post-training"} <= cats
    ids = {r[2] for r in counted}
    left_ids = {rid for rid, _ in left}
    # (D) in bench/validate_time.py, ZeRO Table 1's arithmetic, the card-capacity rows
    for rid in ("torchtune-readme-l31-8b-full-a6000", "torchtune-readme-l31-8b-lora-a6000", "zero-t1-7.5b-dp64-osgp",
                "unsloth-docs-hf-fa2-l31-8b-80gb", "liger-readme-l3-8b-fsdp1-16k"):
        assert rid in left_ids and rid not in ids
    # verl's logged figure above the card is counted since round 10 (postoos10: vLLM's sleeping pool stays in
    # PyTorch's counters, memory.sleeping_pool_counted_bytes)
    assert "play-verl qwen2-7b ppo recommended" in ids
    # out-of-sample tables are in: round 8's, the fine-tuning tools', LLaMA-Factory's, ms-swift's
    for rid in ("te_tp2_pp2_cp2", "qwen-readme-7B-lora-256", "lf-4772-glm4-9b-qlora-s10240", "swift-dpo-lora-7b"):
        assert rid in ids
    # Megatron-LM's pipeline rows are compared at the rank the source logs (the last), not the busiest
    pp4 = next(r for r in counted if r[2] == "tp1_pp4")
    assert pp4[3] / pp4[4] - 1 == pytest.approx(-0.013, abs=0.01)
