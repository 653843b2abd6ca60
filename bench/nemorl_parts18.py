"""Round 18 (nemorl18): every NeMo RL GRPO step row (round 7's held v0.4–v0.6 rows in ``rl_step_times`` and
postoos18's 12 in ``validate_post_oos18b``, 43 rows) split into the model's parts, and what the on-policy and the
1-step-off row of one recipe pair would need from each part. Prints only; changes nothing.

Usage: python bench/nemorl_parts18.py [--json]

Parts (seconds per generation batch, from ``estimate(...).time``; ``k`` = ``updates_per_generation``):

* ``decode``: the generation the step shows, less the refit (colocated: the whole generation; 1-step off: only
  the part the training does not hide);
* ``refit``: ``weight_refit`` + ``nemo_rl_refit_tensors`` (NeMo RL's per-tensor export and load);
* ``host``: ``nemo_rl_host_copies`` + ``optimizer_offload`` + ``rl_model_offload`` (the optimizer's pageable moves,
  the 16-bit buffer's and the reference swap's copies);
* ``lp``: the previous policy's and the reference's log-prob forwards (the step less the step with no reference,
  twice: both forwards cost the same), less the reference swap's three 16-bit copies;
* ``train``: the rest (the optimizer steps' forward, recompute and backward, the bubble, the collectives).

Pair reading (``pairs``): the on-policy and the 1-step-off recipe of one model and release put vLLM on the same
number of GPUs (DeepSeek-V3: 8 engines of TP 32 on 256 H100 in both) and the training on the same number. With the
1-step-off step = max(generation, training) + refit (NeMo RL ``async_grpo_train``: the trainer is the broadcast's
source) and the model's refit and host copies kept, the published pair gives (a) ``g``: the factor on the model's
generation that the generation-bound 1-step-off row needs, and (b) ``t``: the factor on the model's training and
log-prob forwards that the on-policy row then needs. A diagnosis, not a fit: nothing here enters the model.
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
import validate_post_oos18b as v18  # noqa: E402
from gpuplanner.core.estimate import estimate  # noqa: E402
from gpuplanner.core.scenario import scenario_from_dict  # noqa: E402


def all_rows() -> list[tuple[str, dict, float]]:
    held = [(r[0], r[2], r[3]["step"]) for r in rl.STEP_ROWS + rl.STEP_ROWS_V05 + rl.STEP_ROWS_V05_GB200
            + rl.STEP_ROWS_V06 + rl.STEP_ROWS_V06_GB200]
    return held + [(r[0], r[2], r[3]) for r in v18.ROWS]


def parts(scn: dict) -> dict:
    """The model's step split into decode / refit / host / lp / train (module docstring)."""
    t = estimate(scenario_from_dict(scn)).time
    k = scn["training"]["rl"]["updates_per_generation"]
    p = {a: b * k for a, b in t.parts.items()}
    step = t.step_time_s * k
    refit = p.get("weight_refit", 0.0) + p.get("nemo_rl_refit_tensors", 0.0)
    decode = t.seconds.get("generation", 0.0) * k - refit
    host = p.get("nemo_rl_host_copies", 0.0) + p.get("optimizer_offload", 0.0) + p.get("rl_model_offload", 0.0)
    no_ref = rl.predict(rl._variant(scn, reference="none"))["step"]
    w16_swap = 0.0
    if scn["training"]["rl"].get("generation_engine") == "vllm_colocated":
        w16_swap = 3.0 / 5.0 * max(p.get("nemo_rl_host_copies", 0.0) - _opt_moves(scn, step), 0.0)
    else:
        w16_swap = p.get("nemo_rl_host_copies", 0.0)
    lp = max(2.0 * (step - no_ref - w16_swap), 0.0)
    return {"step": step, "decode": decode, "refit": refit, "host": host, "lp": lp,
            "train": step - decode - refit - host - lp}


def _opt_moves(scn: dict, step: float) -> float:
    return step - rl._without_d2h_cost(scn)["step"] + (step - rl._without_d2h_cost(scn)["step"]) * (
        _t().NEMO_RL_PAGEABLE_D2H_BPS / _t().NEMO_RL_PAGEABLE_H2D_BPS)


def _t():
    from gpuplanner.core import timing
    return timing


def kind(rid: str) -> str:
    return v18._kind(rid)


#: (on-policy id, 1-step-off id): the same model and release, vLLM and training on the same GPU counts
PAIRS = [
    ("nemo-rl v0.4 deepseek-v3 grpo 256xh100", "nemo-rl v0.4 deepseek-v3 grpo 512xh100 1-step off"),
    ("nemo-rl v0.5 deepseek-v3 grpo 256xh100", "nemo-rl v0.5 deepseek-v3 grpo 512xh100 1-step off"),
    ("nemo-rl v0.6 deepseek-v3 grpo 256xh100", "nemo-rl v0.6 deepseek-v3 grpo 512xh100 1-step off"),
    ("nemo-rl v0.4 qwen3-235b grpo 128xh100", "nemo-rl v0.4 qwen3-235b grpo 256xh100 1-step off"),
    ("nemo-rl v0.5 qwen3-235b grpo 128xh100", "nemo-rl v0.5 qwen3-235b grpo 256xh100 1-step off"),
    ("nemo-rl v0.6 qwen3-235b grpo 128xh100", "nemo-rl v0.6 qwen3-235b grpo 256xh100 1-step off"),
    ("nemo-rl v0.5 gb200 deepseek-v3 grpo 128 gpus", "nemo-rl v0.5 gb200 deepseek-v3 grpo 256 gpus 1-step off"),
    ("nemo-rl v0.5 gb200 qwen3-235b grpo 64 gpus", "nemo-rl v0.5 gb200 qwen3-235b grpo 128 gpus 1-step off"),
    ("nemo-rl v0.6 gb200 qwen3-235b grpo 64 gpus", "nemo-rl v0.6 gb200 qwen3-235b grpo 128 gpus 1-step off"),
]

#: dense pairs with the same training GPUs (Qwen3-32B: 32 on-policy; 64 = 32 training + 32 vLLM 1-step off): the
#: model's 1-step-off rows are training-bound, so only reading (b) applies
DENSE_PAIRS = [
    ("nemo-rl qwen3-32b grpo 32xh100", "nemo-rl qwen3-32b grpo 64xh100 1-step off"),
    ("nemo-rl v0.5 qwen3-32b grpo 32xh100", "nemo-rl v0.5 qwen3-32b grpo 64xh100 1-step off"),
    ("nemo-rl v0.5 gb200 qwen3-32b grpo 16 gpus", "nemo-rl v0.5 gb200 qwen3-32b grpo 32 gpus 1-step off"),
]


def pair_reading(table: dict, pairs=None) -> list[dict]:
    out = []
    for on, off in (PAIRS if pairs is None else pairs):
        if on not in table or off not in table:
            continue
        a, b = table[on], table[off]
        gen_off = b["parts"]["step"] - b["parts"]["refit"]  # generation-bound: the whole window is generation
        g = (b["pub"] - b["parts"]["refit"]) / gen_off
        rest = a["pub"] - a["parts"]["refit"] - a["parts"]["host"] - g * a["parts"]["decode"]
        t = rest / (a["parts"]["lp"] + a["parts"]["train"])
        # reading (b): the 1-step-off row is training-bound (T >= its generation): T = published − refit, and the
        # on-policy row's generation is what is left after T, the refit and the host copies
        t_b = b["pub"] - b["parts"]["refit"]
        gen_b = a["pub"] - t_b - a["parts"]["refit"] - a["parts"]["host"]
        out.append({"on": on, "off": off, "g": g, "t": t, "need_s": rest,
                    "model_s": a["parts"]["lp"] + a["parts"]["train"],
                    "off_train_s": b["parts"]["lp"] + b["parts"]["train"],
                    "b_train_s": t_b, "b_gen_on_s": gen_b, "model_gen_on_s": a["parts"]["decode"],
                    "model_gen_off_s": gen_off})
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    table = {}
    for rid, scn, pub in all_rows():
        table[rid] = {"pub": pub, "kind": kind(rid), "parts": parts(scn)}
    pairs = pair_reading(table)
    dense = pair_reading(table, DENSE_PAIRS)
    if a.json:
        print(json.dumps({"rows": table, "pairs": pairs, "dense_pairs": dense}, indent=1))
        return 0
    print("| run | kind | published (s) | model step (s) | decode | refit | host copies | log-prob fwds | train | "
          "error |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for rid, r in table.items():
        p = r["parts"]
        print(f"| {rid} | {r['kind']} | {r['pub']:.1f} | {p['step']:.1f} | {p['decode']:.1f} | {p['refit']:.1f} | "
              f"{p['host']:.1f} | {p['lp']:.1f} | {p['train']:.1f} | {r['pub'] / p['step'] - 1.0:+.1%} |")
    errs = [abs(r["pub"] / r["parts"]["step"] - 1.0) for r in table.values()]
    print(f"\n{len(errs)} rows, step |error| median {statistics.median(errs):.1%}, p90 {v18.p90(errs):.1%}")
    print("\nPair reading (a): the 1-step-off row generation-bound, the model's refit and host copies kept:")
    print("| on-policy | g (generation factor the 1-step-off row needs) | training + log-probs: model → needed (s) | t |")
    print("|---|---:|---:|---:|")
    for r in pairs:
        print(f"| {r['on']} | {r['g']:.2f} | {r['model_s']:.1f} → {r['need_s']:.1f} | {r['t']:.1f} |")
    print("\nPair reading (b): the 1-step-off row training-bound (T = published − refit), the model's refit and host "
          "copies kept:")
    print("| on-policy | T needed (s) (model on / off) | on-policy generation left (s) | model's (s) | 1-step-off "
          "generation, model (s) |")
    print("|---|---:|---:|---:|---:|")
    for r in pairs + dense:
        print(f"| {r['on']} | {r['b_train_s']:.1f} ({r['model_s']:.1f} / {r['off_train_s']:.1f}) | "
              f"{r['b_gen_on_s']:.1f} | {r['model_gen_on_s']:.1f} | {r['model_gen_off_s']:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
