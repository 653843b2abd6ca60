"""The Training page's control for ``training.legacy_bnb_4bit`` (bitsandbytes 0.41.0–0.43.1 kept each 4-bit
layer's input until backward, core/memory.bnb_kept_input_bytes): it writes the field, the estimate reads it, and
its row is shown for QLoRA only (and while it is on, so a set box stays in sight)."""

from __future__ import annotations

from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.memory import GIB


def test_old_4bit_switch_writes_the_field_and_raises_the_peak(make_window):
    win = make_window(search_enabled=False)
    win.go_to(1)
    adv = win.page("training").advanced
    f = adv.fields["legacy_bnb_4bit"]
    for path, value in (("model.preset", "llama-3.1-8b"), ("parallel.auto", False), ("training.method", "lora"),
                        ("training.framework", "hf"), ("hardware.gpu", "a100-sxm-80gb"), ("hardware.num_gpus", 1),
                        ("training.seq_len", 2048), ("training.micro_batch_size", 1),
                        ("training.recompute", "full"), ("training.checkpoint_reentrant", False)):
        win.model.set(path, value)
    assert not adv.box.layout().isRowVisible(f.box)  # LoRA: no 4-bit layers
    win.model.set("training.method", "qlora")
    assert adv.box.layout().isRowVisible(f.box) and not f.isChecked()
    new = evaluate(win.model.user_scenario()).memory.reserved
    f.setChecked(True)
    s = win.model.user_scenario()
    assert s.training.legacy_bnb_4bit is True
    # non-reentrant checkpointing keeps every layer's four 4-bit inputs: 3.25 GiB for Llama 3 8B at 2,048 tokens
    # (tests/test_mechanics_bnb_kept_inputs.py derives it by hand); at least 3 GiB more here
    assert (evaluate(s).memory.reserved - new) * GIB > 3.0 * GIB
    f.setChecked(False)
    win.model.set("training.method", "lora")
    assert not adv.box.layout().isRowVisible(f.box)
