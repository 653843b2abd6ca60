"""advisor.band_far_end and advisor.in_nvlink_domain: the one place each rule is written (review r10, mend10b)."""
from __future__ import annotations

import numpy as np

from gpuplanner.core import advisor


def test_band_far_end_is_band_ends_upper_end():
    point = np.array([12.3, 5.0, 7.0])
    lo, hi = np.array([10.8, 4.0, 7.5]), np.array([12.0, 6.0, 8.0])
    assert np.array_equal(advisor.band_far_end(point, hi), [12.3, 6.0, 8.0])  # widened to hold 12.3
    assert np.array_equal(advisor.band_ends(point, lo, hi)[1], advisor.band_far_end(point, hi))


def test_in_nvlink_domain():
    assert advisor.in_nvlink_domain(72, 72) and advisor.in_nvlink_domain(8, 72)
    assert not advisor.in_nvlink_domain(144, 72)
    assert not advisor.in_nvlink_domain(8, 0)  # no domain beyond a server
    assert list(advisor.in_nvlink_domain(np.array([4, 72, 76]), 72)) == [True, True, False]
    # no_fabric reads the same rule: multi-node rows inside the domain need no networked quote
    assert list(advisor.no_fabric(np.array([2, 18, 19]), None, np.array([8, 72, 76]), 72)) == [False, False, True]
