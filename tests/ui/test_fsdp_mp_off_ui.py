"""The Training page's control for ``training.mixed_precision_off`` (issue 35 round 17, ftoos17: LoRA on the
Hugging Face Trainer without --bf16, so PEFT's fp32 adapters run in fp32): it writes the field, the estimate reads
it, and its row is shown where the core's rule (frameworks.mixed_precision_off_allowed) says it applies, and while it
is on."""

from __future__ import annotations

from gpuplanner.core.evaluate import evaluate


def test_mp_off_switch_writes_the_field_and_slows_the_adapters(make_window):
    win = make_window(search_enabled=False)
    win.go_to(1)
    adv = win.page("training").advanced
    f = adv.fields["mixed_precision_off"]
    assert adv.box.layout().isRowVisible(f.box) is False  # the default plan: no LoRA on FSDP1
    for path, value in (("model.preset", "mistral-7b-v0.1"), ("parallel.auto", False), ("training.method", "lora"),
                        ("training.framework", "trl"), ("parallel.zero", 3), ("training.fsdp_version", 1),
                        ("parallel.tp", 1), ("parallel.pp", 1), ("hardware.gpu", "a100-sxm-80gb"),
                        ("hardware.num_gpus", 2), ("training.seq_len", 4096), ("training.micro_batch_size", 2),
                        ("training.recompute", "full")):
        win.model.set(path, value)
    assert adv.box.layout().isRowVisible(f.box) and not f.isChecked()
    off = evaluate(win.model.user_scenario()).time.parts["lora_adapters"]
    f.setChecked(True)
    s = win.model.user_scenario()
    assert s.training.mixed_precision_off is True
    assert evaluate(s).time.parts["lora_adapters"] > 1.5 * off
    f.setChecked(False)
    win.model.set("training.fsdp_version", 2)  # DeepSpeed's ZeRO-3 on the HF stack: the row hides
    assert not adv.box.layout().isRowVisible(f.box)
    win.model.set("parallel.zero", 0)  # DDP: no DeepSpeed, the row shows
    assert adv.box.layout().isRowVisible(f.box)
    win.model.set("parallel.zero", 3)
    win.model.set("training.fsdp_version", 1)
    for other in ("deepspeed", "fsdp", "megatron"):
        win.model.set("training.framework", other)
        assert not adv.box.layout().isRowVisible(f.box), other
