"""One answer per document (gpuplanner/app/answer.py): the rule that decides the plan a document stands for, and
``estimate``, ``plan``, ``project`` and the report (its ReportData) agreeing on that plan — GPU, count, layout,
memory, days and cost — for every example, each also with automatic layout."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest

from gpuplanner.app.answer import SCENARIO, SEARCH, SELECTED, Answer, answer, decide, document_from_scenario, report_data
from gpuplanner.cli import run_cli

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from answer_examples import NAMES, example_path  # noqa: E402


def _json(capsys, *cmd: str) -> dict:
    assert run_cli([*cmd, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _close(a, b) -> bool:
    if a is None or b is None:
        return a is b
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


# ------------------------------------------------------------------------------------------------ the rule

class _S:
    def __init__(self, auto: bool):
        self.parallel = type("P", (), {"auto": auto})()


def test_decide_takes_the_selected_plan_first_without_searching():
    called = []
    assert decide(_S(True), "mine", lambda: called.append(1) or ["best"]) == (SELECTED, "mine")
    assert decide(_S(False), "mine", lambda: called.append(1) or ["best"]) == (SELECTED, "mine")
    assert called == []


def test_decide_automatic_layout_is_the_search_best():
    assert decide(_S(True), None, lambda: ["best", "second"]) == (SEARCH, "best")


def test_decide_manual_layout_is_the_scenario_and_runs_no_search():
    s = _S(False)
    assert decide(s, None, lambda: pytest.fail("searched")) == (SCENARIO, s)


def test_decide_automatic_layout_without_plans_is_the_scenario():
    s = _S(True)
    assert decide(s, None, lambda: []) == (SCENARIO, s)


# ----------------------------------------------------------------------------------- the reproducer

def test_estimate_and_report_agree_on_an_automatic_layout(tmp_path, capsys):
    """issue 34: with ``parallel.auto`` on the 8B example, ``estimate`` said 8×H100 and ``report`` 8×RTX 4090D."""
    f = example_path("auto:llama3-8b-full-8xh100-zero3.json", tmp_path)
    e = _json(capsys, "estimate", str(f))
    data = report_data(f)
    assert (data.plan.gpu_id, data.plan.num_gpus) == (e["gpu"], e["num_gpus"])
    assert _close(data.plan.cost, e["cost"]) and _close(data.plan.calendar_days, e["calendar_days"])
    ans = answer(f)
    assert ans.chosen_by == SEARCH
    assert ans.evaluation is ans.plans[0].evaluation  # the search's #1 itself, not a second evaluation


# ------------------------------------------------------------------------------- every example, both ways

@pytest.mark.parametrize("name", NAMES)
def test_estimate_plan_report_and_project_agree(name, tmp_path, capsys):
    f = example_path(name, tmp_path)
    e = _json(capsys, "estimate", str(f))
    ans = answer(f)
    ev = ans.evaluation
    want = SELECTED if f.suffix == ".gpuplan" and not name.startswith("auto:") else (
        SEARCH if ans.scenario.parallel.auto and ans.plans else SCENARIO)
    assert ans.chosen_by == want
    # estimate --json is the answer's Evaluation
    assert (e["gpu"], e["num_gpus"], e["layout"]) == (ev.gpu_id, ev.num_gpus, ev.layout.to_json())
    assert _close(e["memory_per_gpu_gib"]["total"], ev.memory.total)
    assert _close(e["calendar_days"], ev.calendar_days) and _close(e["cost"], ev.cost)
    # the report's chosen plan is the same plan, with the same figures
    data = report_data(f)
    p = data.plan
    assert (p.gpu_id, p.num_gpus, p.layout.tp, p.layout.pp, p.layout.dp, p.layout.zero) == (
        e["gpu"], e["num_gpus"], e["layout"]["tp"], e["layout"]["pp"], e["layout"]["dp"], e["layout"]["zero"])
    assert _close(p.memory["total"], e["memory_per_gpu_gib"]["total"])
    assert _close(p.calendar_days, e["calendar_days"]) and _close(p.cost, e["cost"])
    # no alternative the report lists is the chosen plan again
    assert all(a.scenario != p.scenario for a in data.alternatives)
    # plan --json: with automatic layout and nothing selected, its #1 is the answer
    if ans.chosen_by == SEARCH:
        top = _json(capsys, "plan", str(f))["plans"][0]
        assert (top["gpu"], top["num_gpus"]) == (e["gpu"], e["num_gpus"])
        assert _close(top["calendar_days"], e["calendar_days"]) and _close(top["cost"], e["cost"])
    # project: a one-phase project runs the answer's plan (its rental mode is the phase's own choice)
    proj = _json(capsys, "project", str(f))
    if len(proj["phases"]) == 1:
        ph = proj["phases"][0]
        assert (ph["gpu"], ph["count"], ph["training"]["layout"]) == (e["gpu"], e["num_gpus"], e["layout"])
        assert _close(ph["training"]["compute_days"], e["compute_days"])


def test_an_answer_reuses_what_the_caller_already_has():
    """The window hands in its search outcome, Evaluation and sweep: the report's Answer runs no second search."""
    from gpuplanner.core.evaluate import evaluate, scaling
    from gpuplanner.core.scenario import scenario_from_dict

    s = scenario_from_dict(json.loads((ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json").read_text()))
    ev = evaluate(s)
    sweep = scaling(ev.scenario)

    class NoSearch(Answer):
        @property
        def search(self):  # noqa: D401
            raise AssertionError("searched")

    ans = NoSearch(document_from_scenario(s), given_evaluation=ev, given_scaling=(ev.scenario, sweep))
    assert ans.chosen_by == SCENARIO and ans.evaluation is ev and ans.scaling is sweep
