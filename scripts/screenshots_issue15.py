"""Screenshots for issue 15 ("one formatter"): the places whose numbers moved onto ``gpuplanner.formatting`` —
the Plans table and the selected plan's details (memory, time, likely range, step-time shares, cost by rental
mode, rent or build), the Hardware page's ownership defaults and the Project page's totals — in English and
Simplified Chinese at 1280×800 (offscreen).

Run: PYTHONPATH=. QT_QPA_PLATFORM=offscreen python scripts/screenshots_issue15.py [OUT_DIR]
(OUT_DIR defaults to docs/screenshots/issue15.)
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("GPUPLANNER_CONFIG_DIR", tempfile.mkdtemp(prefix="gpuplanner-shots-"))
os.environ.setdefault("GPUPLANNER_CACHE_DIR", tempfile.mkdtemp(prefix="gpuplanner-shots-cache-"))

ROOT = Path(__file__).resolve().parents[1]


sys.path.insert(0, str(Path(__file__).resolve().parent))
from _screens import each_language, open_window, qt_app, spin  # noqa: E402


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else ROOT / "docs" / "screenshots" / "issue15"
    app = qt_app()
    for lang in each_language(app):
        d = out / lang
        d.mkdir(parents=True, exist_ok=True)
        w = open_window(app)
        w.go_to(5)
        page = w.page("plans")
        page.view.selectRow(0)
        spin(app, 0.3)
        w.grab().save(str(d / "plans-table.png"))
        bar = page.details.verticalScrollBar()
        for name, anchor in (("plans-memory-time", "rules"), ("plans-rent-or-build", "rent-or-build")):
            page.details.scrollToAnchor(anchor)
            spin(app, 0.2)
            if name == "plans-memory-time":  # just below the rules: the memory table and the time line
                bar.setValue(bar.value() + 160)
                spin(app, 0.2)
            w.grab().save(str(d / f"{name}.png"))
        w.go_to(4)
        hw = w.page("hardware")
        if hasattr(hw, "scroll") and hasattr(hw, "own_box"):
            hw.scroll.ensureWidgetVisible(hw.own_box, 0, 0)
            spin(app, 0.2)
            w.grab().save(str(d / "hardware-ownership.png"))
        w.go_to(7)
        pj = w.stack.currentWidget()
        if hasattr(pj, "scroll") and hasattr(pj, "total"):
            pj.scroll.ensureWidgetVisible(pj.total, 0, 200)
        spin(app, 0.3)
        w.grab().save(str(d / "project.png"))
        w.model.set_dirty(False)
        w.search.shutdown()
        w.close()
        w.deleteLater()
        spin(app, 0.1)
    print(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
