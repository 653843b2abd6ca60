"""FSDP2 (torchtitan) and Megatron memory mechanics: context-parallel ranks join the sharding group, and FSDP
with pipeline parallelism keeps the stage's weights gathered and its gradients unsharded until the step's end."""

from __future__ import annotations

import numpy as np
import pytest

from gpuplanner.core.estimate import estimate, memory_kwargs, resolve
from gpuplanner.core.memory import GIB, memory_arrays
from gpuplanner.core.scenario import scenario_from_dict


def scn(**sections):
    base = {"model": {"preset": "llama-3-8b"}, "training": {"seq_len": 8192, "micro_batch_size": 1,
                                                           "framework": "fsdp", "method": "pretrain"},
            "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}, "data": {"tokens": 1e9}}
    for k, v in sections.items():
        base[k] = {**base.get(k, {}), **v}
    return scenario_from_dict(base)


def states(mem) -> float:
    return mem.weights + mem.gradients + mem.optimizer


def test_cp8_on_8_gpus_shards_model_states_over_the_cp_ranks():
    """torchtitan applies fully_shard on the dp_shard_cp mesh: CP 8 on 8 GPUs shards the 8B model's fp32
    weights, gradients and AdamW states (16 bytes per parameter) eight ways."""
    e = estimate(scn(parallel={"cp": 8, "zero": 3}))
    P = e.params.total
    assert states(e.memory) == pytest.approx(16.0 * P / 8 / GIB, rel=1e-9)
    # the same holds for Megatron's distributed optimizer (optimizer states over dp × cp)
    m = estimate(scn(training={"framework": "megatron"}, parallel={"cp": 8, "zero": 1}))
    assert m.memory.optimizer == pytest.approx(12.0 * P / 8 / GIB, rel=1e-9)


@pytest.mark.parametrize("framework,zeros", [("fsdp", (0, 2, 3)), ("megatron", (0, 1))])
def test_cp_never_increases_per_gpu_model_states(framework, zeros):
    """Property: on any GPU count and layout, splitting the sequence over more context-parallel ranks (at a
    fixed GPU count: fewer data-parallel ranks) never raises the per-GPU weights + gradients + optimizer."""
    r = resolve(scn(training={"framework": framework}))
    kw = memory_kwargs(r)
    rng = np.random.default_rng(1)
    for n in (8, 16, 64, 256):
        for _ in range(60):
            tp = int(rng.choice([1, 2, 4, 8]))
            pp = int(rng.choice([1, 2, 4]))
            zero = int(rng.choice(zeros))
            ga = int(rng.choice([1, 4, 8]))
            prev = None
            for cp in (1, 2, 4, 8):
                if n % (tp * pp * cp):
                    continue
                dp = n // (tp * pp * cp)
                out = memory_arrays(r.facts, **kw, tp=tp, pp=pp, cp=cp, ep=1, dp=dp, zero=zero, recompute=2, mbs=1,
                                    sp=tp > 1, grad_accum=ga, vpp=1, offload=False)
                st = float(out["weights"] + out["gradients"] + out["optimizer"])
                if prev is not None:
                    assert st <= prev * (1 + 1e-12), (n, tp, pp, cp, zero)
                prev = st


def test_fsdp_with_pp_keeps_weights_gathered_and_gradients_unsharded_hand_derived():
    """Llama-3-70B, TP 8 × PP 4 × DP 4 (128 GPUs), FSDP2: the stage's 16-bit weights stay gathered (2 bytes per
    parameter), its gradients accumulate unsharded in fp32 (4), beside the sharded fp32 weights (4/dp) and
    AdamW moments (8/dp). Without PP the same layout reshards after forward and reduce-scatters per layer."""
    base = dict(model={"preset": "llama-3-70b"}, hardware={"num_gpus": 128},
                training={"seq_len": 8192, "global_batch_size": 64})
    pp = estimate(scn(**base, parallel={"tp": 8, "pp": 4, "zero": 3}))
    r = pp.resolved
    m = r.facts
    stage = (20 * m.layer_non_expert + max(m.first_extra, m.last_extra)) / 8  # params of the first/last stage
    assert pp.memory.weights == pytest.approx(stage * (2.0 + 4.0 / 4) / GIB, rel=1e-9)
    assert pp.memory.gradients == pytest.approx(stage * 4.0 / GIB, rel=1e-9)
    assert pp.memory.optimizer == pytest.approx(stage * 8.0 / 4 / GIB, rel=1e-9)
    # without PP the same data-parallel degree keeps everything sharded (16 bytes per parameter / dp)
    no_pp = estimate(scn(model={"preset": "llama-3-70b"}, hardware={"num_gpus": 32},
                         training={"seq_len": 8192, "global_batch_size": 64}, parallel={"tp": 8, "zero": 3}))
    full = (80 * m.layer_non_expert + m.first_extra + m.last_extra) / 8
    assert states(no_pp.memory) == pytest.approx(full * 16.0 / 4 / GIB, rel=1e-9)
    # per parameter held: 2 + 4 + 12/dp with PP against 16/dp without
    assert states(pp.memory) / stage == pytest.approx(states(no_pp.memory) / full * (6 + 12 / 4) / 4, rel=1e-9)


def test_fsdp_zero2_keeps_the_16bit_copy_and_shards_the_fp32_weights():
    e = estimate(scn(parallel={"zero": 2}))
    P = e.params.total
    assert e.memory.weights == pytest.approx(P * (2.0 + 4.0 / 8) / GIB, rel=1e-9)
    assert e.memory.gradients == pytest.approx(P * 4.0 / 8 / GIB, rel=1e-9)
