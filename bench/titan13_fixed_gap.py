"""Issue 35 round 13 (helper titan13): is the torchtitan FSDP2 H100 rows' miss a per-step fixed cost or a rate?

For each H100 torchtitan FSDP2 row of ``bench/validate_fsdp_oos.py`` this prints the published and modelled seconds
per step (tokens per GPU per step / tokens/s/GPU), the gap in seconds (published − modelled: + = the model is too
fast) and the model's own split of the step (compute, exposed data-parallel communication, "other", the contention of
the hidden collectives). Then, for the rows published as a triple that differ only in activation checkpointing (the
float8nocompile README: no AC / every 2nd layer / full AC at one layout), the gap's slope against the modelled
step: a missing *rate* (GEMM share, clock, a memory-bound pass per token) grows with the modelled step (slope ≈ the
error), a missing *per-step* cost does not (slope ≈ 0).

Nothing here changes the model. Run: ``python bench/titan13_fixed_gap.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from gpuplanner.core.evaluate import evaluate  # noqa: E402
from gpuplanner.core.scenario import scenario_from_dict  # noqa: E402

#: row groups of validate_fsdp_oos that run on H100 (catalogue card or Grand Teton)
H100_GROUPS = ("H100",)


def step_gap(published_tps: float, modelled_tps: float, tokens_per_gpu_step: float) -> tuple[float, float, float]:
    """(published s/step, modelled s/step, gap s = published − modelled) from tokens/s/GPU and the tokens one GPU
    takes per step (global batch × seq / GPUs)."""
    pub_s = tokens_per_gpu_step / published_tps
    mod_s = tokens_per_gpu_step / modelled_tps
    return pub_s, mod_s, pub_s - mod_s


def slope(points: list[tuple[float, float]]) -> float:
    """Least-squares slope of gap (y) on modelled step (x)."""
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    sxy = sum((x - mx) * (y - my) for x, y in points)
    return sxy / sxx if sxx else 0.0


def rows(card=None) -> list[dict]:
    """The H100 rows, each on its bench's card, or mapped by ``card`` (a scenario → scenario function)."""
    import validate_fsdp_oos as v
    out = []
    for group, name, sc, pub, _src in v.rows():
        if not group.startswith(H100_GROUPS):
            continue
        if card is not None:
            sc = card(sc)
        t = evaluate(scenario_from_dict(sc)).time_modelled
        per_gpu = t.tokens_per_step / sc["hardware"]["num_gpus"]
        pub_s, mod_s, gap = step_gap(pub, t.tokens_per_s_per_gpu, per_gpu)
        sec = t.seconds
        out.append({"group": group, "name": name, "pub_s": pub_s, "mod_s": mod_s, "gap": gap,
                    "compute": sec["compute"], "dp": sec["dp_comm"] + sec["tp_comm"], "other": sec["other"],
                    "contention": t.parts.get("overlap_contention", 0.0),
                    "opt": sc["training"].get("optimizer_implementation") or "fused",
                    "rec": sc["training"].get("recompute"), "compile": sc["training"].get("torch_compile", True)})
    return out


def triples(res: list[dict]) -> list[tuple[str, list[dict], float]]:
    """The float8nocompile AC triples (eager BF16; float8 + compile): (label, rows, slope)."""
    out = []
    for key in ("BF16 eager", "float8 + compile"):
        grp = [r for r in res if r["name"].startswith("8B s4096 lbs 1") and r["name"].endswith(key)]
        if len(grp) == 3:
            out.append((key, grp, slope([(r["mod_s"], r["gap"]) for r in grp])))
    return out


def main() -> None:
    res = rows()
    print("| group | row | optimizer | published s/step | modelled s/step | gap s | gap / modelled | compute | "
          "DP+TP exposed | other | contention |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in res:
        print(f"| {r['group']} | {r['name']} | {r['opt']} | {r['pub_s']:.3f} | {r['mod_s']:.3f} | {r['gap']:+.3f} | "
              f"{r['gap'] / r['mod_s']:+.1%} | {r['compute']:.3f} | {r['dp']:.3f} | {r['other']:.3f} | "
              f"{r['contention']:.3f} |")
    print()
    print("| AC triple (8B, 8 H100, 1 × 4096) | modelled s/step (none / every 2nd / full) | gap s | slope d gap / d step |")
    print("|---|---|---|---:|")
    for key, grp, s in triples(res):
        print(f"| {key} | {' / '.join(f'{r['mod_s']:.3f}' for r in grp)} | "
              f"{' / '.join(f'{r['gap']:+.3f}' for r in grp)} | {s:+.2f} |")
    # what-if: the same triples on the Grand Teton H100 (500 W, HBM2e; validate_time._grand_teton), the card of the
    # Dec-2024 table by the same team: a card (rate) explanation would leave no gap and no slope
    import validate_fsdp_oos as v
    gt = [r for r in rows(v._vt()._grand_teton) if r["name"].startswith("8B s4096 lbs 1")]
    for key, grp, s in triples(gt):
        print(f"| {key}, Grand Teton card (what-if) | {' / '.join(f'{r['mod_s']:.3f}' for r in grp)} | "
              f"{' / '.join(f'{r['gap']:+.3f}' for r in grp)} | {s:+.2f} |")


if __name__ == "__main__":
    main()
