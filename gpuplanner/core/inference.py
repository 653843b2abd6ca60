"""Serving sizing: how many GPUs of a type serve ``concurrency`` users at a context length and a latency target,
and what a million generated tokens costs there. Pure functions (values in, values out).

Mechanism (the roofline of autoregressive decoding; Pope et al. 2022, "Efficiently Scaling Transformer
Inference", arXiv:2211.05102, §2-3; Kwon et al. 2023, "Efficient Memory Management for Large Language Model
Serving with PagedAttention" (vLLM), arXiv:2309.06180, §2-3):

* **Weights** at the serving precision: ``params × bytes`` — bf16 2 B, fp8 and int8 1 B, int4 0.5 B (the
  weight-only formats of vLLM's quantization docs, docs.vllm.ai/en/latest/features/quantization/, and
  TensorRT-LLM's ``W8A16``/``W4A16``/FP8 modes, nvidia.github.io/TensorRT-LLM/reference/precision.html).
* **KV cache** per token: ``2 × layers × kv_heads × head_dim × bytes`` (K and V of every layer; grouped-query
  attention stores ``kv_heads`` heads, Ainslie et al. 2023 arXiv:2305.13245); multi-head latent attention stores
  ``(kv_lora_rank + qk_rope_head_dim)`` values per layer (DeepSeek-V2, arXiv:2405.04434 §2.1.2). The KV cache is
  16-bit unless fp8 is chosen (vLLM ``--kv-cache-dtype fp8``; TensorRT-LLM FP8 KV cache).
* **Memory budget**: the serving engine takes ``gpu_memory_utilization`` = 0.90 of the card (vLLM's default,
  docs.vllm.ai engine arguments; TensorRT-LLM's ``kv_cache_free_gpu_mem_fraction`` default 0.90) for weights,
  activations and KV cache; what the weights leave is KV cache, allocated in pages as requests grow
  (PagedAttention), so a replica holds ``floor(KV bytes / (context × KV per token))`` users at full context.
* **Decode step** (one token for each of ``B`` running requests): reads the weights once and each request's
  KV cache, and does ``2 × active params`` FLOPs per token plus attention ``4 × layers × heads × head_dim ×
  context`` (Kaplan et al. 2020 arXiv:2001.08361 Table 1, forward pass):
  ``t = max(bytes / (BW × η_mem), flops / (peak × η_flop))`` — whichever roof is lower binds (Pope et al. §3).
* **Prefill** of a ``prompt`` of ``P`` tokens is compute bound: ``2 × N × P / (peak × η_flop)``; with
  continuous batching (Yu et al. 2022, Orca, OSDI) each request's prefill is paid once per ``output`` tokens,
  so a replica's output tokens/s is ``B / (t(B) + B × t_prefill / output)``.
* **Latency target**: a user who must see ``r`` tokens/s needs ``t(B) ≤ 1/r``; the batch is the largest that
  meets it and fits in memory. Tensor parallelism over ``tp`` cards of one node divides weights, KV and both
  roofs (Shoeybi et al. 2019, Megatron-LM; the all-reduce cost is left out: NVLink inside one node).

Efficiencies (settings, :class:`ServingEfficiency`): ``η_mem`` = 0.6 of peak HBM bandwidth — the model bandwidth
utilisation Databricks/MosaicML measured for 7B decoding on A100/H100 ("LLM Inference Performance Engineering:
Best Practices", databricks.com/blog, Oct 2023: MBU about 60% at small batch); ``η_flop`` = 0.5 of the dense
peak at the serving precision — an assumption at the top of the planning guide's 40–55% "good" MFU band.
``docs/validation_inference.md`` compares the result with TensorRT-LLM's published throughput tables.
"""

from __future__ import annotations

import math
from dataclasses import field
from typing import Any, Literal

from dataclasses import dataclass
from .i18n import QT_TRANSLATE_NOOP
from .messages import Msg

CTX = "Inference"

ServingPrecision = Literal["bf16", "fp8", "int8", "int4"]
#: bytes per weight at each serving precision (module docstring)
WEIGHT_BYTES = {"bf16": 2.0, "fp8": 1.0, "int8": 1.0, "int4": 0.5}
#: bytes per KV-cache element: fp8 KV with fp8 serving, else 16-bit
KV_BYTES = {"bf16": 2.0, "fp8": 1.0}
GPU_MEMORY_UTILIZATION = 0.90  # vLLM default gpu_memory_utilization; TensorRT-LLM kv_cache_free_gpu_mem_fraction
GIB = 1024.0 ** 3


@dataclass(slots=True, frozen=True)
class ServingEfficiency:
    """Achieved fractions of the roofs (module docstring for the sources)."""

    memory_bandwidth: float = 0.6  # Databricks/MosaicML 2023, MBU ~60%
    compute: float = 0.5  # assumption: top of the guide's 40-55% MFU band
    activation_reserve_gib: float = 1.0  # assumption: activations and CUDA graphs of the serving engine


@dataclass(slots=True, frozen=True)
class ServingModel:
    """What serving needs to know about a model (from :class:`architecture.ModelArch` and its parameter count)."""

    name: str
    params_total: float
    params_active: float
    num_layers: int
    num_heads: int
    num_kv_heads: int
    head_dim: int
    kv_lora_rank: int = 0
    qk_rope_head_dim: int = 0

    @classmethod
    def of(cls, arch: Any, params: Any) -> "ServingModel":
        return cls(name=str(arch.name), params_total=float(params.total), params_active=float(params.active),
                   num_layers=int(arch.num_layers), num_heads=int(arch.num_heads),
                   num_kv_heads=int(arch.num_kv_heads), head_dim=int(arch.head_dim),
                   kv_lora_rank=int(getattr(arch, "kv_lora_rank", 0) or 0),
                   qk_rope_head_dim=int(getattr(arch, "qk_rope_head_dim", 0) or 0))


def kv_bytes_per_token(m: ServingModel, kv_bytes: float) -> float:
    """K and V of every layer for one token (MLA: the compressed latent and the RoPE key)."""
    if m.kv_lora_rank > 0:
        return m.num_layers * (m.kv_lora_rank + m.qk_rope_head_dim) * kv_bytes
    return 2.0 * m.num_layers * m.num_kv_heads * m.head_dim * kv_bytes


def weight_bytes(m: ServingModel, precision: str) -> float:
    return m.params_total * WEIGHT_BYTES[precision]


def kv_precision_for(precision: str, kv_precision: str | None = None) -> str:
    """The KV-cache precision: the user's, else fp8 with fp8 weights and 16-bit otherwise."""
    if kv_precision:
        return kv_precision
    return "fp8" if precision == "fp8" else "bf16"


def peak_flops(gpu: Any, precision: str) -> float | None:
    """Dense tensor FLOP/s for the matrix products: fp8 (and int8: the same tensor-core rate on Hopper/Ada) at
    the fp8 rate where the card has one; weight-only int4 dequantises to 16-bit (bf16 rate)."""
    if precision in ("fp8", "int8") and getattr(gpu, "fp8_tflops", None):
        return float(gpu.fp8_tflops) * 1e12
    v = getattr(gpu, "bf16_tflops", None) or getattr(gpu, "fp16_tflops", None)
    return None if not v else float(v) * 1e12


@dataclass(slots=True, frozen=True)
class ReplicaPoint:
    """One serving replica of ``tp`` cards at batch ``batch``."""

    tp: int
    batch: int
    max_batch_memory: int
    step_s: float
    prefill_s: float
    output_tokens_per_s: float  # per replica
    bound: str  # "memory" | "compute"
    memory_per_gpu_gib: float  # weights + KV cache at this batch + reserve, per card


def decode_step_s(m: ServingModel, gpu: Any, *, precision: str, kv_bytes: float, batch: float, context: float,
                  tp: int, eff: ServingEfficiency) -> tuple[float, str]:
    """Seconds of one decode step for ``batch`` requests with ``context`` tokens each (module docstring)."""
    bw = float(gpu.mem_bw_tbs) * 1e12 * eff.memory_bandwidth * tp
    peak = (peak_flops(gpu, precision) or 0.0) * eff.compute * tp
    read = weight_bytes(m, precision) + batch * context * kv_bytes_per_token(m, kv_bytes)
    flops = batch * (2.0 * m.params_active + 4.0 * m.num_layers * m.num_heads * m.head_dim * context)
    t_mem = read / bw
    t_cmp = flops / peak if peak > 0 else math.inf
    return (t_mem, "memory") if t_mem >= t_cmp else (t_cmp, "compute")


def prefill_s(m: ServingModel, gpu: Any, *, precision: str, prompt: float, tp: int, eff: ServingEfficiency) -> float:
    peak = (peak_flops(gpu, precision) or 0.0) * eff.compute * tp
    flops = 2.0 * m.params_active * prompt + 2.0 * m.num_layers * m.num_heads * m.head_dim * prompt * prompt
    return flops / peak if peak > 0 else math.inf


def max_batch_by_memory(m: ServingModel, gpu: Any, *, precision: str, kv_bytes: float, context: float, tp: int,
                        eff: ServingEfficiency) -> int:
    cap = float(gpu.memory_gib or 0.0) * GIB * GPU_MEMORY_UTILIZATION * tp
    free = cap - weight_bytes(m, precision) - eff.activation_reserve_gib * GIB * tp
    per_req = max(context, 1.0) * kv_bytes_per_token(m, kv_bytes)
    return max(0, int(free // per_req)) if free > 0 else 0


def replica(m: ServingModel, gpu: Any, *, precision: str, kv_precision: str | None, context: float, prompt: float,
            output: float, tp: int, tokens_per_s_per_user: float | None, max_batch: int | None = None,
            eff: ServingEfficiency = ServingEfficiency()) -> ReplicaPoint | None:
    """The largest batch a ``tp``-card replica runs within memory and the latency target (None: not even one
    request). ``context`` is the KV each request holds on average (prompt plus the output generated so far)."""
    if not gpu.mem_bw_tbs or not gpu.memory_gib or peak_flops(gpu, precision) is None:
        return None
    kvb = KV_BYTES[kv_precision_for(precision, kv_precision)]
    b_mem = max_batch_by_memory(m, gpu, precision=precision, kv_bytes=kvb, context=context, tp=tp, eff=eff)
    b = b_mem if max_batch is None else min(b_mem, int(max_batch))
    if b < 1:
        return None
    if tokens_per_s_per_user:
        target = 1.0 / float(tokens_per_s_per_user)
        # step time grows with the batch: the largest batch meeting the target (bisection on integers)
        lo, hi = 0, b
        while lo < hi:
            mid = (lo + hi + 1) // 2
            t, _ = decode_step_s(m, gpu, precision=precision, kv_bytes=kvb, batch=mid, context=context, tp=tp, eff=eff)
            if t <= target:
                lo = mid
            else:
                hi = mid - 1
        b = lo
        if b < 1:
            return None
    t, bound = decode_step_s(m, gpu, precision=precision, kv_bytes=kvb, batch=b, context=context, tp=tp, eff=eff)
    pre = prefill_s(m, gpu, precision=precision, prompt=prompt, tp=tp, eff=eff)
    tps = b / (t + b * pre / max(output, 1.0))
    mem = (weight_bytes(m, precision) / tp + b * context * kv_bytes_per_token(m, kvb) / tp) / GIB \
        + eff.activation_reserve_gib
    return ReplicaPoint(tp=tp, batch=b, max_batch_memory=b_mem, step_s=t, prefill_s=pre, output_tokens_per_s=tps,
                        bound=bound, memory_per_gpu_gib=mem)


@dataclass(slots=True, frozen=True)
class ServingSize:
    """How one GPU type serves the load: replicas of ``tp`` cards, ``num_gpus`` in all."""

    gpu_id: str
    gpu_name: str
    precision: str
    kv_precision: str
    concurrency: int
    context_tokens: int
    tokens_per_s_per_user: float | None
    tp: int
    batch_per_replica: int
    replicas: int
    num_gpus: int
    gpus_per_node: int
    weights_gib: float
    kv_cache_gib_per_request: float
    memory_per_gpu_gib: float
    step_s: float
    prefill_s: float
    bound: str
    tokens_per_s_per_gpu: float  # output tokens at full load
    tokens_per_s: float  # all replicas
    messages: tuple[Msg, ...] = field(default_factory=tuple)

    def to_json(self) -> dict:
        out = {k: getattr(self, k) for k in self.__dataclass_fields__ if k != "messages"}
        out["messages"] = [m.render() for m in self.messages]
        return out


def size_serving(m: ServingModel, gpu: Any, *, concurrency: int, context_tokens: int, prompt_tokens: int,
                 output_tokens: int, precision: str = "bf16", kv_precision: str | None = None,
                 tokens_per_s_per_user: float | None = 20.0, gpus_per_node: int | None = None,
                 eff: ServingEfficiency = ServingEfficiency()) -> ServingSize | None:
    """The fewest cards of ``gpu`` that serve ``concurrency`` users: the smallest tensor-parallel group (1, 2,
    4 … up to the node) at which a replica meets the latency target, then as many replicas as the users need.
    The KV cache is reserved at the average context (prompt + half the output), PagedAttention's allocation
    as a request grows. None when no group inside one node can serve one user."""
    slots = int(gpus_per_node or gpu.gpus_per_node or 8)
    avg_ctx = min(float(context_tokens), float(prompt_tokens) + float(output_tokens) / 2.0)
    tp = 1
    while tp <= slots:
        if m.num_heads % tp == 0:
            rp = replica(m, gpu, precision=precision, kv_precision=kv_precision, context=avg_ctx,
                         prompt=prompt_tokens, output=output_tokens, tp=tp, tokens_per_s_per_user=tokens_per_s_per_user,
                         eff=eff)
            if rp is not None:
                b = min(rp.batch, concurrency)
                if b < rp.batch:
                    rp = replica(m, gpu, precision=precision, kv_precision=kv_precision, context=avg_ctx,
                                 prompt=prompt_tokens, output=output_tokens, tp=tp, tokens_per_s_per_user=None,
                                 max_batch=b, eff=eff)
                replicas = -(-concurrency // rp.batch)
                kvp = kv_precision_for(precision, kv_precision)
                msgs: list[Msg] = []
                if precision in ("int8", "int4"):
                    msgs.append(Msg(CTX, QT_TRANSLATE_NOOP(
                        CTX, "{p} weights: check the quality on your own evaluation set before serving."),
                        {"p": precision}))
                return ServingSize(
                    gpu_id=gpu.id, gpu_name=gpu.name, precision=precision, kv_precision=kvp, concurrency=concurrency,
                    context_tokens=int(context_tokens), tokens_per_s_per_user=tokens_per_s_per_user, tp=tp,
                    batch_per_replica=rp.batch, replicas=replicas, num_gpus=replicas * tp, gpus_per_node=slots,
                    weights_gib=weight_bytes(m, precision) / GIB,
                    kv_cache_gib_per_request=avg_ctx * kv_bytes_per_token(m, KV_BYTES[kvp]) / GIB,
                    memory_per_gpu_gib=rp.memory_per_gpu_gib, step_s=rp.step_s, prefill_s=rp.prefill_s,
                    bound=rp.bound, tokens_per_s_per_gpu=rp.output_tokens_per_s / tp,
                    tokens_per_s=rp.output_tokens_per_s * replicas, messages=tuple(msgs))
        tp *= 2
    return None


def max_throughput_per_gpu(m: ServingModel, gpu: Any, *, prompt_tokens: int, output_tokens: int, precision: str,
                           kv_precision: str | None = None, tp: int = 1, max_batch: int | None = None,
                           eff: ServingEfficiency = ServingEfficiency()) -> float | None:
    """Output tokens/s per GPU under maximum load (no latency target: the batch memory allows) — what
    TensorRT-LLM's ``trtllm-bench throughput`` tables report (docs/validation_inference.md)."""
    avg_ctx = float(prompt_tokens) + float(output_tokens) / 2.0
    rp = replica(m, gpu, precision=precision, kv_precision=kv_precision, context=avg_ctx, prompt=prompt_tokens,
                 output=output_tokens, tp=tp, tokens_per_s_per_user=None, max_batch=max_batch, eff=eff)
    return None if rp is None else rp.output_tokens_per_s / tp


def static_batch_tokens_per_s_per_gpu(m: ServingModel, gpu: Any, *, batch: int, prompt_tokens: int,
                                      output_tokens: int, precision: str, kv_precision: str | None = None,
                                      tp: int = 1, eff: ServingEfficiency = ServingEfficiency()) -> float:
    """Output tokens/s per GPU of one static batch (all ``batch`` prompts prefilled, then ``output_tokens``
    decode steps at the average context): what TensorRT-LLM's ``gptSessionBenchmark`` measured for its
    v0.6.1 tables at a stated batch size (docs/validation_inference.md)."""
    kvb = KV_BYTES[kv_precision_for(precision, kv_precision)]
    pre = batch * prefill_s(m, gpu, precision=precision, prompt=prompt_tokens, tp=tp, eff=eff)
    t, _ = decode_step_s(m, gpu, precision=precision, kv_bytes=kvb, batch=batch,
                         context=prompt_tokens + output_tokens / 2.0, tp=tp, eff=eff)
    return batch * output_tokens / (pre + output_tokens * t) / tp


def time_to_first_token_s(m: ServingModel, gpu: Any, *, prompt_tokens: int, precision: str, tp: int = 1,
                          eff: ServingEfficiency = ServingEfficiency()) -> float:
    """Batch-1 time to the first token: the prompt's prefill (compute bound) or one read of the weights,
    whichever is longer."""
    pre = prefill_s(m, gpu, precision=precision, prompt=prompt_tokens, tp=tp, eff=eff)
    read = weight_bytes(m, precision) / (float(gpu.mem_bw_tbs) * 1e12 * eff.memory_bandwidth * tp)
    return max(pre, read)
