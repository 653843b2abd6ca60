"""``gpuplanner estimate FILE [--json]``: every figure of one scenario (or a plan file's selected plan).

Prints the core's :class:`~gpuplanner.core.evaluate.Evaluation`; ``--json`` is its
:meth:`~gpuplanner.core.evaluate.Evaluation.to_json` (``memory_per_gpu_gib`` with ``total``,
``compute_days``, ``calendar_days``, ``cost``, ``currency``, ``rental_mode``, the complete ``scenario`` …).
"""

from __future__ import annotations

import json

# the core and io are imported by run(): ``gpuplanner --help`` and the other commands do not load them


def register(sub) -> None:
    p = sub.add_parser("estimate", help="estimate parameters, memory per GPU, time and cost for a scenario or plan")
    p.add_argument("file", help="scenario JSON or .gpuplan file (its selected plan)")
    p.add_argument("--json", action="store_true", help="print a JSON object instead of a table")
    p.set_defaults(func=run)


def _fmt(v: float) -> str:
    return f"{v:8.2f}"


def run(args) -> int:
    from ..core.estimate import TIER_GUIDANCE
    from ..core.evaluate import evaluate
    from ..core.units import format_count
    from ..io.scenario_files import load_scenario

    scenario, base = load_scenario(args.file)
    ev = evaluate(scenario, base)
    data = ev.to_json()
    if args.json:
        print(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))
        return 0
    p = data["params"]
    lay = data["layout"]
    lines = [
        f"Model        {data['model']}",
        f"Parameters   total {format_count(p['total'])} ({p['total']:,})   active {format_count(p['active'])}"
        f"   trainable {format_count(p['trainable'])}",
        f"Tier         {data['tier']}: {TIER_GUIDANCE[data['tier']]}",
        f"Hardware     {ev.num_gpus} × {ev.gpu_name} ({ev.gpu_memory_gib:.0f} GiB each, {ev.nodes} node(s))",
        "Layout       {framework}: tp={tp} pp={pp} cp={cp} ep={ep} vpp={vpp} dp={dp} zero={zero} "
        "mbs={micro_batch_size} grad_accum={grad_accum} recompute={recompute}".format(**lay),
        "",
        "Memory per GPU (GiB)",
    ]
    mem = data["memory_per_gpu_gib"]
    for key in ("weights", "gradients", "optimizer", "activations", "other"):
        lines.append(f"  {key:<12}{_fmt(mem[key])}")
    lines.append(f"  {'total':<12}{_fmt(mem['total'])}   of {ev.gpu_memory_gib:.0f} GiB"
                 f" (headroom {ev.memory.headroom:.1f} GiB): {'fits' if ev.fits else 'DOES NOT FIT'}")
    lines += [
        "",
        "Time",
        f"  step time        {data['step_time_s']:.3f} s",
        f"  tokens/s/GPU     {data['tokens_per_s_per_gpu']:,.0f}",
        f"  MFU / HFU        {data['mfu'] * 100:.1f}% / {data['hfu'] * 100:.1f}%",
        f"  compute          {ev.compute_days:.2f} days around the clock, {ev.gpu_hours:,.0f} GPU-hours",
        f"  calendar         {ev.calendar_days:.2f} days with setup, checkpoints, interruptions and "
        f"{ev.scenario.constraints.hours_per_week:g} h/week",
    ]
    tb = data.get("time_breakdown") or {}
    if tb:
        lines.append("  time share       " + ", ".join(f"{k} {v * 100:.0f}%" for k, v in tb.items()))
    lines += ["", "Cost"]
    if ev.cost is None:
        lines.append("  no price for this GPU: enter a quote")
    else:
        lines.append(f"  {ev.cost:,.0f} {ev.currency} ({ev.rental_mode_label})")
    for m in ev.messages:
        lines.append(f"! {m.render()}")
    print("\n".join(lines))
    return 0
