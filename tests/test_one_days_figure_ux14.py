"""ux14 (issue 35 round 10): one plan, one answer for its days. tests/data/examples_fixed/8b-dpo-full-8xh100-zero3.json's #1 read, in
one block of ``gpuplanner plan``: "0.27 calendar days", "likely range 0.25–0.29", "… 0.3 calendar days, ¥275" and
"at the upper end of its band (0.3 days)"; #2 read "0.15 calendar days" with "likely range 0.1–0.2". Below a day
the range, the explanation and the safe-deadline rule now carry two decimals (formatting.days_decimals), as the
plan's headline and the Plans table do; from a day upwards nothing changes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gpuplanner.cli import run_cli
from gpuplanner.formatting import days_decimals, format_days_span

EXAMPLE = Path(__file__).resolve().parents[1] / "tests" / "data" / "examples_fixed" / "8b-dpo-full-8xh100-zero3.json"


def test_days_decimals_by_hand():
    assert days_decimals(0.27) == 2 and days_decimals(0.999) == 2
    assert days_decimals(1.0) == 1 and days_decimals(18.84) == 1
    assert format_days_span(0.142, 0.163) == ("0.14", "0.16")  # was "0.1"–"0.2"
    assert format_days_span(16.62, 18.84) == ("16.6", "18.8")  # unchanged from a day upwards


#: a job of under two hours whose range needs three decimals ("0.068–0.073"): the explanation's line read "0.07"
#: beside the headline's "0.073" until it took the headline's own formatter (formatting.format_plan_days)
SHORT = Path(__file__).resolve().parent / "data" / "expert_review" / "grpo-qwen3-30b-a3b-vllm.json"


@pytest.mark.parametrize("path", [EXAMPLE, SHORT], ids=["dpo", "short-grpo"])
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_each_plan_block_says_its_days_one_way(capsys, lang, path):
    assert run_cli(["plan", str(path), "--top", "3", "--lang", lang]) == 0
    out = capsys.readouterr().out
    blocks = re.split(r"\n(?=\d+\. )", out.split("\n\n", 1)[1])
    seen = 0
    for b in blocks:
        # below a day in hours, as the Project page (formatting.format_plan_span; ux21)
        head = re.match(r"\d+\. [^\n]*?(?:日历时间 )?(\d+\.\d+) (?:calendar days|个日历天|hours in calendar time|小时)", b)
        if head is None:
            continue
        days = head.group(1)
        seen += 1
        # the range's two ends and the rule's far end, at the headline's decimals
        rng = re.search(r"(?:likely range|可能区间) (\d+\.\d+)–(\d+\.\d+)", b)
        assert rng and len(rng.group(2).split(".")[1]) == len(days.split(".")[1]), b
        assert float(rng.group(1)) <= float(days) <= float(rng.group(2)), b
        far = re.search(r"(?:upper end of its band \(|按区间上限（)(\d+\.\d+)", b)
        assert far and far.group(1) == rng.group(2), b
        # the explanation's own line repeats the headline's figure
        assert re.search(rf"(?:GiB per GPU used, |GiB per GPU, |日历 |日历时间 ){re.escape(days)}(?: calendar days| 天| hours in calendar time| 小时)", b), b
    assert seen == 3


def test_why_this_plan_says_days_as_the_table(capsys):
    """"Why this plan" read "¥275 against ¥367 (0.3 against 0.7 days)" beside table rows of 0.27 and 0.65 days."""
    import json

    assert run_cli(["plan", str(EXAMPLE), "--top", "1", "--json"]) == 0
    text = capsys.readouterr().out
    # since ux22 (round 14) each span reads in its own unit, hours below a day, as the plan's headline does
    said = re.findall(r"\((\d+\.\d+) (hours|days) against (\d+\.\d+) (hours|days)\)", text)
    assert said, text[:2000]
    for a, ua, b, ub in said:
        for v, u in ((a, ua), (b, ub)):
            if u == "days":
                assert float(v) >= 1 or len(v.split(".")[1]) >= 2, (v, u)
    data = json.loads(text)
    # the first figure is the headline of plan #1, word for word
    assert f"{said[0][0]} {said[0][1]} in calendar time" in text, said[0]
    assert data
