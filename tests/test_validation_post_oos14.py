"""Issue 35 round 14 (postoos14): two unseen verl GRPO-LoRA logs (``bench/validate_post_oos14.py``), and FSDP1's
rate limiter for verl's LoRA adapter units (``fsdp1_lora.segment_shares``, ``timing.fsdp1_lora_waits``).

The entered figures are checked against the logs' own arithmetic (what a mistyped figure would break); the mechanism
against hand-derived values."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import validate_post_oos14 as V  # noqa: E402
from rl_step_times import key_split  # noqa: E402

from gpuplanner.core import fsdp1_lora as FL
from gpuplanner.core import timing as T
from gpuplanner.core.architecture import load_presets
from gpuplanner.core.arrayops import ScalarOps

#: the logs' own derived metrics (wandb Run summary, step 233), printed beside the entered ones
LOGGED = {"14b": {"tpt_gen_ms": 0.67448, "tpt_update_ms": 0.08404, "throughput": 4.92509, "step_s": 3797.66952,
                  "testing": 3687.46367, "save": 20.15231},
          "32b": {"tpt_gen_ms": 0.8857, "tpt_update_ms": 0.12084, "throughput": 3.48666, "step_s": 5114.37988,
                  "testing": 4954.06931, "save": 45.93995}}


@pytest.mark.parametrize("log, key", [(V.LOG_14B, "14b"), (V.LOG_32B, "32b")])
def test_entered_figures_match_the_logs_arithmetic(log, key):
    seqs = 64 * 5  # train_batch_size × rollout.n
    # perf/total_num_tokens = every sequence's prompt + response; global_seqlen/mean is its share on each of 8 GPUs
    assert seqs * (log["prompt_mean"] + log["response_mean"]) == pytest.approx(log["total_num_tokens"], abs=1.0)
    assert log["global_seqlen_mean"] * 8 == pytest.approx(log["total_num_tokens"], abs=1e-6)
    # timing_per_token_ms/gen is over the response tokens; update_actor over all tokens
    assert log["gen"] * 1e3 / (seqs * log["response_mean"]) == pytest.approx(LOGGED[key]["tpt_gen_ms"], rel=1e-3)
    assert log["update_actor"] * 1e3 / log["total_num_tokens"] == pytest.approx(LOGGED[key]["tpt_update_ms"],
                                                                               rel=1e-3)
    # perf/throughput = tokens / (time_per_step × GPUs): 8 GPUs, as the command says
    assert log["total_num_tokens"] / (LOGGED[key]["step_s"] * 8) == pytest.approx(LOGGED[key]["throughput"], rel=1e-4)
    # the scored step is the logged step less its final validation and checkpoint, less the unlisted reshard
    # ... which verl times inside gen; what is left are host bookkeeping seconds (< 1%)
    scored = sum(log[k] for k in ("gen", "old_log_prob", "ref", "update_actor", "reward", "adv"))
    rest = LOGGED[key]["step_s"] - LOGGED[key]["testing"] - LOGGED[key]["save"]
    assert scored == pytest.approx(rest, rel=0.01)


def test_rows_carry_the_commands_settings():
    for (rid, _src, scn, pub, _note, _c), util in zip(V.ROWS, (0.25, 0.3)):
        t, rl = scn["training"], scn["training"]["rl"]
        assert (t["method"], t["lora_rank"], t["fsdp_version"], t["recompute"]) == ("lora", 32, 1, "full"), rid
        assert t["micro_batch_size"] == 64 // 8 and t["global_batch_size"] == 64 * 5, rid
        assert (rl["rollout_tp"], rl["generation_gpu_fraction"], rl["max_num_seqs"]) == (8, util, 512), rid
        assert rl["enforce_eager"] and rl["updates_per_generation"] == 1 and rl["rollout_len"] == 512, rid
        assert scn["parallel"]["offload_params"] and scn["parallel"]["offload_optimizer"], rid
        assert t["preference"]["reference"] == "lora_base" and scn["hardware"]["num_gpus"] == 8, rid
        assert pub["step"] == pytest.approx(sum(v for k, v in pub.items() if k != "step")
                                            + (V.LOG_14B if "14b" in rid else V.LOG_32B)["reward"]
                                            + (V.LOG_14B if "14b" in rid else V.LOG_32B)["adv"]), rid


def test_segment_shares_by_hand_qwen25_32b():
    """Qwen2.5-32B (hidden 5120, 40 heads of 128, 8 KV heads, MLP 27648), all linear: per token q and o 5120·5120,
    k and v 5120·1024, gate, up and down 5120·27648 multiply-adds; one hook pair each."""
    a = load_presets()["qwen2.5-32b"].arch
    q, kv, mlp = 5120 * 5120, 5120 * 1024, 5120 * 27648
    tot = 2 * q + 2 * kv + 3 * mlp
    got = sorted(g for _s, g in FL.segment_shares(a, "all_linear"))
    assert got == pytest.approx(sorted([q / tot, kv / tot, kv / tot, q / tot, mlp / tot, mlp / tot, mlp / tot]))
    assert all(s == pytest.approx(1 / 7) for s, _g in FL.segment_shares(a, "all_linear"))
    # q and v only (PEFT's Qwen2 default): two kinds, half of the pairs each
    qv = sorted(FL.segment_shares(a, "qv"))
    assert [s for s, _g in qv] == pytest.approx([0.5, 0.5])
    assert [g for _s, g in qv] == pytest.approx([kv / (q + kv), q / (q + kv)])


def _lay(seg, *, host=0.1, hooks=1.0, gpu=1.0):
    return {"fl_on": True, "ops": ScalarOps, "fl_seg": seg, "fl_layers_share": 1.0, "host_mb": host,
            "fl_host_mb": hooks, "fl_fwd_h": 1.0, "fl_fwd_base_mb": host, "fl_nograd_mb": hooks,
            "profile": SimpleNamespace(policy_nograd_forwards=1)}


def test_hooks_hide_only_under_their_own_linears_gpu_time():
    """Two kinds of adapted linear, half of the hook pairs each; one holds 90% of the GPU time. Host 0.1 s + hooks
    1.0 s against 1.0 s of GPU: summed over the stack they hide but for 0.1 s; per linear, the narrow one's
    0.55 s of host work waits out its 0.1 s of GPU (0.45 s) and the wide one's 0.55 s hides under 0.9 s."""
    train, own = T.fsdp1_lora_waits(_lay(((0.5, 0.9), (0.5, 0.1))), 1.0, 1.0, 1.0)
    assert train == pytest.approx(0.45) and own == pytest.approx(0.45)
    # the round-9 reading (one sum): 0.1 s; no kinds given falls back to it
    train0, _ = T.fsdp1_lora_waits(_lay(()), 1.0, 1.0, 1.0)
    assert train0 == pytest.approx(0.1)
    # GPU shared as the host is: the per-linear sum equals the one sum
    train1, _ = T.fsdp1_lora_waits(_lay(((0.5, 0.5), (0.5, 0.5))), 1.0, 1.0, 1.0)
    assert train1 == pytest.approx(0.1)


def test_32b_log_prob_pass_moves_to_the_log():
    """The June 32B run: old_log_prob 5.60 s logged; 3.94 s with the hooks hidden under the whole stack (+42%),
    within 15% per linear. The reference (adapter disabled, no hooks) does not move."""
    scn, pub = V.ROWS[1][2], V.ROWS[1][3]
    with V.aggregate_hooks():
        before = key_split(scn)
    after = key_split(scn)
    assert pub["old_log_prob"] / before["old_log_prob"] - 1 > 0.30
    assert abs(pub["old_log_prob"] / after["old_log_prob"] - 1) < 0.15
    assert after["ref"] == pytest.approx(before["ref"], rel=1e-9)
