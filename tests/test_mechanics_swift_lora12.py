"""Issue 35 round 12 (swiftlora12): ms-swift's and Megatron-SWIFT's own LoRA dropout default (0.05, where PEFT's is
0.0: ``frameworks.TOOL_LORA_DROPOUT``, ``frameworks.lora_dropout_of``) and the eager ops Megatron-SWIFT's ``LoraParallelLinear.forward`` runs around
its adapters in each MoE layer (``timing.swift_lora_layer_ops``). Counts by hand for Qwen3-30B-A3B (48 MoE layers,
128 experts) on EP 2."""

from __future__ import annotations

import pytest

from gpuplanner.core import timing as T
from gpuplanner.core.estimate import resolve
from gpuplanner.core.frameworks import lora_dropout_of
from gpuplanner.core.methods import EAGER_FWD_OP_S, EAGER_OP_S
from gpuplanner.core.scenario import scenario_from_dict
from gpuplanner.core.timing import time_estimate


def scn(framework="megatron-swift", method="lora", **extra):
    t = {"framework": framework, "method": method, "seq_len": 2048, "micro_batch_size": 8,
         "global_batch_size": 16, "padding_free": True, "packing": False, "recompute": "full"}
    if method == "lora":
        t.update(lora_rank=8, lora_targets="all_linear")
    t.update(extra)
    par = {"ep": 2, "zero": 1} if framework == "megatron-swift" else {"zero": 2}
    return scenario_from_dict({"model": {"preset": "qwen3-30b-a3b"}, "training": t, "parallel": par,
                               "hardware": {"gpu": "a800-sxm-80gb", "num_gpus": 2},
                               "data": {"mean_sample_len": 465}})


def test_tool_lora_dropout_defaults():
    # ms-swift TunerArguments / Megatron-SWIFT megatron_args.py: lora_dropout 0.05 when not given
    assert lora_dropout_of(scn().training) == pytest.approx(0.05)
    assert lora_dropout_of(scn(framework="ms-swift").training) == pytest.approx(0.05)
    # the user's own value wins, 0 included
    assert lora_dropout_of(scn(lora_dropout=0.0).training) == 0.0
    assert lora_dropout_of(scn(framework="ms-swift", lora_dropout=0.1).training) == pytest.approx(0.1)
    # PEFT's default elsewhere
    for fw in ("hf", "llamafactory", "trl"):
        assert lora_dropout_of(scn(framework=fw).training) == 0.0


def test_swift_adapter_ops_by_hand():
    # all-linear: linear_qkv and linear_proj are plain TE linears (PEFT's 4 forward / 6 backward ops each, + dropout),
    # the experts' fc1 and fc2 grouped (the same less their GEMMs: 2 forward, 4 backward, counted per expert)
    assert T.swift_lora_layer_ops("megatron-swift", True, "all_linear", 0.05, True) == (2 * 5 + 2 * 3, 2 * 7 + 2 * 3)
    assert T.swift_lora_layer_ops("megatron-swift", True, "all_linear", 0.0, True) == (2 * 4 + 2 * 2, 2 * 6 + 2 * 2)
    assert T.swift_lora_layer_ops("megatron-swift", True, "attention", 0.05, False) == (2 * 5, 2 * 7)
    assert T.swift_lora_layer_ops("megatron-swift", True, "qkv", 0.0, False) == (4, 6)
    # other tools (Megatron-Bridge's adapters not read), full fine-tuning: nothing
    assert T.swift_lora_layer_ops("megatron-bridge", True, "all_linear", 0.05, False) == (0.0, 0.0)
    assert T.swift_lora_layer_ops("megatron-swift", False, "all_linear", 0.05, True) == (0.0, 0.0)


def test_moe_host_parts_take_the_adapter_ops():
    m = resolve(scn()).facts
    f0, r0, b0 = T.moe_host_parts(m, "megatron", "bf16", 2, 1, lora_experts=True, rec_whole=1.0)
    f1, r1, b1 = T.moe_host_parts(m, "megatron", "bf16", 2, 1, lora_experts=True, rec_whole=1.0,
                                  adapter_ops=(16.0, 20.0))
    assert f1 == f0  # the per-expert GEMMs are unchanged
    assert r1 - r0 == pytest.approx(16 * 48 * EAGER_FWD_OP_S)  # 16 forward ops in each of 48 layers, from Python
    # the backward's 20 ops per layer from autograd, plus the recompute's re-issued forward ones
    assert b1 - b0 == pytest.approx(20 * 48 * EAGER_OP_S + 16 * 48 * EAGER_FWD_OP_S)
    # a whole-layer CUDA graph replays them
    g0 = T.moe_host_parts(m, "megatron", "bf16", 2, 1, "layer", lora_experts=True)
    g1 = T.moe_host_parts(m, "megatron", "bf16", 2, 1, "layer", lora_experts=True, adapter_ops=(16.0, 20.0))
    assert g1 == g0


def test_swift_moe_lora_row_pays_the_default_dropout():
    # the loss_scale.sh scenario: unset dropout = ms-swift's 0.05, slower than an explicit 0.0 by the dropout passes
    t_default = time_estimate(resolve(scn())).step_time_s
    t_zero = time_estimate(resolve(scn(lora_dropout=0.0))).step_time_s
    t_005 = time_estimate(resolve(scn(lora_dropout=0.05))).step_time_s
    assert t_default == pytest.approx(t_005)
    assert t_default > t_zero
    # the dropout on every adapted input (the experts' permuted tokens: top-8 x 2,048 and 8 x 768 per token) over
    # forward, recompute and backward: 2.5 16-bit elements per input element and pass (flops.LORA_DROPOUT_IN);
    # tens of milliseconds on an A800, not seconds
    assert 0.01 < t_default - t_zero < 0.2
    # still well below the published 3.4 s/it (the row stays too fast: host work not found in the code read)
    assert t_default < 3.4
