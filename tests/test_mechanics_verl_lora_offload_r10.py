"""Issue 35 round 10 (postoos10): what verl's phases move over the host link with ``param_offload`` /
``optimizer_offload``, read in ``verl/workers/fsdp_workers.py`` (v0.4.1): ``update_actor`` moves the actor's fp32
parameter shard and its optimizer state, whose tensors exist only for the parameters that get a gradient (with LoRA
the adapter's: ``fsdp_utils.offload_fsdp_optimizer`` walks ``optimizer.state``); ``compute_log_prob`` and the rollout
sharding manager move the parameter shard; and a LoRA actor's reference is the actor with its adapter disabled
(``compute_ref_log_prob`` calls ``compute_log_prob``), so its forward moves the fp32 shard too
(``timing.verl_phase_bytes``)."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

from gpuplanner.core import methods as M
from gpuplanner.core import timing as T
from gpuplanner.core.estimate import estimate, resolve_arch
from gpuplanner.core.params import count_params, lora_params
from gpuplanner.core.scenario import scenario_from_dict

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import rl_step_times as RL  # noqa: E402
import rl_step_times_r10 as R10  # noqa: E402

ROWS = {r[0]: r for r in R10.ROWS}
L7 = "verl math qwen2.5-7b grpo-lora 8 gpus"


def _scn(rid=L7):
    return copy.deepcopy(ROWS[rid][2])


def _prof(d):
    return M.method_profile(scenario_from_dict(d).training)


def _offload_part(d):
    return estimate(scenario_from_dict(d)).time.parts.get("optimizer_offload", 0.0)


def test_phase_bytes_by_hand():
    """LoRA GRPO on verl with the adapter-disabled reference: per parameter of the shard S and trained parameter O,
    update 8·S + 16·O, old log-prob 8·S, reference 8·S, refit 8·S (fp32 there and back; two fp32 moments)."""
    ph = T.verl_phase_bytes(_prof(_scn()), 1000.0, 5.0)
    assert ph == {"update": 8.0 * 1000 + 16.0 * 5, "log_prob": 8000.0, "ref": 8000.0, "refit": 8000.0,
                  "critic": 0.0}
    assert T.verl_move_bytes(_prof(_scn()), 1000.0, 5.0) == pytest.approx(32_080.0)


def test_full_finetune_bytes_are_the_earlier_ones():
    """Full fine-tuning (every parameter trained, a separate reference): the optimizer state is the shard's, no
    reference copy, so the bytes are round 4's: 8 + 16 + 8 × (log-prob + refit) per shard element."""
    for rid, _src, scn, _pub, _note, _c in RL.ROWS:
        prof = _prof(scn)
        old = (T.VERL_PARAM_BYTES + T.VERL_OPT_BYTES
               + T.VERL_PARAM_BYTES * ((1.0 if prof.policy_nograd_forwards > 0 else 0.0) + 1.0)
               + (2.0 * T.VERL_PARAM_BYTES + T.VERL_OPT_BYTES if prof.critic else 0.0))
        assert T.verl_move_bytes(prof, 1.0, 1.0) == pytest.approx(old), rid


def test_lora_reference_moves_the_shard_and_the_optimizer_state_is_the_adapters():
    """The 7B GRPO-LoRA row (8 H100, offload): the copies with the adapter-disabled reference over the same run with no
    reference are (32·S + 16·O) / (24·S + 16·O), O/S the adapter's share of the parameters (rank 32, all linear).
    The earlier bytes (16 bytes of optimizer state per parameter of the shard, no reference copy) give 1.0 here."""
    d = _scn()
    sc = scenario_from_dict(d)
    arch = resolve_arch(sc.model)
    share = lora_params(arch, 32, "all_linear")[0] / count_params(arch).total
    assert 0.0100 < share < 0.0112  # 28 layers × 32 × 90,112 = 80.7M of 7.6B
    none = copy.deepcopy(d)
    none["training"]["preference"]["reference"] = "none"
    ratio = _offload_part(d) / _offload_part(none)
    assert ratio == pytest.approx((32.0 + 16.0 * share) / (24.0 + 16.0 * share), rel=1e-6)


def test_runs_without_offload_do_not_move():
    """Without ``param_offload`` nothing is copied: the part is zero either way."""
    d = _scn()
    d["parallel"].update(offload_optimizer=False, offload_params=False)
    assert _offload_part(d) == 0.0


def test_vectorised_search_equals_evaluate_for_an_offloaded_lora_actor():
    """verl GRPO-LoRA with offload: the search's arrays and evaluate() agree on every sampled layout."""
    from dataclasses import replace

    import numpy as np

    from gpuplanner.core import search as S
    from gpuplanner.core.evaluate import evaluate
    d = scenario_from_dict(_scn()).model_dump()
    d["hardware"] = None
    d["data"] = {"tokens": 1e8}
    d["constraints"] = {"max_gpus": 8, "gpu_candidates": ["h100-sxm-80gb"]}
    s = scenario_from_dict({k: v for k, v in d.items() if v is not None})
    checked = 0
    for ctx in S.iter_contexts(s):
        c = S.enumerate_candidates(ctx, s.constraints.max_gpus)
        if not len(c["tp"]):
            continue
        vec = S.evaluate_candidates(ctx, c)
        for i in [int(j) for j in np.flatnonzero(vec["fits"])[::3]]:
            sc = S.candidate_scenario(ctx, c, i)
            ev = evaluate(sc, resolved=replace(ctx.resolved, scenario=sc), prices=ctx.table,
                          overheads=ctx.overheads, rent_vs_build=False)
            assert vec["mfu"][i] == pytest.approx(ev.mfu_modelled, rel=1e-9)
            checked += 1
    assert checked >= 2
