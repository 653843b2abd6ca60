"""FlashAttention-1 (``attention_kernel: flash1``; issue 35 round 10, helper neox10).

Source: FlashAttention-2 paper (Dao 2023, arXiv:2307.08691, abstract): FlashAttention reaches "only 25-40% of the
theoretical maximum FLOPs/s" on A100 → ceiling 0.325 of the dense 16-bit peak on Ampere, both passes; the backward
recomputes QKᵀ (2.5 × the forward's FLOPs as benchmarks count them) → time factor 2.5 / 2 on the model's 2 × forward.
GPT-NeoX v1.0 (the Pythia runs) pins ``flash-attn==0.2.2``.
"""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from gpuplanner.core import search as S
from gpuplanner.core import timing as T
from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.scenario import scenario_from_dict


def test_constants_from_the_source():
    assert T.FLASH1_AMPERE_CEILING == pytest.approx(0.325)
    assert T.attention_ceiling("megatron", "a100-sxm-80gb", "flash1") == pytest.approx(0.325)
    assert T.attention_bwd_factor("megatron", "a100-sxm-80gb", "flash1") == pytest.approx(1.25)
    # elsewhere FlashAttention-1 is held to FlashAttention-2's figures (an upper bound), never faster
    assert T.attention_ceiling("hf", "h100-sxm-80gb", "flash1") == T.attention_ceiling("hf", "h100-sxm-80gb", "flash2")
    # the defaults do not move: Megatron on an A100 has no ceiling, the HF stack's flash2 neither on Ampere
    assert T.attention_ceiling("megatron", "a100-sxm-80gb") is None
    assert T.attention_ceiling("hf", "a100-sxm-80gb") is None
    with pytest.raises(Exception):
        scenario_from_dict({"model": {"preset": "llama-3.1-8b"}, "training": {"attention_kernel": "flash9"}})


def _s_per_token(seq: int, kernel: str) -> float:
    sc = {"model": {"preset": "llama-3.1-8b"},
          "training": {"framework": "megatron", "precision": "bf16", "seq_len": seq, "micro_batch_size": 1,
                       "global_batch_size": 1, "recompute": "none", "attention_kernel": kernel},
          "parallel": {"tp": 1, "pp": 1, "cp": 1, "zero": 1},
          "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 1}}
    return 1.0 / evaluate(scenario_from_dict(sc)).time_modelled.tokens_per_s_per_gpu


def test_flash1_ampere_attention_time_hand_derived():
    """Llama 3.1 8B on one A100 (Megatron, BF16, no recompute), 64K → 128K tokens (where the GEMM size factor no longer moves): the extra time per token is the
    attention core's; its forward FLOPs grow by d = 8192·32·65536 (causal half of 4·s·h per layer, 32 layers).
    Under flash1 the forward runs d at 0.325 of the A100's 312 TFLOP/s and the backward 2·d × 1.25 at the same rate,
    each times the GEMM size factor 1/(1 + 64/4096) (as in test_mechanics_blackwell_attention): 3.5·d / (0.325 ·
    312e12 · size). Under cuDNN (no ceiling on Ampere) the three passes run at the matmul efficiency, which is above
    0.325, so flash1's growth is the larger."""
    s = 65536
    d = 8192 * 32 * s
    size = 1.0 / (1.0 + 64 / 4096)
    g_cudnn = _s_per_token(2 * s, "cudnn") - _s_per_token(s, "cudnn")
    g_flash1 = _s_per_token(2 * s, "flash1") - _s_per_token(s, "flash1")
    assert g_flash1 == pytest.approx(3.5 * d / (0.325 * 312e12 * size), rel=0.03)
    e = 3 * d / (g_cudnn * 312e12 * size)  # the matmul efficiency read back from the cuDNN growth
    assert 0.325 < e < 0.9
    assert g_flash1 / g_cudnn == pytest.approx((3.5 / 0.325) / (3 / e), rel=0.01)


def _same(a, b, rel=1e-9) -> bool:
    return a == b or math.isclose(float(a), float(b), rel_tol=rel, abs_tol=1e-12)


def test_flash1_search_equals_evaluate():
    """A Pythia-like GPT-NeoX run on A100s with ``attention_kernel: flash1``: the search's arrays equal
    ``evaluate`` of each candidate (tests/test_one_answer.py's rule), and flash1 is slower than the default."""
    d = {"model": {"preset": "llama-3.1-8b"},
         "training": {"framework": "megatron", "method": "pretrain", "precision": "fp16", "seq_len": 2048,
                      "micro_batch_size": 8, "global_batch_size": 1024, "recompute": "full",
                      "attention_kernel": "flash1"},
         "parallel": {"zero": 1}, "data": {"tokens": 2e9},
         "constraints": {"max_gpus": 16, "gpu_candidates": ["a100-sxm-80gb"]}}
    s = scenario_from_dict(d)
    checked = fitting = 0
    for ctx in S.iter_contexts(s):
        c = S.enumerate_candidates(ctx, s.constraints.max_gpus)
        vec = S.evaluate_candidates(ctx, c)
        for i in range(0, len(c["tp"]), max(1, len(c["tp"]) // 10)):
            sc = S.candidate_scenario(ctx, c, int(i))
            ev = evaluate(sc, resolved=replace(ctx.resolved, scenario=sc), prices=ctx.table,
                          overheads=ctx.overheads, rent_vs_build=False)
            assert bool(vec["fits"][i]) == ev.fits
            if ev.fits:
                fitting += 1
                assert _same(vec["train_hours"][i] / 24.0, ev.compute_days), sc.parallel
                assert _same(vec["mfu"][i], ev.mfu_modelled), sc.parallel
                base = scenario_from_dict({**sc.model_dump(), "training": {**sc.training.model_dump(),
                                                                           "attention_kernel": "auto"}})
                assert evaluate(base).time_modelled.tokens_per_s_per_gpu > ev.time_modelled.tokens_per_s_per_gpu
            checked += 1
    assert checked >= 4 and fitting >= 1, (checked, fitting)
