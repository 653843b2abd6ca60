"""``gpuplanner estimate FILE [--json]``: parameters, memory per GPU (and time) for one scenario."""

from __future__ import annotations

import json

from ..core.estimate import TIER_GUIDANCE, estimate
from ..core.scenario import load_scenario
from ..core.units import format_count


def register(sub) -> None:
    p = sub.add_parser("estimate", help="estimate parameters, memory per GPU and time for a scenario or plan")
    p.add_argument("file", help="scenario JSON or .gpuplan file")
    p.add_argument("--json", action="store_true", help="print a JSON object instead of a table")
    p.set_defaults(func=run)


def _fmt(v: float) -> str:
    return f"{v:8.2f}"


def run(args) -> int:
    scenario, base = load_scenario(args.file)
    est = estimate(scenario, base)
    data = est.to_json()
    if args.json:
        print(json.dumps(data, indent=2, sort_keys=True))
        return 0
    s = scenario
    p = data["params"]
    lines = [
        f"Model        {data['model']}",
        f"Parameters   total {format_count(p['total'])} ({p['total']:,})   active {format_count(p['active'])}"
        f"   trainable {format_count(p['trainable'])}",
        f"Tier         {data['tier']}: {TIER_GUIDANCE[data['tier']]}",
        f"Hardware     {s.hardware.num_gpus} × {s.hardware.gpu} ({data['gpu_memory_gib']:.0f} GiB each)",
        "Layout       tp={tp} pp={pp} cp={cp} ep={ep} dp={dp} zero={zero} grad_accum={grad_accum}".format(**data["layout"]),
        "",
        "Memory per GPU (GiB)",
    ]
    mem = data["memory_per_gpu_gib"]
    for key in ("weights", "gradients", "optimizer", "activations", "other"):
        lines.append(f"  {key:<12}{_fmt(mem[key])}")
    lines.append(f"  {'total':<12}{_fmt(mem['total'])}   of {data['gpu_memory_gib']:.0f} GiB"
                 f" (headroom {data['memory_headroom_gib']:.1f} GiB): {'fits' if data['fits'] else 'DOES NOT FIT'}")
    if "step_time_s" in data:
        lines += [
            "",
            "Time",
            f"  step time        {data['step_time_s']:.3f} s",
            f"  tokens/s/GPU     {data['tokens_per_s_per_gpu']:,.0f}",
            f"  MFU / HFU        {data['mfu'] * 100:.1f}% / {data['hfu'] * 100:.1f}%",
            f"  training         {data['train_days']:.2f} days, {data['gpu_hours']:,.0f} GPU-hours",
        ]
        tb = data.get("time_breakdown") or {}
        if tb:
            lines.append("  time share       " + ", ".join(f"{k} {v * 100:.0f}%" for k, v in tb.items()))
    print("\n".join(lines))
    return 0
