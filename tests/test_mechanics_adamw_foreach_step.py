"""Issue 35 round 15 (memoos15): torch.optim.AdamW's unfused step holds a list of square roots the size of the second
moments beside the model states (memory.adamw_foreach_step_bytes; torch ``_multi_tensor_adamw``:
``exp_avg_sq_sqrt = torch._foreach_sqrt(device_exp_avg_sqs)``).

Hand values: a Qwen2.5-7B full fine-tuning step in pure bf16 holds weights, gradients and two bf16 moments (2 + 2 + 4
bytes a parameter) and, foreach, one more bf16 list (2 bytes a parameter): 10 bytes a parameter at the step."""

from __future__ import annotations

import numpy as np
import pytest

from gpuplanner.core.estimate import estimate
from gpuplanner.core.memory import adamw_foreach_step_bytes
from gpuplanner.core.params import count_params
from gpuplanner.core.scenario import scenario_from_dict

GIB = 2.0 ** 30


def _mem(impl=None, **kw):
    t = {"framework": "ms-swift", "method": "full", "seq_len": 131, "micro_batch_size": 1, "global_batch_size": 16,
         "recompute": "full", "flash_attention": True, "optimizer": "adamw", "precision": "bf16",
         "master_weights": False, "optimizer_implementation": impl}
    par = kw.pop("parallel", {})
    gpus = kw.pop("num_gpus", 1)
    t.update(kw)
    sc = {"model": {"preset": "qwen2.5-7b"}, "training": t, "parallel": par,
          "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": gpus}}
    return estimate(scenario_from_dict(sc)).memory


def _params() -> float:
    from gpuplanner.core.estimate import resolve

    sc = scenario_from_dict({"model": {"preset": "qwen2.5-7b"}, "training": {"method": "full"},
                             "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 1}})
    return float(count_params(resolve(sc).arch).total)


def test_function_by_hand():
    # fp32 master + two fp32 moments (12 bytes): the second moment is 4 of them
    assert adamw_foreach_step_bytes(12.0, 4.0, 8.0, 1.0, np) == pytest.approx(4.0)
    # pure bf16 (two bf16 moments, no master): half of the optimizer
    assert adamw_foreach_step_bytes(4.0, 0.0, 4.0, 1.0, np) == pytest.approx(2.0)
    # FSDP1's single-tensor loop: one flat parameter (of 4 units) at a time, its square root and quotient together
    assert adamw_foreach_step_bytes(12.0, 4.0, 8.0, 4.0, np) == pytest.approx(2.0)


def test_full_bf16_step_by_hand():
    fused, foreach = _mem("fused"), _mem("foreach")
    p = _params()
    # the states the step holds: 8 bytes a parameter, and the foreach list 2 more
    assert (fused.weights + fused.gradients + fused.optimizer) * GIB == pytest.approx(8 * p, rel=0.01)
    assert foreach.metric("allocated") * GIB == pytest.approx(10 * p, rel=0.01)
    # the fused step adds nothing: its peak is the activations' phase, below the foreach step
    assert fused.metric("allocated") < foreach.metric("allocated")
    assert foreach.metric("allocated") - fused.metric("allocated") < 2 * p / GIB


def test_default_is_fused_outside_verl():
    assert _mem(None).metric("allocated") == pytest.approx(_mem("fused").metric("allocated"))


def test_amp_fp32_states():
    # HF mixed precision: fp32 moments (8 bytes a parameter), the list 4 bytes a parameter
    fused, foreach = _mem("fused", master_weights=True), _mem("foreach", master_weights=True)
    p = _params()
    assert foreach.metric("allocated") * GIB == pytest.approx(
        (fused.weights + fused.gradients + fused.optimizer) * GIB + 4 * p, rel=0.01)


def test_deepspeed_client_optimizer():
    # ZeRO-2 on 2 GPUs with the HF Trainer's own torch AdamW (a DeepSpeed config without an optimizer block): the
    # list covers the rank's fp32 partition of the second moment, 4 bytes a parameter / 2, no more
    kw = dict(parallel={"zero": 2}, num_gpus=2, master_weights=True)
    fused, foreach = _mem("fused", **kw), _mem("foreach", **kw)
    diff = (foreach.metric("allocated") - fused.metric("allocated")) * GIB
    assert 0.0 < diff <= 4 * _params() / 2 * 1.001


def test_megatron_own_optimizer():
    kw = dict(framework="megatron", parallel={"tp": 2}, num_gpus=2, master_weights=True)
    assert _mem("foreach", **kw).metric("allocated") == pytest.approx(_mem("fused", **kw).metric("allocated"))


def test_fsdp1_one_unit_at_a_time():
    kw = dict(framework="fsdp", fsdp_version=1, parallel={"zero": 3}, num_gpus=8)
    fused, foreach = _mem("fused", **kw), _mem("foreach", **kw)
    # at most two copies of one decoder layer's share of the second moments (28 layers): never the whole list
    assert foreach.metric("allocated") - fused.metric("allocated") <= 2 * fused.optimizer / 2 / 28 + 1e-9


def test_fsdp2_whole_shard_list():
    kw = dict(framework="fsdp", fsdp_version=2, parallel={"zero": 3}, num_gpus=2)
    fused, foreach = _mem("fused", **kw), _mem("foreach", **kw)
    assert foreach.metric("allocated") > fused.metric("allocated")


def test_lora_adapters_only():
    kw = dict(method="lora", lora_rank=8, lora_targets="all_linear")
    fused, foreach = _mem("fused", **kw), _mem("foreach", **kw)
    # the activations' phase holds the frozen base too; the adapters' list (< 0.1 GiB) is below it
    assert foreach.metric("allocated") - fused.metric("allocated") <= fused.optimizer / 2 + 1e-9
