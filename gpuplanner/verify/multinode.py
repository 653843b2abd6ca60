"""Multi-node acceptance kit: a torchrun script for N nodes, and the analysis of what it measured.

1. :func:`render_multinode_kit` writes ONE bash script (the benchmark :mod:`gpuplanner.verify.kit_mn_bench` and
   :mod:`gpuplanner.verify.kit_bench` inside quoted heredocs). Run without ``--node-rank`` it prints the exact command
   for every node; with ``--master ADDR --node-rank R`` it records ``ibstat``, ``ibv_devinfo -v``,
   ``nvidia-smi topo -m`` and ``nvidia-smi -q`` (or ``npu-smi info`` / ``rocm-smi``), sets ``NCCL_DEBUG=INFO``
   with ``NCCL_DEBUG_FILE`` so NCCL's transport choice (``NET/IB`` vs ``NET/Socket``) is kept, and starts
   ``torchrun`` (static rendezvous at ADDR). Node 0 writes the result.
   The accelerator follows the plan's GPU vendor: NVIDIA → CUDA + NCCL; AMD → the ROCm build of PyTorch, whose
   ``cuda`` device and ``nccl`` backend run on HIP and RCCL (PyTorch HIP semantics, pytorch.org/docs/stable/notes/hip);
   Huawei Ascend → ``torch_npu`` with the ``npu`` device and the HCCL backend (Ascend/pytorch README).
2. :func:`parse_multinode_result` / :func:`load_multinode_result` read the JSON (schema ``gpuplanner-kit-multinode/1``).
3. :func:`analyse_multinode` compares it with the plan: inter-node bus bandwidth vs the NIC line rate and vs the
   plan's time-model assumption (:func:`gpuplanner.core.timing.gpu_time_facts`), NCCL socket fallback, the
   variance of repeated inter-node runs, scaling efficiency over GPUs and nodes, and the operator probe.

Bus bandwidth references (nccl-tests doc/PERFORMANCE.md definitions; networks.json figures):
* "inter" = one GPU per node: its ring crosses one NIC per node, so busbw is bounded by one NIC's achievable
  bandwidth (line rate / 8 × NCCL efficiency, e.g. 400 Gb/s → 48 GB/s; NVIDIA/nccl-tests #119);
* "world" = every GPU: NCCL builds one ring (channel) per NIC, each crossing the node boundary through its own
  NIC, so the ring busbw is bounded by NICs per node × one NIC's achievable bandwidth (8 × 48 = 384 GB/s for
  8 × NDR) and by the intra-node busbw.
"""

from __future__ import annotations

import json
import math
import re
import statistics
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Literal

from pydantic import ConfigDict, Field, ValidationError

from ..core.errors import PlannerError
from ..core.i18n import QT_TRANSLATE_NOOP
from ..core.messages import MsgStr, Msg, error_text, validation_line
from ..core.nobool import NoBoolForNumbers
from .findings import Finding, findings_first, worst

CTX = "MultiNode"
MAX_NODES = 4096  # the multi-node kit's --nodes
SCHEMA = "gpuplanner-kit-multinode/1"
MAX_RESULT_BYTES = 20_000_000

#: Inter-node busbw below this share of the reference is flagged (judgement, like acceptance.BUSBW_LOW).
INTER_LOW = 0.70
#: Spread (max - min) / median of the repeated inter-node runs above this: a shared, oversubscribed fabric.
VARIANCE_HIGH = 0.20
#: Scaling efficiency below this is flagged (same judgement as acceptance.SCALING_LOW).
SCALING_LOW = 0.80


class MultiNodeError(PlannerError):
    """A result file that cannot be read (one line naming the field)."""


# ------------------------------------------------------------------------------------------------ render


def device_for_vendor(vendor: str | None) -> str:
    """The kit's ``--device`` for a catalog vendor: ``cuda`` (NVIDIA, AMD ROCm), ``npu`` (Huawei Ascend),
    ``auto`` otherwise."""
    v = (vendor or "").lower()
    if v in ("nvidia", "amd"):
        return "cuda"
    if v in ("huawei",):
        return "npu"
    return "auto"


_SH = r"""#!/usr/bin/env bash
# GPU Planner multi-node acceptance kit (result schema gpuplanner-kit-multinode/1), generated @DATE@
# Plan: @SUMMARY@
# Nodes: @NODES@; accelerator: @DEVICE@ (@STACK@)
#
# 1. Copy this one file to every node (same path or not, it does not matter).
# 2. On any node:   bash kit.sh --master ADDRESS_OF_NODE_0
#    prints the exact command to run on each node; then run them (each node needs PyTorch@EXTRA@).
#    Node 0 listens on --port (default 29400): that TCP port must be open between the nodes.
# 3. Node 0 writes gpuplanner-kit-multinode.json (--out FILE). In GPU Planner:
#      gpuplanner kit-import PLAN gpuplanner-kit-multinode.json
#
# It records ibstat, ibv_devinfo -v, nvidia-smi topo -m and nvidia-smi -q (npu-smi info / rocm-smi) on every node,
# keeps NCCL's transport choice (NCCL_DEBUG=INFO: NET/IB or NET/Socket), measures all-reduce and all-gather bus
# bandwidth inside node 0, across nodes (one GPU per node, repeated to show variance) and over all GPUs at
# several message sizes, the 1 -> 2 -> 4 -> 8 GPU and 1 -> N node scaling of the planned layer shape at small
# width, and probes every operator of the planned model on the device. No network access besides the nodes.
set -u
NNODES=@NODES@
NPROC=""
MASTER=""
PORT=29400
NODE_RANK=""
OUT="gpuplanner-kit-multinode.json"
PY="${PYTHON:-}"
DEVICE="@DEVICE@"
ARGS=()
while [ $# -gt 0 ]; do
    case "$1" in
        --master) MASTER="${2:?--master needs the address of node 0}"; shift 2 ;;
        --port) PORT="${2:?--port needs a number}"; shift 2 ;;
        --node-rank) NODE_RANK="${2:?--node-rank needs a number}"; shift 2 ;;
        --nnodes) NNODES="${2:?--nnodes needs a number}"; shift 2 ;;
        --nproc) NPROC="${2:?--nproc needs a number}"; shift 2 ;;
        -o|--out) OUT="${2:?--out needs a file name}"; shift 2 ;;
        --python) PY="${2:?--python needs an interpreter}"; shift 2 ;;
        --cpu) DEVICE="cpu"; shift ;;
        -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
        *) ARGS+=("$1"); shift ;;
    esac
done
case "$PORT$NNODES$NPROC$NODE_RANK" in *[!0-9]*) echo "kit: --port, --nnodes, --nproc and --node-rank take numbers" >&2; exit 2 ;; esac
if [ -z "$MASTER" ]; then
    echo "usage: bash $0 --master ADDRESS_OF_NODE_0 [--node-rank R] [--port $PORT] [--cpu]" >&2
    exit 2
fi
if [ -z "$NODE_RANK" ]; then
    echo "Run on each of the $NNODES nodes (node 0 is $MASTER; port $PORT open between the nodes):"
    r=0
    while [ "$r" -lt "$NNODES" ]; do
        printf '  node %s:  bash %s --master %s --port %s --node-rank %s' "$r" "$(basename "$0")" "$MASTER" "$PORT" "$r"
        [ "$DEVICE" = cpu ] && printf ' --cpu'
        printf '\n'
        r=$((r + 1))
    done
    exit 0
fi
if [ "$NODE_RANK" -ge "$NNODES" ]; then echo "kit: --node-rank must be below $NNODES" >&2; exit 2; fi
if [ -z "$PY" ]; then
    for cand in python3 python; do
        if command -v "$cand" >/dev/null 2>&1; then PY="$cand"; break; fi
    done
fi
if [ -z "$PY" ]; then echo "kit: no python3 found; pass --python /path/to/python" >&2; exit 2; fi
case "$OUT" in /*) ;; *) OUT="$PWD/$OUT" ;; esac
WORK="$(mktemp -d 2>/dev/null || mktemp -d -t gpuplanner-kit)"
cleanup() { rm -rf "$WORK"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

cat > "$WORK/plan.json" <<'GPUPLANNER_PLAN_EOF'
@PLAN@
GPUPLANNER_PLAN_EOF

cat > "$WORK/kit_bench.py" <<'GPUPLANNER_KIT_EOF'
@BENCH@
GPUPLANNER_KIT_EOF

cat > "$WORK/kit_mn_bench.py" <<'GPUPLANNER_MN_EOF'
@MNBENCH@
GPUPLANNER_MN_EOF

echo "kit: node $NODE_RANK of $NNODES: recording the network and the cards"
record() { local f="$1"; shift; if command -v "$1" >/dev/null 2>&1; then "$@" > "$WORK/$f" 2>&1 || true; fi; }
if [ "$DEVICE" != cpu ]; then
    record ibstat.txt ibstat
    record ibv_devinfo.txt ibv_devinfo -v
    record topo.txt nvidia-smi topo -m
    record smi-q.txt nvidia-smi -q
    record npu-smi.txt npu-smi info
    record rocm-smi.txt rocm-smi
fi
if [ -z "$NPROC" ]; then
    if [ "$DEVICE" = cpu ]; then
        NPROC=2
    else
        NPROC="$("$PY" -c 'import torch
n = 0
try:
    import torch_npu  # noqa
    n = torch.npu.device_count()
except Exception:
    pass
print(n or torch.cuda.device_count())' 2>/dev/null)"
    fi
fi
case "$NPROC" in ''|0|*[!0-9]*) echo "kit: no accelerator found by PyTorch on this node; pass --nproc N or --cpu" >&2; exit 2 ;; esac
export NCCL_DEBUG="${NCCL_DEBUG:-INFO}"
export NCCL_DEBUG_SUBSYS="${NCCL_DEBUG_SUBSYS:-INIT,NET}"
export NCCL_DEBUG_FILE="$WORK/nccl.%h.%p.log"
if [ "$DEVICE" = cpu ]; then
    case "$MASTER" in 127.*|localhost) export GLOO_SOCKET_IFNAME="${GLOO_SOCKET_IFNAME:-lo}" ;; esac
fi
"$PY" -m torch.distributed.run --nnodes "$NNODES" --nproc-per-node "$NPROC" --node-rank "$NODE_RANK" \
    --master-addr "$MASTER" --master-port "$PORT" \
    "$WORK/kit_mn_bench.py" --work "$WORK" --plan "$WORK/plan.json" --out "$OUT" --device "$DEVICE" \
    ${ARGS[@]+"${ARGS[@]}"}
rc=$?
if [ "$rc" = 0 ] && [ "$NODE_RANK" = 0 ]; then echo "kit: result in $OUT"; fi
exit $rc
"""

_PLACEHOLDER = re.compile(r"@(DATE|SUMMARY|NODES|DEVICE|STACK|EXTRA|PLAN|BENCH|MNBENCH)@")


def _comment_safe(text: str) -> str:
    return "".join(ch if ch.isprintable() else " " for ch in text)


def render_multinode_kit(scenario: Any, nodes: int, *, base_dir: Path | None = None,
                         created: datetime | None = None) -> str:
    """The multi-node kit for ``scenario`` on ``nodes`` nodes (bash text). Placeholders are filled in one pass,
    so no value is scanned again (a model named ``@MNBENCH@`` or ``$(rm -rf /)`` comes out literally, in a
    comment and in a quoted heredoc)."""
    from ..core.catalog_hw import lookup_gpu
    from .acceptance import _kit_shape, _resolved

    if nodes < 1 or nodes > MAX_NODES:
        raise MultiNodeError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "--nodes must be between 1 and 4096")))
    r = _resolved(scenario, None, base_dir)
    s = scenario
    gpu = lookup_gpu(s.hardware.gpu, s.hardware.custom_gpus)
    device = device_for_vendor(gpu.vendor)
    stack = {"cuda": "PyTorch CUDA/ROCm, NCCL/RCCL" if gpu.vendor == "AMD" else "PyTorch CUDA, NCCL",
             "npu": "torch_npu, HCCL", "auto": "PyTorch"}[device]
    if gpu.vendor == "AMD":
        stack = "PyTorch ROCm, RCCL"
    extra = {"npu": " and torch_npu (Ascend CANN)", "cuda": " (ROCm build)" if gpu.vendor == "AMD" else ""}.get(device, "")
    plan = {
        "plan": {"gpu": s.hardware.gpu, "gpu_name": gpu.name, "vendor": gpu.vendor, "num_gpus": s.hardware.num_gpus,
                 "gpus_per_node": s.hardware.gpus_per_node, "nodes": nodes, "model": r.arch.name,
                 "method": s.training.method, "precision": s.training.precision,
                 "inter_node": s.hardware.inter_node, "nics_per_node": s.hardware.nics_per_node},
        "shape": _kit_shape(s, r),
    }
    when = (created or datetime.now(timezone.utc)).strftime("%Y-%m-%d %H:%M UTC")
    summary = f"{r.arch.name}, {s.training.method}, {s.hardware.num_gpus} x {s.hardware.gpu}"
    here = Path(__file__).parent
    values = {
        "DATE": when, "SUMMARY": _comment_safe(summary), "NODES": str(int(nodes)), "DEVICE": device,
        "STACK": stack, "EXTRA": extra,
        "PLAN": json.dumps(plan, ensure_ascii=True, sort_keys=True),
        "BENCH": (here / "kit_bench.py").read_text(encoding="utf-8").strip("\n"),
        "MNBENCH": (here / "kit_mn_bench.py").read_text(encoding="utf-8").strip("\n"),
    }
    return _PLACEHOLDER.sub(lambda m: values[m.group(1)], _SH)


# ------------------------------------------------------------------------------------------------- parse


class _Rec(NoBoolForNumbers):
    model_config = ConfigDict(extra="ignore")


class CollectiveRow(_Rec):
    op: Literal["all_reduce", "all_gather"]
    scope: Literal["intra", "inter", "world"]
    n: int = Field(ge=2)
    nodes: int = Field(1, ge=1)
    size_bytes: int = Field(gt=0)
    time_s: float | None = Field(None, gt=0)
    algbw_gbs: float | None = Field(None, ge=0, allow_inf_nan=False)
    busbw_gbs: float = Field(ge=0, allow_inf_nan=False)
    repeat: int = Field(0, ge=0)


class ScalingRow(_Rec):
    scope: Literal["gpus", "nodes"]
    n: int = Field(ge=1)
    nodes: int = Field(1, ge=1)
    tokens_per_s: float = Field(gt=0, allow_inf_nan=False)
    step_s: float | None = Field(None, gt=0)


class HostInfo(_Rec):
    node: int = Field(ge=0)
    host: str | None = Field(None, max_length=300)
    ibstat: str | None = None
    ibv_devinfo: str | None = None
    topo: str | None = None
    smi_q: str | None = None
    npu_smi: str | None = None
    rocm_smi: str | None = None
    nccl: list[str] = Field(default_factory=list)
    transport: str | None = Field(None, max_length=40)


class ProbeFailure(_Rec):
    op: str = Field(max_length=200)
    error: str = Field("", max_length=400)
    cpu_retry: str = Field("", max_length=400)


class Probe(_Rec):
    device: str | None = None
    dtype: str | None = None
    ops: int = Field(0, ge=0)
    failed: list[ProbeFailure] = Field(default_factory=list)
    cpu_fallback: list[str] = Field(default_factory=list)
    error: str | None = Field(None, max_length=400)


class MultiNodeResult(_Rec):
    schema_: Literal["gpuplanner-kit-multinode/1"] = Field(alias="schema")
    created: str | None = None
    # the kit's own bounds (render_multinode_kit: --nodes 1..MAX_NODES; the scenario's gpus_per_node ≤ 64): a result
    # saying 10**12 nodes was reported as "1000000000000 nodes × 8" (probe14)
    nodes: int = Field(ge=1, le=MAX_NODES)
    gpus_per_node: int = Field(ge=1, le=64)
    world: int | None = Field(None, ge=1, le=MAX_NODES * 64)
    device: str | None = None
    backend: str | None = None
    tiny: bool = False
    torch: str | None = None
    plan: dict[str, Any] | None = None
    collectives: list[CollectiveRow] = Field(default_factory=list)
    scaling: list[ScalingRow] = Field(default_factory=list)
    hosts: list[HostInfo] = Field(default_factory=list)
    probe: Probe | None = None
    errors: list[str] = Field(default_factory=list)

    model_config = ConfigDict(extra="ignore", populate_by_name=True)


def _loc(loc: tuple) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else ("." if out else "") + ("schema" if part == "schema_" else str(part))
    return out


def parse_multinode_result(data: Any) -> MultiNodeResult:
    """Validate a parsed JSON object; errors name the field."""
    if not isinstance(data, dict):
        raise MultiNodeError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "a kit result must be a JSON object")))
    if data.get("schema") != SCHEMA:
        raise MultiNodeError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "schema: expected '{want}', got {got}"), want=SCHEMA, got=json.dumps(data.get("schema"))[:60]))
    try:
        return MultiNodeResult.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        raise MultiNodeError(MsgStr.make(CTX, "{field}: {why}", field=_loc(first.get("loc", ())),
                                         why=validation_line(first))) from None


def load_multinode_result(path: str | Path) -> MultiNodeResult:
    from ..io.safe_read import read_json

    p = Path(path)
    try:
        return parse_multinode_result(read_json(p, MAX_RESULT_BYTES, "kit result", unique_keys=True))
    except MultiNodeError as err:
        raise MultiNodeError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "{file}: {error}"), file=p.name, error=error_text(err))) from None


def result_schema(path: str | Path) -> str | None:
    """The ``schema`` of a result file (None when it is not a JSON object with one)."""
    from ..io.safe_read import read_json

    data = read_json(path, MAX_RESULT_BYTES, "kit result", unique_keys=True)
    return data.get("schema") if isinstance(data, dict) else None


# ----------------------------------------------------------------------------------------------- analyse


@dataclass
class InterCheck:
    scope: str  # "inter" | "world"
    op: str
    size_bytes: int
    busbw_gbs: float  # median of the repeats
    runs: list[float]
    spread: float | None  # (max - min) / median
    line_rate_gbs: float | None  # the reference from the NIC line rate (no efficiency)
    achievable_gbs: float | None  # line rate x NCCL efficiency
    plan_gbs: float | None  # what the plan's time model assumes for this scope
    ratio: float | None  # busbw / achievable

    def to_json(self) -> dict:
        return dict(vars(self))


@dataclass
class MultiNodeAnalysis:
    nodes: int
    gpus_per_node: int
    network: str | None
    nics_per_node: float | None
    transports: dict[str, str | None] = field(default_factory=dict)  # host -> IB | Socket | None
    inter: list[InterCheck] = field(default_factory=list)
    intra_busbw_gbs: float | None = None
    scaling: list[dict] = field(default_factory=list)
    probe: dict | None = None
    findings: list[Finding] = field(default_factory=list)

    def scaling_series(self) -> tuple[list[int], list[float], list[float]]:
        """(counts, measured tokens/s, linear tokens/s) for the chart "measured vs linear": the node scaling (the
        GPU scaling when there is none), linear from the first point's tokens/s per GPU; as
        :meth:`acceptance.KitAnalysis.scaling_series` gives for one node."""
        pts = [p for p in self.scaling if p["scope"] == "nodes"] or self.scaling
        if not pts:
            return [], [], []
        per = pts[0]["tokens_per_s"] / pts[0]["n"]
        return [p["n"] for p in pts], [p["tokens_per_s"] for p in pts], [per * p["n"] for p in pts]

    @property
    def worst(self) -> str:
        return worst(self.findings)

    def to_json(self) -> dict:
        return {"nodes": self.nodes, "gpus_per_node": self.gpus_per_node, "network": self.network,
                "nics_per_node": self.nics_per_node, "transports": self.transports,
                "inter": [c.to_json() for c in self.inter], "intra_busbw_gbs": self.intra_busbw_gbs,
                "scaling": self.scaling, "probe": self.probe,
                "verdict": [f.text for f in self.findings], "findings": [f.to_json() for f in self.findings],
                "worst": self.worst}


def _msg(text: str, **params: Any) -> Msg:
    return Msg(CTX, text, params)


def _largest(rows: list[CollectiveRow], scope: str, op: str) -> list[CollectiveRow]:
    mine = [r for r in rows if r.scope == scope and r.op == op]
    if not mine:
        return []
    size = max(r.size_bytes for r in mine)
    return [r for r in mine if r.size_bytes == size]


def analyse_multinode(result: MultiNodeResult, scenario: Any) -> MultiNodeAnalysis:
    """Compare a multi-node result with the plan (see the module docstring for the references)."""
    from ..core.timing import gpu_time_facts

    h = scenario.hardware
    cpu = result.device == "cpu"
    gf = None
    try:
        gf = gpu_time_facts(h.gpu if not h.custom_gpus else _lookup(h), scenario.training.precision,
                            intra_node=h.intra_node, inter_node=h.inter_node, nics_per_node=h.nics_per_node,
                            gpus_per_node=h.gpus_per_node)
    except PlannerError:
        gf = None
    a = MultiNodeAnalysis(nodes=result.nodes, gpus_per_node=result.gpus_per_node,
                          network=gf.inter_node if gf else None, nics_per_node=gf.nics_per_node if gf else None)
    add = a.findings.append
    if cpu:
        add(Finding("warn", _msg(QT_TRANSLATE_NOOP(
            CTX, "Measured on CPUs with gloo: this checks the kit, not the network; the figures mean nothing for "
                 "the plan."))))
    for err in result.errors[:10]:
        add(Finding("warn", _msg(QT_TRANSLATE_NOOP(CTX, "The kit reported an error: {err}"), err=err[:200])))
    if h.num_gpus > h.gpus_per_node and result.nodes * result.gpus_per_node < h.num_gpus and not cpu:
        add(Finding("info", _msg(QT_TRANSLATE_NOOP(
            CTX, "Measured on {n} nodes × {g}; the plan uses {p} GPUs."), n=result.nodes, g=result.gpus_per_node,
            p=h.num_gpus)))
    _check_transports(a, result)
    _check_inter_node(a, result, gf, h.gpus_per_node)
    _check_scaling(a, result)
    # --- what each node recorded: its ports (ibstat / ibv_devinfo) and its cards (nvidia-smi -q, npu-smi, rocm-smi)
    _node_records(result, scenario, add)
    _check_probe(a, result)
    a.findings = findings_first(a.findings)
    return a


def _check_transports(a: MultiNodeAnalysis, result: MultiNodeResult) -> None:
    """The NCCL transport each node used: TCP sockets (no RDMA) or NET/IB."""
    add = a.findings.append
    for host in result.hosts:
        a.transports[f"node{host.node}" + (f" ({host.host})" if host.host else "")] = host.transport
    sockets = [k for k, t in a.transports.items() if t == "Socket"]
    if sockets:
        add(Finding("bad", _msg(QT_TRANSLATE_NOOP(
            CTX, "NCCL used TCP sockets (NET/Socket) between nodes on {hosts}: RDMA is not in use, typically ~10× "
                 "slower. Check that the container sees /dev/infiniband and the RDMA driver, and NCCL_IB_HCA."),
            hosts=", ".join(sockets))))
    elif any(t and "IB" in t for t in a.transports.values()):
        add(Finding("ok", _msg(QT_TRANSLATE_NOOP(CTX, "NCCL uses RDMA (NET/IB) between nodes."))))


def _check_inter_node(a: MultiNodeAnalysis, result: MultiNodeResult, gf: Any, gpus_per_node: int) -> None:
    """Inter-node all-reduce bus bandwidth (median over repeats) against the NICs' line and achievable rates
    and the plan's assumption; its spread over repeats (a shared fabric); the intra-node figure."""
    from ..core.catalog_hw import get_network

    add = a.findings.append
    cpu = result.device == "cpu"
    net = get_network(gf.inter_node) if gf else None
    per_nic_line = net.gbs_per_direction if net else None
    per_nic_ach = net.achievable_gbs_per_nic if net else None
    nics = gf.nics_per_node if gf else None
    for scope in ("inter", "world"):
        rows = _largest(result.collectives, scope, "all_reduce")
        if not rows or result.nodes < 2:
            continue
        runs = [r.busbw_gbs for r in sorted(rows, key=lambda r: r.repeat)]
        med = statistics.median(runs)
        spread = (max(runs) - min(runs)) / med if len(runs) > 1 and med > 0 else None
        k = 1.0 if scope == "inter" else float(nics or 1)
        line = per_nic_line * k if per_nic_line else None
        ach = per_nic_ach * k if per_nic_ach else None
        # the plan's assumption: per-GPU inter-node bandwidth of the time model x GPUs on the path
        plan_gbs = (gf.nic_gbs_per_gpu * (1 if scope == "inter" else gpus_per_node)) if gf else None
        if scope == "world" and gf is not None and plan_gbs is not None:
            plan_gbs = min(plan_gbs, gf.intra_busbw_gbs)
            ach = min(ach, gf.intra_busbw_gbs) if ach else ach
        ratio = med / ach if ach and not cpu else None
        a.inter.append(InterCheck(scope=scope, op="all_reduce", size_bytes=rows[0].size_bytes, busbw_gbs=med,
                                  runs=runs, spread=spread, line_rate_gbs=line, achievable_gbs=ach,
                                  plan_gbs=plan_gbs, ratio=ratio))
    for c in a.inter:
        if cpu or c.ratio is None:
            continue
        what = Msg(CTX, QT_TRANSLATE_NOOP(CTX, "one GPU per node") if c.scope == "inter"
                   else QT_TRANSLATE_NOOP(CTX, "all GPUs"), {})
        if c.ratio < INTER_LOW:
            add(Finding("bad", _msg(QT_TRANSLATE_NOOP(
                CTX, "Inter-node all-reduce ({what}): {bw:.1f} GB/s bus bandwidth, {pct:.0f}% of the {ref:.0f} GB/s "
                     "the NICs should give ({line:.0f} GB/s line rate); the plan assumes {plan:.0f} GB/s."),
                what=what, bw=c.busbw_gbs, pct=100 * c.ratio, ref=c.achievable_gbs, line=c.line_rate_gbs or 0,
                plan=c.plan_gbs or 0)))
        else:
            add(Finding("ok", _msg(QT_TRANSLATE_NOOP(
                CTX, "Inter-node all-reduce ({what}): {bw:.1f} GB/s bus bandwidth, {pct:.0f}% of what the NICs should "
                     "give; the plan assumes {plan:.0f} GB/s."),
                what=what, bw=c.busbw_gbs, pct=100 * c.ratio, plan=c.plan_gbs or 0)))
    for c in a.inter:
        if c.spread is not None and c.spread > VARIANCE_HIGH and not cpu:
            add(Finding("warn", _msg(QT_TRANSLATE_NOOP(
                CTX, "Inter-node bandwidth varied by {pct:.0f}% over {k} runs ({lo:.1f}–{hi:.1f} GB/s): the fabric "
                     "looks shared or oversubscribed, not dedicated."), pct=100 * c.spread, k=len(c.runs),
                lo=min(c.runs), hi=max(c.runs))))
            break
    intra = _largest(result.collectives, "intra", "all_reduce")
    if intra:
        a.intra_busbw_gbs = max(r.busbw_gbs for r in intra)


def _check_scaling(a: MultiNodeAnalysis, result: MultiNodeResult) -> None:
    """Tokens/s against linear inside a node and over nodes."""
    add = a.findings.append
    cpu = result.device == "cpu"
    for scope in ("gpus", "nodes"):
        rows = sorted([r for r in result.scaling if r.scope == scope or (scope == "nodes" and r.scope == "gpus"
                                                                            and r.n == result.gpus_per_node)],
                      key=lambda r: r.n)
        rows = list({r.n: r for r in rows}.values())
        if len(rows) < 2:
            continue
        base = rows[0]
        for r in rows:
            eff = r.tokens_per_s / (base.tokens_per_s / base.n * r.n)
            a.scaling.append({"scope": scope, "n": r.n, "nodes": r.nodes if scope == "nodes" else 1,
                              "tokens_per_s": r.tokens_per_s, "efficiency": eff})
        last = [p for p in a.scaling if p["scope"] == scope][-1]
        if not cpu:
            sev = "bad" if last["efficiency"] < SCALING_LOW else "ok"
            text = (QT_TRANSLATE_NOOP(CTX, "Scaling over nodes: {pct:.0f}% of linear at {n} GPUs ({k} nodes).")
                    if scope == "nodes" else QT_TRANSLATE_NOOP(CTX, "Scaling inside a node: {pct:.0f}% of linear at "
                                                                    "{n} GPUs."))
            add(Finding(sev, _msg(text, pct=100 * last["efficiency"], n=last["n"], k=last["nodes"])))


def _check_probe(a: MultiNodeAnalysis, result: MultiNodeResult) -> None:
    """The operator probe: operators that failed or fell back to the CPU."""
    add = a.findings.append
    if result.probe is not None:
        p = result.probe
        a.probe = p.model_dump()
        if p.failed:
            add(Finding("bad", _msg(QT_TRANSLATE_NOOP(
                CTX, "Operator probe on {dev} ({dtype}): {k} operator(s) failed: {ops}. Port or replace them before "
                     "renting in bulk."), dev=p.device or "?", dtype=p.dtype or "?", k=len(p.failed),
                ops=", ".join(f.op for f in p.failed[:8]))))
        if p.cpu_fallback:
            add(Finding("warn", _msg(QT_TRANSLATE_NOOP(
                CTX, "Operator probe on {dev}: {k} operator(s) fell back to the CPU: {ops}."), dev=p.device or "?",
                k=len(p.cpu_fallback), ops=", ".join(p.cpu_fallback[:8]))))
        if not p.failed and not p.cpu_fallback and not p.error:
            add(Finding("ok", _msg(QT_TRANSLATE_NOOP(
                CTX, "Operator probe on {dev} ({dtype}): all {k} operators of the model ran forward and backward."),
                dev=p.device or "?", dtype=p.dtype or "?", k=p.ops)))
        elif p.error and not p.failed:
            add(Finding("bad", _msg(QT_TRANSLATE_NOOP(CTX, "Operator probe stopped: {err}"), err=p.error)))


def _node_records(result: MultiNodeResult, scenario: Any, add) -> None:
    """Run the network and health checks on the texts each node recorded; problems are reported per node."""
    from .health import check_health
    from .network import diagnose_network, parse_ports, plan_network
    from .topology import parse_topo

    try:
        plan = plan_network(scenario)
    except PlannerError:
        plan = None
    for host in result.hosts:
        who = f"node{host.node}" + (f" ({host.host})" if host.host else "")
        reports = []
        net_text = host.ibstat or host.ibv_devinfo
        if net_text and net_text.strip():
            try:
                topo = parse_topo(host.topo) if host.topo else None
            except PlannerError:
                topo = None
            try:
                reports.append(diagnose_network(parse_ports(net_text), plan, topo).findings)
            except PlannerError as err:
                add(Finding("info", _msg(QT_TRANSLATE_NOOP(CTX, "{who}: the recorded ibstat could not be read ({err})."),
                                         who=who, err=error_text(err) if len(str(err)) <= 160 else str(err)[:160])))
        card_text = host.smi_q or host.npu_smi or host.rocm_smi
        if card_text and card_text.strip():
            try:
                reports.append(check_health(card_text, scenario.hardware.gpu).findings)
            except PlannerError as err:
                add(Finding("info", _msg(QT_TRANSLATE_NOOP(
                    CTX, "{who}: the recorded card status could not be read ({err})."), who=who, err=error_text(err) if len(str(err)) <= 160 else str(err)[:160])))
        problems = [f for fs in reports for f in fs if f.severity in ("bad", "warn")]
        for f in problems:
            add(Finding(f.severity, _msg(QT_TRANSLATE_NOOP(CTX, "{who}: {finding}"), who=who, finding=f.msg)))
        if reports and not problems:
            add(Finding("ok", _msg(QT_TRANSLATE_NOOP(CTX, "{who}: network ports and cards as planned."), who=who)))


def _lookup(h):
    from ..core.catalog_hw import lookup_gpu

    return lookup_gpu(h.gpu, h.custom_gpus)


def measured_network_scenario(scenario: Any, analysis: MultiNodeAnalysis) -> tuple[Any, int] | None:
    """The plan with its inter-node fabric replaced by what was measured, for the time model.

    The time model's inter-node bandwidth per GPU is ``NICs per node × one NIC's achievable bandwidth / GPUs per
    node`` (:func:`gpuplanner.core.timing.gpu_time_facts`); the measured all-GPU busbw is the same quantity times
    the GPUs per node (module docstring). So the measurement is expressed as the whole number of the plan's NICs
    it equals, ``floor(busbw / achievable per NIC)`` (at least 1; the scenario keeps ``hardware.inter_node``
    and gets ``hardware.nics_per_node``). None without a multi-node all-GPU measurement on accelerators, or when
    the measurement is at or above the plan's assumption.
    """
    from ..core.catalog_hw import get_network

    world = next((c for c in analysis.inter if c.scope == "world"), None)
    if world is None or analysis.network is None or analysis.nics_per_node is None:
        return None
    if world.ratio is None:  # CPU run
        return None
    per_nic = get_network(analysis.network).achievable_gbs_per_nic
    if not per_nic or world.plan_gbs is None or world.busbw_gbs >= world.plan_gbs:
        return None
    nics = max(1, int(world.busbw_gbs // per_nic))
    if nics >= analysis.nics_per_node:
        return None
    new = scenario.model_copy(deep=True)
    new.hardware.inter_node = analysis.network
    new.hardware.nics_per_node = nics
    return new, nics
