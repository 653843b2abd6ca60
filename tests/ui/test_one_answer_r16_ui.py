"""One plan, one answer in the app (issue 35 r16 parity16): the Training page's "Per optimizer step: N sequences =
T tokens" line reads T from the live estimate's Evaluation (``time.tokens_per_step``), the figure ``estimate --json``
prints. Before parity16 the page multiplied the global batch by the sequence length itself: twice too few tokens for a
DPO pair (chosen and rejected both run) and four times too many for an unpacked batch of 1,000-token samples in
4,096-token rows (the time model counts the data's own tokens)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpuplanner.cli import run_cli
from gpuplanner.formatting import format_tokens

BASE = {"model": {"preset": "qwen2.5-7b"}, "data": {"tokens": "100M"},
        "training": {"method": "lora", "seq_len": 2048, "micro_batch_size": 1, "global_batch_size": 64,
                     "recompute": "full"},
        "parallel": {"zero": 2},
        "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8, "gpus_per_node": 8}}

CASES = {
    # DPO: each example runs a chosen and a rejected sequence (estimate: 2 × 64 × 2,048 tokens a step)
    "dpo-pairs": {**BASE, "training": {**BASE["training"], "objective": "dpo"}},
    # unpacked 1,000-token samples padded to 4,096-token rows (estimate: 64 × 1,000 tokens a step)
    "padded-rows": {**BASE, "data": {**BASE["data"], "mean_sample_len": 1000},
                    "training": {**BASE["training"], "seq_len": 4096, "micro_batch_size": 4}},
}


def _estimate(d: dict, tmp_path: Path, capsys) -> dict:
    f = tmp_path / "doc.json"
    f.write_text(json.dumps(d), encoding="utf-8")
    assert run_cli(["estimate", str(f), "--json"]) == 0
    return json.loads(capsys.readouterr().out), f


@pytest.mark.parametrize("case", list(CASES))
def test_training_page_tokens_per_step_are_the_estimates(case, make_window, qtbot, tmp_path, capsys):
    d = CASES[case]
    est, doc = _estimate(d, tmp_path, capsys)
    rows = d["training"]["global_batch_size"] * d["training"]["seq_len"]
    assert est["tokens_per_step"] != pytest.approx(rows, rel=0.01)  # the case is one where the product is wrong
    w = make_window()
    assert w.open_path(doc, show_errors=False)
    qtbot.waitUntil(lambda: getattr(w.estimator.result, "evaluation", None) is not None
                    and w.estimator.result.evaluation.scenario == w.model.scenario, timeout=20000)
    page = w.page("training")
    want = f"= {format_tokens(est['tokens_per_step'], digits=3)} tokens"
    qtbot.waitUntil(lambda: want in page.batch_info.text(), timeout=5000)
    assert f"= {format_tokens(rows, digits=3)} tokens" not in page.batch_info.text()
    assert page.batch_info.text().startswith("Per optimizer step: 64 sequences")


# ------------------------------------------------------------------ the scaling chart's ideal line (days)

SCALE = {"model": {"preset": "qwen2.5-7b"}, "data": {"tokens": "300M"},
         "training": {"method": "full", "seq_len": 2048, "micro_batch_size": 1, "global_batch_size": 64,
                      "recompute": "full"},
         "parallel": {"zero": 3},
         "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8, "gpus_per_node": 8},
         "constraints": {"max_gpus": 32}}


def test_ideal_days_line_is_the_cores_in_the_app_and_the_pdf(qtbot, tmp_path, monkeypatch):
    """The ideal linear line in days is ``Scaling.ideal_calendar_days`` (the core's), drawn point for point by the
    app's scaling chart and the PDF's: before parity16 each view scaled the smallest count's days itself."""
    import math

    from gpuplanner.app.answer import answer
    from gpuplanner.core import series
    from gpuplanner.report import charts, render
    from gpuplanner.report.content import build_report_data
    from gpuplanner.ui.charts import ScalingChart

    doc = tmp_path / "scale.json"
    doc.write_text(json.dumps(SCALE), encoding="utf-8")
    a = answer(doc)
    sweep = a.scaling
    want = series.ideal_days(sweep)
    assert len(want) >= 3
    # the core's line, by hand: the fewest days at the smallest count that runs, × n0 / n
    n0 = want[0][0]
    d0 = min(d for sr in sweep.series for n, d in zip(sr.gpus, sr.calendar_days) if n == n0 and math.isfinite(d))
    assert [d for _, d in want] == pytest.approx([d0 * n0 / n for n, _ in want], rel=1e-12)
    c = ScalingChart()
    qtbot.addWidget(c)
    c.mode.setCurrentIndex(c.mode.findData("days"))
    c.update_from(sweep)
    x, y = c.ideal.getData()
    assert list(zip((int(v) for v in x), (float(v) for v in y))) == want
    data = build_report_data(a)
    counts = {n for n, _ in data.scaling}
    assert data.scaling_ideal == [(n, d) for n, d in want if n in counts] and len(data.scaling_ideal) >= 2
    drawn = []
    real = charts.Chart.polyline
    monkeypatch.setattr(charts.Chart, "polyline", lambda self, pts, pen: (drawn.append(list(pts)),
                                                                         real(self, pts, pen))[1])
    render.ensure_app()
    unit, per = render.chart_time_unit(data)
    assert render.draw_scaling_chart(data) is not None
    assert [(float(n), d / per) for n, d in data.scaling_ideal] in drawn


def test_training_page_step_tokens_of_the_adopted_plan(make_window, qtbot, tmp_path):
    """With the automatic layout the line reads the adopted plan's split and the tokens its live Evaluation trains
    (the estimate of the window's plan, which the search's #1 became), updated when that estimate arrives."""
    d = json.loads(json.dumps(BASE))
    d["parallel"]["auto"] = True
    d["constraints"] = {"max_gpus": 8, "gpu_candidates": ["h100-sxm-80gb"]}
    doc = tmp_path / "auto.json"
    doc.write_text(json.dumps(d), encoding="utf-8")
    w = make_window()
    assert w.open_path(doc, show_errors=False)
    qtbot.waitUntil(lambda: w.search.state in ("done", "failed"), timeout=120000)
    qtbot.waitUntil(lambda: w.model.plan_adopted and getattr(w.estimator.result, "evaluation", None) is not None
                    and w.estimator.result.evaluation.scenario == w.model.scenario, timeout=20000)
    ev = w.estimator.result.evaluation
    page = w.page("training")
    L = ev.layout
    want = (f"= {format_tokens(ev.time.tokens_per_step, digits=3)} tokens (micro-batch {L.micro_batch_size} × "
            f"data-parallel {L.dp} × accumulation {L.grad_accum})")
    qtbot.waitUntil(lambda: want in page.batch_info.text(), timeout=5000)


# ------------------------------------------------------------------ the FSDP2 upcast row: the core's one rule

def test_fsdp2_upcast_row_reads_the_core_rule(make_window, monkeypatch):
    """The Training page shows the FSDP2 fp32-upcast row where ``frameworks.fsdp2_upcast_allowed`` says the
    scenario may set it (the rule the scenario's check reads); with the rule patched the row follows. Before
    parity16 the page added ``method == "lora"`` to ``fsdp2_upcast_applies`` itself, so a change of the rule in the
    core would not have reached it."""
    from gpuplanner.core import frameworks

    win = make_window(search_enabled=False)
    win.go_to(1)
    adv = win.page("training").advanced
    f = adv.fields["fsdp2_fp32_upcast"]
    for path, value in (("model.preset", "qwen2.5-7b"), ("parallel.auto", False), ("training.method", "qlora"),
                        ("training.framework", "fsdp"), ("training.fsdp_version", 2), ("parallel.zero", 3),
                        ("parallel.tp", 1), ("parallel.pp", 1), ("hardware.gpu", "a100-sxm-80gb"),
                        ("hardware.num_gpus", 2)):
        win.model.set(path, value)
    assert not adv.box.layout().isRowVisible(f.box)  # QLoRA: the core refuses the switch
    monkeypatch.setattr(frameworks, "fsdp2_upcast_allowed", lambda *a: True)
    win.model.set("training.seq_len", 1024)  # any edit: the rows are worked out again
    assert adv.box.layout().isRowVisible(f.box)
