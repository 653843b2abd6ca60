"""Before/after crops of the round-17 ux26 fixes (docs/notes/2026-12-07/issue-35-r17-ux26/): each widget a fix
touches, in the state a first hour meets it, at 1280×800 (English or Chinese). Run from a tree (the base tree for
"before", the branch for "after"): PYTHONPATH=. QT_QPA_PLATFORM=offscreen python scripts/shots_issue35_r17_ux26_fixes.py
OUT_DIR PREFIX"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _screens import qt_app, spin  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def save(img_or_widget, out: Path, name: str) -> None:
    """An 8-bit PNG (small) of a widget or an image."""
    from PySide6.QtGui import QImage

    img = img_or_widget if isinstance(img_or_widget, QImage) else img_or_widget.grab().toImage()
    img.convertToFormat(QImage.Format.Format_Indexed8).save(str(out / f"{name}.png"))


def text_png(text: str, out: Path, name: str, width: int = 900) -> None:
    from PySide6.QtGui import QFont
    from PySide6.QtWidgets import QLabel

    lab = QLabel(text)
    lab.setFont(QFont("DejaVu Sans Mono", 9))
    lab.setWordWrap(True)
    lab.setStyleSheet("background: white; padding: 6px;")
    lab.setFixedWidth(width)
    lab.adjustSize()
    save(lab, out, name)


def window(app, lang_mgr, lang, search=False):
    from gpuplanner.ui.main_window import MainWindow

    lang_mgr.install(lang)
    w = MainWindow(autosave=False, search_enabled=search)
    w.resize(1280, 800)
    w.show()
    spin(app, 0.5)
    return w


def main(out: Path, prefix: str) -> None:
    from PySide6.QtWidgets import QLabel, QMessageBox

    from gpuplanner.i18n import LanguageManager, ensure_cjk_font
    from gpuplanner.ui.main_window import PAGE_KEYS

    app = qt_app()
    ensure_cjk_font()
    lm = LanguageManager(app)
    out.mkdir(parents=True, exist_ok=True)
    # 1. the step list's tooltip
    for lang in ("en", "zh_CN"):
        w = window(app, lm, lang)
        tip = QLabel(w.sidebar.toolTip())
        tip.setStyleSheet("background: #ffffdc; border: 1px solid #888; padding: 3px;")
        tip.adjustSize()
        save(tip, out, f"{prefix}-tooltip{'' if lang == 'en' else '-zh_CN'}")
        w.close()
    # 2. a file that cannot be opened (zh)
    w = window(app, lm, "zh_CN")
    seen = []
    orig = QMessageBox.warning
    QMessageBox.warning = staticmethod(lambda parent, title, text, *a, **k: seen.append((title, text)))
    bad = Path(tempfile.mkdtemp()) / "broken.json"
    bad.write_text('{"model": ', encoding="utf-8")
    w.open_path(bad)
    QMessageBox.warning = orig
    box = QMessageBox(QMessageBox.Icon.Warning, seen[0][0], seen[0][1], QMessageBox.StandardButton.Ok)
    box.show()
    spin(app, 0.3)
    save(box, out, f"{prefix}-open-error-zh_CN")
    box.close()
    # 3./4. the search's failure and an unknown preset (zh): the cost chart, the Plans status, the source line
    from gpuplanner.core.architecture import get_preset
    from gpuplanner.core.errors import PlannerError
    from gpuplanner.core.messages import error_text

    try:
        get_preset("llama-9b")
    except PlannerError as err:
        msg = error_text(err)
    w.model.set("model.preset", "llama-9b")
    spin(app, 0.5)
    s = w.search
    s.outcome, s.error, s.state = None, msg, "failed"
    w.live.refresh_cost()
    spin(app, 0.5)
    save(w.live.cost_chart, out, f"{prefix}-search-failed-zh_CN")
    w.page("model")._update_source()
    spin(app, 0.3)
    save(w.page("model").source_label, out, f"{prefix}-preset-source-zh_CN")
    s.state = "idle"
    w.model.set_dirty(False)
    w.close()
    # 5. add a custom GPU (en)
    w = window(app, lm, "en")
    from gpuplanner.ui.pages.hardware_page import CustomGpuDialog

    try:
        dlg = CustomGpuDialog(w, currency=w.model.scenario.constraints.currency)
    except TypeError:  # the base tree: no currency
        dlg = CustomGpuDialog(w)
    dlg.show()
    spin(app, 0.3)
    save(dlg, out, f"{prefix}-custom-gpu")
    dlg.close()
    # 6. File menu of a new plan: Revert to Saved
    w.model.set("data.tokens", 3_000_000_000)
    w.file_menu.popup(w.mapToGlobal(w.rect().topLeft()))
    spin(app, 0.3)
    save(w.file_menu, out, f"{prefix}-file-menu")
    w.file_menu.hide()
    # 9. owning instead of renting: the units
    w.go_to(PAGE_KEYS.index("hardware"))
    hw = w.page("hardware")
    hw.fill_ownership()
    box = next(iter(hw.own_fields.values())).box.parentWidget()
    spin(app, 0.3)
    save(box, out, f"{prefix}-owning-units")
    w.model.set_dirty(False)
    w.close()
    # 7./8./12. the vendor quotes: hard questions, the comparison's rank (en and zh)
    from gpuplanner.io.quote_sheets import read_quotes

    for lang in ("en", "zh_CN"):
        w = window(app, lm, lang)
        w.go_to(PAGE_KEYS.index("quotes"))
        qp = w.page("quotes")
        qp.set_quotes([q for f in sorted((ROOT / "examples" / "quotes").glob("*.csv")) for q in read_quotes(f)])
        qp.refresh_comparison()
        sfx = "" if lang == "en" else "-zh_CN"
        qp.tabs.setCurrentIndex(1)
        spin(app, 0.5)
        save(qp.tabs, out, f"{prefix}-hard-questions{sfx}")
        qp.tabs.setCurrentIndex(2)
        spin(app, 1.0)
        img = qp.compare_view.grab().toImage()
        save(img.copy(0, 0, img.width(), min(img.height(), 300)), out, f"{prefix}-compare-rank{sfx}")
        w.model.set_dirty(False)
        w.close()
    # 10. the Plans page's search time (zh)
    from types import SimpleNamespace

    w = window(app, lm, "zh_CN")
    w.go_to(PAGE_KEYS.index("plans"))
    page = w.page("plans")
    s = w.search
    s.state, s.outcome = "done", SimpleNamespace(plans=[object()] * 20, fitting=32_422, considered=60_246,
                                                  search_ms=572.0, notes=(), skipped={})
    page._update_status()
    spin(app, 0.5)
    img = w.grab().toImage()
    save(img.copy(210, 80, 620, 80), out, f"{prefix}-search-time-zh_CN")
    s.state, s.outcome = "idle", None
    w.close()
    lm.install("en")
    # 13. the CLI's unknown command (zh)
    run = subprocess.run([sys.executable, "-m", "gpuplanner", "frobnicate", "--lang", "zh_CN"], capture_output=True,
                         text=True, cwd=str(ROOT))
    text_png("$ gpuplanner frobnicate --lang zh_CN\n" + run.stderr.strip(), out, f"{prefix}-cli-unknown-zh_CN")


def project(out: Path, prefix: str) -> None:
    """The Project page of the default document (its rent-or-build line) and of a few-hours DPO job (its what-if
    table), en and zh, once the project's answer is in."""
    import time

    from gpuplanner.i18n import LanguageManager, ensure_cjk_font
    from gpuplanner.ui.main_window import PAGE_KEYS

    app = qt_app()
    ensure_cjk_font()
    lm = LanguageManager(app)
    out.mkdir(parents=True, exist_ok=True)
    dpo = ROOT / "tests" / "data" / "examples_fixed" / "8b-dpo-full-8xh100-zero3.json"
    for lang in ("en", "zh_CN"):
        sfx = "" if lang == "en" else "-zh_CN"
        for name, path in (("project-rent", None), ("project-whatif", dpo)):
            w = window(app, lm, lang)
            if path is not None:
                w.open_path(path, show_errors=False)
            w.go_to(PAGE_KEYS.index("project"))
            page = w.page("project")
            page.recompute()
            t0 = time.monotonic()
            while (page.busy() or page.result is None) and time.monotonic() - t0 < 300:
                spin(app, 0.2)
            spin(app, 0.8)
            save(page.advice if name == "project-rent" else page.whatif_box, out, f"{prefix}-{name}{sfx}")
            w.model.set_dirty(False)
            w.close()
    lm.install("en")


if __name__ == "__main__":
    if len(sys.argv) > 3 and sys.argv[3] == "project":
        project(Path(sys.argv[1]), sys.argv[2])
    else:
        main(Path(sys.argv[1]), sys.argv[2])
