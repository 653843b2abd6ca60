"""Issue 35 round 13 (fsdpstream13): FSDP1's per-gradient passes run on the post-backward stream.

torch's FSDP1 ``_post_backward_hook`` (``torch/distributed/fsdp/_runtime_utils.py``, torch 2.13.0 l. 748–764; 2.5.1
the same) makes ``state._post_backward_stream`` wait for the compute stream, then, inside ``with
stream(state._post_backward_stream)``, casts the unit's unsharded gradient to the reduce dtype where it differs and
runs ``_reduce_grad``: pre-divide, ``reduce_scatter_tensor``, post-divide (l. 831–879). The compute stream waits for
that stream once, at the end of the backward (``_post_backward_final_callback``, l. 1104). So the cast and the
division are queued with the reduce-scatters and hide under the backward like them; what shows on the step is what
the queue adds beyond the backward (at least the last unit's passes), plus the contention of the hidden part with
the compute (``OVERLAP_COMPUTE_SLOWDOWN``). Every FSDP1 plan pays them, not only verl's: the cast where the compute
dtype differs from the reduce dtype (``grad_reduce_bytes``), the division by torch's factors for the group size.

Hand values: Qwen2.5-7B (28 decoder layers, the FSDP units), H100 SXM (3.35 TB/s × ``MEM_BW_EFFICIENCY``)."""

from __future__ import annotations

import copy

import pytest

from gpuplanner.core import timing as T
from gpuplanner.core.estimate import estimate, resolve_arch
from gpuplanner.core.params import count_params
from gpuplanner.core.scenario import scenario_from_dict

BW = 3.35e12 * T.MEM_BW_EFFICIENCY  # H100 SXM datasheet HBM3 rate × the model's efficiency
LAYERS = 28  # Qwen2.5-7B decoder layers: FSDP1 wraps each as a unit


def _sft(zero=3, n_gpus=8, seq=4096, master_weights=True, fsdp_version=1):
    return {"model": {"preset": "qwen2.5-7b"},
            "training": {"method": "full", "framework": "fsdp", "fsdp_version": fsdp_version, "seq_len": seq,
                         "micro_batch_size": 1, "global_batch_size": n_gpus, "recompute": "none",
                         "precision": "bf16", "master_weights": master_weights},
            "parallel": {"zero": zero},
            "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": n_gpus, "gpus_per_node": 8}}


def _est(scn):
    return estimate(scenario_from_dict(copy.deepcopy(scn))).time


def _params(scn):
    return float(count_params(resolve_arch(scenario_from_dict(copy.deepcopy(scn)).model)).total)


def test_cast_follows_the_dtypes_not_the_tool():
    assert T.fsdp1_grad_cast_bytes("fsdp", 2.0, 4.0) == 6.0  # bf16 gradient, fp32 reduce: read 2, write 4
    assert T.fsdp1_grad_cast_bytes("fsdp", 2.0, 2.0) == 0.0  # bf16 reduce (torchtune, Accelerate, PURE)
    assert T.fsdp1_grad_cast_bytes("fsdp", 4.0, 4.0) == 0.0  # fp32 training
    assert T.fsdp1_grad_cast_bytes("megatron", 2.0, 4.0) == 0.0


def test_divide_bytes_for_every_fsdp1_plan():
    assert T.fsdp1_grad_divide_bytes("fsdp", 8, 4.0) == pytest.approx(8.0 + 8.0 / 8)  # pre 4, post 2
    assert T.fsdp1_grad_divide_bytes("fsdp", 8, 2.0) == pytest.approx(4.0 + 4.0 / 8)  # bf16 reduce
    assert T.fsdp1_grad_divide_bytes("fsdp", 2, 4.0) == pytest.approx(8.0)  # pre 2, post 1: no post-divide
    assert T.fsdp1_grad_divide_bytes("fsdp", 1, 4.0) == 0.0
    assert T.fsdp1_grad_divide_bytes("deepspeed", 8, 4.0) == 0.0


def test_hidden_under_a_long_backward_but_the_last_units():
    """8 GPUs, 4,096 tokens a micro-batch: the backward (seconds) outlasts the post-backward queue, so only the last
    unit's passes are left at its end: (cast 6 + divide 8 + 8/8) bytes × parameters / HBM rate / 28 units."""
    scn = _sft()
    want = _params(scn) * (6.0 + 8.0 + 1.0) / BW / LAYERS
    assert _est(scn).parts["fsdp1_grad_passes"] == pytest.approx(want, rel=1e-3)


def test_bf16_reduce_has_no_cast():
    """``master_weights`` false: the gradient is reduced in bf16 (torchtune's FSDP1 recipes): no cast, the division
    at 2 bytes (4 + 4/8 per element)."""
    scn = _sft(master_weights=False)
    want = _params(scn) * (4.0 + 0.5) / BW / LAYERS
    assert _est(scn).parts["fsdp1_grad_passes"] == pytest.approx(want, rel=1e-3)


def test_exposed_where_the_queue_outlasts_the_backward():
    """ZeRO-2 (SHARD_GRAD_OP: no backward gathers on the link) over two nodes with 128 tokens a GPU: the reduce-
    scatters over the NICs outlast the tiny backward, so each unit's passes add to the queue in full: all of them
    show, (6 + 8 + 8/16) bytes × parameters / HBM rate."""
    scn = _sft(zero=2, n_gpus=16, seq=128)
    want = _params(scn) * (6.0 + 8.0 + 8.0 / 16) / BW
    assert _est(scn).parts["fsdp1_grad_passes"] == pytest.approx(want, rel=1e-3)


def test_the_hidden_part_slows_the_compute(monkeypatch):
    """Without the passes (both byte counts patched to 0) the step is shorter by the exposed part plus the
    contention of the hidden part: exposed + OVERLAP_COMPUTE_SLOWDOWN × (all − exposed)."""
    scn = _sft()
    t = _est(scn)
    every = _params(scn) * 15.0 / BW
    exposed = t.parts["fsdp1_grad_passes"]
    monkeypatch.setattr(T, "fsdp1_grad_cast_bytes", lambda *a, **k: 0.0)
    monkeypatch.setattr(T, "fsdp1_grad_divide_bytes", lambda *a, **k: 0.0)
    t0 = _est(scn)
    assert t0.parts.get("fsdp1_grad_passes", 0.0) == 0.0
    want = exposed + T.OVERLAP_COMPUTE_SLOWDOWN * (every - exposed)
    assert t.step_time_s - t0.step_time_s == pytest.approx(want, rel=1e-6)
    assert t.step_time_s - t0.step_time_s < 0.5 * every  # far below the compute-stream charge it replaces


def test_fsdp2_and_single_gpu_have_none():
    assert _est(_sft(fsdp_version=2)).parts.get("fsdp1_grad_passes", 0.0) == 0.0  # NCCL's own averaging
    assert _est(_sft(n_gpus=1)).parts.get("fsdp1_grad_passes", 0.0) == 0.0  # no reduce-scatter
