"""The Training page's control for ``training.fsdp_root_embedding`` (torchtitan before 83e694105, July 2025: the
token embedding in FSDP2's root unit, kept gathered through backward): it writes the field, the estimate reads it,
and its row is shown for torchtitan's FSDP2 only (and while it is on, so a set box stays in sight)."""

from __future__ import annotations

from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.memory import GIB

V, H = 128256, 4096  # Llama 3.1 8B vocabulary and hidden size


def test_root_embedding_switch_writes_the_field_and_raises_the_peak(make_window):
    win = make_window(search_enabled=False)
    win.go_to(1)
    adv = win.page("training").advanced
    f = adv.fields["fsdp_root_embedding"]
    assert adv.box.layout().isRowVisible(f.box) is False  # the default framework (Hugging Face Trainer)
    for path, value in (("model.preset", "llama-3.1-8b"), ("parallel.auto", False), ("training.method", "full"),
                        ("training.framework", "fsdp"), ("training.fsdp_version", 2), ("parallel.zero", 3),
                        ("parallel.tp", 1), ("parallel.pp", 1), ("hardware.gpu", "h100-sxm-80gb"),
                        ("hardware.num_gpus", 8), ("training.seq_len", 4096), ("training.micro_batch_size", 1),
                        ("training.recompute", "full")):
        win.model.set(path, value)
    assert win.model.user_scenario().training.framework == "fsdp"
    assert adv.box.layout().isRowVisible(f.box) and not f.isChecked()
    assert win.model.user_scenario().training.fsdp_root_embedding is False
    new = evaluate(win.model.user_scenario()).memory.reserved
    f.setChecked(True)
    s = win.model.user_scenario()
    assert s.training.fsdp_root_embedding is True
    # the old layout holds at least the embedding's 16-bit weight (2·V·h bytes) more at the peak
    # (tests/test_mechanics_fsdp_root_unit.py derives the whole difference by hand)
    assert (evaluate(s).memory.reserved - new) * GIB > 2.0 * V * H
    win.model.set("training.fsdp_version", 1)  # FSDP1: no such layout; the set box stays in sight
    assert adv.box.layout().isRowVisible(f.box)
    f.setChecked(False)
    assert win.model.user_scenario().training.fsdp_root_embedding is False
    assert not adv.box.layout().isRowVisible(f.box)
    win.model.set("training.fsdp_version", 2)
    assert adv.box.layout().isRowVisible(f.box)
    for other in ("megatron", "deepspeed", "hf"):
        win.model.set("training.framework", other)
        assert not adv.box.layout().isRowVisible(f.box), other
