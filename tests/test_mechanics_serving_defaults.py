"""Each serving engine's own default memory fraction when the user sets none (issue 35 round 7, sglmem7).

SGLang sizes ``mem_fraction_static`` from the card's memory and the TP size (sglang ``server_args.py``
``ServerArgs._handle_gpu_memory_settings``); vLLM's ``gpu_memory_utilization`` and TensorRT-LLM's
``free_gpu_memory_fraction`` default to 0.9. A value the user gives, 0.9 included, is used as given."""
from __future__ import annotations

import pydantic
import pytest

from gpuplanner.core import inference as I
from gpuplanner.core.catalog_hw import get_gpu
from gpuplanner.core.project import InferenceSpec

MIB = 1024.0 ** 2


def _mib(gpu_id: str) -> float:
    return I.visible_memory_bytes(get_gpu(gpu_id)) / MIB


def test_sglang_default_fraction_by_hand():
    h100 = _mib("h100-sxm-80gb")
    # 80 GiB class: chunked prefill 8192, CUDA graphs up to 256 (TP < 4) / 512 (TP >= 4); the 10 GiB floor is below
    assert I.engine_default_fraction("sglang", get_gpu("h100-sxm-80gb"), 1) == \
        round((h100 - (512 + 8192 * 1.5 + 256 * 2 + 128)) / h100, 3)
    assert I.engine_default_fraction("sglang", get_gpu("h100-sxm-80gb"), 4) == \
        round((h100 - (512 + 8192 * 1.5 + 512 * 2 + 4 * 128)) / h100, 3)
    # 24 GiB class (RTX 4090): chunked prefill 2048, graphs up to 24; no floor under 60 GiB
    r = _mib("rtx-4090-24gb")
    assert I.engine_default_fraction("sglang", get_gpu("rtx-4090-24gb"), 1) == \
        round((r - (512 + 2048 * 1.5 + 24 * 2 + 128)) / r, 3)
    # 40 GiB class (A100 40GB): chunked prefill 4096, graphs up to 32 / 160
    a = _mib("a100-sxm-40gb")
    assert I.engine_default_fraction("sglang", get_gpu("a100-sxm-40gb"), 8) == \
        round((a - (512 + 4096 * 1.5 + 160 * 2 + 8 * 128)) / a, 3)
    # SGLang's own start-up logs on 80 GB cards print mem_fraction_static=0.835 with chunked_prefill_size=8192 (TP 1;
    # SGLang reads nvidia-smi's memory.total, ~0.5 GiB above what CUDA reports: 0.834 here)
    assert I.engine_default_fraction("sglang", get_gpu("h100-sxm-80gb"), 1) == pytest.approx(0.835, abs=0.002)
    # the other engines: 0.9
    for eng in ("vllm", "tensorrt-llm"):
        assert I.engine_default_fraction(eng, get_gpu("h100-sxm-80gb"), 4) == 0.9


def test_none_means_the_engines_default_and_a_given_value_is_kept():
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import Scenario
    r = resolve(Scenario.model_validate({"model": {"preset": "llama-3.1-8b"}}))
    m = I.ServingModel.of(r.arch, r.params)
    g = get_gpu("h100-sxm-80gb")
    kv = lambda eng, u: I.kv_cache_bytes_per_gpu(m, g, precision="bf16", tp=1, engine=eng, utilization=u)
    # vLLM and TensorRT-LLM: None is exactly 0.9 (byte-identical pools)
    assert kv("vllm", None) == kv("vllm", 0.9)
    assert kv("tensorrt-llm", None) == kv("tensorrt-llm", 0.9)
    # SGLang: None is its own 0.834 on an H100, 0.066 of the memory free after SGLang's start-up (issue 35 round 10:
    # the card less SGLANG_STARTUP_GIB) less than 0.9; an explicit 0.9 stays 0.9
    free = I.visible_memory_bytes(g) - I.SGLANG_STARTUP_GIB[("nvlink", 1)] * I.GIB
    assert kv("sglang", 0.9) - kv("sglang", None) == pytest.approx(0.066 * free, rel=1e-9)
    assert kv("sglang", 0.834) == kv("sglang", None)
    s_none = I.size_serving(m, g, concurrency=64, context_tokens=4096, prompt_tokens=3584, output_tokens=512,
                            gpu_memory_utilization=None, engine="sglang")
    s_09 = I.size_serving(m, g, concurrency=64, context_tokens=4096, prompt_tokens=3584, output_tokens=512,
                          gpu_memory_utilization=0.9, engine="sglang")
    assert s_09.kv_cache_gib_per_gpu - s_none.kv_cache_gib_per_gpu == pytest.approx(0.066 * (79.22 - 0.5), rel=1e-3)


def test_schema_default_is_the_engines_and_plan_values_stay():
    assert InferenceSpec().gpu_memory_utilization is None  # the engine's own default
    assert InferenceSpec.model_validate({"gpu_memory_utilization": 0.9}).gpu_memory_utilization == 0.9
    assert InferenceSpec.model_validate({"gpu_memory_utilization": 0.93}).gpu_memory_utilization == 0.93
    for bad in (0, -0.1, 1.5):
        with pytest.raises(pydantic.ValidationError):
            InferenceSpec.model_validate({"gpu_memory_utilization": bad})
