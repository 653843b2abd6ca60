"""Out-of-sample fine-tuning peak memory, round 10: published rows no other bench holds (not fitted).

Usage: python bench/validate_ft_oos10.py [--before FILE] [--write-before FILE]

Before entering a row I grepped ``bench/`` and ``tests/`` for its figure and model: the Unsloth column of the table
below is in ``tests/test_validation_tools.py``, and its "Hugging Face + FA2" figure on 80 GB for Llama 3.1 8B
(28,454) is in ``bench/validate_ft_tools.py``. Every other figure here is new.

* ``unsloth-docs-hf`` -- Unsloth docs "Unsloth Benchmarks" (https://docs.unsloth.ai/basics/unsloth-benchmarks, also
  unsloth.ai/blog/llama3-3, 2024-12), "Llama 3.1 (8B) max. context length" and "Llama 3.3 (70B) max. context
  length", column "Hugging Face + FA2": Llama 3.1 8B Instruct / Llama 3.3 70B Instruct, "4bit QLoRA on all linear
  layers (Q, K, V, O, gate, up and down) with rank = 32 with a batch size of 1", sequences padded to the length shown;
  the longest context that fits each card (70B: "on a 80GB A100"). 8B: 12 GB 932, 16 GB 2,551, 24 GB 5,789, 40 GB
  12,264, 48 GB 15,502 tokens (8 GB: OOM); 70B: 80 GB 6,916 (48 GB: OOM). Entered as ``bench/validate_ft_tools.py``
  enters the 80 GB row: TRL's SFTTrainer (``framework: trl``, its gradient checkpointing, PEFT's kbit preparation),
  8-bit AdamW (ASSUMED, as the Unsloth column's rows), the card's GB compared with the device total in GiB.
* ``unsloth-blog-old`` -- unsloth.ai/blog/llama3-3, the same 70B table's "Unsloth (Old)" column (Unsloth before
  Apple's Cut Cross-Entropy, ``training.cut_cross_entropy: false``): 48 GB 7,385, 80 GB 48,447 tokens; and
  unsloth.ai/blog/llama3-1 (2024-07-23): "On 1xA100 80GB GPU, Llama 3.1 (70B) with Unsloth can fit 48K total tokens
  (8192 * bsz of 5)". Framework ``unsloth``, the same QLoRA settings.

The OOM statements are checked, not scored: at 512 tokens the model must exceed the card.

Error: predicted / published - 1 (+ = predicted too much memory).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "bench"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import validate_ft_tools as vft  # noqa: E402

DOCS_SRC = "https://docs.unsloth.ai/basics/unsloth-benchmarks (unsloth.ai/blog/llama3-3, 2024-12)"
OLD_SRC = "https://unsloth.ai/blog/llama3-3 'Unsloth (Old)'; https://unsloth.ai/blog/llama3-1 (2024-07-23)"
QLORA = {"method": "qlora", "lora_rank": 32, "lora_targets": "all_linear", "micro_batch_size": 1,
         "optimizer": "adamw_8bit"}
#: (model preset, card GB, Hugging Face + FA2 max context); Llama 3.3 70B has Llama 3.1 70B's dimensions
HF_FA2 = [("llama-3.1-8b", 12, 932), ("llama-3.1-8b", 16, 2551), ("llama-3.1-8b", 24, 5789),
          ("llama-3.1-8b", 40, 12264), ("llama-3.1-8b", 48, 15502), ("llama-3.1-70b", 80, 6916)]
#: (model preset, card GB, context, batch): Unsloth before Cut Cross-Entropy
UNSLOTH_OLD = [("llama-3.1-70b", 48, 7385, 1), ("llama-3.1-70b", 80, 48447, 1), ("llama-3.1-70b", 80, 8192, 5)]
#: (model preset, card GB, framework): the tables' OOM cells
OOM = [("llama-3.1-8b", 8, "trl"), ("llama-3.1-70b", 48, "trl")]
ASSUMED = ("the card's GB compared with the device total in GiB (as the Unsloth column's test does)",
           "8-bit AdamW, as the Unsloth column's rows", "LoRA dropout 0 (Unsloth's default; the HF side's not stated)")


def all_rows() -> list[vft.Row]:
    out = []
    for preset, gb, ctx in HF_FA2:
        t = dict(QLORA, framework="trl", seq_len=ctx, flash_attention=True)
        out.append(vft.Row(f"unsloth-docs-hf-fa2-{preset}-{gb}gb", "unsloth-docs-hf", "memory", float(gb),
                           {"preset": preset}, t, assumed=ASSUMED + (DOCS_SRC,)))
    for preset, gb, ctx, b in UNSLOTH_OLD:
        t = dict(QLORA, framework="unsloth", seq_len=ctx, micro_batch_size=b, cut_cross_entropy=False)
        out.append(vft.Row(f"unsloth-old-{preset}-{gb}gb-{ctx}x{b}", "unsloth-blog-old", "memory", float(gb),
                           {"preset": preset}, t, assumed=ASSUMED + (OLD_SRC,)))
    return out


def oom_checks() -> list[tuple[str, int, float]]:
    """(preset, card GB, the model's device GiB at 512 tokens): each must exceed the card."""
    res = []
    for preset, gb, fw in OOM:
        t = dict(QLORA, framework=fw, seq_len=512, flash_attention=True)
        res.append((preset, gb, vft.predict(vft.Row("oom", "oom", "memory", float(gb), {"preset": preset}, t))))
    return res


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", type=Path, help="a JSON file written by --write-before (prints before -> now)")
    ap.add_argument("--write-before", type=Path, help="write this run's predictions as JSON")
    args = ap.parse_args(argv)
    before = json.loads(args.before.read_text()) if args.before else {}
    res = [(r, p, vft.error(r, p)) for r in all_rows() for p in (vft.predict(r),)]
    print("| row | published | before | now | error before | error now |\n|---|---:|---:|---:|---:|---:|")
    for r, p, e in res:
        b = before.get(r.id)
        bs, be = ("—", "—") if b is None else (f"{b:.2f}", f"{vft.error(r, b):+.1%}")
        print(f"| {r.id} | {r.measured:.2f} | {bs} | {p:.2f} | {be} | {e:+.1%} |")
    print("\n| table | rows | median | p90 |\n|---|---:|---:|---:|")
    for k, (n, med, p90) in sorted(vft.summary(res).items()):
        print(f"| {k} | {n} | {med:.1%} | {p90:.1%} |")
    print(f"\nsigned median: {statistics.median(e for _, _, e in res):+.1%}")
    for preset, gb, gib in oom_checks():
        print(f"OOM check {preset} on {gb} GB at 512 tokens: model {gib:.2f} GiB ({'OOM' if gib > gb else 'FITS'})")
    if args.write_before:
        args.write_before.write_text(json.dumps({r.id: p for r, p, _ in res}, indent=0))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
