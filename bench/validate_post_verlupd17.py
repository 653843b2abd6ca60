"""Round 17 (verlupd17): where verl's actor update (``timing_s/update_actor``) is missed, per mini-batch and per
micro-batch, for the text-only verl rows of ``bench/rl_step_times.py`` that publish their logs.

Diagnostic only: nothing here is fitted and no model constant changes. Usage:
``python bench/validate_post_verlupd17.py [--logs DIR]`` (``DIR``: a checkout of dingxianzhong/play-verl 7716a61's
``logs/``; without it the medians below, read from those logs, are used).

What the logs fix (play-verl ``logs/verl_*.log``, every logged step; medians):
* ``timing_s/update_actor``: the driver's timer around ``actor_rollout_wg.update_actor`` (the Ray call, the actor's
  parameter/optimizer load and offload with ``param_offload``, and ``update_policy``).
* ``perf/mfu/actor``: volcengine/verl main of 2025-05-03 (9e4074b7; the logs' config keys, e.g. ``loss_agg_mode``,
  ``chat_scheduler``, ``norm_adv_by_std_in_grpo``, all exist there and ``loss_agg_mode`` is not in v0.3.0.post1)
  ``verl/workers/fsdp_workers.py`` ``update_actor``: ``Timer`` around ``self.actor.update_policy`` only, then
  ``estimated_flops * ppo_epochs / promised_flops / world_size`` with ``verl/utils/flops_counter.py``
  ``_estimate_qwen2_flops``: ``6 · dense_N · tokens + 12 · Σ s² · head_dim · heads · layers`` (dense_N counts the
  embedding and LM head), promised 989 TFLOP/s for an H100. So ``update_policy``'s own wall time is
  ``flops / (mfu · 989e12 · 8)``. Σ s² is taken as ``n · s̄² · 1.25`` (a length spread of 0.5; the attention term
  is < 1% of the 7B's FLOPs at these lengths, ~3% of the 0.5B's).

Counts (``dp_actor.update_policy`` at 9e4074b7): ``ppo_epochs`` (1 in every log) × ``train_batch_size /
ppo_mini_batch_size`` optimizer steps (``_optimizer_step``: FSDP1 ``clip_grad_norm_``, ``torch.isfinite`` on the
norm, ``actor_optimizer.step()``); each mini-batch's micro-batches: with ``use_dynamic_bsz``
``rearrange_micro_batches`` (``verl/utils/seqlen_balancing.py``): ``ceil(rank tokens / ppo_max_token_len_per_gpu)``,
the largest over the ranks (``dist.all_reduce(op=MAX)``); the expected count is taken with the rank's token sum
normal at the model's completion spread (``methods.ROLLOUT_LEN_CV``, prompts' spread left out, as
``core/rank_imbalance.py``); without it ``mini_batch / ppo_micro_batch_size_per_gpu``.
"""

from __future__ import annotations

import argparse
import math
import re
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import rl_step_times as rl  # noqa: E402
from gpuplanner.core.methods import ROLLOUT_LEN_CV  # noqa: E402

H100_PROMISED = 989e12  # verl/utils/flops_counter.py get_device_flops ("H100")
#: verl flops_counter dense_N (layers' linears + embedding + LM head) and the attention factor head_dim·heads·layers,
#: from the models' config.json (Qwen/Qwen2-7B-Instruct, Qwen/Qwen2.5-0.5B-Instruct)
QWEN2_7B = (7.616e9, 3584 * 28)
QWEN25_05B = (0.630e9, 896 * 24)

#: row id → (log file, model facts, dynamic bsz max tokens or None, fixed micro-batch, rollouts a mini-batch per GPU,
#:           published medians: update_actor, update_policy from the MFU, steps, perf/mfu/actor) — read from the logs by
#:           ``--logs`` (this script's parse) on 7716a61
ROWS = {
    "play-verl qwen2-7b ppo min": ("verl_qwen2_7b_min.log", QWEN2_7B, 8192, None, 32 // 8, (11.15, 9.69, 140, 0.079)),
    "play-verl qwen2-7b ppo recommended": ("verl_qwen2_7b_recommended.log", QWEN2_7B, 12000, None, 64 * 5 // 8,
                                           (33.61, 33.56, 70, 0.250)),
    "play-verl qwen2.5-0.5b grpo": ("verl_grpo_qwen2.5b_8gpu.log", QWEN25_05B, 8000, None, 64 * 2 // 8,
                                    (1.00, 1.00, 435, 0.061)),
    "play-verl qwen2.5-0.5b ppo": ("verl_ppo_qwen2.5b_8gpu.log", QWEN25_05B, None, 4, 512 // 8, (13.03, 13.05, 45, 0.023)),
}


def parse_log(path: Path, facts: tuple) -> tuple:
    """(median update_actor, median update_policy from ``perf/mfu/actor``, steps, median MFU) of one play-verl log."""
    dense_n, attn_f = facts
    ua, up, mfu = [], [], []
    for line in path.read_text(errors="replace").splitlines():
        if " step:" not in line or "perf/mfu/actor" not in line:
            continue
        d = {k: float(v) for k, v in re.findall(r"([\w/]+):(-?[\d.]+(?:e[-+]?\d+)?)", line)}
        tok = d["perf/total_num_tokens"]
        s = d["prompt_length/mean"] + d["response_length/mean"]
        flops = 6.0 * dense_n * tok + 12.0 * (tok / s) * s * s * 1.25 * attn_f
        ua.append(d["timing_s/update_actor"])
        up.append(flops / (d["perf/mfu/actor"] * H100_PROMISED * 8))
        mfu.append(d["perf/mfu/actor"])
    return statistics.median(ua), statistics.median(up), len(ua), statistics.median(mfu)


def expected_micro_batches(max_tok, seqs, prompt, resp_mean, ranks=8) -> float:
    """E[max over ranks of ceil(rank tokens / max_tok)] with the rank's sum of ``seqs`` rollouts normal (mean
    ``seqs · (prompt + resp_mean)``, std ``√seqs · ROLLOUT_LEN_CV · resp_mean``); 1 or 2 micro-batches."""
    mean = seqs * (prompt + resp_mean)
    sd = math.sqrt(seqs) * ROLLOUT_LEN_CV * resp_mean
    base = math.ceil(mean / max_tok)
    over = 0.5 * math.erfc((base * max_tok - mean) / (sd * math.sqrt(2.0)))
    return base + 1.0 - (1.0 - over) ** ranks


def table(logs: Path | None = None) -> list[dict]:
    out = []
    scn_by_id = {r[0]: r[2] for r in rl.ROWS}
    for rid, (log, facts, max_tok, mbs, seqs, pub) in ROWS.items():
        if logs is not None:
            pub = parse_log(logs / log, facts)
        scn = scn_by_id[rid]
        rlc = scn["training"]["rl"]
        minis = rlc["updates_per_generation"]
        if max_tok:
            micro = expected_micro_batches(max_tok, seqs, rlc["prompt_len"],
                                           rlc["mean_response_fraction"] * rlc["rollout_len"])
        else:
            micro = seqs / mbs
        model = rl.key_split(scn)["update_actor"]
        gap = pub[0] - model
        out.append({"id": rid, "pub": pub[0], "policy": pub[1], "outside": pub[0] - pub[1], "steps": pub[2],
                    "model": model, "minis": minis, "micro": micro, "gap": gap, "gap_mini": gap / minis,
                    "gap_micro": gap / (minis * micro), "model_micro": model / (minis * micro),
                    # verl's own MFU count over the model's update seconds (the offload copies included there)
                    "mfu": pub[3], "mfu_model": pub[3] * pub[1] / model})
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--logs", type=Path, default=None, help="play-verl logs/ directory (7716a61)")
    args = ap.parse_args()
    print("| row | steps | update_actor pub | of it update_policy (MFU) | outside | model | mini-batches | "
          "micro / mini | gap s | gap / mini-batch | gap / micro-batch | model / micro-batch | actor MFU pub / model |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in table(args.logs):
        print(f"| {r['id']} | {r['steps']} | {r['pub']:.2f} | {r['policy']:.2f} | {r['outside']:.2f} | "
              f"{r['model']:.2f} | {r['minis']} | {r['micro']:.2f} | {r['gap']:+.2f} | {r['gap_mini']:+.3f} | "
              f"{r['gap_micro']:+.3f} | {r['model_micro']:.3f} | {r['mfu']:.3f} / {r['mfu_model']:.3f} |")


if __name__ == "__main__":
    main()
