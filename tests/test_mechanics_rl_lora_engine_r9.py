"""Issue 35 round 9 (rl12): an eager vLLM engine that serves the actor's LoRA adapter through its LoRA layers.

verl builds its rollout engine with ``enable_lora`` whenever the actor has ``lora_rank`` > 0 (``rollout_worker.py``,
``vllm_rollout_spmd.py``); every wrapped linear layer then runs the punica shrink and expand kernels, launched from
Python. vllm-project/vllm issue #13204 measured the cost with ``--enforce-eager`` (vLLM 0.7.0, Qwen2.5-72B-AWQ,
80 layers): 17.6 → 6.5 tokens/s, 1.21 ms a layer a decode step (``methods.VLLM_LORA_EAGER_S_PER_LAYER``). TRL merges
the adapter before it loads the weights into vLLM, so its engine has no LoRA layers."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

from gpuplanner.core import methods as M
from gpuplanner.core.arrayops import ScalarOps
from gpuplanner.core.scenario import scenario_from_dict

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import rl_step_times as RL  # noqa: E402
import rl_step_times_r9 as R9  # noqa: E402

ROWS = {r[0]: r for r in R9.ROWS + R9.ROWS_V01}
L05 = "verl h100 qwen2.5-0.5b grpo-lora 2 gpus"
L7 = "verl h100 qwen2.5-7b grpo-lora 8 gpus"


def _scn(rid):
    return copy.deepcopy(ROWS[rid][2])


def _prof(d):
    return M.method_profile(scenario_from_dict(d).training)


def test_constant_by_hand():
    """(1/6.5 − 1/17.6) s = 153.8 − 56.8 = 97.0 ms a token over 80 decoder layers: 1.213 ms a layer."""
    assert M.VLLM_LORA_EAGER_S_PER_LAYER == pytest.approx(0.0970 / 80.0, rel=2e-3)
    assert 1.20e-3 < M.VLLM_LORA_EAGER_S_PER_LAYER < 1.22e-3


def test_which_runs_serve_the_adapter_through_vllm():
    """verl (RL on FSDP) with a LoRA actor and vLLM: yes. The same run with full fine-tuning, with HF generate, or
    on TRL (which merges the adapter first): no."""
    d = _scn(L7)
    assert _prof(d).lora_engine
    full = copy.deepcopy(d)
    full["training"]["method"] = "full"
    full["training"]["preference"] = {"beta": 0.001, "reference_offload": True}
    assert not _prof(full).lora_engine
    hf_gen = copy.deepcopy(d)
    hf_gen["training"]["rl"].update(generation_engine="training", engine_sleep=False)
    for k in ("generation_gpu_fraction", "sleep_level", "enforce_eager", "max_num_seqs", "rollout_tp"):
        hf_gen["training"]["rl"].pop(k, None)
    assert not _prof(hf_gen).lora_engine
    trl = copy.deepcopy(d)
    trl["training"]["framework"] = "hf"
    trl["parallel"] = {"zero": 3}
    assert not _prof(trl).lora_engine


def test_the_step_pays_it_only_eager(monkeypatch):
    """The 7B LoRA row: eager, the added generation is decode steps × 28 layers × 1.21 ms; with CUDA graphs
    (``enforce_eager`` false) the launches are captured and nothing is added."""
    d = _scn(L7)
    now = RL.predict(copy.deepcopy(d))["gen"]
    with monkeypatch.context() as mp:
        mp.setattr(M, "VLLM_LORA_EAGER_S_PER_LAYER", 0.0)
        old = RL.predict(copy.deepcopy(d))["gen"]
    # by hand: 4 engines (TP 2 on 8 GPUs) share 320 rollouts; each engine decodes until the longest of the 320
    # completions ends (its 80 sequences all fit in its pool and under max_num_seqs). Round 9 (rllen9): that longest
    # is methods.expected_longest's, about 785 tokens at the row's mean of 267 (the log's last step: 749), where
    # round 4's m·H_320 reached the cap of 1,024
    longest = M.expected_longest(_prof(d), 320, xp=ScalarOps)
    assert 700 < longest < 850
    added = longest * 28 * M.VLLM_LORA_EAGER_S_PER_LAYER
    assert now - old == pytest.approx(added, rel=0.02)
    graphs = copy.deepcopy(d)
    graphs["training"]["rl"]["enforce_eager"] = False
    g_now = RL.predict(copy.deepcopy(graphs))["gen"]
    with monkeypatch.context() as mp:
        mp.setattr(M, "VLLM_LORA_EAGER_S_PER_LAYER", 0.0)
        g_old = RL.predict(copy.deepcopy(graphs))["gen"]
    assert g_now == pytest.approx(g_old, rel=1e-12)


def test_published_lora_row_that_reaches_the_cap():
    """verl's Qwen2.5-0.5B GRPO-LoRA log (2 GPUs, eager, XFormers): its last step clips 43% of the responses at
    1,024 tokens, so its generation runs the full 1,024 decode steps the model assumes. Published gen 67.9 s;
    the model gave 27.5 s (−59%) without the LoRA layers' launches and must now be within 25%."""
    gen = RL.predict(_scn(L05))["gen"]
    assert gen == pytest.approx(67.9, rel=0.25)


def test_rows_without_lora_do_not_move(monkeypatch):
    """Every earlier RL row (no LoRA actor) keeps its step."""
    rows = [(r[0], r[2]) for r in RL.ROWS + RL.STEP_ROWS + RL.STEP_ROWS_V05 + RL.STEP_ROWS_V05_GB200
            + RL.STEP_ROWS_V06 + RL.STEP_ROWS_V06_GB200]
    now = {rid: RL.predict(copy.deepcopy(scn))["step"] for rid, scn in rows}
    with monkeypatch.context() as mp:
        mp.setattr(M, "VLLM_LORA_EAGER_S_PER_LAYER", 0.0)
        old = {rid: RL.predict(copy.deepcopy(scn))["step"] for rid, scn in rows}
    for rid in now:
        assert now[rid] == pytest.approx(old[rid], rel=1e-12), rid


def test_vectorised_search_equals_evaluate_for_a_lora_actor():
    """verl GRPO-LoRA (Qwen2.5-7B, vLLM eager): the search's arrays and evaluate() agree on every sampled layout."""
    from dataclasses import replace

    import numpy as np

    from gpuplanner.core import search as S
    from gpuplanner.core.evaluate import evaluate
    d = scenario_from_dict(_scn(L7)).model_dump()
    d["hardware"] = None
    d["parallel"] = None
    d["data"] = {"tokens": 1e8}
    d["constraints"] = {"max_gpus": 8, "gpu_candidates": ["h100-sxm-80gb"]}
    s = scenario_from_dict({k: v for k, v in d.items() if v is not None})
    checked = 0
    for ctx in S.iter_contexts(s):
        c = S.enumerate_candidates(ctx, s.constraints.max_gpus)
        if not len(c["tp"]):
            continue
        vec = S.evaluate_candidates(ctx, c)
        for i in [int(j) for j in np.flatnonzero(vec["fits"])[::3]]:
            sc = S.candidate_scenario(ctx, c, i)
            ev = evaluate(sc, resolved=replace(ctx.resolved, scenario=sc), prices=ctx.table,
                          overheads=ctx.overheads, rent_vs_build=False)
            assert vec["mfu"][i] == pytest.approx(ev.mfu_modelled, rel=1e-9)
            checked += 1
    assert checked >= 2
