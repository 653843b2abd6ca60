"""The plan search's own process: what runs in the child (no Qt here, ever).

The app's plan search (:class:`gpuplanner.ui.live.SearchController`) runs :func:`engine.search_plans` in a
persistent child process started with the ``forkserver`` or ``spawn`` method (never ``fork``: a forked copy
of a process running Qt inherits its threads' locks in whatever state they were, see the ``multiprocessing``
docs, "Contexts and start methods"). A Python thread holds the GIL for whole numpy calls, so a search on a
thread of the GUI process stalled the window for 100–270 ms at a time (``bench/bench_ui.py --heartbeat``);
a process of its own shares nothing with the GUI thread but the CPU.

Protocol on one duplex ``multiprocessing`` connection (pickled tuples):

* parent → child: ``("search", generation, job)`` with ``job`` a dict: ``scenario`` (a ``core.scenario.Scenario``,
  custom GPUs and calibration runs inside it: the core has no process-wide registry), ``base_dir`` (where the
  model's ``config.json`` is looked for), ``ui`` (the pages' extra fields), ``top``, ``env`` (the parent's
  environment: the Hugging Face cache location and the app's folders, in case they changed since this process
  started) and ``cwd``; ``("quit",)``.
* child → parent: ``("ready", pid)`` once, then for each search one of ``("done", gen, SearchOutcome)``,
  ``("failed", gen, message)``, ``("cancelled", gen)``, preceded by any number of ``("progress", gen, fraction)``.

Cancelling: ``wanted`` is a shared integer (``multiprocessing.RawValue('q')``) the parent sets to the newest
generation; the search's cancel hook (called by ``core.search.search`` before every chunk of 64 k candidates)
compares it with its own generation, so a new edit stops the running search within one chunk, without a
message. The hook also stops when the parent has gone (its end of the connection readable: EOF), so the child
never outlives the app by more than a chunk.
"""

from __future__ import annotations

import os
import signal
import traceback

from gpuplanner.core import search as _core_search  # noqa: F401  (imported here so the fork server preloads it)
from gpuplanner.core.errors import PlannerError
from gpuplanner.core.messages import error_text

from . import engine

READY, PROGRESS, DONE, FAILED, CANCELLED = "ready", "progress", "done", "failed", "cancelled"
SEARCH, QUIT = "search", "quit"
# The search process's niceness (POSIX): on a machine whose cores are all busy the kernel's scheduler then
# wakes the GUI thread ahead of the search (CFS weight 1024 vs 335 at nice 5, see sched(7)); on an idle
# machine it changes nothing. ``GPUPLANNER_SEARCH_NICE`` (0–19) overrides it.
NICE_ENV = "GPUPLANNER_SEARCH_NICE"
NICE = 5


def _niceness() -> int:
    try:
        return min(19, max(0, int(os.environ.get(NICE_ENV, NICE))))
    except ValueError:
        return NICE


def run_job(job: dict, cancel, progress) -> tuple[str, object]:
    """One search: ``(DONE, SearchOutcome)``, ``(FAILED, message)`` or ``(CANCELLED, None)``.

    The same function runs in the child process and, as the fallback, on the parent's search thread."""
    try:
        out = engine.search_plans(job["scenario"], job.get("base_dir"), cancel=cancel, progress=progress,
                                  top=job.get("top", 20))
    except engine.Cancelled:
        return CANCELLED, None
    except PlannerError as err:
        return FAILED, error_text(err)  # keeps its message id (a MsgStr pickles with it)
    except Exception as err:  # noqa: BLE001 - reported in the status line, never a crash
        traceback.print_exc()
        return FAILED, f"{type(err).__name__}: {err}"
    if cancel():
        return CANCELLED, None
    return DONE, out


def _adopt_environment(job: dict) -> None:
    env = job.get("env")
    if env is not None and env != dict(os.environ):
        os.environ.clear()
        os.environ.update(env)
    cwd = job.get("cwd")
    if cwd:
        try:
            if os.getcwd() != cwd:
                os.chdir(cwd)
        except OSError:
            pass


def serve(conn, wanted) -> None:
    """The child's main loop: one search at a time, until ``quit`` or the parent's end closes."""
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C in the terminal is the app's to handle
    except (ValueError, OSError, AttributeError):
        pass
    if hasattr(os, "nice"):
        try:
            os.nice(_niceness())  # the window first when the cores are busy (POSIX; Windows keeps normal priority)
        except OSError:
            pass
    try:
        conn.send((READY, os.getpid()))
    except (OSError, EOFError):
        return
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return  # the app has gone
        if not msg or msg[0] == QUIT:
            return
        if msg[0] != SEARCH:
            continue
        _, gen, job = msg
        parent_gone = []

        def cancel(gen=gen) -> bool:
            if wanted.value != gen:
                return True
            try:
                # nothing else is sent while a search runs, so a readable connection is the parent's EOF
                if conn.poll():
                    parent_gone.append(True)
                    return True
            except (OSError, EOFError):
                parent_gone.append(True)
                return True
            return False

        def progress(frac: float, gen=gen) -> None:
            if wanted.value == gen:
                conn.send((PROGRESS, gen, float(frac)))

        if wanted.value != gen:
            kind, payload = CANCELLED, None
        else:
            _adopt_environment(job)
            kind, payload = run_job(job, cancel, progress)
        if kind == CANCELLED and parent_gone:
            return
        try:
            try:
                conn.send((kind, gen) if kind == CANCELLED else (kind, gen, payload))
            except (OSError, EOFError):
                raise
            except Exception as err:  # noqa: BLE001 - pickling the result failed: say so, never leave the app waiting
                conn.send((FAILED, gen, f"{type(err).__name__}: {err}"))
        except (OSError, EOFError):
            return  # the app has gone
