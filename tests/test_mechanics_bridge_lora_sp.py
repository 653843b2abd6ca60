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


def _units_priced(i, units):
    """The TP time the row's units add: 80 layers × units × ((tp − 1)/tp of 4,096 × 8,192 16-bit values over NVLink
    + one collective's latency), TP 4 on H100, 4,096 tokens per GPU (seq 8,192 at CP 2)."""
    bw = gpu_time_facts("h100-sxm-80gb", "fp8").intra_busbw_gbs * 1e9
    lat = T._ring_latency(4, 8, "all_reduce", T._ScalarOps)
    return 80 * units * (0.75 * 2 * 4096 * 8192 / bw + lat)


def _added(i):
    r = resolve(_mlperf(i))
    with_g = time_estimate(r)
    orig = (T.bridge_lora_sp_gathers, T.qkv_overlap_lost)
    try:
        T.bridge_lora_sp_gathers = lambda *a, **k: 0.0
        T.qkv_overlap_lost = lambda *a, **k: 0.0
        without = time_estimate(resolve(_mlperf(i)))
    finally:
        T.bridge_lora_sp_gathers, T.qkv_overlap_lost = orig
    return with_g.seconds["tp_comm"] - without.seconds["tp_comm"]


def test_counts_by_hand():
    m = resolve(_mlperf()).facts
    g = T.bridge_lora_sp_gathers
    # LoRA on attention, sequence parallel, TP overlap, TP 4: linear_qkv's adapter gathers its input (forward) and
    # reduce-scatters the gradient (2); linear_proj's adapter all-gathers linear_out's output and, through the
    # sequence scatter's backward, the gradient (2)
    assert g(m, "megatron-bridge", True, "attention", True, True, 0.0, 4) == 4.0
    assert g(m, "megatron-bridge", True, "attention", True, True, 1.0, 4) == 6.0  # + both forwards' recompute
    # a2a_experimental: the row adapter's two all-to-alls move 1/tp of an all-gather each
    assert g(m, "megatron-bridge", True, "attention", True, True, 0.0, 4, True) == 2.5
    # tp_comm_overlap_disable_qkv: the base returns the gathered layer-norm output, linear_qkv's adapter gathers nothing
    assert g(m, "megatron-bridge", True, "attention", True, True, 0.0, 4, True, True) == 0.5
    assert g(m, "megatron-bridge", True, "all_linear", True, True, 0.0, 4, False, True) == 2.0 + 4.0  # fc1 + 2 rows
    # no TP overlap: TE returns the gathered input; the row adapter still gathers
    assert g(m, "megatron-bridge", True, "attention", True, False, 0.0, 4) == 2.0
    # no sequence parallelism: the column adapter all-reduces its input gradient (2), the row adapter gathers once
    assert g(m, "megatron-bridge", True, "attention", False, False, 0.0, 4) == 3.0
    # other tools' adapters (Megatron-SWIFT: timing.lora_tp_collectives) and full fine-tuning
    assert g(m, "megatron-swift", True, "attention", True, True, 0.0, 4) == 0.0
    assert g(m, "megatron-bridge", False, "attention", True, True, 0.0, 4) == 0.0
    # disable_qkv takes the qkv all-gather and dgrad reduce-scatter out of the overlap: (1 − 1/tp) of each added
    assert T.qkv_overlap_lost("megatron", True, True, True, 0.0, 4) == 1.5
    assert T.qkv_overlap_lost("megatron", True, True, True, 1.0, 2) == 1.5
    assert T.qkv_overlap_lost("megatron", True, False, True, 0.0, 4) == 0.0
    assert T.qkv_overlap_lost("megatron", True, True, False, 0.0, 4) == 0.0
    assert T.qkv_overlap_lost("fsdp", True, True, True, 0.0, 4) == 0.0


def test_mlperf_rows_priced_by_hand():
    # NVIDIA v4.0, 64 H100, TP 4 × CP 2, LORA_A2A=1, no disable_qkv: qkv adapter 2 + proj all-to-alls 0.5
    hand = _units_priced(1, 2.5)
    assert _added(1) == pytest.approx(hand, rel=1e-6)
    assert 0.03 < hand < 0.05  # about 6% of the 0.5 s step
    # NVIDIA v4.1, same layout, MC_TP_DISABLE_QKV default True: qkv overlap lost 1.5 + proj all-to-alls 0.5
    assert _added(5) == pytest.approx(_units_priced(5, 2.0), rel=1e-6)


def test_no_overlap_only_the_row_adapter():
    # Dell's config switches TP overlap off (TE returns the gathered layer-norm output): only linear_proj's
    # all-to-alls remain, 0.5 units at 8,192 tokens per GPU (CP 1); GBS 8 on DP 2: 4 micro-batches per step
    bw = gpu_time_facts("h100-sxm-80gb", "fp8").intra_busbw_gbs * 1e9
    lat = T._ring_latency(4, 8, "all_reduce", T._ScalarOps)
    assert _added(12) == pytest.approx(4 * 80 * 0.5 * (0.75 * 2 * 8192 * 8192 / bw + lat), rel=1e-6)


@pytest.mark.parametrize("training", [
    {"lora_targets": "attention", "lora_a2a": True, "tp_comm_overlap_disable_qkv": True},
    {"lora_targets": "all_linear", "tp_comm_overlap": True},
    {"lora_targets": "attention", "tp_comm_overlap": False, "recompute": "full"}])
def test_search_equals_evaluate(training):
    """The ranking's arrays (core/search) equal ``evaluate`` of each candidate with the new fields."""
    from dataclasses import replace

    from gpuplanner.core import search as S
    from gpuplanner.core.evaluate import evaluate

    d = {"model": {"preset": "llama-3-8b"}, "training": {"framework": "megatron-bridge", "method": "lora",
                                                           "seq_len": 4096, "precision": "fp8", **training},
         "data": {"tokens": 2e8}, "constraints": {"max_gpus": 8, "gpu_candidates": ["h100-sxm-80gb"]}}
    s = scenario_from_dict(d)
    checked = tp_gt1 = 0
    for ctx in S.iter_contexts(s):
        c = S.enumerate_candidates(ctx, s.constraints.max_gpus)
        vec = S.evaluate_candidates(ctx, c)
        for i in range(len(c["tp"])):
            sc = S.candidate_scenario(ctx, c, int(i))
            ev = evaluate(sc, resolved=replace(ctx.resolved, scenario=sc), prices=ctx.table,
                          overheads=ctx.overheads, rent_vs_build=False)
            if ev.fits:
                assert vec["train_hours"][i] / 24.0 == pytest.approx(ev.compute_days, rel=1e-9), sc.parallel
                tp_gt1 += sc.parallel.tp > 1
            checked += 1
    assert checked >= 4 and tp_gt1 >= 2
