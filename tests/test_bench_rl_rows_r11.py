"""Round 11 (postoos11): the published verl rows of ``bench/rl_step_times_r11.py`` are read consistently.

The rows are scored, not fitted; these tests check the reading of each source (what a typo in a published figure
or a wrong mapping would break), and that the planner takes every row as a user would enter it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import rl_step_times_r11 as R11  # noqa: E402
from rl_step_times import predict  # noqa: E402

ROWS = {r[0]: r for r in R11.ROWS}


def test_rlinf_15b_throughputs_give_512_sequences_of_the_assumed_prompt():
    """RLinf's 1.5B table: gen throughput (3,533.27 per-GPU tokens/s over 260.922 s) and prev-logprob throughput
    (52,635.84 over 17.513 s) on 8 GPUs both count 512 × (response 14,254.84 + the ASSUMED 150-token prompt)."""
    per_seq = 14_254.84 + R11.PROMPT_MEAN
    for tput, secs in ((3533.27, 260.922), (52_635.84, 17.513)):
        assert tput * 8 * secs / per_seq == pytest.approx(512, rel=0.01)
    scn = ROWS["rlinf verl v0.5.0 r1-distill-1.5b grpo 8xh100"][2]
    rl = scn["training"]["rl"]
    assert 32 * rl["group_size"] == 512 and scn["hardware"]["num_gpus"] == 8


@pytest.mark.parametrize("rid, logged, extra", [
    ("rlinf verl f252da3 r1-distill-7b grpo 64 gpus", 447.36, 0.0),
    # the report's summary step holds the final validation (timing_s/testing) and checkpoint (save_checkpoint)
    ("report verl llama3.2-1b grpo gsm8k 8xh100", 88.70, 14.649 + 3.011),
    ("report verl qwen2.5-7b grpo gsm8k 8xh100", 114.85, 16.594 + 17.932),
])
def test_the_keys_add_up_to_the_logged_step(rid, logged, extra):
    pub = ROWS[rid][3]
    assert pub["step"] + extra == pytest.approx(logged, rel=0.005)


def test_every_row_is_planned_and_the_memory_rows_map_to_rows():
    for rid, _src, scn, pub, _note, _counted in R11.ROWS:
        pred = predict(scn)
        assert pred["step"] > 0 and pred["gen"] > 0, rid
        assert set(pub) >= {"gen", "old_log_prob", "update_actor", "step"}, rid
    assert set(R11.MEM_PUB) <= set(ROWS)
    for _rid, pub, pred, err in R11.mem_table():
        assert pred > 0 and err == pytest.approx(pred / pub - 1.0)


def test_report_rows_use_verls_rollout_defaults_of_their_commit():
    """verl 3ebe6717a (2025-08-07): rollout.yaml enforce_eager True, max_num_seqs 1024; fsdp_vllm.py sleep(level=1)."""
    for rid in ("report verl llama3.2-1b grpo gsm8k 8xh100", "report verl qwen2.5-7b grpo gsm8k 8xh100"):
        rl = ROWS[rid][2]["training"]["rl"]
        assert rl["enforce_eager"] is True and rl["max_num_seqs"] == 1024 and rl["sleep_level"] == 1
        assert rl["updates_per_generation"] == 1024 // 256
