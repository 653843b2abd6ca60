"""bitsandbytes < 0.43.2 keeps each 4-bit linear's input also in layers that are NOT checkpointed (issue 35 r14,
memoos14; ``memory.bnb_unchecked_kept_bytes_per_token``).

``MatMul4Bit.forward`` (0.41.0 to 0.43.1) stores ``ctx.tensors = (A, B)`` whenever a gradient is needed. In a layer
that is not checkpointed, the inputs the layer saves anyway cost nothing more (the LoRA adapters' inputs, o_proj's
input that attention saves); the others (the MLP input, the down projection's input, the attention input when q/k/v
are not adapted) stay alive only through the context. Hand-derived values; the published check is LitGPT's
resource table (bench/validate_mem_oos14.py)."""

import pytest

from gpuplanner.core.estimate import memory_breakdown, resolve
from gpuplanner.core.scenario import scenario_from_dict

# Llama 3 8B: 32 layers, hidden 4096, MLP 14336
L, H, F = 32, 4096, 14336


def _mb(targets="qv", legacy=False, **kw):
    t = {"framework": "hf", "method": "qlora", "seq_len": 2048, "micro_batch_size": 1, "recompute": "none",
         "flash_attention": True, "lora_targets": targets, "lora_dropout": 0.0, "legacy_bnb_4bit": legacy}
    t.update(kw)
    d = {"model": {"preset": "llama-3-8b"}, "training": t, "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 1}}
    return memory_breakdown(resolve(scenario_from_dict(d)))


def test_q_v_adapters_keep_the_mlp_inputs_by_hand():
    # q/v adapters save the attention input; attention saves o_proj's input; the MLP input (h) and the down
    # projection's input (f) are new: bf16, every layer
    want = L * 2.0 * 2048 * (H + F) / 2.0 ** 30
    assert _mb(legacy=True).activations - _mb().activations == pytest.approx(want, rel=1e-9)


def test_mlp_adapters_keep_the_attention_input_by_hand():
    want = L * 2.0 * 2048 * H / 2.0 ** 30
    assert _mb("mlp", legacy=True).activations - _mb("mlp").activations == pytest.approx(want, rel=1e-9)


def test_all_linear_adapters_keep_nothing_more():
    assert _mb("all_linear", legacy=True).activations == pytest.approx(_mb("all_linear").activations, rel=1e-12)


def test_scales_with_tokens():
    d1 = _mb(legacy=True).activations - _mb().activations
    d4 = (_mb(legacy=True, seq_len=4096, micro_batch_size=2).activations
          - _mb(seq_len=4096, micro_batch_size=2).activations)
    assert d4 == pytest.approx(4.0 * d1, rel=1e-9)


def test_checkpointed_layers_unchanged():
    """Full recomputation: every layer checkpointed; the existing rule (all four inputs, non-reentrant) alone."""
    new = _mb(recompute="full", checkpoint_reentrant=False)
    old = _mb(recompute="full", checkpoint_reentrant=False, legacy=True)
    want = L * 2.0 * 2048 * (2 * H + 4096 + F) / 2.0 ** 30
    assert old.activations - new.activations == pytest.approx(want, rel=1e-9)
