"""advisor.band_far_end and advisor.in_nvlink_domain: the one place each rule is written (review r10, mend10b)."""
from __future__ import annotations

import numpy as np

from gpuplanner.core import advisor


def test_band_far_end_is_band_ends_upper_end():
    point = np.array([12.3, 5.0, 7.0])
    lo, hi = np.array([10.8, 4.0, 7.5]), np.array([12.0, 6.0, 8.0])
    assert np.array_equal(advisor.band_far_end(point, hi), [12.3, 6.0, 8.0])  # widened to hold 12.3
    assert np.array_equal(advisor.band_ends(point, lo, hi)[1], advisor.band_far_end(point, hi))

