"""Serving efficiencies shared by the serving sizer (:mod:`core.inference`) and the time model's rollouts
(:mod:`core.timing`): one small module both import, so a training estimate does not load the serving sizer.
Sources: :mod:`core.inference`'s module docstring (decode bandwidth: Databricks/MosaicML, "LLM Inference
Performance Engineering: Best Practices", databricks.com/blog, October 2023, MBU about 60% decoding 7B models at
small batch on A100/H100; the serving sizer now splits that share into a streaming share and a fixed time per
kernel, :data:`DECODE_STREAM_SHARE` and :data:`DECODE_KERNEL_S`, issue 35 round 5)."""

from __future__ import annotations

from dataclasses import dataclass

#: how the serving engines (``inference.engine``) write their own names: proper nouns, not translated. Here, not in
#: :mod:`core.inference`, so the CLI and the report print them without loading the sizer (and numpy).
ENGINE_NAMES = {"vllm": "vLLM", "sglang": "SGLang", "tensorrt-llm": "TensorRT-LLM"}
#: Issue 35, round 5 (serve5): the serving sizer's decode step is two terms, not one share. The weights and the KV cache
#: stream at the share any large copy reaches (``timing.MEM_BW_EFFICIENCY``, 0.8: STREAM-like kernels), and every
#: kernel of the step costs the GPU a fixed time on top (:data:`DECODE_KERNEL_S`, ``inference.decode_kernels_s``).
#: At batch 1 the second term is what made the single share look like 0.6: Llama 3 8B on an H100 (6.0 ms of weights
#: at 0.8 + 1.0 ms of kernels) against vLLM 0.21's 6.48 ms; the same on an A100 40GB (13.0 + 1.0) against vLLM 0.23's
#: 13.3 ms; 70B at TP 2 (14.6 + 2.4 + all-reduces) against NIM's 18.6 ms.
DECODE_STREAM_SHARE = 0.8
#: decode reads weights and KV cache at this share of an HBM part's bandwidth (the rollouts in a training step too):
#: since issue 35 round 5 the streaming share above (it was 0.6, Databricks' MBU), the rest of the old share being the
#: kernels' fixed time (``methods.decode_kernels_fixed_s``, which the rollouts' vLLM step adds too)
DECODE_MBU_HBM = DECODE_STREAM_SHARE
#: GPU time a kernel costs beyond its bytes and FLOPs (its launch, ramp and tail): 2.7 µs, measured on an H100 as the
#: fixed part of back-to-back cuBLAS GEMMs (TransformerEngine PR #2045's grouped-GEMM table, two splits of the same
#: work: ``FLOPs / R + t0``; the time model's ``timing.MOE_GEMM_LAUNCH_S``, same measurement). CUDA graphs remove the
#: host's launch, not this.
DECODE_KERNEL_S = 2.7e-6


@dataclass(slots=True, frozen=True)
class ServingEfficiency:
    """Achieved fractions of the roofs (core.inference's module docstring for the sources)."""

    # weights stream at a copy kernel's share on every card; the fixed cost per kernel is apart (DECODE_KERNEL_S)
    memory_bandwidth: float = DECODE_STREAM_SHARE
    memory_bandwidth_gddr: float = DECODE_STREAM_SHARE
    # (issue 35: the GEMMs run at the time model's matmul efficiency, inference.gemm_efficiency, and the engine's
    # memory reservation is inference.kv_cache_bytes_per_gpu: no serving-only compute share or fixed reserve)


def kv_heads_per_rank(num_kv_heads, tp, xp=None):
    """KV heads each of ``tp`` vLLM ranks holds: ``max(1, kv_heads // tp)``, the heads split over the ranks and
    replicated below one a rank ("we will replicate the KV heads in the case where the number of KV heads is smaller
    than the tensor parallel size so each GPU has at least one KV head", vLLM ``ModelConfig.get_num_kv_heads``:
    ``max(1, total_num_kv_heads // tensor_parallel_size)``). The one rule of the serving sizer
    (``inference.kv_bytes_per_token_per_gpu``) and the rollouts (``methods.vllm_kv_per_token_per_gpu``). ``xp``
    (:mod:`core.arrayops`) takes ``tp`` as an array for the search; the floor division is the same there."""
    if xp is None:
        return max(1, int(num_kv_heads) // max(int(tp), 1))
    tp = xp.maximum(xp.asarray(tp, dtype=float), 1.0)
    return xp.maximum(float(num_kv_heads) // tp, 1.0)
