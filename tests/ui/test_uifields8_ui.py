"""Round 7's scenario fields in the app (issue 35 r7, uifields8): the Training page's control for
``training.optimizer_implementation`` (torch.optim.AdamW fused / foreach; None: the tool's default) and the Plans
table's rental-mode column, read from each plan's Evaluation and marked "(as set)" when
``constraints.rental_mode`` pins it, as the CLI's plan table (commands/plan._mode_cell)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QCoreApplication, Qt

from gpuplanner.core.evaluate import evaluate


def _torchtitan(win):
    for path, value in (("model.preset", "llama-3.1-8b"), ("parallel.auto", False), ("training.method", "full"),
                        ("training.framework", "fsdp"), ("hardware.gpu", "h100-sxm-80gb"),
                        ("hardware.num_gpus", 8), ("parallel.zero", 3), ("training.seq_len", 8192),
                        ("training.micro_batch_size", 1), ("training.optimizer", "adamw")):
        assert win.model.set(path, value) is None, path


def test_adamw_implementation_combo_writes_the_field_and_slows_foreach(make_window):
    win = make_window(search_enabled=False)
    win.go_to(1)
    adv = win.page("training").advanced
    combo = adv.fields["optimizer_implementation"]
    _torchtitan(win)
    rows = adv.box.layout()
    assert rows.isRowVisible(combo.box)
    assert combo.currentData() is None and combo.currentText() == "tool default (fused; verl: unfused)"
    fused = evaluate(win.model.user_scenario()).time_modelled.step_time_s
    combo.activated.emit(combo.findData("foreach"))
    s = win.model.user_scenario()
    assert s.training.optimizer_implementation == "foreach"
    # foreach AdamW: 80 bytes per shard parameter against fused's 30 (tests/test_mechanics_fsdp2_edges.py by hand)
    assert evaluate(s).time_modelled.step_time_s > fused
    combo.activated.emit(combo.findData(None))
    assert win.model.user_scenario().training.optimizer_implementation is None
    # not AdamW, or a Megatron-Core tool (its own fused Adam): hidden
    win.model.set("training.optimizer", "sgd")
    assert not rows.isRowVisible(combo.box)
    win.model.set("training.optimizer", "adamw")
    win.model.set("training.framework", "megatron")
    assert not rows.isRowVisible(combo.box)
    # a value set elsewhere (a plan file) stays in sight, so it can be put back to the default
    win.model.set("training.optimizer_implementation", "foreach")
    assert rows.isRowVisible(combo.box) and combo.currentData() == "foreach"
    assert adv.labels["optimizer_implementation"].text() == "AdamW implementation"


def _plans(win, qtbot):
    win.resize(1280, 800)
    win.go_to(5)
    page = win.page("plans")
    qtbot.waitUntil(lambda: win.search.state == "done" and bool(page.table_model.plans), timeout=30000)
    return page


def _mode_column(page):
    from gpuplanner.ui.pages.plans_page import COLUMNS

    c = COLUMNS.index("rental_mode")
    tm = page.table_model
    cells = [tm.data(tm.index(r, c)) for r in range(tm.rowCount())]
    tips = [tm.data(tm.index(r, c), Qt.ItemDataRole.ToolTipRole) for r in range(tm.rowCount())]
    return c, cells, tips


def test_plans_table_shows_the_billed_rental_mode(win, qtbot):
    from gpuplanner.ui.pages.plans_page import COLUMNS, MODE_SHORT

    page = _plans(win, qtbot)
    c, cells, tips = _mode_column(page)
    assert page.table_model.headerData(c, Qt.Orientation.Horizontal) == "Rental"
    modes = [p.plan.evaluation.rental_mode for p in page.table_model.plans]
    assert all(m is not None for m in modes)
    assert cells == [MODE_SHORT[m] for m in modes]  # the Evaluation's own mode, nothing recomputed
    assert page.table_model.headerData(c, Qt.Orientation.Horizontal) == "Rental"
    ev = page.table_model.plans[0].plan.evaluation
    assert QCoreApplication.translate("Cost", ev.rental_mode_label) in tips[0]
    # every plan on demand, nothing pinned: the column stays out of the full table (1280 px), the cost's tooltip
    # names the mode
    cost_tip = page.table_model.data(page.table_model.index(0, COLUMNS.index("cost")), Qt.ItemDataRole.ToolTipRole)
    assert page.view.isColumnHidden(c) == (set(modes) == {"card_hour"}) and tips[0] in cost_tip
    # pinned on the Time and budget page: every plan billed that way, marked as the CLI marks it
    win.model.set("constraints.rental_mode", "card_hour")
    qtbot.waitUntil(lambda: win.search.state == "done" and bool(page.table_model.plans) and all(
        p.plan.evaluation.scenario.constraints.rental_mode == "card_hour" for p in page.table_model.plans),
        timeout=30000)
    _c, cells, tips = _mode_column(page)
    assert set(cells) == {"hourly"}
    assert page.table_model.headerData(c, Qt.Orientation.Horizontal) == "Rental\n(as set)"
    assert "as set on the Time and budget page" in tips[0]
    assert not page.view.isColumnHidden(c)


@pytest.mark.parametrize("lang", ["zh_CN"])
def test_rental_mode_column_in_chinese(win, qtbot, lang):
    from PySide6.QtWidgets import QApplication

    from gpuplanner.i18n import LanguageManager, ensure_cjk_font

    ensure_cjk_font()
    lm = LanguageManager(QApplication.instance())
    lm.install(lang)
    try:
        page = _plans(win, qtbot)
        win.model.set("constraints.rental_mode", "card_hour")
        qtbot.waitUntil(lambda: win.search.state == "done" and bool(page.table_model.plans) and all(
            p.plan.evaluation.scenario.constraints.rental_mode == "card_hour" for p in page.table_model.plans),
            timeout=30000)
        c, cells, _tips = _mode_column(page)
        assert page.table_model.headerData(c, Qt.Orientation.Horizontal) == "计费\n（按设定）"
        assert set(cells) == {"按需"}
        assert not page.view.isColumnHidden(c)
    finally:
        lm.install("en")
