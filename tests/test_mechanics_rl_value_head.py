"""The PPO critic and a reward model end in a scalar head, not the LM head (timing.value_head_passes): their
passes leave out the vocabulary projection; and the verl per-key split of bench/rl_step_times.py."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from gpuplanner.core import flops as F
from gpuplanner.core import timing as T
from gpuplanner.core.estimate import estimate, resolve
from gpuplanner.core.scenario import scenario_from_dict

ROOT = Path(__file__).resolve().parents[1]


def scn(objective="ppo", reward="function", model="qwen2.5-7b"):
    return {
        "model": {"preset": model},
        "training": {"objective": objective, "method": "full", "framework": "fsdp", "padding_free": True,
                     "seq_len": 1152, "micro_batch_size": 4, "global_batch_size": 256, "recompute": "full",
                     "preference": {"beta": 0.001},
                     "rl": {"rollout_len": 1024, "prompt_len": 128, "mean_response_fraction": 0.25,
                            "generation_engine": "vllm_colocated", "reward": reward, "group_size": 1}},
        "parallel": {"zero": 3}, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}}


def test_value_head_passes_by_hand():
    r = resolve(scenario_from_dict(scn(model="qwen2.5-0.5b")))
    fwd = F.forward_flops_per_token(r.facts, 384.0)
    # Qwen2.5-0.5B: vocabulary 151,936 × hidden 896, 2·V·h FLOPs per token for the output layer's forward
    assert fwd.head == pytest.approx(2 * 151936 * 896, rel=1e-6)
    h, mf = 4.0 * (fwd.layers + fwd.head + fwd.attention), 3.0 * (fwd.layers + fwd.head + fwd.attention)
    v_fwd, v_h, v_m = T.value_head_passes(fwd, h, mf, False)
    assert v_fwd == pytest.approx(fwd.layers + fwd.attention)
    assert v_h == pytest.approx(h - 3.0 * fwd.head)  # forward + backward's two GEMMs; the head is not recomputed
    assert v_m == pytest.approx(mf - 3.0 * fwd.head)
    # a LoRA policy's model FLOPs count the head twice (no weight gradient): the critic drops the same
    assert T.value_head_passes(fwd, h, mf, True)[1] == pytest.approx(h - 2.0 * fwd.head)
    # the output layer is 28% of the 0.5B model's forward FLOPs at 384 tokens: the critic's forward is that much less
    assert 0.25 < fwd.head / (fwd.layers + fwd.head + fwd.attention) < 0.32


def test_critic_and_reward_model_cost_less_than_a_policy_copy(monkeypatch):
    """The critic's passes cost the policy's FLOPs less the head's, at the same rate: the training side of PPO
    minus GRPO's (same run, no critic) is below one more policy forward + training step. (The policy update's wait
    for the slowest rank, timing.rank_straggler_wait, is not a FLOP share: left out here.)"""
    monkeypatch.setattr(T, "rank_straggler_wait", lambda lay, t, launch: 0.0 * t)
    ppo, grpo = estimate(scenario_from_dict(scn())).time, estimate(scenario_from_dict(scn("grpo"))).time
    gen = ppo.seconds["generation"]
    assert grpo.seconds["generation"] == pytest.approx(gen)
    critic = ppo.seconds["compute"] - grpo.seconds["compute"]
    r = resolve(scenario_from_dict(scn()))
    fwd = F.forward_flops_per_token(r.facts, 128 + 256.0)
    full = fwd.layers + fwd.head + fwd.attention
    share = (fwd.layers + fwd.attention) / full
    # GRPO's compute: the update (4 forward-equivalents with full recompute), the old-policy and reference forwards
    per_fwd = grpo.seconds["compute"] / (4.0 + 1.0 + 1.0)
    assert critic < 5.0 * per_fwd
    assert critic == pytest.approx(5.0 * per_fwd * share, rel=0.08)
    # a reward model's forward: the backbone only
    rm = estimate(scenario_from_dict(scn(reward="model"))).time.seconds["compute"] - ppo.seconds["compute"]
    assert rm == pytest.approx(per_fwd * share, rel=0.08)


def test_vectorised_search_equals_evaluate_for_ppo():
    from dataclasses import replace

    import numpy as np

    from gpuplanner.core import search as S
    from gpuplanner.core.evaluate import evaluate
    d = scn(model="qwen2.5-1.5b", reward="model")
    d["hardware"] = None
    d["data"] = {"tokens": 1e8}
    d["constraints"] = {"max_gpus": 16, "gpu_candidates": ["h100-sxm-80gb", "a100-sxm-80gb"]}
    s = scenario_from_dict({k: v for k, v in d.items() if v is not None})
    checked = 0
    for ctx in S.iter_contexts(s):
        c = S.enumerate_candidates(ctx, s.constraints.max_gpus)
        if not len(c["tp"]):
            continue
        vec = S.evaluate_candidates(ctx, c)
        for i in [int(j) for j in np.flatnonzero(vec["fits"])[::20]]:
            sc = S.candidate_scenario(ctx, c, i)
            ev = evaluate(sc, resolved=replace(ctx.resolved, scenario=sc), prices=ctx.table,
                          overheads=ctx.overheads, rent_vs_build=False)
            assert vec["mfu"][i] == pytest.approx(ev.mfu_modelled, rel=1e-9)
            checked += 1
    assert checked >= 3


def _bench():
    spec = importlib.util.spec_from_file_location("rl_step_times_vh", ROOT / "bench" / "rl_step_times.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_verl_key_split():
    mod = _bench()
    rows = {r["id"]: r for r in mod.key_table()}
    assert len(rows) == len(mod.ROWS)
    for r in rows.values():
        # the keys add up to the row's published training side and the model's
        pub = [v for k, v in r["pub"].items() if k != "gen"]
        row = next(x for x in mod.ROWS if x[0] == r["id"])
        assert sum(pub) == pytest.approx(row[3]["train"], abs=0.02)
    rec = rows["play-verl qwen2-7b ppo recommended"]
    # the padded critic (values + update_critic): 126.5 s logged; 168 s with an LM head, now within 30%
    crit = rec["pred"]["values"] + rec["pred"]["update_critic"]
    assert crit / (27.55 + 98.92) - 1.0 < 0.30
    # the reference and old-policy forwards of the 7B H100 "recommended" run: within 15% of verl's log
    assert abs(rec["err"]["ref"]) < 0.15 and abs(rec["err"]["old_log_prob"]) < 0.15
    # the key the model misses (not yet modelled, see the round-6 note): update_actor is low on every H100 row
    for rid in ("play-verl qwen2-7b ppo min", "play-verl qwen2-7b ppo recommended", "play-verl qwen2.5-0.5b grpo",
                "play-verl qwen2.5-0.5b ppo"):
        assert rows[rid]["err"]["update_actor"] < -0.2
