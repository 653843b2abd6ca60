"""Issue 35 round 17 (ftoos17): ``training.mixed_precision_off`` — LoRA on the Hugging Face Trainer without
``--bf16``/``--fp16`` (the model loaded in bf16). No autocast: PEFT's fp32 adapters (``get_peft_model``
``autocast_adapter_dtype=True``, PEFT >= 0.12) run entirely in fp32 and their fp32 output is added to the bf16 base
output before the cast back (``flops.LORA_NO_AUTOCAST_*``). Under Accelerate's FSDP1 transformers' ``TrainingArguments``
also leaves ``ACCELERATE_MIXED_PRECISION`` at the launcher's 'no', and accelerate ``state.py`` calls
``fsdp_plugin.set_mixed_precision`` only when it is not 'no': FSDP casts no unit, so each adapted linear casts its
input to fp32 as without ZeRO (``flops.LORA_AUTOCAST_IN``, ``LORA_DROPOUT_IN_FP32``)."""

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
    zero = kw.pop("zero", 3)
    t.update(kw)
    return scenario_from_dict({"model": POWERLM, "training": t, "parallel": {"zero": zero},
                               "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 2}})


def _bw(s) -> float:
    return resolve(s).gpu.mem_bw_tbs * 1e12 * timing.MEM_BW_EFFICIENCY


#: q/k/v/o adapters of PowerLM-3B: fan_in = fan_out = 2,304, 40 layers: 368,640 elements per token on each side
D = 4 * 2304 * 40


def test_fsdp1_casts_and_fp32_path_by_hand():
    """FSDP1 (2 GPUs, b4 x 4,096 tokens per GPU, full recompute: two forwards and a backward). The casts add 8
    16-bit elements per input element and pass (6: to fp32 and back, LORA_AUTOCAST_IN; 2: the dropout on the fp32
    copy, 4.5 instead of 2.5): 3 x 8 x 2 bytes = 48 B. The fp32 path without autocast adds, per forward, 8 per output
    element and −2 per input element, per backward 10 and −1: 2 x (2 x (8 − 2) + (10 − 1)) = 42 B (fan_in = fan_out
    here). 90 B x 368,640 x 16,384 tokens over the A100's effective bandwidth."""
    off, on = (time_estimate(resolve(_scenario(mixed_precision_off=v))) for v in (False, True))
    assert (F.LORA_AUTOCAST_IN + F.LORA_DROPOUT_IN_FP32 - F.LORA_DROPOUT_IN) == 8.0
    assert (F.LORA_NO_AUTOCAST_OUT_FWD, F.LORA_NO_AUTOCAST_IN_FWD, F.LORA_NO_AUTOCAST_OUT_BWD,
            F.LORA_NO_AUTOCAST_IN_BWD) == (8.0, -2.0, 10.0, -1.0)
    by_hand = 90.0 * D * 4 * 4096 / _bw(_scenario())
    assert by_hand == pytest.approx(0.33, abs=0.03)
    assert on.parts["lora_adapters"] - off.parts["lora_adapters"] == pytest.approx(by_hand, rel=1e-6)
    assert on.step_time_s > off.step_time_s + 0.8 * by_hand


def _one_gpu(**kw):
    t = {**_scenario().training.model_dump(exclude_unset=True), "fsdp_version": 2, "global_batch_size": 4, **kw}
    return scenario_from_dict({"model": POWERLM, "training": t, "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 1}})


def test_one_gpu_fp32_path_by_hand():
    """One GPU: the casts are priced already (zero 0); without autocast only the fp32 path's 42 B moves."""
    off, on = (time_estimate(resolve(_one_gpu(mixed_precision_off=v))) for v in (False, True))
    by_hand = 42.0 * D * 4 * 4096 / _bw(_one_gpu())
    assert on.parts["lora_adapters"] - off.parts["lora_adapters"] == pytest.approx(by_hand, rel=1e-6)


def test_same_adapter_traffic_as_one_gpu():
    """Per GPU the same tokens: the FSDP1 run without mixed precision prices the one-GPU run's adapter passes."""
    one = time_estimate(resolve(_one_gpu(mixed_precision_off=True)))
    fsdp = time_estimate(resolve(_scenario(mixed_precision_off=True)))
    assert fsdp.parts["lora_adapters"] == pytest.approx(one.parts["lora_adapters"], rel=1e-9)


@pytest.mark.parametrize("bad", [
    {"method": "full"},  # no adapters
    {"method": "qlora"},  # fms' QLoRA runs set bf16: FSDP gathers in bf16
    {"fsdp_version": 2},  # the HF stack's ZeRO is DeepSpeed's at fsdp_version 2
    {"fsdp_version": 2, "zero": 1},  # DeepSpeed ZeRO-1
    {"framework": "fsdp", "checkpoint_reentrant": None},  # torchtitan / torchtune: not Accelerate
])
def test_refused_outside_the_hf_stack_without_deepspeed(bad):
    from gpuplanner.core.errors import ScenarioError

    with pytest.raises(ScenarioError, match="mixed_precision_off"):
        resolve(_scenario(mixed_precision_off=True, **bad))


def test_allowed_on_one_gpu_and_ddp():
    assert _one_gpu(mixed_precision_off=True).training.mixed_precision_off is True
    assert _scenario(mixed_precision_off=True, zero=0, fsdp_version=2).training.mixed_precision_off is True


def test_default_is_off_and_changes_nothing():
    s = _scenario()
    assert s.training.mixed_precision_off is False
    assert time_estimate(resolve(s)).step_time_s == time_estimate(
        resolve(_scenario(mixed_precision_off=False))).step_time_s
