"""The busiest expert-parallel rank of a dropless MoE layer (issue 35 round 10, helper moeimb10;
gpuplanner/core/moe_balance.py): the combine all-to-all waits for the rank that received the most routed copies."""

from __future__ import annotations

import math

import numpy as np
import pytest

from gpuplanner.core import moe_balance as B
from gpuplanner.core import rank_imbalance as RI
from gpuplanner.core import timing as T
from gpuplanner.core.arrayops import ArrayOps, ScalarOps

#: scattermoe issue #10 (github.com/shawntan/scattermoe/issues/10, 2024-04-11, "Model-A with load balancing loss",
#: iteration 38,350): routed copies per expert, 8 experts, 16 layers, 5,120 copies per layer
SCATTERMOE_10_COUNTS = [
    [628, 649, 658, 630, 668, 652, 634, 601], [654, 627, 632, 676, 586, 646, 647, 652],
    [643, 633, 660, 604, 634, 664, 647, 635], [613, 640, 656, 606, 659, 641, 648, 657],
    [609, 624, 627, 658, 587, 705, 624, 686], [653, 615, 679, 646, 605, 615, 641, 666],
    [702, 680, 599, 675, 622, 620, 605, 617], [711, 658, 672, 623, 590, 688, 609, 569],
    [644, 629, 632, 627, 652, 639, 645, 652], [644, 659, 585, 701, 595, 648, 618, 670],
    [781, 548, 647, 600, 636, 566, 713, 629], [601, 617, 667, 674, 602, 675, 596, 688],
    [642, 692, 647, 603, 690, 621, 614, 611], [684, 613, 667, 696, 580, 632, 634, 614],
    [622, 632, 593, 620, 607, 718, 726, 602], [595, 682, 652, 702, 613, 640, 668, 568]]


def _exact_max_normal(n: int) -> float:
    """E[max of n standard normals] by numerical integration of x · n · Φ(x)^(n−1) · φ(x)."""
    x = np.linspace(-9.0, 9.0, 36001)
    cdf = 0.5 * (1.0 + np.vectorize(math.erf)(x / math.sqrt(2.0)))
    pdf = np.exp(-0.5 * x * x) / math.sqrt(2.0 * math.pi)
    return float((x * n * cdf ** (n - 1) * pdf).sum() * (x[1] - x[0]))


def test_expected_maximum_against_the_integral():
    assert B.expected_max_std_normal(1) == 0.0
    for n in (2, 8, 16, 64, 256):
        assert B.expected_max_std_normal(n) == pytest.approx(_exact_max_normal(n), rel=1e-4)
    # by hand: E max(X1, X2) = 1/√π; and the one copy (rank_imbalance's integral) is what the MoE layer reads
    assert B.expected_max_std_normal(2) == pytest.approx(1.0 / math.sqrt(math.pi), rel=1e-6)
    assert B.expected_max_std_normal(8.2) == RI.expected_max_normal(8) == pytest.approx(1.4236, abs=1e-4)
    arr = B.expected_max_std_normal(np.array([[1, 8], [8, 64]]))
    assert arr.shape == (2, 2) and arr[0, 0] == 0.0 and arr[0, 1] == arr[1, 0] == B.expected_max_std_normal(8)


def test_hand_derived_qwen3_30b_ep8():
    """Qwen3-30B-A3B (128 experts, top 8), one 4,096-token micro-batch per GPU, EP 8: 32,768 copies per rank,
    σ/μ = sqrt(7/8 · 120/127 / 32,768) = 0.502%, z(8) = 1.4236: the busiest rank holds 0.715% more than the mean."""
    imb = B.moe_rank_imbalance(128, 8, 4096, 8, ScalarOps)
    want = 1.0 + _exact_max_normal(8) * math.sqrt(7 / 8 * 120 / 127 / 32768)
    assert imb == pytest.approx(want, rel=1e-9) and imb == pytest.approx(1.00715, abs=1e-5)
    # an expert-TP group of 2 gathers two ranks' tokens: twice the copies per group, √2 less spread
    assert B.moe_rank_imbalance(128, 8, 4096, 8, ScalarOps, exp_tp=2) - 1 == pytest.approx((imb - 1) / math.sqrt(2))


def test_more_ranks_and_fewer_tokens_mean_a_busier_rank():
    assert B.moe_rank_imbalance(128, 8, 4096, 1, ScalarOps) == 1.0  # one rank: nothing to wait for
    assert B.moe_rank_imbalance(0, 0, 4096, 8, ScalarOps) == 1.0  # a dense model
    by_ep = [B.moe_rank_imbalance(256, 8, 4096, ep, ScalarOps) for ep in (2, 8, 32, 64)]
    assert by_ep == sorted(by_ep) and by_ep[0] > 1.0
    by_tokens = [B.moe_rank_imbalance(128, 8, t, 8, ScalarOps) for t in (256, 1024, 4096, 16384)]
    assert by_tokens == sorted(by_tokens, reverse=True)
    # the spread falls as 1/sqrt(tokens): 16 × the tokens, a quarter of the excess
    assert (by_tokens[3] - 1) == pytest.approx((by_tokens[1] - 1) / 4)


def test_array_path_equals_the_scalar_path():
    ep = np.array([1, 2, 8, 16, 64, 8])
    tok = np.array([4096.0, 2048.0, 4096.0, 512.0, 8192.0, 100.0])
    arr = B.moe_rank_imbalance(128, 8, tok, ep, ArrayOps)
    one = [B.moe_rank_imbalance(128, 8, float(t), int(e), ScalarOps) for t, e in zip(tok, ep)]
    assert arr.tolist() == pytest.approx(one, rel=1e-15)


def test_monte_carlo_random_top_k_routing():
    """Megatron's forced balancing draws normal logits per token (moe_utils.RandomSTE) and keeps the top k: simulated
    here (64 experts, top 4, 512 tokens per rank, EP 8), the mean busiest-rank load over the mean agrees with the
    formula to within the simulation's noise."""
    rng = np.random.default_rng(35)
    n_exp, k, tokens, ep, trials = 64, 4, 512, 8, 400
    ratios = []
    for _ in range(trials):
        top = np.argpartition(rng.standard_normal((tokens * ep, n_exp)), -k, axis=1)[:, -k:]
        per_rank = np.bincount((top // (n_exp // ep)).ravel(), minlength=ep)
        ratios.append(per_rank.max() / per_rank.mean())
    sim = float(np.mean(ratios))
    model = B.moe_rank_imbalance(n_exp, k, tokens, ep, ScalarOps)
    assert model - 1 == pytest.approx(sim - 1, rel=0.08)
    assert 1.026 < model < 1.032  # 2,048 copies per rank: 1 + 1.4236 × sqrt(7/8 × 60/63 / 2,048) = 1.029


def test_published_trained_router_is_not_below_the_random_floor():
    """scattermoe issue #10: a trained router with a load-balancing loss, 5,120 copies over 8 experts (one per rank):
    the mean busiest-expert load over the mean is 1.084 over 16 layers; random routing gives 1.049 (top 2) to 1.053
    (top 1). The model applies the random floor only (module docstring of core/moe_balance.py)."""
    observed = float(np.mean([max(layer) / (sum(layer) / 8) for layer in SCATTERMOE_10_COUNTS]))
    assert observed == pytest.approx(1.084, abs=1e-3)
    assert all(sum(layer) == 5120 for layer in SCATTERMOE_10_COUNTS)
    floors = [B.moe_rank_imbalance(8, k, 5120 / 8 / k, 8, ScalarOps) for k in (1, 2)]
    assert floors[1] == pytest.approx(1.049, abs=1e-3) and floors[0] == pytest.approx(1.053, abs=1e-3)
    assert max(floors) < observed


def test_capacity_factor_against_the_busiest_rank():
    """Dropless: the busiest rank's load; a capacity factor without padding caps each expert at its capacity; padded,
    every expert runs its full capacity whatever the routing."""
    assert T.moe_capacity_scale(None, False, 1.02) == 1.02
    assert T.moe_capacity_scale(1.0, False, 1.02) == 1.0
    assert T.moe_capacity_scale(1.25, False, 1.02) == 1.02
    assert T.moe_capacity_scale(1.25, True, 1.02) == 1.25
    got = T.moe_capacity_scale(1.01, False, np.array([1.0, 1.02]), ops=ArrayOps)
    assert got.tolist() == [1.0, 1.01]


def test_bridge_rows_move_by_the_random_floor_only(monkeypatch):
    """Megatron-Bridge's benchmarks force balance (random logits): every MoE table row slows by under 1.1%, none
    speeds up (the all-to-all and the expert GEMMs wait for the busiest rank; largest at EP 32 with TP 2, where a
    rank gets 2,048 tokens × 8 copies)."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import validate_time as V

    now = [r["pred"] for r in V.bridge_moe_results()]
    monkeypatch.setattr(T._moe_bal, "moe_rank_imbalance", lambda *a, **k: 1.0)
    even = [r["pred"] for r in V.bridge_moe_results()]
    ratios = [a / b for a, b in zip(now, even) if a is not None]
    # (<= 1: since swiftmoe10's host ops the B200 Qwen3-30B MBS 1 row is host-bound, the wait hides under the host)
    assert len(ratios) == 24 and all(0.989 < x <= 1.0 for x in ratios)


def test_search_equals_evaluate_on_moe_layouts():
    """The plan search prices the busiest rank on its candidate arrays exactly as one estimate does (EP 1–32,
    all-to-all dispatcher, one micro-batch of 4,096 tokens and TP/SP splits)."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from search_helpers import sampled_candidates, vectorised_step_s
    from gpuplanner.core.scenario import scenario_from_dict

    d = {"model": {"preset": "qwen3-30b-a3b"},
         "training": {"method": "pretrain", "framework": "megatron", "precision": "bf16", "seq_len": 4096},
         "data": {"tokens": 2e10}, "constraints": {"max_gpus": 32, "gpu_candidates": ["h100-sxm-80gb"],
                                                   "prices": {"h100-sxm-80gb": {"card_hour": 30.0,
                                                                                "machine_month": 120000.0,
                                                                                "currency": "CNY"}}}}
    checked = eps = 0
    for _ctx, vec, i, sc, ev in sampled_candidates(scenario_from_dict(d), np.random.default_rng(10), 40):
        assert math.isclose(vectorised_step_s(vec, i, ev), ev.time.step_time_s, rel_tol=1e-9), sc.parallel
        checked += 1
        eps += sc.parallel.ep > 1
    assert checked >= 10 and eps >= 3
