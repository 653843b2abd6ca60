"""The longest completion of an RL step (issue 35 round 9, rllen9): a log-normal body of spread ROLLOUT_LEN_CV plus
a share ROLLOUT_CAP_SHARE of completions that run to the cap, from verl's logged response lengths
(bench/rl_lengths.py, bench/data/rl_lengths.json)."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest
from gpuplanner.core.errors import ScenarioError

from gpuplanner.core import methods as M
from gpuplanner.core.arrayops import ArrayOps, ScalarOps
from gpuplanner.core.estimate import estimate
from gpuplanner.core.flops import expected_longest
from gpuplanner.core.rollout_lengths import expected_longest_runaway
from gpuplanner.core.scenario import scenario_from_dict

ROOT = Path(__file__).resolve().parents[1]


def prof(mean, cap=1024, **kw):
    return M.MethodProfile(objective="grpo", rl=True, rollout_len=cap, mean_response_fraction=mean / cap, **kw)


def test_two_completions_by_hand():
    """E[max of 2 log-normals] = 2 × mean × Φ(σ/√2) (no cap): mean 100, spread 0.39: σ = √ln(1 + 0.39²) = 0.37636,
    Φ(0.26613) = 0.60493 → 120.99. With runaways at p and a far cap C: ∫₀^C (1 − (1 − p)² G²) dx
    = C (1 − (1 − p)²) + (1 − p)² × 120.99 (G ≈ 1 well below C): C = 10,000, p = 4.7e-4 → 9.40 + 120.87 = 130.27."""
    sig = math.sqrt(math.log1p(0.39 ** 2))
    body = 2 * 100 * 0.5 * (1 + math.erf(sig / 2))
    assert body == pytest.approx(120.99, abs=0.01)
    assert expected_longest(100.0, 0.39, 2.0, 10_000.0) == pytest.approx(body, rel=1e-3)
    keep = (1 - 4.7e-4) ** 2
    hand = 10_000 * (1 - keep) + keep * body
    assert hand == pytest.approx(130.27, abs=0.01)
    assert expected_longest_runaway(100.0, 0.39, 2.0, 10_000.0, 4.7e-4) == pytest.approx(hand, rel=1e-3)


def test_no_spread_leaves_only_the_runaways():
    """Every body completion at the mean: the longest is the cap once one runs away, C − (C − m)(1 − p)ᴺ.
    m = 200, C = 1,024, N = 5,120: (1 − 4.7e-4)^5120 = 0.0901 → 1,024 − 824 × 0.0901 = 949.8."""
    keep = (1 - 4.7e-4) ** 5120
    assert keep == pytest.approx(0.0901, abs=1e-4)
    assert expected_longest_runaway(200.0, 0.0, 5120, 1024.0, 4.7e-4) == pytest.approx(1024 - 824 * keep)
    # no runaways: the plain log-normal of flops.expected_longest
    assert expected_longest_runaway(200.0, 0.39, 512, 1024.0, 0.0) == pytest.approx(
        expected_longest(200.0, 0.39, 512, 1024.0), rel=1e-12)


def test_published_longest_of_verl_logs():
    """verl-data Qwen2.5-7B GRPO-LoRA, last step: 320 rollouts of mean 268.5 (cap 1,024) log a longest of 749
    (m × H_N gave the cap); play-verl Qwen2-7B "recommended": 5,120 rollouts of mean ~188 log a mean longest of
    1,011, with 91% of the steps at the cap."""
    lora = M.expected_longest(prof(268.55), 320, xp=ScalarOps)
    assert lora == pytest.approx(749, rel=0.10)
    assert lora < 0.8 * 1024
    rec = M.expected_longest(prof(188.0), 5120, xp=ScalarOps)
    assert rec == pytest.approx(1011, rel=0.05)
    # the clip ratio it implies: a runaway share near the logs' 0.0006–0.0007 (GPG Megatron, "recommended",
    # deepseek-llm PPO), where a log-normal body alone clips under 1e-4 at these means
    for logged in (0.0006, 0.0007, 0.0006):
        assert 0.5 < M.ROLLOUT_CAP_SHARE / logged < 2.0


def test_every_published_log_by_the_bench():
    """bench/rl_lengths.py: over the 18 logs the rule's longest is within 25% on 16 (p90 ≤ 25%), where m × H_N
    overshot by 56-62% on four; the constants are the medians the bench prints."""
    sys.path.insert(0, str(ROOT / "bench"))
    import rl_lengths as B

    rows = [B.row(log) for log in B.load()]
    assert len(rows) == 18
    errs = sorted(abs(r["new"] / r["logged"] - 1) for r in rows)
    assert errs[int(round(0.9 * 17))] <= 0.25 and sorted(errs)[9] < 0.05
    assert sum(abs(r["geo"] / r["logged"] - 1) > 0.5 for r in rows) == 4
    cvs = sorted(r["cv"] for r in rows if r["cv"] is not None)
    assert float(np.median(cvs)) == pytest.approx(M.ROLLOUT_LEN_CV, abs=0.005)
    ps = [r["p_steps"] for r in rows if r["p_steps"] is not None]
    assert float(np.median(ps)) == pytest.approx(M.ROLLOUT_CAP_SHARE, rel=0.02)


def test_array_and_scalar_paths_agree():
    p = prof(300.0)
    n = np.array([1.0, 8.0, 320.0, 5120.0, 320.0])
    arr = M.expected_longest(p, n, xp=ArrayOps)
    for i, k in enumerate(n):
        assert arr[i] == M.expected_longest(p, float(k), xp=ScalarOps)
    assert arr[0] == 300.0  # one rollout is its own longest
    assert np.all(np.diff(arr[:4]) > 0) and arr[3] <= 1024.0
    # every completion at the cap (the default mean_response_fraction 1): the cap, whatever N
    assert M.expected_longest(M.MethodProfile(objective="grpo", rl=True, rollout_len=512), 64, xp=ScalarOps) == 512


def _scn(std=None, gbs=64):
    rl = {"generation_engine": "vllm_colocated", "rollout_len": 1024, "prompt_len": 100, "group_size": 5,
          "mean_response_fraction": 0.25, "generation_gpu_fraction": 0.5}
    if std is not None:
        rl["response_len_std"] = std
    return scenario_from_dict({
        "model": {"preset": "qwen2.5-7b"},
        "training": {"objective": "grpo", "method": "full", "framework": "fsdp", "seq_len": 1124,
                     "micro_batch_size": 4, "global_batch_size": gbs, "rl": rl},
        "parallel": {"zero": 3}, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}})


def test_response_len_std_field():
    """rl.response_len_std (tokens) replaces 0.39 × the mean; a wider spread waits longer for the longest."""
    assert M.method_profile(_scn().training).response_len_cv == M.ROLLOUT_LEN_CV
    assert M.method_profile(_scn(128.0).training).response_len_cv == pytest.approx(0.5)  # 128 / (0.25 × 1024)
    narrow = estimate(_scn(40.0)).time.parts["rollout_wait_longest"]
    default = estimate(_scn()).time.parts["rollout_wait_longest"]
    wide = estimate(_scn(200.0)).time.parts["rollout_wait_longest"]
    assert narrow < default < wide
    for bad in (-1.0, 0.0, float("nan")):
        with pytest.raises(ScenarioError):
            _scn(bad)


def test_vectorised_search_equals_evaluate_with_a_spread():
    """The search's arrays and ``evaluate`` give one answer with a short mean and a given spread."""
    from dataclasses import replace

    from gpuplanner.core import search as S
    from gpuplanner.core.evaluate import evaluate
    d = _scn(150.0).model_dump()
    d["hardware"] = None
    d["data"] = {"tokens": 1e8}
    d["constraints"] = {"max_gpus": 16, "gpu_candidates": ["h100-sxm-80gb"]}
    s = scenario_from_dict({k: v for k, v in d.items() if v is not None})
    checked = 0
    for ctx in S.iter_contexts(s):
        c = S.enumerate_candidates(ctx, s.constraints.max_gpus)
        if not len(c["tp"]):
            continue
        vec = S.evaluate_candidates(ctx, c)
        for i in [int(j) for j in np.flatnonzero(vec["fits"])[::30]]:
            sc = S.candidate_scenario(ctx, c, i)
            ev = evaluate(sc, resolved=replace(ctx.resolved, scenario=sc), prices=ctx.table,
                          overheads=ctx.overheads, rent_vs_build=False)
            assert vec["mfu"][i] == pytest.approx(ev.mfu_modelled, rel=1e-9)
            checked += 1
    assert checked >= 3
