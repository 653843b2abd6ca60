"""The answer where it is given (issue 35 round 15, choice15), at 1280×800, English and Simplified Chinese
(offscreen): a new document's first screen before and after its search, and the GRPO example (a manual layout of 8 × H100
by the month, the search's #1 1 × H800 by the card-hour): the window with its live panel, the Plans page and the
Project page. What changed is in docs/notes/2026-12-07/issue-35-r15-choice15.md.

Run: PYTHONPATH=. QT_QPA_PLATFORM=offscreen GPUPLANNER_CACHE_DIR=/tmp/gpc-fresh \\
     python scripts/screenshots_issue35_r15_choice15.py [OUT_DIR] [first,grpo]
(OUT_DIR defaults to docs/screenshots/issue35-r15-choice15; the integrator regenerates screenshots.)
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _screens import grab, open_file, open_window, run_parts  # noqa: E402


def first(app, out, suffix: str) -> None:
    w = open_window(app, search=False, settle_s=0.8)  # what a new document shows before its search has run
    grab(app, w, out, "01-first-screen", suffix, 1.0)
    w.close()
    w = open_window(app, search=True)
    grab(app, w, out, "01-first-screen-searched", suffix, 1.0)
    w.model.set_dirty(False)
    w.close()


def grpo(app, out, suffix: str) -> None:
    from gpuplanner.ui.main_window import PAGE_KEYS

    w = open_file(app, ROOT / "tests" / "data" / "examples_fixed" / "7b-grpo-lora-8xh100-vllm.json")
    grab(app, w, out, "10-grpo-model", suffix, 1.0)
    w.go_to(PAGE_KEYS.index("plans"))
    grab(app, w, out, "10-grpo-plans", suffix, 1.0)
    w.go_to(PAGE_KEYS.index("project"))
    page = w.page("project")
    grab(app, w, out, "10-grpo-project", suffix, 2.0)
    page.scroll.ensureWidgetVisible(page.result_box, 0, 0)  # the project's total, the line under it, its table
    page.scroll.verticalScrollBar().setValue(page.result_box.y())
    grab(app, w, out, "10-grpo-project-result", suffix, 0.5)
    w.model.set_dirty(False)
    w.close()


if __name__ == "__main__":
    _parts = sys.argv[2] if len(sys.argv) > 2 else "first,grpo"
    raise SystemExit(run_parts(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs/screenshots/issue35-r15-choice15",
                               {k: f for k, f in (("first", first), ("grpo", grpo)) if k in _parts}))
