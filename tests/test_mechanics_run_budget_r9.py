"""Issue 35, round 9 (serveoos9): a run's own vLLM scheduler budget (tokens a step, sequences) sets its prefill rows and
the profiling forward kept out of the KV pool. Values by hand and against a published start-up log."""
from __future__ import annotations

import pytest

from gpuplanner.core import inference as I
from gpuplanner.core.catalog_hw import get_gpu


def _model(name: str) -> I.ServingModel:
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import Scenario
    r = resolve(Scenario.model_validate({"model": {"preset": name}}))
    return I.ServingModel.of(r.arch, r.params)


@pytest.mark.parametrize("gid", ["rtx-4090-24gb", "a100-sxm-80gb", "h100-sxm-80gb"])
def test_no_budget_is_the_server_default(gid):
    g = get_gpu(gid)
    assert I.run_budget("vllm", g) == I.token_budget("vllm", g)
    assert I.run_budget("vllm", g, (4096, 512)) == (4096, 512)


def test_v0_budget_by_hand():
    # vllm v0.7 SchedulerConfig.__post_init__ without chunked prefill: max(max_model_len, 2048)
    assert I.vllm_v0_budget(4096, 512) == (4096, 512)
    assert I.vllm_v0_budget(1024) == (2048, 256)
    assert I.VLLM_LLM_CLASS_BUDGET == {True: (16384, 1024), False: (8192, 256)}


def test_pool_shrinks_by_the_larger_profile_by_hand():
    m, g = _model("llama-3-8b"), get_gpu("rtx-4090-24gb")
    base = I.kv_cache_bytes_per_gpu(m, g, precision="bf16", tp=1, utilization=0.9)
    assert I.kv_cache_bytes_per_gpu(m, g, precision="bf16", tp=1, utilization=0.9, budget=None) == base
    big = I.kv_cache_bytes_per_gpu(m, g, precision="bf16", tp=1, utilization=0.9, budget=(4096, 512))
    # the profile's peak is the larger of one layer's live tensors and the sampler's logits (vllm_profile_peak_bytes)
    layer, sampler = I._profile_parts(m, 1, (4096, 512))
    layer0, sampler0 = I._profile_parts(m, 1, I.token_budget("vllm", g))
    assert base - big == pytest.approx(max(layer, sampler) - max(layer0, sampler0), rel=1e-9)
    assert big < base


def test_max_load_run_default_unchanged():
    m, g = _model("llama-3-8b"), get_gpu("h100-sxm-80gb")
    kw = dict(prompts=[256.0] * 100, outputs=[350.0] * 100, requests=100, precision="bf16", tp=1, engine="vllm")
    assert I.max_load_run(m, g, **kw) == I.max_load_run(m, g, budget=None, **kw)
    small = I.max_load_run(m, g, budget=(2048, 8), **kw)
    assert small.peak_batch <= 8 + 1e-9  # the stated sequences cap the running batch


def test_v0_server_log_two_4090s():
    """vllm-project/vllm issue #13061 (vLLM 0.7, V0 OpenAI server, 2 x RTX 4090, TP 2, gpu_memory_utilization 0.98,
    DeepSeek-R1-Distill-Qwen-14B = Qwen2.5-14B's shape, max_model_len 131,072 > 32K: chunked prefill on at 2,048 tokens
    and 256 sequences): the worker rank's log, "the rest of the memory reserved for KV Cache is 8.69GiB"."""
    m, g = _model("qwen2.5-14b"), get_gpu("rtx-4090-24gb")
    kv = I.kv_cache_bytes_per_gpu(m, g, precision="bf16", tp=2, utilization=0.98, budget=(2048, 256)) / I.GIB
    assert kv == pytest.approx(8.69, rel=0.03)
