"""One plan, one answer in the app on round 12's paths (issue 35 r12 parity12).

- An ms-swift LoRA file that leaves ``training.lora_dropout`` out (swiftlora12: the tool's own 0.05 applies) opened
  in the window: the live panel's Evaluation has the CLI's step time (``estimate --json``), the panel shows the CLI's
  calendar days, and the Plans page's rows equal ``plan --json``'s; the Advanced field shows 0.05.
- The serving phase's first token (vllm12's 2 ms API tokenizer window; fp8serve12's attention at the KV cache's
  precision): the Project page's sentence is the one ``gpuplanner project`` prints.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from gpuplanner.core.frameworks import lora_dropout_of
import pytest

from gpuplanner.cli import run_cli

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from test_one_answer_r12 import FP8_DOC, SWIFT, VLLM_DOC  # noqa: E402
from tests.ui.conftest import searched  # noqa: E402


def _flat(text: str) -> str:
    return " ".join(text.split())


def _cli_json(args: list[str], capsys) -> dict:
    assert run_cli(args) == 0
    return json.loads(capsys.readouterr().out)


def test_swift_file_without_dropout_gives_the_cli_step_time_in_the_app(make_window, qtbot, capsys, tmp_path):
    from gpuplanner.formatting import format_number, format_plan_days, format_time_number

    doc = tmp_path / "swift-lora.json"
    doc.write_text(json.dumps(SWIFT), encoding="utf-8")
    e = _cli_json(["estimate", str(doc), "--json"], capsys)
    plans = _cli_json(["plan", str(doc), "--json", "--top", "5"], capsys)["plans"]
    w = make_window()
    assert w.open_path(doc, show_errors=False)
    assert lora_dropout_of(w.model.scenario.training) == 0.05  # None: the tool's default (review12)
    qtbot.waitUntil(lambda: w.estimator.result is not None and w.estimator.result.evaluation is not None,
                    timeout=60000)
    ev = w.estimator.result.evaluation
    assert lora_dropout_of(ev.scenario.training) == 0.05
    # the timed step (advice19 caps this layout at 46% HFU: ``estimate --json`` prints the step the plan is timed at)
    assert ev.time.step_time_s == pytest.approx(e["step_time_s"], rel=1e-9), (ev.time.step_time_s, e["step_time_s"])
    band = e.get("calendar_days_band")
    days = format_plan_days(e["calendar_days"], None if band is None else tuple(band)) + " calendar days"
    if e["calendar_days"] < 1:  # below a day in hours, as the Project page (formatting.format_plan_span; ux21)
        from gpuplanner.formatting import format_plan_span

        days = format_plan_span(e["calendar_days"], None if band is None else tuple(band))[0] + " in calendar time"
    assert w.live.time_value.text().startswith(days), w.live.time_value.text()
    w.go_to(1)
    f = w.page("training").advanced.fields["lora_dropout"]
    assert f.text() == "", f.text()  # empty: the tool's default, which the plan's lines name (review12)
    qtbot.waitUntil(lambda: searched(w) and w.search.outcome is not None, timeout=120000)
    w.go_to(5)
    page = w.page("plans")
    qtbot.waitUntil(lambda: page.table_model.rowCount() > 0, timeout=10000)
    rows = page.table_model.plans
    for i, row in enumerate(rows[:3]):
        p = plans[i]
        assert (row.gpu, row.num_gpus) == (p["gpu"], p["num_gpus"])
        assert row.plan.evaluation.time_modelled.step_time_s == pytest.approx(p["step_time_s"], rel=1e-9)
        assert lora_dropout_of(row.plan.scenario.training) == 0.05
        assert format_time_number(p["calendar_days"]) == format_time_number(row.plan.calendar_days)
        assert format_number(p["cost"], 0) == format_number(row.plan.cost, 0)


@pytest.mark.parametrize("doc", [VLLM_DOC, FP8_DOC], ids=["vllm-api-wait", "fp8-attention"])
def test_the_project_page_first_token_is_the_cli_sentence(doc, make_window, language, qtbot, capsys):
    language.install("en")
    assert run_cli(["project", str(doc), "--lang", "en"]) == 0
    cli = _flat(capsys.readouterr().out)
    m = re.search(r"vLLM: KV cache [\d.,]+ GiB per GPU, first token in [\d,]+ ms on an idle replica", cli)
    assert m, cli[-2000:]
    w = make_window(search_enabled=False)
    assert w.open_path(doc, show_errors=False)
    w.go_to(7)
    page = w.pages[7]
    qtbot.waitUntil(lambda: not page.busy() and page.result is not None and bool(page.total.text()), timeout=60000)
    text = _flat(page.advice.text())
    assert text.count(m.group(0)) == 1, text
    (s,) = [ph.serving for ph in page.result.phases if ph.serving is not None]
    assert f"first token in {round(s.ttft_s * 1e3):,} ms" in text
    from gpuplanner.core.serving_facts import first_token_line

    assert _flat(first_token_line(s).render()) == m.group(0)


def test_plans_page_shows_the_offload_model_savers_line_as_the_cli(make_window, qtbot, capsys):
    """savers12's line (``training.rl.offload_model`` among the savers) under #1 of the GRPO MoE month: the Plans
    page's details of #1 carry it once, as ``gpuplanner plan`` prints it; #2 and #3 do not."""
    from PySide6.QtWidgets import QApplication

    from test_one_answer_r12 import GRPO_DOC, KEPT

    assert run_cli(["plan", str(GRPO_DOC), "--top", "5"]) == 0
    cli = _flat(capsys.readouterr().out)
    w = make_window()
    assert w.open_path(GRPO_DOC, show_errors=False)
    qtbot.waitUntil(lambda: searched(w) and w.search.outcome is not None, timeout=180000)
    page = w.page("plans")
    w.go_to(5)
    qtbot.waitUntil(lambda: page.table_model.rowCount() > 0, timeout=10000)
    seen = []
    for i, row in enumerate(page.table_model.plans[:3]):
        page.view.selectRow(page.proxy.mapFromSource(page.table_model.index(i, 0)).row())
        QApplication.processEvents()
        text = _flat(page.details.toPlainText())
        lines = [_flat(m.render()) for m in row.plan.explanation if m.text.endswith(KEPT)]
        seen.append(len(lines))
        for line in lines:
            assert "training.rl.offload_model" in line
            assert text.count(line) == 1 and cli.count(line) == 1, text[:3000]
        if not lines:
            assert KEPT not in text
    assert seen[0] == 1 and not any(seen[1:]), seen


def test_plans_details_show_the_hidden_expert_all_to_all_as_the_cli(make_window, qtbot, capsys, tmp_path):
    """mgfields12's EP all-to-all overlap: the Plans details of each top plan list the hidden expert all-to-all
    share as ``estimate`` of that plan prints it (formatting.hidden_share_rows from the plan's Evaluation)."""
    from PySide6.QtWidgets import QApplication

    from gpuplanner.core.scenario import scenario_from_dict
    from gpuplanner.core.timing import HIDDEN_LABELS
    from gpuplanner.formatting import hidden_share_rows
    from test_one_answer_r12 import _mg_moe

    w = make_window()
    w.model.load(scenario_from_dict(_mg_moe(parallel={"ep_a2a_overlap": True})))
    qtbot.waitUntil(lambda: searched(w) and w.search.outcome is not None, timeout=180000)
    w.go_to(5)
    page = w.page("plans")
    qtbot.waitUntil(lambda: page.table_model.rowCount() > 0, timeout=10000)
    shown = 0
    for i, row in enumerate(page.table_model.plans[:3]):
        page.view.selectRow(page.proxy.mapFromSource(page.table_model.index(i, 0)).row())
        QApplication.processEvents()
        text = _flat(page.details.toPlainText())
        ev = row.plan.evaluation
        rows = dict(hidden_share_rows(ev.time.hidden_shares))
        path = tmp_path / f"p{i}.json"
        path.write_text(json.dumps(ev.scenario.model_dump(mode="json")), encoding="utf-8")
        assert run_cli(["estimate", str(path)]) == 0
        cli = _flat(capsys.readouterr().out)
        if "ep_comm" in rows:
            shown += 1
            label = HIDDEN_LABELS["ep_comm"]
            assert f"{label}, hidden under compute (not in the step) {rows['ep_comm']}" in text, text[-2000:]
            assert f"{label} {rows['ep_comm']}" in cli
    assert shown
