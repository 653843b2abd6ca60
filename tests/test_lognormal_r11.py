"""Round 11 (tidy11): the one copy of the log-normal's parameters (core/lognormal.py) gives back the mean and spread
it is built from, and its three users read it."""

import math

import pytest

from gpuplanner.core import flops, lognormal, packing, rollout_lengths


@pytest.mark.parametrize("mean,cv", [(512.0, 0.3), (1800.0, 1.0), (90.0, 2.5)])
def test_moments_come_back(mean, cv):
    loc, sig = lognormal.lognormal_loc_sig(mean, cv)
    assert math.exp(loc + 0.5 * sig * sig) == pytest.approx(mean, rel=1e-12)  # E[X]
    assert math.sqrt(math.exp(sig * sig) - 1.0) == pytest.approx(cv, rel=1e-12)  # std / mean


def test_the_three_users_share_it():
    for mod in (flops, packing, rollout_lengths):
        assert mod.lognormal_loc_sig is lognormal.lognormal_loc_sig
    # packing's median sample (odd n, the middle mid-quantile) is exp(loc) when nothing is dropped
    loc, _sig = lognormal.lognormal_loc_sig(600.0, 0.8)
    assert packing.kept_lengths(600.0, 0.8, 1e12, 3)[1] == pytest.approx(math.exp(loc), rel=1e-9)
