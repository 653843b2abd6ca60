"""Re-estimation on every edit, and the plan search off the GUI thread.

* :class:`LiveEstimator` re-estimates the single scenario synchronously (well under a millisecond in
  the core) behind a 0-ms single-shot timer, so a burst of edits in one event-loop turn costs one
  estimate; the scaling sweep (a few dozen Evaluations, 20–40 ms) runs behind a 30-ms timer on a Python
  worker thread, so typing never waits for it: one sweep at a time, the latest inputs swept next, results
  of older inputs dropped (a generation counter, as for the search). :meth:`LiveEstimator.run_scaling_now`
  stays synchronous for callers that need the chart at once (building the live panel, the self-test).
* :class:`SearchController` runs :func:`engine.search_plans` in a process of its own
  (:mod:`gpuplanner.app.search_process`: a persistent child started with ``forkserver``/``spawn``, never
  ``fork``, reused for every search; its answers come back on a small link thread as queued signals). A
  search on a thread of this process held the GIL for whole numpy calls and stalled the window for up to
  ~270 ms; in a process the GUI thread only shares the CPU. When processes cannot be started the same worker
  runs the search on its link thread instead. Every input change bumps a generation counter, which the
  running search reads (a shared integer) before every chunk: it stops there; results of an older
  generation are dropped, so a stale search can never overwrite a fresh one. A dead search process is
  reported once (``notice``) and the next search starts a new one. A new document (New, Open, Revert,
  recovery) calls :meth:`SearchController.reset`: the running job is cancelled, the generation bumped and
  the previous document's outcome forgotten, so none of its plans can reach the new one.
"""

from __future__ import annotations

import dataclasses
import os
import queue
import threading
import time
import traceback
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from gpuplanner.core.errors import PlannerError

from gpuplanner.app import engine
from .model import ScenarioModel
from .offthread import run_jobs, stop_worker

ESTIMATE_SECTIONS = {"model", "training", "parallel", "hardware", "data", "assumptions", "constraints", "all",
                     "plan"}


class _ScalingSignals(QObject):
    done = Signal(int, object)


class _EstimateSignals(QObject):
    done = Signal(int, object, float)  # generation, engine.LiveResult, milliseconds


def _same_value(a, b) -> bool:
    """Equal, NaN equal to NaN, through frozen dataclasses, tuples and lists; stops at the first difference (an
    edit usually changes the first point, so this costs microseconds where two ``repr`` cost ~0.5 ms)."""
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return a == b or (a != a and b != b)
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(_same_value(x, y) for x, y in zip(a, b))
    if dataclasses.is_dataclass(a):
        return all(_same_value(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a))
    return a == b


def _same_scaling(a, b) -> bool:
    """Two sweeps with the same points (NaN equal to NaN)."""
    return a is not None and b is not None and _same_value(a, b)


def _post(thread: "threading.Thread | None", jobs: "queue.SimpleQueue", job, name: str) -> threading.Thread:
    """Queue ``job`` for the persistent worker ``thread`` (started, as ``name``, when there is none alive);
    returns the worker."""
    if thread is None or not thread.is_alive():
        thread = threading.Thread(target=run_jobs, args=(jobs,), name=name, daemon=True)
        thread.start()
    jobs.put(job)
    return thread


_RELEASE_QUEUE: "queue.SimpleQueue" = queue.SimpleQueue()
_RELEASE_THREAD: list["threading.Thread | None"] = [None]


def release_elsewhere(obj: Any) -> None:
    """Give ``obj`` to a worker thread that drops it: when the caller held the last other reference (and drops
    its own right after, before that thread gets the GIL), the object is freed there, off the GUI thread. Only for
    plain data (search outcomes): an object holding a QObject must die on the thread that owns it
    (``gc_collector.py``)."""
    if obj is not None:
        _RELEASE_THREAD[0] = _post(_RELEASE_THREAD[0], _RELEASE_QUEUE, lambda _held=obj: None, "release")


def stop_release_thread(timeout_s: float = 5.0) -> None:
    """End the release thread once what it was given is dropped (on close and at the self-test's end; why:
    :func:`gpuplanner.ui.offthread.shutdown`)."""
    stop_worker(_RELEASE_THREAD[0], _RELEASE_QUEUE, timeout_s)
    _RELEASE_THREAD[0] = None


class LiveEstimator(QObject):
    updated = Signal(object)          # engine.LiveResult
    scalingUpdated = Signal(object)   # engine.ScalingResult

    def __init__(self, model: ScenarioModel, parent: QObject | None = None):
        super().__init__(parent)
        self.model = model
        self.result: engine.LiveResult | None = None
        self.scaling: engine.ScalingResult | None = None
        self.last_duration_ms = 0.0
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.run_async)
        self._scaling_timer = QTimer(self)
        self._scaling_timer.setSingleShot(True)
        self._scaling_timer.setInterval(30)
        self._scaling_timer.timeout.connect(self.run_scaling_async)
        self._scaling_generation = 0
        self._scaling_pending = False
        # one persistent worker thread takes the sweeps in turn (starting a thread per sweep cost the GUI thread
        # ~0.7 ms per keystroke); ``_scaling_running``: a sweep was handed over and its answer not yet handled
        self._scaling_thread: threading.Thread | None = None
        self._scaling_jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._scaling_idle = threading.Event()
        self._scaling_idle.set()
        self._scaling_running = False
        self._scaling_signals = _ScalingSignals(self)
        self._scaling_signals.done.connect(self._on_scaling_done)
        # an edit's estimate runs on its own persistent worker thread (not behind a sweep), so the GUI thread
        # only applies the answer; ``run_now`` (a loaded file, the window's first estimate) stays synchronous
        self._estimate_generation = 0
        self._estimate_thread: threading.Thread | None = None
        self._estimate_jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._estimate_idle = threading.Event()
        self._estimate_idle.set()
        self._estimate_signals = _EstimateSignals(self)
        self._estimate_signals.done.connect(self._on_estimate_done)
        model.changed.connect(self._on_changed)

    def _on_changed(self, section: str) -> None:
        if section in ESTIMATE_SECTIONS:
            self._timer.start()
            self._scaling_timer.start()

    def schedule(self) -> None:
        self._timer.start()
        self._scaling_timer.start()

    def run_now(self) -> None:
        """The estimate on this thread, now (an answer still on its way from the worker is superseded)."""
        self._timer.stop()
        self._estimate_generation += 1
        t0 = time.perf_counter()
        res = engine.live(self.model.scenario, self.model.base_dir)
        self._apply(res, (time.perf_counter() - t0) * 1000)

    def run_async(self) -> None:
        """The estimate of the current inputs on the worker thread; only the latest answer is applied."""
        self._timer.stop()
        self._estimate_generation += 1
        gen, signals, idle = self._estimate_generation, self._estimate_signals, self._estimate_idle
        scenario, base_dir = self.model.scenario, self.model.base_dir

        def work() -> None:  # worker thread: no Qt widget calls here
            try:
                t0 = time.perf_counter()
                try:
                    res = engine.live(scenario, base_dir)
                except Exception:  # noqa: BLE001 - keep the last estimate rather than end the worker
                    traceback.print_exc()
                    return
                try:
                    signals.done.emit(gen, res, (time.perf_counter() - t0) * 1000)
                except RuntimeError:
                    pass  # the window is gone
            finally:
                idle.set()

        idle.clear()
        self._estimate_thread = _post(self._estimate_thread, self._estimate_jobs, work, "estimates")

    def _on_estimate_done(self, gen: int, res, ms: float) -> None:
        if gen == self._estimate_generation:
            self._apply(res, ms)

    def estimate_busy(self) -> bool:
        """An edit's estimate is scheduled or has not reached this thread yet."""
        return self._timer.isActive() or not self._estimate_idle.is_set()

    def _apply(self, res, ms: float) -> None:
        self.last_duration_ms = ms
        self.result = res
        errs = {}
        if res.error:
            errs[res.error_field or "model"] = res.error
        self.model.set_core_errors(errs)
        self.updated.emit(res)

    def run_scaling_now(self) -> None:
        """The sweep on this thread, now (a sweep still running in the background is superseded)."""
        self._scaling_timer.stop()
        self._scaling_generation += 1
        self._scaling_pending = False
        try:
            res = engine.scaling(self.model.scenario, self.model.base_dir)
        except PlannerError:
            res = None
        self.scaling = res
        self.scalingUpdated.emit(res)

    def run_scaling_async(self) -> None:
        """The sweep on a worker thread; while one runs, the latest inputs are swept when it ends."""
        self._scaling_timer.stop()
        self._scaling_generation += 1
        if self._scaling_running:
            self._scaling_pending = True
            return
        self._start_scaling()

    def _start_scaling(self) -> None:
        self._scaling_pending = False
        gen = self._scaling_generation
        scenario, base_dir, signals = self.model.scenario, self.model.base_dir, self._scaling_signals
        idle = self._scaling_idle

        def work() -> None:  # worker thread: no Qt widget calls here
            try:
                try:
                    res = engine.scaling(scenario, base_dir)
                except PlannerError:
                    res = None
                except Exception:  # noqa: BLE001 - the chart shows nothing rather than crash the app
                    traceback.print_exc()
                    res = None
                try:
                    signals.done.emit(gen, res)
                except RuntimeError:
                    pass  # the window is gone
            finally:
                idle.set()

        self._scaling_running = True
        idle.clear()
        self._scaling_thread = _post(self._scaling_thread, self._scaling_jobs, work, "scaling-sweeps")

    def _on_scaling_done(self, gen: int, res) -> None:
        self._scaling_running = False
        if self._scaling_pending:
            self._start_scaling()  # inputs changed while it ran: sweep the latest
        if gen != self._scaling_generation:
            return
        same = _same_scaling(self.scaling, res)
        self.scaling = res
        if not same:  # the chart repaints only when its data changed (an edit that moves no point: nothing)
            self.scalingUpdated.emit(res)

    def scaling_busy(self) -> bool:
        """A sweep is waiting, running, or its answer has not reached this thread yet."""
        return self._scaling_pending or self._scaling_running

    def shutdown(self, timeout_ms: int = 5000) -> None:
        """Drop pending sweeps, wait for the running one and end the worker thread (on close and in tests)."""
        self._scaling_timer.stop()
        self._timer.stop()
        self._scaling_generation += 1
        self._scaling_pending = False
        self._scaling_idle.wait(timeout_ms / 1000)
        stop_worker(self._scaling_thread, self._scaling_jobs, timeout_ms / 1000)  # the worker's loop ends
        self._scaling_thread = None
        self._scaling_running = False
        self._estimate_generation += 1
        self._estimate_idle.wait(timeout_ms / 1000)
        stop_worker(self._estimate_thread, self._estimate_jobs, timeout_ms / 1000)
        self._estimate_thread = None


PROGRESS_INTERVAL_S = 0.25  # the search's progress reaches the status bar at most this often


class _JobSignals(QObject):
    finished = Signal(int, object)
    failed = Signal(int, object)  # a message (MsgStr keeps its id: shown in the UI language)
    progress = Signal(int, float)
    died = Signal(int, object)


class SearchController(QObject):
    """Owns the background plan search. ``state`` is idle | running | done | failed.

    The search runs in a process of its own (:class:`gpuplanner.app.search_process.SearchWorker`, started with
    the first search and reused; a thread when processes cannot be started); its answers reach the GUI thread
    as queued signals. ``notice`` carries one status-bar line when the search process died."""

    started = Signal()
    progress = Signal(float)
    finished = Signal(object)    # engine.SearchOutcome
    failed = Signal(object)
    cleared = Signal()           # reset(): the outcome belonged to a previous document
    notice = Signal(str)         # a one-off line for the status bar (the search process stopped)

    def __init__(self, model: ScenarioModel, parent: QObject | None = None, debounce_ms: int = 150,
                 worker_mode: str | None = None):
        super().__init__(parent)
        from gpuplanner.app.search_process import SearchWorker

        self.model = model
        self.generation = 0
        self.state = "idle"
        self.outcome: engine.SearchOutcome | None = None
        self.error: str | None = None
        self.enabled = True
        self._job: int | None = None   # the generation submitted and not answered yet
        self._key: tuple | None = None
        self._progress_at: tuple[int, float] = (-1, 0.0)  # (generation, when its last progress was passed on)
        self._signals = _JobSignals(self)
        self._signals.finished.connect(self._on_finished)
        self._signals.failed.connect(self._on_failed)
        self._signals.progress.connect(self._on_progress)
        self._signals.died.connect(self._on_died)
        self.worker = SearchWorker(self._worker_event, mode=worker_mode)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(debounce_ms)
        self._timer.timeout.connect(self._start)
        model.changed.connect(self._on_changed)

    def _worker_event(self, kind: str, gen: int, payload) -> None:  # the worker's link thread: signals only
        sig = self._signals
        if kind == "done":
            sig.finished.emit(gen, payload)
        elif kind == "failed":
            sig.failed.emit(gen, payload if isinstance(payload, str) else str(payload))
        elif kind == "progress":
            if self._progress_due(gen, time.monotonic()):
                sig.progress.emit(gen, float(payload))
        elif kind == "died":
            sig.died.emit(gen, payload)

    def _progress_due(self, gen: int, now: float) -> bool:
        """Whether a progress report of search ``gen`` arriving at ``now`` (``time.monotonic``) reaches the window:
        at most one per :data:`PROGRESS_INTERVAL_S` (four a second), counted from the search's start: each one
        repaints the progress bar at once (``QProgressBar.setValue`` calls ``repaint``), and a bar that moves more
        often tells a person nothing more; a search shorter than the interval paints none. Runs on the link
        thread; the GUI thread only resets it in :meth:`_start`."""
        last = self._progress_at
        if last[0] == gen and now - last[1] < PROGRESS_INTERVAL_S:
            return False
        self._progress_at = (gen, now)
        return True

    @staticmethod
    def search_key(model: ScenarioModel) -> tuple:
        """The inputs the search depends on; adopting one of its plans does not change this. The model's own dump
        of the user's scenario (made once per change) and the folder, compared with ``==`` (a JSON text of the
        scenario, made two or three times per keystroke, cost the GUI thread ~0.4 ms each; the scenario holds no
        NaN, ``allow_inf_nan=False``, so equal inputs compare equal). With the memory savers the user set (the dump
        does not tell a saver written off from one left at its default off, and the search applies only the unset
        ones: core.advisor_savers, issue 35 round 15)."""
        from gpuplanner.core.advisor_savers import user_set_savers

        return (model.user_dump(), str(model.base_dir), user_set_savers(model.user_scenario()))

    def _on_changed(self, section: str) -> None:
        if section in ("meta",) or not self.enabled:
            return
        if self.search_key(self.model) != self._key:
            self.restart()

    def restart(self) -> None:
        """Cancel what runs and start again after a short debounce."""
        self.generation += 1
        self.worker.cancel(self.generation)
        self._job = None
        self.state = "running"
        self.started.emit()
        self._timer.start()

    def reset(self) -> None:
        """Forget everything about the current document's search (before another document is loaded):
        cancel the running job, bump the generation so its result is dropped, clear the outcome. The
        model's ``changed("all")`` then starts the search for the new document."""
        self._timer.stop()
        self.generation += 1
        self.worker.cancel(self.generation)
        self._job = None
        self._key = None
        self.outcome, self.error, self.state = None, None, "idle"
        self.cleared.emit()

    def _start(self) -> None:
        self._key = self.search_key(self.model)
        self._progress_at = (self.generation, time.monotonic())
        job = {"scenario": self.model.user_scenario(), "base_dir": self.model.base_dir,
               "top": 20, "env": dict(os.environ), "cwd": _cwd()}
        self._job = self.generation
        self.worker.submit(self.generation, job)

    def _on_progress(self, gen: int, frac: float) -> None:
        if gen == self.generation:
            self.progress.emit(frac)

    def _on_finished(self, gen: int, out) -> None:
        if gen != self.generation:
            return  # stale: inputs changed while it ran
        self._job = None
        previous = self.outcome
        self.outcome, self.error, self.state = out, None, "done"
        self.finished.emit(out)
        # the views have let go of the previous plans: they are freed on a worker thread (twenty Evaluations with
        # their scenarios and arrays took the GUI thread ~0.6 ms to free; plain data, no QObject among them)
        release_elsewhere(previous)
        del previous

    def _on_failed(self, gen: int, msg: str) -> None:
        if gen != self.generation:
            return
        self._job = None
        self.outcome, self.error, self.state = None, msg, "failed"
        self.failed.emit(msg)

    def _on_died(self, gen: int, exitcode) -> None:
        """The search process stopped (killed, crashed): said once; the next search starts a new one."""
        code = "?" if exitcode is None else str(exitcode)
        msg = self.tr("The plan search process stopped unexpectedly (exit code {0}); the next search starts it "
                      "again.").format(code)
        self.notice.emit(msg)
        if gen == self.generation and gen == self._job:
            self._job = None
            self.outcome, self.error, self.state = None, msg, "failed"
            self.failed.emit(msg)

    def shutdown(self, timeout_ms: int = 5000) -> None:
        """Cancel the search, end the search process (terminated past the deadline) and its link thread (on
        close and in tests: never leave a process or a thread running)."""
        self._timer.stop()
        self.generation += 1
        self._job = None
        self.worker.shutdown(timeout_ms / 1000)

    def current_outcome(self):
        """The outcome when it is for the model's current inputs (None while a search for them is due or runs)."""
        if self.state == "done" and self.outcome is not None and self._key == self.search_key(self.model):
            return self.outcome
        return None

    def busy(self) -> bool:
        """Whether a search (current or cancelled) still runs."""
        return self.worker.busy()


def _cwd() -> str | None:
    try:
        return os.getcwd()
    except OSError:
        return None
