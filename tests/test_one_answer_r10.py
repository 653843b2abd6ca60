"""One plan, one answer on round 10's new paths (issue 35 r10 parity10).

For each path a plan search can reach, the search's vectorised arrays equal ``evaluate()`` of the same candidate,
and ``gpuplanner plan --json``'s plans fed back to ``gpuplanner estimate --json`` answer the same plan (layout,
memory, days, cost, the allocated/reserved figures and the likely range). Each case also switches its round-10
term off (a scenario field or the term's own function) and checks that the top plans' figures move, so a case
cannot pass with the term absent.

Serving's round-10 paths (vLLM V0's engine loop, SGLang's KV pool) are not reachable from a plan search (the
planner's engines never use ``v0``; serving has no plan search), so they have no case here.
"""

from __future__ import annotations

import copy
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from gpuplanner.core import fsdp1_units as FU
from gpuplanner.core import memory as M
from gpuplanner.core import moe_balance as MB
from gpuplanner.core import packing as PK
from gpuplanner.core import rank_imbalance as RI
from gpuplanner.core import search as S
from gpuplanner.core import timing as T
from gpuplanner.core import zero3 as Z3
from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.scenario import scenario_from_dict

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_one_answer import (ROUND9_CASES, _check_plan_reproduces, _estimate_json, _grpo_rl,  # noqa: E402
                             _plan_json, _round9_picks, _same)

R9 = dict(ROUND9_CASES)


def _h100(n: int) -> dict:
    return {"max_gpus": n, "gpu_candidates": ["h100-sxm-80gb"]}


def _field(section: str, key: str, value):
    """A toggle that sets ``section.key`` (``training.rl.x`` style paths allowed) to ``value`` in the scenario."""
    def off(d: dict, _mp) -> dict:
        d = copy.deepcopy(d)
        node = d
        parts = section.split(".")
        for p in parts:
            node = node.setdefault(p, {})
        node[key] = value
        return d
    off.__name__ = f"{section}.{key}={value}"
    return off


def _patch(obj, attr: str, value):
    """A toggle that replaces the term's own function or constant (the scenario unchanged)."""
    def off(d: dict, mp) -> dict:
        mp.setattr(obj, attr, value)
        return d
    off.__name__ = f"{getattr(obj, '__name__', obj)}.{attr}"
    return off


def _no_mi300x_ceiling(d: dict, mp) -> dict:
    mp.delitem(T.ATTN_KERNEL_CEILING["flash2"], T.gpu_generation("mi300x-192gb"))
    return d


def _bridge(**training) -> dict:
    """70B, so the search's plans need TP > 1 (the adapters' collectives are TP's)."""
    return {"model": {"preset": "llama-3-70b"},
            "training": {"framework": "megatron-bridge", "method": "lora", "seq_len": 4096, "precision": "fp8",
                         "tp_comm_overlap": True, **training},
            "data": {"tokens": 2e8}, "constraints": _h100(8)}


def _fsdp1_grpo() -> dict:
    """verl10's FSDP1 actor on a host-bound 0.5B policy (the hooks' host time shows in the step)."""
    d = copy.deepcopy(R9["grpo-response-len-std"])
    d["model"]["preset"] = "qwen2.5-0.5b"
    d["training"]["fsdp_version"] = 1
    return d


#: (case id, scenario dict, toggles that switch the round-10 term off)
ROUND10_CASES = [
    ("z3-ds-config-auto-coalesced",  # z3pair10: hidden-size bucket keys 'auto'; coalesced prefetch host loops
     {"model": {"preset": "qwen2.5-0.5b"},  # host-bound: the hooks' host time shows in the step
      "training": {"method": "full", "framework": "deepspeed", "seq_len": 512, "micro_batch_size": 1,
                   "global_batch_size": 64, "recompute": "full", "ds_config_auto": True},
      "parallel": {"zero": 3, "offload_params": True}, "data": {"tokens": 2e8}, "constraints": _h100(8)},
     [_field("training", "ds_config_auto", False), _patch(Z3, "z3_coalesced_host_seconds_layer", lambda *a, **k: 0.0)]),
    ("bridge-lora-a2a",  # mlperf10: row-parallel adapters' all-to-alls
     _bridge(lora_targets="attention", lora_a2a=True),
     [_field("training", "lora_a2a", False)]),
    ("bridge-lora-disable-qkv",  # mlperf10: qkv overlap lost
     _bridge(lora_targets="all_linear", tp_comm_overlap_disable_qkv=True),
     [_field("training", "tp_comm_overlap_disable_qkv", False)]),
    ("flash1-a100",  # neox10: FlashAttention-1's ceiling on Ampere
     {"model": {"preset": "llama-2-7b"},
      "training": {"method": "pretrain", "framework": "megatron", "seq_len": 2048, "attention_kernel": "flash1"},
      "data": {"tokens": 2e9}, "constraints": {"max_gpus": 16, "gpu_candidates": ["a100-sxm-80gb"]}},
     [_field("training", "attention_kernel", "flash2")]),
    ("mi300x-attention-ceiling",  # titan10: CK FlashAttention-2 rates on CDNA3
     {"model": {"preset": "llama-3.1-8b"},
      "training": {"framework": "fsdp", "method": "pretrain", "seq_len": 8192, "micro_batch_size": 1,
                   "recompute": "op_sac", "precision": "bf16", "torch_compile": True, "global_batch_size": 8},
      "parallel": {"zero": 3}, "data": {"tokens": 2e9},
      "constraints": {"max_gpus": 8, "gpu_candidates": ["mi300x-192gb"],
                      "prices": {"mi300x-192gb": {"card_hour": 20.0, "machine_month": 90000.0, "currency": "CNY"}}}},
     [_no_mi300x_ceiling]),
    ("ms-swift-packed-row-fill",  # ftstep10: ms-swift's packed rows run their samples' sum
     {"model": {"preset": "qwen2.5-7b"},
      "training": {"method": "full", "framework": "ms-swift", "seq_len": 16384, "micro_batch_size": 1,
                   "global_batch_size": 8, "packing": True, "liger_kernel": True, "recompute": "full"},
      "parallel": {"zero": 3}, "data": {"tokens": 2e8, "mean_sample_len": 9942},
      "constraints": {"max_gpus": 8, "gpu_candidates": ["a100-sxm-80gb"]}},
     [_patch(PK, "packed_row_fill", lambda *a, **k: 1.0)]),
    ("trl-bfd-packed-row-fill",  # ftstep10: TRL's bfd packing, the same fill
     {"model": {"preset": "llama-3-8b"},
      "training": {"method": "lora", "framework": "trl", "seq_len": 4096, "micro_batch_size": 2, "packing": True},
      "data": {"tokens": 2e8, "mean_sample_len": 1000}, "constraints": _h100(8)},
     [_patch(PK, "packed_row_fill", lambda *a, **k: 1.0)]),
    ("liger-lora-not-fused",  # ftstep10: Liger fuses the layers' element-wise ops, not PEFT's adapter ops
     {"model": {"preset": "llama-3-8b"},
      "training": {"method": "lora", "framework": "hf", "seq_len": 2048, "micro_batch_size": 4, "liger_kernel": True,
                   "lora_dropout": 0.05},
      "data": {"tokens": 2e8}, "constraints": _h100(8)},
     [_patch(T, "lora_ops_fused", lambda *a, **k: True)]),
    ("verl-fsdp1-unit-hooks",  # verl10: FSDP1 decoder-unit hooks
     _fsdp1_grpo(), [_patch(FU, "applies", lambda *a, **k: False)]),
    ("grpo-slowest-rank-wait",  # verl10: the slowest rank's rollout wait (response length spread)
     R9["grpo-response-len-std"], [_patch(RI, "straggler_factor", lambda *a, **k: 1.0)]),
    ("verl-lora-offload-sleeping-pool",  # postoos10: per-phase offload, vLLM's sleeping pool in the counters
     R9["verl-grpo-lora-fsdp1"],
     [_patch(M, "sleeping_pool_counted_bytes", lambda *a, **k: 0.0),
      _patch(M, "verl_offload_per_phase", lambda *a, **k: False)]),
    ("peft-lora-dropout-memory",  # ftmem10: PEFT's dropout keeps its output and mask per adapted input
     {"model": {"preset": "llama-3-8b"},
      "training": {"method": "lora", "framework": "hf", "seq_len": 2048, "micro_batch_size": 4,
                   "lora_targets": "all_linear", "lora_dropout": 0.1, "recompute": "none"},
      "data": {"tokens": 2e8}, "constraints": _h100(8)},
     [_field("training", "lora_dropout", 0.0)]),
    ("fsdp1-root-unit",  # ftmem10: FSDP1's root unit (embedding, final norm, head) stays gathered
     {"model": {"preset": "llama-2-70b"},  # 70B: the search's plans need ZeRO-3 (FULL_SHARD)
      "training": {"method": "lora", "framework": "fsdp", "fsdp_version": 1, "lora_rank": 64, "seq_len": 512,
                   "micro_batch_size": 1, "recompute": "full", "flash_attention": True},
      "parallel": {"zero": 3}, "data": {"tokens": 5e7}, "constraints": _h100(8)},
     [_patch(M, "fsdp1_root_unit_bytes", lambda *a, **k: (0.0, 0.0))]),
    ("moe-rank-imbalance",  # moeimb10: the busiest EP rank of a dropless MoE layer
     {"model": {"preset": "qwen3-30b-a3b"},
      "training": {"method": "pretrain", "framework": "megatron", "precision": "bf16", "seq_len": 4096},
      "data": {"tokens": 2e10}, "constraints": _h100(32)},
     [_patch(MB, "moe_rank_imbalance", lambda *a, **k: 1.0)]),
    ("megatron-swift-moe-host",  # swiftmoe10: per trainable expert weight host bookkeeping
     R9["megatron-swift-lora-qwen3-moe-ep"],
     [_patch(T, "MOE_HOST_OPS_PER_TRAINABLE_WEIGHT", 0.0)]),
]
IDS = [k for k, _, _ in ROUND10_CASES]

#: figures that ``plan --json`` and ``estimate --json`` both print from the one evaluation (compared exactly)
SAME_IN_BOTH = ("step_time_s", "mfu_modelled", "mfu_used", "time_parts", "time_modelled", "time_attention_kernel",
                "memory_per_gpu_gib", "deadline_risk", "meets_deadline", "tokens_per_s", "mfu_grade")


@pytest.mark.parametrize("d", [d for _, d, _ in ROUND10_CASES], ids=IDS)
def test_round10_paths_search_equals_evaluate(d, tmp_path, capsys):
    """The ranking's arrays equal ``evaluate`` of each candidate (every (tp, pp, ep) layout), and the top plans of
    ``plan --json`` reproduce with ``estimate --json``, the allocated/reserved figures and likely range included.
    Candidates: every 12th, up to 3 of each (tp, pp, ep) layout, and about 6 of those that fit."""
    s = scenario_from_dict(d)
    checked = fitting = 0
    for ctx in S.iter_contexts(s):
        c = S.enumerate_candidates(ctx, s.constraints.max_gpus)
        if not len(c["tp"]):
            continue
        vec = S.evaluate_candidates(ctx, c)
        fit = [int(j) for j in np.flatnonzero(vec["fits"])]
        for i in sorted(set(_round9_picks(c)) | set(fit[::max(1, len(fit) // 6)])):
            sc = S.candidate_scenario(ctx, c, int(i))
            ev = evaluate(sc, resolved=replace(ctx.resolved, scenario=sc), prices=ctx.table,
                          overheads=ctx.overheads, rent_vs_build=False)
            assert _same(vec["mem_gib"][i], ev.memory.total), (ctx.gpu.id, sc.parallel)
            assert bool(vec["fits"][i]) == ev.fits, (ctx.gpu.id, sc.parallel)
            if ev.fits:
                fitting += 1
                assert _same(vec["train_hours"][i] / 24.0, ev.compute_days), (ctx.gpu.id, sc.parallel)
                assert _same(vec["mfu"][i], ev.mfu_modelled), (ctx.gpu.id, sc.parallel)
                assert _same(vec["cost"][i], ev.cost), (ctx.gpu.id, sc.parallel)
                assert _same(vec["calendar_hours"][i] / 24.0, ev.calendar_days), (ctx.gpu.id, sc.parallel)
                assert _same(vec["mfu_used"][i], ev.mfu), (ctx.gpu.id, sc.parallel)
            checked += 1
    assert checked >= 4 and fitting >= 1, (checked, fitting)
    plans = _plan_json(tmp_path, d, capsys, top=3)["plans"]
    assert plans
    for p in plans:
        _check_plan_reproduces(tmp_path, p, capsys)
        e = _estimate_json(tmp_path, p["scenario"], capsys)
        for key in ("allocated", "reserved"):
            assert f"{e['memory_per_gpu_gib'][key]:.1f}" == f"{p['memory_per_gpu_gib'][key]:.1f}", key
        for key in [k for k in p if "band" in k or "range" in k] + list(SAME_IN_BOTH):
            assert e.get(key) == p.get(key), key


@pytest.mark.parametrize("d", [d for _, d, _ in ROUND10_CASES], ids=IDS)
def test_round10_automatic_layout_plans_reproduce(d, tmp_path, capsys):
    """With ``parallel.auto`` on, plan N's scenario fed back to ``estimate`` still answers plan N, not the
    search's #1 (the contract parity9 found broken and Plan.to_json fixed)."""
    d = copy.deepcopy(d)
    d.setdefault("parallel", {})["auto"] = True
    plans = _plan_json(tmp_path, d, capsys, top=3)["plans"]
    assert plans
    for p in plans:
        _check_plan_reproduces(tmp_path, p, capsys)


@pytest.mark.parametrize("d", [d for _, d, _ in ROUND10_CASES], ids=IDS)
def test_round10_deadline_risk_search_equals_evaluate(d):
    """With a deadline at the rows' median calendar days, the ranking's risk bit (search._band_risk, advice11's
    band widened to hold the estimate) equals evaluate()'s deadline_risk on each fitting candidate."""
    s0 = scenario_from_dict(d)
    ctx0 = next(ctx for ctx in S.iter_contexts(s0) if len(S.enumerate_candidates(ctx, s0.constraints.max_gpus)["tp"]))
    c = S.enumerate_candidates(ctx0, s0.constraints.max_gpus)
    vec = S.evaluate_candidates(ctx0, c)
    rows = np.flatnonzero(vec["fits"])[:40]
    assert len(rows) >= 1
    d = copy.deepcopy(d)
    d["constraints"]["deadline_days"] = float(np.median(vec["calendar_hours"][rows])) / 24.0
    s = scenario_from_dict(d)
    ctx = next(x for x in S.iter_contexts(s) if x.gpu.id == ctx0.gpu.id)
    sub = {"num_gpus": c["num_gpus"][rows], "nodes": c["nodes"][rows], "train_hours": vec["train_hours"][rows],
           "mode": vec["mode"][rows], "calendar_hours": vec["calendar_hours"][rows], "cost": vec["cost"][rows]}
    risk = S._band_risk(ctx, sub, None)
    assert risk.any()  # some rows miss the deadline at their band's far end: the bit is exercised
    for k, i in enumerate(rows):
        sc = S.candidate_scenario(ctx, c, int(i))
        ev = evaluate(sc, resolved=replace(ctx.resolved, scenario=sc), prices=ctx.table, overheads=ctx.overheads,
                      rent_vs_build=False)
        assert bool(risk[k]) == (ev.deadline_risk is True), (ctx.gpu.id, sc.parallel, ev.calendar_days_band)


def _figures(ps) -> tuple:
    """The modelled step time and MFU (the estimate's time may be a framework's measured band instead), the
    memory total and the allocator's reserved figure."""
    ev = evaluate(ps)
    return (ev.time_modelled.step_time_s, ev.mfu_modelled, ev.memory.total,
            getattr(ev.memory, "reserved", 0.0) or 0.0)


@pytest.mark.parametrize("case", ROUND10_CASES, ids=IDS)
def test_round10_term_is_not_zero_on_its_case(case, monkeypatch):
    """Switching the case's round-10 term off moves the figures of at least one of its top plans (so the parity
    case above exercises the term)."""
    _, d, toggles = case
    plans = S.search(scenario_from_dict(d), top=3).plans
    assert plans
    for off in toggles:
        moved = []
        for p in plans:
            on = _figures(p.scenario)
            with monkeypatch.context() as mp:
                d_off = off(p.scenario.model_dump(mode="json", exclude_none=True), mp)
                without = _figures(scenario_from_dict(d_off))
            moved.append(any(not _same(a, b, rel=1e-6) for a, b in zip(on, without)))
        assert any(moved), off.__name__


def _random_r10(rng) -> dict:
    """test_one_answer's random scenario with round 10's user choices drawn on top (each with its default too)."""
    from test_one_answer import random_scenario
    d = random_scenario(rng)
    t = d["training"]
    t["attention_kernel"] = rng.choice(["auto", "auto", "flash1", "flash2"])
    if t["framework"] in ("hf", "deepspeed"):
        t["ds_config_auto"] = rng.choice([None, True, False])
    if t["framework"] == "fsdp":
        t["fsdp_version"] = rng.choice([1, 2])
    if t["method"] in ("lora", "qlora"):
        t["lora_dropout"] = rng.choice([0.0, 0.05, 0.1])
    t["liger_kernel"] = rng.random() < 0.3
    if rng.random() < 0.3:
        t["packing"] = True
        d["data"]["mean_sample_len"] = rng.choice([300, 1000, 3000])
    if rng.random() < 0.3:
        d["constraints"]["gpu_candidates"] = rng.choice([["a100-sxm-80gb"], ["mi300x-192gb", "h100-sxm-80gb"]])
    return d


def test_random_round10_choices_search_equals_evaluate():
    """Random scenarios with round 10's choices (flash1, ds_config_auto, FSDP1, LoRA dropout, Liger, packing, A100
    and MI300X): the arrays equal ``evaluate`` of random candidates (memory, fits, compute days, MFU)."""
    import random
    rng, pick = random.Random(1010), np.random.default_rng(10)
    checked = fitting = 0
    for _ in range(40):
        try:
            s = scenario_from_dict(_random_r10(rng))
        except Exception:  # noqa: BLE001 - a refused combination, as a user would see it
            continue
        for ctx in S.iter_contexts(s):
            c = S.enumerate_candidates(ctx, s.constraints.max_gpus)
            if not len(c["tp"]):
                continue
            vec = S.evaluate_candidates(ctx, c)
            for i in pick.choice(len(c["tp"]), size=min(8, len(c["tp"])), replace=False):
                sc = S.candidate_scenario(ctx, c, int(i))
                ev = evaluate(sc, resolved=replace(ctx.resolved, scenario=sc), prices=ctx.table,
                              overheads=ctx.overheads, rent_vs_build=False)
                assert _same(vec["mem_gib"][i], ev.memory.total), (ctx.gpu.id, sc.training, sc.parallel)
                assert bool(vec["fits"][i]) == ev.fits, (ctx.gpu.id, sc.parallel)
                if ev.fits:
                    fitting += 1
                    assert _same(vec["train_hours"][i] / 24.0, ev.compute_days), (ctx.gpu.id, sc.training,
                                                                                   sc.parallel)
                    assert _same(vec["mfu"][i], ev.mfu_modelled), (ctx.gpu.id, sc.parallel)
                checked += 1
    assert checked >= 300 and fitting >= 60, (checked, fitting)


def test_random_round10_automatic_layout_plans_reproduce(tmp_path, capsys):
    """The same random scenarios with ``parallel.auto`` on: every plan of ``plan --json`` reproduces with
    ``estimate --json`` (plan N answers plan N)."""
    import random
    rng = random.Random(2010)
    done = plans = 0
    while done < 12:
        d = _random_r10(rng)
        d["parallel"]["auto"] = True
        try:
            scenario_from_dict(d)
        except Exception:  # noqa: BLE001 - a refused combination
            continue
        done += 1
        for p in _plan_json(tmp_path, d, capsys, top=3)["plans"]:
            plans += 1
            _check_plan_reproduces(tmp_path, p, capsys)
    assert plans >= 15, plans
