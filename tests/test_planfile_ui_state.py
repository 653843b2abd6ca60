"""Schema 5: the app's input state is the typed ``ui_state`` of the plan file, migrated from ``results.app_ui``.

``tests/data/plans/v4-app-ui.gpuplan`` is a schema 4 file as the app saved it (GPU Planner before schema 5, data
described as 250,000 samples × 1,536 tokens × 3 epochs, weekly hours, no deadline, batch as accumulation steps):
its input state lived in the free-form ``results.app_ui``. ``v5.gpuplan`` is the same kind of state, typed.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from gpuplanner.cli import run_cli
from gpuplanner.io import planfile
from gpuplanner.io.planfile import CURRENT_SCHEMA, PlanFileError, UiState

PLANS = Path(__file__).parent / "data" / "plans"
V4_APP_UI = PLANS / "v4-app-ui.gpuplan"

#: what the schema 4 file's results.app_ui said (read from the file by hand)
V4_INPUTS = {"data_mode": "samples", "tokens_text": "2B", "samples": 250000, "avg_len": 1536, "dataset_gb": 10.0,
             "language": "en", "tokens_per_gb": 250000000.0, "epochs": 3.0, "batch_mode": "accum",
             "deadline_mode": "none", "deadline_date": "", "work_mode": "weekly", "selected_plan": 0}



def _without_note(warnings: list[str]) -> list[str]:
    """The warnings less round 16's note on a plan an earlier version wrote with every field (the schema 4 fixture
    writes the optimizer offload off: tests/test_saved_fields_r16.py checks the note)."""
    return [w for w in warnings if "saved by an earlier GPU Planner" not in w]

def _v4() -> dict:
    return json.loads(V4_APP_UI.read_text(encoding="utf-8"))


def test_the_fixture_is_schema_4_with_app_ui():
    data = _v4()
    assert data["schema_version"] == 4 and "app_ui" in data["results"]
    assert set(data["ui_state"]) == {"current_page"}
    # 250,000 samples × 1,536 tokens × 3 epochs: the scenario holds the product, the UI state how it was typed
    assert data["scenario"]["data"]["tokens"] == 250000 * 1536 * 3


def test_schema_4_app_ui_becomes_the_typed_ui_state():
    doc, warnings = planfile.load(V4_APP_UI)
    # an earlier version's app wrote every field: the optimizer offload it writes off stays off, and it says so
    # (round 16, tests/test_saved_fields_r16.py)
    assert warnings[1].startswith("v4-app-ui.gpuplan: saved by an earlier GPU Planner") and len(warnings) == 2
    warnings = _without_note(warnings)
    assert warnings == [f"v4-app-ui.gpuplan: written in plan format 4; saving will upgrade it to format {CURRENT_SCHEMA}"]
    assert doc.ui_state.current_page == "data"
    assert doc.ui_state.inputs() == V4_INPUTS
    assert "app_ui" not in doc.results and "estimate" in doc.results  # moved, nothing else touched
    assert doc.unknown_fields == {}


def test_save_writes_schema_5_and_reopens_with_the_same_state(tmp_path):
    doc, _ = planfile.load(V4_APP_UI)
    path = tmp_path / "p.gpuplan"
    planfile.save(doc, path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["schema_version"] == CURRENT_SCHEMA == 6
    assert "app_ui" not in data["results"]
    assert data["ui_state"] == {"current_page": "data", **V4_INPUTS}
    again, warnings = planfile.load(path)
    assert warnings == [] and again.ui_state == doc.ui_state and again.scenario == doc.scenario


def test_the_v5_fixture_opens_cleanly_with_its_state():
    doc, warnings = planfile.load(PLANS / "v5.gpuplan")
    assert warnings == [f"v5.gpuplan: written in plan format 5; saving will upgrade it to format {CURRENT_SCHEMA}"]
    ui = doc.ui_state
    assert (ui.data_mode, ui.dataset_gb, ui.tokens_per_gb, ui.epochs, ui.language) == ("bytes", 1.0, 2.5e8, 2.0, "code")
    # 1 GB × 250M tokens per GB × 2 epochs is the scenario's data volume
    assert ui.dataset_gb * ui.tokens_per_gb * ui.epochs == doc.scenario.data.tokens == 5e8
    assert (ui.deadline_mode, ui.deadline_date, ui.work_mode, ui.batch_mode) == ("date", "2026-03-01", "weekly", "accum")
    assert ui.selected_plan == 2 and ui.current_page == "data"


def test_entries_kept_elsewhere_are_dropped_by_the_migration():
    data = _v4()
    data["results"]["app_ui"].update(page=4, checklist={"driver_cuda": {"checked": True}},
                                     project={"phases": []}, custom_gpus=[])
    migrated, original = planfile.migrate(data, "x")
    assert original == 4 and migrated["schema_version"] == CURRENT_SCHEMA
    assert "app_ui" not in migrated["results"]
    assert not {"page", "checklist", "project", "custom_gpus"} & set(migrated["ui_state"])
    assert migrated["ui_state"]["current_page"] == "data"  # where the page is kept, not app_ui's page


def test_a_value_the_file_already_types_wins_over_app_ui():
    data = _v4()
    data["ui_state"]["epochs"] = 2.0  # a hand-edited schema 4 file
    doc, warnings = planfile.from_data(data, "h.gpuplan")
    warnings = _without_note(warnings)
    assert doc.ui_state.epochs == 2.0
    assert doc.results["app_ui"] == {"epochs": 3.0}  # the other value is kept where it was, and reported
    assert "results.app_ui" in warnings[-1] and "epochs" in warnings[-1]


HOSTILE_APP_UI = {
    "wrong-types": {"epochs": "three", "samples": True, "avg_len": 1.5, "data_mode": 7},
    "huge-strings": {"tokens_text": "9" * 2_000_000, "deadline_date": "x" * 100_000, "data_mode": "s" * 50_000},
    "nesting": {"epochs": [[[[[[[[1]]]]]]]], "tokens_text": {"a": {"b": {"c": "2B"}}}, "language": [["en"]]},
    "out-of-range": {"epochs": 0, "samples": -1, "avg_len": 10 ** 30, "tokens_per_gb": -2.5e8, "selected_plan": -3},
    "bad-values": {"data_mode": "lines", "tokens_text": "lots", "deadline_date": "1 March", "language": "fr"},
    "odd-keys": {"\u202eevil\nkey": 1, "x" * 500: 2, "": 3},
}


@pytest.mark.parametrize("case", sorted(HOSTILE_APP_UI))
def test_hostile_app_ui_gives_one_warning_and_keeps_the_good_entries(case):
    data = _v4()
    bad = HOSTILE_APP_UI[case]
    data["results"]["app_ui"].update(copy.deepcopy(bad))
    doc, warnings = planfile.from_data(data, "h.gpuplan")
    warnings = _without_note(warnings)
    assert len(warnings) == 2 and warnings[0].startswith("h.gpuplan: written in plan format 4")
    line = warnings[1]
    assert line.startswith("h.gpuplan: input settings that are not valid were left in results.app_ui and not used: ")
    assert "\n" not in line and "\u202e" not in line and len(line) <= 1000
    # every good entry moved; every bad one stayed (nothing is lost) and none reached the typed state
    inputs = doc.ui_state.inputs()
    for key, value in V4_INPUTS.items():
        if key not in bad:
            assert inputs[key] == value
    assert set(doc.results["app_ui"]) == set(bad)
    assert not set(bad) & set(inputs)


def test_app_ui_that_is_not_an_object_is_reported_and_kept():
    data = _v4()
    data["results"]["app_ui"] = ["samples", 250000]
    doc, warnings = planfile.from_data(data, "h.gpuplan")
    warnings = _without_note(warnings)
    assert warnings[-1] == ("h.gpuplan: input settings that are not valid were left in results.app_ui and not used: "
                            "(not an object)")
    assert doc.results["app_ui"] == ["samples", 250000] and doc.ui_state.inputs() == {}


HOSTILE_UI_STATE = {
    "text-for-number": ({"epochs": "3"}, "field ui_state.epochs: Input should be a valid number"),
    "bool-for-count": ({"samples": True}, "field ui_state.samples: Input should be a valid integer"),
    "huge-string": ({"tokens_text": "9" * 1_000_000}, "field ui_state.tokens_text: String should have at most 100"),
    "nesting": ({"data_mode": [[[["tokens"]]]]}, "field ui_state.data_mode: Input should be 'tokens', 'samples' or"),
    "not-a-count": ({"tokens_text": "lots"}, "field ui_state.tokens_text: 'lots' is not a count"),
    "zero-epochs": ({"epochs": 0}, "field ui_state.epochs: Input should be greater than 0"),
    "bad-date": ({"deadline_date": "tomorrow"}, "field ui_state.deadline_date: String should match pattern"),
    "not-an-object": ("data", "field ui_state: Input should be a valid dictionary"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE_UI_STATE))
def test_schema_5_ui_state_is_validated_with_one_line(tmp_path, case):
    value, expected = HOSTILE_UI_STATE[case]
    data = json.loads((PLANS / "v5.gpuplan").read_text(encoding="utf-8"))
    data["ui_state"] = {**data["ui_state"], **value} if isinstance(value, dict) else value
    path = tmp_path / "bad.gpuplan"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(PlanFileError) as info:
        planfile.load(path)
    msg = str(info.value)
    assert msg.startswith("bad.gpuplan: invalid plan (") and expected in msg, msg
    assert "\n" not in msg and len(msg) < 400


def test_unknown_ui_state_keys_follow_the_unknown_field_policy(tmp_path):
    data = json.loads((PLANS / "v5.gpuplan").read_text(encoding="utf-8"))
    data["ui_state"]["zoom"] = 1.25
    doc, warnings = planfile.from_data(data, "z.gpuplan")
    assert doc.unknown_fields == {"ui_state": {"zoom": 1.25}}
    assert "ui_state.zoom" in warnings[-1]
    path = tmp_path / "z.gpuplan"
    planfile.save(doc, path)
    assert json.loads(path.read_text(encoding="utf-8"))["ui_state"]["zoom"] == 1.25


def test_valid_entries_checks_each_key_alone():
    good, bad = UiState.valid_entries({"epochs": 2, "samples": "many", "nope": 1, "work_mode": None})
    assert good == {"epochs": 2} and set(bad) == {"samples", "nope", "work_mode"}


@pytest.mark.parametrize("name", ["v4-app-ui.gpuplan", "v5.gpuplan"])
def test_cli_estimate_reads_both_schemas(name, capsys):
    doc, _ = planfile.load(PLANS / name)
    assert run_cli(["estimate", str(PLANS / name), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["scenario"]["data"]["tokens"] == planfile.selected_scenario(doc).data.tokens
    want = planfile.selected_scenario(doc)
    if doc.selected_plan is None and want.parallel.auto:
        # automatic layout, nothing selected: the file stands for the search's #1 (gpuplanner.app.answer.decide)
        from gpuplanner.core.search import search

        want = search(want, top=1).plans[0].scenario
    assert out["num_gpus"] == want.hardware.num_gpus
