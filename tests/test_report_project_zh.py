"""The PDF's project section in Chinese: the "by rental mode" line takes the full-width colon ("按租用方式：按核时
¥20、…", it read "按租用方式: …"), and the week-by-week table's counts go through the one formatter."""

from __future__ import annotations

from pathlib import Path

from gpuplanner.io import planfile

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "shenzhen-7b-domain-project.gpuplan"


def _html(lang: str) -> str:
    from gpuplanner.app.answer import answer, document_from_plan
    from gpuplanner.report import render
    from gpuplanner.report.content import build_report_data

    render.ensure_app()
    render.install_language(lang)
    try:
        doc, _ = planfile.load(EXAMPLE)
        return render.build_html(build_report_data(answer(document_from_plan(doc, EXAMPLE.parent))), {})
    finally:
        render.install_language("en")


def test_by_rental_mode_line_follows_the_language():
    zh = _html("zh_CN")
    assert "按租用方式：" in zh and "按租用方式: " not in zh
    en = _html("en")
    assert "By rental mode: " in en
