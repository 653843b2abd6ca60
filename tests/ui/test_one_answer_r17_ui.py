"""The Plans page's copies of round 17's capped-MFU mark (issue 35 r17 parity17; the CLI, JSON and PDF halves are
tests/test_one_answer_r17.py).

``gpuplanner plan`` marks a plan timed at the best published run of its class "52% (capped)" (advice18, review17:
``Evaluation.mfu_capped``); the Plans page's MFU cell showed the bare figure, the same number as an uncapped plan's,
and the note only in the details pane below (found by parity17: this test failed before ``plans_page.mfu_cell``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_70B = ROOT / "examples" / "llama3-70b-pretrain-64xh800-tp8pp4.json"


@pytest.fixture(scope="module")
def rows():
    """The 70B example's search as the Plans page's rows (app.engine.search_plans): #1 is capped."""
    from gpuplanner.app import engine
    from gpuplanner.core.scenario import Scenario

    s = Scenario.model_validate(json.loads(EXAMPLE_70B.read_text(encoding="utf-8")))
    out = engine.search_plans(s, top=5).plans
    assert out[0].plan.evaluation.mfu_capped
    return out


def _mfu_cells(rows) -> list[str]:
    from gpuplanner.ui.pages.plans_page import COLUMNS, PlanTableModel

    m = PlanTableModel()
    m.set_plans(rows)
    return [m.data(m.index(i, COLUMNS.index("mfu"))) for i in range(len(rows))]


def test_plans_page_marks_the_capped_plans_as_the_cli(qapp, rows, capsys):
    from gpuplanner.cli import run_cli

    assert run_cli(["plan", str(EXAMPLE_70B), "--top", "5", "--lang", "en"]) == 0
    text = capsys.readouterr().out
    for i, (row, cell) in enumerate(zip(rows, _mfu_cells(rows)), 1):
        capped = row.plan.evaluation.mfu_capped
        assert ("(capped)" in cell) is capped, cell
        line = next(ln for ln in text.splitlines() if ln.startswith(f"{i}  "))
        assert ("(capped)" in line) is capped, line


def test_the_capped_mark_in_chinese(qapp, rows, language):
    language.install("zh_CN")
    cell = _mfu_cells(rows[:1])[0]
    assert "已封顶" in cell and "capped" not in cell, cell
