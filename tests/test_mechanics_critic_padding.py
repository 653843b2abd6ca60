"""verl's PPO critic runs padded rows (critic.model.use_remove_padding unset) while the actor does not:
``training.rl.critic_padding_free`` = false (timing._padded_critic_extra), by hand and on the published verl logs."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from gpuplanner.core import flops as F
from gpuplanner.core import methods as M
from gpuplanner.core import timing as T
from gpuplanner.core.estimate import estimate, resolve
from gpuplanner.core.scenario import scenario_from_dict

ROOT = Path(__file__).resolve().parents[1]


def scn(critic_padding_free=None, objective="ppo"):
    rl = {"rollout_len": 1024, "prompt_len": 128, "mean_response_fraction": 0.25,
          "generation_engine": "vllm_colocated"}
    if critic_padding_free is not None:
        rl["critic_padding_free"] = critic_padding_free
    return scenario_from_dict({
        "model": {"preset": "qwen2.5-7b"},
        "training": {"objective": objective, "method": "full", "framework": "fsdp", "padding_free": True,
                     "seq_len": 1152, "micro_batch_size": 4, "recompute": "full", "rl": rl},
        "parallel": {"zero": 3}, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}})


def test_profile_and_default():
    assert M.method_profile(scn(False).training).critic_padded
    assert not M.method_profile(scn().training).critic_padded  # null: as the policy
    assert not M.method_profile(scn(True).training).critic_padded
    assert not M.method_profile(scn(False, objective="grpo").training).critic_padded  # no critic
    # null leaves the step as it was
    assert estimate(scn()).time.step_time_s == pytest.approx(estimate(scn(True)).time.step_time_s)


def test_padded_critic_flops_by_hand():
    r = resolve(scn(False))
    prof = M.method_profile(r.scenario.training)
    row = 128 + 0.25 * 1024  # padding-free rows: prompt + mean completion
    fwd = F.forward_flops_per_token(r.facts, row)
    # the critic's own passes: no LM head (timing.value_head_passes, the arguments time_layout passes)
    fwd_total = fwd.layers + fwd.attention
    h = 4.0 * fwd_total  # full recompute: forward, backward 2×, recompute forward (attention aside)
    extra = T._padded_critic_extra(r.facts, prof, row, fwd_total, h)
    ratio = 1152 / row
    # at least the padded tokens' share of the critic's forward and update; attention grows with the row too
    assert extra >= (ratio - 1.0) * (fwd_total + h)
    assert extra <= (ratio - 1.0) * (fwd_total + h) * 1.3
    assert T._padded_critic_extra(r.facts, prof, 1152.0, fwd_total, h) == 0.0


def test_padded_critic_slows_the_training_side():
    pad, free = estimate(scn(False)).time, estimate(scn()).time
    assert pad.seconds["compute"] > 1.5 * free.seconds["compute"]
    assert pad.seconds["generation"] == pytest.approx(free.seconds["generation"])


def test_verl_ppo_logs():
    spec = importlib.util.spec_from_file_location("rl_step_times", ROOT / "bench" / "rl_step_times.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    rows = {r["id"]: r for r in mod.table()}
    # the "recommended" PPO run (critic padded): the step within 25% of verl's log (+18% since
    # its padded rows hold the prompt padded to data.max_prompt_length = 512, verl RLHFDataset: 1,536 tokens)
    assert abs(rows["play-verl qwen2-7b ppo recommended"]["err"]["step"]) < 0.25
    # the "min" run: the training side within 45% (it was 75% low with a padding-free critic)
    assert abs(rows["play-verl qwen2-7b ppo min"]["err"]["train"]) < 0.45
