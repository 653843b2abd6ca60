"""Memory mechanisms of torchtune's single-device recipes (issue 35): hand-derived values.

* Gradients freed between steps (``memory.gradients_at_peak``): ``zero_grad(set_to_none=True)``; with one
  micro-batch per step the activations' peak holds only the output projection's gradient.
* bitsandbytes paged optimizers: states in CUDA unified memory, outside ``allocated``/``reserved``.
* ``CEWithChunkedOutputLoss``: 6.5 bytes per logit eager, 2.25 compiled; unchunked cross-entropy peaks at
  12 bytes per logit in backward (measured on the CPU in ``tests_validate/test_loss_memory.py``).
* TRL's objectives keep their 16-bit selective log-softmax (no 12-byte backward).
"""

from __future__ import annotations

import pytest

from gpuplanner.core.estimate import estimate, memory_kwargs, resolve
from gpuplanner.core.memory import GIB, RECOMPUTE_CODES, memory_arrays
from gpuplanner.core.scenario import scenario_from_dict

LLAMA32_3B = {  # torchtune llama3_2_3b builder
    "name": "Llama 3.2 3B", "hidden_size": 3072, "num_hidden_layers": 28, "num_attention_heads": 24,
    "num_key_value_heads": 8, "intermediate_size": 8192, "vocab_size": 128256, "tie_word_embeddings": True,
}
S, B, V, H = 4096, 2, 128256, 3072


def _sc(gbs=None, **training):
    t = {"framework": "hf", "master_weights": False, "flash_attention": True, "method": "full", "seq_len": S,
         "micro_batch_size": B, **training}
    if gbs is not None:
        t["global_batch_size"] = gbs
    return scenario_from_dict({"model": LLAMA32_3B, "training": t, "hardware": {"gpu": "a100-sxm-80gb"}})


def _arr(sc):
    r = resolve(sc)
    t = sc.training
    return memory_arrays(r.facts, **memory_kwargs(r), tp=1, pp=1, cp=1, ep=1, dp=1, zero=0,
                         recompute=RECOMPUTE_CODES[t.recompute], mbs=B, sp=False, grad_accum=sc.grad_accum,
                         vpp=1, offload=False)


def test_one_micro_batch_per_step_holds_only_the_head_gradient_at_the_peak():
    one, two = _arr(_sc()), _arr(_sc(gbs=2 * B))
    # every gradient is 2 bytes per parameter (pure bf16), the same with or without accumulation
    assert float(one["gradients_all"]) == pytest.approx(float(two["gradients_all"]))
    assert float(two["gradients"]) == pytest.approx(float(two["gradients_all"]))  # kept across micro-batches
    # no recomputation, activations >> gradients: the peak is backward's start, with the tied head's gradient
    assert float(one["gradients"]) == pytest.approx(V * H * 2.0)
    assert float(one["allocated"]) == pytest.approx(float(two["allocated"]) - float(two["gradients"]) + V * H * 2.0)


def test_small_activations_peak_at_the_end_of_backward_with_every_gradient():
    # full recomputation + compiled chunked loss: activations (a few GiB) < gradients (6 GiB): the peak is the end
    # of backward, every gradient plus the first layer's recomputation
    a = _arr(_sc(recompute="full", chunked_loss=True, torch_compile=True))
    g_all = float(a["gradients_all"])
    assert float(a["activations"]) < g_all
    assert float(a["gradients"]) > g_all - float(a["activations"])
    assert float(a["gradients"]) <= g_all


def test_paged_optimizer_states_are_outside_the_allocator():
    plain = estimate(_sc(optimizer="adamw_8bit", recompute="full")).memory
    paged = estimate(_sc(optimizer="adamw_8bit", recompute="full", paged_optimizer=True)).memory
    states = 3.21e9 * 2.0 / GIB  # two 8-bit moments per parameter (~3.21B parameters)
    assert paged.optimizer == pytest.approx(plain.optimizer)  # still on the device while there is room
    assert plain.optimizer == pytest.approx(states, rel=0.02)
    assert plain.allocated - paged.allocated == pytest.approx(plain.optimizer, rel=1e-9)
    assert paged.reserved < plain.reserved - plain.optimizer
    assert paged.total <= plain.total


def test_chunked_loss_eager_vs_compiled():
    # LoRA: compile leaves its frozen blocks' saved set as it is (compiled_layer_bytes is for full fine-tuning)
    eager = _arr(_sc(method="lora", chunked_loss=True))
    compiled = _arr(_sc(method="lora", chunked_loss=True, torch_compile=True))
    diff = float(eager["activations"]) - float(compiled["activations"])
    assert diff == pytest.approx((6.5 - 2.25) * S * B * V)


def test_unchunked_loss_peaks_in_backward_at_12_bytes_per_logit():
    a = _arr(_sc())
    # activations − saved = the loss's transient at backward's start: d(log-softmax) and d(logits), fp32
    assert float(a["activations"]) - float(a["activations_saved"]) == pytest.approx(8.0 * S * B * V)


def test_trl_objectives_keep_the_16_bit_selective_log_softmax():
    sc = scenario_from_dict({"model": LLAMA32_3B, "training": {
        "framework": "hf", "master_weights": False, "method": "full", "objective": "dpo", "seq_len": 1024,
        "micro_batch_size": 1}, "hardware": {"gpu": "a100-sxm-80gb"}})
    r = resolve(sc)
    a = memory_arrays(r.facts, **memory_kwargs(r), tp=1, pp=1, cp=1, ep=1, dp=1, zero=0, recompute=0, mbs=1,
                      sp=False, grad_accum=1, vpp=1, offload=False)
    # chosen + rejected in one forward (2 sequences); at the loss only the 16-bit logits beside the saved output
    assert float(a["activations"]) - float(a["activations_saved"]) == pytest.approx(2.0 * 1024 * 2 * V)


def test_compiled_block_saves_the_matmul_and_attention_inputs_only():
    from gpuplanner.core.memory import compiled_layer_bytes

    f = resolve(_sc()).facts
    # 16-bit: 2 normed inputs (2h), q, k, v (3072 + 2·1024), attention output twice (2·3072), gate/up/product (3·8192);
    # fp32: log-sum-exp per head (24) and two reciprocal RMS values
    per_token = 2 * (2 * 3072 + 3072 + 2 * 1024 + 2 * 3072 + 3 * 8192) + 4 * (24 + 2)
    assert per_token == 84072
    assert compiled_layer_bytes(f, S, B) == pytest.approx(per_token * S * B)
    eager, comp = _arr(_sc(chunked_loss=True)), _arr(_sc(chunked_loss=True, torch_compile=True))
    from gpuplanner.core.memory import activation_parts_per_layer
    keep = activation_parts_per_layer(f, S, B, 1, False, True, 0, "hf", precision="bf16")[0]
    assert keep > per_token * S * B
    saved_less = f.L * (keep - per_token * S * B)
    loss_less = (6.5 - 2.25) * S * B * V
    assert float(eager["activations"]) - float(comp["activations"]) == pytest.approx(saved_less + loss_less, rel=1e-6)
    # LoRA's frozen blocks save a different set: not changed by compile
    lo, lo_c = _arr(_sc(method="lora", chunked_loss=True)), _arr(_sc(method="lora", chunked_loss=True,
                                                                     torch_compile=True))
    assert float(lo["activations"]) - float(lo_c["activations"]) == pytest.approx(loss_less)
