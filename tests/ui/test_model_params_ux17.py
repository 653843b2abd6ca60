"""The Model page and the live panel show an MoE model's parameters with one precision and say which figure is
which (issue 35 round 11, ux17): Mixtral 8x7B read "46.7B" total beside "12.88B" active on the Model page, and
the live panel's "46.7B params" did not say that it is the total (12.9B are active per token)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuplanner.formatting import format_params

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_mixtral_total_and_active(make_window, language, qtbot, lang):
    language.install(lang)
    w = make_window(search_enabled=False)
    assert w.open_path(ROOT / "examples" / "mixtral-8x7b-ep8-16xa800.json", show_errors=False)
    page = w.page("model")
    qtbot.waitUntil(lambda: page.active_value.text() not in ("", "—"), timeout=30000)
    total, active = page.total_value.text(), page.active_value.text()
    assert (total, active) == ("46.7B", "12.9B")  # was "46.7B" / "12.88B"
    live = w.live.model_value.text()
    assert total in live and active in live, live  # the live panel names both figures for an MoE model
    word = "total" if lang == "en" else "总参数"
    assert word in live, live
    word = "active" if lang == "en" else "激活"
    assert word in live, live


def test_dense_model_keeps_one_figure(make_window, qtbot):
    w = make_window(search_enabled=False)
    assert w.open_path(ROOT / "examples" / "8b-full-8xh100.gpuplan", show_errors=False)
    page = w.page("model")
    qtbot.waitUntil(lambda: page.total_value.text() not in ("", "—"), timeout=30000)
    live = w.live.model_value.text()
    assert page.total_value.text() == page.active_value.text() == format_params(8_030_261_248)
    assert "active" not in live and f"{page.total_value.text()} params" in live, live
