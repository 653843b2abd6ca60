"""Screenshots of step 9 (vendor quotes) at 1280×800 in English and Chinese: the quote editor (translated units,
network and billing choices), and the comparison tab with the project's phases.

Usage: QT_QPA_PLATFORM=offscreen python scripts/screenshots_issue33.py [OUT_DIR]   (default docs/screenshots/issue33)
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _spin_until(app, cond, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents()
        if cond():
            return True
        time.sleep(0.02)
    return cond()


def main(out: Path) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _screens import each_language, qt_app

    app = qt_app()
    from gpuplanner.io.quote_sheets import read_quotes
    from gpuplanner.ui.main_window import MainWindow

    out.mkdir(parents=True, exist_ok=True)
    cases = {"a800": (ROOT / "examples" / "shenzhen-7b-domain-project.gpuplan",
                      sorted((ROOT / "examples" / "quotes").glob("*.csv"))),
             "rtx4090": (ROOT / "examples" / "7b-lora-1x4090.gpuplan",
                         sorted((ROOT / "examples" / "quotes" / "rtx4090").glob("*.csv")))}
    for lang in each_language(app):
        suffix = "en" if lang == "en" else lang
        for name, (plan, sheets) in cases.items():
            path = Path(tempfile.mkdtemp(prefix="gpuplanner-shots-")) / plan.name
            shutil.copy(plan, path)
            w = MainWindow(autosave=False, search_enabled=False)
            w.resize(1280, 800)
            w.show()
            assert w.open_path(path, show_errors=False)
            w.go_to(8)
            page = w.pages[8]
            page.set_quotes([q for s in sheets for q in read_quotes(s)])
            _spin_until(app, lambda: w.estimator.result is not None, 60)
            page.refresh_comparison()
            page.tabs.setCurrentIndex(0)
            _spin_until(app, lambda: False, 0.5)
            if name == "rtx4090":  # the terms chosen from lists: storage billing, setup billed, network
                from PySide6.QtWidgets import QAbstractItemView

                page.terms.scrollToItem(page.terms.item(7, 0), QAbstractItemView.ScrollHint.PositionAtTop)
                _spin_until(app, lambda: False, 0.3)
            p = out / f"quotes-editor-{name}-{suffix}.png"
            w.grab().save(str(p))
            print(p)
            page.tabs.setCurrentIndex(2)
            if name == "a800":  # the project's phases arrive off the GUI thread
                _spin_until(app, lambda: "AutoDL" in page.compare_view.toPlainText()
                            and ("phase" in page.compare_view.toPlainText() or "阶段" in page.compare_view.toPlainText()), 90)
            _spin_until(app, lambda: False, 0.5)
            if name == "a800":
                page.compare_view.verticalScrollBar().setValue(page.compare_view.verticalScrollBar().maximum())
            _spin_until(app, lambda: False, 0.3)
            p = out / f"quotes-compare-{name}-{suffix}.png"
            w.grab().save(str(p))
            print(p)
            w.model.set_dirty(False)
            w.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots" / "issue33"))
