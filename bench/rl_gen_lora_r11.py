"""Issue 35 round 11 (verl11): vLLM's LoRA time per token on the verl GRPO-LoRA rows, both sets side by side.

Usage: python bench/rl_gen_lora_r11.py

A diagnostic, not a model. It reads the LoRA rows of ``bench/rl_step_times_r10.py`` (verl-data ``math/``,
responses capped at 512) and ``bench/rl_step_times_r9.py`` (rl12's verl-data ``gsm8k/`` rows, capped at 1,024) and
prints, per row, the published ``timing_s/gen``, the model's with and without round 10's
``methods.VLLM_LORA_S_PER_TOKEN_LAYER`` (vLLM PR #11267: 2.87 µs a token a decoder layer), and the per-token cost
each row would need alone (the miss without the term, over the engine's generated tokens × layers).

Both sets ran the same engine (their logs: vLLM 0.9.1's ``arg_utils.py:1642`` "VLLM_ATTENTION_BACKEND=XFORMERS is
not supported by the V1 Engine. Falling back to V0", ``enforce_eager`` True, ``max_num_seqs`` 512, 64 prompts × 5
per step, TP 2 on 2 GPUs or TP 8 on 8, four engines of 80 for the 7B rows), so the batch that starts each decode is
the same; the sets differ in the cap (512 against 1,024 decode steps, every row's longest reaching it) and in how
full the batch stays (mean response 49–81% of the cap against 21–59%).

The last lines split every row's miss (without the term) into a part per decode step and layer and a part per
generated token and layer, by least squares over all 18 rows: a diagnostic of the shape of the miss only, never
entered as constants (one set of constants, mechanisms not fits)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "bench"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import numpy as np  # noqa: E402

from gpuplanner.core import methods as Mt  # noqa: E402
from rl_step_times import predict  # noqa: E402
import rl_step_times_r9 as R9  # noqa: E402
import rl_step_times_r10 as R10  # noqa: E402

#: decoder layers (Hugging Face ``config.json`` ``num_hidden_layers``)
LAYERS = {"0.5b": 24, "1.5b": 28, "3b": 36, "7b": 28, "14b": 48, "32b": 64, "72b": 80}


def rows() -> list[dict]:
    out = []
    for table in (R10.ROWS, R9.ROWS):
        for r in table:
            rid, scn, pub = r[0], r[2], r[3]
            if "lora" not in rid:
                continue
            rl = scn["training"]["rl"]
            layers = next(v for k, v in LAYERS.items() if k == rid.split()[2].split("qwen2.5-")[1])
            engines = scn["hardware"]["num_gpus"] // rl["rollout_tp"]
            per_engine = 64 * rl["group_size"] / engines
            mean = rl["mean_response_fraction"] * rl["rollout_len"]
            keep = Mt.VLLM_LORA_S_PER_TOKEN_LAYER
            try:
                with_term = predict(scn)["gen"]
                Mt.VLLM_LORA_S_PER_TOKEN_LAYER = 0.0
                without = predict(scn)["gen"]
            finally:
                Mt.VLLM_LORA_S_PER_TOKEN_LAYER = keep
            tokens = per_engine * mean
            out.append({"id": rid, "per_engine": per_engine, "cap": rl["rollout_len"], "mean": mean,
                        "layers": layers, "pub": pub["gen"], "without": without, "with": with_term,
                        "need_us": (pub["gen"] - without) / (tokens * layers) * 1e6,
                        "steps_layers": rl["rollout_len"] * layers, "tokens_layers": tokens * layers})
    return out


def main() -> None:
    rs = rows()
    print("| row | rollouts / engine | cap | mean response | gen published (s) | model without the term | "
          "model (error) | µs a token a layer this row needs |")
    print("|---|---:|---:|---:|---:|---:|---|---:|")
    for r in rs:
        print(f"| {r['id']} | {r['per_engine']:.0f} | {r['cap']} | {r['mean']:.0f} | {r['pub']:.1f} | "
              f"{r['without']:.1f} | {r['with']:.1f} ({r['with'] / r['pub'] - 1:+.0%}) | {r['need_us']:.2f} |")
    a = np.array([[r["steps_layers"], r["tokens_layers"]] for r in rs])
    y = np.array([r["pub"] - r["without"] for r in rs])
    coef = np.linalg.lstsq(a, y, rcond=None)[0]
    worst = max(abs(yy - p) / r["pub"] for yy, p, r in zip(y, a @ coef, rs))
    print(f"\nShape of the miss (diagnostic least squares, not entered): {coef[0] * 1e6:+.0f} µs a decode step a "
          f"layer, {coef[1] * 1e6:+.2f} µs a generated token a layer; worst row left at {worst:.0%} of its gen.")
    print(f"Model now: +{Mt.VLLM_LORA_EAGER_S_PER_LAYER * 1e6:.0f} µs a decode step a layer "
          f"(VLLM_LORA_EAGER_S_PER_LAYER, issue #13204, batch 1), "
          f"+{Mt.VLLM_LORA_S_PER_TOKEN_LAYER * 1e6:.2f} µs a token a layer (PR #11267).")


if __name__ == "__main__":
    main()
