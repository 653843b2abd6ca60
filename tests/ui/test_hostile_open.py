"""The app opens exactly what the CLI accepts and never exits on a bad file; recovery reads each autosave in
isolation (issue #32, holes 1, 7, 9)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from gpuplanner.cli import run_cli
from gpuplanner.core.scenario import scenario_from_dict
from gpuplanner.io import planfile
from gpuplanner.io.autosave import AutosaveStore

ROOT = Path(__file__).resolve().parents[2]
PLAN = ROOT / "examples" / "8b-full-8xh100.gpuplan"


def _deep_plan(tmp_path: Path) -> Path:
    """A plan with a 1000-deep list under an unknown key (a RecursionError in the app before)."""
    text = PLAN.read_text(encoding="utf-8").rstrip()
    assert text.endswith("}")
    f = tmp_path / "deep.gpuplan"
    f.write_text(text[:-1] + ', "zz_unknown": ' + "[" * 1000 + "]" * 1000 + "}", encoding="utf-8")
    return f


def _nul_plan(tmp_path: Path) -> Path:
    """A plan whose model.hf_config holds a NUL byte (ValueError: embedded null byte before)."""
    data = json.loads(PLAN.read_text(encoding="utf-8"))
    data.pop("embedded_model", None)
    data["scenario"]["model"] = {"hf_config": "a\u0000b"}
    if data.get("selected_plan"):
        data["selected_plan"]["scenario"]["model"] = {"hf_config": "a\u0000b"}
    f = tmp_path / "nul.gpuplan"
    f.write_text(json.dumps(data), encoding="utf-8")
    return f


@pytest.mark.parametrize("make, names", [
    (_deep_plan, "nested too deeply"),
    # round 2: a NUL in model.hf_config is refused by the plan's validation, as by the CLI (round 1 opened the
    # plan and showed the line only in the live estimate: the app opened what the CLI refused)
    (_nul_plan, "model.hf_config"),
    (lambda tmp: tmp / "a\0b.gpuplan", "NUL"),  # the plan file's own path (a recent-files entry, a drop)
    (lambda tmp: Path("/dev/zero"), "regular file"),
    (lambda tmp: tmp / ("x" * 300 + ".gpuplan"), "too long")])
def test_the_app_refuses_what_the_cli_refuses_with_one_line_and_stays_open(make_window, dialogs, tmp_path, capsys,
                                                                           make, names):
    f = make(tmp_path)
    assert run_cli(["estimate", str(f)]) == 2
    cli_line = capsys.readouterr().err.strip()
    assert len(cli_line.splitlines()) == 1 and names in cli_line
    w = make_window()
    title = w.model.title
    assert w.doc.open_path(f) is False  # no exception, no exit
    (kind, text), = [c for c in dialogs.calls if c[0] == "warning"]
    assert "\n" not in text and len(text) <= 400 and names in text
    assert w.isVisible() and w.model.title == title  # the window and its document are as they were
    assert w.doc.open_path(PLAN) is True  # and it still opens a good plan


def test_the_app_opens_what_the_cli_accepts(make_window, dialogs, capsys):
    assert run_cli(["estimate", str(PLAN)]) == 0
    capsys.readouterr()
    w = make_window()
    assert w.doc.open_path(PLAN) is True and not [c for c in dialogs.calls if c[0] == "warning"]


def _autosave_dir() -> Path:
    return Path(os.environ["GPUPLANNER_DATA_DIR"]) / "autosave"


def test_a_valid_autosave_is_offered_beside_corrupt_ones(make_window, dialogs, monkeypatch):
    from gpuplanner.ui.recovery import RecoveryDialog

    folder = _autosave_dir()
    doc = planfile.new_document(scenario_from_dict({"model": {"preset": "llama-3-8b"}}), title="Survivor")
    AutosaveStore(folder, session="good").write(doc)
    good = json.loads((folder / "good-main.autosave").read_text(encoding="utf-8"))
    good["pid"] = 2**22 + 1  # no process holds it: a crashed session
    (folder / "good-main.autosave").write_text(json.dumps(good), encoding="utf-8")
    (folder / "bigpid-main.autosave").write_text(json.dumps(dict(good, session="bigpid", pid=10**20)),
                                                 encoding="utf-8")
    text = json.dumps(dict(good, session="deep")).rstrip()
    (folder / "deep-main.autosave").write_text(text[:-1] + ', "x": ' + "[" * 1000 + "]" * 1000 + "}",
                                               encoding="utf-8")
    shown = []

    def fake_exec(dlg):
        shown.append(dlg.entries())
        dlg.recover(next(i for i, line in enumerate(dlg.entries()) if line.startswith("Survivor")))
        return dlg.result()

    monkeypatch.setattr(RecoveryDialog, "exec", fake_exec)
    w = make_window(autosave=True)
    assert w.offer_recovery()  # the dialog was shown (before: OverflowError logged, no dialog)
    (lines,) = shown
    # the pid past any OS's range is no running owner: offered; the 1000-deep one is listed as unreadable
    assert len(lines) == 3 and sum(line.startswith("Survivor") for line in lines) == 2
    assert sum(line.startswith("Unreadable autosave") for line in lines) == 1
    assert w.model.title == "Survivor"


@pytest.mark.parametrize("path, value", [("constraints.hours_per_week", 0.2), ("assumptions.mfu", 1e-9)])
def test_the_live_estimate_refuses_an_absurd_plan_with_one_line_naming_the_field(make_window, qtbot, path, value):
    """The window's live estimate goes through the same gate as the CLI (app.answer.shown): a work pattern no
    session outlasts, or an MFU below 0.1 %, is one line naming the field, not a plan lasting for ever."""
    w = make_window()
    w.doc.open_path(PLAN)
    qtbot.waitUntil(lambda: w.estimator.result is not None and w.estimator.result.evaluation is not None,
                    timeout=20000)
    assert w.model.set(path, value) is None  # each value is in its own range
    qtbot.waitUntil(lambda: w.estimator.result is not None and bool(w.estimator.result.error), timeout=20000)
    # the live panel itself may still be laying out when the result lands: wait until the line is on screen
    qtbot.waitUntil(lambda: w.live.error.isVisibleTo(w), timeout=5000)
    shown = w.live.error.text()
    assert path in shown and "\n" not in shown and len(shown) <= 400
    assert w.estimator.result.error_field == path
