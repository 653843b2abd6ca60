"""The scenario fields of issue 35 are set where the user works: each control writes its scenario (or project)
field, a bad value is refused with one line at the field and is not stored, and each field is enabled only
where its mechanism applies (RL fields for PPO/GRPO, the vLLM ones when vLLM generates, the critic's for PPO)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gpuplanner.core.project import InferenceSpec, Project

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "shenzhen-7b-domain-project.gpuplan"


def choose(combo, value) -> None:
    idx = combo.findData(value)
    assert idx >= 0, value
    combo.setCurrentIndex(idx)
    combo.activated.emit(idx)


def type_text(edit, text: str) -> None:
    edit.setText(text)
    edit.textEdited.emit(text)


def refused(edit) -> str:
    """The one-line reason shown under a field; it is visible and has no line break."""
    err = edit.box.error
    assert err, "no message at the field"
    assert "\n" not in err and edit.box.error_label.text() and not edit.box.error_label.isHidden()
    return err


@pytest.fixture
def page(make_window):
    w = make_window(search_enabled=False)
    w.go_to(1)
    return w.page("training")


def user(page):
    return page.model.user_scenario()


def test_training_fields_write_the_scenario(page):
    page.paged_optimizer.setChecked(True)
    page.packing.setChecked(True)
    page.padding_free.setChecked(True)
    t = user(page).training
    assert t.paged_optimizer and t.packing and t.padding_free
    page.liger_kernel.setChecked(True)  # training.liger_kernel (issue 35 round 4)
    assert user(page).training.liger_kernel is True
    page.liger_kernel.setChecked(False)
    assert user(page).training.liger_kernel is False
    # training.cut_cross_entropy (issue 35 round 5): Unsloth only; cleared for another tool it is refused
    assert page.cut_cross_entropy.isChecked() and user(page).training.cut_cross_entropy is True
    page.packing.setChecked(False)
    assert user(page).training.packing is False
    type_text(page.mean_sample_len, "700")
    assert user(page).data.mean_sample_len == 700
    type_text(page.mean_sample_len, "-5")  # the schema wants more than 0
    refused(page.mean_sample_len)
    assert user(page).data.mean_sample_len == 700
    type_text(page.mean_sample_len, "")  # empty: every sample fills seq_len (the default)
    assert user(page).data.mean_sample_len is None and page.mean_sample_len.box.error is None
    type_text(page.expert_tp, "2")
    assert user(page).parallel.expert_tp == 2
    type_text(page.expert_tp, "0")
    refused(page.expert_tp)
    assert user(page).parallel.expert_tp == 2
    assert page.expert_tp.isEnabled()  # the search keeps it: editable with the automatic layout too
    type_text(page.expert_tp, "")
    assert user(page).parallel.expert_tp is None


def test_rl_fields_follow_the_objective_and_the_engine(page):
    rl_keys = ("max_num_seqs", "rollout_tp", "updates_per_generation", "mean_response_fraction", "schedule",
               "critic_padding_free")
    assert not any(getattr(page, k).isEnabled() for k in rl_keys)  # sft: no rollouts
    choose(page.method, "full")
    choose(page.objective, "grpo")
    assert page.updates_per_generation.isEnabled() and page.mean_response_fraction.isEnabled()
    assert not page.max_num_seqs.isEnabled() and not page.rollout_tp.isEnabled()  # HF generate: no vLLM
    assert not page.critic_padding_free.isEnabled()  # GRPO has no critic
    choose(page.engine, "vllm_colocated")
    assert page.max_num_seqs.isEnabled() and page.rollout_tp.isEnabled()
    choose(page.objective, "ppo")
    assert page.critic_padding_free.isEnabled() and page.labels["critic_padding_free"].isEnabled()


def test_rl_fields_write_the_scenario_and_refuse_bad_values(page):
    choose(page.method, "full")
    choose(page.objective, "ppo")
    choose(page.engine, "vllm_colocated")
    rl = lambda: user(page).training.rl  # noqa: E731
    for edit, good, bad, field, want in (
            (page.max_num_seqs, "256", "0", "max_num_seqs", 256),
            (page.rollout_tp, "2", "-1", "rollout_tp", 2),
            (page.updates_per_generation, "4", "0", "updates_per_generation", 4),
            (page.mean_response_fraction, "0.6", "1.5", "mean_response_fraction", 0.6)):
        type_text(edit, good)
        assert getattr(rl(), field) == pytest.approx(want), field
        assert edit.box.error is None
        type_text(edit, bad)
        refused(edit)
        assert getattr(rl(), field) == pytest.approx(want), f"{field}: a refused value was stored"
        type_text(edit, good)
        assert edit.box.error is None
    type_text(page.mean_response_fraction, "abc")  # not a number: said at the field, the model untouched
    assert "not a number" in refused(page.mean_response_fraction)
    assert rl().mean_response_fraction == pytest.approx(0.6)
    type_text(page.max_num_seqs, "")
    type_text(page.rollout_tp, "")
    assert rl().max_num_seqs is None and rl().rollout_tp is None  # empty: the tools' defaults
    for choice, want in (("off", False), ("on", True), ("default", None)):
        choose(page.critic_padding_free, choice)
        assert rl().critic_padding_free is want
    # one step off-policy needs vLLM on its own GPUs: refused at the field, kept pending, stored once it can be
    choose(page.schedule, "one_step_off")
    assert "vllm_separate" in refused(page.schedule)
    assert rl().schedule == "on_policy"
    choose(page.engine, "vllm_separate")
    assert rl().schedule == "one_step_off" and rl().generation_engine == "vllm_separate"
    # batches in flight (rlasync15): the asynchronous schedule's, editable there; a share regenerated below 1
    assert not page.steps_in_flight.isEnabled()
    choose(page.schedule, "async")
    assert rl().schedule == "async" and page.steps_in_flight.isEnabled()
    page.steps_in_flight.setValue(4)
    assert rl().steps_in_flight == 4
    type_text(page.regeneration_share, "0.3")
    assert rl().regeneration_share == pytest.approx(0.3)
    type_text(page.regeneration_share, "1")
    refused(page.regeneration_share)
    assert rl().regeneration_share == pytest.approx(0.3)
    type_text(page.regeneration_share, "0")


def test_project_serving_phase_sets_engine_and_memory_share(make_window, tmp_path, qtbot):
    path = tmp_path / "p.gpuplan"
    shutil.copy(EXAMPLE, path)
    w = make_window(search_enabled=False)
    assert w.open_path(path, show_errors=False)
    w.go_to(7)
    page = w.pages[7]
    qtbot.waitUntil(lambda: not page.busy() and page.result is not None, timeout=30000)
    i = next(k for k, p in enumerate(page.project_data()["phases"]) if p["kind"] == "inference")
    page.list.setCurrentRow(i)
    assert page.serve_engine.currentData() == "vllm"  # the schema's defaults are shown
    # the schema's None (each engine's own default) shows as 0, "engine default" (issue 35 r7, sglmem7)
    assert InferenceSpec().gpu_memory_utilization is None and page.mem_share.value() == 0.0
    assert page.mem_share.text() == page.mem_share.specialValueText()
    before = page.result.phases[i].serving.kv_cache_gib_per_gpu
    page.mem_share.setValue(0.5)
    qtbot.waitUntil(lambda: page.result.phases[i].serving.kv_cache_gib_per_gpu < before, timeout=10000)
    page.serve_engine.setCurrentIndex(page.serve_engine.findData("tensorrt-llm"))
    qtbot.waitUntil(lambda: page.result.phases[i].serving.engine == "tensorrt-llm", timeout=10000)
    stored = w.model.ui["project"]["phases"][i]["inference"]
    assert stored["engine"] == "tensorrt-llm" and stored["gpu_memory_utilization"] == pytest.approx(0.5)
    # the box holds only what the schema takes (0 < share ≤ 1): out-of-range input is clamped, never stored
    page.mem_share.setValue(0.0)
    page.mem_share.setValue(1.5)
    assert 0 < page.mem_share.value() <= 1
    assert Project.model_validate(w.model.ui["project"])
    assert w.save_to(path)
    from gpuplanner.io import planfile

    doc, _ = planfile.load(path)
    assert doc.project.phases[i].inference.engine == "tensorrt-llm"


def test_a_refused_value_is_said_in_the_ui_language(page, qapp):
    """pydantic's range check and a cross-field rule, both shown in Chinese at the field (message ids kept)."""
    from gpuplanner.i18n import LanguageManager

    choose(page.method, "full")
    choose(page.objective, "grpo")
    lm = LanguageManager(qapp)
    try:
        assert lm.install("zh_CN")
        type_text(page.mean_response_fraction, "1.5")
        assert page.mean_response_fraction.box.error_label.text() == "输入值应小于或等于 1"
        choose(page.schedule, "one_step_off")
        text = page.schedule.box.error_label.text()
        assert text and "needs generation_engine" not in text and "vllm_separate" in text
        assert user(page).training.rl.schedule == "on_policy"
    finally:
        lm.install("en")


def test_a_plans_finer_memory_share_is_kept_until_the_user_changes_it(make_window, tmp_path, qtbot):
    """The box shows two decimals: a plan's 0.925 is shown 0.93 but stays 0.925 when another field changes."""
    import json

    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    phases = data["project"]["phases"]
    i = next(k for k, p in enumerate(phases) if p["kind"] == "inference")
    phases[i]["inference"]["gpu_memory_utilization"] = 0.925
    path = tmp_path / "p.gpuplan"
    path.write_text(json.dumps(data), encoding="utf-8")
    w = make_window(search_enabled=False)
    assert w.open_path(path, show_errors=False)
    w.go_to(7)
    page = w.pages[7]
    qtbot.waitUntil(lambda: not page.busy() and page.result is not None, timeout=30000)
    page.list.setCurrentRow(i)
    assert page.mem_share.value() == pytest.approx(0.93)
    page.concurrency.setValue(60)
    inf = page.project_data()["phases"][i]["inference"]
    assert inf["concurrency"] == 60 and inf["gpu_memory_utilization"] == 0.925
    page.mem_share.setValue(0.8)
    assert page.project_data()["phases"][i]["inference"]["gpu_memory_utilization"] == pytest.approx(0.8)


def _open_project(make_window, tmp_path, qtbot, edit):
    """The example project, changed by ``edit(phases)`` and opened on the Project page."""
    import json

    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    edit(data["project"]["phases"])
    path = tmp_path / "p.gpuplan"
    path.write_text(json.dumps(data), encoding="utf-8")
    w = make_window(search_enabled=False)
    assert w.open_path(path, show_errors=False)
    w.go_to(7)
    page = w.pages[7]
    qtbot.waitUntil(lambda: not page.busy() and page.result is not None, timeout=30000)
    return w, page


def _phase_of(page, kind: str) -> int:
    return next(k for k, p in enumerate(page.project_data()["phases"]) if p["kind"] == kind)


def test_values_finer_than_the_boxes_are_kept_when_another_field_changes(make_window, tmp_path, qtbot):
    """Every box of the Project page's phase editor shows a plan's value rounded (weeks to 0.1, hours and speed to
    whole numbers, the memory share to 0.01, raw text to whole GB) or clamped (context ≥ 16). Editing one field must leave
    every other value of the phase exactly as the plan has it."""
    import copy

    def edit(phases):
        for p in phases:
            if p["kind"] == "inference":
                p.update({"weeks": 2.25, "hours_per_week": 37.5})
                p["inference"].update({"tokens_per_s_per_user": 12.5, "gpu_memory_utilization": 0.925,
                                       "context_tokens": 8, "output_tokens": 2, "prompt_tokens": 5})
            if p["kind"] == "cpu_preprocessing":
                p.update({"weeks": 0.04})
                p["cpu"]["data_gb"] = 200.4

    w, page = _open_project(make_window, tmp_path, qtbot, edit)
    i = _phase_of(page, "inference")
    page.list.setCurrentRow(i)
    assert page.weeks.value() == pytest.approx(2.3) and page.speed.value() in (12, 13)  # shown rounded
    assert page.context.value() == 16  # clamped to the box's range
    before = copy.deepcopy(page.project_data()["phases"][i])
    page.concurrency.setValue(60)
    after = page.project_data()["phases"][i]
    assert after["inference"].pop("concurrency") == 60
    before["inference"].pop("concurrency")
    assert after == before
    page.mode.setCurrentIndex(page.mode.findData("week"))  # a combo of the phase itself
    after = copy.deepcopy(page.project_data()["phases"][i])
    assert after.pop("rental_mode") == "week"
    assert after == {**before, "inference": {**before["inference"], "concurrency": 60}}
    # a box the user changes is the user's value from then on, also when another field changes afterwards
    page.weeks.setValue(3.0)
    page.precision.setCurrentIndex(page.precision.findData("fp8"))
    ph = page.project_data()["phases"][i]
    assert ph["weeks"] == 3.0 and ph["hours_per_week"] == 37.5 and ph["inference"]["precision"] == "fp8"
    assert ph["inference"]["tokens_per_s_per_user"] == 12.5 and ph["inference"]["context_tokens"] == 8
    # the CPU phase: weeks shown as 0.0 ("what the work takes") and 200.4 GB shown as 200 stay as they are
    c = _phase_of(page, "cpu_preprocessing")
    page.list.setCurrentRow(c)
    cpu_before = copy.deepcopy(page.project_data()["phases"][c])
    page.cores.setValue(32)
    cpu = page.project_data()["phases"][c]
    assert cpu["cpu"].pop("cores_per_node") == 32 and cpu_before["cpu"].pop("cores_per_node") == 64
    assert cpu == cpu_before
    # the name box: a phase's name is not rewritten by another edit either
    assert page.project_data()["phases"][c]["name"] == "clean and tokenise"


def test_serving_prompt_and_kv_precision_are_set_on_the_project_page(make_window, tmp_path, qtbot):
    """The serving phase's prompt length and KV-cache precision reach the project and the core's answer: fp8 KV
    holds half the bytes per token of bf16, so each request's KV cache halves."""
    w, page = _open_project(make_window, tmp_path, qtbot, lambda phases: None)
    i = _phase_of(page, "inference")
    page.list.setCurrentRow(i)
    assert page.prompt.value() == 0 and page.prompt.text() == page.prompt.specialValueText()  # the default
    assert page.kv_precision.currentData() is None
    res = page.result.phases[i].serving
    assert res.kv_precision == "bf16"
    page.kv_precision.setCurrentIndex(page.kv_precision.findData("fp8"))
    qtbot.waitUntil(lambda: page.result.phases[i].serving.kv_precision == "fp8", timeout=10000)
    # KV bytes per token: 2 (bf16) → 1 (fp8), same context: half the KV cache per request
    assert page.result.phases[i].serving.kv_cache_gib_per_request == pytest.approx(res.kv_cache_gib_per_request / 2)
    assert page.project_data()["phases"][i]["inference"]["kv_precision"] == "fp8"
    page.prompt.setValue(1000)
    qtbot.waitUntil(lambda: w.model.ui["project"]["phases"][i]["inference"].get("prompt_tokens") == 1000,
                    timeout=10000)
    page.prompt.setValue(0)  # back to the default: the key goes, the schema's context − answer applies
    assert "prompt_tokens" not in page.project_data()["phases"][i]["inference"]
    page.prompt.setValue(4000)  # 4000 + 512 > 4096: refused with one line, not stored in the document
    assert page.error and "\n" not in page.error
    assert "prompt_tokens" not in w.model.ui["project"]["phases"][i]["inference"]


def test_a_disabled_row_does_not_show_its_placeholder(page):
    """'vLLM default' in a disabled row read like a value: disabled, the row is drawn empty (the same pixels as
    without the placeholder); enabled, the placeholder is drawn."""
    edit = page.rollout_tp  # disabled for SFT
    assert not edit.isEnabled() and edit.placeholderText() and not edit.text()
    page.window().resize(1280, 800)
    page.window().show()
    shown = edit.grab().toImage()
    text = edit.placeholderText()
    edit.setPlaceholderText("")
    assert edit.grab().toImage() == shown
    edit.setPlaceholderText(text)
    edit.setEnabled(True)
    with_text = edit.grab().toImage()
    edit.setPlaceholderText("")
    assert edit.grab().toImage() != with_text
    edit.setPlaceholderText(text)


def test_project_serving_phase_sets_request_length_spread(make_window, tmp_path, qtbot):
    """inference.length_spread: shown at the schema's default ("fixed"); "sharegpt" stored once the lengths fit the
    ShareGPT filter, and the serving phase is computed with it."""
    path = tmp_path / "p.gpuplan"
    shutil.copy(EXAMPLE, path)
    w = make_window(search_enabled=False)
    assert w.open_path(path, show_errors=False)
    w.go_to(7)
    page = w.pages[7]
    qtbot.waitUntil(lambda: not page.busy() and page.result is not None, timeout=30000)
    i = next(k for k, p in enumerate(page.project_data()["phases"]) if p["kind"] == "inference")
    page.list.setCurrentRow(i)
    assert page.length_spread.currentData() == InferenceSpec().length_spread == "fixed"
    page.context.setValue(2048)
    page.output.setValue(194)
    page.prompt.setValue(226)
    page.length_spread.setCurrentIndex(page.length_spread.findData("sharegpt"))
    stored = lambda: w.model.ui["project"]["phases"][i]["inference"]  # noqa: E731
    qtbot.waitUntil(lambda: stored().get("length_spread") == "sharegpt", timeout=10000)
    qtbot.waitUntil(lambda: not page.busy() and page.result is not None
                    and page.result.phases[i].serving is not None, timeout=30000)


def test_cut_cross_entropy_is_unsloths_and_refused_for_other_tools(page):
    # training.cut_cross_entropy (issue 35 round 5): shown for Unsloth, written by the box; cleared under another
    # tool it is refused at the field, not stored, and the row stays in sight
    choose(page.framework, "unsloth")
    assert page.form.isRowVisible(page.cut_cross_entropy.box)
    page.cut_cross_entropy.setChecked(False)
    assert user(page).training.cut_cross_entropy is False
    page.cut_cross_entropy.setChecked(True)
    assert user(page).training.cut_cross_entropy is True
    choose(page.framework, "trl")
    assert user(page).training.framework == "trl"
    assert not page.form.isRowVisible(page.cut_cross_entropy.box)
    page.cut_cross_entropy.setChecked(False)
    assert "cut_cross_entropy" in page.cut_cross_entropy.box.error
    assert user(page).training.cut_cross_entropy is True


def test_leaving_unsloth_with_cut_cross_entropy_cleared_is_said(page):
    choose(page.framework, "unsloth")
    page.cut_cross_entropy.setChecked(False)
    choose(page.framework, "trl")  # an older Unsloth's loss is not TRL's: said at the field, not stored
    assert "cut_cross_entropy" in (page.framework.box.error or "")
    assert user(page).training.framework == "unsloth"
    assert page.form.isRowVisible(page.cut_cross_entropy.box)


def test_sample_length_spread_field(page):
    """data.sample_len_std (issue 35 round 8): set beside the mean sample length; a negative value, or a spread
    without a mean, is refused at the field in one line; it applies to padded batches only."""
    type_text(page.mean_sample_len, "")
    type_text(page.sample_len_std, "120")  # no mean sample length: refused, not stored
    refused(page.sample_len_std)
    assert user(page).data.sample_len_std is None
    type_text(page.mean_sample_len, "400")
    assert page.sample_len_std.isEnabled()
    type_text(page.sample_len_std, "150.5")
    assert user(page).data.sample_len_std == 150.5
    type_text(page.sample_len_std, "-1")
    refused(page.sample_len_std)
    assert user(page).data.sample_len_std == 150.5
    type_text(page.sample_len_std, "")  # empty: the default spread (0.46 × mean)
    assert user(page).data.sample_len_std is None
    page.packing.setChecked(True)  # packed rows carry no padding: the spread does not apply
    assert not page.sample_len_std.isEnabled()


def test_pad_to_seq_len_check(page):
    """training.pad_to_seq_len (issue 35 round 8): a check beside the sample length; off by default; not with packing."""
    assert not page.pad_to_seq_len.isChecked() and user(page).training.pad_to_seq_len is False
    page.pad_to_seq_len.setChecked(True)
    assert user(page).training.pad_to_seq_len is True
    page.padding_free.setChecked(True)
    assert not page.pad_to_seq_len.isEnabled()


def test_pad_to_seq_len_needs_a_mean_sample_length(page):
    """ux9: without a mean sample length every sample fills the sequence length, so "Pad to sequence length" has
    nothing to pad: greyed like the spread beside it, until a mean is set; a ticked box stays enabled (clearable)."""
    type_text(page.mean_sample_len, "")
    page.pad_to_seq_len.setChecked(False)
    assert not page.pad_to_seq_len.isEnabled() and not page.labels["pad_to_seq_len"].isEnabled()
    type_text(page.mean_sample_len, "400")
    assert page.pad_to_seq_len.isEnabled()
    page.pad_to_seq_len.setChecked(True)
    type_text(page.mean_sample_len, "")
    assert page.pad_to_seq_len.isEnabled()
    assert "mean sample length" in page.pad_to_seq_len.toolTip() or "mean sample length" in \
        page.labels["pad_to_seq_len"].toolTip()


def test_fused_cross_entropy_is_megatrons_and_refused_for_other_tools(page):
    # training.fused_cross_entropy (issue 35 round 8 xent8): shown for the Megatron tools; "framework default" keeps
    # null (Megatron-LM off, Megatron-Bridge on); set under another tool it is refused at the field, not stored
    choose(page.framework, "megatron")
    assert page.form.isRowVisible(page.fused_ce.box)
    choose(page.fused_ce, "on")
    assert user(page).training.fused_cross_entropy is True
    choose(page.fused_ce, "default")
    assert user(page).training.fused_cross_entropy is None
    choose(page.framework, "trl")
    assert not page.form.isRowVisible(page.fused_ce.box)
    choose(page.fused_ce, "off")
    assert "fused_cross_entropy" in (page.fused_ce.box.error or "")
    assert user(page).training.fused_cross_entropy is None


def test_completion_length_spread_field(page):
    """training.rl.response_len_std (issue 35 round 9, rllen9): an RL field; empty is the default spread (0.39 × the
    mean completion), a negative value is refused at the field in one line."""
    choose(page.objective, "sft")
    assert not page.response_len_std.isEnabled()
    choose(page.objective, "grpo")
    assert page.response_len_std.isEnabled()
    type_text(page.response_len_std, "96")
    assert user(page).training.rl.response_len_std == 96.0
    type_text(page.response_len_std, "-1")
    refused(page.response_len_std)
    assert user(page).training.rl.response_len_std == 96.0
    type_text(page.response_len_std, "")
    assert user(page).training.rl.response_len_std is None
