"""Issue 35, round 18 (servmoe18): the MoE kernel rows, the batch-1 row and the V905 re-mapping of
``bench/validate_serve_moe18.py`` — figures typed again from the sources, hand-derived bytes, and the scores the note
reports (these fail if the serving model's MoE pricing moves)."""
from __future__ import annotations

import statistics
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import validate_serve_moe18 as v  # noqa: E402

from gpuplanner.core import inference as inf  # noqa: E402
from gpuplanner.core import timing  # noqa: E402


def _row(label, tokens):
    return next(r for r in v.kernel_rows() if r[0] == label and r[1] == tokens)


def test_published_figures_typed_again():
    # vLLM PR #40542's default column (A100, E=64 N=1408 top-6) and PR #44818's (H200, E=128 N=704 top-8)
    assert _row("K40542", 256)[2] == 769.5 and _row("K40542", 16)[2] == 542.6
    assert _row("K44818", 1024)[2] == 536.5 and _row("K44818", 1)[2] == 189.2
    assert len([r for r in v.kernel_rows() if r[0] == "K44818"]) == 18
    # vLLM PR #12637: 154.8 generated tokens/s at batch 1
    assert v.BATCH1_ROWS[0][3] == pytest.approx(6.46, abs=0.005)


def test_expert_layer_weights_and_stream_by_hand():
    m = v.expert_layer(64, 1408, 2048, 6)
    assert m.expert_params == 64 * 3 * 1408 * 2048 == 553_648_128
    # 256 tokens reach 1 - (1 - 6/64)^256 of the experts (all but 1e-11): the whole layer, 1.107 GB at 16 bits
    assert inf.decode_weight_bytes(m, "bf16", 256) == pytest.approx(2 * 553_648_128, rel=1e-9)
    # one token reaches 6 experts' weights: 6 × 3 × 1408 × 2048 × 2 bytes
    assert inf.decode_weight_bytes(m, "bf16", 1) == pytest.approx(6 * 3 * 1408 * 2048 * 2, rel=1e-9)
    # the grouped GEMM's constants are the training model's (timing._moe_terms): T0 128 rows, D0 64 columns
    assert (timing.T0, timing.D0) == (128.0, 64.0)
    assert inf.expert_gemm_width(m, 1) == 1408


def test_full_head_cache_bytes_by_hand():
    m = v.oos19.model("deepseek-v2-lite")
    assert inf.kv_bytes_per_token(m, 2) == 27 * (512 + 64) * 2 == 31_104
    # vLLM's non-MLA DeepseekV2Attention: 16 K and 16 V heads of qk_head_dim 192 (V padded from 128), 27 layers
    assert inf.kv_bytes_per_token(v.full_head_cache(m), 2) == 2 * 27 * 16 * 192 * 2 == 331_776


def test_scores_as_reported():
    ks = v.kernel_rows()
    big = [v.oos19.err(r[2], r[3]) for r in ks if r[1] >= v.SMALL_M]
    small = [v.oos19.err(r[2], r[3]) for r in ks if r[1] < v.SMALL_M]
    assert len(big) == 19 and len(small) == 6
    assert statistics.median(abs(e) for e in big) < 0.03
    assert max(abs(e) for e in big) < 0.18
    # below 16 tokens the kernel takes ~185 µs whatever the card: the model is 1.2-7.6x too fast (the note)
    assert min(small) > 0.19 and max(small) > 6.0
    # the per-expert BLOCK_SIZE_M padding does not bind: no row moves by more than 1%
    assert all(abs(r[4] / r[3] - 1) < 0.011 for r in ks)
    (_, ms, pred, _), = v.batch1_rows()
    assert v.oos19.err(ms, pred) == pytest.approx(-0.056, abs=0.01)
    (_, _, pub, mla), (_, _, _, full) = v.v905_rows()
    assert v.oos19.err(pub, mla) == pytest.approx(-0.659, abs=0.005)
    assert v.oos19.err(pub, full) == pytest.approx(-0.553, abs=0.005)
