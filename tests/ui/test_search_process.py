"""The plan search in a process of its own (gpuplanner/app/search_process.py, search_worker.py): one answer with
the in-process search, cancelled by the next edit at its next chunk, a dead process reported once and restarted,
no process left after the window closes, the thread when processes cannot start; and the app's garbage
collection on the GUI thread only (gpuplanner/ui/gc_collector.py)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gpuplanner.core.scenario import scenario_from_dict
from gpuplanner.app import engine, search_process

ROOT = Path(__file__).resolve().parents[2]
MIXTRAL = ROOT / "examples" / "mixtral-8x7b-ep8-16xa800.json"


def _gone(proc) -> bool:
    """The search process has ended: its exit status is known and (POSIX) no such process runs any more (a
    zombie not yet reaped counts as gone: it runs nothing). Never ``os.kill`` on Windows: that terminates."""
    if proc.exitcode is None:
        return False
    if os.name == "nt":
        return True
    try:
        os.kill(proc.pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    try:
        with open(f"/proc/{proc.pid}/stat", encoding="ascii") as f:
            return f.read().split(")")[-1].split()[0] in ("Z", "X")
    except OSError:
        return True


def _big_scenario():
    """~11 M candidates (Mixtral 8x7B, framework searched, up to 4,096 GPUs): 10–40 s of search here."""
    d = json.loads(MIXTRAL.read_text(encoding="utf-8"))
    d["training"].pop("framework", None)
    d["training"].pop("global_batch_size", None)
    d["constraints"]["max_gpus"] = 4096
    return scenario_from_dict(d)


def _done(w) -> bool:
    s = w.search
    return s.state == "done" and not s._timer.isActive() and s._key == s.search_key(w.model)


def _rows(out) -> list:
    return [(r.rank, r.pareto, json.dumps(r.values, sort_keys=True, default=str), json.dumps(r.plan.to_json(),
             sort_keys=True, default=str), repr(r.plan.evaluation)) for r in out.plans]


def test_search_process_gives_the_in_process_answer_with_custom_gpu_and_model_file(make_window, qtbot, tiny_config):
    """Custom GPUs and the model's config.json travel with the job: the child's plans are the core's own."""
    w = make_window()
    qtbot.waitUntil(lambda: _done(w), timeout=30000)
    assert w.search.worker.mode == "process" and w.search.worker.pid not in (None, os.getpid())
    first_pid = w.search.worker.pid
    data = {"model": {"hf_config": str(tiny_config.resolve())}, "training": {"method": "lora", "seq_len": 2048},
            "hardware": {"gpu": "custom-my-card", "num_gpus": 1, "custom_gpus": [
                {"id": "custom-my-card", "name": "My card 48G", "memory_gib": 48, "bf16_tflops": 200,
                 "mem_bw_tbs": 1.0}]},
            "data": {"tokens": 1e8},
            "constraints": {"max_gpus": 16, "gpu_candidates": ["custom-my-card", "h100-sxm-80gb"],
                            "prices": {"custom-my-card": {"card_hour": 3.0, "currency": "CNY"}}}}
    w.model.load(scenario_from_dict(data))
    qtbot.waitUntil(lambda: _done(w) and w.search.outcome is not None, timeout=30000)
    child = w.search.outcome
    here = engine.search_plans(w.model.user_scenario(), w.model.base_dir)
    assert child.plans and any(r.plan.gpu == "custom-my-card" for r in child.plans)
    assert _rows(child) == _rows(here)
    assert (child.considered, child.fitting, child.feasible) == (here.considered, here.fitting, here.feasible)
    assert repr(child.notes) == repr(here.notes) and repr(child.skipped) == repr(here.skipped)
    assert w.search.worker.pid == first_pid            # one process, reused for every search


def test_a_new_edit_cancels_the_running_search_in_the_process(make_window, qtbot):
    w = make_window()
    qtbot.waitUntil(lambda: _done(w), timeout=30000)
    worker = w.search.worker
    pid = worker.pid
    w.model.load(_big_scenario())
    big = w.search.generation
    qtbot.waitUntil(lambda: worker.running_generation == w.search.generation, timeout=10000)
    qtbot.wait(300)                                   # the child is inside the big search's chunks
    assert w.search.state == "running"
    t_edit = time.monotonic()
    w.model.set("constraints.max_gpus", 64)           # a second edit ...
    qtbot.waitUntil(lambda: _done(w), timeout=60000)
    answers = list(worker.answers)
    cancelled = [t for kind, gen, t in answers if gen == big and kind == "cancelled"]
    assert cancelled, answers                         # ... stops the first search in the child
    assert not [a for a in answers if a[1] == big and a[0] == "done"]
    assert cancelled[0] - t_edit < 5.0                # at its next chunk (64 k candidates), not after 13.6 M
    assert worker.pid == pid                          # the same process goes on with the next search
    assert w.search.outcome.considered < 11_000_000   # the outcome is the second search's


def test_window_close_ends_the_search_process(make_window, qtbot):
    w = make_window()
    qtbot.waitUntil(lambda: _done(w), timeout=30000)
    w.model.load(_big_scenario())                     # close while a long search runs
    qtbot.waitUntil(lambda: w.search.worker.running_generation == w.search.generation, timeout=10000)
    proc = w.search.worker._proc
    assert proc is not None and proc.pid == w.search.worker.pid and not _gone(proc)
    w.model.set_dirty(False)
    t0 = time.monotonic()
    assert w.close()
    assert time.monotonic() - t0 < 6.0               # the deadline: 5 s, then terminate and kill
    qtbot.waitUntil(lambda: _gone(proc), timeout=3000)
    assert not w.search.worker.alive()


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="POSIX signals")
def test_a_killed_search_process_is_reported_once_and_the_next_search_restarts_it(make_window, qtbot):
    w = make_window()
    qtbot.waitUntil(lambda: _done(w), timeout=30000)
    notices, failures = [], []
    w.search.notice.connect(notices.append)
    w.search.failed.connect(failures.append)
    worker = w.search.worker
    w.model.load(_big_scenario())
    qtbot.waitUntil(lambda: worker.running_generation == w.search.generation and worker.ready, timeout=10000)
    pid = worker.pid
    os.kill(pid, signal.SIGKILL)                      # killed in the middle of a search
    qtbot.waitUntil(lambda: w.search.state == "failed", timeout=10000)
    qtbot.wait(200)
    assert len(notices) == 1 and len(failures) == 1, (notices, failures)
    assert "stopped unexpectedly" in notices[0] and str(-signal.SIGKILL) in notices[0]
    assert "stopped unexpectedly" in w.statusBar().currentMessage()
    assert w.search.error == notices[0]
    w.model.set("constraints.max_gpus", 64)           # the next search starts a new process
    qtbot.waitUntil(lambda: _done(w), timeout=60000)
    assert worker.pid != pid and worker.mode == "process" and w.search.outcome.plans
    # killed while idle: said once, the search state stays; the next search works again
    idle_pid = worker.pid
    qtbot.waitUntil(lambda: worker.ready, timeout=5000)
    os.kill(idle_pid, signal.SIGKILL)
    qtbot.waitUntil(lambda: len(notices) == 2, timeout=10000)
    qtbot.wait(200)
    assert len(notices) == 2 and w.search.state == "done"
    w.model.set("constraints.max_gpus", 32)
    qtbot.waitUntil(lambda: _done(w), timeout=60000)
    assert worker.pid not in (pid, idle_pid) and worker.deaths == 2


def test_the_search_runs_on_a_thread_when_processes_cannot_start(make_window, qtbot, monkeypatch):
    monkeypatch.setattr(search_process, "_START_FAILURES", [])
    context = search_process._context

    def no_processes():
        raise OSError("no processes here")

    monkeypatch.setattr(search_process, "_context", no_processes)
    w = make_window()
    qtbot.waitUntil(lambda: _done(w), timeout=30000)
    assert w.search.worker.mode == "thread" and w.search.worker.pid is None and w.search.outcome.plans
    # a child that exits before it starts (a frozen app without freeze_support, say): the same thread
    monkeypatch.setattr(search_process, "_context", context)
    monkeypatch.setattr(search_process, "_START_FAILURES", [])
    w2 = make_window()
    w2.search.worker._target = os._exit               # os._exit(conn, flag): a TypeError, exit code 1, no "ready"
    qtbot.waitUntil(lambda: _done(w2), timeout=30000)
    assert w2.search.worker.mode == "thread" and w2.search.outcome.plans
    assert search_process._START_FAILURES and "before it started" in search_process._START_FAILURES[0]


def test_a_search_process_that_never_says_ready_is_ended_and_the_thread_searches(make_window, qtbot, monkeypatch):
    """A child running something else (a frozen app without freeze_support, an unguarded main script) never says
    "ready": past the deadline it is ended and the search runs on the thread."""
    from ui_helpers import never_ready

    monkeypatch.setattr(search_process, "_START_FAILURES", [])
    w = make_window()
    worker = w.search.worker
    worker._target, worker.ready_timeout_s = never_ready, 2.0
    seen = []
    qtbot.waitUntil(lambda: worker._proc is not None and not seen.append(worker._proc), timeout=10000)
    proc = seen[-1]
    qtbot.waitUntil(lambda: _done(w), timeout=30000)
    assert worker.mode == "thread" and w.search.outcome.plans
    assert "did not start within 2 s" in search_process._START_FAILURES[0]
    qtbot.waitUntil(lambda: _gone(proc), timeout=5000)


# -------------------------------------------------------------------- garbage collection on the GUI thread

def test_main_thread_collector_collects_cycles_from_its_timer(qapp, qtbot):
    import gc
    import threading

    from gpuplanner.ui.gc_collector import MainThreadCollector

    gc.enable()
    c = MainThreadCollector(interval_ms=10)
    try:
        assert not gc.isenabled()
        freed = []

        class Node:
            def __del__(self):
                freed.append(threading.get_ident())

        a, b = Node(), Node()
        a.other, b.other = b, a                       # a reference cycle: only a collection frees it
        del a, b
        keep = []
        t0 = time.monotonic()
        while len(freed) < 2 and time.monotonic() - t0 < 10:
            # allocations past the generation-0 threshold, as a running app makes them (if the cycle was
            # promoted to an older generation, the counts reach that generation's threshold in turn)
            keep.append([[] for _ in range(gc.get_threshold()[0] + 1)])
            qtbot.wait(12)
        assert len(freed) == 2
        assert set(freed) == {threading.main_thread().ident} and c.last_thread_id == threading.main_thread().ident
        assert sum(c.collections) >= 1
        del keep
    finally:
        c.stop()
    assert gc.isenabled()                             # stop() gives collection back as it was


def test_app_start_disables_automatic_collection_and_collects_on_the_gui_thread(tmp_path):
    """``run_app`` (the real start-up, in a fresh interpreter) installs the collector before the window."""
    script = tmp_path / "start.py"
    script.write_text(
        "import gc, json, sys, threading, time\n"
        "import gpuplanner.ui.app as app_mod\n"
        "import gpuplanner.ui.main_window as mw\n"
        "from PySide6.QtWidgets import QApplication\n"
        "class FakeWindow:\n"
        "    def __init__(self, autosave=True): pass\n"
        "    def show(self): pass\n"
        "    def self_test(self):\n"
        "        app = QApplication.instance()\n"
        "        out = {'enabled_at_start': gc.isenabled(), 'collector': type(getattr(app, 'gc_collector', None)).__name__}\n"
        "        freed = []\n"
        "        class Node:\n"
        "            def __del__(self): freed.append(threading.get_ident())\n"
        "        a, b = Node(), Node(); a.o, b.o = b, a; del a, b\n"
        "        keep = [[] for _ in range(3 * gc.get_threshold()[0])]\n"
        "        t0 = time.monotonic()\n"
        "        while not freed and time.monotonic() - t0 < 10:\n"
        "            app.processEvents(); time.sleep(0.01)\n"
        "        out['freed_on_main'] = freed == [threading.main_thread().ident] * 2\n"
        "        out['after_s'] = round(time.monotonic() - t0, 2)\n"
        "        print(json.dumps(out)); return 0\n"
        "mw.MainWindow = FakeWindow\n"
        "sys.exit(app_mod.run_app(['--self-test']))\n", encoding="utf-8")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    res = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, env=env)
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert out["enabled_at_start"] is False and out["collector"] == "MainThreadCollector"
    assert out["freed_on_main"] and out["after_s"] < 5, out


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc and SIGKILL")
def test_the_search_process_ends_when_the_app_is_killed(tmp_path):
    """No orphan: the app killed (SIGKILL, no clean-up at all) in the middle of a long search (54 M candidates)
    — the child sees the end of its pipe at its next chunk and exits, long before the search would end."""
    script = tmp_path / "app.py"
    script.write_text(
        "import json, sys, time\n"
        "from PySide6.QtWidgets import QApplication\n"
        "from gpuplanner.core.scenario import scenario_from_dict\n"
        "from gpuplanner.ui.live import SearchController\n"
        "from gpuplanner.ui.model import ScenarioModel\n"
        "if __name__ == '__main__':\n"
        "    app = QApplication([])\n"
        f"    d = json.loads(open({str(MIXTRAL)!r}, encoding='utf-8').read())\n"
        "    d['training'].pop('framework', None); d['training'].pop('global_batch_size', None)\n"
        "    d['constraints']['max_gpus'] = 16384\n"  # 54 M candidates: 30+ s of search here
        "    ctl = SearchController(ScenarioModel(scenario_from_dict(d)), debounce_ms=0)\n"
        "    ctl.restart()\n"
        "    t0 = time.time()\n"
        "    while time.time() - t0 < 60 and not (ctl.worker.ready and ctl.worker.running_generation):\n"
        "        app.processEvents(); time.sleep(0.01)\n"
        "    print('child', ctl.worker.pid, flush=True)\n"
        "    time.sleep(120)\n", encoding="utf-8")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    app = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True, env=env)
    try:
        line = app.stdout.readline()
        assert line.startswith("child "), line
        child = int(line.split()[1])
        os.kill(child, 0)                             # it runs the search
    finally:
        app.kill()
        app.wait(10)

    def gone() -> bool:
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            return True
        try:
            with open(f"/proc/{child}/stat", encoding="ascii") as f:
                return f.read().split(")")[-1].split()[0] in ("Z", "X")
        except OSError:
            return True

    t0 = time.monotonic()
    while not gone() and time.monotonic() - t0 < 5:  # a chunk of 64 k candidates, not the rest of the search
        time.sleep(0.1)
    assert gone(), f"search process {child} still runs 5 s after the app was killed"
