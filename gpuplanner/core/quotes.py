"""Vendor quotes compared for one plan: the cheapest applicable offer of each vendor, the costs quotes leave out
(storage, egress, setup and image rebuilding, data migration), the network checked against the plan, the hard
questions still to ask, and a ranking with its reasons.

Pure: no files, no Qt. The quotes are pydantic models (stored in the plan file's ``quotes``, read from CSV/XLSX
by ``io/quote_sheets.py``); the plan's figures (GPU, count, compute hours, calendar days, data volume) are read
from its :class:`~gpuplanner.core.evaluate.Evaluation` by :func:`plan_figures`, never recomputed here.

Money is :class:`decimal.Decimal` throughout: every line is rounded to the cent (ROUND_HALF_UP) and the total is
the sum of the rounded lines, so the printed lines add up to the printed total. A price in another currency is
converted only with the rate and date the sheet states.

Billing conventions (the same as the price reference's analysis and the plan's :mod:`core.cost`): a month is
30 days (720 hours, :data:`units.HOURS_PER_MONTH`), a week 7
days, a year 365 days; a period rental is billed for whole periods (``ceil``) and at least its minimum term;
an hourly rental is billed for the card-hours worked plus the hours spent setting up each new instance. The
break-even of a package against the vendor's own card-hour price, in hours per week, is
``package price for the plan's cards ÷ (cards × card-hour price) ÷ (period days ÷ 7)`` (per card when the plan
fills whole servers; above 168 h/week the package never wins for this card count).

Storage priced per TB-month is billed for every month started (``ceil(days / 30)`` months: a monthly price is
billed by the month) unless the sheet says the vendor bills it by the day (``storage_billing = day``: prorated).

Spot (interruptible) capacity is a cost band, not only a risk: its low end bills the plan's card-hours at the spot
price (no reclaim), its far end adds the work lost and the restarts of one reclaim per node per day of running
(:attr:`core.cost.Overheads.spot_preemptions_per_node_day`, the core's own setting; Google Cloud documents that its
preemptible VMs "always stop after 24 hours", https://cloud.google.com/compute/docs/instances/create-use-preemptible),
counted with the same Young (1974) checkpoint model the plan's own interruptions use
(:func:`core.cost.interruption_overhead`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
import datetime as _dt
from decimal import ROUND_CEILING, ROUND_HALF_UP, Decimal
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from .i18n import QT_TRANSLATE_NOOP
from .messages import Msg, MsgStr, not_negative_price
from .units import DAYS_PER_MONTH

CTX = "Quotes"
CENT = Decimal("0.01")
MAX_PRICE = Decimal("1000000000")  # a billion per unit: anything above is a typing error
MAX_OFFERS = 200
MAX_TEXT = 500

Unit = Literal["card_hour", "spot_card_hour", "card_day", "card_week", "card_month",
               "server_day", "server_week", "server_month", "server_year"]
UNITS: tuple[str, ...] = Unit.__args__  # type: ignore[attr-defined]
#: days in one billed period of each unit: the month is the planner's one 30-day month (units.DAYS_PER_MONTH, where
#: the vendors' own definitions are cited), so the quotes and the plan bill a job's days in the same months
PERIOD_DAYS = {"card_day": 1, "card_week": 7, "card_month": DAYS_PER_MONTH, "server_day": 1, "server_week": 7,
               "server_month": DAYS_PER_MONTH, "server_year": 365}
HOURLY = ("card_hour", "spot_card_hour")

UNIT_LABELS = {
    "card_hour": QT_TRANSLATE_NOOP(CTX, "per card-hour"), "spot_card_hour": QT_TRANSLATE_NOOP(CTX, "spot, per card-hour"),
    "card_day": QT_TRANSLATE_NOOP(CTX, "per card-day"), "card_week": QT_TRANSLATE_NOOP(CTX, "per card-week"),
    "card_month": QT_TRANSLATE_NOOP(CTX, "per card-month"), "server_day": QT_TRANSLATE_NOOP(CTX, "per server-day"),
    "server_week": QT_TRANSLATE_NOOP(CTX, "per server-week"),
    "server_month": QT_TRANSLATE_NOOP(CTX, "per server-month"),
    "server_year": QT_TRANSLATE_NOOP(CTX, "per server-year"),
}

#: the hard questions asked of every vendor (the planning guide's "vendor hard indicators")
QUESTIONS = {
    "real_stock": QT_TRANSLATE_NOOP(CTX, "Real stock (machines in the rack), not “schedulable”?"),
    "sla_spare": QT_TRANSLATE_NOOP(CTX, "Failure SLA in hours, and a spare machine swapped in?"),
    "data_isolation": QT_TRANSLATE_NOOP(CTX, "Data stays in the region; VPC or bare metal, isolated from other tenants?"),
    "licence": QT_TRANSLATE_NOOP(CTX, "IDC/ISP licence number given?"),
    "trial_own_script": QT_TRANSLATE_NOOP(CTX, "Trial run with our own script done?"),
    "same_site_upgrade": QT_TRANSLATE_NOOP(CTX, "Same-site upgrade path (e.g. 4 to 8 cards in the same machine)?"),
    "topology_received": QT_TRANSLATE_NOOP(CTX, "Topology (nvidia-smi topo -m), ibstat or kit result received?"),
}
Answer = Literal["yes", "no", "unknown"]
Network = Literal["", "ib", "roce", "ethernet"]
StorageBilling = Literal["month", "day"]
NETWORK_LABELS = {"": QT_TRANSLATE_NOOP(CTX, "not stated"), "ib": "InfiniBand", "roce": "RoCE",
                  "ethernet": QT_TRANSLATE_NOOP(CTX, "Ethernet (TCP)")}
ANSWER_LABELS = {"yes": QT_TRANSLATE_NOOP(CTX, "yes"), "no": QT_TRANSLATE_NOOP(CTX, "no"),
                 "unknown": QT_TRANSLATE_NOOP(CTX, "still to ask")}
STORAGE_BILLING_LABELS = {"month": QT_TRANSLATE_NOOP(CTX, "by the month (every month started)"),
                          "day": QT_TRANSLATE_NOOP(CTX, "by the day (prorated)")}
#: the quote's fields as people read them (sheet items, editor rows, error messages)
FIELD_LABELS = {
    "provider": QT_TRANSLATE_NOOP(CTX, "Provider"), "date": QT_TRANSLATE_NOOP(CTX, "Quote date"),
    "region": QT_TRANSLATE_NOOP(CTX, "Region"), "contact": QT_TRANSLATE_NOOP(CTX, "Contact"),
    "currency": QT_TRANSLATE_NOOP(CTX, "Currency"),
    "exchange_rate": QT_TRANSLATE_NOOP(CTX, "Exchange rate (plan currency per unit)"),
    "exchange_rate_date": QT_TRANSLATE_NOOP(CTX, "Exchange rate date"),
    "storage_per_tb_month": QT_TRANSLATE_NOOP(CTX, "Storage per TB-month"),
    "storage_billing": QT_TRANSLATE_NOOP(CTX, "Storage billed"),
    "egress_per_tb": QT_TRANSLATE_NOOP(CTX, "Egress per TB"),
    "setup_hours": QT_TRANSLATE_NOOP(CTX, "Setup hours per instance"),
    "setup_billed": QT_TRANSLATE_NOOP(CTX, "Setup hours billed"),
    "migration_hours": QT_TRANSLATE_NOOP(CTX, "Data migration hours"),
    "network": QT_TRANSLATE_NOOP(CTX, "Network between nodes"), "network_gbps": QT_TRANSLATE_NOOP(CTX, "Gb/s per NIC"),
    "nics_per_node": QT_TRANSLATE_NOOP(CTX, "NICs per node"),
    "preinstalled": QT_TRANSLATE_NOOP(CTX, "Pre-installed software"), "source": QT_TRANSLATE_NOOP(CTX, "Source"),
    "offers": QT_TRANSLATE_NOOP(CTX, "Offer"), "answers": QT_TRANSLATE_NOOP(CTX, "Answer"),
    "gpu": QT_TRANSLATE_NOOP(CTX, "GPU"), "unit": QT_TRANSLATE_NOOP(CTX, "Unit"), "price": QT_TRANSLATE_NOOP(CTX, "Price"),
    "gpus_per_server": QT_TRANSLATE_NOOP(CTX, "Cards/server"),
    "min_term_days": QT_TRANSLATE_NOOP(CTX, "Min. term (days)"), "cap_at_month": QT_TRANSLATE_NOOP(CTX, "Cap at month"),
    "note": QT_TRANSLATE_NOOP(CTX, "Note"), "answer": QT_TRANSLATE_NOOP(CTX, "Answer"),
    "multi_node": QT_TRANSLATE_NOOP(CTX, "Networked servers (multi-node)"),
}


def field_message(loc: tuple, why: str) -> "MsgStr":
    """One pydantic error of a quote as a translatable line naming the field in words: ``Offer 2, Price: …``.
    ``why`` is :func:`core.messages.validation_reason` of the error (a message id where pydantic's sentence
    is known)."""
    parts: list[Any] = []
    for x in loc:
        if isinstance(x, int):
            parts.append(str(x + 1))
        elif x in FIELD_LABELS:
            parts.append(Msg(CTX, FIELD_LABELS[x], {}))
        elif x in QUESTIONS:
            parts.append(Msg(CTX, QUESTIONS[x], {}))
        else:
            parts.append(str(x)[:40])
    field = parts[0] if parts else Msg(CTX, FIELD_LABELS["provider"], {})
    for extra in parts[1:]:
        field = Msg(CTX, QT_TRANSLATE_NOOP(CTX, "{a} {b}"), {"a": field, "b": extra})
    return MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "{field}: {why}"), field=field, why=why)


def _text(v: Any) -> Any:
    if isinstance(v, str):
        v = v.strip()
        if len(v) > MAX_TEXT:
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "longer than {n} characters"), n=MAX_TEXT))
    return v


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True, frozen=False)


class Offer(_Model):
    """One priced offer: a GPU type, a unit and a price (in the vendor's currency)."""

    gpu: str = Field(min_length=1, max_length=80)
    unit: Unit
    price: Decimal = Field(ge=0, le=MAX_PRICE, allow_inf_nan=False)
    gpus_per_server: int = Field(8, ge=1, le=64)
    min_term_days: Decimal = Field(Decimal(0), ge=0, le=3650, allow_inf_nan=False)
    cap_at_month: bool = False  # card-hours capped at the vendor's card-month price of the same GPU
    note: str = ""
    #: the offer's servers are networked for multi-node training (a cluster with InfiniBand/RoCE between them);
    #: False: single machines; None: not stated (core/rules.py price_fabric asks the same of the price table)
    multi_node: bool | None = None

    _clean = field_validator("gpu", "note", mode="before")(_text)
    _price_sign = field_validator("price", mode="before")(not_negative_price)


class QuestionAnswer(_Model):
    answer: Answer = "unknown"
    note: str = ""
    date: _dt.date | None = None

    _clean = field_validator("note", mode="before")(_text)


class VendorQuote(_Model):
    """A vendor's quote sheet: who, when, what they offer and on which terms, and their answers."""

    provider: str = Field(min_length=1, max_length=120)
    date: _dt.date | None = None
    region: str = ""
    contact: str = ""
    currency: str = Field("CNY", pattern=r"^[A-Z]{3}$")
    exchange_rate: Decimal | None = Field(None, gt=0, le=Decimal(100000), allow_inf_nan=False)
    exchange_rate_date: _dt.date | None = None
    storage_per_tb_month: Decimal | None = Field(None, ge=0, le=MAX_PRICE, allow_inf_nan=False)
    storage_billing: StorageBilling = "month"  # a monthly price billed for every month started; "day": prorated
    egress_per_tb: Decimal | None = Field(None, ge=0, le=MAX_PRICE, allow_inf_nan=False)
    setup_hours: Decimal | None = Field(None, ge=0, le=1000, allow_inf_nan=False)
    setup_billed: Answer = "unknown"
    migration_hours: Decimal | None = Field(None, ge=0, le=10000, allow_inf_nan=False)
    network: Network = ""
    network_gbps: Decimal | None = Field(None, gt=0, le=100000, allow_inf_nan=False)
    nics_per_node: int | None = Field(None, ge=0, le=64)
    preinstalled: str = ""
    source: str = ""
    offers: list[Offer] = Field(default_factory=list, max_length=MAX_OFFERS)
    answers: dict[str, QuestionAnswer] = Field(default_factory=dict)

    _clean = field_validator("provider", "region", "contact", "preinstalled", "source", mode="before")(_text)
    _price_sign = field_validator("storage_per_tb_month", "egress_per_tb", mode="before")(not_negative_price)

    @field_validator("answers")
    @classmethod
    def _known_questions(cls, v: dict[str, QuestionAnswer]) -> dict[str, QuestionAnswer]:
        unknown = [k for k in v if k not in QUESTIONS]
        if unknown:
            raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "unknown question {q} (known: {known})"),
                                         q=unknown[0][:40], known=", ".join(QUESTIONS)))
        return v

    def answer(self, qid: str) -> QuestionAnswer:
        return self.answers.get(qid) or QuestionAnswer()


# ------------------------------------------------------------------------------------------ plan figures

@dataclass(slots=True, frozen=True)
class QuotedPlan:
    """What the comparison needs from the plan, read from its Evaluation."""

    gpu_id: str
    gpu_name: str
    gpu_memory_gib: float
    num_gpus: int
    gpus_per_node: int
    nodes: int
    card_hours: float            # Evaluation.gpu_hours: card-hours of compute
    calendar_days: float         # Evaluation.calendar_days: what the team waits, the period machines are held
    calendar_days_band: tuple[float, float] | None
    setup_hours: float           # Evaluation.setup_hours: environment + moving data in, per new instance
    hours_per_week: float
    currency: str
    storage_tb: float            # tokenised data + three checkpoints + the 16-bit weights
    egress_tb: float             # the final checkpoint and the 16-bit weights downloaded at the end
    inter_node: str | None       # the plan's fabric between nodes ("ib"/"roce"/None for one node)
    inter_node_gbps: float | None
    checkpoint_tb: float = 0.0     # one resumable checkpoint (the work a spot reclaim loses is counted with it)
    #: every node inside one NVLink domain (GB200 NVL72's trays: evaluate.within_nvlink_domain): no network used
    nvlink_domain: bool = False
    #: the NICs per node and Gb/s per NIC the time model counts (evaluate.fabric_in_force), asked in the RFQ
    nics_per_node: int | None = None
    nic_gbps: float | None = None
    #: the link inside a server the plan runs on (Evaluation.links.intra_node) and its tensor-parallel size:
    #: the RFQ asks for it and for the topology check that proves it (planning guide: nvidia-smi topo -m)
    intra_node: str | None = None
    tp: int = 1
    #: host RAM per server CPU offload needs (Evaluation.host_ram.total, core.intake.host_ram; None: no offload)
    host_ram_gib: float | None = None


def plan_figures(ev: Any) -> QuotedPlan:
    """The figures of the plan's :class:`Evaluation` the quotes are compared against; storage and egress from the
    bytes the plan stores (``Evaluation.storage``, the sizes the report's storage requirements state: read there,
    not worked out again; parity16)."""
    s = ev.scenario
    need = ev.storage
    ckpt, data_b, weights = need.checkpoint_bytes, need.data_bytes, need.weights_bytes
    fabric, gbps = None, None
    in_domain = _in_nvlink_domain(ev)
    if ev.nodes > 1 and not in_domain:
        fabric = "ib"  # no network chosen: the planner's multi-node figures assume InfiniBand
        net_id = str(s.hardware.inter_node or "").lower()
        if net_id:
            # the catalog's ids name the fabric: ib-…, roce-…, eth-… (resources/networks.json)
            fabric = "roce" if net_id.startswith("roce") else ("ethernet" if net_id.startswith("eth") else "ib")
    links = getattr(ev, "links", None)
    nics, nic_gbps = None, None
    if fabric is not None:
        # the Gb/s per node the days were computed with and the report asks for (evaluate.inter_node_link: the NICs
        # the time model counts, catalog_hw.server_nics on a small server), read from the one Evaluation (parity14),
        # also where the scenario names no network: the days then run on the generation's default fabric
        # (timing.DEFAULT_FABRIC), so that is what the RFQ asks for; before (issue 35 round 16, quotes16) a plan
        # with no network chosen asked "InfiniBand, ? Gb/s per node" beside days computed on 8 × 400 Gb/s
        gbps = getattr(links, "inter_node_gbps_per_node", None)
        nics, nic_gbps = _nics(ev)
    host = getattr(ev, "host_ram", None)
    return QuotedPlan(
        gpu_id=ev.gpu_id, gpu_name=ev.gpu_name, gpu_memory_gib=ev.gpu_memory_gib, num_gpus=ev.num_gpus,
        gpus_per_node=ev.gpus_per_node, nodes=ev.nodes, card_hours=float(ev.gpu_hours),
        calendar_days=float(ev.calendar_days),
        calendar_days_band=tuple(ev.calendar_days_band) if ev.calendar_days_band else None,
        setup_hours=float(ev.setup_hours), hours_per_week=float(s.constraints.hours_per_week),
        currency=ev.currency, storage_tb=(data_b + 3 * ckpt + weights) / 1e12, egress_tb=(ckpt + weights) / 1e12,
        inter_node=fabric, inter_node_gbps=gbps, checkpoint_tb=ckpt / 1e12, nvlink_domain=in_domain and ev.nodes > 1,
        nics_per_node=nics, nic_gbps=nic_gbps, intra_node=getattr(links, "intra_node", None),
        tp=int(getattr(s.parallel, "tp", 1) or 1),
        host_ram_gib=None if host is None else float(host.total))


def _nics(ev: Any) -> tuple[int | None, float | None]:
    """(NICs per node, Gb/s per NIC) of the fabric the time model runs the plan on (evaluate.fabric_in_force);
    (None, None) where the catalogue gives no count or speed."""
    from .errors import PlannerError
    from .evaluate import fabric_in_force

    resolved = getattr(ev, "_extra", {}).get("resolved") if hasattr(ev, "_extra") else None
    if resolved is None:
        return None, None
    try:
        net, nics = fabric_in_force(ev.scenario, resolved.gpu)
    except PlannerError:
        return None, None
    speed = getattr(net, "gbps_per_nic", None)
    return (int(round(nics)) if nics else None), (float(speed) if speed else None)


def _in_nvlink_domain(ev: Any) -> bool:
    """Whether the plan's nodes all sit in one NVLink domain (evaluate.within_nvlink_domain, the rule its links and
    messages read): the quotes ask for no network between them (issue 35 round 15, consist15)."""
    from .evaluate import within_nvlink_domain

    gpu = getattr(getattr(ev, "_extra", {}).get("resolved"), "gpu", None) if hasattr(ev, "_extra") else None
    return gpu is not None and within_nvlink_domain(ev.scenario, gpu)


# ------------------------------------------------------------------------------------------ comparison

def dec(x: float | Decimal) -> Decimal:
    """A plan figure (float) as a Decimal, exactly as printed by ``repr`` (no binary noise carried on)."""
    return x if isinstance(x, Decimal) else Decimal(repr(float(x)))


def cents(x: Decimal) -> Decimal:
    return x.quantize(CENT, rounding=ROUND_HALF_UP)


def _ceil(x: Decimal) -> int:
    return int(x.to_integral_value(rounding=ROUND_CEILING))


@dataclass(slots=True, frozen=True)
class OfferCost:
    offer: Offer
    compute: Decimal          # in the plan's currency, to the cent
    quantity: Decimal         # card-hours (hourly), else periods billed
    servers: int | None       # whole servers rented (server units), else None (cards)
    instances: int            # new instances the rental mode implies (each is set up again)
    hourly_rate: Decimal | None  # the card-hour rate setup and migration are billed at (None: inside the period)
    interruptions: Decimal = Decimal(0)  # spot: the far end's cost of reclaims (work lost + restarts), else 0
    reclaims: float = 0.0                 # spot: reclaims counted at the far end
    #: a combination of the vendor's offers (:func:`combined_cost`): (offer, periods billed, or card-hours for a
    #: card-hour offer), longest period first; ``offer``/``quantity`` are its first part. Empty: one offer
    parts: tuple[tuple[Offer, Decimal], ...] = ()


@dataclass(slots=True)
class VendorResult:
    provider: str
    quote: VendorQuote
    offer: OfferCost | None = None
    offers: list[OfferCost] = field(default_factory=list)
    breakdown: dict[str, Decimal] = field(default_factory=dict)
    total: Decimal | None = None
    total_band: tuple[Decimal, Decimal] | None = None
    break_even_hours_per_week: float | None = None
    break_even_against: str | None = None   # the package unit compared with the card-hour price
    spot_band: tuple[Decimal, Decimal] | None = None  # the vendor's spot offer for the plan: no reclaim – far end
    network_check: list[dict] = field(default_factory=list)  # {"item", "status": ok|warn|fail|unknown, "message"}
    unanswered: list[str] = field(default_factory=list)
    not_stated: list[str] = field(default_factory=list)  # breakdown lines the quote gives no price for
    risks: list[Msg] = field(default_factory=list)
    excluded: Msg | None = None
    rank: int | None = None
    reasons: list[Msg] = field(default_factory=list)
    #: the total ÷ the plan's card-hours of compute: one unit for every kind of price (card-hour, card-month, whole
    #: server per month, year), so the ranking compares effective compute, the conversion said (planning guide §4)
    per_card_hour: Decimal | None = None

    def to_json(self) -> dict:
        o = self.offer
        return {
            "provider": self.provider, "date": self.quote.date.isoformat() if self.quote.date else None,
            "rank": self.rank, "excluded": self.excluded.render() if self.excluded else None,
            "total": _num(self.total), "total_band": [_num(v) for v in self.total_band] if self.total_band else None,
            "per_card_hour_worked": _num(self.per_card_hour),
            "breakdown": {k: _num(v) for k, v in self.breakdown.items()},
            "billing": None if o is None else {
                "unit": o.offer.unit, "price": _num(o.offer.price), "currency": self.quote.currency,
                **_billed(o), "instances": o.instances,
                "break_even_hours_per_week": self.break_even_hours_per_week,
                "break_even_against": self.break_even_against},
            "offers": [{"unit": c.offer.unit, "price": _num(c.offer.price), "compute": _num(c.compute),
                        **_billed(c), **_spot_json(c)} for c in self.offers],
            "spot_band": None if self.spot_band is None else [_num(v) for v in self.spot_band],
            "network_check": [{**c, "message": c["message"].render()} for c in self.network_check],
            "unanswered": self.unanswered, "not_stated": self.not_stated,
            "risks": [m.render() for m in self.risks], "reasons": [m.render() for m in self.reasons],
        }


def _spot_json(c: OfferCost) -> dict:
    if c.offer.unit != "spot_card_hour":
        return {}
    return {"interruptions_far_end": _num(c.interruptions), "reclaims_far_end": round(c.reclaims, 1)}


def _billed(c: OfferCost) -> dict:
    if c.parts:
        return {"periods": int(c.quantity), "servers" if c.servers else "cards": c.servers or None,
                "combination": [{"unit": o.unit, "price": _num(o.price),
                                 **({"card_hours": float(k)} if o.unit in HOURLY else {"periods": int(k)})}
                                for o, k in c.parts]}
    if c.offer.unit in HOURLY:
        return {"card_hours": float(c.quantity)}
    return {"periods": int(c.quantity), "servers" if c.servers else "cards": c.servers or None}


def _num(v: Decimal | None) -> float | None:
    return None if v is None else float(v)


@dataclass(slots=True, frozen=True)
class Comparison:
    plan: QuotedPlan
    vendors: list[VendorResult]
    ranking: list[str]
    #: the cheapest package of these quotes against their cheapest card-hours (:func:`whole_vs_hourly`)
    whole_vs_hourly: "WholeVsHourly | None" = None

    def to_json(self) -> dict:
        p = self.plan
        w = self.whole_vs_hourly
        return {"plan": {"gpu": p.gpu_id, "gpu_name": p.gpu_name, "num_gpus": p.num_gpus, "nodes": p.nodes,
                         "card_hours": p.card_hours, "calendar_days": p.calendar_days,
                         "setup_hours_per_instance": p.setup_hours, "hours_per_week": p.hours_per_week,
                         "storage_tb": p.storage_tb, "egress_tb": p.egress_tb, "currency": p.currency},
                "vendors": [v.to_json() for v in self.vendors], "ranking": self.ranking,
                "whole_machine_vs_card_hours": None if w is None else w.to_json()}


#: the planning guide's rule of thumb (§4 整机 vs 卡时): "a job running more than ~40 hours a week for several weeks
#: favours the whole machine" — printed beside the break-even the quotes themselves give
GUIDE_HOURS_PER_WEEK = 40.0


@dataclass(slots=True, frozen=True)
class WholeVsHourly:
    """The planning guide's whole machine vs card-hours rule, read on these quotes: the package (whole server or
    card per day/week/month/year) that breaks even soonest against the cheapest steady card-hour price of any vendor
    for the plan's cards, in hours a week (``package price for the plan's cards ÷ (cards × card-hour price) ÷
    (period days ÷ 7)``, the same formula as a vendor's own break-even), and which side the plan's hours a week
    fall on. Before (issue 35 round 16, quotes16) a vendor that sells only whole servers said "no package and
    card-hour price of this vendor to compare", and the guide's ~40 h/week was nowhere in the comparison."""

    hourly_provider: str
    hourly_price: Decimal        # per card-hour, in the plan's currency
    package_provider: str
    package_unit: str
    package_price: Decimal       # per unit, in the plan's currency
    break_even_hours_per_week: float
    plan_hours_per_week: float
    cards: int
    job_days: float = 0.0        # the plan's calendar days (what a package is held for)
    billed_days: float = 0.0     # the days the package is paid for: whole periods, at least its minimum term

    @property
    def verdict(self) -> str:
        """``never`` (above 168 h/week); ``card_hours`` below the break-even; ``short`` at or above it when the job
        does not fill the whole periods the package is paid for (the guide's "for several weeks": a 9-day job at
        168 h/week still pays a whole month, ``hours × days < break-even × billed days``); else ``package``."""
        be, h = self.break_even_hours_per_week, self.plan_hours_per_week
        if be > 168:
            return "never"
        if h < be:
            return "card_hours"
        return "short" if h * self.job_days < be * self.billed_days else "package"

    def to_json(self) -> dict:
        return {"hourly_provider": self.hourly_provider, "hourly_price": _num(self.hourly_price),
                "package_provider": self.package_provider, "package_unit": self.package_unit,
                "package_price": _num(self.package_price), "cards": self.cards,
                "break_even_hours_per_week": self.break_even_hours_per_week,
                "plan_hours_per_week": self.plan_hours_per_week, "guide_hours_per_week": GUIDE_HOURS_PER_WEEK,
                "job_days": self.job_days, "package_billed_days": self.billed_days, "verdict": self.verdict}


def whole_vs_hourly(results: list[VendorResult], p: QuotedPlan) -> WholeVsHourly | None:
    """The :class:`WholeVsHourly` of these vendors' offers for the plan's GPU; None without both a steady card-hour
    price and a package among them."""
    hourly: list[tuple[Decimal, str]] = []
    packages: list[tuple[Decimal, str, Decimal, str, int]] = []  # (paid a week for the plan's cards, unit, price,
    # vendor, periods billed for the plan)
    cards = max(1, int(p.num_gpus))
    for r in results:
        rate = _rate(r.quote, p.currency)
        if rate is None or r.total is None:
            continue
        for c in r.offers:
            o = c.offer
            if o.unit == "card_hour" and o.price > 0:
                hourly.append((o.price * rate, r.provider))
            elif o.unit not in HOURLY:
                units = math.ceil(cards / o.gpus_per_server) if o.unit.startswith("server_") else cards
                packages.append((o.price * rate * units / (Decimal(PERIOD_DAYS[o.unit]) / 7), o.unit,
                                 o.price * rate, r.provider, int(c.quantity)))
    if not hourly or not packages:
        return None
    h, h_vendor = min(hourly, key=lambda x: x[0])
    weekly, unit, price, vendor, periods = min(packages, key=lambda x: x[0])
    be = float((weekly / (cards * h)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))
    return WholeVsHourly(hourly_provider=h_vendor, hourly_price=h, package_provider=vendor, package_unit=unit,
                         package_price=price, break_even_hours_per_week=be, plan_hours_per_week=p.hours_per_week,
                         cards=cards, job_days=float(p.calendar_days), billed_days=float(periods * PERIOD_DAYS[unit]))


def _rate(q: VendorQuote, plan_currency: str) -> Decimal | None:
    """Plan currency per unit of the quote's currency: 1 for the same currency, the stated rate otherwise."""
    if q.currency == plan_currency:
        return Decimal(1)
    return q.exchange_rate


def _offer_cost(o: Offer, p: QuotedPlan, rate: Decimal, month_price: Decimal | None,
                calendar_days: Decimal, card_hours: Decimal) -> OfferCost:
    """The compute cost of one offer for the plan (no setup or migration: those are their own lines)."""
    n = p.num_gpus
    price = o.price * rate
    if o.unit in HOURLY:
        min_hours = o.min_term_days * 24 * n
        hours = max(card_hours, min_hours)
        cost = hours * price
        months = max(1, _ceil(calendar_days / DAYS_PER_MONTH))
        if o.cap_at_month and month_price is not None:
            cost = min(cost, month_price * rate * n * months)
        weekly = Decimal(str(p.hours_per_week)) < 168
        instances = max(1, _ceil(calendar_days / 7)) if weekly else 1
        extra, reclaims = _spot_extra_hours(p, card_hours) if o.unit == "spot_card_hour" else (Decimal(0), 0.0)
        return OfferCost(o, cents(cost), hours, None, instances, price, cents(extra * price), reclaims)
    days = Decimal(PERIOD_DAYS[o.unit])
    periods = max(_ceil(calendar_days / days), term_periods(o.min_term_days, o.unit), 1)
    if o.unit.startswith("server_"):
        servers = math.ceil(n / o.gpus_per_server)
        return OfferCost(o, cents(price * servers * periods), Decimal(periods), servers, 1, None)
    return OfferCost(o, cents(price * n * periods), Decimal(periods), None, 1, None)


#: the periods a vendor's sheet can combine, longest first (cost.cheapest_periods' months, weeks, days)
COMBINED = ("month", "week", "day")


def combined_cost(mine: list[Offer], p: QuotedPlan, rate: Decimal, calendar_days: Decimal,
                  card_hours: Decimal) -> OfferCost | None:
    """A vendor's sheet billed as the plan bills its prices: the cheapest combination of its offers for the days
    the plan holds the machines — whole months, then weeks, then days, then card-hours for the rest
    (:func:`core.cost.cheapest_periods`, the one function :func:`core.cost.rental_costs` bills the month with), of
    one kind (server units, or cards) and the card-hour offer; None where fewer than two kinds of period apply or
    the combination is a single offer (then :func:`_offer_cost` bills it). Offers whose minimum term is longer than
    their period, spot and a card-hour price capped at the month stand alone. A card-hour rest bills the plan's
    work in those hours (``card_hours × rest / hours held``): all card-hours is the card-hour offer. Before (issue
    35 round 17, quotes17) a sheet was billed by its cheapest single offer: 10 weeks at 20,000 a server-month and
    6,000 a server-week were 60,000 in the quotes and 52,000 in the plan."""
    from .cost import cheapest_periods

    held = calendar_days * 24
    hourly = [o for o in mine if o.unit == "card_hour" and o.min_term_days == 0 and not o.cap_at_month]
    h = min(hourly, key=lambda o: o.price) if hourly and held > 0 else None
    best: OfferCost | None = None
    for kind in ("server", "card"):
        tiers = {}
        for t in COMBINED:
            fit = [o for o in mine if o.unit == f"{kind}_{t}" and o.min_term_days <= PERIOD_DAYS[o.unit]]
            if fit:
                tiers[t] = min(fit, key=lambda o: o.price)
        if len(tiers) + (h is not None) < 2:
            continue
        servers = math.ceil(p.num_gpus / max(o.gpus_per_server for o in tiers.values())) if kind == "server" else None
        if kind == "server" and len({o.gpus_per_server for o in tiers.values()}) > 1:
            continue  # servers of different sizes are not one machine renewed
        each = {t: o.price * rate * (servers or p.num_gpus) for t, o in tiers.items()}
        hour = None if h is None else h.price * rate * card_hours / held
        mix = cheapest_periods(float(held), **{t: float(v) for t, v in each.items()},
                               hour=None if hour is None else float(hour))
        counts = dict(zip(COMBINED, (int(mix.months[0]), int(mix.weeks[0]), int(mix.days[0]))))
        parts = [(tiers[t], Decimal(counts[t])) for t in COMBINED if counts[t] > 0]
        compute = sum((cents(each[t] * counts[t]) for t in COMBINED if counts[t] > 0), Decimal(0))
        if mix.hours[0] > 0 and h is not None:
            tail = card_hours * dec(float(mix.hours[0])) / held
            parts.append((h, tail))
            compute += cents(tail * h.price * rate)
        if len(parts) < 2 or (best is not None and best.compute <= compute):
            continue
        best = OfferCost(parts[0][0], compute, parts[0][1], servers, 1, None, parts=tuple(parts))
    return best


def term_periods(min_term_days: Decimal, unit: str) -> int:
    """Periods a minimum term commits to: ``ceil(term / period days)``, except that a term of whole years at a
    monthly price is twelve months a year. A 一年起租 / 年租 listing quoted per server-month (SMM's H100 ×8 "一年起租"
    at 87,000 per month, compute-market-report data/audit_2026-10-10.json @940879f) is twelve monthly payments, not
    ``ceil(365 / 30) = 13`` (the 30-day month is the convention for billing a job's days, not for a contract's
    months): before (issue 35 round 16, quotes16) a one-year term billed 13 months, 8.3% over."""
    days = Decimal(PERIOD_DAYS[unit])
    if days == 30 and min_term_days > 0 and min_term_days % 365 == 0:
        return int(min_term_days // 365) * 12
    return _ceil(min_term_days / days)


def _spot_extra_hours(p: QuotedPlan, card_hours: Decimal) -> tuple[Decimal, float]:
    """Card-hours a spot rental adds at its far end, and the reclaims counted: one reclaim per node per day of
    running (``Overheads.spot_preemptions_per_node_day``), each losing the work since the last checkpoint and a
    restart with a fresh setup (Young 1974, as :func:`core.cost.interruption_overhead` counts it for the plan),
    less the interruptions the plan would have anyway."""
    from . import cost

    ov = cost.Overheads()
    n, nodes = max(1, p.num_gpus), max(1, p.nodes)
    ckpt = p.checkpoint_tb * 1e12
    pre = ov.spot_preemptions_per_node_day / 24.0 * nodes
    base = float(cost.interruption_overhead(n, nodes, ckpt, ov.resume_hours, ov.checkpoint_write_gbs_per_node,
                                            ov.gpu_interruptions_per_gpu_hour)[0])
    spot = float(cost.interruption_overhead(n, nodes, ckpt, ov.resume_hours + p.setup_hours,
                                            ov.checkpoint_write_gbs_per_node, ov.gpu_interruptions_per_gpu_hour, pre)[0])
    hours = float(card_hours)
    return dec(max(0.0, spot - base) * hours), hours / n * pre


def _break_even(q: VendorQuote, gpu: str, cards: int = 1) -> tuple[float | None, str | None]:
    """Hours per week above which the vendor's cheapest package beats its own card-hour price for ``cards``
    cards (whole servers: every card of every server paid for; over 168 the package never wins)."""
    mine = [o for o in q.offers if o.gpu.lower() == gpu.lower()]
    cards = max(1, int(cards))
    hourly = [o.price for o in mine if o.unit == "card_hour" and o.price > 0]
    if not hourly:
        return None, None
    h = min(hourly)
    best: tuple[Decimal, str] | None = None
    for o in mine:
        if o.unit in HOURLY:
            continue
        paid = o.price * (math.ceil(cards / o.gpus_per_server) if o.unit.startswith("server_") else cards)
        weeks = Decimal(PERIOD_DAYS[o.unit]) / 7
        be = paid / (cards * h) / weeks
        if best is None or be < best[0]:
            best = (be, o.unit)
    if best is None:
        return None, None
    return float(best[0].quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)), best[1]


def _network(q: VendorQuote, p: QuotedPlan) -> list[dict]:
    if p.nodes <= 1:
        return [{"item": "inter_node", "status": "ok", "message": Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "One node: no network between nodes needed."), {})}]
    if p.nvlink_domain:
        return [{"item": "inter_node", "status": "ok", "message": Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "All {nodes} nodes in one NVLink domain (rack-scale NVLink): no network between nodes needed."),
            {"nodes": p.nodes})}]
    out = []
    if not q.network:
        out.append({"item": "fabric", "status": "unknown", "message": Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "Network between nodes not stated: ask."), {})})
    elif q.network != (p.inter_node or "ib") and not (q.network == "ib" and p.inter_node == "roce"):
        out.append({"item": "fabric", "status": "fail" if q.network == "ethernet" else "warn",
                    "message": Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Offers {offered} where the plan assumed {planned}."),
                                   {"offered": Msg(CTX, NETWORK_LABELS[q.network], {}),
                                    "planned": Msg(CTX, NETWORK_LABELS.get(p.inter_node or "ib", "InfiniBand"), {})})})
    else:
        out.append({"item": "fabric", "status": "ok", "message": Msg(CTX, NETWORK_LABELS[q.network], {})})
    if p.inter_node_gbps and q.network_gbps and q.nics_per_node:
        from ..formatting import format_number

        have = float(q.network_gbps) * q.nics_per_node
        ok = have >= p.inter_node_gbps
        out.append({"item": "bandwidth", "status": "ok" if ok else "fail", "message": Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "{have} Gb/s per node offered, the plan needs {need} Gb/s."),
            {"have": format_number(have), "need": format_number(p.inter_node_gbps)})})
    elif p.inter_node_gbps:
        out.append({"item": "bandwidth", "status": "unknown", "message": Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "NIC count and speed per node not stated: ask."), {})})
    return out


def _hidden_costs(q: VendorQuote, p: QuotedPlan, oc: OfferCost, rate: Decimal,
                  calendar_days: Decimal) -> dict[str, Decimal]:
    """Storage, egress, setup and migration for the chosen offer (Decimal, to the cent)."""
    storage = egress = setup = migration = Decimal(0)
    if q.storage_per_tb_month is not None:
        months = calendar_days / DAYS_PER_MONTH if q.storage_billing == "day" else Decimal(max(1, _ceil(calendar_days / DAYS_PER_MONTH)))
        storage = cents(dec(p.storage_tb) * q.storage_per_tb_month * rate * months)
    if q.egress_per_tb is not None:
        egress = cents(dec(p.egress_tb) * q.egress_per_tb * rate)
    if oc.hourly_rate is not None:
        per_instance = q.setup_hours if q.setup_hours is not None else dec(p.setup_hours)
        if q.setup_billed != "no":
            setup = cents(per_instance * oc.instances * p.num_gpus * oc.hourly_rate)
        if q.migration_hours is not None:
            migration = cents(q.migration_hours * p.num_gpus * oc.hourly_rate)
    return {"storage": storage, "egress": egress, "setup": setup, "migration": migration}


def _risks(q: VendorQuote, p: QuotedPlan, r: VendorResult) -> list[Msg]:
    from ..formatting import format_sig

    risks = []
    o = r.offer.offer if r.offer else None
    if o is not None and o.unit == "spot_card_hour":
        risks.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Spot capacity: the job can be interrupted at any time; "
                                                     "checkpoint often and count restarts (counted in the band)."), {}))
    if o is not None and o.min_term_days > dec(p.calendar_days):
        risks.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Minimum term {term} days is longer than the job ({days} days)."),
                         {"term": format_sig(float(o.min_term_days)), "days": format_sig(p.calendar_days)}))
    if r.offer is not None and r.offer.servers:
        idle = r.offer.servers * o.gpus_per_server - p.num_gpus
        if idle > 0:
            risks.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Whole servers of {per} cards: {idle} cards paid for and not used "
                                                         "by the plan."), {"per": o.gpus_per_server, "idle": idle}))
    if q.storage_per_tb_month is None:
        risks.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Storage price not stated: not counted."), {}))
    if q.egress_per_tb is None:
        risks.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Egress price not stated: not counted."), {}))
    if r.offer is not None and r.offer.hourly_rate is not None and q.setup_billed == "unknown":
        risks.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Whether setup hours are billed is not stated: counted as billed."), {}))
    for qid in QUESTIONS:
        if q.answer(qid).answer == "no":
            risks.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Answered no: {question}"), {"question": Msg(CTX, QUESTIONS[qid], {})}))
    if r.unanswered:
        risks.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "{n} of {m} questions still to ask."),
                         {"n": len(r.unanswered), "m": len(QUESTIONS)}))
    return risks


def _vendor_total(q: VendorQuote, p: QuotedPlan, rate: Decimal, calendar_days: Decimal,
                  card_hours: Decimal) -> tuple[OfferCost | None, list[OfferCost], dict[str, Decimal]]:
    mine = [o for o in q.offers if o.gpu.lower() == p.gpu_id.lower()]
    months = [o.price for o in mine if o.unit == "card_month"]
    month_price = min(months) if months else None
    costs = [_offer_cost(o, p, rate, month_price, calendar_days, card_hours) for o in mine]
    if not costs:
        return None, [], {}
    # spot only when nothing else is offered: a job of days on interruptible capacity is a risk, not a price
    steady = [c for c in costs if c.offer.unit != "spot_card_hour"] or costs
    mixed = combined_cost(mine, p, rate, calendar_days, card_hours)
    # a combination bills only where it costs less than every single offer (min keeps the first of equals)
    best = min(steady + ([mixed] if mixed is not None else []), key=lambda c: c.compute + sum(_hidden_costs(q, p, c, rate, calendar_days).values()))
    breakdown = {"compute": best.compute, **_hidden_costs(q, p, best, rate, calendar_days)}
    return best, costs, breakdown


def _offer_fabric(o: Offer, p: QuotedPlan) -> list[dict]:
    """The billed offer's own word on networked servers for a plan over several nodes (``Offer.multi_node``)."""
    if p.nodes <= 1 or o.multi_node is None or p.nvlink_domain:
        return []
    if o.multi_node:
        return [{"item": "offer_fabric", "status": "ok", "message": Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "The offer billed is for networked servers."), {})}]
    return [{"item": "offer_fabric", "status": "fail", "message": Msg(CTX, QT_TRANSLATE_NOOP(
        CTX, "The offer billed is for single machines: no network between the plan's {nodes} nodes."),
        {"nodes": p.nodes})}]


def compare_vendor(q: VendorQuote, p: QuotedPlan) -> VendorResult:
    r = VendorResult(provider=q.provider, quote=q)
    r.unanswered = [qid for qid in QUESTIONS if q.answer(qid).answer == "unknown"]
    r.network_check = _network(q, p)
    rate = _rate(q, p.currency)
    if rate is None:
        r.excluded = Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Prices in {cur} with no exchange rate stated: not converted."),
                         {"cur": q.currency})
        return r
    cal = dec(p.calendar_days)
    r.offer, r.offers, r.breakdown = _vendor_total(q, p, rate, cal, dec(p.card_hours))
    if r.offer is None:
        r.excluded = Msg(CTX, QT_TRANSLATE_NOOP(CTX, "No offer for {gpu}."), {"gpu": p.gpu_name})
        return r
    r.network_check += _offer_fabric(r.offer.offer, p)
    r.total = sum(r.breakdown.values(), Decimal(0))
    r.not_stated = [k for k, v in (("storage", q.storage_per_tb_month), ("egress", q.egress_per_tb)) if v is None]
    if p.calendar_days_band and p.calendar_days > 0:
        ends = []
        for days in p.calendar_days_band:
            f = dec(days) / cal
            best, _, parts = _vendor_total(q, p, rate, dec(days), dec(p.card_hours) * f)
            ends.append(sum(parts.values(), Decimal(0)))
        r.total_band = (min(ends), max(ends))
    if r.offer.offer.unit == "spot_card_hour":
        lo, hi = r.total_band or (r.total, r.total)
        r.total_band = (min(lo, r.total), max(hi, r.total) + r.offer.interruptions)
    spot = [c for c in r.offers if c.offer.unit == "spot_card_hour"]
    if spot:
        c = min(spot, key=lambda c: c.compute)
        r.spot_band = (c.compute, c.compute + c.interruptions)
    r.break_even_hours_per_week, r.break_even_against = _break_even(q, p.gpu_id, p.num_gpus)
    if p.card_hours > 0:
        r.per_card_hour = cents(r.total / dec(p.card_hours))
    r.risks = _risks(q, p, r)
    return r


def compare(quotes: list[VendorQuote], p: QuotedPlan) -> Comparison:
    """Every vendor's result and the ranking: cheapest total first; vendors without a usable offer last."""
    results = [compare_vendor(q, p) for q in quotes]
    priced = sorted((r for r in results if r.total is not None), key=lambda r: (r.total, len(r.unanswered)))
    for i, r in enumerate(priced, 1):
        r.rank = i
        r.reasons = _reasons(r, priced[0], p)
    for r in results:
        if r.total is None and r.excluded is not None:
            r.reasons = [r.excluded]
    ranking = [r.provider for r in priced] + [r.provider for r in results if r.total is None]
    order = {name: i for i, name in enumerate(ranking)}
    results.sort(key=lambda r: order[r.provider])
    return Comparison(plan=p, vendors=results, ranking=ranking, whole_vs_hourly=whole_vs_hourly(results, p))


def _reasons(r: VendorResult, best: VendorResult, p: QuotedPlan) -> list[Msg]:
    from ..formatting import format_money, format_percent

    out = []
    if r is best:
        out.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Lowest total with the hidden costs counted."), {}))
    else:
        diff = r.total - best.total
        pct = float(diff / best.total) if best.total else 0.0
        out.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "{diff} ({pct}) more than {best}."),
                       {"diff": format_money(float(diff), p.currency), "pct": format_percent(pct), "best": best.provider}))
    hidden = sum((v for k, v in r.breakdown.items() if k != "compute"), Decimal(0))
    if r.total and hidden > 0:
        out.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Costs the price leaves out: {amount} ({pct} of the total)."),
                       {"amount": format_money(float(hidden), p.currency), "pct": format_percent(float(hidden / r.total), 1)}))
    if r.spot_band is not None and r.offer is not None and r.offer.offer.unit != "spot_card_hour" \
            and r.spot_band[1] < r.breakdown.get("compute", r.spot_band[1]):
        out.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Its spot offer costs {lo} – {hi} for the compute, less than the "
                                                   "offer counted, if the job can take reclaims."),
                       {"lo": format_money(float(r.spot_band[0]), p.currency),
                        "hi": format_money(float(r.spot_band[1]), p.currency)}))
    bad = [c for c in r.network_check if c["status"] in ("fail", "warn")]
    if bad:
        out.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Network does not match the plan."), {}))
    return out


# ------------------------------------------------------------------------------------------ project phases

def phase_figures(phase: Any, main: QuotedPlan) -> QuotedPlan:
    """A GPU phase of the project (:class:`core.project.PhaseResult`) as the figures quotes are compared for:
    its GPU, count and nodes; the card-hours and the days held as the project prices them: a training-like phase
    (with an Evaluation) by its work (``Evaluation.gpu_hours`` over ``Evaluation.calendar_days``, what
    ``core.project._training_phase`` prices from ``ev.mode_costs``), a serving phase by its slot (count × weeks ×
    hours per week); setup from its Evaluation or the plan's; the project's data volume. Before (issue 35 round 16,
    quotes16) a training phase was billed for its slot: the Shenzhen example's fine-tuning, 1,820 card-hours of work in
    a 3-week slot, was quoted 2,016 card-hours (AutoDL ¥11,871 beside the project's ¥10,740 at the same 5.88), and a
    LoRA phase whose work overran its slot was quoted for the slot only."""
    ev = getattr(phase, "evaluation", None)
    hours, days = float(phase.gpu_hours), float(phase.weeks) * 7.0
    if ev is not None:
        hours, days = float(ev.gpu_hours), float(ev.calendar_days)
    return QuotedPlan(
        gpu_id=phase.device, gpu_name=phase.device_name, gpu_memory_gib=ev.gpu_memory_gib if ev else 0.0,
        num_gpus=int(phase.count), gpus_per_node=ev.gpus_per_node if ev else main.gpus_per_node, nodes=int(phase.nodes),
        card_hours=hours, calendar_days=days, calendar_days_band=None,
        setup_hours=float(ev.setup_hours) if ev else main.setup_hours, hours_per_week=float(phase.hours_per_week),
        currency=main.currency, storage_tb=main.storage_tb, egress_tb=main.egress_tb,
        inter_node=main.inter_node if int(phase.nodes) > 1 else None,
        inter_node_gbps=main.inter_node_gbps if int(phase.nodes) > 1 else None,
        nvlink_domain=bool(ev is not None and int(phase.nodes) > 1 and _in_nvlink_domain(ev)))


@dataclass(slots=True, frozen=True)
class ProjectQuotes:
    """Every GPU phase compared; one vendor for the whole project; the cheapest vendor per phase with the cost of
    moving the data between vendors (egress at the vendor left, at its stated price)."""

    phases: list[tuple[str, Comparison]]
    single_vendor: dict[str, Decimal | None]        # provider -> sum of its phase totals (None: a phase it cannot serve)
    mixed: list[tuple[str, str]]                    # (phase, cheapest provider)
    moves: list[tuple[str, str, Decimal]]           # (from provider, to provider, egress cost of the move)
    mixed_total: Decimal | None

    def to_json(self) -> dict:
        return {"phases": [{"name": n, **c.to_json()} for n, c in self.phases],
                "single_vendor": {k: _num(v) for k, v in self.single_vendor.items()},
                "mixed": [{"phase": p, "provider": v} for p, v in self.mixed],
                "moves": [{"from": a, "to": b, "egress": _num(c)} for a, b, c in self.moves],
                "mixed_total": _num(self.mixed_total)}


def compare_project(quotes: list[VendorQuote], phases: list[Any], main: QuotedPlan) -> ProjectQuotes:
    gpu = [p for p in phases if getattr(p, "resource", "") == "gpu" and int(getattr(p, "count", 0) or 0) > 0]
    comps = [(p.name, compare(quotes, phase_figures(p, main))) for p in gpu]
    single: dict[str, Decimal | None] = {}
    for q in quotes:
        totals = [next(v.total for v in c.vendors if v.quote is q) for _, c in comps]
        single[q.provider] = None if any(t is None for t in totals) else sum(totals, Decimal(0))
    mixed, moves = [], []
    total: Decimal | None = Decimal(0)
    prev: VendorResult | None = None
    for name, c in comps:
        best = c.vendors[0] if c.vendors and c.vendors[0].total is not None else None
        if best is None:
            total = None
            prev = None
            continue
        mixed.append((name, best.provider))
        if total is not None:
            total += best.total
        if prev is not None and prev.quote is not best.quote:
            rate = _rate(prev.quote, main.currency) or Decimal(0)
            price = prev.quote.egress_per_tb if prev.quote.egress_per_tb is not None else Decimal(0)
            cost = cents(dec(main.storage_tb) * price * rate)  # the project's data leaves the previous vendor
            moves.append((prev.provider, best.provider, cost))
            if total is not None:
                total += cost
        prev = best
    return ProjectQuotes(phases=comps, single_vendor=single, mixed=mixed, moves=moves, mixed_total=total)


def project_quotes(quotes: list[VendorQuote], project: Any, main: QuotedPlan) -> ProjectQuotes | None:
    """The quotes compared for every GPU phase of ``project`` (a :class:`core.project.ProjectResult`); None
    without quotes or with fewer than two GPU phases (then the plan's comparison says it all)."""
    if project is None or not quotes:
        return None
    phases = list(getattr(project, "phases", []) or [])
    if sum(1 for p in phases if getattr(p, "resource", "") == "gpu") < 2:
        return None
    return compare_project(list(quotes), phases, main)
