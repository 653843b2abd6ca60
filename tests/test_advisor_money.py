"""The advisor's sentences write money as the tables, the live panel and the PDF do ("$194", "¥1,505"): they read
"…, 0.7 calendar days, 1,505 CNY." and "its best plan is … 1,896 CNY (+26% against this plan)" from their
"{cost:,.0f} {cur}" templates. A "{x:,.Nf} {cur}" amount is rendered through ``formatting.format_money`` where a
message is filled in (``core.messages.money_params``), in English and in Chinese."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gpuplanner.cli import run_cli
from gpuplanner.core.messages import Msg, MsgStr
from tests.test_report import _run, load_report_data, needs_poppler

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json"
#: full SFT 8B in 3 days under a ¥5,000 cap: the PDF's warnings carry the search's "no plan meets both" note and
#: the plan's "over the budget already at the estimate" check, both with amounts
BUDGET = ROOT / "tests" / "data" / "expert_review" / "full-8b-budget-below-deadline.json"
#: an amount followed by a currency code ("1,505 CNY"), not a code in a header or a rate ("cost (CNY)", "CNY/USD")
CODE_AFTER = re.compile(r"\d (CNY|USD)\b(?!/)")


def test_a_message_writes_its_amounts_with_the_symbol():
    m = Msg("Search", "{n} × {gpu} ({nodes} node(s)): {days:.1f} calendar days, {cost:,.0f} {cur}.",
            {"n": 8, "gpu": "H100", "nodes": 1, "days": 0.7, "cost": 1505.4, "cur": "CNY"})
    assert m.render() == "8 × H100 (1 node): 0.7 calendar days, ¥1,505."
    assert str(MsgStr.make("Search", "Over the budget of {b:,.0f} {cur}.", b=5000, cur="USD")) == \
        "Over the budget of $5,000."
    # a price keeps its template's decimals; an amount that is no number, or no currency code, is left as it is
    price = Msg("Search", "{price:,.2f} {cur} per card-hour → {cpt:,.3f} {cur} per million tokens",
                {"price": 2.5, "cpt": 0.1234, "cur": "USD"})
    assert price.render() == "$2.50 per card-hour → $0.123 per million tokens"
    from gpuplanner.core.messages import money_params

    text, params = money_params("{name}: priced in {cur}", {"name": "a", "cur": "CNY"})
    assert text == "{name}: priced in {cur}" and params == {"name": "a", "cur": "CNY"}
    assert money_params("{c:,.0f} {cur}", {"c": "n/a", "cur": "CNY"})[0] == "{c:,.0f} {cur}"


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_plan_advisor_lines_write_money_with_the_symbol(lang, capsys):
    assert run_cli(["plan", str(EX), "--top", "3", "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert not CODE_AFTER.findall(out), [ln for ln in out.splitlines() if CODE_AFTER.search(ln)][:5]
    days = "of compute), ¥" if lang == "en" else "），¥"  # one message in either unit (ux22)
    assert days in out, out[:3000]


@needs_poppler
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_pdf_advisor_lines_write_money_with_the_symbol(app, tmp_path, lang):
    from gpuplanner.report.render import install_language
    from gpuplanner.report_file import export_pdf

    try:
        pdf = export_pdf(load_report_data(BUDGET), tmp_path / f"{lang}.pdf", lang=lang)
    finally:
        install_language("en")
    text = re.sub(r"\s+", " ", _run("pdftotext", "-raw", str(pdf), "-"))
    assert not CODE_AFTER.findall(text), [text[max(0, m.start() - 80):m.end() + 10]
                                          for m in CODE_AFTER.finditer(text)][:5]
    assert "¥5,000" in text, text[:3000]


def test_every_translation_keeps_its_sources_money_placeholders():
    """A Chinese sentence writes its amounts through the formatter only where it keeps the source's
    "{x:,.0f} {cur}" pairs (``money_params`` reads the translated template): each translation has the same pairs."""
    import xml.etree.ElementTree as ET

    from gpuplanner.core.messages import _MONEY

    ts = ET.parse(ROOT / "gpuplanner" / "resources" / "i18n" / "gpuplanner_zh_CN.ts")
    checked, bad = 0, []
    for m in ts.iter("message"):
        src, tr = m.findtext("source") or "", m.findtext("translation") or ""
        pairs = sorted(x.group(0).replace(" ", "") for x in _MONEY.finditer(src))
        if not pairs or not tr:
            continue
        checked += 1
        if sorted(x.group(0).replace(" ", "") for x in _MONEY.finditer(tr)) != pairs:
            bad.append(src)
    assert checked >= 15 and not bad, (checked, bad)
