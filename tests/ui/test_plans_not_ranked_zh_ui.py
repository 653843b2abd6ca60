"""ux9: the Plans details' "Not ranked" list in Chinese: a full-width colon after each reason and "、" between the
cards (it wrote "没有价格——请输入报价: H100 PCIe 80GB, H100 NVL 94GB"), every reason translated, no rule id."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication

ROOT = Path(__file__).resolve().parents[2]


def test_not_ranked_reads_in_chinese(make_window, language, qtbot):
    language.install("zh_CN")
    w = make_window()
    assert w.open_path(ROOT / "examples" / "7b-lora-1x4090.json", show_errors=False)
    qtbot.waitUntil(lambda: w.search.state in ("done", "failed"), timeout=90000)
    page = w.page("plans")
    w.go_to(5)
    qtbot.waitUntil(lambda: page.table_model.rowCount() > 0, timeout=10000)
    page.view.selectRow(0)
    QApplication.processEvents()
    lines = page.details.toPlainText().splitlines()
    at = lines.index("未参与排名")
    rest = [x for x in lines[at + 1:] if x.strip()]
    assert rest, lines[at:]
    for x in rest:
        assert "：" in x and ": " not in x and ", " not in x.split("：", 1)[1], x
        assert "_" not in x and "no layout" not in x, x
