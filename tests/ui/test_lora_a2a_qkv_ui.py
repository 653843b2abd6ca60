"""The Training page's controls for ``training.lora_a2a`` (Megatron-Bridge LoRA a2a_experimental) and
``training.tp_comm_overlap_disable_qkv`` (Megatron-Core): each writes its field (tool default off), the estimate
reads it, and each is enabled for the tools that read it (review r10, mend10b)."""

from __future__ import annotations

import pytest

from gpuplanner.core.evaluate import evaluate


@pytest.fixture
def win(make_window):
    return make_window(search_enabled=False)


def _bridge_lora_tp4(win) -> None:
    win.go_to(1)
    win.model.set("parallel.auto", False)
    win.model.set("training.framework", "megatron-bridge")
    win.model.set("training.method", "lora")
    win.model.set("hardware.num_gpus", 8)
    win.model.set("parallel.tp", 4)
    win.model.set("parallel.sequence_parallel", True)
    win.model.set("training.tp_comm_overlap", True)


@pytest.mark.parametrize("key", ["lora_a2a", "tp_comm_overlap_disable_qkv"])
def test_the_switch_writes_the_field_and_moves_the_step(win, key):
    _bridge_lora_tp4(win)
    f = win.page("training").advanced.fields[key]
    assert f.isEnabled() and not f.isChecked()
    assert getattr(win.model.user_scenario().training, key) is False
    default = evaluate(win.model.user_scenario()).time.step_time_s
    f.setChecked(True)
    s = win.model.user_scenario()
    assert getattr(s.training, key) is True
    # a2a: the row-parallel adapters' all-gathers become all-to-alls (faster); disable_qkv: linear_qkv's
    # collectives lose TE's overlap but its adapter reuses the gathered input (timing.bridge_lora_sp_gathers,
    # timing.qkv_overlap_lost)
    assert evaluate(s).time.step_time_s != pytest.approx(default, rel=1e-9)
    if key == "lora_a2a":
        assert evaluate(s).time.step_time_s < default
    f.setChecked(False)
    assert getattr(win.model.user_scenario().training, key) is False


def test_enabled_only_where_a_tool_reads_them(win):
    _bridge_lora_tp4(win)
    f = win.page("training").advanced.fields
    win.model.set("training.method", "full")
    assert not f["lora_a2a"].isEnabled() and f["tp_comm_overlap_disable_qkv"].isEnabled()
    win.model.set("training.method", "lora")
    win.model.set("training.framework", "megatron")  # Megatron-LM: Megatron-Core, not Bridge's adapters
    assert not f["lora_a2a"].isEnabled() and f["tp_comm_overlap_disable_qkv"].isEnabled()
    win.model.set("parallel.tp", 1)
    win.model.set("training.framework", "hf")
    assert not f["lora_a2a"].isEnabled() and not f["tp_comm_overlap_disable_qkv"].isEnabled()


def test_qkv_without_overlap_is_slower_for_full_fine_tuning(win):
    _bridge_lora_tp4(win)
    win.model.set("training.method", "full")
    win.model.set("hardware.num_gpus", 16)
    f = win.page("training").advanced.fields["tp_comm_overlap_disable_qkv"]
    assert f.isEnabled()
    default = evaluate(win.model.user_scenario()).time.step_time_s
    f.setChecked(True)
    assert evaluate(win.model.user_scenario()).time.step_time_s > default * (1 + 1e-9)
