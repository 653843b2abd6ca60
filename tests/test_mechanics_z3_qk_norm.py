"""DeepSpeed ZeRO-3 hooks the query/key norms of a ``qk_norm`` model (OLMo 2, Qwen3) as two more submodules a layer
(core/zero3.py ``Z3_QK_NORM_MODULES``; round 12, z3host12): hand counts against Llama, the gradient tensors of the
reduce path, the prefetch walk, and the open-instruct OLMo 2 row's host time moving by exactly the hand-derived
amount."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

from gpuplanner.core import zero3 as Z
from gpuplanner.core.estimate import resolve
from gpuplanner.core.methods import EAGER_FWD_OP_S, EAGER_OP_S
from gpuplanner.core.scenario import scenario_from_dict

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import validate_post_time as pt  # noqa: E402


def _arch(model):
    d = {"model": model, "training": {"framework": "deepspeed", "method": "full", "seq_len": 2048,
                                      "ds_config_auto": True},
         "parallel": {"zero": 3}, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 32, "gpus_per_node": 8},
         "data": {"tokens": 1e9}}
    return resolve(scenario_from_dict(d)).facts.arch


def test_olmo2_layer_hand_count():
    """OLMo 2 7B: 15 hooked modules a layer (the layer, attention, q_norm, k_norm, 2 norms, MLP, act_fn, 7 linears)
    × 5 + 7 partitioned weights × (3 + 4) = 124 ops a pass; 11 trainable tensors (7 weights, 2 norms, q_norm,
    k_norm) × 2 in the backward. Llama-3.1-8B (no qk_norm) stays at 114 / 18."""
    olmo = _arch(pt.OLMO2_7B)
    assert olmo.qk_norm
    assert Z.z3_ops_layer(olmo, "hf", "hf", "full", 0, "attention") == pytest.approx((15 * 5 + 7 * 7, 11 * 2))
    llama = _arch({"preset": "llama-3.1-8b"})
    assert not llama.qk_norm
    assert Z.z3_ops_layer(llama, "hf", "hf", "full", 0, "attention") == pytest.approx((114.0, 18.0))
    # the same arch without the flag: back to 13 modules and 9 tensors
    plain = dataclasses.replace(olmo, qk_norm=False)
    assert Z.z3_ops_layer(plain, "hf", "hf", "full", 0, "attention") == pytest.approx((114.0, 18.0))


def test_reduce_path_and_walk_count_the_norms():
    """Two more gradient tensors a layer (small: they join the buckets, no new reduce-scatter under HF ``auto``), and
    two weightless modules in the prefetch walk, right after q_proj and k_proj."""
    olmo = _arch(pt.OLMO2_7B)
    plain = dataclasses.replace(olmo, qk_norm=False)
    rs_q, t_q = Z.z3_rs_ops_layer(olmo, "hf", "full", 0, "attention")
    rs_p, t_p = Z.z3_rs_ops_layer(plain, "hf", "full", 0, "attention")
    assert (rs_q, t_q - t_p) == pytest.approx((rs_p, 2.0))
    seq = Z._hooked_weights(olmo, False, 0.0, 0.0, "attention", 0)
    seq_p = Z._hooked_weights(plain, False, 0.0, 0.0, "attention", 0)
    h2 = float(olmo.hidden_size) ** 2
    assert len(seq) == len(seq_p) + 2 == 15
    assert seq[3:8] == [h2, 0.0, h2, 0.0, h2]  # q_proj, q_norm, k_proj, k_norm, v_proj
    # OLMo 2's weights each fill the HF prefetch bucket alone: the walk's loop count is unchanged
    assert Z.z3_prefetch_groups_layer(olmo, "hf", "full", 0, "attention") == \
        Z.z3_prefetch_groups_layer(plain, "hf", "full", 0, "attention")


def test_open_instruct_olmo_host_moves_by_hand():
    """Per layer and micro-batch on 32 ranks with full recompute: 2 modules × 5 ops × 3 passes at 24 µs, 2 tensors ×
    2 gradient-hook ops at 24 µs, and 2 tensors × (8 + 32) reduce-path ops at 10 µs: 1.616 ms a layer."""
    olmo = _arch(pt.OLMO2_7B)
    plain = dataclasses.replace(olmo, qk_norm=False)
    hook = (Z.z3_host_seconds_layer(olmo, "hf", "hf", "full", 0, "attention", 1.0)
            - Z.z3_host_seconds_layer(plain, "hf", "hf", "full", 0, "attention", 1.0))
    rs = (Z.z3_rs_host_seconds_layer(olmo, "hf", "full", 0, "attention", 32.0)
          - Z.z3_rs_host_seconds_layer(plain, "hf", "full", 0, "attention", 32.0))
    assert hook == pytest.approx(2 * 5 * 3 * EAGER_FWD_OP_S + 2 * 2 * EAGER_FWD_OP_S)
    assert rs == pytest.approx(2 * (8 + 32) * EAGER_OP_S)
    assert (hook + rs) * 32 == pytest.approx(0.0517, abs=1e-4)


def test_olmo2_config_json_sets_the_flag():
    """The hook count keys on the model fact ``qk_norm``, which an OLMo 2 ``config.json`` (model_type ``olmo2``) now
    sets (architecture.LLAMA_VARIANTS; review r12): the same ops as the bench's explicit facts."""
    from gpuplanner.core.architecture import arch_from_hf_config

    cfg = {"architectures": ["Olmo2ForCausalLM"], "model_type": "olmo2", "hidden_size": 4096,
           "intermediate_size": 11008, "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 32,
           "vocab_size": 100352, "hidden_act": "silu", "tie_word_embeddings": False, "attention_bias": False}
    a = arch_from_hf_config(cfg)
    assert a.qk_norm
    assert Z.z3_ops_layer(a, "hf", "hf", "full", 0, "attention") == \
        Z.z3_ops_layer(_arch(pt.OLMO2_7B), "hf", "hf", "full", 0, "attention") == pytest.approx((15 * 5 + 7 * 7, 22))
    # a Llama config.json stays without it
    assert not arch_from_hf_config({**cfg, "architectures": ["LlamaForCausalLM"], "model_type": "llama"}).qk_norm
