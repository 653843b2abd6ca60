"""FLOPs per token: hand-derived values for dense, GQA, MoE, LoRA, QLoRA and recomputation."""

from __future__ import annotations

import numpy as np
import pytest

from gpuplanner.core import flops
from gpuplanner.core.architecture import ModelArch, get_preset
from gpuplanner.core.memory import QLORA_NF4_BYTES, model_facts


def gpt(h=2304, L=24, heads=24, V=51200):
    """A Megatron GPT layer: 4h GELU MLP, MHA, biases, learned positions (Narayanan et al. 2021)."""
    return ModelArch(
        name="gpt", model_type="custom", hidden_size=h, num_layers=L, num_heads=heads, num_kv_heads=heads,
        head_dim=h // heads, intermediate_size=4 * h, vocab_size=V, gated_mlp=False, attention_bias=True,
        attention_out_bias=True, mlp_bias=True, norm_type="layernorm", position_embedding="learned",
        max_position_embeddings=2048,
    )


def test_gpt_hardware_flops_equal_megatron_eq3():
    # Megatron eq. 3 counts 4 passes of 24h²+4sh per layer (recompute) and 3 passes of 2Vh for the head,
    # with full (non-causal) attention: our hardware FLOPs with full recompute must match it exactly.
    for h, L, heads in ((2304, 24, 24), (12288, 96, 96), (25600, 128, 160)):
        m = model_facts(gpt(h, L, heads))
        ours = flops.hardware_flops_per_token(m, 2048, flops.RECOMPUTE_FULL, causal=False)
        assert ours == pytest.approx(flops.megatron_eq3_flops_per_token(h, L, 2048, 51200), rel=1e-12)


def test_gpt_model_flops_hand_derived():
    h, L, s, V = 2304, 24, 2048, 51200
    m = model_facts(gpt(h, L, h // 96))
    # 6 × (12h² per layer) + 6Vh + attention 3 × 2·c·(h + h) per layer, c = s (non-causal) or (s+1)/2
    base = 6 * 12 * h * h * L + 6 * V * h
    assert flops.model_flops_per_token(m, s, causal=False) == pytest.approx(base + 12 * L * s * h, rel=1e-12)
    assert flops.model_flops_per_token(m, s, causal=True) == pytest.approx(base + 12 * L * (s + 1) / 2 * h,
                                                                         rel=1e-12)


def test_gqa_uses_narrow_kv_projections_and_query_heads_for_attention():
    arch = get_preset("llama-3-8b").arch  # h 4096, 32 heads, 8 KV heads (dim 128), f 14336, V 128256
    m = model_facts(arch)
    h, f, L, V, kv = 4096, 14336, 32, 128256, 8 * 128
    linear = L * (h * h + 2 * h * kv + h * h + 3 * h * f)
    fwd = flops.forward_flops_per_token(m, 8192, causal=True)
    assert fwd.layers == 2 * linear
    assert fwd.head == 2 * V * h
    assert fwd.attention == pytest.approx(2 * (8192 + 1) / 2 * (h + h) * L)  # 32 query heads × 128
    assert flops.model_flops_per_token(m, 8192) == pytest.approx(3 * (2 * linear + 2 * V * h) + 3 * fwd.attention)


def test_moe_counts_only_active_experts():
    arch = get_preset("mixtral-8x7b").arch
    m = model_facts(arch)
    h, f, L, kv, E, k = 4096, 14336, 32, 1024, 8, 2
    attn = h * h + 2 * h * kv + h * h
    active = L * (attn + h * E + k * 3 * h * f)  # router + 2 of 8 experts
    assert flops.forward_flops_per_token(m, 4096).layers == 2 * active
    # far below 6 × all parameters (46.7B)
    assert flops.model_flops_per_token(m, 4096) < 0.35 * flops.dense_equivalent_flops_per_token(m)


def test_recompute_full_and_selective():
    m = model_facts(get_preset("llama-2-7b").arch)
    s = 4096
    fwd = flops.forward_flops_per_token(m, s)
    mf = flops.model_flops_per_token(m, s)
    assert flops.hardware_flops_per_token(m, s, 0) == mf
    assert flops.hardware_flops_per_token(m, s, 1) == pytest.approx(mf + fwd.attention)
    assert flops.hardware_flops_per_token(m, s, 2) == pytest.approx(mf + fwd.layers + fwd.attention)
    # element-wise over arrays
    arr = flops.hardware_flops_per_token(m, s, np.array([0, 1, 2]))
    assert arr.shape == (3,) and arr[0] < arr[1] < arr[2]


def test_lora_has_no_weight_gradient_for_frozen_weights():
    arch = get_preset("llama-2-7b").arch
    m = model_facts(arch)
    s, r = 2048, 16
    f_full = flops.forward_flops_per_token(m, s)
    f_lora = flops.forward_flops_per_token(m, s, method="lora", lora_rank=r, lora_targets="all_linear")
    h, f, L = 4096, 11008, 32
    adapters = L * r * (4 * (h + h) + 2 * (h + f) + (f + h))  # q,k,v,o + gate,up + down
    assert f_lora.lora == 2 * adapters
    lora = flops.model_flops_per_token(m, s, method="lora", lora_rank=r)
    expected = 4 * (L * (4 * h * h + 3 * h * f) + 32000 * h) + 3 * f_full.attention + 6 * adapters
    assert lora == pytest.approx(expected, rel=1e-12)
    assert lora / flops.model_flops_per_token(m, s) == pytest.approx(2 / 3, abs=0.02)
    # full recompute adds the adapters' forward too
    hw = flops.hardware_flops_per_token(m, s, 2, method="lora", lora_rank=r)
    assert hw - lora == pytest.approx(f_full.layers + f_full.attention + 2 * adapters)


def test_qlora_dequant_traffic():
    arch = get_preset("llama-2-7b").arch
    m = model_facts(arch)
    h, f, L = 4096, 11008, 32
    lin = L * (4 * h * h + 3 * h * f)
    assert flops.qlora_dequant_bytes(m) == pytest.approx(lin * (QLORA_NF4_BYTES + 4.0))


def test_step_and_total_flops_scale_linearly():
    m = model_facts(get_preset("llama-2-7b").arch)
    ft = flops.model_flops_per_token(m, 4096)
    assert flops.flops_per_step(ft, 256, 4096) == pytest.approx(ft * 256 * 4096)
    assert flops.total_flops(ft, 2e12) == pytest.approx(2 * flops.total_flops(ft, 1e12))
    # 6N rule of thumb within a few % for a 7B model at 4k (attention adds ~8% at s=4096, causal)
    assert 1.0 < ft / (6 * m.params.total) < 1.12
