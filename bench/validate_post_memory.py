"""Published peak memory of post-training runs (DPO, KTO, PPO, GRPO) against the model (a sanity table, not fitted).

Usage: python bench/validate_post_memory.py

Each row is a published run with its whole launch configuration, entered as a user of the app would enter it. Where
the source is silent the choice is written next to the row (``ASSUMED``) and printed. Nothing is tuned per row.

* ``swift-examples`` — modelscope/ms-swift ``examples/train/rlhf/{dpo,ppo}/*.sh`` and
  ``examples/megatron/rlhf/{dpo,kto}/*.sh`` at commit 3602360a562313afbf2ef6065fdf61f271a2c5b9. Each script's first
  line gives the memory per GPU ("4 * 45GiB; 3.4s/it"), next to its full command line. ms-swift logs
  ``memory(GiB)`` = ``torch.cuda.max_memory_reserved() / 1024**3`` (Megatron: ``swift/megatron/callbacks/print.py``
  ``on_log``, the maximum over the model-parallel group; Transformers: ``swift/utils/torch_utils.py``
  ``get_max_reserved_memory``), printed beside ``train_speed(s/it)``: compared as reserved GiB (ASSUMED: the comment
  is that logged figure). The datasets' token statistics are ms-swift's own (docs ``Supported-models-and-datasets``:
  mean ± std, min, max): hjh0119/shareAI-Llama3-DPO-zh-en-emoji 334.0 ± 162.8, max 1,801;
  AI-ModelScope/orpo-dpo-mix-40k 938.1 ± 694.2, max 8,483;
  ultrafeedback-binarized-preferences-cleaned-kto 471.5 ± 274.3, max 2,232; alpaca-gpt4-data-en 167.6 ± 123.9,
  max 607. A batch is padded to its longest sample (``Template.data_collator``); ``max_length`` 8192 cuts no
  emoji sample, so the run's longest batch holds the dataset's longest sample (``seq_len`` = 1,801, ASSUMED every
  sample is seen: one epoch of 99% of 2,449). Megatron-SWIFT runs padding-free by default
  (``megatron_args.py``: ``padding_free: bool = True``). Packing fills rows of ``max_length`` tokens.
* ``verl-logs`` — the play-verl rows of ``bench/rl_step_times.py`` (verl's logged ``perf/max_memory_allocated_gb``,
  allocated GiB), repeated here so the post-training memory rows sit in one table.
"""

from __future__ import annotations

import dataclasses
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "bench"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from validate_ft_tools import Row, error  # noqa: E402


@dataclass(frozen=True)
class PostRow(Row):
    #: the scenario's ``assumptions`` (the scripts' ``PYTORCH_CUDA_ALLOC_CONF='expandable_segments:True'``)
    assumptions: dict = field(default_factory=dict)


EXPANDABLE = {"expandable_segments": True}


def predict(row: Row) -> float:
    """The model's figure for one row, in the row's metric (GiB)."""
    from gpuplanner.core.estimate import memory_breakdown, resolve
    from gpuplanner.core.scenario import scenario_from_dict

    d = {"model": row.model, "training": row.training, "parallel": row.parallel,
         "hardware": {"gpu": row.gpu, "num_gpus": row.num_gpus}, "data": row.data,
         "assumptions": dict(getattr(row, "assumptions", {}))}
    return memory_breakdown(resolve(scenario_from_dict(d))).metric(row.metric)

SWIFT = "modelscope/ms-swift@3602360a562313afbf2ef6065fdf61f271a2c5b9"
#: Qwen/Qwen3-4B-Instruct-2507 config.json (no preset ships)
QWEN3_4B = {"name": "Qwen3-4B-Instruct-2507", "hidden_size": 2560, "num_hidden_layers": 36,
            "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128, "intermediate_size": 9728,
            "gated_mlp": True, "vocab_size": 151936, "tie_word_embeddings": True, "qk_norm": True}
#: mean ± std of tokens per sample: ms-swift docs/source_en/Instruction/Supported-models-and-datasets.md (at SWIFT)
EMOJI = {"mean_sample_len": 334, "sample_len_std": 163}  # shareAI-Llama3-DPO-zh-en-emoji: 334.0±162.8, max 1,801
ORPO_MIX = {"mean_sample_len": 938, "sample_len_std": 694}  # orpo-dpo-mix-40k: 938.1±694.2, max 8,483
KTO_UF = {"mean_sample_len": 472, "sample_len_std": 274}  # ultrafeedback ... kto: 471.5±274.3, max 2,232
GPU_ASSUMED = "ASSUMED A100-SXM4-80GB (the script names no GPU; ms-swift's benchmarks ran on A100s)"


def _t(**kw) -> dict:
    t = {"flash_attention": True, "optimizer": "adamw", "recompute": "full"}
    t.update(kw)
    return t


def _swift_hf_rows() -> list[Row]:
    """``swift rlhf`` (Transformers engine: TRL's trainers under ms-swift)."""
    dpo = dict(framework="ms-swift", objective="dpo", method="full", seq_len=1801, micro_batch_size=4,
               global_batch_size=16)
    lora = dict(lora_rank=8, lora_targets="all_linear")
    ppo = dict(framework="ms-swift", objective="ppo", micro_batch_size=1, seq_len=607 + 512,
               rl={"rollout_len": 512, "prompt_len": 607, "group_size": 1, "generation_engine": "training",
                   "reward": "model"})
    pad_note = "seq_len 1,801: the dataset's longest sample (max_length 8192 cuts none)"
    return [
        PostRow("swift-dpo-full-7b-padding-free", "swift-examples", "memory", 47.0, {"preset": "qwen2.5-7b"},
            _t(**dpo, padding_free=True), num_gpus=4, parallel={"zero": 3}, metric="reserved", data=EMOJI,
            assumed=(GPU_ASSUMED, pad_note, "rpo_alpha 0.1: the NLL term reuses the chosen logits")),
        PostRow("swift-dpo-full-7b-padded", "swift-examples", "memory", 57.0, {"preset": "qwen2.5-7b"},
            _t(**dpo), num_gpus=4, parallel={"zero": 3}, metric="reserved", data=EMOJI,
            assumed=(GPU_ASSUMED, pad_note)),
        PostRow("swift-dpo-lora-7b", "swift-examples", "memory", 24.0, {"preset": "qwen2.5-7b"},
            _t(**dict(dpo, micro_batch_size=1, method="lora", global_batch_size=16), **lora), metric="reserved",
            data=EMOJI, assumed=(GPU_ASSUMED, pad_note + "; max_length 2048 cuts none either",
                                 "'24GiB' read as the logged reserved peak")),
        PostRow("swift-ppo-full-8b", "swift-examples", "memory", 65.0, {"preset": "llama-3.1-8b"},
            _t(**dict(ppo, method="full", global_batch_size=16)), num_gpus=8, parallel={"zero": 3},
            metric="reserved", assumptions=EXPANDABLE, data={"mean_sample_len": 168 + 512},
            assumed=(GPU_ASSUMED, "prompt 607 tokens: alpaca-gpt4-data-en's longest sample (the zh half's "
                                  "statistics are not given)", "reward model Skywork-Reward-Llama-3.1-8B: same "
                                  "architecture as the policy", "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True")),
        PostRow("swift-ppo-lora-8b", "swift-examples", "memory", 50.0, {"preset": "llama-3.1-8b"},
            _t(**dict(ppo, method="lora", global_batch_size=16), **lora), num_gpus=4, parallel={"zero": 2},
            metric="reserved", assumptions=EXPANDABLE, data={"mean_sample_len": 168 + 512},
            assumed=(GPU_ASSUMED, "prompt 607 tokens (as the full row)", "expandable_segments:True")),
    ]


def _swift_megatron_rows() -> list[Row]:
    """``megatron rlhf`` (Megatron-SWIFT): TP with sequence parallelism, full recomputation, flash attention."""
    mg = dict(framework="megatron-swift", method="full", recompute="full", seq_len=8192, micro_batch_size=1,
              global_batch_size=4)
    tp4 = {"tp": 4, "sequence_parallel": True}
    pack = "packing: every row holds max_length 8192 tokens (ASSUMED full rows)"
    return [
        PostRow("mswift-dpo-7b-tp4", "swift-examples", "memory", 45.0, {"preset": "qwen2.5-7b"},
            _t(**dict(mg, objective="dpo", seq_len=1801, micro_batch_size=8, global_batch_size=16,
                      padding_free=True)), num_gpus=4, parallel=tp4, metric="reserved", assumptions=EXPANDABLE, data=EMOJI,
            assumed=(GPU_ASSUMED, "padding-free (Megatron-SWIFT default); seq_len 1,801 the dataset's longest",
                     "expandable_segments:True")),
        PostRow("mswift-dpo-qwen3-4b-packing", "swift-examples", "memory", 28.0, QWEN3_4B,
            _t(**dict(mg, objective="dpo", packing=True)), num_gpus=4, parallel=tp4, metric="reserved", assumptions=EXPANDABLE,
            data=ORPO_MIX, assumed=(GPU_ASSUMED, pack, "expandable_segments:True")),
        PostRow("mswift-kto-7b-packing", "swift-examples", "memory", 43.0, {"preset": "qwen2.5-7b"},
            _t(**dict(mg, objective="kto", packing=True)), num_gpus=4, parallel=tp4, metric="reserved", assumptions=EXPANDABLE,
            data=KTO_UF, assumed=(GPU_ASSUMED, pack, "expandable_segments:True")),
        PostRow("mswift-dpo-qwen3-30b-a3b-packing", "swift-examples", "memory", 46.0, {"preset": "qwen3-30b-a3b"},
            _t(**dict(mg, objective="dpo", packing=True)), num_gpus=8,
            parallel=dict(tp4, ep=8, expert_tp=1, offload_optimizer=True), metric="reserved", assumptions=EXPANDABLE, data=ORPO_MIX,
            assumed=(GPU_ASSUMED, pack, "optimizer_cpu_offload, fraction 1", "expandable_segments:True")),
        PostRow("mswift-kto-qwen3-30b-a3b-lora-packing", "swift-examples", "memory", 48.0, {"preset": "qwen3-30b-a3b"},
            _t(**dict(mg, objective="kto", method="lora", packing=True), lora_rank=8, lora_targets="all_linear"),
            num_gpus=2, parallel={"ep": 2, "sequence_parallel": True}, metric="reserved", assumptions=EXPANDABLE, data=KTO_UF,
            assumed=(GPU_ASSUMED, pack, "expandable_segments:True")),
        PostRow("mswift-dpo-qwen3-4b-group-by-length", "swift-examples", "memory", 56.0, QWEN3_4B,
                _t(**dict(mg, objective="dpo", micro_batch_size=4, global_batch_size=16)), num_gpus=4, parallel=tp4,
                metric="reserved", assumptions=EXPANDABLE, data=ORPO_MIX,
                assumed=(GPU_ASSUMED, "padding_free false, group_by_length: a batch is padded to its longest, and "
                         "the longest batch reaches max_length 8192 (the dataset's longest is 8,483)",
                         "expandable_segments:True")),
        PostRow("mswift-dpo-qwen3-30b-a3b-lora", "swift-examples", "memory", 65.0, {"preset": "qwen3-30b-a3b"},
                _t(**dict(mg, objective="dpo", method="lora", seq_len=2048, micro_batch_size=8, global_batch_size=16,
                          padding_free=True), lora_rank=8, lora_targets="all_linear"), num_gpus=2,
                parallel={"ep": 2, "sequence_parallel": True}, metric="reserved", assumptions=EXPANDABLE,
                data=ORPO_MIX, assumed=(GPU_ASSUMED, "examples/megatron/lora/dpo.sh ('2 * 65GiB; 4.50s/it'): "
                                        "padding-free (default), max_length 2048; mean 938 tokens taken as is "
                                        "(cutting at 2048 lowers it by an unpublished amount)",
                                        "expandable_segments:True")),
        PostRow("mswift-rm-qwen3-30b-a3b-lora-packing", "swift-examples", "memory", 45.0, {"preset": "qwen3-30b-a3b"},
                _t(**dict(mg, objective="reward", method="lora", packing=True), lora_rank=8,
                   lora_targets="all_linear"), num_gpus=2, parallel={"ep": 2, "sequence_parallel": True},
                metric="reserved", assumptions=EXPANDABLE, data=ORPO_MIX,
                assumed=(GPU_ASSUMED, pack, "expandable_segments:True")),
    ]


#: alpaca-gpt4-data-zh#500 (157.2 tokens), alpaca-gpt4-data-en#500 (167.6), swift/self-cognition#500 (58.9)
SFT_MIX = {"mean_sample_len": 128}


def _swift_megatron_sft_rows() -> list[Row]:
    """``megatron sft`` (Megatron-SWIFT) example scripts with a memory comment, the same tool as the rlhf rows; not
    post-training, a separate table. Skipped: scripts whose figure is the card ("8 * 80GiB": ``pretrain.sh``,
    ``dense/qwen3_32b.sh``), vision and FP8 scripts, and MoE LoRA scripts with ``moe_expert_capacity_factor``."""
    mg = dict(framework="megatron-swift", method="full", recompute="full", seq_len=2048, micro_batch_size=16,
              global_batch_size=16, padding_free=True)
    tp2 = {"tp": 2, "sequence_parallel": True}
    dense = ("examples/megatron/lora/dense.sh (first written 2025-07-10 as examples/train/megatron/lora/dense.sh, "
             "ms-swift 3.6 with Megatron-LM's training loop)")
    return [
        PostRow("mswift-sft-7b-full-tp2", "swift-megatron-sft", "memory", 70.0, {"preset": "qwen2.5-7b"}, _t(**mg),
                num_gpus=2, parallel=tp2, metric="reserved", assumptions=EXPANDABLE, data=SFT_MIX,
                assumed=(GPU_ASSUMED, dense + ": 'full: 2 * 70GiB'", "padding-free (default)")),
        PostRow("mswift-sft-7b-lora-tp2", "swift-megatron-sft", "memory", 14.0, {"preset": "qwen2.5-7b"},
                _t(**dict(mg, method="lora"), lora_rank=8, lora_targets="all_linear"), num_gpus=2, parallel=tp2,
                metric="reserved", assumptions=EXPANDABLE, data=SFT_MIX,
                assumed=(GPU_ASSUMED, dense + ": 'lora: 2 * 14GiB'", "padding-free (default)")),
        PostRow("mswift-sft-7b-full-tp2-v4", "swift-megatron-sft", "memory", 78.0, {"preset": "qwen2.5-7b"},
                _t(**mg), num_gpus=2, parallel=tp2, metric="reserved", assumptions=EXPANDABLE, data=SFT_MIX,
                assumed=(GPU_ASSUMED, "examples/megatron/muon.sh (2026-03-24, ms-swift 4 trainer): 'adam(w): 2 * "
                         "78GiB', the dense.sh full command with --optimizer adam", "padding-free (default)")),
        PostRow("mswift-sft-7b-long-32k", "swift-megatron-sft", "memory", 50.0, {"preset": "qwen2.5-7b"},
                _t(**dict(mg, seq_len=32768, micro_batch_size=1, global_batch_size=8, padding_free=False,
                          packing=True)), num_gpus=4, parallel={"tp": 4, "sequence_parallel": True},
                metric="reserved", assumptions=EXPANDABLE,
                assumed=(GPU_ASSUMED, "examples/megatron/long_text.sh: 'GPU Memory: 4 * 50GB' read as the logged "
                         "GiB", "packing: every row holds 32,768 tokens (ASSUMED full rows)")),
        PostRow("mswift-sft-14b-base-to-chat", "swift-megatron-sft", "memory", 65.0, {"preset": "qwen2.5-14b"},
                _t(**dict(mg, recompute="megatron_selective", seq_len=8192, micro_batch_size=1,
                          padding_free=False, packing=True)), num_gpus=8,
                parallel={"tp": 4, "sequence_parallel": True, "zero": 1}, metric="reserved",
                assumptions=EXPANDABLE,
                assumed=(GPU_ASSUMED, "examples/megatron/base_to_chat.sh: '8 * 65GiB'; recompute_granularity "
                         "selective (core_attn)", "use_distributed_optimizer (default True): optimizer over DP 2",
                         "packing: every row holds 8,192 tokens (ASSUMED full rows)")),
    ]


def all_rows() -> list[Row]:
    return _swift_hf_rows() + _swift_megatron_rows() + _swift_megatron_sft_rows()


def _pct(v: list[float], q: float) -> float:
    v = sorted(v)
    return v[min(len(v) - 1, int(round(q * (len(v) - 1))))]


def verl_rows() -> list[tuple[str, float, float]]:
    """(id, published allocated GiB, predicted) for the counted verl rows of ``bench/rl_step_times.py``."""
    import rl_step_times as rl

    out = []
    for rid, _src, scn, pub, _note, _counted in rl.ROWS:
        if "mem" in pub and rid not in rl.MEM_NOT_COUNTED:
            out.append((rid, pub["mem"], rl.predict(scn)["mem"]))
    return out


def main() -> int:
    res = []
    for row in all_rows():
        try:
            pred = predict(row)
        except Exception as exc:  # noqa: BLE001 - a row the core refuses is shown, not counted
            print(f"- {row.id}: refused: {exc}")
            continue
        res.append((row.id, row.table, row.measured, pred, error(row, pred)))
        for a in row.assumed:
            print(f"ASSUMED {row.id}: {a}")
    for rid, pub, pred in verl_rows():
        res.append((rid, "verl-logs", pub, pred, pred / pub - 1.0))
    print("\n| row | table | published GiB | predicted GiB | error |\n|---|---|---:|---:|---:|")
    for rid, table, pub, pred, err in res:
        print(f"| {rid} | {table} | {pub:.1f} | {pred:.1f} | {err:+.1%} |")
    print("\n| table | rows | median |error| | p90 |error| |\n|---|---:|---:|---:|")
    for table in sorted({r[1] for r in res}) + ["all"]:
        errs = [abs(r[4]) for r in res if table in ("all", r[1])]
        print(f"| {table} | {len(errs)} | {statistics.median(errs):.1%} | {_pct(errs, 0.9):.1%} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
