"""The Training page's control for ``training.ds_zero3_gather`` (DeepSpeed ZeRO-3's collectives: one flat
all-gather per module from v0.5.5, one per parameter before): it writes the field, the estimate reads it, and it
is enabled for DeepSpeed plans only."""

from __future__ import annotations

import pytest

from gpuplanner.core.evaluate import evaluate
from tests.ui.test_issue35_fields_ui import choose


@pytest.fixture
def win(make_window):
    return make_window(search_enabled=False)


def test_the_gather_choice_writes_the_field_and_moves_the_step(win):
    win.go_to(1)
    f = win.page("training").advanced.fields["ds_zero3_gather"]
    assert not f.isEnabled()  # the default framework (Hugging Face Trainer) has no such switch
    win.model.set("parallel.auto", False)
    win.model.set("training.framework", "deepspeed")
    win.model.set("parallel.zero", 3)
    win.model.set("hardware.num_gpus", 16)
    assert f.isEnabled() and f.currentData() == "flat" and win.model.user_scenario().training.ds_zero3_gather == "flat"
    flat = evaluate(win.model.user_scenario()).time.step_time_s
    choose(f, "list")
    s = win.model.user_scenario()
    assert s.training.ds_zero3_gather == "list"
    # per-parameter all-gathers after a device sync, nothing overlapped: a slower step (core/timing.py)
    assert evaluate(s).time.step_time_s > flat
    choose(f, "flat")
    assert win.model.user_scenario().training.ds_zero3_gather == "flat"
    win.model.set("training.framework", "megatron")
    assert not f.isEnabled()
