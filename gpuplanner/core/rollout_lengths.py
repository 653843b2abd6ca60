"""The longest of N sampled completions (RL rollouts), cut at ``max_tokens`` (issue 35 round 9).

A generation batch ends with its longest completion (``methods.expected_longest``). verl's logs print each step's
``response_length/mean``, ``/max``, ``/min`` and ``/clip_ratio`` (bench/rl_lengths.py): the lengths are a
log-normal body, as pref8 found for datasets' samples (:func:`flops.expected_longest`), plus a small share of
completions that never emit EOS and run to the cap.

This module imports nothing of the planner but the leaf ``lognormal`` (the log-normal's parameters): ``methods``
reads it, and ``flops`` (which holds the datasets' log-normal) sits above ``methods`` in the import order
(flops → memory → methods).
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from .lognormal import lognormal_loc_sig

#: points of the quadrature over ±_Z standard deviations of log-length (as flops.expected_longest's grid)
_GRID = 512
_Z = 8.0


@lru_cache(maxsize=64)
def _grid(mu: float, cv: float, cap: float):
    """The log-normal's ``loc``/``sig``, the normal variable ``z`` up to the cut, Φ(z) and the length x(z)
    (read-only arrays, shared by the search's layouts)."""
    loc, sig = lognormal_loc_sig(mu, cv)
    z = np.linspace(-_Z, min(_Z, (math.log(cap) - loc) / sig), _GRID + 1)
    cdf = 0.5 * (1.0 + np.array([math.erf(v / math.sqrt(2.0)) for v in z]))
    x = np.exp(loc + sig * z)
    for a in (z, cdf, x):
        a.flags.writeable = False
    return loc, sig, z, cdf, x


def expected_longest_runaway(mean: float, cv: float, n, cap: float, cap_share: float):
    """Expected longest of ``n`` completions cut at ``cap`` when a share ``cap_share`` (p) of them run to the cut
    and the others are log-normal with the mean ``mean`` and spread ``cv`` (standard deviation / mean).

    With F(x) = (1 − p) G(x) below the cut, E[min(max, cap)] = ∫₀^cap (1 − ((1 − p) G(x))ⁿ) dx: a trapezoid rule
    in the log-length, plus the stretch above the grid's top (8 standard deviations, below the cut), which only a
    runaway reaches. One completion (``n`` ≤ 1) is the mean; the result is never below the mean nor above the cut.
    ``n`` may be an array (the search's layouts): each distinct value is integrated once, with the same arithmetic
    as a plain number, so ``evaluate`` and the search agree."""
    mu, cap, p = float(mean), float(cap), max(float(cap_share), 0.0)
    if math.isinf(cv) or mu >= cap:
        return np.full(np.shape(n), cap) if isinstance(n, np.ndarray) else cap
    if cv <= 0.0:  # every body completion at the mean: the longest is the cut as soon as one runs away
        nn = np.asarray(n, dtype=float)
        out = np.where(nn <= 1.0, mu, cap - (cap - mu) * (1.0 - p) ** np.maximum(nn, 1.0))
        return out if isinstance(n, np.ndarray) else float(out)
    if not isinstance(n, np.ndarray):
        return _one(mu, float(cv), float(n), cap, p)
    return _integral(mu, float(cv), n, cap, p)


@lru_cache(maxsize=256)
def _one(mu: float, cv: float, n: float, cap: float, p: float) -> float:
    """:func:`expected_longest_runaway` of one batch size (a plain number), cached."""
    return float(_integral(mu, cv, n, cap, p))


def _integral(mu: float, cv: float, n, cap: float, p: float):
    """The quadrature for ``n`` (number or array), shaped as ``n``."""
    loc, sig, z, cdf, x = _grid(mu, cv, cap)
    nn = np.asarray(n, dtype=float)
    vals, back = np.unique(nn.reshape(-1), return_inverse=True)
    k = np.maximum(vals, 1.0).reshape(-1, 1)
    keep = (1.0 - p) ** k  # P(no runaway among n)
    g = (1.0 - keep * cdf[None, :] ** k) * (sig * x)[None, :]
    area = math.exp(loc + sig * z[0]) + (z[1] - z[0]) * (g.sum(axis=1) - 0.5 * (g[:, 0] + g[:, -1]))
    area = area + max(cap - float(x[-1]), 0.0) * (1.0 - keep[:, 0])  # above the grid: a runaway's stretch
    return np.where(vals <= 1.0, mu, np.minimum(np.maximum(area, mu), cap))[back].reshape(nn.shape)
