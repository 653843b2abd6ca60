"""The Training page's control for ``training.empty_cache_steps`` (the HF Trainer's ``torch_empty_cache_steps``,
core/memory.varlen_record_fraction): it writes the field, the estimate reads it (less reserved memory with samples
of varying length), an empty box is the default (never), and its row is shown for the Hugging Face-based tools only
(and while it is set, so a set box stays in sight)."""

from __future__ import annotations

import pytest

from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.memory import GIB

V = 128256  # Llama 3.1 8B vocabulary


def _type(edit, text: str) -> None:
    edit.setText(text)
    edit.textEdited.emit(text)


def test_empty_cache_box_writes_the_field_and_lowers_reserved(make_window):
    win = make_window(search_enabled=False)
    win.go_to(1)
    adv = win.page("training").advanced
    f = adv.fields["empty_cache_steps"]
    for path, value in (("model.preset", "llama-3.1-8b"), ("parallel.auto", False), ("training.method", "lora"),
                        ("training.framework", "hf"), ("hardware.gpu", "a100-sxm-80gb"), ("hardware.num_gpus", 1),
                        ("training.seq_len", 2048), ("training.micro_batch_size", 1),
                        ("training.recompute", "full"), ("data.mean_sample_len", 512)):
        win.model.set(path, value)
    assert adv.box.layout().isRowVisible(f.box) and f.text() == ""
    before = evaluate(win.model.user_scenario()).memory.reserved
    _type(f, "10")
    s = win.model.user_scenario()
    assert s.training.empty_cache_steps == 10
    # the cached loss segments at the mean length, not at seq_len: 12 × (2048 − 512) × V bytes less
    assert (before - evaluate(s).memory.reserved) * GIB == pytest.approx(12.0 * 1536 * V, rel=1e-6)
    _type(f, "")
    assert win.model.user_scenario().training.empty_cache_steps is None
    win.model.set("training.framework", "megatron")
    win.model.set("training.method", "full")
    assert not adv.box.layout().isRowVisible(f.box)
