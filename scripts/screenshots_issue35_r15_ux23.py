"""A new user's first hour (issue 35 round 15, ux23), at 1280×800, English and Simplified Chinese (offscreen), on a
fresh cache and config directory: the tour of ``scripts/_screens.first_hour`` (first screen, each input page, Plans
and its details, Project, Quotes with the three example sheets, Verify) and every example opened
(``_screens.examples``). What was mended is in docs/notes/2026-12-07/issue-35-r15-ux23.md.

Run: PYTHONPATH=. QT_QPA_PLATFORM=offscreen GPUPLANNER_CACHE_DIR=/tmp/gpc-fresh \\
     python scripts/screenshots_issue35_r15_ux23.py [OUT_DIR] [first,examples]
(OUT_DIR defaults to docs/screenshots/issue35-r15-ux23; the integrator regenerates screenshots.)
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _screens import examples, first_hour, run_parts  # noqa: E402

if __name__ == "__main__":
    _parts = sys.argv[2] if len(sys.argv) > 2 else "first,examples"
    raise SystemExit(run_parts(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs/screenshots/issue35-r15-ux23",
                               {k: f for k, f in (("first", first_hour), ("examples", examples)) if k in _parts}))
