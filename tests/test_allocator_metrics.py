"""Allocated vs reserved vs device memory (core/memory.py, "Allocated, reserved, device"): the caching
allocator's two figures and what fits is judged on, hand-derived from the breakdown's parts."""

from __future__ import annotations

import pytest

from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.scenario import scenario_from_dict
from gpuplanner.core.errors import ScenarioError
from gpuplanner.core.estimate import resolve
from gpuplanner.core.memory import GIB


def _sc(**assumptions):
    return scenario_from_dict({"model": {"preset": "llama-3.1-8b"},
                               "training": {"framework": "fsdp", "seq_len": 4096, "recompute": "op_sac"},
                               "parallel": {"zero": 3}, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8},
                               "assumptions": assumptions})


def _loss_hole(tokens: int) -> float:
    """The eager fp32 cross-entropy's allocation-order high-water mark above its live bytes (GiB): 2 bytes per
    logit (memory.loss_reserved_extra_bytes_per_logit), Llama 3's 128,256-token vocabulary."""
    return 2.0 * tokens * 128256 / GIB


def test_allocated_reserved_device_hand_derived():
    """With PyTorch's default fixed segments (expandable_segments off) the cached free blocks are the
    fragmentation share of the live memory, plus the hole the eager loss leaves at its peak (2 bytes per logit);
    FSDP2's buffers are live tensors: two gathered 16-bit layers (current + prefetched) and one layer's
    reduce-scatter (16-bit gradients + the fp32 reduce input)."""
    ev = evaluate(_sc(fragmentation=0.10, cuda_context_gib=1.0, expandable_segments=False))
    m = ev.memory
    states_acts = m.weights + m.gradients + m.optimizer + m.activations
    # the eager loss's hole is a free segment: in reserved and ``cached``, not in other or what fits (issue 35
    # round 18, memoos18: memory.allocator_cache_bytes)
    buffers = m.other - 1.0 - 0.10 * states_acts
    assert m.cached == pytest.approx(_loss_hole(4096))
    f = resolve(_sc()).facts
    layer, head = f.layer_non_expert, f.V * f.h
    # torchtitan's FSDP2 (memory.fsdp_backward_phases): at the eager loss (12 bytes per logit, 4096 × 128,256
    # logits) only the head (kept from its forward) is gathered, 16-bit (since 83e694105 every block is resharded
    # after forward; before, the last block stayed: training.fsdp_root_embedding); the head's backward (16-bit
    # logits' gradient, head weight + gradient + fp32 reduce input, 6 bytes per head parameter, and the prefetched
    # block) and a block's backward (two blocks + one reduce-scatter) hold less
    loss_phase = 12 * 4096 * f.V + 2 * head
    head_phase = 2 * 4096 * f.V + 6 * head + 2 * layer
    assert loss_phase > head_phase
    assert buffers == pytest.approx(2 * head / GIB, rel=1e-9)
    # zero_grad(set_to_none) frees the sharded gradients before the forward: not live at backward's start, but
    # cached in the reduce-scatter stream's pool (memory.fsdp_grads_cached_bytes): in reserved
    assert m.allocated == pytest.approx(states_acts - m.gradients + buffers)
    assert m.reserved == pytest.approx(m.allocated + m.gradients + 0.10 * states_acts + _loss_hole(4096))
    assert m.total == pytest.approx(m.reserved + 1.0 - _loss_hole(4096))
    assert m.metric("device") == pytest.approx(m.reserved + 1.0)
    assert m.allocated < m.reserved < m.metric("device")


def test_metric_chooses_the_figure_not_what_fits():
    a, r = evaluate(_sc(memory_metric="allocated")), evaluate(_sc(memory_metric="reserved"))
    ja, jr = a.to_json(), r.to_json()
    assert ja["memory_metric"] == "allocated" and ja["memory_metric_gib"] == pytest.approx(a.memory.allocated)
    assert jr["memory_metric"] == "reserved" and jr["memory_metric_gib"] == pytest.approx(r.memory.reserved)
    for j in (ja, jr):  # the CLI JSON carries both figures beside the device total
        assert {"allocated", "reserved", "total"} <= set(j["memory_per_gpu_gib"])
    assert a.fits == r.fits and a.memory.total == r.memory.total


def test_default_metric_is_reserved_and_bad_values_refused():
    assert _sc().assumptions.memory_metric == "reserved"
    with pytest.raises(ScenarioError):
        _sc(memory_metric="nvidia-smi")


def test_expandable_segments_torchtitan_default_reserved_equals_allocated():
    """torchtitan's launcher sets PYTORCH_ALLOC_CONF=expandable_segments:True (run_train.sh): no cached
    fragments, reserved = allocated beside the eager loss's hole; the user's choice overrides the framework's
    default."""
    d = evaluate(_sc(cuda_context_gib=1.0)).memory
    assert d.reserved == pytest.approx(d.allocated + d.gradients + _loss_hole(4096))
    assert d.total == pytest.approx(d.reserved + 1.0 - _loss_hole(4096))  # the hole: cached, not what fits
    off = evaluate(_sc(cuda_context_gib=1.0, expandable_segments=False)).memory
    assert off.allocated == pytest.approx(d.allocated)
    assert off.reserved == pytest.approx(d.allocated + d.gradients + _loss_hole(4096) + 0.05 * (
        off.weights + off.gradients + off.optimizer + off.activations))
    # Megatron / DeepSpeed / HF keep PyTorch's default (off): the fragmentation share stays
    hf = scenario_from_dict({"model": {"preset": "llama-3.1-8b"}, "training": {"framework": "hf", "seq_len": 4096},
                             "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}})
    mh = evaluate(hf).memory
    assert mh.reserved > mh.allocated
    hf_on = hf.model_copy(update={"assumptions": hf.assumptions.model_copy(update={"expandable_segments": True})})
    # this plan needs 171 GiB of live tensors on an 80 GiB card: the allocator releases the loss's hole (a free
    # segment) before it reports out-of-memory, so no room is left for it (issue 35 round 18, memoos18:
    # memory.allocator_cache_bytes, capped at what the card leaves beside the CUDA context)
    assert mh.allocated > 80
    assert evaluate(hf_on).memory.reserved == pytest.approx(mh.allocated)


def test_fsdp_reduce_scatter_buffer_follows_the_reduce_dtype():
    """Pure 16-bit training (master_weights false) reduces in bf16: the reduce-scatter input is 2 bytes per
    parameter instead of 4 — of the head, whose phase holds the most here (memory.head_gather_bytes: bf16
    weight + gradient, 4 bytes, against gradient + reduce input, 6 in fp32 and 4 in bf16). With the compiled loss
    (4 bytes per logit) at 2048 tokens the head's backward, not the loss, is the largest moment in both
    (memory.fsdp_backward_phases)."""
    f = resolve(_sc()).facts
    layer = f.V * f.h
    compiled = {"model": {"preset": "llama-3.1-8b"},
                "training": {"framework": "fsdp", "seq_len": 2048, "recompute": "op_sac", "torch_compile": True},
                "parallel": {"zero": 3}, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}}
    fp32 = evaluate(scenario_from_dict(compiled)).memory
    bf = scenario_from_dict({"model": {"preset": "llama-3.1-8b"},
                             "training": {"framework": "fsdp", "seq_len": 2048, "recompute": "op_sac",
                                          "torch_compile": True, "master_weights": False},
                             "parallel": {"zero": 3}, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}})
    m16 = evaluate(bf).memory
    gathered_and_rs_32 = fp32.other - 0.75  # default CUDA context; no fragmentation (expandable segments)
    gathered_and_rs_16 = m16.other - 0.75
    assert gathered_and_rs_32 - gathered_and_rs_16 == pytest.approx(2 * layer / GIB, rel=1e-9)
