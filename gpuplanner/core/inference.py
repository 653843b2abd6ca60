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
* **Memory budget**: the engine's own rule (:func:`kv_cache_bytes_per_gpu`, ``inference.engine``): vLLM takes
  ``gpu_memory_utilization`` (0.90) of the card and subtracts the weights, the peak of a profiling forward and
  the memory outside PyTorch, from the total CUDA reports (:data:`CUDA_VISIBLE_SHARE`); TensorRT-LLM takes
  ``kv_cache_free_gpu_mem_fraction`` (0.90) of what is left free
  after those; SGLang's ``mem_fraction_static`` holds weights and KV cache. KV cache is allocated in pages as
  requests grow (PagedAttention), so a replica holds ``floor(KV bytes / (context × KV per token))`` users;
  TensorRT-LLM's default ``GUARANTEED_NO_EVICT`` reserves each request's whole prompt + output
  (:func:`reserved_context`).
* **Decode step** (one token for each of ``B`` running requests): the linear layers take the longer of reading
  the weights (at ``η_mem``) and their ``2 × active params`` FLOPs per token at :func:`gemm_efficiency`; then the
  attention kernel streams each request's KV cache (:func:`kv_read_bandwidth`); then the tensor-parallel
  all-reduces (:func:`tp_all_reduce_s`). They are separate kernels, run one after the other, so the times add
  (:func:`decode_step_s`); ``bound`` says which roof the GEMMs hit (Pope et al. §3).
* **Prefill** of a ``prompt`` of ``P`` tokens is compute bound: ``2 × N × P`` plus causal attention at
  :func:`gemm_efficiency` of the GEMM rows (the scheduler's 8192-token chunk under continuous batching, the
  prompt alone for an idle replica's first token); with continuous batching (Yu et al. 2022, Orca, OSDI) each
  request's prefill is paid once per ``output`` tokens, so a replica's output tokens/s is
  ``B / (t(B) + B × t_prefill / output)``. A prompt run alone (an idle replica's first token, a static batch)
  streams its own weights: its GEMMs' rows constant is the card's roofline ridge (:func:`ridge_rows`).
* **Latency target**: a user who must see ``r`` tokens/s needs ``t(B) ≤ 1/r``; the batch is the largest that
  meets it and fits in memory. Tensor parallelism over ``tp`` cards of one node divides weights, KV and both
  roofs and adds two all-reduces per layer (Shoeybi et al. 2019, Megatron-LM).

What the engines do beyond the roofline (issue 35):

* **KV heads under tensor parallelism**: each rank holds ``max(1, kv_heads // tp)`` KV heads — the heads are
  replicated when ``tp`` exceeds them ("we will replicate the KV heads in the case where the number of KV heads
  is smaller than the tensor parallel size so each GPU has at least one KV head", vLLM
  ``ModelConfig.get_num_kv_heads``); multi-head latent attention's latent is not split by heads at all, so every
  rank holds all of it (vLLM's MLA backends cache the full ``kv_lora_rank + qk_rope_head_dim`` per rank).
  :func:`kv_bytes_per_token_per_gpu`.
* **MoE decoding reads only the experts its tokens reach**: a step of ``B`` tokens, each routed to ``k`` of ``E``
  experts, reads the shared weights and the union of the activated experts, ``E·(1 − (1 − k/E)^B)`` of them on
  average under balanced routing (one token: ``k``; a large batch: all). :func:`decode_weight_bytes`. Their GEMMs
  are one problem per expert, so each runs at the tile efficiency of its own ``B·k/(E·reach)`` rows, not the step's
  ``B`` (vLLM ``moe_align_block_size``, TensorRT-LLM ``expert_first_token_offset``; issue 35 round 8):
  :func:`expert_grouped_gemm_extra_s`.
* **Prefill stalls under continuous batching**: the scheduler runs each arriving request's prefill between decode
  steps (vLLM's default scheduler prioritises prefills; Agrawal et al. 2024, Sarathi-Serve, arXiv:2403.02310 §2:
  "generation stalls"), so every running user waits ``B × t_prefill / output`` per generated token beside the
  step itself: the latency target is met when ``t(B) + B·t_prefill/output ≤ 1/r``, not ``t(B)`` alone.
* **Weight-only formats** (int4; int8 without an 8-bit tensor-core rate) pad a decode GEMM to Marlin's 16-row
  m-blocks, not the 128-row tile: :data:`WEIGHT_ONLY_TILE_ROWS` (issue 35, round 4).
* **The tile term never exceeds the roofline's sum bound**: a decode GEMM takes at most its weight stream plus its FLOPs
  on 16-row padded tokens (:func:`no_overlap_gemm_s`; binds on cards whose tensor cores are slow for their memory, H20;
  issue 35 round 8, smallm8).
* **The engine's sequence cap**: vLLM runs at most ``max_num_seqs`` requests whatever memory holds
  (:func:`max_running_requests`).
* **Engine memory reservation**: ``gpu_memory_utilization`` (vLLM engine argument, default 0.9; TensorRT-LLM
  ``kv_cache_free_gpu_mem_fraction``; SGLang ``mem_fraction_static``) and ``engine`` are parameters of
  :func:`size_serving` (issue 35, round 3: the reservation rules above). None: each engine's own default
  (:func:`engine_default_fraction`; SGLang's depends on the card's memory and TP, issue 35 round 7).
* **The engine loop's host work per decode step**: scheduling, state update and input preparation, 0.43 ms
  (:data:`ENGINE_HOST_STEP_S`); the planner's engines prepare the next step while the GPU runs this one, so only what
  the GPU step does not cover shows; older loops ran it between steps (:func:`exposed_host_s`; issue 35 round 6).
  vLLM's V0 engine is its own loop (``v0``): 4 ms + 80 µs a running request a step, and a prefill without CUDA graphs
  in the first token (:func:`v0_host_step_s`; issue 35 round 10).

Efficiencies (settings, :class:`ServingEfficiency`): ``η_mem`` = 0.8 of peak bandwidth for the weights on every card,
the share a large copy reaches, plus a fixed GPU time per kernel of the step (:func:`decode_kernels_s`; issue 35
round 5). Together they give the ~60% model bandwidth utilisation Databricks/MosaicML measured for 7B decoding at small
batch on A100/H100 ("LLM Inference Performance Engineering: Best Practices", databricks.com/blog, Oct 2023), which
rounds 1–4 used as one share (0.6; 0.75 on GDDR cards), and the faster batch-1 decode of current vLLM.
The GEMMs' share of the dense peak is the training time model's (:func:`gemm_efficiency`), one set of constants
for training and serving; the KV cache streams at the time model's 0.8 (:func:`kv_read_bandwidth`).
``docs/validation_inference.md`` compares the result with TensorRT-LLM's published throughput tables.
"""

from __future__ import annotations

import functools
import dataclasses
import math
from dataclasses import field
from typing import Any, Literal

from dataclasses import dataclass
from .i18n import QT_TRANSLATE_NOOP
from .messages import Msg, MsgStr
from .serving_facts import kv_heads_per_rank
# (shared with the time model's rollouts, which cannot import this module: serving_facts holds them and their sources)
from .serving_facts import (ACT_BYTES, CUDA_VISIBLE_SHARE, SAMPLER_COPIES, VLLM_LLM_CLASS_BUDGET,  # noqa: F401
                            VLLM_NON_TORCH_GIB, vllm_profile_parts)
from .serving_facts import ServingEfficiency  # noqa: F401 (defined with the facts the time model shares)
from .methods import DECODE_GEMMS_PER_LAYER, MOE_DECODE_EXTRA_KERNELS, decode_kernels_fixed_s  # noqa: F401
from .methods import EAGER_FWD_OP_S, VLLM_EAGER_OPS_PER_LAYER, VLLM_EAGER_OPS_STEP, VLLM_EAGER_TP_OPS_PER_LAYER
from .methods import ENGINE_SEQ_S as V0_ENGINE_SEQ_S, ENGINE_STEP_S as V0_ENGINE_STEP_S  # vLLM V0's host work (round 10)
from .serving_facts import ENGINE_NAMES  # noqa: F401 (the views print them without loading this module)
from .serving_facts import DECODE_KERNEL_S
from .serving_facts import SERVING_BAND_FILE, serving_band, throughput_far_end  # noqa: F401 (serve18)
# the training time model's matmul efficiency, GEMM size factor and NCCL latency: one set of constants (issue 35)
from . import timing as _timing
from .fp8 import TE_GEMM_RATIO

CTX = "Inference"

ServingPrecision = Literal["bf16", "fp8", "int8", "int4"]
#: bytes per weight at each serving precision (module docstring)
WEIGHT_BYTES = {"bf16": 2.0, "fp8": 1.0, "int8": 1.0, "int4": 0.5}
#: bytes per KV-cache element: fp8 KV with fp8 serving, else 16-bit
KV_BYTES = {"bf16": 2.0, "fp8": 1.0}
GPU_MEMORY_UTILIZATION = 0.90  # vLLM default gpu_memory_utilization; TensorRT-LLM kv_cache_free_gpu_mem_fraction
GIB = 1024.0 ** 3


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
    expert_params: float = 0.0  # routed experts' weights over the whole model (0: dense)
    num_experts: int = 0
    experts_per_tok: int = 0
    hidden_size: int = 0  # 0: num_heads × head_dim
    ffn_size: int = 0  # MLP width (the profile run's activations); 0: 4 × hidden
    vocab_size: int = 0
    #: weights of the input embedding table that no GEMM reads (untied models; a tied table is the LM head's weight)
    input_embedding: float = 0.0
    #: weights of the output projection (LM head), tied or not: ``vocab × h``
    lm_head: float = 0.0
    #: the checkpoint quantises the vocabulary tables too (gpt-fast, MLC LLM; not the serving engines' checkpoints,
    #: :func:`sixteen_bit_params`)
    vocab_quantized: bool = False
    #: a block-scaled FP8 checkpoint (``quantization_config.weight_block_size``, :attr:`ModelArch.weight_block_n`):
    #: its ``fp8`` linears run the block path (:data:`BLOCK_FP8_GEMM_RATIO`, :func:`block_fp8_decode_extra_s`)
    block_scaled: bool = False
    #: one routed expert's MLP width (``moe_intermediate_size``); 0: dense, or not known (the hidden width stands in)
    moe_intermediate: int = 0

    @property
    def hidden(self) -> int:
        return self.hidden_size or self.num_heads * self.head_dim

    @classmethod
    def of(cls, arch: Any, params: Any) -> "ServingModel":
        return cls(name=str(arch.name), params_total=float(params.total), params_active=float(params.active),
                   num_layers=int(arch.num_layers), num_heads=int(arch.num_heads),
                   num_kv_heads=int(arch.num_kv_heads), head_dim=int(arch.head_dim),
                   kv_lora_rank=int(getattr(arch, "kv_lora_rank", 0) or 0),
                   qk_rope_head_dim=int(getattr(arch, "qk_rope_head_dim", 0) or 0),
                   expert_params=float(getattr(params, "expert_params", 0) or 0),
                   num_experts=int(getattr(arch, "num_experts", 0) or 0),
                   experts_per_tok=int(getattr(arch, "num_experts_per_tok", 0) or 0),
                   hidden_size=int(getattr(arch, "hidden_size", 0) or 0),
                   ffn_size=int(getattr(arch, "intermediate_size", 0) or 0),
                   vocab_size=int(getattr(arch, "vocab_size", 0) or 0),
                   input_embedding=float(getattr(params, "embedding", 0) or 0)
                   if float(getattr(params, "lm_head", 0) or 0) > 0 else 0.0,
                   lm_head=float(getattr(arch, "vocab_size", 0) or 0) * float(getattr(arch, "hidden_size", 0) or 0),
                   block_scaled=int(getattr(arch, "weight_block_n", 0) or 0) > 0,
                   moe_intermediate=int(getattr(arch, "moe_intermediate_size", 0) or 0))


def kv_bytes_per_token(m: ServingModel, kv_bytes: float) -> float:
    """K and V of every layer for one token (MLA: the compressed latent and the RoPE key)."""
    if m.kv_lora_rank > 0:
        return m.num_layers * (m.kv_lora_rank + m.qk_rope_head_dim) * kv_bytes
    return 2.0 * m.num_layers * m.num_kv_heads * m.head_dim * kv_bytes


def kv_bytes_per_token_per_gpu(m: ServingModel, kv_bytes: float, tp: int) -> float:
    """KV bytes one token holds on each of the ``tp`` ranks: ``max(1, kv_heads // tp)`` heads per rank (vLLM
    replicates KV heads below one per rank); MLA's latent whole on every rank (module docstring)."""
    if m.kv_lora_rank > 0:
        return kv_bytes_per_token(m, kv_bytes)
    heads = kv_heads_per_rank(m.num_kv_heads, tp)
    return 2.0 * m.num_layers * heads * m.head_dim * kv_bytes


# Issue 35, round 6 (serve8): a quantised checkpoint keeps its vocabulary tables in 16-bit. The quantisers convert the
# decoder blocks' linear layers only: TensorRT-LLM ``quantization/quantize.py`` ``quantize_layers`` excludes
# ``'*lm_head'`` and ``'*vocab_embedding'`` unless ``exclude_modules`` is given (``trtllm-bench build --quantization
# FP8`` gives none); NVIDIA ModelOpt (the FP8 checkpoints of ``nvidia/*-FP8``) disables ``"*lm_head*"`` in
# ``modelopt/torch/quantization/config.py`` ``_default_disabled_quantizer_cfg``; vLLM's ``Fp8Config.get_quant_method``
# quantises ``LinearBase`` layers only, and the LM head is a ``ParallelLMHead`` (a ``VocabParallelEmbedding``), so
# ``--quantization fp8`` leaves it and the input table in the model dtype; GPTQ/AWQ checkpoints leave ``lm_head``
# unquantised unless ``lm_head_quantized``. So both tables stay 16-bit in memory, the LM head is streamed at 2 bytes a
# weight each decode step and its GEMM runs at the 16-bit rate. Llama 3.1 8B in FP8: 8.03 GB → 9.08 GB of weights.
def sixteen_bit_params(m: ServingModel) -> float:
    """Parameters held in 16-bit whatever the serving precision (above): the untied input table and the LM head. A
    checkpoint that quantises them (``vocab_quantized``): none. gpt-fast's ``quantize.py`` replaces every
    ``nn.Linear``, its ``output`` head included; MLC LLM's ``GroupQuantize`` has ``quantize_embedding`` and
    ``quantize_final_fc`` True (``mlc_llm/quantization/group_quantization.py``)."""
    return 0.0 if m.vocab_quantized else m.input_embedding + m.lm_head


def _at_precision(params: float, sixteen: float, precision: str) -> float:
    """Bytes of ``params`` weights of which ``sixteen`` stay 16-bit (:func:`sixteen_bit_params`)."""
    keep = min(max(sixteen, 0.0), params)
    return (params - keep) * WEIGHT_BYTES[precision] + keep * ACT_BYTES


def weight_bytes(m: ServingModel, precision: str) -> float:
    """Bytes of the served weights: the decoder's at ``precision``, the vocabulary tables at 16-bit."""
    return _at_precision(m.params_total, sixteen_bit_params(m), precision)


def decode_weight_bytes(m: ServingModel, precision: str, batch: float) -> float:
    """Weights one decode step of ``batch`` tokens reads: everything but the routed experts, and the union of the
    experts the tokens reach, ``1 − (1 − k/E)^B`` of them (module docstring); never the untied input embedding
    table, of which the step gathers ``batch`` rows (:func:`streamed_params`); the LM head at 16-bit."""
    share = _routed_share(m)
    if not share:
        return _at_precision(streamed_params(m), _head16(m), precision)
    reach = _expert_reach(share, batch)
    return _at_precision(streamed_params(m) - m.expert_params + m.expert_params * reach, _head16(m), precision)


def _routed_share(m: ServingModel) -> float:
    """``k/E``, the share of the routed experts one token reaches; 0.0 for a model without routed experts."""
    if m.num_experts <= 0 or m.expert_params <= 0 or m.experts_per_tok <= 0:
        return 0.0
    return min(m.experts_per_tok / m.num_experts, 1.0)


def _expert_reach(share: float, tokens: float) -> float:
    """The share of the routed experts that ``tokens`` tokens reach under balanced routing, ``1 − (1 − k/E)^B``
    (module docstring; ``share`` = :func:`_routed_share`)."""
    return 1.0 - (1.0 - share) ** max(tokens, 1.0)


def _head16(m: ServingModel) -> float:
    """The LM head's weights when it stays 16-bit (:func:`sixteen_bit_params`), else 0."""
    return 0.0 if m.vocab_quantized else m.lm_head


# Issue 35, round 6 (serve6): the embedding table and the LM head in a serving forward. The input embedding is a
# lookup: vLLM ``VocabParallelEmbedding.forward`` (``F.embedding`` on the token ids), TensorRT-LLM's ``Embedding``
# layer (a gather), SGLang the same class as vLLM: a step reads one row per token and multiplies nothing, so an untied
# table (Llama 3: 128,256 × 4,096, 6.5% of the 8B model) is neither streamed nor multiplied. The LM head runs only on
# the tokens that are sampled: in a prefill, the last token of each prompt (vLLM V1 ``gpu_model_runner``
# ``logits_indices = query_start_loc[1:] - 1``, then ``compute_logits`` on those rows; TensorRT-LLM
# ``gather_context_logits`` False by default, the context phase gathers the last token before ``lm_head``; SGLang
# ``LogitsProcessor`` prunes to each request's last index unless log-probabilities of the prompt are asked for).
def streamed_params(m: ServingModel) -> float:
    """Parameters a decode step streams when every weight is reached: all but the untied input embedding table."""
    return max(m.params_total - m.input_embedding, 0.0)


def matmul_params(m: ServingModel, prompt_tokens: float | None = None) -> float:
    """Active parameters multiplied per token (2 FLOPs each). Decode (``prompt_tokens`` None): every active weight
    but the untied input table. A prompt of ``P`` tokens: the layers on every token and the LM head on its last one,
    averaged per token: ``active − table − head + head / P``."""
    lin = max(m.params_active - m.input_embedding, 0.0)
    if prompt_tokens is None:
        return lin
    return max(lin - m.lm_head, 0.0) + m.lm_head / max(float(prompt_tokens), 1.0)


def kv_precision_for(precision: str, kv_precision: str | None = None) -> str:
    """The KV-cache precision: the user's, else fp8 with fp8 weights and 16-bit otherwise."""
    if kv_precision:
        return kv_precision
    return "fp8" if precision == "fp8" else "bf16"


#: Issue 35 round 12 (fp8serve12): the attention's matrix products (QKᵀ and PV of a prefill) run in FP8 only with FP8
#: weights and an FP8 KV cache; otherwise in 16-bit, whatever the linear layers' precision. vLLM's ``Fp8Config`` gives
#: the linear layers ``Fp8LinearMethod`` and the attention only ``Fp8KVCacheMethod`` (the KV scales;
#: vllm ``model_executor/layers/quantization/fp8.py`` ``get_quant_method``), so with ``--quantization fp8`` and the
#: KV cache at the model dtype (``--kv-cache-dtype auto``) FlashAttention runs on BF16 queries, keys and values; it
#: takes FP8 inputs (FlashAttention-3's ``q_descale``/``k_descale``/``v_descale``) only when the cache is FP8
#: (``kv_cache_dtype`` fp8). TensorRT-LLM's FP8 context FMHA likewise needs the FP8 KV cache
#: (``use_fp8_context_fmha``). W8A8 INT8 (vLLM ``CompressedTensorsW8A8Int8``) has no 8-bit attention: 16-bit.
def attention_precision(precision: str, kv_precision: str | None = None) -> str:
    """The precision a prefill's attention products run at (above): ``fp8`` with fp8 weights and an fp8 KV cache
    (:func:`kv_precision_for`: the default with fp8 weights), else ``bf16``."""
    return "fp8" if precision == "fp8" and kv_precision_for(precision, kv_precision) == "fp8" else "bf16"


def peak_flops(gpu: Any, precision: str) -> float | None:
    """Dense tensor FLOP/s for the matrix products: fp8 (and int8: the same tensor-core rate on Hopper/Ada) at
    the fp8 rate where the card has one; weight-only int4 dequantises to 16-bit (bf16 rate). At the card's
    sustained clock (:func:`timing.sustained_clock_ratio`: GeForce's, issue 35 round 7; 1 elsewhere)."""
    if precision in ("fp8", "int8") and getattr(gpu, "fp8_tflops", None):
        return float(gpu.fp8_tflops) * 1e12 * _timing.sustained_clock_ratio(gpu)
    v = getattr(gpu, "bf16_tflops", None) or getattr(gpu, "fp16_tflops", None)
    return None if not v else float(v) * 1e12 * _timing.sustained_clock_ratio(gpu)


@dataclass(slots=True, frozen=True)
class ReplicaPoint:
    """One serving replica of ``tp`` cards at batch ``batch``."""

    tp: int
    batch: int
    max_batch_memory: int
    step_s: float
    prefill_s: float
    output_tokens_per_s: float  # per replica
    bound: str  # "memory" | "compute" | "host" (the engine's host work per step: decode_step_s)
    memory_per_gpu_gib: float  # weights + KV cache at this batch + reserve, per card


#: Issue 35 round 18 (servoos18): engines whose default scheduler runs new prompts' prefill as a forward of its own,
#: never inside a decode step. SGLang: ``Scheduler.get_next_batch_to_run`` builds a prefill batch first and runs it
#: alone ("Run prefill first if possible": ``ret = new_batch``; the decode batch runs only when no prefill is waiting),
#: unless ``--enable-mixed-chunk`` (``ServerArgs.enable_mixed_chunk = False``; sgl-project/sglang
#: ``python/sglang/srt/managers/scheduler.py``, ``server_args.py``). vLLM V1 and TensorRT-LLM's in-flight batching put
#: the prompt tokens into the decode step, whose weight read they share (:func:`prefill_s`). vLLM V0 without chunked
#: prefill did the same as SGLang (``vllm/core/scheduler.py`` ``_schedule_default``: "Don't schedule decodes if prefills
#: are scheduled"); V0 is not an engine the planner sizes, only a bench mapping (bench/validate_serve_oos18.py).
SEPARATE_PREFILL_ENGINES = ("sglang",)


def separate_prefill_step_s(m: ServingModel, gpu: Any, *, precision: str, prompt: float, arrivals: float, tp: int,
                            eff: ServingEfficiency, chunk: int | None, attn_precision: str | None = None,
                            engine: str | None = None) -> float:
    """GPU seconds of prefill per decode step of an engine that runs prefill as a forward of its own
    (:data:`SEPARATE_PREFILL_ENGINES`), when ``arrivals`` prompts of ``prompt`` tokens join per decode step. The prompts
    that arrive during one step wait for the next forward and run in it together, up to the engine's ``chunk`` tokens
    a forward (SGLang's ``chunked_prefill_size``): ``arrivals·P / chunk`` forwards a step when the budget binds, else
    one forward every ``1/arrivals`` steps (at most one a step). Each forward reads the weights itself and launches
    its kernels (:func:`_prefill_step_s`, an idle replica's first forward of that many tokens), so at a light load —
    fewer than one prompt a step — every prompt pays a whole weight read, where a prompt mixed into the decode step
    pays none. Chunks' attention to the earlier chunks is left out (prompts under the budget have none)."""
    tokens = max(float(arrivals), 0.0) * max(float(prompt), 1.0)
    if tokens <= 0:
        return 0.0
    forwards = max(min(float(arrivals), 1.0), tokens / float(chunk) if chunk else 0.0)
    return forwards * _prefill_step_s(m, gpu, precision=precision, tokens=tokens / forwards, prior=0.0, tp=tp, eff=eff,
                                      attn_precision=attn_precision, engine=engine)


#: Datacenter boards with GDDR memory rather than HBM (NVIDIA L40S, L40 and L20 datasheets: 48 GB GDDR6); consumer
#: and workstation cards are GDDR too. GDDR cards reach a larger share of their bandwidth when decoding at batch 1:
#: llama.cpp's batch-1 F16 generation (XiongjieDai/GPU-Benchmarks-on-LLM-Inference, README, May 2024; weights ÷
#: time per token ÷ datasheet bandwidth) gives RTX 4090 0.81, 4080 0.85, 3090 0.76, L40S 0.75, A40 0.73, RTX A6000
#: 0.72, RTX 6000 Ada 0.67 — median 0.75 — while the same table's HBM parts reach 0.46 (A100 80GB) and 0.52
#: (H100 PCIe): llama.cpp's own kernels. Since issue 35 round 5 the serving engines' decode streams at one share on
#: every card (:data:`serving_facts.DECODE_STREAM_SHARE`) plus the kernels' fixed time (:func:`decode_kernels_s`), which
#: puts these llama.cpp rows within −13…−2%; the set remains the memory type's (ECC, :data:`GDDR_ECC_VISIBLE`).
GDDR_BOARDS = frozenset({"l40s-48gb", "l40-48gb", "l20-48gb"})


#: Share of a datacenter GDDR board's memory that CUDA can allocate: their ECC is on by default and inline, so the
#: driver reports 15/16 of the chips — nvidia-smi totals L40S 46,068 MiB of 49,152, L4 23,034 and A10 23,028 of
#: 24,576, T4 15,360 of 16,384 (modal-labs/modal-client PR #2797, Jan 2025; nvidia-smi ``--help-query-gpu``:
#: "Reported total memory is affected by ECC state"). HBM parts keep ECC on the side (H100 81,559 MiB of 81,920).
GDDR_ECC_VISIBLE = 46068.0 / 49152.0




def visible_memory_bytes(gpu: Any) -> float:
    """The memory the engine sees: the catalog's GiB, less inline ECC on datacenter GDDR boards, less what the driver
    keeps (:data:`CUDA_VISIBLE_SHARE`)."""
    total = float(getattr(gpu, "memory_gib", 0) or 0.0) * GIB * CUDA_VISIBLE_SHARE
    return total * GDDR_ECC_VISIBLE if getattr(gpu, "id", "") in GDDR_BOARDS else total


def bandwidth_fraction(gpu: Any, eff: ServingEfficiency) -> float:
    """The share of the datasheet bandwidth decoding reaches on ``gpu``: GDDR or HBM (:data:`GDDR_BOARDS`)."""
    gddr = getattr(gpu, "gpu_class", "") in ("consumer", "workstation") or getattr(gpu, "id", "") in GDDR_BOARDS
    return eff.memory_bandwidth_gddr if gddr else eff.memory_bandwidth




def gemm_efficiency(m: ServingModel, gpu: Any, precision: str, tokens: float, tp: int,
                    t0: float | None = None, forward: bool = False, width: float | None = None) -> float:
    """Share of the dense peak a forward's linear layers reach with ``tokens`` rows, the training time model's
    rule (:mod:`core.timing` module docstring): the generation's matmul efficiency ``GEN_EFFICIENCY`` times the
    size factor ``1/(1 + D0/(h/tp)) · 1/(1 + T0/tokens)`` (tile and wave quantisation, NVIDIA "Matrix
    Multiplication Background User's Guide"). FP8/INT8 GEMMs reach ``TE_GEMM_RATIO`` = 70.9/80.3 of the 16-bit
    share of their own peak (stas00 MAMF finder on H100, :mod:`core.fp8`); serving quantises no weights on the
    fly, so the training runs' cast overheads (``FP8_EFFICIENCY_RATIO``) do not apply. ``forward``: the share of a
    prefill's whole forward (issue 35 round 13): an 8-bit forward's time beyond its matmuls does not halve
    (:func:`eight_bit_gemm_share`); a decode step's GEMMs (False) keep the matmul ratio, their other kernels being
    charged apart (:func:`decode_kernels_s`). ``width``: the GEMMs' per-GPU width (default ``h / tp``;
    :func:`expert_gemm_width`)."""
    # GeForce (issue 35 round 7): the training model's measured-matmul factor (timing.sustained_clock_factor), less
    # the clock ratio that :func:`peak_flops` already holds, so that one card's GEMMs run at one rate in both models
    gen = _timing.GEN_EFFICIENCY[_timing.gpu_generation(gpu)]
    e = gen * (_timing.sustained_clock_factor(gpu, precision) / _timing.sustained_clock_ratio(gpu))
    if precision in ("fp8", "int8") and getattr(gpu, "fp8_tflops", None):
        rho = BLOCK_FP8_GEMM_RATIO if block_fp8(m, precision) else 1.0  # issue 35 round 14 (fp8block14)
        e *= (eight_bit_gemm_share(gpu, rho) / gen) if forward else TE_GEMM_RATIO * rho  # round 13 (fp8lin13)
    width = m.hidden / max(tp, 1) if width is None else float(width)
    rows0 = _timing.T0 if t0 is None else float(t0)
    return e / (1.0 + _timing.D0 / max(width, 1.0)) / (1.0 + rows0 / max(tokens, 1.0))


#: Issue 35 round 13 (fp8lin13): the largest share of the 16-bit dense peak a matmul reaches (the MAMF finder's best
#: shape, stas00/ml-engineering ``mamf-finder.py``), per generation whose :data:`timing.GEN_EFFICIENCY` was set
#: against it: Hopper (and datacenter Blackwell, which borrows Hopper's 0.55) the H100 SXM's 794.5 of 989 TFLOP/s (the
#: measurement :data:`core.fp8.TE_GEMM_RATIO` comes from); Ampere (and Ada, consumer Blackwell and Volta, which borrow
#: its 0.70) the A100 SXM's 267.9 of 312: each card's :data:`timing.MAMF_TFLOPS` over its catalogue BF16 figure
#: (:func:`timing.mamf_share`, :func:`matmul_ceiling_16bit`). Other generations were set as Hopper × their MAMF over
#: the H100's (timing's note on CDNA3), so they keep Hopper's ratio of the two.
MATMUL_CEILING_CARD = {"hopper": "h100-sxm-80gb", "blackwell": "h100-sxm-80gb", "ampere": "a100-sxm-80gb",
                       "ada": "a100-sxm-80gb", "blackwell-consumer": "a100-sxm-80gb", "volta": "a100-sxm-80gb"}


def matmul_ceiling_16bit(gen_name: str) -> float:
    """The 16-bit matmul ceiling :data:`MATMUL_CEILING_CARD` gives generation ``gen_name`` (share of the dense peak);
    a generation without a card keeps Hopper's ratio of ceiling to :data:`timing.GEN_EFFICIENCY` (above)."""
    card = MATMUL_CEILING_CARD.get(gen_name)
    if card is not None:
        return _timing.mamf_share(card)
    hopper = _timing.mamf_share(MATMUL_CEILING_CARD["hopper"])
    return _timing.GEN_EFFICIENCY[gen_name] * hopper / _timing.GEN_EFFICIENCY["hopper"]
#: Engines whose 8-bit linear layers take and return 16-bit activations, one quantize kernel before each GEMM and the
#: norms, rotary, SiLU-and-mul and residual adds in between left 16-bit (:func:`eight_bit_gemm_share`): vLLM
#: (``Fp8LinearOp.apply``: ``ops.scaled_fp8_quant(input_2d, …)`` then ``cutlass_scaled_mm(…, out_dtype=input.dtype)``;
#: ``apply_int8_linear``: ``scaled_int8_quant`` then ``cutlass_scaled_mm``; vllm ``model_executor/layers/quantization/
#: utils/w8a8_utils.py`` @0039d4bd) and SGLang (its ``Fp8LinearMethod`` / ``apply_fp8_linear`` port of vLLM's, sglang
#: ``srt/layers/quantization/fp8_utils.py``). TensorRT-LLM's FP8 layers are ops of one TensorRT graph (``FP8Linear``'s
#: quantize of its input, ``Fp8RowwiseRmsNorm``, the attention plugin's FP8 output: ``tensorrt_llm/quantization/
#: layers.py`` @027cd518) that the builder fuses into the kernels producing them, so its FP8 tables keep the matmul
#: ratio on the whole forward — modelled with it, their prefill-heavy rows were already 7–17% slow (2048/128, 5000/500,
#: scripts/validate_inference.py), and with this rule they would be 15–22% slow.
EIGHT_BIT_16BIT_ACTIVATION_ENGINES = ("vllm", "sglang")


def eight_bit_forward(engine: str | None) -> bool:
    """Whether ``engine``'s 8-bit prefill speeds up only its matmuls (:data:`EIGHT_BIT_16BIT_ACTIVATION_ENGINES`,
    :func:`eight_bit_gemm_share`; None, an unnamed engine: the matmul ratio on the whole forward): the ``forward``
    of :func:`gemm_efficiency` for every prefill GEMM and attention product."""
    return engine in EIGHT_BIT_16BIT_ACTIVATION_ENGINES


# Issue 35 round 13 (fp8lin13): an 8-bit forward does not run every part of the 16-bit one twice as fast. The
# generation's efficiency g (0.55 on Hopper) is a whole forward's share of the peak; the matmuls alone reach s
# (0.803 on the H100, MAMF). Per FLOP a forward spends 1/(s·P16) in the tensor cores and (1/g − 1/s)/P16 beyond them:
# the element-wise kernels between the GEMMs (norms, rotary, SiLU-and-mul, residual adds, the KV-cache write: vLLM's
# eleven kernels a layer, :data:`methods.VLLM_EAGER_OPS_PER_LAYER`, only four of them GEMMs), the GEMMs' prologues and
# epilogues and their operand traffic — memory time that an FP8 or INT8 GEMM leaves as it is where the activations
# stay 16-bit between the GEMMs (:data:`EIGHT_BIT_16BIT_ACTIVATION_ENGINES`). The same rule sets a compute-capped
# Hopper die's share (:func:`timing.fixed_loss_share`, issue 35 round 9: that loss "is memory time ... not tensor
# time"). The 8-bit matmul reaches ``s × TE_GEMM_RATIO`` of its own peak (0.709, the MAMF finder's FP8 run on the
# H100), so an 8-bit forward's share of the 8-bit peak P8 is
# ``1 / (1/(s·TE) + (1/g − 1/s)·P8/P16)``: H100 1/(1.410 + 0.573 × 2) = 0.391 where ``g × TE`` gave 0.486 — a prefill
# 1.42× faster than BF16's instead of 1.77×. Ada (A100's ceiling, 2× peak): 1/(1.319 + 0.264 × 2) = 0.541, not 0.618.
# Published check (not used to set it): vLLM 0.30's ``--quantization fp8`` first token on one H100 SXM (silybench,
# Qwen3-8B, KV bf16) is 1.17× / 1.22× / 1.24× faster than BF16's at 1,024 / 2,048 / 8,192 prompt tokens
# (bench/validate_serve_vllm12.py); vLLM PR #49363's H100 GEMM table (gemma-4-31B, N=12288 K=5376, 128 rows) gives
# the GEMM alone 1.43× (with the activation quantisation) over BF16.
def eight_bit_gemm_share(gpu: Any, gemm_ratio: float = 1.0) -> float:
    """Share of the 8-bit dense peak a forward's 8-bit linear layers reach on ``gpu``'s generation (above), before the
    card's sustained-clock factor and the size factor of :func:`gemm_efficiency`. ``gemm_ratio``: the 8-bit GEMM's
    rate against the per-tensor-scaled one (:data:`BLOCK_FP8_GEMM_RATIO` for a block-scaled checkpoint)."""
    gen_name = _timing.gpu_generation(gpu)
    g = _timing.GEN_EFFICIENCY[gen_name]
    s = matmul_ceiling_16bit(gen_name)
    p16 = float(getattr(gpu, "bf16_tflops", None) or getattr(gpu, "fp16_tflops", None) or 0.0)
    p8 = float(getattr(gpu, "fp8_tflops", None) or 0.0)
    if p16 <= 0 or p8 <= 0 or s <= g:
        return g * TE_GEMM_RATIO * gemm_ratio
    return 1.0 / (1.0 / (s * TE_GEMM_RATIO * gemm_ratio) + (1.0 / g - 1.0 / s) * p8 / p16)


# Issue 35, round 14 (fp8block14): BLOCK-SCALED FP8 checkpoints (Qwen3-*-FP8, DeepSeek-V3/R1: ``weight_block_size``
# [128, 128], one FP32 scale per 128 x 128 weight block; activations quantised per token per 128-column group). vLLM
# ``Fp8LinearMethod`` runs them through ``W8A8BlockFp8LinearOp`` (``model_executor/layers/quantization/utils/
# fp8_utils.py``): ``per_token_group_quant_fp8`` of the BF16 input, then CUTLASS's blockwise ``cutlass_scaled_mm``
# (SM90/SM100), DeepGEMM ``fp8_gemm_nt`` or the Triton ``w8a8_block_fp8_matmul``; SGLang
# ``dispatch_w8a8_block_fp8_linear`` (``srt/layers/quantization/fp8_utils.py`` @002ed7e4; auto: DeepGEMM on SM90,
# FlashInfer on Blackwell, else Triton) calls ``sglang_per_token_group_quant_fp8`` then the block GEMM. The per-128
# K-block rescale of the accumulator (scale_a x scale_b promoted on CUDA cores) is what the per-tensor GEMM does not do.
#: The block GEMM's rate against the per-tensor/row-wise FP8 GEMM's at compute-bound sizes: pytorch/FBGEMM PR #2546
#: (H100 500W, "fp8 block gemm only" / "fp8 row gemm only"): 870.40/1125.51 (8192^3), 828.34/1082.75 (65536x8192x7168),
#: 828.31/1141.38 (65536x3584x8192): median 0.765. (vLLM PR #23280's H100 CUTLASS/Triton block kernels on DeepSeek's
#: N=2112 K=7168 reach 0.56-0.73 of BF16 at 1K-8K rows, slower still; vLLM PR #49363's at 128 rows matches the
#: per-tensor kernel: bench/validate_serve_fp8block14.py prints all three.)
BLOCK_FP8_GEMM_RATIO = 0.765
#: The block GEMM's weight stream at decode sizes against the per-tensor kernel's: vLLM PR #49363 (H100,
#: ``benchmark_fp8_gemm.py``, gemma-4-31B-it shapes, FP8 block noquant / FP8 per-tensor noquant) N=12288 K=5376:
#: 0.951 (1 row), 0.898 (16); N=43008 K=5376: 0.966 (1), 0.777 (16): median 0.924.
BLOCK_FP8_DECODE_STREAM_RATIO = 0.924
#: Activation group-quant kernels a decoder layer's decode step runs for its block linears (QKV, O, gate/up, down),
#: none fused into the norm or activation kernels: SGLang's ``sglang_per_token_group_quant_fp8`` in each block
#: linear; vLLM's ``per_token_group_quant_fp8`` custom op. Each costs the planner's fixed kernel time
#: (``serving_facts.DECODE_KERNEL_S``; PR #49363's activation quant at 1 row: 2.3 and 3.7 us).
BLOCK_FP8_QUANTS_PER_LAYER = 4


def block_fp8(m: ServingModel, precision: str) -> bool:
    """A block-scaled FP8 checkpoint served at ``fp8`` (its own format): the block path above."""
    return precision == "fp8" and bool(getattr(m, "block_scaled", False))


def block_fp8_decode_extra_s(m: ServingModel, precision: str, batch: float, tp: int, bw: float) -> tuple[float, float]:
    """Seconds a block-FP8 decode step adds to the per-tensor one, (weight stream, other kernels); (0, 0) otherwise:
    the quantised weights streamed at :data:`BLOCK_FP8_DECODE_STREAM_RATIO` of the per-tensor kernel's rate (the
    16-bit LM head is no block linear), and the group-quant kernels (:data:`BLOCK_FP8_QUANTS_PER_LAYER` a layer at
    ``DECODE_KERNEL_S``). ``bw``: the step's weight-stream bandwidth, bytes/s."""
    if not block_fp8(m, precision) or bw <= 0:
        return 0.0, 0.0
    lin = max(decode_weight_bytes(m, precision, batch) - _head16(m) * ACT_BYTES, 0.0) / max(tp, 1)
    return (lin / bw * (1.0 / BLOCK_FP8_DECODE_STREAM_RATIO - 1.0),
            BLOCK_FP8_QUANTS_PER_LAYER * m.num_layers * DECODE_KERNEL_S)


#: GEMM rows a weight-only kernel pads a decode step to. Weight-only formats (int4 always; int8 on cards without an
#: 8-bit tensor-core rate in the catalog, where :func:`peak_flops` runs it at the 16-bit rate) dequantise each weight
#: tile inside the kernel and multiply in 16-bit: Marlin (IST-DASLab/marlin, the FP16×INT4 kernel vLLM and SGLang use
#: for GPTQ/AWQ checkpoints) holds the activations in m-blocks of 16 rows (``tile_m = 16 * thread_m_blocks``, up to
#: 4 blocks; ``marlin_cuda_kernel.cu``) and its README reports "close to ideal (4x) speedups up to batchsizes of 16-32
#: tokens": a small batch pads to 16 rows, not to the 128-row cuBLAS tile :data:`timing.T0` stands for. gpt-fast's int8
#: Mixtral at batch 1 (12.9 GB of active weights in 10.2 ms on one A100: 0.62 of its bandwidth, mixtral-moe/README.md)
#: is bound by the weights, which a 128-row pad at the 16-bit rate would not allow (15 ms).
WEIGHT_ONLY_TILE_ROWS = 16.0


#: GPU generations without FP8 tensor cores on which vLLM runs an FP8 checkpoint weight-only, W8A16 with its FP8
#: Marlin kernel: "FP8 computation is supported on NVIDIA GPUs with compute capability >= 8.9 (Ada Lovelace, Hopper,
#: Blackwell). FP8 models will run on compute capability >= 7.5 (Turing) as weight-only W8A16, utilizing FP8 Marlin."
#: (vLLM docs, features/quantization/fp8, "FP8 W8A8"; vllm-project/vllm#5975 "Expand FP8 support to Ampere GPUs using
#: FP8 Marlin"; MoE layers through ``prepare_moe_fp8_layer_for_marlin``, vllm ``quantization/utils/
#: marlin_utils_fp8.py``). The weights take one byte, the products run at the 16-bit rate (issue 35 round 8, advice8:
#: Qwen3-235B-A22B in FP8 was served on 16 × A100 with nothing said of it).
FP8_WEIGHT_ONLY_GENERATIONS = ("ampere", "turing")


def fp8_weight_only(gpu: Any) -> bool:
    """Whether an FP8 checkpoint runs weight-only (W8A16, FP8 Marlin) on ``gpu``: a generation without FP8 tensor
    cores (:data:`FP8_WEIGHT_ONLY_GENERATIONS`)."""
    return _timing.gpu_generation(gpu) in FP8_WEIGHT_ONLY_GENERATIONS


def engine_runs_no_fp8(engine: str, precision: str, gpu: Any) -> bool:
    """TensorRT-LLM with FP8 weights on a generation without FP8 tensor cores: it has no weight-only FP8 path
    (support matrix, "Precision": "Ampere (SM80, SM86) - FP32, FP16, BF16, INT8, INT4"; FP8 from Ada Lovelace on,
    nvidia.github.io/TensorRT-LLM/reference/support-matrix.html), so it cannot serve it there."""
    return engine == "tensorrt-llm" and precision == "fp8" and fp8_weight_only(gpu)


def weight_only(gpu: Any, precision: str) -> bool:
    """Whether ``precision`` runs as a weight-only format on ``gpu``: int4, int8 without an 8-bit peak, or fp8 on a
    generation without FP8 tensor cores (:func:`fp8_weight_only`) (:data:`WEIGHT_ONLY_TILE_ROWS`)."""
    return (precision == "int4" or (precision == "int8" and not getattr(gpu, "fp8_tflops", None))
            or (precision == "fp8" and fp8_weight_only(gpu)))


#: Issue 35 round 9 (serveoos9): rows of one Marlin problem. The weight-only kernel handles at most 4 m-blocks of 16 rows
#: against a stripe of the weights; a larger batch is split into 64-row "parallel" problems that each sweep the whole
#: weight matrix again (IST-DASLab/marlin ``marlin_cuda_kernel.cu``: ``par = (16 * thread_m_blocks - pad) / 64``,
#: ``prob_m = 64 * par``, and in the kernel "we can easily implement parallel problem execution by just remapping
#: indices and advancing global pointers"; the same loop in vLLM's ``gptq_marlin.cu`` and FP8 Marlin). So a decode
#: step of ``B`` requests streams the quantised weights ``ceil(B / 64)`` times. Checks (AccelMark @5797fc4, vLLM 0.7.3,
#: Llama-3.1-8B, 100 requests at once, ~69 running): FP8 Marlin (W8A16) on A100 40GB / 80GB, A800 and RTX A6000 runs
#: 2,575 / 2,823 / 2,860 / 1,469 output tok/s against BF16's 2,388 / 2,667 / 2,711 / 1,543 — one byte a weight read
#: twice is BF16's two bytes read once (bench/validate_serve_oos9.py).
MARLIN_PROBLEM_ROWS = 64.0


def row_blocks(batch: float, rows: float) -> int:
    """Blocks of ``rows`` rows a kernel splits ``batch`` token rows into (at least one)."""
    return math.ceil(max(float(batch), 1.0) / rows - 1e-9)


def weight_only_stream_bytes(m: ServingModel, gpu: Any, precision: str, batch: float) -> float:
    """Bytes a decode step of ``batch`` requests streams for its weights (:func:`decode_weight_bytes`), the quantised
    ones ``ceil(batch / 64)`` times under a weight-only kernel (:data:`MARLIN_PROBLEM_ROWS`). Dense models only: a MoE's
    experts see a few rows each (its fused kernel splits per expert), so it keeps one pass."""
    total = decode_weight_bytes(m, precision, batch)
    if not weight_only(gpu, precision) or _routed_share(m):
        return total
    passes = row_blocks(batch, MARLIN_PROBLEM_ROWS)
    head = min(_head16(m), streamed_params(m)) * ACT_BYTES  # the 16-bit LM head: a cuBLAS GEMM, read once
    return head + (total - head) * passes


def ridge_rows(gpu: Any, precision: str) -> float:
    """GEMM rows at which a linear layer's FLOPs take as long as reading its weights, at the card's datasheet
    rates: ``peak × bytes per weight / (2 × bandwidth)`` (the roofline's ridge point, Williams et al. 2009,
    "Roofline", CACM 52(4), in rows: a GEMM of ``M`` rows does ``2·M`` FLOPs per weight byte read ÷ bytes per
    weight). A100 BF16: 312 × 2 / (2 × 2.039) = 153 rows; H100 FP8: 1979 × 1 / (2 × 3.35) = 295; H200 FP8:
    206; L40S FP8: 424. Below it a prefill's GEMMs stream weights more than they multiply: used as the rows
    constant of :func:`gemm_efficiency` for a prompt's GEMMs (:func:`prefill_s`), in place of the training
    model's ``T0`` (128, calibrated on 16-bit training GEMMs, where A100 BF16 sits at 153). FP8 halves the
    bytes but multiplies the peak by two, so its ridge is the 16-bit one over the same card: the short prompts
    of the FP8 first-token tables need more rows to leave the weight stream (docs/validation_inference.md)."""
    peak = peak_flops(gpu, precision) or 0.0
    bw = float(getattr(gpu, "mem_bw_tbs", 0) or 0.0) * 1e12
    if peak <= 0 or bw <= 0:
        return float(_timing.T0)
    return peak * WEIGHT_BYTES.get(precision, 2.0) / (2.0 * bw)


def _busbw_gbs(gpu: Any) -> float:
    """NCCL all-reduce bus bandwidth inside the node, as the time model reads it (catalog measurement)."""
    try:
        return float(_timing._intra_node_link(gpu, None, [])[1])
    except Exception:  # noqa: BLE001 - a custom card without link facts: PCIe Gen3
        return _timing.BUSBW_FRACTION["pcie"] * 16.0


#: NCCL's ring all-reduce cost model (NVIDIA/nccl ``src/graph/tuning.cc``): per protocol a base latency, a latency per
#: ring step on NVLink or PCIe (µs), and the share of the bus bandwidth it moves data at. Simple is the time model's
#: (:data:`timing.NCCL_BASE_LAT`, :data:`timing.NCCL_INTRA_STEP_LAT`); LL sends 4 bytes of data with each 4-byte flag
#: (``busBw * .5``) at a far lower latency. NCCL runs whichever the model makes faster, so the small all-reduces of a
#: decode step go by LL. (vLLM's and TensorRT-LLM's custom all-reduce kernels are faster still for small messages.)
NCCL_PROTOCOLS = {
    "simple": (_timing.NCCL_BASE_LAT, {"nvlink": _timing.NCCL_INTRA_STEP_LAT, "pcie": 5.7e-6}, 1.0),
    "ll": (6.6e-6, {"nvlink": 0.6e-6, "pcie": 1.0e-6}, 0.5),
}


def _link(gpu: Any) -> str:
    return "nvlink" if str(getattr(gpu, "intra_node_link", "") or "").startswith("nvlink") else "pcie"


def tp_all_reduce_s(m: ServingModel, gpu: Any, *, tokens: float, tp: int) -> float:
    """The tensor-parallel all-reduces of one forward over ``tokens`` tokens: two per layer (after the attention
    output and the MLP down projection, vLLM ``RowParallelLinear``; Shoeybi et al. 2019 §3) of ``tokens × h``
    16-bit values. Each costs NCCL's ring model for the faster protocol (:data:`NCCL_PROTOCOLS`): base latency
    plus ``2(tp−1)`` steps, and ``2(tp−1)/tp`` of the bytes at the protocol's share of the node's bus bandwidth.
    Not overlapped with the GEMMs."""
    if tp <= 1:
        return 0.0
    moved = 2.0 * (tp - 1) / tp * max(tokens, 1.0) * m.hidden * ACT_BYTES
    busbw = _busbw_gbs(gpu) * 1e9
    link = _link(gpu)
    one = min(base + 2.0 * (tp - 1) * step[link] + moved / (busbw * share)
              for base, step, share in NCCL_PROTOCOLS.values())
    return 2.0 * m.num_layers * one


def kv_read_bandwidth(gpu: Any, eff: ServingEfficiency) -> float:
    """Bytes/s the decode attention reads the KV cache at: a batch's paged KV is many long streams, read like a
    copy kernel at the time model's streaming share :data:`timing.MEM_BW_EFFICIENCY` (0.8: STREAM-like copies
    reach 80–90% of the datasheet bandwidth, CUDA samples ``bandwidthTest``), not at batch-1 GEMV's model
    bandwidth utilisation (:func:`bandwidth_fraction`); never below the latter (GDDR cards)."""
    return float(gpu.mem_bw_tbs) * 1e12 * max(_timing.MEM_BW_EFFICIENCY, bandwidth_fraction(gpu, eff))


def decode_kernels_s(m: ServingModel) -> tuple[float, float]:
    """GPU time of one decode step's kernels beyond their bytes and FLOPs, (the GEMMs' part, the other kernels' part):
    :func:`methods.decode_kernels_fixed_s` for the model's layers (Llama 3 8B: 0.35 ms and 0.63 ms)."""
    return decode_kernels_fixed_s(m.num_layers, m.num_experts > 0)


# ---------------------------------------------------------------------------------------------------------------
# Issue 35, round 6 (serve7): the engine's host (CPU) work per decode step. Between two decode steps the engine's loop
# schedules the next batch, updates its state from the sampled tokens and prepares the next step's inputs; with CUDA
# graphs the forward itself is one graph launch. Whether the GPU waits for that work depends on the loop:
# * ``overlapped``: the host prepares step n+1 while the GPU runs step n, so the GPU waits only when the host takes
#   longer than the GPU's step: exposed = max(0, host − GPU step). vLLM's async scheduling (``async_scheduling``; on
#   by default since vllm-project/vllm PR #27614, late 2025: ``SchedulerConfig``: "If set to False, disable async
#   scheduling"); SGLang's overlap scheduler since v0.4 ("the scheduler runs one batch ahead and prepares all the
#   metadata required for the next batch", LMSYS blog "SGLang v0.4", 2024-12-04; on by default); TensorRT-LLM's
#   PyTorch backend overlap scheduler (on by default, ``disable_overlap_scheduler`` False).
# * ``serial``: the loop waits for the sampled tokens, then runs its host work, then launches the next step: exposed
#   = host, or host / n with n decode steps per scheduling pass (vLLM 0.6's ``--num-scheduler-steps``: "performs
#   scheduling and input preparation once and runs the model for n consecutive steps", vLLM blog "vLLM v0.6.0",
#   2024-09-05). vLLM V0 (its async output processing of v0.6 hides only the output processing: "performing the
#   processing of the n-th step output while executing the n+1-th step"; hidden while shorter than the GPU's step,
#   :func:`v0_output_processing_s`, issue 35 round 9) and vLLM V1 before async scheduling (EngineCore's busy loop:
#   schedule, execute_model, update_from_output, one after the other). The rows scored with it are all V0 builds.
# * ``none``: no separate host term: loops in C++ (TensorRT-LLM's TensorRT-engine runtime and gptManager/Executor,
#   LMDeploy's TurboMind) whose per-step host time has no published figure, and SGLang 0.3, whose serial share is
#   :data:`SGLANG_PRE_OVERLAP_STEP`. The low-level functions default to it; the planner uses :data:`ENGINE_LOOP`.
# * ``v0`` (issue 35 round 10, v0serve10): vLLM's V0 engine (the default before vLLM 0.8.0) as its own loop: ``serial``,
#   with V0's own host work per decode step instead of V1's :data:`ENGINE_HOST_STEP_S`. V0's ``LLMEngine.step`` runs
#   ``Scheduler.schedule``, then the driver worker's ``prepare_model_input`` (V0 rebuilds every input tensor from
#   Python lists each step) and, under TP, ``broadcast_tensor_dict`` of those inputs to the other ranks
#   (``LocalOrDistributedWorkerBase._get_driver_input_and_broadcast``), then the CUDA-graph forward, the LM head and the
#   sampler (outside the graph), the GPU-to-CPU copy of the sampled tokens and the output processing, one after the
#   other (vllm v0.7 ``engine/llm_engine.py``, ``worker/worker_base.py``, ``worker/model_runner.py``). Its measured
#   size is the project's V0 figure (:data:`methods.ENGINE_STEP_S` + :data:`methods.ENGINE_SEQ_S` a running request:
#   vLLM RFC #6854 "about 4ms of GPU bubble" per decode step, Llama 3 8B on an H100; RFC #6801 "can be 20ms" at a
#   batch of 200), the figure the RL rollouts' V0 engine already uses (one set of constants). RFC #6801's per-request
#   part lists the output processing, so the ``serial`` loop's separate overlapped term
#   (:func:`v0_output_processing_s`) is not added again. V0 also runs every prefill without CUDA graphs (vllm v0.7
#   ``ModelRunner.execute_model``: "Currently cuda graph is only supported by the decode phase"), so its first token
#   pays every kernel's launch from Python (:func:`time_to_first_token_s`). No plan uses it (:data:`ENGINE_LOOP`).
# * ``v0async`` (issue 35 round 11, serve11): vLLM's V0 engine from v0.6.0 on (through 0.7.x and V0 in 0.8+): the ``v0``
#   loop with the host work those releases removed from each step, per :data:`VLLM_V0_ERAS` (:func:`vllm_v0_loop`).
ENGINE_LOOPS = ("overlapped", "serial", "none", "v0", "v0async")
#: The loop of each engine the planner sizes for, at its current release (above).
ENGINE_LOOP = {"vllm": "overlapped", "sglang": "overlapped", "tensorrt-llm": "overlapped"}
#: Host seconds of one steady decode step of a Python engine loop: the scheduler's pass, the update of the persistent
#: batch's state and the input preparation, as measured in vLLM V1 (vllm-project/vllm PR #42131, 2026-05, decode-only
#: fast paths on a B200): ``schedule()`` 0.2 ms, ``_update_states`` 0.18 ms, ``_prepare_inputs`` 0.05 ms saved (the
#: PR: "framework overhead ... ~30% of TPOT"). V0's was larger (it rebuilt its input tensors every step: vLLM blog
#: "vLLM V1", 2025-01-27, "Efficient Input Preparation"), so for V0 this is a lower bound. SGLang and TensorRT-LLM's
#: PyTorch loop have no published per-step figure; the same value stands for them (it only shows when a step's GPU
#: time is shorter: not even Qwen2.5-0.5B at batch 1 on an H100, 1.1 ms).
ENGINE_HOST_STEP_S = 0.2e-3 + 0.18e-3 + 0.05e-3


def engine_host_s(m: ServingModel, loop: str, *, tp: int = 1, cuda_graphs: bool = True, batch: float = 1.0) -> float:
    """Host seconds of one decode step of an engine ``loop`` (:data:`ENGINE_LOOPS`): :data:`ENGINE_HOST_STEP_S`
    (``v0``: :func:`v0_host_step_s` of the ``batch`` running requests), and without CUDA graphs (vLLM
    ``enforce_eager``) every kernel's launch from Python too (:func:`methods.vllm_eager_launch_s`: 11 kernels a layer,
    2 more under TP, 12 a step, 24 µs each). ``none``: 0."""
    if loop not in ENGINE_LOOPS:
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "engine loop must be one of {choices}, not {loop}"),
                                     choices=", ".join(ENGINE_LOOPS), loop=repr(loop)))
    if loop == "none":
        return 0.0
    launches = 0.0 if cuda_graphs else (m.num_layers * (VLLM_EAGER_OPS_PER_LAYER + (VLLM_EAGER_TP_OPS_PER_LAYER
                                                                                    if tp > 1 else 0.0))
                                        + VLLM_EAGER_OPS_STEP) * EAGER_FWD_OP_S
    return (v0_host_step_s(batch, loop) if loop in VLLM_V0_ERAS else ENGINE_HOST_STEP_S) + launches


def v0_host_step_s(batch: float, loop: str = "v0") -> float:
    """Host seconds of one vLLM V0 decode step of ``batch`` running requests: ``v0`` (vLLM ≤ 0.5)
    :data:`methods.ENGINE_STEP_S` + :data:`methods.ENGINE_SEQ_S` × batch (4 ms + 80 µs a request); ``v0async``
    (vLLM 0.6.0 on) the same less what those releases took off each step (:data:`VLLM_V0_ERAS`)."""
    fixed, per_request = VLLM_V0_ERAS[loop]
    return fixed + per_request * max(float(batch), 1.0)


def pr_saving_per_request_s(ab: tuple[float, float, int, int, int]) -> float:
    """Host seconds a running request's step lost with one vLLM change, from the change's own published A/B run
    ``(req/s before, req/s after, requests, output tokens each, running requests)`` of ``benchmark_throughput``
    (every request sent at once, fixed lengths, ``ignore_eos``): the run's time saved over its decode steps
    (requests × output tokens ÷ running requests), shared by the running requests. The model's GPU time does not
    enter: the A/B ran the same kernels on the same card."""
    before, after, n, out, running = ab
    steps = n * out / running
    return (n / before - n / after) / steps / running


#: Issue 35 round 11 (serve11): vLLM V0 changes of August 2024 that shortened every step's host work per running
#: request, each sized by its own published A/B run on one H100 (vllm-project/vllm, ``benchmark_throughput.py``, 1,000
#: requests at once, fixed lengths, 256 running): PR #7162 "Reduce python allocations" (the scheduler's
#: ``SequenceGroupMetadata``, the model runner's ``InterDataForSeqGroup`` and the sampler's ``SequenceGroupToSample``
#: objects, one set per running request, pre-allocated and reused; Llama-3.1-8B-Instruct 512 in / 256 out: main 19.48,
#: PR 24.32 req/s) and PR #7117's fast path of the output processing for single-sequence sampling (Llama-3-8B 256 / 256:
#: main 24.32, 24.11, 24.29, PR 24.52, 24.59, 24.74 req/s, the means). (req/s before, after, requests, output tokens,
#: running requests; :func:`pr_saving_per_request_s`: 39.9 µs and 2.5 µs a request.)
VLLM_PR7162_AB = (19.48, 24.32, 1000, 256, 256)
VLLM_PR7117_AB = ((24.32 + 24.11 + 24.29) / 3.0, (24.52 + 24.59 + 24.74) / 3.0, 1000, 256, 256)
#: Issue 35 round 9 (serveoos9): vLLM V0's output processing of one decode step (``LLMEngine._process_model_outputs``:
#: each running request's new token appended, detokenized, checked for a stop, turned into a ``RequestOutput``), as
#: measured in vllm-project/vllm RFC #6913 ("Asynchronous Output Processor", 2024-07-29; Llama-3-70B FP8, 4 x H100,
#: 128-token prompts): 0.2 ms at batch 1, 3.4 ms at batch 32, so (3.4 - 0.2) / 31 = 0.103 ms a request. From v0.6 it
#: runs while the GPU computes the next step (PR #7049, vLLM blog "vLLM v0.6.0", 2024-09-05: "performing the processing
#: of the n-th step output while executing the n+1-th step"), so it sets the pace only where it is longer than the
#: GPU's step: a small model at a large batch (AccelMark's vLLM 0.7.3 Qwen2.5-0.5B runs, bench/validate_serve_oos9.py).
#: (batch-1 seconds, seconds at the second batch, that batch.) V0 only: V1 detokenizes in the front-end process.
VLLM_V0_OUTPUT_PROC = (0.2e-3, 3.4e-3, 32)


#: Issue 35 round 11 (serve11): vLLM V0's host work per decode step by release, (fixed seconds, seconds a running
#: request), for the loops ``v0`` and ``v0async`` (:data:`ENGINE_LOOPS`, :func:`v0_host_step_s`):
#: * ``v0``: vLLM ≤ 0.5.3, the RFCs' figures (:data:`methods.ENGINE_STEP_S`, :data:`methods.ENGINE_SEQ_S`: 4 ms and
#:   80 µs a request, RFC #6854 and #6801 of July 2024).
#: * ``v0async``: vLLM 0.6.0 and later V0 builds. Per running request: RFC #6801's 80 µs less PR #7162's and PR #7117's
#:   savings (:data:`VLLM_PR7162_AB`, :data:`VLLM_PR7117_AB`: 80 − 39.9 − 2.5 = 37.6 µs; both merged before v0.6.0).
#:   Fixed: RFC #6854's 4 ms less the output processing of a one-request step (:data:`VLLM_V0_OUTPUT_PROC`, RFC #6913:
#:   0.2 ms), which v0.6.0's asynchronous output processing (PR #7049, on by default) runs while the GPU computes the
#:   next step ("performing the processing of the n-th step output while executing the n+1-th step", vLLM blog
#:   "vLLM v0.6.0", 2024-09-05; the PR's author: "We haven't removed scheduling from critical path. Most of the speedup
#:   in this PR comes from removing detokenization, free_finished_seq_groups and creating RequestOutputs"). The
#:   scheduler, the input preparation and the sampled tokens' copy to the host stay on the path.
#:   ``--num-scheduler-steps`` (multi-step, v0.6.0, off by default) divides it by its steps (:func:`exposed_host_s`).
VLLM_V0_ERAS: dict[str, tuple[float, float]] = {}


def vllm_v0_loop(version: str) -> str:
    """The engine loop (:data:`ENGINE_LOOPS`) of a vLLM V0 build: ``v0`` before 0.6.0, ``v0async`` from 0.6.0 (async
    output processing and PR #7162's allocations; the figures by release are :data:`VLLM_V0_ERAS`). ``version`` as
    ``"0.5.4"``, ``"0.7.3"`` (or ``"0.5"``, ``"0.6"``)."""
    parts = [int(x) for x in str(version).split("+")[0].split(".")[:2] if x.isdigit()]
    major, minor = (parts + [0, 0])[:2]
    return "v0" if (major, minor) < (0, 6) else "v0async"


def v0_output_processing_s(batch: float) -> float:
    """Seconds of vLLM V0's output processing for one decode step of ``batch`` requests (:data:`VLLM_V0_OUTPUT_PROC`,
    linear between its two measured points)."""
    one, at, n = VLLM_V0_OUTPUT_PROC
    return one + (at - one) / (n - 1) * max(float(batch) - 1.0, 0.0)


VLLM_V0_ERAS.update({
    "v0": (V0_ENGINE_STEP_S, V0_ENGINE_SEQ_S),
    "v0async": (V0_ENGINE_STEP_S - VLLM_V0_OUTPUT_PROC[0],
                V0_ENGINE_SEQ_S - pr_saving_per_request_s(VLLM_PR7162_AB) - pr_saving_per_request_s(VLLM_PR7117_AB)),
})


def exposed_host_s(m: ServingModel, gpu_step_s: float, loop: str, *, tp: int = 1, cuda_graphs: bool = True,
                   steps_per_schedule: int = 1, batch: float = 1.0) -> float:
    """Seconds a decode step's host work adds to the GPU's ``gpu_step_s`` (above): ``overlapped`` max(0, host − GPU
    step); ``serial`` and ``v0`` host / ``steps_per_schedule`` (``v0``'s host grows with the ``batch``); ``none`` 0."""
    host = engine_host_s(m, loop, tp=tp, cuda_graphs=cuda_graphs, batch=batch)
    if loop == "overlapped":
        return max(0.0, host - gpu_step_s)
    return host / max(1, int(steps_per_schedule))


#: How many times a decode step's attention streams each KV head's cache. The engines' grouped-query decode kernels
#: load a KV head once for all the query heads that share it: TensorRT-LLM's XQA ("reducing data loading",
#: docs/source/blogs/XQA-kernel.md; in the v0.8 releases), vLLM's and SGLang's FlashAttention/FlashInfer decode
#: kernels. Before XQA, TensorRT-LLM ran GQA decode attention in its masked multi-head attention kernel: one thread
#: block per (sequence, query head), each loading the K/V of its group's head itself
#: (``decoderMaskedMultiheadAttentionTemplate.h``: ``hi_kv = hi / qhead_per_kv``, the cache read at ``hi_kv`` in every
#: block), so the group's cache is streamed once per query head: ``num_heads / num_kv_heads`` passes (8 for Llama 2
#: 70B). Checks: the XQA blog's Llama-70B FP8 on H200 at 128/2048, without and with XQA, 1,227 and 2,941 tok/s/GPU
#: on one GPU and 13,232 / 25,300 on eight (2.4x and 1.9x); TensorRT-LLM v0.6.1's fixed-batch 70B rows
#: (docs/validation_inference.md). Not a planner choice: every engine the planner sizes for has a grouped kernel.
def attention_kv_passes(m: ServingModel, grouped_kernel: bool = True) -> float:
    """KV passes of one decode step's attention (see above): 1 with a grouped-query kernel, else the query heads per
    KV head (MLA's latent is one head: 1)."""
    if grouped_kernel or m.kv_lora_rank > 0 or m.num_kv_heads <= 0:
        return 1.0
    return max(1.0, m.num_heads / m.num_kv_heads)


def decode_step_s(m: ServingModel, gpu: Any, *, precision: str, kv_bytes: float, batch: float, context: float,
                  tp: int, eff: ServingEfficiency, kv_passes: float = 1.0, loop: str = "none",
                  steps_per_schedule: int = 1, tile_rows: float | None = None,
                  pad_rows: float | None = None) -> tuple[float, str]:
    """Seconds of one decode step for ``batch`` requests with ``context`` tokens each, per GPU of the ``tp``
    group. The linear layers and the attention are separate kernels that run one after the other (vLLM's
    FlashAttention/FlashInfer decode kernels, TensorRT-LLM's XQA): the GEMMs take the longer of reading the
    weights and their FLOPs at :func:`gemm_efficiency` of ``batch`` rows; the attention then reads every
    request's KV cache (memory bound: ~2·heads/kv_heads FLOPs per byte) at :func:`kv_read_bandwidth`; the TP all-reduces follow
    (:func:`tp_all_reduce_s`); every kernel adds its fixed GPU time (:func:`decode_kernels_s`). ``bound`` says which roof the GEMMs hit. ``kv_passes``: how many times the attention
    streams each KV head's cache (:func:`attention_kv_passes`; 1 for the current engines). ``loop``: the engine loop
    whose host work the GPU may wait for (:func:`exposed_host_s`; ``none``: the GPU's step alone). ``tile_rows``: the
    dense GEMMs' tile rows (:func:`dense_tile_rows`; None: ``T0``). ``pad_rows``: the token rows of a small-M kernel
    that does not swap its operands (:func:`block_tile_rows`; None: :data:`SMALL_M_TILE_ROWS`), which the sum bound
    then pays too, at the per-tensor FP8 rate (DeepGEMM: :data:`BLOCK_FP8_TILE_ROWS`; T0 above ``pad_rows`` tokens)."""
    if pad_rows is not None and batch > pad_rows:  # round 15: DeepGEMM's 128-row block above 64 rows (T0)
        tile_rows, pad_rows = None, float(_timing.T0)
    bw = float(gpu.mem_bw_tbs) * 1e12 * bandwidth_fraction(gpu, eff)
    peak = peak_flops(gpu, precision) or 0.0
    t_read = weight_only_stream_bytes(m, gpu, precision, batch) / tp / bw  # issue 35 round 9: Marlin's 64-row passes
    rows0 = WEIGHT_ONLY_TILE_ROWS if weight_only(gpu, precision) else tile_rows  # small-M weight-only kernels
    grouped = None if tile_rows is not None and rows0 == tile_rows else rows0
    mr = m if pad_rows is None else dataclasses.replace(m, block_scaled=False)  # round 15: DeepGEMM's rate (above)
    t_gemm = lm_head_split_gemm_s(mr, gpu, precision, batch, tp, rows0,
                                  grouped_t0=grouped if pad_rows is None else pad_rows)  # round 15 (h20dec15)
    t_attn = kv_passes * batch * context * kv_bytes_per_token_per_gpu(m, kv_bytes, tp) / kv_read_bandwidth(gpu, eff)
    gemm_k, other_k = decode_kernels_s(m)
    t_read += gemm_k  # the GEMMs' fixed time joins their weight stream; the compute roof's share already holds it
    block_read, block_k = block_fp8_decode_extra_s(m, precision, batch, tp, bw)  # issue 35 round 14 (fp8block14)
    t_read += block_read
    other_k += block_k
    t_sum = no_overlap_gemm_s(mr, gpu, precision, batch, tp, t_read, pad_rows)  # issue 35 round 8 (smallm8)
    # the sum bound binds: the weight stream or the padded FLOPs, whichever is the larger part, names the roof
    read_bound = t_read >= t_gemm or (t_sum < t_gemm and 2.0 * t_read >= t_sum)
    t_gemm = min(t_gemm, t_sum)
    t = max(t_read, t_gemm) + other_k + t_attn + tp_all_reduce_s(m, gpu, tokens=batch, tp=tp)
    host = exposed_host_s(m, t, loop, tp=tp, steps_per_schedule=steps_per_schedule,  # issue 35 round 6 (serve7)
                          batch=batch)  # round 10: V0's host work grows with the running requests
    if loop == "serial":  # issue 35 round 9: V0's output processing overlaps the GPU's step, and shows when longer
        host += max(0.0, v0_output_processing_s(batch) - t)
    # the engine's host work sets the pace where the GPU waits for it longer than it computes (overlapped: any
    # exposed host time; serial: more than the GPU's step): "host" bound, shown as such (breakdown6)
    on_host = host > 0.0 and (loop == "overlapped" or host > t)
    t += host
    return t, ("host" if on_host else "memory" if read_bound else "compute")


# Issue 35, round 8 (smallm8): the tile term cannot make a decode GEMM slower than streaming its weights and then
# multiplying them with no overlap at all. The rows constant :data:`timing.T0` (128: one 128-row CUTLASS/cuBLAS tile,
# set on 16-bit training GEMMs) charges every GEMM the FLOPs of 128 more rows. On the cards it was set on that is about
# the time their weights take to stream (the ridge in rows at the model's shares: A100 BF16 ~130, H100 ~190), so the
# term stands for the weight loads a GEMM does not hide. On a card whose tensor cores are slow for its memory the same
# 128 rows cost several times the weight stream: H20, 148 TFLOPS BF16 against 4.0 TB/s (ridge 37 rows), where a
# Qwen2.5-72B TP 8 decode step of 8–15 tokens came out at 33–37 ms with its weights streaming in ~5.6 ms (advice8).
# A kernel that reads each weight once is never slower than the roofline's sum bound, ``bytes / bandwidth + padded
# FLOPs / rate`` (Williams et al. 2009, "Roofline"; the max is the bound with full overlap, the sum without), and the
# engines' small-M kernels pad the tokens to a narrow tile, not to 128 rows: vLLM's Hopper FP8 GEMM swaps A and B for
# M ≤ 64 so the tokens take a 16-wide tile (``csrc/quantization/cutlass_w8a8/c3x/scaled_mm_sm90_fp8_dispatch.cuh``:
# ``sm90_fp8_config_M16_*`` ``Shape<_64, _16, _256>``, "enable swap AB for M < 64"); TensorRT-LLM's GEMM plugins time
# every tactic for each M rounded up to a power of two and keep the fastest (``GemmPluginProfiler::getBestConfig``,
# cpp/tensorrt_llm/plugins/common/gemmPluginProfiler.cpp). Measured on one H20 (vllm-project/vllm PR #44152, bf16
# fused-MoE ``E=8, N=14336, K=4096, top-2``, tuned): 0.076 ms at 1 token and 0.279 ms at 32 tokens (8 rows an
# expert, all 8 experts' 939 MB read at 3.4 TB/s): the weight stream, where the 128-row term gives 0.38 and 1.6 ms.
#: Token rows a small-M decode kernel pads to (vLLM's swapped 16-wide tile, above).
SMALL_M_TILE_ROWS = 16.0


# Issue 35, round 11 (gemmtile11): the M granularity of TensorRT-LLM's dense FP8 GEMMs on Hopper. The 128-row
# :data:`timing.T0` stands for a 128-row CTA tile. Hopper's warpgroup MMA (``wgmma.mma_async``) is issued for 64 rows
# of A (shapes m64nNk32 for FP8: CUDA PTX ISA, "Asynchronous Warpgroup Level Matrix Multiply-Accumulate"), so a CTA tile
# of 64 rows is the smallest a Hopper kernel runs, and TensorRT-LLM offers it for its dense GEMMs: its SM90 candidate
# tiles (``get_candidate_tiles_sm90``, cpp/tensorrt_llm/kernels/cutlass_kernels/cutlass_heuristic.cpp) are
# ``CtaShape64x{16,32,64,128,256}x128B`` and ``CtaShape128x{16..256}x128B`` for a plain GEMM, and only the 128- and
# 256-row shapes for a GROUPED_GEMM (the MoE experts), and its GEMM plugins time every candidate tactic for each M
# (rounded up to a power of two) and keep the fastest (``GemmPluginProfiler::profileTactics``/``getBestConfig``,
# cpp/tensorrt_llm/plugins/common/gemmPluginProfiler.cpp); the PyTorch backend's per-tensor FP8 linear
# (``FP8QDQLinearMethod.apply``, tensorrt_llm/_torch/modules/linear.py) runs ``cublas_scaled_mm`` (cuBLASLt: its
# algorithm configs include 64-row tiles, ``cublasLtMatmulTile_t`` ``CUBLASLT_MATMUL_TILE_64x64/64x128/64x256`` in
# cublasLt.h; which one its closed heuristic picks per M is not published) and the CUDA-core ``cuda_scaled_mm`` at
# M <= 8. So a TensorRT-LLM decode step's dense FP8 GEMMs on Hopper pay 64 rows of tile, not 128; the MoE experts'
# grouped GEMM keeps 128.
# vLLM keeps 128: its Hopper FP8 CUTLASS dispatch runs ``Shape<_128, _128, _128>`` for every M > 128 and 64-row tiles
# only at M <= 128 (``sm90_fp8_config_default`` "M in (128, inf)", ``sm90_fp8_config_M128`` "M in (64, 128]",
# vllm csrc/quantization/cutlass_w8a8/c3x/scaled_mm_c3x_sm90_fp8_dispatch.cuh), where the small-M bound
# (:func:`no_overlap_gemm_s`) already holds. SGLang: its kernels not read here, kept at ``T0``, as 16-bit GEMMs.
#: Rows of tile a dense FP8 GEMM pays per engine and GPU generation (the rest: :data:`timing.T0`).
DENSE_FP8_TILE_ROWS: dict[tuple[str, str], float] = {("tensorrt-llm", "hopper"): 64.0}


def dense_tile_rows(engine: str | None, gpu: Any, precision: str, m: ServingModel | None = None) -> float | None:
    """Rows of tile the dense GEMMs of ``engine``'s decode step pay on ``gpu`` at ``precision``: a block-scaled
    checkpoint's (``m``; :func:`block_tile_rows`), else :data:`DENSE_FP8_TILE_ROWS`; None: the time model's ``T0``.
    Weight-only formats keep their own pad."""
    if engine is None or precision != "fp8" or weight_only(gpu, precision):
        return None
    block = block_tile_rows(engine, gpu, precision, m)
    return block if block is not None else DENSE_FP8_TILE_ROWS.get((engine, _timing.gpu_generation(gpu)))


# Issue 35, round 15 (h20dec15): the token tile of the BLOCK-scaled FP8 kernels SGLang runs at decode. SGLang serves a
# ``weight_block_size`` checkpoint (Qwen3-*-FP8, DeepSeek-V3/R1) through DeepGEMM on SM90 (``dispatch_w8a8_block_fp8_
# linear``, auto, fp8block14's reading @002ed7e4; ``SGL_ENABLE_JIT_DEEPGEMM`` defaults to "true" on SM90 in
# ``srt/layers/quantization/deep_gemm.py`` since the 0.4.x releases). DeepGEMM's dense GEMM puts the TOKENS on the M
# side of its tile with no operand swap, and picks ``block_ms = (64 if m <= 64 else 128, )`` (deepseek-ai/DeepGEMM
# ``deep_gemm/jit_kernels/config.py`` @ba142b89, ``get_best_configs``; 64 is Hopper's smallest ``wgmma`` M): a decode
# step of 1-64 tokens pays 64 rows of FP8 MMA, a larger one 128-row blocks (the time model's ``T0``). SGLang's Triton
# fallback does the same (``w8a8_block_fp8_matmul``'s default config, no tuned JSON for the shape and card:
# ``BLOCK_SIZE_M`` 64). On an H100 (FP8 ridge ~295 rows, :func:`ridge_rows`) 64 rows are under the weight stream; on
# the H20 (296 TFLOPS FP8 against 4.0 TB/s: ridge 37 rows) they are not: 64 rows of Qwen3-8B-FP8's 7.6 B multiplied
# weights take ~4.3 ms at the planner's H20 FP8 share, against 2.6 ms of weight stream.
# These tiled GEMMs run at the per-tensor FP8 rate, not at :data:`BLOCK_FP8_GEMM_RATIO` (set on FBGEMM's block GEMM):
# DeepGEMM's block-scaled GEMM "achieves up to 1550 TFLOPS on H800" (deepseek-ai/DeepGEMM README, news of 2025-04-18),
# 0.78 of the 1,979 TFLOPS FP8 peak, above the planner's per-tensor share; so :func:`decode_step_s` prices them with
# the checkpoint's block flag off (its block weight stream and quant kernels stay). With it the Qwen3 speed benchmark's
# dense FP8 steps at a 1-token prompt (SGLang 0.4.6.post1, H20; 8B / 14B / 32B: 6.66 / 10.30 / 21.67 ms) come out
# 6.28 / 10.20 / 21.03 ms (each model from its config.json), against 5.68 / 9.23 / 19.57 before
# (bench/validate_serve_h20dec15.py). Dense checkpoints only: an MoE step's experts run SGLang's Triton fused MoE, not
# DeepGEMM (its default block config is ``BLOCK_SIZE_M`` 64 too, srt/layers/moe/fused_moe_triton/fused_moe.py
# ``get_default_config``), and on an H20-class card an untuned Triton block config loses far more than a 64-row pad
# (sgl-project/sglang PR #39306, H20-3e, one token, N=25600 K=6144: 686.84 us generic, 78.25 us with an H20-tuned
# table), which the planner does not model; pricing only the attention projections' DeepGEMM tile moved the held Qwen3
# MoE FP8 rows 2-6 points the wrong way through the bounds above, so MoE checkpoints keep the 16-row rule (the note).
# vLLM's block path (CUTLASS blockwise / DeepGEMM opt-in) and TensorRT-LLM's are not read here: unchanged.
#: Token rows of a dense block-scaled FP8 decode kernel per engine and GPU generation, at 1-64 tokens (no operand
#: swap: the small-M sum bound pays them too).
BLOCK_FP8_TILE_ROWS: dict[tuple[str, str], float] = {("sglang", "hopper"): 64.0}


def block_tile_rows(engine: str | None, gpu: Any, precision: str, m: ServingModel | None) -> float | None:
    """Token rows ``engine``'s block-FP8 decode kernels pad to on ``gpu`` (:data:`BLOCK_FP8_TILE_ROWS`), for a dense
    block-scaled checkpoint ``m`` served at ``fp8``; None otherwise (the 16-row small-M rule holds; MoE: above)."""
    if engine is None or m is None or not block_fp8(m, precision) or weight_only(gpu, precision) or _routed_share(m):
        return None
    return BLOCK_FP8_TILE_ROWS.get((engine, _timing.gpu_generation(gpu)))


def no_overlap_gemm_s(m: ServingModel, gpu: Any, precision: str, batch: float, tp: int, t_read: float,
                      pad_rows: float | None = None) -> float:
    """The roofline's sum bound of a decode step's GEMMs (above): their weight stream ``t_read`` plus their FLOPs on
    the tokens padded to ``pad_rows`` (None: :data:`SMALL_M_TILE_ROWS`) at the large-GEMM share (no tile term)."""
    pad = SMALL_M_TILE_ROWS if pad_rows is None else float(pad_rows)
    rows = row_blocks(batch, pad) * pad
    return t_read + lm_head_split_gemm_s(m, gpu, precision, rows, tp, 0.0, head_t0=0.0)


def lm_head_split_gemm_s(m: ServingModel, gpu: Any, precision: str, batch: float, tp: int,
                         rows0: float | None, head_t0: float | None = None, grouped_t0: Any = "same") -> float:
    """Compute-roof seconds of a decode step's GEMMs of ``batch`` rows: the decoder's at ``precision`` (``rows0``: the
    weight-only pad or the engine's dense tile), the 16-bit LM head at the 16-bit rate (:func:`sixteen_bit_params`;
    identical when 16-bit). ``grouped_t0``: the MoE experts' grouped GEMM's rows constant ("same": ``rows0``)."""
    peak = peak_flops(gpu, precision) or 0.0
    if peak <= 0:
        return math.inf
    head = min(_head16(m), matmul_params(m)) if precision != "bf16" else 0.0
    t = batch * 2.0 * (matmul_params(m) - head) / tp / (peak * gemm_efficiency(m, gpu, precision, batch, tp, t0=rows0))
    t += expert_grouped_gemm_extra_s(m, gpu, precision, batch, batch, tp, rows0,  # issue 35 round 8 (serveoos8)
                                     expert_t0=rows0 if grouped_t0 == "same" else grouped_t0)
    if head > 0:
        p16 = peak_flops(gpu, "bf16") or peak
        t += batch * 2.0 * head / tp / (p16 * gemm_efficiency(m, gpu, "bf16", batch, tp, t0=head_t0))
    return t


# Issue 35, round 8 (serveoos8): an MoE layer's expert GEMMs are a grouped GEMM, one problem per expert, whose rows are
# the tokens routed to THAT expert, not the step's tokens. The engines sort the (token, expert) pairs by expert and run
# each expert's slice as its own GEMM: vLLM ``moe_align_block_size`` (vllm/model_executor/layers/fused_moe/
# fused_moe.py: "Aligns the token distribution across experts to be compatible with block size for matrix
# multiplication", each expert's segment padded to the kernel's BLOCK_SIZE_M) and its CUTLASS path
# ``get_cutlass_moe_mm_problem_sizes_from_expert_offsets`` ("per-expert (M, N, K) problem sizes from
# expert_first_token_offset", vllm/_custom_ops.py); TensorRT-LLM's MoE runner the same (``moe_permute_op`` →
# ``expert_first_token_offset`` → grouped GEMM, tensorrt_llm/_torch/modules/fused_moe; the v0.x plugin's
# ``MoeGemmRunner`` with ``total_tokens_including_expert``). So each expert's tile quantisation is that of its own rows:
# ``B·k / (E·reach)`` on average under balanced routing, reach = ``1 − (1 − k/E)^B`` (:func:`decode_weight_bytes`),
# where the dense rule charged the step's ``B`` rows. Mixtral (k/E = 1/4) at a 3,786-token step: 946 rows an expert.
# A prompt run alone (``prefill_s(own_weights=True)``, an idle replica's first token) keeps its rule: its rows constant
# is the card's ridge (:func:`ridge_rows`, 153–295 rows, above the 128-row tile), which stands for streaming the weights
# the prompt's tokens reach, and those are already only the reached experts' (:func:`decode_weight_bytes`).


def expert_rows(m: ServingModel, tokens: float) -> float:
    """Average GEMM rows of one reached expert when ``tokens`` tokens pass an MoE layer (``tokens`` when dense)."""
    share = _routed_share(m)
    if not share:
        return float(tokens)
    return max(float(tokens) * share / max(_expert_reach(share, float(tokens)), 1e-12), 1.0)


# Issue 35, round 15 (servoos15): an expert's GEMMs are as narrow as its own MLP, split by TP. vLLM's ``FusedMoE``
# shards every expert's MLP over the TP ranks (vllm ``model_executor/layers/fused_moe/layer.py``, ``FusedMoE.__init__``:
# ``intermediate_size_per_partition = intermediate_size // self.tp_size``; w13 ``[E, 2·I/tp, h]``, w2 ``[E, h, I/tp]``;
# SGLang's ``FusedMoE`` the same with ``moe_tp_size``), so the down projection's reduction and the gate/up output are
# ``I / tp`` wide, not ``h / tp``. Fine-grained experts are narrower than the hidden width (Qwen3-235B-A22B: I 1,536
# against h 4,096, 192 columns a rank at TP 8), and the size rule's width factor ``1/(1 + D0/width)``
# (:func:`gemm_efficiency`) then charges that narrower width. Experts wider than ``h`` (Mixtral: 14,336) keep ``h / tp``.
def expert_gemm_width(m: ServingModel, tp: int) -> float:
    """Per-GPU width the routed experts' GEMMs run at: ``min(h, moe_intermediate) / tp`` (``h / tp`` if unknown)."""
    narrow = min(m.hidden, m.moe_intermediate) if m.moe_intermediate > 0 else m.hidden
    return narrow / max(tp, 1)


def expert_grouped_gemm_extra_s(m: ServingModel, gpu: Any, precision: str, tokens: float, rows: float, tp: int,
                                t0: float | None, expert_t0: Any = "same", forward: bool = False) -> float:
    """Seconds the routed experts' GEMMs of ``tokens`` tokens take beyond the dense rule, which ran them at the
    efficiency of the forward's ``rows`` rows (rows constant ``t0``): at each expert's own rows (:func:`expert_rows`)
    instead, with the grouped GEMM's rows constant ``expert_t0`` ("same": ``t0``; :data:`DENSE_FP8_TILE_ROWS`).
    0 when dense."""
    peak = peak_flops(gpu, precision) or 0.0
    share = _routed_share(m)
    if peak <= 0 or not share:
        return 0.0
    active = m.expert_params * share
    e_step = gemm_efficiency(m, gpu, precision, rows, tp, t0=t0, forward=forward)
    e_expert = gemm_efficiency(m, gpu, precision, expert_rows(m, rows), tp, t0=t0 if expert_t0 == "same" else expert_t0,
                               forward=forward, width=expert_gemm_width(m, tp))  # issue 35 round 15 (servoos15)
    return max(tokens * 2.0 * active / tp / peak * (1.0 / e_expert - 1.0 / e_step), 0.0)


def prefill_s(m: ServingModel, gpu: Any, *, precision: str, prompt: float, tp: int, eff: ServingEfficiency,
              rows: float | None = None, own_weights: bool = False, forward_rows: float | None = None,
              attn_precision: str | None = None, engine: str | None = None) -> float:
    """GPU seconds of one prompt's prefill inside a running batch: the linear layers' ``2·N·P`` FLOPs at
    :func:`gemm_efficiency` of ``rows`` GEMM rows (default 8192, the large cards' scheduler budget
    :func:`token_budget`: continuous batching mixes the prompt with other tokens), causal attention ``2·layers·heads·d·P²`` at the
    same share, and its TP all-reduces. Its weights are read by the step it joins (:func:`decode_step_s` charges
    that read). ``own_weights``: the prompt runs alone (an idle replica's first token, a static batch's context
    phase), so its GEMMs stream the weights themselves: the rows constant is then the card's ridge
    (:func:`ridge_rows`), not the tile constant ``T0`` (issue 35, round 3: the FP8 first-token rows at 128-token
    prompts). ``forward_rows``: the tokens of the forward whose all-reduces the prompt shares (default ``rows``;
    :func:`prefill_all_reduce_s`). ``attn_precision``: the attention products' precision (:func:`attention_precision`;
    default ``precision``). ``engine``: an 8-bit forward of an engine in :data:`EIGHT_BIT_16BIT_ACTIVATION_ENGINES`
    speeds up only its matmuls (:func:`eight_bit_gemm_share`; None: the matmul ratio on the whole forward)."""
    peak = peak_flops(gpu, precision) or 0.0
    if peak <= 0:
        return math.inf
    r = float(rows) if rows is not None else float(LARGE_BUDGET[0])
    lin = 2.0 * matmul_params(m, prompt) * prompt / tp  # the LM head on the prompt's last token only
    attn = 2.0 * m.num_layers * m.num_heads * m.head_dim * prompt * prompt / tp
    t0 = ridge_rows(gpu, precision) if own_weights else None
    fwd = eight_bit_forward(engine)  # issue 35 round 13 (fp8lin13)
    return lin / (peak * gemm_efficiency(m, gpu, precision, r, tp, t0=t0, forward=fwd)) \
        + attention_flops_s(m, gpu, attn, attn_precision or precision, r, tp, t0, forward=fwd) \
        + (0.0 if own_weights else expert_grouped_gemm_extra_s(m, gpu, precision, prompt, r, tp, None, forward=fwd)) \
        + prefill_all_reduce_s(m, gpu, prompt=prompt, rows=r if forward_rows is None else forward_rows, tp=tp)


def attention_flops_s(m: ServingModel, gpu: Any, flops: float, precision: str, rows: float, tp: int,
                      t0: float | None, forward: bool = False) -> float:
    """Seconds of a prefill's attention ``flops`` (per GPU) at ``precision``'s rate and the forward's GEMM share
    (:func:`gemm_efficiency` of ``rows`` rows, rows constant ``t0``; :func:`attention_precision`)."""
    if flops <= 0:
        return 0.0
    peak = peak_flops(gpu, precision) or 0.0
    return math.inf if peak <= 0 else flops / (peak * gemm_efficiency(m, gpu, precision, rows, tp, t0=t0,
                                                                      forward=forward))


# Issue 35, round 6 (serve8): a prompt's tensor-parallel all-reduces are those of the forward it joins. The engines run
# many requests' tokens as one forward of up to the scheduler's token budget: TensorRT-LLM's in-flight batching packs
# the iteration's context chunks and generation tokens into one ragged batch (``remove_input_padding``; perf-overview
# v0.17: "Max Runtime Tokens: 8192", ``--enable_chunked_context``), vLLM V1 schedules prompts and decodes into one
# step of at most ``max_num_batched_tokens``, SGLang batches waiting prompts into one extend batch of up to
# ``chunked_prefill_size``. Each ``RowParallelLinear`` then all-reduces the whole forward's ``rows × h`` once per layer,
# so the collective's fixed latency is paid once per forward, not once per prompt: a prompt of ``P`` tokens in a
# forward of ``R`` rows pays ``P / R`` of that forward's all-reduces. A prompt alone (``R = P``) pays them whole.
def prefill_all_reduce_s(m: ServingModel, gpu: Any, *, prompt: float, rows: float, tp: int) -> float:
    """The all-reduce seconds a prompt of ``prompt`` tokens pays inside a forward of ``rows`` GEMM rows (above):
    ``tp_all_reduce_s(R) × P / R`` with ``R = max(rows, P)``."""
    r = max(float(rows), float(prompt), 1.0)
    return tp_all_reduce_s(m, gpu, tokens=r, tp=tp) * float(prompt) / r


#: Serving engines whose memory reservation and KV allocation are modelled (``inference.engine``).
ENGINES = ("vllm", "sglang", "tensorrt-llm")
DEFAULT_ENGINE = "vllm"
#: The engine's token budget per step and its sequence cap: vLLM's defaults for ``vllm serve``
#: (``EngineArgs.get_batch_defaults``: 8192 tokens and 1024 sequences on GPUs with ≥ 70 GiB other than the A100,
#: else 2048 and 256); TensorRT-LLM ``max_num_tokens`` 8192 (``llmapi/llm_args.py``); SGLang's chunked prefill of
#: 8192 tokens on large cards (``server_args.py`` ``chunked_prefill_size``). The profiling forward that sizes the
#: KV cache runs this many tokens (vLLM ``profile_run``; TensorRT-LLM ``KvCacheCreator``), and a prompt's prefill
#: shares its GEMMs with that many tokens under continuous batching.
LARGE_BUDGET, SMALL_BUDGET = (8192, 1024), (2048, 256)
LARGE_GPU_GIB = 70.0
VLLM_V0_MIN_BATCHED_TOKENS = 2048


def run_budget(engine: str, gpu: Any, budget: tuple[int, int] | None = None) -> tuple[int, int]:
    """(tokens per step, sequences) a run used: its own ``budget`` when it states one (:data:`VLLM_LLM_CLASS_BUDGET`,
    :func:`vllm_v0_budget`), else the engine's server defaults (:func:`token_budget`)."""
    if budget is None:
        return token_budget(engine, gpu)
    return int(budget[0]), int(budget[1])


def vllm_v0_budget(max_model_len: int, max_num_seqs: int = 256) -> tuple[int, int]:
    """vLLM V0 without chunked prefill: ``max(max_model_len, 2048)`` tokens a step (:data:`VLLM_V0_MIN_BATCHED_TOKENS`),
    ``max_num_seqs`` sequences (V0's default 256)."""
    return max(int(max_model_len), VLLM_V0_MIN_BATCHED_TOKENS), int(max_num_seqs)


def token_budget(engine: str, gpu: Any) -> tuple[int, int]:
    """(tokens per step, sequences) of the engine's scheduler on ``gpu`` (:data:`LARGE_BUDGET`)."""
    if engine != "vllm":
        return LARGE_BUDGET[0], SMALL_BUDGET[1]
    big = float(getattr(gpu, "memory_gib", 0) or 0) >= LARGE_GPU_GIB and \
        not str(getattr(gpu, "id", "")).lower().startswith("a100")
    return LARGE_BUDGET if big else SMALL_BUDGET


#: Memory outside PyTorch's allocator (cuBLAS workspaces, NCCL and custom all-reduce buffers) that the engines'
#: profiling subtracts, as their start-up logs print it ("non_torch_memory"): on NVLink H100s 1.79 GiB alone and
#: 3.58 GiB per GPU with TP 2 (vLLM PR #10511, ``vllm serve meta-llama/Meta-Llama-3-8B``, Dec 2024); on PCIe cards
#: 0.30 GiB (vLLM issue #15815, Qwen2.5-32B on two L40S; 0.20–0.25 GiB in issues #13061 and PR #14447). Measured,
#: not derived: vLLM's custom all-reduce and NCCL's NVLink buffers exist only on NVLink-connected cards.
NON_TORCH_GIB = {("nvlink", 1): 1.79, ("nvlink", 2): 3.58, ("pcie", 1): 0.30, ("pcie", 2): 0.30}


def activation_peak_bytes(m: ServingModel, tp: int, budget: tuple[int, int] = LARGE_BUDGET) -> float:
    """Peak of the profiling forward (per GPU) over ``budget`` = (tokens, sequences): one layer's live tensors —
    the residual and normed hidden states (``2h``) and the MLP's gate/up output and activation (``3·ffn/tp``),
    16-bit — and the sampler's :data:`SAMPLER_COPIES` fp32 copies of the logits of the sequences."""
    layer, sampler = _profile_parts(m, tp, budget)
    return layer + sampler


def _profile_parts(m: ServingModel, tp: int, budget: tuple[int, int]) -> tuple[float, float]:
    """The two parts of :func:`activation_peak_bytes`: (one layer's live tensors, the sampler's logits)."""
    tokens, seqs = budget
    return vllm_profile_parts(m.hidden, m.ffn_size or 4 * m.hidden, m.vocab_size, max(tp, 1), tokens, seqs)


def non_torch_bytes(gpu: Any, tp: int, table: dict | None = None) -> float:
    """:data:`NON_TORCH_GIB` (or ``table``, keyed alike) for the card's link (NVLink or not) and one or several
    ranks."""
    return (NON_TORCH_GIB if table is None else table)[(_link(gpu), 1 if tp <= 1 else 2)] * GIB




def vllm_profile_peak_bytes(m: ServingModel, tp: int, budget: tuple[int, int] = LARGE_BUDGET) -> float:
    """The torch peak of vLLM V1's profile run: ``GPUModelRunner.profile_run`` (vllm ``v1/worker/gpu_model_runner.py``)
    runs ``_dummy_run(max_num_tokens)`` and only then ``_dummy_sampler_run`` on its last hidden states, so the
    forward's layer tensors are freed before the sampler's fp32 logits of ``max_num_seqs`` sequences exist: the peak is
    the larger of the two parts of :func:`activation_peak_bytes`, not their sum. Llama-3.1-8B on an H100 (8192 tokens,
    1024 sequences): max(0.78, 1.96) = 1.96 GiB; the vLLM 0.19 log: "torch peak memory increase: 1.89GiB" (Gemma-2-9B,
    vocabulary 256,000: 3.91 against 3.65; Llama 2 7B, 32,000: 0.63 against 0.77)."""
    return max(_profile_parts(m, tp, budget))


#: Issue 35 round 13 (trtmem13): how ``trtllm-bench build --dataset`` sizes a TensorRT-LLM engine for a workload
#: (the build every perf-overview table from v0.13 on states: ``trtllm-bench --model $model_name build --tp_size
#: $tp_size --pp_size $pp_size [--quantization FP8] --dataset $dataset_file``, "uses high-level statistics of the
#: dataset (average ISL/OSL ...) and tuning heuristics to optimize engine build settings", NVIDIA/TensorRT-LLM
#: ``docs/source/performance/perf-overview.md`` as of v0.15.0). ``tensorrt_llm/bench/build/tuning.py``
#: ``calc_engine_setting``: KV share 0.95 of ``n_gpus × NVML total − param_count × bytes`` over ``2 × layers ×
#: max(tp, kv_heads) × head_size × kv bytes × (isl + osl)`` gives the requests the cache holds; ``finetune_setting``
#: caps them at 4096 and the tokens ``requests × (1 + isl/osl)`` at 32768, then rounds the batch up (at least 64; to
#: 32 below 256, 128 below 1024, else 256) and the tokens up (at least 2048; to 256 below 4096, 512 below 8192, else
#: 1024). Values: (KV share, batch cap, token cap, least batch, least tokens).
TRTLLM_BENCH_TUNING = (0.95, 4096, 32768, 64, 2048)


def _round_up(x: float, step: int) -> int:
    return step * math.ceil(x / step)


def trtllm_bench_budget(m: ServingModel, gpu: Any, *, tp: int, precision: str, kv_precision: str | None,
                        prompt: float, output: float) -> tuple[int, int]:
    """(max_num_tokens, max_batch_size) ``trtllm-bench build`` picks for ``prompt``/``output`` token requests
    (:data:`TRTLLM_BENCH_TUNING`, pipeline parallel 1). Llama-3.1-70B BF16 on two A100 80GB at 1000/1000: (2 × 79.2 −
    131.4) × 0.95 = 25.8 GiB over 2000 × 320 KiB = 42.3 requests: (2048, 64)."""
    share, bs_cap, tok_cap, bs_min, tok_min = TRTLLM_BENCH_TUNING
    w_bytes = {"fp8": 1.0, "fp4": 0.5}.get(precision, 2.0)  # tuning.py BYTES_PER_ELEM; other formats: 2
    kvb = KV_BYTES[kv_precision_for(precision, kv_precision)]
    per_token = 2.0 * m.num_layers * max(tp, m.num_kv_heads) * m.head_dim * kvb
    avail = max(tp, 1) * visible_memory_bytes(gpu) - m.params_total * w_bytes
    raw_bs = min(max(share * avail, 0.0) / (per_token * max(prompt + output, 1.0)), bs_cap)
    raw_tok = min(raw_bs * (1.0 + prompt / max(output, 1.0)), tok_cap)
    if raw_bs < 256:
        bs = max(bs_min, _round_up(raw_bs, 32))
    else:
        bs = _round_up(raw_bs, 128 if raw_bs < 1024 else 256)
    if raw_tok < 4096:
        tok = max(tok_min, _round_up(raw_tok, 256))
    else:
        tok = _round_up(raw_tok, 512 if raw_tok < 8192 else 1024)
    return int(tok), int(bs)


def workload_budget(m: ServingModel, gpu: Any, *, tp: int, engine: str, precision: str, kv_precision: str | None,
                    prompt: float, output: float) -> tuple[int, int] | None:
    """The (tokens, sequences) budget an engine is built with for this workload: TensorRT-LLM's
    :func:`trtllm_bench_budget` (its engine's activation buffers are sized at build by ``max_num_tokens`` and
    ``max_batch_size``); None for vLLM and SGLang (their server defaults, :func:`token_budget`)."""
    if engine != "tensorrt-llm":
        return None
    return trtllm_bench_budget(m, gpu, tp=tp, precision=precision, kv_precision=kv_precision, prompt=prompt,
                               output=output)


def engine_reserved_bytes(m: ServingModel, gpu: Any, tp: int, engine: str,
                          budget: tuple[int, int] | None = None) -> float:
    """Per GPU, what the engine's profiling keeps out of the KV pool besides the weights: vLLM V1's torch peak and
    non-torch increase (:func:`vllm_profile_peak_bytes`, :data:`VLLM_NON_TORCH_GIB`); TensorRT-LLM and SGLang as
    before (:func:`activation_peak_bytes` + :func:`non_torch_bytes`). ``budget``: the scheduler's (tokens, sequences)
    as the run set them (:func:`run_budget`); None: the engine's server defaults (:func:`token_budget`)."""
    budget = run_budget(engine, gpu, budget)
    if engine == "vllm":
        return vllm_profile_peak_bytes(m, tp, budget) + non_torch_bytes(gpu, tp, VLLM_NON_TORCH_GIB)
    return activation_peak_bytes(m, tp, budget) + non_torch_bytes(gpu, tp)


#: SGLang's own ``mem_fraction_static`` when the user sets none (issue 35 round 7): sgl-project/sglang
#: ``python/sglang/srt/server_args.py`` ``ServerArgs._handle_gpu_memory_settings`` (v0.5 line, Oct 2025). By the card's
#: memory in MiB (``get_device_memory_capacity``), rows (below GiB, chunked_prefill_size, cuda_graph_max_bs at TP < 4,
#: at TP >= 4): the function's own table, NVIDIA branches. Unchanged in SGLang's docs build of 2026-02-05, which prints
#: mem_fraction_static=0.835 at TP 1 on an 80 GB card. SGLang 0.3–0.4 used a TP-only table instead (0.88 at TP 1, 0.87
#: TP 2, 0.85 TP 4, 0.81 TP 8, 0.79 TP 16: the rows scored from SGLang 0.3 state theirs).
SGLANG_DEFAULT_BUDGETS = ((20, 2048, 8, 8), (35, 2048, 24, 80), (60, 4096, 32, 160), (160, 8192, 256, 512),
                          (math.inf, 16384, 512, 512))
#: its reserve, in MiB: 512 of constant metadata + 1.5 per chunked-prefill token (at least 2048 tokens) + 2 per
#: CUDA-graph batch + 1024 per 8 ranks (tp × pp / 8 × 1024); at least 10 GiB on cards above 60 GiB
SGLANG_RESERVE_MIB = (512.0, 1.5, 2.0, 1024.0 / 8.0, 60 * 1024.0, 10 * 1024.0)


def sglang_budget_row(gpu: Any) -> tuple:
    """SGLang's row of :data:`SGLANG_DEFAULT_BUDGETS` for ``gpu``, by the memory CUDA reports in MiB
    (:func:`visible_memory_bytes`): the one lookup for its memory fraction (:func:`engine_default_fraction`) and its
    chunked-prefill budget (:func:`prefill_chunk_tokens`)."""
    mib = visible_memory_bytes(gpu) / 1024.0 ** 2
    return next(b for b in SGLANG_DEFAULT_BUDGETS if mib < b[0] * 1024.0)


#: Issue 35 round 10 (serve10): what SGLang has used of each GPU before it loads the weights — the CUDA context and
#: its distributed start (NCCL communicators, the custom all-reduce's buffers) — in GiB, by link and one or several
#: ranks. SGLang's ``mem_fraction_static`` is a share of the memory FREE at that point, not of the card's total:
#: ``ModelRunner.init_torch_distributed`` returns ``min_per_gpu_memory`` (the smallest rank's free memory after
#: ``init_distributed_environment``), ``init_memory_pool(total_gpu_memory=min_per_gpu_memory)`` and
#: ``profile_max_num_token`` keeps ``rest = free_after_weights − total_gpu_memory × (1 − mem_fraction_static)``
#: (sgl-project/sglang ``python/sglang/srt/model_executor/model_runner.py``, v0.3 to v0.5). Measured from the logs'
#: "Load weight begin. avail mem" against CUDA's total: one H100 0.38 GiB (SGLang docs build 2025-01-23, 78.81 of
#: 79.19) and 0.60 (sglang FA3 test PR, 2025-03-25); eight NVLink H100s 1.76 (Grok-2 TP8 log, 2025-09-11: "Init torch
#: distributed ends. mem usage=1.25 GB", 77.43 free) and two 2.02 (DeepSeek-V2 TP2 log, 2024-11-25, 77.17 free); one
#: MI300X 0.65 (191.33 of 191.98, SGLang 0.3); four PCIe L4s 0.86 (QwQ-32B TP4 log, 2025-03-08, 21.63 of 22.49; custom
#: all-reduce off past two PCIe cards). Measured, not derived.
SGLANG_STARTUP_GIB = {("nvlink", 1): 0.5, ("nvlink", 2): 1.9, ("pcie", 1): 0.65, ("pcie", 2): 0.86}


def sglang_kv_pool_bytes(gpu: Any, tp: int, fraction: float, weights: float) -> float:
    """SGLang's KV pool per GPU: ``fraction × (total − start-up) − weights`` (:data:`SGLANG_STARTUP_GIB`), what
    ``profile_max_num_token`` keeps. H100, Llama-3.1-8B, 0.88: 0.88 × (79.22 − 0.5) − 14.96 = 54.31 GiB (logs: 54.26
    and 54.04). Before issue 35 round 10: ``fraction × total − weights − vLLM 0.6's non-torch memory``, 1.3 GiB less
    at TP 1 and ~1.9 GiB less with NVLink TP."""
    total = visible_memory_bytes(gpu)
    return max(fraction * (total - non_torch_bytes(gpu, tp, SGLANG_STARTUP_GIB)) - weights, 0.0)


def engine_default_fraction(engine: str, gpu: Any, tp: int) -> float:
    """The engine's own memory fraction when the user sets none: vLLM ``gpu_memory_utilization`` 0.9 (vllm
    ``config/cache.py`` ``CacheConfig``); TensorRT-LLM ``KvCacheConfig.free_gpu_memory_fraction`` 0.9 of the memory
    left free (``tensorrt_llm/llmapi/llm_args.py``); SGLang ``mem_fraction_static`` =
    ``round((mem − reserve) / mem, 3)`` with :data:`SGLANG_DEFAULT_BUDGETS` and :data:`SGLANG_RESERVE_MIB`, ``mem``
    the memory CUDA reports (:func:`visible_memory_bytes`, MiB). H100 80GB TP 1: reserve 512 + 12,288 + 512 + 128 =
    13,440 MiB, 0.834; TP 4: 14,336 MiB, 0.823; RTX 4090 TP 1: 3,760 MiB, 0.847."""
    if engine != "sglang":
        return GPU_MEMORY_UTILIZATION
    mib = visible_memory_bytes(gpu) / 1024.0 ** 2
    if mib <= 0:
        return GPU_MEMORY_UTILIZATION
    _, chunk, small, large = sglang_budget_row(gpu)
    graphs = small if tp < 4 else large
    base, per_token, per_graph, per_rank, floor_above, floor = SGLANG_RESERVE_MIB
    reserve = base + max(chunk, 2048) * per_token + graphs * per_graph + max(tp, 1) * per_rank
    if mib > floor_above:
        reserve = max(reserve, floor)
    return round((mib - reserve) / mib, 3)


def memory_fraction(engine: str, gpu: Any, tp: int, utilization: float | None) -> float:
    """The user's fraction as given; None: the engine's own default (:func:`engine_default_fraction`)."""
    return engine_default_fraction(engine, gpu, tp) if utilization is None else float(utilization)


def kv_cache_bytes_per_gpu(m: ServingModel, gpu: Any, *, precision: str, tp: int, engine: str = DEFAULT_ENGINE,
                           utilization: float | None = GPU_MEMORY_UTILIZATION,
                           budget: tuple[int, int] | None = None) -> float:
    """Bytes of KV cache the engine allocates on each GPU of the ``tp`` group (``utilization`` is the engine's own
    memory knob):

    ``total`` is what CUDA reports (:func:`visible_memory_bytes`).

    * ``vllm``: ``total × gpu_memory_utilization − weights − activation peak − non-torch memory``
      (vllm ``v1/worker/gpu_worker.py`` ``determine_available_memory``); CUDA graphs are captured afterwards in
      the ``1 − gpu_memory_utilization`` left over; the peak and the non-torch share are V1's own
      (:func:`engine_reserved_bytes`, issue 35 round 7);
    * ``tensorrt-llm``: ``kv_cache_free_gpu_mem_fraction × (total − weights − activation peak − non-torch)``: a
      share of the memory still FREE after the profiling forward (``KvCacheConfig.free_gpu_memory_fraction``,
      default 0.9; ``_torch/pyexecutor/_util.py``);
    * ``sglang``: ``mem_fraction_static × (total − start-up) − weights`` (:func:`sglang_kv_pool_bytes`): the
      static pool holds weights and KV cache, activations and CUDA graphs use the rest; the pool is what the memory
      free after loading exceeds ``free-at-start × (1 − mem_fraction_static)`` by (sglang ``model_runner``
      ``profile_max_num_token``; issue 35 round 10).
    """
    total = visible_memory_bytes(gpu)
    utilization = memory_fraction(engine, gpu, tp, utilization)  # None: the engine's own default (issue 35 r7)
    w = weight_bytes(m, precision) / max(tp, 1)
    if engine == "sglang":
        return sglang_kv_pool_bytes(gpu, tp, utilization, w)  # issue 35 r10: a share of the free memory
    other = engine_reserved_bytes(m, gpu, tp, engine, budget)  # issue 35 r7: vLLM V1's own split
    if engine == "tensorrt-llm":
        return max(utilization * (total - w - other), 0.0)
    return max(total * utilization - w - other, 0.0)


def max_running_requests(engine: str, gpu: Any, budget: tuple[int, int] | None = None) -> int | None:
    """Requests the engine's scheduler runs at once at most, whatever memory allows (None: memory alone). vLLM stops
    admitting at ``max_num_seqs`` (``EngineArgs.get_batch_defaults``: 1024 on cards of at least 70 GiB other than the
    A100, else 256; vLLM ≤ 0.6: 256 on every card), the second figure of :func:`token_budget`. TensorRT-LLM's
    ``trtllm-bench`` sets ``max_batch_size`` from the dataset and the memory (its perf-overview tables run batches in
    the thousands), and SGLang's ``max_running_requests`` is ``max_total_num_tokens // 2`` (``scheduler.py``), both
    above what memory holds at these contexts, so memory alone decides there. ``budget``: the run's own (tokens,
    sequences), as :func:`run_budget`."""
    return run_budget(engine, gpu, budget)[1] if engine == "vllm" else None


def reserved_context(engine: str, prompt: float, output: float, average: float) -> float:
    """KV tokens the scheduler holds per running request. vLLM and SGLang allocate pages as a request grows
    (PagedAttention; preemption when full): the average context. TensorRT-LLM's default capacity policy
    ``GUARANTEED_NO_EVICT`` admits a request only with blocks for its whole prompt + ``max_tokens``
    (``llmapi/llm_args.py`` ``SchedulerConfig.capacity_scheduler_policy``)."""
    return float(prompt) + float(output) if engine == "tensorrt-llm" else float(average)


def max_batch_by_memory(m: ServingModel, gpu: Any, *, precision: str, kv_bytes: float, context: float, tp: int,
                        eff: ServingEfficiency, utilization: float | None = GPU_MEMORY_UTILIZATION,
                        engine: str = DEFAULT_ENGINE, budget: tuple[int, int] | None = None) -> int:
    """Requests whose ``context`` tokens of KV cache fit on the replica (:func:`kv_cache_bytes_per_gpu`; ``budget``
    the engine's build budget, :func:`workload_budget`)."""
    free = kv_cache_bytes_per_gpu(m, gpu, precision=precision, tp=tp, engine=engine, utilization=utilization,
                                  budget=budget)
    per_req = max(context, 1.0) * kv_bytes_per_token_per_gpu(m, kv_bytes, tp)
    return max(0, int(free // per_req)) if free > 0 else 0


def replica(m: ServingModel, gpu: Any, *, precision: str, kv_precision: str | None, context: float, prompt: float,
            output: float, tp: int, tokens_per_s_per_user: float | None, max_batch: int | None = None,
            eff: ServingEfficiency = ServingEfficiency(),
            utilization: float | None = GPU_MEMORY_UTILIZATION, engine: str = DEFAULT_ENGINE) -> ReplicaPoint | None:
    """The largest batch a ``tp``-card replica runs within memory and the latency target (None: not even one
    request). ``context`` is the KV each request holds on average (prompt plus the output generated so far);
    the engine reserves :func:`reserved_context` per request. The target counts the other requests' prefills
    that stall every running user (module docstring)."""
    if not gpu.mem_bw_tbs or not gpu.memory_gib or peak_flops(gpu, precision) is None:
        return None
    kvb = KV_BYTES[kv_precision_for(precision, kv_precision)]
    held = reserved_context(engine, prompt, output, context)
    built = workload_budget(m, gpu, tp=tp, engine=engine, precision=precision, kv_precision=kv_precision,
                            prompt=prompt, output=output)  # issue 35 r13: TensorRT-LLM's engine built for the load
    b_mem = max_batch_by_memory(m, gpu, precision=precision, kv_bytes=kvb, context=held, tp=tp, eff=eff,
                                utilization=utilization, engine=engine, budget=built)
    cap = max_running_requests(engine, gpu)  # the scheduler's own sequence cap (vLLM max_num_seqs)
    b = b_mem if cap is None else min(b_mem, cap)
    b = b if max_batch is None else min(b, int(max_batch))
    if b < 1:
        return None
    pre = prefill_s(m, gpu, precision=precision, prompt=prompt, tp=tp, eff=eff,
                    rows=token_budget(engine, gpu)[0], attn_precision=attention_precision(precision, kv_precision),
                    engine=engine)
    own = engine in SEPARATE_PREFILL_ENGINES  # issue 35 r18 (servoos18): SGLang's prefill is a forward of its own

    def stall(n: float) -> float:  # prefill seconds a decode step carries at batch n
        if not own:
            return n * pre / max(output, 1.0)
        return separate_prefill_step_s(m, gpu, precision=precision, prompt=prompt, arrivals=n / max(output, 1.0),
                                       tp=tp, eff=eff, chunk=prefill_chunk_tokens(engine, gpu),
                                       attn_precision=attention_precision(precision, kv_precision), engine=engine)
    tile = dense_tile_rows(engine, gpu, precision, m)  # issue 35 round 11 (gemmtile11)
    pad = block_tile_rows(engine, gpu, precision, m)  # issue 35 round 15 (h20dec15)
    if tokens_per_s_per_user:
        target = 1.0 / float(tokens_per_s_per_user)
        # time per token a user sees grows with the batch: the largest batch meeting the target (bisection)
        lo, hi = 0, b
        while lo < hi:
            mid = (lo + hi + 1) // 2
            t, _ = decode_step_s(m, gpu, precision=precision, kv_bytes=kvb, batch=mid, context=context, tp=tp, eff=eff,
                                 loop=ENGINE_LOOP[engine], tile_rows=tile, pad_rows=pad)
            if t + stall(mid) <= target:
                lo = mid
            else:
                hi = mid - 1
        b = lo
        if b < 1:
            return None
    t, bound = decode_step_s(m, gpu, precision=precision, kv_bytes=kvb, batch=b, context=context, tp=tp, eff=eff,
                             loop=ENGINE_LOOP[engine], tile_rows=tile,
                             pad_rows=pad)  # the engine's host work per step (round 6)
    tps = b / (t + stall(b))
    pre = stall(b) * max(output, 1.0) / b if own else pre  # per request, as load_latency reads it
    mem = (weight_bytes(m, precision) / tp + b * held * kv_bytes_per_token_per_gpu(m, kvb, tp)
           + engine_reserved_bytes(m, gpu, tp, engine, built)) / GIB
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
    engine: str = DEFAULT_ENGINE
    kv_cache_gib_per_gpu: float = 0.0  # the KV pool the engine allocates on each card (kv_cache_bytes_per_gpu)
    ttft_s: float = 0.0  # an idle replica's time to the first token (time_to_first_token_s + api_request_wait_s)
    # issue 35 round 17 (servoos17): the 95th percentiles a user sees while the replica runs its full batch
    # (:func:`load_latency`), and an offline job's throughput target (output tokens/s, all replicas; None: none)
    p95_itl_s: float = 0.0
    p95_ttft_s: float = 0.0
    target_tokens_per_s: float | None = None
    output_tokens: int = 0
    # issue 35 round 17 (servadv17): when a long prompt stalls the running users past twice the target's gap, the
    # smaller chunked-prefill token budget that bounds the stall (:func:`stall_advice`) and the p95s it gives (None
    # and 0: no advice)
    stall_budget: int | None = None
    stall_p95_itl_s: float = 0.0
    stall_p95_ttft_s: float = 0.0
    # issue 35 round 18 (serve18): an offline job's replicas count at 1/far_end of their modelled tokens/s, the far
    # end of the serving validation band (:func:`throughput_far_end`); 1.0 for an interactive load
    far_end: float = 1.0

    def to_json(self) -> dict:
        out = {k: getattr(self, k) for k in self.__dataclass_fields__ if k != "messages"}
        out["messages"] = [m.render() for m in self.messages]
        return out


def size_serving(m: ServingModel, gpu: Any, *, concurrency: int, context_tokens: int, prompt_tokens: int,
                 output_tokens: int, precision: str = "bf16", kv_precision: str | None = None,
                 tokens_per_s_per_user: float | None = 20.0, gpus_per_node: int | None = None,
                 eff: ServingEfficiency = ServingEfficiency(),
                 gpu_memory_utilization: float | None = GPU_MEMORY_UTILIZATION,
                 engine: str = DEFAULT_ENGINE, spread: str = "fixed",
                 target_tokens_per_s: float | None = None) -> ServingSize | None:
    """The fewest cards of ``gpu`` that serve ``concurrency`` users (``target_tokens_per_s``: an offline job's
    output tokens per second instead, :func:`offline_replicas`): at each tensor-parallel group (1, 2, 4 … up
    to the node, dividing the attention heads as vLLM requires) as many replicas as the users need; the group
    with the fewest cards in all wins, the smaller group on a tie (less all-reduce per step). The smallest group
    that fits is not always the fewest cards: when the weights fill most of a card (a 30B MoE on an 80 GB card)
    its KV room holds few users, and a group of two holds many times more (the weights split, the KV pool grows).
    The KV cache is reserved at the average context (prompt + half the output), PagedAttention's allocation
    as a request grows (TensorRT-LLM: the whole request, :func:`reserved_context`); with a ``spread`` of request
    lengths, the length-biased average a running request holds (:func:`held_context`). None when no group inside one
    node can serve one user."""
    if engine_runs_no_fp8(engine, precision, gpu):
        return None
    slots = int(gpus_per_node or gpu.gpus_per_node or 8)
    kw = dict(concurrency=concurrency, context_tokens=context_tokens, prompt_tokens=prompt_tokens,
              output_tokens=output_tokens, precision=precision, kv_precision=kv_precision,
              tokens_per_s_per_user=tokens_per_s_per_user, slots=slots, eff=eff,
              gpu_memory_utilization=gpu_memory_utilization, engine=engine, spread=spread,
              target_tokens_per_s=target_tokens_per_s)
    best = thin = None
    tp = 1
    while tp <= slots:
        if m.num_heads % tp == 0:
            size = _size_at(m, gpu, tp, **kw)
            if size is not None and kv_far_end_users(size) == 0:
                thin = size if thin is None or size.num_gpus < thin.num_gpus else thin
            elif size is not None and (best is None or size.num_gpus < best.num_gpus):
                best = size
        tp *= 2
    return _room_first(best, thin)


# vLLM >= 0.21 captures sample CUDA graphs before sizing its KV pool and subtracts their estimate ("Estimated CUDA
# graph memory": 0.3-2.2 GiB per GPU in the start-up logs read for docs/validation_inference.md, "KV capacity against
# the engines' start-up logs"); the pool model here does not count it (no formula found). The far end of that range
# is what a current vLLM may hold back from a replica's KV pool (issue 35 round 7, advice7).
VLLM_GRAPH_POOL_GIB = 2.2


def kv_far_end_users(size: ServingSize) -> int | None:
    """Requests a replica's KV pool holds when a current vLLM keeps :data:`VLLM_GRAPH_POOL_GIB` per GPU for its CUDA
    graphs: ``floor((pool − 2.2 GiB) × tp / KV per request)``; None for other engines (SGLang and TensorRT-LLM size
    their pools after their own graph memory: not this term) or without a per-request figure. 0: vLLM would not
    start (its KV cache cannot hold one sequence)."""
    per_req = float(size.kv_cache_gib_per_request)
    if size.engine != "vllm" or per_req <= 0.0:
        return None
    return max(0, int((float(size.kv_cache_gib_per_gpu) - VLLM_GRAPH_POOL_GIB) * size.tp / per_req))


def _room_first(best: ServingSize | None, thin: ServingSize | None) -> ServingSize | None:
    """:func:`size_serving`'s choice: the fewest cards among the TP groups whose KV pool keeps room under a current
    vLLM (:func:`kv_far_end_users`); a group with fewer cards but no room is said on the plan, not taken (issue 35
    round 7, advice7: Qwen2.5-72B int4 on RTX 4090s, TP 2 leaves 1.8 GiB of KV per card; vLLM's docs, Optimization
    and Tuning, "Preemption": a larger TP group gives each GPU more KV room). Only groups without room: the fewest."""
    if best is None or thin is None or thin.num_gpus >= best.num_gpus:
        return best if best is not None else thin
    msg = Msg(CTX, QT_TRANSLATE_NOOP(
        CTX, "TP {tp} would need {n} cards, but leaves {kv:.1f} GiB of KV cache per card: a current vLLM keeps up to "
             "{graphs:.1f} GiB per card for CUDA graphs before sizing it, which would leave no room for one request. "
             "Planned at TP {best_tp} ({best_n} cards)."),
        {"tp": thin.tp, "n": thin.num_gpus, "kv": float(thin.kv_cache_gib_per_gpu), "graphs": VLLM_GRAPH_POOL_GIB,
         "best_tp": best.tp, "best_n": best.num_gpus})
    return dataclasses.replace(best, messages=tuple(best.messages) + (msg,))


def _size_at(m: ServingModel, gpu: Any, tp: int, *, concurrency: int, context_tokens: int, prompt_tokens: int,
             output_tokens: int, precision: str, kv_precision: str | None, tokens_per_s_per_user: float | None,
             slots: int, eff: ServingEfficiency, gpu_memory_utilization: float | None, engine: str,
             spread: str = "fixed", target_tokens_per_s: float | None = None) -> ServingSize | None:
    """:func:`size_serving` at one tensor-parallel group ``tp`` (None: a replica of ``tp`` cards cannot serve one
    user at the target). An offline target runs every replica at its full batch (the engine's queue holds the
    documents) and takes the replicas the target needs (:func:`offline_replicas`)."""
    avg_ctx = min(float(context_tokens), held_context(prompt_tokens, output_tokens, spread))
    rp = replica(m, gpu, precision=precision, kv_precision=kv_precision, context=avg_ctx,
                 prompt=prompt_tokens, output=output_tokens, tp=tp, tokens_per_s_per_user=tokens_per_s_per_user,
                 eff=eff, utilization=gpu_memory_utilization, engine=engine)
    if rp is None:
        return None
    far = throughput_far_end() if target_tokens_per_s else 1.0  # issue 35 r18 (serve18): offline at the far end
    b = rp.batch if target_tokens_per_s else min(rp.batch, concurrency)
    if b < rp.batch:
        rp = replica(m, gpu, precision=precision, kv_precision=kv_precision, context=avg_ctx,
                     prompt=prompt_tokens, output=output_tokens, tp=tp, tokens_per_s_per_user=None,
                     max_batch=b, eff=eff, utilization=gpu_memory_utilization, engine=engine)
    replicas = -(-concurrency // rp.batch) if not target_tokens_per_s else \
        offline_replicas(target_tokens_per_s, rp.output_tokens_per_s, far)
    concurrency = concurrency if not target_tokens_per_s else replicas * rp.batch
    kvp = kv_precision_for(precision, kv_precision)
    ttft = time_to_first_token_s(m, gpu, prompt_tokens=prompt_tokens, precision=precision, tp=tp, eff=eff,
                                 loop=ENGINE_LOOP[engine], chunk=prefill_chunk_tokens(engine, gpu), kv_precision=kvp,
                                 engine=engine) + api_request_wait_s(engine)
    msgs: list[Msg] = []
    if precision in ("int8", "int4"):
        msgs.append(Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "{p} weights: check the quality on your own evaluation set before serving."),
            {"p": precision}))
    if precision == "fp8" and fp8_weight_only(gpu) and engine == "vllm":
        msgs.append(Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "{gpu} has no FP8 tensor cores: vLLM runs the FP8 weights weight-only (W8A16, FP8 Marlin kernel), so "
                 "they take half the memory of 16-bit weights while the matrix products run at the 16-bit rate "
                 "(counted in the time)."), {"gpu": gpu.name}))
    return ServingSize(
        gpu_id=gpu.id, gpu_name=gpu.name, precision=precision, kv_precision=kvp, concurrency=concurrency,
        context_tokens=int(context_tokens), tokens_per_s_per_user=tokens_per_s_per_user, tp=tp,
        batch_per_replica=rp.batch, replicas=replicas, num_gpus=replicas * tp, gpus_per_node=slots,
        weights_gib=weight_bytes(m, precision) / GIB,
        kv_cache_gib_per_request=avg_ctx * kv_bytes_per_token_per_gpu(m, KV_BYTES[kvp], tp) * tp / GIB,
        memory_per_gpu_gib=rp.memory_per_gpu_gib, step_s=rp.step_s, prefill_s=rp.prefill_s,
        bound=rp.bound, tokens_per_s_per_gpu=rp.output_tokens_per_s / tp,
        tokens_per_s=rp.output_tokens_per_s * replicas, messages=tuple(msgs), engine=engine,
        kv_cache_gib_per_gpu=kv_cache_bytes_per_gpu(
            m, gpu, precision=precision, tp=tp, engine=engine, utilization=gpu_memory_utilization,
            budget=workload_budget(m, gpu, tp=tp, engine=engine, precision=precision, kv_precision=kv_precision,
                                   prompt=prompt_tokens, output=output_tokens)) / GIB,
        ttft_s=ttft, **load_latency(rp, prompt=prompt_tokens, output=output_tokens, mixed=engine != "sglang",
                                    chunk=prefill_chunk_tokens(engine, gpu), idle_ttft_s=ttft).to_fields(),
        target_tokens_per_s=target_tokens_per_s, output_tokens=int(output_tokens), far_end=far,
        **stall_advice(rp, prompt=prompt_tokens, output=output_tokens, engine=engine, gpu=gpu, idle_ttft_s=ttft,
                       tokens_per_s_per_user=None if target_tokens_per_s else tokens_per_s_per_user))


#: Issue 35 round 17 (servoos17, advice17): the percentile of the latency figures a serving plan states: the p95
#: advice17 asked for. vLLM's ``benchmark_serving`` reports any percentile of TTFT, TPOT and ITL asked for with
#: ``--metric-percentiles`` (vllm-project/vllm PR #7062, "p90 and p95 for serving benchmark").
LATENCY_QUANTILE = 0.95


@dataclass(slots=True, frozen=True)
class LoadLatency:
    """The latencies a user sees while a replica runs its full batch (:func:`load_latency`)."""

    itl_s: float  # 95th percentile of the time between two of a running user's tokens
    ttft_s: float  # 95th percentile of a new request's time to its first token
    stalled_share: float  # share of decode steps that carry prefill work

    def to_fields(self) -> dict[str, float]:
        return {"p95_itl_s": self.itl_s, "p95_ttft_s": self.ttft_s}


def poisson_quantile(mean: float, q: float = LATENCY_QUANTILE) -> int:
    """The smallest ``k`` with P(N ≤ k) ≥ ``q`` for N ~ Poisson(``mean``): how many whole prompts land in one step
    of an engine that prefills them whole, when the batch's users send their next request independently."""
    k, term = 0, math.exp(-max(mean, 0.0))
    cdf = term
    while cdf < q and k < 10_000:
        k += 1
        term *= mean / k
        cdf += term
    return k


def load_latency(rp: ReplicaPoint, *, prompt: float, output: float, chunk: int | None,
                 idle_ttft_s: float, mixed: bool = True) -> LoadLatency:
    """95th-percentile inter-token latency and time to first token of a replica at its batch ``rp.batch`` under
    continuous batching, from the prefill stalls :func:`replica` already counts. In steady state ``b/output`` new
    requests join per decode step, each bringing a prefill of ``rp.prefill_s``: the mean time per token is
    ``step + b·prefill/output`` (what the latency target is held to). The stalls are not spread evenly:
    * an engine with chunked prefill (``chunk``: vLLM V1, SGLang, :data:`CHUNKED_PREFILL_ENGINES`) schedules the
      running decodes first and fills the rest of the step's token budget, ``chunk − b`` tokens, with prompt tokens
      (vLLM docs, Optimization and Tuning, "Chunked Prefill": "the scheduling policy prioritizes decode requests. It
      batches all pending decode requests before scheduling any prefill operations"; docs.vllm.ai/en/v0.8.3/
      performance/optimization.html). A prompt rides ``ceil(P/(chunk − b))`` steps, so a share
      ``f = (b/output)·ceil(P/(chunk − b))`` of the steps carries a chunk and takes ``step + prefill·min(P, chunk −
      b)/P`` (a prompt shorter than the budget joins one step whole: vLLM's 8,192-token budget on large cards takes
      a 3,584-token prompt in one step); the p95 step is that one when ``f ≥ 5%``, the plain step when fewer steps
      carry one, and the mean stalled step when every step does (``f ≥ 1``: the budget binds). ``mixed`` False:
      SGLang runs a prefill chunk as its own batch before the decodes (``ServerArgs.enable_mixed_chunk = False``),
      so the whole ``chunk`` goes to the prompt and the stall is the same chunk's time;
    * an engine that prefills a prompt whole (TensorRT-LLM's default, no chunked context) runs whole prompts inside
      a decode step: the prompts per step are Poisson with mean ``b/output`` and the p95 step carries
      :func:`poisson_quantile` of them ("generation stalls", Agrawal et al., Sarathi-Serve, OSDI 2024, §3).
    A new request waits for the step in flight (its 95th percentile: 0.95 of a mean step), then its prompt rides
    ``ceil(P/(chunk − b))`` steps with the running decodes (one for a whole prompt, behind the other prompts of its
    step): the idle replica's first token ``idle_ttft_s`` plus those steps' decode work."""
    b, t, pre, p = float(rp.batch), float(rp.step_s), float(rp.prefill_s), max(float(prompt), 1.0)
    per_step = b / max(float(output), 1.0)  # new requests joining per decode step
    mean_stall = per_step * pre
    wait = LATENCY_QUANTILE * (t + mean_stall)
    if chunk:
        room = max(float(chunk) - (b if mixed else 0.0), 1.0)
        share = min(1.0, per_step * math.ceil(p / room))  # steps carrying a chunk, per decode step
        stall = mean_stall if share >= 1.0 else (pre * min(p, room) / p if share >= 1.0 - LATENCY_QUANTILE else 0.0)
        return LoadLatency(itl_s=t + stall, ttft_s=idle_ttft_s + wait + math.ceil(p / room) * t, stalled_share=share)
    k = poisson_quantile(per_step)
    return LoadLatency(itl_s=t + k * pre, ttft_s=idle_ttft_s + wait + t + max(k - 1, 0) * pre,
                       stalled_share=min(1.0, 1.0 - math.exp(-per_step)))


#: Issue 35 round 17 (servadv17): a plan advises a smaller prefill budget when its p95 time between tokens exceeds
#: this many of the target's gaps (``1/tokens_per_s_per_user``): past two gaps a long prompt costs every running user
#: at least one whole missed token (a visible stutter), though the mean holds the target. A judgement, not a fit.
STALL_ADVICE_GAPS = 2.0
#: the step of the budgets :func:`stall_advice` tries (a multiple of 256, like the engines' own defaults: vLLM 2,048
#: / 8,192, SGLang 2,048 / 4,096 / 8,192 / 16,384)
STALL_BUDGET_STEP = 256
#: the smallest budget :func:`stall_advice` offers: vLLM's first chunked-prefill default, "set to 512, which has the
#: best ITL on A100 in the initial benchmark" (vllm-project/vllm PR #4580, "[Doc] Chunked Prefill Documentation",
#: May 2024). Below it a step's GEMMs fall under the card's ridge and re-read the weights for little work, which the
#: default budget's per-request prefill time (what the advice keeps) would not show.
STALL_BUDGET_FLOOR = 512


def stall_advice(rp: ReplicaPoint, *, prompt: float, output: float, engine: str, gpu: Any, idle_ttft_s: float,
                 tokens_per_s_per_user: float | None) -> dict[str, Any]:
    """The chunked-prefill token budget that bounds a long prompt's stall, for an interactive plan whose p95 time
    between tokens (:func:`load_latency` at the engine's default budget) exceeds :data:`STALL_ADVICE_GAPS` target gaps.
    vLLM docs, Optimization and Tuning, "Chunked Prefill" (docs.vllm.ai/en/v0.8.3/performance/optimization.html):
    "Smaller values (e.g., 2048) achieve better inter-token latency (ITL) because there are fewer prefills slowing
    down decodes" (``--max-num-batched-tokens``); SGLang ``--chunked-prefill-size`` with ``--enable-mixed-chunk``
    (``ServerArgs``), TensorRT-LLM ``trtllm-serve --enable_chunked_prefill`` with ``--max_num_tokens`` (8,192 by
    default; ``llmapi/llm_args.py``; "Chunked Context", docs/source/advanced/gpt-attention.md): the same mechanism, a
    prompt's chunk riding a decode step (``mixed``). The budget: the largest multiple of :data:`STALL_BUDGET_STEP`
    below the default, down to :data:`STALL_BUDGET_FLOOR`, whose p95 is within one gap, else the one with the lowest
    p95, among those whose chunked steps
    stay under every step (``stalled_share`` < 1: the prompts still keep up with the batch). The per-request
    prefill time is the default budget's (smaller chunks' lower GEMM efficiency not counted). Sizing is not
    changed. Returns :class:`ServingSize`'s ``stall_*`` fields; empty when there is nothing to advise."""
    if not tokens_per_s_per_user:
        return {}
    gap, chunk = 1.0 / float(tokens_per_s_per_user), prefill_chunk_tokens(engine, gpu)
    now = load_latency(rp, prompt=prompt, output=output, chunk=chunk, idle_ttft_s=idle_ttft_s, mixed=engine != "sglang")
    if now.itl_s <= STALL_ADVICE_GAPS * gap:
        return {}
    top = (chunk or VLLM_LLM_CLASS_BUDGET[False][0]) - 1  # TensorRT-LLM: from the 8,192-token default down
    best: tuple[int, LoadLatency] | None = None
    for budget in range(top // STALL_BUDGET_STEP * STALL_BUDGET_STEP, max(rp.batch, STALL_BUDGET_FLOOR - 1), -STALL_BUDGET_STEP):
        ll = load_latency(rp, prompt=prompt, output=output, chunk=budget, idle_ttft_s=idle_ttft_s, mixed=True)
        if ll.stalled_share >= 1.0:
            break
        if best is None or ll.itl_s < best[1].itl_s:
            best = (budget, ll)
        if ll.itl_s <= gap:
            break
    if best is None or best[1].itl_s >= now.itl_s:
        return {}
    return {"stall_budget": best[0], "stall_p95_itl_s": best[1].itl_s, "stall_p95_ttft_s": best[1].ttft_s}


def offline_replicas(target_tokens_per_s: float, replica_tokens_per_s: float, far_end: float = 1.0) -> int:
    """Replicas an offline batch job needs to generate ``target_tokens_per_s`` output tokens per second, each replica
    at its full batch (``replica_tokens_per_s``, :func:`replica`'s throughput with the prefill stalls): vLLM's
    offline ``LLM.generate`` and ``trtllm-bench throughput`` queue every document and keep the batch full, so
    throughput, not users, sizes the job (vLLM docs, "Offline Inference"; the perf-overview pages' method). With
    ``far_end`` (:func:`throughput_far_end`) each replica counts at ``replica_tokens_per_s / far_end``: the deadline
    holds at the far end of the serving validation band, as a training deadline does (issue 35 r18, serve18)."""
    per = max(float(replica_tokens_per_s) / max(float(far_end), 1.0), 1e-12)
    return max(1, math.ceil(float(target_tokens_per_s) / per - 1e-9))


# issue 35 r18 (serve18): the serving validation band lives in serving_facts (the facts this module reads)


def max_throughput_per_gpu(m: ServingModel, gpu: Any, *, prompt_tokens: int, output_tokens: int, precision: str,
                           kv_precision: str | None = None, tp: int = 1, max_batch: int | None = None,
                           eff: ServingEfficiency = ServingEfficiency(), engine: str = DEFAULT_ENGINE,
                           utilization: float | None = GPU_MEMORY_UTILIZATION, spread: str = "fixed",
                           requests: int | None = None, host_step: float = 1.0, loop: str = "none",
                           steps_per_schedule: int = 1) -> float | None:
    """Output tokens/s per GPU under maximum load (no latency target: the batch memory allows) — what
    TensorRT-LLM's ``trtllm-bench throughput`` tables report (docs/validation_inference.md). Given ``requests``, a
    benchmark run of that many requests whose lengths spread as ``spread`` says around the stated means
    (:func:`request_mix`, :func:`max_load_run`: vLLM's ``benchmark_serving``/``benchmark_throughput``, SGLang's
    ``bench_serving``); without, the steady state at the means."""
    if requests is not None:
        prompts, outputs = request_mix(prompt_tokens, output_tokens, spread, samples=min(MIX_SAMPLES, int(requests)))
        run = max_load_run(m, gpu, prompts=prompts, outputs=outputs, requests=int(requests), precision=precision,
                           kv_precision=kv_precision, tp=tp, engine=engine, utilization=utilization,
                           max_batch=max_batch, eff=eff, host_step=host_step, loop=loop,
                           steps_per_schedule=steps_per_schedule)
        return None if run is None else run.output_tokens_per_s / tp
    if spread != "fixed":
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "a spread of request lengths needs the run's number of requests")))
    avg_ctx = float(prompt_tokens) + float(output_tokens) / 2.0
    rp = replica(m, gpu, precision=precision, kv_precision=kv_precision, context=avg_ctx, prompt=prompt_tokens,
                 output=output_tokens, tp=tp, tokens_per_s_per_user=None, max_batch=max_batch, eff=eff,
                 utilization=utilization, engine=engine)
    return None if rp is None else rp.output_tokens_per_s / tp


def static_batch_tokens_per_s_per_gpu(m: ServingModel, gpu: Any, *, batch: int, prompt_tokens: int,
                                      output_tokens: int, precision: str, kv_precision: str | None = None,
                                      tp: int = 1, eff: ServingEfficiency = ServingEfficiency(),
                                      kv_passes: float = 1.0, loop: str = "none",
                                      engine: str = "tensorrt-llm") -> float:
    """Output tokens/s per GPU of one static batch (all ``batch`` prompts prefilled, then ``output_tokens``
    decode steps at the average context): what TensorRT-LLM's ``gptSessionBenchmark`` measured for its
    v0.6.1 tables at a stated batch size (docs/validation_inference.md). The context phase runs the batch's
    prompts as one forward of ``batch × prompt`` GEMM rows (``remove_input_padding``). ``kv_passes``: the engine
    version's decode attention (:func:`attention_kv_passes`; TensorRT-LLM before XQA). ``loop``: the engine loop's
    host work per step (:func:`exposed_host_s`). ``engine``: whose 8-bit forward the prefill is (:func:`prefill_s`;
    TensorRT-LLM's by default, its FP8 layers one fused graph: :data:`EIGHT_BIT_16BIT_ACTIVATION_ENGINES`)."""
    kvb = KV_BYTES[kv_precision_for(precision, kv_precision)]
    pre = batch * prefill_s(m, gpu, precision=precision, prompt=prompt_tokens, tp=tp, eff=eff,
                            rows=batch * prompt_tokens, own_weights=True,
                            attn_precision=attention_precision(precision, kv_precision), engine=engine)
    t, _ = decode_step_s(m, gpu, precision=precision, kv_bytes=kvb, batch=batch,
                         context=prompt_tokens + output_tokens / 2.0, tp=tp, eff=eff, kv_passes=kv_passes, loop=loop)
    return batch * output_tokens / (pre + output_tokens * t) / tp


def time_to_first_token_s(m: ServingModel, gpu: Any, *, prompt_tokens: int, precision: str, tp: int = 1,
                          eff: ServingEfficiency = ServingEfficiency(), loop: str = "none",
                          chunk: int | None = None, kv_precision: str | None = None,
                          engine: str | None = None) -> float:
    """Batch-1 time to the first token on an idle replica: the prompt's prefill alone, its GEMMs at
    :func:`gemm_efficiency` of ``prompt`` rows (a short prompt fills few tiles), or one read of the weights,
    whichever is longer; the forward launches the decode step's kernels, each with its fixed GPU time
    (:func:`decode_kernels_s`, the same sum as :func:`decode_step_s`: the GEMMs' part joins the weight read, the
    others' adds; issue 35 round 6). An idle replica's first step cannot hide the engine loop's host work behind an
    earlier step, so ``loop``'s host time adds whole (:func:`engine_host_s`; issue 35 round 6, serve7); vLLM V0
    (``v0``) runs the prefill without CUDA graphs, so it adds every kernel's launch too (issue 35 round 10).
    ``chunk``: the engine's chunked-prefill budget (:func:`prefill_chunk_tokens`; issue 35 round 11): a longer prompt
    runs as one step per chunk (:func:`_prefill_step_s`). ``kv_precision``: the KV cache's, which sets the attention's
    precision (:func:`attention_precision`; issue 35 round 12). ``engine``: whose 8-bit forward it is
    (:func:`prefill_s`; issue 35 round 13)."""
    p = float(prompt_tokens)
    attn_p = attention_precision(precision, kv_precision)
    step = float(chunk) if chunk and prompt_tokens > chunk else max(p, 1.0)  # min(left, budget) tokens a step
    host = engine_host_s(m, loop, tp=tp, cuda_graphs=loop not in VLLM_V0_ERAS)
    starts = [i * step for i in range(max(1, math.ceil(p / step)))]
    return sum(_prefill_step_s(m, gpu, precision=precision, tokens=min(step, p - s0), prior=s0, tp=tp, eff=eff,
                               attn_precision=attn_p, engine=engine) + host for s0 in starts)


def _prefill_step_s(m: ServingModel, gpu: Any, *, precision: str, tokens: float, prior: float, tp: int,
                    eff: ServingEfficiency, attn_precision: str | None = None, engine: str | None = None) -> float:
    """GPU seconds of one prefill forward of ``tokens`` prompt tokens whose ``prior`` tokens are already in the KV
    cache (:func:`time_to_first_token_s`): :func:`prefill_s` with its own weights, the chunk's attention to the prior
    tokens (``4·layers·heads·d·tokens·prior`` FLOPs: QKᵀ and PV, nothing masked, at the chunk's GEMM share), or one
    read of the weights, whichever is longer, plus the kernels' fixed time. Chunks of a prompt sum to the whole
    prompt's causal attention (``2·layers·heads·d·P²``); what chunking adds is each chunk's weight read, its smaller
    GEMMs and its engine step."""
    ap = attn_precision or precision
    pre = prefill_s(m, gpu, precision=precision, prompt=tokens, tp=tp, eff=eff, rows=tokens, own_weights=True,
                    attn_precision=ap, engine=engine)
    if prior > 0:
        pre += attention_flops_s(m, gpu, 4.0 * m.num_layers * m.num_heads * m.head_dim * tokens * prior / tp, ap,
                                 tokens, tp, ridge_rows(gpu, precision),
                                 forward=eight_bit_forward(engine))
    # the prompt's tokens reach the union of their experts (decode_weight_bytes with the prompt as the batch)
    read = decode_weight_bytes(m, precision, tokens) / (float(gpu.mem_bw_tbs) * 1e12 * bandwidth_fraction(gpu, eff) * tp)
    gemm_k, other_k = decode_kernels_s(m)
    return max(pre, read + gemm_k) + other_k


#: Issue 35 round 11 (serve11): the engines that split a long prompt's prefill into steps of their token budget by
#: default: vLLM V1 (chunked prefill always on; ``max_num_batched_tokens`` 8,192 / 2,048 for the OpenAI server by card,
#: :func:`token_budget`; vllm ``engine/arg_utils.py`` ``EngineArgs.get_batch_defaults``) and SGLang
#: (``chunked_prefill_size`` by card memory, :data:`SGLANG_DEFAULT_BUDGETS`). TensorRT-LLM's chunked context is off
#: unless asked for (``enable_chunked_prefill=False``, ``llmapi/llm_args.py``). Prefix caching (on by default in V1 and
#: SGLang) saves nothing on an idle replica's first, unshared prompt.
CHUNKED_PREFILL_ENGINES = ("vllm", "sglang")

#: Issue 35 round 12 (vllm12): seconds a request reaching an idle server waits in the engine's OpenAI-compatible front
#: end before its text prompt is tokenized. vLLM's API server tokenizes through ``AsyncMicrobatchTokenizer``
#: (vllm-project/vllm PR #19334 "microbatch tokenization", merged June 2025; ``vllm/utils/async_utils.py``):
#: ``_batch_encode_loop`` takes the first queued prompt, then keeps collecting until ``deadline = now +
#: batch_wait_timeout_s`` (default 0.002 s) or 32 prompts, and only then runs the tokenizer — a lone request waits the
#: whole window. The idle replica's first token (what the planner reports) pays it once; the engine's own loop and the
#: GPU are untouched, so steps and throughput are not. Not read for SGLang or TensorRT-LLM's servers: nothing charged.
#: Out-of-sample check (bench/validate_serve_vllm12.py): vLLM 0.30's ``vllm bench serve`` first token on one H100,
#: Qwen3-8B, 128-token prompts, is 2.0 ms longer than the engine's step and prefill (14.2 ms against 12.2 ms).
API_TOKENIZE_WAIT_S = {"vllm": 0.002}


def api_request_wait_s(engine: str) -> float:
    """Seconds an idle server's front end holds a request before tokenizing it (:data:`API_TOKENIZE_WAIT_S`). A run
    that drives the engine in-process (``LLM`` / ``AsyncLLMEngine``: AccelMark's runners) tokenizes on the caller's
    thread and does not pay it: :func:`time_to_first_token_s` leaves it out; :func:`size_serving` adds it."""
    return API_TOKENIZE_WAIT_S.get(engine, 0.0)


def prefill_chunk_tokens(engine: str, gpu: Any) -> int | None:
    """The chunked-prefill budget an engine runs a long prompt in by default (:data:`CHUNKED_PREFILL_ENGINES`); None
    where the engine prefills a prompt whole."""
    if engine == "vllm":
        return token_budget(engine, gpu)[0]
    if engine == "sglang":
        return sglang_budget_row(gpu)[1]
    return None


# ---------------------------------------------------------------------------------------------------------------
# Issue 35, round 4 (serve4): a maximum-load benchmark run with a real request mix. The serving benchmarks most teams
# publish (vLLM ``benchmarks/benchmark_serving.py`` and ``benchmark_throughput.py``, SGLang ``bench_serving``) send a
# finite number of requests at once (request rate inf) whose prompt and output lengths vary request by request, and
# report output tokens / the run's duration. Under continuous batching three things then differ from a steady state at
# the mean lengths: long requests hold their KV longer (the pool holds fewer of them), the run ends with a drain in
# which the last long requests decode at a shrinking batch, and SGLang keeps room for the running requests' future
# tokens. :func:`max_load_run` follows the engine's scheduler step by step over a sample of the mix.

#: How request lengths spread around the stated means: ``fixed`` (every request at the means: trtllm-bench's synthetic
#: datasets with zero deviation) or ``sharegpt`` (lengths as varied as a chat dataset, within the ShareGPT filter).
REQUEST_SPREADS = ("fixed", "sharegpt")
#: The ShareGPT filter of the benchmark scripts (vLLM ``benchmarks/benchmark_dataset.py`` ``is_valid_sequence`` /
#: ``sample_sharegpt_requests``; SGLang ``bench_serving.sample_sharegpt_requests``): a prompt or an output below 4
#: tokens is dropped, a prompt over 1024 tokens or a prompt + output over 2048; the output length is the dataset's
#: own reply. Within these bounds the lengths are taken as exponential at the stated means, the maximum-entropy
#: distribution of a positive length of known mean (only the means of the sample are published: 226 in / 194 out
#: with the Llama 3 tokenizer, 5,000 prompts, sgl-project/sglang issue #1505). The vLLM paper's ShareGPT histograms
#: (Kwon et al. 2023, Fig. 11) have this shape: a mode near the shortest lengths and a long tail.
SHAREGPT_FILTER = (4.0, 1024.0, 2048.0)
#: Requests the run is followed with at most (each stands for ``requests / MIX_SAMPLES`` of the benchmark's requests; a
#: smaller run is followed request by request, so its longest request is a sample of its size's, not of 400's).
MIX_SAMPLES = 400
#: SGLang's reservation for the running requests' future tokens (``schedule_policy.PrefillAdder``: a request is
#: admitted only if its prompt plus ``new_token_ratio × max_new_tokens`` fits beside ``new_token_ratio ×`` every
#: running request's remaining tokens; bench_serving sets ``max_new_tokens`` to the dataset's output length). The
#: ratio starts at 0.7 and falls to 0.7 × 0.14 over 600 decode steps (``SGLANG_INIT_NEW_TOKEN_RATIO``,
#: ``SGLANG_MIN_NEW_TOKEN_RATIO_FACTOR``, ``SGLANG_NEW_TOKEN_RATIO_DECAY_STEPS``; SGLang 0.3's ``global_config``:
#: 0.7 falling by 0.001 a step to 0.1, the same 600 steps).
SGLANG_NEW_TOKEN_RATIO = (0.7, 0.7 * 0.14, 600.0)
#: Step time over GPU time of an engine whose scheduler runs between the GPU's batches rather than beside them. SGLang
#: before 0.4: its "zero-overhead batch scheduler" (run one batch ahead, NanoFlow's idea) gave "1.1x increase in
#: throughput" (LMSYS blog "SGLang v0.4", 2024-12-04), so the CPU's share of a step was 1 − 1/1.1 before it. The engines
#: the planner sizes for overlap it (SGLang ≥ 0.4 by default; TensorRT-LLM's overlap scheduler, on by default; vLLM
#: V1's engine-core process and async scheduling), so their steps are the GPU's (``host_step`` 1).
SGLANG_PRE_OVERLAP_STEP = 1.1


def _texp(u: float, scale: float, lo: float, hi: float) -> float:
    """The ``u`` quantile of an exponential of ``scale`` truncated to [lo, hi]."""
    if hi <= lo:
        return lo
    a, b = -math.expm1(-lo / scale), -math.expm1(-hi / scale)
    return -scale * math.log1p(-(a + u * (b - a)))


def _scale_for_mean(mean: float, bounds: list[tuple[float, float]], us: list[float]) -> float:
    """The exponential's scale whose truncated sample (quantiles ``us``, bounds per request) has ``mean``."""
    lo_s, hi_s = 1e-3 * mean, 1e3 * mean
    for _ in range(60):
        mid = math.sqrt(lo_s * hi_s)
        got = sum(_texp(u, mid, lo, hi) for u, (lo, hi) in zip(us, bounds)) / len(us)
        lo_s, hi_s = (mid, hi_s) if got < mean else (lo_s, mid)
    return math.sqrt(lo_s * hi_s)


def request_mix(prompt_mean: float, output_mean: float, spread: str = "fixed",
                samples: int = MIX_SAMPLES) -> tuple[list[float], list[float]]:
    """Prompt and output lengths of ``samples`` requests whose means are the stated ones (:data:`REQUEST_SPREADS`).
    ``sharegpt``: even quantiles of exponentials truncated to :data:`SHAREGPT_FILTER` (the output's upper bound is
    what the prompt leaves), prompts and outputs paired independently (a fixed stride through the quantiles)."""
    if spread not in REQUEST_SPREADS:
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "request length spread must be one of {choices}, not {spread}"),
                                     choices=", ".join(REQUEST_SPREADS), spread=repr(spread)))
    if spread == "fixed":
        return [float(prompt_mean)] * samples, [float(output_mean)] * samples
    low, p_max, total_max = SHAREGPT_FILTER
    us = [(i + 0.5) / samples for i in range(samples)]
    if not (low < prompt_mean < p_max and low < output_mean < total_max - prompt_mean):
        raise ValueError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "mean lengths outside the ShareGPT filter (prompt 4-1024, prompt + output 2048 tokens)")))
    ps_ = _scale_for_mean(prompt_mean, [(low, p_max)] * samples, us)
    prompts = [_texp(u, ps_, low, p_max) for u in us]
    stride = next(k for k in range(int(samples * 0.618), samples) if math.gcd(k, samples) == 1)
    uo = [us[(i * stride) % samples] for i in range(samples)]
    bounds = [(low, max(low, total_max - p)) for p in prompts]
    os_ = _scale_for_mean(output_mean, bounds, uo)
    return prompts, [_texp(u, os_, lo, hi) for u, (lo, hi) in zip(uo, bounds)]


@functools.lru_cache(maxsize=256)
def held_context(prompt: float, output: float, spread: str = "fixed") -> float:
    """KV tokens a running request holds, averaged over the decode steps of a steady stream of requests: each request
    holds ``p + g`` tokens at its ``g``-th step for ``o`` steps, so the average is ``Σ o·(p + o/2) / Σ o`` over the
    mix (:func:`request_mix`) — the means' ``p + o/2`` for ``fixed``; more for a spread, where the long requests are
    the ones running most of the time (length-biased sampling)."""
    if spread == "fixed":
        return float(prompt) + float(output) / 2.0
    ps, os_ = request_mix(prompt, output, spread)
    return sum(o * (p + o / 2.0) for p, o in zip(ps, os_)) / sum(os_)


@dataclass(slots=True, frozen=True)
class MaxLoadRun:
    """A maximum-load benchmark run followed step by step (:func:`max_load_run`)."""

    output_tokens_per_s: float  # the whole replica: output tokens ÷ the run's duration
    duration_s: float
    steps: int
    mean_batch: float  # running requests, averaged over the steps
    peak_batch: float
    preemptions: float  # requests sent back to the queue when the pool ran out (vLLM: recompute; SGLang: retract)


def _sglang_ratio(engine: str, step: int) -> float:
    """The share of a request's future output tokens the scheduler reserves when it admits it: SGLang's
    ``new_token_ratio`` after ``step`` decode steps (:data:`SGLANG_NEW_TOKEN_RATIO`); TensorRT-LLM all of them (issue 35
    round 16, servoos16: its default capacity policy ``GUARANTEED_NO_EVICT`` admits a request only with KV blocks for
    its whole prompt + ``max_tokens``, :func:`reserved_context`; TensorRT-LLM ``llmapi/llm_args.py``
    ``SchedulerConfig.capacity_scheduler_policy``, and the v0.11 / v0.12 perf-overview runs' ``--scheduler_policy
    guaranteed_no_evict`` / "Scheduling Policy: Guaranteed No Evict"); 0 for vLLM (pages allocated as it grows)."""
    if engine == "tensorrt-llm":
        return 1.0
    if engine != "sglang":
        return 0.0
    init, low, steps = SGLANG_NEW_TOKEN_RATIO
    return max(init - step * (init - low) / steps, low)


def v0_extra_steps(output: int, loop: str, steps_per_schedule: int = 1) -> int:
    """Decode steps a vLLM V0 request runs past its last token (issue 35 round 11, serve11): V0 sees a stop only when
    it processes a step's output. Multi-step (``--num-scheduler-steps`` n, vLLM 0.6) syncs with the host once a pass,
    so a request that stops inside a pass runs to the pass's end ("multiple decode passes are performed before
    performing a GPU-CPU sync in order to invoke vLLM scheduler and process sampled tokens", vllm-project/vllm RFC
    #6854): (−output) mod n more steps, its passes starting at its prefill. Asynchronous output processing (``v0async``)
    learns of the stop one step late ("This approach assumes that no request from the n-th step has met the stopping
    criteria, incurring a slight overhead of executing one additional step per request", vLLM blog "vLLM v0.6.0",
    2024-09-05): one more. Other loops: 0."""
    if loop not in VLLM_V0_ERAS:
        return 0
    n = max(1, int(steps_per_schedule))
    return (-int(output)) % n + (1 if loop == "v0async" else 0)


def max_load_run(m: ServingModel, gpu: Any, *, prompts: list[float], outputs: list[float], requests: int,
                 precision: str, kv_precision: str | None = None, tp: int = 1, engine: str = DEFAULT_ENGINE,
                 utilization: float | None = GPU_MEMORY_UTILIZATION, max_batch: int | None = None,
                 eff: ServingEfficiency = ServingEfficiency(), host_step: float = 1.0, loop: str = "none",
                 steps_per_schedule: int = 1, budget: tuple[int, int] | None = None) -> MaxLoadRun | None:
    """``requests`` requests sent at once (the benchmark scripts' request rate ``inf``), their lengths the sample
    ``prompts``/``outputs`` (:func:`request_mix`; each sample stands for ``requests / len(prompts)`` requests), run
    through the engine's scheduler: first come first served; a request is admitted while the running count is below
    the sequence cap (:func:`max_running_requests`, ``max_batch``) and its prompt — plus, under SGLang, the future
    tokens :data:`SGLANG_NEW_TOKEN_RATIO` reserves — fits in the KV pool (:func:`kv_cache_bytes_per_gpu`), which the
    running requests fill as they grow (PagedAttention); when it overflows the newest request goes back to the queue
    and is prefilled again later (vLLM's ``RECOMPUTE`` preemption, SGLang's retraction). Each step runs the admitted
    prompts' prefill (:func:`prefill_s` at the scheduler's token budget) and one decode step of every running request
    at their mean context (:func:`decode_step_s`); a request leaves after its output length. ``host_step``: each
    step's time over the GPU's, for an engine that does not overlap its scheduler with the GPU
    (:data:`SGLANG_PRE_OVERLAP_STEP`; 1 for the current engines). ``loop``, ``steps_per_schedule``: the engine loop's
    host work per decode step (:func:`exposed_host_s`). None when no request fits."""
    if not gpu.mem_bw_tbs or not gpu.memory_gib or peak_flops(gpu, precision) is None or not prompts:
        return None
    w = float(requests) / len(prompts)
    kvb, attn_p = KV_BYTES[kv_precision_for(precision, kv_precision)], attention_precision(precision, kv_precision)
    built = budget if budget is not None else workload_budget(
        m, gpu, tp=tp, engine=engine, precision=precision, kv_precision=kv_precision,
        prompt=sum(prompts) / len(prompts), output=sum(outputs) / len(outputs))  # issue 35 r13: TRT-LLM's build
    pool = kv_cache_bytes_per_gpu(m, gpu, precision=precision, tp=tp, engine=engine, utilization=utilization,
                                  budget=built) / kv_bytes_per_token_per_gpu(m, kvb, tp) / w
    cap = max_running_requests(engine, gpu, budget)
    cap = min(x for x in (cap, max_batch, math.inf) if x is not None) / w
    need = [max(1, round(o)) for o in outputs]
    p_mean, o_mean = sum(prompts) / len(prompts), max(sum(need) / len(need), 1.0)
    made = w * sum(need)  # the output tokens the run returns
    need = [n + v0_extra_steps(n, loop, steps_per_schedule) for n in need]  # issue 35 r11: V0's steps past the stop
    if prompts[0] + 1 > pool or cap < 1:
        return None
    rows = run_budget(engine, gpu, budget)[0]  # issue 35 r9: the run's own budget when it states one
    waiting = [(i, 0) for i in range(len(prompts))]  # (request, tokens generated before a preemption)
    run: dict[int, int] = {}
    t = steps = batch_sum = peak = preempt = out = 0.0
    since = 0  # decode steps since the start or SGLang's last retraction
    while waiting or run:
        r = _sglang_ratio(engine, since)
        used = sum(prompts[i] + g + r * (need[i] - g) for i, g in run.items())
        new = []
        while waiting and (len(run) + 0.5) < cap and used + prompts[waiting[0][0]] + waiting[0][1] \
                + r * (need[waiting[0][0]] - waiting[0][1]) <= pool:
            i, g = waiting.pop(0)
            run[i] = g
            used += prompts[i] + g + r * (need[i] - g)
            new.append(prompts[i] + g)
        if not run:
            return None
        # the step's admitted prompts run as one prefill forward, at most the budget (issue 35 r6 serve8); in steady
        # flow a step admits as many prompts as its running requests finish, b / mean output (a sample stands for w)
        fwd = min(float(rows), max(new + [len(run) * w * p_mean / o_mean])) if new else float(rows)
        t += host_step * w * sum(prefill_s(m, gpu, precision=precision, prompt=p, tp=tp, eff=eff, rows=rows,
                                           forward_rows=fwd, attn_precision=attn_p, engine=engine) for p in new)
        b = len(run) * w
        ctx = sum(prompts[i] + g for i, g in run.items()) / len(run)
        t += host_step * decode_step_s(m, gpu, precision=precision, kv_bytes=kvb, batch=b, context=ctx, tp=tp,
                                       eff=eff, loop=loop, steps_per_schedule=steps_per_schedule,
                                       tile_rows=dense_tile_rows(engine, gpu, precision, m),
                                       pad_rows=block_tile_rows(engine, gpu, precision, m))[0]
        steps += 1
        since += 1
        batch_sum += b
        peak = max(peak, b)
        out += b
        for i in list(run):
            run[i] += 1
            if run[i] >= need[i]:
                del run[i]
        while run and sum(prompts[i] + g for i, g in run.items()) > pool:
            i = next(reversed(run))  # the newest request leaves for the queue's head
            waiting.insert(0, (i, run.pop(i)))
            preempt += w
            since = 0  # SGLang sets its ratio back to the start after a retraction
    return MaxLoadRun(output_tokens_per_s=min(out, made) / t, duration_s=t, steps=int(steps),
                      mean_batch=batch_sum / max(steps, 1),
                      peak_batch=peak, preemptions=preempt)
