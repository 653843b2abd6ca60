"""The ``plan`` table's calendar days read as the plan's own lines below it and the Plans page (a 0.39-day plan read
"0.4" in the table and "0.39 calendar days" one line lower): the table uses the same day format as the lines."""

from __future__ import annotations

import json
from pathlib import Path

from gpuplanner.cli import run_cli
from gpuplanner.formatting import format_plan_span

EX = Path(__file__).resolve().parents[1] / "examples" / "qwen3-moe-full-16xh100.gpuplan"


def test_plan_table_days_as_the_plan_lines(capsys):
    assert run_cli(["plan", str(EX), "--top", "3", "--json"]) == 0
    plans = json.loads(capsys.readouterr().out)["plans"]
    assert any(p["calendar_days"] < 1 for p in plans)
    assert run_cli(["plan", str(EX), "--top", "3", "--lang", "en"]) == 0
    lines = capsys.readouterr().out.splitlines()
    start = next(i for i, x in enumerate(lines) if x.startswith("#  "))
    head = lines[start].split("  ")
    for p, line in zip(plans, lines[start + 1:start + 4]):
        cells = [c.strip() for c in line.split("  ") if c.strip()]
        # the plan's headline, word and all (ux22: the column read "0.39" under "cal. days" beside "9.4 hours")
        want = format_plan_span(p["calendar_days"], tuple(p["calendar_days_band"]) if p.get("calendar_days_band")
                                else None, "en")[0]
        assert want in cells, (want, cells, head)
