"""Rent vs build in the app: the Hardware page's ownership figures go into the scenario, and the Plans page
shows renting next to the five parts of building (the same figures as ``plan --json``)."""

from __future__ import annotations

import json
from pathlib import Path

from gpuplanner.cli import run_cli
from gpuplanner.core.scenario import scenario_from_dict
from gpuplanner.formatting import format_number
from tests.ui.conftest import first_plan_details, searched

SCENARIO = {"model": {"preset": "llama-3-8b"}, "training": {"method": "full", "framework": "fsdp"},
            "hardware": {"gpu": "h200-sxm-141gb", "num_gpus": 8}, "parallel": {"zero": 3},
            "data": {"tokens": "2B"}, "constraints": {"max_gpus": 8, "gpu_candidates": ["h200-sxm-141gb"]}}


def test_ownership_fields_and_the_plans_page_breakdown(win, qtbot, tmp_path, capsys):
    win.model.load(scenario_from_dict(SCENARIO))
    qtbot.waitUntil(lambda: searched(win) and win.search.outcome is not None, timeout=30000)
    hw = win.page("hardware")
    # empty fields show the dated default (H200 8-card module, 1.4M CNY, Jan 2026, gpu-catalog.md §3.4) and keep it out of
    # the scenario
    assert hw.own_fields["machine_price"].text() == ""
    assert hw.own_fields["machine_price"].placeholderText() == "1,400,000"
    assert "your figure" not in hw.own_fields["machine_price"].toolTip()
    hw.own_fields["machine_price"].setText("1,200,000")
    hw.own_fields["machine_price"].textEdited.emit("1,200,000")
    hw.own_fields["spares_per_year"].setText("5")
    hw.own_fields["spares_per_year"].textEdited.emit("5")
    own = win.model.scenario.constraints.ownership
    assert own.machine_price == 1_200_000 and abs(own.spares_per_year - 0.05) < 1e-12
    hw.own_fields["pue"].setText("0.8")
    hw.own_fields["pue"].textEdited.emit("0.8")
    assert hw.own_fields["pue"].box.error  # PUE below 1 is refused at the field
    assert win.model.scenario.constraints.ownership.pue is None
    page = first_plan_details(win, qtbot, "Rent, total", timeout=30000)
    text = page.details.toPlainText()
    row = page.table_model.plans[0]
    rb = row.plan.evaluation.rent_vs_build
    assert rb.inputs.machine_price == 1_200_000 and rb.inputs.spare_rate_per_year == 0.05
    for part in ("hardware (purchase and depreciation)", "rack / colocation", "electricity (with PUE)",
                 "operations staff", "spares", "Build, total"):
        assert part in text, part
    for value in (rb.rent_total, *rb.breakdown.values(), rb.build_total):
        assert format_number(value, 0) in text  # the Plans page writes it through the one formatter
    # the same figures as the CLI for the plan's scenario
    f = tmp_path / "p.json"
    f.write_text(json.dumps(row.plan.evaluation.scenario.model_dump(mode="json", exclude_none=True)))
    assert run_cli(["estimate", str(f), "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)["rent_vs_build"]
    assert cli["breakdown"] == rb.breakdown and cli["rent_total"] == rb.rent_total


def test_the_break_even_sentence_is_the_pdfs(qapp):
    """One sentence under the rent-or-build table on the Plans page and in the PDF (core.cost.break_even_line; round
    12, tidy12: the page had a shorter wording of its own): the utilisation through the one formatter, the years as
    entered; the unknown case says so; "never" says nothing (the verdict sentence above says it once)."""
    from types import SimpleNamespace

    from gpuplanner.core.cost import break_even_line
    from gpuplanner.ui.text import tr_msg

    rb = SimpleNamespace(break_even_utilisation=0.4236, verdict="rent", inputs=SimpleNamespace(depreciation_years=3.0))
    assert tr_msg(break_even_line(rb)) == ("Owning breaks even when the servers are busy 42% of the time over 3 years "
                                           "(straight-line depreciation, no resale value).")
    assert "purchase price" in tr_msg(break_even_line(SimpleNamespace(break_even_utilisation=None, verdict="unknown")))
    assert break_even_line(SimpleNamespace(break_even_utilisation=None, verdict="rent")) is None
    import inspect

    from gpuplanner.report import render
    from gpuplanner.ui.pages import plans_page
    for mod in (render, plans_page):  # both views read it; neither writes a wording of its own
        src = inspect.getsource(mod)
        assert "break_even_line(rb)" in src and "Owning breaks even" not in src
