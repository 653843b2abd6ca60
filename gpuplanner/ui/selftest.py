"""The window's self-test (``gpuplanner --self-test``): walk every page, render every chart, grab the first
window from the window system when asked (``GPUPLANNER_SELF_TEST_SCREENSHOT``), and report in one line per
problem. Used by packaging/build_linux.sh on the frozen app; kept apart from the window's shell."""

from __future__ import annotations

import os
import time

from PySide6.QtWidgets import QApplication

from gpuplanner.formatting import format_number

from .main_window import PAGE_KEYS, SELF_TEST_SCREENSHOT_ENV
from .offthread import end_worker_threads


def grab_screen(window, path: str, timeout_s: float = 10.0) -> list[str]:
    """Self-test (``GPUPLANNER_SELF_TEST_SCREENSHOT=FILE.png``): once the window system reports the first
    window exposed and it has painted, save what the screen shows, read back from the window system
    (``QScreen.grabWindow(0)``: on X11 the X server's root window), so a check outside the app can see
    that a real window appeared (packaging/build_linux.sh runs it under Xvfb with the xcb platform).
    Wayland lets no client read the screen; there the exposed window's own rendering is saved."""
    app = QApplication.instance()
    t0 = time.monotonic()
    while not (window.windowHandle() and window.windowHandle().isExposed()) and time.monotonic() - t0 < timeout_s:
        app.processEvents()
        time.sleep(0.01)
    if not (window.windowHandle() and window.windowHandle().isExposed()):
        return [f"the window was not exposed within {format_number(timeout_s)} s"]
    window.repaint()
    app.processEvents()
    pixmap, what = window.screen().grabWindow(0), "screen"
    if pixmap.isNull():  # Wayland gives clients no screen grab: the exposed window's own rendering
        pixmap, what = window.grab(), "window (no screen grab on this platform)"
    if pixmap.isNull() or not pixmap.save(path, "PNG"):
        return [f"could not save the screen grab to {path}"]
    print(f"self-test: {app.platformName()}: {what} {pixmap.width()}x{pixmap.height()} saved to {path}; "
          f"window at {window.x()},{window.y()} {window.width()}x{window.height()}")
    return []


def run_self_test(window, timeout_s: float = 60.0) -> int:
    """Walk every page with the example plan, render every chart, and report (0 = all good)."""
    import sys
    import traceback

    app = QApplication.instance()
    problems: list[str] = []
    old_hook = sys.excepthook

    def hook(etype, value, tb):  # an exception in a slot fails the self-test
        problems.append("".join(traceback.format_exception_only(etype, value)).strip())
        traceback.print_exception(etype, value, tb)

    sys.excepthook = hook
    app.processEvents()
    shot = os.environ.get(SELF_TEST_SCREENSHOT_ENV)
    if shot:
        problems += grab_screen(window, shot)
    for i in range(len(PAGE_KEYS)):
        window.go_to(i)
        app.processEvents()
        if window.grab().isNull():
            problems.append(f"page {PAGE_KEYS[i]} did not render")
    t0 = time.monotonic()
    while window.search.state == "running" and time.monotonic() - t0 < timeout_s:
        app.processEvents()
        time.sleep(0.01)
    if window.search.state != "done":
        problems.append(f"plan search state {window.search.state}: {window.search.error or ''}")
    elif window.search.outcome is not None and window.search.outcome.plans:
        window.page("plans").view.selectRow(0)
        app.processEvents()
    window.estimator.run_now()
    window.estimator.run_scaling_now()
    app.processEvents()
    from pyqtgraph.exporters import ImageExporter

    for chart in window.live.charts():
        img = ImageExporter(chart.plot.getPlotItem()).export(toBytes=True)
        if img is None or img.isNull():
            problems.append(f"{type(chart).__name__} did not render")
    res = window.estimator.result
    if res is None or res.evaluation is None:
        problems.append(f"no estimate: {res.error if res else ''}")
    window.search.shutdown()
    window.estimator.shutdown()
    end_worker_threads()
    sys.excepthook = old_hook
    for p in problems:
        print(f"self-test: {p}")
    if not problems:
        print("self-test: ok")
    return 1 if problems else 0
