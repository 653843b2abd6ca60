"""Issue 35 round 8 (helper bf16h8): bench/hopper_implied_eff.py finds the Hopper matmul share a published row implies.

The bisection must give back the model's own share for a row "published" at the model's own prediction, move with
the published rate, and leave the model's constant as it was."""

from __future__ import annotations

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))

import hopper_implied_eff as hie  # noqa: E402
import validate_bridge_oos as oos  # noqa: E402

from gpuplanner.core import timing as T  # noqa: E402

ROW = oos.ROWS[0]  # dgxc Llama 3.1 8B BF16 on 8 H100 (TP 1, CP 2): compute-bound


def _predict():
    return hie._tok(oos.scenario(ROW))


def test_own_prediction_gives_back_the_models_share():
    share = T.GEN_EFFICIENCY["hopper"]
    assert abs(hie.implied(_predict, _predict()) - share) < 1e-3
    assert T.GEN_EFFICIENCY["hopper"] == share  # put back


def test_faster_published_rate_needs_a_larger_share():
    base = _predict()
    share = T.GEN_EFFICIENCY["hopper"]
    up, down = hie.implied(_predict, base * 1.10), hie.implied(_predict, base * 0.90)
    assert down < share < up
    # the row is ~93% GEMM/attention time (module doc of the bench): 10% faster needs more than 10% more share
    assert up / share > 1.10
    assert T.gpu_time_facts(T.C.get_gpu("h100-sxm-80gb")).gen_efficiency == share  # cache cleared, not stale


def test_dgxc_bf16_rows_imply_a_larger_share_than_the_fp8_rows():
    """The finding of the note (docs/notes/2026-12-06/issue-35-r8-bf16h8.md): the same NeMo 24.12 recipes imply a
    larger Hopper share in BF16 than in FP8, and both more than the model's constant."""
    bf16 = [hie.implied(lambda r=r: hie._tok(oos.scenario(r)), r[-1] / r[4]) for r in oos.ROWS[:4:2]]
    fp8 = [hie.implied(lambda r=r: hie._tok(oos.scenario(r)), r[-1] / r[4]) for r in oos.ROWS[1:4:2]]
    share = T.GEN_EFFICIENCY["hopper"]
    assert min(bf16) > max(fp8) > share
