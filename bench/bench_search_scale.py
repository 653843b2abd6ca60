"""Plan search at scale: candidates per second against a bare numpy kernel, and peak memory of the largest space.

    python bench/bench_search_scale.py [--repeat 5] [--rss] [--rss-max-gpus 100000] [--json out.json]

* **reference**: a bare numpy kernel doing 50 float operations per candidate (10 input arrays of
  :data:`REF_N` float64 values; multiplies, adds, divides, maxima, minima, a ``where`` — the kinds of
  operations the memory, time and cost formula sheets are made of), with no Python work per candidate.
  Candidates per second = ``REF_N`` / time.
* **search**: :func:`search.search` on Llama-3-70B pretraining, every priced GPU type, the framework searched,
  ``max_gpus`` 512 (:data:`SEARCH_70B`): candidates evaluated per second of the whole search (enumeration,
  memory, time, cost, ranking, Pareto front, explanations of the shown plans).
  Both are measured in the same run, interleaved, ``--repeat`` times each after a warm-up; the medians of
  process CPU time are compared (the machine is shared: CPU time is what the search costs; wall times are
  printed too). Target (issue "Fast at any size"): search rate ≥ 0.35 × reference.
* **rss** (``--rss``): peak resident memory of ``gpuplanner plan`` on the largest space the schema allows —
  every GPU type, ``max_gpus`` 100,000 (``constraints.max_gpus`` ≤ 100,000 in ``core/scenario.py``), a 1.5B
  model (``bench/data/largest_space_1p5b.json``) — measured with ``/usr/bin/time -v`` ("Maximum resident set
  size"). Target: < 600 MB.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gpuplanner.core import search as S  # noqa: E402
from gpuplanner.core.scenario import scenario_from_dict  # noqa: E402

REF_N = 1_000_000
SEARCH_70B = {
    "model": {"preset": "llama-3-70b"},
    "training": {"method": "pretrain", "seq_len": 4096},
    "data": {"tokens": "1T"},
    "constraints": {"max_gpus": 512},
}
LARGEST = ROOT / "bench" / "data" / "largest_space_1p5b.json"


def reference_kernel(a: list[np.ndarray]) -> np.ndarray:
    """50 float operations per element over 10 input arrays (no temporaries kept beyond the expression)."""
    x0, x1, x2, x3, x4, x5, x6, x7, x8, x9 = a
    t = x0 * x1 + x2                                    # 2
    t = t / (x3 + 1.0) - x4 * 0.5                       # 4
    u = np.maximum(x5 * x6, x7) + x8 / (x9 + 2.0)       # 5
    v = np.minimum(t, u) * 1.5 + np.maximum(t, u)       # 4
    w = np.where(x0 > x1, v, t) * (x2 - x3)             # 4
    w = w + x4 * x5 - x6 / (x7 + 3.0)                   # 5
    y = (w * w + v) / (u * u + 1.0)                     # 5
    y = np.maximum(y, 0.0) + np.minimum(w, 1.0) * x8    # 4
    z = (y + t) * (u - v) + (w + x9) / (y + 4.0)        # 7
    z = z * 0.25 + y * 0.75 - x0                        # 4
    z = np.maximum(z, x1) + np.minimum(z, x2) * x3      # 4
    return z / (x4 + 5.0) + x5 * x6                     # 4  (total 52)


def _timed(fn):
    c0, w0 = time.process_time(), time.perf_counter()
    out = fn()
    return out, time.process_time() - c0, time.perf_counter() - w0


def machine() -> dict:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(), "numpy": np.__version__,
            "platform": platform.platform(), "load_average": os.getloadavg()}


def peak_rss(scenario_file: Path, max_gpus: int | None) -> dict:
    """``/usr/bin/time -v gpuplanner plan FILE``: peak RSS (MB), user CPU seconds, wall seconds, candidates."""
    f = scenario_file
    if max_gpus is not None:
        d = json.loads(scenario_file.read_text())
        d["constraints"]["max_gpus"] = max_gpus
        tmp = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
        json.dump(d, tmp)
        tmp.close()
        f = Path(tmp.name)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.run(["/usr/bin/time", "-v", sys.executable, "-m", "gpuplanner", "plan", str(f), "--json"],
                       capture_output=True, text=True, env=env)
    if p.returncode:
        raise SystemExit(f"plan failed: {p.stderr[-2000:]}")
    err = p.stderr
    rss_kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", err).group(1))
    user = float(re.search(r"User time \(seconds\): ([\d.]+)", err).group(1))
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)", err).group(1)
    res = json.loads(p.stdout)
    return {"max_gpus": max_gpus or json.loads(scenario_file.read_text())["constraints"]["max_gpus"],
            "peak_rss_mb": round(rss_kb / 1024, 1), "user_s": user, "wall": wall,
            "candidates_evaluated": res["candidates_evaluated"], "candidates_fitting": res["candidates_fitting"],
            "top_plan": {k: res["plans"][0][k] for k in ("gpu", "num_gpus", "framework", "cost")} if res["plans"] else None}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--rss", action="store_true", help="also measure peak RSS of gpuplanner plan (slow)")
    ap.add_argument("--rss-max-gpus", type=int, nargs="*", default=[100_000])
    ap.add_argument("--json", metavar="FILE")
    args = ap.parse_args(argv)

    rng = np.random.default_rng(0)
    arrays = [rng.random(REF_N) + 0.1 for _ in range(10)]
    scn = scenario_from_dict(SEARCH_70B)
    reference_kernel(arrays)
    res = S.search(scn, top=5)  # warm-up: imports, catalog and preset caches
    ref_cpu, ref_wall, s_cpu, s_wall = [], [], [], []
    for _ in range(args.repeat):
        _, c, w = _timed(lambda: reference_kernel(arrays))
        ref_cpu.append(c)
        ref_wall.append(w)
        res, c, w = _timed(lambda: S.search(scn, top=5))
        s_cpu.append(c)
        s_wall.append(w)
    n = res.candidates_evaluated
    ref_rate = REF_N / statistics.median(ref_cpu)
    s_rate = n / statistics.median(s_cpu)
    out = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": machine(),
        "reference": {"candidates": REF_N, "float_ops_per_candidate": 52,
                      "median_cpu_ms": round(statistics.median(ref_cpu) * 1e3, 2),
                      "median_wall_ms": round(statistics.median(ref_wall) * 1e3, 2),
                      "candidates_per_s": round(ref_rate)},
        "search_70b_all_gpus_512": {"candidates": n, "fitting": res.candidates_fitting,
                                    "median_cpu_ms": round(statistics.median(s_cpu) * 1e3, 1),
                                    "median_wall_ms": round(statistics.median(s_wall) * 1e3, 1),
                                    "candidates_per_s": round(s_rate), "chunk_rows": getattr(S, "CHUNK_ROWS", None)},
        "ratio_to_reference": round(s_rate / ref_rate, 3),
    }
    print(f"reference kernel: {ref_rate / 1e6:.1f} M candidates/s (52 float ops each, CPU time)")
    print(f"search 70B / all GPUs / 512: {n:,} candidates, {statistics.median(s_cpu) * 1e3:.0f} ms CPU "
          f"({statistics.median(s_wall) * 1e3:.0f} ms wall) -> {s_rate / 1e6:.2f} M/s = "
          f"{out['ratio_to_reference']:.2f} x reference")
    if args.rss:
        out["peak_rss"] = []
        for mg in args.rss_max_gpus:
            r = peak_rss(LARGEST, mg)
            out["peak_rss"].append(r)
            print(f"gpuplanner plan, qwen2.5-1.5b, all GPU types, max_gpus {r['max_gpus']:,}: "
                  f"{r['candidates_evaluated']:,} candidates, peak RSS {r['peak_rss_mb']:.0f} MB, "
                  f"{r['user_s']:.1f} s user CPU, wall {r['wall']}")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
