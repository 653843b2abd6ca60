"""Issue 35 round 17 (stack17): only stacks the tools really run.

``gpuplanner plan examples/mixtral-8x7b-ep8-16xa800.json`` ranked first 8 × L40S with Megatron-Core, EP 8,
Megatron-FSDP ZeRO-3 and the optimizer states in CPU memory (``parallel.offload_optimizer``). Megatron-LM's optimizer
CPU offload (``HybridDeviceOptimizer``) runs with the distributed optimizer (ZeRO-1) only: under Megatron-FSDP it is
handed DTensors it does not handle (NVIDIA/Megatron-LM issue #1986 "Megatron FSDP does not work with
CPU_OFFLOADING", open; the fix PR #4623 is not merged at d98e8a64dd, 2026-08-22). The scenario check and the plan
search read one rule, frameworks.optimizer_offload_refused; Megatron-FSDP with EP stays (documented and tested).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from gpuplanner.core import search as S
from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.frameworks import unsupported
from gpuplanner.core.scenario import ScenarioError, scenario_from_dict

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "mixtral-8x7b-ep8-16xa800.json"


def _refused(p) -> bool:
    """Megatron-FSDP (Megatron-Core at ZeRO-2/3) with the optimizer states in CPU memory, written out by hand."""
    return bool(p.offload_optimizer) and p.framework == "megatron" and int(p.zero) >= 2


def _doc(**parallel) -> dict:
    d = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    d["parallel"].update(parallel)
    return d


def test_rule_by_hand():
    from gpuplanner.core.frameworks import optimizer_offload_refused

    # Megatron-FSDP (ZeRO-2 optim_grads, ZeRO-3 optim_grads_params) refuses the offload; ZeRO-0/1 keep it
    assert [optimizer_offload_refused("megatron", z) for z in (0, 1, 2, 3)] == [False, False, True, True]
    assert list(optimizer_offload_refused("megatron", np.array([0, 1, 2, 3]))) == [False, False, True, True]
    # other engines: DeepSpeed ZeRO-Offload runs at every stage
    assert not optimizer_offload_refused("deepspeed", 3)
    assert unsupported("megatron", "full", ep=8, zero=3, offload_optimizer=True) is not None
    assert unsupported("megatron", "full", ep=8, zero=1, offload_optimizer=True) is None
    # Megatron-FSDP with expert parallelism alone is a stack Megatron-LM runs
    assert unsupported("megatron", "full", ep=8, zero=3) is None


def test_scenario_check_refuses_megatron_fsdp_with_optimizer_offload():
    s = scenario_from_dict(_doc(tp=1, zero=3, offload_optimizer=True))
    with pytest.raises(ScenarioError, match="Megatron-FSDP"):
        evaluate(s)
    # the distributed optimizer (ZeRO-1) with the offload is evaluated
    assert evaluate(scenario_from_dict(_doc(zero=1, offload_optimizer=True))) is not None


def test_search_never_returns_the_refused_stack():
    # the user's offload with the framework fixed: no Megatron-FSDP plan is generated (before: #1 was ZeRO-3)
    s = scenario_from_dict({**_doc(offload_optimizer=True), "constraints": {
        "deadline_days": 30, "currency": "CNY", "max_gpus": 64,
        "gpu_candidates": ["l40s-48gb", "a800-sxm-80gb", "h800-sxm-80gb"]}})
    r = S.search(s, top=10, distinct=False)
    assert r.plans
    for p in r.plans:
        assert not _refused(p), (p.gpu, p.zero)


def test_example_top_plan_is_a_stack_megatron_runs():
    r = S.search(scenario_from_dict({**_doc(), "parallel": {**_doc()["parallel"], "auto": True}}), top=5)
    assert r.plans
    for p in r.plans:  # the savers the search adds (advisor_savers) obey the same rule
        assert not _refused(p), (p.gpu, p.zero)
