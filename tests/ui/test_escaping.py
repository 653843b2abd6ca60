"""Names from strangers' files (a custom GPU, a model name) are text wherever they meet rich text: the live panel,
the Plans page's comparison and the report's HTML never turn them into markup (an ``<img src="file://…">`` in a
shared plan must not pull a local file into the window or a report sent to a vendor)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from gpuplanner.core.scenario import scenario_from_dict

HOSTILE = 'GPU<img src="file:///etc/hostname" width="300"><b>x</b>'
PROBE = '<img src="file:///etc/hostname"'


def _scenario():
    return scenario_from_dict({
        "model": {"preset": "llama-3-8b", "name": "Llama <i>8B</i>"},
        "training": {"method": "lora", "framework": "hf"},
        "hardware": {"gpu": "custom-evil", "num_gpus": 1, "custom_gpus": [
            {"id": "custom-evil", "name": HOSTILE, "memory_gib": 80, "bf16_tflops": 500}]},
        "data": {"tokens": "100M"},
        "constraints": {"max_gpus": 2, "gpu_candidates": ["custom-evil"],
                        "prices": {"custom-evil": {"card_hour": 10.0}}},
    })


def test_live_panel_shows_hostile_names_as_text(win, qtbot):
    win.model.load(_scenario())
    win.estimator.run_now()
    ev = win.estimator.result.evaluation
    assert ev is not None and ev.gpu_name == HOSTILE
    for label in (win.live.model_value, win.live.time_value, win.live.mem_value, win.live.plan_value):
        assert label.textFormat() == Qt.TextFormat.PlainText
    assert HOSTILE in win.live.plan_value.text() and "Llama <i>8B</i>" in win.live.model_value.text()


def test_plans_page_comparison_escapes_names(win, qtbot):
    from gpuplanner.app import engine

    win.model.load(_scenario())
    out = engine.search_plans(_scenario(), top=5)
    assert len(out.plans) >= 2
    win.go_to(5)
    page = win.page("plans")
    page.table_model.set_plans(out.plans)
    text = page.why_text(out.plans[0], out.plans[1])
    assert PROBE not in text and "&lt;img" in text
    page.show_details(out.plans[0])
    assert PROBE not in page.details.toHtml()


def test_report_html_escapes_names(tmp_path):
    from gpuplanner.app.answer import answer, document_from_scenario
    from gpuplanner.report.content import build_report_data
    from gpuplanner.report.render import build_html, ensure_app

    ensure_app()
    data = build_report_data(answer(document_from_scenario(_scenario())))
    html = build_html(data, {})
    assert PROBE not in html and "<i>8B</i>" not in html
    assert "&lt;img" in html
