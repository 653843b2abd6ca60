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


# --- LLaMA-Factory: published runs (bench/validate_llamafactory.py holds the rows, sources and ASSUMED notes) ---

def _lf_bench():
    import importlib.util
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "bench" / "validate_llamafactory.py"
    spec = importlib.util.spec_from_file_location("validate_llamafactory", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up while the file runs
    spec.loader.exec_module(mod)
    return mod


LF = _lf_bench()


def test_llamafactory_rows_median_error_bound():
    # The bound is the median |error| measured on 2026-12-01 (23.1% over 5 rows; 7.6% over 6 rows after issue 35
    # r6's cached loss segments of variable-length batches) plus a small margin; it is a
    # regression bound, not a target: the rows are not fitted (docs/validation_methods.md §3 explains the
    # rows that are far off and the mechanisms the core does not model).
    res = LF.results()
    assert len(res) >= 5
    med = statistics.median(abs(e) for *_, e in res)
    assert med <= 0.12, [(r.id, round(est, 2), round(e, 3)) for r, est, e in res]


def test_llamafactory_short_context_rows_within_10_percent():
    # Where activations are small (QLoRA ChatGLM2-6B at 1k, LoRA Qwen2-7B at 1k) the estimate is weights +
    # adapters + the checkpointed activations and must match the published figure closely.
    res = {r.id: e for r, _, e in LF.results()}
    assert abs(res["lf-readme-chatglm2-6b-qlora"]) <= 0.10, res
    # the Qwen2-7B reading is nvidia-smi's: besides the live memory it shows the loss segments cached from an
    # earlier, shorter batch of the user's variable-length data (memory.varlen_cache_bytes_per_logit, issue 35 r6:
    # +1.7 GiB at 1k, +1.8% -> +11.5%); without that cache the estimate stays within 10%
    row = next(r for r in LF.ROWS if r.id == "lf-7409-qwen2-7b-lora-s1024")
    mem = LF.estimate(row)
    assert abs((mem.metric("device") - mem.cached) / row.measured_gib - 1.0) <= 0.10, res
    assert abs(res["lf-7409-qwen2-7b-lora-s1024"]) <= 0.15, res


def test_llamafactory_rows_use_the_profile_default_recompute():
    # the rows never set training.recompute: LLaMA-Factory's default (gradient checkpointing on) applies
    from gpuplanner.core.scenario import scenario_from_dict as sfd

    for r in LF.ROWS:
        assert "recompute" not in r.training
        s = sfd({"model": r.model, "training": {"framework": "llamafactory", **r.training},
                 "hardware": {"gpu": r.gpu}})
        assert s.training.recompute == "full"


def test_llamafactory_hand_derived_weights_of_the_qwen2_row():
    # Qwen2-7B bf16 weights (7,615,616,512 parameters, Qwen2.5-7B dimensions) + rank-8 adapters on all
    # linear layers (28 × 8 × (2·3584+2·(3584+512)+3·(3584+18944)) = 20,185,088, 0.2643% as the issue printed)
    mem = LF.estimate(LF.ROWS[1])
    base = 7_615_616_512 * 2 / 2**30
    adapters = 20_185_088 * 2 / 2**30
    assert mem.weights == pytest.approx(base + adapters, rel=0.01)
    assert 20_185_088 / 7_615_616_512 == pytest.approx(0.002643, rel=0.01)
