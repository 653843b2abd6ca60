"""The network between nodes: read pasted ``ibstat`` / ``ibv_devinfo`` / ``ibstatus`` output and judge it against
the plan.

What each tool prints (formats from the tools' sources and real outputs in ``tests/data/net/README.md``):

* ``ibstat`` (infiniband-diags): ``CA 'mlx5_0'`` blocks, each with ``Port N:`` sub-blocks holding ``State:``
  (Down, Initializing, Armed, Active), ``Physical state:`` (Polling, Disabled, LinkUp ...), ``Rate:`` (the
  port's line rate in Gb/s: 100 EDR/HDR100, 200 HDR/NDR200, 400 NDR; for Ethernet the link speed) and
  ``Link layer:`` (``InfiniBand`` or ``Ethernet``; Ethernet on an RDMA NIC is RoCE).
* ``ibv_devinfo`` (rdma-core ``libibverbs/examples/devinfo.c``): ``hca_id: mlx5_0`` blocks with ``port: N``
  sub-blocks holding ``state: PORT_ACTIVE (4)`` and ``link_layer: InfiniBand|Ethernet``; the rate is only
  printed with ``-v``, as ``active_width: 4X (2)`` × ``active_speed: 50.0 Gbps (64)`` (lanes × Gb/s per
  lane). Older rdma-core prints ``invalid speed (128)`` for NDR; the code is read then (IBTA PortInfo
  encoding as in rdma-core's devinfo.c and NCCL's ``ibvSpeeds``: 1 = 2.5, 2 = 5, 4/8 = 10, 16 = 14,
  32 = 25, 64 = 50, 128 = 100 Gb/s per lane; widths 1 = 1X, 2 = 4X, 4 = 8X, 8 = 12X, 16 = 2X).
  ``transport: InfiniBand (0)`` is printed for RoCE ports too; only ``link_layer`` tells them apart.
* ``ibstatus``: ``Infiniband device 'mlx5_0' port 1 status:`` blocks with ``state: 4: ACTIVE``,
  ``rate: 400 Gb/sec (4X NDR)`` and ``link_layer: InfiniBand``.

The verdict compares the ports with the plan's inter-node fabric (``hardware.inter_node`` and
``nics_per_node``, or the time model's default for the GPU: :func:`gpuplanner.core.timing.gpu_time_facts`):
NDR 400 Gb/s InfiniBand for H100-class nodes, one NIC per GPU (gpu-catalog.md §2.2; networks.json). Checked:
active ports of the promised link layer at the promised rate vs the NICs the plan assumes; RoCE where
InfiniBand was promised (or the reverse); ports slower than promised; ports down. With ``nvidia-smi topo -m``
the NIC of each port is matched to its nearest GPUs (GPUDirect RDMA wants PIX/PXB, gpu-catalog.md §2.4).

Every parser is bounded (:data:`MAX_CHARS`) and names the line it cannot read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import PlannerError
from ..core.i18n import QT_TRANSLATE_NOOP
from ..core.messages import MsgStr, Msg
from .findings import Finding, findings_first, worst
from .topology import _looks_like_prompt, _short  # a pasted line, quoted short in a message

CTX = "Network"

#: One node's ibv_devinfo -v with 20 HCAs is about 120 kB; anything past 2 MB is not one node's output.
MAX_CHARS = 2_000_000
MAX_PORTS = 512


class NetworkError(PlannerError):
    """Output that cannot be read (the message names the line)."""


def _err(lineno: int, template: str, **params: Any) -> NetworkError:
    # the line's sentence keeps its id inside the frame (``+`` would give a plain str: shown in English)
    return NetworkError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "line {n}: {msg}"), n=lineno,
                                  msg=MsgStr.make(CTX, template, **params)))


# ------------------------------------------------------------------------------------------------ ports

#: IBTA PortInfo active_speed codes -> Gb/s per lane (rdma-core devinfo.c speed_str; NCCL ibvSpeeds).
SPEED_CODES = {1: 2.5, 2: 5.0, 4: 10.0, 8: 10.0, 16: 14.0, 32: 25.0, 64: 50.0, 128: 100.0}
#: active_width codes -> lanes (rdma-core devinfo.c width_str; UCX #6553: 16 means 2X).
WIDTH_CODES = {1: 1, 2: 4, 4: 8, 8: 12, 16: 2}
#: ibstat shows FDR as 56 and FDR10 as 40: the signalling rate. Names for the usual 4X rates.
RATE_NAMES = {10: "SDR", 20: "DDR", 40: "QDR", 56: "FDR", 100: "EDR/HDR100", 200: "HDR/NDR200", 400: "NDR",
              800: "XDR"}

_STATE_CANON = {
    "active": "Active", "port_active": "Active", "4": "Active",
    "down": "Down", "port_down": "Down", "1": "Down",
    "init": "Initializing", "initializing": "Initializing", "port_init": "Initializing", "2": "Initializing",
    "armed": "Armed", "port_armed": "Armed", "3": "Armed",
}


@dataclass
class Port:
    """One HCA port. ``rate_gbps`` is None when the output does not show it (plain ``ibv_devinfo``)."""

    device: str
    port: int
    link_layer: str | None  # "InfiniBand" | "Ethernet" | None (not printed)
    state: str  # "Active" | "Down" | "Initializing" | "Armed"
    rate_gbps: float | None = None
    phys_state: str | None = None
    line: int = 0  # where the port starts in the text

    @property
    def active(self) -> bool:
        return self.state == "Active"

    @property
    def kind(self) -> str:
        """'InfiniBand', 'RoCE' or '?'"""
        if self.link_layer == "Ethernet":
            return "RoCE"
        return self.link_layer or "?"

    def to_json(self) -> dict:
        return {"device": self.device, "port": self.port, "link_layer": self.link_layer, "state": self.state,
                "rate_gbps": self.rate_gbps, "phys_state": self.phys_state}


def _canon_state(raw: str) -> str | None:
    """'Active', 'PORT_ACTIVE (4)', '4: ACTIVE' -> 'Active'; None if unknown."""
    s = raw.strip()
    m = re.match(r"^(\d+)\s*:\s*(\w+)$", s)  # ibstatus "4: ACTIVE"
    if m:
        s = m.group(2)
    s = re.sub(r"\s*\(\d+\)\s*$", "", s)  # ibv_devinfo "PORT_ACTIVE (4)"
    return _STATE_CANON.get(s.lower())


def _canon_layer(raw: str) -> str | None:
    s = raw.strip().lower()
    if s in ("infiniband", "ib"):
        return "InfiniBand"
    if s in ("ethernet", "eth"):
        return "Ethernet"
    return None


_NUM = re.compile(r"^\d+(\.\d+)?$")


# ------------------------------------------------------------------------------------------------ parse

_CA_RE = re.compile(r"^CA\s+'([^']{1,64})'\s*$")
_HCA_RE = re.compile(r"^hca_id:\s*(\S{1,64})\s*$")
_IBSTATUS_RE = re.compile(r"^Infiniband device\s+'([^']{1,64})'\s+port\s+(\d{1,3})\s+status:\s*$", re.I)
_IBSTAT_PORT_RE = re.compile(r"^Port\s+(\d{1,3}):\s*$")
_DEVINFO_PORT_RE = re.compile(r"^port:\s+(\d{1,3})\s*$")
_KV_RE = re.compile(r"^([A-Za-z][A-Za-z0-9_ ./()\-\[\]]{0,60}?)\s*:\s*(.*)$")
_FLAG_RE = re.compile(r"^[A-Z0-9_ ]+(\s*\(.*\))?$|^[A-Za-z][A-Za-z0-9_\- ]*(offload|drop)$")
_GID_RE = re.compile(r"^GID\[\s*\d+\]\s*:")
_NOISE = ("ibwarn:", "ibpanic:", "failed to open device", "failed to query", "no ib devices found",
          "warning:", "ibstat:", "ibv_devinfo:")


def _is_prompt(line: str) -> bool:
    """A shell prompt or command line, in linear time (a regex with two open-ended word patterns around ``@``
    backtracks quadratically on a long unbroken word: :func:`topology._looks_like_prompt`)."""
    s = line.strip()
    if not s:
        return False
    if _looks_like_prompt(s) or s.startswith("+ "):
        return True
    first = s.split()[0]
    return first in ("ibstat", "ibv_devinfo", "ibstatus", "sudo") or first.endswith(("/ibstat", "/ibv_devinfo"))


def _decode(data: str | bytes) -> str:
    if isinstance(data, str):
        return data
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    return data.decode("utf-8-sig", errors="replace")


def _finish_port(c: dict, seen: set[tuple[str, int]], ports: list[Port]) -> None:
    """A port block read to its end: checked (a state, not twice, not too many) and added to ``ports``; the rate
    from width × speed when no rate line was given (ibv_devinfo -v)."""
    if c["state"] is None:
        raise _err(c["line"], QT_TRANSLATE_NOOP(CTX, "port {dev} {port} has no state line"), dev=c["device"],
                   port=c["port"])
    rate = c["rate"]
    if rate is None and c["width"] is not None and c["speed"] is not None:
        rate = c["width"] * c["speed"]
    key = (c["device"], c["port"])
    if key in seen:
        raise _err(c["line"], QT_TRANSLATE_NOOP(CTX, "port {dev} {port} appears twice"), dev=c["device"],
                   port=c["port"])
    seen.add(key)
    ports.append(Port(device=c["device"], port=c["port"], link_layer=c["layer"], state=c["state"],
                      rate_gbps=rate, phys_state=c["phys"], line=c["line"]))
    if len(ports) > MAX_PORTS:
        raise _err(c["line"], QT_TRANSLATE_NOOP(CTX, "more than {n} ports: not one node's output"), n=MAX_PORTS)


def _read_port_field(cur: dict, key: str, val: str, lineno: int) -> None:
    """One ``key: value`` line inside a port block (state, physical state, link layer, rate, width, speed)."""
    if key == "state":
        st = _canon_state(val)
        if st is None:
            raise _err(lineno, QT_TRANSLATE_NOOP(CTX, "unknown port state '{val}'"), val=_short(val, 30))
        cur["state"] = st
    elif key in ("physical state", "phys_state", "phys state"):
        cur["phys"] = re.sub(r"\s*\(\d+\)\s*$", "", re.sub(r"^\d+:\s*", "", val)) or None
    elif key in ("link layer", "link_layer"):
        layer = _canon_layer(val)
        if layer is None:
            raise _err(lineno, QT_TRANSLATE_NOOP(CTX, "unknown link layer '{val}' (expected InfiniBand or "
                                                      "Ethernet)"), val=_short(val, 30))
        cur["layer"] = layer
    elif key == "rate":
        m2 = re.match(r"^(\d+(?:\.\d+)?)\s*(gb/sec|gb/s|gbps)?\b", val, re.I)
        if not m2:
            raise _err(lineno, QT_TRANSLATE_NOOP(CTX, "rate: expected a number of Gb/s, got '{val}'"),
                       val=_short(val, 30))
        cur["rate"] = float(m2.group(1))
    elif key == "active_width":
        m2 = re.match(r"^(\d+)X\s*\((\d+)\)$", val) or re.match(r"^invalid width\s*\((\d+)\)$", val)
        if m2 and m2.lastindex == 2:
            cur["width"] = int(m2.group(1))
        elif m2 and int(m2.group(1)) in WIDTH_CODES:
            cur["width"] = WIDTH_CODES[int(m2.group(1))]
        else:
            raise _err(lineno, QT_TRANSLATE_NOOP(CTX, "active_width: expected like '4X (2)', got '{val}'"),
                       val=_short(val, 30))
    elif key == "active_speed":
        m2 = re.match(r"^(\d+(?:\.\d+)?)\s*Gbps\s*\((\d+)\)$", val)
        m3 = re.match(r"^invalid speed\s*\((\d+)\)$", val)
        if m2:
            cur["speed"] = float(m2.group(1))
        elif m3 and int(m3.group(1)) in SPEED_CODES:
            cur["speed"] = SPEED_CODES[int(m3.group(1))]
        else:
            raise _err(lineno, QT_TRANSLATE_NOOP(CTX, "active_speed: expected like '50.0 Gbps (64)', got "
                                                      "'{val}'"), val=_short(val, 30))


# long: a line-by-line parser: each branch decides what one line is, in order; a port's fields and its end are read by
#   their own functions
def parse_ports(text: str | bytes) -> list[Port]:
    """Read ``ibstat``, ``ibv_devinfo [-v]`` or ``ibstatus`` output (several may follow each other).

    Tolerates tabs, CRLF, shell prompts, ``ibwarn``/``Failed to open device`` noise and any extra fields;
    raises :class:`NetworkError` naming the first line that is none of these.
    """
    if len(text) > MAX_CHARS:
        raise NetworkError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "this is too long for ibstat/ibv_devinfo output (over {n} MB)"), n=MAX_CHARS // 1_000_000))
    text = _decode(text)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    ports: list[Port] = []
    device: str | None = None
    fmt: str | None = None  # "ibstat" | "devinfo" | "ibstatus"
    cur: dict | None = None
    seen: set[tuple[str, int]] = set()

    def close() -> None:
        nonlocal cur
        if cur is not None:
            c, cur = cur, None
            _finish_port(c, seen, ports)

    def open_port(dev: str, num: int, lineno: int) -> None:
        nonlocal cur
        close()
        cur = {"device": dev, "port": num, "line": lineno, "state": None, "layer": None, "rate": None,
               "width": None, "speed": None, "phys": None}

    for idx, raw in enumerate(lines):
        lineno = idx + 1
        line = raw.strip()
        if not line:
            continue
        low = line.lower()
        if low.startswith(_NOISE) or re.match(r"^\d+ hcas? found:?$", low) or line in ("...", "\u2026"):
            continue
        m = _CA_RE.match(line)
        if m:
            close()
            device, fmt = m.group(1), "ibstat"
            continue
        m = _HCA_RE.match(line)
        if m:
            close()
            device, fmt = m.group(1), "devinfo"
            continue
        m = _IBSTATUS_RE.match(line)
        if m:
            close()
            device, fmt = m.group(1), "ibstatus"
            open_port(device, int(m.group(2)), lineno)
            continue
        if device is None:
            if _is_prompt(raw):
                continue
            raise _err(lineno, QT_TRANSLATE_NOOP(
                CTX, "expected ibstat or ibv_devinfo output (a line like \"CA 'mlx5_0'\" or \"hca_id: mlx5_0\"), "
                     "got '{text}'"), text=_short(raw))
        if fmt == "ibstat":
            m = _IBSTAT_PORT_RE.match(line)
            if m:
                open_port(device, int(m.group(1)), lineno)
                continue
        if fmt == "devinfo":
            m = _DEVINFO_PORT_RE.match(line)
            if m:
                open_port(device, int(m.group(1)), lineno)
                continue
        if _GID_RE.match(line):
            continue
        kv = _KV_RE.match(line)
        if kv:
            key, val = kv.group(1).strip().lower(), kv.group(2).strip()
            if cur is None:
                continue  # device-level fields (CA type, fw_ver, max_qp ...)
            _read_port_field(cur, key, val, lineno)
            continue
        if fmt == "devinfo" and (_FLAG_RE.match(line) or low.endswith("not supported")):
            continue  # ibv_devinfo -v capability flag lists
        if _is_prompt(raw):
            close()
            device = None
            continue
        raise _err(lineno, QT_TRANSLATE_NOOP(CTX, "cannot read '{text}' in the output of {dev}"), text=_short(raw),
                   dev=device)
    close()
    if not ports:
        raise NetworkError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "no HCA port found: paste the output of 'ibstat' or 'ibv_devinfo -v' (the lines from \"CA '...'\" "
                 "or \"hca_id:\" on)")))
    return ports


# ---------------------------------------------------------------------------------------------- verdict


@dataclass
class PlannedNetwork:
    """What the plan assumes between nodes."""

    network: str  # catalog id, e.g. "ib-ndr-400"
    name: str
    link_layer: str  # "InfiniBand" | "Ethernet"
    gbps: float  # per NIC
    nics: int  # per node
    multi_node: bool
    source: str = ""  # "plan" | "default for the GPU" | "command line"

    def to_json(self) -> dict:
        return {"network": self.network, "name": self.name, "link_layer": self.link_layer, "gbps": self.gbps,
                "nics_per_node": self.nics, "multi_node": self.multi_node, "source": self.source}


def planned_network(network_id: str, nics: int | None = None, *, multi_node: bool = True,
                    source: str = "") -> PlannedNetwork:
    """A :class:`PlannedNetwork` from a catalog id (``ib-ndr-400``, ``roce-400`` ...)."""
    from ..core.catalog_hw import get_network

    net = get_network(network_id)
    if net.kind != "inter_node":
        raise NetworkError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "'{id}' is not an inter-node network"), id=net.id))
    layer = "InfiniBand" if net.id.startswith("ib-") else "Ethernet"
    return PlannedNetwork(network=net.id, name=net.name, link_layer=layer, gbps=float(net.gbps_per_nic or 0),
                          nics=int(nics or net.default_nics_per_node or 1), multi_node=multi_node, source=source)


def plan_network(scenario: Any) -> PlannedNetwork:
    """The fabric the plan's time model assumes (the scenario's ``hardware.inter_node``/``nics_per_node`` or the
    GPU generation's default, :func:`gpuplanner.core.timing.gpu_time_facts`)."""
    from ..core.timing import gpu_time_facts

    h = scenario.hardware
    gpu = h.gpu
    if h.custom_gpus:
        from ..core.catalog_hw import lookup_gpu

        gpu = lookup_gpu(h.gpu, h.custom_gpus)
    gf = gpu_time_facts(gpu, scenario.training.precision, intra_node=h.intra_node, inter_node=h.inter_node,
                        nics_per_node=h.nics_per_node, gpus_per_node=h.gpus_per_node)
    return planned_network(gf.inter_node, int(round(gf.nics_per_node)), multi_node=h.num_gpus > h.gpus_per_node,
                           source="plan" if h.inter_node else "default for the GPU")


@dataclass
class NetReport:
    ports: list[Port]
    plan: PlannedNetwork | None
    findings: list[Finding] = field(default_factory=list)
    affinity: dict[str, dict] = field(default_factory=dict)  # "mlx5_0" -> {"nic": "NIC0", "gpus": [...], "class"}

    @property
    def worst(self) -> str:
        return worst(self.findings)

    @property
    def active(self) -> list[Port]:
        return [p for p in self.ports if p.active]

    def to_json(self) -> dict:
        return {
            "ports": [p.to_json() for p in self.ports],
            "active_ports": len(self.active),
            "plan": self.plan.to_json() if self.plan else None,
            "affinity": self.affinity,
            "verdict": [f.text for f in self.findings],
            "findings": [f.to_json() for f in self.findings],
            "worst": self.worst,
        }


def _msg(text: str, **params: Any) -> Msg:
    return Msg(CTX, text, params)


def _port_list(ports: list[Port], limit: int = 6) -> str:
    names = [f"{p.device}/{p.port}" for p in ports]
    return ", ".join(names[:limit]) + (f" (+{len(names) - limit})" if len(names) > limit else "")


def _rate_label(gbps: float | None) -> str:
    if gbps is None:
        return "?"
    return f"{gbps:g} Gb/s"


#: A port this much below the promised rate is "slower" (rates are discrete: 200 vs 400, 100 vs 200).
_RATE_TOL = 0.95


def nic_affinity(ports: list[Port], topo: Any) -> dict[str, dict]:
    """Per device: its ``topo -m`` NIC column (by the NIC legend or a device-named column) and the GPUs closest
    to it with the link class."""
    from .topology import class_rank

    out: dict[str, dict] = {}
    by_name = {}
    for k, col in enumerate(topo.nics):
        by_name[topo.nic_names.get(col, col)] = k
    for dev in dict.fromkeys(p.device for p in ports):
        k = by_name.get(dev)
        if k is None:
            continue
        classes = [(i, topo.gpu_nic[i][k]) for i in range(topo.gpus) if topo.gpu_nic[i][k] is not None]
        if not classes:
            out[dev] = {"nic": topo.nics[k], "gpus": [], "class": None}
            continue
        best = min(class_rank(c) for _, c in classes)
        near = [i for i, c in classes if class_rank(c) == best]
        out[dev] = {"nic": topo.nics[k], "gpus": [f"GPU{i}" for i in near],
                    "class": next(c for _, c in classes if class_rank(c) == best)}
    return out


def diagnose_network(ports: list[Port], plan: PlannedNetwork | None = None, topo: Any = None) -> NetReport:
    """The verdict on one node's ports, against ``plan`` when given (findings first when something is wrong)."""
    rep = NetReport(ports=ports, plan=plan)
    add = rep.findings.append
    active = [p for p in ports if p.active]
    down = [p for p in ports if not p.active]
    _port_summary(ports, add)
    compute = _against_plan(active, plan, add)  # the ports whose GPU affinity matters
    if down:
        add(Finding("warn", _msg(QT_TRANSLATE_NOOP(
            CTX, "{k} port(s) not active ({states}): {ports}. A cable, a switch port or the subnet manager; ask "
                 "the vendor unless the port is unused on purpose."), k=len(down),
            states="/".join(sorted({p.state for p in down})), ports=_port_list(down))))
    if topo is not None:
        rep.affinity = nic_affinity(ports, topo)
        _affinity_findings(rep.affinity, compute, add)
    rep.findings = findings_first(rep.findings)
    return rep


def _port_summary(ports: list[Port], add) -> None:
    """What is there: active ports per link layer and rate; ports without a rate or a link layer."""
    active = [p for p in ports if p.active]
    ib = [p for p in active if p.link_layer == "InfiniBand"]
    eth = [p for p in active if p.link_layer == "Ethernet"]
    parts = []
    for layer, group in (("InfiniBand", ib), ("RoCE", eth)):
        rates: dict[str, int] = {}
        for p in group:
            rates[_rate_label(p.rate_gbps)] = rates.get(_rate_label(p.rate_gbps), 0) + 1
        for r, k in sorted(rates.items()):
            parts.append(f"{k} × {layer} {r}")
    unknown_layer = [p for p in active if p.link_layer is None]
    if unknown_layer:
        parts.append(f"{len(unknown_layer)} × ?")
    add(Finding("info", _msg(QT_TRANSLATE_NOOP(CTX, "{n} of {total} ports active: {summary}."),
                             n=len(active), total=len(ports), summary="; ".join(parts) or "—")))
    if any(p.rate_gbps is None for p in active):
        add(Finding("info", _msg(QT_TRANSLATE_NOOP(
            CTX, "The output shows no rate for some ports (plain ibv_devinfo): paste 'ibstat' or 'ibv_devinfo -v' "
                 "to check the speed."))))
    if unknown_layer:
        add(Finding("warn", _msg(QT_TRANSLATE_NOOP(
            CTX, "No link layer printed for {ports}: an old ibv_devinfo; 'ibstat' tells InfiniBand from RoCE."),
            ports=_port_list(unknown_layer))))


def _against_plan(active: list[Port], plan: PlannedNetwork | None, add) -> set[str]:
    """The active ports against the plan's inter-node fabric (link layer, rate, NICs per node); returns the
    devices that carry the fabric (all active ports when there is no plan)."""
    compute = {p.device for p in active}
    if plan is not None and not plan.multi_node:
        add(Finding("info", _msg(QT_TRANSLATE_NOOP(
            CTX, "The plan fits in one node: the network between nodes is not used for training."))))
    elif plan is not None:
        want_layer = plan.link_layer
        want_kind = "RoCE" if want_layer == "Ethernet" else "InfiniBand"
        other_kind = "InfiniBand" if want_layer == "Ethernet" else "RoCE"
        same = [p for p in active if p.link_layer == want_layer]
        other = [p for p in active if p.link_layer not in (want_layer, None)]
        fast = [p for p in same if p.rate_gbps is None or p.rate_gbps >= _RATE_TOL * plan.gbps]
        slow = [p for p in same if p.rate_gbps is not None and p.rate_gbps < _RATE_TOL * plan.gbps]
        if len(fast) >= plan.nics:
            add(Finding("ok", _msg(QT_TRANSLATE_NOOP(
                CTX, "{k} active {kind} ports at {rate} or more: the {n} NICs per node of the plan ({name}) are "
                     "there."), k=len(fast), kind=want_kind, rate=_rate_label(plan.gbps), n=plan.nics,
                name=plan.name)))
        else:
            # the other link layer is the fabric when it has more active ports than the promised one (a node
            # with 7 InfiniBand ports and 2 Ethernet storage ports is short of one port, not on RoCE)
            mismatch = len(other) > len(same)
            if mismatch:
                rates = sorted({p.rate_gbps for p in other if p.rate_gbps is not None})
                add(Finding("bad", _msg(QT_TRANSLATE_NOOP(
                    CTX, "The plan assumes {kind} ({name}), but {k} active ports are {other} ({rates} Gb/s): "
                         "{ports}. The fabric is not the one promised; ask the vendor, and re-plan with "
                         "hardware.inter_node set to what is there."), kind=want_kind, name=plan.name, k=len(other),
                    other=other_kind, rates="/".join(f"{r:g}" for r in rates) or "?", ports=_port_list(other))))
            if slow:
                rates = sorted({p.rate_gbps for p in slow})
                add(Finding("bad", _msg(QT_TRANSLATE_NOOP(
                    CTX, "{k} {kind} ports run at {rates} Gb/s, below the {want} the plan assumes ({name}): "
                         "{ports}."), k=len(slow), kind=want_kind, rates="/".join(f"{r:g}" for r in rates),
                    want=_rate_label(plan.gbps), name=plan.name, ports=_port_list(slow))))
            if not mismatch:
                add(Finding("bad", _msg(QT_TRANSLATE_NOOP(
                    CTX, "Only {k} active {kind} ports at {rate} or more; the plan assumes {n} per node: inter-node "
                         "bandwidth is {pct:.0f}% of the plan's."), k=len(fast), kind=want_kind,
                    rate=_rate_label(plan.gbps), n=plan.nics, pct=100.0 * len(fast) / plan.nics)))
            compute = {p.device for p in (other if mismatch else same)}
        if len(fast) >= plan.nics:
            compute = {p.device for p in same}
        if not active:
            add(Finding("bad", _msg(QT_TRANSLATE_NOOP(CTX, "No port is active: this node cannot reach the others "
                                                           "over RDMA; NCCL would fall back to TCP sockets."))))
    return compute


def _affinity_findings(affinity: dict[str, dict], compute: set[str], add) -> None:
    """NICs of the fabric without a GPU at PIX/PXB distance (GPUDirect RDMA through the CPU)."""
    far = [dev for dev, a in affinity.items() if a["class"] not in (None, "PIX", "PXB") and dev in compute]
    near = [dev for dev, a in affinity.items() if a["class"] in ("PIX", "PXB") and dev in compute]
    if far:
        add(Finding("warn", _msg(QT_TRANSLATE_NOOP(
            CTX, "{devs}: no GPU at PIX/PXB distance (nvidia-smi topo -m); GPUDirect RDMA through the CPU is "
                 "slower."), devs=", ".join(far))))
    elif near:
        add(Finding("ok", _msg(QT_TRANSLATE_NOOP(CTX, "Every active NIC found in topo -m has a GPU at PIX/PXB "
                                                      "distance ({k} NICs)."), k=len(near))))


def format_ports(ports: list[Port]) -> str:
    """The ports as a text table."""
    rows = [("device", "port", "link layer", "state", "rate Gb/s", "physical")]
    for p in ports:
        rows.append((p.device, str(p.port), p.kind, p.state, "?" if p.rate_gbps is None else f"{p.rate_gbps:g}",
                     p.phys_state or ""))
    widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in rows)
