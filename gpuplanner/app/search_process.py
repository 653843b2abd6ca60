"""The parent's side of the search process (no Qt here: events go to a callback).

:class:`SearchWorker` owns one persistent child process (:mod:`gpuplanner.app.search_worker`) and one Python
thread in the app, the *link*, that starts the child, hands it the newest job, waits for its answers and
passes them on through ``on_event(kind, generation, payload)`` — :class:`gpuplanner.ui.live.SearchController`
turns that into a queued Qt signal, so the GUI thread never waits on the pipe and never polls.

* One job in flight: the GUI thread only stores the newest job (``submit``) and sets the shared ``wanted``
  generation; the running search stops at its next chunk, answers ``cancelled`` and the link sends the newest
  job. A job older than ``wanted`` is never started, an answer older than it is dropped by the controller.
* Start method: ``forkserver`` on Linux (the fork server, started once per app, has already imported numpy,
  pydantic and the core and run one small search, ``search_preload.py``, so a new child starts warm);
  ``spawn`` elsewhere and in a frozen (PyInstaller) app, whose entry point calls
  ``multiprocessing.freeze_support()`` first (``packaging/launcher.py``). Never ``fork``. The child lowers its
  own priority (nice 5, ``search_worker.NICE``) so that busy cores serve the window first.
* The child dies (killed, crashed): the link sees its sentinel, reports ``died`` once (with the exit code) and
  the next job starts a new child. A child that dies before it said ``ready`` means processes do not work
  here: the worker falls back to running the search on the link thread itself (the app's behaviour before
  processes), for this and every later job; so does a start that raises. ``GPUPLANNER_SEARCH_WORKER=thread``
  asks for the thread from the start (tests that replace ``engine.search_plans`` in the app process use it).
* ``shutdown`` (window close): the running search is cancelled, the child asked to quit and, past a deadline,
  terminated and then killed; the link thread ends with it. Both are daemons, so even a worker nobody shut
  down cannot keep the app from exiting (``multiprocessing`` terminates daemonic children at exit).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections import deque
from multiprocessing import connection as mp_connection
from typing import Any, Callable

from gpuplanner.formatting import format_sig

from . import search_worker

ENV_MODE = "GPUPLANNER_SEARCH_WORKER"   # "process" (default) or "thread"
PROCESS, THREAD = "process", "thread"
# A child that has not said "ready" by then never will (it runs something else: a frozen app without
# freeze_support, a main script without the ``if __name__ == "__main__"`` guard): it is ended and the search
# runs on the link thread. Generous: a spawned child imports numpy, pydantic and the core first.
READY_TIMEOUT_S = 30.0
DIED = "died"
_START_FAILURES: list[str] = []          # this app's failed starts: one is enough to use the thread from then on


def default_mode() -> str:
    mode = os.environ.get(ENV_MODE, "").strip().lower()
    if mode == THREAD or _START_FAILURES:
        return THREAD
    return PROCESS


def start_method() -> str:
    """``forkserver`` on Linux (not frozen), else ``spawn`` (macOS and Windows default; PyInstaller supports it)."""
    if sys.platform.startswith("linux") and not getattr(sys, "frozen", False):
        return "forkserver"
    return "spawn"


_CONTEXT = None
_CONTEXT_LOCK = threading.Lock()


def _context():
    """The multiprocessing context, made once per app (the fork server preloads the search modules)."""
    global _CONTEXT
    with _CONTEXT_LOCK:
        if _CONTEXT is None:
            import multiprocessing

            ctx = multiprocessing.get_context(start_method())
            if ctx.get_start_method() == "forkserver":
                ctx.set_forkserver_preload(["gpuplanner.app.search_worker", "gpuplanner.app.search_preload"])
            _CONTEXT = ctx
        return _CONTEXT


class _Flag:
    """The thread fallback's stand-in for the shared integer."""

    def __init__(self) -> None:
        self.value = 0


class SearchWorker:
    """A persistent search process with its link thread; see the module docstring."""

    def __init__(self, on_event: Callable[[str, int, Any], None], mode: str | None = None,
                 quit_grace_s: float = 1.0):
        self._on_event = on_event
        self.mode = mode or default_mode()
        self._quit_grace_s = quit_grace_s
        self._lock = threading.Lock()
        self._cv = threading.Condition(self._lock)
        self._pending: tuple[int, dict] | None = None
        self._quit = False
        self._thread: threading.Thread | None = None
        self._proc = None
        self._conn = None
        self._ready = False
        self._running: tuple[int, dict] | None = None   # the job the child (or this thread) runs
        self.pid: int | None = None                     # the current child's process id
        self.deaths = 0
        self.answers: deque[tuple[str, int, float]] = deque(maxlen=64)  # (kind, generation, time.monotonic())
        self._target = search_worker.serve
        self.ready_timeout_s = READY_TIMEOUT_S
        self._start_deadline = 0.0
        self._wanted: Any = _Flag()
        self._wake_r = self._wake_w = None
        if self.mode == PROCESS:
            try:
                ctx = _context()
                self._wanted = ctx.RawValue("q", 0)
                self._wake_r, self._wake_w = ctx.Pipe(duplex=False)
            except Exception as err:  # noqa: BLE001 - no shared memory or pipes here: the thread
                self._fall_back(f"{type(err).__name__}: {err}")

    # ------------------------------------------------------------------ GUI thread
    def cancel(self, generation: int) -> None:
        """Everything older than ``generation`` is stale: the running search stops at its next chunk."""
        with self._lock:
            self._wanted.value = generation
            if self._pending is not None and self._pending[0] < generation:
                self._pending = None

    def submit(self, generation: int, job: dict) -> None:
        """Run ``job`` next (replacing a job not started yet); the running one is cancelled."""
        with self._lock:
            self._quit = False  # (a search after shutdown starts everything again)
            self._wanted.value = generation
            self._pending = (generation, job)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._link, name="plan-search-link", daemon=True)
                self._thread.start()
            self._cv.notify_all()
        self._wake()

    def busy(self) -> bool:
        """A search running or waiting (the link thread alive with work)."""
        return self._thread is not None and self._thread.is_alive() and (
            self._running is not None or self._pending is not None)

    @property
    def ready(self) -> bool:
        """Whether the current child process has started and said so."""
        return self._ready and self._proc is not None

    @property
    def running_generation(self) -> int | None:
        """The generation of the search in progress (in the child or on the fallback thread), if any."""
        r = self._running
        return None if r is None else r[0]

    def alive(self) -> bool:
        """Whether the link thread or the child still run."""
        t = self._thread
        p = self._proc
        return (t is not None and t.is_alive()) or (p is not None and p.is_alive())

    def shutdown(self, timeout_s: float = 5.0) -> bool:
        """Cancel, ask the child to quit, terminate it past the deadline; True when nothing is left running."""
        deadline = time.monotonic() + timeout_s
        with self._lock:
            self._quit = True
            self._pending = None
            self._wanted.value = -1
            self._cv.notify_all()
        self._wake()
        t = self._thread
        if t is not None:
            t.join(max(0.0, deadline - time.monotonic()))
        p = self._proc
        if p is not None and p.is_alive():  # the link is stuck: stop the child from here
            self._stop_child(max(0.2, deadline - time.monotonic()))
        return not self.alive()

    def _wake(self) -> None:
        w = self._wake_w
        if w is not None:
            try:
                w.send_bytes(b"")
            except (OSError, ValueError):
                pass

    # ------------------------------------------------------------------ link thread
    def _emit(self, kind: str, gen: int, payload: Any = None) -> None:
        try:
            self._on_event(kind, gen, payload)
        except RuntimeError:  # the window (and its signals object) is gone: nobody listens any more
            with self._lock:
                self._quit = True
                self._wanted.value = -1

    def _fall_back(self, why: str) -> None:
        if not _START_FAILURES:
            print(f"gpuplanner: the plan search runs in the app process (no search process: {why})", file=sys.stderr)
        _START_FAILURES.append(why)
        self.mode = THREAD

    def _run_here(self, gen: int, job: dict) -> None:
        """The fallback: the search on this (link) thread, as before processes."""
        wanted = self._wanted

        def cancel() -> bool:
            return wanted.value != gen

        self._running = (gen, job)
        try:
            kind, payload = search_worker.run_job(job, cancel, lambda f: self._emit(search_worker.PROGRESS, gen, f))
        finally:
            self._running = None
        self.answers.append((kind, gen, time.monotonic()))
        if kind != search_worker.CANCELLED:
            self._emit(kind, gen, payload)

    def _ensure_child(self) -> bool:
        if self._proc is not None and self._proc.is_alive():
            return True
        self._forget_child()
        try:
            ctx = _context()
            parent, child = ctx.Pipe(duplex=True)
            proc = ctx.Process(target=self._target, args=(child, self._wanted), name="gpuplanner-search",
                               daemon=True)
            proc.start()
            child.close()
        except Exception as err:  # noqa: BLE001 - processes cannot be started here: the thread from now on
            self._fall_back(f"{type(err).__name__}: {err}")
            return False
        self._proc, self._conn, self._ready = proc, parent, False
        self.pid = proc.pid
        self._start_deadline = time.monotonic() + self.ready_timeout_s
        return True

    def _forget_child(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            except OSError:
                pass
        if self._proc is not None:
            try:
                self._proc.join(0)
            except (OSError, ValueError, AssertionError):
                pass
        self._proc, self._conn, self._ready = None, None, False

    def _take_job(self) -> tuple[int, dict] | None:
        with self._lock:
            job, self._pending = self._pending, None
            if job is not None and job[0] != self._wanted.value:
                return None  # superseded before it started
            return job

    def _link(self) -> None:
        while True:
            try:
                self._link_loop()
            finally:
                self._running = None
                if self._proc is not None:
                    self._stop_child(self._quit_grace_s + 1.0)
            with self._lock:
                if self._quit or self._pending is None:
                    if self._thread is threading.current_thread():
                        self._thread = None  # the next submit starts a new link
                    return
            # a search was asked for again while the child stopped: serve it

    def _link_loop(self) -> None:
        while True:
            with self._lock:
                if self._quit:
                    return
            if self._running is None:
                job = self._take_job()
                if job is not None:
                    if self.mode == THREAD or not self._ensure_child():
                        self._run_here(*job)
                        continue
                    try:
                        self._conn.send((search_worker.SEARCH, job[0], job[1]))
                    except (OSError, ValueError):
                        pass  # the child is gone: its sentinel says so below
                    except Exception as err:  # noqa: BLE001 - the job itself cannot be pickled
                        self._emit(search_worker.FAILED, job[0], f"{type(err).__name__}: {err}")
                        continue
                    self._running = job
            if self.mode == THREAD:
                with self._cv:
                    while self._pending is None and not self._quit:
                        self._cv.wait()
                continue
            waitables = [self._wake_r]
            timeout = None
            if self._proc is not None:
                waitables += [self._conn, self._proc.sentinel]
                if not self._ready:
                    timeout = max(0.0, self._start_deadline - time.monotonic())
            ready = self._wait(waitables, timeout)
            if not ready and self._proc is not None and not self._ready:
                self._start_timed_out()
                continue
            if self._conn is not None and self._conn in ready:
                try:
                    msg = self._conn.recv()
                except (EOFError, OSError):
                    msg = None
                except Exception as err:  # noqa: BLE001 - an answer that cannot be read: that search failed
                    msg = (search_worker.FAILED, self._running[0] if self._running else -1,
                           f"{type(err).__name__}: {err}")
                if msg is not None:
                    self._answer(msg)
                    continue
                self._child_died()
            elif self._proc is not None and self._proc.sentinel in ready:
                self._child_died()

    def _wait(self, waitables: list, timeout: float | None = None) -> list:
        ready = mp_connection.wait(waitables, timeout)
        if self._wake_r in ready:
            try:
                while self._wake_r.poll():
                    self._wake_r.recv_bytes()
            except (OSError, EOFError):
                pass
        return ready

    def _answer(self, msg: tuple) -> None:
        kind = msg[0]
        if kind == search_worker.READY:
            self._ready = True
            return
        gen = msg[1]
        if kind == search_worker.PROGRESS:
            if gen == self._wanted.value:
                self._emit(kind, gen, msg[2])
            return
        if self._running is not None and self._running[0] == gen:
            self._running = None
        self.answers.append((kind, gen, time.monotonic()))
        if kind in (search_worker.DONE, search_worker.FAILED):
            self._emit(kind, gen, msg[2])

    def _child_died(self) -> None:
        proc, job = self._proc, self._running
        code = None
        try:
            proc.join(1.0)
            code = proc.exitcode
        except (OSError, ValueError, AssertionError):
            pass
        was_ready = self._ready
        self._forget_child()
        self._running = None
        if self._quit:
            return
        if not was_ready:
            # it never came up: processes do not work here; run this job (and all later ones) on this thread
            self._fall_back(f"the search process exited with code {code} before it started")
            if job is not None:
                with self._lock:
                    if self._pending is None and job[0] == self._wanted.value:
                        self._pending = job
            return
        self.deaths += 1
        self._emit(DIED, job[0] if job is not None else -1, code)

    def _start_timed_out(self) -> None:
        """The child never said "ready": end it, run this job and every later one on this thread."""
        job = self._running
        self._stop_child(1.0)
        self._running = None
        self._fall_back(f"the search process did not start within {format_sig(self.ready_timeout_s)} s")
        if job is not None:
            with self._lock:
                if self._pending is None and job[0] == self._wanted.value:
                    self._pending = job

    def _stop_child(self, timeout_s: float) -> None:
        """Ask the child to quit; terminate it, then kill it, past the deadline."""
        proc, conn = self._proc, self._conn
        if proc is None:
            return
        deadline = time.monotonic() + timeout_s
        try:
            if conn is not None:
                conn.send((search_worker.QUIT,))
        except (OSError, ValueError):
            pass
        try:
            proc.join(max(0.0, min(self._quit_grace_s, deadline - time.monotonic())))
            if proc.is_alive():
                proc.terminate()
                proc.join(max(0.1, deadline - time.monotonic()))
            if proc.is_alive():
                proc.kill()
                proc.join(1.0)
        except (OSError, ValueError, AssertionError):
            pass
        self._forget_child()
