"""ScenarioModel: edits, pending invalid values, plan adoption (no window needed)."""

from __future__ import annotations

from gpuplanner.ui.model import ScenarioModel, default_scenario


def test_valid_edit_changes_scenario_and_emits_section(qtbot):
    m = ScenarioModel()
    with qtbot.waitSignal(m.changed) as blocker:
        assert m.set("training.seq_len", 8192) is None
    assert blocker.args == ["training"]
    assert m.scenario.training.seq_len == 8192
    assert m.dirty


def test_invalid_edit_is_kept_pending_with_reason_and_scenario_unchanged(qtbot):
    m = ScenarioModel()
    # a layout of the user's own (the automatic layout picks TP/PP to keep any batch): 8 GPUs, micro-batch 1,
    # no TP/PP, so the global batch must be a multiple of 8
    assert m.set("parallel.auto", False) is None
    before = m.scenario.training.global_batch_size
    err = m.set("training.global_batch_size", 63)
    assert err and "multiple" in err
    assert m.scenario.training.global_batch_size == before
    assert m.value("training.global_batch_size") == 63          # nothing typed is lost
    assert m.error("training.global_batch_size") == err
    # another valid edit still applies while the first stays pending
    assert m.set("training.seq_len", 1024) is None
    assert m.scenario.training.seq_len == 1024
    assert m.error("training.global_batch_size")
    # fixing it clears the error
    assert m.set("training.global_batch_size", 64) is None
    assert m.error("training.global_batch_size") is None
    assert m.scenario.training.global_batch_size == 64


def test_cross_field_rule_becomes_valid_when_other_field_changes():
    m = ScenarioModel()
    m.set("parallel.auto", False)
    assert m.set("training.global_batch_size", 48) is None  # a multiple of both 8 and 12
    assert m.set("hardware.num_gpus", 12)  # 12 GPUs: not whole nodes of 8
    assert m.scenario.hardware.num_gpus == 8
    assert m.set("hardware.gpus_per_node", 4) is None  # now 12 = 3 nodes of 4: the pending value applies
    assert m.scenario.hardware.num_gpus == 12
    assert not m.errors()


def test_apply_plan_keeps_user_scenario_for_the_search():
    m = ScenarioModel()
    user_gbs = m.scenario.training.global_batch_size
    m.apply_plan({"hardware.num_gpus": 16, "training.global_batch_size": 128, "parallel.zero": 1})
    assert m.scenario.hardware.num_gpus == 16 and m.scenario.training.global_batch_size == 128
    u = m.user_scenario()
    assert u.hardware.num_gpus == 8 and u.training.global_batch_size == user_gbs and u.parallel.zero == 3
    # the user editing an adopted field makes it theirs
    m.set("training.global_batch_size", 256)
    assert m.user_scenario().training.global_batch_size == 256


def test_load_resets_document():
    m = ScenarioModel()
    m.set("training.global_batch_size", 63)
    s = default_scenario().model_copy(update={"data": default_scenario().data.model_copy(update={"tokens": 5e9})})
    m.load(s, title="x")
    assert not m.errors() and not m.dirty
    assert m.ui["tokens_text"] == "5B"


def test_load_keeps_an_input_state_that_describes_the_scenario_and_derives_one_that_does_not():
    """The scenario's values are what a plan means; the input state is how they were typed (ui_state)."""
    s = default_scenario()
    s = s.model_copy(update={"data": s.data.model_copy(update={"tokens": 250000 * 1536 * 3.0, "mean_sample_len": 1536}),
                             "constraints": s.constraints.model_copy(update={"hours_per_week": 60.0})})
    typed = {"data_mode": "samples", "samples": 250000, "avg_len": 1536, "epochs": 3.0, "work_mode": "weekly",
             "deadline_mode": "days"}
    m = ScenarioModel()
    m.load(s, ui=typed)
    assert {k: m.ui[k] for k in typed} == typed
    # 2 epochs of the same samples are not the plan's 1.152B tokens; "continuous" is not 60 hours a week
    m.load(s, ui={**typed, "epochs": 2.0, "work_mode": "continuous", "deadline_mode": "none"})
    assert (m.ui["data_mode"], m.ui["tokens_text"], m.ui["epochs"]) == ("tokens", "1.152B", 1.0)
    assert (m.ui["work_mode"], m.ui["deadline_mode"]) == ("weekly", "days")
    assert m.scenario == s and not m.dirty
    # samples × 1,536 is the scenario's mean sample length (one value); a scenario whose samples fill the sequence
    # length is not those samples: described as its tokens, the scenario unchanged
    short = s.model_copy(update={"data": s.data.model_copy(update={"mean_sample_len": None})})
    m.load(short, ui=typed)
    assert (m.ui["data_mode"], m.ui["tokens_text"], m.ui["epochs"]) == ("tokens", "1.152B", 1.0)
    assert m.scenario == short and not m.dirty
