"""The health of every card: pasted ``nvidia-smi -q``, ``dmesg`` Xid lines, ``npu-smi info`` (Ascend) and
``rocm-smi`` (AMD), and a verdict with the problems first.

What is read, and why it matters for a rental (sources in each rule below and in ``tests/data/health/README.md``):

* temperatures against the card's own slowdown / max-operating temperatures (``nvidia-smi -q`` prints them);
* clocks event (throttle) reasons: HW Slowdown, HW Thermal / Power Brake Slowdown and SW Thermal Slowdown mean the
  card is slowed by heat or power delivery (nvidia-smi man page: "HW Slowdown ... reducing the core clocks by a
  factor of 2 or more"); SW Power Cap means it runs at its power limit;
* the power limit against the catalog TDP (a card capped below its TDP trains slower: power ≈ clocks);
* ECC: volatile uncorrectable errors, retired pages / remapped rows pending a reset, row-remapping failures
  (NVIDIA "A100 GPU memory error management", docs.nvidia.com/deploy/a100-gpu-mem-error-mgmt: a pending remap
  needs a GPU reset; a remapping failure means the card should be replaced);
* Xid events in the kernel log (NVIDIA Xid catalog, docs.nvidia.com/deploy/xid-errors): 48 double-bit ECC,
  63/64 page retirement / row remapping, 74 NVLink, 79 fallen off the bus, 94/95 contained/uncontained ECC ...;
* processes on the GPUs and memory already in use (the machine is not dedicated, or a previous job is left);
* the driver's CUDA version against what the frameworks need (CUDA minor-version compatibility: CUDA 12.x
  runtimes need a driver ≥ 525, docs.nvidia.com/deploy/cuda-compatibility; Hopper needs CUDA ≥ 11.8 and
  Blackwell CUDA ≥ 12.8, the first toolkits with sm_90 / sm_100 in the CUDA Toolkit release notes);
* Ascend ``npu-smi info``: Health column (OK / Warning / Alarm / Critical), HBM in use, processes;
* AMD ``rocm-smi``: temperature, power cap against the catalog TDP, VRAM% and GPU% while idle.

All parsers are bounded (:data:`MAX_CHARS`) and raise :class:`HealthError` naming the line they cannot read.
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

CTX = "Health"
MAX_CHARS = 4_000_000  # nvidia-smi -q of 16 GPUs is ~150 kB; a week of dmesg fits in a few MB


class HealthError(PlannerError):
    """Output that cannot be read (the message names the line)."""


def _err(lineno: int, template: str, **params: Any) -> HealthError:
    # the line's sentence keeps its id inside the frame (``+`` would give a plain str: shown in English)
    return HealthError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "line {n}: {msg}"), n=lineno,
                                  msg=MsgStr.make(CTX, template, **params)))


def _decode(data: str | bytes) -> str:
    if len(data) > MAX_CHARS:
        raise HealthError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "this is too long for tool output (over {n} MB)"), n=MAX_CHARS // 1_000_000))
    if isinstance(data, bytes):
        if data.startswith((b"\xff\xfe", b"\xfe\xff")):
            data = data.decode("utf-16", errors="replace")
        else:
            data = data.decode("utf-8-sig", errors="replace")
    return data.replace("\r\n", "\n").replace("\r", "\n")


def _msg(text: str, **params: Any) -> Msg:
    return Msg(CTX, text, params)


def _is_prompt(line: str) -> bool:
    """A shell prompt line, in linear time (:func:`topology._looks_like_prompt`)."""
    s = line.strip()
    # topology's helper also takes any line naming nvidia-smi for a command line; here such a line must still be
    # judged (the nvidia-smi -q reader skips lines that start with the command itself)
    s = s.replace("nvidia-smi", "smi")
    return bool(s) and (s.startswith("+ ") or _looks_like_prompt(s))


def _num(text: str | None) -> float | None:
    if text is None:
        return None
    m = re.match(r"^\s*([-+]?\d+(?:\.\d+)?)", text)
    return float(m.group(1)) if m else None


# ----------------------------------------------------------------------------------------- nvidia-smi -q


@dataclass
class GpuHealth:
    """One GPU from ``nvidia-smi -q``; None where the output does not show the field."""

    index: int
    bus_id: str | None = None
    name: str | None = None
    temp_c: float | None = None
    slowdown_temp_c: float | None = None
    shutdown_temp_c: float | None = None
    max_operating_temp_c: float | None = None
    mem_temp_c: float | None = None
    power_draw_w: float | None = None
    power_limit_w: float | None = None
    default_power_limit_w: float | None = None
    max_power_limit_w: float | None = None
    sm_clock_mhz: float | None = None
    max_sm_clock_mhz: float | None = None
    throttle_active: list[str] = field(default_factory=list)
    throttle_seen: bool = False  # the output has a clocks event / throttle reasons section
    ecc_volatile_uncorrected: int | None = None
    ecc_volatile_corrected: int | None = None
    ecc_aggregate_uncorrected: int | None = None
    retired_sbe: int | None = None
    retired_dbe: int | None = None
    retired_pending: bool | None = None
    remapped_correctable: int | None = None
    remapped_uncorrectable: int | None = None
    remap_pending: bool | None = None
    remap_failure: bool | None = None
    memory_used_mib: float | None = None
    memory_total_mib: float | None = None
    processes: list[dict] = field(default_factory=list)

    def to_json(self) -> dict:
        return dict(vars(self))


@dataclass
class _Node:
    key: str
    value: str | None
    line: int
    children: list["_Node"] = field(default_factory=list)

    def find(self, *names: str) -> "_Node | None":
        for c in self.children:
            if c.key.lower() in names:
                return c
        return None

    def val(self, *path: str) -> str | None:
        node: _Node | None = self
        for name in path:
            node = node.find(*[n.lower() for n in name.split("|")]) if node else None
        return node.value if node else None


_HEADER_RE = re.compile(r"^[A-Z][A-Za-z0-9 .()/#+\-]{0,80}$")
_KEY_RE = re.compile(r"[A-Za-z][A-Za-z0-9 .()/#+\-\[\]]{0,80}")
_GPU_RE = re.compile(r"^GPU\s+([0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-9A-Fa-f])$")


def _key_value(s: str) -> tuple[str, str] | None:
    """``Key : value`` split at the first colon, the key checked on its own (linear: a regex with a lazy key
    followed by ``\\s*:`` retried every key length over a long run of spaces)."""
    colon = s.find(":")
    if colon < 0:
        return None
    key = s[:colon].rstrip()
    return (key, s[colon + 1:].strip()) if _KEY_RE.fullmatch(key) else None


def _tree(lines: list[str]) -> tuple[_Node, list[str]]:
    """An indentation tree of ``nvidia-smi -q`` lines; unknown lines raise naming the line."""
    root = _Node("", None, 0)
    stack: list[tuple[int, _Node]] = [(-1, root)]
    seen_field = False
    for idx, raw in enumerate(lines):
        lineno = idx + 1
        if not raw.strip():
            continue
        line = raw.expandtabs(8).rstrip()
        s = line.strip()
        if (s.startswith("=") and "NVSMI LOG" in s or s in ("--",) or _is_prompt(raw) or s.startswith("Timestamp")
                or s.startswith("nvidia-smi")):
            if s.startswith("Timestamp"):
                seen_field = True
            continue
        indent = len(line) - len(line.lstrip())
        kv = _key_value(s)
        if kv and not _GPU_RE.match(s):
            key, val = kv
        elif _GPU_RE.match(s) or _HEADER_RE.match(s):
            key, val = s, None
        else:
            raise _err(lineno, QT_TRANSLATE_NOOP(CTX, "not a line of 'nvidia-smi -q' output: '{text}'"),
                       text=_short(raw))
        seen_field = True
        while stack and stack[-1][0] >= indent:
            stack.pop()
        node = _Node(key, val, lineno)
        stack[-1][1].children.append(node)
        stack.append((indent, node))
    if not seen_field:
        raise HealthError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "empty input: paste the output of 'nvidia-smi -q'")))
    return root, lines


def _int(v: str | None) -> int | None:
    n = _num(v)
    return None if n is None else int(n)


def _yes(v: str | None) -> bool | None:
    if v is None:
        return None
    s = v.strip().lower()
    if s in ("yes", "true"):
        return True
    if s in ("no", "false"):
        return False
    return None


def _sum(*vals: int | None) -> int | None:
    known = [v for v in vals if v is not None]
    return sum(known) if known else None


def _uncorrectable(ecc: _Node) -> int | None:
    """Uncorrectable ECC errors of one counter block (``Volatile`` or ``Aggregate``) of ``nvidia-smi -q``: the SRAM
    and DRAM counts of current drivers, or the older ``Double Bit`` total; None when it lists none."""
    return _sum(_int(ecc.val("SRAM Uncorrectable")), _int(ecc.val("SRAM Uncorrectable Parity")),
                _int(ecc.val("SRAM Uncorrectable SEC-DED")), _int(ecc.val("DRAM Uncorrectable")),
                _int(ecc.val("Double Bit", "Total")))


def _gpu_from(node: _Node, index: int) -> GpuHealth:
    g = GpuHealth(index=index)
    m = _GPU_RE.match(node.key)
    g.bus_id = m.group(1) if m else None
    g.name = node.val("Product Name")
    t = node.find("temperature")
    if t:
        g.temp_c = _num(t.val("GPU Current Temp"))
        g.slowdown_temp_c = _num(t.val("GPU Slowdown Temp"))
        g.shutdown_temp_c = _num(t.val("GPU Shutdown Temp"))
        g.max_operating_temp_c = _num(t.val("GPU Max Operating Temp"))
        g.mem_temp_c = _num(t.val("Memory Current Temp"))
    p = node.find("gpu power readings", "power readings")
    if p:
        g.power_draw_w = _num(p.val("Power Draw|Average Power Draw|Instantaneous Power Draw"))
        g.power_limit_w = _num(p.val("Current Power Limit|Power Limit|Enforced Power Limit"))
        g.default_power_limit_w = _num(p.val("Default Power Limit"))
        g.max_power_limit_w = _num(p.val("Max Power Limit"))
    c = node.find("clocks")
    if c:
        g.sm_clock_mhz = _num(c.val("SM"))
    c = node.find("max clocks")
    if c:
        g.max_sm_clock_mhz = _num(c.val("SM"))
    r = node.find("clocks event reasons", "clocks throttle reasons", "clocks_throttle_reasons")
    if r:
        g.throttle_seen = True
        stack = list(r.children)
        while stack:
            n = stack.pop(0)
            if (n.value or "").strip().lower() == "active":
                g.throttle_active.append(n.key)
            stack[:0] = n.children
    fb = node.find("fb memory usage")
    if fb:
        g.memory_used_mib = _num(fb.val("Used"))
        g.memory_total_mib = _num(fb.val("Total"))
    e = node.find("ecc errors")
    if e:
        vol, agg = e.find("volatile"), e.find("aggregate")
        if vol:
            g.ecc_volatile_uncorrected = _uncorrectable(vol)
            g.ecc_volatile_corrected = _sum(_int(vol.val("SRAM Correctable")), _int(vol.val("DRAM Correctable")),
                                            _int(vol.val("Single Bit", "Total")))
        if agg:
            g.ecc_aggregate_uncorrected = _uncorrectable(agg)
    rp = node.find("retired pages")
    if rp:
        sbe, dbe = rp.find("single bit ecc"), rp.find("double bit ecc")
        g.retired_sbe = _int(sbe.value) if sbe and sbe.value else _int(sbe.val("Count")) if sbe else None
        g.retired_dbe = _int(dbe.value) if dbe and dbe.value else _int(dbe.val("Count")) if dbe else None
        g.retired_pending = _yes(rp.val("Pending Page Blacklist|Pending Page Retirement|Pending"))
    rr = node.find("remapped rows")
    if rr:
        g.remapped_correctable = _int(rr.val("Correctable Error"))
        g.remapped_uncorrectable = _int(rr.val("Uncorrectable Error"))
        g.remap_pending = _yes(rr.val("Pending"))
        g.remap_failure = _yes(rr.val("Remapping Failure Occurred"))
    pr = node.find("processes")
    if pr:
        # "Process ID : 1234" with Type / Name / Used GPU Memory indented under it (nvidia-smi -q)
        for child in pr.children:
            if child.key.lower() == "process id":
                g.processes.append({"pid": _int(child.value), "name": child.val("Name|Process Name"),
                                    "type": child.val("Type"), "memory_mib": _num(child.val("Used GPU Memory"))})
    return g


def parse_nvidia_smi_q(text: str | bytes) -> tuple[dict, list[GpuHealth]]:
    """``nvidia-smi -q`` (whole, or an excerpt such as ``-d TEMPERATURE`` or a ``grep -A`` of one section):
    ``({"driver": ..., "cuda": ...}, [GpuHealth, ...])``. An excerpt without a ``GPU 0000:..`` line is read as one
    GPU."""
    text = _decode(text)
    root, _ = _tree(text.split("\n"))
    info = {"driver": None, "cuda": None}
    gpus: list[GpuHealth] = []
    loose = _Node("", None, 0)
    for node in root.children:
        k = node.key.lower()
        if k == "driver version":
            info["driver"] = node.value
        elif k in ("cuda version",):
            info["cuda"] = node.value
        elif _GPU_RE.match(node.key):
            gpus.append(_gpu_from(node, len(gpus)))
        else:
            loose.children.append(node)
    if not gpus and loose.children:
        g = _gpu_from(loose, 0)
        if any(v not in (None, [], 0) for k, v in vars(g).items() if k != "index"):
            gpus.append(g)
    if not gpus and info["driver"] is None:
        first = root.children[0] if root.children else None
        raise _err(first.line if first else 1, QT_TRANSLATE_NOOP(
            CTX, "no GPU section found: paste the output of 'nvidia-smi -q' (from '==NVSMI LOG==' on)"))
    return info, gpus


# ----------------------------------------------------------------------------------------------- dmesg Xid

#: Xid codes: (meaning, severity); NVIDIA Xid catalog, docs.nvidia.com/deploy/xid-errors (analyzing-xid-catalog).
#: "bad" = hardware or driver state the vendor must fix (resolution RESET_GPU / CONTACT_SUPPORT / node
#: drain); "warn" = usually the application or a recoverable event worth a look.
XID_CODES: dict[int, tuple[str, str]] = {
    13: (QT_TRANSLATE_NOOP(CTX, "graphics engine exception (usually the application)"), "warn"),
    31: (QT_TRANSLATE_NOOP(CTX, "GPU memory page fault (usually the application)"), "warn"),
    43: (QT_TRANSLATE_NOOP(CTX, "GPU stopped processing (usually the application)"), "warn"),
    45: (QT_TRANSLATE_NOOP(CTX, "preemptive cleanup after a previous error"), "warn"),
    48: (QT_TRANSLATE_NOOP(CTX, "double-bit ECC error"), "bad"),
    61: (QT_TRANSLATE_NOOP(CTX, "internal micro-controller breakpoint/warning"), "bad"),
    62: (QT_TRANSLATE_NOOP(CTX, "internal micro-controller halt"), "bad"),
    63: (QT_TRANSLATE_NOOP(CTX, "ECC page retirement or row remapping recorded (reset the GPU)"), "warn"),
    64: (QT_TRANSLATE_NOOP(CTX, "ECC page retirement or row remapping failed"), "bad"),
    74: (QT_TRANSLATE_NOOP(CTX, "NVLink error"), "bad"),
    79: (QT_TRANSLATE_NOOP(CTX, "GPU has fallen off the bus"), "bad"),
    92: (QT_TRANSLATE_NOOP(CTX, "high single-bit ECC error rate"), "warn"),
    94: (QT_TRANSLATE_NOOP(CTX, "contained ECC error"), "warn"),
    95: (QT_TRANSLATE_NOOP(CTX, "uncontained ECC error"), "bad"),
    119: (QT_TRANSLATE_NOOP(CTX, "GSP RPC timeout"), "bad"),
    120: (QT_TRANSLATE_NOOP(CTX, "GSP error"), "bad"),
}
_XID_RE = re.compile(r"NVRM: Xid \((?:PCI:)?([0-9A-Fa-f:.]{4,16})\): (\d{1,4}),\s*(.*)$")
_GPU_LINE_RE = re.compile(r"NVRM: The NVIDIA GPU ([0-9A-Fa-f:.]{4,16})\s*$")
# the GPU named before "fallen off the bus": matched in the text before those words, with bounded quantifiers only
# (``…([0-9a-f:.]{4,16}).*fallen off the bus`` searched from every "NVRM: GPU" of a long line: quadratic)
_FALLEN_RE = re.compile(r"NVRM: (?:The NVIDIA )?GPU (?:at PCI:)?([0-9A-Fa-f:.]{4,16})", re.I)
_FALLEN_LAST_RE = re.compile(r".*(fallen off the bus)", re.I | re.S)  # anchored (match): one scan to the last one


@dataclass
class XidEvent:
    pci: str
    code: int
    text: str
    line: int

    def to_json(self) -> dict:
        return {"pci": self.pci, "code": self.code, "text": self.text, "line": self.line}


def parse_xid(text: str | bytes) -> list[XidEvent]:
    """Xid events in ``dmesg`` / ``journalctl -k`` text (any other line is ignored: kernel logs are free-form)."""
    text = _decode(text)
    out: list[XidEvent] = []
    gpu_line: tuple[str, int] | None = None  # "NVRM: The NVIDIA GPU 0000:b3:00.0" (newer drivers wrap the message)
    for idx, raw in enumerate(text.split("\n")):
        m = _XID_RE.search(raw)
        if m:
            out.append(XidEvent(m.group(1), int(m.group(2)), _short(m.group(3), 120), idx + 1))
            continue
        fallen = _FALLEN_LAST_RE.match(raw)
        m = _FALLEN_RE.search(raw, 0, fallen.start(1)) if fallen else None
        if m:
            out.append(XidEvent(m.group(1), 79, "GPU has fallen off the bus", idx + 1))
            continue
        m = _GPU_LINE_RE.search(raw)
        if m:
            gpu_line = (m.group(1), idx + 1)
            continue
        if gpu_line and idx + 1 - gpu_line[1] <= 3 and "fallen off the bus" in raw:
            out.append(XidEvent(gpu_line[0], 79, "GPU has fallen off the bus", gpu_line[1]))
            gpu_line = None
    return out


# ----------------------------------------------------------------------------------------------- npu-smi


@dataclass
class NpuHealth:
    npu: int
    chip: int
    name: str
    health: str
    power_w: float | None
    temp_c: float | None
    aicore_pct: float | None
    hbm_used_mb: float | None
    hbm_total_mb: float | None
    bus_id: str | None = None

    def to_json(self) -> dict:
        return dict(vars(self))


def parse_npu_smi(text: str | bytes) -> tuple[dict, list[NpuHealth], list[dict]]:
    """``npu-smi info`` (Ascend): ``({"version": ...}, [NpuHealth], [processes])``.

    Layout (npu-smi 23.x-25.x): per chip two table rows — ``| NPU Name | Health | Power(W) Temp(C)
    Hugepages-Usage(page) |`` and ``| Chip [Phy-ID] | Bus-Id | AICore(%) Memory-Usage(MB) HBM-Usage(MB) |``; then a
    process table (``| NPU Chip | Process id | Process name | Process memory(MB) |`` or ``No running processes
    found in NPU n``).
    """
    text = _decode(text)
    lines = text.split("\n")
    info: dict = {"version": None}
    npus: list[NpuHealth] = []
    procs: list[dict] = []
    pending: tuple[int, list[str]] | None = None
    in_procs = False
    saw_table = False
    for idx, raw in enumerate(lines):
        lineno = idx + 1
        s = raw.strip()
        if not s or _is_prompt(raw) or re.match(r"^\+[-=+]*\+?$", s):
            continue
        if not s.startswith("|"):
            if saw_table:
                continue  # text after the table
            raise _err(lineno, QT_TRANSLATE_NOOP(CTX, "not a line of 'npu-smi info' output: '{text}'"),
                       text=_short(raw))
        saw_table = True
        cells = [c.strip() for c in s.strip("|").split("|")]
        m = re.match(r"^npu-smi\s+(\S+)", cells[0])
        if m:
            info["version"] = m.group(1)
            continue
        head = " ".join(cells).lower()
        if head.startswith("npu") and ("health" in head or "process id" in head):
            in_procs = "process id" in head
            continue
        if head.startswith("chip") and ("bus-id" in head or "aicore" in head):
            continue
        if "no running processes" in head:
            continue
        if in_procs:
            if len(cells) >= 4 and re.match(r"^\d+\s+\d+$", cells[0]):
                npu_id, chip = (int(x) for x in cells[0].split())
                procs.append({"npu": npu_id, "chip": chip, "pid": _int(cells[1]), "name": cells[2],
                              "memory_mb": _num(cells[3])})
                continue
            raise _err(lineno, QT_TRANSLATE_NOOP(CTX, "cannot read this npu-smi process row: '{text}'"),
                       text=_short(raw))
        if len(cells) != 3:
            raise _err(lineno, QT_TRANSLATE_NOOP(CTX, "expected an npu-smi row with 3 columns, got '{text}'"),
                       text=_short(raw))
        if pending is None:
            m = re.match(r"^(\d+)\s+(.+)$", cells[0])
            if not m:
                raise _err(lineno, QT_TRANSLATE_NOOP(CTX, "expected '| NPU Name | Health | ...', got '{text}'"),
                           text=_short(raw))
            pending = (lineno, [m.group(1), m.group(2).strip(), cells[1], cells[2]])
            continue
        first_line, (npu_id, name, health, right1) = pending
        pending = None
        chip_m = re.match(r"^(\d+)", cells[0])
        if not chip_m:
            raise _err(lineno, QT_TRANSLATE_NOOP(CTX, "expected '| Chip | Bus-Id | ...', got '{text}'"),
                       text=_short(raw))
        r1 = right1.split()
        power = _num(r1[0]) if r1 and r1[0] != "-" else None
        temp = _num(r1[1]) if len(r1) > 1 else None
        r2 = cells[2]
        aicore = _num(r2.split()[0]) if r2.split() else None
        fracs = re.findall(r"(\d+(?:\.\d+)?)\s*/\s*(\d+(?:\.\d+)?)", r2)
        hbm_used, hbm_total = (float(fracs[-1][0]), float(fracs[-1][1])) if fracs else (None, None)
        npus.append(NpuHealth(npu=int(npu_id), chip=int(chip_m.group(1)), name=name, health=health, power_w=power,
                              temp_c=temp, aicore_pct=aicore, hbm_used_mb=hbm_used, hbm_total_mb=hbm_total,
                              bus_id=cells[1] or None))
    if pending is not None:
        raise _err(pending[0], QT_TRANSLATE_NOOP(CTX, "the npu-smi row for NPU {n} has no chip row after it"),
                   n=pending[1][0])
    if not npus:
        raise HealthError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "no NPU rows found: paste the output of 'npu-smi info'")))
    return info, npus, procs


# ----------------------------------------------------------------------------------------------- rocm-smi


@dataclass
class AmdHealth:
    device: int
    temp_c: float | None
    power_w: float | None
    power_cap_w: float | None
    sclk_mhz: float | None
    vram_pct: float | None
    gpu_pct: float | None

    def to_json(self) -> dict:
        return dict(vars(self))


def parse_rocm_smi(text: str | bytes) -> list[AmdHealth]:
    """``rocm-smi`` (the concise table): old layout ``GPU Temp AvgPwr SCLK MCLK Fan Perf PwrCap VRAM% GPU%`` and the
    ROCm 6 layout ``Device Node IDs Temp Power Partitions SCLK MCLK Fan Perf PwrCap VRAM% GPU%`` (with a second
    header line of units; ``IDs`` and ``Partitions`` cells contain ``, ``)."""
    text = _decode(text)
    header: list[str] | None = None
    out: list[AmdHealth] = []
    for idx, raw in enumerate(text.split("\n")):
        lineno = idx + 1
        s = raw.strip()
        if not s or _is_prompt(raw) or s.startswith("=") or "ROCm System Management" in s or "End of ROCm SMI" in s:
            continue
        toks = s.split()
        if toks[0] in ("GPU", "Device") and "Temp" in toks:
            header = toks
            continue
        if header is None:
            raise _err(lineno, QT_TRANSLATE_NOOP(
                CTX, "expected the rocm-smi table header ('GPU  Temp  AvgPwr ...' or 'Device  Node  IDs  Temp ...'), "
                     "got '{text}'"), text=_short(raw))
        if s.startswith("("):
            continue  # the units line under the ROCm 6 header
        merged: list[str] = []
        for t in toks:
            if merged and merged[-1].endswith(","):
                merged[-1] += " " + t
            else:
                merged.append(t)
        if not merged[0].isdigit():
            if out:
                continue  # warnings or text after the table
            raise _err(lineno, QT_TRANSLATE_NOOP(CTX, "expected a rocm-smi row starting with the device number, got "
                                                      "'{text}'"), text=_short(raw))
        if len(merged) != len(header):
            raise _err(lineno, QT_TRANSLATE_NOOP(CTX, "rocm-smi row has {got} columns, the header {want}: '{text}'"),
                       got=len(merged), want=len(header), text=_short(raw))
        row = dict(zip(header, merged))
        out.append(AmdHealth(device=int(merged[0]), temp_c=_num(row.get("Temp")),
                             power_w=_num(row.get("AvgPwr") or row.get("Power")), power_cap_w=_num(row.get("PwrCap")),
                             sclk_mhz=_num(row.get("SCLK")), vram_pct=_num(row.get("VRAM%")),
                             gpu_pct=_num(row.get("GPU%"))))
    if not out:
        raise HealthError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "no GPU rows found: paste the output of 'rocm-smi'")))
    return out


# ------------------------------------------------------------------------------------------------ verdict

#: Throttle reasons that mean heat or power delivery slows the card (nvidia-smi man page, "Clocks Event Reasons").
SLOWDOWN_REASONS = ("hw slowdown", "hw thermal slowdown", "hw power brake slowdown", "sw thermal slowdown")
#: A power limit this far below the TDP is a cap (limits are set in whole watts; 5 % margin for rounding and
#: SKUs whose default limit is a little under the datasheet's TDP).
POWER_CAP_MARGIN = 0.95
#: Memory in use on an idle card above this (MiB) suggests another tenant or a leftover job: the CUDA context of a
#: process takes ~0.5 GiB (gpu-catalog / core memory model), an idle card under 100 MiB.
IDLE_MEMORY_MIB = 1024
#: HBM an idle Ascend 910/910B chip reports in use (runtime reservation; real idle samples: 2874-3419 MB).
NPU_IDLE_HBM_MB = 3500


@dataclass
class HealthReport:
    kind: str  # "nvidia" | "ascend" | "amd" | "dmesg"
    driver: str | None = None
    cuda: str | None = None
    gpus: list[GpuHealth] = field(default_factory=list)
    npus: list[NpuHealth] = field(default_factory=list)
    amd: list[AmdHealth] = field(default_factory=list)
    processes: list[dict] = field(default_factory=list)
    xids: list[XidEvent] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)

    @property
    def worst(self) -> str:
        return worst(self.findings)

    def to_json(self) -> dict:
        return {"kind": self.kind, "driver": self.driver, "cuda": self.cuda,
                "gpus": [g.to_json() for g in self.gpus], "npus": [n.to_json() for n in self.npus],
                "amd": [a.to_json() for a in self.amd], "processes": self.processes,
                "xids": [x.to_json() for x in self.xids],
                "verdict": [f.text for f in self.findings], "findings": [f.to_json() for f in self.findings],
                "worst": self.worst}


def _gpu_names(idx: list[int]) -> str:
    return ", ".join(f"GPU{i}" for i in idx)


def _version_tuple(v: str | None) -> tuple[int, ...] | None:
    if not v:
        return None
    parts = re.findall(r"\d+", v)
    return tuple(int(p) for p in parts[:3]) if parts else None


def _catalog_gpu(gpu_id: str | None):
    if not gpu_id:
        return None
    from ..core.catalog_hw import lookup_gpu

    try:
        return lookup_gpu(gpu_id)
    except PlannerError:
        return None


def check_versions(driver: str | None, cuda: str | None, gpu_id: str | None, add) -> None:
    """Driver CUDA version vs what the frameworks need (sources in the module docstring)."""
    cv = _version_tuple(cuda)
    if cv is None:
        return
    from ..core.timing import gpu_generation

    gen = gpu_generation(gpu_id) if gpu_id else "other"
    need, why = None, None
    if gen == "blackwell":
        need, why = (12, 8), QT_TRANSLATE_NOOP(CTX, "Blackwell (sm_100) needs CUDA 12.8 or newer")
    elif gen == "hopper":
        need, why = (11, 8), QT_TRANSLATE_NOOP(CTX, "Hopper (sm_90) needs CUDA 11.8 or newer")
    if need and cv[:2] < need:
        add(Finding("bad", _msg(QT_TRANSLATE_NOOP(
            CTX, "Driver {driver} supports CUDA {cuda} at most: {why}. Ask for a newer driver."),
            driver=driver or "?", cuda=cuda, why=Msg(CTX, why, {}))))
    elif cv[0] < 12:
        add(Finding("warn", _msg(QT_TRANSLATE_NOOP(
            CTX, "Driver {driver} supports CUDA {cuda} at most: current PyTorch releases ship CUDA 12 builds, which "
                 "need a driver of version 525 or newer; only CUDA 11.8 builds will run."),
            driver=driver or "?", cuda=cuda)))
    else:
        add(Finding("ok", _msg(QT_TRANSLATE_NOOP(CTX, "Driver {driver}, CUDA {cuda}: recent enough for current "
                                                      "PyTorch builds."), driver=driver or "?", cuda=cuda)))


def diagnose_nvidia(info: dict, gpus: list[GpuHealth], gpu_id: str | None = None,
                    xids: list[XidEvent] | None = None) -> HealthReport:
    """Verdict on ``nvidia-smi -q`` (and Xid events), against the catalog GPU ``gpu_id`` when given."""
    rep = HealthReport(kind="nvidia", driver=info.get("driver"), cuda=info.get("cuda"), gpus=gpus, xids=xids or [])
    add = rep.findings.append
    cat = _catalog_gpu(gpu_id)
    tdp = cat.tdp_w if cat is not None else None
    _temperature_findings(gpus, add)
    _throttle_findings(gpus, add)
    _power_limit_findings(gpus, tdp, add)
    _memory_error_findings(gpus, add)
    _busy_findings(gpus, add)
    if cat is not None:
        _identity_findings(cat, gpus, add)
    check_versions(rep.driver, rep.cuda, gpu_id, add)
    _xid_findings(rep.xids, add)
    rep.findings = findings_first(rep.findings)
    return rep


def _temperature_findings(gpus: list[GpuHealth], add) -> None:
    """Temperatures against the card's own limits (slowdown, max operating)."""
    hot = [g for g in gpus if g.temp_c is not None and g.slowdown_temp_c is not None
           and g.temp_c >= g.slowdown_temp_c - 5]
    warm = [g for g in gpus if g not in hot and g.temp_c is not None and g.max_operating_temp_c is not None
            and g.temp_c >= g.max_operating_temp_c]
    if hot:
        add(Finding("bad", _msg(QT_TRANSLATE_NOOP(
            CTX, "{gpus} at {t:.0f} °C, within 5 °C of the slowdown temperature ({s:.0f} °C): cooling is failing."),
            gpus=_gpu_names([g.index for g in hot]), t=max(g.temp_c for g in hot),
            s=min(g.slowdown_temp_c for g in hot))))
    if warm:
        add(Finding("warn", _msg(QT_TRANSLATE_NOOP(
            CTX, "{gpus} at or above the max operating temperature ({t:.0f} °C): the driver lowers clocks to stay "
                 "there."), gpus=_gpu_names([g.index for g in warm]), t=min(g.max_operating_temp_c for g in warm))))
    temps = [g.temp_c for g in gpus if g.temp_c is not None]
    if temps and not hot and not warm:
        add(Finding("ok", _msg(QT_TRANSLATE_NOOP(CTX, "Temperatures {lo:.0f}–{hi:.0f} °C, below the cards' limits."),
                               lo=min(temps), hi=max(temps))))


def _throttle_findings(gpus: list[GpuHealth], add) -> None:
    """Active clock slowdowns (thermal, power delivery) and the power cap being hit."""
    capped_now = [g.index for g in gpus if any(r.lower() == "sw power cap" for r in g.throttle_active)]
    by_gpus: dict[tuple[int, ...], list[str]] = {}
    for g in gpus:
        rs = [r for r in g.throttle_active if r.lower() in SLOWDOWN_REASONS]
        if rs:
            by_gpus.setdefault(tuple(rs), []).append(g.index)
    for rs, idx_ in by_gpus.items():
        add(Finding("bad", _msg(QT_TRANSLATE_NOOP(
            CTX, "{gpus}: clocks slowed by {reasons} (heat or power delivery): the card cannot hold its clocks."),
            gpus=_gpu_names(idx_), reasons=", ".join(rs))))
    if capped_now:
        add(Finding("warn", _msg(QT_TRANSLATE_NOOP(
            CTX, "{gpus}: running at the power limit (SW Power Cap active): normal under full load, a problem if "
                 "the limit is below the TDP."), gpus=_gpu_names(capped_now))))
    if any(g.throttle_seen for g in gpus) and not by_gpus and not capped_now:
        add(Finding("ok", _msg(QT_TRANSLATE_NOOP(CTX, "No clock slowdown (thermal or power) is active."))))


def _power_limit_findings(gpus: list[GpuHealth], tdp: float | None, add) -> None:
    """Power limits set below the TDP (the catalog's, else the card's default limit)."""
    low_limit = []
    for g in gpus:
        ref = tdp or g.default_power_limit_w
        if g.power_limit_w is not None and ref and g.power_limit_w < POWER_CAP_MARGIN * ref:
            low_limit.append((g, ref))
    if low_limit:
        add(Finding("bad", _msg(QT_TRANSLATE_NOOP(
            CTX, "{gpus}: power limit {lim:.0f} W, below the {ref:.0f} W TDP: the cards are capped and train slower."),
            gpus=_gpu_names([g.index for g, _ in low_limit]), lim=min(g.power_limit_w for g, _ in low_limit),
            ref=low_limit[0][1])))


def _memory_error_findings(gpus: list[GpuHealth], add) -> None:
    """Uncorrectable ECC errors, retired pages and row remapping: now, pending a reset, failed, or in the past."""
    def idx(pred) -> list[int]:
        return [g.index for g in gpus if pred(g)]

    vol = idx(lambda g: (g.ecc_volatile_uncorrected or 0) > 0)
    if vol:
        add(Finding("bad", _msg(QT_TRANSLATE_NOOP(
            CTX, "{gpus}: uncorrectable ECC errors since the driver loaded: data may be corrupt; ask for another "
                 "card."), gpus=_gpu_names(vol))))
    pend = idx(lambda g: bool(g.remap_pending) or bool(g.retired_pending))
    if pend:
        add(Finding("bad", _msg(QT_TRANSLATE_NOOP(
            CTX, "{gpus}: a memory row remap / page retirement is pending: the GPU needs a reset before use."),
            gpus=_gpu_names(pend))))
    fail = idx(lambda g: bool(g.remap_failure))
    if fail:
        add(Finding("bad", _msg(QT_TRANSLATE_NOOP(
            CTX, "{gpus}: row remapping failed (no spare rows left): the card should be replaced."),
            gpus=_gpu_names(fail))))
    agg = idx(lambda g: g.index not in vol and ((g.ecc_aggregate_uncorrected or 0) > 0 or (g.retired_dbe or 0) > 0
                                                or (g.remapped_uncorrectable or 0) > 0))
    if agg:
        add(Finding("warn", _msg(QT_TRANSLATE_NOOP(
            CTX, "{gpus}: uncorrectable memory errors in the card's history (remapped or retired): it works, but it "
                 "has failed before."), gpus=_gpu_names(agg))))
    if gpus and not (vol or pend or fail or agg) and any(
            g.ecc_volatile_uncorrected is not None or g.remap_pending is not None or g.retired_dbe is not None
            for g in gpus):
        add(Finding("ok", _msg(QT_TRANSLATE_NOOP(CTX, "No uncorrectable ECC errors, nothing pending a reset."))))


def _busy_findings(gpus: list[GpuHealth], add) -> None:
    """Processes, or memory in use without a visible process, on cards that should be idle."""
    busy = [g for g in gpus if g.processes]
    if busy:
        procs = sorted({p.get("name") or str(p.get("pid")) for g in busy for p in g.processes})
        add(Finding("warn", _msg(QT_TRANSLATE_NOOP(
            CTX, "{gpus}: processes already running ({procs}): the machine is not dedicated to you, or a previous "
                 "job was left behind."), gpus=_gpu_names([g.index for g in busy]), procs=", ".join(procs[:5]))))
    used = [g for g in gpus if not g.processes and (g.memory_used_mib or 0) > IDLE_MEMORY_MIB]
    if used:
        add(Finding("warn", _msg(QT_TRANSLATE_NOOP(
            CTX, "{gpus}: {mib:.0f} MiB of memory in use but no process visible (another container?)."),
            gpus=_gpu_names([g.index for g in used]), mib=max(g.memory_used_mib for g in used))))


def _identity_findings(cat: Any, gpus: list[GpuHealth], add) -> None:
    """The card the driver reports against the catalog GPU of the plan."""
    from .acceptance import _model_token

    want = _model_token(cat.name)
    names = sorted({g.name for g in gpus if g.name})
    if names and want and not any(want in n.upper().replace(" ", "") for n in names):
        add(Finding("bad", _msg(QT_TRANSLATE_NOOP(CTX, "The server reports {names}, but the plan is for {gpu}."),
                                names=", ".join(names), gpu=cat.name)))


def _xid_findings(xids: list[XidEvent], add) -> None:
    by_code: dict[int, list[XidEvent]] = {}
    for x in xids:
        by_code.setdefault(x.code, []).append(x)
    for code, evs in sorted(by_code.items()):
        meaning, sev = XID_CODES.get(code, (QT_TRANSLATE_NOOP(CTX, "see NVIDIA's Xid catalog"), "warn"))
        add(Finding(sev, _msg(QT_TRANSLATE_NOOP(CTX, "Xid {code} ({meaning}) {k}× on {pci}."), code=code,
                              meaning=Msg(CTX, meaning, {}), k=len(evs), pci=", ".join(sorted({e.pci for e in evs})))))


def diagnose_xid(xids: list[XidEvent]) -> HealthReport:
    rep = HealthReport(kind="dmesg", xids=xids)
    _xid_findings(xids, rep.findings.append)
    if not xids:
        rep.findings.append(Finding("ok", _msg(QT_TRANSLATE_NOOP(CTX, "No Xid errors in the kernel log."))))
    rep.findings = findings_first(rep.findings)
    return rep


def diagnose_npu(info: dict, npus: list[NpuHealth], procs: list[dict]) -> HealthReport:
    """Ascend: Health column (npu-smi: OK, Warning, Alarm, Critical), HBM in use, processes."""
    rep = HealthReport(kind="ascend", driver=info.get("version"), npus=npus, processes=procs)
    add = rep.findings.append
    bad = [n for n in npus if n.health.upper() != "OK"]
    for n in bad:
        add(Finding("bad" if n.health.lower() in ("alarm", "critical") else "warn", _msg(QT_TRANSLATE_NOOP(
            CTX, "NPU {npu} chip {chip}: health '{h}' (npu-smi); ask the vendor before renting it."),
            npu=n.npu, chip=n.chip, h=n.health)))
    if not bad:
        add(Finding("ok", _msg(QT_TRANSLATE_NOOP(CTX, "All {k} NPU chips report health OK."), k=len(npus))))
    if procs:
        add(Finding("warn", _msg(QT_TRANSLATE_NOOP(
            CTX, "{k} processes already run on the NPUs ({names}): not a dedicated machine, or a job left behind."),
            k=len(procs), names=", ".join(sorted({p["name"] for p in procs}))[:80])))
    # an idle 64 GB Ascend 910/910B holds 2.9-3.4 GB of HBM for the runtime (the idle samples in tests/data/health:
    # 2874-3419 MB); more than NPU_IDLE_HBM_MB + IDLE_MEMORY_MIB means something is loaded
    busy = [n for n in npus if n.hbm_used_mb is not None and n.hbm_used_mb > NPU_IDLE_HBM_MB + IDLE_MEMORY_MIB]
    if busy and not procs:
        add(Finding("warn", _msg(QT_TRANSLATE_NOOP(
            CTX, "{k} NPU chips hold up to {mb:.0f} MB of HBM (an idle chip about {idle:.0f} MB) with no process "
                 "listed: another container may be using them."), k=len(busy), mb=max(n.hbm_used_mb for n in busy),
            idle=NPU_IDLE_HBM_MB)))
    rep.findings = findings_first(rep.findings)
    return rep


def diagnose_amd(rows: list[AmdHealth], gpu_id: str | None = None) -> HealthReport:
    rep = HealthReport(kind="amd", amd=rows)
    add = rep.findings.append
    cat = _catalog_gpu(gpu_id)
    tdp = cat.tdp_w if cat is not None and cat.vendor == "AMD" else None
    if tdp:
        low = [r for r in rows if r.power_cap_w is not None and r.power_cap_w < POWER_CAP_MARGIN * tdp]
        if low:
            add(Finding("bad", _msg(QT_TRANSLATE_NOOP(
                CTX, "GPU {devs}: power cap {cap:.0f} W, below the {tdp:.0f} W TDP of {gpu}: the cards are capped."),
                devs=", ".join(str(r.device) for r in low), cap=min(r.power_cap_w for r in low), tdp=tdp,
                gpu=cat.name)))
        elif any(r.power_cap_w for r in rows):
            add(Finding("ok", _msg(QT_TRANSLATE_NOOP(CTX, "Power caps at the {tdp:.0f} W TDP."), tdp=tdp)))
    busy = [r for r in rows if (r.gpu_pct or 0) > 0 or (r.vram_pct or 0) > 5]
    if busy:
        add(Finding("warn", _msg(QT_TRANSLATE_NOOP(
            CTX, "GPU {devs} busy before your job (GPU% or VRAM% above zero): not a dedicated machine, or a job left "
                 "behind."), devs=", ".join(str(r.device) for r in busy))))
    temps = [r.temp_c for r in rows if r.temp_c is not None]
    if temps:
        add(Finding("info", _msg(QT_TRANSLATE_NOOP(CTX, "Temperatures {lo:.0f}–{hi:.0f} °C."), lo=min(temps),
                                 hi=max(temps))))
    rep.findings = findings_first(rep.findings)
    return rep


_KIND_RE = {
    "ascend": re.compile(r"^[ \t]*\|[ \t]*npu-smi\b|\|[ \t]*NPU[ \t]+Name[ \t]+\|", re.M),
    "amd": re.compile(r"^[ \t]*(GPU|Device)[ \t]+(Node[ \t]+IDs[ \t]+)?Temp\s", re.M),
    "driver": re.compile(r"^[ \t]*Driver Version[ \t]*:", re.M),
}


def detect_kind(text: str) -> str:
    """'nvidia', 'ascend', 'amd' or 'dmesg' from the text's markers."""
    # blanks within a line only ([ \t], never \s): ``^\s*`` crosses line breaks, so a run of them is rescanned from
    # every line start (quadratic); the markers are compiled once (_KIND_RE)
    if _KIND_RE["ascend"].search(text):
        return "ascend"
    if "ROCm System Management Interface" in text or _KIND_RE["amd"].search(text):
        return "amd"
    if "NVRM:" in text and "NVSMI LOG" not in text and not _KIND_RE["driver"].search(text):
        return "dmesg"
    return "nvidia"


def check_health(text: str | bytes, gpu_id: str | None = None, dmesg: str | bytes | None = None) -> HealthReport:
    """Detect the tool, parse and judge (``gpu_id``: the plan's catalog GPU, for the TDP and name checks)."""
    text = _decode(text)
    kind = detect_kind(text)
    xids = parse_xid(dmesg) if dmesg is not None else []
    if kind == "ascend":
        rep = diagnose_npu(*parse_npu_smi(text))
    elif kind == "amd":
        rep = diagnose_amd(parse_rocm_smi(text), gpu_id)
    elif kind == "dmesg":
        return diagnose_xid(parse_xid(text) + xids)
    else:
        info, gpus = parse_nvidia_smi_q(text)
        rep = diagnose_nvidia(info, gpus, gpu_id, xids)
        _vendor_check(rep, gpu_id)
        rep.findings = findings_first(rep.findings)
        return rep
    if xids:
        _xid_findings(xids, rep.findings.append)
        rep.xids = xids
    _vendor_check(rep, gpu_id)
    rep.findings = findings_first(rep.findings)
    return rep


_VENDOR_OF_KIND = {"nvidia": "NVIDIA", "ascend": "Huawei", "amd": "AMD"}


def _vendor_check(rep: HealthReport, gpu_id: str | None) -> None:
    """The tool's vendor against the plan's GPU (rocm-smi output for an NVIDIA plan is the wrong server)."""
    cat = _catalog_gpu(gpu_id)
    have = _VENDOR_OF_KIND.get(rep.kind)
    if cat is None or have is None or cat.vendor in ("custom", have):
        return
    rep.findings.append(Finding("bad", _msg(QT_TRANSLATE_NOOP(
        CTX, "These are {have} accelerators, but the plan is for {gpu} ({want})."), have=have, gpu=cat.name,
        want=cat.vendor)))
