"""Issue 35 round 17, review17: the senior review of the round's merges (docs/notes/2026-12-07/
issue-35-r17-review17.md). Each test failed on main at 7f7927fd before its fix, or holds a merged mechanism to the
one-answer contract (the vectorised search equals the scalar evaluate) where the merge left it untested."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

import rl_step_times_r10 as RL10  # noqa: E402
import test_one_answer_r10 as R10  # noqa: E402  (a module, so pytest does not collect its tests again here)

from gpuplanner.core import search as S  # noqa: E402
from gpuplanner.core.scenario import Scenario  # noqa: E402

EXAMPLE_70B = ROOT / "examples" / "llama3-70b-pretrain-64xh800-tp8pp4.json"

#: verl's GRPO-LoRA row with param_offload and optimizer_offload on (post18: memory.verl_generation_offload), as a
#: search request: the vectorised memory (arrays of offload flags) must equal evaluate's
VERL_OFFLOAD = copy.deepcopy({r[0]: r for r in RL10.ROWS}["verl math qwen2.5-7b grpo-lora 8 gpus"][2])
VERL_OFFLOAD.pop("hardware", None)
VERL_OFFLOAD["data"] = {"tokens": 2e7}
VERL_OFFLOAD["constraints"] = {"max_gpus": 8, "gpu_candidates": ["h100-sxm-80gb"]}


def test_verl_generation_offload_search_equals_evaluate(tmp_path, capsys):
    R10.test_round10_paths_search_equals_evaluate(copy.deepcopy(VERL_OFFLOAD), tmp_path, capsys)


def test_hfu_ceiling_search_equals_evaluate(tmp_path, capsys):
    """advice18's HFU ceiling (advisor.ceiling_figure: timing's ``hfu_ratio`` in the search, ``hfu / mfu`` in
    evaluate) on every sampled candidate of a class whose run reports HFU, not only the top plans."""
    d = json.loads((ROOT / "tests" / "data" / "advice18" / "a100-70b-full-recompute.json").read_text("utf-8"))
    R10.test_round10_paths_search_equals_evaluate(d, tmp_path, capsys)


@pytest.fixture(scope="module")
def capped_70b():
    """The 70B example's search: #1 (256 × A100, no recompute) is capped on the HFU of its class (advice18)."""
    s = Scenario.model_validate(json.loads(EXAMPLE_70B.read_text(encoding="utf-8")))
    res = S.search(s, top=2)
    assert res.plans[0].evaluation.mfu_capped
    return s, res


def _as_rl(monkeypatch, ev_cls, train: float) -> None:
    """Read every plan as an RL plan whose training passes run at ``train`` (the figure its grade is of)."""
    monkeypatch.setattr(ev_cls, "rl_training_mfu", property(lambda self: train))


def test_capped_rl_row_keeps_its_mark(capped_70b, monkeypatch):
    """An RL plan's MFU cell ("29% (44% good)") was written after the capped mark and dropped it, while the
    footnote "MFU (capped): …" still printed: the mark stays on the row."""
    from gpuplanner.commands.plan import text_lines
    from gpuplanner.core.evaluate import Evaluation

    s, res = capped_70b
    _as_rl(monkeypatch, Evaluation, 0.44)
    text = "\n".join(text_lines(res, s.constraints, s.training.method))
    row = next(ln for ln in text.splitlines() if ln.startswith("1  a100-sxm-80gb"))
    assert "(capped)" in row and "(44% good)" in row
    assert "MFU (capped):" in text


def test_capped_rl_note_states_the_training_passes(capped_70b):
    """The note of a capped plan states the figure the ceiling bounds: an RL plan's training passes
    (advisor.capped reads ``mfu_training``), not the whole step with its rollouts, which sits below the ceiling."""
    import dataclasses

    _, res = capped_70b
    ev = res.plans[0].evaluation
    tm = ev.time_modelled
    # the same plan read as RL: the step (rollouts included) at 30%, its training passes at 55%, HFU = MFU
    rl = dataclasses.replace(tm, mfu=0.30, hfu=0.30, mfu_training=0.55)
    note = dataclasses.replace(ev, time_modelled=rl).mfu_note
    assert note is not None
    assert note.params["modelled"] == pytest.approx(0.55)  # before: 0.30, "above the best published 52.0%"


def test_project_budget_within_is_one_rule():
    """The budget's colour (Project page, PDF) and the JSON's ``within`` read one property of the core's
    ProjectBudget; before, each view wrote its own ``over_by > 0 or far_end is None``."""
    from gpuplanner.core.project import PhaseBudget, ProjectBudget

    ok = ProjectBudget(100.0, "CNY", (PhaseBudget("train", 60.0, 90.0),))
    over = ProjectBudget(100.0, "CNY", (PhaseBudget("train", 60.0, 120.0),))
    unknown = ProjectBudget(100.0, "CNY", (PhaseBudget("train", 60.0, 90.0), PhaseBudget("serve", None, None)))
    assert ok.within and not over.within and not unknown.within
    assert [b.to_json()["within"] for b in (ok, over, unknown)] == [True, False, False]
