"""The Training page's control for ``training.ds_bf16_grad_accum`` (DeepSpeed's BF16 optimizer's fp32 gradient add
after each micro-batch): it writes the field (framework default = null), the estimate reads it, and it is enabled
for bf16 on the DeepSpeed- and Megatron-based frameworks."""

from __future__ import annotations

import pytest

from gpuplanner.core.evaluate import evaluate
from tests.ui.test_issue35_fields_ui import choose


@pytest.fixture
def win(make_window):
    return make_window(search_enabled=False)


def test_the_bf16_optimizer_switch_writes_the_field_and_moves_the_step(win):
    win.go_to(1)
    f = win.page("training").advanced.fields["ds_bf16_grad_accum"]
    win.model.set("parallel.auto", False)
    win.model.set("training.framework", "megatron")
    win.model.set("training.precision", "bf16")
    assert f.isEnabled() and f.currentData() == "default"
    assert win.model.user_scenario().training.ds_bf16_grad_accum is None
    default = evaluate(win.model.user_scenario()).time.step_time_s
    choose(f, "on")
    s = win.model.user_scenario()
    assert s.training.ds_bf16_grad_accum is True
    # the fp32 gradient add after each micro-batch (timing.DS_BF16_HP_GRAD_BYTES): a longer step
    assert evaluate(s).time.step_time_s > default * (1 + 1e-6)
    choose(f, "default")
    assert win.model.user_scenario().training.ds_bf16_grad_accum is None
    win.model.set("training.framework", "fsdp")
    assert not f.isEnabled()
