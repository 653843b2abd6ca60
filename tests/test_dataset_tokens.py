"""The data page's three ways to describe the data, as one token count (core.units.dataset_tokens; the UI's
engine.unique_tokens only passes the page's fields)."""

from __future__ import annotations

import pytest

from gpuplanner.core.units import dataset_tokens


def test_tokens_samples_and_bytes():
    assert dataset_tokens("tokens", tokens_text="1.5T") == 1.5e12
    assert dataset_tokens("tokens", tokens_text="7,000,000") == 7e6
    # 200,000 samples of 1,024 tokens
    assert dataset_tokens("samples", samples=200_000, avg_len=1024) == 204_800_000
    # 10 GB of English text at 250M tokens per GB
    assert dataset_tokens("bytes", dataset_gb=10, tokens_per_gb=2.5e8) == 2.5e9


def test_missing_fields_count_as_zero_and_bad_text_is_refused():
    assert dataset_tokens("samples", samples=None, avg_len=1024) == 0.0
    assert dataset_tokens("tokens", tokens_text="") == 0.0
    with pytest.raises(ValueError):
        dataset_tokens("tokens", tokens_text="lots")


def test_the_ui_passes_the_page_fields():
    from gpuplanner.app.engine import unique_tokens

    ui = {"data_mode": "samples", "samples": 1000, "avg_len": 512, "tokens_text": "9T"}
    assert unique_tokens(ui) == 512_000
    assert unique_tokens({"tokens_text": "2B"}) == 2e9
