"""Review of round 13 (review13): ``training.rl.hybrid_engine`` (DeepSpeed-Chat's Hybrid Engine) is read on the
tools of ``frameworks.RL_HYBRID_ENGINE_TOOLS`` only (methods.method_profile), so a search over frameworks with the
switch on keeps those tools, as ``training.rl.offload_model`` keeps Megatron-SWIFT (search.searched_frameworks);
before, a TRL plan ranked beside DeepSpeed's with the switch silently dropped."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import validate_post_oos13 as v  # noqa: E402
from gpuplanner.core.frameworks import RL_HYBRID_ENGINE_TOOLS  # noqa: E402
from gpuplanner.core.methods import method_profile  # noqa: E402
from gpuplanner.core.scenario import scenario_from_dict  # noqa: E402
from gpuplanner.core.search import searched_frameworks  # noqa: E402


def _searched(hybrid: bool) -> tuple:
    d = copy.deepcopy(v.dschat_step3(hybrid))
    d["constraints"] = {"search_frameworks": True, "framework_candidates": ["trl", "deepspeed"]}
    fws, chooses = searched_frameworks(scenario_from_dict(d))
    assert chooses
    return fws


def test_search_keeps_the_hybrid_engine_tools():
    assert set(_searched(False)) == {"trl", "deepspeed"}
    assert _searched(True) == ("deepspeed",)


@pytest.mark.parametrize("framework, on", [("deepspeed", True), ("trl", False)])
def test_the_profile_reads_the_switch_on_those_tools_only(framework, on):
    d = copy.deepcopy(v.dschat_step3(True))
    d["training"]["framework"] = framework
    d["constraints"] = {"search_frameworks": True}  # (the validation keeps the switch in a search)
    assert method_profile(scenario_from_dict(d).training).hybrid_engine is on
    assert (framework in RL_HYBRID_ENGINE_TOOLS) is on
