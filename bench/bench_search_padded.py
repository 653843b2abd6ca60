"""Plan-search speed with padded batches (data.mean_sample_len below seq_len, no packing): the path of
flops.expected_longest through timing.padded_batch_rows, once per layout, integrated per distinct micro-batch size.
Llama-3.1-8B full SFT and DPO (TRL), seq_len 4096, mean sample 900 tokens (default spread), four GPU types, up to
``max_gpus`` GPUs (first argument, default 256): median of 9 whole searches after a warm-up per scenario, then a
cProfile of 3 searches for the padded-batch helpers.

    python bench/bench_search_padded.py [max_gpus]
"""
import cProfile
import pstats
import statistics
import sys
import time

from gpuplanner.core import search as S
from gpuplanner.core.scenario import scenario_from_dict

MAX_GPUS = int(sys.argv[1]) if len(sys.argv) > 1 else 256
HELPERS = ("search", "time_layout", "time_gpu", "padded_batch_rows", "expected_longest", "sample_shape")


def scenario(objective: str):
    return scenario_from_dict({
        "model": {"preset": "llama-3.1-8b"},
        "training": {"method": "full", "framework": "trl", "objective": objective, "seq_len": 4096},
        "data": {"tokens": 2e9, "mean_sample_len": 900},
        "constraints": {"max_gpus": MAX_GPUS, "deadline_days": 7, "currency": "CNY",
                        "gpu_candidates": ["h100-sxm-80gb", "a800-sxm-80gb", "h20-96gb", "rtx-4090-24gb"]}})


for objective in ("sft", "dpo"):
    scn = scenario(objective)
    r = S.search(scn, top=5)
    ts = []
    for _ in range(9):
        t0 = time.perf_counter()
        r = S.search(scn, top=5)
        ts.append((time.perf_counter() - t0) * 1e3)
    print(f"{objective}: candidates {r.candidates_evaluated:,}; search median {statistics.median(ts):.1f} ms "
          f"(min {min(ts):.1f})")
    pr = cProfile.Profile()
    pr.enable()
    for _ in range(3):
        S.search(scn, top=5)
    pr.disable()
    for (_f, _l, name), v in pstats.Stats(pr).stats.items():
        if name in HELPERS:
            print(f"  {name:20s} calls {v[1] // 3:4d} tottime {v[2] * 1e3 / 3:7.2f} ms cumtime {v[3] * 1e3 / 3:7.2f} ms"
                  " per search")
