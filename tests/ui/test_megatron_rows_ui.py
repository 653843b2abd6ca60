"""Megatron-Core's CUDA graphs and token dropping (``parallel.cuda_graph_scope``, ``moe_capacity_factor``,
``moe_pad_to_capacity``, round 6's moe8) are shown only where they apply: for the frameworks that run
Megatron-Core, token dropping and the router's graph scopes for MoE models only."""

from __future__ import annotations

import pytest

from tests.ui.test_issue35_fields_ui import choose


@pytest.fixture
def page(make_window):
    win = make_window(search_enabled=False)
    win.go_to(1)
    return win.page("training")


def _shown(page, key) -> bool:
    return page.par_box.layout().isRowVisible(page.advanced.fields[key].box)


def _router_items(page) -> list[bool]:
    combo = page.advanced.fields["cuda_graph_scope"]
    return [not combo.view().isRowHidden(combo.findData(v)) for v in ("moe_router", "attn_moe_router")]


KEYS = ("cuda_graph_scope", "moe_capacity_factor", "moe_pad_to_capacity")


def test_hidden_outside_megatron(page):
    page.model.set_many({"model.preset": "qwen3-30b-a3b", "parallel.auto": False, "hardware.num_gpus": 8})
    for fw in ("hf", "fsdp", "deepspeed", "llamafactory"):
        page.model.set("training.framework", fw)
        assert page.model.user_scenario().training.framework == fw
        assert [_shown(page, k) for k in KEYS] == [False, False, False], fw


def test_moe_rows_and_router_scopes_for_moe_models_only(page):
    page.model.set_many({"model.preset": "llama-3.1-8b", "parallel.auto": False, "hardware.num_gpus": 8,
                         "training.framework": "megatron"})
    assert page.model.user_scenario().training.framework == "megatron"
    assert [_shown(page, k) for k in KEYS] == [True, False, False]  # dense: graphs of attention or whole layers
    assert _router_items(page) == [False, False]
    choose(page.advanced.fields["cuda_graph_scope"], "attn")
    assert page.model.user_scenario().parallel.cuda_graph_scope == "attn"
    choose(page.advanced.fields["cuda_graph_scope"], None)
    for fw in ("megatron-bridge", "megatron-swift", "megatron"):
        page.model.set("model.preset", "qwen3-30b-a3b")
        page.model.set("training.framework", fw)
        assert page.model.user_scenario().training.framework == fw
        assert [_shown(page, k) for k in KEYS] == [True, True, True], fw
        assert _router_items(page) == [True, True], fw
    choose(page.advanced.fields["cuda_graph_scope"], "moe_router")
    assert page.model.user_scenario().parallel.cuda_graph_scope == "moe_router"


def test_ep_a2a_overlap_check_box_for_megatron_moe_only(page):
    """``parallel.ep_a2a_overlap`` (round 12, mgfields12; first built by a2aovl8): shown for Megatron-Core on an MoE
    model; ticking it sets the field."""
    page.model.set_many({"model.preset": "llama-3.1-8b", "parallel.auto": False, "hardware.num_gpus": 8,
                         "training.framework": "megatron"})
    assert not _shown(page, "ep_a2a_overlap")
    page.model.set_many({"model.preset": "qwen3-30b-a3b", "parallel.ep": 8})
    assert _shown(page, "ep_a2a_overlap")
    page.advanced.fields["ep_a2a_overlap"].setChecked(True)
    assert page.model.user_scenario().parallel.ep_a2a_overlap is True
    assert page.advanced.labels["ep_a2a_overlap"].text()


def test_recompute_modules_menu_under_megatron_selective(page):
    """``training.recompute_modules`` (round 12): a menu of Megatron's modules in the Advanced box, shown for
    Megatron-Core under selective recompute; ticking sets the list, none ticked is Megatron's default (null)."""
    adv = page.advanced
    box_shown = lambda: adv.box.layout().isRowVisible(adv.fields["recompute_modules"].box)  # noqa: E731
    page.model.set_many({"model.preset": "qwen3-30b-a3b", "parallel.auto": False, "hardware.num_gpus": 8,
                         "training.framework": "megatron", "training.recompute": "none"})
    assert not box_shown()
    page.model.set("training.recompute", "megatron_selective")
    assert box_shown()
    checks = adv.fields["recompute_modules"].checks
    checks["layernorm"].setChecked(True)
    checks["moe_act"].setChecked(True)
    assert page.model.user_scenario().training.recompute_modules == ["layernorm", "moe_act"]
    checks["layernorm"].setChecked(False)
    checks["moe_act"].setChecked(False)
    assert page.model.user_scenario().training.recompute_modules is None
    assert adv.labels["recompute_modules"].text()
