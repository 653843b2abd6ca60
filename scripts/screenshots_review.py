"""Screenshots of the review pass (issue 36, "go over the whole product once more"): every one of the nine pages
of examples/shenzhen-7b-domain-project.gpuplan at 1920×1080 (or another size), in English and Simplified Chinese
(offscreen).

Run: PYTHONPATH=. QT_QPA_PLATFORM=offscreen python scripts/screenshots_review.py [OUT_DIR] [WIDTHxHEIGHT]
(OUT_DIR defaults to docs/screenshots/review-1920, the size to 1920x1080.)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _screens import each_language, open_window, qt_app, spin  # noqa: E402

EXAMPLE = ROOT / "examples" / "shenzhen-7b-domain-project.gpuplan"


def main(out: Path, width: int = 1920, height: int = 1080) -> int:
    from gpuplanner.ui.app import install_message_filter
    from gpuplanner.ui.main_window import PAGE_KEYS

    install_message_filter()
    app = qt_app()
    out.mkdir(parents=True, exist_ok=True)
    for lang in each_language(app):
        w = open_window(app)
        w.resize(width, height)
        assert w.open_path(EXAMPLE, show_errors=False)
        t0 = time.monotonic()
        while w.search.state not in ("done", "failed") and time.monotonic() - t0 < 90:
            app.processEvents()
            time.sleep(0.01)
        spin(app, 0.5)
        for i, key in enumerate(PAGE_KEYS):
            w.go_to(i)
            spin(app, 0.6)
            w.grab().save(str(out / f"{i + 1}-{key}-{lang}.png"))
        w.model.set_dirty(False)
        w.close()
        print(lang, "ok")
    return 0


if __name__ == "__main__":
    size = sys.argv[2] if len(sys.argv) > 2 else "1920x1080"
    wd, ht = (int(v) for v in size.lower().split("x"))
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots" / "review-1920", wd, ht))
