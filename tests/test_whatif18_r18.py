"""whatif18 (issue 35 r18): what-if rows and re-plans a senior engineer would sign (cli18's "Seen and not fixed").

1. A what-if row that does not fit in memory showed a time and a cost ("2× parameters  no  452  ¥2,661") as if it
   ran: the Answer now carries none, and says by how much it misses (CLI, Project page and PDF read the same
   ``WhatIf``).
2. The re-plan for an 18.4-hour slot picked "8 × H200, whole machines per month, 5.6 hours, ¥94,000": the H200 is
   quoted in mainland China only per month per 8-card server, and the cheapest mode of a card with one price is that
   price. Planning guide §4 ("Whole machine vs card-hours": whole machines for more than ~40 hours a week over several
   weeks, card-hours for jobs of a few hours): a job that ends within a week is never billed by the week or month
   unless the user chose it (``constraints.rental_mode``); then the re-plan says what the period costs per hour worked.
3. A budget of 0 was accepted, and ``plan``'s second note blamed the NVLink/PCIe rule: 0 or less is refused where it
   is typed (exit 2, one line), and with no plan within the budget the note names the budget.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GRPO = ROOT / "examples" / "7b-grpo-lora-vllm.json"
LLAMA = ROOT / "examples" / "llama3-8b-full.json"


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gpuplanner", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)


# ------------------------------------------------------------------------------------- 1. no figures without a fit

def _grpo_answer():
    from gpuplanner.app.answer import answer

    return answer(GRPO)


def test_a_what_if_that_does_not_fit_carries_no_time_or_cost_and_says_by_how_much():
    res = _grpo_answer().project
    w = next(w for w in res.what_if if w.change == "params_x2")
    assert not w.fits
    assert w.calendar_days is None and w.cost is None, (w.calendar_days, w.cost)  # was 452 hours, ¥2,661
    mem = w.evaluation.memory
    over = mem.total + mem.headroom - mem.capacity
    assert over > 0
    text = w.note.render()
    assert f"{over:.1f} GiB over" in text and f"of {mem.capacity:.1f} GiB" in text, text
    assert "no count up to 16 GPUs fits" in text, text
    assert w.to_json()["calendar_days"] is None and w.to_json()["cost"] is None


def test_the_cli_what_if_row_that_does_not_fit_shows_dashes():
    out = _cli("project", str(GRPO), "--lang", "en").stdout
    row = next(line for line in out.splitlines() if line.strip().startswith("2× parameters"))
    assert "¥" not in row and row.split()[3:5] == ["-", "-"], row


def test_the_pdf_what_if_row_that_does_not_fit_shows_no_figures(app):
    """The PDF reads WhatIf.to_json() (no figures now); its table also prints none for a row marked as not fitting
    (the shenzhen project is the example whose PDF has the what-if table; its first row is made not to fit)."""
    from dataclasses import replace

    from gpuplanner.app.answer import report_data as load_report_data
    from gpuplanner.report.render import _html_project

    data = load_report_data(ROOT / "examples" / "shenzhen-7b-domain-project.gpuplan")
    w0 = data.project.what_if[0]
    assert w0["cost"] is not None and w0["fits"]
    shown = f"{w0['cost']:,.0f}"
    assert shown in _html_project(data, {})
    data = replace(data, project=replace(data.project, what_if=[{**w0, "fits": False}, *data.project.what_if[1:]]))
    assert shown not in _html_project(data, {})


# ---------------------------------------------------------------------------- 2. a short job is not billed a month

def test_the_replan_for_an_18_hour_slot_does_not_rent_a_month():
    res = _grpo_answer().project_replanned
    w = next(w for w in res.what_if if w.change == "params_x2")
    kd = w.keep_deadline
    assert kd is not None
    text = kd.sentence.render()
    # was "To keep the deadline of 18.4 hours: 8 × H200 …, whole machines per month, 5.6 hours, ¥94,000."
    assert kd.evaluation is None and not text.startswith("To keep"), text
    assert text.startswith("No plan billed by the hour within 16 GPUs"), text
    assert "card-hour" in text, text  # why there is no plan: the only quote that fits is by the month
    # what the month would cost per hour worked: ¥94,000 over 8 × H200's 5.6 hours (168 h/week: every hour worked)
    import re

    cal_h = float(re.search(r"for ([\d.]+) hours of work", text).group(1))
    per = float(re.search(r"¥([\d,]+) per hour worked", text).group(1).replace(",", ""))
    assert "¥94,000" in text and per == pytest.approx(94_000 / cal_h, rel=0.01), text


def test_a_short_slots_replan_keeps_hourly_plans_and_a_long_one_may_rent_a_month():
    """The rule is the slot's, not the card's: under a week the hourly plans only; a slot of weeks is ranked as the
    search ranks it (guide §4: whole machines for runs of more than ~40 h/week over several weeks)."""
    from gpuplanner.app.engine import _short_slot_plans
    from gpuplanner.core.project import replan_scenario

    w = next(w for w in _grpo_answer().project.what_if if w.change == "tokens_x10")
    s = replan_scenario(w)

    class P:  # the two fields the rule reads
        def __init__(self, mode, meets):
            self.evaluation = type("E", (), {"rental_mode": mode})()
            self.meets_deadline = meets

    month, hour = P("month", True), P("card_hour", False)
    assert _short_slot_plans([month, hour], s) == ([hour], month)
    long = s.model_copy(update={"constraints": s.constraints.model_copy(update={"deadline_days": 21.0})})
    assert _short_slot_plans([month, hour], long) == ([month, hour], None)
    pinned = s.model_copy(update={"constraints": s.constraints.model_copy(update={"rental_mode": "month"})})
    assert _short_slot_plans([month, hour], pinned) == ([month, hour], None)


def test_a_replan_billed_by_the_month_the_user_chose_says_the_cost_per_hour_worked():
    from gpuplanner.core.project import Replan, replan_scenario
    from gpuplanner.core.search import search

    ans = _grpo_answer()
    w = next(w for w in ans.project.what_if if w.change == "params_x2")
    s = replan_scenario(w)
    s = s.model_copy(update={"constraints": s.constraints.model_copy(update={"rental_mode": "month"})})
    plan = search(s, ans.models, top=1, savers=False).plans[0]
    ev = plan.evaluation
    assert ev.rental_mode == "month" and ev.cost == 94_000.0
    text = Replan(change=w.change, deadline_days=s.constraints.deadline_days, evaluation=ev).sentence.render()
    per = 94_000.0 / (ev.calendar_days * 24.0)  # 168 h/week: every calendar hour is worked
    assert f"¥{per:,.0f} per hour worked" in text, text


# --------------------------------------------------------------------------------------------- 3. a budget of 0

def _with_budget(tmp_path: Path, budget) -> Path:
    d = json.loads(LLAMA.read_text())
    d.setdefault("constraints", {})["budget"] = budget
    p = tmp_path / f"b{budget}.json"
    p.write_text(json.dumps(d))
    return p


@pytest.mark.parametrize("budget", [0, -5])
def test_a_budget_of_zero_or_less_is_refused_in_one_line(tmp_path, budget):
    r = _cli("plan", str(_with_budget(tmp_path, budget)))
    assert r.returncode == 2, (r.returncode, r.stdout[:300])
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and "constraints.budget" in lines[0], r.stderr


def test_the_scenario_refuses_a_budget_of_zero():
    from gpuplanner.core.scenario import scenario_from_dict

    d = json.loads(LLAMA.read_text())
    d.setdefault("constraints", {})["budget"] = 0
    with pytest.raises(Exception):
        scenario_from_dict(d)


def test_with_no_plan_within_the_budget_the_note_names_the_budget_not_nvlink():
    from gpuplanner.core.scenario import scenario_from_dict
    from gpuplanner.core.search import search

    d = json.loads(LLAMA.read_text())
    d.setdefault("constraints", {})["budget"] = 100
    notes = [m.render() for m in search(scenario_from_dict(d), top=5).notes]
    assert not any("card with NVLink" in n for n in notes), notes
    assert any("No plan is within the budget of ¥100" in n for n in notes) or not any("PCIe" in n for n in notes), notes
