"""Issue 35 round 17 (postoos17): what the unpacked / packed ratio of open-instruct's two DeepSpeed DPO runs says
(``bench/validate_post_oos17.py``). The ratio is the doc's two counted rates; the token arithmetic is checked by
hand at its limits; the model is asserted only to reproduce the ratio at the spread it is solved for."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import validate_post_oos15 as V15  # noqa: E402
import validate_post_oos16 as V16  # noqa: E402
import validate_post_oos17 as V  # noqa: E402


def test_ratio_is_the_two_counted_rates():
    # the same pairs in the same order (RandomSampler, seed 42, the scripts differ by --packing alone): the steps
    # are in the ratio of the counted rates, "~651" and "~456" tok/s/GPU
    assert V.RATE_RATIO == pytest.approx(651 / 456)
    lo, hi = V.RATE_RATIO_RANGE
    assert lo == pytest.approx(650.5 / 456.5) and hi == pytest.approx(651.5 / 455.5)
    # round 16's MFU-implied steps agree within their lengths' 1% difference
    pub = V16.published()
    assert pub["ds_unpacked"] / pub["ds_packed"] == pytest.approx(V.RATE_RATIO, rel=0.01)


def test_default_spread_cannot_give_the_ratio_and_the_solved_one_does():
    assert V.model_ratio(None) < 1.1
    cv = V.solve_cv()
    assert V.model_ratio(cv) == pytest.approx(V.RATE_RATIO, rel=0.005)
    # the scenario change is the data's spread only
    s = V.with_cv(V16.rows()[1][3], 0.5)
    assert s["data"]["sample_len_std"] == pytest.approx(0.5 * s["data"]["mean_sample_len"])
    assert "sample_len_std" not in V16.rows()[1][3]["data"]


def test_shared_prompt_tokens_at_the_limits():
    # no spread: every sequence is 849 tokens; packed c + r = 1,698 = unpacked 2·max(c, r); no straggler
    x = V.shared_prompt_tokens(1e-6, 1e-6, draws=200)
    assert x["packed"] == pytest.approx(2 * 849, rel=1e-4) and x["ratio"] == pytest.approx(1.0, abs=1e-4)
    assert x["straggler"] == pytest.approx(1.0, abs=1e-4)
    # a response spread alone makes unpacked > packed and a straggler
    y = V.shared_prompt_tokens(1e-6, 1.0, draws=2000)
    assert y["ratio"] > 1.2 and y["straggler"] > 2.0


def test_slowest_rank_rate_by_hand():
    x = V.shared_prompt_reading(1.0)
    assert V.shared_prompt_tokens(1.0, x["cv_resp"])["ratio"] == pytest.approx(V.RATE_RATIO, rel=0.01)
    per_mb = V16.published()["ds_packed"] / 4
    assert x["rate"] == pytest.approx(x["packed"] / per_mb)
    assert x["mfu"] == pytest.approx(x["rate"] * 8 * 7.30e9 / 990e12)
    assert V15.GPUS == 32
