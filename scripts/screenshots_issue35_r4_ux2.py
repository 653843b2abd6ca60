"""Screenshots of the issue 35 round-4 "first hour" pass (ux2): every example in examples/ opened in turn, every
page of the wizard, at 1280×800, in English and Simplified Chinese (offscreen).

Run: PYTHONPATH=. QT_QPA_PLATFORM=offscreen python scripts/screenshots_issue35_r4_ux2.py [OUT_DIR] [--all]
(OUT_DIR defaults to docs/screenshots/issue35-r4-ux2.) Without --all: every page of the starting document and
the Plans page of every example (40 images); with --all, every page of every example (about 200 images, for
looking at, not for the repository).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _screens import each_language, open_window, qt_app, spin  # noqa: E402

EXAMPLES = sorted(p for p in (ROOT / "examples").iterdir() if p.suffix in (".json", ".gpuplan"))
#: the examples whose every page is shot without --all
EVERY_PAGE: tuple[str, ...] = ()


def _wait_search(app, w, seconds: float = 120.0) -> None:
    import time

    t0 = time.monotonic()
    spin(app, 0.3)
    while w.search.state not in ("done", "failed") and time.monotonic() - t0 < seconds:
        app.processEvents()
        time.sleep(0.01)
    spin(app, 0.5)


def _shoot_pages(app, w, out: Path, stem: str, suffix: str, pages) -> None:
    from gpuplanner.ui.main_window import PAGE_KEYS

    for i, key in enumerate(PAGE_KEYS):
        if key not in pages:
            continue
        w.go_to(i)
        if key == "plans":
            page = w.page("plans")
            if page.table_model.rowCount() > 0:
                page.view.selectRow(0)
        spin(app, 0.6)
        w.grab().save(str(out / f"{stem}-{i + 1}-{key}{suffix}.png"))


def _extra_shots(app, w, out: Path, suffix: str) -> None:
    """The round's two fixes seen in the app: the Plans details' step-time rows (formatting.breakdown_rows) of
    the Mixtral EP8 plan, and a number field refusing "abc" (in the UI language)."""
    from PySide6.QtTest import QTest

    from gpuplanner.ui.main_window import PAGE_KEYS

    assert w.open_path(ROOT / "examples" / "mixtral-8x7b-ep8-16xa800.json", show_errors=False)
    _wait_search(app, w)
    w.go_to(PAGE_KEYS.index("plans"))
    page = w.page("plans")
    if page.table_model.rowCount() > 0:
        page.view.selectRow(0)
    spin(app, 0.6)
    page.details.find(page.tr("Step time breakdown"))
    bar = page.details.verticalScrollBar()  # the heading at the top, its rows under it
    bar.setValue(bar.value() + page.details.cursorRect().top() - 8)
    spin(app, 0.3)
    w.grab().save(str(out / f"plans-step-time-breakdown{suffix}.png"))
    w.go_to(PAGE_KEYS.index("training"))
    training = w.page("training")
    edit = training.findChild(__import__("gpuplanner.ui.fields", fromlist=["BoundEdit"]).BoundEdit)
    spin(app, 0.3)
    edit.setFocus()
    edit.selectAll()
    QTest.keyClicks(edit, "abc")
    spin(app, 0.5)
    w.grab().save(str(out / f"training-field-refused{suffix}.png"))
    edit.setText("")
    w.model.set_dirty(False)


def main(out: Path, every: bool) -> int:
    from gpuplanner.ui.app import install_message_filter
    from gpuplanner.ui.main_window import PAGE_KEYS

    install_message_filter()
    app = qt_app()
    out.mkdir(parents=True, exist_ok=True)
    for lang in each_language(app):
        suffix = "" if lang == "en" else f"-{lang}"
        w = open_window(app)
        _shoot_pages(app, w, out, "start", suffix, PAGE_KEYS)
        for path in EXAMPLES:
            assert w.open_path(path, show_errors=False), path
            _wait_search(app, w)
            pages = PAGE_KEYS if (every or path.name in EVERY_PAGE) else ("plans",)
            _shoot_pages(app, w, out, path.stem, suffix, pages)
            w.model.set_dirty(False)
        _extra_shots(app, w, out, suffix)
        w.model.set_dirty(False)
        w.close()
        print(lang, "ok")
    return 0


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--all"]
    sys.exit(main(Path(args[0]) if args else ROOT / "docs" / "screenshots" / "issue35-r4-ux2", "--all" in sys.argv))
