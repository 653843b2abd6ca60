"""Hostile input, round 14: further than ``bench/probe_hostile_r13.py`` where the product grew (the round 10-14
scenario fields at and past their bounds and in combinations the frameworks refuse: rl.hybrid_engine, expert
parallel sizes, recompute layers/modules, Megatron-only switches) and where earlier probes did not reach: config.json
model sources with impossible shapes, quote sheets from spreadsheet programs (formulas, merged cells, dates,
currency strings, hidden sheets), kit results (single and multi-node), pasted ``nvidia-smi topo -m`` of odd widths,
the app's settings file (the CLI reads its language and report author), plan files with huge strings, and CLI
arguments that are folders, devices or special files.

    python bench/probe_hostile_r14.py [--only SUBSTRING] [--list] [--fork]

The runner and the rules are ``bench/probe_lib.py``'s (round 13's: one printable ``gpuplanner: error:`` line of
at most 400 characters naming the listed words, exit 2, no traceback or pydantic dump, no control/bidi characters on
stdout, nothing written but what was asked, at most 20 s a case), plus: files put in a fresh HOME (the settings file
under ``~/.config/gpuplanner``) are left as they were. The "direct checks" call the readers the app uses (quote
sheets, autosave recovery, recent files) and judge them the same way. Cases are a fixed list (no randomness).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import probe_lib  # noqa: E402  (the runner, the judge and the shared builders)
from probe_lib import (  # noqa: E402
    _DEL, EXAMPLE, GRPO, KIT_MN, LORA_JSON, MAX_SECONDS, MEG, MOE, PLAN_LORA, QUOTES, SETTINGS, TOPO, Case, cfg_case, k,
    patched, q, s, t)

_cfg, _plan, _sheet_csv, _xlsx, _kit, _with = (
    probe_lib.cfg, probe_lib.plan_text, probe_lib.sheet_csv, probe_lib.xlsx, probe_lib.kit_text, probe_lib.with_files)
DS_PPO = {"training__framework": "deepspeed", "training__rl__generation_engine": "training"}


# ------------------------------------------------------------------------------------------ scenario fields

def field_cases() -> list[Case]:
    g, m = GRPO, MOE
    return [
        # training.rl.hybrid_engine (r13)
        s("hybrid_engine on vllm_colocated", g, ("training.rl.hybrid_engine", "generation_engine"),
          training__framework="deepspeed", training__rl__hybrid_engine=True,
          training__rl__generation_engine="vllm_colocated"),
        s("hybrid_engine on megatron", g, ("training.rl.hybrid_engine", "megatron"), training__framework="megatron",
          training__rl__hybrid_engine=True, training__rl__generation_engine="training"),
        s("hybrid_engine 2", g, ("training.rl.hybrid_engine", "2"), training__rl__hybrid_engine=2),
        s("hybrid_engine 'on'", g, ("training.rl.hybrid_engine", "on"), expect="0|2",
          training__rl__hybrid_engine="on"),
        s("hybrid_engine [true]", g, ("training.rl.hybrid_engine",), training__rl__hybrid_engine=[True]),
        s("hybrid_engine candidates without deepspeed", g, ("framework_candidates", "deepspeed"), cmd="plan",
          training__framework=_DEL, training__rl__hybrid_engine=True, training__rl__generation_engine="training",
          constraints__framework_candidates=["trl", "verl"]),
        s("hybrid_engine deepspeed ok", g, (), expect="0", training__rl__hybrid_engine=True, **DS_PPO),
        s("hybrid_engine + offload_model", g, ("training.rl",), training__rl__hybrid_engine=True,
          training__rl__offload_model=True, **DS_PPO),
        s("hybrid_engine + one_step_off", g, ("training.rl.schedule",), training__rl__hybrid_engine=True,
          training__rl__schedule="one_step_off", **DS_PPO),
        s("hybrid_engine on sft (ignored or refused)", EXAMPLE, (), expect="0|2",
          training__rl__hybrid_engine=True, training__framework="deepspeed"),
        # expert parallel sizes
        s("expert_tp 0", m, ("parallel.expert_tp", "0"), parallel__expert_tp=0),
        s("expert_tp 1025", m, ("parallel.expert_tp", "1025"), parallel__expert_tp=1025),
        s("expert_tp -1", m, ("parallel.expert_tp", "-1"), parallel__expert_tp=-1),
        s("expert_tp '2'", m, ("parallel.expert_tp",), expect="0|2", parallel__expert_tp="2"),
        s("expert_tp 1.5", m, ("parallel.expert_tp", "1.5"), parallel__expert_tp=1.5),
        s("expert_tp 3 (does not divide 16 GPUs)", m, ("expert_tp",), training__framework="megatron",
          parallel__expert_tp=3),
        s("expert_tp 16 x ep 8 past 16 GPUs", m, ("expert_tp",), training__framework="megatron",
          parallel__expert_tp=16, parallel__ep=8),
        s("expert_tp on a dense model", EXAMPLE, ("expert_tp",), expect="0|2", parallel__expert_tp=2),
        s("ep 0", m, ("parallel.ep", "0"), parallel__ep=0),
        s("ep 10**7", m, ("parallel.ep",), parallel__ep=10**7),
        s("ep 3 (does not divide 8 experts)", m, ("parallel.ep", "3"), parallel__ep=3),
        s("ep 16 past 8 experts", m, ("parallel.ep", "16"), parallel__ep=16),
        s("ep 32 past 16 GPUs", m, ("parallel.ep", "32"), parallel__ep=32),
        s("ep 8 on a dense model", EXAMPLE, ("parallel.ep",), parallel__ep=8),
        s("ep 'eight'", m, ("parallel.ep", "eight"), parallel__ep="eight"),
        # recompute layers/modules
        s("recompute_num_layers 10000 past 32 layers", EXAMPLE, ("recompute_num_layers",),
          expect="0|2", training__recompute="full", training__recompute_num_layers=10_000),
        s("recompute_num_layers 0", EXAMPLE, ("training.recompute_num_layers", "0"), training__recompute="full",
          training__recompute_num_layers=0),
        s("recompute_num_layers without full", EXAMPLE, ("recompute_num_layers",), expect="0|2",
          training__recompute="none", training__recompute_num_layers=4),
        s("recompute_every_n 0", EXAMPLE, ("training.recompute_every_n", "0"), training__recompute_every_n=0),
        s("recompute_method 'blocks'", EXAMPLE, ("training.recompute_method", "blocks"),
          training__recompute_method="blocks"),
        s("recompute_modules [] (selective, none)", EXAMPLE, (), expect="0|2", training__recompute_modules=[],
          training__recompute="megatron_selective", **{k: v for k, v in MEG.items() if k != "training__recompute"}),
        s("recompute_modules 8 names (7 choices)", EXAMPLE, ("training.recompute_modules",),
          training__recompute_modules=["core_attn", "mlp", "moe", "moe_act", "layernorm", "mla_up_proj",
                                       "shared_experts", "x"],
          training__recompute="megatron_selective", **{k: v for k, v in MEG.items() if k != "training__recompute"}),
        s("recompute_modules with NUL name", EXAMPLE, ("training.recompute_modules", "\\u0000"),
          training__recompute_modules=["mlp\x00"], training__recompute="megatron_selective",
          **{k: v for k, v in MEG.items() if k != "training__recompute"}),
        s("recompute 'selective' alias on hf", EXAMPLE, ("recompute",), expect="0|2",
          training__recompute="selective"),
        # Megatron-only switches elsewhere, and their combinations
        s("moe_pad_to_capacity without factor", m, ("moe_pad_to_capacity",), training__framework="megatron",
          parallel__moe_pad_to_capacity=True),
        s("moe_capacity_factor 1e-300", m, ("moe_capacity_factor",), expect="0|2", training__framework="megatron",
          parallel__moe_capacity_factor=1e-300),
        s("moe_capacity_factor 1001", m, ("parallel.moe_capacity_factor", "1001"), training__framework="megatron",
          parallel__moe_capacity_factor=1001),
        s("cuda_graph_scope moe_router on dense", EXAMPLE, ("cuda_graph_scope",), **MEG,
          parallel__cuda_graph_scope="moe_router"),
        s("cuda_graph_scope layer on MoE without padding", m, ("cuda_graph_scope",), expect="0|2",
          training__framework="megatron", training__recompute="none", parallel__cuda_graph_scope="layer"),
        s("moe_dispatcher flex on hf", m, ("parallel.moe_dispatcher", "flex"), training__framework="hf",
          parallel__moe_dispatcher="flex"),
        s("moe_dispatcher 'deepep'", m, ("parallel.moe_dispatcher", "deepep"), parallel__moe_dispatcher="deepep"),
        s("vpp 2 with pp 1", EXAMPLE, ("parallel.vpp", "2"), **MEG, parallel__vpp=2),
        s("vpp 1025", EXAMPLE, ("parallel.vpp", "1025"), parallel__vpp=1025),
        s("pp 8 x vpp 8 past 32 layers", EXAMPLE, ("parallel.vpp", "32"), **MEG, parallel__pp=8, hardware__num_gpus=8,
          parallel__vpp=8),
        s("pp 8 x vpp 4 = 32 layers (bound)", EXAMPLE, (), expect="0", **MEG, parallel__pp=8, hardware__num_gpus=8,
          parallel__vpp=4),
        s("pp 100 layers 32 on 800 GPUs", EXAMPLE, ("pp",), expect="2", **MEG, parallel__pp=100,
          hardware__num_gpus=800),
        s("tp 3 does not divide 32 heads", EXAMPLE, ("parallel.tp", "3"), parallel__tp=3, hardware__num_gpus=9,
          hardware__gpus_per_node=9, training__global_batch_size=None),
        s("tp 64 past 32 heads", EXAMPLE, ("tp",), expect="0|2", **MEG, parallel__tp=64, hardware__num_gpus=64),
        s("cp 3 with seq 2048", EXAMPLE, ("cp",), expect="0|2", **MEG, parallel__cp=3, hardware__num_gpus=3,
          hardware__gpus_per_node=3, training__global_batch_size=None),
        s("fsdp_version 3", EXAMPLE, ("training.fsdp_version", "3"), training__fsdp_version=3),
        s("pipeline_microbatch_size 0", EXAMPLE, ("training.pipeline_microbatch_size", "0"),
          training__pipeline_microbatch_size=0),
        s("optimizer_implementation 'apex'", EXAMPLE, ("training.optimizer_implementation", "apex"),
          training__optimizer_implementation="apex"),
        s("lora_a2a on hf", EXAMPLE, ("lora_a2a",), expect="0|2", training__lora_a2a=True,
          training__method="lora"),
        s("dora on megatron", EXAMPLE, ("training.dora",), training__dora=True, training__method="lora", **MEG),
        s("lora_rank 0", EXAMPLE, ("training.lora_rank", "0"), training__lora_rank=0, training__method="lora"),
        s("lora_rank 65537", EXAMPLE, ("training.lora_rank", "65537"), training__lora_rank=65537,
          training__method="lora"),
        s("ds_zero3_gather 'tree'", EXAMPLE, ("training.ds_zero3_gather", "tree"), training__ds_zero3_gather="tree"),
        s("tp_comm_overlap on hf", EXAMPLE, ("tp_comm_overlap",), expect="0|2", training__tp_comm_overlap=True),
        s("memory_metric 'peak'", EXAMPLE, ("assumptions.memory_metric", "peak"), assumptions__memory_metric="peak"),
        s("fragmentation 1.5", EXAMPLE, ("assumptions.fragmentation", "1.5"), assumptions__fragmentation=1.5),
        s("measured_runs 51", EXAMPLE, ("assumptions.measured_runs",),
          assumptions__measured_runs=[{"gpu": "h100-sxm-80gb", "mfu": 0.4}] * 51),
        s("measured_run mfu 1.5", EXAMPLE, ("mfu", "1.5"),
          assumptions__measured_runs=[{"gpu": "h100-sxm-80gb", "mfu": 1.5}]),
        s("measured_run unknown gpu", EXAMPLE, ("measured_runs",), expect="0|2",
          assumptions__measured_runs=[{"gpu": "zz-<b>", "mfu": 0.4}]),
        s("custom_gpus id with markup", EXAMPLE, ("hardware.custom_gpus",),
          hardware__custom_gpus=[{"id": "custom-<b>", "name": "x", "memory_gib": 80}]),
        s("custom_gpus duplicate ids", EXAMPLE, ("hardware.custom_gpus", "custom-a"),
          hardware__custom_gpus=[{"id": "custom-a", "name": "x", "memory_gib": 80},
                                 {"id": "custom-a", "name": "y", "memory_gib": 40}], hardware__gpu="custom-a"),
        s("custom_gpus 5,000", EXAMPLE, ("hardware.custom_gpus", "5000"), cmd="plan",
          hardware__custom_gpus=[{"id": f"custom-g{i}", "name": "x", "memory_gib": 80} for i in range(5000)]),
        s("custom gpu memory 0", EXAMPLE, ("memory_gib", "0"),
          hardware__custom_gpus=[{"id": "custom-a", "name": "x", "memory_gib": 0}]),
        s("inter_node unknown", EXAMPLE, ("hardware.inter_node", "ib-zz"), hardware__inter_node="ib-zz",
          hardware__num_gpus=16),
        s("inter_node unknown: plan", EXAMPLE, ("hardware.inter_node", "ib-zz"), cmd="plan",
          hardware__inter_node="ib-zz", hardware__num_gpus=16),
        s("inter_node unknown on one node", EXAMPLE, ("hardware.inter_node", "ib-zz"), hardware__inter_node="ib-zz"),
        s("nics_per_node 0", EXAMPLE, ("hardware.nics_per_node", "0"), hardware__nics_per_node=0),
        s("exchange_rate 0", EXAMPLE, ("constraints.exchange_rate", "0"), constraints__exchange_rate=0),
        s("hours_per_week 169", EXAMPLE, ("constraints.hours_per_week", "169"), constraints__hours_per_week=169),
        s("gpu_candidates 1000 unknown", EXAMPLE, ("constraints.gpu_candidates",), cmd="plan",
          constraints__gpu_candidates=[f"zz{i}" for i in range(1000)]),
        s("framework_candidates unknown", EXAMPLE, ("framework_candidates",), cmd="plan",
          constraints__framework_candidates=["<b>nemo</b>"]),
        s("sample_len_std -1", EXAMPLE, ("data.sample_len_std", "-1"), data__sample_len_std=-1),
        s("mean_sample_len past seq_len", EXAMPLE, ("mean_sample_len",), expect="0|2", data__mean_sample_len=10**6),
        s("images_per_sample 10001", EXAMPLE, ("data.images_per_sample", "10001"), data__images_per_sample=10001),
        # the model section of a scenario: impossible shapes
        s("heads do not divide hidden", EXAMPLE, ("num_attention_heads",), model__preset=None,
          model__hidden_size=4096, model__num_hidden_layers=2, model__num_attention_heads=3, model__vocab_size=100,
          model__intermediate_size=128),
        s("kv heads do not divide heads", EXAMPLE, ("num_key_value_heads",), model__preset=None,
          model__hidden_size=4096, model__num_hidden_layers=2, model__num_attention_heads=32,
          model__num_key_value_heads=5, model__vocab_size=100, model__intermediate_size=128),
        s("kv heads past heads", EXAMPLE, ("num_key_value_heads",), model__preset=None, model__hidden_size=4096,
          model__num_hidden_layers=2, model__num_attention_heads=32, model__num_key_value_heads=64,
          model__vocab_size=100, model__intermediate_size=128),
        s("experts_per_tok past experts", EXAMPLE, ("num_experts_per_tok",), model__preset=None,
          model__hidden_size=512, model__num_hidden_layers=2, model__num_attention_heads=8, model__vocab_size=100,
          model__intermediate_size=128, model__num_experts=4, model__num_experts_per_tok=8),
        # 0 experts is a dense model (transformers Qwen2-MoE builds the dense MLP where num_experts is 0)
        s("0 experts, 2 per token (dense)", EXAMPLE, (), expect="0", model__preset=None, model__hidden_size=512,
          model__num_hidden_layers=2, model__num_attention_heads=8, model__vocab_size=100,
          model__intermediate_size=128, model__num_experts=0, model__num_experts_per_tok=2),
        s("largest model every bound allows", EXAMPLE, (), expect="0|2", cmd="plan", model__preset=None,
          model__hidden_size=1 << 20, model__num_hidden_layers=10_000, model__num_attention_heads=1 << 16,
          model__vocab_size=1 << 27, model__intermediate_size=1 << 24),
        s("hidden_act with markup", EXAMPLE, ("model.hidden_act",), model__hidden_act="<b>gelu</b>"),
    ]


# ------------------------------------------------------------------------------------------ config.json

def config_cases() -> list[Case]:
    nest = {"model_type": "llava"}
    node = nest
    for _ in range(60):
        node["text_config"] = {"model_type": "llava"}
        node = node["text_config"]
    return [
        cfg_case("config hidden_size 10**12", ("hidden_size",), _cfg(hidden_size=10**12)),
        cfg_case("config hidden_size 10**30", ("hidden_size",), _cfg(hidden_size=10**30)),
        cfg_case("config hidden_size 4096.5", ("hidden_size",), _cfg(hidden_size=4096.5)),
        cfg_case("config hidden_size true", ("hidden_size",), _cfg(hidden_size=True)),
        cfg_case("config hidden_size [512]", ("hidden_size",), _cfg(hidden_size=[512])),
        cfg_case("config hidden_size 0", ("hidden_size",), _cfg(hidden_size=0)),
        cfg_case("config num_attention_heads -8", ("num_attention_heads",), _cfg(num_attention_heads=-8)),
        cfg_case("config num_attention_heads 0", ("num_attention_heads",), _cfg(num_attention_heads=0)),
        cfg_case("config heads 7 do not divide 512", ("num_attention_heads",), _cfg(num_attention_heads=7)),
        cfg_case("config kv heads 0", ("num_key_value_heads",), _cfg(num_key_value_heads=0)),
        cfg_case("config kv heads 3 of 8", ("num_key_value_heads",), _cfg(num_key_value_heads=3)),
        cfg_case("config kv heads 16 past 8", ("num_key_value_heads",), _cfg(num_key_value_heads=16)),
        cfg_case("config layers 0", ("num_hidden_layers",), _cfg(num_hidden_layers=0)),
        cfg_case("config layers 10**9", ("num_hidden_layers",), _cfg(num_hidden_layers=10**9)),
        cfg_case("config vocab -1", ("vocab_size",), _cfg(vocab_size=-1)),
        cfg_case("config intermediate 0", ("intermediate_size",), _cfg(intermediate_size=0)),
        cfg_case("config head_dim 0", ("head_dim",), _cfg(head_dim=0)),
        cfg_case("config head_dim 10**9", ("head_dim",), _cfg(head_dim=10**9)),
        cfg_case("config no hidden_size", ("hidden_size",), _cfg(hidden_size=_DEL), expect="0|2"),
        cfg_case("mixtral 0 experts", ("num_local_experts",), _cfg(model_type="mixtral", num_local_experts=0,
                                                                    num_experts_per_tok=2)),
        cfg_case("mixtral experts_per_tok 4 of 2", ("num_experts_per_tok",),
                 _cfg(model_type="mixtral", num_local_experts=2, num_experts_per_tok=4)),
        cfg_case("mixtral experts -8", ("num_local_experts",), _cfg(model_type="mixtral", num_local_experts=-8,
                                                                     num_experts_per_tok=2)),
        cfg_case("qwen2_moe 0 experts (dense, as transformers builds it)", (),
                 _cfg(model_type="qwen2_moe", num_experts=0, num_experts_per_tok=4, moe_intermediate_size=64),
                 expect="0"),
        cfg_case("deepseek_v3 kv_lora_rank 0", ("kv_lora_rank",),
                 _cfg(model_type="deepseek_v3", kv_lora_rank=0, q_lora_rank=64, qk_rope_head_dim=16,
                      qk_nope_head_dim=32, v_head_dim=32, n_routed_experts=8, num_experts_per_tok=2,
                      moe_intermediate_size=64)),
        cfg_case("deepseek_v3 first_k_dense 10**6", ("first_k_dense_replace",), expect="0|2",
                 cfg_text=_cfg(model_type="deepseek_v3", kv_lora_rank=64, q_lora_rank=64, qk_rope_head_dim=16,
                               qk_nope_head_dim=32, v_head_dim=32, n_routed_experts=8, num_experts_per_tok=2,
                               moe_intermediate_size=64, first_k_dense_replace=10**6)),
        cfg_case("config text_config 60 deep", ("config.json",), json.dumps(nest), expect="0|2"),
        cfg_case("config a list", ("config.json",), "[1,2,3]"),
        cfg_case("config 3 MB of keys", (), json.dumps({**json.loads(_cfg()), **{f"k{i}": i for i in range(200_000)}}),
                 expect="0"),
        cfg_case("config model_type 10,000 chars", (), _cfg(model_type="x" * 10_000), expect="0|2"),
        cfg_case("config _name_or_path with ESC/RLO", (), _cfg(_name_or_path="\x1b[2J\u202eevil<b>"), expect="0"),
        cfg_case("config torch_dtype 'int1'", (), _cfg(torch_dtype="int1"), expect="0|2"),
        cfg_case("config rope_scaling factor -1", (), _cfg(rope_scaling={"type": "linear", "factor": -1}),
                 expect="0|2"),
        cfg_case("config max_position_embeddings -1", ("max_position_embeddings",), _cfg(max_position_embeddings=-1),
                 expect="0|2"),
        Case("config.json a folder", ["estimate", "s.json"],
             {"s.json": patched(EXAMPLE, model__preset=None, model__hf_config="m"), "m/config.json/x": "1"},
             "2", ("config.json",)),
        Case("config.json links outside the folder", ["estimate", "s.json"],
             {"s.json": patched(EXAMPLE, model__preset=None, model__hf_config="m"),
              "m/config.json": ("symlink", "/etc/hostname")}, "2", ("config.json",)),
        Case("safetensors header lies (2**63 elements)", ["estimate", "s.json"],
             {"s.json": patched(EXAMPLE, model__preset=None, model__hf_config="m"), "m/config.json": _cfg(),
              "m/model.safetensors": _st_header({"w": {"dtype": "BF16", "shape": [2**62, 4], "data_offsets": [0, 0]}})},
             "2", ("model.safetensors",)),
        Case("safetensors header 100,000 tensors", ["estimate", "s.json"],
             {"s.json": patched(EXAMPLE, model__preset=None, model__hf_config="m"), "m/config.json": _cfg(),
              "m/model.safetensors": _st_header({f"w{i}": {"dtype": "BF16", "shape": [4, 4], "data_offsets": [0, 32]}
                                                 for i in range(100_000)})}, "0|2"),
        Case("plan file hf_config outside its folder", ["estimate", "p.gpuplan"],
             {"p.gpuplan": _plan(scenario__model__hf_config="/etc", scenario__model__preset=None, selected_plan=None)},
             "2",
             ("model.hf_config",)),
    ]


def _st_header(h: dict) -> bytes:
    raw = json.dumps(h).encode()
    return len(raw).to_bytes(8, "little") + raw


# ------------------------------------------------------------------------------------------ quote sheets

def _x_formula(wb, ws):
    ws["C4"] = "=5.88*1"


def _x_date(wb, ws):
    import datetime as dt
    ws["C4"] = dt.datetime(2026, 9, 24)


def _x_merged(wb, ws):
    ws.append(["offer", "a800-sxm-80gb", 7, "card_hour", 8, None, "no"])
    ws.merge_cells("A4:A5")


def _x_hidden(wb, ws):
    h = wb.create_sheet("hidden")
    for r in ws.iter_rows(values_only=True):
        h.append(list(r))
    h["C2"] = "Hidden vendor"
    h.sheet_state = "hidden"


def _x_dup(wb, ws):
    h = wb.create_sheet("v2")
    for r in ws.iter_rows(values_only=True):
        h.append(list(r))


def _x_currency(wb, ws):
    ws["C4"] = "¥5.88"


def _x_negative(wb, ws):
    ws["C4"] = -5.88


def _x_nan_text(wb, ws):
    ws["C4"] = "NaN"


def _x_big(wb, ws):
    ws["C4"] = 1e300


def _x_bool(wb, ws):
    ws["C4"] = True


def _x_err(wb, ws):
    ws["C4"] = "#DIV/0!"


def _x_many_cols(wb, ws):
    ws.cell(row=4, column=16000, value="far")


def _x_21_sheets(wb, ws):
    for i in range(21):
        h = wb.create_sheet(f"s{i}")
        h.append(["# note"])


def _x_25_vendors(wb, ws):
    for i in range(24):
        h = wb.create_sheet(f"v{i + 2}")
        for r in ws.iter_rows(values_only=True):
            h.append(list(r))
        h["C2"] = f"Vendor {i + 2}"


def quote_cases() -> list[Case]:
    return [
        q("xlsx formula price (no cached value)", ("C4",), {"q.xlsx": _xlsx(_x_formula)}),
        q("xlsx date as price", ("C4", "2026-09-24"), {"q.xlsx": _xlsx(_x_date)}),
        q("xlsx merged section cells", ("A5",), {"q.xlsx": _xlsx(_x_merged)}, expect="0|2"),
        q("xlsx hidden sheet", (), {"q.xlsx": _xlsx(_x_hidden)}, expect="0|2"),
        q("xlsx two sheets same vendor", (), {"q.xlsx": _xlsx(_x_dup)}, expect="0|2"),
        q("xlsx currency string price", ("C4", "¥5.88"), {"q.xlsx": _xlsx(_x_currency)}),
        q("xlsx negative price", ("C4", "-5.88"), {"q.xlsx": _xlsx(_x_negative)}),
        q("xlsx 'NaN' price", ("C4", "NaN"), {"q.xlsx": _xlsx(_x_nan_text)}),
        q("xlsx 1e300 price", ("C4",), {"q.xlsx": _xlsx(_x_big)}),
        q("xlsx TRUE as price", ("C4",), {"q.xlsx": _xlsx(_x_bool)}),
        q("xlsx '#DIV/0!' price", ("C4", "#DIV/0!"), {"q.xlsx": _xlsx(_x_err)}),
        q("xlsx a cell in column 16000", (), {"q.xlsx": _xlsx(_x_many_cols)}, expect="0|2"),
        q("xlsx 22 sheets", (), {"q.xlsx": _xlsx(_x_21_sheets)}, expect="0|2"),
        q("xlsx 25 vendor sheets (none left out silently)", ("q.xlsx", "20"), {"q.xlsx": _xlsx(_x_25_vendors)}),
        q("xlsx not a zip", ("q.xlsx",), {"q.xlsx": b"PK\x03\x04garbage"}),
        q("xlsx a CSV renamed", ("q.xlsx",), {"q.xlsx": _sheet_csv()}),
        q("csv a workbook renamed", ("q.csv",), {"q.csv": _xlsx(lambda wb, ws: None)}),
        q("csv 1,000,000 rows", ("q.csv",), {"q.csv": _sheet_csv(extra_rows="question,real_stock,yes,,,,,,\n" * 1_000_000)}),
        q("csv 3,000 rows under 2 MB", ("q.csv",), {"q.csv": _sheet_csv(extra_rows=",,,,,,,,\n" * 3000)}),
        q("csv '1e999999999' price", ("C4",), {"q.csv": _sheet_csv("1e999999999")}),
        q("csv '1e-999999999' price", (), {"q.csv": _sheet_csv("1e-999999999")}, expect="0|2"),
        q("csv '$1,234.5' price", ("C4", "$1,234.5"), {"q.csv": _sheet_csv('"$1,234.5"')}),
        q("csv '5.88 CNY' price", ("C4",), {"q.csv": _sheet_csv("5.88 CNY")}),
        q("csv '1_000' price", (), {"q.csv": _sheet_csv("1_000")}, expect="0|2"),
        q("csv 'sNaN' price", ("C4",), {"q.csv": _sheet_csv("sNaN")}),
        q("csv '-0' price", (), {"q.csv": _sheet_csv("-0")}, expect="0|2"),
        q("csv '2026-09-24' price", ("C4", "2026-09-24"), {"q.csv": _sheet_csv("2026-09-24")}),
        q("csv unit of 500 chars", ("D",), {"q.csv": _sheet_csv().replace("card_hour", "u" * 500)}),
        q("csv gpus_per_server 1e9", ("E4",), {"q.csv": _sheet_csv().replace("card_hour,8", "card_hour,1000000000")}),
        q("csv gpus_per_server 2.5", ("E4",), {"q.csv": _sheet_csv().replace("card_hour,8", "card_hour,2.5")}),
        q("csv vendor provider twice", ("provider",), {"q.csv": _sheet_csv(extra_rows="vendor,provider,Y,,,,,,\n")}),
        q("csv provider with RLO/ESC", (), {"q.csv": _sheet_csv(vendor="a\u202eb\x1b[2J")}, expect="0|2"),
        q("csv unknown gpu id", ("rtx-9999",), {"q.csv": _sheet_csv().replace("rtx-4090-24gb", "rtx-9999")},
          expect="0|2"),
        q("csv CR-only line ends", (), {"q.csv": _sheet_csv().replace("\n", "\r")}, expect="0|2"),
        q("csv unclosed quote", ("q.csv",), {"q.csv": _sheet_csv() + '"offer,x\n'}),
        q("csv 10,000 columns", (), {"q.csv": _sheet_csv().replace("card_hour,8,,no,,", "card_hour,8,,no,," + "," * 10_000)},
          expect="0|2"),
        q("csv two sheets same vendor", (), {"q.csv": _sheet_csv(), "q2.csv": _sheet_csv()}, expect="0|2",
          extra=("q2.csv",)),
        q("csv UTF-16", ("q.csv",), {"q.csv": _sheet_csv().encode("utf-16")}),
        q("csv 2 MB + 1", ("q.csv",), {"q.csv": _sheet_csv() + "#" * (2 * 1024 * 1024)}),
    ]


# ------------------------------------------------------------------------------------------ kit results

def _kit_mn(fn) -> str:
    return probe_lib.kit_text(fn, KIT_MN)


def kit_cases() -> list[Case]:
    mn_scen = patched(EXAMPLE, hardware__num_gpus=16)
    return [_with(c, {"s.json": mn_scen}) for c in [
        k("kit busbw -1", ("busbw_gbs", "-1"), _kit(lambda d: d["allreduce"][0].update(busbw_gbs=-1))),
        k("kit busbw 1e308", (), _kit(lambda d: d["allreduce"][0].update(busbw_gbs=1e308)), "0|2"),
        k("kit n 0", ("n", "0"), _kit(lambda d: d["allreduce"][0].update(n=0))),
        k("kit size_bytes -1", ("size_bytes", "-1"), _kit(lambda d: d["allreduce"][0].update(size_bytes=-1))),
        k("kit 100,000 gpus", (), _kit(lambda d: d.update(gpus=d["gpus"] * 12_500)), "0|2"),
        k("kit gpu memory -80", ("memory_gib", "-80"), _kit(lambda d: d["gpus"][0].update(memory_gib=-80))),
        k("kit gpu name 10,000 chars", (), _kit(lambda d: d["gpus"][0].update(name="H" * 10_000)), "0|2"),
        k("kit gpu name markup/ESC", (), _kit(lambda d: d["gpus"][0].update(name="<b>\x1b[2J\u202e")), "0|2"),
        k("kit errors 100,000", (), _kit(lambda d: d.update(errors=["e\x1b"] * 100_000)), "0|2"),
        k("kit allreduce not a list", ("allreduce",), _kit(lambda d: d.update(allreduce={"n": 2}))),
        k("kit a top-level list", ("r.json",), "[]"),
        k("kit empty object", (), "{}", "0|2"),
        k("kit multinode world 17", ("world",), _kit_mn(lambda d: d.update(world=17)), "0|2", scen="s.json"),
        k("kit multinode nodes 0", ("nodes", "0"), _kit_mn(lambda d: d.update(nodes=0)), "2", scen="s.json"),
        k("kit multinode nodes 10**12", ("nodes",), _kit_mn(lambda d: d.update(nodes=10**12)), "2", scen="s.json"),
        k("kit multinode time_s 0", (), _kit_mn(lambda d: d["collectives"][0].update(time_s=0)), "0|2",
          scen="s.json"),
        k("kit multinode busbw NaN", ("busbw_gbs",), _kit_mn(lambda d: d["collectives"][0].update(busbw_gbs=float("nan"))),
          scen="s.json"),
        k("kit multinode op '<x>'", ("op",), _kit_mn(lambda d: d["collectives"][0].update(op="<x>")), "2",
          scen="s.json"),
        k("kit multinode 200,000 collectives", (), _kit_mn(lambda d: d.update(collectives=d["collectives"] * 20_000)),
          "0|2", scen="s.json"),
        k("kit multinode schema /2", ("schema",), _kit_mn(lambda d: d.update(schema="gpuplanner-kit-multinode/2")),
          "2", scen="s.json"),
    ]]


# ------------------------------------------------------------------------------------------ pasted tool output

def topo_cases() -> list[Case]:
    wide = "\t" + "\t".join(f"GPU{i}" for i in range(2000)) + "\n" + "".join(
        f"GPU{i}\t" + "\t".join("NV18" if j != i else " X " for j in range(2000)) + "\n" for i in range(3))
    return [
        t("topo the sample", TOPO, "0"),
        t("topo with --json", TOPO, "0", extra=("--json",)),
        t("topo fullwidth spaces and tabs", TOPO.replace("\t", "\u3000")),
        t("topo zero-width joiners in labels", TOPO.replace("GPU1", "GPU\u200d1")),
        t("topo RLO in the NIC legend", TOPO.replace("mlx5_0", "mlx5_0\u202e<b>x</b>\x1b[2J")),
        t("topo CR line ends", TOPO.replace("\n", "\r")),
        t("topo CRLF", TOPO.replace("\n", "\r\n"), "0"),
        t("topo BOM", "\ufeff" + TOPO, "0|2"),
        t("topo UTF-16", TOPO.encode("utf-16")),
        t("topo latin-1 bytes", TOPO.encode() + b"\xe9\xff"),
        t("topo 2,000 GPU columns", wide),
        t("topo one 1 MB line", "\tGPU0" + " " * 1_000_000 + "\n"),
        t("topo header only", "\tGPU0\tGPU1\n"),
        t("topo empty", ""),
        t("topo NUL bytes", TOPO.replace("NV18", "NV\x0018")),
        t("topo NV99999999999999999999", TOPO.replace("NV18", "NV99999999999999999999")),
        t("topo NV-1", TOPO.replace("NV18", "NV-1")),
        t("topo GPU rows out of order", TOPO.replace("GPU0\t X", "GPU7\t X")),
        t("topo duplicate GPU rows", TOPO.replace("NIC0\tPXB", "GPU0\tPXB")),
        t("topo --tp 0", TOPO, "2", ("--tp",), extra=("--tp", "0")),
        t("topo --gpus 10**30", TOPO, "2", ("--gpus",), extra=("--gpus", str(10**30))),
        Case("net 100,000 ports", ["net", "n.txt"], {"n.txt": "CA 'mlx5_0'\n" + "\tPort 1:\n\t\tState: Active\n" * 100_000},
             "0|2"),
        Case("net rate 1e400", ["net", "n.txt"], {"n.txt": "CA 'mlx5_0'\n\tPort 1:\n\t\tState: Active\n\t\tRate: 1e400\n"},
             "0|2"),
        Case("health 10,000 GPUs", ["health", "h.txt"],
             {"h.txt": "".join(f"GPU 00000000:{i:05X}:00.0\n    Product Name : NVIDIA H100\n" for i in range(10_000))},
             "0|2"),
        Case("health product name with markup", ["health", "h.txt"],
             {"h.txt": "GPU 00000000:18:00.0\n    Product Name : <b>\x1b[2J\u202e\n"}, "0|2"),
    ]


# ------------------------------------------------------------------------------------------ settings, plan files

def settings_cases() -> list[Case]:
    rep = ["report", str(LORA_JSON), "-o", "r.pdf"]
    est = ["estimate", str(LORA_JSON)]
    return [
        Case("settings binary garbage", est, {}, "0", home={SETTINGS: bytes(range(256)) * 100}),
        Case("settings truncated mid-section", est, {}, "0", home={SETTINGS: "[ui\nlanguage=zh"}),
        Case("settings language 'zh_CN\\x00'", est, {}, "0", home={SETTINGS: "[ui]\nlanguage=zh_CN\x00\n"}),
        Case("settings 2 MB", est, {}, "0", home={SETTINGS: "[ui]\nlanguage=en\n" + "#" * 2_000_000}),
        Case("settings a folder", est, {}, "0", home={SETTINGS + "/x": "1"}),
        Case("settings a symlink to /dev/zero", est, {}, "0", home={SETTINGS: ("symlink", "/dev/zero")}),
        Case("settings a symlink loop", est, {}, "0", home={SETTINGS: ("symlink", "gpuplanner-ui.ini")}),
        Case("settings author 900 kB", rep, {}, "0", outputs=("r.pdf",),
             home={SETTINGS: "[report]\nauthor=" + "A" * 900_000 + "\n"}),
        Case("settings author with ESC/RLO/markup", rep, {}, "0", outputs=("r.pdf",),
             home={SETTINGS: "[report]\nauthor=\"<h1>x</h1>\u202e\x1b[2J\"\n"}),
        Case("--author 100,000 chars", rep + ["--author", "B" * 100_000], {}, "0|2", outputs=("r.pdf",)),
        Case("settings duplicate sections", est, {}, "0", home={SETTINGS: "[ui]\nlanguage=en\n[ui]\nlanguage=zh_CN\n"}),
    ]


def plan_cases() -> list[Case]:
    return [
        Case("plan title 10 MB", ["estimate", "p.gpuplan"], {"p.gpuplan": _plan(title="T" * 10_000_000)}, "0|2",
             ("title",)),
        Case("plan title 10 MB: report", ["report", "p.gpuplan", "-o", "r.pdf"],
             {"p.gpuplan": _plan(title="T" * 10_000_000)}, "0|2", ("title",), outputs=("r.pdf",)),
        Case("plan notes 10 MB: report", ["report", "p.gpuplan", "-o", "r.pdf"],
             {"p.gpuplan": _plan(notes="N " * 5_000_000)}, "0|2", ("notes",), outputs=("r.pdf",)),
        Case("plan title with controls: project --json", ["project", "p.gpuplan", "--json"],
             {"p.gpuplan": _plan(title="\x1b]0;pwn\x07\u202e<b>t</b>\r\n")}, "0|2"),
        Case("plan title with controls: report", ["report", "p.gpuplan", "-o", "r.pdf"],
             {"p.gpuplan": _plan(title="\x1b]0;pwn\x07\u202e<b>t</b>\r\n")}, "0|2", outputs=("r.pdf",)),
        Case("plan checklist 100,000 items", ["estimate", "p.gpuplan"],
             {"p.gpuplan": _plan(vendor_checklist=[{"id": f"c{i}", "checked": True} for i in range(100_000)])},
             "2", ("vendor_checklist", "100000")),
        Case("plan checklist note 1 MB", ["estimate", "p.gpuplan"],
             {"p.gpuplan": _plan(vendor_checklist=[{"id": "nvlink_topology", "note": "n" * 1_000_000}])},
             "2", ("vendor_checklist",)),
        Case("plan quotes 5,000 vendors", ["quotes", "p.gpuplan", "--json"],
             {"p.gpuplan": _plan(quotes=[{"provider": f"v{i}", "offers": []} for i in range(5000)])}, "0|2",
             ("quotes",), max_out=5_000_000),  # one entry a vendor the file holds: linear, not multiplied
        Case("plan a symlink to /etc/hostname", ["estimate", "p.gpuplan"], {"p.gpuplan": ("symlink", "/etc/hostname")},
             "2", ("p.gpuplan",)),
        Case("plan a symlink to /dev/zero", ["estimate", "p.gpuplan"], {"p.gpuplan": ("symlink", "/dev/zero")},
             "2", ("p.gpuplan",)),
        Case("plan name with newline and RLO", ["estimate", "a\nb\u202e.gpuplan"],
             {"a\nb\u202e.gpuplan": PLAN_LORA.read_bytes()}, "0"),
        Case("plan schema_version 10**6", ["estimate", "p.gpuplan"], {"p.gpuplan": _plan(schema_version=10**6)}, "2",
             ("schema", "1000000")),
        Case("plan schema_version -1", ["estimate", "p.gpuplan"], {"p.gpuplan": _plan(schema_version=-1)}, "2",
             ("schema_version",)),
        Case("plan created '10000-01-01'", ["estimate", "p.gpuplan"], {"p.gpuplan": _plan(created="99999-01-01T00:00:00")},
             "0|2", ("created",)),
        Case("plan embedded_model with absurd sizes", ["estimate", "p.gpuplan"],
             {"p.gpuplan": _plan(embedded_model={"arch": {"name": "x", "hidden_size": -1}})}, "0|2",
             ("embedded_model",)),
        Case("plan ui_state 1,000-deep", ["estimate", "p.gpuplan"],
             {"p.gpuplan": _plan()[:-1] + ', "ui_extra": ' + "[" * 1000 + "]" * 1000 + "}"}, "0|2"),
        Case("plan quotes --save onto a read-only copy", ["quotes", "p.gpuplan", "q.csv", "--save"],
             {"p.gpuplan": PLAN_LORA.read_bytes(), "q.csv": QUOTES.read_bytes()}, "0|2",
             ("p.gpuplan",), outputs=("p.gpuplan", "p.gpuplan.bak"), chmod={"p.gpuplan": 0o444}),
    ]


# ------------------------------------------------------------------------------------------ CLI arguments

def arg_cases() -> list[Case]:
    ex = str(LORA_JSON)
    return [
        Case("plan on a folder", ["plan", "."], {}, "2", ("'.'",) if False else ()),
        Case("project on a folder", ["project", "."], {}, "2"),
        Case("report on a folder", ["report", ".", "-o", "r.pdf"], {}, "2"),
        Case("kit on a folder", ["kit", "."], {}, "2"),
        Case("quotes sheet a folder", ["quotes", ex, "d.csv"], {"d.csv/x": "1"}, "2", ("d.csv",)),
        Case("kit-import result a folder", ["kit-import", ex, "d.json"], {"d.json/x": "1"}, "2", ("d.json",)),
        Case("topo a folder", ["topo", "."], {}, "2"),
        Case("net a folder", ["net", "."], {}, "2"),
        Case("health a folder", ["health", "."], {}, "2"),
        Case("plan /dev/zero", ["plan", "/dev/zero"], {}, "2", ("zero",)),
        Case("quotes sheet /dev/zero", ["quotes", ex, "/dev/zero"], {}, "2", ("zero",)),
        Case("kit-import /dev/zero", ["kit-import", ex, "/dev/zero"], {}, "2", ("zero",)),
        Case("topo /dev/zero", ["topo", "/dev/zero"], {}, "2", ("zero",)),
        Case("net /dev/urandom", ["net", "/dev/urandom"], {}, "2", ("urandom",)),
        Case("health /dev/zero", ["health", "/dev/zero"], {}, "2", ("zero",)),
        Case("estimate /proc/self/mem", ["estimate", "/proc/self/mem"], {}, "2", ("mem",)),
        Case("estimate /proc/self/status (not JSON)", ["estimate", "/proc/self/status"], {}, "2", ("status",)),
        Case("topo /proc/self/maps", ["topo", "/proc/self/maps"], {}, "0|2"),
        Case("estimate a FIFO", ["estimate", "f.json"], {"f.json": ("fifo",)}, "2", ("f.json",)),
        Case("topo a FIFO", ["topo", "f.txt"], {"f.txt": ("fifo",)}, "2", ("f.txt",)),
        Case("estimate mode 000 (root reads it)", ["estimate", "s.json"], {"s.json": json.dumps(EXAMPLE)}, "0|2",
             chmod={"s.json": 0}),
        Case("estimate a path through a file", ["estimate", "s.json/x.json"], {"s.json": "{}"}, "2", ("x.json",)),
        Case("estimate a 5,000-char path", ["estimate", "a" * 5000 + ".json"], {}, "2"),
        Case("estimate a non-UTF-8 file name", ["estimate", "\udcff.json"], {}, "2"),
        # output onto a device, FIFO or a link to one: made in the scratch folder (as root, the write replaced the
        # device node itself: never point these at /dev)
        Case("report -o a character device", ["report", ex, "-o", "full"], {"full": ("chardev", 1, 7)}, "2",
             ("full", "regular file")),
        Case("report -o a FIFO", ["report", ex, "-o", "f.pdf"], {"f.pdf": ("fifo",)}, "2", ("f.pdf",)),
        Case("kit -o a link to a device", ["kit", ex, "-o", "k.sh"], {"null": ("chardev", 1, 3),
                                                                      "k.sh": ("symlink", "null")}, "2", ("k.sh",)),
        Case("quotes --template -o a device", ["quotes", "--template", "csv", "-o", "null.csv"],
             {"null.csv": ("chardev", 1, 3)}, "2", ("null.csv",)),
        Case("report -o a path through a file", ["report", ex, "-o", "x/r.pdf"], {"x": "1"}, "2", ("r.pdf",)),
        Case("quotes --template -o a folder", ["quotes", "--template", "csv", "-o", "."], {}, "2"),
        Case("quotes --rfq onto a folder", ["quotes", ex, str(QUOTES), "--rfq", "."], {}, "2"),
        Case("kit --nodes 0", ["kit", ex, "--nodes", "0"], {}, "2", ("--nodes",)),
        Case("kit --nodes 10**30", ["kit", ex, "--nodes", str(10**30)], {}, "2", ("--nodes",)),
        Case("plan --top 1e3", ["plan", ex, "--top", "1e3"], {}, "2", ("--top",)),
        Case("quotes 300 sheet arguments", ["quotes", ex] + ["q.csv"] * 300, {"q.csv": QUOTES.read_bytes()}, "0|2"),
        Case("an argument with NUL-like escape", ["estimate", "s\u0000.json"], {}, "2"),
    ]


ALL = (field_cases, config_cases, quote_cases, kit_cases, topo_cases, settings_cases, plan_cases, arg_cases)


# ------------------------------------------------------------------------------------------ direct checks

def direct_checks() -> list[tuple[str, bool, str]]:
    """The readers the app calls with strangers' files: autosave recovery, the recent-files list."""
    from gpuplanner.io.autosave import AutosaveStore, RecentFiles

    out = []
    with tempfile.TemporaryDirectory(prefix="probe14-as-") as d:
        root = Path(d) / "autosave"
        root.mkdir()
        good = json.loads(PLAN_LORA.read_text(encoding="utf-8"))
        rec = {"autosave_format": 1, "session": "other", "pid": 2**31 - 2, "saved_at": "2026-12-07T00:00:00+00:00",
               "source_path": "/etc/passwd", "plan": {**good, "title": "t\x1b[2J\u202e\n<b>x</b>" * 50}}
        files = {
            "a-main": json.dumps(rec),
            "b-main": json.dumps(rec)[:200],  # truncated
            "c-main": json.dumps({**rec, "source_path": "x\x00y"}),
            "d-main": json.dumps({**rec, "saved_at": "9999-99-99"}),
            "e-main": json.dumps({**rec, "pid": -1, "pid_stamp": [1, 2]}),
            "f-main": "[" * 100_000,
            "g-main": json.dumps({**rec, "plan": {**good, "scenario": {"hardware": {"num_gpus": 2**63}}}}),
        }
        for n, text in files.items():
            (root / f"{n}.autosave").write_text(text, encoding="utf-8")
        os.symlink("/dev/zero", root / "h-main.autosave")
        os.mkdir(root / "i-main.autosave")
        t0 = time.perf_counter()
        try:
            got = AutosaveStore(root, session="mine").pending()
            lines = [r.describe() for r in got]
            bad = [ln for ln in lines if not ln.isprintable() or len(ln) > 600]
            ok = len(got) >= 8 and not bad and time.perf_counter() - t0 < MAX_SECONDS
            out.append(("autosave recovery of 9 hostile records", ok,
                        f"{len(got)} listed; {len(bad)} describe() lines not one printable line ≤ 600"
                        + (f": {bad[0][:120]!r}" if bad else "")))
        except Exception as e:  # noqa: BLE001
            out.append(("autosave recovery of 9 hostile records", False, f"{type(e).__name__}: {str(e)[:160]}"))
        recent = Path(d) / "recent.json"
        recent.write_text(json.dumps({"files": ["/etc/passwd", "a\x00b", "x" * 5000, 7, None] + [f"/p{i}" for i in range(10**5)]}))
        try:
            rf = RecentFiles(recent)
            entries = rf.entries()
            ok = len(entries) <= 10 and all("\x00" not in str(p) for p in entries)
            out.append(("recent files: 100,005 entries, NUL, 5,000-char path", ok, f"{len(entries)} entries"))
        except Exception as e:  # noqa: BLE001
            out.append(("recent files: 100,005 entries, NUL, 5,000-char path", False, f"{type(e).__name__}: {e}"))
    return out


def main(argv: list[str] | None = None) -> int:
    return probe_lib.main(argv, __doc__, ALL, direct_checks, "direct autosave recent")


if __name__ == "__main__":
    sys.exit(main())
