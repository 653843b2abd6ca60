"""RL rollouts: the longest completion, the weight refit, the one-step-off schedule (timing._rollouts)."""

from __future__ import annotations

import pytest

from gpuplanner.core import methods as M
from gpuplanner.core.errors import ScenarioError
from gpuplanner.core.estimate import estimate, resolve
from gpuplanner.core.scenario import scenario_from_dict


def scn(engine="vllm_colocated", schedule="on_policy", frac=1.0, zero=3, gpus=8):
    return scenario_from_dict({
        "model": {"preset": "llama-3.1-8b"},
        "training": {"objective": "grpo", "method": "full", "seq_len": 1536, "micro_batch_size": 4,
                     "rl": {"generation_engine": engine, "schedule": schedule, "mean_response_fraction": frac,
                            "rollout_len": 1024}},
        "parallel": {"zero": zero}, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": gpus}})


def test_longest_completion_sets_the_steps():
    full = estimate(scn(frac=1.0)).time
    half = estimate(scn(frac=0.5)).time
    # the weights are read every decode step until the longest completion ends: halving the mean length
    # shortens generation by far less than half (only the per-sequence KV/FLOP terms shrink)
    g1, g2 = full.seconds["generation"], half.seconds["generation"]
    assert g2 < g1 and g2 > 0.8 * g1
    assert "rollout_wait_longest" not in full.parts
    assert half.parts["rollout_wait_longest"] > 0.4 * (g2 - half.parts["weight_refit"]) * 0.9


def test_generation_seconds_wait_by_hand():
    r = resolve(scn(frac=0.25))
    prof = M.method_profile(r.scenario.training)
    gen = M.generation_seconds(
        prof, arch=r.arch, params_total=float(r.params.total), active_params=float(r.params.active), seqs=4,
        tp=1, peak_flops=989e12, eff=0.55, mem_bw=2.68e12, detail=True)
    sec1, waves1 = M.generation_seconds(
        prof, arch=r.arch, params_total=float(r.params.total), active_params=float(r.params.active), seqs=4,
        tp=1, peak_flops=989e12, eff=0.55, mem_bw=2.68e12)
    assert isinstance(gen, M.GenerationDetail)
    assert (gen.seconds, gen.waves) == (sec1, waves1)
    assert gen.net_allreduce == 0.0  # no tp_net: one NVLink domain, no NCCL all-reduce across nodes
    wait = gen.wait_longest
    # decode = steps × (max(weights + KV, FLOPs) + sampler + vLLM host time); wait = decode × (1 − mean fraction)
    w = 2.0 * r.params.total / 2.68e12
    live = 4 * 0.25
    host = M.ENGINE_STEP_S + M.ENGINE_SEQ_S * live + live * r.arch.vocab_size * M.SAMPLER_BYTES_PER_LOGIT / 2.68e12
    # and the kernels' fixed GPU time (issue 35 round 5): (11 per layer + 12) × 2.7 µs
    kernels = (11 * r.arch.num_layers + 12) * 2.7e-6
    assert wait == pytest.approx(0.75 * 1024 * (w + kernels + host), rel=0.05)


def test_refit_colocated_and_separate():
    col = estimate(scn()).time
    # colocated: read + write the 16-bit weights at HBM speed, plus the ZeRO-3 all-gather
    assert col.parts["weight_refit"] > 2 * 2 * 8.03e9 / 3.35e12
    assert "weight_refit" not in estimate(scn(engine="training")).time.parts
    sep1 = estimate(scn(engine="vllm_separate", gpus=8)).time
    sep2 = estimate(scn(engine="vllm_separate", gpus=16)).time  # the broadcast crosses the network
    assert sep2.parts["weight_refit"] > 3 * sep1.parts["weight_refit"]
    assert sum(col.breakdown.values()) == pytest.approx(1.0)


def test_one_step_off_overlaps_generation():
    on = estimate(scn(engine="vllm_separate")).time
    off = estimate(scn(engine="vllm_separate", schedule="one_step_off")).time
    assert off.step_time_s < on.step_time_s
    train = off.step_time_s - off.seconds["generation"]
    # the step is the longer of training and generation, plus the refit
    assert off.step_time_s == pytest.approx(max(train, on.seconds["generation"] - on.parts["weight_refit"])
                                            + off.parts["weight_refit"], rel=1e-6)


def test_one_step_off_needs_separate_engine():
    with pytest.raises(ScenarioError, match="one_step_off"):
        scn(engine="vllm_colocated", schedule="one_step_off")


def test_rollout_decode_at_serving_bandwidth_utilisation():
    """Generation reads weights and KV cache at the serving engines' share of HBM bandwidth, as core/inference (0.8
    since issue 35 round 5, the kernels' fixed time apart)."""
    from gpuplanner.core import timing as T
    from gpuplanner.core.inference import ServingEfficiency

    r = resolve(scn(engine="training", zero=1))
    prof = M.method_profile(r.scenario.training)
    kw, _ = T.time_kwargs(r)
    seqs = 4 * r.scenario.grad_accum
    expect, _ = M.generation_seconds(
        prof, arch=r.arch, params_total=float(r.params.total), active_params=float(r.params.active), seqs=seqs, tp=1,
        peak_flops=kw["peak16_tflops"] * 1e12, eff=kw["gen_efficiency"],
        mem_bw=kw["mem_bw_tbs"] * 1e12 * ServingEfficiency().memory_bandwidth)
    assert estimate(r.scenario).time.seconds["generation"] == pytest.approx(expect, rel=1e-9)
