"""bench/fp8train13_split.py: the what-if factor (fp8lin13's serving rule carried to training) and its restore."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from gpuplanner.core import fp8

ROOT = Path(__file__).resolve().parents[1]


def _bench():
    sys.path.insert(0, str(ROOT / "bench"))
    spec = importlib.util.spec_from_file_location("fp8train13_split", ROOT / "bench" / "fp8train13_split.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_split_factor_h100_hand_derived():
    """H100 SXM: s = 794.5 / 989 (MAMF BF16), g = 0.55, TE = 70.9 / 80.3, P8 / P16 = 1979 / 989:
    1 / (1 / (s·TE) + (1/g − 1/s)·P8/P16) over g·TE = 0.391 / 0.486 = 0.805."""
    s, g, te, r = 794.5 / 989.0, 0.55, 70.9 / 80.3, 1979.0 / 989.0
    want = 1.0 / (1.0 / (s * te) + (1.0 / g - 1.0 / s) * r) / (g * te)
    assert want == pytest.approx(0.805, abs=0.002)
    assert _bench().split_factor("h100-sxm-80gb") == pytest.approx(want, rel=0.01)


def test_what_if_restores_the_recipes():
    b = _bench()
    before = dict(fp8.RECIPES)
    seen = b._with_factor(0.5, lambda: fp8.RECIPES["te_delayed"].gemm_ratio)
    assert seen == pytest.approx(0.5 * fp8.TE_GEMM_RATIO)
    assert fp8.RECIPES == before
