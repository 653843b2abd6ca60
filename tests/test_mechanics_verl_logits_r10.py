"""Issue 35 round 10 (verlmem10): verl's actor holds the logits of every token of its micro-batch.

``verl/workers/actor/dp_actor.py`` ``DataParallelPPOActor._forward_micro_batch`` (v0.4.1, the July 2025 logs'
version): with ``use_remove_padding`` the logits are ``(total_nnz, vocab_size)`` over every unpadded token, the
prompt's included, and the response's log-probabilities are sliced only after ``pad_input``; verl passes no
``logits_to_keep`` (TRL's GRPO does: :attr:`methods.MethodProfile.logit_fraction`). So the share of the sequence
whose logits verl's loss holds is 1 (``memory.rl_logit_fraction``)."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

from gpuplanner.core import memory as M
from gpuplanner.core.estimate import memory_breakdown, resolve
from gpuplanner.core.methods import MethodProfile
from gpuplanner.core.scenario import scenario_from_dict

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import rl_step_times_r10 as R10  # noqa: E402

ROWS = {r[0]: r for r in R10.ROWS}
L05 = "verl math qwen2.5-0.5b grpo-lora 2 gpus"


def _mb(d):
    return memory_breakdown(resolve(scenario_from_dict(d)))


def test_fraction_by_hand():
    """GRPO with a 118-token prompt and 512-token responses: TRL keeps 512 / 630 of the logits, verl all of them."""
    prof = MethodProfile(objective="grpo", rl=True, prompt_len=118, rollout_len=512)
    assert prof.logit_fraction == pytest.approx(512 / 630)
    assert M.rl_logit_fraction(prof, "hf") == pytest.approx(512 / 630)
    assert M.rl_logit_fraction(prof, "fsdp") == 1.0
    sft = MethodProfile()
    assert M.rl_logit_fraction(sft, "fsdp") == 1.0 and M.rl_logit_fraction(sft, "hf") == 1.0


def test_verl_row_charges_the_prompt_logits(monkeypatch):
    """The 0.5B row (32 sequences a GPU × 630 tokens, vocab 151,936): the prompt's 118 tokens a sequence add their
    logits, between the 16-bit logits alone (2 bytes each) and verl's loss peak (6 bytes)."""
    d = copy.deepcopy(ROWS[L05][2])
    now = _mb(d).activations
    monkeypatch.setattr(M, "rl_logit_fraction", lambda prof, fw: prof.logit_fraction)
    before = _mb(d).activations
    prompt_logits = 32 * 118 * 151936 / 2**30  # G logits (GiB at one byte each)
    assert 2.0 * prompt_logits <= now - before <= M.verl_loss_bytes_per_logit() * prompt_logits


def test_published_two_gpu_rows_move_closer():
    """verl-data math/ 0.5B, 2 GPUs: 35.6 GiB published; the model was 17.8 GiB before the full logits and verl's 6 bytes a logit."""
    got = _mb(copy.deepcopy(ROWS[L05][2])).allocated
    assert 23.0 < got < R10.MEM_PUB[L05]


def test_verl_loss_bytes_by_hand():
    """Round 11 (verl11): with padding removed the peak is CopySlices' (the in-place temperature division on the
    squeezed view): incoming gradient + ``result`` + ``grad_slice.clone()`` + the division's output, 2 bytes each;
    without padding removal round 10's 6 (16-bit logits + flash-attn's own gradient + the entropy's gradient)."""
    assert M.verl_loss_bytes_per_logit(True) == 2 + 2 + 2 + 2
    assert M.verl_loss_bytes_per_logit(False) == 2 + 2 + 2


def test_verl_row_charges_six_bytes_a_logit(monkeypatch):
    """The 0.5B row (32 × 630 tokens a GPU, vocab 151,936): going from round 10's 6 bytes a logit to CopySlices' 8
    (round 11) adds up to 2 bytes a logit to the peak (less where the head is not the whole peak's difference), and
    at least half of it."""
    d = copy.deepcopy(ROWS[L05][2])
    now = _mb(d).activations
    monkeypatch.setattr(M, "verl_loss_bytes_per_logit", lambda padding_free=True: 6.0)
    trl = _mb(d).activations
    two = 2.0 * 32 * 630 * 151936 / 2**30
    assert 0.5 * two <= now - trl <= two * 1.001
