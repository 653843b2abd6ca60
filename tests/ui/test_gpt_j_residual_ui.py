"""The Training page's control for ``training.gpt_j_residual`` (GPT-NeoX's gpt-j-residual switch, default off as in
GPT-NeoX's neox_args.py): it writes its field, the estimate reads it (one tensor-parallel all-reduce per layer in the
forward instead of two, timing.gpt_neox_tp_collectives), and it is enabled only for GPT-NeoX, the one tool that
has it (issue 35 round 10, uifields10)."""

from __future__ import annotations

import pytest

from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.timing import gpt_neox_tp_collectives, tp_layer_collectives


@pytest.fixture
def win(make_window):
    return make_window(search_enabled=False)


def _neox_tp2(win) -> None:
    win.go_to(1)
    win.model.set("parallel.auto", False)
    win.model.set("training.method", "pretrain")  # GPT-NeoX's one method (core/frameworks.py)
    win.model.set("training.framework", "gpt-neox")
    win.model.set("hardware.num_gpus", 8)
    win.model.set("parallel.tp", 2)
    win.model.set("parallel.zero", 1)  # the Pythia configs' zero_optimization.stage
    win.model.set("parallel.sequence_parallel", False)  # none at v1.0


def test_the_switch_writes_the_field_and_speeds_the_step(win):
    _neox_tp2(win)
    f = win.page("training").advanced.fields["gpt_j_residual"]
    assert f.isEnabled() and not f.isChecked()
    assert win.model.user_scenario().training.gpt_j_residual is False  # GPT-NeoX's default
    default = evaluate(win.model.user_scenario()).time.step_time_s
    f.setChecked(True)
    s = win.model.user_scenario()
    assert s.training.gpt_j_residual is True
    # 3 all-reduces per layer (no recompute) instead of Megatron's 4: fewer bytes on the TP link, a shorter step
    assert gpt_neox_tp_collectives(0.0) == 3.0 and tp_layer_collectives(0.0, 0.0) == 4.0
    assert evaluate(s).time.step_time_s < default * (1 - 1e-9)
    f.setChecked(False)
    assert win.model.user_scenario().training.gpt_j_residual is False


def test_enabled_only_for_gpt_neox(win):
    _neox_tp2(win)
    f = win.page("training").advanced
    assert f.fields["gpt_j_residual"].isEnabled() and f.labels["gpt_j_residual"].isEnabled()
    for tool in ("megatron", "nanotron", "hf"):
        win.model.set("training.framework", tool)
        assert not f.fields["gpt_j_residual"].isEnabled() and not f.labels["gpt_j_residual"].isEnabled(), tool


def test_a_switch_left_on_stays_enabled_so_it_can_be_turned_off(win):
    _neox_tp2(win)
    f = win.page("training").advanced.fields["gpt_j_residual"]
    f.setChecked(True)
    win.model.set("training.framework", "megatron")  # refused by core/scenario.py: the switch must stay reachable
    assert f.isEnabled() and f.isChecked()
    f.setChecked(False)
    assert win.model.user_scenario().training.gpt_j_residual is False
    win.model.set("training.framework", "megatron")
    assert not f.isEnabled()
