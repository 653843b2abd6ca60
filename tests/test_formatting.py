"""The one formatter: no scientific notation anywhere a person reads, axes at the counts people rent."""

from __future__ import annotations

import math
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gpuplanner import formatting as F

SCI = re.compile(r"\d[eE][+-]?\d")


@pytest.mark.parametrize("value, expected", [
    (4.57e19, "4.6×10^19"), (4.33e23, "4.3×10^23"), (9.96e10, "1×10^11"), (3.7e-4, "3.7×10^-4"), (5.0, "5"),
])
def test_format_power(value, expected):
    assert F.format_power(value, 2) == expected


@pytest.mark.parametrize("value, lang, expected", [
    (3e7, "en", "30M"), (3e7, "zh_CN", "3,000万"), (1500, "en", "1,500"), (2e4, "en", "20K"),
    (2e4, "zh_CN", "2万"), (0.2, "en", "0.2"), (5e6, "en", "5M"), (1.2e8, "zh_CN", "1.2亿"), (4.6e19, "en", "4.6×10^19"),
])
def test_format_axis(value, lang, expected):
    assert F.format_axis(value, lang) == expected


def test_format_flops_and_sig():
    assert F.format_flops(4.33e23) == "433 ZFLOP"
    assert F.format_flops(4.57e19) == "45.7 EFLOP"
    assert F.format_flops(4.49e10) == "44.9 GFLOP"
    assert F.format_sig(0.00037) == "0.00037"
    assert F.format_sig(44_900_000_000) == "44,900,000,000"
    assert F.format_sig(12.345, 3) == "12.3"


@pytest.mark.parametrize("days, lang, expected", [
    (0.5, "en", "12 hours"), (3.5, "en", "3.5 days"), (3.5, "zh_CN", "3.5 天"), (301, "en", "43 weeks"),
    (301, "zh_CN", "43 周"),
])
def test_format_duration_picks_the_unit(days, lang, expected):
    assert F.format_duration(days, lang) == expected


@given(st.floats(min_value=-1e30, max_value=1e30, allow_nan=False, allow_infinity=False),
       st.sampled_from(["en", "zh_CN"]))
def test_no_scientific_notation_from_any_formatter(v, lang):
    outs = [F.format_sig(v, 3, lang), F.format_axis(v, lang), F.format_large(v, "tokens", lang),
            F.format_money(v, "CNY", lang), F.format_money(v, "USD", lang, compact=True), F.format_number(v, 1, lang)]
    if v > 0:
        outs += [F.format_flops(v, lang), F.format_count(v, lang), F.format_duration(min(v, 1e6), lang)]
    for text in outs:
        assert not SCI.search(text), (v, text)


def test_gpu_axis_ticks_are_rentable_counts():
    pytest.importorskip("PySide6")
    from gpuplanner.ui.charts import gpu_ticks

    ticks = gpu_ticks(0.6, 80)
    labels = [t[1] for t in ticks]
    assert labels == ["1", "2", "4", "8", "16", "32", "64"]
    assert all(abs(10 ** pos - round(10 ** pos)) < 1e-6 for pos, _ in ticks)  # never a fractional GPU
    wide = gpu_ticks(1, 100_000)
    assert len(wide) <= 10 and all(float(lab.replace(",", "").rstrip("K")) >= 1 for _, lab in wide)
    assert math.isclose(10 ** wide[0][0], 1)
