"""Issue 35 round 12, expert12: plan #1 of twelve everyday requests read by a senior infrastructure engineer
(tests/data/expert_review_r12/; the verdicts are in docs/notes/2026-12-07/issue-35-r12-expert12.md).

What an engineer rejected, and what each test pins:
* A two-week burst (突发扩容, planning guide §3: "confirm real-time scale-out") of Qwen2.5-32B full fine-tuning: #1 is
  8 × H200 by the whole month (the card has no card-hour quote), and its cost line said "Burst: rent elastic
  on-demand capacity" under a monthly lease. The line now says the plan is a lease, not elastic capacity, and what
  to ask for; the rank is kept (round 11's rule for leased #1s: said, never applied).
* The savers line, the held-back (networked quote) line and the poor-MFU rank line printed days with two decimals
  ("8.00 days", "25.32 days") beside the plan's own "3.1 calendar days"; they now print the span as the plan's other
  lines do (messages.elapsed_msg: "8.0 days", "1.7 hours"), in en and zh.
* ``gpuplanner project`` cut the rental column at 21 columns: "whole machines per…" for a serving phase billed by the
  month. The column now holds the longest mode label.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gpuplanner.core import cost as costmod
from gpuplanner.core import search
from gpuplanner.core.scenario import Scenario
from tests.savers_off import savers_off, savers_off_file

DATA = Path(__file__).resolve().parent / "data" / "expert_review_r12"
ELASTIC = "Burst: rent elastic on-demand capacity"
LEASE = "a lease, not elastic capacity"
TWO_DECIMAL_DAYS = re.compile(r"\d+\.\d\d days")


def _doc(name: str) -> dict:
    """The request with the savers written off by the user (round 15: unset savers are searched; the lines here
    are for the ones the user set: tests/savers_off.py)."""
    return savers_off(json.loads((DATA / name).read_text(encoding="utf-8")))


@pytest.fixture(scope="module")
def burst():
    return search.search(Scenario.model_validate(_doc("burst-32b-2-weeks.json")), top=2)


def _cli(args, capsys) -> str:
    from gpuplanner.cli import run_cli

    assert run_cli(args) == 0
    return capsys.readouterr().out


def test_burst_lease_is_not_called_elastic(capsys, tmp_path):
    """The burst request's monthly lease (8 × H200; #1 until round 14, #2 since the H20's own MFU-ceiling class
    made 8 × H20 on card-hours meet the 14 days: advice14) must not tell the user to rent elastic on-demand capacity
    as if the plan were that: its lines say it is a lease and to ask for card-hours. The card-hours plan keeps the
    elastic line."""
    out = _cli(["plan", str(savers_off_file(DATA / "burst-32b-2-weeks.json", tmp_path)), "--top", "2", "--lang", "en"],
               capsys)
    one, two = out.split("\n2. ", 1)[0].split("\n1. ", 1)[1], out.split("\n2. ", 1)[1]
    lease, elastic = (one, two) if "¥94,000" in one.splitlines()[0] else (two, one)
    assert "whole machines per month" in lease and "¥94,000" in lease.splitlines()[0]
    assert LEASE in lease and ELASTIC not in lease
    assert "card-hours on demand" in elastic and ELASTIC in elastic and LEASE not in elastic


@pytest.mark.parametrize("mode,expect", [("month", LEASE), ("week", LEASE), ("card_hour", ELASTIC),
                                         ("hybrid_month", ELASTIC)])
def test_burst_line_by_billing_mode(mode, expect):
    """The phase line follows the plan's billing: a whole-machine lease is not elastic; card-hours (capped or not)
    are. Research and stable phases are unchanged."""
    (line,) = costmod._phase_line("burst", mode, 8)
    assert expect in line.render()
    assert "8 cards" in line.render()
    assert costmod._phase_line("stable", mode, 8) == []
    research = costmod._phase_line("research", mode, 8)
    assert bool(research) == (mode in ("card_hour", "spot", "week", "month"))


def test_burst_lease_line_in_chinese(capsys, tmp_path):
    out = _cli(["plan", str(savers_off_file(DATA / "burst-32b-2-weeks.json", tmp_path)), "--top", "2", "--lang",
                "zh_CN"], capsys)
    assert "属于租约，不是弹性算力" in out and "Burst" not in out


def test_days_in_savers_and_held_back_lines_as_the_plan_prints_them(burst):
    """#1's savers line and held-back line print the span as the plan's own lines ("8.0 days"), not "8.00 days";
    their figures are unchanged (params["days"] stays the float the line is about)."""
    one = burst.plans[0]
    texts = [m for m in one.explanation if m.text.startswith(("With ", "A better plan by the objective"))]
    assert len(texts) == 2
    for m in texts:
        line = m.render()
        assert not TWO_DECIMAL_DAYS.search(line), line
        assert m.params["span"].render() in line
        assert isinstance(m.params["days"], float)


def _first_block(out: str) -> str:
    """The phase table: the output's first paragraph once the "> " lines above it are gone."""
    return "\n".join(ln for ln in out.splitlines() if not ln.startswith("> ")).strip("\n").split("\n\n", 1)[0]


def test_project_rental_column_is_not_cut(capsys):
    """``project`` prints "whole machines per month" whole, in en and zh (was "whole machines per…")."""
    f = str(DATA / "serve-32b-fp8-200-users.gpuplan")
    out = _cli(["project", f, "--lang", "en"], capsys)
    # (the table's lines: since round 15 a line above the phases may say the search's better plan, choice15)
    # (cli18 put that line above the table with a blank line after it: drop it before taking the first block)
    table = _first_block(out)
    assert "whole machines per month" in table and "per…" not in table
    assert all(len(line) <= 160 for line in table.splitlines()[:3])  # the header and the two phases' rows
    zh = _first_block(_cli(["project", f, "--lang", "zh_CN"], capsys))
    assert "整机月租" in zh and "…" not in zh.splitlines()[2]


@pytest.mark.parametrize("label", sorted(costmod.MODE_LABELS.values()))
def test_every_rental_label_fits_the_project_column(label):
    from gpuplanner.commands import project as cmd
    from gpuplanner.commands._args import cut

    assert cut(label, cmd.RENTAL_WIDTH) == label


def test_refusal_says_the_fit_instead_plan_misses_the_deadline():
    """Llama 3.1 405B full fine-tuning on ≤ 16 GPUs in 7 days: nothing fits, and the offload line's plan (16 × A800,
    ~130 days) now says it misses the 7-day deadline; the user's choice is still only said, never applied."""
    res = search.search(Scenario.model_validate(_doc("refuse-405b-16-4090.json")), top=3)
    assert not res.plans
    lines = [m for m in res.notes if hasattr(m, "text") and "fits: its best plan is" in m.text]
    assert lines, [str(m) for m in res.notes]
    offload = [m for m in lines if "offload_params" in m.render()]
    assert len(offload) == 1
    text = offload[0].render()
    assert offload[0].params["days"] > 7 and "misses the deadline of 7 days" in text  # the one span formatter (ux20; whole days as typed: ux25)
    assert text.endswith("Your choice is kept; change it to plan with this.")


def test_fit_instead_misses_by_constraint():
    from types import SimpleNamespace as NS

    def scen(deadline, budget):
        return NS(constraints=NS(deadline_days=deadline, budget=budget))

    late = NS(meets_deadline=False, within_budget=True, currency="CNY")
    both = NS(meets_deadline=False, within_budget=False, currency="CNY")
    ok = NS(meets_deadline=True, within_budget=True, currency="CNY")
    assert search._fit_instead_misses(scen(7, None), ok) is None
    assert "deadline of 7 days" in search._fit_instead_misses(scen(7, None), late).render()
    m = search._fit_instead_misses(scen(7, 1000), both).render()
    assert "deadline of 7 days" in m and "budget" in m
    assert search._fit_instead_misses(scen(None, None), both) is None


def test_research_lease_says_it_bills_idle_hours(capsys):
    """LoRA of Qwen2.5-14B in the research phase at 30 h/week, H200 only (no card-hour quote: a monthly lease):
    #1 printed no research line at all; it now says the lease bills the 138 idle hours a week and to ask for an
    hourly quote. A card-hour plan keeps the guide's research line."""
    out = _cli(["plan", str(DATA / "lora-14b-research-30h-h200-only.json"), "--top", "1", "--lang", "en"], capsys)
    assert "whole machines per month" in out
    assert "Research phase: start/stop sessions favour card-hours, but this plan is billed on whole machines per " \
           "month" in out and "138 hours a week you do not work" in out
    (full,) = costmod._phase_line("research", "month", 8, 168.0)
    assert "hourly quote" in full.render() and "do not work" not in full.render()
    (hourly,) = costmod._phase_line("research", "card_hour", 8, 30.0)
    assert "counted here" in hourly.render()
