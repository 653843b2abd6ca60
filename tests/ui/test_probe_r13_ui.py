"""Round-13 probe (bench/probe_hostile_r13.py, UI side): markup from a stranger's plan never renders as rich text
anywhere in the window (labels, tool tips, item views' tool tips, text browsers, chart text items), on every page,
with every name a plan file carries: title, notes, model name, phase names and notes, checklist notes, a quote's
vendor and preinstalled image. No hole found in round 13: a guard, so that a page added later is scanned too."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import (QAbstractItemView, QApplication, QGraphicsTextItem, QGraphicsView, QLabel,
                               QTextEdit, QWidget)

ROOT = Path(__file__).resolve().parents[2]
PLAN = ROOT / "examples" / "shenzhen-7b-domain-project.gpuplan"
QUOTES = ROOT / "examples" / "quotes" / "autodl-a800.csv"
MARK = '<img src="file:///etc/hostname"><b>X</b>'


def _hostile_plan(tmp_path: Path) -> Path:
    from gpuplanner.cli import run_cli

    d = json.loads(PLAN.read_text(encoding="utf-8"))
    d["title"] = "T" + MARK
    d["notes"] = "N" + MARK
    d["scenario"]["model"]["name"] = "M" + MARK
    for i, ph in enumerate(d["project"]["phases"]):
        ph["notes"] = f"PN{i}" + MARK
        old = ph["name"]
        ph["name"] = f"P{i}" + MARK
        if d["project"].get("main_phase") == old:
            d["project"]["main_phase"] = ph["name"]
        if ph.get("scenario"):
            ph["scenario"]["model"]["name"] = f"PM{i}" + MARK
    for c in d.get("vendor_checklist", []):
        c["note"] = "C" + MARK
    f = tmp_path / "hostile.gpuplan"
    f.write_text(json.dumps(d, ensure_ascii=False), encoding="utf-8")
    q = tmp_path / "q.csv"
    def cell(prefix: str) -> str:  # a quoted CSV cell holding the markup as it is
        return '"' + (prefix + MARK).replace('"', '""') + '"'

    q.write_text(QUOTES.read_text(encoding="utf-8").replace("AutoDL (example)", cell("V"))
                 .replace("PyTorch images", cell("I")), encoding="utf-8")
    assert run_cli(["quotes", str(f), str(q), "--save"]) == 0
    return f


def _item_tips(m) -> list[str]:
    try:
        cols = m.columnCount(QModelIndex())
    except TypeError:
        cols = 1
    out = []
    for r in range(min(m.rowCount(QModelIndex()), 200)):
        for c in range(min(cols, 40)):
            tip = m.data(m.index(r, c), Qt.ItemDataRole.ToolTipRole)
            if isinstance(tip, str) and "<img" in tip and Qt.mightBeRichText(tip):
                out.append(f"item tooltip ({r},{c}): {tip[:120]!r}")
    return out


def _leaks(w: QWidget) -> list[str]:
    found = []
    for child in [w, *w.findChildren(QWidget)]:
        where = f"{type(child).__name__}({child.objectName()})"
        tip = child.toolTip()
        if "<img" in tip and Qt.mightBeRichText(tip):
            found.append(f"{where} tooltip: {tip[:120]!r}")
        if isinstance(child, QLabel) and "<img" in child.text() and child.textFormat() != Qt.TextFormat.PlainText:
            found.append(f"{where} label: {child.text()[:120]!r}")
        if isinstance(child, QTextEdit) and 'src="file:///etc/hostname"' in child.toHtml():
            found.append(f"{where} html")
        if isinstance(child, QGraphicsView) and child.scene() is not None:
            for item in child.scene().items():
                if isinstance(item, QGraphicsTextItem) and 'src="file:///etc/hostname"' in item.toHtml():
                    found.append(f"{where} graphics text: {item.toPlainText()[:80]!r}")
        if isinstance(child, QAbstractItemView) and child.model() is not None:
            found += [f"{where} {x}" for x in _item_tips(child.model())]
    return found


def test_no_page_renders_markup_from_a_plan(make_window, qtbot, tmp_path):
    from gpuplanner.ui.main_window import PAGE_KEYS

    f = _hostile_plan(tmp_path)
    w = make_window()
    assert w.doc.open_path(f) is True
    w.estimator.run_now()
    leaks = []
    for i in range(len(PAGE_KEYS)):
        w.go_to(i)
        qtbot.wait(50)
        QApplication.processEvents()
        leaks += [f"page {PAGE_KEYS[i]}: {x}" for x in _leaks(w.pages[i])]
    leaks += [f"window: {x}" for x in _leaks(w) if "page" not in x]
    shown = [c for c in w.findChildren(QLabel) if "<img" in c.text()]
    # the names did reach the window (as text): the scan looked at something
    from PySide6.QtWidgets import QLineEdit

    assert [e for e in w.findChildren(QLineEdit) if MARK in e.text()]
    assert not leaks, "\n".join(dict.fromkeys(leaks))


def test_exporting_a_quote_whose_vendor_holds_control_characters(make_window, monkeypatch, tmp_path):
    """The Quotes page's export of a plan's quote with a bell in the vendor's name wrote nothing and raised
    openpyxl's IllegalCharacterError inside the slot (a traceback) before round 13."""
    from PySide6.QtWidgets import QFileDialog

    from gpuplanner.cli import run_cli

    d = json.loads(PLAN.read_text(encoding="utf-8"))
    f = tmp_path / "p.gpuplan"
    f.write_text(json.dumps(d), encoding="utf-8")
    q = tmp_path / "q.csv"
    q.write_text(QUOTES.read_text(encoding="utf-8").replace("AutoDL (example)", "Auto\x07DL"), encoding="utf-8")
    assert run_cli(["quotes", str(f), str(q), "--save"]) == 0
    w = make_window()
    assert w.doc.open_path(f) is True
    from gpuplanner.ui.main_window import PAGE_KEYS

    w.go_to(PAGE_KEYS.index("quotes"))
    page = w.page("quotes")
    out = tmp_path / "export.xlsx"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), ""))
    assert page.quotes and "\x07" in page.quotes[0]["provider"]
    page._export()
    assert out.exists() and out.stat().st_size > 0 and not page.error.text()


def test_an_opened_plans_quotes_reach_the_quotes_page_and_survive_an_edit(make_window, monkeypatch, tmp_path):
    """The model's load kept only the UI keys it knew, and ``quotes`` was not one: an opened plan's quotes never
    reached the Quotes page, and adding a vendor there saved that vendor alone over the file's quotes (lost)."""
    from gpuplanner.cli import run_cli
    from gpuplanner.io import planfile
    from gpuplanner.ui.main_window import PAGE_KEYS

    f = tmp_path / "p.gpuplan"
    f.write_bytes(PLAN.read_bytes())
    assert run_cli(["quotes", str(f), str(QUOTES), "--save"]) == 0
    w = make_window()
    assert w.doc.open_path(f) is True
    w.go_to(PAGE_KEYS.index("quotes"))
    page = w.page("quotes")
    assert [q["provider"] for q in page.quotes] == ["AutoDL (example)"]
    page._add_vendor()
    assert w.doc.save_to(f)
    doc, _ = planfile.load(f)
    assert [q.provider for q in doc.quotes][:1] == ["AutoDL (example)"] and len(doc.quotes) == 2


def test_pasted_tool_output_never_renders_markup(qtbot):
    """The Verify panel's pasted topology, ibstat and nvidia-smi -q text with markup in the names they carry (NIC
    legend, CA name, product name): shown as text in the verdicts, tables and tool tips."""
    from gpuplanner.io.scenario_files import load_scenario
    from gpuplanner.ui.verify_panel import VerifyPanel

    data = ROOT / "tests" / "data"
    w = VerifyPanel()
    qtbot.addWidget(w)
    w.set_scenario(*load_scenario(ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json"))
    topo = (data / "topo" / "8gpu-two-nvlink-islands.txt").read_text(encoding="utf-8")
    assert w.load_topology_text(topo.replace("NIC0: mlx5_0", "NIC0: mlx5_0" + MARK))
    net = (data / "net" / "constructed-8x-ndr-400-plus-2-eth-ibstat.txt").read_text(encoding="utf-8")
    w.load_network_text(net.replace("CA 'mlx5_0'", "CA 'mlx5_0" + MARK + "'"))
    smi = (data / "health" / "constructed-nvidia-smi-q-h100-throttled-ecc.txt").read_text(encoding="utf-8")
    w.load_health_text(smi.replace("NVIDIA H100 80GB HBM3", "NVIDIA H100 80GB HBM3" + MARK, 1))
    leaks = _leaks(w)
    for bad in ("<img src='x'>GPU0\tGPU1", "CA '<img src=x>'\n"):
        w.load_topology_text(bad)
        w.load_network_text(bad)
        w.load_health_text(bad)
    leaks += _leaks(w)
    assert not leaks, "\n".join(leaks)
