"""RL rollouts, issue 35 round 4: vLLM's eager launches, sleep level 1 copies, the longest completion of N."""

from __future__ import annotations

import math

import pytest

from gpuplanner.core import methods as M
from gpuplanner.core.arrayops import ScalarOps
from gpuplanner.core.estimate import estimate, resolve
from gpuplanner.core.scenario import scenario_from_dict


def scn(preset="qwen2.5-0.5b", eager=False, sleep=False, level=2, frac=0.75, rollout=192, gbs=64, tp=None):
    rl = {"generation_engine": "vllm_colocated", "rollout_len": rollout, "prompt_len": 100, "group_size": 2,
          "mean_response_fraction": frac, "generation_gpu_fraction": 0.6, "enforce_eager": eager,
          "engine_sleep": sleep, "sleep_level": level}
    if tp:
        rl["rollout_tp"] = tp
    return scenario_from_dict({
        "model": {"preset": preset},
        "training": {"objective": "grpo", "method": "full", "framework": "fsdp", "seq_len": 100 + rollout,
                     "micro_batch_size": 8, "global_batch_size": gbs, "rl": rl},
        "parallel": {"zero": 3}, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}})


def test_eager_launch_floor_by_hand():
    # vLLM Qwen2/Llama decoder layer: 11 kernels, + 2 all-reduces under TP; 12 per step; 24 µs per launch
    assert M.vllm_eager_launch_s(24, 1.0, ScalarOps) == pytest.approx((24 * 11 + 12) * 24e-6)
    assert M.vllm_eager_launch_s(28, 2.0, ScalarOps) == pytest.approx((28 * 13 + 12) * 24e-6)


def test_eager_small_model_decode_waits_for_the_host():
    graph = estimate(scn()).time.seconds["generation"]
    eager = estimate(scn(eager=True)).time.seconds["generation"]
    # Qwen2.5-0.5B on an H100 reads ~1 GB per decode step (< 1 ms): the 6.6 ms of launches set the step
    r = resolve(scn(eager=True))
    floor = M.vllm_eager_launch_s(r.arch.num_layers, 1.0, ScalarOps)
    assert eager - graph > 0.5 * 192 * floor
    assert eager - graph < 192 * floor * 1.5  # never more than the launches over the decode steps (waves ≤ 1.5)
    # a 7B model at small batch is bandwidth-bound: eager costs it far less, relatively
    g7, e7 = (estimate(scn("qwen2.5-7b", eager=e)).time.seconds["generation"] for e in (False, True))
    assert (e7 - g7) / g7 < (eager - graph) / graph


def test_sleep_level_1_copies_the_weights_both_ways():
    lvl2 = estimate(scn("qwen2.5-7b", sleep=True, level=2)).time.parts["weight_refit"]
    lvl1 = estimate(scn("qwen2.5-7b", sleep=True, level=1)).time.parts["weight_refit"]
    r = resolve(scn("qwen2.5-7b"))
    # 16-bit weights out to pinned CPU memory and back, PCIe Gen5 x16 (64 GB/s one way) at 80%
    assert lvl1 - lvl2 == pytest.approx(2 * 2.0 * r.params.total / (64e9 * 0.8), rel=1e-6)
    # without sleep mode nothing is copied; TP 2 engines copy half the weights each
    assert estimate(scn("qwen2.5-7b", sleep=False, level=1)).time.parts["weight_refit"] == pytest.approx(lvl2)
    tp2 = estimate(scn("qwen2.5-7b", sleep=True, level=1, tp=2)).time.parts["weight_refit"]
    tp2_l2 = estimate(scn("qwen2.5-7b", sleep=True, level=2, tp=2)).time.parts["weight_refit"]
    assert tp2 - tp2_l2 == pytest.approx((lvl1 - lvl2) / 2, rel=1e-6)


def test_vllm_blog_sleep_level_1_times():
    """vLLM blog "Zero-Reload Model Switching with vLLM Sleep Mode" (2025-10-26, A100, level 1): Qwen3-Coder-30B-A3B,
    61 GB of bf16 weights at TP 1, wakes in 2.86 s and sleeps in 2.78 s. The model's copy at Gen4 × 0.8: within 20%."""
    one_way = 61e9 / (32e9 * 0.8)
    for published in (2.86, 2.78):
        assert abs(one_way / published - 1) < 0.2


def _longest_by_sum(mean, cv, n, cap, p=M.ROLLOUT_CAP_SHARE, steps=200_000):
    """E[min(max of n, cap)] = ∫₀^cap (1 − ((1 − p) G(x))ⁿ) dx by a plain midpoint sum over tokens, G the log-normal
    of the given mean and spread: an independent check of rollout_lengths.expected_longest_runaway's log-grid quadrature."""
    s2 = math.log1p(cv * cv)
    loc, sig = math.log(mean) - s2 / 2, math.sqrt(s2)
    h = cap / steps
    total = 0.0
    for i in range(steps):
        x = (i + 0.5) * h
        g = 0.5 * (1 + math.erf((math.log(x) - loc) / (sig * math.sqrt(2))))
        total += 1 - ((1 - p) * g) ** n
    return total * h


def test_expected_longest_by_hand():
    """Issue 35 round 9 (rllen9): a log-normal body of spread ROLLOUT_LEN_CV plus ROLLOUT_CAP_SHARE runaways, in
    place of round 4's geometric m × H_N (which gave the cap 1,024 here)."""
    prof = M.MethodProfile(objective="grpo", rl=True, rollout_len=1024, mean_response_fraction=164 / 1024)
    # play-verl 7B "min": 512 rollouts of mean 164; its logged response_length/max averages 866 over 139 steps
    got = M.expected_longest(prof, 512, xp=ScalarOps)
    assert got == pytest.approx(_longest_by_sum(164, 0.39, 512, 1024), rel=2e-3)
    assert 164 < got < 1024
    # every completion at the cap: the cap, whatever N
    full = M.MethodProfile(objective="grpo", rl=True, rollout_len=1024)
    assert M.expected_longest(full, 1, xp=ScalarOps) == 1024


def test_short_means_over_few_rollouts_end_before_the_cap():
    prof = M.MethodProfile(objective="grpo", rl=True, rollout_len=4096, mean_response_fraction=0.1)
    longest = M.expected_longest(prof, 16, xp=ScalarOps)
    assert longest == pytest.approx(_longest_by_sum(409.6, 0.39, 16, 4096), rel=2e-3)  # ≈ 800, not 4,096
    # all 16 decode at once: the decode steps are the longest completion's, the live batch the mean over them
    steps, live = M.decode_steps(prof, 16.0, kv_seq_bytes=1.0, xp=ScalarOps, longest=longest)
    assert steps == pytest.approx(longest)
    assert live == pytest.approx(16 * 409.6 / longest)
    # through the estimate: 64 rollouts wait a shorter tail than 4,096 (whose longest nears the cap)
    few = estimate(scn("qwen2.5-7b", frac=0.1, rollout=4096, gbs=64)).time
    many = estimate(scn("qwen2.5-7b", frac=0.1, rollout=4096, gbs=4096)).time
    assert few.parts["rollout_wait_longest"] < 0.5 * many.parts["rollout_wait_longest"]
    assert few.parts["rollout_wait_longest"] / few.seconds["generation"] < \
        many.parts["rollout_wait_longest"] / many.seconds["generation"]


def test_vectorised_search_equals_evaluate_with_the_new_fields():
    """The search's arrays and ``evaluate`` give one answer with eager launches, sleep level 1 and a short mean
    (the longest of N depends on the candidate's data-parallel size)."""
    from dataclasses import replace

    import numpy as np

    from gpuplanner.core import search as S
    from gpuplanner.core.evaluate import evaluate
    d = scn("qwen2.5-7b", eager=True, sleep=True, level=1, frac=0.1, rollout=2048, gbs=64).model_dump()
    d["hardware"] = None
    d["parallel"] = {"zero": 3}
    d["data"] = {"tokens": 1e8}
    d["constraints"] = {"max_gpus": 16, "gpu_candidates": ["h100-sxm-80gb", "a100-sxm-80gb"]}
    s = scenario_from_dict({k: v for k, v in d.items() if v is not None})
    checked = 0
    for ctx in S.iter_contexts(s):
        c = S.enumerate_candidates(ctx, s.constraints.max_gpus)
        if not len(c["tp"]):
            continue
        vec = S.evaluate_candidates(ctx, c)
        for i in [int(j) for j in np.flatnonzero(vec["fits"])[::40]]:
            sc = S.candidate_scenario(ctx, c, i)
            ev = evaluate(sc, resolved=replace(ctx.resolved, scenario=sc), prices=ctx.table,
                          overheads=ctx.overheads, rent_vs_build=False)
            assert vec["mfu"][i] == pytest.approx(ev.mfu_modelled, rel=1e-9)
            checked += 1
    assert checked >= 5


def test_verl_pads_prompts_to_max_prompt_length():
    """verl's RLHFDataset pads every prompt to data.max_prompt_length (left) and every response to
    response_length: rows that are not padding-free run max_prompt_length + response_length tokens."""
    from gpuplanner.core.timing import sample_shape_of

    def ppo(pad=None, padding_free=False):
        rl = {"generation_engine": "vllm_colocated", "rollout_len": 256, "prompt_len": 104, "reward": "function",
              "critic_padding_free": False}
        if pad:
            rl["prompt_pad_len"] = pad
        return scenario_from_dict({
            "model": {"preset": "qwen2.5-0.5b"},
            "training": {"objective": "ppo", "method": "full", "framework": "fsdp", "seq_len": 360,
                         "padding_free": padding_free, "micro_batch_size": 4, "global_batch_size": 64, "rl": rl},
            "parallel": {"zero": 3}, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}})
    for s, row in ((ppo(), 360.0), (ppo(512), 768.0), (ppo(64), 360.0)):
        r = resolve(s)
        assert sample_shape_of(r.scenario, M.method_profile(r.scenario.training)).row_len == row
    # padding-free policy rows stay prompt + mean completion; the padded critic's extra work grows with the pad
    r = resolve(ppo(512, padding_free=True))
    assert sample_shape_of(r.scenario, M.method_profile(r.scenario.training)).row_len == 360.0
    a, b = estimate(ppo(None, True)).time, estimate(ppo(512, True)).time
    assert b.step_time_s - b.seconds["generation"] > a.step_time_s - a.seconds["generation"]


def test_pipeline_stages_hold_their_own_engines():
    """vLLM runs tensor parallelism only: a data-parallel rank's rollouts are shared by the engines on its
    model-parallel group's tp·pp GPUs (NeMo RL: Megatron PP 4 with vLLM TP 4 holds four engines per group)."""
    def meg(gpus, pp, gbs):
        return scenario_from_dict({
            "model": {"preset": "llama-3.1-8b"},
            "training": {"objective": "grpo", "method": "full", "framework": "megatron", "seq_len": 1024,
                         "micro_batch_size": 1, "global_batch_size": gbs,
                         "rl": {"generation_engine": "vllm_colocated", "rollout_len": 512, "prompt_len": 256,
                                "generation_gpu_fraction": 0.6, "reward": "function"}},
            "parallel": {"tp": 1, "pp": pp, "zero": 1}, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": gpus}})
    two_stages = estimate(meg(16, 2, 4096)).time.seconds["generation"]  # 512 rollouts per rank over 2 engines
    half_batch = estimate(meg(8, 1, 2048)).time.seconds["generation"]   # 256 rollouts per rank, 1 engine each
    assert two_stages == pytest.approx(half_batch, rel=0.02)
    assert two_stages < 0.75 * estimate(meg(8, 1, 4096)).time.seconds["generation"]


def test_published_nemo_rl_step_times():
    """NeMo RL v0.4's published GRPO step times on DGX-H100 (bench/rl_step_times.py STEP_ROWS): each within 35%.
    Before the pipeline stages' engines were counted, the Qwen3-32B rows were +103% and +158%."""
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parents[1] / "bench" / "rl_step_times.py"
    spec = importlib.util.spec_from_file_location("rl_step_times_r4", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    rows = mod.step_table()
    assert len(rows) == 5
    for r in rows:
        assert abs(r["err"]["step"]) < 0.35, (r["id"], r["err"]["step"])
