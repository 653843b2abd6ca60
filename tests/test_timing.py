"""Time model: hand-derived terms, properties, the LLaMA-65B worked example, the validation guard."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from gpuplanner.core import flops as F
from gpuplanner.core import timing as T
from gpuplanner.core.estimate import estimate, resolve
from gpuplanner.core.scenario import scenario_from_dict

ROOT = Path(__file__).resolve().parents[1]


def scn(**sections):
    base = {"model": {"preset": "llama-2-7b"}, "training": {"seq_len": 4096, "micro_batch_size": 1},
            "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 8}, "data": {"tokens": 1e9}}
    for k, v in sections.items():
        base[k] = {**base.get(k, {}), **v}
    return scenario_from_dict(base)


def est(**sections):
    return estimate(scn(**sections)).time


# ------------------------------------------------------------------------------------------ formulas


def test_ring_formulas_hand_derived():
    assert T._ring_factor(8, "all_reduce") == pytest.approx(2 * 7 / 8)
    assert T._ring_factor(64, "all_gather") == pytest.approx(63 / 64)
    assert T._ring_factor(1, "all_reduce") == 0.0
    # 16 GPUs on 2 nodes: 14 NVLink steps + 1 network step, twice for all-reduce
    lat = T._ring_latency(16, 8, "all_reduce", T._ScalarOps)
    assert lat == pytest.approx(8.4e-6 + 2 * (14 * 3.4e-6 + 1 * 14e-6))
    assert T._ring_latency(1, 8, "all_gather", T._ScalarOps) == 0.0


def test_single_gpu_step_is_compute_plus_optimizer_hand_derived():
    s = scn(training={"framework": "megatron", "flash_attention": True},
            hardware={"num_gpus": 1})
    r = resolve(s)
    t = T.time_estimate(r)
    m = r.facts
    fwd = F.forward_flops_per_token(m, 4096)
    eff = 0.70 / (1 + 64 / 4096) / (1 + 128 / 4096)
    flops_t = 3 * fwd.total / (312e12 * eff)
    # fused element-wise traffic: (10h) replicated + (3f + 2(q+kv)) split, 2 bytes, 3 passes, + loss 52V (Megatron-LM's
    # default unfused vocab-parallel cross-entropy: timing.MEGATRON_UNFUSED_CE_BYTES)
    h, f = 4096, 11008
    ew = 2 * (10 * h + 3 * f + 2 * (h + h)) * 3 * 32 + 52 * 32000
    mem_t = ew / (2.039e12 * 0.8)
    assert t.seconds["compute"] == pytest.approx((flops_t + mem_t) * 4096, rel=1e-9)
    # AdamW update (30 bytes per parameter) + gradient clipping by global norm (Megatron --clip-grad 1.0:
    # 12 bytes per parameter, T.CLIP_BYTES)
    assert t.seconds["other"] == pytest.approx(m.params.total * (30 + 12) / (2.039e12 * 0.8), rel=1e-9)
    assert t.seconds["tp_comm"] == t.seconds["dp_comm"] == t.seconds["pp_bubble"] == 0.0
    assert t.step_time_s == pytest.approx(sum(t.seconds.values()))
    assert t.tokens_per_s_per_gpu == pytest.approx(4096 / t.step_time_s)


def test_tp_allreduce_term_hand_derived():
    s = scn(training={"framework": "megatron", "micro_batch_size": 2}, parallel={"tp": 4},
            hardware={"num_gpus": 4})
    t = T.time_estimate(resolve(s))
    act = 2 * 2 * 4096 * 4096  # b·s·h, 2 bytes
    per_ar = act * 2 * 3 / 4 / 200e9 + 8.4e-6 + 2 * 3 * 3.4e-6  # A100 NVLink busbw 200 GB/s (networks.json)
    assert t.seconds["tp_comm"] == pytest.approx((4 * 32 + 2) * per_ar, rel=1e-9)
    assert t.links["tp_comm"] == "nvlink"


def test_pipeline_bubble_share():
    # m = 8 micro-batches, p = 4: bubble = (p-1)/(m+p-1) of (compute + TP + bubble) when p2p is tiny
    s = scn(training={"framework": "megatron", "global_batch_size": 8}, parallel={"pp": 4},
            hardware={"num_gpus": 4})
    t = T.time_estimate(resolve(s))
    sec = t.seconds
    # includes p2p sends over NVLink (small) and, apart, the stages' wait for the last one (output layer)
    imb = t.parts["pp_imbalance"]
    bubble_only = sec["pp_bubble"] - imb
    assert imb > 0.0
    share = bubble_only / (sec["compute"] + imb + sec["tp_comm"] + bubble_only)
    assert share == pytest.approx(3 / (8 + 3), rel=0.01)
    # interleaving (v = 2) halves the bubble
    s2 = scn(training={"framework": "megatron", "global_batch_size": 8}, parallel={"pp": 4, "vpp": 2},
             hardware={"num_gpus": 4})
    t2 = T.time_estimate(resolve(s2))
    assert t2.seconds["pp_bubble"] < 0.6 * sec["pp_bubble"]


def test_dp_allreduce_exposed_beyond_backward():
    # 8 × RTX 4090 over PCIe, 7B full training, one micro-batch of 512 tokens: the gradient all-reduce
    # (27 GB of fp32 gradients: FSDP2/DDP reduce in fp32) cannot hide under a 0.1 s backward pass;
    # DDP buckets of 25 MB of gradients, the backward is 2/3 of the micro-batch without recomputation
    # (recompute stated: torchtitan's per-op SAC is the fsdp row's default otherwise, issue 35 round 16, titanadv16)
    s = scn(training={"seq_len": 512, "framework": "fsdp", "recompute": "none"}, parallel={"zero": 0},
            hardware={"gpu": "rtx-4090-24gb", "num_gpus": 8})
    r = resolve(s)
    t = T.time_estimate(r)
    kw, gf = T.time_kwargs(r)
    grads = r.params.total * 4.0
    bucket = 25 * 1024 * 1024 / 4.0
    ar = grads * 2 * 7 / 8 / (gf.intra_busbw_gbs * 1e9) + np.ceil(r.params.total / bucket) * T._ring_latency(
        8, 8, "all_reduce", T._ScalarOps)
    # (compute includes what the hidden part of the all-reduce slows: timing.OVERLAP_COMPUTE_SLOWDOWN)
    raw = t.seconds["compute"] - T.OVERLAP_COMPUTE_SLOWDOWN * t.hidden["dp_comm"]
    assert t.seconds["dp_comm"] == pytest.approx(ar - raw * 2 / 3, rel=1e-9)
    assert t.hidden["dp_comm"] == pytest.approx(raw * 2 / 3, rel=1e-9)
    assert t.breakdown["dp_comm"] > 0.5
    assert t.links["dp_comm"] == "pcie"
    assert t.largest_overhead[0] == "dp_comm"


# ------------------------------------------------------------------------------------------ properties


def test_more_gpus_never_lower_total_throughput_over_nvlink():
    for gpu in ("h100-sxm-80gb", "a100-sxm-80gb"):
        totals = []
        for n in (1, 2, 4, 8, 16, 32, 64, 128):
            t = est(hardware={"gpu": gpu, "num_gpus": n}, parallel={"zero": 1},
                    training={"framework": "megatron", "micro_batch_size": 2, "global_batch_size": 256})
            totals.append(t.tokens_per_s)
        assert all(b >= a for a, b in zip(totals, totals[1:])), totals
        # and ZeRO-3 the same
        z3 = [est(hardware={"gpu": gpu, "num_gpus": n}, parallel={"zero": 3},
                  training={"framework": "fsdp", "micro_batch_size": 2}).tokens_per_s for n in (2, 4, 8, 16, 64)]
        assert all(b >= a for a, b in zip(z3, z3[1:])), z3


def test_pcie_tp_slower_than_nvlink_tp():
    base = dict(training={"framework": "megatron", "micro_batch_size": 2}, parallel={"tp": 8},
                hardware={"gpu": "h100-sxm-80gb", "num_gpus": 8})
    nv = est(**base)
    pc = est(**{**base, "hardware": {**base["hardware"], "intra_node": "pcie"}})
    assert pc.step_time_s > nv.step_time_s
    assert pc.seconds["tp_comm"] > 5 * nv.seconds["tp_comm"]
    assert pc.links["tp_comm"] == "pcie" and nv.links["tp_comm"] == "nvlink"


def test_recompute_raises_step_time():
    times = [est(training={"recompute": r}).step_time_s for r in ("none", "selective", "full")]
    assert times[0] < times[1] < times[2]
    # full recomputation: ≈ 8N/6N more matmul work
    assert 1.2 < times[2] / times[0] < 1.45
    mf = [est(training={"recompute": r}) for r in ("none", "full")]
    assert mf[0].flops_per_token == mf[1].flops_per_token  # model FLOPs ignore recomputation
    assert mf[1].hfu > mf[1].mfu


def test_time_scales_linearly_with_tokens():
    a = est(data={"tokens": 1e9})
    b = est(data={"tokens": 3e9})
    assert b.step_time_s == a.step_time_s
    assert b.compute_days == pytest.approx(3 * a.compute_days)
    assert b.gpu_hours == pytest.approx(3 * a.gpu_hours)
    assert b.total_flops == pytest.approx(3 * a.total_flops)
    assert a.gpu_hours == pytest.approx(a.compute_days * 24 * 8)


def test_lora_and_qlora_times():
    full = est(training={"method": "full"})
    lora = est(training={"method": "lora"})
    qlora = est(training={"method": "qlora"})
    assert lora.step_time_s < full.step_time_s  # no weight gradients for frozen weights
    assert qlora.step_time_s > lora.step_time_s  # NF4 dequantisation traffic
    assert qlora.flops_per_token == lora.flops_per_token


def test_moe_expert_parallel_all_to_all():
    base = dict(model={"preset": "mixtral-8x7b"}, training={"framework": "megatron"},
                hardware={"gpu": "h100-sxm-80gb", "num_gpus": 8}, parallel={"zero": 1})
    t1 = est(**base)
    t8 = est(**{**base, "parallel": {"zero": 1, "ep": 8}})
    assert t1.seconds["ep_comm"] == 0.0 and t8.seconds["ep_comm"] > 0.0
    dense_like = F.dense_equivalent_flops_per_token(resolve(scn(**base)).facts)
    assert t1.flops_per_token < 0.35 * dense_like


def test_context_parallel_and_inter_node_tp():
    cp = est(training={"seq_len": 131072, "framework": "megatron"}, parallel={"cp": 8},
             hardware={"gpu": "h100-sxm-80gb", "num_gpus": 8})
    assert cp.seconds["cp_comm"] >= 0.0
    # TP across nodes uses the NICs: much slower than inside a node
    intra = est(training={"framework": "megatron"}, parallel={"tp": 8}, hardware={"num_gpus": 16})
    inter = est(training={"framework": "megatron"}, parallel={"tp": 16}, hardware={"num_gpus": 16})
    assert inter.seconds["tp_comm"] > 4 * intra.seconds["tp_comm"]
    assert "ib-hdr-200" in inter.links["tp_comm"]
    # an explicit faster fabric helps the cross-node TP
    ndr = est(training={"framework": "megatron"}, parallel={"tp": 16},
              hardware={"num_gpus": 16, "inter_node": "ib-ndr-400"})
    assert ndr.seconds["tp_comm"] < inter.seconds["tp_comm"]
    few = est(training={"framework": "megatron"}, parallel={"tp": 16},
              hardware={"num_gpus": 16, "nics_per_node": 2})
    assert few.seconds["tp_comm"] > inter.seconds["tp_comm"]


# ------------------------------------------------------------------------------------------ vectorised


def test_arrays_match_scalar_calls():
    s = scn(training={"framework": "megatron", "global_batch_size": 64}, hardware={"gpu": "h100-sxm-80gb",
                                                                                  "num_gpus": 64})
    r = resolve(s)
    kw, _ = T.time_kwargs(r)
    tp = np.array([1, 2, 4, 8, 8, 1])
    pp = np.array([1, 1, 2, 2, 4, 1])
    zero = np.array([0, 1, 1, 0, 1, 3])
    rec = np.array([0, 1, 2, 0, 2, 2])
    dp = 64 // (tp * pp)
    acc = 64 // dp
    arr = T.time_arrays(r.facts, **kw, tp=tp, pp=pp, cp=1, ep=1, dp=dp, zero=zero, recompute=rec, mbs=1,
                        sp=tp > 1, grad_accum=acc, vpp=1, num_gpus=64, gpus_per_node=8)
    for i in range(len(tp)):
        one = T.time_arrays(r.facts, **kw, tp=int(tp[i]), pp=int(pp[i]), cp=1, ep=1, dp=int(dp[i]),
                            zero=int(zero[i]), recompute=int(rec[i]), mbs=1, sp=bool(tp[i] > 1),
                            grad_accum=int(acc[i]), vpp=1, num_gpus=64, gpus_per_node=8)
        for k in ("step", "compute", "tp_comm", "dp_comm", "pp_bubble", "mfu", "hfu"):
            assert float(arr[k][i]) == pytest.approx(float(one[k]), rel=1e-12, abs=1e-15), k


# ------------------------------------------------------------------------------------------ MFU override


def test_llama_65b_worked_example_21_days():
    # Touvron et al. 2023 (LLaMA, arXiv:2302.13971 §2.4): 65B, ~380 tokens/s/GPU on 2048 A100-80GB,
    # 1.4T tokens ≈ 21 days. Given that throughput as the MFU override, the planner must reproduce it.
    model = {"name": "LLaMA-65B", "hidden_size": 8192, "num_hidden_layers": 80, "num_attention_heads": 64,
             "intermediate_size": 22016, "vocab_size": 32000}
    base = {"model": model, "training": {"seq_len": 2048, "micro_batch_size": 1, "global_batch_size": 2048,
                                         "framework": "megatron"},
            "parallel": {"tp": 8, "pp": 4}, "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 2048},
            "data": {"tokens": "1.4T"}}
    fpt = estimate(scenario_from_dict(base)).time.flops_per_token
    mfu = 380.0 * fpt / 312e12
    base["assumptions"] = {"mfu": mfu}
    t = estimate(scenario_from_dict(base)).time
    assert t.mfu_override
    assert t.tokens_per_s_per_gpu == pytest.approx(380.0, rel=1e-9)
    assert t.mfu == pytest.approx(mfu, rel=1e-9)
    expected_days = 1.4e12 / (380.0 * 2048) / 86400  # 20.82
    assert t.compute_days == pytest.approx(expected_days, rel=1e-9)
    assert round(t.compute_days) == 21
    assert t.gpu_hours == pytest.approx(expected_days * 24 * 2048, rel=1e-9)
    assert sum(t.breakdown.values()) == pytest.approx(1.0)


def test_to_json_keys_and_cli(tmp_path):
    t = est()
    j = t.to_json()
    for k in ("flops_per_token", "total_flops", "step_time_s", "tokens_per_s_per_gpu", "mfu", "hfu",
              "compute_days", "gpu_hours", "time_breakdown"):
        assert k in j
    # the step's parts, plus the named parts this run has (here the compute slowed by its hidden data-parallel
    # traffic, timing.PART_PARENT "overlap_contention", carved out of compute)
    assert set(j["time_breakdown"]) == {"compute", "tp_comm", "dp_comm", "pp_bubble", "other", "overlap_contention"}
    assert sum(j["time_breakdown"].values()) == pytest.approx(1.0, abs=1e-5)
    f = tmp_path / "s.json"
    f.write_text(json.dumps({"model": {"preset": "llama-2-7b"}, "hardware": {"gpu": "a100-sxm-80gb",
                                                                               "num_gpus": 8}}))
    out = subprocess.run([sys.executable, "-m", "gpuplanner", "estimate", str(f), "--json"], capture_output=True,
                         text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["step_time_s"] > 0 and 0 < data["mfu"] < 1 and data["compute_days"] > 0


def test_unknown_precision_peak_is_a_catalog_error():
    from gpuplanner.core.errors import PlannerError

    with pytest.raises(PlannerError):
        estimate(scn(training={"precision": "fp8"}))  # A100 has no FP8


# ------------------------------------------------------------------------------------------ validation


def test_validation_against_published_runs():
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import validate_time as V
    finally:
        sys.path.pop(0)
    if not V.CAL.exists():
        pytest.skip("reference calibration set not present")
    results = [V.run_row(r) for r in V.throughput_rows()]
    s = V.summary(results)
    assert s["rows"] >= 64
    assert s["median"] <= 0.10
    assert s["median"] < s["naive_median"]
    # the Megatron-Core H100 rows (communication overlap switched on in the source) stay within 30%
    h100 = [r for r in results if r["id"].startswith("megatron-readme-h100")]
    assert len(h100) == 9 and max(abs(r["err"]) for r in h100) < 0.30
    # every ASSUMED choice is printed next to its row
    assert all(any(n.startswith("ASSUMED") for n in r["notes"]) for r in h100)
