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
