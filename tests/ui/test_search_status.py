"""The plan search's traces on the GUI thread per keystroke (issue 20 "Fast at any size"): the status bar's search
box keeps a fixed size, progress reaches it at most four times a second, the search's key is the model's own dump
(no JSON per keystroke), and the previous plans are freed off the GUI thread."""

from __future__ import annotations

import threading
import weakref

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication


class _LayoutRequests(QObject):
    def __init__(self):
        super().__init__()
        self.n = 0

    def eventFilter(self, obj, ev):  # noqa: N802
        if ev.type() == QEvent.Type.LayoutRequest:
            self.n += 1
        return False


def test_search_box_has_a_fixed_size_that_fits_its_texts_in_both_languages(make_window, qtbot, qapp):
    from gpuplanner.i18n import LanguageManager

    w = make_window(search_enabled=False)
    lm = LanguageManager(qapp)
    seen = []
    try:
        for lang in ("en", "zh_CN"):
            assert lm.install(lang)
            QApplication.processEvents()
            box, lab = w.search_box, w.search_label
            assert box.minimumSize() == box.maximumSize()      # fixed: its changes stop there
            fm = lab.fontMetrics()
            texts = w._search_texts(888)
            seen.append(texts["running"])
            for text in texts.values():
                # every text fits beside the progress bar
                assert fm.horizontalAdvance(text) <= box.width() - w.search_progress.width()
    finally:
        lm.install("en")
        QApplication.processEvents()
    assert seen[0] == "Searching plans…" and seen[1] != seen[0]   # the box was sized for the Chinese texts too


def test_search_status_changes_do_not_relayout_the_status_bar(make_window, qtbot):
    w = make_window(search_enabled=False)
    qtbot.waitExposed(w)
    qtbot.wait(100)                                         # the window's own first layouts are done
    f = _LayoutRequests()
    w.statusBar().installEventFilter(f)
    s = w.search
    s.state = "running"
    w.search_progress.setValue(70)
    w.search_progress.hide()
    w._update_search_status()
    assert w.search_label.text() == "Searching plans…"
    assert w.search_progress.isVisible() and w.search_progress.value() == 0   # a new search: an empty bar
    QApplication.processEvents()
    s.state, s.outcome = "done", type("Out", (), {"plans": [object()] * 20})()
    w._update_search_status()
    assert w.search_label.text() == "20 plans" and not w.search_progress.isVisible()
    QApplication.processEvents()
    s.state = "failed"
    w._update_search_status()
    assert w.search_label.text() == "Plan search failed"
    QApplication.processEvents()
    assert f.n == 0                                         # the box re-laid out itself, nothing above it
    s.state, s.outcome = "idle", None


def test_progress_reaches_the_window_at_most_four_times_a_second(make_window):
    from gpuplanner.ui.live import PROGRESS_INTERVAL_S

    w = make_window(search_enabled=False)
    s = w.search
    assert PROGRESS_INTERVAL_S == 0.25
    s._progress_at = (7, 100.0)                             # search 7 started (or last reported) at t = 100 s
    assert not s._progress_due(7, 100.1)                    # 0.1 s into it: not shown
    assert s._progress_due(7, 100.3)                        # 0.3 s: shown
    assert not s._progress_due(7, 100.5)                    # 0.2 s after the last one: not yet
    assert s._progress_due(7, 100.56)
    assert s._progress_due(8, 100.57)                       # another search: its first report counts afresh
    got = []
    s.progress.connect(got.append)
    s._progress_at = (s.generation, 0.0)
    s._worker_event("progress", s.generation, 0.8)          # long after the start: passed on (queued)
    s._worker_event("progress", s.generation, 0.9)          # at once again: dropped
    QApplication.processEvents()
    assert got == [0.8]


def test_search_key_is_the_models_dump_and_follows_the_inputs(make_window):
    from gpuplanner.ui.live import SearchController

    w = make_window(search_enabled=False)
    m = w.model
    k1 = SearchController.search_key(m)
    assert k1 == SearchController.search_key(m) and k1[0] is m.user_dump()   # no new text per call
    assert k1[0] == m.user_scenario().model_dump()
    m.set("training.seq_len", m.scenario.training.seq_len * 2)
    k2 = SearchController.search_key(m)
    assert k2 != k1 and k2[0]["training"]["seq_len"] == m.scenario.training.seq_len


def test_previous_plans_are_freed_off_the_gui_thread():
    from gpuplanner.ui.live import release_elsewhere

    class Plans:
        pass

    freed_on = []
    done = threading.Event()
    obj = Plans()
    weakref.finalize(obj, lambda: (freed_on.append(threading.get_ident()), done.set()))
    release_elsewhere(obj)
    del obj
    assert done.wait(5)
    assert freed_on and freed_on[0] != threading.get_ident()
    release_elsewhere(None)                                 # nothing to free: nothing happens


def test_a_finished_search_frees_the_previous_outcome_elsewhere(make_window):
    from gpuplanner.app import engine

    w = make_window(search_enabled=False)
    s = w.search
    freed_on = []
    done = threading.Event()
    first = engine.SearchOutcome(plans=[])
    weakref.finalize(first, lambda: (freed_on.append(threading.get_ident()), done.set()))
    s.generation += 1
    s._on_finished(s.generation, first)
    del first
    assert s.outcome is not None and not done.is_set()      # shown: kept
    s._on_finished(s.generation, engine.SearchOutcome(plans=[]))
    assert done.wait(5) and freed_on[0] != threading.get_ident()


def test_a_hidden_plans_page_selects_and_describes_its_plan_when_shown(win, qtbot):
    """While the person types on another page, a finished search does not rebuild the Plans page's details nor
    select a row of its hidden table (each made the table measure every cell: ~10 ms per keystroke); the plan is
    still taken at once (the model, the live charts, clicks on the cost chart), and the page shows its row and
    details when it is shown."""
    page = win.page("plans")                                # built, not shown
    assert not page.isVisible()
    page.details.setHtml("<p>before</p>")
    gen = win.search.generation
    win.model.set("data.tokens", win.model.scenario.data.tokens * 2)
    qtbot.waitUntil(lambda: win.search.generation > gen and win.search.state == "done", timeout=20000)
    qtbot.wait(50)                                          # (the row is selected on a 0-ms timer)
    assert page.details.toPlainText() == "before"           # not rebuilt while hidden
    rank = win.model.ui["selected_plan"]
    assert page.current_plan().rank == rank and page.current_plan() in win.search.outcome.plans
    # a click on the cost chart while the page is hidden takes that plan at once
    plans = win.live.cost_chart.plans
    assert len(plans) >= 3
    win._on_cost_point(2)
    assert win.model.ui["selected_plan"] == plans[2].rank
    assert page.current_plan() is plans[2]
    assert page.details.toPlainText() == "before"
    win.go_to(5)
    qtbot.waitUntil(page.isVisible, timeout=2000)
    assert page.view.currentIndex().isValid()
    assert page.proxy.data(page.view.currentIndex(), 257).rank == plans[2].rank   # its row, selected now
    assert page.details.toPlainText().startswith(f"#{plans[2].rank}:")              # and its details
