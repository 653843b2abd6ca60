"""Screenshots of the Training page's ``training.fsdp_root_embedding`` switch (issue 35 round 6, uifields6) at
1280×800 in English and Simplified Chinese (offscreen): an 8B full fine-tune on torchtitan's FSDP2, the switch on;
the Time and budget page's price-source rows (constraints.region, price_kinds, converted_prices); the Plans page's
frameworks the search may choose (constraints.framework_candidates), the window and the menu alone.

Run: PYTHONPATH=. QT_QPA_PLATFORM=offscreen python scripts/screenshots_issue35_r6_uifields6.py [OUT_DIR]
(OUT_DIR defaults to docs/screenshots/issue35-r6-uifields6.)
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _screens import each_language, open_window, qt_app, spin  # noqa: E402


def _shot(app, w, out: Path, suffix: str) -> None:
    from PySide6.QtWidgets import QScrollArea

    from gpuplanner.ui.main_window import PAGE_KEYS

    assert w.open_path(ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json", show_errors=False)
    w.model.set("parallel.auto", False)
    w.model.set("training.framework", "fsdp")
    w.model.set("parallel.zero", 3)
    w.go_to(PAGE_KEYS.index("training"))
    page = w.page("training")
    field = page.advanced.fields["fsdp_root_embedding"]
    field.setChecked(True)
    spin(app, 0.4)
    scroll = page.findChild(QScrollArea)
    if scroll is not None:
        scroll.ensureWidgetVisible(field, 0, 200)
    spin(app, 0.6)
    w.grab().save(str(out / f"training-fsdp-root-embedding{suffix}.png"))
    w.model.set_dirty(False)


def _budget(app, w, out: Path, suffix: str) -> None:
    from PySide6.QtWidgets import QScrollArea

    from gpuplanner.ui.main_window import PAGE_KEYS

    w.go_to(PAGE_KEYS.index("budget"))
    page = w.page("budget")
    page.prices.fields["price_kinds"].checks["marketplace"].setChecked(True)
    spin(app, 0.4)
    scroll = page.findChild(QScrollArea)
    if scroll is not None:
        scroll.ensureWidgetVisible(page.prices.fields["converted_prices"], 0, 120)
    spin(app, 0.6)
    w.grab().save(str(out / f"budget-price-sources{suffix}.png"))
    w.model.set_dirty(False)


def _plans(app, w, out: Path, suffix: str) -> None:
    from gpuplanner.ui.main_window import PAGE_KEYS

    w.go_to(PAGE_KEYS.index("plans"))
    page = w.page("plans")
    page.search_frameworks.setChecked(True)
    f = page.framework_candidates
    for fid in ("deepspeed", "megatron"):
        f.checks[fid].setChecked(True)
    spin(app, 0.6)
    w.grab().save(str(out / f"plans-framework-candidates{suffix}.png"))
    menu = f.menu()
    menu.popup(f.mapToGlobal(f.rect().bottomLeft()))
    spin(app, 0.4)
    menu.grab().save(str(out / f"plans-framework-candidates-menu{suffix}.png"))
    menu.hide()
    w.model.set_dirty(False)


def main(out: Path) -> int:
    from gpuplanner.ui.app import install_message_filter

    install_message_filter()
    app = qt_app()
    out.mkdir(parents=True, exist_ok=True)
    for lang in each_language(app):
        suffix = "" if lang == "en" else f"-{lang}"
        w = open_window(app, search=False)
        _shot(app, w, out, suffix)
        _budget(app, w, out, suffix)
        _plans(app, w, out, suffix)
        w.close()
        print(lang, "ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots" / "issue35-r6-uifields6"))
