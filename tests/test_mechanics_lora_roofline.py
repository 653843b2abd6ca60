"""LoRA adapter GEMMs on the roofline (round 9, lorapass9): PEFT ``tuners/lora/layer.py`` ``Linear.forward`` runs
``lora_B(lora_A(dropout(x)))`` as two rank-wide ``nn.Linear`` GEMMs per pass. Their FLOPs (2·r per element they
move) were priced at the GEMM rate and their operand bytes at memory speed, and the two added. A kernel takes the
longer of the two (Williams et al., Roofline, CACM 2009). Hand-derived figures for Llama-2 7B (qkv_mlp targets)."""

from __future__ import annotations

from gpuplanner.core import flops as F
from gpuplanner.core.estimate import resolve
from gpuplanner.core.params import lora_io_elements
from gpuplanner.core.scenario import scenario_from_dict
from gpuplanner.core.timing import time_estimate

TOKENS = 4 * 2048  # one micro-batch, one GPU, one step
# Σ (fan_in + fan_out) over the adapted linears of Llama-2 7B, qkv_mlp (q/k/v 4096→4096, gate/up 4096→11008,
# down 11008→4096), 32 layers
IO = 32.0 * ((3 * 4096 + 2 * 4096 + 11008) + (3 * 4096 + 2 * 11008 + 4096))


def scn(rank, gpu="rtx-4090-24gb"):
    t = {"method": "lora", "lora_rank": rank, "lora_targets": "qkv_mlp", "lora_dropout": 0.1, "seq_len": 2048,
         "micro_batch_size": 4, "global_batch_size": 4, "framework": "hf", "recompute": "full",
         "master_weights": False}
    return scenario_from_dict({"model": {"preset": "llama-2-7b"}, "training": t,
                               "hardware": {"gpu": gpu, "num_gpus": 1}, "data": {"tokens": 1e9}})


def flop_seconds(r_lo, r_hi):
    """The adapter GEMMs' FLOP time between two ranks at the RTX 4090's 165.2 TFLOP/s dense bf16 (an upper bound
    on the rate the model uses): 2·Δr·Σ(fan_in + fan_out) per token and pass, forward + recompute + 2 × backward."""
    return 2.0 * (r_hi - r_lo) * IO * 4.0 * TOKENS / 165.2e12


def test_gemm_elements_by_hand():
    d_in, d_out = lora_io_elements(resolve(scn(64)).arch, "qkv_mlp")
    assert d_in + d_out == IO
    # forward and recompute forward: read x, write lora_B's output; backward: 2 fan_in + 2 fan_out
    assert F.lora_gemm_elements(d_in, d_out, 2.0) == IO * (2.0 + 2.0)
    assert F.lora_gemm_elements(d_in, d_out, 1.0) == IO * 3.0


def test_memory_bound_rank_costs_no_flop_time():
    # r 8 → 128: intensity 128 FLOP/byte, under the 4090's ridge (~165e12 / 0.8 TB/s): the adapters run at memory
    # speed, so the step grows by the rank-sized extras only, not by the added FLOPs' time (0.12 s, summed before)
    t8, t128 = (time_estimate(resolve(scn(r))) for r in (8, 128))
    assert t128.step_time_s - t8.step_time_s < 0.25 * flop_seconds(8, 128)
    assert t128.step_time_s >= t8.step_time_s
    # the named LoRA line is the adapters' byte time, the same at every rank
    assert abs(t128.parts["lora_adapters"] - t8.parts["lora_adapters"]) < 1e-9


def test_compute_bound_rank_pays_its_flops():
    # r 1024 → 2048: above the ridge, the GEMMs take their FLOP time; the step grows by at least that difference
    t1, t2 = (time_estimate(resolve(scn(r))) for r in (1024, 2048))
    assert t2.step_time_s - t1.step_time_s > 0.95 * flop_seconds(1024, 2048)


# ---- the recompute passes the adapter GEMMs' bytes and FLOPs count (round 9 review, helper roof9)
D_IN = 32.0 * (5 * 4096 + 11008)  # q, k, v, gate, up read 4096; down reads 11008
D_OUT = 32.0 * (3 * 4096 + 2 * 11008 + 4096)  # q, k, v, down write 4096; gate, up write 11008
#: torchtitan per-op SAC on a Llama layer (q, k, v, o, gate, up, down, all bias-free aten.mm): mm 1, 3, 5, 7 saved
#: (q, v, gate, down), k, o and up re-run: (2·4096² + 4096·11008) / (4·4096² + 3·4096·11008) of the linear FLOPs
OP_LIN = (2 * 4096 + 11008) / (4 * 4096 + 3 * 11008)


def _layout(recompute, rank=16):
    from gpuplanner.core import timing as T
    t = {"method": "lora", "lora_rank": rank, "lora_targets": "qkv_mlp", "lora_dropout": 0.0, "seq_len": 2048,
         "micro_batch_size": 1, "global_batch_size": 1, "framework": "fsdp", "recompute": "full"}
    r = resolve(scenario_from_dict({"model": {"preset": "llama-2-7b"}, "training": t,
                                    "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 1}}))
    kw, _ = T.time_kwargs(r)
    kw = {k: v for k, v in kw.items() if k not in T.GPU_TIME_ARGS}
    return T.time_layout(r.facts, **kw, tp=1, pp=1, cp=1, ep=1, dp=1, zero=0, recompute=recompute, mbs=1,
                         sp=False, grad_accum=1, vpp=1, num_gpus=1, gpus_per_node=8)


def test_per_op_recompute_counts_the_same_gemm_passes_in_bytes_and_flops():
    """Hand-derived, per token: the adapter GEMMs move (d_in + d_out) 16-bit elements per forward and 2 × that in
    the backward, and do 2·r FLOPs per element moved in every pass. No recompute: 3 passes' worth; full: 4;
    per-op SAC: 3 + OP_LIN (it re-runs the unsaved matmuls only, adapters' included, as rec_tok's FLOPs). The
    element-wise adapter traffic (read x into lora_A, lora_B's write, scaling 2, add 3: d_in + 6 d_out) re-runs
    whole under per-op SAC, except the GEMM operands it does not re-run. Before the fix the per-op bytes counted
    a whole re-run (4 passes) and the FLOPs 3 + OP_LIN."""
    from gpuplanner.core import recompute as rc
    from gpuplanner.core.memory import RECOMPUTE_CODES
    assert abs(rc.op_sac_plan(resolve(scn(16)).arch)["recompute_linear"] - OP_LIN) < 1e-12
    rank, io = 16, D_IN + D_OUT
    lays = {name: _layout(RECOMPUTE_CODES[name], rank) for name in ("none", "full", "op_sac")}
    for name, rerun in (("none", 0.0), ("full", 1.0), ("op_sac", OP_LIN)):
        lay = lays[name]
        assert abs(lay["lora_gemm_tok"] - 2.0 * io * (3.0 + rerun)) < 1e-6 * io
        assert abs(lay["lora_flops_tok"] - 2.0 * rank * io * (3.0 + rerun)) < 1e-6 * rank * io
        # one basis: r FLOPs per byte in every policy (the GEMMs' intensity does not depend on recompute)
        assert abs(lay["lora_flops_tok"] / lay["lora_gemm_tok"] - rank) < 1e-9
    l_fwd = D_IN + 6.0 * D_OUT
    base = lays["none"]["lora_tok"]
    assert abs(lays["full"]["lora_tok"] - base - 2.0 * l_fwd) < 1e-6 * io
    assert abs(lays["op_sac"]["lora_tok"] - base - 2.0 * (l_fwd - io * (1.0 - OP_LIN))) < 1e-6 * io
