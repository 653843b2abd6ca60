"""The Plans details list the step-time shares with the rows the CLI estimate and the PDF show
(formatting.breakdown_rows, read from the plan's Evaluation): same parts, same figures, same order."""

from __future__ import annotations

import json
import re

from gpuplanner.core.scenario import scenario_from_dict
from tests.ui.conftest import searched

#: an MoE plan with expert parallelism (the search's shares named the expert all-to-all, the CLI folded it into
#: "optimizer step and other") and small shares under 0.5% (the CLI printed them as "0%")
SCENARIO = {"model": {"preset": "mixtral-8x7b"}, "training": {"method": "full", "framework": "megatron",
                                                             "seq_len": 4096, "global_batch_size": 256},
            "hardware": {"gpu": "a800-sxm-80gb", "num_gpus": 16, "gpus_per_node": 8, "inter_node": "roce-200"},
            "parallel": {"tp": 2, "ep": 8}, "data": {"tokens": "20B"},
            "constraints": {"max_gpus": 32, "gpu_candidates": ["a800-sxm-80gb"], "currency": "CNY"}}


def details_breakdown_rows(text: str) -> list[tuple[str, str]]:
    """The Plans details' step-time rows (not the hidden ones) as [(label, percent text)] in their order."""
    start = text.find("Step time breakdown")
    assert start >= 0, text
    lines = text[start:].splitlines()[1:]  # a table's cells come one a line: label, then its share
    rows = []
    for lab, pct in zip(lines[::2], lines[1::2]):
        if not re.fullmatch(r"[0-9.,]+%", pct.strip()):
            break
        if "hidden under compute" not in lab:
            rows.append((lab.strip(), pct.strip()))
    return rows


def test_plans_details_cli_and_pdf_show_the_same_step_time_rows(win, qtbot, tmp_path, capsys):
    from gpuplanner.app.answer import answer, report_data
    from gpuplanner.cli import run_cli
    from gpuplanner.report.render import build_html
    from tests.test_breakdown_rows import cli_breakdown_rows, pdf_breakdown_rows, want_rows

    win.model.load(scenario_from_dict(SCENARIO))
    qtbot.waitUntil(lambda: searched(win) and win.search.outcome is not None, timeout=120000)
    win.go_to(5)
    page = win.page("plans")
    small = ep = 0
    plans = page.table_model.plans[:3]
    assert plans
    for i, row in enumerate(plans):
        page.show_details(row)
        ev = row.plan.evaluation
        want = want_rows(ev)
        small += sum(0.0005 <= v < 0.005 for v in ev.time.breakdown.values())
        ep += ev.time.breakdown.get("ep_comm", 0.0) >= 0.0005
        assert details_breakdown_rows(page.details.toPlainText()) == want
        path = tmp_path / f"plan{i}.json"
        path.write_text(json.dumps(ev.scenario.model_dump(mode="json")), encoding="utf-8")
        assert run_cli(["estimate", str(path)]) == 0
        assert cli_breakdown_rows(capsys.readouterr().out) == want
        assert pdf_breakdown_rows(build_html(report_data(path, answer_=answer(path)), {})) == want
    assert small and ep  # the cases the views disagreed on
