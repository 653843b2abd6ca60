"""RL rollouts, issue 35 round 5: TRL server mode syncs one parameter tensor per call; NeMo RL v0.5's published
step times (H100 and GB200)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from gpuplanner.core import methods as M
from gpuplanner.core.estimate import estimate, resolve
from gpuplanner.core.scenario import scenario_from_dict


def scn(preset="qwen2.5-0.5b", fw="trl", engine="vllm_separate", gpu="h100-sxm-80gb", gpus=8, k=1):
    return scenario_from_dict({
        "model": {"preset": preset},
        "training": {"objective": "grpo", "method": "full", "framework": fw, "seq_len": 1024, "micro_batch_size": 4,
                     "global_batch_size": 64,
                     "rl": {"generation_engine": engine, "rollout_len": 512, "prompt_len": 512, "group_size": 8,
                            "generation_gpu_fraction": 0.5, "updates_per_generation": k}},
        "parallel": {"zero": 3}, "hardware": {"gpu": gpu, "num_gpus": gpus}})


def _tensors(preset):
    return M.param_tensors(resolve(scn(preset)).arch)


def test_param_tensors_by_hand():
    # Qwen2.5-0.5B: 24 layers × (q, k, v + their biases, o, gate, up, down, 2 norms = 12) + embeddings + final norm;
    # the head is tied — 290, the count of its safetensors header (resources/models/qwen2.5-0.5b.json)
    assert _tensors("qwen2.5-0.5b") == 24 * 12 + 2 == 290
    # Llama-3.1-8B: 32 × (4 projections + 3 MLP + 2 norms) + embeddings, norm, untied head
    assert _tensors("llama-3.1-8b") == 32 * 9 + 3 == 291
    # Qwen2.5-7B: 28 × 12 + 3 (untied head)
    assert _tensors("qwen2.5-7b") == 28 * 12 + 3 == 339
    # Qwen3-30B-A3B: 48 × (4 projections + q/k norms + 2 norms + router + 128 experts × 3) + 3
    assert _tensors("qwen3-30b-a3b") == 48 * (4 + 2 + 2 + 1 + 128 * 3) + 3 == 18867


def test_trl_server_sync_matches_published_times():
    """TRL PR #5249: the per-tensor server sync of Qwen2 0.5B took 0.6 s (the constant's source); TRL issue #3557:
    "~40s" to move Qwen3-30B-A3B into the server on 8× H200 (an independent check)."""
    small = estimate(scn()).time.parts["weight_refit"]
    assert small == pytest.approx(0.6, rel=0.05)
    moe = estimate(scn("qwen3-30b-a3b", gpu="h200-sxm-141gb")).time.parts["weight_refit"]
    assert moe == pytest.approx(40.0, rel=0.10)


def test_per_tensor_calls_only_in_trl_server_mode():
    def prof(fw, engine):
        return M.method_profile(scn(fw=fw, engine=engine).training)
    assert prof("trl", "vllm_separate").per_tensor_sync
    assert prof("axolotl", "vllm_separate").per_tensor_sync  # AxolotlGRPOTrainer subclasses trl.GRPOTrainer
    assert not prof("trl", "vllm_colocated").per_tensor_sync  # colocate: in-process load_weights, no HTTP
    assert not prof("fsdp", "vllm_separate").per_tensor_sync  # verl / OpenRLHF-like separate engines: bytes only
    # the separate-engine refit's bytes term is the same for both tools: the difference is 290 calls × 2.07 ms
    trl = estimate(scn()).time.parts["weight_refit"]
    other = estimate(scn(fw="fsdp")).time.parts["weight_refit"]
    assert trl - other == pytest.approx(290 * 0.6 / 290, rel=1e-9)
    # a generation batch feeding 4 optimizer steps syncs once: a quarter per step
    four = estimate(scn(k=4)).time.parts["weight_refit"]
    assert four == pytest.approx(trl / 4, rel=1e-9)


def test_vectorised_search_equals_evaluate_in_trl_server_mode():
    from dataclasses import replace

    import numpy as np

    from gpuplanner.core import search as S
    from gpuplanner.core.evaluate import evaluate
    d = scn("qwen2.5-1.5b").model_dump()
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
    path = Path(__file__).resolve().parents[1] / "bench" / "rl_step_times.py"
    spec = importlib.util.spec_from_file_location("rl_step_times_r5", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_published_nemo_rl_v05_step_times():
    """NeMo RL v0.5's published GRPO step times (bench/rl_step_times.py). DGX-H100: each within 35% (today 1–30%).
    GB200 NVL72: within 50% — the on-policy Qwen3-30B-A3B row is 46% fast, issue 35's known MoE under-prediction
    (small experts), the Qwen3-32B 1-step-off row 42% fast, and the dense on-policy rows 23–25% fast (the training
    side, or per-step work outside generation and training: see the round-5 note). A guard against regressions
    that records today's error, not a claim of accuracy."""
    mod = _bench()
    h100 = mod.step_table(mod.STEP_ROWS_V05)
    gb200 = mod.step_table(mod.STEP_ROWS_V05_GB200)
    assert len(h100) == 6 and len(gb200) == 6
    for r in h100:
        assert abs(r["err"]["step"]) < 0.35, (r["id"], r["err"]["step"])
    for r in gb200:
        assert abs(r["err"]["step"]) < 0.50, (r["id"], r["err"]["step"])
