"""Issue 35 round 8 (helper moe11): the MoE rows' time per layer and micro-batch (bench/validate_moe_gap.py).

Hand-derived published figures, the recipes' recomputation as read from the Megatron-Bridge tags, and the table's
parts adding up to the model's step."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import validate_moe_gap as gap  # noqa: E402
import validate_moe_oos as oos  # noqa: E402
import validate_time as vt  # noqa: E402


def _row(rel, system, model, rows=None):
    return next(r for r in (rows or vt.BRIDGE_MOE) if r[:3] == (rel, system, model))


def test_published_time_per_layer_and_micro_batch_by_hand():
    # 26.04.01 B200 Qwen3-30B-A3B: 8 GPUs, GBS 512, MBS 4, sequence 4096, 27,136 tok/s/GPU, 48 layers, no pipeline:
    # step 512·4096 / (27,136·8) = 9.6604 s; 512 / (8·4) = 16 micro-batches × 48 layers = 768 → 12.58 ms
    assert gap.published_ms_per_layer_mb(_row("26.04.01", "B200", "qwen3-30b-a3b")) == pytest.approx(12.5786, rel=1e-4)
    # 26.04.01 H100 Qwen3-235B-A22B: 256 GPUs, TP 2, PP 8 (DP 16), GBS 8192, 1,712 tok/s/GPU, 94 layers:
    # step 8192·4096 / (1,712·256) = 76.56 s; 8192 / 16 = 512 micro-batches × 94/8 layers = 6,016 → 12.73 ms
    assert gap.published_ms_per_layer_mb(_row("26.04.01", "H100", "qwen3-235b-a22b")) == pytest.approx(12.7262,
                                                                                                          rel=1e-4)


def test_recipe_recompute_as_the_bridge_tags_set_it():
    assert gap.recipe_recompute("qwen3-235b-a22b", "H100", "26.04.01") == ()
    assert gap.recipe_recompute("qwen3-30b-a3b", "B200", "25.11") == ()
    assert gap.recipe_recompute("gpt-oss-120b", "GB200", "26.02") == ("layernorm", "moe_act")
    assert gap.recipe_recompute("deepseek-v3", "B200", "25.11") == ("mla_up_proj",)
    assert gap.recipe_recompute("deepseek-v3", "GB200", "26.04.01") == ("mlp",)
    assert gap.recipe_recompute("deepseek-v3", "B200", "26.04.01") == ("mla_up_proj", "mlp")
    assert gap.recipe_recompute("deepseek-v3", "H800", "DeepSeek-V3 report") is None


def test_parts_add_up_to_the_model_step():
    for row in (_row("25.11", "B200", "qwen3-30b-a3b"), _row("26.04", "H100", "qwen3-235b-a22b", oos.BRIDGE_MOE_OOS)):
        res = gap.gap_result(row, "t")
        assert res["pub"] == pytest.approx(gap.published_ms_per_layer_mb(row))
        # published − gap = the model's step per layer and micro-batch = the sum of its parts
        assert res["pub"] - res["gap"] == pytest.approx(res["gpu"] + res["ep"] + res["pp"] + res["comm"], rel=1e-9)
        assert res["err"] == pytest.approx((res["pub"] / (res["pub"] - res["gap"])) - 1.0, rel=1e-9)


def test_table_covers_both_tables():
    res = gap.gap_results()
    assert len(res) == len(vt.BRIDGE_MOE) + len(oos.BRIDGE_MOE_OOS)
    lines = gap.gap_rows()
    assert len([ln for ln in lines if ln.startswith("| MoE table") or ln.startswith("| out-of-sample")]) == len(res)
    assert any(ln.startswith("- GPT-OSS, every system") for ln in lines)
