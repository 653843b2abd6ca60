"""What a step pays once, however many GPUs share it (issue 35 round 15, scale15): the data-parallel ring's latency
counts the nodes its own ranks span (NCCL tuning.cc), and Megatron-Core buckets only the first model chunk of the
first pipeline stage (core_r0.5.0 … Megatron-LM @d98e8a64)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from gpuplanner.core import timing as T
from gpuplanner.core.estimate import estimate, resolve
from gpuplanner.core.scenario import scenario_from_dict


def test_megatron_buckets_only_the_first_chunk_hand_derived():
    # GPT-3 175B, TP 4 × PP 8 × VP 12 over DP 336 (MLPerf v3.1 n1344): 5.47 B gradients a GPU, bucket
    # max(40M, 1M × 336) = 336 M; the first chunk holds 5.47 B / 12 = 456 M (2 buckets), the 11 others one each
    grad, bucket = 175e9 / 32, 336e6
    n, last = T.dp_bucket_layout("megatron", grad, bucket, 12.0)
    assert n == 2 + 11
    assert last == pytest.approx(bucket / grad)
    # a first chunk smaller than a bucket is one bucket, and the last to reduce: its share of the gradients
    n, last = T.dp_bucket_layout("megatron", 1e9, 336e6, 8.0)
    assert n == 1 + 7
    assert last == pytest.approx(1 / 8)
    # no interleaving: the first stage buckets its whole gradient, as before
    n, last = T.dp_bucket_layout("megatron", grad, bucket, 1.0)
    assert n == math.ceil(grad / bucket)
    assert last == pytest.approx(bucket / grad)
    # other frameworks bucket the whole gradient (PyTorch DDP, DeepSpeed)
    n, last = T.dp_bucket_layout("fsdp", grad, 6.5e6, 12.0)
    assert n == math.ceil(grad / 6.5e6)
    # the array path (the plan search) gives the same
    n_a, last_a = T.dp_bucket_layout("megatron", np.array([grad]), np.array([bucket]), np.array([12.0]), T._ArrayOps)
    assert float(n_a[0]) == 13.0 and float(last_a[0]) == pytest.approx(bucket / grad)


def test_nccl_ring_latency_counts_the_communicators_nodes():
    # NCCL tuning.cc (5067397c), Ring / Simple: base 8.4 µs, (nsteps − nInterSteps) NVLink steps of 3.4 µs and
    # nInterSteps network steps of 14 µs, nInterSteps = nNodes − 1 (all-gather) or 2·(nNodes − 1) (all-reduce)
    assert T._ring_latency(64, 2, "all_gather", T._ScalarOps) == pytest.approx(8.4e-6 + 32 * 3.4e-6 + 31 * 14e-6)
    assert T._ring_latency(64, 2, "all_reduce", T._ScalarOps) == pytest.approx(
        8.4e-6 + 2 * (32 * 3.4e-6 + 31 * 14e-6))


def test_tp4_data_parallel_ring_spans_two_ranks_a_node_hand_derived():
    """Llama 2 7B, TP 4 on 256 H100s (DP 64): the distributed optimizer's reduce-scatter and all-gather, overlap
    off, are the bytes over two NICs (two DP ranks a node) plus one ring latency a bucket over 32 nodes — not the
    8-to-a-node ring the server's size would give."""
    base = {"model": {"preset": "llama-2-7b"}, "training": {"seq_len": 4096, "micro_batch_size": 1,
                                                           "framework": "megatron", "global_batch_size": 128,
                                                           "overlap_grad_reduce": False,
                                                           "overlap_param_gather": False},
            "parallel": {"tp": 4, "zero": 1, "sequence_parallel": True},
            "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 256}, "data": {"tokens": 1e9}}
    s = scenario_from_dict(base)
    t = estimate(s).time
    r = resolve(s)
    _kw, gf = T.time_kwargs(r)
    n = 64
    params_gpu = r.params.total / 4
    bw = min(gf.intra_busbw_gbs, 2 * gf.nic_gbs_per_gpu) * 1e9
    buckets = np.ceil(params_gpu / 6.4e7)  # max(40M, 1M × 64)
    lat = 8.4e-6 + 32 * 3.4e-6 + 31 * 14e-6
    rs = params_gpu * 4 * (n - 1) / n / bw + buckets * lat
    ag = params_gpu * 2 * (n - 1) / n / bw + buckets * lat
    assert t.seconds["dp_comm"] == pytest.approx(rs + ag, rel=1e-9)
    # the server-sized ring (8 ranks a node, 8 nodes) would have charged less: the change can be seen
    lat_server = 8.4e-6 + 56 * 3.4e-6 + 7 * 14e-6
    assert buckets * (lat - lat_server) * 2 > 1e-3


def test_ring_ranks_per_node_scope():
    # a server-sized NVLink domain (HGX H100, 8 GPUs): TP 4 leaves two DP ranks a node
    assert T.dp_ring_ranks_per_node(2.0, 8.0, 8.0) == 2.0
    # GB200 NVL72 (domain 72 over 4-GPU trays): the tray's count, as before (scale15 note §4)
    assert T.dp_ring_ranks_per_node(18.0, 4.0, 72.0) == 4.0
    out = T.dp_ring_ranks_per_node(np.array([2.0, 18.0]), np.array([8.0, 4.0]), np.array([8.0, 72.0]), T._ArrayOps)
    assert list(out) == [2.0, 4.0]
