"""A heading is never left alone at the foot of a PDF page ("keep with next", as word processors do).

Round 15's fix15 found request 08 (parallel.auto) printing "Alternatives considered" at the foot of page 2 and its
table on page 3: render._keep_table_rows_together moved a table whose header row or first body row a page break
parts to the next page, and left the heading above it behind. render._move_heading_above now moves the heading
instead (the table, paragraph or list item follows it). The documents here put a heading at every height near a
page foot (a spacer grown 6 px at a time) and read the PDF's text layer page by page (pdftotext, pages split at
form feeds): the page the heading is on must be the page where what follows it starts.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

pytest.importorskip("PySide6")

from test_report_page_break_lines import _doc, _words  # noqa: E402  (the report's style and font)

FOLLOWERS = {
    # a long table (over 0.45 of a page: not a "small table" moved whole) under header rows, its first body row
    # 4-5 lines tall, so that the heading has its 90 px but the first row does not fit under it
    "table": ("<table><thead><tr><th>NEXTX</th><th>B</th></tr></thead><tr><td>" + _words(5000, 70)
              + "</td><td>d</td></tr>" + "<tr><td>r</td><td>s</td></tr>" * 30 + "</table>"),
    "paragraph": f"<p>NEXTX {_words(5000, 30)}</p>",
    "list": f"<ul><li>NEXTX {_words(5000, 30)}</li><li>b</li><li>c</li></ul>",
}


@pytest.fixture()
def needs_pdftotext():
    if not shutil.which("pdftotext"):
        pytest.skip("poppler-utils (pdftotext) not installed")


def _pages(doc, tmp_path) -> list[str]:
    from gpuplanner.report import render

    pdf = tmp_path / "t.pdf"
    pdf.write_bytes(render.document_pdf(doc, "a4", "T"))
    text = subprocess.run(["pdftotext", "-raw", str(pdf), "-"], capture_output=True, text=True, check=True,
                          timeout=60).stdout
    return text.split("\f")


def _first_page(pages: list[str], word: str) -> int:
    return next(i for i, p in enumerate(pages) if word in p)


@pytest.mark.parametrize("kind", list(FOLLOWERS))
def test_heading_is_on_the_page_of_what_follows_it(kind, tmp_path, needs_pdftotext):
    seen_pages = set()
    for k in range(120, 200, 6):  # the heading from ~170 px above the page foot to past it (987 px pages, A4)
        doc = _doc(f"<p>{_words(0, 560)}</p><p style='margin-top:{k}px'>x</p><h3>HEADX</h3>{FOLLOWERS[kind]}")
        pages = _pages(doc, tmp_path)
        head, nxt = _first_page(pages, "HEADX"), _first_page(pages, "NEXTX")
        assert head == nxt, f"spacer {k}px: heading on page {head + 1}, what follows it on page {nxt + 1}"
        seen_pages.add(head)
    assert seen_pages == {0, 1}  # the sweep crossed the page foot


def test_table_moved_with_its_heading_keeps_the_heading_first(tmp_path, needs_pdftotext):
    """Where the heading moves, it opens the next page and the table's header row follows it there."""
    doc = _doc(f"<p>{_words(0, 560)}</p><p style='margin-top:156px'>x</p><h3>HEADX</h3>{FOLLOWERS['table']}")
    pages = _pages(doc, tmp_path)
    assert _first_page(pages, "HEADX") == 1
    page = pages[1]
    assert page.index("HEADX") < page.index("NEXTX") < page.index("w5000")
