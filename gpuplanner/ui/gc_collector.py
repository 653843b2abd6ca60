"""Python's cyclic garbage collection, run on the GUI thread only.

CPython runs a collection in whichever thread happens to allocate past the generation-0 threshold. In this
app that can be a worker thread (the scaling sweep, the search's link thread) and the garbage it frees can hold
QObjects: ``~QObject`` then runs on the worker, takes Qt's signal-slot lock and waits for the GIL, while the GUI
thread, holding the GIL, deletes a widget and waits for that lock — a deadlock (seen in CI: two threads in
``~QObject``, ``tests/ui/conftest.py``). So the app turns automatic collection off (``gc.disable()``) and a
timer on the GUI thread collects instead, with CPython's own rule: when more objects were allocated than
deallocated since the last collection than ``gc.get_threshold()[0]``, collect the oldest generation whose count
is over its threshold — the pattern of calibre's ``GarbageCollector`` (``src/calibre/gui2/main_window.py``),
from http://pydev.blogspot.com/2014/03/should-python-garbage-collector-be.html; the Qt side is
https://bugreports.qt.io/browse/PYSIDE-79. Reference counting still frees everything that is not in a cycle at
once, on any thread; only cycles wait for the timer (at most ``INTERVAL_MS``).
"""

from __future__ import annotations

import gc
import threading
import time

from PySide6.QtCore import QObject, QTimer

INTERVAL_MS = 1000


class MainThreadCollector(QObject):
    """Disables automatic collection and collects from a timer on the thread that creates it (the GUI's)."""

    def __init__(self, parent: QObject | None = None, interval_ms: int = INTERVAL_MS):
        super().__init__(parent)
        self.threshold = gc.get_threshold()
        self.was_enabled = gc.isenabled()
        self.collections = [0, 0, 0]          # how many collections of each generation this timer ran
        self.thread_id = threading.get_ident()
        self.last_thread_id: int | None = None
        self.longest_ms = 0.0                 # the longest collection so far (what it cost the GUI thread)
        gc.disable()
        self.timer = QTimer(self)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.check)
        self.timer.start()

    def check(self) -> int | None:
        """Collect the generation CPython itself would now; returns it (None: nothing to do)."""
        counts = gc.get_count()
        if counts[0] <= self.threshold[0]:
            return None
        gen = 0
        for g in (1, 2):
            if self.threshold[g] and counts[g] > self.threshold[g]:
                gen = g
        t0 = time.perf_counter()
        gc.collect(gen)
        self.longest_ms = max(self.longest_ms, (time.perf_counter() - t0) * 1000)
        self.collections[gen] += 1
        self.last_thread_id = threading.get_ident()
        return gen

    def stop(self) -> None:
        """Stop the timer and give collection back to the interpreter (as it was before)."""
        self.timer.stop()
        if self.was_enabled:
            gc.enable()


def install(app: QObject) -> MainThreadCollector:
    """Called once at start-up on the GUI thread; the collector lives as long as ``app``."""
    existing = getattr(app, "gc_collector", None)
    if isinstance(existing, MainThreadCollector):
        return existing
    collector = MainThreadCollector(app)
    app.gc_collector = collector
    return collector
