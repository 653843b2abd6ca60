"""Tool profiles against published measurements (docs/validation_methods.md).

Unsloth's context-length benchmark (Unsloth docs, "Unsloth Benchmarks", https://docs.unsloth.ai/basics/unsloth-benchmarks
and unsloth.ai/blog/llama3-3, 2024-12): QLoRA (4-bit) on all linear layers, rank 32, batch 1, sequences padded to
the length shown; the longest context that fits in each card's memory. At that context the run fills the card,
so the estimate of the same run is compared with the card's memory. Nothing here is fitted: the estimate is the
``unsloth`` profile's mechanisms (offloaded gradient checkpointing, Unsloth's LoRA kernels, Cut Cross-Entropy).
"""

from __future__ import annotations

import statistics

import pytest

from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.scenario import scenario_from_dict

SOURCE = "https://docs.unsloth.ai/basics/unsloth-benchmarks"
# (model preset, card memory in GB as published, Unsloth's max context)
UNSLOTH_MAX_CONTEXT = [
    ("llama-3.1-8b", 8, 2972), ("llama-3.1-8b", 12, 21848), ("llama-3.1-8b", 16, 40724),
    ("llama-3.1-8b", 24, 78475), ("llama-3.1-8b", 40, 153977), ("llama-3.1-8b", 48, 191728),
    ("llama-3.1-8b", 80, 342733),
    # Llama 3.3 70B has Llama 3.1 70B's architecture (same config dimensions)
    ("llama-3.1-70b", 48, 12106), ("llama-3.1-70b", 80, 89389),
]


def unsloth_estimate_gib(preset: str, seq: int) -> float:
    t = {"framework": "unsloth", "method": "qlora", "lora_rank": 32, "lora_targets": "all_linear", "seq_len": seq,
         "micro_batch_size": 1, "optimizer": "adamw_8bit"}
    d = {"model": {"preset": preset}, "training": t, "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 1},
         "data": {"tokens": 1e6}}
    return evaluate(scenario_from_dict(d)).memory.total


def rows():
    out = []
    for preset, card, ctx in UNSLOTH_MAX_CONTEXT:
        est = unsloth_estimate_gib(preset, ctx)
        out.append((preset, card, ctx, est, (est - card) / card))
    return out


def test_unsloth_max_context_rows_median_within_10_percent():
    r = rows()
    errs = [abs(e) for *_, e in r]
    assert statistics.median(errs) <= 0.10, r
    assert max(errs) <= 0.30, r


@pytest.mark.parametrize("preset,card,ctx", [(p, c, x) for p, c, x in UNSLOTH_MAX_CONTEXT])
def test_each_unsloth_row_fits_the_card_it_was_measured_on(preset, card, ctx):
    # the published maximum context must be estimated to fit (within 10%) on its card, and twice that
    # context must not
    assert unsloth_estimate_gib(preset, ctx) <= card * 1.10
    assert unsloth_estimate_gib(preset, 2 * ctx) > card
