"""Issue 35 round 9 (rltrain10): verl's log-prob forwards' logits post-processing, and the per-phase offload copies
that verl's timers put in ``old_log_prob`` / ``values`` (bench/rl_step_times.py ``key_split``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import rl_step_times as RL  # noqa: E402

from gpuplanner.core import timing as T  # noqa: E402
from gpuplanner.core.catalog_hw import get_gpu  # noqa: E402
from gpuplanner.core.estimate import estimate  # noqa: E402
from gpuplanner.core.scenario import scenario_from_dict  # noqa: E402


def _row(rid, rows=RL.ROWS):
    return next(r[2] for r in rows if r[0] == rid)


def _step(scn, vocab_bytes):
    keep = T.VERL_LOGPROB_VOCAB_BYTES
    try:
        T.VERL_LOGPROB_VOCAB_BYTES = vocab_bytes
        return estimate(scenario_from_dict(scn)).time
    finally:
        T.VERL_LOGPROB_VOCAB_BYTES = keep


@pytest.mark.parametrize("rid", ["play-verl qwen2-7b ppo recommended", "verl-data qwen2-7b grpo gsm8k"])
def test_logprob_bytes_by_hand(rid):
    """Two no-grad forwards (old log-probs + reference) × 10 B × 152,064 vocabulary entries × the GPU's tokens, at
    0.8 of the HBM bandwidth (timing.MEM_BW_EFFICIENCY)."""
    scn = _row(rid)
    on, off = _step(scn, 10.0), _step(scn, 0.0)
    gpu = get_gpu(scn["hardware"]["gpu"])
    hand = 2 * 10.0 * 152064 * on.tokens_per_step / 8 / (gpu.mem_bw_tbs * 1e12 * 0.8)
    assert on.step_time_s - off.step_time_s == pytest.approx(hand, rel=1e-6)
    assert hand > 0.01
    assert T.VERL_LOGPROB_VOCAB_BYTES == 10.0  # div_ 4 + compiled entropy 4 + flash-attn CE 2


def test_logprob_bytes_only_verl():
    """Megatron (NeMo RL) and non-RL FSDP runs are untouched."""
    nemo = RL.STEP_ROWS[0][2]
    assert _step(nemo, 10.0).step_time_s == pytest.approx(_step(nemo, 0.0).step_time_s, rel=1e-12)
    sft = {"model": {"preset": "qwen2.5-7b"}, "training": {"method": "full", "framework": "fsdp", "seq_len": 2048,
                                                          "micro_batch_size": 2, "global_batch_size": 64},
           "parallel": {"zero": 3}, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}}
    assert _step(sft, 10.0).step_time_s == pytest.approx(_step(sft, 0.0).step_time_s, rel=1e-12)


def test_phase_moves_in_their_keys():
    """With param_offload verl loads and offloads the fp32 shard inside compute_log_prob and compute_values: 8 of the
    72 bytes per shard element of the "min" row's copies (actor 24 + 8 + 8, critic 24 + 8) go to each key; and (round
    13, verl13) the rollout sharding manager's 8 inside generate_sequences, so in gen, not update_actor."""
    scn = _row("play-verl qwen2-7b ppo min")
    base = RL.predict(scn)
    lp, val, critic, refit = RL.verl_phase_moves(scn, base)
    assert base["offload"] > 0.5
    assert lp == pytest.approx(base["offload"] * 8.0 / 72.0)
    assert val == pytest.approx(lp)
    assert refit == pytest.approx(lp)
    assert critic == pytest.approx(base["offload"] * 32.0 / 72.0)
    assert RL.verl_phase_moves(_row("play-verl qwen2-7b ppo recommended"), base) == (0.0, 0.0, 0.0, 0.0)
    ks = RL.key_split(scn)
    assert sum(v for k, v in ks.items() if k != "gen") == pytest.approx(base["train"] - refit, rel=1e-9)
    assert ks["gen"] == pytest.approx(base["gen"] + refit, rel=1e-12)


def test_verl_reference_on_cpu():
    """verl's FSDP workers give the reference CPUOffload(offload_params=True) whatever its fsdp_config says."""
    assert all(r[2]["training"]["preference"]["reference_offload"] for r in RL.ROWS)
