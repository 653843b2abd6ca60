"""Issue 35 round 10 (verl10): verl balances a step's rollouts over the ranks by total tokens (``_balance_batch``) but
cuts each rank's share into mini- and micro-batches by position (``dp_actor.update_policy``), so each training
micro-batch carries a different token count on each rank and FSDP's per-layer collectives wait for the largest
(core/rank_imbalance.py)."""

from __future__ import annotations

import copy
import math
import sys
from pathlib import Path

import numpy as np
import pytest

from gpuplanner.core import rank_imbalance as RI
from gpuplanner.core import timing as T

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import rl_step_times as RL  # noqa: E402

ROWS = {r[0]: r for r in RL.ROWS}
VD = "verl-data qwen2-7b grpo gsm8k"
PPO05 = "play-verl qwen2.5-0.5b ppo"


def _scn(rid, **training):
    d = copy.deepcopy(ROWS[rid][2])
    d["training"].update(training)
    return d


def test_expected_max_of_normals_by_hand():
    assert RI.expected_max_normal(1) == 0.0
    assert RI.expected_max_normal(2) == pytest.approx(1.0 / math.sqrt(math.pi), abs=1e-4)  # E max(X1, X2) = 1/√π
    assert RI.expected_max_normal(3) == pytest.approx(1.5 / math.sqrt(math.pi), abs=1e-4)  # 3 / (2√π)
    assert RI.expected_max_normal(8) == pytest.approx(1.4236, abs=1e-3)                   # tabulated
    arr = RI.expected_max_normal(np.array([2.0, 8.0]))
    assert arr[1] == pytest.approx(RI.expected_max_normal(8))


def test_factor_by_hand():
    # "min": 4 rollouts a rank's micro-batch, prompt 94 + completion 164 at spread 0.39, 8 ranks
    cv = RI.length_cv(94, 164, 0.39)
    assert cv == pytest.approx(0.39 * 164 / 258)
    assert RI.straggler_factor(cv, 4, 8) == pytest.approx(1 + cv * 1.4236 / 2, abs=1e-3)
    assert RI.straggler_factor(cv, 4, 1) == 1.0        # one rank: nobody to wait for
    assert RI.straggler_factor(0.0, 4, 8) == 1.0


def test_which_runs():
    from gpuplanner.core.methods import method_profile
    from gpuplanner.core.scenario import scenario_from_dict
    s = scenario_from_dict(_scn(VD))
    assert RI.rank_len_cv(s.training, method_profile(s.training), "fsdp") > 0.0
    s = scenario_from_dict(_scn(PPO05))                  # padded rows: the same shape on every rank
    assert RI.rank_len_cv(s.training, method_profile(s.training), "fsdp") == 0.0
    s = scenario_from_dict(_scn(VD))
    assert RI.rank_len_cv(s.training, method_profile(s.training), "megatron") == 0.0


def test_wait_is_the_slowest_rank_beyond_the_host_floor(monkeypatch):
    """verl-data (GPU-bound, 8 ranks, 40 rollouts a micro-batch): the step grows by exactly the waits the model
    adds, each (f − 1) × the micro-batch's GPU time less its host floor, × 4 micro-batches × 4 updates."""
    seen = []
    real = T.rank_straggler_wait

    def spy(lay, t_mb_gpu, launch_mb):
        w = real(lay, t_mb_gpu, launch_mb)
        f = RI.straggler_factor(lay["rank_len_cv"], lay["mbs"], lay["n_dp"])
        assert w == pytest.approx(max(t_mb_gpu * (f - 1.0) - launch_mb, 0.0))
        seen.append((w, lay["m_acc"]))
        return w
    monkeypatch.setattr(T, "rank_straggler_wait", spy)
    with_wait = RL.predict(_scn(VD))
    w, m_acc = seen[-1]
    assert w > 0.0 and m_acc == 4.0
    monkeypatch.setattr(T, "rank_straggler_wait", lambda lay, t, lm: 0.0 * t)
    without = RL.predict(_scn(VD))
    assert with_wait["train"] - without["train"] == pytest.approx(w * m_acc * 4, rel=1e-6)


def test_towards_the_log():
    """verl-data's timing_s/update_actor (82.58 s): the model gave 67.45 s without the slowest rank."""
    k = RL.key_split(_scn(VD))
    assert k["update_actor"] == pytest.approx(82.58, rel=0.2)
    assert k["update_actor"] > 70.0
