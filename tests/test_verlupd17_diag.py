"""Round 17 (verlupd17): the verl update diagnostic (bench/validate_post_verlupd17.py) — hand-derived checks."""

import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import validate_post_verlupd17 as v  # noqa: E402


def test_update_policy_from_mfu_inverts_verls_flops_counter(tmp_path):
    # one logged step: 1e5 tokens of 200-token rollouts at MFU 0.1 on 8 H100s (verl flops_counter, 989 TFLOP/s)
    line = ("(TaskRunner pid=1) step:2 - perf/mfu/actor:0.100 - perf/total_num_tokens:100000.000 - "
            "prompt_length/mean:100.000 - response_length/mean:100.000 - timing_s/update_actor:9.000")
    (tmp_path / "x.log").write_text(line + "\n")
    dense_n, attn_f = 7.616e9, 3584 * 28
    flops = 6 * dense_n * 1e5 + 12 * 500 * 200 * 200 * 1.25 * attn_f
    ua, up, n, mfu = v.parse_log(tmp_path / "x.log", (dense_n, attn_f))
    assert n == 1 and ua == 9.0 and mfu == 0.1
    assert math.isclose(up, flops / (0.1 * 989e12 * 8), rel_tol=1e-12)
    assert 5.7 < up < 5.9  # 4.57e15 + 0.03e15 FLOPs over 791 TFLOP/s


def test_expected_micro_batches_by_hand():
    # far below the cap: one micro-batch; far above one cap: two
    assert v.expected_micro_batches(8192, 4, 94, 164) == 1.0
    # 4 × 200 = 800 tokens under a cap of 500: two micro-batches, a third where a rank passes 1,000
    # (sd √4 · 0.39 · 100 = 78: Q(2.56) ≈ 0.0052 a rank, ≈ 0.041 of 8)
    assert 2.03 < v.expected_micro_batches(500, 4, 100, 100) < 2.05
    # the recommended row: 40 × 277 = 11,080 mean, sd √40 · 0.39 · 183 = 451: P(rank > 12,000) = Q(2.04) ≈ 0.0207,
    # P(any of 8) ≈ 0.154
    e = v.expected_micro_batches(12000, 40, 94, 183)
    assert 1.14 < e < 1.17


def test_gap_is_inside_update_policy_for_resident_rows():
    rows = {r["id"]: r for r in v.table()}
    # without offload, update_actor is update_policy (the Ray call and data movement are < 0.1 s)
    assert abs(rows["play-verl qwen2-7b ppo recommended"]["outside"]) < 0.1
    assert abs(rows["play-verl qwen2.5-0.5b grpo"]["outside"]) < 0.1
    # every row's model is faster than published
    assert all(r["gap"] > 0 for r in rows.values())
