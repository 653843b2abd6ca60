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


def _loop() -> None:
    while True:
        job = _JOBS.get()
        if job is None:  # shutdown()
            return
        job()
        del job


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
        _WORKER[0] = threading.Thread(target=_loop, name="off-gui", daemon=True)
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
    worker = _WORKER[0]
    if worker is not None and worker.is_alive():
        _JOBS.put(None)
        worker.join(timeout_s)
    _WORKER[0] = None


def end_worker_threads() -> None:
    """Let the app's own worker threads finish and end before Python finalizes (why: :func:`shutdown`): this
    module's worker and the release thread of :mod:`gpuplanner.ui.live` (the estimate, sweep and search workers
    end in their own ``shutdown``)."""
    from .live import stop_release_thread

    shutdown()
    stop_release_thread()
