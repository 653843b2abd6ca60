"""Issue 35 round 17 (lora17): PEFT's fp32 adapter GEMMs without autocast (``training.mixed_precision_off``) run as
fp32 SGEMM on the CUDA cores — PyTorch has kept TF32 off for matmuls by default since 1.12
(``torch.backends.cuda.matmul.allow_tf32 = False``) — at the card's FP32 rate, not the 16-bit tensor rate
(:func:`timing.lora_gemm_roofline`). Their operands are already fp32 in the memory line (``flops.LORA_NO_AUTOCAST_*``),
so a kernel takes max(fp32 bytes / HBM, FLOPs / FP32 rate). At rank 16 on an A100 they stay memory-bound (8 FLOPs a
byte under the FP32 ridge of 12): nothing moves; at larger ranks the FP32 FLOP time binds."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import numpy as np
import pytest

from gpuplanner.core import timing
from gpuplanner.core.arrayops import ArrayOps, ScalarOps
from gpuplanner.core.estimate import resolve
from gpuplanner.core.timing import time_estimate

sys.path.insert(0, str(Path(__file__).resolve().parent))
import test_mechanics_fsdp_mp_off_r17 as MP  # noqa: E402  (PowerLM-3B, one A100, b4 x 4,096)


def _lay(ops, flag, gemm_b=4.0e6, flops=1.0e9):
    return {"ops": ops, "lora_gemm_tok": gemm_b, "lora_flops_tok": flops, "lora_fp32_gemm": flag}


def test_roofline_by_hand():
    """16-bit path: the shorter of bytes and FLOP time is taken back; fp32 path: the 16-bit FLOP time is taken back
    and only the FP32 FLOP time's excess over the fp32 bytes (2 x the 16-bit operands) is added; no FP32 rate: the
    16-bit pricing."""
    bw, r16, r32 = 2.0e12, 200e12, 20e12
    tb, t16 = 4.0e6 / bw, 1.0e9 / r16  # 2e-6, 5e-6
    assert timing.lora_gemm_roofline(_lay(ScalarOps, False), r16, bw, r32) == pytest.approx(-min(tb, t16))
    # fp32, memory-bound: 1e9 / 20e12 = 5e-5 against 2 x 2e-6 = 4e-6 -> compute-bound here: 5e-5 - 4e-6 - 5e-6
    assert timing.lora_gemm_roofline(_lay(ScalarOps, True), r16, bw, r32) == pytest.approx(5e-5 - 4e-6 - 5e-6)
    # fp32, memory-bound (few FLOPs): only the 16-bit FLOP time comes back out
    low = _lay(ScalarOps, True, flops=4.0e7)
    assert timing.lora_gemm_roofline(low, r16, bw, r32) == pytest.approx(-4.0e7 / r16)
    assert timing.lora_gemm_roofline(_lay(ScalarOps, True), r16, bw, 0.0) == pytest.approx(-min(tb, t16))
    # element-wise over a searched flag (FSDP1 at some ZeRO stages only)
    arr = timing.lora_gemm_roofline(_lay(ArrayOps, np.array([False, True])), r16, bw, r32)
    assert arr == pytest.approx([-min(tb, t16), 5e-5 - 4e-6 - 5e-6])


def _step(rank: int, fp32_known: bool, mp_off: bool = True) -> float:
    orig = timing.gpu_time_facts

    def no_fp32(*a, **k):
        return dataclasses.replace(orig(*a, **k), fp32_tflops=0.0)

    timing.gpu_time_facts = orig if fp32_known else no_fp32
    try:
        return time_estimate(resolve(MP._one_gpu(mixed_precision_off=mp_off, lora_rank=rank))).step_time_s
    finally:
        timing.gpu_time_facts = orig


def test_rank16_memory_bound_nothing_moves():
    """PowerLM-3B q/k/v/o at r 16 on one A100: 2 r = 32 FLOPs per fp32 element moved (8 a byte), under the FP32
    ridge 19.5e12 / (2.039e12 x 0.8) = 12 FLOPs a byte: the fp32 bytes bind, as priced before."""
    assert _step(16, True) == pytest.approx(_step(16, False), rel=1e-12)


def test_rank128_fp32_rate_by_hand():
    """r 128: the adapter FLOPs per token, 2 r (fan_in + fan_out) L over two forwards (full recompute) and a backward
    (dgrad + wgrad: 2): 2 x 128 x 737,280 x 4 = 754,974,720. The shape factor 1 / (1 + 64 / 2,304) / (1 + 128 /
    16,384). 16-bit: matmul efficiency 0.70 x 312 TFLOPS; FP32: 19.5 TFLOPS (the catalog's A100 FP32 peak); the
    16-bit operands 2 B x 737,280 x (2 + 2) over 2.039 TB/s x 0.8, fp32 twice that. Per token: new = max(t32 - 2 tb,
    0) - t16, old = -min(tb, t16); times 16,384 tokens: +0.539 s."""
    h, tokens, rank = 2304, 4 * 4096, 128
    size = 1.0 / (1.0 + 64.0 / h) / (1.0 + 128.0 / tokens)
    d = 2 * MP.D  # fan_in + fan_out, 40 layers
    flops = 2.0 * rank * d * 4.0
    bw = 2.039e12 * timing.MEM_BW_EFFICIENCY
    tb, t16, t32 = 2.0 * d * 4.0 / bw, flops / (312e12 * 0.70 * size), flops / (19.5e12 * size)
    by_hand = (max(t32 - 2.0 * tb, 0.0) - t16 + min(tb, t16)) * tokens
    assert by_hand == pytest.approx(0.539, abs=0.002)
    assert _step(rank, True) - _step(rank, False) == pytest.approx(by_hand, rel=1e-6)


def test_autocast_path_untouched():
    """With autocast (the usual --bf16 run) the adapter GEMMs run in bf16: the FP32 rate changes nothing."""
    assert _step(128, True, mp_off=False) == pytest.approx(_step(128, False, mp_off=False), rel=1e-12)


def test_catalog_rate_reaches_the_model():
    g = timing.gpu_time_facts("a100-sxm-80gb")
    assert g.fp32_tflops == 19.5 and g.kwargs("bf16")["fp32_tflops"] == 19.5
    assert "fp32_tflops" in timing.GPU_TIME_ARGS
