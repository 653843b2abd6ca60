"""The document controller (``gpuplanner/ui/document.py``): the plan file behind a window, apart from the shell.

Checks that the main window holds no file handling of its own (only one-line delegation), that the controller works
without a main window, and that the app's input state travels through the typed ``ui_state`` of schema 5 (an old
file's ``results.app_ui`` opens with the same state; a hostile one gives one line and the good entries).
"""

from __future__ import annotations

import ast
import copy
import json
from pathlib import Path

import pytest

from gpuplanner.io.planfile import CURRENT_SCHEMA

ROOT = Path(__file__).resolve().parents[2]
MAIN_WINDOW = ROOT / "gpuplanner" / "ui" / "main_window.py"
PLANS = ROOT / "tests" / "data" / "plans"

#: what tests/data/plans/v4-app-ui.gpuplan's results.app_ui says (read from the file by hand)
V4_INPUTS = {"data_mode": "samples", "tokens_text": "2B", "samples": 250000, "avg_len": 1536, "dataset_gb": 10.0,
             "language": "en", "tokens_per_gb": 250000000.0, "epochs": 3.0, "batch_mode": "accum",
             "deadline_mode": "none", "deadline_date": "", "work_mode": "weekly"}

#: the window methods kept for callers (the app, the report, tests); each must only hand over to ``self.doc``
DELEGATED = ("document", "maybe_save", "file_new", "file_save", "file_save_as", "file_revert", "open_path", "save_to",
             "offer_recovery", "clean_temp_files")


# ------------------------------------------------------------------------------ the shell holds no file handling

def _main_window_class() -> ast.ClassDef:
    tree = ast.parse(MAIN_WINDOW.read_text(encoding="utf-8"))
    return next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "MainWindow")


def test_main_window_imports_no_file_layer():
    tree = ast.parse(MAIN_WINDOW.read_text(encoding="utf-8"))
    modules = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            modules.add(("." * node.level) + (node.module or ""))
            modules.update(f"{node.module}.{a.name}" for a in node.names if node.module)
        elif isinstance(node, ast.Import):
            modules.update(a.name for a in node.names)
    assert not [m for m in modules if m.startswith("gpuplanner.io") or "planfile" in m or "autosave" in m], modules


def test_main_window_reads_and_writes_no_file_itself():
    called = set()
    for node in ast.walk(_main_window_class()):
        if isinstance(node, ast.Call):
            f = node.func
            called.add(f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", ""))
    # the plan file's readers and writers, the file dialogs of Open and Save, and the raw file calls
    forbidden = {"open", "load", "loads", "dumps", "atomic_write", "file_stamp", "getOpenFileName", "getSaveFileName",
                 "read_text", "write_text", "read_bytes", "write_bytes", "scenario_for_estimate", "pending",
                 "RecentFiles", "AutosaveStore", "AutosaveDriver", "startup_cleanup", "load_document"}
    assert not called & forbidden, called & forbidden
    # no document state kept on the window either
    attrs = {n.attr for n in ast.walk(_main_window_class()) if isinstance(n, ast.Attribute)
             and isinstance(n.value, ast.Name) and n.value.id == "self"}
    assert not attrs & {"_doc", "_disk_stamp", "_autosave", "_autosave_store", "_autosave_timer"}, attrs


def test_file_methods_left_on_the_window_only_delegate():
    methods = {n.name: n for n in _main_window_class().body if isinstance(n, ast.FunctionDef)}
    assert set(DELEGATED) <= set(methods)
    for name in DELEGATED:
        fn = methods[name]
        assert len(fn.body) == 1 and isinstance(fn.body[0], ast.Return), name
        call = fn.body[0].value
        assert isinstance(call, ast.Call) and ast.unparse(call.func) == f"self.doc.{name}", name
        params = [a.arg for a in fn.args.args[1:]]
        assert [ast.unparse(a) for a in call.args] == params and not call.keywords, name
    # and the window stays a shell: the file handling moved out (1,032 lines before)
    assert len(MAIN_WINDOW.read_text(encoding="utf-8").splitlines()) < 700


def test_file_menu_actions_go_to_the_controller(make_window, qtbot, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    w = make_window()
    path = tmp_path / "menu.gpuplan"
    w.model.set("training.seq_len", 1024)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    w.actions_["save"].trigger()  # untitled: Save asks for a name (Save As)
    assert json.loads(path.read_text(encoding="utf-8"))["scenario"]["training"]["seq_len"] == 1024
    assert w.model.path == path and not w.isWindowModified() and "menu.gpuplan" in w.windowTitle()
    assert w.statusBar().currentMessage().startswith("Saved menu.gpuplan")


# ------------------------------------------------------------------------------ the controller on its own

@pytest.fixture
def controller(qtbot):
    """A DocumentController with a plain widget for its dialogs: no MainWindow."""
    from PySide6.QtWidgets import QWidget

    from gpuplanner.ui.document import DocumentController
    from gpuplanner.ui.live import LiveEstimator, SearchController
    from gpuplanner.ui.model import ScenarioModel

    host = QWidget()
    qtbot.addWidget(host)
    model = ScenarioModel(parent=host)
    estimator = LiveEstimator(model, host)
    search = SearchController(model, host)
    search.enabled = False
    page = {"key": "training"}
    ctl = DocumentController(host, model, estimator, search, current_page=lambda: page["key"], autosave=False)
    events: dict[str, list] = {"message": [], "page": [], "changed": []}
    ctl.message.connect(lambda text, ms: events["message"].append(text))
    ctl.pageRequested.connect(events["page"].append)
    ctl.documentChanged.connect(lambda: events["changed"].append(model.path))
    yield ctl, model, events, page
    model.set_dirty(False)
    search.shutdown()
    estimator.shutdown()


def v4_with_length(tmp_path) -> Path:
    """The schema 4 plan with its samples' length as the scenario's mean sample length (the one value the Data page's
    samples × length and the Training page share; the file itself predates the link and leaves it out)."""
    plan = json.loads((PLANS / "v4-app-ui.gpuplan").read_text(encoding="utf-8"))
    plan["scenario"]["data"]["mean_sample_len"] = V4_INPUTS["avg_len"]
    path = tmp_path / "v4-app-ui.gpuplan"
    path.write_text(json.dumps(plan), encoding="utf-8")
    return path


def test_controller_opens_a_schema_4_plan_with_its_input_state(controller, tmp_path):
    ctl, model, events, _ = controller
    path = v4_with_length(tmp_path)
    assert ctl.open_path(path)
    assert {k: model.ui[k] for k in V4_INPUTS} == V4_INPUTS
    assert model.scenario.data.tokens == 250000 * 1536 * 3
    assert events["page"] == ["data"] and events["changed"] == [path]
    # and (round 16) the fixture, written with every field, keeps the optimizer offload off as the user's: said too
    assert events["message"] == [f"v4-app-ui.gpuplan: written in plan format 4; saving will upgrade it to format {CURRENT_SCHEMA}"
                                 " · v4-app-ui.gpuplan: saved by an earlier GPU Planner, which wrote every field: the "
                                 "memory savers it writes off (parallel.offload_optimizer) stay off as your choice, and "
                                 "the search does not try them; turn one on to plan with it"]
    assert not model.dirty


def test_a_plan_whose_samples_length_is_not_the_mean_sample_length_opens_as_tokens(controller):
    """Samples × 1,536 tokens with a scenario whose samples fill the sequence length (no mean sample length, a file
    older than the link) do not describe one plan: the scenario wins, unchanged (the estimate and the saved file
    stay the same), and the data is described as its tokens; the samples and their length stay in the inputs."""
    ctl, model, _events, _ = controller
    assert ctl.open_path(PLANS / "v4-app-ui.gpuplan")
    assert model.scenario.data.tokens == 250000 * 1536 * 3 and model.scenario.data.mean_sample_len is None
    assert (model.ui["data_mode"], model.ui["tokens_text"], model.ui["epochs"]) == ("tokens", "1.152B", 1.0)
    assert (model.ui["samples"], model.ui["avg_len"]) == (250000, 1536)
    assert model.ui["batch_mode"] == "accum" and model.ui["work_mode"] == "weekly"  # the other inputs as typed
    assert not model.dirty


def test_opening_another_file_replaces_the_previous_files_message(controller):
    """The status bar said the first file's warning; a second file without warnings must not leave it there."""
    ctl, _model, events, _ = controller
    assert ctl.open_path(PLANS / "v4-app-ui.gpuplan")
    assert "plan format 4" in events["message"][-1]
    assert ctl.open_path(ROOT / "examples" / "shenzhen-7b-domain-project.gpuplan")
    assert events["message"][-1] == "Opened shenzhen-7b-domain-project.gpuplan"


def test_controller_saves_the_typed_ui_state_and_reopens_it(controller, tmp_path):
    ctl, model, events, page = controller
    assert ctl.open_path(v4_with_length(tmp_path))
    model.set_ui("epochs", 2.5)
    model.set_ui("data_mode", "bytes")
    model.set("data.tokens", 10.0 * 2.5e8 * 2.5)  # what the Data page writes: 10 GB × 250M tokens/GB × 2.5 epochs
    page["key"] = "budget"
    path = tmp_path / "again.gpuplan"
    assert ctl.save_to(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["schema_version"] == CURRENT_SCHEMA and "app_ui" not in data.get("results", {})
    expected = {**V4_INPUTS, "epochs": 2.5, "data_mode": "bytes"}
    assert data["ui_state"] == {"current_page": "budget", "selected_plan": 0, **expected}
    model.set_ui("epochs", 9.0)
    assert ctl.open_path(path)
    assert {k: model.ui[k] for k in expected} == expected and events["page"][-1] == "budget"


def test_hostile_app_ui_opens_with_one_line_and_the_good_entries(controller, tmp_path, dialogs):
    ctl, model, events, _ = controller
    data = json.loads((PLANS / "v4-app-ui.gpuplan").read_text(encoding="utf-8"))
    data["results"]["app_ui"].update({"epochs": {"deep": [[[["3"]]]]}, "tokens_text": "9" * 1_000_000,
                                      "work_mode": "sometimes", "\u202ekey\n": 1})
    path = tmp_path / "hostile.gpuplan"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert ctl.open_path(path)
    assert dialogs.calls == []  # a warning in the status bar, not a dialog
    line = events["message"][-1]
    assert "\n" not in line and len(line) < 2000
    assert "results.app_ui" in line and "epochs" in line and "work_mode" in line
    assert model.ui["samples"] == 250000 and model.ui["batch_mode"] == "accum"  # the good entries
    # without its epochs, samples × length no longer gives the plan's data volume, and "continuous" is not its
    # 60 hours a week: the scenario's numbers win, described as the app describes a scenario file
    assert model.scenario.data.tokens == 250000 * 1536 * 3
    assert (model.ui["data_mode"], model.ui["tokens_text"], model.ui["epochs"]) == ("tokens", "1.152B", 1.0)
    assert model.ui["work_mode"] == "weekly" and model.scenario.constraints.hours_per_week == 60
    assert not model.dirty


def test_hostile_typed_ui_state_is_one_message(controller, tmp_path, dialogs):
    ctl, model, events, _ = controller
    data = json.loads((PLANS / "v5.gpuplan").read_text(encoding="utf-8"))
    before = copy.deepcopy(model.ui)
    data["ui_state"]["data_mode"] = [[["bytes"]]]
    path = tmp_path / "bad5.gpuplan"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert not ctl.open_path(path)
    assert dialogs.calls == [("warning", events["message"][-1])]
    assert events["message"][-1].startswith("bad5.gpuplan: invalid plan (field ui_state.data_mode: ")
    assert model.ui == before  # a failed open changes nothing


def test_recovering_a_schema_4_autosave_restores_its_input_state(make_window, monkeypatch, tmp_path):
    """An autosave a crashed older version left (its plan in schema 4, the input state in results.app_ui) is
    recovered with the same input state, typed, and autosaved again in schema 5 under this session."""
    import os

    from gpuplanner.ui.recovery import RecoveryDialog

    root = Path(os.environ["GPUPLANNER_DATA_DIR"]) / "autosave"
    root.mkdir(parents=True, exist_ok=True)
    plan = json.loads(v4_with_length(tmp_path).read_text(encoding="utf-8"))
    record = {"autosave_format": 1, "session": "oldversion", "pid": 999_999_999,
              "saved_at": "2026-11-30T08:00:00+00:00", "source_path": None, "plan": plan}
    (root / "oldversion-main.autosave").write_text(json.dumps(record), encoding="utf-8")
    monkeypatch.setattr(RecoveryDialog, "exec", lambda dlg: dlg.recover(0))
    w = make_window(autosave=True)
    assert w.doc.offer_recovery()
    assert {k: w.model.ui[k] for k in V4_INPUTS} == V4_INPUTS and w.model.dirty
    assert not (root / "oldversion-main.autosave").exists()  # its content is autosaved under this session now
    mine = json.loads((root / f"{w.doc.autosave_store.record_id()}.autosave").read_text(encoding="utf-8"))
    assert mine["plan"]["schema_version"] == CURRENT_SCHEMA and "app_ui" not in mine["plan"].get("results", {})
    assert {k: mine["plan"]["ui_state"][k] for k in V4_INPUTS} == V4_INPUTS
