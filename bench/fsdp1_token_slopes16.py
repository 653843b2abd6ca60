"""Issue 35 round 16 (fsdpmem16): where the HF stack's FSDP1 LoRA/QLoRA misses sit, per token, in fms-acceleration's
A100 table (``bench/validate_mem_oos16.py``), as the model now stands. Analysis only: it changes no estimate. Before
fsdpmem16's mechanisms (memory.fsdp1_frozen_units_hold_grads, memory.fsdp1_no_shard) the two-rank Mistral rows
missed 137–174 KiB a token with no fixed part, and Llama-2-70B QLoRA 2 × 2 1,277 (the note's tables).

Usage: python bench/fsdp1_token_slopes16.py

Prints (1) the published and predicted peak-allocated slope between the two batch sizes of each model, method and GPU
count (KiB per token on one GPU; every row is packed 4,096-token samples, so per sample is per token), and (2) each
one-GPU row scored as entered (``parallel.zero`` 3) and at zero 0: torch's FSDP1 turns FULL_SHARD into NO_SHARD at
world size 1 (``torch/distributed/fsdp/_init_utils.py``, the warning "FSDP is switching to use `NO_SHARD` instead of
ShardingStrategy.FULL_SHARD since the world size is 1"), so it gathers nothing and keeps no second copy of any unit,
which the model now follows (``memory.fsdp1_no_shard``); zero 0 also drops the FSDP hooks' held gradients.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "bench"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import validate_mem_oos16 as v  # noqa: E402

from gpuplanner.core.estimate import estimate  # noqa: E402
from gpuplanner.core.scenario import scenario_from_dict  # noqa: E402

PAIRS = [("lora-mistral-1x4", "lora-mistral-1x8"), ("lora-mistral-2x2", "lora-mistral-2x4"),
         ("qlora-mistral-1x4", "qlora-mistral-1x8"), ("qlora-mistral-2x2", "qlora-mistral-2x4"),
         ("qlora-mixtral-1x4", "qlora-mixtral-1x8"), ("qlora-mixtral-2x2", "qlora-mixtral-2x4"),
         ("lora-mixtral-2x2", "lora-mixtral-2x4")]
KIB = 1024.0


def _alloc(row, zero: int | None = None) -> float:
    s = v.scenario(row)
    if zero is not None:
        s["parallel"]["zero"] = zero
    return estimate(scenario_from_dict(s)).memory.metric("allocated")


def slopes() -> list[str]:
    rows = {r[0]: r for r in v.ROWS}
    out = ["| pair | tokens / GPU | published KiB/token | predicted KiB/token | missing KiB/token |",
           "|---|---|---:|---:|---:|"]
    for a, b in PAIRS:
        ra, rb = rows[a], rows[b]
        ta, tb = ra[5] * v.SEQ, rb[5] * v.SEQ
        pub = (v.published(rb) - v.published(ra)) * 2**30 / (tb - ta) / KIB
        mod = (_alloc(rb) - _alloc(ra)) * 2**30 / (tb - ta) / KIB
        out.append(f"| {a} → {b.rsplit('-', 1)[1]} | {ta:,} → {tb:,} | {pub:.0f} | {mod:.0f} | {pub - mod:+.0f} |")
    return out


def one_gpu() -> list[str]:
    out = ["| row | published GiB | zero 3 (as entered) | error | zero 0 (NO_SHARD) | error |",
           "|---|---:|---:|---:|---:|---:|"]
    for row in v.ROWS:
        if row[4] != 1 or row[1] is None or row[3] == "qlora":
            continue  # the one-GPU QLoRA rows are entered at zero 0 already
        pub, z3, z0 = v.published(row), _alloc(row), _alloc(row, 0)
        out.append(f"| {row[0]} | {pub:.2f} | {z3:.2f} | {pub / z3 - 1:+.1%} | {z0:.2f} | {pub / z0 - 1:+.1%} |")
    return out


def gaps() -> list[str]:
    out = ["| row | tokens / GPU | published − predicted GiB | KiB/token |", "|---|---:|---:|---:|"]
    for row in v.ROWS:
        if row[4] != 2 or row[1] is None or row[3] == "full":
            continue
        t = row[5] * v.SEQ
        d = v.published(row) - _alloc(row)
        out.append(f"| {row[0]} | {t:,} | {d:+.2f} | {d * 2**30 / t / KIB:+.0f} |")
    return out


def main() -> int:
    print("\n".join(slopes() + [""] + gaps() + [""] + one_gpu()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
