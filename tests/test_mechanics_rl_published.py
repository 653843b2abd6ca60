"""RL rollouts, round 3: the old policy's log-probability pass, vLLM's concurrency cap, padding-free RL
training, and the published verl step times (bench/rl_step_times.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from gpuplanner.core import methods as M
from gpuplanner.core import timing as T
from gpuplanner.core.estimate import estimate, resolve
from gpuplanner.core.scenario import scenario_from_dict

ROOT = Path(__file__).resolve().parents[1]


def scn(engine="vllm_colocated", frac=1.0, padding_free=False, max_num_seqs=None, gpu="h100-sxm-80gb", gbs=None):
    rl = {"generation_engine": engine, "mean_response_fraction": frac, "rollout_len": 1024, "prompt_len": 512}
    if max_num_seqs:
        rl["max_num_seqs"] = max_num_seqs
    t = {"objective": "grpo", "method": "full", "seq_len": 1536, "micro_batch_size": 4, "padding_free": padding_free,
         "rl": rl}
    if gbs:
        t["global_batch_size"] = gbs
    return scenario_from_dict({"model": {"preset": "llama-3.1-8b"}, "training": t, "parallel": {"zero": 3},
                               "hardware": {"gpu": gpu, "num_gpus": 8}})


def test_old_logprob_pass_with_vllm_only():
    # TRL recomputes the old policy's log-probabilities when vLLM generates (importance-sampling correction on
    # by default), verl always; TRL's HF generate with one generation per optimizer step does not
    assert M.method_profile(scn("vllm_colocated").training).policy_nograd_forwards == 1.0
    assert M.method_profile(scn("vllm_separate").training).policy_nograd_forwards == 1.0
    assert M.method_profile(scn("training").training).policy_nograd_forwards == 0.0


def test_vllm_default_max_num_seqs_by_gpu():
    # vLLM get_batch_defaults: ≥ 70 GiB and not an A100 → 1024, else 256
    assert T.vllm_default_max_num_seqs(resolve(scn()).gpu) == 1024
    assert T.vllm_default_max_num_seqs(resolve(scn(gpu="a100-sxm-80gb")).gpu) == 256
    assert T.vllm_default_max_num_seqs(resolve(scn(gpu="l40s-48gb")).gpu) == 256


def test_decode_steps_by_hand():
    prof = M.method_profile(scn(frac=0.25).training)
    # all 512 fit: the longest completion sets the steps, the live batch averages 512 × 0.25
    steps, live = M.decode_steps(prof, 512.0, kv_seq_bytes=1.0, max_seqs=1024.0)
    assert steps == 1024 and live == pytest.approx(128.0)
    # 2048 rollouts through 256 slots: 1024 + 256 × (8 − 1) steps (mean 256 tokens per completion)
    steps, live = M.decode_steps(prof, 2048.0, kv_seq_bytes=1.0, max_seqs=256.0)
    assert steps == pytest.approx(1024 + 256 * 7)
    assert live == pytest.approx(2048 * 256 / steps)
    # the KV pool caps it the same way: a pool of 100 sequences
    steps, _ = M.decode_steps(prof, 400.0, kv_seq_bytes=10.0, kv_pool_bytes=1000.0)
    assert steps == pytest.approx(1024 + 256 * 3)
    # every completion at the cap: rollout_len × waves
    full = M.method_profile(scn(frac=1.0).training)
    assert M.decode_steps(full, 1024.0, kv_seq_bytes=1.0, max_seqs=256.0)[0] == pytest.approx(4 * 1024)


def test_max_num_seqs_slows_generation():
    big = estimate(scn(frac=0.25, gbs=4096)).time.seconds["generation"]
    capped = estimate(scn(frac=0.25, gbs=4096, max_num_seqs=64)).time.seconds["generation"]
    # (1.58x before issue 35 round 11; 1.47x since the 1,024-sequence engine keeps vLLM's profile-run reserve, 2.2 GiB
    # of sampler logits and non-torch memory, out of its 0.3 share: timing.rollout_engine_reserve_bytes)
    assert capped > 1.4 * big


def test_padding_free_rl_trains_prompt_and_mean_completion():
    padded = estimate(scn(frac=0.25)).time
    flat = estimate(scn(frac=0.25, padding_free=True)).time
    t_pad = padded.step_time_s - padded.seconds["generation"]
    t_flat = flat.step_time_s - flat.seconds["generation"]
    # 512 + 256 tokens instead of 1536: about half the training time (attention shrinks more)
    assert 0.35 < t_flat / t_pad < 0.55
    assert flat.seconds["generation"] == pytest.approx(padded.seconds["generation"])
    # at the default (every completion at the cap) padding-free changes nothing
    a, b = estimate(scn(frac=1.0)).time, estimate(scn(frac=1.0, padding_free=True)).time
    assert a.step_time_s == pytest.approx(b.step_time_s)


def _bench():
    spec = importlib.util.spec_from_file_location("rl_step_times", ROOT / "bench" / "rl_step_times.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_updates_per_generation_share_one_generation():
    one = estimate(scn(frac=0.25)).time
    s4 = scn(frac=0.25)
    s4.training.rl.updates_per_generation = 4
    four = estimate(s4).time
    # four steps' rollouts generated together: the longest completion is waited for once, so each step's share
    # of generation is below one step's own generation, and above a quarter of it
    assert one.seconds["generation"] / 4 < four.seconds["generation"] < one.seconds["generation"]
    assert four.parts["weight_refit"] == pytest.approx(one.parts["weight_refit"] / 4)
    # the trained part of the step is unchanged
    assert four.step_time_s - four.seconds["generation"] == pytest.approx(
        one.step_time_s - one.seconds["generation"], rel=1e-9)


def test_host_and_sampler_terms_by_hand():
    r = resolve(scn(frac=1.0))
    prof = M.method_profile(r.scenario.training)
    kw = dict(arch=r.arch, params_total=float(r.params.total), active_params=float(r.params.active), tp=1,
              peak_flops=989e12, eff=0.55, mem_bw=2.0e12)
    g1, _ = M.generation_seconds(prof, seqs=1.0, **kw)
    g2, _ = M.generation_seconds(prof, seqs=2.0, **kw)
    # one more sequence, memory-bound: its KV reads, its logits through the sampler, its host time, every step
    kv = (512 / 8 + 1024 / 2) * M.kv_bytes_per_token(r.arch) / 2.0e12
    sampler = r.arch.vocab_size * M.SAMPLER_BYTES_PER_LOGIT / 2.0e12
    prefill = 512 * (2.0 * r.params.active + 2.0 * 512 * r.arch.num_heads * r.arch.head_dim * r.arch.num_layers) / (
        989e12 * 0.55) / 8
    assert g2 - g1 == pytest.approx(1024 * (kv + sampler + M.ENGINE_SEQ_S) + prefill, rel=1e-6)
    # a lone sequence: weights every step, plus the engine's fixed host time
    w = 2.0 * r.params.total / 2.0e12
    assert g1 > 1024 * (w + M.ENGINE_STEP_S)


def _bench():
    spec = importlib.util.spec_from_file_location("rl_step_times", ROOT / "bench" / "rl_step_times.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_published_verl_generation():
    """verl's timing_s/gen, every run with vLLM's enforce_eager as logged (verl's default then): the 7B runs
    within ±35% (published 12.1 s, 26.1 s on 8× H100 and 42.9 s on 8× H20; the TP-2 "recommended" run is +33%:
    ~220 live sequences per engine, where the engine's per-sequence host time and the eager launches add up).
    The 0.5B runs (5.0 s GRPO, 8.5 s PPO) stay below the published time but within 50%: before the eager
    launches were counted the GRPO run was at −69% (issue 35 round 3)."""
    rows = {r["id"]: r for r in _bench().table()}
    for rid in ("play-verl qwen2-7b ppo min", "play-verl qwen2-7b ppo recommended", "verl-data qwen2-7b grpo gsm8k"):
        assert abs(rows[rid]["err"]["gen"]) < 0.35, (rid, rows[rid]["err"]["gen"])
    for rid in ("play-verl qwen2.5-0.5b grpo", "play-verl qwen2.5-0.5b ppo"):
        assert -0.5 < rows[rid]["err"]["gen"] < 0.0, (rid, rows[rid]["err"]["gen"])


def test_published_verl_training_side():
    """The training side (old_log_prob + ref + update_actor) of the one GRPO log without offloaded optimizer
    steps repeated per mini-batch or a padded critic: within ±35% (published 135 s)."""
    rows = {r["id"]: r for r in _bench().table()}
    assert abs(rows["verl-data qwen2-7b grpo gsm8k"]["err"]["train"]) < 0.35


def test_rollout_tp_engines_of_several_gpus():
    one = scn(frac=0.5, gbs=512)
    two = scn(frac=0.5, gbs=512)
    two.training.rl.rollout_tp = 2
    e1, e2 = estimate(one), estimate(two)
    # an engine of 2 GPUs: half the weights per GPU (memory and refit), twice the sequences per engine
    assert e2.memory.extra["rollout_weights"] == pytest.approx(e1.memory.extra["rollout_weights"] / 2)
    assert e2.time.parts["weight_refit"] < e1.time.parts["weight_refit"]
    r = resolve(two)
    prof = M.method_profile(r.scenario.training)
    assert prof.rollout_tp == 2
    # HF generate on the trained model ignores it
    hf = scn(engine="training", frac=0.5, gbs=512)
    hf2 = scn(engine="training", frac=0.5, gbs=512)
    hf2.training.rl.rollout_tp = 2
    assert estimate(hf2).time.step_time_s == pytest.approx(estimate(hf).time.step_time_s)
