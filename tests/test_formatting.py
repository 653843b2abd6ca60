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
    (3e7, "en", "30M"), (3e7, "zh_CN", "3000万"), (1000, "zh_CN", "1000"), (1e4, "zh_CN", "1万"), (1500, "en", "1.5K"), (2e4, "en", "20K"),
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


@given(st.floats(min_value=-1e12, max_value=1e12, allow_nan=False, allow_infinity=False), st.integers(0, 3))
def test_views_read_the_same_through_the_formatter(v, d):
    """Issue #15 moved the views' own format specs onto these functions; what a person reads is unchanged:
    ``f"{x:,.Nf}"`` is format_number, ``f"{u * 100:.Nf}%"`` is format_percent (which also groups 1,000%)."""
    assert F.format_number(v, d) == f"{v:,.{d}f}"
    assert F.format_percent(v / 1e6, d) == f"{v / 1e6 * 100:,.{d}f}%"
    if abs(v) < 1e7:  # below 1,000% no grouping: the same as Python's own percent type
        assert F.format_percent(v / 1e7, d) == f"{v / 1e7:.{d}%}"  # CPython: val *= 100, then "f"


@pytest.mark.parametrize("value, expected", [
    (5.0, "5"), (2.5, "2.5"), (0.25, "0.25"), (12.75, "12.75"), (7.1234, "7.1234"), (104.0, "104"), (0.0, "0"),
])
def test_format_sig_six_digits_is_g_without_its_exponent(value, expected):
    """``format_sig(x, 6)`` replaces ``f"{x:g}"`` (weeks, years, an exchange rate): the same text for the values
    those fields hold, and grouped, plain digits where ``g`` would switch to ``1e+06``."""
    assert F.format_sig(value, 6) == expected == f"{value:g}"
    assert F.format_sig(1_000_000, 6) == "1,000,000" and f"{1_000_000:g}" == "1e+06"


@pytest.mark.parametrize("value, digits, expected", [
    (8.03e9, 3, "8.03B"), (1.5e12, 3, "1.5T"), (259_400, 4, "259.4K"), (259_400, 3, "259K"), (120e6, 3, "120M"),
    (16_312, 3, "16.3K"), (950, 3, "950"), (0.5, 3, "0.5"), (0, 3, "0"), (-5e6, 3, "-5M"), (1e15, 3, "1P"),
    # rounding carries into the next suffix; Python's "g" wrote these as 1e+03K, 1e+03 and 1.5e+03P
    (999_950, 3, "1M"), (999.96, 3, "1K"), (1.5e18, 3, "1,500P"),
])
def test_format_compact(value, digits, expected):
    assert F.format_compact(value, digits) == expected


@given(st.floats(min_value=1, max_value=1e21, allow_nan=False, allow_infinity=False), st.sampled_from([3, 4, 6]))
def test_format_compact_reads_back_within_its_digits(v, digits):
    """Fields show counts this way and parse them back (core.units.parse_count): no scientific notation, and
    the value read back is the count to ``digits`` significant digits."""
    from gpuplanner.core.units import parse_count

    text = F.format_compact(v, digits)
    assert not SCI.search(text), text
    assert math.isclose(parse_count(text), float(f"{v:.{digits}g}"), rel_tol=1e-9), (v, text)


def test_format_span_never_prints_a_range_as_one_value():
    from gpuplanner.formatting import format_span

    assert format_span(0.36, 0.44, 1) == ("0.36", "0.44")  # was "0.4–0.4"
    assert format_span(1.1, 1.4, 1) == ("1.1", "1.4")
    assert format_span(2.0, 2.0, 1) == ("2.0", "2.0")  # a real single value stays one
    assert format_span(0.3601, 0.3604, 1) == ("0.360", "0.360")  # at most two more decimals


def test_format_list_uses_the_languages_list_comma():
    from gpuplanner.formatting import format_list

    assert format_list(["compute 78%", "MoE 5%"], "en") == "compute 78%, MoE 5%"
    assert format_list(["计算 78%", "MoE 5%"], "zh_CN") == "计算 78%、MoE 5%"
    assert format_list([], "zh_CN") == ""


def test_a_range_whose_ends_print_the_same_is_one_number():
    from gpuplanner.formatting import format_money_range, format_range

    assert format_money_range(69_500.0, 69_500.4, "CNY") == "¥69,500"  # a month's lease: the same at both ends
    assert format_money_range(69_500.0, 69_500.4, "CNY", lang="zh_CN") == "¥69,500"
    assert format_money_range(961.2, 1_130.0, "CNY") == "¥961–¥1,130"
    assert format_money_range(0.5, 0.504, "USD") == "$0.50"
    assert format_money_range(0.5, 0.51, "USD") == "$0.50–$0.51"
    assert format_range("3", "3") == "3" and format_range("3", "4") == "3–4"


def test_the_cli_prints_a_flat_cost_range_once(tmp_path, capsys):
    """32 A100 nodes billed from the whole-cluster monthly lease (32 servers): the cost is the same at the band's
    ends."""
    import json

    from gpuplanner.cli import run_cli

    scn = {"model": {"preset": "llama-3-8b"},
           "training": {"method": "full", "precision": "bf16", "seq_len": 4096, "micro_batch_size": 1,
                        "global_batch_size": 512, "recompute": "full"},
           "parallel": {"tp": 1, "pp": 1, "zero": 3},
           "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 256, "gpus_per_node": 8},
           "data": {"tokens": "2B"}, "constraints": {"currency": "CNY"}}
    f = tmp_path / "s.json"
    f.write_text(json.dumps(scn), encoding="utf-8")
    for lang in ("en", "zh_CN"):
        assert run_cli(["estimate", str(f), "--lang", lang]) == 0
        out = capsys.readouterr().out
        line = next(x for x in out.splitlines() if "p10" in x)
        assert "¥1,112,000" in line and "¥1,112,000–" not in line, line  # 32 × 34,750


def test_tokens_count_in_wan_and_yi_in_chinese():
    from gpuplanner.formatting import format_tokens

    assert format_tokens(1.2e8, "zh_CN") == "1.2 亿" and format_tokens(1.2e8, "en") == "120M"
    assert format_tokens(2e9, "zh_CN") == "20 亿" and format_tokens(2e9, "en") == "2B"
    assert format_tokens(524_288, "zh_CN") == "52.4 万" and format_tokens(524_288, "en") == "524K"
    assert format_tokens(1.5e13, "zh_CN") == "15 万亿"
    assert format_tokens(4_096, "zh_CN") == "4,096"


def test_the_reports_data_line_counts_tokens_in_the_language():
    from PySide6.QtCore import QLocale

    from gpuplanner.report.content import fmt_tokens

    old = QLocale()
    try:
        QLocale.setDefault(QLocale(QLocale.Language.Chinese, QLocale.Country.China))
        assert fmt_tokens(2e9) == "20 亿"
        QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
        assert fmt_tokens(2e9) == "2B"
    finally:
        QLocale.setDefault(old)


def test_a_chinese_clause_follows_its_text_without_a_space():
    from gpuplanner.formatting import join_clause

    assert join_clause("¥69,500", "（模型误差的 p10–p90）") == "¥69,500（模型误差的 p10–p90）"
    assert join_clause("¥69,500", "(p10–p90 of the error)") == "¥69,500 (p10–p90 of the error)"


def test_a_label_is_followed_by_the_languages_colon():
    from gpuplanner.formatting import colon

    assert colon("en") == ": " and colon("zh_CN") == "："


def test_clauses_join_with_the_languages_semicolon():
    from gpuplanner.formatting import format_clauses

    assert format_clauses(["card-hour: list", "month: wholesale"], "en") == "card-hour: list; month: wholesale"
    assert format_clauses(["按卡时：标价", "整机月租：批发整机租金"], "zh_CN") == "按卡时：标价；整机月租：批发整机租金"
    assert format_clauses(["one"], "zh_CN") == "one" and format_clauses([], "en") == ""
