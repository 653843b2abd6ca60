"""Issue 35 round 19 (ptoos19): DeepSeek's H800 GPU-hours figures entered in bench/validate_pt_oos19.py.
Hand-derived figures from the reports the bench names; no model change this round, so the rows must still score as
they did on main 76601896 (``BEFORE``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from gpuplanner.core.estimate import resolve
from gpuplanner.core.scenario import scenario_from_dict

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import validate_pt_oos19 as v  # noqa: E402


def test_published_rate_is_a_trillion_tokens_over_the_gpu_hours():
    # DeepSeek-V2 report §3.2.3: 172.8K (V2) and 300.6K (67B) H800 hours per trillion tokens
    by = {r[0]: r for r in v.ROWS}
    assert v.pub_tps(by["DeepSeek-V2 PP16 EP8"]) == pytest.approx(1607.51, abs=0.01)
    assert v.pub_tps(by["DeepSeek 67B TP8 PP8"]) == pytest.approx(924.08, abs=0.01)
    # the two figures' ratio is the report's "save 42.5% training costs"
    assert 1 - 172.8 / 300.6 == pytest.approx(0.425, abs=0.001)


def test_the_models_are_the_released_configs():
    # DeepSeek-V2: 236B total / 21B active (report §1); DeepSeek 67B: 67B (LLM report Table 2)
    v2 = resolve(scenario_from_dict(v.scenario(v.ROWS[0])))
    d67 = resolve(scenario_from_dict(v.scenario(v.ROWS[1])))
    assert v2.params.total / 1e9 == pytest.approx(236, rel=0.02)
    assert d67.params.total / 1e9 == pytest.approx(67.4, rel=0.02)


def test_layouts_fill_the_gpus_and_batches_divide():
    for r in v.ROWS:
        _k, _m, n, gbs, tp, pp, _ep, mbs, *_ = r
        assert n % (tp * pp) == 0
        assert gbs % (n // (tp * pp) * mbs) == 0, r[0]


def test_rows_score_as_entered_before_any_change():
    res = v.results()
    for r in res:
        assert r["pred"] == pytest.approx(v.BEFORE[r["label"]], abs=0.01), r["label"]
    n, med, p90, _sgn = v._stats(res)
    assert n == 2 and med <= 0.15 and p90 <= 0.35


def test_fragment_is_wired_after_ptoos18():
    src = (ROOT / "bench" / "validate_time.py").read_text()
    assert src.index('_fragments("ptoos18.md")') < src.index('_fragments("ptoos19.md")')
    assert (ROOT / "bench" / "data" / "ptoos19.md").is_file()
