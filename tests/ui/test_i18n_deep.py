"""Chinese end to end in the app, beyond the widgets' own texts: tooltips, chart hover texts, the labels drawn
inside the charts (deadline, budget, capacity lines, bar values), the status bar, the Verify page's findings
(topology, network, health, acceptance-kit results) and the model import's error. Two passes:

* zh_CN with the shipped catalogue: no English word outside the glossary (units, trade names, data names)
  and no ``1e+19`` notation anywhere a person reads;
* pseudo-localisation: every such text went through Qt's translation (full-width brackets), so a string
  missing from the catalogue is caught too.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from PySide6.QtWidgets import QApplication, QTableView, QWidget

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from i18n_scan import E_NOTATION, GLOSSARY, catalogue_words, strip_code, zh_slips  # noqa: E402
from test_i18n_ui import (  # noqa: E402 - helpers of the widget-level scan
    ALLOWED_WORDS, OPEN, PseudoTranslator, _plain, _where, data_words, endonyms, page_count, select_first_plan,
    settle, untranslated_words, visible_texts,
)

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"

def deep_texts(window, status: bool = True) -> list[tuple[str, str]]:
    """The widget texts of :func:`visible_texts` plus tooltips (widgets and the first table rows), the charts'
    hover texts and in-plot labels, and the status bar's message."""
    import pyqtgraph as pg

    from gpuplanner.ui.charts import ChartBase

    out = list(visible_texts(window))

    def shown(w: QWidget) -> bool:
        return w.isVisible() and w.window() is window

    for w in window.findChildren(QWidget):
        if shown(w) and w.toolTip():
            out.append((f"tooltip of {_where(w)}", _plain(w.toolTip())))
    for w in window.findChildren(QTableView):
        model = w.model()
        if shown(w) and model is not None:
            from PySide6.QtCore import Qt

            for r in range(min(3, model.rowCount())):
                for c in range(model.columnCount()):
                    v = model.data(model.index(r, c), Qt.ItemDataRole.ToolTipRole)
                    if isinstance(v, str) and v:
                        out.append((f"cell tooltip of {_where(w)}", _plain(v)))
    for chart in window.findChildren(ChartBase):
        if not shown(chart):
            continue
        name = type(chart).__name__
        out += [(f"hover of {name}", _plain(h.text.replace("\n", "<br>"))) for h in chart._hover]
        for item in chart.plot.getPlotItem().items:
            if isinstance(item, pg.TextItem) and item.isVisible() and item.toPlainText():
                out.append((f"text in {name}", item.toPlainText()))
            label = getattr(item, "label", None)
            if isinstance(item, pg.InfiniteLine) and item.isVisible() and label is not None:
                if label.isVisible() and label.toPlainText():
                    out.append((f"line label in {name}", label.toPlainText()))
    if status and hasattr(window, "statusBar") and window.statusBar().currentMessage():
        out.append(("status bar", window.statusBar().currentMessage()))
    return [(where, t) for where, t in out if t and t.strip()]


def exercise_verify_page(w, qtbot) -> None:
    """Feed the Verify page every kind of input (topology, network, health, a multi-node kit result)."""
    w.go_to(6)
    panel = w.page("verify").panel
    panel.load_topology_text((DATA / "topo" / "8gpu-two-nvlink-islands.txt").read_text())
    panel.load_network_text((DATA / "net" / "constructed-8x-ndr-one-down-ibstat.txt").read_text())
    panel.load_health_text((DATA / "health" / "constructed-nvidia-smi-q-h100-throttled-ecc.txt").read_text())
    panel.import_result_file(DATA / "kit" / "multinode-2x8-h100-ib-constructed.json")
    settle(qtbot)


def walk_everything(w, qtbot, tmp_path):
    """Yield (step, texts) for every page (the Plans page with a plan selected), the Verify page fed with
    samples, the Model page after a failed config import, and the status bar after opening a scenario file."""
    for i in range(page_count(w)):
        w.go_to(i)
        select_first_plan(w)
        settle(qtbot)
        yield f"page {i + 1}", deep_texts(w, status=False)
    exercise_verify_page(w, qtbot)
    yield "verify page with samples", deep_texts(w, status=False)
    bad = tmp_path / "config.json"
    bad.write_text('{"model_type": "llama", "hidden_size": "big"}', encoding="utf-8")
    w.go_to(0)
    w.page("model").import_path(str(bad))
    settle(qtbot)
    yield "model page after a bad import", deep_texts(w, status=False)
    scen = tmp_path / "7b-lora-1x4090.json"
    scen.write_text((ROOT / "examples" / "7b-lora-1x4090.json").read_text(encoding="utf-8"), encoding="utf-8")
    assert w.open_path(scen, show_errors=False)
    settle(qtbot)
    yield "after opening a scenario file", deep_texts(w)


def _window(qtbot):
    from gpuplanner.ui.main_window import MainWindow

    w = MainWindow(autosave=False)
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    qtbot.waitUntil(lambda: w.search.state in ("done", "failed"), timeout=30000)
    return w


def enum_identifiers() -> set[str]:
    """The scenario's enumeration values written with an underscore (``adamw_8bit``, ``all_linear``, …): the
    scan skips snake_case words as config keys, so these are checked on their own (shown by display name)."""
    import typing

    from gpuplanner.core import scenario as sc

    out = set()
    for obj in vars(sc).values():
        if typing.get_origin(obj) is typing.Literal:
            out |= {v for v in typing.get_args(obj) if isinstance(v, str) and "_" in v}
    return out


def test_chinese_everywhere_no_english_and_no_e_notation(qtbot, language, tmp_path):
    assert language.install("zh_CN")
    w = _window(qtbot)
    allowed = ALLOWED_WORDS | GLOSSARY | data_words() | catalogue_words()
    ids = enum_identifiers()
    assert "adamw_8bit" in ids
    english, enot = set(), set()
    n = 0
    try:
        for step, texts in walk_everything(w, qtbot, tmp_path):
            for where, text in texts:
                n += 1
                if text in endonyms():
                    continue
                words = untranslated_words(strip_code(text), allowed) + zh_slips(text)  # "all-to-all" (ux20)
                if words:
                    english.add(f"{step}: {where}: {text[:140]!r} (English: {' '.join(sorted(set(words)))})")
                if E_NOTATION.search(text):
                    enot.add(f"{step}: {where}: {text[:140]!r}")
                shown_ids = [i for i in ids if re.search(r"(?<![\w.])" + re.escape(i) + r"(?!\w)", text)]
                if shown_ids:
                    english.add(f"{step}: {where}: {text[:140]!r} (identifier: {' '.join(shown_ids)})")
                if "(China)" in text:  # GPU names keep the product name; the regional suffix is translated
                    english.add(f"{step}: {where}: {text[:140]!r} (English: China)")
    finally:
        w.model.set_dirty(False)
        w.search.shutdown()
    assert n > 300
    assert not (enot or english), ("scientific notation shown:\n" + "\n".join(sorted(enot))
                                   + f"\nEnglish in the Chinese UI ({len(english)} texts):\n" + "\n".join(sorted(english)))


def test_pseudo_localisation_reaches_tooltips_charts_findings_and_status(qtbot, qapp, tmp_path):
    pseudo = PseudoTranslator(qapp)
    assert qapp.installTranslator(pseudo)
    w = _window(qtbot)
    allowed = ALLOWED_WORDS | GLOSSARY | data_words() | catalogue_words()
    bad = set()
    wrapped = 0
    try:
        for step, texts in walk_everything(w, qtbot, tmp_path):
            for where, text in texts:
                if text in endonyms():
                    continue
                words = untranslated_words(text, allowed)
                if words:
                    bad.add(f"{step}: {where}: {text[:140]!r} (untranslated: {' '.join(sorted(set(words)))})")
                wrapped += OPEN in text
    finally:
        qapp.removeTranslator(pseudo)
        QApplication.processEvents()
        w.model.set_dirty(False)
        w.search.shutdown()
    assert wrapped > 200
    assert not bad, f"hard-coded English ({len(bad)} texts):\n" + "\n".join(sorted(bad))


def test_deep_scan_finds_english_in_a_tooltip_and_e_notation(qtbot):
    """The scan can fail: an English tooltip and a 4.57e+19 label are reported."""
    w = QWidget()
    qtbot.addWidget(w)
    from PySide6.QtWidgets import QLabel, QVBoxLayout

    lay = QVBoxLayout(w)
    lab = QLabel("4.57e+19 次")
    lab.setToolTip("Needs more memory")
    lay.addWidget(lab)
    w.show()
    texts = deep_texts(w, status=False)
    assert any(E_NOTATION.search(t) for _, t in texts)
    assert any(untranslated_words(t, GLOSSARY) == ["Needs", "more", "memory"] for _, t in texts)
