"""The log-normal of sample and completion lengths, from their mean and spread (one copy for its three users:
:func:`flops.expected_longest`, :func:`rollout_lengths.expected_longest_runaway`, :func:`packing.kept_lengths`).

A log-normal with mean ``m`` and spread ``cv`` (standard deviation / mean) is ``exp(loc + sig · Z)``, Z standard
normal, with ``sig² = ln(1 + cv²)`` and ``loc = ln m − sig²/2`` (the moments of the log-normal: E = exp(loc + sig²/2),
Var/E² = exp(sig²) − 1). Why log-normal: :func:`flops.expected_longest` (bench/data/pref8.md).

This module imports nothing of the planner, so any core module may read it.
"""

from __future__ import annotations

import math


def lognormal_loc_sig(mean: float, cv: float) -> tuple[float, float]:
    """``(loc, sig)`` of the log-normal with mean ``mean`` (> 0) and spread ``cv`` (> 0, standard deviation / mean)."""
    s2 = math.log1p(cv * cv)
    return math.log(mean) - 0.5 * s2, math.sqrt(s2)
