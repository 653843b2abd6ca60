"""Issue 35 round 17 (memoos17): the out-of-sample rows quote their sources and stay within their bounds."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import validate_mem_oos17 as v  # noqa: E402


def test_rows_quote_the_sources():
    rows = {r[0]: r for r in v.ROWS}
    # a100_80gb_granite.csv @fc78b55, mem_peak_torch_mem_alloc_in_bytes
    assert rows["full-powerlm-1x4"][1] == 35134836736
    assert rows["qlora-powerlm-2x4"][1] == 14319836672
    assert v.DS_ROWS[0][1] == 34.5  # DeepSpeed blogs/muon-optimizer "Peak Memory per GPU" AdamW
    prime = {v.prime_id(r): r for r in v.PRIME_ROWS}
    assert prime["prime-sft-qwen3-4b-8xh100-16k"][4] == 54.6328125
    assert prime["prime-sft-qwen3-0.6b-1xh100-64k"][4] is None  # CUDA out of memory


def test_powerlm_parameters_by_hand():
    """The end-of-train allocation of the one-GPU full run is 6 bytes a parameter (bf16 weights + two moments)."""
    m = v.POWERLM_3B
    h, f, L, V = m["hidden_size"], m["intermediate_size"], m["num_hidden_layers"], m["vocab_size"]
    params = L * (4 * h * h + 3 * h * f + 2 * h) + V * h + h
    assert 21089537536 / 6 == pytest.approx(params, rel=0.002)


def test_before_after_summary():
    s = v.summary(v.results())
    assert s["all"][1] < 0.03 and s["prime"][2] < 0.05  # median, p90
    before = v.before()
    sb = v.summary([(rid, pub, before[rid]) for rid, pub, _ in v.results()])
    assert sb["prime"][1] > 0.20  # main: every prime-rl SFT row 14–25% low


def test_oom_check_agrees():
    oom = [r for r in v.PRIME_ROWS if r[4] is None]
    assert oom and all(v.prime_predict(r) > 80 for r in oom)
