"""Issue 35 round 15 (mgpumem15): Accelerate before 1.13 casts the whole model to fp32 when it prepares FSDP2 under
bf16 mixed precision (``accelerate/utils/fsdp_utils.py`` ``fsdp2_prepare_model``: ``model = model.to(torch.float32)``
through v1.12.0; only trainable parameters from d1c96ba9 / v1.13.0), so a LoRA run's frozen base is sharded in fp32
(``training.fsdp2_fp32_upcast``; memory.fsdp2_fp32_base_applies).

Hand values: Qwen2.5-7B (hidden 3584, 28 layers, 28/4 heads, intermediate 18944, vocabulary 152064, untied, q/k/v
biases) has 7,615,616,512 parameters and 20,185,088 rank-8 adapter parameters on its linears; on 2 GPUs (FULL_SHARD) each holds 3,807,808,256 of them: 2 bytes each in bf16
(7.09 GiB), 4 in fp32 (14.18 GiB). The upcast adds exactly 2 bytes per frozen parameter of the shard; the gathered
compute copy (MixedPrecisionPolicy param_dtype bf16) and everything else stay."""

from __future__ import annotations

import pytest

from gpuplanner.core.errors import ScenarioError
from gpuplanner.core.estimate import estimate
from gpuplanner.core.scenario import scenario_from_dict

GIB = 2.0 ** 30
#: Qwen2.5-7B by hand from its config.json (module docstring)
H, L, I, V, KV = 3584, 28, 18944, 152064, 512
PER_LAYER = (H * H + H) + 2 * (H * KV + KV) + H * H + 3 * H * I + 2 * H
P = L * PER_LAYER + 2 * V * H + H
#: rank-8 adapters on all seven linears: r·(in + out) each
ADAPTERS = L * 8 * ((H + H) + 2 * (H + KV) + (H + H) + 3 * (H + I))


def _sc(upcast=False, **kw):
    t = {"framework": "fsdp", "fsdp_version": 2, "method": "lora", "lora_rank": 8, "lora_targets": "all_linear",
         "seq_len": 131, "micro_batch_size": 1, "global_batch_size": 16, "recompute": "full",
         "flash_attention": True, "optimizer": "adamw", "precision": "bf16", "fsdp2_fp32_upcast": upcast}
    par = kw.pop("parallel", {"zero": 3})
    t.update(kw)
    return {"model": {"preset": "qwen2.5-7b"}, "training": t, "parallel": par,
            "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 2}}


def _mem(upcast=False, **kw):
    return estimate(scenario_from_dict(_sc(upcast, **kw))).memory


def test_hand_count():
    assert P == 7_615_616_512
    assert ADAPTERS == 20_185_088


def test_upcast_doubles_the_frozen_shard_only():
    off, on = _mem(False), _mem(True)
    # bf16 shard by hand, then 2 more bytes per sharded parameter (the adapters are fp32 either way)
    # (the fp32 adapters, 4 bytes each, are held whole on each GPU in the model's LoRA layout)
    assert off.weights * GIB == pytest.approx(2 * P / 2 + 4 * ADAPTERS, rel=1e-6)
    assert (on.weights - off.weights) * GIB == pytest.approx(2 * P / 2, rel=0.002)
    for part in ("gradients", "optimizer", "activations"):
        assert getattr(on, part) == pytest.approx(getattr(off, part)), part
    assert (on.metric("allocated") - off.metric("allocated")) * GIB == pytest.approx(2 * P / 2, rel=0.002)


def test_default_is_off():
    sc = _sc()
    sc["training"].pop("fsdp2_fp32_upcast")
    assert estimate(scenario_from_dict(sc)).memory.weights == pytest.approx(_mem(False).weights)


@pytest.mark.parametrize("change", [
    {"framework": "deepspeed"}, {"framework": "ms-swift"}, {"fsdp_version": 1}, {"method": "full"},
    {"parallel": {"zero": 2}}, {"parallel": {"zero": 0}},
])
def test_refused_where_accelerate_fsdp2_lora_does_not_run(change):
    kw = dict(change)
    if kw.get("method") == "full":
        kw.update(lora_rank=16)
    with pytest.raises(ScenarioError, match="fsdp2_fp32_upcast"):
        scenario_from_dict(_sc(True, **kw))
