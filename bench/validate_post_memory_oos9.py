"""Post-training peak memory, round 9: published rows the project had not used (a sanity table, not fitted).

Usage: python bench/validate_post_memory_oos9.py

Each row is a published run with its whole launch configuration, entered as a user would enter it; where the source
is silent the choice is printed (``ASSUMED``). Nothing here is tuned per row. Sources (none was used by
``bench/validate_post_memory.py``, ``bench/rl_step_times.py`` or any other bench before this file):

* ``swift-v3-history`` — modelscope/ms-swift example scripts as first published, at the commit named on each row
  (``git show <commit>:<path>``); a script's first line gives the memory per GPU beside its full command. Read as
  ms-swift's logged ``memory(GiB)`` = ``torch.cuda.max_memory_reserved()`` (as ``validate_post_memory.py``).
  Only versions whose configuration differs from the rows already used are entered (the same command published
  again with another figure is listed in the note, not scored).
* ``swift-v2-docs`` — ms-swift 2.x documentation at d2b45ec8c (2024-11-29, the last 2.x tree):
  ``docs/source_en/LLM/Human-Preference-Alignment-Training-Documentation.md`` (DPO), ``docs/source_en/LLM/ORPO.md``,
  ``examples/pytorch/llm/scripts/dpo/lora/dpo.sh``: "Experimental environment: A100 / Memory usage: 40G". The
  single-GPU commands only (the "MP (device map)" variants split the model by layers without a pipeline schedule:
  no layout of the planner runs that).
* ``verl-log-diqiu`` — github.com/diqiuzhuanzhuan/verldata (42e31cd), ``run_logs/qwen2-7b_math.log``: the launch
  command and verl's per-step ``perf/max_memory_allocated_gb`` / ``perf/max_memory_reserved_gb``.
* ``verl-docs`` — volcengine/verl ``docs/perf/dpsk.md`` (b178a3c, "Last updated 08/20/2025"): DeepSeek 671b on
  96 H20 (96GB), "GPU memory(GB) 66", with ``examples/grpo_trainer/run_deepseek671b_math_megatron_96gb.sh``.

A second table scores Liger Kernel's fused-loss memory benchmark (linkedin/Liger-Kernel
``benchmark/data/all_benchmark_data.csv`` at ead96b6): the memory the fused preference/GRPO losses add per token
of input, against the bytes per token the model charges a fused loss (``loss_kernel`` ``cce``: the head's saved
input, its gradient and the per-token fp32 values; ``memory.py``).
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

from validate_ft_tools import error  # noqa: E402
from validate_post_memory import EXPANDABLE, QWEN3_4B, PostRow, _pct, _t, predict  # noqa: E402

SWIFT_GIT = "modelscope/ms-swift"
GPU_A100 = "ASSUMED A100-SXM4-80GB (the script names no GPU; ms-swift's benchmarks ran on A100s)"
#: ms-swift's dataset statistics (docs Supported-models-and-datasets at 3602360): tokens per sample, mean ± std
EMOJI = {"mean_sample_len": 334, "sample_len_std": 163}  # shareAI-Llama3-DPO-zh-en-emoji: max 1,801
ORPO_MIX = {"mean_sample_len": 938, "sample_len_std": 694}  # orpo-dpo-mix-40k: max 8,483
EMOJI_MAX = "seq_len 1,801: the emoji set's longest sample (max_length cuts none)"

#: Qwen/Qwen2.5-3B-Instruct config.json (no preset ships)
QWEN25_3B = {"name": "Qwen2.5-3B-Instruct", "hidden_size": 2048, "num_hidden_layers": 36,
             "num_attention_heads": 16, "num_key_value_heads": 2, "intermediate_size": 11008, "gated_mlp": True,
             "vocab_size": 151936, "tie_word_embeddings": True}
#: 01-ai/Yi-6B-Chat config.json
YI_6B = {"name": "Yi-6B-Chat", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
         "num_key_value_heads": 4, "intermediate_size": 11008, "gated_mlp": True, "vocab_size": 64000,
         "tie_word_embeddings": False}


def _swift_v3_rows() -> list[PostRow]:
    """ms-swift 3.x example scripts at their first published versions (``swift rlhf`` and ``megatron rlhf``)."""
    mg = dict(framework="megatron-swift", method="full", recompute="full", micro_batch_size=1,
              global_batch_size=4)
    tp4 = {"tp": 4, "sequence_parallel": True}
    # ms-swift before 1b184f296 (2025-09-30): the full-parameter reference carried Megatron DDP's fp32 main_grad
    # buffer (memory.reference_grad_buffer_bytes_per_param); every Megatron full DPO script below predates it
    pre_fix = {"preference": {"reference_grad_buffer": True}}
    # ms-swift 3.0 to 3.7 (b40f31df7 .. 8ae0ade71, 2025-08-15): RLHFArguments.rpo_alpha = 1. (TRL's NLL on the
    # chosen rows, memory.chosen_nll_bytes_per_logit); the DPO scripts below ran before it became None
    rpo_then = {"preference": {"rpo_alpha": 1.0}}
    old_pf = ("padding-free: Megatron-SWIFT ran every batch padding-free until padding_free false came "
              "(8382fb061, 2025-12-25)")
    return [
        PostRow("swift-dpo-full-7b-jul25", "swift-v3-history", "memory", 50.0, {"preset": "qwen2.5-7b"},
                _t(framework="ms-swift", objective="dpo", method="full", seq_len=1801, micro_batch_size=1,
                   global_batch_size=16, **rpo_then), num_gpus=4, parallel={"zero": 3}, metric="reserved", data=EMOJI,
                assumed=(GPU_A100, EMOJI_MAX, f"{SWIFT_GIT}@5df8180fd examples/train/rlhf/dpo/full.sh "
                         "'4 * 50GiB' (per_device_train_batch_size 1, GA 4, zero3, no expandable segments); "
                         "ms-swift issue #4146 reproduced it: '50GB * 4'")),
        PostRow("swift-dpo-full-7b-issue4146", "swift-v3-history", "memory", 44.28, {"preset": "qwen2.5-7b"},
                _t(framework="ms-swift", objective="dpo", method="full", seq_len=1801, micro_batch_size=1,
                   global_batch_size=16, **rpo_then), num_gpus=4, parallel={"zero": 3}, metric="reserved", data=EMOJI,
                assumed=(GPU_A100, EMOJI_MAX, "ms-swift issue #4146 (2025-05-13): the then examples/train/rlhf/"
                         "dpo/full.sh (the command of the row above) rerun on one node, logged memory(GiB) 44.28 "
                         "at step 5 of 302 (a later, longer batch may raise it)")),
        PostRow("swift-dpo-packing-7b", "swift-v3-history", "memory", 50.0, {"preset": "qwen2.5-7b"},
                _t(framework="ms-swift", objective="dpo", method="full", seq_len=8192, micro_batch_size=1,
                   global_batch_size=4, packing=True), num_gpus=4, parallel={"zero": 3}, metric="reserved",
                assumptions=EXPANDABLE, data=ORPO_MIX,
                assumed=(GPU_A100, f"{SWIFT_GIT}@3602360 examples/train/packing/dpo.sh '4 * 50GiB; 2h'",
                         "packing: every row holds max_length 8192 tokens (ASSUMED full rows)",
                         "expandable_segments:True")),
        PostRow("swift-simpo-3b", "swift-v3-history", "memory", 50.0, QWEN25_3B,
                _t(framework="ms-swift", objective="simpo", method="full", seq_len=1801, micro_batch_size=1,
                   global_batch_size=16), num_gpus=2, parallel={"zero": 2}, metric="reserved", data=EMOJI,
                assumed=(GPU_A100, EMOJI_MAX, f"{SWIFT_GIT}@3602360 examples/train/rlhf/simpo.sh '2*50GB' "
                         "read as the logged GiB")),
        PostRow("mswift-dpo-qwen3-8b-packing", "swift-v3-history", "memory", 62.0, {"preset": "qwen3-8b"},
                _t(**dict(mg, objective="dpo", seq_len=8192, packing=True), **pre_fix), num_gpus=4, parallel=tp4,
                metric="reserved", assumptions=EXPANDABLE, data=EMOJI,
                assumed=(GPU_A100, f"{SWIFT_GIT}@2900bbf4d examples/train/megatron/rlhf/dpo/packing.sh "
                         "'4 * 62GiB' (Qwen3-8B-Base, emoji#20000)",
                         "packing: every row holds max_length 8192 tokens (ASSUMED full rows)",
                         "expandable_segments:True")),
        PostRow("mswift-dpo-qwen3-8b-tp4", "swift-v3-history", "memory", 60.0, {"preset": "qwen3-8b"},
                _t(**dict(mg, objective="dpo", seq_len=1801, micro_batch_size=8, global_batch_size=16,
                          padding_free=True), **pre_fix), num_gpus=4, parallel=tp4, metric="reserved",
                assumptions=EXPANDABLE, data=EMOJI,
                assumed=(GPU_A100, f"{SWIFT_GIT}@5df8180fd examples/train/megatron/rlhf/dpo/dense.sh "
                         "'4 * 60GiB'", old_pf, EMOJI_MAX, "expandable_segments:True")),
        PostRow("mswift-dpo-qwen1.5-moe-tp2-ep4", "swift-v3-history", "memory", 64.0,
                {"preset": "qwen1.5-moe-a2.7b"},
                _t(**dict(mg, objective="dpo", seq_len=1801, micro_batch_size=4, global_batch_size=16,
                          padding_free=True), **pre_fix), num_gpus=8,
                # expert TP = TP 2: ms-swift had no expert_tensor_parallel_size field before 9f5fcf5c3
                # (2025-09-24), so Megatron-LM's "same as TP" held (swiftmoe9)
                parallel={"tp": 2, "ep": 4, "expert_tp": 2, "sequence_parallel": True}, metric="reserved",
                assumptions=EXPANDABLE, data=EMOJI,
                assumed=(GPU_A100, f"{SWIFT_GIT}@5df8180fd examples/train/megatron/rlhf/dpo/moe.sh "
                         "'8 * 64GiB'", old_pf, EMOJI_MAX, "expandable_segments:True")),
        PostRow("mswift-dpo-qwen1.5-moe-pp2-ep4", "swift-v3-history", "memory", 62.0,
                {"preset": "qwen1.5-moe-a2.7b"},
                _t(**dict(mg, objective="dpo", seq_len=1801, micro_batch_size=4, global_batch_size=16,
                          padding_free=True), **pre_fix), num_gpus=8,
                parallel={"pp": 2, "ep": 4, "sequence_parallel": True}, metric="reserved",
                assumptions=EXPANDABLE, data=EMOJI,
                assumed=(GPU_A100, f"{SWIFT_GIT}@9f2b67606 examples/train/megatron/rlhf/dpo/moe.sh "
                         "'8 * 62GiB; 0.9s/it'", old_pf, EMOJI_MAX, "expandable_segments:True")),
        PostRow("mswift-dpo-7b-tp4-aug25", "swift-v3-history", "memory", 55.0, {"preset": "qwen2.5-7b"},
                _t(**dict(mg, objective="dpo", seq_len=1801, micro_batch_size=8, global_batch_size=16,
                          padding_free=True), **pre_fix), num_gpus=4, parallel=tp4, metric="reserved",
                assumptions=EXPANDABLE, data=EMOJI,
                assumed=(GPU_A100, f"{SWIFT_GIT}@8ae0ade71 examples/train/megatron/rlhf/dpo/dense.sh '4 * 55GiB': "
                         "the command validate_post_memory.py enters at 45 GiB (after 1b184f296)", old_pf,
                         EMOJI_MAX, "expandable_segments:True")),
        PostRow("mswift-dpo-qwen3-4b-packing-aug25", "swift-v3-history", "memory", 33.0, QWEN3_4B,
                _t(**dict(mg, objective="dpo", seq_len=8192, packing=True), **pre_fix), num_gpus=4, parallel=tp4,
                metric="reserved", assumptions=EXPANDABLE, data=ORPO_MIX,
                assumed=(GPU_A100, f"{SWIFT_GIT}@8ae0ade71 examples/train/megatron/rlhf/dpo/packing.sh "
                         "'4 * 33GiB; 3.4s/it': the command entered at 28 GiB after 1b184f296",
                         "packing: every row holds max_length 8192 tokens (ASSUMED full rows)",
                         "expandable_segments:True")),
        PostRow("mswift-dpo-qwen3-30b-a3b-packing-aug25", "swift-v3-history", "memory", 65.0,
                {"preset": "qwen3-30b-a3b"}, _t(**dict(mg, objective="dpo", seq_len=8192, packing=True), **pre_fix),
                num_gpus=8, parallel=dict(tp4, ep=8, expert_tp=1, offload_optimizer=True), metric="reserved",
                assumptions=EXPANDABLE, data=ORPO_MIX,
                assumed=(GPU_A100, f"{SWIFT_GIT}@8ae0ade71 examples/train/megatron/rlhf/dpo/moe.sh '8 * 65GiB; "
                         "13s/it': the command entered at 46 GiB after 1b184f296",
                         "packing: every row holds max_length 8192 tokens (ASSUMED full rows)",
                         "optimizer_cpu_offload, fraction 1", "expandable_segments:True")),
        PostRow("mswift-dpo-qwen3-30b-a3b-lora-emoji", "swift-v3-history", "memory", 55.0,
                {"preset": "qwen3-30b-a3b"},
                _t(**dict(mg, objective="dpo", method="lora", seq_len=1801, micro_batch_size=8,
                          global_batch_size=16, padding_free=True), lora_rank=8, lora_targets="all_linear"),
                num_gpus=2, parallel={"ep": 2, "sequence_parallel": True}, metric="reserved",
                assumptions=EXPANDABLE, data=EMOJI,
                assumed=(GPU_A100, f"{SWIFT_GIT}@67458dfeb examples/train/megatron/lora/dpo.sh "
                         "'2 * 55GiB; 4.50s/it' (Qwen3-30B-A3B-Base, emoji#20000, max_length 8192)", old_pf,
                         EMOJI_MAX, "expandable_segments:True")),
    ]


def _swift_v2_rows() -> list[PostRow]:
    """ms-swift 2.x (``swift rlhf`` / ``swift dpo`` on TRL's trainers, HF Trainer with AMP, no DeepSpeed)."""
    lora = dict(framework="ms-swift", method="lora", lora_rank=8, lora_targets="all_linear", micro_batch_size=1,
                global_batch_size=16)
    doc = f"{SWIFT_GIT}@d2b45ec8c docs/source_en/LLM/"
    return [
        PostRow("swift2-dpo-lora-llama3-8b", "swift-v2-docs", "memory", 40.0, {"preset": "llama-3-8b"},
                _t(**dict(lora, objective="dpo", seq_len=1801), preference={"rpo_alpha": 0.1}), metric="reserved",
                data=EMOJI,
                assumed=("A100 (the doc's 'Experimental environment'); 80GB ASSUMED",
                         doc + "Human-Preference-Alignment-Training-Documentation.md 'Memory usage: 40G', read as "
                         "the logged GiB", "lora_rank 8 (swift 2.x default); max_length 2048 (default) cuts no "
                         "emoji sample; lengths are the Qwen tokenizer's (ASSUMED the same under Llama 3's)",
                         "--rpo_alpha 0.1 (the command at d2b45ec8c; --sft_beta 0.1 when the figure was written, "
                         "c0e91a1b3)")),
        PostRow("swift2-orpo-lora-llama3-8b", "swift-v2-docs", "memory", 40.0, {"preset": "llama-3-8b"},
                _t(**dict(lora, objective="orpo", seq_len=1801)), metric="reserved", data=EMOJI,
                assumed=("A100; 80GB ASSUMED", doc + "ORPO.md 'Memory usage: 40G' (the DPO figure again: "
                         "maybe copied)", "as the DPO row")),
        PostRow("swift2-dpo-lora-yi-6b", "swift-v2-docs", "memory", 20.0, YI_6B,
                _t(**dict(lora, objective="dpo", seq_len=1024)), metric="reserved",
                assumed=("A100; 80GB ASSUMED", f"{SWIFT_GIT}@d2b45ec8c examples/pytorch/llm/scripts/dpo/lora/"
                         "dpo.sh 'Memory usage: 20G' (yi-6b-chat, hh-rlhf-cn harmless_base_cn, max_length 1024)",
                         "ASSUMED the longest batch reaches max_length 1024 (no length statistics published)")),
    ]


def _verl_scenarios() -> list[tuple[str, str, dict, float, str, tuple]]:
    """(id, table, scenario, published GiB, metric, assumed) for the verl rows."""
    import rl_step_times as rl

    # round 10 (postoos10): the card was ASSUMED 141 GB because the logged reserved figure exceeds 96 GB; vLLM's
    # sleeping pool stays in PyTorch's counters (memory.sleeping_pool_counted_bytes), so a logged figure above the
    # card says nothing of the card, and 0.6 of a 141 GB card alone would exceed the logged 66.1 GiB of allocated
    # memory. ASSUMED A100 80GB: the GPU bench/rl_step_times_r9.py reads from the same log's MFU (0.24 of 312 TFLOP/s)
    diqiu = rl._verl("qwen2.5-7b", "a100-sxm-80gb", 8, prompts=1024, n=5, prompt_mean=101, resp_max=1024,
                     resp_mean=308, util=0.6, offload=False, mbs=16, mini=256, gen_tp=2, ref=False,
                     prompt_pad=1024, sleep_level=2)
    note = ("github.com/diqiuzhuanzhuan/verldata@42e31cd run_logs/qwen2-7b_math.log, step 1 (response mean 308, "
            "prompt mean 101); GPG loss (no KL, no reference); ASSUMED A100 80GB (round 10: the logged MFU; "
            "the logged reserved 113 GiB holds vLLM's sleeping pool); Qwen2.5-7B preset for Qwen2-7B-Instruct; ASSUMED vLLM >= 0.8.5 (sleep level "
            "2); the run's allocated peak climbs to 76.7 GiB by its last steps (longer micro-batches)")
    rows = [("verl-qwen2-7b-gpg-allocated", "verl-log-diqiu", diqiu, 66.088, "allocated", (note,)),
            ("verl-qwen2-7b-gpg-reserved", "verl-log-diqiu", diqiu, 99.244, "reserved", (note,))]
    dsv3 = {
        "model": {"preset": "deepseek-v3"},
        "training": {"objective": "grpo", "method": "full", "framework": "megatron", "padding_free": True,
                     "seq_len": 2048 + 9632, "micro_batch_size": 1, "global_batch_size": 32 * 8,
                     "recompute": "full", "preference": {"beta": 0.001, "reference_offload": True},
                     "rl": {"group_size": 8, "rollout_len": 9632, "prompt_len": 2048,
                            "generation_engine": "vllm_colocated", "generation_gpu_fraction": 0.6,
                            "engine_sleep": True, "mean_response_fraction": 1960 / 9632, "reward": "function",
                            "updates_per_generation": 3, "rollout_tp": 32, "enforce_eager": True}},
        "parallel": {"tp": 8, "pp": 12, "ep": 8, "expert_tp": 1, "sequence_parallel": True, "zero": 1,
                     "offload_optimizer": True},
        "hardware": {"gpu": "h20-96gb", "num_gpus": 96, "gpus_per_node": 8},
    }
    rows.append(("verl-deepseek-v3-96xh20", "verl-docs", dsv3, 66.0, "allocated",
                 ("volcengine/verl docs/perf/dpsk.md: 96 H20, TP 8 PP 12 EP 8, OFFLOAD_FRACTION 1, 'GPU memory(GB) "
                  "66', mean response 1,960; script run_deepseek671b_math_megatron_96gb.sh (prompt 2,048, response "
                  "1,204 × 8 = 9,632, 96 prompts × 8, mini-batch 32, dynamic batch of one sequence's tokens, "
                  "param/grad/optimizer offload, rollout TP 32)", "ASSUMED 'GPU memory' is verl's "
                  "max_memory_allocated; ASSUMED even pipeline stages (the script puts 6 layers on the last); "
                  "param/grad offload between phases not entered (the planner offloads parameters under ZeRO-3 "
                  "only)")))
    return rows


#: rows shown but not counted: the planner cannot enter the run's layout
NOT_COUNTED = {"verl-deepseek-v3-96xh20": "verl's Megatron parameter and gradient offload between phases and its "
                                           "uneven last pipeline stage are not planner choices",
               # round 10 (postmem10): the script's history (git log -G"Memory usage" on the file)
               "swift2-dpo-lora-yi-6b": (
                   "the '20G' is not a one-GPU measurement: the script said '2*A100 / 2 * 20G' (ad65946a6 "
                   "mistral-7b, f21d313be yi-6b-chat: python llm_dpo.py, the model and a separate --ref_model_type "
                   "reference split over two GPUs by device map); 9dc41ab06 moved it to CUDA_VISIBLE_DEVICES=0 and "
                   "wrote '20G' with the reference still loaded (two 16-bit Yi-6B copies are 22.6 GiB of weights "
                   "alone); 7a41e044c dropped the reference and kept the figure")}


def _strip_flag(row: PostRow) -> PostRow:
    """The row as the model before round 9 read it: no ``reference_grad_buffer`` and (round 10) no ``rpo_alpha``
    (the fields did not exist)."""
    t = dict(row.training)
    t.pop("preference", None)
    return dataclasses.replace(row, training=t)


def run_rows() -> list[tuple[str, str, float, float | None, float | None, str]]:
    """(id, table, published, predicted before this round, predicted now, note) for every run row."""
    from gpuplanner.core.estimate import memory_breakdown, resolve
    from gpuplanner.core.scenario import scenario_from_dict

    out = []
    for row in _swift_v3_rows() + _swift_v2_rows():
        try:
            out.append((row.id, row.table, row.measured, predict(_strip_flag(row)), predict(row),
                        "; ".join(row.assumed)))
        except Exception as exc:  # noqa: BLE001 - a refused row is shown, not counted
            out.append((row.id, row.table, row.measured, None, None, f"refused: {exc}"))
    for rid, table, scn, pub, metric, assumed in _verl_scenarios():
        try:
            pred = memory_breakdown(resolve(scenario_from_dict(scn))).metric(metric)
            out.append((rid, table, pub, pred, pred, "; ".join(assumed)))
        except Exception as exc:  # noqa: BLE001
            out.append((rid, table, pub, None, None, f"refused: {exc}"))
    return out


def summary(res) -> list[tuple[str, int, float, float, float, float]]:
    """(source, rows, median before, p90 before, median now, p90 now) of |error| over the counted rows."""
    counted = [r for r in res if r[3] is not None and r[0] not in NOT_COUNTED]
    out = []
    for table in sorted({r[1] for r in counted}) + ["all"]:
        sel = [r for r in counted if table in ("all", r[1])]
        b = [abs(r[3] / r[2] - 1.0) for r in sel]
        a = [abs(r[4] / r[2] - 1.0) for r in sel]
        out.append((table, len(sel), statistics.median(b), _pct(b, 0.9), statistics.median(a), _pct(a, 0.9)))
    return out


# ------------------------------------------------------------------------------------------- Liger loss rows
LIGER = "linkedin/Liger-Kernel@ead96b6 benchmark/data/all_benchmark_data.csv"
#: (kernel, H, T, B low, MiB at B low, B high, MiB at B high): liger provider, "full" (forward + backward), memory
#: rows. B counts sequences (the preference losses take chosen + rejected rows as B/2 pairs).
LIGER_ROWS = [
    ("fused_linear_orpo_loss", 4096, 1024, 2, 8161.346, 16, 8497.455),
    ("fused_linear_cpo_loss", 4096, 1024, 2, 8161.346, 16, 8497.455),
    ("fused_linear_simpo_loss", 4096, 1024, 2, 7675.329, 16, 8011.438),
    ("fused_linear_orpo_loss (T 4096)", 4096, 4096, 2, 14556.627, 16, 15901.064),
    ("kto_loss", 1024, 512, 4, 3348.989, 32, 3433.099),
    ("fused_linear_grpo_loss_token", 4096, 1024, 2, 7344.777, 16, 7792.941),
]


def liger_rows() -> list[tuple[str, float, float]]:
    """(kernel, measured bytes per token, model bytes per token): the slope between the two batch sizes; the
    model's fused loss (``loss_kernel`` ``cce`` in ``memory.py``) holds the head's 16-bit input, its 16-bit gradient
    and 8 bytes of per-token fp32 values: 2h + 2h + 8."""
    out = []
    for name, h, t, b0, m0, b1, m1 in LIGER_ROWS:
        per_tok = (m1 - m0) * 2**20 / ((b1 - b0) * t)
        out.append((name, per_tok, 4.0 * h + 8.0))
    return out


def main() -> int:
    res = run_rows()
    print("| row | source | published GiB | before GiB | error | now GiB | error |\n|---|---|---:|---:|---:|---:|---:|")
    for rid, table, pub, before, now, note in res:
        if now is None:
            print(f"| {rid} | {table} | {pub:.1f} | — | — | — | {note} |")
            continue
        flag = " (not counted)" if rid in NOT_COUNTED else ""
        print(f"| {rid}{flag} | {table} | {pub:.1f} | {before:.1f} | {before / pub - 1:+.1%} | {now:.1f} | "
              f"{now / pub - 1:+.1%} |")
    print("\n| source | rows | before median / p90 | now median / p90 |\n|---|---:|---:|---:|")
    for table, n, mb, pb, ma, pa in summary(res):
        print(f"| {table} | {n} | {mb:.1%} / {pb:.1%} | {ma:.1%} / {pa:.1%} |")
    print(f"\nLiger fused losses ({LIGER}): memory added per token of input\n")
    print("| kernel | measured bytes/token | model bytes/token | error |\n|---|---:|---:|---:|")
    for name, meas, model in liger_rows():
        print(f"| {name} | {meas:,.0f} | {model:,.0f} | {model / meas - 1.0:+.1%} |")
    for rid, _t2, _p, _b, _n, note in res:
        print(f"ASSUMED {rid}: {note}")
    for rid, why in NOT_COUNTED.items():
        print(f"NOT COUNTED {rid}: {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
