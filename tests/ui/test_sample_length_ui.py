"""One average sample length: the Data page's "Average length" (data as samples × length) and the Training page's
"Mean sample length" are the scenario's ``data.mean_sample_len``, which packing and padding-free read
(core/flops.sample_shape). Writing either shows in the other; in samples × length the data volume follows it."""

from __future__ import annotations

import json

import pytest

from tests.ui.test_issue35_fields_ui import refused, type_text


@pytest.fixture
def win(make_window):
    return make_window(search_enabled=False)


def _samples(win, n: str = "50k"):
    data = win.page("data")
    data.mode_buttons["samples"].setChecked(True)
    type_text(data.samples, n)
    return data


def test_the_data_pages_length_is_the_mean_sample_length(win):
    data, training = _samples(win), win.page("training")
    s = win.model.user_scenario()
    assert s.data.mean_sample_len == 1024 and s.data.tokens == 50_000 * 1024  # the page's length, written once
    type_text(data.avg_len, "500")
    s = win.model.user_scenario()
    assert (s.data.mean_sample_len, s.data.tokens) == (500, 50_000 * 500)
    assert training.mean_sample_len.text() == "500"  # shown on the Training page
    type_text(data.epochs, "2")
    assert win.model.user_scenario().data.tokens == 50_000 * 500 * 2


def test_the_training_pages_length_moves_the_data_volume_in_samples_mode(win):
    data, training = _samples(win), win.page("training")
    type_text(training.mean_sample_len, "800")
    s = win.model.user_scenario()
    assert (s.data.mean_sample_len, s.data.tokens) == (800, 50_000 * 800)
    assert data.avg_len.text() == "800" and win.model.ui["avg_len"] == 800
    # empty ("fills the sequence length") is no length for samples × length: refused at the field, nothing stored
    type_text(training.mean_sample_len, "")
    assert "samples × length" in refused(training.mean_sample_len)
    assert win.model.user_scenario().data.mean_sample_len == 800
    type_text(data.avg_len, "0")  # a length of zero tokens
    refused(data.avg_len)
    assert win.model.user_scenario().data.tokens == 50_000 * 800


def test_in_tokens_mode_the_length_leaves_the_data_volume_and_samples_mode_takes_it(win):
    data, training = win.page("data"), win.page("training")
    tokens = win.model.user_scenario().data.tokens
    type_text(training.mean_sample_len, "700")
    assert win.model.user_scenario().data.tokens == tokens  # the data is given as tokens: its volume stays
    type_text(training.mean_sample_len, "")
    assert win.model.user_scenario().data.mean_sample_len is None  # empty is allowed: samples fill the rows
    type_text(training.mean_sample_len, "700")
    _samples(win, "10k")
    assert data.avg_len.text() == "700"  # the length already given, not the page's default
    assert win.model.user_scenario().data.tokens == 10_000 * 700


def test_samples_and_length_are_saved_and_reopened_as_one_value(win, tmp_path):
    data = _samples(win)
    type_text(data.avg_len, "640")
    path = tmp_path / "p.gpuplan"
    assert win.save_to(path)
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["scenario"]["data"]["mean_sample_len"] == saved["ui_state"]["avg_len"] == 640
    win.model.set("data.mean_sample_len", None)
    assert win.open_path(path)
    assert win.model.ui["data_mode"] == "samples" and data.avg_len.text() == "640"
    assert win.model.user_scenario().data.mean_sample_len == 640 and not win.model.dirty
