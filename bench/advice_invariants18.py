"""The infrastructure expert's rejection list as machine-checked invariants over many everyday requests
(issue 35 round 18, advinv18).

An expert rejected an earlier plan #1 for: TP over PCIe on GeForce cards (no P2P), LoRA on DeepSpeed pipeline
parallelism, MoE without expert parallelism where the experts do not fit, an MFU above the best published run of its
class winning the ranking, prices of mixed kinds deciding #1, a 40 h/week rent-vs-own rule that never fires; and for
the principles: only stacks the tools really run, deadlines and budgets met at the band's far end, memory with
headroom. Each is written below as code over plan #1 and the top 5 of seeded random requests, read through the app's
own path (:func:`gpuplanner.app.answer.answer` on a :class:`Document`: the plans every view shows), with the rule it
enforces cited next to it. The checks recompute what they can from first principles (bytes per parameter, quotes ×
billed hours, the published ceilings' figures) instead of trusting the flag the planner sets.

Run from the repository root::

    .venv/bin/python bench/advice_invariants18.py [N] [SEED]     # default 320 training + 40 serving requests

It prints the violations per invariant, with the first request of each, and exits 0.
"""

from __future__ import annotations

import math
import random
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's package, not an installed one

from gpuplanner.core.errors import PlannerError  # noqa: E402
from gpuplanner.core.frameworks import engine_of  # noqa: E402
from gpuplanner.core.scenario import scenario_from_dict  # noqa: E402

# ------------------------------------------------------------------------------------------------- the requests

DENSE = ["qwen2.5-0.5b", "qwen2.5-1.5b", "gpt2-xl", "llama-2-7b", "qwen2.5-7b", "llama-3.1-8b", "mistral-7b-v0.1",
         "qwen2.5-14b", "gemma-2-9b", "glm-4-9b", "llama-2-13b", "internlm2-20b", "qwen2.5-32b", "yi-34b",
         "llama-3-70b", "qwen2.5-72b", "llama-3.1-405b"]
MOE = ["mixtral-8x7b", "mixtral-8x22b", "qwen3-30b-a3b", "deepseek-v2-lite", "qwen1.5-moe-a2.7b",
       "qwen2-57b-a14b", "qwen3-235b-a22b"]
#: every GPU kind of the shipped catalog (resources/gpus.json) that has figures, GeForce included
GPUS = ["h100-sxm-80gb", "h100-pcie-80gb", "h100-nvl-94gb", "h800-sxm-80gb", "h200-sxm-141gb", "h200-nvl-141gb",
        "h20-96gb", "a100-sxm-40gb", "a100-sxm-80gb", "a100-pcie-40gb", "a100-pcie-80gb", "a800-sxm-80gb",
        "a800-pcie-80gb", "l40s-48gb", "l40-48gb", "l20-48gb", "rtx-a6000-48gb", "rtx-4090-24gb", "rtx-4090d-24gb",
        "rtx-5090-32gb", "b200-180gb", "gb200-186gb", "v100-sxm-32gb", "v100-pcie-32gb", "mi300x-192gb",
        "ascend-910b-64gb"]
GEFORCE = ["rtx-4090-24gb", "rtx-4090d-24gb", "rtx-5090-32gb"]


def random_request(rng: random.Random) -> dict:
    """One everyday training request as a team fills it in: a preset (dense 0.5B–405B or MoE), a method and an
    objective, tokens, a card set (often one named card, GeForce often), and constraints from tight to loose."""
    model = rng.choice(DENSE + MOE) if rng.random() < 0.75 else rng.choice(MOE)
    method = rng.choice(["pretrain", "full", "full", "lora", "lora", "qlora"])
    objective = "sft"
    if method != "pretrain" and rng.random() < 0.3:
        objective = rng.choice(["dpo", "dpo", "grpo"])
    seq = rng.choice([1024, 2048, 4096, 8192, 32768])
    d: dict = {"model": {"preset": model},
               "training": {"method": method, "seq_len": seq}, "parallel": {"auto": True},
               "data": {"tokens": rng.choice([2e7, 1e8, 5e8, 2e9, 2e10, 2e11])},
               "constraints": {"max_gpus": rng.choice([1, 2, 4, 8, 8, 16, 32, 64, 256]),
                               "hours_per_week": rng.choice([168, 168, 100, 60, 40, 20, 8]),
                               "phase": rng.choice(["stable", "research", "burst"]),
                               "objective": rng.choice(["cheapest", "cheapest", "fastest", "value"]),
                               "currency": rng.choice(["CNY", "CNY", "USD"])}}
    if objective != "sft":
        d["training"]["objective"] = objective
    if objective == "grpo":
        d["training"].update(seq_len=2560, rl={"group_size": 8, "prompt_len": 512, "rollout_len": 2048})
    if rng.random() < 0.25:
        d["training"]["framework"] = rng.choice(["hf", "deepspeed", "fsdp", "megatron", "llamafactory", "ms-swift",
                                                 "megatron-swift", "trl"])
    if rng.random() < 0.6:
        d["constraints"]["deadline_days"] = rng.choice([0.5, 1, 3, 7, 14, 30, 90])
    if rng.random() < 0.35:
        d["constraints"]["budget"] = rng.choice([300, 3e3, 3e4, 3e5, 3e6])
    r = rng.random()
    if r < 0.35:
        d["constraints"]["gpu_candidates"] = [rng.choice(GPUS)]
    elif r < 0.5:
        d["constraints"]["gpu_candidates"] = list(GEFORCE) + rng.sample(GPUS, 2)
    elif r < 0.7:
        d["constraints"]["gpu_candidates"] = rng.sample(GPUS, 4)
    r = rng.random()
    if r < 0.12:
        d["constraints"]["rental_mode"] = rng.choice(["card_hour", "week", "month"])
    elif r < 0.22:  # a user's quote with all three kinds: card-hours, a week and a month of an 8-card server
        g = rng.choice(GPUS[:13])
        ch = rng.choice([8.0, 15.0, 25.0])
        d["constraints"]["prices"] = {g: {"card_hour": ch, "machine_week": ch * 8 * 168 * rng.choice([0.4, 0.7, 1.2]),
                                          "machine_month": ch * 8 * 730 * rng.choice([0.3, 0.6, 1.1]),
                                          "machine_gpus": 8, "currency": "CNY"}}
        d["constraints"]["currency"] = "CNY"
    return d


def random_serving(rng: random.Random) -> dict:
    """One serving request (a project's inference phase): model, users, lengths, weeks, card set."""
    spec = {"concurrency": rng.choice([5, 30, 100, 500, 2000]), "prompt_tokens": rng.choice([200, 1500, 6000]),
            "output_tokens": rng.choice([200, 500, 1500]), "tokens_per_s_per_user": rng.choice([10, 20, 40])}
    spec["context_tokens"] = spec["prompt_tokens"] + spec["output_tokens"]
    r = rng.random()
    if r < 0.4:
        spec["gpu_candidates"] = list(GEFORCE) + rng.sample(GPUS, 2)
    elif r < 0.6:
        spec["gpu_candidates"] = [rng.choice(GPUS[:20])]
    return {"model": rng.choice(DENSE[:16] + MOE[:4]), "weeks": rng.choice([0.5, 2.0, 8.0, 26.0]),
            "hours_per_week": rng.choice([168.0, 60.0, 40.0]), "inference": spec,
            "currency": rng.choice(["CNY", "USD"])}


# ------------------------------------------------------------------------------------------------- first principles

#: tools built on the Hugging Face Trainer / Accelerate (or their own single-process loop): no tensor, pipeline,
#: context or expert parallelism in the trainer (Transformers docs, "Trainer" / "Efficient training on multiple
#: GPUs": DDP, FSDP, DeepSpeed ZeRO; Unsloth: one GPU). TRL's trainers subclass Trainer.
HF_TRAINER_TOOLS = ("hf", "trl", "llamafactory", "unsloth", "axolotl", "ms-swift")
#: tools that build PEFT adapters on a pipeline-parallel model: Megatron-family tools with their own LoRA layers
#: (ms-swift ``megatron sft --train_type lora``, swift/megatron/tuners; NeMo / Megatron-Bridge ``peft=lora``).
#: DeepSpeed's pipeline engine trains a ``deepspeed.pipe.PipelineModule`` (DeepSpeed docs "Pipeline Parallelism":
#: "the model must be expressed as a sequence of layers"), which neither PEFT nor the Trainer builds; Megatron-LM
#: itself has no LoRA.
PP_LORA_TOOLS = ("megatron-swift", "megatron-bridge")
#: tools with expert parallelism for Hugging Face MoE models: Megatron-Core (``--expert-model-parallel-size``) and
#: the tools on it; torchtitan (``parallelism.expert_parallel_degree``, its own MoE models); nanotron has EP.
EP_TOOLS = ("megatron", "megatron-swift", "megatron-bridge", "fsdp", "nanotron")
#: tools with context parallelism: Megatron-Core ``--context-parallel-size``; torchtitan/torchtune
#: ``context_parallel_degree`` / ``context_parallel_dim``; nanotron none; DeepSpeed Ulysses is a separate sequence
#: parallelism the app names as such
CP_TOOLS = ("megatron", "megatron-swift", "megatron-bridge", "fsdp", "gpt-neox")
#: the DeepSpeed pipeline engine's ZeRO limit (DeepSpeed docs: "ZeRO stages 2 and 3 are not compatible with
#: pipeline parallelism")
DS_PP_MAX_ZERO = 1
#: the rental modes compared when the user pins none (the planning guide §3: interrupted training costs more than
#: compute; a spot price is not of the same kind)
STEADY = ("card_hour", "week", "month", "hybrid_week", "hybrid_month")
GIB = 2 ** 30


def _weight_bytes(method: str) -> float:
    """Bytes per frozen-or-trained weight that must sit on the cards at least: bf16 (2), QLoRA's NF4 base (0.5
    plus its absmax scales: QLoRA paper §2, 0.127 bits/param double-quantised; take 0.5 as the floor)."""
    return 0.5 if method == "qlora" else 2.0


def weights_floor_gib(ev) -> float:
    """The least GiB of weights one card must hold for this layout (first principles, not the memory model):
    every parameter in ``_weight_bytes``, split by TP × PP (× EP for the experts), and over the data-parallel
    (× CP) ranks only when the weights are sharded (ZeRO-3 / FSDP full shard); nothing with parameter offload."""
    lay, s = ev.layout, ev.scenario
    if lay.offload_params:
        return 0.0
    total = float(ev.params.total)
    experts = float(ev.params.expert_params or 0)
    dense = max(total - experts, 0.0)
    shard = lay.dp * max(lay.cp, 1) if lay.zero >= 3 else 1
    b = _weight_bytes(s.training.method)
    per = (dense / (lay.tp * lay.pp) + experts / (lay.tp * lay.pp * max(lay.ep, 1))) * b / shard
    return per / GIB


def timed_ceiling_figure(ev) -> float | None:
    """The figure of the plan's training passes as timed (MFU, or HFU = MFU × hardware / model FLOPs per token when
    the class's published run reports HFU: Narayanan et al. 2021 §5.1 count recomputed FLOPs)."""
    t = ev.time
    mt = getattr(t, "mfu_training", None)
    mt = t.mfu if mt is None else mt
    if mt is None or not ev.mfu_ceiling:
        return None
    hfu = str(ev.mfu_ceiling.get("metric") or "mfu") == "hfu"
    ratio = ev.hardware_flops_per_token / ev.flops_per_token if ev.flops_per_token else 1.0
    return float(mt) * (max(ratio, 1.0) if hfu else 1.0)


def status(ev, rid: str) -> str | None:
    return next((r.status for r in ev.rules if r.id == rid), None)


def said(ev, rid: str) -> bool:
    """The rule's verdict is shown as not passed (failed, or allowed by the user's switch); for ``tp_over_pcie`` also
    the search's waiver (no NVLink card meets the deadline: rules.tp_over_pcie_waived), whose line names the TP
    over PCIe and says it is timed over PCIe."""
    r = next((r for r in ev.rules if r.id == rid), None)
    if r is None:
        return False
    if r.status in ("failed", "allowed"):
        return True
    return rid == "tp_over_pcie" and "over PCIe" in r.message.text


def tp_over_pcie(ev) -> bool:
    """Tensor parallelism whose group spans a PCIe link (no NVLink in the node) — the planning guide's checklist
    step 3: "PCIe between cards with tensor parallelism planned → change servers"."""
    from gpuplanner.core.catalog_hw import lookup_gpu

    g = lookup_gpu(ev.gpu_id, ev.scenario.hardware.custom_gpus)
    link = ev.scenario.hardware.intra_node or g.intra_node_link
    return ev.layout.tp > 1 and link == "pcie"


def geforce_no_p2p(ev) -> bool:
    """A GeForce card whose catalog record does not say P2P works (NVIDIA: P2P is not supported on GeForce
    RTX 40-series; the stock driver reports no P2P between 4090s — NCCL then moves every all-reduce through host
    memory)."""
    from gpuplanner.core.catalog_hw import lookup_gpu

    g = lookup_gpu(ev.gpu_id, ev.scenario.hardware.custom_gpus)
    return g.gpu_class == "consumer" and g.p2p is not True


def periods_billed(days: float, period_days: float) -> float:
    return max(1.0, math.ceil(days / period_days - 1e-9))


# ------------------------------------------------------------------------------------------------- the invariants
#: id -> (what it says, the rule it cites)
INVARIANTS = {
    "geforce_tp": ("no TP on GeForce without P2P across PCIe in #1 while a top-5 plan without it exists; "
                   "every plan with it says so (tp_over_pcie not passed)",
                   "planning guide 'After renting' step 3; NVIDIA: no P2P on GeForce RTX 40"),
    "geforce_multinode": ("no GeForce-without-P2P plan across nodes with TP/PP/CP/EP or ZeRO-2/3",
                          "planning guide §2 (NVLink/RDMA, not PCIe); gpu-catalog §4.2 'data parallel with "
                          "gradient accumulation'"),
    "lora_pipeline": ("LoRA/QLoRA with PP > 1 only on Megatron-family tools with their own LoRA (not DeepSpeed's "
                      "PipelineModule, not the HF Trainer)", "DeepSpeed docs 'Pipeline Parallelism'; PEFT"),
    "stack_runs": ("the layout is one the tool runs: no TP/PP/CP/EP in HF-Trainer tools, EP/CP only where the tool "
                   "has them, DeepSpeed PP only with ZeRO ≤ 1", "Transformers Trainer docs; DeepSpeed pipeline docs; "
                   "Megatron-Core / torchtitan options"),
    "moe_fits": ("a MoE plan without EP holds its experts: the first-principles weight floor fits the card and the "
                 "memory model is not below it", "planning guide §2 (memory ≈ weights + …)"),
    "memory_headroom": ("every plan fits; #1 keeps the memory model's p75 margin free unless no top-5 plan does "
                        "(and then says so)", "planning guide §2; advisor memory margin (validate_memory p75)"),
    "mfu_ceiling": ("no plan is timed above the best published run of its class (like with like)",
                    "planning guide §4 (40–55% good); advisor.mfu_ceiling sources"),
    "price_kind": ("#1's cost is one steady kind (or the user's mode), its whole bill (a month's quote bills whole "
                   "months), and its mode is the cheapest of its own modes", "planning guide §3–4 (card-hours vs "
                   "whole machine; interrupted training)"),
    "rent_40h": ("when a whole machine per week/month is cheaper at the job's hours per week the plan rents it; "
                 "the break-even line is said; over the sweep a whole machine wins somewhere",
                 "planning guide §4 'Whole machine vs card-hours (~40 h/week)'"),
    "far_end": ("#1 meets deadline and budget at its band's far end unless no top-5 plan does (and then says so)",
                "planning guide §3; advisor deadline_risk (validation band p90)"),
    "serving": ("serving: TP within a server, no TP on GeForce without P2P when another card serves, weights + KV "
                "fit the card, cheapest mode", "planning guide §2, §3 (bursts); vLLM gpu_memory_utilization"),
}


def _exempt_mfu(ev) -> bool:
    s = ev.scenario
    return (s.assumptions.mfu is not None or not s.constraints.rules.mfu_ceiling or ev.calibration is not None)


def check_plan(ev, rank: int, top: list, relaxed: tuple = (), pens: tuple = ()) -> list[tuple[str, str]]:
    """The invariants one plan (``rank`` 0 = #1) of a top-5 list ``top`` (Evaluations) must hold; ``relaxed``: the
    rules the search dropped because no plan passed them (SearchResult.rules_relaxed: said in its note, and each
    plan's verdict says it fails them); ``pens``: the top plans' ranking penalties (search.Plan.penalty; without the
    risk bit when no plan meets the request, :func:`ranked_penalties`), so that a
    tight #1 is a violation only where a plan with room ranked after it carries no more serious penalty (the
    advisor's bit order: fabric, risk, TP over PCIe, poor MFU, tight memory)."""
    out: list[tuple[str, str]] = []
    lay, s = ev.layout, ev.scenario
    fw, method = lay.framework, s.training.method
    rules = s.constraints.rules
    where = f"#{rank + 1} {ev.num_gpus}×{ev.gpu_id} {fw} {method} " \
            f"TP{lay.tp} PP{lay.pp} CP{lay.cp} EP{lay.ep} DP{lay.dp} Z{lay.zero}"
    # -- geforce_tp / tp over PCIe said
    if tp_over_pcie(ev) and not said(ev, "tp_over_pcie"):
        out.append(("geforce_tp", f"{where}: TP over PCIe not said"))
    if (rank == 0 and geforce_no_p2p(ev) and lay.tp > 1 and rules.tp_over_pcie
            and status(ev, "tp_over_pcie") != "passed"):  # (the waiver ranks on time and cost, and says so)
        if any(not (geforce_no_p2p(o) and o.layout.tp > 1) for o in top[1:]):
            out.append(("geforce_tp", f"{where}: #1 splits layers over GeForce PCIe while a top-5 plan does not"))
    # -- geforce_multinode
    comm = lay.tp > 1 or lay.pp > 1 or lay.cp > 1 or lay.ep > 1 or lay.zero >= 2
    if (geforce_no_p2p(ev) and ev.nodes > 1 and comm and rules.consumer_multinode
            and not ("consumer_multinode" in relaxed and said(ev, "consumer_multinode"))):
        out.append(("geforce_multinode", f"{where}: {ev.nodes} nodes"))
    # -- lora_pipeline
    if method in ("lora", "qlora") and lay.pp > 1 and fw not in PP_LORA_TOOLS:
        out.append(("lora_pipeline", f"{where}: {method} with PP {lay.pp}"))
    # -- stack_runs
    if fw in HF_TRAINER_TOOLS and (lay.tp > 1 or lay.pp > 1 or lay.cp > 1 or lay.ep > 1):
        out.append(("stack_runs", f"{where}: model parallelism in a Trainer-based tool"))
    if lay.ep > 1 and fw not in EP_TOOLS:
        out.append(("stack_runs", f"{where}: EP in a tool without it"))
    if lay.cp > 1 and fw not in CP_TOOLS:
        out.append(("stack_runs", f"{where}: CP in a tool without it"))
    if engine_of(fw) == "deepspeed" and lay.pp > 1 and lay.zero > DS_PP_MAX_ZERO:
        out.append(("stack_runs", f"{where}: DeepSpeed PP with ZeRO {lay.zero}"))
    if lay.pp > 1 and ev.arch.num_layers % lay.pp and rules.pipeline_layers \
            and not said(ev, "pipeline_layers"):
        out.append(("stack_runs", f"{where}: {ev.arch.num_layers} layers over PP {lay.pp} unsaid"))
    # -- memory
    floor = weights_floor_gib(ev)
    if floor > ev.memory.total * 1.001 + 0.05:
        out.append(("moe_fits" if ev.params.expert_params else "memory_headroom",
                    f"{where}: memory {ev.memory.total:.1f} GiB below the weight floor {floor:.1f} GiB"))
    if ev.params.expert_params and lay.ep == 1 and floor > ev.gpu_memory_gib:
        out.append(("moe_fits", f"{where}: experts need {floor:.1f} GiB/card without EP"))
    if not ev.fits:
        out.append(("memory_headroom", f"{where}: does not fit ({ev.memory.total:.1f} GiB)"))
    h = ev.memory_headroom or {}
    if rank == 0 and h.get("tight") and rules.memory_headroom:
        lighter = [not (o.memory_headroom or {}).get("tight") and (not pens or pens[k + 1] < pens[0])
                   for k, o in enumerate(top[1:])]
        if not said(ev, "memory_headroom") or any(lighter):
            out.append(("memory_headroom", f"{where}: #1 tight ({h.get('free_share', 0):.1%} free) while a "
                                           "top-5 plan has room, or unsaid"))
    # -- mfu_ceiling
    fig = timed_ceiling_figure(ev)
    if fig is not None and not _exempt_mfu(ev) and fig > float(ev.mfu_ceiling["mfu"]) * (1 + 1e-6) + 1e-9:
        out.append(("mfu_ceiling", f"{where}: timed {fig:.3f} > ceiling {ev.mfu_ceiling['mfu']:.3f} "
                                   f"({ev.mfu_ceiling.get('metric') or 'mfu'})"))
    if rank == 0 and ev.mfu_grade == "optimistic" and not _exempt_mfu(ev):
        out.append(("mfu_ceiling", f"{where}: #1 graded optimistic"))
    out += _price_checks(ev, rank, where)
    if rank == 0:
        out += _far_end(ev, top, where)
    return out


def _no_risk(pen: int) -> int:
    """A penalty without the deadline-risk bit (8, core/advisor.RISK_BIT): risk is judged by :func:`_far_end`."""
    return int(pen) & ~8


def ranked_penalties(a) -> tuple:
    """The top plans' penalties as the search ranked them: the deadline-risk bit counts only when some plan meets
    the request (search._closest_penalty)."""
    pens = [p.penalty for p in a.plans[:5]]
    return tuple(pens if a.search.feasible else [_no_risk(p) for p in pens])


def _whole_periods_floor(days: float, month: float, week: float | None) -> float:
    """The least a machine's month quote bills for ``days``: at least one 30-day month (HOURS_PER_MONTH 720), the
    rest in whole months, or in whole weeks where a weekly quote makes that cheaper (cost.months_then_weeks): the
    cheapest k months + the remaining weeks, k ≥ 1."""
    months = max(1, math.ceil(days / 30.0 - 1e-9))
    if not week:
        return months * month
    return min(k * month + math.ceil(max(0.0, days - 30.0 * k) / 7.0 - 1e-9) * week for k in range(1, months + 1))


def _price_checks(ev, rank: int, where: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    s, p, mode = ev.scenario, ev.price, ev.rental_mode
    if ev.cost is None or p is None or mode is None:
        return out
    pinned = s.constraints.rental_mode
    allowed = (pinned,) if pinned else STEADY
    if pinned is None and mode not in STEADY and rank == 0 and not said(ev, "price_kind"):
        out.append(("price_kind", f"{where}: #1 billed {mode} unsaid"))
    if pinned is not None and mode != pinned:
        out.append(("price_kind", f"{where}: billed {mode}, user pinned {pinned}"))
    costs = {m: c for m, c in ev.mode_costs.items() if m in allowed and math.isfinite(c)}
    if costs and ev.cost > min(costs.values()) * (1 + 1e-6) + 1e-6:
        best = min(costs, key=costs.get)
        out.append(("rent_40h", f"{where}: billed {mode} {ev.cost:,.0f} while {best} is {costs[best]:,.0f}"))
    # the whole bill, from the quote: a machine per month bills whole months of whole servers; card-hours at least
    # the GPU-hours of the compute
    per = p.machine_gpus or ev.gpus_per_node or 8
    servers = math.ceil(ev.num_gpus / per)
    if mode == "month" and p.machine_month:
        floor = servers * _whole_periods_floor(ev.calendar_days, p.machine_month, p.machine_week) * 0.999
        if ev.cost < floor * (1 - 0.02):
            out.append(("price_kind", f"{where}: a month's quote billed {ev.cost:,.0f} < {floor:,.0f} "
                                      f"({servers} servers × whole months)"))
    if mode == "week" and p.machine_week:
        floor = p.machine_week * servers * periods_billed(ev.calendar_days, 7.0) * 0.999
        if ev.cost < floor * (1 - 0.02):
            out.append(("price_kind", f"{where}: a week's quote billed {ev.cost:,.0f} < {floor:,.0f}"))
    if mode == "card_hour" and p.card_hour:
        floor = p.card_hour * ev.num_gpus * ev.compute_days * 24.0
        if ev.cost < floor * (1 - 0.02):
            out.append(("price_kind", f"{where}: card-hours billed {ev.cost:,.0f} < GPU-hours × price {floor:,.0f}"))
    be = ev.break_even or {}
    h = s.constraints.hours_per_week
    if (rank == 0 and pinned is None and mode == "card_hour" and ev.calendar_days >= 60 and p.machine_month
            and be.get("month") is not None and be["month"] * 1.15 < h and servers * per == ev.num_gpus):
        out.append(("rent_40h", f"{where}: {ev.calendar_days:.0f} d at {h:.0f} h/week, month pays off from "
                                f"{be['month']:.0f} h/week, billed card-hours"))
    if rank == 0 and p.card_hour and (p.machine_month or p.machine_week) and not ev.break_even:
        out.append(("rent_40h", f"{where}: both kinds quoted, no break-even said"))
    return out


def _far_end(ev, top: list, where: str) -> list[tuple[str, str]]:
    s = ev.scenario
    dl, bud = s.constraints.deadline_days, s.constraints.budget
    if not s.constraints.rules.deadline_risk:
        return []

    def safe(e) -> bool:
        hi_d = (e.calendar_days_band or (e.calendar_days, e.calendar_days))[1]
        ok = dl is None or hi_d <= dl * (1 + 1e-9)
        if bud is not None and e.cost is not None:
            ok = ok and (e.cost_band or (e.cost, e.cost))[1] <= bud * (1 + 1e-9)
        return ok

    def meets(e) -> bool:
        return (dl is None or e.calendar_days <= dl) and (bud is None or e.cost is None or e.cost <= bud)

    if safe(ev) or not meets(ev):
        return []
    out = []
    if not said(ev, "deadline_risk"):
        out.append(("far_end", f"{where}: meets only at the point estimate, unsaid"))
    if any(safe(o) and meets(o) for o in top[1:]):
        out.append(("far_end", f"{where}: at risk while a top-5 plan is safe"))
    return out


def check_serving(phase) -> list[tuple[str, str]]:
    """A serving phase's size (core/project.py ``_inference_phase``): replicas inside one server, GeForce TP only
    when no other card serves, weights and the KV pool inside the card, the cheapest of its own modes."""
    from gpuplanner.core.catalog_hw import lookup_gpu

    out: list[tuple[str, str]] = []
    z = phase.serving
    g = lookup_gpu(z.gpu_id)
    where = f"serve {z.num_gpus}×{z.gpu_id} TP{z.tp}"
    if z.tp > (g.gpus_per_node or 8):
        out.append(("serving", f"{where}: a replica spans servers"))
    if z.weights_gib / z.tp > g.memory_gib:
        out.append(("serving", f"{where}: weights {z.weights_gib / z.tp:.1f} GiB/card > {g.memory_gib} GiB"))
    if z.memory_per_gpu_gib > g.memory_gib * 1.0001:
        out.append(("serving", f"{where}: {z.memory_per_gpu_gib:.1f} GiB/card > {g.memory_gib} GiB"))
    if z.tp > 1 and g.gpu_class == "consumer" and g.p2p is not True:
        alt = [a for a, c, _ in phase.serving_alternatives[1:] if c is not None and a.gpu_id != z.gpu_id
               and not (lookup_gpu(a.gpu_id).gpu_class == "consumer" and a.tp > 1)]
        if alt and not any("P2P" in m.render() for m in phase.messages):
            out.append(("serving", f"{where}: GeForce TP without P2P, unsaid"))
    costs = {m: c for m, c in phase.mode_costs.items() if m in STEADY and math.isfinite(c)}
    if phase.cost is not None and costs and phase.cost > min(costs.values()) * (1 + 1e-6) + 1e-6:
        out.append(("serving", f"{where}: billed {phase.rental_mode} {phase.cost:,.0f} > {min(costs.values()):,.0f}"))
    return out


# ------------------------------------------------------------------------------------------------- the sweep

def answer_of(d: dict):
    """The app's answer for a request (a bare scenario: the search's #1 and its ranked plans)."""
    from gpuplanner.app.answer import Answer, document_from_scenario

    return Answer(document_from_scenario(scenario_from_dict(d)), top=5)


def serving_answer(r: dict):
    """The app's answer for a serving request (a plan file whose project has one inference phase)."""
    from gpuplanner.app.answer import Answer, document_from_plan
    from gpuplanner.core.project import Project
    from gpuplanner.core.scenario import Scenario
    from gpuplanner.io import planfile

    base = Scenario.model_validate({"model": {"preset": r["model"]}, "data": {"tokens": "10M"},
                                    "training": {"method": "lora"}, "constraints": {"currency": r["currency"]}})
    proj = Project.model_validate({"phases": [{"name": "serve", "kind": "inference", "weeks": r["weeks"],
                                               "hours_per_week": r["hours_per_week"], "inference": r["inference"]}]})
    doc = planfile.new_document(base, title="serve", project=proj)
    return Answer(document_from_plan(doc), top=5)


def run_training(d: dict) -> tuple[list[tuple[str, str]], dict]:
    """Violations of one request's #1 and top 5 (and facts for the sweep-level rent check)."""
    a = answer_of(d)
    plans = a.plans
    if not plans:
        return [], {}
    top = [p.evaluation for p in plans[:5]]
    first = a.evaluation  # the plan the document stands for: the search's #1 (app.answer.decide)
    out: list[tuple[str, str]] = []
    if first.scenario != top[0].scenario:
        out.append(("price_kind", "answer's plan is not the search's #1"))
    for i, ev in enumerate(top):
        out += check_plan(ev, i, top, tuple(a.search.rules_relaxed), ranked_penalties(a))
    fact = {"machine": first.rental_mode in ("week", "month", "hybrid_week", "hybrid_month"),
            "could": bool(first.break_even and any(
                v is not None and v < first.scenario.constraints.hours_per_week
                for v in (first.break_even.get("week"), first.break_even.get("month"))))}
    return out, fact


def requests(n: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        d = random_request(rng)
        try:
            scenario_from_dict(d)
        except (PlannerError, ValueError):
            continue
        out.append(d)
    return out


def sweep(n: int = 320, seed: int = 18, n_serving: int = 40, verbose: bool = True) -> dict:
    """Every invariant's violations over ``n`` training and ``n_serving`` serving requests:
    ``{"counts": Counter, "first": {inv: (request index, text)}, "requests": k, "plans": k, "facts": …}``."""
    counts: Counter = Counter()
    first: dict = {}
    examples: dict = defaultdict(list)
    facts = Counter()
    done = plans = errors = 0
    for i, d in enumerate(requests(n, seed)):
        try:
            vs, fact = run_training(d)
        except PlannerError:
            errors += 1
            continue
        done += 1
        plans += 1 if fact else 0
        facts["machine"] += bool(fact.get("machine"))
        facts["could"] += bool(fact.get("could"))
        for inv, text in vs:
            counts[inv] += 1
            first.setdefault(inv, (i, text))
            examples[inv].append((i, text))
    rng = random.Random(seed + 1)
    for j in range(n_serving):
        r = random_serving(rng)
        try:
            pr = serving_answer(r).project
        except (PlannerError, ValueError):
            errors += 1
            continue
        for ph in getattr(pr, "phases", ()):
            if ph.serving is not None:
                for inv, text in check_serving(ph):
                    counts[inv] += 1
                    first.setdefault(inv, (f"s{j}", text))
                    examples[inv].append((f"s{j}", text))
    if facts["could"] and not facts["machine"]:
        counts["rent_40h"] += 1
        first.setdefault("rent_40h", ("sweep", "a whole machine pays off somewhere yet never wins a #1"))
    return {"counts": counts, "first": first, "examples": examples, "requests": done, "answered": plans,
            "errors": errors, "facts": facts}


def main(argv: list[str]) -> int:
    n = int(argv[1]) if len(argv) > 1 else 320
    seed = int(argv[2]) if len(argv) > 2 else 18
    res = sweep(n, seed)
    print(f"requests {res['requests']} (with plans {res['answered']}, refused {res['errors']}); "
          f"#1 on a whole machine {res['facts']['machine']}, could pay off {res['facts']['could']}")
    print("| invariant | violations | first |")
    print("|---|---:|---|")
    for inv in INVARIANTS:
        f = res["first"].get(inv)
        print(f"| {inv} | {res['counts'][inv]} | {'' if f is None else f'{f[0]}: {f[1]}'} |")
    if "-v" in argv:
        for inv, ex in res["examples"].items():
            for i, t in ex[:8]:
                print(inv, i, t)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
