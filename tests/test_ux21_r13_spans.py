"""Round 13 (helper ux21): one span, one text in every view; no price for a plan that does not fit; the CLI's
table headers in Chinese.

Before: a plan below one day read "0.79 calendar days" on the Plans page, the live panel, ``gpuplanner plan`` /
``estimate`` and the PDF's headline, and "19.0 hours" on the Project page and in the quotes comparison
(``formatting.format_elapsed``). Now a plan's calendar time reads through ``formatting.format_plan_span`` — in
hours below a day, ``format_elapsed``'s text at the likely range's precision — and the core's sentences through
``messages.span_msg`` with the same numbers (``formatting.plan_span_numbers``). A PDF of a plan that does not fit
said not to rent it and then priced it (cost by rental mode, rent or build); ``gpuplanner plan`` in Chinese printed
the table column "zero" in English."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gpuplanner.cli import run_cli
from gpuplanner.formatting import format_elapsed, format_plan_span
from tests.i18n_scan import GLOSSARY, catalogue_words, cli_table_headers, zh_cli_english
from tests.test_report import _run, needs_poppler

ROOT = Path(__file__).resolve().parents[1]
#: full fine-tuning of Llama 3 8B: plan #1 (8 × H800) takes 0.79 calendar days, "19.0 hours"
SHORT = ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json"
#: a new user's first scenario file with its own layout: 1 GPU, 141.6 GiB on an 80 GiB card (ux20)
NOFIT = ROOT / "tests" / "data" / "ux20" / "first-task-as-given.json"


def _src(name: str) -> Path:
    """An example by name: examples/, or tests/data/examples_fixed/ for the fixed-layout files that left
    examples/ in issue 35 round 16 (examples16: those examples now let the search choose)."""
    here = ROOT / "examples" / name
    return here if here.exists() else ROOT / "tests" / "data" / "examples_fixed" / name


@pytest.fixture(autouse=True)
def _english_after():
    yield
    import sys

    if "PySide6.QtCore" in sys.modules:
        from gpuplanner.report.render import install_language

        install_language("en")


def _first_plan(capsys, path=SHORT):
    assert run_cli(["plan", str(path), "--json"]) == 0
    p = json.loads(capsys.readouterr().out)["plans"][0]
    return p["calendar_days"], tuple(p["calendar_days_band"]) if p.get("calendar_days_band") else None


def test_a_plan_below_a_day_reads_as_format_elapsed():
    for lang, want in (("en", "19.0 hours"), ("zh_CN", "19.0 小时")):
        head, rng = format_plan_span(0.7917, (0.70, 0.7917), lang)
        assert head == want == format_elapsed(0.7917, lang), head
        assert rng == ("16.8–19.0 hours" if lang == "en" else "16.8–19.0 小时"), rng
    # from one day: days, never weeks (the deadline is typed in days), at the range's precision
    assert format_plan_span(16.62, (16.6, 18.8), "en") == ("16.6 days", "16.6–18.8 days")
    assert format_plan_span(30.0, None, "en")[0] == "30.0 days"


BAD = re.compile(r"\b0\.\d\d (calendar days|days|个日历天|天)|日历 0\.\d\d 天")


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_cli_plan_writes_a_short_plans_span_as_format_elapsed(capsys, lang):
    """``gpuplanner plan``: plan #1 (8 × H800, 0.79 days) reads ``format_elapsed(days)`` — "19.0 hours", as the
    Project page — in its line, and no span anywhere reads "0.xx days" (the Pareto front read "0.79 days"; the
    Plans page: tests/ui/test_ux21_r13_ui.py)."""
    days, band = _first_plan(capsys)
    span = format_elapsed(days, lang)
    assert span == format_plan_span(days, band, lang)[0]
    assert run_cli(["plan", str(SHORT), "--lang", lang]) == 0
    text = capsys.readouterr().out
    first = next(ln for ln in text.splitlines() if ln.startswith("1. "))
    assert span in first and not BAD.search(first), first
    assert not BAD.search(text), BAD.findall(text)


@needs_poppler
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_estimate_and_pdf_write_the_same_span(capsys, tmp_path, lang):
    """The PDF of a scenario reports its own layout, as ``gpuplanner estimate`` and the live panel do: DPO of an 8B
    model, 0.16 calendar days. Both carry ``format_elapsed(days)`` ("3.9 hours") and its range in hours; the PDF
    said "Training takes about 0.16 calendar days", the CLI "0.16 days"."""
    path = ROOT / "tests" / "data" / "examples_fixed" / "8b-dpo-full-8xh100-zero3.json"
    assert run_cli(["estimate", str(path), "--json"]) == 0
    ev = json.loads(capsys.readouterr().out)
    assert ev["calendar_days"] < 1
    head, rng = format_plan_span(ev["calendar_days"], tuple(ev["calendar_days_band"]), lang)
    assert head == format_elapsed(ev["calendar_days"], lang)
    assert run_cli(["estimate", str(path), "--lang", lang]) == 0
    text = capsys.readouterr().out
    assert head in text and rng in text, text
    assert not BAD.search(text), BAD.findall(text)
    pdf = tmp_path / f"{lang}.pdf"
    assert run_cli(["report", str(path), "-o", str(pdf), "--lang", lang]) == 0
    capsys.readouterr()
    ptext = re.sub(r"\s+", " ", _run("pdftotext", "-raw", str(pdf), "-")).replace("‒", "–")
    if lang != "en":
        ptext = re.sub(r"(?<=[^\x00-\x7f]) | (?=[^\x00-\x7f])", "", ptext)
        head, rng = head.replace(" ", ""), rng.replace(" ", "")
    assert head in ptext and rng in ptext, ptext[:3000]
    assert not BAD.search(ptext), BAD.findall(ptext)


@needs_poppler
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_pdf_prices_no_plan_that_does_not_fit(capsys, tmp_path, lang):
    """The PDF of a plan over the card's memory said "Do not rent it" and then gave its cost with the rental mode,
    the cost by rental mode and rent or build: now the cost line says the plan does not fit and no price follows."""
    from gpuplanner.report.render import install_language, translate

    pdf = tmp_path / f"{lang}.pdf"
    assert run_cli(["report", str(NOFIT), "-o", str(pdf), "--lang", lang]) == 0
    capsys.readouterr()
    text = re.sub(r"\s+", " ", _run("pdftotext", "-raw", str(pdf), "-"))
    install_language(lang)
    no_price = translate("Report", "No price: this layout does not fit in GPU memory, so it cannot be rented as it is.")
    heads = [translate("Report", "Cost by rental mode"), translate("Report", "Rent or build")]
    install_language("en")
    flat = re.sub(r"\s+", "", text)
    assert re.sub(r"\s+", "", no_price) in flat, text[:3000]
    # the plan's price (a month of the whole server); "¥70,000" stays as the card's monthly price in the price
    # sources, on its row (whole money since ux23: "¥70,000.00" before)
    month = "server-month" if lang == "en" else "月租用价格"
    assert all(month in seen for seen in re.findall(r".{60}70,000", text)), re.findall(r".{60}70,000.{20}", text)
    assert len(re.findall(r"70,000", text)) == 1, re.findall(r".{60}70,000.{20}", text)
    assert not [h for h in heads if h in text], [h for h in heads if h in text]
    assert ("recommended" if lang == "en" else "◀") not in text


@pytest.mark.parametrize("example", ["llama3-8b-full-8xh100-zero3.json", "mixtral-8x7b-ep8-16xa800.json",
                                     "shenzhen-7b-domain-project.gpuplan", "70b-cpt-64xh100.gpuplan"])
def test_chinese_cli_tables_have_no_english_headers(capsys, example):
    """Every table header ``gpuplanner plan`` (and ``project`` for a project) prints in Chinese passes the
    glossary: "zero" and "mbs" were English (tests/i18n_scan.zh_cli_english)."""
    allowed = GLOSSARY | catalogue_words()
    path = _src(example)
    cmds = [["plan", str(path), "--lang", "zh_CN"]]
    if example.endswith(".gpuplan") and "project" in example:
        cmds.append(["project", str(path), "--lang", "zh_CN"])
    for cmd in cmds:
        assert run_cli(cmd) == 0
        text = capsys.readouterr().out
        if cmd[0] == "plan":
            assert cli_table_headers(text), text[:2000]  # the scan finds the plan table's header
        assert zh_cli_english(text, allowed) == [], (cmd, zh_cli_english(text, allowed), cli_table_headers(text))
