"""Issue 35 round 8 (tidy9): one rule for whether a Megatron-Core tool's loss is Megatron's cross-entropy, fused or
not (``frameworks.megatron_ce_fused``), read by the memory model (``frameworks.tool_mechanics``' loss kernel) and the
time model (``timing.megatron_unfused_ce``).

Sources: ms-swift ``swift/megatron/trainers/dpo_trainer.py`` / ``kto_trainer.py`` (the labels go into
``model(**data)``; ``per_token_logps = -output_tensor``), ``grpo_trainer.py`` (labels popped; its own log-probs);
NVIDIA-NeMo/RL ``nemo_rl/distributed/model_utils.py`` ``from_parallel_logits_to_logprobs`` (every NeMo RL loss)."""

import pytest

from gpuplanner.core import timing
from gpuplanner.core.estimate import resolve
from gpuplanner.core.frameworks import (FUSED_CE_DEFAULT, MEGATRON_CE_OBJECTIVES, megatron_ce_fused,
                                        tool_mechanics)
from gpuplanner.core.scenario import _MEGATRON_TOOLS, scenario_from_dict


def _sc(framework, objective, **t):
    tr = {"framework": framework, "precision": "bf16", "seq_len": 4096, "micro_batch_size": 1,
          "global_batch_size": 64, "method": "full", "objective": objective, **t}
    return scenario_from_dict({"model": {"preset": "llama-3.1-8b"}, "training": tr,
                               "parallel": {"tp": 2, "zero": 1, "sequence_parallel": True},
                               "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}})


def test_the_rule_by_tool_and_objective():
    assert megatron_ce_fused("megatron", "sft") is False  # Megatron-LM: --cross-entropy-loss-fusion off
    assert megatron_ce_fused("megatron-bridge", "sft") is True
    for obj in ("sft", "dpo", "kto"):
        assert megatron_ce_fused("megatron-swift", obj) is True
        assert megatron_ce_fused("megatron-swift", obj, False) is False
    for obj in ("grpo", "reward"):  # labels popped / a value head
        assert megatron_ce_fused("megatron-swift", obj) is None
    for obj in ("dpo", "grpo", "ppo"):  # NeMo RL's own log-probabilities
        assert megatron_ce_fused("megatron", obj, False) is None
    assert megatron_ce_fused("hf", "sft", True) is None
    # Nanotron's loss is the same unfused vocab-parallel cross-entropy, with no fusion switch (issue 35 round 9):
    # in the loss rule, not among the tools that offer --cross-entropy-loss-fusion
    assert megatron_ce_fused("nanotron", "sft") is False
    assert megatron_ce_fused("gpt-neox", "sft") is False  # GPT-NeoX v1.0's mpu/cross_entropy.py (neox11)
    assert set(MEGATRON_CE_OBJECTIVES) - {"nanotron", "gpt-neox"} == set(FUSED_CE_DEFAULT) == set(_MEGATRON_TOOLS)


@pytest.mark.parametrize("fw,obj,choice", [("megatron-swift", "dpo", False), ("megatron-swift", "dpo", None),
                                           ("megatron-swift", "kto", False), ("megatron-swift", "grpo", False),
                                           ("megatron-swift", "sft", False), ("megatron", "sft", None),
                                           ("megatron", "dpo", None), ("megatron-bridge", "sft", False)])
def test_memory_and_time_read_the_same_rule(fw, obj, choice):
    """Time prices the unfused loss exactly where the rule says unfused; memory's fused kernel (Megatron-SWIFT's
    only) exactly where it says fused."""
    extra = {} if choice is None else {"fused_cross_entropy": choice}
    s = _sc(fw, obj, **extra)
    rule = megatron_ce_fused(fw, obj, choice)
    assert timing.time_kwargs(resolve(s))[0]["unfused_ce"] is (rule is False)
    kernel = tool_mechanics(fw, "", False, True, obj, choice)["loss_kernel"]
    assert (kernel == "megatron_fused") is (fw == "megatron-swift" and rule is True)


def test_swift_dpo_unfused_is_priced_now():
    """Megatron-SWIFT DPO with ``cross_entropy_loss_fusion`` off runs the unfused loss (the model's per-token loss
    is its log-probabilities): time now prices it; before, only ``sft`` was."""
    on = timing.time_kwargs(resolve(_sc("megatron-swift", "dpo")))[0]
    off = timing.time_kwargs(resolve(_sc("megatron-swift", "dpo", fused_cross_entropy=False)))[0]
    assert on["unfused_ce"] is False and off["unfused_ce"] is True
