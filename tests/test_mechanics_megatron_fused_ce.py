"""Megatron-SWIFT's loss: Megatron-Core's fused vocab-parallel cross-entropy, compiled by ``jit_fuser``
(issue 35 r6 swiftmem, ``memory.megatron_fused_ce_bytes_per_logit``).

ms-swift's Megatron arguments default ``cross_entropy_loss_fusion`` to True; megatron-core's ``jit_fuser`` is
``torch.compile``. The backward then holds the saved fp32 softmax, the compiled gradient's fp32 copy and the 16-bit
gradient: 10 bytes per local logit, where plain Megatron's eager, unfused loss keeps 6 (``memory.logits_bytes``). Measured on the CPU in
``tests_validate/test_megatron_ce_memory.py``; hand-derived values below."""

import pytest

from gpuplanner.core import memory
from gpuplanner.core.estimate import memory_breakdown, resolve
from gpuplanner.core.frameworks import tool_mechanics
from gpuplanner.core.scenario import scenario_from_dict

GIB = 2.0 ** 30
V = 151936  # Qwen3-4B vocabulary (padded to a multiple of 128 × TP by Megatron: 152064 at TP 4)
QWEN3_4B = {"name": "Qwen3-4B-Instruct-2507", "hidden_size": 2560, "num_hidden_layers": 36,
            "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128, "intermediate_size": 9728,
            "gated_mlp": True, "vocab_size": V, "tie_word_embeddings": True, "qk_norm": True}


def _mb(framework, **kw):
    t = {"framework": framework, "method": "full", "seq_len": 8192, "micro_batch_size": 1, "global_batch_size": 4,
         "recompute": "full", "flash_attention": True, "packing": True}
    t.update(kw)
    d = {"model": QWEN3_4B, "training": t, "parallel": {"tp": 4, "sequence_parallel": True},
         "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 4}, "assumptions": {"expandable_segments": True}}
    return memory_breakdown(resolve(scenario_from_dict(d)))


def test_constant_is_the_measured_ten_bytes():
    assert memory.megatron_fused_ce_bytes_per_logit() == 10.0


def test_only_megatron_swift_takes_the_fused_loss():
    assert tool_mechanics("megatron-swift")["loss_kernel"] == "megatron_fused"
    for fw in ("megatron", "megatron-bridge", "hf", "ms-swift", "fsdp", "deepspeed"):
        assert tool_mechanics(fw)["loss_kernel"] != "megatron_fused", fw
    assert tool_mechanics("ms-swift", liger=True)["loss_kernel"] == "cce"
    for obj in ("sft", "dpo", "kto"):
        assert tool_mechanics("megatron-swift", objective=obj)["loss_kernel"] == "megatron_fused", obj
    # Megatron-SWIFT's GRPO takes the log-probabilities from the logits itself, not through the fused loss
    assert tool_mechanics("megatron-swift", objective="grpo")["loss_kernel"] == "standard"


def test_four_more_bytes_per_logit_than_plain_megatron_by_hand():
    swift, mlm = _mb("megatron-swift"), _mb("megatron")
    # the loss is the activations' peak here (full recomputation, 8,192 tokens, a 152k vocabulary over TP 4)
    vp = -(-V // (128 * 4)) * 128 * 4  # Megatron's padded vocabulary
    want = (10.0 - 6.0) * 8192 * vp / 4 / GIB  # fused and compiled 10, Megatron-LM's unfused eager loss 6
    assert swift.activations - mlm.activations == pytest.approx(want, rel=0.01)
    assert swift.weights == pytest.approx(mlm.weights, rel=1e-12)
    assert swift.optimizer == pytest.approx(mlm.optimizer, rel=1e-12)


def test_reward_model_has_no_logits():
    # a value head replaces the LM head: no vocabulary-sized loss, nothing changes
    a = _mb("megatron-swift", objective="reward", method="lora", lora_rank=8, lora_targets="all_linear")
    b = _mb("megatron", objective="reward", method="lora", lora_rank=8, lora_targets="all_linear")
    assert a.activations == pytest.approx(b.activations, rel=1e-9)
