"""Glue between the views and the core: call core functions, shape their results for charts.

Pure Python (no Qt) so the plan-search worker can call it off the GUI thread. No formulas live here:
memory, time and cost come from :mod:`gpuplanner.core`; this module only varies a scenario (ZeRO
stage, recompute level, GPU count, link) and collects what the core returns.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gpuplanner.core.errors import PlannerError, ScenarioError
import numpy as np

from gpuplanner.core.estimate import Estimate, estimate, memory_breakdown, memory_kwargs, resolve
from gpuplanner.core.memory import GIB, RECOMPUTE_CODES, MemoryBreakdown, memory_arrays
from gpuplanner.core.scenario import Scenario


def _timing():
    try:
        from gpuplanner.core import timing  # lands separately
    except ImportError:
        return None
    return timing


def tget(obj: Any, *names: str, default: Any = None) -> Any:
    """First attribute (or dict key) of ``obj`` among ``names`` that is not None."""
    if obj is None:
        return default
    for n in names:
        v = obj.get(n) if isinstance(obj, dict) else getattr(obj, n, None)
        if v is not None:
            return v
    return default


@dataclass
class TimeSummary:
    tokens_per_s: float | None = None
    step_time_s: float | None = None
    mfu: float | None = None
    days: float | None = None
    breakdown: dict[str, float] = field(default_factory=dict)


def time_summary(est: Estimate | None) -> TimeSummary | None:
    t = getattr(est, "time", None) if est is not None else None
    if t is None:
        return None
    bd = tget(t, "time_breakdown", "breakdown", default={}) or {}
    if not isinstance(bd, dict):
        bd = dataclasses.asdict(bd) if dataclasses.is_dataclass(bd) else {}
    return TimeSummary(
        tokens_per_s=tget(t, "tokens_per_s", "tokens_per_second", "throughput_tokens_s"),
        step_time_s=tget(t, "step_time_s", "step_s", "step_time"),
        mfu=tget(t, "mfu"),
        days=tget(t, "days", "wall_days", "train_days", "days_to_finish"),
        breakdown={str(k): float(v) for k, v in bd.items() if isinstance(v, (int, float))},
    )


@dataclass
class Alternative:
    kind: str          # "current" | "zero" | "recompute"
    value: Any         # the ZeRO stage or recompute level
    memory: MemoryBreakdown


@dataclass
class LiveResult:
    estimate: Estimate | None = None
    error: str | None = None
    error_field: str | None = None
    alternatives: list[Alternative] = field(default_factory=list)
    time: TimeSummary | None = None


def _vary(s: Scenario, section: str, **changes: Any) -> Scenario:
    sec = getattr(s, section).model_copy(update=changes)
    return s.model_copy(update={section: sec})


def live(scenario: Scenario, base_dir: Path | None = None) -> LiveResult:
    """The single-scenario estimate plus memory for the alternatives the memory chart shows."""
    try:
        r = resolve(scenario, base_dir)
        est = estimate(scenario, resolved=r)
    except ScenarioError as err:
        return LiveResult(error=str(err), error_field=err.field)
    except PlannerError as err:
        return LiveResult(error=str(err))
    alts = [Alternative("current", None, est.memory)]
    p, t = scenario.parallel, scenario.training
    variants = [("zero", z, z, RECOMPUTE_CODES[t.recompute]) for z in range(4) if z != p.zero]
    variants += [("recompute", rc, p.zero, RECOMPUTE_CODES[rc]) for rc in ("none", "selective", "full")
                 if rc != t.recompute]
    # one vectorised call of the core's memory model for all alternatives (memory.memory_arrays)
    arr = memory_arrays(
        r.facts, **memory_kwargs(r),
        tp=p.tp, pp=p.pp, cp=p.cp, ep=p.ep, dp=scenario.dp, zero=np.array([v[2] for v in variants]),
        recompute=np.array([v[3] for v in variants]), mbs=t.micro_batch_size,
        sp=p.sequence_parallel and p.tp > 1, grad_accum=scenario.grad_accum, vpp=p.vpp,
        offload=p.offload_optimizer,
    )
    n = len(variants)
    cols = {k: np.broadcast_to(np.asarray(v, dtype=float), (n,)) / GIB for k, v in arr.items()}
    for i, (kind, value, _z, _rc) in enumerate(variants):
        alts.append(Alternative(kind, value, MemoryBreakdown(
            weights=float(cols["weights"][i]), gradients=float(cols["gradients"][i]),
            optimizer=float(cols["optimizer"][i]), activations=float(cols["activations"][i]),
            other=float(cols["other"][i]), capacity=est.memory.capacity, headroom=est.memory.headroom)))
    return LiveResult(estimate=est, alternatives=alts, time=time_summary(est))


# ---------------------------------------------------------------------------------------- scaling

@dataclass
class ScalingSeries:
    kind: str                      # "nvlink" | "pcie" | "multinode"
    gpus: list[int]
    tokens_per_s: list[float]      # NaN where the layout does not fit or is invalid
    days: list[float]


@dataclass
class ScalingResult:
    series: list[ScalingSeries]
    ideal_gpus: list[int]
    ideal_tokens_per_s: list[float]
    required_tokens_per_s: float | None   # throughput that meets the deadline
    available: bool = True                # False until the core has a time model


def _counts(group: int, limit: int) -> list[int]:
    out, n = [], group
    while n <= limit:
        out.append(n)
        n *= 2
    return out


def scaling(scenario: Scenario, base_dir: Path | None = None, max_gpus: int | None = None) -> ScalingResult:
    """Throughput against GPU count for the chosen GPU: inside one node over NVLink and over PCIe, and
    across nodes over the scenario's inter-node network (data parallelism grows; TP/PP/CP stay)."""
    req = required_tokens_per_s(scenario)
    if _timing() is None:
        return ScalingResult([], [], [], req, available=False)
    p, h = scenario.parallel, scenario.hardware
    group = p.tp * p.pp * p.cp
    limit = max(group, max_gpus or scenario.constraints.max_gpus)
    try:
        r0 = resolve(scenario, base_dir)
    except PlannerError:
        return ScalingResult([], [], [], req)
    series = []
    link = (r0.gpu.intra_node_link or "pcie") if r0.gpu is not None else "pcie"
    kinds = ("nvlink", "pcie", "multinode") if link.startswith("nvlink") else ("pcie", "multinode")
    for kind in kinds:
        if kind == "multinode":
            counts = [n for n in _counts(group, limit) if n > h.gpus_per_node and n % h.gpus_per_node == 0]
        else:
            counts = [n for n in _counts(group, min(limit, h.gpus_per_node))]
        xs, ys, ds = [], [], []
        for n in counts:
            hw = {"num_gpus": n}
            if kind != "multinode":
                hw["intra_node"] = kind
            s2 = _vary(scenario, "hardware", **hw)
            y = d = math.nan
            try:
                s2 = _fit_batch(s2)  # the batch/layout rules must still hold at n GPUs
                est = estimate(s2, resolved=dataclasses.replace(r0, scenario=s2))
                ts = time_summary(est)
                if est.memory.fits and ts is not None and ts.tokens_per_s:
                    y = float(ts.tokens_per_s)
                    d = float(ts.days) if ts.days is not None else math.nan
            except (PlannerError, ValueError):
                pass
            xs.append(n)
            ys.append(y)
            ds.append(d)
        if xs:
            series.append(ScalingSeries(kind, xs, ys, ds))
    # ideal linear scaling from the smallest point that runs (on the fastest link)
    base = None
    for s in series:
        for n, y in zip(s.gpus, s.tokens_per_s):
            if not math.isnan(y) and (base is None or n < base[0] or (n == base[0] and y > base[1])):
                base = (n, y)
    ideal_x, ideal_y = [], []
    if base is not None:
        all_counts = sorted({n for s in series for n in s.gpus})
        ideal_x = [n for n in all_counts if n >= base[0]]
        ideal_y = [base[1] * n / base[0] for n in ideal_x]
    return ScalingResult(series, ideal_x, ideal_y, req)


def _fit_batch(s: Scenario) -> Scenario:
    """``s`` validated; when the global batch cannot be split over more replicas at this micro-batch,
    the micro-batch shrinks (to 1 at most) so data parallelism can still grow."""
    try:
        return Scenario.model_validate(s.model_dump())
    except ValueError:
        if s.training.micro_batch_size == 1:
            raise
        return Scenario.model_validate(_vary(s, "training", micro_batch_size=1).model_dump())


def required_tokens_per_s(scenario: Scenario) -> float | None:
    """Tokens/s needed to finish the data within the deadline, counting only the hours worked per week."""
    c = scenario.constraints
    if not c.deadline_days or not scenario.data.tokens:
        return None
    seconds = c.deadline_days * 86400.0 * (c.hours_per_week / 168.0)
    return scenario.data.tokens / seconds if seconds > 0 else None


# ------------------------------------------------------------------------------------------ plans


@dataclass
class PlanRow:
    """One ranked plan, in the shape the Plans page and the cost chart use (from core.search.Plan)."""

    gpu: str
    gpu_name: str
    num_gpus: int
    gpus_per_node: int
    layout: dict[str, Any]
    memory: MemoryBreakdown
    tokens_per_s: float | None = None
    days: float | None = None
    mfu: float | None = None
    cost: float | None = None
    currency: str = "CNY"
    rental_mode: str | None = None
    cost_by_mode: dict[str, float] = field(default_factory=dict)
    time_breakdown: dict[str, float] = field(default_factory=dict)
    rent_vs_build: Any = None            # core.cost.Msg (translated by the UI)
    explanation: list[Any] = field(default_factory=list)   # core.cost.Msg
    warnings: list[Any] = field(default_factory=list)
    advice: list[Any] = field(default_factory=list)
    meets_deadline: bool = True
    within_budget: bool = True
    values: dict[str, Any] = field(default_factory=dict)   # dotted paths to adopt this plan
    pareto: bool = False
    rank: int = 0
    raw: Any = None

    @property
    def nodes(self) -> int:
        return max(1, -(-self.num_gpus // max(1, self.gpus_per_node)))


@dataclass
class SearchOutcome:
    plans: list[PlanRow]
    considered: int = 0
    fitting: int = 0
    search_ms: float = 0.0
    notes: list[Any] = field(default_factory=list)    # str or core.cost.Msg
    skipped: dict[str, str] = field(default_factory=dict)
    feasible: bool = True


class Cancelled(Exception):
    pass


def search_plans(scenario: Scenario, base_dir: Path | None = None, ui: dict | None = None,
                 cancel: Any = None, progress: Any = None, top: int = 20) -> SearchOutcome:
    """Ranked plans from :func:`gpuplanner.core.search.search`, with each plan's memory breakdown and
    rent-vs-build answer added (both from the core)."""
    try:
        from gpuplanner.core import search as core_search
    except ImportError:
        return SearchOutcome([], notes=["the plan search is not available in this build"])
    try:
        res = core_search.search(scenario, base_dir, top=top, cancel=cancel)
    except core_search.SearchCancelled:
        raise Cancelled() from None
    if progress is not None:
        progress(0.8)
    rows = []
    front = {(d["gpu"], d["num_gpus"], d["tp"], d["pp"]) for d in res.pareto}
    for i, p in enumerate(res.plans, 1):
        if cancel is not None and cancel():
            raise Cancelled()
        rows.append(plan_row(scenario, base_dir, p, i, (p.gpu, p.num_gpus, p.tp, p.pp) in front))
    if progress is not None:
        progress(1.0)
    return SearchOutcome(rows, considered=res.candidates_evaluated, fitting=res.candidates_fitting,
                         search_ms=res.search_ms, notes=list(res.notes), skipped=dict(res.skipped_gpus),
                         feasible=res.feasible)


def plan_values(p: Any, framework: str = "hf") -> dict[str, Any]:
    """Scenario fields (dotted paths) that reproduce plan ``p`` in a single estimate (the search turns
    sequence parallelism on with Megatron tensor parallelism, core.search module docstring)."""
    return {
        "hardware.gpu": p.gpu, "hardware.num_gpus": p.num_gpus, "hardware.gpus_per_node": p.gpus_per_node,
        "parallel.tp": p.tp, "parallel.pp": p.pp, "parallel.cp": p.cp, "parallel.ep": p.ep, "parallel.zero": p.zero,
        "parallel.sequence_parallel": p.tp > 1 and framework == "megatron", "training.recompute": p.recompute,
        "training.micro_batch_size": p.micro_batch_size, "training.global_batch_size": p.global_batch_size,
    }


def plan_scenario(scenario: Scenario, values: dict[str, Any]) -> Scenario:
    data = scenario.model_dump()
    for path, v in values.items():
        sec, key = path.split(".", 1)
        data[sec][key] = v
    return Scenario.model_validate(data)


def plan_row(scenario: Scenario, base_dir, p: Any, rank: int, pareto: bool) -> PlanRow:
    values = plan_values(p, scenario.training.framework)
    mem = None
    try:
        s2 = plan_scenario(scenario, values)
        mem = memory_breakdown(resolve(s2, base_dir))
    except (PlannerError, ValueError):
        s2 = None
    if mem is None:  # show the search's total when the breakdown cannot be rebuilt
        mem = MemoryBreakdown(weights=0.0, gradients=0.0, optimizer=0.0, activations=0.0,
                              other=float(p.memory_per_gpu_gib), capacity=float(p.gpu_memory_gib), headroom=0.0)
    tps = float(scenario.data.tokens) / (p.compute_hours * 3600.0) if p.compute_hours > 0 else None
    return PlanRow(
        gpu=p.gpu, gpu_name=p.gpu_name, num_gpus=p.num_gpus, gpus_per_node=p.gpus_per_node,
        layout={"tp": p.tp, "pp": p.pp, "cp": p.cp, "ep": p.ep, "dp": p.dp, "zero": p.zero,
                "recompute": p.recompute, "mbs": p.micro_batch_size, "grad_accum": p.grad_accum,
                "gbs": p.global_batch_size},
        memory=mem, tokens_per_s=tps, days=p.train_days, mfu=p.mfu, cost=p.cost, currency=p.currency,
        rental_mode=p.rental_mode, cost_by_mode={k: v for k, v in p.mode_costs.items() if math.isfinite(v)},
        time_breakdown=dict(p.limits), rent_vs_build=_rent_vs_build(scenario, p),
        explanation=list(p.explanation), warnings=list(p.warnings), advice=list(p.rental_advice),
        meets_deadline=p.meets_deadline, within_budget=p.within_budget, values=values, pareto=pareto, rank=rank,
        raw=p,
    )


def _rent_vs_build(scenario: Scenario, p: Any):
    """The core's rent-vs-build answer for the plan's GPUs: owning over the depreciation period (at least a
    year) against renting the same cards every month (core.cost.rent_vs_build)."""
    from gpuplanner.core import cost

    try:
        table = cost.PriceTable.from_constraints(scenario.constraints)
        price = table.get(p.gpu)
        if price is None:
            return None
        b = cost.default_build_inputs(p.gpu, p.num_gpus, table)
        monthly, _mode = cost.rent_monthly_for(price, p.num_gpus, scenario.constraints.hours_per_week)
        return cost.rent_vs_build(b, monthly, max(12.0, b.depreciation_years * 12.0)).sentence
    except (PlannerError, KeyError, TypeError, ValueError):
        return None


def compare(a: PlanRow, b: PlanRow) -> list[Any]:
    """Why ``a`` ranks above ``b``: the core's comparison (list of Msg)."""
    try:
        from gpuplanner.core.search import compare_plans
    except ImportError:
        return []
    if a.raw is None or b.raw is None:
        return []
    return compare_plans(a.raw, b.raw)


# ------------------------------------------------------------------------------------------ data

CHINCHILLA_TOKENS_PER_PARAM = 20.0


def training_flops(active_params: float, tokens: float) -> float:
    """Total training compute C ≈ 6·N·D FLOPs (2 for the forward, 4 for the backward pass per parameter
    and token; Kaplan et al. 2020, "Scaling Laws for Neural Language Models", §2.1). N = active params."""
    return 6.0 * float(active_params) * float(tokens)


def compute_optimal_tokens(total_params: float) -> float:
    """Compute-optimal pretraining data ≈ 20 tokens per parameter (Hoffmann et al. 2022, "Training
    Compute-Optimal Large Language Models" (Chinchilla), Table 3: 70B -> 1.4T tokens)."""
    return CHINCHILLA_TOKENS_PER_PARAM * float(total_params)


def unique_tokens(ui: dict) -> float:
    """Tokens in one pass over the data, from the way the user described it (tokens, samples × average
    length, or GB × tokens per GB)."""
    from gpuplanner.core.units import parse_count

    mode = ui.get("data_mode", "tokens")
    if mode == "samples":
        return float(ui.get("samples") or 0) * float(ui.get("avg_len") or 0)
    if mode == "bytes":
        return float(ui.get("dataset_gb") or 0) * float(ui.get("tokens_per_gb") or 0)
    return parse_count(ui.get("tokens_text") or "0")
