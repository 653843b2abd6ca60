"""Issue 35 round 8 (rl10): vLLM engines wider than 8 GPUs inside one NVLink domain all-reduce over NCCL.

vLLM's own all-reduces take 2 to 8 ranks (``CustomAllreduce._SUPPORTED_WORLD_SIZES``, ``SymmMemCommunicator``'s
``SYMM_MEM_ALL_REDUCE_MAX_SIZES``), so a TP 32 engine on GB200 NVL72 runs PyNccl. NCCL fuses the multi-node NVLink
clique into one node, and its tuner (``src/graph/tuning.cc``) prices a one-node all-reduce at the least of Ring/LL
``6.6 + 2(n−1) × 0.6`` µs, Tree/LL ``6.8 + 2(n−1) × 0.6`` µs and NVLS ``25`` µs. ``methods.vllm_domain_allreduce``,
``timing.vllm_tp_allreduce``."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

from gpuplanner.core import methods as M
from gpuplanner.core import timing as T
from gpuplanner.core.arrayops import ArrayOps, ScalarOps
from gpuplanner.core.estimate import resolve
from gpuplanner.core.scenario import scenario_from_dict

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import rl_step_times as RL  # noqa: E402

V06 = {r[0]: r for r in RL.STEP_ROWS_V06 + RL.STEP_ROWS_V06_GB200}
GB_DSV3 = "nemo-rl v0.6 gb200 deepseek-v3 grpo 128 gpus"


def _scn(rid: str) -> dict:
    return copy.deepcopy(V06[rid][2])


def _off(monkeypatch):
    monkeypatch.setattr(T, "vllm_domain_allreduce", lambda tp, dom, intra, ops: (0.0, float("inf")))


def test_latency_by_hand():
    """TP 16 in NVL72: Ring/LL 6.6 + 30 × 0.6 = 24.6 µs (below NVLS's 25); TP 32: NVLS's 25 µs (Ring/LL 43.8);
    TP 64: 25 µs. Bytes at the NVLink rate as a ring's 2(n−1)/n share."""
    lat, bw = M.vllm_domain_allreduce(16, 72.0, 400e9, ScalarOps)
    assert lat == pytest.approx(24.6e-6, rel=1e-9)
    assert bw == pytest.approx(400e9 / (2 * 15 / 16), rel=1e-12)
    assert M.vllm_domain_allreduce(32, 72.0, 400e9, ScalarOps)[0] == pytest.approx(25e-6, rel=1e-12)
    assert M.vllm_domain_allreduce(64, 72.0, 400e9, ScalarOps)[0] == pytest.approx(25e-6, rel=1e-12)
    # vLLM's own all-reduce (≤ 8 ranks), a plain node, or engines wider than the domain (vllm_net_allreduce's)
    for tp, dom in ((8, 72.0), (4, 8.0), (8, 8.0), (16, 8.0), (32, 8.0), (1, 72.0), (144, 72.0)):
        assert M.vllm_domain_allreduce(tp, dom, 400e9, ScalarOps) == (0.0, float("inf")), (tp, dom)


def test_scalar_and_array_paths_agree():
    import numpy as np
    tps = np.array([1.0, 8.0, 16.0, 32.0, 144.0])
    lat_a, bw_a = M.vllm_domain_allreduce(tps, 72.0, 400e9, ArrayOps)
    for tp, la, ba in zip(tps, lat_a, bw_a):
        assert (la, ba) == pytest.approx(M.vllm_domain_allreduce(float(tp), 72.0, 400e9, ScalarOps), rel=1e-12)


def test_the_two_nccl_cases_never_overlap():
    """timing.vllm_tp_allreduce: across domains the NIC term, inside one the NVLink term, never both."""
    for tp in (1, 2, 8, 16, 32, 64, 128):
        for dom in (8.0, 72.0):
            net = M.vllm_net_allreduce(tp, dom, 50e9, ScalarOps)
            dom_ar = M.vllm_domain_allreduce(tp, dom, 400e9, ScalarOps)
            assert net[0] == 0.0 or dom_ar[0] == 0.0
            lat, bw = T.vllm_tp_allreduce(tp, dom, 50e9, 400e9, ScalarOps)
            assert lat == net[0] + dom_ar[0]
            assert bw == min(net[1], dom_ar[1])


def test_gb200_deepseek_v3_generation_by_hand(monkeypatch):
    """GB200 NVL72, DeepSeek-V3, vLLM TP 32 (grpo-deepseek-v3-32n4g.yaml): 2 × 61 all-reduces of 25 µs each per
    decode step and 1,386 steps to the longest completion (max_total_sequence_length 1,536 less the 150-token prompt)
    in the row's one generation batch: 2 × 61 × 25 µs × 1,386 = 4.23 s, plus the live batch's hidden states (about
    52 sequences × 7,168 × 2 B, 2·31/32 of it at GB200's 783 GB/s NVLink peer rate: 1.8 µs an all-reduce, 0.31 s)."""
    r = resolve(scenario_from_dict(_scn(GB_DSV3)))
    assert r.arch.num_layers == 61
    now = RL.predict(_scn(GB_DSV3))
    with monkeypatch.context() as mp:
        _off(mp)
        old = RL.predict(_scn(GB_DSV3))
    added = now["gen"] - old["gen"]
    assert 2 * 61 * 25e-6 * 1386 + 0.25 < added < 2 * 61 * 25e-6 * 1386 + 0.35
    assert now["step"] - old["step"] == pytest.approx(added, rel=0.05)
    assert 73.0 < old["step"] < now["step"] < 108.0  # still under the published 108 s


def test_other_rows_do_not_move(monkeypatch):
    """Engines of at most 8 GPUs (all verl and NeMo RL v0.4/v0.5 rows, the GB200 TP 8 rows) and engines across
    nodes (H100 TP 16 / 32, vllm_net_allreduce's) do not change."""
    rows = [(r[0], r[2]) for r in RL.ROWS + RL.STEP_ROWS + RL.STEP_ROWS_V05 + RL.STEP_ROWS_V05_GB200]
    rows += [(rid, _scn(rid)) for rid in V06 if rid != GB_DSV3]
    now = {rid: RL.predict(scn)["step"] for rid, scn in rows}
    with monkeypatch.context() as mp:
        _off(mp)
        old = {rid: RL.predict(scn)["step"] for rid, scn in rows}
    for rid in now:
        assert now[rid] == pytest.approx(old[rid], rel=1e-12), rid


def test_vectorised_search_equals_evaluate_for_wide_engines_in_a_domain():
    """A NeMo RL Llama-3.1-8B GRPO run on GB200 with vLLM TP 16 (inside the NVL72 domain): the search's arrays and
    evaluate() agree on every sampled layout."""
    from dataclasses import replace

    import numpy as np

    from gpuplanner.core import search as S
    from gpuplanner.core.cost import PriceTable
    from gpuplanner.core.evaluate import evaluate
    d = scenario_from_dict(copy.deepcopy(RL.STEP_ROWS_V05_GB200[0][2])).model_dump()
    d["training"]["rl"]["rollout_tp"] = 16
    d["hardware"] = None
    d["parallel"] = None
    d["data"] = {"tokens": 1e8}
    d["constraints"] = {"max_gpus": 32, "gpu_candidates": ["gb200-186gb"]}
    s = scenario_from_dict({k: v for k, v in d.items() if v is not None})
    table = PriceTable.from_constraints(s.constraints)
    table.set_quote("gb200-186gb", card_hour=5.0)  # the catalogue has no GB200 quote; the test needs one price
    checked = 0
    for ctx in S.iter_contexts(s, prices=table):
        c = S.enumerate_candidates(ctx, s.constraints.max_gpus)
        if not len(c["tp"]):
            continue
        vec = S.evaluate_candidates(ctx, c)
        for i in [int(j) for j in np.flatnonzero(vec["fits"])[::7]]:
            sc = S.candidate_scenario(ctx, c, i)
            ev = evaluate(sc, resolved=replace(ctx.resolved, scenario=sc), prices=ctx.table,
                          overheads=ctx.overheads, rent_vs_build=False)
            assert vec["mfu"][i] == pytest.approx(ev.mfu_modelled, rel=1e-9)
            assert ev.time.parts.get("rollout_net_allreduce", 0.0) > 0.0
            checked += 1
    assert checked >= 3
