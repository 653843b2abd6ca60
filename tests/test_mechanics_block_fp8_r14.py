"""Issue 35, round 14 (fp8block14): block-scaled FP8 checkpoints (``quantization_config.weight_block_size``, Qwen3-*-FP8
and DeepSeek-V3/R1: 128 x 128 weight blocks, per-token-group activation scales) run vLLM's ``W8A8BlockFp8LinearOp`` /
SGLang's ``dispatch_w8a8_block_fp8_linear``: a group-quant kernel before every block linear and a block GEMM slower
than the per-tensor one. Checks against hand-derived values and the held published rows."""
from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

from gpuplanner.core import inference as inf
from gpuplanner.core.architecture import ModelConfigError, arch_from_hf_config, get_preset, weight_block_size
from gpuplanner.core.catalog_hw import get_gpu
from gpuplanner.core.estimate import resolve
from gpuplanner.core.scenario import Scenario
from gpuplanner.core.serving_facts import DECODE_KERNEL_S

H100 = "h100-sxm-80gb"
QUANT = {"activation_scheme": "dynamic", "fmt": "e4m3", "quant_method": "fp8", "weight_block_size": [128, 128]}


def _model(preset="qwen3-8b", block=False):
    r = resolve(Scenario.model_validate({"model": {"preset": preset}}))
    return dataclasses.replace(inf.ServingModel.of(r.arch, r.params), block_scaled=block)


def test_config_intake_reads_weight_block_size():
    cfg = dict(get_preset("qwen3-8b").config)
    assert arch_from_hf_config(cfg).weight_block_n == 0  # the BF16 config: no block (the default)
    cfg["quantization_config"] = dict(QUANT)
    a = arch_from_hf_config(cfg)
    assert (a.weight_block_n, a.weight_block_k) == (128, 128)
    assert inf.ServingModel.of(a, resolve(Scenario.model_validate({"model": {"preset": "qwen3-8b"}})).params).block_scaled
    assert get_preset("deepseek-v3").arch.weight_block_n == 128  # its config carries the block size
    assert weight_block_size({"quantization_config": {"quant_method": "fp8"}}) == (0, 0)  # per-tensor FP8
    for bad in ([128], [128, 0], "128x128", [128.0, 128], [True, 128]):
        cfg["quantization_config"] = dict(QUANT, weight_block_size=bad)
        with pytest.raises(ModelConfigError):
            arch_from_hf_config(cfg)


def test_arch_field_survives_the_plan_file_validator():
    from gpuplanner.io import planfile
    cfg = dict(get_preset("qwen3-8b").config, quantization_config=dict(QUANT))
    arch = dataclasses.asdict(arch_from_hf_config(cfg))
    got = planfile.EmbeddedModel(source="config.json", arch=arch).arch
    assert got["weight_block_n"] == 128 and got["weight_block_k"] == 128


def test_block_share_by_hand():
    # H100: 1 / (1/(s·TE·rho) + (1/g − 1/s)·P8/P16), rho = FBGEMM PR #2546's block / row-wise GEMM median
    s, g, te, rho = 794.5 / 989.0, 0.55, 70.9 / 80.3, 0.765
    want = 1.0 / (1.0 / (s * te * rho) + (1.0 / g - 1.0 / s) * 1979.0 / 989.0)
    gpu = get_gpu(H100)
    assert inf.BLOCK_FP8_GEMM_RATIO == pytest.approx(sorted([870.40 / 1125.51, 828.34 / 1082.75, 828.31 / 1141.38])[1],
                                                     abs=5e-4)
    assert inf.eight_bit_gemm_share(gpu, inf.BLOCK_FP8_GEMM_RATIO) == pytest.approx(want, rel=1e-9)
    per_tensor, block = _model(), _model(block=True)
    for fwd in (True, False):
        e_t = inf.gemm_efficiency(per_tensor, gpu, "fp8", 4096, 1, forward=fwd)
        e_b = inf.gemm_efficiency(block, gpu, "fp8", 4096, 1, forward=fwd)
        assert e_b < e_t
    assert inf.gemm_efficiency(block, gpu, "fp8", 4096, 1) == pytest.approx(
        inf.gemm_efficiency(per_tensor, gpu, "fp8", 4096, 1) * 0.765, rel=1e-9)
    # the flag changes nothing at another precision
    for prec in ("bf16", "int8", "int4"):
        assert inf.gemm_efficiency(block, gpu, prec, 4096, 1, forward=True) == \
            inf.gemm_efficiency(per_tensor, gpu, prec, 4096, 1, forward=True)


def test_decode_step_adds_the_quant_kernels_and_the_stream_by_hand():
    gpu, eff = get_gpu(H100), inf.ServingEfficiency()
    per_tensor, block = _model(), _model(block=True)
    kw = dict(precision="fp8", kv_bytes=2.0, batch=1, context=1024, tp=1, eff=eff)
    t0, _ = inf.decode_step_s(per_tensor, gpu, **kw)
    t1, bound = inf.decode_step_s(block, gpu, **kw)
    bw = float(gpu.mem_bw_tbs) * 1e12 * inf.bandwidth_fraction(gpu, eff)
    head = per_tensor.lm_head * 2.0
    lin = inf.decode_weight_bytes(per_tensor, "fp8", 1) - head
    want = lin / bw * (1 / 0.924 - 1) + 4 * per_tensor.num_layers * DECODE_KERNEL_S
    assert bound == "memory"
    assert t1 - t0 == pytest.approx(want, rel=1e-6)
    assert 0.5e-3 < t1 - t0 < 0.7e-3  # Qwen3-8B: 0.39 ms of quant kernels + ~0.2 ms of slower stream
    kw["precision"] = "bf16"
    assert inf.decode_step_s(block, gpu, **kw) == inf.decode_step_s(per_tensor, gpu, **kw)


def test_held_block_rows_move_toward_published():
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import validate_serve_fp8block14 as b
    rows = b.g_rows() + b.i_rows()
    for lab, pub, before, after in rows:
        assert abs(pub / after - 1) < abs(pub / before - 1), lab
    (_, pub, before, after), = b.g_rows()
    assert pub / before - 1 > 0.30 and pub / after - 1 < 0.16  # SGLang FP8 TPOT: +31.6% -> +15.2%


def test_planner_constants_are_the_published_tables_medians():
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import validate_serve_fp8block14 as b
    assert b.decode_stream_ratio() == pytest.approx(inf.BLOCK_FP8_DECODE_STREAM_RATIO, abs=5e-4)
    assert b.prefill_rate_ratio() == pytest.approx(inf.BLOCK_FP8_GEMM_RATIO, abs=5e-4)
    assert all(2e-6 < t < 4e-6 for t in b.quant_kernel_s())  # the planner's 2.7 us kernel is inside (P1)'s range
