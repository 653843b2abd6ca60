"""The longest completion of an RL step: verl's logged response lengths next to the model's rule (issue 35 round 9).

Usage: python bench/rl_lengths.py [--markdown]

A step's generation ends with its longest completion (``methods.expected_longest``). verl prints, per step,
``response_length/mean``, ``/max``, ``/min`` and (since 2025) ``/clip_ratio``, the share of responses that reached
``data.max_response_length``. bench/data/rl_lengths.json holds them for 11 full logs and 7 last steps (the sources
are named in the file). For each log this prints:

- the logged longest (the mean over the kept steps of ``response_length/max``);
- round 4's rule, the geometric maximum ``min(cap, m × H_N)``;
- this round's rule: a log-normal body of spread ``ROLLOUT_LEN_CV`` plus a share ``ROLLOUT_CAP_SHARE`` that runs
  to the cap (both evaluated step by step at the logged mean);
- the spread that alone reproduces the logged longest on the steps below the cap (where ``ROLLOUT_LEN_CV`` comes
  from), the share of steps whose longest reaches the cap, and the logged clip ratio next to the rule's.

Nothing here is fitted per row: one spread and one share for every log.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gpuplanner.core import methods as M  # noqa: E402
from gpuplanner.core.arrayops import ScalarOps  # noqa: E402
from gpuplanner.core.flops import expected_longest  # noqa: E402

DATA = ROOT / "bench" / "data" / "rl_lengths.json"


def load() -> list[dict]:
    return json.loads(DATA.read_text(encoding="utf-8"))["logs"]


def geometric(mean: float, n: int, cap: int) -> float:
    """Round 4's rule: the largest of N geometric lengths, m × H_N, cut at the cap."""
    return min(float(cap), mean * (math.log(n) + 0.5772156649 + 0.5 / n))


def rule(mean: float, n: int, cap: int) -> float:
    """This round's rule, through the planner's own function."""
    prof = M.MethodProfile(objective="grpo", rl=True, rollout_len=int(cap), mean_response_fraction=mean / cap)
    return float(M.expected_longest(prof, n, xp=ScalarOps))


def clip_share(mean: float, cap: int, cv: float = M.ROLLOUT_LEN_CV, p: float = M.ROLLOUT_CAP_SHARE) -> float:
    """The rule's share of completions at the cap: the runaways plus the log-normal body above it."""
    s2 = math.log1p(cv * cv)
    z = (math.log(cap) - (math.log(mean) - 0.5 * s2)) / math.sqrt(s2)
    return p + (1.0 - p) * 0.5 * math.erfc(z / math.sqrt(2.0))


def implied_cv(mean: float, longest: float, n: int) -> float | None:
    """The log-normal spread whose expected longest of ``n`` (no cap) is the logged longest (bisection)."""
    lo, hi = 0.02, 3.0
    if expected_longest(mean, lo, float(n), 1e9) > longest:
        return None
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if expected_longest(mean, mid, float(n), 1e9) < longest:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def row(log: dict) -> dict:
    n, cap, steps = log["rollouts"], log["cap"], log["mean_max_min"]
    logged = statistics.mean(s[1] for s in steps)
    geo = statistics.mean(geometric(s[0], n, cap) for s in steps)
    new = statistics.mean(rule(s[0], n, cap) for s in steps)
    below = [s for s in steps if s[1] < cap]
    cvs = [c for c in (implied_cv(s[0], s[1], n) for s in below) if c is not None]
    mean = statistics.mean(s[0] for s in steps)
    return {"id": log["id"], "n": n, "cap": cap, "mean": mean, "logged": logged, "geo": geo, "new": new,
            "cv": statistics.median(cvs) if cvs and mean < 0.5 * cap else None,
            "at_cap": log["share_steps_at_cap"], "clip": log["clip_ratio_mean"],
            "clip_rule": statistics.mean(clip_share(s[0], cap) for s in steps), "full": log["full_log"],
            "p_steps": (-math.log(1.0 - log["share_steps_at_cap"]) / n
                        if log["full_log"] and mean < 0.5 * cap and log["share_steps_at_cap"] < 1.0 else None)}


def stats(errs) -> tuple[float, float]:
    a = sorted(abs(e) for e in errs)
    return statistics.median(a), a[min(len(a) - 1, int(round(0.9 * (len(a) - 1))))]


def table(rows, markdown: bool) -> list[str]:
    head = ("| log | N | cap | mean | logged longest | m × H_N (before) | rule (after) | spread alone | steps at cap "
            "| clip ratio logged / rule |")
    out = [head, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"] if markdown else []
    for r in rows:
        cv = "–" if r["cv"] is None else f"{r['cv']:.2f}"
        clip = "–" if r["clip"] is None else f"{r['clip']:.4f}"
        cells = [r["id"], f"{r['n']:,}", f"{r['cap']:,}", f"{r['mean']:.0f}", f"{r['logged']:.0f}",
                 f"{r['geo']:.0f} ({r['geo'] / r['logged'] - 1:+.0%})",
                 f"{r['new']:.0f} ({r['new'] / r['logged'] - 1:+.0%})", cv, f"{r['at_cap']:.0%}",
                 f"{clip} / {r['clip_rule']:.4f}"]
        out.append("| " + " | ".join(cells) + " |" if markdown else " ; ".join(cells))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    rows = [row(log) for log in load()]
    print("\n".join(table(rows, args.markdown)))
    for key, name in (("geo", "m × H_N (before)"), ("new", "log-normal + runaways (after)")):
        med, p90 = stats(r[key] / r["logged"] - 1 for r in rows)
        print(f"\nlongest |error| over {len(rows)} logs, {name}: median {med:.1%}, p90 {p90:.1%}")
    cvs = sorted(r["cv"] for r in rows if r["cv"] is not None)
    print(f"spread alone (steps below the cap), {len(cvs)} logs: {', '.join(f'{c:.2f}' for c in cvs)}; "
          f"median {statistics.median(cvs):.2f} (methods.ROLLOUT_LEN_CV = {M.ROLLOUT_LEN_CV})")
    ps = sorted(r["p_steps"] for r in rows if r["p_steps"] is not None)
    print(f"runaway share from the steps at the cap, {len(ps)} logs: {', '.join(f'{p:.1e}' for p in ps)}; "
          f"median {statistics.median(ps):.1e} (methods.ROLLOUT_CAP_SHARE = {M.ROLLOUT_CAP_SHARE})")


if __name__ == "__main__":
    main()
