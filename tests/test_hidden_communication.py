"""Communication run under compute is named with its share of the step (issue 35: "the time breakdown names each
new part (TP overlap hidden/exposed …) in the CLI, the Plans details and the PDF"), read from the Evaluation."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuplanner.cli import run_cli
from gpuplanner.core.evaluate import evaluate
from gpuplanner.io.scenario_files import load_scenario

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "llama3-70b-pretrain-64xh800-tp8pp4.json"


def test_hidden_shares_are_the_hidden_seconds_over_the_step():
    t = evaluate(load_scenario(EXAMPLE)[0]).time
    shares = t.hidden_shares
    assert shares["tp_comm"] == pytest.approx(t.hidden["tp_comm"] / t.step_time_s)
    assert shares["tp_comm"] > 0.1  # Megatron's TP overlap hides a large share of TP 8's traffic
    assert all(v > 0 for v in shares.values())


def test_cli_pdf_data_and_plans_details_name_the_hidden_communication(capsys):
    from gpuplanner.app.answer import answer, report_data
    from gpuplanner.formatting import format_percent
    from gpuplanner.report.render import build_html

    ev = evaluate(load_scenario(EXAMPLE)[0])
    tp = format_percent(ev.time.hidden_shares["tp_comm"])
    assert run_cli(["estimate", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    line = next(ln for ln in out.splitlines() if "run under compute" in ln)
    assert f"tensor-parallel communication {tp}" in line
    html = build_html(report_data(EXAMPLE, answer_=answer(EXAMPLE)), {})
    assert "tensor-parallel communication, hidden under compute (not in the step)" in html
