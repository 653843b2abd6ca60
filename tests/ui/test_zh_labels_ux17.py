"""English left in the Chinese UI, found on ux17's 1280×800 screenshots (issue 35 round 11): the Training page's
row "Flash attention" (its translation was the English words), and the Hygon catalog entry's "(Z100/K100/BW series)"
in the Hardware table and the plan lists."""

from __future__ import annotations

import re


def test_flash_attention_row_reads_chinese(make_window, language, qtbot):
    language.install("zh_CN")
    w = make_window(search_enabled=False)
    w.go_to(1)
    qtbot.wait(100)
    text = w.page("training").labels["flash"].text()
    assert not re.search(r"[A-Za-z]{3,}", text), text  # was "Flash attention"
    assert "注意力" in text


def test_hygon_series_in_chinese(make_window, language, qtbot):
    from gpuplanner.formatting import gpu_display_name

    assert gpu_display_name("Hygon DCU (Z100/K100/BW series)", lang="zh_CN") == "Hygon DCU（Z100/K100/BW 系列）"
    assert gpu_display_name("Hygon DCU (Z100/K100/BW series)", lang="en") == "Hygon DCU (Z100/K100/BW series)"
    language.install("zh_CN")
    w = make_window(search_enabled=False)
    w.go_to(4)
    qtbot.wait(100)
    page = w.page("hardware")
    name = page.table.item(page.row_ids.index("hygon-dcu"), 1).text()
    assert "series" not in name and "系列" in name, name
