"""The Training page's control for ``training.fsdp2_fp32_upcast`` (Accelerate <= 1.12 casting an FSDP2 LoRA model's
frozen base to fp32): it writes the field, the estimate reads it, and its row is shown where the core's rule
(frameworks.fsdp2_upcast_applies, LoRA) says it applies, and while it is on."""

from __future__ import annotations

from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.memory import GIB

#: Qwen2.5-7B's parameters (tests/test_mechanics_fsdp2_fp32_upcast.py counts them by hand)
P = 7_615_616_512


def test_upcast_switch_writes_the_field_and_raises_the_weights(make_window):
    win = make_window(search_enabled=False)
    win.go_to(1)
    adv = win.page("training").advanced
    f = adv.fields["fsdp2_fp32_upcast"]
    assert adv.box.layout().isRowVisible(f.box) is False  # the default framework (Hugging Face Trainer)
    for path, value in (("model.preset", "qwen2.5-7b"), ("parallel.auto", False), ("training.method", "lora"),
                        ("training.framework", "fsdp"), ("training.fsdp_version", 2), ("parallel.zero", 3),
                        ("parallel.tp", 1), ("parallel.pp", 1), ("hardware.gpu", "a100-sxm-80gb"),
                        ("hardware.num_gpus", 2), ("training.seq_len", 1024), ("training.micro_batch_size", 1),
                        ("training.recompute", "full")):
        win.model.set(path, value)
    assert adv.box.layout().isRowVisible(f.box) and not f.isChecked()
    off = evaluate(win.model.user_scenario()).memory.weights
    f.setChecked(True)
    s = win.model.user_scenario()
    assert s.training.fsdp2_fp32_upcast is True
    # 2 more bytes per frozen parameter of the shard (2 GPUs)
    assert abs((evaluate(s).memory.weights - off) * GIB - 2 * P / 2) < 0.002 * P
    f.setChecked(False)
    win.model.set("parallel.zero", 2)  # not FULL_SHARD: the row hides
    assert not adv.box.layout().isRowVisible(f.box)
    for other in ("deepspeed", "hf", "megatron"):
        win.model.set("training.framework", other)
        assert not adv.box.layout().isRowVisible(f.box), other
