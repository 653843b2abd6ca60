"""The printed plan never splits a table row across a page break: the zh_CN report of the Shenzhen and MoE examples
printed "NVIDIA GB200 (per Blackwell" at the foot of one page and "GPU) 186GB" at the top of the next, in the
"cards not ranked" table. A row that does not fit moves whole to the next page, under the table's repeated header.
A list's last item never opens a page alone."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from gpuplanner.io import planfile

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _paginated(name: str, lang: str):
    from gpuplanner.app.answer import answer, document_from_plan
    from gpuplanner.report import render
    from gpuplanner.report.content import build_report_data

    render.ensure_app()
    render.install_language(lang)
    try:
        doc, _ = planfile.load(EXAMPLES / name)
        qdoc = render.build_document(build_report_data(answer(document_from_plan(doc, EXAMPLES))), lang=lang)
        _, h = render.paginate(qdoc, render.page_layout("a4"))
        return qdoc, h
    finally:
        render.install_language("en")


def _tables(frame):
    from PySide6.QtGui import QTextTable

    for child in frame.childFrames():
        if isinstance(child, QTextTable):
            yield child
        yield from _tables(child)


def _row_lines(doc, table, r: int) -> list[float]:
    """The tops and bottoms of every line of text in row ``r``'s cells, in document pixels (read from each
    block's own lines, independently of the report's code)."""
    lay = doc.documentLayout()
    ys = []
    for c in range(table.columns()):
        cell = table.cellAt(r, c)
        if cell.row() != r or cell.column() != c:
            continue
        block = doc.findBlock(cell.firstPosition())
        while block.isValid() and block.position() <= cell.lastPosition():
            origin = lay.blockBoundingRect(block).topLeft() - block.layout().position()
            for i in range(block.layout().lineCount()):
                line = block.layout().lineAt(i)
                ys += [origin.y() + line.y(), origin.y() + line.y() + line.height()]
            block = block.next()
    return ys


@pytest.mark.parametrize("name", ["shenzhen-7b-domain-project.gpuplan", "qwen3-moe-full-16xh100.gpuplan"])
@pytest.mark.parametrize("lang", ["zh_CN", "en"])
def test_no_table_row_straddles_a_page_break(name, lang):
    doc, h = _paginated(name, lang)
    for table in _tables(doc.rootFrame()):
        for r in range(table.rows()):
            ys = _row_lines(doc, table, r)
            if ys:
                pages = {math.floor(y / h) for y in ys[0::2]} | {math.floor((y - 0.5) / h) for y in ys[1::2]}
                first = doc.findBlock(table.cellAt(r, 0).firstPosition()).text()
                assert len(pages) == 1, f"{name} {lang}: row {r} ({first!r}) on pages {sorted(pages)}"


def _first_line_page(doc, block, h: float) -> int:
    lay = doc.documentLayout()
    return math.floor((lay.blockBoundingRect(block).top() + block.layout().lineAt(0).y() + 1) / h)


@pytest.mark.parametrize("name", ["shenzhen-7b-domain-project.gpuplan", "qwen3-moe-full-16xh100.gpuplan"])
@pytest.mark.parametrize("lang", ["zh_CN", "en"])
def test_a_lists_last_item_never_opens_a_page_alone(name, lang):
    """The MoE example's vendor requirements ended with "Model weights in 16 bit: …" alone at the top of the
    checklist's page (en): the item before it now moves with it."""
    doc, h = _paginated(name, lang)
    seen = set()
    block = doc.begin()
    while block.isValid():
        lst = block.textList()
        if lst is not None and id(lst) not in seen and lst.count() > 2:
            seen.add(id(lst))
            last, before = lst.item(lst.count() - 1), lst.item(lst.count() - 2)
            assert _first_line_page(doc, last, h) == _first_line_page(doc, before, h), (name, lang, last.text())
        block = block.next()
