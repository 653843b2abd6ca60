"""One plan, one answer for expert11's savers line (issue 35 r11 parity11): the Plans page's details of plan #1 show
the line the search put under #1's rank lines, word for word as ``gpuplanner plan`` prints it, and no other plan's
details carry it. The page composes nothing: it lists the plan's explanation (core/advisor_savers.py's Msg)."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtWidgets import QApplication

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "tests" / "data" / "expert_review_r11" / "full-70b-2b-tokens.json"
KEPT = "Your choice is kept; change it to plan with this."


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_plans_page_shows_the_savers_line_as_the_cli(make_window, qtbot, capsys, tmp_path):
    from gpuplanner.cli import run_cli

    from tests.savers_off import savers_off

    d = savers_off(json.loads(SRC.read_text(encoding="utf-8")))  # (the line is for savers the user set: round 15)
    d.setdefault("parallel", {})["auto"] = True
    doc = tmp_path / SRC.name
    doc.write_text(json.dumps(d), encoding="utf-8")
    assert run_cli(["plan", str(doc), "--top", "5"]) == 0
    cli = _flat(capsys.readouterr().out)
    w = make_window()
    assert w.open_path(doc, show_errors=False)
    qtbot.waitUntil(lambda: w.search.state in ("done", "failed"), timeout=120000)
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
            assert text.count(line) == 1, text[:3000]
            assert cli.count(line) == 1
        if not lines:
            assert KEPT not in text
    assert seen[0] == 1 and not any(seen[1:]), seen


REQ02 = ROOT / "docs" / "notes" / "2026-12-07" / "issue-35-r14-advice14-requests" / "02-grpo-32b-week.json"


def test_plans_page_says_the_unrequested_savers_as_the_cli(make_window, qtbot, capsys, tmp_path):
    """Round 15 (savers15): #1 of round 14's request 02 applies savers the user did not set; the Plans page's details
    of each plan carry the plan's own statement of them (its explanation line, core/advisor_savers.py), word for
    word as ``gpuplanner plan`` prints it, and a plan without them carries none."""
    from gpuplanner.cli import run_cli
    from gpuplanner.core.advisor_savers import UNREQUESTED_LINE

    d = json.loads(REQ02.read_text(encoding="utf-8"))
    d.setdefault("parallel", {})["auto"] = True
    doc = tmp_path / REQ02.name
    doc.write_text(json.dumps(d), encoding="utf-8")
    assert run_cli(["plan", str(doc), "--top", "20"]) == 0
    cli = _flat(capsys.readouterr().out)
    w = make_window()
    assert w.open_path(doc, show_errors=False)
    qtbot.waitUntil(lambda: w.search.state in ("done", "failed"), timeout=120000)
    page = w.page("plans")
    w.go_to(5)
    qtbot.waitUntil(lambda: page.table_model.rowCount() > 0, timeout=10000)
    rows = page.table_model.plans
    assert rows[0].plan.unrequested_savers
    checked = 0
    for i, row in enumerate(rows[:6]):
        page.view.selectRow(page.proxy.mapFromSource(page.table_model.index(i, 0)).row())
        QApplication.processEvents()
        text = _flat(page.details.toPlainText())
        lines = [_flat(m.render()) for m in row.plan.explanation if m.text == UNREQUESTED_LINE]
        assert len(lines) == int(bool(row.plan.unrequested_savers))
        for line in lines:
            assert text.count(line) == 1 and line in cli
            checked += 1
        if not lines:
            assert "did not ask for" not in text
    assert checked >= 1


def test_writing_a_saver_off_in_the_app_searches_again_without_it(make_window, qtbot, tmp_path):
    """The optimizer offload written off in the app (the same value as its default, but now the user's): the search
    runs again and no plan applies it (the live search's key holds which savers the user set: ui/live.py)."""
    d = json.loads(REQ02.read_text(encoding="utf-8"))
    d.setdefault("parallel", {})["auto"] = True
    doc = tmp_path / REQ02.name
    doc.write_text(json.dumps(d), encoding="utf-8")
    w = make_window()
    assert w.open_path(doc, show_errors=False)
    qtbot.waitUntil(lambda: w.search.state == "done" and w.search.outcome is not None, timeout=120000)
    first = w.search.outcome.result.plans
    assert any("offload" in p.unrequested_savers for p in first)
    assert w.model.set("parallel.offload_optimizer", False) is None
    qtbot.waitUntil(lambda: w.search.state == "done" and w.search.outcome is not None
                    and w.search.outcome.result.plans is not first, timeout=120000)
    plans = w.search.outcome.result.plans
    assert plans and not any("offload" in p.unrequested_savers or p.offload_optimizer for p in plans)
