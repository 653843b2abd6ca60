"""Round 14 (postoos14): post-training runs the project had not scored, entered and scored before any change.

Usage: python bench/validate_post_oos14.py

Source: github.com/eric-haibin-lin/verl-data, folder ``math/``, the two June-2025 GSM8K + MATH GRPO-LoRA logs that
round 10 (``bench/rl_step_times_r10.py``) left unread ("the same configuration as the July rows"):

* ``math/Qwen2.5-14B-bsz64_8-prompt1024-resp512-lorarank32-score0.7021.log`` (commit f2960497, run 2025-06-22);
* ``math/Qwen2.5-32B-bsz64_8-prompt1024-resp512-lorarank32-score0.7355.log`` (commit f2960497, run 2025-06-24).

Each log opens with its launch script and verl's config dump, and ends with the wandb "Run summary" of step 233.
Settings stated by the script / config (both runs): Qwen2.5-{14B,32B}-Instruct, GRPO (``adv_estimator=grpo``),
``train_batch_size`` 64 prompts × ``rollout.n`` 5, ``ppo_mini_batch_size`` = ``ppo_micro_batch_size`` = 64 (one
mini-batch; verl normalises the global micro-batch to 64 / 8 = 8 prompts = 40 sequences a GPU), ``max_prompt_length``
1,024, ``max_response_length`` 512, LoRA rank 32 alpha 32 on ``all-linear``, gradient checkpointing,
``use_remove_padding``, actor ``param_offload`` and ``optimizer_offload`` True, reference ``param_offload`` True
(LoRA: verl's reference is the actor with its adapter disabled), KL loss 0.001 (low_var_kl), entropy 0.001,
``actor.strategy`` fsdp (FSDP1), 8 GPUs on one node, vLLM rollout TP 8, ``gpu_memory_utilization`` 0.25 (14B) /
0.3 (32B), ``enforce_eager`` True, ``free_cache_engine`` True, ``max_num_seqs`` 512, ``max_model_len`` and
``max_num_batched_tokens`` 1,536, ``enable_chunked_prefill`` False, ``layered_summon`` True, ``load_format``
safetensors, ``use_shm`` True, XFormers attention in vLLM (``VLLM_ATTENTION_BACKEND=XFORMERS``).

Published figures (Run summary, step 233): ``timing_s/gen``, ``old_log_prob``, ``ref``, ``update_actor``, ``reward``,
``adv``; ``response_length/mean``, ``prompt_length/mean``; ``perf/max_memory_allocated_gb``. The step is read as
rounds 9 and 10 read it: gen + old_log_prob + ref + update_actor + reward + adv (the logged ``timing_s/step`` of the
last step also holds the final validation, 3,687 s / 4,954 s, and a checkpoint save).

ASSUMED (not stated by the source): H100 80GB (round 9/10 for the same user's runs: the logged ``perf/mfu/actor``,
0.145 and 0.227, fits only verl's 989 TFLOP/s entry: H100/H800/H200); vLLM sleep level 1 (verl keeps a LoRA engine's
base weights, rounds 9/10). Not modelled, said: ``layered_summon`` (it changes how the adapter is gathered for
the sync, inside ``timing_s/reshard``, part of ``gen``), ``use_shm`` (loading only), the XFormers backend (the
planner has one attention cost for vLLM's decode).

Error convention (the round-14 brief): error = published / predicted − 1 (+ means the model is too fast / too small).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "bench"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from rl_step_times import KEYS, predict  # noqa: E402
from rl_step_times_r9 import _pub, _stats, row_table  # noqa: E402
from rl_step_times_r10 import MATH, _lora512  # noqa: E402

#: the logged Run summary of step 233, seconds (and the logged means), entered as printed
LOG_14B = {"gen": 71.17199, "old_log_prob": 3.91527, "ref": 2.30441, "update_actor": 12.57439, "reward": 0.0727,
           "adv": 0.00725, "response_mean": 329.75311, "prompt_mean": 137.84375, "mem": 36.1879,
           "total_num_tokens": 149631, "global_seqlen_mean": 18703.875}
LOG_32B = {"gen": 87.28301, "old_log_prob": 5.60469, "ref": 4.1573, "update_actor": 17.23934, "reward": 0.07058,
           "adv": 0.00745, "response_mean": 307.95938, "prompt_mean": 137.84375, "mem": 49.95015,
           "total_num_tokens": 142657, "global_seqlen_mean": 17832.125}


def _row(log):
    return _pub(log["gen"], log["old_log_prob"], log["ref"], log["update_actor"], reward=log["reward"],
                adv=log["adv"])


#: (id, source, scenario, published seconds per verl step, note, counted)
ROWS = [
    ("verl gsm8k+math qwen2.5-14b grpo-lora 8 gpus (june)", MATH + "Qwen2.5-14B-bsz64_8-prompt1024-resp512-lorarank32-"
     "score0.7021.log (f296049)", _lora512("qwen2.5-14b", 8, tp=8, util=0.25, resp_mean=LOG_14B["response_mean"],
                                          prompt_mean=round(LOG_14B["prompt_mean"])),
     _row(LOG_14B), "last step (233); clip ratio 0.17", True),
    ("verl gsm8k+math qwen2.5-32b grpo-lora 8 gpus (june)", MATH + "Qwen2.5-32B-bsz64_8-prompt1024-resp512-lorarank32-"
     "score0.7355.log (f296049)", _lora512("qwen2.5-32b", 8, tp=8, util=0.3, resp_mean=LOG_32B["response_mean"],
                                          prompt_mean=round(LOG_32B["prompt_mean"])),
     _row(LOG_32B), "last step (233); clip ratio 0.04", True),
]
MEM_PUB = {ROWS[0][0]: LOG_14B["mem"], ROWS[1][0]: LOG_32B["mem"]}


class aggregate_hooks:
    """The model before this round's change (issue 35 round 14): verl's FSDP1 LoRA hook pairs hidden under the whole
    layer stack's GPU time at once (``fsdp1_lora.segment_shares`` emptied for the block), for the before column."""

    def __enter__(self):
        from gpuplanner.core import fsdp1_lora as FL
        self._keep = FL.segment_shares
        FL.segment_shares = lambda *_a, **_k: ()
        return self

    def __exit__(self, *exc):
        from gpuplanner.core import fsdp1_lora as FL
        FL.segment_shares = self._keep
        return False


def err(pub: float, pred: float) -> float:
    """The brief's error: published / predicted − 1."""
    return pub / pred - 1.0


def table() -> list[dict]:
    """Per row: step and keys (published, predicted, error) and the allocated peak."""
    out = []
    rows = {r[0]: r for r in ROWS}
    for r in row_table(ROWS):
        if "error" in r:
            out.append(r)
            continue
        scn = rows[r["id"]][2]
        mem = predict(scn)["mem"]
        out.append({"id": r["id"], "source": r["source"], "note": r["note"], "counted": r["counted"],
                    "step": (r["pub"]["step"], r["pred"]["step"], err(r["pub"]["step"], r["pred"]["step"])),
                    "keys": {k: (p, m, err(p, m)) for k, (p, m) in r["keys"].items()},
                    "mem": (MEM_PUB[r["id"]], mem, err(MEM_PUB[r["id"]], mem))})
    return out


def _print_rows(before: list[dict], after: list[dict]) -> None:
    for b, r in zip(before, after):
        if "step" not in r:
            print(f"- {r['id']}: REFUSED — {r['error']}")
            continue
        p, m0, e0 = b["step"]
        _p, m, e = r["step"]
        print(f"- {r['id']}: step {p:.2f} s published; predicted before {m0:.2f} ({e0:+.1%}), after {m:.2f} ({e:+.1%})")
        for k, (p, m, e) in r["keys"].items():
            if k != "step":
                _p, m0, e0 = b["keys"][k]
                print(f"    {k}: {p:.2f} / before {m0:.2f} ({e0:+.1%}) / after {m:.2f} ({e:+.1%})")
        p, m0, e0 = b["mem"]
        _p, m, e = r["mem"]
        print(f"    allocated peak: {p:.2f} GiB / before {m0:.2f} ({e0:+.1%}) / after {m:.2f} ({e:+.1%})")


def _summary(label: str, rows: list[dict]) -> None:
    ok = [r for r in rows if "step" in r and r["counted"]]
    med, p90 = _stats(r["step"][2] for r in ok)
    mmed, mp90 = _stats(r["mem"][2] for r in ok)
    keys = "; ".join(f"{k} " + ", ".join(f"{r['keys'][k][2]:+.1%}" for r in ok if k in r["keys"])
                     for k in KEYS if k != "step" and any(k in r["keys"] for r in ok))
    print(f"{label}: step |error| median {med:.1%}, p90 {p90:.1%} ({len(ok)} rows); allocated peak median {mmed:.1%}, "
          f"p90 {mp90:.1%}; keys: {keys}")


def fsdp1_lora_rows() -> list[tuple]:
    """Every held verl FSDP1 GRPO-LoRA row (rounds 9 and 10) with this round's: the runs the change reaches."""
    import rl_step_times_r9 as r9
    import rl_step_times_r10 as r10
    return [r for r in r9.ROWS if "grpo-lora" in r[0]] + list(r10.ROWS) + list(ROWS)


def held_table(rows) -> list[tuple]:
    """(id, published step, predicted step, error, {key: error}) for ``rows`` (the brief's error)."""
    from rl_step_times import key_split
    out = []
    for rid, _src, scn, pub, _note, _counted in rows:
        mk = key_split(scn)
        st = predict(scn)["step"]
        out.append((rid, pub["step"], st, err(pub["step"], st),
                    {k: err(pub[k], mk[k]) for k in ("gen", "old_log_prob", "ref", "update_actor") if k in pub}))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--held", action="store_true", help="also every held verl FSDP1 LoRA row, before / after")
    args = ap.parse_args()
    with aggregate_hooks():
        before = table()
    after = table()
    print("error = published / predicted − 1; before = the model at 33833c23 (FSDP1 LoRA hooks hidden under the "
          "whole layer stack), after = per adapted linear (FSDP1's rate limiter)")
    _print_rows(before, after)
    _summary("before", before)
    _summary("after", after)
    if args.held:
        with aggregate_hooks():
            hb = held_table(fsdp1_lora_rows())
        ha = held_table(fsdp1_lora_rows())
        print("\nEvery verl FSDP1 GRPO-LoRA row held (rounds 9, 10, 14): step published, before → after")
        for b, a in zip(hb, ha):
            keys = ", ".join(f"{k} {b[4][k]:+.0%}→{a[4][k]:+.0%}" for k in a[4])
            print(f"- {a[0]}: {a[1]:.1f} s; {b[2]:.1f} ({b[3]:+.1%}) → {a[2]:.1f} ({a[3]:+.1%}); {keys}")
        for label, t in (("before", hb), ("after", ha)):
            med, p90 = _stats(x[3] for x in t)
            keys = "; ".join("{} {:.1%} / {:.1%}".format(k, *_stats(x[4][k] for x in t))
                             for k in ("gen", "old_log_prob", "ref", "update_actor"))
            print(f"{label}: step |error| median {med:.1%}, p90 {p90:.1%} over {len(t)} rows; per key median / p90: {keys}")


if __name__ == "__main__":
    main()
