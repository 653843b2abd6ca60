"""Issue 35 round 10 (advice11): the cost chart's star is decided in the app layer (app.answer.chart_star), not in
the live panel, and it marks the plan the summary, the CLI and the PDF report stand for, with automatic and with
manual layout."""

from __future__ import annotations

import json
import math
from pathlib import Path

from gpuplanner.app import engine
from gpuplanner.app.answer import Answer, Document, answer, chart_star
from gpuplanner.cli import run_cli
from gpuplanner.core.scenario import scenario_from_dict

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json"


def _dict(auto: bool) -> dict:
    d = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    if auto:
        d["parallel"] = {"auto": True}
    return d


def _cli(tmp_path, capsys, cmd: str, d: dict) -> dict:
    f = tmp_path / f"{cmd}.json"
    f.write_text(json.dumps(d), encoding="utf-8")
    assert run_cli([cmd, str(f), "--json"] + (["--top", "5"] if cmd == "plan" else [])) == 0
    return json.loads(capsys.readouterr().out)


def _report_star(a: Answer) -> tuple[float, float]:
    from gpuplanner.app.answer import report_data

    rd = report_data(a.document, answer_=a)
    marked = [(days, cost) for _, days, cost, chosen in rd.cost_vs_time if chosen]
    assert len(marked) == 1
    return marked[0]


def _close(a, b) -> bool:
    return all(math.isclose(x, y, rel_tol=1e-9) for x, y in zip(a, b))


def test_manual_layout_star_is_the_plans_own_point_in_app_cli_and_report(tmp_path, capsys):
    d = _dict(auto=False)
    a = answer(Document(scenario=scenario_from_dict(d)))
    index, at = a.star
    assert index is None and at is not None
    ev = a.evaluation
    assert _close(at, (ev.calendar_days, ev.cost))
    est = _cli(tmp_path, capsys, "estimate", d)
    assert _close(at, (est["calendar_days"], est["cost"]))
    assert _close(at, _report_star(a))
    # what the live panel draws: the same rule on the window's rows and its summary's Evaluation
    rows = engine.search_plans(a.scenario).plans
    assert engine.chart_star(a.scenario, rows, 1, ev) == (None, at)
    # the search's #1 is another plan here (the rule matters): the star is not on it
    assert not _close(at, (rows[0].calendar_days, rows[0].cost))


def test_automatic_layout_star_is_the_chosen_row_in_app_cli_and_report(tmp_path, capsys):
    d = _dict(auto=True)
    a = answer(Document(scenario=scenario_from_dict(d)))
    index, at = a.star
    assert index == 0 and at is None
    p = a.plans[index]
    point = (p.evaluation.calendar_days, p.evaluation.cost)
    assert _close(point, (a.evaluation.calendar_days, a.evaluation.cost))  # the summary's plan
    plan = _cli(tmp_path, capsys, "plan", d)["plans"][0]
    assert _close(point, (plan["calendar_days"], plan["cost"]))
    assert _close(point, _report_star(a))
    rows = engine.search_plans(a.scenario).plans
    assert engine.chart_star(a.scenario, rows, 1, None) == (0, None)
    assert _close((rows[0].calendar_days, rows[0].cost), point)


def test_automatic_layout_star_follows_a_selected_plan_in_app_and_window(tmp_path):
    d = _dict(auto=True)
    s = scenario_from_dict(d)
    rows = engine.search_plans(s).plans
    assert len(rows) >= 3
    # the window: the user picked rank 3; the document: a plan file whose selected plan is that plan
    assert chart_star(s, rows, 3, None) == (2, None)
    a = answer(Document(scenario=s, selected=rows[2].plan.scenario))
    index, at = a.star
    assert index is not None and at is None
    assert a.plans[index].scenario == rows[2].plan.scenario
    assert _close((a.evaluation.calendar_days, a.evaluation.cost), (rows[2].calendar_days, rows[2].cost))
    assert _close(_report_star(a), (rows[2].calendar_days, rows[2].cost))
    # a rank the rows do not hold: no star rather than a wrong one
    assert chart_star(s, rows, 999, None) == (None, None)


def test_report_reads_the_answers_star(monkeypatch):
    """review r10 (mend10b): the report does not pick its starred point itself; it draws Answer.star."""
    d = _dict(auto=True)
    a = answer(Document(scenario=scenario_from_dict(d)))
    assert len(a.plans) >= 2
    other = a.plans[1]
    monkeypatch.setattr(Answer, "star", property(lambda self: (1, None)))
    assert _close(_report_star(a), (other.calendar_days, other.cost))
    monkeypatch.setattr(Answer, "star", property(lambda self: (None, (1.5, 2.5))))
    assert _report_star(a) == (1.5, 2.5)
    monkeypatch.setattr(Answer, "star", property(lambda self: (None, None)))
    from gpuplanner.app.answer import report_data

    rd = report_data(a.document, answer_=a)
    assert not any(chosen for *_, chosen in rd.cost_vs_time)
