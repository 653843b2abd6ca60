"""Issue 35 round 10 (verl10): FSDP1 runs Python hooks around every decoder-layer unit of a full run, each pass
(core/fsdp1_units.py; the per-unit operation counts of core/fsdp1_lora.py, read from PyTorch's FSDP1
``_runtime_utils.py`` / ``_flat_param.py``). verl's ``actor.strategy: fsdp`` is FSDP1 with decoder-layer units
(``get_fsdp_wrap_policy``), so the play-verl rows run FSDP1; where the micro-batch is host-bound the hooks lengthen it."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

from gpuplanner.core import fsdp1_units as FU
from gpuplanner.core.estimate import estimate
from gpuplanner.core.methods import EAGER_FWD_OP_S
from gpuplanner.core.scenario import scenario_from_dict

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import rl_step_times as RL  # noqa: E402

ROWS = {r[0]: r for r in RL.ROWS}
PPO05 = "play-verl qwen2.5-0.5b ppo"
GRPO05 = "play-verl qwen2.5-0.5b grpo"
MIN7 = "play-verl qwen2-7b ppo min"


def _scn(rid, **training):
    d = copy.deepcopy(ROWS[rid][2])
    d["training"].update(training)
    return d


def test_hooks_by_hand():
    # Qwen2.5-0.5B, 24 decoder-layer units, full recompute: forward 28, recompute forward 28, backward 39 ops a unit
    train, nograd = FU.decoder_unit_host_s(24.0, 1.0)
    assert train == pytest.approx(24 * (28 * 2 + 39) * 24e-6) == pytest.approx(0.05472, abs=1e-6)
    assert nograd == pytest.approx(24 * 25 * EAGER_FWD_OP_S)
    # without recompute the forward hooks run once
    assert FU.decoder_unit_host_s(28.0, 0.0)[0] == pytest.approx(28 * (28 + 39) * 24e-6)


def test_which_runs_pay_it():
    assert FU.applies("fsdp", 1, "full") and FU.applies("fsdp", 1, "pretrain")
    assert not FU.applies("fsdp", 2, "full")      # FSDP2's fully_shard: other hooks, not counted here
    assert not FU.applies("fsdp", 1, "lora")      # LoRA: core/fsdp1_lora.py's adapter units
    assert not FU.applies("hf", 1, "full")
    assert not FU.applies("megatron", 1, "full")


def test_play_verl_rows_run_fsdp1():
    """Every play-verl log prints ``strategy: fsdp`` (FSDP1); verl-data's log is the FSDP2 one."""
    for rid, _src, scn, _pub, _note, _counted in RL.ROWS:
        want = 2 if rid.startswith("verl-data") else 1
        assert scn["training"]["fsdp_version"] == want, rid


def test_host_bound_micro_batch_grows_by_the_hooks(monkeypatch):
    """0.5B PPO (64 padded micro-batches of 4 a GPU, host-bound): the launch wait grows by exactly the hooks' host
    time, 16 micro-batches × 24 layers × 95 ops × 24 µs per planner step, before and after both host-bound."""
    scn = scenario_from_dict(_scn(PPO05))
    with_hooks = estimate(scn).time.parts["launch_overhead"]
    monkeypatch.setattr(FU, "applies", lambda *a, **k: False)
    without = estimate(scn).time.parts["launch_overhead"]
    assert with_hooks - without == pytest.approx(16 * 24 * 95 * 24e-6, rel=1e-6)


def test_towards_the_logs(monkeypatch):
    """The host-bound 0.5B rows' update_actor moves towards verl's timing_s/update_actor (13.03 s and 1.00 s; the
    model gave 6.1 and 0.38 s on FSDP1 without the hooks); the GPU-bound 7B row's actor moves little."""
    k = RL.key_split(_scn(PPO05))
    assert k["update_actor"] == pytest.approx(13.03, rel=0.30)
    assert k["update_actor"] > 8.5
    g = RL.key_split(_scn(GRPO05))
    assert 0.5 < g["update_actor"] < 1.0
    m7 = RL.key_split(_scn(MIN7))
    monkeypatch.setattr(FU, "applies", lambda *a, **k: False)
    m7_off = RL.key_split(_scn(MIN7))
    assert m7["update_actor"] == pytest.approx(m7_off["update_actor"], rel=0.15)
    assert RL.key_split(_scn(PPO05))["update_actor"] < 0.75 * k["update_actor"]


def test_vectorised_search_equals_evaluate_on_fsdp1():
    """A verl-like FSDP1 full-parameter GRPO run (Qwen2.5-0.5B, H100): the search's arrays and evaluate() agree."""
    from dataclasses import replace

    import numpy as np

    from gpuplanner.core import search as S
    from gpuplanner.core.cost import PriceTable
    from gpuplanner.core.evaluate import evaluate
    d = scenario_from_dict(_scn(GRPO05)).model_dump()
    d["hardware"] = None
    d["parallel"] = None
    d["data"] = {"tokens": 1e8}
    d["constraints"] = {"max_gpus": 8, "gpu_candidates": ["h100-sxm-80gb"]}
    s = scenario_from_dict({k: v for k, v in d.items() if v is not None})
    table = PriceTable.from_constraints(s.constraints)
    checked = 0
    for ctx in S.iter_contexts(s, prices=table):
        c = S.enumerate_candidates(ctx, s.constraints.max_gpus)
        if not len(c["tp"]):
            continue
        vec = S.evaluate_candidates(ctx, c)
        for i in [int(j) for j in np.flatnonzero(vec["fits"])[::3]]:
            sc = S.candidate_scenario(ctx, c, i)
            assert sc.training.fsdp_version == 1
            ev = evaluate(sc, resolved=replace(ctx.resolved, scenario=sc), prices=ctx.table,
                          overheads=ctx.overheads, rent_vs_build=False)
            assert vec["mfu"][i] == pytest.approx(ev.mfu_modelled, rel=1e-9)
            checked += 1
    assert checked >= 2


def test_scalar_head_passes_wait_for_the_host_like_the_policy(monkeypatch):
    """A host-bound PPO critic (0.5B PPO row) issues the policy's decoder-layer kernels and hooks: its passes' share of
    the launch wait is taken at the policy's FLOPs (timing.scalar_head_host_more), 4 × the head's forward FLOPs per
    token more (its forward's head, its training step's three head GEMMs). verl's log: values 3.39 s,
    update_critic 12.86 s (the model gave 1.89 and 7.55 s at the critic's FLOPs)."""
    from gpuplanner.core import timing as T
    seen = {}
    real = T.scalar_head_host_more

    def spy(profile, fwd_total, val_fwd, hflops_tok, val_h, n_val):
        more = real(profile, fwd_total, val_fwd, hflops_tok, val_h, n_val)
        head = fwd_total - val_fwd
        if profile.critic and not seen:
            assert more == pytest.approx(4.0 * head)   # critic: one forward's head + the step's three head GEMMs
            seen.update(more=more, hflops=hflops_tok)
        return more
    monkeypatch.setattr(T, "scalar_head_host_more", spy)
    scn = scenario_from_dict(_scn(PPO05))
    t = estimate(scn).time
    assert seen["more"] > 0.0
    k = RL.key_split(_scn(PPO05))
    monkeypatch.setattr(T, "scalar_head_host_more", lambda *a: 0.0)
    t0 = estimate(scn).time
    # the launch wait per step (16 micro-batches) × the added FLOPs' share of the policy's step
    assert t.step_time_s - t0.step_time_s == pytest.approx(
        t.parts["launch_overhead"] * seen["more"] / seen["hflops"], rel=1e-6)
    assert k["values"] == pytest.approx(3.39, rel=0.35)
    assert k["update_critic"] == pytest.approx(12.86, rel=0.35)
    # no critic, no reward model: nothing added
    from gpuplanner.core.methods import method_profile
    prof = method_profile(scenario_from_dict(_scn(GRPO05)).training)
    assert T.scalar_head_host_more(prof, 10.0, 8.0, 40.0, 34.0, 0.0) == 0.0
