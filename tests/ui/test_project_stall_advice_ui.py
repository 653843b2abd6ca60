"""Issue 35, round 17 (servadv17): the Project page shows the stall advice the CLI prints (one Answer:
``core.serving_facts.serving_lines``), in English and Chinese; the PDF's project section carries the same line
(``report.content.project_info``)."""

from __future__ import annotations

import json
from pathlib import Path

from gpuplanner.core.serving_facts import stall_line

SRC = Path(__file__).resolve().parents[2] / "examples" / "shenzhen-7b-domain-project.gpuplan"


def _page_text(make_window, qtbot):
    w = make_window(search_enabled=False)
    assert w.open_path(SRC, show_errors=False)
    w.go_to(7)
    page = w.pages[7]
    qtbot.waitUntil(lambda: not page.busy() and page.result is not None and bool(page.total.text()), timeout=60000)
    return page, " ".join(page.advice.text().split())


def test_page_and_pdf_show_the_stall_advice(make_window, language, qtbot):
    from gpuplanner.report.content import project_info

    language.install("en")
    page, text = _page_text(make_window, qtbot)
    assert "--max-num-batched-tokens 512 bounds the stall: 95% within 49 ms" in text, text[-2000:]
    (s,) = [ph.serving for ph in page.result.phases if ph.serving is not None]
    rows = [r for r in project_info(page.result).phases if getattr(r, "detail", {}).get("what") == "serving"]
    assert rows and stall_line(s) in rows[0].detail["lines"]


def test_page_shows_the_stall_advice_in_chinese(make_window, language, qtbot):
    assert language.install("zh_CN")
    _, text = _page_text(make_window, qtbot)
    assert "vLLM --max-num-batched-tokens 512 可限制这一停顿" in text, text[-2000:]
