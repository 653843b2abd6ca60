"""Published step times of preference-objective runs (DPO, KTO, ORPO, SimPO) against the model (a sanity table,
not fitted). The RL objectives' step times are in ``bench/rl_step_times.py``.

Usage: python bench/validate_post_time.py

Each row is a published run with its whole launch configuration, entered as a user of the app would enter it; the
same scenarios as ``bench/validate_post_memory.py`` where the run is the same. Where the source is silent the choice
is written next to the row (``ASSUMED``) and printed. Nothing is tuned per row.

* ``swift-examples`` — modelscope/ms-swift at commit 3602360a562313afbf2ef6065fdf61f271a2c5b9. The first line of
  ``examples/train/rlhf/dpo/full.sh``, ``examples/megatron/rlhf/dpo/{packing,moe}.sh`` and
  ``examples/megatron/lora/dpo.sh`` gives "N * XXGiB; Y s/it". ``s/it`` is what the tool displayed when the line was
  written (:data:`FIGURES`: the HF rows' tqdm bar, an exponential moving average of the last optimizer steps; the
  Megatron rows' interval timer over 5 iterations, evaluations and saves excluded), seconds per optimizer step
  (Transformers: one step = ``per_device_train_batch_size × gradient_accumulation_steps`` samples per GPU; Megatron:
  per iteration, one ``global_batch_size``): a steady step. A DPO sample is one pair: chosen and rejected run in one
  concatenated forward (TRL ``DPOTrainer.concatenated_forward``; Megatron-SWIFT ``rlhf`` trainer), so the
  policy sees two sequences per sample. Full DPO keeps a separate frozen reference model (one no-grad forward per
  pair); LoRA runs the reference as the base model with the adapter disabled (no second copy, same forward).
  ``rpo_alpha`` 0.1 adds the NLL on the chosen half from the same logits (no extra pass). The datasets' token
  statistics are ms-swift's own (docs ``Supported-models-and-datasets``), as in ``validate_post_memory.py``.
  ``examples/train/packing/dpo.sh`` (first line "4 * 50GiB; 2h", first written 2025-08-13 in 2900bbf4d) gives the whole
  run's wall time instead: one epoch of AI-ModelScope/orpo-dpo-mix-40k (43,666 pairs, 1% held out: 43,229),
  compared as ``data.tokens / tokens per second`` (``TimeEstimate.compute_days``) with ``data.tokens`` = pairs × 2
  sequences × 938 tokens (ASSUMED: the dataset's mean is per sequence, chosen and rejected alike); the 2 h holds its
  evaluations and checkpoints every 200 steps too.
* ``swift-megatron-sft`` — ``examples/megatron/lora/dense.sh`` (same commit): "full: 2 * 70GiB 0.61s/it",
  "lora: 2 * 14GiB 0.45s/it", SFT with the same tool: a control, so a DPO-only miss shows apart from the tool's.
* round 9 (pref10), printed as their own tables: NeMo RL's nightly DPO step bounds (:data:`NEMO_RL_BOUNDS`, upper
  bounds, the reference outside the timer) and open-instruct's published DPO runs (:data:`OPEN_INSTRUCT_RUNS`, the
  training window off the loss-against-time plots, the reference cached before it).
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


#: What each published figure measures (round 8, pref9): the display of the tool as it ran on the date the
#: script's first line was written (``git log -L1,2:<script>`` at modelscope/ms-swift 3602360). The unit "s/it"
#: entered ms-swift's own log only on 2026-02-07 (4451f2a73, ``swift/trainers/patcher.py`` ``train_speed(s/it)``)
#: and Megatron-SWIFT's training bar on 2026-02-16 (d7c7db3ad); every figure here is older (2025-06-03 to
#: 2025-09-30).
#:
#: * ``tqdm`` — the HF-Trainer rows (``swift rlhf``, full.sh first written in e060ad82f, 2025-06-03). The log then
#:   gave ``train_speed(iter/s)`` = global_step / seconds since ``on_train_begin`` (``swift/trainers/mixin.py`` at
#:   e060ad82f); the only "X.XXs/it" on screen was the ``Train`` progress bar (``swift/trainers/callback.py``
#:   ``ProgressCallbackNew``: ``tqdm(desc='Train', total=max_steps)``, ticked once per optimizer step by the HF
#:   ``ProgressCallback.on_step_end``). tqdm prints ``f'{1/rate:5.2f}s/it'`` with ``rate`` = EMA(dn) / EMA(dt),
#:   ``smoothing=0.3`` by default (``tqdm/std.py`` ``format_meter`` and ``EMA``): the newest step's interval weighs
#:   0.3 and each older one 0.7 times the next. An evaluation or a save runs in ``_maybe_log_save_evaluate`` after
#:   ``on_step_end``, so it lengthens the next step's interval once; read k steps later it weighs 0.3 × 0.7^k.
#:   ASSUMED read at the run's last step (before the final evaluation and save, which come after the last tick).
#: * ``megatron`` — the Megatron-SWIFT rows (``megatron rlhf``/``sft``, 2025-07-10 to 2025-09-30). The log printed
#:   Megatron-LM's ``elapsed time per iteration (ms)`` (``swift/megatron/trainers/base.py`` ``training_log`` at
#:   1b184f296; ``swift/megatron/init.py`` at 67458dfeb): ``timers('interval-time')`` over the last ``log_interval``
#:   iterations (Megatron-SWIFT default 5, ``megatron_args.py``). Megatron-LM's ``train`` stops that timer around
#:   ``evaluate_and_print_results`` and inside ``save_checkpoint_and_time`` (``megatron/training/training.py``): no
#:   evaluation and no save is in the figure; the start-up only in the first line (iteration 1).
#: * ``run`` — "2h" (examples/train/packing/dpo.sh, 2025-08-13): the run's wall time; every evaluation and save of
#:   the training loop is inside it. The start-up before ``on_train_begin`` (model load, packing, DeepSpeed init:
#:   transformers ``Trainer._inner_training_loop``) is not in the bar's or the log's elapsed time; the first steps'
#:   warm-up (seconds) is left out of a 2 h run.
TQDM_SMOOTHING = 0.3  # tqdm.tqdm(smoothing=0.3), its default
FIGURES = {
    "swift-dpo-full-7b-padding-free": "tqdm",
    "swift-dpo-full-7b-padded": "tqdm",
    "mswift-dpo-qwen3-4b-packing": "megatron",
    "mswift-dpo-qwen3-30b-a3b-packing": "megatron",
    "mswift-dpo-qwen3-30b-a3b-lora": "megatron",
    "swift-dpo-full-7b-packing-run": "run",
    "mswift-sft-7b-full-tp2": "megatron",
    "mswift-sft-7b-lora-tp2": "megatron",
}


def window_share(kind: str, steps: int, every: int) -> float:
    """How many of the run's evaluation/save intervals the published figure holds, per step of it (run rows: in the
    whole run): ``tqdm``: the EMA weight of the last one before the run's last step (0.3 × 0.7^k, k = steps since
    the interval that held it); ``megatron``: 0 (the interval timer is stopped); ``run``: all of them."""
    if not every or steps <= every:
        return 0.0
    if kind == "run":
        return float(steps // every)
    if kind == "tqdm":
        k = steps - ((steps - 1) // every * every + 1)  # the save at step n lengthens step n + 1's interval
        return TQDM_SMOOTHING * (1.0 - TQDM_SMOOTHING) ** k
    return 0.0


#: The run's shape from the script and the tool's code, per row: (train steps, steps between evaluations and saves
#: (0: none), held-out pairs, bytes of one save (0: not priced), what the window holds).
#: Evaluation: Megatron-SWIFT runs ``eval_iters`` = len(val) // global_batch forward-only passes of one global batch
#: (``megatron_args.py``; ``trainers/base.py`` ``evaluate``: ``forward_backward_func(forward_only=True)``) at every
#: ``eval_steps`` and at the end (``callbacks/default_flow.py``); the HF Trainer runs the whole eval dataloader at
#: every ``eval_steps``. A DPO evaluation batch runs the policy's and the reference's forward (TRL/ms-swift
#: ``compute_loss`` in eval; Megatron-SWIFT ``forward_step``), no backward: the held-out set once per evaluation.
#: Save: ``save_only_model true`` writes the bf16 weights (2 B/param; ZeRO-3 gathers them to rank 0,
#: ``stage3_gather_16bit_weights_on_model_save``), priced at the model's own checkpoint write rate
#: (:attr:`gpuplanner.core.cost.Overheads.checkpoint_write_gbs_per_node`, an assumption of the cost model).
#: Sizes: emoji 2,449 pairs (24 held out; 2,425 train / 16 per step = 152 steps); orpo-dpo-mix-40k 43,666 pairs (437
#: held out; packed into 8,192-token rows, 43,229 × 2 × 938 / 8,192 = 9,900 train rows: 2,475 steps of 4 rows;
#: unpacked, 43,229 / 16 = 2,701 steps); alpaca-gpt4 zh+en+self-cognition #500 each = 1,500 samples / 16 = 93 steps,
#: no held-out set (ms-swift ``split_dataset_ratio`` default 0: ``swift/arguments/base_args/data_args.py``).
QWEN25_7B_SAVE = 7.62e9 * 2.0
WINDOWS = {
    "swift-dpo-full-7b-padding-free": (152, 100, 24, QWEN25_7B_SAVE, "tqdm EMA of the last steps; the save and "
                                       "evaluation at step 100 weigh 0.3 × 0.7^51 at step 152"),
    "swift-dpo-full-7b-padded": (152, 100, 24, QWEN25_7B_SAVE, "tqdm EMA of the last steps (as above)"),
    "mswift-dpo-qwen3-4b-packing": (2475, 200, 437, 0.0, "Megatron interval timer over 5 iterations: no "
                                    "evaluation, no save"),
    "mswift-dpo-qwen3-30b-a3b-packing": (2475, 200, 437, 0.0, "Megatron interval timer (as above)"),
    "mswift-dpo-qwen3-30b-a3b-lora": (2701, 100, 437, 0.0, "Megatron interval timer (as above)"),
    "swift-dpo-full-7b-packing-run": (2475, 200, 437, QWEN25_7B_SAVE, "the whole run: 12 evaluations and 12 "
                                      "ZeRO-3 saves of the 15 GB model (save_only_model)"),
    "mswift-sft-7b-full-tp2": (93, 0, 0, 0.0, "Megatron interval timer (no held-out set)"),
    "mswift-sft-7b-lora-tp2": (93, 0, 0, 0.0, "Megatron interval timer (no held-out set)"),
}


def eval_seconds(row: Row, t, kind: str) -> float:
    """One evaluation of the held-out set at the step's own compute rate: the held-out tokens (pairs × 2 × the row's
    mean sample) through the policy's and the reference's forward cost the step's compute × (held-out tokens / the
    step's tokens) × 2 forwards / the step's FLOPs per token (:attr:`TimeEstimate.hardware_flops_per_token`:
    recomputation and the reference's forward included). SFT rows have no held-out set. ``kind`` is unused (kept
    for callers); :func:`window_seconds` weighs it by what the figure holds."""
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.flops import forward_flops_per_token
    from gpuplanner.core.scenario import scenario_from_dict

    _, every, val_pairs, _, _ = WINDOWS[row.id]
    if not every or not val_pairs:
        return 0.0
    d = {"model": row.model, "training": row.training, "parallel": row.parallel,
         "hardware": {"gpu": row.gpu, "num_gpus": row.num_gpus}, "data": row.data}
    r = resolve(scenario_from_dict(d))
    tr = r.scenario.training
    mean = float(min(row.data.get("mean_sample_len") or tr.seq_len, tr.seq_len))
    f = forward_flops_per_token(r.facts, mean, method=tr.method, lora_rank=tr.lora_rank, lora_targets=tr.lora_targets)
    fwd2 = 2.0 * (f.layers + f.head + f.attention) + f.lora  # policy (with its adapters) + reference
    return t.seconds["compute"] * (val_pairs * 2.0 * mean / t.tokens_per_step) * fwd2 / t.hardware_flops_per_token


def save_seconds(row: Row) -> float:
    """One save of ``WINDOWS[row][3]`` bytes at the cost model's checkpoint write rate per node (one node here)."""
    from gpuplanner.core.cost import Overheads

    return WINDOWS[row.id][3] / (Overheads().checkpoint_write_gbs_per_node * 1e9)


def window_seconds(row: Row, t) -> tuple[float, float]:
    """(evaluation seconds, save seconds) inside the published figure: per step for step rows, in the whole run for
    run rows (:func:`window_share` × one evaluation / one save)."""
    steps, every, _, _, _ = WINDOWS[row.id]
    share = window_share(FIGURES[row.id], steps, every)
    return share * eval_seconds(row, t, row.kind), share * save_seconds(row)


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


#: Pairs of step rows from one script that differ in one setting (round 8, smallmb8): (row A, row B, what differs).
#: Whatever the model misses in both, its form shows in how it closes one row and predicts the other: a fixed
#: cost X per step (X = published B − model B, added to A) or a rate (k = published B / model B, A × k).
MISS_FORM_PAIRS = (
    ("swift-dpo-full-7b-padded", "swift-dpo-full-7b-padding-free",
     "ms-swift DPO full 7B, ZeRO-3, 4 pairs/GPU: padded vs padding-free (2.7k real tokens per GPU)"),
    ("mswift-sft-7b-full-tp2", "mswift-sft-7b-lora-tp2",
     "Megatron-SWIFT SFT 7B TP 2, one micro-batch of 16 × 128 tokens: full vs LoRA"),
)


def miss_form_rows(res: list) -> list[tuple[str, float, float, float, float, float]]:
    """(pair, published A, model A, fixed cost X s, A with X, A with k) for :data:`MISS_FORM_PAIRS` from the step
    rows of ``main``'s results (id → published, predicted)."""
    by_id = {r[0]: (r[2], r[3]) for r in res}
    out = []
    for a, b, what in MISS_FORM_PAIRS:
        if a not in by_id or b not in by_id:
            continue
        (pa, ma), (pb, mb) = by_id[a], by_id[b]
        x, k = pb - mb, pb / mb
        out.append((what, pa, ma, x, ma + x, ma * k))
    return out


#: NeMo RL's nightly DPO tests (round 9, pref10): github.com/NVIDIA-NeMo/RL at 7ea279abfbeb698b092856d0dab61e7cf39bc909,
#: ``tests/test_suites/llm/<name>.sh`` (the check ``mean(data["timing/train/total_step_time"], ...) < X``) and the
#: recipe ``examples/configs/recipes/llm/<name>.yaml`` over ``examples/configs/dpo.yaml``. A check is a published
#: UPPER BOUND on the mean step of the last steps, not a measurement (the thresholds came in with the tests,
#: ac7469ffa #713 and later, with no observed value beside them), so a row scores only when the model is slower
#: than the bound. What the timer holds (``nemo_rl/algorithms/dpo.py`` ``dpo_train``): the loop takes each batch
#: from ``add_ref_logprobs_to_data``, which runs ``policy.get_reference_policy_logprobs`` BEFORE
#: ``timer.time("total_step_time")`` opens; the timer holds ``policy.train`` (the chosen and rejected rows in one
#: micro-batch, ``mbs × 2``), and on their steps the validation and the save. So the figure is the policy's step
#: without the reference forward: priced as ``preference.reference = precomputed`` (the model's step without the
#: reference passes, whose FLOPs and gathers it counts outside the step). The averaged steps hold no validation
#: (val_period 25/50) and no save (save_period 50; the last step is left out by ``-1``; the quick runs disable it).
#: Not published, ASSUMED: the GPU (H100 SXM, the card of NeMo RL's performance summary) and HelpSteer3's lengths
#: (the default ``HelpSteer3`` set; no token statistics are published: mean 1,000 tokens a row, the model's default
#: spread, cut at ``max_total_sequence_length``). Padding: ``preference_collate_fn`` pads a micro-batch to its
#: longest row (``make_sequence_length_divisible_by``: TP), no packing, no dynamic batching (dpo.yaml).
NEMO_RL_DPO = "github.com/NVIDIA-NeMo/RL 7ea279a tests/test_suites/llm/{}.sh + examples/configs/recipes/llm/{}.yaml"
#: Llama-3.2-1B (huggingface.co/meta-llama/Llama-3.2-1B-Instruct config.json); no preset ships
LLAMA32_1B = {"name": "Llama-3.2-1B", "hidden_size": 2048, "num_hidden_layers": 16, "num_attention_heads": 32,
              "num_key_value_heads": 8, "head_dim": 64, "intermediate_size": 8192, "gated_mlp": True,
              "vocab_size": 128256, "tie_word_embeddings": True}
NEMO_RL_MEAN = 1000  # ASSUMED HelpSteer3 tokens per row (prompt + response), see above


def _nemo_dpo(model, n_gpus, per_node, *, framework, tp=1, pp=1, sp=False, seq=8192, gbs=256, mbs=1,
              sft_weight=0.01, mean=NEMO_RL_MEAN):
    """One NeMo RL DPO recipe: full DPO, AdamW, bf16, no activation checkpointing (``dtensor_cfg`` and
    ``megatron_cfg`` ``activation_checkpointing: false``); ``sft_loss_weight`` reads the chosen half's logits
    (no extra pass, so it is not a field)."""
    return {"model": model,
            "training": {"framework": framework, "objective": "dpo", "method": "full", "seq_len": seq,
                         "micro_batch_size": mbs, "global_batch_size": gbs, "recompute": "none",
                         "flash_attention": True, "preference": {"reference": "precomputed", "beta": 0.05}},
            "parallel": {"tp": tp, "pp": pp, "sequence_parallel": sp, **({"zero": 3} if framework == "fsdp" else
                                                                           {"zero": 1})},
            "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": n_gpus, "gpus_per_node": per_node},
            "data": {"mean_sample_len": min(mean, seq)}}


_L8 = {"preset": "llama-3.1-8b"}
#: (test name, bound on the mean step s, scenario)
NEMO_RL_BOUNDS = (
    ("dpo-llama3.1-8b-instruct-4n8g-fsdp2tp4", 24.0, _nemo_dpo(_L8, 32, 8, framework="fsdp", tp=4)),
    ("dpo-llama3.1-8b-instruct-4n8g-megatron.v2", 11.5, _nemo_dpo(_L8, 32, 8, framework="megatron", tp=4,
                                                                    sp=True)),
    ("dpo-llama3.1-8b-instruct-4n8g-megatrontp2pp2-quick", 6.7, _nemo_dpo(_L8, 32, 8, framework="megatron", tp=2,
                                                                            pp=2, sp=True, seq=2048)),
    ("dpo-llama3.1-8b-instruct-4n4g-megatrontp1pp2-quick", 6.7, _nemo_dpo(_L8, 16, 4, framework="megatron", tp=1,
                                                                            pp=2, seq=2048)),
    ("dpo-llama3.2-1b-instruct-1n8g-fsdp2tp1.v2", 1.3, _nemo_dpo(LLAMA32_1B, 8, 8, framework="fsdp", seq=1024,
                                                                   gbs=128, mbs=2, sft_weight=0.0)),
    ("dpo-llama3.2-1b-instruct-1n4g-fsdp2tp1.v2", 2.5, _nemo_dpo(LLAMA32_1B, 4, 4, framework="fsdp", seq=1024,
                                                                   gbs=128, mbs=2, sft_weight=0.0)),
)


def nemo_rl_bound_rows(mean: int = NEMO_RL_MEAN) -> list[tuple[str, float, float, float, float]]:
    """(test, bound s, model step s, model step with the reference in it s, error) for :data:`NEMO_RL_BOUNDS`;
    error 0 when the model is within the bound, else bound / model − 1 (negative: the model is too slow)."""
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import scenario_from_dict
    from gpuplanner.core.timing import time_estimate

    out = []
    for name, bound, d in NEMO_RL_BOUNDS:
        d = dict(d, data=dict(d["data"], mean_sample_len=min(mean, d["training"]["seq_len"])))
        step = time_estimate(resolve(scenario_from_dict(d))).step_time_s
        with_ref = dict(d, training=dict(d["training"], preference=dict(d["training"]["preference"],
                                                                         reference="separate")))
        step_ref = time_estimate(resolve(scenario_from_dict(with_ref))).step_time_s
        out.append((name, bound, step, step_ref, min(0.0, bound / step - 1.0)))
    return out


#: AllenAI open-instruct's published DPO runs (round 9, pref10): github.com/allenai/open-instruct, the loss-against-
#: time plots ``docs/algorithms/dpo/{tulu3_8b,olmo2_7b,olmo2_13b}_dpo-time.png`` (added in 686a521a3, 2025-03-26,
#: "Benchmark (#628)", shown in ``docs/algorithms/dpo.md``) for the scripts ``scripts/train/tulu3/dpo_8b.sh`` and
#: ``scripts/train/olmo2/dpo_{7b,13b}.sh`` at that commit: ``open_instruct/dpo_tune_cache.py`` through Accelerate with
#: DeepSpeed ZeRO-3 (``configs/ds_configs/stage3_no_offloading_accelerate.conf``: ``overlap_comm`` true), 4 nodes × 8
#: GPUs (ai2/jupiter-cirrascale-2: H100 80GB HBM3, docs/dpo_performance_investigation.md), one pair per GPU
#: (``per_device_train_batch_size 1``), ``max_seq_length`` 2048, ``--gradient_checkpointing``, ``--use_flash_attn``,
#: one epoch, ``dpo_norm``. The reference: ``get_cache_ref_logprobs`` runs the reference (the policy before any
#: update) over the whole set BEFORE the first step and keeps the log-probabilities (docs: "cache the logprobs of the
#: reference model on the dataset"): priced as ``preference.reference = precomputed``. The figure: the training
#: window read off the plot's time axis (hours, wandb run time), the first to the last logged step (loss and LR are
#: logged every step, ``logging_steps 1``); before it lie the start-up and the reference pass. No checkpoint inside the
#: loop (``checkpointing_steps`` None) and no evaluation. Read by eye: ±0.05 h. Padding: ``DataCollatorForSeq2SeqDPO``
#: ``padding="longest"`` over one pair (``concatenated_inputs``: chosen and rejected padded to the longer).
#: Steps = pairs / (32 × gradient_accumulation_steps). Pairs: the Tulu 3 8B mixture's card, 271,409
#: (``dataset_info.splits.train.num_examples``); the OLMo 2 13B mix: 378k rows (the dataset viewer); the 7B mix:
#: ASSUMED the same (its 6 parquet shards total 1,456 MB against the 13B mix's 1,454 MB). Mean tokens per sequence:
#: not published, ASSUMED from the cards' byte counts: Tulu 3 8B 1,680,549,462 B / 271,409 = 6,192 B a pair, holding
#: the prompt three times (``prompt``, and in ``chosen`` and ``rejected``) and both responses; with prompt ≈ response
#: that is 2.4k characters a sequence, about 650 tokens at 4 characters a token (incl. the chat template); the OLMo
#: mixes 17% more bytes a row in parquet (3.85 kB against 3.29 kB): 760 tokens. The model's default spread (0.46 ×).
#: DeepSpeed's hidden-size keys: ``stage3_no_offloading_accelerate.conf`` writes ``reduce_bucket_size``,
#: ``stage3_prefetch_bucket_size`` and ``stage3_param_persistence_threshold`` as ``"auto"``, which Accelerate fills
#: from the model (``Accelerator._prepare_deepspeed``: hidden², 0.9·hidden², 10·hidden): ``ds_config_auto`` true
#: (round 10, z3pair10; DeepSpeed's own defaults would be 5e8, 5e7, 1e5).
OPEN_INSTRUCT = ("github.com/allenai/open-instruct 686a521a3 docs/algorithms/dpo/{}_dpo-time.png + "
                 "scripts/train/{}.sh")
#: OLMo 2 (huggingface.co/allenai/OLMo-2-1124-{7B,13B}-SFT config.json); no preset ships
OLMO2_7B = {"name": "OLMo-2-1124-7B", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
            "num_key_value_heads": 32, "intermediate_size": 11008, "gated_mlp": True, "vocab_size": 100352,
            "tie_word_embeddings": False, "qk_norm": True}
OLMO2_13B = dict(OLMO2_7B, name="OLMo-2-1124-13B", hidden_size=5120, num_hidden_layers=40, num_attention_heads=40,
                 num_key_value_heads=40, intermediate_size=13824)


def _oi_dpo(model, pairs, ga, mean):
    return {"model": model,
            "training": {"framework": "deepspeed", "objective": "dpo", "method": "full", "seq_len": 2048,
                         "micro_batch_size": 1, "global_batch_size": 32 * ga, "recompute": "full",
                         "flash_attention": True, "attn_implementation": "flash_attention_2",
                         "preference": {"reference": "precomputed"}, "ds_config_auto": True},
            "parallel": {"zero": 3},
            "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 32, "gpus_per_node": 8},
            "data": {"mean_sample_len": mean}}, pairs // (32 * ga)


#: (run, hours of training read off the plot (first to last logged step), hours before the first step, scenario,
#: steps)
OPEN_INSTRUCT_RUNS = (
    ("tulu3_8b_dpo (tulu3/dpo_8b)", 2.97 - 0.63, 0.63, *_oi_dpo({"preset": "llama-3.1-8b"}, 271_409, 16, 650)),
    ("olmo2_7b_dpo (olmo2/dpo_7b)", 4.30 - 0.96, 0.96, *_oi_dpo(OLMO2_7B, 378_000, 4, 760)),
    ("olmo2_13b_dpo (olmo2/dpo_13b)", 6.23 - 1.38, 1.38, *_oi_dpo(OLMO2_13B, 378_000, 4, 760)),
)


def open_instruct_rows(scale: float = 1.0) -> list[tuple[str, float, float, float, float, float]]:
    """(run, published training hours, model hours, error, model step s, model reference pass h) for
    :data:`OPEN_INSTRUCT_RUNS`; ``scale`` multiplies the ASSUMED mean lengths (sensitivity). The reference pass
    (before training) is the model's ``precompute`` share and is compared only against the hours before the first
    step, which also hold the start-up."""
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import scenario_from_dict
    from gpuplanner.core.timing import time_estimate

    out = []
    for name, hours, _before, d, steps in OPEN_INSTRUCT_RUNS:
        d = dict(d, data={"mean_sample_len": int(round(d["data"]["mean_sample_len"] * scale))})
        t = time_estimate(resolve(scenario_from_dict(d)))
        model_h = steps * t.step_time_s / 3600.0
        ref = dict(d, training=dict(d["training"], preference={"reference": "separate"}))
        t_ref = time_estimate(resolve(scenario_from_dict(ref)))
        pre_h = steps * max(t_ref.step_time_s - t.step_time_s, 0.0) / 3600.0
        out.append((name, hours, model_h, hours / model_h - 1.0, t.step_time_s, pre_h))
    return out


#: Gradient accumulation of the open-instruct rows (the scripts' ``--gradient_accumulation_steps``), in the order of
#: :data:`OPEN_INSTRUCT_RUNS`
OPEN_INSTRUCT_ACCUM = (16, 4, 4)


def open_instruct_split(rows=None) -> tuple[float, float, float]:
    """Where the open-instruct miss sits (round 10, z3pair10): per micro-batch or per optimizer step. Tulu 3 8B
    (16 micro-batches a step) and OLMo 2 7B (4) are nearly the same model at the same batch of one pair, so their
    published steps ``P`` are taken as ``a_i·n_i + X``: ``X`` a fixed cost per optimizer step (the ZeRO-3 optimizer
    step, the loop's logging all-reduce and ``.tolist()``, the tracker), ``a_i`` seconds per micro-batch in the
    model's own ratio ``a_1/a_2`` (its per-micro-batch times). Returns ``(a_8B, a_7B, X)`` in seconds."""
    rows = rows if rows is not None else open_instruct_rows()
    (_n1, h1, _m1, _e1, s1, _p1), (_n2, h2, _m2, _e2, s2, _p2) = rows[0], rows[1]
    k1, k2 = OPEN_INSTRUCT_ACCUM[0], OPEN_INSTRUCT_ACCUM[1]
    p1 = h1 * 3600.0 / OPEN_INSTRUCT_RUNS[0][4]
    p2 = h2 * 3600.0 / OPEN_INSTRUCT_RUNS[1][4]
    r = (s1 / k1) / (s2 / k2)
    a2 = (p1 - p2) / (k1 * r - k2)
    return r * a2, a2, p2 - k2 * a2


def open_instruct_reference_bound(rows=None) -> list[tuple[str, float, float]]:
    """(run, the most seconds one forward-only micro-batch of the cached reference pass can take, the model's):
    ``get_cache_ref_logprobs`` runs every micro-batch of the epoch once under ``torch.no_grad`` before the first
    logged step, so the hours before it (the start-up too) over pairs / 32 micro-batches bound that pass from above."""
    rows = rows if rows is not None else open_instruct_rows()
    out = []
    for (name, _h, before, _d, _steps), row in zip(OPEN_INSTRUCT_RUNS, rows):
        n_mb = OPEN_INSTRUCT_PAIRS[name] / 32.0
        out.append((name, before * 3600.0 / n_mb, row[5] * 3600.0 / n_mb))
    return out


#: pairs of each open-instruct row (:func:`_oi_dpo`'s second argument: the card's count / the viewer's rows)
OPEN_INSTRUCT_PAIRS = {"tulu3_8b_dpo (tulu3/dpo_8b)": 271_409, "olmo2_7b_dpo (olmo2/dpo_7b)": 378_000,
                       "olmo2_13b_dpo (olmo2/dpo_13b)": 378_000}


def _pct(v: list[float], q: float) -> float:
    v = sorted(v)
    return v[min(len(v) - 1, int(round(q * (len(v) - 1))))]


def _print_open_instruct_split() -> None:
    a1, a2, x = open_instruct_split()
    rows = open_instruct_rows()
    print(f"\nopen-instruct, per micro-batch or per step (z3pair10): published = a·micro-batches + X gives "
          f"a = {a1:.3f} s (8B) / {a2:.3f} s (7B) per micro-batch against the model's "
          f"{rows[0][4] / OPEN_INSTRUCT_ACCUM[0]:.3f} / {rows[1][4] / OPEN_INSTRUCT_ACCUM[1]:.3f} s, and X = {x:.2f} s "
          "per optimizer step")
    print("\n| open-instruct run | reference pass: most s a forward-only micro-batch can take (hours before the first "
          "step / micro-batches) | model s | ratio |\n|---|---:|---:|---:|")
    for name, bound, model in open_instruct_reference_bound(rows):
        print(f"| {name} | {bound:.3f} | {model:.3f} | {bound / model:.2f} |")


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
        ev, sv = window_seconds(row, t)
        mapped_err = row.measured / (pred + ev + sv) - 1.0
        res.append((row.id, row.table, row.measured, pred, err, ev, sv, mapped_err, FIGURES[row.id],
                    WINDOWS[row.id][4]))
    print("\n| row | table | published s (per step; run rows: whole run) | predicted s | error (+ = predicted too "
          "fast) | figure | + evaluations in it s | + saves in it s | error, window mapped | what the figure holds |\n"
          "|---|---|---:|---:|---:|---|---:|---:|---:|---|")
    for rid, table, pub, pred, err, ev, sv, merr, fig, rest in res:
        print(f"| {rid} | {table} | {pub:.2f} | {pred:.2f} | {err:+.1%} | {fig} | {ev:.2f} | {sv:.2f} | {merr:+.1%} "
              f"| {rest} |")
    print("\n| step-time ratio (run A / run B) | published | model | source |\n|---|---:|---:|---|")
    for rid, pub, mod, src in ratio_rows():
        print(f"| {rid} | {pub:.2f} | {mod:.2f} | {src} |")
    print("\n| pair (A vs B) | A published s | A model s | B's miss as a fixed cost X s | A + X (error) | "
          "A × B's rate miss (error) |\n|---|---:|---:|---:|---:|---:|")
    for what, pa, ma, x, ax, ak in miss_form_rows(res):
        print(f"| {what} | {pa:.2f} | {ma:.2f} | {x:.2f} | {ax:.2f} ({pa / ax - 1.0:+.1%}) | {ak:.2f} "
              f"({pa / ak - 1.0:+.1%}) |")
    print(f"\n| NeMo RL nightly DPO test (upper bound; HelpSteer3 mean ASSUMED {NEMO_RL_MEAN} tokens) | bound s | "
          "model step s (reference outside the timer) | model with the reference s | error (0 within the bound) |\n"
          "|---|---:|---:|---:|---:|")
    for name, bound, step, step_ref, err in nemo_rl_bound_rows():
        print(f"| {name} | {bound:.1f} | {step:.2f} | {step_ref:.2f} | {err:+.1%} |")
    print("\n| open-instruct DPO run (32 H100, ZeRO-3, cached reference) | training h (plot) | model h | error | "
          "model step s | model reference pass h (before training) | error, mean length ×0.7 / ×1.3 |\n"
          "|---|---:|---:|---:|---:|---:|---|")
    lo, hi = open_instruct_rows(0.7), open_instruct_rows(1.3)
    for (name, pub, mod, err, step, pre), a, b in zip(open_instruct_rows(), lo, hi):
        print(f"| {name} | {pub:.2f} | {mod:.2f} | {err:+.1%} | {step:.2f} | {pre:.2f} | {a[3]:+.1%} / {b[3]:+.1%} |")
    _print_open_instruct_split()
    print("\n| table | rows | median |error| | p90 |error| | window mapped: median / p90 |\n|---|---:|---:|---:|---:|")
    for table in sorted({r[1] for r in res}) + ["all"]:
        sel = [r for r in res if table in ("all", r[1])]
        errs, merrs = [abs(r[4]) for r in sel], [abs(r[7]) for r in sel]
        print(f"| {table} | {len(errs)} | {statistics.median(errs):.1%} | {_pct(errs, 0.9):.1%} | "
              f"{statistics.median(merrs):.1%} / {_pct(merrs, 0.9):.1%} |")
    oi = [abs(r[3]) for r in open_instruct_rows()]
    nb = [abs(r[4]) for r in nemo_rl_bound_rows()]
    print(f"| open-instruct runs (round 9) | {len(oi)} | {statistics.median(oi):.1%} | {_pct(oi, 0.9):.1%} | — |\n"
          f"| NeMo RL bounds (round 9; 0 within the bound) | {len(nb)} | {statistics.median(nb):.1%} | "
          f"{_pct(nb, 0.9):.1%} | — |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
