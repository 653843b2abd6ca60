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
