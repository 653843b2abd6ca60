"""One plan, one answer: the search's vectorised figures, ``evaluate`` on a plan's scenario, ``gpuplanner plan
--json`` and ``gpuplanner estimate --json`` agree for every example and for hundreds of random scenarios.

Random scenarios are seeded (reproducible); ``-m slow`` runs more of them.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from gpuplanner.cli import run_cli
from gpuplanner.core import rules as R
from gpuplanner.core.timing import gpu_generation
from gpuplanner.core import search as S
from gpuplanner.core.errors import PlannerError
from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.scenario import scenario_from_dict
from gpuplanner.io.scenario_files import load_scenario

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*.json")) + sorted((ROOT / "examples").glob("*.gpuplan"))

PRESETS = ["qwen2.5-0.5b", "qwen2.5-1.5b", "gpt2-xl", "llama-2-7b", "llama-3-8b", "mistral-7b-v0.1", "qwen2.5-14b",
           "gemma-2-9b", "glm-4-9b", "llama-2-13b", "qwen2.5-32b", "llama-3-70b", "mixtral-8x7b",
           "qwen3-30b-a3b", "deepseek-v2-lite", "phi-3-mini-4k", "bloom-7b1", "internlm2-7b"]
GPU_SETS = [None, ["h100-sxm-80gb", "a800-sxm-80gb"], ["rtx-4090-24gb", "l40s-48gb", "a100-sxm-80gb"],
            ["h800-sxm-80gb", "h20-96gb", "rtx-4090d-24gb", "h100-sxm-80gb"]]


def random_scenario(rng: random.Random) -> dict:
    """A valid-looking scenario as a user would fill it (preset, method, framework, tokens, constraints)."""
    method = rng.choice(["pretrain", "full", "lora", "qlora"])
    fw = rng.choice(["hf", "deepspeed", "fsdp", "megatron"]) if method in ("pretrain", "full") else rng.choice(
        ["hf", "deepspeed", "fsdp"])
    seq = rng.choice([1024, 2048, 4096, 8192, 32768])
    d: dict = {
        "model": {"preset": rng.choice(PRESETS)},
        "training": {"method": method, "framework": fw, "seq_len": seq,
                     "recompute": rng.choice(["none", "selective", "full"]),
                     "optimizer": rng.choice(["adamw", "adamw", "adamw_8bit"])},
        "parallel": {"vpp": rng.choice([1, 1, 2]), "offload_optimizer": rng.random() < 0.15},
        "data": {"tokens": rng.choice([1e8, 5e8, 2e9, 2e10, 1e11])},
        "constraints": {"max_gpus": rng.choice([8, 16, 64, 128]),
                        "hours_per_week": rng.choice([168, 168, 60]),
                        "phase": rng.choice(["stable", "research", "burst"]),
                        "objective": rng.choice(["cheapest", "fastest", "value"]),
                        "currency": rng.choice(["CNY", "USD"])},
    }
    if rng.random() < 0.5:
        d["constraints"]["deadline_days"] = rng.choice([3, 14, 30])
    if rng.random() < 0.2:
        d["constraints"]["budget"] = rng.choice([1e4, 1e5, 1e6])
    if fw in ("deepspeed", "fsdp") and rng.random() < 0.15:
        d["parallel"]["offload_params"] = True
        d["parallel"]["zero"] = 3
    gpus = rng.choice(GPU_SETS)
    if gpus:
        d["constraints"]["gpu_candidates"] = gpus
    if rng.random() < 0.3:
        d["training"]["global_batch_size"] = rng.choice([64, 128, 256, 512])
    if rng.random() < 0.2:
        d["assumptions"] = {"mfu": rng.choice([0.3, 0.45])}
    if rng.random() < 0.2:
        d["constraints"]["prices"] = {"h100-sxm-80gb": {"card_hour": 15.0, "machine_month": 60000.0,
                                                        "currency": "CNY"}}
    return d


def _scenarios(n: int, seed: int) -> list:
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        try:
            out.append(scenario_from_dict(random_scenario(rng)))
        except PlannerError:
            continue
    return out


def _same(a, b, rel=1e-9) -> bool:
    if a is None or b is None:
        return a is b
    a, b = float(a), float(b)
    return a == b or math.isclose(a, b, rel_tol=rel, abs_tol=1e-12)


# ------------------------------------------------------------------------- vectorised == evaluate

def test_vectorised_search_equals_evaluate_on_10000_candidates():
    """For random candidates of random scenarios, the ranking's arrays equal ``evaluate`` of the candidate's
    complete scenario, field by field (memory, fit, compute and calendar time, cost, mode, MFU)."""
    rng = np.random.default_rng(7)
    checked = fitting = 0
    mismatches: list = []
    for s in _scenarios(60, seed=11):
        for ctx in S.iter_contexts(s):
            c = S.enumerate_candidates(ctx, s.constraints.max_gpus)
            if not len(c["tp"]):
                continue
            vec = S.evaluate_candidates(ctx, c)
            for i in rng.choice(len(c["tp"]), size=min(45, len(c["tp"])), replace=False):
                sc = S.candidate_scenario(ctx, c, int(i))
                ev = evaluate(sc, resolved=replace(ctx.resolved, scenario=sc), prices=ctx.table,
                              overheads=ctx.overheads, rent_vs_build=False)
                checked += 1
                pairs = [("memory", vec["mem_gib"][i], ev.memory.total)]
                if bool(vec["fits"][i]) != ev.fits:
                    mismatches.append(("fits", ctx.gpu.id, sc.parallel, vec["fits"][i], ev.fits))
                if vec["fits"][i]:
                    fitting += 1
                    pairs += [("compute_days", vec["train_hours"][i] / 24.0, ev.compute_days),
                              ("calendar_days", vec["calendar_hours"][i] / 24.0, ev.calendar_days),
                              ("cost", vec["cost"][i], ev.cost), ("mfu", vec["mfu"][i], ev.mfu_modelled),
                              ("mfu_used", vec["mfu_used"][i], ev.mfu),
                              ("step_time", vec["train_hours"][i] / ev.time_modelled.compute_days / 24.0
                               * ev.time_modelled.step_time_s, ev.time.step_time_s),
                              ("comm_share", vec["comm_share"][i], _comm_share(ev))]
                    # the poor-MFU rule: the search's penalty bit is evaluate's verdict (failed, or allowed when off)
                    row = {k: vec[k][i:i + 1] for k in ("mfu", "mfu_training", "comm_share", "poor_below")}
                    if bool(S._poor_mfu(row)[0]) != _fails_mfu_grade(ev):
                        mismatches.append(("mfu_grade", ctx.gpu.id, sc.parallel, vec["comm_share"][i], ev.mfu))
                    if S.MODES[int(vec["mode"][i])] != ev.rental_mode:
                        mismatches.append(("mode", ctx.gpu.id, S.MODES[int(vec["mode"][i])], ev.rental_mode))
                    for j, m in enumerate(S.MODES):
                        if math.isfinite(vec["mode_costs"][j][i]) and not _same(vec["mode_costs"][j][i],
                                                                                 ev.mode_costs.get(m)):
                            mismatches.append(("mode_cost", m, vec["mode_costs"][j][i], ev.mode_costs.get(m)))
                for key, a, b in pairs:
                    if not _same(a, b):
                        mismatches.append((key, ctx.gpu.id, sc.parallel, sc.training.recompute, a, b))
    assert checked >= 10_000, checked
    assert fitting >= 2_000, fitting
    assert not mismatches, mismatches[:5]


def _comm_share(ev) -> float:
    tm = ev.time_modelled
    return float(R.rule_comm_share(R.comm_share(tm.seconds, tm.step_time_s, tm.seconds.get("generation", 0.0)),
                                   gpu_generation(ev.gpu_id)))


def _fails_mfu_grade(ev) -> bool:
    return [r.status for r in ev.rules if r.id == "mfu_grade"] in (["failed"], ["allowed"])


# ---------------------------------------------------------------------------- plan == estimate

def _plan_json(tmp_path: Path, scenario_dict: dict, capsys, top: int = 5) -> dict:
    f = tmp_path / "s.json"
    f.write_text(json.dumps(scenario_dict), encoding="utf-8")
    assert run_cli(["plan", str(f), "--json", "--top", str(top)]) == 0
    return json.loads(capsys.readouterr().out)


def _estimate_json(tmp_path: Path, scenario_dict: dict, capsys) -> dict:
    f = tmp_path / "plan-scenario.json"
    f.write_text(json.dumps(scenario_dict), encoding="utf-8")
    assert run_cli(["estimate", str(f), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


CONTRACT = ("memory_per_gpu_gib", "compute_days", "calendar_days", "cost", "currency", "rental_mode", "scenario")


def _check_plan_reproduces(tmp_path, p: dict, capsys) -> None:
    for key in CONTRACT:
        assert key in p, key
    assert "total" in p["memory_per_gpu_gib"]
    e = _estimate_json(tmp_path, p["scenario"], capsys)
    # to the displayed precision: one decimal of GiB and days, whole currency units
    assert f"{e['memory_per_gpu_gib']['total']:.1f}" == f"{p['memory_per_gpu_gib']['total']:.1f}"
    assert f"{e['calendar_days']:.1f}" == f"{p['calendar_days']:.1f}"
    assert f"{e['compute_days']:.1f}" == f"{p['compute_days']:.1f}"
    assert (e["cost"] is None) == (p["cost"] is None)
    if p["cost"] is not None:
        assert f"{e['cost']:,.0f}" == f"{p['cost']:,.0f}"
    assert (e["currency"], e["rental_mode"], e["gpu"], e["num_gpus"]) == \
        (p["currency"], p["rental_mode"], p["gpu"], p["num_gpus"])
    assert e["layout"] == p["layout"]


@pytest.mark.parametrize("example", [p.name for p in EXAMPLES])
def test_every_example_plan_reproduces_with_estimate(example, tmp_path, capsys):
    path = ROOT / "examples" / example
    assert run_cli(["plan", str(path), "--json", "--top", "5"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["plans"], example
    for p in out["plans"]:
        _check_plan_reproduces(tmp_path, p, capsys)


def _random_plan_parity(n: int, seed: int, tmp_path, capsys) -> int:
    rng = random.Random(seed)
    done = plans = 0
    while done < n:
        d = random_scenario(rng)
        try:
            scenario_from_dict(d)
        except PlannerError:
            continue
        out = _plan_json(tmp_path, d, capsys)
        done += 1
        for p in out["plans"]:
            plans += 1
            _check_plan_reproduces(tmp_path, p, capsys)
    return plans


def test_random_scenarios_top5_plans_reproduce_with_estimate(tmp_path, capsys):
    plans = _random_plan_parity(200, seed=2026, tmp_path=tmp_path, capsys=capsys)
    assert plans >= 500, plans


@pytest.mark.slow
def test_more_random_scenarios_reproduce(tmp_path, capsys):
    _random_plan_parity(1000, seed=99, tmp_path=tmp_path, capsys=capsys)


def test_estimate_of_a_plan_file_is_its_selected_plan(capsys):
    """``estimate FILE.gpuplan`` evaluates the selected plan's complete scenario, which keeps vpp, sequence
    parallelism and the selection's own quote (schema 2 files are migrated)."""
    path = ROOT / "examples" / "70b-cpt-64xh100.gpuplan"
    assert run_cli(["estimate", str(path), "--json"]) == 0
    e = json.loads(capsys.readouterr().out)
    assert e["layout"]["vpp"] == 2 and e["layout"]["sequence_parallel"] is True
    assert e["layout"]["tp"] == 8 and e["layout"]["pp"] == 4
    assert e["scenario"]["constraints"]["prices"]["h100-sxm-80gb"]["card_hour"] == 6.16
    assert e["currency"] == "USD" and e["cost"] is not None


def test_scenario_with_no_price_has_calendar_days_but_no_cost(tmp_path, capsys):
    d = {"model": {"preset": "llama-3-8b"}, "hardware": {"gpu": "l40-48gb", "num_gpus": 8},
         "parallel": {"zero": 3}, "training": {"framework": "fsdp"}, "data": {"tokens": "1B"}}
    e = _estimate_json(tmp_path, d, capsys)
    assert e["cost"] is None and e["rental_mode"] is None
    assert e["calendar_days"] > e["compute_days"] > 0
    assert any("No rental price" in m for m in e["messages"])


def test_user_choices_kept_in_every_plan_scenario():
    """What the user set and the search does not vary (optimizer offload, interleaving where it divides the
    layers, precision, optimizer) is kept in each plan's scenario; nothing is silently dropped."""
    s = scenario_from_dict({"model": {"preset": "llama-3-70b"}, "training": {"framework": "megatron",
                            "method": "pretrain", "optimizer": "adamw_8bit"},
                            "parallel": {"vpp": 2, "offload_optimizer": True}, "data": {"tokens": "20B"},
                            "constraints": {"max_gpus": 128, "gpu_candidates": ["h100-sxm-80gb"]}})
    res = S.search(s, top=5)
    assert res.plans
    for p in res.plans:
        ps = p.scenario
        assert ps.parallel.offload_optimizer is True and ps.training.optimizer == "adamw_8bit"
        assert ps.parallel.vpp == (2 if p.pp > 1 and 80 % (p.pp * 2) == 0 else 1)
        ev = evaluate(ps)
        assert ev.memory.total == pytest.approx(p.memory_per_gpu_gib, rel=1e-12)
        assert ev.calendar_days == pytest.approx(p.calendar_days, rel=1e-12)


def test_rent_vs_build_is_the_same_in_plan_and_estimate(tmp_path, capsys):
    d = {"model": {"preset": "llama-3-8b"}, "training": {"method": "full", "framework": "fsdp"},
         "data": {"tokens": "2B"}, "constraints": {"max_gpus": 8, "hours_per_week": 60,
                                                   "gpu_candidates": ["h100-sxm-80gb"]}}
    out = _plan_json(tmp_path, d, capsys, top=1)
    p = out["plans"][0]
    e = _estimate_json(tmp_path, p["scenario"], capsys)
    assert out["rent_vs_build"] == p["rent_vs_build"] == e["rent_vs_build"]
    assert e["rent_vs_build"]["own_total"] > 0


def test_load_scenario_of_a_plan_file_uses_the_selection():
    s, _ = load_scenario(ROOT / "examples" / "qwen3-moe-full-16xh100.gpuplan")
    assert s.parallel.ep == 8 and s.hardware.num_gpus == 16


@pytest.mark.parametrize("training", [
    {"method": "lora", "framework": "hf", "dora": True, "lora_targets": "qv"},
    {"method": "qlora", "framework": "llamafactory", "dora": True, "lora_targets": "all_linear", "recompute": "full"},
    {"method": "lora", "framework": "deepspeed", "dora": True, "lora_targets": "mlp", "lora_dropout": 0.05},
    {"method": "lora", "framework": "ms-swift", "lora_targets": "mlp"},
    # NeMo AutoModel's LoRA linears (training.lora_layer, round 14 nemoauto14): dropout on the adapter's output
    {"method": "lora", "framework": "fsdp", "lora_layer": "automodel", "lora_dropout": 0.1}])
def test_dora_and_lora_targets_search_equals_evaluate(training, tmp_path, capsys):
    """training.dora and the mlp/qv targets (timing.dora_terms, memory.DORA_*): the ranking's arrays equal
    ``evaluate`` of each candidate, and the top plans reproduce with ``estimate``."""
    d = {"model": {"preset": "llama-3-8b"}, "training": {"seq_len": 2048, **training},
         "data": {"tokens": 2e8}, "constraints": {"max_gpus": 8, "gpu_candidates": ["h100-sxm-80gb", "l40s-48gb"]}}
    s = scenario_from_dict(d)
    checked = 0
    for ctx in S.iter_contexts(s):
        c = S.enumerate_candidates(ctx, s.constraints.max_gpus)
        vec = S.evaluate_candidates(ctx, c)
        for i in range(0, len(c["tp"]), max(1, len(c["tp"]) // 12)):
            sc = S.candidate_scenario(ctx, c, int(i))
            ev = evaluate(sc, resolved=replace(ctx.resolved, scenario=sc), prices=ctx.table,
                          overheads=ctx.overheads, rent_vs_build=False)
            assert _same(vec["mem_gib"][i], ev.memory.total), (ctx.gpu.id, sc.parallel)
            assert bool(vec["fits"][i]) == ev.fits
            if ev.fits:
                assert _same(vec["train_hours"][i] / 24.0, ev.compute_days), (ctx.gpu.id, sc.parallel)
            checked += 1
    assert checked >= 4
    for p in _plan_json(tmp_path, d, capsys)["plans"]:
        _check_plan_reproduces(tmp_path, p, capsys)


# ------------------------------------------------------------------- round 9's new paths (issue 35 r9 parity9)

def _h100(n: int) -> dict:
    return {"max_gpus": n, "gpu_candidates": ["h100-sxm-80gb"]}


def _grpo_rl(**kw) -> dict:
    """verl's colocated GRPO rollout as bench/rl_step_times_r9.py's ``_v`` enters it (5 responses of ≤ 1,024)."""
    rl = {"group_size": 5, "rollout_len": 1024, "prompt_len": 103, "generation_engine": "vllm_colocated",
          "generation_gpu_fraction": 0.2, "engine_sleep": True, "mean_response_fraction": 0.26,
          "reward": "function", "updates_per_generation": 1, "rollout_tp": 2, "enforce_eager": True,
          "sleep_level": 1, "prompt_pad_len": 512, "max_num_seqs": 512}
    rl.update(kw)
    return rl


#: (case id, scenario dict) — one per round-9 mechanism; each is searched over its GPU count and compared
ROUND9_CASES = [
    ("qlora-qkv_mlp-hf",
     {"model": {"preset": "llama-3-8b"},
      "training": {"method": "qlora", "framework": "hf", "seq_len": 2048, "lora_targets": "qkv_mlp"},
      "data": {"tokens": 2e8}, "constraints": {"max_gpus": 8, "gpu_candidates": ["h100-sxm-80gb", "l40s-48gb"]}}),
    ("verl-grpo-lora-fsdp1",  # bench/rl_step_times_r9.py _lora (qwen2.5-7b, 8 GPUs)
     {"model": {"preset": "qwen2.5-7b"},
      "training": {"objective": "grpo", "method": "lora", "lora_rank": 32, "framework": "fsdp", "fsdp_version": 1,
                   "padding_free": True, "seq_len": 103 + 1024, "micro_batch_size": 8, "global_batch_size": 320,
                   "recompute": "full", "preference": {"beta": 0.001, "reference": "lora_base"}, "rl": _grpo_rl()},
      "parallel": {"zero": 3, "offload_optimizer": True, "offload_params": True},
      "data": {"tokens": 5e7}, "constraints": _h100(8)}),
    ("megatron-swift-lora-qwen3-moe-ep",  # bench/validate_megatron_ft_oos9.py swift-qwen3-30b-a3b-lora-ep2
     {"model": {"preset": "qwen3-30b-a3b"},
      "training": {"framework": "megatron-swift", "method": "lora", "lora_rank": 8, "lora_targets": "all_linear",
                   "precision": "bf16", "flash_attention": True, "recompute": "full", "seq_len": 2048,
                   "micro_batch_size": 8, "global_batch_size": 16, "packing": False, "padding_free": True},
      "parallel": {"ep": 2, "zero": 1}, "data": {"tokens": 2e8, "mean_sample_len": 1000},
      "constraints": {"max_gpus": 8, "gpu_candidates": ["a800-sxm-80gb"]}}),
    ("torchtitan-float8-tensorwise-tp",  # tests/test_mechanics_titan_float8_tp.py _tt, TP searched up to 8
     {"model": {"preset": "llama-3.1-8b"},
      "training": {"framework": "fsdp", "method": "pretrain", "seq_len": 8192, "micro_batch_size": 2,
                   "recompute": "op_sac", "precision": "fp8", "fp8_recipe": "torchao_tensorwise",
                   "torch_compile": True, "global_batch_size": 64},
      "parallel": {"zero": 3, "tp": 2, "sequence_parallel": True},
      "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 16}, "data": {"tokens": 2e9}, "constraints": _h100(16)}),
    ("torchtitan-float8-rowwise-asynctp",
     {"model": {"preset": "llama-3.1-8b"},
      "training": {"framework": "fsdp", "method": "pretrain", "seq_len": 8192, "micro_batch_size": 2,
                   "recompute": "op_sac", "precision": "fp8", "fp8_recipe": "torchao_rowwise",
                   "torch_compile": True, "global_batch_size": 64, "tp_comm_overlap": True},
      "parallel": {"zero": 3, "tp": 2, "sequence_parallel": True},
      "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 16}, "data": {"tokens": 2e9}, "constraints": _h100(16)}),
    ("nanotron-pp2",  # bench/validate_pretrain_oos9.py nanotron_scenario (1.34B cell's shape), PP 2
     {"model": {"name": "nanotron bench 1.34B", "hidden_size": 2048, "num_hidden_layers": 16,
                "num_attention_heads": 32, "num_key_value_heads": 32, "intermediate_size": 8192,
                "vocab_size": 131072, "tie_word_embeddings": True, "max_position_embeddings": 4096},
      "training": {"method": "pretrain", "framework": "nanotron", "precision": "bf16", "seq_len": 4096,
                   "micro_batch_size": 4, "global_batch_size": 256, "recompute": "none", "flash_attention": True},
      "parallel": {"tp": 1, "pp": 2, "vpp": 1, "zero": 1},
      "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 16}, "data": {"tokens": 2e9}, "constraints": _h100(16)}),
    ("gpt-neox-gptj-tp2",  # bench/validate_pretrain_oos10.py pythia_scenario (6.9B shape): the gpt-neox tool (round 10)
     {"model": {"name": "Pythia 6.9B", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
                "num_key_value_heads": 32, "intermediate_size": 16384, "vocab_size": 50304, "gated_mlp": False,
                "hidden_act": "gelu", "tie_word_embeddings": False, "norm_type": "layernorm",
                "attention_bias": True, "attention_out_bias": True, "mlp_bias": True, "max_position_embeddings": 2048},
      "training": {"method": "pretrain", "framework": "gpt-neox", "precision": "fp16", "seq_len": 2048,
                   "micro_batch_size": 8, "global_batch_size": 1024, "recompute": "full", "gpt_j_residual": True,
                   "flash_attention": True, "attention_kernel": "flash1"},
      "parallel": {"tp": 2, "pp": 1, "zero": 1},
      "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 16}, "data": {"tokens": 2e9},
      "constraints": {"max_gpus": 16, "gpu_candidates": ["a100-sxm-80gb"]}}),
    ("dpo-megatron-swift-ref-grad-buffer",
     {"model": {"preset": "qwen2.5-7b"},
      "training": {"objective": "dpo", "method": "full", "framework": "megatron-swift", "seq_len": 2048,
                   "recompute": "full", "global_batch_size": 16,
                   "preference": {"reference_grad_buffer": True}},
      "data": {"tokens": 1e8}, "constraints": _h100(8)}),
    ("hf-lora-empty-cache-mean-len",
     {"model": {"preset": "llama-3-8b"},
      "training": {"method": "lora", "framework": "hf", "seq_len": 2048, "micro_batch_size": 2, "recompute": "full",
                   "flash_attention": True, "empty_cache_steps": 10},  # tests/test_mechanics_empty_cache.py _mb
      "data": {"tokens": 2e8, "mean_sample_len": 512}, "constraints": _h100(8)}),
    ("grpo-response-len-std",
     {"model": {"preset": "qwen2.5-7b"},
      "training": {"objective": "grpo", "method": "full", "framework": "fsdp", "padding_free": True,
                   "seq_len": 103 + 1024, "micro_batch_size": 4, "global_batch_size": 320, "recompute": "full",
                   "preference": {"beta": 0.001, "reference_offload": True},
                   "rl": _grpo_rl(sleep_level=2, response_len_std=150.0)},
      "parallel": {"zero": 3}, "data": {"tokens": 5e7}, "constraints": _h100(8)}),
]


def _round9_picks(c: dict) -> list:
    """Every 12th candidate and up to 3 of each (tp, pp, ep) layout, so TP 2, PP 2 and EP > 1 are all compared."""
    n = len(c["tp"])
    groups: dict = {}
    for i in range(n):
        groups.setdefault((int(c["tp"][i]), int(c["pp"][i]), int(c["ep"][i])), []).append(i)
    picks = set(range(0, n, max(1, n // 12)))
    for idx in groups.values():
        picks.update(idx[::max(1, len(idx) // 3)][:3])
    return sorted(picks)


@pytest.mark.parametrize("d", [d for _, d in ROUND9_CASES], ids=[k for k, _ in ROUND9_CASES])
def test_round9_paths_search_equals_evaluate(d, tmp_path, capsys):
    """Round 9's new paths (qkv_mlp targets, FSDP1 LoRA actor, Megatron-SWIFT MoE LoRA, torchao float8 TP and
    AsyncTP, nanotron PP, the reference's gradient buffer, empty_cache_steps with mean_sample_len, the response
    length spread): the ranking's arrays equal ``evaluate`` of each candidate, and the top plans reproduce with
    ``estimate``."""
    s = scenario_from_dict(d)
    checked = fitting = 0
    for ctx in S.iter_contexts(s):
        c = S.enumerate_candidates(ctx, s.constraints.max_gpus)
        if not len(c["tp"]):
            continue
        vec = S.evaluate_candidates(ctx, c)
        for i in _round9_picks(c):
            sc = S.candidate_scenario(ctx, c, int(i))
            ev = evaluate(sc, resolved=replace(ctx.resolved, scenario=sc), prices=ctx.table,
                          overheads=ctx.overheads, rent_vs_build=False)
            assert _same(vec["mem_gib"][i], ev.memory.total), (ctx.gpu.id, sc.parallel)
            assert bool(vec["fits"][i]) == ev.fits, (ctx.gpu.id, sc.parallel)
            if ev.fits:
                fitting += 1
                assert _same(vec["train_hours"][i] / 24.0, ev.compute_days), (ctx.gpu.id, sc.parallel)
                assert _same(vec["mfu"][i], ev.mfu_modelled), (ctx.gpu.id, sc.parallel)
            checked += 1
    assert checked >= 4 and fitting >= 1, (checked, fitting)
    for p in _plan_json(tmp_path, d, capsys, top=3)["plans"]:
        _check_plan_reproduces(tmp_path, p, capsys)
        # the allocator's reserved figure too (empty_cache_steps scales its cached segments only)
        e = _estimate_json(tmp_path, p["scenario"], capsys)
        for key in ("allocated", "reserved"):
            assert f"{e['memory_per_gpu_gib'][key]:.1f}" == f"{p['memory_per_gpu_gib'][key]:.1f}", key


# (found by issue 35 r9 parity9: every plan's scenario kept parallel.auto True, and estimate of an automatic layout
# answers the search's #1; Plan.to_json now fixes the plan's layout)
def test_auto_layout_plan_scenarios_reproduce_with_estimate(tmp_path, capsys):
    d = json.loads(json.dumps(dict(ROUND9_CASES)["torchtitan-float8-tensorwise-tp"]))
    d["parallel"]["auto"] = True
    for p in _plan_json(tmp_path, d, capsys, top=3)["plans"]:
        _check_plan_reproduces(tmp_path, p, capsys)
