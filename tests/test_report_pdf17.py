"""pdf17 (issue 35 r17): every example's PDF looked at, page by page, in English and Chinese.

Two faults, both in ``render.paginate``'s cuts and moves:
- a paragraph cut just after a line break (``<br/>``: a chart's image, then its legend) kept the break at its end, so
  its first part ended in an empty line on the next page, cut again in the next round, forty times: the Chinese
  GRPO example's page 6 held the scaling chart's legend two thirds of a page down and nothing else;
- the vendor checklist (a box image opens each cell) was never cut between rows: Qt's HTML import leaves an empty
  frame there, and ``_plain_table`` refused any table with a frame inside; the row "IDC/ISP licence" was split by
  the page break and (with the first fault) left two thirds of page 8 of the 70B project blank.
"""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("PySide6")

ROOT = Path(__file__).resolve().parents[1]


def _paginated(example: str, lang: str):
    from gpuplanner.app.answer import report_data
    from gpuplanner.report import render

    render.ensure_app()
    data = report_data(str(ROOT / "examples" / example), author="x")
    if lang != "en":
        render.install_language(lang)
        render.ensure_cjk_font()
    try:
        doc = render.build_document(data, lang=lang)
        empty_before = _empty_blocks(doc)
        _w, h = render.paginate(doc, render.page_layout("a4"))
    finally:
        if lang != "en":
            render.install_language("en")
    return doc, h, empty_before


def _empty_blocks(doc) -> int:
    n, block = 0, doc.begin()
    while block.isValid():
        n += block.text() == ""
        block = block.next()
    return n


CASES = [("7b-grpo-lora-vllm.json", "zh_CN"), ("70b-cpt-64xh100.gpuplan", "en")]


@pytest.mark.parametrize("example,lang", CASES)
def test_pagination_adds_no_empty_paragraphs(example, lang):
    """A cut makes two paragraphs of one, never an empty one (base: 40 empty paragraphs in a row)."""
    doc, _h, before = _paginated(example, lang)
    assert _empty_blocks(doc) - before <= 2


@pytest.mark.parametrize("example,lang", CASES)
def test_a_charts_legend_stays_under_its_chart(example, lang):
    """Each chart's image and its legend on one page, the legend right under the image."""
    from gpuplanner.report import render

    doc, h, _ = _paginated(example, lang)
    rects = render.chart_rects(doc)
    assert len(rects) >= 3
    lay = doc.documentLayout()
    block = doc.begin()
    while block.isValid():
        layout = block.layout()
        if block.text().startswith("\ufffc") and layout.lineCount() and layout.lineAt(0).height() >= 70 \
                and block.text().strip("\ufffc\u2028") == "":  # an image cut away from its legend
            nxt = block.next()
            while nxt.isValid() and nxt.text() == "":
                nxt = nxt.next()
            top = lay.blockBoundingRect(block).top()
            bottom = top + layout.lineAt(0).y() + layout.lineAt(0).height()
            gap = lay.blockBoundingRect(nxt).top() - bottom
            assert gap < 40, f"the legend {nxt.text()[:20]!r} lies {gap:.0f} px under its chart"
        block = block.next()


def test_the_checklist_rows_are_whole_on_a_page():
    """The vendor checklist is cut between rows: no row on two pages (base: "IDC/ISP licence" over pages 7-8)."""
    from PySide6.QtGui import QTextTable

    from gpuplanner.report import render

    doc, h, _ = _paginated("70b-cpt-64xh100.gpuplan", "en")
    seen = 0
    for table in (f for f in render._frames(doc.rootFrame()) if isinstance(f, QTextTable)):  # noqa: SLF001
        first = doc.findBlock(table.cellAt(0, 0).firstPosition()).text()
        if first != "Check":  # the checklist and the tables its rows were cut into
            continue
        seen += 1
        for top, bottom in render.table_row_spans(doc, table):
            assert render._page_of(top, h) == render._page_of(bottom - 1, h), (top / h, bottom / h)  # noqa: SLF001
    assert seen >= 1


def test_a_cut_after_a_line_break_replaces_it():
    """``_cut_block`` at the start of the line after ``<br/>``: the first part ends with the image, not with an
    empty line."""
    from PySide6.QtGui import QTextDocument

    from gpuplanner.report import render

    render.ensure_app()
    doc = QTextDocument()
    doc.setHtml('<p>x</p><p align="center"><img src="a.png" width="30" height="30"/><br/><span>legend</span></p>')
    block = doc.begin().next()
    render._cut_block(doc, block, block.position() + 2)  # noqa: SLF001
    texts = []
    b = doc.begin()
    while b.isValid():
        texts.append(b.text())
        b = b.next()
    assert texts == ["x", "\ufffc", "legend"]
