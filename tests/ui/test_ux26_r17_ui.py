"""Round 17 (helper ux26): what a new user met in the window in a first hour at 1280×800, English and Chinese
(docs/notes/2026-12-07/issue-35-r17-ux26.md; the non-window side: tests/test_ux26_r17_first_hour.py):

- the step list's tooltip said "Ctrl+1 … Ctrl+7" beside nine steps (Ctrl+9 opens the last);
- a file that cannot be opened said so in English in the Chinese UI ("broken.json: not valid JSON: …"), and its
  translation kept the English colon after the file name ("broken.json: 不是…");
- the plan search's failure on the cost chart and the Plans page was English in the Chinese UI, with the field's
  dotted path ("model.preset: unknown preset 'llama-9b'; did you mean …");
- an unknown preset's source line read "Preset: llama-9b — source: ? (?)";
- "Add a custom GPU" asked for a "Price per card-hour" without its currency (every other price names it);
- File → Revert to Saved was enabled on a plan never saved and did nothing, silently;
- the hard questions' Date column sat behind a horizontal scroll bar, out of sight;
- the vendor comparison wrote its rank "#" / "1" on two lines;
- Owning instead of renting wrote "CNY per server-month" beside "CNY/month" and "CNY/kWh", and its fields ended at
  five different places (each unit label as wide as its text);
- the Plans page's search time split "（572" from "毫秒）" across two lines.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_step_lists_tooltip_names_the_last_steps_shortcut(make_window, language, lang):
    from gpuplanner.ui.main_window import PAGE_KEYS

    language.install(lang)
    w = make_window(search_enabled=False)
    tip = w.sidebar.toolTip()
    assert f"Ctrl+{len(PAGE_KEYS)}" in tip and "Ctrl+7" not in tip, tip
    assert w.sidebar.count() == len(PAGE_KEYS) == 9
    assert w.actions_[f"step{len(PAGE_KEYS) - 1}"].shortcut().toString() == f"Ctrl+{len(PAGE_KEYS)}"


def test_a_file_that_cannot_be_opened_is_said_in_chinese(make_window, language, dialogs, tmp_path):
    language.install("zh_CN")
    w = make_window(search_enabled=False)
    bad = tmp_path / "broken.json"
    bad.write_text('{"model": ', encoding="utf-8")
    assert not w.open_path(bad)
    (kind, text), = [c for c in dialogs.calls if c[0] == "warning"]
    assert text.startswith("broken.json：") and CJK.search(text), text  # the Chinese colon after the file
    assert "not valid JSON" not in text and "\n" not in text, text


def test_the_search_failure_is_said_in_the_ui_language(make_window, language):
    """The search process sends the core's MsgStr; the cost chart's status wrote it as English."""
    from gpuplanner.core.errors import PlannerError
    from gpuplanner.core.messages import error_text

    language.install("zh_CN")
    w = make_window(search_enabled=False)
    from gpuplanner.core.architecture import get_preset

    with pytest.raises(PlannerError) as info:
        get_preset("llama-9b")
    s = w.search
    s.outcome, s.error, s.state = None, error_text(info.value), "failed"
    w.live.refresh_cost()
    status = w.live.cost_chart.empty.text()
    assert CJK.search(status) and "unknown preset" not in status and "did you mean" not in status, status
    w.page("plans")._update_status()
    text = w.page("plans").status.text()
    assert CJK.search(text) and "unknown preset" not in text, text


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_an_unknown_presets_source_line_says_so(make_window, language, lang):
    language.install(lang)
    w = make_window(search_enabled=False)
    w.model.set("model.preset", "llama-9b")
    page = w.page("model")
    page._update_source()
    text = page.source_label.text()
    assert "?" not in text.replace("？", "") and "llama-9b" in text, text


@pytest.mark.parametrize(("lang", "label"), [("en", "Price per card-hour (CNY)"), ("zh_CN", "每卡时价格（CNY）")])
def test_the_custom_gpus_price_names_its_currency(make_window, language, lang, label):
    from gpuplanner.ui.pages.hardware_page import CustomGpuDialog

    language.install(lang)
    w = make_window(search_enabled=False)
    assert w.model.scenario.constraints.currency == "CNY"
    dlg = CustomGpuDialog(w, currency=w.model.scenario.constraints.currency)
    assert dlg.layout().labelForField(dlg.price).text() == label


def test_revert_is_offered_only_with_a_saved_file_and_changes(make_window, tmp_path):
    w = make_window(search_enabled=False)
    revert = w.actions_["revert"]
    assert w.model.path is None and not revert.isEnabled()  # a new plan: nothing saved to go back to
    w.model.set("data.tokens", 3_000_000_000)
    assert not revert.isEnabled()
    assert w.save_to(tmp_path / "a.gpuplan")
    assert not revert.isEnabled()  # saved, no change since
    w.model.set("data.tokens", 4_000_000_000)
    assert revert.isEnabled()


@pytest.fixture
def quotes_window(make_window, language, request):
    from gpuplanner.io.quote_sheets import read_quotes
    from gpuplanner.ui.main_window import PAGE_KEYS

    language.install(request.param)
    w = make_window(search_enabled=False)
    w.resize(1280, 800)
    w.go_to(PAGE_KEYS.index("quotes"))
    qp = w.page("quotes")
    qp.set_quotes([q for f in sorted((ROOT / "examples" / "quotes").glob("*.csv")) for q in read_quotes(f)])
    return w, qp


@pytest.mark.parametrize("quotes_window", ["en", "zh_CN"], indirect=True)
def test_the_hard_questions_date_column_is_in_sight(quotes_window, qtbot):
    w, qp = quotes_window
    qp.tabs.setCurrentIndex(1)
    t = qp.answers
    qtbot.waitUntil(lambda: t.isVisible() and t.viewport().width() > 300)
    right = t.columnViewportPosition(3) + t.columnWidth(3)
    assert right <= t.viewport().width() + 1, (right, t.viewport().width())
    assert t.horizontalScrollBar().maximum() == 0
    assert t.columnWidth(0) >= 200  # the question keeps a readable column
    for r in range(t.rowCount()):  # each question whole, on as many lines as it needs (none elided)
        item = t.item(r, 0)
        need = t.sizeHintForRow(r)
        assert t.rowHeight(r) >= need, (item.text(), t.rowHeight(r), need)


@pytest.mark.parametrize("quotes_window", ["en", "zh_CN"], indirect=True)
def test_the_comparisons_rank_is_one_line(quotes_window, qtbot):
    w, qp = quotes_window
    qp.refresh_comparison()
    qp.tabs.setCurrentIndex(2)
    view = qp.compare_view
    qtbot.waitUntil(lambda: "#1" in view.toPlainText(), timeout=20000)
    doc = view.document()
    doc.setTextWidth(view.viewport().width())
    block = doc.begin()
    while block.isValid() and block.text() != "#1":
        block = block.next()
    assert block.isValid(), "no cell reads #1"
    assert block.layout().lineCount() == 1


@pytest.mark.parametrize(("lang", "staff", "tariff"), [("en", "CNY per month", "CNY per kWh"),
                                                        ("zh_CN", "CNY/月", "CNY/千瓦时")])
def test_owning_writes_its_units_one_way(make_window, language, lang, staff, tariff):
    language.install(lang)
    w = make_window(search_enabled=False)
    page = w.page("hardware")
    page.fill_ownership()
    units = {k: f.box.unit.text() for k, f in page.own_fields.items()}
    assert units["staff_per_month"] == staff and units["tariff_per_kwh"] == tariff, units
    assert not any("/month" in u or "/kWh" in u for u in units.values()), units


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_owning_fields_end_on_one_line(make_window, language, qtbot, lang):
    from gpuplanner.ui.main_window import PAGE_KEYS

    language.install(lang)
    w = make_window(search_enabled=False)
    w.resize(1280, 800)
    w.go_to(PAGE_KEYS.index("hardware"))
    page = w.page("hardware")
    page.fill_ownership()
    qtbot.wait(50)
    rights = {k: f.mapTo(w, f.rect().topRight()).x() for k, f in page.own_fields.items()}
    assert len(set(rights.values())) == 1, rights  # were five right edges, one per unit's width


def test_the_search_time_keeps_its_unit_on_its_line(make_window, language):
    from types import SimpleNamespace

    language.install("zh_CN")
    w = make_window(search_enabled=False)
    page = w.page("plans")
    s = w.search
    s.state, s.outcome = "done", SimpleNamespace(plans=[object()] * 20, fitting=32_422, considered=60_246,
                                                  search_ms=572.0, notes=(), skipped={})
    try:
        page._update_status()
        text = page.status.text()
    finally:
        s.state, s.outcome = "idle", None
    assert "572\u00a0毫秒" in text, text


def test_the_what_if_layout_changes_are_whole_in_chinese(make_window, language, tmp_path, qtbot):
    """The Project page's what-if table at 1280×800 in Chinese: "GPU 数 8→16、节点数 1→2、DP 8→16、梯度累积 4→2" was cut
    to "…梯度累积…" in a row of English height; each row is now as tall as its text, the table as tall as its rows."""
    import shutil

    from gpuplanner.ui.main_window import PAGE_KEYS

    language.install("zh_CN")
    path = tmp_path / "s.json"
    shutil.copy(ROOT / "tests" / "data" / "examples_fixed" / "8b-dpo-full-8xh100-zero3.json", path)
    w = make_window(search_enabled=False)
    w.resize(1280, 800)
    assert w.open_path(path, show_errors=False)
    w.go_to(PAGE_KEYS.index("project"))
    page = w.page("project")
    qtbot.waitUntil(lambda: not page.busy() and page.result is not None and page.whatif.rowCount() > 0,
                    timeout=90000)
    qtbot.wait(100)
    t = page.whatif
    last = t.columnCount() - 1
    for r in range(t.rowCount()):
        assert t.rowHeight(r) >= t.sizeHintForRow(r), (t.item(r, last).text(), t.rowHeight(r), t.sizeHintForRow(r))
    assert t.verticalScrollBar().maximum() == 0
