"""ux11: the PDF's "What if the work grows" table left out what the Project page and `gpuplanner project` say
under each change: that the phase overruns its slot on the same servers, and what keeps the deadline (the search's
plan for the grown job). The PDF now puts both sentences in the row's note, in the report's language."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "shenzhen-7b-domain-project.gpuplan"


def _text(lang: str) -> str:
    from gpuplanner.app.answer import report_data as load_report_data
    from gpuplanner.report.render import build_document, install_language

    install_language(lang)
    try:
        return " ".join(build_document(load_report_data(EXAMPLE)).toPlainText().split())
    finally:
        install_language("en")


def test_the_pdf_says_what_keeps_the_deadline(app):
    text = _text("en")
    assert "overruns its slot of 21.0 days" in text, text[-3000:]
    assert "To keep the deadline of 21.0 days" in text  # 21 days: never in weeks (format_elapsed; ux15, ux22)


def test_the_pdf_says_it_in_chinese(app):
    text = _text("zh_CN")
    assert "要保住 21.0 天的截止时间" in text and "之后的每个阶段都要顺延" in text
