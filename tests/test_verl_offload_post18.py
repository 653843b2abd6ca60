"""Issue 35 round 17 (post18): verl's / EasyR1's FSDP-actor offload between phases, seen from the generation
(memory.verl_generation_offload). The training moment keeps every state on the GPU (memory.verl_offload_per_phase);
while a sleeping colocated vLLM generates, the offloaded parameter shard / optimizer state, the gradients
(``zero_grad()`` ends the update) and the reference's streamed layers are gone; the refit holds vLLM's 16-bit
weights beside the parameter shard. PyTorch's counters still read the sleeping pool beside the training peak."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from gpuplanner.core.estimate import estimate  # noqa: E402
from gpuplanner.core.memory import GIB, offloaded_pool_bytes, verl_generation_offload  # noqa: E402
from gpuplanner.core.methods import method_profile  # noqa: E402
from gpuplanner.core.scenario import scenario_from_dict  # noqa: E402
from gpuplanner.io.model_files import ModelFiles  # noqa: E402

import validate_post_oos18 as V  # noqa: E402


def _row(i=1, **kw):
    scn = V.scenario(V.ROWS[i])
    for k, v in kw.items():
        scn["parallel"][k] = v
    return scn


def _est(scn):
    return estimate(scenario_from_dict(scn), ModelFiles(V.MODELS))


def test_offloaded_pool_by_hand():
    # GiB: pool 48, parameter shard 3.86 (fp32), gradients 3.86, Adam 7.72, reference 0.87, activations 5.49,
    # vLLM TP 2 weights of Qwen2.5-VL-7B 2 × 8.29e9 / 2 B = 7.73 GiB
    pool, w, g, o, ref, acts, w16 = 48.0, 3.86, 3.86, 7.72, 0.87, 5.49, 7.73
    held = w + o + g + ref
    kv = offloaded_pool_bytes(pool, held, acts, w16, np, back=w)
    assert kv == pytest.approx(pool - held - acts)  # the generation binds: 48 − 16.31 − 5.49 = 26.2
    # device = states + activations + reference + kv = the pool alone: nothing of the actor while vLLM generates
    assert w + g + o + acts + ref + kv == pytest.approx(pool)
    # a small pool: the refit binds, with the parameter shard only beside vLLM's weights (not Megatron-SWIFT's
    # whole state): device = resident − held + shard + w16
    kv2 = offloaded_pool_bytes(10.0, held, acts, w16, np, back=w)
    assert w + g + o + acts + ref + kv2 == pytest.approx(max(w + g + o + acts + ref, w + w16))
    # the default (back = held) is Megatron-SWIFT's reading, unchanged
    assert offloaded_pool_bytes(10.0, held, acts, w16, np) == pytest.approx(max(10.0 - held - acts, w16 - acts, 0))


def test_which_runs_offload_at_generation():
    prof = method_profile(scenario_from_dict(_row()).training)
    assert verl_generation_offload(prof, "fsdp", True, True) == (True, True)
    assert verl_generation_offload(prof, "fsdp", False, True) == (False, True)
    # verl's default, both false: the flags pass through; the pool reuses the activations, and (fixes17: zero_grad
    # and rollout_mode's empty_cache) the gradients and the reference's layers (tests/test_fixes17_r17.py)
    assert verl_generation_offload(prof, "fsdp", False, False) == (False, False)
    assert verl_generation_offload(prof, "deepspeed", True, True) is None  # not verl's FSDP workers
    awake = _row()
    awake["training"]["rl"]["engine_sleep"] = False
    assert verl_generation_offload(method_profile(scenario_from_dict(awake).training), "fsdp", True, True) is None


def test_device_peak_falls_counters_stay():
    on, off = _est(_row()), _est(_row(offload_params=False, offload_optimizer=False))
    pool = 0.6 * 80.0
    # the counters (torch.cuda.max_memory_allocated) read the pool beside the whole training peak either way
    assert on.memory.allocated == pytest.approx(off.memory.allocated, rel=1e-9)
    # without offload the device holds the states beside the pool; with it, the larger of the two moments
    m = on.memory
    train = m.weights + m.gradients + m.optimizer + m.activations + m.extra["reference"]
    assert m.total - m.other == pytest.approx(max(pool, train), rel=1e-6)
    assert off.memory.total - off.memory.other == pytest.approx(
        train + pool - m.activations - m.gradients - m.extra["reference"], rel=1e-6)  # fixes17: gradients freed
    # 7B AMP: the fp32 shard and Adam's moments, 12 B a parameter / 8 GPUs, leave (the gradients, 4 B, leave with
    # both flags off too since fixes17)
    assert on.memory.total < off.memory.total - 10.0


def test_parameters_only_keep_the_optimizer():
    m = _est(_row(offload_optimizer=False)).memory
    pool = 0.6 * 80.0
    # verl's param_offload alone: Adam's moments stay on the GPU through the generation
    gen = pool + m.optimizer
    train = m.weights + m.gradients + m.optimizer + m.activations + m.extra["reference"]
    assert m.total - m.other == pytest.approx(max(gen, train), rel=1e-6)


def test_copies_per_step_by_hand():
    # timing.verl_phase_bytes at the pinned PCIe Gen5 x16 rate (0.8 × 64 GB/s): per generation batch, the update
    # moves the fp32 shard both ways (8 B) and Adam's two fp32 moments both ways (16 B), the old-log-prob forward
    # and the refit the shard (8 B each); 4 updates share one generation batch
    on, off = _est(_row()), _est(_row(offload_params=False, offload_optimizer=False))
    shard = 8_292_166_656 / 8  # Qwen2.5-VL-7B (bench/data/post18) over 8 GPUs, the vision tower trained
    by_hand = (8 + 16 + 8 + 8) * shard / 4 / (0.8 * 64e9)
    assert on.time.step_time_s - off.time.step_time_s == pytest.approx(by_hand, rel=0.01)
