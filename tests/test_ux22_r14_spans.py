"""Round 14 (helper ux22): the round-13 closing note's product leftovers, each decided in one place.

1. A plan that does not fit in GPU memory read "✓ safe deadline and budget: passed — Meets the deadline and budget
   at the upper end of its band (4.4 days)" (the PDF's rules table, ``estimate --json``'s rules) while its memory
   rule said "Does not fit": ``rules._deadline_rule`` now says it does not apply, and why.
2. The Project page and ``gpuplanner project`` wrote spans in weeks from two weeks ("over 10.0 weeks") while a plan's
   headline never does ("70.0 calendar days"): ``formatting.elapsed_unit`` — the one place a span's unit is
   decided — reads hours below a day, days from one day, for every span.
3. A plan just under a day whose likely range ends over a day read "22.8 hours" with "21.6–25.2 hours" while its
   deadline rule said "(1.05 days)": ``formatting.plan_span_unit`` picks the unit from the whole range.
4. The plan tables' "cal. days" column read "0.83" beside a headline of "19.9 hours": the column (``plan``, the
   Plans page, the PDF's alternatives) now writes each plan's headline, word and all.
5. Each view held one template in hours and one in days: one message each, the unit in its parameters
   (``formatting.format_plan_time``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gpuplanner.cli import run_cli
from gpuplanner.formatting import format_elapsed, format_plan_span, plan_span_unit
from tests.test_report import _run, needs_poppler

ROOT = Path(__file__).resolve().parents[1]
#: a new user's first scenario file with its own layout: 1 GPU, 141.6 GiB on an 80 GiB card, deadline 7 days (ux20)
NOFIT = ROOT / "tests" / "data" / "ux20" / "first-task-as-given.json"
#: LoRA of a 7B model on consumer cards: plans of 6.4 hours to 1.3 days in one table
LORA = ROOT / "examples" / "7b-lora-1x4090.json"
PROJECT = ROOT / "examples" / "shenzhen-7b-domain-project.gpuplan"


@pytest.fixture(autouse=True)
def _english_after():
    yield
    import sys

    if "PySide6.QtCore" in sys.modules:
        from gpuplanner.report.render import install_language

        install_language("en")


def _json(capsys, *args):
    assert run_cli([*args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


# ------------------------------------------------------------------------------ 1. no rule passed for a plan that cannot run

def test_a_plan_that_does_not_fit_does_not_pass_the_deadline_rule(capsys):
    ev = _json(capsys, "estimate", str(NOFIT))
    rules = {r["id"]: r for r in ev["rules"]}
    assert rules["memory_headroom"]["status"] == "failed", rules["memory_headroom"]
    dl = rules["deadline_risk"]
    assert dl["status"] == "not_applicable" and dl["passed"] is None, dl
    assert "does not fit" in dl["message"] and "Meets the deadline" not in dl["message"], dl
    assert ev["deadline_risk"] is None  # the Plans details' "At risk" line reads it


def test_no_rule_about_running_it_passes_for_a_plan_that_does_not_fit(capsys):
    """Every view reads ``Evaluation.rules``: none of the rules about running the plan (its MFU, deadline and budget,
    price) passes for a layout that cannot run; the layout's own rules keep their verdicts (what to change)."""
    from gpuplanner.core.rules import RUN_RULES

    ev = _json(capsys, "estimate", str(NOFIT))
    rules = {r["id"]: r for r in ev["rules"]}
    for rid in RUN_RULES:
        assert rules[rid]["status"] == "not_applicable", rules[rid]
    assert rules["memory_headroom"]["status"] == "failed"
    fits = _json(capsys, "estimate", str(LORA))
    assert any(r["status"] == "passed" and r["id"] in RUN_RULES for r in fits["rules"])  # a plan that fits: judged


@needs_poppler
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_pdf_passes_no_deadline_rule_for_a_plan_that_does_not_fit(capsys, tmp_path, lang):
    from gpuplanner.report.render import install_language, translate

    pdf = tmp_path / f"{lang}.pdf"
    assert run_cli(["report", str(NOFIT), "-o", str(pdf), "--lang", lang]) == 0
    capsys.readouterr()
    flat = re.sub(r"\s+", "", _run("pdftotext", "-raw", str(pdf), "-"))
    install_language(lang)
    meets = translate("Rules", "Meets the deadline and budget at the upper end of its band ({span}).")
    not_checked = translate("Rules", "Not checked: this layout does not fit in GPU memory, so it cannot run.")
    install_language("en")
    assert re.sub(r"\s+", "", not_checked) in flat, flat[:3000]
    assert re.sub(r"\s+", "", meets.split("{")[0]) not in flat


# ------------------------------------------------------------------------------ 2. one unit rule, never weeks

def test_a_span_is_never_in_weeks():
    assert format_elapsed(21.0, "en") == "21.0 days" == format_plan_span(21.0, None, "en")[0]
    assert format_elapsed(70.0, "zh_CN") == "70.0 天"
    assert format_elapsed(0.66, "en") == "15.8 hours"
    for d in (0.01, 0.5, 0.99, 1.0, 13.9, 14.0, 30.0, 400.0):
        assert format_elapsed(d, "en") == format_plan_span(d, None, "en")[0], d


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_project_total_reads_as_a_plans_span(capsys, lang):
    """``gpuplanner project``: the total read "over 10.0 weeks" for a project of 70 days."""
    data = _json(capsys, "project", str(PROJECT))
    days = 7 * float(data["total_weeks"])
    assert days >= 14
    assert run_cli(["project", str(PROJECT), "--lang", lang]) == 0
    text = capsys.readouterr().out
    assert format_plan_span(days, None, lang)[0] in text, text[-2000:]
    assert not re.search(r"\d (weeks|周)\b", text.replace("周小时", "")), re.findall(r".{30}\d (?:weeks|周).{10}", text)


# ------------------------------------------------------------------------------ 3. one unit from the whole range

def test_a_range_that_ends_over_a_day_reads_in_days_with_its_headline_and_rule():
    from gpuplanner.core.rules import advice_rules
    from gpuplanner.formatting import format_plan_time

    band = (0.90, 1.05)
    head, rng = format_plan_span(0.95, band, "en")
    assert plan_span_unit(0.95, band) == "days"
    # days at the range's precision (formatting.format_days_band; mend10c): "0.9 days", "0.9–1.1 days" — was
    # "22.8 hours" and "21.6–25.2 hours" beside a rule line in days
    assert (head, rng) == ("0.9 days", "0.9–1.1 days"), (head, rng)
    assert format_plan_time(0.95, 0.9, band, "zh_CN") == ("0.9 天", "0.90 天", "0.9–1.1 天")
    on = {k: True for k in ("mfu_ceiling", "deadline_risk", "memory_headroom", "tp_over_pcie", "price_fabric",
                            "price_kind")}
    a = {"deadline_risk": False, "days_lo": band[0], "days_hi": band[1], "fits": True,
         "point_miss": {"deadline": False, "budget": False, "days": 0.95, "deadline_days": 2.0, "cost": 1.0,
                        "budget_cap": 0.0, "cur": "CNY"}}
    r = next(r for r in advice_rules(0.4, "h100", 1, a, on) if r.id == "deadline_risk")
    line = r.message.render()
    assert f"({rng.split('–')[1]})" in line, (line, rng)  # the rule's upper end is the range's
    # wholly below a day: hours, as before (ux21)
    assert format_plan_span(0.79, (0.70, 0.79), "en") == ("19.0 hours", "16.8–19.0 hours")


# ------------------------------------------------------------------------------ 4. the tables write the headline

@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_plan_table_writes_each_plans_headline(capsys, lang):
    # the first ten: since round 15's price tie (search.CHEAPEST_TIE) the first five are all in hours
    plans = _json(capsys, "plan", str(LORA), "--top", "10")["plans"]
    heads = [format_plan_span(p["calendar_days"], tuple(p["calendar_days_band"]) if p.get("calendar_days_band")
                              else None, lang)[0] for p in plans]
    assert {h.split()[-1] for h in heads} >= ({"hours", "days"} if lang == "en" else {"小时", "天"}), heads
    assert run_cli(["plan", str(LORA), "--lang", lang, "--top", "10"]) == 0
    lines = capsys.readouterr().out.splitlines()
    table = [ln for ln in lines if re.match(r"\d+ {2}", ln)]
    blocks = [ln for ln in lines if re.match(r"\d+\. ", ln)]
    assert len(table) == len(blocks) == len(plans)
    for head, row, block in zip(heads, table, blocks):
        assert f"  {head}  " in row, (head, row)   # the table's cell ...
        assert re.search(r"[:：]\s*(日历时间 )?" + re.escape(head), block), (head, block)  # ... is the headline
    assert "cal. days" not in "\n".join(lines)


# ------------------------------------------------------------------------------ 5. one message per view

#: the days-only twins of the "in calendar time" messages (each view held both)
OLD_TWINS = ("{0} calendar days ({1} days of compute)", "{days} calendar days ({compute} of compute)",
             "Likely range: {0}–{1} calendar days", "{lo}–{hi} calendar days", "{days} days around the clock",
             "{days} days with setup", "{c} calendar days with setup", "Training takes about {d} calendar days",
             "Likely range: {lo}–{hi} calendar days", "it finishes {0} days sooner", "it takes {0} days longer",
             "{days} days for {cost}, against {cdays} days", "GiB per GPU used, {days} calendar days",
             "MFU {mfu:.0%}), {days} days,", "{n} × {gpu}: {days} days, {cost}",
             "at the upper end of its band ({days} days)")


def test_no_view_holds_a_days_twin_of_a_span_message():
    found = []
    for path in (ROOT / "gpuplanner").rglob("*.py"):
        text = re.sub(r'"\s*\n\s*"', "", path.read_text(encoding="utf-8"))  # implicit concatenation, joined
        found += [(path.name, t) for t in OLD_TWINS if t in text]
        if re.search(r'plan_span_unit\([^)]*\)\s*==\s*"hours"', text):
            found.append((path.name, 'plan_span_unit(...) == "hours"'))
    assert not found, found


# ------------------------------------------------------------------------------ first hour: no price for what cannot run

def test_no_star_and_no_price_for_a_layout_that_does_not_fit(capsys):
    """The live panel's cost chart starred the non-fitting layout at ¥70,000 and ``estimate`` printed "Cost
    ¥70,000" and "Rent or build" for it, while the PDF said "No price" (ux21): the one star rule
    (app.answer.chart_star) and ``estimate`` now price nothing that cannot run."""
    from gpuplanner.app.answer import chart_star
    from gpuplanner.core.evaluate import evaluate
    from gpuplanner.io.scenario_files import load_scenario

    s, _ = load_scenario(NOFIT)
    ev = evaluate(s)
    assert not ev.fits and ev.cost is not None  # priced by the core, as every figure (JSON unchanged)
    assert chart_star(s, [], None, ev) == (None, None)
    assert run_cli(["estimate", str(NOFIT)]) == 0
    text = capsys.readouterr().out
    assert "No price: this layout does not fit in GPU memory" in text and "70,000" not in text, text
    assert "Rent or build" not in text


def test_the_does_not_fit_warning_writes_the_memory_figure_every_view_shows(capsys):
    """The warning read "143.6 GiB per GPU (with 2.0 GiB headroom) on a 80 GiB card" above a headline and a memory
    table of "141.6 GiB … of 80.0 GiB": it now writes the same total and the card at one decimal."""
    ev = _json(capsys, "estimate", str(NOFIT))
    total = ev["memory_per_gpu_gib"]["total"]
    assert run_cli(["estimate", str(NOFIT)]) == 0
    text = capsys.readouterr().out
    warn = next(ln for ln in text.splitlines() if ln.startswith("! Does not fit"))
    assert f"{total:.1f} GiB per GPU on a card of 80.0 GiB" in warn, warn


def test_why_this_plan_writes_its_span_as_the_headline_and_the_table(capsys):
    """The Plans details' "Why this plan" read "¥58 against ¥62 (0.83 against 1.3 days)" under a headline of "19.9
    hours" ("{days:g}" by hand): the spans through the formatter, in hours as soon as one of the two reads in hours
    (the Plans table's column rule)."""
    p = _json(capsys, "plan", str(LORA))["plans"][0]
    head = format_plan_span(p["calendar_days"], tuple(p["calendar_days_band"]), "en")[0]
    assert head.endswith("hours")
    lines = [d["message"] if isinstance(d, dict) else d for d in p["decision"]]
    # every line that compares two spans writes the headline first, through the formatter (since round 15's price
    # tie #1 here is 8 × RTX 4090, and the MFU-ceiling line about the 5090 compares costs only)
    spans = [ln for ln in lines if re.search(r"\([\d.]+ (hours|days) against ", ln)]
    assert spans and all(f"({head} against " in ln for ln in spans), (head, lines)
    assert not any(re.search(r"\d against [\d.]+ days", ln) for ln in lines), lines


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_phase_that_overruns_its_slot_says_so_in_days(capsys, lang):
    """mend17a (issue 35 r17): advice19 times the Shenzhen example's full fine-tuning at the borrowed 46% HFU, so the
    work (22.5876 calendar days: 4 × A800, 2,160.88 card-hours) no longer fits its slot of 3 weeks = 21.0 days. The
    phase says so in days, as the table's "days" column (21.0–42.0) and the what-if's "overruns its slot of 21.0 days"
    do — it read "3.2 weeks … 3 weeks planned", a second unit beside the table (the test above)."""
    assert run_cli(["project", str(PROJECT), "--lang", lang]) == 0
    text = capsys.readouterr().out
    want = {"en": "the work takes 22.6 days at 168 h/week, longer than the 21.0 days planned.",
            "zh_CN": "按每周 168 小时需要 22.6 天，超过计划的 21.0 天。"}[lang]
    assert want in text, text[:3000]
