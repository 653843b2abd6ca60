"""Published step times of preference-objective runs (DPO, KTO, ORPO, SimPO) against the model (a sanity table,
not fitted). The RL objectives' step times are in ``bench/rl_step_times.py``.

Usage: python bench/validate_post_time.py

Each row is a published run with its whole launch configuration, entered as a user of the app would enter it; the
same scenarios as ``bench/validate_post_memory.py`` where the run is the same. Where the source is silent the choice
is written next to the row (``ASSUMED``) and printed. Nothing is tuned per row.

* ``swift-examples`` — modelscope/ms-swift at commit 3602360a562313afbf2ef6065fdf61f271a2c5b9. The first line of
  ``examples/train/rlhf/dpo/full.sh``, ``examples/megatron/rlhf/dpo/{packing,moe}.sh`` and
  ``examples/megatron/lora/dpo.sh`` gives "N * XXGiB; Y s/it". ``s/it`` is ms-swift's logged ``train_speed(s/it)``:
  wall seconds per optimizer step (Transformers: ``swift/trainers/mixin.py`` via the HF Trainer's global step, one
  step = ``per_device_train_batch_size × gradient_accumulation_steps`` samples per GPU; Megatron: per iteration,
  one ``global_batch_size``), averaged from the start of training (the first steps' warm-up included; ASSUMED a
  run long enough that it does not matter). A DPO sample is one pair: chosen and rejected run in one concatenated
  forward (TRL ``DPOTrainer.concatenated_forward``; Megatron-SWIFT ``rlhf`` trainer), so the policy sees two
  sequences per sample. Full DPO keeps a separate frozen reference model (one no-grad forward per pair); LoRA runs
  the reference as the base model with the adapter disabled (no second copy, same forward). ``rpo_alpha`` 0.1
  adds the NLL on the chosen half from the same logits (no extra pass). The datasets' token statistics are
  ms-swift's own (docs ``Supported-models-and-datasets``), as in ``validate_post_memory.py``.
  ``examples/train/packing/dpo.sh`` (first line "4 * 50GiB; 2h", added 2026-01-17 in d0c71e48c) gives the whole
  run's wall time instead: one epoch of AI-ModelScope/orpo-dpo-mix-40k (43,666 pairs, 1% held out: 43,229),
  compared as ``data.tokens / tokens per second`` (``TimeEstimate.compute_days``) with ``data.tokens`` = pairs × 2
  sequences × 938 tokens (ASSUMED: the dataset's mean is per sequence, chosen and rejected alike); the 2 h holds its
  evaluations and checkpoints every 200 steps too.
* ``swift-megatron-sft`` — ``examples/megatron/lora/dense.sh`` (same commit): "full: 2 * 70GiB 0.61s/it",
  "lora: 2 * 14GiB 0.45s/it", SFT with the same tool: a control, so a DPO-only miss shows apart from the tool's.
"""

from __future__ import annotations

import dataclasses
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "bench"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import validate_post_memory as vpm  # noqa: E402
from validate_ft_tools import Row  # noqa: E402

#: (memory row id in validate_post_memory, published s/it, source line, extra assumptions)
SWIFT_TIMES = (
    ("swift-dpo-full-7b-padding-free", 1.90, "examples/train/rlhf/dpo/full.sh: 'with padding_free: 4 * 47GiB, "
     "1.90s/it'", ("gradient_accumulation_steps 1: one step = 4 pairs per GPU",)),
    ("swift-dpo-full-7b-padded", 3.32, "examples/train/rlhf/dpo/full.sh: 'without padding_free: 4 * 57GiB "
     "3.32s/it'", ("seq_len 1,801 (the dataset's longest); a batch of 4 pairs pads its 8 rows to their own "
                   "longest: the model's expected longest of 8 log-normal lengths of 334 ± 163 (round 8)",)),
    ("mswift-dpo-qwen3-4b-packing", 3.4, "examples/megatron/rlhf/dpo/packing.sh: '4 * 28GiB; 3.4s/it'",
     ("TP 4 on 4 GPUs: DP 1, global batch 4 = 4 micro-batches of one packed row",)),
    ("mswift-dpo-qwen3-30b-a3b-packing", 13.0, "examples/megatron/rlhf/dpo/moe.sh: '8 * 46GiB; 13s/it'",
     ("TP 4 × DP 2 (EP 8 over the 8 GPUs), global batch 4: 2 micro-batches per DP rank",
      "optimizer_cpu_offload fraction 1 with use_precision_aware_optimizer")),
    ("mswift-dpo-qwen3-30b-a3b-lora", 4.5, "examples/megatron/lora/dpo.sh: '2 * 65GiB; 4.50s/it'",
     ("DP 2, micro-batch 8, global 16: one micro-batch per rank",)),
)
#: (id, published wall seconds of the whole run, scenario overrides, source line)
ORPO_MIX_PAIRS = 43_229  # 43,666 × 0.99 (split_dataset_ratio 0.01)
RUN_ROWS = (
    ("swift-dpo-full-7b-packing-run", 2 * 3600.0, "examples/train/packing/dpo.sh: '4 * 50GiB; 2h'"),
)
SFT_TIMES = (
    ("mswift-sft-7b-full-tp2", 0.61, "examples/megatron/lora/dense.sh: 'full: 2 * 70GiB 0.61s/it'"),
    ("mswift-sft-7b-lora-tp2", 0.45, "examples/megatron/lora/dense.sh: 'lora: 2 * 14GiB 0.45s/it'"),
)


#: What the published figure averages over (the logged window), per row, from the script and the tool's code.
#: ms-swift's ``train_speed(s/it)`` is wall seconds since ``on_train_begin`` over the steps since then
#: (``swift/trainers/patcher.py`` ``add_train_message``; Megatron ``swift/megatron/callbacks/print.py`` ``on_log``), so
#: every evaluation and checkpoint save between the start and the logged line is inside it, and so is the start-up
#: (the first steps' NCCL communicator set-up, allocator warm-up, ZeRO-3's first-pass module trace). ASSUMED: the
#: figure is the run's last logged line (the whole run is the window).
#: (train steps, steps between evaluations (0: none), held-out pairs, what else the window holds, whether that rest is
#:  separable from the step)
#: Evaluation: Megatron-SWIFT runs ``eval_iters`` = len(val) // global_batch forward-only passes of one global batch
#: (``megatron_args.py``; ``trainers/base.py`` ``evaluate``: ``forward_backward_func(forward_only=True)``) at every
#: ``eval_steps`` and at the end (``callbacks/default_flow.py``); the HF Trainer runs the whole eval dataloader at
#: every ``eval_steps``. A DPO evaluation batch runs the policy's and the reference's forward (TRL/ms-swift
#: ``compute_loss`` in eval; Megatron-SWIFT ``forward_step``), no backward: the held-out set once per evaluation.
#: Sizes: emoji 2,449 pairs (24 held out; 2,425 train / 16 per step = 152 steps); orpo-dpo-mix-40k 43,666 pairs (437
#: held out; packed into 8,192-token rows, 43,229 × 2 × 938 / 8,192 = 9,900 train rows: 2,475 steps of 4 rows;
#: unpacked, 43,229 / 16 = 2,701 steps); alpaca-gpt4 zh+en+self-cognition #500 each = 1,500 samples / 16 = 93 steps,
#: no held-out set (ms-swift ``split_dataset_ratio`` default 0: ``swift/arguments/base_args/data_args.py``).
WINDOWS = {
    "swift-dpo-full-7b-padding-free": (152, 100, 24, "one ZeRO-3 save of the 15 GB model (save_only_model) at step "
                                       "100 and the start-up, over 152 steps", False),
    "swift-dpo-full-7b-padded": (152, 100, 24, "one ZeRO-3 save of the 15 GB model at step 100 and the start-up, over "
                                 "152 steps", False),
    "mswift-dpo-qwen3-4b-packing": (2475, 200, 437, "a save of 8 GB (no optimizer) every 200 steps", True),
    "mswift-dpo-qwen3-30b-a3b-packing": (2475, 200, 437, "a save of 61 GB (no optimizer) every 200 steps", True),
    "mswift-dpo-qwen3-30b-a3b-lora": (2701, 100, 437, "a LoRA adapter save (r 8, MBs) every 100 steps", True),
    "swift-dpo-full-7b-packing-run": (2475, 200, 437, "12 ZeRO-3 saves of the 15 GB model (save_only_model) and the "
                                      "start-up in the 2 h", False),
    "mswift-sft-7b-full-tp2": (93, 0, 0, "the start-up alone over 93 steps (no held-out set; save_steps 100 > 93)",
                               False),
    "mswift-sft-7b-lora-tp2": (93, 0, 0, "the start-up alone over 93 steps", False),
}


def eval_seconds(row: Row, t, kind: str) -> float:
    """The evaluations inside the logged window, per step (run rows: in the whole run), at the step's own compute
    rate: the held-out tokens (pairs × 2 × the row's mean sample) through the policy's and the reference's forward
    cost the step's compute × (held-out tokens / the step's tokens) × 2 forwards / the step's FLOPs per token
    (:attr:`TimeEstimate.hardware_flops_per_token`: recomputation and the reference's forward included). SFT rows have
    no held-out set."""
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.flops import forward_flops_per_token
    from gpuplanner.core.scenario import scenario_from_dict

    steps, every, val_pairs, _, _ = WINDOWS[row.id]
    if not every:
        return 0.0
    d = {"model": row.model, "training": row.training, "parallel": row.parallel,
         "hardware": {"gpu": row.gpu, "num_gpus": row.num_gpus}, "data": row.data}
    r = resolve(scenario_from_dict(d))
    tr = r.scenario.training
    mean = float(min(row.data.get("mean_sample_len") or tr.seq_len, tr.seq_len))
    f = forward_flops_per_token(r.facts, mean, method=tr.method, lora_rank=tr.lora_rank, lora_targets=tr.lora_targets)
    fwd2 = 2.0 * (f.layers + f.head + f.attention) + f.lora  # policy (with its adapters) + reference
    one_eval = t.seconds["compute"] * (val_pairs * 2.0 * mean / t.tokens_per_step) * fwd2 / t.hardware_flops_per_token
    total = (steps // every) * one_eval
    return total if kind == "run" else total / steps


def all_rows() -> list[Row]:
    mem = {r.id: r for r in vpm.all_rows()}
    out = []
    for rid, sit, line, extra in SWIFT_TIMES:
        r = mem[rid]
        out.append(dataclasses.replace(r, kind="step", measured=sit, assumed=r.assumed + (line,) + extra))
    for rid, secs, line in RUN_ROWS:
        out.append(vpm.PostRow(
            rid, "swift-examples", "run", secs, {"preset": "qwen2.5-7b"},
            vpm._t(framework="ms-swift", objective="dpo", method="full", seq_len=8192, micro_batch_size=1,
                   global_batch_size=4, packing=True), num_gpus=4, parallel={"zero": 3}, metric="reserved",
            data={"mean_sample_len": 938, "tokens": ORPO_MIX_PAIRS * 2 * 938},
            assumed=(vpm.GPU_ASSUMED, line, "packing: every row holds 8,192 tokens of whole pairs (ASSUMED full rows)",
                     "tokens = 43,229 pairs × 2 × 938 (the mean taken per sequence)",
                     "ZeRO-3 (--deepspeed zero3), gradient checkpointing (ms-swift default), flash_attn, rpo_alpha 0.1")))
    for rid, sit, line in SFT_TIMES:
        r = mem[rid]
        out.append(dataclasses.replace(r, kind="step", measured=sit, assumed=r.assumed + (line,)))
    return out


def predict(row: Row):
    """The model's step time (s) and its breakdown for one row."""
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import scenario_from_dict
    from gpuplanner.core.timing import time_estimate

    d = {"model": row.model, "training": row.training, "parallel": row.parallel,
         "hardware": {"gpu": row.gpu, "num_gpus": row.num_gpus}, "data": row.data,
         "assumptions": dict(getattr(row, "assumptions", {}))}
    return time_estimate(resolve(scenario_from_dict(d)))


#: Published step-time ratios of two preference runs that differ in one setting (the rest the same): (id, published
#: ratio of run A over run B, source, scenario of run A (a memory row's id or a dict), what run B changes)
_LF72 = {"model": {"preset": "qwen2.5-72b"},
         "training": {"framework": "llamafactory", "objective": "dpo", "method": "lora", "seq_len": 2048,
                      "micro_batch_size": 1, "global_batch_size": 256, "flash_attention": True, "recompute": "full"},
         "parallel": {"zero": 3}, "hardware": {"gpu": "a800-sxm-80gb", "num_gpus": 32, "gpus_per_node": 8},
         "data": {"mean_sample_len": 700}}
_SIMPO8 = {"model": {"preset": "llama-3.1-8b"},
           "training": {"framework": "trl", "objective": "dpo", "method": "full", "seq_len": 2048,
                        "micro_batch_size": 2, "global_batch_size": 128, "flash_attention": True,
                        "attn_implementation": "flash_attention_2", "recompute": "full"},
           "parallel": {"zero": 3}, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8},
           "data": {"mean_sample_len": 472, "sample_len_std": 274}}
RATIOS = (
    ("ms-swift DPO full 7B, 4 pairs/GPU, emoji set: padded / padding-free", 3.32 / 1.90,
     "ms-swift examples/train/rlhf/dpo/full.sh (3602360): '4 * 47GiB, 1.90s/it' / '4 * 57GiB 3.32s/it'",
     "swift-dpo-full-7b-padded", {"padding_free": True}),
    ("LLaMA-Factory DPO LoRA Qwen2.5-72B, 4 × 8 A800, gbs 256: padded / padding-free", 1.20,
     "hiyouga/LlamaFactory PR #6753 (2025-01-24): 'enabling padding-free results in a 20% performance "
     "improvement' (dpo_mix_en, default settings: one pair per device, cutoff_len 2048; ASSUMED ZeRO-3, full "
     "recompute, mean 700 tokens, default spread: the set's statistics are not published)", _LF72,
     {"padding_free": True}),
    ("SimPO paper, Llama-3-Base 8B full, 8 × H100: SimPO / DPO run time", 0.80,
     "Meng, Xia, Chen, SimPO (arXiv:2405.14734, NeurIPS 2024), its efficiency comparison: about 20% less run "
     "time and about 10% less peak GPU memory than DPO, all runs on 8 H100s with alignment-handbook; config princeton-nlp/SimPO training_configs/"
     "llama-3-8b-base-simpo.yaml (2 pairs/GPU, GA 16, max_length 2048, gradient checkpointing, FA2; "
     "alignment-handbook ZeRO-3); UltraFeedback 471.5 ± 274.3 tokens (ms-swift's table, the cleaned KTO copy)",
     dict(_SIMPO8, training=dict(_SIMPO8["training"], objective="simpo")), {"objective": "dpo"}),
)


def ratio_rows() -> list[tuple[str, float, float, str]]:
    """(id, published ratio, model ratio, source) for :data:`RATIOS`."""
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import scenario_from_dict
    from gpuplanner.core.timing import time_estimate

    mem = {r.id: r for r in vpm.all_rows()}
    out = []
    for rid, pub, src, a, b_change in RATIOS:
        if isinstance(a, str):
            r = mem[a]
            a = {"model": r.model, "training": dict(r.training), "parallel": r.parallel,
                 "hardware": {"gpu": r.gpu, "num_gpus": r.num_gpus}, "data": r.data,
                 "assumptions": dict(getattr(r, "assumptions", {}))}
        b = dict(a, training=dict(a["training"], **b_change))
        ta, tb = (time_estimate(resolve(scenario_from_dict(d))).step_time_s for d in (a, b))
        out.append((rid, pub, ta / tb, src))
    return out


def _pct(v: list[float], q: float) -> float:
    v = sorted(v)
    return v[min(len(v) - 1, int(round(q * (len(v) - 1))))]


def main() -> int:
    res = []
    for row in all_rows():
        try:
            t = predict(row)
        except Exception as exc:  # noqa: BLE001 - a row the core refuses is shown, not counted
            print(f"- {row.id}: refused: {exc}")
            continue
        for a in row.assumed:
            print(f"ASSUMED {row.id}: {a}")
        pred = t.compute_days * 86400.0 if row.kind == "run" else t.step_time_s
        err = row.measured / pred - 1.0  # throughput terms: + = predicted too fast
        ev = eval_seconds(row, t, row.kind)
        mapped_err = row.measured / (pred + ev) - 1.0
        rest, separable = WINDOWS[row.id][3], WINDOWS[row.id][4]
        res.append((row.id, row.table, row.measured, pred, err, ev, mapped_err, separable, rest))
    print("\n| row | table | published s (per step; run rows: whole run) | predicted s | error (+ = predicted too "
          "fast) | + evaluations in the window s | error, window mapped | rest of the window |\n"
          "|---|---|---:|---:|---:|---:|---:|---|")
    for rid, table, pub, pred, err, ev, merr, sep, rest in res:
        mark = "" if sep else " (NOT SEPARABLE)"
        print(f"| {rid} | {table} | {pub:.2f} | {pred:.2f} | {err:+.1%} | {ev:.2f} | {merr:+.1%}{mark} | {rest} |")
    print("\n| step-time ratio (run A / run B) | published | model | source |\n|---|---:|---:|---|")
    for rid, pub, mod, src in ratio_rows():
        print(f"| {rid} | {pub:.2f} | {mod:.2f} | {src} |")
    print("\n| table | rows | median |error| | p90 |error| | window mapped: median / p90 | rows whose window "
          "separates: n, median / p90 |\n|---|---:|---:|---:|---:|---:|")
    for table in sorted({r[1] for r in res}) + ["all"]:
        sel = [r for r in res if table in ("all", r[1])]
        errs, merrs = [abs(r[4]) for r in sel], [abs(r[6]) for r in sel]
        clean = [abs(r[6]) for r in sel if r[7]]
        cl = f"{len(clean)}, {statistics.median(clean):.1%} / {_pct(clean, 0.9):.1%}" if clean else "0"
        print(f"| {table} | {len(errs)} | {statistics.median(errs):.1%} | {_pct(errs, 0.9):.1%} | "
              f"{statistics.median(merrs):.1%} / {_pct(merrs, 0.9):.1%} | {cl} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
