"""Defects seen in round 16 and left (issue 35 r16 ux24's "Noticed but left alone", parity16's "Seen, not fixed"),
mended by ux25:

1. a 7.9-hour job's rent-or-build line set ¥667 of rent against ¥2,000,599 of servers "for it": a single job shorter
   than four weeks is no build decision (planning guide, "Rent vs build": building is for long steady work) — the
   line says so, with the rent and the servers' price read from the Answer's ``BuildResult``;
2. the PDF compared an alternative with the chosen plan in days ("1.8 days … against 0.33 days") under a plan every
   view gives in hours: one unit per comparison, the chosen plan's own (``formatting.comparison_unit``);
3. a typed 14-day deadline read "14.0 days": a whole number without decimals (``formatting.format_typed_days``);
4. under an overlapped RL schedule the time-share row "rollout generation (RL)" is what the training does not hide:
   the CLI's and the PDF's rows say so from one table (``TimeEstimate.breakdown_labels``), and
   ``TimeEstimate.rollout_shares`` is the whole rollout share the live panel states.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpuplanner.cli import run_cli

ROOT = Path(__file__).resolve().parents[1]


def _default_doc(tmp_path: Path) -> Path:
    """The app's default document (what a new user sees first: Llama 3.1 8B, a 7.9-hour plan, a 14-day deadline)."""
    from gpuplanner.core.scenario import Scenario

    from gpuplanner.ui.model import default_scenario

    s = default_scenario()
    assert isinstance(s, Scenario)
    doc = tmp_path / "default.json"
    doc.write_text(s.model_dump_json(), encoding="utf-8")
    return doc


def _grpo(schedule: str) -> dict:
    rl = {"group_size": 8, "rollout_len": 2048, "prompt_len": 512, "mean_response_fraction": 0.25,
          "generation_engine": "vllm_separate", "generation_gpu_fraction": 0.5, "rollout_tp": 1,
          "schedule": schedule, "reward": "function"}
    if schedule == "async":
        rl.update(steps_in_flight=4, regeneration_share=0.2)
    return {"model": {"preset": "qwen2.5-1.5b"},
            "training": {"framework": "deepspeed", "objective": "grpo", "method": "full", "seq_len": 2560,
                         "micro_batch_size": 1, "global_batch_size": 64, "recompute": "full",
                         "flash_attention": True, "packing": True, "preference": {"reference": "none"}, "rl": rl},
            "parallel": {"zero": 2}, "data": {"tokens": 2e7},
            "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8, "gpus_per_node": 8}}


def _cli(args: list[str], capsys) -> str:
    assert run_cli(args) == 0
    return capsys.readouterr().out


def _evaluation(doc: Path):
    from gpuplanner.app.answer import answer

    return answer(doc).evaluation


# ------------------------------------------------------------------------------------- 1. rent or build

@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_short_job_is_no_build_decision(lang, tmp_path, capsys):
    """The default document's 7.9-hour job: the line no longer says buying the server "for it" costs ¥2,000,599;
    it says the job is no reason to buy, with the rent and the servers' price the Answer's BuildResult holds."""
    from gpuplanner.formatting import format_money

    doc = _default_doc(tmp_path)
    rb = _evaluation(doc).rent_vs_build
    assert rb is not None and rb.single_job and rb.verdict == "rent"
    out = _cli(["estimate", str(doc), "--lang", lang], capsys)
    lines = out.splitlines()
    line = lines[next(i for i, ln in enumerate(lines) if ln.strip() in ("Rent or build", "租用还是自建")) + 1]
    price = format_money(rb.inputs.machine_price * rb.inputs.machines, rb.currency, decimals=0)
    assert format_money(rb.rent_total, rb.currency, decimals=0) in line, line
    assert f"{price}" in line and format_money(rb.build_total, rb.currency, decimals=0) not in line, line
    if lang == "en":
        assert "is no reason to buy one 8-GPU server" in line and "for it costs" not in line, line
    else:
        assert "不足以成为购买" in line and "为它购买并运行" not in line and "Rent" not in line, line


def test_a_job_of_weeks_or_a_period_keeps_the_comparison(tmp_path):
    """Four weeks or more, or a stated period, is a build question: the sentence compares the two totals as before;
    just under four weeks it is the short job's line."""
    from gpuplanner.core.cost import HOURS_PER_MONTH, rent_vs_build

    rb = _evaluation(_default_doc(tmp_path)).rent_vs_build
    kw = dict(rent_total=rb.rent_total, busy_hours=rb.busy_hours)
    month_of = 28 * 24 / HOURS_PER_MONTH
    assert "no reason to buy" in rent_vs_build(rb.inputs, horizon_months=month_of * 0.99, **kw).sentence.render()
    long_job = rent_vs_build(rb.inputs, horizon_months=month_of, **kw).sentence.render()
    assert long_job.startswith("For this job alone (28.0 days) renting costs ¥667; buying and running"), long_job
    period = rent_vs_build(rb.inputs, horizon_months=0.5, single_job=False, jobs=3, **kw).sentence.render()
    assert period.startswith("Over ") and "(3 jobs like this) renting costs" in period, period


# ------------------------------------------------------------------- 2. + 3. the PDF's units and the deadline

@pytest.fixture(scope="module")
def default_report(tmp_path_factory):
    from gpuplanner.app.answer import answer
    from gpuplanner.report.content import build_report_data

    return build_report_data(answer(_default_doc(tmp_path_factory.mktemp("ux25"))))


def test_the_comparison_reads_in_the_chosen_plans_unit(default_report):
    """Each alternative's sentence compares in the chosen plan's headline unit: hours under a 7.9-hour plan (an
    alternative of 1.8 days reads "43.5 hours", the chosen plan "7.9 hours", not "0.33 days")."""
    from gpuplanner.formatting import comparison_unit, format_plan_span
    from gpuplanner.report.render import tr_text

    plan = default_report.plan
    assert comparison_unit(plan.calendar_days, plan.calendar_days_band) == "hours"
    head = format_plan_span(plan.calendar_days, plan.calendar_days_band)[0]  # the headline: "7.9 hours"
    texts = [tr_text(a.why_lost[0]) for a in default_report.alternatives if a.why_lost]
    assert texts
    for text in texts:
        assert f"against {head} for" in text and " days" not in text, text


def test_comparison_unit_by_hand():
    from gpuplanner.formatting import comparison_unit

    assert comparison_unit(0.33) == "hours" and comparison_unit(3.8) == "days"
    assert comparison_unit(0.95, (0.9, 1.05)) == "days"  # the headline's own unit, its range included


def test_a_typed_deadline_reads_as_typed(default_report):
    from gpuplanner.core.messages import deadline_msgs
    from gpuplanner.formatting import format_typed_days
    from gpuplanner.report.render import _html_task

    assert [format_typed_days(d) for d in (14.0, 7.5, 0.5, 120.0)] == ["14", "7.5", "0.50", "120"]
    assert format_typed_days(None) == "—"
    assert deadline_msgs(d=14.0)["d"].render() == "14 days"
    assert deadline_msgs(d=1.0)["d"].render() == "1 day"
    # beside a plan's days too: ux20's rule (written together, never alike) for the plan, the deadline as typed
    both = deadline_msgs(days=7.04, deadline_days=7.0)
    assert (both["days"].render(), both["deadline_days"].render()) == ("7.04 days", "7 days")
    both = deadline_msgs(days=7.001, deadline_days=7.0)
    assert (both["days"].render(), both["deadline_days"].render()) == ("7.001 days", "7 days")
    assert default_report.task.deadline_days == 14
    html = _html_task(default_report)
    assert "14 days" in html and "14.0 days" not in html


# ---------------------------------------------------------------------- 4. the rollouts under each schedule

@pytest.mark.parametrize("lang, exposed, plain", [("en", "rollout generation the training does not hide (RL)",
                                                   "rollout generation (RL)"),
                                                  ("zh_CN", "训练未能掩盖的采样生成（强化学习）", "采样生成（强化学习）")])
def test_the_rollout_row_says_what_the_schedule_leaves_in_the_step(lang, exposed, plain, tmp_path, capsys):
    for schedule in ("async", "on_policy"):
        doc = tmp_path / f"{schedule}.json"
        doc.write_text(json.dumps(_grpo(schedule)), encoding="utf-8")
        out = _cli(["estimate", str(doc), "--lang", lang], capsys)
        share = next(ln for ln in out.splitlines() if ln.strip().startswith(("time share", "时间占比")))
        if schedule == "async":
            assert exposed in share, share
        else:
            assert plain in share and exposed not in share, share


def test_rollout_shares_are_the_whole_rollout_phase(tmp_path):
    """``rollout_shares``: the whole is ``seconds["generation"]`` over the step (the remainder and the parts carved
    out of it), and its parts are the breakdown's rows — 26% for the async case where the remainder row says 16%."""
    doc = tmp_path / "async.json"
    doc.write_text(json.dumps(_grpo("async")), encoding="utf-8")
    te = _evaluation(doc).time
    whole, parts = te.rollout_shares
    assert whole == pytest.approx(te.seconds["generation"] / te.step_time_s, rel=1e-9)
    assert sum(parts.values()) == pytest.approx(whole, rel=1e-9)
    assert set(parts) >= {"generation", "rollout_wait_longest", "weight_refit"}
    assert all(parts[k] == pytest.approx(te.breakdown[k]) for k in parts)
    assert whole > parts["generation"] + 0.05  # the carved parts are not small here
    assert te.rollout_schedule == "async"
    assert te.breakdown_labels["generation"] == "rollout generation the training does not hide (RL)"


def test_the_pdf_row_is_the_clis(tmp_path):
    from gpuplanner.app.answer import answer
    from gpuplanner.report.content import build_report_data
    from gpuplanner.report.render import _html_plan

    doc = tmp_path / "async.json"
    doc.write_text(json.dumps(_grpo("async")), encoding="utf-8")
    html = _html_plan(build_report_data(answer(doc)))
    assert "rollout generation the training does not hide (RL)" in html
    assert "rollout generation (RL)" not in html


def test_every_rollout_part_has_the_panels_short_name():
    from gpuplanner.core.timing import PART_LABELS, PART_PARENT, ROLLOUT_PART_SHORT

    carved = {k for k, parent in PART_PARENT.items() if parent == "generation"}
    assert set(ROLLOUT_PART_SHORT) == carved and carved <= set(PART_LABELS)
