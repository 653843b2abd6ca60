"""The app's worker threads end before Python finalizes (a daemon thread still inside Qt then takes the process
down with std::terminate: the self-test's "terminate called without an active exception", exit -6, seen once
under load in CI on 2026-12-07)."""

import threading
import time

from gpuplanner.ui import live, offthread


def test_the_off_gui_worker_finishes_its_job_and_ends(qapp):
    ran = []
    offthread.run_off_gui(lambda: (time.sleep(0.3), ran.append(1)), lambda res, err: None)
    worker = offthread._WORKER[0]
    assert worker is not None and worker.is_alive()
    offthread.end_worker_threads()
    assert ran == [1]                      # the job was let finish, not dropped
    assert not worker.is_alive()           # and the thread ended
    assert not offthread.busy()
    assert not any(t.name == "off-gui" and t.is_alive() for t in threading.enumerate())


def test_a_new_job_after_the_end_starts_a_new_worker(qapp):
    offthread.end_worker_threads()
    done = threading.Event()
    offthread.run_off_gui(done.set, lambda res, err: None)
    assert done.wait(5)
    offthread.end_worker_threads()


def test_the_release_thread_ends(qapp):
    live.release_elsewhere(object())
    thread = live._RELEASE_THREAD[0]
    assert thread is not None
    offthread.end_worker_threads()
    assert not thread.is_alive()
    assert live._RELEASE_THREAD[0] is None
