"""Calibration is specific: a kit result measured on H100 changes only the H100 plans, through their own
layouts; a CPU smoke test is shown but cannot be applied (the core decides: core/calibration.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuplanner.core.scenario import scenario_from_dict
from tests.ui.conftest import searched

ROOT = Path(__file__).resolve().parents[2]
H100_RESULT = ROOT / "tests" / "data" / "kit" / "result-cpu-sample.json"  # synthetic 8× H100 run (mode cuda)
CPU_RESULT = ROOT / "tests" / "data" / "kit" / "result-cpu-run.json"      # a real CPU smoke test (gloo)

SCENARIO = {"model": {"preset": "llama-3-8b"}, "training": {"method": "full", "seq_len": 4096},
            "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}, "data": {"tokens": "20B"},
            "constraints": {"max_gpus": 16, "gpu_candidates": ["h100-sxm-80gb", "a800-sxm-80gb"]}}


def _plans(win) -> dict[str, list[tuple]]:
    out: dict[str, list[tuple]] = {}
    for row in win.page("plans").table_model.plans:
        ev = row.plan.evaluation
        key = (ev.num_gpus, ev.layout.framework, ev.layout.tp, ev.layout.pp, ev.layout.zero, ev.layout.recompute,
               ev.layout.micro_batch_size)
        out.setdefault(ev.gpu_id, []).append((key, ev.mfu, ev.cost, ev.calibration))
    return out


def test_h100_result_changes_only_h100_plans_and_cpu_cannot_be_applied(win, qtbot):
    win.model.load(scenario_from_dict(SCENARIO))
    qtbot.waitUntil(lambda: searched(win) and win.search.outcome is not None, timeout=60000)
    before = _plans(win)
    assert before.get("h100-sxm-80gb") and before.get("a800-sxm-80gb")
    panel = win.page("verify").panel
    assert panel.import_result_file(H100_RESULT)
    assert panel.apply_button.isEnabled()
    panel.apply_button.click()
    runs = win.model.scenario.assumptions.measured_runs
    assert len(runs) == 1 and runs[0].gpu == "h100-sxm-80gb" and win.model.scenario.assumptions.mfu is None
    qtbot.waitUntil(lambda: searched(win) and win.search.outcome is not None, timeout=60000)
    after = _plans(win)
    # A800 plans: the very same plans, figures unchanged, no calibration
    assert [r[:3] for r in after["a800-sxm-80gb"]] == [r[:3] for r in before["a800-sxm-80gb"]]
    assert all(r[3] is None for r in after["a800-sxm-80gb"])
    # H100 plans: every one calibrated by the run, and the MFU of the same layouts moved
    assert all(r[3] is not None and r[3][0].gpu == "h100-sxm-80gb" for r in after["h100-sxm-80gb"])
    old = {r[0]: r[1] for r in before["h100-sxm-80gb"]}
    same = [(old[r[0]], r[1]) for r in after["h100-sxm-80gb"] if r[0] in old]
    assert same and all(abs(a - b) > 1e-4 for a, b in same)
    # not one global MFU: plans with other layouts keep their own communication, so MFUs differ
    assert len({round(r[1], 4) for r in after["h100-sxm-80gb"]}) > 1

    # a CPU smoke test: shown, but the core refuses it
    assert panel.import_result_file(CPU_RESULT)
    assert not panel.apply_button.isEnabled()
    assert "Not applied" in panel.kit_status.text() and "CPU" in panel.kit_status.text()
    panel.apply_button.click()  # disabled: nothing happens
    assert len(win.model.scenario.assumptions.measured_runs) == 1


def test_a_cpu_run_in_the_scenario_never_calibrates():
    from gpuplanner.core.evaluate import evaluate

    d = {**SCENARIO, "assumptions": {"measured_runs": [
        {"gpu": "h100-sxm-80gb", "num_gpus": 2, "mfu": 0.0000037, "device": "cpu"}]}}
    ev = evaluate(scenario_from_dict(d))
    base = evaluate(scenario_from_dict(SCENARIO))
    assert ev.calibration is None and ev.mfu == pytest.approx(base.mfu, rel=1e-12)
    assert "CPU" in ev.calibration_notes[0].render()
