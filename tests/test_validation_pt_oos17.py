"""Issue 35 round 17 (ptoos17): the unseen pre-training rows of bench/validate_pt_oos17.py and the softmax backward's
``tmp = grad * output`` kernel (timing.HF_EAGER_SCORES_ELEMS). Hand-derived figures from the sources the bench
names; the "moved" checks fail on main 64ef3985."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import validate_pt_oos17 as v  # noqa: E402


@pytest.fixture(scope="module")
def res():
    return v.results()


def test_readme_formula_reproduces_its_189_tflops():
    # training/README.md: "reaching up to 189 TFLOPs/sec per A100" = GPT3-1.3B, 169k tokens/s on 8 GPUs;
    # 72·l·h²·(1 + s/6h + V/16lh) = 72·24·2048²·(1 + 2048/12288 + 50264/786432) = 8.918e9 FLOPs a token
    f = v.fa_flops_per_token(2048, 24)
    assert f == pytest.approx(72 * 24 * 2048 ** 2 * (1 + 2048 / 12288 + 50264 / (16 * 24 * 2048)))
    assert 169_000 / 8 * f / 1e12 == pytest.approx(189, abs=1.0)  # 188.4: "169k" is rounded
    # the GPT3 figure's FlashAttention bars are the table's rows (149 / 167 / 163 / 189 / 189), not entered twice
    for (name, h, _heads, layers, _b, _g, _z, tps), bar in zip(v.FA_ROWS, (149, 167, 163, 189, 189)):
        # (the table rounds to 1k tokens/s: 85k ± 0.5k is ± 1.1 TFLOP/s at 2.7B)
        assert tps / 8 * v.fa_flops_per_token(h, layers) / 1e12 == pytest.approx(bar, abs=1.5), name


def test_colossal_row_is_the_7b_on_32_gpus():
    # "throughput: 24.26 samples/s, TFLOPS/GPU: 167.43": 24.26 × 4096 / 32 tokens/s/GPU × 8 × 6.74e9 (the evaluator's
    # 8·N with checkpointing) = 167.4 TFLOPS: the 7B model on all 32 GPUs, not the README's "65B"
    tok = 24.26 * 4096 / 32
    assert tok * 8 * 6.74e9 / 1e12 == pytest.approx(167.43, rel=0.01)
    row = next(r for r in v.rows() if r["family"].startswith("Colossal"))
    assert row["pub"] == pytest.approx(tok)
    assert row["scenario"]["hardware"]["num_gpus"] == 32


def test_rows_and_mapping(res):
    assert len(res) == 19 and set(v.BEFORE) == {r["label"] for r in res}
    assert all(r["pred"] is not None for r in res)
    fa = [r for r in v.rows() if r["family"].startswith("FlashAttention")]
    hf = [r for r in v.rows() if r["family"].startswith("Hugging")]
    assert len(fa) == 9 and len(hf) == 8
    # fused kernels entered as the torch_compile field documents; FlashAttention 0.2.2 = FlashAttention-1
    assert all(r["scenario"]["training"]["torch_compile"] for r in fa)
    assert all(r["scenario"]["training"]["attention_kernel"] == "flash1" for r in fa)
    # eager Transformers GPT-2, head dim = hidden / heads (the preset's 64 would be wrong at 1536 / 16 and 2048 / 16)
    for r in hf:
        m = r["scenario"]["model"]
        assert r["scenario"]["training"]["flash_attention"] is False
        assert m["head_dim"] * m["num_attention_heads"] == m["hidden_size"]


def test_unchanged_rows_and_moved_rows(res):
    for r in res:
        if r["family"].startswith("Hugging"):
            # the softmax backward's tmp kernel: slower, toward the published figure (fails on main)
            assert r["pub"] < r["pred"] < r["before"] * 0.97, r["label"]
        else:
            assert r["pred"] == pytest.approx(r["before"], abs=1.0), r["label"]
    n, med, p90, _sgn = v.vbd.stats(res)
    assert n == 19 and med < 0.09 and p90 < 0.60


def test_standard_attention_benchmark_check():
    # FlashAttention-2 Fig. 4 "Pytorch" bars on the A100: the pass count with the softmax backward's tmp kernel
    # against without it (hand: non-causal, head dim 64, 2k: 14 passes → 43.3 TFLOP/s against the published 43)
    assert v.std_attention_tflops(False, 64, 2048) == pytest.approx(43.0, rel=0.02)
    with_tmp, without = v.std_attention_stats(True), v.std_attention_stats(False)
    assert with_tmp[0] < 0.10 and without[0] > 0.20


def test_fragment_wired():
    text = (ROOT / "bench" / "validate_time.py").read_text(encoding="utf-8")
    assert '_fragments("ptoos17.md")' in text
    assert (ROOT / "bench" / "data" / "ptoos17.md").exists()
