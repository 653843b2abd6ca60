"""``training.rl.offload_model`` (savers12) on a file that names no framework (review r12): the search keeps the tools
that have the setting, and the app's document — a full dump, framework included, validated again after every edit
and when a saved plan file is opened — stays valid. An explicit other framework is still refused."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpuplanner.core.scenario import Scenario, scenario_from_dict
from gpuplanner.core.search import searched_frameworks

CASE = Path(__file__).resolve().parent / "data" / "breakdown6" / "swift-grpo-offload-model-h20.json"


def _file(**training):
    d = json.loads(CASE.read_text())
    d["training"].pop("framework")
    d["training"].update(training)
    return d


def test_no_framework_round_trips_and_searches_megatron_swift():
    s = scenario_from_dict(_file())
    assert s.constraints.search_frameworks
    again = Scenario.model_validate(s.model_dump())  # the app after an edit; a saved .gpuplan reopened
    assert again.training.rl.offload_model
    assert searched_frameworks(again, True)[0] == ("megatron-swift",)


def test_an_explicit_other_framework_is_refused():
    with pytest.raises(Exception, match="offload_model"):
        scenario_from_dict(_file(framework="trl"))
    d = _file(framework="trl")
    d["constraints"] = {"search_frameworks": False}
    with pytest.raises(Exception, match="offload_model"):
        scenario_from_dict(d)
