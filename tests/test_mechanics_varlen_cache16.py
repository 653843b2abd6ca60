"""Batches that change length, TRL's 16-bit log-probabilities: the caching allocator keeps the 16-bit loss segments
cut at an earlier, shorter batch (issue 35 r6 postmem6, ``memory.varlen_cache_16bit_bytes_per_logit``).

Under DeepSpeed the logits stay bf16 (no Accelerate AMP), so TRL's ``selective_log_softmax`` takes its 16-bit branch:
the whole bf16 logits tensor, then a ``log_softmax`` per row whose bf16 output is saved (2 + 2 bytes per logit). A
batch longer than every earlier one gets new segments for both; the earlier ones stay cached. Hand-derived values
below; the published check is ms-swift's ``examples/train/rlhf/dpo/full.sh`` (reserved GiB per GPU, the script's own
comment) in ``bench/validate_post_memory.py``."""

import sys
from pathlib import Path

import pytest

from gpuplanner.core.estimate import memory_breakdown, resolve
from gpuplanner.core.scenario import scenario_from_dict

GIB = 2.0 ** 30
V = 152064  # Qwen2.5-7B vocabulary
VAR = {"mean_sample_len": 334}


def _mb(data=None, assumptions=None, **kw):
    t = {"framework": "ms-swift", "objective": "dpo", "method": "full", "seq_len": 1801, "micro_batch_size": 4,
         "global_batch_size": 16, "recompute": "full", "flash_attention": True}
    t.update(kw)
    d = {"model": {"preset": "qwen2.5-7b"}, "training": t, "parallel": {"zero": 3},
         "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 4}, "data": data or {}, "assumptions": assumptions or {}}
    return memory_breakdown(resolve(scenario_from_dict(d)))


def test_deepspeed_dpo_caches_four_bytes_per_logit_by_hand():
    fixed, var = _mb(), _mb(VAR)
    # one earlier record batch's bf16 logits and per-row bf16 log-softmax, chosen and rejected sequences: 2 × 4 rows
    want = 4.0 * 2 * 4 * 1801 * V / GIB
    assert var.cached == pytest.approx(want, rel=1e-9)
    assert var.metric("reserved") - fixed.metric("reserved") == pytest.approx(want, rel=1e-9)
    assert var.metric("allocated") == pytest.approx(fixed.metric("allocated"), rel=1e-12)
    assert var.total == pytest.approx(fixed.total, rel=1e-12)


@pytest.mark.parametrize("data,kw,assumptions", [
    ({}, {}, {}),  # every sample fills seq_len: fixed sizes
    (VAR, {"padding_free": True}, {}),  # flattened batches: not modelled
    (VAR, {}, {"expandable_segments": True}),  # freed pages are re-used at any size
    (VAR, {"liger_kernel": True}, {}),  # fused linear loss: no vocabulary-sized tensor
])
def test_no_16bit_cache(data, kw, assumptions):
    assert _mb(data, assumptions, **kw).cached == 0.0


def test_amp_path_keeps_its_twelve_bytes():
    # without DeepSpeed the HF Trainer's AMP makes the logits fp32: the fp32 rule (12 bytes) applies, not both
    var = _mb(VAR, method="lora", micro_batch_size=1, lora_rank=8, lora_targets="all_linear")
    d = {"model": {"preset": "qwen2.5-7b"},
         "training": {"framework": "ms-swift", "objective": "dpo", "method": "lora", "seq_len": 1801,
                      "micro_batch_size": 1, "global_batch_size": 16, "recompute": "full", "flash_attention": True,
                      "lora_rank": 8, "lora_targets": "all_linear"},
         "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 1}, "data": VAR}
    one = memory_breakdown(resolve(scenario_from_dict(d)))
    assert one.cached == pytest.approx(12.0 * 2 * 1801 * V / GIB, rel=1e-9)
    assert var.cached == pytest.approx(4.0 * 2 * 1801 * V / GIB, rel=1e-9)  # under ZeRO-3: the 16-bit rule


def test_published_ms_swift_dpo_full_padded():
    # ms-swift examples/train/rlhf/dpo/full.sh (3602360): "without padding_free: 4 * 57GiB" (logged reserved)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import validate_post_memory as vpm

    row = next(r for r in vpm.all_rows() if r.id == "swift-dpo-full-7b-padded")
    assert vpm.predict(row) == pytest.approx(57.0, rel=0.05)
