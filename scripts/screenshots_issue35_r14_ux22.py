"""A new user's first hour (issue 35 round 14, ux22), at 1280×800, English and Simplified Chinese (offscreen), on a
fresh cache and config directory: the first screen, entering a task page by page (Model, Training, Data, Budget,
Hardware), the Plans page and its details (the "Time" column beside each plan's headline), the Project page (spans
in days, never weeks), the Quotes page with the three example vendor sheets, the window after opening each example,
and a scenario file whose own layout does not fit (tests/data/ux20/first-task-as-given.json: its planning rules,
where "safe deadline and budget" read "passed" before).

Run: PYTHONPATH=. QT_QPA_PLATFORM=offscreen GPUPLANNER_CACHE_DIR=/tmp/gpc-fresh \\
     python scripts/screenshots_issue35_r14_ux22.py [OUT_DIR] [first,examples,nofit]
(OUT_DIR defaults to docs/screenshots/issue35-r14-ux22; the integrator regenerates screenshots.)
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _screens import examples, first_hour, grab, open_file, run_parts  # noqa: E402


def no_fit(app, out: Path, suffix: str) -> None:
    """A scenario file whose own layout does not fit: the live panel, the Plans details' planning rules."""
    from gpuplanner.ui.main_window import PAGE_KEYS

    w = open_file(app, ROOT / "tests" / "data" / "ux20" / "first-task-as-given.json")
    grab(app, w, out, "20-nofit-live", suffix, 0.8)
    w.go_to(PAGE_KEYS.index("plans"))
    grab(app, w, out, "20-nofit-plans", suffix, 0.8)
    w.model.set_dirty(False)
    w.close()


if __name__ == "__main__":
    _parts = sys.argv[2] if len(sys.argv) > 2 else "first,examples,nofit"
    raise SystemExit(run_parts(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs/screenshots/issue35-r14-ux22",
                               {k: f for k, f in (("first", first_hour), ("examples", examples), ("nofit", no_fit))
                                if k in _parts}))
