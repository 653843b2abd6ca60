"""Plan search: which GPUs, how many, and which parallel layout — ranked by the user's objective.

Every selected GPU type × GPU count (1 … one node, then whole nodes up to ``constraints.max_gpus``) ×
tensor parallel (≤ GPUs per node) × pipeline parallel × context/expert parallel (where they apply) ×
ZeRO stage × recomputation × micro-batch is built as numpy arrays and evaluated a chunk at a time (at most
:data:`CHUNK_ROWS` candidates, so memory stays bounded at any ``max_gpus``; :class:`_Reducer` keeps only
the rows the ranking can pick, and ranks them exactly as the whole list would):
:func:`memory.memory_arrays` (the same formulas as a single estimate), the time model's
``time_arrays`` on the candidates that fit, then :func:`cost.rental_costs`. Plans are ranked by
objective, the time-vs-cost Pareto front is kept, and each shown plan explains itself.

Rules for the candidate set (sources):

* Frameworks: the scenario's ``training.framework`` when the user chose it; with
  ``constraints.search_frameworks`` (the default for a scenario that names no framework) every framework of
  :data:`frameworks.FRAMEWORKS` that runs the training method (among ``constraints.framework_candidates``)
  is a searched dimension, one :class:`SearchContext` per GPU type × framework. The layouts, ZeRO stages and
  recomputation policies each framework runs come from that one table (:mod:`core.frameworks`, with sources).
* Planning rules (:mod:`core.rules`, switched in ``constraints.rules``): cards below the card class are left
  out (listed in ``skipped``); consumer cards without P2P do not spread layouts that communicate every step
  over nodes; pipeline stages divide the layers; plans graded ``poor`` (MFU < 30% on mainstream GPUs, the class's
  line elsewhere: rules.grade_bands) rank after the others unless no other plan meets the deadline. When the
  rules leave nothing, the search runs again without the card, node and pipeline rules and says so.
* Tensor parallel within one node and dividing the attention and KV heads (Narayanan et al. 2021 §3.3
  keep TP inside the NVLink domain); sequence parallelism on with Megatron TP (Korthikanti et al. 2022).
* Context parallel only for sequences ≥ 32k tokens (Megatron-LM context-parallel docs target long
  sequences); expert parallel only for MoE models, dividing the experts and the data-parallel degree.
* Global batch: the scenario's ``global_batch_size`` when given (candidates must divide it), else
  about 4M tokens for pretraining (Touvron et al. 2023, Llama 2 §2.2) or 128 sequences for fine-tuning
  (Taori et al. 2023, Stanford Alpaca training recipe), reached with gradient accumulation.
* Chinchilla: fewer than 20 training tokens per parameter under-trains a model being pretrained
  (Hoffmann et al. 2022, arXiv:2203.15556, Table 3).
"""

from __future__ import annotations

import math
import time
from dataclasses import field, replace
from typing import Any, Callable, Mapping

import numpy as np

from dataclasses import dataclass

from .units import nodes as units_nodes, powers_of_two_upto
from . import cost as costmod
from .architecture import ModelSource
from .cost import MODE_LABELS, MODES, Msg, Overheads, PriceTable
from .errors import CatalogError, PlannerError, ScenarioError
from .evaluate import (PlanFigures, a2a_overlap_pairless_message, cost_inputs, evaluate,
                       lora_dropout_default_message, model_support_warnings, server_gpus_message,
                       retired_recompute_message,
                       validation_band, within_nvlink_domain)
from .i18n import QT_TRANSLATE_NOOP
from .messages import MsgStr, deadline_msgs, elapsed_msg, error_text, memory_sum_msg
from . import rules as rulesmod
from . import advisor as advisormod
from . import advisor_savers as saversmod
from .frameworks import FRAMEWORKS, ORDER as FRAMEWORK_ORDER, TOOLS as FRAMEWORK_TOOLS, engine_of, frameworks_for
from .frameworks import model_unsupported, name_for, runs_on, vendor_unsupported
from .frameworks import RL_HYBRID_ENGINE_TOOLS, RL_OFFLOAD_MODEL_TOOLS, interleaves, no_vpp_words, own_lora_layers
from .frameworks import fsdp2_upcast_applies, logits_held_unpriced, optimizer_offload_refused, qlora_no_upcast_allowed
from .frameworks import rl_engine_unrun, use_cache_applies
from .memory import GIB, RECOMPUTE_CODES, expert_tp_of, memory_arrays, rl_model_offloaded
from .intake import OFFLOAD_BUFFER_FACTOR, host_ram_line, offloaded_states
from .recompute import POLICIES as RECOMPUTE_POLICIES, label_msg as recompute_label_msg
from .params import tier as tier_of
from .scenario import EMPTY_CACHE_ENGINES, Scenario
# imported here, not inside functions: the search runs on a worker thread, where an import statement goes through PySide6's import hook (a deadlock was seen there)
from . import timing
from . import megatron_fsdp as mfsdpmod
from .catalog_hw import (custom_gpu_record, get_gpu, get_network, load_gpus, lookup_gpu, peak_tflops,
                         region_for_currency, server_gpus, server_nics)
from .estimate import Resolved, tier_guidance, _check_network_id, _facts_for, memory_kwargs, trainable_params
from .methods import method_profile, vllm_engine_reserve_bytes, vllm_start_room
from .arrayops import ArrayOps
from .flops import model_flops_per_token
from .architecture import resolve_arch

CTX = "Plan"
RECOMPUTE_NAMES = RECOMPUTE_POLICIES  # indexed by code (core/recompute.py)
from .recompute import RECOMPUTE_LABELS  # noqa: E402,F401  (the policies' display names; context "Plan")
# what each framework runs, read from the one table (core/frameworks.py, with sources)
ZERO_BY_FRAMEWORK = {k: f.zero_stages for k, f in FRAMEWORKS.items()}
#: the stages the search tries (frameworks.FrameworkSupport.searched_zero)
SEARCHED_ZERO = {k: (f.searched_zero or f.zero_stages) for k, f in FRAMEWORKS.items()}
TP_FRAMEWORKS = tuple(k for k in FRAMEWORK_ORDER if FRAMEWORKS[k].tensor_parallel and FRAMEWORKS[k].tp_searched)
PP_FRAMEWORKS = tuple(k for k in FRAMEWORK_ORDER if FRAMEWORKS[k].pipeline_parallel)
# index of every framework value (the engines, then the fine-tuning tools a scenario may name)
FRAMEWORK_INDEX = {k: i for i, k in enumerate(FRAMEWORK_ORDER + FRAMEWORK_TOOLS)}
PP_CHOICES = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128)
MBS_CHOICES = (1, 2, 4, 8, 16)
CP_MIN_SEQ = 32768
PRETRAIN_BATCH_TOKENS = 4 * 1024 * 1024  # Llama 2 §2.2: 4M tokens
FINETUNE_BATCH_SEQS = 128  # Stanford Alpaca recipe
CHINCHILLA_TOKENS_PER_PARAM = 20.0  # Hoffmann et al. 2022
PART_LABELS = {
    "tp_comm": QT_TRANSLATE_NOOP("Plan", "tensor-parallel communication"),
    "dp_comm": QT_TRANSLATE_NOOP("Plan", "data-parallel / ZeRO communication"),
    "pp_bubble": QT_TRANSLATE_NOOP("Plan", "the pipeline bubble"),
    "cp_comm": QT_TRANSLATE_NOOP("Plan", "context-parallel communication"),
    "ep_comm": QT_TRANSLATE_NOOP("Plan", "expert all-to-all"),
    "other": QT_TRANSLATE_NOOP("Plan", "the optimizer step and other memory-bound work"),
}


class SearchCancelled(PlannerError):
    """The caller's cancel hook asked the search to stop."""


# ------------------------------------------------------------------------------------------ time model


_TIME_PARTS = ("compute", "tp_comm", "dp_comm", "pp_bubble", "cp_comm", "ep_comm", "other")


def _time_split(ctx: "SearchContext") -> tuple[dict, dict]:
    """The context's fixed arguments of :func:`timing.time_arrays`, as (:func:`timing.time_layout`'s,
    :func:`timing.time_gpu`'s)."""
    kw = ctx.time_kwargs
    gpu = {k: v for k, v in kw.items() if k in timing.GPU_TIME_ARGS}
    gpu["mfu"] = ctx.scenario.assumptions.mfu
    return {k: v for k, v in kw.items() if k not in timing.GPU_TIME_ARGS}, gpu


def candidate_layout(ctx: "SearchContext", c: Mapping[str, np.ndarray], split: tuple | None = None) -> dict:
    """:func:`timing.time_layout` of candidates ``c``: the half of the time model the GPU's rates do not enter
    (``split``: :func:`_time_split` of ``ctx``, when already at hand)."""
    return timing.time_layout(
        ctx.facts, **(split or _time_split(ctx))[0], tp=c["tp"], pp=c["pp"], cp=c["cp"], ep=c["ep"], dp=c["dp"], zero=c["zero"],
        recompute=c["recompute"], mbs=c["mbs"], sp=c["sp"], grad_accum=c["grad_accum"], vpp=c["vpp"],
        num_gpus=c["num_gpus"], gpus_per_node=ctx.gpus_per_node, offload=c["offload"] | c["offload_params"],
        offload_params=c["offload_params"])


def candidate_times(ctx: "SearchContext", c: Mapping[str, np.ndarray], layout: dict | None = None,
                    split: tuple | None = None, shares: bool = True) -> dict[str, np.ndarray]:
    """Training hours, MFU and the step's shares from :func:`timing.time_arrays` for candidates ``c``
    (``layout``: their :func:`candidate_layout`, already computed; then only :func:`timing.time_gpu` runs;
    ``split``: :func:`_time_split` of ``ctx``). ``shares=False``: instead of the shares ``frac_*``, the step
    (``_step``, floored at 1e-30) and its parts (``_part_*``), of which :func:`_step_shares` makes the shares
    of the rows that are kept.

    hours = tokens / (tokens/s/GPU × GPUs) / 3600 (timing module docstring).
    """

    split = split or _time_split(ctx)
    if layout is None:
        layout = candidate_layout(ctx, c, split)
    out = timing.time_gpu(layout, **split[1], full=False)
    n = len(c["num_gpus"])
    # the share of the training step that is communication or bubble: whether a poor MFU is penalised (rules)
    comm = _rows(rulesmod.rule_comm_share(rulesmod.comm_share(out, out["step"], out["generation"]),
                                          timing.gpu_generation(ctx.gpu)), n)
    out = {k: _rows(out[k], n) for k in ("tokens_per_s_per_gpu", "step", "mfu", "mfu_training", "hfu_ratio",
                                         *_TIME_PARTS)}
    tps = out["tokens_per_s_per_gpu"] * c["num_gpus"]
    step = np.maximum(out["step"], 1e-30)
    # the MFU ceiling (core/advisor.py): a plan above the best published run of its class is timed at it (its HFU
    # against a class whose run reports HFU: advisor.ceiling_figure)
    used, factor = advisormod.capped(out["mfu"], ctx.mfu_ceiling, out["mfu_training"],
                                     out["hfu_ratio"] if ctx.ceiling_hfu else None)
    res = {"train_hours": ctx.tokens / np.maximum(tps, 1e-30) / 3600.0 * factor, "mfu": out["mfu"],
           "mfu_used": used, "mfu_training": out["mfu_training"], "comm_share": comm,
           "poor_below": _rows(ctx.poor_below, n)}  # the class's poor line (rules.grade_bands), per row
    if not shares:
        res["_step"] = step
        res.update(("_part_" + k, out[k]) for k in _TIME_PARTS)
        return res
    for k in _TIME_PARTS:
        res["frac_" + k] = out[k] / step
    return res


def _rows(v, n: int) -> np.ndarray:
    """``v`` as ``n`` rows of floats (a value the same for every row is broadcast)."""
    if isinstance(v, np.ndarray) and v.shape == (n,) and v.dtype == np.float64:
        return v
    return np.broadcast_to(np.asarray(v, dtype=float), (n,))


def _step_shares(d: Mapping[str, np.ndarray], rows) -> dict[str, np.ndarray]:
    """The shares ``frac_*`` of the rows ``rows`` of ``d`` (:func:`candidate_times` with ``shares=False``):
    each part over the step, as :func:`candidate_times` computes them."""
    step = d["_step"][rows]
    return {"frac_" + k: d["_part_" + k][rows] / step for k in _TIME_PARTS}


# ----------------------------------------------------------------------------------------------- types


@dataclass(slots=True)  # mutable: run_search fills in the framework's reason and the link after ranking
class Plan(PlanFigures):
    """One ranked plan: the :class:`evaluate.Evaluation` of its complete scenario, and what the ranking adds
    (explanation, warnings, bottleneck shares, the framework's reason, #1's decision).

    Every figure is read from the Evaluation (the properties below: nothing copied, nothing computed);
    ``calendar_days`` are calendar days including setup, checkpoints, interruptions and the work pattern
    (hours per week), ``compute_days`` GPU time around the clock. Money in ``currency``; an unpriced plan's
    ``cost``, ``cost_per_million_tokens`` and ``cost_per_pflop`` read as infinity (the ranking's order)."""

    evaluation: Any  # evaluate.Evaluation
    explanation: list[Msg] = field(default_factory=list)
    warnings: list[Msg] = field(default_factory=list)
    limits: dict[str, float] = field(default_factory=dict)
    peak_tflops: float | None = None  # dense peak at the training precision
    link: str = ""
    framework_searched: bool = False  # the search chose the framework (else the scenario's)
    framework_reason: list[Msg] = field(default_factory=list)  # which framework and why
    #: #1 only: why it beat the best plan of the next GPU type and of the next framework (core.search.decision):
    #: ``{"versus", "gpu", "framework", "rule", "figures", "message"}`` each
    decision: list[dict] = field(default_factory=list)
    #: the ranking penalty the search ranked this plan with (:func:`_penalty_of`: the :data:`advisor.BIT_RULES` bits
    #: of the rules it fails, 0 = none), set where the plan is made; :mod:`core.advisor_savers` compares plans by it
    penalty: int = 0
    #: how many lines the ranking put first in ``explanation`` (its rank line, #1's held-back line, #1's savers
    #: line): a line added under them goes at this index (:func:`_fabric_ahead_line`, :func:`_savers_note`)
    head_lines: int = 0
    #: the memory savers (:data:`advisor_savers.SAVER_FIELDS` keys) this plan applies that the user left unset: the
    #: search chose them because this layout does not fit with the defaults (issue 35 round 15, savers15)
    unrequested_savers: tuple[str, ...] = ()

    # ---- read from the Evaluation (the plan is said once: core.evaluate.Evaluation and its Layout)
    gpu = property(lambda self: self.evaluation.gpu_id)
    framework = property(lambda self: self.evaluation.layout.framework)
    tp = property(lambda self: self.evaluation.layout.tp)
    pp = property(lambda self: self.evaluation.layout.pp)
    cp = property(lambda self: self.evaluation.layout.cp)
    ep = property(lambda self: self.evaluation.layout.ep)
    vpp = property(lambda self: self.evaluation.layout.vpp)
    dp = property(lambda self: self.evaluation.layout.dp)
    zero = property(lambda self: self.evaluation.layout.zero)
    sequence_parallel = property(lambda self: self.evaluation.layout.sequence_parallel)
    offload_optimizer = property(lambda self: self.evaluation.layout.offload_optimizer)
    offload_params = property(lambda self: self.evaluation.layout.offload_params)
    recompute = property(lambda self: self.evaluation.layout.recompute)
    micro_batch_size = property(lambda self: self.evaluation.layout.micro_batch_size)
    grad_accum = property(lambda self: self.evaluation.layout.grad_accum)
    global_batch_size = property(lambda self: self.evaluation.layout.global_batch_size)
    memory_per_gpu_gib = property(lambda self: self.evaluation.memory.total)
    rental_mode = property(lambda self: self.evaluation.rental_mode or "card_hour")
    mode_costs = property(lambda self: dict(self.evaluation.mode_costs))
    rental_advice = property(lambda self: list(self.evaluation.rental_advice))
    price = property(lambda self: None if self.evaluation.price is None else self.evaluation.price.to_json())

    def _priced(self, value: float | None) -> float:
        return value if self.evaluation.cost is not None and value is not None else math.inf

    cost = property(lambda self: self._priced(self.evaluation.cost))
    cost_per_million_tokens = property(lambda self: self._priced(self.evaluation.cost_per_million_tokens))
    cost_per_pflop = property(lambda self: self._priced(self.evaluation.cost_per_pflop))

    @property
    def framework_name(self) -> str:
        return name_for(self.framework, self.evaluation.scenario.training.method)

    @property
    def mfu_grade(self) -> str | None:
        return self.evaluation.mfu_grade

    @property
    def rules(self) -> tuple:
        return tuple(self.evaluation.rules)

    @property
    def price_per_card_hour(self) -> float | None:
        """The chosen rental mode's price per card-hour (a week's or month's price spread over its hours)."""
        ev = self.evaluation
        return None if ev.price is None else ev.price.mode_card_hour(ev.rental_mode)

    @classmethod
    def from_evaluation(cls, ev: Any, limits: Mapping[str, float] | None = None) -> "Plan":
        """The plan of an Evaluation (its figures stay there) with the ranking's bottleneck shares."""
        return cls(evaluation=ev, limits=dict(limits or {}))

    @property
    def effective_tflops_per_gpu(self) -> float | None:
        """Peak × MFU: the model TFLOPS one GPU delivers."""
        return None if self.mfu is None or self.peak_tflops is None else self.peak_tflops * self.mfu

    def to_json(self) -> dict:
        """The Evaluation's JSON (``gpuplanner estimate --json`` keys, with the complete ``scenario``) plus
        the plan's layout in flat keys, its explanation, warnings and bottleneck shares."""
        out = self.evaluation.to_json()
        # the plan as a scenario that reproduces it: its layout fixed (``gpuplanner estimate`` on an automatic layout
        # would answer the search's #1, app.answer.decide, not this plan; issue 35 r9 parity9)
        out["scenario"].setdefault("parallel", {})["auto"] = False
        out.update({
            "framework": self.framework, "framework_name": self.framework_name,
            "framework_searched": self.framework_searched,
            "framework_reason": [m.render() for m in self.framework_reason], "tp": self.tp, "pp": self.pp, "cp": self.cp, "ep": self.ep,
            "vpp": self.vpp, "dp": self.dp, "zero": self.zero, "sequence_parallel": self.sequence_parallel,
            "offload_optimizer": self.offload_optimizer, "offload_params": self.offload_params,
            "recompute": self.recompute, "micro_batch_size": self.micro_batch_size, "grad_accum": self.grad_accum,
            "global_batch_size": self.global_batch_size,
            "cost_per_pflop": None if not math.isfinite(self.cost_per_pflop) else round(self.cost_per_pflop, 6),
            "limits": {k: round(v, 4) for k, v in self.limits.items()},
            "explanation": [m.render() for m in self.explanation],
            # (the search repeats the Evaluation's model-support line in the plan's own warnings, which the text
            # views read: each line once here)
            "warnings": list(dict.fromkeys(m.render() for m in (*self.evaluation.warnings, *self.warnings))),
            "peak_tflops": self.peak_tflops,
            "effective_tflops_per_gpu": None if self.effective_tflops_per_gpu is None
            else round(self.effective_tflops_per_gpu, 3),
            "decision": [{**{k: v for k, v in d.items() if k != "message"}, "message": d["message"].render()}
                         for d in self.decision],
            "unrequested_savers": list(self.unrequested_savers),
        })
        return out


@dataclass(slots=True)  # mutable: search() adds the relaxed-rules note and the first pass's counts
class SearchResult:
    plans: list[Plan]
    candidates_evaluated: int
    candidates_fitting: int
    search_ms: float
    pareto: list[dict]
    tier: str
    tier_guidance: str
    objective: str
    feasible: bool
    notes: list[Msg] = field(default_factory=list)
    skipped_gpus: dict[str, Msg] = field(default_factory=dict)  # GPU id -> why it is not in the ranking
    rent_vs_build: Any = None  # cost.BuildResult for the top plan's hardware
    frameworks: tuple[str, ...] = ()  # the frameworks searched
    rules_relaxed: tuple[str, ...] = ()  # rules dropped because nothing passed them
    #: a plan better by the objective than #1 ranks after it only for tight memory (:func:`_tight_ahead`)
    tight_ahead: bool = False

    @property
    def skipped(self) -> list[dict]:
        """Every candidate GPU left out, with the reason: ``[{"gpu", "gpu_name", "reason"}]``."""

        out = []
        for gid, why in self.skipped_gpus.items():
            try:
                name = get_gpu(gid).name
            except PlannerError:
                name = gid
            out.append({"gpu": gid, "gpu_name": name, "reason": Msg.of(why)})
        return out

    def to_json(self) -> dict:
        return {
            "plans": [p.to_json() for p in self.plans],
            "candidates_evaluated": self.candidates_evaluated,
            "candidates_fitting": self.candidates_fitting,
            "search_ms": round(self.search_ms, 2),
            "objective": self.objective,
            "feasible": self.feasible,
            "tier": self.tier,
            "tier_guidance": self.tier_guidance,
            "pareto": self.pareto,
            "notes": [m.render() for m in self.notes],
            "frameworks": list(self.frameworks),
            "rules_relaxed": list(self.rules_relaxed),
            "skipped": [{"gpu": d["gpu"], "gpu_name": d["gpu_name"], "reason": d["reason"].render()}
                        for d in self.skipped],
            "skipped_gpus": {gid: Msg.of(why).render() for gid, why in self.skipped_gpus.items()},
            "rent_vs_build": None if self.rent_vs_build is None else self.rent_vs_build.to_json(),
        }


@dataclass(slots=True, frozen=True)
class SearchContext:
    """Per-scenario, per-GPU-type facts the evaluation needs (cheap to build)."""

    scenario: Scenario
    resolved: Any  # estimate.Resolved with this GPU
    gpu: Any
    gpus_per_node: int
    price: costmod.GpuPrice
    overheads: Overheads
    tokens: float
    setup_hours: float
    ckpt_bytes: float
    table: PriceTable
    model_flops_per_token: float
    target_batch_seqs: int | None  # None: the scenario's global batch is fixed
    time_kwargs: dict = field(default_factory=dict)  # fixed arguments of timing.time_arrays for this GPU
    framework_searched: bool = False
    rules_on: bool = True  # apply the card/node/pipeline planning rules (constraints.rules) to the candidates
    #: the price of the rows over several nodes where it is not ``price`` (PriceTable.for_nodes: a networked
    #: offer of the card); None: ``price`` bills every row
    price_multi: costmod.GpuPrice | None = None
    #: this GPU type and framework with the scenario's defaults, for a search that applies savers the user left
    #: unset: only the rows that do not run with the defaults are kept (:func:`_unfit_default`)
    plain: "SearchContext | None" = None

    @property
    def facts(self):
        return self.resolved.facts

    @property
    def framework(self) -> str:
        """This context's framework (the scenario's, or the one being searched)."""
        return self.resolved.scenario.training.framework

    @property
    def band(self) -> dict | None:
        """The framework family's validation band (evaluate.validation_band)."""
        return validation_band(self.framework)

    @property
    def mfu_ceiling(self) -> float | None:
        """The MFU this context's plans are timed at most (core/advisor.py; None: no ceiling applies)."""
        return advisormod.ceiling_for(self.resolved.scenario, self.gpu.id, float(self.facts.params.total))

    @property
    def ceiling_hfu(self) -> bool:
        """Whether that ceiling is a published HFU, which the plans' HFU is compared with (advisor.ceiling_figure)."""
        return advisormod.ceiling_is_hfu(advisormod.ceiling_run(self.resolved.scenario, self.gpu.id,
                                                                 float(self.facts.params.total)))

    @property
    def poor_below(self) -> float:
        """The MFU below which this context's plans grade poor: their class's line (rules.grade_bands, read from
        the class's best published run, advisor.class_ceiling, as evaluate grades the plan)."""
        return rulesmod.poor_line(advisormod.class_ceiling(self.resolved.scenario, self.gpu.id,
                                                           float(self.facts.params.total)))


# ----------------------------------------------------------------------------------------- enumeration


def gpu_counts(gpus_per_node: int, max_gpus: int) -> np.ndarray:
    """1 … one node, then whole nodes up to ``max_gpus``."""
    first = np.arange(1, min(gpus_per_node, max_gpus) + 1)
    nodes = np.arange(2, max_gpus // gpus_per_node + 1) * gpus_per_node
    return np.concatenate([first, nodes]).astype(np.int64)


def enumerate_candidates(ctx: SearchContext, max_gpus: int) -> dict[str, np.ndarray]:
    """All layouts for one GPU type as parallel int arrays (see the module docstring for the rules).

    The search itself never builds this whole list: it walks :func:`_candidate_chunks` (the same rows, in
    the same order, a slice of GPU counts at a time); this function is their concatenation."""
    setup = _enum_setup(ctx, max_gpus)
    parts = _enum_parts(ctx, setup, 0, len(setup["layouts"]["N"]))
    if len(parts) == 1:
        return parts[0][1]
    return {k: np.concatenate([c[k] for _, c in parts]) for k in parts[0][1]}


def _enum_setup(ctx: SearchContext, max_gpus: int) -> dict:
    """What :func:`_enum_parts` needs for one context: the layouts (GPU count × TP × PP × CP × EP that divide,
    by GPU count ascending) and the ZeRO × recomputation × micro-batch choices."""
    s = ctx.resolved.scenario  # the user's scenario with this GPU and framework
    t = s.training
    arch = ctx.resolved.arch
    sup = FRAMEWORKS[t.framework]
    g = ctx.gpus_per_node
    rules_on = s.constraints.rules if ctx.rules_on else None
    tps = [v for v in powers_of_two_upto(g) if arch.num_heads % v == 0 and (arch.num_kv_heads % v == 0 or v <= 1)]
    model_parallel = sup.peft_model_parallel or t.method not in ("lora", "qlora")  # core/frameworks.py
    if not (sup.tensor_parallel and sup.tp_searched and model_parallel):
        tps = [1]
    pps = [p for p in PP_CHOICES if p <= arch.num_layers] if sup.pipeline_parallel and model_parallel else [1]
    if sup.pp_searched_methods is not None and t.method not in sup.pp_searched_methods:
        pps = [1]  # DeepSpeed's pipeline engine needs a PipelineModule: not tried for fine-tuning (core/frameworks.py)
    if rules_on is not None and rules_on.pipeline_layers:
        slots = rulesmod.pipeline_slots(arch.num_layers, bool(getattr(s.parallel, "pp_account_embedding_loss", False)))
        pps = [p for p in pps if not rulesmod.pipeline_layers_fails(p, slots)]
    cps = [1]
    if t.seq_len >= CP_MIN_SEQ and sup.context_parallel:
        cps = [c for c in (1, 2, 4, 8) if t.seq_len % c == 0]
    eps = [1]
    if arch.is_moe and sup.expert_parallel:
        eps = [e for e in powers_of_two_upto(min(arch.num_experts, 64)) if arch.num_experts % e == 0]
    zeros = SEARCHED_ZERO[t.framework]
    if offload_params_applies(s):
        zeros = (3,)  # the user's parameter offload needs ZeRO-3/FSDP full sharding
    if getattr(t, "fsdp2_fp32_upcast", False) and fsdp2_upcast_applies(t.framework, t.fsdp_version, 3):
        zeros = (3,)  # Accelerate's FSDP2 upcast is a statement about FULL_SHARD (scenario._check_fsdp_no_sync)
    if getattr(t, "mixed_precision_off", False):
        # the HF Trainer without --bf16 runs without DeepSpeed: ZeRO 0 or Accelerate's FSDP1 at 2/3
        # (frameworks.mixed_precision_off_allowed; fsdp_version is the user's)
        ok = (0, 2, 3) if int(getattr(t, "fsdp_version", 2)) == 1 else (0,)
        zeros = tuple(z for z in zeros if z in ok) or zeros
    rcs = sup.peft_recompute if (t.method in ("lora", "qlora") and sup.peft_recompute) else sup.recompute
    # Megatron: per-layer graphs and the EP all-to-all overlap refuse full recompute (scenario.py)
    if getattr(s.parallel, "cuda_graph_scope", None) or getattr(s.parallel, "ep_a2a_overlap", False):
        rcs = tuple(r for r in rcs if r != "full") or rcs
    if getattr(t, "recompute_modules", None) is not None:  # the modules are a selective-recompute choice (scenario.py)
        rcs = tuple(r for r in rcs if r == "megatron_selective") or rcs
    recomputes = tuple(RECOMPUTE_CODES[r] for r in rcs)
    Z, R, M = (a.ravel() for a in np.meshgrid(zeros, recomputes, MBS_CHOICES, indexing="ij"))
    counts = gpu_counts(g, max_gpus)
    per_count = max(len(tps) * len(pps) * len(cps) * len(eps), 1)
    step = max(1, (1 << 16) // per_count)
    cols: dict[str, list[np.ndarray]] = {k: [] for k in ("N", "TP", "PP", "CP", "EP", "dp")}
    etp_one = engine_of(t.framework) == "megatron" and expert_tp_of(
        "megatron", 2.0, getattr(s.parallel, "expert_tp", None), tool=t.framework) == 1.0
    for a in range(0, len(counts), step):  # a slice of counts at a time: the grid before the filter stays small
        N, TP, PP, CP, EP = (x.ravel() for x in np.meshgrid(counts[a:a + step], tps, pps, cps, eps, indexing="ij"))
        group = TP * PP * CP
        ok = (N % group == 0)
        dp = np.where(ok, N // np.maximum(group, 1), 0)
        # Megatron-Core builds the expert grid as ETP × EP × expert-DP × PP over the whole world (megatron/core/
        # parallel_state.py initialize_model_parallel, d98e8a64: "world_size … is not divisible by
        # expert_tensor_model_pipeline_parallel size"): with whole experts per GPU (ETP 1: Megatron-SWIFT's default,
        # memory.TOOL_EXPERT_TP, or parallel.expert_tp 1) EP may span the tensor-parallel ranks, EP | TP·CP·DP, as
        # ms-swift's examples/megatron/grpo/moe_colocate_full.sh runs (TP 4 × EP 4 × PP 2 on 8 GPUs); else EP | DP
        ok &= (EP == 1) | ((dp % EP == 0) & (dp >= EP)) | (etp_one & ((TP * CP * dp) % EP == 0))
        if len(eps) > 1:
            # an MoE model on a framework with expert parallelism shards its experts (EP > 1): replicating every
            # expert on every rank is not how these tools run MoE (Megatron-Core MoE docs: expert parallelism is
            # how experts scale); the user's own layout (an estimate) may still have EP 1
            ok &= EP > 1
        ok &= (PP == 1) | (N > 1)
        for k, v in zip(cols, (N, TP, PP, CP, EP, dp)):
            cols[k].append(v[ok])
    layouts = {k: np.concatenate(v) if len(v) != 1 else v[0] for k, v in cols.items()}
    return {"layouts": layouts, "Z": Z.astype(np.int64), "R": R.astype(np.int64), "M": M.astype(np.int64),
            "rules_on": rules_on}


def _enum_parts(ctx: SearchContext, setup: dict, a: int, b: int) -> list[tuple[int, dict[str, np.ndarray]]]:
    """The candidates of layouts ``a`` … ``b-1``, as numbered parts: part 0 the plain layouts, parts 1… the
    interleaved-pipeline ones (:func:`_expand_vpp`). Every part lists its rows in the order of
    :func:`enumerate_candidates` (layout by layout), so slices of the layouts, concatenated part by part,
    give that list exactly."""
    s = ctx.resolved.scenario
    t = s.training
    arch = ctx.resolved.arch
    fw = t.framework
    sup = FRAMEWORKS[fw]
    g = ctx.gpus_per_node
    rules_on = setup["rules_on"]
    L = setup["layouts"]
    N, TP, PP, CP, EP, dp = (L[k][a:b] for k in ("N", "TP", "PP", "CP", "EP", "dp"))

    Z, R, M = setup["Z"], setup["R"], setup["M"]
    k, j = len(N), len(Z)
    # layouts (rows) × ZeRO/recompute/micro-batch (columns): the conditions as a k × j mask, built by
    # broadcasting; then the kept cells, row-major (the order of np.repeat(layouts) × np.tile(choices))
    dpc, Zr, Mr = dp[:, None], Z[None, :], M[None, :]
    # ZeRO with one rank in its sharding group shards nothing. That group is data × context parallel where the
    # context-parallel ranks join it (timing.cp_joins_dp: Megatron's distributed optimizer over
    # get_data_parallel_group(with_context_parallel=True), torchtitan's fully_shard on the dp_shard_cp mesh; the
    # memory model shards over it alike, memory.py ``dp_sh``). Issue 35 round 17 (advice18): a 128k LoRA of
    # Qwen2.5-32B on 8 × A800 (torchtune, CP 8 × DP 1, FSDP over the 8 CP ranks: 54 GiB a card) was never
    # generated, so a month of 8 × H200 (94,000 CNY) ranked first for a 1.3-day job.
    shard = dpc * (CP[:, None] if timing.cp_joins_dp(fw) else 1)
    keep = (Zr == 0) | (shard > 1)
    if sup.peft_dp_zero and t.method in ("lora", "qlora"):  # torchtune's LoRA recipe runs no DDP (frameworks.py)
        keep = keep & ((dpc == 1) | np.isin(Zr, sup.peft_dp_zero))
    if sup.pipeline_max_zero < 3:
        keep = keep & ((PP[:, None] == 1) | (Zr <= sup.pipeline_max_zero))
    if rules_on is not None and rules_on.consumer_multinode and rulesmod.consumer_without_p2p(ctx.gpu):
        nodes = units_nodes(N, g)[:, None]
        keep = keep & ~rulesmod.consumer_multinode_fails(ctx.gpu, nodes, TP[:, None], PP[:, None], CP[:, None],
                                                         EP[:, None], Zr)
    # Megatron-FSDP with TP/CP on pre-Blackwell GPUs: advised against by Megatron-LM (megatron_fsdp.search_excludes)
    excl = mfsdpmod.search_excludes(engine_of(fw), timing.gpu_generation(ctx.gpu), Zr, TP[:, None], CP[:, None])
    if excl.any():
        keep = keep & ~excl
    if s.parallel.offload_optimizer:  # Megatron-FSDP runs no optimizer CPU offload (the scenario check's rule)
        keep = keep & ~optimizer_offload_refused(fw, Zr)
    gbs = t.global_batch_size
    per_step = Mr * dpc
    if gbs is not None:
        keep = keep & (gbs % per_step == 0)
        ga2 = np.where(keep, gbs // np.maximum(per_step, 1), 1)
    else:
        target = ctx.target_batch_seqs or 1
        keep = keep & (Mr <= max(target, 1))  # never a micro-batch beyond the target batch
        ga2 = np.maximum(1, np.rint(target / per_step)).astype(np.int64)
    keep = np.broadcast_to(keep, (k, j))
    cells = np.flatnonzero(keep)
    ra, rb = np.divmod(cells, j)
    c = {"num_gpus": N[ra], "tp": TP[ra], "pp": PP[ra], "cp": CP[ra], "ep": EP[ra], "dp": dp[ra],
         "zero": Z[rb], "recompute": R[rb], "mbs": M[rb],
         "grad_accum": np.broadcast_to(ga2, (k, j)).ravel()[cells].astype(np.int64)}
    c["nodes"] = units_nodes(c["num_gpus"], g)
    c["sp"] = (c["tp"] > 1) & sup.sequence_parallel
    c["vpp"] = _vpp_choices(c, arch.num_layers, int(s.parallel.vpp), fw)
    parts = [(0, c)] + (_vpp_parts(c, arch.num_layers, int(s.parallel.vpp), fw,
                                   all_degrees=t.overlap_p2p_comm is False)
                        if interleaves(fw, t.objective) else [])  # Megatron-SWIFT GRPO: no VPP (frameworks.py)
    if getattr(s.parallel, "ep_a2a_overlap", False):
        parts = [(n, _a2a_overlap_rows(p)) for n, p in parts]
    off, offp = bool(s.parallel.offload_optimizer), offload_params_applies(s)
    for _, p in parts:
        p["offload"] = np.full(len(p["num_gpus"]), off)
        p["offload_params"] = np.full(len(p["num_gpus"]), offp)
    return parts


def _a2a_overlap_rows(p: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The rows of one part that Megatron-Core runs with the EP all-to-all overlap (``parallel.ep_a2a_overlap``):
    expert parallelism, and PP 1 or an interleaved pipeline (``transformer_config.py`` asserts; the scenario
    refuses the others, so a plan the user keeps is always one Megatron runs). The order is kept."""
    keep = (p["ep"] > 1) & ((p["pp"] == 1) | (p["vpp"] > 1))
    return p if keep.all() else {k: v[keep] for k, v in p.items()}


def _vpp_choices(c: Mapping[str, np.ndarray], num_layers: int, user_vpp: int, fw: str) -> np.ndarray:
    """The user's interleaving where the stages divide the layers evenly into ``vpp`` chunks, else none
    (the base candidates; :func:`_expand_vpp` adds the degrees the search tries itself)."""
    v = user_vpp if FRAMEWORKS[fw].interleaved_pipeline else 1
    if v <= 1:
        return np.ones(len(c["pp"]), dtype=np.int64)
    return np.where((v > 1) & (c["pp"] > 1) & (num_layers % np.maximum(c["pp"] * v, 1) == 0), v, 1)


def interleave_ok(pp, vpp, num_layers: int, grad_accum):
    """Megatron's rules for the interleaved schedule (element-wise): the layers split evenly into ``pp``
    stages of ``vpp`` chunks each (``megatron/training/arguments.py``: layers per stage divisible by the
    layers per virtual stage) and the micro-batches come in whole groups of ``pp``
    (``megatron/core/pipeline_parallel/schedules.py``: ``microbatch_group_size_per_vp_stage`` = pp must lie
    in [pp, m] and m mod pp must be 0 or ≥ pp, i.e. m is a multiple of pp)."""
    pp, vpp, ga = np.asarray(pp), np.asarray(vpp), np.asarray(grad_accum)
    return (pp > 1) & (num_layers % np.maximum(pp * vpp, 1) == 0) & (ga >= pp) & (ga % np.maximum(pp, 1) == 0)


def _interleave_rows(pp: np.ndarray, grad_accum: np.ndarray, num_layers: int) -> Callable[[int], np.ndarray]:
    """``v ↦ interleave_ok(pp, v, num_layers, grad_accum)`` for integer rows, with what does not depend on ``v``
    computed once and the layer split tested once per pipeline degree (a table), not once per row."""
    pp = np.asarray(pp, dtype=np.int64)
    ga = np.asarray(grad_accum, dtype=np.int64)
    whole = (pp > 1) & (ga >= pp) & (ga % np.maximum(pp, 1) == 0)
    top = int(pp.max()) if len(pp) else 0
    if top > 65536 or (len(pp) and int(pp.min()) < 0):
        return lambda v: interleave_ok(pp, v, num_layers, ga)

    def ok(v: int) -> np.ndarray:
        splits = np.array([p > 1 and num_layers % (p * v) == 0 for p in range(top + 1)], dtype=bool)
        return whole & splits[pp]
    return ok


def _expand_vpp(c: dict[str, np.ndarray], num_layers: int, user_vpp: int, fw: str,
                all_degrees: bool = False) -> dict[str, np.ndarray]:
    """``c`` followed by its interleaved-pipeline candidates (:func:`_vpp_parts`)."""
    extra = _vpp_parts(c, num_layers, user_vpp, fw, all_degrees)
    if not extra:
        return c
    return {k: np.concatenate([c[k]] + [e[k] for _, e in extra]) for k in c}


def _vpp_parts(c: dict[str, np.ndarray], num_layers: int, user_vpp: int, fw: str,
               all_degrees: bool = False) -> list[tuple[int, dict[str, np.ndarray]]]:
    """With Megatron and the scenario's ``vpp`` left at 1, the search also tries the interleaved schedule
    wherever :func:`interleave_ok` allows it (Narayanan et al. 2021 §2.2: the bubble shrinks to (p−1)/(v·m);
    each virtual stage adds point-to-point sends, and the first stage holds ``1 + (p−1)/(p·v)`` times the
    activations of 1F1B — Korthikanti et al. 2022 §4.2.3).

    Degrees tried: powers of two. The largest allowed one has both the smallest bubble and, among the
    interleaved degrees, the smallest activation memory, and Megatron hides its extra sends under compute
    (``overlap_p2p_comm``, on by default for the interleaved schedule), so only it is added next to the
    plain 1F1B candidate; every allowed degree is tried when the scenario turns the p2p overlap off
    (``all_degrees``), since then more virtual stages also mean more exposed sends."""
    if not FRAMEWORKS[fw].interleaved_pipeline or user_vpp != 1:
        return []
    degrees = []
    v = 2
    while v <= num_layers // 2:
        degrees.append(v)
        v *= 2
    # only pipelined rows can interleave: test those (row order kept)
    rows = np.flatnonzero(c["pp"] > 1)
    pp, ga = c["pp"][rows], c["grad_accum"][rows]
    extra: list[tuple[int, dict[str, np.ndarray]]] = []  # (part number, rows): one part per degree tried
    ok_for = _interleave_rows(pp, ga, num_layers)
    if all_degrees:
        for di, v in enumerate(degrees):
            ok = ok_for(v)
            if ok.any():
                sel = rows[ok]
                chunk = {k: a[sel] for k, a in c.items()}
                chunk["vpp"] = np.full(len(sel), v, dtype=np.int64)
                extra.append((1 + di, chunk))
    else:
        vmax = np.ones(len(pp), dtype=np.int64)
        for v in degrees:
            vmax = np.where(ok_for(v), v, vmax)
        ok = vmax > 1
        if ok.any():
            sel = rows[ok]
            chunk = {k: a[sel] for k, a in c.items()}
            chunk["vpp"] = vmax[ok]
            extra.append((1, chunk))
    return extra


def offload_params_applies(s: Scenario) -> bool:
    """The user's parameter offload is kept where the framework can shard fully (ZeRO-3/FSDP); ``s`` is the
    scenario with the framework in question (a context's ``resolved.scenario``)."""
    return (bool(s.parallel.offload_params) and 3 in ZERO_BY_FRAMEWORK[s.training.framework]
            and FRAMEWORKS[s.training.framework].param_offload)


def candidate_scenario(ctx: SearchContext, c: Mapping[str, np.ndarray], i: int) -> Scenario:
    """The complete scenario of candidate ``i``: the one mapping from a search result to a scenario, used
    by "Use this layout", plan files, the CLI and the report. Everything the user set is kept; the
    searched dimensions (GPU, count, layout, micro-batch, batch, recompute) are the candidate's."""
    s = ctx.resolved.scenario  # the scenario with this GPU's hardware section
    n = int(c["num_gpus"][i])
    tp, pp, cp = int(c["tp"][i]), int(c["pp"][i]), int(c["cp"][i])
    dp = n // (tp * pp * cp)
    mbs = int(c["mbs"][i])
    gbs = mbs * dp * int(c["grad_accum"][i])
    hw = s.hardware.model_copy(update={"num_gpus": n})
    par = s.parallel.model_copy(update={
        "tp": tp, "pp": pp, "cp": cp, "ep": int(c["ep"][i]), "vpp": int(c["vpp"][i]), "zero": int(c["zero"][i]),
        "sequence_parallel": bool(c["sp"][i]), "offload_optimizer": bool(c["offload"][i]),
        "offload_params": bool(c["offload_params"][i])})
    tr = s.training.model_copy(update={"recompute": RECOMPUTE_NAMES[int(c["recompute"][i])],
                                       "micro_batch_size": mbs, "global_batch_size": gbs})
    return s.model_copy(update={"hardware": hw, "parallel": par, "training": tr})


def target_batch_seqs(s: Scenario) -> int | None:
    """Sequences per optimizer step the search aims for when the scenario leaves it open."""
    if s.training.global_batch_size is not None:
        return None
    if s.training.method == "pretrain":
        return max(1, round(PRETRAIN_BATCH_TOKENS / s.training.seq_len))
    return FINETUNE_BATCH_SEQS


# ------------------------------------------------------------------------------------------ evaluation


def evaluate_candidates(ctx: SearchContext, c: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Memory, time and cost for the candidates ``c`` (arrays of equal length), for ranking.

    The same formulas as :func:`evaluate.evaluate` on :func:`candidate_scenario`; a test checks that both
    give the same figures for thousands of random candidates.

    Returns arrays: ``mem_gib``, ``fits``, ``train_hours`` (pure training), ``calendar_hours``, ``cost``,
    ``mode`` (index into :data:`cost.MODES`), ``mode_costs`` (modes × n), ``mfu`` (modelled), ``mfu_used`` (capped),
    ``comm_share`` (:func:`rules.comm_share`: whether a poor MFU is penalised), ``poor_below`` (the class's poor
    line, :func:`rules.poor_line`) and any breakdown the
    time model gives (``frac_*``). Works the same for one candidate as for a million.
    """

    n = len(c["num_gpus"])
    mem_gib, idx, sub = _evaluate_fitting(ctx, c)
    out: dict[str, np.ndarray] = {"mem_gib": mem_gib}
    fits = np.zeros(n, dtype=bool)
    fits[idx] = True
    out["fits"] = fits
    hours = np.full(n, np.inf)
    hours[idx] = sub["train_hours"] if len(idx) else np.zeros(0)
    out["train_hours"] = hours
    for key in [k for k in sub if k.startswith("frac_") or k in ("mfu", "mfu_used", "mfu_training", "comm_share",
                                                                  "poor_below")]:
        arr = np.full(n, np.nan)
        arr[idx] = sub[key]
        out[key] = arr
    mode_costs = np.full((len(MODES), n), np.inf)
    cal = np.full(n, np.inf)
    total = np.full(n, np.inf)
    mode = np.zeros(n, dtype=np.int64)
    if len(idx):
        mode_costs[:, idx] = sub["mode_costs"]
        mode[idx] = sub["mode"]
        total[idx] = sub["cost"]
        cal[idx] = sub["calendar_hours"]
    out.update(mode_costs=mode_costs, mode=mode, cost=total, calendar_hours=cal)
    return out


_MEM_COLS = ("tp", "pp", "cp", "ep", "dp", "zero", "recompute", "mbs", "sp", "grad_accum", "vpp", "offload")


class _MemoryMemo:
    """Per-GPU memory of whole candidate chunks already computed in this search, reused when a later context
    hands :func:`memory_arrays` exactly the same inputs (the same framework's layouts on another GPU type:
    memory does not depend on the card except through ``gpu_capacity_gib``, which is part of the key where
    the formulas read it, i.e. for RL objectives). Exact: a hit requires equal keyword arguments, the same
    model facts and element-wise equal candidate columns (packed losslessly into two int64 words per row and
    compared in full), so the stored array is the one the formulas would return. Bounded: at most
    :attr:`limit_bytes` of stored rows (the first ones; nothing is stored once full), so the search's memory
    stays independent of the space's size.

    It also keeps, per chunk, what the later contexts reading it would compute again: the first half of the
    time model (:meth:`layout`, :func:`timing.time_layout`: it does not depend on the GPU's rates), the rows
    that fit a card of a given capacity and those rows' values (:meth:`fitting`, :meth:`rows`), and each
    context's fixed arguments (:meth:`prep`) — within :attr:`layout_limit_bytes` each."""

    limit_bytes = 64 << 20
    layout_limit_bytes = 32 << 20  # for the layouts, and again for the fitting rows and their values

    def __init__(self):
        self._store: dict = {}  # key -> list of (w1, w2, total)
        self._bytes = 0
        self._layouts: dict = {}  # (chunk token, time_layout arguments) -> time_layout's values of the chunk
        self._layout_bytes = 0
        self._prep: dict = {}  # id(context) -> its fixed arguments and their keys (prep)
        self._stored: set = set()  # ids of the stored totals (alive as long as the memo)
        self._fit: dict = {}  # (id(stored total), capacity, headroom) -> [total, idx, mem_gib[idx], {key: rows}]
        self._fit_bytes = 0

    def prep(self, ctx: SearchContext) -> dict:
        """The context's fixed arguments of the formula sheets, built once per context (the memo lives for one
        search, whose context list keeps every context alive): ``mem_kw`` (:func:`memory_arrays`), ``mem_key``
        (their ``repr`` key without the capacity, None where an argument is an array), ``cap`` (the capacity
        where the memory formulas read it, i.e. RL objectives), ``split`` (:func:`_time_split`) and
        ``layout_key`` (:func:`timing.time_layout`'s arguments, model facts and node size; None where an
        argument is an array)."""
        got = self._prep.get(id(ctx))
        if got is not None and got["ctx"] is ctx:
            return got
        kw = memory_kwargs(ctx.resolved)
        kw["offload_params"] = offload_params_applies(ctx.resolved.scenario)
        plain = not any(isinstance(v, np.ndarray) for v in kw.values())  # the key is the repr of each argument
        prof = kw.get("profile")
        split = _time_split(ctx)
        lkw = split[0]
        lkey = None if any(isinstance(v, np.ndarray) for v in lkw.values()) else (
            id(ctx.facts), int(ctx.gpus_per_node), tuple(sorted((k, repr(v)) for k, v in lkw.items())))
        got = {"ctx": ctx, "mem_kw": kw, "split": split, "layout_key": lkey,
               "mem_key": tuple(sorted((k, repr(v)) for k, v in kw.items() if k != "gpu_capacity_gib"))
               if plain else None,
               "cap": kw.get("gpu_capacity_gib") if (prof is None or getattr(prof, "rl", True)) else None}
        self._prep[id(ctx)] = got
        return got

    def layout(self, ctx: SearchContext, c: Mapping[str, np.ndarray], store: bool, token: tuple | None,
               fit_max: list | None = None):
        """``(values, where)``: :func:`candidate_layout` of the rows of chunk ``c`` that fit the largest card of
        the contexts reading it (``fit_max``: :meth:`fitting` of that card; None: every row), packed
        (:func:`timing.pack_layout`), and ``where`` (chunk row → row of ``values``, -1 for none) — where it is
        worth keeping: stored (a later context reads the same chunk, ``store``) or already stored for this chunk
        (``token``) and the same arguments (every :func:`timing.time_layout` argument but the candidate columns,
        by ``repr``, the same model facts and node size, the same rows). None otherwise: the caller computes both
        stages on the fitting rows alone."""
        if token is None:
            return None
        p = self.prep(ctx)
        if p["layout_key"] is None:
            return None
        key = (token, p["layout_key"], None if fit_max is None else (id(fit_max[0]), len(fit_max[1])))
        got = self._layouts.get(key)
        if got is not None or not store:
            return got
        n = len(c["num_gpus"])
        if fit_max is None:
            rows, where = None, None
        else:
            rows = fit_max[1]
            where = np.full(n, -1, dtype=np.int64)
            where[rows] = np.arange(len(rows))
        cols = c if rows is None else {k: v[rows] for k, v in c.items()}
        lay = (timing.pack_layout(candidate_layout(ctx, cols, p["split"])), where)
        size = sum(v.nbytes for v in lay[0].values() if isinstance(v, np.ndarray)) + (0 if where is None
                                                                                     else where.nbytes)
        if self._layout_bytes + size <= self.layout_limit_bytes:
            self._layouts[key] = lay
            self._layout_bytes += size
        return lay

    @staticmethod
    def pack(c: Mapping[str, np.ndarray]):
        """The candidate columns as two int64 words per row, or None where a value is outside the packing's
        ranges (then nothing is memoised)."""
        cols = {}
        for k in _MEM_COLS:
            v = np.asarray(c[k])
            if v.ndim != 1 or not (v.dtype.kind in "iub"):
                return None
            cols[k] = v.astype(np.int64, copy=False)
        limits = {"dp": 1 << 31, "grad_accum": 1 << 32, "tp": 256, "pp": 256, "cp": 256, "ep": 256,
                  "zero": 16, "recompute": 16, "mbs": 256, "sp": 2, "vpp": 256, "offload": 2}
        for k, lim in limits.items():
            v = cols[k]
            if len(v) and (int(v.min()) < 0 or int(v.max()) >= lim):
                return None
        w1 = (cols["dp"] << 32) | cols["grad_accum"]
        w2 = (cols["tp"] | (cols["pp"] << 8) | (cols["cp"] << 16) | (cols["ep"] << 24) | (cols["zero"] << 32)
              | (cols["recompute"] << 36) | (cols["mbs"] << 40) | (cols["sp"] << 48) | (cols["vpp"] << 49)
              | (cols["offload"] << 57))
        return w1, w2

    def total(self, ctx: SearchContext, kw: dict, c: Mapping[str, np.ndarray], compute, store: bool = True,
              token: tuple | None = None):
        """``compute()``'s array, or the stored one for the same inputs; ``store``: keep this result for a
        later context (pointless when none of the remaining contexts has this framework). ``token``: the
        chunk's name in the search's :class:`_ChunkCache` (equal tokens: the same rows, so the columns need
        not be packed and compared)."""
        if not store and not self._store:
            return compute()
        p = self.prep(ctx)
        if p["mem_kw"] is not kw and p["mem_kw"] != kw:
            p = {"mem_key": None if any(isinstance(v, np.ndarray) for v in kw.values()) else
                 tuple(sorted((k, repr(v)) for k, v in kw.items() if k != "gpu_capacity_gib")),
                 "cap": kw.get("gpu_capacity_gib") if getattr(kw.get("profile"), "rl", True) else None}
        if p["mem_key"] is None:
            return compute()  # the key is the repr of each argument: plain values only
        kwkey, cap = p["mem_key"], p["cap"]
        if token is not None:
            key = ("chunk", id(ctx.facts), kwkey, cap, token)
            got = self._store.get(key)
            if got is not None:
                return got[0][2]
            tot = compute()
            if store and self._bytes + tot.nbytes <= self.limit_bytes:
                self._store[key] = [(None, None, tot)]
                self._bytes += tot.nbytes
                self._stored.add(id(tot))
            return tot
        packed = self.pack(c)
        if packed is None:
            return compute()
        w1, w2 = packed
        n = len(w1)
        key = (id(ctx.facts), kwkey, cap, n, int(w1.sum()), int(w2.sum()),
               int(w1[0]) if n else 0, int(w2[0]) if n else 0, int(w1[-1]) if n else 0, int(w2[-1]) if n else 0)
        for e1, e2, tot in self._store.get(key, ()):
            if np.array_equal(e1, w1) and np.array_equal(e2, w2):
                return tot
        tot = compute()
        if not store:
            return tot
        size = w1.nbytes + w2.nbytes + tot.nbytes
        if self._bytes + size <= self.limit_bytes:
            # once full, keep what is stored: the first GPU type's chunks recur on every later one (evicting
            # the oldest would, on a large space, drop them just before the next GPU type asks)
            self._store.setdefault(key, []).append((w1, w2, tot))
            self._bytes += size
            self._stored.add(id(tot))
        return tot

    def fitting(self, total: np.ndarray, cap: float, headroom: float) -> list:
        """``[total, idx, mem_gib[idx], kept, is_kept]`` for a chunk's per-GPU memory ``total`` on a card of
        ``cap`` GiB with ``headroom`` GiB kept free: ``idx`` the rows that fit, as :func:`_evaluate_fitting` finds
        them, and ``kept`` a dict for values of those rows (:meth:`rows`). Kept for a stored total (the GPU types
        with the same capacity then share the rows: 80 GB cards are many), within :attr:`layout_limit_bytes`."""
        k = (id(total), cap, headroom)
        e = self._fit.get(k)
        if e is not None and e[0] is total:
            return e
        mem_gib = total / GIB
        idx = np.flatnonzero(mem_gib + headroom <= cap)
        e = [total, idx, mem_gib[idx], {}, False]
        if id(total) in self._stored and self._fit_bytes + 2 * idx.nbytes <= self.layout_limit_bytes:
            self._fit[k] = e
            self._fit_bytes += 2 * idx.nbytes
            e[4] = True
        return e

    def rows(self, e: list, key, make, keep: bool = True):
        """``make()`` (values of the rows ``e[1]`` that fit), kept in ``e`` under ``key`` where ``keep`` (a later
        context reads them), ``e`` is kept and the bytes allow."""
        got = e[3].get(key)
        if got is not None:
            return got
        got = make()
        if keep and e[4]:
            size = sum(v.nbytes for v in got.values() if isinstance(v, np.ndarray))
            if self._fit_bytes + size <= self.layout_limit_bytes:
                e[3][key] = got
                self._fit_bytes += size
        return got


def _evaluate_fitting(ctx: SearchContext, c: Mapping[str, np.ndarray], memo: _MemoryMemo | None = None,
                      store: bool = True, token: tuple | None = None, lazy: bool = False,
                      cap_max: float | None = None, keep_rows: bool = True, unpriced: list | None = None):
    """Memory for every candidate of ``c``; time and cost only for those that fit.

    Returns ``(mem_gib, idx, sub)``: ``idx`` the fitting rows, ``sub`` their candidate columns, ``mem_gib``,
    ``train_hours``, ``mfu``, ``frac_*``, ``mode_costs`` (modes × len(idx)), ``mode``, ``cost`` and
    ``calendar_hours`` — rows of :func:`evaluate_candidates`, without spreading them over the whole list.
    ``memo`` (:class:`_MemoryMemo`): reuse the memory of identical chunks computed for an earlier context (``store``:
    keep this chunk's for a later one; ``token``: the chunk's name in the search's :class:`_ChunkCache`; ``cap_max``:
    the largest card, in GiB, of the contexts reading this chunk; ``keep_rows``: a later context has a card of this
    one's capacity). ``lazy`` (the search's reducer, which keeps few rows): of the candidate columns only
    ``num_gpus`` and ``nodes``, and ``_src`` (= ``idx``), the step and its parts instead of the shares —
    :func:`_kept_rows` completes the rows that are kept. ``unpriced`` (a one-item list; only for a reducer that keeps
    one plan per GPU count, ``lazy``): the rows :func:`_unpriced` finds outranked are left out of ``idx`` and ``sub``
    without being priced, and the number of them that have a finite cost is added to ``unpriced[0]``."""
    s = ctx.resolved.scenario
    if memo is not None:
        p = memo.prep(ctx)
        kw, split = p["mem_kw"], p["split"]
    else:
        kw, split = memory_kwargs(ctx.resolved), None
        kw["offload_params"] = offload_params_applies(s)

    def compute():
        mem = memory_arrays(
            ctx.facts, **kw,
            tp=c["tp"], pp=c["pp"], cp=c["cp"], ep=c["ep"], dp=c["dp"], zero=c["zero"], recompute=c["recompute"],
            mbs=c["mbs"], sp=c["sp"], grad_accum=c["grad_accum"], vpp=c["vpp"], offload=c["offload"],
        )
        return np.asarray(mem["total"], dtype=float)

    total = compute() if memo is None else memo.total(ctx, kw, c, compute, store, token)
    cap = float(ctx.gpu.memory_gib or 0.0)
    if ctx.plain is not None or s.hardware.host_ram_gib is not None:  # (the layouts then memoised for the whole
        total, cap_max = _unfit_rows(ctx, c, total, cap), None          # chunk: the filtered total is not kept)
    if memo is not None and lazy:
        fit = memo.fitting(total, cap, s.assumptions.memory_headroom_gib)
        idx, mem_gib = fit[1], None  # (the lazy caller reads only the fitting rows' memory)
        sub = memo.rows(fit, "sub", lambda: {"num_gpus": c["num_gpus"][idx], "nodes": c["nodes"][idx], "_src": idx,
                                             "mem_gib": fit[2]}, keep_rows)
        sub = dict(sub)
    else:
        fit = None
        mem_gib = total / GIB
        fits = mem_gib + s.assumptions.memory_headroom_gib <= cap
        idx = np.flatnonzero(fits)
        sub = {k: v[idx] for k, v in c.items()}
        sub["mem_gib"] = mem_gib[idx]
    if not len(idx):
        return mem_gib, idx, sub
    fit_max = None
    if fit is not None and cap_max is not None and cap_max >= cap and memo.prep(ctx)["cap"] is None:
        # the memory does not depend on the card: the rows that fit the largest card hold every other's
        fit_max = memo.fitting(total, cap_max, s.assumptions.memory_headroom_gib)
    layout = None if memo is None else memo.layout(ctx, c, store, token, fit_max)
    if layout is not None:
        full, where = layout
        pos = idx if where is None else where[idx]
        if where is not None and len(pos) and int(pos.min()) < 0:
            layout = None  # a fitting row outside the kept rows (not expected: cap <= cap_max): compute them
        elif len(pos) == timing.layout_rows(full):
            layout = full  # every row (``pos`` is ascending and distinct: all of them, in order)
        else:
            layout = timing.take_layout(full, pos) if fit is None else memo.rows(
                fit, ("layout", memo.prep(ctx)["layout_key"]), lambda: timing.take_layout(full, pos), keep_rows)
    if layout is None and lazy:  # both stages on the fitting rows alone
        layout = timing.pack_layout(candidate_layout(ctx, {k: v[idx] for k, v in c.items()}, split))
    tm = candidate_times(ctx, sub, layout, split, shares=not lazy)
    idx, sub, tm = _with_times(ctx, c["tp"], idx, sub, tm)
    sub["penalty"], sub["tp_pcie"] = _layout_penalty(ctx, sub["mem_gib"], cap), _tp_pcie(ctx, c["tp"][idx])
    found = unpriced and _unpriced(ctx, sub["num_gpus"], sub["nodes"], tm["train_hours"], sub["mfu"], sub["penalty"], sub["tp_pcie"], _poor_mfu(sub))
    if found:
        rest = np.flatnonzero(~found[0])
        idx, sub = idx[rest], {k: v[rest] for k, v in sub.items()}
    if len(idx):
        _price_rows(ctx, sub)
        if found:
            unpriced[0] += _unpriced_finite(*found, rest, sub["cost"])
    return mem_gib, idx, sub


def _plain_context(ctx: SearchContext, r: Resolved) -> SearchContext:
    """``ctx`` with :attr:`SearchContext.plain`: the same GPU type and framework resolved as ``r`` (the scenario's
    defaults); ``ctx`` as it is where ``r`` cannot be timed (then every row counts as needing the savers)."""
    try:
        plain = replace(ctx, resolved=r, scenario=r.scenario, time_kwargs=_time_kwargs(r))
    except PlannerError:
        return ctx
    return replace(ctx, plain=plain)


def _unfit_default(ctx: SearchContext, c: Mapping[str, np.ndarray], total: np.ndarray, cap: float) -> np.ndarray:
    """``total`` with the rows that run with the scenario's defaults (:attr:`SearchContext.plain`: they fit in
    memory and their vLLM engine starts, as the search without savers finds them) set to infinity: a search that
    applies savers the user left unset keeps only the layouts that need them (issue 35 round 15, savers15). A new
    array (the memo's stored one is left as it is)."""
    pc = ctx.plain
    kw = memory_kwargs(pc.resolved)
    kw["offload_params"] = offload_params_applies(pc.resolved.scenario)
    mem = memory_arrays(pc.facts, **kw, tp=c["tp"], pp=c["pp"], cp=c["cp"], ep=c["ep"], dp=c["dp"],
                        zero=c["zero"], recompute=c["recompute"], mbs=c["mbs"], sp=c["sp"],
                        grad_accum=c["grad_accum"], vpp=c["vpp"],
                        offload=np.full(len(c["tp"]), bool(pc.resolved.scenario.parallel.offload_optimizer)))
    runs = np.asarray(mem["total"], dtype=float) / GIB + pc.resolved.scenario.assumptions.memory_headroom_gib <= cap
    starts = _vllm_starts(pc, c["tp"])
    if starts is not None:
        runs &= starts
    return np.where(runs, np.inf, total)


def _unfit_rows(ctx: SearchContext, c: Mapping[str, np.ndarray], total: np.ndarray, cap: float) -> np.ndarray:
    """``total`` with the rows that cannot be plans set to infinity: where unset savers are searched, those that run
    without them (:func:`_unfit_default`); where the user gave the servers' host RAM, those whose CPU offload needs
    more (:func:`_host_ram_unfit`). A new array (the memo's stored one is left as it is)."""
    if ctx.plain is not None:
        total = _unfit_default(ctx, c, total, cap)
    avail = ctx.resolved.scenario.hardware.host_ram_gib
    return total if avail is None else _host_ram_unfit(ctx, c, total, float(avail))


def _host_ram_unfit(ctx: SearchContext, c: Mapping[str, np.ndarray], total: np.ndarray, avail: float) -> np.ndarray:
    """``total`` with the rows whose CPU offload needs more host RAM per node than the user's servers have
    (``hardware.host_ram_gib``) set to infinity: such a plan does not run there, as one over the GPU's memory does
    not. The need is :func:`intake.offloaded_states` × DeepSpeed's buffer factor, as ``intake.host_ram`` counts it
    for the plan (offloaded activations, a choice the user sets, are not counted here; the plan's own line still
    says them). Issue 35 round 16 (advice16): with 512 GiB servers, the Mixtral example's #1 stayed 8 × L40S with
    the optimizer in CPU memory (1,044 GiB a server), said only in a warning. A new array."""
    r = ctx.resolved
    if not (np.any(c["offload"]) or np.any(c["offload_params"])
            or rl_model_offloaded(method_profile(r.scenario.training), r.scenario.training.framework)):
        return total
    opt, par = offloaded_states(r, trainable_params(r), tp=c["tp"], pp=c["pp"], dp=c["dp"], zero=c["zero"],
                                offload=c["offload"], offload_params=c["offload_params"], num_gpus=c["num_gpus"],
                                gpus_per_node=ctx.gpus_per_node)
    need = (np.asarray(opt) + np.asarray(par)) * OFFLOAD_BUFFER_FACTOR / GIB
    return np.where(need > avail, np.inf, total)


def _layout_penalty(ctx: SearchContext, mem_gib: np.ndarray, cap: float) -> np.ndarray:
    """The ranking penalty a row has before it is priced (core/advisor.py): memory too tight. (TP over PCIe is
    the column ``tp_pcie`` (:func:`_tp_pcie`): whether it counts is known only once the whole search has run.)"""
    sw = ctx.resolved.scenario.constraints.rules
    return advisormod.penalty(tight_mem=advisormod.tight(mem_gib, cap), switches=sw)


def _tp_pcie(ctx: SearchContext, tp: np.ndarray) -> np.ndarray:
    """Rows with TP over PCIe while the rule ``tp_over_pcie`` is on (core/advisor.py). The rule is "no TP over
    PCIe when an NVLink card fits the deadline" (issue 31): the search adds its penalty bit only when some plan
    on a card with NVLink meets the deadline and budget at the upper end of its band (:func:`nvlink_fits`);
    otherwise TP over PCIe ranks on its own time and cost (timed over PCIe, with no overlap: core/timing.py)."""
    if not ctx.resolved.scenario.constraints.rules.tp_over_pcie:
        return np.zeros(len(tp), bool)
    return np.asarray(advisormod.tp_over_pcie(ctx.gpu, tp), bool).reshape(len(tp))


def _band_risk(ctx: SearchContext, sub: dict, r: Any) -> np.ndarray:
    """Rows that meet the deadline / budget only at the point estimate: the same rental arithmetic at the upper
    end of the band (p90 training hours), in the mode each row uses (as :func:`evaluate.evaluate` does)."""
    s = ctx.resolved.scenario
    con = s.constraints
    n = len(sub["num_gpus"])
    band = ctx.band
    if band is None or (con.deadline_days is None and con.budget is None) or not con.rules.deadline_risk:
        return np.zeros(n, bool)
    hi = costmod.rental_costs(
        ctx.price, num_gpus=sub["num_gpus"], nodes=sub["nodes"], train_hours=sub["train_hours"] * band["p90"],
        ckpt_bytes=ctx.ckpt_bytes, setup_hours=ctx.setup_hours, hours_per_week=con.hours_per_week,
        phase=con.phase, overheads=ctx.overheads)
    pick = (sub["mode"], np.arange(n))
    cal = np.asarray(hi.calendar_hours, dtype=float).reshape(len(MODES), n)[pick] / 24.0
    cost = np.asarray(hi.costs, dtype=float).reshape(len(MODES), n)[pick]
    # the far end evaluate() checks: the band's upper end widened to hold the row's own estimate (advisor.band_far_end)
    cal = advisormod.band_far_end(np.asarray(sub["calendar_hours"], dtype=float) / 24.0, cal)
    cost = advisormod.band_far_end(np.asarray(sub["cost"], dtype=float), cost)
    return advisormod.at_risk(cal, cost, con.deadline_days, con.budget)


def _node_groups(ctx: SearchContext, nodes: np.ndarray) -> list[tuple[SearchContext, np.ndarray]]:
    """The rows of one context by the price that bills them (PriceTable.for_nodes, the one rule evaluate()
    reads too): ``(context with that price, row indices)``; one group when every row has the same price. Rows
    of one GPU count share their nodes, so each group is whole GPU counts, in order."""
    if getattr(ctx, "price_multi", None) is None:  # (a test's stand-in context may have no such field)
        return [(ctx, np.arange(len(nodes)))]
    nodes = np.asarray(nodes)
    groups: dict[int, tuple[Any, list]] = {}
    for n in np.unique(nodes):
        p = ctx.price if n <= 1 else ctx.table.for_nodes(ctx.gpu, int(n))
        groups.setdefault(id(p), (p, []))[1].append(n)
    return [(ctx if p is ctx.price else replace(ctx, price=p), np.flatnonzero(np.isin(nodes, ns)))
            for p, ns in groups.values()]


def _price_rows(ctx: SearchContext, sub: dict) -> None:
    """:func:`_price_rows_one` of each group of rows a price bills (:func:`_node_groups`)."""
    groups = _node_groups(ctx, sub["nodes"])
    if len(groups) == 1:
        return _price_rows_one(groups[0][0], sub)
    n = len(sub["num_gpus"])
    out = {"mode_costs": np.empty((len(MODES), n)), "mode": np.empty(n, np.int64), "cost": np.empty(n),
           "calendar_hours": np.empty(n), "penalty": np.empty(n, np.int64)}
    for c, rows in groups:
        part = {k: (v[rows] if isinstance(v, np.ndarray) and v.ndim == 1 and len(v) == n else v)
                for k, v in sub.items()}
        _price_rows_one(c, part)
        for k, v in out.items():
            if k == "mode_costs":
                v[:, rows] = part[k]
            else:
                v[rows] = np.broadcast_to(part[k], len(rows))
    sub.update(out)


def _price_rows_one(ctx: SearchContext, sub: dict) -> None:
    """The rental modes' costs of the rows ``sub`` (their ``num_gpus``, ``nodes`` and ``train_hours``), into
    ``sub``: ``mode_costs`` (modes × rows), the cheapest ``mode``, its ``cost`` and ``calendar_hours``."""
    s = ctx.resolved.scenario
    n = len(sub["num_gpus"])
    r = costmod.rental_costs(
        ctx.price, num_gpus=sub["num_gpus"], nodes=sub["nodes"], train_hours=sub["train_hours"],
        ckpt_bytes=ctx.ckpt_bytes, setup_hours=ctx.setup_hours, hours_per_week=s.constraints.hours_per_week,
        phase=s.constraints.phase, overheads=ctx.overheads, pin=s.constraints.rental_mode,
    )
    sub["mode_costs"] = np.asarray(r.costs, dtype=float).reshape(len(MODES), n)
    sub["mode"] = np.asarray(r.best).astype(np.int64, copy=False).reshape(n)
    sub["cost"] = np.asarray(r.best_cost, dtype=float).reshape(n)
    sub["calendar_hours"] = np.asarray(r.best_calendar_hours, dtype=float).reshape(n)
    risk = _band_risk(ctx, sub, r)
    sub["penalty"] = (np.asarray(sub.get("penalty", 0), dtype=np.int64) + np.where(risk, advisormod.RISK_BIT, 0)
                      + _fabric_penalty(ctx, sub["nodes"], sub["num_gpus"]))


def _fabric_penalty(ctx: SearchContext, nodes: np.ndarray, num_gpus: np.ndarray) -> np.ndarray:
    """The ``price_fabric`` bit of rows billed by ``ctx.price`` (core/advisor.py :data:`FABRIC_BIT`): over several
    nodes on a price not known to come from networked servers (PriceTable.for_nodes found no networked quote for
    the card), while the rule is on. One price bills the rows, and rows of one GPU count share their nodes, so the
    bit is the same for a row and the row that outranks it in :func:`_unpriced_one`."""
    pin = ctx.resolved.scenario.constraints.rental_mode  # (the pinned mode's quotes bill every row: one word)
    fab = advisormod.no_fabric(nodes, None if ctx.price is None else ctx.price.multi_node_for(pin), num_gpus,
                               advisormod.nvlink_domain(ctx.gpu))
    return advisormod.penalty(fabric=fab, switches=ctx.resolved.scenario.constraints.rules)


def _unpriced(ctx: SearchContext, num_gpus: np.ndarray, nodes: np.ndarray, train_hours: np.ndarray,
              mfu: np.ndarray, penalty: np.ndarray | None = None,
              tp_pcie: np.ndarray | None = None, poor: np.ndarray | None = None
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """:func:`_unpriced_one` of each group of rows a price bills (:func:`_node_groups`: whole GPU counts, so
    each row ``A`` and the rows it outranks share one price)."""
    groups = _node_groups(ctx, nodes)
    if len(groups) == 1:
        return _unpriced_one(ctx, num_gpus, nodes, train_hours, mfu, penalty, tp_pcie, poor)
    skip, first, lens = np.zeros(len(nodes), bool), [], []
    for c, rows in groups:
        pick = (lambda a: None if a is None else np.asarray(a)[rows])
        got = _unpriced_one(c, num_gpus[rows], nodes[rows], train_hours[rows], mfu[rows], pick(penalty),
                            pick(tp_pcie), pick(poor))
        if got is None:  # nothing skipped: every GPU count's first row stands for it
            cnt = num_gpus[rows]
            starts = np.concatenate(([0], np.flatnonzero(cnt[1:] != cnt[:-1]) + 1))
            got = (np.zeros(len(rows), bool), starts, np.diff(np.append(starts, len(rows))))
        skip[rows] = got[0]
        first.append(rows[got[1]])
        lens.append(got[2])
    if not skip.any():
        return None
    return skip, np.concatenate(first), np.concatenate(lens)


def _unpriced_one(ctx: SearchContext, num_gpus: np.ndarray, nodes: np.ndarray, train_hours: np.ndarray,
              mfu: np.ndarray, penalty: np.ndarray | None = None,
              tp_pcie: np.ndarray | None = None, poor: np.ndarray | None = None
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The fitting rows of one chunk (one context, GPU count ascending) that need not be priced: each is
    outranked by the fastest row of its GPU count, ``A``, under every key and mask of the search's ranking
    (:class:`_Reducer`), so a ranking that keeps one plan per GPU count never shows it. Returns ``(skip,
    first, lens)``: a mask of those rows, the rows ``A`` (one per GPU count, never skipped) and the rows of each
    GPU count; None when none is skipped.

    Within one context and GPU count (the same GPUs, nodes and prices) a row's cost and calendar in every
    rental mode (:func:`cost.rental_costs`) only grow with its training hours, so a row slower than ``A`` costs
    no less than ``A`` does (equal costs within the relative 1e-9 the mode choice already treats as equal
    aside). A row is skipped when its hours are beyond those at which even its calendar floor
    (:func:`cost.calendar_floor`: the least calendar time any mode could give it) is later than the latest
    calendar ``A``'s cheapest mode can have (:func:`cost.calendar_ceiling`, or ``A``'s priced calendar where a
    spot price that can bill the plan makes the ceiling loose; :func:`cost.hours_within_calendar`), and its MFU is no higher than
    ``A``'s and, where ``A`` fails the poor-MFU rule (``poor``: :func:`_poor_mfu`, which reads the step's
    communication share too, so a lower MFU need not fail it), it fails it too. It then finishes later and costs no less: it is neither ranked above ``A``
    (whichever of cost or time leads), nor meets a deadline or budget ``A`` misses, nor is on the time-vs-cost
    Pareto front. Its cost is finite exactly where ``A``'s is (prices and sessions are
    the context's)."""
    n = len(train_hours)
    if n < 2:
        return None
    s = ctx.resolved.scenario
    starts = np.concatenate(([0], np.flatnonzero(num_gpus[1:] != num_gpus[:-1]) + 1))
    lens = np.diff(np.append(starts, n))
    h = np.where(np.isfinite(train_hours), train_hours, np.inf)
    low = np.minimum.reduceat(h, starts)
    at = np.flatnonzero(h == np.repeat(low, lens))
    seg_at = np.searchsorted(starts, at, "right") - 1
    first = at[np.concatenate(([True], seg_at[1:] != seg_at[:-1]))]  # A: the first fastest row per GPU count
    kw = dict(num_gpus=num_gpus[first], nodes=nodes[first], ckpt_bytes=ctx.ckpt_bytes, setup_hours=ctx.setup_hours,
              hours_per_week=s.constraints.hours_per_week, overheads=ctx.overheads)
    if not costmod.spot_can_bill(ctx.price, s.constraints.rental_mode):
        ceiling, frac = costmod.calendar_ceiling(ctx.price, train_hours=low, phase=s.constraints.phase,
                                                 pin=s.constraints.rental_mode, **kw)
    else:
        # spot's calendar stretches with every preemption: the ceiling would be far above the chosen mode's
        # calendar, so A is priced and its own calendar taken (only where spot can bill the plan)
        r = costmod.rental_costs(ctx.price, train_hours=low, phase=s.constraints.phase, pin=s.constraints.rental_mode,
                                 **kw)
        ceiling, frac = r.best_calendar_hours, None
    # the hours above which a row's calendar floor is surely later than A's calendar (never below A's own)
    limit = np.maximum(costmod.hours_within_calendar(calendar_hours=ceiling, frac=frac, **kw), low)
    skip = (h > np.repeat(limit, lens)) & (h < np.inf) & (mfu <= np.repeat(np.asarray(mfu)[first], lens))
    if penalty is not None:  # (core/advisor.py: a row with a smaller layout penalty may rank above A)
        skip &= penalty >= np.repeat(np.asarray(penalty)[first], lens)
        if tp_pcie is not None:  # ... with or without the TP-over-PCIe bit (decided after the search)
            with_tp = penalty + np.where(tp_pcie, advisormod.TP_PCIE_BIT, 0)
            skip &= with_tp >= np.repeat(with_tp[first], lens)
    if poor is not None:  # (a row passing the poor-MFU rule that A fails may rank above A)
        skip &= poor | ~np.repeat(np.asarray(poor)[first], lens)
    if not skip.any():
        return None
    return skip, first, lens


def _unpriced_finite(skip: np.ndarray, first: np.ndarray, lens: np.ndarray, rest: np.ndarray,
                     cost: np.ndarray) -> int:
    """How many of the rows ``skip`` left unpriced have a finite cost: those of the GPU counts (``lens`` rows
    each) whose row ``A`` (``first``, priced among the rows ``rest``; its ``cost``) has one."""
    ok = np.isfinite(cost[np.searchsorted(rest, first)])
    if ok.all():
        return int(np.count_nonzero(skip))
    return int(np.count_nonzero(skip & np.repeat(ok, lens))) if ok.any() else 0


def _kept_rows(c: Mapping[str, np.ndarray], d: Mapping[str, np.ndarray], rows, ci: int, gi: int, part: int,
               start: int) -> dict[str, np.ndarray]:
    """What a lazy :func:`_evaluate_fitting` of context ``ci`` (GPU type ``gi``) left out, for its rows ``rows``
    only: the candidate columns (from the chunk ``c``: rows ``start`` … of part ``part``), the step's shares
    (:func:`_step_shares`), the candidate's place in the search's full list (``gidx``: context, part, row; ties
    rank in this order), its context and GPU type."""
    src = d["_src"][rows]
    out = {k: v[src] for k, v in c.items()}
    out.update(_step_shares(d, rows))
    out["gidx"] = (ci << 44) | (part << 38) | (start + src)
    out["ctx"] = np.full(len(src), ci, dtype=np.int64)
    out["gpu"] = np.full(len(src), gi, dtype=np.int64)
    return out


# ---------------------------------------------------------------------------------------------- search


def default_gpu_candidates(table: PriceTable, precision: str, custom_gpus=()) -> list[str]:
    """Catalog GPUs (and the user's own, ``custom_gpus``) with known memory, known peak at ``precision``
    and a price."""

    out = []
    gpus = load_gpus()
    gpus.update({c.id: custom_gpu_record(c) for c in custom_gpus or ()})
    for gid, g in gpus.items():
        peak = getattr(g, f"{precision}_tflops", None)
        if not g.memory_gib or not peak:
            continue
        if table.get(g) is None:
            continue
        out.append(gid)
    return out


def pareto_front(days: np.ndarray, cost: np.ndarray) -> np.ndarray:
    """Indices of the time-vs-cost Pareto front (no other point is both faster and cheaper), fastest first."""
    ok = np.isfinite(days) & np.isfinite(cost)
    idx = np.flatnonzero(ok)
    if not len(idx):
        return idx
    order = idx[np.lexsort((cost[idx], days[idx]))]
    c = cost[order]
    prev_min = np.minimum.accumulate(np.concatenate([[np.inf], c[:-1]]))
    return order[c < prev_min]


#: "fastest": plans whose calendar time is within this fraction of the fastest plan's that meets the constraints are
#: equally fast, and rank among themselves by cost (issue 35 round 8, advice8; round 9, margin9). A difference this
#: small is below what the estimate resolves. Each estimate's likely range is its framework family's band
#: (core/evaluate.py's bands, p10-p90 of the error on the published runs, resources/validation_bands.json: 9.5-15.6%
#: wide, so a half-width of 4.75-7.8%); the difference of two independent estimates spreads sqrt(2) times as much as
#: either, so even for the family the estimate knows best two plans closer than sqrt(2) x 4.75% = 6.7% cannot be told
#: apart (tests/test_expert_review_r8.py checks the constant against the stored bands). Ranking by smaller
#: differences put 64 x H100 by the month at 560,000 CNY above 64 x H800 by the hour at 509 CNY (1.7 seconds slower
#: over a 45-minute job), and, with round 9's 14% memory headroom, 8 x H100 by the month at 70,000 CNY above
#: 8 x H800 by the hour at about 200 CNY (6.3% slower than 8 x H200 over 2.4 hours, 1.6% slower than the H100 plan).
#: The plan this puts first is on the time-vs-cost Pareto front (any faster plan is in its tie group, so costs no
#: less), which the search's reducer keeps (``_Reducer._compress``). The front shown (★, the CLI's table, the report)
#: uses the same tie (:func:`tie_front`, round 9, pareto9), and this plan is its first point.
FASTEST_TIE = 0.07


def _equally_fast(days: np.ndarray, ok: np.ndarray, pen=None) -> np.ndarray:
    """The "fastest" objective's time key: the rows of ``ok`` within :data:`FASTEST_TIE` of the fastest of them take
    its time (so cost orders them); every other row keeps its own. With ``pen`` (the ranking penalty) the fastest is
    taken among the rows of the same penalty, since a penalised plan ranks after the others whatever its time (a
    4-node plan with no networked price is no yardstick for the one-node plans ranked above it)."""
    out = days
    pen = np.zeros(np.shape(days), np.int64) if pen is None else np.asarray(pen)
    for g in np.unique(pen[ok]):  # (no row of ``ok``: no group, every row keeps its time)
        sel = ok & (pen == g)
        best = float(np.min(days[sel]))
        out = np.where(sel & _within_tie(days, best), best, out)
    return out


def _within_tie(days, best: float, tie: float = FASTEST_TIE):
    """Whether ``days`` (or costs) are within ``tie`` (:data:`FASTEST_TIE`) of ``best`` (the edge itself included,
    up to rounding)."""
    return days <= best * (1.0 + tie) * (1.0 + 1e-12)


#: "cheapest": plans whose cost is within this fraction of the cheapest plan's that meets the constraints cost the
#: same to the estimate, and among them the faster ranks first (issue 35 round 15, advice15). A plan's cost is its
#: billed hours × a quoted rate (plus the setup and storage the same hours carry): the rate is the quote's, exact,
#: so the cost's likely range is its time's, the framework family's band (resources/validation_bands.json, p10-p90
#: 9.5-15.6% wide, a half-width of 4.75-7.8%), and two independent costs closer than sqrt(2) x 4.75% = 6.7% cannot
#: be told apart: :data:`FASTEST_TIE`'s argument, the same constant (tests/test_expert_review_r15.py checks it
#: against the stored bands). Without it a new user's 8B full fine-tune ranked 4 × H800 for 8.4 hours at 352 CNY
#: above 6 × H800 for 5.7 hours at 358 CNY (1.7% apart; session 14 saw 15.8 hours at 665 CNY above 7.9 hours at 667):
#: the same money within the estimate, a third less waiting, and a senior engineer rents the second. Inside the
#: tie, plans also within :data:`FASTEST_TIE` of the fastest of them are equally fast and the cheaper ranks first
#: (two plans that neither time nor cost tells apart keep the objective's order) (:func:`_equally_cheap`).
CHEAPEST_TIE = FASTEST_TIE


def _equally_cheap(days: np.ndarray, cost: np.ndarray, ok: np.ndarray, pen=None) -> tuple[np.ndarray, np.ndarray]:
    """The "cheapest" objective's keys ``(time, cost)`` with its price tie (:data:`CHEAPEST_TIE`): the rows of ``ok``
    within the tie of the cheapest of them take its cost, and among those the rows within :data:`FASTEST_TIE` of
    the fastest of them take its time, so the faster ranks first unless time cannot tell them apart either (then
    the cost does); every other row keeps its own figures. With ``pen`` (the ranking penalty) the cheapest is taken
    among the rows of the same penalty, as :func:`_equally_fast` takes the fastest."""
    c_out, d_out = cost, days
    pen = np.zeros(np.shape(cost), np.int64) if pen is None else np.asarray(pen)
    for g in np.unique(pen[ok]):  # (no row of ``ok``: no group, every row keeps its figures)
        sel = ok & (pen == g)
        best = float(np.min(cost[sel]))
        group = sel & _within_tie(cost, best, CHEAPEST_TIE)
        c_out = np.where(group, best, c_out)
        fastest = float(np.min(days[group]))
        d_out = np.where(group & _within_tie(days, fastest), fastest, d_out)
    return d_out, c_out


def _rank(objective: str, days, cost, per_pflop, deadline, budget, poor=None, above=None):
    """Order of candidates and whether the constraints could be met.

    ``poor`` (the ranking penalty, :func:`_penalty_of`; its ``POOR_BIT`` the ``mfu_grade`` rule): candidates with a
    penalty rank after those without among the candidates that meet the constraints — unless none of the acceptable
    ones does (then they rank as usual). With ``above`` (graded above poor, :func:`_above_poor`) the poor-MFU bit
    is read as :func:`_poor_lift` does: after the best plan graded above poor, then by the objective."""
    meets = np.ones(len(days), bool) if deadline is None else days <= deadline
    within = np.ones(len(days), bool) if budget is None else cost <= budget
    finite = np.isfinite(days) & np.isfinite(cost)
    if objective == "fastest":
        ok = within & finite
        # equally fast plans by cost (FASTEST_TIE); at the same cost (one monthly price for two layouts) the faster
        keys = (days, cost, _equally_fast(days, ok, poor))
    elif objective == "value":
        ok = meets & within & finite
        keys = (days, per_pflop)
    else:
        ok = meets & finite
        # equally cheap plans (CHEAPEST_TIE) by time, then by cost
        keys = (days, cost) + _equally_cheap(days, cost, ok, poor)
    feasible = bool(ok.any())
    if not feasible:
        ok = finite
        # nothing meets the constraint: closest first (fastest when the deadline binds, cheapest for the budget),
        # among the plans with the least penalty but the deadline's own (:func:`_closest_penalty`)
        keys = (days, cost) if objective == "fastest" else (cost, days)
        if poor is not None:
            keys = keys + (_closest_penalty(poor),)
    elif poor is not None and above is not None:
        keys = _poor_lift(keys, np.asarray(poor, dtype=np.float64), ok & np.asarray(above, bool))
    elif poor is not None:
        # the penalty (core/advisor.py; MFU graded poor among it): plans with a penalty rank after those without
        keys = keys + (np.asarray(poor, dtype=np.float64),)
    idx = np.flatnonzero(ok)
    order = idx[np.lexsort(tuple(k[idx] for k in keys))]
    return order, feasible, meets, within


def _poor_lift(keys: tuple, pen: np.ndarray, above_ok: np.ndarray) -> tuple:
    """The ``mfu_grade`` rule as one sort key (issue 35 round 6, advice5). A plan whose poor MFU comes from the
    interconnect (``POOR_BIT``) ranks after the best plan graded above poor that meets the constraints (``above_ok``),
    then by the objective among the rest: its objective figure (cost for "cheapest", days for "fastest", cost per
    PFLOP for "value") counts as at least that plan's. Before, it ranked after every plan not penalised, poor ones
    from compute-side work included, which put 16 × H100 by the month at 140,000 CNY above 16 × H800 by the hour at
    250 CNY (both poor) only because a fair H20 plan was also on the list, and by cost when it was not; with the
    bits as the first key, "after the good plans, by cost among the poor ones" cannot be one order (it cycles:
    poor-from-compute 100 < fair 300 < poor-from-links 50 < poor-from-compute 100). Plan #1 is the same under both
    (the best plan graded above poor is never beaten by a lifted one). The penalty bits above the poor one stay
    first; the one below it (tight memory) orders the plans before the objective's figure, as before."""
    bits = pen.astype(np.int64)
    lift = (bits & advisormod.POOR_BIT) != 0
    hi = bits & ~(2 * advisormod.POOR_BIT - 1)  # the penalty bits above the poor one (risk, TP over PCIe) stay first
    lo = bits & (advisormod.POOR_BIT - 1)       # those below it (tight memory) rank inside, as before
    r = np.empty(len(bits), np.int64)
    r[np.lexsort(tuple(keys) + (lo,))] = np.arange(len(bits))  # each row's place by (lo, the objective's keys)
    lifted = r.copy()
    for h in np.unique(hi[lift]):
        ref = above_ok & (hi == h) & ~lift
        if ref.any():  # the best plan graded above poor with the same higher bits: a lifted row ranks after it
            lifted = np.where(lift & (hi == h), np.maximum(r, int(r[ref].min())), lifted)
    # lexsort: the last key first; a lifted row tied with that plan ranks after it, lifted rows keep their own order
    return (r.astype(np.float64), lift.astype(np.float64), lifted.astype(np.float64), hi.astype(np.float64))


def _rank_lines(plans: list, chosen, order, cat, feasible: bool, con: Any, objective: str, cur: str,
                contexts=None, listed=None) -> None:
    """One line per plan shown, first in its explanation: why it ranks where it does (issue 35 round 6, advice5:
    "a line per plan says why it ranks where it does"), read from the ranking's own keys (:func:`_rank`,
    :func:`_poor_lift`); with ``contexts``, #1's :func:`_fabric_ahead_line` after its own. ``listed``: the rows of
    the list at its full length (the Plans page's; ``chosen`` is its first rows), whose places a line names."""
    if feasible and contexts is not None:
        _rank_lines(plans, chosen, order, cat, feasible, con, objective, cur, listed=listed)
        return _fabric_ahead_line(plans, chosen, order, cat, contexts, con, objective, cur)
    order = np.asarray(order, dtype=np.int64)
    pen = _penalty_of(cat, con.rules.mfu_grade).astype(np.int64)
    key = {"fastest": cat["calendar_hours"] / 24.0}.get(objective, cat["cost"])
    hi = pen & ~(2 * advisormod.POOR_BIT - 1)
    # the rows graded above poor and not penalised for it, in ranked order: each plan's best_above is the first
    # with its higher penalty bits
    above_ok = order[(_above_poor(cat) & ((pen & advisormod.POOR_BIT) == 0))[order]]
    tie = _tie_ahead(order, key, feasible and objective in ("fastest", "cheapest"), pen, chosen,
                     CHEAPEST_TIE if objective == "cheapest" else FASTEST_TIE)
    if objective == "cheapest" and len(chosen):  # the price tie said of #1's ranking group (another's is its rule's)
        tie = {k: v for k, v in tie.items() if pen[k] == pen[int(chosen[0])]}
    firsts: dict[int, int | None] = {}
    for n, (i, plan) in enumerate(zip(chosen, plans), start=1):
        i = int(i)
        if int(hi[i]) not in firsts:
            same = above_ok[hi[above_ok] == hi[i]]
            firsts[int(hi[i])] = int(same[0]) if len(same) else None
        best_above = firsts[int(hi[i])]
        at = np.flatnonzero(order == i)
        args = {"n": n, "rank": int(at[-1]) + 1 if len(at) else 1}
        if not feasible:
            text = QT_TRANSLATE_NOOP(CTX, "Ranks #{n}: no plan meets the constraints, so the closest come first.")
        elif (pen[i] & ~advisormod.POOR_BIT) and n > 1:
            rule = advisormod.first_rule(pen[i], skip=advisormod.POOR_BIT)
            args["rule"] = _rule_name(rule)  # the rule's name, as its check line says it
            text = QT_TRANSLATE_NOOP(CTX, "Ranks #{n}: after the plans that pass the planning rule “{rule}”, then by "
                                          "the objective.")
        elif pen[i] & advisormod.POOR_BIT and best_above is not None and key[i] < key[best_above]:
            args.update(mfu=float(rulesmod.printed_mfu(_training_mfu(cat))[i]),
                        cost=float(cat["cost"][best_above]), days=float(cat["calendar_hours"][best_above] / 24.0),
                        span=elapsed_msg(float(cat["calendar_hours"][best_above] / 24.0)),
                        cur=cur)
            text = QT_TRANSLATE_NOOP(CTX, "Ranks #{n}: its MFU of {mfu:.0%} is poor and fails the planning rule "
                                          "“MFU grade” (from the interconnect, or untested kernels), so it ranks after the "
                                          "best plan graded above poor ({cost:,.0f} {cur}, {span}); then "
                                          "by the objective.")
        elif pen[i] & advisormod.FABRIC_BIT:
            text = QT_TRANSLATE_NOOP(CTX, "Ranks #{n}: no plan that meets the constraints has a price from networked "
                                          "servers, so the best by the objective comes first, though its price "
                                          "buys no network between its nodes (planning rule “networked multi-node "
                                          "price”).")
        elif i in tie and objective == "cheapest":
            anchor = _tie_anchor(order, cat, pen, i)
            shown = [int(j) for j in (chosen if listed is None else listed)]
            # (its place only when it is another plan: "the cheapest plan it is ranked with" of the cheapest is itself)
            k = shown.index(anchor) + 1 if anchor in shown and anchor != i else None
            text = _price_tie_line(args, tie[i], anchor, cat, cur, k)
        elif i in tie and tie[i] < 0:  # faster than a plan ranked above it, inside the tie: ranked by cost
            args.update(tie=FASTEST_TIE)
            text = QT_TRANSLATE_NOOP(CTX, "Ranks #{n}: faster than a plan above it, but both are within {tie:.0%} "
                                          "of the fastest plan, a difference the estimate cannot tell apart, so the "
                                          "cheaper ranks first.")
        elif i in tie:
            args.update(gap=max(tie[i], 0.001), tie=FASTEST_TIE)  # under 0.1% reads "0.1%", never "0.0% slower"
            args.update(gap_d=_gap_decimals(args["gap"], FASTEST_TIE))
            text = QT_TRANSLATE_NOOP(CTX, "Ranks #{n}: {gap:.{gap_d}%} slower than the fastest plan; plans within "
                                          "{tie:.0%} of it are equally fast to the estimate, so it ranks by cost among "
                                          "them.")
        elif n == 1 and pen[i]:  # every plan left fails a rule: #1 must not say it passes them (advice10)
            args["rule"] = _rule_name(advisormod.first_rule(pen[i]))
            text = QT_TRANSLATE_NOOP(CTX, "Ranks #{n}: no plan that meets the constraints passes every ranking rule, "
                                          "so the best by the objective among those that fail the least comes "
                                          "first; this one fails the planning rule “{rule}” (its check below).")
        elif n == 1:
            text = RANK_FIRST
        else:
            text = RANK_NEXT
        plan.explanation.insert(0, Msg(CTX, text, args))
        plan.head_lines += 1


def _tie_anchor(order, cat, pen, i: int) -> int:
    """The cheapest ranked row with row ``i``'s penalty: the plan the price tie of :func:`_equally_cheap` is read
    from."""
    same = [int(j) for j in order if pen[j] == pen[i]]
    return min(same, key=lambda j: float(cat["cost"][j]))


def _gap_decimals(gap: float, tie: float) -> int:
    """The decimals of a rank line's gap printed beside its tie (formatting.share_decimals: "6.97% dearer … within
    7%", never "7.0%"; the tie compares the unrounded share, :data:`CHEAPEST_TIE`)."""
    from ..formatting import share_decimals  # pure Python, no Qt: the core stays pure

    return share_decimals(gap, tie)


def _price_tie_line(args: dict, gap: float, anchor: int, cat, cur: str, rank: int | None = None) -> str:
    """The rank line of a plan the "cheapest" objective's price tie placed (:data:`CHEAPEST_TIE`, :func:`_tie_ahead`'s
    ``gap``: how much dearer than the cheapest plan of its tie group, row ``anchor``, or -1.0 for a plan ranked
    after a dearer one of its group); fills ``args``. ``rank``: the anchor's place in the list shown, so the line
    names a plan the reader can find (ux28: "(¥109, 18.6 hours)" named a plan not in the table); None when the
    list does not show it."""
    days = float(cat["calendar_hours"][anchor]) / 24.0
    return _price_tie_text(args, gap, float(cat["cost"][anchor]), days, cur, rank)


def _price_tie_text(args: dict, gap: float, cost: float, days: float, cur: str, rank: int | None) -> str:
    """:func:`_price_tie_line`'s sentence from the anchor's figures (its cost and calendar days)."""
    args.update(tie=CHEAPEST_TIE, cost=cost, cur=cur, span=elapsed_msg(days))
    if rank is not None:
        args.update(k=rank)
    if gap < 0:  # cheaper than a plan ranked above it, inside the tie: the faster ranks first
        return PRICE_TIE_CHEAPER if rank is None else PRICE_TIE_CHEAPER_SHOWN
    args.update(gap=max(gap, 0.001))  # under 0.1% reads "0.1%", never "0.0% dearer"
    args.update(gap_d=_gap_decimals(args["gap"], CHEAPEST_TIE))
    return PRICE_TIE_DEARER if rank is None else PRICE_TIE_DEARER_SHOWN


#: :func:`_price_tie_text`'s sentences: the anchor named by its figures, and by its place in the list when shown
PRICE_TIE_CHEAPER = QT_TRANSLATE_NOOP(CTX, "Ranks #{n}: cheaper than a plan above it, but both cost within {tie:.0%} "
                                           "of the cheapest plan it is ranked with ({cost:,.0f} {cur}, {span}), a "
                                           "difference the estimate cannot tell apart, so the faster ranks first.")
PRICE_TIE_CHEAPER_SHOWN = QT_TRANSLATE_NOOP(CTX, "Ranks #{n}: cheaper than a plan above it, but both cost within "
                                                 "{tie:.0%} of the cheapest plan it is ranked with (#{k}: {cost:,.0f} "
                                                 "{cur}, {span}), a difference the estimate cannot tell apart, so the "
                                                 "faster ranks first.")
PRICE_TIE_DEARER = QT_TRANSLATE_NOOP(CTX, "Ranks #{n}: {gap:.{gap_d}%} dearer than the cheapest plan it is ranked "
                                          "with ({cost:,.0f} {cur}, {span}); plans within {tie:.0%} of its cost cost "
                                          "the same to the estimate, so it ranks by time among them.")
PRICE_TIE_DEARER_SHOWN = QT_TRANSLATE_NOOP(CTX, "Ranks #{n}: {gap:.{gap_d}%} dearer than the cheapest plan it is "
                                                "ranked with (#{k}: {cost:,.0f} {cur}, {span}); plans within {tie:.0%} "
                                                "of its cost cost the same to the estimate, so it ranks by time among "
                                                "them.")
PRICE_TIE_LINES = (PRICE_TIE_CHEAPER, PRICE_TIE_CHEAPER_SHOWN, PRICE_TIE_DEARER, PRICE_TIE_DEARER_SHOWN)


#: the rank lines of a plan ranked by the objective alone: the first, and the others (:func:`_rank_lines`,
#: renumbered by :func:`_renumbered` when the search merges its saver searches' plans)
RANK_FIRST = QT_TRANSLATE_NOOP(CTX, "Ranks #{n}: the best plan by the objective among those that meet the constraints "
                                    "and pass the ranking rules.")
RANK_NEXT = QT_TRANSLATE_NOOP(CTX, "Ranks #{n}: next by the objective (the list shows one layout per GPU type and "
                                   "count).")


def _fabric_ahead_line(plans: list, chosen, order, cat, contexts, con: Any, objective: str, cur: str) -> None:
    """#1's second line when a plan better by the objective ranks after it only for want of a networked price
    (issue 35 round 8, advice9). ``price_fabric`` (advisor :data:`FABRIC_BIT`) ranks a multi-node plan priced from
    single machines after every plan with a price of the kind it rents, so #1 can be 8 × H200 by the month at
    94,000 CNY for a 2-hour job while 16 × H20 over 2 nodes would cost 286 CNY, or 256 × A100 (the only networked
    lease) at 1.1M CNY over 64 × H800 at 0.29M. The rank is kept (the 286 CNY buys no network); the line says which
    plan that is, at what figures, and what to ask for, so the reader knows the cheaper road and its condition."""
    if not plans or not len(order):
        return
    pen = _penalty_of(cat, con.rules.mfu_grade).astype(np.int64)
    i = int(chosen[0])
    if pen[i] & advisormod.FABRIC_BIT:
        return
    key = cat["calendar_hours"] / 24.0 if objective == "fastest" else cat["cost"]
    lim = float(key[i]) / (1.0 + FASTEST_TIE) if objective == "fastest" else float(key[i])
    # held back only for want of a networked price: its other failed rules are #1's too (a plan that is also at
    # risk for the deadline, or tight on memory where #1 is not, is no better rent at any price)
    others = np.int64(~advisormod.FABRIC_BIT)
    j = next((int(j) for j in order if pen[j] & advisormod.FABRIC_BIT and (pen[j] & others & ~pen[i]) == 0
              and float(key[j]) < lim), None)
    if j is None:
        return
    cj = contexts[int(cat["ctx"][j])]
    n = int(cat["num_gpus"][j])
    args = {"n": n, "gpu": cj.gpu.name, "nodes": units_nodes(n, cj.gpus_per_node),
            "cost": float(cat["cost"][j]), "cur": cur, "days": float(cat["calendar_hours"][j]) / 24.0,
            "span": elapsed_msg(float(cat["calendar_hours"][j]) / 24.0),
            "rule": _rule_name("price_fabric")}
    plans[0].explanation.insert(plans[0].head_lines, Msg(CTX, HELD_BACK_LINE, args))
    plans[0].head_lines += 1


#: #1's line naming a better plan held back by the networked-quote rule (under #1's rank line: ``Plan.head_lines``).
HELD_BACK_LINE = QT_TRANSLATE_NOOP(
    CTX, "A better plan by the objective ranks after this one: {n} × {gpu} over {nodes} nodes, {cost:,.0f} {cur} "
         "for {span}, but its price is not from a quote for networked servers and buys no network "
         "between them (planning rule “{rule}”). Ask a vendor to quote {nodes} networked servers of that card "
         "(InfiniBand or RoCE) before you rent this plan: if that plan still costs about {cost:,.0f} {cur} with "
         "the network, rent it instead.")


def _tie_ahead(order: np.ndarray, days: np.ndarray, fastest: bool, pen=None, rows=None,
               tie: float = FASTEST_TIE) -> dict[int, float]:
    """The rows whose rank the "fastest" objective's tie decided (:data:`FASTEST_TIE`, read as :func:`_equally_fast`
    does: within the tie of the fastest row of the same penalty): a row ranked ahead of a faster row of its tie
    group, with how much slower it is than that group's fastest (a fraction > 0), and a row ranked after a slower
    one of its group (-1.0: faster than a plan above it, ranked by cost). Empty unless ``fastest`` (the objective
    has a tie). The "cheapest" objective's price tie reads the same with costs for ``days`` and ``tie`` =
    :data:`CHEAPEST_TIE` (:func:`_equally_cheap`). ``rows``: only these rows are classified (the plans shown);
    every ranked row otherwise."""
    if not fastest or not len(order):
        return {}
    d = np.asarray(days, dtype=np.float64)[order]
    g = np.zeros(len(order)) if pen is None else np.asarray(pen, dtype=np.float64)[order]
    best_of = {float(x): float(d[g == x].min()) for x in np.unique(g)}  # each penalty group's fastest, once
    at = {int(i): k for k, i in enumerate(order)}
    out: dict[int, float] = {}
    for i in (order if rows is None else rows):
        k = at.get(int(i))
        if k is None:
            continue
        best = best_of[float(g[k])]
        if not _within_tie(d[k], best, tie):
            continue  # not in its group's tie: ranked by its own time
        group = (g == g[k]) & _within_tie(d, best, tie)
        if (group[k + 1:] & (d[k + 1:] < d[k])).any():
            out[int(i)] = float(d[k] / best - 1.0)
        elif (group[:k] & (d[:k] > d[k])).any():
            out[int(i)] = -1.0
    return out


def _above_poor(d: Mapping[str, np.ndarray]) -> np.ndarray:
    """Rows graded above poor on the training passes' MFU (the grade the plan prints: rules.printed_mfu)."""
    m = rulesmod.printed_mfu(_training_mfu(d))
    return np.isfinite(m) & (m >= _poor_line(d))


def _poor_line(d: Mapping[str, np.ndarray]):
    """The rows' poor lines (``poor_below``: each row's class's, rules.grade_bands), else the guide's 30%."""
    return d["poor_below"] if "poor_below" in d else rulesmod.MFU_POOR_BELOW


#: the length of the ranked list the app shows (``ui/engine.search_plans``): shorter lists are its first rows
RANKED_LIST_LENGTH = 20


def _diverse(order: np.ndarray, gpu_idx: np.ndarray, num_gpus: np.ndarray, top: int) -> np.ndarray:
    """The ``top`` best of ``order`` with one layout per (GPU type, count), at most ``ceil(top / types)`` per
    GPU type while other types still have plans; the result stays in ranking order."""
    key = gpu_idx[order] * 10_000_000 + num_gpus[order]
    _, first = np.unique(key, return_index=True)
    ranked = order[np.sort(first)]
    types = np.unique(gpu_idx[ranked])
    per_type = max(1, math.ceil(top / max(len(types), 1)))
    taken: list[int] = []
    count: dict[int, int] = {}
    for i in ranked:
        gi = int(gpu_idx[i])
        if count.get(gi, 0) < per_type:
            taken.append(int(i))
            count[gi] = count.get(gi, 0) + 1
            if len(taken) == top:
                break
    if len(taken) < top:
        rest = [int(i) for i in ranked if int(i) not in set(taken)]
        taken += rest[: top - len(taken)]
    pos = {int(i): k for k, i in enumerate(ranked)}
    return np.array(sorted(taken, key=pos.__getitem__), dtype=np.int64)


def _resolved_for(base, gpu, gpus_per_node: int, framework: str | None = None):
    """``base`` with the scenario's hardware switched to ``gpu`` (its own links inside the server, unless it is
    the scenario's GPU) and, when given, the framework to ``framework``. The network between servers the user
    chose (``inter_node``, ``nics_per_node``) is kept for every GPU: it is the user's data centre, not a property
    of the card; without a choice each GPU gets its generation's usual fabric."""
    s = base.scenario
    same = s.hardware.gpu == gpu.id
    hw = s.hardware.model_copy(update={
        "gpu": gpu.id, "gpus_per_node": gpus_per_node, "intra_node": s.hardware.intra_node if same else None,
    })
    upd: dict[str, Any] = {"hardware": hw}
    if framework is not None and framework != s.training.framework:
        upd["training"] = s.training.model_copy(update={"framework": framework})
    return replace(base, scenario=s.model_copy(update=upd), gpu=gpu)


def _time_kwargs(r) -> dict:

    return timing.time_kwargs(r)[0]


def searched_frameworks(s: Scenario, is_moe: bool = False, arch=None) -> tuple[tuple[str, ...], bool]:
    """The frameworks the search tries for ``s`` and whether it chooses among them: the scenario's own unless
    ``constraints.search_frameworks``; then every framework of the table that runs the training method
    (:func:`frameworks.frameworks_for`), among ``constraints.framework_candidates`` when given, and that trains
    the model (``arch``: :func:`frameworks.model_unsupported`, a vision-language model or a model outside a tool's
    registry)."""
    con = s.constraints
    if not con.search_frameworks:
        return (s.training.framework,), False
    fws = frameworks_for(s.training.method, con.framework_candidates, s.training.objective)
    if not fws:
        return (s.training.framework,), False
    fws = _train_the_model(fws, arch, s.training.method)
    if getattr(s.training, "liger_kernel", False):
        # Liger Kernel patches Hugging Face models only (scenario.NO_LIGER): the search keeps the stacks that run them
        fws = tuple(f for f in fws if f not in ("megatron", "megatron-swift", "unsloth")) or fws
    if s.training.empty_cache_steps is not None:
        # the Hugging Face Trainer's torch_empty_cache_steps (scenario.EMPTY_CACHE_ENGINES): the stacks on it only
        fws = tuple(f for f in fws if engine_of(f) in EMPTY_CACHE_ENGINES) or fws
    if getattr(s.training.rl, "offload_model", False) and s.training.objective in ("ppo", "grpo"):
        # the training model in CPU memory while vLLM generates: a Megatron-SWIFT setting (frameworks.RL_OFFLOAD_MODEL_TOOLS)
        fws = tuple(f for f in fws if f in RL_OFFLOAD_MODEL_TOOLS) or fws
    # rollouts by the training model's generate(): not the tools that generate with vLLM only (RL_VLLM_ONLY_TOOLS)
    fws = tuple(f for f in fws if not rl_engine_unrun(f, s.training.objective, s.training.rl.generation_engine)) or fws
    if getattr(s.training.rl, "hybrid_engine", False) and s.training.objective in ("ppo", "grpo"):
        # DeepSpeed-Chat's Hybrid Engine (frameworks.RL_HYBRID_ENGINE_TOOLS; methods.method_profile reads it on those
        # tools only): the search runs them, though the default RL tool list leaves DeepSpeed out
        # (frameworks.frameworks_for), so the user's switch is never silently off (scenario._check_hybrid_candidates
        # refuses a candidate list without them)
        fws = frameworks_for(s.training.method, RL_HYBRID_ENGINE_TOOLS, "sft") or fws
    if not getattr(s.training, "cut_cross_entropy", True):
        # an Unsloth version before Cut Cross-Entropy (scenario.cut_cross_entropy): only Unsloth is that tool
        fws = tuple(f for f in fws if f == "unsloth") or fws
    if is_moe and not con.framework_candidates:
        # an MoE model: the frameworks with expert parallelism, where the method has one (the user widens the
        # list with constraints.framework_candidates)
        ep = tuple(f for f in fws if FRAMEWORKS[f].expert_parallel) or _moe_tools(s, fws, arch)
        fws = ep or fws
    if getattr(s.training, "fsdp2_fp32_upcast", False):
        # Accelerate's FSDP2 preparation (frameworks.fsdp2_upcast_applies): the FSDP engine only
        fws = tuple(f for f in fws if engine_of(f) == "fsdp") or fws
    if getattr(s.training, "qlora_no_upcast", False):
        # QLoRA without prepare_model_for_kbit_training's fp32 cast: the tools whose loader casts by default
        # (frameworks.qlora_no_upcast_allowed, the rule scenario._check_fsdp_no_sync refuses the user's framework by)
        fws = tuple(f for f in fws if qlora_no_upcast_allowed(f, s.training.method)) or fws
    if getattr(s.training, "mixed_precision_off", False):
        # the Hugging Face Trainer without --bf16 (frameworks.mixed_precision_off_allowed): engine hf only
        fws = tuple(f for f in fws if engine_of(f) == "hf") or fws
    if getattr(s.training, "logits_held", False):
        # the fp32 logits held through backward exist on Hugging Face modelling code's eager loss only
        # (frameworks.logits_held_unpriced, the rule scenario._check_logits_held refuses the user's framework by)
        fws = tuple(f for f in fws
                    if logits_held_unpriced(s.training.model_copy(update={"framework": f})) is None) or fws
    if getattr(s.training, "use_cache", False):
        # the key/value cache a Hugging Face model returns while training (memory.returned_kv_cache_bytes): the
        # engines that run Hugging Face modelling code only, so the user's choice is priced on every candidate
        fws = tuple(f for f in fws if use_cache_applies(f)) or fws
    if getattr(s.training, "lora_layer", "peft") != "peft":
        # NeMo AutoModel's LoRA linears patch Hugging Face models (frameworks.lora_layer_applies, the rule
        # scenario._check_lora_layer refuses the others by): the stacks that run them, after the MoE tools are added
        # (parity14: an MoE LoRA search with the layer ranked Megatron-SWIFT's plans #1, which estimate refused);
        # scenario._check_lora_layer_candidates refuses a candidate list with none of them
        fws = tuple(f for f in fws if not own_lora_layers(f)) or fws
    return fws, True


#: Tools whose own documentation gives parameter-efficient training of MoE models with expert parallelism:
#: ms-swift docs v3.10 "Megatron-SWIFT / Quick start" (the method table: LoRA ✓ with MoE ✓; "we recommend using
#: Megatron-SWIFT for MoE training"), and "Megatron-SWIFT Training" (Qwen3-30B-A3B on 16 × A100: 9.6 s/it against
#: 91.2 s/it with DeepSpeed ZeRO-3). Megatron-Bridge's PEFT with Megatron-FSDP on MoE is not documented: left out.
MOE_PEFT_TOOLS = ("megatron-swift",)


def _moe_tools(s: Scenario, fws: tuple[str, ...], arch=None) -> tuple[str, ...]:
    """An MoE model whose method no listed framework runs with expert parallelism (LoRA: Megatron-LM has no
    PEFT): the listed frameworks plus the :data:`MOE_PEFT_TOOLS` that run the method and objective. Empty when
    none does."""
    t = s.training
    extra = tuple(f for f in MOE_PEFT_TOOLS if f not in fws and FRAMEWORKS[f].expert_parallel
                  and t.method in FRAMEWORKS[f].methods and t.objective in FRAMEWORKS[f].objectives)
    extra = _train_the_model(extra, arch, t.method, keep_all=False)
    return fws + extra if extra else ()


def _train_the_model(fws: tuple[str, ...], arch, method: str, keep_all: bool = True) -> tuple[str, ...]:
    """``fws`` less the frameworks that do not train ``arch`` (:func:`frameworks.model_unsupported`: Megatron-LM and
    torchtitan/torchtune with a vision-language model, Megatron-SWIFT outside ms-swift's Megatron registry — issue
    35 round 6, advice4: a Qwen2-VL plan #1 on Megatron-Core, a Mixtral LoRA on Megatron-SWIFT). When none is left
    the list is kept (``keep_all``): the user's own candidates, each plan then warned (evaluate)."""
    if arch is None:
        return fws
    kept = tuple(f for f in fws if model_unsupported(f, arch.model_type, bool(arch.vision_kind), arch.name,
                                                     method) is None)
    return kept or (fws if keep_all else ())


def _why_not_default(gpu, table: PriceTable, precision: str) -> Msg | None:
    """Why the default candidate list leaves a catalog GPU out (None: it is in)."""
    if not gpu.memory_gib:
        return Msg(CTX, QT_TRANSLATE_NOOP(CTX, "memory size unknown"), {})
    if not getattr(gpu, f"{precision}_tflops", None):
        return Msg(CTX, QT_TRANSLATE_NOOP(CTX, "no {precision} peak in the catalog"), {"precision": precision})
    if table.get(gpu) is None:
        return _no_price(table, gpu)
    return None


def _no_price(table: PriceTable, gpu=None) -> Msg:
    home = table.region or region_for_currency(table.currency)
    if getattr(gpu, "market", None) not in (None, home):
        # a card sold only in the other region (gpus.json ``market``): no default converted from there
        return Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "sold only in {market}: no {region} quote — rent it there (constraints.region) or enter a quote"),
            {"market": _region_msg(gpu.market), "region": _region_msg(home)})
    if table.region:
        return Msg(CTX, QT_TRANSLATE_NOOP(CTX, "no price in {region} — enter a quote"),
                   {"region": _region_msg(table.region)})
    return Msg(CTX, QT_TRANSLATE_NOOP(CTX, "no price — enter a quote"), {})


REGION_NAMES = {"mainland_china": QT_TRANSLATE_NOOP(CTX, "mainland China"),
                "worldwide": QT_TRANSLATE_NOOP(CTX, "worldwide")}


def _region_msg(region: str) -> Msg:
    """A rental region's name as a message (translated where it is shown)."""
    return Msg(CTX, REGION_NAMES.get(region, region), {})


def _candidate_gpus(gpu_ids, custom_gpus) -> list:
    """The catalog (or custom) record of each candidate id; an unknown id names the field it came from,
    ``constraints.gpu_candidates``, as every other check of the scenario does (probe13)."""
    try:
        return [lookup_gpu(gid, custom_gpus) for gid in gpu_ids]
    except CatalogError as err:
        raise ScenarioError(err.args[0], field="constraints.gpu_candidates") from None


def iter_contexts(scenario: Scenario, models: ModelSource | None = None, *, prices: PriceTable | None = None,
                  overheads: Overheads | None = None, skipped: dict[str, Msg] | None = None,
                  rules_on: bool = True, unfit_under: Scenario | None = None):
    """One :class:`SearchContext` per candidate GPU type (``constraints.gpu_candidates``, else every priced catalog
    GPU) and framework (:func:`searched_frameworks`); GPUs left out are in ``skipped`` with the reason (no price,
    unknown memory, below the card class ...). ``rules_on``: apply the card, node and pipeline rules of
    ``constraints.rules``. ``unfit_under``: ``scenario`` without its savers (:attr:`SearchContext.plain`)."""

    s, con = scenario, scenario.constraints
    table = prices or PriceTable.from_constraints(con)
    ov = overheads or Overheads()
    skipped = {} if skipped is None else skipped
    arch = resolve_arch(s.model, models)
    facts = _facts_for(arch)
    base, plain = (Resolved(scenario=x, arch=arch, facts=facts, gpu=None) if x is not None else None
                   for x in (s, unfit_under))
    trainable = trainable_params(base)
    tokens = float(s.data.tokens)
    ci = cost_inputs(s, arch, facts.params.total, trainable, ov)
    mf_tok = float(model_flops_per_token(facts, s.training.seq_len, method=s.training.method,
                                         lora_rank=s.training.lora_rank, lora_targets=s.training.lora_targets))
    target = target_batch_seqs(s)
    if con.gpu_candidates:
        gpu_ids = list(con.gpu_candidates)
    else:
        gpu_ids = default_gpu_candidates(table, s.training.precision, s.hardware.custom_gpus)
        everything = load_gpus()
        everything.update({c.id: custom_gpu_record(c) for c in s.hardware.custom_gpus})
        for gid, g in everything.items():
            if gid not in gpu_ids:
                why = _why_not_default(g, table, s.training.precision)
                if why is not None:
                    skipped[gid] = why
    fws, searched = searched_frameworks(s, bool(arch.is_moe), arch)
    gpus = _candidate_gpus(gpu_ids, s.hardware.custom_gpus)
    _check_network_id(s)  # an unknown hardware.inter_node: one line naming it, as estimate says (probe14)
    # card class (planning rule): cards below it are left out while a candidate of the class exists
    params_total = float(facts.params.total)
    card_rule = (rules_on and con.rules.card_class
                 and rulesmod.card_class_applies(params_total, bool(arch.is_moe), s.training.method)
                 and any(not rulesmod.card_class_fails(params_total, False, s.training.method, g.memory_gib or 0)
                         and table.get(g) is not None for g in gpus))
    for gpu in gpus:
        price = table.get(gpu)
        if price is None:
            skipped[gpu.id] = _no_price(table, gpu)
            continue
        if con.rental_mode is not None and not price.has_mode(con.rental_mode):
            skipped[gpu.id] = Msg(CTX, QT_TRANSLATE_NOOP(
                CTX, "no {mode} price, the rental mode set in the scenario (constraints.rental_mode) — enter a quote"),
                {"mode": Msg("Cost", MODE_LABELS[con.rental_mode], {})})
            continue
        if not gpu.memory_gib:
            skipped[gpu.id] = Msg(CTX, QT_TRANSLATE_NOOP(CTX, "memory size unknown"), {})
            continue
        if card_rule and rulesmod.card_class_fails(params_total, False, s.training.method, gpu.memory_gib):
            skipped[gpu.id] = Msg(CTX, QT_TRANSLATE_NOOP(
                CTX, "below the card class: full training of a {b} dense model wants cards with ≥80 GB "
                     "(allow smaller ones with constraints.rules.card_class)"), {"b": rulesmod._params(params_total)})
            continue
        g = server_gpus(gpu, s.hardware.gpus_per_node)  # the user's servers, within the card's (catalog_hw)
        here = [fw for fw in fws if runs_on(fw, gpu)]  # a framework only on the accelerators it runs on
        if not here:
            skipped[gpu.id] = vendor_unsupported(fws[0], gpu)
            continue
        multi = table.for_nodes(gpu, 1 << 20)  # some node count is priced apart (_node_groups)
        for fw in here:
            r = _resolved_for(base, gpu, g, fw if searched else None)
            try:
                tkw = _time_kwargs(r)
            except PlannerError as err:
                skipped[gpu.id] = Msg.of(error_text(err))  # keeps a MsgStr's id: shown translated
                break
            ctx = SearchContext(
                scenario=s, resolved=r, gpu=gpu, time_kwargs=tkw, gpus_per_node=g, price=price, overheads=ov,
                tokens=tokens, setup_hours=ci.setup_hours, ckpt_bytes=ci.ckpt_bytes, model_flops_per_token=mf_tok,
                target_batch_seqs=target, table=table, framework_searched=searched, rules_on=rules_on,
                price_multi=None if multi is price else multi,
            )
            yield ctx if plain is None else _plain_context(ctx, _resolved_for(plain, gpu, g, fw if searched else None))


CHUNK_ROWS = 1 << 16  # candidates evaluated at a time (~1.5 kB each in flight): bounds the search's memory, whatever max_gpus is


def _candidate_chunks(ctx: SearchContext, max_gpus: int, rows: int | None = None):
    """The candidates of :func:`enumerate_candidates`, a slice of layouts at a time (at most ``rows`` rows per
    part): yields ``(part, start, candidates)`` with ``start`` the first row's place within its part, so that
    ``(part, start + i)`` orders the rows as the full list does."""
    rows = rows or CHUNK_ROWS
    setup = _enum_setup(ctx, max_gpus)
    k = len(setup["layouts"]["N"])
    step = max(1, rows // max(len(setup["Z"]), 1))
    pos: dict[int, int] = {}
    for a in range(0, k, step):
        for part, c in _enum_parts(ctx, setup, a, min(a + step, k)):
            n = len(c["num_gpus"])
            if not n:
                continue
            start = pos.get(part, 0)
            pos[part] = start + n
            yield part, start, c


def _enum_key(ctx: SearchContext, max_gpus: int) -> tuple:
    """Everything :func:`_enum_setup` and :func:`_enum_parts` read from a context, as a key: two contexts with
    equal keys enumerate the same candidates, row for row. The scenario fields they read (training method,
    sequence length, global batch, ``parallel.vpp``/``offload_*``, ``overlap_p2p_comm``, the planning rules) are
    the same in every context of one search (:func:`_resolved_for` changes only the hardware section and the
    framework), and so are the architecture and the target batch; they are in the key all the same (by value or
    object identity), so a key never matches across scenarios. The card is read only by the consumer-card rule,
    and only as one boolean (:func:`rules.consumer_without_p2p`)."""
    s = ctx.resolved.scenario
    t, p = s.training, s.parallel
    rules = s.constraints.rules if ctx.rules_on else None
    consumer = bool(rules is not None and rules.consumer_multinode and rulesmod.consumer_without_p2p(ctx.gpu))
    return (t.framework, int(ctx.gpus_per_node), int(max_gpus), consumer, id(ctx.resolved.arch), t.seq_len,
            t.global_batch_size, ctx.target_batch_seqs, int(p.vpp), bool(p.offload_optimizer),
            offload_params_applies(s), t.overlap_p2p_comm, None if rules is None else repr(rules),
            bool(getattr(p, "ep_a2a_overlap", False)), tuple(getattr(t, "recompute_modules", None) or ()))


class _ChunkCache:
    """The candidate chunks of each enumeration (:func:`_enum_key`) of one search, kept for the later contexts
    that enumerate the same rows (the same framework and node size on another GPU type): they are generated
    once and handed out again, the same arrays in the same order, instead of being rebuilt per GPU type.
    Each chunk carries a token (``(key number, chunk number)``) that names its rows for the memoised memory
    (:class:`_MemoryMemo`) and the layout-only half of the time model (:meth:`_MemoryMemo.layout`). Bounded: at most
    :attr:`limit_bytes` of stored chunks (an enumeration that does not fit whole is not stored: its later
    contexts enumerate again, as before), and an enumeration is dropped after its last context."""

    limit_bytes = 32 << 20

    def __init__(self, contexts: list[SearchContext], max_gpus: int):
        self.max_gpus = max_gpus
        self._keys: dict[tuple, int] = {}
        self._left: dict[int, int] = {}  # key number -> contexts still to come
        self._cap: dict[int, float] = {}  # key number -> the largest card (GiB) of its contexts
        self._left_cap: dict[tuple[int, float], int] = {}  # (key number, card GiB) -> contexts still to come
        for ctx in contexts:
            kn = self._keys.setdefault(_enum_key(ctx, max_gpus), len(self._keys))
            self._left[kn] = self._left.get(kn, 0) + 1
            gib = float(ctx.gpu.memory_gib or 0.0)
            self._cap[kn] = max(self._cap.get(kn, 0.0), gib)
            self._left_cap[kn, gib] = self._left_cap.get((kn, gib), 0) + 1
        self._store: dict[int, list] = {}
        self._bytes = 0

    def key_of(self, ctx: SearchContext) -> int:
        return self._keys[_enum_key(ctx, self.max_gpus)]

    def same_card_later(self, kn: int, ctx: SearchContext) -> bool:
        """Whether a later context enumerating ``kn`` has a card of ``ctx``'s capacity (then the rows that fit,
        and their values, are worth keeping); call after :meth:`chunks` began for ``ctx``."""
        return self._left_cap.get((kn, float(ctx.gpu.memory_gib or 0.0)), 0) > 0

    def cap_max(self, kn: int) -> float:
        """The largest card (GiB) among the contexts that enumerate ``kn``."""
        return self._cap[kn]

    def reused_later(self, kn: int) -> bool:
        """Whether a later context will be handed this enumeration again (call after :meth:`chunks` began)."""
        return self._left.get(kn, 0) > 0

    def chunks(self, ctx: SearchContext, kn: int):
        """Yields ``(part, start, candidates, token)`` as :func:`_candidate_chunks` does for ``ctx``."""
        self._left[kn] -= 1
        self._left_cap[kn, float(ctx.gpu.memory_gib or 0.0)] -= 1
        stored = self._store.get(kn)
        if stored is not None:
            if not self._left[kn]:
                del self._store[kn]
                self._bytes -= sum(sz for *_, sz in stored)
            for part, start, c, tok, _ in stored:
                yield part, start, c, tok
            return
        keep: list | None = [] if self._left[kn] else None
        for i, (part, start, c) in enumerate(_candidate_chunks(ctx, self.max_gpus)):
            tok = (kn, i)
            if keep is not None:
                size = sum(v.nbytes for v in c.values())
                if self._bytes + size <= self.limit_bytes:
                    keep.append((part, start, c, tok, size))
                    self._bytes += size
                else:
                    self._bytes -= sum(sz for *_, sz in keep)
                    keep = None
            yield part, start, c, tok
        if keep is not None:
            self._store[kn] = keep


def _seg_first_min(keys, mask: np.ndarray, starts: np.ndarray, seg: np.ndarray) -> np.ndarray:
    """Per segment (rows ``starts[i]`` … ``starts[i+1]-1``; ``seg`` the segment of each row), the first row among
    ``mask`` that is smallest by ``keys`` (``np.lexsort`` order: the last key is the primary one) — the row a
    stable lexsort would put first. Segments with no row in ``mask`` give none; a segment whose smallest value
    of a key is NaN gives none. The primary key is compared on every row; the others only on the rows tied on
    it (few: one per segment but for ties)."""
    v = np.where(mask, keys[-1], np.inf)
    m = np.minimum.reduceat(v, starts)
    cand = np.flatnonzero(mask & (v == (m[seg] if len(m) > 1 else m[0])))
    for k in reversed(keys[:-1]):
        if not len(cand):
            break
        sg = seg[cand]
        st = np.flatnonzero(np.concatenate(([True], sg[1:] != sg[:-1])))
        kv = k[cand]
        low = np.repeat(np.minimum.reduceat(kv, st), np.diff(np.append(st, len(cand))))
        cand = cand[kv == low]
    if not len(cand):
        return cand
    sg = seg[cand]
    return cand[np.concatenate(([True], sg[1:] != sg[:-1]))]


def _penalty_of(d: Mapping[str, np.ndarray], mfu_rule: bool, tp: bool = True) -> np.ndarray:
    """A row's ranking penalty (core/advisor.py): its layout and band penalty plus the poor-MFU bit where that
    rule is on, and the TP-over-PCIe bit of the rows ``tp_pcie`` (``tp``: counted). As float64 (a lexsort key
    beside the objective's)."""
    pen = np.asarray(d["penalty"], dtype=np.int64) if "penalty" in d else np.zeros(len(d["cost"]), np.int64)
    if tp and "tp_pcie" in d:
        pen = pen + np.where(d["tp_pcie"], advisormod.TP_PCIE_BIT, 0)
    if mfu_rule:
        # graded on the training passes' MFU (timing: RL rollout generation left out), as the plan's check is;
        # ``poor_rule`` (search._apply_poor_rule): whether any plan meeting the constraints grades above poor
        on = d["poor_rule"] if "poor_rule" in d else True
        pen = pen + np.where(_poor_mfu(d) & on, advisormod.POOR_BIT, 0)
    return pen.astype(np.float64)


def _apply_poor_rule(cat: dict, objective: str, days, con: Any) -> None:
    """The mfu_grade rule as its switch describes it: "rank plans with an estimated MFU below 30% after the others,
    unless nothing else meets the deadline" — the others being plans graded above poor. When every plan that meets
    the constraints grades poor (whether from the interconnect or from compute-side work), a poor MFU ranks no plan
    after another and the cost decides (issue 35 round 6, advice4: GRPO of Qwen3-30B-A3B on H800 or H100 put 16 ×
    H100 by the month at 140,000 CNY first, both at 6% MFU, because the H800 plan at 252 CNY was poor from its
    links and the H100 one from compute). Sets ``cat["poor_rule"]`` (read by :func:`_penalty_of`)."""
    if not con.rules.mfu_grade or not len(cat.get("cost", ())):
        return
    cost = cat["cost"]
    ok = np.isfinite(days) & np.isfinite(cost)
    if con.deadline_days is not None and objective != "fastest":
        ok &= days <= con.deadline_days
    if con.budget is not None and objective != "cheapest":
        ok &= cost <= con.budget
    graded_poor = rulesmod.printed_mfu(_training_mfu(cat)) < _poor_line(cat)
    cat["poor_rule"] = np.full(len(cost), bool((ok & ~graded_poor).any()) or not ok.any())


def _poor_mfu(d: Mapping[str, np.ndarray]) -> np.ndarray:
    """Rows failing the ``mfu_grade`` rule (:func:`rules.poor_penalised`): graded poor (below the row's class line,
    :func:`_poor_line`) on the training passes' MFU with a communication share (``comm_share``; none: counted) at
    least ``rules.MFU_POOR_COMM_SHARE``."""
    return rulesmod.poor_penalised(_training_mfu(d), d["comm_share"] if "comm_share" in d else np.nan,
                                   _poor_line(d))


def _training_mfu(d: Mapping[str, np.ndarray]) -> np.ndarray:
    """The training passes' MFU of the rows (``mfu_training``; RL rollout generation left out), else ``mfu``:
    what the ``mfu_grade`` rule grades."""
    return d["mfu_training"] if "mfu_training" in d else d["mfu"]


def _lex_order(keys, mask: np.ndarray) -> np.ndarray:
    idx = np.flatnonzero(mask)
    return idx[np.lexsort(tuple(np.asarray(k)[idx] for k in keys))]


class _Reducer:
    """What the ranking needs from a stream of evaluated candidates, in memory that does not grow with the
    number of candidates.

    The ranking (:func:`_rank`, :func:`_diverse`, :func:`_best_per_gpu_framework`, :func:`pareto_front`)
    only ever picks: per GPU type, the best candidate of each GPU count, of which it shows at most ``top``
    (or, without ``distinct``, the ``top`` best candidates overall); the best candidate per GPU type ×
    framework (a context), under the ranking and by cost; and the points of the time-vs-cost Pareto front.
    Each chunk keeps those rows for both rankings :func:`_rank` may use (the constraints met, or nothing
    meeting them); the pool is cut back to them whenever it grows. The kept rows, in the search's order, rank
    exactly as the whole list would: a row outranked in a subset is outranked in the whole list, ties are
    broken by the place in the list (``gidx``), and the poor-MFU key orders the acceptable rows the same
    whether :func:`_rank` adds it or not (when every acceptable row is poor it is constant)."""

    POOL_ROWS = 20_000
    #: chunks of at most this many rows go to the pool unreduced (reducing them costs more than it saves)
    SMALL_CHUNK = 512

    def __init__(self, objective: str, deadline, budget, total_pflop: float, mfu_rule: bool, top: int,
                 distinct: bool):
        self.objective, self.deadline, self.budget = objective, deadline, budget
        self.total_pflop, self.mfu_rule = total_pflop, mfu_rule
        self.top, self.distinct = max(int(top), 1), distinct
        self.pool: list[dict[str, np.ndarray]] = []
        self.pool_rows = 0
        self.front_days = np.zeros(0)  # the Pareto front so far (days ascending) and its running cost minimum
        self.front_cost = np.zeros(0)

    def _variants(self, d: Mapping[str, np.ndarray]):
        """(mask, keys) of the two rankings of :func:`_rank` and of the cheapest-first order of
        :func:`_best_per_gpu_framework`; keys in ``np.lexsort`` order."""
        days = d["calendar_hours"] / 24.0
        cost = d["cost"]
        finite = np.isfinite(days) & np.isfinite(cost)
        # the constraints met (no constraint: every row, so the mask is ``finite`` itself)
        ok = finite
        if self.deadline is not None and self.objective != "fastest":
            ok = (days <= self.deadline) & ok
        if self.budget is not None and self.objective != "cheapest":
            ok = (cost <= self.budget) & ok
        if self.objective == "fastest":
            keys, keys_i = (cost, days), (days, cost)
        elif self.objective == "value":
            keys, keys_i = (days, cost / max(self.total_pflop, 1e-30)), (cost, days)
        else:
            keys, keys_i = (days, cost), (cost, days)
        ranks = [(ok, keys + (_penalty_of(d, self.mfu_rule),), True), (finite, keys_i, False),
                 (finite, keys_i + (_closest_penalty(_penalty_of(d, self.mfu_rule, tp=False)),), False)]
        if self.mfu_rule and _poor_mfu(d).any():
            # whether a poor MFU ranks plans down is decided once every context is in (_apply_poor_rule): the rows
            # the ranking without it would pick are kept
            ranks.append((ok, keys + (_penalty_of(d, False),), True))
        if "tp_pcie" in d and d["tp_pcie"].any():
            # whether TP over PCIe is penalised is decided once every context is in (search.nvlink_fits): the
            # rows each ranking would pick are kept
            ranks.append((ok, keys + (_penalty_of(d, self.mfu_rule, tp=False),), True))
        return ranks, (np.isfinite(cost), (days, cost)), days, cost

    def add(self, d: dict[str, np.ndarray], complete: Callable[[Any, Any], dict] | None = None) -> None:
        """One chunk: rows of one context, by GPU count ascending, in the search's order. Keys starting with
        ``_`` are not kept; ``complete(d, rows)`` adds the columns of the rows kept that ``d`` leaves out."""
        n = len(d["cost"])
        if n <= self.SMALL_CHUNK:
            # a few rows (what the search's pricing leaves, search._unpriced): kept as they are; the pool's
            # reduction (_compress, the same choices over the whole pool) selects among them
            rows = np.arange(n)
            kept = {k: v for k, v in d.items() if k[0] != "_"}
            if complete is not None:
                kept.update(complete(d, rows))
            self.pool.append(kept)
            self.pool_rows += n
            if self.pool_rows > self.POOL_ROWS:
                self._compress()
            return
        ng = d["num_gpus"]
        starts = np.concatenate([[0], np.flatnonzero(ng[1:] != ng[:-1]) + 1])
        seg = np.repeat(np.arange(len(starts)), np.diff(np.append(starts, n)))
        ranks, (rmask, rkeys), days, cost = self._variants(d)
        keep: list[np.ndarray] = []
        done: dict = {}  # the same mask and keys (the same arrays) asked again: the same rows

        def first_min(keys, mask):
            k = (id(mask), tuple(map(id, keys)))
            if k not in done:
                done[k] = _seg_first_min(keys, mask, starts, seg)
            return done[k]

        # real points of this chunk that beat many others: the fastest and the cheapest of every GPU count
        finite = ranks[1][0]
        marks = [first_min((cost, days), finite), first_min((days, cost), finite)]
        for mask, keys, poor_key in ranks:
            if self.distinct:
                w = first_min(keys, mask)  # best per GPU count
                if len(w) > self.top:
                    w = w[np.lexsort(tuple(k[w] for k in keys))][: self.top]
            else:
                w = self._top_superset(keys, mask, poor_key)
                w = w[np.lexsort(tuple(k[w] for k in keys))][: self.top]
            keep.append(w)
        keep.append(_seg_first_min(rkeys, rmask, np.zeros(1, np.int64), np.zeros(n, np.int64)))
        # Pareto: drop what a known point beats for sure (faster and no dearer, or as fast and cheaper); the
        # few left are sorted exactly (pareto_front)
        anchors = np.unique(np.concatenate(keep + marks))
        ad = np.concatenate([self.front_days, days[anchors]])
        ac = np.concatenate([self.front_cost, cost[anchors]])
        o = np.argsort(ad, kind="stable")
        ad, pm = ad[o], np.minimum.accumulate(ac[o])
        j = np.searchsorted(ad, days, "left")
        beaten = (j > 0) & (pm[np.maximum(j - 1, 0)] <= cost)
        # searching "right" moves the index only for a day count found among the anchors (or NaN): search
        # again for those rows alone (the same indices as searching every row); for the other rows the test
        # below, with the same index, is the one above made strict: it beats nothing more
        if len(ad):
            again = np.flatnonzero(((j < len(ad)) & (ad[np.minimum(j, len(ad) - 1)] == days)) | np.isnan(days))
            ja = np.searchsorted(ad, days[again], "right")
            beaten[again] |= (ja > 0) & (pm[np.maximum(ja - 1, 0)] < cost[again])
        left = np.flatnonzero(~beaten)
        keep.append(left[pareto_front(days[left], cost[left])])
        if "penalty" in d:  # the front printed is over the rows with the memory headroom (_roomy_front)
            keep.append(_roomy_front(days, cost, d["penalty"]))
        rows = np.unique(np.concatenate(keep))
        kept = {k: (v[:, rows] if k == "mode_costs" else v[rows]) for k, v in d.items() if k[0] != "_"}
        if complete is not None:
            kept.update(complete(d, rows))
        self.pool.append(kept)
        self.pool_rows += len(rows)
        if self.pool_rows > self.POOL_ROWS:
            self._compress()

    def _top_superset(self, keys, mask: np.ndarray, poor_key: bool) -> np.ndarray:
        """Rows of ``mask`` among which the ``top`` first by ``keys`` are surely found: those whose leading
        key (the poor-MFU key folded in above every acceptable value) is within the ``top`` smallest."""
        idx = np.flatnonzero(mask)
        if len(idx) <= self.top:
            return idx
        lead = keys[-1][idx]
        if poor_key:
            # the penalty (core/advisor.py) folded in above every value of the objective's leading key: each
            # penalty level starts past the range of the levels before it
            pen = keys[-1][idx]
            lead = keys[-2][idx].astype(np.float64)
            if pen.min() != pen.max():
                fin = lead[np.isfinite(lead)]
                span = (fin.max() - fin.min() + 1.0) if len(fin) else 1.0
                lead = lead + pen * span
        kth = np.partition(lead, self.top - 1)[self.top - 1]
        return idx[lead <= kth]

    def _compress(self) -> None:
        P = self._concat()
        if not len(P["cost"]):
            return
        ranks, (rmask, rkeys), days, cost = self._variants(P)
        need: list[np.ndarray] = []
        for mask, keys, _ in ranks:
            order = _lex_order(keys, mask)
            if self.distinct:
                key = P["gpu"][order] * 10_000_000 + P["num_gpus"][order]
                _, first = np.unique(key, return_index=True)
                ranked = order[np.sort(first)]  # best per GPU type × count, in ranking order
                g = P["gpu"][ranked]
                # the first `top` per GPU type
                o = np.argsort(g, kind="stable")
                gs = g[o]
                rank_in = np.arange(len(gs)) - np.searchsorted(gs, gs, "left")
                need.append(ranked[o[rank_in < self.top]])
            else:
                need.append(order[: self.top])
            _, first = np.unique(P["ctx"][order], return_index=True)
            need.append(order[first])  # best per context
        order = _lex_order(rkeys, rmask)
        _, first = np.unique(P["ctx"][order], return_index=True)
        need.append(order[first])
        front = pareto_front(days, cost)
        need.append(front)
        if "penalty" in P:
            need.append(_roomy_front(days, cost, P["penalty"]))
        self.front_days, self.front_cost = days[front], cost[front]
        rows = np.unique(np.concatenate(need))
        self.pool = [{k: (v[:, rows] if k == "mode_costs" else v[rows]) for k, v in P.items()}]
        self.pool_rows = len(rows)

    def _concat(self) -> dict[str, np.ndarray]:
        if len(self.pool) == 1:
            P = self.pool[0]
        else:
            P = {k: np.concatenate([ch[k] for ch in self.pool], axis=1 if k == "mode_costs" else 0)
                 for k in self.pool[0]}
        o = np.argsort(P["gidx"], kind="stable")
        return {k: (v[:, o] if k == "mode_costs" else v[o]) for k, v in P.items()}

    def result(self) -> dict[str, np.ndarray]:
        """The kept rows, in the search's order."""
        self._compress()
        return self._concat()


HARD_RULES = ("card_class", "consumer_multinode", "pipeline_layers")


def search(
    scenario: Scenario,
    models: ModelSource | None = None,
    *,
    top: int = 10,
    objective: str | None = None,
    prices: PriceTable | None = None,
    overheads: Overheads | None = None,
    cancel: Callable[[], bool] | None = None,
    distinct: bool = True,
    savers: bool = True,
) -> SearchResult:
    """Search frameworks, layouts and GPU counts for ``scenario``; returns the best ``top`` plans.

    ``cancel`` is called before each GPU type × framework and before each chunk of candidates
    (:data:`CHUNK_ROWS`); when it returns True the search raises :class:`SearchCancelled`. Candidates are
    generated and evaluated a chunk at a time and reduced as they come (:class:`_Reducer`), so memory does not
    grow with the number of candidates. ``distinct`` keeps one plan (the best layout and framework) per GPU type and
    count. When the planning rules on cards, nodes and pipeline stages leave no plan, the search runs again
    without them and says so in ``notes`` (``rules_relaxed``). The memory savers the user left unset are searched
    for the layouts that do not fit without them (:func:`_unset_savers`). ``savers``: #1's line on the savers the
    user set (:func:`_savers_note`; a caller that reads only #1's figures, such as the project's replans, skips it).
    """
    options = _unset_options(scenario, models)
    # with savers to search, every pass at the app's full length and cut after the merge (`plan --top 5` is the
    # first rows of the Plans page's list, as _search's own choice)
    n = max(top, RANKED_LIST_LENGTH) if options and distinct else top
    res = _search(scenario, models, top=n, objective=objective, prices=prices, overheads=overheads,
                  cancel=cancel, distinct=distinct, rules_on=True)
    res = _unset_savers(scenario, res, models, prices, overheads, cancel, n, distinct, options)
    res.plans = res.plans[:top]
    on = [rid for rid in HARD_RULES if getattr(scenario.constraints.rules, rid)]
    if res.plans:
        if savers:
            _savers_note(scenario, res, models, prices, overheads, cancel)
        return res
    again = None if not on else _search(scenario, models, top=top, objective=objective, prices=prices,
                                        overheads=overheads, cancel=cancel, distinct=distinct, rules_on=False)
    if again is None or not again.plans:
        res.notes.extend(_what_fits_instead(scenario, models, objective, prices, overheads, cancel))
        return res
    again.rules_relaxed = tuple(on)
    again.notes.insert(0, Msg(CTX, QT_TRANSLATE_NOOP(
        CTX, "No plan passes the planning rules on card class, consumer cards across nodes and even pipeline "
             "stages: the plans shown break them (see each plan's rules)."), {}))
    again.search_ms += res.search_ms
    again.candidates_evaluated += res.candidates_evaluated
    return again


def _savers_note(s: Scenario, res: SearchResult, models: ModelSource | None, prices: Any, overheads: Any,
                 cancel: Callable[[], bool] | None) -> None:
    """#1's line, under its rank lines, naming the best plan with the framework's memory savers when #1 is tight on
    memory or rents a whole term it mostly leaves idle, or a plan better by the objective ranks after it only for
    tight memory (``res.tight_ahead``) (:mod:`core.advisor_savers`; the user's choice is kept)."""
    def run(d: dict):
        try:
            v = Scenario.model_validate(d)
            return _search(v, models, top=1, objective=res.objective, prices=prices, overheads=overheads,
                           cancel=cancel, distinct=True, rules_on=True)
        except SearchCancelled:
            raise
        except (PlannerError, ValueError):
            return None
    if not res.plans or not (saversmod.wants_savers(res.plans[0]) or res.tight_ahead):
        return  # the common case: nothing more is searched
    try:
        arch = resolve_arch(s.model, models)
        fws = searched_frameworks(s, bool(arch.is_moe), arch)[0]
    except (PlannerError, ValueError):
        return
    options = saversmod.set_saver_options(s, fws)  # the unset ones are searched (_unset_savers, round 15)
    if not options:
        return
    line = saversmod.savers_line(s, res.plans, res.objective, run, fws, tight_ahead=res.tight_ahead,
                                 margin=FASTEST_TIE, options=options)
    if line is None:
        return
    top = res.plans[0]
    top.explanation.insert(top.head_lines, line)  # under the ranking's own lines (Plan.head_lines)
    top.head_lines += 1


def _unset_options(s: Scenario, models: ModelSource | None) -> list:
    """:func:`advisor_savers.unset_saver_options` for ``s`` over the frameworks the search tries ([] on an error)."""
    try:
        arch = resolve_arch(s.model, models)
        return saversmod.unset_saver_options(s, searched_frameworks(s, bool(arch.is_moe), arch)[0])
    except (PlannerError, ValueError):
        return []


def _unset_savers(s: Scenario, res: SearchResult, models: ModelSource | None, prices: Any, overheads: Any,
                  cancel: Callable[[], bool] | None, top: int, distinct: bool, options: list) -> SearchResult:
    """The search with the memory savers the user left unset (issue 35 round 15, savers15): one search per option
    of :func:`advisor_savers.unset_saver_options`, keeping only the layouts that do not fit with the defaults
    (:func:`_unfit_default`), merged into ``res``'s ranking by :func:`advisor_savers.merge_ranked` (a plan needing
    them yields to one without by :func:`advisor_savers.saver_plan_yields`). Each such plan keeps its savers
    (:attr:`Plan.unrequested_savers`) and says them under its rank lines. ``res`` itself when none applies; the
    first saver search with plans when nothing fits with the defaults. ``options``: :func:`_unset_options`."""
    if not options:
        return res
    arch = resolve_arch(s.model, models)
    fws = searched_frameworks(s, bool(arch.is_moe), arch)[0]
    found: list[SearchResult] = []
    for keys, change in options:
        try:
            v = Scenario.model_validate(saversmod.savers_scenario_dict(s, fws, change))
            r = _search(v, models, top=top, objective=res.objective, prices=prices, overheads=overheads,
                        cancel=cancel, distinct=distinct, rules_on=True, unfit_under=s)
        except SearchCancelled:
            raise
        except (PlannerError, ValueError):
            continue
        for p in r.plans:
            p.unrequested_savers = keys
            p.explanation.insert(p.head_lines, saversmod.unrequested_line(keys, FASTEST_TIE))
            p.head_lines += 1
        found.append(r)
    res.search_ms += sum(r.search_ms for r in found)  # (the figures printed count every pass)
    res.candidates_evaluated += sum(r.candidates_evaluated for r in found)
    res.candidates_fitting += sum(r.candidates_fitting for r in found)
    # a GPU is left out only where every pass left it out (review15: "skipped: no layout fits" stood beside its plans
    # that fit with the savers)
    res.skipped_gpus = {g: w for g, w in res.skipped_gpus.items() if all(g in r.skipped_gpus for r in found)}
    if not any(r.plans for r in found):
        return res
    if not res.plans:
        out = next(r for r in found if r.plans)
        out.skipped_gpus = res.skipped_gpus
        out.search_ms, out.candidates_evaluated, out.candidates_fitting = (
            res.search_ms, res.candidates_evaluated, res.candidates_fitting)
        return out
    first = res.plans[0]
    merged = saversmod.merge_ranked(res.plans, [r.plans for r in found], res.objective, FASTEST_TIE,
                                    sum(len(r.plans) for r in found) + len(res.plans), distinct)
    if distinct:  # the same choice as _search's: one per GPU type and count, a share of the list per GPU type
        gids = list(dict.fromkeys(p.gpu for p in merged))
        keep = _diverse(np.arange(len(merged)), np.array([gids.index(p.gpu) for p in merged], dtype=np.int64),
                        np.array([int(p.num_gpus) for p in merged], dtype=np.int64), max(top, RANKED_LIST_LENGTH))
        merged = [merged[int(i)] for i in keep]
    res.plans = merged[:top]
    _renumbered(res.plans, {id(first)} | {id(r.plans[0]) for r in found if r.plans})
    _shown_figures(res.plans, s.constraints, res.objective)
    if res.plans[0] is not first:
        res.tight_ahead = next(r.tight_ahead for r in found if r.plans and r.plans[0] is res.plans[0]) \
            if any(r.plans and r.plans[0] is res.plans[0] for r in found) else False
        res.rent_vs_build = res.plans[0].evaluation.rent_vs_build
    return res


def _shown_figures(plans: list[Plan], con: Any, objective: str) -> None:
    """The lines of a merged list (:func:`_unset_savers`) that compare with another plan, read again from the plans
    the list shows (their Evaluations): each search wrote them from its own rows, and a row the merge dropped or
    replaced is no plan the reader can find (issue 35 round 18, ux28: "A800 beats H800: ¥108 against ¥116" where the
    table's H800 is ¥117, the H800 of the savers' search; "(¥109, 18.6 hours)", an A800 layout the merge replaced
    by its savers' one). #1's decision (:func:`_shown_decision`) and each price-tie rank line
    (:func:`_shown_tie_line`)."""
    if not plans:
        return
    top = plans[0]
    top.decision = [_shown_decision(d, top, plans, con, objective) for d in top.decision]
    for n, p in enumerate(plans, start=1):
        if p.head_lines and p.explanation and p.explanation[0].text in PRICE_TIE_LINES:
            p.explanation[0] = _shown_tie_line(p, n, plans)


def _shown_tie_line(p: Plan, n: int, plans: list[Plan]) -> Msg:
    """``p``'s price-tie rank line (``p`` at place ``n`` of ``plans``) against a plan of the list: its own search's
    anchor where the list shows it (the same cost), named by its place; else the cheapest plan of its ranking
    group the list shows, when ``p`` is within :data:`CHEAPEST_TIE` of it; else the generic line when the tie no
    longer places it (no plan of its group below it is cheaper: the list's order is the objective's); else the line
    as its search wrote it."""
    line = p.explanation[0]
    args = {key: v for key, v in dict(line.params).items() if key not in ("gap", "gap_d", "k")}
    args["n"] = n
    cur = str(args.get("cur", ""))
    group = [(k, q) for k, q in enumerate(plans, start=1) if q.penalty == p.penalty and math.isfinite(q.cost)]
    was = float(args.get("cost", math.nan))
    found = next(((k, q) for k, q in group if math.isclose(float(q.cost), was, rel_tol=1e-6)), None)
    if found is None and group:
        k, q = min(group, key=lambda kq: kq[1].cost)
        if q is not p and float(p.cost) <= float(q.cost) * (1.0 + CHEAPEST_TIE) * (1.0 + 1e-12):
            found = (k, q)
    if found is not None:
        k, q = found
        gap = float(p.cost) / float(q.cost) - 1.0 if q is not p else -1.0
        text = _price_tie_text(args, gap, float(q.cost), float(q.calendar_days), cur, None if q is p else k)
        return Msg(line.context, text, args)
    if not any(m > n and float(q.cost) < float(p.cost) for m, q in group):
        keep = {key: v for key, v in args.items() if key not in ("tie", "cost", "cur", "span")}
        return Msg(line.context, RANK_FIRST if n == 1 else RANK_NEXT, keep)
    return Msg(line.context, line.text, {**dict(line.params), "n": n})


def _shown_decision(d: dict, top: Plan, plans: list[Plan], con: Any, objective: str) -> dict:
    """#1's decision ``d`` (:func:`decision`) against the plan of its GPU type and framework that ``plans`` shows,
    from the two Evaluations, where the objective's figure or the deadline decided it (the rules the other plan
    fails are the search's own; a decision on a rule, or with no such plan shown, is kept as the search wrote it)."""
    other = next((q for q in plans[1:] if q.gpu == d["gpu"] and q.framework == d["framework"]), None)
    fig0 = d["figures"]
    if other is None or d["rule"] not in ("cost", "days", "cost_tie", "days_tie", "deadline") \
            or fig0["other_mfu"] > fig0["other_mfu_used"] + 1e-9 or int(other.penalty) & ~int(top.penalty):
        return d
    fig = {**fig0, "cost": float(top.cost), "other_cost": float(other.cost), "days": float(top.calendar_days),
           "other_days": float(other.calendar_days)}
    base = {**dict(d["message"].params), **fig, **_why_days(fig)}
    lead, other_lead = (fig["days"], fig["other_days"]) if objective == "fastest" else (fig["cost"], fig["other_cost"])
    if con.deadline_days is not None and fig["other_days"] > con.deadline_days and objective != "fastest":
        rule = "deadline"
        base.update(deadline=con.deadline_days,
                    **deadline_msgs(other_span=fig["other_days"], deadline_span=con.deadline_days))
    else:
        rule = "days" if objective == "fastest" else "cost"
        if lead > other_lead:  # ranked first by the tie, not by the objective's own figure
            rule += "_tie"
            base.update(tie=FASTEST_TIE if objective == "fastest" else CHEAPEST_TIE)
    text = {**FIGURE_WHY, **TIE_WHY}[rule]
    return {**d, "rule": rule, "figures": fig, "message": Msg(d["message"].context, text, base)}


def _renumbered(plans: list[Plan], firsts: set[int]) -> None:
    """Each plan's rank line (``explanation[0]``) with its place in the merged list (the generic lines read as
    their place: :data:`RANK_FIRST`, :data:`RANK_NEXT`); a plan that was #1 of its search (``firsts``: ids) and is
    no longer #1 loses #1's other head lines (held-back plan, savers line) and its decision."""
    for n, p in enumerate(plans, start=1):
        if not p.head_lines or not p.explanation:
            continue
        line = p.explanation[0]
        text = line.text
        if text in (RANK_FIRST, RANK_NEXT):
            text = RANK_FIRST if n == 1 else RANK_NEXT
        p.explanation[0] = Msg(line.context, text, {**dict(line.params), "n": n})
        if n > 1 and id(p) in firsts:
            kept = [m for m in p.explanation[1:p.head_lines] if m.text == saversmod.UNREQUESTED_LINE]
            p.explanation[1:p.head_lines] = kept
            p.head_lines = 1 + len(kept)
            p.decision = []


#: What the search tries, when nothing fits, in place of the user's choice (said, never applied: the user's
#: choices are sacred): 4-bit frozen weights for a 16-bit LoRA (QLoRA, Dettmers et al. 2023: "finetune a 65B
#: parameter model on a single 48GB GPU"), and the weights in CPU memory under ZeRO-3 (DeepSpeed ``offload_param``,
#: FSDP ``CPUOffload``) for LoRA and full training. Issue 35 round 6, advice4: LoRA of a 72B model on 2 × A100
#: 80GB said only "allow more GPUs or larger cards", though the same two cards run it with QLoRA.
FIT_INSTEAD = (
    (("lora",), QT_TRANSLATE_NOOP(CTX, "QLoRA (4-bit frozen weights: training.method qlora)"),
     {"training": {"method": "qlora"}}),
    (("lora", "full", "pretrain"), QT_TRANSLATE_NOOP(CTX, "ZeRO-3 with the weights in CPU memory "
                                                          "(parallel.offload_params)"),
     {"parallel": {"zero": 3, "offload_params": True}}),
    # Issue 35 round 7, advice6: QLoRA of Qwen2.5-14B at 4k tokens on one 24 GB card said only "allow more GPUs or
    # larger cards" (max_gpus 1): the logits of a 152k vocabulary, upcast to fp32 for the loss, are the largest
    # activation; the documented switches that drop them fit it on the same card. Liger Kernel's fused linear
    # cross-entropy never builds the logits (linkedin/Liger-Kernel README: "up to 60%" less memory; HF
    # TrainingArguments use_liger_kernel, LLaMA-Factory enable_liger_kernel, ms-swift/TRL use_liger_kernel);
    # Unsloth (Cut Cross-Entropy, its offloaded gradient checkpointing; one GPU) documents 14B QLoRA on a 16 GB T4.
    (("pretrain", "full", "lora", "qlora"),
     QT_TRANSLATE_NOOP(CTX, "Liger Kernel, whose fused linear cross-entropy builds no logits (training.liger_kernel)"),
     {"training": {"liger_kernel": True}}),
    (("full", "lora", "qlora"),
     QT_TRANSLATE_NOOP(CTX, "Unsloth (training.framework unsloth)"),
     {"training": {"framework": "unsloth"}, "constraints": {"search_frameworks": False}}),
)


def _already(s: Scenario, change: dict) -> bool:
    """Whether the scenario already holds every value of a :data:`FIT_INSTEAD` change (then it is not offered)."""
    return all(getattr(getattr(s, sec), k, None) == v for sec, vals in change.items() for k, v in vals.items())


def _what_fits_instead(s: Scenario, models: ModelSource | None, objective: str | None, prices: Any, overheads: Any,
                       cancel: Callable[[], bool] | None) -> list[Msg]:
    """When nothing fits: the best plan of each :data:`FIT_INSTEAD` change that applies to ``s`` and fits on the
    same candidates (one line each), or nothing."""
    out: list[Msg] = []
    for methods, label, change in FIT_INSTEAD:
        if s.training.method not in methods or (change.get("parallel") and s.parallel.offload_params):
            continue
        if _already(s, change):
            continue
        d = s.model_dump(exclude_unset=True)  # as the user wrote it: defaults that depend on what is unset stay so
        for section, values in change.items():
            d.setdefault(section, {}).update(values)
        try:
            v = Scenario.model_validate(d)
            res = _search(v, models, top=1, objective=objective, prices=prices, overheads=overheads, cancel=cancel,
                          distinct=True, rules_on=True)
        except SearchCancelled:
            raise
        except (PlannerError, ValueError):
            continue
        if not res.plans:
            continue
        p = res.plans[0]
        args = {"what": Msg(CTX, label), "n": p.num_gpus, "gpu": p.gpu_name,
                "fw": name_for(p.framework, v.training.method), "days": p.calendar_days,
                "span": elapsed_msg(float(p.calendar_days)),  # as the plan's own lines (expert12, tidy12)
                "cost": p.cost if p.cost is not None else float("nan"), "cur": p.currency}
        misses = _fit_instead_misses(s, p)
        if misses is None:
            text = QT_TRANSLATE_NOOP(CTX, "{what} fits: its best plan is {n} × {gpu} ({fw}), {span}, "
                                          "{cost:,.0f} {cur}. Your choice is kept; change it to plan with this.")
        else:
            args["misses"] = misses
            text = QT_TRANSLATE_NOOP(CTX, "{what} fits: its best plan is {n} × {gpu} ({fw}), {span}, "
                                          "{cost:,.0f} {cur}, but {misses}. Your choice is kept; change it to plan "
                                          "with this.")
        out.append(Msg(CTX, text, args))
    return out


def _fit_instead_misses(s: Scenario, p) -> Msg | None:
    """What a :data:`FIT_INSTEAD` plan misses of the user's constraints, said on its line: a 405B full fine-tune on
    ≤ 16 GPUs with a 7-day deadline was offered "ZeRO-3 with the weights in CPU memory fits: … 132.7 days" with no
    word that the deadline is 7 days (issue 35 round 12, expert12). None when it meets both."""
    c = s.constraints
    late = c.deadline_days is not None and not p.meets_deadline
    dear = c.budget is not None and not p.within_budget
    if late and dear:
        return Msg(CTX, QT_TRANSLATE_NOOP(CTX, "it misses the deadline of {d} and is over the budget of "
                                               "{b:,.0f} {cur}"), {**deadline_msgs(d=c.deadline_days), "b": c.budget,
                                                                   "cur": p.currency})
    if late:
        return Msg(CTX, QT_TRANSLATE_NOOP(CTX, "it misses the deadline of {d}"), deadline_msgs(d=c.deadline_days))
    if dear:
        return Msg(CTX, QT_TRANSLATE_NOOP(CTX, "it is over the budget of {b:,.0f} {cur}"),
                   {"b": c.budget, "cur": p.currency})
    return None


def _with_times(ctx: SearchContext, tp_all, idx, sub: dict, tm: dict):
    """The fitting rows ``idx`` with their times ``tm`` added to ``sub``, less the rows whose vLLM engine does not
    start (:func:`_vllm_starts`: those layouts do not run, whatever they would cost)."""
    sub.update({key: (_rows(val, len(idx)) if key != "train_hours" else val) for key, val in tm.items()})
    starts = _vllm_starts(ctx, tp_all[idx])
    if starts is None or starts.all():
        return idx, sub, tm
    rest = np.flatnonzero(starts)
    cut = lambda d: {k: (v[rest] if np.ndim(v) else v) for k, v in d.items()}  # noqa: E731
    return idx[rest], cut(sub), cut(tm)


def _vllm_starts(ctx: SearchContext, tp) -> np.ndarray | None:
    """Per row (``tp``: the rows' tensor parallelism): whether the RL plan's vLLM engine starts on this card
    (:func:`methods.vllm_start_room`, its tensor parallelism ``rl.rollout_tp`` or the training one); None when no
    vLLM engine generates."""
    prof = method_profile(ctx.resolved.scenario.training)
    if not prof.rl or prof.engine not in ("vllm_colocated", "vllm_separate"):
        return None
    gen_tp = np.full(len(tp), float(prof.rollout_tp)) if prof.rollout_tp else np.asarray(tp, dtype=float)
    r = ctx.resolved
    kw = ctx.time_kwargs  # vLLM's own reserve, as the rollouts' pool takes it (methods.vllm_engine_reserve_bytes)
    reserve = vllm_engine_reserve_bytes(r.arch, gen_tp, float(prof.max_num_seqs or kw["vllm_max_num_seqs"]),
                                        kw["vllm_profile_tokens"], kw["vllm_nvlink"], xp=ArrayOps)
    return np.asarray(vllm_start_room(prof, arch=r.arch, params_total=float(r.params.total),
                                      gpu_memory_gib=float(ctx.gpu.memory_gib or 0.0), tp=gen_tp,
                                      reserve=reserve) >= 0.0)


def _reduce_context(ctx: SearchContext, ci: int, gi: int, chunks: _ChunkCache, memo: Any, red: Any,
                    cancel: Callable[[], bool] | None) -> tuple[int, int]:
    """Stream one context's candidates in chunks (``chunks``: the search's :class:`_ChunkCache`) through the
    vectorised formulas into the reducer ``red``; returns how many were evaluated and how many fit (with a
    finite cost)."""
    n_eval = n_fit = 0
    kn = chunks.key_of(ctx)
    for part, start, c, token in chunks.chunks(ctx, kn):
        if cancel is not None and cancel():
            raise SearchCancelled(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "search cancelled")))
        n = len(c["num_gpus"])
        n_eval += n
        unpriced = [0] if red.distinct else None
        _, idx, sub = _evaluate_fitting(ctx, c, memo, chunks.reused_later(kn), token, lazy=True,
                                        cap_max=chunks.cap_max(kn), keep_rows=chunks.same_card_later(kn, ctx),
                                        unpriced=unpriced)
        if unpriced:
            n_fit += unpriced[0]
        if not len(idx):
            continue
        fin = np.isfinite(sub["cost"])
        if not fin.all():
            idx = idx[fin]
            sub = {k: (v[:, fin] if k == "mode_costs" else v[fin]) for k, v in sub.items()}
        if not len(idx):
            continue
        n_fit += len(idx)
        red.add(sub, lambda d, rows, c=c, part=part, start=start: _kept_rows(c, d, rows, ci, gi, part, start))
    return n_eval, n_fit


def _roomy_front(days: np.ndarray, cost: np.ndarray, pen: np.ndarray) -> np.ndarray:
    """The time-vs-cost Pareto front over the plans with the memory headroom (issue 35 round 9, advice10): a row
    failing ``memory_headroom`` (advisor ``TIGHT_BIT``, set only while that rule is on) is left out, unless no row
    has the headroom. Before, the front printed under the plans (and starred on the Plans page) was built over every
    row that fits at all, so for LoRA on Llama-3.1-8B on 4090s it read "2 × RTX 4090: 0.62 days, ¥58.54" (DeepSpeed,
    above 85.6% of the card) under plan #2, "2 × RTX 4090 …: 0.77 calendar days, ¥73.39": two prices for one GPU
    type and count, the cheaper one for a layout the ranking puts after because it likely runs out of memory.
    The other bits (price, MFU, risk) are what the front trades time against, so they stay on it."""
    tight = (np.asarray(pen, dtype=np.int64) & advisormod.TIGHT_BIT) != 0
    roomy = ~tight & np.isfinite(days) & np.isfinite(cost)
    if not tight.any() or not roomy.any():
        return pareto_front(days, cost)
    return pareto_front(np.where(roomy, days, np.inf), cost)


def tie_front(days: np.ndarray, cost: np.ndarray, front: np.ndarray | None = None) -> np.ndarray:
    """The time-vs-cost front with the "fastest" objective's tie (issue 35 round 9, pareto9): a plan is on it only
    when no other plan is both cheaper and at most :data:`FASTEST_TIE` slower (dominance within the tie in time,
    exact in cost). Before, the front kept any plan faster by any amount: the LoRA example's front read
    "8 × H200: 0.048 days, ¥94,000 / 8 × H100: 0.051 days, ¥70,000 / 8 × H800: 0.051 days, ¥102", with the H100
    plan starred for being about 0.0001 days (seconds) faster than the ¥102 one, a difference the estimate cannot
    resolve (see :data:`FASTEST_TIE`). ``front`` is the exact front (:func:`pareto_front`, fastest first, so each
    point is dearer than the next): the fastest plan cheaper than a point is the next point (a plan off the exact
    front is beaten by a point on it that is no slower and no dearer), so a point is dropped exactly when the next
    point is within the tie. The front keeps the cheapest plan (the last point) and the plan the "fastest" objective
    puts first (the cheapest within the tie of the fastest: the last point within the tie of the first), so it is
    never empty and its first point is the "fastest" objective's answer."""
    f = pareto_front(days, cost) if front is None else np.asarray(front)
    if len(f) < 2:
        return f
    d = np.asarray(days, dtype=float)[f]
    keep = np.ones(len(f), bool)
    keep[:-1] = ~_within_tie(d[1:], d[:-1])  # the cheaper next point is within the tie of this one
    keep[np.flatnonzero(_within_tie(d, float(d[0])))[-1]] = True  # the "fastest" objective's plan
    return f[keep]


def _distinct_front(front: Any, gpu_of: Any, cat: dict, contexts: list[SearchContext], days: Any) -> list[dict]:
    """The Pareto front (calendar days against cost), one point per GPU type and count."""
    seen, pareto = set(), []
    for i in front:
        k2 = (int(gpu_of[i]), int(cat["num_gpus"][i]))
        if k2 in seen:
            continue
        seen.add(k2)
        ctx = contexts[int(cat["ctx"][i])]
        pareto.append({"gpu": ctx.gpu.id, "num_gpus": int(cat["num_gpus"][i]), "tp": int(cat["tp"][i]),
                       "pp": int(cat["pp"][i]), "framework": ctx.framework,
                       "calendar_days": round(float(days[i]), 3), "cost": round(float(cat["cost"][i]), 2)})
    return pareto


def _closest_penalty(pen) -> np.ndarray:
    """The ranking penalty of a plan when no plan meets the constraints, less the deadline-risk bit (every plan
    misses them then): a plan with memory tighter than the memory model's p75 error, a multi-node plan priced from
    no networked quote, TP over PCIe or a poor MFU from the links still ranks after the plans without, as it does
    when plans meet them. Before, the closest came first whatever it failed: a request that no plan meets put
    16 × A800 at 4.0% free memory, priced from single machines' card-hours, above 8 × A800 with room (the
    planning guide §2: memory ≈ weights + optimizer + gradients + activations, with headroom; issue 35 round 18,
    advinv18)."""
    p = np.asarray(pen, dtype=np.float64).astype(np.int64)
    return (p & ~np.int64(advisormod.RISK_BIT)).astype(np.float64)


def _ranking_notes(objective: str, feasible: bool, poor: Any, order: Any, con: Any, currency: str) -> list[Msg]:
    """Why the plans shown break a constraint (none meets the deadline or the budget), or all grade poor."""
    notes: list[Msg] = []
    if not feasible:
        if objective == "fastest":
            notes.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "No plan fits the budget of {budget:,.0f} {cur}: the cheapest "
                                                         "plans are shown."), {"budget": con.budget or 0, "cur": currency}))
        else:
            notes.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "No plan meets the deadline of {days} within {n} GPUs: "
                                                         "the fastest plans are shown; raise max_gpus or the deadline."),
                             {**deadline_msgs(days=con.deadline_days or 0), "n": con.max_gpus}))
    elif poor is not None and len(order) and bool(poor[order[0]]):
        notes.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Every plan that meets the constraints is graded poor "
                                                     "(an MFU below its card class's poor line: 30% on mainstream "
                                                     "GPUs): check the interconnect and the layout."), {}))
    return notes


def _deadline_cost(on_time: Any, cost: Any, order: Any) -> float:
    """The cost of meeting the deadline: the best-ranked row of ``order`` that meets it, else the cheapest such row."""
    if not on_time.any():
        return math.inf
    if order is not None and len(order):
        hit = np.asarray(on_time)[np.asarray(order)]
        if hit.any():
            return float(cost[int(np.asarray(order)[int(np.argmax(hit))])])
    return float(cost[on_time].min())


def _both_constraints_note(feasible: bool, meets: Any, within: Any, days: Any, cost: Any, con: Any,
                           currency: str, order: Any = None) -> list[Msg]:
    """A deadline and a budget that no plan meets together (the objective ranks by one of them, so the plans shown
    meet one and miss the other): said at the top, with what the deadline costs and what the budget buys. With the
    ranking's ``order``, what the deadline costs is that of the best-ranked plan meeting it (a row the ranking puts
    after it, e.g. one with tight memory, is not the price quoted for plan #1)."""
    if not feasible or con.deadline_days is None or con.budget is None:
        return []
    finite = np.isfinite(days) & np.isfinite(cost)
    if bool((meets & within & finite).any()):
        return []
    on_time, cheap = meets & finite, within & finite
    args = {"budget": con.budget, "cur": currency, "cost": _deadline_cost(on_time, cost, order),
            # the deadline and the fastest plan's days through the one formatter, written together (ux20)
            **deadline_msgs(days=con.deadline_days, fast=float(days[cheap].min()) if cheap.any() else math.inf)}
    if not on_time.any():
        text = QT_TRANSLATE_NOOP(CTX, "No plan meets both the deadline of {days} and the budget of {budget:,.0f} "
                                      "{cur}: within the budget the fastest plan takes {fast}.")
    elif not cheap.any():
        text = QT_TRANSLATE_NOOP(CTX, "No plan meets both the deadline of {days} and the budget of {budget:,.0f} "
                                      "{cur}: meeting the deadline costs at least {cost:,.0f} {cur}, and no plan is "
                                      "within the budget.")
    else:
        text = QT_TRANSLATE_NOOP(CTX, "No plan meets both the deadline of {days} and the budget of {budget:,.0f} "
                                      "{cur}: meeting the deadline costs at least {cost:,.0f} {cur}; within the budget "
                                      "the fastest plan takes {fast}.")
    return [Msg(CTX, text, args)]


def _rule_name(rid: str) -> Msg:
    """A planning rule as its check line and the Plans page's switch name it (``rules.RULE_NAMES``), for a sentence
    that cites it: the rule id is for the plan file and the CLI's "rule ids" column only (ux9)."""
    return Msg(rulesmod.CTX, rulesmod.RULE_NAMES[rid])


def _one_node_limit(gpu: Any, con: Any) -> int:
    """The GPUs of one node where the consumer_multinode rule holds a card without P2P to one node below
    ``con.max_gpus`` (the search's own filter), else 0."""
    per_node = int(getattr(gpu, "gpus_per_node", 0) or 0)
    held = con.rules.consumer_multinode and rulesmod.consumer_without_p2p(gpu) and 0 < per_node < con.max_gpus
    return per_node if held else 0


def _note_unfit(tried: dict[str, int], skipped: dict[str, Msg], max_gpus: int, gpus: dict | None = None,
                con: Any = None) -> None:
    """Name the GPU types where no layout of any framework fits (``tried``: fitting candidates per GPU id); a
    consumer card held to one node by the consumer_multinode rule (``gpus``: the records, ``con``: the
    constraints) says that node is the limit."""
    for gid, n in tried.items():
        if n == 0:
            g = (gpus or {}).get(gid)
            per_node = _one_node_limit(g, con) if g is not None and con is not None else 0
            if per_node:
                skipped[gid] = Msg(CTX, QT_TRANSLATE_NOOP(
                    CTX, "no layout fits in memory within one node of {k} GPUs (consumer cards without P2P stay in "
                         "one node: planning rule “{rule}”)"), {"k": per_node, "rule": _rule_name("consumer_multinode")})
                continue
            skipped[gid] = (Msg(CTX, QT_TRANSLATE_NOOP(CTX, "no layout fits in memory on one GPU (Max GPUs: 1)"), {})
                            if max_gpus == 1 else
                            Msg(CTX, QT_TRANSLATE_NOOP(CTX, "no layout fits in memory with up to {n} GPUs"),
                                {"n": max_gpus}))


def _nothing_fits(evaluated: int, t0: float, tier: str, objective: str, skipped: dict, fws: Any,
                  guidance: str, rental_mode: str | None = None) -> SearchResult:
    """The search's answer when no candidate fits in memory, or, where no GPU type was searched at all because
    none has a price for the rental mode the user set, that (``rental_mode``). Issue 35 round 18 (advice20): a
    Shenzhen team renting by the week (planning guide §3: "long continuous runs → whole machines by the week or
    month") set ``rental_mode: week``; no card on the sheets has a weekly price, no candidate was evaluated, and
    the note said "No candidate fits in memory", which was not true and sent the user to max_gpus."""
    note = Msg(CTX, QT_TRANSLATE_NOOP(CTX, "No candidate fits in memory: allow more GPUs (max_gpus) or larger "
                                           "cards."), {})
    if evaluated == 0 and rental_mode is not None and any(
            getattr(m, "params", {}).get("mode") is not None for m in skipped.values()):
        note = Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "No GPU type has a {mode} price, the rental mode set in the scenario (constraints.rental_mode): "
                 "enter your vendor's quote for it, or set the rental mode to automatic so that the search compares "
                 "the prices it has."), {"mode": Msg("Cost", MODE_LABELS[rental_mode], {})})
    return SearchResult(plans=[], candidates_evaluated=evaluated, candidates_fitting=0,
                        search_ms=(time.perf_counter() - t0) * 1e3, pareto=[], tier=tier,
                        tier_guidance=guidance, objective=objective, feasible=False, skipped_gpus=skipped,
                        frameworks=fws, notes=[note])


def _objective(objective: str) -> str:
    """The ranking objective, checked (one line naming the field otherwise)."""
    if objective not in ("cheapest", "fastest", "value"):
        raise ScenarioError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "objective must be cheapest, fastest or value")),
                            field="constraints.objective")
    return objective


def _search(scenario: Scenario, models: ModelSource | None, *, top: int, objective: str | None,
            prices: PriceTable | None, overheads: Overheads | None, cancel: Callable[[], bool] | None,
            distinct: bool, rules_on: bool, unfit_under: Scenario | None = None) -> SearchResult:
    t0 = time.perf_counter()
    s = scenario
    con = s.constraints
    objective = _objective(objective or con.objective)
    table = prices or PriceTable.from_constraints(con)
    ov = overheads or Overheads()
    arch = resolve_arch(s.model, models)
    facts = _facts_for(arch)
    mf_tok = float(model_flops_per_token(facts, s.training.seq_len, method=s.training.method,
                                         lora_rank=s.training.lora_rank, lora_targets=s.training.lora_targets))
    skipped: dict[str, Msg] = {}
    contexts: list[SearchContext] = []
    evaluated = fitting = 0
    tried: dict[str, int] = {}  # GPU id -> fitting candidates over its frameworks
    fws, searched = searched_frameworks(s, bool(arch.is_moe), arch)
    total_pflop = mf_tok * float(s.data.tokens) / 1e15
    # kept and chosen at the app's full length, then cut: `plan --top 5` is the first rows of the Plans page's list
    # (a pool of `top` rows dropped those the "fastest" tie ranks first: `plan --top 1` named another #1; plangap17)
    keep = max(top, RANKED_LIST_LENGTH) if distinct else top
    red = _Reducer(objective, con.deadline_days, con.budget, total_pflop, con.rules.mfu_grade, keep, distinct)
    gpu_index: dict[str, int] = {}
    memo = _MemoryMemo()
    # the contexts listed first (cheap), so that a chunk's memory is kept only where a later context of the
    # same framework (another GPU type) may reuse it
    all_ctx = list(iter_contexts(s, models, prices=table, overheads=ov, skipped=skipped, rules_on=rules_on,
                                 unfit_under=unfit_under))  # (a saver search: savers15)
    chunks = _ChunkCache(all_ctx, con.max_gpus)
    for ctx in all_ctx:
        if cancel is not None and cancel():
            raise SearchCancelled(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "search cancelled")))
        ci = len(contexts)
        contexts.append(ctx)
        gi = gpu_index.setdefault(ctx.gpu.id, len(gpu_index))
        n_eval, n_fit = _reduce_context(ctx, ci, gi, chunks, memo, red, cancel)
        evaluated += n_eval
        tried[ctx.gpu.id] = tried.get(ctx.gpu.id, 0) + n_fit
        fitting += n_fit
    _note_unfit(tried, skipped, con.max_gpus, {c.gpu.id: c.gpu for c in all_ctx}, con)

    tier = tier_of(facts.params.total)
    guidance = tier_guidance(tier, s.training.method)
    if not fitting:
        return _nothing_fits(evaluated, t0, tier, objective, skipped, fws, guidance, None if all_ctx else con.rental_mode)
    # every candidate any of the choices below can pick, in the search's order (see _Reducer)
    cat = red.result()
    tp_rule = _apply_ranking_rules(cat, contexts, con, objective)
    # per candidate: its GPU type and framework (a context is one GPU type × one framework)
    gpu_ids = list(dict.fromkeys(ctx.gpu.id for ctx in contexts))
    ctx_gpu = np.array([gpu_ids.index(ctx.gpu.id) for ctx in contexts], dtype=np.int64)
    ctx_fw = np.array([FRAMEWORK_INDEX[ctx.framework] for ctx in contexts], dtype=np.int64)
    gpu_of = ctx_gpu[cat["ctx"]]
    fw_of = ctx_fw[cat["ctx"]]
    days, per_pflop = cat["calendar_hours"] / 24.0, cat["cost"] / max(total_pflop, 1e-30)
    poor = _poor_mfu(cat) if con.rules.mfu_grade else None
    order, feasible, meets, within = _rank(objective, days, cat["cost"], per_pflop, con.deadline_days, con.budget,
                                           pen := _penalty_of(cat, con.rules.mfu_grade), _above_poor(cat))
    chosen = (listed := _diverse(order, gpu_of, cat["num_gpus"], keep) if distinct else order[:keep])[:top]
    pareto = _pareto(days, cat, gpu_of, contexts)
    plans = [_make_plan(contexts[int(cat["ctx"][i])], cat, int(i), tier, tp_rule, int(pen[i])) for i in chosen]
    _rank_lines(plans, chosen, order, cat, feasible, con, objective, table.currency, contexts, listed)
    if plans:
        best_by = _best_per_gpu_framework(order, days, cat["cost"], gpu_of, fw_of)
        for i, plan in zip(chosen, plans):
            plan.framework_searched = searched
            plan.framework_reason = framework_reason(plan, int(i), searched, fws, best_by, gpu_of, fw_of, cat,
                                                     days, contexts, s)
        plans[0].decision = decision(chosen[0], order, cat, gpu_of, fw_of, days, contexts, con, objective,
                                     table.currency)
    notes = (_ranking_notes(objective, feasible, poor, order, con, table.currency) + _both_constraints_note(
        feasible, meets, within, days, cat["cost"], con, table.currency, order) + _tp_rule_notes(tp_rule, con, plans, within))
    rvb = plans[0].evaluation.rent_vs_build if plans else None
    return SearchResult(
        rent_vs_build=rvb, plans=plans, candidates_evaluated=evaluated, candidates_fitting=fitting,
        search_ms=(time.perf_counter() - t0) * 1e3, pareto=pareto, tier=tier, tier_guidance=guidance,
        objective=objective, feasible=feasible, notes=notes, skipped_gpus=skipped, frameworks=fws,
        tight_ahead=bool(plans) and feasible and _tight_ahead(int(chosen[0]), order, pen, cat, objective),
    )


def _pareto(days, cat: dict, gpu_of, contexts: list) -> list:
    """The Pareto front of the roomy rows (calendar days against cost, ties kept: :func:`tie_front`), one point per
    GPU type and count (:func:`_distinct_front`)."""
    front = tie_front(days, cat["cost"], _roomy_front(days, cat["cost"], _penalty_of(cat, False, tp=False)))
    return _distinct_front(front, gpu_of, cat, contexts, days)


def _tight_ahead(i: int, order, pen, cat: dict, objective: str) -> bool:
    """Whether a row better than #1 (row ``i``) by the objective ranks after it only for tight memory (planning rule
    "memory headroom", advisor :data:`TIGHT_BIT`): its other failed rules are #1's too. Issue 35 round 14
    (advice14): a year of Qwen2.5-32B full fine-tuning ranked 8 × H20 first (7.8 days, 15,790 CNY a job) over
    8 × H800 at 97% of the card (2.6 days, 5,152 CNY); with the optimizer states in CPU memory (Megatron-Core
    ``--optimizer-cpu-offload``) 4 × H800 fit with room, 4.8 days, 4,849 CNY, and #1 said nothing of it, because
    the savers' search (:mod:`core.advisor_savers`) ran only for a #1 tight itself or leasing an idle term. The tight
    rows are the ones the savers make roomy, so their being ahead by the objective is the same reason to look."""
    pen = np.asarray(pen, dtype=np.int64)
    key = cat["calendar_hours"] / 24.0 if objective == "fastest" else cat["cost"]
    lim = float(key[i]) / (1.0 + FASTEST_TIE) if objective == "fastest" else float(key[i])
    others = np.int64(~advisormod.TIGHT_BIT)
    return any(pen[j] & advisormod.TIGHT_BIT and (pen[j] & others & ~pen[i]) == 0 and float(key[j]) < lim
               for j in (int(j) for j in order))


def _apply_ranking_rules(cat: dict, contexts: list[SearchContext], con: Any, objective: str) -> bool:
    """The rules decided over every kept row (:func:`_apply_tp_rule`, :func:`_apply_poor_rule`); returns the TP
    rule's answer."""
    _apply_poor_rule(cat, objective, cat["calendar_hours"] / 24.0, con)
    return _apply_tp_rule(cat, contexts, con)


def _apply_tp_rule(cat: dict, contexts: list[SearchContext], con: Any) -> bool:
    """"No TP over PCIe when an NVLink card fits the deadline" (issue 31): the rows' TP-over-PCIe penalty counts
    only when :func:`nvlink_fits`; returns whether it does."""
    tp_rule = nvlink_fits(cat, contexts, con)
    if "tp_pcie" in cat:
        cat["tp_pcie"] = cat["tp_pcie"] & tp_rule
    return tp_rule


def _tp_rule_notes(tp_rule: bool, con: Any, plans: list[Plan], within: Any = None) -> list[Msg]:
    """The search's note when plans shown run TP over PCIe that the rule did not rank down. ``within``: per kept row,
    whether its cost is within the budget (an unpriced row's is not); where none is, the budget is what the note
    names, not the NVLink cards (whatif18: a budget set too low read as a rule about interconnects)."""
    if tp_rule or not con.rules.tp_over_pcie or not any(p.evaluation.tp_over_pcie for p in plans):
        return []
    if con.budget is not None and within is not None and not bool(np.asarray(within).any()):
        return [Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "No plan is within the budget of {budget:,.0f} {cur}, so tensor parallelism over PCIe is not ranked "
                 "down: it is timed over PCIe, with no overlap."), {"budget": con.budget, "cur": con.currency})]
    return [Msg(CTX, QT_TRANSLATE_NOOP(
        CTX, "No plan on a card with NVLink meets the deadline and budget at the upper end of its band, so "
             "tensor parallelism over PCIe is not ranked down: it is timed over PCIe, with no overlap."), {})]


def nvlink_fits(cat: Mapping[str, np.ndarray], contexts: list[SearchContext], con: Any) -> bool:
    """Whether some plan on a card with NVLink inside the node meets the deadline and the budget at the upper end
    of its band (no deadline or budget: whether one fits at all) — the condition of the rule "no TP over PCIe when
    an NVLink card fits the deadline" (issue 31). ``cat``: the search's kept rows; the reducer keeps each
    context's best row under the constraints with the band's risk bit leading (:class:`_Reducer`), so a context
    with such a plan has it among them."""
    if not con.rules.tp_over_pcie or not len(cat.get("cost", ())):
        return False
    nvl = np.array([(c.gpu.intra_node_link or "pcie") in ("nvlink", "nvlink-bridge") for c in contexts], bool)
    ok = nvl[cat["ctx"]] & np.isfinite(cat["cost"]) & np.isfinite(cat["calendar_hours"])
    if con.deadline_days is not None:
        ok &= cat["calendar_hours"] / 24.0 <= con.deadline_days
    if con.budget is not None:
        ok &= cat["cost"] <= con.budget
    if "penalty" in cat:
        ok &= (np.asarray(cat["penalty"], np.int64) & advisormod.RISK_BIT) == 0
    return bool(ok.any())


def _best_per_gpu_framework(order, days, cost, gpu_of, fw_of) -> dict[tuple[int, int], int]:
    """The best-ranked candidate per (GPU type, framework): first in ``order``, then, for the pairs with no
    candidate in ``order`` (nothing meeting the constraints), the cheapest of the rest."""
    out: dict[tuple[int, int], int] = {}
    if len(order):
        key = gpu_of[order] * 16 + fw_of[order]
        _, first = np.unique(key, return_index=True)
        for j in first:
            i = int(order[j])
            out[(int(gpu_of[i]), int(fw_of[i]))] = i
    rest = np.flatnonzero(np.isfinite(cost))
    if len(rest):
        rest = rest[np.lexsort((days[rest], cost[rest]))]
        key = gpu_of[rest] * 16 + fw_of[rest]
        _, first = np.unique(key, return_index=True)
        for j in first:
            i = int(rest[j])
            out.setdefault((int(gpu_of[i]), int(fw_of[i])), i)
    return out


def decision(i: int, order, cat, gpu_of, fw_of, days, contexts, con, objective: str, cur: str) -> list[dict]:
    """Why #1 (row ``i``) beat the best plan of the next GPU type and the best plan of another framework, each as
    data and one translatable sentence naming the rule or figure that decided it (issue 31, "explain like an
    expert"). Read from the ranking's own columns (the search's rows), nothing recomputed."""
    out = []
    ranked = [int(j) for j in order] + [int(j) for j in np.argsort(cat["cost"], kind="stable") if j not in set(order)]
    for versus, pick in (("gpu", lambda j: gpu_of[j] != gpu_of[i]),
                         ("framework", lambda j: fw_of[j] != fw_of[i] and gpu_of[j] == gpu_of[i]),
                         ("framework", lambda j: fw_of[j] != fw_of[i])):
        if versus == "framework" and any(d["versus"] == "framework" for d in out):
            continue
        j = next((j for j in ranked if j != i and pick(j)), None)
        if j is None:
            continue
        out.append(_why_beats(i, j, versus, cat, days, contexts, con, objective, cur))
    return out


def _why_days(fig: dict) -> dict:
    """The two plans' days in a why-beats line: the figures rounded to as many decimals (1 to 3) as tell them apart
    ("0.35 against 0.43", not "0.4 against 0.4"), from two decimals when the shorter is under a day ("0.27 against
    0.65", not "0.3 against 0.7"; formatting.days_decimals, ux14); and the spans as the sentence writes them,
    through the one formatter, written together, in hours as soon as one of the two reads in hours — the Plans
    table's column rule (ux22: "¥58 against ¥62 (0.83 against 1.3 days)" under a headline of "19.9 hours")."""
    from ..formatting import days_decimals, elapsed_unit
    from .messages import elapsed_msgs

    d0 = days_decimals(min(fig["days"], fig["other_days"]))
    d = next((k for k in range(d0, 4) if round(fig["days"], k) != round(fig["other_days"], k)), d0)
    return {"days": round(fig["days"], d), "other_days": round(fig["other_days"], d),
            **elapsed_msgs(elapsed_unit(min(fig["days"], fig["other_days"])), me_span=fig["days"],
                           them_span=fig["other_days"])}


#: :func:`_why_beats`' sentences where the objective's tie decided it (:data:`CHEAPEST_TIE`, :data:`FASTEST_TIE`):
#: #1 is no better by the objective's own figure, only within the tie and better by the other
TIE_WHY = {
    "cost_tie": QT_TRANSLATE_NOOP(CTX, "{me} beats {other}: {cost:,.0f} {cur} against {other_cost:,.0f} {cur} is "
                                       "within {tie:.0%}, a difference the estimate cannot tell apart, and it is "
                                       "faster ({me_span} against {them_span})."),
    "days_tie": QT_TRANSLATE_NOOP(CTX, "{me} beats {other}: {me_span} against {them_span} is within {tie:.0%}, a "
                                       "difference the estimate cannot tell apart, and it is cheaper "
                                       "({cost:,.0f} {cur} against {other_cost:,.0f} {cur})."),
}


#: :func:`_why_beats`' sentences where the objective's own figure (or the deadline) decided it
FIGURE_WHY = {
    "deadline": QT_TRANSLATE_NOOP(CTX, "{me} beats {other}: {other} needs {other_span}, over the "
                                       "deadline of {deadline_span}."),
    "cost": QT_TRANSLATE_NOOP(CTX, "{me} beats {other}: {cost:,.0f} {cur} against {other_cost:,.0f} {cur} "
                                   "({me_span} against {them_span})."),
    "days": QT_TRANSLATE_NOOP(CTX, "{me} beats {other}: {me_span} against {them_span} "
                                   "({cost:,.0f} {cur} against {other_cost:,.0f} {cur})."),
}


def _why_beats(i: int, j: int, versus: str, cat, days, contexts, con, objective: str, cur: str) -> dict:
    """The deciding rule or figure between #1 (``i``) and another plan (``j``)."""
    ci, cj = contexts[int(cat["ctx"][i])], contexts[int(cat["ctx"][j])]
    method = ci.scenario.training.method
    me = ci.gpu.name if versus == "gpu" else name_for(ci.framework, method)
    other = cj.gpu.name if versus == "gpu" else name_for(cj.framework, method)
    pen = _penalty_of(cat, con.rules.mfu_grade)
    extra = int(pen[j]) & ~int(pen[i])
    mfu_j = float(cat["mfu"][j])
    used_j = float(cat["mfu_used"][j]) if "mfu_used" in cat else mfu_j
    fig = {"cost": float(cat["cost"][i]), "other_cost": float(cat["cost"][j]), "days": float(days[i]),
           "other_days": float(days[j]), "other_mfu": mfu_j, "other_mfu_used": used_j}
    base = {"me": me, "other": other, "cur": cur, **fig}
    base.update(_why_days(fig))
    rule = advisormod.first_rule(extra)
    if rule == "memory_headroom" and "mem_gib" in cat and cj.gpu.memory_gib:
        # the figures of the tight-memory rule: the other plan's free share against the memory model's p75 error
        margin = advisormod.memory_margin()
        base.update(other_free=advisormod.shown_free_share(
            max(1.0 - float(cat["mem_gib"][j]) / float(cj.gpu.memory_gib), 0.0), margin, True), margin=margin)
    ceil = advisormod.mfu_ceiling(cj.gpu.id, engine_of(cj.framework), float(cj.facts.params.total),
                                  str(cj.resolved.scenario.training.precision)) or {}
    base.update(cls=ceil.get("gpu_type") or "", src=ceil.get("source") or "")
    texts = {
        "price_fabric": QT_TRANSLATE_NOOP(CTX, "{me} beats {other}: the {other} plan ({other_cost:,.0f} {cur}, "
                                               "{them_span}) spans several nodes and its price is from no quote of networked servers (InfiniBand or RoCE), so "
                                               "it ranks after plans priced from quotes of the right kind."),
        "deadline_risk": QT_TRANSLATE_NOOP(CTX, "{me} beats {other}: {other} meets the deadline only at its point "
                                                "estimate, not at the upper end of its band (ranked after safe plans)."),
        "tp_over_pcie": QT_TRANSLATE_NOOP(CTX, "{me} beats {other}: {other} needs tensor parallelism over PCIe "
                                               "(no NVLink), ranked after plans without it while a card with NVLink "
                                               "meets the deadline."),
        "mfu_grade": QT_TRANSLATE_NOOP(CTX, "{me} beats {other}: {other}'s MFU of {other_mfu:.1%} is graded poor."),
        "memory_headroom": QT_TRANSLATE_NOOP(CTX, "{me} beats {other}: {other} leaves {other_free:.1%} of the "
                                                  "memory free, less than the memory model's p75 error of {margin:.1%} "
                                                  "(tight)."),
        "mfu_ceiling": QT_TRANSLATE_NOOP(CTX, "{me} beats {other}: {other}'s modelled {other_mfu:.1%} MFU is above the "
                                              "best published {other_mfu_used:.1%} for {cls} ({src}), so it is costed "
                                              "at {other_mfu_used:.1%}: {other_cost:,.0f} {cur} against {cost:,.0f} "
                                              "{cur}; at its modelled MFU it would have won."),
        "cost_capped": QT_TRANSLATE_NOOP(CTX, "{me} beats {other}: {cost:,.0f} {cur} against {other_cost:,.0f} {cur} "
                                              "({me_span} against {them_span}), even were {other} as fast "
                                              "as its modelled {other_mfu:.1%} MFU (it is costed at the best "
                                              "published {other_mfu_used:.1%} for {cls})."),
        "days_capped": QT_TRANSLATE_NOOP(CTX, "{me} beats {other}: {me_span} against {them_span} "
                                              "({cost:,.0f} {cur} against {other_cost:,.0f} {cur}), even were "
                                              "{other} as fast as its modelled {other_mfu:.1%} MFU (it is timed at the best "
                                              "published {other_mfu_used:.1%} for {cls})."),
        **FIGURE_WHY,
        **TIE_WHY,
    }
    text = None
    if rule is None:
        capped = mfu_j > used_j + 1e-9
        # the ceiling decided it only if, at its modelled MFU, the other plan would have won (its hours, and so
        # roughly its cost, shrink by used/modelled)
        lead, other_lead = (fig["days"], fig["other_days"]) if objective == "fastest" else (fig["cost"], fig["other_cost"])
        if capped and other_lead * used_j / mfu_j < lead:
            rule = "mfu_ceiling"
        elif con.deadline_days is not None and fig["other_days"] > con.deadline_days and objective != "fastest":
            rule = "deadline"
            base.update(deadline=con.deadline_days,  # the spans through the one formatter (deadline_msgs; ux20)
                        **deadline_msgs(other_span=fig["other_days"], deadline_span=con.deadline_days))
        else:
            rule = "days" if objective == "fastest" else "cost"
            text = texts[rule + "_capped"] if capped else None
            if not capped and lead > other_lead:  # ranked first by the tie, not by the objective's own figure
                rule = rule + "_tie"
                base.update(tie=FASTEST_TIE if objective == "fastest" else CHEAPEST_TIE)
    gpu_j, fw_j = cj.gpu.id, cj.framework
    return {"versus": versus, "gpu": gpu_j, "framework": fw_j, "rule": rule, "figures": fig,
            "message": Msg(CTX, text or texts[rule], base)}


def _no_layout_fits(other: str, gpu_name: str, gpu: Any, con: Any, fw: str = "") -> Msg:
    """A framework with no plan on this card: within the GPUs allowed, or, for consumer cards without P2P held to
    one node by the consumer_multinode rule (the search's own filter), within one node; a framework that only
    replicates the model (data parallel, no ZeRO, TP or PP: Unsloth) does not fit the card at any count."""
    sup = FRAMEWORKS.get(fw)
    if sup is not None and sup.zero_stages == (0,) and not (sup.tensor_parallel or sup.pipeline_parallel):
        return Msg(CTX, QT_TRANSLATE_NOOP(CTX, "{other}: does not fit {gpu}: it keeps the whole model on every GPU "
                                               "(data parallel only), so more GPUs do not help."),
                   {"other": other, "gpu": gpu_name})
    per_node = _one_node_limit(gpu, con)
    if per_node:
        return Msg(CTX, QT_TRANSLATE_NOOP(CTX, "{other}: no layout fits {gpu} within one node of {k} GPUs; consumer "
                                               "cards without P2P keep ZeRO-2/3, TP, PP, CP and EP inside one node "
                                               "(planning rule “{rule}”)."),
                   {"other": other, "gpu": gpu_name, "k": per_node, "rule": _rule_name("consumer_multinode")})
    if con.max_gpus == 1:  # "within 1 GPUs" (issue 35 round 6, advice4): one card said as one
        return Msg(CTX, QT_TRANSLATE_NOOP(CTX, "{other}: no layout fits one {gpu} (Max GPUs: 1)."),
                   {"other": other, "gpu": gpu_name})
    return Msg(CTX, QT_TRANSLATE_NOOP(CTX, "{other}: no layout fits {gpu} within {n} GPUs."),
               {"other": other, "gpu": gpu_name, "n": con.max_gpus})


def framework_reason(plan: Plan, i: int, searched: bool, fws, best_by, gpu_of, fw_of, cat, days, contexts,
                     s: Scenario) -> list[Msg]:
    """Which framework the plan runs and why: the scenario's choice, or the search's, with the best plan each
    other framework reaches on the same GPU type; then what the framework takes to set up (the table's line)."""
    from ..formatting import plan_span_numbers  # pure Python, no Qt: the core stays pure
    from .messages import span_msg

    fw = plan.framework
    sup = FRAMEWORKS[fw]
    sup = replace(sup, name=name_for(fw, s.training.method))  # torchtune for a PEFT plan of the fsdp row
    out: list[Msg] = []
    if not searched:
        out.append(Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "Framework: {fw}, as set in the scenario; tick “Choose the framework” on the Plans page to let the "
                 "search compare the others."), {"fw": sup.name}))  # the switch by its label (ux9), as zh_CN said
    else:
        out.append(Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "Framework: {fw}, chosen by the search (frameworks tried on this plan's cards: {n})."),
            {"fw": sup.name, "n": len([f for f in fws if runs_on(f, contexts[int(cat["ctx"][i])].gpu)])}))
        g = int(gpu_of[i])
        gpu = contexts[int(cat["ctx"][i])].gpu
        for other in fws:
            if not runs_on(other, gpu):  # not tried on this card (frameworks.runs_on): said, not "no layout fits"
                out.append(vendor_unsupported(other, gpu))
                continue
            if other == fw:
                continue
            j = best_by.get((g, FRAMEWORK_INDEX[other]))
            oname = name_for(other, s.training.method)
            if j is None:
                out.append(_no_layout_fits(oname, plan.gpu_name, gpu, s.constraints, other))
                continue
            oc, od = float(cat["cost"][j]), float(days[j])
            L = _layout_words(cat, j)
            unit, num, _, _ = plan_span_numbers(od, None, "en")  # in hours below a day, as every plan (ux21)
            out.append(Msg(CTX, QT_TRANSLATE_NOOP(  # one message in either unit (ux22)
                CTX, "{other}: its best plan is {n} × {gpu} ({layout}, MFU {mfu:.0%}), {span}, "
                     "{cost:,.0f} {cur} ({rel:+.0%} against this plan)."),
                {"other": oname, "gpu": plan.gpu_name, "n": int(cat["num_gpus"][j]), "layout": L, "span": span_msg(unit, num),
                 "mfu": float(cat["mfu_used" if "mfu_used" in cat else "mfu"][j]),
                 "cost": oc,
                 "cur": plan.currency,
                 "rel": _rel(oc, plan.cost)}))
        excluded = [FRAMEWORKS[f].name for f in FRAMEWORK_ORDER if f not in fws
                    and s.training.method not in FRAMEWORKS[f].methods]
        if excluded:
            out.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Not tried: {names} (does not run {method})."),
                           {"names": ", ".join(excluded), "method": _method_words(s.training.method)}))
        out += _not_for_the_model(contexts[int(cat["ctx"][i])].resolved.arch, fws, s)
    out.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "{fw}: {setup}."), {"fw": sup.name, "setup": Msg("Framework", sup.setup)}))
    if fw == "deepspeed" and plan.num_gpus == 1 and plan.evaluation.layout.zero == 0:
        par = plan.evaluation.scenario.parallel
        out.append(_one_gpu_offload_deepspeed() if par.offload_optimizer or par.offload_params
                   else _one_gpu_deepspeed(plan.evaluation.scenario.training.precision))
    if (sup.pp_searched_methods is not None and s.training.method not in sup.pp_searched_methods + ("lora", "qlora")
            and plan.num_gpus > 1):
        out.append(_pp_rewrite(sup.name))
    no_vpp = no_vpp_words(fw, s.training.objective)
    if no_vpp is not None and plan.evaluation.layout.pp > 1:
        out.append(no_vpp)
    return out


def _pp_rewrite(fw_name: str) -> Msg:
    """What DeepSpeed pipeline parallelism takes for a fine-tune (``FrameworkSupport.pp_searched_methods``): the
    search does not try it (a layout the user enters with it is warned: evaluate._model_support)."""
    return Msg(CTX, QT_TRANSLATE_NOOP(
        CTX, "Pipeline parallelism with {fw} is not tried for fine-tuning: the Hugging Face Trainer's DeepSpeed "
             "integration runs ZeRO only, and a pipeline needs the model rewritten by hand as a "
             "deepspeed.pipe.PipelineModule."), {"fw": fw_name})


def _one_gpu_deepspeed(precision: str) -> Msg:
    """What a DeepSpeed plan on one GPU with ZeRO-0 is (issue 35 round 6, advice4: "DeepSpeed" on one card read as
    a sharding stack): the HF Trainer with a DeepSpeed config, nothing sharded; DeepSpeed's engine casts the model to
    the training precision (runtime/engine.py ``_configure_distributed_model``: ``self.module.bfloat16()``, up to
    0.19.1; a per-parameter cast from 0.19.2) and the Trainer runs no autocast under it, which is why its memory and
    time differ from the plain Trainer's (core/memory.py: autocast, PEFT's fp32 upcast for QLoRA)."""
    return Msg(CTX, QT_TRANSLATE_NOOP(
        CTX, "On one GPU with ZeRO-0 nothing is sharded: this is the Hugging Face Trainer launched with a DeepSpeed "
             "config (--deepspeed, zero_optimization stage 0). DeepSpeed's engine holds the model in {precision} "
             "and the Trainer runs no autocast under it (PEFT's fp32 copies of the norms and embeddings are cast "
             "back too): that, not sharding, is what differs from the plain Trainer."), {"precision": precision})


def _one_gpu_offload_deepspeed() -> Msg:
    """The DeepSpeed config of a one-GPU plan with CPU offload. The plan's ZeRO is 0 (one rank: nothing to shard),
    but DeepSpeed's CPU offload is a ZeRO option: ``zero_optimization.offload_optimizer`` is "valid for ZeRO stage 1,
    2, 3" (DeepSpeed configuration docs, deepspeed.ai/docs/config-json, "Optimizer offloading"), and with ZeRO on,
    ``DeepSpeedEngine._configure_optimizer`` builds the ZeRO optimizer (microsoft/DeepSpeed runtime/engine.py), which
    is what the time model charges (timing.ds_bf16_grad_accum_of, mend17b). The ZeRO-Offload tutorial
    (deepspeed.ai/tutorials/zero-offload) runs it at stage 2. Issue 35 round 18 (advice20): the line said "stage 0",
    a config DeepSpeed does not offload at (session-17 closing note, mend17b's leftover)."""
    return Msg(CTX, QT_TRANSLATE_NOOP(
        CTX, "On one GPU nothing is sharded, but DeepSpeed offloads the optimizer only with ZeRO on: launch the "
             "Hugging Face Trainer with a DeepSpeed config at zero_optimization stage 2 with offload_optimizer "
             "device cpu (DeepSpeed's ZeRO-Offload; its offload keys are valid at stages 1–3, not 0)."), {})


def _not_for_the_model(arch, fws, s: Scenario) -> list[Msg]:
    """"Not tried" lines for the frameworks of the table that run the method but not this model
    (:func:`frameworks.model_unsupported`), so that a missing Megatron-Core line on a Qwen2-VL plan is said."""
    out = []
    for f in FRAMEWORK_ORDER + FRAMEWORK_TOOLS:
        if f in fws or s.training.method not in FRAMEWORKS[f].methods:
            continue
        if f in FRAMEWORK_TOOLS and f not in MOE_PEFT_TOOLS:
            continue  # tools are the user's pick, not searched: no line for those never in the list
        why = model_unsupported(f, arch.model_type, bool(arch.vision_kind), arch.name, s.training.method)
        if why is not None:
            out.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Not tried: {why}."), {"why": why}))
    return out


def _rel(other: float, cost: float) -> float:
    """``other`` against ``cost`` as a share; a tie to half a percent is 0 (a search cost and an evaluated one differ
    in the last digits, and "-0%" read as cheaper than the plan chosen)."""
    if not cost or not math.isfinite(cost):
        return 0.0
    rel = other / cost - 1.0
    return 0.0 if abs(rel) < 0.005 else rel


def _layout_words(cat, j: int) -> str:
    bits = [f"{k.upper()} {int(cat[k][j])}" for k in ("tp", "pp", "cp", "ep") if int(cat[k][j]) > 1]
    bits.append(f"DP {int(cat['dp'][j])}")
    if int(cat["zero"][j]):
        bits.append(f"ZeRO-{int(cat['zero'][j])}")
    return " × ".join(bits[:-1] + [bits[-1]]) if len(bits) > 1 else bits[0]


# -------------------------------------------------------------------------------------------- explain


def _make_plan(ctx: SearchContext, cat: dict, i: int, tier: str, tp_rule: bool = True, penalty: int = 0) -> Plan:
    """The shown plan: :func:`evaluate.evaluate` on the candidate's complete scenario (the same formulas the
    ranking used), with the search's explanation and warnings. ``tp_rule``: whether TP over PCIe was ranked
    down (:func:`nvlink_fits`); where it was not, the plan's verdict on that rule says why. ``penalty``: the row's
    ranking penalty (:func:`_penalty_of`), kept on the plan (:attr:`Plan.penalty`)."""
    scen = candidate_scenario(ctx, cat, i)
    ev = evaluate(scen, resolved=replace(ctx.resolved, scenario=scen), prices=ctx.table, overheads=ctx.overheads)
    if not tp_rule and ev.tp_over_pcie:
        ev = replace(ev, rules=tuple(rulesmod.tp_over_pcie_waived(r, ev.layout.tp, ev.gpu_name)
                                     if r.id == "tp_over_pcie" else r for r in ev.rules))
    limits = {k[5:]: float(v[i]) for k, v in cat.items() if k.startswith("frac_") and np.isfinite(v[i])}
    plan = Plan.from_evaluation(ev, limits)
    plan.penalty = int(penalty)
    plan.peak_tflops = _peak(ctx.gpu, scen.training.precision)
    plan.link = _link(ctx.gpu)
    plan.explanation = explain(ctx, plan)
    plan.warnings = plan_warnings(ctx, plan, tier)
    return plan


def _peak(gpu, precision: str) -> float | None:

    v = peak_tflops(gpu, precision)
    if v is None and precision in ("bf16", "fp16"):
        v = peak_tflops(gpu, "fp16" if precision == "bf16" else "bf16")
    return None if v is None else float(v)


def compare_plans(a: Plan, b: Plan) -> list[Msg]:
    """Why plan ``a`` costs more or less per token than plan ``b``, from their numbers.

    Cost per token = price per card-hour / (tokens per card-hour); tokens per card-hour ∝ peak × MFU, so
    ``cost_a/cost_b = (price_a/price_b) × (eff_b/eff_a) × rest``, where ``rest`` collects setup,
    checkpoints, interruptions and billing granularity (the timing module's MFU definition). The price per
    card-hour is the chosen rental mode's (a week's or month's price spread over its hours). Cards are named
    by their names; two plans on the same card are compared by layout and framework, not card against card.
    """
    out: list[Msg] = []
    for p in (a, b):
        # a nested message: translated with the sentence, never formatted in English first
        # (the network has its own sentence: a translation joins "the network" to its words differently from a
        # link's name such as NVLink)
        z = (QT_TRANSLATE_NOOP(CTX, "no ZeRO") if not p.zero
             else Msg(CTX, QT_TRANSLATE_NOOP(CTX, "ZeRO-{z} over {link}"), {"z": p.zero, "link": p.link})
             if p.nodes == 1 else Msg(CTX, QT_TRANSLATE_NOOP(CTX, "ZeRO-{z} over the network"), {"z": p.zero}))
        out.append(Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "{n} × {gpu}: {price:,.2f} {cur} per card-hour for {eff:,.0f} effective TFLOPS per card "
                 "({peak:,.0f} peak × {mfu:.0%} utilisation; micro-batch {mbs}, {zero}) → {cpt:,.3f} {cur} per "
                 "million tokens."),
            {"n": p.num_gpus, "gpu": p.gpu_name, "price": p.price_per_card_hour or 0.0, "cur": p.currency,
             "eff": p.effective_tflops_per_gpu or 0.0, "peak": p.peak_tflops or 0.0, "mfu": p.mfu or 0.0,
             "mbs": p.micro_batch_size, "zero": z, "cpt": p.cost_per_million_tokens}))
    pa, pb = a.price_per_card_hour, b.price_per_card_hour
    ea, eb = a.effective_tflops_per_gpu, b.effective_tflops_per_gpu
    # no ratio against a plan whose tokens cost nothing or are unknown (data.tokens 0: a ZeroDivisionError in
    # the report before; issue #32 round 2, found by the report's 10,000-case fuzz)
    cb = b.cost_per_million_tokens
    if not (cb and math.isfinite(cb) and a.cost_per_million_tokens is not None):
        return out
    if a.gpu == b.gpu:
        if ea and eb:
            cr = a.cost_per_million_tokens / b.cost_per_million_tokens
            # a ratio that prints "1.00×" said "so the tokens of the first cost 1.00× as much" after two different
            # MFUs, a "so" that follows from nothing (the GPU counts differ too): said as it is (ux20)
            same = f"{cr:.2f}" == "1.00"
            out.append(Msg(CTX, QT_TRANSLATE_NOOP(
                CTX, "Both run on {gpu}: {la} with {fa} reaches {ma:.0%} MFU, {lb} with {fb} {mb:.0%}; their tokens "
                     "cost about the same.") if same else QT_TRANSLATE_NOOP(
                CTX, "Both run on {gpu}: {la} with {fa} reaches {ma:.0%} MFU, {lb} with {fb} {mb:.0%}, so the tokens "
                     "of the first cost {cr:.2f}× as much."),
                {"gpu": a.gpu_name, "la": _plan_layout(a), "fa": a.framework_name, "ma": a.mfu or 0.0,
                 "lb": _plan_layout(b), "fb": b.framework_name, "mb": b.mfu or 0.0, "cr": cr}))
    elif pa and pb and ea and eb:
        price_r, eff_r = pa / pb, ea / eb
        cost_r = a.cost_per_million_tokens / b.cost_per_million_tokens
        out.append(Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "{a} costs {pr:.2f}× as much per card-hour as {b} and delivers {er:.2f}× the effective TFLOPS, so "
                 "its tokens cost {cr:.2f}× as much (setup, checkpoints and billing make the rest: {rest:.2f}×)."),
            {"a": a.gpu_name, "b": b.gpu_name, "pr": price_r, "er": eff_r, "cr": cost_r,
             "rest": cost_r / (price_r / eff_r)}))
    return out


def _plan_layout(p: Plan) -> str:
    bits = [f"{k.upper()} {getattr(p, k)}" for k in ("tp", "pp", "cp", "ep") if getattr(p, k) > 1]
    bits.append(f"DP {p.dp}")
    if p.zero:
        bits.append(f"ZeRO-{p.zero}")
    return " × ".join(bits)


def _link(gpu) -> str:
    return {"nvlink": "NVLink", "nvlink-bridge": "NVLink bridge", "pcie": "PCIe"}.get(gpu.intra_node_link or "",
                                                                                     gpu.intra_node_link or "?")


def _cp_ep_lines(s: Scenario, arch, p: Plan) -> list[Msg]:
    """Context and expert parallelism in words: the GPUs a plan spends on them are otherwise unaccounted for
    (GPUs = TP × PP × CP × DP; EP is carved out of DP × CP in Megatron-Core, ``expert_model_parallel_size``
    dividing the data-parallel size: Megatron-Core ``parallel_state.initialize_model_parallel``)."""
    out = []
    if p.cp > 1:
        out.append(Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "Context parallel {cp}: each sequence of {seq:,} tokens is split over {cp} GPUs ({per:,} tokens "
                 "each); attention exchanges keys and values between them."),
            {"cp": p.cp, "seq": s.training.seq_len, "per": s.training.seq_len // p.cp}))
    n = int(getattr(arch, "num_experts", 0) or 0)
    if p.ep > 1 and n:
        out.append(Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "Expert parallel {ep}: {per} of the {n} experts of each MoE layer on each GPU; tokens reach their "
                 "experts by all-to-all."), {"ep": p.ep, "per": n // p.ep, "n": n}))
    return out


#: Where an RL plan's rollouts run (``training.rl.generation_engine``), as its explanation says it
ROLLOUT_ENGINE_LINES = {
    "vllm_colocated": QT_TRANSLATE_NOOP(CTX, "Rollout generation: vLLM colocated on the training GPUs, {frac:.0%} of "
                                             "each step (the training passes take the rest)."),
    "vllm_separate": QT_TRANSLATE_NOOP(CTX, "Rollout generation: vLLM on GPUs of its own; waiting for it is {frac:.0%} "
                                            "of each step."),
    "training": QT_TRANSLATE_NOOP(CTX, "Rollout generation: the training framework's own generate(), {frac:.0%} of "
                                       "each step."),
}
#: The training model generating through DeepSpeed-Chat's Hybrid Engine (``training.rl.hybrid_engine``, timed with
#: DeepSpeed-Inference's fused kernels: methods.method_profile), said as such (parity13 found the plain line above)
HYBRID_ENGINE_LINE = QT_TRANSLATE_NOOP(CTX, "Rollout generation: the training model through DeepSpeed's Hybrid Engine "
                                            "(fused inference kernels), {frac:.0%} of each step.")


def _rollout_line(s: Scenario, p: Plan) -> list[Msg]:
    """An RL plan's rollouts: the engine and their share of the step as timed (the time share's "generation"), read
    from the plan's own scenario (a search over frameworks picks the tool, and with it whether DeepSpeed's Hybrid
    Engine runs)."""
    s = getattr(p.evaluation, "scenario", None) or s
    if not method_profile(s.training).rl:
        return []
    frac = float((p.evaluation.time.breakdown or {}).get("generation", 0.0))
    text = ROLLOUT_ENGINE_LINES.get(str(s.training.rl.generation_engine))
    if method_profile(s.training).hybrid_engine:
        text = HYBRID_ENGINE_LINE
    return [Msg(CTX, text, {"frac": frac})] if text and frac > 0 else []


def _largest_loss_part(p: Plan, worst: str, frac: float) -> tuple[Any, float]:
    """What the "Largest loss" line names: the step's part ``worst`` (the ranking's share ``frac``), or, where one
    named mechanism inside it (:data:`timing.PART_PARENT`) outweighs the rest of that part in the plan's own
    breakdown, that mechanism with its share (a NeMo RL plan's host copies, not "the optimizer step"; a QLoRA plan's
    dequantisation). Read from the Evaluation, as the Plans details' table is."""
    bd = p.evaluation.time.breakdown
    inner = {k: v for k, v in bd.items() if timing.PART_PARENT.get(k) == worst}
    if inner:
        key, share = max(inner.items(), key=lambda kv: kv[1])
        if share > bd.get(worst, 0.0):
            return Msg("Timing", timing.BREAKDOWN_LABELS[key]), share
    return PART_LABELS.get(worst, worst), frac


def _largest_loss_line(p: Plan, worst: str, frac: float) -> Msg | None:
    """The "Largest loss" line (5% of the step or more): the part :func:`_largest_loss_part` names, or, where the
    part holds a named mechanism that does not outweigh the rest of it but is visible (1% of the step or more),
    both with their shares. The pipeline's share is its bubble and the wait for the last stage's output layer
    (timing ``pp_imbalance`` inside ``pp_bubble``); naming it "the pipeline bubble" put "takes 8% of each step" under
    the line "keep the pipeline bubble at 4.7%" (the interleaved schedule's (p−1)/(v·m)) on the 70B pretraining
    example's #1 (issue 35 round 10, advice11)."""
    what, frac = _largest_loss_part(p, worst, frac)
    if frac < 0.05:
        return None
    bd = p.evaluation.time.breakdown
    inner = {k: v for k, v in bd.items() if timing.PART_PARENT.get(k) == worst}
    key, share = max(inner.items(), key=lambda kv: kv[1]) if inner else (None, 0.0)
    own = float(bd.get(worst, 0.0))
    if key is None or share < 0.01 or share > own:
        return Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Largest loss: {what} takes {frac:.0%} of each step."),
                   {"what": what, "frac": frac})
    return Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Largest loss: {what} ({own:.1%}) and {inner} ({share:.1%}), together "
                                           "{frac:.0%} of each step."),
               {"what": what, "own": own, "inner": Msg("Timing", timing.BREAKDOWN_LABELS[key]), "share": share,
                "frac": frac})


def explain(ctx: SearchContext, p: Plan) -> list[Msg]:
    """Why this layout, what limits it — sentences built from the plan's numbers."""
    from ..formatting import plan_span_numbers  # pure Python, no Qt: the core stays pure
    from .messages import span_msg

    s = ctx.scenario
    arch = ctx.resolved.arch
    unit, num, _, _ = plan_span_numbers(p.calendar_days, p.evaluation.calendar_days_band, "en")
    # the days exactly as the plan's headline shows them, at its range's precision ("0.073" beside "0.068–0.073",
    # not "0.07"; formatting.format_plan_days, ux14 / mend10c), in the unit of its whole range (ux21, ux22: one
    # message in either unit)
    mem = p.evaluation.memory  # the sum every view says (messages.memory_sum_msg; ux28)
    out = [Msg(CTX, QT_TRANSLATE_NOOP(
        CTX, "{n} × {gpu} ({nodes} node(s)): {mem} per GPU, {span} in calendar time, {cost:,.0f} {cur}."),
        {"n": p.num_gpus, "gpu": p.gpu_name, "nodes": p.nodes, "mem": memory_sum_msg(mem.total, mem.headroom,
                                                                                      mem.capacity),
         "span": span_msg(unit, num), "cost": p.cost, "cur": p.currency})]
    if p.tp > 1:
        out.append(Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "Tensor parallel {tp}: each layer's weights split over {tp} GPUs inside one node ({link})."),
            {"tp": p.tp, "link": _link(ctx.gpu)}))
    m = int(getattr(p.evaluation.layout, "pipeline_microbatches", 0) or p.grad_accum)
    if p.pp > 1 and p.vpp > 1:
        # the interleaved schedule: v model chunks per GPU cut the bubble v-fold, (p−1)/(v·m) (Narayanan et al.
        # 2021 §2.2.2; timing's bubble_share (pp − 1)/vpp)
        out.append(Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "Pipeline parallel {pp}, interleaved with {v} virtual stages per GPU: {layers} layers, about {per} "
                 "per chunk; {m} micro-batches per step keep the pipeline bubble at {bubble:.1%} ((p−1)/(v·m))."),
            {"pp": p.pp, "v": p.vpp, "layers": arch.num_layers, "per": math.ceil(arch.num_layers / (p.pp * p.vpp)),
             "m": m, "bubble": (p.pp - 1) / max(p.vpp * m, 1)}))
    elif p.pp > 1:
        out.append(Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "Pipeline parallel {pp}: {layers} layers in stages of about {per} layers; {m} micro-batches per step "
                 "keep the pipeline bubble at {bubble:.0%} ((p−1)/m)."),
            {"pp": p.pp, "layers": arch.num_layers, "per": math.ceil(arch.num_layers / p.pp), "m": m,
             "bubble": (p.pp - 1) / max(m, 1)}))
    out += _cp_ep_lines(s, arch, p)
    if p.zero > 0:
        what = {1: QT_TRANSLATE_NOOP(CTX, "optimizer states"), 2: QT_TRANSLATE_NOOP(CTX, "optimizer states and gradients"),
                3: QT_TRANSLATE_NOOP(CTX, "optimizer states, gradients and weights")}[p.zero]
        if p.cp > 1 and engine_of(p.framework) in ("megatron", "fsdp"):
            # the sharding group is data × context parallel (core/memory.py: Megatron's distributed optimizer over
            # the data-parallel group with context parallel; torchtitan/torchtune fully_shard on dp_shard_cp)
            out.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "ZeRO-{z}: {what} sharded over {n} GPUs ({dp} data-parallel × "
                                                       "{cp} context-parallel ranks)."),
                           {"z": p.zero, "what": what, "n": p.dp * p.cp, "dp": p.dp, "cp": p.cp}))
        else:
            out.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "ZeRO-{z}: {what} sharded over the {dp} data-parallel GPUs."),
                           {"z": p.zero, "what": what, "dp": p.dp}))
        if p.zero == 3 and engine_of(p.framework) == "megatron":
            # how Megatron runs ZeRO-3 (core/megatron_fsdp.py; Megatron-LM docs "Megatron-FSDP")
            out.append(Msg(CTX, QT_TRANSLATE_NOOP(
                CTX, "Megatron-FSDP: --use-megatron-fsdp --data-parallel-sharding-strategy optim_grads_params "
                     "(Megatron-Core 0.14 or later; checkpoints in the fsdp_dtensor format)."), {}))
    elif p.dp > 1:
        out.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Plain data parallel over {dp} GPUs: the model states fit without sharding."),
                       {"dp": p.dp}))
    if p.recompute != "none":
        out.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Activation recomputation ({rc}) trades extra compute for memory."),
                       {"rc": recompute_label_msg(p.recompute, s.training.recompute_modules)}))
    out.append(Msg(CTX, QT_TRANSLATE_NOOP(
        CTX, "Per step: {gbs:,} sequences of {seq:,} tokens = micro-batch {mbs} × gradient accumulation {ga} × "
             "data-parallel replicas {dp}."),
        {"mbs": p.micro_batch_size, "ga": p.grad_accum, "dp": p.dp, "gbs": p.global_batch_size, "seq": s.training.seq_len}))
    # what limits it
    use = p.memory_per_gpu_gib / max(p.gpu_memory_gib, 1e-9)
    if use > 0.85:
        out.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Limited by memory: {use:.0%} of each GPU is used."), {"use": use}))
    if p.limits:
        parts = {k: v for k, v in p.limits.items() if k != "compute"}
        if parts:
            worst, frac = max(parts.items(), key=lambda kv: kv[1])
            line = _largest_loss_line(p, worst, frac)
            if line is not None:
                out.append(line)
    out.extend(_rollout_line(s, p))
    if p.mfu is not None:
        out.append(_utilisation_line(s, p))
    return out


def _utilisation_line(s: Scenario, p: Any) -> Msg:
    """The plan's MFU and cost per million tokens. An FP8 plan's MFU is counted on the card's dense BF16 peak
    (timing: ``mfu = tokens/s × model FLOPs / peak16``; advisor.FP8_CEILINGS, the published FP8 runs it is checked
    against, count the same way), so it can pass 100%: the line names that peak (advice17: an FP8 Qwen2.5-14B on
    8 × H20 read "Estimated utilisation 123% of peak")."""
    args = {"mfu": p.mfu, "cpt": p.cost_per_million_tokens, "cur": p.currency}
    if s.training.precision == "fp8":
        return Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "Estimated utilisation {mfu:.0%} of the card's BF16 peak (FP8 plans are counted on the BF16 figure, "
                 "as the published FP8 runs they are checked against; FP8 matrix multiplies run up to twice as fast) "
                 "→ {cpt:,.2f} {cur} per million tokens."), args)
    note = getattr(p.evaluation, "mfu_note", None)
    if note is not None and (p.evaluation.mfu_ceiling or {}).get("fallback"):  # a ceiling borrowed from other classes
        return Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "Estimated utilisation {mfu:.0%} of peak, held at the ceiling it borrows ({note}) → {cpt:,.2f} {cur} "
                 "per million tokens."), {**args, "note": note})
    if note is not None:  # capped: the MFU printed is the ceiling's, and the line says so (advice18)
        return Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "Estimated utilisation {mfu:.0%} of peak, held at the best published run of its class ({note}) → "
                 "{cpt:,.2f} {cur} per million tokens."), {**args, "note": note})
    return Msg(CTX, QT_TRANSLATE_NOOP(
        CTX, "Estimated utilisation {mfu:.0%} of peak → {cpt:,.2f} {cur} per million tokens."), args)


def _slow_network(s: Scenario, p: Any, net: str, tier: str) -> list[Msg]:
    """The warning when the servers' network is below the tier's "≥400 Gb/s between nodes" (for an 8-GPU server;
    scaled by its GPUs), the network by its name, not its catalog id, and per server as it is checked (ux9)."""
    nw = get_network(net)
    gbps = (nw.gbps_per_nic or 0) * (s.hardware.nics_per_node or server_nics(nw, p.gpus_per_node) or 1)
    need = 400 * p.gpus_per_node / 8
    if tier == "10B" or gbps >= need:
        return []
    return [Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Multi-node training of this size wants ≥{need:g} Gb/s per server between "
                                            "nodes; {net} gives {have:g} Gb/s."),
                {"net": nw.name, "need": need, "have": gbps})]


def _server_warnings(s: Scenario, p: Plan, gpu: Any, tier: str) -> list[Msg]:
    """What a plan's servers call for: servers smaller than the user's count where the card comes fewer to a server
    (catalog_hw.server_gpus), and the link between servers: none inside one NVLink domain (GB200 NVL72's trays talk
    over the rack's NVLink switches, evaluate.within_nvlink_domain; issue 35 round 15, consist15), else the
    network's speed, or a question to the vendor."""
    w: list[Msg] = list(server_gpus_message(p.evaluation.scenario, gpu))  # servers smaller than the card's usual
    if (s.hardware.gpus_per_node > p.gpus_per_node and p.num_gpus > p.gpus_per_node
            and s.hardware.gpus_per_node != type(s.hardware).model_fields["gpus_per_node"].default):
        # the user's servers (a count other than the field's default) hold more than this card's: the card's own
        w.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "{gpu} comes at most {k} to a server: this plan uses servers of {k}, "
                                                 "not the {g} GPUs per node entered."),
                     {"gpu": gpu.name, "k": p.gpus_per_node, "g": s.hardware.gpus_per_node}))
    if p.nodes <= 1:
        return w
    if within_nvlink_domain(p.evaluation.scenario, gpu):
        w.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "{nodes} servers inside one NVLink domain of {dom} GPUs: they talk "
                                                 "over the rack's NVLink switches, no network between servers is "
                                                 "used."), {"nodes": p.nodes, "dom": advisormod.nvlink_domain(gpu)}))
    elif s.hardware.inter_node:
        w.extend(_slow_network(s, p, s.hardware.inter_node, tier))
    else:
        w.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "{nodes} nodes: ask the vendor for the network between nodes "
                                                 "(≥400 Gb/s InfiniBand/RoCE for large models)."), {"nodes": p.nodes}))
    return w


def plan_warnings(ctx: SearchContext, p: Plan, tier: str) -> list[Msg]:
    """Warnings the numbers call for (PCIe TP, cross-node TP, MFU assumption, Chinchilla, small batch ...)."""
    s, gpu, arch = ctx.scenario, ctx.gpu, ctx.resolved.arch
    w: list[Msg] = list(model_support_warnings(p.evaluation.scenario, ctx.resolved))
    w += lora_dropout_default_message(p.evaluation.scenario)  # the plan's framework's own default, when used
    w += retired_recompute_message(p.evaluation.scenario)  # a torchtitan mode only older versions run
    w += a2a_overlap_pairless_message(p.evaluation.scenario)  # the EP overlap with no micro-batch pairs
    if p.tp > 1 and gpu.intra_node_link == "pcie":
        w.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Tensor parallelism over PCIe ({tp} GPUs): every layer all-reduces "
                                                 "over PCIe; expect poor scaling."), {"tp": p.tp}))
    dom = gpu.nvlink_domain or 1
    if p.tp > 1 and gpu.intra_node_link in ("nvlink", "nvlink-bridge") and p.tp > dom:
        w.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Tensor parallel {tp} is larger than the NVLink domain of {dom} GPUs: "
                                                 "part of its traffic goes over PCIe."), {"tp": p.tp, "dom": dom}))
    if p.tp > p.gpus_per_node:
        w.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Tensor parallelism across nodes ({tp} > {g} GPUs per node)."),
                     {"tp": p.tp, "g": p.gpus_per_node}))
    # over the network only where the plan leaves its NVLink domain: GB200 NVL72's trays reach each other over the
    # rack's NVLink switches (advisor.nvlink_domain; timing.nvlink_span times their data-parallel traffic there)
    nv_dom = advisormod.nvlink_domain(gpu)
    cross = p.nodes > 1 and not advisormod.in_nvlink_domain(p.num_gpus, nv_dom)
    if p.zero >= 2 and p.dp > 1 and (gpu.intra_node_link == "pcie" or cross):
        w.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "ZeRO-{z} moves gradients{w} every step over {link}; this traffic "
                                                 "lowers utilisation."),
                     {"z": p.zero, "w": QT_TRANSLATE_NOOP(CTX, " and weights") if p.zero == 3 else "",
                      "link": QT_TRANSLATE_NOOP(CTX, "the network between nodes") if cross else "PCIe"}))
    if p.mfu is not None:
        w.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "The time assumes {mfu:.0%} model FLOPs utilisation; measure a short "
                                                 "run and correct it."), {"mfu": p.mfu}))
    if s.training.method == "pretrain":
        per = ctx.tokens / max(ctx.facts.params.total, 1)
        if per < CHINCHILLA_TOKENS_PER_PARAM:
            w.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Only {per:.1f} tokens per parameter: pretraining from scratch "
                                                     "uses about 20 to be compute-optimal (Chinchilla); continued "
                                                     "pretraining of a trained model needs far fewer."), {"per": per}))
    target = ctx.target_batch_seqs
    if target is not None and p.micro_batch_size * p.dp > 1.5 * target:
        w.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "The batch is too small to keep {n} GPUs busy: one micro-batch per "
                                                 "replica already makes {gbs} sequences per step, above the usual "
                                                 "{target}."), {"n": p.num_gpus, "gbs": p.global_batch_size, "target": target}))
    if p.pp > 1 and p.grad_accum < 4 * p.pp:
        w.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Only {m} micro-batches for {pp} pipeline stages: the bubble wastes "
                                                 "{b:.0%} of the time; use a larger global batch."),
                     {"m": p.grad_accum, "pp": p.pp, "b": (p.pp - 1) / max(p.grad_accum, 1)}))
    if tier in ("100B", "1000B") and p.gpu_memory_gib < 80 and s.training.method != "qlora":
        # QLoRA: the 4-bit frozen weights decide the card (tier guidance: one 48–80 GB card for a ~70B model)
        w.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "A model of this size normally runs on cards with ≥80 GB."), {}))
    w += _server_warnings(s, p, gpu, tier)
    host = host_ram_line(p.evaluation.host_ram)  # (CPU offload: the server's host RAM is rented too)
    w += [] if host is None else [host]
    if tier == "1000B" or s.constraints.phase == "burst" or p.num_gpus >= 256:
        w.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "{n} cards: confirm the vendor's real elastic capacity before "
                                                 "planning on it."), {"n": p.num_gpus}))
    if not p.meets_deadline:
        w.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Misses the deadline of {d}."), deadline_msgs(d=s.constraints.deadline_days or 0)))
    if not p.within_budget:
        w.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Over the budget of {b:,.0f} {cur}."),
                     {"b": s.constraints.budget or 0, "cur": p.currency}))
    if getattr(gpu, "gpu_class", None) == "domestic":
        # the planning guide's FAQ on domestic accelerators: cheaper, but the porting is the hidden big item
        w.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "{gpu} is a domestic accelerator: framework and operator support "
                                                 "varies and porting the software is the hidden cost; run your own "
                                                 "training script on a small instance before renting in bulk."),
                     {"gpu": gpu.name}))
        if getattr(gpu, "vendor", None) == "Huawei" and engine_of(p.framework) == "megatron":
            # Megatron-LM on Ascend NPUs runs through Huawei's MindSpeed adapter (hiascend.com MindSpeed docs:
            # "MindSpeed Core: migrating Megatron from GPU to NPU"; ms-swift "NPU support": MindSpeed(Megatron) is
            # how Megatron-SWIFT runs there), not Transformer Engine and Apex
            w.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "On {gpu}, {fw} runs through Huawei's MindSpeed adapter (no "
                                                     "Transformer Engine or Apex): ask the vendor for an image with "
                                                     "MindSpeed matching your Megatron version."),
                         {"gpu": gpu.name, "fw": FRAMEWORKS[p.framework].name}))
    return w + _default_price_warnings(p.evaluation.price or ctx.price, gpu.name, p.rental_mode)


def _default_price_warnings(price, gpu_name: str, mode: str) -> list[Msg]:
    """The warning that a plan is billed on a default price (``price``: the offer that billed it,
    PriceTable.for_nodes): the whole quote, or the one price of the plan's rental ``mode`` that the user's quote
    does not give (:meth:`cost.GpuPrice.kept_fields`; issue 35 round 14, advice14)."""
    if price.is_default:
        return [Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Uses the default price for {gpu} ({date}): enter your quote."),
                    {"gpu": gpu_name, "date": price.source_date})]
    if price.kept_fields(mode):
        return [Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Billed on {mode} at the default price for {gpu} ({date}), which "
                                                "your quote does not give: enter your own."),
                    {"gpu": gpu_name, "date": price.kept_date, "mode": Msg("Cost", MODE_LABELS[mode])})]
    return []


def _method_words(method: str):
    """``lora`` -> the message "LoRA fine-tuning" (:data:`frameworks.METHOD_WORDS`, shown translated); another
    method's name in capitals (DPO)."""
    from .frameworks import CTX as FRAMEWORK_CTX, METHOD_WORDS

    words = METHOD_WORDS.get(method)
    return Msg(FRAMEWORK_CTX, words) if words else str(method).upper()
