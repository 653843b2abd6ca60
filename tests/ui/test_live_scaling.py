"""The scaling sweep on its worker thread: the chart gets the sweep of the latest inputs, stale sweeps are
dropped, an unchanged sweep does not repaint the chart (issue "Fast at any size")."""

from __future__ import annotations

from gpuplanner.app import engine
from gpuplanner.ui.live import LiveEstimator
from gpuplanner.ui.model import ScenarioModel


def _sweep(model):
    return engine.scaling(model.scenario, model.base_dir)


def test_an_edit_sweeps_off_the_gui_thread_and_the_latest_inputs_win(qtbot):
    m = ScenarioModel()
    est = LiveEstimator(m)
    got = []
    est.scalingUpdated.connect(got.append)
    with qtbot.waitSignal(est.scalingUpdated, timeout=20_000):
        m.set("training.seq_len", "1024")
    assert repr(got[-1]) == repr(_sweep(m)) and got[-1].series
    # three edits in a row while sweeps run: whatever arrives last is the sweep of the last inputs
    for v in ("2048", "8192", "4096"):
        m.set("training.seq_len", v)
        qtbot.wait(5)
    qtbot.waitUntil(lambda: not est.scaling_busy() and not est._scaling_timer.isActive(), timeout=20_000)
    qtbot.wait(20)
    assert m.scenario.training.seq_len == 4096
    assert repr(est.scaling) == repr(_sweep(m)) and repr(got[-1]) == repr(est.scaling)
    est.shutdown()


def test_an_unchanged_sweep_does_not_repaint(qtbot):
    m = ScenarioModel()
    est = LiveEstimator(m)
    est.run_scaling_now()  # the explicit call always delivers
    got = []
    est.scalingUpdated.connect(got.append)
    est.run_scaling_async()  # same inputs: same points, no signal
    qtbot.waitUntil(lambda: not est.scaling_busy(), timeout=20_000)
    qtbot.wait(20)
    assert got == [] and est.scaling is not None
    est.shutdown()


def test_an_edit_is_estimated_off_the_gui_thread_and_the_latest_inputs_win(qtbot, monkeypatch):
    """An edit's estimate runs on the estimate thread (the GUI thread only applies the answer); of several edits
    in a row only the last one's answer is kept; ``run_now`` estimates on the calling thread at once."""
    import threading

    m = ScenarioModel()
    est = LiveEstimator(m)
    threads = []
    real = engine.live

    def spy(scenario, base_dir=None):
        threads.append(threading.current_thread())
        return real(scenario, base_dir)

    monkeypatch.setattr(engine, "live", spy)
    got = []
    est.updated.connect(got.append)
    with qtbot.waitSignal(est.updated, timeout=20_000):
        m.set("training.seq_len", "1024")
    assert threads and threads[-1] is not threading.main_thread()
    assert got[-1].evaluation.scenario.training.seq_len == 1024
    for v in ("2048", "8192", "4096"):
        m.set("training.seq_len", v)
        qtbot.wait(1)
    qtbot.waitUntil(lambda: not est.estimate_busy(), timeout=20_000)
    qtbot.wait(20)
    assert est.result.evaluation.scenario.training.seq_len == 4096
    assert [r.evaluation.scenario.training.seq_len for r in got][-1] == 4096
    assert est.result.evaluation.memory.total == real(m.scenario, m.base_dir).evaluation.memory.total
    # a stale answer is dropped: an answer of an older generation does not replace the current result
    current = est.result
    est._on_estimate_done(est._estimate_generation - 1, real(m.scenario.model_copy(), None), 1.0)
    assert est.result is current
    threads.clear()
    est.run_now()
    assert threads == [threading.main_thread()]
    est.shutdown()
