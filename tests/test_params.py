"""Exact parameter counts: presets against published counts, hand-derived breakdowns, config import."""

from __future__ import annotations

import json
import struct

import pytest

from gpuplanner.core.architecture import arch_from_hf_config, load_presets, resolve_arch
from gpuplanner.core.errors import ModelConfigError, ScenarioError
from gpuplanner.io.model_files import load_model_source
from gpuplanner.core.params import count_params, lora_params, tier
from gpuplanner.core.scenario import ModelSection

PRESETS = load_presets()
EXACT = sorted(pid for pid, p in PRESETS.items() if p.published_total is not None)


def test_at_least_25_presets_with_exact_counts():
    assert len(PRESETS) >= 25
    assert len(EXACT) >= 25


@pytest.mark.parametrize("pid", EXACT)
def test_preset_total_matches_published_count(pid):
    p = PRESETS[pid]
    assert count_params(p.arch).total == p.published_total


@pytest.mark.parametrize("pid", [pid for pid, p in PRESETS.items() if p.published_active])
def test_moe_active_close_to_published(pid):
    p = PRESETS[pid]
    # published active counts are rounded (and some exclude embeddings): within 12%
    assert count_params(p.arch).active == pytest.approx(p.published_active, rel=0.12)


LLAMA3_8B = dict(model_type="llama", hidden_size=4096, num_hidden_layers=32, num_attention_heads=32,
                 num_key_value_heads=8, intermediate_size=14336, vocab_size=128256, tie_word_embeddings=False)


def test_llama3_8b_breakdown_by_hand():
    c = count_params(arch_from_hf_config(LLAMA3_8B))
    attn = 4096 * 4096 * 2 + 4096 * 1024 * 2  # q, o + GQA k, v
    mlp = 3 * 4096 * 14336  # SwiGLU gate, up, down
    layer = attn + mlp + 2 * 4096  # two RMSNorm weights
    assert c.attention_per_layer == attn
    assert c.dense_layer == layer
    assert c.total == 32 * layer + 2 * 128256 * 4096 + 4096 == 8_030_261_248


def test_tied_embeddings_drop_the_head():
    untied = count_params(arch_from_hf_config(LLAMA3_8B)).total
    tied = count_params(arch_from_hf_config({**LLAMA3_8B, "tie_word_embeddings": True})).total
    assert untied - tied == 128256 * 4096


def test_gpt2_two_matrix_gelu_biases_learned_positions():
    a = arch_from_hf_config({"model_type": "gpt2", "n_embd": 768, "n_layer": 12, "n_head": 12,
                             "n_positions": 1024, "vocab_size": 50257})
    assert not a.gated_mlp and a.tie_word_embeddings
    layer = (768 * 2304 + 2304) + (768 * 768 + 768) + (768 * 3072 + 3072) + (3072 * 768 + 768) + 2 * 2 * 768
    assert count_params(a).total == 12 * layer + 50257 * 768 + 1024 * 768 + 2 * 768 == 124_439_808


def test_mixtral_total_and_active_by_hand():
    a = arch_from_hf_config({**LLAMA3_8B, "model_type": "mixtral", "vocab_size": 32000, "num_local_experts": 8,
                             "num_experts_per_tok": 2})
    c = count_params(a)
    expert = 3 * 4096 * 14336
    assert c.total - c.active == 32 * 6 * expert  # 6 inactive experts per layer
    assert c.total == 46_702_792_704


def test_qwen2_has_qkv_bias():
    base = dict(LLAMA3_8B, model_type="llama")
    q = count_params(arch_from_hf_config({**base, "model_type": "qwen2"})).total
    assert q - count_params(arch_from_hf_config(base)).total == 32 * (4096 + 1024 + 1024)


def test_deepseek_v3_mla_moe_counts():
    c = count_params(PRESETS["deepseek-v3"].arch)
    assert c.total == 671_026_419_200
    assert 36e9 < c.active < 38.5e9  # "37B activated" (DeepSeek-V3 report)


def test_lora_params_by_hand():
    a = arch_from_hf_config(LLAMA3_8B)
    r = 16
    attn = r * ((4096 + 4096) * 2 + (4096 + 1024) * 2)
    mlp = r * ((4096 + 14336) * 3)
    assert lora_params(a, r, "attention")[0] == 32 * attn
    assert lora_params(a, r, "all_linear")[0] == 32 * (attn + mlp)


def test_tiers():
    assert tier(8e9) == "10B" and tier(70e9) == "100B" and tier(671e9) == "1000B"


def _write_safetensors(path, tensors):
    header = {name: {"dtype": dt, "shape": shape, "data_offsets": [0, 0]} for name, (dt, shape) in tensors.items()}
    header["__metadata__"] = {"format": "pt"}
    raw = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(raw)) + raw)


def test_model_folder_reads_safetensors_headers(tmp_path):
    (tmp_path / "config.json").write_text(json.dumps(LLAMA3_8B))
    _write_safetensors(tmp_path / "model-00001.safetensors", {"a": ("BF16", [4096, 4096]), "b": ("BF16", [10])})
    _write_safetensors(tmp_path / "model-00002.safetensors", {"c": ("F32", [3, 5])})
    a = load_model_source(tmp_path)
    assert a.stored_params == 4096 * 4096 + 10 + 15
    assert a.stored_dtype == "BF16"


def test_model_folder_index_total_size(tmp_path):
    (tmp_path / "config.json").write_text(json.dumps({**LLAMA3_8B, "torch_dtype": "bfloat16"}))
    (tmp_path / "model.safetensors.index.json").write_text(
        json.dumps({"metadata": {"total_size": 16_060_522_496}, "weight_map": {}}))
    assert load_model_source(tmp_path).stored_params == 8_030_261_248


@pytest.mark.parametrize("content, msg", [
    ("{not json", "not valid JSON"),
    ("[1, 2]", "expected a JSON object"),
    (json.dumps({"model_type": "llama", "hidden_size": 64}), "missing"),
    (json.dumps({**LLAMA3_8B, "hidden_size": -5}), "whole number ≥ 1"),
])
def test_malformed_config_json_gives_clear_error(tmp_path, content, msg):
    f = tmp_path / "config.json"
    f.write_text(content)
    with pytest.raises(ModelConfigError, match=msg) as ei:
        load_model_source(f)
    assert "\n" not in str(ei.value)


def test_truncated_safetensors_is_an_error(tmp_path):
    (tmp_path / "config.json").write_text(json.dumps(LLAMA3_8B))
    (tmp_path / "x.safetensors").write_bytes(b"\x10\x00")
    with pytest.raises(ModelConfigError, match="truncated"):
        load_model_source(tmp_path)


def test_explicit_fields_override_preset_and_validate():
    a = resolve_arch(ModelSection(preset="llama-3-8b", vocab_size=32000))
    assert a.vocab_size == 32000
    with pytest.raises(ScenarioError, match="unknown preset"):
        resolve_arch(ModelSection(preset="llama-9-8b"))
    with pytest.raises(ScenarioError, match="num_key_value_heads"):
        resolve_arch(ModelSection(preset="llama-3-8b", num_key_value_heads=5))


@pytest.mark.parametrize("mt, cfg", [
    ("chatglm", "glm-4-9b"), ("gemma2", "gemma-2-9b"), ("qwen2_moe", "qwen1.5-moe-a2.7b"),
    ("deepseek_v3", "deepseek-v3"), ("bloom", "bloom-7b1"), ("gpt_neox", "gpt-neox-20b"),
])
def test_model_type_quirks_import(mt, cfg):
    p = PRESETS[cfg]
    assert p.config["model_type"] == mt
    assert count_params(arch_from_hf_config(p.config)).total == p.published_total


def test_falcon_opt_mpt_configs_import():
    falcon = arch_from_hf_config({"model_type": "falcon", "hidden_size": 4544, "num_hidden_layers": 32,
                                  "num_attention_heads": 71, "vocab_size": 65024, "multi_query": True,
                                  "parallel_attn": True, "bias": False})
    # Falcon-7B: 6,921,720,704 parameters (tiiuae/falcon-7b, safetensors total / 2)
    assert count_params(falcon).total == 6_921_720_704
    opt = arch_from_hf_config({"model_type": "opt", "hidden_size": 768, "num_hidden_layers": 12,
                               "num_attention_heads": 12, "ffn_dim": 3072, "vocab_size": 50272,
                               "max_position_embeddings": 2048})
    # OPT-125m: 125,239,296 parameters (facebook/opt-125m)
    assert count_params(opt).total == 125_239_296
    mpt = arch_from_hf_config({"model_type": "mpt", "d_model": 4096, "n_layers": 32, "n_heads": 32,
                               "vocab_size": 50432, "expansion_ratio": 4, "no_bias": True})
    # MPT-7B: 6,649,286,656 parameters (mosaicml/mpt-7b)
    assert count_params(mpt).total == 6_649_286_656
