"""``core.units.parse_count`` reads the Chinese counting units (万 = 10^4, 亿 = 10^8, 万亿 = 10^12) as well as the
trade's K/M/B/T, and refuses hostile text in one line (never a traceback, never a different number)."""

from __future__ import annotations

import pytest

from gpuplanner.core.messages import MsgStr, error_text
from gpuplanner.core.units import parse_count
from gpuplanner.formatting import format_tokens


@pytest.mark.parametrize("text, value", [
    ("20亿", 2_000_000_000),          # 20 × 10^8
    ("20 亿", 2_000_000_000),         # as format_tokens writes it in Chinese
    ("1.41万亿", 1_410_000_000_000),  # 1.41 × 10^12
    ("3000万", 30_000_000),           # 3000 × 10^4
    ("52.4 万", 524_000),
    ("5千", 5_000),
    ("２０亿", 2_000_000_000),        # full-width digits from a Chinese input method
    ("20 亿个 token", 2_000_000_000),
    ("300B", 300_000_000_000), ("1.5T", 1_500_000_000_000), ("524K", 524_000), ("2e9", 2_000_000_000),
    ("7,000,000", 7_000_000), ("1.5×10^15", 1.5e15), ("2B tokens", 2e9),
])
def test_counts_in_both_languages(text, value):
    assert parse_count(text) == pytest.approx(value, rel=1e-15)


@pytest.mark.parametrize("value", [2e9, 5.24e5, 1.41e12, 3e7, 8_000, 1.5e15, 4.56e17])
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_what_format_tokens_writes_reads_back(value, lang):
    assert parse_count(format_tokens(value, lang)) == pytest.approx(value, rel=1e-12)


@pytest.mark.parametrize("text", [
    "20亿亿", "万", "亿20", "二十亿", "nan", "NaN", "inf", "-5", "1e999", "1e99999999999", "1.5×10^999",
    "9" * 300, "1" * 201, "2B" + " " * 500, "20亿\n; rm -rf /", "", "   ",
])
def test_hostile_text_is_one_line_refusal(text):
    with pytest.raises(ValueError) as info:
        parse_count(text)
    msg = error_text(info.value)
    assert isinstance(msg, MsgStr) and "\n" not in msg and len(msg) < 160


def test_a_long_number_is_refused_not_cut_short():
    # 201 digits: cut to 200 it would read as a number ten times smaller; it is refused instead
    with pytest.raises(ValueError):
        parse_count("1" * 201)
    assert parse_count("1" * 200) == pytest.approx(float("1" * 200))


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -1.0])
def test_numbers_that_are_not_counts(value):
    with pytest.raises(ValueError):
        parse_count(value)
