"""UI benchmarks and screenshots (offscreen).

    python bench/bench_ui.py                 # edit->redraw latency and cold start, medians
    python bench/bench_ui.py --screenshots docs/screenshots

* Edit -> redraw (the old, partial figure): type a new sequence length into the Training page (the
  field's ``textEdited`` path, as a keystroke does) and time until the memory chart has been updated and
  repainted, with the plan search off. Target: <= 50 ms.
* Whole keystroke (``--whole``): the same keystroke, timed until *every* chart is updated and painted — the
  memory chart (the estimate), the scaling chart (the sweep: a worker thread since issue "Fast at any
  size") and, with the search on, the cost chart (the plan search on its worker thread, then the Plans
  table and cost chart refresh; ``--plans-page``: also with the Plans page built, as after a visit to it).
  Reported: the GUI thread's CPU time over that span (``time.thread_time``
  on the GUI thread: what typing costs the event loop; the workers' time is not in it) and the wall time
  until everything is updated, each with the search off and on. Target: GUI-thread time <= 25 ms median.
* Heartbeat (``--heartbeat``): a 1-ms timer on the GUI thread while a search of ~11 M candidates (Mixtral
  8x7B, framework searched, ``max_gpus`` 4,096) runs on the worker; the longest gap between ticks.
  Target: never > 50 ms.
* Cold start: a fresh interpreter runs ``gpuplanner`` up to the first painted window (``--first-window``
  mode below); wall time from process start. Target: <= 1 s.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _isolate() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="gpuplanner-bench-"))
    for k in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "GPUPLANNER_CONFIG_DIR", "GPUPLANNER_DATA_DIR"):
        os.environ[k] = str(tmp / k.lower())


def first_window() -> None:
    """Child mode for the cold-start measurement: wall time from process start until the main window's
    first paint, and until the charts are built and painted; plus this process's CPU time for each."""
    t0 = float(os.environ["GPUPLANNER_T0"])
    import gpuplanner.ui.app  # noqa: F401  (the app's own import order: core before Qt)
    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtWidgets import QApplication

    from gpuplanner.ui.main_window import MainWindow

    marks = {}

    class FirstPaint(QObject):
        def eventFilter(self, obj, ev):  # noqa: N802
            if ev.type() == QEvent.Type.Paint and "first" not in marks:
                marks["first"] = (time.time() - t0, time.process_time())
            return False

    app = QApplication(sys.argv[:1])
    w = MainWindow(autosave=False)
    w.centralWidget().installEventFilter(FirstPaint(w))
    w.show()
    while "first" not in marks:
        app.processEvents()
    while w._live is None:                    # the charts are built right after the first paint
        app.processEvents()
    app.processEvents()
    w.grab()
    charts = (time.time() - t0, time.process_time())
    print(f"{marks['first'][0]:.4f} {charts[0]:.4f} {marks['first'][1]:.4f} {charts[1]:.4f}")
    w.search.shutdown()


def cold_start(runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        env = dict(os.environ, GPUPLANNER_T0=repr(time.time()))
        res = subprocess.run([sys.executable, __file__, "--first-window"], env=env, capture_output=True, text=True,
                             timeout=120)
        out.append(tuple(float(x) for x in res.stdout.strip().splitlines()[-1].split()))
    return out


def edit_latency(runs: int) -> list[float]:
    from PySide6.QtWidgets import QApplication

    from gpuplanner.ui.main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    w = MainWindow(autosave=False, search_enabled=False)
    w.show()
    w.go_to(1)
    app.processEvents()
    page = w.page("training")
    idx = page.auto.findData(False)                   # manual layout: the edit goes straight to the charts
    page.auto.setCurrentIndex(idx)
    page.auto.activated.emit(idx)
    chart = w.live.memory_chart
    times = []
    values = [1024, 2048, 4096, 8192]
    page.seq_len.setFocus()
    for i in range(runs):
        v = values[i % len(values)]
        # idle 150 ms between keystrokes (a fast typist), letting the 30-ms scaling timer run
        t_idle = time.perf_counter()
        while time.perf_counter() - t_idle < 0.15:
            app.processEvents()
        before = chart._last
        t0 = time.perf_counter()
        page.seq_len.setText(str(v))
        page.seq_len.textEdited.emit(str(v))        # what a keystroke does
        while chart._last is before:                 # the 0-ms timer re-estimates, the chart updates
            app.processEvents()
        w.live.memory_chart.plot.repaint()           # and the chart is painted
        times.append((time.perf_counter() - t0) * 1000)
        assert chart.data["total"].size
    w.search.shutdown()
    return times


MIXTRAL_4096 = ROOT / "examples" / "mixtral-8x7b-ep8-16xa800.json"


def whole_keystroke(runs: int, search_on: bool, plans_page: bool = False) -> tuple[list[float], list[float]]:
    """GUI-thread CPU ms and wall ms from a keystroke until every chart is updated and painted; ``plans_page``:
    with the Plans page built (and hidden), as after a visit to it."""
    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication

    from gpuplanner.ui.main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    w = MainWindow(autosave=False, search_enabled=search_on)
    w.show()
    if plans_page:
        w.page("plans")
    w.go_to(1)
    app.processEvents()
    page = w.page("training")
    idx = page.auto.findData(False)
    page.auto.setCurrentIndex(idx)
    page.auto.activated.emit(idx)
    live = w.live
    seen = {"scaling": 0, "search": 0}
    w.estimator.scalingUpdated.connect(lambda _r: seen.__setitem__("scaling", seen["scaling"] + 1))
    w.search.finished.connect(lambda _o: seen.__setitem__("search", seen["search"] + 1))
    w.search.failed.connect(lambda _o: seen.__setitem__("search", seen["search"] + 1))

    busy = getattr(w.estimator, "scaling_busy", lambda: False)  # (the sweep ran on the GUI thread before)

    def settle(timeout: float = 60.0) -> None:
        t = time.perf_counter()
        while (busy() or w.estimator._scaling_timer.isActive()
               or (search_on and w.search.state == "running")) and time.perf_counter() - t < timeout:
            app.processEvents()
            time.sleep(0.002)
        for _ in range(3):
            app.processEvents()

    settle()
    cpu, wall = [], []
    values = [1024, 2048, 4096, 8192]
    page.seq_len.setFocus()
    chart = live.memory_chart
    for i in range(runs):
        v = values[i % len(values)]
        settle()
        before, sc0, se0 = chart._last, seen["scaling"], seen["search"]
        loop = QEventLoop()

        def finished() -> bool:
            swept = seen["scaling"] > sc0 or not (busy() or w.estimator._scaling_timer.isActive())  # (or unchanged)
            return chart._last is not before and swept and (not search_on or seen["search"] > se0)

        def check(*_a) -> None:
            if finished():
                loop.quit()

        # every signal after which the keystroke may be complete (connected after the app's own slots, so
        # they run first); the GUI thread then waits in a real event loop, as the app does, not in a polling
        # loop whose own processEvents calls would be counted as the keystroke's cost
        sigs = [w.estimator.updated, w.estimator._scaling_signals.done, w.search.finished, w.search.failed]
        for s in sigs:
            s.connect(check)
        guard = QTimer()
        guard.setSingleShot(True)
        guard.timeout.connect(loop.quit)
        guard.start(60_000)
        c0, t0 = time.thread_time(), time.perf_counter()
        page.seq_len.setText(str(v))
        page.seq_len.textEdited.emit(str(v))
        if not finished():
            loop.exec()
        # the paints the event loop still owes for the last update (posted UpdateRequests): delivered now, as
        # the next loop iteration would; nothing is repainted twice
        app.sendPostedEvents()
        app.processEvents()
        cpu.append((time.thread_time() - c0) * 1000)
        wall.append((time.perf_counter() - t0) * 1000)
        guard.stop()
        for s in sigs:
            s.disconnect(check)
    w.search.shutdown()
    if hasattr(w.estimator, "shutdown"):
        w.estimator.shutdown()
    w.hide()
    return cpu, wall


def _steal_ticks() -> int | None:
    """CPU time the hypervisor gave to others while this VM wanted to run (``/proc/stat``, all CPUs, ticks)."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            return int(f.readline().split()[8])
    except (OSError, IndexError, ValueError):
        return None


def heartbeat(scenario_file: Path = MIXTRAL_4096, mode: str = "process", rt: bool = False) -> dict:
    """Gaps of a 1-ms GUI-thread timer while the search of ~11 M candidates runs.

    ``mode``: ``process`` (the app's search process), ``thread`` (the search on a thread of this process, as
    before issue "Fast at any size"'s process work; ``GPUPLANNER_SEARCH_WORKER=thread``) or ``idle`` (no search:
    the same timer for 15 s, the machine's own baseline under its current load). The app has searched once
    before (the default scenario: its search process is up, as in a running app), then the big scenario is loaded.

    ``rt`` (Linux, root): once the search runs, the GUI thread alone is made real-time (``SCHED_FIFO`` 1), so
    other programs on a shared machine cannot delay it; what is left is what the app's own search costs the GUI
    thread (the GIL it holds, in ``thread`` mode). The search thread or process keeps normal priority."""
    import json as _json

    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from gpuplanner.core.scenario import scenario_from_dict
    from gpuplanner.ui.live import SearchController
    from gpuplanner.ui.model import ScenarioModel

    app = QApplication.instance() or QApplication(sys.argv[:1])
    try:  # the app's start-up: cyclic garbage collection from a GUI-thread timer (its cost is in the gaps)
        from gpuplanner.ui.gc_collector import install

        collector = install(app)
    except ImportError:  # (before it existed)
        collector = None
    d = _json.loads(scenario_file.read_text(encoding="utf-8"))
    d["training"].pop("framework", None)
    d["training"].pop("global_batch_size", None)
    d["constraints"]["max_gpus"] = 4096
    from gpuplanner.ui.model import default_scenario

    model = ScenarioModel(default_scenario())
    kw = {"worker_mode": "thread"} if mode == "thread" else {}
    try:
        ctl = SearchController(model, debounce_ms=0, **kw)
    except TypeError:  # (before the search process: the thread was the only way)
        ctl = SearchController(model, debounce_ms=0)
    if mode != "idle":  # the app's first search (starts its search process)
        ctl.restart()
        while ctl.state == "running":
            app.processEvents()
            time.sleep(0.002)
    ticks: list[float] = []
    steals: list[int | None] = []   # the VM's steal counter at each tick (a gap the hypervisor caused shows here)

    def tick() -> None:
        ticks.append(time.perf_counter())
        steals.append(_steal_ticks())

    timer = QTimer()
    timer.setInterval(1)
    timer.timeout.connect(tick)
    load0 = os.getloadavg()[0]
    steal0 = _steal_ticks()
    timer.start()
    t0 = time.perf_counter()
    if mode != "idle":
        model.load(scenario_from_dict(d))   # the big search starts (changed("all") -> restart)
        while not ctl.busy() and ctl.state == "running":
            app.processEvents()
    if rt:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))   # this thread only (Linux: 0 = caller)
    while ((ctl.state == "running") if mode != "idle" else (time.perf_counter() - t0 < 15)) \
            and time.perf_counter() - t0 < 600:
        app.processEvents()
        time.sleep(0.0005)
    dt = time.perf_counter() - t0
    timer.stop()
    if rt:
        os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
    gaps = sorted(b - a for a, b in zip(ticks, ticks[1:]))
    # each gap > 50 ms: did the hypervisor take the CPUs away during it? (steal rose by >= half the gap: /proc/stat
    # counts steal in clock ticks summed over the CPUs, so a VM-wide pause of t shows as ~t x CPUs)
    hz = os.sysconf("SC_CLK_TCK")
    long_gaps = []
    for i in range(1, len(ticks)):
        g = ticks[i] - ticks[i - 1]
        if g > 0.05:
            st = None if steals[i] is None or steals[i - 1] is None else (steals[i] - steals[i - 1]) / hz
            long_gaps.append({"gap_ms": round(g * 1000, 1), "steal_ms": None if st is None else round(st * 1000),
                              "vm_paused": st is not None and st >= g / 2})
    worker = getattr(ctl, "worker", None)
    out = {"mode": mode, "state": ctl.state, "search_s": round(dt, 2), "ticks": len(ticks),
           "max_gap_ms": round(gaps[-1] * 1000, 1) if gaps else None,
           "p99_gap_ms": round(gaps[int(0.99 * (len(gaps) - 1))] * 1000, 1) if gaps else None,
           "median_gap_ms": round(gaps[len(gaps) // 2] * 1000, 2) if gaps else None,
           "gaps_over_50ms": sum(g > 0.05 for g in gaps), "load_average_start": round(load0, 2),
           "load_average": round(os.getloadavg()[0], 2),
           "worker": getattr(worker, "mode", "thread") if mode != "idle" else None,
           "candidates": ctl.outcome.considered if ctl.outcome else None,
           "gc_collections": list(collector.collections) if collector else None,
           "gc_longest_ms": round(collector.longest_ms, 1) if collector else None, "gui_thread_rt": rt,
           "gaps_over_20ms": sum(g > 0.02 for g in gaps),
           "steal_ms": None if steal0 is None else (_steal_ticks() - steal0) * 1000 // os.sysconf("SC_CLK_TCK"),
           "p999_gap_ms": round(gaps[int(0.999 * (len(gaps) - 1))] * 1000, 1) if gaps else None,
           "long_gaps": long_gaps,
           "gaps_over_50ms_not_vm": sum(not g["vm_paused"] for g in long_gaps)}
    ctl.shutdown()
    return out


EXAMPLE_8B = ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json"


def report_heartbeat(max_gpus: int | None = None, idle: bool = False) -> dict:
    """Gaps of a 1-ms GUI-thread timer while the window writes its report (File › Export PDF to a file).

    A main window (offscreen, search on) with the 8B example loaded (``max_gpus``: raised, the issue's 512), its
    search done; then ``gpuplanner.ui.report.export_pdf(window, path)`` and the timer until the PDF is on disk and
    nothing of the report still runs. Before issue 34 the report ran a second search and the render on the GUI
    thread (the call returned with the file written); now it is gathered from the window's Answer and written
    on a worker thread. ``idle``: the same window and timer for 0.5 s with no report (the machine's own baseline
    under its current load)."""
    import json as _json

    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from gpuplanner.core.scenario import scenario_from_dict
    from gpuplanner.ui import report
    from gpuplanner.ui.main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    d = _json.loads(EXAMPLE_8B.read_text(encoding="utf-8"))
    if max_gpus:
        d["constraints"]["max_gpus"] = max_gpus
    w = MainWindow()
    w.resize(1280, 800)
    w.show()
    w.model.load(scenario_from_dict(d))

    def settle(cond, limit: float = 120.0) -> None:
        t = time.perf_counter()
        while not cond() and time.perf_counter() - t < limit:
            app.processEvents()
            time.sleep(0.002)

    settle(lambda: w.search.state == "done" and not w.search._timer.isActive() and not w.estimator.scaling_busy())
    ticks: list[float] = []
    timer = QTimer()
    timer.setInterval(1)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    out_pdf = Path(tempfile.mkdtemp(prefix="gpuplanner-report-")) / "r.pdf"
    load0 = os.getloadavg()[0]
    timer.start()
    settle(lambda: len(ticks) > 20)
    t0 = time.perf_counter()
    if idle:
        settle(lambda: time.perf_counter() - t0 > 0.5)
        out_pdf.write_bytes(b"")
    else:
        report.export_pdf(w, str(out_pdf))
        busy = getattr(report, "busy", lambda: False)
        settle(lambda: out_pdf.exists() and not busy())
    dt = time.perf_counter() - t0
    settle(lambda: time.perf_counter() - t0 > dt + 0.05)  # the status-bar message after the write
    timer.stop()
    gaps = sorted(b - a for a, b in zip(ticks, ticks[1:]))
    w.search.shutdown()
    w.estimator.shutdown()
    return {"what": "idle window (no report)" if idle else "report written from the window", "max_gpus": d["constraints"].get("max_gpus"),
            "report_s": round(dt, 3), "ticks": len(ticks), "pdf_bytes": out_pdf.stat().st_size,
            "max_gap_ms": round(gaps[-1] * 1000, 1) if gaps else None,
            "p99_gap_ms": round(gaps[int(0.99 * (len(gaps) - 1))] * 1000, 1) if gaps else None,
            "gaps_over_50ms": sum(g > 0.05 for g in gaps), "load_average_start": round(load0, 2),
            "load_average": round(os.getloadavg()[0], 2)}


def screenshots(folder: Path) -> list[Path]:
    from PySide6.QtCore import QSize
    from PySide6.QtWidgets import QApplication

    from gpuplanner.ui.main_window import PAGE_KEYS, MainWindow

    folder.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    w = MainWindow(autosave=False)
    w.resize(QSize(1280, 800))
    w.show()
    t0 = time.monotonic()
    while w.search.state == "running" and time.monotonic() - t0 < 60:
        app.processEvents()
        time.sleep(0.01)
    out = []
    for i, key in enumerate(PAGE_KEYS):
        w.go_to(i)
        for _ in range(5):
            app.processEvents()
        if key == "plans" and w.search.outcome and w.search.outcome.plans:
            w.page("plans").view.selectRow(0)
            w.estimator.run_now()
            w.estimator.run_scaling_now()
            app.processEvents()
        p = folder / f"{i + 1}-{key}.png"
        w.grab().save(str(p))
        out.append(p)
    # an invalid value shown at its field
    w.go_to(1)
    page = w.page("training")
    page.seq_len.setText("12x")
    page.seq_len.textEdited.emit("12x")
    app.processEvents()
    p = folder / "8-invalid-field.png"
    w.grab().save(str(p))
    out.append(p)
    w.search.shutdown()
    return out


def heartbeat_runs(args) -> list[dict]:
    """``--heartbeat``: the modes interleaved, ``--heartbeat-runs`` rounds."""
    runs = []
    for _ in range(args.heartbeat_runs):        # the modes interleaved: paired under the same load
        for mode in args.heartbeat_modes.split(","):
            hb = heartbeat(mode=mode, rt=args.heartbeat_rt)
            runs.append(hb)
            what = "no search" if mode == "idle" else (f"search in a {hb['worker']} ({hb['candidates']:,} "
                                                      f"candidates, {hb['search_s']} s, {hb['state']})")
            print(f"heartbeat, {what}: max gap {hb['max_gap_ms']} ms, p99 {hb['p99_gap_ms']} ms, median "
                  f"{hb['median_gap_ms']} ms, {hb['gaps_over_50ms']} gaps > 50 ms over {hb['ticks']} ticks "
                  f"(target <= 50 ms; load average {hb['load_average_start']:.1f} -> {hb['load_average']:.1f}; "
                  f"steal {hb['steal_ms']} ms; gaps > 50 ms without a VM pause: {hb.get('gaps_over_50ms_not_vm')})",
                  flush=True)
    if args.heartbeat_json:
        import json as _json

        args.heartbeat_json.write_text(_json.dumps({"runs": runs, "cpus": os.cpu_count(),
                                                    "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())},
                                                   indent=1), encoding="utf-8")
    return runs


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--first-window", action="store_true")
    ap.add_argument("--screenshots", type=Path)
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--cold-runs", type=int, default=7)
    ap.add_argument("--whole", action="store_true", help="the whole keystroke path, search off and on")
    ap.add_argument("--plans-page", action="store_true",
                    help="with --whole: also search on with the Plans page built (hidden), as after a visit to it")
    ap.add_argument("--heartbeat", action="store_true", help="GUI heartbeat during an ~11 M-candidate search")
    ap.add_argument("--heartbeat-modes", default="process",
                    help="comma-separated: process (the app's search process), thread (the search on a thread "
                         "here, as before), idle (no search); run interleaved")
    ap.add_argument("--heartbeat-runs", type=int, default=1, help="rounds of --heartbeat-modes")
    ap.add_argument("--heartbeat-rt", action="store_true",
                    help="make the GUI thread real-time once the search runs (Linux, root): the app's own stalls only")
    ap.add_argument("--heartbeat-json", type=Path, help="write the heartbeat runs to this JSON file")
    ap.add_argument("--no-edit", action="store_true", help="with --heartbeat: only the heartbeat")
    ap.add_argument("--no-cold", action="store_true", help="skip the cold-start runs")
    ap.add_argument("--report-heartbeat", type=int, default=0, metavar="RUNS",
                    help="GUI heartbeat while the window writes its report (8B example; max_gpus 8 and 512), RUNS "
                         "rounds; only this")
    ap.add_argument("--report-json", type=Path, help="with --report-heartbeat: write the runs to this JSON file")
    args = ap.parse_args()
    if args.first_window:
        first_window()
        return 0
    _isolate()
    if args.report_heartbeat:
        runs = []
        for _ in range(args.report_heartbeat):
            for mg, idle in ((None, True), (None, False), (512, False)):
                r = report_heartbeat(mg, idle)
                runs.append(r)
                print(f"{r['what']} (max_gpus {r['max_gpus']}): {r['report_s']} s, max gap {r['max_gap_ms']} "
                      f"ms, p99 {r['p99_gap_ms']} ms, {r['gaps_over_50ms']} gaps > 50 ms over {r['ticks']} ticks "
                      f"(target <= 50 ms; load {r['load_average_start']:.1f} -> {r['load_average']:.1f})", flush=True)
        if args.report_json:
            import json as _json

            args.report_json.write_text(_json.dumps({"runs": runs, "cpus": os.cpu_count(), "python": sys.version.split()[0],
                                                     "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())},
                                                    indent=1), encoding="utf-8")
        return 0
    if args.screenshots:
        for p in screenshots(args.screenshots):
            print(p)
        return 0
    if args.heartbeat and args.no_edit:
        heartbeat_runs(args)
        return 0
    lat = edit_latency(args.runs)
    print(f"edit->redraw: median {statistics.median(lat):.1f} ms, p90 "
          f"{sorted(lat)[int(0.9 * (len(lat) - 1))]:.1f} ms, max {max(lat):.1f} ms over {len(lat)} edits (target <= 50 ms)")
    if args.whole:
        for on, plans in ((False, False), (True, False)) + (((True, True),) if args.plans_page else ()):
            cpu, wall = whole_keystroke(max(5, args.runs // (3 if on else 1)), on, plans)
            print(f"whole keystroke, search {'on ' if on else 'off'}{', Plans page built' if plans else ''}: "
                  f"GUI-thread CPU median {statistics.median(cpu):.1f} ms "
                  f"(p90 {sorted(cpu)[int(0.9 * (len(cpu) - 1))]:.1f}, max {max(cpu):.1f}); wall until every chart "
                  f"is updated median {statistics.median(wall):.1f} ms over {len(cpu)} edits (target GUI <= 25 ms)")
    if args.heartbeat:
        heartbeat_runs(args)
    if args.no_cold:
        return 0
    cold = cold_start(args.cold_runs)
    first = [c[0] for c in cold]
    charts = [c[1] for c in cold]
    print(f"cold start to first window: median {statistics.median(first):.2f} s, min {min(first):.2f} s, "
          f"max {max(first):.2f} s over {len(first)} runs (target <= 1 s)")
    print(f"cold start to window with charts: median {statistics.median(charts):.2f} s, min {min(charts):.2f} s")
    print(f"CPU time of the process to first window: median {statistics.median(c[2] for c in cold):.2f} s; "
          f"to charts: {statistics.median(c[3] for c in cold):.2f} s (CPU time does not count waiting for a busy "
          f"machine)")
    if os.getloadavg:
        print(f"load average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
