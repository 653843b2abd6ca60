"""Ranges, not points: days and cost as a band from the validation spread (resources/validation_bands.json)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gpuplanner.core import cost as C
from gpuplanner.core.evaluate import evaluate, validation_band
from gpuplanner.core.scenario import scenario_from_dict

ROOT = Path(__file__).resolve().parents[1]
BANDS = ROOT / "gpuplanner" / "resources" / "validation_bands.json"
BASE = {"model": {"preset": "llama-3-8b"}, "training": {"method": "full", "framework": "fsdp"},
        "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}, "parallel": {"zero": 3}, "data": {"tokens": "20B"},
        "constraints": {"prices": {"h100-sxm-80gb": {"card_hour": 20.0, "machine_gpus": 8}}}}


def test_bands_are_stored_with_source_and_date_and_bracket_one():
    doc = json.loads(BANDS.read_text(encoding="utf-8"))
    assert doc["source"] and doc["source_date"]
    for fam in ("megatron", "fsdp", "hf", "deepspeed"):
        b = doc["bands"][fam]
        assert 0.5 < b["p10"] <= b["median"] <= b["p90"] < 2.0 and b["rows"] >= 10, fam
    assert doc["bands"]["megatron"]["rows"] + doc["bands"]["fsdp"]["rows"] + doc["bands"]["hf"]["rows"] \
        == doc["bands"]["all"]["rows"]


def test_the_band_is_the_plans_own_rental_arithmetic_at_p10_and_p90():
    ev = evaluate(scenario_from_dict(BASE))
    b = validation_band("fsdp")
    assert ev.band["family"] == "fsdp" and (ev.band["p10"], ev.band["p90"]) == (b["p10"], b["p90"])
    lo, hi = ev.calendar_days_band
    assert lo < ev.calendar_days < hi or b["p90"] < 1.0 or b["p10"] > 1.0
    # card-hours on demand, 8 GPUs: cost = billed card-hours × 20; the band bills p10/p90 × the training hours
    assert ev.rental_mode == "card_hour"
    th = ev.compute_days * 24.0
    for f, days, cost in ((b["p10"], lo, ev.cost_band[0]), (b["p90"], hi, ev.cost_band[1])):
        arr = C.rental_costs(ev.price, num_gpus=8, nodes=1, train_hours=th * f, ckpt_bytes=14.0 * ev.trainable,
                             setup_hours=ev.setup_hours, hours_per_week=168.0, phase="stable")
        i = C.MODES.index("card_hour")
        # each range widened to hold the plan's own point (evaluate._bands: the band of round 16's fsdp family lies
        # below 1.0, p90 0.9935, so its far end is the estimate itself)
        pick = min if f is b["p10"] else max
        assert days == pytest.approx(pick(float(arr.calendar_hours[i][0]) / 24.0, ev.calendar_days), rel=1e-9)
        assert cost == pytest.approx(pick(float(arr.costs[i][0]), ev.cost), rel=1e-9)
    # the band scales the training hours, not the setup: its width is (p90 − p10) × the compute time at most
    assert hi - lo <= (b["p90"] - b["p10"]) * ev.compute_days * 1.5 + 1e-9


def test_megatron_plans_use_the_megatron_band_and_json_carries_it(tmp_path, capsys):
    from gpuplanner.cli import run_cli

    d = json.loads(json.dumps(BASE))
    d["training"]["framework"] = "megatron"
    d["parallel"] = {"tp": 2}
    f = tmp_path / "s.json"
    f.write_text(json.dumps(d))
    assert run_cli(["estimate", str(f), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["band"]["family"] == "megatron" and out["band"]["p10"] == validation_band("megatron")["p10"]
    assert len(out["calendar_days_band"]) == 2 and len(out["cost_band"]) == 2
    assert out["calendar_days_band"][0] <= out["calendar_days_band"][1]


def test_the_stored_bands_are_what_the_validation_gives_today():
    """Regenerate with ``python bench/validation_bands.py --write gpuplanner/resources/validation_bands.json``
    after a time-model change: the shipped constants must be the validation's own numbers."""
    cal = next((up / "shared" / "reference" / "calibration-runs.jsonl" for up in ROOT.parents
                if (up / "shared" / "reference" / "calibration-runs.jsonl").exists()), None)
    if cal is None:
        pytest.skip("calibration-runs.jsonl (../shared/reference) not available")
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "validation_bands.py")], capture_output=True,
                         text=True, timeout=300, cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    doc = json.loads(BANDS.read_text(encoding="utf-8"))
    for line in out.stdout.splitlines():
        fam, _, rows, _, p10, _, med, _, p90 = line.split()
        b = doc["bands"][fam]
        assert (int(rows), float(p10), float(p90)) == (b["rows"], pytest.approx(b["p10"], abs=6e-4),
                                                       pytest.approx(b["p90"], abs=6e-4)), fam
