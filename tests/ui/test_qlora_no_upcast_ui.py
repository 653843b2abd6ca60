"""The Training page's control for ``training.qlora_no_upcast`` (issue 35 round 18, ftoos18: QLoRA whose loader
skips PEFT's fp32 cast of the non-4-bit parameters, fms-acceleration's accelerated-peft plugin): it writes the field,
the estimate reads it, and its row is shown where the core's rule (frameworks.qlora_no_upcast_allowed) says it
applies, and while it is on."""

from __future__ import annotations

from gpuplanner.core.evaluate import evaluate


def test_qlora_no_upcast_switch_writes_the_field_and_speeds_the_step(make_window):
    win = make_window(search_enabled=False)
    win.go_to(1)
    adv = win.page("training").advanced
    f = adv.fields["qlora_no_upcast"]
    for path, value in (("model.preset", "mistral-7b-v0.1"), ("parallel.auto", False), ("training.method", "lora"),
                        ("training.framework", "trl"), ("parallel.zero", 0), ("parallel.tp", 1), ("parallel.pp", 1),
                        ("hardware.gpu", "a100-sxm-80gb"), ("hardware.num_gpus", 1), ("training.seq_len", 4096),
                        ("training.micro_batch_size", 4), ("training.recompute", "full")):
        win.model.set(path, value)
    assert not adv.box.layout().isRowVisible(f.box)  # LoRA: nothing is 4-bit
    win.model.set("training.method", "qlora")
    assert adv.box.layout().isRowVisible(f.box) and not f.isChecked()
    off = evaluate(win.model.user_scenario()).time.step_time_s
    f.setChecked(True)
    s = win.model.user_scenario()
    assert s.training.qlora_no_upcast is True
    assert evaluate(s).time.step_time_s < off
    f.setChecked(False)
    for other in ("llamafactory", "unsloth", "axolotl"):  # Axolotl casts back to 16 bits by itself (review18)
        win.model.set("training.framework", other)
        assert not adv.box.layout().isRowVisible(f.box), other
    win.model.set("training.framework", "hf")
    assert adv.box.layout().isRowVisible(f.box)
