"""Shared helpers of the screenshot scripts (``scripts/screenshots_*.py``): let Qt run for a while, and open the
main window at 1280×800 and wait for its plan search."""

from __future__ import annotations

import time


def spin(app, seconds: float) -> None:
    """Process events for ``seconds`` (paints, timers, queued results)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)


def open_window(app, *, search: bool = True, settle_s: float = 0.3, timeout_s: float = 60.0):
    """A shown 1280×800 main window (no autosave); with ``search``, once the plan search has finished."""
    from gpuplanner.ui.main_window import MainWindow

    w = MainWindow(autosave=False, search_enabled=search)
    w.resize(1280, 800)
    w.show()
    t0 = time.monotonic()
    while search and w.search.state not in ("done", "failed") and time.monotonic() - t0 < timeout_s:
        app.processEvents()
        time.sleep(0.01)
    spin(app, settle_s)
    return w


def wait_search(app, w, timeout_s: float = 90.0) -> None:
    """Lets the window's plan search start (after opening a plan), waits up to ``timeout_s`` for it to finish, and
    lets the results paint."""
    t0 = time.monotonic()
    spin(app, 0.5)
    while w.search.state not in ("done", "failed") and time.monotonic() - t0 < timeout_s:
        app.processEvents()
        time.sleep(0.02)
    spin(app, 0.5)


def qt_app():
    """The running QApplication, or a new one (offscreen unless told otherwise, with settings and caches of its
    own: a screenshot never reads or writes the user's)."""
    import os
    import sys
    import tempfile

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ.setdefault("GPUPLANNER_CONFIG_DIR", tempfile.mkdtemp(prefix="gpuplanner-shots-"))
    os.environ.setdefault("GPUPLANNER_CACHE_DIR", tempfile.mkdtemp(prefix="gpuplanner-shots-cache-"))
    from PySide6.QtWidgets import QApplication

    return QApplication.instance() or QApplication(sys.argv[:1])


def each_language(app, langs: tuple[str, ...] = ("en", "zh_CN")):
    """Installs each of ``langs`` in turn (the bundled CJK font registered first) and yields it; English again
    at the end."""
    from gpuplanner.i18n import LanguageManager, ensure_cjk_font

    ensure_cjk_font()
    lm = LanguageManager(app)
    try:
        for lang in langs:
            lm.install(lang)
            yield lang
    finally:
        lm.install("en")


# --- the first-hour tour, shared by the round scripts (screenshots_issue35_r13_ux20/ux21, r14_ux22, r15_ux23) ---

#: what a new user types first: a full fine-tune of an 8B model on 2B tokens within a week
FIRST_TASK = {"model.preset": "llama-3.1-8b", "training.method": "full", "data.tokens": 2_000_000_000,
              "constraints.deadline_days": 7}


def _root():
    from pathlib import Path

    return Path(__file__).resolve().parents[1]


def grab(app, w, out, name: str, suffix: str, settle: float = 0.4) -> None:
    """Saves the window as ``OUT/NAME{suffix}.png`` after letting it paint for ``settle`` seconds."""
    spin(app, settle)
    w.grab().save(str(out / f"{name}{suffix}.png"))


def scroll_all(app, w, page, out, name: str, suffix: str, steps: int = 3) -> None:
    """The page's scroll area shown screen by screen (what a user scrolls through), then back to the top."""
    from PySide6.QtWidgets import QScrollArea

    area = page.findChild(QScrollArea)
    if area is None:
        return
    scroll_view(app, w, area, out, f"{name}-", suffix, steps, 60)
    area.verticalScrollBar().setValue(0)


def scroll_view(app, w, view, out, name: str, suffix: str, steps: int = 3, overlap: int = 40) -> None:
    """``view`` (any scroll area: the Plans details, the vendor comparison) scrolled a screen at a time (less
    ``overlap`` pixels), each screen saved as ``NAME{i}``."""
    sb = view.verticalScrollBar()
    for i in range(1, steps + 1):
        if sb.value() >= sb.maximum():
            break
        sb.setValue(sb.value() + view.viewport().height() - overlap)
        grab(app, w, out, f"{name}{i}", suffix, 0.2)


def plans_page(app, w, out, suffix: str, name: str = "plans") -> None:
    """The Plans page, then its details scrolled through."""
    from gpuplanner.ui.main_window import PAGE_KEYS

    w.go_to(PAGE_KEYS.index("plans"))
    grab(app, w, out, name, suffix, 0.8)
    scroll_view(app, w, w.page("plans").details, out, f"{name}-details", suffix)


def quotes_page(app, w, out, suffix: str) -> None:
    """The Quotes page empty, then with the example vendor sheets: the table, the hard questions, the comparison."""
    from gpuplanner.io.quote_sheets import read_quotes
    from gpuplanner.ui.main_window import PAGE_KEYS

    qp = w.page("quotes")
    w.go_to(PAGE_KEYS.index("quotes"))
    grab(app, w, out, "06-quotes-empty", suffix, 0.5)
    qp.set_quotes([q for f in sorted((_root() / "examples" / "quotes").glob("*.csv")) for q in read_quotes(f)])
    qp.refresh_comparison()
    grab(app, w, out, "06-quotes", suffix, 1.0)
    qp.tabs.setCurrentIndex(1)  # the hard questions
    grab(app, w, out, "06-quotes-questions", suffix, 0.3)
    qp.tabs.setCurrentIndex(2)  # the vendor comparison
    grab(app, w, out, "06-quotes-compare", suffix, 0.5)
    scroll_view(app, w, qp.compare_view, out, "06-quotes-compare", suffix)


def first_hour(app, out, suffix: str, task: dict | None = None) -> None:
    """The first screen (before and after its search), ``task`` typed in and each input page, Plans and its
    details, the Project page, the Quotes page, the Verify page."""
    from gpuplanner.ui.main_window import PAGE_KEYS

    w = open_window(app, search=False, settle_s=0.8)  # what the app shows before anything has run
    grab(app, w, out, "01-first-screen", suffix)
    w.close()
    w = open_window(app, search=True)
    grab(app, w, out, "02-first-screen-searched", suffix)
    errs = {k: w.model.set(k, v) for k, v in (task or FIRST_TASK).items()}
    print("task", suffix, {k: e for k, e in errs.items() if e})
    for i, key in enumerate(("model", "training", "data", "budget", "hardware")):
        w.go_to(PAGE_KEYS.index(key))
        grab(app, w, out, f"03-{i}-{key}", suffix)
        scroll_all(app, w, w.page(key), out, f"03-{i}-{key}", suffix, 2)
    wait_search(app, w, 240)
    plans_page(app, w, out, suffix, "04-plans")
    w.go_to(PAGE_KEYS.index("project"))
    grab(app, w, out, "05-project", suffix, 1.5)
    scroll_all(app, w, w.page("project"), out, "05-project", suffix, 2)
    quotes_page(app, w, out, suffix)
    w.go_to(PAGE_KEYS.index("verify"))
    grab(app, w, out, "07-verify", suffix)
    w.model.set_dirty(False)
    w.close()


def open_file(app, path, timeout_s: float = 240.0):
    """A new 1280×800 window with ``path`` opened and its plan search finished."""
    w = open_window(app, search=True)
    assert w.open_path(path, show_errors=False), path
    wait_search(app, w, timeout_s)
    return w


def examples(app, out, suffix: str, names=None) -> None:
    """Each example file opened (all of ``examples/`` unless ``names``): the window, its Plans page, and a project
    file's Project page."""
    from gpuplanner.ui.main_window import PAGE_KEYS

    ex = _root() / "examples"
    paths = [ex / n for n in names] if names else sorted(ex.glob("*.json")) + sorted(ex.glob("*.gpuplan"))
    for path in paths:
        w = open_file(app, path)
        stem = path.name.replace(".", "_")
        grab(app, w, out, f"10-{stem}-model", suffix)
        w.go_to(PAGE_KEYS.index("plans"))
        grab(app, w, out, f"10-{stem}-plans", suffix, 0.8)
        if path.suffix == ".gpuplan":
            w.go_to(PAGE_KEYS.index("project"))
            grab(app, w, out, f"10-{stem}-project", suffix, 1.5)
        w.model.set_dirty(False)
        w.close()


def run_parts(out, parts: dict, langs: tuple[str, ...] = ("en", "zh_CN")) -> int:
    """Runs each ``parts`` value (``fn(app, out, suffix)``) in each language, into ``out``; the script's main."""
    from gpuplanner.ui.app import install_message_filter

    install_message_filter()
    app = qt_app()
    out.mkdir(parents=True, exist_ok=True)
    for lang in each_language(app, langs):
        suffix = "" if lang == "en" else f"-{lang}"
        for fn in parts.values():
            fn(app, out, suffix)
        print(lang, "ok")
    return 0
