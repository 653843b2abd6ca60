"""terms18 (issue 35 r18): one name for one thing, charts a new user can read, a first page that is not 40 % blank.

1. "GPU-hours" (``estimate``'s compute line, the PDF's training time, the Verify panel's row) beside "card-hours"
   (every price, rental mode and the planning guide: "整机 vs 卡时"): one name, card-hours (卡时), everywhere a user
   reads it; the Budget page's "Usable GPU hours per week" said hours of the week, not card-hours.
2. The app's memory chart named its bars "sel. RC / full RC / no RC" and the cost chart's legend "Pareto front";
   ``plan`` printed "Time vs cost (Pareto front):". Plain words now. Axis ticks read "1,000 / 2,000 / 5,000" on one
   chart and "2K / 5K / 10K" on another for the same quantity: one form per value (``formatting.format_axis``).
3. The English PDF of ``llama3-8b-full.json`` kept its plan table whole and left 40 % of page 1 blank.
"""
from __future__ import annotations

import itertools
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TS = ROOT / "gpuplanner" / "resources" / "i18n" / "gpuplanner_zh_CN.ts"
OTHER_NAME = re.compile(r"\bGPU[- ]?hours?\b", re.IGNORECASE)


def _messages():
    """(source, translation) of every live message of the Chinese catalogue."""
    out = []
    for msg in ET.parse(TS).getroot().iter("message"):
        tr = msg.find("translation")
        if tr is not None and tr.get("type") in ("obsolete", "vanished"):
            continue
        out.append((msg.findtext("source") or "", (tr.text or "") if tr is not None else ""))
    return out


def test_no_english_string_says_gpu_hours():
    """The unit a price is quoted in is the card-hour: no English string a user reads names it otherwise."""
    bad = [s for s, _t in _messages() if OTHER_NAME.search(s)]
    assert not bad, bad


def test_chinese_says_ka_shi_for_the_card_hour():
    """zh: every card-hour is 卡时 (glossary.json), never "GPU 小时"."""
    msgs = _messages()
    assert not [t for _s, t in msgs if re.search(r"GPU\s*小时", t)]
    missing = [(s, t) for s, t in msgs if re.search(r"\bcard-hours?\b", s, re.I) and t and "卡时" not in t]
    assert not missing, missing[:5]


def test_estimate_prints_card_hours():
    out = subprocess.run([sys.executable, "-m", "gpuplanner", "estimate", str(ROOT / "examples" / "llama3-8b-full.json")],
                         capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "card-hours" in out.stdout and not OTHER_NAME.search(out.stdout)


def test_pdf_training_time_says_card_hours():
    from types import SimpleNamespace

    from gpuplanner.report import render

    text = render._training_time_text(SimpleNamespace(gpu_hours=147.0, calendar_days=0.79, compute_days=0.77,
                                                      calendar_days_band=None))
    assert "147 card-hours" in text and not OTHER_NAME.search(text)


JARGON = re.compile(r"\bsel\. RC\b|\bRC\b|Pareto")


def test_chart_labels_are_plain_words():
    """No "sel. RC", "full RC", "Pareto front" in any string a user reads; zh no 帕累托."""
    bad = [s for s, _t in _messages() if JARGON.search(s)]
    assert not bad, bad
    assert not [t for _s, t in _messages() if "帕累托" in t]


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_value_reads_the_same_on_every_axis(lang):
    """One tick form per value: 1,000 tokens/s is "1K" on every English chart (it was "1,000" on an axis up to
    5,000 and "1K" on one up to 10,000), 1万 on every Chinese one."""
    from gpuplanner.formatting import format_axis_ticks

    grid = [m * 10.0 ** k for k in range(1, 7) for m in (1, 2, 3, 5)]
    seen: dict[float, set[str]] = {}
    for n in (3, 4, 5):
        for i in range(len(grid) - n + 1):
            vals = grid[i:i + n]
            for v, s in zip(vals, format_axis_ticks(vals, lang)):
                seen.setdefault(v, set()).add(s)
    mixed = {v: s for v, s in seen.items() if len(s) > 1 and v < 5e5}  # from half a million "0.5M" may lead an axis
    assert not mixed, mixed
    if lang == "en":
        assert format_axis_ticks([1000, 2000, 5000], lang) == ["1K", "2K", "5K"]
        assert format_axis_ticks([200, 500, 1000], lang) == ["200", "500", "1K"]


def _page_fill(example: str, lang: str) -> tuple[float, int]:
    """The share of page 1 the text fills (the lowest block bottom on it over the page height), and pages."""
    from gpuplanner.app.answer import report_data
    from gpuplanner.report import render

    render.ensure_app()
    data = report_data(str(ROOT / "examples" / example), author="x")
    if lang != "en":
        render.install_language(lang)
        render.ensure_cjk_font()
    try:
        doc = render.build_document(data, lang=lang)
        _w, h = render.paginate(doc, render.page_layout("a4"))
    finally:
        if lang != "en":
            render.install_language("en")
    lay = doc.documentLayout()
    bottom, block = 0.0, doc.begin()
    while block.isValid():
        r = lay.blockBoundingRect(block)
        if r.bottom() <= h and block.text().strip():
            bottom = max(bottom, r.bottom())
        block = block.next()
    return bottom / h, doc.pageCount()


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_page_one_of_the_plan_is_not_left_blank(lang):
    """The plan table flows over the page break (its header rows repeated where it has some) rather than leave
    page 1 40 % blank (en: 0.62 filled before; zh was filled: a guard)."""
    fill, _pages = _page_fill("llama3-8b-full.json", lang)
    assert fill > 0.85, f"page 1 is {1 - fill:.0%} blank"


def test_a_small_headed_table_flows_over_the_break_with_its_header_row():
    """A small table with a header row that straddles a page break with a fifth of the page or more above it:
    it starts where it stands and flows on (Qt repeats a table's header rows on each page: QTextTableFormat
    headerRowCount), rather than move whole and leave the room blank (before: moved whole)."""
    from PySide6.QtGui import QTextDocument, QTextTable

    from gpuplanner.report import render

    render.ensure_app()
    rows = "".join(f"<tr><td>row {i}</td><td>{i}</td></tr>" for i in range(12))
    doc = QTextDocument()
    doc.setHtml("<p>intro</p>" * 30 + "<table border=1><thead><tr><th>Name</th><th>Value</th></tr></thead>"
                f"<tbody>{rows}</tbody></table><p>end</p>")
    _w, h = render.paginate(doc, render.page_layout("a4"))
    tables = [f for f in doc.rootFrame().childFrames() if isinstance(f, QTextTable)]
    lay = doc.documentLayout()
    r = lay.frameBoundingRect(tables[0])
    assert r.top() < 0.85 * h < h < r.bottom(), "the table was moved whole to the next page"
    assert tables[0].format().headerRowCount() == 1
    spans = render.table_row_spans(doc, tables[0])
    assert sum(1 for _t, b in spans[1:] if b <= h) >= 2  # two body rows or more above the break


def test_a_table_whose_move_leaves_little_blank_still_moves_whole():
    """A table straddling the break with less than a fifth of the page above it moves whole (pdf17's rule)."""
    from PySide6.QtGui import QTextDocument, QTextTable

    from gpuplanner.report import render

    render.ensure_app()
    rows = "".join(f"<tr><td>row {i}</td><td>{i}</td></tr>" for i in range(12))
    doc = QTextDocument()
    doc.setHtml("<p>intro</p>" * 36 + "<table border=1><thead><tr><th>Name</th><th>Value</th></tr></thead>"
                f"<tbody>{rows}</tbody></table><p>end</p>")
    _w, h = render.paginate(doc, render.page_layout("a4"))
    tables = [f for f in doc.rootFrame().childFrames() if isinstance(f, QTextTable)]
    assert doc.documentLayout().frameBoundingRect(tables[0]).top() >= h - 1
