"""The Plans details of the 32-node A100 plan in Chinese: full-width colons after the labels, the networked
offer that billed it, and its likely range with one cost (the monthly cluster lease costs the same at both ends)."""

from __future__ import annotations

import json

from PySide6.QtWidgets import QApplication

from tests.test_networked_price import SCN


def test_the_details_read_in_chinese(make_window, language, qtbot, tmp_path):
    scn = json.loads(json.dumps(SCN))
    scn["constraints"].update({"gpu_candidates": ["a100-sxm-80gb"], "max_gpus": 256, "objective": "fastest"})
    f = tmp_path / "a100.json"
    f.write_text(json.dumps(scn), encoding="utf-8")
    language.install("zh_CN")
    w = make_window()
    assert w.open_path(f, show_errors=False)
    qtbot.waitUntil(lambda: w.search.state in ("done", "failed"), timeout=60000)
    page = w.page("plans")
    w.go_to(5)
    qtbot.waitUntil(lambda: page.table_model.rowCount() > 0, timeout=10000)
    page.view.selectRow(0)
    QApplication.processEvents()
    text = page.details.toPlainText()
    rng = next(x for x in text.splitlines() if x.startswith("可能范围："))
    assert rng.count("1,112,000") == 1 and ("个日历天" in rng or "小时" in rng)  # hours below a day (ux21)  # one cost (32 × 34,750), not "1,112,000–1,112,000"
    line = next(x for x in text.splitlines() if x.startswith("价格来源："))
    assert "整机月租：" in line and "SMM market report" in line and ": " not in line
