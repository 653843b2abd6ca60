"""Round 13 (helper ux20): the deadline lines write their spans through the one formatter, and the Chinese chart
axes count in myriads without "0.1万".

Before: the advisor's deadline line formatted days itself ("Misses the deadline already at the estimate (7.0 days
against 7)" for a plan of 7.04 days against a 7-day deadline: two different spans read alike, one with a unit and
one without); the search wrote a deadline "2 days" (``{d:g}``) while the PDF wrote it "2.0 days", and the PDF
printed "Misses the deadline of 2.0 days." above "Misses the deadline of 2 days." in one cell. Now every deadline
line takes ``messages.deadline_msgs`` (``formatting.elapsed_numbers`` / ``format_time_number``, the words of
``formatting.format_elapsed``), so the CLI, the Plans page (the same messages) and the PDF print them alike."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from gpuplanner.cli import run_cli
from gpuplanner.formatting import format_axis_ticks, format_elapsed
from tests.test_report import _run, needs_poppler

ROOT = Path(__file__).resolve().parents[1]
#: full SFT of an 8B model on 20B tokens within 8 GPUs and 2 days: no plan meets the deadline (the fastest ~2.9 days)
LATE = ROOT / "tests" / "data" / "ux20" / "full-8b-late-8-gpus.json"


@pytest.fixture(autouse=True)
def _english_after():
    """``run_cli([... "--lang", "zh_CN"])`` installs the report's Chinese translator in this process (a real CLI
    exits): English again after each test, so no later test reads Chinese."""
    yield
    import sys

    if "PySide6.QtCore" in sys.modules:
        from gpuplanner.report.render import install_language

        install_language("en")


def test_point_miss_line_writes_both_spans_through_the_formatter():
    from gpuplanner.core.rules import _point_miss_msg

    miss = {"deadline": True, "budget": False, "days": 7.04, "deadline_days": 7.0, "cost": 1.0, "budget_cap": 0.0,
            "cur": "CNY"}
    text = _point_miss_msg(miss).render()
    # was "(7.0 days against 7)": the plan's days to one decimal, the deadline bare and without its unit
    # (ux25: the typed deadline as typed, "7 days"; was "7.00 days")
    assert "(7.04 days against 7 days)" in text, text
    both = dict(miss, budget=True, budget_cap=0.5, cost=1.0)
    assert "(7.04 days against 7 days; " in _point_miss_msg(both).render()


def test_deadline_msgs_write_spans_together_and_in_days():
    from gpuplanner.core.messages import deadline_msgs

    out = {k: v.render() for k, v in deadline_msgs(a=30.0, b=0.25, c=2.0).items()}
    # days, whatever the size (the deadline is typed in days; the Plans table's column is in days), each number as
    # format_time_number writes a plan's days
    # (ux25: whole days as typed, "30 days", "2 days"; were "30.0", "2.0")
    assert out == {"a": "30 days", "b": "0.25 days", "c": "2 days"}, out
    assert deadline_msgs(a=math.inf, b=1.0)["a"] == "—"


def _lines(text: str, pattern: str) -> list[str]:
    return [m.group(0) for m in re.finditer(pattern, text)]


@needs_poppler
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_cli_and_pdf_print_the_deadline_spans_alike(app, capsys, tmp_path, lang):
    """The same scenario's deadline lines in ``gpuplanner plan`` and in the PDF: the deadline reads
    ``format_elapsed(2, lang, "days")`` ("2.0 days" / "2.0 天") in both, and the PDF says each miss once.
    (Issue 35 r16 ux25: a deadline alone reads as typed, "2 days" / "2 天" — ``formatting.format_typed_days`` —
    in both alike; the old "2.0 days" is now the form that must not appear.)"""
    span = format_elapsed(2.0, lang, "days").replace("2.0", "2")
    assert run_cli(["plan", str(LATE), "--top", "3", "--lang", lang]) == 0
    cli = capsys.readouterr().out
    pdf = tmp_path / f"{lang}.pdf"
    assert run_cli(["report", str(LATE), "-o", str(pdf), "--lang", lang]) == 0
    capsys.readouterr()
    text = re.sub(r"\s+", " ", _run("pdftotext", "-raw", str(pdf), "-"))
    if lang == "en":
        warn = f"Misses the deadline of {span}."
        note = f"No plan meets the deadline of {span} within 8 GPUs"
        bare = r"deadline of 2\.0 days|against 2\)"
    else:
        warn = f"赶不上 {span}的截止时间。"
        note = f"没有方案能赶上 {span}的截止时间"
        bare = r"赶上 2\.0 天|截止 2\.0 天"
    for where, out in (("cli", cli), ("pdf", text)):
        assert warn in out, (where, out[:2000])
        assert note in out, (where, out[:2000])
        assert not re.search(bare, out), (where, _lines(out, ".{40}(?:" + bare + ").{20}"))
    # the PDF's alternatives: the miss said once per plan, not "… 2.0 days." above "… 2 days." (before: 4 for 2)
    assert text.count(warn) == 2, _lines(text, ".{60}" + re.escape(warn))


@pytest.mark.parametrize("values, expected", [
    ([1000, 1e4, 1e5], ["1000", "1万", "10万"]),  # the log axes read "0.1万 / 1万 / 10万" (round 12's "Left")
    ([100, 1000, 1e4], ["100", "1000", "1万"]),
    ([3000, 1e4, 3e4], ["3000", "1万", "3万"]),
    ([2e3, 5e3, 1e4, 2e4], ["2000", "5000", "1万", "2万"]),
    ([5e7, 1e8, 2e8], ["5000万", "1亿", "2亿"]),
    ([0, 2e4, 4e4], ["0", "2万", "4万"]),
    ([1e5, 1e6, 1e7], ["10万", "100万", "1000万"]),
])
def test_chinese_axis_ticks_count_in_myriads(values, expected):
    assert format_axis_ticks(values, "zh_CN") == expected


@pytest.mark.parametrize("lo_exp", range(0, 9))
def test_no_chinese_tick_is_a_fraction_of_a_myriad(lo_exp):
    """Every decade pair a log axis can show: no "0.x万" / "0.x亿", no grouping comma inside a Chinese tick."""
    vals = [m * 10.0 ** k for k in range(lo_exp, lo_exp + 3) for m in (1, 2, 5)]
    for t in format_axis_ticks(vals, "zh_CN"):
        assert not re.match(r"0\.\d+[万亿]", t) and "," not in t, (vals, t)


def test_english_axis_ticks_keep_one_scale():
    assert format_axis_ticks([3000, 1e4, 3e4], "en") == ["3K", "10K", "30K"]
    assert format_axis_ticks([1000, 1e4, 1e5], "en") == ["1K", "10K", "100K"]


@pytest.mark.parametrize("days, expected", [(0.66, "15.8 hours"), (3.06, "3.1 days"), (21.0, "21.0 days")])
def test_quote_comparison_writes_the_plans_span_as_the_project_page(days, expected):
    """The Vendor quotes comparison (app, CLI, PDF: ``report.quotes_section``) wrote the plan's span with
    ``format_days`` ("0.66 days from start to finish") while the Project page wrote the same plan "15.8 hours"
    (``format_elapsed``): now the Project page's formatter, and the setup through it too."""
    from gpuplanner.core.quotes import compare
    from gpuplanner.report.quotes_section import html_section, text_lines
    from tests.test_quotes import _plan, _vendor

    c = compare([_vendor()], _plan(calendar_days=days, setup_hours=0.55))
    assert format_elapsed(days, "en") == expected
    line = text_lines(c, translate=lambda _c, t: t)[0]
    assert f"{expected} from start to finish" in line, line
    html = html_section(c, number="", translate=lambda _c, t: t, msg=lambda m: m.render())
    assert f"{expected} from start to finish" in html and "setup 0.55 hours per new instance" in html, html[:600]


@needs_poppler
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_pdf_does_not_recommend_a_plan_that_does_not_fit(app, capsys, tmp_path, lang):
    """A new user's first scenario file (Llama 3.1 8B, full fine-tuning, 2B tokens, 7 days) keeps its own layout:
    1 GPU, 141.6 GiB on an 80 GiB card. The PDF's "2. The recommendation" read "Rent 1 × NVIDIA H100 SXM5 80GB
    (1 node of 1). Training takes about 4.2 calendar days and costs about ¥70,000" under the warning that it does
    not fit, and the task table said "global batch 1 sequences".

    Issue 35 round 18 (memoos18): the eager loss's allocator hole (2 bytes per logit, 0.49 GiB) is a free segment,
    not in what fits (memory.allocator_cache_bytes): 141.6 → 141.1 GiB, 76.9% → 76.3%, 61.6 → 61.1 GiB over."""
    pdf = tmp_path / f"{lang}.pdf"
    assert run_cli(["report", str(ROOT / "tests" / "data" / "ux20" / "first-task-as-given.json"), "-o", str(pdf),
                    "--lang", lang]) == 0
    capsys.readouterr()
    text = re.sub(r"\s+", " ", _run("pdftotext", "-raw", str(pdf), "-"))
    if lang == "en":
        assert "Rent 1 ×" not in text and "1 node of 1) does not fit: 141.1 GiB per GPU on a card of 80.0 GiB" in text
        assert "global batch 1 sequence," in text, text[:1500]
        # the memory-headroom rule read "Tight: -76.9% of the card free"
        assert "Does not fit: it needs 76.3% more memory than the card has." in text, text
    else:
        assert "租用 1 ×" not in text and "放不下：每张 GPU 需要 141.1 GiB" in text
        assert "放不下：需要的显存比显卡多 76.3%。" in text
    assert not re.search(r"-\d+(\.\d)?( GiB|%)", text), re.findall(r".{40}-\d+(?:\.\d)?(?: GiB|%).{10}", text)
    assert ("61.1 GiB over the card" if lang == "en" else "超出显卡 61.1 GiB") in text
