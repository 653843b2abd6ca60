"""Serving efficiencies shared by the serving sizer (:mod:`core.inference`) and the time model's rollouts
(:mod:`core.timing`): one small module both import, so a training estimate does not load the serving sizer.
Sources: :mod:`core.inference`'s module docstring (decode bandwidth: Databricks/MosaicML, "LLM Inference
Performance Engineering: Best Practices", databricks.com/blog, October 2023, MBU about 60% decoding 7B models at
small batch on A100/H100)."""

from __future__ import annotations

from dataclasses import dataclass

#: how the serving engines (``inference.engine``) write their own names: proper nouns, not translated. Here, not in
#: :mod:`core.inference`, so the CLI and the report print them without loading the sizer (and numpy).
ENGINE_NAMES = {"vllm": "vLLM", "sglang": "SGLang", "tensorrt-llm": "TensorRT-LLM"}
#: decode reads weights and KV cache at this share of an HBM part's bandwidth (the rollouts in a training step too)
DECODE_MBU_HBM = 0.6


@dataclass(slots=True, frozen=True)
class ServingEfficiency:
    """Achieved fractions of the roofs (core.inference's module docstring for the sources)."""

    memory_bandwidth: float = DECODE_MBU_HBM  # Databricks/MosaicML 2023, MBU ~60% (HBM parts)
    memory_bandwidth_gddr: float = 0.75  # GDDR cards at batch 1 (GDDR_BOARDS: the llama.cpp table's median)
    # (issue 35: the GEMMs run at the time model's matmul efficiency, inference.gemm_efficiency, and the engine's
    # memory reservation is inference.kv_cache_bytes_per_gpu: no serving-only compute share or fixed reserve)
