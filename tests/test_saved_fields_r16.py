"""Issue 35 round 16 (savefile16): saved documents keep which fields the user set.

Before this round the plan file (``io/planfile.to_data``), the autosave (which writes ``to_data``) and the project's
phase scenarios wrote every scenario field, so after Save and Open every field read as set by the user (pydantic
``model_fields_set``). Round 15 made the search try the memory savers the user left unset: after a save and a reopen
they read as set "off" and #1 changed. Round 14's request 02 (GRPO of Qwen2.5-32B, one week): #1 8 × A800 by the
card-hour, 2.5 days, ¥2,817 with vLLM asleep and the optimizer in CPU memory; after save + reopen a month of
8 × H200, ¥94,000. GRPO's β has the same trap (unset: TRL's 0.0, no reference model; written: 0.1): expert-review
``grpo-7b-lora`` went from 1 × A800, ¥28.9 to 1 × H800, ¥34.4 on save + reopen.

Every test here fails on main 96ef3860 (before the round), where the file holds every field and no ``saved_fields``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpuplanner.cli import run_cli
from gpuplanner.core.scenario import Scenario
from gpuplanner.io import planfile

ROOT = Path(__file__).resolve().parents[1]
REQ = ROOT / "docs" / "notes" / "2026-12-07" / "issue-35-r14-advice14-requests"
REQ02 = REQ / "02-grpo-32b-week.json"
GRPO_LORA = ROOT / "tests" / "data" / "expert_review" / "grpo-7b-lora.json"
JSONS = sorted([*ROOT.glob("examples/*.json"), *ROOT.glob("tests/data/expert_review*/*.json"), *REQ.glob("*.json")])


def fields_set(m, path: str = "scenario") -> dict[str, list[str]]:
    """``model_fields_set`` of ``m`` and of every nested model it holds, by dotted path (lists by index)."""
    out = {path: sorted(m.model_fields_set)}
    for name in type(m).model_fields:
        v = getattr(m, name)
        items = enumerate(v) if isinstance(v, list) else [(None, v)]
        for i, item in items:
            if hasattr(item, "model_fields_set"):
                out.update(fields_set(item, f"{path}.{name}" + ("" if i is None else f"[{i}]")))
    return out


def _reopen(doc: planfile.PlanDocument) -> planfile.PlanDocument:
    again, warnings = planfile.loads(planfile.dumps(doc), "saved.gpuplan")
    assert warnings == []
    return again


def _first(path: Path, capsys) -> dict:
    assert run_cli(["plan", str(path), "--top", "1", "--json"]) == 0
    p = json.loads(capsys.readouterr().out)["plans"][0]
    return {k: p[k] for k in ("gpu", "num_gpus", "framework", "calendar_days", "cost", "unrequested_savers")} | {
        "memory": p["memory_per_gpu_gib"]["total"]}


# ----------------------------------------------------------------------------------- 1: writers and readers

@pytest.mark.parametrize("path", JSONS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_open_save_open_keeps_the_fields_set_at_every_level(path):
    """A scenario JSON opened as a plan, saved and opened again, twice: the same ``model_fields_set`` in every
    section and sub-model, and the second save writes the same bytes as the first (nothing drifts)."""
    d = json.loads(path.read_text(encoding="utf-8"))
    doc, _ = planfile.from_data(d, path.name)
    want = fields_set(Scenario.model_validate(d))
    assert fields_set(doc.scenario) == want
    once = _reopen(doc)
    assert fields_set(once.scenario) == want
    assert once.scenario == doc.scenario
    twice = _reopen(once)
    assert fields_set(twice.scenario) == want
    assert planfile.dumps(twice) == planfile.dumps(once)


@pytest.mark.parametrize("src", [REQ02, GRPO_LORA], ids=["r14-request-02", "grpo-7b-lora"])
def test_save_and_reopen_gives_the_same_answer(src, tmp_path, capsys):
    """The CLI's #1 (its figures and the savers it applies) of a scenario JSON and of the plan file the app's writer
    makes of it are the same. Before: request 02's #1 went from 8 × A800 (¥2,817) to a month of 8 × H200
    (¥94,000), grpo-7b-lora's from 1 × A800 to 1 × H800 (β read as set 0.1)."""
    before = _first(src, capsys)
    doc, _ = planfile.from_data(json.loads(src.read_text(encoding="utf-8")), src.name)
    saved = tmp_path / "saved.gpuplan"
    planfile.save(doc, saved)
    assert _first(saved, capsys) == before
    again = tmp_path / "again.gpuplan"
    planfile.save(planfile.load(saved)[0], again)
    assert _first(again, capsys) == before
    if src == REQ02:
        assert before["unrequested_savers"] and before["gpu"] == "a800-sxm-80gb"


def test_the_file_holds_only_what_the_user_set():
    d = json.loads(REQ02.read_text(encoding="utf-8"))
    doc, _ = planfile.from_data(d, REQ02.name)
    data = planfile.to_data(doc)
    assert data["saved_fields"] == "set"
    # request 02 as written: no default added, in any section (values as the scenario holds them: "500M" is 5e8);
    # constraints.search_frameworks is the one value the scenario derives and marks set (core/scenario.py)
    assert {k: sorted(v) for k, v in data["scenario"].items()} == {
        k: sorted(v) + (["search_frameworks"] if k == "constraints" else []) for k, v in d.items()}
    assert "offload_optimizer" not in data["scenario"].get("parallel", {})
    assert "engine_sleep" not in data["scenario"]["training"].get("rl", {})


def test_selected_plan_and_project_phase_scenarios_keep_their_fields_set():
    """The selected plan's scenario and a project phase's own scenario are written with their set fields too (the
    Answer of a plan file is its selected plan: GRPO's β unset there must stay TRL's 0.0)."""
    from gpuplanner.core.project import Phase, Project

    d = json.loads(GRPO_LORA.read_text(encoding="utf-8"))
    s = Scenario.model_validate(d)
    plan = s.model_copy(update={"hardware": s.hardware.model_copy(update={"num_gpus": 2, "gpus_per_node": 8})})
    doc = planfile.new_document(s, selected_plan=planfile.SelectedPlan(gpu=s.hardware.gpu, num_gpus=2, scenario=plan),
                                project=Project(phases=[Phase(name="a", kind="training", scenario=s)]))
    again = _reopen(doc)
    assert fields_set(again.selected_plan.scenario) == fields_set(plan)
    assert "beta" not in again.selected_plan.scenario.training.preference.model_fields_set
    assert fields_set(again.project.phases[0].scenario) == fields_set(s)
    assert fields_set(again.scenario) == fields_set(s)


def test_a_field_assigned_in_place_is_written():
    """``doc.scenario.hardware.num_gpus = 16`` marks the field set, not the section: the writer keeps it anyway."""
    doc = planfile.new_document(Scenario.model_validate({"model": {"preset": "llama-3-8b"}}))
    doc.scenario.hardware.num_gpus = 16
    again = _reopen(doc)
    assert again.scenario.hardware.num_gpus == 16
    assert again.scenario.hardware.model_fields_set == {"num_gpus"}


def test_autosave_keeps_the_fields_set(tmp_path):
    from gpuplanner.io.autosave import AutosaveStore

    d = json.loads(REQ02.read_text(encoding="utf-8"))
    doc, _ = planfile.from_data(d, REQ02.name)
    store = AutosaveStore(root=tmp_path / "autosave")
    store.write(doc)
    data = json.loads(next((tmp_path / "autosave").glob("*")).read_text(encoding="utf-8"))
    assert data["plan"]["scenario"] == planfile.to_data(doc)["scenario"] and data["plan"]["saved_fields"] == "set"
    assert "offload_optimizer" not in data["plan"]["scenario"].get("parallel", {})
    again, _ = planfile.from_data(data["plan"], "autosave")
    assert fields_set(again.scenario) == fields_set(doc.scenario)


# ----------------------------------------------------------------------------------- 3: files of earlier versions

def _old_file(d: dict) -> dict:
    """Request 02 as an earlier version saved it: every field (the full dump), schema 6, no ``saved_fields``."""
    doc, _ = planfile.from_data(d, "x")
    return {"schema_version": planfile.CURRENT_SCHEMA, "title": "old",
            "scenario": Scenario.model_validate(d).model_dump(mode="json")}


def test_an_old_all_fields_file_keeps_every_field_as_set_and_says_so(tmp_path, capsys):
    """A plan of an earlier writer keeps every field as the user's (nothing it holds is reset to the tool's default:
    its #1 is what that version showed), and the open message names the savers it keeps off."""
    old = _old_file(json.loads(REQ02.read_text(encoding="utf-8")))
    doc, warnings = planfile.from_data(old, "old.gpuplan")
    assert doc.saved_fields == "all"
    assert fields_set(doc.scenario) == fields_set(Scenario.model_validate(old["scenario"]))
    assert len(warnings) == 1 and "saved by an earlier GPU Planner" in warnings[0]
    assert "parallel.offload_optimizer" in warnings[0] and "training.rl.engine_sleep" in warnings[0]
    f = tmp_path / "old.gpuplan"
    f.write_text(json.dumps(old), encoding="utf-8")
    first = _first(f, capsys)
    assert not first["unrequested_savers"]  # kept off, as the user's earlier file said
    # saved again by this version: the same fields, marked, and no message after
    planfile.save(doc, f)
    again, warnings = planfile.load(f)
    assert warnings == [] and again.saved_fields == "set"
    assert fields_set(again.scenario) == fields_set(doc.scenario)
    assert _first(f, capsys) == first


def test_the_same_fields_marked_set_open_without_the_message():
    old = _old_file(json.loads(REQ02.read_text(encoding="utf-8")))
    _doc, warnings = planfile.from_data({**old, "saved_fields": "set"}, "new.gpuplan")
    assert warnings == []


def test_a_scenario_json_opens_as_set_without_the_message():
    doc, warnings = planfile.from_data(json.loads(REQ02.read_text(encoding="utf-8")), "r.json")
    assert doc.saved_fields == "set"
    assert not any("earlier GPU Planner" in w for w in warnings)


# ----------------------------------------------------------------------------------- 5: hostile files

@pytest.mark.parametrize("value", [None, "SET", "all ", "", True, 1, 10 ** 400, [], {}, ["set"], "x" * 200_000,
                                   "set\n\x1b[31m", {"set": 1}])
def test_a_hostile_saved_fields_is_one_line_and_exit_2(value, tmp_path, capsys):
    base = json.loads((ROOT / "examples" / "8b-full-8xh100.gpuplan").read_text(encoding="utf-8"))
    f = tmp_path / "h.gpuplan"
    if value == 10 ** 400:
        f.write_text(json.dumps(base)[:-1] + ', "saved_fields": ' + str(value) + "}", encoding="utf-8")
    else:
        f.write_text(json.dumps({**base, "saved_fields": value}), encoding="utf-8")
    with pytest.raises(planfile.PlanFileError) as err:
        planfile.load(f)
    assert "saved_fields" in str(err.value) or "not valid JSON" in str(err.value)
    assert run_cli(["estimate", str(f)]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gpuplanner: error: h.gpuplan: ") and len(lines[0]) < 400, lines
    assert "\x1b" not in lines[0]


# ----------------------------------------------------------------------------------- 2: what the user never touched

def test_a_tools_recompute_default_is_not_the_users_choice():
    """``training.recompute`` filled in from the tool (TRL: full) stays unset: a save does not write it, and the
    next framework gets its own default (before round 16 an adopted Megatron-SWIFT plan left "megatron_selective"
    behind as the user's value, and a saved plan wrote it)."""
    s = Scenario.model_validate({"model": {"preset": "llama-3-8b"}, "training": {"framework": "trl"}})
    assert s.training.recompute == "full" and "recompute" not in s.training.model_fields_set
    assert "recompute" not in planfile.scenario_data(s)["training"]
    d = planfile.scenario_data(s)
    d["training"]["framework"] = "axolotl"
    assert Scenario.model_validate(d).training.recompute == "none"  # axolotl's own default
    mine = Scenario.model_validate({"training": {"framework": "trl", "recompute": "none"}})
    assert planfile.scenario_data(mine)["training"]["recompute"] == "none"  # the user's own value is kept


def test_quotes_save_keeps_the_fields_set(tmp_path, capsys):
    """``gpuplanner quotes FILE SHEET --save`` rewrites the plan file: its scenario keeps the fields the user set."""
    d = json.loads(REQ02.read_text(encoding="utf-8"))
    doc, _ = planfile.from_data(d, REQ02.name)
    f = tmp_path / "p.gpuplan"
    planfile.save(doc, f)
    sheet = ROOT / "examples" / "quotes" / "autodl-a800.csv"
    assert run_cli(["quotes", str(f), str(sheet), "--save"]) == 0
    capsys.readouterr()
    again, warnings = planfile.load(f)
    assert warnings == [] and again.quotes
    assert fields_set(again.scenario) == fields_set(doc.scenario)
