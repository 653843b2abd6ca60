"""The Training page's control for ``training.rl.offload_model`` (Megatron-SWIFT's ``--offload_model`` /
``--offload_optimizer``, both off by default; issue 35 round 12, savers12): it writes its field, the estimate reads it
(a named part of the step: the training model to CPU memory and back), it is enabled for colocated vLLM on
Megatron-SWIFT, and its texts read as Chinese in the Chinese UI."""

from __future__ import annotations

import re

from gpuplanner.core.evaluate import evaluate


def _grpo_swift(win) -> None:
    win.go_to(1)
    win.model.set("parallel.auto", False)
    win.model.set("training.method", "full")
    win.model.set("training.framework", "megatron-swift")
    win.model.set("hardware.num_gpus", 8)
    win.model.set("parallel.zero", 1)
    win.model.set("parallel.tp", 2)
    win.model.set("training.objective", "grpo")
    win.model.set("training.rl.generation_engine", "vllm_colocated")
    win.model.set("training.rl.engine_sleep", True)


def test_the_switch_writes_the_field_and_prices_the_copies(make_window, language):
    language.install("en")
    win = make_window(search_enabled=False)
    _grpo_swift(win)
    page = win.page("training")
    f = page.rl_offload_model
    assert f.isEnabled() and not f.isChecked()
    assert win.model.user_scenario().training.rl.offload_model is False  # Megatron-SWIFT's default
    before = evaluate(win.model.user_scenario()).time
    assert before.parts.get("rl_model_offload", 0.0) == 0.0
    f.setChecked(True)
    s = win.model.user_scenario()
    assert s.training.rl.offload_model is True
    after = evaluate(s).time
    assert after.parts["rl_model_offload"] > 0.0
    assert after.step_time_s > before.step_time_s
    f.setChecked(False)
    assert win.model.user_scenario().training.rl.offload_model is False


def test_enabled_only_where_it_applies(make_window, language):
    language.install("en")
    win = make_window(search_enabled=False)
    _grpo_swift(win)
    f = win.page("training").rl_offload_model
    assert f.isEnabled()
    win.model.set("training.rl.generation_engine", "vllm_separate")
    assert not f.isEnabled()
    win.model.set("training.rl.generation_engine", "vllm_colocated")
    win.model.set("training.framework", "trl")
    assert not f.isEnabled()


def test_the_texts_read_as_chinese(make_window, language, qtbot):
    language.install("zh_CN")
    win = make_window(search_enabled=False)
    win.go_to(1)
    qtbot.wait(50)
    page = win.page("training")
    for text in (page.rl_offload_model.text(), page.labels["rl_offload_model"].text()):
        assert text and not re.search(r"\b(?!vLLM\b|CPU\b)[A-Za-z]{3,}\b", text), text
