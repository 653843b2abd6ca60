"""The document as a whole: File › Open/New/Revert replace every bit of it, and "modified" means "differs
from the file on disk".

Two plan files that share nothing visible: A (Llama 3.1 8B fine-tune, its user GPU an H100 but only the
A800 a search candidate, global batch 64) and B (Llama 3 70B pretraining on 256 × B200, global batch 1024,
only the B200 a candidate). After A's search has finished and its plan was adopted, opening B must show B
and B's own plans everywhere: pages, live panel, report.
"""

from __future__ import annotations

import shutil
import subprocess
import time

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton, QAbstractSpinBox, QApplication, QComboBox, QLabel, QLineEdit, QListWidget, QMessageBox,
    QTableView, QTableWidget, QTextEdit,
)

from gpuplanner.core.scenario import Scenario
from gpuplanner.io import planfile as pf

A_SCENARIO = {
    "model": {"preset": "llama-3.1-8b"},
    "training": {"method": "full", "seq_len": 4096, "micro_batch_size": 1, "global_batch_size": 64,
                 "recompute": "selective"},
    "parallel": {"zero": 3, "auto": True},
    "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8, "gpus_per_node": 8},
    "data": {"tokens": 2e9},
    "constraints": {"deadline_days": 14, "currency": "CNY", "max_gpus": 64, "gpu_candidates": ["a800-sxm-80gb"]},
}
B_SCENARIO = {
    "model": {"preset": "llama-3-70b"},
    "training": {"method": "pretrain", "seq_len": 4096, "micro_batch_size": 1, "global_batch_size": 1024,
                 "recompute": "selective"},
    "parallel": {"auto": True},
    "hardware": {"gpu": "b200-180gb", "num_gpus": 256, "gpus_per_node": 8},
    "data": {"tokens": 1e11},
    "constraints": {"deadline_days": 30, "currency": "USD", "max_gpus": 256, "gpu_candidates": ["b200-180gb"]},
}
# texts only document A can produce (its model, the GPUs of its inputs and of its plans, its title)
A_MARKS = ("Llama 3.1 8B", "A800", "H100 SXM", "Plan A")
B_MODEL = "Meta Llama 3 70B"


def write_plan(path, scenario: dict, title: str, page: str | None = None, **update) -> object:
    data = {**scenario}
    for dotted, v in update.items():
        section, key = dotted.split("__")
        data[section] = {**data[section], key: v}
    doc = pf.new_document(Scenario.model_validate(data), title=title)
    doc.ui_state.current_page = page
    pf.save(doc, path)
    return path


def wait_search(w, qtbot, timeout=30000):
    qtbot.waitUntil(lambda: w.search.state in ("done", "failed"), timeout=timeout)
    assert w.search.state == "done", w.search.error
    qtbot.wait(50)  # the queued follow-ups (estimate, plan row selection)
    QApplication.processEvents()


def selected_plan(w):
    """The search's selected plan (the outcome's row of the rank the document selected)."""
    out = w.search.outcome
    if out is None:
        return None
    return next((p for p in out.plans if p.rank == w.model.ui.get("selected_plan")), None)


def widget_texts(root) -> list[tuple[str, str]]:
    """(where, text) for every visible text under ``root``. Catalog lists that show every GPU or model
    whatever the document (the hardware table, the model presets) contribute only their document rows."""
    out = []
    for w in root.findChildren(object):
        if not hasattr(w, "isVisible") or not w.isVisible():
            continue
        name = type(w).__name__
        if isinstance(w, QTableWidget):          # the GPU catalog: the rows the document ticks or uses
            for r in range(w.rowCount()):
                first = w.item(r, 0)
                nm = w.item(r, 1)
                if nm is not None and ((first is not None and first.checkState().value == 2) or nm.font().bold()):
                    out.append((f"{name} row {r}", nm.text()))
            continue
        if isinstance(w, QListWidget):           # the model presets: the selected one
            it = w.currentItem()
            if it is not None:
                out.append((name, it.text()))
            continue
        if isinstance(w, QTableView):
            m = w.model()
            for r in range(m.rowCount()):
                for c in range(m.columnCount()):
                    out.append((f"{name} {r},{c}", str(m.data(m.index(r, c)))))
            continue
        if isinstance(w, QLabel):
            text = w.text()
        elif isinstance(w, QLineEdit):
            text = w.text()
        elif isinstance(w, QComboBox):
            text = w.currentText()
        elif isinstance(w, QAbstractSpinBox):
            text = w.text()
        elif isinstance(w, QTextEdit):
            text = w.toPlainText()
        elif isinstance(w, QAbstractButton):
            text = w.text()
        else:
            continue
        if text:
            out.append((f"{name} {w.objectName()}", text))
    return out


def all_page_texts(w, qtbot) -> dict[str, list[tuple[str, str]]]:
    from gpuplanner.ui.main_window import PAGE_KEYS

    pages = {}
    for i, key in enumerate(PAGE_KEYS):
        w.go_to(i)
        QApplication.processEvents()
        pages[key] = widget_texts(w.stack.currentWidget())
    return pages


def assert_nothing_of_a(texts, where: str) -> None:
    bad = [(w, t) for w, t in texts if any(mark in t for mark in A_MARKS)]
    assert not bad, f"{where} still shows document A: {bad[:6]}"


def pdf_text(w, path) -> str | None:
    from PySide6.QtWidgets import QApplication

    from gpuplanner.ui import report

    got: list = []
    report.export_pdf(w, str(path), done=got.append)  # gathered and written on a worker thread
    deadline = time.monotonic() + 120
    while not got and time.monotonic() < deadline:
        QApplication.processEvents()
        time.sleep(0.01)
    out = got[0] if got else None
    assert out is not None and path.read_bytes()[:5] == b"%PDF-"
    exe = shutil.which("pdftotext")
    if exe is None:
        return None
    return subprocess.run([exe, "-layout", str(path), "-"], capture_output=True, text=True, timeout=60,
                          check=True).stdout


# ------------------------------------------------------------------------------------------- (a)

@pytest.mark.parametrize("b_page", [None, "plans"])
def test_open_after_first_search_shows_only_the_opened_document(make_window, qtbot, tmp_path, dialogs, b_page):
    """Defect 1. ``b_page="plans"``: B was saved on the Plans page, so opening it builds that page while the
    previous document's outcome was still the search's; ``None``: the Plans page was built while A was open
    (its table still held A's rows when B's first result arrived)."""
    a = write_plan(tmp_path / "a.gpuplan", A_SCENARIO, "Plan A")
    b = write_plan(tmp_path / "b.gpuplan", B_SCENARIO, "Plan B", page=b_page)
    w = make_window()
    assert w.open_path(a)
    wait_search(w, qtbot)
    a_plan = selected_plan(w)
    assert a_plan is not None and a_plan.gpu == "a800-sxm-80gb"
    assert w.model.scenario.hardware.gpu == "a800-sxm-80gb"       # A's plan is adopted (automatic layout)
    if b_page is None:
        all_page_texts(w, qtbot)                                  # every page built while A is open

    gen = w.search.generation
    assert w.open_path(b)
    # at once: nothing of A's search is left to adopt, save or print
    assert w.search.generation > gen and w.search.outcome is None
    assert w.model.user_scenario() == w.model.scenario == Scenario.model_validate(B_SCENARIO)
    assert w.estimator.result.evaluation.scenario.model.preset == "llama-3-70b"
    assert w.document().selected_plan is None
    wait_search(w, qtbot)

    s = w.model.scenario
    user = w.model.user_scenario()
    assert user == Scenario.model_validate(B_SCENARIO)             # B's inputs, untouched
    plan = selected_plan(w)
    assert plan is not None and plan.scenario.model.preset == "llama-3-70b"
    assert all(p.gpu == "b200-180gb" for p in w.search.outcome.plans)
    # the live charts show B's selected plan, exactly
    assert s == plan.scenario
    ev = w.estimator.result.evaluation
    assert ev.scenario == plan.scenario
    assert ev.scenario.hardware.gpu == "b200-180gb" and ev.scenario.training.global_batch_size == 1024
    assert ev.scenario.hardware.num_gpus == plan.num_gpus
    live = [w.live.model_value.text(), w.live.mem_value.text(), w.live.plan_value.text(), w.live.time_value.text()]
    assert_nothing_of_a([("live", t) for t in live], "the live panel")
    assert B_MODEL in live[0] and "B200" in live[2] and f"{plan.num_gpus} × " in live[2]
    assert "does not fit" not in live[1]
    assert all(p.gpu == "b200-180gb" for p in w.live.cost_chart.plans)

    pages = all_page_texts(w, qtbot)
    for key, texts in pages.items():
        assert_nothing_of_a(texts, f"page {key}")
    tp = w.page("training")
    assert tp.gbs.text() == "1024" and tp.num_gpus.text() == "256" and tp.mbs.text() == "1"
    assert tp.recompute.currentData() == "megatron_selective"  # the old name, read as its alias
    assert w.page("model").presets.currentItem().text().startswith(B_MODEL)
    plans_page = w.page("plans")
    role = Qt.ItemDataRole.UserRole + 1
    rows = [plans_page.proxy.data(plans_page.proxy.index(r, 0), role) for r in range(plans_page.proxy.rowCount())]
    assert rows and all(any(p is q for q in w.search.outcome.plans) for p in rows)   # B's outcome's rows
    assert plans_page.current_plan() is plan                          # and B's selected plan selected
    assert any(B_MODEL in t for _w, t in pages["model"])
    assert not w.model.dirty

    # the report: B only
    doc = w.document()
    assert doc.scenario == user and doc.selected_plan.scenario == plan.scenario
    text = pdf_text(w, tmp_path / "b.pdf")
    assert not [c for c in dialogs.calls if c[0] == "warning"], dialogs.calls
    if text is not None:
        flat = " ".join(text.split())
        assert not [m for m in A_MARKS if m in flat], [m for m in A_MARKS if m in flat]
        assert B_MODEL in flat and "1,024 sequences" in flat                 # B's model and batch
        assert f"Rent {plan.num_gpus} × NVIDIA B200" in flat                 # B's plan's GPUs


# ------------------------------------------------------------------------------------------- (b)

def test_fresh_window_is_clean_and_closes_without_asking(make_window, qtbot, dialogs):
    w = make_window()
    wait_search(w, qtbot)
    assert w.model.scenario != w.model.user_scenario()   # the automatic layout adopted the search's plan ...
    assert not w.model.dirty and not w.isWindowModified()   # ... which is not an edit
    all_page_texts(w, qtbot)                       # building and visiting every page is not an edit either
    assert not w.model.dirty
    dialogs.answer = QMessageBox.StandardButton.Cancel   # a prompt would keep the window open
    assert w.close()
    assert not [c for c in dialogs.calls if c[0] == "question"], dialogs.calls


def test_edit_then_edit_back_is_clean_again(make_window, qtbot, dialogs):
    w = make_window(search_enabled=False)
    seq = w.model.scenario.training.seq_len
    w.model.set("training.seq_len", 1024)
    assert w.model.dirty and w.isWindowModified()
    w.model.set("training.seq_len", seq)
    assert not w.model.dirty and not w.isWindowModified()
    w.model.set_meta(title="x")
    assert w.model.dirty
    w.model.set_meta(title="")
    assert not w.model.dirty
    w.model.set_ui("page", 3)                       # where the user is is not part of the document
    assert not w.model.dirty


# ------------------------------------------------------------------------------------------- (c)

@pytest.mark.parametrize("auto", [True, False])
def test_just_opened_plan_file_is_clean_after_search_and_adoption(make_window, qtbot, tmp_path, auto):
    w = make_window()
    wait_search(w, qtbot)
    path = tmp_path / "p.gpuplan"
    if auto:
        write_plan(path, A_SCENARIO, "Plan A")
    else:
        write_plan(path, A_SCENARIO, "Plan A", parallel__auto=False, hardware__gpu="a800-sxm-80gb")
    assert w.open_path(path)
    assert not w.model.dirty
    wait_search(w, qtbot)
    assert w.model.ui["selected_plan"] == w.search.outcome.plans[0].rank
    if auto:
        assert w.model.scenario != w.model.user_scenario()
    else:
        assert w.model.scenario == w.model.user_scenario()
    assert not w.model.dirty and not w.isWindowModified()
    # saved and reopened (an automatic-layout plan stores the user's inputs, the plan apart): still clean
    assert w.save_to(path)
    assert w.open_path(path)
    wait_search(w, qtbot)
    assert not w.model.dirty, "reopening a saved plan marks it modified"
    assert w.model.user_scenario() == Scenario.model_validate(
        A_SCENARIO if auto else {**A_SCENARIO, "parallel": {**A_SCENARIO["parallel"], "auto": False},
                                 "hardware": {**A_SCENARIO["hardware"], "gpu": "a800-sxm-80gb"}})


# ------------------------------------------------------------------------------------------- (d)

def test_recompute_field_keeps_the_users_choice_and_auto_label_shows_the_plans(make_window, qtbot, tmp_path):
    w = make_window()
    assert w.open_path(write_plan(tmp_path / "a.gpuplan", A_SCENARIO, "Plan A"))
    page = w.page("training")
    wait_search(w, qtbot)
    plan = selected_plan(w)
    assert plan is not None and plan.layout.recompute == "none"   # the search prefers no recompute here
    assert w.model.scenario.training.recompute == "none"             # the live charts use the plan's ...
    assert w.model.user_scenario().training.recompute == "megatron_selective"  # "selective": alias
    assert page.recompute.currentData() == "megatron_selective"               # ... the field shows the user's
    # the field shows the user's count (since round 15 the search's #1 here may also be 8 GPUs: the price tie)
    assert page.num_gpus.text() == "8"
    assert not page.auto_info.isHidden()
    info = page.auto_info.text()
    assert "Automatic layout" in info and f"{plan.num_gpus} × " in info
    assert "no recompute" in info and "recompute none" not in info  # ux10: the policy by its own name
    assert f"micro-batch {plan.layout.micro_batch_size}" in info
    # switching to the manual layout: the user's values are what the charts use, the label goes
    idx = page.auto.findData(False)
    page.auto.setCurrentIndex(idx)
    page.auto.activated.emit(idx)
    assert page.auto_info.isHidden()
    assert w.model.scenario.training.recompute == "megatron_selective" and w.model.scenario.hardware.num_gpus == 8
    assert w.model.scenario == w.model.user_scenario()


def test_adopting_another_plan_replaces_the_previous_one(qtbot):
    from gpuplanner.ui.model import ScenarioModel

    m = ScenarioModel()
    user = m.user_scenario()
    m.apply_plan({"hardware.num_gpus": 16, "training.recompute": "none", "parallel.zero": 1})
    m.apply_plan({"hardware.num_gpus": 32})          # plan 2 keeps the user's recompute and ZeRO
    assert m.scenario.hardware.num_gpus == 32
    assert m.scenario.training.recompute == user.training.recompute and m.scenario.parallel.zero == user.parallel.zero
    assert m.user_scenario() == user and not m.dirty
    m.apply_plan({})
    assert m.scenario == user and not m.plan_adopted


# ------------------------------------------------------------------------------------------- (e)

def test_stale_search_of_previous_document_is_dropped(make_window, qtbot, tmp_path, monkeypatch):
    from gpuplanner.app import engine

    seen = []

    def slow_search(scenario, base_dir=None, ui=None, cancel=None, progress=None, top=20):
        seen.append(scenario.model.preset)
        for _ in range(40):
            time.sleep(0.01)              # deliberately deaf to ``cancel``: the result still arrives
        return engine.SearchOutcome([], considered=len(seen), notes=[scenario.model.preset])


    # the search is replaced in this process, so it runs on a thread here, not in a process of its own
    monkeypatch.setenv("GPUPLANNER_SEARCH_WORKER", "thread")
    monkeypatch.setattr(engine, "search_plans", slow_search)
    w = make_window()
    qtbot.waitUntil(lambda: w.search.state == "done", timeout=10000)
    b = write_plan(tmp_path / "b.gpuplan", B_SCENARIO, "Plan B")
    finished = []
    w.search.finished.connect(lambda out: finished.append(out.notes[0]))
    w.model.set("training.seq_len", 2048)          # an edit starts a search of the old document ...
    qtbot.waitUntil(lambda: seen.count("llama-3.1-8b") >= 2, timeout=10000)
    assert w.open_path(b)                           # ... and B is opened while it runs
    assert w.search.outcome is None and w.search.state == "running"   # A's last outcome is gone too
    assert w.document().selected_plan is None
    qtbot.waitUntil(lambda: w.search.state == "done", timeout=10000)
    qtbot.wait(600)                                 # the old job has long finished by now
    assert finished == ["llama-3-70b"], finished   # the old document's result never arrived
    assert w.search.outcome.notes == ["llama-3-70b"]
    assert seen[-1] == "llama-3-70b"
    # the same for File > New while B's search runs
    w.model.set("training.seq_len", 8192)
    qtbot.waitUntil(lambda: w.search._job is not None, timeout=10000)
    w.model.set_dirty(False)
    w.file_new()
    qtbot.waitUntil(lambda: w.search.state == "done", timeout=10000)
    qtbot.wait(600)
    assert finished[-1] == "llama-3.1-8b" and finished.count("llama-3-70b") == 1, finished
