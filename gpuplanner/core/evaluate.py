"""One scenario in, one :class:`Evaluation` out: the only place a plan's figures are derived.

Every view — the live panel, the Plans page and its details, the cost chart, the data page, ``gpuplanner
estimate`` and ``gpuplanner plan`` (text and ``--json``) and the PDF report — renders an Evaluation and
computes nothing of its own. The plan search ranks many candidates with the same vectorised formulas
(:func:`memory.memory_arrays`, :func:`timing.time_arrays`, :func:`cost.rental_costs`) and then builds each
shown plan's figures by calling :func:`evaluate` on the plan's complete scenario, so a ranked plan, the
plan re-estimated from its scenario, the PDF and the app cannot disagree.

Two kinds of days, named the same way everywhere:

* ``compute_days`` — GPU time around the clock: ``tokens / (tokens/s) / 86400`` (:mod:`timing`).
* ``calendar_days`` — what the user waits: compute time plus environment setup and data migration,
  checkpoints and interruptions (Young 1974; Llama 3 §3.3.4), restarts per working session, stretched by
  ``168 / hours_per_week`` (:func:`cost.rental_costs`), for the rental mode that costs least.

Costs are in ``constraints.currency`` for the rental mode that costs least (:data:`cost.MODES`); ``cost`` is
None when no price is known for the GPU (``messages`` says so). Rent versus build compares buying and
running the plan's servers for the work (this job, or the period and jobs of ``constraints.ownership``) with
renting it at the plan's cost: five parts, a verdict and the break-even utilisation (:func:`cost.rent_vs_build`).
"""

from __future__ import annotations

import math
from dataclasses import field, replace as _replace
from typing import Any, Callable, Mapping

from dataclasses import dataclass

from .units import nodes as units_nodes, powers_of_two_upto
from . import cost as costmod
from .architecture import ModelSource
from .cost import MODE_LABELS, MODES, GpuPrice, Msg, Overheads, PriceTable
from .errors import PlannerError, ScenarioError
from .i18n import QT_TRANSLATE_NOOP
from .memory import MemoryBreakdown
from .params import ParamCount
from .scenario import Scenario
# imported here, not inside functions: the search runs on a worker thread, where an import statement goes through PySide6's import hook (a deadlock was seen there)
import numpy as np
from .estimate import estimate, memory_kwargs, resolve
from .params import tier, vision_tokens_per_image, weights_count
from .intake import host_ram, intake_warnings
from .rules import comm_share as rules_comm_share, evaluate_rules, mfu_grade, pipeline_slots, rule_comm_share
from . import advisor as advisormod
from .timing import a2a_overlap_pairs, a2a_overlap_warmup, calibration_of, gpu_generation, gpu_time_facts
from .catalog_hw import get_network as _get_network
from .calibration import gpu_name as calibration_name, describe as calibration_describe, run_status
from .shipped import load_json
from .memory import GIB, RECOMPUTE_CODES, memory_arrays
from .methods import method_profile
from .frameworks import FRAMEWORKS, model_unsupported, unsupported, vendor_unsupported
from .messages import MsgStr
from .frameworks import support as framework_support
from .frameworks import no_vpp_words, peft_unsharded, name_for, rl_engine_unrun

CTX = "Evaluation"
CHINCHILLA_TOKENS_PER_PARAM = 20.0  # Hoffmann et al. 2022 (arXiv:2203.15556), Table 3: 70B -> 1.4T tokens


@dataclass(slots=True, frozen=True)
class Layout:
    """The resolved layout a plan runs with (every field the estimate uses)."""

    framework: str
    tp: int
    pp: int
    cp: int
    ep: int
    vpp: int
    dp: int
    zero: int
    sequence_parallel: bool
    offload_optimizer: bool
    offload_params: bool
    recompute: str
    micro_batch_size: int
    grad_accum: int
    global_batch_size: int
    #: with pipeline parallelism, the micro-batches of one step and their size as the framework forms them
    #: (torchtitan splits each rank's batch: frameworks.pipeline_split); without a pipeline, the plain values
    pipeline_microbatches: int
    pipeline_microbatch_size: int

    @classmethod
    def of(cls, s: Scenario) -> "Layout":
        from .frameworks import engine_of, pipeline_split

        p, t = s.parallel, s.training
        pmb, pm = pipeline_split(engine_of(t.framework), p.pp, t.micro_batch_size, s.grad_accum,
                                 t.pipeline_microbatch_size)
        return cls(framework=t.framework, tp=p.tp, pp=p.pp, cp=p.cp, ep=p.ep, vpp=p.vpp, dp=s.dp, zero=p.zero,
                   sequence_parallel=bool(p.sequence_parallel and p.tp > 1), offload_optimizer=p.offload_optimizer,
                   offload_params=p.offload_params, recompute=t.recompute, micro_batch_size=t.micro_batch_size,
                   grad_accum=s.grad_accum, global_batch_size=s.global_batch,
                   pipeline_microbatches=int(pm), pipeline_microbatch_size=int(pmb))

    def to_json(self) -> dict:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


@dataclass(slots=True, frozen=True)
class CostInputs:
    """The per-scenario inputs of :func:`cost.rental_costs` besides the price and the training time
    (shared by :func:`evaluate` and the search, so both bill the same way)."""

    setup_hours: float
    ckpt_bytes: float
    overheads: Overheads


def cost_inputs(scenario: Scenario, arch: Any, params_total: int, trainable: int,
                overheads: Overheads | None = None) -> CostInputs:
    """Setup (environment + data migration of the corpus and the 16-bit starting weights) and checkpoint
    size for ``scenario`` (:func:`cost.data_migration_hours`, :func:`cost.checkpoint_bytes`)."""
    ov = overheads or Overheads()
    t = scenario.training
    start_weights = 0.0 if t.method == "pretrain" else float(params_total)
    setup = ov.env_setup_hours + costmod.data_migration_hours(float(scenario.data.tokens), arch.vocab_size,
                                                              start_weights, ov.transfer_gbps)
    ckpt = costmod.checkpoint_bytes(trainable, t.method in ("lora", "qlora"))
    return CostInputs(setup_hours=setup, ckpt_bytes=ckpt, overheads=ov)


@dataclass(slots=True, frozen=True)
class Evaluation:
    """Every figure of one plan. Immutable; views read it and compute nothing."""

    scenario: Scenario
    model_name: str
    params: ParamCount
    trainable: int
    tier: str
    gpu_id: str
    gpu_name: str
    gpu_memory_gib: float
    num_gpus: int
    gpus_per_node: int
    nodes: int
    layout: Layout
    memory: MemoryBreakdown
    #: timing.TimeEstimate at the MFU the plan is timed and costed at (``mfu_used``: the modelled one, or the
    #: ceiling where the modelled MFU is above it; core/advisor.time_at): the step time, tokens/s, MFU and
    #: breakdown every view shows
    time: Any
    tokens: float
    flops_per_token: float           # model FLOPs per token (the MFU definition)
    hardware_flops_per_token: float  # with recomputation
    total_flops: float               # model FLOPs over ``tokens``
    compute_days: float
    calendar_days: float
    currency: str
    rental_mode: str | None
    cost: float | None
    mode_costs: Mapping[str, float]
    price: GpuPrice | None
    setup_hours: float
    deadline_days: float | None
    budget: float | None
    rent_vs_build: Any = None  # cost.BuildResult
    rental_advice: tuple[Msg, ...] = ()
    #: the hours of use per week above which a whole machine per week / per month beats card-hours, next to the
    #: guide's rule (:func:`cost.break_even_hours_per_week`, worked out once here; views read it); None without
    #: a card-hour price or a machine quote
    break_even: Mapping[str, Any] | None = None
    messages: tuple[Msg, ...] = ()
    #: ``poor``, ``fair``, ``good``, ``optimistic`` above the best published run of the plan's class: the guide's
    #: 30% / 40–55% on mainstream classes, scaled to the class's run elsewhere (rules.grade_bands)
    mfu_grade: str | None = None
    #: the MFU the grade reads: the training passes' (RL) MFU the plan is timed at — the ceiling's where it caps
    mfu_graded: float | None = None
    #: every planning rule's verdict for this plan (:func:`rules.evaluate_rules`)
    rules: tuple[Any, ...] = ()
    #: days and cost as a band from the validation spread (:func:`validation_band`): what the user waits and
    #: pays if the run is as far off the model as the published runs of its framework family at their
    #: 10th and 90th percentile; ``band`` names the family, the percentiles, the rows and the source
    calendar_days_band: tuple[float, float] | None = None
    cost_band: tuple[float, float] | None = None
    band: Mapping[str, Any] | None = None
    #: the measured run calibrating this plan's GPU and its matmul-efficiency factor (core/calibration.py)
    calibration: Any = None  # (MeasuredRun, factor) or None
    #: one line per measured run in the scenario: applied here, or why not
    calibration_notes: tuple[Msg, ...] = ()
    #: the model intake's warnings (unrecognised architecture, weights vs config, context length, host RAM;
    #: :mod:`core.intake`); also among ``messages``
    warnings: tuple[Msg, ...] = ()
    #: host RAM per node CPU offload needs (:func:`intake.host_ram`; None without offload)
    host_ram: Any = None
    #: the MFU ceiling of the plan's class (core/advisor.py: best published run, source, date, layout) and the
    #: MFU the plan is timed and costed at (``min(modelled, ceiling)``); None where no ceiling applies
    mfu_ceiling: Mapping[str, Any] | None = None
    mfu_used: float | None = None
    #: meets the deadline / budget at the point estimate but not at the upper end of its band (None: no band or
    #: no deadline and budget)
    deadline_risk: bool | None = None
    #: free memory against the memory model's p75 error (core/advisor.py): ``margin``, ``free_share``, ``tight``
    memory_headroom: Mapping[str, Any] | None = None
    #: TP over a PCIe link (no NVLink in the node)
    tp_over_pcie: bool = False
    #: the time model's own estimate (timing.TimeEstimate) before the MFU ceiling; ``time`` where none applies
    time_modelled: Any = None
    _extra: Mapping[str, Any] = field(default_factory=dict, repr=False)

    # ---- derived views of the same numbers (no new formulas)
    @property
    def arch(self) -> Any:
        """The resolved architecture (:class:`architecture.ModelArch`)."""
        return self._extra["arch"]

    @property
    def fits(self) -> bool:
        return self.memory.fits

    @property
    def memory_total_gib(self) -> float:
        return self.memory.total

    @property
    def mfu(self) -> float:
        return self.time.mfu

    @property
    def mfu_modelled(self) -> float:
        """The time model's MFU before the ceiling (``mfu`` is the one the plan is timed at)."""
        return (self.time_modelled or self.time).mfu

    @property
    def rl_training_mfu(self) -> float | None:
        """An RL plan's training-pass MFU, the figure its grade is of (:attr:`mfu_graded`), shown beside the plan's
        own MFU ("29% (44% good)"); None for a plan without rollouts, whose grade is of its MFU."""
        return self.mfu_graded if method_profile(self.scenario.training).rl else None

    @property
    def mfu_capped(self) -> bool:
        """The modelled MFU is above the ceiling of its class, so the plan is timed and costed at the ceiling."""
        return self.time_modelled is not None and self.time_modelled is not self.time

    @property
    def mfu_note(self) -> Msg | None:
        """Why the MFU shown is not the modelled one (None: it is): "modelled 61%, above the best published 53%
        for A100 80GB (source, date): timed at 53%"."""
        if not self.mfu_capped or self.mfu_ceiling is None:
            return None
        c = self.mfu_ceiling
        text = {  # a class with no published run of its own borrows the lowest ceiling of its family (advisor.py)
            "no_gpu_run": QT_TRANSLATE_NOOP(
                CTX, "modelled {modelled:.1%}; no run on this card is published, so it takes the lowest ceiling of "
                     "its framework family, {ceil:.1%} for {cls} ({src}, {date}): timed and costed at {ceil:.1%}"),
            "no_framework_run": QT_TRANSLATE_NOOP(
                CTX, "modelled {modelled:.1%}; no run of this framework on this card family is published, so it takes "
                     "the lowest ceiling of the family, {ceil:.1%} for {cls} ({src}, {date}): timed and costed at "
                     "{ceil:.1%}"),
        }.get(c.get("fallback") or "", QT_TRANSLATE_NOOP(
            CTX, "modelled {modelled:.1%}, above the best published {ceil:.1%} for {cls} ({src}, {date}): timed and "
                 "costed at {ceil:.1%}"))
        # the figure the ceiling bounds (advisor.capped, _graded): an RL plan's training passes, not its whole step
        # with the rollouts ("modelled 29%, above the best published 52%" read as a contradiction; review17, advice19)
        tm = self.time_modelled or self.time
        modelled = float(tm.mfu if tm.mfu_training is None else tm.mfu_training)
        if advisormod.ceiling_is_hfu(c) and c.get("fallback"):  # a borrowed HFU, compared on the HFU (advice19)
            text = QT_TRANSLATE_NOOP(
                CTX, "modelled hardware FLOPs utilisation {modelled:.1%} (recomputed FLOPs counted); no run of its "
                     "own class is published, so it takes the lowest hardware FLOPs utilisation of the classes that "
                     "have one, {ceil:.1%} for {cls} ({src}, {date}): timed and costed at {ceil:.1%} hardware FLOPs "
                     "utilisation")
            modelled = float(advisormod.ceiling_figure(modelled, _hfu_ratio(self.time_modelled), True))
        elif advisormod.ceiling_is_hfu(c):  # compared on the HFU (advisor.ceiling_figure)
            text = QT_TRANSLATE_NOOP(
                CTX, "modelled hardware FLOPs utilisation {modelled:.1%} (recomputed FLOPs counted), above the best "
                     "published {ceil:.1%} for {cls} ({src}, {date}): timed and costed at {ceil:.1%} hardware FLOPs "
                     "utilisation")
            modelled = float(advisormod.ceiling_figure(modelled, _hfu_ratio(self.time_modelled), True))
        return Msg(CTX, text,
            {"modelled": modelled, "ceil": float(c["mfu"]), "cls": c.get("gpu_type") or "",
             "src": c.get("source") or "", "date": c.get("source_date") or ""})

    @property
    def hfu(self) -> float:
        return self.time.hfu

    @property
    def tokens_per_s(self) -> float:
        return self.time.tokens_per_s

    @property
    def gpu_hours(self) -> float:
        """GPU-hours of compute (around the clock)."""
        return self.compute_days * 24.0 * self.num_gpus

    @property
    def meets_deadline(self) -> bool:
        return self.deadline_days is None or self.calendar_days <= self.deadline_days

    @property
    def within_budget(self) -> bool:
        return self.budget is None or (self.cost is not None and self.cost <= self.budget)

    @property
    def failed_rules(self) -> tuple[Any, ...]:
        """The planning rules this plan breaks while they are switched on."""
        return tuple(r for r in self.rules if r.status == "failed")

    @property
    def rental_mode_label(self) -> str | None:
        return None if self.rental_mode is None else MODE_LABELS[self.rental_mode]

    @property
    def cost_per_million_tokens(self) -> float | None:
        return None if self.cost is None else self.cost / max(self.tokens / 1e6, 1e-12)

    @property
    def cost_per_pflop(self) -> float | None:
        return None if self.cost is None else self.cost / max(self.total_flops / 1e15, 1e-30)

    @property
    def required_tokens_per_s(self) -> float | None:
        """Tokens/s needed to finish ``tokens`` by the deadline, counting only the hours worked per week."""
        c = self.scenario.constraints
        if not c.deadline_days or not self.tokens:
            return None
        seconds = c.deadline_days * 86400.0 * (c.hours_per_week / 168.0)
        return self.tokens / seconds if seconds > 0 else None

    @property
    def compute_optimal_tokens(self) -> float:
        """Compute-optimal pretraining data: 20 tokens per parameter (Chinchilla)."""
        return CHINCHILLA_TOKENS_PER_PARAM * float(self.params.total)

    @property
    def image_tokens(self) -> tuple[float, float]:
        """(vision-encoder patches, language-model tokens) per sample of a vision-language model: its images
        (``data.images_per_sample`` of ``data.image_resolution``) through :func:`params.vision_tokens_per_image`;
        (0, 0) for a text model."""
        patches, tokens = vision_tokens_per_image(self.arch, self.scenario.data.image_resolution)
        n = self.scenario.data.images_per_sample
        return patches * n, tokens * n

    @property
    def tokens_per_param(self) -> float:
        return self.tokens / max(float(self.params.total), 1.0)

    def to_json(self) -> dict:
        """The CLI contract (``gpuplanner estimate --json``; each plan of ``gpuplanner plan --json`` has the
        same keys): ``memory_per_gpu_gib`` (with ``total``), ``compute_days``, ``calendar_days``, ``cost``
        (None without a price), ``currency``, ``rental_mode``, and everything else the views show. Values are
        not rounded: every view rounds the same full value once, so no two places can disagree."""
        s = self.scenario
        out: dict[str, Any] = {
            "model": self.model_name,
            "params": {"total": self.params.total, "active": self.params.active, "trainable": self.trainable,
                       "stored": self.arch.stored_params, "weights": weights_count(self.arch),
                       "vision": self.params.vision, "projector": self.params.projector},
            "tier": self.tier,
            "gpu": self.gpu_id, "gpu_name": self.gpu_name, "gpu_memory_gib": self.gpu_memory_gib,
            "num_gpus": self.num_gpus, "gpus_per_node": self.gpus_per_node, "nodes": self.nodes,
            "layout": self.layout.to_json(),
            "memory_per_gpu_gib": dict(self.memory.as_dict()),
            "memory_headroom_gib": self.memory.headroom,
            # the allocator figure a measurement is compared with (assumptions.memory_metric; fits: total)
            "memory_metric": s.assumptions.memory_metric,
            "memory_metric_gib": self.memory.metric(s.assumptions.memory_metric),
            "fits": self.fits,
            "tokens": self.tokens,
            "flops_per_token": self.flops_per_token,
            "hardware_flops_per_token": self.hardware_flops_per_token,
            "total_flops": self.total_flops,
            "compute_days": self.compute_days,
            "calendar_days": self.calendar_days,
            "gpu_hours": self.gpu_hours,
            "setup_hours": self.setup_hours,
            "cost": self.cost,
            "currency": self.currency,
            "rental_mode": self.rental_mode,
            "rental_mode_label": self.rental_mode_label,
            "mode_costs": dict(self.mode_costs),
            "price": None if self.price is None else self.price.to_json(),
            "cost_per_million_tokens": self.cost_per_million_tokens,
            "meets_deadline": self.meets_deadline,
            "within_budget": self.within_budget,
            "rent_vs_build": None if self.rent_vs_build is None else self.rent_vs_build.to_json(),
            "rental_advice": [m.render() for m in self.rental_advice],
            "messages": [m.render() for m in self.messages],
            "warnings": [m.render() for m in self.warnings],
            "host_ram_per_node_gib": None if self.host_ram is None else self.host_ram.to_json(),
            "image_tokens_per_sample": self.image_tokens[1] if self.arch.vision_kind else None,
            "mfu_grade": self.mfu_grade, "mfu_graded": self.mfu_graded,
            "rules": [r.to_json() for r in self.rules],
            "calendar_days_band": None if self.calendar_days_band is None else list(self.calendar_days_band),
            "cost_band": None if self.cost_band is None else list(self.cost_band),
            "band": None if self.band is None else dict(self.band),
            "calibration": None if self.calibration is None else {
                "run": calibration_describe(self.calibration[0]), "efficiency_factor": self.calibration[1]},
            "calibration_notes": [m.render() for m in self.calibration_notes],
            "mfu_ceiling": None if self.mfu_ceiling is None else dict(self.mfu_ceiling),
            "mfu_used": self.mfu_used,
            "mfu_modelled": self.mfu_modelled,
            "mfu_note": None if self.mfu_note is None else self.mfu_note.render(),
            # the time model's own figures before the ceiling (the keys above are at mfu_used)
            "time_modelled": None if not self.mfu_capped else {
                "mfu": self.time_modelled.mfu, "step_time_s": self.time_modelled.step_time_s,
                "tokens_per_s": self.time_modelled.tokens_per_s,
                "tokens_per_s_per_gpu": self.time_modelled.tokens_per_s_per_gpu,
                "compute_days": self.time_modelled.compute_days},
            "deadline_risk": self.deadline_risk,
            "memory_headroom": None if self.memory_headroom is None else dict(self.memory_headroom),
            "tp_over_pcie": self.tp_over_pcie,
            "break_even_hours_per_week": None if self.break_even is None else dict(self.break_even),
            "modes_not_offered": [m for m in MODES if m not in self.mode_costs] if self.cost is not None else [],
        }
        # the training objective: the models held, and for RL the rollouts (core/methods.py)
        prof = method_profile(s.training)
        out["objective"] = prof.to_json()
        t = self.time.to_json()
        t.pop("train_days", None)
        t.pop("gpu_hours", None)
        # the plan's compute days are the Evaluation's (at the MFU it is timed at, under the class's ceiling);
        # the time model's own figure (at the modelled MFU) must not replace them
        t.pop("compute_days", None)
        out.update(t)
        out["scenario"] = s.model_dump(mode="json", exclude_none=True)
        return out

    @property
    def links(self) -> "PlanLinks":
        """The links this plan runs on, named as the views show them (:func:`plan_links`)."""
        return plan_links(self)

    @property
    def storage(self) -> "StorageNeeds":
        """What the plan stores (:class:`StorageNeeds`): the checkpoint the costs count, the data, the weights."""
        return storage_needs(self)


# --------------------------------------------------------------------------------------------- evaluate

BAND_MEANING = QT_TRANSLATE_NOOP(
    CTX, "At least 80% of the published runs of this framework family took between the low and the high end of "
         "this range of what the model predicts for them (the range always holds the estimate itself); an untuned "
         "run can be slower.")


#: The published runs behind each band, named as they are (bench/validation_bands.py ``FAMILIES``: the ``fsdp`` band is
#: MosaicML llm-foundry's Composer FSDP runs, the ``hf`` band torchtune's README runs, and ``deepspeed`` has no
#: published row, so it takes the band of all rows). Issue 35 round 7, advice6: plans said "55 published DeepSpeed
#: runs", "18 published PyTorch FSDP2 (torchtitan) runs" and "12 published Hugging Face Trainer / Accelerate runs".
BAND_RUNS = {
    "megatron": QT_TRANSLATE_NOOP(CTX, "Megatron-LM and Megatron-Core"),
    "fsdp": QT_TRANSLATE_NOOP(CTX, "MosaicML llm-foundry (PyTorch FSDP)"),
    "hf": QT_TRANSLATE_NOOP(CTX, "torchtune"),
    "all": QT_TRANSLATE_NOOP(CTX, "Megatron-LM, llm-foundry and torchtune"),
}


def band_runs(band: dict) -> str | None:
    """The untranslated name of the runs behind ``band`` (:data:`BAND_RUNS`, context "Evaluation"), or None for a
    band stored before it was named (then its framework family names it)."""
    return band.get("runs") if isinstance(band, dict) else None


#: why a plan's likely cost range is one figure, by its rental mode (issue 35 round 10, ux15): whole machines
#: rented by the month (or week) bill the same period at both ends of the range of days
ONE_COST_REASONS = {
    "month": QT_TRANSLATE_NOOP(CTX, "{cost} (rented by the whole month: the same whatever the run's length in its "
                                    "range)"),
    "week": QT_TRANSLATE_NOOP(CTX, "{cost} (rented by the whole week: the same whatever the run's length in its "
                                   "range)"),
    "": QT_TRANSLATE_NOOP(CTX, "{cost} (the same whatever the run's length in its range)"),
}


def cost_band_msg(ev: "Evaluation") -> Msg | None:
    """The plan's likely cost range as every view writes it (CLI ``estimate``/``plan``, the live panel's tooltip,
    the Plans details, the PDF): "¥61,000–¥75,000", or, where both ends print the same, the one figure and why
    ("¥70,000 (rented by the whole month: …)", not a bare "¥70,000" that reads as if a range were missing).
    None without a cost range. Amounts through ``formatting.format_money``, as the views wrote them."""
    from ..formatting import format_money  # pure Python, no Qt: the core stays pure

    if ev.cost_band is None:
        return None
    lo, hi = (format_money(v, ev.currency) for v in ev.cost_band)
    if lo != hi:
        return Msg("", "{lo}–{hi}", {"lo": lo, "hi": hi})
    mode = {"hybrid_month": "", "hybrid_week": ""}.get(ev.rental_mode or "", ev.rental_mode or "")
    return Msg(CTX, ONE_COST_REASONS.get(mode, ONE_COST_REASONS[""]), {"cost": lo})


def band_name(band: dict, translate: Callable[[str, str], str]) -> str:
    """The published runs behind ``band`` as the views name them: its runs (:data:`BAND_RUNS`), put in the view's
    language by ``translate(context, text)`` (context "Evaluation"); a band stored before they were named: its
    framework family's product name (:func:`frameworks.name_for`). The one fallback the CLI, report and page use."""
    from .frameworks import name_for

    runs = band_runs(band)
    return translate("Evaluation", runs) if runs else name_for(band.get("family", ""), "")


def validation_band(framework: str) -> dict | None:
    """The p10–p90 ratio of true to predicted training days for ``framework``'s family
    (``resources/validation_bands.json``, written by ``bench/validation_bands.py`` from the published runs of
    ``calibration-runs.jsonl``; a fine-tuning tool takes its engine's); None when the file has no band for it."""
    try:
        doc = load_json("validation_bands.json")
    except (OSError, ValueError):
        return None
    from .frameworks import engine_of

    bands = doc.get("bands") or {}
    if framework not in bands:  # a fine-tuning tool: its engine's family (core/frameworks.py)
        framework = engine_of(framework)
    b = bands.get(framework)
    if not isinstance(b, dict) or not (0 < b.get("p10", 0) <= b.get("p90", 0)):
        return None
    runs = BAND_RUNS.get(framework, BAND_RUNS["all"])  # deepspeed and any other: the band of all rows
    return {"family": framework, "runs": runs, "p10": float(b["p10"]), "p90": float(b["p90"]),
            "rows": int(b.get("rows", 0)),
            "source": doc.get("source"), "source_date": doc.get("source_date"), "meaning": BAND_MEANING}



def rent_vs_build_for(gpu: Any, num_gpus: int, price: GpuPrice | None, table: PriceTable, *,
                      rent_cost: float | None, compute_hours: float, calendar_hours: float, ownership: Any = None,
                      gpus_per_node: int | None = None):
    """Buy and run the plan's servers for the work, against renting it at the plan's own cost
    (:func:`cost.rent_vs_build`). The work is this job (``rent_cost``, ``compute_hours`` of busy machines,
    ``calendar_hours`` long) times ``ownership.jobs``; the period is ``ownership.horizon_months`` when stated
    (at least the jobs' calendar time), else this job alone. Over a stated period renting costs the jobs'
    rental cost or leasing the servers for the whole period, whichever is less. None without a rental cost."""
    if price is None or rent_cost is None:
        return None
    b = costmod.default_build_inputs(gpu, num_gpus, table, ownership, gpus_per_node=gpus_per_node)
    jobs = int(getattr(ownership, "jobs", 1) or 1)
    stated = getattr(ownership, "horizon_months", None)
    work_months = jobs * calendar_hours / costmod.HOURS_PER_MONTH
    single = stated is None and jobs == 1
    horizon = work_months if stated is None else max(float(stated), work_months)
    rent_total = jobs * rent_cost
    if not single and price.machine_month is not None:
        # over a stated period the same servers can simply be leased for the whole of it
        leases = -(-num_gpus // max(price.machine_gpus, 1))  # machines of the quote's size
        rent_total = min(rent_total, leases * price.machine_month * horizon)
    return costmod.rent_vs_build(b, rent_total=rent_total, busy_hours=jobs * compute_hours,
                                 horizon_months=horizon, jobs=jobs, single_job=single,
                                 rent_card_hour=costmod.cheapest_card_hour(price), plan_gpus=num_gpus)


def _plan_messages(r: Any, est: Any, price: Any, warnings: tuple) -> list[Msg]:
    """What the plan tells the user beside the numbers: the intake's warnings, not fitting in memory, an
    objective the framework does not document, vLLM's share too small for the weights, no price."""
    s = r.scenario
    messages: list[Msg] = list(warnings)
    if not est.memory.fits:
        # the per-GPU figure every view shows (the memory total: "141.6 GiB of 80.0 GiB"), the headroom said apart
        # (ux22: the warning read "143.6 GiB … on a 80 GiB card" under a headline of "141.6 GiB … of 80.0 GiB")
        messages.append(Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "Does not fit: {need:.1f} GiB per GPU on a card of {cap:.1f} GiB, which also keeps {head:.1f} GiB "
                 "free as headroom."),
            {"need": est.memory.total, "head": est.memory.headroom, "cap": est.memory.capacity}))
    prof = method_profile(s.training)
    sup = FRAMEWORKS.get(s.training.framework)
    if sup is not None and s.training.objective not in sup.objectives:
        messages.append(Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "{fw} does not document the {objective} objective; estimated with its engine's conventions."),
            {"fw": sup.name, "objective": s.training.objective.upper()}))
    if prof.rl and prof.engine == "vllm_colocated" and not prof.engine_sleep:
        share = prof.gpu_fraction * float(r.gpu.memory_gib or 0.0)
        w16 = float(est.memory.extra.get("rollout_weights", 0.0))
        if share <= w16:
            messages.append(Msg(CTX, QT_TRANSLATE_NOOP(
                CTX, "vLLM's share of each GPU ({share:.1f} GiB) does not hold the model's 16-bit weights "
                     "({w:.1f} GiB): raise training.rl.generation_gpu_fraction or use more tensor parallelism."),
                {"share": share, "w": w16}))
    if price is None:
        messages.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "No rental price for {gpu}: enter a quote."),
                            {"gpu": r.gpu.name}))
    messages += _nic_default_message(s, r.gpu)
    messages += fabric_default_message(s, r.gpu)
    messages += server_gpus_message(s, r.gpu)
    messages += _mfsdp_message(s, r.gpu)
    messages += lora_dropout_default_message(s)
    messages += retired_recompute_message(s)
    messages += a2a_overlap_pairless_message(s)
    return messages


def a2a_overlap_pairless_message(s: Scenario) -> list[Msg]:
    """``parallel.ep_a2a_overlap`` where Megatron-Core's combined 1F1B pairs no micro-batch's forward with another's
    backward (one micro-batch per step, or no more chunks than the schedule's warm-up: Megatron-LM d98e8a64
    ``pipeline_parallel/combined_1f1b.py``, ``schedules.py`` ``get_pp_rank_microbatches``): the overlap hides
    nothing (:func:`timing.a2a_overlap_pairs`), and the time prices none of it hidden; said so the choice is not
    read as saving time (in the Evaluation's messages and each searched plan's warnings)."""
    p = s.parallel
    if not getattr(p, "ep_a2a_overlap", False):  # only Megatron-Core tools take it (scenario._check_ep_a2a_overlap)
        return []
    vpp = max(int(p.vpp or 1), 1)
    if a2a_overlap_pairs(p.pp, vpp, s.grad_accum) > 0.0:
        return []
    return [Msg(CTX, QT_TRANSLATE_NOOP(
        CTX, "The EP all-to-all overlap hides nothing here: Megatron-Core runs {w} chunk(s) of forward alone before "
             "it pairs one micro-batch's forward with another's backward, and a step here has {c} chunk(s) in all "
             "({m} per model chunk); raise the global batch or the gradient accumulation to give it pairs."),
        {"m": int(s.grad_accum), "c": int(s.grad_accum) * vpp, "w": int(a2a_overlap_warmup(p.pp, vpp))})]


def lora_dropout_default_message(s: Scenario) -> list[Msg]:
    """A LoRA plan on a tool whose own LoRA dropout default is not PEFT's 0.0 (:data:`frameworks.TOOL_LORA_DROPOUT`)
    and no dropout given: the plan runs the tool's default (:func:`frameworks.lora_dropout_of`), said so it is seen
    (in the Evaluation's messages and in each searched plan's warnings, :func:`search.plan_warnings`)."""
    from .frameworks import FRAMEWORKS, TOOL_LORA_DROPOUT, lora_dropout_of

    t = s.training
    if t.method not in ("lora", "qlora") or t.lora_dropout is not None or t.framework not in TOOL_LORA_DROPOUT:
        return []
    return [Msg(CTX, QT_TRANSLATE_NOOP(
        CTX, "{fw}'s own LoRA dropout default, {p:g}, assumed (none given): enter LoRA dropout on the Training page "
             "to change it."), {"fw": FRAMEWORKS[t.framework].name, "p": lora_dropout_of(t)})]


def retired_recompute_message(s: Scenario) -> list[Msg]:
    """A torchtitan plan with an activation-checkpointing mode the current torchtitan no longer runs
    (:func:`frameworks.retired_recompute_version`: every-N-th-layer AC, removed in 114151ad4): estimated as entered,
    for the older version that ran it, and said so, with the version (in the Evaluation's messages and in each
    searched plan's warnings, :func:`search.plan_warnings`; the search itself never offers it)."""
    from .frameworks import retired_recompute_version

    t = s.training
    gone = retired_recompute_version(t.framework, t.recompute, t.fsdp_version, t.method, t.objective)
    if gone is None:
        return []
    return [Msg(CTX, QT_TRANSLATE_NOOP(
        CTX, "Every-N-th-layer activation checkpointing (every {n} layers) runs only on torchtitan before commit "
             "{commit} ({date}), which removed it: estimated as entered, for such a version. Current torchtitan "
             "runs per-op selective or full checkpointing."),
        {"n": t.recompute_every_n, "commit": gone[0], "date": gone[1]})]


def _mfsdp_message(s: Scenario, gpu: Any) -> list[Msg]:
    """Megatron-FSDP with TP or CP before Blackwell: Megatron-LM warns against it (core/megatron_fsdp.py); the plan
    search leaves such layouts out, an entered one is estimated and told."""
    from . import megatron_fsdp as mfsdpmod
    from .frameworks import engine_of
    from .timing import gpu_generation

    p = s.parallel
    if not mfsdpmod.search_excludes(engine_of(s.training.framework), gpu_generation(gpu), p.zero, p.tp,
                                    p.cp).any():
        return []
    return [Msg(CTX, QT_TRANSLATE_NOOP(
        CTX, "Megatron-FSDP with tensor or context parallelism on GPUs before Blackwell: Megatron-LM advises against "
             "it (sequence parallelism wants CUDA_DEVICE_MAX_CONNECTIONS=1, Megatron-FSDP refuses it); expect the "
             "TP/CP communication to overlap worse than estimated, or use TP 1 with more data parallelism."), {})]


def _nic_default_message(s: Scenario, gpu: Any = None) -> list[Msg]:
    """A chosen fabric whose NIC count the catalogue does not give runs with one NIC per server
    (``timing._inter_node_fabric``): said where it matters (more than one server, not all in one NVLink domain),
    so the default is seen."""
    h = s.hardware
    if (h.inter_node is None or h.nics_per_node is not None or h.num_gpus <= h.gpus_per_node
            or (gpu is not None and within_nvlink_domain(s, gpu))):
        return []
    from .catalog_hw import get_network

    try:
        net = get_network(h.inter_node)
    except PlannerError:
        return []
    if net.default_nics_per_node is not None:
        return []
    return [Msg(CTX, QT_TRANSLATE_NOOP(
        CTX, "{net}: one NIC per server assumed ({gbps:g} Gb/s for {g} GPUs; the catalogue gives no count): enter "
             "NICs per server on the Hardware page."),
        {"net": net.name.split(" (")[0], "gbps": float(net.gbps_per_nic or 0), "g": h.gpus_per_node})]


def server_gpus_message(s: Scenario, gpu: Any) -> list[Msg]:
    """A plan on servers smaller than the card's catalogued server (``hardware.gpus_per_node`` below the catalogue's
    ``gpus_per_node``; catalog_hw.server_gpus, which the plan search's layouts read): said, so a plan of 4-GPU
    servers is not read as the usual 8-GPU board (issue 35 round 15, consist15)."""
    per = int(getattr(gpu, "gpus_per_node", 0) or 0)
    g = int(s.hardware.gpus_per_node)
    if not 0 < g < per or s.hardware.num_gpus <= 1:
        return []
    return [Msg(CTX, QT_TRANSLATE_NOOP(
        CTX, "Servers of {g} GPUs, as entered (GPUs per node); this card usually comes {k} to a server. Layouts, "
             "links and server counts use {g}."), {"g": g, "k": per})]


def within_nvlink_domain(s: Scenario, gpu: Any) -> bool:
    """Whether the plan's servers all sit in one NVLink domain larger than a server (GB200 NVL72: 72 GPUs over
    4-GPU trays; advisor.nvlink_domain): its trays talk over the rack's NVLink switches and the time model prices no
    network between them (timing.nvlink_span), so the plan crosses no InfiniBand/Ethernet NIC (issue 35 round 15,
    consist15). The one rule the fabric messages and :func:`inter_node_link` read."""
    return bool(advisormod.in_nvlink_domain(s.hardware.num_gpus, advisormod.nvlink_domain(gpu)))


def fabric_in_force(s: Scenario, gpu: Any) -> tuple[Any, float]:
    """The network between servers the time model runs ``s`` with, and its NICs per server
    (:func:`timing.gpu_time_facts`: the scenario's, else the GPU generation's default): the one lookup
    :func:`fabric_default_message` and :func:`inter_node_link` read (review14). Raises PlannerError."""
    h = s.hardware
    gf = gpu_time_facts(gpu, s.training.precision, intra_node=h.intra_node, inter_node=h.inter_node,
                        nics_per_node=h.nics_per_node, gpus_per_node=h.gpus_per_node)
    return _get_network(gf.inter_node), gf.nics_per_node


def fabric_default_message(s: Scenario, gpu: Any) -> list[Msg]:
    """More than one server and no network between them entered: the time model runs with the GPU's usual fabric
    (``timing.gpu_time_facts``: ``timing.DEFAULT_FABRIC`` per generation, one NIC per GPU for SXM parts as in
    NVIDIA's DGX servers; ``timing.PCIE_BOX_FABRIC`` for PCIe boxes). Said with its NICs and Gb/s per server, so the
    assumption is seen, not silent (issue 35 round 14, z3multi14): ZeRO-3 and FSDP move every weight over it each
    micro-batch, and the published multi-server DeepSpeed ZeRO-3 runs on unstated networks (XTuner on 4 x 8 A100,
    open-instruct on 4 x 8 H100) ran 30-84% slower than predicted at this default, within 18% at one NIC per server
    (bench/validate_z3multi14.py). The planning guide asks for at least 400 Gb/s between nodes, a quarter of the
    A100 default."""
    h = s.hardware
    if h.inter_node is not None or h.num_gpus <= h.gpus_per_node or within_nvlink_domain(s, gpu):
        return []
    try:
        net, nics_per_node = fabric_in_force(s, gpu)
    except PlannerError:
        return []
    nics = int(round(nics_per_node))
    return [Msg(CTX, QT_TRANSLATE_NOOP(
        CTX, "No network between servers entered: the time assumes {nics} NIC(s) of {net} per server ({gbps:g} Gb/s "
             "per server), the planner's default for this GPU; rented servers often have less. Enter yours on the "
             "Hardware page."),
        {"nics": nics, "net": net.name.split(" (")[0], "gbps": float(net.gbps_per_nic or 0) * nics})]


def _calibration(r: Any, tm: Any) -> tuple[Any, list[Msg]]:
    """The measured run that calibrates this plan (with its factor), and a note per measured run: used, or
    why not."""
    s = r.scenario
    cal = calibration_of(r) if s.assumptions.measured_runs and not tm.mfu_override else None
    cal_notes = []
    for run in s.assumptions.measured_runs:
        if cal is not None and run is cal[0]:
            cal_notes.append(Msg(CTX, QT_TRANSLATE_NOOP(
                CTX, "Calibrated by the run measured on {n} × {gpu} ({nodes} node(s), TP {tp}, PP {pp}): MFU "
                     "{mfu:.1%}; this GPU's matmul efficiency × {k:.2f}, this plan's own communication kept."),
                {"n": run.num_gpus, "gpu": r.gpu.name, "nodes": run.nodes, "tp": run.tp, "pp": run.pp,
                 "mfu": run.mfu, "k": cal[1]}))
        else:
            why = run_status(run, r.gpu.id) or Msg(CTX, QT_TRANSLATE_NOOP(
                CTX, "A later run on this GPU is used instead."), {})
            if tm.mfu_override:
                why = Msg(CTX, QT_TRANSLATE_NOOP(CTX, "The MFU you set in the assumptions is used instead."), {})
            cal_notes.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Measured run ({mfu:.1%} MFU on {n} × {gpu}): {why}"),
                                 {"mfu": run.mfu, "n": run.num_gpus, "gpu": calibration_name(run.gpu), "why": why}))
    return cal, cal_notes


def evaluate(scenario: Scenario, models: ModelSource | None = None, *, resolved: Any = None,
             prices: PriceTable | None = None, overheads: Overheads | None = None,
             rent_vs_build: bool = True) -> Evaluation:
    """Evaluate one scenario: layout, memory, FLOPs, time, calendar days, costs, rent vs build, messages.

    Raises :class:`ScenarioError` (one line naming the field) when the scenario cannot run at all (a layout
    that does not divide the model); a plan that does not fit in memory or has no price is evaluated and
    says so in ``messages``.
    """

    r = resolved or resolve(scenario, models)
    s = r.scenario
    _check_framework(s)
    why = vendor_unsupported(s.training.framework, r.gpu)
    if why is not None:  # an explicit choice the framework cannot run on this accelerator: said, never estimated
        raise ScenarioError(MsgStr.make(why.context, why.text, **why.params), field="training.framework")
    est = estimate(scenario, resolved=r)
    c, h = s.constraints, s.hardware
    table = prices or PriceTable.from_constraints(c)
    tm = est.time
    ci = cost_inputs(s, r.arch, r.params.total, est.trainable, overheads)
    nodes = units_nodes(h.num_gpus, h.gpus_per_node)
    try:
        price = table.for_nodes(r.gpu, nodes)  # a multi-node plan from a networked offer where one exists
    except PlannerError:
        price = None
    ceiling, mfu_used, train_hours, factor = _capped_hours(s, r, tm)
    arr = costmod.rental_costs(
        price or _NO_PRICE, num_gpus=h.num_gpus, nodes=nodes, train_hours=train_hours, ckpt_bytes=ci.ckpt_bytes,
        setup_hours=ci.setup_hours, hours_per_week=c.hours_per_week, phase=c.phase, overheads=ci.overheads, pin=c.rental_mode)
    best = int(arr.best[0])
    mode_costs = {m: float(arr.costs[i][0]) for i, m in enumerate(MODES) if math.isfinite(float(arr.costs[i][0]))}
    total = float(arr.costs[best][0]) if price is not None and math.isfinite(float(arr.costs[best][0])) else None
    cal_i, cal_h = _billed_calendar(arr, best, total)
    mode = MODES[best] if total is not None else None
    band, days_band, cost_band = _bands(s, price, nodes, train_hours, ci, cal_i, total is not None, (cal_h / 24.0, total))
    host = host_ram(r, est.trainable)
    warnings = intake_warnings(r, host) + _model_support(s, r)
    messages = _plan_messages(r, est, price, warnings)
    advice: tuple[Msg, ...] = ()
    rvb = None
    if price is not None and total is not None:
        advice = _rental_lines(s, r, price, table, arr, mode, mode_costs, nodes, ci, train_hours)
        if rent_vs_build:
            try:
                rvb = rent_vs_build_for(r.gpu, h.num_gpus, price, table, rent_cost=total,
                                        compute_hours=train_hours, calendar_hours=cal_h, ownership=c.ownership,
                                        gpus_per_node=h.gpus_per_node)
            except PlannerError:
                rvb = None

    cal, cal_notes = _calibration(r, tm)
    lay = Layout.of(s)
    graded, graded_used = _graded(tm, factor, ceiling)
    cls_ceiling = ceiling or advisormod.class_ceiling(s, r.gpu.id, float(r.params.total))  # rules.grade_bands' class
    verdicts = evaluate_rules(
        mfu=graded, rollouts=bool(method_profile(s.training).rl), gpu=r.gpu, gpu_memory_gb=float(r.gpu.memory_gib or 0.0), params_total=float(r.params.total),
        is_moe=bool(r.arch.is_moe), method=s.training.method, num_layers=int(r.arch.num_layers), nodes=nodes,
        tp=lay.tp, pp=lay.pp, cp=lay.cp, ep=lay.ep, zero=lay.zero, switches=c.rules,
        advice=(adv := _advice(c, r, est, lay, ceiling, days_band, cost_band) | _fabric(price, nodes, r.gpu, h.num_gpus, c.rental_mode) | _kind(c, r, mode) | _point_miss(c, cal_h / 24.0, total, table.currency)),
        grade_mfu=graded_used, grade_ceiling=cls_ceiling,
        pp_slots=pipeline_slots(r.arch.num_layers, s.parallel.pp_account_embedding_loss),
        comm=float(rule_comm_share(rules_comm_share(tm.seconds, tm.step_time_s, tm.seconds.get("generation", 0.0)),
                                   gpu_generation(r.gpu))))
    return Evaluation(
        scenario=s, model_name=r.arch.name, params=r.params, trainable=est.trainable, tier=tier(r.params.total),
        gpu_id=r.gpu.id, gpu_name=r.gpu.name, gpu_memory_gib=float(r.gpu.memory_gib or 0.0),
        num_gpus=h.num_gpus, gpus_per_node=h.gpus_per_node, nodes=nodes, layout=lay, memory=est.memory,
        time=advisormod.time_at(tm, factor), time_modelled=tm, tokens=float(s.data.tokens), flops_per_token=tm.flops_per_token,
        hardware_flops_per_token=tm.hardware_flops_per_token, total_flops=tm.total_flops,
        compute_days=train_hours / 24.0, calendar_days=cal_h / 24.0, currency=table.currency, rental_mode=mode,
        cost=total, mode_costs=mode_costs if total is not None else {}, price=price, setup_hours=ci.setup_hours,
        deadline_days=c.deadline_days, budget=c.budget, rent_vs_build=rvb, rental_advice=advice, break_even=costmod.break_even_hours_per_week(price),
        messages=tuple(messages), mfu_grade=mfu_grade(graded_used, cls_ceiling), mfu_graded=graded_used, rules=verdicts,
        calibration=cal, calibration_notes=tuple(cal_notes),
        calendar_days_band=days_band, cost_band=cost_band, band=band,
        warnings=warnings, host_ram=host, mfu_ceiling=ceiling, mfu_used=mfu_used,
        deadline_risk=adv["deadline_risk"], memory_headroom=adv["memory_headroom"], tp_over_pcie=adv["tp_over_pcie"],
        _extra={"arch": r.arch, "estimate": est, "resolved": r},
    )


def _bands(s: Scenario, price: Any, nodes: int, train_hours: float, ci: Any, best: int, priced: bool,
           point: tuple[float, float | None]):
    """The framework family's validation band and the plan's calendar and cost at its ends: the same rental
    arithmetic at the band's training hours, in the rental mode the plan uses, each range widened to hold the
    plan's own calendar days and cost ``point`` (advisor.band_ends: every view and the deadline/budget check read
    these two ranges, so none shows an estimate outside its range)."""
    band = validation_band(s.training.framework)
    if band is None:
        return None, None, None
    c, h = s.constraints, s.hardware
    arr_b = costmod.rental_costs(
        price or _NO_PRICE, num_gpus=h.num_gpus, nodes=nodes,
        train_hours=np.array([train_hours * band["p10"], train_hours * band["p90"]]), ckpt_bytes=ci.ckpt_bytes,
        setup_hours=ci.setup_hours, hours_per_week=c.hours_per_week, phase=c.phase, overheads=ci.overheads)
    d_lo, d_hi = advisormod.band_ends(point[0], float(arr_b.calendar_hours[best][0]) / 24.0,
                                      float(arr_b.calendar_hours[best][1]) / 24.0)
    days_band = (float(d_lo), float(d_hi))
    cost_band = None
    if priced:
        c_lo, c_hi = advisormod.band_ends(point[1], float(arr_b.costs[best][0]), float(arr_b.costs[best][1]))
        cost_band = (float(c_lo), float(c_hi))
    return band, days_band, cost_band


def _graded(tm: Any, factor: float, ceiling: dict | None) -> tuple[Any, Any]:
    """The MFU the ceiling checks (modelled) and the one the grade reads (the plan's timed MFU: the ceiling's when
    capped), each the training passes' MFU for RL (timing's mfu_training): advisor.capped slows only the training
    passes to the ceiling, so theirs is min(modelled, ceiling). Whether a plan has rollouts is its method's
    (rules' ``rollouts``), not ``mfu_training != mfu``: without rollouts the two differ in the last bit."""
    modelled = tm.mfu if tm.mfu_training is None else tm.mfu_training
    if modelled is None or factor == 1.0 or ceiling is None:
        return modelled, modelled
    # capped on the HFU (advisor.ceiling_figure): the training passes slow by HFU / ceiling, so their MFU is
    # modelled × ceiling / HFU (= the ceiling when MFU and HFU are one)
    fig = float(advisormod.ceiling_figure(modelled, _hfu_ratio(tm), advisormod.ceiling_is_hfu(ceiling)))
    return modelled, float(modelled) * min(1.0, float(ceiling["mfu"]) / fig)


def model_support_warnings(s: Scenario, r: Any) -> tuple[Msg, ...]:
    """:func:`_model_support` for the search's plan warnings (a user's own framework choice for a model it does not
    build is kept, and said on every plan: issue 35 round 6, advice5)."""
    return _model_support(s, r)


def _model_support(s: Scenario, r: Any) -> tuple[Msg, ...]:
    """A framework that does not train the model (:func:`frameworks.model_unsupported`): said on the plan, not
    refused (the estimate of the layout still stands; the user picks the framework)."""
    a = r.arch
    why = model_unsupported(s.training.framework, a.model_type, bool(a.vision_kind), a.name, s.training.method)
    sup = FRAMEWORKS.get(s.training.framework)
    pp_rewrite = ()
    if (sup is not None and sup.pp_searched_methods is not None and s.parallel.pp > 1
            and s.training.method not in sup.pp_searched_methods):
        # DeepSpeed's pipeline engine trains a PipelineModule only (core/frameworks.py ``pp_searched_methods``)
        pp_rewrite = (Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "Pipeline parallel {pp} with {fw} on a fine-tune: the Hugging Face Trainer runs DeepSpeed with ZeRO "
                 "only; this needs the model rewritten by hand as a deepspeed.pipe.PipelineModule."),
            {"pp": int(s.parallel.pp), "fw": sup.name}),)
    pp_rewrite += _vpp_unrun(s) + _peft_unsharded(s) + _rollouts_unrun(s)
    if why is None:
        return pp_rewrite
    return (Msg(CTX, QT_TRANSLATE_NOOP(CTX, "{why}. Choose a framework that trains it."),
                {"why": why}),) + pp_rewrite


def _rollouts_unrun(s: Scenario) -> tuple[Msg, ...]:
    """An RL plan the user set on a tool that generates with vLLM only (frameworks.RL_VLLM_ONLY_TOOLS: Megatron-SWIFT)
    while the rollouts are timed as the training model's generate(): kept and estimated, said on the plan."""
    t = s.training
    if not rl_engine_unrun(t.framework, t.objective, t.rl.generation_engine):
        return ()
    return (Msg(CTX, QT_TRANSLATE_NOOP(
        CTX, "{fw} generates {objective} rollouts with vLLM only (ms-swift's Megatron GRPO documentation), but this "
             "plan times them as the training model's own generate(): set the Generation engine to vLLM (on the "
             "training GPUs or on GPUs of its own) to time what it runs."), {"fw": FRAMEWORKS[t.framework].name, "objective": t.objective.upper()}),)


def _vpp_unrun(s: Scenario) -> tuple[Msg, ...]:
    """A VPP the user entered for an objective whose trainer does not interleave (frameworks ``no_vpp_objectives``:
    Megatron-SWIFT's GRPO): kept and estimated, said on the plan."""
    p, t = s.parallel, s.training
    if p.vpp <= 1 or p.pp <= 1 or no_vpp_words(t.framework, t.objective) is None:  # the one predicate (frameworks)
        return ()
    sup = FRAMEWORKS[t.framework]
    return (Msg(CTX, QT_TRANSLATE_NOOP(
        CTX, "Virtual pipeline stages (VPP {vpp}) with {fw} for {objective}: its trainer does not run the interleaved "
             "schedule (ms-swift grpo_trainer.py asserts that GRPO does not support VPP); set parallel.vpp to 1."),
        {"vpp": int(p.vpp), "fw": sup.name, "objective": t.objective.upper()}),)


def _peft_unsharded(s: Scenario) -> tuple[Msg, ...]:
    """A LoRA/QLoRA layout the user entered with several data-parallel ranks and no sharding, on a framework whose
    PEFT program always shards (frameworks ``peft_dp_zero``: torchtune runs no DDP): kept and estimated, said."""
    p, t, dp = s.parallel, s.training, s.dp
    if not peft_unsharded(t.framework, t.method, int(p.zero), dp):
        return ()
    return (Msg(CTX, QT_TRANSLATE_NOOP(
        CTX, "ZeRO-{zero} over {dp} data-parallel GPUs with {fw}: its distributed LoRA recipe always shards with FSDP2 "
             "(ZeRO-3 by default, ZeRO-2 with fsdp_reshard_after_forward false) and runs no plain data parallel; "
             "set parallel.zero to 2 or 3."),
        {"zero": int(p.zero), "dp": dp, "fw": name_for(t.framework, t.method)}),)


def _check_framework(s: Scenario) -> None:
    """An explicit layout the framework cannot run (core/frameworks.py) is an error naming what it runs."""
    p = s.parallel
    why = unsupported(s.training.framework, s.training.method, tp=p.tp, pp=p.pp, cp=p.cp, ep=p.ep, zero=p.zero,
                      vpp=p.vpp, offload_params=p.offload_params, sp=p.sequence_parallel,
                      offload_optimizer=p.offload_optimizer)
    if why is not None:  # said, never estimated silently
        raise ScenarioError(MsgStr.make(why.context, why.text, **why.params), field="training.framework")


def _capped_hours(s: Scenario, r: Any, tm: Any) -> tuple[dict | None, float | None, float, float]:
    """The MFU ceiling, the MFU the plan is timed at, its training hours at that MFU and the factor they grew by
    (core/advisor.py)."""
    ceiling = _ceiling_of(s, r)
    if tm.mfu is None:
        return ceiling, None, tm.compute_days * 24.0, 1.0
    used, factor = advisormod.capped(tm.mfu, None if ceiling is None else float(ceiling["mfu"]), tm.mfu_training,
                                     _hfu_ratio(tm) if advisormod.ceiling_is_hfu(ceiling) else None)
    return ceiling, float(used), tm.compute_days * 24.0 * float(factor), float(factor)


def _hfu_ratio(tm: Any) -> float | None:
    """Hardware over model FLOPs per token (recomputation's share), the factor from a plan's MFU to its HFU."""
    if tm is None or not tm.mfu or tm.hfu is None:
        return None
    return float(tm.hfu) / float(tm.mfu)


def _advice(c: Any, r: Any, est: Any, lay: Any, ceiling: Any, days_band: Any, cost_band: Any) -> dict:
    """The advisor's figures for one plan (core/advisor.py; rules.advice_rules reads them). A layout that does not
    fit in GPU memory cannot run: no deadline risk is judged for it (``fits``; rules._deadline_rule says why; ux22)."""
    fits = bool(est.memory.fits)
    hfu = advisormod.ceiling_is_hfu(ceiling)  # the figure the ceiling is compared with (advisor.ceiling_figure)
    fig = None if est.time is None or est.time.mfu is None else float(advisormod.ceiling_figure(
        est.time.mfu if est.time.mfu_training is None else est.time.mfu_training, _hfu_ratio(est.time), hfu))
    return {"mfu_ceiling": ceiling, "ceiling_figure": fig, "ceiling_hfu": hfu,
            "deadline_risk": _risk(c, days_band, cost_band) if fits else None, "fits": fits,
            "days_lo": None if days_band is None else days_band[0], "days_hi": None if days_band is None else days_band[1],
            "memory_headroom": _headroom(est.memory, r.gpu), "tp_over_pcie": bool(advisormod.tp_over_pcie(r.gpu, lay.tp))}


def _billed_calendar(arr: Any, best: int, total: float | None) -> tuple[int, float]:
    """``(mode index, calendar hours)`` of the mode that bills the plan (its band's ends are read in the same
    mode, :func:`_bands`); where it is unpriced (``total`` None: no price, or a rental
    mode the user pinned that this card's price does not offer), card-hour rental's calendar, which
    cost.rental_costs keeps priced or not: what the user would wait, never an endless one. Issue 35 round 16
    (advice16): a team's weekly quote sheet without the document's default card (1 × H100, no weekly price)
    stopped ``plan`` with "no session outlasts its setup" (plausible.check_plausible read the infinite calendar)."""
    i = best if total is not None else 0
    return i, float(arr.calendar_hours[i][0])


def _fabric(price: GpuPrice | None, nodes: int, gpu: Any, num_gpus: int, pin: str | None = None) -> dict:
    """What rules.price_fabric reads: the plan's nodes and whether its price's quotes offer networked servers
    (``domain``: the GPUs of one NVLink domain beyond a server when the plan fits in it, advisor.nvlink_domain;
    ``pin``: the user's rental mode, whose quotes alone bill the plan, :meth:`GpuPrice.multi_node_for`)."""
    if price is None:
        return {"price_fabric": None}
    dom = advisormod.nvlink_domain(gpu)
    return {"price_fabric": {"nodes": nodes, "multi_node": price.multi_node_for(pin), "why": price.multi_node_source or "",
                             "provider": price.provider or Msg("Cost", QT_TRANSLATE_NOOP("Cost", "your quote"), {}),
                             # the default pick (PriceTable.for_nodes): no networked quote of the card when not True
                             "default": bool(price.is_default), "gpu": getattr(gpu, "name", "") or "",
                             "domain": dom if advisormod.in_nvlink_domain(int(num_gpus), dom) else 0}}


def _kind(c: Any, r: Any, mode: str | None) -> dict:
    """What rules.price_kind reads: the mode that bills the plan, its label, the user's pin and the card's name."""
    if mode is None:
        return {"price_kind": None}
    return {"price_kind": {"mode": mode, "label": MODE_LABELS[mode], "pin": c.rental_mode, "gpu": r.gpu.name}}


def _rental_lines(s: Scenario, r: Any, price: GpuPrice, table: PriceTable, arr: Any, mode: str,
                  mode_costs: dict[str, float], nodes: int, ci: Any, train_hours: float) -> tuple[Msg, ...]:
    """The plan's rental advice: why its mode (cost.rental_advice), its other kinds of price (:func:`_kind_advice`)
    and what card-hours would cost where its card has no card-hour quote (:func:`_card_hours_instead`), which
    asks for an hourly quote once (rental_advice's own request is then left out)."""
    c = s.constraints
    instead = _card_hours_instead(s, r, price, table, mode, nodes, ci, train_hours)
    why = costmod.rental_advice(price, mode, costs=mode_costs, hours_per_week=c.hours_per_week, phase=c.phase,
                                num_gpus=s.hardware.num_gpus, currency=table.currency, gpu_name=r.gpu.name,
                                ask_hourly_quote=not instead,
                                run_days=float(arr.calendar_hours[MODES.index(mode)][0]) / 24.0)
    return tuple(why) + _kind_advice(c, arr, mode, mode_costs, table.currency) + instead


def _kind_advice(c: Any, arr: Any, mode: str, mode_costs: dict[str, float], currency: str) -> tuple[Msg, ...]:
    """The plan's other kinds of price (cost.price_kind_advice: spot beside the mode that bills it, or the user's
    pin), from the costs evaluate() already has (``mode_costs``) and the spot reclaims its cost counts."""
    reclaims = None if arr.spot_reclaims is None else float(arr.spot_reclaims[0])
    return tuple(costmod.price_kind_advice(mode, costs=mode_costs, pin=c.rental_mode, spot_reclaims=reclaims,
                                           deadline_days=c.deadline_days, currency=currency))


def _card_hours_instead(s: Scenario, r: Any, price: GpuPrice, table: PriceTable, mode: str, nodes: int,
                        ci: Any, train_hours: float) -> tuple[Msg, ...]:
    """For a plan billed per week or month because its card has no card-hour quote in its region, what card-hours
    would cost at the other region's card-hour quote, converted (cost.card_hours_instead); it asks for an hourly
    quote, so cost.rental_advice's own request is left out where it is said."""
    c, h = s.constraints, s.hardware
    if price.card_hour is not None or mode not in ("week", "month"):
        return ()
    other = table.card_hour_elsewhere(r.gpu)
    alt = None if other is None else costmod.rental_costs(
        other, num_gpus=h.num_gpus, nodes=nodes, train_hours=train_hours,
        ckpt_bytes=ci.ckpt_bytes, setup_hours=ci.setup_hours, hours_per_week=c.hours_per_week, phase=c.phase,
        overheads=ci.overheads, modes=("card_hour",))
    return tuple(costmod.card_hours_instead(mode, None if alt is None else float(alt.costs[0][0]), other,
                                            table.currency))


def _point_miss(c: Any, days: float, cost: float | None, currency: str) -> dict:
    """What rules' deadline_risk line reads: whether the point estimate itself already misses the deadline or the
    budget (then the line says so, with both figures, instead of "meets them at the estimate")."""
    late = c.deadline_days is not None and days > c.deadline_days + 1e-9
    dear = c.budget is not None and cost is not None and cost > c.budget * (1 + 1e-9)
    return {"point_miss": {"deadline": late, "budget": dear, "days": days, "deadline_days": c.deadline_days or 0.0,
                           "cost": cost or 0.0, "budget_cap": c.budget or 0.0, "cur": currency}}


def _ceiling_of(s: Scenario, r: Any) -> dict | None:
    """The MFU ceiling that applies to this plan (core/advisor.py), or None: the search's (advisor.ceiling_run)."""
    return advisormod.ceiling_run(s, r.gpu.id, float(r.params.total))


def _risk(c: Any, days_band: Any, cost_band: Any) -> bool | None:
    """At risk: the upper end of the band misses the deadline or the budget (core/advisor.py)."""
    if days_band is None or (c.deadline_days is None and c.budget is None):
        return None
    return bool(advisormod.at_risk(days_band[1], cost_band[1] if cost_band else math.nan if c.budget is None
                                   else math.inf, c.deadline_days, c.budget))


def _headroom(mem: Any, gpu: Any) -> dict:
    """Free memory against the memory model's p75 error (core/advisor.py)."""
    cap = float(gpu.memory_gib or 0.0)
    margin = advisormod.memory_margin()
    return {"margin": margin, "free_gib": cap - float(mem.total),
            "free_share": (cap - float(mem.total)) / cap if cap else None,
            "tight": bool(advisormod.tight(mem.total, cap, margin)) if cap else None}


# A price with no figures: rental_costs then bills nothing (every cost is inf) but still gives the calendar
# of card-hour rental (sessions, setup, interruptions), which is what the user waits without a quote.
_NO_PRICE = GpuPrice(gpu="", currency="", card_hour=None, machine_week=None, machine_month=None,
                     spot_card_hour=None, machine_gpus=8, source="", source_date="")


# ------------------------------------------------------------------------------------- memory what-ifs


@dataclass(slots=True, frozen=True)
class MemoryAlternative:
    """Memory per GPU of the same plan with one setting changed (the memory chart's comparison bars)."""

    kind: str  # "current" | "zero" | "recompute"
    value: Any  # the ZeRO stage or recompute level (None for the current plan)
    memory: MemoryBreakdown


def memory_alternatives(ev: Evaluation) -> list[MemoryAlternative]:
    """The plan's memory, then the same plan at every other ZeRO stage and recompute level: one vectorised
    call of :func:`memory.memory_arrays` with the plan's own fixed arguments."""
    r = ev._extra["resolved"]
    s = ev.scenario
    p, t = s.parallel, s.training
    # ZeRO partitions over the data-parallel ranks: with one there is nothing to shard (memory_alternatives_note);
    # only the stages the plan's framework runs (Megatron-SWIFT and Nanotron: 0 and 1; core/frameworks.py)
    variants = [("zero", z, z, RECOMPUTE_CODES[t.recompute]) for z in framework_support(t.framework).zero_stages
                if z != p.zero and s.dp > 1]
    # the other policies the plan's framework runs (core/frameworks.py)
    variants += [("recompute", rc, p.zero, RECOMPUTE_CODES[rc]) for rc in framework_support(t.framework).recompute
                 if RECOMPUTE_CODES[rc] != RECOMPUTE_CODES[t.recompute]]
    kw = memory_kwargs(r)
    out = [MemoryAlternative("current", None, ev.memory)]
    arr = memory_arrays(
        r.facts, **kw, tp=p.tp, pp=p.pp, cp=p.cp, ep=p.ep, dp=s.dp, zero=np.array([v[2] for v in variants]),
        recompute=np.array([v[3] for v in variants]), mbs=t.micro_batch_size,
        sp=p.sequence_parallel and p.tp > 1, grad_accum=s.grad_accum, vpp=p.vpp, offload=p.offload_optimizer)
    held = tuple(ev.memory.extra)
    for i, (kind, value, z, _rc) in enumerate(variants):
        # parameter offload needs ZeRO-3: at another stage the parameters stay on the GPU
        mem = MemoryBreakdown.from_arrays(arr, ev.memory.capacity, ev.memory.headroom, index=i, held=held)
        if not (kw.get("offload_params") and z != 3):
            out.append(MemoryAlternative(kind, value, mem))
    return out


def memory_alternatives_note(ev: Evaluation) -> MsgStr | None:
    """Why the memory chart has no ZeRO bars, or None where it has them. ZeRO splits the optimizer states,
    gradients and weights into one part per data-parallel rank (Rajbhandari et al. 2020, "ZeRO", section 5.1:
    (2 + 2 + K)·Ψ / N_d per device, N_d the data-parallel degree; DeepSpeed ``runtime/zero/stage_1_and_2.py``
    ``DeepSpeedZeroOptimizer`` and ``stage3.py`` size their partitions by the data-parallel group's world size).
    At data-parallel 1 the one part is the whole tensor: no stage frees memory, and the bars would only show
    DeepSpeed's own buckets beside a different engine's model of the rest, so :func:`memory_alternatives` leaves
    them out and the chart says why."""
    if ev.scenario.dp > 1:
        return None
    return MsgStr.make(CTX, QT_TRANSLATE_NOOP(
        CTX, "No ZeRO bars: ZeRO shards over data-parallel GPUs and this plan has one"))


# ------------------------------------------------------------------------------------------- scaling


@dataclass(slots=True, frozen=True)
class ScalingSeries:
    kind: str            # "nvlink" | "pcie" | "multinode"
    gpus: tuple[int, ...]
    tokens_per_s: tuple[float, ...]   # NaN where the layout does not fit or is invalid
    calendar_days: tuple[float, ...]
    compute_days: tuple[float, ...]


@dataclass(slots=True, frozen=True)
class Scaling:
    """Throughput and days against GPU count for the plan's GPU (the scaling chart)."""

    series: tuple[ScalingSeries, ...]
    ideal_gpus: tuple[int, ...]
    ideal_tokens_per_s: tuple[float, ...]
    required_tokens_per_s: float | None   # what meets the deadline (hours worked per week counted)
    deadline_days: float | None           # calendar days, compared with ``calendar_days``
    memory: "MemoryByCount | None" = None  # memory per GPU against GPU count (:func:`memory_by_gpu_count`)
    #: the ideal line in calendar days at ``ideal_gpus``: the smallest count's fewest days × that count / n (the
    #: app's scaling chart in days and the PDF's draw it; worked out here once, parity16)
    ideal_calendar_days: tuple[float, ...] = ()


def _doublings(group: int, limit: int) -> list[int]:
    out, n = [], group
    while n <= limit:
        out.append(n)
        n *= 2
    return out


def _with_batch(s: Scenario) -> Scenario | None:
    """``s`` if valid; when the global batch cannot be split over more replicas at this micro-batch, the
    micro-batch shrinks (to 1 at most) so data parallelism can still grow; None when neither is valid."""
    _S = Scenario

    try:
        return _S.model_validate(s.model_dump())
    except ValueError:
        if s.training.micro_batch_size == 1:
            return None
        tr = s.training.model_copy(update={"micro_batch_size": 1})
        try:
            return _S.model_validate(s.model_copy(update={"training": tr}).model_dump())
        except ValueError:
            return None


def scaling(scenario: Scenario, models: ModelSource | None = None, max_gpus: int | None = None,
            prices: PriceTable | None = None) -> Scaling:
    """Each point is :func:`evaluate` of the scenario at that GPU count (data parallelism grows; TP/PP/CP
    stay): inside one node over NVLink and over PCIe, and across nodes over the scenario's network. The
    ideal line scales the smallest point that runs linearly."""
    c = scenario.constraints
    seconds = (c.deadline_days or 0) * 86400.0 * (c.hours_per_week / 168.0)
    req = scenario.data.tokens / seconds if (c.deadline_days and scenario.data.tokens and seconds > 0) else None
    p, h = scenario.parallel, scenario.hardware
    group = p.tp * p.pp * p.cp
    limit = max(group, max_gpus or c.max_gpus)
    try:
        r0 = resolve(scenario, models)
    except PlannerError:
        return Scaling((), (), (), req, c.deadline_days)
    table = prices or PriceTable.from_constraints(c)
    link = r0.gpu.intra_node_link or "pcie"
    kinds = ("nvlink", "pcie", "multinode") if link.startswith("nvlink") else ("pcie", "multinode")
    series = []
    for kind in kinds:
        if kind == "multinode":
            counts = [n for n in _doublings(group, limit) if n > h.gpus_per_node and n % h.gpus_per_node == 0]
        else:
            counts = _doublings(group, min(limit, h.gpus_per_node))
        xs, ys, cds, kds = [], [], [], []
        for n in counts:
            upd = {"num_gpus": n}
            if kind != "multinode":
                upd["intra_node"] = kind
            s2 = _with_batch(scenario.model_copy(update={"hardware": h.model_copy(update=upd)}))
            y = cd = kd = math.nan
            if s2 is not None:
                try:
                    ev = evaluate(s2, resolved=_replace(r0, scenario=s2), prices=table, rent_vs_build=False)
                    if ev.fits and ev.tokens_per_s > 0:
                        y, cd, kd = ev.tokens_per_s, ev.calendar_days, ev.compute_days
                except (PlannerError, ValueError):
                    pass
            xs.append(n)
            ys.append(y)
            cds.append(cd)
            kds.append(kd)
        if xs:
            series.append(ScalingSeries(kind, tuple(xs), tuple(ys), tuple(cds), tuple(kds)))
    ideal_x, ideal_y, ideal_d = _ideal_scaling(series)
    try:
        mem = memory_by_gpu_count(scenario, models, resolved=r0, max_gpus=max_gpus)
    except (PlannerError, ValueError):
        mem = None
    return Scaling(tuple(series), tuple(ideal_x), tuple(ideal_y), req, c.deadline_days, mem, tuple(ideal_d))


def _ideal_scaling(series: list[ScalingSeries]) -> tuple[list[int], list[float], list[float]]:
    """The ideal linear line from the smallest count that runs: (counts, tokens/s, calendar days). Tokens/s from that
    count's best link class, days from its fewest calendar days (``series.days_by_count``'s point), each scaled by
    n / n0 (days by n0 / n); the counts are every count of the sweep from n0 on."""
    base = None
    for sr in series:
        for n, y in zip(sr.gpus, sr.tokens_per_s):
            if not math.isnan(y) and (base is None or n < base[0] or (n == base[0] and y > base[1])):
                base = (n, y)
    if base is None:
        return [], [], []
    n0 = base[0]
    days0 = min((d for sr in series for n, d in zip(sr.gpus, sr.calendar_days) if n == n0 and math.isfinite(d)),
                default=math.nan)
    xs = [n for n in sorted({n for sr in series for n in sr.gpus}) if n >= n0]
    return xs, [base[1] * n / n0 for n in xs], [days0 * n0 / n for n in xs]


# ------------------------------------------------------------------------------- memory against GPU count


@dataclass(slots=True, frozen=True)
class MemoryAtCount:
    """Memory per GPU at one GPU count: the layout that needs the least (``memory``/``layout``) and the
    plan's own layout with data parallelism grown or shrunk to this count (``current``); None where no
    layout of this kind runs at this count."""

    num_gpus: int
    layout: Layout | None
    memory: MemoryBreakdown | None
    current: MemoryBreakdown | None


@dataclass(slots=True, frozen=True)
class CardCapacity:
    gpu_id: str
    name: str
    memory_gib: float


@dataclass(slots=True, frozen=True)
class MemoryByCount:
    """Memory per GPU against GPU count for the plan's model and method (the chart "how many cards?"), with
    the capacity of each candidate card; ``headroom`` is the scenario's safety margin in GiB."""

    points: tuple[MemoryAtCount, ...]
    cards: tuple[CardCapacity, ...]
    plan_gpu_id: str
    headroom: float


def _checked(r0: Any, s2: Scenario, models: ModelSource | None) -> Any:
    """``r0`` for the scenario ``s2`` (same model and GPU) after :func:`estimate.resolve`'s layout checks
    (TP divides the heads, EP the data-parallel degree, …); raises ScenarioError like resolve."""
    return resolve(s2, _ArchSource(r0.arch))


class _ArchSource:
    """A :class:`ModelSource` that gives the architecture already read (no file is read again)."""

    def __init__(self, arch: Any):
        self.arch = arch

    def load(self, ref: str) -> Any:
        return self.arch


def _layout_axes(arch: Any, sup: Any, seq_len: int, cp: int, g: int,
                 method: str = "full") -> tuple[list, list, list, list]:
    """The TP, PP, CP and EP degrees :func:`memory_by_gpu_count` tries: powers of two that divide the heads,
    layers, sequence and experts, as far as the framework runs them; TP inside one server of ``g`` GPUs."""
    tps = [v for v in powers_of_two_upto(g) if arch.num_heads % v == 0 and (arch.num_kv_heads % v == 0 or v <= 1)]
    model_parallel = sup.peft_model_parallel or method not in ("lora", "qlora")  # core/frameworks.py
    if not (sup.tensor_parallel and sup.tp_searched and model_parallel):
        tps = [1]
    pps = ([v for v in powers_of_two_upto(arch.num_layers) if arch.num_layers % v == 0]
           if sup.pipeline_parallel and model_parallel else [1])
    if sup.pp_searched_methods is not None and method not in sup.pp_searched_methods:
        pps = [1]  # as the plan search (core/frameworks.py ``pp_searched_methods``: DeepSpeed's PipelineModule)
    cps = [v for v in (1, 2, 4, 8) if seq_len % v == 0 and (v == 1 or sup.context_parallel)]
    cps = [v for v in cps if v <= max(1, cp)] or [1]   # context parallelism only as far as the user took it
    eps = [1]
    if arch.is_moe and sup.expert_parallel:
        eps = [e for e in powers_of_two_upto(min(int(arch.num_experts or 1), 64)) if int(arch.num_experts or 1) % e == 0]
    return tps, pps, cps, eps


def _candidate_cards(candidates: Any, gpu_id: str, custom_gpus: Any) -> list[CardCapacity]:
    """The capacity lines of the chart: the plan's GPU and the ticked candidates whose memory is known."""
    from .catalog_hw import lookup_gpu

    ids = list(candidates or [])
    if gpu_id not in ids:
        ids.insert(0, gpu_id)
    cards = []
    for gid in ids:
        try:
            gpu = lookup_gpu(gid, custom_gpus)
        except PlannerError:
            continue
        if gpu.memory_gib:
            cards.append(CardCapacity(gpu.id, gpu.name, float(gpu.memory_gib)))
    return cards


def _own_layout_memory(s: Scenario, n: int, r0: Any, models: ModelSource | None, table: PriceTable) -> Any:
    """The Evaluation of the plan's own layout at ``n`` GPUs (its batch kept whole), or None where it does not
    run."""
    h, p = s.hardware, s.parallel
    cur = None
    if n % (p.tp * p.pp * p.cp) == 0:
        s3 = _with_batch(s.model_copy(update={"hardware": h.model_copy(update={"num_gpus": n})}))
        if s3 is not None:
            try:
                cur = evaluate(s3, resolved=_checked(r0, s3, models), prices=table, rent_vs_build=False)
            except (PlannerError, ValueError):
                cur = None
    return cur


def memory_by_gpu_count(scenario: Scenario, models: ModelSource | None = None, counts: Any = None, *,
                        resolved: Any = None, max_gpus: int | None = None,
                        max_candidates_tried: int = 6) -> MemoryByCount:
    """Memory per GPU at each GPU count for the scenario's model, method, precision, optimizer, framework,
    recompute policy and micro-batch (what the user chose); the layout (TP, PP, CP, EP, ZeRO stage) is the
    one needing the least memory per GPU among those the framework runs (:mod:`core.frameworks`: which
    parallelisms and ZeRO stages it supports, the highest ZeRO stage beside pipeline stages), with TP
    inside one server and the global batch kept whole (``global_batch_size`` divisible by micro-batch ×
    data-parallel degree).

    All layouts of a count are ranked with one vectorised call of :func:`memory.memory_arrays` (the search's
    formulas); the least one is then :func:`evaluate` of its complete scenario, so the figure shown is the
    Evaluation's own (a layout that evaluate rejects is skipped for the next one). Ties go to the smaller
    model-parallel group (less communication), then to the lower ZeRO stage. The user's own layout at that
    count is one of the layouts searched, even where the framework's table leaves it out: the least memory is
    never above "your layout".

    ``counts`` defaults to 1, 2, 4, … up to ``max_gpus`` or ``constraints.max_gpus`` (and the plan's own count). Cards are
    ``constraints.gpu_candidates`` (the Hardware page's ticked GPUs) plus the plan's GPU, with known memory.
    """
    from .frameworks import FRAMEWORKS

    r0 = resolved or resolve(scenario, models)
    s = r0.scenario
    h, p, t, c = s.hardware, s.parallel, s.training, s.constraints
    arch = r0.arch
    if counts is None:
        limit = max(h.num_gpus, max_gpus or c.max_gpus or 1)
        counts = sorted(set(powers_of_two_upto(min(limit, 4096))) | {h.num_gpus})
    counts = [int(n) for n in counts if int(n) >= 1]
    sup = FRAMEWORKS[t.framework]
    g = max(1, h.gpus_per_node)
    tps, pps, cps, eps = _layout_axes(arch, sup, t.seq_len, p.cp, g, t.method)
    offload_params = bool(p.offload_params) and 3 in sup.zero_stages and sup.param_offload
    zeros = (3,) if offload_params else tuple(sup.searched_zero or sup.zero_stages)
    gbs = t.global_batch_size
    mbs = t.micro_batch_size
    kw = memory_kwargs(r0)
    kw["offload_params"] = offload_params
    rc = RECOMPUTE_CODES[t.recompute]
    table = PriceTable.from_constraints(c)
    points = []
    for n in counts:
        N, TP, PP, CP, EP, Z = (a.ravel() for a in np.meshgrid([n], tps, pps, cps, eps, zeros, indexing="ij"))
        grp = TP * PP * CP
        ok = (n % grp == 0) & (TP <= min(n, g)) & ((PP == 1) | (n > 1))
        dp = np.where(ok, n // np.maximum(grp, 1), 0)
        ok &= (EP == 1) | ((dp % np.maximum(EP, 1) == 0) & (dp >= EP))
        ok &= (PP == 1) | (Z <= sup.pipeline_max_zero)
        if gbs is not None:
            ok &= gbs % np.maximum(mbs * dp, 1) == 0
        best = None
        if ok.any():
            TP, PP, CP, EP, Z, dp = TP[ok], PP[ok], CP[ok], EP[ok], Z[ok], dp[ok]
            ga = np.maximum(1, (gbs // np.maximum(mbs * dp, 1)) if gbs is not None else 1)
            sp = (TP > 1) & bool(sup.sequence_parallel)
            arr = memory_arrays(r0.facts, **kw, tp=TP, pp=PP, cp=CP, ep=EP, dp=dp, zero=Z, recompute=rc, mbs=mbs,
                                sp=sp, grad_accum=ga, vpp=1, offload=p.offload_optimizer)
            total = np.broadcast_to(np.asarray(arr["total"], dtype=float), TP.shape)
            order = np.lexsort((Z, TP * PP * CP * EP, total))
            for i in order[:max_candidates_tried]:
                par = p.model_copy(update={"tp": int(TP[i]), "pp": int(PP[i]), "cp": int(CP[i]), "ep": int(EP[i]),
                                           "vpp": 1, "zero": int(Z[i]), "sequence_parallel": bool(sp[i]),
                                           "offload_params": offload_params})
                s2 = s.model_copy(update={"hardware": h.model_copy(update={"num_gpus": n}), "parallel": par})
                try:
                    s2 = Scenario.model_validate(s2.model_dump())
                    ev = evaluate(s2, resolved=_checked(r0, s2, models), prices=table, rent_vs_build=False)
                except (PlannerError, ValueError):
                    continue
                best = (ev.layout, ev.memory)
                break
        own = _own_layout_memory(s, n, r0, models, table)
        cur = own.memory if own is not None else None
        if cur is not None and (best is None or cur.total < best[1].total):  # the user's own layout is searched too
            best = (own.layout, cur)
        points.append(MemoryAtCount(n, best[0] if best else None, best[1] if best else None, cur))
    cards = _candidate_cards(c.gpu_candidates, r0.gpu.id, h.custom_gpus)
    return MemoryByCount(tuple(points), tuple(cards), r0.gpu.id, float(s.assumptions.memory_headroom_gib))


def inter_node_link(ev: Evaluation) -> tuple[str, float | None] | None:
    """The fabric between servers as the time model uses it for ``ev``'s scenario: ``(its name, Gb/s per node)``
    with the NICs per node the time model counts (the scenario's, else the fabric's default, else one:
    :func:`timing.gpu_time_facts`). When the scenario names no inter-node fabric, the one the time model then
    assumes (the GPU generation's usual one, ``timing.DEFAULT_FABRIC``; :func:`fabric_default_message` says it is a
    default): the days are computed with it, so the report states it and asks it of the vendor, not a bare
    "InfiniBand or RoCE" beside days computed on DGX-class networks (issue 35 round 14, z3multi14). The report's
    requirements read this, so the bandwidth asked of a vendor is the one the days were computed with."""
    h = ev.scenario.hardware
    gpu = ev._extra["resolved"].gpu
    if within_nvlink_domain(ev.scenario, gpu):
        # the trays of one NVLink domain (GB200 NVL72) reach each other over the rack's NVLink switches, as the time
        # model counts them (timing.nvlink_span): that link, at its one-way GB/s per GPU (catalog_hw
        # .intra_node_bandwidth_gbs) × 8 bits × the server's GPUs, not a network the plan never uses
        return _nvlink_domain_link(gpu, min(int(h.gpus_per_node), int(h.num_gpus)))
    try:
        net, nics_per_node = fabric_in_force(ev.scenario, gpu)
    except PlannerError:
        return (h.inter_node, None) if h.inter_node else None
    return net.name, (net.gbps_per_nic * nics_per_node if net.gbps_per_nic else None)


def _nvlink_domain_link(gpu: Any, gpus_per_node: int) -> tuple[str, float | None] | None:
    """(name, Gb/s per server) of the NVLink domain that joins ``gpu``'s servers (:func:`inter_node_link`)."""
    from .catalog_hw import intra_node_bandwidth_gbs, intra_node_network

    try:
        net, uni = intra_node_network(gpu), intra_node_bandwidth_gbs(gpu, "nvlink")
    except PlannerError:
        return None
    return (net.name if net else "NVLink"), (None if uni is None else float(uni) * 8.0 * gpus_per_node)


@dataclass(slots=True, frozen=True)
class PlanLinks:
    """The links one plan runs on, as the report and the pages show them: ``gpus_per_node`` as used (never more
    than the plan's GPUs); the link inside a node (its name and the vendors' bidirectional GB/s per GPU; None on
    one GPU); the fabric between nodes (its name and Gb/s per node as the time model counts it,
    :func:`inter_node_link`; None on one node)."""

    gpus_per_node: int
    intra_node: str | None
    intra_node_bw_gbs: float | None
    inter_node: str | None
    inter_node_gbps_per_node: float | None


def _intra_link(gpu: Any, override: str | None) -> tuple[str | None, float | None]:
    """The link inside a node: the catalog's link class of ``gpu`` (else its link kind) with the vendors'
    figure; a scenario's ``hardware.intra_node`` (``pcie``/``nvlink``) names the link it forces and its figure
    (twice :func:`catalog_hw.intra_node_bandwidth_gbs`, which is one-way)."""
    from .catalog_hw import intra_node_bandwidth_gbs, intra_node_network

    if override:
        try:
            uni = intra_node_bandwidth_gbs(gpu, override)
        except PlannerError:
            uni = None
        return ("PCIE" if override == "pcie" else "NVLink"), (None if uni is None else 2.0 * uni)
    try:
        net = intra_node_network(gpu)
    except PlannerError:
        net = None
    return (net.name if net else gpu.intra_node_link), gpu.intra_node_bw_gbs


def plan_links(ev: Evaluation) -> PlanLinks:
    """:class:`PlanLinks` of ``ev`` (the one place the report's and the pages' link names and figures come from)."""
    h = ev.scenario.hardware
    intra, intra_bw = _intra_link(ev._extra["resolved"].gpu, h.intra_node) if ev.num_gpus > 1 else (None, None)
    inter = inter_node_link(ev) if ev.nodes > 1 else None
    return PlanLinks(gpus_per_node=min(ev.gpus_per_node, ev.num_gpus), intra_node=intra, intra_node_bw_gbs=intra_bw,
                     inter_node=None if inter is None else inter[0],
                     inter_node_gbps_per_node=None if inter is None else inter[1])


class PlanFigures:
    """A plan's figures read from its Evaluation under the Evaluation's own names: the one list the ranked plan
    (:class:`core.search.Plan`), the Plans page's row (:class:`app.engine.PlanRow`) and the report's plan
    (:class:`report.content.PlanInfo`) share, so each of them says only what it adds or shows differently. A
    class using it has an ``evaluation``. Nothing is copied or computed here."""

    __slots__ = ()

    scenario = property(lambda self: self.evaluation.scenario)
    gpu_name = property(lambda self: self.evaluation.gpu_name)
    gpu_memory_gib = property(lambda self: self.evaluation.gpu_memory_gib)
    num_gpus = property(lambda self: self.evaluation.num_gpus)
    nodes = property(lambda self: self.evaluation.nodes)
    gpus_per_node = property(lambda self: self.evaluation.gpus_per_node)
    layout = property(lambda self: self.evaluation.layout)
    compute_days = property(lambda self: self.evaluation.compute_days)
    calendar_days = property(lambda self: self.evaluation.calendar_days)
    calendar_days_band = property(lambda self: self.evaluation.calendar_days_band)
    cost_band = property(lambda self: self.evaluation.cost_band)
    band = property(lambda self: self.evaluation.band)
    currency = property(lambda self: self.evaluation.currency)
    mfu = property(lambda self: self.evaluation.mfu)
    gpu_hours = property(lambda self: self.evaluation.gpu_hours)
    meets_deadline = property(lambda self: self.evaluation.meets_deadline)
    within_budget = property(lambda self: self.evaluation.within_budget)


@dataclass(slots=True, frozen=True)
class StorageNeeds:
    """Bytes the plan stores: one resumable checkpoint (:func:`cost.checkpoint_bytes`, the size the interruption
    costs count), the tokenised training data (:func:`cost.token_bytes` per token) and the model's weights in
    16 bit (the starting weights and the final model)."""

    checkpoint_bytes: float
    data_bytes: float
    weights_bytes: float


def storage_needs(ev: Evaluation) -> StorageNeeds:
    """:class:`StorageNeeds` of ``ev`` (the report's storage requirements read it)."""
    lora = ev.scenario.training.method in ("lora", "qlora")
    return StorageNeeds(checkpoint_bytes=costmod.checkpoint_bytes(ev.trainable, lora),
                        data_bytes=ev.tokens * costmod.token_bytes(ev.arch.vocab_size),
                        weights_bytes=ev.params.total * 2.0)
