"""Search results identical in two source trees: ``gpuplanner plan --json`` (minus ``search_ms``) of every
``examples/*`` file and of the search benches' and streaming tests' cases, plus ``search(distinct=False)``.

    python bench/check_identical.py BASE_TREE [NEW_TREE (default: this tree)] [--quick]

``BASE_TREE`` is typically a ``git archive`` of the commit before a speed-up (``git archive 38f55be | tar -x
-C /tmp/base``). Each tree runs in its own processes (``PYTHONPATH`` = the tree), with this interpreter. Exit
status 0 when every output is byte-identical, 1 otherwise (the differing cases are named).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _d(model="llama-3-8b", **kw):
    base = {"model": {"preset": model}, "data": {"tokens": "20B"}, "constraints": {"max_gpus": 64}}
    for k, v in kw.items():
        base.setdefault(k, {}).update(v)
    return base


#: scenario dicts: the streaming tests' cases (tests/test_search_stream.py), the benches' (bench_search_scale.py,
#: bench_search.py), the perf notes' Mixtral case and fuzz case 8798 (bench/results/perf-2026-12-01.md), and a
#: few more shapes (long context, fixed batch, rules off, RL, LoRA, fp8, a custom GPU)
CASES = {
    "stream_cheapest": _d(constraints={"gpu_candidates": ["h100-sxm-80gb", "a800-sxm-80gb", "rtx-4090-24gb"]}),
    "stream_fastest_budget": _d(constraints={"objective": "fastest", "budget": 20000,
                                             "gpu_candidates": ["h100-sxm-80gb", "h20-96gb"]}),
    "stream_value_deadline": _d(constraints={"objective": "value", "deadline_days": 0.01,
                                             "gpu_candidates": ["h100-sxm-80gb", "a800-sxm-80gb"]}),
    "stream_moe_interleave": _d("mixtral-8x7b", training={"framework": "megatron", "overlap_p2p_comm": False},
                                constraints={"max_gpus": 128, "gpu_candidates": ["h100-sxm-80gb"]}),
    "stream_poor": _d(assumptions={"mfu": 0.1}, constraints={"gpu_candidates": ["h100-sxm-80gb"]}),
    "scale_70b_512": {"model": {"preset": "llama-3-70b"}, "training": {"method": "pretrain", "seq_len": 4096},
                      "data": {"tokens": "1T"}, "constraints": {"max_gpus": 512}},
    "bench_70b_1024_cny": {"model": {"preset": "llama-3-70b"}, "training": {"method": "pretrain", "seq_len": 4096},
                           "data": {"tokens": "1T"},
                           "constraints": {"max_gpus": 1024, "deadline_days": 14, "currency": "CNY",
                                           "gpu_candidates": ["h100-sxm-80gb", "a800-sxm-80gb", "h20-96gb",
                                                              "h200-sxm-141gb"]}},
    "all_gpus_8b_256": {"model": {"preset": "llama-3-8b"}, "data": {"tokens": "100B"},
                        "constraints": {"max_gpus": 256}},
    "long_context_cp": _d("llama-3-8b", training={"seq_len": 65536}, constraints={"max_gpus": 128}),
    "fixed_batch_rules_off": _d(training={"global_batch_size": 512},
                                constraints={"max_gpus": 128, "rules": {"card_class": False, "pipeline_layers": False,
                                                                        "consumer_multinode": False,
                                                                        "mfu_grade": False}}),
    "lora_consumer": _d("qwen2.5-7b", training={"method": "lora"}, constraints={"max_gpus": 32}),
    "fp8_fastest": _d("llama-3-8b", training={"precision": "fp8"}, constraints={"objective": "fastest",
                                                                                 "max_gpus": 128}),
    "grpo_rl_separate": _d("qwen2.5-1.5b", training={"method": "full", "objective": "grpo",
                                                     "rl": {"generation_engine": "vllm_separate",
                                                            "generation_gpu_fraction": 0.25}},
                           constraints={"max_gpus": 32}),
    "ppo_critic": _d("qwen2.5-1.5b", training={"method": "full", "objective": "ppo"}, constraints={"max_gpus": 32}),
    "dpo_pairs": _d("llama-3-8b", training={"method": "full", "objective": "dpo"}, constraints={"max_gpus": 64}),
    "qlora": _d("qwen2.5-7b", training={"method": "qlora"}, constraints={"max_gpus": 16}),
    "fsdp_pipeline": _d("llama-3-8b", training={"framework": "fsdp"}, constraints={"max_gpus": 128,
                                                                                 "search_frameworks": False}),
    "deepspeed_offload": _d("llama-3-8b", training={"framework": "deepspeed"},
                            parallel={"offload_optimizer": True},
                            constraints={"max_gpus": 64, "search_frameworks": False}),
    "measured_mfu": _d("llama-3-8b", assumptions={"mfu": 0.42}, constraints={"max_gpus": 64}),
    # work patterns and quotes the rental modes price differently (sessions, spot, whole machines, hybrids):
    # the search prices only the rows that can rank (search._unpriced), so these must stay identical too
    "research_sessions": _d("llama-3-8b", constraints={"phase": "research", "hours_per_week": 30,
                                                         "max_gpus": 64}),
    "stable_40h_spot_quotes": _d("llama-3-8b", constraints={
        "hours_per_week": 40, "max_gpus": 64, "currency": "USD", "budget": 5000, "objective": "value",
        "prices": {"h100-sxm-80gb": {"card_hour": 2.0, "spot_card_hour": 0.9, "machine_week": 2000,
                                     "machine_month": 7000, "machine_gpus": 8}}}),
    "burst_deadline_fastest": _d("qwen2.5-7b", data={"tokens": "2B"},
                                 constraints={"phase": "burst", "objective": "fastest", "deadline_days": 0.5,
                                              "max_gpus": 128}),
    "qwen_1p5b_4096": {"model": {"preset": "qwen2.5-1.5b"}, "training": {"method": "full"},
                       "data": {"tokens": "20B"}, "constraints": {"max_gpus": 4096}},
}
SLOW_CASES = {
    "mixtral_4096_searched": {"model": {"preset": "mixtral-8x7b"}, "training": {"method": "full"},
                              "data": {"tokens": "10B"}, "constraints": {"max_gpus": 4096}},
}
#: ``search(distinct=False, top=40)`` of these (the CLI always shows distinct plans)
NOT_DISTINCT = ("stream_cheapest", "stream_moe_interleave", "scale_70b_512")

_RUN_NOT_DISTINCT = """
import json, sys
from gpuplanner.core import search as S
from gpuplanner.core.scenario import scenario_from_dict
out = {}
for name, d in json.loads(sys.argv[1]).items():
    r = S.search(scenario_from_dict(d), top=40, distinct=False).to_json()
    r.pop("search_ms")
    out[name] = r
print(json.dumps(out, indent=1, ensure_ascii=False))
"""


def _plan_json(tree: Path, f: Path) -> str:
    env = dict(os.environ, PYTHONPATH=str(tree), QT_QPA_PLATFORM="offscreen")
    p = subprocess.run([sys.executable, "-m", "gpuplanner", "plan", str(f), "--json", "--top", "8"],
                       capture_output=True, text=True, env=env, cwd=str(tree))
    if p.returncode:
        return f"exit {p.returncode}: {p.stderr.strip()[-300:]}"
    d = json.loads(p.stdout)
    d.pop("search_ms", None)
    return json.dumps(d, indent=1, ensure_ascii=False, sort_keys=False)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("base", type=Path)
    ap.add_argument("new", type=Path, nargs="?", default=ROOT)
    ap.add_argument("--quick", action="store_true", help="leave out the slow Mixtral case")
    args = ap.parse_args(argv)
    cases = dict(CASES) if args.quick else {**CASES, **SLOW_CASES}
    tmp = Path(tempfile.mkdtemp(prefix="check_identical_"))
    files = {f"example:{p.name}": p.resolve() for p in sorted((ROOT / "examples").iterdir())
             if p.suffix in (".json", ".gpuplan")}
    for name, d in cases.items():
        f = tmp / f"{name}.json"
        f.write_text(json.dumps(d))
        files[name] = f
    bad = []
    for name, f in files.items():
        a, b = _plan_json(args.base, f), _plan_json(args.new, f)
        same = a == b
        print(f"{'same' if same else 'DIFFERENT':9s} {name}  ({len(a)} chars)", flush=True)
        if not same or a.startswith("exit"):
            bad.append(name)
    nd = json.dumps({k: cases[k] for k in NOT_DISTINCT})
    outs = []
    for tree in (args.base, args.new):
        env = dict(os.environ, PYTHONPATH=str(tree))
        p = subprocess.run([sys.executable, "-c", _RUN_NOT_DISTINCT, nd], capture_output=True, text=True, env=env,
                           cwd=str(tree))
        outs.append(p.stdout if not p.returncode else f"exit {p.returncode}: {p.stderr[-300:]}")
    same = outs[0] == outs[1] and not outs[0].startswith("exit")
    print(f"{'same' if same else 'DIFFERENT':9s} search(distinct=False, top=40) of {', '.join(NOT_DISTINCT)}")
    if not same:
        bad.append("not_distinct")
    print("all identical" if not bad else f"DIFFERENT: {', '.join(bad)}")
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main())
