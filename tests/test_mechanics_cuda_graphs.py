"""Issue 35 round 6 (helper moe8): Megatron-Core's per-layer CUDA graphs (``parallel.cuda_graph_scope``).

Sources: Megatron-LM ``megatron/core/transformer/transformer_layer.py`` (``_get_submodules_under_cudagraphs``:
``attn`` captures the input norm and the attention, ``moe_router`` the pre-MLP norm and the router) and
``transformer_config.py`` ``__post_init__`` (the refusals); Megatron-Bridge v0.2.2 / v0.4.2
``scripts/performance/configs/*/*workload_base_configs.py`` (which recipes graph which scope)."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

from gpuplanner.core import search as S
from gpuplanner.core import timing as T
from gpuplanner.core.errors import ScenarioError
from gpuplanner.core.estimate import resolve
from gpuplanner.core.scenario import scenario_from_dict

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import validate_time as V  # noqa: E402
from search_helpers import sampled_candidates, vectorised_step_s  # noqa: E402


def _qwen3_30b(scope=None, gpu="b200-180gb", mbs=1, moe_pad=None, **training) -> dict:
    return {"model": {"preset": "qwen3-30b-a3b"},
            "training": {"framework": "megatron", "precision": "fp8", "fp8_recipe": "te_current", "seq_len": 4096,
                         "micro_batch_size": mbs, "global_batch_size": 512, **training},
            "parallel": {"tp": 1, "pp": 1, "ep": 8, "expert_tp": 1, "zero": 1, "moe_dispatcher": "alltoall",
                         "cuda_graph_scope": scope},
            "hardware": {"gpu": gpu, "num_gpus": 8}}


def test_saved_ops_per_layer_hand_counted():
    """attn 27 forward kernels, router + preprocess 11; backward twice as many; one replay per pass stays."""
    assert T.cuda_graph_saved_ops(None) == (0.0, 0.0)
    assert T.cuda_graph_saved_ops("attn") == (26.0, 53.0)
    assert T.cuda_graph_saved_ops("moe_router") == (10.0, 21.0)
    assert T.cuda_graph_saved_ops("attn_moe_router") == (37.0, 75.0)
    assert T.CUDA_GRAPH_FWD_OPS["attn"] + T.CUDA_GRAPH_FWD_OPS["moe_router"] <= T.EAGER_OPS_FWD_LAYER


def test_moe_host_parts_with_graphs_hand_derived():
    """Qwen3-30B-A3B, EP 8 (16 local experts), FP8, 48 layers: without graphs 61.44 / 47.232 / 116.16 ms (moe5);
    attention + router graphed: the forward's other kernels (41 − 37) × 24 µs × 48 = 4.608 ms, the backward
    (82 − 75 + 10 × 16) × 10 µs × 48 = 80.16 ms; the per-expert kernels stay (61.44 ms). The all-to-all dispatcher's
    own kernels (moe11, MOE_DISPATCH_HOST_OPS: 21 forward at 24 µs, 10 backward at 10 µs per layer, not graphed by
    these scopes) are in the parts since tidy9: + 24.192 ms forward, + 4.8 ms backward."""
    m = resolve(scenario_from_dict(_qwen3_30b())).facts
    assert np.allclose(T.moe_host_parts(m, "megatron", "fp8", 8, 1), (0.06144, 0.071424, 0.12096), rtol=1e-9)
    assert np.allclose(T.moe_host_parts(m, "megatron", "fp8", 8, 1, dispatch=False), (0.06144, 0.047232, 0.11616),
                       rtol=1e-9)
    assert np.allclose(T.moe_host_parts(m, "megatron", "fp8", 8, 1, "attn_moe_router"),
                       (0.06144, 0.004608 + 0.024192, 0.08016 + 0.0048), rtol=1e-9)
    assert np.allclose(T.moe_host_parts(m, "megatron", "fp8", 8, 1, "moe_router"),
                       (0.06144, (31 + 21) * 24e-6 * 48, (82 - 21 + 160 + 10) * 10e-6 * 48), rtol=1e-9)


def test_graphs_shorten_only_a_host_bound_step():
    """B200 Qwen3-30B at MBS 1 is host-bound (moe_host_sync > 0): graphs shorten the step; a dense Megatron run has
    no host floor in the model and does not move."""
    from gpuplanner.core.estimate import time_estimate
    base = time_estimate(resolve(scenario_from_dict(_qwen3_30b())))
    router = time_estimate(resolve(scenario_from_dict(_qwen3_30b("moe_router"))))
    both = time_estimate(resolve(scenario_from_dict(_qwen3_30b("attn_moe_router"))))
    # (since helper bwattn7 the attention backward runs at cuDNN's measured B200 rate, timing.ATTN_BWD_TIME_FACTOR:
    # once the router is graphed the GPU's time covers the host's, so graphing the attention adds nothing here)
    assert base.tokens_per_s_per_gpu < router.tokens_per_s_per_gpu <= both.tokens_per_s_per_gpu
    dense = {"model": {"preset": "llama-3.1-8b"},
             "training": {"framework": "megatron", "precision": "bf16", "seq_len": 4096, "micro_batch_size": 1,
                          "global_batch_size": 64},
             "parallel": {"tp": 1, "pp": 1, "zero": 1}, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}}
    a = time_estimate(resolve(scenario_from_dict(dense))).tokens_per_s_per_gpu
    dense["parallel"]["cuda_graph_scope"] = "attn"
    assert time_estimate(resolve(scenario_from_dict(dense))).tokens_per_s_per_gpu == a


def test_refusals_follow_megatron():
    with pytest.raises(ScenarioError, match="Megatron-Core setting"):
        d = _qwen3_30b("attn")
        d["training"]["framework"] = "fsdp"
        d["parallel"]["moe_dispatcher"] = None
        scenario_from_dict(d)
    with pytest.raises(ScenarioError, match="full-iteration CUDA graph"):
        scenario_from_dict(_qwen3_30b("attn", recompute="full"))
    dense = {"model": {"preset": "llama-3.1-8b"}, "training": {"framework": "megatron", "seq_len": 4096},
             "parallel": {"cuda_graph_scope": "moe_router"}, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}}
    with pytest.raises(ScenarioError, match="no MoE layers"):
        resolve(scenario_from_dict(dense))
    dense["parallel"]["cuda_graph_scope"] = "attn"
    resolve(scenario_from_dict(dense))  # the attention graph needs no MoE


def test_bridge_rows_entered_with_their_recipes_scope():
    """Megatron-Bridge v0.4.2 QWEN3_235B_A22B_PRETRAIN_CONFIG_GB200_FP8_MX_V1 graphs attn + moe_router: the 26.04.01
    GB200 Qwen3-235B row (5,680 tok/s/GPU) was −10.4% without the graphs; the table's median/p90 do not get worse."""
    rows = V.bridge_moe_results()
    res = {r["row"][:3]: r for r in rows}
    gb = res[("26.04.01", "GB200", "qwen3-235b-a22b")]
    assert gb["pub"] == 5680 and -0.04 < gb["pred"] / gb["pub"] - 1 < 0.04
    assert V.bridge_moe_scenario(gb["row"])["parallel"]["cuda_graph_scope"] == "attn_moe_router"
    h100 = res[("26.04.01", "H100", "qwen3-30b-a3b")]
    assert V.bridge_moe_scenario(h100["row"])["parallel"]["cuda_graph_scope"] is None  # H100 FP8-CS: no graphs
    n, med, p90 = V.bridge_moe_stats(rows)
    assert n == 24 and med <= V.BRIDGE_MOE_BEFORE_MOE8["median"] + 1e-3 and p90 <= V.BRIDGE_MOE_BEFORE_MOE8["p90"] + 1e-3


def test_search_equals_evaluate_with_graphs():
    d = {"model": {"preset": "qwen3-30b-a3b"}, "training": {"method": "pretrain", "framework": "megatron",
                                                             "precision": "fp8", "seq_len": 4096},
         "parallel": {"cuda_graph_scope": "attn_moe_router", "moe_capacity_factor": 1.25, "moe_pad_to_capacity": True},
         "data": {"tokens": 2e10}, "constraints": {"max_gpus": 16, "gpu_candidates": ["gb200-186gb", "b200-180gb"],
                                                   "prices": {g: {"card_hour": 30.0, "machine_month": 120000.0,
                                                                  "currency": "CNY"}
                                                              for g in ("gb200-186gb", "b200-180gb")}}}
    s = scenario_from_dict(d)
    checked = 0
    for ctx, vec, i, sc, ev in sampled_candidates(s, np.random.default_rng(5), 30):
        assert sc.parallel.cuda_graph_scope == "attn_moe_router" and sc.parallel.moe_capacity_factor == 1.25
        step = vectorised_step_s(vec, i, ev)
        assert math.isclose(step, ev.time.step_time_s, rel_tol=1e-9), (ctx.gpu.id, sc.parallel)
        checked += 1
    assert checked >= 10


# ---- token dropping (parallel.moe_capacity_factor, parallel.moe_pad_to_capacity)

def test_capacity_scale_and_sync_from_the_dispatcher_code():
    """``get_capacity`` = ceil(tokens · k / E · factor); padded: every expert filled to capacity (× factor); unpadded
    under balanced routing: min(factor, 1). Drop-and-pad leaves the all-to-all's cuda_sync_point at "no_sync"."""
    assert T.moe_capacity_scale(None, False) == 1.0
    assert T.moe_capacity_scale(1.0, True) == 1.0 and T.moe_capacity_scale(1.25, True) == 1.25
    assert T.moe_capacity_scale(1.25, False) == 1.0 and T.moe_capacity_scale(0.5, False) == 0.5
    assert T.moe_dispatch_syncs(None, False, "alltoall")
    assert T.moe_dispatch_syncs(1.0, False, "alltoall")  # dynamic output size: before_permutation_1
    assert not T.moe_dispatch_syncs(1.0, True, "alltoall") and not T.moe_dispatch_syncs(1.0, True, "flex")
    assert T.moe_dispatch_syncs(1.0, True, "allgather")  # tokens_per_expert.cpu()


def test_drop_and_pad_removes_the_per_layer_wait():
    """B200 Qwen3-30B MBS 1 (host-bound dropless): with drop-and-pad at factor 1 the MoE layers' host wait is only
    the host's excess over the whole micro-batch (run-ahead), never more than the synced form; factor 1.25 padded
    costs GEMM and all-to-all time (slower than factor 1)."""
    from gpuplanner.core.estimate import time_estimate

    def est(gpu="b200-180gb", mbs=1, **par):
        d = _qwen3_30b(gpu=gpu, mbs=mbs)
        d["parallel"].update(par)
        return time_estimate(resolve(scenario_from_dict(d)))
    base, drop = est(), est(moe_capacity_factor=1.0, moe_pad_to_capacity=True)
    # B200 MBS 1: the host binds in the forward and the backward, so the run-ahead excess equals the synced one
    assert drop.tokens_per_s_per_gpu == pytest.approx(base.tokens_per_s_per_gpu)
    # B200 MBS 2: only the forward's layers wait (the backward's GPU work covers its host time): the wait goes,
    # 26,626 → 29,262 tok/s/GPU (moe8); since moe9 charges TE's per-expert FP8 casts on the GPU (moe_quant_kernels),
    # the GPU covers more of the host's time and the gain is smaller: 25,264 → 26,874 (+6.4%)
    g_base = est("b200-180gb", 2)
    g_drop = est("b200-180gb", 2, moe_capacity_factor=1.0, moe_pad_to_capacity=True)
    assert g_base.parts["moe_host_sync"] > 0.3 and g_drop.parts.get("moe_host_sync", 0.0) == 0.0
    assert g_drop.tokens_per_s_per_gpu > 1.05 * g_base.tokens_per_s_per_gpu
    assert est(moe_capacity_factor=1.0).tokens_per_s_per_gpu == pytest.approx(base.tokens_per_s_per_gpu)
    pad125 = est(moe_capacity_factor=1.25, moe_pad_to_capacity=True, cuda_graph_scope="layer")
    pad100 = est(moe_capacity_factor=1.0, moe_pad_to_capacity=True, cuda_graph_scope="layer")
    assert pad125.tokens_per_s_per_gpu < pad100.tokens_per_s_per_gpu
    # the whole-layer graph takes every host op of the layer off: the step is the GPU's work
    r = resolve(scenario_from_dict({**_qwen3_30b(), "parallel": {**_qwen3_30b()["parallel"], "moe_capacity_factor": 1.0,
                                                               "moe_pad_to_capacity": True,
                                                               "cuda_graph_scope": "layer"}}))
    m = r.facts
    assert np.allclose(T.moe_host_parts(m, "megatron", "fp8", 8, 1, "layer"), (0.0, 24e-6 * 48, 10e-6 * 48))


def test_token_drop_refusals():
    d = _qwen3_30b(moe_pad=None)
    with pytest.raises(ScenarioError, match="needs parallel.moe_capacity_factor"):
        scenario_from_dict({**d, "parallel": {**d["parallel"], "moe_pad_to_capacity": True}})
    with pytest.raises(ScenarioError, match="needs moe_pad_to_capacity"):
        resolve(scenario_from_dict({**d, "parallel": {**d["parallel"], "cuda_graph_scope": "layer"}}))
    with pytest.raises(ScenarioError, match="Megatron-Core settings"):
        scenario_from_dict({**d, "training": {**d["training"], "framework": "fsdp"},
                            "parallel": {"ep": 8, "moe_capacity_factor": 1.0}})


def test_25_09_pairs_entered_with_their_settings():
    """Published 25.09 (token dropping, capacity factor 1.0, padded): B200 Qwen3-30B MBS 1 18,066 tok/s/GPU with
    whole-layer graphs, H100 PP 2 / VP 24 10,494 without graphs. The H100 run was not host-bound in the model, so
    it does not move (+22%); the B200 run with every host op graphed gives the GPU's work alone (+54%): the model's
    GPU side is too fast for 128 small experts at one micro-batch, which the host floor hid."""
    res = {r["pair"][0]: r for r in V.bridge_moe_pair_results()}
    b200, h100 = res["B200 Qwen3-30B MBS 1"], res["H100 Qwen3-30B PP 2 / VP 24"]
    assert b200["pair"][14] == ("25.09", 18066) and h100["pair"][14] == ("25.09", 10494)
    # +54% (moe8) → +30% since moe9 charges the per-expert FP8 casts' GPU time and the token-count all-gather
    assert 0.25 < b200["fast_pred"] / 18066 - 1 < 0.40
    # moeimb10: padded to capacity factor 1.0 every rank runs exactly its share, so the padded run no longer waits for
    # the busiest EP rank as the dropless one does (8 ranks, 2 × 4,096 tokens × 8 copies: 0.16%)
    assert h100["fast_pred"] / h100["pred"] - 1 == pytest.approx(0.0017, abs=5e-4)


def test_search_never_pairs_graphs_with_full_recompute():
    """Megatron refuses per-layer graphs under full recompute, so the search does not try that pair."""
    d = {"model": {"preset": "qwen3-30b-a3b"}, "training": {"method": "pretrain", "framework": "megatron",
                                                             "precision": "bf16", "seq_len": 4096},
         "parallel": {"cuda_graph_scope": "moe_router"},
         "data": {"tokens": 2e10}, "constraints": {"max_gpus": 16, "gpu_candidates": ["h100-sxm-80gb"]}}
    s = scenario_from_dict(d)
    full = T.RECOMPUTE_CODES["full"]
    seen = set()
    for ctx in S.iter_contexts(s):
        c = S.enumerate_candidates(ctx, s.constraints.max_gpus)
        seen |= set(int(x) for x in np.unique(c["recompute"]))
    assert seen and full not in seen
    d["parallel"] = {}
    s = scenario_from_dict(d)
    seen = set()
    for ctx in S.iter_contexts(s):
        seen |= set(int(x) for x in np.unique(S.enumerate_candidates(ctx, s.constraints.max_gpus)["recompute"]))
    assert full in seen  # without graphs the search tries it
