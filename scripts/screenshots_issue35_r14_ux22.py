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

from _screens import each_language, open_window, qt_app, spin, wait_search  # noqa: E402

#: what a new user types first: a full fine-tune of an 8B model on 2B tokens within a week
TASK = {"model.preset": "llama-3.1-8b", "training.method": "full", "data.tokens": 2_000_000_000,
        "constraints.deadline_days": 7}
QUOTES = sorted((ROOT / "examples" / "quotes").glob("*.csv"))


def _grab(app, w, out: Path, name: str, suffix: str, settle: float = 0.4) -> None:
    spin(app, settle)
    w.grab().save(str(out / f"{name}{suffix}.png"))


def _scroll_all(app, w, page, out: Path, name: str, suffix: str, steps: int = 3) -> None:
    """The page's scroll area shown screen by screen (what a user scrolls through)."""
    from PySide6.QtWidgets import QScrollArea

    area = page.findChild(QScrollArea)
    if area is None:
        return
    sb = area.verticalScrollBar()
    for i in range(1, steps + 1):
        if sb.value() >= sb.maximum():
            break
        sb.setValue(sb.value() + area.viewport().height() - 60)
        _grab(app, w, out, f"{name}-{i}", suffix, 0.2)
    sb.setValue(0)


def _plans(app, w, out: Path, suffix: str, name: str = "plans") -> None:
    from gpuplanner.ui.main_window import PAGE_KEYS

    w.go_to(PAGE_KEYS.index("plans"))
    p = w.page("plans")
    _grab(app, w, out, name, suffix, 0.8)
    sb = p.details.verticalScrollBar()
    for i in range(1, 4):
        if sb.value() >= sb.maximum():
            break
        sb.setValue(sb.value() + p.details.viewport().height() - 40)
        _grab(app, w, out, f"{name}-details{i}", suffix, 0.2)


def _first_hour(app, out: Path, suffix: str) -> None:
    from gpuplanner.io.quote_sheets import read_quotes
    from gpuplanner.ui.main_window import PAGE_KEYS

    w = open_window(app, search=False, settle_s=0.8)  # what the app shows before anything has run
    _grab(app, w, out, "01-first-screen", suffix)
    w.close()
    w = open_window(app, search=True)
    _grab(app, w, out, "02-first-screen-searched", suffix)
    errs = {k: w.model.set(k, v) for k, v in TASK.items()}
    print("task", suffix, {k: e for k, e in errs.items() if e})
    for i, key in enumerate(("model", "training", "data", "budget", "hardware")):
        w.go_to(PAGE_KEYS.index(key))
        _grab(app, w, out, f"03-{i}-{key}", suffix)
        _scroll_all(app, w, w.page(key), out, f"03-{i}-{key}", suffix, 2)
    wait_search(app, w, 240)
    _plans(app, w, out, suffix, "04-plans")
    w.go_to(PAGE_KEYS.index("project"))
    _grab(app, w, out, "05-project", suffix, 1.5)
    _scroll_all(app, w, w.page("project"), out, "05-project", suffix, 2)
    qp = w.page("quotes")
    w.go_to(PAGE_KEYS.index("quotes"))
    _grab(app, w, out, "06-quotes-empty", suffix, 0.5)
    qp.set_quotes([q for f in QUOTES for q in read_quotes(f)])
    qp.refresh_comparison()
    _grab(app, w, out, "06-quotes", suffix, 1.0)
    qp.tabs.setCurrentIndex(1)  # the hard questions
    _grab(app, w, out, "06-quotes-questions", suffix, 0.3)
    qp.tabs.setCurrentIndex(2)  # the vendor comparison
    _grab(app, w, out, "06-quotes-compare", suffix, 0.5)
    sb = qp.compare_view.verticalScrollBar()
    for i in range(1, 4):
        if sb.value() >= sb.maximum():
            break
        sb.setValue(sb.value() + qp.compare_view.viewport().height() - 40)
        _grab(app, w, out, f"06-quotes-compare{i}", suffix, 0.2)
    w.go_to(PAGE_KEYS.index("verify"))
    _grab(app, w, out, "07-verify", suffix)
    w.model.set_dirty(False)
    w.close()


def _examples(app, out: Path, suffix: str) -> None:
    from gpuplanner.ui.main_window import PAGE_KEYS

    for path in sorted((ROOT / "examples").glob("*.json")) + sorted((ROOT / "examples").glob("*.gpuplan")):
        w = open_window(app, search=True)
        assert w.open_path(path, show_errors=False), path
        wait_search(app, w, 240)
        stem = path.name.replace(".", "_")
        _grab(app, w, out, f"10-{stem}-model", suffix)
        w.go_to(PAGE_KEYS.index("plans"))
        _grab(app, w, out, f"10-{stem}-plans", suffix, 0.8)
        if path.suffix == ".gpuplan":
            w.go_to(PAGE_KEYS.index("project"))
            _grab(app, w, out, f"10-{stem}-project", suffix, 1.5)
        w.model.set_dirty(False)
        w.close()


def _no_fit(app, out: Path, suffix: str) -> None:
    """A scenario file whose own layout does not fit: the live panel, the Plans details' planning rules."""
    from gpuplanner.ui.main_window import PAGE_KEYS

    w = open_window(app, search=True)
    assert w.open_path(ROOT / "tests" / "data" / "ux20" / "first-task-as-given.json", show_errors=False)
    wait_search(app, w, 240)
    _grab(app, w, out, "20-nofit-live", suffix, 0.8)
    w.go_to(PAGE_KEYS.index("plans"))
    _grab(app, w, out, "20-nofit-plans", suffix, 0.8)
    w.model.set_dirty(False)
    w.close()


def main(out: Path, parts: str = "first,examples,nofit") -> int:
    from gpuplanner.ui.app import install_message_filter

    install_message_filter()
    app = qt_app()
    out.mkdir(parents=True, exist_ok=True)
    for lang in each_language(app):
        suffix = "" if lang == "en" else f"-{lang}"
        if "first" in parts:
            _first_hour(app, out, suffix)
        if "examples" in parts:
            _examples(app, out, suffix)
        if "nofit" in parts:
            _no_fit(app, out, suffix)
        print(lang, "ok")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs/screenshots/issue35-r14-ux22",
                          sys.argv[2] if len(sys.argv) > 2 else "first,examples,nofit"))
