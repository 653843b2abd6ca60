"""Issue 35 round 13 (helper hopper13): bench/hopper_implied_eff_r13.py, the Hopper matmul share every held H100/H800/
H200 training row implies.

The bisection must find the root of a row's signed error, mark rows it cannot meet, give back the model's own share
for a row "published" at the model's own figure, leave the constant as it was, and group rows by precision twins."""

from __future__ import annotations

import math
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))

import hopper_implied_eff_r13 as h13  # noqa: E402
import validate_bridge_oos as oos  # noqa: E402

from gpuplanner.core import timing as T  # noqa: E402


def test_bisection_finds_the_root_and_restores_the_constant():
    share = T.GEN_EFFICIENCY["hopper"]
    # a pure compute-bound row that needs 0.62: predicted rate ∝ share
    v = h13.implied(lambda: T.GEN_EFFICIENCY["hopper"] / 0.62 - 1.0)
    assert abs(v - 0.62) < 1e-4
    assert T.GEN_EFFICIENCY["hopper"] == share
    # rows no share in [LO, HI] can meet are marked, not clipped to a number
    assert h13.implied(lambda: -1.0) == math.inf and h13.implied(lambda: 1.0) == -math.inf


def test_a_row_published_at_the_models_own_figure_gives_back_the_models_share():
    sc = oos.scenario(oos.ROWS[0])  # dgxc Llama 3.1 8B BF16 on 8 H100: compute-bound
    pub = T.time_estimate(h13.resolve(h13.scenario_from_dict(sc))).tokens_per_s_per_gpu
    share = T.GEN_EFFICIENCY["hopper"]
    assert abs(h13.implied(h13._tps_err(sc, pub)) - share) < 1e-3
    assert abs(h13.implied(h13._tps_err(sc, pub * 1.1)) - share) > 0.05  # it moves with the published figure
    assert T.gpu_time_facts(T.C.get_gpu("h100-sxm-80gb")).gen_efficiency == share  # cache cleared, not stale


def test_describe_reads_the_scenario():
    d = h13.describe(oos.scenario(oos.ROWS[1]))  # the same recipe in FP8 (delayed scaling)
    assert d["gpu"] == "h100-sxm-80gb" and d["prec"] == "FP8" and d["hidden"] == 4096 and d["fw"] == "megatron"


def test_precision_twins_pair_rows_that_differ_only_in_precision():
    rows = [{"src": "s", "label": "llama bf16 8#0", "gpu": "h100", "hidden": 1, "tok": 1, "prec": "BF16", "eff": 0.6},
            {"src": "s", "label": "llama ds 8#1", "gpu": "h100", "hidden": 1, "tok": 2, "prec": "FP8", "eff": 0.54},
            {"src": "s", "label": "other ds 8#2", "gpu": "h100", "hidden": 1, "tok": 2, "prec": "FP8", "eff": 0.9}]
    lines = h13.pair_lines(rows)
    assert any("0.900 |" in ln and "llama 8" in ln for ln in lines)  # 0.54 / 0.60
    assert lines[-1].endswith("median 0.900 |") and not any("other" in ln for ln in lines)
