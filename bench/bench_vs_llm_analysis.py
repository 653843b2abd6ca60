"""Per-configuration cost: our core against llm-analysis 0.2.2, the same configurations, the same run.

    python bench/bench_vs_llm_analysis.py --llma-python /path/to/venv-3.11/bin/python [--rounds 5] [--n 300]
        [--json out.json]

What is timed, for each configuration, like for like: a plain dict of the task (model, GPUs, layout, batch,
recompute, ZeRO stage) in, the training memory per GPU and the time per step out.

* **ours**: ``scenario_from_dict(d)`` (the validated scenario) then ``core.estimate.estimate`` (memory breakdown
  and step time), in this process (Python 3.12).
* **llm-analysis** (https://github.com/cli99/llm-analysis, 0.2.2): ``LLMAnalysis(model, gpu, dtype,
  ParallelismConfig(...)).training(...)`` with the model and GPU configs it ships (read once, before timing; its
  logging off), in a child process of the Python given by ``--llma-python``. llm-analysis 0.2.2 installs only on
  Python 3.11 with ``transformers==4.30.2`` and ``tokenizers==0.13.3``:

      python3.11 -m venv /tmp/venv-llma
      /tmp/venv-llma/bin/pip install llm-analysis==0.2.2 transformers==4.30.2 tokenizers==0.13.3

Both sides run ``--n`` calls per configuration per round, median per call; the rounds alternate (ours, theirs,
ours, …) so a busy machine slows both alike; the table reports the median over rounds of the per-round medians,
in microseconds of wall time per call (single-threaded, nothing waits on I/O), and the median of the
rounds' ratios (each round's two figures were taken seconds apart). Not part of the test suite (it
needs a second interpreter and that package); the figures go to ``bench/results/``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

#: (name, ours: scenario dict, theirs: keyword arguments for the child)
CONFIGS = [
    ("Llama-2-7B, 16×A100 80GB, TP2, ZeRO-1, selective recompute, mbs 2, seq 4096",
     {"model": {"preset": "llama-2-7b"},
      "training": {"seq_len": 4096, "micro_batch_size": 2, "global_batch_size": 512, "recompute": "selective",
                   "framework": "megatron"},
      "parallel": {"tp": 2, "zero": 1}, "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 16},
      "data": {"tokens": 1e9}},
     {"model": "NousResearch_Llama-2-7b-hf", "gpu": "a100-sxm-80gb", "tp": 2, "pp": 1, "dp": 8, "mbs": 2,
      "gbs": 512, "seq": 4096, "recompute": 1, "zero": 1, "glu": True}),
    ("Llama-13B, 32×H100 80GB, TP4 PP2, ZeRO-1, full recompute, mbs 1, seq 2048",
     {"model": {"preset": "llama-2-13b"},
      "training": {"seq_len": 2048, "micro_batch_size": 1, "global_batch_size": 256, "recompute": "full",
                   "framework": "megatron"},
      "parallel": {"tp": 4, "pp": 2, "zero": 1}, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 32},
      "data": {"tokens": 1e9}},
     {"model": "decapoda-research_llama-13b-hf", "gpu": "h100-sxm-80gb", "tp": 4, "pp": 2, "dp": 4, "mbs": 1,
      "gbs": 256, "seq": 2048, "recompute": 2, "zero": 1, "glu": True}),
    ("Llama-2-70B, 64×H100 80GB, TP8 PP2, ZeRO-1, full recompute, mbs 1, seq 4096",
     {"model": {"preset": "llama-2-70b"},
      "training": {"seq_len": 4096, "micro_batch_size": 1, "global_batch_size": 512, "recompute": "full",
                   "framework": "megatron"},
      "parallel": {"tp": 8, "pp": 2, "zero": 1}, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 64},
      "data": {"tokens": 1e9}},
     {"model": "upstage_Llama-2-70b-instruct-v2", "gpu": "h100-sxm-80gb", "tp": 8, "pp": 2, "dp": 4, "mbs": 1,
      "gbs": 512, "seq": 4096, "recompute": 2, "zero": 1, "glu": True}),
    ("GPT-2 XL, 8×A100 80GB, ZeRO-3, no recompute, mbs 4, seq 1024",
     {"model": {"preset": "gpt2-xl"},
      "training": {"seq_len": 1024, "micro_batch_size": 4, "global_batch_size": 128, "recompute": "none",
                   "framework": "deepspeed"},
      "parallel": {"zero": 3}, "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 8}, "data": {"tokens": 1e9}},
     {"model": "gpt2-xl", "gpu": "a100-sxm-80gb", "tp": 1, "pp": 1, "dp": 8, "mbs": 4,
      "gbs": 128, "seq": 1024, "recompute": 0, "zero": 3, "glu": False}),
]

CHILD = r"""
import json, logging, statistics, sys, time
logging.disable(logging.CRITICAL)
from llm_analysis.analysis import ActivationRecomputation, DSZeRO, LLMAnalysis
from llm_analysis.config import ParallelismConfig, get_dtype_config_by_name, get_gpu_config_by_name, get_model_config_by_name
import llm_analysis
cfgs, n = json.loads(sys.argv[1]), int(sys.argv[2])
dtype = get_dtype_config_by_name("w16a16e16")
out = []
for c in cfgs:
    m, g = get_model_config_by_name(c["model"]), get_gpu_config_by_name(c["gpu"])
    def run():
        a = LLMAnalysis(m, g, dtype, ParallelismConfig(tp_size=c["tp"], pp_size=c["pp"], dp_size=c["dp"]),
                        flops_efficiency=0.5, hbm_memory_efficiency=0.9)
        return a.training(batch_size_per_gpu=c["mbs"], global_batch_size=c["gbs"], seq_len=c["seq"],
                          total_num_tokens=1e9, activation_recomputation=ActivationRecomputation(c["recompute"]),
                          ds_zero=DSZeRO(c["zero"]), mlp_gated_linear_units=c["glu"])
    r = run()
    for _ in range(20):
        run()
    ts = []
    for _ in range(n):
        t = time.perf_counter(); run(); ts.append(time.perf_counter() - t)
    out.append({"us": statistics.median(ts) * 1e6, "step_s": r["latency_per_iter"],
                "mem_gib": r["(weight+op_state+grad+act)_memory_per_gpu"] / 2**30})
print(json.dumps({"runs": out, "version": getattr(llm_analysis, "__version__", "0.2.2")}))
"""


def ours(n: int) -> list[dict]:
    from gpuplanner.core.estimate import estimate
    from gpuplanner.core.scenario import scenario_from_dict

    out = []
    for _name, d, _theirs in CONFIGS:
        def run():
            return estimate(scenario_from_dict(d))

        r = run()
        for _ in range(20):
            run()
        ts = []
        for _ in range(n):
            t = time.perf_counter()
            run()
            ts.append(time.perf_counter() - t)
        out.append({"us": statistics.median(ts) * 1e6, "step_s": r.time.step_time_s, "mem_gib": r.memory.total})
    return out


def theirs(python: str, n: int) -> list[dict]:
    p = subprocess.run([python, "-c", CHILD, json.dumps([c[2] for c in CONFIGS]), str(n)], capture_output=True,
                       text=True, timeout=600)
    if p.returncode:
        raise SystemExit(f"llm-analysis child failed: {p.stderr.strip()[-2000:]}")
    return json.loads(p.stdout.strip().splitlines()[-1])["runs"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--llma-python", required=True, help="Python 3.11 with llm-analysis 0.2.2 installed")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--n", type=int, default=100, help="calls per configuration per round")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    a, b = [], []
    for _ in range(args.rounds):
        a.append(ours(args.n))
        b.append(theirs(args.llma_python, args.n))
    rows = []
    for i, (name, _d, _t) in enumerate(CONFIGS):
        us_a = statistics.median(r[i]["us"] for r in a)
        us_b = statistics.median(r[i]["us"] for r in b)
        # the ratio within each round (both measured within seconds of each other), then its median: this
        # shared VM has slow spells that last longer than a round
        ratio = statistics.median(rb[i]["us"] / ra[i]["us"] for ra, rb in zip(a, b))
        rows.append({"config": name, "ours_us": round(us_a, 1), "llm_analysis_us": round(us_b, 1),
                     "ours_us_min": round(min(r[i]["us"] for r in a), 1),
                     "llm_analysis_us_min": round(min(r[i]["us"] for r in b), 1),
                     "speed_ratio": round(ratio, 2), "ours_step_s": a[-1][i]["step_s"],
                     "llm_analysis_step_s": b[-1][i]["step_s"], "ours_mem_gib": a[-1][i]["mem_gib"],
                     "llm_analysis_mem_gib": b[-1][i]["mem_gib"]})
        print(f"{name}: ours {us_a:.0f} µs, llm-analysis {us_b:.0f} µs per configuration "
              f"(llm-analysis / ours, median of the rounds' ratios: ×{ratio:.2f}); step {a[-1][i]['step_s']:.2f} s vs {b[-1][i]['step_s']:.2f} s; "
              f"memory {a[-1][i]['mem_gib']:.1f} vs {b[-1][i]['mem_gib']:.1f} GiB per GPU")
    if args.json:
        import os

        args.json.write_text(json.dumps({
            "date": datetime.date.today().isoformat(), "machine": platform.platform(), "cpus": os.cpu_count(),
            "processor": platform.processor(), "python_ours": platform.python_version(),
            "rounds": args.rounds, "calls_per_round": args.n, "load_average": os.getloadavg()[0], "rows": rows},
            indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
