"""Everything the printed plan shows, gathered from the core into plain data (no Qt here).

:func:`build_report_data` takes a ``.gpuplan`` document (or a bare scenario) and asks the core for every
figure: parameters and tier (:mod:`core.params`, :data:`core.estimate.TIER_GUIDANCE`), memory per GPU
(:mod:`core.memory` through :func:`core.estimate.estimate`), training FLOPs (:mod:`core.flops`), time
(:mod:`core.timing`), ranked plans and why the others lost (:mod:`core.search`), cost per rental mode and
rent-versus-build (:mod:`core.cost`) and the vendor checklist (:mod:`core.checklist`). Nothing is made
up: a figure the core cannot give (no price, no fit) is shown as missing with the reason.

Sentences are kept as :class:`Text` (an English template marked with ``QT_TRANSLATE_NOOP`` plus its
parameters), so the renderer translates them with the same ``.qm`` files as the UI. Numbers are formatted
by the ``fmt_*`` helpers below, which the renderer and the tests share.
"""

from __future__ import annotations

from gpuplanner.formatting import format_compact, format_tokens, format_money, format_number, format_percent, format_sig
from gpuplanner.formatting import comparison_unit, format_time_number, gpu_display_name

import math
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Mapping

from .. import __version__
from ..core.errors import PlannerError
from ..core.i18n import QT_TRANSLATE_NOOP
from ..core.evaluate import PlanFigures
from ..core.serving_facts import serving_lines
from ..core.messages import Msg, deadline_msgs, elapsed_msgs

CTX = "Report"
GIB = 1024**3


# --------------------------------------------------------------------------------------------- helpers

#: The report's sentences are the core's one message type (:class:`gpuplanner.core.messages.Msg`).
Text = Msg


def fmt_money(value: float | None, currency: str) -> str:
    """Whole currency units with thousands separators, symbol first: ``¥1,234,567`` (``—`` when unknown);
    the one formatter, :func:`gpuplanner.formatting.format_money`."""
    if value is None or not math.isfinite(value):
        return "—"
    return format_money(value, currency, decimals=0)


def fmt_price(value: float | None, currency: str) -> str:
    """A unit price (per card-hour) to the cent: ``$2.46``."""
    if value is None or not math.isfinite(value):
        return "—"
    return format_money(value, currency, decimals=2)


def fmt_days(days: float | None) -> str:
    """Days as every span's number is written (``formatting.format_time_number``: one decimal below 100 days,
    whole days above, two decimals below one day, two significant digits below 0.01), as the app's live panel, the
    CLI and the deadline lines print them (issue 35 round 13, ux20: one formatter for all)."""
    if days is None or not math.isfinite(days):
        return "—"
    return format_time_number(days)


def fmt_gib(gib: float | None) -> str:
    if gib is None or not math.isfinite(gib):
        return "—"
    return format_number(gib, 1)


def fmt_pct(frac: float | None) -> str:
    if frac is None or not math.isfinite(frac):
        return "—"
    return format_percent(frac, 1)


def fmt_count(n: float | None) -> str:
    return "—" if n is None else format_compact(n)


def fmt_tokens(n: float | None) -> str:
    """A number of tokens in the report's language (formatting.format_tokens: 万/亿 in Chinese)."""
    return "—" if n is None else format_tokens(n)


def fmt_bytes(n: float | None) -> str:
    """Decimal units as storage vendors quote them: ``935 GB``, ``1.2 TB`` (formatting.format_storage_bytes)."""
    from ..formatting import format_storage_bytes

    return format_storage_bytes(n)



def _attr(obj: Any, *names: str, default: Any = None) -> Any:
    """First present attribute/key of ``obj`` among ``names``."""
    for n in names:
        if isinstance(obj, Mapping) and n in obj:
            return obj[n]
        if hasattr(obj, n):
            v = getattr(obj, n)
            return v() if callable(v) and not isinstance(v, type) and n.startswith("get_") else v
    return default


# ------------------------------------------------------------------------------------------- data model

@dataclass
class TaskInfo:
    model_name: str
    params_total: int
    params_active: int
    params_trainable: int
    is_moe: bool
    arch: dict[str, Any]  # layers, hidden, heads, kv_heads, ffn, vocab, experts, experts_per_tok, attention
    tier: str
    tier_guidance: Text
    training: dict[str, Any]  # method, precision, optimizer, framework, seq_len, micro_batch, global_batch, ...
    tokens: float
    flops_per_token: float | None
    total_flops: float | None
    deadline_days: float | None
    budget: float | None
    currency: str
    hours_per_week: float
    phase: str
    objective: str


@dataclass
class PlanInfo(PlanFigures):
    """One plan as the report shows it: its :class:`core.evaluate.Evaluation` (every figure is read from it, under
    the Evaluation's own names, by the properties below) and what the report adds — the label, the link names,
    the sentences as translatable :class:`Text`, and why an alternative lost."""

    evaluation: Any
    label: str
    mfu_source: str | None = None  # "assumed" | "measured" | "modelled"
    explanation: list[Text] = field(default_factory=list)
    advice: list[Text] = field(default_factory=list)
    rent_vs_build: Text | None = None
    # rent vs build, part by part (core.cost.BuildResult): [(part label as Text, amount)]
    rent_vs_build_parts: list[tuple[Text, float | None]] = field(default_factory=list)  # None: unknown
    # the planning rules' verdicts (core.rules): [(rule name as Text, status, message Text)]
    rules: list[tuple[Text, str, Text]] = field(default_factory=list)
    why_lost: list[Text] = field(default_factory=list)
    warnings: list[Text] = field(default_factory=list)

    # ---- read from the Evaluation (selected, never copied)
    gpu_id = property(lambda self: self.evaluation.gpu_id)
    fits = property(lambda self: bool(self.evaluation.fits))
    #: why the MFU shown is not the modelled one (the MFU ceiling, core/advisor.py), as a sentence; None: it is
    mfu_note = property(lambda self: None if self.evaluation.mfu_note is None else Text.of(self.evaluation.mfu_note))
    cost = property(lambda self: self.evaluation.cost)
    step_time_s = property(lambda self: self.evaluation.time.step_time_s)
    tokens_per_s_per_gpu = property(lambda self: self.evaluation.time.tokens_per_s_per_gpu)
    memory_headroom_gib = property(lambda self: float(self.evaluation.memory.headroom))
    # the links (Evaluation.links, core.evaluate.PlanLinks): per node as used, the link names and figures
    gpus_per_node = property(lambda self: self.evaluation.links.gpus_per_node)
    intra_node = property(lambda self: self.evaluation.links.intra_node)
    intra_node_bw_gbs = property(lambda self: self.evaluation.links.intra_node_bw_gbs)
    inter_node = property(lambda self: self.evaluation.links.inter_node)
    inter_node_gbps_per_node = property(lambda self: self.evaluation.links.inter_node_gbps_per_node)

    @property
    def memory(self) -> dict[str, float]:
        """GiB per GPU by part, with ``total`` (the Evaluation's ``memory.as_dict()``)."""
        return {k: float(v) for k, v in self.evaluation.memory.as_dict().items()}

    @property
    def time_breakdown(self) -> dict[str, float]:
        return {str(k): float(v) for k, v in self.evaluation.time.breakdown.items()}

    @property
    def time_hidden(self) -> dict[str, float]:
        """Communication run under compute, share of the step (``TimeEstimate.hidden_shares``)."""
        return {str(k): float(v) for k, v in self.evaluation.time.hidden_shares.items()}

    @property
    def mode_costs(self) -> dict[str, float]:
        return dict(self.evaluation.mode_costs)

    rental_mode = property(lambda self: self.evaluation.rental_mode)

    # ---- the price the costs use (Evaluation.price)
    card_hour = property(lambda self: None if self.evaluation.price is None else self.evaluation.price.card_hour)


@dataclass
class ChecklistRow:
    id: str
    label: Text
    checked: bool
    note: str = ""
    detail: Text | None = None


@dataclass
class Requirements:
    min_memory_gib: float
    intra_node: Text | None
    inter_node: Text | None
    storage: list[Text]
    host_ram: Text | None = None  # CPU offload's host RAM per server (_host_ram_requirement)


@dataclass
class Source:
    what: Text
    value: str
    source: str
    date: str = ""


@dataclass
class ProjectPhaseRow:
    name: str
    kind: str
    start_week: float
    end_week: float
    hours_per_week: float
    resource: str  # "gpu" | "cpu"
    device_name: str
    count: int
    nodes: int
    rental_mode: str | None
    cost: float | None
    detail: dict[str, Any] = field(default_factory=dict)  # serving, CPU or training figures for one line


@dataclass
class ProjectInfo:
    """The plan's project (:func:`core.project.evaluate_project`): read, never recomputed."""

    phases: list[ProjectPhaseRow]
    currency: str
    total_cost: float | None
    total_weeks: float
    by_mode: dict[str, float]
    weekly: list[dict]
    overlap_advice: list[Text]
    rent_vs_build: Text | None
    main_phase: str | None
    what_if: list[dict]  # WhatIf.to_json() with the note as a Text
    messages: list[Text] = field(default_factory=list)
    #: the total against the budget at the likely range's far end, per phase, the phase to cut (ProjectBudget.lines)
    budget: list[Text] = field(default_factory=list)
    over_budget: bool = False


def project_info(result) -> ProjectInfo:
    """A :class:`ProjectInfo` from a :class:`core.project.ProjectResult`."""
    rows = []
    for p in result.phases:
        detail: dict[str, Any] = {}
        if p.serving is not None:
            s = p.serving
            detail = {"what": "serving", "tp": s.tp, "replicas": s.replicas, "batch": s.batch_per_replica,
                      "users": s.concurrency, "tps": s.tokens_per_s_per_gpu, "precision": s.precision,
                      "per_m": p.cost_per_million_tokens,
                      # the first token, the p95 latencies under load, an offline target's sizing: the lines the CLI
                      # and the Project page print (core.serving_facts.serving_lines, one list for the three)
                      "lines": serving_lines(s)}
        elif p.cpu is not None:
            detail = {"what": "cpu", "gb": p.cpu.data_gb, "core_hours": p.cpu.core_hours}
        elif p.evaluation is not None:
            ev = p.evaluation
            detail = {"what": "training", "model": ev.model_name, "tokens": ev.tokens, "days": ev.calendar_days}
        rows.append(ProjectPhaseRow(name=p.name, kind=p.kind, start_week=p.start_week, end_week=p.end_week,
                                    hours_per_week=p.hours_per_week, resource=p.resource, device_name=p.device_name,
                                    count=p.count, nodes=p.nodes, rental_mode=p.rental_mode, cost=p.cost,
                                    detail=detail))
    wis = []
    for w in result.what_if:
        d = w.to_json()
        d["note"] = None if w.note is None else Text.of(w.note)
        # same servers, longer / what keeps the deadline: the sentences the Project page and the CLI print (ux11)
        d["replans"] = [Text.of(m) for m in (w.overrun_note, None if w.keep_deadline is None
                                             else w.keep_deadline.sentence) if m is not None]
        wis.append(d)
    msgs = [Text.of(m) for p in result.phases for m in p.messages] + [Text.of(m) for m in result.messages]
    return ProjectInfo(phases=rows, currency=result.currency, total_cost=result.total_cost,
                       total_weeks=result.total_weeks, by_mode=dict(result.by_mode), weekly=result.weekly(),
                       overlap_advice=[Text.of(m) for m in result.overlap_advice],
                       rent_vs_build=None if result.rent_vs_build is None else Text.of(result.rent_vs_build.sentence),
                       main_phase=result.main_phase, what_if=wis, messages=msgs,
                       budget=[] if result.budget is None else [Text.of(m) for m in result.budget.lines()],
                       over_budget=result.budget is not None and not result.budget.within)


@dataclass
class ReportData:
    title: str
    date: datetime
    author: str
    app_version: str
    notes: str
    task: TaskInfo
    plan: PlanInfo
    alternatives: list[PlanInfo]
    scaling: list[tuple[int, float]]  # (GPUs, days) for the chosen GPU type
    cost_vs_time: list[tuple[str, float, float, bool]]  # (label, days, cost, chosen)
    requirements: Requirements
    checklist: list[ChecklistRow]
    assumptions: list[Source]
    formulas: list[Text]
    warnings: list[Text]
    source_file: str = ""
    # candidate GPUs the search left out, with why (core.search ``skipped``): [(GPU name, reason)]
    skipped: list[tuple[str, Text]] = field(default_factory=list)
    # memory per GPU against GPU count (core.evaluate.memory_by_gpu_count, carried by the scaling sweep):
    # [(GPUs, least-memory layout GiB or None, the plan's own layout GiB or None)] and [(card name, GiB)]
    memory_by_count: list[tuple[int, float | None, float | None]] = field(default_factory=list)
    memory_cards: list[tuple[str, float]] = field(default_factory=list)
    project: ProjectInfo | None = None  # a plan file's project of more than one phase
    # issue 35 r18 (serve18): the document asks for a service only (app.answer.Answer.serving_only): the report leads
    # with the project's service and leaves out the file's placeholder training plan
    serving_only: bool = False
    quotes: Any = None  # core.quotes.Comparison of the plan file's vendor quotes (report/quotes_section.py)
    quotes_project: Any = None  # core.quotes.ProjectQuotes: the quotes for every GPU phase of the project
    # app.answer.BetterPlan's line: the search's best plan beats the document's own layout (choice15)
    better_plan: Text | None = None
    # the scaling chart's ideal linear line, (GPUs, calendar days): core.evaluate.Scaling.ideal_calendar_days
    scaling_ideal: list[tuple[int, float]] = field(default_factory=list)

    @property
    def currency(self) -> str:
        return self.task.currency


# -------------------------------------------------------------------------------------------- gathering

_FORMULAS = [
    Text(CTX, QT_TRANSLATE_NOOP(CTX, "Parameter counts: module by module as the reference implementations build "
                                     "them (Hugging Face transformers, Megatron-LM).")),
    Text(CTX, QT_TRANSLATE_NOOP(CTX, "Model states per GPU: ZeRO (Rajbhandari et al. 2020, arXiv:1910.02054) "
                                     "Table 1; activations: Korthikanti et al. 2022 (arXiv:2205.05198)."), {}),
    Text(CTX, QT_TRANSLATE_NOOP(CTX, "Training FLOPs: 6·N per token plus attention (Kaplan et al. 2020, "
                                     "arXiv:2001.08361; Narayanan et al. 2021, arXiv:2104.04473)."), {}),
    Text(CTX, QT_TRANSLATE_NOOP(CTX, "Checkpoint interval and lost work: Young 1974 (CACM 17(9)); interruption "
                                     "rate from Llama 3 (arXiv:2407.21783) §3.3.4."), {}),
    Text(CTX, QT_TRANSLATE_NOOP(CTX, "Rent versus build: straight-line depreciation, electricity = power × PUE × "
                                     "tariff (our arithmetic; node power from NVIDIA's DGX H100 datasheet)."), {}),
]


def plan_from_evaluation(ev, label: str, plan=None) -> PlanInfo:
    """A :class:`PlanInfo` of one :class:`core.evaluate.Evaluation` (and, for a ranked plan ``plan``, its
    explanation and warnings): the figures stay in the Evaluation; only names and sentences are added here."""
    info = PlanInfo(
        evaluation=ev, label=label,
        mfu_source="assumed" if ev.time.mfu_override else "modelled",
        advice=[Text.of(m) for m in ev.rental_advice],
        rent_vs_build=None if ev.rent_vs_build is None else Text.of(ev.rent_vs_build.sentence),
        rules=[(Text("Rules", r.name, {}), r.status, Text.of(r.message)) for r in ev.rules],
        warnings=[Text.of(m) for m in ev.messages],
    )
    rb = ev.rent_vs_build
    if rb is not None:
        from gpuplanner.core.cost import BUILD_PART_LABELS, unknown_build_parts

        unknown = unknown_build_parts(rb)  # a part whose input is missing is unknown (None), not zero
        info.rent_vs_build_parts = [(Text("Cost", BUILD_PART_LABELS[k], {}),
                                     None if k in unknown else float(rb.breakdown[k])) for k in BUILD_PART_LABELS]
    if plan is not None:
        info.explanation = [Text.of(m) for m in plan.explanation]
        ranked = [Text.of(m) for m in plan.warnings]  # a line in both lists (a searched plan's own) once
        info.warnings = ranked + [w for w in info.warnings if w not in ranked]
    return info


def _task(ev) -> TaskInfo:
    from ..core.estimate import tier_guidance

    a = ev.arch
    scenario = ev.scenario
    t, c = scenario.training, scenario.constraints
    arch = {
        "layers": a.num_layers, "hidden": a.hidden_size, "heads": a.num_heads, "kv_heads": a.num_kv_heads,
        "ffn": a.intermediate_size, "vocab": a.vocab_size, "experts": a.num_experts,
        "experts_per_tok": a.num_experts_per_tok, "moe_ffn": a.moe_intermediate_size,
        "attention": "MLA" if a.is_mla else ("GQA" if a.num_kv_heads < a.num_heads else "MHA"),
        "mlp": "SwiGLU" if a.gated_mlp else "GELU",
    }
    return TaskInfo(
        model_name=ev.model_name, params_total=ev.params.total, params_active=ev.params.active,
        params_trainable=ev.trainable, is_moe=a.is_moe, arch=arch, tier=ev.tier,
        tier_guidance=Text("Tier", tier_guidance(ev.tier, t.method)),
        training={"method": t.method, "precision": t.precision, "optimizer": t.optimizer, "framework": t.framework,
                  "seq_len": t.seq_len, "micro_batch": t.micro_batch_size, "global_batch": scenario.global_batch,
                  "recompute": t.recompute, "recompute_modules": t.recompute_modules, "flash": t.flash_attention,
                  "lora_rank": t.lora_rank if t.method in ("lora", "qlora") else None},
        tokens=ev.tokens, flops_per_token=ev.flops_per_token, total_flops=ev.total_flops,
        deadline_days=c.deadline_days, budget=c.budget, currency=ev.currency, hours_per_week=c.hours_per_week,
        phase=c.phase, objective=c.objective,
    )


# -------------------------------------------------------------------------------------- requirements

def _requirements(plan: PlanInfo, ev) -> Requirements:
    need = plan.memory.get("total", 0.0) + plan.memory_headroom_gib
    intra = inter = None
    lay = plan.layout
    if plan.num_gpus > 1:
        if (lay.tp > 1 or lay.ep > 1) and _pcie_only(ev):
            intra = Text(CTX, QT_TRANSLATE_NOOP(
                CTX, "Inside each node: {link} between all {n} GPUs, and this card has no NVLink, so the tensor/expert "
                     "parallelism's traffic crosses PCIe: ask for the nvidia-smi topo -m output and check that the "
                     "GPUs share PCIe switches (PIX/PXB, not SYS), and that nvidia-smi topo -p2p r shows OK between "
                     "them (peer-to-peer on)."), {"link": plan.intra_node or "PCIe", "n": plan.gpus_per_node})
        elif lay.tp > 1 or lay.ep > 1:
            intra = Text(CTX, QT_TRANSLATE_NOOP(
                CTX, "Inside each node: {link} between all {n} GPUs (tensor/expert parallelism runs inside the node); "
                     "ask for the nvidia-smi topo -m output and check NV# links, not PHB/SYS."),
                {"link": plan.intra_node or "NVLink", "n": plan.gpus_per_node})
        else:
            intra = Text(CTX, QT_TRANSLATE_NOOP(
                CTX, "Inside each node: {link} is enough for data parallelism; GPUs under one CPU socket "
                     "(PIX/PXB, not SYS) all-reduce faster."), {"link": plan.intra_node or "PCIe"})
    if plan.nodes > 1:
        if plan.inter_node_gbps_per_node:
            inter = Text(CTX, QT_TRANSLATE_NOOP(
                CTX, "Between nodes: {net}, at least {gbps} Gb/s per node, dedicated to this job (not shared "
                     "with storage or other tenants), all {nodes} nodes under one switch tier."),
                {"net": plan.inter_node or "", "gbps": format_number(plan.inter_node_gbps_per_node, 0), "nodes": plan.nodes})
        else:
            inter = Text(CTX, QT_TRANSLATE_NOOP(
                CTX, "Between nodes: InfiniBand or RoCE, dedicated to this job, all {nodes} nodes under one switch "
                     "tier; ask for the NIC count and speed per node."), {"nodes": plan.nodes})
    storage: list[Text] = []
    need_b = ev.storage  # core.evaluate.StorageNeeds
    ckpt, data_b = need_b.checkpoint_bytes, need_b.data_bytes
    storage.append(Text(CTX, QT_TRANSLATE_NOOP(
        CTX, "One resumable checkpoint is about {ckpt} (weights and optimizer states); keep at least the "
             "last three, written in parallel from every node, with snapshots or a copy off the machines."),
        {"ckpt": fmt_bytes(ckpt)}))
    storage.append(Text(CTX, QT_TRANSLATE_NOOP(
        CTX, "Tokenised training data: about {data}; it must be readable from every node."),
        {"data": fmt_bytes(data_b)}))
    weights = need_b.weights_bytes
    storage.append(Text(CTX, QT_TRANSLATE_NOOP(
        CTX, "Model weights in 16 bit: {w}; the final model and checkpoints must be downloadable at the end."),
        {"w": fmt_bytes(weights)}))
    return Requirements(min_memory_gib=need, intra_node=intra, inter_node=inter, storage=storage,
                        host_ram=_host_ram_requirement(ev))


def _pcie_only(ev) -> bool:
    """Whether the plan's cards talk over PCIe only inside a node (the user's ``hardware.intra_node``, else the
    catalog's link of the card). Issue 35 round 18 (advice20): the Mixtral example's #1, 8 × L40S with expert
    parallelism 2, asked the vendor to show "NV# links, not PHB/SYS", which an L40S server never has (NVIDIA's L40S
    datasheet: PCIe Gen4 x16, no NVLink); the check a PCIe server can pass is the PCIe switch and P2P (planning
    guide, checklist step 3: verify the interconnect with nvidia-smi topo -m)."""
    from ..core.catalog_hw import lookup_gpu

    h = ev.scenario.hardware
    if h.intra_node:
        return h.intra_node == "pcie"
    try:
        return lookup_gpu(h.gpu, h.custom_gpus).intra_node_link == "pcie"
    except PlannerError:
        return False


def _host_ram_need(ev) -> float | None:
    """Host RAM per server the plan's CPU offload needs (``Evaluation.host_ram``, core.intake.host_ram); None
    without offload."""
    host = getattr(ev, "host_ram", None)
    return None if host is None or host.total <= 0 else float(host.total)


def _host_ram_requirement(ev) -> Text | None:
    """The vendor requirement for host RAM where the plan keeps states in CPU memory. Issue 35 round 18 (advice20):
    the Mixtral example's #1 (8 × L40S, optimizer offload) needs about 1,044 GiB per server, and the printed plan's
    requirements for the vendor listed GPUs, links and storage but not the CPU memory the plan rents."""
    need = _host_ram_need(ev)
    if need is None:
        return None
    return Text(CTX, QT_TRANSLATE_NOOP(
        CTX, "Host RAM: at least {need} GiB of CPU memory per server (CPU offload keeps the optimizer states there, "
             "with pinned buffers); a server with less cannot run this plan."), {"need": format_number(need, 0)})


# -------------------------------------------------------------------------------------- checklist

def _checklist(doc, plan: PlanInfo, scenario) -> list[ChecklistRow]:
    """The vendor checklist (:mod:`core.checklist`) for the plan's GPU, with what the plan file ticked and
    noted. Ids the plan file has that this version does not know are listed after the known items."""
    rows_in = list(doc.vendor_checklist) if doc is not None else []
    from ..core import checklist as mod

    state = mod.ChecklistState.from_plan_items(rows_in)
    try:
        items = mod.items_for_plan(plan.gpu_id, _host_ram_need(plan.evaluation))
    except PlannerError:
        items = mod.items()
    rows: list[ChecklistRow] = []
    known = set()
    for it in items:
        e = state.entry(it.id)
        rows.append(ChecklistRow(id=it.id, label=Text(mod.CTX, it.title), checked=e.checked, note=e.notes,
                                 detail=Text(mod.CTX, it.why)))
        known.add(it.id)
    all_ids = {it.id for it in mod.ITEMS} | {mod.HOST_RAM_ITEM.id}
    for r in rows_in:
        if r.id not in known and r.id not in all_ids:
            rows.append(ChecklistRow(id=r.id, label=Text("", r.id.replace("_", " ")), checked=r.checked, note=r.note))
    return rows


# ------------------------------------------------------------------------------------ assumptions

def _assumptions(plan: PlanInfo, scenario, table) -> list[Source]:
    out: list[Source] = []
    a = scenario.assumptions
    if plan.mfu is not None or a.mfu is not None:
        mfu = plan.mfu if plan.mfu is not None else a.mfu
        kind = {"assumed": QT_TRANSLATE_NOOP(CTX, "assumed (set in the scenario)"),
                "measured": QT_TRANSLATE_NOOP(CTX, "measured (benchmark in the plan)"),
                }.get(plan.mfu_source or "", QT_TRANSLATE_NOOP(
                    CTX, "modelled: achievable share of dense peak per GPU generation (published runs: Megatron-LM "
                         "README, torchtitan arXiv:2410.06511, llm-foundry benchmarks, Llama 3 arXiv:2407.21783) "
                         "minus exposed communication"))
        out.append(Source(Text(CTX, QT_TRANSLATE_NOOP(CTX, "MFU (model FLOPs utilisation)")), fmt_pct(mfu), kind))
    out.append(Source(Text(CTX, QT_TRANSLATE_NOOP(CTX, "Kept free per GPU")),
                      f"{fmt_gib(a.memory_headroom_gib)} GiB", QT_TRANSLATE_NOOP(CTX, "your plan")))
    if table is not None:
        price = plan.evaluation.price  # the price the costs use (core.cost.GpuPrice)
        if price is not None and price.card_hour is not None:
            out.append(Source(Text(CTX, QT_TRANSLATE_NOOP(CTX, "Rental price per card-hour, {gpu}"), {"gpu": plan.gpu_name}),
                              fmt_price(price.card_hour, table.currency), price.source or "", price.source_date or ""))
        elif price is not None and price.machine_month is not None:  # a whole-server lease only (a cluster's month)
            out.append(Source(Text(CTX, QT_TRANSLATE_NOOP(CTX, "Rental price per {n}-GPU server-month, {gpu}"),
                                   {"gpu": plan.gpu_name, "n": price.machine_gpus}),
                              # a month's rent in whole money, as the cost table writes it ("¥70,000", not
                              # "¥70,000.00" beside it; ux23): cents only for a card-hour's price
                              fmt_money(price.machine_month, table.currency), price.source or "", price.source_date or ""))
        if table.currency and hasattr(table, "rate"):
            try:
                out.append(Source(Text(CTX, QT_TRANSLATE_NOOP(CTX, "Exchange rate")), f"{format_sig(table.rate, 6)} CNY/USD",
                                  QT_TRANSLATE_NOOP(CTX, "built-in price table (gpuplanner/resources/prices.json)")))
            except PlannerError:
                pass
    return out


# ---------------------------------------------------------------------------------------- entry

def _measured_mfu(doc) -> float | None:
    """An MFU benchmark recorded in the plan (``benchmarks`` entry named ``mfu``), if any."""
    for b in getattr(doc, "benchmarks", []) or []:
        if str(b.name).lower() == "mfu":
            return float(b.value)
    return None


def _memory_by_count(res) -> tuple[list, list]:
    """The sweep's memory per GPU against GPU count as the report's rows ``(GPUs, least-memory GiB or None, the
    plan's own GiB or None)`` and the candidate cards: the same series the app's chart plots (core/series.py)."""
    from ..core import series

    least, own = dict(series.memory_least(res)), dict(series.memory_own(res))
    mb = series.memory_of(res)
    pts = [] if mb is None else [(p.num_gpus, least.get(p.num_gpus), own.get(p.num_gpus)) for p in mb.points]
    return pts, series.card_capacities(res)


def _scaling(res) -> list[tuple[int, float]]:
    """Calendar days of the chosen layout at other GPU counts (core/series.py, the app's series too)."""
    from ..core import series

    return series.days_by_count(res)


def _ideal(res) -> list[tuple[int, float]]:
    """The ideal linear line in calendar days (core/series.py, the app's chart draws the same points)."""
    from ..core import series

    return series.ideal_days(res)


def _short_gpu(name: str) -> str:
    """A chart label's GPU: no vendor nor regional suffix, a catalogue note in the report's language (ux16)."""
    for junk in ("NVIDIA ", "GeForce ", " (China)"):
        name = name.replace(junk, "")
    return gpu_display_name(name)


def _cost_vs_time(answer, plan: PlanInfo) -> list[tuple[str, float, float, bool]]:
    """The cost chart's points: the ranked plans, the chosen one last and starred where the Answer puts the star
    (``Answer.star``, app.answer.chart_star's rule: the one place that decides it)."""
    index, at = answer.star
    chosen_p = answer.chosen_plan
    out = [(f"{p.num_gpus}× {_short_gpu(p.gpu_name)}", p.calendar_days, p.cost, False)
           for i, p in enumerate(answer.plans) if i != index and p is not chosen_p and not _same(plan, p)]
    if index is not None:
        p = answer.plans[index]
        at = (p.calendar_days, p.cost) if p.cost is not None else None
    if at is not None and plan.fits:  # a plan that does not fit has no price to plot (ux21)
        out.append((f"{plan.num_gpus}× {_short_gpu(plan.gpu_name)}", at[0], at[1], True))
    return out


def _same(plan: PlanInfo, p) -> bool:
    """Whether ranked plan ``p`` is the chosen plan (the same complete scenario)."""
    return plan.scenario is not None and p.scenario == plan.scenario


def _why_lost(alt: PlanInfo, chosen: PlanInfo, p, answer, task: TaskInfo) -> list[Text]:
    """How an alternative compares with the chosen plan, from both plans' numbers."""
    out: list[Text] = []
    if alt.cost is not None and chosen.cost is not None and not chosen.fits:
        # the chosen plan does not fit: no price of it to compare with (the PDF says not to rent it; ux21)
        out.append(Text(CTX, QT_TRANSLATE_NOOP(CTX, "{span} for {cost}; the chosen plan does not fit in GPU memory."),
                        {"span": elapsed_msgs(span=alt.calendar_days)["span"], "cost": fmt_money(alt.cost, task.currency)}))
    elif alt.cost is not None and chosen.cost is not None:
        # one message in one unit, written together so two different plans never read alike (core.messages.
        # elapsed_msgs; ux20, ux21, ux22); the unit is the chosen plan's own headline unit (formatting.
        # comparison_unit): "91 hours … against 7.9 hours", not "3.8 days … against 0.33 days" under a plan every
        # other view gives in hours (issue 35 round 16, ux25)
        unit = comparison_unit(chosen.calendar_days, chosen.evaluation.calendar_days_band)
        out.append(Text(CTX, QT_TRANSLATE_NOOP(
            CTX, "{span} for {cost}, against {cspan} for {ccost} with the chosen plan."),
            {**elapsed_msgs(unit, span=alt.calendar_days, cspan=chosen.calendar_days),
             "cost": fmt_money(alt.cost, task.currency), "ccost": fmt_money(chosen.cost, task.currency)}))
    if not p.meets_deadline and task.deadline_days:
        # the search's own warning, word for word (its span through messages.deadline_msgs): the PDF printed it
        # twice in one cell, "Misses the deadline of 2.0 days." above "Misses the deadline of 2 days." (ux20)
        out.append(Text("Plan", "Misses the deadline of {d}.", deadline_msgs(d=task.deadline_days)))
    if not p.within_budget and task.budget:
        out.append(Text(CTX, QT_TRANSLATE_NOOP(CTX, "Over the budget of {b}."),
                        {"b": fmt_money(task.budget, task.currency)}))
    cmp = answer.compare(p)
    if cmp is not None and cmp.decisive is not None:
        out.append(Text.of(cmp.decisive))
    seen = {m.render() for m in out}
    out.extend(w for w in alt.warnings[:2] if Text.of(w).render() not in seen)  # no sentence twice in one cell
    return out


def build_report_data(answer, *, author: str = "", now: datetime | None = None) -> ReportData:
    """Gather the report from one :class:`gpuplanner.app.answer.Answer`.

    The chosen plan is the answer's plan (:func:`gpuplanner.app.answer.decide`: the selected plan; else, with
    the automatic layout, the search's best; else the scenario as given); the alternatives are the search's
    next plans, each its own Evaluation. Every figure in the report is read from these Evaluations: nothing
    here reads a file or runs a search.
    """
    doc = answer.document.plan
    ev = answer.evaluation
    chosen_p = answer.chosen_plan
    # the plan as "N × GPU name"; a selected plan's rank ("#3") after it. A label stored in the file is not printed
    # as it is: older files hold catalog ids there ("4 × a800-sxm-80gb (full fine-tuning)").
    label = f"{ev.num_gpus} × {ev.gpu_name}"
    if re.fullmatch(r"#\d{1,4}", (answer.label or "").strip()):
        label += f" ({answer.label.strip()})"
    plan = plan_from_evaluation(ev, label, chosen_p)
    task = _task(ev)
    if doc is not None and plan.mfu_source == "assumed" and _measured_mfu(doc) is not None:
        plan.mfu_source = "measured"
    alternatives: list[PlanInfo] = []
    for p in answer.alternatives(2):
        alt = plan_from_evaluation(p.evaluation, f"{p.num_gpus} × {p.gpu_name}", p)
        alt.why_lost = _why_lost(alt, plan, p, answer, task)
        alternatives.append(alt)
    sweep = answer.scaling  # one sweep: days against count, memory against count
    scaling = _scaling(sweep) if (ev.fits and sweep is not None) else []
    counts = {n for n, _ in scaling}
    ideal = [(n, d) for n, d in _ideal(sweep) if n in counts]  # drawn over the chart's own points
    mem_counts, mem_cards = _memory_by_count(sweep)
    cost_vs_time = _cost_vs_time(answer, plan)
    warnings = list(plan.warnings)
    result = answer.search
    if result is not None:
        warnings += [Text.of(m) for m in result.notes]
    if answer.serving_only:  # the placeholder training plan's warnings are not the service's (serve18)
        warnings = []
    title = (doc.title if doc is not None and doc.title else "") or task.model_name
    project = project_info(answer.project_replanned) if answer.has_project else None
    scenario = ev.scenario
    quotes = answer.quotes()  # the plan file's vendor quotes, compared by the Answer (as ``gpuplanner quotes``)
    return ReportData(
        quotes=quotes, quotes_project=answer.quotes_by_phase(quotes), title=title, date=now or datetime.now(timezone.utc), author=author, app_version=__version__,
        notes=doc.notes if doc is not None else "", task=task, plan=plan, alternatives=alternatives,
        scaling=scaling, memory_by_count=mem_counts, memory_cards=mem_cards, cost_vs_time=cost_vs_time,
        requirements=_requirements(plan, ev), checklist=_checklist(doc, plan, scenario),
        assumptions=_assumptions(plan, scenario, answer.prices), formulas=list(_FORMULAS), warnings=warnings,
        source_file=answer.document.source_file, project=project, scaling_ideal=ideal,
        serving_only=answer.serving_only,
        better_plan=Text.of(answer.better.message) if answer.better is not None else None,
        skipped=[] if result is None else [(d["gpu_name"], Text.of(d["reason"])) for d in result.skipped],
    )


