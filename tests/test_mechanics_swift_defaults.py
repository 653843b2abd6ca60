"""Megatron-SWIFT's own Megatron defaults (issue 35 round 9, swiftmoe9): the overlap switches stay off
(``tp_comm_overlap``, ``overlap_grad_reduce``, ``overlap_param_gather`` are ``False`` in ms-swift's
``megatron_args.py``) and ``expert_tensor_parallel_size`` defaults to 1, not to the TP size."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from gpuplanner.core.estimate import resolve
from gpuplanner.core.frameworks import overlap_defaults
from gpuplanner.core.memory import expert_tp_of
from gpuplanner.core.overlap import overlap_flags
from gpuplanner.core.scenario import scenario_from_dict
from gpuplanner.core.timing import time_estimate

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))


def scn(tool="megatron-swift", preset="qwen3-30b-a3b", gpus=8, training=None, **par):
    t = {"framework": tool, "method": "full", "seq_len": 8192, "micro_batch_size": 1, "global_batch_size": 16,
         "packing": True, "recompute": "full", **(training or {})}
    return scenario_from_dict({"model": {"preset": preset}, "training": t,
                               "parallel": {"zero": 1, **par}, "hardware": {"gpu": "a800-sxm-80gb", "num_gpus": gpus}})


def test_overlap_switches_off_for_swift_only():
    # zero 1, vpp 1, pp 1, sp True: Megatron (Bridge recipes) overlaps all three; Megatron-SWIFT none
    assert overlap_flags("megatron", 1, 1, 1, True, tool="megatron-swift") == (False, False, False, False)
    assert overlap_flags("megatron", 1, 1, 1, True, tool="megatron-bridge") == (True, True, True, False)
    # the interleaved schedule keeps Megatron's p2p overlap (ms-swift overlap_p2p_comm True)
    assert overlap_flags("megatron", 1, 2, 4, True, tool="megatron-swift") == (False, False, False, True)
    # the user's choice still wins
    assert overlap_flags("megatron", 1, 1, 1, True, tool="megatron-swift", tp_comm_overlap=True)[2]
    assert overlap_defaults("megatron-swift", 1, 1, 1, True) == {
        "overlap_grad_reduce": False, "overlap_param_gather": False, "tp_comm_overlap": False,
        "overlap_p2p_comm": False}


def test_swift_dense_tp_step_equals_explicit_off():
    base = dict(tp=4, sequence_parallel=True)
    s0 = time_estimate(resolve(scn(preset="qwen2.5-14b", **base))).step_time_s
    off = time_estimate(resolve(scn(preset="qwen2.5-14b", **base, training={"tp_comm_overlap": False,
                                                                            "overlap_grad_reduce": False,
                                                                            "overlap_param_gather": False})))
    on = time_estimate(resolve(scn(preset="qwen2.5-14b", **base, training={"tp_comm_overlap": True,
                                                                           "overlap_grad_reduce": True,
                                                                           "overlap_param_gather": True})))
    assert s0 == pytest.approx(off.step_time_s)
    assert on.step_time_s < s0  # exposing the TP collectives costs time


def test_expert_tp_default_by_tool():
    assert expert_tp_of("megatron", 4, tool="megatron-swift") == 1.0
    assert expert_tp_of("megatron", 4, tool="megatron-bridge") == 4
    assert expert_tp_of("megatron", 4, 2, tool="megatron-swift") == 2.0  # the user's value wins
    assert expert_tp_of("fsdp", 4, tool="ms-swift") == 1.0


def test_swift_moe_step_uses_expert_tp_1():
    par = dict(tp=2, ep=4, sequence_parallel=True)
    d = time_estimate(resolve(scn(**par))).step_time_s
    e1 = time_estimate(resolve(scn(**par, expert_tp=1))).step_time_s
    e2 = time_estimate(resolve(scn(**par, expert_tp=2))).step_time_s
    assert d == pytest.approx(e1) and d != pytest.approx(e2)


def test_published_30b_a3b_row_still_slower_than_model():
    # ms-swift Quick-start 'Benchmark', 16 x A800, 9.6 s/it, run as TP 2 / EP 8 / ETP 2 (qwen3_moe.sh at ad907793e):
    # the model stays too fast (left out in the note); it must not overshoot the published figure
    import validate_megatron_ft_oos9 as v

    row = next(r for r in v.ROWS if r[0] == "swift-qwen3-30b-a3b-megatron-a800")
    assert row[4]["parallel"]["tp"] == 2 and row[4]["parallel"]["expert_tp"] == 2
    assert 2.0 < v.predict(row[4]).step_time_s < 9.6
