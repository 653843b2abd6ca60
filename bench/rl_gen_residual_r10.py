"""Issue 35 round 10 (rollgen10): where the round-10 verl GRPO-LoRA rows' generation time goes, per decode step.

Usage: python bench/rl_gen_residual_r10.py

A diagnostic, not a model: it reads the rows of ``bench/rl_step_times_r10.py`` and shows, for each, the published
``timing_s/gen`` against the model's, per decode step, and the miss divided by the live sequences and the decoder
layers. It prints the facts the search for the mechanism rests on (docs/notes/2026-12-07/issue-35-r10-rollgen10.md):

* Every run ends on a completion that reaches the 512-token cap (the logged ``response_length/clip_ratio`` is above
  0 on every row), so a generation is 512 decode steps; no row runs in waves (``max_num_seqs`` 512 ≥ the engine's
  rollouts, and the model's KV pool holds them all).
* The engine: vLLM 0.9.1 (its ``arg_utils.py:1642`` fallback warning in the logs) on its V0 engine — the script
  exports ``VLLM_ATTENTION_BACKEND=XFORMERS``, which V1 refuses ("is not supported by the V1 Engine. Falling back to
  V0"), eager (``enforce_eager``, "async output processor cannot be used"), LoRA on, prefix caching on
  (verl v0.4.1 ``vllm_rollout_spmd.py``: ``LLM(..., enable_prefix_caching=True, distributed_executor_backend=
  "external_launcher")``: every TP rank runs its own engine loop), ``SamplingParams(n=5, logprobs=0)``.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "bench"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from gpuplanner.core.methods import ENGINE_SEQ_S, ENGINE_STEP_S  # noqa: E402
from rl_step_times import predict  # noqa: E402
from rl_step_times_r10 import ROWS  # noqa: E402

#: decoder layers of the Qwen2.5 models (their Hugging Face ``config.json``: ``num_hidden_layers``)
LAYERS = {"qwen2.5-0.5b": 24, "qwen2.5-1.5b": 28, "qwen2.5-3b": 36, "qwen2.5-7b": 28, "qwen2.5-14b": 48,
          "qwen2.5-32b": 64, "qwen2.5-72b": 80}
#: decode steps of one generation: every row's longest completion reaches max_response_length (clip ratio > 0)
STEPS = 512


def rows() -> list[dict]:
    """Per row: published and modelled generation seconds, live sequences per engine, layers, the miss per step
    (ms) and per live sequence and layer (µs)."""
    out = []
    for rid, _src, scn, pub, _note, _counted in ROWS:
        rl = scn["training"]["rl"]
        size = next(k for k in LAYERS if k.split("qwen2.5-")[1] in rid.split(" ")[2])
        layers = LAYERS[size]
        engines = scn["hardware"]["num_gpus"] // rl["rollout_tp"] if "hardware" in scn else None
        rollouts = 64 * rl["group_size"]
        per_engine = rollouts / engines if engines else float(rollouts)
        live = per_engine * rl["mean_response_fraction"]
        model = predict(scn)["gen"]
        miss = (pub["gen"] - model) / STEPS
        out.append({"id": rid, "pub": pub["gen"], "model": model, "per_engine": per_engine, "live": live,
                    "layers": layers, "miss_ms": miss * 1e3, "miss_us_seq_layer": miss / (live * layers) * 1e6,
                    "pub_step_ms": pub["gen"] / STEPS * 1e3,
                    "gpu_form_us": (pub["gen"] / STEPS - ENGINE_STEP_S - ENGINE_SEQ_S * live) / (live * layers) * 1e6})
    return out


def main() -> None:
    print("| row | rollouts / engine | live | layers | gen published → model (s) | ms a step published | "
          "miss a step (ms) | miss per live seq × layer (µs) | whole step less V0 host, per seq × layer (µs) |")
    print("|---|---:|---:|---:|---|---:|---:|---:|---:|")
    for r in rows():
        print(f"| {r['id']} | {r['per_engine']:.0f} | {r['live']:.0f} | {r['layers']} | {r['pub']:.1f} → "
              f"{r['model']:.1f} | {r['pub_step_ms']:.1f} | {r['miss_ms']:.1f} | {r['miss_us_seq_layer']:.1f} | "
              f"{r['gpu_form_us']:.1f} |")


if __name__ == "__main__":
    main()
