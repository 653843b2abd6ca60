"""Run an app function off the GUI thread and hand its result back to the GUI thread (a queued signal).

For work that is rare and short-lived (a report, a project's evaluation): one persistent worker thread. The
estimate, the scaling sweep and the plan search have their own persistent workers (:mod:`gpuplanner.ui.live`).
"""

from __future__ import annotations

import queue
import threading
import traceback
from typing import Any, Callable

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal

from gpuplanner.core.errors import PlannerError


class _Delivery(QObject):
    """Carries a worker's result to the GUI thread."""

    done = Signal(object, object, object)  # callback, result, error


def _deliver(cb, res, err) -> None:
    try:
        cb(res, err)
    except RuntimeError as e:  # the widget the answer was for is gone (its window closed meanwhile)
        if "already deleted" not in str(e):
            raise


_DELIVERY: list[_Delivery] = []
_JOBS: "queue.SimpleQueue" = queue.SimpleQueue()
_WORKER: list["threading.Thread | None"] = [None]
_PENDING = [0]  # jobs handed over and not finished (read on the GUI thread)
_LOCK = threading.Lock()


def run_jobs(jobs: "queue.SimpleQueue") -> None:
    """A persistent worker thread's loop (this module's and :mod:`gpuplanner.ui.live`'s): run each job in turn;
    ``None`` ends it (:func:`stop_worker`)."""
    while True:
        job = jobs.get()
        if job is None:
            return
        job()
        del job  # what the job held is freed now, on this thread (not when the next job arrives)


def stop_worker(thread: "threading.Thread | None", jobs: "queue.SimpleQueue", timeout_s: float) -> None:
    """End the worker ``thread`` of :func:`run_jobs` on ``jobs`` once the jobs handed to it are done (why:
    :func:`shutdown`); the caller forgets the thread."""
    if thread is not None and thread.is_alive():
        jobs.put(None)
        thread.join(timeout_s)


def run_off_gui(work: Callable[[], Any], then: Callable[[Any, Exception | None], None]) -> None:
    """Run ``work`` on the worker thread (one, persistent: jobs run in turn, and what Qt keeps per thread — fonts,
    QRawFonts — is made once), then ``then(result, error)`` on the GUI thread (``error``: what ``work`` raised — a
    :class:`PlannerError` or :class:`OSError` as it is, anything else printed first — else None)."""
    if not _DELIVERY:
        d = _Delivery()
        d.moveToThread(QCoreApplication.instance().thread())
        d.done.connect(_deliver, Qt.ConnectionType.QueuedConnection)
        _DELIVERY.append(d)
    delivery = _DELIVERY[0]

    def body() -> None:
        try:
            res, err = work(), None
        except (PlannerError, OSError) as e:
            res, err = None, e
        except Exception as e:  # noqa: BLE001 - shown as a message rather than lost on a thread
            traceback.print_exc()
            res, err = None, e
        finally:
            with _LOCK:
                _PENDING[0] -= 1
        try:
            delivery.done.emit(then, res, err)
        except RuntimeError:
            pass  # the application is gone

    with _LOCK:
        _PENDING[0] += 1
    if _WORKER[0] is None or not _WORKER[0].is_alive():
        _WORKER[0] = threading.Thread(target=run_jobs, args=(_JOBS,), name="off-gui", daemon=True)
        _WORKER[0].start()
    _JOBS.put(body)


def busy() -> bool:
    """Some work handed to :func:`run_off_gui` has not finished."""
    return _PENDING[0] > 0


def shutdown(timeout_s: float = 5.0) -> None:
    """End the worker thread once the jobs handed to it are done (on close and at the self-test's end). A daemon
    thread still inside Qt when Python finalizes takes the process down: CPython up to 3.13 ends such a thread with
    ``pthread_exit`` (``PyThread_exit_thread`` in ``take_gil``), whose forced unwinding cannot cross PySide's C++
    frames, and the C++ runtime calls ``std::terminate`` ("terminate called without an active exception").
    A later :func:`run_off_gui` starts a new worker."""
    stop_worker(_WORKER[0], _JOBS, timeout_s)
    _WORKER[0] = None


def end_worker_threads() -> None:
    """Let the app's own worker threads finish and end before Python finalizes (why: :func:`shutdown`): this
    module's worker and the release thread of :mod:`gpuplanner.ui.live` (the estimate, sweep and search workers
    end in their own ``shutdown``)."""
    from .live import stop_release_thread

    shutdown()
    stop_release_thread()
