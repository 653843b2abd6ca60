"""Batches that change length from step to step: the caching allocator keeps the fp32 loss segments cut at an
earlier, shorter batch (issue 35 r6, ``memory.varlen_cache_bytes_per_logit``).

The Hugging Face stack pads each batch to its longest sample, so without packing the loss's vocabulary-sized
tensors change size every step. With PyTorch's fixed segments a longer batch's fp32 loss tensors (upcast or fp32
logits, log-softmax, its gradient: 12 bytes per logit) get new segments while the earlier ones stay cached. That is
reserved (and nvidia-smi) memory, not live memory, and the allocator frees it before an out-of-memory error: the
allocated peak and what fits do not move. Hand-derived values below; the published check is ms-swift's
Benchmark.md (``torch.cuda.max_memory_reserved``, cls-fudan-news-zh, batches padded to their longest sample)."""

import pytest

from gpuplanner.core.estimate import memory_breakdown, resolve, varlen_batches_of
from gpuplanner.core.memory import DEFAULT_CUDA_CONTEXT_GIB
from gpuplanner.core.scenario import scenario_from_dict

GIB = 2.0 ** 30
V = 128256  # Llama 3 8B vocabulary


def _mb(data=None, assumptions=None, gpu="h100-sxm-80gb", **kw):
    t = {"framework": "llamafactory", "method": "lora", "seq_len": 2048, "micro_batch_size": 1,
         "recompute": "full", "flash_attention": True}
    t.update(kw)
    d = {"model": {"preset": "llama-3-8b"}, "training": t, "hardware": {"gpu": gpu, "num_gpus": 1},
         "data": data or {}, "assumptions": assumptions or {}}
    return memory_breakdown(resolve(scenario_from_dict(d)))


VAR = {"mean_sample_len": 700}


def test_reserved_gains_twelve_bytes_per_logit_by_hand():
    fixed, var = _mb(), _mb(VAR)
    want = 12.0 * 2048 * V / GIB  # one earlier batch's fp32 upcast, log-softmax and its gradient at seq_len
    assert var.metric("reserved") - fixed.metric("reserved") == pytest.approx(want, rel=1e-9)
    assert var.metric("device") - fixed.metric("device") == pytest.approx(want, rel=1e-9)
    # live memory and what fits do not change: the cached blocks are free and released before an OOM
    assert var.metric("allocated") == pytest.approx(fixed.metric("allocated"), rel=1e-12)
    assert var.total == pytest.approx(fixed.total, rel=1e-12)


#: ``cached`` also holds the eager loss's 2-byte-per-logit hole (issue 35 round 18, memoos18:
#: memory.allocator_cache_bytes), in the fixed-length run too: the earlier batches' segments are the difference
def test_scales_with_the_micro_batch():
    fixed, var = _mb(micro_batch_size=4), _mb(VAR, micro_batch_size=4)
    assert var.cached - fixed.cached == pytest.approx(12.0 * 4 * 2048 * V / GIB, rel=1e-9)
    assert fixed.cached == pytest.approx(2.0 * 4 * 2048 * V / GIB, rel=1e-9)  # the hole
    assert var.metric("reserved") - fixed.metric("reserved") == pytest.approx(var.cached - fixed.cached, rel=1e-9)


def test_trl_dpo_fp32_logits_under_amp():
    # TRL's fp32 branch under Accelerate's AMP: fp32 logits and two fp32 gradients, the same 12 bytes; DPO runs the
    # chosen and rejected sequences in one forward
    var = _mb(VAR, framework="trl", objective="dpo", seq_len=1024)
    assert var.cached == pytest.approx(12.0 * 2 * 1024 * V / GIB, rel=1e-9)


@pytest.mark.parametrize("data,kw,assumptions", [
    ({}, {}, {}),  # every sample fills seq_len
    ({"mean_sample_len": 4096}, {}, {}),  # samples longer than seq_len are cut to it: fixed rows
    (VAR, {"packing": True}, {}),  # packed rows of seq_len
    (VAR, {"padding_free": True}, {}),  # flattened batches: not modelled here
    (VAR, {}, {"expandable_segments": True}),  # freed pages are re-used at any size
    (VAR, {"liger_kernel": True}, {}),  # fused linear cross-entropy: no vocabulary-sized tensor
    (VAR, {"framework": "megatron", "method": "full"}, {}),  # Megatron's datasets fill fixed rows
])
def test_no_cache_where_the_tensors_keep_their_size(data, kw, assumptions):
    # no earlier batch's segments (12 bytes per logit): at most the loss's own hole, 2 bytes per logit of the batch
    assert _mb(data, assumptions, **kw).cached <= 2.0 * 2048 * V / GIB * (1 + 1e-12)


def test_capped_by_the_card():
    # Llama 3 8B QLoRA, 4 × 2048 tokens on a 24 GB card: 22.6 GiB reserved without the cache, which would add
    # 11.7 GiB; reserved stops at the card less the CUDA context (the allocator frees cached blocks first)
    kw = dict(gpu="rtx-4090-24gb", micro_batch_size=4, method="qlora")
    fixed, var = _mb(**kw), _mb(VAR, **kw)
    uncapped = 12.0 * 4 * 2048 * V / GIB
    room = fixed.capacity - DEFAULT_CUDA_CONTEXT_GIB - fixed.metric("reserved")
    assert 0.0 < room < uncapped
    assert var.cached - fixed.cached == pytest.approx(room, rel=1e-9)
    assert var.metric("reserved") == pytest.approx(fixed.capacity - DEFAULT_CUDA_CONTEXT_GIB, rel=1e-9)


def test_which_scenarios_vary():
    def s(data=None, **kw):
        t = {"framework": "ms-swift", "method": "lora", "seq_len": 2048}
        t.update(kw)
        return scenario_from_dict({"model": {"preset": "llama-3-8b"}, "training": t, "data": data or {},
                                   "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 1}})
    assert varlen_batches_of(s(VAR))
    assert not varlen_batches_of(s())
    assert not varlen_batches_of(s(VAR, packing=True))
    assert not varlen_batches_of(s({"mean_sample_len": 2048}))
