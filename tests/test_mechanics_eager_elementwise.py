"""Eager PyTorch's element-wise traffic per op (issue 35 round 5, helper hopper): a LayerNorm and a single-kernel
activation (nn.GELU, F.gelu, ReLU) are one ATen kernel in eager PyTorch, so they carry the fused traffic, not
UNFUSED_FACTOR × it. Hand-derived values; the llm-foundry mapping checked against the tables' NumParams."""
import sys
from pathlib import Path

import pytest

from gpuplanner.core import timing as T
from gpuplanner.core.architecture import arch_from_hf_config
from gpuplanner.core.estimate import resolve
from gpuplanner.core.scenario import scenario_from_dict

ROOT = Path(__file__).resolve().parents[1]


def _mpt7b(norm="layernorm", act="gelu", gated=False):
    return resolve(scenario_from_dict({
        "model": {"name": "mpt-7b-like", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
                  "intermediate_size": 16384, "vocab_size": 50368, "gated_mlp": gated, "norm_type": norm,
                  "position_embedding": "learned", "max_position_embeddings": 2048, "hidden_act": act},
        "training": {"method": "pretrain", "precision": "bf16", "framework": "fsdp", "seq_len": 2048,
                     "micro_batch_size": 1, "global_batch_size": 8, "flash_attention": True},
        "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8, "gpus_per_node": 8},
    }))


def test_layernorm_and_gelu_carry_the_fused_traffic_in_eager_pytorch():
    h, f, qkv = 4096, 16384, 4096 + 4096  # q_dim + kv_dim
    r = _mpt7b()
    rep, split = T.elementwise_bytes_per_token_layer(r.facts, 2048, True, False)
    # norms 4h (one kernel each), residual adds 6h × 3 (eager judgement kept); GELU 2f (one kernel), RoPE 2·(q+kv) × 3
    assert rep == pytest.approx(2.0 * (4 * h + 6 * h * 3))  # 180,224 bytes
    assert split == pytest.approx(2.0 * (2 * f + 2 * qkv * 3))  # 163,840 bytes
    assert rep == 180224 and split == 163840


def test_decomposed_norm_and_activation_keep_the_unfused_factor():
    h, f, qkv = 4096, 16384, 8192
    rep, split = T.elementwise_bytes_per_token_layer(_mpt7b("rmsnorm", "gelu_new").facts, 2048, True, False)
    assert rep == pytest.approx(2.0 * (4 * h + 6 * h) * 3)  # 245,760
    assert split == pytest.approx(2.0 * (2 * f + 2 * qkv) * 3)  # 294,912
    # a gated MLP (SwiGLU: activation and product) keeps the factor whatever its activation's name
    _, split_g = T.elementwise_bytes_per_token_layer(_mpt7b(gated=True, act="silu").facts, 2048, True, False)
    assert split_g == pytest.approx(2.0 * (3 * f + 2 * qkv) * 3)


def test_fused_stacks_do_not_change():
    h, f, qkv = 4096, 16384, 8192
    for norm, act in (("layernorm", "gelu"), ("rmsnorm", "gelu_new")):
        rep, split = T.elementwise_bytes_per_token_layer(_mpt7b(norm, act).facts, 2048, True, True)
        assert rep == pytest.approx(2.0 * 10 * h) and split == pytest.approx(2.0 * (2 * f + 2 * qkv))


def test_the_eager_step_gets_shorter_by_the_saved_bytes():
    """The time of the memory-bound part falls by exactly the bytes saved, over HBM at MEM_BW_EFFICIENCY."""
    a, b = _mpt7b(), _mpt7b("rmsnorm", "gelu_new")
    kw_a, _ = T.time_kwargs(a)
    kw_b, _ = T.time_kwargs(b)
    common = dict(tp=1, pp=1, cp=1, ep=1, dp=8, sp=False, grad_accum=1, vpp=1, num_gpus=8, gpus_per_node=8,
                  offload=False, recompute=0, mbs=1, zero=3)
    la = T.time_layout(a.facts, **{k: v for k, v in kw_a.items() if k not in T.GPU_TIME_ARGS}, **common)
    lb = T.time_layout(b.facts, **{k: v for k, v in kw_b.items() if k not in T.GPU_TIME_ARGS}, **common)
    # saved per token: norms 4h·2 bytes·(3 − 1) + GELU 2f·2·(3 − 1), over 3 passes and 32 layers
    saved = (4 * 4096 * 2 * 2 + 2 * 16384 * 2 * 2) * 3 * 32
    assert lb["mem_tok_bytes"] - la["mem_tok_bytes"] == pytest.approx(saved, rel=1e-9)


@pytest.mark.parametrize("cfg,act", [
    ({"model_type": "mpt", "d_model": 256, "n_heads": 4, "n_layers": 2, "vocab_size": 1000}, "gelu"),
    ({"model_type": "mpt", "d_model": 256, "n_heads": 4, "n_layers": 2, "vocab_size": 1000,
      "ffn_config": {"ffn_act_fn": {"name": "relu"}}}, "relu"),
    ({"model_type": "gpt2", "n_embd": 256, "n_head": 4, "n_layer": 2, "vocab_size": 1000}, "gelu_new"),
    ({"model_type": "opt", "hidden_size": 256, "num_attention_heads": 4, "num_hidden_layers": 2,
      "ffn_dim": 1024, "vocab_size": 1000, "max_position_embeddings": 2048}, "relu"),
    ({"model_type": "llama", "hidden_size": 256, "num_attention_heads": 4, "num_hidden_layers": 2,
      "intermediate_size": 688, "vocab_size": 1000}, "silu"),
])
def test_configs_name_their_activation(cfg, act):
    assert arch_from_hf_config(cfg).mlp_act == act


def test_hostile_activation_name_is_refused():
    with pytest.raises(Exception):
        scenario_from_dict({"model": {"name": "x", "hidden_act": "gelu; rm -rf /"}})


def test_llm_foundry_mapping_matches_the_published_parameter_counts():
    """llm-foundry's benchmark tables give NumParams per row; v0.3.0's MPT (learned positions, biases) matches
    every one of them exactly (the ALiBi, bias-free mapping did not)."""
    sys.path.insert(0, str(ROOT / "bench"))
    import validate_time as V

    if not V.CAL.exists():
        pytest.skip("calibration-runs.jsonl (../shared/reference) not available")
    foundry = [r for r in V.throughput_rows() if r["id"].startswith("llmfoundry")]
    assert len(foundry) == 18
    for r in foundry:
        d, _ = V.foundry_scenario(r)
        assert resolve(scenario_from_dict(d)).params.total == r["other_metrics"]["num_params_exact"], r["id"]
