"""Issue 35 round 7 (rl9): NeMo RL's colocated refit hands vLLM the whole model on every rank.

Megatron-Bridge's ``export_hf_weights`` yields every parameter as the full Hugging Face tensor on every training
rank (``param_mapping.py`` ``megatron_to_hf``: a broadcast to all pipeline ranks, a tensor-parallel all-gather, an
expert-parallel all-gather), and NeMo RL packs each one into a CUDA IPC buffer for the colocated vLLM worker
(``stream_weights_via_ipc_zmq_impl``). ``timing.nemo_rl_export_bytes`` / ``nemo_rl_export_seconds``."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

from gpuplanner.core import methods as M
from gpuplanner.core import timing as T
from gpuplanner.core.estimate import estimate, resolve
from gpuplanner.core.scenario import scenario_from_dict

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import rl_step_times as RL  # noqa: E402

V06 = {r[0]: r for r in RL.STEP_ROWS_V06 + RL.STEP_ROWS_V06_GB200}
DSV3_256 = "nemo-rl v0.6 deepseek-v3 grpo 256xh100"
DSV3_512 = "nemo-rl v0.6 deepseek-v3 grpo 512xh100"


def _scn(rid: str) -> dict:
    return copy.deepcopy(V06[rid][2])


def _no_export(monkeypatch):
    monkeypatch.setattr(T, "nemo_rl_export_bytes", lambda *a, **k: (0.0, 0.0, 0.0, 0.0))


def test_bytes_by_hand_deepseek_v3():
    """DeepSeek-V3 at PP 16, EP 16, TP 1 (grpo-deepseek-v3-32n8g.yaml): W = 2 P, X = 2 × routed experts."""
    r = resolve(scenario_from_dict(_scn(DSV3_256)))
    p, x = float(r.params.total), float(r.params.expert_params)
    assert 6.6e11 < p < 6.9e11 and 0.95 < x / p < 0.99  # 671B, nearly all of it routed experts
    w, xb = 2.0 * p, 2.0 * x
    prof = M.method_profile(r.scenario.training)
    pipe, tens, expert, hbm = T.nemo_rl_export_bytes("megatron", prof, _Model(r.params), tp=1.0, pp=16.0, ep=16.0,
                                                     exp_tp=1.0)
    assert pipe == pytest.approx(15 / 16 * ((w - xb) + xb / 16), rel=1e-12)
    assert tens == 0.0
    assert expert == pytest.approx(15 / 16 * xb, rel=1e-12)
    assert hbm == pytest.approx(2.0 * w, rel=1e-12)
    # about 1.2 TB of experts reach every GPU each refit
    assert 1.15e12 < expert < 1.3e12


class _Model:
    def __init__(self, params):
        self.params = params


def test_bytes_tensor_parallel_by_hand():
    """A dense model at TP 4, PP 4 (the Qwen3-32B recipe): pipeline (3/4) W/4, tensor (3/4) W, no experts."""
    r = resolve(scenario_from_dict(RL.STEP_ROWS_V05[4][2]))
    w = 2.0 * float(r.params.total)
    assert r.params.expert_params == 0
    prof = M.method_profile(r.scenario.training)
    pipe, tens, expert, hbm = T.nemo_rl_export_bytes("megatron", prof, _Model(r.params), tp=4.0, pp=4.0, ep=1.0,
                                                     exp_tp=4.0)
    assert (pipe, tens, expert, hbm) == pytest.approx((0.75 * w / 4, 0.75 * w, 0.0, 2.0 * w), rel=1e-12)


def test_zero_off_nemo_rl_colocated():
    r = resolve(scenario_from_dict(_scn(DSV3_256)))
    prof = M.method_profile(r.scenario.training)
    kw = {"tp": 1.0, "pp": 16.0, "ep": 16.0, "exp_tp": 1.0}
    assert T.nemo_rl_export_bytes("fsdp", prof, _Model(r.params), **kw) == (0.0, 0.0, 0.0, 0.0)  # verl's workers
    sep = M.method_profile(scenario_from_dict(_scn(DSV3_512 + " 1-step off")).training)
    assert T.nemo_rl_export_bytes("megatron", sep, _Model(r.params), **kw) == (0.0, 0.0, 0.0, 0.0)
    sft = M.method_profile(scenario_from_dict({"model": {"preset": "qwen3-8b"},
                                               "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}}).training)
    assert T.nemo_rl_export_bytes("megatron", sft, _Model(r.params), **kw) == (0.0, 0.0, 0.0, 0.0)


def test_seconds_in_the_refit(monkeypatch):
    """The DeepSeek-V3 256-GPU row's refit grows by the experts' all-gather over the NIC (EP 16 spans two 8-GPU
    nodes) and the pipeline broadcast (stages on different nodes): ~1.3 TB at 400 Gb/s per GPU is 25–45 s."""
    with_it = estimate(scenario_from_dict(_scn(DSV3_256))).time.parts["weight_refit"]
    _no_export(monkeypatch)
    without = estimate(scenario_from_dict(_scn(DSV3_256))).time.parts["weight_refit"]
    r = resolve(scenario_from_dict(_scn(DSV3_256)))
    w, xb = 2.0 * float(r.params.total), 2.0 * float(r.params.expert_params)
    nic_bytes = 15 / 16 * xb + 15 / 16 * ((w - xb) + xb / 16)
    added = with_it - without
    assert nic_bytes / 50e9 < added < nic_bytes / 30e9 + 2.0 * w / 2.0e12
    assert 25.0 < added < 45.0


def test_small_dense_and_in_node_moe_barely_move(monkeypatch):
    """Llama-3.1-8B at PP 2 and Qwen3-30B-A3B with EP 8 inside a node: under 1 s per generation batch."""
    rows = [RL.STEP_ROWS_V05[0], RL.STEP_ROWS_V05[2], RL.STEP_ROWS_V06[0]]
    before = {r[0]: RL.predict(r[2])["step"] for r in rows}
    after = {}
    with monkeypatch.context() as mp:
        _no_export(mp)
        after = {r[0]: RL.predict(r[2])["step"] for r in rows}
    for rid in before:
        assert 0.0 < before[rid] - after[rid] < 1.0, rid


def test_published_on_policy_rows_move_toward_and_stay_under(monkeypatch):
    """NeMo RL v0.6 DeepSeek-V3 on-policy: 134 s (256 H100) and 111 s (512 H100) published. The step stays under the
    published one and moves toward it by the refit; the 1-step-off row (separate engine) does not change."""
    off = DSV3_512 + " 1-step off"
    now = {rid: RL.predict(_scn(rid))["step"] for rid in (DSV3_256, DSV3_512, off)}
    with monkeypatch.context() as mp:
        _no_export(mp)
        old = {rid: RL.predict(_scn(rid))["step"] for rid in (DSV3_256, DSV3_512, off)}
    for rid, pub in ((DSV3_256, 134.0), (DSV3_512, 111.0)):
        assert old[rid] < now[rid] < pub
        assert now[rid] - old[rid] > 20.0
    assert now[off] == pytest.approx(old[off], rel=1e-12)


def test_vectorised_search_equals_evaluate_for_nemo_rl_refit():
    from dataclasses import replace

    import numpy as np

    from gpuplanner.core import search as S
    from gpuplanner.core.evaluate import evaluate
    d = scenario_from_dict(copy.deepcopy(RL.STEP_ROWS_V05[0][2])).model_dump()  # NeMo RL Llama-3.1-8B
    d["hardware"] = None
    d["parallel"] = None
    d["data"] = {"tokens": 1e8}
    d["constraints"] = {"max_gpus": 16, "gpu_candidates": ["h100-sxm-80gb"]}
    s = scenario_from_dict({k: v for k, v in d.items() if v is not None})
    checked = moved = 0
    for ctx in S.iter_contexts(s):
        c = S.enumerate_candidates(ctx, s.constraints.max_gpus)
        if not len(c["tp"]):
            continue
        vec = S.evaluate_candidates(ctx, c)
        for i in [int(j) for j in np.flatnonzero(vec["fits"])[::5]]:
            sc = S.candidate_scenario(ctx, c, i)
            ev = evaluate(sc, resolved=replace(ctx.resolved, scenario=sc), prices=ctx.table,
                          overheads=ctx.overheads, rent_vs_build=False)
            assert vec["mfu"][i] == pytest.approx(ev.mfu_modelled, rel=1e-9)
            checked += 1
            p = sc.parallel
            moved += int(p.tp > 1 or p.pp > 1 or p.ep > 1)
    assert checked >= 3 and moved >= 1


# ---- vLLM decode across nodes: NCCL all-reduces (methods.vllm_net_allreduce)

Q235_128 = "nemo-rl v0.6 qwen3-235b grpo 128xh100"
Q235_256 = "nemo-rl v0.6 qwen3-235b grpo 256xh100"


def test_net_allreduce_by_hand():
    """NCCL tuning.cc Tree/LL128: 14 µs + 2 × ((ranks per node − 1) × 1.25 µs + log2(nodes) × 8.5 µs)."""
    import numpy as np

    from gpuplanner.core.arrayops import ArrayOps, ScalarOps
    lat, bw = M.vllm_net_allreduce(16, 8.0, 50e9, ScalarOps)  # TP 16 on two 8-GPU nodes
    assert lat == pytest.approx(14e-6 + 2 * (7 * 1.25e-6 + 1 * 8.5e-6), rel=1e-12)  # 48.5 µs
    assert bw == pytest.approx(50e9 / (2 * 15 / 16), rel=1e-12)
    lat, _ = M.vllm_net_allreduce(32, 8.0, 50e9, ScalarOps)  # TP 32 on four nodes
    assert lat == pytest.approx(14e-6 + 2 * (7 * 1.25e-6 + 2 * 8.5e-6), rel=1e-12)  # 65.5 µs
    assert M.vllm_net_allreduce(8, 8.0, 50e9, ScalarOps) == (0.0, float("inf"))  # one node: vLLM's custom AR
    assert M.vllm_net_allreduce(32, 72.0, 50e9, ScalarOps) == (0.0, float("inf"))  # GB200 NVL72 domain
    assert M.vllm_net_allreduce(1, 8.0, 50e9, ScalarOps) == (0.0, float("inf"))
    # the search's arrays give the same numbers
    lat_a, bw_a = M.vllm_net_allreduce(np.array([1.0, 8.0, 16.0, 32.0]), 8.0, 50e9, ArrayOps)
    for tp, la, ba in zip((1, 8, 16, 32), lat_a, bw_a):
        assert (la, ba) == pytest.approx(M.vllm_net_allreduce(tp, 8.0, 50e9, ScalarOps), rel=1e-12)


def test_net_allreduce_in_generation(monkeypatch):
    """Qwen3-235B, vLLM TP 16 over two H100 nodes: 2 × 94 all-reduces per decode step, about 8,000 steps to the
    longest completion: 188 × 48.5 µs × 7,000 steps = 64 s at least; with 64 sequences' 4,096-wide hidden states
    at 400 Gb/s, under 188 × (48.5 µs + 20 µs) × 8,042 = 103 s."""
    now = RL.predict(_scn(Q235_128))["gen"]
    with monkeypatch.context() as mp:
        mp.setattr(T, "vllm_net_allreduce", lambda tp, dom, nic, ops: (0.0, float("inf")))
        old = RL.predict(_scn(Q235_128))["gen"]
    assert 64.0 < now - old < 103.0


def test_net_allreduce_only_across_nodes(monkeypatch):
    """Engines inside one node or one NVLink domain do not change: the 22 rows of earlier rounds (vLLM TP ≤ 4)
    and GB200 NVL72's DeepSeek-V3 at vLLM TP 32."""
    rows = [(r[0], r[2]) for r in RL.ROWS] + [(r[0], r[2]) for r in RL.STEP_ROWS + RL.STEP_ROWS_V05
                                              + RL.STEP_ROWS_V05_GB200]
    rows.append(("gb200 dsv3", _scn("nemo-rl v0.6 gb200 deepseek-v3 grpo 128 gpus")))
    now = {rid: RL.predict(scn)["step"] for rid, scn in rows}
    with monkeypatch.context() as mp:
        mp.setattr(T, "vllm_net_allreduce", lambda tp, dom, nic, ops: (0.0, float("inf")))
        old = {rid: RL.predict(scn)["step"] for rid, scn in rows}
    for rid in now:
        assert now[rid] == pytest.approx(old[rid], rel=1e-12), rid


def test_published_rows_with_cross_node_engines():
    """NeMo RL v0.6 on H100: the on-policy Qwen3-235B (vLLM TP 16) and DeepSeek-V3 (TP 32) rows stay under their
    published steps, within 35%; the DeepSeek-V3 1-step-off row (the same TP 32 engines, a broadcast refit) goes
    over, by under 25% (recorded: +11%; +23% since issue 35 round 11 prices the refit's 45,000-odd Hugging Face
    tensors one at a time, timing.NEMO_RL_REFIT_S_PER_TENSOR, 7.2 s a refit)."""
    for rid, pub in ((Q235_128, 395.0), (Q235_256, 312.0), (DSV3_256, 134.0), (DSV3_512, 111.0)):
        step = RL.predict(_scn(rid))["step"]
        assert 0.65 * pub < step < pub, rid
    off = RL.predict(_scn(DSV3_512 + " 1-step off"))["step"]
    assert 64.1 < off < 1.25 * 64.1


def test_net_allreduce_is_a_named_part(monkeypatch):
    """The breakdown names it ("rollout_net_allreduce", inside generation, translatable); it holds the all-reduces of
    the decode steps before the longest completion's tail (the tail's are in rollout_wait_longest), so it is part
    of, and less than, what the mechanism adds to generation. Zero where the engines fit a node."""
    assert T.PART_PARENT["rollout_net_allreduce"] == "generation"
    assert "rollout_net_allreduce" in T.BREAKDOWN_LABELS
    e = estimate(scenario_from_dict(_scn(Q235_128)))
    part = e.time.parts["rollout_net_allreduce"]
    added = RL.predict(_scn(Q235_128))["gen"]
    with monkeypatch.context() as mp:
        mp.setattr(T, "vllm_net_allreduce", lambda tp, dom, nic, ops: (0.0, float("inf")))
        added -= RL.predict(_scn(Q235_128))["gen"]
    assert 0.4 * added < part < added
    assert 0.0 < e.time.breakdown["rollout_net_allreduce"] < e.time.seconds["generation"] / e.time.step_time_s
    small = estimate(scenario_from_dict(RL.STEP_ROWS_V05[4][2]))  # Qwen3-32B, vLLM TP 4 in a node
    assert small.time.parts.get("rollout_net_allreduce", 0.0) == 0.0
