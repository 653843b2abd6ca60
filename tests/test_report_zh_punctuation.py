"""The PDF's own joins read Chinese in the Chinese edition: the GPU line, the step time and MFU, the training setup
with its LoRA rank are joined with "，" (``formatting.format_phrases``), the model's architecture and the
interconnect with "；" (``format_clauses``); the English edition keeps ", " and "; "."""

from __future__ import annotations

import re

from tests.test_report import ROOT, _run, load_report_data, needs_poppler


def _text(pdf) -> str:
    """The PDF's text with whitespace squeezed, its full-width punctuation kept (no NFKC, unlike test_report's)."""
    return re.sub(r"\s+", " ", _run("pdftotext", "-raw", str(pdf), "-"))


@needs_poppler
def test_the_pdfs_joins_follow_the_language(app, tmp_path):
    from gpuplanner.report.render import install_language
    from gpuplanner.report_file import export_pdf

    data = load_report_data(ROOT / "examples" / "7b-lora-1x4090.json")
    try:
        zh = _text(export_pdf(data, tmp_path / "zh.pdf", lang="zh_CN"))
    finally:
        install_language("en")
    en = _text(export_pdf(load_report_data(ROOT / "examples" / "7b-lora-1x4090.json"), tmp_path / "en.pdf", lang="en"))
    assert re.search(r"24GB， ?24\.0 GiB", zh), zh[:2000]
    # the step time (whatever the model gives) is followed by the Chinese comma, never the English one
    assert re.search(r"\d+\.\d\d s，", zh) and not re.search(r"\d+\.\d\d s, ", zh)
    assert "，秩 16" in zh
    assert "24GB, 24.0 GiB" in en and re.search(r"\d+\.\d\d s, ", en) and ", rank 16" in en
