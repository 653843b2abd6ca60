"""Screenshots for issue 19 ("Chinese end to end, charts that read at a glance"): every wizard page in English
and Simplified Chinese at 1280×800 (offscreen), the Hardware page scrolled to the memory-against-GPU-count
chart, the Verify page before any import, and the PDF report's pages of each example in both languages.

Run: PYTHONPATH=. QT_QPA_PLATFORM=offscreen python scripts/screenshots_issue19.py [OUT_DIR] [--no-pdf]
(OUT_DIR defaults to docs/screenshots/issue19; the PDF pages need poppler's ``pdftoppm``.)
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("GPUPLANNER_CONFIG_DIR", tempfile.mkdtemp(prefix="gpuplanner-shots-"))

ROOT = Path(__file__).resolve().parents[1]
PDF_EXAMPLES = ("70b-cpt-64xh100.gpuplan", "7b-lora-1x4090.gpuplan")


def _spin(app, seconds: float) -> None:
    t0 = time.monotonic()
    while time.monotonic() - t0 < seconds:
        app.processEvents()
        time.sleep(0.01)


def pages(out: Path) -> None:
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(sys.argv[:1])
    from gpuplanner.i18n import LanguageManager, ensure_cjk_font
    from gpuplanner.ui.main_window import PAGE_KEYS, MainWindow

    ensure_cjk_font()
    lm = LanguageManager(app)
    for lang in ("en", "zh_CN"):
        lm.install(lang)
        d = out / lang
        d.mkdir(parents=True, exist_ok=True)
        w = MainWindow(autosave=False)
        w.resize(1280, 800)
        w.show()
        t0 = time.monotonic()
        while w.search.state not in ("done", "failed") and time.monotonic() - t0 < 60:
            app.processEvents()
            time.sleep(0.01)
        _spin(app, 0.3)
        for i in range(w.sidebar.count()):
            try:
                w.go_to(i)
            except Exception as err:  # noqa: BLE001 - a broken page is reported, the others still shot
                print(f"page {i + 1}: {type(err).__name__}: {err}", file=sys.stderr)
            page = w.stack.currentWidget()
            view = getattr(page, "view", None)
            if view is not None and hasattr(view, "selectRow") and view.model() is not None \
                    and view.model().rowCount():
                view.selectRow(0)
            _spin(app, 0.15)
            key = PAGE_KEYS[i] if i < len(PAGE_KEYS) else f"page{i + 1}"
            w.grab().save(str(d / f"{i + 1}-{key}.png"))
            chart = getattr(page, "count_chart", None)
            if chart is not None and hasattr(page, "scroll"):
                page.scroll.ensureWidgetVisible(chart, 0, 0)
                _spin(app, 0.15)
                w.grab().save(str(d / f"{i + 1}-{key}-memory-by-count.png"))
                page.scroll.verticalScrollBar().setValue(0)
        w.model.set_dirty(False)
        w.search.shutdown()
        w.close()
        w.deleteLater()
        _spin(app, 0.1)


def pdfs(out: Path) -> None:
    if not shutil.which("pdftoppm"):
        print("pdftoppm not found: PDF pages skipped", file=sys.stderr)
        return
    for lang in ("en", "zh_CN"):
        d = out / lang / "report"
        d.mkdir(parents=True, exist_ok=True)
        for ex in PDF_EXAMPLES:
            stem = Path(ex).stem
            pdf = d / f"{stem}.pdf"
            env = dict(os.environ, PYTHONPATH=str(ROOT))
            subprocess.run([sys.executable, "-m", "gpuplanner", "report", str(ROOT / "examples" / ex), "-o", str(pdf),
                            "--lang", lang], check=True, env=env)
            subprocess.run(["pdftoppm", "-r", "70", "-png", str(pdf), str(d / stem)], check=True)
            pdf.unlink()


def main(argv: list[str]) -> int:
    args = [a for a in argv if not a.startswith("--")]
    out = Path(args[0]) if args else ROOT / "docs" / "screenshots" / "issue19"
    pages(out)
    if "--no-pdf" not in argv:
        pdfs(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
