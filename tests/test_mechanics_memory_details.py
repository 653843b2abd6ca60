"""Memory details of issue 35: DeepSpeed ZeRO-3's reduce bucket (deepspeed/runtime/zero/stage3.py)."""

from __future__ import annotations

import pytest

from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.memory import GIB
from gpuplanner.core.scenario import scenario_from_dict


def _ev(framework, zero):
    return evaluate(scenario_from_dict({
        "model": {"preset": "llama-3.1-8b"}, "training": {"framework": framework, "seq_len": 1024},
        "parallel": {"zero": zero}, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}}))


def test_zero3_reduce_bucket_is_allocated_whole():
    ds = _ev("deepspeed", 3).memory
    # the bucket (5e8 16-bit elements = 1 GB) is part of "other", beside the context and the gathered layers
    no_bucket = ds.other - 1e9 / GIB
    assert no_bucket > 0
    # the HF engine's ZeRO-3 may be FSDP (no such bucket): less "other" by the bucket (fragmentation aside)
    hf = _ev("hf", 3).memory
    assert ds.other - hf.other == pytest.approx(1e9 / GIB, rel=0.1)


def test_trl_ppo_zero3_gathers_policy_and_value_for_generation():
    """PPO's generation (HF generate) under ZeRO-3 holds the gathered policy and critic (TRL PolicyAndValueWrapper)
    beside the KV cache; without ZeRO-3 nothing is gathered."""
    import numpy as np

    from gpuplanner.core import methods as M
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.memory import objective_parts

    sc = scenario_from_dict({
        "model": {"preset": "qwen2.5-0.5b"},
        "training": {"framework": "deepspeed", "objective": "ppo", "seq_len": 1024,
                     "rl": {"rollout_len": 512, "prompt_len": 512}},
        "parallel": {"zero": 3}, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}})
    r = resolve(sc)
    m, prof = r.facts, M.method_profile(sc.training)
    P = float(m.params.total)
    kw = dict(precision="bf16", weights=0.0, gradients=0.0, opt=0.0, acts=0.0, model_gpu=P, layer_full=0.0,
              dp_sh=8.0, tp=1.0, seqs=1.0, gpu_capacity_gib=80.0, xp=np)
    z3 = objective_parts(m, prof, zero=3, **kw)["kv_cache"]
    z1 = objective_parts(m, prof, zero=1, **kw)["kv_cache"]
    value = (P - m.params.lm_head + m.h) / P
    assert float(z3 - z1) == pytest.approx(2.0 * P * (1.0 + value))
