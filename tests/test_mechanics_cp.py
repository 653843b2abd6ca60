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


def test_forward_ring_rerun_by_recompute():
    """A recompute that re-runs the attention's forward re-runs its ring: full AC (whole layer) and Megatron's
    selective (``checkpoint_core_attention``) add one forward pass of K/V to TE's 3, and one of attention compute
    to hide it under (forward passes + backward 2×)."""
    def lay_rec(framework, recompute):
        r = resolve(scenario_from_dict({
            "model": {"preset": "llama-3.1-70b"},
            "training": {"framework": framework, "seq_len": 65536, "micro_batch_size": 1},
            "parallel": {"tp": 1, "cp": 4, "zero": 1, "sequence_parallel": False},
            "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 64}}))
        kw, _ = T.time_kwargs(r)
        kw = {k: v for k, v in kw.items() if k not in T.GPU_TIME_ARGS}
        return T.time_layout(r.facts, **kw, tp=1, pp=1, cp=4, ep=1, dp=16, zero=1, recompute=recompute, mbs=1,
                             sp=False, grad_accum=1, vpp=1, num_gpus=64, gpus_per_node=8)
    from gpuplanner.core import recompute as rc
    base, full, sel = (lay_rec("megatron", c) for c in (rc.NONE, rc.FULL, rc.MEGATRON_SELECTIVE))
    assert full["cp_bytes"] == pytest.approx(base["cp_bytes"] * 4 / 3)
    assert sel["cp_bytes"] == pytest.approx(base["cp_bytes"] * 4 / 3)
    assert full["attn_layer_flops"] == pytest.approx(base["attn_layer_flops"] * 4 / 3)
    # torch: full AC re-runs the forward gather: (2 + 1) gathers of cp − 1 chunks and cp dK/dV rotations (2 chunks)
    t0, t1 = lay_rec("fsdp", rc.NONE), lay_rec("fsdp", rc.FULL)
    assert t1["cp_bytes"] - t0["cp_bytes"] == pytest.approx(3 * t0["cp_kv_chunk"])


def test_torchtitan_ring_repeats_heads_and_fp32_grads():
    l1, m = lay("fsdp", 1)
    tokens = 65536 / 4
    kv = tokens * 2 * 2 * m.q_dim  # K and V, 16-bit, repeated to the query heads
    # forward all-gather (cp − 1 chunks) + backward all-gather (cp − 1) + cp fp32 dK/dV rotations: 3 + 3 + 4 × 2
    assert l1["cp_bytes"] == pytest.approx(14 * kv)
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
    assert lay("fsdp", 1, cp=1)[0]["cp_merge_tok"] == 0.0
    assert lay("megatron", 1, cp=1)[0]["cp_merge_tok"] == 0.0


def test_te_ring_corrections_hand_derived():
    """Issue 35 round 17 (cp17): Transformer Engine's p2p ring (AttnFuncWithCPAndKVP2P) moves, per query element
    (Q) and K/V element (KV) of a local token and layer: forward 5 Q + 0.5 KV per step after the first and 4 Q once
    (output corrections, half-chunk copies), backward 6 Q + 5 KV per step (dQ/dK/dV accumulations, copies).
    Llama 3.1 70B at TP 1, CP 4: Q = 8,192 (64 heads × 128), KV = 2 × 1,024 (8 KV heads); no recompute."""
    l4, m = lay("megatron", 1, cp=4)
    q, kv = 8192.0, 2048.0
    fwd = 3 * (5.0 * q + 0.5 * kv) + 4.0 * q
    bwd = 4 * (6.0 * q + 5.0 * kv)
    assert fwd + bwd == 396288.0
    assert l4["cp_merge_tok"] == pytest.approx((fwd + bwd) * m.L / 4)
    # TP 8: each rank holds 8 query heads and one KV head, an eighth of both
    assert lay("megatron", 8, cp=4)[0]["cp_merge_tok"] == pytest.approx(l4["cp_merge_tok"] / 8)
    # far below torch's fp32 merges on the same layout (their unfused eager ops, cp_merge_bytes)
    assert l4["cp_merge_tok"] < 0.3 * lay("fsdp", 1, cp=4)[0]["cp_merge_tok"]


def test_te_ring_exposure_pass_by_pass():
    """Each TE ring step hides its exchange under its own kernel only: a forward step slower to exchange than to
    compute is exposed even when the backward has slack (the layer-level sum would hide it)."""
    import numpy as np

    from gpuplanner.core.arrayops import ScalarOps

    ops = ScalarOps()

    lay_ = {"cp_kv_chunk": 1.0, "cp_fwd_passes": 1.0}
    # attention 3 units per layer (forward 1, backward 2), cp 4: forward step 0.25, backward step 0.5
    # exchange 0.4 per K/V chunk: forward 3 × 0.15 exposed; backward steps 0 and 3 hide 0.4 under 0.5, steps 1–2
    # move 0.8 under 0.5: 2 × 0.3
    got = T._te_cp_exposure(lay_, 4.0, 3.0, 1.0 / 0.4, ops)
    assert got == pytest.approx(3 * 0.15 + 2 * 0.3)
    # the layer-level comparison (3 × 3 chunks × 0.4 = 3.6 against 3.0) would expose 0.6 only
    assert np.maximum(3 * 3 * 0.4 - 3.0, 0.0) < got


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


def test_torch_allgather_ring_exposure_hand_derived():
    """torch's all-gather ring (timing._torch_cp_exposure): the K/V gather hides only under step 0's kernel (1/cp of
    the forward attention), once per forward pass (a whole-layer recompute re-runs it) and once in the backward;
    each fp32 dK/dV rotation hides under the next step's backward kernel, the last one under nothing."""
    kv, cp, attn = 256e6, 8.0, 0.4  # bytes per chunk, ring size, layer attention s (fwd 0.1, recompute 0.1, bwd 0.2)
    lay_ = {"cp_kv_chunk": kv, "cp_fwd_passes": 2.0, "cp_traced": False}
    ag_bw, p2p_bw = 50e9, 50e9
    total, exposed = T._torch_cp_exposure(lay_, cp, attn, ag_bw, p2p_bw, T._ArrayOps)
    t_ag, t_d = 7 * kv / ag_bw, 2 * kv / p2p_bw  # 35.8 ms, 10.2 ms
    step_f, step_b = 0.1 / 8, 0.2 / 8  # 12.5 ms, 25 ms
    assert exposed == pytest.approx(2 * (t_ag - step_f) + (t_ag - step_b) + t_d)
    assert total == pytest.approx(3 * t_ag + 8 * t_d)
    # in a node (8B at 256k, CP 8): the gathers hide under step 0, only the last dK/dV rotation is exposed
    _, exposed_nvl = T._torch_cp_exposure(lay_, cp, attn, 360e9, 360e9, T._ArrayOps)
    assert exposed_nvl == pytest.approx(2 * kv / 360e9)
    # under flash2 the backward kernel takes FLASH2_BWD_TIME_FACTOR × twice a forward: the same layer time splits
    # into shorter forward steps and longer backward steps
    k = T.FLASH2_BWD_TIME_FACTOR
    assert k == pytest.approx(1.25 * 370 / 322)
    _, exposed_k = T._torch_cp_exposure(lay_, cp, attn, ag_bw, p2p_bw, T._ArrayOps, k)
    sf = attn / ((2 * k + 2) * 8)
    sb = 2 * k * sf
    assert exposed_k == pytest.approx(2 * (t_ag - sf) + (t_ag - sb) + 7 * max(t_d - sb, 0.0) + t_d)
    # compiled (CP_TRACED_WAITS_AT_ONCE): each traced collective is waited for at once, nothing hides
    total_c, exposed_c = T._torch_cp_exposure({**lay_, "cp_traced": True}, cp, attn, 360e9, 360e9, T._ArrayOps)
    assert exposed_c == pytest.approx(total_c) and total_c == pytest.approx((3 * 7 * kv + 8 * 2 * kv) / 360e9)


def _tt_405b_256k(compiled):
    from gpuplanner.core.estimate import estimate
    sc = {"model": {"preset": "llama-3.1-405b"},
          "training": {"framework": "fsdp", "seq_len": 262144, "micro_batch_size": 1, "recompute": "full",
                       "torch_compile": compiled, "precision": "fp8_tensorwise", "global_batch_size": 8},
          "parallel": {"zero": 3, "tp": 8, "pp": 8, "cp": 8, "sequence_parallel": True},
          "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 512}}
    return estimate(scenario_from_dict(sc)).time


def test_torchtitan_compiled_ring_waits_at_once():
    """Compiled (torchtitan's per-block ``torch.compile``), the traced ring's collectives are waited for as soon as
    they are issued (``_functional_collectives._maybe_wrap_tensor``; Inductor does not reorder by default): the whole
    exchange is exposed, none hidden; eager, part of it hides behind the step kernels."""
    eager, comp = _tt_405b_256k(False), _tt_405b_256k(True)
    assert comp.hidden["cp_comm"] == pytest.approx(0.0, abs=1e-9)
    assert comp.seconds["cp_comm"] == pytest.approx(eager.seconds["cp_comm"] + eager.hidden["cp_comm"], rel=1e-6)
    assert eager.hidden["cp_comm"] > 0.0


def test_torchtitan_405b_256k_cross_node_ring_is_exposed():
    """torchtitan's 405B CP 8 under TP 8 runs its ring across nodes (one NIC per GPU): eager, the all-gather, waited
    at the second step, outlasts step 0's kernel, so some of it is exposed (cp_comm > 0); within a node it hides."""
    t = _tt_405b_256k(False)
    assert t.seconds["cp_comm"] > 0.01 * t.step_time_s
    assert t.hidden["cp_comm"] > t.seconds["cp_comm"]
    # named in the breakdown (inside "other", not called optimizer time), and the shares still sum to one
    assert t.parts["cp_comm"] == pytest.approx(t.seconds["cp_comm"])
    assert t.breakdown["cp_comm"] == pytest.approx(t.seconds["cp_comm"] / t.step_time_s, rel=1e-6)
    assert sum(t.breakdown.values()) == pytest.approx(1.0)
    assert T.PART_PARENT["cp_comm"] == "other" and "cp_comm" in T.BREAKDOWN_LABELS


def test_torch_ring_backward_memory_hand_derived():
    """torch's ring backward holds the all-gathered K/V of every rank, fp32 dQ, the fp32 dK/dV pair with its copy
    being sent and the buffer receiving, and the step's 16-bit gradients: (cp + 8.5) local K/V chunks
    (memory.cp_ring_backward_bytes); 405B under TP 8 (16 query heads per rank), 32k local tokens: 256 MiB a chunk."""
    from gpuplanner.core import memory as M
    m = resolve(scenario_from_dict({"model": {"preset": "llama-3.1-405b"}, "training": {"framework": "fsdp"},
                                    "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}})).facts
    chunk = 2 * 2 * 32768 * 16 * 128  # K and V, 16-bit, 32768 tokens, 16 heads of 128
    assert chunk == 256 * 2**20
    assert M.cp_ring_backward_bytes(m, 32768, 1, 8, 8) == pytest.approx((8 + 8.5) * chunk)
    assert M.cp_ring_backward_bytes(m, 32768, 1, 8, 1) == 0.0


def test_torchtitan_405b_ring_memory_grows_with_cp():
    """Table 6 of torchtitan's Dec-2024 benchmark: reserved memory rises with CP at the same local sequence (75.3,
    75.9, 77.1, 84.9 GiB); the model's first pipeline rank gains the ring backward's buffers, CP 1 gains nothing."""
    from gpuplanner.core.estimate import estimate

    def peak(cp):
        sc = {"model": {"preset": "llama-3.1-405b"},
              "training": {"framework": "fsdp", "seq_len": 32768 * cp, "micro_batch_size": 8, "recompute": "full",
                           "torch_compile": True, "precision": "fp8_tensorwise", "global_batch_size": 8 * 8 // cp,
                           "pipeline_microbatch_size": 1, "compile_loss": False},
              "parallel": {"zero": 3, "tp": 8, "pp": 8, "cp": cp, "sequence_parallel": True},
              "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 512}, "assumptions": {"memory_metric": "reserved"}}
        return estimate(scenario_from_dict(sc)).memory.allocated
    p1, p2, p8 = peak(1), peak(2), peak(8)
    gib = 2**30
    assert p2 - p1 == pytest.approx(10.5 * 256 * 2**20 / gib, rel=0.05)
    assert p8 - p2 == pytest.approx(6 * 256 * 2**20 / gib, rel=0.05)
