"""Issue 35 round 12, expert12: a layout whose step is nearly all host overhead (the serving project's LoRA phase of
Qwen3-30B-A3B on DeepSpeed ZeRO-3: its hooks on every expert) read "MFU 0%" in the live summary while
``gpuplanner estimate`` said 0.4%; a first-time user reads "0%" as a bug. Small utilisations now print one decimal
(formatting.format_mfu) in the summary, the Plans table and details, and ``plan``'s table."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "tests" / "data" / "expert_review_r12" / "serve-qwen3-moe-first-token.gpuplan"


def test_summary_mfu_not_zero(make_window, qtbot):
    from gpuplanner.formatting import format_mfu

    w = make_window(search_enabled=False)
    assert w.open_path(DOC, show_errors=False)
    label = w.live.plan_value
    qtbot.waitUntil(lambda: "MFU" in label.text(), timeout=60000)
    ev = w.estimator.result.evaluation
    assert ev is not None and 0 < ev.mfu < 0.01
    text = label.text()
    assert "MFU 0%" not in text and f"MFU {format_mfu(ev.mfu)}" in text, text
    w.model.set_dirty(False)


def test_format_mfu():
    from gpuplanner.formatting import format_mfu

    assert format_mfu(0.43) == "43%" and format_mfu(0.004) == "0.4%" and format_mfu(0.0004) == "<0.1%"
    assert format_mfu(0.0) == "0%" and format_mfu(0.012) == "1%"
