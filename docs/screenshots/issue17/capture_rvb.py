"""Screenshots for issue 17 at 1280×800 in English and Simplified Chinese: rent vs build on the Plans page
(renting next to the five parts of building and the break-even utilisation) and the Hardware page's "Owning
instead of renting" inputs; the Plans page explaining #1 (70B, a month, no framework given) and a failing
planning rule (70B on RTX 4090 only).

Run: QT_QPA_PLATFORM=offscreen python docs/screenshots/issue17/capture_rvb.py
Scenario: ``rent-vs-build-8b.json`` here (Llama 3 8B, 50B tokens on H100; a year with 20 jobs like it).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("GPUPLANNER_CONFIG_DIR", tempfile.mkdtemp(prefix="gpuplanner-shots-"))

HERE = Path(__file__).resolve().parent


def _settle(app, w, seconds=60.0):
    t0 = time.monotonic()
    while w.search.state not in ("done", "failed") and time.monotonic() - t0 < seconds:
        app.processEvents()
        time.sleep(0.01)
    for _ in range(10):
        app.processEvents()
        time.sleep(0.02)


def shoot(lang: str, scenario: Path, out: Path, scroll_details: int = 0) -> None:
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(sys.argv[:1])
    from gpuplanner.i18n import LanguageManager
    from gpuplanner.ui.main_window import PAGE_KEYS, MainWindow

    lm = LanguageManager(app)
    if lang != "en":
        lm.install(lang)
    else:
        lm.install("en") if hasattr(lm, "install") else None
    w = MainWindow(autosave=False)
    w.resize(1280, 800)
    w.show()
    w.open_path(scenario, show_errors=False)
    _settle(app, w)
    suffix = "" if lang == "en" else f"-{lang}"
    w.go_to(PAGE_KEYS.index("plans"))
    page = w.stack.currentWidget()
    if page.view.model() is not None and page.view.model().rowCount():
        page.view.selectRow(0)
    _settle(app, w, 1)
    page.details.scrollToAnchor("rent-or-build")
    _settle(app, w, 1)
    w.grab().save(str(out / f"plans-rent-vs-build{suffix}.png"))
    w.go_to(PAGE_KEYS.index("hardware"))
    hw = w.stack.currentWidget()
    hw.scroll.ensureWidgetVisible(hw.own_box)
    _settle(app, w, 1)
    w.grab().save(str(out / f"hardware-ownership{suffix}.png"))
    w.search.shutdown()
    w.model.set_dirty(False)
    w.close()


def shoot_plans(lang: str, scenario: Path, out_name: str, anchor: str | None) -> None:
    """The Plans page with the top plan selected; the details scrolled to ``anchor`` (None: the top, where
    the details say why #1 beat #2)."""
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(sys.argv[:1])
    from gpuplanner.i18n import LanguageManager
    from gpuplanner.ui.main_window import PAGE_KEYS, MainWindow

    LanguageManager(app).install(lang)
    w = MainWindow(autosave=False)
    w.resize(1280, 800)
    w.show()
    w.open_path(scenario, show_errors=False)
    _settle(app, w, 120)
    w.go_to(PAGE_KEYS.index("plans"))
    page = w.stack.currentWidget()
    if page.view.model() is not None and page.view.model().rowCount():
        page.view.selectRow(0)
    _settle(app, w, 1)
    if anchor:
        page.details.scrollToAnchor(anchor)
    _settle(app, w, 1)
    suffix = "" if lang == "en" else f"-{lang}"
    w.grab().save(str(HERE / f"{out_name}{suffix}.png"))
    w.search.shutdown()
    w.model.set_dirty(False)
    w.close()


if __name__ == "__main__":
    langs = sys.argv[1:] or ["en"]
    for lang in langs:
        shoot(lang, HERE / "rent-vs-build-8b.json", HERE)
        shoot_plans(lang, HERE / "70b-month-no-framework.json", "plans-70b-framework-search", None)
        shoot_plans(lang, HERE / "70b-on-4090-only.json", "plans-failing-rules", "rules")
