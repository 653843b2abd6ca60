"""Issue 35 round 15 (servoos15): the GPUStack Qwen3-235B-A22B max-load rows and the expert-width rule."""
from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import validate_serve_oos15 as S  # noqa: E402
from gpuplanner.core import inference as inf  # noqa: E402
from gpuplanner.core import timing as _timing  # noqa: E402
from gpuplanner.core.catalog_hw import get_gpu  # noqa: E402


def test_entered_runs_are_internally_consistent():
    # each printout's total token throughput is (input + generated) / duration (rounded durations: 0.5%)
    for row in S.RUNS:
        n, dur, tin, tout, tps = row[7:]
        assert (tin + tout) / dur == pytest.approx(tps, rel=5e-3), row
    # spot values typed again from the two pages
    assert ("H", "1 engine", "vllm", "bf16", 8, None, "sharegpt", 984, 48.28, 212894, 193865, 8424.86) in S.RUNS
    assert ("A", "baseline", "vllm", "bf16", 8, None, "random 32000/100", 100, 481.89, 3200000, 8191, 6657.49) \
        in S.RUNS
    assert ('D', '1 engine', 'sglang', 'fp8', 8, None, 'sharegpt', 1000, 63.28, 219171, 200767, 6635.73) in S.RUNS
    assert len(S.RUNS) == 31
    n, dur, tin, tout, _, _ = S.D_CONC4
    assert (n, dur, tin, tout) == (100, 108.42, 22836, 21338)


def test_expert_width_is_the_tp_shard_of_the_narrower_of_h_and_the_expert_mlp():
    m = S.model("bf16")
    assert (m.hidden, m.moe_intermediate) == (4096, 1536)  # Qwen3-235B-A22B config.json
    assert inf.expert_gemm_width(m, 8) == pytest.approx(1536 / 8)
    assert inf.expert_gemm_width(m, 1) == pytest.approx(1536)
    wide = dataclasses.replace(m, moe_intermediate=14336)  # Mixtral-like experts wider than h keep h / tp
    assert inf.expert_gemm_width(wide, 8) == pytest.approx(4096 / 8)
    dense = dataclasses.replace(m, moe_intermediate=0)
    assert inf.expert_gemm_width(dense, 4) == pytest.approx(1024)


def test_expert_extra_uses_the_narrow_width_factor_by_hand():
    m, gpu = S.model("bf16"), get_gpu("h100-sxm-80gb")
    tokens, rows, tp = 8192.0, 8192.0, 8
    peak = inf.peak_flops(gpu, "bf16")
    e_step = inf.gemm_efficiency(m, gpu, "bf16", rows, tp)
    e_wide = inf.gemm_efficiency(m, gpu, "bf16", inf.expert_rows(m, rows), tp)
    # the width factor alone: 1/(1 + D0/192) against 1/(1 + D0/512)
    ratio = (1 + _timing.D0 / 512.0) / (1 + _timing.D0 / 192.0)
    e_expert = e_wide * ratio
    share = inf._routed_share(m)
    want = tokens * 2.0 * m.expert_params * share / tp / peak * (1.0 / e_expert - 1.0 / e_step)
    got = inf.expert_grouped_gemm_extra_s(m, gpu, "bf16", tokens, rows, tp, None)
    assert got == pytest.approx(want, rel=1e-9)
    before = tokens * 2.0 * m.expert_params * share / tp / peak * (1.0 / e_wide - 1.0 / e_step)
    assert got > before > 0


def test_scored_rows_and_direction():
    res = S.scored()
    assert len(res) == 31
    # the planner's max-load run is faster than every published run but one (signed errors, published/predicted - 1)
    assert sum(1 for x in res if x[1] < 0) >= 29
    # the 128/4 runs are the worst (section 3 of the note: 1,000 chat requests of 4 tokens)
    worst = max(res, key=lambda x: x[0])
    assert worst[2].endswith("random 128/4")


def test_before_context_restores_the_rule_and_the_change_slows_the_moe_runs():
    with S.base_model():
        before = S.scored()
    assert inf.expert_gemm_width(S.model("bf16"), 8) == pytest.approx(192)  # restored
    after = S.scored()
    # narrower expert GEMMs only ever add time: every predicted throughput falls or stays
    assert all(a[4] <= b[4] * (1 + 1e-12) for a, b in zip(after, before))
    assert sum(1 for a, b in zip(after, before) if a[4] < b[4] * 0.995) >= 20


def test_conc4_tpot_rebuilt_by_hand():
    m, gpu = S.model("fp8", "deepseek-v3"), get_gpu("h200-sxm-141gb")
    n, _, tin, tout, _, _ = S.D_CONC4
    step, _ = inf.decode_step_s(m, gpu, precision="fp8", kv_bytes=2.0, batch=4, context=tin / n + tout / n / 2,
                                tp=8, eff=inf.ServingEfficiency(), loop="serial")
    pre = inf.prefill_s(m, gpu, precision="fp8", prompt=tin / n, tp=8, eff=inf.ServingEfficiency(),
                        attn_precision="bf16", engine="vllm")
    want = (step + 3 * pre / (tout / n - 1)) * 1e3
    got = S.conc4_scored()[0]
    assert got[2].endswith("TPOT") and got[4] == pytest.approx(want, rel=1e-12)
    assert m.block_scaled and m.moe_intermediate == 2048


def test_fragment_is_registered():
    assert '*_fragments("servoos15.md")' in (ROOT / "bench" / "validate_time.py").read_text(encoding="utf-8")
    text = (ROOT / "bench" / "data" / "servoos15.md").read_text(encoding="utf-8")
    assert text.startswith("<!--") and "\n#### " in text
