"""Round-16 hostile-input probe, the window's side: a stranger's text shown as typed, never as HTML.

Qt labels and message boxes default to ``Qt.AutoText``: a text with a tag on its first line is rendered as HTML.
An error naming a stranger's value (a vendor called ``<img src='/dev/zero'>``, an unknown GPU id in a plan file)
then loaded that file as an image: with /dev/zero the window hung for good (probe16, checked on main fe1a3ae9;
these tests use a missing image, so the old code fails them instead of hanging). Each test failed on fe1a3ae9.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from gpuplanner.io.quote_sheets import read_quotes

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "shenzhen-7b-domain-project.gpuplan"
PLAN_LORA = ROOT / "examples" / "7b-lora-1x4090.gpuplan"
SHEETS = sorted((ROOT / "examples" / "quotes").glob("*.csv"))
TAG = "<img src='missing-probe16.png'>"


def _open(make_window, tmp_path, qtbot):
    path = tmp_path / "p.gpuplan"
    shutil.copy(EXAMPLE, path)
    w = make_window(search_enabled=False)
    assert w.open_path(path, show_errors=False)
    w.go_to(8)
    page = w.pages[8]
    quotes = [q for s in SHEETS for q in read_quotes(s)]
    quotes[0] = quotes[0].model_copy(update={"provider": TAG + "V"})
    page.set_quotes(quotes)
    qtbot.waitUntil(lambda: w.estimator.result is not None, timeout=10000)
    page.refresh_comparison()
    return w, page


def test_quotes_page_error_shows_the_vendor_name_as_typed(make_window, tmp_path, qtbot):
    w, page = _open(make_window, tmp_path, qtbot)
    page.offers.item(0, 2).setText("-1")
    assert TAG + "V" in page.error.text()
    assert page.error.textFormat() == Qt.TextFormat.PlainText


def test_quotes_comparison_error_names_the_vendor_as_typed(make_window, tmp_path, qtbot, monkeypatch):
    from gpuplanner.core import quotes as core_quotes
    from gpuplanner.core.errors import PlannerError

    w, page = _open(make_window, tmp_path, qtbot)

    def refuse(*a, **k):
        raise PlannerError(TAG + "V: no offer for this plan")

    with monkeypatch.context() as m:  # this call only (other pages compare too)
        m.setattr(core_quotes, "compare", refuse)
        page.refresh_comparison()
    assert TAG + "V: no offer for this plan" in page.compare_view.toPlainText()


def test_error_labels_show_text_as_typed(make_window):
    w = make_window(search_enabled=False)
    labels = {"quotes error": w.page("quotes").error,
              "hardware table error": w.page("hardware").table_error,
              "model import error": w.page("model").import_error, "model tier text": w.page("model").tier_text,
              "live panel error": (w._ensure_live(), w._live.error)[1]}
    assert {k: v.textFormat() for k, v in labels.items()} == {k: Qt.TextFormat.PlainText for k in labels}


def test_cannot_open_box_shows_the_error_as_typed(make_window, tmp_path, monkeypatch):
    text = PLAN_LORA.read_text(encoding="utf-8").rstrip()
    f = tmp_path / "p.gpuplan"  # a key given twice: refused, naming the key
    f.write_text(text[:-1] + f', "{TAG}": 1, "{TAG}": 2}}', encoding="utf-8")
    shown = []

    def fake_exec(box):
        shown.append((box.text(), box.textFormat()))
        return QMessageBox.StandardButton.Ok

    monkeypatch.setattr(QMessageBox, "exec", fake_exec)
    w = make_window(search_enabled=False)
    assert w.doc.open_path(f) is False
    assert len(shown) == 1 and TAG in shown[0][0] and shown[0][1] == Qt.TextFormat.PlainText
