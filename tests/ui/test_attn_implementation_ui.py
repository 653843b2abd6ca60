"""The Training page's control for ``training.attn_implementation`` (Transformers' ``sdpa``, its default since
v4.36, or ``flash_attention_2``): it writes the field, the estimate reads it (a padded batch under SDPA runs
PyTorch's memory-efficient kernel over the whole square: slower), and its row is shown only where a mask reaches
SDPA (flash attention on, Hugging Face modelling code, no packing: ``core.timing.sdpa_masked``)."""

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


def test_attn_implementation_hidden_where_no_mask_reaches_sdpa(make_window):
    win = make_window(search_enabled=False)
    win.go_to(1)
    page = win.page("training")
    for path, value in PADDED:
        win.model.set(path, value)
    assert _shown(page)
    win.model.set("training.packing", True)  # packed rows: no padding mask
    assert not _shown(page)
    win.model.set("training.packing", False)
    assert _shown(page)
    win.model.set("training.flash_attention", False)  # eager attention
    assert not _shown(page)
    win.model.set("training.flash_attention", True)
    for other in ("megatron", "fsdp", "unsloth"):  # their own attention code, not Transformers'
        win.model.set("training.framework", other)
        assert win.model.user_scenario().training.framework == other
        assert not _shown(page), other
    for hf_code in ("deepspeed", "hf"):
        win.model.set("training.framework", hf_code)
        assert _shown(page), hf_code
