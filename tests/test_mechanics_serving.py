"""Serving mechanics (core/inference.py): KV heads replicated under TP, MoE decode reads the experts reached,
prefill stalls inside the latency target, the engine's memory fraction."""

from __future__ import annotations

import pytest

from gpuplanner.core import inference as I
from gpuplanner.core.catalog_hw import get_gpu

GQA = I.ServingModel(name="gqa", params_total=8e9, params_active=8e9, num_layers=32, num_heads=32, num_kv_heads=8,
                     head_dim=128)
MOE = I.ServingModel(name="moe", params_total=47e9, params_active=13e9, num_layers=32, num_heads=32, num_kv_heads=8,
                     head_dim=128, expert_params=45e9, num_experts=8, experts_per_tok=2)
MLA = I.ServingModel(name="mla", params_total=16e9, params_active=3e9, num_layers=27, num_heads=16, num_kv_heads=16,
                     head_dim=128, kv_lora_rank=512, qk_rope_head_dim=64)


def test_kv_heads_replicated_beyond_tp():
    full = I.kv_bytes_per_token(GQA, 2.0)
    assert I.kv_bytes_per_token_per_gpu(GQA, 2.0, 4) == pytest.approx(full / 4)
    assert I.kv_bytes_per_token_per_gpu(GQA, 2.0, 8) == pytest.approx(full / 8)
    # 16 ranks, 8 KV heads: each rank still holds one head (vLLM get_num_kv_heads)
    assert I.kv_bytes_per_token_per_gpu(GQA, 2.0, 16) == pytest.approx(full / 8)
    # MLA: the latent on every rank
    assert I.kv_bytes_per_token_per_gpu(MLA, 2.0, 4) == pytest.approx(I.kv_bytes_per_token(MLA, 2.0))


def test_moe_decode_reads_the_experts_reached():
    one = I.decode_weight_bytes(MOE, "bf16", 1)
    # batch 1: shared weights + k/E of the experts
    assert one == pytest.approx((47e9 - 45e9 + 45e9 * 2 / 8) * 2.0)
    assert I.decode_weight_bytes(MOE, "bf16", 4) == pytest.approx((2e9 + 45e9 * (1 - (6 / 8) ** 4)) * 2.0)
    assert I.decode_weight_bytes(MOE, "bf16", 1000) == pytest.approx(I.weight_bytes(MOE, "bf16"), rel=1e-6)
    assert I.decode_weight_bytes(GQA, "bf16", 1) == I.weight_bytes(GQA, "bf16")


def test_latency_target_counts_prefill_stalls():
    g = get_gpu("h100-sxm-80gb")
    size = I.size_serving(GQA, g, concurrency=200, context_tokens=4096, prompt_tokens=3584, output_tokens=512,
                          tokens_per_s_per_user=20.0)
    pre = I.prefill_s(GQA, g, precision="bf16", prompt=3584, tp=size.tp, eff=I.ServingEfficiency())
    # what each user sees: the step plus the prefills of the batch's other requests, per output token
    per_user = 1.0 / (size.step_s + size.batch_per_replica * pre / 512)
    assert per_user >= 20.0 - 1e-9


def test_memory_utilization_sets_kv_capacity():
    g = get_gpu("h100-sxm-80gb")
    kw = dict(precision="bf16", kv_bytes=2.0, context=4096, tp=1, eff=I.ServingEfficiency())
    assert I.max_batch_by_memory(GQA, g, **kw, utilization=0.5) < I.max_batch_by_memory(GQA, g, **kw)


def test_gddr_cards_reach_a_larger_bandwidth_share():
    eff = I.ServingEfficiency()
    assert I.bandwidth_fraction(get_gpu("rtx-4090-24gb"), eff) == 0.75
    assert I.bandwidth_fraction(get_gpu("l40s-48gb"), eff) == 0.75
    assert I.bandwidth_fraction(get_gpu("h100-sxm-80gb"), eff) == 0.6
    t, bound = I.decode_step_s(GQA, get_gpu("rtx-4090-24gb"), precision="bf16", kv_bytes=2.0, batch=1, context=1,
                               tp=1, eff=eff)
    assert bound == "memory"
    assert t == pytest.approx(16e9 / (1.008e12 * 0.75) + I.kv_bytes_per_token(GQA, 2.0) / (1.008e12 * 0.8),
                              rel=1e-12)
