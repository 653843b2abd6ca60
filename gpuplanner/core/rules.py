"""The planning guide's rules, as checks every plan carries and the search ranks by.

Each rule is written once, element-wise (numpy arrays or plain numbers), so the search's vectorised ranking
and :func:`evaluate.evaluate` of a single plan give the same verdicts (tests/test_rules_*.py checks both paths).
``constraints.rules.<id>`` switches a rule off: the plan then still says it fails the rule ("allowed"), but the
search no longer ranks by it.

Rules (ids are a public contract: ``plan --json`` lists them):

* ``mfu_grade`` — model FLOPs utilisation graded ``good`` 40–55%, ``fair`` 30–40%, ``poor`` < 30%,
  ``optimistic`` above the best published run of the plan's class (:func:`grade_bands`, issue 35 round 14: the
  class's run of advisor.mfu_ceiling; on a class whose run is above the guide's 55%, the H20 and FP8, the fair/good
  boundary scales with it; no table: above 55%). The guide: "MFU 40–55% with a mainstream GPU and an optimised
  framework is good; below 30% (framework incompatibility, bad topology) means the cost per token goes up"; the
  published runs agree (gpu-catalog.md §4.1: Megatron-LM 41–48% on H100, Llama 3 38–43%, llm-foundry 40–46% on H100; above 55%
  only on A100 with small models and heavy tuning — MegaScale 55.2%, torchtitan 56–61%). A poor plan is
  ranked after every acceptable one unless no acceptable plan meets the deadline — but only when its low MFU
  comes from what the guide's parenthesis names, the interconnect and topology: its exposed communication and
  pipeline bubble are at least :data:`MFU_POOR_COMM_SHARE` of the training step (:func:`poor_penalised`).
  A plan poor from compute-side work (QLoRA's memory-bound dequantisation on a card with a high peak, LoRA
  passes, host launch time: all inside the step's compute) keeps its grade but passes the rule and ranks by
  its cost and time, which already count that work.
* ``card_class`` — dense models of about 70B and more in full training or pretraining run on cards with
  ≥80 GB (the guide's ~100B tier: "70B needs ≥80 GB cards"; tier ~100B = 70B, 130B). 60B is the threshold so
  that 65B/67B models count. MoE models and LoRA/QLoRA are exempt (their per-card memory is set by the active
  parameters or the frozen base). Cards below the class are left out of the search (listed in ``skipped``).
* ``consumer_multinode`` — consumer cards without P2P (GeForce: no NVLink, P2P off in the stock driver;
  gpu-catalog.md §1, §4.2: 10–35 GB/s all-reduce inside a box, 10–40× below NVLink) stay in one node for
  layouts that communicate every step: tensor, pipeline, context or expert parallelism, or ZeRO-2/3 (sharded
  gradients/weights). Plain data parallelism (ZeRO ≤ 1) with gradient accumulation may span nodes
  (gpu-catalog.md §4.2: "use data parallel with gradient accumulation").
* ``mfu_ceiling``, ``deadline_risk``, ``memory_headroom``, ``tp_over_pcie`` — the advisor's checks
  (:mod:`core.advisor`, with sources): a modelled MFU above the best published run of its class is timed and
  costed at that run's MFU; a plan meeting the deadline or budget only at the point estimate (not at its band's
  upper end) is at risk; less free memory than the memory model's p75 error is tight; tensor parallelism over
  PCIe. The search ranks plans failing the last three after those that pass (:func:`advisor.penalty`).
* ``price_fabric`` — a plan over several nodes is priced from a quote whose source offers networked servers
  (``prices.json`` ``multi_node``; a user's quote's ``multi_node``). The planning guide §2: "Between nodes: RoCE
  or InfiniBand, and is the bandwidth really dedicated (独享)?"; §1: the ~100B tier is multi-node at ≥400 Gb/s.
  A card-hour price of single machines (a container marketplace), or a quote that does not say, buys no such
  network: the plan fails the check and says what to ask the vendor. Since issue 35 round 8 it is also a ranking
  key (core/advisor.py ``FABRIC_BIT``, the most serious bit): a multi-node plan is priced from a networked quote
  when its card has one (cost.PriceTable.for_nodes); when none does, its cost is single machines' card-hours, a
  price nobody quoted for the cluster it needs, so it ranks after every plan priced from a quote of the right
  kind (one node, or networked servers), and its line says so plainly. Multi-node capacity is rented as whole
  servers with the fabric, by the month or for a term: SMM's A100 80G ×8 "IB, 32 servers" whole-cluster lease
  (Gavinzll/compute-market-report data/cmis_snapshot_2026-07-14.json, news.smm.cn/live/metal/143), SMM's Ascend
  910C 158-server online leasing cluster by the server-month and its H100 ×8 HGX (400G NIC) "一年起租" and
  H200 ×8 "合约一年" quotes (the same repo's data/audit_2026-10-10.json). Round 4 had made it a check only, since
  a penalty then moved Mixtral 8x7B's #1 from 32 × H800 at ¥11,314 (AutoDL card-hours: AutoDL rents container
  instances on one host) to 8 × H200 on a monthly lease at ¥94,000; but the ¥11,314 is not a price of 4
  networked H800 servers, which the mainland market rents by the server-month (¥69,000 each at 云擎天下). The
  plan stays in the list, with its reason; ``constraints.rules.price_fabric = false`` ranks it by its cost again.
* ``price_kind`` — plans are compared on prices of one kind: the rental modes without interruptions
  (cost.STEADY_MODES: card-hours on demand, whole machines per week or month, capped card-hours), or the one mode
  the user sets (``constraints.rental_mode``, kept for every plan and said). A plan billed on spot card-hours
  because its card has no other price fails: its cost is not comparable with the others' and a reclaim can stop
  the run (the planning guide §3: "interrupted training costs more than compute"). A check, not a ranking key:
  the remedy is a quote of the comparable kind (``price_fabric`` ranks, since a single machine's price is no price
  of a cluster at all, while a spot price is a real price of the same machines, with a risk said beside it). Spot prices of the other plans are shown
  beside them as an alternative with its risk (cost.price_kind_advice), never ranked.
* ``pipeline_layers`` — pipeline stages hold the same number of layers: ``num_layers mod pp = 0`` (Megatron-LM
  asserts it unless uneven first/last stages are configured, ``megatron/training/arguments.py``; an uneven split
  leaves every stage waiting for the largest).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from dataclasses import dataclass
from . import advisor
from .i18n import QT_TRANSLATE_NOOP
from .messages import Msg, deadline_msgs

CTX = "Rules"

MFU_POOR_BELOW = 0.30
MFU_GOOD_FROM = 0.40
#: Our reading of the planning guide §4's parenthesis ("below 30% (framework incompatibility, bad topology) means
#: the cost per token goes up"): a poor MFU is the interconnect's or the layout's when the step's exposed
#: communication and pipeline bubble (:data:`COMM_PARTS`) are at least this share of the training step. Below it
#: the time goes to compute-side work (memory-bound kernels, LoRA passes, dequantisation, host launch time, in
#: the step's "compute" or "other"), which the plan's time and cost already count: no ranking penalty.
MFU_POOR_COMM_SHARE = 0.20
#: The step's parts that are communication or pipeline bubble (core/timing.py ``time_gpu``'s keys; exposed only)
COMM_PARTS = ("tp_comm", "dp_comm", "pp_bubble", "cp_comm", "ep_comm")
MFU_GOOD_UPTO = 0.55
GRADES = ("poor", "fair", "good", "optimistic")  # codes 0..3
CARD_CLASS_MIN_PARAMS = 60e9
CARD_CLASS_MIN_GB = 80.0
RULE_IDS = ("mfu_grade", "card_class", "consumer_multinode", "pipeline_layers", "mfu_ceiling", "deadline_risk",
            "memory_headroom", "tp_over_pcie", "price_fabric", "price_kind")
RULE_NAMES = {
    "mfu_grade": QT_TRANSLATE_NOOP(CTX, "MFU grade"),
    "card_class": QT_TRANSLATE_NOOP(CTX, "≥80 GB cards"),
    "consumer_multinode": QT_TRANSLATE_NOOP(CTX, "consumer cards in one node"),
    "pipeline_layers": QT_TRANSLATE_NOOP(CTX, "even pipeline stages"),
    "mfu_ceiling": QT_TRANSLATE_NOOP(CTX, "MFU ceiling"),
    "deadline_risk": QT_TRANSLATE_NOOP(CTX, "safe deadline and budget"),
    "memory_headroom": QT_TRANSLATE_NOOP(CTX, "memory headroom"),
    "tp_over_pcie": QT_TRANSLATE_NOOP(CTX, "no TP over PCIe"),
    "price_fabric": QT_TRANSLATE_NOOP(CTX, "networked multi-node price"),
    "price_kind": QT_TRANSLATE_NOOP(CTX, "prices of one kind"),
}
GRADE_NAMES = {
    "good": QT_TRANSLATE_NOOP(CTX, "good"),
    "fair": QT_TRANSLATE_NOOP(CTX, "fair"),
    "poor": QT_TRANSLATE_NOOP(CTX, "poor"),
    "optimistic": QT_TRANSLATE_NOOP(CTX, "optimistic"),
}


# ------------------------------------------------------------------------------------ element-wise checks


#: Decimals of a fraction at which an MFU is printed beside its grade (a whole percent: formatting.format_percent's
#: default, the rule lines' ``{mfu:.0%}``). The grade reads the MFU at this precision, so "30%" never reads "poor"
#: (the guide's "below 30%") nor "55%" "optimistic": one figure, one grade.
MFU_PRINTED_DECIMALS = 2


def _band_top_msg(lo: float, hi: float, days: float | None = None):
    """The upper end of a plan's likely range as the range shows it: in the unit of the plan's whole range
    (formatting.plan_span_unit: hours below a day, ux21; the headline, the range and this line in one unit, ux22)."""
    from ..formatting import plan_span_numbers, plan_span_unit  # pure Python, no Qt: the core stays pure
    from .messages import span_msg

    unit, _, _, hi_s = plan_span_numbers(hi, (lo, hi), "en", plan_span_unit(hi if days is None else days, (lo, hi)))
    return span_msg(unit, hi_s)


def printed_mfu(mfu) -> np.ndarray:
    """The MFU as printed (rounded to :data:`MFU_PRINTED_DECIMALS` decimals of the fraction), which the grades read."""
    return np.round(np.asarray(mfu, dtype=float), MFU_PRINTED_DECIMALS)


#: A plan within this share of its class's best published run (``round(0.95 × ceiling, 2)`` and above, up to the
#: ceiling) is "near the best published run": a plan timed at the ceiling (advisor.capped) or a point or two under
#: it, about the spread of one class's best runs (Megatron-LM's H100 README: 0.48 and 0.49). Below it a good plan
#: keeps the guide's sentence (a 0.9 share, tried first, put 44% on an H100 "near" 49%: most good plans).
MFU_NEAR_SHARE = 0.95


@dataclass(frozen=True, slots=True)
class GradeBands:
    """The MFU grade's bands for one plan's class (:func:`grade_bands`): poor below ``poor_below``, fair up to
    ``good_from``, good up to ``top`` (and "near the best published" from ``near_from``), optimistic above ``top``.
    ``scale``: the factor the guide's fair/good boundary is scaled by (1: the guide's bands); ``ceiling``: the class's
    best published run (advisor.mfu_ceiling's dict), None when no table is shipped (the guide's bands alone)."""

    poor_below: float = MFU_POOR_BELOW
    good_from: float = MFU_GOOD_FROM
    top: float = MFU_GOOD_UPTO
    near_from: float = math.inf
    scale: float = 1.0
    ceiling: dict | None = None


def grade_bands(ceiling: dict | None) -> GradeBands:
    """The one rule for the MFU grade's bands, from the plan's class ceiling (advisor.mfu_ceiling / class_ceiling).

    * Above the class's best published run (both at the printed precision, so "76%" of a plan capped at 75.6% is
      not above it): optimistic, "above the best published run of its class". Within :data:`MFU_NEAR_SHARE` of it:
      good, "near the best published run".
    * The guide's bands (§4: good 40–55%, poor below 30%) are for mainstream GPUs (advisor.mainstream_class): there
      the fair/good boundary is the guide's 40%. A class whose best run is above the guide's 55% on a peak its runs
      outgrow (the H20: ms-swift's Qwen3-14B at 0.756; FP8 runs counted on the BF16 peak) scales it by
      ``ceiling / 0.55`` (H20: 40% × 0.756 / 0.55 = 55%): 40% on an H20 is what 29% is on an H100.
    * Poor: below the guide's 30% on mainstream classes, scaled as the fair/good boundary elsewhere (H20:
      30% × 0.756 / 0.55 = 41%; issue 35 round 15, advice15). The guide's "below 30% (framework incompatibility,
      bad topology) the cost per token goes up" is a share of what mainstream cards reach (its 40–55%): on the H20,
      whose own run reaches 76% of its capped peak, 35% leaves as much of the reachable compute unused as 25% on an
      H100, and round 14 graded that "fair" while the same loss on an H100 was poor. The search's ranking rule
      (poor_penalised, search._poor_mfu) reads the same line per row (``search.candidate_times``' ``poor_below``).
    No ceiling (no table shipped): the guide's bands, optimistic above 55%. The grade reads an MFU: a borrowed
    ceiling, compared on HFU, whose run also has a published MFU (``grade_mfu``: a borrowed llm-foundry or Megatron-LM
    README run; advisor._borrowed) is graded on that MFU (advice19)."""
    c = None if not ceiling else (ceiling.get("grade_mfu") or ceiling.get("mfu"))
    if c is None or not math.isfinite(float(c)) or float(c) <= 0:
        return GradeBands()
    c = float(c)
    top = round(c, MFU_PRINTED_DECIMALS)
    scale = 1.0 if advisor.mainstream_class(ceiling.get("class", "")) else max(1.0, c / MFU_GOOD_UPTO)
    good_from = min(round(MFU_GOOD_FROM * scale, MFU_PRINTED_DECIMALS), top)
    poor_below = min(round(MFU_POOR_BELOW * scale, MFU_PRINTED_DECIMALS), good_from)
    near_from = max(good_from, round(MFU_NEAR_SHARE * c, MFU_PRINTED_DECIMALS))
    return GradeBands(poor_below, good_from, top, near_from, scale, ceiling)


def poor_line(ceiling: dict | None) -> float:
    """The MFU below which a plan of the class whose best published run is ``ceiling`` grades poor
    (:func:`grade_bands`' ``poor_below``): what the search's ranking rule reads per row."""
    return grade_bands(ceiling).poor_below


def mfu_grade_codes(mfu, bands: GradeBands | None = None) -> np.ndarray:
    """0 poor, 1 fair, 2 good, 3 optimistic of the MFU as printed (:func:`printed_mfu`), by the plan's class bands
    (:func:`grade_bands`; None: the guide's, poor < 30%, fair 30–40%, good 40–55%, optimistic > 55%); -1 where the
    MFU is unknown."""
    b = bands or GradeBands()
    m = printed_mfu(mfu)
    code = np.select([m < b.poor_below, m < b.good_from, m <= b.top], [0, 1, 2], 3)
    return np.where(np.isfinite(m), code, -1).astype(np.int64)


def comm_share(parts: Any, step, generation=0.0):
    """The exposed communication and pipeline bubble (:data:`COMM_PARTS` of ``parts``: seconds per step) over the
    training step (``step`` less RL rollout ``generation``, as timing's ``mfu_training`` reads it). Element-wise."""
    comm = sum(np.asarray(parts.get(k, 0.0), dtype=float) for k in COMM_PARTS)
    return comm / np.maximum(np.asarray(step, dtype=float) - np.asarray(generation, dtype=float), 1e-30)


#: GPU generations whose time model runs on the unsourced default matmul efficiency (``timing.GEN_EFFICIENCY
#: ["other"]``: accelerators other than NVIDIA and AMD, e.g. Ascend, Cambricon, Hygon): a poor MFU there is the
#: guide's other cause, framework and operator support ("verify operator compatibility on a small instance"), so it
#: is penalised whatever the communication share (callers pass an infinite share)
MFU_POOR_ANY_CAUSE_GENERATIONS = frozenset({"other"})


def rule_comm_share(share, generation: str):
    """The communication share the ``mfu_grade`` rule reads (:func:`poor_penalised`): the plan's own
    (:func:`comm_share`), or infinite on a generation of :data:`MFU_POOR_ANY_CAUSE_GENERATIONS` (penalised whatever
    the share). The search and :func:`evaluate.evaluate` both call it."""
    if generation in MFU_POOR_ANY_CAUSE_GENERATIONS:
        return np.full(np.shape(share), np.inf) if np.ndim(share) else math.inf
    return share


def poor_penalised(mfu, comm, poor_below=MFU_POOR_BELOW) -> np.ndarray:
    """Graded poor (a finite MFU below ``poor_below``, the plan's class line: :func:`grade_bands`; the guide's
    :data:`MFU_POOR_BELOW` on mainstream GPUs) with the low MFU from the interconnect or layout: communication share
    ``comm`` (:func:`comm_share`) at least :data:`MFU_POOR_COMM_SHARE` (unknown: counted). Element-wise."""
    m = printed_mfu(mfu)
    return ((m < np.asarray(poor_below, dtype=float)) & np.isfinite(m)
            & ~(np.asarray(comm, dtype=float) < MFU_POOR_COMM_SHARE))


def mfu_grade(mfu: float | None, ceiling: dict | None = None) -> str | None:
    """The grade of ``mfu`` against the class whose best published run is ``ceiling`` (:func:`grade_bands`)."""
    if mfu is None or not math.isfinite(mfu):
        return None
    return GRADES[int(mfu_grade_codes(mfu, grade_bands(ceiling)))]


def card_class_applies(params_total: float, is_moe: bool, method: str) -> bool:
    return params_total >= CARD_CLASS_MIN_PARAMS and not is_moe and method in ("pretrain", "full")


def card_class_fails(params_total: float, is_moe: bool, method: str, memory_gb) -> np.ndarray:
    return np.asarray(card_class_applies(params_total, is_moe, method)) & (np.asarray(memory_gb, float)
                                                                           < CARD_CLASS_MIN_GB - 1e-9)


def consumer_without_p2p(gpu: Any) -> bool:
    """A GeForce-class card whose catalog record does not say P2P works."""
    return getattr(gpu, "gpu_class", None) == "consumer" and getattr(gpu, "p2p", None) is not True


def communicates_every_step(tp, pp, cp, ep, zero) -> np.ndarray:
    """Layouts whose traffic is on the critical path of every step (not only a once-per-step all-reduce)."""
    return ((np.asarray(tp) > 1) | (np.asarray(pp) > 1) | (np.asarray(cp) > 1) | (np.asarray(ep) > 1)
            | (np.asarray(zero) >= 2))


def consumer_multinode_fails(gpu: Any, nodes, tp, pp, cp, ep, zero) -> np.ndarray:
    return np.asarray(consumer_without_p2p(gpu)) & (np.asarray(nodes) > 1) & communicates_every_step(tp, pp, cp, ep, zero)


def pipeline_slots(num_layers: int, account_edges: bool = False) -> int:
    """The units Megatron splits over the pipeline stages: the decoder layers, plus the embedding and the loss
    with ``--account-for-{embedding,loss}-in-pipeline-split`` (``parallel.pp_account_embedding_loss``; Megatron-LM
    ``transformer_block.get_num_layers_to_build`` asserts ``(num_layers + 2) % pp == 0`` then)."""
    return int(num_layers) + (2 if account_edges else 0)


def pipeline_layers_fails(pp, num_layers: int) -> np.ndarray:
    pp = np.asarray(pp)
    return (pp > 1) & (num_layers % np.maximum(pp, 1) != 0)


# --------------------------------------------------------------------------------------- one plan's verdicts


@dataclass(slots=True, frozen=True)
class RuleResult:
    """One rule's verdict for one plan: ``status`` is ``passed``, ``failed`` (the rule is on and the plan
    breaks it), ``allowed`` (breaks it, but the user switched the rule off) or ``not_applicable``."""

    id: str
    status: str
    message: Msg

    @property
    def passed(self) -> bool | None:
        return None if self.status == "not_applicable" else self.status == "passed"

    @property
    def name(self) -> str:
        return RULE_NAMES[self.id]

    def to_json(self) -> dict:
        return {"id": self.id, "status": self.status, "passed": self.passed, "message": self.message.render()}


def _point_miss_msg(miss: Any) -> Msg | None:
    """The deadline_risk line of a plan whose point estimate already misses the deadline or the budget (the search
    shows such plans when nothing meets both): what it misses, with the figures; None when the estimate meets both."""
    if not miss or not (miss.get("deadline") or miss.get("budget")):
        return None
    if miss["deadline"] and miss["budget"]:
        text = QT_TRANSLATE_NOOP(CTX, "Misses the deadline and the budget already at the estimate ({days} against "
                                      "{deadline_days}; {cost:,.0f} {cur} against {budget_cap:,.0f} {cur}).")
    elif miss["budget"]:
        text = QT_TRANSLATE_NOOP(CTX, "Over the budget already at the estimate ({cost:,.0f} {cur} against "
                                      "{budget_cap:,.0f} {cur}), not only at the upper end of its band.")
    else:
        text = QT_TRANSLATE_NOOP(CTX, "Misses the deadline already at the estimate ({days} against "
                                      "{deadline_days}), not only at the upper end of its band.")
    args = {k: v for k, v in miss.items() if k not in ("deadline", "budget")}
    # the spans through the one formatter, in days and written together (messages.deadline_msgs; round 13, ux20:
    # "{days:.1f} days against {deadline_days:g}" read "7.0 days against 7" for a plan of 7.04 days)
    args.update(deadline_msgs(days=float(args.get("days") or 0.0), deadline_days=float(args.get("deadline_days") or 0.0)))
    return Msg(CTX, text, args)


def _status(applies: bool, fails: bool, enabled: bool) -> str:
    if not applies:
        return "not_applicable"
    if not fails:
        return "passed"
    return "failed" if enabled else "allowed"


def _params(count: float) -> str:
    """A model's parameter count as every view writes it (``formatting.format_params``: "70.6B", the task table's
    figure; the card-class rule wrote "71B" beside it, round 15 ux23)."""
    from ..formatting import format_params  # pure Python, no Qt: the core stays pure

    return format_params(count)


def evaluate_rules(*, mfu: float | None, rollouts: bool = False, gpu: Any, gpu_memory_gb: float, params_total: float, is_moe: bool,
                   method: str, num_layers: int, nodes: int, tp: int, pp: int, cp: int, ep: int, zero: int,
                   switches: Any = None, advice: Any = None, grade_mfu: float | None = None,
                   comm: float | None = None, pp_slots: int | None = None,
                   grade_ceiling: dict | None = None) -> tuple[RuleResult, ...]:
    """Every rule's verdict for one plan (the same element-wise checks the search ranks with); ``advice``: the
    advisor's figures (a mapping: ``mfu_ceiling``, ``deadline_risk``, ``days_hi``, ``memory_headroom``,
    ``tp_over_pcie``; :func:`advice_rules`). ``rollouts``: ``mfu`` is the training passes' MFU of an RL plan
    (rollout generation left out: memory-bound decoding, not what the guide's grade is about), said in the line.
    ``grade_mfu``: the MFU the plan is timed and costed at (below ``mfu`` when the ceiling caps it), which the grade
    reads so that the grade and the MFU a person sees are one figure; ``mfu`` (modelled) is what the ceiling checks.
    Capping never makes a plan poor (a ceiling is a published MFU, far above 30%), so the search's ranking, which
    grades the modelled MFU, agrees. ``comm``: the step's communication share (:func:`comm_share`; None: unknown),
    which decides whether a poor grade fails the rule (:func:`poor_penalised`). ``grade_ceiling``: the best published
    run of the plan's class (advisor.class_ceiling), whose bands the grade reads (:func:`grade_bands`)."""
    on = {rid: bool(getattr(switches, rid, True)) for rid in RULE_IDS}
    out = []
    # MFU grade
    shown = mfu if grade_mfu is None else grade_mfu
    out.append(_mfu_grade_rule(shown, rollouts, comm, on["mfu_grade"], grade_bands(grade_ceiling)))
    # card class
    applies = card_class_applies(params_total, is_moe, method)
    fails = bool(card_class_fails(params_total, is_moe, method, gpu_memory_gb))
    name = gpu.name if hasattr(gpu, "name") else str(gpu)   # (str() only when needed: a GPU's repr is long)
    if not applies:
        msg = Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Any card class: not a dense model of ~70B or more in full training."), {})
    elif fails:
        msg = Msg(CTX, QT_TRANSLATE_NOOP(CTX, "{gpu} has {mem:g} GB; full training of a {b} dense model wants "
                                              "cards with ≥80 GB."), {"gpu": name, "mem": gpu_memory_gb, "b": _params(params_total)})
    else:
        msg = Msg(CTX, QT_TRANSLATE_NOOP(CTX, "{mem:g} GB cards: ≥80 GB, as full training of a {b} dense model "
                                              "needs."), {"mem": gpu_memory_gb, "b": _params(params_total)})
    out.append(RuleResult("card_class", _status(applies, fails, on["card_class"]), msg))
    # consumer cards across nodes
    consumer = consumer_without_p2p(gpu)
    fails = bool(consumer_multinode_fails(gpu, nodes, tp, pp, cp, ep, zero))
    if not consumer:
        msg = Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Not a consumer card without P2P."), {})
    elif fails:
        msg = Msg(CTX, QT_TRANSLATE_NOOP(CTX, "{gpu} has no P2P between cards: a layout that communicates every step "
                                              "(TP, PP, CP, EP or ZeRO-2/3) should stay in one node, and this one "
                                              "spans {nodes}."), {"gpu": name, "nodes": nodes})
    elif nodes > 1:
        msg = Msg(CTX, QT_TRANSLATE_NOOP(CTX, "{gpu} across {nodes} nodes with plain data parallelism: only one "
                                              "gradient all-reduce per step crosses the network."), {"gpu": name, "nodes": nodes})
    else:
        msg = Msg(CTX, QT_TRANSLATE_NOOP(CTX, "{gpu} in one node."), {"gpu": name})
    out.append(RuleResult("consumer_multinode", _status(consumer, fails, on["consumer_multinode"]), msg))
    # pipeline stages
    fails = bool(pipeline_layers_fails(pp, num_layers if pp_slots is None else pp_slots))
    if pp <= 1:
        msg = Msg(CTX, QT_TRANSLATE_NOOP(CTX, "No pipeline parallelism."), {})
    elif fails:
        msg = Msg(CTX, QT_TRANSLATE_NOOP(CTX, "{layers} layers do not divide into {pp} pipeline stages: the stages "
                                              "are uneven and the largest sets the pace."), {"layers": num_layers, "pp": pp})
    else:
        msg = Msg(CTX, QT_TRANSLATE_NOOP(CTX, "{layers} layers in {pp} pipeline stages of {per}."),
                  {"layers": num_layers, "pp": pp, "per": num_layers // pp})
    out.append(RuleResult("pipeline_layers", _status(pp > 1, fails, on["pipeline_layers"]), msg))
    out.extend(advice_rules(mfu, gpu, tp, advice or {}, on, rollouts))
    return tuple(_cannot_run(out) if (advice or {}).get("fits") is False else out)


#: the rules about running the plan — its speed, its deadline and budget, its price — as against those about the
#: layout's shape (card class, consumer cards across nodes, pipeline stages, TP over PCIe), which say what to change
RUN_RULES = ("mfu_grade", "mfu_ceiling", "deadline_risk", "price_fabric", "price_kind")


def _cannot_run(results: list[RuleResult]) -> list[RuleResult]:
    """A layout that does not fit in GPU memory cannot run: no rule about running it passes or fails; each says why
    (issue 35 round 14, ux22: "✓ safe deadline and budget: passed — Meets the deadline and budget at the upper end
    of its band (4.4 days)" and "✓ prices of one kind: passed — Billed on whole machines per month" stood under
    "✗ memory headroom: Does not fit" and a PDF that prices nothing, in ``estimate --json`` and the PDF)."""
    why = Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Not checked: this layout does not fit in GPU memory, so it cannot run."), {})
    return [RuleResult(r.id, "not_applicable", why) if r.id in RUN_RULES else r for r in results]


def _whose(b: GradeBands) -> Msg:
    """The run a class-scaled grade reads, named with its source (a borrowed one said as borrowed: advisor's
    ``fallback``, as the MFU-ceiling line says it)."""
    c = b.ceiling or {}
    args = {"ceil": float(b.top), "cls": c.get("gpu_type") or "", "src": c.get("source") or "",
            "date": c.get("source_date") or ""}
    if c.get("fallback"):
        return Msg(CTX, QT_TRANSLATE_NOOP(CTX, "the best published run it borrows ({ceil:.0%}: {cls}, {src}, {date}; "
                                               "no run of its own class is published)"), args)
    return Msg(CTX, QT_TRANSLATE_NOOP(CTX, "the best published run of its class ({ceil:.0%}: {cls}, {src}, {date})"),
               args)


def _grade_texts(b: GradeBands) -> tuple[dict, Msg]:
    """Each grade's sentence for bands ``b`` (``{mfu}``, ``{band}``, ``{whose}``) and the fair band's words."""
    texts = {
        "good": QT_TRANSLATE_NOOP(CTX, "Estimated MFU {mfu:.0%}: good (40–55% is what a tuned framework reaches on "
                                       "mainstream GPUs)."),
        "fair": QT_TRANSLATE_NOOP(CTX, "Estimated MFU {mfu:.0%}: fair ({band}); the interconnect or the layout "
                                       "leaves some compute unused."),
        "poor": QT_TRANSLATE_NOOP(CTX, "Estimated MFU {mfu:.0%}: poor (below 30% something is wrong: interconnect, "
                                       "data loading or layout), so the cost per token goes up."),
        "optimistic": QT_TRANSLATE_NOOP(CTX, "Estimated MFU {mfu:.0%}: optimistic (above 55% is rare in published "
                                             "runs); measure a short run before committing."),
    }
    band = Msg(CTX, QT_TRANSLATE_NOOP(CTX, "30–40%"), {})
    if b.ceiling is not None:
        texts["optimistic"] = QT_TRANSLATE_NOOP(CTX, "Estimated MFU {mfu:.0%}: optimistic, above {whose}; measure a "
                                                     "short run before committing.")
    if b.scale > 1.0:
        texts["good"] = QT_TRANSLATE_NOOP(CTX, "Estimated MFU {mfu:.0%}: good ({lo:.0%}–{hi:.0%}: the guide's "
                                               "40–55% for mainstream GPUs, scaled to {whose}).")
        texts["poor"] = QT_TRANSLATE_NOOP(CTX, "Estimated MFU {mfu:.0%}: poor (below {poor:.0%}: the guide's 30% for "
                                               "mainstream GPUs, scaled to {whose}; something is wrong: "
                                               "interconnect, data loading or layout), so the cost per token goes up.")
        band = Msg(CTX, QT_TRANSLATE_NOOP(CTX, "{lo:.0%}–{hi:.0%}: the guide's 30–40% for mainstream GPUs, scaled "
                                               "to {whose}"),
                   {"lo": b.poor_below, "hi": b.good_from, "whose": _whose(b)})
    return texts, band


def _mfu_grade_rule(shown: float | None, rollouts: bool, comm: float | None, enabled: bool,
                    bands: GradeBands | None = None) -> RuleResult:
    """The ``mfu_grade`` verdict: the grade of the MFU ``shown`` in its class's bands (:func:`grade_bands`); a poor
    one fails only when the communication share ``comm`` says the interconnect or layout made it
    (:func:`poor_penalised`)."""
    b = bands or GradeBands()
    if shown is None or not math.isfinite(shown):
        return RuleResult("mfu_grade", "not_applicable", Msg(CTX, QT_TRANSLATE_NOOP(CTX, "MFU unknown."), {}))
    grade = GRADES[int(mfu_grade_codes(shown, b))]
    texts, band = _grade_texts(b)
    fails = bool(poor_penalised(shown, np.nan if comm is None else comm, b.poor_below))
    args = {"mfu": shown, "band": band, "lo": b.good_from, "hi": b.top, "poor": b.poor_below}
    if b.ceiling is not None:
        args["whose"] = _whose(b)
    if grade == "poor" and not fails:
        # the compute-side work named generally: a poor MFU on a compute-capped card (the H20) is not "a fast card"'s
        text = Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Estimated MFU {mfu:.0%}: poor, but not from the interconnect: "
                                               "communication and pipeline bubble are {comm:.0%} of the step, the "
                                               "rest is compute-side work (the method's memory-bound kernels, extra "
                                               "passes, host launch time), which the time and cost already count; "
                                               "ranked by cost."),
                   {"mfu": shown, "comm": float(comm)})
        if b.scale > 1.0:  # the class's own line said: the guide's 30% does not make this plan poor (advice15)
            text = Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Estimated MFU {mfu:.0%}: poor for its class (below {poor:.0%}: "
                                                   "the guide's 30% for mainstream GPUs, scaled to {whose}), but not "
                                                   "from the interconnect: communication and pipeline bubble are "
                                                   "{comm:.0%} of the step, the rest is compute-side work (the "
                                                   "method's memory-bound kernels, extra passes, host launch time), "
                                                   "which the time and cost already count; ranked by cost."),
                       {**args, "comm": float(comm)})
    elif grade == "fair" and comm is not None and math.isfinite(comm) and comm < MFU_POOR_COMM_SHARE:
        # as the poor grade: little communication, so the unused compute is the kernels', not the link's
        text = Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Estimated MFU {mfu:.0%}: fair ({band}), not from the interconnect: "
                                               "communication and pipeline bubble are {comm:.0%} of the step, the "
                                               "rest is compute-side work (memory-bound kernels, the method's extra "
                                               "passes)."),
                   {"mfu": shown, "comm": float(comm), "band": band})
    elif grade == "good" and printed_mfu(shown) >= b.near_from:
        text = Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Estimated MFU {mfu:.0%}: good, near {whose}."), args)
    else:
        text = Msg(CTX, texts[grade], args)
    if rollouts:
        text = _training_passes(text)
    return RuleResult("mfu_grade", _status(True, fails, enabled), text)


def _training_passes(inner: Msg) -> Msg:
    """``inner`` said of an RL plan's training passes (its MFU without the rollouts: timing's mfu_training)."""
    return Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Training passes only (rollout generation, memory-bound decoding, "
                                           "is left out, as in verl's actor MFU): {grade}"), {"grade": inner})


def _ceiling_text(above: bool, borrowed: bool, hfu: bool = False) -> str:
    """The MFU-ceiling check's sentence. A class with no published run of its own borrows the lowest ceiling of the
    classes that have one (advisor.mfu_ceiling's ``fallback``): the line says so, rather than calling an A100
    Megatron run the class of an RTX 5090 LoRA plan (issue 35 round 11, expert11). A class whose run reports
    hardware FLOPs utilisation (advisor.ceiling_is_hfu) is compared on the plan's HFU, and the line names it
    (advice18: "Modelled MFU 52.3% is above the best published 52.0%" compared an MFU with Narayanan et al.'s HFU)."""
    if hfu and borrowed:
        return (QT_TRANSLATE_NOOP(CTX, "Modelled hardware FLOPs utilisation {mfu:.1%} (recomputed FLOPs counted) is "
                                       "above {ceil:.1%}, the ceiling it borrows: no run of its own class is "
                                       "published, so it takes the lowest hardware FLOPs utilisation of the classes "
                                       "that have one ({cls}; {src}, {date}, {layout}); timed and costed at "
                                       "{ceil:.1%} hardware FLOPs utilisation.")
                if above else
                QT_TRANSLATE_NOOP(CTX, "Modelled hardware FLOPs utilisation {mfu:.0%} (recomputed FLOPs counted) is "
                                       "within {ceil:.0%}, the ceiling it borrows: no run of its own class is "
                                       "published, so it takes the lowest hardware FLOPs utilisation of the classes "
                                       "that have one ({cls}; {src}, {date})."))
    if hfu:
        return (QT_TRANSLATE_NOOP(CTX, "Modelled hardware FLOPs utilisation {mfu:.1%} (recomputed FLOPs counted, as "
                                       "the published run counts them) is above the best published {ceil:.1%} of "
                                       "its class ({cls}; {src}, {date}, {layout}): timed and costed at {ceil:.1%} "
                                       "hardware FLOPs utilisation.")
                if above else
                QT_TRANSLATE_NOOP(CTX, "Modelled hardware FLOPs utilisation {mfu:.0%} (recomputed FLOPs counted, as "
                                       "the published run counts them) is within the best published {ceil:.0%} of "
                                       "its class ({cls}; {src}, {date})."))
    if borrowed:
        return (QT_TRANSLATE_NOOP(CTX, "Modelled MFU {mfu:.1%} is above {ceil:.1%}, the ceiling it borrows: no run of "
                                       "its own class is published, so it takes the lowest of the classes that have "
                                       "one ({cls}; {src}, {date}, {layout}); timed and costed at {ceil:.1%}.")
                if above else
                QT_TRANSLATE_NOOP(CTX, "Modelled MFU {mfu:.0%} is within {ceil:.0%}, the ceiling it borrows: no run of "
                                       "its own class is published, so it takes the lowest of the classes that have "
                                       "one ({cls}; {src}, {date})."))
    return (QT_TRANSLATE_NOOP(CTX, "Modelled MFU {mfu:.1%} is above the best published {ceil:.1%} of its class "
                                   "({cls}; {src}, {date}, {layout}): timed and costed at {ceil:.1%}.")
            if above else
            QT_TRANSLATE_NOOP(CTX, "Modelled MFU {mfu:.0%} is within the best published {ceil:.0%} of its class "
                                   "({cls}; {src}, {date})."))


def advice_rules(mfu: float | None, gpu: Any, tp: int, a: Any, on: dict, rollouts: bool = False) -> list[RuleResult]:
    """The advisor's four verdicts (core/advisor.py) from the figures :func:`evaluate.evaluate` computed
    (``rollouts``: ``mfu`` is an RL plan's training passes' MFU, which the ceiling bounds: advisor.capped)."""
    out = []
    ceil = a.get("mfu_ceiling")
    if ceil is None or mfu is None:
        out.append(RuleResult("mfu_ceiling", "not_applicable", Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "No MFU ceiling applies (your own MFU or a measured run is used, or the rule is off)."), {})))
    else:
        fig = mfu if a.get("ceiling_figure") is None else a["ceiling_figure"]  # the plan's MFU, or its HFU
        args = {"mfu": fig, "ceil": ceil["mfu"], "cls": ceil.get("gpu_type") or "", "src": ceil.get("source") or "",
                "date": ceil.get("source_date") or "", "layout": ceil.get("layout") or ""}
        above = fig > ceil["mfu"] + 1e-12
        text = _ceiling_text(above, bool(ceil.get("fallback")), bool(a.get("ceiling_hfu")))
        # on: the plan is timed and costed at the ceiling, so it keeps the rule (the message says so); off: allowed
        msg = Msg(CTX, text, args)
        if rollouts:
            msg = _training_passes(msg)
        out.append(RuleResult("mfu_ceiling", "allowed" if above and not on["mfu_ceiling"] else "passed", msg))
    out.append(_deadline_rule(a, on))
    head = a.get("memory_headroom") or {}
    if head.get("tight") is None:
        out.append(RuleResult("memory_headroom", "not_applicable",
                              Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Card memory unknown."), {})))
    else:
        margin = head.get("margin") or 0.0
        args = {"free": advisor.shown_free_share(head.get("free_share") or 0.0, margin, bool(head["tight"])),
                "margin": margin}
        text = (QT_TRANSLATE_NOOP(CTX, "Tight: {free:.1%} of the card free, less than the memory model's p75 error "
                                       "of {margin:.1%} on published runs.") if head["tight"] else
                QT_TRANSLATE_NOOP(CTX, "{free:.1%} of the card free: more than the memory model's p75 error of "
                                       "{margin:.1%}."))
        if (head.get("free_share") or 0.0) < 0:
            # a layout that does not fit read "Tight: -76.9% of the card free" (the PDF of a scenario file's own
            # layout; ux20): said as what it is, the same figure as the share it needs beyond the card
            text = QT_TRANSLATE_NOOP(CTX, "Does not fit: it needs {over:.1%} more memory than the card has.")
            args["over"] = -float(head.get("free_share") or 0.0)
        out.append(RuleResult("memory_headroom", _status(True, bool(head["tight"]), on["memory_headroom"]),
                              Msg(CTX, text, args)))
    pcie = bool(a.get("tp_over_pcie"))
    name = gpu.name if hasattr(gpu, "name") else str(gpu)
    if tp <= 1:
        msg = Msg(CTX, QT_TRANSLATE_NOOP(CTX, "No tensor parallelism."), {})
    elif pcie:
        msg = Msg(CTX, QT_TRANSLATE_NOOP(CTX, "TP {tp} over PCIe on {gpu}: four all-reduces per layer through the "
                                              "host bridge, none hidden (Transformer Engine's overlap needs NVLink "
                                              "peer memory); ranked after plans without it when a card with NVLink "
                                              "meets the deadline."), {"tp": tp, "gpu": name})
    else:
        msg = Msg(CTX, QT_TRANSLATE_NOOP(CTX, "TP {tp} inside the NVLink domain of {gpu}."), {"tp": tp, "gpu": name})
    out.append(RuleResult("tp_over_pcie", _status(tp > 1, pcie, on["tp_over_pcie"]), msg))
    out.append(price_fabric_rule(a.get("price_fabric"), on))
    out.append(price_kind_rule(a.get("price_kind"), on))
    return out


def _deadline_rule(a: Any, on: dict) -> RuleResult:
    """The ``deadline_risk`` verdict: whether the plan meets the deadline and budget at the upper end of its band
    (a plan that does not fit: :func:`_cannot_run`)."""
    risk = a.get("deadline_risk")
    if risk is None:
        return RuleResult("deadline_risk", "not_applicable", Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "No deadline or budget, or no validation band for this framework."), {}))
    # one message in the unit of the plan's whole range (hours below a day; ux21, ux22: one template each)
    text = (QT_TRANSLATE_NOOP(CTX, "At risk: meets the deadline and budget at the estimate, but not at the upper end "
                                   "of its band ({span}).") if risk else
            QT_TRANSLATE_NOOP(CTX, "Meets the deadline and budget at the upper end of its band ({span})."))
    msg = _point_miss_msg(a.get("point_miss")) if risk else None
    hi = float(a.get("days_hi") or 0.0)
    lo = float(a.get("days_lo") if a.get("days_lo") is not None else hi)
    # the upper end exactly as the likely range shows it ("0.29", not "0.3" beside "0.25–0.29"; ux14)
    span = _band_top_msg(lo, hi, (a.get("point_miss") or {}).get("days"))
    return RuleResult("deadline_risk", _status(True, bool(risk), on["deadline_risk"]), msg or Msg(CTX, text, {"span": span}))


def price_kind_rule(k: Any, on: dict) -> RuleResult:
    """The verdict on ``price_kind`` from the plan's billing ``mode``, the user's ``pin`` (None: not set) and the
    card's name ``gpu`` (``k``: a mapping; None without a price)."""
    if k is None or k.get("mode") is None:
        return RuleResult("price_kind", "not_applicable",
                          Msg(CTX, QT_TRANSLATE_NOOP(CTX, "No rental price: no quote to check."), {}))
    mode = Msg("Cost", k.get("label") or "")
    if k.get("pin") is not None:
        return RuleResult("price_kind", "passed", Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "Every plan is billed on {mode}, as set in the scenario (constraints.rental_mode)."), {"mode": mode}))
    if k["mode"] != "spot":
        return RuleResult("price_kind", "passed", Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "Billed on {mode}, a price without interruptions: every plan is compared on such prices."),
            {"mode": mode}))
    return RuleResult("price_kind", _status(True, True, on["price_kind"]), Msg(CTX, QT_TRANSLATE_NOOP(
        CTX, "Billed on spot card-hours, the only price of {gpu} here: the other plans are billed on prices without "
             "interruptions, so this cost is not comparable with theirs, and a reclaim can stop the run. Enter an "
             "on-demand or monthly quote for {gpu}, or set constraints.rental_mode to spot to compare every plan on "
             "spot."), {"gpu": k.get("gpu") or ""}))


_ASK_FABRIC = QT_TRANSLATE_NOOP(CTX, "Ask the vendor for InfiniBand or RoCE between the {nodes} nodes, bandwidth "
                                     "dedicated to you (独享, not shared with other tenants) and every node in the "
                                     "same data centre, and for the price of that.")


def price_fabric_rule(f: Any, on: dict) -> RuleResult:
    """The verdict on ``price_fabric`` from the plan's nodes and its price's ``multi_node`` (``f``: a mapping
    ``nodes``, ``multi_node``, ``provider``, ``why`` (the source's words, kept for plan --json); None without a
    price)."""
    if f is None:
        return RuleResult("price_fabric", "not_applicable",
                          Msg(CTX, QT_TRANSLATE_NOOP(CTX, "No rental price: no quote to check."), {}))
    nodes = int(f.get("nodes") or 1)
    if nodes <= 1:
        return RuleResult("price_fabric", "not_applicable",
                          Msg(CTX, QT_TRANSLATE_NOOP(CTX, "One node: no network between nodes to rent."), {}))
    args = {"nodes": nodes, "provider": f.get("provider") or ""}  # (the source's words: price.multi_node_source)
    if f.get("domain"):  # (advisor.no_fabric: the plan fits in one NVLink domain larger than a server)
        return RuleResult("price_fabric", "passed", Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "{nodes} nodes of {gpu} inside one NVLink domain of {domain} GPUs: they reach each other over its "
                 "NVLink switches, not over a network between servers. Ask that they are rented in one NVLink "
                 "domain (rack)."), {"nodes": nodes, "gpu": f.get("gpu") or "", "domain": int(f["domain"])}))
    ask = Msg(CTX, _ASK_FABRIC, {"nodes": nodes})
    v = f.get("multi_node")
    if v is True:
        text = QT_TRANSLATE_NOOP(CTX, "{nodes} nodes priced from {provider}, a networked offer (its source says so). "
                                      "Still ask that the bandwidth is dedicated (独享) and the nodes are in one data "
                                      "centre.")
        return RuleResult("price_fabric", "passed", Msg(CTX, text, args))
    if f.get("default") and on["price_fabric"]:
        return RuleResult("price_fabric", "failed", _no_fabric_quote(f, v, nodes, ask))
    text = (QT_TRANSLATE_NOOP(CTX, "{nodes} nodes priced from {provider}, which rents single machines (its source "
                                   "says so): that price buys no network between them. {ask}") if v is False else
            QT_TRANSLATE_NOOP(CTX, "{nodes} nodes priced from {provider}, whose quote does not say that its servers "
                                   "are networked. {ask}"))
    if on["price_fabric"]:  # (the user's own quote, not stating networked servers: ranked after as well)
        ask = Msg(CTX, QT_TRANSLATE_NOOP(CTX, "{ask} {ranked}"), {"ask": ask, "ranked": Msg(CTX, _RANKED_AFTER, {})})
    return RuleResult("price_fabric", _status(True, True, on["price_fabric"]), Msg(CTX, text, {**args, "ask": ask}))


_RANKED_AFTER = QT_TRANSLATE_NOOP(CTX, "It ranks after the plans priced from quotes of the right kind (one node, or "
                                       "networked servers).")


def _no_fabric_quote(f: Any, v: bool | None, nodes: int, ask: Msg) -> Msg:
    """The failed ``price_fabric`` line of a plan priced from the default quotes when none of its card's quotes
    offers networked servers (cost.PriceTable.for_nodes found none): said plainly, with what such a cluster is
    rented as and where the plan ranks (core/advisor.py FABRIC_BIT)."""
    args = {"nodes": nodes, "provider": f.get("provider") or "", "gpu": f.get("gpu") or "", "ask": ask,
            "ranked": Msg(CTX, _RANKED_AFTER, {})}
    text = (QT_TRANSLATE_NOOP(CTX, "No quote for {gpu} here rents {nodes} networked servers, so the {nodes} nodes "
                                   "are priced from {provider}, which rents single machines (its source says so): that "
                                   "price buys no network between them. Clusters are rented as whole servers with "
                                   "InfiniBand or RoCE, often by the month or for a minimum term, and can cost "
                                   "more. {ranked} {ask}") if v is False else
            QT_TRANSLATE_NOOP(CTX, "No quote for {gpu} here rents {nodes} networked servers, so the {nodes} nodes "
                                   "are priced from {provider}, whose quote does not say that its servers are "
                                   "networked. Clusters are rented as whole servers with InfiniBand or RoCE, often "
                                   "by the month or for a minimum term, and can cost more. {ranked} {ask}"))
    return Msg(CTX, text, args)


def tp_over_pcie_waived(r: RuleResult, tp: int, gpu_name: str) -> RuleResult:
    """The verdict on ``tp_over_pcie`` of a plan the search did not rank down: no plan on a card with NVLink met
    the deadline and budget at the upper end of its band (core/search.nvlink_fits), so the rule — "no TP over
    PCIe when an NVLink card fits the deadline" — does not apply; the plan is timed over PCIe, with no overlap."""
    if r.status != "failed":
        return r
    return RuleResult("tp_over_pcie", "passed", Msg(CTX, QT_TRANSLATE_NOOP(
        CTX, "TP {tp} over PCIe on {gpu}: no card with NVLink meets the deadline and budget at the upper end of its "
             "band, so it is ranked on its own time and cost (timed over PCIe, none of it hidden)."),
        {"tp": tp, "gpu": gpu_name}))
