"""Pipeline schedules in the plan search: the interleaved schedule (virtual stages) is tried for Megatron,
with Megatron's divisibility rules, and its plans carry the degree into their complete scenario."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from gpuplanner.core import search as S
from gpuplanner.core import timing as T
from gpuplanner.core.estimate import estimate
from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.scenario import scenario_from_dict


def scenario(framework="megatron", parallel=None, **training):
    return scenario_from_dict({
        "model": {"preset": "llama-3-70b"},
        "training": {"method": "pretrain", "framework": framework, "seq_len": 4096, **training},
        "parallel": parallel or {},
        "data": {"tokens": "200B"},
        # USD: H100 card-hours on demand (the mainland default is a monthly node lease, billed in whole months)
        "constraints": {"max_gpus": 128, "gpu_candidates": ["h100-sxm-80gb"], "currency": "USD"},
    })


def candidates(s):
    ctx = next(S.iter_contexts(s))
    return ctx, S.enumerate_candidates(ctx, s.constraints.max_gpus)


def test_megatron_search_tries_the_largest_allowed_interleaving():
    ctx, c = candidates(scenario())
    L = 80
    inter = c["vpp"] > 1
    assert inter.any()
    # every interleaved candidate obeys Megatron's rules, and its degree is the largest power of two allowed
    assert np.all(S.interleave_ok(c["pp"][inter], c["vpp"][inter], L, c["grad_accum"][inter]))
    nxt = c["vpp"][inter] * 2
    assert not np.any(S.interleave_ok(c["pp"][inter], nxt, L, c["grad_accum"][inter]))
    # and each sits next to its plain 1F1B twin
    keys = ("num_gpus", "tp", "pp", "zero", "recompute", "mbs", "grad_accum")
    plain = {tuple(int(c[k][i]) for k in keys) for i in np.flatnonzero(~inter)}
    assert all(tuple(int(c[k][i]) for k in keys) in plain for i in np.flatnonzero(inter))
    # no interleaving where the micro-batches do not come in whole groups of pp
    assert not np.any(inter & (c["grad_accum"] % np.maximum(c["pp"], 1) != 0))


def test_interleaving_shrinks_the_bubble_of_the_same_layout():
    ctx, c = candidates(scenario())
    ev = S.evaluate_candidates(ctx, c)
    keys = ("num_gpus", "tp", "pp", "zero", "recompute", "mbs", "grad_accum")
    index = {tuple(int(c[k][i]) for k in keys): i for i in np.flatnonzero(c["vpp"] == 1)}
    checked = 0
    for i in np.flatnonzero((c["vpp"] > 1) & ev["fits"]):
        j = index[tuple(int(c[k][i]) for k in keys)]
        if not ev["fits"][j]:
            continue
        bubble_i = ev["frac_pp_bubble"][i] * ev["train_hours"][i]
        bubble_j = ev["frac_pp_bubble"][j] * ev["train_hours"][j]
        assert bubble_i < bubble_j
        assert ev["train_hours"][i] < ev["train_hours"][j]  # sends are hidden (overlap_p2p_comm)
        assert ev["mem_gib"][i] >= ev["mem_gib"][j]  # 1 + (p−1)/(p·v) of the 1F1B activations
        checked += 1
    assert checked > 10


def test_candidate_scenario_carries_the_chosen_degree():
    s = scenario()
    ctx, c = candidates(s)
    ev = S.evaluate_candidates(ctx, c)
    idx = np.flatnonzero((c["vpp"] > 1) & ev["fits"])[:25]
    assert len(idx)
    for i in idx:
        sc = S.candidate_scenario(ctx, c, int(i))
        assert sc.parallel.vpp == int(c["vpp"][i])
        one = evaluate(sc, resolved=replace(ctx.resolved, scenario=sc), prices=ctx.table, overheads=ctx.overheads,
                       rent_vs_build=False)
        assert one.memory.total == pytest.approx(ev["mem_gib"][i], rel=1e-9)
        assert one.compute_days * 24 == pytest.approx(ev["train_hours"][i], rel=1e-9)


def test_other_frameworks_and_a_users_degree_are_kept():
    # DeepSpeed's pipeline engine has no interleaved schedule; torchtitan (fsdp) runs looped schedules
    # (Interleaved1F1B) and is searched like Megatron
    _, c = candidates(scenario("deepspeed", parallel={"zero": 1}))
    assert np.all(c["vpp"] == 1)
    _, c = candidates(scenario("fsdp"))
    assert np.any(c["vpp"] > 1)
    _, c = candidates(scenario(parallel={"vpp": 2}))
    assert set(np.unique(c["vpp"])) <= {1, 2}
    assert np.all((c["vpp"] == 1) | (80 % (c["pp"] * 2) == 0))


def test_without_p2p_overlap_every_degree_is_tried():
    _, c = candidates(scenario(overlap_p2p_comm=False))
    assert {2, 4}.issubset(set(np.unique(c["vpp"]).tolist()))


def test_plan_search_can_pick_an_interleaved_plan():
    res = S.search(scenario(), top=5)
    assert res.plans
    pp_plans = [p for p in res.plans if p.pp > 1]
    assert any(p.vpp > 1 for p in pp_plans)  # 70B on ≤ 128 H100s: the best layouts interleave
    for p in pp_plans:
        assert p.scenario.parallel.vpp == p.vpp
        t = p.evaluation.time
        assert t.overlap["overlap_p2p_comm"] == (p.vpp > 1)


def test_bubble_formula_with_virtual_stages():
    """(p−1)/v micro-batch times (Narayanan et al. 2021 §2.2.2): v = 4 quarters the 1F1B bubble."""
    base = {"model": {"preset": "llama-2-7b"}, "training": {"framework": "megatron", "global_batch_size": 16,
                                                           "seq_len": 4096},
            "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 4}}
    one = estimate(scenario_from_dict({**base, "parallel": {"pp": 4}})).time
    four = estimate(scenario_from_dict({**base, "parallel": {"pp": 4, "vpp": 4}})).time
    # (net of the stages' wait for the last one, pp_imbalance, which interleaving does not change)
    b1 = one.seconds["pp_bubble"] - one.communication["pp_p2p"]["exposed"] - one.parts["pp_imbalance"]
    b4 = four.seconds["pp_bubble"] - four.communication["pp_p2p"]["exposed"] - four.parts["pp_imbalance"]
    assert one.parts["pp_imbalance"] == pytest.approx(four.parts["pp_imbalance"], rel=1e-9)
    assert b4 == pytest.approx(b1 / 4, rel=1e-9)
    assert T.overlap_flags("megatron", 0, 4, 4, False)[3] is True
