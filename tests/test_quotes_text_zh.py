"""The CLI's quote comparison reads the language's way: the quote's date and the total's band in full-width
brackets right after their text in Chinese ("¥10,201.60（区间 ¥9,010.86–¥10,665.29）", it was "¥10,201.60  （区间
¥9,010.86 – ¥10,665.29）"), the band's two ends joined as every range ("lo–hi"), and no band for a total whose band is
the total alone (a monthly lease: "¥35,000", not "(band ¥35,000 – ¥35,000)"). ux27: totals at the precision their
size deserves (formatting.format_money's own: whole from ¥100), as the plan's "¥667"; they were "¥35,000.00"."""

from __future__ import annotations

import re
from pathlib import Path

from gpuplanner.cli import run_cli

EX = Path(__file__).resolve().parents[1] / "examples"
SHEETS = [str(p) for p in sorted((EX / "quotes").glob("*.csv"))]


def _lines(capsys, lang: str) -> list[str]:
    assert run_cli(["quotes", str(EX / "shenzhen-7b-domain-project.gpuplan"), *SHEETS, "--lang", lang]) == 0
    return capsys.readouterr().out.splitlines()


def test_quotes_totals_and_dates_in_chinese(capsys):
    lines = _lines(capsys, "zh_CN")
    heads = [x for x in lines if x.startswith("#")]
    assert len(heads) == 3 and all(x.endswith("日）") and " (" not in x.split("example")[-1] for x in heads), heads
    totals = [x.strip() for x in lines if x.strip().startswith("合计")]
    assert len(totals) == 3, totals
    assert re.search(r" ¥[\d,]+（区间 ¥[\d,]+–¥[\d,]+）$", totals[0]), totals[0]  # whole money (ux27)
    assert totals[2].endswith("¥35,000"), totals[2]  # the monthly lease: its band is the total alone


def test_quotes_totals_in_english(capsys):
    totals = [x.strip() for x in _lines(capsys, "en") if x.strip().startswith("total ")]
    assert re.search(r" ¥[\d,]+  \(band ¥[\d,]+–¥[\d,]+\)$", totals[0]), totals[0]  # whole money (ux27)
    assert totals[2].endswith("¥35,000"), totals[2]
