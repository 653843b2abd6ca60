"""Out-of-sample fine-tuning step times, round 10: published runs no other bench holds (a check, not fitted).

Usage: python bench/validate_ft_step10.py [--write-before FILE] [--before FILE]

Each row is entered as the scenario a user would type; what the source does not state is ``ASSUMED`` (printed).
Before entering a source I grepped ``bench/``, ``tests/`` and ``docs/`` for its path/URL: none was held for step time.

* ``swift-packing`` -- modelscope/ms-swift example scripts, their header lines (snapshot @3602360):
  - ``examples/train/packing/liger_kernel.sh`` (first at this path 11a345d41, 2025-07-31; the header is unchanged
    since): "Env: 4 * A100 ... Max Length: 16K ... GPU Memory: 4 * 42GB, Training Speed 10s/it". ``swift sft``,
    Qwen2.5-7B, full, bf16, ``AI-ModelScope/LongAlpaca-12k``, per-device batch 1, gradient accumulation 2,
    ``--packing true``, ``--max_length 16384``, ``--deepspeed zero3``, ``--use_liger_kernel true``,
    ``--attn_impl flash_attn``.
  - ``examples/train/flash_attention_3/transformers.sh`` (710553d85, 2025-08-01): "test_env: 4 * H20 / fa2: 4 *
    43GiB; 35.5s/it / fa3: 4 * 43GiB; 32.4s/it". The same run with gradient accumulation 4 (and
    ``PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True``). The fa3 row is shown only (FlashAttention-3 is not a
    scenario choice).
  ms-swift's defaults: ``gradient_checkpointing`` true, AdamW. The data set's token statistics (ms-swift
  ``docs/source_en/Instruction/Supported-models-and-datasets.md`` @3602360): 9941.8 +/- 3417.1, min 4695, max 25826.
  Samples over ``max_length`` are dropped (``truncation_strategy`` default ``delete``, ``template_args.py``).
  Packing is ``swift/dataset/packing.py`` ``calculate_matched_group``: ``binpacking.to_constant_volume`` on groups
  of ``PACKING_BATCH_SIZE`` = 1000 samples; with flash attention the packed samples attend only to themselves.
  The memory figures of these headers are not entered here (peak memory is another helper's task this round).
* ``anyscale-axolotl`` -- anyscale/templates, the page "Benchmarking Axolotl vs LLMForge MFUs" (stored file id
  34746245559; the repository path could not be resolved in the partial snapshot): Axolotl at commit
  df359c8a6e14ecdd2e1eb0049bd8143c32421952, Llama-3.1-8B(-Instruct), Alpaca-12K, "sequence length of 2048, and a per
  device batch size of 2 on a 4xA100-80G node with DeepSpeed ZeRO-2", Liger Kernel on, "custom optimizers",
  gradient checkpointing on. Step time from the tqdm bar at the end of training: LoRA 1.22 s/it, full 1.52 s/it.
  The page's own FLOP table (LoRA + GC 200.6 TFLOP, full + GC 261.4 TFLOP per step) gives its MFUs (52.7%,
  55.1%) only with 2 x 2048 tokens per GPU per step: every row full (sample packing) and one micro-batch per step.

Error: predicted / published - 1 in throughput terms (+ = predicted too fast), as the other ft benches.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "bench"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import validate_ft_tools as vft  # noqa: E402

SWIFT_SRC = "modelscope/ms-swift @3602360"
AXO_SRC = "anyscale/templates 'Benchmarking Axolotl vs LLMForge MFUs' (Axolotl df359c8)"
#: LongAlpaca-12k token statistics (ms-swift's dataset table)
LONGALPACA = {"mean_sample_len": 9942, "sample_len_std": 3417.1}

SWIFT_ASSUMED = (
    "A100 SXM 80 GB (the header says '4 * A100'; 42 GB a card rules out the 40 GB card)",
    "rows as packed by ms-swift (entered as the user would: seq_len = max_length, packing, the data set's mean)",
    "the kept samples' mean taken as the data set's (3% of LongAlpaca-12k lies above 16,384 tokens)",
)


def _swift_train(accum: int) -> dict:
    return {"framework": "ms-swift", "method": "full", "precision": "bf16", "seq_len": 16384,
            "micro_batch_size": 1, "global_batch_size": 4 * accum, "packing": True, "flash_attention": True,
            "recompute": "full", "optimizer": "adamw", "liger_kernel": True}


def _axo_train(method: str) -> dict:
    t = {"framework": "axolotl", "method": method, "precision": "bf16", "seq_len": 2048, "micro_batch_size": 2,
         "global_batch_size": 8, "packing": True, "flash_attention": True, "recompute": "full",
         "optimizer": "adamw", "liger_kernel": True}
    if method == "lora":
        t.update(lora_rank=16, lora_targets="all_linear", lora_dropout=0.0)
    return t


AXO_ASSUMED = ("sample packing on and one micro-batch per optimizer step (the page's MFU needs 4,096 tokens a GPU "
               "a step)", "Llama-3.1-8B preset (the page names both the base and the Instruct model)",
               "LoRA rank 16 on every linear layer, dropout 0 (the YAML is not in the stored copy)",
               "AdamW (the page: 'custom optimizers for Axolotl')", "A100 SXM 80 GB, one node")


def all_rows() -> list[vft.Row]:
    q7 = {"preset": "qwen2.5-7b"}
    out = [
        vft.Row("swift-qwen2.5-7b-full-16k-packing-a100", "swift-packing", "step", 10.0, q7, _swift_train(2),
                gpu="a100-sxm-80gb", num_gpus=4, parallel={"zero": 3}, data=dict(LONGALPACA),
                assumed=SWIFT_ASSUMED),
        vft.Row("swift-qwen2.5-7b-full-16k-packing-h20-fa2", "swift-packing", "step", 35.5, q7, _swift_train(4),
                gpu="h20-96gb", num_gpus=4, parallel={"zero": 3}, data=dict(LONGALPACA),
                assumed=SWIFT_ASSUMED[1:]),
        vft.Row("swift-qwen2.5-7b-full-16k-packing-h20-fa3 (shown only)", "swift-packing-shown", "step", 32.4, q7,
                _swift_train(4), gpu="h20-96gb", num_gpus=4, parallel={"zero": 3}, data=dict(LONGALPACA),
                assumed=("FlashAttention-3 priced as FlashAttention-2",)),
        vft.Row("axolotl-llama3.1-8b-lora-zero2", "anyscale-axolotl", "step", 1.22, {"preset": "llama-3.1-8b"},
                _axo_train("lora"), gpu="a100-sxm-80gb", num_gpus=4, parallel={"zero": 2}, assumed=AXO_ASSUMED),
        vft.Row("axolotl-llama3.1-8b-full-zero2", "anyscale-axolotl", "step", 1.52, {"preset": "llama-3.1-8b"},
                _axo_train("full"), gpu="a100-sxm-80gb", num_gpus=4, parallel={"zero": 2},
                assumed=AXO_ASSUMED[:2] + AXO_ASSUMED[3:]),
    ]
    return out


def results() -> list[tuple[vft.Row, float, float]]:
    out = []
    for r in all_rows():
        p = vft.predict(r)
        out.append((r, p, vft.error(r, p)))
    return out


def table(before: dict | None = None) -> list[str]:
    lines = ["| run | published s/step | predicted | error (+ = too fast) | before |", "|---|---:|---:|---:|---:|"]
    scored: dict[str, list[float]] = {}
    for r, p, e in results():
        b = "" if not before or r.id not in before else f"{before[r.id]:+.1%}"
        lines.append(f"| {r.id} | {r.measured:.2f} | {p:.2f} | {e:+.1%} | {b} |")
        if not r.table.endswith("-shown"):
            scored.setdefault(r.table, []).append(e)
    lines.append("")
    for t, errs in scored.items():
        lines.append(f"{t}: {vft.stats_line(errs)}")
    lines.append(f"all scored: {vft.stats_line([e for v in scored.values() for e in v])}")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", type=Path)
    ap.add_argument("--write-before", type=Path)
    a = ap.parse_args(argv)
    before = json.loads(a.before.read_text()) if a.before else None
    print("\n".join(table(before)))
    for r in all_rows():
        for x in r.assumed:
            print(f"ASSUMED {r.id}: {x}")
    if a.write_before:
        a.write_before.write_text(json.dumps({r.id: e for r, _, e in results()}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
