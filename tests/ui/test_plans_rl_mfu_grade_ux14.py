"""ux14: an RL plan's Plans details read "MFU 29% (good)" (tests/data/examples_fixed/7b-grpo-lora-8xh100-vllm.json #1), under a rule
line "Estimated MFU 44%: good": the grade is of the training passes (core.evaluate ``mfu_graded``), the 29% is the
whole step with rollout generation. ``gpuplanner plan`` writes "29% (44% good)"; the details now say
"MFU 29% (training passes 44%, good)"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from gpuplanner.formatting import format_percent

EXAMPLE = Path(__file__).resolve().parents[2] / "tests" / "data" / "examples_fixed" / "7b-grpo-lora-8xh100-vllm.json"


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_an_rl_plans_grade_names_its_figure(make_window, language, qtbot, lang):
    language.install(lang)
    w = make_window()
    assert w.open_path(EXAMPLE, show_errors=False)
    qtbot.waitUntil(lambda: w.search.state in ("done", "failed"), timeout=60000)
    page = w.page("plans")
    w.go_to(5)
    qtbot.waitUntil(lambda: page.table_model.rowCount() > 0, timeout=10000)
    page.view.selectRow(0)
    QApplication.processEvents()
    text = page.details.toPlainText()
    ev = w.search.outcome.plans[0].evaluation
    assert ev.mfu_graded is not None and abs(ev.mfu_graded - ev.mfu) > 0.01
    graded = format_percent(ev.mfu_graded, 0)
    line = next(x for x in text.splitlines() if re.search(r"MFU \d+%", x) and "token" in x)
    if lang == "en":
        assert f"(training passes {graded}, " in line, line
    else:
        assert f"（训练部分 {graded}，" in line, line
