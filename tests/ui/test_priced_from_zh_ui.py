"""The Plans details' "Priced from" line in Chinese: when the price has a card-hour and a monthly figure, the two
are joined with the Chinese semicolon ("；", ``formatting.format_clauses``), never an ASCII "; "."""

from __future__ import annotations

import json

import pytest
from PySide6.QtWidgets import QApplication

from tests.test_networked_price import SCN


def _priced_from(w, qtbot, prefix: str) -> str:
    qtbot.waitUntil(lambda: w.search.state in ("done", "failed"), timeout=60000)
    page = w.page("plans")
    w.go_to(5)
    qtbot.waitUntil(lambda: page.table_model.rowCount() > 0, timeout=10000)
    page.view.selectRow(0)
    QApplication.processEvents()
    return next(x for x in page.details.toPlainText().splitlines() if x.startswith(prefix))


@pytest.mark.parametrize("lang, prefix, sep, other", [("zh_CN", "价格来源：", "；", "; "), ("en", "Priced from: ", "; ", "；")])
def test_two_price_figures_are_joined_the_languages_way(make_window, language, qtbot, tmp_path, lang, prefix, sep,
                                                         other):
    scn = json.loads(json.dumps(SCN))
    scn["constraints"].update({"gpu_candidates": ["h800-sxm-80gb"], "max_gpus": 8, "objective": "cheapest"})
    f = tmp_path / "h800.json"
    f.write_text(json.dumps(scn), encoding="utf-8")
    language.install(lang)
    w = make_window()
    assert w.open_path(f, show_errors=False)
    line = _priced_from(w, qtbot, prefix)
    assert line.count(sep) >= 1 and other not in line, line
