"""Issue 35 round 16, advice17: ten more everyday requests read by a senior infrastructure engineer
(docs/notes/2026-12-07/issue-35-r16-advice17-requests/; request 02 is copied to tests/data/advice17/; verdicts in
docs/notes/2026-12-07/issue-35-r16-advice17.md).

What the engineer rejected, and what the tests pin:
* Request 02, one budget of 80,000 CNY for four phases (data prep on CPUs, full SFT of Llama-3.1-8B, DPO, serving).
  The DPO phase carries a scenario of its own with ``parallel.auto`` ("let the plan search choose the layout"), as
  the app writes a searched plan. ``project`` evaluated it as given, on the scenario's default hardware
  (1 x H100 SXM5): "Does not fit: 231.4 GiB per GPU", billed a month of a whole machine (70,000 CNY) inside the
  project's total (84,867 CNY, over the budget). The plan that phase stands for is the search's #1 for its
  scenario, by the same rule as the document's (app.answer.decide); now it runs that plan (app.answer
  .planned_phases), in the ``project`` command and on the Project page (app.engine.project_result).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuplanner.app import engine
from gpuplanner.app import answer as answer_mod
from gpuplanner.app.answer import answer
from gpuplanner.core.project import evaluate_project, phase_scenario
from gpuplanner.core.search import search
from gpuplanner.io import planfile

REQ = Path(__file__).parent / "data" / "advice17" / "02-four-phase-sft-dpo-serve-8b.gpuplan"


@pytest.fixture(scope="module")
def doc():
    d, _warnings = planfile.load(REQ)
    return d


@pytest.fixture(scope="module")
def ans():
    return answer(REQ)


def _phase(res, name):
    return next(p for p in res.phases if p.name == name)


def test_dpo_phase_runs_the_search_first_plan(ans, doc):
    """The DPO phase's evaluation is the search's #1 for that phase's scenario (searched as the phase runs it),
    not the scenario's default 1 x H100 that does not fit."""
    dpo = _phase(ans.project, "dpo")
    phase = next(p for p in doc.project.phases if p.name == "dpo")
    first = search(phase_scenario(phase, ans.evaluation.scenario), ans.models, top=1).plans[0]
    assert dpo.evaluation.fits
    assert dpo.device == first.evaluation.gpu_id == "h800-sxm-80gb"
    assert dpo.count == first.evaluation.num_gpus
    assert dpo.cost == pytest.approx(first.evaluation.cost, rel=1e-9)
    assert dpo.rental_mode == "card_hour"


def test_project_within_its_budget(ans):
    """80,000 CNY for the four phases: by hand the phases cost 50 + 700 + ~110 + 14,117 CNY; before the fix the
    not-fitting DPO phase alone billed 70,000 (a month of a whole machine) and the total was 84,867."""
    res = ans.project
    assert res.total_cost is not None
    assert res.total_cost < 20_000
    assert _phase(res, "dpo").cost < 500
    assert all(p.evaluation is None or p.evaluation.fits for p in res.phases)


def test_project_page_runs_the_same_plans(ans, doc):
    """The Project page (app.engine.project_result) and the ``project`` command show the same phases."""
    page = engine.project_result(doc.project, ans.evaluation.scenario)
    assert [(p.name, p.device, p.count, round(p.cost or 0.0, 6)) for p in page.phases] == \
        [(p.name, p.device, p.count, round(p.cost or 0.0, 6)) for p in ans.project.phases]


def test_manual_phase_layout_stays_as_given(ans, doc):
    """A phase scenario with a manual layout is the user's own plan: it runs as given (here the default 1 x H100,
    which does not fit), exactly as before."""
    phases = [p.model_copy(update={"scenario": p.scenario.model_copy(update={
        "parallel": p.scenario.parallel.model_copy(update={"auto": False})})}) if p.name == "dpo" else p
        for p in doc.project.phases]
    manual = doc.project.model_copy(update={"phases": phases})
    planned_phases = getattr(answer_mod, "planned_phases", lambda project, *_a: project)  # none before advice17
    assert planned_phases(manual, ans.evaluation.scenario, ans.models) == manual
    res = evaluate_project(planned_phases(manual, ans.evaluation.scenario, ans.models), ans.evaluation.scenario,
                           ans.models, what_if=False)
    dpo = _phase(res, "dpo")
    assert dpo.device == "h100-sxm-80gb" and dpo.count == 1 and not dpo.evaluation.fits


def _cli(args, capsys) -> str:
    from gpuplanner.cli import run_cli

    assert run_cli(args) == 0
    return capsys.readouterr().out


def test_fp8_plan_names_the_peak_its_mfu_counts_on(capsys):
    """Request 07, full SFT of Qwen2.5-14B in FP8 on H20 only: #1 is timed at ms-swift's FP8 H20 run,
    6 x 14.8e9 x 16 x 8,192 / (8 x 148e12 x 8 s) = 1.229 of the BF16 peak, and said "Estimated utilisation 123% of
    peak", more than the card has. The line now names the BF16 peak (advisor.FP8_CEILINGS counts the same way)."""
    out = _cli(["plan", str(REQ.parent / "07-fp8-full-sft-14b-h20.json"), "--top", "1", "--lang", "en"], capsys)
    first = out.split("\n1. ", 1)[1]
    assert "Estimated utilisation 123% of the card's BF16 peak" in first
    assert "123% of peak" not in first
    zh = _cli(["plan", str(REQ.parent / "07-fp8-full-sft-14b-h20.json"), "--top", "1", "--lang", "zh_CN"], capsys)
    assert "BF16 峰值的 123%" in zh


def test_bf16_plan_keeps_its_line(capsys):
    """The same request in BF16 keeps the plain line (its MFU is of the peak it runs at)."""
    import json

    sc = json.loads((REQ.parent / "07-fp8-full-sft-14b-h20.json").read_text(encoding="utf-8"))
    sc["training"]["precision"] = "bf16"
    path = Path(__import__("tempfile").mkdtemp()) / "bf16.json"
    path.write_text(json.dumps(sc), encoding="utf-8")
    out = _cli(["plan", str(path), "--top", "1", "--lang", "en"], capsys)
    # (advice18: a plan timed at its class's best published run says so on the same line: "of peak, held at …")
    assert ("of peak → " in out or "of peak, held at the best published run" in out) and "BF16 peak" not in out
