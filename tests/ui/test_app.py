"""Drive the app as a user: pick presets, type values, import a config, read the charts and plans."""

from __future__ import annotations

from gpuplanner.formatting import format_flops

import json
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

from gpuplanner.formatting import format_compact, format_params

from ui_helpers import TINY_PARAMS, write_safetensors

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _src(name: str) -> Path:
    """An example by name: examples/, or tests/data/examples_fixed/ for the fixed-layout files that left
    examples/ in issue 35 round 16 (examples16: those examples now let the search choose)."""
    here = Path(__file__).resolve().parents[2] / "examples" / name
    return here if here.exists() else Path(__file__).resolve().parents[2] / "tests" / "data" / "examples_fixed" / name


def type_into(qtbot, edit, text: str) -> None:
    """Select all and type, key by key, as a user does."""
    edit.setFocus()
    edit.selectAll()
    qtbot.keyClick(edit, Qt.Key.Key_Backspace)
    qtbot.keyClicks(edit, text)


def choose(combo, value) -> None:
    idx = combo.findData(value)
    assert idx >= 0, value
    combo.setCurrentIndex(idx)
    combo.activated.emit(idx)


def set_manual(w):
    page = w.page("training")
    choose(page.auto, False)
    return page


# --------------------------------------------------------------------------------------------- window

def test_window_has_clickable_steps_and_live_panel(win, qtbot):
    assert win.sidebar.count() == 9   # the six planning steps, "Verify server", "Project" and "Vendor quotes"
    for i in (4, 2, 5, 0):
        rect = win.sidebar.visualItemRect(win.sidebar.item(i))
        qtbot.mouseClick(win.sidebar.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        assert win.current_index() == i
    assert win.live.isVisible()
    assert win.live.memory_chart.data["total"].size >= 1


def test_keyboard_shortcuts_and_next_back(win, qtbot):
    win.activateWindow()
    win.actions_["step2"].trigger()
    assert win.current_index() == 2
    qtbot.mouseClick(win.next_btn, Qt.MouseButton.LeftButton)
    assert win.current_index() == 3
    win.actions_["back"].trigger()
    assert win.current_index() == 2
    assert win.actions_["step2"].shortcut().toString() == "Ctrl+3"
    assert win.actions_["next"].shortcut().toString() == "Alt+Right"


# ---------------------------------------------------------------------------------------------- model

def test_pick_preset_updates_parameter_count(win, qtbot):
    from gpuplanner.core.architecture import load_presets

    page = win.page("model")
    type_into(qtbot, page.filter, "qwen2.5 7b")
    visible = [page.presets.item(i) for i in range(page.presets.count()) if not page.presets.item(i).isHidden()]
    assert [it.data(Qt.ItemDataRole.UserRole) for it in visible] == ["qwen2.5-7b"]
    rect = page.presets.visualItemRect(visible[0])
    qtbot.mouseClick(page.presets.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert win.model.scenario.model.preset == "qwen2.5-7b"
    published = load_presets()["qwen2.5-7b"].published_total  # 7.61B, the model card's figure
    qtbot.waitUntil(lambda: page.total_value.text() != "—" and page.total_value.text() != "8.03B")
    shown = float(page.total_value.text().rstrip("B"))
    assert abs(shown * 1e9 - published) / published < 0.005
    assert page.tier_badge.text() == "10B"
    assert "one node" in page.tier_text.text()


def test_import_config_json_shows_exact_count(win, qtbot, tiny_config, monkeypatch):
    page = win.page("model")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(tiny_config), "json"))
    qtbot.mouseClick(page.import_config_btn, Qt.MouseButton.LeftButton)
    assert win.model.scenario.model.hf_config == str(tiny_config.resolve())
    assert win.model.scenario.model.preset is None
    qtbot.waitUntil(lambda: f"{TINY_PARAMS:,}" in page.exact_label.text())
    assert page.total_value.text() == format_params(TINY_PARAMS)  # "259K" (ux17: one rule for parameter counts)
    assert page.manual["hidden_size"].placeholderText() == "64"
    from gpuplanner.ui import settings
    assert settings.last_dir() == str(tiny_config.parent)   # the last directory is remembered


def test_import_model_folder_reads_safetensors_headers(win, qtbot, tiny_config, monkeypatch):
    folder = tiny_config.parent
    n = write_safetensors(folder / "model.safetensors", {"a": [1000, 64], "b": [64, 64], "c": [3]})
    assert n == 64000 + 4096 + 3
    page = win.page("model")
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(folder))
    qtbot.mouseClick(page.import_folder_btn, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: f"{n:,} stored" in page.exact_label.text())


def test_import_bad_config_shows_message_and_keeps_model(win, qtbot, tmp_path, monkeypatch):
    bad = tmp_path / "config.json"
    bad.write_text("{not json", encoding="utf-8")
    page = win.page("model")
    before = win.model.scenario.model
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(bad), "json"))
    qtbot.mouseClick(page.import_config_btn, Qt.MouseButton.LeftButton)
    assert page.import_error.isVisibleTo(page)
    assert "not valid JSON" in page.import_error.text()
    assert win.model.scenario.model == before


def test_manual_override_field_and_invalid_value(win, qtbot):
    page = win.page("model")
    f = page.manual["num_hidden_layers"]
    type_into(qtbot, f, "16")
    assert win.model.scenario.model.num_hidden_layers == 16
    qtbot.keyClicks(f, "x")          # a slip of the finger: "16x"
    assert f.box.error and "not a whole number" in f.box.error
    assert f.text() == "16x"
    assert win.model.scenario.model.num_hidden_layers == 16
    page.clear_overrides()
    assert win.model.scenario.model.num_hidden_layers is None and not f.box.error


# ------------------------------------------------------------------------------------------- training

def test_typing_sequence_length_doubles_activation_memory(win, qtbot):
    page = set_manual(win)
    chart = win.live.memory_chart
    type_into(qtbot, page.seq_len, "2048")
    qtbot.waitUntil(lambda: win.estimator.result.evaluation.scenario.training.seq_len == 2048)
    a1 = chart.data["activations"][0]
    type_into(qtbot, page.seq_len, "4096")
    qtbot.waitUntil(lambda: win.estimator.result.evaluation.scenario.training.seq_len == 4096)
    a2 = chart.data["activations"][0]
    # with flash attention, activations per layer are s·b·h·(constant) (Korthikanti et al. 2022 without the
    # 5as/h score term), so doubling the sequence doubles them
    assert a2 / a1 == pytest.approx(2.0, rel=0.02)


def test_invalid_values_marked_at_field_and_app_keeps_working(win, qtbot):
    page = set_manual(win)
    type_into(qtbot, page.seq_len, "12x")
    assert page.seq_len.box.error_label.isVisibleTo(page)
    assert "not a whole number" in page.seq_len.box.error_label.text()
    assert "not a whole number" in page.seq_len.toolTip()
    assert page.seq_len.text() == "12x"
    # a value the scenario rejects (global batch not a multiple of micro-batch × DP)
    type_into(qtbot, page.gbs, "63")
    qtbot.waitUntil(lambda: bool(page.gbs.box.error))
    assert "multiple" in page.gbs.box.error
    assert "⚠" in win.sidebar.item(1).text()
    assert win.estimator.result.evaluation is not None     # the live panel still shows the last valid scenario
    type_into(qtbot, page.gbs, "64")
    qtbot.waitUntil(lambda: not page.gbs.box.error)
    assert "⚠" not in win.sidebar.item(1).text()


def test_core_error_shown_at_field(win, qtbot):
    page = set_manual(win)
    page.tp.setValue(3)   # Llama 3.1 8B has 32 heads: TP 3 cannot split them (and 8 GPUs % 3 != 0)
    qtbot.waitUntil(lambda: bool(page.tp.box.error))
    assert win.model.scenario.parallel.tp == 1
    page.tp.setValue(2)
    qtbot.waitUntil(lambda: not page.tp.box.error)
    assert win.model.scenario.parallel.tp == 2


def test_memory_chart_red_when_it_does_not_fit(win, qtbot):
    page = set_manual(win)
    choose(page.zero, 0)  # 8B full fine-tune without ZeRO: 16 B/param of states alone is ~120 GiB
    qtbot.waitUntil(lambda: win.estimator.result.evaluation.scenario.parallel.zero == 0)
    chart = win.live.memory_chart
    assert chart.data["fits"][0] is False
    assert chart.totals[0].color.name() == "#d32f2f"
    assert "does not fit" in win.live.mem_value.text()
    assert chart.data["total"][0] > chart.data["capacity"]
    # the ZeRO-3 alternative is drawn next to it and fits
    labels = chart.data["labels"]
    z3 = labels.index("ZeRO-3")
    assert chart.data["fits"][z3] is True


def test_lora_fields_enable_with_method(win, qtbot):
    page = win.page("training")
    assert not page.lora_rank.isEnabled()
    choose(page.method, "lora")
    assert page.lora_rank.isEnabled()

    def lora_estimated():
        ev = win.estimator.result.evaluation  # None until the LoRA scenario's answer arrives (or for an error)
        return ev is not None and ev.trainable < ev.params.total / 50

    qtbot.waitUntil(lora_estimated)


# ----------------------------------------------------------------------------------------------- data

def test_data_volume_units_and_compute(win, qtbot):
    page = win.page("data")
    type_into(qtbot, page.tokens, "1.5T")
    assert win.model.scenario.data.tokens == 1.5e12
    qtbot.waitUntil(lambda: win.estimator.result.evaluation.tokens == 1.5e12)
    ev = win.estimator.result.evaluation
    # the data page shows the Evaluation's model FLOPs (6·N per token plus attention), as the CLI and the PDF
    assert page.flops_value.text() == format_flops(ev.total_flops)
    assert "e+" not in page.flops_value.text()
    assert ev.total_flops == pytest.approx(ev.flops_per_token * 1.5e12)
    assert ev.flops_per_token > 6 * ev.params.active
    page.mode_buttons["samples"].click()
    type_into(qtbot, page.samples, "1M")
    type_into(qtbot, page.avg_len, "2048")
    type_into(qtbot, page.epochs, "2")
    assert win.model.scenario.data.tokens == 1e6 * 2048 * 2
    page.mode_buttons["bytes"].click()
    type_into(qtbot, page.dataset_gb, "10")
    assert win.model.scenario.data.tokens == pytest.approx(10 * 2.5e8 * 2)
    type_into(qtbot, page.tokens_per_gb, "300M")
    assert win.model.scenario.data.tokens == pytest.approx(10 * 3e8 * 2)
    type_into(qtbot, page.dataset_gb, "-3")
    assert page.dataset_gb.box.error
    assert win.model.scenario.data.tokens == pytest.approx(10 * 3e8 * 2)


def test_compute_optimal_hint_for_pretraining(win, qtbot):
    choose(win.page("training").method, "pretrain")
    page = win.page("data")
    qtbot.waitUntil(lambda: "Chinchilla" in page.hint.text())
    n = win.estimator.result.evaluation.params.total
    assert format_compact(20 * n, 3) in page.hint.text()


# ------------------------------------------------------------------------------------------- budget

def test_deadline_and_work_pattern(win, qtbot):
    page = win.page("budget")
    type_into(qtbot, page.deadline_days, "30")
    assert win.model.scenario.constraints.deadline_days == 30
    choose(page.work_mode, "weekly")
    type_into(qtbot, page.hours, "40")
    assert win.model.scenario.constraints.hours_per_week == 40
    type_into(qtbot, page.hours, "200")
    assert page.hours.box.error     # more than 168 hours in a week
    choose(page.deadline_mode, "date")
    from PySide6.QtCore import QDate
    page.deadline_date.setDate(QDate.currentDate().addDays(10))
    assert win.model.scenario.constraints.deadline_days == 10
    page.deadline_date.setDate(QDate.currentDate().addDays(-1))
    assert "after today" in page.deadline_date.box.error
    choose(page.deadline_mode, "none")
    assert win.model.scenario.constraints.deadline_days is None
    type_into(qtbot, page.budget, "50000")
    assert win.model.scenario.constraints.budget == 50000


# ----------------------------------------------------------------------------------------- hardware

def test_hardware_table_prices_and_candidates(win, qtbot):
    page = win.page("hardware")
    t = page.table
    row = page.row_ids.index("h100-sxm-80gb")
    assert t.item(row, 2).text() == "80"
    from gpuplanner.ui.pages.hardware_page import C_BF16, PRICE_COLS, UNKNOWN_SPEC

    # an unknown spec reads "—" ("unknown" on hover; ux17: the word widened the column past the view)
    unknown = [r for r in range(t.rowCount()) if t.item(r, C_BF16).text() == UNKNOWN_SPEC
               and t.item(r, C_BF16).toolTip() == "unknown"]
    assert unknown, "a GPU without a BF16 figure shows '—' (unknown)"
    # type a quote of 20 per card-hour
    t.item(row, PRICE_COLS["card_hour"]).setText("20")
    q = win.model.scenario.constraints.prices["h100-sxm-80gb"]
    assert q.card_hour == 20.0
    assert page.table.item(row, PRICE_COLS["card_hour"]).text() == "20.00"
    # tick one more candidate
    r2 = page.row_ids.index("h200-sxm-141gb")
    t.item(r2, 0).setCheckState(Qt.CheckState.Checked)
    assert "h200-sxm-141gb" in win.model.scenario.constraints.gpu_candidates
    page.add_custom_gpu({"name": "MyCard", "memory_gib": 48.0, "bf16_tflops": None, "link": None, "tdp_w": None,
                         "card_hour": 3.0})
    last = t.rowCount() - 1
    assert "MyCard" in t.item(last, 1).text() and t.item(last, C_BF16).text() == UNKNOWN_SPEC
    # a custom GPU with a peak and a price is a real candidate: it is ticked, priced and searched
    page.add_custom_gpu({"name": "Big Card", "memory_gib": 96.0, "bf16_tflops": 400.0, "mem_bw_tbs": 3.0,
                         "link": "nvlink", "tdp_w": 500.0, "card_hour": 6.0, "architecture": "hopper"})
    sc = win.model.scenario
    assert [c.id for c in sc.hardware.custom_gpus] == ["custom-mycard", "custom-big-card"]
    # the dialog's architecture reaches the scenario (CustomGpu.architecture); none chosen stays None
    assert [c.architecture for c in sc.hardware.custom_gpus] == [None, "hopper"]
    from gpuplanner.ui.pages.hardware_page import CustomGpuDialog

    dlg = CustomGpuDialog(page)
    dlg.name.setText("Variant")
    dlg.memory.setText("96")
    dlg.arch.setCurrentIndex(dlg.arch.findData("hopper"))
    dlg._accept()
    assert dlg.result_gpu["architecture"] == "hopper"
    assert "custom-big-card" in sc.constraints.gpu_candidates
    assert sc.constraints.prices["custom-big-card"].card_hour == 6.0
    r3 = page.row_ids.index("custom-big-card")
    assert t.item(r3, 0).checkState() == Qt.CheckState.Checked
    assert t.item(r3, PRICE_COLS["card_hour"]).text() == "6.00"  # the user's price shows in the table
    from gpuplanner.core.search import search

    res = search(sc.model_copy(update={"constraints": sc.constraints.model_copy(
        update={"gpu_candidates": ["custom-big-card"], "max_gpus": 8})}), top=3)
    assert res.plans and res.plans[0].gpu == "custom-big-card"
    # it can drive the live estimate like a catalog GPU
    t.selectRow(r3)
    page.use_selected()
    assert win.model.scenario.hardware.gpu == "custom-big-card"


# -------------------------------------------------------------------------------------------- plans

def test_ranked_plans_follow_objective_and_inputs(win, qtbot):
    win.go_to(5)
    page = win.page("plans")
    assert page.proxy.rowCount() > 0
    plans = page.table_model.plans
    feasible = [p for p in plans if p.meets_deadline and p.within_budget]
    # cheapest, or within the price tie of it and faster (search.CHEAPEST_TIE, round 15)
    from gpuplanner.core.search import CHEAPEST_TIE
    cheapest = min(feasible, key=lambda p: p.cost)
    assert plans[0].cost <= cheapest.cost * (1 + CHEAPEST_TIE)
    assert plans[0].cost == cheapest.cost or plans[0].calendar_days < cheapest.calendar_days
    gen = win.search.generation
    choose(page.objective, "fastest")
    qtbot.waitUntil(lambda: win.search.generation > gen and win.search.state == "done", timeout=20000)
    plans = page.table_model.plans
    # the fastest among the plans priced from a quote of the right kind (price_fabric ranks the others after),
    # up to the search's tie, inside which cost decides (search.FASTEST_TIE)
    from gpuplanner.core.search import FASTEST_TIE  # noqa: PLC0415
    priced = [p for p in plans if p.within_budget
              and {r.id: r.status for r in p.evaluation.rules}.get("price_fabric") != "failed"]
    assert plans[0].calendar_days <= min(p.calendar_days for p in priced) * (1 + FASTEST_TIE)
    # a much larger model needs more GPUs per plan
    small = min(p.num_gpus for p in plans)
    gen = win.search.generation
    win.page("model").choose_preset("llama-3.1-70b")
    qtbot.waitUntil(lambda: win.search.generation > gen and win.search.state == "done", timeout=20000)
    assert min(p.num_gpus for p in page.table_model.plans) > small
    # the selected plan's details and the cost chart
    page.view.selectRow(1)
    p1 = page.current_plan()
    assert p1.rank == 2 and win.model.ui["selected_plan"] == 2
    text = page.details.toPlainText()  # (Qt's HTML splits a heading's first letter from its anchor)
    assert "Why it beat the next plan" in text and "Memory per GPU" in text and "Cost by rental mode" in text
    assert win.live.cost_chart.data["chosen"] == [(p1.calendar_days, p1.cost)]
    # adopting it (automatic layout) shows it in the live charts
    assert win.model.scenario.hardware.num_gpus == p1.num_gpus
    qtbot.waitUntil(lambda: not win.estimator.estimate_busy()
                    and win.estimator.result.evaluation.scenario.hardware.num_gpus == p1.num_gpus)
    assert win.estimator.result.evaluation.memory.total == pytest.approx(p1.memory.total)


def test_plans_table_sorts_by_column(win, qtbot):
    win.go_to(5)
    page = win.page("plans")
    col = 5  # days
    page.view.sortByColumn(col, Qt.SortOrder.AscendingOrder)
    days = [page.proxy.data(page.proxy.index(r, col), Qt.ItemDataRole.UserRole) for r in range(page.proxy.rowCount())]
    assert days == sorted(days)


def test_search_restarts_on_edit_and_drops_stale_results(make_window, qtbot, monkeypatch):
    from gpuplanner.app import engine

    seen = []

    def slow_search(scenario, base_dir=None, ui=None, cancel=None, progress=None, top=20):
        seen.append(scenario.training.seq_len)
        for _ in range(30):
            if cancel():
                raise engine.Cancelled()
            time.sleep(0.01)
        return engine.SearchOutcome([], considered=scenario.training.seq_len)


    # the search is replaced in this process, so it runs on a thread here, not in a process of its own
    monkeypatch.setenv("GPUPLANNER_SEARCH_WORKER", "thread")
    monkeypatch.setattr(engine, "search_plans", slow_search)
    w = make_window()
    qtbot.waitUntil(lambda: w.search.state == "done", timeout=10000)
    w.model.set("training.seq_len", 1024)
    qtbot.waitUntil(lambda: 1024 in seen, timeout=10000)   # the first job is running ...
    w.model.set("training.seq_len", 2048)         # ... and gets cancelled
    qtbot.waitUntil(lambda: w.search.state == "done" and w.search.outcome.considered == 2048, timeout=10000)
    assert 1024 in seen and seen[-1] == 2048
    qtbot.wait(400)
    assert w.search.outcome.considered == 2048    # nothing stale arrived afterwards


def test_search_failure_is_reported_not_raised(make_window, qtbot, monkeypatch):
    from gpuplanner.core.errors import PlannerError
    from gpuplanner.app import engine

    def broken(*a, **k):
        raise PlannerError("no rental price for anything")


    # the search is replaced in this process, so it runs on a thread here, not in a process of its own
    monkeypatch.setenv("GPUPLANNER_SEARCH_WORKER", "thread")
    monkeypatch.setattr(engine, "search_plans", broken)
    w = make_window()
    qtbot.waitUntil(lambda: w.search.state == "failed", timeout=10000)
    w.go_to(5)
    assert "no rental price" in w.page("plans").status.text()
    assert "no rental price" in w.live.cost_chart.empty.text()


# -------------------------------------------------------------------------------------------- charts

def test_charts_hover_and_export_png(win, qtbot, tmp_path, monkeypatch):
    mem = win.live.memory_chart
    vb = mem.plot.getPlotItem().vb
    pos = vb.mapViewToScene(QPointF(0, mem.data["total"][0] * 0.5))
    text = mem.hover_text_at(pos)
    assert "Total" in text and f"{mem.data['total'][0]:.2f}" in text
    out = tmp_path / "memory"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), "png"))
    mem.export_action.trigger()
    png = tmp_path / "memory.png"
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    import struct
    assert struct.unpack(">I", data[16:20])[0] == 1600    # IHDR width
    cost = win.live.cost_chart
    assert cost.data and len(cost.data["days"]) == len(cost.plans)


def test_scaling_chart_series_and_deadline(win, qtbot):
    sc = win.live.scaling_chart
    qtbot.waitUntil(lambda: bool(sc.data))
    res = win.estimator.scaling
    assert res.required_tokens_per_s == pytest.approx(
        win.model.scenario.data.tokens / (win.model.scenario.constraints.deadline_days * 86400))
    for kind, (x, y) in sc.data.items():
        assert list(x) == sorted(x) and all(v > 0 for v in y)
    choose(sc.mode, "days")
    # days mode compares calendar days (what the deadline counts) with the calendar deadline
    assert sc.plot.getPlotItem().getAxis("left").labelText == "calendar days"
    for sr in res.series:
        for n, cal, comp in zip(sr.gpus, sr.calendar_days, sr.compute_days):
            if cal == cal:  # not NaN
                assert cal >= comp > 0
    for kind, (x, y) in sc.data.items():
        sr = next(s for s in res.series if s.kind == kind)
        assert list(y) == [d for d in sr.calendar_days if d == d and d > 0]


# ---------------------------------------------------------------------------------------------- files

def test_save_open_roundtrip_and_dirty_title(win, qtbot, tmp_path, monkeypatch):
    path = tmp_path / "plan.gpuplan"
    win.page("data").mode_buttons["samples"].setChecked(True)  # the data as samples × length (the page's defaults)
    assert win.model.ui["data_mode"] == "samples" and win.model.scenario.data.tokens == 1_000_000 * 1024
    win.model.set("training.seq_len", 1024)
    assert win.isWindowModified()
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    assert win.file_save_as()
    assert path.exists() and not win.isWindowModified()
    assert "plan.gpuplan" in win.windowTitle()
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["scenario"]["training"]["seq_len"] == 1024
    win.model.set("training.seq_len", 2048)
    assert win.isWindowModified()
    # File > Revert and Open bring the saved state back
    win.dialogs_answer = None
    from gpuplanner.ui import main_window  # noqa: F401
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    win.file_revert()
    assert win.model.scenario.training.seq_len == 1024
    assert win.model.ui["data_mode"] == "samples" and win.model.scenario.data.tokens == 1_000_000 * 1024
    assert not win.isWindowModified()


def test_open_scenario_example_and_bad_file(win, qtbot, tmp_path, dialogs):
    assert win.open_path(_src("llama3-8b-full-8xh100-zero3.json"))
    assert win.model.scenario.model.preset == "llama-3-8b"
    assert win.model.scenario.data.tokens == 5e9
    assert win.model.ui["tokens_text"] == "5B"
    bad = tmp_path / "bad.gpuplan"
    bad.write_text('{"schema_version": 2, "scenario": {"training": {"seq_len": -1}}}', encoding="utf-8")
    assert not win.open_path(bad)
    assert dialogs.calls and dialogs.calls[-1][0] == "warning"
    assert win.model.scenario.model.preset == "llama-3-8b"


def test_close_asks_to_save_when_dirty(make_window, qtbot, dialogs):
    w = make_window()
    w.model.set("training.seq_len", 1024)
    dialogs.answer = QMessageBox.StandardButton.Cancel
    assert not w.close()
    assert w.isVisible()
    dialogs.answer = QMessageBox.StandardButton.Discard
    assert w.close()


def test_autosave_and_recovery_offer(make_window, qtbot, dialogs, monkeypatch):
    import os

    from gpuplanner.ui.recovery import RecoveryDialog

    w1 = make_window(autosave=True)
    w1.model.set("training.seq_len", 3072)
    folder = Path(os.environ["GPUPLANNER_DATA_DIR"]) / "autosave"
    qtbot.waitUntil(lambda: folder.is_dir() and any(folder.glob("*.autosave")), timeout=3000)  # <= 2 s debounce
    # a second session (as after a crash) is offered the first one's work (more in tests/ui/test_lost_work.py)
    w2 = make_window(autosave=True)
    monkeypatch.setattr(RecoveryDialog, "exec", lambda dlg: dlg.recover(0))
    assert w2.offer_recovery()
    assert w2.model.scenario.training.seq_len == 3072
    assert w2.model.dirty


def test_export_pdf_from_file_menu(win, qtbot, tmp_path, monkeypatch, dialogs):
    out = tmp_path / "report"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), "pdf"))
    win.actions_["pdf"].trigger()
    pdf = tmp_path / "report.pdf"
    from gpuplanner.ui import report

    # written on a worker thread: the file, or a message box saying why not
    qtbot.waitUntil(lambda: not report.busy() and (pdf.exists() or bool(dialogs.calls)), timeout=120000)
    assert pdf.exists() and pdf.read_bytes()[:5] == b"%PDF-", dialogs.calls
    assert pdf.stat().st_size > 10_000


def test_language_change_retranslates(win, qtbot):
    from PySide6.QtCore import QTranslator

    class Shout(QTranslator):
        def translate(self, context, source, disambiguation=None, n=-1):
            return source.upper() if context == "MainWindow" and source == "Plans" else source

        def isEmpty(self):  # noqa: N802 - Qt skips translators that report empty
            return False

    tr = Shout()
    app = QApplication.instance()
    app.installTranslator(tr)
    try:
        qtbot.waitUntil(lambda: "PLANS" in win.sidebar.item(5).text())
    finally:
        app.removeTranslator(tr)
    qtbot.waitUntil(lambda: "Plans" in win.sidebar.item(5).text())


def test_live_update_latency_budget(make_window, qtbot):
    """A keystroke re-estimates and updates the memory chart within the 50 ms target (a loose 250 ms bound
    here: the test machine is shared; bench/bench_ui.py measures it properly)."""
    w = make_window(search_enabled=False)
    page = set_manual(w)
    chart = w.live.memory_chart
    times = []
    for v in ("1024", "2048", "4096", "8192", "1024"):
        qtbot.wait(40)
        before = chart._last
        t0 = time.perf_counter()
        page.seq_len.setText(v)
        page.seq_len.textEdited.emit(v)
        while chart._last is before:
            QApplication.processEvents()
        times.append(time.perf_counter() - t0)
        assert chart.data["labels"][0] == "Current"
    assert sorted(times)[len(times) // 2] < 0.25


def test_verify_step_checklist_saved_in_plan(win, qtbot, tmp_path):
    win.go_to(6)
    page = win.page("verify")
    iid, (box, _why, _notes) = next(iter(page.panel._check_rows.items()))
    box.setChecked(True)
    assert win.model.ui["checklist"][iid]["checked"] is True
    path = tmp_path / "v.gpuplan"
    assert win.save_to(path)
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert {"id": iid, "checked": True} .items() <= next(c for c in saved["vendor_checklist"] if c["id"] == iid).items()
    win.file_new()
    assert not page.panel.checklist_state().entry(iid).checked
    assert win.open_path(path)
    assert page.panel.checklist_state().entry(iid).checked


def test_cli_opens_plan_file_and_self_test_passes(tmp_path):
    """`gpuplanner FILE --self-test` opens the plan, walks every page, renders every chart, exits 0."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    res = subprocess.run([sys.executable, "-m", "gpuplanner", str(EXAMPLES / "8b-full-8xh100.gpuplan"), "--self-test"],
                         capture_output=True, text=True, timeout=120, env=env)
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    assert "self-test: ok" in res.stdout


def test_window_geometry_restored(make_window, qtbot):
    w1 = make_window(search_enabled=False)
    w1.resize(760, 560)   # inside the offscreen screen (restoreGeometry keeps windows on screen)
    w1.save_state()
    w2 = make_window(search_enabled=False)
    assert (w2.width(), w2.height()) == (760, 560)


def test_cost_chart_keeps_the_previous_plans_while_a_new_search_runs(win, qtbot):
    """An edit restarts the search: the cost chart keeps the previous plans (no flicker, no second repaint),
    marked "updating…", until the new plans arrive; the new ones then replace them and the mark goes."""
    cost = win.live.cost_chart
    win.live  # the panel exists
    qtbot.waitUntil(lambda: bool(cost.data), timeout=5000)
    before = list(cost.plans)
    assert before and cost.updating_label.text() == ""
    win.model.set("data.tokens", win.model.scenario.data.tokens * 2)
    assert win.search.state == "running"
    assert cost.plans == before and cost.data                 # still drawn
    assert cost.updating_label.text() == "updating…"
    assert not cost.empty.isVisible()
    qtbot.waitUntil(lambda: win.search.state == "done", timeout=20000)
    qtbot.wait(20)
    assert cost.updating_label.text() == ""
    assert cost.plans is win.search.outcome.plans
    # twice the tokens: about twice the GPU-days (the search may pick a larger layout for #1, so compare the work,
    # not the calendar: a ranking change elsewhere must not break this test)
    def gpu_days(r):
        return r.calendar_days * r.plan.num_gpus
    assert gpu_days(cost.plans[0]) > 1.5 * gpu_days(before[0])
