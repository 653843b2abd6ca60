"""One plan, one answer in the app: for every example and for random scenarios, the Plans page row, the
live panel after "Use this layout" and ``gpuplanner plan --json`` show the same memory total, calendar days
and cost (to the displayed precision)."""

from __future__ import annotations

from gpuplanner.formatting import format_money, format_number

import json
import random
import re
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from gpuplanner.cli import run_cli
from gpuplanner.core.errors import PlannerError
from gpuplanner.core.scenario import scenario_from_dict

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from test_one_answer import random_scenario  # noqa: E402
from tests.ui.conftest import searched

EXAMPLES = sorted((ROOT / "examples").glob("*.json")) + sorted((ROOT / "examples").glob("*.gpuplan"))
COL = {"memory": 4, "days": 5, "cost": 6}


def _days(p) -> str:
    """The live panel's calendar time: the plan's headline in the unit of its whole range, at the likely range's
    precision, with its word (formatting.format_plan_span; mend10c, ux21), in one message whatever the unit (ux22):
    "19.0 hours in calendar time", "1.2 days in calendar time"."""
    from gpuplanner.formatting import format_plan_span

    band = p.get("calendar_days_band")
    return format_plan_span(p["calendar_days"], None if band is None else tuple(band))[0] + " in calendar time"


def _span_cell(model, p) -> str:
    """The Plans table's time cell of ``p``: the headline's number where the plan reads in the column's unit (hours
    as soon as one plan does, else days), else its span in that unit (plans_page.span_cell; ux22)."""
    from gpuplanner.formatting import format_elapsed, format_plan_span

    band = p.get("calendar_days_band")
    head = format_plan_span(p["calendar_days"], None if band is None else tuple(band))[0]
    unit = model.span_unit()
    return head.split()[0] if head.split()[-1] == unit else format_elapsed(p["calendar_days"], None, unit).split()[0]


def _cli_plans(path: Path, capsys) -> list[dict]:
    assert run_cli(["plan", str(path), "--json", "--top", "20"]) == 0
    return json.loads(capsys.readouterr().out)["plans"]


def _row_text(page, row: int, col: str) -> str:
    return page.table_model.data(page.table_model.index(row, COL[col]), Qt.ItemDataRole.DisplayRole)


def _load(win, qtbot, scenario) -> None:
    """Load ``scenario`` as a new document and wait for its own search."""
    win.model.load(scenario)
    qtbot.waitUntil(lambda: searched(win) and win.search.outcome is not None, timeout=30000)


def _check_window(win, qtbot, scenario, cli: list[dict], top: int = 5) -> int:
    """Load ``scenario`` (manual layout), wait for the search and compare its top rows with the CLI, then
    adopt each and compare the live panel."""
    scenario = scenario.model_copy(update={"parallel": scenario.parallel.model_copy(update={"auto": False})})
    _load(win, qtbot, scenario)
    win.go_to(5)
    page = win.page("plans")
    rows = page.table_model.plans
    assert len(rows) >= min(top, len(cli))
    checked = 0
    for i, row in enumerate(rows[:top]):
        p = cli[i]
        assert (row.gpu, row.num_gpus) == (p["gpu"], p["num_gpus"])
        # the row as displayed
        assert _row_text(page, i, "memory").split(" / ")[0] == format_number(p['memory_per_gpu_gib']['total'], 1)
        assert _row_text(page, i, "days") == _span_cell(page.table_model, p)
        assert _row_text(page, i, "cost") == ("—" if p["cost"] is None else format_number(p['cost'], 0))
        # "Use this layout", then the live panel
        page.view.selectRow(page.proxy.mapFromSource(page.table_model.index(i, 0)).row())
        assert page.current_plan().rank == row.rank and page.current_plan().scenario == row.scenario
        page.adopt_current()
        qtbot.waitUntil(lambda: win.estimator.result is not None and win.estimator.result.evaluation is not None
                        and win.estimator.result.evaluation.scenario == row.scenario, timeout=10000)
        mem = win.live.mem_value.text()
        assert mem.startswith(format_number(p['memory_per_gpu_gib']['total'], 1) + " GiB + "), mem
        t = win.live.time_value.text()
        assert t.startswith(_days(p)), t
        if p["cost"] is not None:
            assert format_money(p["cost"], p["currency"]) in win.live.plan_value.text(), t
        checked += 1
        # back to the search's input for the next row (adopting changed the user's fields)
        _load(win, qtbot, scenario)
        rows = page.table_model.plans
    return checked


@pytest.mark.parametrize("example", [p.name for p in EXAMPLES])
def test_plans_page_and_live_panel_match_the_cli(win, qtbot, capsys, example):
    from gpuplanner.app.answer import load_document

    path = ROOT / "examples" / example
    scenario = load_document(path).scenario  # what the user set: the search's input (a plan file's own scenario)
    cli = _cli_plans(path, capsys)
    assert _check_window(win, qtbot, scenario, cli, top=3) >= 1


@pytest.mark.parametrize("example", [p.name for p in EXAMPLES])
def test_automatic_layout_live_panel_and_plans_page_match_estimate(win, qtbot, capsys, tmp_path, example):
    """With automatic layout (a plan file's selected plan dropped) the document stands for the search's #1
    (gpuplanner.app.answer.decide): the live panel, the Plans page's chosen row and ``estimate --json`` of the
    same file show the same plan, memory, days and cost; so does the report the window writes."""
    sys.path.insert(0, str(ROOT / "tests"))
    from answer_examples import auto_variant

    from gpuplanner.app.answer import load_document

    f = auto_variant(ROOT / "examples" / example, tmp_path)
    e = json.loads((run_cli(["estimate", str(f), "--json"]), capsys.readouterr().out)[1])
    doc = load_document(f)
    assert doc.scenario.parallel.auto and doc.selected is None
    _load(win, qtbot, doc.scenario)
    qtbot.waitUntil(lambda: win.estimator.result is not None and win.estimator.result.evaluation is not None
                    and win.estimator.result.evaluation.scenario == win.search.outcome.plans[0].scenario,
                    timeout=30000)
    ev = win.estimator.result.evaluation
    assert (ev.gpu_id, ev.num_gpus, ev.layout.to_json()) == (e["gpu"], e["num_gpus"], e["layout"])
    assert win.live.mem_value.text().startswith(format_number(e["memory_per_gpu_gib"]["total"], 1) + " GiB + ")
    t = win.live.time_value.text()
    assert t.startswith(_days(e)), t
    if e["cost"] is not None:  # the plan line (GPUs, MFU, cost) under the three figures
        assert format_money(e["cost"], e["currency"]) in win.live.plan_value.text(), win.live.plan_value.text()
    win.go_to(5)
    page = win.page("plans")
    qtbot.waitUntil(lambda: page.current_plan() is not None, timeout=10000)
    assert page.current_plan().rank == 1
    assert _row_text(page, 0, "days") == _span_cell(page.table_model, e)
    assert _row_text(page, 0, "cost") == ("—" if e["cost"] is None else format_number(e["cost"], 0))
    # the window's report: built from the Answer the window holds (its search outcome: no second search)
    from gpuplanner.ui.report import report_data, window_answer

    ans = window_answer(win)
    assert ans.given_search is win.search.outcome.result
    data = report_data(win, ans)
    assert (data.plan.gpu_id, data.plan.num_gpus) == (e["gpu"], e["num_gpus"])
    assert format_number(data.plan.calendar_days, 2) == format_number(e["calendar_days"], 2)


def test_random_scenarios_match_the_cli_in_the_app(win, qtbot, capsys, tmp_path):
    rng = random.Random(404)
    done = 0
    while done < 6:
        d = random_scenario(rng)
        try:
            scenario = scenario_from_dict(d)
        except PlannerError:
            continue
        f = tmp_path / "s.json"
        f.write_text(json.dumps(d), encoding="utf-8")
        cli = _cli_plans(f, capsys)
        if not cli:
            continue
        _check_window(win, qtbot, scenario, cli, top=2)
        done += 1


def test_live_panel_names_both_kinds_of_days(win):
    t = win.live.time_value.text()
    assert re.search(r"calendar days \(.* days of compute\)|in calendar time \(.* of compute\)", t), t


def test_200_random_scenarios_rows_and_live_panel_match_plan_json(win):
    """The Plans page's table model and the live panel (the view code, fed synchronously) show what
    ``plan --json`` says for the top 5 plans of 200 random scenarios."""
    from gpuplanner.app import engine
    from gpuplanner.ui.pages.plans_page import PlanTableModel

    rng = random.Random(2027)
    table = PlanTableModel()
    done = rows_checked = 0
    while done < 200:
        try:
            scenario = scenario_from_dict(random_scenario(rng))
        except PlannerError:
            continue
        out = engine.search_plans(scenario, top=5)
        done += 1
        table.set_plans(out.plans)
        for i, row in enumerate(out.plans):
            p = row.plan.to_json()
            cell = lambda col: table.data(table.index(i, COL[col]), Qt.ItemDataRole.DisplayRole)  # noqa: E731
            assert cell("memory").split(" / ")[0] == format_number(p['memory_per_gpu_gib']['total'], 1)
            assert cell("days") == _span_cell(table, p)
            assert cell("cost") == ("—" if p["cost"] is None else format_number(p['cost'], 0))
            win.live.on_estimate(engine.live(row.scenario))
            assert win.live.mem_value.text().startswith(format_number(p['memory_per_gpu_gib']['total'], 1) + " GiB + ")
            t = win.live.time_value.text()
            assert t.startswith(_days(p))
            if p["cost"] is not None:
                assert format_money(p["cost"], p["currency"]) in win.live.plan_value.text()
            rows_checked += 1
    assert rows_checked >= 500, rows_checked
