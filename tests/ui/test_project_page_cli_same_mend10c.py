"""mend10c (review finding 4): the Project page's start–end spans and what-if spans read as `gpuplanner project`
writes them: both through formatting.elapsed_numbers in the unit of the longest (ux15 moved the page off
format_sig(…, 6)); this guards that they stay one text."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gpuplanner.cli import run_cli

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _src(name: str) -> Path:
    """An example by name: examples/, or tests/data/examples_fixed/ for the fixed-layout files that left
    examples/ in issue 35 round 16 (examples16: those examples now let the search choose)."""
    here = Path(__file__).resolve().parents[2] / "examples" / name
    return here if here.exists() else Path(__file__).resolve().parents[2] / "tests" / "data" / "examples_fixed" / name


@pytest.mark.parametrize("name", ["shenzhen-7b-domain-project.gpuplan", "8b-dpo-full-8xh100-zero3.json"])
def test_the_project_page_spans_read_as_the_cli(make_window, language, tmp_path, qtbot, capsys, name):
    language.install("en")
    assert run_cli(["project", str(_src(name)), "--lang", "en"]) == 0
    cli = capsys.readouterr().out
    path = tmp_path / name
    shutil.copy(_src(name), path)
    w = make_window(search_enabled=False)
    assert w.open_path(path, show_errors=False)
    w.go_to(7)
    page = w.pages[7]
    qtbot.waitUntil(lambda: not page.busy() and page.result is not None and bool(page.total.text()), timeout=60000)
    assert page.table.rowCount() > 0
    for r in range(page.table.rowCount()):
        span = page.table.item(r, 1).text()
        assert any(line.split() and span in line.split() for line in cli.splitlines()), (span, cli)
    for r in range(page.whatif.rowCount()):
        days = page.whatif.item(r, 2).text()
        assert days == "—" or days in cli, (days, cli)
