"""Communication run under compute is named with its share of the step (issue 35: "the time breakdown names each
new part (TP overlap hidden/exposed …) in the CLI, the Plans details and the PDF"), read from the Evaluation."""

from __future__ import annotations

import re
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
    tp = format_percent(ev.time.hidden_shares["tp_comm"], 1)
    assert run_cli(["estimate", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    line = next(ln for ln in out.splitlines() if "run under compute" in ln)
    assert f"tensor-parallel communication {tp}" in line
    html = build_html(report_data(EXAMPLE, answer_=answer(EXAMPLE)), {})
    assert "tensor-parallel communication, hidden under compute (not in the step)" in html


def test_hidden_share_rows_drop_only_what_prints_as_zero():
    from gpuplanner.formatting import HIDDEN_SHARE_DECIMALS, hidden_share_rows

    assert HIDDEN_SHARE_DECIMALS == 1
    rows = hidden_share_rows({"tp_comm": 0.3357, "dp_comm": 0.00425, "cp_comm": 0.0004, "pp_p2p": 0.0006})
    assert rows == [("tp_comm", "33.6%"), ("dp_comm", "0.4%"), ("pp_p2p", "0.1%")]  # 0.04% prints as 0.0%
    assert hidden_share_rows({}) == []


def cli_hidden_rows(out: str) -> dict[str, str]:
    """The CLI estimate's hidden-communication line as {label: percent text} (label as HIDDEN_LABELS names it)."""
    from gpuplanner.core.timing import HIDDEN_LABELS

    line = next((ln for ln in out.splitlines() if "run under compute" in ln), "")
    return {lab: m.group(1) for lab in HIDDEN_LABELS.values()
            if (m := re.search(re.escape(lab) + r" ([0-9.,]+%)", line))}


def pdf_hidden_rows(html: str) -> dict[str, str]:
    """The PDF's step-time table rows of communication run under compute, as {label: percent text}."""
    return dict(re.findall(r"<td>([^<]*), hidden under compute \(not in the step\)</td><td[^>]*>([^<]*)</td>", html))


def test_cli_and_pdf_show_the_same_hidden_rows(tmp_path, capsys):
    """One answer: the CLI and the PDF list the same parts with the same figures. The data-parallel share (0.42%)
    was left out by the CLI (it dropped what printed as 0% at whole percents) while the PDF showed 0.4%."""
    from gpuplanner.app.answer import answer, report_data
    from gpuplanner.core.timing import HIDDEN_LABELS
    from gpuplanner.formatting import hidden_share_rows
    from gpuplanner.report.render import build_html

    ev = evaluate(load_scenario(EXAMPLE)[0])
    want = {HIDDEN_LABELS[k]: pct for k, pct in hidden_share_rows(ev.time.hidden_shares)}
    assert HIDDEN_LABELS["dp_comm"] in want and len(want) == 3
    assert run_cli(["estimate", str(EXAMPLE)]) == 0
    assert cli_hidden_rows(capsys.readouterr().out) == want
    assert pdf_hidden_rows(build_html(report_data(EXAMPLE, answer_=answer(EXAMPLE)), {})) == want
