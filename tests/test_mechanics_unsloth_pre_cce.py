"""Unsloth before Cut Cross-Entropy (``training.cut_cross_entropy`` false; issue 35 r5).

Unsloth at 6dad5dd (April 2024) ran ``Fast_CrossEntropyLoss`` on the 16-bit logits, saved them and wrote the gradient
into them in place; the model still returned them and the HF Trainer's Accelerate copied them to fp32
(``convert_outputs_to_fp32``). Since fa8e59e (2024-11-17) it uses Cut Cross-Entropy and returns no logits."""

import pytest

from gpuplanner.core import memory as mem
from gpuplanner.core.estimate import memory_breakdown, resolve
from gpuplanner.core.scenario import ScenarioError, scenario_from_dict

GIB = 2.0 ** 30
V = 152064  # Qwen2.5-7B vocabulary


def _mb(**kw):
    t = {"framework": "unsloth", "method": "qlora", "lora_rank": 16, "seq_len": 16384, "micro_batch_size": 1}
    t.update(kw)
    d = {"model": {"preset": "qwen2.5-7b"}, "training": t, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 1}}
    return memory_breakdown(resolve(scenario_from_dict(d)))


def test_accelerate_fp32_copy_by_hand(monkeypatch):
    # at 16k tokens of a 152k vocabulary the logits' moment is the tail with or without the copy: the difference is
    # the fp32 copy alone, 4 bytes per logit
    old = _mb(cut_cross_entropy=False)
    monkeypatch.setattr(mem, "unsloth_ce_copy_bytes_per_logit", lambda: 0.0)
    no_copy = _mb(cut_cross_entropy=False)
    assert old.activations - no_copy.activations == pytest.approx(4.0 * 16384 * V / GIB, rel=1e-9)


def test_saved_16bit_logits_at_least(monkeypatch):
    # the logits' moment holds at least the 16-bit logits and their fp32 copy: 6 bytes per logit
    old, cce = _mb(cut_cross_entropy=False), _mb()
    assert old.activations >= 6.0 * 16384 * V / GIB
    assert old.activations > cce.activations + 4.0 * 16384 * V / GIB
    assert _mb(cut_cross_entropy=True).activations == pytest.approx(cce.activations, rel=1e-12)


def test_refused_for_other_tools():
    d = {"model": {"preset": "qwen2.5-7b"}, "training": {"framework": "trl", "cut_cross_entropy": False},
         "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 1}}
    with pytest.raises((ScenarioError, ValueError), match="cut_cross_entropy"):
        scenario_from_dict(d)
