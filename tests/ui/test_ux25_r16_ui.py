"""ux25 in the app (issue 35 r16): the Training page's rollout sentence follows the RL schedule (it said "Each step
first generates…" under the one-step-off and asynchronous schedules too); the live panel states the rollouts' whole
share of the step and names the parts the CLI's rows carve out of it (it read the remainder alone: 16% where the
rollouts took 26%); the Quotes page's Note column is wide enough to read, its text wrapped (one line of 49 px read
"A80… list…" at 1280×800)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_ux25_r16 import _grpo  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _open(make_window, qtbot, tmp_path, d: dict):
    doc = tmp_path / "doc.json"
    doc.write_text(json.dumps(d), encoding="utf-8")
    w = make_window()
    assert w.open_path(doc, show_errors=False)
    qtbot.waitUntil(lambda: getattr(w.estimator.result, "evaluation", None) is not None
                    and w.estimator.result.evaluation.scenario == w.model.scenario, timeout=30000)
    return w


@pytest.mark.parametrize("schedule, words", [
    ("on_policy", "Each step first generates 512 prompt + 2048 completion tokens per rollout."),
    ("one_step_off", "While each step trains, the next step's rollouts (512 prompt + 2048 completion tokens each)"),
    ("async", "are generated up to 4 steps ahead while the training runs; only generation that outlasts"),
])
def test_the_training_page_words_the_schedule(schedule, words, make_window, qtbot, tmp_path):
    w = _open(make_window, qtbot, tmp_path, _grpo(schedule))
    page = w.page("training")
    qtbot.waitUntil(lambda: words in page.obj_info.text(), timeout=5000)
    if schedule != "on_policy":
        assert "Each step first generates" not in page.obj_info.text()


def test_the_live_panel_states_the_whole_rollout_share(make_window, qtbot, tmp_path):
    from gpuplanner.formatting import format_percent

    w = _open(make_window, qtbot, tmp_path, _grpo("async"))
    te = w.estimator.result.evaluation.time
    whole, parts = te.rollout_shares
    panel = w.live
    want = f"rollouts the training does not hide: {format_percent(whole, 1)} of each step"
    qtbot.waitUntil(lambda: want in panel.time_value.text(), timeout=5000)
    line = next(ln for ln in panel.time_value.text().splitlines() if ln.startswith("rollouts"))
    # the parts at the CLI's rows' percents, in the panel's few words
    assert f", of which waiting for the longest {format_percent(parts['rollout_wait_longest'], 1)}" in line, line
    assert f"loading the weights {format_percent(parts['weight_refit'], 1)}" in line, line
    assert "rollout generation: " not in panel.time_value.text()


def test_the_live_panel_in_chinese_names_the_parts(make_window, qtbot, tmp_path, language):
    language.install("zh_CN")
    w = _open(make_window, qtbot, tmp_path, _grpo("async"))
    qtbot.waitUntil(lambda: "训练未能掩盖的采样：占每步的" in w.live.time_value.text(), timeout=5000)
    assert "，其中等待最长的生成 " in w.live.time_value.text(), w.live.time_value.text()


def test_the_quotes_note_column_is_readable(make_window, qtbot):
    from gpuplanner.io.quote_sheets import read_quotes
    from gpuplanner.ui.main_window import PAGE_KEYS

    w = make_window(search_enabled=False)
    w.resize(1280, 800)
    qp = w.page("quotes")
    w.go_to(PAGE_KEYS.index("quotes"))
    qp.set_quotes([q for f in sorted((ROOT / "examples" / "quotes").glob("*.csv")) for q in read_quotes(f)])
    qtbot.wait(200)
    t = qp.offers
    last = t.columnCount() - 1
    fm = t.fontMetrics()
    assert t.columnWidth(last) >= 12 * fm.averageCharWidth(), [t.columnWidth(c) for c in range(t.columnCount())]
    assert t.wordWrap() and not t.horizontalScrollBar().isVisible()
    row = next(r for r in range(t.rowCount()) if t.item(r, last) is not None and len(t.item(r, last).text()) > 20)
    assert t.rowHeight(row) >= 2 * fm.height()  # the note wrapped onto lines the row makes room for
