"""Issue 35 round 17 (ftoos17): ``training.fsdp_mixed_precision_off`` — LoRA on the Hugging Face stack under
Accelerate's FSDP1 without mixed precision (no ``bf16``/``fp16`` flag: transformers' ``TrainingArguments`` leaves
``ACCELERATE_MIXED_PRECISION`` at the launcher's 'no', and accelerate ``state.py`` calls ``fsdp_plugin.
set_mixed_precision`` only when it is not 'no'). FSDP then casts no unit, so PEFT's fp32 adapters (``get_peft_model``
``autocast_adapter_dtype=True``, PEFT >= 0.12) compute in fp32 and each adapted linear casts its input to fp32: the
casts ``flops.LORA_AUTOCAST_IN`` and the fp32 dropout ``flops.LORA_DROPOUT_IN_FP32`` the model prices without ZeRO."""

from __future__ import annotations

import pytest

from gpuplanner.core import flops as F
from gpuplanner.core import timing
from gpuplanner.core.estimate import resolve
from gpuplanner.core.scenario import scenario_from_dict
from gpuplanner.core.timing import time_estimate

#: PowerLM-3B (arXiv 2408.13359 Table 4), as bench/validate_ft_oos17.py enters it
POWERLM = {"name": "PowerLM-3B", "hidden_size": 2304, "num_hidden_layers": 40, "num_attention_heads": 36,
           "num_key_value_heads": 36, "head_dim": 64, "intermediate_size": 9216, "gated_mlp": True,
           "vocab_size": 49152, "tie_word_embeddings": True}


def _scenario(**kw):
    t = {"framework": "trl", "method": "lora", "seq_len": 4096, "micro_batch_size": 4, "global_batch_size": 8,
         "recompute": "full", "flash_attention": True, "packing": True, "precision": "bf16", "master_weights": True,
         "lora_rank": 16, "lora_targets": "attention", "lora_dropout": 0.1, "fsdp_version": 1,
         "checkpoint_reentrant": True, "optimizer_implementation": "foreach"}
    t.update(kw)
    return scenario_from_dict({"model": POWERLM, "training": t, "parallel": {"zero": 3},
                               "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 2}})


def test_adapter_casts_by_hand():
    """q/k/v/o adapters, fan_in 2,304 each, 40 layers: 368,640 input elements per token. Per pass and element the
    casts add 6 (to fp32 and back: LORA_AUTOCAST_IN) and the dropout on the fp32 copy 2 (4.5 instead of 2.5), in
    16-bit elements: 8 in the forward, the recompute and the backward each, 2 bytes each: 48 bytes an element. At
    b4 x 4,096 tokens per GPU, over the A100's effective memory bandwidth."""
    off, on = (time_estimate(resolve(_scenario(fsdp_mixed_precision_off=v))) for v in (False, True))
    assert (F.LORA_AUTOCAST_IN + F.LORA_DROPOUT_IN_FP32 - F.LORA_DROPOUT_IN) == 8.0
    d_in = 4 * 2304 * 40
    r = resolve(_scenario())
    bw = r.gpu.mem_bw_tbs * 1e12 * timing.MEM_BW_EFFICIENCY
    by_hand = 48.0 * d_in * 4 * 4096 / bw
    assert by_hand == pytest.approx(0.18, abs=0.03)
    assert on.parts["lora_adapters"] - off.parts["lora_adapters"] == pytest.approx(by_hand, rel=1e-6)
    assert on.step_time_s > off.step_time_s + 0.8 * by_hand


def test_same_adapter_traffic_as_one_gpu():
    """Per GPU the same tokens: the FSDP1 run without mixed precision prices the one-GPU run's adapter passes."""
    one = scenario_from_dict({"model": POWERLM, "training": {**_scenario().training.model_dump(exclude_unset=True),
                                                            "fsdp_version": 2, "global_batch_size": 4},
                              "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 1}})
    fsdp = time_estimate(resolve(_scenario(fsdp_mixed_precision_off=True)))
    assert fsdp.parts["lora_adapters"] == pytest.approx(time_estimate(resolve(one)).parts["lora_adapters"], rel=1e-9)


@pytest.mark.parametrize("bad", [
    {"method": "full"},  # no adapters
    {"method": "qlora"},  # fms' QLoRA runs set bf16: FSDP gathers in bf16
    {"fsdp_version": 2},  # the HF stack's ZeRO is DeepSpeed's at fsdp_version 2
    {"framework": "fsdp", "checkpoint_reentrant": None},  # torchtitan / torchtune: not Accelerate
])
def test_refused_outside_the_hf_stacks_fsdp1_lora(bad):
    from gpuplanner.core.errors import ScenarioError

    with pytest.raises(ScenarioError, match="fsdp_mixed_precision_off"):
        resolve(_scenario(fsdp_mixed_precision_off=True, **bad))


def test_default_is_off_and_changes_nothing():
    s = _scenario()
    assert s.training.fsdp_mixed_precision_off is False
    assert time_estimate(resolve(s)).step_time_s == time_estimate(
        resolve(_scenario(fsdp_mixed_precision_off=False))).step_time_s
