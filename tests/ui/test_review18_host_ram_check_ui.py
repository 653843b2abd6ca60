"""Issue 35 round 18, review18: the Verify page's vendor checklist carries advice20's host RAM item where the plan's
CPU offload keeps states in CPU memory, as the printed plan's checklist does (core.checklist.items_for_plan); on
main the page built its rows from checklist.ITEMS only, so the item the PDF listed could not be ticked in the app."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("PySide6")

from gpuplanner.core import checklist as ck  # noqa: E402
from gpuplanner.io.scenario_files import load_scenario  # noqa: E402
from gpuplanner.ui.verify_panel import VerifyPanel  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
H100_8B = ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json"


def test_host_ram_item_follows_the_plans_offload(qtbot):
    w = VerifyPanel()
    qtbot.addWidget(w)
    s, base = load_scenario(H100_8B)
    w.set_scenario(s, base)
    plain = len(ck.items(domestic=False))
    assert w._check_rows[ck.HOST_RAM_ITEM.id][0].isHidden()  # no offload: not asked
    assert w.check_progress.text() == f"0 of {plain} checked"
    off = s.model_copy(update={"parallel": s.parallel.model_copy(update={"offload_optimizer": True})})
    w.set_scenario(off, base)
    box = w._check_rows[ck.HOST_RAM_ITEM.id][0]
    assert not box.isHidden() and box.text() == ck.HOST_RAM_ITEM.title
    assert w.check_progress.text() == f"0 of {plain + 1} checked"
    with qtbot.waitSignal(w.checklistChanged) as blocker:
        box.setChecked(True)
    assert blocker.args[0].entry(ck.HOST_RAM_ITEM.id).checked
    assert w.check_progress.text() == f"1 of {plain + 1} checked"
