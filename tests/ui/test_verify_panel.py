"""The verify panel: colour-coded topology matrix, kit export/import with before/after, checklist, i18n."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QCoreApplication, QEvent, QTranslator  # noqa: E402

from gpuplanner.core import checklist as ck  # noqa: E402
from gpuplanner.io.scenario_files import load_scenario  # noqa: E402
from gpuplanner.ui.verify_panel import LINK_COLOURS, VerifyPanel, link_colour  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
H100_8B = ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json"
SAMPLE = ROOT / "tests" / "data" / "kit" / "result-cpu-sample.json"
TOPO = ROOT / "tests" / "data" / "topo" / "8gpu-two-nvlink-islands.txt"


@pytest.fixture
def panel(qtbot):
    w = VerifyPanel()
    qtbot.addWidget(w)
    s, base = load_scenario(H100_8B)
    w.set_scenario(s, base)
    return w


def test_link_colours():
    assert link_colour("NV18") == link_colour("NV4") == LINK_COLOURS["NV"]
    assert link_colour("SYS") == LINK_COLOURS["SYS"] != link_colour("PIX")
    assert link_colour(None) == LINK_COLOURS[None]


def test_topology_matrix_is_colour_coded(panel):
    from gpuplanner.verify.topology import parse_topo

    text = TOPO.read_text()
    topo = parse_topo(text)
    assert panel.load_topology_text(text)
    t = panel.topo_table
    assert t.rowCount() == t.columnCount() == topo.gpus == 8
    seen = set()
    for i in range(8):
        for j in range(8):
            cls = topo.link(i, j)
            item = t.item(i, j)
            assert item.text() == (cls or "?")
            assert item.background().color().name() == link_colour(cls)
            seen.add(link_colour(cls))
    assert LINK_COLOURS["NV"] in seen and len(seen) >= 3  # NVLink islands, X and a PCIe class
    assert panel.topo_verdict.text()


def test_topology_garbage_shows_one_line_reason(panel):
    assert not panel.load_topology_text("hello\nworld\n")
    assert panel.topo_table.rowCount() == 0
    assert panel.topo_verdict.text().startswith("Cannot read this output:")


def test_export_kit(panel, tmp_path):
    out = tmp_path / "kit.sh"
    panel.export_kit_file(out)
    text = out.read_text()
    assert text.startswith("#!/usr/bin/env bash") and '"hidden": 4096' in text


def test_import_shows_before_after_and_applies_mfu(panel, qtbot):
    assert not panel.apply_button.isEnabled()
    assert panel.import_result_file(SAMPLE)
    assert panel.apply_button.isEnabled()
    # measured MFU = 6,442,549,248 FLOPs/token x 57,500 tokens/s/GPU / 989e12 = 37.5% (see test_acceptance)
    assert panel.compare_text(0, 1) == "37.5%"
    before, after = panel.compare_text(2, 0), panel.compare_text(2, 1)
    assert before and after and before != after
    assert panel.compare_text(4, 1).endswith("CNY")
    assert "Matmul on GPU 7" in panel.findings_label.text()
    xs, ys = panel.measured_curve.getData()
    assert list(xs) == [1, 2, 4, 8] and list(ys) == [62000, 121000, 238000, 460000]
    with qtbot.waitSignal(panel.measuredMfuApplied) as blocker:
        panel.apply_button.click()
    # recorded as a run on the H100 (not a global MFU): the core applies it to H100 plans only
    new = blocker.args[0]
    assert new.assumptions.mfu is None
    run = new.assumptions.measured_runs[-1]
    assert (run.gpu, run.num_gpus, run.device) == ("h100-sxm-80gb", 8, "cuda")
    assert run.mfu == pytest.approx(0.374567, abs=1e-6)


def test_import_bad_file_shows_reason(panel, tmp_path):
    bad = tmp_path / "r.json"
    bad.write_text(json.dumps({"schema": "nope"}))
    assert not panel.import_result_file(bad)
    assert panel.kit_status.text() == "Cannot import the result: r.json: schema: expected 'gpuplanner-kit/1', got \"nope\""
    assert not panel.apply_button.isEnabled()


def test_checklist_state_round_trip(panel, qtbot):
    box, why, notes = panel._check_rows["real_stock"]
    assert box.text() == ck.get_item("real_stock").title and why.text() == ck.get_item("real_stock").why
    assert panel._check_rows["domestic_compat"][0].isHidden()  # H100 is not a domestic accelerator
    total = len(ck.ITEMS) - 1
    assert panel.check_progress.text() == f"0 of {total} checked"
    with qtbot.waitSignal(panel.checklistChanged) as blocker:
        box.setChecked(True)
    assert blocker.args[0].entry("real_stock").checked
    notes.setText("confirmed")
    with qtbot.waitSignal(panel.checklistChanged) as blocker:
        notes.editingFinished.emit()
    assert blocker.args[0].entry("real_stock").notes == "confirmed"
    assert panel.check_progress.text() == f"1 of {total} checked"
    saved = ck.ChecklistState.model_validate({"paid_trial": {"checked": True, "notes": "2 h"}})
    with qtbot.assertNotEmitted(panel.checklistChanged):
        panel.set_checklist_state(saved)
    assert panel._check_rows["paid_trial"][0].isChecked() and not box.isChecked()
    assert panel.checklist_state() == saved


class _Upper(QTranslator):
    def isEmpty(self):  # noqa: N802 (Qt API) - Qt skips empty translators
        return False

    def translate(self, context, source, disambiguation=None, n=-1):  # noqa: D401 (Qt API)
        return source.upper() if context in ("VerifyPanel", "Checklist") else None


def test_retranslate_on_language_change(panel):
    app = QCoreApplication.instance()
    tr = _Upper()
    app.installTranslator(tr)  # sends LanguageChange to every widget
    try:
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LanguageChange)
        assert panel.export_button.text() == "EXPORT TEST SCRIPT…"
        assert panel._check_rows["paid_trial"][0].text() == ck.get_item("paid_trial").title.upper()
    finally:
        app.removeTranslator(tr)
    QCoreApplication.sendPostedEvents(None, QEvent.Type.LanguageChange)
    assert panel.export_button.text() == "Export test script…"


@pytest.mark.parametrize("box, verdict, words", [("topo_edit", "topo_verdict", "too long"),
                                                 ("net_edit", "net_verdict", "too long"),
                                                 ("health_edit", "health_verdict", "too long")])
def test_oversized_paste_is_refused_before_qt_lays_it_out(panel, box, verdict, words):
    """A paste past the parser's limit never enters the box: Qt laid out each of its lines first (5 million lines:
    44 s, the window frozen; issue 35 round 10), only for the parser to refuse it. What the box held stays; the
    verdict says why in one line. A paste within the limit goes in as before."""
    import time

    from PySide6.QtCore import QMimeData

    edit = getattr(panel, box)
    edit.setPlainText("typed by the user")
    edit.moveCursor(edit.textCursor().MoveOperation.End)
    big = QMimeData()
    big.setText("a\n" * 2_500_000)
    start = time.process_time()
    edit.insertFromMimeData(big)
    assert time.process_time() - start < 2.0
    assert edit.toPlainText() == "typed by the user"
    text = getattr(panel, verdict).text()
    assert words in text and "\n" not in text
    small = QMimeData()
    small.setText(" and pasted")
    edit.insertFromMimeData(small)
    assert edit.toPlainText() == "typed by the user and pasted"
