"""Every table header of the English report starts as a heading (the step-time table's second column read "share"
beside "Step time" and "Memory per GPU | GiB")."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _tables(frame):
    from PySide6.QtGui import QTextTable

    for f in frame.childFrames():
        if isinstance(f, QTextTable):
            yield f
        yield from _tables(f)


def test_english_table_headers_are_capitalised(app):
    from gpuplanner.report.render import build_document
    from gpuplanner.app.answer import report_data as load_report_data

    data = load_report_data(ROOT / "examples" / "qwen3-moe-full-16xh100.gpuplan")
    assert data.plan.time_breakdown  # the step-time table is there
    doc = build_document(data)
    heads = []
    for t in _tables(doc.rootFrame()):
        for r in range(t.format().headerRowCount()):
            for c in range(t.columns()):
                cell = t.cellAt(r, c)
                cur = cell.firstCursorPosition()
                cur.setPosition(cell.lastCursorPosition().position(), cur.MoveMode.KeepAnchor)
                text = cur.selectedText().strip()
                if text:
                    heads.append(text)
    assert "Step time" in heads, heads
    lower = [h for h in heads if h[0].isalpha() and h[0].islower()]
    assert not lower, lower


def test_plan_layout_line_names_the_plans_recompute(app):
    """The PDF's "Parallel layout" row named TP, PP, EP, DP, ZeRO and the micro-batch but not the plan's recompute
    policy, which the Plans page's layout line and the CLI's table both show."""
    from gpuplanner.app.answer import report_data as load_report_data
    from gpuplanner.core.recompute import RECOMPUTE_LABELS
    from gpuplanner.report.render import build_document

    data = load_report_data(ROOT / "examples" / "qwen3-moe-full-16xh100.gpuplan")
    lay = data.plan.layout
    text = build_document(data).toPlainText()
    assert f"ZeRO-{lay.zero}, recompute {RECOMPUTE_LABELS[lay.recompute]}, micro-batch" in text


def test_a_plan_without_recompute_reads_no_recompute_once(app, tmp_path):
    """ux9: the layout row and the task's batch row read "no recompute", not "recompute no recompute"."""
    from gpuplanner.app.answer import report_data as load_report_data
    from gpuplanner.report.render import build_document
    from tests.savers_off import savers_off_file

    # (savers written off: with the optimizer in CPU memory, searched since round 15, #1 runs full recompute)
    data = load_report_data(savers_off_file(ROOT / "examples" / "mixtral-8x7b-ep8-16xa800.json", tmp_path))
    text = build_document(data).toPlainText()
    assert "no recompute" in text and "recompute no recompute" not in text


def test_chinese_price_line_has_no_space_after_the_regional_suffix(app):
    """ux9: "NVIDIA H800 SXM5 80GB（中国特供版） 使用的价格：…" — no space between the full-width bracket and the Chinese."""
    import re

    from gpuplanner.app.answer import report_data as load_report_data
    from gpuplanner.report.render import build_document, install_language

    install_language("zh_CN")
    try:
        data = load_report_data(ROOT / "examples" / "llama3-70b-pretrain-64xh800-tp8pp4.json")
        text = build_document(data).toPlainText()
    finally:
        install_language("en")
    line = next(x for x in text.splitlines() if "使用的价格" in x)
    assert not re.search(r"） +[\u4e00-\u9fff]", line), line
