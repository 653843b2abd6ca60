"""Issue 35 round 11 (verl11): verl's forwards sync the host every layer, so FSDP's forward gathers do not hide.

Transformers' flash-attention glue (``_flash_attention_forward``: ``(torch.diff(position_ids) >= 0).all()`` in a
Python ``if``, ``indices_q[position_ids == 0]``; ``_upad_input``'s ``.item()`` on a padded batch), called by verl's
patched attention (``verl/models/transformers/monkey_patch.py``), syncs every decoder layer; verl's FSDP
``forward_prefetch=False`` issues a unit's all-gather in its own pre-forward hook. So each forward all-gather runs
after the previous layer has finished (``timing.hf_flash_layer_syncs``)."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

from gpuplanner.core import timing as T
from gpuplanner.core.methods import MethodProfile

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import rl_step_times as R  # noqa: E402

ROWS = {r[0]: r for r in R.ROWS}
MIN = "play-verl qwen2-7b ppo min"


def test_which_runs_sync():
    rl = MethodProfile(objective="grpo", rl=True, prompt_len=100, rollout_len=512)
    assert T.hf_flash_layer_syncs(rl, "fsdp")
    assert not T.hf_flash_layer_syncs(rl, "megatron")
    assert not T.hf_flash_layer_syncs(rl, "hf")
    assert not T.hf_flash_layer_syncs(MethodProfile(), "fsdp")  # FSDP SFT: not verl


def _update_actor(scn):
    return R.key_split(scn)["update_actor"]


def test_forward_gathers_exposed_on_the_7b_min_row(monkeypatch):
    """The 7B "min" row (FSDP1, 8 GPUs, 16 mini-batches of one micro-batch): the update grows, by no more than its
    forward gathers — 16 × one all-gather of the 7B's 16-bit weights (15.2 GB × 7/8 a GPU) at no less than 100 GB/s
    of NVLink — and towards the log (11.15 s)."""
    scn = copy.deepcopy(ROWS[MIN][2])
    now = _update_actor(scn)
    monkeypatch.setattr(T, "hf_flash_layer_syncs", lambda profile, framework: False)
    before = _update_actor(scn)
    assert now > before
    assert now - before < 16 * 15.2e9 * 7 / 8 / 100e9
    assert abs(now / 11.15 - 1) < abs(before / 11.15 - 1)


def test_sft_on_fsdp_does_not_move(monkeypatch):
    scn = copy.deepcopy(ROWS[MIN][2])
    scn["training"] = {"objective": "sft", "method": "full", "framework": "fsdp", "seq_len": 2048,
                       "micro_batch_size": 1, "global_batch_size": 64, "recompute": "full", "fsdp_version": 1}
    scn["parallel"] = {"zero": 3}
    from gpuplanner.core.estimate import estimate
    from gpuplanner.core.scenario import scenario_from_dict
    now = estimate(scenario_from_dict(scn)).time.step_time_s
    monkeypatch.setattr(T, "hf_flash_layer_syncs", lambda profile, framework: True)
    assert estimate(scenario_from_dict(copy.deepcopy(scn))).time.step_time_s > now  # the switch is live there
    monkeypatch.undo()
    assert estimate(scenario_from_dict(copy.deepcopy(scn))).time.step_time_s == now
