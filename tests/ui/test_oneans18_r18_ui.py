"""Issue 35 round 18, oneans18 (4): the live summary says the memory as the sum every other view says
(core.messages.memory_sum_msg: the estimate + the margin kept free, against the card), en and zh_CN; ux28 found
"69.4 of 80 GiB per GPU — fits" beside the Plans page's and estimate's "69.4 + 2.0 kept free … = 71.4 of 80"."""

from __future__ import annotations

import pytest

from gpuplanner.app import engine
from gpuplanner.ui.text import tr_msg


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_live_summary_says_the_memory_sum(win, qtbot, lang):
    if lang != "en":
        win.set_language(lang)
    try:
        from gpuplanner.core.messages import memory_sum_msg

        ev = engine.live(win.model.scenario).evaluation
        win.live.on_estimate(engine.live(win.model.scenario))
        m = ev.memory
        text = win.live.mem_value.text()
        want = tr_msg(memory_sum_msg(m.total, m.headroom, m.capacity))
        assert want in text, (text, want)
        assert m.headroom > 0 and ("kept free on top of the estimate" in text if lang == "en" else "预留" in text)
    finally:
        if lang != "en":
            win.set_language("en")
