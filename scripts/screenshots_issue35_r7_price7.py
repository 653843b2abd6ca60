"""Screenshots of issue 35 round 7's price kinds at 1280×800 in English and Simplified Chinese (offscreen): the
Time and budget page's rental mode (``constraints.rental_mode``) and the Plans page on the qwen3 MoE example, its
plan details scrolled to the cost by rental mode with the spot line beside the on-demand price.

Run: PYTHONPATH=. QT_QPA_PLATFORM=offscreen python scripts/screenshots_issue35_r7_price7.py [OUT_DIR]
(OUT_DIR defaults to docs/screenshots/issue35-r7-price7.)
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _screens import each_language, open_window, qt_app, spin, wait_search  # noqa: E402


def main(out: Path) -> int:
    from gpuplanner.ui.app import install_message_filter
    from gpuplanner.ui.main_window import PAGE_KEYS

    install_message_filter()
    app = qt_app()
    out.mkdir(parents=True, exist_ok=True)
    for lang in each_language(app):
        suffix = "" if lang == "en" else f"-{lang}"
        w = open_window(app, search=True)
        w.open_path(ROOT / "examples" / "qwen3-moe-full-16xh100.gpuplan", show_errors=False)
        wait_search(app, w)
        w.go_to(PAGE_KEYS.index("budget"))
        page = w.page("budget")
        page.rental_mode.showPopup()
        spin(app, 0.4)
        w.grab().save(str(out / f"budget-rental-mode{suffix}.png"))
        page.rental_mode.hidePopup()
        w.go_to(PAGE_KEYS.index("plans"))
        plans = w.page("plans")
        rows = plans.table_model.rowCount()
        pick = next((i for i in range(rows) if plans.table_model.plans[i].plan.gpu == "h200-sxm-141gb"), 0)
        src = plans.proxy.mapFromSource(plans.table_model.index(pick, 0))
        plans.view.selectRow(src.row())
        spin(app, 0.5)
        plans.details.scrollToAnchor("cost")
        spin(app, 0.3)
        w.grab().save(str(out / f"plans-spot-beside{suffix}.png"))
        w.model.set_dirty(False)
        w.close()
        print(lang, "ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots" / "issue35-r7-price7"))
