"""Round 12 out-of-sample pre-training rows (bench/validate_pt_oos12.py): the published figures by hand against the
README's own step times, the stated layouts, and every row predicted inside a sanity band (issue 35 round 12,
ptoos12)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import validate_pt_oos12 as v  # noqa: E402

#: The READMEs' "Training step time (seconds per step)" for each row, in ROWS order (dgxc-benchmarking v25.04.01
#: llama3.1/README.md; v25.05.01 llama3.1/README.md and nemotron/README.md)
STEPS = [9.86, 10.15, 19.78, 19.87, 12.37, 12.56, 9.347, 9.508, 6.131, 6.244, 2.746, 1.988, 4.606, 3.107,
         2.189, 2.229, 1.483, 1.549, 32.66, 8.468, 21.83, 5.668]


def test_throughput_agrees_with_the_step_time():
    # tokens/s/GPU (the README's throughput / GPUs) = GBS × sequence / step / GPUs, within the READMEs' rounding
    assert len(STEPS) == len(v.ROWS)
    for row, step in zip(v.ROWS, STEPS):
        _src, _sys, _m, _p, n, gbs, _mbs, seq, _f, _tp, _pp, _cp, _vp, pub = row
        assert gbs * seq / step / n == pytest.approx(pub, rel=0.01), row


def test_layouts_fill_the_gpus():
    for row in v.ROWS:
        _src, _sys, _m, _p, n, gbs, mbs, _seq, _f, tp, pp, cp, vp, _pub = row
        dp = n // (tp * pp * cp)
        assert dp * tp * pp * cp == n
        assert gbs % (dp * mbs) == 0
        m = gbs // (dp * mbs)
        # Megatron's interleaved schedule needs the micro-batches in multiples of PP
        assert vp == 1 or m % pp == 0, row


def test_before_covers_every_row_and_rows_predict_in_band():
    assert sorted(v.BEFORE) == list(range(len(v.ROWS)))
    res = v._vbd().results(v.ROWS, v.scenario)
    for r in res:
        assert r["pred"] is not None, r["why"]
        assert 0.7 < r["pred"] / r["pub"] < 1.4, r["row"]


def test_gb200_nemotron_rows_capture_layer_graphs():
    gb = [row for row in v.ROWS if row[1] == "GB200" and row[2] == "nemotron4-340b"]
    assert gb and all(v.scenario(row)["parallel"]["cuda_graph_scope"] == "layer" for row in gb)
    h = [row for row in v.ROWS if row[1] == "H100"]
    assert all("cuda_graph_scope" not in v.scenario(row)["parallel"] for row in h)
