"""The PDF names every card left out of the ranking (with why: "no price — enter a quote") and lists each
plan's planning-rule verdicts; the band and rent-vs-build sections are read from the Evaluation."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

SCENARIO = {"model": {"preset": "llama-3-70b"}, "training": {"method": "full"}, "data": {"tokens": "1B"},
            "constraints": {"max_gpus": 64, "deadline_days": 30,
                            "gpu_candidates": ["rtx-4090-24gb", "l40-48gb", "a800-sxm-80gb"],
                            "prices": {"rtx-4090-24gb": {"card_hour": 1.0}}}}


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    if not shutil.which("pdftotext"):
        pytest.skip("poppler-utils (pdftotext) not installed")
    from gpuplanner.app.answer import report_data as load_report_data
    from gpuplanner.report.render import ensure_app
    from gpuplanner.report_file import export_pdf

    ensure_app()
    d = tmp_path_factory.mktemp("rep")
    f = d / "s.json"
    f.write_text(json.dumps(SCENARIO))
    data = load_report_data(f)
    pdf = export_pdf(data, d / "r.pdf", paper="a4")
    text = subprocess.run(["pdftotext", "-raw", str(pdf), "-"], capture_output=True, text=True, check=True,
                          timeout=60).stdout
    return data, re.sub(r"\s+", " ", text).replace("ﬁ", "fi").replace("ﬀ", "ff")


def test_skipped_cards_are_listed_with_their_reason(report):
    data, text = report
    names = {name for name, _why in data.skipped}
    assert any("L40" in n for n in names) and any("4090" in n for n in names)
    assert "Cards not ranked" in text
    l20 = next(why for name, why in data.skipped if "L40" in name)
    assert l20.render() == "no price — enter a quote" and "no price — enter a quote" in text


def test_the_chosen_plans_rules_are_in_the_pdf(report):
    data, text = report
    assert "Planning rules" in text
    verdicts = {name.render(): status for name, status, _m in data.plan.rules}
    # a plan that does not fit cannot run: its MFU grade does not apply (core.rules._cannot_run; ux22)
    assert verdicts["≥80 GB cards"] == "passed" and verdicts["MFU grade"] in (
        ("passed", "failed") if data.plan.fits else ("not_applicable",))
    for name, status, msg in data.plan.rules:
        assert msg.render().split(":")[0].split(";")[0][:25] in text
    assert "✓ ≥80 GB cards passed" in text


def test_the_band_is_explained(report):
    data, text = report
    assert data.plan.calendar_days_band is not None
    assert "Likely range:" in text and "10th to 90th percentile" in text
