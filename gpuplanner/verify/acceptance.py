"""Acceptance test kit: a script for the rented server, and the analysis of what it measured.

Three steps (the "verify a rented server" feature):

1. :func:`render_kit` writes ONE self-contained bash script (Python heredoc inside; needs bash, Python and
   PyTorch, nothing else). On the server it records ``nvidia-smi``, ``nvidia-smi topo -m``, the driver and
   CUDA versions, runs a bf16 matmul benchmark on every GPU at once, an all-reduce bus-bandwidth test and a
   training-step benchmark of the planned layer shape at 1, 2, 4, 8 … GPUs (``torch.distributed``, NCCL;
   ``torch.multiprocessing`` spawns the ranks), samples the power draw in a background loop
   (``nvidia-smi --query-gpu=index,power.draw,power.limit``), and writes one JSON file. Without CUDA (or
   with ``--cpu``) it runs on the CPU with gloo and tiny sizes: a smoke test of the kit, not a measurement.
2. :func:`parse_kit_result` reads that JSON (or a hand-made one: only ``schema`` is required) into a
   :class:`KitResult`; problems raise :class:`KitResultError` with one line naming the field.
3. :func:`analyse` compares the result with the plan and the catalog; :func:`apply_measured_mfu` returns
   the scenario with ``assumptions.mfu`` set to the measured MFU, and :func:`before_after` shows the time
   and cost of the plan before and after.

Result schema ``gpuplanner-kit/1`` (JSON object; unknown keys are ignored)::

    schema       "gpuplanner-kit/1"                       (required)
    created      ISO 8601 time, host, platform, python, torch, kit_version
    mode         "cuda" | "cpu";  backend "nccl" | "gloo";  tiny  true for the smoke-test sizes
    plan         the plan the kit was made for: gpu, num_gpus, model, method, precision, layout
    shape        the benchmarked model: hidden, layers, heads, kv_heads, head_dim, ffn, vocab, seq, mbs,
                 accum, gated, recompute, dtype (layers and vocab cut down to fit one GPU)
    gpus         [{"index", "name", "memory_gib", "pci_bus_id"}]
    driver, cuda the driver version and the driver's CUDA version (nvidia-smi header); cuda_runtime: torch's
    nvidia_smi, topo   raw text of ``nvidia-smi`` and ``nvidia-smi topo -m``
    matmul       [{"gpu": i, "tflops": x, "dtype": "bf16", "n": 8192, "seconds": s}]
                 TFLOPS = 2·n³ per GEMM / seconds
    allreduce    [{"n": k, "size_bytes": b, "busbw_gbs": x, "algbw_gbs": y, "time_s": t}]
                 nccl-tests definition (doc/PERFORMANCE.md): algbw = bytes/time, busbw = algbw·2(k−1)/k;
                 undefined for one rank, so k ≥ 2
    train_step   [{"n": k, "tokens_per_s": x, "step_s": t, "tokens_per_step": m, "params": p}]
                 tokens/s summed over the k ranks; one step = ``accum`` micro-batches + optimizer step
    host_ram_gib the server's CPU memory (MemTotal of /proc/meminfo), checked against what the plan's CPU offload
                 keeps per server (core.intake.host_ram)
    power        [{"gpu": i, "draw_w_mean": w, "draw_w_max": w, "limit_w": w, "samples": k}]
                 over the load windows (matmul on all GPUs, training on the most GPUs); power_scope says
                 "load" or "whole run"
    errors       one line per phase that failed;  note  free text (e.g. "synthetic")

Pure Python (no Qt); user-facing strings are wrapped in ``QT_TRANSLATE_NOOP``.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Literal

from pydantic import ConfigDict, Field, ValidationError

from ..core.architecture import ARCH_LIMITS
from ..core.errors import PlannerError
from ..core.i18n import QT_TRANSLATE_NOOP
from ..core.messages import MsgStr, error_text, validation_line, json_reason
from ..core.nobool import NoBoolForNumbers
from ..formatting import format_flops, format_sig

from ..core.scenario import Scenario

CTX = "Acceptance"
SCHEMA = "gpuplanner-kit/1"

#: Flag matmul results below this fraction of the catalog's dense peak. stas00/ml-engineering's MAMF finder
#: reaches 80.3% (H100 SXM bf16) and 86.9% (A100 SXM) of dense peak on large GEMMs (gpu-catalog.md §4.1);
#: a healthy card running our n = 8192 GEMM should come within reach of that. 60% is GPU Planner's margin
#: for "clearly below", a judgement rather than a published threshold.
MATMUL_LOW = 0.60
#: Flag all-reduce bus bandwidth below this fraction of the catalog's measured NCCL busbw for the GPU's
#: link (networks.json, e.g. 8× H100 NVLink ~370 GB/s, nccl-tests #212). Judgement, as above.
BUSBW_LOW = 0.70
#: Without a measured catalog busbw, compare with the link's one-way bandwidth (the busbw ceiling in the
#: nccl-tests definition); PCIe boxes reach 10–35 GB/s of 32–64 (gpu-catalog.md §4.2), hence 0.3.
BUSBW_LOW_VS_LINK = 0.30
#: Power under load below this share of the catalog TDP is flagged (the issue's threshold).
POWER_LOW = 0.60
#: Scaling efficiency below this is flagged (judgement: data-parallel steps on one node usually keep
#: ≥ 90% when the all-reduce overlaps the backward pass, PyTorch DDP, Li et al. 2020 arXiv:2006.15704).
SCALING_LOW = 0.80


class KitResultError(PlannerError):
    """A kit result file that cannot be read (one line naming the field)."""


# ------------------------------------------------------------------------------------------------ render


#: the kit's toy layer runs three recompute modes; torchtitan's per-op and every-N-th-layer policies are run
#: as whole-layer checkpointing there (the kit's memory stays a lower bound for them)
_KIT_RECOMPUTE = {"none": "none", "megatron_selective": "selective", "selective": "selective", "full": "full"}


def _kit_shape(scenario: Scenario, resolved: Any) -> dict:
    """The planned model's layer shape as the kit builds it (dense equivalent for MoE, see notes)."""
    arch = resolved.arch
    t = scenario.training
    heads = arch.num_heads
    if arch.is_mla:
        head_dim, kv_heads = arch.q_dim // heads, heads
    else:
        head_dim, kv_heads = arch.head_dim, arch.num_kv_heads
    if arch.is_moe:
        ffn = (arch.num_experts_per_tok + arch.num_shared_experts) * arch.moe_intermediate_size \
            + arch.shared_expert_intermediate_size
    else:
        ffn = arch.intermediate_size
    return {
        "hidden": arch.hidden_size, "layers": arch.num_layers, "heads": heads, "kv_heads": kv_heads,
        "head_dim": head_dim, "ffn": int(ffn), "vocab": arch.vocab_size, "seq": t.seq_len,
        "mbs": t.micro_batch_size, "accum": scenario.grad_accum, "gated": bool(arch.gated_mlp),
        "recompute": _KIT_RECOMPUTE.get(t.recompute, "full"), "precision": t.precision, "moe_as_dense": bool(arch.is_moe),
        "mla_as_mha": bool(arch.is_mla),
    }


def _models(base_dir: Any):
    """The model source for the core: a folder (Path) becomes :class:`gpuplanner.io.model_files.ModelFiles`."""
    from ..io.model_files import ModelFiles

    if base_dir is None or isinstance(base_dir, ModelFiles):
        return base_dir if base_dir is not None else ModelFiles(None)
    return ModelFiles(Path(base_dir))


def _resolved(scenario: Scenario, resolved_or_estimate: Any, base_dir: Path | None):
    if resolved_or_estimate is None:
        from ..core.estimate import resolve

        return resolve(scenario, _models(base_dir))
    return getattr(resolved_or_estimate, "resolved", resolved_or_estimate)


_SH = r"""#!/usr/bin/env bash
# GPU Planner acceptance-test kit (result schema gpuplanner-kit/1), generated @DATE@
# Plan: @SUMMARY@
#
# On the rented server:   bash kit.sh                 all GPUs (a few minutes)
#                         bash kit.sh --cpu           CPU + gloo, tiny sizes (checks the kit, measures nothing)
#                         bash kit.sh --help          all options
# Then, in GPU Planner:   gpuplanner kit-import PLAN gpuplanner-kit-result.json
#
# Needs bash, Python 3.8+ and PyTorch; nothing else, no network. It records nvidia-smi, nvidia-smi topo -m
# and the driver/CUDA versions; runs a matmul benchmark on every GPU, an all-reduce bus-bandwidth test and a
# training-step benchmark of the planned layer shape at 1, 2, 4, 8 ... GPUs; samples the power draw every
# 0.5 s; and writes ONE JSON file (--out FILE, default gpuplanner-kit-result.json). Read it before sending:
# it holds the host name and the raw nvidia-smi output.
set -u
OUT="gpuplanner-kit-result.json"
PY="${PYTHON:-}"
CPU=0
ARGS=()
while [ $# -gt 0 ]; do
    case "$1" in
        -o|--out) OUT="${2:?--out needs a file name}"; shift 2 ;;
        --python) PY="${2:?--python needs an interpreter}"; shift 2 ;;
        --cpu) CPU=1; ARGS+=("$1"); shift ;;
        *) ARGS+=("$1"); shift ;;
    esac
done
if [ -z "$PY" ]; then
    for cand in python3 python; do
        if command -v "$cand" >/dev/null 2>&1; then PY="$cand"; break; fi
    done
fi
if [ -z "$PY" ]; then echo "kit: no python3 found; pass --python /path/to/python" >&2; exit 2; fi
WORK="$(mktemp -d 2>/dev/null || mktemp -d -t gpuplanner-kit)"
SAMPLER=""
cleanup() {
    if [ -n "$SAMPLER" ]; then kill "$SAMPLER" 2>/dev/null; wait "$SAMPLER" 2>/dev/null; fi
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

cat > "$WORK/plan.json" <<'GPUPLANNER_PLAN_EOF'
@PLAN@
GPUPLANNER_PLAN_EOF

cat > "$WORK/kit.py" <<'GPUPLANNER_KIT_EOF'
@PY@
GPUPLANNER_KIT_EOF

if [ "$CPU" = 0 ] && command -v nvidia-smi >/dev/null 2>&1; then
    echo "kit: recording nvidia-smi, topo -m, driver and CUDA versions"
    nvidia-smi > "$WORK/nvidia-smi.txt" 2>&1 || true
    nvidia-smi topo -m > "$WORK/topo.txt" 2>&1 || true
    nvidia-smi --query-gpu=index,name,memory.total,pci.bus_id,driver_version --format=csv,noheader,nounits \
        > "$WORK/gpus.csv" 2>/dev/null || true
    (
        while :; do
            ts="$(date +%s.%N 2>/dev/null)"
            case "$ts" in *N*|"") ts="$(date +%s)" ;; esac
            nvidia-smi --query-gpu=index,power.draw,power.limit --format=csv,noheader,nounits 2>/dev/null \
                | sed "s/^/$ts, /"
            sleep 0.5
        done
    ) > "$WORK/power.csv" 2>/dev/null &
    SAMPLER=$!
fi

"$PY" "$WORK/kit.py" --work "$WORK" --plan "$WORK/plan.json" --out "$OUT" ${ARGS[@]+"${ARGS[@]}"}
exit $?
"""


def render_kit(scenario: Scenario, resolved: Any = None, *, base_dir: Path | None = None,
               created: datetime | None = None) -> str:
    """The acceptance-test kit for ``scenario`` as one bash script (text).

    ``resolved`` may be an :class:`estimate.Resolved`, an :class:`estimate.Estimate` or None (resolved here).
    The planned layer shape (hidden, heads, KV heads, MLP width, sequence length, micro-batch, recompute)
    is embedded; the script cuts the number of layers and the vocabulary down until one GPU holds the model
    (``--layers``/``--vocab`` override), so the per-layer matmuls are the planned ones.
    """
    r = _resolved(scenario, resolved, base_dir)
    s = scenario
    plan = {
        "plan": {
            "gpu": s.hardware.gpu, "gpu_name": getattr(r.gpu, "name", s.hardware.gpu),
            "num_gpus": s.hardware.num_gpus, "gpus_per_node": s.hardware.gpus_per_node,
            "model": r.arch.name, "method": s.training.method, "precision": s.training.precision,
            "layout": {"tp": s.parallel.tp, "pp": s.parallel.pp, "cp": s.parallel.cp, "ep": s.parallel.ep,
                       "dp": s.dp, "zero": s.parallel.zero},
        },
        "shape": _kit_shape(s, r),
    }
    when = (created or datetime.now(timezone.utc)).strftime("%Y-%m-%d %H:%M UTC")
    summary = (f"{r.arch.name}, {s.training.method}, {s.hardware.num_gpus} x {s.hardware.gpu}, "
               f"tp={s.parallel.tp} pp={s.parallel.pp} dp={s.dp}")
    plan_json = json.dumps(plan, ensure_ascii=True, sort_keys=True)
    return fill_template(_SH, {"DATE": when, "SUMMARY": _comment_safe(summary), "PLAN": plan_json,
                               "PY": kit_benchmark_source().strip("\n")})


_PLACEHOLDER = re.compile(r"@(DATE|SUMMARY|PLAN|PY)@")


def fill_template(template: str, values: dict[str, str]) -> str:
    """Fill ``@NAME@`` placeholders in one pass: a value is inserted as it is and never scanned again, so a
    model called ``@PY@`` or ``$(touch x)`` comes out literally (the values land in a comment, a quoted
    heredoc and a JSON document, where bash expands nothing)."""
    return _PLACEHOLDER.sub(lambda m: values[m.group(1)], template)


def _comment_safe(text: str) -> str:
    """One line for a bash comment: no line breaks or other control characters."""
    return "".join(ch if ch.isprintable() else " " for ch in text)


def kit_benchmark_source() -> str:
    """The benchmark program (:mod:`gpuplanner.verify.kit_bench`, a real module, imported and tested like any
    other) as text, to embed in the kit. The file ships next to this module (also in frozen builds:
    packaging/gpuplanner.spec copies it as data)."""
    path = Path(__file__).with_name("kit_bench.py")
    return path.read_text(encoding="utf-8")


# ------------------------------------------------------------------------------------------------- parse


class _Rec(NoBoolForNumbers):
    model_config = ConfigDict(extra="ignore")


class GpuInfo(_Rec):
    index: int = Field(ge=0)
    name: str = ""
    memory_gib: float | None = Field(None, ge=0)
    pci_bus_id: str | None = None


class MatmulRow(_Rec):
    gpu: int | None = Field(None, ge=0)
    tflops: float = Field(gt=0, allow_inf_nan=False)
    dtype: str = "bf16"
    n: int | None = Field(None, gt=0)


class AllreduceRow(_Rec):
    n: int = Field(ge=2)
    size_bytes: int | None = Field(None, gt=0)
    busbw_gbs: float = Field(ge=0, allow_inf_nan=False)
    algbw_gbs: float | None = Field(None, ge=0)
    time_s: float | None = Field(None, gt=0)


class TrainRow(_Rec):
    n: int = Field(ge=1)
    tokens_per_s: float = Field(gt=0, allow_inf_nan=False)
    step_s: float | None = Field(None, gt=0)
    tokens_per_step: float | None = Field(None, gt=0)
    params: int | None = Field(None, gt=0)


class PowerRow(_Rec):
    gpu: int = Field(ge=0)
    draw_w_mean: float = Field(ge=0, allow_inf_nan=False)
    draw_w_max: float | None = Field(None, ge=0)
    limit_w: float | None = Field(None, gt=0)
    samples: int | None = Field(None, ge=0)


#: the benchmarked shape's upper bounds: core.architecture.ARCH_LIMITS for the model's sizes (a result's shape is
#: counted as a ModelArch, whose parameter count lists each layer: 10**9 layers hung kit-import, probe18), the
#: context bound for the sequence; micro-batch and accumulation far beyond any run
_SHAPE_MAX = {"hidden": ARCH_LIMITS["hidden_size"][1], "layers": ARCH_LIMITS["num_layers"][1],
              "heads": ARCH_LIMITS["num_heads"][1], "kv_heads": ARCH_LIMITS["num_kv_heads"][1],
              "head_dim": ARCH_LIMITS["head_dim"][1], "ffn": ARCH_LIMITS["intermediate_size"][1],
              "vocab": ARCH_LIMITS["vocab_size"][1], "seq": ARCH_LIMITS["max_position_embeddings"][1],
              "batch": 1 << 20}


class KitShape(_Rec):
    hidden: int = Field(gt=0, le=_SHAPE_MAX["hidden"])
    layers: int = Field(gt=0, le=_SHAPE_MAX["layers"])
    heads: int = Field(gt=0, le=_SHAPE_MAX["heads"])
    kv_heads: int = Field(gt=0, le=_SHAPE_MAX["kv_heads"])
    head_dim: int = Field(gt=0, le=_SHAPE_MAX["head_dim"])
    ffn: int = Field(gt=0, le=_SHAPE_MAX["ffn"])
    vocab: int = Field(gt=0, le=_SHAPE_MAX["vocab"])
    seq: int = Field(gt=0, le=_SHAPE_MAX["seq"])
    mbs: int = Field(1, gt=0, le=_SHAPE_MAX["batch"])
    accum: int = Field(1, gt=0, le=_SHAPE_MAX["batch"])
    gated: bool = True
    recompute: Literal["none", "selective", "full"] = "none"
    dtype: str | None = None
    moe_as_dense: bool = False
    mla_as_mha: bool = False


class KitResult(_Rec):
    """A parsed kit result (schema ``gpuplanner-kit/1``; see the module docstring)."""

    schema_: Literal["gpuplanner-kit/1"] = Field(alias="schema")
    created: str | None = None
    host: str | None = None
    mode: Literal["cuda", "cpu"] | None = None
    backend: str | None = None
    tiny: bool = False
    torch: str | None = None
    plan: dict[str, Any] | None = None
    shape: KitShape | None = None
    gpus: list[GpuInfo] = Field(default_factory=list)
    driver: str | None = None
    cuda: str | None = None
    cuda_runtime: str | None = None
    nvidia_smi: str | None = None
    topo: str | None = None
    matmul: list[MatmulRow] = Field(default_factory=list)
    allreduce: list[AllreduceRow] = Field(default_factory=list)
    train_step: list[TrainRow] = Field(default_factory=list)
    power: list[PowerRow] = Field(default_factory=list)
    power_scope: str | None = None
    host_ram_gib: float | None = Field(None, gt=0, allow_inf_nan=False)
    errors: list[str] = Field(default_factory=list)
    note: str | None = None

    model_config = ConfigDict(extra="ignore", populate_by_name=True)


def _loc(loc: tuple) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + ("schema" if part == "schema_" else str(part))
    return out


def parse_kit_result(text: str | bytes) -> KitResult:
    """Read a kit result (JSON text). Raises :class:`KitResultError` with one line naming the field."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise KitResultError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "the result file is not UTF-8 text"))) from None
    from ..io.safe_read import (MAX_DEPTH, SURROGATE_ESCAPE, loads_finite, nesting_depth, one_line,
                                refuse_lone_surrogates)

    # the safe reader's nesting and lone-surrogate rules; a NaN or Infinity the benchmark wrote is refused here,
    # naming its field, wherever it stands (a field the model ignores or leaves unbounded included)
    if nesting_depth(text) > MAX_DEPTH:
        raise KitResultError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "not valid JSON (nested too deeply)")))
    try:
        data = loads_finite(text, unique_keys=True)  # a key given twice: refused naming it (our own format)
        if SURROGATE_ESCAPE.search(text):
            refuse_lone_surrogates(data)
    except json.JSONDecodeError as err:
        raise KitResultError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "not valid JSON (line {line}, column {col}: {msg})"), line=err.lineno, col=err.colno, msg=json_reason(err.msg))) from None
    except ValueError as err:
        if len(err.args) == 2:  # loads_finite: (where, the literal) or (the key given twice, why)
            raise KitResultError(MsgStr.make(CTX, "{field}: {why}", field=err.args[0], why=err.args[1])) from None
        raise KitResultError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "not valid JSON ({why})"),
                                         why=err.args[0] if err.args and hasattr(err.args[0], "context")
                                         else one_line(err, 80))) from None
    except RecursionError as err:
        raise KitResultError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "not valid JSON ({why})"),
                                         why=err.args[0] if err.args and hasattr(err.args[0], "context")
                                         else one_line(err, 80))) from None
    return kit_result_from_dict(data)


def kit_result_from_dict(data: Any) -> KitResult:
    """Validate a dict (e.g. values typed by hand) into a :class:`KitResult`."""
    if not isinstance(data, dict):
        raise KitResultError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "a kit result must be a JSON object")))
    schema = data.get("schema")
    if schema != SCHEMA:
        raise KitResultError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "schema: expected '{want}', got {got}"), want=SCHEMA, got=json.dumps(schema)))
    try:
        return KitResult.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        raise KitResultError(MsgStr.make(CTX, "{field}: {why}", field=_loc(first.get("loc", ())),
                                         why=validation_line(first))) from None


def load_kit_result(path: str | Path) -> KitResult:
    """Read a kit result file; errors name the file."""
    from ..io.safe_read import UnsafeInput, read_limited
    from .multinode import MAX_RESULT_BYTES

    p = Path(path)
    try:  # the safe reader: the path check, a regular file only, at most MAX_RESULT_BYTES
        raw = read_limited(p, MAX_RESULT_BYTES, "kit result")
    except UnsafeInput as err:
        raise KitResultError(error_text(err)) from None
    try:
        return parse_kit_result(raw)
    except KitResultError as err:
        raise KitResultError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "{file}: {error}"), file=p.name, error=error_text(err))) from None


# ----------------------------------------------------------------------------------------------- analyse


@dataclass
class Finding:
    severity: Literal["ok", "warn", "bad", "info"]
    text: str

    def to_json(self) -> dict:
        return {"severity": self.severity, "text": self.text}


@dataclass
class MatmulCheck:
    gpu: int | None
    tflops: float
    dtype: str
    peak: float | None
    ratio: float | None
    low: bool


@dataclass
class BusCheck:
    n: int
    busbw_gbs: float
    size_bytes: int | None
    reference_gbs: float | None
    reference: str  # what the reference is, with its source
    ratio: float | None
    low: bool


@dataclass
class ScalingPoint:
    n: int
    tokens_per_s: float
    linear: float  # n × tokens/s at the smallest n, scaled per GPU
    efficiency: float  # measured / linear
    mfu: float | None
    low: bool


@dataclass
class PowerCheck:
    gpu: int
    draw_w: float
    tdp_w: float | None
    limit_w: float | None
    ratio: float | None
    low: bool
    capped: bool  # the power limit is set below the catalog TDP


@dataclass
class Analysis:
    """What a kit result says about the server, against the plan (``scenario``) and the catalog."""

    gpu: str
    precision: str
    mode: str | None
    matmul: list[MatmulCheck] = field(default_factory=list)
    allreduce: list[BusCheck] = field(default_factory=list)
    scaling: list[ScalingPoint] = field(default_factory=list)
    power: list[PowerCheck] = field(default_factory=list)
    flops_per_token: float | None = None
    flops_source: str = ""
    peak_tflops: float | None = None
    measured_mfu: float | None = None
    mfu_at_n: int | None = None
    findings: list[Finding] = field(default_factory=list)

    @property
    def worst(self) -> str:
        """"bad", "warn" or "ok" (info lines count as ok)."""
        order = {"ok": 0, "info": 0, "warn": 1, "bad": 2}
        rank = max((order[f.severity] for f in self.findings), default=0)
        return ("ok", "warn", "bad")[rank]

    def scaling_series(self) -> tuple[list[int], list[float], list[float]]:
        """(GPU counts, measured tokens/s, linear tokens/s) for the chart "measured vs linear"."""
        return ([p.n for p in self.scaling], [p.tokens_per_s for p in self.scaling],
                [p.linear for p in self.scaling])

    def to_json(self) -> dict:
        return {
            "gpu": self.gpu, "precision": self.precision, "mode": self.mode,
            "matmul": [vars(m) for m in self.matmul],
            "allreduce": [vars(b) for b in self.allreduce],
            "scaling": [vars(p) for p in self.scaling],
            "power": [vars(p) for p in self.power],
            "flops_per_token": self.flops_per_token, "flops_source": self.flops_source,
            "peak_tflops": self.peak_tflops, "measured_mfu": self.measured_mfu, "mfu_at_n": self.mfu_at_n,
            "findings": [f.to_json() for f in self.findings], "worst": self.worst,
        }


def kit_flops_per_token(shape: KitShape) -> tuple[float, str]:
    """Model FLOPs per token of the benchmarked shape (MFU definition: no recomputation counted).

    Built as a :class:`architecture.ModelArch` (RMSNorm, no biases, untied head: what the kit builds) and
    counted by :func:`flops.model_flops_per_token`: ``6·N`` over the active matmul weights (Kaplan et al.
    2020 §2.1) plus the causal attention core (Kaplan et al. 2020 Table 1; FlashAttention-2 §3.1.1).
    """
    from ..core import flops
    from ..core.architecture import ModelArch
    from ..core.memory import model_facts
    from ..core.params import count_params

    arch = ModelArch(name="kit", model_type="kit", hidden_size=shape.hidden, num_layers=shape.layers,
                     num_heads=shape.heads, num_kv_heads=shape.kv_heads, head_dim=shape.head_dim,
                     intermediate_size=shape.ffn, vocab_size=shape.vocab, gated_mlp=shape.gated,
                     tie_word_embeddings=False)
    facts = model_facts(arch, count_params(arch))
    fpt = float(flops.model_flops_per_token(facts, shape.seq, method="full", causal=True))
    return fpt, QT_TRANSLATE_NOOP(
        CTX, "gpuplanner.core.flops: 6·N (active matmul weights) + causal attention (Kaplan et al. 2020)")


def kit_param_count(shape: KitShape) -> int:
    """Parameters of the benchmarked model (the kit reports torch's own count as ``train_step[].params``)."""
    from ..core.architecture import ModelArch
    from ..core.params import count_params

    arch = ModelArch(name="kit", model_type="kit", hidden_size=shape.hidden, num_layers=shape.layers,
                     num_heads=shape.heads, num_kv_heads=shape.kv_heads, head_dim=shape.head_dim,
                     intermediate_size=shape.ffn, vocab_size=shape.vocab, gated_mlp=shape.gated,
                     tie_word_embeddings=False)
    return int(count_params(arch).total)


#: the kit writes one error line per phase that failed (a few phases, a few GPUs): past this many, the rest are
#: counted, not listed; each line and the note shown as one printable line of at most MAX_REPORTED_TEXT characters
#: (a forged result with 100,000 errors printed 3.9 MB, escapes included, probe18)
MAX_REPORTED_ERRORS = 20
MAX_REPORTED_TEXT = 300


def _reported(a: "Analysis", result: KitResult) -> None:
    """The result's own note and the errors the kit reported, as findings."""
    from ..io.safe_read import one_line  # noqa: PLC0415

    add = a.findings.append
    if result.note:
        add(Finding("info", MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "Note in the result: {note}"),
                                        note=one_line(result.note, MAX_REPORTED_TEXT))))
    for err in result.errors[:MAX_REPORTED_ERRORS]:
        add(Finding("warn", MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "The kit reported an error: {err}"),
                                        err=one_line(err, MAX_REPORTED_TEXT))))
    if len(result.errors) > MAX_REPORTED_ERRORS:
        add(Finding("warn", MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "The kit reported {n} more errors (not listed)"),
                                        n=len(result.errors) - MAX_REPORTED_ERRORS)))


def _model_token(name: str) -> str | None:
    """The model designation in a catalog name ('NVIDIA H100 SXM5 80GB' → 'H100')."""
    for tok in re.findall(r"[A-Za-z0-9]+", name):
        if re.search(r"\d", tok) and re.search(r"[A-Za-z]", tok) and not re.fullmatch(r"\d+GB", tok, re.I):
            return tok.upper()
    return None


def _planned_flops(scenario: Scenario, base_dir: Path | None) -> tuple[float, str]:
    from ..core import flops
    from ..core.estimate import resolve

    r = resolve(scenario, _models(base_dir))
    t = scenario.training
    fpt = float(flops.model_flops_per_token(r.facts, t.seq_len, method=t.method, causal=True,
                                            lora_rank=t.lora_rank, lora_targets=t.lora_targets))
    return fpt, QT_TRANSLATE_NOOP(CTX, "gpuplanner.core.flops for the planned model (no shape in the result)")


def analyse(result: KitResult, scenario: Scenario, *, base_dir: Path | None = None,
            peak_tflops: float | None = None) -> Analysis:
    """Compare a kit result with the plan and the catalog.

    * matmul: achieved TFLOPS / the catalog's dense peak at the kit's dtype;
    * all-reduce: busbw / the catalog's measured NCCL busbw of the GPU's intra-node link, else / the link's
      one-way bandwidth (:func:`catalog_hw.intra_node_bandwidth_gbs`);
    * scaling: tokens/s at n GPUs / (n/n₀ × tokens/s at the smallest n₀), i.e. measured vs linear;
    * power: mean draw under load / catalog TDP, flagged below 60% (only meaningful under load);
    * measured MFU = model FLOPs/token × tokens/s per GPU / dense peak at the plan's precision
      (PaLM's definition, Chowdhery et al. 2022, arXiv:2204.02311 App. B), at the largest GPU count.
    """
    from ..core.catalog_hw import lookup_gpu

    gpu = lookup_gpu(scenario.hardware.gpu, scenario.hardware.custom_gpus)
    prec = scenario.training.precision
    peak_prec = "bf16" if prec == "fp8" else prec  # the kit trains in bf16 autocast when the plan says fp8
    a = Analysis(gpu=gpu.id, precision=peak_prec, mode=result.mode)
    add = a.findings.append
    cpu = result.mode == "cpu"
    if cpu:
        # a message with its id, so that `kit-import --lang zh_CN` says it in Chinese (a bare string stayed
        # English: cli18)
        add(Finding("warn", MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "Measured on the CPU (gloo, tiny sizes): this checks the kit, not the server; the figures "
            "mean nothing for the plan."))))
    _reported(a, result)
    _check_gpus(a, result, scenario, gpu)
    _check_matmul(a, result, gpu)
    _check_allreduce(a, result, scenario, gpu)
    _flops_and_peak(a, result, scenario, gpu, base_dir, peak_tflops)
    _check_scaling(a, result, scenario)
    _check_power(a, result, gpu)
    _check_host_ram(a, result, host_ram_need_gib(scenario, base_dir))
    return a


def host_ram_need_gib(scenario: Scenario, base_dir: Path | None = None) -> float | None:
    """Host RAM per server the plan's CPU offload needs (core.intake.host_ram, as every view of the plan says it);
    None without offload."""
    from ..core.estimate import estimate
    from ..core.intake import host_ram

    try:
        est = estimate(scenario, _models(base_dir))
    except PlannerError:
        return None
    host = host_ram(est.resolved, est.trainable)
    return None if host is None or host.total <= 0 else float(host.total)


def _check_host_ram(a: Analysis, result: KitResult, need: float | None) -> None:
    """The server's host RAM against what the plan's CPU offload keeps there. Issue 35 round 18 (advice20): the
    Mixtral example's #1 (8 × L40S, the optimizer in CPU memory) needs about 1,044 GiB per server; the plan said so,
    but the acceptance kit, the planning guide's "after renting" checklist, did not look. A server with less host
    RAM cannot run the plan (the offloaded states and their pinned buffers live there)."""
    if need is None:
        return
    add = a.findings.append
    have = result.host_ram_gib
    if have is None:
        add(Finding("warn", MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "The plan keeps about {need:,.0f} GiB per server in CPU memory (CPU offload), and the result does "
                 "not give the server's host RAM: read it with free -g before the run."), need=need)))
    elif have < need:
        add(Finding("bad", MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "The server has {have:,.0f} GiB of host RAM; the plan's CPU offload needs about {need:,.0f} GiB per "
                 "server: this server cannot run the plan. Ask the vendor for servers with that much CPU memory, or "
                 "plan without CPU offload."), have=have, need=need)))
    else:
        add(Finding("ok", MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "Host RAM: {have:,.0f} GiB per server, enough for the {need:,.0f} GiB the plan's CPU offload "
                 "needs."), have=have, need=need)))


def _check_gpus(a: Analysis, result: KitResult, scenario: Scenario, gpu: Any) -> None:
    """Which GPU was measured, and how many per node, against the plan."""
    add = a.findings.append
    cpu = a.mode == "cpu"
    want = _model_token(gpu.name)
    names = sorted({g.name for g in result.gpus if g.name})
    if names and want and not any(want in n.upper().replace(" ", "") for n in names):
        add(Finding("bad", MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "The server reports {names}, but the plan is for {gpu}."), names=", ".join(names), gpu=gpu.name)))
    planned = scenario.hardware.gpus_per_node if scenario.hardware.num_gpus >= scenario.hardware.gpus_per_node \
        else scenario.hardware.num_gpus
    if result.gpus and not cpu and len(result.gpus) < planned:
        add(Finding("bad", MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "The server shows {have} GPUs; the plan needs {want} per node."), have=len(result.gpus), want=planned)))


def _check_matmul(a: Analysis, result: KitResult, gpu: Any) -> None:
    """Matmul TFLOPS per GPU against the catalog's dense peak at the kit's dtype, and the spread between GPUs."""
    from ..core.catalog_hw import peak_tflops as catalog_peak

    add = a.findings.append
    cpu = a.mode == "cpu"
    for m in result.matmul:
        peak = None
        if not cpu:
            try:
                peak = catalog_peak(gpu, m.dtype)
            except PlannerError:
                peak = None
        ratio = m.tflops / peak if peak else None
        low = ratio is not None and ratio < MATMUL_LOW
        a.matmul.append(MatmulCheck(gpu=m.gpu, tflops=m.tflops, dtype=m.dtype, peak=peak, ratio=ratio, low=low))
    lows = [m for m in a.matmul if m.low]
    if lows:
        add(Finding("bad", MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "Matmul on GPU {gpus} reaches only {pct:.0f}% of the {peak:g} TFLOPS dense peak (large GEMMs "
            "usually reach 80–87%): power cap, clocks, thermal throttling or a different card."), gpus=", ".join(str(m.gpu) for m in lows), pct=100 * min(m.ratio for m in lows), peak=lows[0].peak)))
    elif a.matmul and any(m.ratio for m in a.matmul):
        add(Finding("ok", MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "Matmul: {lo:.0f}–{hi:.0f}% of dense peak on every GPU."), lo=100 * min(m.ratio for m in a.matmul if m.ratio), hi=100 * max(m.ratio for m in a.matmul if m.ratio))))
    if len(a.matmul) > 1:
        vals = [m.tflops for m in a.matmul]
        if min(vals) < 0.9 * max(vals):
            add(Finding("warn", MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "Matmul speed differs by more than 10% between GPUs ({lo:.0f}–{hi:.0f} TFLOPS): one card is "
                "slower than its neighbours."), lo=min(vals), hi=max(vals))))


def _check_allreduce(a: Analysis, result: KitResult, scenario: Scenario, gpu: Any) -> None:
    """All-reduce bus bandwidth (the largest message per GPU count) against the catalog's link."""
    from ..core.catalog_hw import intra_node_bandwidth_gbs, intra_node_network

    add = a.findings.append
    cpu = a.mode == "cpu"
    net = intra_node_network(gpu)
    link_one_way = intra_node_bandwidth_gbs(gpu, scenario.hardware.intra_node)
    best: dict[int, AllreduceRow] = {}
    for row in result.allreduce:
        cur = best.get(row.n)
        if cur is None or (row.size_bytes or 0) > (cur.size_bytes or 0):
            best[row.n] = row
    for n in sorted(best):
        row = best[n]
        if cpu:
            ref, what, thr = None, QT_TRANSLATE_NOOP(CTX, "none (CPU run)"), 0.0
        elif net is not None and net.busbw_gbs and scenario.hardware.intra_node is None:
            ref, thr = float(net.busbw_gbs), BUSBW_LOW
            what = MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "measured NCCL busbw of {link}: {src}"), link=net.name, src=net.busbw_source or net.source)
        elif link_one_way:
            ref, thr = float(link_one_way), BUSBW_LOW_VS_LINK
            what = MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "one-way link bandwidth of {gpu} (catalog, bidirectional / 2)"), gpu=gpu.name)
        else:
            ref, what, thr = None, QT_TRANSLATE_NOOP(CTX, "unknown in the catalog"), 0.0
        ratio = row.busbw_gbs / ref if ref else None
        a.allreduce.append(BusCheck(n=n, busbw_gbs=row.busbw_gbs, size_bytes=row.size_bytes, reference_gbs=ref,
                                    reference=what, ratio=ratio, low=ratio is not None and ratio < thr))
    low_bus = [b for b in a.allreduce if b.low]
    if low_bus:
        b = low_bus[-1]
        add(Finding("bad", MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "All-reduce over {n} GPUs: {bw:.1f} GB/s bus bandwidth, {pct:.0f}% of the {ref:.0f} GB/s "
            "reference ({what}). Check the interconnect (nvidia-smi topo -m) and NCCL settings."), n=b.n, bw=b.busbw_gbs, pct=100 * b.ratio, ref=b.reference_gbs, what=b.reference)))
    elif a.allreduce and a.allreduce[-1].ratio is not None:
        b = a.allreduce[-1]
        add(Finding("ok", MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "All-reduce over {n} GPUs: {bw:.1f} GB/s bus bandwidth "
                                                 "({pct:.0f}% of the reference)."), n=b.n, bw=b.busbw_gbs, pct=100 * b.ratio)))


def _flops_and_peak(a: Analysis, result: KitResult, scenario: Scenario, gpu: Any, base_dir: Path | None,
                    peak_tflops: float | None) -> None:
    """Model FLOPs per token (of the kit's shape, else of the plan) and the dense peak the MFU divides by."""
    from ..core.catalog_hw import peak_tflops as catalog_peak

    if result.shape is not None:
        a.flops_per_token, a.flops_source = kit_flops_per_token(result.shape)
    elif result.train_step:
        a.flops_per_token, a.flops_source = _planned_flops(scenario, base_dir)
    if peak_tflops is not None:
        a.peak_tflops = float(peak_tflops)
    else:
        try:
            a.peak_tflops = catalog_peak(gpu, a.precision)  # bf16 when the plan says fp8
        except PlannerError:
            a.peak_tflops = None


def _check_scaling(a: Analysis, result: KitResult, scenario: Scenario) -> None:
    """Tokens/s against linear scaling from the smallest GPU count, and the measured MFU per count."""
    add = a.findings.append
    cpu = a.mode == "cpu"
    rows = sorted({r.n: r for r in result.train_step}.values(), key=lambda r: r.n)
    if rows:
        base = rows[0]
        per_gpu0 = base.tokens_per_s / base.n
        for r in rows:
            linear = per_gpu0 * r.n
            eff = r.tokens_per_s / linear
            mfu = None
            if a.flops_per_token and a.peak_tflops:
                mfu = a.flops_per_token * r.tokens_per_s / r.n / (a.peak_tflops * 1e12)
            a.scaling.append(ScalingPoint(n=r.n, tokens_per_s=r.tokens_per_s, linear=linear, efficiency=eff,
                                          mfu=mfu, low=r.n > base.n and eff < SCALING_LOW))
        last = a.scaling[-1]
        a.measured_mfu, a.mfu_at_n = last.mfu, last.n
        lows_s = [p for p in a.scaling if p.low]
        if lows_s and not cpu:
            p = lows_s[0]
            add(Finding("bad", MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "Scaling: {n} GPUs give {pct:.0f}% of linear speed-up over {n0}."), n=p.n, pct=100 * p.efficiency, n0=base.n)))
        elif len(a.scaling) > 1 and not cpu:
            add(Finding("ok", MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "Scaling: {pct:.0f}% of linear at {n} GPUs."), pct=100 * last.efficiency, n=last.n)))
        if a.measured_mfu is not None:
            add(Finding("info", MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "Measured MFU {pct}% at {n} GPU(s) (model FLOPs/token {fpt} × tokens/s per GPU ÷ "
                "{peak:g} TFLOPS peak). It is measured without the plan's tensor/pipeline communication and "
                "between-node traffic, so treat it as an upper bound when the plan spans nodes or uses tp/pp > 1."), pct=format_sig(100 * a.measured_mfu), n=a.mfu_at_n, fpt=format_flops(a.flops_per_token), peak=a.peak_tflops)))
        if scenario.training.method in ("lora", "qlora"):
            add(Finding("info", MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "The kit trains all weights; the plan is {m}. Its MFU is applied as the share of peak the "
                "matmuls reach."), m=scenario.training.method)))
        if _is_moe_plan(result):
            add(Finding("info", MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "MoE plan: the kit ran a dense MLP as wide as the active experts; routing and the expert "
                "all-to-all were not measured."))))


def _check_power(a: Analysis, result: KitResult, gpu: Any) -> None:
    """Mean power draw under load against the catalog TDP, and power limits set below it."""
    add = a.findings.append
    for p in result.power:
        tdp = gpu.tdp_w
        ratio = p.draw_w_mean / tdp if tdp else None
        capped = bool(tdp and p.limit_w and p.limit_w < 0.95 * tdp)
        a.power.append(PowerCheck(gpu=p.gpu, draw_w=p.draw_w_mean, tdp_w=tdp, limit_w=p.limit_w, ratio=ratio,
                                  low=ratio is not None and ratio < POWER_LOW, capped=capped))
    low_p = [p for p in a.power if p.low]
    if low_p:
        scope = QT_TRANSLATE_NOOP(CTX, " (averaged over the whole run, idle phases included)") \
            if result.power_scope == "whole run" else ""
        add(Finding("warn", MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "Power on GPU {gpus} averaged below 60% of the {tdp:.0f} W TDP under load{scope}. This only "
            "means something while the GPUs are loaded: check clocks and power caps if matmul is low too."), gpus=", ".join(str(p.gpu) for p in low_p), tdp=low_p[0].tdp_w, scope=scope)))
    capped = [p for p in a.power if p.capped]
    if capped:
        add(Finding("warn", MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "Power limit on GPU {gpus} is set to {lim:.0f} W, below the {tdp:.0f} W TDP: the cards are "
            "power-capped."), gpus=", ".join(str(p.gpu) for p in capped), lim=min(p.limit_w for p in capped),
                                    tdp=capped[0].tdp_w)))


def _is_moe_plan(result: KitResult) -> bool:
    return bool(result.shape is not None and result.shape.moe_as_dense)


# ------------------------------------------------------------------------------------ apply and compare


def measured_gpu(result: KitResult, scenario: Scenario) -> str | None:
    """The catalog GPU the kit ran on, from the names the driver reported: the plan's GPU when its model
    designation (e.g. 'H100') is in the names, else the catalog GPU with the longest designation found there
    (memory size breaking ties); None when no name matches (a CPU run reports none)."""
    from ..core.catalog_hw import load_gpus, lookup_gpu

    names = [g.name.upper().replace(" ", "") for g in result.gpus if g.name]
    if not names:
        return None
    mem = next((g.memory_gib for g in result.gpus if g.memory_gib), None)
    plan = lookup_gpu(scenario.hardware.gpu, scenario.hardware.custom_gpus)
    tok = _model_token(plan.name)
    if tok and all(tok in n for n in names) and (mem is None or plan.memory_gib is None
                                                   or abs(plan.memory_gib - mem) <= 0.1 * plan.memory_gib):
        return plan.id
    best = None
    for gid, g in load_gpus().items():
        t = _model_token(g.name)
        if not t or not all(t in n for n in names):
            continue
        mem_gap = abs((g.memory_gib or 0) - mem) if mem is not None else 0.0
        key = (len(t), -mem_gap)
        if best is None or key > best[0]:
            best = (key, gid)
    return None if best is None else best[1]


def measured_run(result: KitResult, analysis: Analysis, scenario: Scenario, source: str | None = None):
    """The kit result as a :class:`core.scenario.MeasuredRun`: the GPU it ran on (:func:`measured_gpu`), the GPU
    count of the measured MFU, one node, no TP/PP, DDP (``hf``, ZeRO 0: kit_bench.py) and the MFU against
    *that* GPU's dense peak. None without a training-step MFU."""
    from ..core.catalog_hw import peak_tflops as catalog_peak
    from ..core.scenario import MeasuredRun

    mfu = analysis.measured_mfu
    if mfu is None or not math.isfinite(mfu) or mfu <= 0:
        return None
    cpu = result.mode == "cpu"
    gid = measured_gpu(result, scenario) or ("cpu" if cpu else "unknown")
    if not cpu and gid not in ("unknown", analysis.gpu) and analysis.peak_tflops:
        try:  # the analysis divided by the planned GPU's peak; the run's own peak is the right one
            mfu = mfu * analysis.peak_tflops / catalog_peak(gid, analysis.precision)
        except PlannerError:
            gid = "unknown"
    n = analysis.mfu_at_n or 1
    return MeasuredRun(gpu=gid, num_gpus=n, nodes=1, tp=1, pp=1, zero=0, framework="hf",
                       mfu=float(f"{min(mfu, 1.0):.6g}"), device="cpu" if cpu else "cuda",
                       source=source or result.host, date=(result.created or "")[:10] or None)


def apply_measured_mfu(scenario: Scenario, analysis: Analysis) -> Scenario:
    """A copy of ``scenario`` with ``assumptions.mfu`` set to the measured MFU (6 significant digits)."""
    mfu = analysis.measured_mfu
    if mfu is None or not math.isfinite(mfu) or mfu <= 0:
        raise KitResultError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "train_step: the result has no training-step measurement to compute an MFU from")))
    if mfu > 1:
        raise KitResultError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "train_step: the measured MFU {pct:.0f}% exceeds 100% of peak; check the GPU in the plan"), pct=100 * mfu))
    new = scenario.model_copy(deep=True)
    new.assumptions.mfu = float(f"{mfu:.6g}")
    return new


def _figures(scenario: Scenario, base_dir: Path | None) -> dict:
    """The plan's MFU, tokens/s per GPU, compute days and GPU-hours as its Evaluation holds them
    (:func:`core.evaluate.evaluate`: at the MFU the plan is timed at — the class's ceiling where the modelled MFU is
    above it; an assumed or measured MFU is evidence and not capped), the figures ``estimate``, the Plans page and
    the PDF print; before parity16 the time model's own MFU, so a capped plan read "61%" here and "53%" there. The
    cost: those GPU-hours × the card-hour price (said so where it is shown)."""
    from ..core.cost import PriceTable
    from ..core.evaluate import evaluate

    out: dict[str, Any] = {"mfu": None, "tokens_per_s_per_gpu": None, "compute_days": None, "gpu_hours": None,
                           "cost": None, "currency": scenario.constraints.currency, "card_hour": None}
    try:
        ev = evaluate(scenario, _models(base_dir), rent_vs_build=False)
    except PlannerError:
        return out
    t = ev.time
    out.update(mfu=ev.mfu, tokens_per_s_per_gpu=t.tokens_per_s_per_gpu, compute_days=ev.compute_days,
               gpu_hours=ev.gpu_hours)
    try:
        price = PriceTable.from_constraints(scenario.constraints).get(scenario.hardware.gpu)
    except PlannerError:
        price = None
    # on demand; where the GPU is only leased by the week or month (e.g. the mainland H100 default), that
    # price spread over its hours
    rate = None if price is None else next((v for v in (price.card_hour, price.mode_card_hour("month"),
                                                        price.mode_card_hour("week")) if v is not None), None)
    if rate is not None and math.isfinite(ev.gpu_hours):
        out["card_hour"] = rate
        out["cost"] = ev.gpu_hours * rate
    return out


def before_after(scenario: Scenario, analysis: Analysis, base_dir: Path | None = None) -> dict:
    """Time and cost of the plan with the modelled (or assumed) MFU and with the measured one.

    Cost = GPU-hours × the on-demand card-hour price (the plan's quotes or the catalog default;
    :class:`cost.PriceTable`; a GPU leased only by the month or week: that price per card-hour), without setup
    or interruption overheads.
    """
    after_s = apply_measured_mfu(scenario, analysis)
    return {"before": _figures(scenario, base_dir), "after": _figures(after_s, base_dir),
            "measured_mfu": after_s.assumptions.mfu}
