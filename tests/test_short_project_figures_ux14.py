"""ux14 (issue 35 round 10): a job of a few hours read "¥70,000 over 0.0 weeks", "0.0–0.0" weeks, "overruns its
slot of 0.0 weeks by 0.0 weeks", "Over 0.0 months" and "To keep the deadline of 0.2 days" (a 0.16-day slot) on the
Project page and in ``gpuplanner project``. Spans of weeks, months and days now read through
``formatting.format_tenths``: one decimal, and two significant digits below 1, as the rent-or-build sentence's
"For this job alone (0.16 days)" already did."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gpuplanner.cli import run_cli
from gpuplanner.formatting import format_time_number as format_tenths  # one rule since mend10c

EXAMPLE = Path(__file__).resolve().parents[1] / "tests" / "data" / "examples_fixed" / "8b-dpo-full-8xh100-zero3.json"


def test_format_tenths_by_hand():
    assert format_tenths(0) == "0"
    assert format_tenths(0.0229) == "0.02"     # mend10c: two decimals below 1, as a plan's days (was "0.023")
    assert format_tenths(0.16) == "0.16"
    assert format_tenths(0.999) == "1.0"      # mend10c: as 1.0 reads (was "1")
    assert format_tenths(3.0) == "3.0"       # the ux11 what-if test's "slot of 3.0 weeks" is unchanged
    assert format_tenths(21.0) == "21.0"
    assert format_tenths(12.345) == "12.3"
    assert format_tenths(1234.56) == "1,235"  # mend10c: none from 100, as a plan's days (was "1,234.6")
    assert format_tenths(float("inf")) == "—"


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_few_hours_project_has_no_zero_spans(capsys, lang):
    assert run_cli(["project", str(EXAMPLE), "--lang", lang]) == 0
    out = capsys.readouterr().out
    # no span that is not zero reads as zero ("0.0 weeks", "0.0–0.0", "0.0 个月", "within 0.2 days" of 0.16)
    assert not re.search(r"(?<![\d.])0\.0(?![\d])", out), out
    if lang == "en":
        # below a day in hours (formatting.format_elapsed; ux15), was "0.023 weeks" and "0.16 days" (ux14)
        assert "over 3.8 hours" in out
        assert "To keep the deadline of 3.8 hours" in out
        assert "overruns its slot of 3.8 hours" in out
    else:
        assert "共 3.8 小时" in out
        assert "要保住 3.8 小时的截止时间" in out
