"""A tool's own LoRA dropout default (ms-swift, Megatron-SWIFT: 0.05; ``frameworks.TOOL_LORA_DROPOUT``) is decided in
one place, ``frameworks.lora_dropout_of``, for the framework each plan runs (review r12): the same scenario gives the
same answer from a file, from the app's document (a full dump validated again after every edit) and as the plan
search's framework candidate; the user's value always wins; the plan says when the tool's default is used."""

from __future__ import annotations

import pytest

from gpuplanner.core.estimate import estimate
from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.frameworks import lora_dropout_of
from gpuplanner.core.scenario import Scenario, scenario_from_dict


def scn(framework, **extra):
    t = {"framework": framework, "method": "lora", "lora_rank": 16, "lora_targets": "all_linear", "seq_len": 2048,
         "micro_batch_size": 2, "global_batch_size": 16, **extra}
    return scenario_from_dict({"model": {"preset": "qwen3-8b"}, "training": t, "parallel": {"zero": 2},
                               "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}, "data": {"tokens": 1e8}})


def _switched(s: Scenario, framework: str) -> Scenario:
    # what the plan search does for a framework candidate (search._resolved_for): a copy, not validated again
    return s.model_copy(update={"training": s.training.model_copy(update={"framework": framework})})


def _figures(s: Scenario):
    e = estimate(s)
    return e.time.step_time_s, e.memory.total


def test_unset_dropout_stays_unset_through_the_app_round_trip():
    s = scn("ms-swift")
    assert s.training.lora_dropout is None
    again = Scenario.model_validate(s.model_dump())  # the app's document after an edit
    assert again.training.lora_dropout is None
    assert lora_dropout_of(again.training) == pytest.approx(0.05)
    # switching the framework in the app: the new tool's default, not the old one's
    hf = Scenario.model_validate({**again.model_dump(), "training": {**again.model_dump()["training"],
                                                                     "framework": "llamafactory"}})
    assert lora_dropout_of(hf.training) == 0.0


def test_search_candidate_runs_its_own_tools_default():
    # a LLaMA-Factory file switched to ms-swift by the search = the same file naming ms-swift
    assert _figures(_switched(scn("llamafactory"), "ms-swift")) == _figures(scn("ms-swift"))
    # and back: an ms-swift file's LLaMA-Factory candidate runs PEFT's 0.0, not ms-swift's 0.05
    assert _figures(_switched(scn("ms-swift"), "llamafactory")) == _figures(scn("llamafactory"))
    assert _figures(scn("ms-swift")) != _figures(scn("ms-swift", lora_dropout=0.0))


def test_users_value_wins_everywhere():
    for v in (0.0, 0.1):
        s = scn("llamafactory", lora_dropout=v)
        assert _figures(_switched(s, "ms-swift")) == _figures(scn("ms-swift", lora_dropout=v))
        assert lora_dropout_of(_switched(s, "ms-swift").training) == v


def test_plan_says_when_the_tools_default_is_used():
    def said(s):
        return [m for m in evaluate(s).messages if "LoRA dropout default" in m.text]

    got = said(scn("ms-swift"))
    assert len(got) == 1 and "0.05" in got[0].render() and "ms-swift" in got[0].render().lower()
    assert not said(scn("ms-swift", lora_dropout=0.05))
    assert not said(scn("llamafactory"))



def _search_warned(candidates, **t):
    from gpuplanner.core.search import search

    d = {"model": {"preset": "qwen3-8b"}, "training": {"method": "lora", "lora_rank": 16, "seq_len": 2048, **t},
         "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}, "data": {"tokens": 1e8},
         "constraints": {"search_frameworks": True, "framework_candidates": candidates}}
    res = search(scenario_from_dict(d), top=3, savers=False)
    assert res.plans and all(p.framework in candidates for p in res.plans)
    return [any("LoRA dropout default" in w.text for w in p.warnings) for p in res.plans]


def test_search_plans_say_their_frameworks_default():
    """The plan search's ms-swift candidates (a file naming no framework) run ms-swift's 0.05 and say so in their
    plan lines; LLaMA-Factory's, or an explicit dropout, say nothing."""
    assert all(_search_warned(["ms-swift"]))
    assert not any(_search_warned(["llamafactory"]))
    assert not any(_search_warned(["ms-swift"], lora_dropout=0.05))
