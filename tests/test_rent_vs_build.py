"""Rent vs build end to end: constraints.ownership in the scenario → Evaluation → plan/estimate --json and text.

Each expected figure is derived by hand from the scenario's own numbers (see tests/test_cost.py for the
formula sheet).
"""

from __future__ import annotations

import json

import pytest

from gpuplanner.cli import run_cli
from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.scenario import scenario_from_dict

BASE = {"model": {"preset": "llama-3-8b"}, "training": {"method": "full", "framework": "fsdp"},
        "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}, "parallel": {"zero": 3},
        "data": {"tokens": "2B"},
        "constraints": {"max_gpus": 8, "gpu_candidates": ["h100-sxm-80gb"],
                        "prices": {"h100-sxm-80gb": {"card_hour": 20.0, "machine_month": 200000.0,
                                                     "machine_gpus": 8}}}}


def _scenario(**ownership):
    d = json.loads(json.dumps(BASE))
    d["constraints"]["ownership"] = ownership
    return scenario_from_dict(d)


def test_a_short_job_buys_the_servers_and_claims_no_payback():
    ev = evaluate(_scenario())
    rb = ev.rent_vs_build
    assert ev.calendar_days < 1.0  # a sub-day job
    assert rb.single_job and rb.horizon_months == pytest.approx(ev.calendar_days * 24 / 720)
    assert rb.rent_total == pytest.approx(ev.cost)  # the plan's own rental cost
    assert rb.breakdown["hardware"] == pytest.approx(2_700_000.0)  # the whole 8-card server (gpu-catalog §3.4)
    assert rb.breakdown["electricity"] == pytest.approx(10.2 * 1.3 * 0.7001 * ev.compute_days * 24)
    assert rb.verdict == "rent" and rb.payback_months is None
    assert "pays for itself" not in rb.sentence.render()
    # break-even over 3 years: fixed = 2.7M/36 + rack + staff + spares; a busy month rents for 8·20·720 (30 days)
    inp = rb.inputs
    fixed = 2.7e6 / 36 + inp.colocation_per_machine_month + inp.ops_staff_per_month + inp.spare_rate_per_year * 2.7e6 / 12
    elec = 10.2 * 1.3 * 0.7001 * 720
    assert rb.break_even_utilisation == pytest.approx(fixed / (8 * 20 * 720 - elec), rel=1e-9) or (
        rb.break_even_utilisation is None and fixed / (8 * 20 * 720 - elec) > 1)


def test_the_users_figures_and_period_replace_the_defaults():
    ev = evaluate(_scenario(machine_price=1_000_000, depreciation_years=4, rack_per_month=3000, tariff_per_kwh=0.5,
                            pue=1.2, staff_per_month=0, spares_per_year=0.0, horizon_months=12, jobs=100))
    rb = ev.rent_vs_build
    assert not rb.single_job and rb.jobs == 100
    assert rb.horizon_months == pytest.approx(max(12.0, 100 * ev.calendar_days * 24 / 720))
    H = rb.horizon_months
    assert rb.rent_total == pytest.approx(100 * ev.cost)
    assert rb.breakdown == pytest.approx({
        "hardware": 1_000_000.0, "rack": 3000.0 * H, "electricity": 10.2 * 1.2 * 0.5 * 100 * ev.compute_days * 24,
        "staff": 0.0, "spares": 0.0})
    assert rb.inputs.sources["machine_price"] == "your figure"
    # fixed 1e6/48 + 3,000 = 23,833 a month; a busy month rents for min(20, 200,000/720/8 = 34.7)·8·720 = 115,200
    u = (1e6 / 48 + 3000) / (20 * 8 * 720 - 10.2 * 1.2 * 0.5 * 720)
    assert rb.break_even_utilisation == pytest.approx(u, rel=1e-9)


def test_plan_and_estimate_json_carry_the_five_parts(tmp_path, capsys):
    f = tmp_path / "s.json"
    f.write_text(json.dumps(BASE))
    assert run_cli(["plan", str(f), "--json", "--top", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    rb = out["rent_vs_build"]
    assert {"rent_total", "build_total", "horizon_months", "breakdown", "verdict", "break_even_utilisation"} <= set(rb)
    assert list(rb["breakdown"]) == ["hardware", "rack", "electricity", "staff", "spares"]
    assert rb["build_total"] == pytest.approx(sum(rb["breakdown"].values()))
    assert out["plans"][0]["rent_vs_build"] == rb
    e = tmp_path / "e.json"
    e.write_text(json.dumps(out["plans"][0]["scenario"]))
    assert run_cli(["estimate", str(e), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["rent_vs_build"] == rb
    assert run_cli(["estimate", str(e)]) == 0
    text = capsys.readouterr().out
    for part in ("hardware", "rack / colocation", "electricity", "operations staff", "spares", "break-even"):
        assert part in text


def test_bad_ownership_figures_are_one_line_errors(tmp_path, capsys):
    d = json.loads(json.dumps(BASE))
    d["constraints"]["ownership"] = {"pue": 0.5}
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(d))
    assert run_cli(["estimate", str(f)]) == 2
    err = capsys.readouterr().err.strip()
    assert "constraints.ownership.pue" in err and "\n" not in err


def test_over_a_period_leasing_the_servers_caps_the_rent():
    d = json.loads(json.dumps(BASE))
    d["constraints"]["prices"]["h100-sxm-80gb"]["machine_month"] = 20_000.0
    d["constraints"]["ownership"] = {"horizon_months": 12, "jobs": 500}
    ev = evaluate(scenario_from_dict(d))
    rb = ev.rent_vs_build
    assert 500 * ev.calendar_days * 24 / 720 < 12  # the jobs fit in the year
    # 500 jobs billed one by one cost more than one 8-card server leased for the 12 months
    assert 500 * ev.cost > 20_000.0 * 12
    assert rb.rent_total == pytest.approx(20_000.0 * 12)


def test_the_pdf_lists_the_five_parts_next_to_rent(tmp_path):
    import re
    import shutil
    import subprocess

    if not shutil.which("pdftotext"):
        pytest.skip("poppler-utils (pdftotext) not installed")
    from gpuplanner.app.answer import report_data as load_report_data
    from gpuplanner.report.content import fmt_money
    from gpuplanner.report.render import ensure_app
    from gpuplanner.report_file import export_pdf

    ensure_app()
    f = tmp_path / "s.json"
    d = json.loads(json.dumps(BASE))
    d["constraints"]["ownership"] = {"horizon_months": 12, "jobs": 30}
    f.write_text(json.dumps(d))
    data = load_report_data(f)
    pdf = export_pdf(data, tmp_path / "r.pdf", paper="a4")
    text = re.sub(r"\s+", " ", subprocess.run(["pdftotext", "-raw", str(pdf), "-"], capture_output=True,
                                              text=True, check=True, timeout=60).stdout).replace("ﬀ", "ff")
    ev = evaluate(scenario_from_dict(json.loads(json.dumps(data.plan.scenario.model_dump(mode="json")))))
    rb = ev.rent_vs_build
    assert f"Rent, total {fmt_money(rb.rent_total, 'CNY')}" in text
    for key, label in (("hardware", "hardware (purchase and depreciation)"), ("rack", "rack / colocation"),
                       ("electricity", "electricity (with PUE)"), ("staff", "operations staff"), ("spares", "spares")):
        assert f"Build: {label} {fmt_money(rb.breakdown[key], 'CNY')}" in text, key
    assert f"Build, total {fmt_money(rb.build_total, 'CNY')}" in text
