"""Issue 35 round 16 (savefile16): the app keeps which fields the user set through its pages, a save and a reopen.

Round 15 made the search try the memory savers the user left unset; the app's plan file wrote every field, so after
Save and Open they read as set "off" and #1 changed (round 14's request 02: 8 × A800 by the card-hour, ¥2,817, became
a month of 8 × H200, ¥94,000). Here the request is opened in the window, every page is shown (a page that writes its
controls' values back into the scenario on load would flip an unset field to set), saved, opened in a second window
and walked again: the scenario's ``model_fields_set`` is the file's at every level and #1 is the same plan."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

ROOT = Path(__file__).resolve().parents[2]
REQ02 = ROOT / "docs" / "notes" / "2026-12-07" / "issue-35-r14-advice14-requests" / "02-grpo-32b-week.json"


def fields_set(m, path: str = "scenario") -> dict[str, list[str]]:
    """``model_fields_set`` of ``m`` and of every nested model it holds, by dotted path."""
    out = {path: sorted(m.model_fields_set)}
    for name in type(m).model_fields:
        v = getattr(m, name)
        if hasattr(v, "model_fields_set"):
            out.update(fields_set(v, f"{path}.{name}"))
    return out


def _walk(w, qtbot) -> None:
    from gpuplanner.ui.main_window import PAGE_KEYS

    for i in range(len(PAGE_KEYS)):
        w.go_to(i)
        QApplication.processEvents()
    w.go_to(0)
    QApplication.processEvents()


def _first(w, qtbot):
    from tests.ui.conftest import searched

    qtbot.waitUntil(lambda: searched(w) and w.search.outcome is not None, timeout=180000)
    p = w.search.outcome.plans[0].plan
    return p.gpu, p.num_gpus, p.framework, round(float(p.calendar_days), 6), round(float(p.cost), 2), \
        tuple(p.unrequested_savers)


def test_pages_save_and_reopen_keep_the_fields_set_and_plan_1(make_window, qtbot, tmp_path):
    from gpuplanner.core.scenario import Scenario

    d = json.loads(REQ02.read_text(encoding="utf-8"))
    src = tmp_path / "req02.json"
    src.write_text(json.dumps(d), encoding="utf-8")
    want = fields_set(Scenario.model_validate(d))
    w = make_window()
    assert w.open_path(src, show_errors=False)
    _walk(w, qtbot)
    assert fields_set(w.model.user_scenario()) == want  # no page wrote a control's value back on load
    first = _first(w, qtbot)
    assert first[-1], first  # #1 applies savers the user left unset (round 15)
    saved = tmp_path / "req02.gpuplan"
    assert w.save_to(saved)
    w2 = make_window()
    assert w2.open_path(saved, show_errors=False)
    _walk(w2, qtbot)
    assert _first(w2, qtbot) == first  # before round 16: a month of 8 × H200, the savers read as set "off"
    assert fields_set(w2.model.user_scenario()) == want
    assert not w2.model.dirty  # opening is not an edit
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert data["saved_fields"] == "set"
    assert "offload_optimizer" not in data["scenario"].get("parallel", {})
    assert "engine_sleep" not in data["scenario"]["training"].get("rl", {})


def test_an_edit_to_the_default_value_is_set_and_saved(make_window, qtbot, tmp_path):
    """Writing a saver off on its page makes it the user's (set, though equal to the default), and Save keeps it."""
    from gpuplanner.io import planfile

    d = json.loads(REQ02.read_text(encoding="utf-8"))
    src = tmp_path / "req02.json"
    src.write_text(json.dumps(d), encoding="utf-8")
    w = make_window()
    assert w.open_path(src, show_errors=False)
    assert "offload_optimizer" not in w.model.user_scenario().parallel.model_fields_set
    assert w.model.set("parallel.offload_optimizer", False) is None
    assert "offload_optimizer" in w.model.user_scenario().parallel.model_fields_set
    assert w.model.dirty  # the file changes: the field is now written
    saved = tmp_path / "off.gpuplan"
    assert w.save_to(saved)
    doc, _ = planfile.load(saved)
    assert doc.scenario.parallel.model_fields_set >= {"offload_optimizer"}
    assert doc.scenario.parallel.offload_optimizer is False
    assert "engine_sleep" not in doc.scenario.training.rl.model_fields_set  # the one never touched stays unset


def test_the_adopted_plan_is_saved_as_the_selected_plan_and_the_cli_reads_it(make_window, qtbot, tmp_path, capsys):
    """The window adopts #1 (the "apply suggested plan" path, ``ScenarioModel.apply_plan``): the user's scenario is
    saved as the user set it, the plan as the selected plan with its own fields set, and ``gpuplanner estimate`` on the
    saved file answers #1's figures. Turning the automatic layout off puts the user's own fields back, unset where the
    user left them (before round 16 an emptied ``hardware: {}`` and the plan tool's ``recompute`` stayed behind as
    the user's)."""
    from gpuplanner.cli import run_cli
    from gpuplanner.core.scenario import Scenario
    from gpuplanner.io import planfile

    d = json.loads(REQ02.read_text(encoding="utf-8"))
    d.setdefault("parallel", {})["auto"] = True  # the automatic layout: the window adopts the search's #1
    src = tmp_path / "req02.json"
    src.write_text(json.dumps(d), encoding="utf-8")
    w = make_window()
    assert w.open_path(src, show_errors=False)
    first = _first(w, qtbot)
    qtbot.waitUntil(lambda: w.model.plan_adopted, timeout=20000)
    saved = tmp_path / "adopted.gpuplan"
    assert w.save_to(saved)
    doc, warnings = planfile.load(saved)
    assert warnings == []
    assert fields_set(doc.scenario) == fields_set(Scenario.model_validate(d))
    plan = w.search.outcome.plans[0].plan
    assert fields_set(doc.selected_plan.scenario) == fields_set(plan.scenario)
    assert run_cli(["estimate", str(saved), "--json"]) == 0
    est = json.loads(capsys.readouterr().out)
    assert (est["calendar_days"], est["cost"]) == pytest.approx((first[3], first[4]), rel=1e-5)
    # manual layout: the adopted plan goes and the user's own fields come back, unset where the user left them
    assert w.model.set("parallel.auto", False) is None
    user = w.model.scenario
    assert "offload_optimizer" not in user.parallel.model_fields_set and not user.parallel.offload_optimizer
    assert "hardware" not in user.model_fields_set and "recompute" not in user.training.model_fields_set
    assert fields_set(w.model.user_scenario()) == fields_set(Scenario.model_validate({**d, "parallel": {"auto": False}}))
