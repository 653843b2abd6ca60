"""Round 18 (postoos18), scored before any change: NeMo RL's published GRPO step times for the releases and
models the bench does not hold yet. (``bench/validate_post_oos18.py`` is round 17's EasyR1 file, hence "18b".)

Usage: python bench/validate_post_oos18b.py [--json] [--record]

Held already (not entered again): ``bench/rl_step_times.py`` holds v0.4's Llama-3.1-8B, Qwen3-32B and
Qwen3-30B-A3B rows, v0.5's Llama / 32B / 30B-A3B rows (H100 and GB200) and v0.6's 30B-A3B, 235B and DeepSeek-V3
rows. What no round entered (checked by id, step time and GPU count against ``bench/*.py``):

* ``V04``: github.com/NVIDIA-NeMo/RL ``docs/about/performance-summary.md`` at cff17f83b (2025-12-01, #1560,
  "Nemo RL v0.4", DGX-H100, BF16): DeepSeek V3 on-policy (256 GPUs, 154 s) and 1-step off (512, 77.9 s);
  Qwen3-235B on-policy (128, 506 s) and 1-step off (256, 241 s). Recipes:
  ``examples/configs/recipes/llm/performance/*.yaml`` at tag v0.4.0.
* ``V05``: the same file at 4c1a0cd49 (2026-04-12, the last state of the v0.5 tables; 9dbd9adc9 corrected the
  DAPO row only), H100 BF16: DeepSeek V3 (256, 134 s; 512 1-step off, 64.9 s), Qwen3-235B (128, 431 s; 256
  1-step off, 203 s); GB200 BF16: DeepSeek V3 (128, 128 s; 256 1-step off, 64.5 s), Qwen3-235B (64, 332 s; 128
  1-step off, 268 s). Recipes at tag v0.5.0.

The recipes (read at both tags; v0.4.0 and v0.5.0 agree key for key on the H100 files):
* ``grpo-deepseek-v3-32n8g.yaml``: ``defaults: grpo_math_1B.yaml``; 32 prompts × 16 generations; max total
  sequence 1,536; Megatron PP 16, EP 16, ``activation_checkpointing: true``; vLLM TP 32, colocated (the base's
  0.6). ``-64n8g-async-1off``: async GRPO, ``max_trajectory_age_steps: 1``, vLLM on 32 of 64 nodes at
  ``gpu_memory_utilization`` 0.8, training PP 16 EP 16 on the other 32.
* ``grpo-qwen3-235b-16n8g.yaml``: 16 prompts × 32 generations; 8,192; TP 2 + sequence parallel, CP 2, PP 8, EP 16,
  activation checkpointing; vLLM TP 16. ``-32n8g-async-1off``: TP 4 SP, CP 1, PP 8, EP 16 on 16 nodes, vLLM TP 8
  on 16 at 0.8.
* GB200 (v0.5.0, ``gpus_per_node: 4``): ``grpo-deepseek-v3-32n4g`` = the 32n8g file with PP 8 (vLLM TP 32, the
  base's 0.6: v0.5.0 does not set the 0.3 that v0.6.0's file sets); ``-64n4g-async-1off`` = PP 8 EP 16, vLLM TP 16
  on 32 of 64 trays at 0.8; ``grpo-qwen3-235b-16n4g`` = PP 4, vLLM TP 8 (the base's 0.6; v0.6.0 sets 0.4);
  ``-32n4g-async-1off`` = PP 4, vLLM TP 8 on half the trays.

Mapping: ``rl_step_times._nemo_rl6`` (the round-7 mapping of the same recipe files at v0.6.0), unchanged: the
G-Average Seq len is prompt + response with a 150-token prompt (ASSUMED there, not published); the reference in CPU
memory; 1-step off = ``vllm_separate`` on half the GPUs, async with one batch in flight.

Not entered: v0.5's DAPO DeepSeek-V3 row (dynamic sampling regenerates until 256 × 16 non-degenerate rollouts
fill, with ``batch_multiplier`` 3: how many generation batches ran is not published) and the H100 FP8 rows
(FP8 generation and training: not a planner choice for RL, as round 7 left v0.6's FP8 row).

Error convention: error = published / predicted − 1 (+ means the model is too fast).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import rl_step_times as rl  # noqa: E402

BEFORE = ROOT / "bench" / "data" / "postoos18_before.json"
V04 = ("github.com/NVIDIA-NeMo/RL cff17f83b docs/about/performance-summary.md (\"Nemo RL v0.4\", DGX-H100 BF16) + "
       "examples/configs/recipes/llm/performance/*.yaml at v0.4.0")
V05 = ("github.com/NVIDIA-NeMo/RL 4c1a0cd49 docs/about/performance-summary.md (\"Nemo RL v0.5\", H100 / GB200 BF16) "
       "+ examples/configs/recipes/llm/performance/*.yaml at v0.5.0")
_OFF = rl._OFF
_GB = {"gpu": "gb200-186gb", "per_node": 4}
_DS = {"prompts": 32, "group": 16, "recompute": "full", "seq_max": 1536}
_Q235 = {"prompts": 16, "recompute": "full", "sp": True, "seq_max": 8192}
DS, Q235 = {"preset": "deepseek-v3"}, {"preset": "qwen3-235b-a22b"}


def _ds(n, avg, *, pp=16, ep=16, gen_tp=32, off=False, **kw):
    return rl._nemo_rl6(DS, n, pp=pp, tp=1, ep=ep, gen_tp=gen_tp, avg_seq=avg, rl_extra=_OFF if off else None,
                        **_DS, **kw)


def _q235(n, avg, *, tp=2, cp=2, pp=8, gen_tp=16, off=False, **kw):
    return rl._nemo_rl6(Q235, n, tp=tp, cp=cp, pp=pp, ep=16, gen_tp=gen_tp, avg_seq=avg,
                        rl_extra=_OFF if off else None, **_Q235, **kw)


#: (id, source, scenario, published step s, recipe)
ROWS = [
    ("nemo-rl v0.4 deepseek-v3 grpo 256xh100", V04, _ds(256, 745), 154.0, "grpo-deepseek-v3-32n8g"),
    ("nemo-rl v0.4 deepseek-v3 grpo 512xh100 1-step off", V04, _ds(512, 744, off=True), 77.9,
     "grpo-deepseek-v3-64n8g-async-1off"),
    ("nemo-rl v0.4 qwen3-235b grpo 128xh100", V04, _q235(128, 5671), 506.0, "grpo-qwen3-235b-16n8g"),
    ("nemo-rl v0.4 qwen3-235b grpo 256xh100 1-step off", V04, _q235(256, 5691, tp=4, cp=1, gen_tp=8, off=True), 241.0,
     "grpo-qwen3-235b-32n8g-async-1off"),
    ("nemo-rl v0.5 deepseek-v3 grpo 256xh100", V05, _ds(256, 744), 134.0, "grpo-deepseek-v3-32n8g"),
    ("nemo-rl v0.5 deepseek-v3 grpo 512xh100 1-step off", V05, _ds(512, 738, off=True), 64.9,
     "grpo-deepseek-v3-64n8g-async-1off"),
    ("nemo-rl v0.5 qwen3-235b grpo 128xh100", V05, _q235(128, 5700), 431.0, "grpo-qwen3-235b-16n8g"),
    ("nemo-rl v0.5 qwen3-235b grpo 256xh100 1-step off", V05, _q235(256, 5707, tp=4, cp=1, gen_tp=8, off=True), 203.0,
     "grpo-qwen3-235b-32n8g-async-1off"),
    ("nemo-rl v0.5 gb200 deepseek-v3 grpo 128 gpus", V05, _ds(128, 996, pp=8, **_GB), 128.0, "grpo-deepseek-v3-32n4g"),
    ("nemo-rl v0.5 gb200 deepseek-v3 grpo 256 gpus 1-step off", V05, _ds(256, 994, pp=8, gen_tp=16, off=True, **_GB),
     64.5, "grpo-deepseek-v3-64n4g-async-1off"),
    ("nemo-rl v0.5 gb200 qwen3-235b grpo 64 gpus", V05, _q235(64, 5711, pp=4, gen_tp=8, **_GB), 332.0,
     "grpo-qwen3-235b-16n4g"),
    ("nemo-rl v0.5 gb200 qwen3-235b grpo 128 gpus 1-step off", V05,
     _q235(128, 5711, tp=4, cp=1, pp=4, gen_tp=8, off=True, **_GB), 268.0, "grpo-qwen3-235b-32n4g-async-1off"),
]


#: the same recipe file in the three releases' tables: (recipe, GPU, this file's ids, the held v0.6 row's id in
#: ``rl_step_times.STEP_ROWS_V06`` / ``STEP_ROWS_V06_GB200``, or None where v0.6 ran another layout)
RELEASES = [
    ("grpo-deepseek-v3-32n8g", "H100", ("nemo-rl v0.4 deepseek-v3 grpo 256xh100", "nemo-rl v0.5 deepseek-v3 grpo 256xh100"),
     "nemo-rl v0.6 deepseek-v3 grpo 256xh100"),
    ("grpo-deepseek-v3-64n8g-async-1off", "H100", ("nemo-rl v0.4 deepseek-v3 grpo 512xh100 1-step off",
                                                   "nemo-rl v0.5 deepseek-v3 grpo 512xh100 1-step off"),
     "nemo-rl v0.6 deepseek-v3 grpo 512xh100 1-step off"),
    ("grpo-qwen3-235b-16n8g", "H100", ("nemo-rl v0.4 qwen3-235b grpo 128xh100", "nemo-rl v0.5 qwen3-235b grpo 128xh100"),
     "nemo-rl v0.6 qwen3-235b grpo 128xh100"),
    ("grpo-qwen3-235b-32n8g-async-1off", "H100", ("nemo-rl v0.4 qwen3-235b grpo 256xh100 1-step off",
                                                  "nemo-rl v0.5 qwen3-235b grpo 256xh100 1-step off"),
     "nemo-rl v0.6 qwen3-235b grpo 256xh100 1-step off"),
    ("grpo-qwen3-235b-16n4g", "GB200", ("nemo-rl v0.5 gb200 qwen3-235b grpo 64 gpus",),
     "nemo-rl v0.6 gb200 qwen3-235b grpo 64 gpus"),
    ("grpo-qwen3-235b-32n4g-async-1off", "GB200", ("nemo-rl v0.5 gb200 qwen3-235b grpo 128 gpus 1-step off",),
     "nemo-rl v0.6 gb200 qwen3-235b grpo 128 gpus 1-step off"),
]


def release_spread(rows) -> list[dict]:
    """Per recipe: the published step in each release against the model's one figure (the planner has no release
    field: the same recipe gets the same prediction), and the smallest |error| any one prediction could reach over
    the releases (the published max / min around their geometric middle)."""
    pub = {r["id"]: r["pub"] for r in rows}
    pred = {r["id"]: r["pred"] for r in rows}
    held = {rid: p["step"] for rid, _s, _c, p, _n in rl.STEP_ROWS_V06 + rl.STEP_ROWS_V06_GB200}
    out = []
    for recipe, gpu, ids, v06 in RELEASES:
        steps = [pub[i] for i in ids] + ([held[v06]] if v06 in held else [])
        lo, hi = min(steps), max(steps)
        out.append({"recipe": recipe, "gpu": gpu, "steps": steps, "model": pred[ids[0]],
                    "floor": (hi / lo) ** 0.5 - 1.0})
    return out


def all_nemo_rows(rows) -> list[tuple[str, str, float]]:
    """Every NeMo RL step row (round 7's held v0.4–v0.6 rows and this file's) as (id, kind, signed error): the kind
    is the GPU, the schedule and, for 1-step off, dense or MoE (``--all``)."""
    held = [(r[0], r[2], r[3]["step"]) for r in rl.STEP_ROWS + rl.STEP_ROWS_V05 + rl.STEP_ROWS_V05_GB200
            + rl.STEP_ROWS_V06 + rl.STEP_ROWS_V06_GB200]
    out = []
    for rid, scn, pub in held:
        out.append((rid, _kind(rid), pub / rl.predict(scn)["step"] - 1.0))
    out += [(r["id"], _kind(r["id"]), r["err"]) for r in rows]
    return out


def _kind(rid: str) -> str:
    gpu = "GB200" if "gb200" in rid else "H100"
    if "1-step off" not in rid:
        return f"{gpu} on-policy"
    moe = any(k in rid for k in ("a3b", "235b", "deepseek"))
    return f"{gpu} 1-step off, {'MoE' if moe else 'dense'}" if gpu == "H100" else f"{gpu} 1-step off"


def p90(v):
    v = sorted(v)
    return v[min(len(v) - 1, int(round(0.9 * (len(v) - 1))))]


def score() -> list[dict]:
    out = []
    for rid, src, scn, pub, recipe in ROWS:
        pred = rl.predict(scn)
        out.append({"id": rid, "source": src, "recipe": recipe, "pub": pub, "pred": pred["step"],
                    "gen": pred["gen"], "err": pub / pred["step"] - 1.0})
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--all", action="store_true", help="every NeMo RL step row by kind (held + these)")
    ap.add_argument("--record", action="store_true", help="write the base figures (once, before any change)")
    a = ap.parse_args()
    rows = score()
    if a.record:
        BEFORE.write_text(json.dumps({r["id"]: r["pred"] for r in rows}, indent=1) + "\n")
    before = json.loads(BEFORE.read_text()) if BEFORE.exists() else {}
    if a.json:
        print(json.dumps(rows, indent=1))
        return 0
    if a.all:
        kinds: dict[str, list[float]] = {}
        for _rid, kind, e in all_nemo_rows(rows):
            kinds.setdefault(kind, []).append(e)
        for kind, es in sorted(kinds.items()):
            print(f"- {kind}: {len(es)} rows, signed errors {min(es):+.1%} … {max(es):+.1%}, "
                  f"{sum(e > 0 for e in es)} positive")
        return 0
    print("| run | recipe | published step (s) | model before → now (s) | error before → now | model generation (s) |")
    print("|---|---|---:|---:|---:|---:|")
    eb = []
    for r in rows:
        b = before.get(r["id"], r["pred"])
        eb.append(abs(r["pub"] / b - 1.0))
        print(f"| {r['id']} | {r['recipe']} | {r['pub']:.1f} | {b:.1f} → {r['pred']:.1f} | "
              f"{r['pub'] / b - 1.0:+.1%} → {r['err']:+.1%} | {r['gen']:.1f} |")
    en = [abs(r["err"]) for r in rows]
    print(f"step |error| median / p90 before {statistics.median(eb):.1%} / {p90(eb):.1%}, "
          f"now {statistics.median(en):.1%} / {p90(en):.1%} over {len(rows)} rows")
    print("\nThe same recipe over the releases (v0.4, v0.5, then the held v0.6 row), against the model's one figure:")
    for r in release_spread(rows):
        print(f"- {r['recipe']} ({r['gpu']}): published {' / '.join(f'{x:.1f}' for x in r['steps'])} s, model "
              f"{r['model']:.1f} s; no single figure comes closer than ±{r['floor']:.1%} to all of them")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
