"""Issue 35 round 18, advice21: a senior infrastructure engineer's read of ten new requests (projects, serving, vendor
meetings; docs/notes/2026-12-08/issue-35-r18-advice21-requests/). Two lines a reviewer would not sign, each with the
planning guide's rule (planning-guide.md §4, "Whole machine vs card-hours: a job running more than ~40 hours a week
for several weeks favours the whole machine"):

* a serving phase that runs around the clock for 13 weeks (request 04: 500 users on Qwen2.5-32B, 20 × H800) was
  billed by the card-hour with no word of the rule it is the textbook case of;
* a 4-hour burst on 8 × H800 beside 40 h/week of experiments (request 02) read "Weeks 3–3.0241: … above the ~40
  h/week rule: one whole 8-card machine by the month covers both" — a ¥69,000 month for ¥340 of work.

Every figure below is derived by hand from the quotes the plan is billed on (resources/prices.json: AutoDL H800
¥10.50 per card-hour, 云擎天下 omniyq 8 × H800 ¥69,000 per server-month)."""
from __future__ import annotations

from pathlib import Path

from gpuplanner.core.project import evaluate_project
from gpuplanner.io import planfile

DATA = Path(__file__).parent / "data" / "advice21"


def _project(name: str):
    doc, _ = planfile.load(DATA / name)
    return evaluate_project(doc.project, doc.scenario, what_if=False)


def _texts(phase) -> list[str]:
    return [m.render() for m in phase.messages]


def test_a_quarter_of_round_the_clock_serving_states_the_whole_machine_rule():
    """Request 04: 168 h/week for 13 weeks. By hand, the monthly 8-card rent beats card-hours above
    69,000 ÷ (8 × 10.50) × 168/720 = 191.7 h/week, more than the week has: card-hours, and the line says so next to
    the guide's ~40."""
    res = _project("04-internal-chat-500-users-32b-p95-ttft.gpuplan")
    serve = res.phases[0]
    assert serve.device == "h800-sxm-80gb" and serve.rental_mode == "card_hour"
    lines = [m for m in serve.messages if "never beats card-hours" in m.render() and "month" in m.render()]
    assert len(lines) == 1, _texts(serve)
    assert abs(lines[0].params["x"] - 69000 / (8 * 10.5) * 168 / 720) < 0.05
    assert lines[0].params["rule"] == 40
    assert "192 hours of use per week" in lines[0].render()


def test_a_weekend_batch_job_gets_no_whole_machine_line():
    """Request 05: 60 hours (2.5 days) is no case for the rule ("for several weeks"): no whole-machine line."""
    res = _project("05-batch-score-50m-docs-weekend-8b.gpuplan")
    serve = res.phases[0]
    assert serve.weeks < 2.0  # 60 h: 0.36 weeks
    assert not any("whole machine" in t for t in _texts(serve)), _texts(serve)


def test_a_burst_of_hours_beside_the_experiments_is_no_month_of_a_whole_machine():
    """Request 02: each burst (8 × H800, a few hours) overlaps the experiments on the same card type. The overlap is
    hours long, so the line says card-hours, in a span people read, not a month's rent for "Weeks 3–3.0241"."""
    res = _project("02-lab-40h-week-experiments-plus-monthly-burst.gpuplan")
    bursts = [p for p in res.phases if p.name.startswith("burst")]
    assert len(bursts) == 3 and all(b.device == res.phases[0].device for b in bursts)
    assert len(res.overlap_advice) == 3
    for m in res.overlap_advice:
        text = m.render()
        assert "by the month" not in text, text
        assert "too short for the ~40 h/week rule" in text and "card-hours for both" in text, text
        assert "hours" in text and "3.02" not in text, text



def test_a_serving_only_project_prints_its_service_in_the_pdf():
    """Requests 04–07 are projects of one serving phase. ``project`` printed the service; the PDF (``report``)
    printed only the file's placeholder training plan, since the report's project section needed two phases. The
    service's row and its lines (the whole-machine rule above) are now in the report's project section."""
    from gpuplanner.app.answer import answer, report_data

    path = DATA / "04-internal-chat-500-users-32b-p95-ttft.gpuplan"
    a = answer(path)
    assert a.has_project
    data = report_data(path, answer_=a)
    assert data.project is not None
    (row,) = data.project.phases
    assert row.kind == "inference" and row.count == 20 and row.rental_mode == "card_hour"
    assert any("it would need 192 hours of use per week" in m.render() for m in data.project.messages)
