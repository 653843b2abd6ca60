"""One plan, one answer in the app on round 13's paths (issue 35 r13 parity13).

- A DeepSpeed-Chat PPO file with ``training.rl.hybrid_engine`` on (postoos13), opened in the window: the Training
  page's switch shows it, the live panel's Evaluation has ``estimate --json``'s step time and calendar days, and the
  Plans page's rows are ``plan --json``'s, each timed with the switch.
- An FP8 vLLM serving phase (fp8lin13's 8-bit prefill): the Project page's first-token sentence is the one
  ``gpuplanner project`` prints (round 12's check on the new case).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from gpuplanner.cli import run_cli

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from test_one_answer_r13 import FP8_VLLM_DOC, HYBRID  # noqa: E402
from tests.ui.conftest import searched  # noqa: E402


def _cli_json(args: list[str], capsys) -> dict:
    assert run_cli(args) == 0
    return json.loads(capsys.readouterr().out)


def test_hybrid_engine_file_gives_the_cli_figures_in_the_app(make_window, qtbot, capsys, tmp_path):
    from gpuplanner.formatting import format_number, format_plan_days, format_time_number

    doc = tmp_path / "hybrid.json"  # the layout given (the live panel's); the Plans page searches around it
    doc.write_text(json.dumps({**HYBRID, "parallel": {"zero": 2}, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}}),
                   encoding="utf-8")
    plans = _cli_json(["plan", str(doc), "--json", "--top", "5"], capsys)["plans"]
    e = _cli_json(["estimate", str(doc), "--json"], capsys)
    w = make_window()
    assert w.open_path(doc, show_errors=False)
    assert w.model.user_scenario().training.rl.hybrid_engine is True
    w.go_to(1)
    box = w.page("training").hybrid_engine
    assert box.isEnabled() and box.isChecked()
    qtbot.waitUntil(lambda: w.estimator.result is not None and w.estimator.result.evaluation is not None,
                    timeout=60000)
    ev = w.estimator.result.evaluation
    assert ev.scenario.training.rl.hybrid_engine is True
    assert ev.time_modelled.step_time_s == pytest.approx(e["step_time_s"], rel=1e-9)
    band = e.get("calendar_days_band")
    days = format_plan_days(e["calendar_days"], None if band is None else tuple(band)) + " calendar days"
    if e["calendar_days"] < 1:  # below a day in hours, as the Project page (formatting.format_plan_span; ux21)
        from gpuplanner.formatting import format_plan_span

        days = format_plan_span(e["calendar_days"], None if band is None else tuple(band))[0] + " in calendar time"
    assert w.live.time_value.text().startswith(days), w.live.time_value.text()
    qtbot.waitUntil(lambda: searched(w) and w.search.outcome is not None, timeout=120000)
    w.go_to(5)
    page = w.page("plans")
    qtbot.waitUntil(lambda: page.table_model.rowCount() > 0, timeout=10000)
    for i, row in enumerate(page.table_model.plans[:3]):
        p = plans[i]
        assert (row.gpu, row.num_gpus) == (p["gpu"], p["num_gpus"])
        assert row.plan.scenario.training.rl.hybrid_engine is True
        assert row.plan.evaluation.time_modelled.step_time_s == pytest.approx(p["step_time_s"], rel=1e-9)
        assert format_time_number(p["calendar_days"]) == format_time_number(row.plan.calendar_days)
        assert format_number(p["cost"], 0) == format_number(row.plan.cost, 0)


def test_the_project_page_fp8_first_token_is_the_cli_sentence(make_window, language, qtbot, capsys):
    from test_one_answer_r12_ui import test_the_project_page_first_token_is_the_cli_sentence as check

    check(FP8_VLLM_DOC, make_window, language, qtbot, capsys)


def test_hybrid_engine_switch_survives_save_and_reopen(make_window, qtbot, tmp_path):
    """The switch set on the Training page is written by Save (the document's ``planfile.dumps``, which autosave and
    recovery write too), read back by Open, and the reopened window evaluates the same step as before."""
    from gpuplanner.io import planfile

    doc = tmp_path / "hybrid-off.json"
    d = json.loads(json.dumps(HYBRID))
    d["training"]["rl"]["hybrid_engine"] = False
    d.update(parallel={"zero": 2}, hardware={"gpu": "h100-sxm-80gb", "num_gpus": 8})
    doc.write_text(json.dumps(d), encoding="utf-8")
    w = make_window(search_enabled=False)
    assert w.open_path(doc, show_errors=False)
    w.go_to(1)
    box = w.page("training").hybrid_engine
    assert box.isEnabled() and not box.isChecked()
    box.setChecked(True)
    assert w.model.user_scenario().training.rl.hybrid_engine is True
    qtbot.waitUntil(lambda: w.estimator.result is not None and w.estimator.result.evaluation is not None
                    and w.estimator.result.evaluation.scenario.training.rl.hybrid_engine, timeout=60000)
    step = w.estimator.result.evaluation.time_modelled.step_time_s
    out = tmp_path / "hybrid.gpuplan"
    assert w.save_to(out)
    back, _ = planfile.load(out)
    assert back.scenario.training.rl.hybrid_engine is True
    w2 = make_window(search_enabled=False)
    assert w2.open_path(out, show_errors=False)
    w2.go_to(1)
    assert w2.page("training").hybrid_engine.isChecked()
    qtbot.waitUntil(lambda: w2.estimator.result is not None and w2.estimator.result.evaluation is not None,
                    timeout=60000)
    assert w2.estimator.result.evaluation.time_modelled.step_time_s == pytest.approx(step, rel=1e-12)


def test_plans_details_name_the_fsdp1_grad_passes_as_the_cli(win, qtbot, tmp_path, capsys):
    """verl13's named part in the Plans details of each top plan of a searched verl PPO run (``parallel.auto``): the
    rows are ``estimate``'s of that plan (formatting.breakdown_rows of the plan's Evaluation), the part among them."""
    from gpuplanner.core.scenario import scenario_from_dict
    from test_breakdown_rows import cli_breakdown_rows, want_rows
    from test_one_answer_r13 import VERL
    from tests.ui.test_breakdown_ui import details_breakdown_rows

    d = json.loads(json.dumps(VERL))
    d["parallel"]["auto"] = True
    d["constraints"] = {"max_gpus": 8, "gpu_candidates": ["h100-sxm-80gb"]}
    win.model.load(scenario_from_dict(d))
    qtbot.waitUntil(lambda: searched(win) and win.search.outcome is not None, timeout=180000)
    win.go_to(5)
    page = win.page("plans")
    qtbot.waitUntil(lambda: page.table_model.rowCount() > 0, timeout=10000)
    for i, row in enumerate(page.table_model.plans[:3]):
        page.show_details(row)
        ev = row.plan.evaluation
        want = want_rows(ev)
        assert details_breakdown_rows(page.details.toPlainText()) == want
        path = tmp_path / f"verl{i}.json"  # this plan's layout as given (with ``auto`` on, estimate answers #1)
        sd = ev.scenario.model_dump(mode="json")
        sd["parallel"]["auto"] = False
        path.write_text(json.dumps(sd), encoding="utf-8")
        assert run_cli(["estimate", str(path)]) == 0
        assert cli_breakdown_rows(capsys.readouterr().out) == want
        # since fsdpstream13 the part is the passes' exposed share (torch runs them on the post-backward stream): on
        # one node it can round below the details' display threshold, so each plan's Evaluation carries the key and
        # the label is shown exactly where its share is shown in the CLI
        assert "fsdp1_grad_passes" in (ev.time.breakdown or {})
        assert "fsdp1_grad_passes" in (ev.time.breakdown or {})



def test_a_selected_hybrid_plan_saved_is_what_the_cli_answers(make_window, qtbot, capsys, tmp_path):
    """With the automatic layout, plan #2 selected on the Plans page and the document saved: the file's selected plan
    keeps the switch, and ``estimate --json`` of the file answers that plan's step time and days (the copy the
    document carries is the plan the window showed)."""
    from gpuplanner.io import planfile

    doc = tmp_path / "hybrid-auto.json"
    doc.write_text(json.dumps(HYBRID), encoding="utf-8")
    w = make_window()
    assert w.open_path(doc, show_errors=False)
    qtbot.waitUntil(lambda: searched(w) and w.search.outcome is not None, timeout=120000)
    w.go_to(5)
    page = w.page("plans")
    qtbot.waitUntil(lambda: page.table_model.rowCount() > 1, timeout=10000)
    row = page.table_model.plans[1]
    page.view.selectRow(page.proxy.mapFromSource(page.table_model.index(1, 0)).row())
    qtbot.waitUntil(lambda: w.model.ui.get("selected_plan") == row.rank, timeout=10000)
    out = tmp_path / "hybrid-auto.gpuplan"
    assert w.save_to(out)
    back, _ = planfile.load(out)
    assert back.selected_plan is not None and back.selected_plan.scenario.training.rl.hybrid_engine is True
    e = _cli_json(["estimate", str(out), "--json"], capsys)
    assert e["scenario"]["hardware"]["num_gpus"] == row.num_gpus
    assert e["step_time_s"] == pytest.approx(row.plan.evaluation.time_modelled.step_time_s, rel=1e-9)
    assert e["calendar_days"] == pytest.approx(row.plan.calendar_days, rel=1e-9)
