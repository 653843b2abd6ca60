"""The live panel's time tooltip in Chinese runs its two sentences on without a space after "。" ("$334–$374。 该框架…"
read with an English space); in English they keep one space."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_time_tip_sentences(make_window, language, qtbot, lang):
    language.install(lang)
    w = make_window(search_enabled=False)
    assert w.open_path(ROOT / "examples" / "qwen3-moe-full-16xh100.gpuplan", show_errors=False)
    label = w.live.time_value if hasattr(w, "live") else None
    if label is None:
        from gpuplanner.ui.live_panel import LivePanel

        label = w.findChild(LivePanel).time_value
    qtbot.waitUntil(lambda: "\n\n" in label.toolTip(), timeout=30000)
    tip = label.toolTip()
    if lang == "zh_CN":
        assert "。 " not in tip and tip.count("。") >= 3, tip
    else:
        second = tip.split("\n\n", 1)[1]
        assert second.count(". ") >= 1 and ".." not in second, tip
    w.model.set_dirty(False)


def test_format_sentences():
    from gpuplanner.formatting import format_sentences

    assert format_sentences(["A.", "B."], "en") == "A. B."
    assert format_sentences(["甲。", "乙。"], "zh_CN") == "甲。乙。"
    assert format_sentences(["A.", "", "B."], "en") == "A. B."
