"""Megatron-SWIFT's full-parameter DPO reference before ms-swift 3.9 kept Megatron DDP's fp32 gradient buffer
(issue 35 r9 postmem9, ``training.preference.reference_grad_buffer``, ``memory.reference_grad_buffer_bytes_per_param``).

ms-swift at 5df8180fd built the reference with Megatron-LM's ``get_model`` (``wrap_with_ddp=True`` by default), so
DDP allocated an fp32 ``main_grad`` buffer for every reference parameter; commit 1b184f296 (2025-09-30) passed
``wrap_with_ddp=False`` and lowered the examples' published figures (``rlhf/dpo/dense.sh`` 4 × 55 → 4 × 45 GiB).
Hand-derived values below; the published rows are in ``bench/validate_post_memory_oos9.py``."""

from dataclasses import replace

import pytest

from gpuplanner.core import search as S
from gpuplanner.core.estimate import memory_breakdown, resolve
from gpuplanner.core.errors import ScenarioError
from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.memory import reference_grad_buffer_bytes_per_param
from gpuplanner.core.scenario import scenario_from_dict

GIB = 2.0 ** 30
QWEN25_7B_PARAMS = 7.615616512e9  # Qwen2.5-7B: 7.07B non-embedding + 2 × 152,064 × 3,584 (untied)


def _d(flag, framework="megatron-swift", method="full", **kw):
    t = {"framework": framework, "objective": "dpo", "method": method, "seq_len": 1801, "micro_batch_size": 8,
         "global_batch_size": 16, "recompute": "full", "flash_attention": True, "padding_free": True,
         "preference": {"reference_grad_buffer": flag}}
    t.update(kw)
    par = {"tp": 4, "sequence_parallel": True} if framework == "megatron-swift" else {"zero": 3}
    return {"model": {"preset": "qwen2.5-7b"}, "training": t, "parallel": par,
            "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 4}, "data": {"mean_sample_len": 334},
            "assumptions": {"expandable_segments": True}}


def _mb(flag, **kw):
    return memory_breakdown(resolve(scenario_from_dict(_d(flag, **kw))))


def test_four_bytes_per_reference_parameter_by_hand():
    assert reference_grad_buffer_bytes_per_param() == 4.0
    off, on = _mb(False), _mb(True)
    # the reference is 16-bit (2 bytes per parameter) split by TP 4; the buffer adds 4 more: 6 / 2 = 3 times
    assert on.parts["reference"] == pytest.approx(3.0 * off.parts["reference"], rel=1e-12)
    # Qwen2.5-7B over TP 4: about 1.9e9 parameters a GPU, 4 bytes each ≈ 7.1 GiB
    want = 4.0 * QWEN25_7B_PARAMS / 4 / GIB
    assert on.total - off.total == pytest.approx(want, rel=0.02)
    assert on.metric("allocated") - off.metric("allocated") == pytest.approx(on.total - off.total, rel=1e-9)
    # nothing else moves
    for k in ("weights", "gradients", "optimizer", "activations"):
        assert on.parts[k] == pytest.approx(off.parts[k], rel=1e-12)


def test_published_pair_of_the_same_command():
    """ms-swift's ``examples/megatron/rlhf/dpo/dense.sh`` published 4 × 55 GiB before 1b184f296 and 4 × 45 GiB after
    it (figures rounded to 5 GiB): the buffer explains a drop of 5 to 10 GiB."""
    drop = _mb(True).metric("reserved") - _mb(False).metric("reserved")
    assert 5.0 <= drop <= 10.0


@pytest.mark.parametrize("kw", [{"framework": "ms-swift"}, {"method": "lora", "lora_rank": 8}])
def test_refused_outside_megatron_swift_full(kw):
    with pytest.raises(ScenarioError, match="reference_grad_buffer"):
        scenario_from_dict(_d(True, **kw))


def test_no_separate_reference_refused():
    """SimPO runs no reference, and a precomputed reference keeps no model: the flag would describe nothing, so it is
    refused in one line (never accepted and dropped); the same request without it is fine."""
    for kw in ({"objective": "simpo"}, {"preference": {"reference_grad_buffer": True, "reference": "precomputed"}}):
        with pytest.raises(ScenarioError, match="separate reference"):
            scenario_from_dict(_d(True, **kw))
    assert _mb(False, objective="simpo").total > 0
