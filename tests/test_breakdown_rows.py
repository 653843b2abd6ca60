"""One rule for the step-time shares (issue 35 r4): the CLI printed whole percents (a 0.4% share read "0%"), the
Plans details tenths above 0.05% from the search's own shares, the PDF every share at tenths. Now
``formatting.breakdown_rows`` decides the rows (precision, what is left out, order) and every view reads it, from
the Evaluation (``TimeEstimate.breakdown``)."""

from __future__ import annotations

import re

import pytest
from pathlib import Path

from gpuplanner.cli import run_cli
from gpuplanner.core.evaluate import evaluate
from gpuplanner.io.scenario_files import load_scenario

ROOT = Path(__file__).resolve().parents[1]
DENSE = ROOT / "examples" / "llama3-70b-pretrain-64xh800-tp8pp4.json"
MOE = ROOT / "examples" / "mixtral-8x7b-ep8-16xa800.json"


def test_breakdown_rows_are_largest_first_at_tenths_dropping_only_zero():
    from gpuplanner.formatting import BREAKDOWN_SHARE_DECIMALS, breakdown_rows

    assert BREAKDOWN_SHARE_DECIMALS == 1
    rows = breakdown_rows({"compute": 0.9, "tp_comm": 0.0956, "dp_comm": 0.0004, "other": 0.0040})
    assert rows == [("compute", "90.0%"), ("tp_comm", "9.6%"), ("other", "0.4%")]  # 0.04% prints as 0.0%
    assert breakdown_rows({"a": 0.5, "b": 0.5}) == [("a", "50.0%"), ("b", "50.0%")]  # ties keep their order
    assert breakdown_rows({}) == []
    assert breakdown_rows({"compute": 0.5}, lang="zh_CN") == [("compute", "50.0%")]


def cli_breakdown_rows(out: str) -> list[tuple[str, str]]:
    """The CLI estimate's "time share" line as [(label, percent text)] in its order (labels as BREAKDOWN_LABELS)."""
    line = next((ln for ln in out.splitlines() if ln.strip().startswith("time share")), "")
    body = line.strip()[len("time share"):].strip()
    return re.findall(r"(.+?) ([0-9.,]+%)(?:, |$)", body)


def pdf_breakdown_rows(html: str) -> list[tuple[str, str]]:
    """The PDF's step-time table rows (not the hidden ones) as [(label, percent text)] in its order."""
    start = html.find(">Step time</th>")
    table = html[start:html.find("</table>", start)]
    return [(lab, pct) for lab, pct in re.findall(r"<tr><td>([^<]*)</td><td[^>]*>([^<]*)</td></tr>", table)
            if "hidden under compute" not in lab]


def want_rows(ev) -> list[tuple[str, str]]:
    from gpuplanner.core.timing import BREAKDOWN_LABELS
    from gpuplanner.formatting import breakdown_rows

    return [(BREAKDOWN_LABELS[k], pct) for k, pct in breakdown_rows(ev.time.breakdown)]


def test_cli_and_pdf_show_the_same_step_time_rows(capsys):
    """One answer: the CLI estimate and the PDF list the same parts, same figures, same order. On the Llama 3 70B
    example the optimizer share (about 0.1%) read "0%" in the CLI and "0.1%" in the PDF; on the Mixtral EP8
    example the expert all-to-all is named (it was folded into "optimizer step and other")."""
    from gpuplanner.app.answer import answer, report_data
    from gpuplanner.report.render import build_html

    small = 0
    for path in (DENSE, MOE):
        ev = evaluate(load_scenario(path)[0])
        want = want_rows(ev)
        small += sum(0.0005 <= v < 0.005 for v in ev.time.breakdown.values())
        assert len(want) >= 4
        assert run_cli(["estimate", str(path)]) == 0
        assert cli_breakdown_rows(capsys.readouterr().out) == want
        assert pdf_breakdown_rows(build_html(report_data(path, answer_=answer(path)), {})) == want
    assert small  # a share the old whole-percent CLI rule printed as "0%"


def test_the_expert_all_to_all_is_its_own_share():
    """The exposed expert all-to-all is a named part inside "other" (core/timing PART_PARENT), as the search's
    shares (``frac_ep_comm``) have it: the Plans details and the CLI name the same parts."""
    t = evaluate(load_scenario(MOE)[0]).time
    b = t.breakdown
    assert b["ep_comm"] == pytest.approx(t.seconds["ep_comm"] / t.step_time_s)
    assert b["other"] == pytest.approx(t.seconds["other"] / t.step_time_s)
    assert sum(b.values()) == pytest.approx(1.0)
