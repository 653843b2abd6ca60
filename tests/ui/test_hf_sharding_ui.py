"""The Training page's FSDP version row on the Hugging Face stack at ZeRO 2/3 (issue 35 round 15, consist15): the
stack's ZeRO runs DeepSpeed (the default) or Accelerate's FSDP1 (frameworks.hf_sharded_by_fsdp), read by the memory
and the time model alike; the row is shown there, worded for the stack, and writes the field the estimate reads."""

from __future__ import annotations

from gpuplanner.core.evaluate import evaluate


def test_hf_stack_row_writes_fsdp_version_and_moves_the_estimate(make_window):
    win = make_window(search_enabled=False)
    win.go_to(1)
    page = win.page("training")
    row = page.fsdp_version
    for path, value in (("model.preset", "llama-3-8b"), ("parallel.auto", False), ("training.method", "full"),
                        ("training.framework", "hf"), ("parallel.zero", 0), ("parallel.tp", 1), ("parallel.pp", 1),
                        ("hardware.gpu", "h100-sxm-80gb"), ("hardware.num_gpus", 16), ("training.seq_len", 4096),
                        ("training.micro_batch_size", 2), ("training.global_batch_size", 64),
                        ("training.recompute", "full")):
        win.model.set(path, value)
    assert not page.form.isRowVisible(row.box)  # DDP: nothing sharded
    win.model.set("parallel.zero", 3)
    assert page.form.isRowVisible(row.box)
    assert row.itemText(row.findData(2)) == "DeepSpeed ZeRO (default)"
    ds = evaluate(win.model.user_scenario())
    row.setCurrentIndex(row.findData(1))
    row.activated.emit(row.findData(1))
    s = win.model.user_scenario()
    assert s.training.fsdp_version == 1
    fs = evaluate(s)
    assert fs.time_modelled.parts.get("fsdp1_grad_passes", 0.0) > 0.0
    assert ds.time_modelled.parts.get("fsdp1_grad_passes", 0.0) == 0.0
    win.model.set("training.framework", "fsdp")
    assert page.form.isRowVisible(row.box) and row.itemText(row.findData(2)) == "FSDP2"


def test_hf_stack_row_shown_where_the_search_tries_zero_2_3_or_fsdp1_is_set(make_window):
    # review15: under the automatic layout the search's ZeRO-2/3 rows of the Hugging Face stack read
    # training.fsdp_version (frameworks.hf_sharded_by_fsdp), so its row is there to set; a set FSDP1 stays in sight
    win = make_window(search_enabled=False)
    win.go_to(1)
    page = win.page("training")
    row = page.fsdp_version
    for path, value in (("model.preset", "llama-3-8b"), ("training.method", "full"), ("training.framework", "hf"),
                        ("parallel.zero", 0), ("parallel.auto", True)):
        win.model.set(path, value)
    assert page.form.isRowVisible(row.box)
    assert row.itemText(row.findData(1)) == "FSDP1 through Accelerate"
    win.model.set("training.fsdp_version", 1)
    win.model.set("parallel.auto", False)  # manual, ZeRO 0: FSDP1 no longer runs, but the set value is seen
    assert page.form.isRowVisible(row.box)
    win.model.set("training.fsdp_version", 2)
    assert not page.form.isRowVisible(row.box)
    win.model.set("training.framework", "deepspeed")
    win.model.set("parallel.auto", True)
    assert not page.form.isRowVisible(row.box)  # DeepSpeed's own ZeRO: no FSDP version
