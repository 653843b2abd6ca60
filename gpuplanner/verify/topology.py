"""Check a rented server's GPU interconnect from ``nvidia-smi topo -m`` output.

The matrix printed by ``nvidia-smi topo -m`` names, for every pair of devices, the path between them.
Legend (verbatim from the nvidia-smi topo -m legend text; see shared reference
``gpu-catalog.md`` §2.4 and ``topo-samples/legend.txt``)::

  X    = Self
  SYS  = Connection traversing PCIe as well as the SMP interconnect between NUMA nodes (e.g., QPI/UPI)
  NODE = Connection traversing PCIe as well as the interconnect between PCIe Host Bridges within a NUMA node
  PHB  = Connection traversing PCIe as well as a PCIe Host Bridge (typically the CPU)
  PXB  = Connection traversing multiple PCIe bridges (without traversing the PCIe Host Bridge)
  PIX  = Connection traversing at most a single PCIe bridge
  NV#  = Connection traversing a bonded set of # NVLinks

Order of quality, best to worst: NV# > PIX > PXB > PHB > NODE > SYS (gpu-catalog.md §2.4). Older drivers
print ``SOC`` (socket-crossing) where newer ones print ``SYS``; it is read as SYS.

Why tensor parallelism (TP) wants NVLink: Megatron-style TP all-reduces activations twice per transformer
layer in the forward pass and twice in the backward pass (Shoeybi et al. 2019, arXiv 1909.08053), so the
step time follows the all-reduce bus bandwidth. Measured NCCL all-reduce bus bandwidth (gpu-catalog.md §4.2):
8x H100 SXM over NVLink ~370-480 GB/s (NVIDIA/nccl-tests #212); 8x A100 SXM ~200 GB/s (nccl-tests #149);
A100 PCIe with NVLink bridge pairs 208 GB/s inside a pair but ~20 GB/s across pairs (nccl-tests #178);
8x RTX 5090 PCIe5 28 GB/s (NVIDIA/nccl #1639); NCCL's own model for an 8x RTX 4090 box assigns 24 GB/s to
PHB and 10 GB/s to SYS paths (nccl-tests #307). PCIe is thus 10-40x slower than NVLink, so a TP group
that contains one PCIe (let alone SYS) pair runs at PCIe speed: keep TP inside an NVLink island, and use
data parallelism (ZeRO/FSDP) over PCIe.

Everything here is pure Python; user-facing strings are wrapped in ``QT_TRANSLATE_NOOP``.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..core.errors import PlannerError
from ..core.i18n import QT_TRANSLATE_NOOP
from ..core.messages import MsgStr

CTX = "Topology"


class TopologyError(PlannerError):
    """``nvidia-smi`` output that cannot be understood (message names the line)."""


# ---------------------------------------------------------------------------------------------------------
# Link classes
# ---------------------------------------------------------------------------------------------------------

#: PCIe path classes, best first (gpu-catalog.md §2.4). NV# ranks above all of them.
PCIE_CLASSES = ("PIX", "PXB", "PHB", "NODE", "SYS")
_ALIASES = {"SOC": "SYS"}  # pre-2017 drivers: "SOC = Path traverses a socket-level link (e.g. QPI)"
_NV_RE = re.compile(r"^NV(\d+)$")
#: NIC distances good enough for GPUDirect RDMA (gpu-catalog.md §2.4: works well at PIX/PXB, poorly
#: through PHB/SYS).
GOOD_NIC_CLASSES = ("PIX", "PXB")


def normalize_class(token: str) -> str | None:
    """``'NV12'``, ``'PIX'`` ... or ``'X'``; ``None`` if ``token`` is no link class."""
    tok = token.strip().upper()
    tok = _ALIASES.get(tok, tok)
    if tok == "X" or tok in PCIE_CLASSES or _NV_RE.match(tok):
        return tok
    return None


def is_nvlink(cls: str | None) -> bool:
    return bool(cls) and cls.startswith("NV")


def nvlink_count(cls: str | None) -> int:
    """Number of bonded NVLinks in ``'NV18'`` (0 for anything else)."""
    m = _NV_RE.match(cls or "")
    return int(m.group(1)) if m else 0


def class_rank(cls: str | None) -> int:
    """Smaller is better: NV# = 0, PIX = 1 ... SYS = 5; unknown = 9 (worse than anything known)."""
    if cls is None:
        return 9
    if cls == "X":
        return -1
    if is_nvlink(cls):
        return 0
    return 1 + PCIE_CLASSES.index(cls)


# ---------------------------------------------------------------------------------------------------------
# Parsed topology
# ---------------------------------------------------------------------------------------------------------

AFFINITY_COLUMNS = ("CPU Affinity", "NUMA Affinity", "GPU NUMA ID")
_GPU_RE = re.compile(r"^GPU(\d+)$")
_NIC_RE = re.compile(r"^NIC(\d+)$")
# Old drivers name NIC columns by device (mlx5_0, mlx5_bond_0, bnxt_re0, irdma0, ...): lower-case names.
_DEVNAME_RE = re.compile(r"^[a-z][a-z0-9_.\-]*$")
_CPU_AFF_RE = re.compile(r"^(N/A|\d+(-\d+)?(,\d+(-\d+)?)*)$", re.IGNORECASE)
_NUMA_RE = re.compile(r"^(N/A|\d+(-\d+)?(,\d+(-\d+)?)*)$", re.IGNORECASE)
_NIC_LEGEND_RE = re.compile(r"^\s*(NIC\d+)\s*:\s*(\S+)\s*$")


@dataclass
class Topology:
    """The parsed matrix. Unknown entries (rows missing from a partial output) are ``None``.

    ``links[i][j]`` is the class between GPU i and GPU j (``'X'`` on the diagonal, ``'NV18'`` keeps the
    link count); ``gpu_nic[i][n]`` the class between GPU i and NIC column n.
    """

    gpu_names: list[str]
    links: list[list[str | None]]
    nics: list[str] = field(default_factory=list)
    nic_names: dict[str, str] = field(default_factory=dict)
    gpu_nic: list[list[str | None]] = field(default_factory=list)
    cpu_affinity: list[str | None] = field(default_factory=list)
    numa: list[str | None] = field(default_factory=list)
    gpu_numa_id: list[str | None] = field(default_factory=list)
    columns: list[str] = field(default_factory=list)
    rows_present: list[bool] = field(default_factory=list)

    @property
    def gpus(self) -> int:
        return len(self.gpu_names)

    @property
    def has_numa(self) -> bool:
        return "NUMA Affinity" in self.columns

    @property
    def has_gpu_numa_id(self) -> bool:
        return "GPU NUMA ID" in self.columns

    def link(self, i: int, j: int) -> str | None:
        """Class between GPU i and GPU j, from row i or (the matrix is symmetric) row j; None if unknown."""
        if i == j:
            return "X"
        return self.links[i][j] if self.links[i][j] is not None else self.links[j][i]

    def nic_label(self, n: int) -> str:
        """``'NIC0 (mlx5_0)'`` when the NIC legend names it."""
        col = self.nics[n]
        name = self.nic_names.get(col)
        return f"{col} ({name})" if name and name != col else col

    def missing_rows(self) -> list[str]:
        return [name for name, ok in zip(self.gpu_names, self.rows_present) if not ok]

    def unknown_pairs(self) -> list[tuple[int, int]]:
        return [(i, j) for i in range(self.gpus) for j in range(i + 1, self.gpus) if self.link(i, j) is None]


def _msg(template: str, /, **params) -> MsgStr:
    """A marked sentence formatted now (English) that keeps its id for display-time translation."""
    return MsgStr.make(CTX, template, **params)


def _err(lineno: int, msg: str) -> TopologyError:
    return TopologyError(_msg(QT_TRANSLATE_NOOP(CTX, "line {n}: {msg}"), n=lineno, msg=msg))


def _short(line: str, limit: int = 60) -> str:
    s = " ".join(line.split())
    return s if len(s) <= limit else s[: limit - 3] + "..."


def _split_header(line: str) -> list[str] | None:
    """Header columns, joining the known multi-word names; None if ``line`` is not a header."""
    text = " ".join(line.split())
    for name in AFFINITY_COLUMNS:
        text = re.sub(r"\b" + name.replace(" ", r"\s+") + r"\b", name.replace(" ", "\x00"), text, flags=re.I)
    cols = [tok.replace("\x00", " ") for tok in text.split(" ") if tok]
    if not cols or not _GPU_RE.match(cols[0]):
        return None
    canon = {c.lower(): c for c in AFFINITY_COLUMNS}
    out = []
    for c in cols:
        if c.lower() in canon:
            out.append(canon[c.lower()])
        elif _GPU_RE.match(c) or _NIC_RE.match(c) or _DEVNAME_RE.match(c):
            out.append(c)
        else:
            return None
    return out


def _looks_like_prompt(line: str) -> bool:
    """A shell prompt line (``user@host:~$ cmd``, ``# cmd``, ``> cmd``): linear time on any input (a regex
    with two open-ended word patterns around a separator backtracks quadratically on a long unbroken word)."""
    if "nvidia-smi" in line:
        return True
    words = line.split(None, 1)
    if not words:
        return False
    first = words[0]
    if first[0] in "$#>%":  # the prompt character itself starts the line
        return True
    # a user@host:dir word ending in the prompt character, or followed by one
    if any(c in first for c in "@:~"):
        if first[-1] in "$#>%":
            return True
        rest = words[1] if len(words) > 1 else ""
        return rest[:1] in ("$", "#", ">", "%") and (len(rest) == 1 or rest[1].isspace())
    return False


def _decode(data: bytes | str) -> str:
    if isinstance(data, str):
        return data
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):  # PowerShell '>' writes UTF-16 with a BOM
        return data.decode("utf-16")
    return data.decode("utf-8-sig", errors="replace")


#: A 64-GPU node with 16 NICs prints about 30 kB; anything past 2 MB is not one server's topology.
MAX_TOPO_CHARS = 2_000_000
#: GPU columns, and NIC (other device) columns, of one server: the scenario's gpus_per_node bound
#: (core/scenario.HardwareSection, at most 64) for both
MAX_TOPO_GPUS = MAX_TOPO_NICS = 64


def _header(lines: list[str]) -> tuple[int, list[str], list[str], list[str], list[str], list[str]]:
    """The header (the first line starting with GPU<n> whose tokens are all column names), checked: its index,
    all columns, the GPU, affinity, device (GPU + NIC) and NIC columns."""
    header_idx = None
    columns: list[str] = []
    for idx, line in enumerate(lines):
        cols = _split_header(line)
        if cols:
            header_idx, columns = idx, cols
            break
    if header_idx is None:
        nonblank = [(i + 1, ln) for i, ln in enumerate(lines) if ln.strip() and not _looks_like_prompt(ln)]
        if not nonblank:
            raise TopologyError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "empty input: paste the output of 'nvidia-smi topo -m'")))
        lineno, first = nonblank[0]
        raise TopologyError(
            _msg(QT_TRANSLATE_NOOP(
                CTX,
                "no 'nvidia-smi topo -m' header found (a line like 'GPU0  GPU1 ... CPU Affinity'); "
                "line {n} is '{text}'",
            ), n=lineno, text=_short(first))
        )

    hdr_line = header_idx + 1
    gpu_cols = [c for c in columns if _GPU_RE.match(c)]
    aff_cols = [c for c in columns if c in AFFINITY_COLUMNS]
    dev_cols = [c for c in columns if c not in AFFINITY_COLUMNS]
    nic_cols = [c for c in dev_cols if not _GPU_RE.match(c)]
    if len(set(columns)) != len(columns):
        raise _err(hdr_line, _msg(QT_TRANSLATE_NOOP(CTX, "header repeats a column: '{text}'"), text=_short(lines[header_idx])))
    if len(gpu_cols) > MAX_TOPO_GPUS or len(nic_cols) > MAX_TOPO_NICS:
        # one server's matrix: the report names every pair, so 2,000 columns printed 34 MB in 10 s (probe14)
        raise _err(hdr_line, _msg(QT_TRANSLATE_NOOP(
            CTX, "{gpus} GPU and {nics} other device columns: one server's 'nvidia-smi topo -m' has at most {max} "
                 "of each"), gpus=len(gpu_cols), nics=len(nic_cols), max=MAX_TOPO_GPUS))
    if columns[: len(dev_cols)] != dev_cols:
        raise _err(hdr_line, QT_TRANSLATE_NOOP(CTX, "device columns must come before the affinity columns"))
    expected = [f"GPU{i}" for i in range(len(gpu_cols))]
    if gpu_cols != expected or columns[: len(gpu_cols)] != gpu_cols:
        raise _err(hdr_line, _msg(QT_TRANSLATE_NOOP(CTX, "expected GPU columns GPU0..GPU{last} in order, got {got}"), last=len(gpu_cols) - 1, got=" ".join(gpu_cols)))
    return header_idx, columns, gpu_cols, aff_cols, dev_cols, nic_cols


def _row_classes(name: str, values: list[str], dev_cols: list[str], lineno: int) -> list[str | None]:
    """The link classes of one row, checked: known classes, 'X' on the row's own column only."""
    classes: list[str | None] = []
    for k, tok in enumerate(values):
        cls = normalize_class(tok)
        if cls is None:
            raise _err(lineno, _msg(QT_TRANSLATE_NOOP(
                CTX, "{row} column {col}: unknown link class '{tok}' (expected X, NV#, PIX, PXB, PHB, NODE or SYS)"
            ), row=name, col=dev_cols[k], tok=tok))
        if (cls == "X") != (dev_cols[k] == name):
            raise _err(lineno, _msg(QT_TRANSLATE_NOOP(
                CTX, "{row} column {col}: 'X' must mark the row's own column only"), row=name, col=dev_cols[k]))
        classes.append(cls)
    return classes


def _read_affinity(aff: dict[str, list[str | None]], i: int, name: str, values: Iterable[tuple[str, str]],
                   lineno: int) -> None:
    """A GPU row's CPU affinity, NUMA affinity and GPU NUMA ID (N/A kept as unknown)."""
    for col, tok in values:
        pattern = _CPU_AFF_RE if col == "CPU Affinity" else _NUMA_RE
        if not pattern.match(tok):
            raise _err(lineno, _msg(QT_TRANSLATE_NOOP(CTX, "{row} {col}: unexpected value '{tok}'"), row=name, col=col, tok=tok))
        aff[col][i] = None if tok.upper() == "N/A" else tok


# long: a line-by-line parser: header, rows, legend in order; the header, a row's classes and its affinity are read by
#   their own functions
def parse_topo(text: str | bytes) -> Topology:
    """Parse ``nvidia-smi topo -m`` output (source of the format: the nvidia-smi legend, see module doc).

    Tolerates CRLF, tabs, extra spaces, leading prompt lines, trailing legend text, NIC columns and the
    ``NIC Legend:`` block, old drivers (no ``NUMA Affinity`` / ``GPU NUMA ID``, ``mlx5_0`` columns, ``SOC``)
    and partial outputs (missing rows stay unknown). Anything else raises :class:`TopologyError` naming
    the line.
    """
    if len(text) > MAX_TOPO_CHARS:
        raise TopologyError(_msg(QT_TRANSLATE_NOOP(CTX, "this is too long for nvidia-smi topo -m output (over {n} MB)"), n=MAX_TOPO_CHARS // 1_000_000))
    text = _decode(text)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ").split("\n")

    header_idx, columns, gpu_cols, aff_cols, dev_cols, nic_cols = _header(lines)
    hdr_line = header_idx + 1
    g, nn = len(gpu_cols), len(nic_cols)
    links: list[list[str | None]] = [[("X" if i == j else None) for j in range(g)] for i in range(g)]
    gpu_nic: list[list[str | None]] = [[None] * nn for _ in range(g)]
    nic_rows: dict[int, list[str | None]] = {}
    aff: dict[str, list[str | None]] = {c: [None] * g for c in AFFINITY_COLUMNS}
    present = [False] * g
    seen_rows: set[str] = set()
    col_index = {c: k for k, c in enumerate(dev_cols)}

    # 2. the rows, until the legend / trailing text
    after_blank = False
    end_idx = len(lines)
    for idx in range(header_idx + 1, len(lines)):
        raw, lineno = lines[idx], idx + 1
        if not raw.strip():
            after_blank = True
            continue
        toks = raw.split()
        name = toks[0]
        if name not in col_index:
            if raw.strip().lower().startswith(("legend", "nic legend")) or _looks_like_prompt(raw) or after_blank:
                end_idx = idx
                break
            if _GPU_RE.match(name) or _NIC_RE.match(name):
                raise _err(lineno, _msg(QT_TRANSLATE_NOOP(
                    CTX, "row {row} is not among the header columns ({first}..{last})"), row=name, first=dev_cols[0], last=dev_cols[-1]))
            example = "GPU0  X  NV12 ..." if g > 1 else "GPU0  X  0-15  0"
            raise _err(lineno, _msg(QT_TRANSLATE_NOOP(CTX, "expected a GPU row like '{example}', got '{text}'"), example=example, text=_short(raw)))
        if name in seen_rows:
            raise _err(lineno, _msg(QT_TRANSLATE_NOOP(CTX, "row {row} appears twice"), row=name))
        seen_rows.add(name)
        values = toks[1:]
        is_gpu_row = bool(_GPU_RE.match(name))
        n_dev = len(dev_cols)
        max_tokens = n_dev + len(aff_cols)
        if len(values) > max_tokens:
            raise _err(lineno, _msg(QT_TRANSLATE_NOOP(
                CTX, "row {row} has {got} entries, the header has {want} columns: '{text}'"), row=name, got=len(values), want=len(columns), text=_short(raw)))
        classes = _row_classes(name, values[:n_dev], dev_cols, lineno)
        classes += [None] * (n_dev - len(classes))
        extras = values[n_dev:]
        if is_gpu_row:
            i = int(_GPU_RE.match(name).group(1))
            present[i] = True
            for j in range(g):
                if j != i:
                    links[i][j] = classes[j]
            for n in range(nn):
                gpu_nic[i][n] = classes[g + n]
            _read_affinity(aff, i, name, zip(aff_cols, extras), lineno)
        else:
            nic_rows[nic_cols.index(name)] = classes

    if not any(present):
        raise TopologyError(
            _msg(QT_TRANSLATE_NOOP(CTX, "line {n}: header found but no GPU rows follow it"), n=hdr_line))

    # NIC rows fill GPU-NIC entries that GPU rows (missing in a partial output) did not give.
    for n, classes in nic_rows.items():
        for i in range(g):
            if gpu_nic[i][n] is None and classes[i] is not None:
                gpu_nic[i][n] = classes[i]

    # 3. the NIC legend (newer drivers): "NIC0: mlx5_0"
    nic_names = {c: c for c in nic_cols if not _NIC_RE.match(c)}
    for line in lines[end_idx:]:
        m = _NIC_LEGEND_RE.match(line)
        if m and m.group(1) in nic_cols:
            nic_names[m.group(1)] = m.group(2)

    return Topology(
        gpu_names=gpu_cols,
        links=links,
        nics=nic_cols,
        nic_names=nic_names,
        gpu_nic=gpu_nic,
        cpu_affinity=aff["CPU Affinity"],
        numa=aff["NUMA Affinity"],
        gpu_numa_id=aff["GPU NUMA ID"],
        columns=columns,
        rows_present=present,
    )


# ---------------------------------------------------------------------------------------------------------
# Diagnosis
# ---------------------------------------------------------------------------------------------------------

SEVERITIES = ("ok", "warn", "bad")


@dataclass
class Finding:
    severity: str  # "ok" | "warn" | "bad"
    text: str

    def to_json(self) -> dict:
        return {"severity": self.severity, "text": self.text}


@dataclass
class Diagnosis:
    gpus: int
    nvlink: str  # "none" | "pairs" | "partial" | "full"
    pairs: dict[str, str | None]
    max_nvlink_tp: int
    max_nvlink_tp_confirmed: int
    numa_nodes: int | None
    gpu_nic_affinity: dict[str, dict]
    unknown_pairs: list[str]
    verdict: list[Finding]

    @property
    def complete(self) -> bool:
        return not self.unknown_pairs

    @property
    def worst(self) -> str:
        """Worst severity among the verdict lines."""
        return max((f.severity for f in self.verdict), key=SEVERITIES.index, default="ok")

    def verdict_lines(self) -> list[str]:
        return [f.text for f in self.verdict]

    def to_json(self) -> dict:
        return {
            "gpus": self.gpus,
            "nvlink": self.nvlink,
            "pairs": dict(self.pairs),
            "max_nvlink_tp": self.max_nvlink_tp,
            "max_nvlink_tp_confirmed": self.max_nvlink_tp_confirmed,
            "numa_nodes": self.numa_nodes,
            "gpu_nic_affinity": self.gpu_nic_affinity,
            "complete": self.complete,
            "unknown_pairs": list(self.unknown_pairs),
            "verdict": self.verdict_lines(),
            "severities": [f.severity for f in self.verdict],
            "worst": self.worst,
        }


def _pair_key(i: int, j: int) -> str:
    return f"GPU{i}-GPU{j}"


def _dash(i: int, j: int) -> str:
    return f"GPU{i}\u2013GPU{j}"


def _group_ok(topo: Topology, k: int, unknown_ok: bool) -> bool:
    """GPUs split into consecutive groups of k (ranks 0..k-1, k..2k-1: how Megatron/vLLM form TP groups)
    with every pair inside a group on NVLink."""
    if k == 1:
        return True
    if topo.gpus % k:
        return False
    for start in range(0, topo.gpus, k):
        for i in range(start, start + k):
            for j in range(i + 1, start + k):
                cls = topo.link(i, j)
                if cls is None and unknown_ok:
                    continue
                if not is_nvlink(cls):
                    return False
    return True


def max_nvlink_tp(topo: Topology, unknown_ok: bool = True) -> int:
    """Largest power-of-two TP size whose consecutive GPU groups are all-NVLink (1 if none).

    ``unknown_ok``: pairs missing from a partial output do not disqualify a group (optimistic); with
    ``False`` only confirmed NVLink pairs count.
    """
    best, k = 1, 2
    while k <= topo.gpus:
        if _group_ok(topo, k, unknown_ok):
            best = k
        k *= 2
    return best


def _classify_nvlink(topo: Topology) -> str:
    known = [(i, j, topo.link(i, j)) for i in range(topo.gpus) for j in range(i + 1, topo.gpus)]
    known = [(i, j, c) for i, j, c in known if c is not None]
    nv = [(i, j) for i, j, c in known if is_nvlink(c)]
    if not nv:
        return "none"
    if len(nv) == len(known):
        return "full"
    degree = [0] * topo.gpus
    for i, j in nv:
        degree[i] += 1
        degree[j] += 1
    return "pairs" if max(degree) == 1 else "partial"


def _nv_label(classes: list[str]) -> str:
    kinds = sorted({c for c in classes if is_nvlink(c)}, key=nvlink_count, reverse=True)
    return "/".join(kinds)


def _gpu_list(idxs: list[int]) -> str:
    return ", ".join(f"GPU{i}" for i in idxs)


def diagnose(topo: Topology, plan_tp: int | None = None, plan_gpus: int | None = None) -> Diagnosis:
    """Plain-English verdict on a parsed topology, optionally against a plan's TP size and GPU count.

    Rules (sources in the module docstring): TP groups must be NVLink-only, because PCIe all-reduce bus
    bandwidth is 10-40x below NVLink (gpu-catalog.md §4.2); NICs should be PIX/PXB to their GPU for
    GPUDirect RDMA (gpu-catalog.md §2.4). The verdict lists, in order: a partial output, the NVLink
    summary, the plan's TP groups and GPU count, NUMA, and the NICs.
    """
    n = topo.gpus
    pairs = {_pair_key(i, j): topo.link(i, j) for i in range(n) for j in range(i + 1, n)}
    unknown = [_pair_key(i, j) for i, j in topo.unknown_pairs()]
    kind = _classify_nvlink(topo)
    tp_max = max_nvlink_tp(topo, unknown_ok=True)
    tp_conf = max_nvlink_tp(topo, unknown_ok=False)
    numa_vals = {v for v, ok in zip(topo.numa, topo.rows_present) if ok and v is not None}
    numa_nodes = len(numa_vals) if topo.has_numa and numa_vals else None
    multi_node = plan_gpus is not None and plan_gpus > n
    affinity = _nic_affinity(topo)

    verdict = _partial_output(topo, unknown, len(pairs)) + _nvlink_summary(topo, pairs, kind, bool(unknown))
    if plan_tp is not None and plan_tp > 1:
        verdict += _plan_tp(topo, plan_tp, tp_max)
    if plan_gpus is not None and plan_gpus < n:
        verdict.append(Finding("warn", _msg(QT_TRANSLATE_NOOP(
            CTX, "plan uses {p} GPUs; this server has {n}: {idle} would sit idle"), p=plan_gpus, n=n,
            idle=n - plan_gpus)))
    if numa_nodes is not None and numa_nodes > 1:
        verdict.append(Finding("ok" if kind == "full" else "warn", _msg(QT_TRANSLATE_NOOP(
            CTX, "GPUs span {k} NUMA nodes: pin each training process to its GPU's CPU cores (CPU Affinity)"
        ), k=numa_nodes)))
    verdict += _nic_placement(topo, affinity, multi_node, plan_gpus)
    return Diagnosis(
        gpus=n,
        nvlink=kind,
        pairs=pairs,
        max_nvlink_tp=tp_max,
        max_nvlink_tp_confirmed=tp_conf,
        numa_nodes=numa_nodes,
        gpu_nic_affinity=affinity,
        unknown_pairs=unknown,
        verdict=verdict,
    )


def _partial_output(topo: Topology, unknown: list[str], total: int) -> list[Finding]:
    """A warning when rows of the matrix are missing (some GPU pairs unknown)."""
    if not unknown:
        return []
    return [Finding("warn", _msg(QT_TRANSLATE_NOOP(
        CTX, "Partial output: rows {rows} are missing, so {k} of {total} GPU pairs are unknown; "
             "paste the full 'nvidia-smi topo -m' output to confirm"
    ), rows=", ".join(topo.missing_rows()) or "?", k=len(unknown), total=total))]


def _nvlink_summary(topo: Topology, pairs: dict[str, str | None], kind: str, partial: bool) -> list[Finding]:
    """What the GPU-to-GPU links allow: a full mesh, pairs, partial NVLink or PCIe only."""
    n = topo.gpus
    tp_max = max_nvlink_tp(topo, unknown_ok=True)
    known_classes = [c for c in pairs.values() if c is not None]
    if n == 1:
        return [Finding("ok", MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "Single GPU: no GPU-to-GPU links to check (TP=1).")))]
    if kind == "full" and partial:
        return [Finding("ok", _msg(QT_TRANSLATE_NOOP(
            CTX, "NVLink on all {k} listed GPU pairs ({nv}): tensor parallelism up to {tp} runs over NVLink "
                 "if the missing pairs match (confirmed: up to {conf})."
        ), k=len(known_classes), nv=_nv_label(known_classes), tp=tp_max,
            conf=max_nvlink_tp(topo, unknown_ok=False)))]
    if kind == "full":
        out = [Finding("ok", _msg(QT_TRANSLATE_NOOP(
            CTX, "Full NVLink mesh across {n} GPUs ({nv}): tensor parallelism up to {tp} runs over NVLink."
        ), n=n, nv=_nv_label(known_classes), tp=tp_max))]
        if n == 8 and set(known_classes) == {"NV8"}:
            # gpu-catalog.md §2.1/§2.3: A800 and H800 show NV8 (400 GB/s) instead of NV12/NV18;
            # §4.2: 8x H800 all-reduce ~215 GB/s busbw vs ~370-480 GB/s for H100 (nccl #1374, nccl-tests #212).
            out.append(Finding("warn", MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "NV8 on every pair: typical of A800/H800 (8 NVLinks, 400 GB/s), about half the all-reduce "
                     "bandwidth of NV12/NV18 parts"
            ))))
        return out
    if kind == "none":
        pcie = sorted({c for c in known_classes}, key=class_rank)
        return [Finding("warn", _msg(QT_TRANSLATE_NOOP(
            CTX, "No NVLink: GPU pairs talk over PCIe ({classes}) \u2014 keep TP=1 and prefer ZeRO/FSDP "
                 "data parallelism"
        ), classes="/".join(pcie)))]
    if kind == "pairs":
        return _nvlink_pairs(n, [k for k, c in pairs.items() if is_nvlink(c)], tp_max)
    return [Finding("warn", _msg(QT_TRANSLATE_NOOP(
        CTX, "Partial NVLink: {nv} of {total} GPU pairs use NVLink ({cls}); tensor parallelism up to {tp} "
             "stays on NVLink"
    ), nv=sum(1 for c in known_classes if is_nvlink(c)), total=len(known_classes),
        cls=_nv_label(known_classes), tp=tp_max))]


def _nvlink_pairs(n: int, nv_pairs: list[str], tp_max: int) -> list[Finding]:
    """NVLink bridges between pairs only; when they are not consecutive ids, the CUDA_VISIBLE_DEVICES order
    that puts TP=2 groups on them."""
    out = [Finding("warn", _msg(QT_TRANSLATE_NOOP(
        CTX, "NVLink only between pairs ({pairs}); other pairs use PCIe \u2014 TP up to {tp} over NVLink, "
             "data parallelism across pairs"
    ), pairs=", ".join(p.replace("-", "\u2013") for p in nv_pairs), tp=tp_max))]
    if tp_max == 1:
        order = []
        for i, j in ((int(p.split("-")[0][3:]), int(p.split("-")[1][3:])) for p in nv_pairs):
            order += [i, j]
        rest = [i for i in range(n) if i not in order]
        out.append(Finding("warn", _msg(QT_TRANSLATE_NOOP(
            CTX, "The NVLink pairs are not consecutive GPU ids: set CUDA_VISIBLE_DEVICES={order} so TP=2 "
                 "groups land on the bridges"
        ), order=",".join(str(i) for i in order + rest))))
    return out


def _plan_tp(topo: Topology, plan_tp: int, tp_max: int) -> list[Finding]:
    """The plan's TP groups (consecutive GPU ids) against the links: the worst non-NVLink pair inside a group,
    a pair the output does not show, and GPUs left over."""
    n = topo.gpus
    if plan_tp > n:
        return [Finding("bad", _msg(QT_TRANSLATE_NOOP(
            CTX, "plan uses TP={tp} but this server has only {n} GPU(s): a TP group would span servers over "
                 "the network; choose TP\u2264{k}"
        ), tp=plan_tp, n=n, k=tp_max))]
    worst = None  # (rank, i, j, cls)
    unknown_in_group = []
    for start in range(0, n - plan_tp + 1, plan_tp):
        for i in range(start, start + plan_tp):
            for j in range(i + 1, start + plan_tp):
                cls = topo.link(i, j)
                if cls is None:
                    unknown_in_group.append((i, j))
                elif not is_nvlink(cls) and (worst is None or class_rank(cls) > worst[0]):
                    worst = (class_rank(cls), i, j, cls)
    out: list[Finding] = []
    if worst is not None:
        _, i, j, cls = worst
        if cls == "SYS":
            text = QT_TRANSLATE_NOOP(
                CTX, "plan uses TP={tp} but {pair} cross the CPU socket (SYS): choose another server "
                     "or TP\u2264{k}")
        else:
            text = QT_TRANSLATE_NOOP(
                CTX, "plan uses TP={tp} but {pair} talk over PCIe ({cls}): choose another server "
                     "or TP\u2264{k}")
        out.append(Finding("bad", _msg(text, tp=plan_tp, pair=_dash(i, j), cls=cls, k=tp_max)))
    elif unknown_in_group:
        i, j = unknown_in_group[0]
        out.append(Finding("warn", _msg(QT_TRANSLATE_NOOP(
            CTX, "plan uses TP={tp}: {pair} is not in the pasted output, so NVLink inside every TP "
                 "group cannot be confirmed"
        ), tp=plan_tp, pair=_dash(i, j))))
    else:
        out.append(Finding("ok", _msg(QT_TRANSLATE_NOOP(CTX, "plan uses TP={tp}: every TP group is on NVLink."),
                                      tp=plan_tp)))
    if n % plan_tp:
        out.append(Finding("warn", _msg(QT_TRANSLATE_NOOP(
            CTX, "TP={tp} does not divide the {n} GPUs: {left} GPU(s) would sit idle"
        ), tp=plan_tp, n=n, left=n % plan_tp)))
    return out


def _nic_affinity(topo: Topology) -> dict[str, dict]:
    """Per GPU, the nearest NICs and their class (none when the output lists no NIC for it)."""
    affinity: dict[str, dict] = {}
    for i in range(topo.gpus):
        row = topo.gpu_nic[i] if topo.nics else []
        known_nics = [(k, c) for k, c in enumerate(row) if c is not None]
        if not known_nics:
            affinity[f"GPU{i}"] = {"nics": [], "class": None}
            continue
        best = min(class_rank(c) for _, c in known_nics)
        nearest = [topo.nic_label(k) for k, c in known_nics if class_rank(c) == best]
        affinity[f"GPU{i}"] = {"nics": nearest, "class": next(c for _, c in known_nics if class_rank(c) == best)}
    return affinity


def _nic_placement(topo: Topology, affinity: dict[str, dict], multi_node: bool,
                   plan_gpus: int | None) -> list[Finding]:
    """GPUs without a NIC at PIX/PXB distance (bad when the plan spans servers), or no NIC at all."""
    n = topo.gpus
    if not topo.nics:
        if not multi_node:
            return []
        return [Finding("bad", _msg(QT_TRANSLATE_NOOP(
            CTX, "plan spans {p} GPUs (more than this server's {n}) but the output lists no NIC: "
                 "inter-node traffic needs an RDMA NIC near each GPU"
        ), p=plan_gpus, n=n))]
    far = [i for i in range(n) if affinity[f"GPU{i}"]["class"] not in (None, *GOOD_NIC_CLASSES)]
    sev = "bad" if multi_node else "warn"
    if len(far) == 1:
        return [Finding(sev, _msg(QT_TRANSLATE_NOOP(
            CTX, "{gpu} has no NIC at PIX/PXB distance: inter-node traffic crosses the CPU"
        ), gpu=f"GPU{far[0]}"))]
    if far:
        return [Finding(sev, _msg(QT_TRANSLATE_NOOP(
            CTX, "{gpus} have no NIC at PIX/PXB distance: inter-node traffic crosses the CPU"
        ), gpus=_gpu_list(far)))]
    if any(affinity[f"GPU{i}"]["class"] is not None for i in range(n)):
        return [Finding("ok", _msg(QT_TRANSLATE_NOOP(
            CTX, "Every listed GPU has a NIC at PIX/PXB distance ({k} NICs)."), k=len(topo.nics)))]
    return []


def format_matrix(topo: Topology) -> str:
    """The matrix as a text table (unknown entries shown as '?')."""
    cols = topo.gpu_names + topo.nics
    head = ["", *cols]
    if topo.has_numa:
        head.append("NUMA")
    rows = [head]
    for i, name in enumerate(topo.gpu_names):
        cells = [name] + [(topo.link(i, j) or "?") for j in range(topo.gpus)]
        cells += [(topo.gpu_nic[i][k] or "?") for k in range(len(topo.nics))]
        if topo.has_numa:
            cells.append(topo.numa[i] or ("N/A" if topo.rows_present[i] else "?"))
        rows.append(cells)
    widths = [max(len(r[c]) for r in rows) for c in range(len(head))]
    out = ["  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in rows]
    legend = [f"{c}: {topo.nic_names[c]}" for c in topo.nics if topo.nic_names.get(c, c) != c]
    if legend:
        out.append("")
        out.extend(legend)
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------------------
# nvidia-smi --query-gpu CSV
# ---------------------------------------------------------------------------------------------------------


def _split_unit(col: str) -> tuple[str, str | None] | None:
    """``memory.total [MiB]`` → (``memory.total``, ``MiB``); ``name`` → (``name``, None); None when the brackets
    are not one trailing ``[unit]``. Split by hand: the regex ``^([^[]+?)\\s*(\\[…\\])?$`` retried every
    name length over a run of blanks (quadratic on a long header)."""
    i = col.find("[")
    if i < 0:
        return (col, None) if col else None
    rest = col[i:]
    if i == 0 or not rest.endswith("]") or "]" in rest[1:-1] or "[" in rest[1:]:
        return None
    return col[:i], rest[1:-1]

_NUM_RE = re.compile(r"^(?P<num>[-+]?\d+(\.\d+)?)\s*(?P<unit>[A-Za-z%/]*)$")


def parse_query_gpu_csv(text: str | bytes) -> list[dict]:
    """Parse ``nvidia-smi --query-gpu=... --format=csv`` output into one dict per GPU.

    Header fields carry units in brackets (``memory.total [MiB]``); values carry them too (``81559 MiB``,
    ``69.50 W``, ``0 %``); ``[N/A]`` / ``[Not Supported]`` become ``None``. Keys are the field names
    without units; numeric fields become floats. The units are in the ``"_units"`` entry of each dict.
    Format from nvidia-smi's ``--format=csv`` output (``nvidia-smi --help-query-gpu``).
    """
    text = _decode(text)
    lines = [ln for ln in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
             if ln.strip() and not _looks_like_prompt(ln)]
    if not lines:
        raise TopologyError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "empty input: paste the output of 'nvidia-smi --query-gpu=... --format=csv'")))
    reader = list(csv.reader(io.StringIO("\n".join(lines)), skipinitialspace=True))
    header = reader[0]
    fields, units = [], {}
    for col in header:
        m = _split_unit(col.strip())
        name = m[0].strip() if m else col.strip()
        if not name or " " in name:
            raise _err(1, _msg(QT_TRANSLATE_NOOP(
                CTX, "expected a CSV header like 'name, memory.total [MiB]', got '{text}'"), text=_short(lines[0])))
        fields.append(name)
        if m and m[1]:
            units[name] = m[1]
    out = []
    for k, row in enumerate(reader[1:], start=2):
        if len(row) != len(fields):
            raise _err(k, _msg(QT_TRANSLATE_NOOP(CTX, "expected {want} comma-separated values, got '{text}'"), want=len(fields), text=_short(lines[k - 1])))
        rec: dict = {"_units": dict(units)}
        for name, raw in zip(fields, row):
            val = raw.strip()
            if val.startswith("[") and val.endswith("]"):
                rec[name] = None
                continue
            if name in units:
                m = _NUM_RE.match(val)
                if not m:
                    raise _err(k, _msg(QT_TRANSLATE_NOOP(CTX, "{field}: expected a number in {unit}, got '{val}'"), field=name, unit=units[name], val=val))
                rec[name] = float(m.group("num"))
            else:
                rec[name] = val
        out.append(rec)
    return out


def power_starved(rows: list[dict], threshold: float = 0.6) -> list[dict]:
    """GPUs drawing less than ``threshold`` x their power limit.

    Only meaningful while a sustained training load runs (an idle GPU draws a small fraction of its limit
    by design). Under load, low draw hints at a power-capped, thermally throttled or input-starved GPU.
    The 60 % threshold is a planner heuristic, not a datasheet figure; pass another one if you like.
    Rows lacking ``power.draw`` or ``power.limit`` (``[N/A]``) are skipped.
    """
    found = []
    for i, rec in enumerate(rows):
        draw, limit = rec.get("power.draw"), rec.get("power.limit")
        if draw is None or not limit:
            continue
        ratio = draw / limit
        if ratio < threshold:
            found.append({
                "gpu": i,
                "draw_w": draw,
                "limit_w": limit,
                "ratio": ratio,
                "text": _msg(QT_TRANSLATE_NOOP(
                    CTX, "GPU{i} draws {d:.0f} W of its {l:.0f} W limit ({p:.0f}%): if a training job is running, "
                         "it is starved (data loading, communication) or capped; idle GPUs always draw little"
                ), i=i, d=draw, l=limit, p=100 * ratio),
            })
    return found
