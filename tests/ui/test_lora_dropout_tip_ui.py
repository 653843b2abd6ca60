"""The LoRA dropout field's help says both costs: a dropout pass (time) and each adapter's own dropped copy of its
input kept for backward (memory: core/memory.py lora_dropout_bytes_per_token, round 10 ftmem10). Review r10."""

from __future__ import annotations

import pytest


@pytest.fixture
def win(make_window):
    return make_window(search_enabled=False)


def test_lora_dropout_help_names_time_and_memory(win):
    box = win.page("training").advanced.fields["lora_dropout"].box
    assert "slower steps" in box._help and "more memory" in box._help
