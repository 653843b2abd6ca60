"""The Training page's control for ``training.ds_config_auto`` (DeepSpeed's hidden-size keys written ``auto``): it
writes the field (framework default = null), the estimate reads it, and it is enabled for the DeepSpeed-based
frameworks only."""

from __future__ import annotations

import pytest

from gpuplanner.core.evaluate import evaluate
from tests.ui.test_issue35_fields_ui import choose


@pytest.fixture
def win(make_window):
    return make_window(search_enabled=False)


def test_the_auto_sizes_switch_writes_the_field_and_moves_the_step(win):
    win.go_to(1)
    f = win.page("training").advanced.fields["ds_config_auto"]
    win.model.set("parallel.auto", False)
    win.model.set("training.framework", "deepspeed")
    win.model.set("parallel.zero", 3)
    win.model.set("hardware.num_gpus", 32)
    win.model.set("training.seq_len", 1024)  # one short sequence per GPU: the host's hooks bind the step
    win.model.set("training.micro_batch_size", 1)
    assert f.isEnabled() and f.currentData() == "default"
    assert win.model.user_scenario().training.ds_config_auto is None
    default = evaluate(win.model.user_scenario()).time.step_time_s
    choose(f, "on")
    s = win.model.user_scenario()
    assert s.training.ds_config_auto is True
    # other bucket and persistence sizes: another step (core/zero3.py, timing.ds_bucket_engine)
    assert evaluate(s).time.step_time_s != pytest.approx(default, rel=1e-9)
    choose(f, "default")
    assert win.model.user_scenario().training.ds_config_auto is None
    win.model.set("training.framework", "megatron")
    assert not f.isEnabled()
