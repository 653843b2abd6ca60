"""HF Trainer + PEFT LoRA step times published in the Qwen README (bench/validate_peft.py holds the rows, the
configuration read from QwenLM/Qwen finetune.py and the before figures). Nothing is fitted to them; the bounds are
the figures measured when the LoRA mechanisms of issue 35 round 3 went in, with a small margin, so that a change
that moves the model away from these runs fails here."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest


def _bench():
    path = Path(__file__).resolve().parents[1] / "bench" / "validate_peft.py"
    spec = importlib.util.spec_from_file_location("validate_peft", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


V = _bench()


@pytest.fixture(scope="module")
def lora_rows():
    return V.rows("lora")


def test_short_context_closer_than_before(lora_rows):
    # up to 1024 tokens the step is set by the eager host floor and the adapters' passes: p90 of |error| was 113%
    # before (commit e2dee63), 64% with PEFT's autocast casts and kernel counts
    short = [r for r in lora_rows if r["seq"] <= 1024]
    med, p90 = V.stats([r["err"] for r in short])
    med_b, p90_b = V.stats([r["err_before"] for r in short])
    assert p90 < 0.70 < p90_b
    # with the forward's kernels at 24 µs of host time each (methods.EAGER_FWD_OP_S, sourced to gpt-fast's eager
    # decode, not to these rows) the short rows are within −16 … +2% (p90 12%); 10 µs left 1.8B at 256-512 +64%
    assert p90 < 0.20
    for r in short:
        assert abs(r["err"]) < 0.20, r
    assert med < med_b
    # every short row moved towards the published step time (none overshoots into too slow by more than 15%)
    for r in short:
        assert abs(r["err"]) <= abs(r["err_before"]) + 1e-9 or abs(r["err"]) < 0.15


def test_long_context_stays_close(lora_rows):
    # 2048-8192 tokens: GEMM-bound; within 16% either way (the 1.8B rows too fast, the 14B rows too slow — the
    # adapters' traffic weighs 1/h, and Qwen's own fused RMSNorm/rotary kernels are not modelled). Round 9's LoRA
    # roofline (lorapass9: the adapter GEMMs take the longer of their FLOP and byte time, not both) moved the 1.8B
    # 2048-token row from 13% to 15.4% too fast; nothing was added to pull it back
    for r in lora_rows:
        if r["seq"] >= 2048:
            assert abs(r["err"]) < 0.16, r


def test_qwen_rows_map_the_published_configuration():
    sc = V.scenario("7B", "lora", 512)
    t = sc["training"]
    assert (t["lora_rank"], t["lora_dropout"], t["micro_batch_size"], t["global_batch_size"]) == (64, 0.05, 1, 8)
    assert t["recompute"] == "full" and sc["hardware"]["gpu"] == "a100-sxm-80gb"
    assert V.PUBLISHED[("7B", "lora")][0] == 1.2 and V.PUBLISHED[("14B", "lora")][-1] == 36.0


def test_unsloth_over_hf_qlora_ratio_towards_published():
    # Unsloth's benchmark page: 2x over "Hugging Face + FA2" for Llama 3.1 8B QLoRA; the model gave 1.11-1.16x
    # before (HF's per-layer casts, fp32 activations and dequantisation kernels were missing)
    for k, ratio in V.unsloth_ratios().items():
        assert V.UNSLOTH_BEFORE[k] + 0.15 < ratio < 2.2, (k, ratio)
