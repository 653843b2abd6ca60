"""Megatron-SWIFT fine-tuning step times the project had not used (issue 35 round 9, helper megft9).

Usage: python bench/validate_megatron_ft_oos9.py

Every row is a published ``s/it`` comment at the top of a Megatron-SWIFT (``megatron sft``) example script or a
Megatron-SWIFT docs table, at github.com/modelscope/ms-swift commit 3602360a562313afbf2ef6065fdf61f271a2c5b9 (the
commit where each figure was first written is given per row). The figures are Megatron-LM's ``elapsed time per
iteration`` (scripts dated before 2026-02-16) or Megatron-SWIFT's own training bar (later), one optimizer step
each; neither holds evaluation or saving (``bench/validate_post_time.py`` ``FIGURES`` reads both loops).

The scenario is the script's flags as a user would enter them: ``--tensor_model_parallel_size``,
``--pipeline_model_parallel_size``, ``--expert_model_parallel_size``, ``--sequence_parallel``, ``--micro_batch_size``,
``--global_batch_size``, ``--packing`` (rows filled to ``--max_length``), ``--recompute_granularity`` (``full`` with
``uniform`` / 1 layer; ``selective`` = Megatron's core-attention recompute), ``--optimizer_cpu_offload`` with
fraction 1, LoRA ``--lora_rank`` on ``all-linear``, FP8. Megatron-SWIFT's defaults (``megatron_args.py``): the
distributed optimizer on, ``padding_free`` on where ``packing`` is off, flash attention.

Not entered, with the reason:

* ``examples/train/megatron/fp8.sh`` (2025-07-26, 35f592a5f): Qwen2.5-7B, 4 GPUs, "bf16 17.5s/it, fp8 12.5s/it".
  FP8 needs an Ada/Hopper card, and 16 full 8,192-token rows in 17.5 s on 4 Hopper cards is 13% of an H100's
  BF16 peak or 77% of an H20's: the card cannot be told, so the row is not scored.
* Multimodal scripts (``multimodal/``), sequence classification (``seq_cls/``), Moonlight-16B (``deepseek_v3.sh``:
  no preset), MTP and GLM-4.5 (no preset), ``new_special_tokens.sh`` (dataset statistics not published).
* The 2-GPU Qwen2.5-7B full / LoRA rows of ``lora/dense.sh`` are already in ``bench/validate_post_time.py``; they are
  shown here again (``known``) because they are the rows this round's brief is about, not counted as new.

Dataset lengths: ms-swift's ``docs/source_en/Instruction/Supported-models-and-datasets.md`` lists
``liucong/Chinese-DeepSeek-R1-Distill-data-110k-SFT`` at 72.1 ± 60.9 tokens, which cannot be the R1 traces
(thousands of tokens); packed rows are entered as full rows whose attention spans the row (ASSUMED, as
``bench/validate_post_memory.py`` does for the same scripts). LongWriter-6k: 5,009.0 ± 2,932.8 tokens (same table).
function-calling-chatml: 465.3 ± 320.1. Qwen3-SFT-Mixin: not published, ASSUMED 1,000.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SWIFT = "github.com/modelscope/ms-swift 3602360 "
A800 = "a800-sxm-80gb"
A100 = "a100-sxm-80gb"
H20 = "h20-96gb"
#: ms-swift's own benchmarks ran on A800/A100 (Quick-start "Benchmark"); scripts that name no card: ASSUMED
CARD_ASSUMED = "ASSUMED A800-SXM4-80GB (the script names no card; the Megatron-SWIFT benchmark table ran on A800)"
#: Qwen3-14B (huggingface.co/Qwen/Qwen3-14B config.json); no preset ships
QWEN3_14B = {"name": "Qwen3-14B", "hidden_size": 5120, "num_hidden_layers": 40, "num_attention_heads": 40,
             "num_key_value_heads": 8, "head_dim": 128, "intermediate_size": 17408, "gated_mlp": True,
             "vocab_size": 151936, "tie_word_embeddings": False, "qk_norm": True}


def _t(**kw) -> dict:
    t = {"framework": "megatron-swift", "method": "full", "precision": "bf16", "flash_attention": True,
         "optimizer": "adamw", "recompute": "full", "seq_len": 8192, "micro_batch_size": 1, "global_batch_size": 16,
         "packing": True}
    t.update(kw)
    return t


_LORA = {"method": "lora", "lora_rank": 8, "lora_targets": "all_linear"}

#: (id, group, source, published s/it, scenario, card named?)
#: group: ``dense`` (scored), ``moe`` (scored apart), ``known`` (already in validate_post_time.py)
ROWS = [
    ("swift-14b-megatron-a800", "dense",
     SWIFT + "docs/source_en/Megatron-SWIFT/Quick-start.md 'Benchmark' (first 9d297f99a, 2025-03-21): Qwen2.5-14B "
     "8 × A800, Megatron-LM 9.04s/it; script examples/train/megatron/base_to_chat.sh at 9d297f99a (TP 4, SP, "
     "selective recompute, packing 8192, GBS 16)", 9.04,
     {"model": {"preset": "qwen2.5-14b"}, "training": _t(recompute="megatron_selective"),
      "parallel": {"tp": 4, "sequence_parallel": True, "zero": 1}, "hardware": {"gpu": A800, "num_gpus": 8}}, True),
    ("swift-7b-long32k-a100", "dense",
     SWIFT + "examples/megatron/long_text.sh (first 1e9e4a0e1, 2025-05-07): 'Env: 4 * A100 … Training Speed "
     "23s/it'; TP 4, SP, full recompute, packing 32768, GBS 8", 23.0,
     {"model": {"preset": "qwen2.5-7b"}, "training": _t(seq_len=32768, global_batch_size=8),
      "parallel": {"tp": 4, "sequence_parallel": True, "zero": 1}, "hardware": {"gpu": A100, "num_gpus": 4},
      "data": {"mean_sample_len": 5009, "sample_len_std": 2933}}, True),
    ("swift-qwen3-14b-bf16-h20", "dense",
     SWIFT + "examples/megatron/fp8/benchmark.sh (891a9ab3d, 2025-12-08): 'test_env: H20 … BF16: 8 * 52GiB "
     "13s/it'; TP 4, SP, selective recompute, packing 8192, GBS 16, bf16 Adam moments", 13.0,
     {"model": QWEN3_14B, "training": _t(recompute="megatron_selective"),
      "parallel": {"tp": 4, "sequence_parallel": True, "zero": 1}, "hardware": {"gpu": H20, "num_gpus": 8}}, True),
    ("swift-qwen3-14b-fp8-h20", "dense",
     SWIFT + "examples/megatron/fp8/benchmark.sh (891a9ab3d): 'FP8: 8 * 58GiB 8s/it'; --fp8_recipe blockwise "
     "(entered as TE current scaling, the closest recipe the scenario has), --fp8_param_gather", 8.0,
     {"model": QWEN3_14B, "training": _t(recompute="megatron_selective", precision="fp8", fp8_recipe="te_current",
                                         fp8_all_gather=True),
      "parallel": {"tp": 4, "sequence_parallel": True, "zero": 1}, "hardware": {"gpu": H20, "num_gpus": 8}}, True),
    ("swift-72b-offload", "dense",
     SWIFT + "examples/megatron/dense/72b_offload.sh: '8 * 65GiB. 80s/it'; Qwen2.5-72B TP 8, SP, full recompute, "
     "packing 8192, GBS 16, optimizer_cpu_offload fraction 1 with the precision-aware optimizer", 80.0,
     {"model": {"preset": "qwen2.5-72b"}, "training": _t(),
      "parallel": {"tp": 8, "sequence_parallel": True, "zero": 1, "offload_optimizer": True},
      "hardware": {"gpu": A800, "num_gpus": 8}}, False),
    ("swift-qwen3-30b-a3b-megatron-a800", "moe",
     SWIFT + "docs/source_en/Megatron-SWIFT/Quick-start.md 'Benchmark' MoE (first ad907793e, 2025-04-29): Qwen3-30B-"
     "A3B, 16 × A800, Megatron-LM 9.6s/it; the run is examples/train/megatron/qwen3_moe.sh as written with the "
     "figure at ad907793e: TP 2, SP, EP 8, expert TP = TP 2 (ms-swift had no expert_tensor_parallel_size field "
     "until 9f5fcf5c3, 2025-09-24, so Megatron-LM's default 'same as TP' held), full recompute, packing 8192, "
     "GBS 16. The script became PP 2 / EP 8 at 37c5319fa (2025-07-19) with the same comment (not re-measured; "
     "swiftmoe9)", 9.6,
     {"model": {"preset": "qwen3-30b-a3b"}, "training": _t(),
      "parallel": {"tp": 2, "ep": 8, "expert_tp": 2, "sequence_parallel": True, "zero": 1},
      "hardware": {"gpu": A800, "num_gpus": 16, "gpus_per_node": 8}},
     True),
    ("swift-qwen1.5-moe-pp2ep4", "moe",
     SWIFT + "examples/megatron/moe/moe.sh: '8 * 57GiB, 2.95s/it'; Qwen1.5-MoE-A2.7B PP 2, EP 4, full recompute, "
     "packing 8192, GBS 16 (decoder_last_pipeline_num_layers 11 not entered)", 2.95,
     {"model": {"preset": "qwen1.5-moe-a2.7b"}, "training": _t(),
      "parallel": {"pp": 2, "ep": 4, "zero": 1}, "hardware": {"gpu": A800, "num_gpus": 8}}, False),
    ("swift-qwen3-30b-a3b-offload", "moe",
     SWIFT + "examples/megatron/moe/qwen3_moe_offload.sh: '28s/it; 4 * 75GiB'; EP 4, full recompute, packing 8192, "
     "GBS 16, optimizer_cpu_offload fraction 1", 28.0,
     {"model": {"preset": "qwen3-30b-a3b"}, "training": _t(),
      "parallel": {"ep": 4, "zero": 1, "offload_optimizer": True}, "hardware": {"gpu": A800, "num_gpus": 4}}, False),
    ("swift-qwen3-30b-a3b-bridge-tp4pp2ep4", "moe",
     SWIFT + "examples/megatron/mcore_bridge/full/moe.sh: '8 * 76GiB, 3s/it'; TP 4, PP 2, EP 4, full recompute, "
     "packing 8192, GBS 4 (capacity factor 2 not entered)", 3.0,
     {"model": {"preset": "qwen3-30b-a3b"}, "training": _t(global_batch_size=4),
      "parallel": {"tp": 4, "pp": 2, "ep": 4, "expert_tp": 1, "sequence_parallel": True, "zero": 1},
      "hardware": {"gpu": A800, "num_gpus": 8}}, False),
    ("swift-qwen3-30b-a3b-lora-ep2", "moe",
     SWIFT + "examples/megatron/lora/moe.sh: '2 * 62GiB, 5.10s/it'; LoRA r 8 all-linear, EP 2, MBS 8, GBS 16, "
     "max_length 2048, padding-free, full recompute; Qwen3-SFT-Mixin#2000 (mean ASSUMED 1,000)", 5.10,
     {"model": {"preset": "qwen3-30b-a3b"}, "training": _t(**_LORA, seq_len=2048, micro_batch_size=8,
                                                           packing=False, padding_free=True),
      "parallel": {"ep": 2, "zero": 1}, "hardware": {"gpu": A800, "num_gpus": 2},
      "data": {"mean_sample_len": 1000}}, False),
    ("swift-qwen3-30b-a3b-lora-loss-scale", "moe",
     SWIFT + "examples/megatron/lora/loss_scale.sh: '2 * 60GiB, 3.4s/it'; LoRA r 8 all-linear (+ embeddings and "
     "output layer trained, not entered), EP 2, MBS 8, GBS 16, max_length 2048, padding-free; function-calling-"
     "chatml 465.3 ± 320.1 tokens", 3.4,
     {"model": {"preset": "qwen3-30b-a3b"}, "training": _t(**_LORA, seq_len=2048, micro_batch_size=8,
                                                           packing=False, padding_free=True),
      "parallel": {"ep": 2, "sequence_parallel": True, "zero": 1}, "hardware": {"gpu": A800, "num_gpus": 2},
      "data": {"mean_sample_len": 465, "sample_len_std": 320}}, False),
    ("swift-qwen3-235b-lora-tp4ep8", "moe",
     SWIFT + "examples/megatron/lora/qwen3_235b.sh: '8 * 80GiB, 3.2s/it'; LoRA r 8 all-linear, TP 4, EP 8, ETP 1, "
     "MBS 8, GBS 16, max_length 2048, padding-free; Chinese-Qwen3-235B-2507-Distill#2000 (mean ASSUMED 1,000)", 3.2,
     {"model": {"preset": "qwen3-235b-a22b"}, "training": _t(**_LORA, seq_len=2048, micro_batch_size=8,
                                                             packing=False, padding_free=True),
      "parallel": {"tp": 4, "ep": 8, "expert_tp": 1, "sequence_parallel": True, "zero": 1},
      "hardware": {"gpu": A800, "num_gpus": 8}, "data": {"mean_sample_len": 1000}}, False),
    ("swift-qwen3-30b-a3b-lora-special-tokens", "moe",
     SWIFT + "examples/megatron/lora/new_special_tokens.sh (first 7f9360b33, 2025-07-15): '2 * 60GiB, "
     "2.7s/it'; LoRA r 8 all-linear (+ embeddings and output layer trained, not entered), EP 2, MBS 32, GBS 64, "
     "max_length 2048, padding-free; swift/new_special_tokens (lengths not published: mean ASSUMED 300)", 2.7,
     {"model": {"preset": "qwen3-30b-a3b"}, "training": _t(**_LORA, seq_len=2048, micro_batch_size=32,
                                                           global_batch_size=64, packing=False, padding_free=True),
      "parallel": {"ep": 2, "sequence_parallel": True, "zero": 1}, "hardware": {"gpu": A800, "num_gpus": 2},
      "data": {"mean_sample_len": 300}}, False),
    ("swift-qwen3-235b-lora-ep8-v1", "moe",
     SWIFT + "examples/train/megatron/lora/qwen3_235b.sh at 98c652525 (2025-07-23): '8 * 90GiB, 3.5s/it' (a card "
     "over 80 GiB: H20 96GB ASSUMED, the card of ms-swift's later fp8 benchmark); LoRA r 8 all-linear, EP 8, MBS 2, "
     "GBS 16, max_length 2048, padding-free; Chinese-Qwen3-235B-2507-Distill#2000 + self-cognition#1000 (mean "
     "ASSUMED 1,000)", 3.5,
     {"model": {"preset": "qwen3-235b-a22b"}, "training": _t(**_LORA, seq_len=2048, micro_batch_size=2,
                                                             packing=False, padding_free=True),
      "parallel": {"ep": 8, "sequence_parallel": True, "zero": 1}, "hardware": {"gpu": H20, "num_gpus": 8},
      "data": {"mean_sample_len": 1000}}, False),
    ("swift-qwen3-235b-lora-pp4ep2-offload-v1", "moe",
     SWIFT + "examples/train/megatron/lora/qwen3_235b.sh at 98c652525: '8 * 78GiB; 9.5s/it', the 80 GiB variant: "
     "EP 2, PP 4 (first/last stage 23 layers, not entered), MBS 8, GBS 16, optimizer_cpu_offload with the precision-"
     "aware optimizer", 9.5,
     {"model": {"preset": "qwen3-235b-a22b"}, "training": _t(**_LORA, seq_len=2048, micro_batch_size=8,
                                                             packing=False, padding_free=True),
      "parallel": {"pp": 4, "ep": 2, "sequence_parallel": True, "zero": 1, "offload_optimizer": True},
      "hardware": {"gpu": A800, "num_gpus": 8}, "data": {"mean_sample_len": 1000}}, False),
    ("swift-qwen1.5-moe-pp2ep4-v1", "moe",
     SWIFT + "examples/train/megatron/moe/moe.sh at ea23c5e9d: 'pp2ep4: 7 * 73GiB, 2.5s/it'; PP 2, EP 4, SP, "
     "selective recompute, packing 8192, GBS 16", 2.5,
     {"model": {"preset": "qwen1.5-moe-a2.7b"}, "training": _t(recompute="megatron_selective"),
      "parallel": {"pp": 2, "ep": 4, "zero": 1}, "hardware": {"gpu": A800, "num_gpus": 8}}, False),
    ("swift-qwen1.5-moe-tp2ep4-v1", "moe",
     SWIFT + "examples/train/megatron/moe/moe.sh at ea23c5e9d: 'tp2ep4: 8 * 65GiB, 3s/it'; TP 2, EP 4 (ETP 1), SP, "
     "selective recompute, packing 8192, GBS 16", 3.0,
     {"model": {"preset": "qwen1.5-moe-a2.7b"}, "training": _t(recompute="megatron_selective"),
      "parallel": {"tp": 2, "ep": 4, "expert_tp": 1, "sequence_parallel": True, "zero": 1},
      "hardware": {"gpu": A800, "num_gpus": 8}}, False),
    ("mswift-sft-7b-full-tp2", "known",
     SWIFT + "examples/megatron/lora/dense.sh: 'full: 2 * 70GiB 0.61s/it' (also in validate_post_time.py)", 0.61,
     {"model": {"preset": "qwen2.5-7b"}, "training": _t(seq_len=2048, micro_batch_size=16, packing=False,
                                                        padding_free=True),
      "parallel": {"tp": 2, "sequence_parallel": True}, "hardware": {"gpu": A100, "num_gpus": 2},
      "data": {"mean_sample_len": 128}}, False),
    ("mswift-sft-7b-lora-tp2", "known",
     SWIFT + "examples/megatron/lora/dense.sh: 'lora: 2 * 14GiB 0.45s/it' (also in validate_post_time.py)", 0.45,
     {"model": {"preset": "qwen2.5-7b"}, "training": _t(**_LORA, seq_len=2048, micro_batch_size=16, packing=False,
                                                        padding_free=True),
      "parallel": {"tp": 2, "sequence_parallel": True}, "hardware": {"gpu": A100, "num_gpus": 2},
      "data": {"mean_sample_len": 128}}, False),
]

#: the model's step time (s) on main at 9e22ec1, before this round's change (rows entered and scored first)
BEFORE = {
    "swift-14b-megatron-a800": 8.755, "swift-7b-long32k-a100": 20.838, "swift-qwen3-14b-bf16-h20": 17.836,
    "swift-qwen3-14b-fp8-h20": 13.930, "swift-72b-offload": 96.121, "swift-qwen3-30b-a3b-megatron-a800": 3.020,
    "swift-qwen1.5-moe-pp2ep4": 2.791, "swift-qwen3-30b-a3b-offload": 26.525,
    "swift-qwen3-30b-a3b-bridge-tp4pp2ep4": 1.547, "swift-qwen3-30b-a3b-lora-ep2": 1.619,
    "swift-qwen3-30b-a3b-lora-loss-scale": 0.809, "swift-qwen3-235b-lora-tp4ep8": 2.291,
    "swift-qwen3-30b-a3b-lora-special-tokens": 1.866, "swift-qwen3-235b-lora-ep8-v1": 3.617,
    "swift-qwen3-235b-lora-pp4ep2-offload-v1": 8.909, "swift-qwen1.5-moe-pp2ep4-v1": 2.333,
    "swift-qwen1.5-moe-tp2ep4-v1": 1.846, "mswift-sft-7b-full-tp2": 0.407, "mswift-sft-7b-lora-tp2": 0.273,
}

#: published ratios of two rows of one script (the card, data and length cancel)
RATIOS = [("Qwen3-14B on 8 H20: BF16 / FP8 (blockwise)", "swift-qwen3-14b-bf16-h20", "swift-qwen3-14b-fp8-h20"),
          ("Qwen2.5-7B TP 2: full / LoRA", "mswift-sft-7b-full-tp2", "mswift-sft-7b-lora-tp2")]


def _with_assumptions(sc: dict) -> dict:
    return {**sc, "assumptions": {"expandable_segments": True}}


def predict(sc: dict):
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import scenario_from_dict
    from gpuplanner.core.timing import time_estimate

    return time_estimate(resolve(scenario_from_dict(_with_assumptions(sc))))


def results() -> list[dict]:
    out = []
    for rid, group, src, pub, sc, named in ROWS:
        t = predict(sc)
        bd = {**{k: v for k, v in t.seconds.items() if k != "compute"}, **t.parts}
        top = sorted(bd.items(), key=lambda kv: -kv[1])[:3]
        out.append({"id": rid, "group": group, "pub": pub, "pred": t.step_time_s, "named": named, "src": src,
                    "compute": t.seconds.get("compute", 0.0),
                    "top": ", ".join(f"{k} {v / t.step_time_s:.0%}" for k, v in top)})
    return out


def _p90(a: list[float]) -> float:
    v = sorted(a)
    pos = (len(v) - 1) * 0.9
    lo = int(pos)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (pos - lo)


def summary(res: list[dict]) -> list[str]:
    """Median / p90 of |error| (error = published / predicted − 1: + means predicted too fast) per group."""
    lines = []
    for name, keep in (("dense (new)", lambda r: r["group"] == "dense"), ("MoE (new)", lambda r: r["group"] == "moe"),
                       ("all new", lambda r: r["group"] != "known"), ("known TP 2 rows", lambda r: r["group"] == "known")):
        errs = [r["pub"] / r["pred"] - 1 for r in res if keep(r)]
        a = [abs(e) for e in errs]
        b = [abs(r["pub"] / BEFORE[r["id"]] - 1) for r in res if keep(r)]
        lines.append(f"- {name}: {len(a)} rows, |error| median {statistics.median(a):.1%}, p90 {_p90(a):.1%}, "
                     f"signed median {statistics.median(errs):+.1%} (before: {statistics.median(b):.1%} / "
                     f"{_p90(b):.1%})")
    return lines


def table() -> list[str]:
    res = results()
    by = {r["id"]: r for r in res}
    lines = ["| row | group | card | published s/it | before s | error before | predicted s | error | largest parts |",
             "|---|---|---|---:|---:|---:|---:|---:|---|"]
    for r in res:
        b = BEFORE[r["id"]]
        lines.append(f"| {r['id']} | {r['group']} | {'named' if r['named'] else 'ASSUMED'} | {r['pub']:.2f} | "
                     f"{b:.2f} | {r['pub'] / b - 1:+.1%} | {r['pred']:.2f} | {r['pub'] / r['pred'] - 1:+.1%} | "
                     f"{r['top']} |")
    lines += ["", "Error = published / predicted − 1 (+: the model is too fast).", ""]
    lines += summary(res)
    lines += ["", "| ratio | published | model | error |", "|---|---:|---:|---:|"]
    for name, a, b in RATIOS:
        pub = by[a]["pub"] / by[b]["pub"]
        mod = by[a]["pred"] / by[b]["pred"]
        lines.append(f"| {name} | {pub:.2f} | {mod:.2f} | {pub / mod - 1:+.1%} |")
    return lines


#: cards the unnamed-card rows could have run on (ms-swift's tables name A800 SXM and H20; the TP 2 script's
#: "2 * 70GiB" fits any 80 GB card)
CARDS = ("a800-sxm-80gb", "a800-pcie-80gb", "h20-96gb", "h800-sxm-80gb")


def card_sensitivity() -> list[str]:
    """The rows whose card is not named, predicted on each of :data:`CARDS` (error = published / predicted − 1)."""
    import copy

    lines = ["| row | published s/it | " + " | ".join(CARDS) + " |", "|---|---:|" + "---:|" * len(CARDS)]
    for rid, _g, _src, pub, sc, named in ROWS:
        if named:
            continue
        cells = []
        for gpu in CARDS:
            d = copy.deepcopy(sc)
            d["hardware"]["gpu"] = gpu
            cells.append(f"{pub / predict(d).step_time_s - 1:+.0%}")
        lines.append(f"| {rid} | {pub:.2f} | " + " | ".join(cells) + " |")
    return lines


def main() -> int:
    try:
        print("\n".join(table()))
        print("\nRows whose card is not named, on other cards:\n")
        print("\n".join(card_sensitivity()))
        print("\nSources:")
        for rid, _g, src, *_ in ROWS:
            print(f"- {rid}: {src}")
    except BrokenPipeError:
        pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
