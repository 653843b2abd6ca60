"""LoRA adapter paths at memory speed (flops.lora_traffic_elements; PEFT tuners/lora/layer.py Linear.forward)."""

from __future__ import annotations

import numpy as np
import pytest

from gpuplanner.core import flops as F
from gpuplanner.core import methods
from gpuplanner.core import timing as T
from gpuplanner.core.estimate import estimate, resolve
from gpuplanner.core.scenario import scenario_from_dict


def scn(**training):
    t = {"method": "lora", "lora_rank": 16, "lora_targets": "all_linear", "seq_len": 512, "micro_batch_size": 1,
         "framework": "hf", **training}
    return scenario_from_dict({"model": {"preset": "llama-3.1-8b"}, "training": t,
                               "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 1}, "data": {"tokens": 1e9}})


def test_adapter_traffic_hand_derived():
    r = resolve(scn())
    t = estimate(scn()).time
    # Llama 3.1 8B, all linear layers: per layer q 4096→4096, k/v 4096→1024, o 4096→4096, gate/up 4096→14336,
    # down 14336→4096
    d_in = 32 * (4096 * 6 + 14336)
    d_out = 32 * (4096 + 1024 * 2 + 4096 + 14336 * 2 + 4096)
    assert F.lora_io_elements(r.arch, "all_linear") == (d_in, d_out)
    # eager HF stack, no dropout, no recompute: forward x + 6·out, backward 5·in + 4·out, 2 bytes each; the HF
    # Trainer's autocast over PEFT's fp32 adapters adds the input's cast to fp32 and back, 6·in each way
    per_tok = 2.0 * ((d_in + 6 * d_out + 6 * d_in) + (5 * d_in + 4 * d_out + 6 * d_in))
    kw, _ = T.time_kwargs(r)
    mem_bw = kw["mem_bw_tbs"] * 1e12 * T.MEM_BW_EFFICIENCY
    assert t.parts["lora_adapters"] == pytest.approx(per_tok * 512 / mem_bw, rel=1e-9)
    # named in the breakdown, taken out of compute; the shares still sum to one
    bd = t.breakdown
    assert bd["lora_adapters"] == pytest.approx(t.parts["lora_adapters"] / t.step_time_s)
    assert sum(bd.values()) == pytest.approx(1.0)
    assert "lora_adapters" in t.to_json()["time_parts"]


def test_dropout_compile_and_full_finetune():
    base = estimate(scn()).time
    drop = estimate(scn(lora_dropout=0.05)).time
    comp = estimate(scn(torch_compile=True)).time
    assert drop.parts["lora_adapters"] > base.parts["lora_adapters"]
    assert comp.parts["lora_adapters"] < base.parts["lora_adapters"]
    assert "lora_adapters" not in estimate(scn(method="full")).time.parts
    # at short context the adapters are a large share of a LoRA step (the issue: 20-65% too fast before)
    assert base.parts["lora_adapters"] / base.step_time_s > 0.10


def test_vectorised_path_agrees():
    r = resolve(scn())
    kw, _ = T.time_kwargs(r)
    common = dict(tp=1, pp=1, cp=1, ep=1, dp=1, zero=0, sp=False, grad_accum=1, vpp=1, num_gpus=1,
                  gpus_per_node=8, offload=False)
    one = T.time_arrays(r.facts, **kw, **common, recompute=0, mbs=1)
    arr = T.time_arrays(r.facts, **kw, **{**common, "tp": np.array([1, 1])}, recompute=np.array([0, 2]),
                        mbs=np.array([1, 1]))
    assert arr["lora_adapters"][0] == pytest.approx(one["lora_adapters"])
    assert arr["step"][0] == pytest.approx(one["step"])
    assert arr["lora_adapters"][1] > arr["lora_adapters"][0]  # full recompute re-runs the forward's part


def _small(**training):
    t = {"method": "lora", "lora_targets": "all_linear", "seq_len": 256, "micro_batch_size": 1, "framework": "hf",
         **training}
    return scenario_from_dict({"model": {"preset": "qwen2.5-0.5b"}, "training": t,
                               "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 1}, "data": {"tokens": 1e9}})


def test_eager_host_floor_hand_derived():
    r = resolve(_small())
    t = estimate(_small()).time
    L = r.arch.num_layers
    n = F.lora_targets_per_layer(r.arch, "all_linear")
    assert n == 7  # q, k, v, o, gate, up, down
    # forward kernels are issued from Python at 24 µs each (methods.EAGER_FWD_OP_S, gpt-fast's eager decode), the
    # backward's by autograd's C++ engine at 10 µs (methods.EAGER_OP_S): 41 + 7·8 = 97 and 82 + 7·10 = 152 kernels
    fwd, bwd = (T.EAGER_OPS_FWD_LAYER + n * (T.EAGER_OPS_LORA_FWD + T.EAGER_OPS_LORA_AUTOCAST_FWD),
                T.EAGER_OPS_BWD_LAYER + n * (T.EAGER_OPS_LORA_BWD + T.EAGER_OPS_LORA_AUTOCAST_BWD))
    assert (fwd, bwd) == (97.0, 152.0)
    assert (methods.EAGER_FWD_OP_S, methods.EAGER_OP_S) == (24e-6, 10e-6)
    host = L * (fwd * 24e-6 + bwd * 10e-6)
    assert (T.EAGER_OPS_LORA_AUTOCAST_FWD, T.EAGER_OPS_LORA_AUTOCAST_BWD) == (4.0, 4.0)
    # a 0.5B model at 256 tokens: the GPU work is shorter than the host's issue time, which sets the compute
    assert t.parts["launch_overhead"] > 0
    assert t.seconds["compute"] == pytest.approx(host, rel=1e-9)
    # torch.compile (fused kernels) has no such floor; a long sequence hides it
    assert "launch_overhead" not in estimate(_small(torch_compile=True)).time.parts
    assert "launch_overhead" not in estimate(_small(seq_len=16384)).time.parts


def _qwen_like(zero: int = 0, **training):
    t = {"method": "lora", "lora_targets": "all_linear", "seq_len": 512, "micro_batch_size": 1, "framework": "hf",
         **training}
    return scenario_from_dict({"model": {"preset": "llama-3.1-8b"}, "training": t, "parallel": {"zero": zero},
                               "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 1}, "data": {"tokens": 1e9}})


def test_peft_autocast_casts_only_under_autocast():
    """PEFT's fp32 adapters under autocast (LoraLayer._cast_input_dtype): 6 elements of fan_in each way, and the
    dropout on the fp32 copy; none in pure 16 bits, under DeepSpeed (ZeRO > 0) or torch.compile."""
    r = resolve(_qwen_like())
    d_in, d_out = F.lora_io_elements(r.arch, "all_linear")
    assert F.lora_traffic_elements(d_in, d_out, False, False, True) == (
        d_in + 6 * d_out + 6 * d_in, 5 * d_in + 4 * d_out + 6 * d_in)
    assert F.lora_traffic_elements(d_in, d_out, True, False, True) == (
        d_in + 6 * d_out + 6 * d_in + 4.5 * d_in, 5 * d_in + 4 * d_out + 6 * d_in + 4.5 * d_in)
    assert F.lora_traffic_elements(d_in, d_out, True, False, False) == (
        d_in + 6 * d_out + 2.5 * d_in, 5 * d_in + 4 * d_out + 2.5 * d_in)
    assert F.lora_traffic_elements(d_in, d_out, False, True, True) == (d_in + 4 * d_out, 5 * d_in + 4 * d_out)
    mixed = estimate(_qwen_like()).time.parts["lora_adapters"]
    pure = estimate(_qwen_like(master_weights=False)).time.parts["lora_adapters"]
    zero2 = estimate(_qwen_like(zero=2)).time.parts["lora_adapters"]
    # the casts add 12·d_in to the 6·d_in + 10·d_out of the adapters' own passes
    base = (d_in + 6 * d_out) + (5 * d_in + 4 * d_out)
    assert mixed / pure == pytest.approx((base + 12 * d_in) / base, rel=1e-9)
    assert zero2 == pytest.approx(pure, rel=1e-9)


def test_qlora_bitsandbytes_clone_and_dequant_kernels():
    """bitsandbytes QLoRA: PEFT's defensive clone of the base output (2 fan_out per forward) and three dequantisation
    kernels per 4-bit linear and pass (MatMul4Bit, double quantisation); no input cast under autocast."""
    r = resolve(_small(method="qlora"))
    d_in, d_out = F.lora_io_elements(r.arch, "all_linear")
    assert F.lora_traffic_elements(d_in, d_out, False, False, True, qlora=True) == (
        d_in + 6 * d_out + 2 * d_out, 5 * d_in + 4 * d_out)
    # LLaMA-Factory does not call prepare_model_for_kbit_training: no fp32 casts
    t = estimate(_small(method="qlora", framework="llamafactory", recompute="none")).time
    L = r.arch.num_layers
    n = F.lora_targets_per_layer(r.arch, "all_linear")
    fwd = T.EAGER_OPS_FWD_LAYER + n * (T.EAGER_OPS_LORA_FWD + T.EAGER_OPS_QLORA_CLONE + T.EAGER_OPS_QLORA_DEQUANT)
    bwd = T.EAGER_OPS_BWD_LAYER + n * (T.EAGER_OPS_LORA_BWD + T.EAGER_OPS_QLORA_DEQUANT)
    assert t.parts["launch_overhead"] > 0
    assert t.seconds["compute"] == pytest.approx(L * (fwd * 24e-6 + bwd * 10e-6), rel=1e-9)
    # a plain HF script (PEFT's recipe) does: each 4-bit linear but o_proj casts its input and output (6 of 7), SDPA
    # its q, k, v (3) and each adapter its input (7), one kernel each way
    kb = 2 * (n - 1) + 3 + n
    assert kb == 22
    t = estimate(_small(method="qlora")).time
    assert t.seconds["compute"] == pytest.approx(L * ((fwd + kb) * 24e-6 + (bwd + kb) * 10e-6), rel=1e-9)


def test_kbit_training_fp32_activations_hand_derived():
    """prepare_model_for_kbit_training: the element-wise passes in fp32 (× 2) and 6 bytes per cast element over
    forward, backward (and the recompute forward); LLaMA-Factory's QLoRA (no such call) is unaffected."""
    r = resolve(_qwen_like(method="qlora"))
    a = r.arch
    h, f, q, kv = a.hidden_size, a.intermediate_size, a.num_heads * a.head_dim, a.num_kv_heads * a.head_dim
    per_layer = (h + q) + 2 * (h + kv) + 2 * (h + f) + (f + h) + (q + 2 * kv)  # q,k,v,gate,up,down + SDPA q/k/v
    assert F.kbit_cast_elements(a) == per_layer * a.num_layers
    kw_hf, _ = T.time_kwargs(r)
    kw_lf, _ = T.time_kwargs(resolve(_qwen_like(method="qlora", framework="llamafactory", recompute="none")))
    assert kw_hf["kbit_fp32"] and not kw_lf["kbit_fp32"]
    common = dict(tp=1, pp=1, cp=1, ep=1, dp=1, sp=False, grad_accum=1, vpp=1, num_gpus=1, gpus_per_node=8,
                  offload=False, recompute=0, mbs=1, zero=0)
    on = T.time_layout(r.facts, **{k: v for k, v in kw_hf.items() if k not in T.GPU_TIME_ARGS}, **common)
    off = T.time_layout(r.facts, **{k: v for k, v in {**kw_hf, "kbit_fp32": False}.items()
                                    if k not in T.GPU_TIME_ARGS}, **common)
    ew_rep, ew_split = T.elementwise_bytes_per_token_layer(r.facts, 512, True, False)
    # the residual adds (6h of Llama's 4h norms + 6h adds) and the split passes go fp32; the norms do not change
    ew = (ew_rep * 6.0 / 10.0 + ew_split) * 3.0 * a.num_layers
    d_in, _d_out = F.lora_io_elements(a, "all_linear")
    expected = ew * (F.KBIT_FP32_EW_FACTOR - 1.0) + 6.0 * per_layer * a.num_layers * 2.0 + 2.0 * 2 * 3.0 * d_in
    assert on["mem_tok_bytes"] - off["mem_tok_bytes"] == pytest.approx(expected, rel=1e-9)


def test_autocast_follows_zero_in_the_vectorised_path():
    r = resolve(_qwen_like())
    kw, _ = T.time_kwargs(r)
    common = dict(tp=1, pp=1, cp=1, ep=1, dp=1, sp=False, grad_accum=1, vpp=1, num_gpus=1, gpus_per_node=8,
                  offload=False, recompute=0, mbs=1)
    arr = T.time_arrays(r.facts, **kw, **{**common, "zero": np.array([0, 2])})
    for i, z in enumerate((0, 2)):
        one = T.time_arrays(r.facts, **kw, **{**common, "zero": z})
        assert arr["lora_adapters"][i] == pytest.approx(one["lora_adapters"], rel=1e-12)
        assert arr["step"][i] == pytest.approx(one["step"], rel=1e-12)
    assert arr["lora_adapters"][0] > arr["lora_adapters"][1]


def test_host_floor_counts_dropout_backward_and_gradient_accumulation():
    """Dropout (p > 0) adds one kernel each way per LoRA module; micro-batches after the first of a step add the two
    AccumulateGrad adds: with 4 micro-batches, 3/4 × 2 per module and micro-batch on average."""
    sc = _small(lora_dropout=0.05, global_batch_size=4)
    r = resolve(sc)
    t = estimate(sc).time
    L, n = r.arch.num_layers, F.lora_targets_per_layer(r.arch, "all_linear")
    fwd = T.EAGER_OPS_FWD_LAYER + n * (T.EAGER_OPS_LORA_FWD + 1.0 + T.EAGER_OPS_LORA_AUTOCAST_FWD)
    bwd = T.EAGER_OPS_BWD_LAYER + n * (T.EAGER_OPS_LORA_BWD + T.EAGER_OPS_LORA_DROPOUT_BWD + 2.0 * 3 / 4
                                       + T.EAGER_OPS_LORA_AUTOCAST_BWD)
    assert t.parts["launch_overhead"] > 0
    assert t.seconds["compute"] == pytest.approx(4 * L * (fwd * 24e-6 + bwd * 10e-6), rel=1e-9)
