"""Rental cost, rental-mode advice and rent-versus-build: pure functions (numpy allowed, no Qt).

Everything here works element-wise on numpy arrays as well as on plain numbers, so the plan search
prices many candidate plans at once with exactly the formulas a single plan uses.

Prices
    :class:`PriceTable` starts from the defaults in ``resources/prices.json`` (picked per GPU by
    :func:`catalog_hw.default_price`; every record names its source and date and is a *default to be
    replaced by the user's quotes*) and takes per-GPU overrides (the plan file's
    ``constraints.prices``). A quote has four prices: per card-hour on demand, whole machine per week,
    whole machine per month and (optional) spot per card-hour; ``basis`` records how each default was quoted
    (e.g. the mainland H100 default is a whole 8-card node leased per month). Where a quote lacks the
    weekly/monthly price it is derived from the hourly one with **no commitment discount** (hourly × 168 h or
    × 720 h per card, the 30-day month the vendors bill (:data:`units.HOURS_PER_MONTH`); monthly
    contracts are usually discounted, so ask for a quote) and flagged as derived. The reverse is never done:
    a weekly or monthly lease does not let you rent by the hour, so a GPU quoted only per week or month has no
    card-hour price (its card-hour, spot and capped modes are unavailable until the user enters one).

Time on the clock (what rental bills)
    * Interruptions and checkpoints: Young 1974, "A first order approximation to the optimum checkpoint
      interval" (CACM 17(9)): interval ``τ = √(2δM)`` for checkpoint write time ``δ`` and mean time
      between interruptions ``M``; the expected overhead is ``δ/τ`` (writing checkpoints) +
      ``(τ/2 + R)/M`` (work lost since the last checkpoint plus restart time ``R`` per interruption).
    * Interruption rate: Dubey et al. 2024, "The Llama 3 Herd of Models" (arXiv:2407.21783) §3.3.4:
      419 unexpected interruptions in a 54-day snapshot on 16,384 H100 GPUs, i.e.
      419 / (54·24·16384) = 1.97e-5 per GPU-hour (a job on ``N`` GPUs: ``M = 1/(N·λ)`` hours).
    * Checkpoint size: mixed-precision Adam keeps 16-bit weights (2 B) and K = 12 B of fp32 master weights
      and moments per trainable parameter (Rajbhandari et al. 2020, ZeRO §3.1); gradients are not saved:
      14 bytes per trainable parameter.
    * Data migration at every fresh start: the token corpus as stored by Megatron-LM's indexed dataset
      (``best_fitting_dtype``: uint16 when the vocabulary has < 65,500 entries, else int32) plus the
      16-bit starting weights for fine-tuning, over the transfer bandwidth.
    * Work pattern: ``hours_per_week`` < 168 means the job runs in sessions (research phase: short
      start/stop sessions). Card-hour rentals release the machines between sessions, so every session
      pays environment setup and data migration again; a machine rented per week or month keeps its disk,
      so a session only pays the resume time — but the machine is paid for all 168 hours of the week.

Assumptions without a published source (:class:`Overheads`) are marked as such and are settings.

Rent versus build (:func:`rent_vs_build`): the plan's work (one job unless the user states a period and a
number of jobs) rented at the plan's own cost, against buying the plan's servers (straight-line depreciation
with no interest or residual, gpu-catalog.md §3.6 "TCO helper": a period shorter than the life pays the whole
machine) and running them: rack/colocation, electricity = node power × busy hours × PUE × tariff (same section;
Shenzhen flat tariff and PUE 1.3 from ``economics.json``), operations staff and spares. Five parts, a verdict
and the break-even utilisation over the depreciation life.
"""

from __future__ import annotations

import math
from dataclasses import field, fields, replace
from typing import Any, Callable, Iterable, Mapping

import numpy as np

from dataclasses import dataclass
from .messages import Msg  # noqa: F401 (re-exported: cost.Msg)
from .errors import CatalogError, PlannerError, ScenarioError
from .i18n import QT_TRANSLATE_NOOP
from .messages import MsgStr
from .units import nodes as units_nodes
# imported here, not inside functions: the search runs on a worker thread, where an import statement goes through PySide6's import hook (a deadlock was seen there)
from .catalog_hw import combine_multi_node, default_price, economics_document, exchange_rate_cny_per_usd, get_gpu

CTX = "Cost"

# one billed month everywhere: 30 days = 720 h, as the vendors bill a monthly rent (units.HOURS_PER_MONTH cites them)
from .units import HOURS_PER_MONTH, HOURS_PER_WEEK  # noqa: E402 (re-exported: cost.HOURS_PER_MONTH)
# Llama 3 (arXiv:2407.21783) §3.3.4: 419 unexpected interruptions, 54 days, 16,384 H100 GPUs
GPU_INTERRUPTIONS_PER_GPU_HOUR = 419.0 / (54.0 * 24.0 * 16384.0)
# ZeRO (arXiv:1910.02054) §3.1: 2 B 16-bit weights + K = 12 B fp32 master/momentum/variance per parameter
CHECKPOINT_BYTES_PER_PARAM = 14.0
# LoRA checkpoints: fp32 adapter weights (4 B) + AdamW moments (8 B) (PEFT keeps adapters in fp32)
LORA_CHECKPOINT_BYTES_PER_PARAM = 12.0
# Megatron-LM indexed dataset: uint16 token ids when vocab_size < 65500, else int32
TOKEN_BYTES_SMALL_VOCAB, TOKEN_BYTES_LARGE_VOCAB, SMALL_VOCAB_LIMIT = 2.0, 4.0, 65500
# GPUs' share of an 8-GPU node's maximum power: DGX H100 8 × 700 W of 10.2 kW (NVIDIA DGX H100 docs via
# gpu-catalog.md §2.2) — used to scale GPU TDP to node power where the catalog has no node figure
GPU_SHARE_OF_NODE_POWER = 8 * 700.0 / 10200.0

MODES = ("card_hour", "spot", "week", "month", "hybrid_week", "hybrid_month")
#: The rental modes a plan is billed in by default, and compared across candidates on: the ones that run without
#: interruptions (card-hours on demand, whole machines per week or month, card-hours with a weekly or monthly cap).
#: Spot (interruptible) capacity is a price of another kind: the planning guide §3 ("interrupted training costs
#: more than compute: confirm image snapshots and persistent data disks for checkpoint/resume") and the developers'
#: brief ("prices of one kind") — a plan is never ranked on a spot price against others' on-demand prices. Its spot
#: cost is shown beside it, with the risk (:func:`spot_alternative`); it bills a plan only where the user sets it
#: (``constraints.rental_mode``) or where spot is the only price of the card (then rules.price_kind fails).
STEADY_MODES = ("card_hour", "week", "month", "hybrid_week", "hybrid_month")
#: The prices (:class:`GpuPrice` fields) each rental mode bills from, the one list :meth:`GpuPrice.has_mode` and
#: :func:`rental_costs` read: a hybrid needs the card-hour price and its period's whole-machine price (its cap).
MODE_PRICES = {"card_hour": ("card_hour",), "spot": ("spot_card_hour",), "week": ("machine_week",),
               "month": ("machine_month",), "hybrid_week": ("card_hour", "machine_week"),
               "hybrid_month": ("card_hour", "machine_month")}
_UNSTEADY = [i for i, m in enumerate(MODES) if m not in STEADY_MODES]  # spot: billed by default only alone
MODE_LABELS = {
    "card_hour": QT_TRANSLATE_NOOP("Cost", "card-hours on demand"),
    "spot": QT_TRANSLATE_NOOP("Cost", "spot card-hours"),
    "week": QT_TRANSLATE_NOOP("Cost", "whole machines per week"),
    "month": QT_TRANSLATE_NOOP("Cost", "whole machines per month"),
    "hybrid_week": QT_TRANSLATE_NOOP("Cost", "card-hours with a weekly cap"),
    "hybrid_month": QT_TRANSLATE_NOOP("Cost", "card-hours with a monthly cap"),
}


#: What kind of figure a price is (catalog_hw.PRICE_KINDS, plus a converted foreign quote and the user's own)
KIND_LABELS = {
    "list": QT_TRANSLATE_NOOP("Cost", "list price"),
    "marketplace": QT_TRANSLATE_NOOP("Cost", "marketplace lowest seller"),
    "package": QT_TRANSLATE_NOOP("Cost", "provider's package"),
    "wholesale": QT_TRANSLATE_NOOP("Cost", "wholesale whole-server rent"),
    "assumption": QT_TRANSLATE_NOOP("Cost", "stated assumption (not a quote)"),
    "converted": QT_TRANSLATE_NOOP("Cost", "converted foreign quote"),
    "your_quote": QT_TRANSLATE_NOOP("Cost", "your quote"),
}
#: How a price was quoted (``GpuPrice.basis`` values: ``mode:unit`` from prices.json, or the user's quote).
BASIS_LABELS = {
    "on_demand:card_hour": QT_TRANSLATE_NOOP("Cost", "per card-hour, on demand"),
    "on_demand:node_hour": QT_TRANSLATE_NOOP("Cost", "per node-hour, on demand"),
    "spot:card_hour": QT_TRANSLATE_NOOP("Cost", "per card-hour, spot"),
    "spot:node_hour": QT_TRANSLATE_NOOP("Cost", "per node-hour, spot"),
    "weekly:card_hour": QT_TRANSLATE_NOOP("Cost", "per card-hour with a weekly commitment"),
    "weekly:node_hour": QT_TRANSLATE_NOOP("Cost", "per node-hour with a weekly commitment"),
    "weekly:card_week": QT_TRANSLATE_NOOP("Cost", "per card-week"),
    "weekly:node_week": QT_TRANSLATE_NOOP("Cost", "per node-week"),
    "monthly:card_hour": QT_TRANSLATE_NOOP("Cost", "per card-hour with a monthly commitment"),
    "monthly:node_hour": QT_TRANSLATE_NOOP("Cost", "per node-hour with a monthly commitment"),
    "monthly:card_month": QT_TRANSLATE_NOOP("Cost", "per card-month"),
    "monthly:node_month": QT_TRANSLATE_NOOP("Cost", "a whole node leased per month"),
    "your_quote": QT_TRANSLATE_NOOP("Cost", "your quote"),
}


def _f(x) -> np.ndarray:
    return np.asarray(x, dtype=float)


# ------------------------------------------------------------------------------------------------ prices


@dataclass(slots=True, frozen=True)
class GpuPrice:
    """One GPU's rental prices in ``currency``. ``machine_week``/``machine_month`` are for a whole machine
    of ``machine_gpus`` cards. ``derived`` names the fields computed rather than quoted; ``is_default`` is
    True for the shipped defaults (to be replaced by the user's quotes)."""

    gpu: str
    currency: str
    card_hour: float | None
    machine_week: float | None
    machine_month: float | None
    spot_card_hour: float | None
    machine_gpus: int
    source: str
    source_date: str
    is_default: bool = True
    derived: tuple[str, ...] = ()
    provider: str | None = None
    region: str | None = None
    basis: Mapping[str, str] = field(default_factory=dict)  # field -> unit as quoted (node_month, card_hour …)
    #: field -> kind of the quote it came from (catalog_hw.PRICE_KINDS; ``converted`` for a quote of the other
    #: region converted into this currency; ``your_quote``)
    kinds: Mapping[str, str] = field(default_factory=dict)
    #: whether the quotes' servers are networked for multi-node training (catalog_hw.Price.multi_node; the
    #: user's quote's ``multi_node``): True a stated cluster fabric, False single machines, None not stated
    fabrics: Mapping[str, bool | None] = field(default_factory=dict)  # field -> multi_node of its quote
    multi_node_source: str | None = None
    #: under a user's quote, the default quote's source and date for the fields kept from it (:meth:`PriceTable.get`)
    kept_source: str | None = None
    kept_date: str | None = None

    def kept_fields(self, mode: str | None) -> tuple[str, ...]:
        """The prices billing rental ``mode`` (:data:`MODE_PRICES`) that a user's quote left to the default quote:
        empty for a default price, and for a quote that gives them itself. Issue 35 round 14 (advice14): a team
        quoting its own monthly 4 × RTX 4090 server got a plan billed on the default card-hour price, said nowhere
        (the price was "your quote", so no default-price line)."""
        if self.is_default or self.kept_source is None:
            return ()
        return tuple(k for k in MODE_PRICES.get(str(mode), ())
                     if getattr(self, k) is not None and self.kinds.get(k) != "your_quote")

    @property
    def multi_node(self) -> bool | None:
        """Whether the quotes this price bills from offer networked servers: False when any quoted figure's source
        rents single machines, True only when every figure's source states a cluster fabric, else None."""
        vals = [self.fabrics.get(k) for k in ("card_hour", "machine_week", "machine_month", "spot_card_hour")
                if getattr(self, k) is not None]
        return combine_multi_node(*vals)

    def multi_node_for(self, pin: str | None) -> bool | None:
        """:attr:`multi_node` of the figures that bill rental mode ``pin`` (:data:`MODE_PRICES`) when the user pinned
        one (``constraints.rental_mode``: every plan is billed in it, so only its quotes rent the servers), else of
        every quoted figure. Issue 35 round 16 (advice16): a Shenzhen team's weekly quote for networked H800 servers
        (``multi_node`` true), billing every plan, failed "networked multi-node price" because the default card-hour
        and monthly figures kept beside it (AutoDL, omniyq: single machines) bill none of them."""
        if pin is None or pin not in MODE_PRICES:
            return self.multi_node
        vals = [self.fabrics.get(k) for k in MODE_PRICES[pin] if getattr(self, k) is not None]
        return combine_multi_node(*vals) if vals else self.multi_node

    @property
    def kind(self) -> str | None:
        """The kind of the figure the ranking reads first: the card-hour quote's, else the month's, week's or spot's."""
        for k in ("card_hour", "machine_month", "machine_week", "spot_card_hour"):
            if getattr(self, k) is not None and k in self.kinds:
                return self.kinds[k]
        return None

    @property
    def has_price(self) -> bool:
        return any(v is not None for v in (self.card_hour, self.machine_week, self.machine_month, self.spot_card_hour))

    def has_mode(self, mode: str) -> bool:
        """Whether this price can bill rental ``mode`` at all (:data:`MODE_PRICES`, which :func:`rental_costs`
        reads too: a hybrid needs the card-hour price and the period's whole-machine price)."""
        return all(getattr(self, k) is not None for k in MODE_PRICES[mode])

    def mode_card_hour(self, mode: str | None) -> float | None:
        """What one card-hour costs in rental ``mode`` (the week's or month's price spread over its hours)."""
        if mode in (None, "card_hour", "hybrid_week", "hybrid_month"):
            return self.card_hour
        if mode == "spot":
            return self.spot_card_hour
        total, hours = (self.machine_week, HOURS_PER_WEEK) if mode == "week" else (self.machine_month, HOURS_PER_MONTH)
        return None if total is None else total / (hours * self.machine_gpus)

    @property
    def card_week(self) -> float | None:
        return None if self.machine_week is None else self.machine_week / self.machine_gpus

    @property
    def card_month(self) -> float | None:
        return None if self.machine_month is None else self.machine_month / self.machine_gpus

    def to_json(self) -> dict:
        return {
            "gpu": self.gpu, "currency": self.currency, "card_hour": self.card_hour,
            "machine_week": self.machine_week, "machine_month": self.machine_month,
            "spot_card_hour": self.spot_card_hour, "machine_gpus": self.machine_gpus, "source": self.source,
            "source_date": self.source_date, "is_default": self.is_default, "derived": list(self.derived),
            "provider": self.provider, "region": self.region, "basis": dict(self.basis),
            "kind": self.kind, "kinds": dict(self.kinds), "multi_node": self.multi_node,
            "fabrics": dict(self.fabrics), "multi_node_source": self.multi_node_source,
        }


#: a per-card price column of the hardware table → the quote field it sets (a week or a month is quoted per
#: whole machine, an hour per card): the one mapping between what the user types and what the table stores
QUOTE_FIELD_OF_COLUMN = {"card_hour": "card_hour", "card_week": "machine_week", "card_month": "machine_month"}


def quote_from_card_price(column: str, per_card: float, machine_gpus: int) -> dict[str, float | int]:
    """A price typed per card in ``column`` (``card_hour``, ``card_week`` or ``card_month``) as the quote fields
    :meth:`PriceTable.set_quote` reads: an hour stays per card; a week or a month becomes the whole machine's
    price, ``per_card × machine_gpus`` (the same ``machine_gpus`` :attr:`GpuPrice.card_week` divides by, so the
    table shows back what was typed)."""
    field_name = QUOTE_FIELD_OF_COLUMN[column]
    g = max(int(machine_gpus), 1)
    return {field_name: float(per_card) * (1 if field_name == "card_hour" else g), "machine_gpus": g}


def complete_price(p: GpuPrice) -> GpuPrice:
    """The quote as it is: weekly and monthly prices come from their own quotes (a package or a whole-server
    rent), never from the card-hour price — a month at the hourly rate × 720 h could never beat card-hours, so
    the whole-machine modes would be compared against a figure nobody offers (issue 31). A mode without a quote
    is not compared. Never a card-hour price from a weekly or monthly lease (module docstring)."""
    return p


def price_from_catalog(gpu_id: Any, currency: str, exchange_rate: float | None = None,
                       region: str | None = None, kinds: tuple[str, ...] | None = None,
                       converted: bool | None = None, networked: bool = False, nodes: int = 1) -> GpuPrice | None:
    """The shipped default price for ``gpu_id`` (an id or a catalog_hw.GPU; catalog_hw.default_price's pick,
    from ``region``'s quotes when given), completed. User-entered GPUs have no default price."""

    gpu = get_gpu(gpu_id)
    gid = gpu.id
    if gpu.vendor == "custom":
        return None
    rec = default_price(gid, currency, exchange_rate, region, kinds=kinds, converted=converted, networked=networked,
                        nodes=nodes)
    if rec is None:
        return None
    g = int(rec.machine_gpus or gpu.gpus_per_node or 8)
    basis = {{"card_week": "machine_week", "card_month": "machine_month"}.get(k, k): v for k, v in rec.basis}
    src = rec.source + (f" (converted at {rec.exchange_rate:g} CNY/USD)" if rec.converted else "")
    base = GpuPrice(
        gpu=gid, currency=rec.currency, card_hour=rec.card_hour,
        machine_week=None if rec.card_week is None else rec.card_week * g,
        machine_month=None if rec.card_month is None else rec.card_month * g,
        spot_card_hour=rec.spot_card_hour, machine_gpus=g, source=src, source_date=rec.source_date,
        is_default=True, provider=rec.provider, region=rec.region, basis=basis,
        kinds={{"card_week": "machine_week", "card_month": "machine_month"}.get(k, k):
               ("converted" if rec.converted else v) for k, v in rec.kinds},
        fabrics={{"card_week": "machine_week", "card_month": "machine_month"}.get(k, k): v for k, v in rec.fabrics},
        multi_node_source=rec.multi_node_source,
    )
    return complete_price(base)


@dataclass(slots=True)
class PriceTable:
    """Rental prices per GPU in one currency: the shipped defaults, overridden per GPU by user quotes.

    ``overrides`` maps a GPU id to a dict with any of ``card_hour``, ``machine_week``, ``machine_month``,
    ``spot_card_hour``, ``machine_gpus`` and ``currency`` (the quote's currency; default: the table's).
    Fields an override leaves out fall back to the default quote; quotes in the other currency are
    converted at ``exchange_rate`` (CNY per USD; default: ``prices.json``'s rate).
    """

    currency: str = "CNY"
    exchange_rate: float | None = None
    overrides: dict[str, dict] = field(default_factory=dict)
    region: str | None = None  # default quotes only from this region (None: the currency's)
    kinds: tuple[str, ...] | None = None  # kinds of default quotes used (None: catalog_hw.DEFAULT_PRICE_KINDS)
    converted: bool | None = None  # the other region's quotes, converted (None: catalog_hw.default_price's rule)
    _cache: dict[str, GpuPrice | None] = field(default_factory=dict, init=False, repr=False, compare=False)
    _net_cache: dict[tuple[str, int], GpuPrice | None] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.currency = str(self.currency).upper()
        if self.currency not in ("CNY", "USD"):
            raise ScenarioError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "currency must be CNY or USD")), field="constraints.currency")
        if self.exchange_rate is not None and not (self.exchange_rate > 0 and math.isfinite(self.exchange_rate)):
            raise ScenarioError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "the exchange rate must be a positive number")))

    @property
    def rate(self) -> float:
        if self.exchange_rate is not None:
            return float(self.exchange_rate)

        r = exchange_rate_cny_per_usd()
        if r is None:
            raise CatalogError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "no CNY/USD exchange rate set; enter one to convert prices")))
        return float(r)

    def convert(self, amount: float | None, from_currency: str) -> float | None:
        """``amount`` in ``from_currency`` expressed in the table's currency (CNY = USD × rate)."""
        if amount is None:
            return None
        cur = str(from_currency).upper()
        if cur == self.currency:
            return float(amount)
        return float(amount) * self.rate if self.currency == "CNY" else float(amount) / self.rate

    def set_quote(self, gpu_id: Any, **fields) -> None:
        """Record a user quote for ``gpu_id`` (an id or a catalog_hw.GPU; replacing the fields given)."""

        gid = get_gpu(gpu_id).id
        cur = dict(self.overrides.get(gid, {}))
        cur.update({k: v for k, v in fields.items()})
        self.overrides[gid] = cur
        self._cache.pop(gid, None)
        for key in [k for k in self._net_cache if k[0] == gid]:
            del self._net_cache[key]

    def get(self, gpu_id: Any) -> GpuPrice | None:
        """The completed price for ``gpu_id`` (a catalog id, or a catalog_hw.GPU such as the scenario's
        user-entered GPU) in the table's currency, or None when nothing is known."""

        gpu = get_gpu(gpu_id)
        gid = gpu.id
        if gid in self._cache:
            return self._cache[gid]
        base = price_from_catalog(gpu, self.currency, self.exchange_rate, self.region, kinds=self.kinds,
                                  converted=self.converted)
        ov = self.overrides.get(gid)
        if ov:
            ocur = str(ov.get("currency") or self.currency).upper()
            money = {k: self.convert(ov.get(k), ocur) for k in ("card_hour", "machine_week", "machine_month", "spot_card_hour")}
            g = int(ov.get("machine_gpus") or (base.machine_gpus if base else int(gpu.gpus_per_node or 8)))
            quoted = {k: v for k, v in money.items() if v is not None}
            if base is not None and quoted:
                # a user quote replaces the default quote: keep only the default fields it does not give
                # and that were quoted (not derived) there
                keep = {k: getattr(base, k) for k in money if k not in quoted and k not in base.derived}
                merged = {**{k: None for k in money}, **keep, **quoted}
            else:
                merged = {**{k: (getattr(base, k) if base else None) for k in money}, **quoted}
            basis = {k: v for k, v in (base.basis if base else {}).items() if k in merged and k not in quoted}
            basis.update({k: "your_quote" for k in quoted})
            kinds = {k: v for k, v in (base.kinds if base else {}).items() if k in merged and k not in quoted}
            kinds.update({k: "your_quote" for k in quoted})
            fabrics = {k: v for k, v in (base.fabrics if base else {}).items() if k in merged and k not in quoted}
            fabrics.update({k: ov.get("multi_node") for k in quoted})
            why = []
            if base is not None and base.multi_node_source and set(fabrics) - set(quoted):
                why.append(base.multi_node_source)
            p = complete_price(GpuPrice(
                gpu=gid, currency=self.currency, machine_gpus=g, source=QT_TRANSLATE_NOOP(CTX, "your quote"),
                source_date=str(ov.get("date") or ""), is_default=False, provider=ov.get("provider"),
                region=base.region if base else None, basis=basis, kinds=kinds, fabrics=fabrics,
                multi_node_source="; ".join(why) or None,
                kept_source=base.source if base is not None and set(merged) - set(quoted) and any(
                    merged[k] is not None for k in set(merged) - set(quoted)) else None,
                kept_date=base.source_date if base is not None else None, **merged,
            ))
        else:
            p = base
        if p is not None and not p.has_price:
            p = None
        self._cache[gid] = p
        return p

    def for_nodes(self, gpu_id: Any, nodes: int) -> GpuPrice | None:
        """The price a plan of ``nodes`` servers of ``gpu_id`` is billed at: the one place this is decided.

        One node: :meth:`get`. Several nodes: the default pick among the shipped offers whose source states a
        cluster fabric (``prices.json`` ``multi_node`` true; catalog_hw.default_price ``networked``) when one
        exists for the card in the table's region and kinds, since a single-machine price buys no network between
        the nodes (rules.price_fabric, the planning guide §2), among the offers that rent that few servers
        (``min_nodes``: a whole-cluster lease prices no smaller plan). A user's quote for the card is the user's choice and
        prices every node count; without a networked offer the plan keeps :meth:`get`'s price (and the check
        price_fabric says what to ask)."""
        p = self.get(gpu_id)
        if int(nodes) <= 1 or p is None or not p.is_default or p.multi_node is True:
            return p
        gpu = get_gpu(gpu_id)
        key = (gpu.id, int(nodes))
        if key not in self._net_cache:
            net = price_from_catalog(gpu, self.currency, self.exchange_rate, self.region, kinds=self.kinds,
                                     converted=self.converted, networked=True, nodes=int(nodes))
            self._net_cache[key] = net if net is not None and net.has_price else None
        return self._net_cache[key] or p

    def card_hour_elsewhere(self, gpu_id: Any) -> GpuPrice | None:
        """The card's default card-hour price from the other region's quotes, converted into the table's currency
        (catalog_hw.default_price's pick there), for a card whose own price has no card-hour quote: what
        card-hours would cost instead, said beside a plan billed per week or month. None: no such quote."""
        from .catalog_hw import PRICE_REGIONS, region_for_currency

        home = self.region or region_for_currency(self.currency)
        other = next(r for r in PRICE_REGIONS if r != home)
        try:
            p = price_from_catalog(gpu_id, self.currency, self.exchange_rate, other, kinds=self.kinds, converted=False)
        except PlannerError:
            return None
        return p if p is not None and p.card_hour is not None else None

    def machine_gpus(self, gpu_id: Any) -> int:
        """GPUs in one machine a quote for ``gpu_id`` is for: its price's ``machine_gpus``, else the card's GPUs
        per node (8 where unknown), as :meth:`get` counts a new quote's. The hardware table shows week and
        month prices per card and stores them per machine with this count."""
        p = self.get(gpu_id)
        return p.machine_gpus if p is not None else int(get_gpu(gpu_id).gpus_per_node or 8)

    def to_json(self) -> dict:
        return {"currency": self.currency, "exchange_rate": self.exchange_rate, "overrides": self.overrides,
                "region": self.region, "kinds": None if self.kinds is None else list(self.kinds),
                "converted": self.converted}

    @classmethod
    def from_constraints(cls, constraints) -> "PriceTable":
        """Build from a scenario's ``constraints`` section (``currency``, optional ``exchange_rate`` and
        ``prices`` overrides)."""
        overrides = {}
        for gid, q in (getattr(constraints, "prices", None) or {}).items():
            overrides[gid] = q.model_dump(exclude_none=True) if hasattr(q, "model_dump") else dict(q)
        return cls(currency=constraints.currency, exchange_rate=getattr(constraints, "exchange_rate", None),
                   overrides=overrides, region=getattr(constraints, "region", None),
                   kinds=tuple(getattr(constraints, "price_kinds", None) or ()) or None,
                   converted=getattr(constraints, "converted_prices", None))


# -------------------------------------------------------------------------------------------- overheads


@dataclass(slots=True, frozen=True)
class Overheads:
    """Time that rental bills besides training itself. The fields marked *assumption* have no published
    source in the reference: they are settings; change them to your own experience."""

    env_setup_hours: float = 0.5  # assumption: image pull, pip install, smoke test at a fresh start
    transfer_gbps: float = 1.0  # assumption: data migration bandwidth into a fresh machine, Gb/s
    resume_hours: float = 0.25  # assumption: restart from the last checkpoint on the same machine
    checkpoint_write_gbs_per_node: float = 1.0  # assumption: checkpoint write bandwidth per node, GB/s
    session_hours: float = 10.0  # assumption: one working session when the job does not run around the clock
    research_session_hours: float = 4.0  # assumption: one experiment session in the research phase
    gpu_interruptions_per_gpu_hour: float = GPU_INTERRUPTIONS_PER_GPU_HOUR  # Llama 3 §3.3.4
    spot_preemptions_per_node_day: float = 1.0  # assumption: spot reclaim rate per node

    def session_length(self, phase: str, hours_per_week: float) -> float:
        """Hours of one session; ``inf`` for a job that runs around the clock (stable/burst at 168 h/week)."""
        if phase == "research":
            return min(self.research_session_hours, hours_per_week)
        if hours_per_week >= HOURS_PER_WEEK - 1e-9:
            return math.inf
        return min(self.session_hours, hours_per_week)


def token_bytes(vocab_size: int) -> float:
    """Bytes per stored token id (Megatron-LM indexed dataset: uint16 below 65,500 entries, else int32)."""
    return TOKEN_BYTES_SMALL_VOCAB if vocab_size < SMALL_VOCAB_LIMIT else TOKEN_BYTES_LARGE_VOCAB


def data_migration_hours(tokens: float, vocab_size: int, start_weights_params: float, transfer_gbps: float) -> float:
    """Hours to copy the token corpus and 16-bit starting weights into a fresh machine."""
    data = tokens * token_bytes(vocab_size) + 2.0 * start_weights_params
    return data * 8.0 / (transfer_gbps * 1e9) / 3600.0


def checkpoint_bytes(trainable_params: float, lora: bool = False) -> float:
    """Bytes of a resumable checkpoint (module docstring: 14 B/param full, 12 B/param LoRA adapters)."""
    return trainable_params * (LORA_CHECKPOINT_BYTES_PER_PARAM if lora else CHECKPOINT_BYTES_PER_PARAM)


def interruption_overhead(num_gpus, nodes, ckpt_bytes, resume_hours, write_gbs_per_node,
                          rate_per_gpu_hour=GPU_INTERRUPTIONS_PER_GPU_HOUR, extra_rate_per_hour=0.0):
    """Young 1974: fraction of extra time for checkpoints and lost work, with the optimum interval.

    ``M = 1/(N·λ + extra)`` hours between interruptions; checkpoint write ``δ = bytes/(nodes·bw)``;
    ``τ = √(2δM)``; overhead = ``δ/τ + (τ/2 + R)/M``. Returns ``(overhead_fraction, tau_h, mtbi_h)``.
    """
    n = _f(num_gpus)
    rate = n * rate_per_gpu_hour + _f(extra_rate_per_hour)
    mtbi = 1.0 / np.maximum(rate, 1e-30)
    delta = _f(ckpt_bytes) / (np.maximum(_f(nodes), 1.0) * write_gbs_per_node * 1e9) / 3600.0
    tau = np.sqrt(2.0 * delta * mtbi)
    frac = np.where(delta > 0, delta / np.maximum(tau, 1e-30), 0.0) + (tau / 2.0 + resume_hours) / mtbi
    return frac, tau, mtbi


@dataclass(slots=True, frozen=True)
class RentalArrays:
    """Cost per rental mode for many candidates (``costs[i]`` is mode ``MODES[i]``; ``inf`` = unavailable)."""

    costs: np.ndarray  # (len(MODES), n)
    calendar_hours: np.ndarray  # (len(MODES), n) wall-clock hours from start to finish
    best: np.ndarray  # index into MODES per candidate
    machines: np.ndarray
    card_billed_hours: np.ndarray  # per GPU, card-hour mode
    interruptions: np.ndarray  # expected interruptions, card-hour mode
    setup_hours: float
    #: expected spot reclaims counted in spot's cost: the preemption rate times spot's hours running (not its
    #: calendar, which also holds the hours off the clock); None where spot is not priced
    spot_reclaims: np.ndarray | None = None

    @property
    def best_cost(self) -> np.ndarray:
        return np.take_along_axis(self.costs, self.best[None, :], 0)[0]

    @property
    def best_calendar_hours(self) -> np.ndarray:
        return np.take_along_axis(self.calendar_hours, self.best[None, :], 0)[0]


@dataclass(slots=True, frozen=True)
class PeriodMix:
    """The cheapest combination of a rental's periods covering a job's calendar hours (:func:`cheapest_periods`):
    whole months, weeks and days, and hours on a per-hour price; ``cost`` their sum (arrays, one per job)."""

    months: np.ndarray
    weeks: np.ndarray
    days: np.ndarray
    hours: np.ndarray
    cost: np.ndarray


#: a day, a week and a month in hours: each divides the month and the week by whole days (30 = 1 month, 7 = 1 week)
PERIOD_HOURS = (HOURS_PER_MONTH, HOURS_PER_WEEK, 24.0)


def _times(count, price):
    """``count × price`` where a price that is not offered (inf) costs nothing at a count of 0."""
    with np.errstate(invalid="ignore"):
        return np.where(count > 0, count * price, 0.0)


def _days_then_hours(x, day, hour):
    """The cheapest covers of ``x`` ≥ 0 hours (rows × jobs) by whole days and hours (a per-hour price bills what is
    held), stacked as rows: all hours, whole days and the rest in hours, one more day (only those the sheet prices).
    Exact: ``d·day + hour·(x − 24d)`` is linear in ``d`` up to ``x/24`` and rises past it, so its minimum is at
    ``d = 0``, ``⌊x/24⌋`` or ``⌈x/24⌉``."""
    zero = np.zeros_like(x)
    q = np.floor(x / 24.0 + 1e-9)
    options = [(zero, x)] if math.isfinite(hour) or not math.isfinite(day) else []
    if math.isfinite(day):
        options += ([(q, np.maximum(x - 24.0 * q, 0.0))] if math.isfinite(hour) else []) + [(np.ceil(x / 24.0 - 1e-9), zero)]
    d = np.concatenate([o[0] for o in options])
    hh = np.concatenate([o[1] for o in options])
    return d, hh, _times(d, day) + _times(hh, hour)


def cheapest_periods(calendar_hours, month=None, week=None, day=None, hour=None, min_months=0) -> PeriodMix:
    """The cheapest way a vendor's sheet bills a machine held ``calendar_hours``: whole 30-day months, whole weeks,
    whole days and hours at ``hour`` per hour held, each where the sheet has that price (None: not offered); at
    least ``min_months`` months where there is a job (the plan's month mode; its weeks are the week mode).
    A subscription renews by the day, the week or the month (GPUhub, AutoDL's international site: "Renewal options
    include daily, weekly, and monthly plans", https://docs.gpuhub.com/billing-recharge/billing), so 10 weeks at
    20,000 a month and 6,000 a week are two months and two weeks (52,000), not three months or ten weeks (60,000).

    Exact, not greedy: 7 months are 30 weeks to the hour, so an optimum uses fewer than 30 weeks (months cheaper
    per hour) or fewer than 7 months (weeks cheaper); with one of them fixed, the cost over the other is concave
    (each period is whole days, so the day/hour rest shifts linearly) and its minimum is at 0, the floor or the
    ceiling of what is left. A tie goes to one kind of period, then to the fewest hours held. The plan
    (:func:`rental_costs`) and the vendor quotes (:mod:`core.quotes`) both bill with it. Vectorised."""
    cal = np.atleast_1d(np.asarray(calendar_hours, dtype=float)).ravel()
    pm, pw, pd, ph = (math.inf if v is None else float(v) for v in (month, week, day, hour))
    base = np.where(cal > 0, float(min_months), 0.0)
    h = np.maximum(cal - base * HOURS_PER_MONTH, 0.0)
    m, w = _month_week_rows(h, math.isfinite(pm), math.isfinite(pw), 7 * pm <= 30 * pw)
    x = np.maximum(h[None, :] - m * HOURS_PER_MONTH - w * HOURS_PER_WEEK, 0.0)
    d, hh, c = _days_then_hours(x, pd, ph)
    k = len(d) // len(m)
    m, w = np.concatenate([m] * k), np.concatenate([w] * k)
    return _pick(m, w, d, hh, _times(m, pm) + _times(w, pw) + c, base, pm)


def _month_week_rows(h: np.ndarray, months: bool, weeks: bool,
                     month_cheaper: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Candidate (months, weeks) rows for :func:`cheapest_periods` (rows × jobs), only the kinds the sheet offers:
    where 7 months cost no more than 30 weeks (``month_cheaper``) fewer than 30 weeks, months at 0, the floor or
    the ceiling of the rest; else fewer than 7 months, weeks at 0, the floor or the ceiling of the rest."""
    zero = np.zeros_like(h)[None, :]
    if not months and not weeks:
        return zero, zero
    if not weeks:
        return np.vstack([zero, np.floor(h / HOURS_PER_MONTH + 1e-9)[None, :], np.ceil(h / HOURS_PER_MONTH - 1e-9)[None, :]]), \
            np.zeros((3, h.size))
    if months and month_cheaper:  # fewer than 30 weeks: months at 0, the floor or the ceiling of the rest
        ws = np.arange(30.0)[:, None]
        r = np.maximum(h[None, :] - ws * HOURS_PER_WEEK, 0.0)
        m = np.concatenate([np.zeros_like(r), np.floor(r / HOURS_PER_MONTH + 1e-9), np.ceil(r / HOURS_PER_MONTH - 1e-9)])
        return m, np.concatenate([np.broadcast_to(ws, r.shape)] * 3)
    ms = np.arange(7.0)[:, None] if months else np.zeros((1, 1))  # fewer than 7 months: weeks at 0, floor, ceiling
    r = np.maximum(h[None, :] - ms * HOURS_PER_MONTH, 0.0)
    w = np.concatenate([np.zeros_like(r), np.floor(r / HOURS_PER_WEEK + 1e-9), np.ceil(r / HOURS_PER_WEEK - 1e-9)])
    return np.concatenate([np.broadcast_to(ms, r.shape)] * 3), w


def _pick(m, w, d, hh, c, base: np.ndarray, pm: float) -> PeriodMix:
    """The cheapest row of (months, weeks, days, hours, cost) per job (rows × jobs), ``base`` months added."""
    kinds = (m > 0).astype(int) + (w > 0) + (d > 0) + (hh > 0)
    held = m * HOURS_PER_MONTH + w * HOURS_PER_WEEK + d * 24.0 + hh
    low = np.min(c, axis=0)
    # among the cheapest (to 1e-9): one kind of period first, then the fewest hours held, then the first row
    key = np.where(c <= low * (1 + 1e-9) + 1e-9, kinds * 1e7 + held, np.inf)
    i = np.argmin(key, axis=0)[None, :]
    take = lambda a: np.take_along_axis(a, i, 0)[0]  # noqa: E731
    return PeriodMix(months=take(m) + base, weeks=take(w), days=take(d), hours=take(hh),
                     cost=take(c) + _times(base, pm))


def months_then_weeks(calendar_hours, month, week=None):
    """One whole machine held ``calendar_hours`` by the month (the plan's month mode): at least one 30-day month,
    the rest in whole months and weeks where the quote has a weekly price, the cheapest combination
    (:func:`cheapest_periods`, which the vendor quotes bill with too). Vectorised over ``calendar_hours``."""
    if week is None:  # months only: every month started
        cal = np.asarray(calendar_hours, dtype=float)
        return np.ceil(cal / HOURS_PER_MONTH - 1e-9) * month
    return cheapest_periods(calendar_hours, month=month, week=week, min_months=1).cost.reshape(np.shape(calendar_hours))


def _hybrid_cost(card_cost, periods, cap):
    """Hybrid rental: the card-hour cost ``card_cost`` spread over ``periods`` billing periods (weeks or months),
    each period billed at most ``cap`` (the whole machines' price for the period)."""
    full = np.floor(periods)
    per_period = card_cost / np.maximum(periods, 1e-12)
    return full * np.minimum(per_period, cap) + np.minimum((periods - full) * per_period, cap)


def rental_costs(price: GpuPrice, *, num_gpus, nodes, train_hours, ckpt_bytes, setup_hours: float,
                 hours_per_week: float, phase: str, overheads: Overheads = Overheads(),
                 modes: Iterable[str] = MODES, pin: str | None = None) -> RentalArrays:
    """Cost of each rental mode for candidates with ``train_hours`` of pure training time.

    ``setup_hours`` = environment setup + data migration at a fresh start. Work pattern (module
    docstring): sessions of :meth:`Overheads.session_length` hours, ``hours_per_week`` on the clock.

    * card-hours: every session starts fresh (setup); billed per GPU = work + sessions × setup.
    * spot: as card-hours at the spot price, with preemptions added to the interruption rate, each
      costing a fresh setup.
    * week / month: ``ceil(machines)`` whole machines for ``ceil(calendar weeks/months)`` (a month's rest in
      whole weeks where the quote has a weekly price and they cost less: :func:`months_then_weeks`); one setup,
      a resume per later session; the calendar stretches by ``168 / hours_per_week``.
    * hybrid: card-hours billed per week (month) but never more than the whole machines' weekly
      (monthly) price.

    The mode that bills each candidate (``best``): ``pin`` where the user set one (``constraints.rental_mode``;
    infinite where the price has no such mode), else the cheapest of :data:`STEADY_MODES`, else spot where it is
    the only price (:func:`billing_mode`). Every mode's cost is kept, for the alternatives a plan shows.
    """
    n, nodes, w_train = np.broadcast_arrays(np.atleast_1d(_f(num_gpus)), np.atleast_1d(np.maximum(_f(nodes), 1.0)),
                                            np.atleast_1d(_f(train_hours)))
    ov = overheads
    g = float(price.machine_gpus)
    machines = units_nodes(n, g)
    nmodes = len(MODES)
    shape = (nmodes,) + n.shape
    costs = np.full(shape, np.inf)
    cal = np.full(shape, np.inf)
    wanted = set(modes)
    t = _mode_times(price, n, nodes, w_train, ckpt_bytes, setup_hours, float(hours_per_week), phase, ov,
                    "spot" in wanted)
    stretch, card_time, card_cal, m_cal = t["stretch"], t["card_time"], t["card_cal"], t["m_cal"]
    cal[0] = card_cal  # the calendar of card-hour rental, priced or not (what the user waits without a quote)
    if "card_hour" in wanted and price.has_mode("card_hour"):
        costs[0] = n * card_time * price.card_hour
    if t["spot"] is not None:
        costs[1] = n * t["spot"] * price.spot_card_hour
        cal[1] = t["spot"] * stretch
    if "week" in wanted and price.has_mode("week"):
        costs[2] = machines * np.ceil(m_cal / HOURS_PER_WEEK - 1e-9) * price.machine_week
        cal[2] = m_cal
    if "month" in wanted and price.has_mode("month"):
        costs[3] = machines * months_then_weeks(m_cal, price.machine_month, price.machine_week)
        cal[3] = m_cal
    # hybrid: card-hours per period, capped at the whole machines' price for that period
    for i, key, period, cap_price in ((4, "hybrid_week", HOURS_PER_WEEK, price.machine_week),
                                      (5, "hybrid_month", HOURS_PER_MONTH, price.machine_month)):
        if key not in wanted or not price.has_mode(key):
            continue
        costs[i] = _hybrid_cost(n * price.card_hour * card_time, card_cal / period, machines * cap_price)
        cal[i] = card_cal
    best = billing_mode(costs, pin)
    return RentalArrays(costs=costs, calendar_hours=cal, best=best, machines=machines, card_billed_hours=card_time,
                        interruptions=card_time / t["mtbi"], setup_hours=float(setup_hours),
                        spot_reclaims=t["spot_reclaims"])


def billing_mode(costs: np.ndarray, pin: str | None = None) -> np.ndarray:
    """The index into :data:`MODES` of the mode that bills each candidate (``costs``: modes × candidates, ``inf``
    = unavailable): ``pin`` when set; else the first of :data:`STEADY_MODES` (in MODES order) within a relative
    1e-9 of their cheapest (a hybrid below its cap costs the same as card-hours, and rounding must not flip the
    choice between one candidate and many); spot only where no steady mode is priced."""
    costs = np.asarray(costs, dtype=float)
    if pin is not None:
        return np.full(costs.shape[1:], MODES.index(pin), dtype=np.int64)
    steady = costs.copy()
    steady[_UNSTEADY] = np.inf
    spot = MODES.index("spot")
    low = np.min(steady, axis=0)
    best = np.argmax(steady <= low * (1.0 + 1e-9), axis=0)
    return np.where(np.isfinite(low) | ~np.isfinite(costs[spot]), best, spot)


def _mode_times(price: GpuPrice, n, nodes, w_train, ckpt_bytes, setup_hours: float, hours_per_week: float,
                phase: str, ov: Overheads, spot: bool) -> dict:
    """Hours on the clock of each way of renting (:func:`rental_costs`' work pattern): ``card_time`` (card-hours:
    a fresh start per session), ``spot`` (at the spot price, with preemptions; None unless ``spot`` and priced)
    and the reclaims expected over it, ``spot_reclaims``,
    ``m_time`` (whole machines: one setup, a resume per later session), their calendars ``card_cal`` and
    ``m_cal`` (``stretch`` = calendar hours per hour on the clock), and the interruption overhead ``frac`` and
    mean time between interruptions ``mtbi`` of the card-hour modes."""
    sess = ov.session_length(phase, hours_per_week)
    stretch = HOURS_PER_WEEK / hours_per_week
    frac, _, mtbi = interruption_overhead(n, nodes, ckpt_bytes, ov.resume_hours, ov.checkpoint_write_gbs_per_node,
                                          ov.gpu_interruptions_per_gpu_hour)
    work = w_train * (1.0 + frac)

    def sessions(work_h, per_session_loss):
        if math.isinf(sess):
            return np.ones_like(work_h)
        productive = sess - per_session_loss
        return np.where(productive > 0, np.ceil(work_h / max(productive, 1e-9)), np.inf)

    # card-hours: every session is a fresh start
    card_time = work + sessions(work, setup_hours) * setup_hours
    t_s = reclaims = None
    if spot and price.has_mode("spot"):
        pre = ov.spot_preemptions_per_node_day / 24.0 * nodes
        frac_s, _, _ = interruption_overhead(n, nodes, ckpt_bytes, ov.resume_hours + setup_hours,
                                             ov.checkpoint_write_gbs_per_node, ov.gpu_interruptions_per_gpu_hour, pre)
        work_s = w_train * (1.0 + frac_s)
        t_s = work_s + sessions(work_s, setup_hours) * setup_hours
        reclaims = pre * t_s  # preemptions strike while running (as quotes._spot_extra_hours counts them)
    # whole machines: one setup, a resume per later session
    n_m = sessions(work, ov.resume_hours)
    m_time = work + setup_hours + np.maximum(n_m - 1.0, 0.0) * ov.resume_hours
    return {"stretch": stretch, "frac": frac, "mtbi": mtbi, "card_time": card_time, "card_cal": card_time * stretch,
            "spot": t_s, "spot_reclaims": reclaims, "m_time": m_time, "m_cal": m_time * stretch}


def spot_can_bill(price: GpuPrice, pin: str | None = None) -> bool:
    """Whether spot can be the mode that bills a plan at ``price`` (:func:`billing_mode`): spot is priced and
    either pinned (``constraints.rental_mode``) or, with no pin, the card's only price (no card-hour, weekly or
    monthly quote, so no steady mode is priced)."""
    if not price.has_mode("spot"):
        return False
    if pin is not None:
        return pin == "spot"
    return not any(price.has_mode(m) for m in STEADY_MODES)


def calendar_ceiling(price: GpuPrice, *, num_gpus, nodes, train_hours, ckpt_bytes, setup_hours: float,
                     hours_per_week: float, phase: str, overheads: Overheads = Overheads(), pin: str | None = None):
    """A value the cheapest mode's calendar hours (:func:`rental_costs`' ``best_calendar_hours``) never exceeds:
    the latest calendar among the modes that could be chosen — card-hours (chosen when nothing is priced; the
    hybrids run on its calendar), spot where it can bill the plan (:func:`spot_can_bill`, ``pin`` the user's
    rental mode), whole machines where priced per week or month — computed without the prices. Returns
    ``(ceiling, frac)``, ``frac`` the card-hour modes' interruption overhead."""
    n, nodes, w_train = np.broadcast_arrays(np.atleast_1d(_f(num_gpus)), np.atleast_1d(np.maximum(_f(nodes), 1.0)),
                                            np.atleast_1d(_f(train_hours)))
    t = _mode_times(price, n, nodes, w_train, ckpt_bytes, setup_hours, float(hours_per_week), phase, overheads,
                    spot_can_bill(price, pin))
    ceiling = t["card_cal"]
    if t["spot"] is not None:
        ceiling = np.maximum(ceiling, t["spot"] * t["stretch"])
    if price.machine_week is not None or price.machine_month is not None:
        ceiling = np.maximum(ceiling, t["m_cal"])
    return ceiling, t["frac"]


def calendar_floor(*, num_gpus, nodes, train_hours, ckpt_bytes, setup_hours: float, hours_per_week: float,
                   overheads: Overheads = Overheads(), rows=None):
    """A value no rental mode's calendar hours (:func:`rental_costs`' ``calendar_hours``) is below, for each
    candidate: ``(work + setup) × 168/hours_per_week`` with ``work`` the training time plus the card-hour mode's
    interruption overhead. Every mode pays at least one setup once there is work (card-hours and spot: one per
    session; whole machines: one, then resumes), runs at least ``work`` (spot's preemptions only add to the
    interruption rate and to each restart), and stretches the same way; with no work there is no setup in the
    card-hour modes, so the floor is ``work`` alone. The plan search uses it to skip pricing a candidate that
    surely finishes later than a priced one of the same GPU count (:func:`search._evaluate_fitting`).
    ``rows``: for each of ``train_hours``, the index of its ``num_gpus`` and ``nodes`` (many candidates share a
    GPU count: its interruption overhead is computed once)."""
    ov = overheads
    n, nodes = np.broadcast_arrays(np.atleast_1d(_f(num_gpus)), np.atleast_1d(np.maximum(_f(nodes), 1.0)))
    frac, _, _ = interruption_overhead(n, nodes, ckpt_bytes, ov.resume_hours, ov.checkpoint_write_gbs_per_node,
                                       ov.gpu_interruptions_per_gpu_hour)
    if rows is not None:
        frac = frac[rows]
    work = _f(train_hours) * (1.0 + frac)
    return np.where(work > 0, work + setup_hours, work) * (HOURS_PER_WEEK / float(hours_per_week))


def hours_within_calendar(*, num_gpus, nodes, calendar_hours, ckpt_bytes, setup_hours: float,
                          hours_per_week: float, overheads: Overheads = Overheads(), margin: float = 1e-6,
                          frac=None):
    """Training hours above which :func:`calendar_floor` is surely later than ``calendar_hours``: the floor
    ``(h·(1 + f) + setup)·168/hours_per_week`` solved for ``h`` at ``calendar_hours × (1 + margin)``. The margin
    (relative, 1e-6) is far above the rounding of either side, so a candidate with more hours has a floor above
    ``calendar_hours × (1 + 1e-9)`` whatever the rounding. May be negative (then it bounds nothing). ``frac``:
    the interruption overhead of these GPU counts, when already at hand (:func:`calendar_ceiling`)."""
    if frac is None:
        ov = overheads
        n, nodes = np.broadcast_arrays(np.atleast_1d(_f(num_gpus)), np.atleast_1d(np.maximum(_f(nodes), 1.0)))
        frac, _, _ = interruption_overhead(n, nodes, ckpt_bytes, ov.resume_hours, ov.checkpoint_write_gbs_per_node,
                                           ov.gpu_interruptions_per_gpu_hour)
    return (_f(calendar_hours) * (1.0 + margin) * (float(hours_per_week) / HOURS_PER_WEEK) - setup_hours) / (1.0 + frac)


def weekly_crossover_hours(price: GpuPrice) -> float | None:
    """Hours of use per week above which one whole machine per week costs less than its cards per hour:
    ``machine_week / (machine_gpus × card_hour)`` (setup and resume ignored)."""
    if price.card_hour is None or price.machine_week is None or price.card_hour <= 0:
        return None
    return price.machine_week / (price.machine_gpus * price.card_hour)


def monthly_crossover_hours(price: GpuPrice) -> float | None:
    """Hours of use per week above which one machine per month beats card-hours:
    ``machine_month / (machine_gpus × card_hour) × 168/720`` (a 30-day month)."""
    if price.card_hour is None or price.machine_month is None or price.card_hour <= 0:
        return None
    return price.machine_month / (price.machine_gpus * price.card_hour) * HOURS_PER_WEEK / HOURS_PER_MONTH


#: the planning guide's rule of thumb: more than ~40 hours a week for several weeks favours the whole machine
GUIDE_WHOLE_MACHINE_HOURS_PER_WEEK = 40.0


def break_even_hours_per_week(price: GpuPrice | None) -> dict | None:
    """Hours of use per week above which a whole machine per week / per month (from its own quote: package or
    wholesale rent) costs less than card-hours, next to the guide's ~40 h/week rule; None without a card-hour
    price or a machine quote."""
    if price is None:
        return None
    w, m = weekly_crossover_hours(price), monthly_crossover_hours(price)
    if w is None and m is None:
        return None
    return {"week": w, "month": m, "guide_rule": GUIDE_WHOLE_MACHINE_HOURS_PER_WEEK,
            "month_kind": price.kinds.get("machine_month"), "week_kind": price.kinds.get("machine_week")}


def rental_advice(price: GpuPrice, mode: str, *, costs: Mapping[str, float], hours_per_week: float, phase: str,
                  num_gpus: int, currency: str, gpu_name: str | None = None,
                  ask_hourly_quote: bool = True, run_days: float | None = None) -> list[Msg]:
    """Why this rental mode, from the numbers: the chosen mode's cost against the others and the hours per
    week at which whole machines would pay off. ``gpu_name``: the card's product name for the sentences
    (people read names, not catalog ids; default the id). ``ask_hourly_quote``: False where the plan already
    says what card-hours would cost and asks for an hourly quote (:func:`card_hours_instead`): the line for a
    price without a card-hour quote is then left out, not said twice. ``run_days``: the plan's calendar days, for
    why a whole machine that "pays off" at the work pattern still costs more here (:func:`_not_for_this_plan`)."""
    shown = gpu_name or price.gpu
    out: list[Msg] = []
    chosen = costs.get(mode, math.inf)
    # the next best mode that actually costs more (hybrids below their cap cost the same as card-hours)
    others = sorted(((c, m) for m, c in costs.items()
                     if m != mode and math.isfinite(c) and c > chosen * (1 + 1e-6)))
    if others:
        c2, m2 = others[0]
        out.append(Msg(CTX, QT_TRANSLATE_NOOP(
            "Cost", "{mode}: {cost:,.0f} {cur}; the next best, {other}, would cost {other_cost:,.0f} {cur}."),
            {"mode": MODE_LABELS[mode], "cost": chosen, "cur": currency, "other": MODE_LABELS[m2], "other_cost": c2}))
    out += whole_machine_lines(price, mode, costs, hours_per_week, num_gpus, run_days)
    if price.card_hour is None and ask_hourly_quote:
        quoted = dict(price.basis)
        what = quoted.get("machine_month") or quoted.get("machine_week") or quoted.get("spot_card_hour") or ""
        out.append(Msg(CTX, QT_TRANSLATE_NOOP(
            "Cost", "No card-hour quote for {gpu}: its price is {basis}, so only that is billed; enter an hourly "
                    "quote to compare card-hours."),
            {"gpu": shown, "basis": Msg("Cost", BASIS_LABELS.get(what, BASIS_LABELS["your_quote"]))}))
    if "machine_week" in price.derived or "machine_month" in price.derived:
        out.append(Msg(CTX, QT_TRANSLATE_NOOP(
            "Cost", "No weekly/monthly quote for {gpu}: derived from the hourly price without a discount; ask "
                    "the vendor, monthly contracts are usually cheaper."), {"gpu": shown}))
    out += _phase_line(phase, mode, num_gpus, hours_per_week)
    if price.is_default:
        out.append(Msg(CTX, QT_TRANSLATE_NOOP(
            "Cost", "Default price for {gpu} ({source}, {date}): replace it with your quote."),
            {"gpu": shown, "source": price.source, "date": price.source_date}))
    elif price.kept_fields(mode):
        # a user's quote without this mode's price: the plan is billed on the default quote's (PriceTable.get)
        out.append(Msg(CTX, QT_TRANSLATE_NOOP(
            "Cost", "Billed on {mode} at the default price for {gpu} ({source}, {date}): your quote does not give "
                    "that price. Enter it, or set the rental mode (constraints.rental_mode) to the one you rent."),
            {"gpu": shown, "mode": Msg("Cost", MODE_LABELS[mode]), "source": price.kept_source,
             "date": price.kept_date}))
    else:
        out += _kept_compared(price, shown)
    return out


def whole_machine_lines(price: GpuPrice, mode: str, costs: Mapping[str, float], hours_per_week: float,
                        num_gpus: int, run_days: float | None) -> list[Msg]:
    """The planning guide's whole machine vs card-hours rule (planning-guide.md §4: "a job running more than ~40
    hours a week for several weeks favours the whole machine") read on this price: the hours of use per week at
    which a whole machine per week / per month beats card-hours, next to the guide's ~40, and why a machine that
    pays off at the work pattern still costs more for this plan (:func:`_not_for_this_plan`). Said by every plan's
    rental advice (:func:`rental_advice`) and by a project's serving phase (``project._inference_phase``)."""
    out: list[Msg] = []
    xw = weekly_crossover_hours(price)
    if xw is not None:
        if xw < HOURS_PER_WEEK - 1e-6:
            out.append(Msg(CTX, QT_TRANSLATE_NOOP(
                "Cost", "A whole machine per week pays off above {x:.0f} hours of use per week; you plan {h:.0f}."),
                {"x": xw, "h": hours_per_week}))
        else:
            out.append(Msg(CTX, QT_TRANSLATE_NOOP(
                "Cost", "At these prices a whole machine per week never beats card-hours (it would need {x:.0f} "
                "hours per week)."), {"x": xw}))
    xm = monthly_crossover_hours(price)
    if xm is not None and xm >= HOURS_PER_WEEK - 1e-6:
        out.append(Msg(CTX, QT_TRANSLATE_NOOP(
            "Cost", "At these quotes a whole machine per month never beats card-hours (it would need {x:.0f} hours "
                    "of use per week, more than the week has; the planning guide's rule of thumb says about {rule:.0f})."),
            {"x": xm, "rule": GUIDE_WHOLE_MACHINE_HOURS_PER_WEEK}))
    elif xm is not None:
        out.append(Msg(CTX, QT_TRANSLATE_NOOP(
            "Cost", "A whole machine per month pays off above {x:.0f} hours of use per week at these quotes (the "
                    "planning guide's rule of thumb says about {rule:.0f}); your work pattern is {h:.0f} hours a week."),
            {"x": xm, "rule": GUIDE_WHOLE_MACHINE_HOURS_PER_WEEK, "h": hours_per_week}))
    out += _not_for_this_plan(price, mode, costs, hours_per_week, num_gpus, run_days, xw, xm)
    return out


#: the rental modes a plan's advice compares with its own (the crossover and "would cost … instead" lines)
_COMPARED_MODES = ("card_hour", "week", "month")


def _kept_compared(price: GpuPrice, shown: str) -> list[Msg]:
    """The line that the modes the advice compares a plan billed on the user's own quote with are priced from the
    default quote (:meth:`GpuPrice.kept_fields`), which the user's does not give (issue 35 round 15, advice15: a
    team renting 8 × A800 by the month read "card-hours on demand would cost 2,084 instead of 45,000" and "a whole
    machine per month never beats card-hours", both on AutoDL's card-hour rate, said nowhere: prices of two kinds
    compared as one)."""
    kept = [m for m in _COMPARED_MODES if price.kept_fields(m)]
    if not kept:
        return []
    return [Msg(CTX, QT_TRANSLATE_NOOP(
        "Cost", "The comparisons with {modes} use the default price for {gpu} ({source}, {date}): your quote does "
                "not give it."),
        {"gpu": shown, "modes": _modes_said(kept), "source": price.kept_source, "date": price.kept_date})]


def _modes_said(modes: list[str]) -> Msg:
    """The rental modes ``modes`` (one to three of :data:`_COMPARED_MODES`) named as one list, every one of them
    (review15: a third kept mode was left out of "{a} and {b}")."""
    labels = [Msg("Cost", MODE_LABELS[m]) for m in modes]
    if len(labels) == 1:
        return labels[0]
    if len(labels) == 2:
        return Msg("Cost", QT_TRANSLATE_NOOP("Cost", "{a} and {b}"), {"a": labels[0], "b": labels[1]})
    return Msg("Cost", QT_TRANSLATE_NOOP("Cost", "{a}, {b} and {c}"), {"a": labels[0], "b": labels[1], "c": labels[2]})


def _phase_line(phase: str, mode: str, num_gpus: int, hours_per_week: float = HOURS_PER_WEEK) -> list[Msg]:
    """The planning guide's phase advice (§3 "Time and elasticity"), said of this plan's billing. A burst
    (突发扩容) needs capacity that scales out in real time: card-hours on demand (or under a cap). A plan billed
    on a whole-machine lease is no such capacity, and "rent elastic on-demand capacity" printed under it
    contradicted the plan (issue 35 round 12, expert12: a 2-week burst of 32B full fine-tuning whose #1 is
    8 × H200 by the month, the card having no card-hour quote): the line then says the lease is not elastic
    and what to ask for. The rank is kept; the other lines name the elastic alternatives."""
    if phase == "burst" and mode in ("week", "month"):
        return [Msg(CTX, QT_TRANSLATE_NOOP(
            "Cost", "Burst: this plan is billed on {mode}, a lease, not elastic capacity; a burst "
                    "needs on-demand card-hours: ask the vendor for an hourly quote and real-time scale-out to "
                    "{n} cards, or rent an elastic plan named here."),
            {"n": num_gpus, "mode": Msg(CTX, MODE_LABELS[mode])})]
    if phase == "burst":
        return [Msg(CTX, QT_TRANSLATE_NOOP(
            "Cost", "Burst: rent elastic on-demand capacity and confirm the vendor can supply {n} cards at once."),
            {"n": num_gpus})]
    if phase == "research" and mode in ("card_hour", "spot"):
        return [Msg(CTX, QT_TRANSLATE_NOOP(
            "Cost", "Research phase: start/stop sessions favour card-hours; each fresh start pays setup and data "
                    "migration, counted here."), {})]
    if phase == "research" and mode in ("week", "month"):
        # the same contradiction in the research phase (研发验证期, card-hours): a leased #1 printed no phase line
        if hours_per_week >= HOURS_PER_WEEK - 1.0:
            return [Msg(CTX, QT_TRANSLATE_NOOP(
                "Cost", "Research phase: start/stop sessions favour card-hours, but this plan is billed on {mode}: "
                        "ask the vendor for an hourly quote."), {"mode": Msg(CTX, MODE_LABELS[mode])})]
        return [Msg(CTX, QT_TRANSLATE_NOOP(
            "Cost", "Research phase: start/stop sessions favour card-hours, but this plan is billed on {mode}, "
                    "which bills every hour of the term, the {idle:.0f} hours a week you do not work included: "
                    "ask the vendor for an hourly quote."),
            {"mode": Msg(CTX, MODE_LABELS[mode]), "idle": max(HOURS_PER_WEEK - hours_per_week, 0.0)})]
    return []


def _not_for_this_plan(price: GpuPrice, mode: str, costs: Mapping[str, float], hours_per_week: float, num_gpus: int,
                       run_days: float | None, xw: float | None, xm: float | None) -> list[Msg]:
    """Why a whole machine per week or month that pays off at the user's work pattern (its crossover below their
    hours per week) still costs more for this plan, which is billed on another mode: the crossover assumes every
    card of a machine is used for the whole period, and this plan uses fewer cards, or runs a shorter time. Read
    alone, "pays off above 142 hours of use per week; your work pattern is 168 hours a week" next to a plan billed
    by the card-hour looked like a rule the plan broke (issue 35 round 10, advice11: the 7B LoRA example on one
    RTX 5090 for 0.8 days, whose whole 8-card machine for a month costs ¥14,500 against ¥58)."""
    from .messages import elapsed_msg

    if run_days is None:
        return []
    out: list[Msg] = []
    g = int(price.machine_gpus or 0)
    for period, x in (("week", xw), ("month", xm)):
        own = costs.get(period, math.inf)
        if (x is None or x >= min(hours_per_week, HOURS_PER_WEEK) or mode in (period, "hybrid_" + period)
                or not math.isfinite(own) or own <= costs.get(mode, math.inf) * (1 + 1e-6)):
            continue
        few = 0 < num_gpus < g
        text = {("week", True): QT_TRANSLATE_NOOP(
                    "Cost", "Not for this plan: it uses {n} of a machine's {g} cards for {days}, and a weekly "
                            "rent bills whole machines for whole weeks."),
                ("week", False): QT_TRANSLATE_NOOP(
                    "Cost", "Not for this plan: it runs {days}, and a weekly rent bills whole machines for "
                            "whole weeks."),
                ("month", True): QT_TRANSLATE_NOOP(
                    "Cost", "Not for this plan: it uses {n} of a machine's {g} cards for {days}, and a monthly "
                            "rent bills whole machines for whole months."),
                ("month", False): QT_TRANSLATE_NOOP(
                    "Cost", "Not for this plan: it runs {days}, and a monthly rent bills whole machines for "
                            "whole months.")}[(period, few)]
        # the run's span as every other span reads (messages.elapsed_msg: "6.5 hours", not "0.3 days"; mend10c)
        out.append(Msg(CTX, text, {"n": int(num_gpus), "g": g, "days": elapsed_msg(float(run_days))}))
    return out


def price_kind_advice(mode: str, *, costs: Mapping[str, float], pin: str | None,
                      spot_reclaims: float | None, deadline_days: float | None, currency: str) -> list[Msg]:
    """The plan's other kinds of price, said beside the one that bills it (plans are compared on one kind:
    :data:`STEADY_MODES`, or the user's ``pin``). Pinned: the mode, as set, and the cheapest other mode where it
    costs less. Not pinned, with a cheaper spot price: what spot would cost and its risk — ``spot_reclaims``, the
    reclaims its cost counts (:attr:`RentalArrays.spot_reclaims`: ``Overheads.spot_preemptions_per_node_day`` per
    node over the hours spot runs), each losing the work since the last checkpoint and a restart, and a deadline a
    reclaim can miss."""
    from ..formatting import format_money, format_number  # (as core/quotes.py: every figure through the formatter)

    chosen = costs.get(mode, math.inf)
    money = (lambda v: format_money(float(v), currency))
    out: list[Msg] = []
    reclaims = spot_reclaims if spot_reclaims is not None and math.isfinite(spot_reclaims) else None
    n = None if reclaims is None else format_number(reclaims, 0 if reclaims >= 10 else 1)
    if pin is not None:
        cheaper = sorted((c, m) for m, c in costs.items() if m != mode and math.isfinite(c) and c < chosen * (1 - 1e-6))
        if cheaper and math.isfinite(chosen):
            out.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Billed on {mode}, as set in the scenario (constraints.rental_mode): "
                                                       "{other} would cost {other_cost} instead of {cost}."),
                           {"mode": Msg(CTX, MODE_LABELS[mode]), "cost": money(chosen),
                            "other": Msg(CTX, MODE_LABELS[cheaper[0][1]]), "other_cost": money(cheaper[0][0])}))
        if mode == "spot" and n is not None:
            out.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "Spot capacity can be reclaimed at any time: about {n} reclaims "
                                                       "over the run, each losing the work since the last checkpoint and "
                                                       "a restart (counted in this cost)."),
                           {"n": n}))
        return out
    spot = costs.get("spot", math.inf)
    if mode == "spot" or not math.isfinite(spot) or not spot < chosen or n is None:
        return []
    args = {"spot": money(spot), "cost": money(chosen), "mode": Msg(CTX, MODE_LABELS[mode]), "n": n}
    if deadline_days is not None:
        text = QT_TRANSLATE_NOOP(CTX, "Spot card-hours would cost {spot} instead of {cost}, but spot capacity can be "
                                      "reclaimed at any time: about {n} reclaims over the run, each losing the work "
                                      "since the last checkpoint and a restart, and capacity taken back may not "
                                      "return at once, which your {days}-day deadline must allow for. Plans are ranked on prices without "
                                      "interruptions ({mode} here); set constraints.rental_mode to spot to plan on it.")
        args["days"] = format_number(deadline_days, 0 if deadline_days >= 10 else 1)
    else:
        text = QT_TRANSLATE_NOOP(CTX, "Spot card-hours would cost {spot} instead of {cost}, but spot capacity can be "
                                      "reclaimed at any time: about {n} reclaims over the run, each losing the work "
                                      "since the last checkpoint and a restart. Plans are ranked on prices without "
                                      "interruptions ({mode} here); set constraints.rental_mode to spot to plan on it.")
    return [Msg(CTX, text, args)]


def card_hours_instead(mode: str, card_hour_cost: float | None, other: GpuPrice | None, currency: str) -> list[Msg]:
    """What card-hours would cost a plan billed per week or month because its price has no card-hour quote
    (``card_hour_cost``: the plan's card-hour cost at ``other``, the card's card-hour quote of the other region,
    converted; None: no such quote anywhere). A short job on a month's lease is the planning guide §4's case for
    card-hours ("fragmented jobs of a few hours favour card-hours")."""
    from ..formatting import format_money

    if mode not in ("week", "month") or other is None or card_hour_cost is None or not math.isfinite(card_hour_cost):
        return []
    text = (QT_TRANSLATE_NOOP(CTX, "Card-hours instead would cost about {cost}: this card has no card-hour quote "
                                   "here, and at {provider}'s card-hour price from the other region ({source}, "
                                   "{date}) this job would pay for its hours only, not for a whole week. Ask your "
                                   "vendor for an hourly quote.") if mode == "week" else
            QT_TRANSLATE_NOOP(CTX, "Card-hours instead would cost about {cost}: this card has no card-hour quote "
                                   "here, and at {provider}'s card-hour price from the other region ({source}, "
                                   "{date}) this job would pay for its hours only, not for a whole month. Ask your "
                                   "vendor for an hourly quote."))
    return [Msg(CTX, text, {"cost": format_money(float(card_hour_cost), currency), "provider": other.provider or "",
                            "source": other.source, "date": other.source_date})]


# --------------------------------------------------------------------------------------- rent vs build

#: the five parts of owning, in the order every view lists them (``BuildResult.breakdown`` keys)
BUILD_PARTS = ("hardware", "rack", "electricity", "staff", "spares")
#: the inputs (``BuildInputs`` fields, as :attr:`BuildResult.missing` names them) each part of building is computed
#: from: a part whose input is missing is unknown, not zero (issue 35 round 6, advice4: "build: hardware ¥0.00"
#: and "Owning never breaks even" printed for a plan with no purchase price)
BUILD_PART_INPUTS = {"hardware": ("machine_price",), "rack": ("colocation_per_machine_month",),
                     "electricity": ("power_kw_per_machine", "tariff_per_kwh"), "staff": ("ops_staff_per_month",),
                     "spares": ("spare_rate_per_year", "machine_price")}


#: the break-even sentence under the rent-or-build table (the Plans page and the PDF: :func:`break_even_line`; issue 35
#: round 12, tidy12: two wordings before)
BREAK_EVEN_LINE = QT_TRANSLATE_NOOP("Cost", "Owning breaks even when the servers are busy {u} of the time over {y} "
                                            "years (straight-line depreciation, no resale value).")
BREAK_EVEN_UNKNOWN = QT_TRANSLATE_NOOP("Cost", "Whether owning breaks even is unknown without a purchase price.")


def break_even_line(rb) -> Msg | None:
    """The break-even sentence of ``rb`` (a :class:`BuildResult`): the utilisation at which owning breaks even, or
    that it is unknown without a purchase price; None when owning never pays off (the verdict sentence above the
    table says so, once). Numbers through the one formatter (a whole percent, the years as entered)."""
    from ..formatting import format_percent, format_sig  # pure Python, no Qt: the core stays pure

    u = rb.break_even_utilisation
    if u is not None:
        return Msg("Cost", BREAK_EVEN_LINE, {"u": format_percent(u, 0),
                                             "y": format_sig(rb.inputs.depreciation_years or 0, 6)})
    return Msg("Cost", BREAK_EVEN_UNKNOWN, {}) if rb.verdict == "unknown" else None


def unknown_build_parts(rb) -> frozenset[str]:
    """The parts of building ``rb`` (a :class:`BuildResult`) cannot state: an input of theirs is missing."""
    return frozenset(k for k, inputs in BUILD_PART_INPUTS.items() if any(i in rb.missing for i in inputs))
BUILD_PART_LABELS = {
    "hardware": QT_TRANSLATE_NOOP("Cost", "hardware (purchase and depreciation)"),
    "rack": QT_TRANSLATE_NOOP("Cost", "rack / colocation"),
    "electricity": QT_TRANSLATE_NOOP("Cost", "electricity (with PUE)"),
    "staff": QT_TRANSLATE_NOOP("Cost", "operations staff"),
    "spares": QT_TRANSLATE_NOOP("Cost", "spares"),
}


@dataclass(slots=True, frozen=True)
class BuildInputs:
    """What owning the plan's machines costs. Money in ``currency``; ``None`` = unknown (counted as 0 and
    listed in the result's ``missing``). ``sources`` names where each default came from (the user's own
    figures are marked ``"your figure"``)."""

    machines: int
    gpus_per_machine: int
    machine_price: float | None          # purchase price per server (node)
    currency: str
    depreciation_years: float = 3.0
    power_kw_per_machine: float | None = None
    pue: float = 1.3
    tariff_per_kwh: float | None = None
    colocation_per_machine_month: float | None = None   # rack / colocation per server per month
    ops_staff_per_month: float | None = None             # operations staff for these machines, per month
    spare_rate_per_year: float | None = None             # fraction of the hardware price spent on spares a year
    sources: Mapping[str, str] = field(default_factory=dict)

    def to_json(self) -> dict:
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        return {k: (dict(v) if k == "sources" else v) for k, v in values.items()}


@dataclass(slots=True, frozen=True)
class BuildResult:
    """Renting the work against buying and running the machines for it, over ``horizon_months``."""

    horizon_months: float
    currency: str
    breakdown: dict[str, float]          # BUILD_PARTS → total over the horizon
    build_total: float
    rent_total: float
    busy_hours: float                    # hours the machines run the work over the horizon
    jobs: int
    single_job: bool                     # the horizon is this job alone (no period stated)
    break_even_utilisation: float | None  # busy share of the depreciation life at which owning costs what renting does
    payback_months: float | None         # only when building wins within the horizon
    verdict: str                         # "rent" | "build" | "unknown" (no purchase price)
    missing: list[str]
    inputs: BuildInputs
    sentence: Msg

    # the names earlier versions used (kept for scripts reading ``plan --json``)
    @property
    def own_total(self) -> float:
        return self.build_total

    @property
    def cheaper(self) -> str:
        return self.verdict

    def to_json(self) -> dict:
        return {
            "rent_total": self.rent_total, "build_total": self.build_total, "horizon_months": self.horizon_months,
            "breakdown": dict(self.breakdown), "verdict": self.verdict, "currency": self.currency,
            "break_even_utilisation": self.break_even_utilisation, "payback_months": self.payback_months,
            "busy_hours": self.busy_hours, "jobs": self.jobs, "single_job": self.single_job,
            "machines": self.inputs.machines, "gpus_per_machine": self.inputs.gpus_per_machine,
            "inputs": self.inputs.to_json(), "missing": list(self.missing), "answer": self.sentence.render(),
            # earlier names of the same figures
            "own": dict(self.breakdown), "own_total": self.build_total, "cheaper": self.verdict,
        }


def cheapest_card_hour(price: GpuPrice) -> float | None:
    """The lowest rate per card-hour of continuous use among the quote's modes: on demand, a whole machine per
    week (÷ 168 h ÷ cards) and per month (÷ 720 h ÷ cards); None without any."""
    rates = [r for r in (price.card_hour, price.mode_card_hour("week"), price.mode_card_hour("month")) if r is not None]
    return min(rates) if rates else None


def electricity_per_month(power_kw, utilisation, pue, tariff_per_kwh):
    """kW × utilisation × PUE × 720 h × tariff: gpu-catalog.md §3.6's arithmetic (10.2 kW × 1.3 × h × 0.7001), on the one
    30-day month the rents are billed in (:data:`units.HOURS_PER_MONTH`), so a month of power and a month of rent are the same month."""
    return _f(power_kw) * _f(utilisation) * _f(pue) * HOURS_PER_MONTH * _f(tariff_per_kwh)


def _servers_phrase(b: BuildInputs, plan_gpus: int | None) -> Msg:
    """The servers bought, as the rent-or-build sentence names them: "2 servers with 8 GPUs each", "one 8-GPU
    server", and, when the plan uses fewer GPUs than the whole boards bought (default_build_inputs buys an SXM
    board whole), how many it uses: "one 8-GPU server (the plan uses 4 of its GPUs)". Review ux11 found "1 server
    with 8 GPUs each" for a 4-GPU plan."""
    n, g = b.machines, b.gpus_per_machine
    used = None if plan_gpus is None or not 0 < int(plan_gpus) < n * g else int(plan_gpus)
    if n == 1:
        if used is None:
            return Msg(CTX, QT_TRANSLATE_NOOP("Cost", "one {g}-GPU server"), {"g": g})
        return Msg(CTX, QT_TRANSLATE_NOOP("Cost", "one {g}-GPU server (the plan uses {used} of its GPUs)"),
                   {"g": g, "used": used})
    if used is None:
        return Msg(CTX, QT_TRANSLATE_NOOP("Cost", "{n} server(s) with {g} GPU(s) each"), {"n": n, "g": g})
    return Msg(CTX, QT_TRANSLATE_NOOP("Cost", "{n} servers with {g} GPUs each (the plan uses {used} of their GPUs)"),
               {"n": n, "g": g, "used": used})


def _horizon_msg(months: float) -> Msg:
    """The rent-or-build horizon in a sentence: "12.0 months" from a month, below that in hours, days or weeks as
    every other span (messages.elapsed_msg: "Over 3.8 hours", not "Over 0.0053 months"; ux15)."""
    from gpuplanner.formatting import format_time_number  # pure Python, no Qt
    from .messages import elapsed_msg

    if months >= 1:
        return Msg("Units", QT_TRANSLATE_NOOP("Units", "{n} months"), {"n": format_time_number(months)})
    return elapsed_msg(months * HOURS_PER_MONTH / 24.0)


#: a single job shorter than this (months; four weeks) is no build decision: the planning guide's rent-vs-build
#: rule weighs building for "long steady work" only, and its whole-machine rule starts at "more than ~40 hours a
#: week for several weeks" (shared/notes/planning-guide.md, "Rent vs build", "Whole machine vs card-hours"; issue 35
#: round 16, ux25: a 7.9-hour job's line compared ¥667 of rent with ¥2,000,000 of servers)
SHORT_JOB_MONTHS = 28.0 * 24.0 / HOURS_PER_MONTH


def _short_job_sentence(b: BuildInputs, rent_total: float, days: float, u: float | None, price: float,
                        servers: dict) -> Msg:
    """The rent-or-build line of a single short job: what renting it costs, and what would make building a question
    (steady work over the servers' life: the break-even utilisation every view states under it, from the same
    :func:`rent_vs_build` figures), with the fields that state a period of steady work."""
    from gpuplanner.formatting import format_money, format_sig  # pure Python, no Qt
    from .messages import elapsed_msg

    args = {**servers, "days": elapsed_msg(days), "rent": format_money(rent_total, b.currency, decimals=0),
            "price": format_money(price, b.currency, decimals=0), "y": format_sig(b.depreciation_years or 0, 6)}
    head = Msg(CTX, QT_TRANSLATE_NOOP(
        "Cost", "Rent: this job alone ({days}) costs {rent} to rent; a job of {days} is no reason to buy "
                "{servers} ({price})."), args)
    if u is not None:
        tail = Msg(CTX, QT_TRANSLATE_NOOP(
            "Cost", "Owning is a question for steady work over the servers' {y} years: to weigh it, enter the "
                    "period and its jobs on the Hardware page (Period compared, Jobs in the period)."), args)
    else:
        tail = Msg(CTX, QT_TRANSLATE_NOOP(
            "Cost", "At these prices owning never pays off, even with the servers busy all the time."), {})
    return Msg(CTX, QT_TRANSLATE_NOOP("Cost", "{head} {tail}"), {"head": head, "tail": tail})


def _build_sentence(b: BuildInputs, verdict: str, H: float, rent_total: float, build_total: float, jobs: int,
                    single_job: bool, u: float | None, payback: float | None, plan_gpus: int | None = None,
                    work: Msg | None = None) -> Msg:
    """The rent-vs-build verdict as one sentence: what each costs, then build (with the payback) or rent (with
    the break-even utilisation), or the purchase price that is missing."""
    from gpuplanner.formatting import format_money  # pure Python, no Qt

    cur = b.currency
    days = H * HOURS_PER_MONTH / 24.0
    servers = {"servers": _servers_phrase(b, plan_gpus)}
    # the amounts as every other cost line writes them ("$369", "¥70,000"; were "369 USD"), and a job under a day
    # to two decimals as the plan's own days (0.24, was "0.2")
    money = {"rent": format_money(rent_total, cur, decimals=0), "build": format_money(build_total, cur, decimals=0)}
    from .messages import elapsed_msg  # a job of a few hours in hours, as the Project page (formatting.format_elapsed; ux15)
    if verdict == "unknown":
        sentence = Msg(CTX, QT_TRANSLATE_NOOP(
            "Cost", "No purchase price is known for {servers}: enter one on the Hardware page "
                    "to compare building with renting (renting costs {rent})."),
            {**servers, **money, "cur": cur})
    elif single_job and H < SHORT_JOB_MONTHS and verdict == "rent":
        sentence = _short_job_sentence(b, rent_total, days, u, (b.machine_price or 0.0) * b.machines, servers)
    else:
        if single_job:
            head = Msg(CTX, QT_TRANSLATE_NOOP(
                "Cost", "For this job alone ({days}) renting costs {rent}; buying and running "
                        "{servers} for it costs {build}."),
                {**servers, **money, "days": elapsed_msg(days), "cur": cur})
        elif work is not None:  # a project's phases in their own terms (issue 35 r18, serve18), not "3 jobs like this"
            head = Msg(CTX, QT_TRANSLATE_NOOP(
                "Cost", "Over {span} ({work}) renting costs {rent}; buying and running {servers} costs {build}."),
                {**servers, **money, "span": _horizon_msg(H), "work": work, "cur": cur})
        else:
            head = Msg(CTX, QT_TRANSLATE_NOOP(
                "Cost", "Over {span} ({jobs} job(s) like this) renting costs {rent}; buying and "
                        "running {servers} costs {build}."),
                {**servers, **money, "span": _horizon_msg(H), "jobs": jobs, "cur": cur})
        if verdict == "build":
            tail = (Msg(CTX, QT_TRANSLATE_NOOP("Cost", "Build: the purchase pays for itself after {be:.1f} months."),
                        {"be": payback}) if payback is not None else
                    Msg(CTX, QT_TRANSLATE_NOOP("Cost", "Build: owning is cheaper over this period."), {}))
        elif u is not None:
            tail = Msg(CTX, QT_TRANSLATE_NOOP(
                "Cost", "Rent: owning only pays off if the machines are busy at least {u:.0%} of the time over "
                        "{years:g} years."), {"u": u, "years": b.depreciation_years})
        else:
            tail = Msg(CTX, QT_TRANSLATE_NOOP(
                "Cost", "Rent: at these prices owning never pays off, even with the machines busy all the time."), {})
        sentence = Msg(CTX, QT_TRANSLATE_NOOP("Cost", "{head} {tail}"), {"head": head, "tail": tail})
    return sentence


def rent_vs_build(b: BuildInputs, *, rent_total: float, busy_hours: float, horizon_months: float, jobs: int = 1,
                  single_job: bool = True, rent_card_hour: float | None = None,
                  plan_gpus: int | None = None, work: Msg | None = None) -> BuildResult:
    """Buy and run ``b.machines`` servers for the work of the horizon, against renting that work for
    ``rent_total`` (the plan's own rental cost, times the jobs). ``work``: what the horizon holds in the caller's
    terms (a project's phases), said instead of "N jobs like this".

    Owning, over ``H = horizon_months`` (``L`` = depreciation life in months, straight line with no interest
    and **no residual or resale value**, gpu-catalog.md §3.6):

    * hardware = price × max(1, H / L): building means buying, so a horizon shorter than the life still pays
      the whole machine (a 0.5-day job buys the servers); a longer one buys them again;
    * rack = colocation per server-month × servers × H;
    * electricity = node kW × servers × PUE × tariff × ``busy_hours`` (gpu-catalog.md §3.6; idle draw ignored);
    * staff = operations staff per month × H;
    * spares = spare fraction per year × price × H / 12.

    Break-even utilisation (over the life, whatever the horizon): with fixed costs per month
    ``F = price/L + rack + staff + spares`` and electricity per fully busy month ``E``, and renting the same
    cards at ``R = rent_card_hour × GPUs × 720`` per fully busy month (``rent_card_hour``: the cheapest
    card-hour rate of the quote, :func:`cheapest_card_hour`; default: the plan's own cost per busy card-hour),
    owning costs what renting does when
    the machines are busy a share ``u* = F / (R − E)`` of the time; ``None`` when ``u* > 1`` or ``R ≤ E``
    (owning never pays off at these prices). A payback period is stated only when building is cheaper within
    the horizon: ``price / (rent per month − running costs per month)``.
    """
    missing = [k for k in ("machine_price", "power_kw_per_machine", "tariff_per_kwh", "colocation_per_machine_month",
                           "ops_staff_per_month", "spare_rate_per_year") if getattr(b, k) is None]
    price = (b.machine_price or 0.0) * b.machines
    H = max(float(horizon_months), 0.0)
    life = max(b.depreciation_years * 12.0, 1e-9)
    kw = (b.power_kw_per_machine or 0.0) * b.machines
    tariff = b.tariff_per_kwh or 0.0
    colo_m = (b.colocation_per_machine_month or 0.0) * b.machines
    staff_m = b.ops_staff_per_month or 0.0
    spare_m = (b.spare_rate_per_year or 0.0) * price / 12.0
    breakdown = {
        "hardware": price * max(1.0, H / life),
        "rack": colo_m * H,
        "electricity": kw * b.pue * tariff * float(busy_hours),
        "staff": staff_m * H,
        "spares": spare_m * H,
    }
    build_total = sum(breakdown.values())
    fixed_m = price / life + colo_m + staff_m + spare_m
    elec_busy_m = float(electricity_per_month(kw, 1.0, b.pue, tariff))
    if rent_card_hour is not None:
        rent_busy_m = rent_card_hour * b.machines * b.gpus_per_machine * HOURS_PER_MONTH
    else:
        rent_busy_m = rent_total / busy_hours * HOURS_PER_MONTH if busy_hours > 0 else 0.0
    u = fixed_m / (rent_busy_m - elec_busy_m) if rent_busy_m > elec_busy_m else None
    verdict = "unknown" if b.machine_price is None else ("build" if build_total < rent_total else "rent")
    if (u is not None and u > 1.0) or verdict == "unknown":
        u = None
    payback = None
    if verdict == "build" and H > 0:
        saving_m = (rent_total - (build_total - breakdown["hardware"])) / H
        if saving_m > 0 and price / saving_m <= H:
            payback = price / saving_m
    cur = b.currency
    sentence = _build_sentence(b, verdict, H, rent_total, build_total, jobs, single_job, u, payback, plan_gpus, work)
    return BuildResult(horizon_months=H, currency=cur, breakdown=breakdown, build_total=build_total,
                       rent_total=float(rent_total), busy_hours=float(busy_hours), jobs=int(jobs),
                       single_job=bool(single_job), break_even_utilisation=u, payback_months=payback,
                       verdict=verdict, missing=missing, inputs=b, sentence=sentence)


def _to_currency(amount: float | None, cur: str, want: str, rate: float) -> float | None:
    if amount is None:
        return None
    if cur == want:
        return float(amount)
    return float(amount) * rate if want == "CNY" else float(amount) / rate


def _machine_price(eco: dict, gpu_id: str, per_machine: int, cur: str, conv: Callable,
                   sources: dict) -> float | None:
    """The most recent whole-server (or module) price of the GPU scaled to ``per_machine`` GPUs, in ``cur`` when
    one is quoted in it; else card price × cards (flagged: no chassis); None when neither is known."""
    servers = [p for p in eco["purchase"] if p.get("gpu") == gpu_id and p.get("unit") in ("server", "module")]
    cards = [p for p in eco["purchase"] if p.get("gpu") == gpu_id and p.get("unit") == "card"]

    def amount(p):
        if p.get("price") is not None:
            return p["price"]
        if p.get("price_low") is not None and p.get("price_high") is not None:
            return (p["price_low"] + p["price_high"]) / 2.0
        return None

    machine_price = None
    servers = [p for p in servers if amount(p) is not None]
    cards = [p for p in cards if amount(p) is not None]
    if servers:
        best = max(servers, key=lambda p: (p.get("currency") == cur, str(p.get("source_date"))))
        gpus = int(best.get("gpus") or per_machine)
        machine_price = conv(amount(best), best["currency"]) * per_machine / float(gpus)
        # a server of another size than the one quoted (the user's 4-GPU servers, the catalogue's 8-GPU board): its
        # price per GPU × the GPUs bought, said in the source
        scaled = "" if gpus == per_machine else f" (its price per GPU × {per_machine})"
        sources["machine_price"] = f"{best['item']}{scaled}: {best['source']} ({best['source_date']})"
    elif cards:
        best = max(cards, key=lambda p: (p.get("currency") == cur, str(p.get("source_date"))))
        machine_price = conv(amount(best), best["currency"]) * per_machine
        sources["machine_price"] = f"{best['item']} × {per_machine} (cards only, no chassis): {best['source']}"
    return machine_price


def _node_power(eco: dict, g: Any, per_machine: int, sources: dict) -> float | None:
    """Server power in kW: the DGX figure scaled per GPU, else TDP ÷ the DGX H100 GPU share of node power."""
    node = [p for p in eco.get("node_power", []) if p.get("gpu") == g.id and p.get("max_kw")]
    if node:
        power = node[0]["max_kw"] * per_machine / node[0]["gpus"]
        sources["power_kw_per_machine"] = node[0]["source"]
    elif g.tdp_w:
        power = g.tdp_w * per_machine / GPU_SHARE_OF_NODE_POWER / 1000.0
        sources["power_kw_per_machine"] = "GPU TDP ÷ DGX H100 GPU share of node power"
    else:
        power = None
    return power


def default_build_inputs(gpu_id: Any, num_gpus: int, table: PriceTable, ownership: Any = None,
                         gpus_per_node: int | None = None) -> BuildInputs:
    """Build inputs from ``economics.json``: the most recent whole-server price for the GPU (else card price ×
    cards, flagged), node power (DGX figure scaled per GPU, else TDP ÷ the DGX H100 GPU share), Shenzhen flat
    tariff, PUE, depreciation years; colocation from the global 150–250 USD/kW-month range midpoint
    (a low-quality figure, gpu-catalog.md §3.5); operations staff: one engineer at the 2023 national IT-sector
    average wage (NBS); spares: the GPU fault rate of Llama 3's 54-day run (arXiv:2407.21783 Table 5).

    ``ownership`` (the scenario's ``constraints.ownership``) replaces any default the user has set; money is in
    the table's currency, and each replaced field's source becomes ``"your figure"``."""

    eco = economics_document()  # read only
    g = get_gpu(gpu_id)
    price = table.get(g.id)
    # whole servers of the plan's size (hardware.gpus_per_node: a 2-GPU plan on an 8-GPU board still buys the
    # board), else the quote's machine, else the GPU's
    per_machine = int(gpus_per_node or (price.machine_gpus if price else (g.gpus_per_node or 8)))
    if (g.form_factor or "").lower().startswith("pcie") and 0 < num_gpus < per_machine:
        # PCIe cards go into any server or workstation: a one-card job buys a one-card machine, not an 8-slot
        # server (an SXM/OAM baseboard comes whole, so those plans still buy the board)
        per_machine = int(num_gpus)
    machines = max(1, math.ceil(num_gpus / per_machine))
    cur, rate = table.currency, None
    sources: dict[str, str] = {}

    def conv(amount, c):
        nonlocal rate
        if c == cur or amount is None:
            return amount
        rate = rate or table.rate
        return _to_currency(amount, c, cur, rate)

    machine_price = _machine_price(eco, g.id, per_machine, cur, conv, sources)
    power = _node_power(eco, g, per_machine, sources)
    d = eco["defaults"]
    tariff = conv(d["electricity_cny_per_kwh"]["value"], "CNY")
    sources["tariff_per_kwh"] = d["electricity_cny_per_kwh"]["source"]
    colo = None
    for c in eco.get("colocation", []):
        if c.get("unit") == "USD/kW-month" and c.get("low") is not None and power:
            colo = conv((c["low"] + c["high"]) / 2.0 * power, "USD")
            sources["colocation_per_machine_month"] = c["source"] + " (midpoint)"
    sources["pue"] = d["pue"]["source"]
    sources["depreciation_years"] = d["depreciation_years"]["source"]
    staff_rec, spare_rec = d.get("ops_staff_one_engineer_cny_per_month"), d.get("spares_fraction_per_year")
    staff = None if not staff_rec or staff_rec.get("value") is None else conv(staff_rec["value"], "CNY")
    if staff is not None:
        sources["ops_staff_per_month"] = f"{staff_rec['source']} ({staff_rec['source_date']})"
    spares = None if not spare_rec else spare_rec.get("value")
    if spares is not None:
        sources["spare_rate_per_year"] = f"{spare_rec['source']} ({spare_rec['source_date']})"
    b = BuildInputs(
        machines=machines, gpus_per_machine=per_machine, machine_price=machine_price, currency=cur,
        depreciation_years=float(d["depreciation_years"]["value"] or 3), power_kw_per_machine=power,
        pue=float(d["pue"]["value"] or 1.3), tariff_per_kwh=tariff,
        colocation_per_machine_month=colo, ops_staff_per_month=staff,
        spare_rate_per_year=spares, sources=sources,
    )
    return with_ownership(b, ownership)


#: scenario ``constraints.ownership`` field → BuildInputs field
OWNERSHIP_FIELDS = {
    "machine_price": "machine_price", "depreciation_years": "depreciation_years",
    "rack_per_month": "colocation_per_machine_month", "tariff_per_kwh": "tariff_per_kwh", "pue": "pue",
    "staff_per_month": "ops_staff_per_month", "spares_per_year": "spare_rate_per_year",
    "power_kw": "power_kw_per_machine",
}


def with_ownership(b: BuildInputs, ownership: Any) -> BuildInputs:
    """``b`` with every figure the user set in ``ownership`` (None fields keep the default)."""
    if ownership is None:
        return b
    upd, sources = {}, dict(b.sources)
    for src, dst in OWNERSHIP_FIELDS.items():
        v = getattr(ownership, src, None)
        if v is not None:
            upd[dst] = float(v)
            sources[dst] = "your figure"
    return replace(b, **upd, sources=sources) if upd else b


