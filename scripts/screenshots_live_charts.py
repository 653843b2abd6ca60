"""Screenshots of the live panel's charts (issue 20: the scaling curves and the memory bars drawn by our own
light items, axes that stay put while typing): the Training page at 1280×800 in English and Simplified Chinese,
for the default scenario and for one whose current layout does not fit (red outline, a bar cut at the axis); and the
cost chart keeping the previous plans, marked as updating, while a new search runs.

Run: PYTHONPATH=. QT_QPA_PLATFORM=offscreen python scripts/screenshots_live_charts.py [OUT_DIR]
(OUT_DIR defaults to docs/screenshots/issue20.)
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
sys.path.insert(0, str(ROOT))


def main(out: Path) -> int:
    from scripts._screens import each_language, open_window, qt_app, spin

    app = qt_app()
    out.mkdir(parents=True, exist_ok=True)
    for lang in each_language(app):
        w = open_window(app, search=False)
        w.go_to(1)
        w.estimator.run_scaling_now()
        spin(app, 0.5)
        suffix = "" if lang == "en" else f"-{lang}"
        for name, seq in (("live-charts", None), ("live-charts-not-fitting", 32768)):
            if seq is not None:
                w.model.set("training.seq_len", seq)
                w.estimator.run_now()
                w.estimator.run_scaling_now()
                spin(app, 0.5)
            p = out / f"{name}{suffix}.png"
            w.grab().save(str(p))
            print(p)
        w.model.set_dirty(False)
        w.close()
        # with the plan search: an edit while the previous plans are drawn, marked until the new ones arrive
        w = open_window(app, search=True)
        w.go_to(2)
        w.live  # noqa: B018 (builds the live panel)
        spin(app, 0.5)
        w.model.set("data.tokens", w.model.scenario.data.tokens * 2)
        spin(app, 0.05)
        p = out / f"live-charts-updating{suffix}.png"
        w.grab().save(str(p))
        print(p, "|", w.search.state)
        w.model.set_dirty(False)
        w.search.shutdown()
        w.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots" / "issue20"))
