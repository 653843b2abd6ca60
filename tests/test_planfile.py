"""The .gpuplan format: round trips, migrations, unknown fields, bad files, atomic save, embedding, CLI."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import pytest

from gpuplanner.core.architecture import get_preset, resolve_arch
from gpuplanner.core.errors import PlannerError, ScenarioError
from gpuplanner.core.estimate import estimate
from gpuplanner.core.scenario import scenario_from_dict
from gpuplanner.io.model_files import ModelFiles
from gpuplanner.io.scenario_files import load_scenario
from gpuplanner.io import planfile
from gpuplanner.io.planfile import (
    CURRENT_SCHEMA,
    MIGRATIONS,
    BenchmarkResult,
    ChecklistItem,
    PlanDocument,
    PlanFileError,
    SelectedPlan,
    UiState,
)

ROOT = Path(__file__).resolve().parents[1]
PLANS = Path(__file__).parent / "data" / "plans"
EXAMPLES = ROOT / "examples"

# The fixtures are a compatibility promise: a file of each schema, kept byte-for-byte forever.
FIXTURE_SHA256 = {
    "v1.gpuplan": "06ef48631e3c3d4d802d5d761d354b82fa80c90ac0fd7242b9fb7df4dae12a35",
    "v2.gpuplan": "aea0a61738abfc5d7c55521d4c8d1b0bea7fad0f1f9c25e09ee42ca3719b1a51",
    "v3.gpuplan": "9510ea7d7c2806ca470ebc0364c0207599059c5b80f6734ed14e11dda84d8ccc",
    "v4.gpuplan": "7ca4a4eb881b5a82273a688b2c46f682a992c1506d3288cf36a45849f802cffa",
    "v5.gpuplan": "cbce2f1533fa478277caca4a6edfc609a14196583d0b11cbcb975d9ec6fe1fb3",
    "v6.gpuplan": "269b61aff47caf6fc0260dd63951a369df6d2b95e6885b77bd0efaa84ab2a226",
    # schema 4 as the app saved it (its input state in results.app_ui): tests/test_planfile_ui_state.py
    "v4-app-ui.gpuplan": "bfbef0ab5ac9655004fa4ba89d0fcdc1fd861417ed553332450d1a4dbedeff11",
}


def _doc() -> PlanDocument:
    scenario = scenario_from_dict({
        "model": {"preset": "llama-3-8b"},
        "training": {"method": "full", "seq_len": 4096, "micro_batch_size": 1, "global_batch_size": 32,
                     "recompute": "full"},
        "parallel": {"zero": 3},
        "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8},
        "data": {"tokens": "2B"},
        "constraints": {"deadline_days": 10, "budget": 50000, "currency": "USD"},
    })
    doc = planfile.new_document(scenario, title="Llama 3 8B — 全参数微调", notes="line one\nline two")
    doc.price_snapshot = planfile.price_snapshot(["h100-sxm-80gb"], "USD")
    doc.selected_plan = SelectedPlan(gpu="h100-sxm-80gb", num_gpus=8, gpus_per_node=8, parallel=scenario.parallel,
                                     provider="Lambda", currency="USD", card_hour=3.99)
    doc.vendor_checklist = [ChecklistItem(id="nvlink_topology", checked=True, note="NV18 everywhere"),
                            ChecklistItem(id="billing_terms")]
    doc.benchmarks = [BenchmarkResult(name="nccl_all_reduce_busbw", value=370.2, unit="GB/s", num_gpus=8,
                                      measured_at=datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc))]
    doc.ui_state = UiState(current_page="time")
    doc.results = estimate(scenario).to_json()
    return doc


# ------------------------------------------------------------------------------------------ round trip

def test_round_trip_keeps_document_scenario_and_results(tmp_path):
    doc = _doc()
    path = tmp_path / "plan.gpuplan"
    assert planfile.save(doc, path) == []
    loaded, warnings = planfile.load(path)
    assert warnings == []
    assert loaded == doc
    assert loaded.scenario == doc.scenario
    # the results stored in the file are the estimate of the scenario read back
    assert loaded.results == estimate(loaded.scenario).to_json() == doc.results
    assert loaded.checklist_state() == {"nvlink_topology": True, "billing_terms": False}
    # saving again without changes writes identical bytes
    first = path.read_bytes()
    planfile.save(loaded, path, touch=False)
    assert path.read_bytes() == first


def test_file_is_human_diffable_json(tmp_path):
    doc = _doc()
    path = tmp_path / "plan.gpuplan"
    planfile.save(doc, path)
    text = path.read_text(encoding="utf-8")
    assert text.endswith("}\n") and not text.endswith("\n\n")
    assert "全参数微调" in text  # UTF-8, not \u escapes
    data = json.loads(text)
    assert text == json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    assert data["schema_version"] == CURRENT_SCHEMA
    # null fields with a null default are left out; set ones are kept
    assert "hf_config" not in data["scenario"]["model"]
    assert data["scenario"]["model"] == {"preset": "llama-3-8b"}
    assert data["scenario"]["constraints"]["budget"] == 50000


def test_modified_advances_on_save_created_does_not(tmp_path):
    doc = _doc()
    doc.created = doc.modified = datetime(2025, 1, 1, tzinfo=timezone.utc)
    planfile.save(doc, tmp_path / "p.gpuplan")
    assert doc.created == datetime(2025, 1, 1, tzinfo=timezone.utc)
    assert doc.modified > datetime(2025, 1, 1, tzinfo=timezone.utc)


# ----------------------------------------------------------------------------------------- examples

EXAMPLE_FILES = sorted(EXAMPLES.glob("*.gpuplan"))


def test_four_examples_exist():
    names = {p.name for p in EXAMPLE_FILES}
    assert {"7b-lora-1x4090.gpuplan", "8b-full-8xh100.gpuplan", "70b-cpt-64xh100.gpuplan",
            "qwen3-moe-full-16xh100.gpuplan"} <= names


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.name)
def test_examples_open_cleanly_and_fit(path):
    doc, warnings = planfile.load(path)
    assert warnings == []
    est = estimate(doc.scenario)
    assert est.memory.fits
    # exact parameter counts do not drift: the stored results match a fresh count
    assert doc.results["params"]["total"] == est.params.total
    assert doc.selected_plan.gpu == doc.scenario.hardware.gpu
    assert all(row.gpu == doc.scenario.hardware.gpu for row in doc.price_snapshot.prices)


def test_example_models_are_the_ones_the_issue_names():
    got = {p.name: planfile.load(p)[0].scenario for p in EXAMPLE_FILES}
    lora = got["7b-lora-1x4090.gpuplan"]
    assert (lora.training.method, lora.hardware.num_gpus) == ("lora", 1)
    assert "24gb" in lora.hardware.gpu
    full = got["8b-full-8xh100.gpuplan"]
    assert (full.model.preset, full.training.method, full.hardware.num_gpus) == ("llama-3-8b", "full", 8)
    cpt = got["70b-cpt-64xh100.gpuplan"]
    assert (cpt.model.preset, cpt.training.method, cpt.hardware.num_gpus) == ("llama-3-70b", "pretrain", 64)
    moe = got["qwen3-moe-full-16xh100.gpuplan"]
    assert moe.model.preset.startswith("qwen") and get_preset(moe.model.preset).arch.is_moe


# --------------------------------------------------------------------------------------- migrations

def test_fixture_per_schema_and_unchanged():
    for version in range(1, CURRENT_SCHEMA + 1):
        path = PLANS / f"v{version}.gpuplan"
        assert path.exists(), f"keep a fixture of schema {version} forever"
        assert hashlib.sha256(path.read_bytes()).hexdigest() == FIXTURE_SHA256[path.name], \
            f"{path.name} changed: fixtures are frozen, add a new one instead"
        assert json.loads(path.read_text(encoding="utf-8"))["schema_version"] == version


def test_every_fixture_is_frozen():
    for path in PLANS.glob("*.gpuplan"):
        assert hashlib.sha256(path.read_bytes()).hexdigest() == FIXTURE_SHA256.get(path.name), \
            f"{path.name} changed or is new without a frozen hash: fixtures are kept byte for byte"


def test_every_old_schema_has_a_migration():
    assert set(MIGRATIONS) == set(range(1, CURRENT_SCHEMA))


def test_v1_fixture_migrates_to_the_v2_layout():
    doc, warnings = planfile.load(PLANS / "v1.gpuplan")
    assert warnings == [f"v1.gpuplan: written in plan format 1; saving will upgrade it to format {CURRENT_SCHEMA}"]
    assert doc.title == "Llama 3 8B LoRA pilot"
    assert doc.created == doc.modified == datetime(2025, 6, 1, 8, 30, tzinfo=timezone.utc)
    c = doc.scenario.constraints
    assert (c.deadline_days, c.budget, c.currency, c.max_gpus) == (5, 20000, "CNY", 8)
    assert doc.scenario.training.lora_rank == 32 and doc.scenario.data.tokens == 500e6
    assert doc.checklist_state() == {"driver_cuda": False, "gpu_model_and_memory": True}
    assert doc.ui_state.current_page == "memory"
    assert doc.price_snapshot.prices[0].card_hour == 1.79
    assert doc.selected_plan.provider == "RunPod Secure"
    assert doc.app_version == "0.0.9"  # the version that wrote it, until it is saved again


def test_v1_and_v2_fixtures_describe_the_same_plan():
    v1, _ = planfile.load(PLANS / "v1.gpuplan")
    v2, warnings = planfile.load(PLANS / "v2.gpuplan")
    assert warnings == [f"v2.gpuplan: written in plan format 2; saving will upgrade it to format {CURRENT_SCHEMA}"]
    only_v2 = {"app_version", "benchmarks", "results"}  # v2 additions and the writer's version
    assert v1.model_dump(exclude=only_v2) == v2.model_dump(exclude=only_v2)
    assert v2.benchmarks[0].value == 231.5


def test_v2_selection_becomes_a_complete_scenario():
    """Schema 2 → 3: the selected plan's GPU, count and (partial) layout and its own quote become a complete
    scenario, which the CLI, the report and the app evaluate as it is; ``days`` is ``calendar_days``."""
    v2, _ = planfile.load(PLANS / "v2.gpuplan")
    v3, warnings = planfile.load(PLANS / "v3.gpuplan")
    assert warnings == [f"v3.gpuplan: written in plan format 3; saving will upgrade it to format {CURRENT_SCHEMA}"]
    assert v2.model_dump(exclude={"app_version"}) == v3.model_dump(exclude={"app_version"})
    sel = v3.selected_plan.scenario
    assert sel is not None and v3.selected_plan.parallel is None
    assert (sel.hardware.gpu, sel.hardware.num_gpus) == ("a100-sxm-80gb", 4)
    quote = sel.constraints.prices["a100-sxm-80gb"]
    assert (quote.card_hour, quote.currency, quote.provider) == (1.79, "USD", "RunPod Secure")
    # everything else is the document's scenario
    assert sel.training == v3.scenario.training and sel.model == v3.scenario.model


def test_v2_partial_layout_keeps_what_the_file_says():
    data = json.loads((PLANS / "v2.gpuplan").read_text(encoding="utf-8"))
    data["scenario"]["training"]["framework"] = "megatron"
    data["selected_plan"]["parallel"] = {"tp": 2, "pp": 1, "zero": 1, "vpp": 1}
    data["selected_plan"]["num_gpus"] = 4
    data["selected_plan"]["days"] = 2.5
    migrated, original = planfile.migrate(data, "x")
    assert original == 2
    par = migrated["selected_plan"]["scenario"]["parallel"]
    # what the file gave is kept; what it left out is what that version's search assumed
    assert (par["tp"], par["zero"], par["sequence_parallel"], par["offload_optimizer"]) == (2, 1, True, False)
    assert migrated["selected_plan"]["calendar_days"] == 2.5 and "days" not in migrated["selected_plan"]
    # a selection that cannot be a valid scenario keeps its partial layout (nothing is dropped)
    data["selected_plan"]["parallel"] = {"tp": 3}
    migrated, _ = planfile.migrate(data, "x")
    assert "scenario" not in migrated["selected_plan"] and migrated["selected_plan"]["parallel"] == {"tp": 3}


def test_saving_a_v1_file_writes_schema_2(tmp_path):
    path = tmp_path / "old.gpuplan"
    shutil.copy(PLANS / "v1.gpuplan", path)
    doc, _ = planfile.load(path)
    planfile.save(doc, path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["schema_version"] == CURRENT_SCHEMA and data["title"] == "Llama 3 8B LoRA pilot" and "name" not in data
    assert (tmp_path / "old.gpuplan.bak").read_bytes() == (PLANS / "v1.gpuplan").read_bytes()
    again, warnings = planfile.load(path)
    assert warnings == [] and again.scenario == doc.scenario


def test_migration_does_not_touch_the_input():
    data = json.loads((PLANS / "v1.gpuplan").read_text(encoding="utf-8"))
    before = json.dumps(data, sort_keys=True)
    migrated, original = planfile.migrate(data, "x")
    assert original == 1 and migrated["schema_version"] == CURRENT_SCHEMA
    assert json.dumps(data, sort_keys=True) == before


def test_v1_unknown_goal_keys_survive_migration():
    data = json.loads((PLANS / "v1.gpuplan").read_text(encoding="utf-8"))
    data["goal"]["carbon_cap_kg"] = 12
    doc, warnings = planfile.from_data(data, "g.gpuplan")
    assert doc.unknown_fields == {"scenario": {"constraints": {"carbon_cap_kg": 12}}}
    assert "scenario.constraints.carbon_cap_kg" in warnings[-1]


# ------------------------------------------------------------------------------------ unknown fields

def test_unknown_fields_are_reported_kept_and_written_back(tmp_path):
    data = planfile.to_data(_doc())
    data["future_section"] = {"a": [1, 2, {"b": None}]}
    data["scenario"]["training"]["new_knob"] = "turbo"
    data["vendor_checklist"][0]["colour"] = "green"
    data["price_snapshot"]["prices"][0]["tax_rate"] = 0.06  # price rows keep extra columns as data
    path = tmp_path / "newer.gpuplan"
    path.write_text(json.dumps(data), encoding="utf-8")

    doc, warnings = planfile.load(path)
    assert warnings == ["newer.gpuplan: unknown fields kept as they are (made by a newer GPU Planner?): "
                        "future_section, scenario.training.new_knob, vendor_checklist[0].colour"]
    assert doc.unknown_fields == {"future_section": {"a": [1, 2, {"b": None}]},
                                  "scenario": {"training": {"new_knob": "turbo"}},
                                  "vendor_checklist": {0: {"colour": "green"}}}
    assert doc.price_snapshot.prices[0].tax_rate == 0.06

    doc.title = "edited"
    planfile.save(doc, path)
    out = json.loads(path.read_text(encoding="utf-8"))
    assert out["future_section"] == {"a": [1, 2, {"b": None}]}
    assert out["scenario"]["training"]["new_knob"] == "turbo"
    assert out["vendor_checklist"][0]["colour"] == "green"
    assert out["price_snapshot"]["prices"][0]["tax_rate"] == 0.06
    assert out["title"] == "edited"
    again, warnings2 = planfile.load(path)
    assert again.unknown_fields == doc.unknown_fields and len(warnings2) == 1


def test_many_unknown_fields_are_summarised():
    data = planfile.to_data(_doc())
    for i in range(11):
        data[f"x{i:02d}"] = i
    _, warnings = planfile.from_data(data, "m.gpuplan")
    assert warnings[0].endswith("x00, x01, x02, x03, x04, x05, x06, x07 and 3 more")


def test_odd_unknown_keys_are_quoted_on_one_line():
    # found by the 10k fuzz: a key "\n" broke the one-line warning
    data = planfile.to_data(_doc())
    data["\n"] = None
    data["scenario"]["model"]["a b\u2028c"] = 1
    doc, warnings = planfile.from_data(data, "k.gpuplan")
    assert warnings == ['k.gpuplan: unknown fields kept as they are (made by a newer GPU Planner?): '
                        '"\\n", scenario.model."a b\\u2028c"']
    assert planfile.to_data(doc)["\n"] is None


def test_plain_scenario_json_opens_as_a_new_plan(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"model": {"preset": "llama-3-8b"}, "hardware": {"num_gpus": 8}}), encoding="utf-8")
    doc, warnings = planfile.load(path)
    assert warnings == ["s.json: a scenario file, opened as a new plan"]
    assert doc.scenario.hardware.num_gpus == 8 and doc.title == ""


# ----------------------------------------------------------------------------------------- bad files

def _valid_bytes() -> bytes:
    return (PLANS / "v2.gpuplan").read_bytes()


def _v2_with(**changes) -> bytes:
    data = json.loads(_valid_bytes())
    for dotted, value in changes.items():
        node = data
        keys = dotted.split("__")
        for k in keys[:-1]:
            node = node[k]
        node[keys[-1]] = value
    return json.dumps(data).encode()


BAD = {
    "not-json": (b"{not json", "bad.gpuplan: not valid JSON (line 1, column 2: a key in double quotation marks "
                               "was expected)"),  # Python's reason, translatable (ux23)
    "truncated": (_valid_bytes()[:300], "bad.gpuplan: not valid JSON: the file ends too early (truncated?)"),
    "truncated-in-string": (b'{"schema_version": 2, "title": "abc',
                            "bad.gpuplan: not valid JSON: the file ends too early (truncated?)"),
    "binary": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "bad.gpuplan: binary data, not a plan file"),
    "not-utf8": (b'{"title": "\xff"}', "bad.gpuplan: not UTF-8 text (invalid byte at offset 11)"),
    "utf16": ('{"schema_version": 2}'.encode("utf-16"), "bad.gpuplan: UTF-16 text; plan files are UTF-8"),
    "empty": (b"  \n", "bad.gpuplan: empty file, not a plan"),
    "list": (b"[1, 2]", "bad.gpuplan: not a plan: expected a JSON object, found a list"),
    "no-schema": (b'{"title": "x", "whatever": 1}', "bad.gpuplan: not a GPU Planner plan (no schema_version)"),
    "schema-text": (b'{"schema_version": "2"}',
                    "bad.gpuplan: not a GPU Planner plan (field schema_version: must be a whole number)"),
    "schema-zero": (b'{"schema_version": 0}',
                    "bad.gpuplan: not a GPU Planner plan (field schema_version: 0 is not a schema number)"),
    "newer-major": (b'{"schema_version": 7, "scenario": {}}',
                    "bad.gpuplan: made by a newer GPU Planner (schema 7); this version reads up to 6"),
    "wrong-type": (_v2_with(scenario__training__seq_len="long"),
                   "bad.gpuplan: invalid plan (field scenario.training.seq_len: Input should be a valid integer, "
                   "unable to parse string as an integer, got \"long\")"),
    "out-of-range": (_v2_with(scenario__parallel__zero=4),
                     "bad.gpuplan: invalid plan (field scenario.parallel.zero: Input should be less than or equal "
                     "to 3, got 4)"),
    "bad-layout": (_v2_with(scenario__parallel={"tp": 8}),
                   "bad.gpuplan: invalid plan (field scenario: hardware.num_gpus=4 is not divisible by tp·pp·cp=8)"),
    "bad-section-type": (_v2_with(scenario__hardware=5),
                         "bad.gpuplan: invalid plan (field scenario.hardware: Input should be a valid dictionary or "
                         "instance of HardwareSection, got 5)"),
    "bad-list-item": (_v2_with(vendor_checklist=[{"id": ""}]),
                      "bad.gpuplan: invalid plan (field vendor_checklist[0].id: String should have at least 1 "
                      "character)"),
    "bad-count": (_v2_with(scenario__data__tokens="lots"),
                  "bad.gpuplan: invalid plan (field scenario.data.tokens: 'lots' is not a count; use e.g. 300B, "
                  "1.5T or 2e9)"),
    "nan": (b'{"schema_version": 2, "results": {"x": NaN}}', "bad.gpuplan: not valid JSON (results.x: NaN is not allowed)"),
    "overflow-float": (b'{"schema_version": 2, "results": {"x": 1e999}}',
                       "bad.gpuplan: not valid JSON (results.x: number 1e999 is out of range)"),
    "deep": (b"[" * 200_000 + b"]" * 200_000, "bad.gpuplan: not a plan: JSON nested too deeply"),
    "lone-surrogate": (b'{"schema_version": 2, "title": "\\ud800"}',
                       "bad.gpuplan: contains text that is not valid Unicode"),
    "v1-null-scenario": (b'{"schema_version": 1, "scenario": null, "goal": {}}',  # found by the 10k fuzz
                         "bad.gpuplan: cannot upgrade a schema 1 plan (field scenario: expected an object)"),
    "v1-goal-list": (b'{"schema_version": 1, "goal": [1]}',
                     "bad.gpuplan: cannot upgrade a schema 1 plan (field goal: expected an object)"),
    "embedded-arch": (_v2_with(embedded_model={"source": "m", "arch": {"name": "x"}}),
                      "bad.gpuplan: invalid plan (field embedded_model.arch: model_type: Field required)"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_file_gives_one_clear_line(tmp_path, case):
    raw, expected = BAD[case]
    path = tmp_path / "bad.gpuplan"
    path.write_bytes(raw)
    with pytest.raises(PlanFileError) as info:
        planfile.load(path)
    assert str(info.value) == expected
    assert "\n" not in str(info.value) and "Traceback" not in str(info.value)
    assert isinstance(info.value, PlannerError) and isinstance(info.value, ScenarioError)
    assert path.read_bytes() == raw  # opening never writes
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.gpuplan"]


def test_huge_file_is_refused_without_reading_it_all(tmp_path):
    path = tmp_path / "huge.gpuplan"
    with open(path, "wb") as fh:
        fh.truncate(planfile.MAX_BYTES + 1)  # sparse: cheap to create
    with pytest.raises(PlanFileError, match=r"^huge.gpuplan: too large for a plan file \(over 20 MB\)$"):
        planfile.load(path)


def test_integer_beyond_the_digit_limit(tmp_path):
    raw = b'{"schema_version": 2, "title": 1' + b"0" * 5000 + b"}"
    with pytest.raises(PlanFileError, match=r"^x.gpuplan: not valid JSON \("):
        planfile.loads(raw, "x.gpuplan")


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(PlanFileError, match=r"^nope.gpuplan: file not found$"):
        planfile.load(tmp_path / "nope.gpuplan")
    (tmp_path / "dir.gpuplan").mkdir()
    with pytest.raises(PlanFileError, match=r"^dir.gpuplan: is a folder, not a plan file$"):
        planfile.load(tmp_path / "dir.gpuplan")


# --------------------------------------------------------------------------------------- atomic save

def _files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_second_save_keeps_the_previous_version_as_bak(tmp_path):
    doc = _doc()
    path = tmp_path / "p.gpuplan"
    planfile.save(doc, path)
    first = path.read_bytes()
    doc.title = "second"
    planfile.save(doc, path)
    assert (tmp_path / "p.gpuplan.bak").read_bytes() == first
    assert planfile.load(path)[0].title == "second"
    assert _files(tmp_path) == ["p.gpuplan", "p.gpuplan.bak"]


@pytest.mark.parametrize("fail_at", ["fsync", "replace", "write"])
def test_failure_mid_write_leaves_old_file_and_document(tmp_path, monkeypatch, fail_at):
    doc = _doc()
    path = tmp_path / "p.gpuplan"
    planfile.save(doc, path)
    planfile.save(doc, path)  # now a .bak exists too
    old, old_bak = path.read_bytes(), (tmp_path / "p.gpuplan.bak").read_bytes()
    modified, app_version = doc.modified, doc.app_version
    doc.title = "unsaved edit"

    if fail_at == "fsync":  # the 2nd fsync is the new plan's own (the 1st is the backup's)
        calls = {"n": 0}
        real = os.fsync

        def fsync(fd):
            calls["n"] += 1
            if calls["n"] == 2:
                raise OSError(errno.ENOSPC, "No space left on device")
            return real(fd)

        monkeypatch.setattr(os, "fsync", fsync)
        expected = "p.gpuplan: cannot save (the disk is full); the file on disk is unchanged"
    elif fail_at == "replace":
        real_replace = os.replace

        def replace(src, dst):
            if Path(dst) == path:
                raise PermissionError(errno.EACCES, "Permission denied")
            return real_replace(src, dst)

        monkeypatch.setattr(os, "replace", replace)
        expected = ("p.gpuplan: cannot save (permission denied; the folder may be read-only); "
                    "the file on disk is unchanged")
    else:
        real_fdopen = os.fdopen

        class HalfWriter:
            def __init__(self, fh):
                self.fh = fh

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                self.fh.close()

            def write(self, data):
                if len(data) > 100 and b"unsaved edit" in data:
                    self.fh.write(data[: len(data) // 2])
                    raise OSError(errno.EIO, "Input/output error")
                return self.fh.write(data)

            def flush(self):
                self.fh.flush()

            def fileno(self):
                return self.fh.fileno()

        monkeypatch.setattr(os, "fdopen", lambda fd, mode: HalfWriter(real_fdopen(fd, mode)))
        expected = "p.gpuplan: cannot save (Input/output error); the file on disk is unchanged"

    with pytest.raises(PlanFileError) as info:
        planfile.save(doc, path)
    assert str(info.value) == expected
    assert path.read_bytes() == old
    assert _files(tmp_path) == ["p.gpuplan", "p.gpuplan.bak"]  # no temp file left behind
    assert (tmp_path / "p.gpuplan.bak").read_bytes() in (old, old_bak)
    # the document stays as edited (still dirty) and its save bookkeeping is unchanged
    assert doc.title == "unsaved edit" and doc.modified == modified and doc.app_version == app_version


def test_save_into_missing_folder(tmp_path):
    with pytest.raises(PlanFileError, match=r"^p.gpuplan: cannot save \(the folder does not exist\)"):
        planfile.save(_doc(), tmp_path / "nowhere" / "p.gpuplan")


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root ignores directory permissions")
def test_save_into_read_only_folder(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(PlanFileError, match="permission denied"):
            planfile.save(_doc(), folder / "p.gpuplan")
    finally:
        folder.chmod(0o700)


@pytest.mark.skipif(os.name != "posix", reason="POSIX permission bits")
def test_save_keeps_file_permissions(tmp_path):
    path = tmp_path / "p.gpuplan"
    planfile.save(_doc(), path)
    path.chmod(0o640)
    planfile.save(_doc(), path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


_WRITER = r"""
import sys
from gpuplanner.io import planfile
path = sys.argv[1]
docs = []
for notes in ("A" * 5000, "B" * 9000):  # two sizes (notes: a title is at most 1,000 characters)
    d = planfile.new_document(title=notes[0], notes=notes)
    docs.append(d)
planfile.save(docs[0], path)
print("ready", flush=True)
i = 0
while True:
    planfile.save(docs[i % 2], path)
    i += 1
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_sigkill_during_repeated_saves_never_leaves_a_broken_file(tmp_path):
    path = tmp_path / "p.gpuplan"
    for delay in (0.05, 0.2, 0.35):
        proc = subprocess.Popen([sys.executable, "-c", _WRITER, str(path)], stdout=subprocess.PIPE, text=True)
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        proc.stdout.close()
        doc, _ = planfile.load(path)
        assert doc.notes in ("A" * 5000, "B" * 9000) and doc.title == doc.notes[0]
        bak, _ = planfile.load(tmp_path / "p.gpuplan.bak")
        assert bak.notes in ("A" * 5000, "B" * 9000) and bak.title == bak.notes[0]


# ------------------------------------------------------------------------------------------ embedding

def _model_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "project" / "my-llama"
    folder.mkdir(parents=True)
    (folder / "config.json").write_text(json.dumps(get_preset("llama-3-8b").config), encoding="utf-8")
    return folder


def test_embedded_model_opens_where_the_path_is_missing(tmp_path):
    folder = _model_folder(tmp_path)
    scenario = scenario_from_dict({"model": {"hf_config": "my-llama/config.json"},
                                   "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}, "parallel": {"zero": 3}})
    doc = planfile.new_document(scenario)
    plan = tmp_path / "project" / "p.gpuplan"
    assert planfile.save(doc, plan) == []
    assert doc.embedded_model.source == "my-llama/config.json"
    assert doc.embedded_model.arch["hidden_size"] == 4096 and doc.embedded_model.arch["num_kv_heads"] == 8
    here = resolve_arch(scenario.model, ModelFiles(plan.parent))

    other = tmp_path / "elsewhere"
    other.mkdir()
    shutil.copy(plan, other / "p.gpuplan")
    moved, _ = planfile.load(other / "p.gpuplan")
    assert planfile.resolve_model(moved, other) == here  # every architecture field, from the file alone
    with pytest.raises(ScenarioError, match="not found"):
        resolve_arch(moved.scenario.model, ModelFiles(other))  # the path really is missing there

    # the CLI path: load_scenario gives a scenario whose estimate matches the original machine's
    s, base = load_scenario(other / "p.gpuplan")
    assert base == ModelFiles(other.resolve(), confine=True)  # a plan file: model paths stay in its folder
    assert s.model.hf_config is None and s.model.hidden_size == 4096
    assert estimate(s, base).params.total == 8_030_261_248  # Llama 3 8B, published total
    assert estimate(s, base).memory.total == pytest.approx(estimate(scenario, ModelFiles(plan.parent)).memory.total)

    # re-saving on the machine without the model keeps the embedded architecture
    assert planfile.save(moved, other / "p.gpuplan") == []
    assert planfile.load(other / "p.gpuplan")[0].embedded_model.arch == doc.embedded_model.arch


def test_explicit_fields_override_the_embedded_model(tmp_path):
    _model_folder(tmp_path)
    scenario = scenario_from_dict({"model": {"hf_config": "my-llama/config.json", "vocab_size": 128000}})
    doc = planfile.new_document(scenario)
    planfile.save(doc, tmp_path / "project" / "p.gpuplan")
    shutil.rmtree(tmp_path / "project" / "my-llama")
    moved, _ = planfile.load(tmp_path / "project" / "p.gpuplan")
    arch = planfile.resolve_model(moved, tmp_path / "project")
    assert arch.vocab_size == 128000
    s, base = load_scenario(tmp_path / "project" / "p.gpuplan")
    # untied input and output embeddings shrink by (128256 - 128000) × 4096 each
    assert estimate(s, base).params.total == 8_030_261_248 - 2 * 256 * 4096


def test_save_warns_when_the_model_path_is_missing_and_nothing_was_embedded(tmp_path):
    doc = planfile.new_document(scenario_from_dict({"model": {"hf_config": "gone/config.json"}}))
    warnings = planfile.save(doc, tmp_path / "p.gpuplan")
    assert warnings == ["model not embedded: gone/config.json not found"]
    assert doc.embedded_model is None


# ------------------------------------------------------------------------------------ load_scenario, CLI

def test_load_scenario_accepts_plan_files(tmp_path):
    doc = _doc()
    planfile.save(doc, tmp_path / "p.gpuplan")
    scenario, base = load_scenario(tmp_path / "p.gpuplan")
    assert scenario == doc.scenario and base == ModelFiles(tmp_path.resolve(), confine=True)
    # a plan saved under another extension is still recognised by its schema_version
    shutil.copy(tmp_path / "p.gpuplan", tmp_path / "p.json")
    assert load_scenario(tmp_path / "p.json")[0] == doc.scenario
    # the legacy schema goes through the migration
    assert load_scenario(PLANS / "v1.gpuplan")[0].constraints.budget == 20000


def test_load_scenario_keeps_plain_json_behaviour(tmp_path):
    path = tmp_path / "s.json"
    path.write_text('{"model": {"preset": "llama-3-8b"}, "data": {"tokens": "1B"}}', encoding="utf-8")
    scenario, _ = load_scenario(path)
    assert scenario.data.tokens == 1e9
    path.write_text('{"model": {"preset": "llama-3-8b"}, "training": {"seq_len": 0}}', encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"^s.json: training.seq_len: "):
        load_scenario(path)


def test_load_scenario_bad_plan_raises_plan_file_error(tmp_path):
    path = tmp_path / "bad.gpuplan"
    path.write_bytes(BAD["newer-major"][0])
    with pytest.raises(PlanFileError) as info:
        load_scenario(path)
    assert str(info.value) == BAD["newer-major"][1]


@pytest.mark.parametrize("command", ["estimate", "plan"])
def test_cli_bad_plan_exits_2_with_the_same_line(tmp_path, command):
    from gpuplanner.cli import command_names

    if command not in command_names():
        pytest.skip(f"'gpuplanner {command}' is not available yet")
    path = tmp_path / "bad.gpuplan"
    path.write_bytes(BAD["wrong-type"][0])
    res = subprocess.run([sys.executable, "-m", "gpuplanner", command, str(path)], capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 2
    assert res.stderr.strip().splitlines() == [f"gpuplanner: error: {BAD['wrong-type'][1]}"]


def test_cli_estimate_reads_an_example_plan():
    from gpuplanner.cli import command_names

    if "estimate" not in command_names():
        pytest.skip("'gpuplanner estimate' is not available yet")
    path = EXAMPLES / "8b-full-8xh100.gpuplan"
    res = subprocess.run([sys.executable, "-m", "gpuplanner", "estimate", str(path), "--json"],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["params"]["total"] == 8_030_261_248 and data["num_gpus"] == 8


# ------------------------------------------------------------------------- temp files of killed saves

_STUCK_WRITER = r"""
import os, sys, time
from gpuplanner.io import planfile
path = sys.argv[1]
planfile.save(planfile.new_document(title="first"), path)
real_replace = os.replace
def stuck(src, dst):
    if not str(dst).endswith(".gpuplan"):
        return real_replace(src, dst)  # the .bak goes through
    print("stuck", flush=True)
    time.sleep(120)
os.replace = stuck  # the next save is killed between writing the plan's temp file and renaming it
planfile.save(planfile.new_document(title="second"), path)
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_temp_files_of_killed_saves_are_cleaned_once_stale(tmp_path):
    path = tmp_path / "p.gpuplan"
    proc = subprocess.Popen([sys.executable, "-c", _STUCK_WRITER, str(path)], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "stuck"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        proc.stdout.close()
    temps = [p for p in tmp_path.iterdir() if p.name.startswith(".")]
    assert len(temps) == 1 and planfile.is_temp_name(temps[0].name)
    assert temps[0].stat().st_size > 0  # the complete new version, never renamed
    (tmp_path / "notes.txt").write_text("the user's")
    assert planfile.clean_stale_temps(tmp_path) == []  # younger than a minute: maybe a save in progress
    later = time.time() + planfile.STALE_TEMP_AGE_S + 1
    assert sorted(planfile.clean_stale_temps(tmp_path, now=later)) == sorted(temps)
    assert _files(tmp_path) == ["notes.txt", "p.gpuplan", "p.gpuplan.bak"]
    assert planfile.load(path)[0].title == "first"


def test_temp_names_are_recognised_strictly():
    assert planfile.is_temp_name(".p.gpuplan.a_b4c9z0.gpuplanner-tmp")
    assert planfile.is_temp_name(".kit.sh.a_b4c9z0.gpuplanner-tmp")
    assert planfile.is_temp_name(".p.gpuplan.a_b4c9z0.tmp")  # written by earlier versions
    assert planfile.is_temp_name(".u-main.autosave.a_b4c9z0.tmp")
    for name in (".report.pdf.a_b4c9z0.tmp", ".p.gpuplan.tmp", "p.gpuplan.a_b4c9z0.gpuplanner-tmp",
                 ".p.gpuplan.A_B4C9Z0.gpuplanner-tmp", ".p.gpuplan.a_b4c9z0.gpuplanner-tmp.bak", "p.gpuplan"):
        assert not planfile.is_temp_name(name), name


def test_file_stamp_changes_with_an_outside_write(tmp_path):
    path = tmp_path / "p.gpuplan"
    assert planfile.file_stamp(path) is None
    planfile.save(_doc(), path)
    stamp = planfile.file_stamp(path)
    st = path.stat()
    assert stamp == (st.st_mtime_ns, st.st_size)
    path.write_bytes(path.read_bytes())  # same size, later time
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    assert planfile.file_stamp(path) != stamp


def test_write_output_is_atomic_and_sets_the_mode(tmp_path, monkeypatch):
    out = tmp_path / "kit.sh"
    out.write_text("previous")
    with monkeypatch.context() as m:
        m.setattr(planfile.os, "fsync", lambda fd: (_ for _ in ()).throw(OSError(28, "No space left on device")))
        with pytest.raises(PlanFileError, match=r"^kit.sh: cannot write \(the disk is full\); nothing was written$"):
            planfile.write_output(out, b"#!/bin/bash\n" * 1000, mode=0o755)
    assert out.read_text() == "previous" and _files(tmp_path) == ["kit.sh"]
    planfile.write_output(out, b"#!/bin/bash\n", mode=0o755)
    assert out.read_bytes() == b"#!/bin/bash\n" and _files(tmp_path) == ["kit.sh"]
    if os.name == "posix":
        assert stat.S_IMODE(out.stat().st_mode) == 0o755
