"""The absurd-plan gate sits in one place (app.answer.shown, issue #32 round 2): the Answer's Evaluation and
the window's live estimate go through it; a search still ranks plans for a manual layout that cannot be
evaluated (only an absurd plan stops ``plan``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpuplanner.app import engine
from gpuplanner.app.answer import Answer, Document, evaluate_shown
from gpuplanner.core.errors import ScenarioError
from gpuplanner.core.plausible import ImplausibleError
from gpuplanner.core.scenario import scenario_from_dict

ROOT = Path(__file__).resolve().parents[1]


def _src(name: str) -> Path:
    """An example by name: examples/, or tests/data/examples_fixed/ for the fixed-layout files that left
    examples/ in issue 35 round 16 (examples16: those examples now let the search choose)."""
    here = ROOT / "examples" / name
    return here if here.exists() else ROOT / "tests" / "data" / "examples_fixed" / name


def _scenario(base: str = "7b-lora-1x4090.json", **sections):
    d = json.loads(_src(base).read_text(encoding="utf-8"))
    for k, v in sections.items():
        d.setdefault(k, {}).update(v)
    return scenario_from_dict(d)


@pytest.mark.parametrize("sections, field", [
    ({"constraints": {"hours_per_week": 0.2}}, "constraints.hours_per_week"),
    ({"assumptions": {"mfu": 1e-9}}, "assumptions.mfu"),
    ({"data": {"tokens": "1000000T"}}, "data.tokens"),  # its calendar overflows: named by the work, not the week
])
def test_the_answer_and_the_live_estimate_refuse_an_absurd_plan_naming_the_field(sections, field):
    s = _scenario(**sections)
    with pytest.raises(ImplausibleError) as info:
        Answer(Document(scenario=s)).evaluation
    assert info.value.field == field
    with pytest.raises(ImplausibleError):
        Answer(Document(scenario=s), top=3).search_or_raise()  # the plan command
    live = engine.live(s)
    assert live.evaluation is None and live.error_field == field and "\n" not in live.error


def test_a_sane_plan_passes_the_gate_unchanged():
    s = _scenario()
    ev = evaluate_shown(s)
    assert ev.calendar_days < 100 and Answer(Document(scenario=s)).evaluation.scenario == s
    assert engine.live(s).evaluation is not None


def test_a_manual_layout_that_cannot_be_evaluated_still_gets_ranked_plans():
    s = _scenario("llama3-8b-full-8xh100-zero3.json", parallel={"auto": False, "tp": 8})
    with pytest.raises(ScenarioError) as info:
        Answer(Document(scenario=s)).evaluation
    assert not isinstance(info.value, ImplausibleError)
    assert Answer(Document(scenario=s), top=3).search_or_raise().plans
