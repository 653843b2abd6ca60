"""Context-parallel exchange: this tensor-parallel rank's heads only; torchtitan's repeated K/V heads and fp32
dK/dV; Transformer Engine's KV heads and 16-bit dK/dV (core/timing.py, time_layout)."""

from __future__ import annotations

import pytest

from gpuplanner.core import timing as T
from gpuplanner.core.estimate import resolve
from gpuplanner.core.scenario import scenario_from_dict


def lay(framework, tp, cp=4, seq=65536):
    r = resolve(scenario_from_dict({
        "model": {"preset": "llama-3.1-70b"},
        "training": {"framework": framework, "seq_len": seq, "micro_batch_size": 1},
        "parallel": {"tp": tp, "cp": cp, "zero": 1 if framework == "megatron" else 3, "sequence_parallel": tp > 1},
        "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 64}}))
    kw, _ = T.time_kwargs(r)
    kw = {k: v for k, v in kw.items() if k not in T.GPU_TIME_ARGS}
    return T.time_layout(r.facts, **kw, tp=tp, pp=1, cp=cp, ep=1, dp=64 // (tp * cp), zero=1, recompute=0, mbs=1,
                         sp=tp > 1, grad_accum=1, vpp=1, num_gpus=64, gpus_per_node=8), r.facts


def test_megatron_ring_bytes_per_tp_rank():
    l1, m = lay("megatron", 1)
    l8, _ = lay("megatron", 8)
    tokens = 65536 / 4
    # K and V (2 × 16-bit) of the chunk, forward once, backward K/V + dK/dV: 3 passes over cp − 1 ring steps
    assert l1["cp_bytes"] == pytest.approx(3 * 3 * tokens * 2 * 2 * m.kv_dim)
    # TP 8 over 8 KV heads: one head per rank
    assert l8["cp_bytes"] == pytest.approx(l1["cp_bytes"] / 8)


def test_torchtitan_ring_repeats_heads_and_fp32_grads():
    l1, m = lay("fsdp", 1)
    tokens = 65536 / 4
    assert l1["cp_bytes"] == pytest.approx(5 * 3 * tokens * 2 * 2 * m.q_dim)
    l2, _ = lay("fsdp", 2)
    assert l2["cp_bytes"] == pytest.approx(l1["cp_bytes"] / 2)


def test_torch_ring_merge_traffic_hand_derived():
    """torch's ring attention merges partial outputs and accumulates dQ/dK/dV in fp32 on the compute stream
    (timing.cp_merge_bytes); Transformer Engine's fused ring (Megatron) has no such part here."""
    l4, m = lay("fsdp", 1, cp=4)
    per_elem = (3 * 40.5 + 12.0) + 4 * 58.5 + 18.0  # no recompute: forward merges once, backward every step
    assert T.cp_merge_bytes(4.0, 0.0) == pytest.approx(per_elem)
    assert l4["cp_merge_tok"] == pytest.approx(per_elem * m.q_dim * m.L / 4)
    assert T.cp_merge_bytes(8.0, 1.0) > 2 * T.cp_merge_bytes(4.0, 1.0) - 30  # grows with the ring's steps
    assert lay("megatron", 1)[0]["cp_merge_tok"] == 0.0
    assert lay("fsdp", 1, cp=1)[0]["cp_merge_tok"] == 0.0


def test_torchtitan_256k_names_the_merge_and_is_slower():
    from gpuplanner.core.estimate import estimate
    sc = {"model": {"preset": "llama-3.1-8b"},
          "training": {"framework": "fsdp", "seq_len": 262144, "micro_batch_size": 1, "recompute": "full",
                       "torch_compile": True, "precision": "fp8_tensorwise", "global_batch_size": 1},
          "parallel": {"zero": 3, "cp": 8}, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}}
    t = estimate(scenario_from_dict(sc)).time
    assert 0.02 < t.breakdown["cp_merge"] < 0.15
    assert sum(t.breakdown.values()) == pytest.approx(1.0)
    assert "cp_merge" in T.BREAKDOWN_LABELS
