"""The Plans table's "Days" column and the "Against #2" sentence write a plan's days as every other view does
(issue 35 round 10, ux16). On the 70B CPT example the table read "2.82" and "1.43" beside the details' "2.8 days",
the CLI table's "2.8" and the PDF's "2.8"; the sentence read "it takes 1.39 days longer" (two decimals from a day,
where the plans' days have one: formatting.format_time_number)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuplanner.formatting import format_number, format_time_number

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_days_column_and_against_sentence_follow_the_one_rule(make_window, language, qtbot, lang):
    from gpuplanner.ui.pages.plans_page import COLUMNS

    language.install(lang)
    w = make_window()
    assert w.open_path(ROOT / "examples" / "70b-cpt-64xh100.gpuplan", show_errors=False)
    qtbot.wait(300)
    qtbot.waitUntil(lambda: w.search.state == "done", timeout=120000)
    page = w.page("plans")
    tm = page.table_model
    assert len(tm.plans) >= 2
    col = COLUMNS.index("days")
    rows = tm.plans[:5]
    assert any(p.calendar_days >= 1 for p in rows)
    shown = [tm.data(tm.index(r, col)) for r in range(len(rows))]
    # each plan's headline: "2.8", never "2.82"; with its word where the rows' units differ (ux22)
    from gpuplanner.formatting import format_elapsed, format_plan_span

    heads = [format_plan_span(p.calendar_days, p.plan.evaluation.calendar_days_band, lang)[0] for p in rows]
    unit = tm.span_unit()  # hours as soon as one plan reads in hours (ux22)
    assert shown == [h.split()[0] if h.split()[-1] in ({"hours": ("hours", "小时"), "days": ("days", "天")}[unit])
                     else format_elapsed(p.calendar_days, lang, unit).split()[0] for h, p in zip(heads, rows)], shown
    assert all(format_time_number(p.calendar_days) in h for p, h in zip(rows, heads) if p.calendar_days >= 1)
    a, b = tm.plans[0], tm.plans[1]
    diff = abs(b.calendar_days - a.calendar_days)
    assert diff >= 1 and format_number(diff, 2) != format_time_number(diff)
    head = page.why_head(a, b)
    assert format_time_number(diff) in head and format_number(diff, 2) not in head, head
