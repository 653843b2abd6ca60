"""Hostile input, round 15: further than ``bench/probe_hostile_r14.py`` where the product grew in rounds 14-15
(``training.lora_layer``, ``fsdp_no_sync``, ``fsdp_lora_mixed_units``, ``hardware.gpus_per_node``, the block-FP8
``quantization_config.weight_block_size`` read from a config.json) and where earlier probes did not reach: Hugging
Face configs with JSON ``NaN``/``Infinity`` tokens, string-typed and null fields, nested text/vision configs, MoE and
RoPE fields of every kind; quote sheets with zero prices, spreadsheet dimensions that lie, decompression bombs and
cells an exported CSV must not turn into formulas; kit results with odd figures; the settings file's language; CLI
options at and past their bounds.

    python bench/probe_hostile_r15.py [--only SUBSTRING] [--list] [--fork]

The runner and the rules are ``bench/probe_lib.py``'s (one printable ``gpuplanner: error:`` line of at most 400 characters naming
the listed words, exit 2, no traceback or pydantic dump, no control/bidi characters on stdout, nothing written but
what was asked, at most 20 s a case). The "direct checks" call the readers and writers the app's pages call
(quote sheet export, the Hugging Face cache listing, the model-folder reader) and judge them the same way.
"""

from __future__ import annotations

import copy
import csv
import io
import json
import math
import os
import sys
import tempfile
import time
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import probe_lib  # noqa: E402  (the runner, the judge and the shared builders)
from probe_lib import (  # noqa: E402
    _DEL, EXAMPLE, FORMULA_LEADS, KIT_MN, LORA_JSON, MEG, PLAN_LORA, QUOTES, SETTINGS, TOPO, Case, cfg_case, k,
    patched, q, s, t)

_cfg, _xlsx, _sheet_csv, _kit, _plan, _printable_line = (
    probe_lib.cfg, probe_lib.xlsx, probe_lib.sheet_csv, probe_lib.kit_text, probe_lib.plan_text,
    probe_lib.printable_line)


def _kit_mn(fn) -> str:
    return _kit(fn, KIT_MN)


LORA = json.loads(LORA_JSON.read_text(encoding="utf-8"))
HF_LORA = {"training__framework": "hf", "training__method": "lora"}


# ------------------------------------------------------------------------------------------ round 14-15 fields

def field_cases() -> list[Case]:
    e, lo = EXAMPLE, LORA
    return [
        s("lora_layer 'triton' (unknown)", lo, ("training.lora_layer", "triton"), training__lora_layer="triton"),
        s("lora_layer 7", lo, ("training.lora_layer",), training__lora_layer=7),
        s("lora_layer null", lo, ("training.lora_layer",), expect="0|2", training__lora_layer=None),
        s("lora_layer 'AUTOMODEL'", lo, ("training.lora_layer",), training__lora_layer="AUTOMODEL"),
        s("lora_layer automodel + RLO", lo, ("training.lora_layer",), training__lora_layer="automodel\u202e"),
        s("lora_layer automodel, method full", e, ("lora_layer",), training__lora_layer="automodel"),
        s("lora_layer automodel + dora", lo, ("lora_layer",), training__lora_layer="automodel", training__dora=True),
        s("lora_layer automodel on megatron", lo, ("lora_layer",), training__lora_layer="automodel",
          training__framework="megatron"),
        s("lora_layer automodel, candidates megatron only", lo, ("lora_layer",), cmd="plan",
          training__lora_layer="automodel", training__framework=_DEL,
          constraints__framework_candidates=["megatron"]),
        s("lora_layer automodel_triton ok", lo, (), expect="0", training__lora_layer="automodel_triton"),
        s("fsdp_no_sync 2", lo, ("training.fsdp_no_sync",), training__fsdp_no_sync=2),
        s("fsdp_no_sync 'yes' (pydantic lax bool)", lo, (), expect="0|2", training__fsdp_no_sync="yes"),
        s("fsdp_no_sync [true]", lo, ("training.fsdp_no_sync",), training__fsdp_no_sync=[True]),
        s("fsdp_no_sync on megatron", e, ("fsdp_no_sync",), training__fsdp_no_sync=True, **MEG),
        s("fsdp_no_sync with zero 1", e, ("fsdp_no_sync",), training__fsdp_no_sync=True, parallel__zero=1),
        s("fsdp_no_sync with zero 3 ok", e, (), expect="0", training__fsdp_no_sync=True, training__framework="hf",
          parallel__zero=3),
        s("fsdp_lora_mixed_units on full", e, ("fsdp_lora_mixed_units",), training__fsdp_lora_mixed_units=True,
          training__framework="hf", parallel__zero=3),
        s("fsdp_lora_mixed_units null", e, ("training.fsdp_lora_mixed_units",), training__fsdp_lora_mixed_units=None),
        s("fsdp_lora_mixed_units on qlora", lo, ("fsdp_lora_mixed_units",), training__fsdp_lora_mixed_units=True,
          training__method="qlora", parallel__zero=3),
        s("fsdp_lora_mixed_units on deepspeed", lo, ("fsdp_lora_mixed_units",), training__fsdp_lora_mixed_units=True,
          training__framework="deepspeed", parallel__zero=3),
        s("gpus_per_node 0", e, ("hardware.gpus_per_node", "0"), hardware__gpus_per_node=0),
        s("gpus_per_node 65", e, ("hardware.gpus_per_node", "65"), hardware__gpus_per_node=65),
        s("gpus_per_node -8", e, ("hardware.gpus_per_node",), hardware__gpus_per_node=-8),
        s("gpus_per_node 8.5", e, ("hardware.gpus_per_node",), hardware__gpus_per_node=8.5),
        s("gpus_per_node 'eight'", e, ("hardware.gpus_per_node",), hardware__gpus_per_node="eight"),
        s("gpus_per_node null", e, ("hardware.gpus_per_node",), hardware__gpus_per_node=None),
        s("gpus_per_node NaN", e, ("hardware.gpus_per_node",), hardware__gpus_per_node=float("nan")),
        s("gpus_per_node 3, 8 GPUs", e, ("hardware.num_gpus", "3 GPUs"), hardware__gpus_per_node=3),
        s("gpus_per_node 1, 1,000,000 GPUs", e, (), expect="0|2", hardware__gpus_per_node=1,
          hardware__num_gpus=1_000_000),
        s("gpus_per_node 64, tp 64", e, (), expect="0|2", hardware__gpus_per_node=64, hardware__num_gpus=64,
          parallel__tp=64),
        s("gpus_per_node 2, tp 8 across 4 nodes (megatron)", e, (), expect="0|2", hardware__gpus_per_node=2,
          parallel__tp=8, **MEG),
        s("gpus_per_node 3 plan", e, ("num_gpus", "3 GPUs"), cmd="plan", expect="0|2", hardware__gpus_per_node=3),
        s("custom gpu gpus_per_node 65", e, ("gpus_per_node",),
          hardware__custom_gpus=[{"id": "custom-a", "name": "A", "memory_gib": 80, "gpus_per_node": 65}]),
        s("nics_per_node 0", e, ("hardware.nics_per_node",), hardware__nics_per_node=0),
        s("host_ram_gib NaN", e, ("hardware.host_ram_gib",), hardware__host_ram_gib=float("nan")),
        s("host_ram_gib Infinity", e, ("hardware.host_ram_gib",), hardware__host_ram_gib=float("inf")),
        s("host_ram_gib 1e-300", e, (), expect="0|2", hardware__host_ram_gib=1e-300),
        s("num_gpus 1,000,000 plan", e, (), cmd="plan", expect="0|2", hardware__num_gpus=1_000_000),
        s("num_gpus 2**63", e, ("hardware.num_gpus",), hardware__num_gpus=2**63),
        s("seq_len 2**40", e, ("seq_len",), training__seq_len=2**40),
        s("model.preset 10,000 chars", e, ("model",), model__preset="x" * 10_000),
        s("model.preset with ESC/RLO", e, ("model",), model__preset="\x1b[2J\u202ellama"),
        s("model.hf_config ../../etc", e, ("model.hf_config",), model__preset=None, model__hf_config="../../etc"),
        s("model.hf_config 'org/name@../../x'", e, ("model.hf_config",), model__preset=None,
          model__hf_config="org/name@../../x"),
        s("model.hf_config NUL", e, ("model.hf_config",), model__preset=None, model__hf_config="m\x00"),
        s("unknown top-level key 10,000 chars", e, (), expect="0|2", **{"k" * 10_000: 1}),
        Case("scenario a bare number", ["estimate", "s.json"], {"s.json": "5"}, "2", ("s.json",)),
        Case("scenario JSON NaN token at top", ["estimate", "s.json"], {"s.json": "NaN"}, "2", ("s.json",)),
        Case("scenario duplicate keys", ["estimate", "s.json"],
             {"s.json": json.dumps(EXAMPLE)[:-1] + ', "hardware": {"gpu": "a100-sxm-80gb"}}'}, "0|2"),
        Case("scenario BOM + UTF-8", ["estimate", "s.json"], {"s.json": b"\xef\xbb\xbf" + json.dumps(EXAMPLE).encode()},
             "0|2"),
        Case("scenario UTF-16", ["estimate", "s.json"], {"s.json": json.dumps(EXAMPLE).encode("utf-16")}, "0|2"),
        Case("scenario 1e400 number", ["estimate", "s.json"],
             {"s.json": json.dumps(EXAMPLE).replace('"num_gpus": 8', '"num_gpus": 1e400')}, "2", ("num_gpus",)),
    ]


def serving_cases() -> list[Case]:
    plan, serve = probe_lib.project_plan()
    case = probe_lib.serving_case

    big = copy.deepcopy(plan)
    phases = big["project"]["phases"]
    research, train, serving = phases[1], phases[2], phases[serve]
    rows = [dict(copy.deepcopy(research), name=f"r{i}", weeks=1) for i in range(32)]
    for i in range(31):
        x = dict(copy.deepcopy(serving), name=f"s{i}", weeks=1)
        x["inference"].update(gpu=None, gpu_candidates=None, concurrency=1_000_000)
        rows.append(x)
    big["project"]["phases"] = [*rows, copy.deepcopy(train)]  # 64: Project.phases' bound
    big["project"]["main_phase"] = train["name"]
    return [
        Case("project 64 phases: report", ["report", "p.gpuplan", "-o", "r.pdf"], {"p.gpuplan": json.dumps(big)}, "0",
             outputs=("r.pdf",)),
        Case("project 64 phases: project --json", ["project", "p.gpuplan", "--json"], {"p.gpuplan": json.dumps(big)},
             "0", max_out=5_000_000),
        case("serve concurrency 1,000,000, context 10,000,000", (), expect="0|2", concurrency=1_000_000,
             context_tokens=10_000_000, output_tokens=1),
        case("serve gpu_candidates 200 unknown", ("gpu_candidates",), expect="0|2",
             gpu_candidates=[f"gpu-{i}\u202e" for i in range(200)]),
        case("serve tokens_per_s_per_user 1e-300", (), expect="0|2", tokens_per_s_per_user=1e-300),
        case("serve engine 'VLLM'", ("engine",), engine="VLLM"),
        case("serve prompt_tokens 0", ("prompt_tokens",), prompt_tokens=0),
        case("serve gpu_memory_utilization NaN", ("gpu_memory_utilization",), gpu_memory_utilization=float("nan")),
    ]


# ------------------------------------------------------------------------------------------ config.json

DS3 = dict(model_type="deepseek_v3", kv_lora_rank=64, q_lora_rank=64, qk_rope_head_dim=16, qk_nope_head_dim=32,
           v_head_dim=32, n_routed_experts=8, num_experts_per_tok=2, moe_intermediate_size=64)
QMOE = dict(model_type="qwen2_moe", num_experts=8, num_experts_per_tok=2, moe_intermediate_size=64,
            shared_expert_intermediate_size=128)


def _raw(**over) -> str:
    """A config.json with raw JSON tokens (NaN, Infinity, -Infinity) where ``over`` gives ``RAW:token``."""
    text = _cfg(**{k: (f"@@{v}@@" if isinstance(v, str) and v.startswith("RAW:") else v) for k, v in over.items()})
    import re
    return re.sub(r'"@@RAW:([^@]*)@@"', r"\1", text)


def _vl(**vision) -> str:
    base = {"model_type": "qwen2_vl", "hidden_size": 512, "num_hidden_layers": 2, "num_attention_heads": 8,
            "num_key_value_heads": 8, "vocab_size": 1000, "intermediate_size": 1024,
            "vision_config": {"depth": 2, "embed_dim": 64, "num_heads": 4, "mlp_ratio": 4, "patch_size": 14,
                              "spatial_merge_size": 2, "hidden_size": 512, "in_chans": 3}}
    base["vision_config"].update(vision)
    return json.dumps(base)


def _llava(**vision) -> str:
    text = json.loads(_cfg())
    text.pop("model_type")
    base = {"model_type": "llava", "text_config": {"model_type": "llama", **text},
            "vision_config": {"model_type": "clip_vision_model", "hidden_size": 64, "num_hidden_layers": 2,
                              "num_attention_heads": 4, "intermediate_size": 128, "patch_size": 14,
                              "image_size": 336}}
    base["vision_config"].update(vision)
    return json.dumps(base)


def config_cases() -> list[Case]:
    c = cfg_case
    return [
        c("config hidden_size NaN token", ("hidden_size",), _raw(hidden_size="RAW:NaN")),
        c("config hidden_size Infinity token", ("hidden_size",), _raw(hidden_size="RAW:Infinity")),
        c("config num_hidden_layers -Infinity token", ("num_hidden_layers",), _raw(num_hidden_layers="RAW:-Infinity")),
        c("config rms_norm_eps NaN token", (), _raw(rms_norm_eps="RAW:NaN"), expect="0|2"),
        c("config hidden_size '512' (string)", ("hidden_size",), _cfg(hidden_size="512")),
        c("config hidden_size null", ("hidden_size",), _cfg(hidden_size=None), expect="0|2"),
        c("config hidden_size 1e3 (a float)", (), _raw(hidden_size="RAW:5.12e2"), expect="0|2"),
        c("config vocab_size 2**40", ("vocab_size",), _cfg(vocab_size=2**40)),
        c("config vocab_size 2**41", ("vocab_size",), _cfg(vocab_size=2**41)),
        c("config num_key_value_heads null (= heads)", (), _cfg(num_key_value_heads=None), expect="0"),
        c("config num_key_value_heads '8'", ("num_key_value_heads",), _cfg(num_key_value_heads="8")),
        c("config max_position_embeddings 'inf'", (), _cfg(max_position_embeddings="inf"), expect="0|2"),
        c("config max_position_embeddings 2**62", (), _cfg(max_position_embeddings=2**62), expect="0|2"),
        c("config tie_word_embeddings 'no'", (), _cfg(tie_word_embeddings="no"), expect="0|2"),
        c("config tie_word_embeddings 2", (), _cfg(tie_word_embeddings=2), expect="0|2"),
        c("config model_type 5", (), _cfg(model_type=5), expect="0|2"),
        c("config model_type null", (), _cfg(model_type=None), expect="0|2"),
        c("config model_type with ESC/RLO", (), _cfg(model_type="ll\x1b[2J\u202eama"), expect="0|2"),
        c("config architectures a string", (), _cfg(architectures="LlamaForCausalLM"), expect="0|2"),
        c("config architectures 100,000 entries", (), _cfg(architectures=["X"] * 100_000), expect="0|2"),
        c("config hidden_act 10,000 chars", (), _cfg(hidden_act="g" * 10_000), expect="0|2"),
        c("config hidden_act 5", (), _cfg(hidden_act=5), expect="0|2"),
        c("config head_dim '64'", ("head_dim",), _cfg(head_dim="64")),
        c("config BOM", (), "\ufeff" + _cfg(), expect="0|2"),
        c("config UTF-16", ("config.json",), _cfg().encode("utf-16")),
        c("config duplicate hidden_size", (), _cfg()[:-1] + ', "hidden_size": 1024}', expect="0|2"),
        c("config 60 MB", ("config.json",), _cfg()[:-1] + ', "pad": "' + "x" * 60_000_000 + '"}'),
        # rope_scaling
        c("rope_scaling a string", (), _cfg(rope_scaling="linear"), expect="0|2"),
        c("rope_scaling a list", (), _cfg(rope_scaling=[{"type": "linear", "factor": 4}]), expect="0|2"),
        c("rope_scaling factor NaN token", (), _cfg(rope_scaling={"type": "linear", "factor": float("nan")}),
          expect="0|2"),
        c("rope_scaling factor '4'", (), _cfg(rope_scaling={"type": "yarn", "factor": "4"}), expect="0|2"),
        c("rope_scaling factor 1e308", (), _cfg(rope_scaling={"type": "yarn", "factor": 1e308}), expect="0|2"),
        c("rope_scaling original 2**62 factor 1024", (),
          _cfg(rope_scaling={"type": "yarn", "factor": 1024, "original_max_position_embeddings": 2**62}),
          expect="0|2"),
        c("rope_scaling type 1 MB", (), _cfg(rope_scaling={"type": "y" * 1_000_000, "factor": 2}), expect="0|2"),
        c("rope_theta -1", (), _cfg(rope_theta=-1), expect="0|2"),
        # quantization_config (block FP8, round 14)
        c("weight_block_size [0, 128]", ("weight_block_size",),
          _cfg(quantization_config={"quant_method": "fp8", "weight_block_size": [0, 128]})),
        c("weight_block_size [-128, 128]", ("weight_block_size",),
          _cfg(quantization_config={"quant_method": "fp8", "weight_block_size": [-128, 128]})),
        c("weight_block_size [128]", ("weight_block_size",),
          _cfg(quantization_config={"quant_method": "fp8", "weight_block_size": [128]})),
        c("weight_block_size '128,128'", ("weight_block_size",),
          _cfg(quantization_config={"quant_method": "fp8", "weight_block_size": "128,128"})),
        c("weight_block_size [128.0, 128.0]", (), expect="0|2",
          cfg_text=_cfg(quantization_config={"quant_method": "fp8", "weight_block_size": [128.0, 128.0]})),
        c("weight_block_size [true, 128]", ("weight_block_size",),
          _cfg(quantization_config={"quant_method": "fp8", "weight_block_size": [True, 128]})),
        c("weight_block_size [2**41, 1]", ("weight_block_size",),
          _cfg(quantization_config={"quant_method": "fp8", "weight_block_size": [2**41, 1]})),
        c("weight_block_size [NaN, 128]", ("weight_block_size",),
          _cfg(quantization_config={"quant_method": "fp8", "weight_block_size": [float("nan"), 128]})),
        c("weight_block_size [10**6, 10**6] (past the matrix)", ("weight_block_size",), expect="0|2",
          cfg_text=_cfg(quantization_config={"quant_method": "fp8", "weight_block_size": [10**6, 10**6]})),
        c("weight_block_size with quant_method awq", (), expect="0|2",
          cfg_text=_cfg(quantization_config={"quant_method": "awq", "weight_block_size": [128, 128]})),
        c("quantization_config a list", (), _cfg(quantization_config=[1]), expect="0|2"),
        c("quantization_config a string", (), _cfg(quantization_config="fp8"), expect="0|2"),
        c("quantization_config bits 0", (), _cfg(quantization_config={"quant_method": "gptq", "bits": 0}),
          expect="0|2"),
        # MoE fields
        c("qwen2_moe experts_per_tok 0", ("num_experts_per_tok",), _cfg(**{**QMOE, "num_experts_per_tok": 0})),
        c("qwen2_moe experts '8'", ("num_experts",), _cfg(**{**QMOE, "num_experts": "8"})),
        c("qwen2_moe moe_intermediate_size 0", ("moe_intermediate_size",),
          _cfg(**{**QMOE, "moe_intermediate_size": 0})),
        c("qwen2_moe shared_expert 10**12", ("shared_expert_intermediate_size",), expect="0|2",
          cfg_text=_cfg(**{**QMOE, "shared_expert_intermediate_size": 10**12})),
        c("qwen2_moe decoder_sparse_step 0", (), _cfg(**{**QMOE, "decoder_sparse_step": 0}), expect="0|2"),
        c("qwen2_moe decoder_sparse_step -1", (), _cfg(**{**QMOE, "decoder_sparse_step": -1}), expect="0|2"),
        c("qwen2_moe mlp_only_layers ['x', -1, 10**6]", (), _cfg(**{**QMOE, "mlp_only_layers": ["x", -1, 10**6]}),
          expect="0|2"),
        c("qwen2_moe mlp_only_layers a number", (), _cfg(**{**QMOE, "mlp_only_layers": 3}), expect="0|2"),
        c("qwen3_moe experts 10**6, top 10**6", (), expect="0|2",
          cfg_text=_cfg(**{**QMOE, "model_type": "qwen3_moe", "num_experts": 10**6, "num_experts_per_tok": 10**6})),
        c("deepseek_v3 n_shared_experts -1", ("n_shared_experts",), expect="0|2",
          cfg_text=_cfg(**{**DS3, "n_shared_experts": -1})),
        c("deepseek_v3 n_routed_experts null", (), _cfg(**{**DS3, "n_routed_experts": None}), expect="0|2"),
        c("deepseek_v3 moe_layer_freq 0", (), _cfg(**{**DS3, "moe_layer_freq": 0}), expect="0|2"),
        c("deepseek_v3 qk_rope_head_dim -16", ("qk_rope_head_dim",), _cfg(**{**DS3, "qk_rope_head_dim": -16})),
        c("deepseek_v3 q_lora_rank 0", (), _cfg(**{**DS3, "q_lora_rank": 0}), expect="0|2"),
        c("deepseek_v3 topk_group 10**6", (), _cfg(**{**DS3, "topk_group": 10**6, "n_group": 0}), expect="0|2"),
        c("mixtral num_local_experts 8.0", (), expect="0|2",
          cfg_text=_cfg(model_type="mixtral", num_local_experts=8.0, num_experts_per_tok=2)),
        c("llama4 interleave_moe_layer_step 0", (), expect="0|2",
          cfg_text=json.dumps({"model_type": "llama4", "text_config": json.loads(_cfg(
              model_type="llama4_text", num_local_experts=4, num_experts_per_tok=1, intermediate_size_mlp=2048,
              interleave_moe_layer_step=0))})),
        # nested text/vision configs
        c("llava text_config a string", (), json.dumps({"model_type": "llava", "text_config": "llama"}), expect="0|2"),
        c("llava text_config a list", (), json.dumps({"model_type": "llava", "text_config": [1]}), expect="0|2"),
        c("llava text_config {} (no sizes)", (), json.dumps({"model_type": "llava", "text_config": {}}),
          expect="0|2"),
        c("llava vision image_size 10**9", ("image_size",), _llava(image_size=10**9), expect="0|2"),
        c("llava vision patch_size 0", ("patch",), _llava(patch_size=0), expect="0|2"),
        c("llava vision hidden_size NaN", (), _llava(hidden_size=float("nan")), expect="0|2"),
        c("llava vision_config a list", (), json.dumps({**json.loads(_llava()), "vision_config": [1]}),
          expect="0|2"),
        c("qwen2_vl vision depth 0", ("depth",), _vl(depth=0), expect="0|2"),
        c("qwen2_vl vision depth 10**9", (), _vl(depth=10**9), expect="0|2"),
        c("qwen2_vl spatial_merge_size 0", (), _vl(spatial_merge_size=0), expect="0|2"),
        c("qwen2_vl mlp_ratio -4", (), _vl(mlp_ratio=-4), expect="0|2"),
        c("qwen2_vl mlp_ratio 'x'", (), _vl(mlp_ratio="x"), expect="0|2"),
        c("qwen2_vl embed_dim 10**12", (), _vl(embed_dim=10**12), expect="0|2"),
        c("internvl vision a string", (), json.dumps({"model_type": "internvl_chat", "llm_config":
                                                      json.loads(_cfg()), "vision_config": "x"}), expect="0|2"),
        c("internvl force_image_size -1", (), json.dumps(
            {"model_type": "internvl_chat", "llm_config": json.loads(_cfg()), "force_image_size": -1,
             "downsample_ratio": 0, "vision_config": {"hidden_size": 64, "num_hidden_layers": 2,
                                                       "num_attention_heads": 4, "intermediate_size": 128,
                                                       "patch_size": 14, "image_size": 448}}), expect="0|2"),
    ]


# ------------------------------------------------------------------------------------------ quote sheets

def _x_zero(wb, ws):
    ws["C4"] = 0


def _x_dimension_lie(wb, ws):
    pass  # the lie is put in the XML afterwards (_lying_dimension)


def _lying_dimension() -> bytes:
    """A workbook whose sheet XML declares ``A1:XFD1048576`` (openpyxl's read-only reader trusts the dimension)."""
    raw = _xlsx(_x_dimension_lie)
    zin = zipfile.ZipFile(io.BytesIO(raw))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename.startswith("xl/worksheets/sheet"):
                import re
                data = re.sub(rb'<dimension ref="[^"]*"/>', b'<dimension ref="A1:XFD1048576"/>', data)
            zout.writestr(item, data)
    return out.getvalue()


def _bomb(extra_rows: int = 0) -> bytes:
    """A workbook whose sheet XML inflates to 300 MB (whitespace inside the sheet data) from a ~300 kB file."""
    raw = _xlsx(lambda wb, ws: None)
    zin = zipfile.ZipFile(io.BytesIO(raw))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename.startswith("xl/worksheets/sheet"):
                data = data.replace(b"<sheetData>", b"<sheetData>" + b" " * 300_000_000, 1)
            zout.writestr(item.filename, data)
    return out.getvalue()


def _x_rows_far(wb, ws):
    ws.cell(row=1_048_576, column=1, value="note")


def _x_unicode(wb, ws):
    ws["C2"] = "\u0645\u0632\u0648\u062f \u202e\u2066GPU\u2069"  # an Arabic name with RLO/isolates


def _x_ctrl(wb, ws):
    ws["C2"] = "a\u200b\u200fb\u00ad"  # zero-width and soft hyphen


def _x_datetime_term(wb, ws):
    import datetime as dt
    ws["F4"] = dt.datetime(2026, 1, 1)


def _x_huge_int(wb, ws):
    ws["C4"] = 10**30


def quote_cases() -> list[Case]:
    return [
        q("csv zero price", ("C4",), {"q.csv": _sheet_csv("0")}),
        q("xlsx zero price", ("C4",), {"q.xlsx": _xlsx(_x_zero)}),
        q("csv price 1e-300", ("C4",), {"q.csv": _sheet_csv("1e-300")}, expect="0|2"),
        q("csv price '٥.٨٨' (Arabic-Indic digits)", ("C4",), {"q.csv": _sheet_csv("٥.٨٨")}, expect="0|2"),
        q("csv price '５.８８' (fullwidth digits)", ("C4",), {"q.csv": _sheet_csv("５.８８")}, expect="0|2"),
        q("csv price 'Infinity'", ("C4",), {"q.csv": _sheet_csv("Infinity")}),
        q("csv price ' 5.88 ' (spaces)", (), {"q.csv": _sheet_csv(" 5.88 ")}, expect="0|2"),
        q("csv price '5.88\\u200b'", ("C4",), {"q.csv": _sheet_csv("5.88\u200b")}),
        q("csv price '=5.88' (a formula in a CSV)", ("C4",), {"q.csv": _sheet_csv("=5.88")}),
        q("csv price 10**30", ("C4",), {"q.csv": _sheet_csv("1" + "0" * 30)}),
        q("xlsx price 10**30", ("C4",), {"q.xlsx": _xlsx(_x_huge_int)}),
        q("csv currency 'XYZ' (no rate: the vendor is left out, saying so)", (), {"q.csv": _sheet_csv().replace("CNY", "XYZ")},
          expect="0|2"),
        q("csv currency 1,000 chars", ("C3",), {"q.csv": _sheet_csv().replace("CNY", "C" * 1000)}),
        q("csv currency empty", (), {"q.csv": _sheet_csv().replace(",CNY,", ",,")}, expect="0|2"),
        q("csv provider 10,000 chars", (), {"q.csv": _sheet_csv(vendor="V" * 10_000)}, expect="0|2"),
        q("csv provider '=HYPERLINK(\"x\")'", (), {"q.csv": _sheet_csv(vendor='"=HYPERLINK(""http://x"")"')},
          expect="0|2"),
        q("csv provider Arabic with isolates", (), {"q.csv": _sheet_csv(vendor="\u0645\u0632\u0648\u062f\u2066x\u2069")},
          expect="0|2"),
        q("csv min_term_days -1", ("F4",), {"q.csv": _sheet_csv().replace("card_hour,8,,no", "card_hour,8,-1,no")}),
        q("csv min_term_days 1e9", ("F4",), {"q.csv": _sheet_csv().replace("card_hour,8,,no", "card_hour,8,1e9,no")}),
        q("csv cap_at_month 'maybe'", ("G4",), {"q.csv": _sheet_csv().replace("card_hour,8,,no", "card_hour,8,,maybe")}),
        q("csv date '2026-02-30'", ("I4",), {"q.csv": _sheet_csv().replace("8,,no,,", "8,,no,,2026-02-30")},
          expect="0|2"),
        q("csv date 10,000 chars", (), {"q.csv": _sheet_csv().replace("8,,no,,", "8,,no,," + "9" * 10_000)},
          expect="0|2"),
        q("csv gpus_per_server 0", ("E4",), {"q.csv": _sheet_csv().replace("card_hour,8", "card_hour,0")}),
        q("csv gpus_per_server -8", ("E4",), {"q.csv": _sheet_csv().replace("card_hour,8", "card_hour,-8")}),
        q("csv NUL in a cell", (), {"q.csv": _sheet_csv(vendor="a\x00b")}, expect="0|2"),
        q("csv only a header", ("q.csv",), {"q.csv": "section,item,value,unit,gpus_per_server,min_term_days,"
                                                      "cap_at_month,note,date\n"}, expect="0|2"),
        q("csv empty file", ("q.csv",), {"q.csv": ""}),
        q("csv semicolon-separated (European Excel)", ("q.csv",),
          {"q.csv": _sheet_csv().replace(",", ";").replace("5.88", "5,88")}, expect="0|2"),
        q("xlsx a dimension that lies (A1:XFD1048576)", (), {"q.xlsx": _lying_dimension()}, expect="0|2"),
        q("xlsx a decompression bomb (300 MB sheet)", ("q.xlsx",), {"q.xlsx": _bomb()}),
        q("xlsx a cell in row 1,048,576", (), {"q.xlsx": _xlsx(_x_rows_far)}, expect="0|2"),
        q("xlsx Arabic provider with RLO", (), {"q.xlsx": _xlsx(_x_unicode)}, expect="0|2"),
        q("xlsx provider zero-width", (), {"q.xlsx": _xlsx(_x_ctrl)}, expect="0|2"),
        q("xlsx a datetime as min_term_days", ("F4",), {"q.xlsx": _xlsx(_x_datetime_term)}),
        q("xlsx an empty zip", ("q.xlsx",), {"q.xlsx": _empty_zip()}),
        # the template's format decides the suffix, and the line printed names the file written (r13's decision)
        Case("quotes --template xlsx -o t.csv (suffix disagrees)", ["quotes", "--template", "xlsx", "-o", "t.csv"], {},
             "0", outputs=("t.xlsx",)),
        Case("quotes --template csv -o t.txt", ["quotes", "--template", "csv", "-o", "t.txt"], {}, "0",
             outputs=("t.csv",)),
        Case("quotes --template csv -o ''", ["quotes", "--template", "csv", "-o", ""], {}, "2"),
    ]


def _empty_zip() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w"):
        pass
    return out.getvalue()


# ------------------------------------------------------------------------------------------ kit results

def kit_cases() -> list[Case]:
    mn_scen = patched(EXAMPLE, hardware__num_gpus=16)

    def first(d, key):
        v = d.get(key)
        return v[0] if isinstance(v, list) and v else d

    return [probe_lib.with_files(c, {"s.json": mn_scen}) for c in [
        k("kit busbw NaN token", ("busbw_gbs",), _kit(lambda d: None).replace('"busbw_gbs": ', '"busbw_gbs": NaN, "x": ', 1)),
        k("kit busbw '12' (lax number)", (), _kit(lambda d: d["allreduce"][0].update(busbw_gbs="12")), "0|2"),
        k("kit busbw true", ("busbw_gbs",), _kit(lambda d: d["allreduce"][0].update(busbw_gbs=True))),
        k("kit gpus a string", ("gpus",), _kit(lambda d: d.update(gpus="8x H100"))),
        k("kit gpus null", (), _kit(lambda d: d.update(gpus=None)), "0|2"),
        k("kit 1,000-deep value", (), _kit(lambda d: None)[:-1] + ', "x": ' + "[" * 1000 + "]" * 1000 + "}", "0|2"),
        k("kit duplicate keys", (), _kit(lambda d: None)[:-1] + ', "gpus": []}', "0|2"),
        k("kit UTF-16", ("r.json",), _kit(lambda d: None).encode("utf-16"), "0|2"),
        k("kit 60 MB", ("r.json",), _kit(lambda d: d.update(pad="x" * 60_000_000))),
        k("kit multinode gpus_per_node 65", ("gpus_per_node",), _kit_mn(lambda d: d.update(gpus_per_node=65)),
          scen="s.json"),
        k("kit multinode busbw -Infinity", ("busbw_gbs",),
          _kit_mn(lambda d: d["collectives"][0].update(busbw_gbs=-math.inf)), scen="s.json"),
        k("kit multinode size_bytes 2**70", (), _kit_mn(lambda d: d["collectives"][0].update(size_bytes=2**70)),
          "0|2", scen="s.json"),
        k("kit multinode hostnames markup", (), _kit_mn(lambda d: d.update(hosts=["<b>\x1b[2J\u202e"] * 5000)), "0|2",
          scen="s.json"),
    ]]


# ------------------------------------------------------------------------------------------ pasted, settings, CLI

def topo_cases() -> list[Case]:
    return [
        t("topo 64 GPUs x 64 GPUs (the bound)", "\t" + "\t".join(f"GPU{i}" for i in range(64)) + "\n" + "".join(
            f"GPU{i}\t" + "\t".join("NV18" if j != i else " X " for j in range(64)) + "\n" for i in range(64))),
        t("topo label GPU99999999999999999999", TOPO.replace("GPU1", "GPU99999999999999999999")),
        t("topo NV with a fullwidth digit", TOPO.replace("NV18", "NV１８")),
        t("topo NV with Arabic-Indic digits", TOPO.replace("NV18", "NV١٨")),
        t("topo only a legend", "Legend:\n\n  X    = Self\n"),
        t("topo empty", ""),
        t("topo --json with RLO labels", TOPO.replace("NIC0", "NIC\u202e0"), extra=("--json",)),
    ]


def settings_cases() -> list[Case]:
    est = ["estimate", str(LORA_JSON)]
    return [
        Case("settings language '../../../etc/passwd'", est, {}, "0",
             home={SETTINGS: "[ui]\nlanguage=../../../etc/passwd\n"}),
        Case("settings language 'zh_CN/../../x'", est, {}, "0", home={SETTINGS: "[ui]\nlanguage=zh_CN/../../x\n"}),
        Case("settings language 10,000 chars", est, {}, "0", home={SETTINGS: "[ui]\nlanguage=" + "z" * 10_000 + "\n"}),
        Case("settings language 'zh_cn' (case)", est, {}, "0", home={SETTINGS: "[ui]\nlanguage=zh_cn\n"}),
        Case("settings UTF-16", est, {}, "0", home={SETTINGS: "[ui]\nlanguage=zh_CN\n".encode("utf-16")}),
        Case("settings interpolation '%(x)s'", ["report", str(LORA_JSON), "-o", "r.pdf"], {}, "0",
             outputs=("r.pdf",), home={SETTINGS: "[report]\nauthor=%(x)s %\n"}),
        Case("settings a FIFO", est, {}, "0", home={SETTINGS: ("fifo",)}),
    ]


def arg_cases() -> list[Case]:
    ex = str(LORA_JSON)
    return [
        Case("plan --top 0", ["plan", ex, "--top", "0"], {}, "2", ("--top",)),
        Case("plan --top -1", ["plan", ex, "--top", "-1"], {}, "2", ("--top",)),
        Case("plan --top 10**9", ["plan", ex, "--top", str(10**9)], {}, "0|2"),
        Case("plan --top 10**30", ["plan", ex, "--top", str(10**30)], {}, "0|2"),
        Case("plan --top '٣' (Arabic-Indic 3)", ["plan", ex, "--top", "٣"], {}, "0|2"),
        Case("plan --objective CHEAPEST", ["plan", ex, "--objective", "CHEAPEST"], {}, "2", ("--objective",)),
        Case("kit --nodes 4097", ["kit", ex, "--nodes", "4097", "-o", "k.sh"], {}, "2", ("--nodes",)),
        Case("kit --nodes -1", ["kit", ex, "--nodes", "-1", "-o", "k.sh"], {}, "2", ("--nodes",)),
        Case("kit --nodes '２' (fullwidth)", ["kit", ex, "--nodes", "２", "-o", "k.sh"], {}, "0|2",
             outputs=("k.sh",)),
        Case("kit -o '' (stdout, as '-')", ["kit", ex, "-o", ""], {}, "0", max_out=2_000_000),
        Case("kit --strict without --import", ["kit", ex, "--strict", "-o", "k.sh"], {}, "2", ("--import",)),
        Case("kit --json without --import", ["kit", ex, "--json", "-o", "k.sh"], {}, "2", ("--import",)),
        Case("report -o ''", ["report", ex, "-o", ""], {}, "2"),
        Case("report -o r.txt", ["report", ex, "-o", "r.txt"], {}, "0|2", outputs=("r.txt",)),
        Case("report --paper A3", ["report", ex, "-o", "r.pdf", "--paper", "A3"], {}, "2", ("--paper",)),
        Case("report -o a name of 300 bytes", ["report", ex, "-o", "r" * 300 + ".pdf"], {}, "2"),
        Case("report -o onto the scenario itself", ["report", "s.json", "-o", "s.json"],
             {"s.json": json.dumps(LORA)}, "2", ("s.json",)),
        Case("quotes --rfq onto the plan itself", ["quotes", "p.gpuplan", "q.csv", "--rfq", "p.gpuplan"],
             {"p.gpuplan": PLAN_LORA.read_bytes(), "q.csv": QUOTES.read_bytes()}, "2", ("p.gpuplan",)),
        Case("quotes --template -o onto the sheet read", ["quotes", "p.gpuplan", "q.csv", "--template", "csv", "-o",
                                                          "q.csv"],
             {"p.gpuplan": PLAN_LORA.read_bytes(), "q.csv": QUOTES.read_bytes()}, "0|2", outputs=("q.csv",)),
        Case("kit -o onto the scenario itself", ["kit", "s.json", "-o", "s.json"], {"s.json": json.dumps(LORA)}, "2",
             ("s.json",)),
        Case("estimate two files", ["estimate", ex, ex], {}, "2"),
        Case("estimate '-' (stdin)", ["estimate", "-"], {}, "0|2", stdin=json.dumps(LORA).encode()),
        Case("estimate '--' then a file", ["estimate", "--", ex], {}, "0"),
        Case("estimate --lang xx", ["estimate", ex, "--lang", "xx"], {}, "2", ("--lang",)),
        Case("estimate --json --json", ["estimate", ex, "--json", "--json"], {}, "0|2"),
        Case("gpus --json", ["gpus", "--json"], {}, "0|2", max_out=2_000_000),
        Case("gpus an unexpected argument", ["gpus", "x\u202e"], {}, "2"),
        Case("unknown command with RLO/ESC", ["est\u202eimate\x1b[2J"], {}, "2"),
        Case("a 100,000-char option", ["estimate", ex, "--" + "x" * 100_000], {}, "2"),
    ]


def plan_cases() -> list[Case]:
    ids = ["domestic_compat", "real_stock", "failure_sla"]
    offers = [{"gpu": "rtx-4090-24gb", "unit": "card_hour", "price": "5.5", "note": "n" * 100}] * 200
    return [
        Case("plan checklist 1,000 notes of 10,000 chars: report", ["report", "p.gpuplan", "-o", "r.pdf"],
             {"p.gpuplan": _plan(vendor_checklist=[{"id": f"x{i}", "note": "n " * 5000} for i in range(1000)])}, "2",
             ("vendor_checklist", "100000"), outputs=("r.pdf",)),
        Case("plan checklist 1,000 entries, 10 full notes: report", ["report", "p.gpuplan", "-o", "r.pdf"],
             {"p.gpuplan": _plan(vendor_checklist=[{"id": ids[i] if i < 3 else f"x{i}", "checked": True,
                                                    "note": "m " * 4999 if i < 10 else ""} for i in range(1000)])},
             "0", outputs=("r.pdf",)),
        Case("plan 50 vendors x 200 offers: report", ["report", "p.gpuplan", "-o", "r.pdf"],
             {"p.gpuplan": _plan(quotes=[{"provider": f"v{i}", "offers": offers} for i in range(50)])}, "0",
             outputs=("r.pdf",)),
        Case("plan lora_layer automodel with dora in a plan file", ["estimate", "p.gpuplan"],
             {"p.gpuplan": _plan(scenario__training__lora_layer="automodel", scenario__training__dora=True)}, "2",
             ("lora_layer",)),
        Case("plan gpus_per_node 65 in a plan file", ["estimate", "p.gpuplan"],
             {"p.gpuplan": _plan(scenario__hardware__gpus_per_node=65)}, "2", ("gpus_per_node",)),
    ]


ALL = (field_cases, plan_cases, serving_cases, config_cases, quote_cases, kit_cases, topo_cases, settings_cases, arg_cases)


# ------------------------------------------------------------------------------------------ direct checks

def direct_checks() -> list[tuple[str, bool, str]]:
    """The writers and readers the app's pages call: quote export (no cell a spreadsheet reads as a formula), the Hugging
    Face cache list and the model folder reader with hostile links."""
    return [*_export_checks(), *_cache_checks()]


def _export_checks() -> list[tuple[str, bool, str]]:
    from gpuplanner.io.quote_sheets import read_quotes, write_csv, write_xlsx

    out = []
    hostile = ["\t=1+1", "\r=1+1", "\n=1+1", " =1+1", "=HYPERLINK(\"http://x\")", "@SUM(A1)", "-2+3", "+cmd|' /C calc'!A0"]
    with tempfile.TemporaryDirectory(prefix="probe15-q-") as d:
        for i, text in enumerate(hostile):
            p = Path(d) / f"q{i}.csv"
            body = _sheet_csv(vendor="V").replace("8,,no,,", "8,,no,PLACE,")
            buf = io.StringIO()
            csv.writer(buf).writerow([text])
            body = body.replace("PLACE", buf.getvalue().strip())
            p.write_text(body, encoding="utf-8")
            try:
                qs = read_quotes(p)
            except Exception as err:  # noqa: BLE001
                out.append((f"export: note {text!r} read", _printable_line(str(err)), str(err)[:120]))
                continue
            cells = list(csv.reader(io.StringIO(write_csv(qs[0]).decode("utf-8-sig"))))
            bad = [c for row in cells for c in row if c.lstrip(" ").startswith(FORMULA_LEADS)
                   and c.strip() not in ("-", "")]
            out.append((f"export csv: note {text!r}", not bad, f"cells a spreadsheet reads as a formula: {bad[:2]}"))
            import openpyxl
            wb = openpyxl.load_workbook(io.BytesIO(write_xlsx(qs)))
            fx = [c.coordinate for ws in wb for row in ws.iter_rows() for c in row if c.data_type == "f"]
            out.append((f"export xlsx: note {text!r}", not fx, f"formula cells {fx[:3]}"))
    return out


def _cache_checks() -> list[tuple[str, bool, str]]:
    from gpuplanner.core.errors import PlannerError
    from gpuplanner.io.hf_cache import list_cached_models
    from gpuplanner.io.model_files import ModelFiles

    out = []
    commit = "a" * 40
    with tempfile.TemporaryDirectory(prefix="probe15-hf-") as d:
        cache = Path(d) / "hub"
        outside = Path(d) / "outside"
        outside.mkdir()
        (outside / "config.json").write_text(_cfg(), encoding="utf-8")

        def repo(name, ref=commit, cfg: object = _cfg()):
            r = cache / f"models--org--{name}"
            (r / "refs").mkdir(parents=True)
            (r / "snapshots" / commit).mkdir(parents=True)
            (r / "refs" / "main").write_text(ref)
            if isinstance(cfg, tuple):
                os.symlink(cfg[1], r / "snapshots" / commit / "config.json")
            else:
                (r / "snapshots" / commit / "config.json").write_text(cfg, encoding="utf-8")
            return r

        repo("good")
        repo("cfg-link-out", cfg=("symlink", str(outside / "config.json")))
        repo("cfg-dev-zero", cfg=("symlink", "/dev/zero"))
        repo("ref-dotdot", ref="../../../outside")
        repo("nan", cfg=_raw(hidden_size="RAW:NaN"))
        r = repo("snap-link")
        os.rename(r / "snapshots" / commit, r / "snapshots" / "x")
        os.symlink(outside, r / "snapshots" / commit)
        t0 = time.perf_counter()
        try:
            found = sorted(m.model_id for m in list_cached_models(root=cache))
            out.append(("hf cache list", "org/snap-link" not in found and time.perf_counter() - t0 < 5,
                        f"listed {found}"))
        except Exception as err:  # noqa: BLE001
            out.append(("hf cache list", False, f"raised {type(err).__name__}: {err}"[:200]))
        env = {"HF_HUB_CACHE": str(cache)}
        saved = {k: os.environ.get(k) for k in env}
        os.environ.update(env)
        try:
            for name, want_ok in (("good", True), ("cfg-link-out", False), ("cfg-dev-zero", False),
                                  ("ref-dotdot", False), ("nan", False), ("snap-link", False)):
                mf = ModelFiles(Path(d))
                try:
                    mf.load(f"org/{name}")
                    ok, line = want_ok, "loaded"
                except PlannerError as err:
                    ok, line = (not want_ok) and _printable_line(str(err)), str(err)[:200]
                except Exception as err:  # noqa: BLE001
                    ok, line = False, f"raised {type(err).__name__}: {err}"[:200]
                out.append((f"hf cache load org/{name}", ok, line))
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
    return out


def main(argv: list[str] | None = None) -> int:
    return probe_lib.main(argv, __doc__, ALL, direct_checks, "direct export hf cache")


if __name__ == "__main__":
    sys.exit(main())
