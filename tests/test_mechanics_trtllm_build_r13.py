"""Issue 35 round 13 (trtmem13): the TensorRT-LLM engine ``trtllm-bench build --dataset`` builds for a workload
(``tensorrt_llm/bench/build/tuning.py`` ``calc_engine_setting`` / ``finetune_setting``) sizes the activation memory the
KV pool is computed after. Expected values derived by hand in the comments."""
from __future__ import annotations

import pytest

from gpuplanner.core import inference as I
from gpuplanner.core.catalog_hw import get_gpu
from gpuplanner.core.estimate import resolve
from gpuplanner.core.scenario import Scenario

GIB = 1024.0 ** 3


@pytest.fixture(scope="module")
def l70():
    r = resolve(Scenario.model_validate({"model": {"preset": "llama-3.1-70b"}}))
    return I.ServingModel.of(r.arch, r.params)  # 70,553,706,496 params, 80 layers, 8 KV heads × 128, vocab 128,256


def _budget(m, gid, tp, prec, isl, osl):
    return I.trtllm_bench_budget(m, get_gpu(gid), tp=tp, precision=prec, kv_precision=None, prompt=isl, output=osl)


def test_budget_small_batch_floor(l70):
    # 2 × 79.22 GiB = 170.12e9 B − 70.55e9 × 2 B = 29.01e9; × 0.95 = 27.56e9 over 2000 tokens × (2·80·8·128·2 =
    # 327,680 B) = 655.4e6 → 42.1 requests: batch max(64, 32·⌈42.1/32⌉) = 64; tokens 42.1 × 2 = 84 → floor 2048
    assert _budget(l70, "a100-sxm-80gb", 2, "bf16", 1000, 1000) == (2048, 64)


def test_budget_middle_rounding(l70):
    # 4 × 85.06e9 − 141.1e9 = 199.1e9; × 0.95 / 655.4e6 = 288.7 requests → 128·⌈2.26⌉ = 384; tokens 577 → 2048
    assert _budget(l70, "h100-sxm-80gb", 4, "bf16", 1000, 1000) == (2048, 384)
    # FP8 (1 byte a weight and a KV element): 4 × 85.06e9 − 70.55e9 = 269.7e9; × 0.95 / (5500 × 163,840) = 284.3
    # → 384; tokens 284.3 × (1 + 5000/500) = 3127.6 → 256·⌈12.2⌉ = 3328
    assert _budget(l70, "h100-sxm-80gb", 4, "fp8", 5000, 500) == (3328, 384)


def test_budget_caps(l70):
    # 269.7e9 × 0.95 / (256 × 163,840) = 6108 requests → cap 4096 (256·⌈16⌉ = 4096); tokens 4096 × 2 = 8192 → 8192
    assert _budget(l70, "h100-sxm-80gb", 4, "fp8", 128, 128) == (8192, 4096)


def test_kv_pool_by_hand_a100_tp2(l70):
    g = get_gpu("a100-sxm-80gb")
    built = I.workload_budget(l70, g, tp=2, engine="tensorrt-llm", precision="bf16", kv_precision=None,
                              prompt=1000, output=1000)
    kv = I.kv_cache_bytes_per_gpu(l70, g, precision="bf16", tp=2, engine="tensorrt-llm", utilization=0.9,
                                  budget=built) / GIB
    # 0.9 × (79.22 − 65.708 weights − 2048·(2·8192 + 3·28672/2)·2 B = 0.2266 − 64·128256·4·4 B = 0.1223
    #        − 3.58 non-torch) = 0.9 × 9.583 = 8.625 GiB (8192 tokens / 256 sequences before: 7.683)
    assert kv == pytest.approx(8.625, abs=0.005)
    old = I.kv_cache_bytes_per_gpu(l70, g, precision="bf16", tp=2, engine="tensorrt-llm", utilization=0.9) / GIB
    assert old == pytest.approx(7.683, abs=0.005)


def test_replica_batch_uses_the_built_engine(l70):
    g = get_gpu("a100-sxm-80gb")
    rp = I.replica(l70, g, precision="bf16", kv_precision=None, context=1500, prompt=1000, output=1000, tp=2,
                   tokens_per_s_per_user=None, engine="tensorrt-llm", utilization=0.9)
    # GUARANTEED_NO_EVICT holds 2000 tokens × 2·80·4·128·2 B = 327.68e6 B a request: 8.625 GiB → 28 (25 before)
    assert rp.max_batch_memory == 28


@pytest.mark.parametrize("engine", ["vllm", "sglang"])
def test_other_engines_keep_their_server_budget(l70, engine):
    assert I.workload_budget(l70, get_gpu("h100-sxm-80gb"), tp=2, engine=engine, precision="bf16",
                             kv_precision=None, prompt=1000, output=1000) is None
