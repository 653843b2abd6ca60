"""The project view: a team's work as ordered phases, each sized and priced for its own job, with one project
cost, a week-by-week timeline and what-if growth of the main training phase. Pure (values in, values out).

The planning guide (shared/notes/planning-guide.md §3, "Long view") asks for this: research and experiments
(研发验证期) are short and fragmented — card-hours; stable training (稳定训练期) is long and continuous — whole
machines once usage passes ~40 hours a week for several weeks; bursts (突发扩容) need elastic capacity;
inference needs memory for the KV cache, not FLOPs; data cleaning and tokenisation belong on CPU nodes
(混合算力调度), so GPU hours are not spent on preprocessing. And: will the plan survive 2× parameters, 10× data,
or a move from 4 to 8 cards, and can the vendor upgrade the same server in place (预留升级空间)?

One plan, one answer: a training-like phase (``research``, ``training``, ``burst``) *is* a
:class:`~gpuplanner.core.scenario.Scenario` and its figures are :func:`evaluate.evaluate`'s Evaluation (its
cost for the phase's rental mode, its calendar days); an ``inference`` phase is sized by
:func:`inference.size_serving` and billed with the same :func:`cost.rental_costs` over the phase's serving
hours; a ``cpu_preprocessing`` phase is sized from the data volume and the throughput per core in
``resources/cpu.json`` (each figure with its source) and priced per core-hour or node-month. The project total is
the sum of the phase costs, nothing else.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields, replace
from typing import Any, Literal

from pydantic import Field, model_validator

from .units import nodes as units_nodes
from . import cost as costmod
from .advisor import band_far_end
from .architecture import ModelSource
from .catalog_hw import GPU, get_gpu, load_gpus, lookup_gpu
from .cost import HOURS_PER_MONTH, HOURS_PER_WEEK, MODES, Overheads, PriceTable
from .errors import PlannerError, ScenarioError
from .estimate import resolve
from .messages import elapsed_msg, elapsed_msgs
from .evaluate import Evaluation, Layout, _with_batch, evaluate
from .i18n import QT_TRANSLATE_NOOP
from .messages import MsgStr
from .inference import (VLLM_GRAPH_POOL_GIB, ServingModel, ServingSize, engine_runs_no_fp8, kv_far_end_users,
                        size_serving)
from .messages import Msg
from .plausible import check_plausible
from .scenario import Scenario, _Section

CTX = "Project"

PhaseKind = Literal["research", "training", "burst", "inference", "cpu_preprocessing"]
PHASE_KINDS: tuple[str, ...] = ("research", "training", "burst", "inference", "cpu_preprocessing")
TRAINING_KINDS = ("research", "training", "burst")
#: the scenario's ``constraints.phase`` word for each training-like kind (the rental model's work pattern)
SCENARIO_PHASE = {"research": "research", "training": "stable", "burst": "burst"}
KIND_LABELS = {
    "research": QT_TRANSLATE_NOOP("Project", "research and experiments"),
    "training": QT_TRANSLATE_NOOP("Project", "stable training"),
    "burst": QT_TRANSLATE_NOOP("Project", "burst"),
    "inference": QT_TRANSLATE_NOOP("Project", "inference"),
    "cpu_preprocessing": QT_TRANSLATE_NOOP("Project", "CPU preprocessing"),
}
#: the planning guide's whole-machine rule: a job running more than ~40 hours a week for several weeks favours
#: the whole machine (planning-guide.md §4 "Whole machine vs card-hours")
WHOLE_MACHINE_HOURS_PER_WEEK = 40.0
#: "for several weeks" (the same rule): its lowest reading, two weeks (a judgement; a shorter run, or two phases
#: sharing a card type for less, is a burst or a fragment: card-hours, guide §3 and §4)
SEVERAL_WEEKS = 2.0
WEEKS_PER_MONTH = HOURS_PER_MONTH / HOURS_PER_WEEK
CPU_MODES = ("core_hour", "node_month")
WHAT_IF_CHANGES = ("params_x2", "tokens_x10", "upgrade_gpus")


# ------------------------------------------------------------------------------------------------ schema


class InferenceSpec(_Section):
    """Serving after training: ``concurrency`` users, each holding up to ``context_tokens`` (prompt + answer),
    answered at ``tokens_per_s_per_user`` at least."""

    concurrency: int = Field(1, gt=0, le=1_000_000)
    context_tokens: int = Field(4096, gt=0, le=10_000_000)
    output_tokens: int = Field(512, gt=0, le=10_000_000, description="tokens generated per request")
    prompt_tokens: int | None = Field(None, gt=0, le=10_000_000,
                                      description="prompt tokens per request (default: context − output)")
    precision: Literal["bf16", "fp8", "int8", "int4"] = "bf16"
    kv_precision: Literal["bf16", "fp8"] | None = None
    tokens_per_s_per_user: float | None = Field(20.0, gt=0, le=100_000,
                                                description="latency target: output tokens/s each user sees (an "
                                                            "offline target without it given: none)")
    gpu: str | None = Field(None, max_length=200, description="serve on this GPU (default: the cheapest that serves the users at the target)")
    gpu_candidates: list[str] | None = Field(None, max_length=200)
    gpu_memory_utilization: float | None = Field(
        None, gt=0, le=1, description="share of each GPU the serving engine takes for weights, activations and KV "
                                      "cache (vLLM gpu_memory_utilization, default 0.9; TensorRT-LLM "
                                      "kv_cache_free_gpu_mem_fraction, default 0.9 of the memory left free; SGLang "
                                      "mem_fraction_static, default by the card's memory and TP). None: the "
                                      "engine's own default (core/inference.engine_default_fraction); a value "
                                      "given, 0.9 included, is used as given")
    engine: Literal["vllm", "sglang", "tensorrt-llm"] = Field(
        "vllm", description="serving engine: how it reserves memory and KV cache (vLLM profiles a forward and "
                            "takes gpu_memory_utilization of the card; TensorRT-LLM takes that share of the memory "
                            "left free and reserves each request's whole length; SGLang's mem_fraction_static "
                            "holds weights and KV cache)")
    length_spread: Literal["fixed", "sharegpt"] = Field(
        "fixed", description="how request lengths vary around prompt_tokens/output_tokens: fixed (every request "
                             "at those lengths, as trtllm-bench's synthetic data) or sharegpt (as varied as chat "
                             "traffic, within the ShareGPT filter of vLLM's and SGLang's benchmark scripts)")

    # issue 35 round 17 (servoos17, advice17): an offline batch job's throughput target, which sizes the replicas
    # instead of the users (inference.offline_replicas). No engine has such a setting: None (the default) sizes for
    # ``concurrency`` users, as before.
    documents_per_s: float | None = Field(
        None, gt=0, le=1e7, description="offline batch job: documents (requests of prompt_tokens in and output_tokens "
                                        "out) to finish per second; sizes the replicas, each at its full batch. "
                                        "Default none: size for concurrency users")
    output_tokens_per_s: float | None = Field(
        None, gt=0, le=1e10, description="offline batch job: output tokens to generate per second, all replicas "
                                         "together (the same target as documents_per_s × output_tokens). Default "
                                         "none")

    @model_validator(mode="after")
    def _check(self) -> "InferenceSpec":
        if self.documents_per_s is not None and self.output_tokens_per_s is not None:
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "give documents_per_s or output_tokens_per_s, not both")))
        if self.target_tokens_per_s is not None and "tokens_per_s_per_user" not in self.model_fields_set:
            # an offline job's documents have no reader waiting on each token: without a speed given, none applies.
            # Written as null (a saved project leaves it out), so a save and a reopen keep it so (savefile16's trap:
            # the dump writes every field, and a written 20 would read as the user's)
            object.__setattr__(self, "tokens_per_s_per_user", None)
        if self.output_tokens > self.context_tokens:
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "output_tokens must not exceed context_tokens")))
        if self.prompt_tokens is not None and self.prompt_tokens + self.output_tokens > self.context_tokens:
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "prompt_tokens + output_tokens must not exceed context_tokens")))
        if self.length_spread == "sharegpt" and not (4 < self.prompt < 1024 and 4 < self.output_tokens
                                                     < 2048 - self.prompt):
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "length_spread sharegpt needs prompts under 1024 tokens and prompt + output under 2048")))
        return self

    @property
    def prompt(self) -> int:
        return self.prompt_tokens if self.prompt_tokens is not None else self.context_tokens - self.output_tokens

    @property
    def target_tokens_per_s(self) -> float | None:
        """The offline job's output tokens per second (``documents_per_s × output_tokens`` or
        ``output_tokens_per_s``); None: an interactive load of ``concurrency`` users."""
        if self.documents_per_s is not None:
            return float(self.documents_per_s) * self.output_tokens
        return None if self.output_tokens_per_s is None else float(self.output_tokens_per_s)



class CpuSpec(_Section):
    """Data preparation on CPU nodes: ``data_gb`` of raw text cleaned and/or tokenised."""

    data_gb: float = Field(gt=0, le=1e9)
    clean: bool = True
    tokenize: bool = True
    cores_per_node: int = Field(64, gt=0, le=4096)
    nodes: int | None = Field(None, gt=0, le=100_000, description="default: as many as finish in the phase's weeks")
    clean_mb_s_per_core: float | None = Field(None, gt=0, le=1e6, description="your measured cleaning throughput")
    tokenize_mb_s_per_core: float | None = Field(None, gt=0, le=1e6, description="your measured tokenisation throughput")
    core_hour: float | None = Field(None, ge=0, le=1e6, description="your quote per core-hour")
    node_month: float | None = Field(None, ge=0, le=1e9, description="your quote per node-month")
    quote_currency: Literal["CNY", "USD"] | None = None


class Phase(_Section):
    """One phase of the project. Training-like phases carry a ``scenario`` (None: the document's scenario)."""

    name: str = Field(min_length=1, max_length=120)
    kind: PhaseKind
    start_week: float | None = Field(None, ge=0, le=520, description="default: when the previous phase ends")
    end_week: float | None = Field(None, gt=0, le=1040)
    weeks: float | None = Field(None, gt=0, le=520, description="default: end − start, or what the work takes")
    hours_per_week: float | None = Field(None, gt=0, le=168, description="default: the scenario's (168 for "
                                                                           "inference and CPU phases)")
    rental_mode: Literal["card_hour", "spot", "week", "month", "hybrid_week", "hybrid_month", "core_hour",
                         "node_month"] | None = Field(None, description="default: the cheapest")
    scenario: Scenario | None = None
    inference: InferenceSpec | None = None
    cpu: CpuSpec | None = None
    notes: str = Field("", max_length=4000)

    @model_validator(mode="after")
    def _check(self) -> "Phase":
        if self.kind == "inference" and self.inference is None:
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "an inference phase needs an 'inference' section")))
        if self.kind == "cpu_preprocessing" and self.cpu is None:
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "a cpu_preprocessing phase needs a 'cpu' section")))
        if self.kind == "inference" and self.weeks is None and self.end_week is None:
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "an inference phase needs 'weeks' (how long it serves)")))
        if self.end_week is not None and self.start_week is not None and self.end_week <= self.start_week:
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "end_week must be after start_week")))
        if self.end_week is not None and self.start_week is None:
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "end_week needs start_week")))
        if self.rental_mode is not None:
            cpu = self.kind == "cpu_preprocessing"
            if cpu != (self.rental_mode in CPU_MODES):
                raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "rental_mode {mode} does not apply to a {kind} phase"),
                                             mode=repr(self.rental_mode), kind=self.kind))
        return self


class Project(_Section):
    """An ordered list of phases. ``main_phase`` names the training phase the what-if table grows (default:
    the first ``training`` phase, else the first training-like one)."""

    phases: list[Phase] = Field(min_length=1, max_length=64)
    main_phase: str | None = Field(None, max_length=120)

    @model_validator(mode="after")
    def _check(self) -> "Project":
        names = [p.name for p in self.phases]
        if len(set(names)) != len(names):
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "phase names must be unique")))
        if self.main_phase is not None:
            match = [p for p in self.phases if p.name == self.main_phase]
            if not match:
                raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "main_phase {name} is not a phase"),
                                             name=repr(self.main_phase)))
            if match[0].kind not in TRAINING_KINDS:
                raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "main_phase must be a research, training or burst phase")))
        return self

    def main(self) -> Phase | None:
        if self.main_phase is not None:
            return next(p for p in self.phases if p.name == self.main_phase)
        for kinds in (("training",), TRAINING_KINDS):
            for p in self.phases:
                if p.kind in kinds:
                    return p
        return None


def single_phase_project(scenario: Scenario, name: str | None = None) -> Project:
    """The project a plan without one stands for: one phase running the plan's scenario (its
    ``constraints.phase`` word chooses the kind)."""
    kind = {"research": "research", "burst": "burst"}.get(scenario.constraints.phase, "training")
    return Project(phases=[Phase(name=name or kind, kind=kind)])


# ------------------------------------------------------------------------------------------------ CPU


@dataclass(slots=True, frozen=True)
class CpuPrice:
    id: str
    currency: str
    core_hour: float | None
    node_month: float | None
    node_cores: int
    provider: str
    source: str
    date: str
    derived: tuple[str, ...] = ()
    is_default: bool = True

    def to_json(self) -> dict:
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in values.items()}


def _cpu_doc() -> dict:
    from .shipped import load_json

    try:
        doc = load_json("cpu.json")
    except (OSError, ValueError) as err:
        raise ScenarioError(MsgStr.make("catalog", QT_TRANSLATE_NOOP("catalog", "cannot read resource file {name}: {err}"),
                                        name="cpu.json", err=str(err))) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("prices"), list) or not doc["prices"]:
        raise ScenarioError(MsgStr.make("catalog", QT_TRANSLATE_NOOP("catalog", "malformed resource file {name}"),
                                        name="cpu.json"))
    return doc


def cpu_throughput_defaults() -> dict[str, float]:
    """MB/s per core for ``clean`` and ``tokenize`` (``resources/cpu.json``, each with its source)."""
    t = _cpu_doc().get("throughput") or {}
    return {"clean": float(t["clean_mb_s_per_core"]["value"]), "tokenize": float(t["tokenize_mb_s_per_core"]["value"])}


def cpu_price(spec: CpuSpec, table: PriceTable) -> CpuPrice:
    """The user's CPU quote, else the shipped default (``resources/cpu.json``) converted to the table's currency;
    a missing node-month price is the core-hour price × cores × 720 h (a 30-day month), flagged ``derived`` (no discount)."""
    rec = _cpu_doc()["prices"][0]
    cores = spec.cores_per_node
    if spec.core_hour is not None or spec.node_month is not None:
        cur = spec.quote_currency or table.currency
        ch = table.convert(spec.core_hour, cur)
        nm = table.convert(spec.node_month, cur)
        base = CpuPrice("your_quote", table.currency, ch, nm, cores, "", QT_TRANSLATE_NOOP(CTX, "your quote"), "",
                        is_default=False)
    else:
        ch = table.convert(float(rec["core_hour"]), rec["currency"])
        nm = table.convert(rec.get("node_month"), rec["currency"]) if rec.get("node_month") is not None else None
        base = CpuPrice(str(rec["id"]), table.currency, ch, nm, cores, str(rec.get("provider", "")),
                        str(rec["source"]), str(rec["date"]))
    if base.node_month is None and base.core_hour is not None:
        base = replace(base, node_month=base.core_hour * cores * HOURS_PER_MONTH,
                       derived=base.derived + ("node_month",))
    return base


@dataclass(slots=True, frozen=True)
class CpuSize:
    data_gb: float
    mb_s_per_core: float  # combined throughput of the steps run
    core_hours: float  # work
    nodes: int
    cores_per_node: int
    run_hours: float  # on the clock, all nodes together
    price: CpuPrice
    mode_costs: dict[str, float]

    def to_json(self) -> dict:
        return {"data_gb": self.data_gb, "mb_s_per_core": self.mb_s_per_core, "core_hours": self.core_hours,
                "nodes": self.nodes, "cores_per_node": self.cores_per_node, "run_hours": self.run_hours,
                "price": self.price.to_json(), "mode_costs": dict(self.mode_costs)}


def size_cpu(spec: CpuSpec, table: PriceTable, *, weeks: float | None, hours_per_week: float) -> CpuSize:
    """Core-hours = data ÷ throughput per core (the steps run one after the other: ``1/Σ(1/rate)``); nodes: the
    user's, else the fewest that finish within ``weeks`` at ``hours_per_week`` (one node without a duration).
    Billed per core-hour for the run, or whole nodes per started month."""
    d = cpu_throughput_defaults()
    rates = []
    if spec.clean:
        rates.append(spec.clean_mb_s_per_core or d["clean"])
    if spec.tokenize:
        rates.append(spec.tokenize_mb_s_per_core or d["tokenize"])
    if not rates:
        raise ScenarioError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "a CPU phase must clean or tokenise (or both)")),
                            field="cpu")
    per_core = 1.0 / sum(1.0 / r for r in rates)
    core_hours = spec.data_gb * 1000.0 / per_core / 3600.0
    cores = spec.cores_per_node
    if spec.nodes is not None:
        nodes = spec.nodes
    elif weeks is not None:
        nodes = max(1, math.ceil(core_hours / (cores * weeks * hours_per_week) - 1e-9))
    else:
        nodes = 1
    run_hours = core_hours / (nodes * cores)
    price = cpu_price(spec, table)
    costs: dict[str, float] = {}
    if price.core_hour is not None:
        costs["core_hour"] = nodes * cores * run_hours * price.core_hour
    if price.node_month is not None:
        months = run_hours * (HOURS_PER_WEEK / hours_per_week) / HOURS_PER_MONTH
        costs["node_month"] = nodes * math.ceil(months - 1e-9) * price.node_month
    return CpuSize(data_gb=spec.data_gb, mb_s_per_core=per_core, core_hours=core_hours, nodes=nodes,
                   cores_per_node=cores, run_hours=run_hours, price=price, mode_costs=costs)


# ------------------------------------------------------------------------------------------------ results


@dataclass(slots=True, frozen=True)
class PhaseResult:
    """One phase's figures. ``evaluation`` (training-like), ``serving`` (inference) or ``cpu`` holds the
    details; the summary fields are read from it."""

    name: str
    kind: str
    start_week: float
    weeks: float
    hours_per_week: float
    resource: str  # "gpu" | "cpu"
    device: str  # GPU id, or the CPU price id
    device_name: str
    count: int  # GPUs, or CPU cores
    nodes: int
    rental_mode: str | None
    cost: float | None
    currency: str
    mode_costs: dict[str, float]
    work_weeks: float  # what the work takes on the clock at hours_per_week
    evaluation: Evaluation | None = None
    serving: ServingSize | None = None
    cpu: CpuSize | None = None
    serving_alternatives: tuple[tuple[ServingSize, float | None, float | None], ...] = ()  # (size, cost, per M tokens)
    messages: tuple[Msg, ...] = ()

    @property
    def end_week(self) -> float:
        return self.start_week + self.weeks

    @property
    def gpu_hours(self) -> float:
        return self.count * self.weeks * self.hours_per_week if self.resource == "gpu" else 0.0

    @property
    def cost_per_week(self) -> float | None:
        return None if self.cost is None else self.cost / max(self.weeks, 1e-9)

    @property
    def cost_per_million_tokens(self) -> float | None:
        """Inference: cost per million output tokens served at full load."""
        if self.serving is None or self.cost is None:
            return None
        tokens = self.serving.tokens_per_s * 3600.0 * self.hours_per_week * self.weeks
        return self.cost / max(tokens / 1e6, 1e-12)

    def to_json(self) -> dict:
        out: dict[str, Any] = {
            "name": self.name, "kind": self.kind, "start_week": self.start_week, "end_week": self.end_week,
            "weeks": self.weeks, "work_weeks": self.work_weeks, "hours_per_week": self.hours_per_week,
            self.resource: self.device, "device_name": self.device_name, "count": self.count, "nodes": self.nodes,
            "rental_mode": self.rental_mode, "cost": self.cost, "currency": self.currency,
            "mode_costs": dict(self.mode_costs), "cost_per_week": self.cost_per_week,
            "messages": [m.render() for m in self.messages],
        }
        if self.evaluation is not None:
            ev = self.evaluation
            out["training"] = {"fits": ev.fits, "memory_per_gpu_gib": ev.memory_total_gib,
                               "calendar_days": ev.calendar_days, "compute_days": ev.compute_days, "mfu": ev.mfu,
                               "tokens": ev.tokens, "layout": ev.layout.to_json(), "model": ev.model_name,
                               "params": ev.params.total}
        if self.serving is not None:
            out["inference"] = {**self.serving.to_json(), "cost_per_million_tokens": self.cost_per_million_tokens,
                                "alternatives": [{"gpu": s.gpu_id, "num_gpus": s.num_gpus, "cost": c,
                                                  "cost_per_million_tokens": per_m}
                                                 for s, c, per_m in self.serving_alternatives]}
        if self.cpu is not None:
            out["cpu_preprocessing"] = self.cpu.to_json()
        return out



def _slot_unit(slot_weeks: float | None) -> str | None:
    """The unit a what-if sentence about a phase's slot reads in: the slot's own (formatting.elapsed_unit), the
    plan's scale; None without a slot (the longest span's then)."""
    from ..formatting import elapsed_unit  # pure Python, no Qt

    return None if not slot_weeks else elapsed_unit(7 * float(slot_weeks))

@dataclass(slots=True, frozen=True)
class WhatIf:
    """The main training phase re-evaluated with one change (``change`` in :data:`WHAT_IF_CHANGES`)."""

    change: str
    evaluation: Evaluation | None
    fits: bool
    calendar_days: float | None
    cost: float | None
    num_gpus: int
    nodes: int
    gpus_needed: int | None  # the smallest count (doubling, within max_gpus) at which it fits; None: none
    in_place_upgrade: bool  # the same server(s) carry it: as they are or with cards in free slots
    node_slots: int
    layout_changes: tuple[str, ...]
    rental_mode: str | None
    base_rental_mode: str | None
    note: Msg | None = None
    diff: tuple[tuple[str, Any, Any], ...] = ()  # (field, before, after): :func:`layout_diff`
    #: the weeks the project gives the main phase (its slot on the timeline) and how far the change on the same
    #: servers runs past it (None: within it, or no slot known)
    slot_weeks: float | None = None
    overrun_weeks: float | None = None
    #: "what it takes to keep the same deadline": the search's cheapest plan for the changed job that ends
    #: within the slot (:class:`Replan`, filled by the app layer: app.engine.keep_deadline); None: not asked
    keep_deadline: "Replan | None" = None

    @property
    def overrun_note(self) -> Msg | None:
        """"The phase overruns its slot of 6 weeks by 5.2 weeks on the same servers" (None: it does not)."""
        if self.overrun_weeks is None:
            return None
        return Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "On the same servers the phase takes {need} and overruns its slot of {slot} by "
                 "{over}: every later phase moves back."),
            # a short phase in hours or days, not "0.023 weeks": one unit, the slot's — the plan's scale — so a
            # 7.9-hour phase's overrun reads "74.6 hours … slot of 7.9 hours", not "3.1 days … 0.33 days" (ux15, ux27)
            elapsed_msgs(_slot_unit(self.slot_weeks), need=7 * ((self.slot_weeks or 0.0) + self.overrun_weeks),
                         slot=7 * (self.slot_weeks or 0.0), over=7 * self.overrun_weeks))

    def to_json(self) -> dict:
        return {"change": self.change, "fits": self.fits, "calendar_days": self.calendar_days, "cost": self.cost,
                "slot_weeks": self.slot_weeks, "overrun_weeks": self.overrun_weeks,
                "overrun_note": None if self.overrun_note is None else self.overrun_note.render(),
                "keep_deadline": None if self.keep_deadline is None else self.keep_deadline.to_json(),
                "num_gpus": self.num_gpus, "nodes": self.nodes, "gpus_needed": self.gpus_needed,
                "in_place_upgrade": self.in_place_upgrade, "node_slots": self.node_slots,
                "layout_changes": list(self.layout_changes), "rental_mode": self.rental_mode,
                "base_rental_mode": self.base_rental_mode,
                "memory_per_gpu_gib": None if self.evaluation is None else self.evaluation.memory_total_gib,
                "note": None if self.note is None else self.note.render()}


#: the rental modes that bill whole machines for a period, whatever the hours worked in it (the hybrids are
#: card-hours capped at it, so they are not among them)
WHOLE_MACHINE_MODES = ("week", "month")
#: a slot this short holds "fragmented jobs of a few hours" (planning guide §4, "Whole machine vs card-hours": whole
#: machines for more than ~40 hours a week over several weeks, card-hours for jobs of a few hours): its re-plan is
#: ranked on card-hours unless the user chose a whole-machine mode (app.engine.keep_deadline; whatif18)
SHORT_SLOT_DAYS = 7.0


@dataclass(slots=True, frozen=True)
class Replan:
    """What it takes to keep the main phase's deadline after a what-if change: the search's best plan for the
    changed job with the slot as its deadline (GPUs, layout, rental mode, cost), or why there is none."""

    change: str
    deadline_days: float
    evaluation: Evaluation | None  # the plan found (None: no plan meets the deadline)
    framework: str = ""
    note: Msg | None = None

    @property
    def meets(self) -> bool:
        return self.evaluation is not None and self.evaluation.calendar_days <= self.deadline_days + 1e-9

    @property
    def sentence(self) -> Msg:
        """One line: "To keep 42 days: 16 × H800 (TP 2 · PP 2 · DP 4), 1 node(s), card-hours, 12,345 CNY"."""
        ev = self.evaluation
        if ev is None:
            return self.note or Msg(CTX, QT_TRANSLATE_NOOP(CTX, "No plan finishes within {days}."),
                                    {"days": elapsed_msg(self.deadline_days)})
        L = ev.layout
        text = QT_TRANSLATE_NOOP(
            CTX, "To keep the deadline of {days}: {n} × {gpu} on {nodes} node(s), TP {tp} · PP {pp} · EP {ep} · "
                 "DP {dp} · ZeRO-{zero} ({fw}), {mode}, {cal}, {cost:,.0f} {cur}.")
        worked = ev.calendar_days * 24.0 * ev.scenario.constraints.hours_per_week / 168.0
        if ev.rental_mode in WHOLE_MACHINE_MODES and ev.cost is not None and worked > 0:
            # a whole machine by the week or month (only where the user chose it: cost._short_job_billable) says
            # what the period costs per hour the job works in it (whatif18)
            text = QT_TRANSLATE_NOOP(
                CTX, "To keep the deadline of {days}: {n} × {gpu} on {nodes} node(s), TP {tp} · PP {pp} · EP {ep} · "
                     "DP {dp} · ZeRO-{zero} ({fw}), {mode}, {cal}, {cost:,.0f} {cur} ({per:,.0f} {cur} per hour "
                     "worked).")
        return Msg(CTX, text,
            {"per": (ev.cost or 0.0) / max(worked, 1e-9), **elapsed_msgs(days=self.deadline_days, cal=ev.calendar_days), "n": ev.num_gpus, "gpu": ev.gpu_name, "nodes": ev.nodes, "tp": L.tp,
             "pp": L.pp, "ep": L.ep, "dp": L.dp, "zero": L.zero, "fw": self.framework or L.framework,
             "mode": Msg("Cost", costmod.MODE_LABELS.get(ev.rental_mode or "card_hour", "")),
             "cost": ev.cost if ev.cost is not None else math.nan, "cur": ev.currency})

    def to_json(self) -> dict:
        ev = self.evaluation
        return {"change": self.change, "deadline_days": self.deadline_days, "meets": self.meets,
                "gpu": None if ev is None else ev.gpu_id, "num_gpus": None if ev is None else ev.num_gpus,
                "nodes": None if ev is None else ev.nodes, "layout": None if ev is None else ev.layout.to_json(),
                "rental_mode": None if ev is None else ev.rental_mode, "cost": None if ev is None else ev.cost,
                "calendar_days": None if ev is None else ev.calendar_days, "sentence": self.sentence.render()}


def replan_scenario(w: WhatIf) -> Scenario | None:
    """The changed job as a search's input for "keep the same deadline": the what-if's scenario with the layout
    and GPU count left to the search (``parallel.auto``) and the slot as the deadline; None without a slot or a
    changed scenario (the GPU type candidates and every other constraint stay the user's)."""
    if w.evaluation is None or w.slot_weeks is None or w.change == "upgrade_gpus":
        return None
    s = w.evaluation.scenario
    return s.model_copy(update={
        "parallel": s.parallel.model_copy(update={"auto": True}),
        "constraints": s.constraints.model_copy(update={"deadline_days": float(w.slot_weeks) * 7.0})})


def with_replans(res: "ProjectResult", replans: dict[str, Replan]) -> "ProjectResult":
    """``res`` with each what-if's :class:`Replan` (by change) filled in."""
    return replace(res, what_if=tuple(replace(w, keep_deadline=replans.get(w.change, w.keep_deadline))
                                      for w in res.what_if))


#: the timeline by week up to three years, then by month, and never more than :data:`MAX_ROWS` rows
MAX_WEEKLY_ROWS = 156
MAX_ROWS = 1200


@dataclass(slots=True, frozen=True)
class PhaseBudget:
    """One phase against the project's budget: its cost and its cost at the likely range's far end (a training
    phase's Evaluation ``cost_band`` upper end, :func:`advisor.band_far_end`, scaled to the phase's rental mode; a
    serving or CPU phase is billed for its slot, so its far end is its cost)."""

    name: str
    cost: float | None
    far_end: float | None


@dataclass(slots=True, frozen=True)
class ProjectBudget:
    """The project's total against ``constraints.budget`` at the likely range's far end (advisor17's "project
    budget": the total was never compared). ``cut``: the phase to cut first when the far end is over: the one with
    the largest far-end cost, the only one whose cut can cover the most (the planning guide §4: the budget is what
    the work costs at its far end, debugging and setup included)."""

    budget: float
    currency: str
    phases: tuple[PhaseBudget, ...]

    @property
    def total(self) -> float | None:
        known = [p.cost for p in self.phases]
        return None if any(c is None for c in known) else float(sum(known))

    @property
    def far_end(self) -> float | None:
        known = [p.far_end for p in self.phases]
        return None if any(c is None for c in known) else float(sum(known))

    @property
    def over_by(self) -> float:
        """How much the far end passes the budget (0 within it)."""
        return 0.0 if self.far_end is None else max(0.0, self.far_end - self.budget)

    @property
    def within(self) -> bool:
        """The far end is known and within the budget: what the views colour by (green, else red) and the JSON's
        ``within`` (one rule for the CLI, the Project page and the PDF; review17)."""
        return self.far_end is not None and self.over_by <= 0

    @property
    def cut(self) -> PhaseBudget | None:
        if self.over_by <= 0:
            return None
        return max(reversed(self.phases), key=lambda p: p.far_end or 0.0)

    def lines(self) -> list[Msg]:
        """The sentences every view prints (CLI, Project page, PDF), in this order: the verdict, each phase, the cut."""
        cur, total, far = self.currency, self.total, self.far_end
        if total is None or far is None:
            return [Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Budget {budget:,.0f} {cur}: some phases have no price, so the "
                                                    "total cannot be compared with it."), {"budget": self.budget, "cur": cur})]
        p = {"budget": self.budget, "total": total, "far": far, "cur": cur, "over": self.over_by,
             "left": max(0.0, self.budget - far)}
        if self.over_by <= 0:
            out = [Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Budget {budget:,.0f} {cur}: the project costs {total:,.0f} {cur}, "
                                                   "{far:,.0f} {cur} at the likely range's far end; {left:,.0f} {cur} left."), p)]
        elif total > self.budget * (1 + 1e-9):
            out = [Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Over the budget of {budget:,.0f} {cur}: the project costs "
                                                   "{total:,.0f} {cur}, {far:,.0f} {cur} at the likely range's far end, "
                                                   "{over:,.0f} {cur} over."), p)]
        else:
            out = [Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Budget {budget:,.0f} {cur}: the project costs {total:,.0f} {cur}, but "
                                                   "{far:,.0f} {cur} at the likely range's far end, {over:,.0f} {cur} over."), p)]
        for ph in self.phases:
            out.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "{name}: {cost:,.0f} {cur}, {far:,.0f} {cur} at the far end "
                                                       "({share:.0f}% of the total)."),
                           {"name": ph.name, "cost": ph.cost, "far": ph.far_end, "cur": cur,
                            "share": 100.0 * (ph.far_end or 0.0) / far if far > 0 else 0.0}))
        c = self.cut
        if c is not None and (c.far_end or 0.0) >= self.over_by:
            out.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Cut {name} first, the largest phase: it must come down by "
                                                       "{over:,.0f} {cur} ({pct:.0f}% of its far end) for the project "
                                                       "to fit the budget."),
                           {"name": c.name, "over": self.over_by, "cur": cur, "pct": 100.0 * self.over_by / c.far_end}))
        elif c is not None:
            out.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Cutting {name}, the largest phase, is not enough: even without it "
                                                       "the project is {over:,.0f} {cur} over; cut more phases or raise "
                                                       "the budget."), {"name": c.name, "cur": cur,
                                                                        "over": self.over_by - (c.far_end or 0.0)}))
        return out

    def to_json(self) -> dict:
        c = self.cut
        return {"budget": self.budget, "total": self.total, "total_far_end": self.far_end, "over_by": self.over_by,
                "within": self.within, "cut": None if c is None else c.name,
                "phases": [{"name": p.name, "cost": p.cost, "far_end": p.far_end} for p in self.phases],
                "lines": [m.render() for m in self.lines()]}


def phase_far_end(pr: "PhaseResult") -> float | None:
    """A phase's cost at the likely range's far end (:class:`PhaseBudget`)."""
    ev, c = pr.evaluation, pr.cost
    if c is None or ev is None or ev.cost_band is None or not ev.cost:
        return c
    return float(band_far_end(c, c * ev.cost_band[1] / ev.cost))


def project_budget(phases: tuple["PhaseResult", ...], budget: float | None, currency: str) -> ProjectBudget | None:
    """The project against its budget (None without one)."""
    if budget is None:
        return None
    return ProjectBudget(budget=float(budget), currency=currency,
                         phases=tuple(PhaseBudget(p.name, p.cost, phase_far_end(p)) for p in phases))


@dataclass(slots=True, frozen=True)
class ProjectResult:
    phases: tuple[PhaseResult, ...]
    currency: str
    total_cost: float | None  # sum of the phase costs; None when a phase has no price
    total_weeks: float
    by_mode: dict[str, float]
    by_kind: dict[str, float]
    overlap_advice: tuple[Msg, ...]
    rent_vs_build: Any
    what_if: tuple[WhatIf, ...]
    main_phase: str | None
    messages: tuple[Msg, ...] = ()
    budget: ProjectBudget | None = None  # the total against constraints.budget (None without a budget)

    @property
    def weeks(self) -> int:
        return max(1, math.ceil(self.total_weeks - 1e-9))

    def weekly(self) -> list[dict]:
        """The timeline chart's series: GPUs and CPU cores in use and the cost spread evenly over each phase's
        weeks, by week up to :data:`MAX_WEEKLY_ROWS` weeks, else by month (then in at most :data:`MAX_ROWS`
        equal spans), so its length never grows with the job's. Each row: ``week`` (the first, from 1),
        ``weeks`` (its span), ``gpus``, ``cpu_cores``, ``cost``."""
        n = self.weeks
        step = 1.0 if n <= MAX_WEEKLY_ROWS else max(HOURS_PER_MONTH / HOURS_PER_WEEK, n / MAX_ROWS)
        rows = []
        for i in range(math.ceil(n / step - 1e-9)):
            a, b = i * step, min((i + 1) * step, float(n))
            gpus = cpus = 0
            c = 0.0
            for p in self.phases:
                overlap = max(0.0, min(p.end_week, b) - max(p.start_week, a))
                if overlap <= 0:
                    continue
                if p.resource == "gpu":
                    gpus += p.count
                else:
                    cpus += p.count
                if p.cost is not None:
                    c += p.cost * overlap / max(p.weeks, 1e-9)
            rows.append({"week": math.floor(a) + 1, "weeks": round(b - a, 3), "gpus": gpus, "cpu_cores": cpus,
                         "cost": c})
        return rows

    def to_json(self) -> dict:
        return {
            "phases": [p.to_json() for p in self.phases], "currency": self.currency, "total_cost": self.total_cost,
            "total_weeks": self.total_weeks, "by_rental_mode": dict(self.by_mode), "by_kind": dict(self.by_kind),
            "timeline": self.weekly(), "overlap_advice": [m.render() for m in self.overlap_advice],
            "rent_vs_build": None if self.rent_vs_build is None else self.rent_vs_build.to_json(),
            "main_phase": self.main_phase, "what_if": [w.to_json() for w in self.what_if],
            "messages": [m.render() for m in self.messages],
            "budget": None if self.budget is None else self.budget.to_json(),
        }


# ------------------------------------------------------------------------------------------------ phases


def phase_scenario(phase: Phase, base: Scenario) -> Scenario:
    """The scenario a training-like phase runs: its own (else the document's), with the phase's kind as the
    rental model's work pattern, the phase's hours per week where it sets them, and the project's currency
    (one total in one currency: a phase's own quotes keep their currency and are converted)."""
    s = phase.scenario or base
    upd: dict[str, Any] = {"phase": SCENARIO_PHASE[phase.kind]}
    if phase.hours_per_week is not None:
        upd["hours_per_week"] = phase.hours_per_week
    if s.constraints.currency != base.constraints.currency:
        upd["currency"] = base.constraints.currency
        if base.constraints.exchange_rate is not None:
            upd["exchange_rate"] = base.constraints.exchange_rate
    return s.model_copy(update={"constraints": s.constraints.model_copy(update=upd)})


def _mode_cost(mode_costs: dict[str, float], chosen: str | None, fixed: str | None) -> tuple[str | None, float | None,
                                                                                            Msg | None]:
    if fixed is None:
        return chosen, (mode_costs.get(chosen) if chosen else None), None
    if fixed in mode_costs:
        return fixed, mode_costs[fixed], None
    return fixed, None, Msg(CTX, QT_TRANSLATE_NOOP(CTX, "No price for the rental mode you chose ({mode}): enter a "
                                                        "quote for it."), {"mode": fixed})


def _training_phase(phase: Phase, base: Scenario, start: float, models: ModelSource | None,
                    overheads: Overheads | None) -> PhaseResult:
    s = phase_scenario(phase, base)
    ev = evaluate(s, models, overheads=overheads)
    check_plausible(ev, s.constraints.hours_per_week)
    msgs = list(ev.messages)
    own = phase.scenario.constraints.currency if phase.scenario is not None else s.constraints.currency
    if own != s.constraints.currency:
        msgs.append(Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "{name}: priced in {cur}, the project's currency ({own} in its own plan; quotes converted)."),
            {"name": phase.name, "cur": s.constraints.currency, "own": own}))
    mode, c, m = _mode_cost(dict(ev.mode_costs), ev.rental_mode, phase.rental_mode)
    if m:
        msgs.append(m)
    h = s.constraints.hours_per_week
    work_weeks = ev.calendar_days / 7.0
    weeks = _weeks(phase, start) or work_weeks
    if weeks + 1e-9 < work_weeks:
        msgs.append(Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "{name}: the work takes {need:.1f} days at {h:g} h/week, longer than the {days:.1f} days planned."),
            {"name": phase.name, "need": 7.0 * work_weeks, "h": h, "days": 7.0 * weeks}))
    return PhaseResult(name=phase.name, kind=phase.kind, start_week=start, weeks=weeks, hours_per_week=h,
                       resource="gpu", device=ev.gpu_id, device_name=ev.gpu_name, count=ev.num_gpus, nodes=ev.nodes,
                       rental_mode=mode, cost=c, currency=ev.currency, mode_costs=dict(ev.mode_costs),
                       work_weeks=work_weeks, evaluation=ev, messages=tuple(msgs))


def _weeks(phase: Phase, start: float) -> float | None:
    if phase.weeks is not None:
        return float(phase.weeks)
    if phase.end_week is not None:
        return float(phase.end_week) - start
    return None


def _serving_cost(size: ServingSize, table: PriceTable, *, weeks: float, hours_per_week: float,
                  fixed: str | None) -> tuple[str | None, float | None, dict[str, float], Msg | None]:
    try:
        price = table.get(size.gpu_id)
    except PlannerError:
        price = None
    if price is None:
        return None, None, {}, Msg(CTX, QT_TRANSLATE_NOOP(CTX, "No rental price for {gpu}: enter a quote."),
                                   {"gpu": size.gpu_name})
    nodes = units_nodes(size.num_gpus, size.gpus_per_node)
    # serving keeps the machines for the whole phase: one setup, no training checkpoints
    arr = costmod.rental_costs(price, num_gpus=size.num_gpus, nodes=nodes, train_hours=weeks * hours_per_week,
                               ckpt_bytes=0.0, setup_hours=Overheads().env_setup_hours,
                               hours_per_week=hours_per_week, phase="stable")
    costs = {m: float(arr.costs[i][0]) for i, m in enumerate(MODES) if math.isfinite(float(arr.costs[i][0]))}
    best = MODES[int(arr.best[0])] if costs else None
    mode, c, msg = _mode_cost(costs, best, fixed)
    return mode, c, costs, msg


def _serving_whole_machine(size: ServingSize, table: PriceTable, mode: str | None, costs: dict[str, float],
                           hours_per_week: float, weeks: float) -> list[Msg]:
    """The guide's whole machine vs card-hours rule for a serving phase that runs more than ~40 h/week for several
    weeks (planning-guide.md §4), read on the card's quotes as every training plan reads it
    (:func:`cost.whole_machine_lines`). Issue 35 round 18, advice21: a chat service on 20 × H800 around the clock
    for 13 weeks was billed by the card-hour with no word of the rule it is the textbook case of (the monthly
    8-card rent needs 192 h/week to beat AutoDL's card-hours)."""
    if (mode is None or hours_per_week <= WHOLE_MACHINE_HOURS_PER_WEEK or weeks < SEVERAL_WEEKS):
        return []
    try:
        price = table.get(size.gpu_id)
    except PlannerError:
        return []
    if price is None:
        return []
    return costmod.whole_machine_lines(price, mode, costs, hours_per_week, size.num_gpus, 7.0 * weeks)


def default_serving_candidates(table: PriceTable) -> list[str]:
    """Datacenter and workstation GPUs with a rental price (consumer cards are left out of serving by default:
    no ECC, licence terms; the user may list them)."""
    out = []
    for gid, g in load_gpus().items():
        if g.gpu_class == "consumer" or g.vendor == "custom":
            continue
        try:
            if table.get(gid) is not None:
                out.append(gid)
        except PlannerError:
            continue
    return out


def _inference_phase(phase: Phase, base: Scenario, start: float, models: ModelSource | None,
                     table: PriceTable) -> PhaseResult:
    spec = phase.inference
    assert spec is not None
    s = phase.scenario or base
    r = resolve(s, models)
    m = ServingModel.of(r.arch, r.params)
    h = float(phase.hours_per_week or 168.0)
    weeks = _weeks(phase, start)
    assert weeks is not None
    cands = [spec.gpu] if spec.gpu else (spec.gpu_candidates or default_serving_candidates(table))
    options, gpus = [], []
    for gid in cands:
        try:
            g = lookup_gpu(gid, s.hardware.custom_gpus)
        except PlannerError:
            raise ScenarioError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "unknown GPU {id}"), id=repr(gid)),
                                field="inference.gpu" if spec.gpu else "inference.gpu_candidates") from None
        gpus.append(g)
        size = size_serving(m, g, concurrency=spec.concurrency, context_tokens=spec.context_tokens,
                            prompt_tokens=spec.prompt, output_tokens=spec.output_tokens, precision=spec.precision,
                            kv_precision=spec.kv_precision, tokens_per_s_per_user=spec.tokens_per_s_per_user,
                            gpus_per_node=g.gpus_per_node, gpu_memory_utilization=spec.gpu_memory_utilization,
                            engine=spec.engine, spread=spec.length_spread,
                            target_tokens_per_s=spec.target_tokens_per_s)
        if size is None:
            continue
        mode, c, costs, msg = _serving_cost(size, table, weeks=weeks, hours_per_week=h, fixed=phase.rental_mode)
        tokens = size.tokens_per_s * 3600.0 * h * weeks
        per_m = None if c is None else c / max(tokens / 1e6, 1e-12)
        options.append((size, mode, c, costs, msg, per_m, g))
    if not options and gpus and all(engine_runs_no_fp8(spec.engine, spec.precision, g) for g in gpus):
        raise ScenarioError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "{name}: TensorRT-LLM runs FP8 weights only on Ada, Hopper and Blackwell GPUs (its support matrix); "
                 "choose such a GPU, vLLM (weight-only FP8 on Ampere) or another precision"), name=phase.name),
            field="inference.engine")
    if not options:
        raise ScenarioError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "{name}: no GPU can serve this model at the latency target inside one node"), name=phase.name),
            field="inference")
    # every option serves the users at the target rate, so the phase's cost decides (unpriced options last), then
    # the cost per million tokens, then fewer cards; capacity above the demand is not worth paying for (issue 35
    # round 5, advice3: a per-token order picked 1 × H800 at ¥22,937 over 1 × A800 at ¥12,845 for the same 30
    # users). The user's GPU is the only option.
    options.sort(key=lambda o: (o[2] is None, o[2] if o[2] is not None else 0.0,
                                o[5] if o[5] is not None else 0.0, o[0].num_gpus))
    thin = _thin_kv_last(options, table.currency)
    size, mode, c, costs, msg, _, gpu = options[0]
    # which model the phase serves, said (issue 35 round 6, advice4: a project file whose plan and scenario held
    # different models served the plan's, and nothing printed named it)
    served = Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Serves {model} with {precision} weights."),
                 {"model": r.arch.name, "precision": spec.precision})
    msgs = ([served] + list(size.messages) + _consumer_serving(size, gpu) + thin + ([msg] if msg else [])
            + _burst_capacity(size, weeks) + _serving_whole_machine(size, table, mode, costs, h, weeks))
    alts = tuple((o[0], o[2], o[5]) for o in options[:6])
    return PhaseResult(name=phase.name, kind=phase.kind, start_week=start, weeks=weeks, hours_per_week=h,
                       resource="gpu", device=size.gpu_id, device_name=size.gpu_name, count=size.num_gpus,
                       nodes=units_nodes(size.num_gpus, size.gpus_per_node), rental_mode=mode, cost=c,
                       currency=table.currency, mode_costs=costs, work_weeks=weeks, serving=size,
                       serving_alternatives=alts, messages=tuple(msgs))


#: A serving phase this short on more than one server is a burst (planning guide §3, "Bursts (突发扩容): short data
#: cleaning or inference load tests → confirm real-time scale-out"; its vendor indicators: "Real GPU stock, not
#: 'schedulable' numbers").
BURST_WEEKS = 1.0


def _burst_capacity(size: Any, weeks: float) -> list[Msg]:
    """The planning guide's burst rule on a serving phase: a launch weekend or a load test of a week or less on
    more than one server is said to need the vendor's real-time scale-out. Issue 35 round 18 (advice20): a product
    launch served by 26 × H800 for 3 days printed no such line, where a training plan in the burst phase says it
    (search.plan_warnings)."""
    if weeks > BURST_WEEKS or units_nodes(size.num_gpus, size.gpus_per_node) <= 1:
        return []
    return [Msg(CTX, QT_TRANSLATE_NOOP(
        CTX, "{n} cards for {days}: a burst. Confirm that the vendor can start them all on demand for these dates "
             "(real stock and real-time scale-out, not schedulable capacity), or reserve them ahead."),
        {"n": size.num_gpus, **elapsed_msgs(days=weeks * 7.0)})]


def _thin_kv_last(options: list, currency: str) -> list[Msg]:
    """Rank after the others, with the reason, every option whose vLLM replica may hold no request once a current
    vLLM has taken its CUDA-graph estimate from the KV pool (it then refuses to start: its KV cache cannot hold one
    sequence). Issue 35 round 7, advice7: Qwen2.5-72B int4 for 200 users went to 134 × RTX 4090 at TP 2 with 1.8 GiB
    of KV per card (the weights fill the rest), 3 users per replica; vLLM's docs (Optimization and Tuning,
    "Preemption") name the remedy, a larger tensor-parallel group or a larger card. No option is dropped, and only
    when such an option came first is anything said (its figures stay in the line)."""
    thin = [o for o in options if o[2] is not None and kv_far_end_users(o[0]) == 0]
    if not thin:
        return []
    first = options[0]
    options.sort(key=lambda o: o in thin)
    if first not in thin or options[0] in thin:
        return []
    size = first[0]
    return [Msg(CTX, QT_TRANSLATE_NOOP(
        CTX, "{n} × {gpu} at TP {tp} would cost {cost:,.0f} {cur}, but its KV cache has {kv:.1f} GiB per card for "
             "{users} users per replica: a current vLLM keeps up to {graphs:.1f} GiB per card for CUDA graphs "
             "before sizing the KV cache, which would leave it no room for one request. It is ranked after the "
             "plans with room; a larger TP group or card gives the KV cache more."),
        {"n": size.num_gpus, "gpu": size.gpu_name, "tp": size.tp, "cost": float(first[2]), "cur": currency,
         "kv": float(size.kv_cache_gib_per_gpu), "users": size.batch_per_replica, "graphs": VLLM_GRAPH_POOL_GIB})]


def _consumer_serving(size: ServingSize, g: GPU) -> list[Msg]:
    """What an expert says of serving on GeForce cards the user listed (issue 35 round 7, advice6: 72B int4 served on
    80 × RTX 5090 at TP 2 for 13 weeks, with no word of either): NVIDIA's licence for the GeForce driver excludes
    datacenter deployment ("License For Customer Use of NVIDIA GeForce Software", nvidia.com/drivers/geforce-license,
    §2.1.3 "No Datacenter Deployment"), so a long production service rests on the vendor's terms; and tensor parallelism on cards without
    P2P runs its all-reduces through host memory (the time model counts them at the catalog's PCIe bandwidth).
    ``g``: the card ``size`` was sized on (the caller looked it up)."""
    from .rules import consumer_without_p2p  # noqa: PLC0415

    if getattr(g, "gpu_class", None) != "consumer":
        return []
    out = [Msg(CTX, QT_TRANSLATE_NOOP(
        CTX, "{gpu} is a GeForce card: NVIDIA's GeForce driver licence excludes datacenter deployment (§2.1.3), so a "
             "production service on it rests on the vendor's terms; ask the vendor in writing."),
        {"gpu": size.gpu_name})]
    if size.tp > 1 and consumer_without_p2p(g):
        out.append(Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "TP {tp} on {gpu} without P2P: each layer's all-reduces go through host memory (counted in the "
                 "time); keep each replica's cards in one server."), {"tp": size.tp, "gpu": size.gpu_name}))
    return out


def _cpu_phase(phase: Phase, start: float, table: PriceTable) -> PhaseResult:
    spec = phase.cpu
    assert spec is not None
    h = float(phase.hours_per_week or 168.0)
    weeks = _weeks(phase, start)
    size = size_cpu(spec, table, weeks=weeks, hours_per_week=h)
    work_weeks = size.run_hours / h
    msgs: list[Msg] = []
    if weeks is not None and weeks + 1e-9 < work_weeks:
        msgs.append(Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "{name}: the work takes {need:.1f} days at {h:g} h/week, longer than the {days:.1f} days planned."),
            {"name": phase.name, "need": 7.0 * work_weeks, "h": h, "days": 7.0 * weeks}))
    if size.price.is_default:
        msgs.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Default CPU price ({source}, {date}): replace it with your "
                                                    "quote."), {"source": size.price.provider, "date": size.price.date}))
    best = min(size.mode_costs, key=size.mode_costs.get) if size.mode_costs else None
    mode, c, msg = _mode_cost(size.mode_costs, best, phase.rental_mode)
    if msg:
        msgs.append(msg)
    return PhaseResult(name=phase.name, kind=phase.kind, start_week=start, weeks=weeks or work_weeks,
                       hours_per_week=h, resource="cpu", device=size.price.id, device_name=size.price.provider,
                       count=size.nodes * size.cores_per_node, nodes=size.nodes, rental_mode=mode, cost=c,
                       currency=table.currency, mode_costs=dict(size.mode_costs), work_weeks=work_weeks, cpu=size,
                       messages=tuple(msgs))


# ------------------------------------------------------------------------------------------------ project


def overlap_advice(phases: tuple[PhaseResult, ...], table: PriceTable) -> list[Msg]:
    """Where GPU phases on the same GPU type overlap in time, the hours per week they use together against the
    guide's ~40 h/week rule: above it one whole machine by the month covers both (when their cards fit in one
    machine), below it card-hours; an overlap shorter than :data:`SEVERAL_WEEKS` is no case for the rule (it is
    for "several weeks"): card-hours."""
    out: list[Msg] = []
    gpu_phases = [p for p in phases if p.resource == "gpu"]
    for i, a in enumerate(gpu_phases):
        for b in gpu_phases[i + 1:]:
            if a.device != b.device:
                continue
            lo, hi = max(a.start_week, b.start_week), min(a.end_week, b.end_week)
            if hi - lo <= 1e-9:
                continue
            hours = min(HOURS_PER_WEEK, a.hours_per_week + b.hours_per_week)
            try:
                price = table.get(a.device)
            except PlannerError:
                price = None
            machine = price.machine_gpus if price else 8
            cards = max(a.count, b.count)
            params = {"a": a.name, "b": b.name, "gpu": a.device_name, "h": hours, "from": lo, "to": hi,
                      "n": cards, "machine": machine}
            if hours > WHOLE_MACHINE_HOURS_PER_WEEK and hi - lo < SEVERAL_WEEKS:
                # the rule is for several weeks of use: a burst of hours beside the experiments is no month's
                # rent (issue 35 round 18, advice21: a 4-hour burst on 8 × H800 read "one whole 8-card machine by
                # the month covers both", ¥69,000 against ¥340, for "Weeks 3–3.0241")
                out.append(Msg(CTX, QT_TRANSLATE_NOOP(
                    CTX, "From week {from:.1f}, {a} and {b} share {gpu} for {span} only: too short for the ~40 h/week "
                         "rule, which is for several weeks of use: card-hours for both."),
                    {**params, "span": elapsed_msg(7.0 * (hi - lo))}))
            elif hours > WHOLE_MACHINE_HOURS_PER_WEEK and cards <= machine:
                out.append(Msg(CTX, QT_TRANSLATE_NOOP(
                    CTX, "Weeks {from:g}–{to:g}: {a} and {b} share {gpu} for {h:.0f} h/week together, above the "
                         "~40 h/week rule: one whole {machine}-card machine by the month covers both, taking turns on "
                         "its {n} cards."), params))
            elif hours > WHOLE_MACHINE_HOURS_PER_WEEK:
                out.append(Msg(CTX, QT_TRANSLATE_NOOP(
                    CTX, "Weeks {from:g}–{to:g}: {a} and {b} use {gpu} {h:.0f} h/week together, above the ~40 h/week "
                         "rule, but need {n} cards, more than one {machine}-card machine: rent whole machines for the "
                         "larger phase and share them."), params))
            else:
                out.append(Msg(CTX, QT_TRANSLATE_NOOP(
                    CTX, "Weeks {from:g}–{to:g}: {a} and {b} use {gpu} only {h:.0f} h/week together, under the "
                         "~40 h/week rule: card-hours for both."), params))
    return out


def _phase_server_gpus(phases) -> int | None:
    """The server size the build side buys for these phases of one GPU type: the largest that their plans run on
    (``hardware.gpus_per_node`` of each training phase's Evaluation, as the search resolved it with
    ``catalog_hw.server_gpus``), so a project of 4-GPU servers buys 4-GPU servers, as each plan's own rent-or-build
    does (``evaluate.rent_vs_build_for``; issue 35 round 15, fix15: the project bought the catalogue's 8-GPU board next
    to "Servers of 4 GPUs, as entered"). None where no phase has a plan (serving only): the price table's machine,
    else the card's catalogued server (``cost.default_build_inputs``)."""
    sizes = [int(p.evaluation.scenario.hardware.gpus_per_node) for p in phases
             if p.evaluation is not None and p.evaluation.scenario is not None]
    return max(sizes) if sizes else None


def project_rent_vs_build(phases: tuple[PhaseResult, ...], table: PriceTable, total_weeks: float,
                          ownership=None):
    """Rent vs build over the project: the GPU type with the most GPU-hours, bought in the largest count any
    phase uses and drawing power for the hours actually used, against what the project pays renting that type
    over the project's months (:func:`cost.rent_vs_build`). None without GPU phases or prices."""
    by_gpu: dict[str, list[PhaseResult]] = {}
    for p in phases:
        if p.resource == "gpu" and p.cost is not None:
            by_gpu.setdefault(p.device, []).append(p)
    if not by_gpu:
        return None
    gid, ps = max(by_gpu.items(), key=lambda kv: sum(p.gpu_hours for p in kv[1]))
    count = max(p.count for p in ps)
    months = max(total_weeks / WEEKS_PER_MONTH, 1e-9)
    # the servers are busy for the project's GPU-hours spread over the cards bought (electricity is drawn for
    # those hours only, cost.rent_vs_build); rent is what the project pays for that GPU type
    busy_hours = sum(p.gpu_hours for p in ps) / max(count, 1)
    try:
        b = costmod.default_build_inputs(get_gpu(gid), count, table, ownership,
                                         gpus_per_node=_phase_server_gpus(ps))
    except PlannerError:
        return None
    jobs = len(ps)
    # a project of one GPU phase shorter than four weeks is one short job: the plan's own sentence ("this job alone
    # … is no reason to buy …", cost.SHORT_JOB_MONTHS), not "Over 7.9 hours (1 job like this) … ¥2,000,604"
    # (issue 35 r17, ux26: the Project page and the Plans page said two things of the same 7.9-hour job)
    single = jobs == 1 and months < costmod.SHORT_JOB_MONTHS
    return costmod.rent_vs_build(b, rent_total=sum(p.cost for p in ps), busy_hours=busy_hours,
                                 horizon_months=months, jobs=jobs, single_job=single, plan_gpus=count,
                                 work=_rent_build_work(ps))


def _rent_build_work(ps: list[PhaseResult]) -> Msg | None:
    """What a project's rent-vs-build horizon holds, in the phases' own terms: "serving 168 hours a week for 13
    weeks" for one serving phase, "the project's 3 phases on this GPU type: sft, dpo, serve" for several; None (the
    plan's "1 job like this") for one training phase. Issue 35 r18 (serve18): advice21's request 01 read "(3 jobs like
    this)" for a fine-tune, a DPO run and 13 weeks of serving."""
    from gpuplanner.formatting import format_number  # pure Python, no Qt

    if len(ps) > 1:
        return Msg(CTX, QT_TRANSLATE_NOOP(CTX, "the project's {n} phases on this GPU type: {names}"),
                   {"n": len(ps), "names": ", ".join(p.name for p in ps)})
    p = ps[0]
    if p.kind != "inference":
        return None
    return Msg(CTX, QT_TRANSLATE_NOOP(CTX, "serving {hours} hours a week for {weeks} weeks"),
               {"hours": format_number(p.hours_per_week, 0),
                "weeks": format_number(p.weeks, 0 if abs(p.weeks - round(p.weeks)) < 0.05 else 1)})


def evaluate_project(project: Project, base: Scenario, models: ModelSource | None = None, *,
                     overheads: Overheads | None = None, what_if: bool = True,
                     checklist: dict[str, bool] | None = None, budget: float | None = None) -> ProjectResult:
    """Every phase in order (a phase starts when the previous one ends unless it sets ``start_week``), the
    total (the sum of the phase costs), totals by rental mode and kind, overlap advice, rent vs build over the
    project and the what-if table of the main training phase. Prices come from ``base.constraints``; the budget the
    total is held against (:class:`ProjectBudget`) is ``budget`` (the plan file's own, which a selected plan's
    scenario may not carry), else ``base.constraints.budget``."""
    table = PriceTable.from_constraints(base.constraints)
    results: list[PhaseResult] = []
    cursor = 0.0
    for phase in project.phases:
        start = float(phase.start_week) if phase.start_week is not None else cursor
        if phase.kind in TRAINING_KINDS:
            pr = _training_phase(phase, base, start, models, overheads)
        elif phase.kind == "inference":
            pr = _inference_phase(phase, base, start, models, table)
        else:
            pr = _cpu_phase(phase, start, table)
        results.append(pr)
        cursor = pr.end_week
    phases = tuple(results)
    known = [p.cost for p in phases if p.cost is not None]
    total = sum(known) if len(known) == len(phases) else None
    by_mode: dict[str, float] = {}
    by_kind: dict[str, float] = {}
    for p in phases:
        if p.cost is not None:
            by_mode[p.rental_mode or "?"] = by_mode.get(p.rental_mode or "?", 0.0) + p.cost
            by_kind[p.kind] = by_kind.get(p.kind, 0.0) + p.cost
    total_weeks = max((p.end_week for p in phases), default=0.0)
    msgs: list[Msg] = []
    if total is None:
        msgs.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Some phases have no price: the project total is unknown until "
                                                    "you enter quotes for them."), {}))
    main = project.main()
    wi: tuple[WhatIf, ...] = ()
    if what_if and main is not None:
        base_pr = next(p for p in phases if p.name == main.name)
        wi = tuple(what_if_table(base_pr.evaluation, models, overheads=overheads,
                                 vendor_confirmed=(checklist or {}).get("in_place_upgrade"),
                                 slot_weeks=base_pr.weeks))
    return ProjectResult(phases=phases, currency=table.currency, total_cost=total, total_weeks=total_weeks,
                         by_mode=by_mode, by_kind=by_kind, overlap_advice=tuple(overlap_advice(phases, table)),
                         rent_vs_build=project_rent_vs_build(phases, table, total_weeks,
                                                             getattr(base.constraints, "ownership", None)),
                         what_if=wi, main_phase=None if main is None else main.name, messages=tuple(msgs),
                         budget=project_budget(phases, budget if budget is not None
                                              else getattr(base.constraints, "budget", None), table.currency))


# ------------------------------------------------------------------------------------------------ what-if


def node_slots(ev: Evaluation) -> int:
    """GPU slots of one server of the plan: the plan's node size, never more than the GPU's catalog node."""
    g = ev._extra["resolved"].gpu
    cat = int(g.gpus_per_node or ev.gpus_per_node)
    return max(1, min(int(ev.gpus_per_node), cat))


def next_gpu_count(num_gpus: int, slots: int) -> int:
    """The next size up: double the cards inside one server (4 → 8) up to its slots, then double the nodes
    (1 → 2 nodes, 2 → 4 …)."""
    if num_gpus < slots:
        return min(slots, num_gpus * 2)
    nodes = -(-num_gpus // slots)
    return nodes * 2 * slots


def _with_gpus(s: Scenario, n: int) -> Scenario | None:
    return _with_batch(s.model_copy(update={"hardware": s.hardware.model_copy(update={"num_gpus": n})}))


def layout_diff(a: Evaluation, b: Evaluation) -> tuple[tuple[str, Any, Any], ...]:
    """(field, before, after) for the GPU count, the nodes and every :class:`Layout` field that differs."""
    out: list[tuple[str, Any, Any]] = []
    if a.num_gpus != b.num_gpus:
        out.append(("num_gpus", a.num_gpus, b.num_gpus))
    if a.nodes != b.nodes:
        out.append(("nodes", a.nodes, b.nodes))
    la, lb = a.layout.to_json(), b.layout.to_json()
    # the pipeline's micro-batches only where they are not the micro-batch and accumulation already listed
    mirror = {"pipeline_microbatches", "pipeline_microbatch_size"} if all(
        lay["pipeline_microbatch_size"] == lay["micro_batch_size"] for lay in (la, lb)) else set()
    out += [(k, la[k], lb[k]) for k in la if la[k] != lb[k] and k not in mirror]
    return tuple(out)


#: the names a person reads for :func:`layout_diff`'s fields (degrees such as TP keep their common abbreviation)
LAYOUT_FIELD_LABELS = {
    "num_gpus": QT_TRANSLATE_NOOP("Project", "GPUs"), "nodes": QT_TRANSLATE_NOOP("Project", "nodes"),
    "framework": QT_TRANSLATE_NOOP("Project", "framework"), "zero": QT_TRANSLATE_NOOP("Project", "ZeRO stage"),
    "vpp": QT_TRANSLATE_NOOP("Project", "interleaved stages"),
    "sequence_parallel": QT_TRANSLATE_NOOP("Project", "sequence parallel"),
    "offload_optimizer": QT_TRANSLATE_NOOP("Project", "optimizer offload"),
    "offload_params": QT_TRANSLATE_NOOP("Project", "parameter offload"),
    "recompute": QT_TRANSLATE_NOOP("Project", "recompute"),
    "micro_batch_size": QT_TRANSLATE_NOOP("Project", "micro-batch"),
    "grad_accum": QT_TRANSLATE_NOOP("Project", "accumulation"),
    "global_batch_size": QT_TRANSLATE_NOOP("Project", "global batch"),
    "pipeline_microbatches": QT_TRANSLATE_NOOP("Project", "pipeline micro-batches"),
    "pipeline_microbatch_size": QT_TRANSLATE_NOOP("Project", "pipeline micro-batch size"),
}


def layout_change_text(change: str, translate: Any) -> str:
    """One of :func:`layout_changes` ("grad_accum 16→8") for a person: the field by its name in the output's
    language (``translate(context, text)``), degrees in capitals ("accumulation 16→8", "DP 4→8")."""
    key, _, rest = str(change).partition(" ")
    if key in LAYOUT_FIELD_LABELS:
        return f"{translate('Project', LAYOUT_FIELD_LABELS[key])} {rest}"
    if key in ("tp", "pp", "cp", "ep", "dp"):
        return f"{key.upper()} {rest}"
    return str(change)


def layout_changes(a: Evaluation, b: Evaluation) -> tuple[str, ...]:
    """:func:`layout_diff` as ``"field before→after"`` (the CLI's JSON)."""
    return tuple(f"{k} {x}→{y}" for k, x, y in layout_diff(a, b))


def _doubled_params(s: Scenario, arch: Any) -> Scenario:
    """Twice the parameters at the same width: twice the layers (the non-embedding parameters double; the
    layout keeps its pipeline stages)."""
    return s.model_copy(update={"model": s.model.model_copy(update={"num_hidden_layers": 2 * int(arch.num_layers)})})


def _no_fit_note(ev: Evaluation, limit: int | None) -> Msg:
    """"Does not fit: 118.0 GiB per GPU (2.0 GiB kept free) on 1 GPU(s) of 80.0 GiB, 40.0 GiB over; no count up to
    16 GPUs fits." — a what-if row that does not fit says by how much (whatif18), on the GPUs it was tried on;
    ``limit``: the count doubling went up to without a fit (None: not tried)."""
    mem = ev.memory
    args = {"n": ev.num_gpus, "need": mem.total, "head": mem.headroom, "cap": mem.capacity,
            "over": max(mem.total + mem.headroom - mem.capacity, 0.0), "limit": limit}
    if limit is None:
        return Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "Does not fit: {need:.1f} GiB per GPU ({head:.1f} GiB kept free) on {n} GPU(s) of {cap:.1f} GiB, "
                 "{over:.1f} GiB over."), args)
    return Msg(CTX, QT_TRANSLATE_NOOP(
        CTX, "Does not fit: {need:.1f} GiB per GPU ({head:.1f} GiB kept free) on {n} GPU(s) of {cap:.1f} GiB, "
             "{over:.1f} GiB over; no count up to {limit} GPUs fits (constraints.max_gpus)."), args)


def what_if_table(ev: Evaluation, models: ModelSource | None = None, *, overheads: Overheads | None = None,
                  vendor_confirmed: bool | None = None, slot_weeks: float | None = None) -> list[WhatIf]:
    """The main training phase grown three ways (module docstring). Each is :func:`evaluate` of the changed
    scenario on the same servers; where it no longer fits, the GPU count doubles (within ``max_gpus``) until it
    does (``gpus_needed``). ``in_place_upgrade`` is true only when the count it needs stays within one server's
    slots (:func:`node_slots`): the vendor adds cards to the same machine, no data migration; it is never
    suggested beyond the slots. ``slot_weeks``: the weeks the project gives the phase; a change that takes
    longer on the same servers says by how much it overruns (``overrun_weeks``)."""
    s = ev.scenario
    slots = node_slots(ev)
    limit = max(s.constraints.max_gpus, ev.num_gpus)
    out: list[WhatIf] = []
    variants = [("params_x2", _doubled_params(s, ev.arch)),
                ("tokens_x10", s.model_copy(update={"data": s.data.model_copy(update={"tokens": s.data.tokens * 10})})),
                ("upgrade_gpus", _with_gpus(s, next_gpu_count(ev.num_gpus, slots)))]
    for change, s2 in variants:
        ev2 = None
        if s2 is not None:
            try:
                ev2 = evaluate(s2, models, overheads=overheads, rent_vs_build=False)
            except (PlannerError, ValueError):
                ev2 = None
        if ev2 is None:
            out.append(WhatIf(change=change, evaluation=None, fits=False, calendar_days=None, cost=None,
                              num_gpus=ev.num_gpus, nodes=ev.nodes, gpus_needed=None, in_place_upgrade=False,
                              node_slots=slots, layout_changes=(), rental_mode=None, base_rental_mode=ev.rental_mode,
                              note=Msg(CTX, QT_TRANSLATE_NOOP(CTX, "This layout cannot run the change."), {}),
                              slot_weeks=slot_weeks))
            continue
        needed: int | None = ev2.num_gpus if ev2.fits else None
        n = ev2.num_gpus
        while needed is None and change != "upgrade_gpus":
            n = next_gpu_count(n, slots)
            if n > limit:
                break
            s3 = _with_gpus(s2, n)
            if s3 is None:
                continue
            try:
                e3 = evaluate(s3, models, overheads=overheads, rent_vs_build=False)
            except (PlannerError, ValueError):
                continue
            if e3.fits:
                needed = n
        in_place = needed is not None and needed <= slots and ev.nodes == 1
        note = None
        if change == "upgrade_gpus" or (needed is not None and needed > ev.num_gpus):
            if in_place:
                note = Msg(CTX, QT_TRANSLATE_NOOP(
                    CTX, "{n} cards fit in the same {slots}-slot server: ask the vendor to add cards in place "
                         "(vendor checklist: in-place upgrade{confirmed})."),
                    {"n": needed, "slots": slots,
                     "confirmed": Msg(CTX, QT_TRANSLATE_NOOP(CTX, ", confirmed")) if vendor_confirmed
                     else Msg(CTX, QT_TRANSLATE_NOOP(CTX, ", not yet confirmed"))})
            elif needed is not None:
                note = Msg(CTX, QT_TRANSLATE_NOOP(
                    CTX, "{n} cards need more than one {slots}-slot server: new nodes, data migration and a network "
                         "test."), {"n": needed, "slots": slots})
        if needed is None and change != "upgrade_gpus":
            note = Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Does not fit up to {n} GPUs (constraints.max_gpus)."),
                       {"n": limit})
        if not ev2.fits:  # an impossible plan shows no time or cost as if it ran (whatif18): by how much it misses
            miss = _no_fit_note(ev2, limit if needed is None and change != "upgrade_gpus" else None)
            note = miss if needed is None or note is None else Msg(CTX, QT_TRANSLATE_NOOP(CTX, "{a} {b}"),
                                                                    {"a": miss, "b": note})
        if change == "tokens_x10" and ev2.rental_mode != ev.rental_mode and ev2.rental_mode is not None:
            note = Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Ten times the data changes the cheapest rental from {a} to {b}."),
                       {"a": Msg("Cost", costmod.MODE_LABELS.get(ev.rental_mode or "card_hour", "")),
                        "b": Msg("Cost", costmod.MODE_LABELS[ev2.rental_mode])})
        over = None
        if slot_weeks is not None and ev2.fits and ev2.calendar_days / 7.0 > slot_weeks + 1e-9:
            over = ev2.calendar_days / 7.0 - slot_weeks
        out.append(WhatIf(change=change, evaluation=ev2, fits=ev2.fits,
                          calendar_days=ev2.calendar_days if ev2.fits else None, cost=ev2.cost if ev2.fits else None, num_gpus=ev2.num_gpus, nodes=ev2.nodes, gpus_needed=needed,
                          in_place_upgrade=bool(in_place), node_slots=slots, layout_changes=layout_changes(ev, ev2),
                          rental_mode=ev2.rental_mode, base_rental_mode=ev.rental_mode, note=note,
                          diff=layout_diff(ev, ev2), slot_weeks=slot_weeks, overrun_weeks=over))
    return out
