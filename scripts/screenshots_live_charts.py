"""Screenshots of the live panel's charts (issue 20: the scaling curves and the memory bars drawn by our own
light items, axes that stay put while typing): the Training page at 1280×800 in English and Simplified Chinese,
for the default scenario and for one whose current layout does not fit (red outline, a bar cut at the axis); and the
cost chart keeping the previous plans, marked as updating, while a new search runs; and the cost chart itself
(window, chart, PNG export, updating).

Run: PYTHONPATH=. QT_QPA_PLATFORM=offscreen python scripts/screenshots_live_charts.py [OUT_DIR]
(OUT_DIR defaults to docs/screenshots/issue20.)
"""

from __future__ import annotations

import sys
from pathlib import Path

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
        _edited(app, w, "data.tokens", w.model.scenario.data.tokens * 2, out / f"live-charts-updating{suffix}.png")
        w.close()
        _cost_chart(app, out, suffix)
    return 0


def _edited(app, w, field: str, value, path: Path) -> None:
    """Edit ``field`` and grab the window at once: the previous plans drawn, marked, while the new search runs."""
    from scripts._screens import spin

    w.model.set(field, value)
    spin(app, 0.03)
    w.grab().save(str(path))
    print(path, "|", w.search.state)
    w.model.set_dirty(False)
    w.search.shutdown()


def _cost_chart(app, out: Path, suffix: str) -> None:
    """The cost chart drawn by the light points item: the window with the plans found (the Pareto front, the chosen
    plan starred, the status bar's plan count), the chart alone, its 1600-px PNG export (markers and pens grown
    with the text), and the window just after an edit (the previous plans marked "updating…", the search running)."""
    from scripts._screens import open_window, spin

    w = open_window(app, search=True)
    w.go_to(1)
    chart = w.live.cost_chart
    spin(app, 0.5)
    for p, widget in ((out / f"cost-chart-window{suffix}.png", w), (out / f"cost-chart{suffix}.png", chart)):
        widget.grab().save(str(p))
        print(p, "|", len(chart.plans), "plans")
    p = out / f"cost-chart-export{suffix}.png"
    chart.export_png(str(p), 1600)
    print(p)
    _edited(app, w, "training.seq_len", w.model.scenario.training.seq_len * 2,
            out / f"cost-chart-updating-window{suffix}.png")
    w.estimator.shutdown()
    w.close()


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots" / "issue20"))
