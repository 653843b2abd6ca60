"""One plan, one answer for plan files: opening a shipped ``.gpuplan`` example in the app shows the cost, days and
memory that ``gpuplanner estimate`` prints for the file. Four examples hold a manual layout and a selected plan
priced from the quote it carries (``constraints.prices``); the app used to drop that plan and price the user's
layout at today's default price (7b-lora-1x4090: ¥82.14 in the app against ¥51.44 from the CLI)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuplanner.app.answer import answer

ROOT = Path(__file__).resolve().parents[2]
PLANS = sorted((ROOT / "examples").glob("*.gpuplan"))


@pytest.mark.parametrize("path", PLANS, ids=[p.stem for p in PLANS])
def test_an_opened_example_shows_the_clis_answer(win, qtbot, path):
    want = answer(path).evaluation
    assert win.doc.open_path(path, show_errors=False)
    qtbot.waitUntil(lambda: win.estimator.result is not None and win.estimator.result.evaluation is not None,
                    timeout=20000)
    got = win.estimator.result.evaluation
    assert got.cost == pytest.approx(want.cost, rel=1e-9), (path.name, got.cost, want.cost)
    assert got.calendar_days == pytest.approx(want.calendar_days, rel=1e-9)
    assert got.memory.reserved == pytest.approx(want.memory.reserved, rel=1e-9)
