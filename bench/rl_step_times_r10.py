"""Round 10 (postoos10): published RL step times the project had not used, scored against the model.

Usage: python bench/rl_step_times_r10.py

Source: github.com/eric-haibin-lin/verl-data, branch ``experiments``, folder ``math/`` (the GSM8K folder's LoRA logs
are round 9's rows in ``bench/rl_step_times_r9.py``; the ``math/`` folder was not used by any bench before this
file). Each log prints the launch command, verl's config dump and every step's ``timing_s/*`` keys. Every run in the
folder is the same user's GRPO-LoRA script (the file names without ``lorarank32`` set ``lora_rank=32`` too, in the
logged command and config): Qwen2.5-Instruct 0.5B–72B, rank 32 on all linear layers, ``max_prompt_length`` 1,024,
``max_response_length`` 512, 64 prompts × 5 rollouts, ``ppo_mini_batch_size`` = ``ppo_micro_batch_size`` = 64
(the mini-batch of 320 sequences runs per GPU in micro-batches of 64 / GPUs sequences), actor parameters and
optimizer offloaded, gradient checkpointing, ``use_remove_padding``, vLLM ``enforce_eager`` with ``max_num_seqs`` 512
and ``max_num_batched_tokens`` 1,536, ``actor.strategy`` fsdp (FSDP1), KL loss 0.001 against the adapter-disabled
base (verl's ``ref_in_actor`` for LoRA). The seven ``*-score*.log`` runs (July 2025) train on MATH only; the
``*-lorarank32-*`` runs (June 2025) on GSM8K + MATH.

The step is read as in round 9: the sum gen + old_log_prob + ref + update_actor + reward + adv of the last logged
step (the wandb "Run summary"; its ``timing_s/step`` also holds the final validation and the checkpoint), or a
whole logged step without validation where one was read (the 3B row). ``mean_response_fraction`` and the prompt are
the same step's ``response_length/mean`` / 512 and ``prompt_length/mean``.

GPU: ASSUMED H100 80GB (as round 9 for the same user's GSM8K runs): verl's logged ``perf/mfu/actor`` (0.06–0.29)
fits only a 989 TFLOP/s part (``flops_counter.py``: H100/H800/H200). The logged ``max_memory_reserved_gb`` of the
0.5B–3B runs (82 GiB) and the 72B run (99 GiB) exceed an H100's 79.6 GiB; verl's figure counts vLLM's sleep-mode
pool after it is unmapped (``bench/rl_step_times.py`` ``MEM_NOT_COUNTED`` reads the same for a play-verl row), so it
does not rule the H100 out, but an H200 would fit it too: said, not chosen.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "bench"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from rl_step_times import KEYS  # noqa: E402
from rl_step_times_r9 import QWEN25_3B, _pub, _stats, _v, row_table  # noqa: E402

MATH = "github.com/eric-haibin-lin/verl-data, branch experiments, math/"


def _lora512(model, gpus, *, tp, util, resp_mean, prompt_mean):
    """One run of the folder as a planner scenario (the script above; prompt padded to 1,024)."""
    return _v(model, "h100-sxm-80gb", gpus, prompts=64, n=5, prompt_mean=prompt_mean, resp_max=512,
              resp_mean=resp_mean, util=util, tp=tp, mini=64, mbs=64 // gpus, ref="lora_base", actor_offload=True,
              sleep_level=1, method="lora", max_num_seqs=512, fsdp_version=1, prompt_pad=1024)


#: (id, source, scenario, published seconds per verl step, note, counted); logged keys of the named step
ROWS = [
    ("verl math qwen2.5-0.5b grpo-lora 2 gpus", MATH + "Qwen2.5-0.5B-bsz64_2-prompt1024-resp512-score0.3141.log "
     "(cc49946)", _lora512("qwen2.5-0.5b", 2, tp=2, util=0.1, resp_mean=402.6, prompt_mean=118),
     _pub(45.47, 1.68, 0.60, 5.80, reward=0.06, adv=0.01),
     "last step (117, run summary); response clip ratio 0.42", True),
    ("verl math qwen2.5-1.5b grpo-lora 2 gpus", MATH + "Qwen2.5-1.5B-bsz64_2-prompt1024-resp512-score0.5018.log "
     "(bcff590)", _lora512("qwen2.5-1.5b", 2, tp=2, util=0.1, resp_mean=376.1, prompt_mean=118),
     _pub(47.08, 2.04, 1.06, 6.69, reward=0.06, adv=0.01), "last step (117); clip ratio 0.30", True),
    ("verl math qwen2.5-3b grpo-lora 2 gpus", MATH + "Qwen2.5-3B-bsz64_2-prompt1024-resp512-score0.5702.log "
     "(cc49946)", _lora512(QWEN25_3B, 2, tp=2, util=0.1, resp_mean=396.3, prompt_mean=130),
     _pub(58.60, 2.87, 1.92, 9.32, reward=0.06, adv=0.01, step=72.79),
     "step 116 (no validation: logged timing_s/step 72.79); clip ratio 0.36", True),
    ("verl math qwen2.5-7b grpo-lora 8 gpus", MATH + "Qwen2.5-7B-bsz64_8-prompt1024-resp512-score0.6513.log "
     "(bcff590)", _lora512("qwen2.5-7b", 8, tp=2, util=0.2, resp_mean=314.1, prompt_mean=118),
     _pub(26.75, 2.60, 1.11, 7.26, reward=0.06, adv=0.01), "last step (117); clip ratio 0.19", True),
    ("verl math qwen2.5-14b grpo-lora 8 gpus", MATH + "Qwen2.5-14B-bsz64_8-prompt1024-resp512-score0.6931.log "
     "(bcff590)", _lora512("qwen2.5-14b", 8, tp=8, util=0.25, resp_mean=278.6, prompt_mean=118),
     _pub(65.95, 3.79, 1.89, 12.57, reward=0.07, adv=0.01), "last step (117); clip ratio 0.02", True),
    ("verl math qwen2.5-32b grpo-lora 8 gpus", MATH + "Qwen2.5-32B-bsz64_8-prompt1024-resp512-score0.6985.log "
     "(cc49946)", _lora512("qwen2.5-32b", 8, tp=8, util=0.3, resp_mean=253.4, prompt_mean=118),
     _pub(81.25, 5.43, 3.94, 17.11, reward=0.06, adv=0.01), "last step (117); clip ratio 0.01", True),
    ("verl math qwen2.5-72b grpo-lora 8 gpus", MATH + "Qwen2.5-72B-bsz64_8-prompt1024-resp512-score0.7319.log "
     "(bcff590)", _lora512("qwen2.5-72b", 8, tp=8, util=0.4, resp_mean=288.1, prompt_mean=118),
     _pub(108.43, 10.11, 8.21, 28.28, reward=0.06, adv=0.01), "last step (117); clip ratio 0.02", True),
    ("verl gsm8k+math qwen2.5-7b grpo-lora 8 gpus", MATH + "Qwen2.5-7B-bsz64_8-prompt1024-resp512-lorarank32-"
     "score0.6171.log (f296049)", _lora512("qwen2.5-7b", 8, tp=2, util=0.2, resp_mean=414.0, prompt_mean=138),
     _pub(26.97, 2.49, 1.28, 7.38, reward=0.07, adv=0.01), "last step (233); clip ratio 0.44", True),
    ("verl gsm8k+math qwen2.5-0.5b grpo-lora 2 gpus", MATH + "Qwen2.5-0.5B-bsz64_2-prompt1024-resp512-lorarank32-"
     "score0.3175.log (f296049)", _lora512("qwen2.5-0.5b", 2, tp=2, util=0.1, resp_mean=411.1, prompt_mean=138),
     _pub(46.64, 1.74, 0.60, 5.90, reward=0.07, adv=0.01), "last step (233); clip ratio 0.48", True),
    ("verl gsm8k+math qwen2.5-1.5b grpo-lora 2 gpus", MATH + "Qwen2.5-1.5B-bsz64_2-prompt1024-resp512-lorarank32-"
     "score0.4836.log (f296049)", _lora512("qwen2.5-1.5b", 2, tp=2, util=0.1, resp_mean=400.7, prompt_mean=138),
     _pub(51.48, 2.06, 1.19, 7.21, reward=0.07, adv=0.01), "last step (233); clip ratio 0.42", True),
    ("verl gsm8k+math qwen2.5-3b grpo-lora 2 gpus", MATH + "Qwen2.5-3B-bsz64_2-prompt1024-resp512-lorarank32-"
     "score0.5642.log (f296049)", _lora512(QWEN25_3B, 2, tp=2, util=0.1, resp_mean=396.2, prompt_mean=138),
     _pub(60.23, 2.70, 1.87, 9.49, reward=0.07, adv=0.01), "last step (233); clip ratio 0.39", True),
]


#: verl's logged ``perf/max_memory_allocated_gb`` (``torch.cuda.max_memory_allocated() / 1024**3`` in the actor
#: worker, vLLM's pool in the same process; the maximum so far, read at the same step as the timings), GiB
MEM_PUB = {
    "verl math qwen2.5-0.5b grpo-lora 2 gpus": 35.64, "verl math qwen2.5-1.5b grpo-lora 2 gpus": 37.73,
    "verl math qwen2.5-3b grpo-lora 2 gpus": 42.59, "verl math qwen2.5-7b grpo-lora 8 gpus": 28.08,
    "verl math qwen2.5-14b grpo-lora 8 gpus": 36.99, "verl math qwen2.5-32b grpo-lora 8 gpus": 51.05,
    "verl math qwen2.5-72b grpo-lora 8 gpus": 81.87, "verl gsm8k+math qwen2.5-7b grpo-lora 8 gpus": 26.93,
    "verl gsm8k+math qwen2.5-0.5b grpo-lora 2 gpus": 36.55, "verl gsm8k+math qwen2.5-1.5b grpo-lora 2 gpus": 37.95,
    "verl gsm8k+math qwen2.5-3b grpo-lora 2 gpus": 40.67,
}
#: none left out: the 72B run's 81.9 GiB, more than an H100's 79.6 GiB, is what PyTorch's counters hold with vLLM's
#: sleeping pool in them (memory.sleeping_pool_counted_bytes), not a device peak
MEM_NOT_COUNTED: set = set()


def mem_table() -> list[tuple]:
    """(id, published GiB, modelled allocated GiB, error, counted) for :data:`MEM_PUB`."""
    from rl_step_times import predict
    rows = {r[0]: r[2] for r in ROWS}
    out = []
    for rid, pub in MEM_PUB.items():
        pred = predict(rows[rid])["mem"]
        out.append((rid, pub, pred, pred / pub - 1.0, rid not in MEM_NOT_COUNTED))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--markdown", action="store_true")
    ap.parse_args()
    table = row_table(ROWS)
    for r in table:
        if "error" in r:
            print(f"- {r['id']}: REFUSED — {r['error']}")
            continue
        cells = "; ".join(f"{k} {p:.1f} → {m:.1f} ({m / p - 1:+.0%})" for k, (p, m) in r["keys"].items())
        print(f"- {r['id']}: step {r['pub']['step']:.1f} → {r['pred']['step']:.1f} ({r['err']:+.0%}); {cells}")
    counted = [r for r in table if r.get("counted") and "err" in r]
    med, p90 = _stats(r["err"] for r in counted)
    print(f"step |error| over the {len(counted)} round-10 rows: median {med:.0%}, p90 {p90:.0%}")
    for k in KEYS:
        errs = [r["keys"][k][1] / r["keys"][k][0] - 1 for r in counted if k in r["keys"]]
        if errs:
            print(f"{k}: signed errors {', '.join(f'{e:+.0%}' for e in sorted(errs))}")
    print("\nAllocated peak (verl perf/max_memory_allocated_gb) against the model's allocated peak:")
    mem = mem_table()
    for rid, pub, pred, err, counted in mem:
        print(f"- {rid}: {pub:.1f} GiB published, {pred:.1f} GiB modelled ({err:+.0%})"
              + ("" if counted else " [not counted: above the card]"))
    med, p90 = _stats(e for _r, _p, _m, e, c in mem if c)
    print(f"mem |error| over {sum(1 for m in mem if m[4])} counted rows: median {med:.0%}, p90 {p90:.0%}")


if __name__ == "__main__":
    main()
