"""Issue 35 round 8 (rl10): an RL vLLM engine's KV cache per GPU replicates KV heads below one per rank.

vLLM splits the KV heads over the tensor-parallel ranks down to one head per rank and replicates them beyond
(``ModelConfig.get_num_kv_heads``, ``QKVParallelLinear.num_kv_head_replicas``); MLA's latent is whole on every rank.
The serving sizer already does this (``inference.kv_bytes_per_token_per_gpu``); the rollouts now do too
(``methods.vllm_kv_per_token_per_gpu``, used by ``generation_seconds`` and ``vllm_start_room``)."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

from gpuplanner.core import methods as M
from gpuplanner.core.arrayops import ArrayOps, ScalarOps
from gpuplanner.core.estimate import resolve
from gpuplanner.core.inference import ServingModel, kv_bytes_per_token_per_gpu
from gpuplanner.core.scenario import scenario_from_dict

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import rl_step_times as RL  # noqa: E402

V06 = {r[0]: r for r in RL.STEP_ROWS_V06 + RL.STEP_ROWS_V06_GB200}
Q235 = "nemo-rl v0.6 qwen3-235b grpo 128xh100"
DSV3 = "nemo-rl v0.6 deepseek-v3 grpo 256xh100"


def _arch(rid):
    return resolve(scenario_from_dict(copy.deepcopy(V06[rid][2]))).arch


def _resolved(rid):
    return resolve(scenario_from_dict(copy.deepcopy(V06[rid][2])))


def test_bytes_by_hand():
    """Qwen3-235B-A22B: 94 layers, 4 KV heads of 128: 2 × 94 × 128 × 2 B = 48,128 B a head. TP 2: two heads a
    rank; TP 4: one; TP 16: still one (replicated 4×), where the even split would give a quarter head.
    DeepSeek-V3 (MLA): 61 × (512 + 64) × 2 B = 70,272 B on every rank at any TP."""
    a = _arch(Q235)
    head = 2 * 94 * 128 * 2
    assert M.vllm_kv_per_token_per_gpu(a, 2, ScalarOps) == pytest.approx(2 * head)
    assert M.vllm_kv_per_token_per_gpu(a, 4, ScalarOps) == pytest.approx(head)
    assert M.vllm_kv_per_token_per_gpu(a, 16, ScalarOps) == pytest.approx(head)
    assert M.kv_bytes_per_token(a) / 16 == pytest.approx(head / 4)
    d = _arch(DSV3)
    for tp in (1, 8, 32):
        assert M.vllm_kv_per_token_per_gpu(d, tp, ScalarOps) == pytest.approx(61 * 576 * 2)


def test_same_rule_as_the_serving_sizer():
    for rid in (Q235, DSV3):
        r = _resolved(rid)
        a, sm = r.arch, ServingModel.of(r.arch, r.params)
        for tp in (1, 2, 4, 8, 16, 32):
            assert M.vllm_kv_per_token_per_gpu(a, tp, ScalarOps) == pytest.approx(
                kv_bytes_per_token_per_gpu(sm, 2.0, tp), rel=1e-12), (rid, tp)


def test_scalar_and_array_paths_agree():
    import numpy as np
    a = _arch(Q235)
    tps = np.array([1.0, 2.0, 4.0, 8.0, 16.0])
    arr = M.vllm_kv_per_token_per_gpu(a, tps, ArrayOps)
    for tp, v in zip(tps, arr):
        assert v == pytest.approx(M.vllm_kv_per_token_per_gpu(a, float(tp), ScalarOps), rel=1e-12)


def test_qwen3_235b_generation_reads_the_replicated_heads(monkeypatch):
    """H100, vLLM TP 16: the live batch's KV reads grow 4× (1 head a rank, not 1/4). By hand, one generation batch:
    about 44 live sequences × (150/32 + 5,548/2) tokens × 48,128 B × 3/4 more = 4.4 GB more a decode step, at
    H100's decode rate (3.35 TB/s × the serving MBU, about 2.7 TB/s) 1.6 ms, × 8,042 steps ≈ 13 s."""
    scn = copy.deepcopy(V06[Q235][2])
    now = RL.predict(scn)["gen"]
    with monkeypatch.context() as mp:
        even = lambda arch, tp, xp=None, dtype_bytes=2.0: M.kv_bytes_per_token(arch, dtype_bytes) / tp  # noqa: E731
        mp.setattr(M, "vllm_kv_per_token_per_gpu", even)
        old = RL.predict(copy.deepcopy(V06[Q235][2]))["gen"]
    assert 9.0 < now - old < 18.0


def test_rows_with_enough_kv_heads_do_not_move(monkeypatch):
    """Every verl row and every NeMo RL v0.4/v0.5 row runs vLLM at TP ≤ the model's KV heads: unchanged."""
    rows = [(r[0], r[2]) for r in RL.ROWS + RL.STEP_ROWS + RL.STEP_ROWS_V05 + RL.STEP_ROWS_V05_GB200]
    now = {rid: RL.predict(copy.deepcopy(scn))["step"] for rid, scn in rows}
    with monkeypatch.context() as mp:
        even = lambda arch, tp, xp=None, dtype_bytes=2.0: M.kv_bytes_per_token(arch, dtype_bytes) / tp  # noqa: E731
        mp.setattr(M, "vllm_kv_per_token_per_gpu", even)
        old = {rid: RL.predict(copy.deepcopy(scn))["step"] for rid, scn in rows}
    for rid in now:
        assert now[rid] == pytest.approx(old[rid], rel=1e-12), rid


def test_start_room_counts_the_replicated_heads():
    """vLLM needs one full-length sequence's KV at start: Qwen3-235B at TP 16 needs 4× the even split's."""
    from gpuplanner.core.methods import method_profile
    scn = scenario_from_dict(copy.deepcopy(V06[Q235][2]))
    r = resolve(scn)
    prof = method_profile(scn.training)
    room = M.vllm_start_room(prof, arch=r.arch, params_total=float(r.params.total), gpu_memory_gib=80.0, tp=16)
    # (since issue 35 round 11 of the memory CUDA reports, 79.22 of 80 GiB: serving_facts.CUDA_VISIBLE_SHARE)
    expect = (prof.gpu_fraction * 80.0 * 2**30 * (79.22 / 80.0) - 2.0 * float(r.params.total) / 16
              - 2 * 94 * 128 * 2 * float(prof.prompt_len + prof.rollout_len))
    assert room == pytest.approx(expect, rel=1e-12)


def test_vectorised_search_equals_evaluate_when_heads_replicate():
    """Qwen3-30B-A3B (4 KV heads) GRPO with vLLM at TP 8 (two ranks a head): the search's arrays and evaluate()
    agree on every sampled layout."""
    from dataclasses import replace

    import numpy as np

    from gpuplanner.core import search as S
    from gpuplanner.core.evaluate import evaluate
    rid = "nemo-rl v0.6 qwen3-30b-a3b grpo 32xh100"
    d = scenario_from_dict(copy.deepcopy(V06[rid][2])).model_dump()
    d["training"]["rl"]["rollout_tp"] = 8
    d["hardware"] = None
    d["parallel"] = None
    d["data"] = {"tokens": 1e8}
    d["constraints"] = {"max_gpus": 32, "gpu_candidates": ["h100-sxm-80gb"]}
    s = scenario_from_dict({k: v for k, v in d.items() if v is not None})
    checked = 0
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
    assert checked >= 3


def test_tp_not_dividing_the_kv_heads_floors_like_the_sizer():
    """Issue 35 round 8 (tidy9): vLLM's ``get_num_kv_heads`` is ``max(1, kv_heads // tp)``, whole heads. A model of
    10 KV heads (Phi-3-medium's count) at TP 4 holds 2 heads a rank, not 2.5; at TP 3 with 8 heads, 2 not 2.67; at
    TP 16, 1. The rollouts and the serving sizer give the same bytes, and the search's array path the same too."""
    import dataclasses
    import numpy as np
    r = _resolved(Q235)
    head = 2 * 94 * 128 * 2
    for kv, tp, heads in ((10, 4, 2), (8, 3, 2), (10, 16, 1), (10, 5, 2), (12, 8, 1)):
        a = dataclasses.replace(r.arch, num_kv_heads=kv)
        sm = dataclasses.replace(ServingModel.of(r.arch, r.params), num_kv_heads=kv)
        assert M.vllm_kv_per_token_per_gpu(a, tp, ScalarOps) == pytest.approx(heads * head), (kv, tp)
        assert kv_bytes_per_token_per_gpu(sm, 2.0, tp) == pytest.approx(heads * head), (kv, tp)
        arr = M.vllm_kv_per_token_per_gpu(a, np.array([float(tp), 1.0]), ArrayOps)
        assert arr[0] == pytest.approx(heads * head) and arr[1] == pytest.approx(kv * head), (kv, tp)
