"""Issue 35 round 16, scale16: the once-a-step diagnostic of the MLPerf pre-training series
(bench/scale16_fixed_terms.py; docs/notes/2026-12-07/issue-35-r16-scale16.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

F = pytest.importorskip("scale16_fixed_terms")


def test_fit_is_least_squares_by_hand():
    """y = 0.25 + 0.0844·m on m = 8, 16, 128 exactly → (0.25, 0.0844); one m only → None."""
    a, b = F.fit([(8, 0.25 + 8 * 0.0844), (16, 0.25 + 16 * 0.0844), (128, 0.25 + 128 * 0.0844)])
    assert a == pytest.approx(0.25) and b == pytest.approx(0.0844)
    # a noisy pair: through (1, 1) and (3, 2) the line is 0.5 + 0.5·x
    assert F.fit([(1, 1.0), (3, 2.0)]) == pytest.approx((0.5, 0.5))
    assert F.fit([(4, 1.0), (4, 2.0)]) is None


def test_the_v31_gpt3_residual_is_not_a_constant_of_scale():
    """The note's reading (§2): the same code's runs at m = 16 (DP 128–256) miss by under 0.02 s a step, at m = 8
    (DP 320–336) by 0.02–0.06 s (0.04–0.06 s before the tied-embedding all-reduce), and at m = 128 (DP 16–24)
    the model is 0.7+ s too slow: the fitted intercept deficit is mostly the slope's, not a fixed cost that grows
    with the GPUs."""
    rs = [r for r in F.rows() if r["series"].startswith("gpt3 H100 v3.1")]
    gap = {r["run"]: r["pub"] - r["model"] for r in rs}
    for run, g in gap.items():
        m = next(r["m"] for r in rs if r["run"] == run)
        if m == 16:
            assert abs(g) < 0.02, run
        elif m == 8:
            assert 0.02 < g < 0.06, run
        else:
            assert g < -0.7, run


def test_no_public_megatron_row_runs_at_data_parallel_64_or_more():
    """Why a term that only bites at DP ≥ 64 cannot move the narrowest (Megatron) band (note §3): the band's 25 rows
    run at DP 2 … 48."""
    import validate_time as V

    from gpuplanner.core.scenario import scenario_from_dict

    dps = []
    for row in V.throughput_rows():
        rid = row["id"]
        if not rid.startswith("megatron") or rid in V.OUT_OF_SCOPE:
            continue
        d, _ = V.megatron_core_scenario(row) if rid.startswith("megatron-readme") else V.megatron_scenario(row)
        dps.append(scenario_from_dict(d).dp)
    assert len(dps) == 25 and max(dps) == 48 and min(dps) == 2
