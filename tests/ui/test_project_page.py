"""Step 8, the Project page: phases listed, added, removed and reordered; its figures are the core's project
(core.project.evaluate_project) for the document; the project is saved in the plan file."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from gpuplanner.core.project import Project, evaluate_project
from gpuplanner.io import planfile

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "shenzhen-7b-domain-project.gpuplan"


def _settled(qtbot, page) -> None:
    """The project is evaluated off the GUI thread: wait for its answer."""
    qtbot.waitUntil(lambda: not page.busy() and (page.result is not None or bool(page.error)), timeout=30000)


def _open(make_window, tmp_path, qtbot):
    path = tmp_path / "p.gpuplan"
    shutil.copy(EXAMPLE, path)
    w = make_window(search_enabled=False)
    assert w.open_path(path, show_errors=False)
    w.go_to(7)
    _settled(qtbot, w.pages[7])
    return w, w.pages[7], path


def test_project_page_shows_the_core_project(make_window, tmp_path, qtbot):
    w, page, _ = _open(make_window, tmp_path, qtbot)
    assert page.list.count() == 4 and page.table.rowCount() == 4
    res = page.result
    assert res is not None and [p.kind for p in res.phases] == ["cpu_preprocessing", "research", "training",
                                                                "inference"]
    # the same answer as the core on the document (one plan, one answer)
    core = evaluate_project(Project.model_validate(page.project_data()), w.model.scenario)
    assert res.total_cost == pytest.approx(core.total_cost, rel=1e-12)
    assert res.total_cost == pytest.approx(sum(p.cost for p in res.phases), rel=1e-12)
    assert page.whatif.rowCount() == 3
    assert len(page.timeline.bars) == 4
    # the total shown is the core's, through the one formatter
    from gpuplanner.formatting import format_money

    assert format_money(core.total_cost, core.currency, lang="en") in page.total.text()


def test_add_reorder_remove_and_save(make_window, tmp_path, qtbot):
    w, page, path = _open(make_window, tmp_path, qtbot)
    page.add_phase("burst")
    assert page.list.count() == 5 and page.project_data()["phases"][-1]["kind"] == "burst"
    qtbot.waitUntil(lambda: page.result is not None and len(page.result.phases) == 5, timeout=5000)
    assert w.model.dirty
    page.list.setCurrentRow(4)
    page.move_phase(-1)
    assert [p["kind"] for p in page.project_data()["phases"]][3:] == ["burst", "inference"]
    assert page.list.currentRow() == 3
    # edit the serving phase: twice the users never needs fewer GPUs
    page.list.setCurrentRow(4)
    qtbot.waitUntil(lambda: page.result.phases[4].kind == "inference", timeout=5000)
    before = page.result.phases[4].count
    page.concurrency.setValue(100)
    qtbot.waitUntil(lambda: page.result.phases[4].serving is not None
                    and page.result.phases[4].serving.concurrency == 100, timeout=5000)
    assert page.result.phases[4].count >= before
    page.list.setCurrentRow(3)
    page.remove_phase()
    assert page.list.count() == 4
    assert w.save_to(path)
    doc, warnings = planfile.load(path)
    assert warnings == []
    assert [p.kind for p in doc.project.phases] == ["cpu_preprocessing", "research", "training", "inference"]
    assert doc.project.phases[3].inference.concurrency == 100
    assert "app_ui" not in (doc.results or {}) and "project" not in doc.ui_state.model_dump()


def test_kind_change_and_invalid_input(make_window, tmp_path, qtbot):
    w, page, _ = _open(make_window, tmp_path, qtbot)
    page.list.setCurrentRow(1)
    page.kind.setCurrentIndex(page.kind.findData("inference"))
    assert page.project_data()["phases"][1]["kind"] == "inference"
    assert page.detail.currentIndex() == 1
    # a duplicate name is refused with one line, and the document keeps its last valid project
    page.name.setText("serving")
    page._edited()
    assert page.error and "unique" in page.error
    assert Project.model_validate(w.model.ui["project"])  # still valid


def test_a_plan_without_project_is_one_phase(make_window, qtbot):
    w = make_window(search_enabled=False)
    w.go_to(7)
    page = w.pages[7]
    _settled(qtbot, page)
    assert page.list.count() == 1 and page.result is not None
    assert page.result.phases[0].kind == "training"
    assert page.result.total_cost == page.result.phases[0].cost
