"""Round 16 (helper ux24): a new user's first hour, looked at as a user (screenshots at 1280×800, the PDF of the
default document and two examples, the CLI on every example, in English and Chinese). What a demanding user tripped
over outside the window, each mended where it is decided and checked here by hand (the window's side:
tests/ui/test_ux24_r16_ui.py):

1. The search's time read "(10,292 ms)" in ``plan`` and "(4,536 ms)" on the Plans page: five digits for what a user
   reads in seconds. ``formatting.format_wall_time``: "10 s", "4.5 s", "466 ms" (zh "秒", "毫秒").
2. ``--lang zh_CN`` printed argparse's sentences in English: "plan: argument --top: expected a whole number from 1
   to 1,000, got 'x'", "report: the following arguments are required: -o/--output".
3. ``plan autodl-a800.csv`` (a quote sheet where the task goes) said "not valid JSON (line 1, column 1: a value was
   expected)": it now says what the file is and what the command reads.
4. The PDF's interconnect row read "NVLink 4 cut to 8 links (H800, NV8) (400 GB/s)": a bracket after a bracket.
5. The PDF's memory-against-GPU-count chart wrote "96 GiB card" over "80 GiB card" (a log axis puts the lines 10
   pixels apart): a label that would cover the one above goes under its line.
6. Chinese wrote the recompute policy after the word, "重计算 完全" (English word order): "完全重计算".
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gpuplanner.cli import run_cli

ROOT = Path(__file__).resolve().parents[1]
LORA = ROOT / "examples" / "7b-lora-1x4090.json"
SHEET = ROOT / "examples" / "quotes" / "autodl-a800.csv"


@pytest.fixture(scope="module")
def default_doc(tmp_path_factory):
    """The scenario a new document starts from (ui.model.default_scenario) as a file, what the user first sees."""
    from gpuplanner.ui.model import default_scenario

    path = tmp_path_factory.mktemp("ux24") / "default.json"
    path.write_text(default_scenario().model_dump_json(exclude_defaults=True), encoding="utf-8")
    return path


# ------------------------------------------------------------------------ 1. the search's time

@pytest.mark.parametrize(("ms", "en", "zh"), [
    (466.2, "466 ms", "466 毫秒"), (999.4, "999 ms", "999 毫秒"), (999.6, "1.0 s", "1.0 秒"),
    (4536, "4.5 s", "4.5 秒"), (9949, "9.9 s", "9.9 秒"), (10_292, "10 s", "10 秒"), (125_400, "125 s", "125 秒")])
def test_the_search_time_reads_in_seconds_from_one(ms, en, zh):
    from gpuplanner.formatting import format_wall_time

    assert format_wall_time(ms, "en") == en
    assert format_wall_time(ms, "zh_CN") == zh


@pytest.mark.parametrize(("code", "word"), [("en", "s"), ("zh_CN", "秒")])
def test_plan_prints_the_search_time_without_milliseconds_past_a_second(capsys, code, word, monkeypatch):
    """``plan``'s second line, with the search's time as the core measured it (here pinned to 10,292 ms)."""
    from gpuplanner.core import search

    real = search.search

    def timed(*a, **k):
        res = real(*a, **k)
        res.search_ms = 10_292.0
        return res

    monkeypatch.setattr(search, "search", timed)
    assert run_cli(["plan", str(LORA), "--lang", code]) == 0
    line = capsys.readouterr().out.splitlines()[1]
    assert f"10 {word}" in line and "10,292" not in line and "ms" not in line and "毫秒" not in line, line


# ------------------------------------------------------------------------ 2. argparse in the user's language

@pytest.mark.parametrize(("argv", "en", "zh"), [
    (["plan", str(LORA), "--top", "x"], "plan: argument --top: expected a whole number from 1 to 1,000, got 'x'",
     "plan: 参数 --top：应为 1 到 1,000 之间的整数，实际为 'x'"),
    (["report", str(LORA)], "report: the following arguments are required: -o/--output",
     "report: 缺少必需的参数：-o/--output"),
    (["plan", str(LORA), "--objective", "fast"],
     "plan: argument --objective: invalid choice: 'fast' (choose from 'cheapest', 'fastest', 'value')",
     "plan: 参数 --objective：无效的取值 'fast'（可选：'cheapest', 'fastest', 'value'）"),
])
def test_a_mistyped_option_is_told_in_the_language_asked_for(capsys, argv, en, zh):
    for code, want in (("en", en), ("zh_CN", zh)):
        with pytest.raises(SystemExit) as info:
            run_cli([*argv, "--lang", code])
        assert info.value.code == 2
        err = capsys.readouterr().err.strip()
        prefix = "gpuplanner: error: " if code == "en" else "gpuplanner: 错误："  # argparse's prefix too (helpzh18)
        assert err == f"{prefix}{want}", err  # one line, where the user typed


def test_a_sentence_argparse_has_no_translation_for_stays_as_written():
    from gpuplanner.commands._args import parse_error_text

    seen = []

    def tr(ctx, text):
        seen.append(text)
        return "<" + text + ">"

    assert parse_error_text("something argparse adds one day", tr) == "something argparse adds one day"
    assert parse_error_text("argument --x: something new", tr) == "<argument --x: something new>"
    assert seen == ["argument {arg}: {msg}"]


# ------------------------------------------------------------------------ 3. a quote sheet where the task goes

@pytest.mark.parametrize(("code", "want"), [
    ("en", "autodl-a800.csv: a quote sheet, not a task; give a scenario (.json) or a plan file (.gpuplan)"),
    ("zh_CN", "autodl-a800.csv：这是报价单，不是训练任务；请给出场景文件（.json）或方案文件（.gpuplan）")])
def test_a_quote_sheet_given_as_the_task_says_what_it_is(capsys, code, want):
    assert run_cli(["plan", str(SHEET), "--lang", code]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and want in err and "JSON" not in err, err


def test_a_json_file_named_csv_is_still_read_as_a_scenario(tmp_path, capsys):
    """The sheet's message is for a file that is no JSON: a scenario saved under .csv still plans."""
    odd = tmp_path / "task.csv"
    odd.write_text(LORA.read_text(encoding="utf-8"), encoding="utf-8")
    assert run_cli(["estimate", str(odd), "--lang", "en"]) == 0
    bad = tmp_path / "broken.json"
    bad.write_text("GPU,Unit\n", encoding="utf-8")
    assert run_cli(["estimate", str(bad), "--lang", "en"]) == 2
    assert "not valid JSON" in capsys.readouterr().err  # a .json keeps the parser's reason


# ------------------------------------------------------------------------ 4–5. the PDF

@pytest.mark.parametrize(("code", "want"), [("en", "(H800, NV8), 400 GB/s per GPU"), ("zh_CN", "（H800，NV8），每卡 400 GB/s")])
def test_the_pdfs_link_bandwidth_is_a_phrase_not_a_second_bracket(default_doc, code, want):
    """H800 SXM5: NVLink 400 GB/s per GPU (the catalog's intra_node_bw_gbs; NVIDIA's H800 product brief)."""
    from gpuplanner.app.answer import report_data
    from gpuplanner.report.render import _html_plan, install_language

    try:
        install_language(None if code == "en" else code)
        html = _html_plan(report_data(default_doc))
    finally:
        install_language(None)
    assert want in html, re.findall(r"NVLink[^<]*", html)
    assert ") (400" not in html and "）（400" not in html


def test_the_card_lines_labels_do_not_cover_each_other(default_doc, app):
    """The default document's candidates have 96, 80, 48 and 24 GiB cards; on the log axis 96 and 80 are ~10 px
    apart, less than a label's height: no two labels of the chart overlap."""
    from gpuplanner.app.answer import report_data
    from gpuplanner.report.render import draw_memory_count_chart

    chart, _legend = draw_memory_count_chart(report_data(default_doc))
    cards = [(t, r) for t, r in chart.texts if t.endswith("GiB card")]
    assert [t for t, _ in cards] == ["96 GiB card", "80 GiB card", "48 GiB card", "24 GiB card"]
    for i, (ta, ra) in enumerate(cards):
        for tb, rb in cards[i + 1:]:
            assert not ra.intersects(rb), (ta, ra, tb, rb)


# ------------------------------------------------------------------------ 6. zh word order

def test_the_chinese_recompute_phrase_puts_the_kind_first():
    """Both translations of "recompute {…}" (the Plans page's and the PDF's) put the policy before 重计算."""
    ts = (ROOT / "gpuplanner" / "resources" / "i18n" / "gpuplanner_zh_CN.ts").read_text(encoding="utf-8")
    for src, ph in (("recompute {0}", "{0}"), ("recompute {r}", "{r}")):
        m = re.search(rf"<source>{re.escape(src)}</source>\s*<translation>([^<]*)</translation>", ts)
        assert m is not None and m.group(1) == f"{ph}重计算", (src, m and m.group(1))
    assert json.loads((ROOT / "gpuplanner/resources/i18n/glossary.json").read_text(encoding="utf-8"))["terms"][
        "recompute"] == "重计算"


# ------------------------------------------------------------------------ 7. a list of suggestions in Chinese

@pytest.mark.parametrize(("scenario", "en", "zh"), [
    ({"model": {"preset": "llama-9b"}}, "did you mean llama-3-8b, llama-2-7b, llama-3-70b?",
     "你是不是要找：llama-3-8b、llama-2-7b、llama-3-70b？"),
    ({"model": {"preset": "llama-3.1-8b"}, "hardware": {"gpu": "h100-sxm"}},
     "(did you mean: h100-sxm-80gb, v100-sxm-32gb, h800-sxm-80gb?)", "h100-sxm-80gb、v100-sxm-32gb、h800-sxm-80gb"),
    ({"model": {"preset": "llama-3.1-8b"}, "hardware": {"inter_node": "ib-ndr"}},
     "(did you mean: ib-ndr-400, ib-xdr-800, ib-hdr-200?)", "ib-ndr-400、ib-xdr-800、ib-hdr-200")])
def test_the_suggested_ids_are_listed_the_languages_way(capsys, tmp_path, scenario, en, zh):
    """zh read "你是不是要找：llama-3-8b, llama-2-7b, llama-3-70b？": ASCII commas between the items of a Chinese line
    (formatting.format_list: 、)."""
    bad = tmp_path / "typo.json"
    bad.write_text(json.dumps(scenario), encoding="utf-8")
    for code, want in (("en", en), ("zh_CN", zh)):
        assert run_cli(["estimate", str(bad), "--lang", code]) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and want in err, err
        assert code == "en" or ", " not in err, err
