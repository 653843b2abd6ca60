"""Session 13 (integrator, from parity13's finding): a PPO file with ``training.rl.hybrid_engine`` and no framework
named was searched over the default RL tools (LLaMA-Factory, ms-swift, TRL; no DeepSpeed), so the user's switch did
nothing in any plan. The search now runs DeepSpeed for it, and a candidate list without DeepSpeed is refused with one
line (exit 2)."""
from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gpuplanner.cli import run_cli  # noqa: E402
from gpuplanner.core.scenario import scenario_from_dict  # noqa: E402
from gpuplanner.core.search import searched_frameworks  # noqa: E402
from test_one_answer import _plan_json  # noqa: E402
from test_one_answer_r13 import HYBRID  # noqa: E402


def _no_framework(candidates=None) -> dict:
    d = copy.deepcopy(HYBRID)
    d["training"].pop("framework")
    if candidates is not None:
        d["constraints"]["framework_candidates"] = candidates
    return d


def test_search_without_a_framework_runs_deepspeed_for_the_hybrid_engine(tmp_path, capsys):
    s = scenario_from_dict(_no_framework())
    fws, chooses = searched_frameworks(s)
    assert chooses and fws == ("deepspeed",)
    off = copy.deepcopy(_no_framework())
    off["training"]["rl"]["hybrid_engine"] = False
    assert "deepspeed" not in searched_frameworks(scenario_from_dict(off))[0]  # the default RL tool list
    plans = _plan_json(tmp_path, _no_framework(), capsys, top=3)["plans"]
    assert plans and all(p["scenario"]["training"]["framework"] == "deepspeed" for p in plans)
    assert all(p["scenario"]["training"]["rl"]["hybrid_engine"] is True for p in plans)


def test_candidates_without_deepspeed_are_refused_in_one_line(tmp_path, capsys):
    path = tmp_path / "he.json"
    path.write_text(json.dumps(_no_framework(["trl", "ms-swift"])), encoding="utf-8")
    assert run_cli(["plan", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert "hybrid_engine" in err and "framework_candidates" in err and "\n" not in err
    assert "Traceback" not in err


def test_the_rollout_line_names_the_hybrid_engine(tmp_path, capsys):
    """The plan's rollout line says the Hybrid Engine generates where it is on, the plain line where it is off."""
    plans = _plan_json(tmp_path, HYBRID, capsys, top=1)["plans"]
    lines = json.dumps(plans[0])
    assert "Hybrid Engine" in lines and "own generate()" not in lines
    off = copy.deepcopy(HYBRID)
    off["training"]["rl"]["hybrid_engine"] = False
    lines_off = json.dumps(_plan_json(tmp_path, off, capsys, top=1)["plans"][0])
    assert "own generate()" in lines_off and "Hybrid Engine" not in lines_off


def test_a_searched_plan_names_the_hybrid_engine_in_its_rollout_line(tmp_path, capsys):
    """The search over frameworks picks DeepSpeed (the request names none); the rollout line is read from the plan's
    own scenario, so it names the Hybrid Engine as a file naming DeepSpeed does (it said generate() before)."""
    plans = _plan_json(tmp_path, _no_framework(), capsys, top=2)["plans"]
    for p in plans:
        text = json.dumps(p)
        assert "Hybrid Engine" in text and "own generate()" not in text
