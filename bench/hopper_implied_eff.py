"""Which Hopper matmul share would each published H100 row need? (issue 35 round 8, helper bf16h8)

Usage: python bench/hopper_implied_eff.py

For every published H100 Megatron/NeMo or llm-foundry row the model scores, this finds by bisection the value of
``timing.GEN_EFFICIENCY["hopper"]`` at which the model would predict the row exactly, all other constants as they
are. It changes nothing in the model: the value is set in this process only, row by row, and put back.

The point is to see whether the NeMo 24.09/24.12 BF16 rows (dgxc-benchmarking, ``bench/validate_bridge_oos.py``),
which the model predicts ~9% too slow, disagree with the sources that set the share (Megatron-Core README H100 rows
of July 2024 and llm-foundry's H100 rows of late 2023, ``bench/validate_time.py``) or with the FP8 rows of the same
recipes. The value is the share of the dense BF16 peak on the large linear GEMMs; FP8 rows reach it through
``fp8.TE_GEMM_RATIO``, so an FP8 row's value is the BF16 share that would make its FP8 time right.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from gpuplanner.core import timing as T  # noqa: E402
from gpuplanner.core.estimate import resolve  # noqa: E402
from gpuplanner.core.scenario import scenario_from_dict  # noqa: E402

import validate_bridge_dense as vbd  # noqa: E402
import validate_bridge_oos as oos  # noqa: E402
import validate_time as vt  # noqa: E402

LO, HI, STEPS = 0.30, 0.95, 24


def implied(predict, published: float) -> float:
    """The Hopper share at which ``predict()`` (tokens/s/GPU) equals ``published`` (bisection; the prediction rises
    with the share). Returns LO or HI where the row cannot be met in that range."""
    saved = T.GEN_EFFICIENCY["hopper"]
    lo, hi = LO, HI
    try:
        for _ in range(STEPS):
            mid = 0.5 * (lo + hi)
            T.GEN_EFFICIENCY["hopper"] = mid
            T.gpu_time_facts.cache_clear()  # it caches the share per GPU (lru_cache)
            if predict() < published:
                lo = mid
            else:
                hi = mid
    finally:
        T.GEN_EFFICIENCY["hopper"] = saved
        T.gpu_time_facts.cache_clear()
    return 0.5 * (lo + hi)


def _tok(sc: dict) -> float:
    return T.time_estimate(resolve(scenario_from_dict(sc))).tokens_per_s_per_gpu


def rows() -> list[tuple[str, str, float]]:
    """(group, row label, implied share) for every scored H100 row of the sources named in the module doc."""
    out = []
    for row in oos.ROWS:
        group = f"dgxc NeMo 24.09/24.12 pre-training {'BF16' if row[3] == 'bf16' else 'FP8 delayed'}"
        label = f"{row[2]} {row[3]} {row[4]} GPUs"
        out.append((group, label, implied(lambda r=row: _tok(oos.scenario(r)), row[-1] / row[4])))
    for row in vbd.ROWS:
        if row[1] != "H100":
            continue
        group = f"Bridge/NeMo dense table, H100 FP8 {'current' if row[3] == 'cs' else 'delayed'} scaling"
        label = f"{row[0]} {row[2]} {row[4]} GPUs"
        out.append((group, label, implied(lambda r=row: _tok(vbd.scenario(r)), row[-1])))
    for row in vt.throughput_rows():
        rid = row["id"]
        if rid.startswith("megatron-readme-h100"):
            group = "Megatron-Core README H100 (July 2024), BF16"
        elif rid.startswith("llmfoundry") and "h100" in rid:
            group = "llm-foundry H100 (v0.3.0, 2023), BF16"
        else:
            continue
        pub = vt.published_tokens_per_s(row)[0]
        out.append((group, rid, implied(lambda r=row: vt.run_row(r)["predicted"], pub)))
    return out


def summary_lines(res: list[tuple[str, str, float]]) -> list[str]:
    lines = ["| group | rows | implied Hopper share: median | min | max |", "|---|---:|---:|---:|---:|"]
    for group in dict.fromkeys(g for g, _l, _v in res):
        v = [x for g, _l, x in res if g == group]
        lines.append(f"| {group} | {len(v)} | {statistics.median(v):.3f} | {min(v):.3f} | {max(v):.3f} |")
    return lines


def main() -> int:
    res = rows()
    print(f"GEN_EFFICIENCY['hopper'] in the model: {T.GEN_EFFICIENCY['hopper']}")
    for group, label, v in res:
        print(f"{group:62s} {label:48s} {v:.3f}")
    print()
    print("\n".join(summary_lines(res)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
