"""A plan below one day in every view (issue 35 round 13, ux21), at 1280×800, English and Simplified Chinese
(offscreen): the live panel, the Plans page and its details, and the Project page of plans of 19.0 and 3.9 hours
(tests/data/examples_fixed/llama3-8b-full-8xh100-zero3.json, tests/data/examples_fixed/8b-dpo-full-8xh100-zero3.json), which read "0.79 calendar
days" / "0.16 calendar days" beside the Project page's hours before.

Run: PYTHONPATH=. QT_QPA_PLATFORM=offscreen GPUPLANNER_CACHE_DIR=/tmp/gpc-fresh \\
     python scripts/screenshots_issue35_r13_ux21.py [OUT_DIR]
(OUT_DIR defaults to docs/screenshots/issue35-r13-ux21; the integrator regenerates screenshots.)
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _screens import grab, open_file, run_parts  # noqa: E402

EXAMPLES = ("llama3-8b-full-8xh100-zero3.json", "8b-dpo-full-8xh100-zero3.json")


def shots(app, out: Path, suffix: str) -> None:
    from gpuplanner.ui.main_window import PAGE_KEYS

    for name in EXAMPLES:
        w = open_file(app, ROOT / "examples" / name)
        stem = name.split(".")[0]
        grab(app, w, out, f"{stem}-live", suffix, 0.8)
        w.go_to(PAGE_KEYS.index("plans"))
        p = w.page("plans")
        p.view.selectRow(0)
        grab(app, w, out, f"{stem}-plans", suffix, 0.8)
        sb = p.details.verticalScrollBar()
        sb.setValue(sb.value() + p.details.viewport().height() - 40)
        grab(app, w, out, f"{stem}-plans-details1", suffix, 0.3)
        w.go_to(PAGE_KEYS.index("project"))
        grab(app, w, out, f"{stem}-project", suffix, 1.5)
        w.model.set_dirty(False)
        w.close()


if __name__ == "__main__":
    raise SystemExit(run_parts(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs/screenshots/issue35-r13-ux21",
                               {"shots": shots}))
