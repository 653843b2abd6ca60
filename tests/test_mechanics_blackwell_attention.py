"""Blackwell's attention kernels at their measured rates (issue 35 round 7, helper bwattn7).

Source: NVIDIA/cudnn-frontend ``benchmark/sdpa_benchmark_bf16_training/artifacts/sdpa_benchmark_results_NVIDIA_B200.csv``
(commit f937055, June 2025; cuDNN 9.10.2, PyTorch 2.8.0 on one B200), BF16, causal, head dim 128, 8K–128K tokens:
cuDNN forward median 1354 TFLOP/s, backward 1056 (on 2.5 × the forward's FLOPs); PyTorch SDPA's FlashAttention-2
backend 408.5 / 344.5. Each pass runs at the lower of the matmul efficiency and the kernel's own rate for that pass.
"""

from __future__ import annotations

import pytest

from gpuplanner.core import timing as T
from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.scenario import scenario_from_dict


def test_constants_from_the_measurements():
    """The ceilings and backward factors are the CSV's medians over 8K–128K, as shares of the B200's 2,250 TFLOP/s."""
    assert T.attention_ceiling("megatron", "b200-180gb") == pytest.approx(1354 / 2250)
    assert T.attention_bwd_factor("megatron", "b200-180gb") == pytest.approx(1.25 * 1354 / 1056)
    assert T.attention_ceiling("hf", "b200-180gb") == pytest.approx(408.5 / 2250)
    assert T.attention_bwd_factor("hf", "b200-180gb") == pytest.approx(1.25 * 408.5 / 344.5)
    # GB200 is the same generation; Hopper keeps its figures (no cuDNN ceiling, FlashAttention-2 0.33 and 1.436)
    assert T.attention_ceiling("megatron", "gb200-186gb") == pytest.approx(1354 / 2250)
    assert T.attention_ceiling("megatron", "h100-sxm-80gb") is None
    assert T.attention_ceiling("hf", "h100-sxm-80gb") == 0.33
    assert T.attention_bwd_factor("hf", "h100-sxm-80gb") == T.FLASH2_BWD_TIME_FACTOR


def _s_per_token(seq: int, gpu: str = "b200-180gb", framework: str = "megatron") -> float:
    sc = {"model": {"preset": "llama-3.1-8b"},
          "training": {"framework": framework, "precision": "bf16", "seq_len": seq, "micro_batch_size": 1,
                       "global_batch_size": 1, "recompute": "none"},
          "parallel": {"tp": 1, "pp": 1, "cp": 1, "zero": 1},
          "hardware": {"gpu": gpu, "num_gpus": 1}}
    return 1.0 / evaluate(scenario_from_dict(sc)).time_modelled.tokens_per_s_per_gpu


def test_cudnn_blackwell_attention_time_hand_derived():
    """Llama 3.1 8B on one B200 (Megatron, BF16, no recompute), 64K → 128K tokens: the extra time per token is the
    attention's. Forward FLOPs per token 2·(s+1)/2·(4096 + 4096)·32 grow by 8192·32·65536. The forward runs at the
    matmul efficiency 0.55 (below cuDNN's 0.60); the backward (2 × forward FLOPs in the model) at cuDNN's
    1056 / 1.25 = 845 TFLOP/s, each times the GEMM size factor 1/(1 + 64/4096). Before this change both passes ran at
    0.55 of 2,250: the per-token growth was 1.3× smaller than now."""
    s = 65536
    d_fwd = 8192 * 32 * s
    size = 1.0 / (1.0 + 64 / 4096)
    fwd_rate = 0.55 * 2250e12 * size
    bwd_rate = 1056e12 / 1.25 * size
    hand = d_fwd / fwd_rate + 2 * d_fwd / bwd_rate
    model = _s_per_token(2 * s) - _s_per_token(s)
    assert model == pytest.approx(hand, rel=0.01)
    old = 3 * d_fwd / fwd_rate
    assert model > 1.25 * old


def test_flash2_blackwell_attention_time_hand_derived():
    """The same growth under PyTorch SDPA's FlashAttention-2 (an HF Trainer run): forward at 408.5, backward at
    344.5 / 1.25 TFLOP/s (both below the matmuls), size factor as above."""
    s = 65536
    d_fwd = 8192 * 32 * s
    size = 1.0 / (1.0 + 64 / 4096)
    hand = d_fwd / (408.5e12 * size) + 2 * d_fwd / (344.5e12 / 1.25 * size)
    model = _s_per_token(2 * s, framework="hf") - _s_per_token(s, framework="hf")
    assert model == pytest.approx(hand, rel=0.03)


def _nemo_b200_tflops(k: int, gbs: int, tp: int, dp: int, cp: int) -> float:
    """NeMo 25.04's Llama 3 8B FP8 long-sequence row on DGX-B200 (docs/source/performance/performance_long_sequence.md),
    as TFLOP/s per GPU with NeMo's formula of the date (flops_formulas.llama3 at e1335c8378: full attention term)."""
    seq = k * 1024
    sc = {"model": {"preset": "llama-3.1-8b"},
          "training": {"framework": "megatron", "precision": "fp8", "fp8_recipe": "te_delayed", "seq_len": seq,
                       "micro_batch_size": 1, "global_batch_size": gbs},
          "parallel": {"tp": tp, "pp": 1, "cp": cp, "zero": 1, "sequence_parallel": tp > 1},
          "hardware": {"gpu": "b200-180gb", "num_gpus": tp * dp * cp}}
    tps = evaluate(scenario_from_dict(sc)).time_modelled.tokens_per_s_per_gpu
    h, L, f, v = 4096, 32, 14336, 128256
    flops_tok = L * h * h * (12 + 12 * 8 / 32 + 18 * f / h + 12 * seq / h + 6 * v / (L * h))
    return tps * flops_tok / 1e12


def test_nemo_b200_long_context_rows():
    """Published 1,671 (8K, DP 2) and 1,608 TFLOP/s (1M, TP 4 DP 4 CP 16). Before: +7% and +42%; now within 12%."""
    assert _nemo_b200_tflops(8, 512, 1, 2, 1) == pytest.approx(1671, rel=0.05)
    assert _nemo_b200_tflops(1024, 4, 4, 4, 16) == pytest.approx(1608, rel=0.12)
