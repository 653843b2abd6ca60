"""Issue 35 round 11 (verl11): verl's remove-padding actor divides a view of its logits in place.

``verl/workers/actor/dp_actor.py`` ``_forward_micro_batch`` (volcengine/verl v0.3.0.post1 to v0.4.1):
``logits_rmpad = output.logits.squeeze(0); logits_rmpad.div_(temperature)``. Autograd's ``CopySlices`` backward then
holds the incoming gradient, its copy, ``grad_slice.clone()`` and the division's output: 8 bytes a 16-bit logit
(``memory.verl_loss_bytes_per_logit``; measured on the CPU in ``tests_validate/test_verl_copyslices_memory.py``).
Without padding removal the division is on the whole output (no view): round 10's 6 stays."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

from gpuplanner.core import memory as M
from gpuplanner.core.estimate import memory_breakdown, resolve
from gpuplanner.core.scenario import scenario_from_dict

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import rl_step_times as R  # noqa: E402
import rl_step_times_r10 as R10  # noqa: E402

ROWS = {r[0]: r for r in R10.ROWS}
L05 = "verl math qwen2.5-0.5b grpo-lora 2 gpus"


def _mb(d):
    return memory_breakdown(resolve(scenario_from_dict(d)))


def test_bytes_by_hand():
    # CopySlices: incoming gradient + result + grad_slice.clone() + grad / temperature, 16-bit each
    assert M.verl_loss_bytes_per_logit(True) == 2 + 2 + 2 + 2
    # no view: the 16-bit logits, flash-attn's own gradient, the entropy's gradient
    assert M.verl_loss_bytes_per_logit(False) == 2 + 2 + 2


def test_remove_padding_row_adds_two_bytes_a_logit(monkeypatch):
    """The 0.5B row (32 sequences × 630 tokens a GPU, vocab 151,936, padding removed): 6 → 8 bytes a logit adds up
    to 2 bytes a logit of every token, and at least half of it (the head need not be the whole peak's difference)."""
    d = copy.deepcopy(ROWS[L05][2])
    assert d["training"]["padding_free"]
    now = _mb(d).allocated
    monkeypatch.setattr(M, "verl_loss_bytes_per_logit", lambda padding_free=True: 6.0)
    before = _mb(d).allocated
    two = 2.0 * 32 * 630 * 151936 / 2**30
    assert 0.5 * two <= now - before <= two * 1.001


def test_padded_verl_row_keeps_six(monkeypatch):
    """play-verl's 0.5B PPO runs without padding removal: its memory does not move."""
    d = copy.deepcopy(next(r[2] for r in R.ROWS if r[0] == "play-verl qwen2.5-0.5b ppo"))
    assert not d["training"]["padding_free"]
    now = _mb(d).allocated
    monkeypatch.setattr(M, "verl_loss_bytes_per_logit", lambda padding_free=True: 6.0)
    assert _mb(d).allocated == now


def test_two_gpu_rows_closer_to_their_logs():
    """verl-data math/ and gsm8k+math/ 2-GPU rows: −21…−32% on round 10's code; within 20% now."""
    for rid, row in ROWS.items():
        if "2 gpus" not in rid:
            continue
        got = _mb(copy.deepcopy(row[2])).allocated
        pub = R10.MEM_PUB[rid]
        assert abs(got / pub - 1.0) < 0.20, (rid, got, pub)
