"""Time to evaluate one scenario end to end (resolve + memory + time), median over many calls.

Usage: python bench/bench_estimate.py [--n 2000]

Budget (issue #3): ≤ 0.2 ms median per scenario. Prints the median of the whole ``estimate()`` call and of
its parts (``resolve``, ``memory_breakdown``, ``time_estimate``) on this machine, for a few scenarios.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gpuplanner.core.estimate import estimate, memory_breakdown, resolve  # noqa: E402
from gpuplanner.core.scenario import scenario_from_dict  # noqa: E402
from gpuplanner.core.timing import time_estimate  # noqa: E402

BUDGET_MS = 0.2
SCENARIOS = {
    "7B full, 16×H100, tp2 zero1": {
        "model": {"preset": "llama-2-7b"},
        "training": {"seq_len": 4096, "micro_batch_size": 2, "global_batch_size": 512, "recompute": "selective",
                     "framework": "megatron"},
        "parallel": {"tp": 2, "zero": 1}, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 16},
        "data": {"tokens": "1T"}},
    "70B QLoRA, 8×A100, zero3": {
        "model": {"preset": "llama-2-70b"}, "training": {"method": "qlora", "recompute": "full"},
        "parallel": {"zero": 3}, "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 8}},
    "Mixtral, 64×H100, tp4 pp2 ep8": {
        "model": {"preset": "mixtral-8x7b"}, "training": {"framework": "megatron", "global_batch_size": 256},
        "parallel": {"tp": 4, "pp": 2, "ep": 8, "zero": 1, "sequence_parallel": True},
        "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 64}},
}


def median_ms(fn, n: int) -> float:
    for _ in range(20):
        fn()
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=2000)
    args = ap.parse_args(argv)
    worst = 0.0
    for name, d in SCENARIOS.items():
        sc = scenario_from_dict(d)
        r = resolve(sc)
        total = median_ms(lambda: estimate(sc), args.n)
        parts = {
            "resolve": median_ms(lambda: resolve(sc), args.n),
            "memory": median_ms(lambda: memory_breakdown(r), args.n),
            "time": median_ms(lambda: time_estimate(r), args.n),
        }
        worst = max(worst, total)
        print(f"{name:<32} estimate() {total:.3f} ms   " + "  ".join(f"{k} {v:.3f}" for k, v in parts.items()))
    verdict = "within" if worst <= BUDGET_MS else "OVER"
    print(f"worst median {worst:.3f} ms: {verdict} the {BUDGET_MS} ms budget")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
