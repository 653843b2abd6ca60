"""Hostile input on every CLI entry point, round 13: the fields added in rounds 10-12 at their bounds and against the
frameworks that refuse them, and the files a stranger hands over (scenario JSON, .gpuplan, config.json, quote sheets,
kit results, pasted tool output) broken in the usual ways.

    python bench/probe_hostile_r13.py [--only SUBSTRING] [--list] [--fork]

Each case runs ``gpuplanner ARGS`` in-process (as ``tests/test_hostile_input.py`` does) in a fresh scratch folder,
under a 20-second alarm (the runner is ``bench/probe_lib.py``, shared by every probe). The rules (the developers'
brief, "Strangers' files are hostile"):

* the exit code is the one expected (2 for a refusal; ``0|2`` where either is a fair answer);
* an exit 2 prints exactly ONE line ``gpuplanner: error: …``: printable, at most 400 characters, no "Traceback", no
  pydantic dump ("validation error", "For further information"), naming the words the case lists (field, value);
* stdout holds no terminal control, bidirectional override or invisible character; ``--json`` output is strict JSON;
* nothing is written outside the scratch folder, and in it only the files the command was asked to write;
* no case takes more than :data:`MAX_SECONDS`.

Prints one line per case (PASS/FAIL with the first error line) and a summary; exit 1 when a case fails. Cases are a
fixed list (no randomness): the mutation fuzzers are ``bench/fuzz_planfile.py`` and ``tests/test_hostile_input.py``.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import probe_lib  # noqa: E402  (the runner, the judge and the shared builders)
from probe_lib import _DEL, EXAMPLE, GRPO, KIT, MOE, PLAN_LORA, PLAN_PROJECT, QUOTES, ROOT, Case, patched, s  # noqa: E402

MEGATRON_MOE = {"training__framework": "megatron"}


# ---------------------------------------------------------------------------------------------- the cases


def field_cases() -> list[Case]:
    """The round 10-12 fields at and past their bounds, and combined with what refuses them."""
    g = GRPO
    colo = {"training__rl__generation_engine": "vllm_colocated"}
    return [
        # training.lora_dropout (r12): [0, 1)
        s("lora_dropout 1.0", EXAMPLE, ("training.lora_dropout",), training__lora_dropout=1.0),
        s("lora_dropout -1e-300", EXAMPLE, ("training.lora_dropout",), training__lora_dropout=-1e-300),
        s("lora_dropout 1e308", EXAMPLE, ("training.lora_dropout",), training__lora_dropout=1e308),
        s("lora_dropout string", EXAMPLE, ("training.lora_dropout",), training__lora_dropout="0.1; rm -rf /"),
        s("lora_dropout true", EXAMPLE, ("training.lora_dropout",), training__lora_dropout=True),
        s("lora_dropout [0.1]", EXAMPLE, ("training.lora_dropout",), training__lora_dropout=[0.1]),
        s("lora_dropout -0.0 (zero)", EXAMPLE, (), expect="0", training__lora_dropout=-0.0),
        s("lora_dropout 0.999999", EXAMPLE, (), expect="0", training__lora_dropout=0.999999,
          training__method="lora"),
        # training.recompute_modules (r12): Megatron selective only
        s("recompute_modules on hf", EXAMPLE, ("training.recompute_modules",), training__recompute_modules=["mlp"]),
        s("recompute_modules unknown module", EXAMPLE, ("training.recompute_modules", "gated_delta_net"),
          training__framework="megatron", training__recompute="megatron_selective",
          training__recompute_modules=["gated_delta_net"]),
        s("recompute_modules a string", EXAMPLE, ("training.recompute_modules",), training__framework="megatron",
          training__recompute="megatron_selective", training__recompute_modules="core_attn"),
        s("recompute_modules nested", EXAMPLE, ("training.recompute_modules",), training__framework="megatron",
          training__recompute="megatron_selective", training__recompute_modules=[["core_attn"]]),
        s("recompute_modules with recompute full", EXAMPLE, ("training.recompute_modules",),
          training__framework="megatron", training__recompute="full", training__recompute_modules=["mlp"]),
        s("recompute_modules 200,000 items", EXAMPLE, (), cmd="plan", expect="0",
          training__framework="megatron", training__recompute="megatron_selective", parallel__zero=1,
          training__recompute_modules=["core_attn", "mlp"] * 100_000),
        s("recompute_modules duplicates", EXAMPLE, (), expect="0|2", training__framework="megatron",
          training__recompute="megatron_selective", parallel__zero=1,
          training__recompute_modules=["mlp", "mlp", "core_attn"]),
        s("recompute_modules fp8 delayed + layernorm", EXAMPLE, ("training.recompute_modules",),
          training__framework="megatron", training__recompute="megatron_selective", parallel__zero=1,
          training__precision="fp8", training__fp8_recipe="te_delayed", training__recompute_modules=["layernorm"]),
        # parallel.ep_a2a_overlap (r12)
        s("ep_a2a_overlap on hf", MOE, ("parallel.ep_a2a_overlap",), training__framework="hf",
          parallel__ep_a2a_overlap=True),
        s("ep_a2a_overlap ep=1", MOE, ("parallel.ep_a2a_overlap", "parallel.ep"), training__framework="megatron",
          training__recompute="none", parallel__ep=1, parallel__ep_a2a_overlap=True),
        s("ep_a2a_overlap 'sometimes'", MOE, ("parallel.ep_a2a_overlap", "sometimes"),
          parallel__ep_a2a_overlap="sometimes"),
        s("ep_a2a_overlap allgather", MOE, ("parallel.ep_a2a_overlap", "allgather"), training__framework="megatron",
          training__recompute="none", parallel__moe_dispatcher="allgather", parallel__ep_a2a_overlap=True),
        s("ep_a2a_overlap pp=2 without vpp", MOE, ("parallel.ep_a2a_overlap", "vpp"), training__framework="megatron",
          training__recompute="none", parallel__pp=2, parallel__ep_a2a_overlap=True),
        s("ep_a2a_overlap with moe recomputed", MOE, ("parallel.ep_a2a_overlap", "moe"), training__framework="megatron",
          training__recompute="megatron_selective", training__recompute_modules=["moe"],
          parallel__ep_a2a_overlap=True),
        s("ep_a2a_overlap recompute full", MOE, ("parallel.ep_a2a_overlap", "full"), training__framework="megatron",
          training__recompute="full", parallel__ep_a2a_overlap=True),
        # training.rl.* (r10-r12)
        s("rl.offload_model on hf", g, ("training.rl.offload_model",), training__framework="hf",
          training__rl__offload_model=True, **colo),
        s("rl.offload_model with vllm_separate", g, ("training.rl.offload_model", "vllm_colocated"),
          training__rl__generation_engine="vllm_separate", training__rl__offload_model=True),
        s("rl.offload_model 2", g, ("training.rl.offload_model",), training__rl__offload_model=2),
        s("rl.schedule one_step_off colocated", g, ("training.rl.schedule",), training__rl__schedule="one_step_off",
          **colo),
        s("rl.schedule unknown", g, ("training.rl.schedule",), training__rl__schedule="async"),
        s("rl.sleep_level 3", g, ("training.rl.sleep_level",), training__rl__sleep_level=3),
        s("rl.sleep_level true", g, ("training.rl.sleep_level",), training__rl__sleep_level=True),
        s("rl.sleep_level 1.5", g, ("training.rl.sleep_level",), training__rl__sleep_level=1.5),
        s("rl.enforce_eager 'false'", g, (), expect="0|2", training__rl__enforce_eager="false"),
        s("rl.enforce_eager 'maybe'", g, ("training.rl.enforce_eager",), training__rl__enforce_eager="maybe"),
        s("rl.max_num_seqs 0", g, ("training.rl.max_num_seqs",), training__rl__max_num_seqs=0),
        s("rl.max_num_seqs 10**30", g, ("training.rl.max_num_seqs",), training__rl__max_num_seqs=10**30),
        s("rl.max_num_seqs 1e6 (bound)", g, (), expect="0", training__rl__max_num_seqs=1_000_000),
        s("rl.prompt_pad_len 0", g, ("training.rl.prompt_pad_len",), training__rl__prompt_pad_len=0),
        s("rl.rollout_tp 1025", g, ("training.rl.rollout_tp",), training__rl__rollout_tp=1025),
        s("rl.rollout_tp 3 of 8 GPUs", g, (), expect="0|2", training__rl__rollout_tp=3, **colo),
        s("rl.critic_padding_free 'x'", g, ("training.rl.critic_padding_free",), training__rl__critic_padding_free="x"),
        s("rl.response_len_std -1", g, ("training.rl.response_len_std",), training__rl__response_len_std=-1),
        s("rl.mean_response_fraction 0", g, ("training.rl.mean_response_fraction",),
          training__rl__mean_response_fraction=0),
        s("rl.updates_per_generation 0", g, ("training.rl.updates_per_generation",),
          training__rl__updates_per_generation=0),
        s("rl.generation_gpu_fraction 1", g, ("training.rl.generation_gpu_fraction",),
          training__rl__generation_gpu_fraction=1),
        s("rl.rollout_len past seq_len", g, ("rollout",), training__rl__rollout_len=10_000_000),
        s("rl.rollout_len past seq_len, no prompt_len", g, ("training.rl.rollout_len", "10000000"),
          training__rl__rollout_len=10_000_000, training__rl__prompt_len=_DEL),
        s("rl.rollout_len = seq_len, no prompt_len", g, ("training.rl.rollout_len",),
          training__rl__rollout_len=g["training"]["seq_len"], training__rl__prompt_len=_DEL),
        s("rl.prompt_len + rollout past seq_len", g, ("training.rl", "seq_len"), training__rl__prompt_len=10_000_000),
        s("rl.group_size 4096 x 100,000 updates", g, (), expect="0|2", training__rl__group_size=4096,
          training__rl__updates_per_generation=100_000),
        s("rl unknown key", g, ("training.rl", "zz_new"), training__rl__zz_new=1),
        # other round 10-12 fields
        s("empty_cache_steps on megatron", EXAMPLE, ("training.empty_cache_steps",), training__framework="megatron",
          parallel__zero=1, training__empty_cache_steps=10),
        s("ds_config_auto 'auto'", EXAMPLE, ("training.ds_config_auto",), training__ds_config_auto="auto"),
        # pydantic's lax booleans: 1/0, "true"/"false", "yes"/"no" read as what they say (unambiguous; kept)
        s("fp8_all_gather 1", EXAMPLE, (), expect="0", training__fp8_all_gather=1),
        s("fp8_all_gather 2", EXAMPLE, ("training.fp8_all_gather", "2"), training__fp8_all_gather=2),
        s("gpt_j_residual on hf", EXAMPLE, ("training.gpt_j_residual",), training__gpt_j_residual=True),
        s("cuda_graph_scope on hf", EXAMPLE, ("parallel.cuda_graph_scope",), parallel__cuda_graph_scope="attn"),
        s("moe_capacity_factor -1", MOE, ("parallel.moe_capacity_factor",), training__framework="megatron",
          parallel__moe_capacity_factor=-1),
        s("moe_capacity_factor NaN", MOE, ("moe_capacity_factor",), training__framework="megatron",
          parallel__moe_capacity_factor=float("nan")),
        s("rpo_alpha on sft", EXAMPLE, ("rpo_alpha",), training__preference__rpo_alpha=1.0),
        s("attention_kernel flash9", EXAMPLE, ("training.attention_kernel",), training__attention_kernel="flash9"),
        s("attn_implementation fa2 without flash", EXAMPLE, ("attn_implementation",),
          training__attn_implementation="flash_attention_2", training__flash_attention=False),
        s("fp8 precision alias clash", EXAMPLE, ("fp8_recipe",), training__precision="fp8_te_delayed",
          training__fp8_recipe="torchao_rowwise"),
        s("precision fp4", EXAMPLE, ("training.precision",), training__precision="fp4"),
        s("data.tokens '1e400'", EXAMPLE, ("data.tokens",), data__tokens="1e400"),
        s("data.tokens '5Q'", EXAMPLE, ("data.tokens",), data__tokens="5Q"),
        s("data.tokens -0", EXAMPLE, (), expect="0|2", data__tokens=-0.0),
        s("data.tokens 1e308", EXAMPLE, ("data.tokens",), data__tokens=1e308),
        s("hardware.gpu 'x'*300", EXAMPLE, ("hardware.gpu",), hardware__gpu="x" * 300),
        s("hardware.gpu unknown", EXAMPLE, ("hardware.gpu", "h100<b>x</b>"), hardware__gpu="h100<b>x</b>"),
        s("gpu_candidates unknown", EXAMPLE, ("constraints.gpu_candidates", "zz"), cmd="plan",
          constraints__gpu_candidates=["zz"]),
        s("precision fp4 names the value", EXAMPLE, ("training.precision", "fp4"), training__precision="fp4"),
        s("recompute_modules unknown names the value", EXAMPLE, ("gated_delta_net",), training__framework="megatron",
          training__recompute="megatron_selective", training__recompute_modules=["core_attn", "gated_delta_net"]),
        s("num_gpus 2**63 names the value", EXAMPLE, ("hardware.num_gpus", "9223372036854775808"),
          hardware__num_gpus=2**63),
        s("a 5,000-character value is cut", EXAMPLE, ("training.precision",), training__precision="x" * 5000),
        s("num_gpus 2**63", EXAMPLE, ("hardware.num_gpus",), hardware__num_gpus=2**63),
        s("num_gpus 10**400 literal", EXAMPLE, ("hardware.num_gpus",), hardware__num_gpus=10**400),
    ]


def serving_cases() -> list[Case]:
    """A project's serving phase (core/project.InferenceSpec, round 11-12 fields) through ``project`` and ``report``."""
    case = probe_lib.serving_case

    return [
        case("serve kv_precision int4", ("kv_precision",), kv_precision="int4"),
        case("serve engine unknown", ("engine",), engine="triton"),
        case("serve gpu_memory_utilization 0", ("gpu_memory_utilization",), gpu_memory_utilization=0),
        case("serve gpu_memory_utilization 1.01", ("gpu_memory_utilization",), gpu_memory_utilization=1.01),
        case("serve length_spread sharegpt, long prompts", ("sharegpt",), length_spread="sharegpt",
             prompt_tokens=3000, output_tokens=512, context_tokens=4096),
        case("serve output > context", ("output_tokens",), output_tokens=9000, context_tokens=4096),
        case("serve prompt+output > context", ("prompt_tokens",), prompt_tokens=4000, output_tokens=512,
             context_tokens=4096),
        case("serve concurrency 10**12", ("concurrency",), concurrency=10**12),
        case("serve tokens_per_s_per_user Infinity", ("tokens_per_s_per_user",), tokens_per_s_per_user=1e999),
        case("serve gpu_candidates 201", ("gpu_candidates",), gpu_candidates=["h100-sxm-80gb"] * 201),
        case("serve tensorrt-llm fp8 kv on bf16", (), expect="0|2", engine="tensorrt-llm", kv_precision="fp8"),
        case("serve gpu unknown", ("gpu",), gpu="no-such-gpu\u202e"),
        case("serve via report", ("gpu_memory_utilization",), cmd=("report", "-o", "r.pdf"),
             gpu_memory_utilization=2),
    ]


def _phase_name_plan(name: str) -> str:
    d = json.loads(PLAN_PROJECT.read_text(encoding="utf-8"))
    d["project"]["phases"][0]["name"] = name
    if d["project"].get("main_phase") == name:
        d["project"]["main_phase"] = None
    return json.dumps(d, ensure_ascii=False)


def text_cases() -> list[Case]:
    """Names from a file shown by the CLI, JSON output, PDF and written sheets: markup, controls, bidi, formulas."""
    evil = "<b>bold</b>\u202eevil\x1b[2J\u2066=cmd|' /C calc'!A0"
    named = patched(EXAMPLE, model__name=evil)
    return [
        Case("model.name with markup/bidi/escape: estimate", ["estimate", "s.json"], {"s.json": named}, "0"),
        Case("model.name with markup/bidi/escape: plan --json", ["plan", "s.json", "--json", "--top", "1"],
             {"s.json": named}, "0"),
        Case("model.name with markup/bidi/escape: report", ["report", "s.json", "-o", "r.pdf"], {"s.json": named},
             "0", outputs=("r.pdf",)),
        Case("phase name with controls: project", ["project", "p.gpuplan"],
             {"p.gpuplan": _phase_name_plan("clean\x1b]0;pwn\x07\u202e")}, "0|2"),
        Case("phase name 121 chars", ["project", "p.gpuplan"], {"p.gpuplan": _phase_name_plan("n" * 121)}, "2",
             ("name",)),
        Case("quote with formula provider: quotes --json", ["quotes", str(PLAN_LORA), "q.csv", "--json"],
             {"q.csv": QUOTES.read_text(encoding="utf-8").replace("AutoDL (example)", "=HYPERLINK(\"http://x\")")},
             "0"),
        Case("quote with formula provider: --rfq", ["quotes", str(PLAN_LORA), "q.csv", "--rfq", "rfq.pdf"],
             {"q.csv": QUOTES.read_text(encoding="utf-8").replace("AutoDL (example)", "=cmd|' /C calc'!A0")},
             "0", outputs=("rfq.pdf",)),
        Case("quote --save into a copy of the plan", ["quotes", "p.gpuplan", "q.csv", "--save"],
             {"p.gpuplan": PLAN_LORA.read_bytes(),
              "q.csv": QUOTES.read_text(encoding="utf-8").replace("AutoDL (example)", "@SUM(1+1)*cmd|' /C calc'!A0")},
             "0|2", outputs=("p.gpuplan", "p.gpuplan.bak")),  # the previous version as .bak (io/planfile.save)
    ]


def file_cases() -> list[Case]:
    """The files themselves: encodings, size, nesting, duplicates, paths."""
    ex = json.dumps(EXAMPLE)
    deep = '{"model": ' + "[" * 100_000 + "]" * 100_000 + "}"
    dup = ex[:-1] + ', "training": {"seq_len": 1}}'
    cases = [
        Case("BOM + scenario", ["estimate", "s.json"], {"s.json": b"\xef\xbb\xbf" + ex.encode()}, "0|2"),
        Case("UTF-16 scenario", ["estimate", "s.json"], {"s.json": ex.encode("utf-16")}, "2", ("s.json",)),
        Case("latin-1 bytes", ["estimate", "s.json"], {"s.json": ex.replace("llama-3-8b", "llama\xe9").encode("latin-1")},
             "2", ("s.json",)),
        Case("NUL inside", ["estimate", "s.json"], {"s.json": ex.encode() + b"\0"}, "2", ("s.json",)),
        Case("duplicate section", ["estimate", "s.json"], {"s.json": dup}, "2", ("training",)),
        Case("100,000-deep nesting", ["estimate", "s.json"], {"s.json": deep}, "2", ("s.json",)),
        Case("11 MB scenario", ["estimate", "s.json"], {"s.json": ex[:-1] + ', "x": "' + "a" * 11_000_000 + '"}'},
             "2", ("s.json",)),
        Case("number 1e999", ["estimate", "s.json"], {"s.json": ex.replace('"micro_batch_size": 2', '"micro_batch_size": 1e999')},
             "2", ("micro_batch_size",)),
        Case("100,000-digit integer", ["estimate", "s.json"],
             {"s.json": ex.replace('"micro_batch_size": 2', '"micro_batch_size": ' + "9" * 100_000)}, "2", ("s.json",)),
        Case("empty file", ["estimate", "s.json"], {"s.json": b""}, "2", ("s.json",)),
        Case("a list at the top", ["estimate", "s.json"], {"s.json": "[1, 2]"}, "2", ("s.json",)),
        Case("a folder", ["estimate", "."], {}, "2", ()),
        Case("/dev/zero", ["estimate", "/dev/zero"], {}, "2", ("zero", "regular file")),
        Case("missing file", ["estimate", "nope.json"], {}, "2", ("nope.json",)),
        Case("odd file name", ["estimate", "a b\u202e\n;$(x).json"], {"a b\u202e\n;$(x).json": ex}, "0"),
        Case("symlink to the example", ["estimate", "link.json"], {"link.json": ("symlink",
                                                                              str(ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json"))},
             "0"),
        Case("symlink loop", ["estimate", "loop.json"], {"loop.json": ("symlink", "loop.json")}, "2", ("loop.json",)),
        Case("hf_config path with NUL", ["estimate", "s.json"], {"s.json": patched(EXAMPLE, model__preset=None,
                                                                                   model__hf_config="a\0b")},
             "2", ("NUL",)),
        Case("hf_config /dev/zero", ["estimate", "s.json"], {"s.json": patched(EXAMPLE, model__preset=None,
                                                                               model__hf_config="/dev/zero")},
             "2", ("model.hf_config", "regular file")),
        Case("hf_config pointing at a 12 MB config.json", ["estimate", "s.json"],
             {"s.json": patched(EXAMPLE, model__preset=None, model__hf_config="m/config.json"),
              "m/config.json": '{"model_type": "llama", "x": "' + "a" * 12_000_000 + '"}'}, "2", ("config.json",)),
        Case("config.json hidden_size NaN", ["estimate", "s.json"],
             {"s.json": patched(EXAMPLE, model__preset=None, model__hf_config="m"),
              "m/config.json": '{"model_type": "llama", "hidden_size": NaN, "num_hidden_layers": 2, '
                               '"num_attention_heads": 2, "vocab_size": 10, "intermediate_size": 8}'},
             "2", ("hidden_size",)),
        Case("config.json hidden_size '4096'", ["estimate", "s.json"],
             {"s.json": patched(EXAMPLE, model__preset=None, model__hf_config="m"),
              "m/config.json": '{"model_type": "llama", "hidden_size": "4096", "num_hidden_layers": 2, '
                               '"num_attention_heads": 2, "vocab_size": 10, "intermediate_size": 8}'},
             "2", ("hidden_size",)),
        Case("config.json duplicate key", ["estimate", "s.json"],
             {"s.json": patched(EXAMPLE, model__preset=None, model__hf_config="m"),
              "m/config.json": '{"model_type": "llama", "hidden_size": 64, "hidden_size": 128, "num_hidden_layers": 2, '
                               '"num_attention_heads": 2, "vocab_size": 10, "intermediate_size": 8}'},
             "0|2", ("hidden_size",)),
        Case("config.json model_type with markup", ["estimate", "s.json"],
             {"s.json": patched(EXAMPLE, model__preset=None, model__hf_config="m"),
              "m/config.json": '{"model_type": "<img src=x>\\u202e", "hidden_size": 64, "num_hidden_layers": 2, '
                               '"num_attention_heads": 2, "vocab_size": 10, "intermediate_size": 128}'}, "0|2"),
        Case("kit result NaN mfu", ["kit-import", str(ROOT / "examples" / "7b-lora-1x4090.json"), "r.json"],
             {"r.json": KIT.read_text(encoding="utf-8").replace('"busbw_gbs": 330.0', '"busbw_gbs": NaN', 1)}, "2",
             ("r.json", "busbw_gbs")),
        Case("kit result duplicate key", ["kit-import", str(ROOT / "examples" / "7b-lora-1x4090.json"), "r.json"],
             {"r.json": KIT.read_text(encoding="utf-8").replace('"backend": "nccl",', '"backend": "nccl", "backend": "x",')},
             "2", ("backend",)),
        Case("kit result wrong type", ["kit-import", str(ROOT / "examples" / "7b-lora-1x4090.json"), "r.json"],
             {"r.json": KIT.read_text(encoding="utf-8").replace('"busbw_gbs": 330.0', '"busbw_gbs": "fast"', 1)}, "2",
             ("busbw_gbs", "fast")),
        Case("kit result 100,000-deep", ["kit-import", str(ROOT / "examples" / "7b-lora-1x4090.json"), "r.json"],
             {"r.json": "[" * 100_000}, "2", ("r.json",)),
        Case("kit -o into a missing folder", ["kit", str(ROOT / "examples" / "7b-lora-1x4090.json"), "-o",
                                              "no/such/k.sh"], {}, "2", ("k.sh", "does not exist")),
        Case("report -o onto a folder", ["report", str(ROOT / "examples" / "7b-lora-1x4090.json"), "-o", "."], {}, "2"),
        Case("report --author with markup", ["report", str(ROOT / "examples" / "7b-lora-1x4090.json"), "-o", "r.pdf",
                                             "--author", "<h1>x</h1>\u202e\x1b[2J"], {}, "0", outputs=("r.pdf",)),
        Case("a flag out of range", ["plan", "x.json", "--top", "0"], {}, "2", ("plan: argument --top", "got 0"),
             absent=("[-h]", "COMMAND")),
        Case("a missing argument", ["kit-import", "x.json"], {}, "2", ("kit-import: ", "RESULT.json"),
             absent=("[-h]",)),
        Case("an unknown command", ["nosuchcmd"], {}, "2", ("nosuchcmd",)),
        Case("topo from stdin with escapes", ["topo", "-"], {}, "0|2", stdin=b"\x1b]0;pwn\x07GPU0\tX\n" * 10),
        Case("health from stdin 3 MB", ["health", "-"], {}, "0|2", stdin=b"A" * 3_000_000),
        Case("net bidi in port", ["net", "n.txt"], {"n.txt": "CA 'mlx5_0\u202e'\n\tPort 1:\n\t\tState: Active\n"},
             "0|2"),
    ]
    return cases


#: names a written quote sheet must keep as text: formula starts, and characters XML cannot hold
SHEET_NAMES = ["=cmd|' /C calc'!A0", "+1+1", "-2+3", "@SUM(1)", "\t=1+1", "\r=HYPERLINK(\"http://x\")",
               "a\x07b\x1b[2J", "\u202e=1+1", "<b>x</b>"]


def sheet_checks() -> list[tuple[str, bool, str]]:
    """The quote sheets the app writes (Quotes page: export; ``io/quote_sheets.write_csv``/``write_xlsx``) from
    quotes whose vendor, region and note hold :data:`SHEET_NAMES`: written without an error, every text cell a
    spreadsheet would run as a formula written as text (CSV: a leading apostrophe; XLSX: a string cell)."""
    import csv
    import openpyxl

    from gpuplanner.core.quotes import VendorQuote
    from gpuplanner.io import quote_sheets as qs

    base = qs.read_quotes(QUOTES)[0].model_dump()
    out = []
    for name in SHEET_NAMES:
        what = f"written sheet, vendor {name!r}"
        try:
            q = VendorQuote.model_validate({**base, "provider": name, "region": name,
                                            "offers": [{**base["offers"][0], "note": name}]})
            rows = list(csv.reader(io.StringIO(qs.write_csv(q).decode("utf-8-sig"))))
            wb = openpyxl.load_workbook(io.BytesIO(qs.write_xlsx([q])))
        except Exception as e:  # noqa: BLE001 (a crash is what the probe looks for)
            out.append((what, False, f"{type(e).__name__}: {str(e)[:120]}"))
            continue
        bad = [c for r in rows for c in r if c and c[0] in "=+-@\t\r"]
        bad += [c.value for ws in wb.worksheets for r in ws.iter_rows() for c in r
                if isinstance(c.value, str) and c.value[:1] == "=" and c.data_type != "s"]
        out.append((what, not bad, f"formula cells {bad[:3]}" if bad else "ok"))
    return out


ALL = (field_cases, serving_cases, text_cases, file_cases)


def main(argv: list[str] | None = None) -> int:
    return probe_lib.main(argv, __doc__, ALL, sheet_checks, "written sheet")


if __name__ == "__main__":
    sys.exit(main())
