"""The memory headroom's sentences show the free share and the margin at one precision (ux11).

Before, the check line showed the free share to 1% beside a margin of 14.4% ("14% of the card free: more than the
memory model's p75 error of 14.4%" for a plan with 14.45% free), and the rank line showed both to 1% ("leaves 14% of
the memory free, less than ... 14%" for a plan with 14.0% free against 14.36%)."""

from __future__ import annotations

import re

from gpuplanner.core import advisor, rules

MARGIN = 0.1436  # validation_bands.json memory_margin.p75 (round 9)
ON = {rid: True for rid in rules.RULE_IDS}


def _headroom_line(free: float, tight: bool) -> str:
    a = {"memory_headroom": {"margin": MARGIN, "free_share": free, "tight": tight}}
    out = rules.advice_rules(None, "gpu", 1, a, ON)
    return next(r.message.render() for r in out if r.id == "memory_headroom")


def _percents(text: str) -> list[float]:
    return [float(x) for x in re.findall(r"(\d+(?:\.\d+)?)%", text)]


def test_a_roomy_plan_just_above_the_margin_reads_above_it():
    line = _headroom_line(0.1445, False)
    free, margin = _percents(line)
    assert margin == 14.4, line
    assert free > margin, line  # before: "14% of the card free: more than ... 14.4%"


def test_a_tight_plan_just_below_the_margin_reads_below_it():
    line = _headroom_line(0.1433, True)
    free, margin = _percents(line)
    assert free < margin == 14.4, line


def test_the_check_line_and_the_rank_line_show_the_same_margin():
    from gpuplanner.core import search

    src = open(search.__file__, encoding="utf-8").read()
    tmpl = re.search(r'"memory_headroom": QT_TRANSLATE_NOOP\(CTX, ("[^)]*)\)', src).group(1)
    assert "{margin:.1%}" in tmpl and "{other_free:.1%}" in tmpl, tmpl  # before: {margin:.0%}, "14%"


def test_shown_free_share_stays_on_the_verdict_side():
    edge = round(MARGIN, 3)
    for k in range(1300, 1600):
        free = k / 10000
        tight = bool(advisor.tight(1.0 - free, 1.0, MARGIN))
        shown = round(advisor.shown_free_share(free, MARGIN, tight), 3)
        assert (shown < edge) if tight else (shown > edge), (free, tight, shown)
        assert abs(shown - free) <= 0.0015, (free, shown)  # never more than a rounding step off
