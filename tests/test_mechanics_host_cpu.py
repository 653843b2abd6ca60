"""Issue 35 round 6 (helper moe7): the host CPU's speed on Grace superchips (``timing.HOST_CPU_FACTOR``).

Source: NVIDIA/TransformerEngine issue #2053 — the CPU time of one BF16 ``torch.nn.Linear`` forward is 37.08 µs on
GB200, 33.17 µs on GH200 and 13.48 µs on a DGX H100 (Xeon Platinum 8480C)."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np

from gpuplanner.core import timing as T
from gpuplanner.core.estimate import resolve
from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.scenario import scenario_from_dict

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import validate_time as V  # noqa: E402
from search_helpers import sampled_candidates, vectorised_step_s  # noqa: E402


def test_host_cpu_factor_from_the_published_linear_forward():
    assert math.isclose(T.host_cpu_factor("gb200-186gb"), 37.08 / 13.48)  # 2.7507
    assert math.isclose(T.host_cpu_factor("gh200-96gb"), 33.17 / 13.48)  # 2.4607
    assert math.isclose(T.host_cpu_factor("GB300-288GB"), 37.08 / 13.48)
    for x86 in ("h100-sxm-80gb", "b200-180gb", "a100-sxm-80gb", "rtx-4090-24gb"):
        assert T.host_cpu_factor(x86) == 1.0
    assert math.isclose(T.gpu_time_facts("gb200-186gb", "fp8").host_cpu_factor, 2.750741839762611)
    assert T.gpu_time_facts("b200-180gb", "fp8").host_cpu_factor == 1.0
    assert "host_cpu_factor" in T.GPU_TIME_ARGS


def _qwen3_30b(gpu: str, mbs: int = 4) -> dict:
    return {"model": {"preset": "qwen3-30b-a3b"},
            "training": {"framework": "megatron", "precision": "fp8", "fp8_recipe": "te_current", "seq_len": 4096,
                         "micro_batch_size": mbs, "global_batch_size": 512},
            "parallel": {"tp": 1, "pp": 1, "ep": 8, "expert_tp": 1, "zero": 1, "moe_dispatcher": "alltoall"},
            "hardware": {"gpu": gpu, "num_gpus": 8}}


def test_factor_scales_the_moe_host_parts_hand_derived():
    """The MoE dispatcher's host parts of Qwen3-30B-A3B, EP 8 (16 local experts), FP8, 48 layers, one micro-batch:
    experts' forward 8 × 16 × 10 µs × 48 = 61.44 ms, the rest of the forward 41 × 24 µs × 48 = 47.232 ms, backward
    (82 + 10 × 16) × 10 µs × 48 = 116.16 ms (helper moe5's example), plus the all-to-all dispatcher's own kernels
    (helper moe11, timing.MOE_DISPATCH_HOST_OPS: 21 forward at 24 µs, 10 backward at 10 µs per layer): the rest of the
    forward 47.232 + 21 × 24 µs × 48 = 71.424 ms, backward 116.16 + 10 × 10 µs × 48 = 120.96 ms, plus the 2 trainable
    weights of each expert (swiftmoe10, timing.MOE_HOST_OPS_PER_TRAINABLE_WEIGHT: 1 op each): 2 × 16 × 10 µs × 48 =
    15.36 ms, backward 136.32 ms (no recompute: nothing re-issued). On GB200 time_gpu
    takes each × 2.7507: the sync exposure equals the x86 formula run on the scaled parts."""
    r = resolve(scenario_from_dict(_qwen3_30b("gb200-186gb")))
    kw, gf = T.time_kwargs(r)
    gpu = {k: kw.pop(k) for k in T.GPU_TIME_ARGS if k in kw}
    s, p, t = r.scenario, r.scenario.parallel, r.scenario.training
    lay = T.time_layout(r.facts, ops=T._ScalarOps, **kw, tp=p.tp, pp=p.pp, cp=p.cp, ep=p.ep, dp=s.dp, zero=p.zero,
                        recompute=T.RECOMPUTE_CODES[t.recompute], mbs=t.micro_batch_size, sp=False,
                        grad_accum=s.grad_accum, vpp=p.vpp, num_gpus=8, gpus_per_node=s.hardware.gpus_per_node,
                        offload=False, offload_params=False)
    parts = (lay["moe_host_exp_f"], lay["moe_host_rest_f"], lay["moe_host_b"])
    assert np.allclose(parts, (0.06144, 0.071424, 0.13632), rtol=1e-9)
    f = gf.host_cpu_factor
    out = T.time_gpu(lay, **gpu)
    scaled = dict(lay, moe_host_exp_f=parts[0] * f, moe_host_rest_f=parts[1] * f, moe_host_b=parts[2] * f,
                  distopt_host_s=lay["distopt_host_s"] * f)  # (the optimizer's per-tensor loops, swiftmoe10)
    same = T.time_gpu(scaled, **{**gpu, "host_cpu_factor": 1.0})
    # (the breakdown names Grace's extra apart, breakdown6: the MoE part reads what an x86 host leaves, the
    # "grace_host" part the rest)
    assert math.isclose(out["moe_host_sync"] + out["grace_host"], same["moe_host_sync"] + same["grace_host"],
                        rel_tol=1e-12)
    assert math.isclose(out["step"], same["step"], rel_tol=1e-12)
    x86 = T.time_gpu(lay, **{**gpu, "host_cpu_factor": 1.0})
    assert math.isclose(out["moe_host_sync"], x86["moe_host_sync"], rel_tol=1e-12) and x86["grace_host"] == 0.0
    assert out["grace_host"] > 0.5  # the host binds on Grace: seconds per step


def test_bridge_gb200_qwen3_30b_rows_move_to_the_published_figures():
    """Megatron-Bridge GB200 Qwen3-30B-A3B (8 GPUs, MBS 4, EP 8): 25.11 23,766 and 26.04.01 26,112 tok/s/GPU; the model
    gave 33,340 (+40%, +28%) with an x86 host. B200 rows (x86 host) do not move."""
    rows = V.bridge_moe_results()
    res = {r["row"][:3]: r for r in rows}
    for key, pub in ((("25.11", "GB200", "qwen3-30b-a3b"), 23766), (("26.04.01", "GB200", "qwen3-30b-a3b"), 26112)):
        assert res[key]["pub"] == pub
        # +15.2% for 25.11 since helper moe8: its recipe (Bridge v0.2.2 QWEN3_30B_A3B_GB200_FP8_MX_BASE_CONFIG)
        # CUDA-graphs the router and the dispatcher's preprocess, which takes their host time off
        assert -0.05 < res[key]["pred"] / pub - 1 < 0.17
    b200 = res[("26.04.01", "B200", "qwen3-30b-a3b")]
    # +16.1% before and after; +6.8% since helper bwattn7 (Blackwell attention backward at cuDNN's measured rate)
    assert 0.03 < b200["pred"] / b200["pub"] - 1 < 0.10
    n, med, p90 = V.bridge_moe_stats(rows)
    assert n == 24 and med < 0.29 and p90 < 0.64  # 31.6% / 62.9% before


def test_search_equals_evaluate_on_grace_hosts():
    """The vectorised search and evaluate() give one answer with the factor (Megatron MoE and an eager HF run)."""
    scenarios = [
        {"model": {"preset": "qwen3-30b-a3b"}, "training": {"method": "pretrain", "framework": "megatron",
                                                             "precision": "fp8", "seq_len": 4096},
         "data": {"tokens": 2e10}, "constraints": {"max_gpus": 16, "gpu_candidates": ["gb200-186gb", "b200-180gb"]}},
        {"model": {"preset": "qwen2.5-0.5b"}, "training": {"method": "full", "framework": "hf", "seq_len": 1024},
         "data": {"tokens": 1e8}, "constraints": {"max_gpus": 8, "gpu_candidates": ["gb200-186gb"]}},
    ]
    prices = {g: {"card_hour": 30.0, "machine_month": 120000.0, "currency": "CNY"}
              for g in ("gb200-186gb", "b200-180gb")}
    rng = np.random.default_rng(3)
    checked = 0
    for d in scenarios:
        d["constraints"]["prices"] = prices
        for ctx, vec, i, sc, ev in sampled_candidates(scenario_from_dict(d), rng, 40):
            step = vectorised_step_s(vec, i, ev)
            assert math.isclose(step, ev.time.step_time_s, rel_tol=1e-9), (ctx.gpu.id, sc.parallel)
            checked += 1
    assert checked >= 20
