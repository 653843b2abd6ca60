"""Megatron-Bridge dense rows (issue 35 round 4): the NVLink domain spanning trays (GB200 NVL72) and TE's MXFP8
recipe. Hand-derived values and Megatron-Bridge's published figures (docs/performance-summary-archive.md)."""

from __future__ import annotations

import pytest

from gpuplanner.core import fp8
from gpuplanner.core import timing as T
from gpuplanner.core.errors import PlannerError
from gpuplanner.core.estimate import resolve
from gpuplanner.core.scenario import scenario_from_dict


def scn(gpu="gb200-186gb", n=8, preset="llama-3-8b", recipe="te_current", tp=1, pp=1, vpp=1, cp=1, zero=1, mbs=2,
        gbs=128, seq=8192):
    return scenario_from_dict({
        "model": {"preset": preset},
        "training": {"framework": "megatron", "precision": "fp8", "fp8_recipe": recipe, "seq_len": seq,
                     "micro_batch_size": mbs, "global_batch_size": gbs},
        "parallel": {"tp": tp, "pp": pp, "vpp": vpp, "cp": cp, "zero": zero, "sequence_parallel": tp > 1},
        "hardware": {"gpu": gpu, "num_gpus": n}})


def tps(sc) -> float:
    return T.time_estimate(resolve(sc)).tokens_per_s_per_gpu


def test_nvlink_span_is_the_rack_on_gb200_and_the_node_elsewhere():
    assert T.nvlink_span(4.0, None) == 4.0
    assert T.nvlink_span(4.0, 72) == 72.0
    r = resolve(scn(n=128, preset="llama-3.1-405b", tp=8, pp=4, vpp=12, mbs=1, gbs=32))
    _, gf = T.time_kwargs(r)
    assert T.ep_domain_of(r.gpu, gf, r.scenario.hardware.gpus_per_node) == 72
    rb = resolve(scn(gpu="b200-180gb", n=128, preset="llama-3.1-405b", tp=8, pp=4, vpp=12, mbs=1, gbs=32))
    _, gfb = T.time_kwargs(rb)
    assert T.ep_domain_of(rb.gpu, gfb, rb.scenario.hardware.gpus_per_node) is None


def test_gb200_tensor_parallel_beyond_the_tray_runs_over_nvlink():
    # TP 8 on GB200 (4 GPUs per tray): inside the 72-GPU NVLink domain, not over the trays' NICs
    t = T.time_estimate(resolve(scn(n=64, preset="llama-3-70b", tp=8, pp=1, mbs=1, gbs=64)))
    assert t.links["tp_comm"] == "nvlink"


def test_gb200_data_parallel_rails_count_the_rack():
    # 405B, TP 2, Megatron FSDP on 128 GB200 (two racks): 36 data-parallel peers share each 72-GPU domain, so the
    # ring drives 36 NICs per domain (k_node), not the tray's 2; with the node as domain the step was 41% exposed
    # FSDP traffic and 36% too slow against the published 729 tok/s/GPU (Megatron-Bridge 25.09, DGX-GB200)
    sc = scn(n=128, preset="llama-3.1-405b", tp=2, zero=3, mbs=1, gbs=64)
    r = resolve(sc)
    kw, _ = T.time_kwargs(r)
    kw = {k: v for k, v in kw.items() if k not in T.GPU_TIME_ARGS}
    lay = T.time_layout(r.facts, **kw, tp=2, pp=1, cp=1, ep=1, dp=64, zero=3, recompute=0, mbs=1, sp=True,
                        grad_accum=1, vpp=1, num_gpus=128, gpus_per_node=4, offload=False)
    assert float(lay["k_node"]) == pytest.approx(36.0)
    assert tps(sc) == pytest.approx(729, rel=0.15)


def test_mxfp8_recipe_bytes_and_gemm_ratio():
    rc = fp8.RECIPES["te_mxfp8"]
    assert rc.x_bytes == rc.dy_bytes == rc.w_bytes == pytest.approx(4.0625)
    assert rc.weight_copy == pytest.approx(2.0625)
    assert rc.gemm_ratio == pytest.approx(70.9 / 80.3 * 6.812 / 7.161)


def test_mxfp8_costs_what_bridge_publishes_against_current_scaling():
    # Llama 3 8B, 8 GB200, MBS 2: 31,508 (FP8-CS) and 29,789 (FP8-MX) tok/s/GPU (25.11): ratio 0.945
    cs, mx = tps(scn()), tps(scn(recipe="te_mxfp8"))
    assert mx / cs == pytest.approx(29789 / 31508, abs=0.02)
    assert mx == pytest.approx(29789, rel=0.12)


def test_mxfp8_refused_off_blackwell():
    with pytest.raises(PlannerError, match="Blackwell"):
        tps(scn(gpu="h100-sxm-80gb", recipe="te_mxfp8", mbs=1))
