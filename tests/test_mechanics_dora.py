"""DoRA (training.dora; PEFT tuners/lora/dora.py DoraLinearLayer) and the mlp/qv LoRA targets, by hand."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from gpuplanner.core import flops as F
from gpuplanner.core import memory as M
from gpuplanner.core import timing as T
from gpuplanner.core.estimate import estimate, resolve, trainable_params
from gpuplanner.core.params import dora_largest_weight, dora_magnitude_params, lora_params
from gpuplanner.core.scenario import scenario_from_dict

ROOT = Path(__file__).resolve().parents[1]


def scn(**training):
    t = {"method": "lora", "lora_rank": 16, "lora_targets": "qv", "seq_len": 512, "micro_batch_size": 1,
         "global_batch_size": 1, "framework": "hf", "recompute": "none", **training}
    return scenario_from_dict({"model": {"preset": "llama-3.1-8b"}, "training": t,
                               "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 1}, "data": {"tokens": 1e9}})


def test_targets_hand_counted():
    a = resolve(scn()).arch
    # Llama 3.1 8B, 32 layers: q 4096→4096, v 4096→1024; gate/up 4096→14336, down 14336→4096
    assert lora_params(a, 16, "qv")[0] == 16 * 32 * ((4096 + 4096) + (4096 + 1024))
    assert lora_params(a, 8, "mlp")[0] == 8 * 32 * (2 * (4096 + 14336) + (14336 + 4096))
    # all_linear = attention + mlp
    assert lora_params(a, 8, "all_linear")[0] == lora_params(a, 8, "attention")[0] + lora_params(a, 8, "mlp")[0]
    assert F.lora_targets_per_layer(a, "qv") == 2.0 and F.lora_targets_per_layer(a, "mlp") == 3.0
    assert dora_magnitude_params(a, "qv") == 32 * (4096 + 1024)
    assert dora_largest_weight(a, "mlp") == 4096 * 14336


def test_mlp_targets_save_less_than_all_linear_and_more_than_qv():
    mem = {tg: estimate(scn(lora_targets=tg)).memory.activations for tg in ("qv", "mlp", "all_linear")}
    assert mem["qv"] < mem["mlp"] < mem["all_linear"]


def test_weight_norm_time_by_hand():
    r = resolve(scn(dora=True))
    t = estimate(scn(dora=True)).time
    w, eye = F.dora_weight_elements(r.arch, "qv")
    assert w == 32 * (4096 * 4096 + 4096 * 1024) and eye == 32 * 2 * 4096 * 4096
    kw, _ = T.time_kwargs(r)
    mem_bw = kw["mem_bw_tbs"] * 1e12 * T.MEM_BW_EFFICIENCY
    # HF Trainer, bf16 with fp32 master weights: PEFT's fp32 adapters, 34 B per weight element + 8 per eye element,
    # once per micro-batch (one here), no backward
    assert t.parts["dora_weight_norm"] == pytest.approx((34.0 * w + 8.0 * eye) / mem_bw, rel=1e-9)
    # the output path: 2 bytes x (13 + 21) x Σ fan_out per token, on top of LoRA's
    base = estimate(scn()).time
    d_out = 32 * (4096 + 1024)
    extra = 2.0 * (13.0 + 21.0) * d_out * 512 / mem_bw
    assert t.parts["lora_adapters"] - base.parts["lora_adapters"] == pytest.approx(extra, rel=1e-9)
    assert "dora_weight_norm" in t.breakdown and sum(t.breakdown.values()) == pytest.approx(1.0)
    assert t.step_time_s > base.step_time_s + t.parts["dora_weight_norm"] * 0.99


def test_per_micro_batch_recompute_and_16bit_adapters():
    one = estimate(scn(dora=True)).time.parts["dora_weight_norm"]
    accum = estimate(scn(dora=True, global_batch_size=4)).time.parts["dora_weight_norm"]
    assert accum == pytest.approx(4.0 * one, rel=1e-9)  # every forward, not every optimizer step
    rec = estimate(scn(dora=True, recompute="full")).time.parts["dora_weight_norm"]
    assert rec == pytest.approx(2.0 * one, rel=1e-9)  # the recompute forward runs it again
    pure = estimate(scn(dora=True, master_weights=False)).time.parts["dora_weight_norm"]
    r = resolve(scn(dora=True))
    w, eye = F.dora_weight_elements(r.arch, "qv")
    assert pure / one == pytest.approx((14.0 * w + 4.0 * eye) / (34.0 * w + 8.0 * eye), rel=1e-9)


def test_memory_by_hand():
    lo, do = estimate(scn()), estimate(scn(dora=True))
    # saved base_result (2 B) and fp32 lora_result (4 B) per output element, 512 tokens
    d_out = 32 * (4096 + 1024)
    assert (do.memory.activations - lo.memory.activations) * 2**30 == pytest.approx(6.0 * d_out * 512, rel=1e-6)
    assert trainable_params(resolve(scn(dora=True))) - trainable_params(resolve(scn())) == d_out
    # the weight-norm temporaries of the largest adapted weight: 16 B x 4096² beside the saved set
    assert M.DORA_TRANSIENT_BYTES_FP32 * 4096 * 4096 < 0.5 * 2**30


def test_refusals_one_line():
    with pytest.raises(Exception) as e:
        scn(method="full", dora=True)
    assert "training.dora needs method lora or qlora" in str(e.value)
    with pytest.raises(Exception) as e:
        scn(dora=True, framework="megatron")
    assert "training.dora is priced for PEFT's DoRA only" in str(e.value)
    with pytest.raises(Exception):
        scn(lora_targets="mlp_only")
    scn(dora=True, framework="llamafactory", method="qlora")  # accepted


def test_vectorised_path_agrees():
    r = resolve(scn(dora=True))
    kw, _ = T.time_kwargs(r)
    common = dict(tp=1, pp=1, cp=1, ep=1, dp=1, zero=0, sp=False, grad_accum=1, vpp=1, num_gpus=1,
                  gpus_per_node=8, offload=False)
    one = T.time_arrays(r.facts, **kw, **common, recompute=0, mbs=1)
    arr = T.time_arrays(r.facts, **kw, **{**common, "tp": np.array([1, 1])}, recompute=np.array([0, 2]),
                        mbs=np.array([1, 2]))
    assert arr["dora_weight_norm"][0] == pytest.approx(one["dora_weight_norm"], rel=1e-12)
    assert arr["step"][0] == pytest.approx(one["step"], rel=1e-12)
    assert arr["dora_weight_norm"][1] > arr["dora_weight_norm"][0]


def test_peft_l40s_dora_row():
    """huggingface/peft method_comparison/MetaMathQA @5d602fdbff: L40S, Llama-3.2-3B, q_proj/v_proj r 32: LoRA 7174,
    DoRA 5941 tokens/s (DoRA / LoRA = 0.828)."""
    sys.path.insert(0, str(ROOT / "bench"))
    import validate_ft_oos8 as v

    rows = {r.id: r for r in v.PEFT_ROWS}
    dora, lora = v.peft_predict(rows["dora-r32-qv"]), v.peft_predict(rows["lora-r32-qv"])
    assert -0.10 < dora / 5941 - 1 < 0.10
    # without the term it was +32% (the plain LoRA cost)
    assert 0.70 < dora / lora < 0.83
    assert -0.10 < v.peft_predict(rows["lora-r10-mlp"]) / 6309 - 1 < 0.10


def test_dropout_reruns_the_base_linear():
    """PEFT variants.py DoraLinearVariant.forward: with lora_dropout > 0, base_result is None and DoRA runs
    F.linear(dropout(x), W) again: 2·Σ fan_in·fan_out FLOPs per token forward, the same for the input gradient."""
    r = resolve(scn(dora=True, lora_dropout=0.05))
    w = 32 * (4096 * 4096 + 4096 * 1024)
    assert F.dora_dropout_base_flops(r.arch, "qv") == 2.0 * w
    with_drop = estimate(scn(dora=True, lora_dropout=0.05)).time
    plain_drop = estimate(scn(lora_dropout=0.05)).time
    no_drop = estimate(scn(dora=True)).time
    assert with_drop.hardware_flops_per_token - plain_drop.hardware_flops_per_token == pytest.approx(4.0 * w, rel=1e-9)
    assert with_drop.flops_per_token == pytest.approx(no_drop.flops_per_token, rel=1e-12)  # model FLOPs unchanged
    assert with_drop.step_time_s > no_drop.step_time_s
