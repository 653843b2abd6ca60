"""Open a plan file in the running app (offscreen): GUI-thread CPU and wall time from ``open_path`` until the
memory chart is updated, the scaling sweep is done and the plan search has finished (its plans in the cost chart).

    python bench/bench_open.py RUNS FILE [FILE ...]     (run from the source tree to time; QT_QPA_PLATFORM=offscreen)

The window is built once (search on, its search process started); then each round opens every FILE in turn and
waits until the app is idle again. Prints, per file, the median GUI-thread CPU (``time.thread_time``: what the
open costs the event loop) and the median wall time until everything is updated. Issue 35 round 6 (the app opens a
plan file through ``app.answer.scenario_to_open``); results in ``bench/results/perf-r6-2026-12-06.md``.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def _isolate() -> None:
    """Settings, autosave and caches in a temporary folder (the user's own are not read or written)."""
    tmp = Path(tempfile.mkdtemp(prefix="gpuplanner-bench-open-"))
    for k in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "GPUPLANNER_CONFIG_DIR", "GPUPLANNER_DATA_DIR"):
        os.environ[k] = str(tmp / k.lower())


def main() -> None:
    _isolate()
    import gpuplanner.ui.app  # noqa: F401  (the app's own import order: core before Qt)
    from PySide6.QtWidgets import QApplication
    from gpuplanner.ui.main_window import MainWindow
    files = [Path(f) for f in sys.argv[2:]]
    runs = int(sys.argv[1])
    app = QApplication(sys.argv[:1])
    w = MainWindow(autosave=False, search_enabled=True)
    w.show(); app.processEvents()
    seen = {"search": 0}
    w.search.finished.connect(lambda _o: seen.__setitem__("search", seen["search"] + 1))
    w.search.failed.connect(lambda _o: seen.__setitem__("search", seen["search"] + 1))
    busy = getattr(w.estimator, "scaling_busy", lambda: False)
    def settle():
        t = time.perf_counter()
        while (busy() or w.estimator._scaling_timer.isActive() or w.search.state == "running") and time.perf_counter() - t < 60:
            app.processEvents(); time.sleep(0.002)
        for _ in range(3): app.processEvents()
    settle()
    res = {f.name: ([], []) for f in files}
    for i in range(runs):
        for f in files:
            settle()
            live = w.live
            chart = live.memory_chart if live is not None else None
            before = chart._last if chart is not None else None
            se0 = seen["search"]
            c0, t0 = time.thread_time(), time.perf_counter()
            ok = w.open_path(f, show_errors=False)
            assert ok
            t = time.perf_counter()
            while time.perf_counter() - t < 60:
                app.processEvents()
                chart = w.live.memory_chart if w.live is not None else None
                if chart is not None and chart._last is not before and seen["search"] > se0 and not busy() \
                        and not w.estimator._scaling_timer.isActive():
                    break
                time.sleep(0.001)
            app.sendPostedEvents(); app.processEvents()
            res[f.name][0].append((time.thread_time() - c0) * 1000)
            res[f.name][1].append((time.perf_counter() - t0) * 1000)
    w.search.shutdown()
    if hasattr(w.estimator, "shutdown"): w.estimator.shutdown()
    for name, (cpu, wall) in res.items():
        print(f"open {name}: GUI-thread CPU median {statistics.median(cpu):.1f} ms, wall median {statistics.median(wall):.1f} ms over {len(cpu)} (load {os.getloadavg()[0]:.1f})")

if __name__ == "__main__":
    main()
