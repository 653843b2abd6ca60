"""The Training page's attention controls. For Transformers' modelling code one list holds its own
attn_implementation values (``sdpa``, its default since v4.36; ``flash_attention_2``; ``eager``, our flash attention
off); the other frameworks keep the flash-attention box. The estimate reads the field (a padded batch under SDPA runs
PyTorch's memory-efficient kernel over the whole square: slower, ``core.timing.sdpa_masked``)."""

from __future__ import annotations

from gpuplanner.core.evaluate import evaluate
from tests.ui.test_issue35_fields_ui import choose, refused

PADDED = (("model.preset", "llama-2-7b"), ("parallel.auto", False), ("training.framework", "hf"),
          ("training.method", "lora"), ("hardware.gpu", "a100-sxm-80gb"), ("hardware.num_gpus", 1),
          ("parallel.tp", 1), ("parallel.pp", 1), ("training.seq_len", 2048), ("training.micro_batch_size", 4),
          ("training.global_batch_size", 32), ("training.recompute", "full"), ("data.mean_sample_len", 1024))


def _shown(page) -> bool:
    return page.form.isRowVisible(page.attn_implementation.box)


def test_attn_implementation_writes_the_field_and_moves_the_step(make_window):
    win = make_window(search_enabled=False)
    win.go_to(1)
    page = win.page("training")
    for path, value in PADDED:
        win.model.set(path, value)
    s = win.model.user_scenario()
    assert s.training.attn_implementation == "sdpa" and page.attn_implementation.currentData() == "sdpa"
    assert _shown(page)
    sdpa = evaluate(s).time.step_time_s
    choose(page.attn_implementation, "flash_attention_2")
    s = win.model.user_scenario()
    assert s.training.attn_implementation == "flash_attention_2"
    fa2 = evaluate(s).time.step_time_s
    assert fa2 < sdpa * 0.97  # the padded square under SDPA costs several per cent (sdpa6: +10 % here)
    # flash attention off is refused while FlashAttention-2 is chosen; the row stays in sight to undo it
    page.flash.setChecked(False)
    assert "flash_attention_2 needs" in refused(page.flash)
    assert win.model.user_scenario().training.flash_attention is True and _shown(page)
    choose(page.attn_implementation, "sdpa")
    assert win.model.user_scenario().training.attn_implementation == "sdpa"


def _row(page, widget) -> bool:
    return page.form.isRowVisible(widget)


def test_one_attention_list_for_transformers_code(make_window):
    """Round 7 (ux8): "use flash attention" ticked above "Attention implementation: SDPA" read as a contradiction.
    For Transformers' modelling code the page now shows one list, Transformers' own attn_implementation values
    (sdpa / flash_attention_2 / eager); the flash box is for the frameworks with their own attention."""
    win = make_window(search_enabled=False)
    win.go_to(1)
    page = win.page("training")
    for path, value in PADDED:
        win.model.set(path, value)
    assert _shown(page) and not _row(page, page.flash.box)
    assert page.attn_implementation.values == ["sdpa", "flash_attention_2", "eager"]
    win.model.set("training.packing", True)  # packed rows: SDPA gets no mask, the list stays (it holds eager too)
    assert _shown(page)
    choose(page.attn_implementation, "eager")
    t = win.model.user_scenario().training
    assert t.flash_attention is False and t.attn_implementation == "sdpa"
    assert page.attn_implementation.currentData() == "eager" and not _row(page, page.attention_kernel.box)
    choose(page.attn_implementation, "flash_attention_2")  # from eager: both fields in one change
    t = win.model.user_scenario().training
    assert t.flash_attention is True and t.attn_implementation == "flash_attention_2"
    assert not _row(page, page.attention_kernel.box)  # the flash-attn package's own kernel: no choice
    choose(page.attn_implementation, "eager")  # from FlashAttention-2: not refused
    assert win.model.user_scenario().training.flash_attention is False
    choose(page.attn_implementation, "sdpa")
    assert win.model.user_scenario().training.flash_attention is True and _row(page, page.attention_kernel.box)
    for other in ("megatron", "fsdp", "unsloth"):  # their own attention code, not Transformers'
        win.model.set("training.framework", other)
        assert win.model.user_scenario().training.framework == other
        assert not _shown(page) and _row(page, page.flash.box), other
        assert not _row(page, page.attn_note), other
    for hf_code in ("deepspeed", "hf", "llamafactory"):
        win.model.set("training.framework", hf_code)
        assert _shown(page) and not _row(page, page.flash.box), hf_code


def test_unrunnable_attention_combinations_get_one_line(make_window):
    """FlashAttention-2 with the cuDNN kernel, or FlashAttention-2 under a framework with its own attention: one
    line says so, and the scenario keeps what the user set."""
    win = make_window(search_enabled=False)
    win.go_to(1)
    page = win.page("training")
    for path, value in PADDED:
        win.model.set(path, value)
    assert not _row(page, page.attn_note)
    win.model.set_many({"training.attn_implementation": "flash_attention_2", "training.attention_kernel": "cudnn"})
    assert _row(page, page.attn_note) and "cuDNN" in page.attn_note.text()
    assert _row(page, page.attention_kernel.box)  # shown while it holds cuDNN, to undo it
    t = win.model.user_scenario().training
    assert t.attn_implementation == "flash_attention_2" and t.attention_kernel == "cudnn"
    win.model.set("training.attention_kernel", "auto")
    assert not _row(page, page.attn_note) and not _row(page, page.attention_kernel.box)
    win.model.set("training.framework", "megatron")
    assert win.model.user_scenario().training.attn_implementation == "flash_attention_2"
    assert _shown(page) and _row(page, page.attn_note) and "changes nothing" in page.attn_note.text()
