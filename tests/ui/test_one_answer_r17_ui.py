"""The Plans page's copies of round 17's capped-MFU mark (issue 35 r17 parity17; the CLI, JSON and PDF halves are
tests/test_one_answer_r17.py).

``gpuplanner plan`` marks a plan timed at the best published run of its class "52% (capped)" (advice18, review17:
``Evaluation.mfu_capped``); the Plans page's MFU cell showed the bare figure, the same text as an uncapped plan's,
and the note only in the details pane below (found by parity17: these tests failed before ``ui.text.mfu_cell``). The
narrow cell marks it "52%*" (the nine columns fit 1280×800), its tooltip carries the CLI's note.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_70B = ROOT / "examples" / "llama3-70b-pretrain-64xh800-tp8pp4.json"


@pytest.fixture(scope="module")
def rows():
    """The 70B example's search as the Plans page's rows (app.engine.search_plans): #1 is capped."""
    from gpuplanner.app import engine
    from gpuplanner.core.scenario import Scenario

    s = Scenario.model_validate(json.loads(EXAMPLE_70B.read_text(encoding="utf-8")))
    out = engine.search_plans(s, top=5).plans
    assert out[0].plan.evaluation.mfu_capped
    return out


def _mfu_cells(rows) -> list[str]:
    from gpuplanner.ui.pages.plans_page import COLUMNS, PlanTableModel

    m = PlanTableModel()
    m.set_plans(rows)
    return [m.data(m.index(i, COLUMNS.index("mfu"))) for i in range(len(rows))]


def test_plans_page_marks_the_capped_plans_as_the_cli(qapp, rows, capsys):
    from gpuplanner.cli import run_cli

    assert run_cli(["plan", str(EXAMPLE_70B), "--top", "5", "--lang", "en"]) == 0
    text = capsys.readouterr().out
    from gpuplanner.commands._lang import msg
    from gpuplanner.ui.pages.plans_page import COLUMNS, PlanTableModel
    from gpuplanner.ui.text import CAPPED_STAR

    m = PlanTableModel()
    m.set_plans(rows)
    tips = [m.data(m.index(i, COLUMNS.index("mfu")), Qt.ItemDataRole.ToolTipRole) for i in range(len(rows))]
    for i, (row, cell) in enumerate(zip(rows, _mfu_cells(rows)), 1):
        capped = row.plan.evaluation.mfu_capped
        assert cell.endswith(CAPPED_STAR) is capped, cell
        assert ("(capped)" in (tips[i - 1] or "")) is capped, tips[i - 1]
        if capped:
            assert msg(row.plan.evaluation.mfu_note) in tips[i - 1]
        line = next(ln for ln in text.splitlines() if ln.startswith(f"{i}  "))
        assert ("(capped)" in line) is capped, line


def test_the_capped_mark_in_chinese(qapp, rows, language):
    language.install("zh_CN")
    from gpuplanner.ui.pages.plans_page import COLUMNS, PlanTableModel

    m = PlanTableModel()
    m.set_plans(rows[:1])
    tip = m.data(m.index(0, COLUMNS.index("mfu")), Qt.ItemDataRole.ToolTipRole)
    assert "已封顶" in tip and "capped" not in tip, tip


def test_live_panel_marks_a_capped_plan(make_window, qtbot, tmp_path):
    """The live panel's plan line ("64 × A100 · MFU 52% (capped)") reads the same ``Evaluation.mfu_capped`` as the
    table and ``gpuplanner estimate``: the 70B example with the search's #1 written into it."""
    from gpuplanner.core.scenario import Scenario
    from gpuplanner.core import search as S

    s = Scenario.model_validate(json.loads(EXAMPLE_70B.read_text(encoding="utf-8")))
    ev = S.search(s, top=1).plans[0].evaluation
    assert ev.mfu_capped
    w = make_window(search_enabled=False)
    doc = tmp_path / "capped.json"
    doc.write_text(ev.scenario.model_dump_json(exclude_unset=True), encoding="utf-8")
    assert w.open_path(doc, show_errors=False)
    qtbot.waitUntil(lambda: w.estimator.result is not None and w.estimator.result.evaluation is not None,
                    timeout=30000)
    live = w.estimator.result.evaluation
    assert live.mfu_capped
    panel = w.live
    qtbot.waitUntil(lambda: "MFU" in panel.plan_value.text(), timeout=10000)
    assert "(capped)" in panel.plan_value.text(), panel.plan_value.text()


def test_quotes_page_bills_the_combination_as_the_cli(make_window, tmp_path, qtbot, capsys):
    """A sheet of a server-week and a server-day for the Shenzhen example's plan: the Quotes page's billing line is
    the one ``gpuplanner quotes`` prints for the same stored sheet (app.answer.compare_quotes, one Comparison)."""
    import re
    import shutil

    from gpuplanner.cli import run_cli

    path = tmp_path / "p.gpuplan"
    shutil.copy(ROOT / "examples" / "shenzhen-7b-domain-project.gpuplan", path)
    sheet = tmp_path / "weekly.csv"
    sheet.write_text("section,item,value,unit,gpus_per_server,min_term_days,cap_at_month,note,date\n"
                     "vendor,provider,Weekly,,,,,,\nvendor,currency,CNY,,,,,,\n"
                     "offer,a800-sxm-80gb,6000,server_week,4,,,,\noffer,a800-sxm-80gb,900,server_day,4,,,,\n",
                     encoding="utf-8")
    assert run_cli(["quotes", str(path), str(sheet), "--save", "--lang", "en"]) == 0
    cli = capsys.readouterr().out
    line = next(ln.strip() for ln in cli.splitlines() if "billing: 3 weeks + 2 days" in ln).split("billing: ", 1)[1]
    w = make_window(search_enabled=False)
    assert w.open_path(path, show_errors=False)
    qtbot.waitUntil(lambda: w.estimator.result is not None, timeout=10000)
    w.go_to(8)
    page = w.pages[8]
    page.refresh_comparison()
    text = " ".join(page.compare_view.toPlainText().split())
    assert " ".join(line.split()) in text, (line, text[:2000])
    assert "¥19,800" in text  # 3 x 6,000 + 2 x 900, the total whole (ux27); ¥17,400 before advice19


def test_save_reopen_keeps_the_round17_fields_as_set_and_the_project_page_is_the_clis(make_window, qtbot, tmp_path,
                                                                                       capsys):
    """Through the pages: the serving phase made an offline job of 2.5 documents a second (Project page), the held
    logits ticked (Training page's Advanced box), a budget of ¥12,000 (as the Budget page sets it); saved, opened in a
    second window: the three are the user's as set, the switches left alone are not written (saved-fields), and the
    reopened Project page's serving p95 figures, offline replicas and budget are ``gpuplanner project --json``'s."""
    import shutil

    from gpuplanner.cli import run_cli
    from gpuplanner.io import planfile

    src = tmp_path / "src.gpuplan"
    shutil.copy(ROOT / "examples" / "shenzhen-7b-domain-project.gpuplan", src)
    w = make_window(search_enabled=False)
    assert w.open_path(src, show_errors=False)
    assert not w.model.set("constraints.budget", 12_000.0)
    w.go_to(1)
    held = w.page("training").advanced.fields["logits_held"]
    held.setChecked(True)
    assert w.model.user_scenario().training.logits_held is True
    w.go_to(7)
    page = w.pages[7]
    qtbot.waitUntil(lambda: not page.busy() and page.result is not None, timeout=30000)
    i = next(k for k, p in enumerate(page.project_data()["phases"]) if p["kind"] == "inference")
    page.list.setCurrentRow(i)
    page.docs_per_s.setValue(2.5)
    qtbot.waitUntil(lambda: w.model.ui["project"]["phases"][i]["inference"].get("documents_per_s") == 2.5,
                    timeout=10000)
    saved = tmp_path / "saved.gpuplan"
    assert w.save_to(saved)
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert data["scenario"]["training"]["logits_held"] is True
    assert "mixed_precision_off" not in data["scenario"]["training"]
    assert data["scenario"]["constraints"]["budget"] == 12_000.0
    inf = data["project"]["phases"][i]["inference"]
    assert inf["documents_per_s"] == 2.5 and "output_tokens_per_s" not in inf
    doc, _ = planfile.load(saved)
    assert "logits_held" in doc.scenario.training.model_fields_set
    assert "mixed_precision_off" not in doc.scenario.training.model_fields_set
    w2 = make_window(search_enabled=False)
    assert w2.open_path(saved, show_errors=False)
    assert w2.model.user_scenario().training.logits_held is True and not w2.model.dirty
    w2.go_to(7)
    p2 = w2.pages[7]
    qtbot.waitUntil(lambda: not p2.busy() and p2.result is not None, timeout=60000)
    assert run_cli(["project", str(saved), "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    s = p2.result.phases[i].serving
    js = cli["phases"][i]["inference"]
    assert s.target_tokens_per_s == 2.5 * s.output_tokens
    for k in ("p95_itl_s", "p95_ttft_s", "replicas", "batch_per_replica", "target_tokens_per_s"):
        assert js[k] == getattr(s, k), k
    assert cli["budget"] == json.loads(json.dumps(p2.result.budget.to_json()))
