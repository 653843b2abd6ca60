"""Time per training step: compute at the GPU's achievable rate plus the exposed communication.

Like :func:`memory.memory_arrays`, :func:`time_arrays` is written once and works element-wise on numpy
arrays as well as on plain numbers; the plan search evaluates many candidates in one call with it and
:func:`time_estimate` (one scenario) calls the same function.

The step of one GPU (one optimizer step, ``m = grad_accum`` micro-batches per pipeline) is

    step = compute + tp_comm + pp_bubble (+ p2p) + dp_comm (exposed) + cp_comm + ep_comm + other

Sources, per term:

* **Compute.** FLOPs from :mod:`flops` (hardware FLOPs: recompute included) divided by the achievable
  matmul rate ``peak × efficiency``. ``peak`` is the catalog's dense figure for the precision
  (gpu-catalog.md §1). ``efficiency = GEN_EFFICIENCY[generation] × size factor``:
  - ``GEN_EFFICIENCY``: the fraction of dense peak that well-tuned training sustains on the GEMMs of
    large layers. Ampere 0.70: llm-foundry A100 runs reach 64% MFU (7B) and 71–74% HFU (30B/70B),
    torchtitan 57–61% on 64 A100 (gpu-catalog.md §4.1), below the 86.9% matmul ceiling measured with
    stas00's MAMF finder (same section). Hopper 0.55: llm-foundry H100 39.8–46.4% MFU and 51–57% HFU,
    Megatron-LM H100 41–48% MFU (§4.1), MAMF ceiling 80.3%. Others: see :data:`GEN_EFFICIENCY`.
  - size factor ``1/(1 + D0/(h/tp)) · 1/(1 + T0/tokens)``: GEMMs whose per-GPU width ``h/tp`` or whose
    number of rows (tokens per micro-batch per GPU) is small fill the GPU's SMs badly (tile and wave
    quantisation: NVIDIA "Matrix Multiplication Background User's Guide", Deep Learning Performance
    docs). ``D0 = 64``, ``T0 = 128``: one tile of the 128×64/128×128 CUTLASS/cuBLAS tiles.
  - memory-bound work at the catalog's HBM bandwidth × :data:`MEM_BW_EFFICIENCY`: element-wise ops
    (norms, activations, residual adds, RoPE, dropout), the materialised ``s×s`` softmax without
    FlashAttention (Dao et al. 2022 §3: standard attention reads/writes ``Θ(s²)`` per head), the
    loss over the vocabulary, the optimizer update (AdamW reads and writes ~30 bytes per parameter) and
    QLoRA's dequantisation (:func:`flops.qlora_dequant_bytes`).
* **Collectives.** Ring all-reduce of ``S`` bytes over ``n`` GPUs moves ``2(n−1)/n·S`` per GPU;
  reduce-scatter and all-gather ``(n−1)/n·S`` each (Patarasuk & Yuan 2009, "Bandwidth optimal all-reduce
  algorithms for clusters of workstations"; NCCL's bus-bandwidth definition, nccl-tests
  ``doc/PERFORMANCE.md``). Time = moved bytes / bus bandwidth, where the bus bandwidth is the catalog's
  measured NCCL all-reduce busbw inside a node (networks.json: A100 NVLink ~200, H100 ~370 GB/s) and the
  NICs' achievable rate between nodes (line rate/8 × 0.96, NCCL maintainer in NVIDIA/nccl-tests #119).
  A data-parallel group with ``k`` GPUs per node drives ``k`` NICs in parallel (one NCCL ring per rail).
* **Tensor parallelism** (Shoeybi et al. 2019, arXiv:1909.08053 §3; Korthikanti et al. 2022 §4.2.2):
  two all-reduces of the layer's ``b·s·h`` activations in the forward and two in the backward pass per
  layer (a third pair when full recomputation re-runs the forward); with sequence parallelism each
  becomes a reduce-scatter + all-gather pair, the same bytes. Exposed unless ``tp_comm_overlap``:
  Transformer Engine's userbuffers (Megatron ``--tp-comm-overlap``, which requires sequence parallelism)
  split each collective into ``tp`` chunks pipelined with the GEMM it feeds — ring-exchange all-gather
  before QKV/FC1 (and the backward's proj/FC2 dgrad), chunked reduce-scatter after proj/FC2, bulk
  overlap of the backward's all-gather/reduce-scatter with the QKV/FC1 dgrad and wgrad GEMMs
  (TE ``initialize_ub`` method table; Megatron ``tp_comm_bulk_wgrad``/``tp_comm_bulk_dgrad``/
  ``tp_comm_overlap_ag``/``tp_comm_overlap_rs`` in ``model_parallel_config.py``). Exposed per micro-batch:
  ``C/tp + max(C·(1 − 1/tp) − G, 0)`` with ``C`` the layers' collectives and ``G`` their linear GEMMs;
  the embedding and loss collectives stay exposed.
* **Data parallelism** (Rajbhandari et al. 2020, ZeRO §7). Bytes: DDP all-reduces the gradients; ZeRO-1/2
  and Megatron's distributed optimizer reduce-scatter them and all-gather the updated 16-bit weights
  (``2Ψ``); ZeRO-3/FSDP gather the weights in the forward and again in the backward and reduce-scatter
  the gradients per micro-batch (``3Ψ``; FSDP ZeRO-2 keeps the gathered weights for the backward). The
  gradient element size is the framework's reduce dtype (:func:`grad_reduce_bytes`), the group is data
  × context parallel for Megatron and torchtitan (:func:`cp_joins_dp`). What hides under compute follows
  each framework's mechanism (:func:`overlap_flags` for the defaults):
  - ``overlap_grad_reduce``: buckets are reduced as their gradients become final, i.e. during the last
    micro-batch's backward (Megatron ``DistributedDataParallel`` backward hooks with ``no_sync`` on the
    other micro-batches; PyTorch DDP bucketing, Li et al. 2020 arXiv:2006.15704): exposed
    ``max(R − W_b, R·last bucket)``; without it the whole reduction is exposed.
  - ``overlap_param_gather`` (distributed optimizer): the weights' all-gather is deferred to the next
    step's first forward, bucket by bucket in forward pre-hooks: exposed ``max(A − W_f, A·first bucket)``.
  - ``W_b``/``W_f`` are the last backward / first forward of one micro-batch on the stage; with ``v``
    virtual stages Megatron launches each model chunk's sync when that chunk is done
    (``schedules.py``), widening the window to ``t·(1 + (v−1)·min(m, p))/v``.
  - ZeRO-3/FSDP per micro-batch: the forward gathers hide under the forward except the first unit's
    (FSDP2 implicit prefetching, one unit per decoder block), the backward gathers and reduce-scatters
    under the backward except the last unit's reduce-scatter.
  - FSDP2 with pipeline parallelism (torchtitan): one gather per step (``reshard_after_forward = not
    pp_enabled``) and one reduce-scatter after the stage's last backward (``torch.distributed.pipelining``
    REDUCE_GRAD action): only earlier virtual stages' reduce-scatters hide.
* **Pipeline parallelism** (Narayanan et al. 2021, arXiv:2104.04473 §2.2): the bubble is ``(p−1)/v``
  micro-batch times, i.e. a share ``(p−1)/(v·m + p − 1)`` of the step; point-to-point sends of the
  ``b·s·h`` boundary activations (``/t`` with the scatter/gather optimisation, §4.1), forward and
  backward, ``v`` times as many with interleaving. ``overlap_p2p_comm`` (Megatron's interleaved
  schedule posts the next send/receive before computing: ``forward_backward_pipelining_with_
  interleaving``) hides them under the stage's compute. Megatron builds the output layer and the loss on the last
  stage only and splits the decoder layers evenly, so the last stage sets the pace; the others' wait is the named
  part ``pp_imbalance`` inside the bubble (:func:`pp_stage_shares`).

Every overlapped part is reported twice: exposed (in the step) and hidden under compute
(:attr:`TimeEstimate.communication`); overlap never adds time, and more overlap never exposes more.
* **Context parallelism** (ring attention: Liu et al. 2023, arXiv:2310.01889; Megatron-LM context
  parallel docs): ``cp−1`` ring steps pass the K/V chunk in the forward pass, K/V and their gradients
  in the backward pass; overlapped with the attention compute, only the excess is exposed. The K/V
  ring runs between the context-parallel ranks, which Megatron places next to the tensor-parallel ones
  (``parallel_state.initialize_model_parallel(order="tp-cp-ep-dp-pp")``): inside a node while ``tp·cp``
  fits one.
* **Expert parallelism** (Lepikhin et al. 2020 GShard; Fedus et al. 2021): all-to-all dispatch and
  combine of ``k`` copies of each token's hidden state per MoE layer, forward and backward, ``(ep−1)/ep``
  of it leaving the GPU; not overlapped.

``assumptions.mfu`` replaces the modelled time: tokens/s/GPU = peak × MFU / model FLOPs per token.
Training time: ``days = tokens / (tokens/s/GPU × GPUs) / 86400``; GPU-hours = days × 24 × GPUs.
"""

from __future__ import annotations

import math
from dataclasses import field, replace as _replace
from functools import lru_cache
from typing import Any

import numpy as np

from dataclasses import dataclass
from .arrayops import ArrayOps, ScalarOps, ops_for
from .units import nodes as units_nodes
from .overlap import OVERLAP_FIELDS, overlap_flags  # noqa: F401 (the time model's switches; re-exported)

from . import flops as F
from .memory import ModelFacts
# imported here, not inside functions: the search runs on a worker thread, where an import statement goes through PySide6's import hook (a deadlock was seen there)
from . import catalog_hw as C
from .errors import CatalogError
from .i18n import QT_TRANSLATE_NOOP
from .messages import MsgStr
from .params import LORA_MLP_TARGETS, base_linear_params, lora_params
from . import params as params_mod
from .memory import RECOMPUTE_CODES, expert_tp_of, rl_model_offloaded
from . import recompute as rc
from . import fp8 as fp8mod
from . import megatron_fsdp as mfsdpmod
from . import calibration
from . import frameworks as _frameworks
from . import zero3 as _z3
from . import moe_balance as _moe_bal
from . import fsdp1_lora as _fl
from . import fsdp1_units as _fu
from . import rank_imbalance as _ri
from . import hf_moe as _hfmoe
from . import nanotron as _nanotron
from . import packing as _packing
from .serving_facts import DECODE_MBU_HBM
from .serving_facts import CUDA_VISIBLE_SHARE, VLLM_LLM_CLASS_BUDGET
from .methods import EAGER_FWD_OP_S, EAGER_OP_S, SFT, MethodProfile, generation_seconds, method_profile
from .methods import TRL_SERVER_SYNC_S_PER_TENSOR, param_tensors, vllm_domain_allreduce, vllm_net_allreduce
from .methods import vllm_engine_reserve_bytes

# --------------------------------------------------------------------------------------------- constants


#: Sustained fraction of dense peak on the GEMMs of large training layers, by GPU generation.
#: Ampere/Hopper: gpu-catalog.md §4.1 (see module docstring). Ada and consumer Blackwell: no public MFU
#: figure (gpu-catalog.md §4.1 last row); assumed equal to Ampere, whose ratio of FLOPs to memory
#: bandwidth is similar. Datacenter Blackwell: assumed equal to Hopper (no figure in the reference).
#: Volta: assumed equal to Ampere. CDNA3 (MI300X): Hopper × (MAMF 51–60% / H100 MAMF 80.3%) ≈ 0.38
#: (stas00 MAMF table in gpu-catalog.md §4.1). Others (Ascend, Cambricon, unknown): 0.40, a cautious
#: default with no source (users should set assumptions.mfu). GeForce cards with a measured matmul maximum
#: (RTX 4090/4090D/5090) take this times :func:`sustained_clock_factor` (issue 35 round 7).
GEN_EFFICIENCY = {
    "ampere": 0.70, "hopper": 0.55, "ada": 0.70, "blackwell": 0.55, "blackwell-consumer": 0.70,
    "volta": 0.70, "cdna3": 0.38, "cdna2": 0.38, "other": 0.40,
}
#: Measured maximum achievable BF16 matmul rate (TFLOP/s; stas00/ml-engineering ``mamf-finder.py``, best shape of a
#: search), as published in the mag-/gpu_benchmark README "Stats" table (same finder, Optuna search): RTX 4090 178.8
#: (14336x4096x4096), A100 SXM 267.9 (6912x16384x2048). The 4090 exceeds its catalogue figure (165.2 = 512 tensor
#: cores at the rated 2,520 MHz boost, FP32 accumulate: NVIDIA Ada whitepaper, Appendix A) because GeForce boost
#: (GPU Boost) runs the core above the rated boost clock while under the 450 W power limit: 178.8 / 165.2 = 1.082, i.e.
#: ~2.73 GHz sustained. A second public sweep (zzc0721/torch-performance-test-data issue #78, torch 2.7 cu128, square
#: BF16 matmuls) gives 164.8 at 2048 and 160.2 at 8192 (0.97–1.0 of the figure), so the card holds at least its
#: figure. A100 SXM (the card whose MFU set Ampere's 0.70, which Ada borrows) reaches 0.859 of its 312.
#: ``torch.matmul`` in BF16 runs with FP32 accumulation (see ``bench/validate_time.py`` notes), so the 165.2 FP32-
#: accumulate figure is the right denominator for both measurements.
#: RTX 5090: no finder run is published; the best of zzc0721/torch-performance-test-data's square BF16 sweep (PR #15,
#: torch 2.8.0+cu128) is 236.03 at 8192, 1.124 of the catalogue's 210. That figure is NVIDIA's 209.5 (RTX Blackwell
#: GPU Architecture whitepaper, RTX 5090 table: dense BF16 with FP32 accumulate = 680 tensor cores x 2,407 MHz x 128
#: FLOP, half the 419 FP16-accumulate figure), rounded as in the reference gpu-specs.csv; 236.03 / 209.5 x 2.407 GHz
#: is a sustained ~2.71 GHz, the 4090's GPU-Boost range (2.73 GHz). A square sweep is a lower bound of
#: the finder's best shape (the same sweep gives the 4090 164.8 against the finder's 178.8). A second 5090 run (issue
#: #200, torch 2.7.1) peaks at 178.9; the maximum is taken, since the quantity is the maximum achievable rate.
#: H100 SXM 794.5 (stas00/ml-engineering, gpu-catalog.md §4.1: the BF16 run beside the FP8 one behind
#: :data:`core.fp8.TE_GEMM_RATIO`); a datacenter card, so :func:`sustained_clock_factor` never reads it (it is the
#: Hopper ceiling of ``inference.MATMUL_CEILING_CARD``).
MAMF_TFLOPS = {"rtx-4090-24gb": 178.8, "a100-sxm-80gb": 267.9, "rtx-5090-32gb": 236.03, "h100-sxm-80gb": 794.5}
#: The card whose measured share of its figure ``GEN_EFFICIENCY`` already stands for, per generation that borrows
#: Ampere's efficiency (Ada and consumer Blackwell: see above); its figure is the catalogue's (A100 SXM: 312).
MAMF_REFERENCE = {"ada": "a100-sxm-80gb", "blackwell-consumer": "a100-sxm-80gb"}
#: GeForce cards with no finder run of their own that share a measured card's die and rated boost clock. ASSUMED:
#: the RTX 4090D is AD102 with 114 of the 4090's 128 SMs at the same 2,520 MHz rated boost (its 147.1 figure is
#: 165.2 × 114/128) and a 425 W limit (more watts per SM than the 4090's 450 W), so it boosts no lower.
MAMF_SAME_DIE = {"rtx-4090d-24gb": "rtx-4090-24gb"}


#: Datacenter Ada boards (issue 35 round 8): their datasheet BF16 figure is the full die at the rated boost clock, but
#: the board's power limit holds the clock lower under dense tensor work (L40S: 142 SMs at 2,520 MHz in 350 W). No
#: ``mamf-finder.py`` run is published for them; one public table measures them and the A100 SXM4 80GB the same way
#: (zzc0721/torch-performance-test-data ``database.md`` @9d82827637, best of square BF16 ``torch.matmul`` of
#: 1024-10240; TFLOP/s): L40S 269.15 (row by Mightlaus, "docker"), L20 114.14 (yjzxkxdn, AutoDL), A100 SXM4 80GB 264.53
#: (Charming, PyTorch 2.8.0 + CUDA 12.8). The factor is the card's share of its figure over the A100's share in the
#: same table (both square sweeps, so the sweep's shortfall against the finder's best shape cancels): L40S
#: (269.15 / 362.05) / (264.53 / 312) = 0.877, L20 (114.14 / 119.5) / (264.53 / 312) = 1.127. Only these catalogue
#: ids (a user-entered GPU states its own figures); their generation borrows Ampere's 0.70, as GeForce Ada does.
#: Issue 35 round 13 (ptoos13): the H200 SXM, measured in the same table (``database.md`` @9d82827637, row "NVIDIA H200",
#: Mightlaus, "docker": 790.29 best square BF16), is the H100 SXM's GH100 die at the same 989 BF16 figure and 700 W
#: (its square-matmul share 0.799 against the H100's 0.806) with 4.8 TB/s of HBM3e against 3.35: the reference card's
#: loss below its matmul maximum is memory time (:func:`fixed_loss_share`), so the H200 keeps 3.35 / 4.8 of it:
#: 1 / (989/790.29 + 0.5781 × 3.35/4.8) = 0.604 of its figure on training GEMMs (factor 1.099 over Hopper's 0.55).
#: Published checks, not used to set it: MLPerf v5.1 Nebius 405B on 512 / 1,024 H200 (TP 4 × PP 8 × CP 2, FP8) and
#: v4.0–v5.0 Llama 2 70B LoRA on 8 H200 ran 5–13% faster than the model gave without it
#: (bench/validate_pt_oos13.py, bench/validate_mlperf_oos.py).
DATACENTER_SWEEP_TFLOPS = {"l40s-48gb": 269.15, "l20-48gb": 114.14, "h20-96gb": 142.25, "h200-sxm-141gb": 790.29}
DATACENTER_SWEEP_REFERENCE = ("a100-sxm-80gb", 264.53)
#: Issue 35 round 8 (smallm8): a Hopper card is measured against the H100 SXM, whose runs set Hopper's 0.55, in the
#: same table (``database.md`` @9d82827637): H100 80GB HBM3 797.51 (HaxxorCialtion; 783.66 bare metal, clow1710),
#: H20 96GB 142.25 (xiaoxi68; 141.86 Charming). The H20 is the full-power Hopper board with its tensor rate cut to 148
#: BF16 TFLOPS, so no power limit holds its clock: (142.25 / 148) / (797.51 / 989) = 1.192. A kernel check on one
#: H20 (vllm-project/vllm PR #44152, bf16 fused-MoE ``N=14336, K=4096``, tuned): 133 TFLOPS at 2,048 tokens (512 rows
#: an expert), 0.90 of its 148, where the H100's 0.55 × 1.0 would give 81. Round 9 (h20_9) replaces the ratio for
#: Hopper cards: :func:`fixed_loss_share`, 0.898 on the H20 (factor 1.634).
DATACENTER_SWEEP_GEN_REFERENCE = {"hopper": ("h100-sxm-80gb", 797.51)}
#: Issue 35 round 13 (servoos13): the PCIe A100 board runs the same GA100 die as the SXM4 module at the same rated
#: 312 BF16 TFLOPS, in 300 W instead of 400 W, so its power limit holds the tensor clock lower under dense matmuls.
#: stas00/ml-engineering ``compute/accelerator/README.md`` (commit b9e29720), "Maximum Achievable Matmul FLOPS
#: comparison table", BF16, ``mamf-finder.py``: NVIDIA A100 SXM 271.2 (86.9%), NVIDIA A100 PCIe 252.9 (81.1%) — one
#: finder, one table, so the factor is the ratio of the two shares: 252.9 / 271.2 = 0.933. {card: (its MAMF, (the
#: reference card measured in the same table, its MAMF))}. ASSUMED the 80 GB (300 W) board: the table does not name
#: the memory; the 40 GB board (250 W) has no measurement and keeps 1.0.
MAMF_TABLE_PAIRS = {"a100-pcie-80gb": (252.9, ("a100-sxm-80gb", 271.2))}


#: Issue 35 round 9 (h20_9): generations whose reference card's loss below its own sweep (its measured training share
#: ``GEN_EFFICIENCY`` against its sweep share) is time that does not shrink with the tensor rate, so a compute-capped
#: die of the same generation keeps that time, not that ratio (:func:`fixed_loss_share`).
SWEEP_FIXED_LOSS_GENS = ("hopper",)


def fixed_loss_share(gid: str) -> float:
    """A compute-capped card's share of its own BF16 figure on training GEMMs (issue 35 round 9, h20_9).

    The reference card (H100 SXM, :data:`DATACENTER_SWEEP_GEN_REFERENCE`) reaches ``s_ref`` = 797.51 / 989 = 0.806 of
    its figure on the best square matmul and ``g`` = 0.55 (``GEN_EFFICIENCY``) in training: per FLOP it loses
    ``(1/g - 1/s_ref) / P_ref`` seconds beyond its matmul maximum. That loss is memory time (operand and epilogue
    traffic of training-shaped GEMMs, L2 misses), not tensor time, so it is carried over per FLOP and scaled by the
    memory bandwidth ratio: ``share = 1 / (1/s + (1/g - 1/s_ref) · (P/P_ref) · (BW_ref/BW))``. H20 (148 BF16,
    4.0 TB/s; sweep 142.25, ``s`` = 0.961): 1 / (1.0406 + 0.5781 × 0.1496 × 0.8375) = 0.898, where the ratio rule
    gave 0.656. The H100 itself gives ``g`` exactly. Published checks, not used to set it: a tuned fused-MoE GEMM on one
    H20 runs at 133 TFLOP/s, 0.90 of 148 (vllm-project/vllm PR #44152, ``N=14336, K=4096``, 2,048 tokens); verl's
    logged actor MFU on 8 H20 is 0.77 (eric-haibin-lin/verl-data ``gsm8k/qwen2-7b-fsdp2.log``); ms-swift's Qwen3-14B
    Megatron benchmark on 8 H20 is 13 s/it, 76% of the figure (``examples/megatron/fp8/benchmark.sh``, 891a9ab3d)."""
    g = C.get_gpu(gid)
    ref_id, ref_tflops = DATACENTER_SWEEP_GEN_REFERENCE[gpu_generation(g)]
    ref = C.get_gpu(ref_id)
    peak, ref_peak = float(C.peak_tflops(g, "bf16")), float(C.peak_tflops(ref, "bf16"))
    loss = 1.0 / GEN_EFFICIENCY[gpu_generation(g)] - ref_peak / ref_tflops
    return 1.0 / (peak / DATACENTER_SWEEP_TFLOPS[gid] + loss * (peak / ref_peak) * (ref.mem_bw_tbs / g.mem_bw_tbs))


def datacenter_sweep_factor(gid: str) -> float:
    """:data:`DATACENTER_SWEEP_TFLOPS`' card over the A100's share in the same table; 1.0 for any other id. A Hopper
    card: :func:`fixed_loss_share` over the generation's share."""
    if gid in MAMF_TABLE_PAIRS:  # issue 35 round 13: a power-limited board measured beside its reference card
        mamf, (ref_id, ref_mamf) = MAMF_TABLE_PAIRS[gid]
        return (mamf / float(C.peak_tflops(C.get_gpu(gid), "bf16"))) / \
            (ref_mamf / float(C.peak_tflops(C.get_gpu(ref_id), "bf16")))
    if gid not in DATACENTER_SWEEP_TFLOPS:
        return 1.0
    if gpu_generation(C.get_gpu(gid)) in SWEEP_FIXED_LOSS_GENS:
        return fixed_loss_share(gid) / GEN_EFFICIENCY[gpu_generation(C.get_gpu(gid))]
    ref_id, ref_tflops = DATACENTER_SWEEP_GEN_REFERENCE.get(gpu_generation(C.get_gpu(gid)), DATACENTER_SWEEP_REFERENCE)
    share = DATACENTER_SWEEP_TFLOPS[gid] / float(C.peak_tflops(C.get_gpu(gid), "bf16"))
    return share / (ref_tflops / float(C.peak_tflops(C.get_gpu(ref_id), "bf16")))


def sustained_clock_factor(g, precision: str | None = None) -> float:
    """How much faster a GeForce card's large matmuls run than its catalogue figure, relative to the card whose MFU
    its generation's :data:`GEN_EFFICIENCY` comes from: (measured MAMF / catalogue BF16) ÷ (the same ratio of the
    reference card). 1.0 for every non-consumer card, for a card without a measurement, and for a user-entered GPU.

    RTX 4090: (178.8 / 165.2) / (267.9 / 312) = 1.260, so Ada's 0.70 becomes 0.88 of the 165.2 figure on a 4090
    (0.82 of what the card really sustains, the A100's 0.70 / 0.859 = 0.815)."""
    gid = str(getattr(g, "id", "") or "").lower()
    if getattr(g, "gpu_class", None) != "consumer":  # a user-entered GPU is datacenter or workstation class
        # (a user-entered GPU's id starts with "custom-": 1.0); the sweep measured 16-bit matmuls only: 8-bit tensor
        # math (FP8, INT8) keeps 1.0
        # (a Hopper card's fixed loss, fixed_loss_share, is memory time whatever the operands' width: its 8-bit GEMMs
        # take the same factor, on top of FP8_EFFICIENCY_RATIO / TE_GEMM_RATIO as on every card)
        if precision in ("fp8", "int8") and (gid in DATACENTER_SWEEP_TFLOPS or gid in MAMF_TABLE_PAIRS) and \
                gpu_generation(g) not in \
                SWEEP_FIXED_LOSS_GENS:
            return 1.0
        return datacenter_sweep_factor(gid)
    measured = MAMF_SAME_DIE.get(gid, gid)
    ref = MAMF_REFERENCE.get(gpu_generation(g))
    if ref is None or measured not in MAMF_TFLOPS or not C.peak_tflops(C.get_gpu(measured), "bf16"):
        return 1.0
    return mamf_share(measured) / mamf_share(ref)


def mamf_share(gpu_id: str) -> float:
    """A measured card's :data:`MAMF_TFLOPS` over its catalogue BF16 figure."""
    return MAMF_TFLOPS[gpu_id] / float(C.peak_tflops(C.get_gpu(gpu_id), "bf16"))


#: FP8 matmuls reach a lower share of their (doubled) peak: llm-foundry FP8 3B ~28–30% of FP8 peak vs
#: ~42% of BF16 peak for BF16 runs; Llama 4 ~20% of FP8 peak (gpu-catalog.md §4.1): ratio ≈ 0.7.
FP8_EFFICIENCY_RATIO = 0.7
#: GEMM size saturation constants (module docstring): per-GPU width and tokens per micro-batch.
D0 = 64.0
T0 = 128.0
#: Achievable fraction of HBM bandwidth for streaming kernels (STREAM-like copies reach 80–90% of the
#: datasheet bandwidth on A100/H100: NVIDIA CUDA samples bandwidthTest; stas00 ml-engineering "compute").
MEM_BW_EFFICIENCY = 0.8
#: Bytes per local vocabulary entry per token that Megatron-Core's UNFUSED vocab-parallel cross-entropy moves
#: (``tensor_parallel.vocab_parallel_cross_entropy``, Megatron-LM's default without ``--cross-entropy-loss-fusion``:
#: :data:`frameworks.FUSED_CE_DEFAULT`). Counted from ``megatron/core/tensor_parallel/cross_entropy.py``
#: (``VocabParallelCrossEntropy``, NVIDIA/Megatron-LM at d98e8a64dd; the same steps at f2e5db402c44, July 2024), one
#: eager kernel per line, 16-bit logits: forward ``calculate_logits_max``: ``.float()`` (read 2, write 4) and
#: ``torch.max`` (read 4); ``calculate_predicted_logits``: in-place ``-= logits_max`` (4 + 4), ``torch.exp(out=)``
#: (4 + 4), ``.sum`` (4); ``calculate_cross_entropy_loss``: ``div_`` (4 + 4): 38. Backward ``calculate_gradients``:
#: the target gather-subtract (one entry per row, nil) and ``mul_(grad_output)`` (4 + 4), then autograd's cast of
#: the fp32 gradient back to the logits' dtype (the ``.float()``'s backward: read 4, write 2): 14. Total 52, against
#: the fused loss's 8 (``loss_bytes`` in :func:`time_layout`; ``megatron/core/fusions/fused_cross_entropy.py``
#: compiles the same steps with ``jit_fuser``). Peak memory is not changed: the unfused loss works in place on its
#: fp32 copy, 6 bytes per local logit at both ends as the model already holds (``memory.logits_bytes``).
MEGATRON_UNFUSED_CE_BYTES = 52.0
#: Bytes per vocabulary entry per token of torchtitan's eager loss (issue 35 round 13, helper titan13):
#: ``torch.nn.functional.cross_entropy(pred.flatten(0, 1).float(), labels.flatten(0, 1))`` (pytorch/torchtitan
#: ``train.py`` ``loss_fn`` at 9dec370, Dec 2024; ``components/loss.py`` ``cross_entropy_loss`` later), left out of
#: ``torch.compile`` until bbb1b616 (April 2025: "TODO: compiling loss function causes CUDA errors, turning off for
#: now"; ``compile.components`` ``["model", "loss"]`` since), so a compiled torchtitan model of that time still runs
#: it eagerly (the memory model's ``training.compile_loss``, :func:`estimate.compile_loss_of`). Counted per ATen
#: kernel, one read and one write each, like :data:`MEGATRON_UNFUSED_CE_BYTES`: forward the ``.float()`` cast (read
#: 2, write 4) and ``log_softmax`` (4 + 4; ``nll_loss`` reads one entry per row): 14; backward ``nll_loss_backward``'s
#: zero-filled fp32 gradient (write 4), ``_log_softmax_backward_data`` (read the gradient and the output, write: 12)
#: and the cast back to the logits' dtype (read 4, write 2): 22. Total 36, against the model's generic unfused 16
#: and the compiled loss's 8.
TORCHTITAN_EAGER_CE_BYTES = 36.0
#: Bytes per vocabulary entry per token of the Hugging Face Trainer's causal-LM loss (issue 35 round 13, helper
#: hfloss13): transformers ``loss/loss_utils.py`` ``ForCausalLMLoss`` from v4.49.0 (February 2025; the same at
#: 0114da07, 2026): ``logits = logits.float()`` on the ``lm_head`` output (16-bit: the model's dtype, or autocast's
#: under the Trainer's ``bf16``), the labels shifted with ``nn.functional.pad(labels, (0, 1), value=ignore_index)``
#: (no copy of the logits), then ``fixed_cross_entropy``: ``nn.functional.cross_entropy(..., reduction="sum")``
#: divided by ``num_items_in_batch`` (a scalar). The same ATen kernels as torchtitan's eager loss, counted the same
#: way (:data:`TORCHTITAN_EAGER_CE_BYTES`): forward cast 2 + 4, ``log_softmax`` 4 + 4; backward ``nll_loss``'s
#: zero-filled gradient 4, ``_log_softmax_backward_data`` 12, the cast back 4 + 2: 36. From v4.46.0 to v4.48.x
#: ``ForCausalLMLoss`` shifted the fp32 logits instead (``shift_logits = logits[..., :-1, :].contiguous()``), as
#: ``LlamaForCausalLM.forward`` did before it (v4.36.2 and v4.44.2: ``logits = logits.float()`` in the model, then
#: the same shift and ``CrossEntropyLoss``): one more fp32 copy forward (4 + 4) and its ``slice_backward`` (a
#: zero-filled fp32 tensor, 4, and the copy of the gradient into it, 4 + 4): 56 (:data:`HF_SHIFT_LOGITS_CE_BYTES`).
#: The scenario has no transformers version: the model charges the current code.
HF_EAGER_CE_BYTES = 36.0
#: The same loss in transformers v4.36–v4.48 (the fp32 logits shifted with ``.contiguous()``:
#: :data:`HF_EAGER_CE_BYTES`); not charged (no version in the scenario), kept for the record and the tests.
HF_SHIFT_LOGITS_CE_BYTES = 56.0
#: Bytes per vocabulary entry per token that TRL's ``SFTTrainer.compute_loss`` reads from the 16-bit logits for its
#: logged metrics, under ``torch.no_grad`` and without Liger (huggingface/trl ``trl/trainer/sft_trainer.py`` at
#: f2cd5771, 2026; entropy since v0.22.0, da167d88 "Add entropy logging in SFT"; token accuracy since v0.15.0,
#: 84d73fd0): ``entropy_from_logits`` (``trl/trainer/utils.py``: per 128-row chunk ``F.log_softmax`` read 2 write 2,
#: ``torch.exp`` 2 + 2, the product 2 + 2 + 2, ``.sum(-1)`` read 2: 16) and ``shift_logits.argmax(dim=-1)`` (read
#: 2): 18, forward only. (v0.15–v0.21: a ``.contiguous()`` copy of the shifted logits and the argmax, 6, with an
#: all-gather of the logits for the metric; not modelled separately.)
TRL_SFT_METRIC_BYTES = 18.0
#: Bytes per vocabulary entry per token that ms-swift's HF-backend trainer reads from the 16-bit logits for its
#: token accuracy each step: ``Seq2SeqTrainer.compute_loss`` calls ``_compute_acc`` whenever the logits exist
#: (modelscope/ms-swift ``swift/trainers/seq2seq_trainer.py`` and ``swift/trainers/mixin.py`` at 3602360a:
#: ``preds = logits.argmax(dim=-1)``, read 2), after taking the model's own loss (``outputs['loss']``) when no
#: ``loss_scale``, DFT, channel loss or sequence parallelism asks for its per-token loss.
MS_SWIFT_ACC_BYTES = 2.0
#: Element-wise traffic of an unfused (eager PyTorch) decoder layer relative to fused kernels: an eager
#: RMSNorm/LayerNorm is ~5 kernels in fp32 instead of one (HF ``LlamaRMSNorm`` upcasts, squares, means,
#: rsqrt-multiplies, downcasts); SwiGLU 2 kernels instead of 1; RoPE 6. Judgement from counting kernels.
UNFUSED_FACTOR = 3.0
#: Squared ReLU's forward traffic in 16-bit elements per element of the MLP width: NeMo's ``Nemotron4Config`` (and
#: Nemotron-3) set ``activation_func = squared_relu``, ``torch.pow(F.relu(x), 2)`` (``nemo/collections/llm/fn/
#: activation.py``, its ``@torch.jit.script`` commented out; Megatron-LM ``megatron/core/activations.py`` the same),
#: and Megatron's ``MLP.forward`` runs it eagerly: ``bias_activation_fusion`` only fuses GeLU and SwiGLU
#: (``transformer/mlp.py`` raises "Only support fusion of gelu and swiglu" otherwise), so the recipe leaves it off.
#: Two kernels, each reading and writing ``f``: 4 elements (a fused GeLU's 2). HF's ``relu2``
#: (``ReLUSquaredActivation``: ``relu`` then ``torch.square``) is the same two kernels. The backward (PowBackward:
#: ``grad · 2 · x^1``, three kernels; ReluBackward: one) moves 10 more, which the model's ``3 ×`` forward passes
#: count as 8: a 2-element undercount per element of ``f``.
SQRELU_FWD_ELEMS = 4.0
#: Fallback NCCL all-reduce busbw as a fraction of the one-way link bandwidth when the catalog has no
#: measurement: NVLink A100 200/300 = 0.67, H100 370/450 = 0.82 → 0.7; PCIe Gen5 28/64 = 0.44 → 0.4
#: (networks.json measurements, gpu-catalog.md §4.2).
BUSBW_FRACTION = {"nvlink": 0.7, "pcie": 0.4}
#: Default inter-node fabric per GPU generation when ``hardware.inter_node`` is not given
#: (gpu-catalog.md §2.2: "A100 class uses 1 × 200G per GPU; H100/H200/B200 class uses 1 × 400G per GPU").
#: PCIe boxes: the reference has no sourced figure; its 8×4090 example has 2 NICs (§2.5), speed unknown;
#: we assume 2 × 100 GbE RoCE (a judgement: set hardware.inter_node/nics_per_node for your servers).
DEFAULT_FABRIC = {
    "ampere": ("ib-hdr-200", 1.0), "volta": ("ib-edr-100", 1.0), "hopper": ("ib-ndr-400", 1.0),
    "blackwell": ("ib-ndr-400", 1.0), "cdna3": ("ib-ndr-400", 1.0), "cdna2": ("ib-hdr-200", 1.0),
}
PCIE_BOX_FABRIC = ("roce-100", 2)  # (network, NICs per node)
#: Attention-core kernels (FlashAttention-style fused forward and backward), as a ceiling on the fraction of
#: dense 16-bit peak they sustain, by GPU generation; the attention FLOPs run at ``min(matmul efficiency,
#: ceiling)``. ``flash2`` (FlashAttention-2, the kernel behind PyTorch SDPA's FLASH_ATTENTION backend and the
#: ``flash-attn`` 2.x package) uses Ampere-style ``mma.sync`` instructions, not Hopper's ``wgmma``/TMA:
#: on an H100 SDPA's flash backend measures 329 TFLOP/s (33% of 989) where cuDNN's fused attention and
#: FlashAttention-3 reach 631 (pytorch/pytorch#142132, Tritonbench, batch 1 × 24 heads × 4608 × d 128); the
#: FlashAttention-3 paper (Shah et al. 2024, arXiv:2407.08608, abstract) gives "only 35% utilization on H100"
#: for FlashAttention-2. On Ampere FlashAttention-2 reaches 50–73% of the A100 peak (Dao 2023,
#: arXiv:2307.08691, abstract), i.e. no lower than the matmul efficiency (no ceiling). ``cudnn`` (cuDNN fused
#: attention: Transformer Engine's FusedAttention, SDPA's CUDNN_ATTENTION backend, FlashAttention-3): no ceiling below
#: the matmuls on Hopper and Ampere. Blackwell, both kernels: measured (below).
#: Blackwell's attention kernels, measured (issue 35 round 7; before, flash2 took Hopper's 0.33 and cuDNN no ceiling). Source:
#: NVIDIA/cudnn-frontend ``benchmark/sdpa_benchmark_bf16_training/artifacts/sdpa_benchmark_results_NVIDIA_B200.csv``
#: (commit f937055, 2025-06-12; README of the same folder: one B200, NGC PyTorch 25.05, cuDNN 9.10.2, PyTorch 2.8.0,
#: flash-attn 2.7.3), BF16, causal, GQA 128 query / 8 KV heads, head dim 128, batch 1 (2 at the last row); TFLOP/s on
#: causal-halved FLOPs, the backward on 2.5 × the forward's (``benchmark_single_sdpa.py`` ``flops``). Sequences
#: 8K, 16K, 32K, 64K, 128K, 2×128K (the training range; shorter ones are the size factor's job):
#: * cuDNN (``pyt_cudnn``: SDPA's CUDNN_ATTENTION; Transformer Engine's FusedAttention builds the cuDNN graph through
#:   the frontend, ``cudnn_fe`` in the README's one example at 32K: forward 1437 vs 1430, backward 1196 vs 1126):
#:   forward 1211, 1359, 1435, 1429, 1349, 1318 (median 1354); backward 945, 1074, 1132, 1074, 1038, 1028 (median 1056).
#: * FlashAttention-2 through SDPA (``pyt_flash_attention``): forward 376, 397, 406, 411, 412, 412 (median 408.5);
#:   backward 309, 331, 342, 347, 347, 347 (median 344.5). (flash-attn 2.7.3's own kernel, ``flash_attention``: ~7% faster.)
#: The ceiling is the forward's share of the B200's dense BF16 peak (2,250 TFLOP/s, gpus.json); the backward's factor
#: is (2.5 / 2) × forward / backward rate, as :data:`FLASH2_BWD_TIME_FACTOR` on Hopper. Attention stays BF16 in FP8
#: recipes: ``fp8_dot_product_attention`` defaults to False (Megatron-Core ``TransformerConfig``, NeMo
#: ``MegatronMixedPrecision``, Megatron-Bridge ``MixedPrecisionConfig``), so FP8 runs get the BF16 figures too (the
#: model times the attention core at the 16-bit peak in every recipe). Each pass runs at the lower of the matmul
#: efficiency and the kernel's rate for that pass (:func:`time_gpu`): on Blackwell the cuDNN forward (0.60) sits above
#: the matmuls' 0.55 and stays matmul-bound; the backward's 1056 / 1.25 = 845 TFLOP/s on the model's 2 × forward
#: FLOPs (0.375 of peak) sits below and sets the backward's time.
#: Newer kernels are faster: cuDNN 9.22 on a GB200 (cudnn-frontend ``benchmark/sdpa_benchmark_training/results/
#: llama3.1/gb200/llama3.1_20260424_100750.csv``, 64/8 heads, d 128, causal, batch 2) forward 1574/1708/1622 and
#: backward 1332/1328/1226 at 8K/16K/32K (0.63–0.68 and 0.49–0.53 of GB200's 2,500); FlashAttention-4 (Zadouri et al.
#: 2026, arXiv:2603.05451, abstract) reaches 1,613 forward on a B200, "up to 1.3×" cuDNN 9.13. The constants keep
#: the mid-2025 cuDNN 9.10.2 figures, the release nearest the NeMo 25.04 – Megatron-Bridge 25.11 runs scored here.
B200_BF16_PEAK_TFLOPS = 2250.0
CUDNN_B200_FWD_TFLOPS, CUDNN_B200_BWD_TFLOPS = 1354.0, 1056.0
FLASH2_B200_FWD_TFLOPS, FLASH2_B200_BWD_TFLOPS = 408.5, 344.5
#: Issue 35 round 10 (titan10): CDNA3 (MI300X). On ROCm, PyTorch SDPA's FLASH_ATTENTION backend runs AOTriton or CK
#: kernels and the ``flash-attn`` package runs AMD's Composable Kernel (CK) build (ROCm/flash-attention); both are
#: FlashAttention-2-style kernels, so the ``flash2`` entry. Measured on one MI300X (ROCm/flash-attention issue #142,
#: 2025-05-18, ROCm 6.3.2, ``benchmarks/benchmark_flash_attention.py``, BF16, head dim 128, seq 16384, batch 1/2/4/8,
#: non-causal; TFLOP/s with the backward on 2.5 × the forward's FLOPs): CK forward 353.22, 355.51, 339.62, 309.60
#: (median 346.4), backward 194.43, 202.12, 205.43, 206.66 (median 203.8). The issue's SDPA column reads above the card's
#: 1,307 peak (a timing error), so it is not used. AOTriton (SDPA's default on ROCm) is not faster than CK in any
#: figure found (pytorch/pytorch#135431: 19.9 TFLOP/s backward on Llama 3 8B shapes in Sept 2024), so CK's rates are
#: an upper bound on the rate torchtitan's SDPA reaches on MI300X. Peak: the catalogue's 1,307.4 (AMD datasheet).
CK_MI300X_FWD_TFLOPS, CK_MI300X_BWD_TFLOPS, MI300X_BF16_PEAK_TFLOPS = 346.4, 203.8, 1307.4
ATTN_KERNEL_CEILING = {"flash2": {"hopper": 0.33, "blackwell": FLASH2_B200_FWD_TFLOPS / B200_BF16_PEAK_TFLOPS,
                                  "cdna3": CK_MI300X_FWD_TFLOPS / MI300X_BF16_PEAK_TFLOPS},
                       "cudnn": {"blackwell": CUDNN_B200_FWD_TFLOPS / B200_BF16_PEAK_TFLOPS}}
#: FlashAttention-2's backward where its ceiling is in force (flash2 on Hopper/Blackwell), as a multiple of the time
#: the model's 2 × forward FLOPs would take at that ceiling. The backward kernel recomputes QKᵀ and the softmax from
#: the saved log-sum-exp (FlashAttention-2 paper, Dao 2023, arXiv:2307.08691, §3.1.2, Algorithm 2), so it runs 2.5 ×
#: the forward's FLOPs (Dao-AILab/flash-attention ``benchmarks/benchmark_flash_attention.py``, ``flops``: ``2.5 * f``
#: for ``bwd``), and it runs them slower than the forward: FlashAttention-3 paper (Shah et al. 2024,
#: arXiv:2407.08608), its "Attention forward speed" and "Attention backward speed" figures, H100 80GB SXM5, head
#: dim 128, sequence 16k: FlashAttention-2 forward 370 TFLOP/s, backward 322 (on those 2.5 × FLOPs). Factor
#: (2.5 / 2) × (370 / 322) = 1.436. The forward keeps
#: :data:`ATTN_KERNEL_CEILING` (PyTorch's own SDPA measurement).
FLASH2_BWD_TIME_FACTOR = (2.5 / 2.0) * (370.0 / 322.0)
#: The backward's time factor per kernel and generation where a ceiling is in force (:data:`ATTN_KERNEL_CEILING`):
#: FlashAttention-2 on Hopper as above; Blackwell's from the cuDNN 9.10.2 B200 measurements listed there.
ATTN_BWD_TIME_FACTOR = {
    "flash2": {"hopper": FLASH2_BWD_TIME_FACTOR,
               "blackwell": (2.5 / 2.0) * (FLASH2_B200_FWD_TFLOPS / FLASH2_B200_BWD_TFLOPS),
               "cdna3": (2.5 / 2.0) * (CK_MI300X_FWD_TFLOPS / CK_MI300X_BWD_TFLOPS)},
    "cudnn": {"blackwell": (2.5 / 2.0) * (CUDNN_B200_FWD_TFLOPS / CUDNN_B200_BWD_TFLOPS)},
}
#: FlashAttention-1 (``flash1``: the ``flash-attn`` 0.x/1.x package) on Ampere. The FlashAttention-2 paper (Dao 2023,
#: arXiv:2307.08691, abstract) states FlashAttention "reaching only 25-40% of the theoretical maximum FLOPs/s" on
#: A100, and FlashAttention-2 "around 2× speedup" over it; the ceiling is that range's midpoint, 0.325 of the dense
#: 16-bit peak, for the forward and the backward alike. The backward recomputes QKᵀ from the saved statistics
#: (FlashAttention paper, Dao et al. 2022, arXiv:2205.14135, Algorithm 4), 2.5 × the forward's FLOPs as the
#: benchmarks count them (the 25–40% are on that count), so its time factor on the model's 2 × forward is 2.5 / 2.
#: Stacks that ran it: GPT-NeoX v1.0 (Pythia) pins ``flash-attn==0.2.2`` (EleutherAI/gpt-neox
#: ``requirements/requirements-flashattention.txt`` at tag v1.0, 71df4d50; ``megatron/model/flash_attention.py``
#: wraps its ``flash_attn_cuda`` kernels). Other generations: FlashAttention-2's figures (an upper bound, not measured).
FLASH1_AMPERE_CEILING = (0.25 + 0.40) / 2.0
FLASH1_BWD_TIME_FACTOR = 2.5 / 2.0
ATTN_KERNEL_CEILING["flash1"] = {**ATTN_KERNEL_CEILING["flash2"], "ampere": FLASH1_AMPERE_CEILING}
#: Issue 35 round 14 (advice14): FlashAttention-2 on a compute-capped Hopper die, per catalogue id (before the
#: generation's figure). Hopper's 0.33 is FlashAttention-2's ``mma.sync`` rate on the full GH100 (an H100's 989);
#: the H20 is that die with its tensor rate cut to 148 BF16 TFLOP/s (:data:`DATACENTER_SWEEP_TFLOPS`' note), so the
#: kernel runs against the cut, not at a third of it: 0.33 left the H20's attention at 49 TFLOP/s. Measured on one
#: H20 (Dao-AILab/flash-attention issue #1310, 2024-11-01, ``hopper/benchmark_attn.py``, BF16, batch 2, head dim
#: 128, sequence 2,048, causal): FlashAttention-2 forward 65.9 TFLOP/s, 0.445 of the 148 (non-causal 83.7; cuDNN
#: 107.8 and FlashAttention-3 107.8 causal). The same kernel at the same shape on an H100 SXM: 298 TFLOP/s, 0.301 of
#: 989 (FlashAttention-3 paper, Shah et al. 2024, arXiv:2407.08608, "Attention forward speed, head dim 128", causal).
#: The H20's ceiling is Hopper's scaled by the two shares at that one shape, so the shape's own loss cancels:
#: 0.33 × 0.445 / 0.301 = 0.488. The backward keeps Hopper's time factor (no H20 backward figure published).
#: cuDNN and FlashAttention-3 keep no ceiling. Checked, not used to set it: ms-swift's Qwen2.5-7B full fine-tuning at
#: 16k with packing on 4 H20 with FlashAttention-2, 35.5 s a step (bench/validate_ft_step10.py): -7.4% before
#: (too slow), +3.1% after.
FLASH2_H20_SHARE, FLASH2_H100_SHARE = 65.9 / 148.0, 298.0 / 989.0
FLASH2_CARD_CEILING = {"h20-96gb": ATTN_KERNEL_CEILING["flash2"]["hopper"] * FLASH2_H20_SHARE / FLASH2_H100_SHARE}
ATTN_BWD_TIME_FACTOR["flash1"] = {**ATTN_BWD_TIME_FACTOR["flash2"], "ampere": FLASH1_BWD_TIME_FACTOR}
#: Gradient clipping by global norm (on by default: torchtitan ``training.max_norm = 1.0``, Megatron
#: ``--clip-grad 1.0``, the HF Trainer's ``max_grad_norm = 1.0``; DeepSpeed's ``gradient_clipping`` defaults
#: to 0, off): the norm reads each fp32 gradient of the shard (4 bytes), the scaling reads and writes it
#: (8): 12 bytes per parameter per step (``torch.nn.utils.clip_grad_norm_`` with foreach ``_foreach_norm`` and
#: ``_foreach_mul_``).
CLIP_BYTES = 12.0
#: Eager PyTorch issues every op from the host: a forward kernel launched from Python costs
#: :data:`methods.EAGER_FWD_OP_S` (24 µs: module calls, views, dispatcher, launch), a backward kernel launched by
#: autograd's C++ engine :data:`methods.EAGER_OP_S` (10 µs); when a layer's kernels are shorter than that the GPU waits for the host.
#: Kernels per decoder layer, counted in Hugging Face ``modeling_llama.py`` (``LlamaDecoderLayer.forward``): two
#: ``LlamaRMSNorm`` of ~8 ops (upcast, pow, mean, add+rsqrt, mul, weight, downcast), q/k/v/o projections (4),
#: ``apply_rotary_pos_emb`` on q and k (5 each: cos, rotate_half's neg and cat, sin, add), the K/V repeat and
#: SDPA with its layout copies (4), two residual adds, the MLP's gate/up/act/mul/down (5): 41. The backward
#: launches about two kernels per forward op (each op's input gradient; the GEMMs' weight gradients and autograd's
#: gradient accumulation): 82. A LoRA module adds ``lora_A``, ``lora_B``, the scaling and the add in the forward
#: (4, dropout one more) and their 6 backward kernels (PEFT ``tuners/lora/layer.py``). Fused stacks (Megatron,
#: torch.compile) are not host-bound at these sizes and get no floor. A judgement from counting, like
#: :data:`methods.EAGER_DECODE_S_PER_LAYER`.
EAGER_OPS_FWD_LAYER, EAGER_OPS_BWD_LAYER = 41.0, 82.0
EAGER_OPS_LORA_FWD, EAGER_OPS_LORA_BWD = 4.0, 6.0
#: PEFT's fp32 adapters under autocast (:data:`flops.LORA_AUTOCAST_IN`), per LoRA module: the input cast to fp32
#: (``_cast_input_dtype``), autocast's cast back for ``lora_A`` and its casts of the two fp32 adapter weights (frozen
#: or not, a leaf's cast is redone in every autocast region: the recompute forward re-enters one) — 4 forward
#: kernels; their backward: the two input-gradient casts and the two weight gradients cast to fp32 — 4.
EAGER_OPS_LORA_AUTOCAST_FWD, EAGER_OPS_LORA_AUTOCAST_BWD = 4.0, 4.0
#: DoRA (PEFT ``tuners/lora/dora.py`` ``DoraLinearLayer.forward`` with ``get_lora_weight`` and ``get_weight_norm``),
#: per adapted linear, beyond LoRA's: ``torch.eye``, ``lora_A`` and ``lora_B`` on it, the base weight's cast to the
#: adapters' dtype, ``scaling *``, ``W +``, ``linalg.norm``, ``magnitude / norm``, ``- 1``, the two products and
#: their add — 12 forward kernels; backward: the two products' input gradients, the magnitude's gradient (two
#: products, two sums, the division's) and the base output's gradient add — 8.
EAGER_OPS_DORA_FWD, EAGER_OPS_DORA_BWD = 12.0, 8.0
#: Non-reentrant activation checkpointing's own host time, per checkpointed layer and micro-batch, beyond the
#: recompute forward's kernels (which :data:`methods.EAGER_FWD_OP_S` prices like any forward). ``torch.utils.checkpoint``
#: with ``use_reentrant=False`` (torch/utils/checkpoint.py ``_checkpoint_without_reentrant_generator``) runs the
#: layer's first forward with autograd recording, under ``_checkpoint_hook``: for every tensor an autograd node saves,
#: a Python pack hook makes a ``_Holder``, appends a weak reference to the frame and records the tensor's shape, dtype
#: and device under ``no_grad`` (the determinism check). In the backward, the first unpack re-runs the layer under
#: ``_recomputation_hook`` (a ``torch._dynamo.disable``-wrapped Python pack hook per saved tensor: detach, counter,
#: ``_Handle``, dict insert), then ``check_recomputed_tensors_match`` re-extracts and compares every tensor's
#: metadata, and each saved tensor's unpack is one more Python hook (graph-task id, dict look-ups). Reentrant
#: checkpointing (``CheckpointFunction``) runs the first forward under ``no_grad`` and the recompute as a plain
#: forward: none of this, so it gets no term. Priced on this project's H100 (bench/data/h100_measured_2026-12-06_
#: short.jsonl, run 3 without the profiler, ``launch`` rows ``tiny_llama_stack``: a 16-layer Llama of width 64 where
#: the GPU work is nil): forward+backward 30.58 ms without and 63.26 ms with checkpointing, 2.04 ms per layer, of
#: which the recompute forward's 41 kernels are 41 × 24 µs = 0.98 ms in this model: 1.06 ms left per layer. The
#: forward alone (12.62 → 20.88 ms) shows 0.52 ms per layer of it in the first forward's pack hooks. One constant
#: for every model: the real Qwen2.5/Llama-3.2 rows of the same run, full or LoRA (where the LoRA modules double the
#: layer's kernels), leave 1.05–1.18 ms per layer after the model's recompute kernels. Host time, so it scales with
#: the CPU like the EAGER_* figures.
CKPT_NONREENTRANT_LAYER_S = 1.06e-3
#: Non-reentrant checkpointing's early stop (issue 35 round 16, ac16): from PyTorch 2.1 ``torch.utils.checkpoint`` with
#: ``use_reentrant=False`` stops the recompute forward as soon as the last tensor the backward needs has been saved
#: again (pytorch/pytorch#96866, "Make early stop the default for checkpoint", merged 2023-03, first released in 2.1;
#: ``set_checkpoint_early_stop``: "By default, non-reentrant checkpoint stops recomputation as soon as it has computed
#: all needed Tensors"; ``_recomputation_hook.pack_hook`` raises ``_StopRecomputationError`` at the last saved tensor).
#: Autograd saves an op's inputs before it runs the kernel (the generated ``VariableType`` code builds each
#: ``SavedVariable`` of an input, which calls the pack hook, then redispatches the op), so the last saved tensors of a
#: decoder layer are the MLP's output linear's input and weight, and its GEMM (FC2 / ``down_proj``: ``fan_in`` ×
#: ``hidden``, a third of a GeLU MLP's matmuls, 4h² of MPT's 12h² a token) is not re-run: what follows it (bias add,
#: dropout at p = 0, residual add) saves nothing. Reentrant checkpointing (``CheckpointFunction``, Megatron's and
#: DeepSpeed's own) re-runs the whole forward. Applied to full (not LoRA/QLoRA: the adapters' own linears come after
#: the frozen base GEMM) training of the dense layers, where :func:`frameworks.checkpoint_nonreentrant` holds: Composer
#: / llm-foundry (``fsdp_config.activation_checkpointing_reentrant: false`` in every ``yamls/pretrain/mpt-*.yaml`` @v0.3.0
#: → ``checkpoint_wrapper(CheckpointImpl.NO_REENTRANT)``), torchtune (``training/activations.py``), TRL. Not in
#: torchtitan since 25413d224 (2025-08-29, ``activation_checkpoint.early_stop`` default False): its later runs
#: re-run the whole layer, and that is the ``fsdp`` row's default for full training on FSDP2
#: (:func:`frameworks.checkpoint_early_stop_default`, issue 35 round 16, titan16); torchtitan's runs of 2024 –
#: August 2025 state ``training.checkpoint_early_stop: true`` (PyTorch's default then).
#: Torch 1.13 / 2.0 (the old non-reentrant implementation) re-ran everything too: ``training.checkpoint_early_stop``
#: false. Not for the tools of :data:`frameworks.EARLY_STOP_NO_SWITCH` (GPT-NeoX v1.0 and nanotron included, which
#: :func:`frameworks.checkpoint_nonreentrant` counts as non-reentrant for the host hooks only). Checked on this
#: project's H100 (``bench/data/h100_measured_2026-12-06_probe.jsonl``, torch 2.11, Qwen2.5-1.5B, 28 layers, one
#: forward + backward with gradient checkpointing): 5,629 kernel launches non-reentrant against 5,685 reentrant,
#: 2 fewer a layer — the ``down_proj`` GEMM and the residual add after it; with LoRA 4 fewer (lora_B's GEMM, the
#: scaling, the two adds: the frozen ``down_proj`` GEMM runs before them).
CKPT_EARLY_STOP_SKIPS = 1.0
#: A compiled checkpointed layer (torchtitan compiles each block after wrapping it, ``apply_compile`` on the
#: ``checkpoint_wrapper``-ed module; the HF Trainer's ``torch_compile`` the model) is not recomputed by the eager
#: ``_recomputation_hook`` at all: Dynamo turns ``torch.utils.checkpoint`` into the ``tag_activation_checkpoint``
#: higher-order op and AOTAutograd's partitioner (``torch/_functorch/partitioners.py``
#: ``min_cut_rematerialization_partition``) puts into the backward graph only the tagged forward nodes the backward
#: reads. The MLP output linear's result is read by nothing in backward (its own backward needs its input and weight,
#: the residual add's needs nothing), so it is not re-run whatever ``early_stop`` says: torchtitan's
#: ``early_stop=False`` (25413d224) reaches eager runs only.
COMPILED_RECOMPUTE_SKIPS_LAST = True


def early_stop_skip_flops(m: ModelFacts, framework: str, nonre, lora: bool, rec_whole, ops,
                          early_stop: bool | None = None, fsdp_version: int = 2, compiled: bool = False,
                          objective: str = "sft", lora_targets: str = "all_linear"):
    """Forward FLOPs per token the recompute forward does not run under non-reentrant checkpointing's early stop
    (:data:`CKPT_EARLY_STOP_SKIPS`): the dense layers' MLP output linear, for each layer re-run whole; none where
    ``early_stop`` (``training.checkpoint_early_stop``; None: the tool's default,
    :func:`frameworks.checkpoint_early_stop_default`, off for torchtitan) is False and the layer runs eager. Under
    ``torch.compile`` (``compiled``) the flag does nothing: :data:`COMPILED_RECOMPUTE_SKIPS_LAST`. Element-wise."""
    if early_stop is None:
        early_stop = _frameworks.checkpoint_early_stop_default(framework, fsdp_version, lora, objective)
    early_stop = early_stop or (compiled and COMPILED_RECOMPUTE_SKIPS_LAST)
    last = params_mod.mlp_linears(m.arch, False)[-1]
    # LoRA on the MLP's output linear: its frozen GEMM runs before the adapter's, so only the adapter's tail would be
    # skipped (measured, ac16: the whole recompute kept); an output linear LoRA does not adapt (``qv``, ``attention``,
    # ms-swift's old Qwen default ``c_attn``) ends the layer as in full training and is skipped the same way
    adapted = lora and any(lin.name == last.name for lin, _n in params_mod.lora_linears(lora_arch(m.arch, framework),
                                                                                        lora_targets))
    if adapted or not _frameworks.early_stop_switch(framework) or early_stop is False:
        return 0.0 * rec_whole
    dense = float(m.L) * (1.0 - float(m.moe_frac))
    return ops.where(nonre, CKPT_EARLY_STOP_SKIPS * rec_whole * 2.0 * last.fan_in * last.fan_out * dense, 0.0)


#: The tools whose training loop waits for the GPU after every micro-batch, so that each micro-batch's forward starts
#: on an idle GPU: the Hugging Face Trainer's ``_inner_training_loop`` tests ``torch.isnan(tr_loss_step) or
#: torch.isinf(tr_loss_step)`` in a Python ``if`` after each ``training_step`` (``logging_nan_inf_filter``, default
#: True; transformers 4.x-5.x ``trainer.py``): reading a CUDA bool is a device sync. TRL, LLaMA-Factory, ms-swift,
#: Axolotl and Unsloth train through that loop; ``deepspeed`` here is the Trainer with DeepSpeed. So the host cannot
#: run ahead across micro-batches: where the forward's kernels take the host longer to issue than the GPU to run, the
#: GPU idles in the forward and the backward's GPU work starts after it (:func:`host_waits`). PEFT's
#: ``method_comparison`` loop syncs the same way (``attention_mask.sum().item()`` before, ``loss.item()`` after).
#: DeepSpeed's engine does it whatever loop drives it, the Trainer or Accelerate's (open-instruct's DPO): without a
#: DeepSpeed data loader ``engine.forward`` calls ``tput_timer.start()`` and ``engine.step`` ``tput_timer.stop()``,
#: and the ``ThroughputTimer`` calls ``get_accelerator().synchronize()`` in both once past its ``start_step`` (2)
#: (``timers.throughput`` ``enabled`` and ``synchronized`` default true; deepspeed ``utils/timer.py`` and
#: ``runtime/engine.py`` v0.15.4): a device-wide sync at each micro-batch's forward and after its backward (issue 35
#: round 14: the open-instruct rows' loop also syncs on its cached reference's blocking ``.to(p_device)``).
HOST_SYNC_PER_MICROBATCH_TOOLS = ("hf", "trl", "llamafactory", "ms-swift", "axolotl", "unsloth", "deepspeed")


def fsdp1_grad_cast_bytes(framework: str, grad_bytes, g_bytes) -> float:
    """Bytes per unsharded gradient element of FSDP1's cast to the reduce dtype, per reduce-scatter (issue 35 round 12,
    verl12; round 13, fsdpstream13: every FSDP1 user). FSDP1's post-backward hook casts each unit's unsharded
    gradient before reducing it where its dtype is not the reduce dtype (``torch/distributed/fsdp/_runtime_utils.py``
    ``_post_backward_hook``: ``if flat_param.grad.dtype != handle._reduce_dtype: flat_param.grad.data =
    flat_param.grad.to(handle._reduce_dtype)``, inside ``with stream(state._post_backward_stream)``; torch 2.5.1 and
    2.13.0, l. 755–764 in 2.13.0): read the gradient in the compute dtype (``grad_bytes``: FSDP1's ``param_dtype``), write
    it in the reduce dtype (``g_bytes``, :func:`grad_reduce_bytes`). The same code runs for every FSDP1 stack, so the
    pass follows the dtypes, not the tool: verl's workers (``MixedPrecision(bf16, reduce fp32)``, ``fsdp_workers.py``),
    Composer/llm-foundry's ``mixed_precision: DEFAULT`` (param bf16, reduce fp32: Composer's ``get_mixed_precision``;
    the llm-foundry benchmark tables' "MP Mode DEFAULT"), and none where the reduce dtype is the compute dtype
    (torchtune's FSDP1 in bf16, Accelerate's ``MixedPrecision(dtype, dtype)``: ``master_weights`` false here). It
    runs on the post-backward stream, serialised with the unit's reduce-scatter: :func:`time_gpu` times it there
    (``fsdp1_grad_passes`` is its exposed part)."""
    if framework != "fsdp":
        return 0.0
    if np.ndim(g_bytes) or np.ndim(grad_bytes):  # the search's rows (the HF stack's bytes follow its ZeRO stage)
        return np.where(np.asarray(g_bytes) != np.asarray(grad_bytes), np.add(grad_bytes, g_bytes), 0.0)
    return (grad_bytes + g_bytes) if g_bytes != grad_bytes else 0.0


def fsdp1_grad_divide_bytes(framework: str, n_dp, g_bytes, ops=None):
    """Bytes per unsharded gradient element of FSDP1's gradient division, per reduce-scatter (issue 35 round 13:
    verl13 built it for verl; fsdpstream13 for every FSDP1 plan). FSDP1's default reduce path (no communication hook:
    verl, Composer/llm-foundry, Accelerate, torchtune's FSDP1 recipes register none) divides the unsharded gradient in
    place before the reduce-scatter and the new shard after it (``torch/distributed/fsdp/_runtime_utils.py``
    ``_reduce_grad``: ``_div_if_needed(padded_unsharded_grad, state._gradient_predivide_factor)``,
    ``dist.reduce_scatter_tensor``, ``_div_if_needed(new_sharded_grad, state._gradient_postdivide_factor)``;
    ``_div_if_needed`` runs ``tensor.div_(f)`` when ``f > 1``, whatever the dtype; torch 2.5.1 and 2.13.0, l. 831–879
    in 2.13.0), on the post-backward stream like the cast. The factors (``_init_utils.py``;
    ``algorithms/_comm_hooks/default_hooks.py`` ``DefaultState._get_gradient_predivide_factor``): the pre-divide
    doubles from 1 while ``world % f == 0 and world / f > f`` (2 for 2–7 ranks, 4 for 8–31, 8 for 64), the
    post-divide is ``world / pre``; so the pre-divide runs from 2 ranks and the post-divide from 3. Each ``div_``
    reads and writes the gradient in the reduce dtype (``g_bytes``): ``2·g`` per unsharded element, and ``2·g`` per
    shard element (1/``n_dp`` of them). FSDP2 has no such pass for fp32/bf16 reductions (``_fsdp_collectives.py``
    ``_get_gradient_divide_factors``: "we use NCCL's built-in division to avoid separate div kernels"), so only
    ``fsdp_version`` 1 pays it (the caller's gate)."""
    ops = _ScalarOps if ops is None else ops
    f64, where, maximum = ops.f, ops.where, ops.maximum
    if framework != "fsdp":
        return 0.0
    n = f64(n_dp)
    g = f64(g_bytes)
    return where(n >= 2.0, 2.0 * g, 0.0) + where(n >= 3.0, 2.0 * g, 0.0) / maximum(n, 1.0)


def hf_flash_layer_syncs(profile, framework: str) -> bool:
    """Issue 35 round 11 (verl11): whether every forward's decoder layers sync the host, as verl's do, so that FSDP
    cannot gather a layer's weights under the previous layer's forward (``time_gpu``: the forward gathers exposed).

    verl's FSDP workers load their models with ``attn_implementation="flash_attention_2"`` and patch transformers'
    ``_flash_attention_forward`` with their own (``verl/models/transformers/monkey_patch.py``
    ``_ulysses_flash_attention_forward``, volcengine/verl v0.3.0.post1 to v0.4.1), which calls transformers' with
    the position ids. Transformers' glue (``modeling_flash_attention_utils._flash_attention_forward``, 4.4x–4.5x)
    then syncs the host in every decoder layer of every forward: with padding removed it tests
    ``not (torch.diff(position_ids, dim=-1) >= 0).all()`` in a Python ``if`` and ``prepare_fa2_from_position_ids``
    indexes ``indices_q[position_ids == 0]`` (a ``nonzero``); a padded batch's ``_upad_input`` runs ``nonzero`` and
    ``.max().item()``. verl also sets FSDP's ``forward_prefetch=False``: a unit's all-gather is issued in its own
    pre-forward hook, which the host reaches only after the previous layer's sync, i.e. after the GPU has finished
    that layer. So each forward gather runs alone on the GPU: in the forward with grad and in the no-grad log-prob
    and reference forwards. The backward's gathers (issued in the pre-backward hook, ``BACKWARD_PRE`` prefetch, the
    recompute's syncs waiting on the compute stream only) still hide. RL on ``framework`` fsdp is verl's workers (as
    ``offload_layout``); the HF Trainer stacks run the same glue but not FSDP's gathers this way, and are left as
    they were."""
    return bool(getattr(profile, "rl", False)) and framework == "fsdp"
#: QLoRA through bitsandbytes (``autograd/_functions.py`` ``MatMul4Bit``: ``F.dequantize_4bit`` before the forward
#: matmul and again before the backward's input-gradient matmul, bitsandbytes 0.39–0.49). With double quantisation
#: (``bnb_4bit_use_double_quant``, the QLoRA recipe) ``functional.dequantize_4bit`` launches three kernels: the
#: blockwise dequantisation of the 8-bit absmax, ``absmax += offset`` and the NF4 dequantisation. Per 4-bit linear
#: and pass (forward, recompute forward, backward). PEFT's 4-bit LoRA layer adds the defensive ``result.clone()``:
#: one forward kernel per adapted linear.
EAGER_OPS_QLORA_DEQUANT, EAGER_OPS_QLORA_CLONE = 3.0, 1.0
#: The rest of a LoRA module's backward (autograd's nodes for PEFT's ``lora_B(lora_A(dropout(x))) * scaling``): the
#: dropout's backward (``NativeDropoutBackward``, p > 0) and, on every micro-batch after the first of a step, the
#: ``AccumulateGrad`` add into the two adapter weights' ``.grad`` (the first micro-batch takes the gradient as it is:
#: the Trainer zeroes with ``set_to_none``).
EAGER_OPS_LORA_DROPOUT_BWD, EAGER_OPS_LORA_ACCUMULATE = 1.0, 2.0
#: The tools whose QLoRA goes through PEFT's ``prepare_model_for_kbit_training`` (flops.KBIT_FP32_EW_FACTOR; the rule
#: and its user switch ``training.qlora_no_upcast`` are :func:`frameworks.kbit_upcast_applies`).
KBIT_PREP_TOOLS = _frameworks.KBIT_PREP_TOOLS
#: bitsandbytes' NF4 dequantisation kernel (``csrc/kernels.cu`` ``kDequantizeBlockwise`` with ``dDequantizeNF4``, the
#: same from 0.40 to 0.47; Unsloth's ``fast_dequantize`` calls the same ``cdequantize_blockwise_*_nf4``) decodes each
#: 4-bit code through a four-level ``if`` tree of bit tests. The warp's 32 codes are random, so every lane walks the
#: whole tree: the kernel is bound by the SM's integer/logic issue rate (16 lanes per SM sub-partition on every
#: NVIDIA GPU since Volta, so SM count x clock), not by HBM, wherever that rate is low against the bandwidth.
#: bitsandbytes PR #1746 (Mhmd-Hisham, merged 2025-09-18 as b1f80b8, first in 0.48.0) replaced the tree with a lookup;
#: PR #1747 (matthewdouglas, 2025-09-05, CUDA 12.8; its summary, the per-GPU tables were not readable here) reports
#: the old kernel 1.36-2.07x slower on P100/A100/H100 at every size, but on sm86/sm89 (A10, RTX 4090, L4, L40S)
#: slower only for small tensors. SM count x clock gives that split (A100/H100 issue-bound; RTX 4090, L40S, L4
#: memory-bound); scaling by HBM bandwidth would not (every GPU would sit at 0.36 of its memory speed); FP32 TFLOPS
#: agrees on sm86/sm89 and halves the A100 rate (see tests/test_mechanics_qlora_dequant.py). Cost per element in SM
#: cycles, from the one absolute measurement found: bitsandbytes 0.45.2 ``functional.dequantize_nf4`` (three
#: kernels: absmax dequantisation, offset add, NF4) of a 4096 x 14336 weight with double quantisation, bs 64/256,
#: triton.testing.do_bench, "on an H100": 0.1517 ms to bf16, 0.1516 ms to fp16, 0.1492 ms to fp32 (unsloth
#: 2025.2.12 ``fast_dequantize`` 0.1519 ms). Source: the docstring of a public Triton NF4-dequant study's
#: ``dequant.py`` (bitsandbytes 0.45.2, triton 3.2.0; index file id 23535673713, repository name not shown).
#: Two checks inside it: fp32 output doubles the written bytes yet takes no longer, so the kernel is not
#: traffic-bound; its Triton LUT kernel moved 265 MB in 0.0978 ms = 2.7 TB/s, above an H100 PCIe's 2.0 TB/s peak,
#: so the card is an SXM (132 SMs x 1.98 GHz = 261.7e9 SM cycles/s): 261.7e9 x 0.1517e-3 / 58,720,256 = 0.676
#: (an upper bound by the two small kernels, a few µs). The kernel's time is the larger of that and its own
#: traffic (read NF4 + constants, write bf16); the matmul's read-back stays at HBM speed (flops.qlora_dequant_bytes).
BNB_NF4_DEQUANT_SM_CYCLES_PER_ELEM = 67e12 / 256.0 * 0.1517e-3 / (4096 * 14336)
#: FP32 lanes per SM, to turn the catalog's FP32 TFLOPS into SM cycles per second (TFLOPS / (2 x lanes)): 64 on
#: GA100 (A100, A800, A30), Volta and Turing; 128 on GA10x (RTX A6000, A10, A40), Ada, Hopper and Blackwell (NVIDIA
#: architecture whitepapers: A100 108 SMs x 1.41 GHz x 128 = 19.5 TFLOPS; H100 SXM 132 x 1.98 x 256 = 67).
FP32_LANES_64 = ("a100", "a800", "a30", "v100", "t4", "p100", "titan-v", "rtx-2080", "quadro-rtx")
#: The tools whose QLoRA runs bitsandbytes' ``Linear4bit`` (transformers' ``BitsAndBytesConfig``), so the kernel above.
#: torchtune (``fsdp``) quantises with torchao's ``NF4Tensor``; Megatron tools have no 4-bit base.
BNB_QLORA_TOOLS = ("hf", "deepspeed", "trl", "axolotl", "llamafactory", "ms-swift", "unsloth")


def attention_kernel(framework: str, generation: str, choice: str | None = "auto") -> str:
    """The attention kernel a framework runs (``training.attention_kernel``; ``auto`` = the default):

    * Megatron-Core: Transformer Engine's ``DotProductAttention``, which prefers its cuDNN ``FusedAttention``
      backend on Hopper and Blackwell (TE attention docs, backend selection) → ``cudnn``.
    * torchtitan (FSDP2): SDPA restricted to the FLASH_ATTENTION backend below compute capability 10.0 and
      CUDNN_ATTENTION first on Blackwell (pytorch/torchtitan PR #1196, ``models/attention.py``, May 2025) →
      ``flash2`` on Hopper, ``cudnn`` on Blackwell.
    * HF Trainer / DeepSpeed (and the tools on them): PyTorch SDPA's default order prefers FLASH_ATTENTION;
      cuDNN was made opt-in after PyTorch 2.5's bugs (pytorch/pytorch#138522) and is preferred again only with
      a bundled cuDNN newer than 9.15 (``check_prefer_cudnn_attention`` in ``sdp_utils.cpp``, PyTorch 2.11)
      → ``flash2``; set ``cudnn`` for newer stacks or FlashAttention-3, ``flash1`` for ``flash-attn`` 0.x/1.x
      (:data:`FLASH1_AMPERE_CEILING`).
    """
    if choice in ("flash1", "flash2", "cudnn"):
        return choice
    if framework == "megatron":
        return "cudnn"
    if framework == "fsdp" and generation == "blackwell":
        return "cudnn"
    return "flash2"


def attention_ceiling(framework: str, gpu_id, choice: str | None = "auto") -> float | None:
    """The attention kernel's efficiency ceiling (:data:`ATTN_KERNEL_CEILING`) or None (no ceiling); ``gpu_id``: an
    id or a record (:func:`gpu_generation`)."""
    gen = gpu_generation(gpu_id)
    kernel = attention_kernel(framework, gen, choice)
    card = str(getattr(gpu_id, "id", None) or getattr(gpu_id, "gpu_id", None) or gpu_id).lower()
    if kernel == "flash2" and card in FLASH2_CARD_CEILING and not getattr(gpu_id, "architecture", None):
        return FLASH2_CARD_CEILING[card]  # a compute-capped Hopper die (issue 35 round 14)
    return ATTN_KERNEL_CEILING[kernel].get(gen)


def attention_bwd_factor(framework: str, gpu_id, choice: str | None = "auto") -> float:
    """The attention backward's time factor (:data:`ATTN_BWD_TIME_FACTOR`) where :func:`attention_ceiling` is in
    force; :data:`FLASH2_BWD_TIME_FACTOR` otherwise (unused there: no ceiling, no factor)."""
    gen = gpu_generation(gpu_id)
    return ATTN_BWD_TIME_FACTOR[attention_kernel(framework, gen, choice)].get(gen, FLASH2_BWD_TIME_FACTOR)


def attention_kwargs(framework: str, gpu_id, choice: str | None = "auto") -> dict:
    """:func:`time_gpu`'s attention arguments: ``attn_efficiency`` (:func:`attention_ceiling`) and
    ``attn_bwd_factor`` (:func:`attention_bwd_factor`)."""
    return {"attn_efficiency": attention_ceiling(framework, gpu_id, choice),
            "attn_bwd_factor": attention_bwd_factor(framework, gpu_id, choice)}


#: AdamW update traffic per parameter on its shard: read gradient (4), master weight (4), two moments
#: (8); write master and moments (12) and the 16-bit working copy (2): 30 bytes (Megatron/DeepSpeed
#: fused Adam; one pass). 8-bit Adam keeps 1-byte moments: 18; SGD with momentum 18; Adafactor ~16.
OPT_BYTES = {"adamw": 30.0, "adamw_8bit": 18.0, "sgd": 18.0, "adafactor": 16.0}
#: torch.optim.AdamW with ``foreach=True`` (``_multi_tensor_adamw``, torch/optim/adamw.py; torch's default on CUDA
#: without ``fused``; torchtitan before 6e4988550, Feb 2025, whose ``optimizer.fused`` was off by default): eight
#: multi-tensor passes over the fp32 shard, each reading and writing it: ``_foreach_mul_`` of the parameters (weight
#: decay, 8 bytes per element), ``_foreach_lerp_`` of the first moment with the gradient (12), ``_foreach_mul_`` and
#: ``_foreach_addcmul_`` of the second moment (8 + 12), ``_foreach_sqrt`` into a new list, ``_foreach_div_`` and
#: ``_foreach_add_`` on it (8 × 3), ``_foreach_addcdiv_`` into the parameters (16): 80 bytes per parameter against the
#: fused kernel's one pass (:data:`OPT_BYTES`). Published: torchtitan PR #881 (6e4988550, "use Fused AdamW as
#: default"), Llama 3 8B: fused over foreach +2.24% (FSDP, eager), +1.63% (FSDP, compile), 1.6–3.6% across
#: parallelisms; PR #355 (8 A100, Llama 3 8B FSDP): "wps is + ~100", 2,630 → ~2,730. These bytes alone give +1.6%
#: (compile) and +1.4% (eager) on 8 H100 SXM (tests/test_mechanics_fsdp2_edges.py); eager's further ~0.8 points would
#: be the host's per-tensor dispatch of the foreach ops over DTensor parameters (pytorch/pytorch#134191), not modelled.
OPT_BYTES_ADAMW_FOREACH = 80.0


def adamw_unfused(implementation, profile, framework: str) -> bool:
    """Issue 35 round 12 (verl12): whether AdamW runs torch's unfused passes (:data:`OPT_BYTES_ADAMW_FOREACH`), not
    one fused kernel. ``training.optimizer_implementation`` decides when set; left at None it is the tool's default:

    * verl's FSDP workers (RL on ``framework`` fsdp, as :func:`hf_flash_layer_syncs`) build the actor's and the
      critic's optimizer as ``optim.AdamW(module.parameters(), lr=..., betas=..., weight_decay=...)`` with neither
      ``fused`` nor ``foreach`` (volcengine/verl ``verl/workers/fsdp_workers.py`` ``_build_model_optimizer`` and
      ``_build_critic_model_optimizer``: v0.3.0.post1, db84a4007 of 2025-05-02, v0.4.1, 3ebe6717a, v0.5.0; at HEAD
      b178a3cd5 ``verl/workers/config/optimizer.py`` ``build_optimizer`` defaults to ``torch.optim`` ``AdamW``
      with no ``fused`` either). torch then picks foreach for plain and DTensor (FSDP2) parameters, and the
      single-tensor loop for FSDP1's ``FlatParameter`` (``torch/optim/optimizer.py``
      ``_default_to_fused_or_foreach``: ``type(p) in _foreach_supported_types``, which lists ``torch.Tensor`` and
      ``nn.Parameter``, not their subclasses). ``_single_tensor_adamw`` runs the same eight passes one tensor at a
      time (``param.mul_``, ``exp_avg.lerp_``, ``exp_avg_sq.mul_(...).addcmul_``, ``exp_avg_sq.sqrt()``, the
      division by ``bias_correction2_sqrt``, ``.add_(eps)``, ``param.addcdiv_``): the same 80 bytes a parameter.
      verl steps once per mini-batch (``dp_actor.update_policy`` → ``_optimizer_step``), so this is paid
      ``train_batch_size / ppo_mini_batch_size`` times a verl step — the planner's optimizer steps.
    * Every other tool keeps its default, fused (the field's documented default)."""
    if implementation is not None:
        return implementation == "foreach"
    return bool(getattr(profile, "rl", False)) and framework == "fsdp"


def gpu_generation(gpu_id) -> str:
    """Architecture generation from the catalog id (for :data:`GEN_EFFICIENCY`).

    ``gpu_id`` may also be a GPU record (``catalog_hw.GPU``) or :class:`GpuTimeFacts`: a user-entered GPU that
    declares its architecture (``scenario.CustomGpu.architecture``, e.g. a Hopper card with other memory, clocks or
    power limit than the catalogue's) gets that generation's constants; one that declares none, "other"."""
    arch = getattr(gpu_id, "architecture", None)
    if arch:
        return arch
    g = str(getattr(gpu_id, "id", None) or getattr(gpu_id, "gpu_id", None) or gpu_id).lower()
    if g.startswith(("h100", "h800", "h200", "h20", "gh200")):
        return "hopper"
    if g.startswith(("a100", "a800", "a30", "a40", "a10", "rtx-a6000", "rtx-a5000", "rtx-3090", "a6000")):
        return "ampere"
    if g.startswith(("l40", "l20", "l4", "rtx-4090", "rtx-6000-ada", "rtx-4080")):
        return "ada"
    if g.startswith(("rtx-5090", "rtx-5080")):
        return "blackwell-consumer"
    if g.startswith(("b200", "gb200", "b100", "b300", "gb300")):
        return "blackwell"
    if g.startswith("v100"):
        return "volta"
    if g.startswith(("mi300", "mi325")):
        return "cdna3"
    if g.startswith("mi2"):
        return "cdna2"
    return "other"


# ----------------------------------------------------------------------------------------- GPU facts


@dataclass(slots=True, frozen=True)
class GpuTimeFacts:
    """The numbers of one GPU + fabric that the time model needs (plain floats)."""

    gpu_id: str
    peak_tflops: float  # dense, at the training precision (matmuls)
    peak16_tflops: float  # dense 16-bit (attention core, head) — equals peak_tflops except for fp8
    mem_bw_tbs: float
    gen_efficiency: float
    intra_link: str  # "nvlink" | "pcie"
    intra_busbw_gbs: float  # NCCL all-reduce bus bandwidth inside a node
    intra_p2p_gbs: float  # one-way point-to-point bandwidth inside a node
    nic_gbs_per_gpu: float  # achievable inter-node bandwidth per GPU, one way
    inter_node: str
    nics_per_node: float
    notes: tuple[str, ...] = field(default_factory=tuple)
    host_link_gbs: float = 32.0  # PCIe x16 to the host CPU, one way (CPU offload: offload_seconds)
    host_cpu_factor: float = 1.0  # the host CPU's per-op issue time against an x86 server's (HOST_CPU_FACTOR)
    sm_ghz: float = 0.0  # SM count x clock (1e9 SM cycles per second; sm_cycle_rate), 0 when unknown
    fp32_tflops: float = 0.0  # dense FP32 (non-tensor) TFLOPS from the catalog, 0 when unknown (lora_gemm_roofline)
    architecture: str | None = None  # a user-entered GPU's declared generation (gpu_generation)

    def kwargs(self, precision: str) -> dict:
        """The GPU arguments of :func:`time_arrays`."""
        return dict(
            peak_tflops=self.peak_tflops, peak16_tflops=self.peak16_tflops, mem_bw_tbs=self.mem_bw_tbs,
            gen_efficiency=self.gen_efficiency * (FP8_EFFICIENCY_RATIO if precision == "fp8" else 1.0),
            intra_busbw_gbs=self.intra_busbw_gbs, intra_p2p_gbs=self.intra_p2p_gbs,
            nic_gbs_per_gpu=self.nic_gbs_per_gpu, host_link_gbs=self.host_link_gbs,
            host_cpu_factor=self.host_cpu_factor, sm_ghz=self.sm_ghz, fp32_tflops=self.fp32_tflops,
        )


#: one-way peer-to-peer rate over NVLink as a share of its line rate (the figure :func:`_intra_node_link` has
#: always used; named so that :func:`hybridep_nvl_seconds` can undo it)
NVLINK_P2P_FRACTION = 0.87


def _intra_node_link(g: Any, intra_node: str | None, notes: list[str]) -> tuple[str, float, float]:
    """The GPU's link inside a server (the scenario's ``intra_node`` if set): its kind, the all-reduce bus
    bandwidth (the catalog's measured NCCL figure, else a fraction of the one-way bandwidth) and the one-way
    peer-to-peer bandwidth, in GB/s; consumer cards without peer-to-peer go through host memory."""
    link_kind = g.intra_node_link or "pcie"
    link = "nvlink" if link_kind in ("nvlink", "nvlink-bridge", "infinity-fabric", "hccs", "mlu-link") else "pcie"
    if intra_node is not None:
        link = intra_node
    busbw = None
    if link == "pcie" and link_kind != "pcie":
        gen_pcie = g.pcie_gen or 4
        net = _find_network(f"pcie{gen_pcie}")
        uni = C.intra_node_bandwidth_gbs(g, "pcie") or _PCIE_UNI.get(gen_pcie, 32.0)
        busbw = net.busbw_gbs if net is not None and net.busbw_gbs else None
    else:
        uni = C.intra_node_bandwidth_gbs(g)
        net = C.intra_node_network(g)
        if link_kind == "pcie" and net is None and g.pcie_gen:
            net = _find_network(f"pcie{g.pcie_gen}")
        if net is not None and net.busbw_gbs:
            busbw = float(net.busbw_gbs)
    if uni is None:
        uni = 16.0
        notes.append(QT_TRANSLATE_NOOP("Timing", "intra-node bandwidth unknown; assuming PCIe Gen3 (16 GB/s)"))
    if busbw is None:
        busbw = BUSBW_FRACTION[link] * uni
    p2p_uni = float(uni) * (NVLINK_P2P_FRACTION if link == "nvlink" else 0.8)
    if link == "pcie" and (g.p2p is False or (g.p2p is None and g.gpu_class == "consumer")):
        # (GeForce cards share the RTX 4090's driver policy; unknown P2P on a consumer card is treated alike)
        # No peer-to-peer (RTX 4090 stock driver): NCCL stages every transfer through host memory, and an
        # 8-GPU dual-socket box's ring crosses the CPU sockets. NCCL's topology model assigns 10 GB/s to
        # such SYS paths on an 8×4090 node (NVIDIA/nccl-tests issue #307, gpu-catalog.md §4.2).
        busbw = min(busbw, NO_P2P_SYS_GBS)
        p2p_uni = min(p2p_uni, NO_P2P_SYS_GBS)
        notes.append(QT_TRANSLATE_NOOP("Timing", "no GPU peer-to-peer: collectives go through host memory (~10 GB/s)"))
    # NVLink-bridge pairs only connect two GPUs: beyond a pair, traffic goes over PCIe
    if link_kind == "nvlink-bridge" and intra_node is None:
        notes.append(QT_TRANSLATE_NOOP("Timing", "NVLink bridges join pairs of GPUs; groups larger than two use PCIe"))
    return link, busbw, p2p_uni


def _inter_node_fabric(link: str, gen: str, inter_node: str | None, nics_per_node: int | None,
                       gpus_per_node: int) -> tuple[Any, int | float, float]:
    """The fabric between servers (the scenario's ``inter_node``, else the GPU generation's usual one), the
    NICs per server and the achievable GB/s per NIC."""
    if inter_node is None:
        if link == "pcie" or gen in ("ada", "blackwell-consumer"):
            inter_node, default_nics = PCIE_BOX_FABRIC
        else:
            inter_node, per_gpu = DEFAULT_FABRIC.get(gen, ("roce-100", 0.25))
            default_nics = max(1, round(per_gpu * gpus_per_node))
    else:
        default_nics = None
    net = C.get_network(inter_node)
    if net.kind != "inter_node":
        raise CatalogError(MsgStr.make("Timing", QT_TRANSLATE_NOOP("Timing", "hardware.inter_node '{id}' is not an inter-node fabric"),
            id=net.id))
    if nics_per_node is None:
        nics_per_node = default_nics or C.server_nics(net, gpus_per_node) or 1
    per_nic = net.achievable_gbs_per_nic
    if per_nic is None:
        per_nic = (net.gbs_per_direction or 3.125) * 0.8
    return net, nics_per_node, per_nic


#: The host CPU's per-op issue time against the x86 servers the model's host costs were priced on
#: (:data:`methods.EAGER_FWD_OP_S`, :data:`methods.EAGER_OP_S`, :data:`MOE_HOST_OPS_PER_EXPERT`: x86 hosts). NVIDIA's
#: Grace-Hopper and Grace-Blackwell superchips run the framework's Python and C++ dispatch on Grace's Arm cores.
#: Published measurement: NVIDIA/TransformerEngine issue #2053 ("High CPU overhead on Grace systems", 2025-08-11),
#: the CPU time of one BF16 ``torch.nn.Linear`` forward (hidden 2048, 8192 tokens; plain PyTorch, no TE): 37.08 µs
#: on GB200, 33.17 µs on GH200, 13.48 µs on a DGX H100 (Xeon Platinum 8480C); TE's ``Linear``: 99.66 and 90.53 µs
#: on the two Grace systems. So a Grace host issues each op 37.08 / 13.48 = 2.75× (GB200; GB300 has the same
#: Grace CPU) or 33.17 / 13.48 = 2.46× (GH200) slower. It matters only where the host binds: eager frameworks'
#: host floor (``time_layout``'s ``host_mb``), Megatron's per-layer MoE dispatcher sync (:func:`moe_sync_exposure`)
#: and Transformers' expert loop. The catalogue ids of Grace-hosted GPUs start with these prefixes.
HOST_CPU_FACTOR = {"gb200": 37.08 / 13.48, "gb300": 37.08 / 13.48, "gh200": 33.17 / 13.48}


def host_cpu_factor(gpu_id: str) -> float:
    """:data:`HOST_CPU_FACTOR` of a catalogue GPU id (1.0 for a GPU in an x86 server)."""
    g = gpu_id.lower()
    return next((v for k, v in HOST_CPU_FACTOR.items() if g.startswith(k)), 1.0)


@lru_cache(maxsize=256)
def gpu_time_facts(gpu: Any, precision: str = "bf16", *, intra_node: str | None = None,
                   inter_node: str | None = None, nics_per_node: int | None = None,
                   gpus_per_node: int = 8) -> GpuTimeFacts:
    """Collect the time-model numbers of ``gpu`` (a catalog GPU or id) with the scenario's overrides.

    Raises :class:`errors.CatalogError` when the catalog lacks the GPU's peak for ``precision``.
    """

    g = C.get_gpu(gpu)
    notes: list[str] = []
    peak = C.peak_tflops(g, precision)
    if peak is None and precision in ("bf16", "fp16"):
        other = "fp16" if precision == "bf16" else "bf16"
        peak = C.peak_tflops(g, other)
        if peak is not None:
            notes.append(MsgStr.make("Timing", QT_TRANSLATE_NOOP("Timing", "no {p} peak in the catalog; using the {o} figure"),
                p=precision, o=other))
    if peak is None:
        raise CatalogError(MsgStr.make("Timing", QT_TRANSLATE_NOOP("Timing", "the catalog has no dense {p} TFLOPS for {gpu}; choose another precision or GPU, "
            "or set assumptions.mfu with a known peak"), p=precision, gpu=g.id))
    peak16 = peak
    if precision == "fp8":
        peak16 = C.peak_tflops(g, "bf16") or peak / 2.0
    mem_bw = g.mem_bw_tbs
    if mem_bw is None:
        mem_bw = 1.0
        notes.append(QT_TRANSLATE_NOOP("Timing", "memory bandwidth unknown; assuming 1 TB/s"))
    gen = gpu_generation(g)

    link, busbw, p2p_uni = _intra_node_link(g, intra_node, notes)
    net, nics_per_node, per_nic = _inter_node_fabric(link, gen, inter_node, nics_per_node, gpus_per_node)
    nic_per_gpu = per_nic * nics_per_node / max(gpus_per_node, 1)
    return GpuTimeFacts(
        gpu_id=g.id, peak_tflops=float(peak), peak16_tflops=float(peak16), mem_bw_tbs=float(mem_bw),
        gen_efficiency=GEN_EFFICIENCY[gen] * sustained_clock_factor(g, precision), intra_link=link, intra_busbw_gbs=float(busbw),
        intra_p2p_gbs=p2p_uni, nic_gbs_per_gpu=float(nic_per_gpu),
        inter_node=net.id, nics_per_node=float(nics_per_node), notes=tuple(notes),
        host_link_gbs=_PCIE_UNI.get(g.pcie_gen or HOST_PCIE_GEN.get(gen, 4), 32.0),
        host_cpu_factor=host_cpu_factor(g.id),
        sm_ghz=sm_cycle_rate(g) * sustained_clock_ratio(g) / 1e9, architecture=getattr(g, "architecture", None),
        fp32_tflops=float(getattr(g, "fp32_tflops", None) or 0.0),
    )


#: Issue 35 round 7 (geserve7): a GeForce board's tensor cores run at its sustained clock, above the clock its datasheet
#: rates are computed at. The catalog's RTX 4090 figures are the NVIDIA Ada Lovelace GPU architecture whitepaper's
#: (Appendix A, Table 5: 165.2 dense BF16/FP16 TFLOPS with FP32 accumulate, 330.3 FP8, at the 2,520 MHz boost clock);
#: GPU Boost raises the clock further while power and temperature allow. A stock RTX 4090 Founders Edition at 97%
#: load and 446.9 W held 2,730 MHz (GPU-Z capture, hothardware.com "Overclocking NVIDIA's GeForce RTX 4090 To 3.2GHz",
#: Oct 2022; NVIDIA's own launch demo showed 2,810-2,850 MHz, tweaktown.com news 88568): 2,730 / 2,520. Measured under
#: serving kernels the same way: casys-kaist/LLMServingSim's RTX 4090 profile (commit 5daddb2,
#: profiler/perf/RTX4090/meta-llama/Llama-3.1-8B/bf16/tp1/dense.csv, vLLM 0.19.0) runs a Llama-3.1-8B layer's four
#: linear layers at 2,048 rows at 163-166 TFLOPS, 0.99-1.01 of the datasheet peak, which no kernel reaches at the
#: datasheet's clock; binbinsh/gpu-bench README (cuBLASLt, 8192³): RTX 4090 BF16 175.1 TFLOP/s (1.06 of 165.2) and FP32
#: 89.9 of 82.6 (1.088, the clock ratio itself: FMA loops run at the clock), RTX 5090 D 234.8 BF16 and 116.3 of 104.8 FP32
#: (1.11). The lower 4090 figure is used for every GeForce card. Used by the serving sizer's peak
#: (``inference.peak_flops``) and the time model's SM clock (:func:`gpu_time_facts` ``sm_ghz``); the time model's matmul
#: share takes :func:`sustained_clock_factor` instead (a measured matmul maximum, which holds the same clock: 178.8 /
#: 165.2 = 1.082), so the clock is not counted twice and MFU stays against the datasheet peak. Only for GeForce (catalog class "consumer"):
#: datacenter and workstation boards run at lower power limits, and no measurement above their datasheet rates was
#: found. The FP32-accumulate rate stays the peak (the catalog note; vLLM's and PyTorch's GEMMs accumulate in FP32).
GEFORCE_SUSTAINED_CLOCK_RATIO = 2730.0 / 2520.0


def sustained_clock_ratio(g: Any) -> float:
    """The SMs' sustained clock over the datasheet's boost clock: :data:`GEFORCE_SUSTAINED_CLOCK_RATIO` on GeForce
    cards (catalog class "consumer"), 1 elsewhere."""
    return GEFORCE_SUSTAINED_CLOCK_RATIO if getattr(g, "gpu_class", "") == "consumer" else 1.0


def sm_cycle_rate(g) -> float:
    """SM cycles per second (SM count x clock) from the catalog's dense FP32 TFLOPS and the architecture's FP32 lanes
    per SM (:data:`FP32_LANES_64`); 0 for non-NVIDIA parts or an unknown FP32 rate."""
    fp32 = float(getattr(g, "fp32_tflops", None) or 0.0)
    gid = str(getattr(g, "id", "")).lower()
    if fp32 <= 0.0 or (gpu_generation(g) in ("cdna2", "cdna3", "other") and not gid.startswith(FP32_LANES_64)):
        return 0.0
    return fp32 * 1e12 / (2.0 * (64.0 if gid.startswith(FP32_LANES_64) else 128.0))


#: Bus bandwidth between GPUs without peer-to-peer support across CPU sockets (NVIDIA/nccl-tests #307:
#: NCCL's topology model gives 10 GB/s to SYS paths on an 8×RTX 4090 server).
NO_P2P_SYS_GBS = 10.0

# PCIe x16 one-way GB/s by generation (gpu-catalog.md §2.1)
_PCIE_UNI = {3: 16.0, 4: 32.0, 5: 64.0, 6: 128.0}


def _find_network(net_id: str):

    try:
        return C.get_network(net_id)
    except Exception:  # noqa: BLE001 - an unknown id just means "no measurement"
        return None


# ----------------------------------------------------------------------------------- vectorised model


#: NCCL's ring latency model (NVIDIA/nccl ``src/graph/tuning.cc``, Ring/Simple protocol): a base latency
#: of 8.4 µs per collective plus 3.4 µs per ring step inside a node (NVLink) and 14 µs per step that
#: crosses the network. All-reduce takes 2(n−1) steps, all-gather/reduce-scatter n−1.
NCCL_BASE_LAT = 8.4e-6
NCCL_INTRA_STEP_LAT = 3.4e-6
NCCL_NET_STEP_LAT = 14e-6


_ArrayOps, _ScalarOps, _ops_for = ArrayOps, ScalarOps, ops_for


def _ring_latency(n, gpus_per_node, collective: str, ops=_ArrayOps):
    """Latency of one ring collective over ``n`` GPUs packed ``gpus_per_node`` to a node (seconds)."""
    n = ops.maximum(ops.f(n), 1.0)
    nodes = ops.maximum(units_nodes(n, gpus_per_node), 1.0)
    inter = nodes - 1.0
    intra = (n - 1.0) - inter
    k = 2.0 if collective == "all_reduce" else 1.0
    return ops.where(n > 1, NCCL_BASE_LAT + k * (intra * NCCL_INTRA_STEP_LAT + inter * NCCL_NET_STEP_LAT), 0.0)


def lora_gemm_rerun(rec_whole, rec_op, op_lin):
    """The LoRA adapter GEMMs' recompute forwards per layer, and the forwards of them per-op SAC skips.

    Whole-layer recompute re-runs both GEMMs (``rec_whole``). torchtitan's per-op SAC re-runs every element-wise
    op but saves every other ``aten.mm`` output (recompute.op_sac_plan), so only ``op_lin`` of the matmuls re-run;
    the model counts the adapters' FLOPs in that share (``rec_tok``, flops.recompute_flops_per_token). Their operand
    bytes (flops.LORA_GEMM_FWD: x read by ``lora_A``, ``lora_B``'s output written) are 1/(2·r) of their FLOPs in
    every pass, so both re-run ``rec_whole + rec_op·op_lin`` times; ``rec_op·(1 − op_lin)`` is the part the adapter
    traffic (flops.lora_traffic_elements, all re-run) must not count. Returns ``(rerun, skipped)``."""
    return rec_whole + rec_op * op_lin, rec_op * (1.0 - op_lin)


def tp_layer_collectives(rec_whole, rec_op):
    """A layer's tensor-parallel collectives with sequence parallelism, in all-reduce units (an all-gather and a
    reduce-scatter make one): forward and backward each run two of each (4), full recomputation re-runs the
    forward's (2·rec_whole), per-op SAC only its all-gathers (rec_op; torchtitan saves the reduce-scatter outputs)."""
    return 4.0 + 2.0 * rec_whole + rec_op


def gpt_neox_tp_collectives(rec_whole):
    """A GPT-NeoX v1.0 layer's tensor-parallel all-reduces with ``gpt_j_residual`` (issue 35 round 10, neox11), read in
    EleutherAI/gpt-neox v1.0 (71df4d5017f9): ``megatron/model/transformer.py`` ``ParallelTransformerLayer.forward``
    builds the attention and the MLP with ``parallel_output=True`` (their row-parallel outputs are not reduced,
    ``mpu/layers.py`` ``RowParallelLinear.forward``) and reduces once, ``residual + self.reduce(output)``
    (``reduce_from_model_parallel_region``: all-reduce forward, identity backward): 1 in the forward. The backward
    all-reduces the input gradient of each column-parallel linear (``copy_to_model_parallel_region`` in
    ``ColumnParallelLinear.forward``; query_key_value and dense_h_to_4h take different inputs, x1 and x2): 2. Whole-layer
    recomputation re-runs the forward's 1. No sequence parallelism at v1.0. Against Megatron's 4 + 2 (recompute)."""
    return 3.0 + rec_whole


def _tp_gather_share(rec_whole, rec_op):
    """The all-gathers' share of a layer's tensor-parallel collectives (:func:`fp8.tp_gather_halves` of
    :func:`tp_layer_collectives`)."""
    return fp8mod.tp_gather_halves(rec_whole, rec_op) / tp_layer_collectives(rec_whole, rec_op)


def tp_fp8_gather_scale(framework: str, precision: str, fp8_recipe, rec_whole, rec_op):
    """The layers' tensor-parallel bytes as a share of the 16-bit bytes. torchtitan with torchao tensorwise float8
    (:func:`fp8.torchtitan_tp_float8`): ``Float8ColwiseParallel`` / ``Float8RowwiseParallel`` cast on the shard
    before the all-gathers, so every all-gather (forward, backward, recompute: :func:`fp8.tp_gather_halves`) moves
    1 byte per element; the reduce-scatters stay 16-bit. Per layer the collectives are ``4 + 2·rec_whole + rec_op``
    all-reduce units, ``2 + rec_whole + rec_op`` of them gathers: scale ``1 − ½·gathers/all``. 1 otherwise."""
    if fp8mod.torchtitan_tp_float8(framework, precision, fp8_recipe) != "tensorwise":
        return 1.0
    return 1.0 - (1.0 - fp8mod.TP_FP8_GATHER_BYTES / 2.0) * _tp_gather_share(rec_whole, rec_op)


def tp_async_unfused_share(framework: str, precision: str, fp8_recipe, rec_whole, rec_op):
    """The share of the layers' tensor-parallel time that torch's AsyncTP (``_micro_pipeline_tp``) cannot pipeline.
    The inductor pass (``torch/_inductor/fx_passes/micro_pipeline_tp.py``) fuses an all-gather only with the matmuls
    that take the gathered tensor as their ``A`` operand (``_find_consumer_matmuls``: ``mm`` / ``_scaled_mm``, through
    a reshape), and a reduce-scatter with the matmul that produces its input (``_find_producer_matmul``). Under
    torchtitan's plain TP with rowwise float8 (:func:`fp8.torchtitan_tp_float8`) every gathered tensor (forward
    inputs, backward output gradients) is first cast by ``Float8Linear``, so no gather is fused: their share
    (:func:`fp8.tp_gather_halves` of ``4 + 2·rec_whole + rec_op``) stays exposed; the reduce-scatters after
    ``_scaled_mm`` are fused (``fused_scaled_matmul_reduce_scatter``). 0 otherwise."""
    if fp8mod.torchtitan_tp_float8(framework, precision, fp8_recipe) != "rowwise":
        return 0.0
    return _tp_gather_share(rec_whole, rec_op)


def tp_replicated_cast_bytes(m: ModelFacts, framework: str, precision: str, fp8_recipe, x_b, dy_b, tp, pp, cp):
    """Per replica token: the FP8 cast bytes torchao's rowwise recipe adds under torchtitan's plain tensor
    parallelism (:func:`fp8.torchtitan_tp_float8`). ``Float8Linear`` casts the gathered attention/MLP inputs and the
    gathered output gradients of the output/down projections on every TP rank (:func:`fp8.tp_replicated_cast_elements`),
    so those casts are not split by ``tp``: the ``(1 − 1/tp)`` share that the split count leaves out. 0 otherwise."""
    if fp8mod.torchtitan_tp_float8(framework, precision, fp8_recipe) != "rowwise":
        return 0.0
    x_rep, dy_rep = fp8mod.tp_replicated_cast_elements(m)
    return (x_rep * x_b + dy_rep * dy_b) * (1.0 - 1.0 / tp) * m.L / (pp * cp)


def _ring_factor(n, collective: str, ops=_ArrayOps):
    """Bytes moved per GPU per byte of buffer: all-reduce 2(n−1)/n, all-gather/reduce-scatter (n−1)/n."""
    n = ops.maximum(ops.f(n), 1.0)
    f = (n - 1.0) / n
    return 2.0 * f if collective == "all_reduce" else f


def eager_norm_factor(m: ModelFacts) -> float:
    """The norms' share of :data:`UNFUSED_FACTOR` in eager PyTorch, as a multiplier on it: 1 for RMSNorm (Hugging Face
    ``LlamaRMSNorm`` runs ~5 separate fp32 kernels, the judgement behind the factor), ``1 / UNFUSED_FACTOR`` for
    LayerNorm, which eager PyTorch already runs as one fused kernel that reads ``x`` and writes ``y`` once:
    ``torch.nn.functional.layer_norm`` → ``aten::native_layer_norm`` (PyTorch
    ``aten/src/ATen/native/cuda/layer_norm_kernel.cu``, ``LayerNormKernelImpl``: one vectorised kernel forward; the
    backward one input-gradient kernel plus the weight/bias reduction). llm-foundry's MPT ``LPLayerNorm``
    (``llmfoundry/models/layers/norm.py``, v0.3.0) casts to 16 bits and calls that same ``layer_norm``; nn.LayerNorm
    (GPT-2, OPT, BLOOM, Falcon) too. Its traffic is then the fused count (read + write ``h``, 16-bit)."""
    return 1.0 / UNFUSED_FACTOR if m.arch.norm_type.startswith("layernorm") else 1.0


#: Activations eager PyTorch runs as one ATen kernel (read ``f``, write ``f``: the fused count): ``nn.GELU`` /
#: ``F.gelu`` (exact or ``approximate='tanh'``; PyTorch ``aten/src/ATen/native/cuda/ActivationGeluKernel.cu``) and
#: ``F.relu``. Hugging Face ``activations.py`` ``ACT2FN``: ``gelu`` → ``GELUActivation`` (``F.gelu``),
#: ``gelu_pytorch_tanh`` → ``F.gelu(approximate="tanh")``, ``relu`` → ``nn.ReLU``; llm-foundry MPT ``nn.GELU``
#: (``layers/ffn.py``). Not here: ``gelu_new``/``gelu_fast`` (GPT-2, Phi: tanh formula written as ~8 Python ops),
#: BLOOM's own GeLU, ``quick_gelu`` (``x * sigmoid(1.702 x)``), and gated MLPs (SwiGLU: activation and product).
EAGER_ONE_KERNEL_ACTS = frozenset({"gelu", "gelu_pytorch_tanh", "relu"})


def eager_act_factor(m: ModelFacts) -> float:
    """The MLP activation's share of :data:`UNFUSED_FACTOR` in eager PyTorch, as a multiplier on it:
    ``1 / UNFUSED_FACTOR`` for a plain (non-gated) MLP whose activation is one ATen kernel
    (:data:`EAGER_ONE_KERNEL_ACTS`), else 1 (the judgement behind the factor; an unknown activation keeps it)."""
    if not m.gated and m.arch.mlp_act in EAGER_ONE_KERNEL_ACTS:
        return 1.0 / UNFUSED_FACTOR
    return 1.0


def elementwise_bytes_per_token_layer(m: ModelFacts, seq_len, flash, fused, ops=_ArrayOps, eager_act=True):
    """Forward memory traffic (bytes) of one decoder layer's non-matmul ops per token (16-bit tensors),
    as ``(replicated, split)``: the part every tensor-parallel rank repeats unless sequence parallelism
    splits it (norms, residual adds, hidden-size dropout; Korthikanti et al. 2022 §4.2.2) and the part
    tensor parallelism always splits (activation function, RoPE, attention scores: heads are split).

    Fused kernels (Megatron fused LayerNorm / bias-GeLU / bias-dropout-add, or torch.compile): norms
    read+write ``h`` twice (4h), residual adds 2 × 3h, dropout 2 × 3h, activation ``2f`` (GeLU) or ``3f``
    (SwiGLU), RoPE reads and writes q and k. Without FlashAttention each token's ``heads×s`` score row is
    written by ``QKᵀ``, read+written by the fused softmax, read by ``·V``: 4 passes, 6.5 with attention
    dropout (read, write, 1-byte mask) (Dao et al. 2022 §3.1: standard attention is memory-bound on these).
    Eager PyTorch multiplies the non-attention part by :data:`UNFUSED_FACTOR`, except a LayerNorm's and a
    single-kernel activation's, which are one ATen kernel in eager PyTorch too (:func:`eager_norm_factor`,
    :func:`eager_act_factor`). A squared-ReLU MLP (``hidden_act`` ``relu2``) moves :data:`SQRELU_FWD_ELEMS` per
    element of ``f`` in its activation, fused kernels or not, unless ``eager_act`` is False (torch.compile fuses
    the two ops).
    """
    h = m.h
    f_width = m.mlp_width
    unfused = ops.where(fused, 1.0, UNFUSED_FACTOR)
    norm_unfused = ops.where(fused, 1.0, UNFUSED_FACTOR * eager_norm_factor(m))
    rep = 4.0 * h * norm_unfused + (6.0 * h + (6.0 * h if m.dropout else 0.0)) * unfused
    act_unfused = ops.where(fused, 1.0, UNFUSED_FACTOR * eager_act_factor(m))
    split = (3.0 if m.gated else 2.0) * f_width * act_unfused + 2.0 * (m.q_dim + m.kv_dim) * unfused
    if m.arch.mlp_act == "relu2" and not m.gated:
        # squared ReLU runs as two eager kernels whatever the framework (SQRELU_FWD_ELEMS): in place of 2f
        split = split + (SQRELU_FWD_ELEMS - 2.0 * act_unfused) * ops.where(eager_act, 1.0, 0.0) * f_width
    scores = (6.5 if m.dropout else 4.0) * m.heads * ops.f(seq_len)
    split = split + ops.where(flash, 0.0, scores)
    return 2.0 * rep, 2.0 * split


#: GPT-NeoX v1.0's extra forward element passes per token and decoder layer over the fused Megatron count of
#: :func:`elementwise_bytes_per_token_layer`, in units of ``h`` (one 16-bit read or write of an ``h``-wide row), read in
#: EleutherAI/gpt-neox at tag v1.0 (71df4d5017f9) ``megatron/model/transformer.py`` (issue 35 round 10, neox11):
#:
#: * ``ParallelTransformerLayer.forward``: ``bias_dropout_fusion`` is False by default (``neox_arguments/neox_args.py``;
#:   the Pythia configs do not set it), so ``get_bias_dropout_add`` runs ``x + bias`` as its own kernel (read h, write
#:   h) before the dropout and the residual add (``model/fused_bias_dropout.py`` ``bias_dropout_add``), for the
#:   attention's and the MLP's output bias: 2 × 2h, replicated over the TP ranks (no sequence parallelism). The
#:   residual adds themselves are the model's 2 × 3h: with ``gpt_j_residual`` the attention + MLP add and
#:   ``residual + self.reduce(output)``; without it the two bias-dropout-add residuals. (Dropout 0, as Pythia's
#:   ``hidden-dropout``: ``F.dropout`` with p = 0 returns its input.) The MLP's bias rides in the fused bias-GeLU
#:   (``ParallelMLP.forward``, ``bias_gelu_fusion`` on in the Pythia configs).
#: * ``ParallelSelfAttention.forward``, partial rotary (``rotary_ndims``; ``rotary_pct`` 0.25 in the Pythia and 20B
#:   configs): ``torch.cat((query_layer, query_pass))`` and the same for the keys write whole new q and k after the
#:   rotated quarter: read + write of q and k, ``2(q + k)`` = 4h for MHA, split by TP (heads). The rotary fraction is
#:   not in the model's facts, so it is counted for every rotary model under GPT-NeoX (``rotary_pct`` 1.0, the
#:   neox_args default, would skip the cat: an over-count there).
#: * ``ParallelSelfAttention.flash_attention`` (``attention-config`` flash): q, k and v go ``transpose(0, 1)
#:   .reshape(b·s, 1, np, hn)``, a copy each when the micro-batch b > 1 (3 × 2h), ``torch.concat`` into the packed
#:   ``[b·s, 3, np, hn]`` (read 3h, write 3h), and the output comes back through ``transpose(1, 2)`` and
#:   ``forward``'s ``permute(2, 0, 1, 3).contiguous()`` (2h, a copy when b > 1): 14h with b > 1, 6h (the concat)
#:   with b = 1. Split by TP. q, k, v of an ``h``-wide MHA layer (GPT-NeoX has no GQA at v1.0).
NEOX_BIAS_ADD_H = 4.0
NEOX_ROTARY_CAT_H = 4.0
NEOX_FLASH_LAYOUT_H = 14.0
NEOX_FLASH_LAYOUT_B1_H = 6.0


def gpt_neox_copies_bytes(m: ModelFacts, tool, flash, mbs, ops=_ArrayOps):
    """Forward bytes per token and decoder layer that GPT-NeoX v1.0's layer moves beyond the fused Megatron count
    (:data:`NEOX_BIAS_ADD_H` etc., 16-bit), as ``(replicated, split)`` like :func:`elementwise_bytes_per_token_layer`
    (which its caller adds them to, so the backward and the recompute scale them the same way); zero for every other
    framework or tool. ``mbs``: the micro-batch (the flash path's transposes are views at b = 1)."""
    if tool != "gpt-neox":
        return 0.0, 0.0
    h = float(m.h)
    rot = NEOX_ROTARY_CAT_H if m.arch.position_embedding == "rope" else 0.0
    layout = ops.where(ops.f(mbs) > 1.0, NEOX_FLASH_LAYOUT_H, NEOX_FLASH_LAYOUT_B1_H)
    split = (rot + ops.where(flash, layout, 0.0)) * h
    return 2.0 * NEOX_BIAS_ADD_H * h, 2.0 * split


def z3_window_bytes(m: ModelFacts, fused, lora: bool, framework: str, lora_targets: str, lora_dropout: float,
                    ops=_ArrayOps):
    """Forward bytes per token and decoder layer of the element-wise work in the segments after DeepSpeed ZeRO-3's
    open releases that hold any (core/zero3.py ``Z3_WINDOWED_RELEASES_LAYER``): one norm (``h`` read and written,
    eager RMSNorm's kernels: :func:`eager_norm_factor`), the MLP activation (``f`` read and written:
    :func:`eager_act_factor`) and, with ``lora_dropout`` > 0, each adapted linear's dropout on its input (2.5
    ``fan_in`` 16-bit units: ``flops.lora_traffic_elements``). The gathers issued there can hide under it."""
    f_width = m.mlp_width
    norm = 2.0 * m.h * ops.where(fused, 1.0, UNFUSED_FACTOR * eager_norm_factor(m))
    act = 2.0 * f_width * ops.where(fused, 1.0, UNFUSED_FACTOR * eager_act_factor(m))
    drop = 0.0
    if lora and lora_dropout > 0.0:
        d_in, _d_out = F.lora_io_elements(lora_arch(m.arch, framework), lora_targets)
        drop = 2.5 * d_in / max(float(m.L), 1.0)
    return 2.0 * (norm + act + drop)


def full_square_extra_flops(m: ModelFacts, s, attn_len, ops=_ArrayOps):
    """Attention FLOPs per token and forward pass that a kernel multiplying the whole ``s × s`` square (the causal
    mask applied after) runs beyond the causal count over the attended span ``a`` (``flops.attended_context``):
    ``2 · (s − (a+1)/2) · (q_dim + v_dim) · L``. ``s``: the row length as a float or array."""
    return 2.0 * (s - (ops.f(attn_len) + 1.0) / 2.0) * (m.q_dim + m.v_dim) * m.L


#: Megatron's attention core without FlashAttention, per element of the ``heads × s × s`` score tensor, in 16-bit
#: element passes (forward, backward), with attention dropout / without. Counted in NVIDIA/Megatron-LM at the SC21
#: artifact's commit de7dc40f (``megatron/model/transformer.py`` ``ParallelAttention.forward``, the code of Narayanan
#: et al. 2021, and the same in Megatron-Core's ``DotProductAttention``): ``torch.baddbmm`` writes the scores (1);
#: ``FusedScaleMaskSoftmax`` → ``ScaledUpperTriangMaskedSoftmax`` (``fused_kernels/scaled_upper_triang_masked_softmax.h``:
#: each row reads only its ``row + 1`` causal keys, ``local_seq = blockIdx.x + 1``, and writes the whole row, zeros
#: past the diagonal) reads ½ and writes 1; ``torch.nn.Dropout`` reads 1, writes 1 and a 1-byte mask (½);
#: ``torch.bmm(probs, v)`` reads 1: 6 (3.5 without dropout). Backward: the bmm's two products write the probabilities'
#: gradient and read the probabilities (2), the dropout's masked scale reads the gradient and the mask and writes (2.5),
#: the softmax backward kernel reads gradient and output over the causal half (½ + ½) and writes the row (1), the
#: baddbmm's two products read the scores' gradient twice (2): 8.5 (6 without dropout). The generic count
#: (:func:`elementwise_bytes_per_token_layer`: 6.5 / 4 forward, the backward twice the forward) is for eager attention.
MEGATRON_SCORES_ELEMS = {True: (6.0, 8.5), False: (3.5, 6.0)}


def megatron_attention_core(m: ModelFacts, seq_len, attn_len, rec_fwd, ops=_ArrayOps) -> tuple:
    """Megatron's non-flash attention core against the generic model, per token (before the TP split):
    ``(score bytes the generic count overstates, extra attention FLOPs per forward pass)``. Bytes: the generic
    ``(6.5 | 4) × (3 + rec_fwd)`` element passes less :data:`MEGATRON_SCORES_ELEMS`' ``fwd × (1 + rec_fwd) + bwd``,
    ``rec_fwd`` the recomputed forwards (whole layers). FLOPs: ``baddbmm`` and ``bmm`` multiply the whole ``s × s``
    square, the causal mask is applied after (the same code), so each forward pass of the core costs
    ``2 · (s − (a+1)/2) · (q_dim + v_dim) · L`` FLOPs beyond the causal count over the attended span ``a``
    (``flops.attended_context``); the caller multiplies it by the passes (3 + recomputed forwards, as the causal
    count)."""
    s = ops.f(seq_len)
    fwd_new, bwd_new = MEGATRON_SCORES_ELEMS[bool(m.dropout)]
    old = (6.5 if m.dropout else 4.0) * (3.0 + rec_fwd)
    saving = 2.0 * m.heads * s * (old - (fwd_new * (1.0 + rec_fwd) + bwd_new))
    extra_flops = full_square_extra_flops(m, s, attn_len, ops)
    return saving, extra_flops



#: Hugging Face Transformers' eager attention (``attn_implementation="eager"``: our ``flash_attention: false`` on the
#: HF stack), per element of the ``heads × s × s`` score tensor, in 16-bit element passes (forward, backward), with
#: attention dropout / without. Counted in huggingface/transformers v4.36.0 ``models/llama/modeling_llama.py``
#: ``LlamaAttention.forward`` (the same ops in v4.48+ ``eager_attention_forward``, shared by Llama, Mistral, Qwen2/3,
#: Gemma, …): ``torch.matmul(q, kᵀ)`` writes the whole square (1); ``/ math.sqrt(head_dim)`` (``* scaling`` from 4.48)
#: reads and writes (2); ``+ causal_mask`` (the 4-D float mask of ``_prepare_4d_causal_attention_mask``, one per batch
#: row, broadcast over the heads) reads and writes (2); ``softmax(dim=-1, dtype=torch.float32)`` reads 16-bit and
#: writes fp32 (1 + 2); ``.to(query.dtype)`` reads fp32 and writes 16-bit (2 + 1); ``nn.functional.dropout(p=
#: attention_dropout)`` is no kernel at p = 0 (PyTorch ``aten/src/ATen/native/Dropout.cpp``: ``_dropout_impl`` returns
#: the input when ``p == 0``; the fused ``native_dropout`` needs ``0 < p < 1``), else reads, writes and a 1-byte mask
#: (2.5); ``torch.matmul(probs, v)`` reads (1): 12 (14.5 with dropout). Backward: the second matmul's two products
#: write the probabilities' gradient and read the probabilities (2); [dropout's masked scale 2.5]; the cast's backward
#: reads 16-bit, writes fp32 (3); ``_softmax_backward_data`` reads the fp32 gradient and the fp32 output it saved and
#: writes the 16-bit input gradient (2 + 2 + 1); the mask add passes the gradient through (0); the scale reads and
#: writes (2); the first matmul's two products read the scores' gradient twice (2): 14 (16.5). The generic count
#: (:func:`elementwise_bytes_per_token_layer`: 4 / 6.5 forward, the backward twice that) is a fused softmax's.
#: Issue 35 round 17 (ptoos17): PyTorch's softmax backward first multiplies the incoming gradient by the saved output
#: in a kernel of its own, ``Tensor tmp = grad * output;`` (``aten/src/ATen/native/cuda/SoftMax.cu``
#: ``softmax_backward_cuda_out``, the same line in every release since the THCUNN port), and
#: ``host_softmax_backward`` then reads ``tmp`` in place of the gradient: one more fp32 read of the gradient and of
#: the output and an fp32 write, 2 + 2 + 2 = 6 passes in the backward: 20 (22.5). Check: PyTorch's standard attention
#: on an A100 (FlashAttention-2 paper Fig. 4, ``attention_pytorch``; bench/validate_pt_oos17.py): 20 bars, median
#: |error| 27.9% → 7.9% with this kernel counted. (Not counted: BF16 scores take no fused 16-bit-to-fp32 softmax —
#: ATen ``SoftMax.cpp`` ``softmax`` casts them to fp32 first — the ptoos17 note's held-back sensitivity.)
HF_EAGER_SCORES_ELEMS = {True: (14.5, 22.5), False: (12.0, 20.0)}
#: The engines that run Hugging Face modelling code, whose ``flash_attention: false`` means Transformers' eager
#: attention (:data:`HF_EAGER_SCORES_ELEMS`); Unsloth replaces the attention with its own kernels (xformers/SDPA).
HF_EAGER_ENGINES = ("hf", "deepspeed")


def hf_eager_attention_core(m: ModelFacts, seq_len, attn_len, rec_fwd, ops=_ArrayOps) -> tuple:
    """Transformers' eager attention against the generic model, per token (before the TP split): ``(score bytes the
    generic count leaves out, extra attention FLOPs per forward pass)``, with :func:`megatron_attention_core`'s
    structure. Bytes: :data:`HF_EAGER_SCORES_ELEMS`' ``fwd × (1 + rec_fwd) + bwd`` less the generic
    ``(6.5 | 4) × (3 + rec_fwd)``. FLOPs: ``torch.matmul`` multiplies the whole ``s × s`` square and the causal mask
    is added after, so each forward pass costs ``2 · (s − (a+1)/2) · (q_dim + v_dim) · L`` FLOPs beyond the causal
    count over the attended span ``a`` (as Megatron's ``baddbmm``/``bmm``)."""
    s = ops.f(seq_len)
    fwd_new, bwd_new = HF_EAGER_SCORES_ELEMS[bool(m.dropout)]
    old = (6.5 if m.dropout else 4.0) * (3.0 + rec_fwd)
    extra_bytes = 2.0 * m.heads * s * (fwd_new * (1.0 + rec_fwd) + bwd_new - old)
    extra_flops = full_square_extra_flops(m, s, attn_len, ops)
    return extra_bytes, extra_flops


#: PyTorch SDPA's memory-efficient backend (the xFormers "cutlass" kernel, ``aten/src/ATen/native/transformers/cuda/
#: mem_eff_attention``) against FlashAttention-2 on the same work, as a time ratio. FlashAttention-2 paper (Dao 2023,
#: arXiv:2307.08691, §4.1, Fig. 4: forward + backward on an A100 80GB SXM4, head dim 64 and 128, 512 to 16k tokens):
#: "FlashAttention-2 is around 2× faster than FlashAttention and FlashAttention in xformers (the 'cutlass'
#: implementation)". PyTorch's SDPA tutorial (``intermediate/scaled_dot_product_attention_tutorial``, its published
#: output, an Ampere GPU, fp16, 32 × 32 heads × 1024 × 32, forward): flash 2,304.6 µs, memory-efficient 4,197.1 µs,
#: 1.82 ×. One figure, the paper's training one.
SDPA_MEM_EFF_TIME_FACTOR = 2.0


def hf_sdpa_masked_core(m: ModelFacts, seq_len, attn_len, rec_fwd, ops=_ArrayOps) -> tuple:
    """Transformers' SDPA on a padded batch, against the flash kernel the model prices, per token (before the TP
    split): ``(mask bytes, extra attention FLOPs per forward pass)``.

    Dispatch: Transformers drops the mask and passes ``is_causal=True`` only when no token is padded
    (``_ignore_causal_mask_sdpa``: ``modeling_attn_mask_utils.AttentionMaskConverter`` v4.38–4.47, ``masking_utils``
    from v4.53; ``integrations/sdpa_attention.py`` ``sdpa_attention_forward``: ``is_causal = query.shape[2] > 1 and
    attention_mask is None``), "allowing to dispatch to the flash attention kernel (that can otherwise not be used
    if a custom ``attn_mask`` is passed)". A padded batch passes the 4-D mask; PyTorch's flash backend refuses it
    (``aten/src/ATen/native/transformers/sdp_utils_cpp.h`` ``check_for_attn_mask``, in ``cuda/sdp_utils.cpp``
    ``can_use_flash_attention``'s constraints, v2.1–2.11), the memory-efficient backend takes it and, with
    ``is_causal`` false, multiplies the whole ``s × s`` square: ``2 · (s − (a+1)/2) · (q_dim + v_dim) · L`` FLOPs
    per forward pass beyond the causal count, as :func:`hf_eager_attention_core`. The kernel reads the mask, one
    ``s × s`` 16-bit tile set per batch row broadcast over the heads (stride 0; one row's mask, 8 MiB at 2,048
    tokens, stays in L2 across its heads), in each forward and in the backward: ``2 · s · (1 + rec_fwd + 1)``
    bytes. The memory-efficient kernel's rate: :data:`SDPA_MEM_EFF_TIME_FACTOR` (in :func:`time_gpu`); where the
    mask lands on cuDNN's backend (``attention_kernel`` ``cudnn``, :func:`sdpa_masked`) the whole square runs at
    cuDNN's own rate."""
    s = ops.f(seq_len)
    mask_bytes = 2.0 * s * (2.0 + rec_fwd)
    extra_flops = full_square_extra_flops(m, s, attn_len, ops)
    return mask_bytes, extra_flops


_LORA_CACHE: dict = {}


def lora_arch(a, framework: str):
    """The layer shapes LoRA adapters wrap. Megatron-Core stores q/k/v as one ``linear_qkv`` and gate/up as one
    ``linear_fc1`` (``SelfAttention``, ``MLP`` with ``gated_linear_unit``), and Megatron-Bridge's ``LoRALinear`` wraps
    those modules (``peft/lora.py``: ``target_modules`` ``linear_qkv``, ``linear_proj``, ``linear_fc1``, ``linear_fc2``):
    one adapter per fused matrix, reading the layer input once (``ParallelLinearAdapter.forward`` on the norm output the
    fused linear returns). Its forward then scales (``x * (alpha / dim)``) and ``LoRALinear.forward`` adds
    (``linear_output + adapter_output``) as separate eager ops (``peft/utils.py``, ``peft/lora_layers.py``)."""
    if framework != "megatron":
        return a
    return _replace(a, fused_qkv=True, fused_gate_up=bool(a.gated_mlp))


def _lora_total(m: ModelFacts, rank: int, targets: str) -> float:
    key = (m.arch, rank, targets)
    v = _LORA_CACHE.get(key)
    if v is None:

        if len(_LORA_CACHE) > 256:
            _LORA_CACHE.clear()
        v = _LORA_CACHE[key] = (float(lora_params(m.arch, rank, targets)[0]),
                                float(lora_params(m.arch, rank, targets)[1]))
    return v


def _dequant_bytes(m: ModelFacts) -> float:
    key = ("dequant", m.arch)
    v = _LORA_CACHE.get(key)
    if v is None:
        v = _LORA_CACHE[key] = F.qlora_dequant_bytes(m)
    return v


# ------------------------------------------------------------------------------- communication overlap

# OVERLAP_FIELDS and overlap_flags live in core/overlap.py (frameworks reads the defaults without the time model)


def fsdp2_edge_unit_bytes(m: ModelFacts, framework: str, fsdp_version: int, root_embedding: bool, lora: bool,
                          tp, pp, L_stage, w_bytes, g_bytes, ag_factor, ops=_ArrayOps) -> tuple:
    """FSDP2's outer units, whose collectives have no compute to hide under: the bytes (per GPU, per micro-batch)
    of the step's first all-gather and last reduce-scatter beyond one decoder block's share, which
    :func:`time_gpu` already leaves exposed (``gather / L``). Returns ``(gather_bytes, reduce_scatter_bytes)``.

    * torchtitan's ``apply_fsdp`` (``models/llama3/infra/parallelize.py``; since 83e694105, July 2025) wraps
      ``tok_embeddings`` as its own unit, each block, and ``norm`` + ``output`` together; before it
      (``training.fsdp_root_embedding``) the blocks only, so the embedding, final norm and output form the root
      unit (``fully_shard(model)``), which FSDP2 never reshards after forward (``FSDPState._lazy_init``: "For the
      root, do not reshard after forward").
    * Forward: the first unit's all-gather, then block 0's, come before any GEMM (the embedding lookup is the only
      work between them); FSDP2's implicit prefetch hides a unit's gather only under the compute of the unit
      before it (``FSDPParamGroup.unshard`` on the all-gather stream, ``wait_for_unshard`` on the compute stream).
    * Backward: a unit is reduce-scattered when all its gradients exist (``post_backward`` → ``foreach_reduce``);
      the embedding's gradients are the last of the step, so that unit's reduce-scatter (the root's, with the
      output's gradient, in the old layout) starts after the last GEMM and the optimizer waits for it
      (``FSDPState._root_post_backward_final_callback`` waits on the reduce-scatter stream).
    * The embedding and output stay in the parameter dtype: torchao's float8 converts ``nn.Linear`` only and
      torchtitan leaves ``output`` out (``float8.filter_fqns``), so they gather in 16 bits under FP8 all-gather.
    * Not LoRA: a frozen embedding has no gradient to reduce. Not with pipeline parallelism (one gather and one
      reduce-scatter per step there, time_gpu's ``fsdp_pp`` term). FSDP2 only (``fully_shard``); FSDP1 not read.
    """
    on = (framework == "fsdp") and fsdp_version == 2
    if not on:
        return 0.0, 0.0
    edge = float(m.first_extra + (m.last_extra if root_embedding else 0))  # the first unit's parameters
    spread = float(m.first_extra + m.last_extra) / L_stage  # their share in the per-block average
    units = ops.maximum(edge - spread, 0.0) / (tp * pp)
    ag = units * w_bytes * ag_factor
    rs = 0.0 if lora else units * g_bytes * ag_factor
    return ag, rs


def grad_reduce_bytes(framework: str, precision: str, master_weights: bool = True, lora: bool = False) -> float:
    """Bytes per gradient element on the wire of the data-parallel reduction.

    Megatron reduces its fp32 main gradients (bf16 forces ``accumulate_allreduce_grads_in_fp32``:
    ``megatron/training/arguments.py``; fp16 keeps the parameter dtype unless that flag is given); FSDP2 under
    torchtitan reduce-scatters in ``MixedPrecisionPolicy.reduce_dtype = float32`` (torchtitan
    ``training.mixed_precision_reduce``); the HF Trainer's fp32 weights under autocast have fp32 gradients
    that DDP all-reduces; DeepSpeed reduces 16-bit gradients (ZeRO paper §3.1: 2Ψ). Pure 16-bit training
    (``master_weights = false``) and LoRA adapters under PEFT (fp32 adapters: 4) follow the weights.
    """
    if precision == "fp32":
        return 4.0
    if framework == "megatron":
        return 2.0 if precision == "fp16" else 4.0
    if framework == "deepspeed":
        return 2.0
    if lora:
        return 4.0 if master_weights else 2.0
    return 4.0 if master_weights else 2.0


def trainer_zero_grad_bytes(framework: str, precision: str, zero, g_bytes, where=np.where):
    """Bytes per gradient element the HF Trainer reduces (``g_bytes``: :func:`grad_reduce_bytes`, its DDP's), at each
    ZeRO stage ``zero`` (element-wise). With ZeRO the Trainer runs DeepSpeed (:func:`bucket_params`): its engine casts
    the module to 16 bits (``_configure_distributed_model``: ``self.module.bfloat16()``/``half()``) and reduces in
    ``communication_data_type``, the 16-bit dtype unless set (deepspeed ``runtime/engine.py`` v0.12.6-v0.15.4):
    DeepSpeed's 2 bytes, not the fp32 gradients of the Trainer's DDP under autocast (issue 35 round 14, dpo14; a
    function of its own since parity14, so the parity tests can switch it off)."""
    if framework == "hf" and precision in ("bf16", "fp16"):
        return where(zero >= 1, 2.0, g_bytes)
    return g_bytes


def lora_fused(framework: str, fused):
    """Whether a LoRA adapter's scaling and add run fused (:data:`flops.LORA_FWD_OUT_FUSED`). Megatron's adapters run
    as eager PyTorch ops even though its layers are fused kernels: Megatron-Bridge ``ParallelLinearAdapter.forward``
    scales with ``x * (self.alpha / self.dim)`` and ``LoRALinear.forward`` returns ``linear_output +
    adapter_output`` (``peft/utils.py``, ``peft/lora_layers.py``; NeMo 1.0's ``ParallelLinearAdapter`` the same); the
    TE operation fuser (``TEFusedLoRALinear``) is used only with ``use_transformer_engine_op_fuser``, off by default
    and in the Llama fine-tuning recipes. Elsewhere ``fused`` (torch.compile) decides."""
    return False if framework == "megatron" else fused


def lora_layer_of(t: Any, engine: str) -> str:
    """The LoRA layer implementation a plan runs (``training.lora_layer``, :data:`flops.LORA_LAYERS`): the scenario's on
    the Hugging Face engines (NeMo AutoModel patches Transformers' ``nn.Linear`` modules), PEFT's where the method is
    not LoRA; Megatron's adapters (:func:`lora_fused`) and Unsloth's kernels are their tools' own
    (:func:`frameworks.lora_layer_applies`, the rule the scenario's check and the Training page read)."""
    layer = getattr(t, "lora_layer", "peft") or "peft"
    if not _frameworks.lora_layer_applies(t.method, bool(getattr(t, "dora", False)), t.framework, engine):
        return "peft"
    return layer


def lora_ops_fused(t: Any, engine: str) -> bool:
    """Whether something fuses PEFT's adapter ops (the scaling, the add, the casts): torch.compile, or a tool whose
    own kernels include the adapters (Unsloth's ``fast_lora``). Liger Kernel does not: its patches
    (linkedin/Liger-Kernel ``transformers/monkey_patch.py`` ``apply_liger_kernel_to_llama``: ``rope``, ``rms_norm``,
    ``swiglu``, ``fused_linear_cross_entropy``) swap the model's norm, MLP activation, RoPE and loss, and PEFT's
    ``lora.Linear.forward`` still adds ``lora_B(lora_A(dropout(x))) * scaling`` in eager PyTorch; so under Liger the
    layers' element-wise ops are fused (``fused``) but the adapters' are not."""
    f = _frameworks.FRAMEWORKS.get(t.framework)
    return bool(engine == "megatron" or getattr(t, "torch_compile", False) or (f is not None and f.fused_kernels))


def trainable_sync_gpu(weight_gpu, grad_gpu, lora: bool):
    """Parameters whose updated 16-bit copies ZeRO-1/2 and Megatron's distributed optimizer all-gather after the
    step: the trainable ones only. Megatron-Core builds its gradient/parameter buffers from parameters that require
    gradients (``distributed_data_parallel.py``: ``if not param.requires_grad: continue``), and the distributed
    optimizer shards and gathers those buffers; DeepSpeed partitions the parameter groups handed to its optimizer
    (PEFT/the HF Trainer hand it the trainable ones). Under LoRA the frozen base weights never move: only the
    adapters (``grad_gpu``) are gathered."""
    return grad_gpu if lora else weight_gpu


def cp_joins_dp(framework: str) -> bool:
    """Context-parallel ranks join the gradient reduction and ZeRO/FSDP sharding group (Megatron's
    distributed optimizer shards over ``data_parallel_group_with_context_parallel``; torchtitan applies
    ``fully_shard`` over the ``dp_shard_cp`` mesh). DeepSpeed and the HF Trainer have no context parallel.
    A fine-tuning tool follows its engine (``frameworks.engine_of``); Nanotron (v0.5) and GPT-NeoX (v1.0) have no
    context parallelism."""
    return _frameworks.engine_of(framework) in ("megatron", "fsdp") and framework not in ("nanotron", "gpt-neox")


def bucket_params(framework: str, zero, n_dp, g_bytes: float, ops=_ScalarOps):
    """Parameters per data-parallel bucket: Megatron-Core ``max(40M, 1M × dp)`` (``DistributedDataParallel``),
    DeepSpeed ZeRO-1/2 ``reduce_bucket_size`` 5e8 elements (DeepSpeed config docs), PyTorch DDP
    ``bucket_cap_mb`` 25 MB of gradients (the HF Trainer with ZeRO: DeepSpeed's)."""
    ddp = 25.0 * 1024 * 1024 / g_bytes
    if framework == "megatron":
        return ops.maximum(4e7, 1e6 * ops.f(n_dp))
    if framework == "deepspeed":
        return 5e8
    if framework == "hf":
        return ops.where(ops.b(zero) >= 1, 5e8, ddp)
    return ddp


#: DeepSpeed's BF16 optimizer (``deepspeed/runtime/bf16_optimizer.py`` ``BF16_Optimizer``, the optimizer DeepSpeed
#: builds for bf16 with ZeRO stage 0; Megatron-DeepSpeed's BLOOM runs: bigscience-workshop/bigscience
#: ``train/tr11-176B-ml/tr11-176B-ml.slurm`` @9e64edec, "bf16 must use z0! it implements its own zero stage 1
#: equivalent") keeps an fp32 gradient per parameter and, after every micro-batch's backward, adds the bf16 gradient
#: into it: ``update_hp_grads`` → ``hp_grad.data.add_(lp.grad.data.to(hp_grad.dtype).view(hp_grad.shape))``
#: (microsoft/DeepSpeed ``bf16_optimizer.py``; the pipeline engine calls it in ``_exec_backward_pass``, "manually
#: call because we don't call optimizer.backward()", ``runtime/pipe/engine.py``; the last stage through
#: ``BF16_Optimizer.backward``). Bytes per trainable parameter and micro-batch: the cast reads the bf16 gradient (2)
#: and writes an fp32 temporary (4); ``add_`` reads it and the fp32 gradient (4 + 4) and writes the sum (4): 18.
#: Megatron-LM accumulates inside the weight-gradient GEMM (``gradient_accumulation_fusion``) and DeepSpeed's fp16
#: path in the 16-bit ``.grad`` (BLOOM's notes: "BF16 optimizer that was just written to accumulate gradients in
#: fp32 … a bit slower — this is compared to fp16 which grad accumulates in fp16", ``chronicles-prequel.md``).
DS_BF16_HP_GRAD_BYTES = 18.0
#: the tools whose DeepSpeed engine picks the BF16 optimizer in bf16 at ZeRO 0 (``training.ds_bf16_grad_accum``)
DS_BF16_OPTIMIZER_TOOLS = ("deepspeed", "gpt-neox")


def ds_bf16_grad_accum_of(choice: bool | None, tool: str | None, precision: str, zero, where=np.where,
                          offload=False):
    """``training.ds_bf16_grad_accum`` as the time model reads it: the user's choice, else on for
    :data:`DS_BF16_OPTIMIZER_TOOLS` in bf16 at ZeRO stage 0 (``zero``: a scalar or the search's column) without
    CPU offload (``offload``: the same). DeepSpeed's ``offload_optimizer``/``offload_param`` live in
    ``zero_optimization`` and take a ZeRO optimizer (stage 1–3): ``DeepSpeedEngine._configure_optimizer`` builds the
    ZeRO optimizer, not ``BF16_Optimizer``, whenever ``zero_optimization()`` (microsoft/DeepSpeed
    ``runtime/engine.py``; docs "ZeRO-Offload", deepspeed.ai/docs/config-json "offload_optimizer ... valid only
    with stage 1, 2 and 3"). Issue 35 r17 mend17b: the planner's 1-GPU offload plans write ZeRO 0 (one rank, no
    sharding) and were charged the BF16 optimizer's fp32 add they do not run."""
    if choice is not None:
        return bool(choice)
    if tool not in DS_BF16_OPTIMIZER_TOOLS or precision != "bf16":
        return False
    return where((zero == 0) & (offload == 0), True, False)


def ds_bucket_engine(framework: str, ds_config_auto: bool | None) -> str:
    """Whose hidden-size keys a DeepSpeed config holds, as core/zero3.py reads its ``framework`` argument:
    ``"deepspeed"`` DeepSpeed's own defaults, ``"hf"`` the ``auto`` fill of Transformers' ``HfTrainerDeepSpeedConfig.
    trainer_config_finalize`` and Accelerate's ``Accelerator._prepare_deepspeed`` (``reduce_bucket_size`` hidden²,
    ``stage3_prefetch_bucket_size`` 0.9·hidden², ``stage3_param_persistence_threshold`` 10·hidden).
    ``training.ds_config_auto`` picks one; null keeps the engine's (other engines: unchanged)."""
    if framework not in ("deepspeed", "hf") or ds_config_auto is None:
        return framework
    return "hf" if ds_config_auto else "deepspeed"


#: DeepSpeed ZeRO-3's defaults, unchanged since ZeRO-3 shipped (v0.3.13, March 2021: ``deepspeed/runtime/zero/
#: constants.py``; today ``deepspeed/runtime/zero/config.py``): parameters with fewer elements than
#: ``stage3_param_persistence_threshold`` stay whole on every rank (never gathered); a fetched parameter is kept
#: after its module ran only if it is used again within ``stage3_max_reuse_distance`` elements of other modules'
#: parameters (``PartitionedParameterCoordinator.release_sub_module`` / ``_keep_for_later``)
DS_PERSISTENCE_THRESHOLD = 1e5
DS_MAX_REUSE_DISTANCE = 1e9


def ds_z3_gather_plan(m: ModelFacts) -> tuple[float, float]:
    """DeepSpeed ZeRO-3's parameter all-gathers per decoder layer: ``(collectives per layer and pass, share of the
    layer's gathered weights gathered once more in the backward of a recomputed layer)``.

    * Granularity: ZeRO-3 fetches per submodule from its forward/backward pre-hooks (``fetch_sub_module``): in
      v0.3.13 (``partition_parameters.py`` ``_all_gather`` → ``_allgather_param``) one ``all_gather`` per
      parameter; since PR #1188 (October 2021) one coalesced all-gather per fetch. Each linear layer is its own
      submodule with one weight above the persistence threshold (its bias and the norms stay whole), so a layer
      issues one all-gather per linear weight and pass, each paying NCCL's ring latency (``_ring_latency``),
      where FSDP gathers the whole wrapped block at once.
    * Re-gather: with the layer recomputed in the backward, the recompute forward fetches each linear again and the
      backward of that linear comes after the recompute of the later linears and their own backward: the reuse
      distance is twice the later linears' elements. Above :data:`DS_MAX_REUSE_DISTANCE` the weight is released
      after the recompute and fetched a third time (``_keep_for_later``). Zero for layers under 5e8 elements (7–70B
      dense models keep everything); two thirds of a GPT-3 175B layer (h = 12,288: q, k, v, o and fc1)."""
    a = m.arch
    lins = params_mod.attention_linears(a) + params_mod.mlp_linears(a, a.num_moe_layers == a.num_layers
                                                                      and a.num_layers > 0)
    # a fused q/k/v (GPT-2 c_attn, NeoX and Megatron query_key_value) or gate/up matrix is one module, one weight
    fused = {"q_proj": "qkv", "k_proj": "qkv", "v_proj": "qkv"} if a.fused_qkv and not a.is_mla else {}
    if a.fused_gate_up:
        fused.update({"gate_proj": "gate_up", "up_proj": "gate_up"})
    mods: dict[str, list[float]] = {}
    for l in lins:
        w = mods.setdefault(fused.get(l.name, l.name), [0.0, float(l.count)])
        w[0] += float(l.weight_each)
    big = [(w, c) for w, c in mods.values() if w >= DS_PERSISTENCE_THRESHOLD]
    units = sum(c for _, c in big)
    total = sum(w * c for w, c in big)
    if not total:
        return 1.0, 0.0
    regather, later = 0.0, 0.0
    for w, c in reversed(big):
        if 2.0 * later > DS_MAX_REUSE_DISTANCE:
            regather += w * c
        later += w * c
    return max(units, 1.0), regather / total


def ds_list_collectives(ds_z3, n_dp, L_stage, units, bwd_gathers, lat_rs, ov_grad, ov_param, overlap_grad_reduce,
                        overlap_param_gather, ops=_ScalarOps):
    """DeepSpeed ZeRO-3 as it shipped from v0.3.13 (March 2021) to v0.5.4 (``training.ds_zero3_gather = "list"``):
    ``(reduce-scatter latency per pass, host seconds per micro-batch, overlap_grad_reduce, overlap_param_gather)``.

    * ``partition_parameters.py`` ``_allgather_param`` gathers one parameter at a time with
      ``torch.distributed.all_gather(partitions, …)`` into a list of ``world_size`` views, after a
      ``torch.cuda.synchronize()``; PyTorch's ``ProcessGroupNCCL::allgather`` gathers into a flat buffer and then
      copies it into the views one ``copy_`` per rank (``torch/lib/c10d/ProcessGroupNCCL.cpp``). Gradients go the
      same way: ``_reduce_scatter_gradients`` reduce-scatters each parameter from ``world_size`` views, which
      ``ProcessGroupNCCL::reduce_scatter`` first copies into a flat buffer one per rank. Each collective costs the
      host one dispatched op per data-parallel rank (:data:`methods.EAGER_OP_S`), with the device drained.
    * Nothing overlaps: DeepSpeed's own PR #1188 (October 2021, v0.5.5), which replaced this code, says "the async
      version is not async at all, because each all_gather calls torch.cuda.synchronize()"; the device-wide
      sync also waits for the gradient reduce-scatters on the reduction stream. The scenario's explicit overlap
      choices stand.
    Gathers per micro-batch: one per gathered weight in the forward and ``bwd_gathers`` in the backward
    (``ds_z3_gather_plan``); reduce-scatters: one per gathered weight."""
    where, f = ops.where, ops.f
    per_rank = f(n_dp) * EAGER_OP_S
    host = where(ds_z3 & (f(n_dp) > 1.0), L_stage * units * (2.0 + bwd_gathers) * per_rank, 0.0)
    lat_rs = where(ds_z3, lat_rs * units, lat_rs)
    if overlap_grad_reduce is None:
        ov_grad = where(ds_z3, False, ov_grad)
    if overlap_param_gather is None:
        ov_param = where(ds_z3, False, ov_param)
    return lat_rs, host, ov_grad, ov_param


def ds_grad_reductions(zero, m_acc, ops=_ScalarOps):
    """DeepSpeed ZeRO-1/2's gradient reduction (``deepspeed/runtime/zero/stage_1_and_2.py``): how many times per
    optimizer step the gradients are reduced, and whether as an all-reduce.

    * ZeRO-2 (``partition_gradients``) reduces in every micro-batch's backward:
      ``reduce_ready_partitions_and_remove_grads`` runs ``if self.partition_gradients or
      self.is_gradient_accumulation_boundary()``, so each micro-batch's gradients are reduced into the rank's
      16-bit partition (accumulated there); ZeRO-1 reduces once, at the accumulation boundary
      (``reduce_gradients``).
    * Since v0.12.4 (PR #4695, November 2023) ``average_tensor`` all-reduces each ``reduce_bucket_size`` bucket
      (``use_multi_rank_bucket_allreduce`` defaults to true: ``allreduce_and_scatter``) and keeps its own
      partition's slice, where it earlier issued one ``dist.reduce`` per destination rank: 2(n−1)/n of the
      bucket per GPU, the all-reduce's traffic, not the reduce-scatter's (n−1)/n.

    Returns ``(reductions per step, all_reduce)`` element-wise over ``zero``: (m, True) for ZeRO-2, (1, True) for
    ZeRO-1 and DDP, (1, False) for ZeRO-3 (its reduce-scatter is priced per micro-batch elsewhere)."""
    z = ops.b(zero)
    return ops.where(z == 2, ops.f(m_acc), 1.0), z <= 2


#: the arguments of :func:`time_arrays` that describe the GPU (its rates and memory) and the measured MFU: the
#: second stage, :func:`time_gpu`, reads them; everything else (model, scenario, layout) is the first stage's
GPU_TIME_ARGS = ("peak_tflops", "peak16_tflops", "mem_bw_tbs", "gen_efficiency", "intra_busbw_gbs", "intra_p2p_gbs",
                 "nic_gbs_per_gpu", "attn_efficiency", "gpu_memory_gib", "mfu", "vllm_max_num_seqs",
                 "vllm_profile_tokens", "vllm_nvlink", "host_link_gbs", "host_cpu_factor", "sm_ghz", "attn_bwd_factor",
                 "fp32_tflops")


def time_arrays(m: ModelFacts, **kw):
    """Vectorised time model (seconds per optimizer step). Every per-candidate argument — the layout,
    and the GPU numbers (``peak_tflops`` … ``nic_gbs_per_gpu``) — may be a numpy array; they broadcast.
    With plain numbers everywhere the same formulas run on Python floats (fast path for one scenario).

    Two stages, one formula sheet: :func:`time_layout` (what the model and the layout alone decide: FLOPs,
    bytes per collective, bubble shares, overlap switches) and :func:`time_gpu` (the GPU's rates turn them
    into seconds). The plan search keeps the first stage of a chunk of candidates and runs only the second
    for each GPU type; this function runs both, and a single estimate goes through it.

    Keyword arguments: those of :func:`time_layout` plus :data:`GPU_TIME_ARGS` (``attn_efficiency``,
    ``gpu_memory_gib`` and ``mfu`` optional). Returns a dict: ``compute, tp_comm, dp_comm, pp_bubble, cp_comm,
    ep_comm, other`` and ``step`` (seconds per step), ``tokens_per_step``, ``tokens_per_s_per_gpu``, ``mfu``,
    ``hfu``, ``model_flops_per_token``, ``hardware_flops_per_token``, ``efficiency``.
    """
    gpu = {k: kw.pop(k) for k in GPU_TIME_ARGS if k in kw}
    ops = _ops_for(*(kw.get(k) for k in _OPS_ARGS), *(gpu.get(k) for k in GPU_TIME_ARGS))
    return time_gpu(time_layout(m, ops=ops, **kw), **gpu)


#: the layout arguments whose type (numpy array or plain number) picks the element-wise operations
_OPS_ARGS = ("flash", "fused", "tp", "pp", "cp", "ep", "dp", "zero", "recompute", "mbs", "sp", "grad_accum", "vpp",
             "num_gpus", "gpus_per_node", "offload")


def padded_batch_rows(mean: float, cv: float, rows, cut: float, ops):
    """Rows of a padded micro-batch of ``rows`` sequences: the collator pads the batch to its own longest sequence
    (transformers/TRL ``padding="longest"``; ms-swift ``Template._data_collator``; LLaMA-Factory's pairwise and SFT
    collators), so each row runs the expected longest of the batch's sequences (:func:`flops.expected_longest`, cut
    at ``cut`` = ``seq_len``), of which the mean is real. A preference pair is two rows: ms-swift's
    ``_rlhf_data_collator`` puts every chosen and rejected row of the batch in one list and pads them to the longest
    of all; TRL ``DPOTrainer.concatenated_inputs`` pads chosen and rejected to the longer of the two
    (``pad_to_length(..., max(chosen, rejected))``), so one pair runs the expected longer of two draws, not the
    mean (LLaMA-Factory PR #6753: padding-free DPO LoRA at its default one pair per device, 20% faster). The two
    rows are taken as independent draws (their prompts are shared; the spread is mostly the responses'). One
    sequence is the mean itself. Returns (row tokens, attention span, real share)."""
    row = F.expected_longest(float(mean), float(cv), rows, cut)
    row = ops.f(row) if isinstance(row, np.ndarray) else row
    return row, row, float(mean) / row


def padded_rank_factor(mean: float, cv: float, rows, dp, zero, row, cut: float, ops):
    """The slowest data-parallel rank's padded micro-batch over the mean rank's (1 where the ranks do not meet inside
    a micro-batch). Each rank draws its own samples (a distributed sampler's shard of one shuffle) and pads them to
    its own longest (:func:`padded_batch_rows`), so the rank with the longest row of all ``rows × dp`` draws runs
    ``expected_longest(rows·dp)`` tokens a row where the mean rank runs ``row`` (``expected_longest(rows)``).

    Where the ranks meet inside every micro-batch, each micro-batch lasts as long as that rank's:
    * ZeRO-3 gathers every layer's parameters with a collective in the forward and the backward
      (deepspeed ``runtime/zero/partitioned_param_coordinator.py`` ``fetch_sub_module`` → ``__all_gather_params``
      → ``partition_parameters.py`` ``all_gather_coalesced``, v0.10–v0.15), and FSDP's unit all-gathers do the same;
    * ZeRO-2 reduces the gradients in every micro-batch's backward (:func:`ds_grad_reductions`), and ZeRO-2/3
      refuse to skip it: ``DeepSpeedEngine.no_sync`` asserts ``not zero_optimization_partition_gradients()``
      (deepspeed ``runtime/engine.py`` v0.14–v0.15; Accelerate/Transformers then run every micro-batch synced).
    DDP and ZeRO-1 meet once a step, after all micro-batches (the sum over ``m`` draws evens out): left at 1.
    ``row`` None: a padding-free micro-batch (samples flattened, no padding), whose ``rows`` draws are summed; the
    sum is taken as log-normal with the same mean and the spread ``cv/√rows`` (matched moments, Fenton–Wilkinson),
    so one sample a rank gives the padded case's ``expected_longest(dp)`` (not cut: ``cut`` is unused there). The extra tokens are priced at the
    micro-batch's mean cost per token (the straggler's attention is longer too: left out, a lower bound).
    Issue 35 round 15 (z3multi15)."""
    meet = (zero >= 2) & (ops.f(dp) > 1.0)
    if math.isinf(cv) or cv <= 0.0:
        return 1.0
    if row is None:  # padding-free: the largest of dp sums of `rows` draws, over the mean sum
        n = np.maximum(np.asarray(rows, dtype=float), 1.0)
        sums = np.unique(n.reshape(-1))
        # (uncut: the row here is the mean sample, not the cut-off, and the sum's spread is narrow)
        hi = {k: F.expected_longest(float(mean) * k, float(cv) / math.sqrt(k), np.asarray(dp, dtype=float),
                                    math.inf) / (float(mean) * k) for k in sums}
        f = sum(np.where(n == k, v, 0.0) for k, v in hi.items())
        f = float(f) if np.ndim(f) == 0 else ops.f(f)
        return ops.where(meet, f, 1.0)
    all_rows = F.expected_longest(float(mean), float(cv), ops.f(rows) * ops.f(dp), cut)
    all_rows = ops.f(all_rows) if isinstance(all_rows, np.ndarray) else all_rows
    return ops.where(meet, all_rows / ops.maximum(row, 1.0), 1.0)


# long: the first half of the step-time derivation (FLOPs, bytes of every collective, bubble and overlap windows'
#   factors), in the order of the sections of time_gpu that consume them; numpy and the scalar path share every line
def time_layout(
    m: ModelFacts,
    *,
    method: str,
    precision: str,
    framework: str,
    optimizer: str,
    seq_len: int,
    lora_rank: int,
    lora_targets: str,
    flash,
    fused,
    tp,
    pp,
    cp,
    ep,
    dp,
    zero,
    recompute,
    mbs,
    sp,
    grad_accum,
    vpp,
    num_gpus,
    gpus_per_node,
    offload=False,
    offload_params=False,
    optimizer_in_backward: bool = False,
    master_weights=True,
    overlap_grad_reduce=None,
    overlap_param_gather=None,
    tp_comm_overlap=None,
    overlap_p2p_comm=None,
    profile: MethodProfile = SFT,
    recompute_every_n: int = rc.DEFAULT_EVERY_N,
    recompute_num_layers: int | None = None,
    recompute_method: str = "uniform",
    fp8_recipe: str | None = None,
    fp8_all_gather: bool | None = None,
    fsdp_version: int = 2,
    fsdp_root_embedding: bool = False,
    no_autocast: bool = False,
    optimizer_foreach: bool = False,
    pipeline_mbs=None,
    lora_dropout: float = 0.0,
    dora: bool = False,
    lora_a2a: bool = False,
    tp_comm_overlap_disable_qkv: bool = False,
    kbit_fp32: bool = False,
    expert_tp=None,
    ep_domain=None,
    attn_len: float | None = None,
    real_frac: float = 1.0,
    pad_single_len: float | None = None,
    tool: str | None = None,
    ds_zero3_gather: str = "flat",
    torch_compile: bool = False,
    moe_dispatcher: str | None = None,
    pack_len: float | None = None,
    pp_account_edges: bool = False,
    checkpoint_reentrant: bool | None = None,
    checkpoint_early_stop: bool | None = None,
    lora_ops_fused: bool | None = None,
    cuda_graph_scope: str | None = None,
    moe_capacity_factor: float | None = None,
    moe_pad_to_capacity: bool = False,
    sdpa_mask: str | None = None,
    ep_a2a_overlap: bool = False,
    recompute_modules: tuple | None = None,
    pad_len_cv: float | None = None,
    unfused_ce: bool = False,
    eager_ce_bytes: float = 0.0,
    gpt_j_residual: bool = False,
    ds_config_auto: bool | None = None,
    ds_bf16_grad_accum: bool | None = None,
    rank_len_cv: float = 0.0,
    lora_layer: str = "peft",
    fsdp_lora_units: bool = False,
    vision_tok: tuple = (0.0, 0.0),
    ops=None,
) -> dict:
    """The first stage of :func:`time_arrays`: every term that the model, the scenario and the layout decide
    without the GPU's rates — FLOPs per token, bytes per collective and their latencies (the node size is a
    layout input), the bubble's share, the overlap switches, bytes of memory-bound work. Element-wise: row
    ``i`` of every array depends on row ``i`` of the layout columns alone (so rows may be picked afterwards
    with :func:`take_layout`). ``ops``: :class:`arrayops.ArrayOps` or ``ScalarOps`` (default: by the inputs).
    Sources: the module docstring, section by section."""
    # torchtitan's pipeline splits each rank's batch into its own micro-batches (frameworks.pipeline_split)
    mbs, grad_accum = _frameworks.pipeline_split(framework, pp, mbs, grad_accum, pipeline_mbs)
    if ops is None:
        ops = _ops_for(flash, fused, tp, pp, cp, ep, dp, zero, recompute, mbs, sp, grad_accum, vpp, num_gpus,
                       gpus_per_node, offload)
    f64, where, maximum, minimum = ops.f, ops.where, ops.maximum, ops.minimum
    tp, pp, cp, ep, dp = f64(tp), f64(pp), f64(cp), f64(ep), f64(dp)
    mbs, m_acc, vpp, n_gpus, gpn = f64(mbs), f64(grad_accum), f64(vpp), f64(num_gpus), f64(gpus_per_node)
    dom = nvlink_span(gpn, ep_domain, f64)
    mbs_examples = mbs
    mbs = mbs * profile.seqs_per_example  # paired objectives: chosen + rejected in one forward (core/methods.py)
    zero, recompute, sp, flash, fused, offload = (ops.b(x) for x in (zero, recompute, sp, flash, fused, offload))
    lora = method in ("lora", "qlora")
    s = float(seq_len)
    s_attn = s if attn_len is None else float(attn_len)
    if pad_single_len is not None and pad_len_cv is not None:
        # padded batches (flops.sample_shape) with the samples' spread: each micro-batch at its expected longest row
        s, s_attn, real_frac = padded_batch_rows(pad_single_len, pad_len_cv, mbs, float(seq_len), ops)
        # ... and the ranks wait for the one with the longest micro-batch where they meet inside each micro-batch
        pad_rank_f = padded_rank_factor(pad_single_len, pad_len_cv, mbs, dp, zero, s, float(seq_len), ops)
    elif pad_single_len is not None:
        # padded batches (flops.sample_shape): a micro-batch of one sequence is not padded at all; nor, near
        # enough, one preference pair: its chosen and rejected rows are padded to the longer of the two, not to
        # max_length (TRL ``DPOTrainer.concatenated_inputs``: ``pad_to_length(..., max(chosen, rejected))``;
        # ms-swift's rlhf collator pads the pair's rows to their own longest) — taken as the mean, as one sequence
        one = mbs_examples <= 1.0
        s = where(one, float(pad_single_len), s)
        s_attn = where(one, float(pad_single_len), s_attn)
        real_frac = where(one, 1.0, float(real_frac))
    if pad_single_len is None and pad_len_cv is not None:
        # padding-free batches (flops.sample_shape): each rank's flattened micro-batch is its own draws' sum
        pad_rank_f = padded_rank_factor(s, pad_len_cv, mbs, dp, zero, None, float(seq_len), ops)
    elif pad_single_len is None or pad_len_cv is None:
        pad_rank_f = 1.0
    s_loc = s / cp
    tokens_mb = mbs * s_loc  # tokens of one micro-batch on one GPU (its context-parallel slice)
    # the recompute policy's shares of the forward re-run in backward (core/recompute.py): whole layers
    # (full, layer SAC, Megatron's block method), the attention core (Megatron selective) or, under per-op
    # SAC, the unsaved matmuls (``op_lin`` of the linear FLOPs) and every element-wise op
    rec_whole, rec_attn, rec_op = rc.time_shares(recompute, m.L / pp, recompute_every_n, recompute_num_layers,
                                                 recompute_method)
    op_lin = rc.op_sac_plan(m.arch)["recompute_linear"]
    # Megatron's selective recompute modules (rc.module_terms; the default, the attention core alone, adds nothing)
    rec_sel = ops.where(recompute == rc.MEGATRON_SELECTIVE, 1.0, 0.0) if recompute_modules is not None else 0.0
    mod = rc.module_terms(m, recompute_modules, precision == "fp8" and framework == "megatron")
    if not mod["core_attn"]:
        rec_attn = rec_attn * (1.0 - rec_sel)
    # the share of the MoE layers whose forward is re-run whole: whole-layer recompute, or the "moe" module (its
    # dispatch, kernel launches and host syncs run again with it)
    rec_moe = maximum(rec_whole, rec_sel * mod["moe"])

    # ---- FLOPs per token (flops.py; recomputation added element-wise here)
    lora_total, lora_active = _lora_total(m, lora_rank, lora_targets) if lora else (0.0, 0.0)
    # packed or padding-free samples attend within themselves (flops.sample_shape): attention over attn_len
    fwd = F.forward_flops_per_token(m, s_attn)
    f_lora = 2.0 * lora_active
    if lora:
        mflops_tok = 2.0 * (fwd.layers + fwd.head) + 3.0 * fwd.attention + 3.0 * f_lora
    else:
        mflops_tok = 3.0 * (fwd.layers + fwd.head + fwd.attention)
    # the vision encoder and projector (vision_tok_flops): trained as a layer (forward, backward, whole-layer
    # recompute; 2x under LoRA), frozen forward only; per processed token, the rows' real share of it
    vis_tr, vis_fz = (float(x) * real_frac for x in vision_tok)
    mflops_tok = mflops_tok + (2.0 if lora else 3.0) * vis_tr + vis_fz
    rec_tok = (rec_whole * (fwd.layers + fwd.attention + f_lora + vis_tr) + rec_attn * fwd.attention
               + rec_op * op_lin * (fwd.layers + f_lora) + rec_sel * mod["flops"])
    # non-reentrant checkpointing's early stop: the layer's last GEMM is not re-run (CKPT_EARLY_STOP_SKIPS)
    nonre = _frameworks.checkpoint_nonreentrant(tool or framework, checkpoint_reentrant, profile.objective, lora, dp,
                                                zero)
    rec_tok = rec_tok - early_stop_skip_flops(m, tool or framework, nonre, lora, rec_whole, ops,
                                              checkpoint_early_stop, fsdp_version, bool(torch_compile),
                                              profile.objective, lora_targets)
    hflops_tok = mflops_tok + rec_tok
    # LoRA inside its block's FSDP1 unit with use_orig_params (training.fsdp_lora_mixed_units): the frozen weights'
    # gradients are computed too (FSDP_MIXED_UNIT_WGRAD); hardware FLOPs, not the model's
    # (FSDP1 with sharded gradients, as memory.memory_arrays gates it: a searched ZeRO-0/1 or DeepSpeed plan has no units)
    mixed_wg = (lora and bool(fsdp_lora_units) and int(fsdp_version) == 1
                and _frameworks.engine_of(framework) in _frameworks.FSDP_SWITCH_ENGINES)
    mixed_on = where(zero >= 2, 1.0, 0.0) if mixed_wg else 0.0
    if mixed_wg:
        hflops_tok = hflops_tok + mixed_on * FSDP_MIXED_UNIT_WGRAD * fwd.layers
    if lora and dora and lora_dropout > 0.0:
        # DoRA under lora_dropout: the base linears run again on the dropped input, forward and input gradient (W is
        # frozen), and in the recompute forward (flops.dora_dropout_base_flops); hardware FLOPs, not the model's
        hflops_tok = hflops_tok + F.dora_dropout_base_flops(lora_arch(m.arch, framework), lora_targets) * (
            2.0 + rec_whole + rec_op)
    # matmuls at the precision's peak; attention core and output layer at 16-bit peak
    attn_tok = 3.0 * fwd.attention + (rec_whole + rec_attn) * fwd.attention
    head_tok = (2.0 if lora else 3.0) * fwd.head
    lin_tok = hflops_tok - attn_tok - head_tok
    # Megatron's attention core without FlashAttention multiplies the whole s × s square (megatron_attention_core)
    attn_passes, rec_fwd = 3.0 + rec_whole + rec_attn, rec_whole + rec_op  # the core's passes; recomputed forwards
    meg_core = ops.where(flash, False, fused) & (framework == "megatron")
    core_saving, core_extra = megatron_attention_core(m, s, s_attn, rec_fwd, ops)
    core_extra = ops.where(meg_core, core_extra, 0.0)
    attn_tok = attn_tok + attn_passes * core_extra
    hflops_tok = hflops_tok + attn_passes * core_extra
    # Transformers' eager attention: the whole square too, and more score passes (hf_eager_attention_core)
    hf_core = ops.where(flash, False, ops.where(fused, False, True)) & (framework in HF_EAGER_ENGINES
                                                                        and tool != "unsloth")
    hf_bytes, hf_extra = hf_eager_attention_core(m, s, s_attn, rec_fwd, ops)
    hf_extra = ops.where(hf_core, hf_extra, 0.0)
    attn_tok = attn_tok + attn_passes * hf_extra
    hflops_tok = hflops_tok + attn_passes * hf_extra
    # Transformers' SDPA on a padded batch (micro-batch > 1): the memory-efficient kernel over the whole square
    me = (mbs > 1.0) & bool(sdpa_mask is not None and pad_single_len is not None)
    me_bytes, me_extra = hf_sdpa_masked_core(m, s, s_attn, rec_fwd, ops)
    me_extra = where(me, me_extra, 0.0)
    attn_tok = attn_tok + attn_passes * me_extra
    hflops_tok = hflops_tok + attn_passes * me_extra
    mp = tp * pp * cp  # GPUs one replica's micro-batch is spread over
    # GEMM size factor (module docstring): the efficiency is the GPU's generation figure × this
    size = 1.0 / (1.0 + D0 * tp / m.h) / (1.0 + T0 / tokens_mb)

    # ---- memory-bound work per token (bytes), per replica: divided over the model-parallel GPUs
    ew_rep, ew_split = elementwise_bytes_per_token_layer(m, s, flash, fused, ops, eager_act=not torch_compile)
    nx_rep, nx_split = gpt_neox_copies_bytes(m, tool, flash, mbs, ops)  # GPT-NeoX v1.0's own copies (0 otherwise)
    ew_rep, ew_split = ew_rep + nx_rep, ew_split + nx_split
    passes = 3.0 + rec_whole + rec_op  # forward, backward ≈ 2 × forward, recompute forward
    loss_bytes = where(fused, 8.0, 16.0) * m.V  # logits + fp32 softmax + gradient (module docstring)
    if unfused_ce:  # Megatron-Core's unfused vocab-parallel cross-entropy (MEGATRON_UNFUSED_CE_BYTES)
        loss_bytes = MEGATRON_UNFUSED_CE_BYTES * m.V + 0.0 * loss_bytes
    if eager_ce_bytes:  # an eager fp32 cross-entropy counted kernel by kernel (eager_ce_bytes: torchtitan, HF)
        loss_bytes = eager_ce_bytes * m.V + 0.0 * loss_bytes
    # replicated element-wise work is split by TP only with sequence parallelism (Korthikanti §4.2.2)
    ew_bytes = (ew_rep / where(sp, tp, 1.0) + ew_split / tp) * passes * m.L / (pp * cp)
    # the recompute modules' element-wise re-runs (norms, the experts' activation: rc.module_terms), all layers
    ew_bytes = ew_bytes + rec_sel * (mod["ew_rep"] / where(sp, tp, 1.0) + mod["ew_split"] / tp) / (pp * cp)
    # ... less what Megatron's own score kernels do not move (megatron_attention_core, MEGATRON_SCORES_ELEMS)
    ew_bytes = ew_bytes - where(meg_core, core_saving, 0.0) / tp * m.L / (pp * cp)
    attn_hf_bytes = where(hf_core, hf_bytes, 0.0) / tp * m.L / (pp * cp)
    attn_me_bytes = where(me, me_bytes, 0.0) * m.L / (pp * cp)
    ew_bytes = ew_bytes + attn_hf_bytes
    ew_bytes = ew_bytes + attn_me_bytes
    # FP8 (core/fp8.py): the amax and cast traffic of every linear's input and output gradient, per recipe
    # (torch.compile / fused kernels fold the amax reduction into the producing kernel for torchao)
    fp8_tok = 0.0
    fp8_gemm_scale = 1.0
    if precision == "fp8":
        rcp = fp8mod.recipe_for(framework, fp8_recipe)
        fp8_gemm_scale = rcp.gemm_ratio / FP8_EFFICIENCY_RATIO
        n_x, n_dy = fp8mod.cast_elements_per_token(m)
        x_b = rcp.x_bytes - where(fused, rcp.fused_saving, 0.0) - fp8mod.frozen_x_saving(rcp, lora)
        dy_b = rcp.dy_bytes - where(fused, rcp.fused_saving, 0.0)
        fp8_tok = (n_x * x_b + n_dy * dy_b) / tp * m.L / (pp * cp)
        # torchtitan's plain TP under rowwise scaling: the gathered operands are cast on every TP rank
        fp8_tok = fp8_tok + tp_replicated_cast_bytes(m, framework, precision, fp8_recipe, x_b, dy_b, tp, pp, cp)
    # LoRA adapter paths (flops.lora_traffic_elements: PEFT/torchtune LoRA linears): the rank-wide GEMMs' inputs
    # and outputs, the scaling and the add, at memory speed; the recompute forward re-runs the forward's part
    lora_tok = lora_gemm_tok = lora_flops_tok = 0.0
    # PEFT's fp32 adapters under the HF Trainer's autocast (flops.LORA_AUTOCAST_IN): fp32 master weights, no ZeRO
    # (DeepSpeed runs the whole model, adapters included, in 16 bits), as memory.memory_arrays' ``autocast``
    # (NeMo AutoModel's LoRA linears keep the adapters in the base weight's dtype: no casts, flops.AUTOMODEL_LORA_FWD_OUT)
    # The HF Trainer without --bf16 (training.mixed_precision_off, frameworks.mixed_precision_off_allowed): under
    # Accelerate's FSDP1 no MixedPrecision policy casts the fp32 adapter units, which then cast their input as
    # without ZeRO; everywhere the adapters' output path runs in fp32 without autocast (flops.LORA_NO_AUTOCAST_OUT)
    fp32_units = _frameworks.hf_sharded_by_fsdp(framework, fsdp_version, zero, engine=framework) & bool(no_autocast)
    peft_autocast = ((framework == "hf") & (precision in ("bf16", "fp16")) & bool(master_weights)
                     & ((zero == 0) | fp32_units) if lora and lora_layer in ("peft", "litgpt") else False)
    fp32_path = peft_autocast & bool(no_autocast)
    if lora:
        d_in, d_out = F.lora_io_elements(lora_arch(m.arch, framework), lora_targets)
        # Megatron-Bridge's adapter scales and adds in eager PyTorch ops (lora_fused): the unfused traffic
        l_fwd, l_bwd = F.lora_traffic_elements(d_in, d_out, lora_dropout > 0.0,
                                               lora_fused(framework, fused if lora_ops_fused is None else lora_ops_fused),
                                               peft_autocast, method == "qlora", kbit_fp32, layer=lora_layer,
                                               no_autocast=fp32_path)
        # per-op SAC re-runs every element-wise op but only ``op_lin`` of the matmuls (rec_tok): the adapter GEMMs'
        # operands (flops.LORA_GEMM_FWD) re-run in that share, as their FLOPs (lora_gemm_rerun)
        rec_gemm, gemm_skip = lora_gemm_rerun(rec_whole, rec_op, op_lin)
        lora_tok = 2.0 * (l_fwd * (1.0 + rec_whole + rec_op) + l_bwd
                          - F.LORA_GEMM_FWD * (d_in + d_out) * gemm_skip) / (tp * pp * cp)
        # the adapter GEMMs' own bytes and FLOPs (flops.LORA_GEMM_FWD): a kernel takes the longer of the two
        lora_gemm_tok = 2.0 * F.lora_gemm_elements(d_in, d_out, 1.0 + rec_gemm) / (tp * pp * cp)
        lora_flops_tok = f_lora * (3.0 + rec_gemm)
    dora_mb = 0.0
    if lora and dora:
        dora_mb, dora_tok = dora_terms(m, framework, lora_targets, peft_autocast, d_out, rec_whole + rec_op, where)
        dora_mb = dora_mb / (tp * pp)
        lora_tok = lora_tok + dora_tok / (tp * pp * cp)
    # QLoRA under prepare_model_for_kbit_training (flops.KBIT_*): fp32 element-wise passes and the 4-bit linears' casts
    kbit_on = where(fused, False, peft_autocast) if (method == "qlora" and kbit_fp32) else False
    if method == "qlora" and kbit_fp32:
        kbit_cast = F.KBIT_CAST_BYTES * F.kbit_cast_elements(m.arch) * (2.0 + rec_whole + rec_op) / (tp * pp * cp)
        # the residual adds (6h of the replicated 4h + 6h (+ 6h dropout): elementwise_bytes_per_token_layer) and the
        # split passes (activation, RoPE) go fp32; HF's RMSNorm computes in fp32 either way (not doubled)
        res_share = 6.0 / (4.0 * eager_norm_factor(m) + 6.0 + (6.0 if m.dropout else 0.0))
        kbit_ew = ((F.KBIT_FP32_EW_FACTOR - 1.0) * (ew_rep * res_share / where(sp, tp, 1.0) + ew_split / tp)
                   * passes * m.L / (pp * cp))
        ew_bytes = where(kbit_on, ew_bytes + kbit_ew + kbit_cast, ew_bytes)
    # host-side issue time of one micro-batch in eager PyTorch (EAGER_OPS_*): a floor under its GPU time
    ops_fwd, ops_bwd = _eager_ops_layer(m, method, lora_targets, lora_dropout, peft_autocast, where, m_acc, kbit_on)
    if lora and dora:
        n_dora = F.lora_targets_per_layer(m.arch, lora_targets)
        ops_fwd, ops_bwd = ops_fwd + n_dora * EAGER_OPS_DORA_FWD, ops_bwd + n_dora * EAGER_OPS_DORA_BWD
    # the HF Trainer's autocast over fp32 parameters (full fine-tuning, no ZeRO; memory.memory_arrays' ``hf``): one cast
    # per linear weight and bias each way (EAGER_OPS_AUTOCAST_PARAM)
    full_autocast = ((framework == "hf") & (precision in ("bf16", "fp16")) & bool(master_weights) & (zero == 0)
                     if method in ("full", "pretrain") else False)
    param_casts = where(full_autocast, EAGER_OPS_AUTOCAST_PARAM * autocast_param_tensors(m), 0.0)
    ops_fwd, ops_bwd = ops_fwd + param_casts, ops_bwd + param_casts
    if mixed_wg:  # each block parameter's gradient kernel and its copy into the flat gradient (FSDP_MIXED_UNIT_WGRAD)
        ops_bwd = ops_bwd + mixed_on * FSDP_MIXED_UNIT_BWD_OPS * autocast_param_tensors(m)
    # LitGPT's LoRAQKVLinear before v0.3.1: its index list turned into a tensor in every forward (LITGPT_LORA_INDEX_S)
    lit_fwd_s = litgpt_index_seconds(m, lora_targets) if lora and lora_layer == "litgpt" else 0.0
    # the forwards' kernels come from Python (EAGER_FWD_OP_S each), the backward's from autograd's C++ engine
    host_mb = where(fused, 0.0, ((ops_fwd * EAGER_FWD_OP_S + lit_fwd_s) * (1.0 + rec_whole + rec_op)
                                 + ops_bwd * EAGER_OP_S) * (m.L / pp))
    # the first forward's share of it, where the loop syncs every micro-batch (HOST_SYNC_PER_MICROBATCH_TOOLS)
    fwd_host_mb = where(fused, 0.0, (ops_fwd * EAGER_FWD_OP_S + lit_fwd_s) * (m.L / pp))
    host_fwd_mb = fwd_host_mb if framework in HOST_SYNC_PER_MICROBATCH_TOOLS else 0.0 * host_mb
    # DeepSpeed ZeRO-3's Python hooks on every submodule, each pass (core/zero3.py): more host time per layer
    # (z3_fw: whose bucket and persistence sizes the DeepSpeed config holds, ds_bucket_engine)
    z3_fw = ds_bucket_engine(framework, ds_config_auto)
    z3_host_mb = where(zero >= 3, _z3.z3_host_seconds_layer(
        m.arch, z3_fw, tool, method, lora_rank, lora_targets, rec_whole) * (m.L / pp), 0.0)
    # and its gradient reduce-scatter path, bucket by bucket, in the backward (core/zero3.py)
    z3_host_mb = z3_host_mb + where(zero >= 3, (_z3.z3_rs_host_seconds_layer(
        m.arch, z3_fw, method, lora_rank, lora_targets, dp) + _z3.z3_gather_host_seconds_layer(
        m.arch, z3_fw, tool, method, lora_rank, lora_targets, dp)) * (m.L / pp), 0.0)
    # and, on more than one rank, the coalesced prefetches' per-rank loops (core/zero3.py,
    # z3_coalesced_host_seconds_layer)
    z3_host_mb = z3_host_mb + where(zero >= 3, _z3.z3_coalesced_host_seconds_layer(
        m.arch, z3_fw, tool, method, lora_rank, lora_targets, dp, rec_whole) * (m.L / pp), 0.0)
    host_mb = host_mb + z3_host_mb
    # verl's FSDP1 LoRA actor, and the HF stack on Accelerate's FSDP1 with PEFT's wrap policy (fsdp1_lora.applies):
    # each lora_A / lora_B its own FSDP unit, Python hooks every pass (core/fsdp1_lora.py)
    fl_args = (profile.rl, framework, fsdp_version, method,
               _frameworks.hf_sharded_by_fsdp(framework, fsdp_version, zero, engine=framework), bool(fsdp_lora_units))
    fl_host_mb, fl_nograd_mb = fsdp1_lora_host_mb(m, fl_args, lora_targets, rec_whole, pp)
    fl_host_mb, fl_nograd_mb = where(fused, 0.0, fl_host_mb), where(fused, 0.0, fl_nograd_mb)
    # FSDP1's hooks around each decoder-layer unit of a fully trained model (core/fsdp1_units.py): more host time
    host_mb = host_mb + where(fused, 0.0, fsdp1_unit_host_mb(m, framework, fsdp_version, method, rec_whole, pp))
    # non-reentrant checkpointing's saved-tensor hooks, per recomputed layer (CKPT_NONREENTRANT_LAYER_S)
    host_mb = host_mb + where(fused, 0.0, where(nonre, (rec_whole + rec_op) * CKPT_NONREENTRANT_LAYER_S * (m.L / pp),
                                                0.0))
    # Transformers' eager MoE block (core/hf_moe.py): a host sync per hit expert in each Python forward pass; the
    # backward's per-expert kernels join the host floor, the forward loop is serialised with the GPU (time_gpu)
    hfmoe_loop_mb, hfmoe_bwd_mb = _hfmoe.loop_host_seconds(m, framework, tokens_mb, rec_whole, pp)
    host_mb = host_mb + where(fused, 0.0, hfmoe_bwd_mb)
    hfmoe_loop_mb = hfmoe_loop_mb + 0.0 * host_mb
    # MoE (routed experts): the grouped expert GEMMs' own size factor and the dispatch's memory passes
    exp_tp = expert_tp_of(framework, tp, expert_tp, tool=tool)
    lin_exp_tok, size_exp, moe_tok = _moe_terms(m, fwd, lin_tok, tokens_mb, ep, exp_tp, tp, pp, cp,
                                                moe_copy_elems(m, framework, precision, rec_moe + rec_op)
                                                + moe_sort_elems(m, framework, ep, ops, moe_dispatcher))
    mem_tok_bytes = ew_bytes + fp8_tok + loss_bytes / (tp * cp) + lora_tok + moe_tok
    # verl's no-grad log-prob forwards post-process the full-vocabulary logits (verl_logprob_bytes; time_gpu)
    verl_lp_tok = verl_logprob_bytes(m, profile, framework) / (tp * cp)
    lora_exp = moe_lora_on_experts(m, tool, lora, lora_targets)  # Megatron-SWIFT's grouped adapters (megft9)
    exp_trainable = moe_trainable_expert_weights(method, lora_exp)  # per local expert (swiftmoe10)
    moe_host_mb = moe_host_parts(m, framework, precision, ep, pp, cuda_graph_scope,
                                 fp8_recipe, moe_dispatcher, lora_experts=lora_exp,  # dispatcher sync, dispatch incl.
                                 rec_whole=rec_moe, trainable_weights=exp_trainable,
                                 adapter_ops=swift_lora_layer_ops(tool, lora, lora_targets, lora_dropout, lora_exp))
    # ... and the per-expert host work a full recompute's re-run forward syncs into the backward (swiftlora11)
    moe_host_exp_b = moe_host_exp_bwd(m, framework, precision, ep, pp, cuda_graph_scope, fp8_recipe, lora_exp,
                                      exp_trainable)
    # the experts' wgrad GEMMs accumulating into fp32 main_grad (moe_wgrad_terms): a roofline on HBM at few rows
    moe_wg_flops, moe_wg_bytes = moe_wgrad_terms(m, framework, method, lora_exp,
                                                 expert_rows(m, tokens_mb, ep, exp_tp, tp), ep, exp_tp, pp)
    moe_launch_mb = moe_gemm_launches(m, framework, ep, pp, rec_moe, lora_exp) * MOE_GEMM_LAUNCH_S  # TE per-expert
    # ... and TE's per-expert FP8 quantisation kernels (moe_quant_kernels), a fixed GPU time each as well
    moe_launch_mb = moe_launch_mb + moe_quant_kernels(m, framework, precision, fp8_recipe, ep, pp,
                                                      rec_moe) * MOE_GEMM_LAUNCH_S
    # ---- the objective's other passes (core/methods.py): frozen reference/reward forwards, no_grad policy
    # forwards (KTO's KL sequences, PPO's old log-probs), the PPO critic's forward and its training step; at
    # the policy's rates (same shapes)
    fwd_total = fwd.layers + fwd.head + fwd.attention + vis_tr + vis_fz
    # the critic and a reward model end in a scalar head, not the vocabulary projection (value_head_passes)
    val_fwd, val_h, val_m = value_head_passes(fwd, hflops_tok, mflops_tok, lora)
    n_fwd = profile.ref_forwards + profile.policy_nograd_forwards
    n_val = (1.0 if profile.reward_model else 0.0) + (1.0 if profile.critic else 0.0)
    extra_h = n_fwd * fwd_total + n_val * val_fwd + (val_h if profile.critic else 0.0)
    extra_m = n_fwd * fwd_total + n_val * val_fwd + (val_m if profile.critic else 0.0)
    if profile.critic_padded:
        extra_h = extra_h + _padded_critic_extra(m, profile, float(seq_len), val_fwd, val_h)
    # the host issues a scalar-head model's layers as the policy's: its passes' host share at the policy's FLOPs
    extra_host_more = scalar_head_host_more(profile, fwd_total, val_fwd, hflops_tok, val_h, n_val)
    precomp_h = reference_precompute_flops(profile, fwd_total)
    ep_nograd_passes = nograd_moe_forward_passes(profile)  # their expert dispatch (issue 35 r10, nemorl11)
    # under DeepSpeed ZeRO-3 each of those no-grad forwards gathers every weight once more (nograd_gathers)
    xf_gathers = nograd_gathers(profile, framework, zero, where)
    xf_gathers_pre = nograd_gathers(profile, framework, zero, where, precomputed=True)

    # ---- communication overlap flags: the scenario's choice, else the framework's default
    ov_grad, ov_param, ov_tp, ov_p2p = overlap_flags(
        framework, zero, vpp, pp, sp, ops, tool=tool, overlap_grad_reduce=overlap_grad_reduce,
        overlap_param_gather=overlap_param_gather, tp_comm_overlap=tp_comm_overlap, overlap_p2p_comm=overlap_p2p_comm)
    # the forward's share of one micro-batch on one GPU (the backward includes the recompute forward)
    fwd_share = (fwd.layers + fwd.head + fwd.attention + core_extra + f_lora
                 + vis_tr + vis_fz) / hflops_tok

    # ---- tensor parallelism: 4 collectives per layer (+2 with full recompute) + embedding/loss
    act_bytes = 2.0 * tokens_mb * m.h  # one 16-bit b·s·h activation of the micro-batch slice
    # (per-op SAC saves the reduce-scatter outputs, torchtitan's save list: only the all-gathers re-run)
    n_layer_coll = tp_layer_collectives(rec_whole, rec_op) * (m.L / pp)
    if gpt_j_residual:  # GPT-NeoX's parallel residual: one all-reduce in the forward (gpt_neox_tp_collectives)
        n_layer_coll = gpt_neox_tp_collectives(rec_whole) * (m.L / pp)
    tp_ar_bytes = act_bytes * _ring_factor(tp, "all_reduce", ops)  # bytes moved per GPU, one all-reduce
    # the layers' collectives: torchtitan's float8 TP styles gather in FP8 (tp_fp8_gather_scale)
    tp_layer_ar_bytes = tp_ar_bytes * tp_fp8_gather_scale(framework, precision, fp8_recipe, rec_whole, rec_op)
    # Megatron-SWIFT's adapters on TP-sharded linears: their own small collectives (lora_tp_collectives, megft9)
    lora_tp_n, lora_tp_kind = lora_tp_collectives(m, tool, lora, lora_targets, sp, rec_whole, ops)
    # Megatron-Bridge's adapters on column-parallel linears gather the layer-norm output themselves under TP
    # overlap (bridge_lora_sp_gathers, mlperf10): whole-activation all-gathers, priced in the time function
    lora_sp_n = (bridge_lora_sp_gathers(m, tool, lora, lora_targets, sp, ov_tp, rec_whole, tp, lora_a2a,
                                        tp_comm_overlap_disable_qkv, ops)
                 + qkv_overlap_lost(framework, sp, ov_tp, tp_comm_overlap_disable_qkv, rec_whole, tp, ops)) * (m.L / pp)
    lora_tp_mb = (where(tp > 1, lora_tp_n * (m.L / pp) * where(lora_tp_kind, _ring_latency(tp, gpn, "all_gather", ops),
                                                                   _ring_latency(tp, gpn, "all_reduce", ops)), 0.0)
                  if lora and tool in LORA_TP_TOOLS else 0.0 * tp)  # the other tools: none, no latencies to price

    # ---- pipeline: bubble (p−1)/v micro-batch times + p2p boundary sends
    crosses_nodes = (tp * cp * dp < n_gpus) & (n_gpus > dom)  # stages land on different NVLink domains
    p2p_bytes = act_bytes / tp  # scatter/gather optimisation (Narayanan et al. 2021 §4.1)

    # ---- data parallelism (and ZeRO/FSDP): per step and GPU, what is moved (time_gpu: what hides)
    P = float(m.params.total)
    grad_params = lora_total if lora else P
    expert_share = float(m.params.expert_params) / max(P, 1.0)
    exp_tp_dp = expert_tp_of(framework, tp, expert_tp, tool=tool)
    shard_frac = (1.0 - expert_share) / (tp * pp) + expert_share / (ep * pp * exp_tp_dp)
    grad_gpu = grad_params * shard_frac  # gradients this GPU reduces
    weight_gpu = P * shard_frac  # weights this GPU holds before ZeRO-3 sharding
    # DeepSpeed's BF16 optimizer: the fp32 gradient copies' add after each micro-batch (DS_BF16_HP_GRAD_BYTES)
    ds_bf16_mb = where(ds_bf16_grad_accum_of(ds_bf16_grad_accum, tool, precision, zero, where, offload),
                       DS_BF16_HP_GRAD_BYTES * grad_gpu, 0.0)
    g_bytes = trainer_zero_grad_bytes(framework, precision, zero,
                                      grad_reduce_bytes(framework, precision, master_weights, lora), where)
    # Megatron and torchtitan reduce gradients (and shard ZeRO states) over data × context parallel ranks:
    # the context-parallel ranks hold the same weights (Megatron ``get_data_parallel_group(with_context_
    # parallel=True)``; torchtitan's ``dp_shard_cp`` mesh)
    n_dp = dp * where(cp_joins_dp(framework), cp, 1.0)
    k_node = maximum(minimum(dom / maximum(tp, 1.0), n_dp), 1.0)  # DP peers per NVLink domain (NCCL rails)
    dp_spans = tp * n_dp > dom
    w_bytes = 0.5 + 1.0 / 64 if method == "qlora" else 2.0
    fp8_ag = fp8mod.all_gather_in_fp8(framework, precision, fp8_recipe, fp8_all_gather)
    mg_fp8_pg = fp8mod.megatron_fp8_param_gather(framework, precision, fp8_recipe, fp8_all_gather)
    # under Megatron's --fp8-param-gather the linear weights move in 1 byte, embeddings, norms and the output layer in
    # 16 bits: bytes per parameter of a gather of all the weights
    fp8_pg_bytes = 2.0 - float(base_linear_params(m.arch)) / float(m.params.total) if mg_fp8_pg else 2.0
    # the distributed optimizer's parameter all-gather (trainable weights only: LoRA's adapters stay 16-bit)
    sync_b = 2.0 if lora else fp8_pg_bytes
    if fp8_ag:
        w_bytes = 1.0  # torchao enable_fsdp_float8_all_gather: the shard is cast before the all-gather
    elif mg_fp8_pg:
        w_bytes = fp8_pg_bytes  # Megatron-FSDP's gathers
    # the routed experts' weights are FP8 linear weights: 1 byte each in the expert-data-parallel all-gather under
    # --fp8-param-gather (fp8.megatron_fp8_param_gather), else the 16-bit working copy
    ps_bytes = 1.0 if (mg_fp8_pg and not lora) else 2.0
    L_stage = maximum(m.L / pp, 1.0)
    m_chunks = minimum(m_acc, pp)
    # the overlap windows' factor (time_gpu: after the first gradients of the step are final, before the
    # last parameter gather is needed): with v virtual stages the earlier chunks finish (start) up to
    # min(m, p) chunk-micro-batches earlier (Megatron schedules.py: grad/param sync launched per model chunk)
    win_factor = 1.0 + (vpp - 1.0) * m_chunks
    # DDP / ZeRO-1/2 / Megatron distributed optimizer: gradients once per step, in buckets (PyTorch DDP
    # bucket_cap_mb = 25 MB; DeepSpeed reduce_bucket_size 5e8 elements; Megatron max(40M, 1M·dp) params)
    bucket = bucket_params(framework, zero, n_dp, g_bytes, ops)
    n_buckets = ops.ceil(grad_gpu / bucket)
    last_bucket = minimum(bucket / maximum(grad_gpu, 1.0), 1.0)
    # Megatron's routed-expert gradients and weights sync over the expert-data-parallel group, spaced ep·etp
    # ranks apart (expert_dp_layout); the dense rest over the data-parallel ranks as before
    exp_gpu, n_edp, k_exp = expert_dp_layout(m, framework, lora, grad_params, tp, pp, n_dp, ep, exp_tp_dp, dom, ops)
    # FSDP with sharded weights (ZeRO-2 = SHARD_GRAD_OP / reshard_after_forward=False, ZeRO-3 = FULL_SHARD)
    # gathers weights in every forward; other frameworks' ZeRO-1/2 sync once per step
    # (the HF stack's ZeRO 2/3 through Accelerate's FSDP1 plugin, frameworks.hf_sharded_by_fsdp: the memory model's
    # decision, so FSDP's per-unit gathers, copies and gradient passes, not DeepSpeed's)
    hf_fs = _frameworks.hf_sharded_by_fsdp(framework, fsdp_version, zero, engine=framework)
    fsdp_sharded = ((framework == "fsdp") | hf_fs) & (zero >= 2)
    sharded_opt = (zero >= 1) & (zero <= 2)
    ag_factor = _ring_factor(n_dp, "all_gather", ops)
    ag_lat = _ring_latency(n_dp, gpn, "all_gather", ops)
    g_factor = where(sharded_opt, ag_factor, _ring_factor(n_dp, "all_reduce", ops))
    g_lat = where(sharded_opt, ag_lat, _ring_latency(n_dp, gpn, "all_reduce", ops))
    # DeepSpeed ZeRO-1/2 all-reduce their gradient buckets, ZeRO-2 on every micro-batch (ds_grad_reductions)
    n_red = 1.0
    if framework in ("deepspeed", "hf"):
        n_red, all_reduce = ds_grad_reductions(zero, m_acc, ops)
        g_factor = where(all_reduce, _ring_factor(n_dp, "all_reduce", ops), g_factor)
        g_lat = where(all_reduce, _ring_latency(n_dp, gpn, "all_reduce", ops), g_lat)
    if framework == "megatron":
        # Megatron-FSDP optim_grads (ZeRO-2): BF16 gradients reduce-scattered on every micro-batch
        # (core/megatron_fsdp.py); the weights' all-gather after the step as the distributed optimizer's
        mfsdp2 = mfsdpmod.applies(framework, zero, 2)
        n_red = where(mfsdp2, m_acc, n_red)
        g_bytes = where(mfsdp2, mfsdpmod.grad_bytes(precision), g_bytes)
    # ZeRO-1/2 and the distributed optimizer all-gather the updated 16-bit weights after the step
    # ZeRO-3/FSDP: one all-gather per layer (FSDP wraps each decoder block) and pass, one reduce-scatter
    lat_ag = L_stage * ag_lat
    lat_rs = lat_ag
    # DeepSpeed ZeRO-3 gathers per linear weight, not per block, and re-gathers the weights of a recomputed layer
    # whose reuse distance exceeds stage3_max_reuse_distance (ds_z3_gather_plan)
    bwd_gathers = 1.0
    ds_list_host = 0.0
    z3_open = z3_windowed = z3_win_bytes = 0.0
    if _frameworks.engine_of(framework) in ("deepspeed", "hf"):
        ds_units, ds_regather = ds_z3_gather_plan(m)
        ds_z3 = (zero >= 3) & (hf_fs == False)  # noqa: E712 (arrays): DeepSpeed's ZeRO-3, not the HF stack's FSDP
        lat_ag = where(ds_z3, lat_ag * ds_units, lat_ag)
        # and (coalesced, since v0.5.5) reduce-scatters its gradients bucket by bucket: one collective per
        # reduce_bucket_size bucket (core/zero3.py z3_rs_ops_layer; each a ring's latency), not one per layer
        if ds_zero3_gather != "list":
            ds_rs_n, _tensors = _z3.z3_rs_ops_layer(m.arch, z3_fw, method, int(lora_rank), lora_targets)
            lat_rs = where(ds_z3, lat_rs * max(ds_rs_n, 1.0), lat_rs)
        bwd_gathers = where(ds_z3, 1.0 + ds_regather * rec_whole, 1.0)
        # the share of those gathers that the prefetch issues where no GEMM follows, and of those where some
        # element-wise work follows (core/zero3.py); that work's bytes per micro-batch, forward (z3_window_bytes)
        o_sh, w_sh = _z3.z3_open_gather_share(m.arch, z3_fw, tool, method, int(lora_rank), lora_targets,
                                              lora and lora_dropout > 0.0)
        z3_open = where(ds_z3 & (n_dp > 1), o_sh, 0.0)
        z3_windowed = where(ds_z3 & (n_dp > 1), w_sh, 0.0)
        z3_win_bytes = z3_window_bytes(m, fused, lora, framework, lora_targets, lora_dropout, ops) * tokens_mb * L_stage
        if ds_zero3_gather == "list":
            lat_rs, ds_list_host, ov_grad, ov_param = ds_list_collectives(
                ds_z3, n_dp, L_stage, ds_units, bwd_gathers, lat_rs, ov_grad, ov_param, overlap_grad_reduce,
                overlap_param_gather, ops)
    fsdp_pp = (framework == "fsdp") & (pp > 1)
    per_mb = (zero >= 3) | fsdp_sharded
    # FSDP2's copies around its collectives (torch/distributed/fsdp/_fully_shard/_fsdp_collectives.py), memory-
    # bound passes on the compute stream: after each all-gather ``foreach_all_gather_copy_out`` copies the
    # gathered bytes into the parameters' unsharded storage (``split_with_sizes_copy``: read + write, 2·w per
    # unsharded parameter); before each reduce-scatter ``foreach_reduce`` copies the unsharded 16-bit gradients
    # into the reduce-scatter input in the reduce dtype (``_chunk_cat``: read 2, write g). The all-gather
    # copy-in (cast of the fp32 shard to 16 bits and the foreach copy into the send buffer, 4 + 3·w bytes per
    # shard element) runs on its own stream but is memory traffic all the same. Per micro-batch: one gather in
    # the forward, one more in the backward under ZeRO-3 (reshard_after_forward), one reduce-scatter; with
    # pipeline parallelism one of each per step. FSDP1 (``FullyShardedDataParallel``, ``training.fsdp_version
    # = 1``: Composer/llm-foundry, Accelerate) gathers into its FlatParameter's unsharded buffer, whose views
    # are the parameters, and reduce-scatters the flat gradient in place: only the shard's cast remains
    # (``_cast_flat_param_to_param_dtype``: read 4, write w).
    # Megatron-FSDP (core/megatron_fsdp.py): each unit (decoder layer) gathered before its forward and its backward
    # and reduce-scattered in the compute dtype on every micro-batch; the non-unit modules (embedding, output layer,
    # final norm) gathered once per step and kept; no copies around the collectives
    mfsdp = mfsdpmod.applies(framework, zero)
    # Megatron's once-a-step tied word-embedding gradient all-reduce (tied_embedding_grad_bytes)
    tied_emb_bytes = tied_embedding_grad_bytes(m, framework, mfsdp, g_bytes, tp, pp, ops)
    # (the routed experts' share over the expert-data-parallel group, as Megatron-FSDP's expert DeviceMesh shards
    # them: expert_dp_layout; exp_gpu is 0 outside Megatron MoE)
    unit_w = weight_gpu
    gather_once = gather_exp = rs_exp = 0.0
    rs_g_bytes = g_bytes
    rs_dense = grad_gpu
    if framework == "megatron" and np.any(mfsdp):
        non_unit = float(m.first_extra + m.last_extra) / (tp * pp)
        unit_w = where(mfsdp, weight_gpu - non_unit - exp_gpu, weight_gpu)
        gather_once = where(mfsdp, non_unit * mfsdpmod.NON_UNIT_BYTES * ag_factor, 0.0)
        rs_g_bytes = where(mfsdp, mfsdpmod.grad_bytes(precision), g_bytes)
        rs_dense = where(mfsdp, grad_gpu - exp_gpu, grad_gpu)
        ag_exp = _ring_factor(n_edp, "all_gather", ops)
        gather_exp = where(mfsdp, exp_gpu * w_bytes * ag_exp, 0.0)
        rs_exp = where(mfsdp, exp_gpu * rs_g_bytes * ag_exp, 0.0)
    n_gather = where(fsdp_pp, 1.0, (1.0 + where(zero >= 3, 1.0, 0.0)) * m_acc)
    n_rs = where(fsdp_pp, 1.0, m_acc)
    compute_b = 4.0 if precision == "fp32" else 2.0  # FSDP's param_dtype: the unsharded weights and gradients
    fsdp1_grad_bytes = 0.0
    fsdp1_fw = "fsdp" if np.any(hf_fs) else framework  # the HF stack's FSDP1 runs torch's FSDP1 code
    if fsdp_version == 1:
        # FSDP1's passes over each unit's gradient around its reduce-scatter: the cast from the compute dtype to the
        # reduce dtype and the pre/post division (fsdp1_grad_cast_bytes, fsdp1_grad_divide_bytes). They run on the
        # post-backward stream with the reduce-scatter, not on the compute stream: time_gpu queues them there
        # (fsdp1_grad_passes is the part the backward does not hide)
        fsdp1_grad_bytes = n_rs * grad_gpu * (fsdp1_grad_cast_bytes(fsdp1_fw, compute_b, g_bytes)
                                              + fsdp1_grad_divide_bytes(fsdp1_fw, n_dp, g_bytes, ops))
        fsdp_copy_bytes = n_gather * weight_gpu * (4.0 + w_bytes) / maximum(n_dp, 1.0)
    else:
        fsdp_copy_bytes = (n_gather * weight_gpu * (2.0 * w_bytes + (4.0 + 3.0 * w_bytes) / maximum(n_dp, 1.0))
                           + n_rs * grad_gpu * (2.0 + g_bytes))
    edge_ag, edge_rs = fsdp2_edge_unit_bytes(m, framework, fsdp_version, fsdp_root_embedding, lora, tp, pp, L_stage,
                                             compute_b, g_bytes, ag_factor, ops)

    # ---- context parallelism: K/V ring, forward 1×, backward 2× (K/V and dK/dV), hidden under attention
    # K and V of the local chunk, 16-bit, of this tensor-parallel rank's heads (TP splits the heads; each rank keeps
    # at least one when TP exceeds the KV heads). torchtitan repeats the K/V heads to the query heads before SDPA
    # (``models/llama/model.py``: ``keys = repeat_kv(xk, self.n_rep)``), so torch's ring passes the repeated
    # heads, and its backward rotates dK/dV in fp32 (``_ContextParallelOptions.convert_to_f32 = True``): bytes by
    # _torch_cp_bytes. Transformer Engine's ring (Megatron, ``AttnFuncWithCPAndKVP2P``) passes the KV heads and 16-bit
    # dK/dV over cp − 1 steps: K/V once per forward pass, K/V and dK/dV once each in the backward.
    torch_cp = framework == "fsdp"
    n_kv_heads = float(m.arch.num_heads if torch_cp else m.arch.num_kv_heads)
    cp_dim = (m.q_dim if torch_cp else m.kv_dim) / minimum(tp, n_kv_heads)
    kv_chunk = 2.0 * tokens_mb * 2.0 * cp_dim
    # the forward ring runs once per forward of the attention: a recompute of the whole layer (full AC) or of the
    # attention core (Megatron's selective, ``checkpoint_core_attention``) re-runs it in the backward
    cp_fwd_passes = 1.0 + rec_whole + rec_attn
    cp_passes = cp_fwd_passes + 2.0
    # torch's ring as torchtitan runs it (``context_parallel_rotate_method`` default "allgather"): each pass gathers
    # the other ranks' K/V once; the backward rotates fp32 dK/dV on every one of its ``cp`` steps (_torch_cp_bytes)
    cp_bytes = (_torch_cp_bytes(cp, kv_chunk, cp_fwd_passes - 1.0) if torch_cp else cp_passes * (cp - 1.0) * kv_chunk)
    # torch's ring attention merges and accumulates around each ring step on the compute stream, memory-bound
    # (torch/distributed/tensor/experimental/_attention.py, _cp_options.convert_to_f32 = True): cp_merge_bytes
    cp_merge_tok = 0.0
    if torch_cp:
        cp_merge_tok = where(cp > 1, cp_merge_bytes(cp, rec_whole) * cp_dim * m.L / (pp * cp), 0.0)
        mem_tok_bytes = mem_tok_bytes + cp_merge_tok
    elif framework == "megatron":  # Transformer Engine's ring: its corrections and accumulations (te_cp_merge_bytes)
        te_q = m.q_dim / minimum(tp, float(m.arch.num_heads))
        cp_merge_tok = where(cp > 1, te_cp_merge_bytes(cp, cp_fwd_passes, te_q, 2.0 * cp_dim) * m.L / (pp * cp), 0.0)
        mem_tok_bytes = mem_tok_bytes + cp_merge_tok

    # ---- expert parallelism: all-to-all dispatch + combine, forward and backward
    n_moe_stage = m.moe_frac * m.L / pp
    # Megatron's expert grid spaces an EP group's ranks by the expert tensor-parallel size (MoE parallel folding:
    # ``RankGenerator(tp=expert_tensor_parallel_size, ep=…, cp=1)``); other frameworks carve EP out of the data-
    # parallel ranks, spaced by tp × cp
    ep_stride = exp_tp if framework == "megatron" else tp * cp
    a2a_in, a2a_off = ep_peer_shares(ep, ep_stride, gpn if ep_domain is None else f64(ep_domain), ops)
    disp = moe_dispatcher_of(framework, moe_dispatcher)
    if disp == "flex":  # DeepEP / HybridEP: one network copy per remote NVLink domain (flex_peer_shares)
        a2a_in, a2a_off = flex_peer_shares(m, ep, ep_stride, gpn if ep_domain is None else f64(ep_domain), ops)
    # with expert tensor parallelism Megatron's all-to-all dispatcher all-gathers the dispatched tokens over the
    # expert-TP group after the all-to-all and reduce-scatters them before the combine (``token_dispatcher.py``,
    # ``MoEAlltoAllTokenDispatcher``: ``gather_from_sequence_parallel_region`` / ``reduce_scatter_to_sequence_
    # parallel_region`` on ``pg_collection.expt_tp``), the reverse in the backward: each GPU receives and sends
    # (etp − 1) × its routed copies, four times per MoE layer and micro-batch
    etp_bytes = 0.0
    if framework == "megatron" and m.moe_frac and getattr(m, "n_experts", 0) and disp != "allgather":
        etp_bytes = 4.0 * maximum(exp_tp - 1.0, 0.0) * tokens_mb / tp * m.k_active * m.h * 2.0

    # Megatron's all-to-all dispatcher all-gathers every rank's token count per expert over the expert-TP × EP group
    # before the all-to-all, once per MoE layer's forward (MOE_COUNTS_ALLGATHER: a few hundred bytes, latency-bound)
    ep_counts_s = 0.0
    if framework == "megatron" and m.moe_frac and getattr(m, "n_experts", 0) and disp == "alltoall":
        ep_counts_s = _ring_latency(exp_tp * ep, gpn if ep_domain is None else f64(ep_domain),
                                    MOE_COUNTS_ALLGATHER, ops)
    # whole-layer recompute re-runs the MoE layer's forward with its collectives (ep_recompute_passes, ptoos11)
    # the MoE layer's forward re-run (whole-layer recompute, or the "moe" recompute module) re-runs its dispatch
    ep_rec, ep_rec_fwd = ep_recompute_passes(rec_moe)

    # ---- other: optimizer update, QLoRA dequantisation
    # (Megatron's distributed optimizer shards the routed experts' states over the expert-data-parallel group)
    opt_params = where(zero >= 1, (grad_gpu - exp_gpu) / n_dp + exp_gpu / n_edp, grad_gpu)
    # Megatron's distributed optimizer: its Python loops over the experts' parameter tensors (swiftmoe10)
    distopt_host_s = distopt_expert_tensor_seconds(m, framework, zero, offload, tp, n_dp, ep, exp_tp_dp, pp,
                                                   exp_trainable, ops)
    # optimizer update and the gradient clipping pass (CLIP_BYTES; DeepSpeed does not clip by default; torchtune's
    # optimizer-in-backward cannot clip: its recipes raise "Gradient clipping is not supported with optimizer in bwd")
    clip = 0.0 if framework == "deepspeed" or optimizer_in_backward else CLIP_BYTES
    fp8_w_bytes = 0.0
    if precision == "fp8":
        # FP8 weight casts: TE once per step (its FP8 weight cache), torchao every micro-batch (on the local
        # shard when the all-gather is in FP8)
        rcp = fp8mod.recipe_for(framework, fp8_recipe)
        w_cast = rcp.w_bytes - where(fused, rcp.fused_saving, 0.0)
        w_params = base_linear_params(m.arch) * shard_frac / where(fp8_ag & (zero >= 2), n_dp, 1.0)
        # (Megatron-FSDP without --fp8-param-gather: the gathered 16-bit weight is released after each unit, so TE
        # casts it again on every micro-batch: core/megatron_fsdp.py)
        per_mb_cast = where(mfsdp & (not mg_fp8_pg), True, rcp.w_per_micro_batch)
        fp8_w_bytes = w_params * w_cast * where(per_mb_cast, m_acc, 1.0)
        if mg_fp8_pg:
            # Megatron --fp8-param-gather (fp8.megatron_fp8_param_gather): the optimizer casts its shard, TE transposes
            # each gathered weight once; frozen base weights (LoRA) stay as they were cast at load
            fp8_w_bytes = 0.0 if lora else w_params * (w_cast / maximum(where(zero >= 1, n_dp, 1.0), 1.0)
                                                       + fp8mod.FP8_PARAM_TRANSPOSE_BYTES)
    deq_bytes = deq_elems = 0.0
    if method == "qlora":
        deq_passes = 2.0 + rec_whole + rec_op
        deq_bytes = _dequant_bytes(m) / mp * deq_passes * m_acc
        deq_elems = float(base_linear_params(m.arch)) / mp * deq_passes * m_acc
    # tokens per step per GPU: the real ones (padding, flops.sample_shape, is processed but not counted)
    tokens_step_gpu = mbs * s * m_acc * dp / n_gpus * real_frac
    off = offload_layout(framework, optimizer, profile, ops, offload=offload, offload_params=ops.b(offload_params),
                         opt_params=opt_params,
                         shard_params=weight_gpu / maximum(n_dp, 1.0), m_acc=m_acc, n_gather=n_gather, n_rs=n_rs,
                         host_ranks=minimum(gpn, n_gpus))
    off["off_nemo_rl"] = nemo_rl_swap_bytes(framework, profile, weight_gpu=weight_gpu, opt_params=opt_params, tool=tool)
    off["off_rl_model"] = rl_model_offload_bytes(profile, tool, weight_gpu=weight_gpu, opt_params=opt_params,
                                                 offload=offload, where=where)
    # (with Megatron's CPU optimizer, optimizer_cpu_offload, the state already lives on the host: no move)
    off["off_nemo_rl_s"] = where(offload, 0.0, nemo_rl_optimizer_move_seconds(framework, profile, opt_params=opt_params,
                                                                             tool=tool))
    # four separate per-row values (not one tuple): take_layout/pack_layout pick the rows of arrays only
    (off["nemo_export_pipe"], off["nemo_export_tens"], off["nemo_export_expert"],
     off["nemo_export_hbm"]) = nemo_rl_export_bytes(framework, profile, m, tp=tp, pp=pp, ep=ep, exp_tp=exp_tp, tool=tool)
    off["nemo_refit_tensors"] = nemo_rl_refit_tensors(framework, profile, m, tool=tool) + 0.0 * tp
    if disp == "flex":
        off.update(hybridep_ib_layout(m, ep, ep_stride, dom, ops))
    off["lora_tp_mb"] = lora_tp_mb
    off["lora_sp_n"] = lora_sp_n + 0.0 * tp
    return {**off,
        "ops": ops, "m": m, "method": method, "framework": framework, "precision": precision, "profile": profile, "s": s,
        "flash": flash, "lora_tok": lora_tok, "lora_gemm_tok": lora_gemm_tok, "lora_flops_tok": lora_flops_tok,
        "lora_fp32_gemm": fp32_path if lora else False, "dora_mb": dora_mb, "ds_bf16_mb": ds_bf16_mb,
        "fp8_gemm_scale": fp8_gemm_scale,
        "lin_exp_tok": lin_exp_tok, "size_exp": size_exp, "moe_tok": moe_tok,
        "moe_cap": moe_capacity_scale(moe_capacity_factor, moe_pad_to_capacity, ops=ops, imbalance=_moe_bal.moe_rank_imbalance(
            getattr(m, "n_experts", 0) if m.moe_frac else 0, m.k_active, tokens_mb / tp, ep, ops, exp_tp=exp_tp)),
        "moe_syncs": moe_dispatch_syncs(moe_capacity_factor, moe_pad_to_capacity, disp), "tokens_mb": tokens_mb, "moe_host_exp_f": moe_host_mb[0], "moe_host_rest_f": moe_host_mb[1], "moe_host_b": moe_host_mb[2], "moe_host_exp_b": moe_host_exp_b, "moe_rec_whole": rec_moe, "moe_launch_mb": moe_launch_mb, "moe_wg_flops": moe_wg_flops, "moe_wg_bytes": moe_wg_bytes, "cp_merge_tok": cp_merge_tok, "host_mb": host_mb, "host_fwd_mb": host_fwd_mb, "z3_host_mb": z3_host_mb, "fl_host_mb": fl_host_mb, "fl_nograd_mb": fl_nograd_mb, "rank_len_cv": float(rank_len_cv), "pad_rank_f": pad_rank_f, "fl_on": _fl.applies(*fl_args), "fl_mask": fsdp1_lora_mask(fl_args, where), "fl_seg": _fl.segment_shares(m.arch, lora_targets) if _fl.applies(*fl_args) else (), "fl_fwd_base_mb": fwd_host_mb, "fl_fwd_h": fwd_total, "fl_layers_share": (fwd.layers + fwd.attention) / fwd_total, "hfmoe_loop_mb": hfmoe_loop_mb, "hfmoe_fwd_share": _hfmoe.expert_forward_share(lora, rec_whole), "tp": tp, "pp": pp, "cp": cp, "ep": ep, "vpp": vpp, "m_acc": m_acc, "mbs": mbs,
        "mbs_examples": mbs_examples, "zero": zero, "offload": offload, "fwd": fwd, "mp": mp, "size": size,
        "lin_tok": lin_tok, "attn_tok": attn_tok, "head_tok": head_tok, "hflops_tok": hflops_tok,
        **(nanotron_stage_shares(m, pp, ops) if tool == "nanotron"
           else pp_stage_shares(framework, pp, m.L, pp_account_edges, ops)),
        "mflops_tok": mflops_tok, "extra_h": extra_h, "extra_m": extra_m, "extra_host_more": extra_host_more, "mem_tok_bytes": mem_tok_bytes, "verl_lp_tok": verl_lp_tok,
        "precomp_h": precomp_h, "ep_nograd_passes": ep_nograd_passes,
        "tp_in_node": tp <= dom, "ov_grad": ov_grad, "ov_param": ov_param, "ov_tp": ov_tp, "ov_p2p": ov_p2p,
        "fwd_share": fwd_share, "fa_sync": hf_flash_layer_syncs(profile, framework), "n_layer_coll": n_layer_coll, "tp_ar_bytes": tp_ar_bytes, "tp_layer_ar_bytes": tp_layer_ar_bytes,
        "tp_unfused_share": tp_async_unfused_share(framework, precision, fp8_recipe, rec_whole, rec_op),
        "tp_ar_lat": _ring_latency(tp, gpn, "all_reduce", ops), "bubble_share": (pp - 1.0) / vpp * packed_rows(pack_len, s, m_acc, ops),
        "crosses_nodes": crosses_nodes, "multi_node": n_gpus > dom, "p2p_num": 2.0 * vpp * p2p_bytes, "dp_spans": dp_spans, "k_node": k_node,
        "n_dp": n_dp, "L_stage": L_stage, "m_chunks": m_chunks, "win_factor": win_factor,
        "last_bucket": last_bucket, "sharded_opt": sharded_opt,
        "grad_sync_bytes": (grad_gpu - exp_gpu) * g_bytes * g_factor * n_red,
        "grad_sync_exp_bytes": exp_gpu * g_bytes * n_red * where(sharded_opt, _ring_factor(n_edp, "all_gather", ops),
                                                                 _ring_factor(n_edp, "all_reduce", ops)),
        "param_sync_exp_bytes": exp_gpu * ps_bytes * _ring_factor(n_edp, "all_gather", ops), "k_exp": k_exp,
        "grad_sync_lat": n_buckets * g_lat * n_red, "grad_reductions": n_red,
        **dict(zip(("nano_list_g", "nano_list_p"), nanotron_list_copies(tool, zero, n_dp, grad_gpu, L_stage, ops))),
        "param_sync_bytes": (trainable_sync_gpu(weight_gpu, grad_gpu, lora) - exp_gpu) * sync_b * ag_factor,
        "param_sync_lat": n_buckets * ag_lat, "lat_ag": lat_ag, "lat_rs": lat_rs, "bwd_gathers": bwd_gathers, "xf_gathers": xf_gathers, "xf_gathers_pre": xf_gathers_pre, "z3_open": z3_open,
        "z3_windowed": z3_windowed, "z3_win_bytes": z3_win_bytes,
        "ds_list_host": ds_list_host, "gather_bytes": unit_w * w_bytes * ag_factor,
        "gather_once_bytes": gather_once, "rs_bytes": rs_dense * rs_g_bytes * ag_factor,
        "gather_exp_bytes": gather_exp, "rs_exp_bytes": rs_exp, "fsdp_pp": fsdp_pp, "per_mb": per_mb,
        "fsdp_copy_bytes": fsdp_copy_bytes, "fsdp_copy_on": ((framework == "fsdp") | hf_fs) & per_mb & (n_dp > 1),
        "fsdp1_grad_bytes": fsdp1_grad_bytes,
        "edge_ag_bytes": edge_ag, "edge_rs_bytes": edge_rs,
        "cp_in_node": tp * cp <= dom, "cp_bytes": cp_bytes, "torch_cp": torch_cp, "cp_kv_chunk": kv_chunk,
        "cp_fwd_passes": cp_fwd_passes, "cp_traced": torch_cp and bool(torch_compile),
        "attn_layer_flops": ((2.0 + cp_fwd_passes) * fwd.attention / m.L) * tokens_mb, "stage_layers": m.L / pp,
        "attn_bwd_tok": 2.0 * (fwd.attention + me_extra), "sdpa_me": me & (sdpa_mask == "mem_efficient"),
        # the attention kernels' own extras, named in the breakdown (attention_kernel_parts)
        "attn_passes": attn_passes, "attn_hf_extra": hf_extra, "attn_me_extra": me_extra,
        "attn_hf_bytes": attn_hf_bytes, "attn_me_bytes": attn_me_bytes,
        "ep_in_node": tp * ep * cp <= gpn, "n_moe_stage": n_moe_stage,
        "a2a_in": a2a_in, "a2a_off": a2a_off, "etp_bytes": etp_bytes, "etp_in_node": exp_tp <= dom,
        "ag_dispatch": disp == "allgather", "hybridep_nvl": (disp == "flex") & (ep * ep_stride <= dom),
        "hybridep_ib": (disp == "flex") & (ep * ep_stride > dom),
        # Megatron-Core's EP all-to-all overlap (a2a_overlap_ep_seconds): on with PP 1 or an interleaved pipeline
        # (transformer_config.py refuses PP > 1 without VPP, EP 1, other dispatchers, full recompute)
        "a2a_ovl": (bool(ep_a2a_overlap) & (disp in ("alltoall", "flex")) & (ep > 1) & ((pp == 1) | (vpp > 1))
                    & (rec_whole == 0.0)),
        "a2a_ovl_warm": a2a_overlap_warmup(pp, vpp),
        "exp_tp": exp_tp, "ep_stride": ep_stride, "dom": dom, "ep_counts_s": ep_counts_s,
        "ep_rec": ep_rec, "ep_rec_fwd": ep_rec_fwd,
        "opt_bytes": opt_params * (_opt_bytes(optimizer, optimizer_foreach) + clip), "fp8_w_bytes": fp8_w_bytes,
        "tied_emb_bytes": tied_emb_bytes,
        "distopt_host_s": distopt_host_s,
        "deq_bytes": deq_bytes, "deq_elems": deq_elems, "deq_bnb": (tool or framework) in BNB_QLORA_TOOLS,
        "tokens_step_gpu": tokens_step_gpu, "tokens_per_step": tokens_step_gpu * n_gpus,
    }


#: Autocast over fp32 parameters (the HF Trainer's ``bf16=True`` on a model loaded in fp32, memory.py ``hf``): each
#: linear's fp32 weight and bias is cast to 16 bits by ``at::autocast`` in every forward (the cast cache lives for one
#: autocast region) and the gradient is cast back to fp32 in the backward (``ToCopyBackward0``): one kernel each way
#: per parameter tensor (:func:`autocast_param_tensors`). Measured with torch.profiler on one H100
#: (bench/validate_h100_measured.py, transformers 5.17 Qwen2.5-1.5B at 512 tokens): fp32 weights launch 13 more
#: forward and 19 more backward kernels per layer than bf16 weights; the count here is the 10 parameter casts.
EAGER_OPS_AUTOCAST_PARAM = 1.0


def _opt_bytes(optimizer: str, foreach: bool) -> float:
    """Optimizer update bytes per parameter of the shard (:data:`OPT_BYTES`; AdamW's foreach implementation:
    :data:`OPT_BYTES_ADAMW_FOREACH`)."""
    if foreach and optimizer == "adamw":
        return OPT_BYTES_ADAMW_FOREACH
    return OPT_BYTES.get(optimizer, 30.0)


#: Issue 35 round 15 (ftoos15): LoRA under PyTorch FSDP1 with ``use_orig_params=True`` and the adapters inside their
#: block's unit (``training.fsdp_lora_mixed_units``: Lightning Fabric 2.x with LitGPT, Composer). The block's flat
#: parameter requires grad when any of its tensors does (torch ``distributed/fsdp/_flat_param.py``,
#: ``flat_param_requires_grad``), and the forward runs on views of the unsharded flat parameter, so autograd computes
#: the gradient of every block weight, frozen or not. PyTorch's FSDP docstring ("FSDP has some constraints on freezing
#: parameters"): with ``use_orig_params=True`` mixing frozen and non-frozen parameters in one unit makes the gradient
#: memory "equivalent to not freezing those parameters"; pytorch/pytorch PR #109892 (Sept 2023) keeps the unsharded
#: views' ``requires_grad`` only where a unit's parameters all agree, and leaves the mixed case as it was. So each block
#: linear runs its weight-gradient GEMM as in full fine-tuning: FLOPs = its forward's (factor 1.0 of
#: ``forward_flops_per_token``'s ``layers``; hardware FLOPs, not the model's). The backward launches, per parameter
#: tensor, that gradient kernel (a GEMM, or a bias's reduction) and its view's copy into the flat gradient: 2 kernels
#: (counted from the autograd graph: ``mm``/``sum`` and the split view's backward). Not priced: the per-micro-batch
#: accumulation of the unsharded block gradient under ``no_sync`` (as for full fine-tuning) and the larger
#: reduce-scatter once a step. The memory side is ``memory.fsdp_lora_unit_params`` (memoos14). Check:
#: bench/validate_ft_oos15.py (LitGPT's resource tables: the 2- and 4-GPU rows take 2.1 to 3.2 times the 1-GPU
#: rows' time per iteration, recompute and these weight gradients both included).
FSDP_MIXED_UNIT_WGRAD = 1.0
FSDP_MIXED_UNIT_BWD_OPS = 2.0

#: Issue 35 round 15 (ftoos15): LitGPT's ``LoRAQKVLinear`` before v0.3.1 (``training.lora_layer`` ``litgpt``). Where LoRA
#: adapts some but not all of q, k and v (LitGPT's default ``lora_query`` and ``lora_value``: ``lora_targets`` "qv"),
#: every forward's ``zero_pad`` builds the index tensor from the Python list ``self.lora_ind`` (one integer per adapted
#: output column: the q width plus the v width) and copies it to the GPU: ``torch.tensor(self.lora_ind,
#: device=result.device)`` (lit_gpt/lora.py at 8641822, the commit of LitGPT's resource tables). LitGPT's PR #1374
#: ("Eliminate cuda syncs", 47806045, first in v0.3.1) caches the tensor, because the copy incurred "an expensive
#: cudaStreamSynchronize" every call. Host time per integer: huggingface/transformers PR #24772 (July 2023) timed
#: ``torch.tensor`` on a Python list of 1,024,000 integers at 0.1125 s, 110 ns each (x86 host, PyTorch 2.x). Counted
#: per forward of each layer (the recompute forward too), in the eager host floor; the sync itself (the GPU drains
#: once a layer) is not priced (it costs little where the host binds, as in these rows).
LITGPT_LORA_INDEX_S = 0.1125 / 1_024_000


def litgpt_index_seconds(m: ModelFacts, lora_targets: str) -> float:
    """Host seconds per layer and forward of LitGPT's ``zero_pad`` index list (:data:`LITGPT_LORA_INDEX_S`): the adapted
    q/k/v columns where LoRA covers some but not all of q, k and v (``qv``), else 0 (no padding needed, or no q/k/v
    adapter)."""
    if lora_targets != "qv":
        return 0.0
    a = m.arch
    return float(a.num_heads * a.head_dim + a.num_kv_heads * a.head_dim) * LITGPT_LORA_INDEX_S


def autocast_param_tensors(m: ModelFacts) -> float:
    """Parameter tensors of a decoder layer's linears that autocast casts: every linear's weight (the all-linear LoRA
    targets' count, fused matrices once) plus the q/k/v biases (``attention_bias``; one when q/k/v are fused) and
    the MLP's biases (``mlp_bias``)."""
    a = m.arch
    n_lin = F.lora_targets_per_layer(a, "all_linear")
    qkv_b = (1.0 if a.fused_qkv else 3.0) if a.attention_bias else 0.0
    mlp_b = (2.0 if a.fused_gate_up else 3.0) if a.mlp_bias else 0.0
    return n_lin + qkv_b + mlp_b


def dora_terms(m: ModelFacts, framework: str, lora_targets: str, fp32_adapters, d_out, rec, where):
    """DoRA (``training.dora``; PEFT ``DoraLinearLayer``, flops.DORA_*): (bytes per micro-batch of the weight-norm
    work, over all layers and the recompute forward's re-run ``rec``; 16-bit bytes per token of the output path,
    forward and backward). ``fp32_adapters``: PEFT's fp32 adapters (``autocast_adapter_dtype``), as ``peft_autocast``.
    Hand check: Llama-3.2-3B, q_proj + v_proj (3072x3072 + 3072x1024 x 28 layers = 352.3e6 elements, eye 2 x 3072² x
    28 = 528.5e6), fp32 adapters: 34 x 352.3e6 + 8 x 528.5e6 = 16.2 GB per forward."""
    a = lora_arch(m.arch, framework)
    w, eye = F.dora_weight_elements(a, lora_targets)
    per_fwd = where(fp32_adapters, F.DORA_WEIGHT_BYTES_FP32 * w + F.DORA_EYE_BYTES_FP32 * eye,
                    F.DORA_WEIGHT_BYTES_16 * w + F.DORA_EYE_BYTES_16 * eye)
    fwd = where(fp32_adapters, F.DORA_FWD_OUT_FP32, F.DORA_FWD_OUT_16) * d_out
    bwd = where(fp32_adapters, F.DORA_BWD_OUT_FP32, F.DORA_BWD_OUT_16) * d_out
    return per_fwd * (1.0 + rec), 2.0 * (fwd * (1.0 + rec) + bwd)


def _eager_ops_layer(m: ModelFacts, method: str, lora_targets: str, lora_dropout: float, peft_autocast, where,
                     m_acc=1.0, kbit_on=False):
    """Kernels an eager decoder layer launches per micro-batch, (forward, backward): the HF layer's
    (``EAGER_OPS_FWD_LAYER``), each LoRA module's (``EAGER_OPS_LORA_*``: its dropout forward and backward, the
    gradient accumulation over the step's ``m_acc`` micro-batches, PEFT's autocast casts ``EAGER_OPS_LORA_AUTOCAST_*``)
    and, for QLoRA, bitsandbytes' dequantisation of every 4-bit linear in each pass and PEFT's clone
    (``EAGER_OPS_QLORA_*``) and, under ``prepare_model_for_kbit_training`` (``kbit_on``, flops.KBIT_CAST_BYTES), one
    cast kernel per cast tensor each way: the 4-bit linears' inputs and outputs but ``o_proj``'s, SDPA's q/k/v and
    each adapter's input. ``peft_autocast``, ``m_acc`` and ``kbit_on`` may be arrays."""
    if method not in ("lora", "qlora"):
        return EAGER_OPS_FWD_LAYER, EAGER_OPS_BWD_LAYER
    n_lora = F.lora_targets_per_layer(m.arch, lora_targets)
    cast_f = where(peft_autocast, EAGER_OPS_LORA_AUTOCAST_FWD, 0.0)
    cast_b = where(peft_autocast, EAGER_OPS_LORA_AUTOCAST_BWD, 0.0)
    drop = 1.0 if lora_dropout > 0.0 else 0.0
    fwd = EAGER_OPS_FWD_LAYER + n_lora * (EAGER_OPS_LORA_FWD + drop)
    accumulate = EAGER_OPS_LORA_ACCUMULATE * (m_acc - 1.0) / m_acc
    bwd = EAGER_OPS_BWD_LAYER + n_lora * (EAGER_OPS_LORA_BWD + drop * EAGER_OPS_LORA_DROPOUT_BWD + accumulate)
    if method == "qlora":
        # the bitsandbytes layer casts nothing under autocast (flops.QLORA_CLONE_OUT); every linear is 4-bit
        n_4bit = F.lora_targets_per_layer(m.arch, "all_linear")
        kbit = where(kbit_on, 2.0 * (n_4bit - 1.0) + 3.0 + n_lora, 0.0)
        return (fwd + n_lora * EAGER_OPS_QLORA_CLONE + n_4bit * EAGER_OPS_QLORA_DEQUANT + kbit,
                bwd + n_4bit * EAGER_OPS_QLORA_DEQUANT + kbit)
    return fwd + n_lora * cast_f, bwd + n_lora * cast_b


#: torch ring attention (``torch/distributed/tensor/experimental/_attention.py``, torchtitan's context parallel), bytes
#: moved per query element of a local token and layer, by pass. Forward, each ring step after the first
#: (``_SDPAMerger.step``/``_merge_one`` with ``convert_to_f32``): the block output cast to fp32 (read 2, write 4), the
#: merge ``out - sigmoid(block_lse - lse) * (out - block_out)`` (three fp32 element-wise ops, 12 + 8 + 12), on 3/4
#: of the queries on average (the load-balanced steps with ``i > rank`` take the second half of the queries), plus
#: ``_partial_update``'s chunk-and-``torch.cat`` of the whole fp32 output (8) on half the steps, plus the K/V
#: ``torch.cat`` before each exchange (K and V repeated to the query heads: 2 × (2 + 2)): 0.75·38 + 0.5·8 + 8 = 40.5;
#: once per pass the first block's cast (6) and the final cast back (6): 12. Backward, every step (``_templated_ring_
#: attention_backward``): the K/V ``torch.cat`` (8), dK and dV accumulated in fp32 (``grad_key += grad_key_``: read
#: 4 + 2, write 4, twice, with ``_partial_update``'s cat on the steps ``i ≤ rank``: 23 on average), the fp32
#: dK/dV ``torch.cat`` before their all-to-all (16), dQ accumulated in fp32 (11.5 on average): 58.5; once the three
#: fp32 accumulators' zero fill and the casts back to 16 bits (18). A judgement from counting each op's operands.
CP_MERGE_FWD_STEP, CP_MERGE_FWD_ONCE, CP_MERGE_BWD_STEP, CP_MERGE_BWD_ONCE = 40.5, 12.0, 58.5, 18.0
#: Transformer Engine's p2p ring (Megatron-Core ``cp_comm_type="p2p"``: ``AttnFuncWithCPAndKVP2P``,
#: ``transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py``, NVIDIA/TransformerEngine
#: 015d2257), bytes moved outside the attention kernels per query element (``Q``) or K/V element (``KV``, K and V
#: together; GQA makes it ``2·kv_dim / q_dim`` of ``Q``) of a local token, layer and ring step, 16-bit tensors
#: (``sbhd``/``bshd``; attention stays BF16 in FP8 recipes, :data:`CUDNN_B200_FWD_TFLOPS`' note). The causal,
#: load-balanced ring alternates two step shapes, half the steps each on average over ranks: ``i ≤ rank`` (all the
#: queries, the first half of the K/V, ``k_part[:, 0].contiguous()``: 2·KV/2 = 1 KV) and ``i > rank`` (the second
#: half of the queries, ``q[:, 1].contiguous()``: 2·Q/2 = 1 Q, all the K/V). Forward, per step after the first: the
#: output correction after the loop (``flash_attn_fwd_out_correction``: read ``out_per_step`` 2, read and write
#: ``out`` 4; ``…_second_half_out_correction`` on half the queries, 3): (6 + 3) / 2 Q + (1 Q + 1 KV) / 2 =
#: 5.0 Q + 0.5 KV; once per pass ``flash_attn_fwd_out_correction_init`` (read 2, write 2): 4 Q (the LSE corrections
#: are per head, not per element: left out). Backward, every step: dQ accumulated in the 16-bit buffer
#: (``dq.add_(dq_)``: 6 on all queries, 3 on the half), dK/dV added into the received ``dkv`` buffer (``dk.add_``:
#: 6 KV on the full K/V, 3 on the half), and the half steps' ``q_, out_, dout_ = [x.contiguous() …]`` (3 · 2·Q/2 =
#: 3 Q) and the full steps' ``k_part.contiguous()`` halves (1 KV): (6 + 3 + 3) / 2 Q + (3 + 1 + 6) / 2 KV =
#: 6.0 Q + 5.0 KV. Counted from the code's operands; the kernels are ``jit_fuser``-fused (one read per operand).
TE_CP_FWD_STEP_Q, TE_CP_FWD_STEP_KV, TE_CP_FWD_ONCE_Q = 5.0, 0.5, 4.0
TE_CP_BWD_STEP_Q, TE_CP_BWD_STEP_KV = 6.0, 5.0


#: Bytes per vocabulary entry and token that verl's log-prob forward moves after the LM head (the actor's
#: ``old_log_prob`` and the reference's pass are both ``DataParallelPPOActor._forward_micro_batch``, which computes the
#: entropy whether or not it is used; volcengine/verl v0.3.0.post1, 070ed6ac, ``verl/workers/actor/dp_actor.py``,
#: ``verl/utils/torch_functional.py``): ``logits_rmpad.div_(temperature)`` in place on the 16-bit logits (read 2 +
#: write 2), ``entropy_from_logits`` under ``torch.compile`` (softmax, logsumexp and sum(p·x) of one row: two reads of
#: the row, the reductions' max/sum then the weighted sum: 4), ``logprobs_from_logits`` through flash-attn's Triton
#: ``cross_entropy_loss`` (one read: 2). A count of the operands, not a measurement.
VERL_LOGPROB_VOCAB_BYTES = 10.0


def verl_logprob_bytes(m: ModelFacts, profile: MethodProfile, framework: str) -> float:
    """Memory-bound bytes per trained token (one replica) of verl's no-grad log-prob forwards beyond their FLOPs
    (:data:`VERL_LOGPROB_VOCAB_BYTES` per vocabulary entry, one per reference forward and per no-grad policy forward:
    :attr:`MethodProfile.ref_forwards`, :attr:`MethodProfile.policy_nograd_forwards`). RL on FSDP is verl's workers
    (as :func:`offload_layout`); 0 elsewhere (the critic's and a reward model's scalar heads have no logits)."""
    if not (profile.rl and framework == "fsdp"):
        return 0.0
    return float(profile.ref_forwards + profile.policy_nograd_forwards) * VERL_LOGPROB_VOCAB_BYTES * m.V


def nograd_gathers(profile: MethodProfile, framework: str, zero, where, precomputed: bool = False):
    """Whole-model all-gathers per micro-batch of the objective's no-grad forwards in the step under DeepSpeed ZeRO-3
    (engines ``hf``/``deepspeed``): one per reference forward and per no-grad policy forward
    (:attr:`MethodProfile.ref_forwards`, :attr:`MethodProfile.policy_nograd_forwards`; a precomputed reference runs
    before training, not in the step). TRL's ``prepare_deepspeed`` (``trl/models/utils.py``, the DPO/KTO trainers)
    wraps a separate reference model in its own ZeRO-3 engine with the policy's config ("If ZeRO-3 is used, we
    shard both the active and reference model"), ``overlap_comm`` included; a LoRA run's reference and the no-grad
    policy forwards run the sharded policy itself. Either way each such forward gathers every partitioned weight
    (``fetch_sub_module``), as the policy's own forward does. 0 elsewhere (FSDP and Megatron not entered).
    ``precomputed``: the gathers of the reference's precompute pass instead (before training, counted with the run's
    days as its FLOPs are: :func:`reference_precompute_flops`)."""
    pre = profile.reference == "precomputed"
    if precomputed:
        n = float(profile.ref_forwards) if pre else 0.0
    else:
        n = float(profile.policy_nograd_forwards) + (0.0 if pre else float(profile.ref_forwards))
    if framework not in ("hf", "deepspeed") or n == 0.0:
        return 0.0 * zero
    return where(zero >= 3, n, 0.0)


#: Issue 35 round 10 (nemorl11): the share of one micro-batch's expert dispatch (:func:`_ep_comm_mb`: dispatch and
#: combine, forward and backward, ``4 ×`` the routed hidden states) that a forward pass alone runs: dispatch and
#: combine once each. A no-grad forward of an MoE policy or reference on Megatron-Core (NeMo RL's
#: ``get_logprobs`` / ``get_reference_policy_logprobs`` → ``megatron_policy_worker.py`` ``get_logprobs`` →
#: ``forward_backward_func(..., forward_only=True)`` at tag v0.6.0) runs the same model, so every MoE layer's
#: ``MoEAlltoAllTokenDispatcher`` (Megatron-Core ``token_dispatcher.py``: ``token_dispatch`` /
#: ``token_combine``, one all-to-all each) moves its tokens as in training. Those passes were timed as the
#: training micro-batch scaled by FLOPs (``time_gpu``'s ``t_mb_objective``), which holds no expert dispatch.
EP_FORWARD_SHARE = 0.5


def nograd_moe_forward_passes(profile: MethodProfile) -> float:
    """No-grad forwards of the policy's architecture per trained token that run inside the step (the reference's
    and the policy's own log-prob passes, :attr:`MethodProfile.ref_forwards` + ``policy_nograd_forwards``), less
    a reference precomputed before training (:func:`reference_precompute_flops`). Each dispatches its tokens to
    the experts as a training forward does (:data:`EP_FORWARD_SHARE`); the critic's and a reward model's passes
    are left out (their own models)."""
    ref = 0.0 if profile.reference == "precomputed" else float(profile.ref_forwards)
    return ref + float(profile.policy_nograd_forwards)


def reference_precompute_flops(profile: MethodProfile, fwd_total):
    """Forward FLOPs per trained token of the reference pass that runs once before training, not in the step
    (``training.preference.reference = precomputed``); 0 otherwise. TRL ``DPOTrainer.__init__`` (huggingface/trl
    at f2cd577, ``trl/trainer/dpo_trainer.py``) calls ``_precompute_ref_logps`` on the train dataset when
    ``precompute_ref_log_probs`` is set, so the reference model's forward over every pair runs at the trainer's
    construction; ``_compute_loss`` then reads ``ref_chosen_logps``/``ref_rejected_logps`` from the batch and runs no
    reference forward. The step a user sees (the Trainer's ``train_runtime`` / steps, its s/it; ms-swift's
    ``train_speed(s/it)``, timed from ``on_train_begin``) holds the policy's passes only; the run's wall time holds
    the precompute pass too, at the same shapes and rates (one forward per trained sequence: KTO's two reference
    forwards, completion and KL rows, ``KTOConfig.precompute_ref_log_probs``). KTO's no-grad policy forward over the
    KL rows stays in the step."""
    if profile.reference != "precomputed":
        return 0.0
    return profile.ref_forwards * fwd_total


def scalar_head_host_more(profile, fwd_total, val_fwd, hflops_tok, val_h, n_val):
    """FLOPs per token to add to the objective's passes for their host-bound share only (time_gpu's launch wait): the
    PPO critic and a reward model run the policy's decoder layers, so their host issues the same kernels and FSDP
    hooks per pass as the policy's; only their GPU FLOPs lack the LM head (:func:`value_head_passes`). Their passes'
    share of the eager launch wait is taken at the policy's FLOPs, not at theirs: the forward's ``fwd_total -
    val_fwd`` per scalar-head forward, and the training step's ``hflops_tok - val_h`` for the critic."""
    more = n_val * (fwd_total - val_fwd)
    return more + ((hflops_tok - val_h) if profile.critic else 0.0)


def value_head_passes(fwd, hflops_tok, mflops_tok, lora):
    """FLOPs per token of a model that ends in a scalar head instead of the LM head: (its forward, its training
    step in hardware FLOPs, the same in model FLOPs), from the policy's (``fwd`` = :func:`flops.forward_flops_per_
    token`; ``hflops_tok`` / ``mflops_tok`` the policy's training step). The PPO critic and a reward model project
    each token's hidden state onto one value, not onto the vocabulary, so the output layer's GEMM (2·V·h per token
    forward, twice that backward; not recomputed) is not run:

    * verl ``verl/workers/fsdp_workers.py`` ``CriticWorker._build_critic_model_optimizer``:
      ``AutoModelForTokenClassification`` with ``critic_model_config.num_labels = 1`` (tag v0.3.0.post1 and main);
      its ``RewardModelWorker`` takes the same class.
    * OpenRLHF ``openrlhf/models/model.py`` ``get_llm_for_sequence_regression`` (``value_head = nn.Linear(h, 1)``
      on the base model, for the critic and the reward model).
    * TRL ``PPOTrainer``: ``value_model`` / ``reward_model`` are ``AutoModelForSequenceClassification`` (``score``,
      ``num_labels=1``).

    The memory side already holds the critic without the LM head (``memory.objective_parts``, ``value_ratio``).
    The scalar head's 2·h FLOPs per token are left out."""
    head_tok = (2.0 if lora else 3.0) * fwd.head  # the head's share of the training step (timing: head_tok)
    return fwd.layers + fwd.attention, hflops_tok - head_tok, mflops_tok - head_tok


def _padded_critic_extra(m: ModelFacts, profile: MethodProfile, row_len: float, fwd_total: float, hflops_tok):
    """Hardware FLOPs per trained (real) token that a padded PPO critic adds over one run at the policy's rows
    (``training.rl.critic_padding_free`` = false): verl's critic without ``critic.model.use_remove_padding``
    (``verl/workers/critic/dp_critic.py`` ``DataParallelPPOCritic``: ``config.model.get('use_remove_padding',
    False)``; ``ppo_trainer.yaml`` false; the example scripts set it for the actor only) runs its values forward
    and its update on the padded prompt + response rows (``_forward_micro_batch`` unpads only when it is set), so
    each real token carries ``(padded prompt + rollout_len) / row`` tokens of work, attention at the padded length
    (:attr:`MethodProfile.padded_row_len`: verl pads prompts to ``data.max_prompt_length``). ``fwd_total`` and
    ``hflops_tok`` are the critic's own forward and step at the policy's rows (:func:`value_head_passes`: no LM head)."""
    s_pad = float(profile.padded_row_len)
    if s_pad <= row_len:
        return 0.0
    fwd_pad = F.forward_flops_per_token(m, s_pad)
    pad_total = fwd_pad.layers + fwd_pad.attention  # the critic's scalar head (value_head_passes)
    ratio = s_pad / row_len
    return ratio * (pad_total + hflops_tok * pad_total / fwd_total) - (fwd_total + hflops_tok)


def te_cp_merge_bytes(cp, fwd_passes, q_elems, kv_elems):
    """Bytes per local token and layer that Transformer Engine's p2p ring moves outside the attention kernels
    (:data:`TE_CP_FWD_STEP_Q` …), for ``q_elems`` query and ``kv_elems`` K/V elements of a token on this rank: the
    forward's ``cp − 1`` corrections and its first-step init on each forward pass (``fwd_passes``: a recompute of
    the layer or of the attention core re-runs the ring), and the backward's ``cp`` accumulations."""
    fwd = (cp - 1.0) * (TE_CP_FWD_STEP_Q * q_elems + TE_CP_FWD_STEP_KV * kv_elems) + TE_CP_FWD_ONCE_Q * q_elems
    return fwd_passes * fwd + cp * (TE_CP_BWD_STEP_Q * q_elems + TE_CP_BWD_STEP_KV * kv_elems)


def cp_merge_bytes(cp, rec_whole):
    """Bytes per query element of a local token and layer that torch's ring attention moves outside the attention
    kernels (:data:`CP_MERGE_FWD_STEP` …): the forward's merges (re-run by a recompute of the whole layer) and the
    backward's fp32 accumulations, over ``cp`` ring steps."""
    fwd = (cp - 1.0) * CP_MERGE_FWD_STEP + CP_MERGE_FWD_ONCE
    return (1.0 + rec_whole) * fwd + cp * CP_MERGE_BWD_STEP + CP_MERGE_BWD_ONCE


#: CPU offload of the optimizer (``parallel.offload_optimizer`` / ``offload_params``). Adam updates per second that
#: one host's CPU sustains with DeepSpeed's vectorised ``DeepSpeedCPUAdam`` (``csrc/adam/cpu_adam_impl.cpp``:
#: AVX-512/AVX2 over fp32 parameters, gradients and both moments, OpenMP threads), shared by the ranks on the host
#: (each rank steps its own partition at the same time; DeepSpeed ``--bind_cores_to_rank`` splits the cores).
#: DeepSpeed's ZenFlow blog (``blogs/deepspeed-zenflow/README.md``, "Offloading-Induced GPU Stalls"): ZeRO-Offload
#: on Llama-2-7B (6.74e9 parameters) with 4× A100 spends "longer than 4s" per step on the CPU path (the CPU
#: update and the parameters' upload), 6.74e9 / 4 s ≈ 1.7e9 per second for the host.
CPU_ADAM_HOST_PARAMS_PER_S = 1.7e9
#: ``torch.optim.AdamW`` on CPU tensors (FSDP ``CPUOffload(offload_params=True)`` steps the CPU shards with the
#: model's own optimizer; PyTorch picks neither foreach nor fused for CPU tensors by default): DeepSpeed's
#: docs (``docs/_pages/training.md``, "CPU-Adam") measure DeepSpeedCPUAdam 5.1× to 6.5× faster than torch's Adam
#: for 1–10B parameters; the low end is taken (torch has improved since).
TORCH_CPU_ADAM_SLOWDOWN = 5.1
#: Achievable share of the PCIe x16 host link for pinned-memory copies (CUDA samples ``bandwidthTest``: about
#: 26 GB/s of Gen4's 32, 52 of Gen5's 64), as for peer-to-peer over PCIe in :func:`_intra_node_link`.
PCIE_HOST_EFFICIENCY = 0.8
#: The host link's PCIe generation where the catalog gives none (SXM boards): HGX A100 Gen4, HGX H100/H200/H20
#: Gen5 (NVIDIA DGX A100 / DGX H100 user guides), V100 Gen3, B200 Gen5.
HOST_PCIE_GEN = {"volta": 3, "ampere": 4, "ada": 4, "hopper": 5, "blackwell": 5, "blackwell-consumer": 5}
#: verl's FSDP workers with ``param_offload`` / ``optimizer_offload`` (``verl/workers/fsdp_workers.py``:
#: ``update_actor`` calls ``load_fsdp_model_to_gpu`` and ``load_fsdp_optimizer`` before the mini-batch loop and
#: ``offload_fsdp_model_to_cpu`` / ``offload_fsdp_optimizer`` after it; ``compute_log_prob`` / ``compute_values``
#: and the rollout sharding manager's weight sync load and offload the parameters): the optimizer steps on the
#: GPU, every mini-batch; each phase moves the shard both ways over PCIe (``.to(..., non_blocking=True)``, pinned).
#: Bytes per shard element, there and back: fp32 parameters (verl builds the actor and critic in fp32) and the
#: two fp32 Adam moments.
VERL_PARAM_BYTES, VERL_OPT_BYTES = 2.0 * 4.0, 2.0 * 8.0


#: Issue 35 round 10 (postoos10): which of verl's phases move what, read in ``verl/workers/fsdp_workers.py`` (v0.4.1,
#: and the same at b178a3c): ``update_actor`` loads and offloads the actor's fp32 parameter shard
#: (``load_fsdp_model_to_gpu`` / ``offload_fsdp_model_to_cpu``) and its optimizer state (``load_fsdp_optimizer`` /
#: ``offload_fsdp_optimizer``, ``verl/utils/fsdp_utils.py``: every tensor of ``optimizer.state``, which AdamW fills only
#: for parameters that get a gradient: with LoRA the adapter's, not the frozen base's); ``compute_log_prob`` and the
#: rollout sharding manager load and offload the parameter shard once each; and with LoRA the reference is the actor
#: with its adapter disabled (``compute_ref_log_prob``: ``if self._is_lora`` … ``self.compute_log_prob(data)``), so
#: the reference's forward loads and offloads the actor's fp32 shard too. The critic (PPO) moves its own.
def verl_phase_bytes(profile, shard_params, opt_params) -> dict:
    """Bytes each verl phase moves over the host link per generation batch on one GPU, there and back
    (:data:`VERL_PARAM_BYTES` per parameter of the shard, :data:`VERL_OPT_BYTES` per trained parameter): ``update``
    (parameters and optimizer state), ``log_prob`` (the old policy's forward), ``ref`` (a LoRA actor's
    adapter-disabled reference), ``refit`` (the colocated engine's weight sync) and ``critic``."""
    lora_ref = profile.reference == "lora_base" and profile.ref_forwards > 0
    return {
        "update": VERL_PARAM_BYTES * shard_params + VERL_OPT_BYTES * opt_params,
        "log_prob": VERL_PARAM_BYTES * shard_params if profile.policy_nograd_forwards > 0 else 0.0 * shard_params,
        "ref": VERL_PARAM_BYTES * shard_params if lora_ref else 0.0 * shard_params,
        "refit": VERL_PARAM_BYTES * shard_params if profile.engine == "vllm_colocated" else 0.0 * shard_params,
        "critic": (2.0 * VERL_PARAM_BYTES * shard_params + VERL_OPT_BYTES * shard_params if profile.critic
                   else 0.0 * shard_params),
    }


def verl_move_bytes(profile, shard_params, opt_params):
    """All of :func:`verl_phase_bytes` (one generation batch)."""
    return sum(verl_phase_bytes(profile, shard_params, opt_params).values())


def offload_layout(framework, optimizer, profile, ops, *, offload, offload_params, opt_params, shard_params, m_acc, n_gather,
                   n_rs, host_ranks) -> dict:
    """What CPU offload moves and computes per step on one GPU (:func:`offload_seconds` turns it into seconds).

    * DeepSpeed ZeRO-Offload (engine ``deepspeed``; the HF-family tools with ZeRO ≥ 1 run DeepSpeed): the rank's
      partition steps on the CPU (DeepSpeedCPUAdam); every micro-batch's reduced 16-bit gradients go to the CPU
      during the backward (ZeRO stage 1/2 ``async_accumulate_grad_in_cpu_via_gpu``; Ren et al. 2021,
      arXiv:2101.06840 §4.1: the copy overlaps the backward); after the step the updated 16-bit parameters come
      back, not overlapped.
    * Single-device CPU offload (engine ``hf``, ZeRO 0: torchtune ``optimizer`` =
      ``torchao...CPUOffloadOptimizer``): per-parameter gradient copies in the backward hooks on a side stream,
      ``torch.optim.AdamW(fused=True)`` on the CPU, the parameters copied back: the same shape as ZeRO-Offload.
    * DeepSpeed ZeRO-3 ``offload_param`` (``offload_params``): the 16-bit partition lives on the CPU and is copied
      to the GPU before each all-gather (``partitioned_param_swapper`` / ``_all_gather`` on the fetch), prefetched
      under the compute like FSDP's below.
    * FSDP ``CPUOffload(offload_params=True)`` / FSDP2 ``CPUOffloadPolicy``: the fp32 shard lives on the CPU, is
      copied to the GPU before each all-gather and the gradient shard back after each reduce-scatter; torch's
      AdamW steps on the CPU (:data:`TORCH_CPU_ADAM_SLOWDOWN`).
    * An 8-bit optimizer with offload is bitsandbytes' paged optimizer (``PagedAdamW8bit``: states in CUDA
      unified memory, paged out only under memory pressure): it steps on the GPU; the paging is not timed.
    * RL on FSDP is verl's workers (:data:`VERL_PARAM_BYTES`): a GPU step, plus the per-phase copies, shared by
      the ``updates_per_generation`` updates of one generation batch.
    """
    where = ops.where
    paged = optimizer == "adamw_8bit"
    verl = bool(profile.rl) and framework == "fsdp"
    fsdp_cpu = framework == "fsdp" and not verl
    cpu_side = offload & (not paged) & (not verl)
    k = float(max(profile.updates_per_generation, 1))
    verl_bytes = 0.0
    if verl:
        # actor: the update, the old-log-prob forward (GRPO/PPO, methods.method_profile), the rollout refit;
        # the critic (PPO): its values forward and its update (issue 35 round 10: verl_phase_bytes)
        verl_bytes = where(offload, verl_move_bytes(profile, shard_params, opt_params) / k, 0.0)
    once = cpu_side & (not fsdp_cpu)
    crit = 2.0 if profile.critic else 1.0  # the PPO critic's step and copies, like the policy's (not verl's: above)
    opt_params = opt_params * crit
    return {
        "off_cpu_params": where(cpu_side, opt_params * host_ranks, 0.0),
        "off_cpu_scale": TORCH_CPU_ADAM_SLOWDOWN if fsdp_cpu else 1.0,
        "off_h2d_once": where(once, 2.0 * opt_params, 0.0),
        "off_d2h": where(once, m_acc * opt_params * 2.0, where(cpu_side, n_rs * shard_params * 4.0 * crit, 0.0)),
        "off_h2d_gather": where(cpu_side & fsdp_cpu, n_gather * shard_params * 4.0 * crit,
                                where(once & offload_params, n_gather * shard_params * 2.0 * crit, 0.0)),
        "off_verl": verl_bytes, "off_gpu_step": where(offload, 1.0 if (paged or verl) else 0.0, 1.0),
    }


def fsdp1_lora_mask(fl_args: tuple, where):
    """1 where the FSDP1 LoRA adapter units apply (:func:`fsdp1_lora.applies` with ``fl_args``), element-wise over
    the HF stack's FSDP1 choice (its ZeRO stage may be an array); 0 elsewhere."""
    rl, framework, fsdp_version, method, hf_fsdp, mixed = fl_args
    if not _fl.applies(*fl_args):
        return 0.0
    if _fl.applies(rl, framework, fsdp_version, method):  # verl's workers
        return 1.0
    return where(hf_fsdp, 1.0, 0.0)


def fsdp1_lora_host_mb(m: ModelFacts, fl_args: tuple, lora_targets, rec_whole, pp):
    """(training micro-batch, one no-grad forward micro-batch) host seconds of the FSDP1 LoRA adapter units on one
    GPU's layers (core/fsdp1_lora.py; ``fl_args`` as :func:`fsdp1_lora.applies` takes them: verl's FSDP1 actor, the
    HF stack on Accelerate's FSDP1); 0 elsewhere (a fused, compiled step: the caller's ``where(fused, 0, …)``)."""
    if not _fl.applies(*fl_args):
        return 0.0 * rec_whole, 0.0 * rec_whole
    mask = fsdp1_lora_mask(fl_args, np.where)
    n_ad = F.lora_targets_per_layer(m.arch, lora_targets)
    train, nograd = _fl.adapter_unit_host_s(n_ad, m.L / pp, rec_whole)
    return train * mask + 0.0 * rec_whole, nograd * mask + 0.0 * rec_whole


def fsdp1_unit_host_mb(m: ModelFacts, framework, fsdp_version, method, rec_whole, pp):
    """Host seconds of one training micro-batch of FSDP1's hooks on one GPU's decoder-layer units
    (core/fsdp1_units.py); 0 where they do not apply (FSDP2, LoRA, other frameworks)."""
    if not _fu.applies(framework, fsdp_version, method):
        return 0.0 * rec_whole
    return _fu.decoder_unit_host_s(m.L / pp, rec_whole)[0]


def rank_straggler_wait(lay: dict, t_mb_gpu, launch_mb):
    """Per training micro-batch: the wait for the rank with the most rollout tokens (core/rank_imbalance.py), beyond
    the host floor it may hide under (``launch_mb``); 0 where no spread applies (``rank_len_cv`` 0)."""
    cv = lay.get("rank_len_cv", 0.0)
    f = _ri.straggler_factor(cv, lay["mbs"], lay["n_dp"]) if cv else 1.0
    # padded fine-tuning batches where the ranks meet in every micro-batch (padded_rank_factor)
    f = f * lay.get("pad_rank_f", 1.0)
    return lay["ops"].maximum(t_mb_gpu * (f - 1.0) - launch_mb, 0.0)


def fsdp1_lora_waits(lay: dict, t_mb_gpu, hflops_tok, hcf):
    """Per micro-batch: (the training passes' wait, the no-grad log-prob forwards' wait) for verl's FSDP1 LoRA unit
    hooks (:func:`fsdp1_lora_host_mb`). FSDP1's rate limiter (``limit_all_gathers``, on by default and not set by
    verl) keeps the host within two units of the GPU: every unit's ``_unshard`` synchronises the host on the free
    event of the unit two back (pytorch/pytorch ``torch/distributed/fsdp/_runtime_utils.py`` at 00ae0bc9:
    ``_unshard`` → ``_free_event_queue.dequeue_if_needed()`` → ``event.synchronize()``; ``_reshard`` records and
    enqueues the event of every unit that frees its unsharded parameter; ``_share_state_and_init_handle_attrs``
    gives every FSDP instance the root's queue; ``_limiter_utils.py`` at e6401a21:
    ``_max_num_inflight_all_gathers = 2``). A LoRA layer's units come in pairs, ``lora_A`` and ``lora_B`` of each
    adapted linear (PEFT ``Linear.forward``: the base matmul, then ``lora_B(lora_A(x))``), so the host can run at
    most one adapted linear ahead of the GPU: a linear's hook pair hides only under that linear's own share of the
    layers' GPU time, and one linear's slack (a wide MLP matmul) cannot absorb another's hooks (a narrow k/v
    projection). Issue 35 round 14 (postoos14): the wait is summed per kind of adapted linear
    (:func:`fsdp1_lora.segment_shares`: its share of the hook pairs and of the layers' GPU time, by matmul FLOPs;
    the model's own host work spread evenly over the pairs, the layers' other GPU work spread with the matmuls),
    where it was one sum over the whole layer stack (round 9, which let the MLP's GPU time hide the attention
    projections' hooks); the passes of a micro-batch are taken together. Each pass waits that less the wait
    without the hooks. The reference of a LoRA actor runs with the adapter disabled (verl ``compute_ref_log_prob``
    → PEFT ``disable_adapter``: the units never run) and waits for none; 0 (no array work) where no unit hooks apply
    (``fl_on``)."""
    if not lay["fl_on"]:
        return 0.0, 0.0
    maximum = lay["ops"].maximum
    seg = lay.get("fl_seg", ())

    def exposed(host, gpu_s):
        if not seg:
            return maximum(host - gpu_s, 0.0)
        return sum(maximum(host * s - gpu_s * g, 0.0) for s, g in seg)

    gpu = t_mb_gpu * lay["fl_layers_share"]
    base = lay["host_mb"] * hcf
    train = exposed(base + lay["fl_host_mb"] * hcf, gpu) - maximum(base - gpu, 0.0)
    gpu_f = gpu * lay["fl_fwd_h"] / hflops_tok
    base_f = lay["fl_fwd_base_mb"] * hcf
    own = exposed(base_f + lay["fl_nograd_mb"] * hcf, gpu_f) - maximum(base_f - gpu_f, 0.0)
    mask = lay.get("fl_mask", 1.0)  # the HF stack's candidates sharded by DeepSpeed rather than FSDP1 wait for none
    return train * mask, float(lay["profile"].policy_nograd_forwards) * own * mask


def fsdp1_lora_parts(fl_wait, fl_logprob, m_acc, step) -> dict:
    """The breakdown's names for verl's FSDP1 LoRA unit hooks (:func:`fsdp1_lora_host_mb`), seconds per step:
    the training passes' wait and the no-grad log-prob forwards' own."""
    return {"fsdp1_lora_units": fl_wait * m_acc + 0.0 * step, "fsdp1_lora_units_logprob": fl_logprob * m_acc + 0.0 * step}


def offload_seconds(lay: dict, host_bw, t_bwd, compute):
    """Exposed seconds per step of CPU offload on one GPU (:func:`offload_layout`): the CPU optimizer step and the
    parameters' upload in full (serial after the backward), the gradients' download beyond the backward it runs
    under (at least the last layer's share), FSDP's shard uploads beyond the compute, verl's phase copies."""
    maximum = lay["ops"].maximum
    L = lay["L_stage"]
    cpu = lay["off_cpu_params"] * lay["off_cpu_scale"] / CPU_ADAM_HOST_PARAMS_PER_S
    d2h = lay["off_d2h"] / host_bw
    gat = lay["off_h2d_gather"] / host_bw
    return (cpu + lay["off_h2d_once"] / host_bw + maximum(d2h - t_bwd * lay["m_acc"], d2h / L)
            + maximum(gat - compute, gat / L) + lay["off_verl"] / host_bw + nemo_rl_host_seconds(lay, host_bw)
            + lay.get("off_rl_model", 0.0) / host_bw)


#: Issue 35 round 12 (savers12): bytes per optimizer-shard parameter Megatron-SWIFT's ``--offload_optimizer`` moves
#: out and back around each generation (modelscope/ms-swift 3602360a5, ``swift/megatron/trainers/utils.py``
#: ``offload_megatron_optimizer``: ``offload_megatron_copy_params`` moves the fp32 master shard
#: (``shard_fp32_from_float16_groups``), then ``exp_avg`` and ``exp_avg_sq``): 4 + 4 + 4. With Megatron's CPU
#: optimizer (``parallel.offload_optimizer``, ``--optimizer_cpu_offload``) they already live on the host: none.
RL_MODEL_OFFLOAD_OPT_BYTES = 12.0


def rl_model_offload_bytes(profile, tool, *, weight_gpu, opt_params, offload, where):
    """Host-link bytes per step on one GPU of ``training.rl.offload_model`` (memory.offloaded_pool_bytes has the
    sequence), out and back, shared by the ``updates_per_generation`` optimizer steps of one generation batch:

    * the 16-bit parameter buffer, ``2·weight_gpu`` (``offload_megatron_model_to_cpu``: a synchronous copy into a
      pinned buffer kept from the first step; ``load_megatron_model_to_gpu`` copies it back ``non_blocking``); the
      gradient buffer is freed and re-zeroed on the GPU, not copied;
    * a separate reference model's 16-bit weights, as many (its ``param.data.to('cpu', non_blocking=True)``:
      PyTorch's ``_to_copy`` allocates a pinned destination for a non-blocking device-to-host copy,
      ``aten/src/ATen/native/TensorConversions.cpp`` ``pin_out``);
    * the optimizer shard, :data:`RL_MODEL_OFFLOAD_OPT_BYTES` per parameter (non-blocking, so pinned), unless
      ``offload`` (Megatron's CPU optimizer) keeps it on the host (``where``: the array module's).

    All run at the pinned rate, none under compute: the download before generation, the upload before the next
    training pass. Zero unless :func:`memory.rl_model_offloaded`."""
    if not rl_model_offloaded(profile, tool):
        return 0.0 * weight_gpu
    ref = 2.0 * weight_gpu if (profile.reference == "separate" and profile.ref_forwards > 0) else 0.0
    opt = where(offload, 0.0, RL_MODEL_OFFLOAD_OPT_BYTES * opt_params)
    one_way = 2.0 * weight_gpu + ref + opt
    return 2.0 * one_way / float(max(profile.updates_per_generation, 1))


def nemo_rl_host_seconds(lay: dict, host_bw):
    """NeMo RL's own host copies per step on one GPU (part of :func:`offload_seconds`, named apart in the
    breakdown): the weight copies at the pinned rate (:func:`nemo_rl_swap_bytes`) and the optimizer state's
    pageable moves (:func:`nemo_rl_optimizer_move_seconds`)."""
    return lay.get("off_nemo_rl", 0.0) / host_bw + lay.get("off_nemo_rl_s", 0.0)


def host_waits(lay: dict, hcf, t_mb_gpu, pp_imb_mb, ep_mb, t_exp_mb, t_exp_gemm_mb) -> tuple:
    """The host waits of one micro-batch at the host's factor ``hcf`` (:data:`HOST_CPU_FACTOR`): (eager launches,
    Megatron's MoE syncs, Transformers' expert loop). ``t_mb_gpu``: the micro-batch's GPU time before the waits; the
    rest as :func:`time_gpu` passes them. :func:`time_gpu` calls it at the GPU's host factor, and again at 1.0 (an x86
    host) for the breakdown, where the difference is the Grace host's own line (``grace_host``)."""
    maximum, m = lay["ops"].maximum, lay["m"]
    # eager PyTorch: the GPU cannot run ahead of the host issuing its kernels (time_layout's host_mb); where the loop
    # syncs every micro-batch (HOST_SYNC_PER_MICROBATCH_TOOLS) the forward starts on an idle GPU, and the backward's
    # GPU work cannot start before the host has issued the forward: the micro-batch takes at least the forward's
    # issue time plus the backward's GPU time, max(G, H, H_fwd + G_bwd) with G_bwd = G x (1 - fwd_share)
    launch = maximum(maximum(lay["host_mb"] * hcf - t_mb_gpu,
                             lay["host_fwd_mb"] * hcf - t_mb_gpu * lay["fwd_share"]), 0.0)
    # Megatron's dropless MoE syncs the host every MoE layer (moe_host_seconds): the stage's MoE layers take at least
    # the host's issue time; the GPU's work in them (their compute and the expert all-to-all) runs under it
    # (the layers' share of the GPU's work: the last stage's whole output layer runs after them, pp_imb_mb is not theirs)
    t_layers = t_mb_gpu + launch - pp_imb_mb
    if lay.get("moe_syncs", True):
        moe = moe_sync_exposure((lay["moe_host_exp_f"] * hcf, lay["moe_host_rest_f"] * hcf, lay["moe_host_b"] * hcf),
                                t_layers, ep_mb, t_exp_mb, lay["fwd_share"], m.moe_frac, lay["ops"],
                                lay.get("moe_host_exp_b", 0.0) * hcf, lay.get("moe_rec_whole", 0.0))
    else:  # drop-and-pad: no sync, the host runs ahead across layers (moe_dispatch_syncs)
        moe = maximum((lay["moe_host_exp_f"] + lay["moe_host_rest_f"] + lay["moe_host_b"]) * hcf
                      - t_layers * m.moe_frac - ep_mb, 0.0)
    # Transformers' eager expert loop (core/hf_moe.py): serialised by its per-expert host syncs; the experts' own
    # forward GEMMs run under it, the rest of its host time is added
    hf = maximum(lay["hfmoe_loop_mb"] * hcf - t_exp_gemm_mb * lay["hfmoe_fwd_share"], 0.0)
    return launch, moe, hf


def attention_kernel_parts(lay: dict, attn_tok, flash_bwd, peak16_eff_attn, mem_bw):
    """Seconds per replica token on one GPU of the attention kernels' own extras, named in the breakdown (inside
    compute; not added again): Transformers' eager attention (:func:`hf_eager_attention_core`: the whole square's
    FLOPs and the score passes) and SDPA's memory-efficient kernel on a padded batch (:func:`hf_sdpa_masked_core`:
    the whole square, and the kernel's :data:`SDPA_MEM_EFF_TIME_FACTOR` over all the attention). ``attn_tok``: the
    attention FLOPs per token as timed (after the flash backward and the SDPA factor); ``flash_bwd``: the
    backward's factor. Returns (eager, padded SDPA)."""
    where, mp = lay["ops"].where, lay["mp"]
    eager = lay["attn_passes"] * lay["attn_hf_extra"] / peak16_eff_attn / mp + lay["attn_hf_bytes"] / mem_bw
    me = lay["attn_me_extra"]
    unmasked = lay["attn_tok"] - lay["attn_passes"] * me + (flash_bwd - 1.0) * (lay["attn_bwd_tok"] - 2.0 * me)
    padded = where(me > 0.0, (attn_tok - unmasked) / peak16_eff_attn / mp + lay["attn_me_bytes"] / mem_bw, 0.0)
    return eager, padded


#: NeMo RL's Megatron policy worker (RL objectives on the Megatron engine: NeMo RL is the tool that runs GRPO/PPO on
#: Megatron-Core here, as verl's workers are RL on FSDP above) moves state over the host link every generation batch,
#: whatever ``parallel.offload_optimizer`` says (NVIDIA-NeMo/RL v0.5.0 ``nemo_rl/algorithms/grpo.py`` ``grpo_train``
#: and ``refit_policy_generation``; ``nemo_rl/models/policy/workers/megatron_policy_worker.py``):
#:
#: * colocated vLLM: ``offload_before_refit`` → ``move_optimizer("cpu")`` and ``prepare_for_training`` →
#:   ``move_optimizer("cuda")`` copy the optimizer state out and back ("colocated generation will always offload
#:   optimizer", grpo_math_1B.yaml); ``offload_after_refit`` → ``move_model(model, "cpu")`` copies the 16-bit
#:   parameter buffer out (Megatron-Core ``_ParamAndGradBuffer.offload_to_cpu``: pinned ``param_data_cpu``; the
#:   gradient buffer is freed, not copied) and ``prepare_for_lp_inference`` copies it back before the log-probs.
#: * a KL reference (``reference_state_dict``, built on the CPU at start-up): ``use_reference_model`` copies the
#:   policy's ``state_dict`` out, loads the reference's in and the policy's back: three 16-bit copies of the
#:   stage's weights, once per generation batch (``get_reference_policy_logprobs``), colocated or not.
#:
#: Bytes per optimizer-state element: :data:`NEMO_RL_OPT_BYTES`. The weight copies run at the pinned rate
#: (``PCIE_HOST_EFFICIENCY``): Megatron's buffer offload is pinned, and the reference swap's
#: ``.to("cpu", non_blocking=True)`` from a CUDA tensor gets a pinned destination from PyTorch. The optimizer's
#: moves are pageable: :func:`nemo_rl_optimizer_move_seconds`.
NEMO_RL_OPT_BYTES = 12.0
#: ^ Adam's two fp32 moments and the fp32 master copy: grpo_math_1B.yaml sets ``use_precision_aware_optimizer: true``,
#: under which Transformer Engine's FusedAdam keeps the master weights in its state (``master_param``), so
#: ``move_optimizer`` moves all three.


#: the tools whose RL runs NeMo RL's Megatron worker (an RL scenario on plain ``megatron``); Megatron-SWIFT's
#: ``megatron rlhf`` keeps its optimizer and weights on the GPU unless ``--offload_optimizer``/``--offload_model``
#: (ms-swift ``swift/trainers/arguments.py``, the GRPO arguments mixin: both ``bool = False``, ``sleep_level = 0``),
#: so NeMo RL's per-generation moves are not its
NEMO_RL_TOOLS = ("megatron",)


def nemo_rl_worker(framework, profile, tool=None) -> bool:
    """Whether the step runs NeMo RL's Megatron policy worker: RL on the Megatron engine with a tool of
    :data:`NEMO_RL_TOOLS` (``tool`` None: the framework itself)."""
    return bool(profile.rl and framework == "megatron" and (tool or framework) in NEMO_RL_TOOLS)


def nemo_rl_swap_bytes(framework, profile, *, weight_gpu, opt_params, tool=None):
    """Host-link bytes per step on one GPU of NeMo RL's per-generation swaps (:data:`NEMO_RL_OPT_BYTES` has the
    mechanism): colocated, the optimizer state out and back and the 16-bit weights out and back; with a KL
    reference, three 16-bit copies of the stage's weights. Shared by the ``updates_per_generation`` optimizer
    steps of one generation batch. Zero off the Megatron engine, outside RL, or for a tool other than NeMo RL's
    (:data:`NEMO_RL_TOOLS`; ``tool`` None: the framework itself)."""
    if not nemo_rl_worker(framework, profile, tool):
        return 0.0
    w16 = 2.0 * weight_gpu
    # (the optimizer state's two moves are pageable, so they are timed apart: nemo_rl_optimizer_move_seconds)
    colocated = 2.0 * w16 if profile.engine == "vllm_colocated" else 0.0
    reference = 3.0 * w16 if profile.ref_forwards > 0 else 0.0
    return (colocated + reference) / float(max(profile.updates_per_generation, 1))


#: NeMo RL's ``move_optimizer`` (``megatron_policy_worker.py`` at v0.4.0 through v0.7.0 and main 7ea279a) moves each optimizer-state
#: tensor with ``state[k] = v.to("cpu")`` and back with ``v.to("cuda")``: blocking copies into freshly allocated
#: pageable host memory, one tensor at a time, so the copy stages through the driver's bounce buffer and faults in
#: new pages instead of streaming by DMA at the link's rate. NVIDIA-NeMo/RL issue #3976 (Nsight Systems, one H100,
#: colocated GRPO, Qwen2.5-0.5B, Megatron distributed optimizer): ``offload_before_refit`` moved 4.94 GB in 510
#: "Device -> Pageable" copies taking 2.75 s of copy time, "~1.8 GB/s effective D2H throughput" (3.76 s for the
#: whole call); the same host's pinned D2H ran ~55 GB/s. The same path in SGLang (PR #32032, ``module.to("cpu")``
#: on an H200) ran ~2.8 GB/s. Bytes per second of the download:
NEMO_RL_PAGEABLE_D2H_BPS = 1.8e9
#: ^ The upload (``prepare_for_training``) reads pages that are already resident, so it runs at a plain pageable
#: copy's rate: the same issue's 1 GiB pageable benchmark on that host, ~16.1 GB/s (measured device-to-host; taken
#: for host-to-device too, no upload figure is published).
NEMO_RL_PAGEABLE_H2D_BPS = 16.1e9


def nemo_rl_export_bytes(framework, profile, m, *, tp, pp, ep, exp_tp, tool=None):
    """Bytes one GPU moves per generation batch when NeMo RL refits colocated vLLM from the Megatron policy
    (issue 35 round 7): ``(pipeline, tensor, expert, hbm)``; zero off NeMo RL's Megatron worker or with a separate
    engine. The refit does not hand vLLM the GPU's own shard:

    * NeMo RL (``grpo.py`` ``refit_policy_generation`` → ``megatron_policy_worker.stream_weights_via_ipc_zmq``,
      tag v0.6.0) iterates ``megatron_bridge.export_hf_weights``, which yields every parameter as the full Hugging
      Face tensor on every training rank. Megatron-Bridge ``param_mapping.py`` ``megatron_to_hf`` (main 067f987):
      ``broadcast_from_pp_rank`` sends each tensor from its stage to **all** pipeline ranks, ``gather_from_tp_ranks``
      all-gathers the tensor-parallel pieces, ``gather_from_ep_ranks`` all-gathers the experts of the
      expert-parallel group. So each rank receives the other stages' share of its tensor/expert shard, the other
      tensor-parallel pieces of the whole model, and every other expert-parallel rank's experts.
    * ``stream_weights_via_ipc_zmq_impl`` (``nemo_rl/models/policy/utils.py``) packs each full tensor into a CUDA
      IPC buffer (``buffer[...].copy_(tensor)``: read and write, ``2 ×`` the 16-bit model); the colocated vLLM worker
      then loads its own shard, which :func:`_rollouts` already counts.

    ``W`` = 16-bit model, ``X`` = its routed experts: pipeline ``(1 − 1/pp) (W − X) / tp + (1 − 1/pp) X / (ep·etp)``,
    tensor ``(1 − 1/tp)(W − X) + (1 − 1/etp) X / ep``, expert ``(1 − 1/ep) X``, HBM ``2 W``. The ranks receive in
    ring collectives, each at its group's link (:func:`nemo_rl_export_seconds`). With a separate engine NeMo RL
    broadcasts from training rank 0 (``broadcast_weights_for_collective``), which :func:`_rollouts` prices by the
    whole model over the link; the same gathers run alongside it, so nothing is added there."""
    if not (nemo_rl_worker(framework, profile, tool) and profile.engine == "vllm_colocated"):
        return (0.0, 0.0, 0.0, 0.0)
    w = 2.0 * float(m.params.total)
    x = 2.0 * float(m.params.expert_params)
    etp = exp_tp
    pipe = (1.0 - 1.0 / pp) * ((w - x) / tp + x / (ep * etp))
    tens = (1.0 - 1.0 / tp) * (w - x) + (1.0 - 1.0 / etp) * x / ep
    expert = (1.0 - 1.0 / ep) * x
    return (pipe, tens, expert, 2.0 * w)


#: Host seconds per Hugging Face tensor of NeMo RL's refit (issue 35 round 11, nemorl12). Every refit, colocated
#: or not, walks the whole model one Hugging Face tensor at a time, on every training rank and every vLLM worker
#: (NVIDIA-NeMo/RL v0.6.0):
#:
#: * trainer: ``megatron_policy_worker._iter_params_with_optional_kv_scales`` iterates Megatron-Bridge's
#:   ``export_hf_weights`` (submodule 95e5f38, ``model_bridge.stream_weights_megatron_to_hf``): one conversion task
#:   per Megatron parameter, each a Python ``megatron_to_hf`` call; a routed expert's task all-gathers that one
#:   expert's weight over the expert-parallel group (``param_mapping.gather_from_ep_ranks``: one
#:   ``torch.distributed.all_gather`` per local expert weight, a regex per global expert id) and yields ``ep``
#:   tensors, the gated fc1 split into gate and up. Each yielded tensor is then copied into the IPC buffer
#:   (``policy/utils.stream_weights_via_ipc_zmq_impl``: ``pack_tensor``) or the packed broadcast
#:   (``broadcast_weights_for_collective`` → ``packed_broadcast_producer``) by its own ``copy_``.
#: * vLLM: ``vllm_backend.update_weights_via_ipc_zmq`` / ``update_weights_from_collective`` slice the buffer into one
#:   view per name and call ``model.load_weights``, which routes each name through the model's
#:   ``stacked_params_mapping`` / ``expert_params_mapping`` and its ``weight_loader`` (FusedMoE: one call per expert
#:   shard), then ``process_weights_after_loading``.
#:
#: So the refit costs host time per tensor on top of its bytes (:func:`nemo_rl_export_seconds`), and an MoE has
#: thousands of tensors per layer group (:func:`methods.param_tensors`: Qwen3-30B-A3B 18,867; dense Llama-3.1-8B 291).
#: Published (NVIDIA-NeMo/RL PR #3294, integrated B200 measurements of the colocated refit's "transfer + update"):
#: Qwen3-30B-A3B 9.67 s and Qwen3-235B-A22B 18.40 s on the per-tensor MXFP8 path, 0.51 ms and 0.50 ms per Hugging
#: Face tensor (18,867 and 36,945 tensors): the time follows the tensor count, not the bytes (7.7× the bytes, 1.9× the
#: time). The same PR's path with the quantisation moved to the trainer and the loader routes and IPC buffers
#: reused: 2.98 s and 7.26 s, 0.16 ms and 0.20 ms per tensor. The BF16 path of v0.6 quantises nothing but reuses
#: nothing either; the smaller of the optimised figures is taken as its per-tensor floor.
NEMO_RL_REFIT_S_PER_TENSOR = 0.16e-3


def nemo_rl_refit_tensors(framework, profile, m, tool=None) -> float:
    """Hugging Face tensors one GPU handles per NeMo RL refit (:data:`NEMO_RL_REFIT_S_PER_TENSOR`): every tensor of
    the model (:func:`methods.param_tensors`) on NeMo RL's Megatron worker with a vLLM engine, colocated (CUDA IPC)
    or separate (NCCL broadcast): both paths iterate the same export and vLLM's ``load_weights``. 0 elsewhere."""
    if not (nemo_rl_worker(framework, profile, tool) and profile.engine in ("vllm_colocated", "vllm_separate")):
        return 0.0
    return float(param_tensors(m.arch))


def nemo_rl_export_seconds(lay: dict, *, mem_bw, intra_p2p, nic):
    """Seconds per generation batch on one GPU of :func:`nemo_rl_export_bytes`: each group's bytes at its link
    (the NVLink domain's peer rate inside ``lay["dom"]`` GPUs, else the NIC; pipeline stages apart when
    ``crosses_nodes``), plus the IPC pack at HBM speed. Zero where the bytes are zero."""
    where = lay["ops"].where
    pipe, tens, expert, hbm = (lay.get("nemo_export_" + k, 0.0) for k in ("pipe", "tens", "expert", "hbm"))
    tp, ep, cp, dom = lay["tp"], lay["ep"], lay["cp"], lay["dom"]
    return (pipe / where(lay["crosses_nodes"], nic, intra_p2p) + tens / where(lay["tp_in_node"], intra_p2p, nic)
            + expert / where(tp * ep * cp <= dom, intra_p2p, nic) + hbm / mem_bw)


def nemo_rl_optimizer_move_seconds(framework, profile, *, opt_params, tool=None):
    """Seconds per step on one GPU of NeMo RL's optimizer-state moves with colocated vLLM (RL on the Megatron
    engine): ``offload_before_refit`` → ``move_optimizer("cpu")`` before each refit and ``prepare_for_training`` →
    ``move_optimizer("cuda")`` after the log-probs, both pageable (:data:`NEMO_RL_PAGEABLE_D2H_BPS`), once per
    generation batch: ``12 B × optimizer shard × (1 / D2H + 1 / H2D) / updates_per_generation``. With a separate
    engine NeMo RL (v0.5 on, ``offload_optimizer_for_logprob: false``) keeps the optimizer on the GPU; with
    ``optimizer_cpu_offload`` (``parallel.offload_optimizer``) it skips the move (the caller zeroes it)."""
    if not (nemo_rl_worker(framework, profile, tool) and profile.engine == "vllm_colocated"):
        return 0.0
    per_gen = NEMO_RL_OPT_BYTES * opt_params * (1.0 / NEMO_RL_PAGEABLE_D2H_BPS + 1.0 / NEMO_RL_PAGEABLE_H2D_BPS)
    return per_gen / float(max(profile.updates_per_generation, 1))


def nemo_rl_pack_len(t, profile, engine) -> float | None:
    """Tokens one packed micro-batch holds in NeMo RL's Megatron training (RL objectives on the Megatron engine
    with ``padding_free``/``packing``: NeMo RL's ``sequence_packing``, on in ``grpo_math_1B.yaml``):
    ``train_mb_tokens = max_total_sequence_length × train_micro_batch_size`` (``training.seq_len`` ×
    ``micro_batch_size``; per row of the micro-batch, ``seq_len``). The rollouts are packed into bins of that many
    tokens (``BatchedDataDict.shard_by_batch_size``, ``modified_first_fit_decreasing``) and each bin is one
    micro-batch of Megatron's schedule (``megatron_policy_worker.train``: ``mbs = 1``, ``num_microbatches`` = the
    bins). None elsewhere: one micro-batch holds ``micro_batch_size`` rows."""
    if not (profile.rl and engine == "megatron"):
        return None
    if not (bool(getattr(t, "padding_free", False)) or bool(getattr(t, "packing", False))):
        return None
    return float(t.seq_len)


def packed_rows(pack_len, row_len, m_acc, ops):
    """How many of the model's micro-batches one packed micro-batch holds (:func:`nemo_rl_pack_len`): the bin's
    tokens over a row's, at least 1 and at most all ``m_acc`` of the step (rows are whole; first-fit-decreasing on
    the model's capped-geometric lengths fills 96–99% of a bin, taken as full). The pipeline's fill and drain
    last ``pp − 1`` micro-batch times of the schedule's micro-batches — the bins — so the bubble grows by this
    factor while the step's work does not change. 1 where nothing is packed."""
    if pack_len is None:
        return 1.0
    return ops.minimum(ops.maximum(float(pack_len) / ops.maximum(row_len, 1.0), 1.0), ops.maximum(m_acc, 1.0))


#: torch ring attention's exchange as torchtitan runs it (``torch/distributed/tensor/experimental/_attention.py`` at
#: torch 1963fc8, the Dec-2024 torchtitan benchmark's; torchtitan 9dec370 ``--experimental.context_parallel_rotate_
#: method`` default "allgather", ``utils.create_context_parallel_ctx`` → ``set_rotate_method``). Forward
#: (``_templated_ring_attention``): before the first SDPA call the rank's K/V (``torch.cat`` of K and V) is all-gathered
#: once (``_AllGatherRotater.exchange_buffers``) and waited for at step 1 (``next_buffer``), so the gather overlaps only
#: step 0's kernel — one ``cp``-th of the layer's forward attention, since the load-balanced steps each cover the same
#: ``2c²`` query-key pairs. A whole-layer recompute re-runs the forward and its gather. Backward
#: (``_templated_ring_attention_backward``): K/V are all-gathered again (the same rotater), waited at step 1 behind step
#: 0's backward kernel; the fp32 dK/dV of every step (``cp`` of them) go to the next rank by all-to-all
#: (``_create_rotater(..., method=ALL_TO_ALL)``, ``permute_tensor``), each waited for after the next step's kernel, and
#: the last one right after the loop, with no kernel left to hide it.
#:
#: CP_TRACED_WAITS_AT_ONCE — under ``torch.compile`` none of this overlaps. torchtitan compiles each TransformerBlock
#: with ``fullgraph=True`` (9dec370 ``parallelize_llama.apply_compile``), so the CP-patched SDPA, its DTensor dispatch
#: (``_sdpa_handler``) and the whole ring are traced into the block's graph. A functional collective traced that way
#: is waited for at once: ``torch/distributed/_functional_collectives.py`` ``_maybe_wrap_tensor``: ``if
#: _are_we_tracing(): return wait_tensor(self)`` (eager wraps it in an ``AsyncCollectiveTensor`` waited at first use),
#: and Inductor moves waits only with ``torch._inductor.config.reorder_for_compute_comm_overlap``, which defaults to
#: False. So every K/V gather and every dK/dV rotation waits before the next kernel: all of it is exposed
#: (``timing._torch_cp_exposure``). A compiled graph of the ring shows the pattern: pytorch/torchtitan PR #3305's
#: generated code, ``all_gather_into_tensor`` followed directly by ``wait_tensor``.


def _torch_cp_bytes(cp, kv_chunk, rec_whole):
    """Bytes one GPU receives per layer and micro-batch in torch's all-gather ring (see above): the K/V gathers of the
    forward (re-run by a whole-layer recompute) and of the backward, ``(cp − 1)`` chunks each, and ``cp`` fp32 dK/dV
    rotations of twice the 16-bit chunk."""
    return (2.0 + rec_whole) * (cp - 1.0) * kv_chunk + cp * 2.0 * kv_chunk


def _te_cp_exposure(lay: dict, cp, attn_layer, p2p_bw, ops, bwd_factor=1.0):
    """Seconds per layer and micro-batch that Transformer Engine's p2p ring (``AttnFuncWithCPAndKVP2P``,
    NVIDIA/TransformerEngine 015d2257 ``context_parallel.py``) leaves exposed, pass by pass: each ring step posts the
    next exchange before its attention kernel and waits for it after, so a step hides at most its own kernel
    (``attn_layer`` split as in :func:`_torch_cp_exposure`; the load-balanced steps each cover ``1/cp`` of a pass).
    Forward (each forward pass, a recompute's included): ``cp − 1`` K/V exchanges. Backward: step 0 sends K/V only,
    steps ``1 … cp − 2`` K/V and dK/dV, step ``cp − 1`` dK/dV only (``send_tensor[0]`` / ``send_tensor[1]``). A
    forward step cannot use the backward's slack."""
    t_kv = lay["cp_kv_chunk"] / p2p_bw
    step_f = attn_layer / ((2.0 * bwd_factor + lay["cp_fwd_passes"]) * cp)
    step_b = 2.0 * bwd_factor * step_f
    fwd = lay["cp_fwd_passes"] * (cp - 1.0) * ops.maximum(t_kv - step_f, 0.0)
    bwd = 2.0 * ops.maximum(t_kv - step_b, 0.0) + (cp - 2.0) * ops.maximum(2.0 * t_kv - step_b, 0.0)
    return fwd + bwd


def _torch_cp_exposure(lay: dict, cp, attn_layer, ag_bw, p2p_bw, ops, bwd_factor=1.0):
    """(all, exposed) seconds of torch's all-gather ring per layer and micro-batch (see above). ``attn_layer`` is the
    layer's attention-kernel time (each forward pass 1×, backward 2×); each ring step's kernel is ``1/cp`` of a pass.
    The K/V gathers run at the all-gather bus bandwidth ``ag_bw``, the dK/dV rotations at the point-to-point
    ``p2p_bw``. Under ``torch.compile`` (``lay["cp_traced"]``) all of it is exposed (CP_TRACED_WAITS_AT_ONCE).
    ``bwd_factor``: the backward pass's time over twice a forward pass's (FLASH2_BWD_TIME_FACTOR under flash2)."""
    maximum = ops.maximum
    kv = lay["cp_kv_chunk"]
    t_ag = (cp - 1.0) * kv / ag_bw
    t_dkv = 2.0 * kv / p2p_bw
    step_f = attn_layer / ((2.0 * bwd_factor + lay["cp_fwd_passes"]) * cp)
    step_b = 2.0 * bwd_factor * step_f
    exposed = (lay["cp_fwd_passes"] * maximum(t_ag - step_f, 0.0) + maximum(t_ag - step_b, 0.0)
               + (cp - 1.0) * maximum(t_dkv - step_b, 0.0) + t_dkv)
    total = (lay["cp_fwd_passes"] + 1.0) * t_ag + cp * t_dkv
    # compiled (CP_TRACED_WAITS_AT_ONCE, above): every gather and rotation is waited for as soon as it is issued
    return total, (total if lay["cp_traced"] else exposed)


#: MoE dispatch traffic, 16-bit elements per token, MoE layer and routed copy (``k`` copies of each token):
#: Megatron-Core's token dispatcher permutes the tokens into expert order before the expert GEMMs and unpermutes
#: them after (``megatron/core/transformer/moe/moe_utils.py``: ``permute`` gathers the ``k`` routed copies with
#: ``index_select``; ``unpermute`` scales them by the router probabilities and ``scatter_add``s them back; the
#: backward runs the inverse gather/scatter): each of the four passes reads and writes every routed copy once,
#: ``8·k·h`` elements. The router (``router.py``, ``TopKRouter``) scores each token against the ``E`` experts and
#: takes the softmax/top-k in fp32 (``moe_router_dtype``): reading the token and writing/reading ``E`` fp32 scores,
#: forward and backward, ``h + 6·E`` elements (a judgement from counting the kernels' operands).
MOE_PERMUTE_ELEMS_PER_COPY = 8.0
MOE_ROUTER_SCORE_ELEMS = 6.0

#: Megatron-Core's grouped experts under FP8 pad each local expert's rows to the FP8 GEMM's alignment (16 rows;
#: 32 under MXFP8) and unpad the output: ``TEGroupedMLP.forward`` (``megatron/core/transformer/moe/experts.py``,
#: core_r0.15) calls Transformer Engine's ``Fp8Padding`` on the dispatched hidden states and ``Fp8Unpadding`` on
#: fc2's output (``transformer_engine/pytorch/module/fp8_padding.py``: ``fused_multi_row_padding`` copies every
#: row into a new buffer; the backward runs the inverse copy). The copy is skipped only when every expert's count
#: is already aligned, which a dropless router does not arrange (``moe_router_padding_for_fp8`` is off by default,
#: ``transformer_config.py``; the Bridge benchmarks' forced balancing draws random logits, ``router.py``
#: ``apply_random_logits``). Each of the four copies (pad and unpad, forward and backward) reads and writes every
#: routed copy's ``h`` 16-bit elements: ``8·k·h`` elements per token and MoE layer.
MOE_FP8_PAD_ELEMS_PER_COPY = 8.0
#: Megatron-Core's grouped experts with linear biases (GPT-OSS: ``add_bias_linear``) add fc2's bias outside the
#: GEMM, expert by expert, scaled by each row's router probability (``TEGroupedMLP._apply_bias``: ``torch.split``
#: of the output, ``t + b * p`` per expert, ``torch.cat``): forward, ``b·p`` written (1), ``t + b·p`` read and
#: written (3), the concatenation read and written (2); backward, the bias and probability gradients each
#: multiply and reduce the output gradient (3 + 3) and the split's gradient is concatenated (2): 14 16-bit
#: elements of width ``h`` per routed copy and MoE layer. A judgement from counting the ops' operands.
MOE_BIAS_ELEMS_PER_COPY = 14.0
#: Megatron-Core's all-to-all dispatcher sorts the tokens it receives a second time when a GPU holds more than one
#: expert: the all-to-all delivers them grouped by source rank, then by expert, and the grouped GEMM wants them
#: grouped by expert (``token_dispatcher.py``, ``MoEAlltoAllTokenDispatcher.dispatch_postprocess``, "Permutation 2:
#: Sort tokens by local expert": ``sort_chunks_by_idxs`` when ``num_local_experts > 1``; ``combine_preprocess``,
#: "Unpermutation 2", restores the order before the combine). Each sort copies every received routed copy (a gather
#: into a new buffer, fused or not: ``moe_utils.sort_chunks_by_idxs``), and the backward runs the inverse copies:
#: four passes, each reading and writing every routed copy's ``h`` 16-bit elements, ``8·k·h`` per token and MoE layer.
MOE_SORT_ELEMS_PER_COPY = 8.0
#: Megatron-Core's all-to-all dispatcher learns the all-to-all's split sizes by all-gathering each rank's token count
#: per expert over the expert-tensor × expert-parallel group (``token_dispatcher.py``,
#: ``MoEAlltoAllTokenDispatcher.preprocess``: ``gather_from_sequence_parallel_region(num_local_tokens_per_expert,
#: group=self.tp_ep_group)`` whenever ``ep_size > 1 or tp_size > 1``, ``tp_size`` being the expert-TP group's
#: size, ``pg_collection.expt_tp``), in every MoE layer's forward (the backward reuses the splits). ``E`` 64-bit counts per rank: the collective is latency-bound, one ring all-gather at NCCL's
#: ring latency (:func:`_ring_latency`, :data:`NCCL_BASE_LAT`), on the compute stream before the host's sync.
#: (The flex dispatcher's counts travel inside DeepEP's/HybridEP's own kernels; the all-gather dispatcher's
#: collectives are counted by :func:`allgather_dispatch_seconds`.) Marker for the docs: no constant of its own.
MOE_COUNTS_ALLGATHER = "all_gather"

#: Megatron-Core's dropless MoE waits for the GPU once per MoE layer: its all-to-all dispatcher copies the routing's
#: token counts to the host (``token_dispatcher.py``, ``MoEAlltoAllTokenDispatcher.preprocess``: without
#: ``moe_pad_expert_input_to_capacity`` the all-to-all's ``input_splits``/``output_splits`` and the grouped GEMM's
#: ``m_splits`` are host lists, so ``cuda_sync_point`` is ``before_ep_alltoall``, or ``before_finish`` without
#: EP). Each sync drains the host's run-ahead, so within each layer the GPU cannot finish before the host has issued
#: the layer's kernels: a layer takes at least its host issue time (the Megatron MoE README's "CPU Overhead
#: Bottleneck": gaps between kernels, cured by CUDA graphs or a larger micro-batch). Kernels the host issues per
#: MoE layer and micro-batch, forward and backward:
#:
#: * per local expert (Transformer Engine ``GroupedLinear``, ``module/grouped_linear.py``, fc1 and fc2): one GEMM
#:   per expert in the forward and two (dgrad, wgrad) in the backward (``general_grouped_gemm`` launches one
#:   cuBLAS GEMM per expert); with FP8 current scaling ``split_quantize`` quantises each expert's input (forward)
#:   and output gradient (backward) on its own, amax, scale and cast (3 kernels each; the weights' FP8 copies are
#:   cached after the first micro-batch): 2 × 3 = 6 kernels per expert in BF16, 2 × (3 + 3·2) = 18 in FP8;
#: * the rest of the layer (attention, norms, residuals, router, dispatcher pre/post-processing and permutes): the
#:   same count as an eager decoder layer (:data:`EAGER_OPS_FWD_LAYER` + :data:`EAGER_OPS_BWD_LAYER`), a
#:   judgement: Transformer Engine fuses the attention block's kernels, the router and dispatcher add as many;
#:
#: each at :data:`methods.EAGER_OP_S`. A judgement from counting, like :data:`EAGER_OPS_FWD_LAYER`. The price of one
#: such GEMM (issue 35 round 12, swiftlora12): Transformer Engine's ``cublas_gemm`` (release_v2.3
#: ``common/gemm/cublaslt_gemm.cu``, called once per expert by ``nvte_multi_stream_cublas_gemm``) creates the matmul
#: and layout descriptors and a preference, and calls ``cublasLtMatmulAlgoGetHeuristic``, on every call, with no
#: memo; RAPIDS RAFT measured that pattern at about 10 µs from the host call to the kernel launch, 5 µs once the
#: heuristic and descriptors were memoised (github.com/NVIDIA/raft PR #1736, "approx 10us -> 5us", NVTX): the
#: :data:`methods.EAGER_OP_S` of 10 µs used here.
MOE_HOST_OPS_PER_EXPERT = {"bf16": 6.0, "fp8": 18.0}


#: Megatron-Core's grouped experts (``TEGroupedMLP``) run Transformer Engine's ``GroupedLinear``, whose default grouped
#: GEMM launches one cuBLAS GEMM per local expert, spread over several CUDA streams (TE v2.9 and v2.13
#: ``common/gemm/cublaslt_gemm.cu``: ``nvte_multi_tensor_gemm`` takes the multi-stream path unless
#: ``NVTE_USE_CUTLASS_GROUPED_GEMM`` is set, default false; the single-launch CUTLASS kernel of TE PR #2045 is opt-in
#: and Hopper BF16 only; multi-stream path from TE PR #853). Each launch costs the GPU a fixed time on top of
#: its FLOPs. TE PR #2045 measured ``general_grouped_gemm`` on an H100 (BF16, TE 2.7, CUDA 12.9) at the same total
#: work split two ways, (experts, rows, N, K) = (8, 4096, 768, 2048): 627.9 TFLOP/s and (16, 2048, 768, 2048): 553.9.
#: With each expert's GEMM taking ``FLOPs / R + t0``, the two points give ``R`` = 724 TFLOP/s (a large GEMM's rate)
#: and ``t0`` = 2.7 µs per launch (TE 2.2's column of the same table: ``R`` = 703, ``t0`` = 7.0 µs; the single-launch
#: CUTLASS column: ``t0`` ≈ 0.4 µs, as a single kernel should). Per expert and micro-batch, fc1 and fc2 each launch
#: one forward GEMM and two backward GEMMs (data and weight gradients; ``GroupedLinear``'s backward), and a full
#: recompute re-runs the forward two.
MOE_GEMM_LAUNCH_S = 2.7e-6
#: (all GEMMs, forward GEMMs) per local expert and MoE layer of a training micro-batch, as counted above
MOE_EXPERT_GEMMS = (6.0, 2.0)


def moe_gemm_launches(m: ModelFacts, framework: str, ep, pp, rec_whole=0.0, lora_experts: bool = False):
    """Per-expert GEMM launches of one micro-batch's MoE layers on one pipeline stage (:data:`MOE_GEMM_LAUNCH_S`):
    ``E / ep`` local experts × (6 + 2 × the recomputed share) per MoE layer, for Megatron-Core (Transformer Engine's
    multi-stream grouped GEMM); 0 for a dense model or another framework (torchtitan's ``torch._grouped_mm`` is one
    launch). ``lora_experts`` (:func:`moe_lora_on_experts`): the adapters' own grouped GEMMs
    (:data:`MOE_LORA_EXPERT_GEMMS`) replace the count."""
    n_exp = float(getattr(m, "n_experts", 0) or 0)
    if framework != "megatron" or n_exp <= 0 or not m.moe_frac:
        return 0.0
    per_all, per_fwd = MOE_LORA_EXPERT_GEMMS if lora_experts else MOE_EXPERT_GEMMS
    return m.moe_frac * m.L / pp * n_exp / ep * (per_all + per_fwd * rec_whole)


#: Megatron-SWIFT's LoRA on a MoE model's routed experts (issue 35 round 9, megft9). ms-swift
#: ``swift/megatron/utils/utils.py`` ``find_all_linears`` (commit ea766ff5b, the LoRA support of 2025-07-10, and
#: later): ``all-linear`` takes every ``TELinear``, ``TELayerNormColumnParallelLinear`` and ``TEGroupedLinear``, so
#: the experts' fc1 and fc2 get adapters. ``swift/megatron/tuners/lora.py`` ``LoraParallelLinear.update_layer``
#: (same commit; unchanged in 94dd3c87c^): for a grouped base layer ``lora_A`` and ``lora_B`` are themselves
#: Transformer Engine grouped linears with ``num_gemms`` = the base's local experts (``TEGroupedLinear`` /
#: ``TERowParallelGroupedLinear`` / ``TEColumnParallelGroupedLinear``), and ``forward`` calls both with the base's
#: ``m_splits``: one GEMM per local expert each, as the base. Per expert and MoE layer, as counted for
#: :data:`MOE_GEMM_LAUNCH_S`: the frozen base fc1 and fc2 run the forward and the data gradient (no weight gradient:
#: 2 + 2), each adapter (A and B of fc1 and fc2) the forward, the data and the weight gradient (4 × 3): 16 in all,
#: 6 of them in the forward (re-run by a full recompute); without LoRA on the experts 6 and 2
#: (:data:`MOE_EXPERT_GEMMS`). (all GEMMs, forward GEMMs) per local expert and MoE layer.
MOE_LORA_EXPERT_GEMMS = (16.0, 6.0)
#: the tools whose LoRA wraps the grouped experts as above (Megatron-Bridge's ``peft/lora.py`` not read: not included)
MOE_LORA_EXPERT_TOOLS = ("megatron-swift",)


#: Megatron-SWIFT's LoRA on a tensor-parallel linear (issue 35 round 9, megft9). ms-swift
#: ``swift/megatron/tuners/lora.py`` ``LoraParallelLinear.update_layer`` (commit ea766ff5b and later): on a
#: column-parallel base (``linear_qkv``, ``linear_fc1``) ``lora_A`` is a local ``TELinear`` and ``lora_B`` a
#: ``TEColumnParallelLinear``, which under sequence parallelism all-gathers its rank-wide input along the sequence in
#: the forward and reduce-scatters its input gradient in the backward (without it: an all-reduce in the backward); on
#: a row-parallel base (``linear_proj``, ``linear_fc2``) ``lora_A`` is a ``TERowParallelLinear`` (reduce-scatter of
#: its output under sequence parallelism, all-gather of the gradient; without it one all-reduce in the forward) and
#: ``lora_B`` a local ``TELinear``. Each adapted linear so adds, per micro-batch, one collective in the forward (re-run
#: by a full recompute) and one in the backward with sequence parallelism; without it one (column: backward; row:
#: forward, re-run by the recompute). They move ``tokens × rank`` 16-bit elements (a few kB): latency-bound, priced at
#: NCCL's ring latency (:func:`_ring_latency`), on the compute stream (no TE userbuffers overlap for the adapters).
#: The tools whose LoRA is built this way; Megatron-Bridge's ``peft`` adapters were not read.
LORA_TP_TOOLS = ("megatron-swift",)
#: adapted (column-parallel, row-parallel) linears per layer by ``lora_targets`` (Megatron's fused ``linear_qkv``)
LORA_TP_LINEARS = {"all_linear": (2.0, 2.0), "attention": (1.0, 1.0), "qkv": (1.0, 0.0), "qv": (1.0, 0.0),
                   "mlp": (1.0, 1.0), "qkv_mlp": (2.0, 1.0)}


def lora_tp_linears(m: ModelFacts, lora_targets: str) -> tuple[float, float]:
    """(column-parallel, row-parallel) adapted linears per layer of ``lora_targets`` (:data:`LORA_TP_LINEARS`): the
    MLP's fc1 and fc2 count in the dense layers only (a MoE layer's are experts: expert TP)."""
    col, row = LORA_TP_LINEARS[lora_targets]
    if lora_targets in LORA_MLP_TARGETS:
        moe = float(m.moe_frac or 0.0)
        col, row = col - moe, row - moe
    return col, row


def lora_tp_collectives(m: ModelFacts, tool: str | None, lora: bool, lora_targets: str, sp, rec_whole, ops=_ScalarOps):
    """(collectives per layer and micro-batch, True where they are all-gathers / reduce-scatters: sequence parallel)
    of the LoRA adapters on TP-sharded linears (:data:`LORA_TP_LINEARS`); (0, False) for other tools and full
    fine-tuning. The MLP's linears of MoE layers are experts (expert TP, not counted here)."""
    if not (lora and tool in LORA_TP_TOOLS) or lora_targets not in LORA_TP_LINEARS:
        return 0.0, False
    col, row = lora_tp_linears(m, lora_targets)
    with_sp = (col + row) * (2.0 + rec_whole)
    without_sp = col + row * (1.0 + rec_whole)
    return ops.where(sp, with_sp, without_sp), sp


#: Megatron-Bridge's (and NeMo's) LoRA adapter on a column-parallel ``TELayerNormColumnParallelLinear``
#: (``linear_qkv``; ``linear_fc1``) under sequence parallelism (issue 35 round 10, mlperf10). Megatron-Bridge
#: ``src/megatron/bridge/peft/utils.py`` ``get_adapter_attributes_from_linear``: the base returns its layer-norm
#: output already gathered (``return_layernorm_output_gathered``, TE ≥ 1.5) and the adapter's sequence-parallel
#: communication is disabled only when the base does not overlap its all-gather (``not ub_overlap_ag``, i.e. no
#: ``tp_comm_overlap``). With TE userbuffers overlap on, the layer-norm output stays sequence-sharded and
#: ``ParallelLinearAdapter.forward`` calls ``gather_from_sequence_parallel_region`` on it: one NCCL all-gather of the
#: full ``tokens × h`` 16-bit activation in the forward (re-run by a full recompute) and its reduce-scatter in the
#: backward, on the compute stream before ``linear_in`` (nothing to overlap with). NeMo 1.0's
#: ``nemo/collections/nlp/parts/mixins/nlp_adapter_mixins`` / ``megatron/adapters/mcore_mixins.py``
#: (``MCoreSelfAttentionMixin.mcore_register_adapters``: "TE v1.5 can return layernorm output gathered so there is no
#: need to perform the redundant gather in the adapter module, unless TP communication overlap is used") and
#: ``parallel_adapters.py`` ``ParallelLinearAdapter.forward`` do the same (the MLPerf llama2_70b_lora NeMo runs:
#: ``MC_TP_OVERLAP_AG=True``). Counted in all-gather units of one ``tokens × h`` activation per layer and micro-batch.
#: The same ``ParallelLinearAdapter.__init__`` / ``forward`` give the other cases, in the same units:
#: * a column-parallel adapter without sequence parallelism: ``linear_in`` is a ``ColumnParallelLinear`` whose input
#:   gradient is all-reduced over TP (``disable_grad_reduce`` is only set under sequence parallelism): one all-reduce
#:   of ``tokens × h`` in the backward, 2 units;
#: * a row-parallel adapter (``linear_proj``, ``linear_fc2``): its input is hidden-sharded over the whole sequence and
#:   ``linear_out`` gathers its output (``gather_output=True``: an all-gather of ``tokens × h``) in the forward; under
#:   sequence parallelism ``scatter_to_sequence_parallel_region`` then splits it, whose backward all-gathers the
#:   gradient: ``2 + rec_whole`` units, ``1 + rec_whole`` without sequence parallelism. With ``a2a_experimental``
#:   (``training.lora_a2a``; the MLPerf NeMo configs' ``LORA_A2A=1``) and sequence parallelism, ``linear_out`` keeps its
#:   hidden shard and ``all2all_hp2sp`` moves it to the sequence shard, forward and backward: an all-to-all moves
#:   ``1/tp`` of an all-gather's bytes.
#: The rank-wide collectives of ``linear_in`` (``tokens × r``) are left out (latency of a few µs each).
BRIDGE_LORA_SP_TOOLS = ("megatron-bridge",)


def bridge_lora_sp_gathers(m: ModelFacts, tool: str | None, lora: bool, lora_targets: str, sp, ov_tp, rec_whole,
                           tp=1, a2a: bool = False, disable_qkv: bool = False, ops=_ScalarOps):
    """Collectives of a whole ``tokens × h`` activation, in all-gather units (an all-reduce is 2), per layer and
    micro-batch that Megatron-Bridge's LoRA adapters run themselves (:data:`BRIDGE_LORA_SP_TOOLS`). Column-parallel
    adapted linears: ``2 + rec_whole`` with sequence parallelism and TE's TP comm overlap on that linear (not on
    ``linear_qkv`` with ``disable_qkv``: the base then returns the gathered input), 0 with sequence parallelism alone,
    2 without it. Row-parallel ones: ``2 + rec_whole`` with sequence parallelism (divided by ``tp`` with ``a2a``),
    ``1 + rec_whole`` without. 0 for other tools and full fine-tuning."""
    if not (lora and tool in BRIDGE_LORA_SP_TOOLS) or lora_targets not in LORA_TP_LINEARS:
        return 0.0
    col, row = lora_tp_linears(m, lora_targets)  # fc1 and fc2 in the dense layers only (experts: expert TP)
    qkv = 0.0 if lora_targets == "mlp" else 1.0  # the adapted column-parallel linears: linear_qkv, then linear_fc1
    col_ov = col - (qkv if disable_qkv else 0.0)  # the column adapters whose base overlaps its all-gather
    col_units = ops.where(sp, ops.where(ov_tp, col_ov * (2.0 + rec_whole), 0.0), 2.0 * col)
    row_units = ops.where(sp, (2.0 + rec_whole) / (tp if a2a else 1.0), 1.0 + rec_whole)
    return col_units + row * row_units


def qkv_overlap_lost(framework: str, sp, ov_tp, disable_qkv: bool, rec_whole, tp, ops=_ScalarOps):
    """All-gather units per layer and micro-batch that ``tp_comm_overlap_disable_qkv`` takes out of TE's userbuffers
    overlap (Megatron-Core ``extensions/transformer_engine.py`` ``TELayerNormColumnParallelLinear.__init__``: for the
    ``qkv`` buffer it sets ``ub_overlap_ag`` and ``ub_overlap_rs_dgrad`` to False): the forward all-gather before
    ``linear_qkv`` (re-run by a full recompute) and the reduce-scatter of its input gradient. The overlapped model
    leaves ``1/tp`` of each exposed (the first chunk), so ``(1 − 1/tp)`` of each is added. Megatron-Core engines with
    sequence parallelism and TP overlap only; 0 otherwise."""
    if framework != "megatron" or not disable_qkv:
        return 0.0
    return ops.where(sp, ops.where(ov_tp, (2.0 + rec_whole) * (1.0 - 1.0 / tp), 0.0), 0.0)


def moe_lora_on_experts(m: ModelFacts, tool: str | None, lora: bool, lora_targets: str) -> bool:
    """Whether a LoRA run puts adapters on the routed experts' grouped linears (:data:`MOE_LORA_EXPERT_GEMMS`):
    a MoE model, a tool of :data:`MOE_LORA_EXPERT_TOOLS`, targets that take the MLP (:data:`LORA_MLP_TARGETS`)."""
    return bool(lora and tool in MOE_LORA_EXPERT_TOOLS and lora_targets in LORA_MLP_TARGETS
                and float(getattr(m, "n_experts", 0) or 0) > 0 and m.moe_frac)


#: Megatron-SWIFT's adapters' own eager ops in each MoE layer (issue 35 round 12, swiftlora12), beyond the per-expert
#: GEMMs of :data:`MOE_LORA_EXPERT_GEMMS`. ms-swift ``swift/megatron/tuners/lora.py`` ``LoraParallelLinear.forward``
#: (commit ea766ff5b, the LoRA support the 2-GPU MoE scripts ran; unchanged through 3f0969760 and 7f9360b33) runs,
#: after the base layer, for every adapted linear: ``x = x.to(dtype)`` (no kernel: the adapters are bf16 after
#: Megatron's ``Float16Module``), ``lora_A(dropout(x))``, ``lora_B(...)``, ``lora_result * scaling``,
#: ``result + lora_result`` and ``result.to(previous_dtype)`` (no kernel) — eager PyTorch between Transformer Engine
#: modules, issued from Python like every Megatron forward op here (:data:`methods.EAGER_FWD_OP_S`; their backward
#: from autograd's engine, :data:`methods.EAGER_OP_S`). ``dropout`` is ``nn.Dropout(lora_dropout)`` (one kernel each
#: way; ``nn.Identity`` at 0; ms-swift's default 0.05, ``megatron_args.py``). So an adapted ``TELinear`` /
#: ``TELayerNormColumnParallelLinear`` (``linear_qkv``, ``linear_proj``) adds PEFT's count, :data:`EAGER_OPS_LORA_FWD`
#: and :data:`EAGER_OPS_LORA_BWD` (+ the dropout each way); an adapted ``TEGroupedLinear`` (the experts' fc1, fc2)
#: the same less the adapter GEMMs already counted per expert (:data:`LORA_ADAPTER_GEMMS`: ``lora_A`` and ``lora_B``
#: forward; their data and weight gradients). No ``AccumulateGrad`` add: Megatron's gradient-accumulation fusion has
#: TE write the adapters' weight gradients into ``main_grad``. The tools: :data:`LORA_TP_TOOLS`.
LORA_ADAPTER_GEMMS = (2.0, 4.0)


def swift_lora_layer_ops(tool: str | None, lora: bool, lora_targets: str, lora_dropout: float,
                         lora_experts: bool) -> tuple[float, float]:
    """(forward, backward) eager ops per MoE layer of Megatron-SWIFT's adapters outside the per-expert GEMMs
    (:data:`LORA_ADAPTER_GEMMS`): ``n_plain`` adapted attention linears (``linear_qkv``, ``linear_proj`` by
    ``lora_targets``, :data:`LORA_TP_LINEARS`) at PEFT's per-module count and ``n_grouped`` adapted expert linears
    (fc1, fc2 where ``lora_experts``) at that count less their GEMMs, each with one dropout op per pass where
    ``lora_dropout`` > 0; (0, 0) for other tools, full fine-tuning or targets outside :data:`LORA_TP_LINEARS`."""
    if not (lora and tool in LORA_TP_TOOLS) or lora_targets not in LORA_TP_LINEARS:
        return 0.0, 0.0
    mlp = 2.0 if lora_targets in LORA_MLP_TARGETS else 0.0  # fc1 and fc2: the experts' grouped linears
    n_plain = sum(LORA_TP_LINEARS[lora_targets]) - mlp
    n_grouped = mlp if lora_experts else 0.0
    drop = 1.0 if lora_dropout > 0.0 else 0.0
    g_fwd, g_bwd = LORA_ADAPTER_GEMMS
    fwd = n_plain * (EAGER_OPS_LORA_FWD + drop) + n_grouped * (EAGER_OPS_LORA_FWD - g_fwd + drop)
    bwd = (n_plain * (EAGER_OPS_LORA_BWD + drop * EAGER_OPS_LORA_DROPOUT_BWD)
           + n_grouped * (EAGER_OPS_LORA_BWD - g_bwd + drop * EAGER_OPS_LORA_DROPOUT_BWD))
    return fwd, bwd


#: Host work per trainable routed-expert weight in each backward of Megatron-Core's grouped experts (issue 35 round 10,
#: swiftmoe10), beyond the GEMM launches of :data:`MOE_HOST_OPS_PER_EXPERT`. Transformer Engine's ``GroupedLinear``
#: holds one Parameter per local expert (``weight0`` … ``weight{E-1}``); each trainable one costs every backward:
#: (1) ``_GroupedLinear.backward``'s ``handle_custom_ddp_from_mcore`` hands autograd a placeholder gradient for it
#: (TE release_v2.3 ``module/grouped_linear.py``, the TE that Megatron-SWIFT's LoRA docs install at ms-swift
#: ea766ff5b: one ``torch.empty`` of the weight's shape per expert; TE d0067d0: ``base.get_dummy_wgrad(...).detach()``,
#: still one tensor op per expert); (2) autograd's ``AccumulateGrad`` node of that Parameter; (3) Megatron-Core DDP's
#: per-parameter hook (``distributed/distributed_data_parallel.py`` ``_make_backward_post_hook``, registered on every
#: parameter's grad accumulator, core_r0.12.0), a Python call that drops ``param.grad``. None of the three launches a
#: kernel, so together they count as one host op at :data:`methods.EAGER_OP_S` (the host time of one launch), not
#: three: TE's maintainers name such per-expert PyTorch calls as ``GroupedLinear``'s CPU overhead
#: (NVIDIA/TransformerEngine#1499: ``torch.split`` and ``torch.empty`` per GEMM) and measured 350 µs of wgrad
#: allocations for 64 experts in one grouped-MLP backward (#2897, GB200): 5.5 µs for the first of the three alone.
MOE_HOST_OPS_PER_TRAINABLE_WEIGHT = 1.0
#: trainable Parameters per local expert and MoE layer: fc1 and fc2 under full training; the four adapters (``lora_A``
#: and ``lora_B`` of fc1 and fc2, the base frozen) under Megatron-SWIFT's LoRA on the experts
#: (:data:`MOE_LORA_EXPERT_GEMMS`); none for LoRA that leaves the experts frozen
MOE_TRAINABLE_EXPERT_WEIGHTS = {"full": 2.0, "lora_experts": 4.0}


def moe_trainable_expert_weights(method: str, lora_experts: bool) -> float:
    """Trainable Parameters per local expert and MoE layer (:data:`MOE_TRAINABLE_EXPERT_WEIGHTS`)."""
    if lora_experts:
        return MOE_TRAINABLE_EXPERT_WEIGHTS["lora_experts"]
    return MOE_TRAINABLE_EXPERT_WEIGHTS["full"] if method in ("full", "pretrain") else 0.0


#: Megatron-Core's distributed optimizer walks its shard's parameters one by one in Python every step (issue 35 round
#: 10, swiftmoe10; core_r0.12.0 ``optimizer/distrib_optimizer.py``): ``_copy_model_grads_to_main_grads`` hands each
#: parameter's gradient slice to its main copy (``view``, slice, ``.float()`` — no kernel where gradients accumulate
#: in fp32, Megatron-LM's bf16 default ``accumulate_allreduce_grads_in_fp32``, ``training/arguments.py``), and
#: ``_copy_main_params_to_model_params`` copies each updated main shard back into the parameter buffer
#: (``shard_model_param.data.copy_(shard_main_param)``: one kernel per parameter, issued from Python with its views).
#: Per parameter tensor of the rank's shard and step: one Python-issued kernel (:data:`methods.EAGER_FWD_OP_S`) and one
#: C++ op (:data:`methods.EAGER_OP_S`). The GPU idles meanwhile (the step's kernels are tiny for adapters). Counted for
#: the routed experts' trainable tensors (:func:`moe_trainable_expert_weights`: one Parameter per local expert in TE's
#: ``GroupedLinear``), the many; the dense layers' few hundred tensors are left out. The precision-aware optimizer
#: (needed by ``optimizer_cpu_offload``) skips the copy-back: 0 with optimizer offload.
DISTOPT_HOST_S_PER_TENSOR = EAGER_FWD_OP_S + EAGER_OP_S


def distopt_expert_tensor_seconds(m: ModelFacts, framework: str, zero, offload, tp, n_dp, ep, exp_tp, pp,
                                  trainable_weights: float, ops=_ScalarOps):
    """Host seconds per step of Megatron's distributed optimizer over one rank's routed-expert parameter tensors
    (:data:`DISTOPT_HOST_S_PER_TENSOR`): ``moe_frac·L / pp`` layers × ``E / ep`` local experts × trainable weights per
    expert, sharded over the expert-data-parallel ranks ``tp·dp / (ep·etp)`` (:func:`expert_dp_layout`); 0 for another
    framework, a dense model, no distributed optimizer (``zero`` 0) or optimizer offload."""
    n_exp = float(getattr(m, "n_experts", 0) or 0)
    if framework != "megatron" or n_exp <= 0 or not m.moe_frac or not trainable_weights:
        return 0.0
    n_edp = ops.maximum(tp * n_dp / ops.maximum(ep * exp_tp, 1.0), 1.0)
    tensors = m.moe_frac * m.L / pp * n_exp / ep * trainable_weights / n_edp
    return ops.where(offload, 0.0, ops.where(zero >= 1, tensors * DISTOPT_HOST_S_PER_TENSOR, 0.0))


#: Transformer Engine's ``GroupedLinear`` under FP8 quantises each local expert's slice of the input (forward) and of
#: the output gradient (backward) for fc1 and fc2 (``tex.split_quantize``). How many GPU kernels each slice costs
#: depends on the recipe (TransformerEngine ``transformer_engine/pytorch/csrc/extensions/cast.cpp``,
#: ``multi_tensor_quantize_impl``: "Currently only have fused kernel for FP8 delayed scaling", one
#: ``nvte_multi_cast_transpose`` for all slices; every other quantizer runs ``quantize`` slice by slice;
#: ``csrc/quantizer.cpp``, ``Float8CurrentScalingQuantizer::quantize_impl``: ``nvte_compute_amax_with_config``,
#: ``nvte_compute_scale_from_amax``, ``nvte_quantize_v2`` = 3 kernels; MXFP8 computes its block scales inside the
#: one cast kernel). Each kernel costs the GPU a fixed time beyond its bytes (launch, ramp and tail,
#: :data:`MOE_GEMM_LAUNCH_S`, the same H100 measurement as ``serving_facts.DECODE_KERNEL_S``); their bytes are in the
#: FP8 cast traffic already (``fp8.cast_elements_per_token``). CUDA graphs remove the host's launches, not this.
#: Kernels per local expert and quantised slice, by recipe (0: one fused kernel for all the experts).
MOE_QUANT_KERNELS_PER_SLICE = {"te_current": 3.0, "te_mxfp8": 1.0, "te_delayed": 0.0}


def moe_quant_kernels(m: ModelFacts, framework: str, precision: str, fp8_recipe: str | None, ep, pp, rec_whole=0.0):
    """Per-expert FP8 quantisation kernels of one micro-batch's MoE layers on one pipeline stage
    (:data:`MOE_QUANT_KERNELS_PER_SLICE`): ``E / ep`` local experts × kernels per slice × (4 slices: fc1 and fc2's
    input in the forward, their output gradients in the backward; + 2 × the recomputed share) per MoE layer, for
    Megatron-Core's grouped experts (Transformer Engine) under FP8; 0 otherwise."""
    n_exp = float(getattr(m, "n_experts", 0) or 0)
    if framework != "megatron" or precision != "fp8" or n_exp <= 0 or not m.moe_frac:
        return 0.0
    per_slice = MOE_QUANT_KERNELS_PER_SLICE.get(fp8mod.recipe_for(framework, fp8_recipe).id, 0.0)
    return m.moe_frac * m.L / pp * n_exp / ep * per_slice * (4.0 + 2.0 * rec_whole)


#: The per-expert kernels of :data:`MOE_HOST_OPS_PER_EXPERT` in the forward: one GEMM per linear (fc1, fc2), and
#: under FP8 current scaling the input's quantisation (3 kernels) per linear: 2 (BF16), 2 × (1 + 3) = 8 (FP8); the
#: backward has the rest (two GEMMs per linear, and the output gradient's quantisation under FP8).
MOE_HOST_FWD_OPS_PER_EXPERT = {"bf16": 2.0, "fp8": 8.0}


#: Megatron-Core's per-layer CUDA graphs (``--cuda-graph-impl transformer_engine``, ``cuda_graph_modules`` /
#: ``cuda_graph_scope``; Megatron's default ``cuda_graph_impl = "none"``: no graphs). Megatron-LM
#: ``megatron/core/transformer/transformer_layer.py`` (commit d98e8a64, ``_get_submodules_under_cudagraphs``,
#: ``_te_cuda_graph_capture``): ``attn`` captures ``input_layernorm`` and ``self_attention`` (the whole
#: ``_forward_attention``, its residual add included); ``moe_router`` captures ``pre_mlp_layernorm`` and
#: ``mlp.router``, ``moe_preprocess`` the dispatcher's ``preprocess`` after it (``transformer_config.py``,
#: ``cuda_graph_modules``: "moe_preprocess ... Must be used together with moe_router"). TE's
#: ``make_graphed_callables`` captures each region's forward and backward, so the host replays one graph where it
#: issued the region's kernels one by one. The captured parts are contiguous in the layer (attention, then the
#: pre-MLP norm and the router), so a layer replays one graph per pass. Kernels per MoE layer's forward in each
#: region, from the same count as :data:`EAGER_OPS_FWD_LAYER` (41: a judgement from counting): the attention block
#: = input norm 8 + q/k/v/o 4 + rotary 10 + attention core and its layout copies 4 + residual add 1 = 27; the
#: router scope = pre-MLP norm 8 + the router's GEMM and top-k 2 + the dispatcher's preprocess (token counts) 1 = 11;
#: the backward two kernels per forward kernel, as :data:`EAGER_OPS_BWD_LAYER`. What stays eager: the dispatch and
#: combine (their permutes and all-to-alls), the per-expert kernels (:data:`MOE_HOST_OPS_PER_EXPERT`) and the
#: residual after the MoE. The dispatcher's host sync stays (dropless: the counts' device-to-host copy runs after the
#: graph, ``cuda_dtoh_point``), so only the host's issue time shrinks (:func:`moe_sync_exposure`).
CUDA_GRAPH_FWD_OPS = {"attn": 27.0, "moe_router": 11.0, "layer": EAGER_OPS_FWD_LAYER}
#: The scenario's ``parallel.cuda_graph_scope`` → the Megatron modules it captures (moe_router always with
#: moe_preprocess, as every Megatron-Bridge recipe that graphs the router sets them).
CUDA_GRAPH_SCOPES = {"attn": ("attn",), "moe_router": ("moe_router",), "attn_moe_router": ("attn", "moe_router"),
                     "layer": ("layer",)}
#: ``layer``: the whole layer in one graph (``cuda_graph_modules`` empty, or the older ``enable_cuda_graph``), the
#: experts included; for an MoE layer only with drop-and-pad (static shapes: Megatron-LM ``transformer_config.py``,
#: "moe cuda graph is only supported with drop-padding MoE"), so the per-expert kernels replay too.


def moe_capacity_scale(capacity_factor: float | None, pad: bool, imbalance=1.0, ops=_ScalarOps):
    """Routed copies the busiest GPU's experts process and its all-to-all carries in each MoE layer, against the mean
    GPU's share, under Megatron-Core's token dropping (``--moe-expert-capacity-factor``,
    ``--moe-pad-expert-input-to-capacity``; default None: dropless). Each expert takes at most
    ``capacity = ceil(tokens · k / E · factor)`` copies (``moe_utils.get_capacity``); with padding every expert's input
    is filled to its capacity (``MoEAlltoAllTokenDispatcher.preprocess``: ``num_out_tokens = capacity · num_experts``,
    every local expert receives ``capacity · tp · ep``): ``factor``. Without padding an expert keeps up to its
    capacity: ``min(factor, imbalance)``. Dropless: ``imbalance``, the busiest expert-parallel rank's load over the
    mean (:func:`moe_balance.moe_rank_imbalance`; 1 = even loads), since the layer's combine waits for that rank."""
    if capacity_factor is None:
        return imbalance
    return float(capacity_factor) if pad else ops.minimum(float(capacity_factor), imbalance)


def moe_dispatch_syncs(capacity_factor: float | None, pad: bool, dispatcher: str | None) -> bool:
    """Whether Megatron-Core's MoE dispatcher waits for the GPU every layer (:func:`moe_sync_exposure`). With
    drop-and-pad the token counts are host constants: the all-to-all dispatcher keeps ``cuda_sync_point = "no_sync"``
    (``token_dispatcher.py``, ``MoEAlltoAllTokenDispatcher.preprocess`` returns the padded counts before any
    device-to-host copy) and the flex dispatcher sizes its buffers from the capacity (``num_permuted_tokens``). A
    capacity factor without padding still syncs (the output size is dynamic: ``before_permutation_1``); the
    all-gather dispatcher always copies its counts to the host (``tokens_per_expert.cpu()``)."""
    return not (pad and capacity_factor is not None and dispatcher in ("alltoall", "flex"))


def cuda_graph_saved_ops(cuda_graph_scope: str | None):
    """(forward, backward) kernel launches per MoE layer that Megatron-Core's per-layer CUDA graphs take off the host
    (:data:`CUDA_GRAPH_FWD_OPS`), net of the graph replay itself (one replay per pass and layer, charged as one op);
    (0, 0) without graphs."""
    mods = CUDA_GRAPH_SCOPES.get(cuda_graph_scope or "", ())
    if not mods:
        return 0.0, 0.0
    fwd = sum(CUDA_GRAPH_FWD_OPS[k] for k in mods)
    return fwd - 1.0, 2.0 * fwd - 1.0


#: Host-issued quantisation ops per local expert and slice, by recipe, for :func:`moe_host_parts`: delayed scaling
#: quantises all the slices in one fused call (TE ``multi_tensor_quantize_impl``, v2.9 to main), so 0 per expert;
#: current scaling 3 (:data:`MOE_QUANT_KERNELS_PER_SLICE`). MXFP8 keeps current scaling's count (moe5's 18 per expert)
#: although TE's code issues one cast per slice: Megatron-Bridge issue #2885 reports the 26.04.01 container's MXFP8
#: experts as "unfused expert GEMMs and cast functions" (fixed by TE PR #2769 in 26.06), host work this count does not
#: itemise, and the published MXFP8 rows entered with one op per slice run far too fast (e.g. B200 Qwen3-30B MBS 1
#: +112% → +167%). Left at the measured-consistent count until a per-TE-version count exists.
MOE_HOST_QUANT_PER_SLICE = {"te_current": 3.0, "te_mxfp8": 3.0, "te_delayed": 0.0}


#: Kernels the host issues per MoE layer and micro-batch for Megatron-Core's token dispatch and combine, outside the
#: router scope that :data:`CUDA_GRAPH_FWD_OPS` counts (which holds the dispatcher's preprocess as one op), by
#: dispatcher: (forward, backward, of which issued only with EP > 1: forward, backward). Counted in Megatron-LM d98e8a64
#: ``megatron/core/transformer/moe/token_dispatcher.py`` and ``moe_utils.py`` with ``moe_permute_fusion`` (every
#: Megatron-Bridge MoE recipe sets it), dropless, EP > 1, several local experts, and Transformer Engine d0067d0
#: ``pytorch/triton/permutation.py`` for the fused permutes' kernels:
#:
#: * ``alltoall`` (``MoEAlltoAllTokenDispatcher``), forward: at ``cuda_dtoh_point`` (``_maybe_dtoh_and_synchronize``)
#:   the side stream's wait, four ``non_blocking`` copies to the host (``tokens_per_expert``, ``input_splits``,
#:   ``output_splits``, ``output_splits_tp``; ``num_out_tokens`` is a Python int when dropless) and the event record
#:   (6); the fused permute (``fused_permute_with_probs``: ``make_row_id_map``'s three passes and the permute, 4);
#:   ``token_dispatch``'s two ``all_to_all`` (tokens and probabilities: each an output allocation and the NCCL call,
#:   4); ``dispatch_postprocess``'s ``sort_chunks_by_idxs`` (``make_chunk_sort_map`` and the sort, 2);
#:   ``combine_preprocess``'s restoring sort (2); ``token_combine``'s ``all_to_all`` (2); the fused unpermute (1):
#:   21. Backward (autograd of the same ops): the unpermute's and the permute's gradients (2), the three all-to-alls'
#:   (6), the two sorts' (2): 10. The all-to-alls (6 forward, 6 backward) only with EP > 1 (one rank: no call).
#: * ``flex`` (``MoEFlexTokenDispatcher`` with the HybridEP manager), forward: ``hybrid_ep_dispatch`` (preprocessing,
#:   dispatch and the fused permute, 3), ``tokens_per_expert`` to int64 and its sum (2), ``hybrid_ep_combine`` (2): 7;
#:   backward: the combine's and the dispatch's gradients (4).
#: * ``allgather``: not counted (its collectives are priced by :func:`allgather_dispatch_seconds`).
#:
#: Each at :data:`methods.EAGER_FWD_OP_S` (forward) and :data:`methods.EAGER_OP_S` (backward), as every host-issued
#: kernel of :func:`moe_host_parts`, whose 41 forward ops are the attention block (27) and the router scope (11) of
#: :data:`CUDA_GRAPH_FWD_OPS` and 3 more (the residual add after the MoE; at most 2 of the dispatch's, counted twice).
#: Whole-layer CUDA graphs replay them (``cuda_graph_scope = "layer"``).
MOE_DISPATCH_HOST_OPS = {"alltoall": (21.0, 10.0, 6.0, 6.0), "flex": (7.0, 4.0, 0.0, 0.0)}


def moe_dispatch_host_ops(m: ModelFacts, framework: str, moe_dispatcher: str | None, ep, pp,
                          cuda_graph_scope: str | None = None):
    """(forward, backward) kernels the host issues for one micro-batch's MoE dispatch and combine on one pipeline
    stage (:data:`MOE_DISPATCH_HOST_OPS`; ``moe_dispatcher`` None: Megatron's, :func:`moe_dispatcher_of`); (0, 0) for a
    dense model, another framework, the all-gather dispatcher, or a whole-layer CUDA graph."""
    n_exp = float(getattr(m, "n_experts", 0) or 0)
    counts = MOE_DISPATCH_HOST_OPS.get(moe_dispatcher_of(framework, moe_dispatcher) or "")
    if framework != "megatron" or n_exp <= 0 or not m.moe_frac or counts is None or cuda_graph_scope == "layer":
        return 0.0, 0.0
    fwd, bwd, fwd_a2a, bwd_a2a = counts
    single = (ep <= 1) * 1.0  # one rank: the all-to-alls are not issued
    n_layers = m.moe_frac * m.L / pp
    return (fwd - single * fwd_a2a) * n_layers, (bwd - single * bwd_a2a) * n_layers


def moe_expert_host_ops(framework: str, precision: str, fp8_recipe: str | None = "te_current",
                        lora_experts: bool = False) -> tuple[float, float]:
    """(forward, all) host-issued kernels per local expert and MoE layer of one micro-batch
    (:data:`MOE_HOST_FWD_OPS_PER_EXPERT`, :data:`MOE_HOST_OPS_PER_EXPERT`; under FP8 by recipe,
    :data:`MOE_HOST_QUANT_PER_SLICE`; with Megatron-SWIFT's adapters on the experts, :data:`MOE_LORA_EXPERT_GEMMS`)."""
    prec = "fp8" if precision == "fp8" else "bf16"
    per_fwd, per_all = MOE_HOST_FWD_OPS_PER_EXPERT[prec], MOE_HOST_OPS_PER_EXPERT[prec]
    if prec == "fp8":  # one slice per linear in the forward (input) and one in the backward (output gradient)
        per_slice = MOE_HOST_QUANT_PER_SLICE.get(fp8mod.recipe_for(framework, fp8_recipe).id, 3.0)
        per_fwd = MOE_HOST_FWD_OPS_PER_EXPERT["bf16"] * (1.0 + per_slice)
        per_all = MOE_HOST_OPS_PER_EXPERT["bf16"] + 4.0 * per_slice
    if lora_experts:  # the adapters' grouped GEMMs, less the frozen base's weight gradients (MOE_LORA_EXPERT_GEMMS)
        per_fwd = per_fwd + MOE_LORA_EXPERT_GEMMS[1] - MOE_EXPERT_GEMMS[1]
        per_all = per_all + MOE_LORA_EXPERT_GEMMS[0] - MOE_EXPERT_GEMMS[0]
    return per_fwd, per_all


def _megatron_experts(m: ModelFacts, framework: str) -> float:
    """The experts per MoE layer whose per-expert host work :func:`moe_host_parts` and :func:`moe_host_exp_bwd`
    count (Megatron-Core's MoE layers); 0.0 for a dense model or another framework."""
    n_exp = float(getattr(m, "n_experts", 0) or 0)
    return n_exp if framework == "megatron" and n_exp > 0 and m.moe_frac else 0.0


def _per_expert_host_s(ops_per_expert, n_exp: float, ep, n_layers):
    """Host seconds of ``ops_per_expert`` kernels for each of the ``n_exp / ep`` local experts of ``n_layers`` MoE
    layers, at :data:`methods.EAGER_OP_S` each (TE's per-expert C++ loops, autograd's engine): the one scaling of
    :func:`moe_host_parts` and :func:`moe_host_exp_bwd`."""
    return ops_per_expert * n_exp / ep * EAGER_OP_S * n_layers


def moe_host_parts(m: ModelFacts, framework: str, precision: str, ep, pp, cuda_graph_scope: str | None = None,
                   fp8_recipe: str | None = "te_current", moe_dispatcher: str | None = None, dispatch: bool = True,
                   lora_experts: bool = False, rec_whole=0.0, trainable_weights=0.0, adapter_ops=(0.0, 0.0)):
    """Host issue time of one micro-batch's MoE layers on one pipeline stage, split as Megatron-Core's per-layer
    dispatcher sync needs it (seconds): (the forward's per-expert kernels, the forward's other kernels, the
    backward's kernels); zeros for a dense model or another framework. The forward's other kernels are launched by
    Python module code (Megatron's layers, the router, the dispatcher), at :data:`methods.EAGER_FWD_OP_S` each as
    for every eager forward in this model (``time_layout``'s ``host_mb``); the per-expert kernels come from
    Transformer Engine's C++ loops (``general_grouped_gemm``, ``split_quantize``) and the backward's from autograd's
    C++ engine, at :data:`methods.EAGER_OP_S`. ``cuda_graph_scope``: the scenario's ``parallel.cuda_graph_scope``
    (:func:`cuda_graph_saved_ops`). ``fp8_recipe``: under FP8, TE's per-expert quantisation kernels follow the
    recipe (:data:`MOE_HOST_QUANT_PER_SLICE`: current scaling and MXFP8 3 per slice = :data:`MOE_HOST_OPS_PER_EXPERT`'s
    18; delayed scaling 0, one fused call for all the experts); None = the framework's default recipe.
    ``moe_dispatcher`` (``parallel.moe_dispatcher``; None: Megatron's default): the token dispatcher's own dispatch and
    combine kernels (:func:`moe_dispatch_host_ops`) join the forward's other kernels and the backward's, at the same
    per-kernel costs; ``dispatch=False`` leaves them out (:func:`moe_host_seconds`). ``rec_whole``: the share of
    layers fully recomputed, whose forward the host issues again in the backward; ``trainable_weights``: trainable
    Parameters per local expert (:func:`moe_trainable_expert_weights`, :data:`MOE_HOST_OPS_PER_TRAINABLE_WEIGHT`);
    ``adapter_ops``: (forward, backward) eager ops per MoE layer of LoRA adapters outside the per-expert GEMMs
    (:func:`swift_lora_layer_ops`), issued with the layer's other ops (a whole-layer CUDA graph replays them too)."""
    n_exp = _megatron_experts(m, framework)
    if not n_exp:
        return 0.0, 0.0, 0.0
    per_fwd, per_all = moe_expert_host_ops(framework, precision, fp8_recipe, lora_experts)
    n_layers = m.moe_frac * m.L / pp
    exp_fwd = _per_expert_host_s(per_fwd, n_exp, ep, n_layers)
    g_fwd, g_bwd = cuda_graph_saved_ops(cuda_graph_scope)  # Megatron's per-layer CUDA graphs (CUDA_GRAPH_FWD_OPS)
    if cuda_graph_scope == "layer":  # the whole layer replays, the experts' kernels too (drop-and-pad only)
        per_fwd = per_all = 0.0
        exp_fwd = 0.0
    a_fwd, a_bwd = (0.0, 0.0) if cuda_graph_scope == "layer" else adapter_ops  # swiftlora12: the adapters' own ops
    rest_fwd = (EAGER_OPS_FWD_LAYER - g_fwd + a_fwd) * EAGER_FWD_OP_S * n_layers
    bwd = (EAGER_OPS_BWD_LAYER - g_bwd + a_bwd + (per_all - per_fwd) * n_exp / ep) * EAGER_OP_S * n_layers
    if dispatch:  # the dispatcher's dispatch/combine kernels (issue 35 round 8, moe11)
        d_fwd, d_bwd = moe_dispatch_host_ops(m, framework, moe_dispatcher, ep, pp, cuda_graph_scope)
        rest_fwd, bwd = rest_fwd + d_fwd * EAGER_FWD_OP_S, bwd + d_bwd * EAGER_OP_S
    # swiftmoe10: each trainable expert weight's backward bookkeeping (MOE_HOST_OPS_PER_TRAINABLE_WEIGHT), and a full
    # recompute's second forward, issued by the host again inside the backward (Megatron's CheckpointFunction.backward)
    bwd = bwd + _per_expert_host_s(trainable_weights * MOE_HOST_OPS_PER_TRAINABLE_WEIGHT, n_exp, ep, n_layers)
    bwd = bwd + rec_whole * (exp_fwd + rest_fwd)
    return exp_fwd, rest_fwd, bwd


def moe_sync_exposure(parts, t_mb, ep_mb, t_exp_mb, fwd_share, moe_frac, ops=_ScalarOps, exp_b=0.0, rec_whole=0.0):
    """Seconds one micro-batch's MoE layers wait for the host, with Megatron-Core's dispatcher syncing the host once
    per MoE layer in the forward (:data:`MOE_HOST_OPS_PER_EXPERT`'s sources: ``cuda_sync_point`` "before_ep_alltoall";
    the flex dispatcher's DeepEP host wait for the received counts and HybridEP's "CPU sync in dispatch" without
    ``moe_expert_rank_capacity_factor``; the all-gather dispatcher's ``tokens_per_expert.cpu()``). ``parts``:
    :func:`moe_host_parts`; ``t_mb``: the micro-batch's GPU work; ``ep_mb``: its expert dispatch
    (:func:`_ep_comm_mb`); ``t_exp_mb``: its expert GEMMs.

    After each sync the GPU's queue is empty, so each layer's forward is a two-stage pipeline (the host issues a
    kernel, the GPU runs it): it lasts the larger of the GPU's work, the host's work, and the host's issue of the
    experts followed by the GPU's work after them (a flow shop's makespan, ``max_j (Σ_{i≤j} host_i + Σ_{i≥j}
    gpu_i)``, taken at the experts' end: the combine all-to-all, the next attention block). The backward has no
    sync (the all-to-all reuses the forward's host-side splits), so there the host can run ahead across layers and
    only its total counts. Exposed = forward's excess + backward's excess; 0 without MoE layers. Where the host
    never binds this equals the old ``max(host − GPU, 0)`` form's 0; where it binds in both passes, their sum.
    Except under full recompute (``rec_whole``, ``exp_b``: :func:`moe_recompute_sync_exposure`), whose re-run
    forward syncs each layer in the backward as well."""
    exp_fwd, rest_fwd, bwd = parts
    g_f = t_mb * fwd_share * moe_frac
    g_b = t_mb * (1.0 - fwd_share) * moe_frac
    gx_f = t_exp_mb * fwd_share
    e_half = 0.5 * ep_mb
    over_f = ops.maximum(ops.maximum(exp_fwd + rest_fwd - g_f - e_half, exp_fwd - gx_f - 0.5 * e_half), 0.0)
    # swiftlora11: a fully recomputed layer re-runs its forward, dispatcher sync included, inside the backward
    # (moe_recompute_sync_exposure): there the experts' backward block is a flow shop of its own
    over_rec = moe_recompute_sync_exposure(exp_b, rec_whole, t_exp_mb * (1.0 - fwd_share), e_half, ops)
    return over_f + ops.maximum(ops.maximum(bwd - g_b - e_half, over_rec), 0.0)


#: Megatron-Core's full recompute runs each checkpointed layer's forward again inside the backward
#: (core_r0.12.0 ``tensor_parallel/random.py`` ``CheckpointFunction.backward``: ``outputs = ctx.run_function(
#: *detached_inputs)`` under ``torch.enable_grad()``, then ``torch.autograd.backward``; ``transformer_block.py``
#: ``_checkpointed_forward`` wraps whole layers with ``recompute_method uniform``). The re-run forward is the MoE
#: layer's forward, so its all-to-all dispatcher computes the token counts again and syncs the host at
#: ``cuda_sync_point`` (``token_dispatcher.py`` ``MoEAlltoAllTokenDispatcher.preprocess`` /
#: ``_maybe_dtoh_and_synchronize``: ``before_ep_alltoall`` with EP > 1, ``before_finish`` without; the unfused
#: permute of ``moe_permute_fusion False``, Megatron-SWIFT's default, syncs at the same place through
#: ``masked_select``, ``moe_utils.permute``). After that sync the GPU's queue is empty and the host issues, in order,
#: the re-run experts and then autograd's backward of the same layer, the experts' data and weight gradients
#: included, before it reaches the next layer's re-run attention. So in every recomputed layer the host's per-expert
#: work of the backward (the re-issued forward's per-expert kernels, the backward's per-expert kernels, the
#: trainable weights' bookkeeping: :func:`moe_host_exp_bwd`) cannot hide under other layers' GPU work, only under
#: the experts' own GPU time in that window, as in the forward (:func:`moe_sync_exposure`'s
#: ``exp_fwd − gx_f − e/4`` term). Marker for the docs: no constant of its own.
MOE_RECOMPUTE_SYNC = "before_ep_alltoall"


def moe_host_exp_bwd(m: ModelFacts, framework: str, precision: str, ep, pp, cuda_graph_scope: str | None = None,
                     fp8_recipe: str | None = "te_current", lora_experts: bool = False, trainable_weights=0.0):
    """Host seconds of one micro-batch's per-expert work inside the backward of its fully recomputed MoE layers
    (:data:`MOE_RECOMPUTE_SYNC`): the re-issued forward's per-expert kernels plus the backward's per-expert kernels
    (together :func:`moe_expert_host_ops`' per-expert total) and each trainable expert weight's bookkeeping
    (:data:`MOE_HOST_OPS_PER_TRAINABLE_WEIGHT`), at :data:`methods.EAGER_OP_S`, for every MoE layer of the stage as
    if recomputed (:func:`moe_recompute_sync_exposure` takes the recomputed share); 0 for a dense model, another
    framework or a whole-layer CUDA graph."""
    n_exp = _megatron_experts(m, framework)
    if not n_exp or cuda_graph_scope == "layer":
        return 0.0
    _per_fwd, per_all = moe_expert_host_ops(framework, precision, fp8_recipe, lora_experts)
    per = per_all + trainable_weights * MOE_HOST_OPS_PER_TRAINABLE_WEIGHT
    return _per_expert_host_s(per, n_exp, ep, m.moe_frac * m.L / pp)


def moe_recompute_sync_exposure(exp_b, rec_whole, gx_b, e_half, ops=_ScalarOps):
    """Seconds the recomputed MoE layers' backward waits for the host (:data:`MOE_RECOMPUTE_SYNC`): the recomputed
    share ``rec_whole`` of the excess of the backward's per-expert host work ``exp_b`` (:func:`moe_host_exp_bwd`)
    over the experts' GPU time in the backward ``gx_b`` (re-run forward and gradients) less the share of the
    dispatch that runs under the host's issue (``e_half / 2``, as in the forward); 0 without full recompute."""
    return rec_whole * ops.maximum(exp_b - gx_b - 0.5 * e_half, 0.0)


def moe_host_seconds(m: ModelFacts, framework: str, precision: str, ep, pp):
    """Host issue time of one micro-batch's MoE layers on one pipeline stage (seconds) where the MoE dispatcher
    syncs the host every layer (Megatron-Core's dropless all-to-all: :data:`MOE_HOST_OPS_PER_EXPERT`); 0 for a
    dense model or another framework. The sum of :func:`moe_host_parts` without the dispatcher's own dispatch and
    combine kernels (``dispatch=False``: its value as before issue 35 round 8; no estimate reads it, tidy9's note)."""
    return sum(moe_host_parts(m, framework, precision, ep, pp, dispatch=False))


def expert_dp_layout(m: ModelFacts, framework: str, lora: bool, grad_params, tp, pp, n_dp, ep, exp_tp, gpn, ops):
    """(routed-expert gradients this GPU syncs over the expert-data-parallel group, the group's size, its members
    per node) for Megatron-Core; ``(0, 1, 1)`` for a dense model, LoRA or another framework (its experts sync with
    the rest, over the data-parallel ranks).

    Megatron-Core keeps the routed experts' parameters in their own DDP buffers and reduces their gradients (and
    all-gathers their weights under the distributed optimizer) over the expert-data-parallel group
    (``distributed_data_parallel.py``: ``expert_parallel_buffers`` on ``intra_expt_dp``). That group has
    ``tp·cp·dp / (ep·etp)`` ranks, spaced ``ep·etp`` apart: the expert grid takes the model grid's order (default
    ``tp-cp-ep-dp-pp``) with ``cp = 1`` and the expert tensor-parallel size as its ``tp``
    (``parallel_state.initialize_model_parallel``, core_r0.15: ``RankGenerator(tp=expert_tensor_parallel_size,
    ep=…, dp=expert_data_parallel_size, cp=1, order=order)``). So ``gpus_per_node / (ep·etp)`` members (at least 1) share a node: with EP filling a
    node, every hop of the expert ring crosses the NICs, one rail per GPU, where the dense gradients' ring has
    eight GPUs per node behind eight NICs."""
    n_exp = float(getattr(m, "n_experts", 0) or 0)
    if framework != "megatron" or lora or n_exp <= 0 or not m.params.expert_params:
        return 0.0, 1.0, 1.0
    exp_gpu = grad_params * (float(m.params.expert_params) / max(float(m.params.total), 1.0)) / (ep * pp * exp_tp)
    stride = ops.maximum(ep * exp_tp, 1.0)
    n_edp = ops.maximum(tp * n_dp / stride, 1.0)
    k_exp = ops.minimum(ops.maximum(ops.f(gpn) / stride, 1.0), n_edp)
    return exp_gpu, n_edp, k_exp


def nvlink_span(gpn, ep_domain, f64=float):
    """The GPUs that reach each other over NVLink: the node, or the whole NVLink domain where the NVSwitch spans
    nodes (``ep_domain``: GB200 NVL72, 72 GPUs, :func:`ep_domain_of`). NVIDIA's GB200 NVL72 joins its 18 compute
    trays through the rack's NVLink switch trays into one 72-GPU NVLink domain (GB200 NVL72 spec: "72 GPUs in one
    NVLink domain", 130 TB/s), and NCCL runs collectives among GPUs of one domain over NVLink across trays
    (multi-node NVLink, MNNVL: NCCL 2.20+ ``NCCL_MNNVL_ENABLE``, on by default where the fabric is present). So
    tensor-, context- and data-parallel groups, pipeline neighbours and the RL refit inside one rack use the NVLink
    bus bandwidth, not the tray's NICs, and a data-parallel ring spanning racks drives one NIC per member of each
    domain (the NCCL rails, as between DGX nodes)."""
    return gpn if ep_domain is None else f64(ep_domain)


def _domain_members(ep, stride, domain, ops=_ScalarOps):
    """Members of an ``ep``-rank expert-parallel group (``ep`` as a float) taking every ``stride``-th rank that share
    one NVLink domain of ``domain`` GPUs: ``ceil(domain / stride)``, at least 1 and at most ``ep`` (the one count of
    :func:`ep_peer_shares`, :func:`flex_peer_shares` and :func:`flex_dest_nodes`)."""
    return ops.minimum(ops.maximum(-ops.ceil(-ops.f(domain) / ops.maximum(ops.f(stride), 1.0)) * 1.0, 1.0), ep)


def ep_peer_shares(ep, stride, domain, ops=_ScalarOps):
    """(share of a GPU's all-to-all buffer bound for peers inside its NVLink domain, share bound for peers outside
    it) for an expert-parallel group of ``ep`` ranks taking every ``stride``-th rank (Megatron-Core's expert grid
    orders ``expert_tp-ep-edp-pp``, ``parallel_state.initialize_model_parallel``: ``stride`` = expert_tp), so
    ``domain / stride`` of its members (at least 1, at most ``ep``) share one NVLink domain. NCCL's all-to-all
    (``all_to_all_single`` with uneven splits: one send/receive pair per peer) sends each peer its own slice, so the
    slices for the ``local − 1`` near peers cross NVLink and the ``ep − local`` others the NICs, concurrently. The
    domain is the node, or the whole NVLink domain where the NVSwitch spans nodes (GB200 NVL72: 72 GPUs,
    ``catalog.nvlink_domain``; NCCL's multi-node NVLink)."""
    ep = ops.f(ep)
    local = _domain_members(ep, stride, domain, ops)
    return (local - 1.0) / ops.maximum(ep, 1.0), (ep - local) / ops.maximum(ep, 1.0)


def pp_stage_shares(framework: str, pp, n_layers: float, account_edges: bool = False, ops=_ScalarOps) -> dict:
    """Megatron-Core's pipeline stages, as multiples of the average stage (``L / pp`` decoder layers and ``1 / pp`` of
    the output layer), for the stage that sets the pace. Sources, Megatron-LM ``megatron/core/transformer/
    transformer_block.py`` ``get_num_layers_to_build`` (core_r0.15 and main): the decoder layers are split evenly over
    the stages (``num_layers % pipeline_model_parallel_size == 0`` is asserted); ``megatron/core/models/gpt/
    gpt_model.py``: the output layer and the loss are built on the last stage only (``post_process``), the embedding
    on the first (``pre_process``). So the last stage runs its ``L / pp`` layers and the whole output layer
    (``pp_head_stage = pp``). With ``--account-for-embedding-in-pipeline-split`` and
    ``--account-for-loss-in-pipeline-split`` (``parallel.pp_account_embedding_loss``) the split is over ``L + 2``
    slots: the middle stages hold ``(L + 2) / pp`` layers (``pp_mid_layers``), the last ``(L + 2) / pp − 1`` beside
    the output layer (``pp_last_layers``; the first stage's embedding lookup is no GEMM). The stage time is the
    larger of the two (:func:`time_gpu`). Other frameworks keep the old even spread (torchtitan's default split,
    ``generate_llm_fqn_per_model_part``, already weighs the embedding and the output as a layer each; DeepSpeed's
    ``PipelineModule`` balances parameters), and a single stage has nothing to balance: all three are 1."""
    f = ops.f
    pp = f(pp)
    mega = (pp > 1.0) & (framework == "megatron")
    acc = mega & bool(account_edges)
    per = float(n_layers) / pp  # the even split's layers per stage
    mid = ops.where(acc, (float(n_layers) + 2.0) / pp / per, 1.0)
    last = ops.where(acc, ((float(n_layers) + 2.0) / pp - 1.0) / per, 1.0)
    return {"pp_head_stage": ops.where(mega, pp, 1.0), "pp_mid_layers": mid, "pp_last_layers": last}


#: Nanotron's parameter tensors per Llama decoder layer (``models/llama.py`` ``LlamaDecoderLayer``: input_layernorm,
#: qkv_proj, o_proj, post_attention_layernorm, gate_up_proj, down_proj) and beyond the layers (token embedding, final
#: norm, LM head: counted on the busiest stage)
NANOTRON_TENSORS_PER_LAYER = 6
NANOTRON_TENSORS_EDGE = 3
#: torch DDP's gradient bucket (nanotron ``ModelArgs.ddp_bucket_cap_mb = 25``, ``config/config.py``), in bytes of the
#: 16-bit gradients DDP buckets
NANOTRON_DDP_BUCKET_BYTES = 25.0 * 2**20


def nanotron_stage_shares(m: ModelFacts, pp, ops=_ScalarOps) -> dict:
    """Nanotron's pipeline stages in :func:`pp_stage_shares`' terms (core/nanotron.py: ``build_model`` balances the
    stages by its blocks' costs, so the stages before the LM head carry more layers and the head's stage fewer): the
    most layers on a stage without the head (``pp_mid_layers``) and beside it (``pp_last_layers``), as multiples of
    the even ``L / pp``, the head whole on its stage (``pp_head_stage = pp``)."""
    mid, last = _nanotron.stage_shares(m, pp)
    return {"pp_head_stage": ops.where(ops.f(pp) > 1.0, ops.f(pp), 1.0), "pp_mid_layers": mid,
            "pp_last_layers": last}


def nanotron_list_copies(tool: str | None, zero, n_dp, grad_gpu, L_stage, ops=_ScalarOps):
    """Host seconds per step of Nanotron's ZeRO-1 collectives, which move lists of per-rank views
    (``(gradient side, parameter side)``; 0 elsewhere and without ZeRO or data parallelism). Counted from
    huggingface/nanotron c252843 (v0.5), each op dispatched by the host (:data:`methods.EAGER_OP_S`):

    * gradients, per DDP bucket (:data:`NANOTRON_DDP_BUCKET_BYTES`), in the comm hook ``get_fp32_accum_hook``
      (``reduce_scatter=True`` under ZeRO-1) → ``distributed.reduce_scatter_coalesced``: one
      ``_flatten_dense_tensors`` (a ``cat``) per data-parallel rank and one for the output; PyTorch's
      ``ProcessGroupNCCL::reduce_scatter`` copies each rank's input into its flat buffer (one ``copy_`` per rank,
      as for DeepSpeed's list collectives, :func:`ds_list_collectives`); ``update_output`` copies each parameter's
      slice back: ``2·d + 1`` per bucket plus the stage's parameter tensors;
    * weights, after the optimizer step (``optim/zero.py`` ``_all_gather_params`` →
      ``distributed.all_gather_coalesced``): a ``cat`` per rank and the input's, ``ProcessGroupNCCL::allgather``'s
      copy out per rank, then ``update_output`` copies every parameter's slice of every rank into place:
      ``2·d + 1 + d × tensors``.

    The gradient side runs in the last micro-batch's backward (the DDP hooks), the parameter side after the step,
    with nothing left for the GPU to do (``time_gpu``)."""
    on = (tool == "nanotron") & (ops.f(zero) >= 1.0) & (ops.f(n_dp) > 1.0)
    d = ops.f(n_dp)
    tensors = ops.ceil(ops.f(L_stage)) * NANOTRON_TENSORS_PER_LAYER + NANOTRON_TENSORS_EDGE
    buckets = ops.ceil(ops.f(grad_gpu) * 2.0 / NANOTRON_DDP_BUCKET_BYTES)
    grad_s = ops.where(on, (buckets * (2.0 * d + 1.0) + tensors) * EAGER_OP_S, 0.0)
    param_s = ops.where(on, (2.0 * d + 1.0 + d * tensors) * EAGER_OP_S, 0.0)
    return grad_s, param_s


def moe_dispatcher_of(framework: str, moe_dispatcher: str | None) -> str | None:
    """The MoE token dispatcher a run uses: the scenario's ``parallel.moe_dispatcher``, else ``"alltoall"`` for
    Megatron-Core (Megatron-Bridge's model providers set ``moe_token_dispatcher_type = "alltoall"``, e.g.
    ``models/qwen/qwen_provider.py``; Megatron-LM's bare ``--moe-token-dispatcher-type`` defaults to ``"allgather"``,
    ``training/arguments.py``); None for other frameworks (their own expert paths)."""
    if framework != "megatron":
        return None
    return moe_dispatcher or "alltoall"


def flex_peer_shares(m: ModelFacts, ep, stride, domain, ops=_ScalarOps):
    """(share of the all-to-all's routed copies that cross NVLink, share that crosses the NICs) for Megatron-Core's
    flex dispatcher (``--moe-token-dispatcher-type flex``, DeepEP or HybridEP kernels): the same shares as
    :func:`ep_peer_shares` inside one NVLink domain, but a token bound for several experts in another domain crosses
    the network once and is forwarded to their GPUs over NVLink (DeepEP README, "internode" normal kernels: RDMA to
    the peer GPU of the target node, then NVLink; the DeepSeek-V3 report §3.2.2 describes the same two hops).

    With ``n_dom = ep / local`` domains in the expert-parallel group, ``E / n_dom`` experts each, and a token's ``k``
    experts drawn without replacement and uniformly (the Bridge benchmarks force balanced routing: ``router.py``
    ``apply_random_logits``; a trained router's node-limited routing would send fewer), a given other domain holds
    at least one of them with probability ``1 − Π_{i<k} (E − E/n_dom − i) / (E − i)``. The network carries
    ``(n_dom − 1)`` times that per token instead of ``k · (ep − local) / ep`` copies; the NVLink side carries the
    direct copies plus the forwarded ones."""
    n_exp, k = float(getattr(m, "n_experts", 0) or 0), int(round(float(m.k_active)))
    a_in, a_off = ep_peer_shares(ep, stride, domain, ops)
    if n_exp <= 0 or k <= 0:
        return a_in, a_off
    ep = ops.f(ep)
    local = _domain_members(ep, stride, domain, ops)
    n_dom = ep / local
    miss = _none_in_group(n_exp, k, n_dom, ops)
    remote = (n_dom - 1.0) * (1.0 - miss) / k  # network copies per routed copy
    off = ops.minimum(remote, a_off)
    return a_in + a_off * (local - 1.0) / local, off


#: HybridEP's measured dispatch and combine rates inside one NVLink domain (DeepEP ``hybrid-ep`` branch,
#: ``docs/README_Hybrid-EP.md``, "GB200 Platform": 4,096 tokens per rank, hidden 7,168, top-8, uniform random routing,
#: 8 experts per rank, BF16, "Torch API" column, 32 SMs: the SM count Megatron-Bridge's performance scripts set,
#: ``scripts/performance/utils/helpers.py`` v0.2.2 / ``utils/overrides.py`` v0.4.2 ``moe_hybridep_num_sms = 32``).
#: (ranks, dispatch GB/s, combine GB/s). The README's "algorithm bandwidth" is the bytes each rank receives over the
#: call's time (``tests/test_hybrid_ep.py``: ``dispatched_hidden.numel() * 2``): one row per distinct (token,
#: destination rank) pair, the rank's own rows included (:func:`flex_dest_ranks`). Measured on NVLink 5
#: (:data:`HYBRIDEP_NVLINK_UNI_GBS` one way per GPU).
HYBRIDEP_NVL_GBS = ((8.0, 545.71, 568.94), (16.0, 523.48, 521.55), (24.0, 507.32, 483.76), (32.0, 484.22, 464.54),
                    (36.0, 479.02, 447.89))
#: NVLink 5's one-way bandwidth per GPU of the GB200 the table was measured on (18 links × 50 GB/s; NVIDIA GB200 NVL72
#: spec: 1.8 TB/s bidirectional per GPU): another GPU's rate is the table's × its own NVLink rate / this
HYBRIDEP_NVLINK_UNI_GBS = 900.0


def flex_dest_ranks(m: ModelFacts, ep, ops=_ScalarOps):
    """Distinct expert-parallel ranks a token is sent to, its own included: ``ep · (1 − Π_{i<k} (E − E/ep − i) /
    (E − i))`` with the ``k`` experts drawn uniformly without replacement (the Bridge runs force balanced routing;
    HybridEP's benchmark routes uniformly at random). HybridEP sends a token once per destination rank, not once
    per expert (``hybrid_dispatch``: one row per rank in the routing map)."""
    n_exp, k = float(getattr(m, "n_experts", 0) or 0), int(round(float(m.k_active)))
    ep = ops.maximum(ops.f(ep), 1.0)
    if n_exp <= 0 or k <= 0:
        return ep * 0.0
    return ep * (1.0 - _none_in_group(n_exp, k, ep, ops))


def _none_in_group(n_exp: float, k: int, groups, ops=_ScalarOps):
    """The chance that a given one of ``groups`` equal groups of the ``n_exp`` experts holds none of a token's ``k``
    experts drawn uniformly without replacement: ``Π_{i<k} (E − E/groups − i) / (E − i)`` (the one product of
    :func:`flex_peer_shares` and :func:`flex_dest_ranks`, a group a rank, and :func:`flex_dest_nodes`, a group a
    domain)."""
    miss = 1.0
    for i in range(k):
        miss = miss * ops.maximum(n_exp - n_exp / groups - i, 0.0) / (n_exp - i)
    return miss


def _table_rates(table, ep):
    """(dispatch, combine) bytes/s per rank from a measured ``(ranks, dispatch GB/s, combine GB/s)`` table,
    interpolated linearly in the rank count and held at the end points (:func:`hybridep_nvl_rates`,
    :func:`hybridep_ib_rates`); floats for a scalar ``ep``, arrays for an array."""
    r = [x[0] for x in table]
    d = np.interp(ep, r, [x[1] for x in table]) * 1e9
    c = np.interp(ep, r, [x[2] for x in table]) * 1e9
    if np.ndim(d) == 0:
        return float(d), float(c)
    return d, c


def hybridep_nvl_rates(ep):
    """(dispatch, combine) bytes/s per rank of HybridEP inside one NVLink 5 domain for an ``ep``-rank group:
    :data:`HYBRIDEP_NVL_GBS` interpolated linearly in the rank count, held at the end points outside 8–36 ranks
    (no larger group was measured; the rates fall slowly from 16 ranks on)."""
    return _table_rates(HYBRIDEP_NVL_GBS, ep)


def hybridep_nvl_seconds(lay: dict, intra_p2p):
    """One MoE layer's dispatch under the flex dispatcher whose expert-parallel group lies in one NVLink domain
    (HybridEP: the backend Megatron-Bridge's recipes pick there, ``moe_flex_dispatcher_backend = "hybridep"``):
    forward dispatch and combine, and their backward (the combine's backward is a dispatch, the dispatch's a
    combine), each moving ``tokens / tp × D`` rows of ``h`` 16-bit elements (:func:`flex_dest_ranks`) at the
    measured rates (:func:`hybridep_nvl_rates`), scaled by the GPU's NVLink rate against NVLink 5's."""
    ops, m = lay["ops"], lay["m"]
    rows = lay["tokens_mb"] / lay["tp"] * flex_dest_ranks(m, lay["ep"], ops)
    d, c = hybridep_nvl_rates(lay["ep"])
    scale = intra_p2p / (NVLINK_P2P_FRACTION * HYBRIDEP_NVLINK_UNI_GBS * 1e9)
    return 2.0 * rows * m.h * 2.0 * (1.0 / d + 1.0 / c) / scale


#: HybridEP's measured dispatch and combine rates across nodes (DeepEP ``hybrid-ep`` branch, ``docs/README_Hybrid-EP.md``,
#: "H100 Platform", "IB Bandwidth in GB/s": DGX-H100 nodes of 8 GPUs, 4,096 tokens per rank, hidden 7,168, top-8,
#: uniform random routing, 8 experts per rank, "Torch API" column, BF16 dispatch, 16 SMs: the largest SM count measured
#: there; Megatron-Bridge's performance scripts set 32, ``moe_hybridep_num_sms``, and the table's rates stop growing
#: from 8 to 16 SMs at 16 ranks). (ranks, dispatch GB/s, combine GB/s). The bytes behind each rate are the test's
#: ``rdma_send_bytes`` (``tests/test_hybrid_ep.py``, ``tests/utils.py`` ``count_rdma_send_from_routing_map``): one
#: row of ``h`` 16-bit elements per distinct (token, destination node) pair, the token's own node included ("to align
#: with the implementation in the DeepEP, we do not set the local node map to zeros"), over the whole call's time
#: (:func:`flex_dest_nodes`). At 16 ranks (2 nodes) a token reaches both nodes, so the NIC carries half those bytes:
#: about 27 GB/s each way, 57% of the 48 GB/s the model gives a 400 Gb/s NDR port (``networks.json``, ib-ndr-400).
#: DeepEP's own internode kernels measure the same order on H800 (README, "Normal kernels": 43 / 58 / 51 GB/s RDMA at
#: EP 16 / 32 / 64, same byte count); the flex field does not tell the two backends apart, so both take these rates.
HYBRIDEP_IB_GBS = ((16.0, 54.47, 53.35), (32.0, 47.36, 52.53), (64.0, 41.24, 46.57))
#: the per-GPU NIC rate (GB/s, the model's achievable figure) of the DGX-H100 the table was measured on: another
#: GPU's rate is the table's × its own NIC rate / this
HYBRIDEP_IB_NIC_GBS = 48.0


def flex_dest_nodes(m: ModelFacts, ep, stride, domain, ops=_ScalarOps):
    """Distinct NVLink domains (nodes) of the expert-parallel group a token is sent to, its own included:
    ``n_dom · (1 − Π_{i<k} (E − E/n_dom − i) / (E − i))`` with ``n_dom = ep / local`` domains (``local`` GPUs of the
    group per domain, as :func:`flex_peer_shares`) and the ``k`` experts drawn uniformly without replacement."""
    n_exp, k = float(getattr(m, "n_experts", 0) or 0), int(round(float(m.k_active)))
    ep = ops.maximum(ops.f(ep), 1.0)
    if n_exp <= 0 or k <= 0:
        return ep * 0.0
    local = _domain_members(ep, stride, domain, ops)
    n_dom = ep / local
    return n_dom * (1.0 - _none_in_group(n_exp, k, n_dom, ops))


def hybridep_ib_rates(ep):
    """(dispatch, combine) bytes/s per rank of HybridEP across nodes for an ``ep``-rank group: :data:`HYBRIDEP_IB_GBS`
    interpolated linearly in the rank count, held at the end points outside 16–64 ranks."""
    return _table_rates(HYBRIDEP_IB_GBS, ep)


def hybridep_ib_layout(m: ModelFacts, ep, stride, domain, ops=_ScalarOps) -> dict:
    """The layout-only parts of :func:`hybridep_ib_seconds`, worked out once per layout in :func:`time_layout` (not
    once per GPU type in :func:`time_gpu`): the nodes a token reaches (:func:`flex_dest_nodes`) and the dispatch and
    combine rates (:func:`hybridep_ib_rates`), each a per-row array or a scalar (never a tuple: :func:`take_layout`
    and :func:`pack_layout` pick the rows of arrays only)."""
    d, c = hybridep_ib_rates(ep)
    return {"ib_nodes": flex_dest_nodes(m, ep, stride, domain, ops), "ib_disp_bps": d, "ib_comb_bps": c}


def hybridep_ib_seconds(lay: dict, nic):
    """One MoE layer's dispatch under the flex dispatcher whose expert-parallel group spans several NVLink domains
    (DeepEP / HybridEP internode kernels): forward dispatch and combine and their backward, each moving ``tokens / tp
    × nodes reached`` rows of ``h`` 16-bit elements (:func:`flex_dest_nodes`) at the measured rates
    (:func:`hybridep_ib_rates`), scaled by the GPU's NIC rate against the measured node's."""
    ops, m = lay["ops"], lay["m"]
    if "ib_nodes" not in lay:  # a layout dict built without time_layout's flex branch
        lay = {**lay, **hybridep_ib_layout(m, lay["ep"], lay["ep_stride"], lay["dom"], ops)}
    rows = lay["tokens_mb"] / lay["tp"] * lay["ib_nodes"]
    d, c = lay["ib_disp_bps"], lay["ib_comb_bps"]
    scale = nic / (HYBRIDEP_IB_NIC_GBS * 1e9)
    return 2.0 * rows * m.h * 2.0 * (1.0 / d + 1.0 / c) / scale


def allgather_dispatch_seconds(lay: dict, intra_bus, nic):
    """One MoE layer's dispatch under Megatron-Core's all-gather dispatcher (``MoEAllGatherTokenDispatcher``): every
    GPU all-gathers the hidden states of its ``ep × expert_tp`` group (``gather_from_sequence_parallel_region`` on
    ``tp_ep_group``) and reduce-scatters the experts' output back (``reduce_scatter_to_sequence_parallel_region``);
    the backward runs the reverse pair. Each of the four ring collectives moves ``(n − 1)`` times the GPU's
    ``tokens / tp`` hidden states of 16-bit width ``h`` at the bus bandwidth: NVLink's inside one NVLink domain,
    else ``local`` NICs per domain (as the expert data-parallel ring, :func:`expert_dp_layout`)."""
    ops, m = lay["ops"], lay["m"]
    n = lay["ep"] * lay["exp_tp"]
    local = ops.minimum(lay["dom"], n)  # the group's ranks are consecutive in Megatron's expert grid
    bw = ops.where(n <= lay["dom"], intra_bus, ops.minimum(intra_bus, local * nic))
    return 4.0 * ops.maximum(n - 1.0, 0.0) * lay["tokens_mb"] / lay["tp"] * m.h * 2.0 / bw


def expert_rows(m: ModelFacts, tokens_mb, ep, exp_tp, tp):
    """Rows each local expert's GEMMs multiply in one micro-batch under balanced routing (issue 35 round 12,
    moetrain12): ``tokens_mb / tp × expert_tp × ep × k / E``. Sequence parallelism splits a micro-batch's tokens over
    the ``tp`` ranks before the router (Megatron-Core's MoE requires it with TP); each rank routes its ``tokens / tp``,
    the all-to-all brings the ``ep`` ranks' copies to the expert's owner, and the expert-TP group all-gathers its
    ``expert_tp`` ranks' tokens (``token_dispatcher.py`` ``MoEAlltoAllTokenDispatcher.token_dispatch``:
    ``gather_from_sequence_parallel_region(..., group=self.tp_group)`` with ``tp_group`` the expert-TP group,
    ``pg_collection.expt_tp``; NVIDIA/Megatron-LM d98e8a64; the MoE README's "MoE Parallel Folding": expert TP
    independent of attention TP). With ``expert_tp = tp`` (Megatron's default) this is ``tokens × ep × k / E``, as
    before; with expert TP 1 under TP 4 (the Model Zoo's Qwen3-235B TP 4 × EP 8 row) a quarter of it: 512 rows, not
    2,048 (``bench/validate_pretrain_oos11.py`` ``rows_per_expert``)."""
    n_exp = float(getattr(m, "n_experts", 0) or 0)
    return tokens_mb * exp_tp / tp * ep * float(m.k_active) / max(n_exp, 1.0)


def _moe_terms(m: ModelFacts, fwd, lin_tok, tokens_mb, ep, exp_tp, tp, pp, cp, copy_elems: float = 0.0):
    """(routed-expert share of the linear FLOPs per token, the expert GEMMs' size factor, dispatch bytes per token)
    for a model with routed experts; (0, 1, 0) for a dense one.

    Expert GEMMs (grouped GEMMs: Megatron ``--moe-grouped-gemm``, TE ``GroupedLinear``): each local expert
    multiplies only the tokens routed to it — :func:`expert_rows` rows per micro-batch — by a
    ``moe_intermediate_size / expert_tp``-wide weight, so the same tile-quantisation factor as the dense GEMMs
    (module docstring: ``D0``, ``T0``) is taken on those dimensions; small experts (768 wide) and few tokens per
    expert run well below the dense layers' rate.
    ``copy_elems``: the framework's further 16-bit passes per routed copy of width ``h`` (:func:`moe_copy_elems`)."""
    n_exp = float(getattr(m, "n_experts", 0) or 0)
    if n_exp <= 0 or not m.moe_frac or not m.params.expert_params:
        return 0.0, 1.0, 0.0
    k = float(m.k_active)
    exp_fwd = 2.0 * float(m.params.expert_params) * k / n_exp  # routed-expert GEMM FLOPs per token, forward
    share = min(exp_fwd / max(fwd.layers, 1.0), 1.0)
    rows = expert_rows(m, tokens_mb, ep, exp_tp, tp)
    size_exp = 1.0 / (1.0 + D0 * exp_tp / max(float(m.f_moe), 1.0)) / (1.0 + T0 / rows)
    n_moe = m.moe_frac * m.L
    elems = (MOE_PERMUTE_ELEMS_PER_COPY + copy_elems) * k * m.h + m.h + MOE_ROUTER_SCORE_ELEMS * n_exp
    # tokens are split over the tensor-parallel ranks before dispatch (Megatron's MoE requires sequence
    # parallelism with TP), over the stage's layers and the context-parallel slice
    moe_tok = 2.0 * elems * n_moe / (tp * pp * cp)
    return lin_tok * share, size_exp, moe_tok


#: Megatron-Core accumulates each weight gradient into an fp32 ``main_grad`` inside the weight-gradient GEMM
#: (``--gradient-accumulation-fusion``, on by default: ``TEGroupedLinear`` passes ``fuse_wgrad_accumulation=
#: config.gradient_accumulation_fusion``, NVIDIA/Megatron-LM d98e8a64 ``core/extensions/transformer_engine.py``; bf16
#: training keeps ``main_grad`` in fp32, ``training/arguments.py``: ``accumulate_allreduce_grads_in_fp32`` unless
#: ``--grad-reduce-in-bf16``). Transformer Engine's ``GroupedLinear`` backward then runs each local expert's wgrad GEMM
#: with ``accumulate=True`` into that buffer (NVIDIA/TransformerEngine d0067d0 ``pytorch/module/grouped_linear.py``:
#: ``accumulate_wgrad_into_param_main_grad``, ``wgrad_output = main_grads``): the epilogue reads and writes 4 bytes
#: per weight element, every micro-batch, whatever the rows. A wgrad GEMM does ``2·rows`` FLOPs per weight element,
#: so below ``rows ≈ 4 × rate / bandwidth`` (~600 rows on an H100 at the experts' rate) it is bound by HBM, not by
#: its FLOPs (roofline: Williams, Waterman & Patterson 2009, CACM 52(4)). Bytes per weight element of the buffer:
MAIN_GRAD_ACCUM_BYTES = 8.0


def moe_wgrad_terms(m: ModelFacts, framework: str, method: str, lora_experts: bool, rows, ep, exp_tp, pp):
    """(FLOPs, HBM bytes) of one micro-batch's routed-expert weight-gradient GEMMs on one pipeline stage of one GPU
    (:data:`MAIN_GRAD_ACCUM_BYTES`): per local expert and MoE layer ``2·rows·W`` FLOPs and ``8·W`` bytes of fp32
    ``main_grad`` plus the two operands' 16-bit rows (fc1: input ``h`` and output gradient ``2f`` gated / ``f``;
    fc2: input ``f`` and output gradient ``h``, ``f`` over expert TP), ``W`` = one expert's weights over expert TP;
    (0, 0) for a dense model, another framework, or frozen experts (LoRA: :func:`moe_trainable_expert_weights`). The
    recompute re-runs forwards only, so the count does not depend on it."""
    n_exp = _megatron_experts(m, framework)
    if not n_exp or not m.params.expert_params:
        return 0.0, 0.0
    if lora_experts or method not in ("full", "pretrain"):
        return 0.0, 0.0
    n_layers = m.moe_frac * m.L / pp
    w_exp = float(m.params.expert_params) / (m.moe_frac * m.L * n_exp) / exp_tp
    f_loc = float(m.f_moe) / exp_tp
    operands = 2.0 * rows * (2.0 * m.h + (3.0 if m.gated else 2.0) * f_loc)
    per = n_exp / ep * n_layers
    return 2.0 * rows * w_exp * per, (MAIN_GRAD_ACCUM_BYTES * w_exp + operands) * per


#: torchtitan's MoE layer (framework ``fsdp``) moves each routed copy through eager index ops, not a fused permute.
#: Read in pytorch/torchtitan ad9f188ab (2025-11-23; the code of the 2025 releases and of the NousResearch fork's
#: PR #19 rows): ``models/llama4/infra/parallelize.py`` ``apply_compile`` compiles the router, the reorderer and
#: ``_run_experts_grouped_mm`` but leaves ``MoE.forward`` and the padding wrapper eager, so none of these fuse.
#: Forward, per routed copy of width ``h`` (16-bit units; an fp32 element is 2), ``models/moe/moe.py`` ``MoE.forward``
#: and ``models/moe/utils.py``: the gather ``x[token_indices // top_k]`` (read + write, 2); ``_permute``'s
#: ``torch.vstack`` with a zero row (2) and the padded gather ``x[permuted_indices]`` (2) (the EP path,
#: ``distributed/expert_parallel.py`` ``_token_dispatch``, calls the same ``_permute`` after the all-to-all);
#: ``_unpermute``'s ``out_unpermuted[permuted_indices] = out`` (2); ``torch.zeros((T·k, h))`` (1) and the scatter
#: ``routed_output_unsorted[token_indices] = routed_output`` (2); ``score_before_experts=False`` (Qwen3 and
#: DeepSeek-V3 in ``models/*/__init__.py``): ``routed_output_unsorted.float()`` (read 1, write 2) read again by the
#: ``torch.bmm`` with the scores (2): 16. Backward (autograd of the same ops): the bmm's fp32 gradient (write 2) and
#: its read of the saved fp32 copies for the scores' gradient (2), the cast back (read 2, write 1): 7; the two
#: ``index_put`` gradients, each a gather (2 + 2); the ``[:-1]`` slice's gradient into a zeroed buffer (write 1, copy
#: 2); the padded gather's gradient, an accumulating ``index_put`` into zeros (write 1, read 1, read-modify-write 2);
#: the first gather's gradient, accumulated into the ``T``-row input gradient (read 1, read-modify-write 2): 21.
#: A judgement from counting the ops' operands, as :data:`MOE_BIAS_ELEMS_PER_COPY`. Llama 4
#: (``score_before_experts=True``) scales before the experts in fp32 instead of the fp32 bmm: not counted apart.
#: torchtitan's 2026 token dispatcher (``models/common/token_dispatcher.py``, after fe80b63cf removed the padding,
#: 2026-04-02) is another count, not modelled. The ``fsdp`` row's LoRA/QLoRA plans run torchtune
#: (frameworks.PEFT_NAMES), whose MoE was ported from this one (pytorch/torchtune bd2a0fc7c, its last tree,
#: ``torchtune/modules/moe/moe.py`` ``MoE.forward``: the gather, the score product, under ``use_grouped_mm`` the same
#: ``torch.vstack`` and padded gather, and a ``scatter_add`` back, all eager, with an int64 index tensor of width ``h``
#: built, padded and gathered beside the copies): the count stands there too, as a floor (issue 35 round 18,
#: review18: not narrowed to torchtitan's plans). (forward, backward)
TITAN_MOE_ELEMS_PER_COPY = (16.0, 21.0)


def moe_copy_elems(m: ModelFacts, framework: str, precision: str, rec_fwd=0.0) -> float:
    """16-bit elements of width ``h`` per routed copy and MoE layer that the framework's MoE moves besides the
    permute that :data:`MOE_PERMUTE_ELEMS_PER_COPY` counts: Megatron-Core's grouped experts
    (:data:`MOE_FP8_PAD_ELEMS_PER_COPY` under FP8, :data:`MOE_BIAS_ELEMS_PER_COPY` with linear biases); torchtitan's
    eager index ops (framework ``fsdp``, :data:`TITAN_MOE_ELEMS_PER_COPY`), whose forward ones run again under
    recompute (``rec_fwd``: the re-run share of the MoE layers' forward, whole-layer or per-op SAC); 0 for a dense
    model or another framework."""
    if not m.moe_frac or not float(getattr(m, "n_experts", 0) or 0):
        return 0.0
    if framework == "fsdp":
        fwd, bwd = TITAN_MOE_ELEMS_PER_COPY
        return fwd + bwd - MOE_PERMUTE_ELEMS_PER_COPY + fwd * rec_fwd
    if framework != "megatron":
        return 0.0
    pad = MOE_FP8_PAD_ELEMS_PER_COPY if precision == "fp8" else 0.0
    return pad + (MOE_BIAS_ELEMS_PER_COPY if getattr(m.arch, "mlp_bias", False) else 0.0)


def moe_sort_elems(m: ModelFacts, framework: str, ep, ops=_ScalarOps, moe_dispatcher: str | None = None):
    """16-bit elements of width ``h`` per routed copy and MoE layer of Megatron-Core's second sort of the dispatched
    tokens (:data:`MOE_SORT_ELEMS_PER_COPY`), where a GPU holds more than one expert (``E / ep > 1``); 0 for a dense
    model, another framework, or another dispatcher than the all-to-all (the all-gather and flex dispatchers permute
    the received tokens by expert once: ``MoEAllGatherTokenDispatcher.dispatch_postprocess``,
    ``MoEFlexTokenDispatcher`` ``get_permuted_hidden_states_by_experts``)."""
    n_exp = float(getattr(m, "n_experts", 0) or 0)
    if framework != "megatron" or not m.moe_frac or n_exp <= 0:
        return 0.0
    if moe_dispatcher_of(framework, moe_dispatcher) != "alltoall":
        return 0.0
    return ops.where(n_exp / ops.f(ep) > 1.0, MOE_SORT_ELEMS_PER_COPY, 0.0)


def ep_recompute_passes(rec_whole):
    """(multiplier of the expert dispatch's four transfers, multiplier of its once-per-forward count exchange) under
    whole-layer recompute, as :func:`tp_layer_collectives` counts the TP collectives: the recomputed forward is the
    layer's forward again, collectives included. Megatron-Core ``transformer/transformer_block.py`` under
    ``recompute_granularity == 'full'`` calls ``megatron/core/recompute.py`` ``checkpointed_forward`` (its own
    ``_checkpointed_forward`` before 118933a859), which wraps the layers in ``tensor_parallel.checkpoint`` or
    ``te_checkpoint`` (``tensor_parallel/random.py`` ``CheckpointFunction.backward`` re-runs ``run_function``), and
    ``MoELayer.forward`` runs the token dispatcher's
    dispatch and combine (``transformer/moe/moe_layer.py``, ``token_dispatcher.py``): the all-to-alls (or DeepEP /
    HybridEP's dispatch and combine, or the all-gather dispatcher's gather and reduce-scatter, and the expert-TP
    gather) run again, 4 + 2·rec_whole transfers per MoE layer and micro-batch instead of 4; the count exchange
    before the all-to-all runs once per forward, 1 + rec_whole times (NVIDIA/Megatron-LM d98e8a64). torch's
    ``checkpoint`` (torchtitan's full AC, HF gradient checkpointing) re-runs the wrapped forward the same way."""
    # (4 + 2·rec_whole)/4 is 1 + rec_whole/2 to the last bit: dividing by 4 and halving are exact in binary floating
    # point, so this is the one count of tp_layer_collectives, not a copy of it
    return tp_layer_collectives(rec_whole, 0.0) / 4.0, 1.0 + rec_whole


def _ep_comm_mb(lay: dict, intra_p2p, nic, intra_bus):
    """The expert dispatch communication of one micro-batch on one GPU (seconds): the all-to-all's dispatch and
    combine, forward and backward, the peers inside the NVLink domain over NVLink and the others over the NICs, at the
    same time (:func:`ep_peer_shares`), plus Megatron's all-gather/reduce-scatter of the dispatched tokens over the
    expert-TP group (time_layout's ``etp_bytes``, ring collectives at the bus bandwidth); 0 without either."""
    ops, m, ep, etp_bytes = lay["ops"], lay["m"], lay["ep"], lay["etp_bytes"]
    # the passes' multiplier under whole-layer recompute (ep_recompute_passes): the four transfers become 4 + 2·rec
    rec, rec_fwd = lay.get("ep_rec", 1.0), lay.get("ep_rec_fwd", 1.0)
    if lay.get("ag_dispatch"):  # the all-gather dispatcher: its ring collectives cover the expert-TP ranks too
        return allgather_dispatch_seconds(lay, intra_bus, nic) * lay["n_moe_stage"] * rec
    # the all-to-all dispatcher's all-gather of the token counts (MOE_COUNTS_ALLGATHER), once per MoE layer's forward
    etp_s = lay.get("ep_counts_s", 0.0) * lay["n_moe_stage"] * rec_fwd
    if not (np.ndim(etp_bytes) == 0 and not etp_bytes > 0):
        etp_s = etp_s + etp_bytes / ops.where(lay["etp_in_node"], intra_bus, nic) * lay["n_moe_stage"] * rec
    if np.ndim(ep) == 0 and not ep > 1:
        return etp_s
    # the tokens are split over the tensor-parallel ranks before dispatch (sequence parallelism, as in _moe_terms)
    a2a_total = 4.0 * lay["tokens_mb"] / lay["tp"] * m.k_active * m.h * 2.0 * lay.get("moe_cap", 1.0)
    ep_layer = ops.maximum(a2a_total * lay["a2a_in"] / intra_p2p, a2a_total * lay["a2a_off"] / nic)
    hyb = lay.get("hybridep_nvl", False)
    if not (np.ndim(hyb) == 0 and not hyb):  # flex inside one NVLink domain: HybridEP's measured rates
        ep_layer = ops.where(hyb, hybridep_nvl_seconds(lay, intra_p2p) * lay.get("moe_cap", 1.0), ep_layer)
    ib = lay.get("hybridep_ib", False)
    if not (np.ndim(ib) == 0 and not ib):  # flex across NVLink domains: HybridEP's measured rates over the NICs
        ib_layer = hybridep_ib_seconds(lay, nic) * lay.get("moe_cap", 1.0)
        ep_layer = ops.where(ib, ops.maximum(a2a_total * lay["a2a_in"] / intra_p2p, ib_layer), ep_layer)
    return ops.where(ep > 1, ep_layer * lay["n_moe_stage"] * rec, 0.0) + etp_s


#: The share of the GPU's SMs that the expert all-to-all's kernels hold while they run beside compute: DeepSeek-V3
#: technical report (arXiv 2412.19437) §3.2.2, "only 20 SMs are sufficient to fully utilize the bandwidths of IB and
#: NVLink" on the H800's 132 SMs, the count DualPipe's overlap gives up; Megatron-LM d98e8a64 ``transformer_config.py``
#: ``moe_deepep_num_sms`` ("historical default 20"). One share for every GPU and dispatcher (issue 35 round 7, helper
#: a2aovl8; :func:`a2a_overlap_ep_seconds`).
EP_OVERLAP_COMM_SM_SHARE = 20.0 / 132.0


#: The GPU generations on which Megatron-Core's EP all-to-all overlap costs the TP communication overlap: Megatron-LM
#: d98e8a64 ``training/arguments.py`` (``get_device_arch_version() < 10``, "For Hopper and before, try not to use
#: tensor model parallelism or context parallelism with overlap_moe_expert_parallel_comm": TP needs
#: CUDA_DEVICE_MAX_CONNECTIONS = 1, the overlap a larger value); Megatron-Bridge v0.4.2
#: ``scripts/performance/perf_plugins.py`` sets 1 on Hopper with TP/CP > 1 only ``and not moe_a2a_overlap``. The user's
#: explicit ``training.tp_comm_overlap`` still wins (:func:`time_kwargs`).
A2A_OVERLAP_NO_TP_OVERLAP_GENERATIONS = frozenset({"volta", "ampere", "ada", "hopper"})


def a2a_overlap_warmup(pp, vpp):
    """Forward chunks that Megatron-Core's EP all-to-all overlap runs alone, before the first combined
    forward-backward step (and as many backward chunks alone after the last): Megatron-LM d98e8a64
    ``pipeline_parallel/schedules.py`` ``get_pp_rank_microbatches``: ``(pp − rank − 1) × 2 + (vpp − 1) ×
    microbatch_group_size_per_vp_stage (= pp)`` and "one extra micro-batch forward step before the 1f1b stages" with
    ``overlap_moe_expert_parallel_comm``; the first stage (rank 0), which has the most. Without a pipeline
    (``combined_1f1b.py`` ``combined_1f1b_schedule_for_no_pipelining``): the first forward alone, so 1."""
    return (pp - 1.0) * 2.0 + (vpp - 1.0) * pp + 1.0


#: Layer pairs chained before the steady period of :func:`a2a_overlap_pair_span` is read off: the two streams' timeline
#: is a max-plus recurrence of one pair to the next, which settles after the first pair or two (each pair starts from
#: the previous one's ``combine_fwd`` and attention ``dgrad``); the period is the mean of the pairs after these.
A2A_OVERLAP_SETTLE_PAIRS = 3


def _a2a_pair_step(st, c, a_f, a_bd, a_bw, m_f, m_bd, m_bw):
    """One layer pair of Megatron-Core's combined 1F1B (Megatron-LM d98e8a64
    ``models/common/model_chunk_schedule_plan.py`` ``TransformerLayerSchedulePlan.run``), each node on its stream in
    the order the host issues it, and each waiting for the last node of its own micro-batch: ``ScheduleNode.
    stream_acquire_context`` (``pipeline_parallel/utils.py``) does ``event.wait(stream)`` before and
    ``event.record(stream)`` after every node, one event per micro-batch's model chunk; the delayed weight gradients
    (``TransformerLayerNode.backward_dw``, ``models/common/utils.py``) run on the compute stream and record no event.
    ``st`` = (comm stream free, compute stream free, forward micro-batch's last node done, backward's)."""
    comm, comp, f_ok, b_ok = st
    mx = np.maximum
    e_cb = mx(comm, b_ok) + c          # combine_bwd (comm), after the previous pair's attention dgrad
    e_pf = mx(comp, f_ok) + a_f        # pre_dispatch_fwd: attention, norm, router (comp)
    e_mbd = mx(e_pf, e_cb) + m_bd      # mlp_bwd: the experts' dgrad, after combine_bwd (comp)
    e_df = mx(e_cb, e_pf) + c          # dispatch_fwd (comm), after pre_dispatch_fwd
    e_mbw = e_mbd + m_bw               # mlp_bwd_dw: the experts' delayed wgrad (comp, no event)
    e_db = mx(e_df, e_mbd) + c         # dispatch_bwd (comm), after the dgrad
    e_mf = mx(e_mbw, e_df) + m_f       # mlp_fwd (comp), after dispatch_fwd
    e_cf = mx(e_db, e_mf) + c          # combine_fwd (comm), after mlp_fwd
    e_pbd = mx(e_mf, e_db) + a_bd      # pre_dispatch_bwd: the attention's dgrad (comp), after dispatch_bwd
    e_pbw = e_pbd + a_bw               # its delayed wgrad (comp, no event): beside the next pair's combine_bwd
    return e_cf, e_pbw, e_cf, e_pbd


def a2a_overlap_pair_span(layers, c, a_f, a_bd, a_bw, m_f, m_bd, m_bw):
    """The time one combined forward-backward step of a model chunk takes over ``layers`` layer pairs, from both
    streams free to both done (``TransformerModelChunkSchedulePlan.run`` joins them with ``wait_current_stream``):
    the first pair from a standing start, then the steady period per further pair (:func:`_a2a_pair_step`)."""
    z = 0.0 * (c + a_f + m_f)
    st = (z, z, z, z)
    spans = []
    for _ in range(A2A_OVERLAP_SETTLE_PAIRS + 2):
        st = _a2a_pair_step(st, c, a_f, a_bd, a_bw, m_f, m_bd, m_bw)
        spans.append(np.maximum(st[0], st[1]))
    period = (spans[-1] - spans[1]) / float(len(spans) - 2)
    return spans[0] + np.maximum(layers - 1.0, 0.0) * period


def a2a_overlap_ep_seconds(lay: dict, ep_mb, t_gpu_mb, t_exp_mb, m_acc):
    """The expert all-to-all left exposed per step under Megatron-Core's EP overlap (``--overlap-moe-expert-
    parallel-comm --delay-wgrad-compute``; Megatron-Bridge ``comm_overlap.moe_a2a_overlap``). Megatron-LM d98e8a64
    ``pipeline_parallel/combined_1f1b.py`` runs one micro-batch's forward beside another's backward ("EP A2A in
    forward step is hidden by the attention/mlp computation in the backward step, and vice versa"), layer by layer
    (``TransformerModelChunkSchedulePlan.run``: forward layer i with backward layer n − 1 − i; the layers one chunk
    has more than the other run alone), the communication on its own stream::

        comm: combine_bwd      | dispatch_fwd → dispatch_bwd      | combine_fwd
        comp: pre_dispatch_fwd | mlp_bwd → mlp_bwd_dw → mlp_fwd   | pre_dispatch_bwd (→ its dw)

    with the dependencies :func:`_a2a_pair_step` follows from the code. Each of the four all-to-alls is a quarter
    ``c`` of ``ep_mb`` (one micro-batch's dispatch and combine, forward and backward) per MoE layer;
    ``pre_dispatch`` is the attention block and router (the micro-batch's GPU work ``t_gpu_mb`` less its expert
    GEMMs ``t_exp_mb``): forward a third, its dgrad and delayed wgrad a third each; the experts' forward, dgrad and
    delayed wgrad a third of ``t_exp_mb`` each. A chunk of ``L`` MoE layers (``n_moe_stage / vpp``) is one
    :func:`a2a_overlap_pair_span`; what it takes beyond the compute of its ``L`` pairs is exposed. The forward chunks
    run before the first combined step and the backward chunks after the last (:func:`a2a_overlap_warmup`, per
    ``vpp`` chunks one micro-batch) keep their whole all-to-all: with one micro-batch, or fewer chunks than the
    warm-up, nothing is hidden (``a2a_overlap_pairs`` says so in the plan). The cost of running together: while an
    all-to-all runs beside compute the compute loses the communication kernels' SMs (:data:`EP_OVERLAP_COMM_SM_SHARE`
    of the time the two run together). Issue 35 round 7 (a2aovl8) built the pair; round 12 (mgfields12) the
    refusals and the hidden part's line; round 13 (moe13) the pair as the code's stream and event order."""
    n = np.maximum(lay.get("n_moe_stage", 1.0), 1e-9)
    c = ep_mb / 4.0 / n
    attn = np.maximum(t_gpu_mb - t_exp_mb, 0.0) / n
    m3 = t_exp_mb / 3.0 / n
    layers = np.maximum(n / lay["vpp"], 1.0)
    span = a2a_overlap_pair_span(layers, c, attn / 3.0, attn / 3.0, attn / 3.0, m3, m3, m3)
    pair = np.clip(span / layers - (attn + 3.0 * m3), 0.0, 4.0 * c)
    pair = (pair + EP_OVERLAP_COMM_SM_SHARE * (4.0 * c - pair)) * n
    alone = a2a_overlap_alone(lay["a2a_ovl_warm"], lay["vpp"], m_acc)
    return ep_mb * alone + pair * (m_acc - alone)


def a2a_overlap_alone(warm, vpp, m_acc):
    """The micro-batches of a step whose all-to-alls Megatron-Core's EP overlap runs alone (the ``warm`` chunks of
    :func:`a2a_overlap_warmup`, ``vpp`` chunks a micro-batch), at most the step's ``m_acc``: the one rule that
    :func:`a2a_overlap_ep_seconds` prices and :func:`a2a_overlap_pairs` reports."""
    return np.minimum(warm / vpp, m_acc)


def a2a_overlap_pairs(pp, vpp, m_acc) -> float:
    """The micro-batches whose forward Megatron-Core's combined 1F1B runs beside another's backward, on the first
    pipeline stage (:func:`a2a_overlap_warmup`; ``combined_1f1b_schedule_for_no_pipelining``: the first forward
    and the last backward alone): the step's less :func:`a2a_overlap_alone`. 0: the overlap hides nothing."""
    m = float(m_acc)
    return float(m - a2a_overlap_alone(a2a_overlap_warmup(float(pp), float(vpp)), float(vpp), m))


def layout_rows(lay: dict) -> int | None:
    """How many rows :func:`time_layout`'s dict ``lay`` holds (None: the scalar path's plain values)."""
    tp = lay["tp"]
    return len(tp) if isinstance(tp, np.ndarray) and tp.ndim else None


def pack_layout(lay: dict) -> dict:
    """:func:`time_layout`'s values of many rows, ready for :func:`take_layout`: a per-row array whose rows all
    hold the same value becomes that value (a numpy scalar of the same dtype: every element-wise operation on it
    gives, element for element, what it gives on the array), so that the rows picked later and the second
    stage's operations on it cost nothing per row. No value is changed."""
    n = layout_rows(lay)
    if n is None or n == 0:
        return lay
    out = dict(lay)
    for k, v in lay.items():
        if (k == "tp" or not isinstance(v, np.ndarray) or v.ndim != 1 or v.shape[0] != n
                or v.dtype.kind not in "biuf"):
            continue
        first = v[0]
        if v.dtype.kind == "f" and np.isnan(first):
            continue
        # a strided sample first: most arrays vary, and this tells in a few dozen comparisons
        if bool((v[:: max(1, n // 64)] == first).all()) and bool((v == first).all()):
            out[k] = first
    return out


def take_layout(lay: dict, idx) -> dict:
    """The first stage's values of the rows ``idx`` (per-row arrays of ``n`` rows picked, the rest kept), from
    :func:`time_layout`'s dict or :func:`pack_layout`'s."""
    n = layout_rows(lay)
    if n is None:
        return lay
    return {k: (v[idx] if isinstance(v, np.ndarray) and v.ndim and v.shape[0] == n else v) for k, v in lay.items()}


def qlora_dequant_seconds(lay: dict, mem_bw, sm_ghz):
    """Seconds of QLoRA's dequantisation per step: the bf16 weights' read-back by the matmuls at HBM speed plus the
    dequantisation kernel, the larger of its own traffic and (bitsandbytes' tools, :data:`BNB_QLORA_TOOLS`) its
    integer work, :data:`BNB_NF4_DEQUANT_SM_CYCLES_PER_ELEM` SM cycles per element at the GPU's SM count x clock
    (``sm_ghz``; unknown: traffic only). Hand check: Llama-2-7B (6.48e9 base linear weights) on an A100 (108 SMs x
    1.41 GHz = 152.3e9 SM cycles/s), one pass: 6.48e9 × 0.676 / 152.3e9 = 28.7 ms of kernel, against
    6.48e9 × 2.52 B / (0.8 × 2.04 TB/s) = 10.0 ms of its traffic."""
    ops = lay["ops"]
    n = lay["deq_elems"]
    read_back = n * 2.0 / mem_bw
    kernel_mem = lay["deq_bytes"] / mem_bw - read_back
    if not lay["deq_bnb"]:
        return kernel_mem + read_back
    rate = ops.f(sm_ghz) * 1e9
    alu = ops.where(rate > 0.0, n * BNB_NF4_DEQUANT_SM_CYCLES_PER_ELEM / ops.maximum(rate, 1.0), 0.0)
    return ops.maximum(kernel_mem, alu) + read_back


#: Compute kernels that run while a data-parallel collective is in flight run slower than alone: the NCCL kernels
#: hold SMs and their copies take HBM bandwidth (NVIDIA/nccl#1428, the maintainer: "they're competing for memory
#: bandwidth"; pytorch/pytorch PR #179937: "NCCL collectives use SMs, which makes matmuls that are overlapped by them
#: 30-40% slower"). Measured: Lee et al. 2025, "Characterizing Compute-Communication Overlap in GPU-Accelerated
#: Distributed Deep Learning" (arXiv:2507.03114, abstract): "an average computational slowdown of 18.9%, with a
#: maximum of 40.0%" on H100, A100, MI250 and MI210, GPT and LLaMA training, against the same compute with no
#: communication beside it. Cross-check: PR #179937 replaced torchtitan's FSDP all-gathers and reduce-scatters by
#: copy-engine collectives (no SMs) on Llama 3 8B, 8 × H100 NVLink, 2 × 4,096 tokens: +2.4% tokens/s; this constant
#: on the model's hidden FSDP traffic for that run (0.143 s of a 1.04 s step) gives 2.6%.
OVERLAP_COMPUTE_SLOWDOWN = 0.189


def pipeline_fill_p2p_seconds(lay: dict, pp, vpp, ov_p2p, p2p_bw):
    """Seconds per step of the interleaved pipeline's fill and drain transfers, which no compute hides.

    With ``overlap_p2p_comm`` the boundary sends of the steady 1F1B phase run under the other micro-batches' compute
    (``p2p`` above), but the first micro-batch's forward must cross all ``vpp·pp`` model chunks in turn, each chunk
    boundary a send/receive the next rank waits for before it can start (NVIDIA/Megatron-LM
    ``megatron/core/pipeline_parallel/schedules.py`` @d98e8a64dd, ``forward_backward_pipelining_with_interleaving``:
    the warm-up's ``send_forward_recv_forward`` is blocking unless ``overlap_p2p_comm_warmup_flush``, and the steady
    phase's ``pp_pre_forward`` / backward wait on ``recv_prev_wait_handles`` / ``recv_next_wait_handles`` before the
    chunk computes); the last micro-batch's backward crosses them back. A list-schedule simulation of that
    schedule's op order (warm-up ``2(p−r−1) + (v−1)p`` forwards, 1F1B, cool-down) with a transfer time ``h`` on every
    cross-rank dependency lengthens the step by exactly ``2(v·p − 1)·h`` for every micro-batch count (p 8, v 12 and
    v 8; m 8 … 288): the bubble ``(p−1)/v`` is unchanged and this adds to it. ``h`` is one boundary activation
    (``p2p_num`` / 2v: [s/tp, b, h] 16-bit with the scatter-gather optimisation) at the link the stages cross, plus
    one NCCL step's latency. Zero without the interleaved schedule's overlap (its sends are all priced in ``p2p``);
    ``time_gpu`` caps the exposed sends at the non-overlapped ones (every rank's ``2·v·m`` sends), which a valid
    interleaved layout (m a multiple of p) never reaches."""
    ops = lay["ops"]
    on = (pp > 1) & ov_p2p
    if not np.any(on):  # (the plan search's chunks without an interleaved pipeline: nothing to allocate)
        return 0.0
    hops = ops.where(on, 2.0 * (vpp * pp - 1.0), 0.0)
    lat = NCCL_BASE_LAT + ops.where(lay["crosses_nodes"], NCCL_NET_STEP_LAT, NCCL_INTRA_STEP_LAT)
    return hops * (lay["p2p_num"] / (2.0 * ops.maximum(vpp, 1.0) * p2p_bw) + lat)


def tied_embedding_grad_bytes(m: ModelFacts, framework: str, mfsdp, g_bytes, tp, pp, ops=_ScalarOps):
    """Bytes of Megatron's once-a-step word-embedding gradient all-reduce between the first and the last pipeline
    stage. With tied input and output embeddings and PP > 1 both stages hold the word embedding; after the
    data-parallel gradient sync ``finalize_model_grads`` all-reduces its gradient over the two (NVIDIA/Megatron-LM
    ``megatron/core/distributed/finalize_model_grads.py`` @c3d057f5 ``_allreduce_word_embedding_grads``:
    ``torch.distributed.all_reduce(weight.main_grad, group=parallel_state.get_embedding_group())``, blocking, on the
    compute stream, before the optimizer step; Megatron-LM 2021 ``training.py`` ``train_step`` "All-reduce
    word_embeddings' grad across first and last stages" the same): ``vocab × h / tp`` elements in the gradient
    buffer's dtype (``g_bytes``). Megatron engine only (not Megatron-FSDP, whose gradients live in its own sharded
    buffers: core/megatron_fsdp.py); 0 for untied models and PP 1."""
    if framework != "megatron" or not bool(getattr(m, "tied", False)):
        return 0.0
    emb = float(m.arch.vocab_size) * float(m.arch.hidden_size)
    on = (mfsdp == False) & (pp > 1)  # noqa: E712 (arrays)
    return ops.where(on, emb / ops.maximum(tp, 1.0) * g_bytes, 0.0)


def tied_embedding_sync_seconds(lay: dict, p2p_bw):
    """Seconds of Megatron's word-embedding gradient all-reduce between the first and the last pipeline stage
    (:func:`tied_embedding_grad_bytes`): two ranks, so a ring all-reduce moves the gradient once each way,
    ``2·(n−1)/n = 1`` times its bytes over the link the stages cross (``p2p_bw``, the pipeline's own), plus NCCL's
    ring latency for its two steps (``_ring_latency``'s constants: base + 2 steps on that link). Exposed: the last
    stage waits for the first, which leaves the schedule last, and the optimizer step waits for both."""
    ops = lay["ops"]
    b = lay.get("tied_emb_bytes", 0.0)
    if np.ndim(b) == 0 and not b:
        return 0.0
    lat = NCCL_BASE_LAT + 2.0 * ops.where(lay["crosses_nodes"], NCCL_NET_STEP_LAT, NCCL_INTRA_STEP_LAT)
    return ops.where(b > 0.0, b / p2p_bw + lat, 0.0)


def overlap_contention_seconds(hidden_s, ops=_ScalarOps):
    """Seconds per step that the compute under ``hidden_s`` seconds of hidden data-parallel collectives loses to
    them (:data:`OVERLAP_COMPUTE_SLOWDOWN`): the compute in flight beside a collective is as long as the
    collective where it hides (its window is at least as long)."""
    return OVERLAP_COMPUTE_SLOWDOWN * ops.maximum(hidden_s, 0.0)


def contention_rate_share(dp_bw, intra_bus, ops=_ScalarOps):
    """The share of :data:`OVERLAP_COMPUTE_SLOWDOWN` that a hidden data-parallel second carries when the collective
    runs at ``dp_bw`` bytes/s: ``min(dp_bw / intra_bus, 1)``.

    The 18.9% was measured with the collectives inside one server: Lee et al. 2025 (arXiv:2507.03114, §1) ran "4
    A100s, H100s, MI250, and MI210", so their collectives moved data at the server's own link rate, the rate
    ``intra_bus`` prices; the cross-check (pytorch/pytorch PR #179937) is 8 × H100 over NVLink too. What slows the
    compute is the collective's traffic through the same HBM and SMs (NVIDIA/nccl#1428, the maintainer: "they're
    competing for memory bandwidth"): per second it is the bytes the collective moves per second. A collective held
    to the network's rate (``dp_bw`` below ``intra_bus``: a data-parallel group across servers, ``k_node`` peers a
    server sharing their NICs) moves ``dp_bw / intra_bus`` of those bytes each second, so each of its hidden seconds
    costs the compute that share of the measured slowdown: the contention is priced per byte moved, at the rate it
    was measured. Inside a server (``dp_bw == intra_bus``) nothing changes. Issue 35 round 15 (ptoos15)."""
    return ops.minimum(dp_bw / ops.maximum(intra_bus, 1.0), 1.0)


def lora_gemm_roofline(lay: dict, rate16, mem_bw, rate32):
    """The correction to the compute line for the LoRA adapters' rank-wide GEMMs, per token (seconds, ≤ 0 on the
    16-bit path). Their FLOPs (``lora_flops_tok``) are in the linears' time at ``rate16`` (the matmul efficiency × the
    16-bit peak × the model-parallel width) and their operands (``lora_gemm_tok``, 16-bit bytes) in the memory line:
    a kernel takes the longer of the two (roofline, :data:`flops.LORA_GEMM_FWD`), so the shorter is taken back.

    PEFT's fp32 adapters without autocast (``lora_fp32_gemm``: ``training.mixed_precision_off``;
    :data:`flops.LORA_NO_AUTOCAST_OUT_FWD`) run ``lora_A``/``lora_B`` as fp32 ``F.linear``: PyTorch has kept TF32 off
    for matmuls by default since 1.12 (``torch.backends.cuda.matmul.allow_tf32 = False``; PyTorch docs, notes/cuda,
    "TensorFloat-32 (TF32) on Ampere (and later) devices",
    https://pytorch.org/docs/stable/notes/cuda.html#tensorfloat-32-tf32-on-ampere-and-later-devices; the HF Trainer's ``tf32`` defaults to None, "let PyTorch decide", transformers PR #14606), so cuBLAS runs them as
    SGEMM on the CUDA cores at the card's FP32 rate ``rate32`` (the catalog's dense FP32 TFLOPS × the layer's shape
    factor ``size`` × the model-parallel width; nothing for the tensor-core efficiency: the same docs time a
    10,240² fp32 matmul at 0.11 s on GA100, 2 · 10,240³ / 0.11 = 19.5 TFLOPS, the A100's datasheet FP32 peak). Their
    operands are fp32 there (``LORA_NO_AUTOCAST_*`` counts them in the memory line at 4 bytes: 2 × ``lora_gemm_tok``),
    so the kernel takes max(bytes / HBM, FLOPs / ``rate32``): the 16-bit FLOP time is taken back in full and only
    the FP32 FLOP time's excess over the bytes is added. Hand check (PowerLM-3B q/k/v/o, r 16, A100): 2·r = 32 FLOPs
    per fp32 element moved, 8 FLOPs a byte, under the A100's 19.5e12 / (2.039e12 × 0.8) = 12: memory-bound as fp32
    too at r 16 on a large batch; compute-bound from r ≈ 24, or at small shape factors. An unknown FP32 rate
    (``rate32`` 0) keeps the 16-bit pricing."""
    ops = lay["ops"]
    t_bytes = lay.get("lora_gemm_tok", 0.0) / mem_bw
    t16 = lay.get("lora_flops_tok", 0.0) / rate16
    fp32 = lay.get("lora_fp32_gemm", False) & (ops.f(rate32) > 0.0)
    t32 = lay.get("lora_flops_tok", 0.0) / ops.maximum(ops.f(rate32), 1.0)
    return ops.where(fp32, ops.maximum(t32 - 2.0 * t_bytes, 0.0) - t16, -ops.minimum(t_bytes, t16))


# long: the second half of the step-time derivation (compute, TP, PP, DP/ZeRO, CP, EP, other, rollouts, the MFU
#   rescale): each section feeds the overlap windows below it; numpy and the scalar path share every line
def time_gpu(
    lay: dict,
    *,
    peak_tflops,
    peak16_tflops,
    mem_bw_tbs,
    gen_efficiency,
    intra_busbw_gbs,
    intra_p2p_gbs,
    nic_gbs_per_gpu,
    attn_efficiency=None,
    gpu_memory_gib: float = 0.0,
    mfu=None,
    vllm_max_num_seqs=256.0,
    vllm_profile_tokens=16384.0,
    vllm_nvlink=True,
    host_link_gbs=32.0,
    host_cpu_factor=1.0,
    sm_ghz=0.0,
    attn_bwd_factor=None,
    fp32_tflops=0.0,
    full: bool = True,
) -> dict:
    """The second stage of :func:`time_arrays`: the GPU's rates (peak, HBM and link bandwidths, the generation's
    matmul efficiency, the attention kernel's ceiling) applied to :func:`time_layout`'s values ``lay``; returns
    :func:`time_arrays`' dict. ``full=False`` (the plan search): only the step, its parts, tokens/s and MFU —
    the communication hidden under compute, HFU and the FLOPs per token are not computed (the values returned
    are the same either way). Sources: the module docstring, section by section."""
    ops = lay["ops"]
    f64, where, maximum, minimum = ops.f, ops.where, ops.maximum, ops.minimum
    m, framework, precision, profile, s = lay["m"], lay["framework"], lay["precision"], lay["profile"], lay["s"]
    tp, pp, cp, ep, vpp, m_acc, mbs = (lay[k] for k in ("tp", "pp", "cp", "ep", "vpp", "m_acc", "mbs"))
    mp, size, lin_tok, attn_tok, head_tok = (lay[k] for k in ("mp", "size", "lin_tok", "attn_tok", "head_tok"))
    hflops_tok, mflops_tok = lay["hflops_tok"], lay["mflops_tok"]
    ov_grad, ov_param, ov_tp, ov_p2p = (lay[k] for k in ("ov_grad", "ov_param", "ov_tp", "ov_p2p"))
    n_dp, zero, L_stage, m_chunks = lay["n_dp"], lay["zero"], lay["L_stage"], lay["m_chunks"]
    peak, peak16 = f64(peak_tflops) * 1e12, f64(peak16_tflops) * 1e12
    gen_eff = f64(gen_efficiency)
    mem_bw = f64(mem_bw_tbs) * 1e12 * MEM_BW_EFFICIENCY
    intra_bus, intra_p2p, nic = f64(intra_busbw_gbs) * 1e9, f64(intra_p2p_gbs) * 1e9, f64(nic_gbs_per_gpu) * 1e9
    eff = gen_eff * size
    eff16 = (gen_eff / FP8_EFFICIENCY_RATIO if precision == "fp8" else gen_eff) * size
    # the attention core under a fused (flash) kernel: at most the kernel's ceiling (ATTN_KERNEL_CEILING; the
    # scenario's attention_kernel, else the framework's: attention_kernel()); eager attention runs as bmm GEMMs
    eff_attn = eff16 if attn_efficiency is None else where(
        lay["flash"], minimum(eff16, f64(attn_efficiency) * size), eff16)
    # the layers' linear GEMMs, per token (FP8: the recipe's GEMM ratio in place of FP8_EFFICIENCY_RATIO)
    # (MoE: the routed experts' GEMMs at their own size factor, _moe_terms)
    lin_exp = lay["lin_exp_tok"]
    # (token dropping: the experts process moe_capacity_scale × the routed copies; padded rows cost GEMM time)
    cap = lay.get("moe_cap", 1.0)
    t_lin_tok = ((lin_tok - lin_exp) / eff + lin_exp * cap / (gen_eff * lay["size_exp"])) / (peak * lay["fp8_gemm_scale"])
    # FlashAttention-2's backward under its ceiling: 2.5 × the forward's FLOPs at its slower rate (FLASH2_BWD_TIME_FACTOR)
    # (the kernel's and generation's factor, ATTN_BWD_TIME_FACTOR: attention_bwd_factor; FlashAttention-2's on Hopper):
    # each pass runs at the lower of the matmul efficiency and the kernel's own rate for that pass (the forward's
    # ceiling; the backward's, ceiling / factor), so the factor applies in full where the forward's ceiling binds
    # (flash2) and only in part where the forward is matmul-bound (cuDNN on Blackwell)
    flash_bwd = 1.0
    if attn_efficiency is not None:
        bwd_f = FLASH2_BWD_TIME_FACTOR if attn_bwd_factor is None else f64(attn_bwd_factor)
        eff_attn_bwd = minimum(eff16, f64(attn_efficiency) * size / bwd_f)
        flash_bwd = where(lay["flash"], eff_attn / eff_attn_bwd, 1.0)
    attn_tok = attn_tok + (flash_bwd - 1.0) * lay["attn_bwd_tok"]
    # Transformers' SDPA on a padded batch: the memory-efficient kernel (hf_sdpa_masked_core, SDPA_MEM_EFF_TIME_FACTOR)
    attn_tok = attn_tok * where(lay["sdpa_me"], SDPA_MEM_EFF_TIME_FACTOR, 1.0)
    t_layers_tok = t_lin_tok + attn_tok / (peak16 * eff_attn)
    attn_eager_tok, attn_padded_tok = attention_kernel_parts(lay, attn_tok, flash_bwd, peak16 * eff_attn, mem_bw)
    t_head_tok = head_tok / (peak16 * eff16)
    t_flops_tok = t_layers_tok + t_head_tok
    t_mem_tok = lay["mem_tok_bytes"] / mem_bw  # memory-bound work (time_layout)
    # Megatron's pipeline: the output layer runs on the last stage, the slowest one sets the pace (pp_stage_shares)
    t_stage_tok = maximum(t_layers_tok * lay["pp_mid_layers"],
                          t_layers_tok * lay["pp_last_layers"] + t_head_tok * lay["pp_head_stage"])
    t_compute_tok = t_stage_tok / mp + t_mem_tok  # seconds per replica token, on one GPU
    # the LoRA adapters' rank-wide GEMMs are in both t_lin_tok (FLOPs) and t_mem_tok (bytes): each runs at the longer
    # of the two (roofline, flops.LORA_GEMM_FWD; lora_gemm_roofline), taken back from the compute line
    t_compute_tok = t_compute_tok + lora_gemm_roofline(lay, eff * peak * lay["fp8_gemm_scale"] * mp, mem_bw,
                                                       f64(fp32_tflops) * 1e12 * size * mp)
    # the other stages wait for the slowest one: named apart, in the pipeline's part of the step
    pp_imb_mb = maximum(t_stage_tok - t_flops_tok, 0.0) / mp * mbs * s
    t_mb = t_compute_tok * mbs * s  # one micro-batch on one GPU (all its layers)
    # the grouped experts' per-expert GEMM launches (moe_gemm_launches) and FP8 casts (moe_quant_kernels): a fixed GPU
    # cost each
    moe_launch = lay["moe_launch_mb"] + 0.0 * t_mb
    # ... and the experts' wgrad GEMMs' excess over their FLOP time where fp32 main_grad traffic binds (moe_wgrad_terms)
    # (max(bytes / HBM − FLOPs / the experts' rate, 0): their FLOP time is already in the compute; dropping scales the
    # rows' FLOPs, not the fp32 buffer)
    moe_wg_t = lay.get("moe_wg_flops", 0.0) * cap / (gen_eff * lay["size_exp"] * peak * lay["fp8_gemm_scale"])
    moe_wgrad = maximum(lay.get("moe_wg_bytes", 0.0) / mem_bw - moe_wg_t, 0.0) + 0.0 * t_mb
    t_mb = t_mb + moe_launch + moe_wgrad
    # DoRA's weight-norm passes (dora_terms): a fixed HBM cost per micro-batch, named in the breakdown
    dora_s = lay.get("dora_mb", 0.0) / mem_bw + 0.0 * t_mb
    t_mb = t_mb + dora_s
    # DeepSpeed's BF16 optimizer's fp32 gradient add (DS_BF16_HP_GRAD_BYTES): a fixed HBM cost per micro-batch
    ds_bf16_s = lay.get("ds_bf16_mb", 0.0) / mem_bw + 0.0 * t_mb
    t_mb = t_mb + ds_bf16_s
    # the host CPU's speed (HOST_CPU_FACTOR: Grace issues each op slower than the x86 servers the EAGER_* costs are from)
    hcf = f64(host_cpu_factor)
    # the routed experts' GEMMs of one micro-batch (their part of t_lin_tok) and their expert dispatch
    ep_mb = _ep_comm_mb(lay, intra_p2p, nic, intra_bus)
    t_exp_gemm_mb = lin_exp * cap / (gen_eff * lay["size_exp"]) / (peak * lay["fp8_gemm_scale"]) / mp * mbs * s
    t_exp_mb = t_exp_gemm_mb + moe_launch + moe_wgrad
    # the waits for the host: eager launches, Megatron's MoE syncs, Transformers' expert loop (host_waits)
    t_mb_gpu_pre = t_mb  # the micro-batch's GPU time before the host waits (fsdp1_lora_waits)
    launch_mb, moe_host, hf_moe = host_waits(lay, hcf, t_mb, pp_imb_mb, ep_mb, t_exp_mb, t_exp_gemm_mb)
    # the same waits behind an x86 host, so that a Grace host's extra is its own line
    host_x86 = ((launch_mb, moe_host, hf_moe) if not np.any(np.asarray(hcf) != 1.0)
                else host_waits(lay, 1.0, t_mb, pp_imb_mb, ep_mb, t_exp_mb, t_exp_gemm_mb))
    t_gpu_mb = t_mb  # the GPU's own work of one micro-batch, before the host waits (a2a_overlap_ep_seconds)
    t_mb = t_mb + launch_mb + moe_host + hf_moe
    # the LoRA adapter paths' memory traffic (part of t_mem_tok; named in the breakdown)
    lora_s = lay["lora_tok"] / mem_bw * mbs * s * m_acc
    # MoE token permute/unpermute and router passes (part of t_mem_tok; named in the breakdown)
    moe_s = lay["moe_tok"] / mem_bw * mbs * s * m_acc
    # torch ring attention's merges and fp32 accumulations (part of t_mem_tok; named in the breakdown)
    cp_merge_s = lay["cp_merge_tok"] / mem_bw * mbs * s * m_acc
    # Transformers' eager attention and SDPA on a padded batch (attention_kernel_parts; named in the breakdown)
    attn_eager_s, attn_padded_s = attn_eager_tok * mbs * s * m_acc, attn_padded_tok * mbs * s * m_acc
    t_mb_objective = t_mb * lay["extra_h"] / hflops_tok  # the objective's other passes (time_layout)
    # ... where the host binds, the critic's / reward model's passes wait for the host as long as the policy's do
    t_mb_objective = t_mb_objective + launch_mb * lay.get("extra_host_more", 0.0) / hflops_tok
    # ... verl's log-prob forwards' logits post-processing, memory-bound (verl_logprob_bytes), in those passes only
    t_mb_objective = t_mb_objective + lay.get("verl_lp_tok", 0.0) / mem_bw * mbs * s
    # verl's FSDP1 LoRA units' hooks (core/fsdp1_lora.py): the training passes' wait, and the log-prob forward's own
    fl_wait, fl_logprob = fsdp1_lora_waits(lay, t_mb_gpu_pre, hflops_tok, hcf)
    t_mb_objective = t_mb_objective + fl_logprob
    t_mb = t_mb + fl_wait
    # RL rollouts' tokens differ from rank to rank in each training micro-batch: the slowest rank sets the pace
    # (core/rank_imbalance.py)
    t_mb = t_mb + rank_straggler_wait(lay, t_mb_gpu_pre, launch_mb)
    compute = t_mb * m_acc
    # forward and backward time of one micro-batch on one GPU (the backward includes the recompute forward)
    t_fwd = t_mb * lay["fwd_share"]
    t_bwd = t_mb - t_fwd

    # ---- tensor parallelism: 4 collectives per layer (+2 with full recompute) + embedding/loss
    tp_bw = where(lay["tp_in_node"], intra_bus, nic)
    tp_ar = lay["tp_ar_bytes"] / tp_bw + lay["tp_ar_lat"]
    tp_layer_ar = lay["tp_layer_ar_bytes"] / tp_bw + lay["tp_ar_lat"]  # (FP8 gathers: tp_fp8_gather_scale)
    tp_layers_mb = where(tp > 1, lay["n_layer_coll"] * tp_layer_ar, 0.0)  # the layers' collectives, one micro-batch
    tp_edge_mb = where(tp > 1, 2.0 * tp_ar, 0.0)  # embedding and loss: not overlapped
    # TE userbuffers (--tp-comm-overlap): each collective is split into tp chunks pipelined with the GEMM it
    # feeds (ring-exchange all-gather before QKV/FC1, chunked reduce-scatter after proj/FC2, bulk overlaps of
    # the backward's all-gather/reduce-scatter with the dgrad/wgrad GEMMs): the first chunk and whatever the
    # layers' GEMMs cannot cover stay exposed (module docstring)
    t_lin_mb = t_lin_tok / mp * mbs * s  # the layers' linear GEMMs, one micro-batch
    # (torch's AsyncTP cannot fuse a gather whose result is cast before its matmul: tp_async_unfused_share)
    tp_fusable_mb = tp_layers_mb * (1.0 - lay["tp_unfused_share"])
    tp_layers_ov = (tp_layers_mb - tp_fusable_mb + tp_fusable_mb / tp
                    + maximum(tp_fusable_mb * (1.0 - 1.0 / tp) - t_lin_mb, 0.0))
    tp_exposed_mb = where(ov_tp, tp_layers_ov, tp_layers_mb) + tp_edge_mb + lay["lora_tp_mb"]  # (megft9)
    # Megatron-Bridge LoRA's own gathers of the layer-norm output under TP overlap (bridge_lora_sp_gathers):
    # each moves (tp−1)/tp of one tokens × h activation (half an all-reduce's bytes), on the compute stream
    tp_exposed_mb = tp_exposed_mb + where(tp > 1, lay["lora_sp_n"] * (lay["tp_ar_bytes"] / 2.0 / tp_bw
                                                                      + lay["tp_ar_lat"]), 0.0)
    tp_comm = tp_exposed_mb * m_acc
    tp_hidden = (tp_layers_mb + tp_edge_mb) * m_acc - tp_comm if full else None

    # ---- pipeline: bubble (p−1)/v micro-batch times + p2p boundary sends
    t_mb_stage = t_mb + tp_exposed_mb
    bubble = where(pp > 1, lay["bubble_share"] * t_mb_stage, 0.0)
    p2p_bw = where(lay["crosses_nodes"], nic, intra_p2p)
    p2p_all = where(pp > 1, lay["p2p_num"] / p2p_bw * m_acc, 0.0)
    # Megatron's interleaved schedule posts the next chunk's send/receive before computing the current one
    # (overlap_p2p_comm): the transfers run under the stage's compute, except the fill and drain's
    # (pipeline_fill_p2p_seconds), never more than the sends without the overlap
    p2p = maximum(p2p_all - compute, 0.0)
    fill = pipeline_fill_p2p_seconds(lay, pp, vpp, ov_p2p, p2p_bw)
    if np.ndim(fill) or fill:
        p2p = minimum(p2p + fill, p2p_all)
    del fill  # (the plan search's working set per chunk: tests/test_search_stream.py)
    p2p = where(ov_p2p, p2p, p2p_all)
    pp_hidden = p2p_all - p2p if full else None
    # (Megatron's tied word-embedding gradient all-reduce between the first and last stage: tied_embedding_sync_seconds)
    pp_time = bubble + p2p + tied_embedding_sync_seconds(lay, p2p_bw)

    # ---- data parallelism (and ZeRO/FSDP): per step and GPU, what is moved and what hides under compute
    dp_bw = where(lay["dp_spans"], minimum(intra_bus, lay["k_node"] * nic), intra_bus)
    # the share of the measured compute slowdown a hidden data-parallel second carries at that rate
    rate_share = contention_rate_share(dp_bw, intra_bus, ops)
    # the window of compute after the first gradients of the step are final (before: after the last
    # parameter gather is needed): the last micro-batch's backward (forward of the first), widened with
    # virtual stages (time_layout's win_factor)
    win_b = t_bwd * lay["win_factor"] / vpp
    win_f = t_fwd * lay["win_factor"] / vpp
    last_bucket, sharded_opt = lay["last_bucket"], lay["sharded_opt"]
    # Megatron's routed experts over their expert-data-parallel group (expert_dp_layout): k_exp peers per node
    exp_bw = where(lay["dp_spans"], minimum(intra_bus, lay["k_exp"] * nic), intra_bus)
    grad_sync = lay["grad_sync_bytes"] / dp_bw + lay["grad_sync_exp_bytes"] / exp_bw + lay["grad_sync_lat"]
    # ZeRO-1/2 and the distributed optimizer all-gather the updated 16-bit weights after the step
    param_sync = where(sharded_opt, lay["param_sync_bytes"] / dp_bw + lay["param_sync_exp_bytes"] / exp_bw
                       + lay["param_sync_lat"], 0.0)
    # (DeepSpeed ZeRO-2 reduces every micro-batch under that micro-batch's backward: grad_reductions windows)
    grad_exp = where(ov_grad, maximum(grad_sync - win_b * lay["grad_reductions"], grad_sync * last_bucket),
                     grad_sync)
    param_exp = where(ov_param, maximum(param_sync - win_f, param_sync * last_bucket), param_sync)
    # Nanotron's ZeRO-1 list copies (nanotron_list_copies): host time, the weights' after the step, the gradients'
    # beyond the last micro-batch's backward; no GPU work hides under them (nor contends with them)
    nano_host = lay["nano_list_p"] * hcf + maximum(lay["nano_list_g"] * hcf - win_b, 0.0)
    dp12 = grad_exp + param_exp + nano_host
    dp12_all = grad_sync + param_sync + nano_host  # (also the search's: overlap_contention_seconds reads the hidden part)
    fsdp_pp, per_mb = lay["fsdp_pp"], lay["per_mb"]
    # ZeRO-3/FSDP (per_mb): where no row gathers per micro-batch (Megatron's ZeRO 0/1, DDP, ZeRO-1/2 outside
    # FSDP) the terms below are never picked by the where() calls that read them: they are not computed
    any_row = np.any if ops is _ArrayOps else bool
    z3 = z3_all = z3_open_s = z3_pre = fsdp1_exp = 0.0
    if any_row(per_mb):
        # one all-gather per layer (FSDP wraps each decoder block) and pass, one reduce-scatter
        # (Megatron-FSDP's routed experts over their expert-data-parallel group: exp_bw)
        gather = lay["gather_bytes"] / dp_bw + lay["gather_exp_bytes"] / exp_bw + lay["lat_ag"]  # all weights, once
        rs = lay["rs_bytes"] / dp_bw + lay["rs_exp_bytes"] / exp_bw + lay["lat_rs"]
        # Megatron-FSDP's non-unit modules: gathered in the step's first forward only (time_layout)
        gather_f = gather + lay["gather_once_bytes"] / dp_bw / m_acc
        # per micro-batch (no PP): forward gathers under the forward (the first unit's gather is not
        # prefetched), backward gathers (ZeRO-3 only: ZeRO-2 keeps the gathered weights for the backward) and
        # reduce-scatters under the backward (the last unit's reduce-scatter is not hidden)
        gather_b = where(zero >= 3, gather * lay["bwd_gathers"], 0.0)
        # DeepSpeed ZeRO-3's prefetch hides a gather only under the GPU work up to the next hook
        # (core/zero3.py, z3_open_gather_share): the share issued where no GEMM follows lengthens the GPU's own
        # time, hidden only where the host is slower (launch_mb); the rest hides under the passes as before
        open_sh = where(ov_param, lay["z3_open"], 0.0)
        win_sh = where(ov_param, lay["z3_windowed"], 0.0)
        # (the open segments' element-wise work hides the gathers issued before it: forward, backward ≈ 2×)
        win_f = lay["z3_win_bytes"] / mem_bw
        open_mb = ((open_sh - win_sh) * (gather_f + gather_b) + maximum(win_sh * gather_f - win_f, 0.0)
                   + maximum(win_sh * gather_b - 2.0 * win_f, 0.0))
        open_exp = maximum(open_mb - launch_mb, 0.0)
        gf_ov, gb_ov = gather_f * (1.0 - open_sh), gather_b * (1.0 - open_sh)
        # FSDP2's outer units (fsdp2_edge_unit_bytes): the step's first gather and last reduce-scatter are the
        # embedding's unit (the root's, in torchtitan's layout before July 2025) beyond one block's share
        edge_f = minimum(gf_ov / L_stage + lay["edge_ag_bytes"] / dp_bw, gf_ov)
        # (verl: its layers sync the host, so no forward gather hides, hf_flash_layer_syncs)
        ov_fwd = ov_param & (not lay.get("fa_sync", False))
        f_exp = where(ov_fwd, maximum(gf_ov - t_fwd, edge_f), gather_f)
        b_ov = where(ov_param, gb_ov, 0.0) + where(ov_grad, rs, 0.0)
        edge_b = minimum(b_ov / L_stage + where(ov_grad, lay["edge_rs_bytes"] / dp_bw, 0.0), b_ov)
        b_exp = (gb_ov + rs - b_ov) + maximum(b_ov - t_bwd, edge_b)
        # FSDP1's cast and division of each unit's gradient (time_layout's fsdp1_grad_bytes) run on the post-
        # backward stream, serialised with that unit's reduce-scatter: ``_post_backward_hook`` makes the stream wait
        # for the compute stream, then under ``with stream(state._post_backward_stream)`` casts the gradient and
        # runs ``_reduce_grad`` (pre-divide, ``reduce_scatter_tensor``, post-divide); the compute stream waits for
        # that stream only at the end of the backward (``_post_backward_final_callback`` →
        # ``current_stream.wait_stream(root_state._post_backward_stream)``; torch 2.13.0 ``_runtime_utils.py``
        # l. 748–764, 831–879, 1104; 2.5.1 the same). So the passes hide under the backward with the reduce-scatters:
        # the post-backward stream's queue (reduce-scatters + passes) and the link's (gathers + reduce-scatters)
        # both have the backward to hide under, and the last unit's queue is left at its end (edge). Their exposed
        # part, what they add to the backward's exposed time, is fsdp1_grad_passes (other); the rest runs under
        # the compute, which it slows as the hidden collectives do (overlap_contention_seconds, below)
        p_rs = where(lay["fsdp_copy_on"], lay.get("fsdp1_grad_bytes", 0.0) / mem_bw, 0.0) / where(fsdp_pp, 1.0, m_acc)
        p_ov = where(ov_grad, p_rs, 0.0)
        b_busy_p = maximum(b_ov, where(ov_grad, rs, 0.0) + p_ov)
        edge_bp = minimum(edge_b + p_ov / L_stage, b_busy_p)
        fsdp1_exp = (p_rs - p_ov) + maximum(b_busy_p - t_bwd, edge_bp) - maximum(b_ov - t_bwd, edge_b)
        fsdp1_exp = m_acc * fsdp1_exp
        # (DeepSpeed ZeRO-3's list collectives before v0.5.5: the host's per-rank copies, ds_list_collectives)
        # the objective's no-grad forwards' own gathers (nograd_gathers): under their forwards' time with the
        # prefetch on, else on the compute stream
        gather_x = gather * lay["xf_gathers"]
        x_exp = where(ov_fwd, maximum(gather_x - t_mb_objective, gather_x / L_stage), gather_x)
        # (a precomputed reference's pass gathers the same way, before training: with its FLOPs, precomp_s)
        gather_p = gather * lay["xf_gathers_pre"]
        pre_exp = m_acc * where(ov_param, maximum(gather_p - t_mb * lay["precomp_h"] / hflops_tok, gather_p / L_stage),
                                gather_p)
        # (and the compute under its hidden part slows as in the step: overlap_contention_seconds)
        z3_pre = where((n_dp > 1) & (zero >= 3),
                       pre_exp + overlap_contention_seconds((m_acc * gather_p - pre_exp) * rate_share, ops), 0.0)
        z3_mb = m_acc * (f_exp + b_exp + open_exp + lay["ds_list_host"] + x_exp)
        z3_mb_all = m_acc * (gather_f + gather_b + rs + lay["ds_list_host"] + gather_x)
        z3 = z3_mb
        z3_open_s = where(fsdp_pp, 0.0, m_acc * open_exp)  # named in the breakdown, inside dp_comm
        if any_row(fsdp_pp):
            # FSDP2 with pipeline parallelism (torchtitan): parameters stay unsharded from the first forward to
            # the end of the step (reshard_after_forward=False) and gradients accumulate unsharded; one
            # all-gather and one reduce-scatter per step, the reduce-scatter after the stage's last backward
            # (torch.distributed.pipelining REDUCE_GRAD action): only earlier virtual stages' reduce-scatters
            # hide under the remaining backward
            win_b_pp = t_bwd * (vpp - 1.0) * m_chunks / vpp
            z3_pp = (where(ov_param, maximum(gather - win_f, gather / L_stage), gather)
                     + where(ov_grad, maximum(rs - win_b_pp, rs / vpp), rs))
            z3 = where(fsdp_pp, z3_pp, z3_mb)
            # (FSDP1's passes queued with that one reduce-scatter: p_rs is the step's)
            rs_p = rs + p_rs
            fsdp1_pp = (where(ov_grad, maximum(rs_p - win_b_pp, rs_p / vpp), rs_p)
                        - where(ov_grad, maximum(rs - win_b_pp, rs / vpp), rs))
            fsdp1_exp = where(fsdp_pp, fsdp1_pp, fsdp1_exp)
        z3_all = where(fsdp_pp, gather + rs, z3_mb_all)
    dp_comm = where(n_dp > 1, where(per_mb, z3, dp12), 0.0)
    z3_open_s = where((n_dp > 1) & per_mb, z3_open_s, 0.0)
    # FSDP2's copies around its collectives (time_layout): memory-bound passes on the compute stream
    fsdp_copy = where(lay["fsdp_copy_on"], lay["fsdp_copy_bytes"] / mem_bw, 0.0)
    # FSDP1's cast and division of every gradient (post-backward stream, above): the exposed part is named in the
    # breakdown (inside other), the hidden part slows the compute beside it
    fsdp1_all = where(lay["fsdp_copy_on"], lay.get("fsdp1_grad_bytes", 0.0) / mem_bw, 0.0)
    fsdp1_grad_s = where(lay["fsdp_copy_on"], fsdp1_exp, 0.0)
    hidden = where(n_dp > 1, where(per_mb, z3_all, dp12_all), 0.0) - dp_comm
    dp_hidden = hidden if full else None
    # the compute that runs under the hidden collectives (and FSDP1's hidden gradient passes) runs slower
    # (overlap_contention_seconds): added to compute below, after every overlap window has read the uncontended
    # compute
    # (the collectives' hidden seconds at their own rate, contention_rate_share; FSDP1's gradient passes are HBM work
    # on the GPU itself, at full weight)
    dp_contention = overlap_contention_seconds(hidden * rate_share + maximum(fsdp1_all - fsdp1_grad_s, 0.0), ops)

    # ---- context parallelism: K/V ring, forward 1×, backward 2× (K/V and dK/dV), hidden under attention
    # (the plan search's rows without context or expert parallelism, ``cp``/``ep`` packed to one value: nothing
    # to compute, and the zero left as one value adds to the step exactly as the array of zeros would)
    if not full and np.ndim(cp) == 0 and not cp > 1:
        cp_comm = 0.0
    else:
        cp_bw = where(lay["cp_in_node"], intra_p2p, nic)
        cp_layer = lay["cp_bytes"] / cp_bw
        attn_bwd_layer = lay["attn_layer_flops"] * 2.0 / (2.0 + lay["cp_fwd_passes"])
        attn_layer = (lay["attn_layer_flops"] + (flash_bwd - 1.0) * attn_bwd_layer) / (peak16 * eff_attn * tp)
        cp_exposed = _te_cp_exposure(lay, cp, attn_layer, cp_bw, ops, flash_bwd)
        if lay["torch_cp"]:  # torch's all-gather ring: what each wait finds unfinished (_torch_cp_exposure)
            cp_layer, cp_exposed = _torch_cp_exposure(lay, cp, attn_layer, where(lay["cp_in_node"], intra_bus, nic),
                                                      cp_bw, ops, flash_bwd)
        cp_comm = where(cp > 1, cp_exposed * lay["stage_layers"] * m_acc, 0.0)
    cp_hidden = where(cp > 1, cp_layer * lay["stage_layers"] * m_acc, 0.0) - cp_comm if full else None

    # ---- expert parallelism: all-to-all dispatch + combine, forward and backward
    if not full and isinstance(ep_mb, float) and ep_mb == 0.0:
        ep_comm = 0.0
    else:
        # (the no-grad passes' forward share is of the four transfers without recompute: ep_mb holds the training
        # micro-batch's recompute re-run, ep_recompute_passes, which a no-grad forward does not have)
        ep_comm = ep_mb * m_acc * (1.0 + EP_FORWARD_SHARE * lay.get("ep_nograd_passes", 0.0) / lay.get("ep_rec", 1.0))
    ep_hidden = 0.0 * ep_comm if full else None
    ovl = lay.get("a2a_ovl", False)
    if not (np.ndim(ovl) == 0 and not ovl):  # Megatron-Core's EP all-to-all overlap (a2a_overlap_ep_seconds)
        ovl_exposed = a2a_overlap_ep_seconds(lay, ep_mb, t_gpu_mb, t_exp_mb, m_acc)
        if full:  # the all-to-all run under the other micro-batch's compute (not in the step time)
            ep_hidden = where(ovl, maximum(ep_mb * m_acc - ovl_exposed, 0.0), 0.0)
        ep_comm = where(ovl, ep_comm - ep_mb * m_acc + ovl_exposed, ep_comm)

    # ---- other: optimizer update and gradient clipping, FP8 weight casts, QLoRA dequantisation
    # (CPU offload: the optimizer steps on the CPU, except bitsandbytes' paged and verl's GPU steps: offload_layout)
    other = lay["off_gpu_step"] * lay["opt_bytes"] / mem_bw + fsdp_copy + fsdp1_grad_s
    other = other + lay.get("distopt_host_s", 0.0) * hcf  # the distributed optimizer's per-tensor loops (swiftmoe10)
    if precision == "fp8":
        other = other + lay["fp8_w_bytes"] / mem_bw
    dequant = 0.0
    if lay["method"] == "qlora":
        dequant = qlora_dequant_seconds(lay, mem_bw, sm_ghz)  # named in the breakdown, inside other
        other = other + dequant

    # the reference log-probabilities computed once before training (reference_precompute_flops): not in the step,
    # in the run's throughput (the one pass over the data at the same rates, per step of data)
    precomp_s = t_mb * lay.get("precomp_h", 0.0) / hflops_tok * m_acc
    compute = compute + t_mb_objective * m_acc - precomp_s
    precomp_s = precomp_s + z3_pre  # (its ZeRO-3 gathers: nograd_gathers, in the run's throughput only)
    if profile.critic:
        # the critic's gradients and optimizer step, like the policy's (and the compute its hidden collectives slow)
        dp_contention = dp_contention * 2.0
        dp_hidden = dp_hidden * 2.0 if full else None
        dp_comm = dp_comm * 2.0
        other = other * 2.0
        z3_open_s, dequant, fsdp1_grad_s = z3_open_s * 2.0, dequant * 2.0, fsdp1_grad_s * 2.0
    mflops_tok = mflops_tok + lay["extra_m"]
    hflops_tok = hflops_tok + lay["extra_h"] if full else None
    # CPU offload (offload_layout): the CPU step and the PCIe copies, of the critic too (verl's bytes count it)
    offload_s = offload_seconds(lay, f64(host_link_gbs) * 1e9 * PCIE_HOST_EFFICIENCY, t_bwd, compute)
    compute = compute + dp_contention  # (after every window that reads the compute: overlap_contention_seconds)
    other = other + offload_s
    # the pipeline's slowest stage (pp_stage_shares): its extra time over the average stage is the other stages'
    # wait, reported with the bubble rather than as compute
    pp_imb = pp_imb_mb * m_acc
    compute, pp_time = compute - pp_imb, pp_time + pp_imb

    # ---- RL rollouts (core/methods.generation_seconds and _rollouts): generation, weight refit, schedule
    generation = wait_longest = refit = net_ar = 0.0 * compute
    if profile.rl:
        generation, wait_longest, refit, scale_t, net_ar = _rollouts(
            lay, gpu_memory_gib=gpu_memory_gib, peak16=peak16, gen_eff=gen_eff, mem_bw=mem_bw, dp_bw=dp_bw,
            intra_p2p=intra_p2p, nic=nic, max_seqs=vllm_max_num_seqs,
            host_bw=f64(host_link_gbs) * 1e9 * PCIE_HOST_EFFICIENCY, profile_tokens=vllm_profile_tokens,
            nvlink=vllm_nvlink)
        if profile.engine == "vllm_separate":
            # the training share of the GPUs runs the whole step's training: (1 − f) of the GPUs
            compute, tp_comm, dp_comm, pp_time, cp_comm, ep_comm, other = (
                x * scale_t for x in (compute, tp_comm, dp_comm, pp_time, cp_comm, ep_comm, other))
            z3_open_s, dequant, attn_eager_s, attn_padded_s, fsdp1_grad_s = (
                x * scale_t for x in (z3_open_s, dequant, attn_eager_s, attn_padded_s, fsdp1_grad_s))
        if profile.schedule in ("one_step_off", "async"):
            # the generation GPUs produce step n+1's rollouts while step n trains (verl one_step_off_policy,
            # OpenRLHF --async_train; async: the next steps_in_flight steps', async_window): the step is the slower
            # stage, only what outlasts the training is exposed; the refit is not overlapped
            train = compute + tp_comm + dp_comm + pp_time + cp_comm + ep_comm + other
            exposed = maximum(generation - train, 0.0)
            wait_longest = wait_longest * exposed / maximum(generation, 1e-30)
            net_ar = net_ar * exposed / maximum(generation, 1e-30)
            generation = exposed
        generation = generation + refit

    step = compute + tp_comm + dp_comm + pp_time + cp_comm + ep_comm + other + generation
    # (of the refit: NeMo RL's per-tensor host work, named apart; _rollouts adds it once per generation batch)
    refit_tensors = (lay.get("nemo_refit_tensors", 0.0) * NEMO_RL_REFIT_S_PER_TENSOR
                     / float(max(profile.updates_per_generation, 1)) if profile.rl else 0.0) + 0.0 * step
    # named mechanisms inside the parts above (seconds per step; PART_PARENT says which part holds each)
    grace_s = (launch_mb + moe_host + hf_moe - sum(host_x86)) * m_acc  # named in the breakdown, inside compute
    launch_mb, moe_host, hf_moe = host_x86
    z3_wait = launch_mb * lay["z3_host_mb"] / maximum(lay["host_mb"], 1e-30)
    parts = {"lora_adapters": lora_s + 0.0 * step, "dora_weight_norm": dora_s * m_acc + 0.0 * step, "ds_bf16_grad_accum": ds_bf16_s * m_acc + 0.0 * step, "moe_dispatch": moe_s + 0.0 * step, "cp_merge": cp_merge_s + 0.0 * step,
             "launch_overhead": (launch_mb - z3_wait) * m_acc + 0.0 * step, "zero3_hooks": z3_wait * m_acc + 0.0 * step,
             "moe_host_sync": moe_host * m_acc + 0.0 * step, "hf_moe_loop": hf_moe * m_acc + 0.0 * step,
             "moe_gemm_launch": moe_launch * m_acc + 0.0 * step, "moe_wgrad_main_grad": moe_wgrad * m_acc + 0.0 * step,
             "rollout_wait_longest": wait_longest + 0.0 * step,
             "weight_refit": refit - refit_tensors + 0.0 * step, "optimizer_offload": offload_s + 0.0 * step,
             "nemo_rl_refit_tensors": refit_tensors + 0.0 * step,
             "rollout_net_allreduce": net_ar + 0.0 * step,
             "pp_imbalance": pp_imb + 0.0 * step}
    # this round's named mechanisms (the NeMo RL copies are carved out of the offload part that holds them)
    nemo_s = nemo_rl_host_seconds(lay, f64(host_link_gbs) * 1e9 * PCIE_HOST_EFFICIENCY) + 0.0 * step
    # (Megatron-SWIFT's training model out and back around each generation, training.rl.offload_model: named apart)
    rl_off_s = lay.get("off_rl_model", 0.0) / (f64(host_link_gbs) * 1e9 * PCIE_HOST_EFFICIENCY) + 0.0 * step
    parts.update({"zero3_open_gathers": z3_open_s + 0.0 * step, "qlora_dequant": dequant + 0.0 * step,
                  "hf_eager_attention": attn_eager_s + 0.0 * step, "sdpa_padded": attn_padded_s + 0.0 * step,
                  "nemo_rl_host_copies": nemo_s, "grace_host": grace_s + 0.0 * step, "optimizer_offload": maximum(offload_s - nemo_s - rl_off_s, 0.0) + 0.0 * step, "rl_model_offload": rl_off_s,
                  "overlap_contention": dp_contention + 0.0 * step, "fsdp1_grad_passes": fsdp1_grad_s + 0.0 * step})
    parts.update(fsdp1_lora_parts(fl_wait, fl_logprob, m_acc, step))
    tokens_step_gpu = lay["tokens_step_gpu"]  # tokens per step per GPU
    if mfu is not None:
        # measured MFU: tokens/s/GPU = peak × MFU / model FLOPs per token; keep the modelled shares
        target = tokens_step_gpu * mflops_tok / (peak16 * f64(mfu))
        scale = target / (step + precomp_s)
        compute, tp_comm, dp_comm, pp_time, cp_comm, ep_comm, other, generation = (
            x * scale for x in (compute, tp_comm, dp_comm, pp_time, cp_comm, ep_comm, other, generation))
        parts = {k: v * scale for k, v in parts.items()}
        if full:
            tp_hidden, dp_hidden, pp_hidden, cp_hidden, ep_hidden, p2p = (
                x * scale for x in (tp_hidden, dp_hidden, pp_hidden, cp_hidden, ep_hidden, p2p))
        step, precomp_s = (target - precomp_s * scale), precomp_s * scale
    tok_s_gpu = tokens_step_gpu / (step + precomp_s)  # the run's throughput: the precompute pass included
    mfu_step = tok_s_gpu * mflops_tok / peak16
    # the training passes' MFU (RL: the step less rollout generation and refit — what verl logs as
    # perf/mfu/actor: the update's FLOPs over the update's time, fsdp_workers.update_actor + utils/flops_counter.py);
    # equal to the MFU without rollouts. The MFU grade (rules.mfu_grade) reads this one.
    mfu_train = mfu_step * step / maximum(step - generation, 1e-30)
    if not full:
        return {"compute": compute, "tp_comm": tp_comm, "dp_comm": dp_comm, "pp_bubble": pp_time,
                "cp_comm": cp_comm, "ep_comm": ep_comm, "other": other, "generation": generation, "step": step,
                "tokens_per_s_per_gpu": tok_s_gpu, "mfu": mfu_step, "mfu_training": mfu_train,
                "hfu_ratio": (lay["hflops_tok"] + lay["extra_h"]) / mflops_tok + 0.0 * step, **parts}
    return {
        "compute": compute, "tp_comm": tp_comm, "dp_comm": dp_comm, "pp_bubble": pp_time,
        "cp_comm": cp_comm, "ep_comm": ep_comm, "other": other, "generation": generation, "step": step,
        "pp_p2p": p2p, "tp_hidden": tp_hidden, "dp_hidden": dp_hidden, "pp_hidden": pp_hidden, "cp_hidden": cp_hidden,
        "ep_hidden": ep_hidden,
        "overlap_grad_reduce": ov_grad, "overlap_param_gather": ov_param, "tp_comm_overlap": ov_tp,
        "overlap_p2p_comm": ov_p2p,
        "tokens_per_step": lay["tokens_per_step"], "tokens_per_s_per_gpu": tok_s_gpu,
        "mfu": mfu_step, "mfu_training": mfu_train, "hfu": tok_s_gpu * hflops_tok / peak16,
        "model_flops_per_token": mflops_tok + 0.0 * step, "hardware_flops_per_token": hflops_tok + 0.0 * step,
        "efficiency": eff * lay["fp8_gemm_scale"], **parts,
    }


#: what an RL rollout's vLLM engine keeps out of its KV pool besides the weights (issue 35 round 11): the search's
#: start filter (``methods.vllm_start_room``) and the rollouts' pool read the same function
rollout_engine_reserve_bytes = vllm_engine_reserve_bytes


def rollout_kv_pool_bytes(share, gpu_memory_gib, weights, arch, tp, max_seqs, profile_tokens, nvlink, ops=_ScalarOps):
    """An RL rollout's vLLM KV pool per GPU (at least 1 byte): ``share`` (``gpu_memory_utilization``) of the memory
    CUDA reports (``torch.cuda.mem_get_info``'s total: :data:`serving_facts.CUDA_VISIBLE_SHARE` of the card), less the
    16-bit ``weights`` and :func:`rollout_engine_reserve_bytes`."""
    total = gpu_memory_gib * 2.0**30 * CUDA_VISIBLE_SHARE
    reserve = rollout_engine_reserve_bytes(arch, tp, max_seqs, profile_tokens, nvlink, ops)
    return ops.maximum(share * total - weights - reserve, 1.0)


def vllm_tp_allreduce(tp, dom, nic, intra, ops):
    """(latency s, bytes/s) of one of an RL vLLM engine's decode all-reduces where NCCL runs it: across NVLink
    domains (:func:`methods.vllm_net_allreduce`) or inside one for engines wider than vLLM's own all-reduces
    (:func:`methods.vllm_domain_allreduce`); the two never both apply, so their latencies add and the finite rate
    is the one in force. (0, inf) inside a node."""
    n_lat, n_bw = vllm_net_allreduce(tp, dom, nic, ops)
    d_lat, d_bw = vllm_domain_allreduce(tp, dom, intra, ops)
    return n_lat + d_lat, ops.minimum(n_bw, d_bw)


def _rollout_shares(lay: dict):
    """RL rollouts per generating GPU per step, the rollouts the trainer waits for, and the engines' tensor
    parallelism (:func:`_rollouts`)."""
    profile, tp = lay["profile"], lay["tp"]
    seqs = lay["mbs_examples"] * lay["m_acc"]  # rollouts per GPU per step (TRL steps_per_generation = accumulation)
    # every rollout of the generation batch, all engines together: the trainer waits for the last one (async: a
    # group's, the learners taking whole groups as they finish, async_window)
    n_rollouts = seqs * lay["n_dp"] * float(profile.updates_per_generation)
    if profile.schedule == "async":
        n_rollouts = float(max(profile.group_size, 1)) + 0.0 * n_rollouts
    if profile.engine != "training":
        # vLLM engines of ``rollout_tp`` GPUs (verl rollout.tensor_model_parallel_size, TRL
        # vllm_tensor_parallel_size; default the training tp): a data-parallel rank's rollouts are shared by the
        # engines on its model-parallel group's tp·pp·cp GPUs (vLLM runs tensor parallelism only: NeMo RL's
        # Megatron PP 4 / vLLM TP 4 recipes hold four engines per training group)
        gen_tp = float(profile.rollout_tp) if profile.rollout_tp else tp
        seqs = seqs * gen_tp / (tp * lay["pp"] * lay["cp"])
        tp = gen_tp
    return seqs, n_rollouts, tp


def _rollout_refit(lay: dict, seqs, tp, *, gpu_memory_gib, mem_bw, dp_bw, intra_p2p, nic, max_seqs, host_bw,
                   profile_tokens, nvlink):
    """The rollout engine's KV pool, its rollouts per GPU, the weight refit seconds and the training time's factor
    (each engine's refit: :func:`_rollouts`)."""
    ops, m, profile = lay["ops"], lay["m"], lay["profile"]
    where = ops.where
    w16 = 2.0 * float(m.params.total) / tp
    frac = profile.gpu_fraction
    refit = 0.0 * seqs
    scale_t = 1.0
    kv = (gpu_memory_gib, w16, m.arch, tp, profile.max_num_seqs or max_seqs, profile_tokens, nvlink, ops)  # r11
    if profile.engine == "vllm_colocated":
        pool = rollout_kv_pool_bytes(frac, *kv)  # vLLM V1's KV pool at its memory share
        gather = where(lay["per_mb"] & (lay["n_dp"] > 1), lay["gather_bytes"] / dp_bw, 0.0)
        refit = 2.0 * w16 / mem_bw + gather
        # NeMo RL's Megatron worker hands vLLM the full model on every rank (nemo_rl_export_bytes, issue 35 round 7)
        refit = refit + nemo_rl_export_seconds(lay, mem_bw=mem_bw, intra_p2p=intra_p2p, nic=nic)
        if profile.engine_sleep and profile.sleep_level == 1:
            refit = refit + 2.0 * w16 / host_bw  # wake_up copies the weights back, sleep copies them out
    elif profile.engine == "vllm_separate":
        # vLLM's own GPUs at its default gpu_memory_utilization = 0.9 (vLLM engine arguments)
        pool = rollout_kv_pool_bytes(0.9, *kv)
        seqs = seqs / frac
        refit = 2.0 * float(m.params.total) / where(lay["multi_node"], nic, intra_p2p)
        if profile.per_tensor_sync:
            # TRL server mode: one HTTP call, broadcast and barrier per parameter tensor (methods.param_tensors)
            refit = refit + param_tensors(m.arch) * TRL_SERVER_SYNC_S_PER_TENSOR
        scale_t = 1.0 / (1.0 - frac)
    else:
        pool = None
    return pool, seqs, refit, scale_t


def _rollouts(lay: dict, *, gpu_memory_gib, peak16, gen_eff, mem_bw, dp_bw, intra_p2p, nic, max_seqs=256.0,
              host_bw=32e9 * PCIE_HOST_EFFICIENCY, profile_tokens=16384.0, nvlink=True):
    """RL rollouts of one step on one GPU: (generation seconds, of which waiting for the longest completion,
    weight refit seconds, the training time's factor, of the generation the decode's all-reduces across nodes).
    Generation: :func:`methods.generation_seconds` with the engine's KV pool. Refit, every step, after the optimizer
    step:

    * ``vllm_colocated``: the trainer's 16-bit weights are loaded into vLLM's copy on the same GPU — read and
      written once at HBM speed (TRL ``GRPOTrainer._move_model_to_vllm``: ``llm_model.load_weights``; verl
      ``FSDPVLLMShardingManager``: ``module.state_dict()`` then ``load_weights``), after one all-gather of the
      ZeRO-3/FSDP shards (TRL ``ds3_gather_for_generation`` / ``GatheredParameters``; FSDP ``state_dict``).
    * ``vllm_separate``: the whole model is broadcast from the trainer to the vLLM workers with NCCL
      (TRL ``VLLMClient.update_named_param``: ``PyNcclCommunicator.broadcast`` per parameter; OpenRLHF
      ``_broadcast_to_vllm``), over NVLink inside a node and the NIC between nodes. TRL's server mode makes one
      HTTP call, broadcast and barrier per parameter tensor: :data:`methods.TRL_SERVER_SYNC_S_PER_TENSOR` for each
      of :func:`methods.param_tensors` (TRL PR #5249: 0.6 s for Qwen2 0.5B's 290 tensors).
    * ``training`` (HF ``generate`` on the trained model): nothing to copy.
    * ``engine_sleep`` at ``sleep_level`` 1 (vLLM ``CuMemAllocator.sleep``: the weights' allocations are copied
      to pinned CPU memory, then copied back at ``wake_up``): vLLM's weights cross the host link twice per
      generation, at ``host_bw``; level 2 drops them (the refit writes them anyway). verl's
      ``third_party/vllm`` picks level 2 from vLLM 0.8.5 (1 before); TRL's colocate mode sleeps at level 2
      (``trl/generation/vllm_generation.py``). Published (vLLM blog "Zero-Reload Model Switching with vLLM Sleep
      Mode", 2025-10-26, A100, level 1): Qwen3-Coder-30B-A3B (61 GB of bf16 weights, TP 1) wakes in 2.86 s
      and sleeps in 2.78 s, 21–22 GB/s, where 61 GB at Gen4's 32 GB/s × 0.8 takes 2.4 s each way.

    One generation batch feeds ``updates_per_generation`` optimizer steps (verl ``train_batch_size /
    ppo_mini_batch_size``): it holds that many steps' rollouts, generated together (the longest completion is
    waited for once), and it and the refit are shared by those steps.

    ``schedule`` async with ``steps_in_flight`` = s (:func:`async_window`): the engines hold s steps' rollouts at
    once and the learner takes each step's as they finish, so the engines decode s batches together (their live
    batch up to s times larger, within ``max_num_seqs`` and the KV pool) and the longest completion (of one
    group's rollouts: the learners take whole groups, of ``group_size``, as they finish) ends the s-step window
    once: a step's generation is the window's over s (by Little's law, s steps of groups in flight each finishing
    after its longest completion). s = 1 is
    one_step_off's single batch; a large s leaves the streaming throughput, ``seqs × mean / live`` decode steps.
    ``regeneration_share`` r (open-instruct ``active_sampling``, DAPO dynamic sampling): the engines generate
    1 / (1 − r) times the kept rollouts (the thrown-away groups' too), each at the concurrency of the kept ones:
    the generation time is 1 / (1 − r) times.
    """
    ops, m, profile = lay["ops"], lay["m"], lay["profile"]
    seqs, n_rollouts, tp = _rollout_shares(lay)
    pool, seqs, refit, scale_t = _rollout_refit(
        lay, seqs, tp, gpu_memory_gib=gpu_memory_gib, mem_bw=mem_bw, dp_bw=dp_bw, intra_p2p=intra_p2p, nic=nic,
        max_seqs=max_seqs, host_bw=host_bw, profile_tokens=profile_tokens, nvlink=nvlink)
    # decoding reads the weights and KV cache at the share serving engines reach (serving_facts.DECODE_MBU_HBM, also
    # inference.ServingEfficiency's: since issue 35 round 5 the streaming share, the step's kernels adding their fixed
    # time in methods.generation_seconds)
    decode_bw = mem_bw / MEM_BW_EFFICIENCY * DECODE_MBU_HBM
    # the steps whose rollouts are decoded together: a generation batch's, times the async window's
    k = float(profile.updates_per_generation) * async_window(profile)
    # where NCCL runs vLLM's decode all-reduces: across NVLink domains, or over 8 GPUs inside one (vllm_tp_allreduce)
    tp_net = None if pool is None else vllm_tp_allreduce(tp, lay["dom"], nic, intra_p2p, ops)
    gen = generation_seconds(
        profile, arch=m.arch, params_total=float(m.params.total), active_params=float(m.params.active),
        seqs=seqs * k, tp=tp, peak_flops=peak16, eff=gen_eff, mem_bw=decode_bw, kv_pool_bytes=pool, ops=ops,
        detail=True, max_seqs=None if pool is None else (profile.max_num_seqs or max_seqs), n_rollouts=n_rollouts,
        tp_net=tp_net)
    refit = refit + lay.get("nemo_refit_tensors", 0.0) * NEMO_RL_REFIT_S_PER_TENSOR  # NeMo RL's, tensor by tensor
    # (the refit follows each generation batch's optimizer steps, not the async window: every step's weights go)
    refit = refit / float(profile.updates_per_generation)
    # the regenerated groups (regeneration_share r): the engines' time for 1 / (1 − r) of the kept rollouts, at the
    # same concurrency (open-instruct replenishes a filtered group's prompt, the in-flight pool stays s batches;
    # verl's filter_groups generates whole extra generation batches, num_gen_batches)
    k = k * (1.0 - profile.regeneration_share)
    return gen.seconds / k, gen.wait_longest / k, refit, scale_t, gen.net_allreduce / k


def async_window(profile) -> float:
    """Generation batches decoded together under ``schedule`` async: ``steps_in_flight`` (1 otherwise).

    Steady state of a two-stage pipeline (generation on its own GPUs, training on the rest) with s batches in
    flight: a step lasts the slower stage (the refit on top), not their sum. The tools bound how far generation
    runs ahead of training: open-instruct ``grpo_fast`` keeps ``async_steps`` steps of prompts queued to the vLLM
    actors and the learner takes whole groups from ``inference_results_Q`` in the order they finish
    (``data_loader.accumulate_inference_batches``, e6c3044a); NeMo RL's async GRPO keeps trajectories at most
    ``max_trajectory_age_steps`` old in its replay buffer; verl's fully_async_policy and AReaL bound the same lag
    (``staleness_threshold``, ``max_head_offpolicyness``). With continuous batching a finished sequence's slot takes
    the next batch's, so within a window of s batches only the last completion waits for the longest one (vLLM
    scheduler, :func:`methods.decode_steps`). open-instruct's vLLM actor sends a prompt's group once all its
    ``num_samples_per_prompt_rollout`` samples finish (``vllm_utils.accumulate_completions``) and refills a
    finished sample's slot from the prompt queue (``_prefetch_worker``); with ``inflight_updates`` (default true)
    the weight update does not drain the engine (``LLMRayActor.update_weights``): without it every step would wait
    for the longest completion in flight, which this schedule does not model."""
    return float(profile.steps_in_flight) if profile.schedule == "async" else 1.0


# ------------------------------------------------------------------------------------- one scenario

BREAKDOWN_KEYS = ("compute", "tp_comm", "dp_comm", "pp_bubble", "other")
#: Named mechanisms of the step, each inside one of the parts above (``TimeEstimate.parts``, seconds per step):
#: the breakdown shows them as their own shares, taken out of their parent's. ``lora_adapters``: the LoRA
#: adapter paths' memory traffic (flops.lora_traffic_elements), inside compute.
#: ``rollout_wait_longest``: decode steps after the mean completion length, waiting for the longest
#: (methods.generation_seconds); ``weight_refit``: the trained weights loaded into the inference engine every
#: step (:func:`_rollouts`); ``rollout_net_allreduce``: vLLM's decode all-reduces over NCCL where its engines span
#: nodes (:func:`methods.vllm_net_allreduce`); all three inside generation.
#: ``moe_dispatch``: MoE token permute/unpermute and router passes (:func:`_moe_terms`), inside compute.
#: ``dora_weight_norm``: DoRA's weight-norm passes (:func:`dora_terms`), inside compute.
#: ``ds_bf16_grad_accum``: DeepSpeed's BF16 optimizer adding each micro-batch's bf16 gradients into fp32 copies
#: (:data:`DS_BF16_HP_GRAD_BYTES`), inside compute.
#: ``launch_overhead``: eager PyTorch waiting for the host to issue kernels (EAGER_OPS_*), inside compute.
#: ``zero3_hooks``: the part of that wait due to DeepSpeed ZeRO-3's per-submodule hooks (core/zero3.py), inside compute.
#: ``moe_host_sync``: Megatron's dropless MoE layers waiting for the host to issue their kernels after each layer's
#: device-to-host sync (:func:`moe_host_seconds`), inside compute. ``moe_gemm_launch``: the fixed GPU cost of the
#: grouped experts' per-expert GEMM launches (:data:`MOE_GEMM_LAUNCH_S`) and FP8 quantisation kernels
#: (:func:`moe_quant_kernels`), inside compute. ``moe_wgrad_main_grad``: the experts' weight-gradient GEMMs' time
#: beyond their FLOPs where the fp32 ``main_grad`` accumulation binds on HBM (:func:`moe_wgrad_terms`), inside compute.
#: ``hf_moe_loop``:
#: Transformers' eager MoE block looping over the experts with a host sync each (core/hf_moe.py), inside compute.
#: ``cp_comm``: the context-parallel exchange left exposed (torch's all-gather ring: :func:`_torch_cp_exposure`;
#: Transformer Engine's ring: what the attention cannot cover), inside "other" (which the step's breakdown folds
#: it into), so a long-context plan names it rather than calling it optimizer time. ``ep_comm``: the expert
#: all-to-all left exposed, inside "other" too, for the same reason (an EP plan names it; the search's shares
#: ``frac_ep_comm`` already do, so the Plans details and the CLI name the same parts).
#: ``zero3_open_gathers``: DeepSpeed ZeRO-3's gathers issued at a hook with no matmul ahead (core/zero3.py
#: ``z3_open_gather_share``), left exposed, inside dp_comm. ``qlora_dequant``: QLoRA's dequantisation
#: (:func:`qlora_dequant_seconds`), inside "other" (not optimizer time). ``hf_eager_attention`` / ``sdpa_padded``:
#: the attention kernels' extras (:func:`attention_kernel_parts`), inside compute. ``nemo_rl_host_copies``: NeMo RL's
#: copies around the refit (:func:`nemo_rl_host_seconds`), carved out of ``optimizer_offload``, inside "other".
#: ``grace_host``: what a Grace host (:data:`HOST_CPU_FACTOR`) adds to the host waits above, inside compute; the
#: host-wait parts then read what an x86 host would leave (:func:`host_waits`). ``overlap_contention``: the compute
#: slowed by the hidden data-parallel collectives (:func:`overlap_contention_seconds`), inside compute.
PART_PARENT = {"lora_adapters": "compute", "dora_weight_norm": "compute", "ds_bf16_grad_accum": "compute", "moe_dispatch": "compute", "launch_overhead": "compute",
               "zero3_hooks": "compute", "fsdp1_lora_units": "compute", "fsdp1_lora_units_logprob": "compute",
               "moe_host_sync": "compute", "moe_gemm_launch": "compute", "moe_wgrad_main_grad": "compute",
               "hf_moe_loop": "compute",
               "cp_merge": "compute", "cp_comm": "other", "ep_comm": "other",
               "rollout_wait_longest": "generation", "weight_refit": "generation", "optimizer_offload": "other",
               "nemo_rl_refit_tensors": "generation",
               "rollout_net_allreduce": "generation",
               "pp_imbalance": "pp_bubble",
               "zero3_open_gathers": "dp_comm", "qlora_dequant": "other", "hf_eager_attention": "compute",
               "sdpa_padded": "compute", "nemo_rl_host_copies": "other", "rl_model_offload": "other", "grace_host": "compute",
               "overlap_contention": "compute", "fsdp1_grad_passes": "other"}
#: What the views call each named part (translatable: context "Timing"; the CLI, the Plans details and the PDF
#: look a breakdown key up here, as they do for the step's parts).
PART_LABELS = {
    "lora_adapters": QT_TRANSLATE_NOOP("Timing", "LoRA adapter passes"),
    "dora_weight_norm": QT_TRANSLATE_NOOP("Timing", "DoRA: the adapted weights' norm, every forward"),
    "ds_bf16_grad_accum": QT_TRANSLATE_NOOP("Timing", "DeepSpeed BF16 optimizer: gradients added into fp32 copies, every micro-batch"),
    "launch_overhead": QT_TRANSLATE_NOOP("Timing", "kernel launch overhead (eager PyTorch)"),
    "zero3_hooks": QT_TRANSLATE_NOOP("Timing", "DeepSpeed ZeRO-3 hooks on every submodule (host)"),
    "fsdp1_lora_units": QT_TRANSLATE_NOOP("Timing", "FSDP1 hooks on every LoRA weight (host)"),
    "fsdp1_lora_units_logprob": QT_TRANSLATE_NOOP("Timing", "FSDP1 hooks on every LoRA weight, log-prob pass (host)"),
    "moe_dispatch": QT_TRANSLATE_NOOP("Timing", "MoE token permute and router"),
    "moe_host_sync": QT_TRANSLATE_NOOP("Timing", "MoE layers waiting for the host (dispatcher sync)"),
    "moe_gemm_launch": QT_TRANSLATE_NOOP("Timing", "MoE per-expert kernels (GEMMs and FP8 casts, one set per expert)"),
    "moe_wgrad_main_grad": QT_TRANSLATE_NOOP(
        "Timing", "MoE weight gradients: few tokens per expert, the fp32 gradient buffer's traffic binds"),
    "hf_moe_loop": QT_TRANSLATE_NOOP("Timing", "MoE expert loop in Python (a host sync per expert)"),
    "cp_merge": QT_TRANSLATE_NOOP("Timing", "context parallel: merging the ring's partial attention"),
    "rollout_wait_longest": QT_TRANSLATE_NOOP("Timing", "rollouts: waiting for the longest completion"),
    "weight_refit": QT_TRANSLATE_NOOP("Timing", "rollouts: loading the new weights into the inference engine"),
    "nemo_rl_refit_tensors": QT_TRANSLATE_NOOP(
        "Timing", "NeMo RL refit: exporting and loading the weights one tensor at a time (host)"),
    "rollout_net_allreduce": QT_TRANSLATE_NOOP(
        "Timing", "rollouts: vLLM all-reduces between nodes (tensor parallelism wider than a node)"),
    "optimizer_offload": QT_TRANSLATE_NOOP("Timing", "CPU offload: optimizer step on the CPU and PCIe copies"),
    "pp_imbalance": QT_TRANSLATE_NOOP("Timing", "pipeline: waiting for the last stage (output layer)"),
    "zero3_open_gathers": QT_TRANSLATE_NOOP(
        "Timing", "DeepSpeed ZeRO-3: weight gathers with no matmul to hide under (exposed)"),
    "qlora_dequant": QT_TRANSLATE_NOOP("Timing", "QLoRA: dequantising the 4-bit weights"),
    "hf_eager_attention": QT_TRANSLATE_NOOP("Timing", "eager attention (Transformers): the whole score matrix"),
    "sdpa_padded": QT_TRANSLATE_NOOP("Timing", "padded batch: SDPA's memory-efficient kernel over the whole square"),
    "nemo_rl_host_copies": QT_TRANSLATE_NOOP("Timing", "NeMo RL: optimizer and weight copies to the host around the refit"),
    "rl_model_offload": QT_TRANSLATE_NOOP("Timing", "training model to CPU memory while vLLM generates, and back "
                                                    "(offload_model)"),
    "grace_host": QT_TRANSLATE_NOOP("Timing", "Grace host CPU: issuing kernels slower than an x86 server"),
    "overlap_contention": QT_TRANSLATE_NOOP("Timing", "compute slowed by the data-parallel collectives beside it"),
    "fsdp1_grad_passes": QT_TRANSLATE_NOOP(
        "Timing", "FSDP1: casting and dividing every gradient around its reduce-scatter (exposed)"),
}
#: What the views call every key of a step-time breakdown (``Evaluation.time.breakdown``): the step's parts and
#: the named parts above. The CLI, the Plans details and the PDF translate these (context "Timing"); one table, so
#: a new part needs one label.
BREAKDOWN_LABELS = {
    "compute": QT_TRANSLATE_NOOP("Timing", "compute"),
    "tp_comm": QT_TRANSLATE_NOOP("Timing", "tensor-parallel communication"),
    "dp_comm": QT_TRANSLATE_NOOP("Timing", "data-parallel / ZeRO communication"),
    "pp_bubble": QT_TRANSLATE_NOOP("Timing", "pipeline bubble"),
    "cp_comm": QT_TRANSLATE_NOOP("Timing", "context-parallel communication"),
    "ep_comm": QT_TRANSLATE_NOOP("Timing", "expert all-to-all"),
    "generation": QT_TRANSLATE_NOOP("Timing", "rollout generation (RL)"),
    "other": QT_TRANSLATE_NOOP("Timing", "optimizer step and other"),
    **PART_LABELS,
}
#: Communication that runs under compute (seconds per step), by part: not in the step time.
HIDDEN_KEYS = ("tp_comm", "dp_comm", "pp_p2p", "cp_comm", "ep_comm")
#: what the views call the communication that runs under compute (:attr:`TimeEstimate.hidden_shares`): the step's
#: own labels, and the pipeline's sends (their exposed part is inside the bubble)
#: the parts carved out of the rollouts (PART_PARENT "generation") in the few words a narrow view has room for (the
#: live panel: "of which waiting for the longest 10.1%, loading the weights 0.3%"); the CLI's and the PDF's rows name
#: the same parts with PART_LABELS, at the same percents (issue 35 round 16, ux25)
ROLLOUT_PART_SHORT = {
    "rollout_wait_longest": QT_TRANSLATE_NOOP("Timing", "waiting for the longest"),
    "weight_refit": QT_TRANSLATE_NOOP("Timing", "loading the weights"),
    "nemo_rl_refit_tensors": QT_TRANSLATE_NOOP("Timing", "NeMo RL per-tensor refit"),
    "rollout_net_allreduce": QT_TRANSLATE_NOOP("Timing", "all-reduces between nodes"),
}
#: the rollout schedules that generate while the training runs (timing: only the generation that outlasts it is
#: in the step; verl one_step_off_policy, OpenRLHF --async_train)
OVERLAPPED_SCHEDULES = ("one_step_off", "async")
#: the rollouts' row under those schedules (:attr:`TimeEstimate.breakdown_labels`)
GENERATION_EXPOSED_LABEL = QT_TRANSLATE_NOOP("Timing", "rollout generation the training does not hide (RL)")
HIDDEN_LABELS = {k: BREAKDOWN_LABELS[k] for k in HIDDEN_KEYS if k in BREAKDOWN_LABELS}
HIDDEN_LABELS["pp_p2p"] = QT_TRANSLATE_NOOP("Timing", "pipeline point-to-point sends")
SECONDS_PER_DAY = 86400.0


@dataclass(slots=True, frozen=True)
class TimeEstimate:
    """Time of one scenario. Shares are fractions of the step time."""

    flops_per_token: float  # model FLOPs (MFU definition), causal attention
    hardware_flops_per_token: float
    total_flops: float  # model FLOPs for data.tokens
    step_time_s: float
    tokens_per_step: float
    tokens_per_s_per_gpu: float
    tokens_per_s: float
    mfu: float
    hfu: float
    compute_days: float
    gpu_hours: float
    seconds: dict[str, float]  # per step: compute, tp_comm, dp_comm, pp_bubble, cp_comm, ep_comm, other
    efficiency: float  # modelled matmul efficiency (fraction of dense peak)
    links: dict[str, str]
    mfu_override: bool = False
    notes: list[str] = field(default_factory=list)
    #: seconds per step of communication hidden under compute (tp_comm, dp_comm, pp_p2p, cp_comm); the
    #: exposed rest is in ``seconds``
    hidden: dict[str, float] = field(default_factory=dict)
    #: the overlap switches in force (the scenario's, else the framework default: :func:`overlap_flags`)
    overlap: dict[str, bool] = field(default_factory=dict)
    #: the fused attention kernel in force (:func:`attention_kernel_in_force`): ``flash2``, ``cudnn``,
    #: ``mem_efficient`` (SDPA on a padded batch) or ``eager``
    attention_kernel: str = ""
    #: named mechanisms, seconds per step, each inside the part :data:`PART_PARENT` names (not added to the step)
    parts: dict[str, float] = field(default_factory=dict)
    #: the training passes' MFU (RL: without rollout generation; else the MFU): what the MFU grade reads
    mfu_training: float | None = None
    #: RL: the rollout schedule timed (``methods.MethodProfile.schedule``: on_policy | one_step_off | async); under
    #: the overlapped two only what outlasts the training is in ``seconds["generation"]`` (:func:`time_arrays`)
    rollout_schedule: str = ""

    @property
    def breakdown_labels(self) -> dict[str, str]:
        """:data:`BREAKDOWN_LABELS` for this estimate: under an overlapped rollout schedule the rollouts' row says
        it is what the training does not hide (the CLI, the Plans details and the PDF read this one table, so
        their rows agree; issue 35 round 16, ux25)."""
        if self.rollout_schedule in OVERLAPPED_SCHEDULES:
            return {**BREAKDOWN_LABELS, "generation": GENERATION_EXPOSED_LABEL}
        return BREAKDOWN_LABELS

    @property
    def communication(self) -> dict[str, dict[str, float]]:
        """Per communication part: seconds per step ``exposed`` (in the step time) and ``hidden`` under
        compute. ``pp_p2p`` is the pipeline's point-to-point sends (its exposed part is inside
        ``pp_bubble``)."""
        sec = self.seconds
        exposed = {"tp_comm": sec["tp_comm"], "dp_comm": sec["dp_comm"], "cp_comm": sec["cp_comm"],
                   "pp_p2p": self.p2p_s, "ep_comm": sec["ep_comm"]}
        return {k: {"exposed": exposed[k], "hidden": self.hidden.get(k, 0.0)} for k in HIDDEN_KEYS}

    p2p_s: float = 0.0  # exposed pipeline point-to-point sends (part of ``seconds["pp_bubble"]``)

    @property
    def hidden_shares(self) -> dict[str, float]:
        """Communication run under compute, as a share of the step (not in the step time; :data:`HIDDEN_KEYS`,
        named by :data:`HIDDEN_LABELS`): only the parts with some hidden time."""
        step = max(self.step_time_s, 1e-30)
        return {k: self.hidden[k] / step for k in HIDDEN_KEYS if self.hidden.get(k, 0.0) > 0.0}

    @property
    def breakdown(self) -> dict[str, float]:
        """Shares of the step: compute, tp_comm, dp_comm, pp_bubble, the context-parallel exchange and the expert
        all-to-all where the layout has them (each under its own label: folded into "optimizer step and other", a
        Mixtral EP 8 plan over RoCE read 41% "optimizer step and other" for its all-to-all), and other."""
        sec = self.seconds
        total = self.step_time_s if self.step_time_s > 0 else 1.0
        out = {"compute": sec["compute"] / total, "tp_comm": sec["tp_comm"] / total,
               "dp_comm": sec["dp_comm"] / total, "pp_bubble": sec["pp_bubble"] / total}
        # the context-parallel exchange and the expert all-to-all are named parts (PART_PARENT), carved out of
        # "other" by the loop below
        out["other"] = (sec["other"] + sec["cp_comm"] + sec["ep_comm"]) / total
        if "generation" in sec:
            out["generation"] = sec["generation"] / total
        for k, v in self.parts.items():
            parent = PART_PARENT[k]
            if v > 0.0 and parent in out:
                share = min(v / total, out[parent])
                out[parent] -= share
                out[k] = share
        return out

    @property
    def rollout_shares(self) -> tuple[float, dict[str, float]] | None:
        """An RL step's rollouts as shares of the step: the whole (``seconds["generation"]``: the generation left
        exposed, the refit included) and its named parts as :attr:`breakdown` gives them (the remainder
        ``generation`` and the parts :data:`PART_PARENT` carves out of it: waiting for the longest, loading the
        weights, …), so a view that states the whole names the same parts the CLI's and the PDF's rows do (the live
        panel read the remainder alone, 16% where the rollouts took 26%; issue 35 round 16, ux25). None: no RL."""
        if "generation" not in self.seconds:
            return None
        shares = self.breakdown
        keys = ["generation"] + [k for k, p in PART_PARENT.items() if p == "generation" and shares.get(k, 0.0) > 0.0]
        return sum(shares.get(k, 0.0) for k in keys), {k: shares.get(k, 0.0) for k in keys}

    @property
    def largest_overhead(self) -> tuple[str, float]:
        """The biggest non-compute share (name, fraction), for messages like "28% is PCIe all-reduce"."""
        total = self.step_time_s if self.step_time_s > 0 else 1.0
        items = [(k, v / total) for k, v in self.seconds.items() if k != "compute"]
        return max(items, key=lambda kv: kv[1])

    def to_json(self) -> dict:
        name, share = self.largest_overhead
        return {
            "flops_per_token": self.flops_per_token,
            "hardware_flops_per_token": self.hardware_flops_per_token,
            "total_flops": self.total_flops,
            "step_time_s": self.step_time_s,
            "tokens_per_step": self.tokens_per_step,
            "tokens_per_s_per_gpu": self.tokens_per_s_per_gpu,
            "tokens_per_s": self.tokens_per_s,
            "mfu": self.mfu,
            "hfu": self.hfu,
            "compute_days": self.compute_days,
            "gpu_hours": self.gpu_hours,
            "time_breakdown": {k: round(v, 6) for k, v in self.breakdown.items()},
            "time_seconds_per_step": {k: v for k, v in self.seconds.items()},
            "time_largest_overhead": {"part": name, "share": round(share, 6), "link": self.links.get(name, "")},
            "time_links": dict(self.links),
            "matmul_efficiency": self.efficiency,
            "mfu_override": self.mfu_override,
            "time_notes": list(self.notes),
            "time_communication": self.communication,
            "time_overlap": dict(self.overlap),
            "time_attention_kernel": self.attention_kernel,
            "time_parts": {k: {"seconds": v, "inside": PART_PARENT[k]} for k, v in self.parts.items()},
        }


def _scalar(x) -> float:
    if isinstance(x, (int, float)):
        return float(x)
    return float(np.asarray(x).reshape(-1)[0])


def _check_fp8_recipe_gpu(t: Any, gpu_id) -> None:
    """Refuse an FP8 recipe the GPU cannot run (:data:`fp8.RECIPE_GENERATIONS`: MXFP8 needs datacenter Blackwell)."""
    if t.precision != "fp8" or not t.fp8_recipe:
        return
    gens = fp8mod.RECIPE_GENERATIONS.get(t.fp8_recipe)
    if gens and gpu_generation(gpu_id) not in gens:
        raise CatalogError(MsgStr.make("Timing", QT_TRANSLATE_NOOP(
            "Timing", "FP8 recipe {recipe} needs a datacenter Blackwell GPU (B200, GB200); {gpu} cannot run it"),
            recipe=t.fp8_recipe, gpu=getattr(gpu_id, "gpu_id", gpu_id)))


#: Issue 35 round 17 (rlstep17): a vision-language model's vision encoder and projector in the step's FLOPs. The
#: memory model held their activations (``memory.memory_arrays``' ``vision_patches``) but the time model counted the
#: language model's linears only (``flops.forward_flops_per_token``: ``params.linear_active`` leaves the tower
#: out), so every ViT pass was free. The encoder runs each image's patches through every block, the projector each
#: merged token (transformers 00b676f8 ``Qwen2_5_VisionTransformerPretrainedModel.forward``: ``patch_embed``, the
#: blocks, ``merger``; LLaVA's ``multi_modal_projector`` per patch token): 2 FLOPs per parameter per patch (per
#: language-model token for the projector) in the forward. Trained (``training.freeze_vision`` /
#: ``freeze_projector`` off; EasyR1 ``freeze_vision_tower: false``) they run as the decoder layers do: forward,
#: backward at twice that, and the whole-layer recompute (``Qwen2_5_VLVisionBlock`` is a
#: ``GradientCheckpointingLayer``, 00b676f8); frozen, the forward alone (nothing before them needs a gradient). The
#: encoder's attention core is left out (Qwen2.5-VL: 28 of 32 blocks attend within 64-patch windows, about 2–3%
#: of the tower's FLOPs; Qwen2-VL's full attention over 1,296 patches adds about 17% to the tower).
def vision_tok_flops(arch, params, data, training, prof: MethodProfile, row_len: float) -> tuple[float, float]:
    """(trained, frozen) forward FLOPs of the vision encoder and projector per real language-model token:
    ``data.images_per_sample`` images of ``data.image_resolution`` (:func:`params.vision_tokens_per_image`) over
    the sample's real tokens (RL: its rollout row, ``row_len``; else ``data.mean_sample_len`` cut at ``seq_len``,
    or ``seq_len``). (0, 0) for a text model. :func:`time_layout` scales them by the rows' ``real_frac``."""
    n = float(getattr(data, "images_per_sample", 0.0) or 0.0)
    if not getattr(arch, "vision_kind", "") or n <= 0.0:
        return 0.0, 0.0
    patches, tokens = params_mod.vision_tokens_per_image(arch, data.image_resolution)
    vit = 2.0 * float(params.vision) * float(patches) * n
    proj = 2.0 * float(params.projector) * float(tokens) * n
    mean = getattr(data, "mean_sample_len", None)
    real = float(row_len) if prof.rl else min(float(mean or training.seq_len), float(training.seq_len))
    trained = (0.0 if training.freeze_vision else vit) + (0.0 if training.freeze_projector else proj)
    return trained / max(real, 1.0), (vit + proj - trained) / max(real, 1.0)


def time_kwargs(r: Any) -> tuple[dict, GpuTimeFacts]:
    """The fixed (per-scenario) arguments of :func:`time_arrays` and the GPU facts."""
    s = r.scenario
    t, h = s.training, s.hardware
    gf = gpu_time_facts(r.gpu, t.precision, intra_node=h.intra_node, inter_node=h.inter_node,
                        nics_per_node=h.nics_per_node, gpus_per_node=h.gpus_per_node)
    _check_fp8_recipe_gpu(t, gf)
    prof = method_profile(t)
    engine = _frameworks.engine_of(t.framework)
    shape = packed_row_shape(s, prof, sample_shape_of(s, prof))
    kw = dict(
        method=t.method, precision=t.precision, framework=engine, tool=t.framework, optimizer=t.optimizer,
        seq_len=shape.row_len, attn_len=shape.attn_len, real_frac=shape.real_frac, pad_single_len=shape.single_len,
        pad_len_cv=shape.spread_cv,
        pack_len=nemo_rl_pack_len(t, prof, engine),
        lora_rank=t.lora_rank, lora_targets=t.lora_targets, flash=t.flash_attention,
        fused=(engine == "megatron") or bool(getattr(t, "torch_compile", False))
        or _frameworks.tool_mechanics(t.framework, t.recompute, getattr(t, "liger_kernel", False))["fused"],
        lora_ops_fused=lora_ops_fused(t, engine),
        master_weights=t.master_weights, profile=prof,
        optimizer_in_backward=bool(getattr(t, "optimizer_in_backward", False)),
        gpu_memory_gib=float(getattr(r.gpu, "memory_gib", 0.0) or 0.0),
        vllm_max_num_seqs=vllm_default_max_num_seqs(r.gpu),
        vllm_profile_tokens=vllm_default_profile_tokens(r.gpu), vllm_nvlink=gf.intra_link == "nvlink",
        **{k: getattr(t, k) for k in OVERLAP_FIELDS},
        **gf.kwargs(t.precision),
        recompute_every_n=t.recompute_every_n, recompute_num_layers=t.recompute_num_layers,
        recompute_method=t.recompute_method, fp8_recipe=t.fp8_recipe, fp8_all_gather=t.fp8_all_gather,
        **attention_kwargs(engine, gf, getattr(t, "attention_kernel", "auto")),
        fsdp_version=int(getattr(t, "fsdp_version", 2)), torch_compile=bool(getattr(t, "torch_compile", False)),
        fsdp_root_embedding=bool(getattr(t, "fsdp_root_embedding", False)) and engine == "fsdp",
        optimizer_foreach=adamw_unfused(getattr(t, "optimizer_implementation", None), prof, engine),
        pipeline_mbs=getattr(t, "pipeline_microbatch_size", None),
        lora_dropout=_frameworks.lora_dropout_of(t),
        dora=bool(getattr(t, "dora", False)),
        lora_a2a=bool(getattr(t, "lora_a2a", False)),
        tp_comm_overlap_disable_qkv=bool(getattr(t, "tp_comm_overlap_disable_qkv", False)),
        kbit_fp32=_frameworks.kbit_upcast_applies(t.framework, t.method, getattr(t, "qlora_no_upcast", False)),
        expert_tp=getattr(s.parallel, "expert_tp", None),
        ep_domain=ep_domain_of(r.gpu, gf, h.gpus_per_node),
        ds_zero3_gather=getattr(t, "ds_zero3_gather", "flat"),
        ds_config_auto=getattr(t, "ds_config_auto", None),
        ds_bf16_grad_accum=getattr(t, "ds_bf16_grad_accum", None),
        moe_dispatcher=getattr(s.parallel, "moe_dispatcher", None),
        pp_account_edges=bool(getattr(s.parallel, "pp_account_embedding_loss", False)),
        checkpoint_reentrant=getattr(t, "checkpoint_reentrant", None),
        checkpoint_early_stop=getattr(t, "checkpoint_early_stop", None),
        cuda_graph_scope=getattr(s.parallel, "cuda_graph_scope", None),
        moe_capacity_factor=getattr(s.parallel, "moe_capacity_factor", None),
        moe_pad_to_capacity=bool(getattr(s.parallel, "moe_pad_to_capacity", False)),
        ep_a2a_overlap=bool(getattr(s.parallel, "ep_a2a_overlap", False)),
        recompute_modules=rc.megatron_modules(t),
        sdpa_mask=sdpa_masked(t, engine, gf),
        unfused_ce=megatron_unfused_ce(t, engine, prof),
        eager_ce_bytes=eager_ce_bytes(t, engine, prof),
        gpt_j_residual=bool(getattr(t, "gpt_j_residual", False)) and t.framework == "gpt-neox",
        rank_len_cv=_ri.rank_len_cv(t, prof, engine),
        lora_layer=lora_layer_of(t, engine),
        fsdp_lora_units=bool(getattr(t, "fsdp_lora_mixed_units", False)),
        no_autocast=bool(getattr(t, "mixed_precision_off", False)),
        vision_tok=vision_tok_flops(r.arch, r.params, s.data, t, prof, shape.row_len),
    )
    if t.tp_comm_overlap is None and getattr(s.parallel, "ep_a2a_overlap", False) \
            and gpu_generation(gf) in A2A_OVERLAP_NO_TP_OVERLAP_GENERATIONS:
        # Hopper and before: the EP all-to-all overlap wants CUDA_DEVICE_MAX_CONNECTIONS > 1, TE's TP overlap 1
        # (A2A_OVERLAP_NO_TP_OVERLAP_GENERATIONS); Megatron-Bridge keeps the all-to-all's, so the TP collectives wait
        kw["tp_comm_overlap"] = False
    if t.tp_comm_overlap is None and gf.intra_link != "nvlink":
        # Transformer Engine's TP communication overlap (Megatron --tp-comm-overlap: userbuffers) exchanges through
        # CUDA IPC peer memory inside the NVLink domain; cards joined by PCIe (GeForce: no P2P at all) run the TP
        # collectives through NCCL, exposed (issue 31: links as they are)
        kw["tp_comm_overlap"] = False
    cal = calibration_of(r, kw)
    if cal is not None:  # a run measured on this GPU (core/calibration.py)
        kw["gen_efficiency"] = kw["gen_efficiency"] * cal[1]
    return kw, gf


def titan_eager_loss(t: Any, prof: MethodProfile = SFT) -> bool:
    """Whether the step's loss is torchtitan's eager cross-entropy (:data:`TORCHTITAN_EAGER_CE_BYTES`): the
    torchtitan tool (framework ``fsdp``) with FSDP2 on a cross-entropy objective (not the RL trainers' log-probability
    losses, which verl computes with its own kernels), without ``liger_kernel`` (priced as Liger's fused loss
    as before) and the loss not compiled — no ``torch_compile``, or
    ``training.compile_loss`` False (torchtitan before bbb1b616, April 2025, compiled the blocks only). The same rule
    as the memory model's :func:`estimate.compile_loss_of` (``compile_loss`` None with compile: compiled)."""
    if getattr(t, "framework", None) != "fsdp" or int(getattr(t, "fsdp_version", 2)) != 2:
        return False
    if prof.objective != "sft" or getattr(t, "liger_kernel", False):
        return False  # Liger swaps the loss for its fused linear cross-entropy (the scenario's liger_kernel)
    if not getattr(t, "torch_compile", False):
        return True
    return getattr(t, "compile_loss", None) is False


def hf_eager_loss(t: Any, engine: str, prof: MethodProfile = SFT) -> bool:
    """Whether the step's loss is the Hugging Face model's own ``ForCausalLMLoss`` (:data:`HF_EAGER_CE_BYTES`): a
    tool on the HF Trainer (framework ``hf``, TRL, LLaMA-Factory, ms-swift's HF backend, Axolotl: their SFT and
    pre-training trainers call ``model(**inputs)`` with the labels and take ``outputs.loss``) on a cross-entropy
    objective (the preference and RL trainers compute log-probabilities with their own code), without
    ``liger_kernel`` (Liger's fused linear cross-entropy), Unsloth (Cut Cross-Entropy or its own Triton loss) or
    ``torch_compile`` (the loss runs inside the compiled forward since v4.46): the same rule as the ``fused`` flag."""
    if engine != "hf" or prof.objective != "sft" or getattr(t, "torch_compile", False):
        return False
    return not _frameworks.tool_mechanics(t.framework, t.recompute, getattr(t, "liger_kernel", False))["fused"]


def eager_ce_bytes(t: Any, engine: str, prof: MethodProfile = SFT) -> float:
    """Bytes per logit of the step's eager fp32 cross-entropy, by tool (0: the generic count of
    :func:`time_layout`): torchtitan's (:func:`titan_eager_loss`, :data:`TORCHTITAN_EAGER_CE_BYTES`), the Hugging
    Face model's (:func:`hf_eager_loss`, :data:`HF_EAGER_CE_BYTES`) plus the trainer's own reads of the logits for
    its logged metrics: TRL's ``SFTTrainer`` (:data:`TRL_SFT_METRIC_BYTES`), ms-swift (:data:`MS_SWIFT_ACC_BYTES`)."""
    if titan_eager_loss(t, prof):
        return TORCHTITAN_EAGER_CE_BYTES
    if hf_eager_loss(t, engine, prof):
        metrics = {"trl": TRL_SFT_METRIC_BYTES, "ms-swift": MS_SWIFT_ACC_BYTES}.get(t.framework, 0.0)
        return HF_EAGER_CE_BYTES + metrics
    return 0.0


def megatron_unfused_ce(t: Any, engine: str, prof: MethodProfile) -> bool:
    """Whether the step's loss is Megatron-Core's unfused vocab-parallel cross-entropy
    (:data:`MEGATRON_UNFUSED_CE_BYTES`): a Megatron-Core tool whose ``cross_entropy_loss_fusion`` is off
    (``training.fused_cross_entropy``, else the tool's default: :func:`frameworks.fused_cross_entropy_of`), on the
    loss the model computes itself (``compute_language_model_loss``: :func:`frameworks.megatron_ce_fused`, the rule the
    memory model reads too); the other trainers take log-probabilities from the logits with their own code."""
    if engine != "megatron":
        return False
    return _frameworks.megatron_ce_fused(t.framework, prof.objective, getattr(t, "fused_cross_entropy", None)) is False


def attention_kernel_in_force(s: Any, gpu_id) -> str:
    """The attention kernel a scenario's micro-batch runs: ``eager`` with flash attention off, ``mem_efficient``
    where SDPA gets a padded batch's mask and the flash backend refuses it (:func:`sdpa_masked` at the scenario's
    micro-batch), else
    :func:`attention_kernel`."""
    t = s.training
    if not t.flash_attention:
        return "eager"
    engine = _frameworks.engine_of(t.framework)
    prof = method_profile(t)
    padded = (sample_shape_of(s, prof).single_len is not None
              and t.micro_batch_size * prof.seqs_per_example > 1)
    masked = sdpa_masked(t, engine, gpu_id)
    if padded and masked is not None:
        return masked
    return attention_kernel(engine, gpu_generation(gpu_id), getattr(t, "attention_kernel", "auto"))


def sdpa_masked(t: Any, engine: str, gpu_id) -> str | None:
    """The SDPA backend a padded micro-batch's mask lands on (:func:`hf_sdpa_masked_core`), or None where no mask
    reaches SDPA. A mask reaches it from Hugging Face modelling code (:data:`HF_EAGER_ENGINES`, not Unsloth's own
    kernels) with ``flash_attention`` on through ``attn_implementation="sdpa"`` (Transformers' default), with samples
    padded to the batch's longest (neither packing nor padding-free; the layout's micro-batch decides). The flash
    backend refuses the mask; PyTorch's cuDNN backend takes it (``can_use_cudnn_attention`` checks only
    ``check_attn_mask_shape``, pytorch ``cuda/sdp_utils.cpp`` at 001f694), so where :func:`attention_kernel` is
    ``cudnn`` the mask runs there (``cudnn``: the whole square at cuDNN's rate); where it is ``flash2`` (SDPA's
    default order) the next backend, the memory-efficient kernel, runs it (``mem_efficient``)."""
    if not (t.flash_attention and getattr(t, "attn_implementation", "sdpa") == "sdpa"):
        return None
    if engine not in HF_EAGER_ENGINES or t.framework == "unsloth":
        return None
    if bool(getattr(t, "packing", False)) or bool(getattr(t, "padding_free", False)):
        return None
    kernel = attention_kernel(engine, gpu_generation(gpu_id), getattr(t, "attention_kernel", "auto"))
    return "cudnn" if kernel == "cudnn" else "mem_efficient"


def vllm_default_max_num_seqs(gpu: Any) -> float:
    """vLLM's default cap on concurrent sequences for an ``LLM`` engine (``max_num_seqs``): 1024 on GPUs with
    at least 70 GiB whose name does not say A100, else 256 (vllm ``engine/arg_utils.py``
    ``EngineArgs.get_batch_defaults``, UsageContext.LLM_CLASS; "large max_num_batched_tokens on A100 reduces
    throughput", vLLM PR #17885). ``training.rl.max_num_seqs`` overrides it (verl rollout.yaml sets 256; TRL sets
    every rollout of a generation batch, ``per_device_train_batch_size × vllm_tensor_parallel_size ×
    steps_per_generation``)."""
    mem = float(getattr(gpu, "memory_gib", 0.0) or 0.0)
    name = f"{getattr(gpu, 'id', '')} {getattr(gpu, 'name', '')}".lower()
    return 1024.0 if mem >= 70.0 and "a100" not in name else 256.0


def vllm_default_profile_tokens(gpu: Any) -> float:
    """The ``LLM`` class's ``max_num_batched_tokens`` on ``gpu`` (:data:`serving_facts.VLLM_LLM_CLASS_BUDGET`: 16,384
    where :func:`vllm_default_max_num_seqs` gives 1,024 sequences, else 8,192): the tokens of vLLM's profile run."""
    return float(VLLM_LLM_CLASS_BUDGET[vllm_default_max_num_seqs(gpu) >= 1024.0][0])


def ep_domain_of(gpu: Any, gf: GpuTimeFacts, gpus_per_node: int) -> int | None:
    """The GPUs one NVLink domain joins where it spans more than a node (GB200 NVL72: 72, catalogue
    ``nvlink_domain``) and the scenario's link is NVLink; None otherwise (the node is the domain).

    Only a rack-scale domain spans servers: one larger than the card's own server (catalogue ``gpus_per_node``;
    :func:`catalog_hw.domain_beyond_server`, the rule advisor.nvlink_domain's fabric check reads too). An HGX/DGX
    board's NVSwitches join its own 8 GPUs (catalogue ``nvlink_domain`` 8 = its ``gpus_per_node``) and no GPU of another server: servers of
    2 or 4 such GPUs (QwenLM/Qwen README @2df8e8a, "two servers, each containing two A100-SXM4-80G GPUs") talk over
    their network, not NVLink (issue 35 round 14; before, a scenario's ``gpus_per_node`` below 8 made the board's 8
    one domain across servers, and its data-parallel traffic ignored ``hardware.inter_node``)."""
    dom = C.domain_beyond_server(gpu)
    return dom if gf.intra_link == "nvlink" and dom > int(gpus_per_node) else None


def sample_shape_of(s: Any, prof: MethodProfile) -> F.SampleShape:
    """The rows of a scenario's micro-batches (:func:`flops.sample_shape`): ``data.mean_sample_len`` with
    ``training.packing``/``padding_free``; RL objectives keep their rollout's own sequence (core/methods.py)."""
    t = s.training
    if prof.rl:
        n = float(prof.padded_row_len)  # padded rows: the prompt padded as the tool pads it + rollout_len
        if bool(getattr(t, "padding_free", False)) or bool(getattr(t, "packing", False)):
            # rollouts flattened without padding (verl ``use_remove_padding`` + ``use_dynamic_bsz``; OpenRLHF
            # ``--packing_samples``): the training passes run the prompt and the mean completion only
            n = float(prof.prompt_len + prof.mean_response_fraction * prof.rollout_len)
        return F.SampleShape(n, n, 1.0)
    shape = F.sample_shape(t.seq_len, getattr(s.data, "mean_sample_len", None), bool(getattr(t, "packing", False)),
                           bool(getattr(t, "padding_free", False)), bool(t.flash_attention),
                           getattr(s.data, "sample_len_std", None))
    if shape.single_len is not None and bool(getattr(t, "pad_to_seq_len", False)):
        # every row padded to seq_len whatever the micro-batch (Axolotl ``pad_to_sequence_len``: the collator's
        # ``pad_to_multiple_of`` = sequence_len, axolotl ``core/builders/causal.py``): an unbounded spread
        shape = _replace(shape, spread_cv=math.inf)
    return shape


def packed_row_shape(s: Any, prof: MethodProfile, shape: F.SampleShape) -> F.SampleShape:
    """The time model's rows where the tool packs whole samples without padding the row (core/packing.py: ms-swift's
    and TRL's ``bfd`` best-fit packing in groups of 1000): each row runs its samples' sum, ``packed_row_fill`` ×
    seq_len, not seq_len.
    Peak memory keeps the full row (the fullest packed row reaches seq_len), so only the time model reads this."""
    t = s.training
    mean = getattr(s.data, "mean_sample_len", None)
    if prof.rl or not bool(getattr(t, "packing", False)) or mean is None:
        return shape
    std = getattr(s.data, "sample_len_std", None)
    cv = F.DEFAULT_SAMPLE_LEN_CV if std is None else float(std) / float(mean)
    fill = _packing.packed_row_fill(t.framework, mean, cv, float(t.seq_len))
    return shape if fill >= 1.0 else _replace(shape, row_len=shape.row_len * fill)


def calibration_of(r: Any, kw: dict | None = None) -> tuple[Any, float] | None:
    """The measured run that calibrates this scenario's GPU and its matmul-efficiency factor ``k``: the model,
    run at the measured layout (GPU count, nodes, TP/PP, ZeRO, framework; the plan's model, sequence, micro-batch
    and recompute), reproduces the measured MFU (:func:`calibration.efficiency_factor`). None without one."""
    run = calibration.pick(r.scenario, r.gpu.id)
    if run is None:
        return None
    s = r.scenario
    t, p = s.training, s.parallel
    if kw is None:
        kw = time_kwargs_uncalibrated(r)
    fw = run.framework or t.framework
    base = {**kw, "framework": fw, "fused": fw == "megatron" or bool(getattr(t, "torch_compile", False)),
            **attention_kwargs(_frameworks.engine_of(fw), r.gpu, getattr(t, "attention_kernel", "auto"))}
    gpn = max(1, run.num_gpus // run.nodes)

    def model_mfu(k: float) -> float:
        out = time_arrays(
            r.facts, **{**base, "gen_efficiency": base["gen_efficiency"] * k}, tp=run.tp, pp=run.pp, cp=1, ep=1,
            dp=run.num_gpus // (run.tp * run.pp), zero=p.zero if run.zero is None else run.zero,
            recompute=RECOMPUTE_CODES[t.recompute], mbs=t.micro_batch_size, sp=run.tp > 1, grad_accum=1, vpp=1,
            num_gpus=run.num_gpus, gpus_per_node=gpn, offload=False, mfu=None)
        return _scalar(out["mfu"])

    # the cap (the A100's MAMF share of its figure) moves with a GeForce card's own measured share of its figure
    # (sustained_clock_factor): a 4090 may be calibrated up to 0.87 x 1.26 of its 165.2, not held under the default
    return run, calibration.efficiency_factor(run.mfu, model_mfu,
                                              base["gen_efficiency"] / sustained_clock_factor(
                                                  r.gpu, r.scenario.training.precision))


def time_kwargs_uncalibrated(r: Any) -> dict:
    """:func:`time_kwargs` without a measured run's calibration."""
    s = r.scenario
    if not getattr(s.assumptions, "measured_runs", None):
        return time_kwargs(r)[0]
    bare = s.model_copy(update={"assumptions": s.assumptions.model_copy(update={"measured_runs": []})})
    return time_kwargs(_replace(r, scenario=bare))[0]


def time_estimate(r: Any) -> TimeEstimate:
    """Time of one resolved scenario (:class:`estimate.Resolved`), through :func:`time_arrays`."""

    s = r.scenario
    p, t, h = s.parallel, s.training, s.hardware
    kw, gf = time_kwargs(r)
    out = time_arrays(
        r.facts, **kw, tp=p.tp, pp=p.pp, cp=p.cp, ep=p.ep, dp=s.dp, zero=p.zero,
        recompute=RECOMPUTE_CODES[t.recompute], mbs=t.micro_batch_size, sp=p.sequence_parallel and p.tp > 1,
        grad_accum=s.grad_accum, vpp=p.vpp, num_gpus=h.num_gpus, gpus_per_node=h.gpus_per_node,
        offload=p.offload_optimizer or p.offload_params, offload_params=p.offload_params, mfu=s.assumptions.mfu,
    )
    step = _scalar(out["step"])
    tps_gpu = _scalar(out["tokens_per_s_per_gpu"])
    tps = tps_gpu * h.num_gpus
    tokens = float(s.data.tokens)
    days = tokens / tps / SECONDS_PER_DAY if tps > 0 else float("inf")
    fpt = _scalar(out["model_flops_per_token"])
    seconds = {k: _scalar(out[k]) for k in ("compute", "tp_comm", "dp_comm", "pp_bubble", "cp_comm", "ep_comm",
                                            "other")}
    if kw["profile"].rl:
        seconds["generation"] = _scalar(out["generation"])  # RL rollouts (core/methods.generation_seconds)
    hidden = {k: _scalar(out[k[:2] + "_hidden"]) for k in HIDDEN_KEYS}
    parts = {k: _scalar(out[k]) for k in PART_PARENT if _scalar(out[k]) > 0.0}
    overlap = {k: bool(_scalar(out[k])) for k in OVERLAP_FIELDS}
    inter = f"{gf.inter_node} ×{gf.nics_per_node:g}/node"
    span = nvlink_span(h.gpus_per_node, ep_domain_of(r.gpu, gf, h.gpus_per_node))
    multi = h.num_gpus > span
    links = {
        "compute": "", "other": "", "generation": "",
        "tp_comm": gf.intra_link if p.tp <= span else inter,
        "dp_comm": inter if (multi and p.tp * p.cp * s.dp > span) else gf.intra_link,
        "pp_bubble": inter if multi else gf.intra_link,
        "cp_comm": gf.intra_link if p.tp * p.cp <= span else inter,
        "ep_comm": gf.intra_link if p.tp * p.ep * p.cp <= (ep_domain_of(r.gpu, gf, h.gpus_per_node)
                                                           or h.gpus_per_node) else inter,
    }
    return TimeEstimate(
        flops_per_token=fpt, hardware_flops_per_token=_scalar(out["hardware_flops_per_token"]),
        total_flops=fpt * tokens, step_time_s=step, tokens_per_step=_scalar(out["tokens_per_step"]),
        tokens_per_s_per_gpu=tps_gpu, tokens_per_s=tps, mfu=_scalar(out["mfu"]), hfu=_scalar(out["hfu"]),
        compute_days=days, gpu_hours=days * 24.0 * h.num_gpus, seconds=seconds,
        efficiency=_scalar(out["efficiency"]), links=links, mfu_override=s.assumptions.mfu is not None,
        notes=list(gf.notes), hidden=hidden, overlap=overlap, p2p_s=_scalar(out["pp_p2p"]), parts=parts,
        mfu_training=_scalar(out["mfu_training"]),
        attention_kernel=attention_kernel_in_force(s, gf),
        rollout_schedule=kw["profile"].schedule if kw["profile"].rl else "",
    )

