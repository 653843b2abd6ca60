"""Two older fields that only a plan file could set: ``hardware.custom_gpus[].fp8_tflops`` (the custom GPU
dialog's "Dense FP8 TFLOPS" row) and ``constraints.prices[].spot_card_hour`` (the spot price field beside the GPU table's buttons).
Each control writes its field and the estimate reads it."""

from __future__ import annotations

import pytest

from gpuplanner.core.errors import PlannerError
from gpuplanner.core.evaluate import evaluate


def test_custom_gpu_fp8_peak_is_stored_and_times_fp8_training(make_window):
    from gpuplanner.ui.pages.hardware_page import CustomGpuDialog

    win = make_window(search_enabled=False)
    win.go_to(4)
    page = win.page("hardware")
    dlg = CustomGpuDialog(page)
    for w, text in ((dlg.name, "FP8 Card"), (dlg.memory, "96"), (dlg.tflops, "400"), (dlg.fp8, "800"),
                    (dlg.membw, "3")):
        w.setText(text)
    dlg._accept()
    assert dlg.result_gpu["fp8_tflops"] == 800.0 and dlg.result_gpu["bf16_tflops"] == 400.0
    page.add_custom_gpu(dlg.result_gpu)
    plain = CustomGpuDialog(page)  # the same card without an FP8 figure
    for w, text in ((plain.name, "No FP8"), (plain.memory, "96"), (plain.tflops, "400"), (plain.membw, "3")):
        w.setText(text)
    plain._accept()
    assert plain.result_gpu["fp8_tflops"] is None
    page.add_custom_gpu(plain.result_gpu)
    gpus = {c.id: c for c in win.model.scenario.hardware.custom_gpus}
    assert gpus["custom-fp8-card"].fp8_tflops == 800.0 and gpus["custom-no-fp8"].fp8_tflops is None
    win.model.set_many({"model.preset": "llama-3.1-8b", "parallel.auto": False, "training.framework": "megatron",
                        "training.method": "full", "training.precision": "fp8", "hardware.num_gpus": 8,
                        "parallel.tp": 1, "parallel.pp": 1, "parallel.zero": 1, "hardware.gpu": "custom-fp8-card"})
    s = win.model.user_scenario()
    assert s.hardware.gpu == "custom-fp8-card"
    assert evaluate(s).time.step_time_s > 0
    # without the figure FP8 training on that card has no peak: refused
    assert win.model.set("hardware.gpu", "custom-no-fp8") is None
    with pytest.raises(PlannerError, match="no dense fp8 TFLOPS"):
        evaluate(win.model.user_scenario())
    # a bad figure is refused at the dialog, not stored
    bad = CustomGpuDialog(page)
    for w, text in ((bad.name, "Bad"), (bad.memory, "96"), (bad.fp8, "-5")):
        w.setText(text)
    bad._accept()
    assert bad.result_gpu is None and bad.error.text()


def _type(edit, text: str) -> None:
    edit.setText(text)
    edit.editingFinished.emit()


def priced_hardware_page(make_window, gid: str):
    """The Hardware page with ``gid`` the plan's GPU, quoted 3.0 per card-hour, and no table row selected."""
    win = make_window(search_enabled=False)
    win.go_to(4)
    page = win.page("hardware")
    win.model.set_many({"hardware.gpu": gid, "constraints.prices": {gid: {"card_hour": 3.0}}})
    page.table.clearSelection()
    return win, page


def test_spot_price_field_writes_the_quote_and_prices_spot(make_window):
    from gpuplanner.core.cost import PriceTable
    from gpuplanner.formatting import format_number

    gid = "h100-sxm-80gb"
    win, page = priced_hardware_page(make_window, gid)
    assert page.spot.gpu_id() == gid and page.spot.edit.isVisible()  # no row selected: the live estimate's GPU
    s = win.model.scenario
    assert s.constraints.prices[gid].spot_card_hour is None
    assert "spot" not in evaluate(win.model.user_scenario()).mode_costs
    _type(page.spot.edit, "1.5")
    q = win.model.scenario.constraints.prices[gid]
    assert q.spot_card_hour == 1.5 and q.card_hour == 3.0  # per card, the on-demand quote kept
    assert PriceTable.from_constraints(win.model.scenario.constraints).get(gid).spot_card_hour == 1.5
    assert page.spot.edit.text() == format_number(1.5, 2)
    assert "spot" in evaluate(win.model.user_scenario()).mode_costs
    _type(page.spot.edit, "-2")  # refused at the table's message line, not stored
    assert page.table_error.isVisible() and win.model.scenario.constraints.prices[gid].spot_card_hour == 1.5
    # another row selected: the field prices that GPU
    other = "a100-sxm-80gb"
    page.table.selectRow(page.row_ids.index(other))
    assert page.spot.gpu_id() == other and "A100" in page.spot.label.text()
    _type(page.spot.edit, "0.9")
    assert win.model.scenario.constraints.prices[other].spot_card_hour == 0.9
    page.table.selectRow(page.row_ids.index(gid))
    assert page.spot.edit.text() == format_number(1.5, 2)
    _type(page.spot.edit, "")  # cleared: no spot offer of yours
    assert win.model.scenario.constraints.prices[gid].spot_card_hour is None


def test_spot_price_field_shows_what_was_typed(make_window, qtbot):
    """A price with more than two decimals is shown as typed, so Enter again (the text read back) keeps it."""
    from PySide6.QtCore import Qt

    win = make_window(search_enabled=False)
    win.go_to(4)
    page = win.page("hardware")
    gid = "h100-sxm-80gb"
    win.model.set_many({"hardware.gpu": gid, "constraints.prices": {gid: {"card_hour": 3.0}}})
    page.table.clearSelection()
    edit = page.spot.edit
    edit.setFocus()
    edit.clear()
    qtbot.keyClicks(edit, "1.234")
    for _ in range(2):
        qtbot.keyClick(edit, Qt.Key.Key_Return)
        assert win.model.scenario.constraints.prices[gid].spot_card_hour == 1.234
