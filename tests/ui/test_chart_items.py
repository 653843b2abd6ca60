"""The live charts' own light items (issue 20): the scaling chart's log-log lines, the memory chart's stacked
bars, and axes that stay where they are when an edit moves the data a little (an unchanged range keeps
pyqtgraph's axis pictures: no re-measured ticks per keystroke)."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest


def _layout_requests(widget):
    """An event filter installed on ``widget`` that counts its layout requests in ``.n`` (set it to 0 to
    restart)."""
    from PySide6.QtCore import QEvent, QObject

    class Count(QObject):
        n = 0

        def eventFilter(self, obj, ev):  # noqa: N802
            if ev.type() == QEvent.Type.LayoutRequest:
                self.n += 1
            return False

    f = Count(widget)  # (parented: lives as long as the widget)
    widget.installEventFilter(f)
    return f

def test_nice_ceil_and_log_snap():
    from gpuplanner.ui.charts import nice_ceil, snap_log_range

    assert nice_ceil(212.0) == 250.0
    assert nice_ceil(250.0) == 250.0
    assert nice_ceil(283.0) == 300.0
    assert nice_ceil(0.93) == pytest.approx(1.0)
    assert nice_ceil(9.1) == 10.0
    assert nice_ceil(81.0) == 100.0
    assert math.isnan(nice_ceil(float("nan")))
    lo, hi = snap_log_range(1300.0, 240000.0)   # 3.11 .. 5.38 decades -> 3.0 .. 5.5
    assert (lo, hi) == (3.0, 5.5)
    assert snap_log_range(1000.0, 10 ** 5.5) == (3.0, 5.5)  # already on the grid: unchanged
    # the snapped range always contains the data
    for a, b in ((3.7, 41.0), (0.02, 0.9), (1.0, 1e9)):
        lo, hi = snap_log_range(a, b)
        assert lo <= math.log10(a) and hi >= math.log10(b)


def test_log_line_item_points_and_gaps(qtbot):
    import pyqtgraph as pg

    from gpuplanner.ui.charts import LogLineItem

    w = pg.PlotWidget()
    qtbot.addWidget(w)
    item = LogLineItem(pg.mkPen("r", width=2), symbol_brush="r")
    w.getPlotItem().addItem(item)
    x = np.array([1.0, 2.0, 4.0, 8.0])
    y = np.array([10.0, float("nan"), 1000.0, -1.0])
    item.setData(x, y)
    gx, gy = item.getData()
    assert list(gx) == list(x) and np.array_equal(gy, y, equal_nan=True)  # what was given, kept as given
    # only finite positive points count, in log10 coordinates
    assert item.dataBounds(0) == (0.0, pytest.approx(math.log10(4)))
    assert item.dataBounds(1) == (1.0, 3.0)
    r = item.boundingRect()
    assert r.left() < 0.0 < math.log10(4) < r.right() and r.top() < 1.0 and r.bottom() > 3.0
    item.setData([], [])
    assert item.dataBounds(0) == (None, None) and item.boundingRect().isEmpty()


def test_stacked_bars_item_bounds_and_no_redraw_when_unchanged(qtbot):
    import pyqtgraph as pg

    from gpuplanner.ui.charts import StackedBarsItem

    w = pg.PlotWidget()
    qtbot.addWidget(w)
    item = StackedBarsItem(0.62, 0.66, pg.mkPen("w"), pg.mkPen("r", width=2.5))
    w.getPlotItem().addItem(item)
    b1, b2 = pg.mkBrush("b"), pg.mkBrush("g")
    h1, h2 = np.array([10.0, 20.0]), np.array([5.0, 50.0])
    item.set_bars([(b1, np.zeros(2), h1), (b2, h1, h2)], h1 + h2, [False, True])
    assert item.dataBounds(1) == (0.0, 70.0)
    assert item.dataBounds(0) == (-0.33, pytest.approx(1.33))
    key = item._key
    updates = []
    item.update = lambda *a: updates.append(a)  # noqa: E731  (what a repaint request would be)
    item.set_bars([(b1, np.zeros(2), h1.copy()), (b2, h1.copy(), h2.copy())], h1 + h2, [False, True])
    assert updates == [] and item._key == key                    # the same bars: no repaint asked
    item.set_bars([(b1, np.zeros(2), h1), (b2, h1, h2 * 2)], h1 + h2 * 2, [False, True])
    assert len(updates) == 1 and item.dataBounds(1) == (0.0, 120.0)


def _memory(parts: dict, capacity: float = 80.0):
    total = sum(parts.values())
    return SimpleNamespace(parts=parts, total=total, capacity=capacity, headroom=4.0, fits=total <= capacity - 4.0,
                           extra={})


def test_memory_axis_stays_put_for_a_small_change(qtbot):
    """Totals 207 -> 210 GiB: the axis top is 250 both times (a round figure above 1.18 × the tallest bar), the
    view's range is not set again and the left axis keeps its drawn picture; 207 -> 290 (a bar cut at 3 × the card: 240 GiB) moves it to 300."""
    from gpuplanner.ui.charts import MemoryChart

    c = MemoryChart()
    qtbot.addWidget(c)
    c.resize(500, 300)
    c.show()
    qtbot.waitExposed(c)

    def items(tall: float):
        return [("Current", _memory({"weights": 16.0, "activations": 30.0})),
                ("ZeRO-0", _memory({"weights": 16.0, "optimizer": 96.0, "activations": tall - 112.0}))]

    pi = c.plot.getPlotItem()
    axis = pi.getAxis("left")
    drawn = []
    orig = axis.generateDrawSpecs
    axis.generateDrawSpecs = lambda p: (drawn.append(1), orig(p))[1]
    c.update_bars(items(207.0))
    qtbot.wait(50)
    assert pi.vb.viewRange()[1] == [0.0, 250.0]
    assert drawn, "the axis was drawn"
    drawn.clear()
    c.update_bars(items(210.0))
    qtbot.wait(50)
    assert pi.vb.viewRange()[1] == [0.0, 250.0]
    assert drawn == []                        # not re-measured
    assert list(c.data["total"]) == [46.0, 210.0]
    c.update_bars(items(290.0))
    qtbot.wait(50)
    assert pi.vb.viewRange()[1] == [0.0, 300.0]  # cut at 3 × the card (240 GiB), × 1.18 -> 300
    assert drawn                              # a new range: new ticks


def test_same_scaling_treats_nan_as_equal_and_sees_any_change():
    from gpuplanner.core.evaluate import Scaling, ScalingSeries
    from gpuplanner.ui.live import _same_scaling

    nan = float("nan")

    def sweep(last: float, days: float = 3.0):
        return Scaling(series=(ScalingSeries("nvlink", (1, 2, 4), (nan, 10.0, last), (nan, days, 1.5),
                                             (nan, 2.0, 1.0)),), ideal_gpus=(2, 4), ideal_tokens_per_s=(10.0, 20.0),
                       required_tokens_per_s=None, deadline_days=14.0)

    assert _same_scaling(sweep(19.0), sweep(19.0))          # NaN where nothing fits: still the same sweep
    assert not _same_scaling(sweep(19.0), sweep(19.5))      # the last point moved
    assert not _same_scaling(sweep(19.0), sweep(19.0, days=3.1))
    assert not _same_scaling(sweep(19.0), None) and not _same_scaling(None, None)


def test_hover_texts_are_built_when_hovered(qtbot):
    """The tooltips of the bars are formatted on the first hover, not on every update, and say the same."""
    from gpuplanner.ui.charts import MemoryChart

    c = MemoryChart()
    qtbot.addWidget(c)
    c.update_bars([("Current", _memory({"weights": 16.0, "activations": 30.0}))])
    assert all(callable(h._text) for h in c._hover)           # nothing formatted yet
    tip = c._hover[0].text
    assert tip.splitlines()[0] == "Current" and "Total: 46.00 of 80.0 GiB" in tip and "fits" in tip
    assert c._hover[0]._text == tip                          # kept once built
    assert c._hover[3].text == tip                           # the bar's four points share it


def test_scaling_chart_says_so_when_no_count_runs(qtbot):
    """Every point out of memory (NaN): the chart says that no layout fits, not an empty frame."""
    from gpuplanner.core.evaluate import Scaling, ScalingSeries
    from gpuplanner.ui.charts import ScalingChart

    nan = float("nan")
    c = ScalingChart()
    qtbot.addWidget(c)
    res = Scaling(series=(ScalingSeries("nvlink", (4, 8), (nan, nan), (nan, nan), (nan, nan)),), ideal_gpus=(),
                  ideal_tokens_per_s=(), required_tokens_per_s=1653.0, deadline_days=14.0)
    c.update_from(res)
    assert c.empty.text() == "No layout of this scenario fits at these GPU counts."
    assert not c.data and not c.deadline.isVisible()
    ok = Scaling(series=(ScalingSeries("nvlink", (4, 8), (nan, 900.0), (nan, 20.0), (nan, 19.0)),), ideal_gpus=(8,),
                 ideal_tokens_per_s=(900.0,), required_tokens_per_s=1653.0, deadline_days=14.0)
    c.update_from(ok)
    assert c.empty.text() == "" and list(c.data["nvlink"][1]) == [900.0]


def test_exported_png_scales_our_pens_and_markers_like_the_text(qtbot):
    """A 1600-px PNG of a ~400-px chart: pyqtgraph's ImageExporter tells items its resolutionScale; our items grow
    their pens and markers by it (as its scatter symbols do), so lines do not turn hairline next to big text."""
    import pyqtgraph as pg

    from gpuplanner.ui.charts import LogLineItem, _export_scale, _scaled_pen

    item = LogLineItem(pg.mkPen("r", width=2), symbol_brush="r")
    assert _export_scale(item) == 1.0
    item._exportOpts = {"resolutionScale": 3.5, "antialias": True}
    assert _export_scale(item) == 3.5
    pen = pg.mkPen("r", width=2)
    assert _scaled_pen(pen, 3.5).widthF() == 7.0 and pen.widthF() == 2.0   # the item's own pen is left alone
    assert _scaled_pen(pen, 1.0) is pen


class _Click:
    """What pyqtgraph's scene hands ``mouseClickEvent``: a position in item coordinates, a button, accept/ignore."""

    def __init__(self, pos, button=None):
        from PySide6.QtCore import Qt

        self._pos, self._button = pos, button or Qt.MouseButton.LeftButton
        self.accepted = None

    def pos(self):
        return self._pos

    def button(self):
        return self._button

    def accept(self):
        self.accepted = True

    def ignore(self):
        self.accepted = False


def _points_plot(qtbot):
    import pyqtgraph as pg

    from gpuplanner.ui.charts import PointsItem

    w = pg.PlotWidget()
    qtbot.addWidget(w)
    w.resize(400, 300)
    w.show()
    qtbot.waitExposed(w)
    item = PointsItem((120, 120, 120, 150), size=7)
    w.getPlotItem().addItem(item)
    return w, item


def test_points_item_bounds_and_no_redraw_when_unchanged(qtbot):
    w, item = _points_plot(qtbot)
    w.getPlotItem().vb.setRange(xRange=(0, 10), yRange=(0, 10), padding=0)    # ~40 px per unit
    item.setData([0.0, 1.0, 2.0], [1.0, 3.0, float("nan")], data=[5, 6, 7])
    assert item.dataBounds(0) == (0.0, 2.0) and item.dataBounds(1) == (1.0, 3.0)  # NaN left out
    r = item.boundingRect()
    # padded by the marker's radius and a pixel (~4.5 px: ~0.11 units), a little beyond the points, never short
    assert r.left() < 0.0 and r.right() > 2.0 and r.top() < 1.0 and r.bottom() > 3.0
    assert r.width() < 2.5 and r.height() < 2.5
    assert item.point_data() == [5, 6, 7]
    updates = []
    item.update = lambda *a: updates.append(a)  # noqa: E731
    item.setData(np.array([0.0, 1.0, 2.0]), np.array([1.0, 3.0, float("nan")]), data=[5, 6, 7])
    assert updates == []                                     # the same points: no repaint asked
    item.setData([0.0, 1.0, 2.0], [1.0, 3.0, float("nan")], data=[5, 6, 8])
    assert len(updates) == 1                                 # other data: a repaint
    with pytest.raises(ValueError):
        item.setData([0.0, 1.0], [1.0], data=[1, 2])
    item.setData([], [], data=[])
    assert item.dataBounds(0) == (None, None) and item.boundingRect().isEmpty()


def test_points_item_hit_test_and_click(qtbot):
    from PySide6.QtCore import QPointF, Qt

    w, item = _points_plot(qtbot)
    vb = w.getPlotItem().vb
    vb.setRange(xRange=(0, 10), yRange=(0, 10), padding=0)
    item.setData([2.0, 2.2, 8.0], [2.0, 2.0, 8.0], data=[10, 11, 12])
    qtbot.wait(20)
    px = vb.viewPixelSize()[0]                              # data units per screen pixel (x)
    assert item.index_at(QPointF(8.0, 8.0)) == 2
    assert item.index_at(QPointF(8.0 + 5 * px, 8.0)) == 2   # within the 3.5-px radius and 2 px of slack
    assert item.index_at(QPointF(8.0 + 7 * px, 8.0)) is None
    assert item.index_at(QPointF(2.15, 2.0)) == 1           # two markers overlap: the nearest centre wins
    assert item.index_at(QPointF(5.0, 5.0)) is None
    got = []
    item.clicked.connect(got.append)
    ev = _Click(QPointF(2.02, 2.0))
    item.mouseClickEvent(ev)
    assert ev.accepted is True and got == [10]
    ev = _Click(QPointF(5.0, 5.0))
    item.mouseClickEvent(ev)
    assert ev.accepted is False and got == [10]               # empty space: the click goes on to the view
    ev = _Click(QPointF(8.0, 8.0), Qt.MouseButton.RightButton)
    item.mouseClickEvent(ev)
    assert ev.accepted is False and got == [10]               # the right button is the view's menu


def test_points_item_paints_its_markers_and_grows_them_in_an_export(qtbot):
    """Markers land where the points are, in the brush's colour, ``size`` pixels across (and ``resolutionScale``
    times that in an exported image, as pyqtgraph's scatter symbols)."""
    from PySide6.QtGui import QColor, QImage, QPainter, QTransform

    from gpuplanner.ui.charts import PointsItem

    def render(scale):
        item = PointsItem("#ff0000", size=10)
        item.setData([0.0], [0.0])
        if scale != 1.0:
            item._exportOpts = {"resolutionScale": scale}
        img = QImage(100, 100, QImage.Format.Format_ARGB32)
        img.fill(QColor("white"))
        p = QPainter(img)
        p.setTransform(QTransform.fromTranslate(50, 50))    # the point (0, 0) at pixel (50, 50)
        item.paint(p)
        p.end()
        red = [x for x in range(100) if QColor(img.pixel(x, 50)).red() > 200 and QColor(img.pixel(x, 50)).green() < 60]
        return red

    one = render(1.0)
    assert one and 44 <= min(one) and max(one) <= 55 and 8 <= len(one) <= 11    # 10 px across, centred on 50
    three = render(3.0)
    assert 28 <= len(three) <= 31 and min(three) < 37 and max(three) > 63


def test_cost_chart_plans_click_and_no_redraw_when_unchanged(qtbot):
    """The cost chart draws each plan with a cost and a duration, stars the chosen one, emits the plan's index when
    its marker is clicked, and asks for no repaint when the same plans come again."""
    from PySide6.QtCore import QPointF
    from PySide6.QtWidgets import QApplication

    from gpuplanner.ui.charts import CostChart, configure_pyqtgraph

    configure_pyqtgraph()

    def plan(rank, days, cost, pareto=False):
        return SimpleNamespace(rank=rank, calendar_days=days, cost=cost, pareto=pareto, num_gpus=8,
                               gpu_name="H100 SXM", currency="USD")

    plans = [plan(1, 10.0, 5000.0, True), plan(2, 20.0, 3000.0, True), plan(3, 15.0, 9000.0),
             plan(4, 0.0, 100.0)]                             # no duration: not drawn
    c = CostChart()
    qtbot.addWidget(c)
    c.resize(450, 300)
    c.show()
    qtbot.waitExposed(c)
    c.update_plans(plans, 1, "USD")
    xs, ys = c.all.getData()
    assert list(c.all.point_data()) == [0, 1, 2]
    assert np.allclose(10 ** xs, [10.0, 20.0, 15.0]) and np.allclose(10 ** ys, [5000.0, 3000.0, 9000.0])
    cx, cy = c.chosen.getData()
    assert np.allclose(10 ** cx, [20.0]) and np.allclose(10 ** cy, [3000.0])   # the star on plan #2
    assert c.data["front"] == [(10.0, 5000.0), (20.0, 3000.0)]
    QApplication.processEvents()
    clicked = []
    c.planClicked.connect(clicked.append)
    ev = _Click(QPointF(float(xs[2]), float(ys[2])))
    c.all.mouseClickEvent(ev)
    assert ev.accepted and clicked == [2]
    updates = []
    for it in (c.all, c.front, c.chosen):
        it.update = lambda *a: updates.append(a)  # noqa: E731
    c.update_plans(plans, 1, "USD")
    assert updates == []                                     # the same plans: nothing to redraw
    # the hover text of a point is that plan's, built when asked for
    assert all(callable(h._text) for h in c._hover)
    assert c._hover[2].text.startswith("#3 8 ×")


def test_cost_chart_updating_mark_does_not_relayout_the_chart(qtbot):
    """The "updating…" mark has a fixed size: showing and clearing it repaints the label only; no layout request
    reaches the chart (a growing label re-laid out the chart, its splitter and the panel on every keystroke)."""
    from PySide6.QtWidgets import QApplication

    from gpuplanner.ui.charts import CostChart

    c = CostChart()
    qtbot.addWidget(c)
    c.resize(450, 300)
    c.show()
    qtbot.waitExposed(c)
    lab = c.updating_label
    assert lab.minimumSize() == lab.maximumSize()            # fixed
    assert lab.width() >= lab.fontMetrics().horizontalAdvance("updating…")

    count = _layout_requests(c)
    QApplication.processEvents()
    count.n = 0
    for on in (True, False, True, False):
        c.set_updating(on)
        QApplication.processEvents()
        assert lab.text() == ("updating…" if on else "")
        assert bool(lab.toolTip()) is on
    assert count.n == 0


def test_memory_chart_grid_has_two_levels(qtbot):
    """The memory axis draws grid lines at its major and minor ticks only (a third level, ~4 % opaque, cost ~1 ms
    per paint): 0..200 GiB over ~220 px gives lines every 50 and 10 GiB, not every 5."""
    from gpuplanner.ui.charts import MemoryChart

    c = MemoryChart()
    qtbot.addWidget(c)
    c.resize(438, 300)
    c.show()
    qtbot.waitExposed(c)
    c.update_bars([("Current", _memory({"weights": 16.0, "activations": 150.0}))])
    qtbot.wait(50)
    axis = c.plot.getPlotItem().getAxis("left")
    assert axis.style["maxTickLevel"] == 1
    pic = _DrawnTicks(axis)
    assert pic.lines and all(abs(y / 10.0 - round(y / 10.0)) < 1e-6 for y in pic.values)   # none at 5, 15, …


class _DrawnTicks:
    """The tick values an axis draws: its draw specs, as pyqtgraph computes them for its picture."""

    def __init__(self, axis):
        from PySide6.QtGui import QPainter, QPicture

        pic = QPicture()
        p = QPainter(pic)
        specs = axis.generateDrawSpecs(p)
        p.end()
        _axis_spec, tick_specs, _text = specs
        self.lines = tick_specs
        lo, hi = axis.range
        # tick lines are horizontal on a left axis: their y in the axis' pixels maps back to values
        ys = sorted({round(t[1].y(), 3) for t in tick_specs})
        top, bottom = axis.mapRectFromParent(axis.geometry()).top(), axis.mapRectFromParent(axis.geometry()).bottom()
        self.values = [hi - (y - top) / (bottom - top) * (hi - lo) for y in ys]


def test_legend_text_changes_do_not_relayout_the_chart_unless_its_height_changes(qtbot):
    """A chart's legend sits in a box without a layout: a new legend of the same height repaints it and lays out
    nothing above it; a legend that wraps to more lines grows the box (and so the chart's layout), and the label
    always fills the box."""

    from gpuplanner.ui.charts import CostChart, legend_html

    c = CostChart()
    qtbot.addWidget(c)
    c.resize(450, 300)
    c.show()
    qtbot.waitExposed(c)
    qtbot.wait(20)

    count = _layout_requests(c)
    box, lab = c.legend_box, c.legend_label
    one_line = box.height()
    assert one_line > 0 and lab.geometry() == box.rect()
    count.n = 0
    lab.setText(legend_html([("#888", "●", "plans"), ("#1565c0", "●—", "front")]))   # still one line
    qtbot.wait(20)
    assert count.n == 0 and box.height() == one_line
    lab.setText(legend_html([("#888", "●", f"a rather long legend entry number {i}") for i in range(6)]))
    qtbot.wait(20)                                              # (the box's request, then the chart's)
    assert box.height() > one_line and count.n >= 1               # wraps: the chart makes room
    assert lab.geometry() == box.rect()
    assert lab.heightForWidth(box.width()) == box.height()
    c.resize(900, 300)                                          # wider: fewer lines
    qtbot.wait(20)
    assert box.height() == lab.heightForWidth(box.width()) and lab.geometry() == box.rect()


def test_fit_height_box_follows_its_child_and_stops_layout_requests(qtbot):
    """FitHeightBox: the child fills the box at its height for the box's width; a child whose size hint changes
    without changing that height reaches no layout above the box."""
    from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

    from gpuplanner.ui.fit_box import FitHeightBox

    outer = QWidget()
    qtbot.addWidget(outer)
    lay = QVBoxLayout(outer)
    lab = QLabel("12.5 of 80 GiB")
    lab.setWordWrap(True)
    box = FitHeightBox(lab)
    lay.addWidget(box)
    lay.addStretch(1)
    outer.resize(300, 200)
    outer.show()
    qtbot.waitExposed(outer)
    qtbot.wait(20)

    count = _layout_requests(outer)
    h1 = box.height()
    assert h1 == lab.heightForWidth(box.width()) and lab.geometry() == box.rect() and box.width() > 250
    lab.setText("13.1 of 80 GiB")                              # same height
    qtbot.wait(20)
    assert count.n == 0 and box.height() == h1
    lab.setText("13.1 of 80 GiB\nhost RAM for offload: 120 GiB per node")   # a second line
    qtbot.wait(20)
    assert box.height() > h1 and count.n >= 1 and lab.geometry() == box.rect()


def test_a_hidden_lines_label_catches_up_when_the_line_is_shown(qtbot):
    """LabeledLine: the label of a hidden deadline/budget line is not moved with every change of the view; shown
    again, it stands where pyqtgraph would have put it."""
    from gpuplanner.ui.charts import CostChart, LabeledLine, configure_pyqtgraph

    configure_pyqtgraph()

    def plan(rank, days, cost):
        return SimpleNamespace(rank=rank, calendar_days=days, cost=cost, pareto=rank == 1, num_gpus=8,
                               gpu_name="H100 SXM", currency="USD")

    c = CostChart()
    qtbot.addWidget(c)
    c.resize(450, 300)
    c.show()
    qtbot.waitExposed(c)
    assert isinstance(c.budget, LabeledLine)
    small = [plan(1, 10.0, 5000.0), plan(2, 20.0, 3000.0)]
    c.update_plans(small, 0, "USD", budget=1e9)               # far above every plan: hidden
    qtbot.wait(20)
    assert not c.budget.isVisible()
    label = c.budget.label
    moved = []
    orig = type(label).updatePosition
    label.updatePosition = lambda: (moved.append(1), orig(label))[1]  # noqa: E731
    c.update_plans([plan(1, 100.0, 50000.0), plan(2, 300.0, 20000.0)], 0, "USD", budget=1e9)   # new range
    qtbot.wait(20)
    assert moved == [] and label._gp_stale                    # hidden: not followed
    c.update_plans([plan(1, 100.0, 50000.0), plan(2, 300.0, 20000.0)], 0, "USD", budget=60000.0)
    qtbot.wait(20)
    assert c.budget.isVisible() and moved and not label._gp_stale
    assert label.toPlainText() == "budget"                    # its text, set while the line was hidden
    pos = label.pos()
    orig(label)                                               # where pyqtgraph puts it now
    assert label.pos() == pos
    # the deadline line, first shown with plans that reach near it: labelled too
    c.update_plans([plan(1, 100.0, 50000.0), plan(2, 300.0, 20000.0)], 0, "USD", deadline_days=400.0,
                   budget=60000.0)
    qtbot.wait(20)
    assert c.deadline.isVisible() and c.deadline.label.toPlainText() == "deadline"


def test_memory_bar_totals_use_the_applications_font(qtbot):
    """Issue 36's review: the totals over the memory bars were drawn in a serif face (``QFont("", 8)``: an empty
    family), unlike the chart's other text; now they are the application's font at 8 pt."""
    from PySide6.QtGui import QFontInfo
    from PySide6.QtWidgets import QApplication

    from gpuplanner.ui.charts import MemoryChart

    c = MemoryChart()
    qtbot.addWidget(c)
    f = c.totals[0].textItem.font()
    assert f.pointSize() == 8
    assert QFontInfo(f).family() == QFontInfo(QApplication.font()).family()
