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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

#: one row per configuration: (name, our preset, llm-analysis's model config, GPU, framework, tp, pp, dp, ZeRO,
#: micro-batch, global batch, sequence length, recompute, gated MLP); both sides' inputs are made from it
ROWS = [
    ("Llama-2-7B, 16×A100 80GB, TP2, ZeRO-1, selective recompute, mbs 2, seq 4096", "llama-2-7b",
     "NousResearch_Llama-2-7b-hf", "a100-sxm-80gb", "megatron", 2, 1, 8, 1, 2, 512, 4096, "selective", True),
    ("Llama-13B, 32×H100 80GB, TP4 PP2, ZeRO-1, full recompute, mbs 1, seq 2048", "llama-2-13b",
     "decapoda-research_llama-13b-hf", "h100-sxm-80gb", "megatron", 4, 2, 4, 1, 1, 256, 2048, "full", True),
    ("Llama-2-70B, 64×H100 80GB, TP8 PP2, ZeRO-1, full recompute, mbs 1, seq 4096", "llama-2-70b",
     "upstage_Llama-2-70b-instruct-v2", "h100-sxm-80gb", "megatron", 8, 2, 4, 1, 1, 512, 4096, "full", True),
    ("GPT-2 XL, 8×A100 80GB, ZeRO-3, no recompute, mbs 4, seq 1024", "gpt2-xl",
     "gpt2-xl", "a100-sxm-80gb", "deepspeed", 1, 1, 8, 3, 4, 128, 1024, "none", False),
]
#: llm-analysis's ActivationRecomputation: 0 none, 1 attention only (selective), 2 full
_LLMA_RECOMPUTE = {"none": 0, "selective": 1, "full": 2}


def _config(row) -> tuple[str, dict, dict]:
    """(name, our scenario dict, llm-analysis's keyword arguments for the child) of one row of :data:`ROWS`."""
    name, preset, their_model, gpu, fw, tp, pp, dp, zero, mbs, gbs, seq, recompute, glu = row
    ours = {"model": {"preset": preset},
            "training": {"seq_len": seq, "micro_batch_size": mbs, "global_batch_size": gbs, "recompute": recompute,
                         "framework": fw},
            "parallel": {"tp": tp, "pp": pp, "zero": zero}, "hardware": {"gpu": gpu, "num_gpus": tp * pp * dp},
            "data": {"tokens": 1e9}}
    theirs = {"model": their_model, "gpu": gpu, "tp": tp, "pp": pp, "dp": dp, "mbs": mbs, "gbs": gbs, "seq": seq,
              "recompute": _LLMA_RECOMPUTE[recompute], "zero": zero, "glu": glu}
    return name, ours, theirs


CONFIGS = [_config(r) for r in ROWS]

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

    from bench.bench_estimate import median_ms

    out = []
    for _name, d, _theirs in CONFIGS:
        def run():
            return estimate(scenario_from_dict(d))

        r = run()
        out.append({"us": median_ms(run, n) * 1e3, "step_s": r.time.step_time_s, "mem_gib": r.memory.total})
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
