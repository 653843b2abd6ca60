"""Capture every wizard page in Simplified Chinese at 1280×800 (offscreen) into this folder.

Run: QT_QPA_PLATFORM=offscreen python docs/screenshots/zh_CN/capture.py [lang]
The window is the default scenario after the plan search; on the Plans page the top plan is selected.
The report pages in ``report/`` come from
``gpuplanner report examples/70b-cpt-64xh100.gpuplan -o r.pdf --lang zh_CN`` and ``pdftoppm -r 60 -png``.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("GPUPLANNER_CONFIG_DIR", tempfile.mkdtemp(prefix="gpuplanner-shots-"))

OUT = Path(__file__).resolve().parent


def main(lang: str = "zh_CN") -> int:
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(sys.argv[:1])
    from gpuplanner.i18n import LanguageManager
    from gpuplanner.ui.main_window import PAGE_KEYS, MainWindow

    lm = LanguageManager(app)
    if not lm.install(lang):
        print(f"no translation for {lang}", file=sys.stderr)
        return 1
    w = MainWindow(autosave=False)
    w.resize(1280, 800)
    w.show()
    t0 = time.monotonic()
    while w.search.state not in ("done", "failed") and time.monotonic() - t0 < 60:
        app.processEvents()
        time.sleep(0.01)
    out = OUT if lang == "zh_CN" else OUT.parent / lang
    out.mkdir(parents=True, exist_ok=True)
    for i in range(w.sidebar.count()):
        w.go_to(i)
        page = w.stack.currentWidget()
        view = getattr(page, "view", None)
        if view is not None and hasattr(view, "selectRow") and view.model() is not None and view.model().rowCount():
            view.selectRow(0)
        for _ in range(5):
            app.processEvents()
            time.sleep(0.02)
        key = PAGE_KEYS[i] if i < len(PAGE_KEYS) else f"page{i + 1}"
        path = out / f"{i + 1}-{key}.png"
        w.grab().save(str(path))
        print(path)
    w.search.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(*sys.argv[1:]))
