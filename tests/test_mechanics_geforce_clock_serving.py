"""Issue 35 round 7 (geserve7; tests/test_mechanics_geforce_clock.py holds geft7's training factor): GeForce cards run their SMs at a sustained clock above the datasheet's boost clock
(timing.GEFORCE_SUSTAINED_CLOCK_RATIO). Hand values and published GeForce measurements."""

from __future__ import annotations

import json
import pathlib

import pytest

from gpuplanner.core import inference as I
from gpuplanner.core import timing as T
from gpuplanner.core.catalog_hw import get_gpu
from gpuplanner.core.estimate import resolve
from gpuplanner.core.scenario import Scenario

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _m(preset: str) -> I.ServingModel:
    r = resolve(Scenario.model_validate({"model": {"preset": preset}}))
    return I.ServingModel.of(r.arch, r.params)


def test_ratio_by_hand_and_only_on_geforce():
    # 2,730 MHz held at stock under load (GPU-Z capture) over the whitepaper's 2,520 MHz boost clock
    assert T.GEFORCE_SUSTAINED_CLOCK_RATIO == pytest.approx(1.0833, abs=1e-4)
    for gid in ("rtx-4090-24gb", "rtx-4090d-24gb", "rtx-5090-32gb"):
        assert T.sustained_clock_ratio(get_gpu(gid)) == pytest.approx(2730 / 2520)
    for gid in ("l40s-48gb", "rtx-a6000-48gb", "h100-sxm-80gb", "a100-sxm-80gb"):
        assert T.sustained_clock_ratio(get_gpu(gid)) == 1.0


def test_serving_peak_and_time_model_share_by_hand():
    g = get_gpu("rtx-4090-24gb")
    # serving: 165.2 TFLOPS (FP32 accumulate, whitepaper) x 2730/2520 = 178.96 TFLOPS
    assert I.peak_flops(g, "bf16") == pytest.approx(178.96e12, rel=1e-3)
    assert I.peak_flops(get_gpu("l40s-48gb"), "bf16") == pytest.approx(362.05e12)
    # time model: the datasheet peak stays (MFU is reported against it); the Ada matmul share 0.70 takes geft7's
    # measured-matmul factor (178.8/165.2 over the A100's 267.9/312 = 1.260, which holds the same clock), not the
    # clock ratio on top of it; the SM clock (NF4 dequantisation's issue rate) runs at 2.73 GHz
    f = T.gpu_time_facts(g)
    assert f.peak_tflops == pytest.approx(165.2)
    assert f.gen_efficiency == pytest.approx(0.70 * (178.8 / 165.2) / (267.9 / 312.0))
    assert f.sm_ghz == pytest.approx(T.sm_cycle_rate(g) / 1e9 * 2730 / 2520)
    # the L40S: no clock ratio, but its measured BF16 sweep share (issue 35 round 8, timing.datacenter_sweep_factor)
    assert T.gpu_time_facts(get_gpu("l40s-48gb")).gen_efficiency == pytest.approx(
        0.70 * (269.15 / 362.05) / (264.53 / 312.0))


def test_serving_gemm_share_is_the_training_models():
    # one card, one GEMM rate: the serving sizer's large-GEMM rate on a 4090 equals the training model's
    # (datasheet 165.2 x Ada's 0.70 x the measured-matmul factor 1.260 = 145.7 TFLOP/s before the size factors)
    g = get_gpu("rtx-4090-24gb")
    serving = I.peak_flops(g, "bf16") * _timing_share(g)
    f = T.gpu_time_facts(g)
    assert serving == pytest.approx(f.peak_tflops * 1e12 * f.gen_efficiency, rel=1e-9)
    assert serving == pytest.approx(165.2e12 * 0.70 * (178.8 / 165.2) / (267.9 / 312.0), rel=1e-3)


def _timing_share(g):
    m = _m("llama-3.1-8b")
    size = (1.0 + T.D0 / m.hidden) * (1.0 + T.T0 / 1e12)
    return I.gemm_efficiency(m, g, "bf16", 1e12, 1) * size


def test_modelled_gemm_rate_stays_below_the_measured_4090_rate():
    # binbinsh/gpu-bench README: cuBLASLt BF16 8192^3 on an RTX 4090, 175.1 TFLOP/s; the model's rate for the same
    # square GEMM must not exceed it (and stays above the datasheet-clock model's)
    g, m = get_gpu("rtx-4090-24gb"), _m("llama-3.1-8b")
    rate = I.peak_flops(g, "bf16") * I.gemm_efficiency(m, g, "bf16", 8192, 1)
    assert rate < 175.1e12
    assert rate > 165.2e12 * I.gemm_efficiency(m, g, "bf16", 8192, 1)


def test_llmservingsim_4090_vllm_run_closer_with_the_sustained_clock(monkeypatch):
    # casys-kaist/LLMServingSim 5daddb2 bench/examples/RTX4090/Llama-3.1-8B/vllm: vLLM 0.19.0, 300 ShareGPT requests,
    # 195,753 output tokens in 183.6 s = 1,066 tok/s
    d = json.loads((ROOT / "bench/data/geserve7_rtx4090_vllm019_requests.json").read_text())
    meas = sum(d["outputs"]) / (d["last_token_s"] - d["first_queued_s"])
    assert meas == pytest.approx(1066, abs=1)

    def run():
        return I.max_load_run(_m("llama-3.1-8b"), get_gpu("rtx-4090-24gb"), prompts=[float(x) for x in d["prompts"]],
                              outputs=[float(x) for x in d["outputs"]], requests=len(d["prompts"]), precision="bf16",
                              tp=1, engine="vllm", utilization=0.90, max_batch=256,
                              loop=I.ENGINE_LOOP["vllm"]).output_tokens_per_s
    after = run()
    # before: the datasheet clock and Ada's A100-borrowed matmul share (no GeForce factor in either model)
    monkeypatch.setattr(T, "GEFORCE_SUSTAINED_CLOCK_RATIO", 1.0)
    monkeypatch.setattr(T, "sustained_clock_factor", lambda g, precision=None: 1.0)
    before = run()
    assert abs(after / meas - 1) < 0.08
    assert abs(after / meas - 1) < abs(before / meas - 1)
