"""One plan, one answer in the app on round 15's lines (issue 35 r15 parity15).

Each request file of tests/test_one_answer_r15.py opened in the window (``parallel.auto``: the search's plans): the
Plans page's rows are ``plan --json``'s (GPU, count, cost) and each plan's details carry round 15's line word for word
as ``plan`` prints it, once — the price tie's rank line, the class's poor MFU line in the rules table, the savers line
and the rental advice that name a default price, "Servers of 4 GPUs …", "… inside one NVLink domain …". The page
composes none of them: it lists the plan's Msgs (core). The Training page's FSDP version row reads the core's rule
(frameworks.hf_fsdp_choice): with the rule patched the row follows.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from gpuplanner.cli import run_cli

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
import test_one_answer_r15 as P  # noqa: E402
from tests.savers_off import savers_off


def _flat(text: str) -> str:
    return " ".join(text.split())


def _plans_text(d: dict, tmp_path: Path, capsys) -> tuple[list[dict], str, Path]:
    doc = tmp_path / "doc.json"
    doc.write_text(json.dumps(d), encoding="utf-8")
    assert run_cli(["plan", str(doc), "--json", "--top", "5"]) == 0
    plans = json.loads(capsys.readouterr().out)["plans"]
    assert run_cli(["plan", str(doc), "--top", "3", "--lang", "en"]) == 0
    return plans, capsys.readouterr().out, doc


def _details(make_window, qtbot, doc: Path, n: int = 2) -> list[tuple]:
    """(row, details text) of the Plans page's first ``n`` plans for the opened file."""
    w = make_window()
    assert w.open_path(doc, show_errors=False)
    qtbot.waitUntil(lambda: w.search.state in ("done", "failed"), timeout=180000)
    page = w.page("plans")
    w.go_to(5)
    qtbot.waitUntil(lambda: page.table_model.rowCount() > 0, timeout=10000)
    out = []
    for i, row in enumerate(page.table_model.plans[:n]):
        page.view.selectRow(page.proxy.mapFromSource(page.table_model.index(i, 0)).row())
        QApplication.processEvents()
        out.append((row, _flat(page.details.toPlainText())))
    return out


CASES = {
    # request, where the line sits on the plan, its marker, the plans that carry it (None: #1 and any other)
    "price-tie": (lambda: P._doc(P.TIE), "explanation", "dearer than the cheapest plan", (0,)),
    # (the savers written off: said on #1's line, never applied; left unset, the search applies them, savers15)
    "savers-default-price": (lambda: savers_off(P._doc(P.MIXED)), "explanation", "the best plan is", (0,)),
    "kept-compared": (lambda: P._doc(P.RENTED), "rental_advice", "The comparisons with", None),
    "servers-of-4": (lambda: json.loads(json.dumps(P.GPN4)), "warnings", "Servers of {g} GPUs", (0, 1)),
    "servers-of-8-not-16": (lambda: {**json.loads(json.dumps(P.GPN4)),
                                     "hardware": {**P.GPN4["hardware"], "gpus_per_node": 16},
                                     "constraints": {**P.GPN4["constraints"], "rules": {"price_fabric": False}}},
                            "warnings", "comes at most {k} to a server", None),
    "nvlink-domain": (lambda: json.loads(json.dumps(P.GB_SEARCH)), "warnings", "inside one NVLink domain", None),
}


def _lines(row, where: str, marker: str) -> list:
    src = row.plan.evaluation.rental_advice if where == "rental_advice" else getattr(row.plan, where)
    return [m for m in src if marker in m.text]


@pytest.mark.parametrize("case", list(CASES))
def test_plans_page_lines_are_the_clis(case, make_window, qtbot, tmp_path, capsys):
    make, where, marker, carriers = CASES[case]
    plans, text, doc = _plans_text(make(), tmp_path, capsys)
    seen = []
    for i, (row, details) in enumerate(_details(make_window, qtbot, doc)):
        p = plans[i]
        assert (row.gpu, row.num_gpus) == (p["gpu"], p["num_gpus"])
        assert row.plan.cost == pytest.approx(p["cost"], rel=1e-9)
        for x in p.get("decision") or []:  # #1's why-beats sentences (search._why_beats; the tie's TIE_WHY)
            assert _flat(x["message"]) in details, (x["message"], details[:3000])
        lines = _lines(row, where, marker)
        seen.append(len(lines))
        for m in lines:
            line = _flat(m.render())
            assert details.count(line) == 1, (line, details[:3000])
            assert _flat(P._block(text, i + 1)).count(line) == 1
            key = "rental_advice" if where == "rental_advice" else where
            assert line in [_flat(x) for x in p[key]]
    assert seen[0] == 1 if carriers is None else [i for i, k in enumerate(seen) if k] == list(carriers), seen


def test_plans_page_rules_table_has_the_class_poor_line(make_window, qtbot, tmp_path, capsys):
    """#1 on 8 × H20: the rules table's mfu_grade line is ``plan --json``'s rule message, and the MFU cell's grade is
    its grade."""
    plans, _text, doc = _plans_text(P._poor_doc(), tmp_path, capsys)  # narrowed to the H20 (advice18)
    ((row, details),) = _details(make_window, qtbot, doc, n=1)
    p = plans[0]
    assert (row.gpu, row.num_gpus) == (p["gpu"], p["num_gpus"]) == ("h20-96gb", p["num_gpus"])
    rule = next(r for r in p["rules"] if r["id"] == "mfu_grade")
    assert "poor for its class" in rule["message"]
    assert _flat(rule["message"]) in details
    assert row.plan.evaluation.mfu_grade == p["mfu_grade"] == "poor"


def test_the_fsdp_version_row_follows_the_cores_rule(make_window, monkeypatch):
    """The Training page shows the FSDP version row on the HF stack at ZeRO 2/3 (frameworks.hf_fsdp_choice), worded
    DeepSpeed / FSDP1: with the core's rule patched to refuse the HF stack, the row hides (a page with its own copy of
    the rule would still show it); framework fsdp keeps it."""
    from gpuplanner.core import frameworks as FW

    win = make_window(search_enabled=False)
    win.go_to(1)
    page = win.page("training")
    for path, value in (("model.preset", "llama-3.1-8b"), ("parallel.auto", False), ("training.method", "full"),
                        ("training.framework", "hf"), ("parallel.zero", 3), ("hardware.gpu", "h100-sxm-80gb"),
                        ("hardware.num_gpus", 8)):
        assert win.model.set(path, value) is None, path
    assert page.form.isRowVisible(page.fsdp_version.box)
    monkeypatch.setattr(FW, "hf_fsdp_choice", lambda framework, zero, engine=None: False)
    win.model.set("training.seq_len", 2048)  # any change re-reads the rule
    assert not page.form.isRowVisible(page.fsdp_version.box)
    win.model.set("training.framework", "fsdp")
    assert page.form.isRowVisible(page.fsdp_version.box)


def test_project_page_serves_the_moe_as_the_cli(make_window, language, qtbot, tmp_path, capsys):
    """The MoE serving project (Qwen3-235B-A22B on 8 × H100, TP 8: servoos15's expert width applies): the Project
    page's serving phase is ``project --json``'s (TP, replicas, tokens/s per GPU, step) and its advice carries the
    CLI's first-token sentence once, and (fix15) the CLI's "serving: TP 8, … tokens/s per GPU …, … per million
    tokens" line word for word, once: the page showed none of it."""
    from gpuplanner.core.serving_facts import first_token_line

    language.install("en")
    doc = P._moe_serving_doc(tmp_path)
    assert run_cli(["project", str(doc), "--lang", "en"]) == 0
    (cli_line,) = [x.strip() for x in capsys.readouterr().out.splitlines() if x.strip().startswith("serving: TP ")]
    assert "tokens/s per GPU" in cli_line and "per million tokens" in cli_line
    assert run_cli(["project", str(doc), "--json"]) == 0
    (js,) = [ph["inference"] for ph in json.loads(capsys.readouterr().out)["phases"] if ph["kind"] == "inference"]
    w = make_window(search_enabled=False)
    assert w.open_path(doc, show_errors=False)
    w.go_to(7)
    page = w.pages[7]
    qtbot.waitUntil(lambda: not page.busy() and page.result is not None and bool(page.total.text()), timeout=90000)
    (s,) = [ph.serving for ph in page.result.phases if ph.serving is not None]
    assert (s.tp, s.replicas, s.batch_per_replica) == (js["tp"], js["replicas"], js["batch_per_replica"]) == (8, 1, 64)
    assert s.tokens_per_s_per_gpu == pytest.approx(js["tokens_per_s_per_gpu"], rel=1e-12)
    assert s.step_s == pytest.approx(js["step_s"], rel=1e-12)
    assert _flat(page.advice.text()).count(_flat(first_token_line(s).render())) == 1
    assert _flat(page.advice.text()).count(_flat(cli_line)) == 1
