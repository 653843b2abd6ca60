"""ux14: the Chinese PDF's interconnect cell read "节点内：NVLink 4 经 NVSwitch（…，NV18） (900 GB/s)": an ASCII
bracket with a space after a full-width one. The bandwidth now goes in the language's brackets (formatting.paren,
join_clause): "…NV18）（900 GB/s）"; English keeps "… (900 GB/s)".
ux24: a bracket after the link's own bracket read as two asides ("(H800, NV8) (400 GB/s)"); the bandwidth is now a
phrase of its own, joined in the language: "…NV18), 900 GB/s per GPU" / "…NV18），每卡 900 GB/s"."""

from __future__ import annotations

import re

from tests.test_report import ROOT, _run, load_report_data, needs_poppler

EXAMPLE = ROOT / "tests" / "data" / "examples_fixed" / "8b-dpo-full-8xh100-zero3.json"


def _text(pdf) -> str:
    return re.sub(r"\s+", "", _run("pdftotext", "-raw", str(pdf), "-"))


@needs_poppler
def test_the_interconnect_bandwidth_in_the_languages_brackets(app, tmp_path):
    from gpuplanner.report.render import install_language
    from gpuplanner.report_file import export_pdf

    try:
        zh = _text(export_pdf(load_report_data(EXAMPLE), tmp_path / "zh.pdf", lang="zh_CN"))
    finally:
        install_language("en")
    en = _text(export_pdf(load_report_data(EXAMPLE), tmp_path / "en.pdf", lang="en"))
    assert "NV18），每卡900GB/s" in zh and "(900GB/s)" not in zh and "（900GB/s）" not in zh, zh[:3000]
    assert "NV18),900GB/sperGPU" in en and "(900GB/s)" not in en, en[:3000]
