"""ux11, Chinese spacing on the Hardware page: the spot field read "H800 SXM5 80GB（中国特供版） 的竞价价格：" (a space
after the full-width bracket) and the memory-by-count legend "96 GiB： H20 96GB" (a space after the full-width
colon)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_spot_label_has_no_space_after_the_regional_suffix(make_window, language):
    language.install("zh_CN")
    win = make_window(search_enabled=False)
    win.go_to(4)
    page = win.page("hardware")
    win.model.set("hardware.gpu", "h800-sxm-80gb")
    page.table.clearSelection()
    page.table.selectRow(page.row_ids.index("h800-sxm-80gb"))
    text = page.spot.label.text()
    assert "（中国特供版）" in text and "的竞价价格" in text, text
    assert not re.search(r"） +[\u4e00-\u9fff]", text), text


def test_memory_count_legend_has_no_space_after_a_full_width_colon(language, qtbot):
    from gpuplanner.core.evaluate import memory_by_gpu_count
    from gpuplanner.io.scenario_files import load_scenario
    from gpuplanner.ui.charts.memory_count import MemoryCountChart

    language.install("zh_CN")
    s, models = load_scenario(ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json")
    s = s.model_copy(update={"constraints": s.constraints.model_copy(
        update={"gpu_candidates": ["a100-sxm-80gb", "rtx-4090-24gb", "h20-96gb"], "max_gpus": 16})})
    c = MemoryCountChart()
    qtbot.addWidget(c)
    c.update_from(memory_by_gpu_count(s, models))
    legend = c.legend_label.text().replace("\u2060", "")
    assert "GiB：" in legend, legend
    assert not re.search(r"：(</span>)* ", legend), legend
