"""Screenshots of the cost chart drawn by the light points item (issue 20, search on): the main window at 1280×800
with the plans found (grey markers, the Pareto front, the chosen plan starred, the status bar's plan count), the
chart alone, the chart while a new search runs ("updating…", searching in the status bar) and the chart exported as
a 1600-px PNG (markers and pens grown with the text), in English and Simplified Chinese.

Run: PYTHONPATH=. QT_QPA_PLATFORM=offscreen python scripts/screenshots_cost_chart.py [OUT_DIR]
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
        suffix = "" if lang == "en" else f"-{lang}"
        w = open_window(app, search=True)
        w.go_to(1)
        chart = w.live.cost_chart
        spin(app, 0.5)
        shots = [(out / f"cost-chart-window{suffix}.png", w), (out / f"cost-chart{suffix}.png", chart)]
        for p, widget in shots:
            widget.grab().save(str(p))
            print(p, "|", len(chart.plans), "plans")
        p = out / f"cost-chart-export{suffix}.png"
        chart.export_png(str(p), 1600)
        print(p)
        # an edit: the previous plans stay, marked "updating…", the status bar says the search runs
        w.model.set("training.seq_len", w.model.scenario.training.seq_len * 2)
        spin(app, 0.02)
        p = out / f"cost-chart-updating-window{suffix}.png"
        w.grab().save(str(p))
        print(p, "|", w.search.state)
        w.model.set_dirty(False)
        w.search.shutdown()
        w.estimator.shutdown()
        w.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots" / "issue20"))
