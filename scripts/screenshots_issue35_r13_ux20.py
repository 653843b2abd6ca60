"""A new user's first hour (issue 35 round 13, ux20), at 1280×800, English and Simplified Chinese (offscreen), on a
fresh cache and config directory: the first screen, entering a task page by page (Model, Training, Data, Budget,
Hardware), the Plans page and its details, the live panel's charts (the log axes), the Project page, the Quotes
page with the three example vendor sheets (the vendor comparison), and the window after opening each example.

Run: PYTHONPATH=. QT_QPA_PLATFORM=offscreen GPUPLANNER_CACHE_DIR=/tmp/gpc-fresh \\
     python scripts/screenshots_issue35_r13_ux20.py [OUT_DIR]
(OUT_DIR defaults to docs/screenshots/issue35-r13-ux20; the integrator regenerates screenshots.)
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _screens import examples, first_hour, run_parts  # noqa: E402

if __name__ == "__main__":
    _parts = sys.argv[2] if len(sys.argv) > 2 else "first,examples"
    raise SystemExit(run_parts(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs/screenshots/issue35-r13-ux20",
                               {k: f for k, f in (("first", first_hour), ("examples", examples)) if k in _parts}))
