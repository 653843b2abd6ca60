"""ux11: the PDF of a one-GPU plan said "1 GPUs" (vendor requirements: "… including headroom); 1 GPUs.", and the
plan table's "1 GPUs, 1 node × 1"); the count's word now agrees with it (core.messages.english_plurals)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _text(name: str, lang: str = "en") -> str:
    from gpuplanner.app.answer import report_data as load_report_data
    from gpuplanner.report.render import build_document, install_language

    install_language(lang)
    try:
        return build_document(load_report_data(ROOT / "examples" / name)).toPlainText()
    finally:
        install_language("en")


def test_a_one_gpu_plan_says_one_gpu(app):
    text = _text("7b-lora-1x4090.json")
    assert "1 GPUs" not in text
    assert "including headroom); 1 GPU." in text
    assert "1 GPU, 1 node × 1" in text


def test_several_gpus_still_read_plural(app):
    text = _text("llama3-70b-pretrain-64xh800-tp8pp4.json")
    assert "including headroom); 64 GPUs." in text
    assert "64 GPUs, 8 nodes × 8" in text


def test_chinese_unchanged(app):
    text = _text("7b-lora-1x4090.json", "zh_CN")
    assert "共 1 张 GPU。" in text and "1 张 GPU，1 个节点 × 1" in text
