"""What a pre-training step pays that does not shrink with more GPUs (issue 35 round 15, scale15): a diagnostic.

Usage: python bench/scale15_fixed_terms.py

Changes no model figure. Two parts:

1. **Fixed and per-micro-batch parts of the step, published against the model.** In a series of MLPerf runs with the
   same code, model and layout that differ only in how many replicas share the global batch, the step is close to
   ``a + b·m`` (``m`` micro-batches per replica; ``b`` one micro-batch's time on one pipeline rank, ``a`` everything
   paid once a step: the pipeline's fill and drain, the exposed data-parallel collectives, the optimizer, the
   step-end synchronisation). A least-squares line through the published steps and one through the model's give
   each side's ``a`` and ``b``; where the model leans too fast at large scale (few micro-batches) but not at small
   scale, its ``a`` is too small. DP grows along a series, so ``a`` also holds the DP-dependent terms (the bucket
   latencies grow with the ring); the residuals say how well one line holds.

2. **NCCL's own latency model for the collectives a step pays once** (NVIDIA/nccl ``src/graph/tuning.cc`` @5067397c,
   ``ncclTunerConstantsDefaults`` and ``ncclTopoTuneModel``): base latency + per-step hardware latency by algorithm
   and protocol. Ring: ``nsteps − nInterSteps`` intra-node steps (NVLink 3.4 µs Simple / 0.6 µs LL, or the NIC's
   post overhead × 3 if larger: 1 µs Intel/ARM, 2 µs AMD) plus ``nInterSteps`` network steps (14 µs Simple,
   2.7 µs LL); Tree all-reduce ``2·((ppn − 1)·intra + log2(nodes)·inter)`` (NET 14 µs Simple / 5.0 µs LL); PAT
   (reduce-scatter / all-gather, one GPU per node only) ``log2(nodes)·inter/3.5 + n·2.8 µs``; NVLS-tree
   ``25 + 2·log2(nodes)·20.9 µs`` (Simple only). The planner's ``timing._ring_latency`` is NCCL's Ring/Simple with the
   3.4 µs NVLink step; this part prints, for the largest run of each series, what NCCL's tuner would charge the
   step's once-a-step collectives against what the planner charges.
"""
from __future__ import annotations

import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import validate_bridge_dense as vbd  # noqa: E402
import validate_mlperf_oos as vmo  # noqa: E402
import validate_pt_oos14 as vp14  # noqa: E402

from gpuplanner.core import timing as T  # noqa: E402

# ------------------------------------------------------------------ NCCL tuning.cc (5067397c) constants, microseconds
#: ``baseLatencies`` [algorithm][LL, LL128, Simple]
NCCL_BASE = {"tree": (6.8, 14.0, 8.4), "ring": (6.6, 14.0, 8.4), "nvls_tree": (0.0, 0.0, 0.0), "pat": (8.0, 8.0, 8.0)}
#: ``hwLatencies`` [NVLINK | NET][algorithm][LL, LL128, Simple]
NCCL_HW = {"nvlink": {"tree": (0.6, 1.25, 4.0), "ring": (0.6, 1.9, 3.4), "nvls_tree": (0.0, 0.0, 25.0),
                      "pat": (0.0, 0.0, 4.0)},
           "net": {"tree": (5.0, 8.5, 14.0), "ring": (2.7, 4.0, 14.0), "nvls_tree": (0.0, 0.0, 20.9),
                   "pat": (0.0, 0.0, 14.0)}}
#: ``getNetOverhead``: the NIC post overhead by host CPU (µs), × 3 for Simple, a floor on a ring's intra-node step
NCCL_NET_OVERHEAD = {"intel": 1.0, "amd": 2.0, "arm": 1.0}
PROTO = {"ll": 0, "ll128": 1, "simple": 2}


def nccl_latency_us(coll: str, algo: str, proto: str, n: int, nodes: int, cpu: str = "intel") -> float | None:
    """NCCL's modelled latency (µs) of one collective (``ncclTopoTuneModel``, latency part only); None where the
    algorithm does not run that collective / protocol."""
    p = PROTO[proto]
    if algo == "nvls_tree" and (proto != "simple" or coll != "all_reduce" or nodes < 2):
        return None
    if algo == "tree" and coll != "all_reduce":
        return None
    if algo == "pat" and (coll == "all_reduce" or proto != "simple" or nodes != n):
        return None
    ppn = n / nodes
    lat = NCCL_BASE[algo][p]
    intra = NCCL_HW["nvlink"][algo][p]
    inter = NCCL_HW["net"]["tree" if ppn == 1 else algo][p]  # (+ latencyInter: 0 for IB and sockets)
    lg = int(math.log2(nodes)) if nodes > 0 else 0
    if algo == "ring":
        nsteps = 2 * (n - 1) if coll == "all_reduce" else n - 1
        n_inter = 0 if nodes == 1 else (2 * (nodes - 1) if coll == "all_reduce" else nodes - 1)
        if nodes > 1:
            intra = max(intra, NCCL_NET_OVERHEAD[cpu] * (3.0 if proto == "simple" else 1.0))
        return lat + (nsteps - n_inter) * intra + n_inter * inter
    if algo == "tree":
        return lat + 2.0 * ((n / nodes - 1) * intra + lg * inter)
    if algo == "nvls_tree":
        return lat + intra + 2.0 * lg * inter
    return lat + lg * (inter / 3.5) + n * 2.8  # PAT


def nccl_min_latency_us(coll: str, n: int, nodes: int, proto: str = "simple") -> tuple[str, float]:
    """The smallest latency NCCL's tuner offers for the collective (its choice for a message small enough that the
    latency decides)."""
    opts = {a: nccl_latency_us(coll, a, proto, n, nodes) for a in ("ring", "tree", "pat", "nvls_tree")}
    opts = {a: v for a, v in opts.items() if v is not None}
    a = min(opts, key=opts.get)
    return a, opts[a]


# ------------------------------------------------------------------ part 1: a + b·m per series
def _series_rows() -> dict[str, list[tuple[str, int, int, float, float]]]:
    """(label, GPUs, micro-batches per replica, published step s, model step s, scenario) per series: one bench
    module's rows of one benchmark, card and round (one mapping: the two modules map Llama 3.1 405B differently)."""
    out: dict[str, list] = {}
    for r, row in zip(vmo.results(), vmo.ROWS):
        rnd, res, _cfg, bench, system, n, gbs, mbs, tp, pp, cp, vp, step, _how = row
        if bench not in ("gpt3", "llama31_405b") or r["pred"] is None:
            continue
        m = gbs // (n // (tp * pp * cp) * mbs)
        pred = gbs * vmo.SEQ[bench] / r["pred"] / n
        out.setdefault(f"{bench} {system} {rnd} (validate_mlperf_oos)", []).append(
            (res, n, m, step, pred, vmo.scenario(row)))
    for r, row in zip(vp14.results(), vp14.ROWS):
        rnd, _org, res, _cfg, bench, system, n, gbs = row[:8]
        if r["pred"] is None:
            continue
        pred = gbs * vp14.SEQ[bench] / r["pred"] / n
        out.setdefault(f"{bench} {system} {rnd} (validate_pt_oos14)", []).append(
            (res, n, vp14.micro_batches(row), row[13], pred, vp14.scenario(row)))
    return out


def _line(xs: list[float], ys: list[float]) -> tuple[float, float]:
    """Least-squares ``y = a + b·x``."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else float("nan")
    return my - b * mx, b


def breakdown(scenario: dict) -> tuple[float, float, float]:
    """The model's (exposed data-parallel, hidden data-parallel, pipeline bubble) seconds per step."""
    t = vbd.time_estimate(vbd.resolve(vbd.scenario_from_dict(scenario)))
    return t.seconds.get("dp_comm", 0.0), t.hidden.get("dp_comm", 0.0), t.seconds.get("pp_bubble", 0.0)


def series_lines() -> list[str]:
    out = ["| series | runs | micro-batches | published a (s) | published b (ms) | model a (s) | model b (ms) | "
           "a: model − published (s) | b: model / published | largest run: error | its DP exposed / hidden, "
           "bubble (s) |",
           "|---|---:|---|---:|---:|---:|---:|---:|---:|---|---|"]
    for name, rows in sorted(_series_rows().items()):
        ms = sorted({r[2] for r in rows})
        if len(ms) < 2:
            continue
        xs = [float(r[2]) for r in rows]
        pa, pb = _line(xs, [r[3] for r in rows])
        ma, mb = _line(xs, [r[4] for r in rows])
        big = max(rows, key=lambda r: r[1])
        dp_exp, dp_hid, bubble = breakdown(big[5])
        out.append(f"| {name} | {len(rows)} | {', '.join(map(str, ms))} | {pa:.3f} | {pb * 1e3:.1f} | {ma:.3f} | "
                   f"{mb * 1e3:.1f} | {ma - pa:+.3f} | {mb / pb:.3f} | {big[0]} ({big[1]} GPUs, m {big[2]}): "
                   f"{big[3] / big[4] - 1:+.1%} | {dp_exp:.3f} / {dp_hid:.3f}, {bubble:.3f} |")
    return out


# ------------------------------------------------------------------ part 2: NCCL latencies of the once-a-step terms
#: (label, ranks, nodes, collective, protocol, charged by the planner): the largest run of each series. Nodes are
#: NCCL's: NVLink domains under MNNVL (``graph/topo.cc``: "MNNVL clique support", the clique's ranks are the local
#: ranks the topology fuses). DP × CP is the
#: distributed optimizer's group (Megatron shards over ``data_parallel_group_with_cp``); the grad-norm all-reduce runs
#: over the whole world for the distributed optimizer (Megatron-LM @d98e8a64 ``optimizer/optimizer.py``
#: ``get_grad_stats_parallel_group``: "Distributed optimizer … Return the entire world"; ``clip_grads.py``
#: ``get_grad_norm_fp32``: one ``all_reduce`` of the fp32 norm, then ``.item()``).
CASES = [
    ("GPT-3 10,752 H100: dist-opt bucket RS / AG, DP 336 (2 a node)", 336, 168, "reduce_scatter", "simple", True),
    ("GPT-3 10,752 H100: grad-norm all-reduce, world", 10752, 1344, "all_reduce", "ll", False),
    ("405B 8,192 H100: dist-opt bucket RS / AG, DP×CP 256 (1 a node)", 256, 256, "reduce_scatter", "simple", True),
    ("405B 8,192 H100: grad-norm all-reduce, world", 8192, 1024, "all_reduce", "ll", False),
    ("8B 1,024 GB200: dist-opt bucket RS / AG, DP×CP 256 (16 a rack)", 256, 16, "reduce_scatter", "simple", True),
    ("8B 1,024 GB200: grad-norm all-reduce, world (64 a rack)", 1024, 16, "all_reduce", "ll", False),
    ("nanotron 64 nodes DDP 25 MB bucket all-reduce, DP 128 (2 a node)", 128, 64, "all_reduce", "simple", True),
]


def nccl_lines() -> list[str]:
    out = ["| collective | ring (µs) | tree (µs) | PAT (µs) | NVLS-tree (µs) | NCCL's lowest | planner "
           "(`_ring_latency` of the communicator's nodes, µs) |", "|---|---:|---:|---:|---:|---|---:|"]
    for label, n, nodes, coll, proto, charged in CASES:
        v = {a: nccl_latency_us(coll, a, proto, n, nodes) for a in ("ring", "tree", "pat", "nvls_tree")}
        a, lo = nccl_min_latency_us(coll, n, nodes, proto)
        planner = float(T._ring_latency(n, n / nodes, "all_reduce" if coll == "all_reduce" else "all_gather",
                                        T._ScalarOps)) * 1e6
        cell = [("—" if v[k] is None else f"{v[k]:,.0f}") for k in ("ring", "tree", "pat", "nvls_tree")]
        out.append(f"| {label} ({proto}) | {' | '.join(cell)} | {a} {lo:,.0f} | "
                   f"{f'{planner:,.0f}' if charged else 'not charged'} |")
    return out


def main() -> int:
    print("Part 1: step = a + b·m per series (least squares; published vs model)\n")
    print("\n".join(series_lines()))
    print("\nPart 2: NCCL tuning.cc latency of the once-a-step collectives (largest run of each series)\n")
    print("\n".join(nccl_lines()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
