"""The Hugging Face activation model (framework "hf") against hand counts of what PyTorch saves.

Each expected value lists the tensors autograd keeps for one token, as measured with
saved_tensors_hooks in tests_validate/ (docs/validation_pytorch.md) and derived from the HF modules.
"""

from __future__ import annotations

import pytest

from gpuplanner.core.architecture import arch_from_hf_config
from gpuplanner.core.memory import activation_bytes_per_layer, head_saved_bytes, model_facts

LLAMA = dict(model_type="llama", hidden_size=4096, num_hidden_layers=2, num_attention_heads=32,
             num_key_value_heads=8, intermediate_size=14336, vocab_size=32000)
GPT2 = dict(model_type="gpt2", n_embd=1024, n_layer=2, n_head=16, n_positions=1024, vocab_size=50257)


def test_llama_layer_bf16_sdpa():
    m = model_facts(arch_from_hf_config(LLAMA))
    h, q, kv, heads, f, s = 4096, 4096, 1024, 32, 14336, 2048
    per_token = (2 * (4 * h + 4 + 2 * h)  # two RMSNorms: fp32 upcast, rsqrt, normalised bf16
                 + 2 * 2 * h  # their outputs, read by q/k/v and gate/up
                 + 2 * q + 2 * 2 * kv  # q, k after RoPE, v
                 + 4 * heads + 2 * q  # log-sum-exp, attention output
                 + 4 * 2 * f)  # gate, up, silu(gate), product
    stored, _ = activation_bytes_per_layer(m, s, 1, 1, False, True, 0, "hf", precision="bf16")
    assert float(stored) == pytest.approx(s * per_token)


def test_llama_layer_autocast_copies_and_fp32_residual():
    m = model_facts(arch_from_hf_config(LLAMA))
    h, q, kv, heads, f, s = 4096, 4096, 1024, 32, 14336, 1024
    per_token = (2 * (4 * h + 4 + 4 * h)  # fp32 residual: input, rsqrt, normalised fp32
                 + (3 + 2) * 2 * h  # bf16 cast per linear: q, k, v, gate, up
                 + 2 * q + 2 * 2 * kv + 4 * heads + 2 * q + 4 * 2 * f)
    stored, _ = activation_bytes_per_layer(m, s, 1, 1, False, True, 0, "hf", precision="bf16", autocast=True)
    assert float(stored) == pytest.approx(s * per_token)
    # full recomputation keeps the fp32 layer input only
    stored, _ = activation_bytes_per_layer(m, s, 1, 1, False, True, 2, "hf", precision="bf16", autocast=True)
    assert float(stored) == pytest.approx(s * 4 * h)


def test_gpt2_layer_bf16_eager_with_dropout():
    m = model_facts(arch_from_hf_config(GPT2))
    h, heads, s, b = 1024, 16, 512, 2
    per_token = (2 * (2 * h + 2 * 2)  # two LayerNorms: input + mean, rstd
                 + 2 * 2 * h  # their outputs (c_attn, c_fc inputs)
                 + 3 * 2 * h  # c_attn output (q, k, v are views)
                 + (2 + 1 + 2) * heads * s  # softmax (bf16), dropout mask (bool), dropout output
                 + 2 * h  # merged heads (c_proj input)
                 + 5 * 2 * 4 * h  # gelu_new in Python: 5 tensors of 4h
                 + 2 * h)  # two residual dropout masks
    stored, _ = activation_bytes_per_layer(m, s, b, 1, False, False, 0, "hf", precision="bf16")
    assert float(stored) == pytest.approx(s * b * per_token)


def test_head_saves_fp32_log_softmax_only_logits():
    m = model_facts(arch_from_hf_config(LLAMA))
    h, V, s = 4096, 32000, 2048
    per_token = 8 + (4 * h + 4 + 2 * h) + 2 * h + 4 * V + 8  # ids, final norm, head input, log-softmax, labels
    assert float(head_saved_bytes(m, s, 1, 1, "bf16")) == pytest.approx(s * per_token)
    # LoRA: the frozen final-norm weight and LM head save nothing of their inputs
    lora = 8 + (4 * h + 4) + 4 * V + 8
    assert float(head_saved_bytes(m, s, 1, 1, "bf16", lora=True)) == pytest.approx(s * lora)
