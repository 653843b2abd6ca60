"""Hardware and economics catalog: accelerators, interconnects, rental prices, ownership economics.

The data lives in ``gpuplanner/resources/{gpus,networks,prices,economics}.json``; every record there names
its source and date (the reference is ``gpu-catalog.md`` / ``gpu-specs.csv``, collected late 2026).
Unknown values are ``None`` (JSON null) and stay ``None`` here: callers decide what to do with them.

Conventions (gpu-catalog.md §0):

* TFLOPS are **dense** (no 2:4 sparsity); GeForce tensor figures are FP32-accumulate.
* Intra-node link bandwidth is per GPU, **bidirectional**, GB/s, as vendors quote it
  (H100 SXM "900 GB/s" = 18 NVLink4 links x 50 GB/s = 450 GB/s each way).
* Inter-node NIC speeds are line rates in Gb/s (400 Gb/s = 50 GB/s per direction).

Pure Python: no Qt import here.
"""

from __future__ import annotations

import copy
import math
from dataclasses import asdict, field, replace
from functools import lru_cache
from typing import Any

from dataclasses import dataclass
from .errors import CatalogError
from .i18n import QT_TRANSLATE_NOOP
from .messages import MsgStr
from .units import HOURS_PER_MONTH, HOURS_PER_WEEK

_CTX = "catalog"

PRECISIONS = ("bf16", "fp16", "fp8", "fp32")
CURRENCIES = ("CNY", "USD")
GPU_CLASSES = ("datacenter", "workstation", "consumer", "domestic")
LINK_KINDS = ("nvlink", "nvlink-bridge", "pcie", "infinity-fabric", "hccs", "mlu-link")

# PCIe x16 bidirectional bandwidth by generation, GB/s (gpu-catalog.md §0 and §2.1: Gen3/4/5 ~ 32/64/128;
# Gen6 doubles Gen5 per the PCI-SIG generation doubling; used only when a record says pcie_gen 6).
_PCIE_BIDIR_GBS = {3: 32.0, 4: 64.0, 5: 128.0, 6: 256.0}

_GPU_KEYS = (
    "id", "name", "vendor", "class", "memory_gib", "mem_bw_tbs", "bf16_tflops", "fp16_tflops", "fp8_tflops",
    "fp32_tflops", "tdp_w", "form_factor", "intra_node_link", "intra_node_bw_gbs", "pcie_gen", "nvlink_domain",
    "gpus_per_node", "p2p", "source", "source_date", "notes", "market",
)


# --------------------------------------------------------------------------------------------------- types


@dataclass(slots=True, frozen=True)
class GPU:
    """One accelerator (a record of ``gpus.json``). ``gpu_class`` is the JSON key ``class``."""

    id: str
    name: str
    vendor: str
    gpu_class: str
    memory_gib: float | None
    mem_bw_tbs: float | None
    bf16_tflops: float | None
    fp16_tflops: float | None
    fp8_tflops: float | None
    fp32_tflops: float | None
    tdp_w: float | None
    form_factor: str | None
    intra_node_link: str | None
    intra_node_bw_gbs: float | None
    pcie_gen: int | None
    nvlink_domain: int | None
    gpus_per_node: int | None
    p2p: bool | None
    source: str
    source_date: str
    notes: str | None = None
    market: str | None = None  # "mainland_china": a China-market SKU (gpus.json's _about names the sources)
    #: a user-entered GPU's declared architecture generation (``scenario.CustomGpu.architecture``); None for the
    #: catalogue's records, whose generation follows their id (``timing.gpu_generation``)
    architecture: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The record as it appears in ``gpus.json`` (key ``class``, same key order)."""
        d = asdict(self)
        d["class"] = d.pop("gpu_class")
        return {k: d[k] for k in _GPU_KEYS}


@dataclass(slots=True, frozen=True)
class Network:
    """An interconnect class from ``networks.json``; ``kind`` is ``"intra_node"`` or ``"inter_node"``.

    Intra-node classes carry ``bw_gbs_bidir`` (per GPU) and, where measured, ``busbw_gbs`` (NCCL all-reduce
    bus bandwidth, nccl-tests definition). Inter-node classes carry ``gbps_per_nic`` (line rate),
    ``default_nics_per_node`` and ``efficiency`` (achievable fraction of line rate for NCCL).
    ``extra`` holds further measured figures of the record (e.g. ``busbw_nvls_gbs``).
    """

    id: str
    kind: str
    name: str
    source: str
    source_date: str
    notes: str | None = None
    bw_gbs_bidir: float | None = None
    busbw_gbs: float | None = None
    busbw_source: str | None = None
    gpus: tuple[str, ...] = ()
    gbps_per_nic: float | None = None
    default_nics_per_node: int | None = None
    efficiency: float | None = None
    efficiency_source: str | None = None
    latency_us: float | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def gbs_per_direction(self) -> float | None:
        """Bandwidth one way, GB/s: half the bidirectional figure (intra-node, per GPU) or line rate / 8
        (inter-node, per NIC; 400 Gb/s = 50 GB/s, gpu-catalog.md §2.1)."""
        if self.kind == "intra_node":
            return None if self.bw_gbs_bidir is None else self.bw_gbs_bidir / 2.0
        return None if self.gbps_per_nic is None else self.gbps_per_nic / 8.0

    @property
    def achievable_gbs_per_nic(self) -> float | None:
        """Inter-node: line rate / 8 x NCCL efficiency, GB/s per NIC per direction (e.g. 200G -> 24 GB/s,
        the NCCL maintainer's figure in NVIDIA/nccl-tests #119). None when either is unknown."""
        one_way = self.gbs_per_direction
        if self.kind != "inter_node" or one_way is None or self.efficiency is None:
            return None
        return one_way * self.efficiency


@dataclass(slots=True, frozen=True)
class Price:
    """A rental offer (one provider's quotes for one GPU, from ``prices.json``), per GPU in ``currency``.

    ``card_hour`` (on demand) and ``spot_card_hour`` are per card-hour; ``card_week`` / ``card_month`` are a
    week's / month's commitment per card (a whole-machine rent divided by ``machine_gpus``). ``basis`` says
    how each figure was quoted (``{"card_month": "node_month"}``: from a whole 8-card node per month) and
    ``modes`` which billing modes the quotes were (on_demand, spot, weekly, monthly, yearly). ``converted`` is
    True when the figures were converted from the other currency at ``exchange_rate`` (CNY per USD).
    """

    gpu: str
    currency: str
    region: str | None
    provider: str | None
    card_hour: float | None
    card_week: float | None
    card_month: float | None
    spot_card_hour: float | None
    machine_gpus: int | None
    source: str
    source_date: str
    notes: str | None = None
    converted: bool = False
    exchange_rate: float | None = None
    unit: str | None = None          # the unit of the quote (one-quote records)
    mode: str | None = None          # its billing mode
    quoted_price: float | None = None  # the figure as quoted, in ``unit``
    basis: tuple[tuple[str, str], ...] = ()  # (field, unit as quoted)
    modes: tuple[str, ...] = ()
    kind: str | None = None  # PRICE_KINDS (None: not stated, a user's sheet)
    kinds: tuple[tuple[str, str], ...] = ()  # (field, kind of the quote it came from) for a composed offer
    #: whether the source offers these servers networked for multi-node training (``prices.json``
    #: ``multi_node``: True a cluster fabric, False single machines, None not stated); a composed offer's is
    #: :func:`combine_multi_node` of its quotes'
    multi_node: bool | None = None
    multi_node_source: str | None = None
    fabrics: tuple[tuple[str, bool | None], ...] = ()  # (field, multi_node of the quote it came from)
    #: the fewest servers the offer rents (``prices.json`` ``min_nodes``; None: one): a whole-cluster lease
    #: prices no plan of fewer servers
    min_nodes: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


#: Units a quote may be given in (``node_*``: a whole machine of ``machine_gpus`` cards).
PRICE_UNITS = ("card_hour", "node_hour", "card_week", "node_week", "card_month", "node_month", "card_year")
#: Billing modes, with the units each may be quoted in.
PRICE_MODES = {
    "on_demand": ("card_hour", "node_hour"),
    "spot": ("card_hour", "node_hour"),
    "weekly": ("card_hour", "node_hour", "card_week", "node_week"),
    "monthly": ("card_hour", "node_hour", "card_month", "node_month"),
    "yearly": ("card_year", "card_month", "node_month"),
}
PRICE_REGIONS = ("mainland_china", "worldwide")
#: What kind of figure a quote is (``prices.json`` ``kind``): a provider's published list price, a marketplace
#: snapshot (lowest seller or median), a provider's own time package (包月 ...), a whole-server rent from a
#: wholesale market, or an assumption stated in a paper. A quote of the other region used in this one is
#: labelled ``converted`` where it is shown.
PRICE_KINDS = ("list", "marketplace", "package", "wholesale", "assumption")
#: the kinds the ranking prices from by default: list card-hours, package or wholesale months
DEFAULT_PRICE_KINDS = ("list", "package", "wholesale")
_HOURS = {"week": HOURS_PER_WEEK, "month": HOURS_PER_MONTH}  # the one 30-day month (units.HOURS_PER_MONTH cites it)


def _normalise_quote(price: float, unit: str, mode: str, machine_gpus: int | None) -> tuple[str, float] | None:
    """(Price field, amount per card) for one quote; None for a yearly lease (never billed for a shorter job)."""
    if mode == "yearly":
        return None
    per_card = price / machine_gpus if unit.startswith("node_") else price
    span = unit.split("_", 1)[1]
    if mode in ("on_demand", "spot"):
        return ("card_hour" if mode == "on_demand" else "spot_card_hour"), per_card
    period = "week" if mode == "weekly" else "month"
    if span == "hour":
        per_card *= _HOURS[period]
    return f"card_{period}", per_card


_MONEY_FIELDS = ("card_hour", "card_week", "card_month", "spot_card_hour")


# ------------------------------------------------------------------------------------------------ loading


@lru_cache(maxsize=None)
def _read_json(name: str) -> dict[str, Any]:
    from .shipped import load_json

    try:
        data = load_json(name)
    except (OSError, ValueError) as err:
        raise CatalogError(MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "cannot read resource file {name}: {err}"), name=name, err=err)) from err
    if not isinstance(data, dict):
        raise CatalogError(MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "malformed resource file {name}"), name=name))
    return data


def _malformed(name: str, what: str) -> CatalogError:
    return CatalogError(MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "malformed resource file {name}: {what}"), name=name, what=what))


def _num(value: Any, name: str, what: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise _malformed(name, f"{what} must be a non-negative number or null")
    return value


@lru_cache(maxsize=None)
def _gpus() -> dict[str, GPU]:
    name = "gpus.json"
    records = _read_json(name).get("gpus")
    if not isinstance(records, list):
        raise _malformed(name, "'gpus' must be a list")
    out: dict[str, GPU] = {}
    for rec in records:
        if not isinstance(rec, dict) or set(rec) != set(_GPU_KEYS):
            rid = rec.get("id") if isinstance(rec, dict) else rec
            raise _malformed(name, f"record {rid!r} must have exactly the keys {', '.join(_GPU_KEYS)}")
        gid = rec["id"]
        if not isinstance(gid, str) or gid != gid.lower() or gid in out:
            raise _malformed(name, f"bad or duplicate id {gid!r}")
        if not rec["source"] or not rec["source_date"]:
            raise _malformed(name, f"record {gid!r} lacks source/source_date")
        if rec["class"] not in GPU_CLASSES:
            raise _malformed(name, f"record {gid!r}: class must be one of {', '.join(GPU_CLASSES)}")
        if rec["intra_node_link"] is not None and rec["intra_node_link"] not in LINK_KINDS:
            raise _malformed(name, f"record {gid!r}: unknown intra_node_link {rec['intra_node_link']!r}")
        for key in ("memory_gib", "mem_bw_tbs", "bf16_tflops", "fp16_tflops", "fp8_tflops", "fp32_tflops",
                    "tdp_w", "intra_node_bw_gbs", "pcie_gen", "nvlink_domain", "gpus_per_node"):
            _num(rec[key], name, f"{gid}.{key}")
        if rec["p2p"] is not None and not isinstance(rec["p2p"], bool):
            raise _malformed(name, f"record {gid!r}: p2p must be true, false or null")
        if rec["market"] is not None and rec["market"] not in PRICE_REGIONS:
            raise _malformed(name, f"record {gid!r}: market must be null or one of {', '.join(PRICE_REGIONS)}")
        kwargs = {k: rec[k] for k in _GPU_KEYS if k != "class"}
        out[gid] = GPU(gpu_class=rec["class"], **kwargs)
    return out


def load_gpus() -> dict[str, GPU]:
    """All accelerators by id (cached; a fresh dict each call, the records are frozen)."""
    return dict(_gpus())


def _suggest(query: str, ids: list[str]) -> list[str]:
    import difflib  # only for an unknown id (difflib and heapq stay out of every start-up)

    q = query.lower()
    found = [i for i in ids if q and q in i]
    for m in difflib.get_close_matches(q, ids, n=3, cutoff=0.5):
        if m not in found:
            found.append(m)
    return found[:4]


def _normalise_id(gpu_id: str) -> str:
    return "-".join(str(gpu_id).strip().lower().replace("_", " ").split())


def custom_gpu_record(spec: Any) -> GPU:
    """A catalog record for a user-entered GPU (``scenario.CustomGpu``): the user's figures, nothing
    guessed (unknown stays None, like the catalog's blanks)."""
    link = spec.intra_node_link
    bw = spec.intra_node_bw_gbs
    if bw is None and link == "pcie":
        bw = 64.0  # PCIe Gen4 x16, bidirectional (gpu-catalog.md §2.1); the user can override
    return GPU(
        id=spec.id, name=spec.name, vendor="custom", gpu_class="datacenter" if link == "nvlink" else "workstation",
        memory_gib=float(spec.memory_gib), mem_bw_tbs=spec.mem_bw_tbs, bf16_tflops=spec.bf16_tflops,
        fp16_tflops=spec.bf16_tflops, fp8_tflops=spec.fp8_tflops, fp32_tflops=None, tdp_w=spec.tdp_w,
        form_factor=None, intra_node_link=link, intra_node_bw_gbs=bw, pcie_gen=4 if link == "pcie" else None,
        nvlink_domain=spec.gpus_per_node if link == "nvlink" else 1, gpus_per_node=spec.gpus_per_node,
        p2p=None, source=QT_TRANSLATE_NOOP(_CTX, "entered by the user"), source_date="", notes=None,
        architecture=getattr(spec, "architecture", None),
    )


def lookup_gpu(gpu_id: str | GPU, custom_gpus: Any = ()) -> GPU:
    """The accelerator ``gpu_id`` among the scenario's user-entered GPUs (``hardware.custom_gpus``; ids
    start with ``custom-``, so they never shadow a catalog id), else in the catalog (:func:`get_gpu`).

    There is no process-wide registry: each scenario brings its own GPUs, so one document's GPUs never
    leak into another's, and a search on a worker thread changes nothing the GUI thread sees."""
    if isinstance(gpu_id, GPU):
        return gpu_id
    key = _normalise_id(gpu_id)
    for spec in custom_gpus or ():
        if spec.id == key:
            return custom_gpu_record(spec)
    return get_gpu(gpu_id)


def domain_beyond_server(gpu: Any) -> int:
    """GPUs one NVLink domain joins beyond a server: the catalogue's ``nvlink_domain`` where it is larger than the
    card's own server (``gpus_per_node``; GB200 NVL72: 72 over 4-GPU trays), else 0. An HGX/DGX board's NVSwitches
    join its own 8 GPUs (``nvlink_domain`` 8 = ``gpus_per_node``) and no GPU of another server. The one rule
    advisor.nvlink_domain (the search's fabric check) and timing.ep_domain_of (the time model's links) read
    (review14)."""
    dom = int(getattr(gpu, "nvlink_domain", 0) or 0)
    per = int(getattr(gpu, "gpus_per_node", 0) or 0)
    return dom if dom > per > 0 else 0


def server_gpus(gpu: Any, stated: int) -> int:
    """GPUs per server that a plan on ``gpu`` runs with, given the scenario's ``hardware.gpus_per_node`` (``stated``):
    the user's count where the card's catalogued server (``gpus_per_node``) holds at least that many (servers of 4
    cards that vendors also sell 8 to a board; the Hardware page's "GPUs per node"), else the catalogued server (no
    server of this card holds more; :func:`server_gpus_message` says so); a card without a catalogued server: the
    user's count. The one rule the plan search's layouts and prices read (issue 35 round 15, consist15: the search
    used the catalogue's 8 whatever the user said); the default 8 changes nothing (no catalogued server holds more)."""
    per = int(getattr(gpu, "gpus_per_node", 0) or 0)
    return min(int(stated), per) if per > 0 else int(stated)


def get_gpu(gpu_id: str | GPU) -> GPU:
    """The accelerator ``gpu_id`` (case/space tolerant). Raises ``CatalogError`` naming close matches."""
    if isinstance(gpu_id, GPU):
        return gpu_id
    gpus = _gpus()
    key = _normalise_id(gpu_id)
    if key in gpus:
        return gpus[key]
    msg = MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "unknown GPU '{id}'; run `gpuplanner gpus` for the ids"), id=gpu_id)
    close = _suggest(key, sorted(gpus))
    if close:
        # the suggestion is a message of its own, kept as a parameter (``+`` would give a plain str: no id)
        msg = MsgStr.make(_CTX, "{message}{hint}", message=msg,
                          hint=MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, " (did you mean: {ids}?)"), ids=list(close)))
    raise CatalogError(msg)


def peak_tflops(gpu: GPU | str, precision: str) -> float | None:
    """Dense peak tensor TFLOPS of ``gpu`` at ``precision`` (bf16, fp16, fp8 or fp32).

    Source: the vendor datasheets as collected in gpu-catalog.md §1 (sparse datasheet figures halved).
    Returns None when the figure is unknown or the format is unsupported (e.g. fp8 on A100, bf16 on V100);
    there is deliberately no fallback to another precision: callers decide.
    """
    p = str(precision).strip().lower()
    if p not in PRECISIONS:
        raise CatalogError(
            MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "unknown precision '{p}'; use one of {all}"), p=precision, all=", ".join(PRECISIONS))
        )
    return getattr(get_gpu(gpu), f"{p}_tflops")


# ----------------------------------------------------------------------------------------------- networks

_NET_BASE = ("id", "name", "source", "source_date", "notes")
_INTRA_KEYS = ("bw_gbs_bidir", "busbw_gbs", "busbw_source", "gpus")
_INTER_KEYS = ("gbps_per_nic", "default_nics_per_node", "efficiency", "efficiency_source", "latency_us")


@lru_cache(maxsize=None)
def _networks() -> dict[str, Network]:
    name = "networks.json"
    data = _read_json(name)
    out: dict[str, Network] = {}
    for kind, keys in (("intra_node", _INTRA_KEYS), ("inter_node", _INTER_KEYS)):
        records = data.get(kind)
        if not isinstance(records, list):
            raise _malformed(name, f"'{kind}' must be a list")
        for rec in records:
            if not isinstance(rec, dict) or any(k not in rec for k in _NET_BASE + keys):
                raise _malformed(name, f"{kind} record {rec.get('id') if isinstance(rec, dict) else rec!r} lacks keys")
            nid = rec["id"]
            if nid in out:
                raise _malformed(name, f"duplicate network id {nid!r}")
            if not rec["source"] or not rec["source_date"]:
                raise _malformed(name, f"record {nid!r} lacks source/source_date")
            for k in ("bw_gbs_bidir", "busbw_gbs", "gbps_per_nic", "default_nics_per_node", "efficiency", "latency_us"):
                _num(rec.get(k), name, f"{nid}.{k}")
            if rec.get("efficiency") is not None and rec["efficiency"] > 1:
                raise _malformed(name, f"{nid}.efficiency must be a fraction <= 1")
            kwargs = {k: rec[k] for k in _NET_BASE + keys}
            if "gpus" in kwargs:
                kwargs["gpus"] = tuple(kwargs["gpus"] or ())
            extra = {k: v for k, v in rec.items() if k not in _NET_BASE + keys}
            out[nid] = Network(kind=kind, extra=extra, **kwargs)
    return out


def load_networks() -> dict[str, Network]:
    """All interconnect classes (intra- and inter-node) by id."""
    return dict(_networks())


def get_network(network_id: str) -> Network:
    """The interconnect class ``network_id`` (e.g. ``ib-ndr-400``, ``nvlink4``); ``CatalogError`` if unknown."""
    nets = _networks()
    key = _normalise_id(network_id)
    if key in nets:
        return nets[key]
    msg = MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "unknown network '{id}'; known: {ids}"), id=network_id, ids=sorted(nets))
    close = _suggest(key, sorted(nets))
    if close:
        msg = MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "unknown network '{id}' (did you mean: {ids}?)"), id=network_id, ids=list(close))
    raise CatalogError(msg)


def server_nics(net: Network, gpus_per_node: int) -> int | None:
    """The catalogue's compute NICs of ``net`` for a server of ``gpus_per_node`` GPUs, or None where it gives no
    count. ``networks.json`` gives ``default_nics_per_node`` per 8-GPU node (its ``_about``: "default compute NICs
    per 8-GPU node"; DGX A100 / DGX H100: one per GPU), so a server of 2 or 4 such GPUs gets 2 or 4, as the time
    model's generation defaults scale (``timing.DEFAULT_FABRIC``: NICs per GPU). Before (issue 35 round 14,
    z3multi14) a named network on a small server took the 8-GPU node's 8: the Qwen README's two servers of two
    A100s, entered with ``inter_node: ib-hdr-200``, each ran on 8 HDR NICs (96 GB/s a GPU, 4x one NIC per GPU)."""
    d = net.default_nics_per_node
    if d is None:
        return None
    return max(1, round(d * max(int(gpus_per_node), 1) / 8))


def intra_node_network(gpu: GPU | str) -> Network | None:
    """The intra-node link class whose ``gpus`` list names this GPU's primary link, if any.

    For a GPU listed under several classes (e.g. A100 PCIe: bridge pair and PCIe Gen4) the class matching
    its ``intra_node_link`` wins.
    """
    g = get_gpu(gpu)
    matches = [n for n in _networks().values() if n.kind == "intra_node" and g.id in n.gpus]
    if not matches:
        return None
    want_pcie = g.intra_node_link == "pcie"
    for n in matches:
        if n.id.startswith("pcie") == want_pcie:
            return n
    return matches[0]


def intra_node_bandwidth_gbs(gpu: GPU | str, override: str | float | None = None) -> float | None:
    """Per-GPU **uni-directional** intra-node bandwidth in GB/s, as used by collective cost models.

    Vendors quote link bandwidth per GPU *bidirectionally* (NVIDIA: H100 SXM "900 GB/s" = 18 NVLink4 links
    x 50 GB/s, i.e. 450 GB/s each way; PCIe x16 Gen4 "64 GB/s" = 32 GB/s each way; gpu-catalog.md §0, §2.1).
    Ring/tree all-reduce models (Patarasuk & Yuan 2009; NCCL's busbw definition in nccl-tests
    PERFORMANCE.md) use the one-way figure, so this returns bidirectional / 2.

    ``override``:
      * None: the GPU's own ``intra_node_bw_gbs``;
      * ``"pcie"``: PCIe x16 of the GPU's ``pcie_gen`` (Gen3/4/5 = 32/64/128 bidir);
      * ``"nvlink"``: the GPU's NVLink / NVLink-bridge figure (CatalogError if the GPU has none);
      * an intra-node network id (``"nvlink4"``, ``"pcie5"`` ...): that class's bandwidth;
      * a number: a per-GPU *bidirectional* GB/s figure (the vendors' convention).
    Returns None when the figure is unknown.
    """
    g = get_gpu(gpu)
    if override is None:
        bidir = g.intra_node_bw_gbs
    elif isinstance(override, (int, float)) and not isinstance(override, bool):
        if not math.isfinite(override) or override <= 0:
            raise CatalogError(MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "intra-node bandwidth must be a positive number of GB/s")))
        bidir = float(override)
    else:
        key = _normalise_id(str(override))
        if key == "pcie":
            bidir = _PCIE_BIDIR_GBS.get(g.pcie_gen) if g.pcie_gen is not None else None
        elif key == "nvlink":
            if g.intra_node_link not in ("nvlink", "nvlink-bridge"):
                raise CatalogError(MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "GPU '{id}' has no NVLink"), id=g.id))
            bidir = g.intra_node_bw_gbs
        else:
            net = get_network(key)
            if net.kind != "intra_node":
                raise CatalogError(
                    MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "network '{id}' is an inter-node fabric, not an intra-node link"), id=net.id)
                )
            bidir = net.bw_gbs_bidir
    return None if bidir is None else bidir / 2.0


# ------------------------------------------------------------------------------------------------- prices


@lru_cache(maxsize=None)
def _prices() -> tuple[tuple[Price, ...], float | None]:
    name = "prices.json"
    data = _read_json(name)
    rate_rec = data.get("exchange_rate_cny_per_usd")
    if not isinstance(rate_rec, dict) or "value" not in rate_rec:
        raise _malformed(name, "'exchange_rate_cny_per_usd' must be an object with a value")
    rate = _num(rate_rec["value"], name, "exchange_rate_cny_per_usd.value")
    records = data.get("prices")
    if not isinstance(records, list):
        raise _malformed(name, "'prices' must be a list")
    return tuple(parse_price_record(rec, i, name) for i, rec in enumerate(records)), rate


_RECORD_KEYS = ("gpu", "price", "currency", "unit", "mode", "machine_gpus", "region", "provider", "source", "date",
                "notes")


_OPTIONAL_KEYS = {"kind", "multi_node", "multi_node_source", "min_nodes"}


def combine_multi_node(*values: bool | None) -> bool | None:
    """Whether an offer composed of several quotes is networked: False when any quote is known to be single
    machines, True only when every quote says networked, else None (not stated)."""
    if any(v is False for v in values):
        return False
    return True if values and all(v is True for v in values) else None


def _check_multi_node(rec: dict, i: int, name: str) -> None:
    """``multi_node`` is true, false or null; a known value cites what the source says (``multi_node_source``)."""
    v = rec.get("multi_node")
    if v is not None and not isinstance(v, bool):
        raise _malformed(name, f"prices[{i}]: multi_node must be true, false or null")
    why = rec.get("multi_node_source")
    if why is not None and not isinstance(why, str):
        raise _malformed(name, f"prices[{i}]: multi_node_source must be text or null")
    if v is not None and not why:
        raise _malformed(name, f"prices[{i}]: multi_node {str(v).lower()} needs multi_node_source (what the source says)")


def parse_price_record(rec: Any, i: int = 0, name: str = "prices.json") -> Price:
    """One ``prices.json`` entry as a :class:`Price` with its one figure in the field it bills. Raises
    ``CatalogError`` for an entry whose unit, mode or region is missing or ambiguous (a node price without its
    card count, a unit the mode cannot be quoted in), or that lacks its source and date."""
    if not isinstance(rec, dict):
        raise _malformed(name, f"prices[{i}] must be an object")
    if set(rec) - _OPTIONAL_KEYS != set(_RECORD_KEYS):
        raise _malformed(name, f"prices[{i}] must have exactly the keys {', '.join(_RECORD_KEYS)} "
                               f"(and {', '.join(sorted(_OPTIONAL_KEYS))})")
    _check_multi_node(rec, i, name)
    mn = rec.get("min_nodes")
    if mn is not None and (isinstance(mn, bool) or not isinstance(mn, int) or not 1 <= mn <= 100_000):
        raise _malformed(name, f"prices[{i}]: min_nodes must be a whole number of servers from 1 to 100000, or null")
    if "kind" in rec and rec["kind"] not in PRICE_KINDS:
        raise _malformed(name, f"prices[{i}]: kind must be one of {', '.join(PRICE_KINDS)}")
    if rec.get("gpu") not in _gpus():
        raise _malformed(name, f"prices[{i}]: unknown gpu {rec.get('gpu')!r}")
    if rec.get("currency") not in CURRENCIES:
        raise _malformed(name, f"prices[{i}]: currency must be CNY or USD")
    if not rec.get("source") or not rec.get("date"):
        raise _malformed(name, f"prices[{i}] lacks source/date")
    unit, mode = rec.get("unit"), rec.get("mode")
    if unit not in PRICE_UNITS:
        raise _malformed(name, f"prices[{i}]: unit {unit!r} is ambiguous; use one of {', '.join(PRICE_UNITS)}")
    if mode not in PRICE_MODES:
        raise _malformed(name, f"prices[{i}]: mode {mode!r} is ambiguous; use one of {', '.join(PRICE_MODES)}")
    if unit not in PRICE_MODES[mode]:
        raise _malformed(name, f"prices[{i}]: a {mode} price cannot be quoted per {unit}")
    if rec.get("region") not in PRICE_REGIONS:
        raise _malformed(name, f"prices[{i}]: region must be one of {', '.join(PRICE_REGIONS)}")
    price = _num(rec.get("price"), name, f"prices[{i}].price")
    g = _num(rec.get("machine_gpus"), name, f"prices[{i}].machine_gpus")
    if price is None:
        raise _malformed(name, f"prices[{i}]: price missing")
    if unit.startswith("node_") and not g:
        raise _malformed(name, f"prices[{i}]: a price per {unit} needs machine_gpus (cards per node)")
    money = {k: None for k in _MONEY_FIELDS}
    basis: tuple[tuple[str, str], ...] = ()
    norm = _normalise_quote(float(price), unit, mode, int(g) if g else None)
    if norm is not None:
        money[norm[0]] = norm[1]
        basis = ((norm[0], f"{mode}:{unit}"),)
    return Price(gpu=rec["gpu"], currency=rec["currency"], region=rec["region"], provider=rec.get("provider"),
                 machine_gpus=int(g) if g else None, source=rec["source"], source_date=str(rec["date"]),
                 notes=rec.get("notes"), unit=unit, mode=mode, quoted_price=float(price), basis=basis,
                 modes=(mode,), kind=rec.get("kind"), multi_node=rec.get("multi_node"),
                 multi_node_source=rec.get("multi_node_source"), min_nodes=rec.get("min_nodes"), **money)


def load_prices() -> list[Price]:
    """Every quote of ``prices.json``, one record each (defaults to be replaced by the user's own quotes)."""
    return list(_prices()[0])


def _merge(quotes: list[Price]) -> Price:
    """One provider's quotes for one GPU (same source, date and machine size) as one offer."""
    first = quotes[0]
    money = {k: None for k in _MONEY_FIELDS}
    basis: dict[str, str] = {}
    for q in quotes:
        for k in _MONEY_FIELDS:
            v = getattr(q, k)
            if v is not None and (money[k] is None or v < money[k]):
                money[k] = v
                basis[k] = dict(q.basis).get(k, f"{q.mode}:{q.unit}")
    notes = " ".join(dict.fromkeys(q.notes for q in quotes if q.notes)) or None
    return replace(first, notes=notes, unit=None, mode=None, quoted_price=None, basis=tuple(basis.items()),
                   modes=tuple(dict.fromkeys(q.mode for q in quotes if q.mode)), **money)


@lru_cache(maxsize=None)
def _offers() -> tuple[Price, ...]:
    groups: dict[tuple, list[Price]] = {}
    for q in _prices()[0]:
        key = (q.gpu, q.currency, q.region, q.provider, q.source, q.source_date, q.machine_gpus, q.kind,
               q.multi_node)
        groups.setdefault(key, []).append(q)
    return tuple(_merge(v) for v in groups.values())


def load_offers() -> list[Price]:
    """The quotes grouped into offers (one provider, source and date per GPU): what :func:`default_price`
    picks from. Yearly leases are kept in :func:`load_prices` but bill nothing here."""
    return list(_offers())


def exchange_rate_cny_per_usd() -> float | None:
    """The default CNY-per-USD rate from ``prices.json`` (a derived figure; see its source there)."""
    return _prices()[1]


def convert_price(price: Price, currency: str, rate_cny_per_usd: float | None = None) -> Price:
    """``price`` expressed in ``currency``: CNY = USD x rate, USD = CNY / rate (rate = CNY per USD).

    The result is flagged ``converted=True`` with the rate used. Same currency: returned unchanged.
    """
    cur = str(currency).upper()
    if cur not in CURRENCIES:
        raise CatalogError(MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "unknown currency '{c}'; use CNY or USD"), c=currency))
    if price.currency == cur:
        return price
    rate = exchange_rate_cny_per_usd() if rate_cny_per_usd is None else rate_cny_per_usd
    if rate is None or isinstance(rate, bool) or not math.isfinite(rate) or rate <= 0:
        raise CatalogError(MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "no CNY/USD exchange rate set; enter one to convert prices")))
    factor = rate if cur == "CNY" else 1.0 / rate
    money = {k: (None if getattr(price, k) is None else getattr(price, k) * factor) for k in _MONEY_FIELDS}
    return replace(price, currency=cur, converted=True, exchange_rate=float(rate), **money)


def _lower_median(prices: list[Price], key: str) -> Price | None:
    have = sorted((p for p in prices if getattr(p, key) is not None), key=lambda p: (getattr(p, key), p.provider or ""))
    return have[(len(have) - 1) // 2] if have else None


def region_for_currency(currency: str) -> str:
    """The region whose quotes a currency's user rents from by default (CNY: mainland China)."""
    return "mainland_china" if str(currency).upper() == "CNY" else "worldwide"


def default_price(gpu_id: str | GPU, currency: str, rate_cny_per_usd: float | None = None,
                  region: str | None = None, kinds: tuple[str, ...] | None = None,
                  converted: bool | None = None, networked: bool = False, nodes: int = 1) -> Price | None:
    """The default rental offer for ``gpu_id`` in ``currency`` (CNY or USD), or None if there is none.

    ``networked``: the same rule among the offers whose source states a cluster fabric (``multi_node`` true)
    alone: what a plan over several nodes is priced from when such an offer exists (cost.PriceTable.for_nodes).
    ``nodes``: the plan's servers; an offer that rents no fewer than ``min_nodes`` servers (a whole-cluster lease)
    prices only plans of at least that many.

    Rule: among the offers of the ``kinds`` given (default :data:`DEFAULT_PRICE_KINDS`: list card-hours, package
    or wholesale months) from ``region`` (default: the currency's own region, :func:`region_for_currency`; the
    other region's only with ``converted`` — never by default for mainland China, where a converted foreign quote
    is not what a mainland renter pays), the lower median by the on-demand ``card_hour``; its month price (when
    the card-hour offer has none) from the region's own package quote, else its wholesale whole-server rent —
    never derived from the hourly price. Without a card-hour quote: the lower median by the monthly, weekly or
    spot price. Converted to ``currency`` at ``rate_cny_per_usd`` (default: ``prices.json``'s rate) and flagged
    ``converted=True`` where the offer is in the other currency. ``converted`` defaults to True for a non-CNY
    currency without an explicit region (the old fallback) unless the card is sold only in the other region
    (``GPU.market``), False otherwise.
    """
    g = get_gpu(gpu_id)
    cur = str(currency).upper()
    if cur not in CURRENCIES:
        raise CatalogError(MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "unknown currency '{c}'; use CNY or USD"), c=currency))
    if region is not None and region not in PRICE_REGIONS:
        raise CatalogError(MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "unknown region '{r}'; use mainland_china or worldwide"), r=region))
    kinds = tuple(kinds or DEFAULT_PRICE_KINDS)
    mine = [p for p in _offers() if p.gpu == g.id and any(getattr(p, k) is not None for k in _MONEY_FIELDS)
            and (p.kind or "list") in kinds and (p.multi_node is True or not networked)
            and (p.min_nodes or 1) <= max(int(nodes), 1)]
    home = region if region is not None else region_for_currency(cur)
    if converted is None:
        # the default fallback converts the other region's quotes, but never for a card sold only in that other
        # region (gpus.json ``market``: a China-market SKU is not what a worldwide renter can rent)
        converted = region is None and home != "mainland_china" and g.market in (None, home)
    regions = (home,) + ((next(r for r in PRICE_REGIONS if r != home),) if converted else ())
    for reg in regions:
        pick = _compose([p for p in mine if p.region == reg])
        if pick is not None:
            return convert_price(pick, cur, rate_cny_per_usd)
    return None


def _fabrics(offer: Price) -> tuple[tuple[str, bool | None], ...]:
    """(field, multi_node) for each figure an offer quotes."""
    return tuple((k, offer.multi_node) for k in _MONEY_FIELDS if getattr(offer, k) is not None)


def _compose(pool: list[Price]) -> Price | None:
    """One region's default offer: the lower-median card-hour offer with a month price from the region's package,
    else wholesale, quote where it has none of its own (each figure keeps the kind of its quote)."""
    hour = _lower_median(pool, "card_hour")
    if hour is None:
        for key in ("card_month", "card_week", "spot_card_hour"):
            hour = _lower_median(pool, key)
            if hour is not None:
                break
        if hour is None:
            return None
        return replace(hour, kinds=tuple((k, hour.kind or "list") for k in _MONEY_FIELDS if getattr(hour, k) is not None),
                       fabrics=_fabrics(hour))
    kinds = [(k, hour.kind or "list") for k in _MONEY_FIELDS if getattr(hour, k) is not None]
    if hour.card_month is not None:
        return replace(hour, kinds=tuple(kinds), fabrics=_fabrics(hour))
    month = (_lower_median([p for p in pool if p.kind == "package"], "card_month")
             or _lower_median([p for p in pool if p.kind == "wholesale" and "yearly" not in p.modes], "card_month"))
    if month is None:
        return replace(hour, kinds=tuple(kinds), fabrics=_fabrics(hour))
    basis = dict(hour.basis)
    basis["card_month"] = dict(month.basis).get("card_month", "monthly:card_month")
    kinds.append(("card_month", month.kind or "list"))
    src = f"{hour.source}; month: {month.provider}, {month.source} ({month.source_date})"
    why = "; ".join(dict.fromkeys(w for w in (hour.multi_node_source, month.multi_node_source) if w)) or None
    return replace(hour, card_month=month.card_month, basis=tuple(basis.items()), kinds=tuple(kinds), source=src,
                   machine_gpus=month.machine_gpus if hour.machine_gpus is None else hour.machine_gpus,
                   multi_node=combine_multi_node(hour.multi_node, month.multi_node), multi_node_source=why,
                   fabrics=_fabrics(hour) + (("card_month", month.multi_node),))


# ---------------------------------------------------------------------------------------------- economics


def load_economics() -> dict[str, Any]:
    """The ``economics.json`` document (a deep copy: purchase prices, tariffs, PUE, MFU, defaults ...)."""
    return copy.deepcopy(economics_document())


@lru_cache(maxsize=1)
def economics_document() -> dict[str, Any]:
    """The ``economics.json`` document, parsed once and shared: read it, never change it (a plan's
    rent-vs-build figures read it for every shown plan; :func:`load_economics` gives a copy to change)."""
    data = _read_json("economics.json")
    if not isinstance(data.get("defaults"), dict):
        raise _malformed("economics.json", "'defaults' must be an object")
    return data


def economics_default(key: str) -> float | None:
    """A planner default from ``economics.json`` → ``defaults`` (e.g. ``pue``, ``electricity_cny_per_kwh``,
    ``depreciation_years``); None where the reference has no figure (user input)."""
    defaults = _read_json("economics.json").get("defaults", {})
    if key not in defaults:
        raise CatalogError(
            MsgStr.make(_CTX, QT_TRANSLATE_NOOP(_CTX, "unknown economics default '{k}'; known: {all}"), k=key, all=", ".join(sorted(defaults)))
        )
    return defaults[key].get("value")


#: The network catalogue's names (``resources/networks.json``), marked so each has a display name in every
#: language (translated where shown: ``i18n.translate_param`` looks in this context). A test checks that every
#: name in the catalogue is here.
NETWORK_DISPLAY_NAMES = (
    QT_TRANSLATE_NOOP(_CTX, "NVLink 2 (V100, 6 links)"),
    QT_TRANSLATE_NOOP(_CTX, "NVLink 3 via NVSwitch (A100, 12 links, NV12)"),
    QT_TRANSLATE_NOOP(_CTX, "NVLink 3 cut to 8 links (A800, NV8)"),
    QT_TRANSLATE_NOOP(_CTX, "NVLink 4 via NVSwitch (H100/H200/H20, 18 links, NV18)"),
    QT_TRANSLATE_NOOP(_CTX, "NVLink 4 cut to 8 links (H800, NV8)"),
    QT_TRANSLATE_NOOP(_CTX, "NVLink 5 (B200/GB200, 18 links, NV18)"),
    QT_TRANSLATE_NOOP(_CTX, "NVLink bridge pair (A100 PCIe, 2 GPUs)"),
    QT_TRANSLATE_NOOP(_CTX, "NVLink bridge pair (H100 PCIe / NVL, 2 GPUs)"),
    QT_TRANSLATE_NOOP(_CTX, "AMD Infinity Fabric, 7 links x 128 GB/s, 8-GPU full mesh (MI300X)"),
    QT_TRANSLATE_NOOP(_CTX, "PCIe Gen3 x16"),
    QT_TRANSLATE_NOOP(_CTX, "PCIe Gen4 x16"),
    QT_TRANSLATE_NOOP(_CTX, "PCIe Gen5 x16"),
    QT_TRANSLATE_NOOP(_CTX, "InfiniBand NDR 400 Gb/s (ConnectX-7, Quantum-2)"),
    QT_TRANSLATE_NOOP(_CTX, "InfiniBand HDR 200 Gb/s (QSFP56)"),
    QT_TRANSLATE_NOOP(_CTX, "InfiniBand EDR 100 Gb/s"),
    QT_TRANSLATE_NOOP(_CTX, "InfiniBand XDR 800 Gb/s"),
    QT_TRANSLATE_NOOP(_CTX, "RoCE v2 400 GbE (ConnectX-7)"),
    QT_TRANSLATE_NOOP(_CTX, "RoCE v2 200 GbE (ConnectX-6 Dx / ConnectX-7)"),
    QT_TRANSLATE_NOOP(_CTX, "RoCE v2 100 GbE"),
    QT_TRANSLATE_NOOP(_CTX, "25 GbE commodity Ethernet (TCP, no RDMA)"),
    # the kinds of link a GPU row names (``intra_node_link``)
    QT_TRANSLATE_NOOP(_CTX, "nvlink"), QT_TRANSLATE_NOOP(_CTX, "pcie"), QT_TRANSLATE_NOOP(_CTX, "nvlink-bridge"),
    QT_TRANSLATE_NOOP(_CTX, "infinity-fabric"), QT_TRANSLATE_NOOP(_CTX, "hccs"), QT_TRANSLATE_NOOP(_CTX, "mlu-link"),
)
