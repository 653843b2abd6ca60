"""Fine-tuning on GeForce cards: published step rates and peak memory against the model (a check, not fitted).

Usage: python bench/validate_geforce_ft.py

The most common fine-tuning job a Shenzhen team plans is LoRA/QLoRA of a 7B-14B model on one or a few RTX
4090/4090D/3090/5090. Two published sets are scored here, each split by GeForce card against a datacenter card run
by the same people with the same script (the control: a miss on both is the tool, a miss on the GeForce row only is
the card):

* ``surogate`` -- invergent-ai/surogate ``benchmarks/speed.md`` @109770269c ("Surogate vs Unsloth"), the Unsloth
  columns. The script is ``benchmarks/run-unsloth.py`` @b83c340c8c: ``FastLanguageModel.from_pretrained(
  max_seq_length=2048, load_in_4bit=False)`` (the "Unsloth NF4" column: ``load_in_4bit=True``, bitsandbytes NF4),
  ``get_peft_model(r=16, lora_alpha=32, lora_dropout=0, all seven linear projections)`` (Unsloth's default
  ``use_gradient_checkpointing="unsloth"``), TRL ``SFTTrainer`` with ``per_device_train_batch_size=2,
  gradient_accumulation_steps=4, optim="adamw_8bit", packing=True, max_length=2048``. The page's formula:
  tokens/s = batch x accumulation x 2048 / seconds per optimizer step, so the packed rows count full. Cards: one RTX
  5090 32GB (the "CUDA 13.1" table) and, as controls, one H100 SXM and one H200. Models Qwen3 0.6B-14B; only 4B,
  8B and 14B are entered (0.6B and 1.7B at 12k-40k tokens/s are the host's launch rate, not a GeForce question).
* ``torchtune`` -- the three RTX 4090 rows of pytorch/torchtune ``README.md`` (Llama 3.1 8B full, LoRA, QLoRA;
  scored in ``bench/validate_time.py``, printed here for the GeForce view).

ASSUMED: bf16 on every card; TRL's packing fills every 2048-token row (the page counts 2048 per row); Unsloth's
Cut Cross-Entropy on (its default on these versions); the "Unsloth NF4" rows use double quantisation (Unsloth's
``BitsAndBytesConfig``). Error: predicted / published - 1 (+ = predicted too fast).
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "bench"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import validate_ft_tools as vft  # noqa: E402

SRC = "invergent-ai/surogate benchmarks/speed.md @109770269c; script benchmarks/run-unsloth.py @b83c340c8c"
#: Qwen3 configs (huggingface.co/Qwen/Qwen3-*/config.json; Qwen3 technical report arXiv 2505.09388 Table 1)
QWEN3 = {
    "4B": {"name": "Qwen3-4B", "hidden_size": 2560, "num_hidden_layers": 36, "num_attention_heads": 32,
           "num_key_value_heads": 8, "head_dim": 128, "intermediate_size": 9728, "vocab_size": 151936,
           "tie_word_embeddings": True},
    "8B": {"preset": "qwen3-8b"},
    "14B": {"name": "Qwen3-14B", "hidden_size": 5120, "num_hidden_layers": 40, "num_attention_heads": 40,
            "num_key_value_heads": 8, "head_dim": 128, "intermediate_size": 17408, "vocab_size": 151936,
            "tie_word_embeddings": False},
}
#: tokens/s published: (card, model) -> (Unsloth NF4, Unsloth BF16); None = not published
SUROGATE = {
    ("rtx-5090-32gb", "4B"): (6000, 6100), ("rtx-5090-32gb", "8B"): (3400, 3500),
    ("h100-sxm-80gb", "4B"): (12600, 13100), ("h100-sxm-80gb", "8B"): (8600, 9100),
    ("h100-sxm-80gb", "14B"): (5200, 5600),
    ("h200-sxm-141gb", "4B"): (12100, 12800), ("h200-sxm-141gb", "8B"): (8400, 9100),
}
GEFORCE = ("rtx-5090-32gb", "rtx-4090-24gb", "rtx-4090d-24gb")


def surogate_rows() -> list[vft.Row]:
    out = []
    for (gpu, size), pubs in SUROGATE.items():
        for method, pub in zip(("qlora", "lora"), pubs):
            if pub is None:
                continue
            t = {"framework": "unsloth", "method": method, "lora_rank": 16, "lora_targets": "all_linear",
                 "seq_len": 2048, "micro_batch_size": 2, "global_batch_size": 8, "optimizer": "adamw_8bit",
                 "flash_attention": True}
            out.append(vft.Row(f"surogate-unsloth-{method}-qwen3-{size.lower()}-{gpu}", "surogate", "tps",
                               float(pub), QWEN3[size], t, gpu=gpu))
    return out


def _pct(v, q):
    return vft._pct(v, q) if v else float("nan")


def score() -> list[tuple[vft.Row, float, float]]:
    return [(r, p, vft.error(r, p)) for r in surogate_rows() for p in (vft.predict(r),)]


def _line(rows: list[tuple[vft.Row, float, float]], label: str) -> str:
    e = [abs(x[2]) for x in rows]
    if not e:
        return f"| {label} | 0 | - | - |"
    return f"| {label} | {len(e)} | {100 * statistics.median(e):.1f}% | {100 * _pct(e, 0.9):.1f}% |"


def main() -> int:
    res = score()
    print(f"# GeForce fine-tuning check ({SRC})\n")
    print("| row | published tok/s | predicted | error |\n|---|---:|---:|---:|")
    for r, p, e in res:
        print(f"| {r.id} | {r.measured:.0f} | {p:.0f} | {100 * e:+.1f}% |")
    print("\n| group | rows | median | p90 |\n|---|---:|---:|---:|")
    print(_line([x for x in res if x[0].gpu in GEFORCE], "GeForce (RTX 5090), Unsloth"))
    print(_line([x for x in res if x[0].gpu not in GEFORCE], "controls (H100 SXM, H200), Unsloth"))
    print(_line(res, "all"))
    ratios = []
    for size in ("4B", "8B"):
        for i, method in enumerate(("qlora", "lora")):
            g = next(p for r, p, _ in res if r.gpu == "rtx-5090-32gb" and QWEN3[size] == r.model and method in r.id)
            h = next(p for r, p, _ in res if r.gpu == "h100-sxm-80gb" and QWEN3[size] == r.model and method in r.id)
            pub = SUROGATE[("rtx-5090-32gb", size)][i] / SUROGATE[("h100-sxm-80gb", size)][i]
            ratios.append((size, method, pub, g / h))
    print("\n5090 / H100 tokens/s, same tool and script (the card alone):\n")
    print("| model | method | published | predicted |\n|---|---|---:|---:|")
    for size, method, pub, pr in ratios:
        print(f"| Qwen3 {size} | {method} | {pub:.3f} | {pr:.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
