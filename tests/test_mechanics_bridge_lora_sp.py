"""Megatron-Bridge / NeMo LoRA adapters on column-parallel linears gather the layer-norm output themselves when TE's
TP comm overlap is on (issue 35 round 10, mlperf10): ``peft/utils.py`` ``get_adapter_attributes_from_linear`` keeps
``return_layernorm_output_gathered`` off under ``ub_overlap_ag``, so ``ParallelLinearAdapter.forward`` runs
``gather_from_sequence_parallel_region`` (all-gather forward, reduce-scatter backward) on a whole tokens × h
activation (``timing.bridge_lora_sp_gathers``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from gpuplanner.core import timing as T
from gpuplanner.core.estimate import resolve
from gpuplanner.core.scenario import scenario_from_dict
from gpuplanner.core.timing import gpu_time_facts, time_estimate

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import validate_mlperf_oos as vm  # noqa: E402


def _mlperf(i=1, **training):
    d = vm.scenario(vm.ROWS[i])
    d["training"].update(training)
    return scenario_from_dict(d)


def test_counts_by_hand():
    m = resolve(_mlperf()).facts
    # LoRA on attention: linear_qkv is the one column-parallel adapted linear; gather forward + reduce-scatter back
    assert T.bridge_lora_sp_gathers(m, "megatron-bridge", True, "attention", True, True, 0.0) == 2.0
    assert T.bridge_lora_sp_gathers(m, "megatron-bridge", True, "attention", True, True, 1.0) == 3.0  # + recompute
    assert T.bridge_lora_sp_gathers(m, "megatron-bridge", True, "all_linear", True, True, 0.0) == 4.0  # qkv + fc1
    # the base returns the gathered layer-norm output: without TP overlap, or without sequence parallelism
    assert T.bridge_lora_sp_gathers(m, "megatron-bridge", True, "attention", True, False, 0.0) == 0.0
    assert T.bridge_lora_sp_gathers(m, "megatron-bridge", True, "attention", False, True, 0.0) == 0.0
    # other tools' adapters (Megatron-SWIFT: timing.lora_tp_collectives) and full fine-tuning
    assert T.bridge_lora_sp_gathers(m, "megatron-swift", True, "attention", True, True, 0.0) == 0.0
    assert T.bridge_lora_sp_gathers(m, "megatron-bridge", False, "attention", True, True, 0.0) == 0.0


def test_mlperf_tp4_cp2_priced_by_hand():
    # NVIDIA MLPerf v4.0 llama2_70b_lora, 64 H100, TP 4 × CP 2, seq 8,192, MBS 1: each GPU holds 4,096 tokens
    r = resolve(_mlperf())
    with_g = time_estimate(r)
    orig = T.bridge_lora_sp_gathers
    try:
        T.bridge_lora_sp_gathers = lambda *a, **k: 0.0
        without = time_estimate(resolve(_mlperf()))
    finally:
        T.bridge_lora_sp_gathers = orig
    bw = gpu_time_facts("h100-sxm-80gb", "fp8").intra_busbw_gbs * 1e9
    lat = T._ring_latency(4, 8, "all_reduce", T._ScalarOps)
    # 80 layers × 2 × ((4 − 1)/4 of 4,096 × 8,192 16-bit values over NVLink + one collective's latency)
    hand = 80 * 2 * (0.75 * 2 * 4096 * 8192 / bw + lat)
    assert with_g.seconds["tp_comm"] - without.seconds["tp_comm"] == pytest.approx(hand, rel=1e-6)
    assert 0.02 < hand < 0.04  # about 0.2 ms per gather: 5% of the 0.5 s step


def test_no_change_without_overlap():
    # Dell's and Fujitsu's configs switch TP overlap off: TE returns the gathered layer-norm output, nothing added
    a = time_estimate(resolve(_mlperf(12)))
    orig = T.bridge_lora_sp_gathers
    try:
        T.bridge_lora_sp_gathers = lambda *a, **k: 0.0
        b = time_estimate(resolve(_mlperf(12)))
    finally:
        T.bridge_lora_sp_gathers = orig
    assert a.step_time_s == pytest.approx(b.step_time_s, rel=1e-12)
