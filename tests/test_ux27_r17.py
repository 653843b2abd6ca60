"""Round 17 (helper ux27): the defects ux26 and probe17 saw and left (docs/notes/2026-12-07/issue-35-r17-ux27.md;
the window's side: tests/ui/test_ux27_r17_ui.py):

1. ``estimate`` printed "69.42 of 80 GiB (headroom 2.0 GiB)", which reads as if 80 − 69.4 were 2.0: the margin kept
   free on top of the estimate is now said as the sum it is, in the CLI, the Plans page and the PDF;
2. the CLI's cost lines had a "$" bullet in front of yuan amounts;
4. the project's what-if column read in days beside a project read in hours (and its overrun sentence "3.1 days …
   slot of 0.33 days" under a 7.9-hour phase): one unit per comparison, the plan's;
5. the vendor comparison wrote its totals with cents ("¥665.02", "¥0.00") beside a plan of "¥667";
6. the PDF's page 5 held five rows of "Cards not ranked" and nothing else (a forced page break before the charts,
   and a heading the pagination moved early and never gave back);
8. ``kit -o out/`` without a folder ``out`` wrote a file named ``out`` and said "run 'bash '".
"""

from __future__ import annotations

import re
import shutil
import subprocess
from decimal import Decimal
from pathlib import Path

import pytest

from gpuplanner.cli import run_cli

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "llama3-8b-full.json"


@pytest.fixture(scope="module")
def default_doc(tmp_path_factory):
    """The scenario a new document starts from (ui.model.default_scenario) as a file."""
    from gpuplanner.ui.model import default_scenario

    path = tmp_path_factory.mktemp("ux27") / "default.json"
    path.write_text(default_scenario().model_dump_json(exclude_defaults=True), encoding="utf-8")
    return path


# ------------------------------------------------------------------------ 1. the margin kept free, as a sum

NUM = r"([\d.,]+)"


@pytest.mark.parametrize(("lang", "pattern"), [
    ("en", rf"^  total\s+{NUM}   \+ {NUM} GiB kept free on top of the estimate = {NUM} of {NUM} GiB: fits$"),
    ("zh_CN", rf"^  合计\s+{NUM}   \+ 估算之外预留 {NUM} GiB = {NUM} / {NUM} GiB：放得下$"),
])
def test_the_estimates_memory_line_adds_up(capsys, lang, pattern):
    assert run_cli(["estimate", str(EXAMPLE), "--lang", lang]) == 0
    out = capsys.readouterr().out
    m = re.search(pattern, out, re.M)
    assert m, out
    total, head, need, cap = (float(x.replace(",", "")) for x in m.groups())
    assert need == pytest.approx(total + head, abs=0.006) and need <= cap, m.group(0)
    assert (total, head, cap) == (69.42, 2.0, 80.0)  # examples/llama3-8b-full.json: 8 × H800, the 2 GiB default
    assert "headroom" not in out and "余量 2.0" not in out


def test_the_pdfs_memory_rows_add_up():
    """The recommendation's row and the memory table say the same sum as ``estimate``."""
    from gpuplanner.app.answer import report_data
    from gpuplanner.report import render

    render.ensure_app()
    html = render.build_html(report_data(str(EXAMPLE)), {})
    # (the card's size as every view writes it, "80", since the sum is one sentence: r18 oneans18)
    assert "69.4 GiB + 2.0 GiB kept free on top of the estimate = 71.4 of 80 GiB" in html, html[:2000]
    assert "Total with what is kept free" in html and "Headroom kept free" not in html
    assert "GiB free)" not in html


# ------------------------------------------------------------------------ 2. a bullet, not "$"

@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("command", [["estimate"], ["plan", "--top", "2"]])
def test_cost_lines_have_no_dollar_bullet(capsys, lang, command):
    assert run_cli([command[0], str(EXAMPLE), *command[1:], "--lang", lang]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert not [ln for ln in lines if ln.lstrip().startswith("$ ")], lines
    bullets = [ln for ln in lines if ln.lstrip().startswith("• ")]
    assert bullets and all("¥" in ln or "按" in ln or "card" in ln or "卡" in ln for ln in bullets[:1]), bullets


# ------------------------------------------------------------------------ 4. the what-if in the project's unit

@pytest.mark.parametrize(("lang", "header", "overrun"), [
    ("en", "hours", "takes 74.6 hours and overruns its slot of 7.9 hours by 66.6 hours"),
    ("zh_CN", "小时", "需要 74.6 小时，比为其安排的 7.9 小时多出 66.6 小时"),
])
def test_the_what_if_reads_in_the_projects_unit(capsys, default_doc, lang, header, overrun):
    assert run_cli(["project", str(default_doc), "--lang", lang]) == 0
    out = capsys.readouterr().out
    head = out.splitlines()[0]
    assert header in head, head  # the phases' column: a 7.9-hour project
    what_if = out[out.index("\n\n", out.rindex("Rent/build" if lang == "en" else "租用")):]
    assert header in what_if.strip().splitlines()[1], what_if  # the what-if column's header: was "days" / "天"
    assert re.search(r"10× data\s+yes\s+74\.6\s" if lang == "en" else r"数据量 ×10\s+是\s+74\.6\s", what_if), what_if
    assert overrun in what_if and "0.33" not in what_if, what_if


def test_the_overrun_sentence_keeps_a_days_slot_in_days():
    """A slot of days (a long phase) stays in days; only the sentence's unit comes from the slot now."""
    from gpuplanner.core.project import WhatIf

    fields = dict(change="tokens_x10", evaluation=None, fits=True, calendar_days=30.0, cost=1.0, num_gpus=8,
                  nodes=1, gpus_needed=None, in_place_upgrade=True, node_slots=8, layout_changes=(),
                  rental_mode=None, base_rental_mode=None, slot_weeks=2.0, overrun_weeks=2.0)
    w = WhatIf(**fields)
    text = w.overrun_note.render()
    assert "takes 28.0 days and overruns its slot of 14.0 days by 14.0 days" in text, text
    fields.update(slot_weeks=7.9 / 24 / 7, overrun_weeks=66.6 / 24 / 7)
    text = WhatIf(**fields).overrun_note.render()
    assert "74.5 hours" in text and "slot of 7.9 hours" in text, text


# ------------------------------------------------------------------------ 5. quote money by its size

def test_money_of_nothing_has_no_cents():
    from gpuplanner.formatting import format_money

    assert format_money(0.0, "CNY") == "¥0"
    assert format_money(46.49, "CNY") == "¥46.49" and format_money(665.02, "CNY") == "¥665"
    assert format_money(0.0, "CNY", decimals=2) == "¥0.00"  # asked for: kept


def test_the_quotes_totals_are_at_the_precision_their_size_deserves():
    from gpuplanner.report.quotes_section import _money

    assert _money(Decimal("665.02"), "CNY") == "¥665"
    assert _money(Decimal("0"), "CNY") == "¥0"
    assert _money(Decimal("46.49"), "CNY") == "¥46.49"
    assert _money(Decimal("35000"), "CNY") == "¥35,000"


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_vendor_comparison_has_no_cents_on_big_totals(capsys, default_doc, lang):
    sheets = sorted(str(p) for p in (ROOT / "examples" / "quotes").glob("*.csv"))
    assert run_cli(["quotes", str(default_doc), *sheets, "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert "¥0.00" not in out, out
    assert not re.search(r"¥\d{1,3}(,\d{3})*\d{0,}\.\d\d(?!\d)", out.replace("¥10.50", "").replace("¥46.49", "")
                         .replace("¥11.29", "")), out  # unit prices and amounts under ¥100 keep their cents
    assert "¥665" in out


# ------------------------------------------------------------------------ 6. the PDF's charts follow on

@pytest.fixture()
def needs_pdftotext():
    if not shutil.which("pdftotext"):
        pytest.skip("poppler-utils (pdftotext) not installed")


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_charts_start_under_the_cards_not_ranked(tmp_path, needs_pdftotext, lang):
    """Page 5 of examples/llama3-8b-full.json's PDF held the last five rows of "Cards not ranked" alone: the
    charts section opens on that page now, under the table."""
    out = tmp_path / "r.pdf"
    assert run_cli(["report", str(EXAMPLE), "-o", str(out), "--lang", lang]) == 0
    text = subprocess.run(["pdftotext", "-layout", str(out), "-"], capture_output=True, text=True, check=True,
                          timeout=60).stdout
    pages = text.split("\f")
    charts = "3. Charts" if lang == "en" else "3. 图表"
    not_ranked = "Why it is not ranked" if lang == "en" else "未参与排序的原因"
    at = next(i for i, p in enumerate(pages) if charts in p)
    last_rows = max(i for i, p in enumerate(pages) if not_ranked in p)
    # on the table's last page, unless that page is full (zh: the table ends low on page 4, the chart goes on)
    full = len([ln for ln in pages[last_rows].splitlines() if ln.strip()]) >= 30
    assert at == last_rows or (at == last_rows + 1 and full), (at + 1, last_rows + 1, pages[last_rows])
    for i, p in enumerate(pages[:-2]):  # no page before the last is a few lines under a page's worth of white
        assert len([ln for ln in p.splitlines() if ln.strip()]) > 12, (i + 1, p)


# ------------------------------------------------------------------------ 8. "-o out/" names a folder

@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("command", ["kit", "report"])
def test_an_output_folder_is_refused(capsys, tmp_path, monkeypatch, lang, command):
    monkeypatch.chdir(tmp_path)
    shutil.copy(EXAMPLE, tmp_path / "s.json")
    assert run_cli([command, "s.json", "-o", "out/", "--lang", lang]) == 2
    err = capsys.readouterr().err
    assert not (tmp_path / "out").exists(), "a file named out was written"
    said = "out/: a folder; give -o a file name" if lang == "en" else "out/：这是文件夹；请给 -o 一个文件名"
    assert said in err and "'bash '" not in err, err
    (tmp_path / "d").mkdir()
    assert run_cli([command, "s.json", "-o", "d", "--lang", lang]) == 2  # a folder that is there: the same
    assert list((tmp_path / "d").iterdir()) == []


def test_kit_into_a_file_still_says_how_to_run_it(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copy(EXAMPLE, tmp_path / "s.json")
    (tmp_path / "out").mkdir()
    assert run_cli(["kit", "s.json", "-o", "out/kit.sh"]) == 0
    assert (tmp_path / "out" / "kit.sh").is_file()
    assert "run 'bash kit.sh'" in capsys.readouterr().err
