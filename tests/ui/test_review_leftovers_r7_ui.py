"""Round 7's clean-up, as the Training and Hardware pages show it (docs/notes/2026-12-06/issue-35-r7-tidy7.md):

* the Training page's MoE controls (expert parallelism, expert TP) and its Megatron MoE rows read one answer,
  ``app.engine.model_is_moe``: a preset is MoE or not as soon as it is chosen, not when the next estimate arrives;
* the reentrant-checkpoint switch is disabled for every tool that has no such choice (the core's one list:
  torchtitan/torchtune too);
* a typed price below zero says so ("is below zero"), not "is not a number", and names the GPU as the table does.
"""

from __future__ import annotations

import pytest

from tests.ui.test_custom_fp8_spot_ui import _type, priced_hardware_page


@pytest.fixture
def training(make_window):
    win = make_window(search_enabled=False)
    win.go_to(1)
    return win, win.page("training")


def _megatron_moe_rows(page) -> bool:
    return page.par_box.layout().isRowVisible(page.advanced.fields["moe_capacity_factor"].box)


def test_moe_controls_follow_the_chosen_preset_at_once(training):
    win, page = training
    win.model.set_many({"model.preset": "llama-3.1-8b", "parallel.auto": False, "hardware.num_gpus": 8,
                        "training.framework": "megatron", "parallel.ep": 1})
    win.estimator.run_now()  # the live estimate is of the dense model
    assert not win.estimator.result.evaluation.arch.is_moe
    assert not page.ep.isEnabled() and not page.expert_tp.isEnabled() and not _megatron_moe_rows(page)
    win.model.set("model.preset", "qwen3-30b-a3b")  # the next estimate has not run yet
    assert not win.estimator.result.evaluation.arch.is_moe
    # one answer for all three: the page's MoE controls and the Megatron MoE rows agree, before the estimate
    assert page.ep.isEnabled() and page.expert_tp.isEnabled() and _megatron_moe_rows(page)
    win.estimator.run_now()
    assert page.ep.isEnabled() and _megatron_moe_rows(page)
    win.model.set("model.preset", "llama-3.1-8b")
    assert not page.ep.isEnabled() and not page.expert_tp.isEnabled() and not _megatron_moe_rows(page)


@pytest.mark.parametrize("framework, enabled", [("hf", True), ("llamafactory", True), ("fsdp", False),
                                                ("megatron", False), ("unsloth", False)])
def test_reentrant_switch_only_where_the_tool_has_one(training, framework, enabled):
    win, page = training
    win.model.set_many({"model.preset": "llama-3.1-8b", "training.framework": framework})
    assert win.model.user_scenario().training.framework == framework
    assert page.advanced.fields["checkpoint_reentrant"].isEnabled() is enabled


def test_price_refusals_say_why_and_name_the_gpu(make_window):
    from gpuplanner.ui.pages.hardware_page import PRICE_COLS

    gid = "h100-sxm-80gb"
    win, page = priced_hardware_page(make_window, gid)
    name = page.gpu_label(gid)
    assert name != gid and "H100" in name
    _type(page.spot.edit, "-2")
    assert page.table_error.text() == f"Spot price '-2' for {name} is below zero; it was not changed."
    _type(page.spot.edit, "abc")
    assert page.table_error.text() == f"Spot price 'abc' for {name} is not a number; it was not changed."
    assert win.model.scenario.constraints.prices[gid].spot_card_hour is None
    row = page.row_ids.index(gid)
    page.table.item(row, PRICE_COLS["card_hour"]).setText("-4")
    assert page.table_error.text() == f"Price '-4' for {name} is below zero; it was not changed."
    row = page.row_ids.index(gid)
    page.table.item(row, PRICE_COLS["card_hour"]).setText("x1")
    assert page.table_error.text() == f"Price 'x1' for {name} is not a number; it was not changed."
    assert win.model.scenario.constraints.prices[gid].card_hour == 3.0
    row = page.row_ids.index(gid)
    page.table.item(row, PRICE_COLS["card_hour"]).setText("1,250.5")  # thousands separators, as before
    assert win.model.scenario.constraints.prices[gid].card_hour == 1250.5


def test_price_refusals_in_chinese(make_window, language):  # noqa: F811
    gid = "h100-sxm-80gb"
    win, page = priced_hardware_page(make_window, gid)
    assert language.install("zh_CN")
    try:
        _type(page.spot.edit, "-2")
        assert page.table_error.text() == f"{page.gpu_label(gid)} 的竞价价格“-2”小于零，未作修改。"
        _type(page.spot.edit, "abc")
        assert page.table_error.text() == f"{page.gpu_label(gid)} 的竞价价格“abc”不是数字，未作修改。"
    finally:
        language.install("en")
