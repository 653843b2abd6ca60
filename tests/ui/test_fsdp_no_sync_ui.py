"""The Training page's controls for ``training.fsdp_no_sync`` (FSDP's gradient sync off while accumulating) and
``training.fsdp_lora_mixed_units`` (LoRA inside its block's FSDP1 unit, core/memory.fsdp_lora_unit_params): they
write the fields, the estimate reads them, and their rows are shown for FSDP with sharded gradients only (and while
set, so a set value stays in sight)."""

from __future__ import annotations

from gpuplanner.core.evaluate import evaluate


def test_fsdp_switches_write_the_fields_and_raise_the_peak(make_window):
    win = make_window(search_enabled=False)
    win.go_to(1)
    adv = win.page("training").advanced
    sync, mixed = adv.fields["fsdp_no_sync"], adv.fields["fsdp_lora_mixed_units"]
    for path, value in (("model.preset", "llama-2-7b"), ("parallel.auto", False), ("training.method", "lora"),
                        ("training.framework", "hf"), ("hardware.gpu", "a100-sxm-80gb"), ("hardware.num_gpus", 2),
                        ("training.seq_len", 1024), ("training.micro_batch_size", 1),
                        ("training.global_batch_size", 8), ("training.recompute", "full"), ("parallel.zero", 0)):
        win.model.set(path, value)
    assert not adv.box.layout().isRowVisible(sync.box)  # no sharding: no FSDP rows
    win.model.set("parallel.zero", 3)
    win.model.set("training.framework", "fsdp")
    win.model.set("training.fsdp_version", 1)
    assert adv.box.layout().isRowVisible(sync.box) and adv.box.layout().isRowVisible(mixed.box)
    base = evaluate(win.model.user_scenario()).memory.reserved
    mixed.setChecked(True)
    sync.setCurrentIndex(sync.findData("on"))
    sync.activated.emit(sync.currentIndex())  # what a user's choice sends
    s = win.model.user_scenario()
    assert s.training.fsdp_lora_mixed_units is True and s.training.fsdp_no_sync is True
    # every block's unsharded bf16 gradient (2 bytes × ~6.5e9 block parameters ≈ 12 GiB) on each GPU
    assert evaluate(s).memory.reserved - base > 11.0
    mixed.setChecked(False)
    win.model.set("training.method", "qlora")
    assert not adv.box.layout().isRowVisible(mixed.box)
    # the switch's "default" item puts the field back to null (the tool's default)
    sync.setCurrentIndex(sync.findData("default"))
    sync.activated.emit(sync.currentIndex())
    assert win.model.user_scenario().training.fsdp_no_sync is None
