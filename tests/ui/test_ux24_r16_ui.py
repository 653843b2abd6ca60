"""Round 16 (helper ux24), the window's side of tests/test_ux24_r16_first_hour.py, seen in a new user's first hour at
1280×800 (English and Chinese):

- the cost-against-time chart starred the default document's "7.9 hours" plan at "0.3" on an axis in days: the axis
  reads in the chosen plan's headline unit (the PDF's rule, report.render.chart_time_unit);
- the GPU catalog wrote a month's rent "8,750.00" (every cost elsewhere is whole money: "¥69,000");
- "NICs per server" was an empty box saying nothing, between "default for the GPU" and "not checked";
- the Verify page showed a blank table under "Check" before anything was pasted;
- the Project page showed an empty "What if the work grows" table while its answer was on the way.
"""

from __future__ import annotations

import math
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
TOPO = ROOT / "tests" / "data" / "topo" / "8gpu-two-nvlink-islands.txt"


def _plan(rank, days, cost, pareto=False):
    return SimpleNamespace(rank=rank, calendar_days=days, cost=cost, pareto=pareto, num_gpus=8, gpu_name="H800 SXM5",
                           currency="CNY")


@pytest.mark.parametrize(("chosen_days", "others", "unit"), [
    (7.9 / 24, [15.8 / 24, 3.8, 2.2], "hours"),   # the default document: #1 reads "7.9 hours"
    (1.5, [1.8, 1.2], "days"),                      # a plan that reads "1.5 days": not "36" on an axis in hours
    (0.5, [0.7, 1.9], "hours"),                     # all below two days: hours, as before
    (10.0, [200.0, 30.0], "weeks"),                 # a long range keeps its weeks
    (5.0, [7.0, 12.0], "days")])
def test_the_cost_chart_reads_in_the_chosen_plans_unit(qtbot, chosen_days, others, unit):
    from gpuplanner.ui.charts import CostChart, configure_pyqtgraph

    configure_pyqtgraph()
    c = CostChart()
    qtbot.addWidget(c)
    c.resize(450, 300)
    plans = [_plan(1, chosen_days, 667.0, True)] + [_plan(i + 2, d, 700.0 + i) for i, d in enumerate(others)]
    c.update_plans(plans, 0, "CNY", deadline_days=7)
    assert c.time_unit == unit
    per = {"hours": 1 / 24, "days": 1.0, "weeks": 7.0}[unit]
    cx, _cy = c.chosen.getData()
    assert np.allclose(10 ** cx, [chosen_days / per])  # 7.9 on an axis in hours
    assert math.isclose(c.deadline.value(), math.log10(7 / per))


def test_the_cost_charts_axis_title_names_hours_in_both_languages(make_window, language, qtbot):
    from PySide6.QtCore import QCoreApplication

    for lang in ("en", "zh_CN"):
        language.install(lang)
        w = make_window(search_enabled=False)
        chart = w.live.cost_chart
        chart.update_plans([_plan(1, 7.9 / 24, 667.0, True), _plan(2, 3.8, 721.0)], 0, "CNY")
        label = chart.plot.getPlotItem().getAxis("bottom").labelText
        assert label == QCoreApplication.translate("CostChart", "hours") and label, label


@pytest.mark.parametrize(("key", "value", "text"), [
    ("card_month", 8750.0, "8,750"), ("card_week", 2100.0, "2,100"), ("card_hour", 10.5, "10.50"),
    ("card_hour", 7.0, "7.00"), ("card_month", 8625.5, "8,625.50"), ("card_month", 11_750.004, "11,750")])
def test_a_week_or_month_of_rent_is_whole_money(key, value, text):
    from gpuplanner.ui.pages.hardware_page import price_cell_text

    assert price_cell_text(key, value) == text


def test_the_gpu_catalog_shows_the_h100_month_without_cents(make_window, language):
    """H100 SXM5 in the mainland table: ¥70,000 per 8-GPU server-month = 8,750 per card (resources/prices.json)."""
    from gpuplanner.ui.pages.hardware_page import PRICE_COLS

    language.install("en")
    w = make_window(search_enabled=False)
    page = w.page("hardware")
    row = page.row_ids.index("h100-sxm-80gb")
    assert page.table.item(row, PRICE_COLS["card_month"]).text() == "8,750"
    assert page.table.item(page.row_ids.index("h800-sxm-80gb"), PRICE_COLS["card_hour"]).text() == "10.50"


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_nics_box_says_what_empty_means(make_window, language, lang):
    from PySide6.QtCore import QCoreApplication

    language.install(lang)
    w = make_window(search_enabled=False)
    nics = w.page("hardware").nics
    assert nics.text() == ""
    want = QCoreApplication.translate("HardwarePage", "the network's default")
    assert nics.placeholderText() == want and want, nics.placeholderText()
    assert lang == "en" or want == "网络的默认值"


def test_the_topology_table_shows_only_with_a_matrix(qtbot):
    from gpuplanner.io.scenario_files import load_scenario
    from gpuplanner.ui.verify_panel import VerifyPanel

    p = VerifyPanel()
    qtbot.addWidget(p)
    p.set_scenario(*load_scenario(ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json"))
    p.show()
    assert not p.topo_table.isVisibleTo(p)  # nothing pasted: no blank box
    assert p.load_topology_text(TOPO.read_text())
    assert p.topo_table.isVisibleTo(p) and p.topo_table.rowCount() == 8
    assert not p.load_topology_text("hello\nworld\n")
    assert not p.topo_table.isVisibleTo(p) and p.topo_verdict.text()  # the reason, no empty table


def test_the_what_if_table_waits_for_the_projects_answer(make_window, language, qtbot):
    language.install("en")
    w = make_window()
    w.resize(1280, 800)
    page = w.page("project")
    page.result, page.error = None, ""
    page.recompute()
    assert not page.whatif_box.isVisibleTo(page)
    qtbot.waitUntil(lambda: page.result is not None, timeout=120000)
    assert page.whatif_box.isVisibleTo(page) and page.whatif.rowCount() >= 1
