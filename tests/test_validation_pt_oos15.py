"""Issue 35 round 15 (ptoos15): unseen pre-training rows (bench/validate_pt_oos15.py) — MLPerf Training v6.0 and
v5.1 Llama 3.1 8B runs and IBM fms-fsdp's FSDP throughput tables — scored before any model change."""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

import pytest

from gpuplanner.core.estimate import resolve
from gpuplanner.core.scenario import scenario_from_dict

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import validate_pt_oos15 as v  # noqa: E402


@pytest.mark.parametrize("row", v.MLPERF, ids=[r[2] for r in v.MLPERF])
def test_mlperf_row_layout_is_whole(row):
    """GPUs = TP × CP × DP, and the log's GBS is a whole number of MBS-1 micro-batches per replica (the MLLOG
    ``samples_count`` step over ``LOG_EVERY_N_STEPS`` gave the GBS: 2,048 / 32 NVIDIA GB200, 512 / 8 Cisco 128 H100,
    256 / 8 Cisco 64 H100, 1,024 / 32 Cisco H200)."""
    _rnd, _org, _res, _cfg, _system, n, gbs, tp, cp, step, _s = row
    assert n % (tp * cp) == 0
    dp = n // (tp * cp)
    assert gbs % dp == 0 and gbs // dp >= 1
    assert 0.01 < step < 2.0


def test_mlperf_published_rate_is_tokens_over_step_and_gpus():
    row = next(r for r in v.MLPERF if r[2] == "tyche-hsg_ngpu1024_ngc26.04_nemo")
    assert v.mlperf_published(row) == pytest.approx(64 * 8192 / 0.07211 / 1024, rel=1e-9)
    row = next(r for r in v.MLPERF if r[2] == "Zeus_16xH100_SXM_80GB")
    assert v.mlperf_published(row) == pytest.approx(64 * 8192 / 0.3494 / 128, rel=1e-9)


def test_v51_steps_are_the_median_of_the_run_medians():
    """The 10 runs' medians read with ``git show`` (module doc, source 2)."""
    runs = {"hpg.dgxb200x8.n8": [0.18941, 0.18936, 0.18904, 0.18944, 0.18966, 0.18947, 0.18947, 0.18958, 0.18926,
                                 0.18946],
            "8xBM.GPU.B200.8": [0.19118, 0.18992, 0.19011, 0.19027, 0.19018, 0.19028, 0.19125, 0.18968, 0.18979,
                                0.18980]}
    for res, med in runs.items():
        row = next(r for r in v.MLPERF if r[2] == res)
        assert row[9] == pytest.approx(statistics.median(med), abs=2e-5)


def test_fms_rows_run_one_step_per_batch_on_the_tables_clusters():
    """fms-fsdp: GBS = per-GPU batch × GPUs (no accumulation); 128 A100 at 400 Gb/s a node, 96 H100 at 800."""
    for row in v.FMS_ROWS:
        sc = v.fms_scenario(row)
        n = sc["hardware"]["num_gpus"]
        assert n == {"A100": 128, "H100": 96}[row[2]]
        assert sc["training"]["global_batch_size"] == row[5] * n
        assert sc["training"]["fsdp_version"] == 1 and sc["parallel"]["zero"] == 3
    nets = {card: v.FMS_CLUSTER[card][2] * {"roce-100": 100, "roce-400": 400}[v.FMS_CLUSTER[card][1]]
            for card in v.FMS_CLUSTER}
    assert nets == {"A100": 400, "H100": 800}


def test_fms_34b_is_the_scripts_architecture():
    """config_utils.py @ed74fd5 ``34b``: 8,192 hidden, 48 layers, 64 heads, 8 KV heads, FFN 22,016, vocab 32,000 —
    about 33.7 B parameters (CodeLlama-34B's count)."""
    row = next(r for r in v.FMS_ROWS if r[1] == "34b")
    st = resolve(scenario_from_dict(v.fms_scenario(row)))
    assert st.params.total == pytest.approx(33.7e9, rel=0.01)


def test_scored_rows_and_before_agree_in_count_and_stay_in_target():
    res = v.results()
    assert len(res) == len(v.MLPERF) + len(v.FMS_ROWS) == len(v.BEFORE) == 23
    assert all(r["pred"] is not None for r in res), [r["why"] for r in res if r["pred"] is None]
    n, med, p90, _sgn = v.vbd.stats(res)
    assert n == 23 and med <= 0.15 and p90 <= 0.35


def test_before_score_is_what_the_note_reports():
    """The BEFORE predictions (main c0b0ae2c) give 10.4% / 21.5%, signed −10.1% (the note's first table)."""
    errs = [b / r["pub"] - 1 for b, r in zip(v.BEFORE, v.results())]
    a = sorted(abs(e) for e in errs)
    assert statistics.median(a) == pytest.approx(0.104, abs=0.001)
    assert v.vbd._pct(a, 0.9) == pytest.approx(0.215, abs=0.001)
    assert statistics.median(errs) == pytest.approx(-0.101, abs=0.001)
