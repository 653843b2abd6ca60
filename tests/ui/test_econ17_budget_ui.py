"""The Project page compares the project with its budget at the likely range's far end, per phase, and names the
phase to cut: the same ProjectBudget lines the ``project`` command prints (issue 35 round 17, econ17)."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "shenzhen-7b-domain-project.gpuplan"


def _budgeted(tmp_path, budget):
    d = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    d["scenario"]["constraints"]["budget"] = budget
    p = tmp_path / "b.gpuplan"
    p.write_text(json.dumps(d), encoding="utf-8")
    return p


def test_project_page_shows_the_budget_and_the_phase_to_cut(make_window, tmp_path, qtbot, capsys):
    path = _budgeted(tmp_path, 12_000.0)  # for the CLI below: the file's own budget
    w = make_window(search_enabled=False)
    assert w.open_path(EXAMPLE, show_errors=False)
    assert not w.model.set("constraints.budget", 12_000.0)  # as the Budget page sets it
    w.go_to(7)
    page = w.pages[7]
    qtbot.waitUntil(lambda: not page.busy() and (page.result is not None or bool(page.error)), timeout=30000)
    assert page.result is not None and page.result.budget is not None
    text = page.budget.text()
    assert not page.budget.isHidden() and text.startswith("Over the budget of ¥12,000")
    assert "Cut full fine-tuning first, the largest phase" in text
    # the CLI prints the same sentences from the Answer
    from gpuplanner.cli import run_cli

    assert run_cli(["project", str(path), "--lang", "en"]) == 0
    cli = capsys.readouterr().out
    for line in text.splitlines():
        assert line.lstrip("• ") in cli, line


def test_no_budget_no_line(make_window, tmp_path, qtbot):
    w = make_window(search_enabled=False)
    assert w.open_path(EXAMPLE, show_errors=False)
    w.go_to(7)
    page = w.pages[7]
    qtbot.waitUntil(lambda: not page.busy() and (page.result is not None or bool(page.error)), timeout=30000)
    assert page.result is not None and page.result.budget is None and page.budget.isHidden()
