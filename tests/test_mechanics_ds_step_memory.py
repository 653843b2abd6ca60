"""DeepSpeed's optimizer-step fp32 gradient (core/memory.py ``ds_step_grad_bytes``), hand-derived.

ZeRO-1/2 convert the rank's whole 16-bit gradient partition to fp32 in ``step`` (``stage_1_and_2.py``); ZeRO-3 one
sub-group of at most ``sub_group_size`` = 1e9 elements at a time (``stage3.py`` ``_prepare_fp32_grad_for_sub_group``).
Both write it as ``flatten(grads).to(fp32)``: the flat 16-bit copy (2 bytes) and the fp32 result (4 bytes) are live
together at the conversion, 6 bytes per element at the step's peak.
It lives while the activations are freed, so it raises the peak by what it exceeds them by.
"""

from __future__ import annotations

import pytest

from gpuplanner.core.estimate import memory_breakdown, resolve
from gpuplanner.core.memory import DS_SUB_GROUP_SIZE, ds_step_grad_bytes
from gpuplanner.core.scenario import scenario_from_dict

GIB = 1024**3


def _buffers(m) -> float:
    """Allocated bytes outside the model states and activations: the collectives' buffers and the step's excess."""
    return m.allocated - m.weights - m.gradients - m.optimizer - m.activations - sum((m.extra or {}).values())


def _mem(zero: int, gpus: int, seq: int = 256, offload: bool = False, framework: str = "deepspeed"):
    d = {"model": {"preset": "qwen2.5-1.5b"},
         "training": {"framework": framework, "method": "full", "seq_len": seq, "micro_batch_size": 1,
                      "global_batch_size": 8 * gpus, "recompute": "full", "flash_attention": True},
         "parallel": {"zero": zero, "offload_optimizer": offload}, "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": gpus}}
    r = resolve(scenario_from_dict(d))
    return r, memory_breakdown(r)


def test_helper_values():
    # 2 bytes of the flat 16-bit copy + 4 bytes of its fp32 conversion, both live during ``.to(fp32)``
    assert ds_step_grad_bytes(5e8, 2) == pytest.approx(3e9)
    assert ds_step_grad_bytes(3e9, 3) == pytest.approx(6 * DS_SUB_GROUP_SIZE)
    assert ds_step_grad_bytes(3e9, 1) == pytest.approx(1.8e10)


@pytest.mark.parametrize("zero,gpus", [(2, 8), (3, 1), (3, 8)])
def test_step_phase_sets_the_peak_at_short_context(zero, gpus):
    r, m = _mem(zero, gpus)
    _, m_off = _mem(zero, gpus, offload=True)
    part = r.params.total / gpus
    step = (2.0 + 4.0) * (min(part, DS_SUB_GROUP_SIZE) if zero == 3 else part) / GIB
    assert step > m.activations  # the case this test is about
    # with the optimizer on the CPU the step runs there: the difference in the buffers is the fp32 gradient's excess
    assert _buffers(m) - _buffers(m_off) == pytest.approx(step - m.activations, rel=1e-6)


def test_no_step_term_when_activations_are_larger():
    _, m = _mem(3, 8, seq=16384)
    _, m_off = _mem(3, 8, seq=16384, offload=True)
    assert _buffers(m) == pytest.approx(_buffers(m_off), rel=1e-9)


def test_qwen_18b_zero3_one_gpu_step_peak_by_hand():
    """Qwen README full-parameter Qwen-1.8B on one A100 under ZeRO-3 (bench/validate_ft_tools.py): the partition is the
    whole model (about 1.84e9 elements), so the sub-group is capped at 1e9 elements; the step adds 6e9 bytes
    (5.59 GiB) over the model states, 2e9 bytes (1.86 GiB) more than the fp32 gradient alone."""
    assert ds_step_grad_bytes(1.84e9, 3) / GIB == pytest.approx(5.588, abs=1e-3)
    assert (ds_step_grad_bytes(1.84e9, 3) - 4.0 * 1e9) / GIB == pytest.approx(1.863, abs=1e-3)
