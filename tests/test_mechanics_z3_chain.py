"""Round 9 (z3sync9): the host/GPU chain through DeepSpeed ZeRO-3's waits (bench/z3_chain.py), checked by hand,
and the finding that DeepSpeed's own waits keep the step near max(host, GPU), not host + GPU."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import z3_chain as zc  # noqa: E402


def test_chain_without_wait_is_the_max_form():
    # host 1 s per task, GPU 2 s: the GPU starts after the first issue and never waits again: 1 + 3 x 2
    assert zc.chain_seconds([1, 1, 1], [2, 2, 2]) == pytest.approx(7.0)
    # host-bound: the host's 6 s plus the last task's GPU second
    assert zc.chain_seconds([2, 2, 2], [1, 1, 1]) == pytest.approx(7.0)


def test_chain_waiting_on_the_previous_task_is_the_sum():
    # the host waits for task i-1's GPU end before task i: every task serial, 3 x (1 + 2)
    assert zc.chain_seconds([1, 1, 1], [2, 2, 2], [None, 0, 1]) == pytest.approx(9.0)


def test_chain_one_task_of_look_ahead_is_the_max_form_for_alike_tasks():
    # the host may be one task ahead (task i waits for i-2): H3 = max(2, G1 = 3) + 1 = 4, G3 = max(5, 4) + 2 = 7
    assert zc.chain_seconds([1, 1, 1], [2, 2, 2], [None, None, 0]) == pytest.approx(7.0)


def test_waits_count_linears_back():
    flags = [True, False, True, True, True, True]
    # third flag back from task 4 is task 0; from task 5 it is task 2; shift -1 lands on the task before it
    assert zc._waits(flags, 3, 0) == [None, None, None, None, 0, 2]
    assert zc._waits(flags, 3, -1) == [None, None, None, None, -1, 1]
    assert zc._waits(flags, None, 0) == [None] * 6


def test_unpad_sync_waits_for_the_task_before_o_proj():
    # one layer, host-bound: the sync at o_proj costs v_proj's GPU time (the GPU's queue is only that task deep)
    args = ((1.3, 1.3, 2.6), (0.13, 0.13, 0.26), 1, (4096, 1024, 14336), 2048.0, 1024.0)
    assert zc.micro_batch_seconds(*args, unpad_sync=True) > zc.micro_batch_seconds(*args)


def test_alike_layers_stay_near_the_max_form():
    # 4 alike layers, host-bound 2:1: DeepSpeed's backward wait (4 linears back) adds only the tail
    args = ((0.4, 0.4, 0.8), (0.1, 0.1, 0.2), 4, (4096, 1024, 14336), 2048.0, 1024.0)
    free = zc.micro_batch_seconds(*args, bwd_bound=False)
    bound = zc.micro_batch_seconds(*args)
    assert free == pytest.approx(1.6, rel=0.05)
    assert free <= bound <= free * 1.05
    # the sum form would be 2.0: not what the waits give
    assert bound < 1.8


def test_published_rows_are_not_explained_by_deepspeeds_waits():
    rows = zc.rows()
    assert len(rows) == 5
    for name, pub, now, chain, worst, free, unpad, tot, h, g in rows:
        assert now <= chain <= now * 1.1, name  # the waits move the step by under 10%
        assert worst <= tot + 1e-9, name  # even the worst-case profile stays under host + GPU
        assert chain <= unpad <= chain * 1.1, name  # FlashAttention-2's per-layer unpad syncs add little
        assert pub > max(chain, unpad) * 1.3, name  # and the published step stays well above
