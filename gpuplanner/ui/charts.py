"""Live charts (pyqtgraph): memory per GPU, scaling with GPU count, cost against time.

Items are created once and updated in place with ``setOpts``/``setData`` (about twice as fast as
clearing and re-adding, and it keeps the legend and the user's zoom; qt-app-engineering notes §C1).
Hovering shows the values under the cursor; every chart exports as PNG (``ImageExporter``; SVG is
broken in pyqtgraph 0.14.0, notes §C2).
"""

from __future__ import annotations

import html
import math
from typing import Any, Callable

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QCursor, QFont, QPainter, QPainterPath, QPen, QPixmap
from PySide6.QtWidgets import (
    QComboBox, QFileDialog, QHBoxLayout, QLabel, QMenu, QMessageBox, QToolButton, QToolTip, QVBoxLayout, QWidget,
)

from gpuplanner.formatting import (
    format_axis, format_count, format_duration, format_money, format_number, format_sig, gpu_display_name,
    pick_time_unit,
)

from gpuplanner.app import engine
from .fit_box import FitHeightBox
from .text import set_text, tr_msg

SERIES_COLORS = {
    "weights": "#4e79a7", "gradients": "#f28e2b", "optimizer": "#59a14f", "activations": "#b07aa1",
    "other": "#9c9c9c",
    # models and buffers a training objective adds (core/methods.py), each its own part
    "reference": "#76b7b2", "reward": "#edc948", "critic": "#ff9da7", "rollout_weights": "#9c755f",
    "kv_cache": "#e15759",
}
LINK_COLORS = {"nvlink": "#2e7d32", "pcie": "#ef6c00", "multinode": "#1565c0"}
RED = "#d32f2f"


def short_num(v: float) -> str:
    """Compact axis label in the UI language, never scientific notation: 950, 20K / 2万, 3M / 300万, 0.2
    (the one formatter, :func:`gpuplanner.formatting.format_axis`)."""
    return format_axis(v)


def gpu_ticks(lo: float, hi: float) -> list[tuple[float, str]]:
    """Ticks for a log GPU-count axis at the counts people rent: 1, 2, 4, 8, 16, … (every other power of two
    when the range spans many); never a fractional GPU."""
    if not (hi > 0 and math.isfinite(lo) and math.isfinite(hi)):
        return []
    lo = max(lo, 1.0)
    k0, k1 = math.ceil(math.log2(lo) - 1e-9), math.floor(math.log2(hi) + 1e-9)
    vals = [2 ** k for k in range(k0, k1 + 1)]
    step = 1 if len(vals) <= 10 else 2
    vals = vals[::step]
    return [(math.log10(v), format_count(v)) for v in vals]


# Axis ranges snap outward to a coarse grid, so typing that moves the data a little leaves the axes where they are:
# an unchanged range keeps pyqtgraph's cached axis pictures and every item's view transform (a changed range makes
# each axis re-measure and redraw its ticks, ~1 ms each per keystroke) and the chart does not jump while one types.
LOG_RANGE_STEP = 0.25  # decades
NICE_STEPS = (1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0)


def nice_ceil(v: float) -> float:
    """The smallest of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 × 10^k that is ≥ ``v`` (``v`` itself when not finite
    and positive)."""
    if not (v > 0 and math.isfinite(v)):
        return v
    e = math.floor(math.log10(v))
    for step in NICE_STEPS:
        top = step * 10.0 ** e
        if top >= v * (1 - 1e-12):
            return top
    return 10.0 ** (e + 1)


def snap_log_range(lo: float, hi: float, step: float = LOG_RANGE_STEP) -> tuple[float, float]:
    """``(log10 lo, log10 hi)`` widened outward to multiples of ``step`` decades."""
    a, b = math.log10(lo), math.log10(hi)
    return math.floor(a / step + 1e-9) * step, math.ceil(b / step - 1e-9) * step


def log_ticks(lo: float, hi: float, fmt=short_num, max_ticks: int | None = None) -> list[tuple[float, str]]:
    """Ticks for a log axis between ``lo`` and ``hi`` at 1-2-5 steps (1-9 when the range is narrow); at most
    ``max_ticks`` of them (what the axis has room for: labels never run into each other)."""
    if not (lo > 0 and hi > 0 and math.isfinite(lo) and math.isfinite(hi)):
        return []
    if hi < lo:
        lo, hi = hi, lo
    limit = max(3, max_ticks) if max_ticks else 9  # three labels fit any axis drawn (~22 px each)
    k0, k1 = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
    options = []
    for mults in ((1,), (1, 3), (1, 2, 5), (1, 2, 3, 5, 7), tuple(range(1, 10))):
        options.append([m * 10.0 ** k for k in range(k0, k1 + 1) for m in mults if lo <= m * 10.0 ** k <= hi])

    def inside(v: list) -> int:  # a tick on the very edge of the view is often not drawn (no room for its label)
        return sum(lo * 1.02 < x < hi / 1.02 for x in v)

    # the sparsest choice with three ticks or more inside the range that fits; else the densest that fits
    vals = next((v for v in options if 3 <= inside(v) <= limit), None)
    if vals is None:
        fitting = [v for v in options if inside(v) <= limit]
        vals = fitting[-1] if fitting else options[0]
    while inside(vals) > limit:  # many decades: keep every other one
        vals = vals[::2]
    if len(vals) < 2:  # less than a decade between two of the 1–9 steps (9K–18K): even steps inside the range
        from gpuplanner.report.charts import narrow_log_values

        vals = narrow_log_values(lo, hi, limit)
    return [(math.log10(v), fmt(float(round(v, 12)))) for v in vals]


def unbreakable(text: str) -> str:
    """``text`` that a line never breaks inside: no-break spaces, and a word joiner (U+2060, UAX #14 class WJ)
    between characters, since Chinese may otherwise break between any two characters ("截止时/间")."""
    return "\u2060".join(text).replace(" ", "\u00a0")


def legend_html(items: list[tuple[str, str, str]]) -> str:
    """A legend line: (colour, marker, label) -> HTML with coloured markers; it wraps between items, never
    inside one."""
    return " &nbsp;".join(
        f"<span style='white-space:nowrap'><span style='color:{c}'>{html.escape(unbreakable(m))}</span>&nbsp;"
        f"{html.escape(unbreakable(lab))}</span>"
        for c, m, lab in items)


class FormattedAxis(pg.AxisItem):
    """An axis whose tick labels come from the one formatter (:func:`format_axis`): 20K / 2万, never
    ``1e+06``, and no "(x0.001)" rescaling of its title."""

    def __init__(self, *a, **k):
        super().__init__(*a, **k)
        self.enableAutoSIPrefix(False)

    def tickStrings(self, values, scale, spacing):  # noqa: N802 (pyqtgraph)
        return [format_axis(v * scale) for v in values]


def configure_pyqtgraph() -> None:
    """White, print-friendly charts (set before any plot widget is created)."""
    pg.setConfigOptions(antialias=True, background="w", foreground="k")


def set_ticks(axis, ticks) -> None:
    """``axis.setTicks(ticks)`` only when they change: new ticks make pyqtgraph re-measure and redraw the axis."""
    if getattr(axis, "_gp_ticks", None) != ticks:
        axis.setTicks(ticks)
        axis._gp_ticks = ticks


def set_axis_label(plot_item, side: str, text: str) -> None:
    """``plot_item.setLabel(side, text)`` only when it changes (a new label re-lays out the whole plot)."""
    axis = plot_item.getAxis(side)
    if getattr(axis, "_gp_label", None) != text:
        plot_item.setLabel(side, text)
        axis._gp_label = text


def _set_line_label(line, text: str) -> None:
    """An ``InfiniteLine``'s label text, set only when it changes (setting it re-lays out its text item)."""
    if getattr(line, "_gp_label", None) != text:
        line.label.setFormat(text)
        line._gp_label = text


def _export_scale(item) -> float:
    """While pyqtgraph's ImageExporter renders the chart larger than on screen (a 1600-px PNG of a 430-px chart),
    the factor by which pixel sizes grow (its ``resolutionScale``, what its own scatter symbols use); else 1."""
    opts = getattr(item, "_exportOpts", False)
    return float(opts.get("resolutionScale", 1.0)) if opts else 1.0


def _scaled_pen(pen, scale: float):
    if scale == 1.0:
        return pen
    out = QPen(pen)
    out.setWidthF(pen.widthF() * scale)
    return out


class _LightItem(pg.GraphicsObject):
    """What our light data items share: a bounding box kept until the data or the view changes, padded by a few
    pixels (pens and markers are drawn in pixels), from the item's own :meth:`dataBounds`."""

    def __init__(self):
        super().__init__()
        self._rect = None

    def _pad_px(self) -> float:
        """Pixels beyond the data that the pens and markers reach."""
        raise NotImplementedError

    def _data_changed(self) -> None:
        self.prepareGeometryChange()
        self._rect = None
        self.informViewBoundsChanged()
        self.update()

    def viewTransformChanged(self) -> None:  # noqa: N802 (the padding is in pixels)
        self.prepareGeometryChange()
        self._rect = None
        super().viewTransformChanged()

    def boundingRect(self):  # noqa: N802
        if self._rect is None:
            x0, x1 = self.dataBounds(0)
            if x0 is None:
                self._rect = QRectF()
            else:
                y0, y1 = self.dataBounds(1)
                pad = self._pad_px()
                pw, ph = self.pixelWidth() or 0.0, self.pixelHeight() or 0.0
                self._rect = QRectF(x0 - pad * pw, y0 - pad * ph, (x1 - x0) + 2 * pad * pw, (y1 - y0) + 2 * pad * ph)
        return self._rect


class LogLineItem(_LightItem):
    """A polyline with round markers on a log-log plot, drawn by one ``paint`` (the scaling chart's curves).

    ``pg.PlotDataItem`` with symbols builds a curve item and a scatter item and re-derives both on each
    ``setData`` (~1 ms per curve, four curves per keystroke); this item keeps the log10 points and paints them in
    device coordinates: cosmetic pens and markers of a fixed size in pixels, as pyqtgraph draws them. Points that
    are not finite and positive are gaps (``connect="finite"``). Its coordinates are log10 of the data, like the
    view of a plot in log mode (so it ignores ``setLogMode``).
    """

    def __init__(self, pen, symbol_brush=None, symbol_size: float = 6.0):
        super().__init__()
        self._pen = pen
        self._brush = pg.mkBrush(symbol_brush) if symbol_brush is not None else None
        self._size = float(symbol_size)
        self._x = np.zeros(0)
        self._y = np.zeros(0)
        self._lx = np.zeros(0)
        self._ly = np.zeros(0)

    def setData(self, x, y) -> None:  # noqa: N802 (pyqtgraph's name)
        x = np.asarray(x, dtype=float)
        y = np.asarray(y, dtype=float)
        if x.shape == self._x.shape and np.array_equal(x, self._x) and np.array_equal(y, self._y, equal_nan=True):
            return  # the same points: nothing to redraw
        self._x, self._y = x.copy(), y.copy()
        ok = np.isfinite(x) & np.isfinite(y) & (x > 0) & (y > 0)
        with np.errstate(divide="ignore", invalid="ignore"):
            self._lx = np.where(ok, np.log10(np.where(ok, x, 1.0)), np.nan)
            self._ly = np.where(ok, np.log10(np.where(ok, y, 1.0)), np.nan)
        self._data_changed()

    def getData(self):  # noqa: N802
        return self._x, self._y

    def dataBounds(self, ax: int, frac: float = 1.0, orthoRange=None):  # noqa: N802 (the view's autoRange)
        v = self._lx if ax == 0 else self._ly
        v = v[np.isfinite(v)]
        return (float(v.min()), float(v.max())) if v.size else (None, None)

    def _pad_px(self) -> float:
        return self._size / 2 + 2 + self._pen.widthF()

    def paint(self, p, *_args) -> None:
        ok = np.isfinite(self._lx)
        if not ok.any():
            return
        tr = p.transform()
        pts = [tr.map(QPointF(float(a), float(b))) if f else None for a, b, f in zip(self._lx, self._ly, ok)]
        scale = _export_scale(self)  # an exported PNG: lines and markers grow with the text
        p.save()
        p.resetTransform()
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        path = QPainterPath()
        pen_down = False
        for q in pts:
            if q is None:
                pen_down = False
            elif pen_down:
                path.lineTo(q)
            else:
                path.moveTo(q)
                pen_down = True
        p.setPen(_scaled_pen(self._pen, scale))
        p.drawPath(path)
        if self._brush is not None:
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(self._brush)
            r = self._size / 2 * scale
            for q in pts:
                if q is not None:
                    p.drawEllipse(q, r, r)
        p.restore()


class StackedBarsItem(_LightItem):
    """The memory chart's stacked bars and their "does not fit" outlines, as one item with one ``paint``.

    Ten ``pg.BarGraphItem`` series (one per memory part) and an outline item each re-derived their rectangles,
    bounding box and picture on every update and were asked for their bounding box ~40 times per keystroke;
    this item keeps plain rectangles. Bars stand at x = 0, 1, …; ``width`` and ``outline_width`` are in those
    units; pens are cosmetic (pixels), as pyqtgraph draws them.
    """

    def __init__(self, width: float, outline_width: float, segment_pen, outline_pen):
        super().__init__()
        self._width = float(width)
        self._outline_width = float(outline_width)
        self._segment_pen = segment_pen
        self._outline_pen = outline_pen
        self._segments: list[tuple[Any, np.ndarray, np.ndarray]] = []   # (brush, bottoms, heights) per part
        self._totals = np.zeros(0)
        self._outlined = np.zeros(0, dtype=bool)
        self._key: Any = None

    def set_bars(self, segments: list[tuple[Any, np.ndarray, np.ndarray]], totals: np.ndarray,
                 outlined: list[bool]) -> None:
        """``segments``: (brush, bottoms, heights) per part, drawn in order; ``outlined``: bars drawn with the
        outline pen around their total."""
        key = (tuple((id(b), tuple(y0), tuple(h)) for b, y0, h in segments), tuple(totals), tuple(outlined))
        if key == self._key:
            return  # the same bars: nothing to redraw
        self._key = key
        self._segments = [(b, np.asarray(y0, float), np.asarray(h, float)) for b, y0, h in segments]
        self._totals = np.asarray(totals, dtype=float)
        self._outlined = np.asarray(outlined, dtype=bool)
        self._data_changed()

    def dataBounds(self, ax: int, frac: float = 1.0, orthoRange=None):  # noqa: N802 (the view's autoRange)
        n = len(self._totals)
        if not n:
            return (None, None)
        if ax == 0:
            half = max(self._width, self._outline_width) / 2
            return (-half, n - 1 + half)
        top = float(np.nanmax(self._totals)) if np.isfinite(self._totals).any() else 0.0
        return (0.0, max(top, 0.0))

    def _pad_px(self) -> float:
        return self._outline_pen.widthF() + 1

    def paint(self, p, *_args) -> None:
        half = self._width / 2
        scale = _export_scale(self)  # an exported PNG: pens grow with the text
        p.setPen(_scaled_pen(self._segment_pen, scale))
        for brush, bottoms, heights in self._segments:
            p.setBrush(brush)
            for i, (y0, h) in enumerate(zip(bottoms, heights)):
                if h > 0 and math.isfinite(h) and math.isfinite(y0):
                    p.drawRect(QRectF(i - half, float(y0), self._width, float(h)))
        if self._outlined.any():
            p.setPen(_scaled_pen(self._outline_pen, scale))
            p.setBrush(Qt.BrushStyle.NoBrush)
            half = self._outline_width / 2
            for i, (t, out) in enumerate(zip(self._totals, self._outlined)):
                if out and math.isfinite(t):
                    p.drawRect(QRectF(i - half, 0.0, self._outline_width, float(t)))


class PointsItem(_LightItem):
    """Markers of a fixed size in pixels at points given in view coordinates (log10 already applied on a log plot,
    as pyqtgraph's ``ScatterPlotItem`` is given them), drawn by one ``paint``; a left click on a marker emits
    ``clicked`` with that point's ``data`` (the cost chart's plans: click to select).

    ``pg.ScatterPlotItem`` re-derived its styles, spot atlas and bounding box on every ``setData`` and was asked
    for its bounds a dozen times per update (~3 ms of the GUI thread each time new plans arrived, issue "Fast at
    any size"); this item keeps the points and paints them as pyqtgraph's scatter does in pixel mode: each symbol
    (``pyqtgraph``'s own paths: ``"o"``, ``"star"``, …) drawn at its device position, ``size`` pixels across, with
    a cosmetic pen; in an exported PNG markers and pens grow with the exporter's ``resolutionScale``, as
    pyqtgraph's do."""

    clicked = Signal(object)   # the ``data`` of the marker clicked

    CLICK_SLACK_PX = 2.0       # a click this far outside a marker's edge still takes it

    def __init__(self, brush, pen=None, size: float = 7.0, symbol: str = "o"):
        super().__init__()
        from pyqtgraph.graphicsItems.ScatterPlotItem import Symbols

        self._brush = pg.mkBrush(brush)
        self._pen = pg.mkPen(pen) if pen is not None else None
        self._size = float(size)
        self._path = Symbols[symbol]
        self._sprite_key: tuple[float, float] | None = None
        self._sprite_pix: QPixmap | None = None
        self._x = np.zeros(0)
        self._y = np.zeros(0)
        self._data: list = []

    def setData(self, x, y, data=None) -> None:  # noqa: N802 (pyqtgraph's name)
        x = np.asarray(x, dtype=float)
        y = np.asarray(y, dtype=float)
        data = list(data) if data is not None else [None] * len(x)
        if (x.shape == self._x.shape and np.array_equal(x, self._x, equal_nan=True)
                and np.array_equal(y, self._y, equal_nan=True) and data == self._data):
            return  # the same points: nothing to redraw
        if not (x.shape == y.shape and len(data) == len(x)):
            raise ValueError("x, y and data differ in length")
        self._x, self._y, self._data = x.copy(), y.copy(), data
        self._data_changed()

    def getData(self):  # noqa: N802
        return self._x, self._y

    def point_data(self) -> list:
        return list(self._data)

    def dataBounds(self, ax: int, frac: float = 1.0, orthoRange=None):  # noqa: N802 (the view's autoRange)
        v = self._x if ax == 0 else self._y
        v = v[np.isfinite(v)]
        return (float(v.min()), float(v.max())) if v.size else (None, None)

    def _pad_px(self) -> float:
        return self._size / 2 + 1 + (self._pen.widthF() if self._pen is not None else 0.0)

    def _device_points(self, tr) -> list[QPointF | None]:
        return [tr.map(QPointF(float(a), float(b))) if math.isfinite(a) and math.isfinite(b) else None
                for a, b in zip(self._x, self._y)]

    def _sprite(self, scale: float, dpr: float) -> QPixmap:
        """The marker drawn once (antialiased, ``size × scale`` pixels across, at the device's pixel ratio) and
        copied to every point, as pyqtgraph's scatter does with its atlas: drawing the path at each point cost
        ~20 µs a marker."""
        key = (scale, dpr)
        if self._sprite_key != key:
            size = self._size * scale
            pen = _scaled_pen(self._pen, scale) if self._pen is not None else None
            side = size + (pen.widthF() if pen is not None else 0.0) + 2.0  # pixels, with room for the pen
            n = max(1, int(math.ceil(side * dpr)))
            pix = QPixmap(n, n)
            pix.fill(Qt.GlobalColor.transparent)
            q = QPainter(pix)
            q.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            q.translate(n / 2, n / 2)
            q.scale(size * dpr, size * dpr)
            if pen is not None:
                pen = QPen(pen)
                pen.setCosmetic(True)
                pen.setWidthF(pen.widthF() * dpr)
                q.setPen(pen)
            else:
                q.setPen(Qt.PenStyle.NoPen)
            q.setBrush(self._brush)
            q.drawPath(self._path)
            q.end()
            pix.setDevicePixelRatio(dpr)
            self._sprite_pix, self._sprite_key = pix, key
        return self._sprite_pix

    def paint(self, p, *_args) -> None:
        if not self._x.size:
            return
        pts = self._device_points(p.transform())
        scale = _export_scale(self)  # an exported PNG: markers and pens grow with the text
        dev = p.device()
        dpr = float(dev.devicePixelRatioF()) if dev is not None else 1.0
        sprite = self._sprite(scale, dpr)
        half = sprite.width() / dpr / 2
        p.save()
        p.resetTransform()
        for q in pts:
            if q is not None:
                p.drawPixmap(QPointF(q.x() - half, q.y() - half), sprite)
        p.restore()

    def index_at(self, pos: QPointF) -> int | None:
        """The index of the marker under ``pos`` (item coordinates): the nearest whose centre is within its
        radius plus :attr:`CLICK_SLACK_PX` pixels on screen; None when there is none."""
        tr = self.deviceTransform_()  # pyqtgraph's: the view's transform included (None: not shown)
        if tr is None:
            return None
        at = tr.map(pos)
        best, best_d2 = None, (self._size / 2 + self.CLICK_SLACK_PX) ** 2
        for i, q in enumerate(self._device_points(tr)):
            if q is None:
                continue
            d2 = (q.x() - at.x()) ** 2 + (q.y() - at.y()) ** 2
            if d2 <= best_d2:
                best, best_d2 = i, d2
        return best

    def mouseClickEvent(self, ev) -> None:  # noqa: N802 (pyqtgraph's scene calls it)
        i = self.index_at(ev.pos()) if ev.button() == Qt.MouseButton.LeftButton else None
        if i is None:
            ev.ignore()  # not on a marker: the items below (the view) get the click
            return
        ev.accept()
        self.clicked.emit(self._data[i])


def _follow_while_shown(label) -> Callable[[], None]:
    """``label.viewTransformChanged`` that runs only while the label's line is shown (else marks it stale). No
    positional parameters: the view's signal passes the view, which a slot with parameters would receive."""
    follow = label.viewTransformChanged

    def view_changed(*_args) -> None:
        line = label.parentItem()
        if line is None or line.isVisible():
            follow()
        else:
            label._gp_stale = True
    return view_changed


class LabeledLine(pg.InfiniteLine):
    """``pg.InfiniteLine`` whose label follows the view only while the line is shown: pyqtgraph moves the label
    of a hidden line along with every change of the view (~0.2 ms per label each time new plans or a new sweep
    change the range); here a hidden line's label — its text, value and place — is brought up to date when the
    line is shown again."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        label = getattr(self, "label", None)
        if label is not None:
            label.viewTransformChanged = _follow_while_shown(label)  # (pyqtgraph connects this to the view)

    def setVisible(self, visible: bool) -> None:  # noqa: N802 (Qt's name)
        was_visible = self.isVisible()
        super().setVisible(visible)
        label = getattr(self, "label", None)
        if visible and not was_visible and label is not None:
            # pyqtgraph's label ignores its line's value and text while hidden: both are applied now, with its
            # position in the current view
            label._gp_stale = False
            label.valueChanged()


class _HoverPoint:
    """A point of a chart that shows ``text`` when the pointer is near it. ``x``, ``y``: view coordinates (log10
    already applied in log mode). ``text`` may be a function of no arguments: it is called the first time the text
    is asked for (formatting every tooltip of a chart cost ~0.5 ms per keystroke; most updates are never hovered,
    and a tooltip built on hover is in the language shown at that moment)."""

    __slots__ = ("x", "y", "_text")

    def __init__(self, x: float, y: float, text: "str | Callable[[], str]"):
        self.x = x
        self.y = y
        self._text = text

    @property
    def text(self) -> str:
        if callable(self._text):
            self._text = self._text()
        return self._text


def _once(fn: Callable[[], str]) -> Callable[[], str]:
    """``fn`` called at most once (several hover points of one bar share its tooltip)."""
    memo: list[str] = []

    def get() -> str:
        if not memo:
            memo.append(fn())
        return memo[0]
    return get


class ChartBase(QWidget):
    """A titled pyqtgraph plot with an export button, an empty-state message and point hovering."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        head = QHBoxLayout()
        head.setContentsMargins(4, 0, 0, 0)
        self.title_label = QLabel()
        f = self.title_label.font()
        f.setBold(True)
        self.title_label.setFont(f)
        head.addWidget(self.title_label, 1)
        self.head = head
        self.export_button = QToolButton()
        self.export_button.setAutoRaise(True)
        self.export_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.menu = QMenu(self)
        self.export_action = self.menu.addAction("")
        self.export_action.triggered.connect(self.export_png_dialog)
        self.reset_action = self.menu.addAction("")
        self.reset_action.triggered.connect(lambda: self.plot.getPlotItem().enableAutoRange())
        self.export_button.setMenu(self.menu)
        head.addWidget(self.export_button)
        lay.addLayout(head)
        self.legend_label = QLabel()
        self.legend_label.setWordWrap(True)
        self.legend_label.setContentsMargins(6, 0, 0, 0)
        self.legend_label.setStyleSheet("color: #333;")
        # a new legend text (the scaling chart's deadline note changes on every keystroke) repaints the legend and
        # re-lays out the chart only when its height changes (fit_box.py)
        self.legend_box = FitHeightBox(self.legend_label)
        lay.addWidget(self.legend_box)
        self.plot = pg.PlotWidget()
        self.plot.setMinimumHeight(110)  # leaves room for a two-line legend (Chinese) at 1280×800
        self.plot.getPlotItem().showGrid(x=True, y=True, alpha=0.25)
        for side in ("bottom", "left"):  # our own tick labels: no "(x0.001)" SI rescaling of the axis title
            axis = self.plot.getPlotItem().getAxis(side)
            axis.enableAutoSIPrefix(False)
        self.plot.getPlotItem().setMenuEnabled(True)
        lay.addWidget(self.plot, 1)
        self.empty = QLabel(self.plot)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.empty.setStyleSheet("color: #666; background: rgba(255,255,255,200); padding: 6px;")
        self.empty.hide()
        self._hover: list[_HoverPoint] = []
        self._last_tip = ""
        self.plot.scene().sigMouseMoved.connect(self._on_mouse_moved)
        self.plot.installEventFilter(self)

    # ---------------------------------------------------------------- export
    def png_bytes(self, width: int = 1600) -> bytes:
        """The chart as PNG data, ``width`` pixels wide."""
        from PySide6.QtCore import QBuffer, QByteArray, QIODevice
        from pyqtgraph.exporters import ImageExporter

        exp = ImageExporter(self.plot.getPlotItem())
        exp.parameters()["width"] = width
        img = exp.export(toBytes=True)
        data = QByteArray()
        buf = QBuffer(data)
        buf.open(QIODevice.OpenModeFlag.WriteOnly)
        ok = img is not None and not img.isNull() and img.save(buf, "PNG")
        buf.close()
        if not ok:
            from gpuplanner.core.errors import PlannerError

            raise PlannerError(self.tr("The chart could not be drawn as an image."))
        return bytes(data.data())

    def export_png(self, path: str, width: int = 1600) -> None:
        """Write the chart as PNG, atomically: a full disk or a read-only folder leaves no partial file.
        Raises :class:`~gpuplanner.core.errors.PlannerError` with one line saying why."""
        from gpuplanner.io.planfile import write_output

        write_output(path, self.png_bytes(width))

    def export_png_dialog(self) -> str | None:
        from . import settings

        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export chart as PNG"),
                                              settings.last_dir(), self.tr("PNG images (*.png)"))
        if not path:
            return None
        if not path.lower().endswith(".png"):
            path += ".png"
        from gpuplanner.core.errors import PlannerError

        try:
            self.export_png(path)
        except PlannerError as err:
            QMessageBox.warning(self, self.tr("Cannot export the chart"), str(err))
            return None
        settings.remember_dir(path)
        return path

    def _set_log_ranges(self, xs, ys, x_fmt=short_num, y_fmt=short_num, pad: float = 1.25,
                        x_ticks: Callable[[float, float], list] | None = None) -> None:
        """Fix the view to the data (log axes) with readable 1-2-5 ticks."""
        xs = [v for v in xs if v and v > 0 and math.isfinite(v)]
        ys = [v for v in ys if v and v > 0 and math.isfinite(v)]
        pi = self.plot.getPlotItem()
        if not xs or not ys:
            return
        x0, x1 = min(xs) / pad, max(xs) * pad
        y0, y1 = min(ys) / pad, max(ys) * pad
        if x1 / x0 < 2:
            x0, x1 = x0 / 1.5, x1 * 1.5
        if y1 / y0 < 2:
            y0, y1 = y0 / 1.5, y1 * 1.5
        # snapped outward (see LOG_RANGE_STEP): a small change of the data leaves the axes as they are
        lx0, lx1 = snap_log_range(x0, x1)
        ly0, ly1 = snap_log_range(y0, y1)
        x0, x1, y0, y1 = 10.0 ** lx0, 10.0 ** lx1, 10.0 ** ly0, 10.0 ** ly1
        # one range change, not two (each makes every item re-read the view); a handful of points per curve needs
        # no dynamic-range limiting (the items are made with ``dynamicRangeLimit=None``)
        if getattr(self, "_gp_log_range", None) != (lx0, lx1, ly0, ly1):
            pi.setRange(xRange=(lx0, lx1), yRange=(ly0, ly1), padding=0)
            self._gp_log_range = (lx0, lx1, ly0, ly1)
        set_ticks(pi.getAxis("bottom"), [x_ticks(x0, x1) if x_ticks else log_ticks(x0, x1, x_fmt), []])
        room = max(2, int(pi.vb.height() // 22)) if pi.vb.height() > 0 else None  # a label needs ~22 px
        set_ticks(pi.getAxis("left"), [log_ticks(y0, y1, y_fmt, max_ticks=room), []])

    def settle_view(self) -> None:
        """Let pyqtgraph's items adapt to the new data now (the view's matrix, labels' orientation — what its
        scene does when a paint begins), so a changed chart is painted once, not twice: changes made inside the
        paint would schedule a second full repaint of the plot (measured: 2 paints per update before)."""
        self.plot.scene().prepareForPaint()

    # ---------------------------------------------------------------- empty state
    def set_empty(self, message: str | None) -> None:
        if (message or "") == self.empty.text() and bool(message) == self.empty.isVisibleTo(self.plot):
            return  # unchanged: no re-layout of the message box on every keystroke
        self.empty.setText(message or "")
        self.empty.setVisible(bool(message))
        self._place_empty()

    def _place_empty(self) -> None:
        r = self.plot.rect()
        w = min(r.width() - 20, 360)
        self.empty.setFixedWidth(max(80, w))
        self.empty.adjustSize()
        self.empty.move((r.width() - self.empty.width()) // 2, (r.height() - self.empty.height()) // 2)

    def eventFilter(self, obj, ev):  # noqa: N802 (Qt)
        if obj is self.plot and ev.type() == QEvent.Type.Resize:
            self._place_empty()
        return super().eventFilter(obj, ev)

    # ---------------------------------------------------------------- hover
    def set_hover_points(self, pts: list[_HoverPoint]) -> None:
        self._hover = pts

    def hover_text_at(self, scene_pos: QPointF) -> str:
        """Text for the point nearest ``scene_pos`` (within 14 px), or ''."""
        vb = self.plot.getPlotItem().vb
        best, best_d = "", 14.0 ** 2
        for p in self._hover:
            if not (math.isfinite(p.x) and math.isfinite(p.y)):
                continue
            sp = vb.mapViewToScene(QPointF(p.x, p.y))
            d = (sp.x() - scene_pos.x()) ** 2 + (sp.y() - scene_pos.y()) ** 2
            if d < best_d:
                best, best_d = p.text, d
        return best

    def _on_mouse_moved(self, scene_pos) -> None:
        text = self.hover_text_at(scene_pos)
        if text:
            if text != self._last_tip:
                # rich text that escapes the names in it (a GPU name must not become markup)
                tip = "<qt>" + html.escape(text).replace("\n", "<br>") + "</qt>"
                QToolTip.showText(QCursor.pos(), tip, self.plot)
        elif self._last_tip:
            QToolTip.hideText()
        self._last_tip = text

    def changeEvent(self, ev):  # noqa: N802 (Qt)
        if ev.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(ev)

    def retranslate(self) -> None:
        self.export_button.setText(self.tr("Export"))
        self.export_button.setToolTip(self.tr("Export this chart as a PNG image"))
        self.export_action.setText(self.tr("Export PNG…"))
        self.reset_action.setText(self.tr("Reset zoom"))


def fmt_gib(v: float) -> str:
    return format_number(v, 1)


class MemoryChart(ChartBase):
    """Stacked memory per GPU for the current layout and its alternatives, against the card's capacity."""

    KEYS = ("weights", "gradients", "optimizer", "activations", "other")
    #: the objective's parts (``MemoryBreakdown.EXTRA_PARTS``): stacked on top, listed only when present
    EXTRA_KEYS = ("reference", "reward", "critic", "rollout_weights", "kv_cache")
    ALL_KEYS = KEYS + EXTRA_KEYS
    MAX_BARS = 8

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        pi = self.plot.getPlotItem()
        pi.setMouseEnabled(x=False, y=True)
        # grid lines at the major and minor ticks (e.g. 50 and 10 GiB), not at pyqtgraph's third level (5 GiB, drawn
        # at ~4 % opacity): twenty more nearly invisible lines across the plot cost ~1 ms on every paint of it
        pi.getAxis("left").setStyle(maxTickLevel=1)
        self.brushes = {k: pg.mkBrush(SERIES_COLORS[k]) for k in self.ALL_KEYS}
        self.bars = StackedBarsItem(0.62, 0.66, pg.mkPen("w", width=0.5), pg.mkPen(RED, width=2.5))
        pi.addItem(self.bars)
        self.capacity = pg.InfiniteLine(angle=0, pen=pg.mkPen("#333", width=1.5, style=Qt.PenStyle.DashLine))
        pi.addItem(self.capacity)
        self.usable = pg.InfiniteLine(angle=0, pen=pg.mkPen("#999", width=1, style=Qt.PenStyle.DotLine))
        pi.addItem(self.usable)
        self.totals = []
        for _ in range(self.MAX_BARS):
            t = pg.TextItem("", anchor=(0.5, 1.0), color="#222")
            t.setFont(QFont("", 8))
            pi.addItem(t)
            self.totals.append(t)
        self.labels: list[str] = []
        self.data: dict[str, Any] = {}
        self.plot.getPlotItem().vb.sigResized.connect(self._on_view_resized)
        self._last: list[tuple[str, Any]] | None = None
        self.present_extra: tuple[str, ...] = ()
        self.retranslate()

    @property
    def capacity_text(self) -> str:
        cap = self.data.get("capacity") if hasattr(self, "data") else None
        return self.tr("capacity {0} GiB").format(fmt_gib(cap)) if cap else self.tr("capacity")

    def retranslate(self) -> None:
        super().retranslate()
        self.title_label.setText(self.tr("Memory per GPU (GiB)"))
        self.series_names = {
            "weights": self.tr("Weights"), "gradients": self.tr("Gradients"), "optimizer": self.tr("Optimizer"),
            "activations": self.tr("Activations"), "other": self.tr("Other"),
            "reference": self.tr("Reference model"), "reward": self.tr("Reward model"),
            "critic": self.tr("Critic"), "rollout_weights": self.tr("vLLM weights"),
            "kv_cache": self.tr("Rollout KV cache"),
        }
        self.legend_label.setText(legend_html(
            [(SERIES_COLORS[k], "■", self.series_names[k]) for k in self.KEYS + getattr(self, "present_extra", ())]
            + [("#333", "╌╌", self.capacity_text), (RED, "□", self.tr("does not fit"))]))
        self.plot.getPlotItem().setLabel("left", self.tr("GiB"))
        if self._last is not None:
            self.update_bars(self._last)

    def alt_label(self, alt: engine.Alternative) -> str:
        if alt.kind == "current":
            return self.tr("Current")
        if alt.kind == "zero":
            return self.tr("ZeRO-{0}").format(alt.value)
        names = {"none": self.tr("no RC"), "selective": self.tr("sel. RC"), "megatron_selective": self.tr("sel. RC"),
                 "op_sac": self.tr("op RC"), "layer_sac": self.tr("layer RC"), "full": self.tr("full RC")}
        return names.get(alt.value, str(alt.value))

    def update_from(self, res: engine.LiveResult | None) -> None:
        if res is None or res.evaluation is None:
            self.set_empty(tr_msg(res.error) if res is not None and res.error else self.tr("No estimate yet."))
            self.update_bars([])
            return
        self.set_empty(None)
        self.update_bars([(self.alt_label(a), a.memory) for a in res.alternatives[: self.MAX_BARS]])

    def update_bars(self, items: list[tuple[str, Any]]) -> None:
        self._last = items
        n = len(items)
        bottom = np.zeros(n)
        self.data = {"labels": [lab for lab, _ in items]}
        present = tuple(k for k in self.EXTRA_KEYS if any(k in getattr(m, "extra", {}) for _, m in items))
        legend_changed = present != self.present_extra
        self.present_extra = present
        segments = []
        for k in self.ALL_KEYS:
            h = (np.array([float(m.parts.get(k, 0.0)) for _, m in items]) if n else np.zeros(0))
            if h.any():
                segments.append((self.brushes[k], bottom.copy(), h))
            self.data[k] = h
            bottom = bottom + h
        totals = bottom
        self.data["total"] = totals
        cap = float(items[0][1].capacity) if n else 0.0
        head = float(items[0][1].headroom) if n else 0.0
        fits = [bool(m.fits) for _, m in items]
        self.data["fits"] = fits
        self.data["capacity"] = cap
        self.bars.set_bars(segments, totals, [not f for f in fits])
        self.capacity.setVisible(cap > 0)
        self.usable.setVisible(cap > 0 and head > 0)
        if cap > 0:
            self.capacity.setValue(cap)
            self.usable.setValue(cap - head)
        if (n and getattr(self, "_legend_cap", None) != cap) or legend_changed:
            self._legend_cap = cap
            self.retranslate()
        # bars that differ by 100x (ZeRO-0 at 1,388 GiB next to the current 17.7 GiB): the axis stops at three
        # times the larger of the card and the current layout; a taller bar is cut there with its value on top
        tallest = float(totals.max()) if n else 0.0
        top = max(cap, float(totals[0]) if n else 0.0)
        clipped_at = 3 * top if (n and top > 0 and tallest > 3 * top) else None
        # room for the value above the tallest bar, snapped up to a round figure (see NICE_STEPS)
        ymax = nice_ceil((clipped_at or max(cap, tallest)) * 1.18) or 1.0
        self.data["clipped_at"] = clipped_at
        for i, t in enumerate(self.totals):
            if i < n:
                shown = min(totals[i], clipped_at) if clipped_at else totals[i]
                # the Evaluation's total (the stack's height is where it is drawn)
                label = ("↑ " if clipped_at and totals[i] > clipped_at else "") + fmt_gib(items[i][1].total)
                color = RED if not fits[i] else "#222"
                if getattr(t, "_shown", None) != (label, color):  # TextItem re-lays out its document on each call
                    t.setText(label)
                    t.setColor(color)
                    t._shown = (label, color)
                # a label whose text would reach the capacity line is lifted above it, so the line never crosses
                # it (the text's height in GiB: ~16 px at the view's current scale)
                y = shown
                text_h = 16.0 * ymax / max(float(self.plot.getPlotItem().vb.height()), 60.0)
                if cap > 0 and shown <= cap + 0.01 * ymax and shown + text_h > cap:
                    y = cap + 0.01 * ymax
                t.setPos(i, y)
                t.setVisible(True)
            else:
                t.setVisible(False)
        pi = self.plot.getPlotItem()
        if getattr(self, "_gp_range", None) != (n, ymax):
            pi.setRange(xRange=(-0.6, max(n, 1) - 0.4), yRange=(0, ymax), padding=0)
            self._gp_range = (n, ymax)
        set_ticks(pi.getAxis("bottom"), [self.bar_ticks([lab for lab, _ in items])])
        hov = []
        for i, (lab, m) in enumerate(items):
            text = _once(lambda lab=lab, m=m: self._bar_tip(lab, m))  # built when hovered
            for frac in (0.1, 0.5, 0.9, 1.0):
                hov.append(_HoverPoint(i, totals[i] * frac, text))
        self.set_hover_points(hov)
        self.settle_view()


    def _bar_tip(self, lab: str, m: Any) -> str:
        lines = [lab]  # plain text: the tooltip escapes it (names from files never become markup)
        lines += [self.tr("{0}: {1} GiB").format(self.series_names[k], format_number(v, 2)) for k, v in m.parts.items()]
        lines.append(self.tr("Total: {0} of {1} GiB").format(format_number(m.total, 2), fmt_gib(m.capacity)))
        lines.append(self.tr("fits") if m.fits else self.tr("does not fit"))
        return "\n".join(lines)

    def bar_ticks(self, labels: list[str]) -> list[tuple[int, str]]:
        """One tick label per bar; when the widest label is wider than a bar's share of the plot, every other
        label moves to a second line, so neighbours never run into each other (names stay whole)."""
        from PySide6.QtGui import QFontMetrics

        axis = self.plot.getPlotItem().getAxis("bottom")
        fm = QFontMetrics(axis.style.get("tickFont") or self.plot.font())
        width = max(float(self.plot.getPlotItem().vb.width()), 200.0)
        share = width / max(len(labels), 1)
        crowded = any(fm.horizontalAdvance(lab) + 12 > share for lab in labels)  # a gap of ~12 px between names
        height = 2 * fm.height() + 14 if crowded else None  # room for the second line (None: pyqtgraph's own)
        if getattr(axis, "_gp_height", "unset") != height:
            axis.setHeight(height)
            axis._gp_height = height
        return [(i, ("\n" + lab) if crowded and i % 2 else lab) for i, lab in enumerate(labels)]

    def _on_view_resized(self, *_a) -> None:
        if self._last:  # the stagger depends on the plot's width
            set_ticks(self.plot.getPlotItem().getAxis("bottom"), [self.bar_ticks([lab for lab, _ in self._last])])


class ScalingChart(ChartBase):
    """Throughput (or days to finish) against GPU count over NVLink, PCIe and multi-node."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.mode = QComboBox()
        self.mode.addItem("", "tokens")
        self.mode.addItem("", "days")
        self.mode.currentIndexChanged.connect(lambda _i: self.update_from(self._res))
        self.head.insertWidget(1, self.mode)
        pi = self.plot.getPlotItem()
        pi.setLogMode(x=True, y=True)
        self.curves: dict[str, LogLineItem] = {}
        for kind in ("nvlink", "pcie", "multinode"):
            c = LogLineItem(pg.mkPen(LINK_COLORS[kind], width=2), symbol_brush=LINK_COLORS[kind], symbol_size=6)
            pi.addItem(c)
            self.curves[kind] = c
        self.ideal = LogLineItem(pg.mkPen("#777", width=1, style=Qt.PenStyle.DashLine))
        pi.addItem(self.ideal)
        self.deadline = LabeledLine(angle=0, pen=pg.mkPen(RED, width=1.5, style=Qt.PenStyle.DashDotLine),
                                        label="", labelOpts={"position": 0.98, "color": RED,
                                                             "anchors": [(1, 1), (1, 1)],
                                                             "fill": (255, 255, 255, 200)})
        pi.addItem(self.deadline)
        self._res: engine.ScalingResult | None = None
        self._deadline_days: float | None = None
        self.data: dict[str, Any] = {}
        self.retranslate()

    def retranslate(self) -> None:
        super().retranslate()
        self.title_label.setText(self.tr("Scaling with GPU count"))
        self.mode.setItemText(0, self.tr("tokens/s"))
        self.mode.setItemText(1, self.tr("days to finish"))
        self.mode.setToolTip(self.tr("Plot throughput or the days needed to process the data"))
        self.kind_names = {"nvlink": self.tr("NVLink (1 node)"), "pcie": self.tr("PCIe (1 node)"),
                           "multinode": self.tr("Multi-node"), "ideal": self.tr("ideal linear")}
        self._update_legend()
        self.plot.getPlotItem().setLabel("bottom", self.tr("GPUs"))
        self.update_from(self._res)

    def _update_legend(self) -> None:
        kinds = [k for k in self.curves if self.data.get(k) is not None] or list(self.curves)
        note = getattr(self, "deadline_note", "")
        set_text(self.legend_label, legend_html(
            [(LINK_COLORS[k], "●", self.kind_names[k]) for k in kinds]
            + [("#777", "╌╌", self.kind_names["ideal"]), (RED, "─·─", note or self.tr("deadline"))]))

    def set_deadline_days(self, days: float | None) -> None:
        self._deadline_days = days

    def _point_tip(self, kind: str, gpus: float, value: float, days_mode: bool) -> str:
        unit = self.tr("days") if days_mode else self.tr("tokens/s")
        return self.tr("{0}: {1} GPUs → {2} {3}").format(self.kind_names[kind], int(gpus), format_sig(value), unit)

    def update_from(self, res: engine.ScalingResult | None) -> None:
        self._res = res
        days_mode = self.mode.currentData() == "days"
        pi = self.plot.getPlotItem()
        set_axis_label(pi, "left", self.tr("calendar days") if days_mode else self.tr("tokens/s"))
        # no point that runs (every count out of memory or invalid): say so, rather than an empty frame
        runs = res is not None and any(v > 0 and math.isfinite(v) for sr in res.series
                                       for v in (sr.calendar_days if days_mode else sr.tokens_per_s))
        if res is None or not runs:
            msg = self.tr("No layout of this scenario fits at these GPU counts.")
            self.set_empty(msg if res is not None else self.tr("No estimate yet."))
            for c in self.curves.values():
                c.setData([], [])
            self.ideal.setData([], [])
            self.deadline.setVisible(False)
            self.data = {}
            self.set_hover_points([])
            return
        self.set_empty(None)
        hov = []
        self.data = {}
        self.deadline_note = ""
        for kind, c in self.curves.items():
            s = next((s for s in res.series if s.kind == kind), None)
            if s is None:
                c.setData([], [])
                continue
            ys = s.calendar_days if days_mode else s.tokens_per_s
            x = np.array(s.gpus, dtype=float)
            y = np.array(ys, dtype=float)
            ok = np.isfinite(y) & (y > 0)
            x, y = x[ok], y[ok]
            c.setData(x, y)
            self.data[kind] = (x, y)
            for xi, yi in zip(x, y):
                if np.isfinite(yi):
                    hov.append(_HoverPoint(math.log10(xi), math.log10(yi), lambda kind=kind, xi=xi, yi=yi, d=days_mode:
                                           self._point_tip(kind, xi, yi, d)))  # built when hovered
        if res.ideal_gpus and not days_mode:
            self.ideal.setData(np.array(res.ideal_gpus, float), np.array(res.ideal_tokens_per_s, float))
        elif res.ideal_gpus:
            base_days = None
            for s in res.series:
                for n, d in zip(s.gpus, s.calendar_days):
                    if n == res.ideal_gpus[0] and math.isfinite(d):
                        base_days = d if base_days is None else min(base_days, d)
            if base_days:
                xs = np.array(res.ideal_gpus, float)
                self.ideal.setData(xs, base_days * xs[0] / xs)
            else:
                self.ideal.setData([], [])
        else:
            self.ideal.setData([], [])
        target = self._deadline_days if days_mode else res.required_tokens_per_s
        if target and target > 0:
            self.deadline.setValue(math.log10(target))
            self.deadline.label.setFormat(
                self.tr("deadline ({0} days)").format(format_sig(target)) if days_mode
                else self.tr("needed for the deadline: {0} tokens/s").format(short_num(target)))
            self.deadline.setVisible(True)
        else:
            self.deadline.setVisible(False)
        self.set_hover_points(hov)
        xs_all = [v for x, _ in self.data.values() for v in x]
        ys_all = [v for _, y in self.data.values() for v in y]
        self.deadline_note = ""
        if target and target > 0 and ys_all:
            if min(ys_all) / 20 < target < max(ys_all) * 20:
                ys_all.append(target)
            elif days_mode:
                self.deadline_note = self.tr("deadline {0} days: far above every point").format(format_sig(target))
            else:
                self.deadline_note = self.tr("deadline needs {0} tokens/s: met at every count").format(
                    short_num(target))
        self._update_legend()
        self._set_log_ranges(xs_all, ys_all, x_ticks=gpu_ticks)
        self.settle_view()


class CostChart(ChartBase):
    """Cost against days for the candidate plans; the Pareto front is a line; the chosen plan is starred."""

    planClicked = Signal(int)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        pi = self.plot.getPlotItem()
        pi.setLogMode(x=True, y=True)
        # light items (PointsItem, LogLineItem): new plans cost the GUI thread a fraction of what pyqtgraph's
        # ScatterPlotItem / PlotDataItem re-derive on every setData
        self.all = PointsItem((120, 120, 120, 150), size=7)
        self.front = LogLineItem(pg.mkPen("#1565c0", width=2), symbol_brush="#1565c0", symbol_size=8)
        self.chosen = PointsItem("#ff9800", pen=pg.mkPen("#e65100", width=1), size=18, symbol="star")
        for it in (self.all, self.front, self.chosen):
            pi.addItem(it)
        self.deadline = LabeledLine(angle=90, pen=pg.mkPen(RED, width=1.2, style=Qt.PenStyle.DashLine),
                                        label="", labelOpts={"position": 0.95, "color": RED,
                                                             "fill": (255, 255, 255, 200)})
        self.budget = LabeledLine(angle=0, pen=pg.mkPen("#6a1b9a", width=1.2, style=Qt.PenStyle.DashLine),
                                      label="", labelOpts={"position": 0.95, "color": "#6a1b9a",
                                                           "fill": (255, 255, 255, 200)})
        pi.addItem(self.deadline)
        pi.addItem(self.budget)
        self.all.clicked.connect(self._on_clicked)
        # "updating…" next to the title while a new search runs over the previous plans (empty otherwise)
        self.updating_label = QLabel()
        self.updating_label.setStyleSheet("color: #777; font-style: italic;")
        self.head.insertWidget(1, self.updating_label)
        self.plans: list[engine.PlanRow] = []
        self.data: dict[str, Any] = {}
        self._state: tuple | None = None
        self._updating = False
        self._updating_texts: tuple[str, str] | None = None   # ("updating…", its tooltip) in the language shown
        self._clear_ticks()
        self.retranslate()

    def unit_names(self) -> dict[str, str]:
        return {"hours": self.tr("hours"), "days": self.tr("days"), "weeks": self.tr("weeks")}

    def _clear_ticks(self) -> None:
        """No tick labels on an empty chart (pyqtgraph's default log axis labels 2…8 of an empty decade)."""
        pi = self.plot.getPlotItem()
        for side in ("bottom", "left"):
            set_ticks(pi.getAxis(side), [[], []])
        self._gp_log_range = None

    def retranslate(self) -> None:
        super().retranslate()
        self.title_label.setText(self.tr("Cost against time (candidate plans)"))
        self._size_updating_mark()
        self.set_updating(self._updating)
        self._update_legend()
        set_axis_label(self.plot.getPlotItem(), "bottom", self.unit_names()[getattr(self, "time_unit", "days")])
        if self._state is not None:
            state, self._state = self._state, None
            self.update_plans(*state, updating=self._updating)

    def set_updating(self, on: bool) -> None:
        """Mark the plans shown as the previous search's while a new one runs.

        The mark keeps a fixed size, that of its text in the language shown (:meth:`_size_updating_mark`): a label
        of fixed size that changes its text is repainted, and nothing is laid out again (a label that grew and
        shrank on every keystroke re-laid out the chart, the splitter and the panel twice per keystroke)."""
        self._updating = on
        if self._updating_texts is None:
            self._size_updating_mark()
        text, tip = self._updating_texts if on else ("", "")
        lab = self.updating_label
        set_text(lab, text)
        if lab.toolTip() != tip:
            lab.setToolTip(tip)

    def _size_updating_mark(self) -> None:
        """The "updating…" mark's texts in the language shown, and its fixed size (that of its text)."""
        text = self.tr("updating…")
        self._updating_texts = (text, self.tr(
            "The plan search is running for your latest change; these are the plans of the previous inputs until it "
            "finishes."))
        lab = self.updating_label
        lab.ensurePolished()  # (its style sheet's italic font)
        m = lab.contentsMargins()
        fm = lab.fontMetrics()
        size = QSize(fm.horizontalAdvance(text) + m.left() + m.right() + 2, fm.height() + m.top() + m.bottom())
        if lab.minimumSize() != size or lab.maximumSize() != size:
            lab.setFixedSize(size)

    def _update_legend(self) -> None:
        items = [("#888", "●", self.tr("plans")), ("#1565c0", "●—", self.tr("Pareto front")),
                 ("#ff9800", "★", self.tr("chosen"))]
        if self.deadline.isVisible():
            items.append((RED, "╌╌", self.tr("deadline")))
        if self.budget.isVisible():
            items.append(("#6a1b9a", "╌╌", self.tr("budget")))
        set_text(self.legend_label, legend_html(items))

    def _on_clicked(self, idx) -> None:
        """A plan's marker was clicked: ``idx`` is its index in :attr:`plans`."""
        if idx is not None:
            self.planClicked.emit(int(idx))

    def _plan_tip(self, p: engine.PlanRow) -> str:
        return self.tr("#{0} {1} × {2}\n{3}, {4}").format(
            p.rank, p.num_gpus, gpu_display_name(p.gpu_name, short=True), format_duration(p.calendar_days),
            format_money(p.cost, p.currency))

    def update_plans(self, plans: list[engine.PlanRow], chosen: int | None, currency: str,
                     deadline_days: float | None = None, budget: float | None = None,
                     status: str | None = None, updating: bool = False) -> None:
        """Draw ``plans``; ``updating``: they are the previous search's while a new one runs (kept, not cleared, so
        the chart neither flickers nor repaints twice per keystroke; marked "updating…")."""
        state = (plans, chosen, currency, deadline_days, budget, status)
        self.set_updating(updating)
        if self._state is not None and state[0] is self._state[0] and state[1:] == self._state[1:]:
            return  # the same plans and lines: nothing to redraw
        self._state = state
        self.plans = plans
        set_axis_label(self.plot.getPlotItem(), "left", self.tr("cost ({0})").format(currency))
        pts = [(i, p) for i, p in enumerate(plans) if p.cost and p.calendar_days and p.cost > 0 and p.calendar_days > 0]
        if not pts:
            self.set_empty(status or self.tr("Plans with a cost and a duration appear here when the search finishes."))
            self._clear_ticks()
            for it in (self.all, self.chosen):
                it.setData([], [])
            self.front.setData([], [])
            self.deadline.setVisible(False)
            self.budget.setVisible(False)
            self._update_legend()  # (no deadline or budget line drawn: none listed)
            self.data = {}
            self.set_hover_points([])
            return
        self.set_empty(status)
        days = np.array([p.calendar_days for _, p in pts], float)
        # the time axis reads in hours, days or weeks, whichever suits the range (never "(x0.001)")
        self.time_unit, per = pick_time_unit(float(days.max()))
        set_axis_label(self.plot.getPlotItem(), "bottom", self.unit_names()[self.time_unit])
        xs = days / per
        ys = np.array([p.cost for _, p in pts], float)
        # ScatterPlotItem does not follow the plot's log mode: give it log10 coordinates.
        self.all.setData(x=np.log10(xs), y=np.log10(ys), data=[i for i, _ in pts])
        front = sorted([(p.calendar_days / per, p.cost) for _, p in pts if p.pareto])
        if front:
            self.front.setData(np.array([f[0] for f in front]), np.array([f[1] for f in front]))
        else:
            self.front.setData([], [])
        ch = [(p.calendar_days / per, p.cost) for i, p in pts if i == chosen]
        if ch:
            self.chosen.setData(x=[math.log10(ch[0][0])], y=[math.log10(ch[0][1])])
        else:
            self.chosen.setData([], [])
        deadline_u = deadline_days / per if deadline_days else None
        if deadline_u:
            self.deadline.setValue(math.log10(deadline_u))
            _set_line_label(self.deadline, self.tr("deadline"))
        if budget:
            self.budget.setValue(math.log10(budget))
            _set_line_label(self.budget, self.tr("budget"))
        self.data = {"days": days, "cost": ys, "unit": self.time_unit, "x": xs,  # days as the plans give them
                     "front": sorted((p.calendar_days, p.cost) for _, p in pts if p.pareto),
                     "chosen": [(p.calendar_days, p.cost) for i, p in pts if i == chosen]}
        hov = []
        for i, p in pts:
            hov.append(_HoverPoint(math.log10(p.calendar_days / per), math.log10(p.cost),
                                   lambda p=p: self._plan_tip(p)))  # built when hovered
        self.set_hover_points(hov)
        show_deadline = bool(deadline_u) and bool(deadline_u < 3 * float(max(xs)))
        show_budget = bool(budget) and bool(budget < 3 * float(max(ys)))
        self.deadline.setVisible(show_deadline)
        self.budget.setVisible(show_budget)
        self._update_legend()
        xr = list(xs) + ([deadline_u] if show_deadline else [])
        yr = list(ys) + ([budget] if show_budget else [])
        self._set_log_ranges(xr, yr, pad=1.6)  # markers at the extremes stay whole inside the frame
        self.settle_view()  # one paint for the new plans, not two


CARD_COLORS = ("#c62828", "#6a1b9a", "#00838f", "#ef6c00", "#2e7d32", "#5d4037", "#283593", "#ad1457")


class MemoryCountChart(ChartBase):
    """Memory per GPU against GPU count for the plan's model and method (the least-memory layout at each
    count, and the plan's own layout), with the capacity of each candidate card: "4 or 8 cards, and which?".
    Reads :class:`gpuplanner.core.evaluate.MemoryByCount` (``Scaling.memory``); computes nothing."""

    MAX_LINES = 8

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        pi = self.plot.getPlotItem()
        pi.setLogMode(x=True, y=True)
        pi.setMouseEnabled(x=False, y=True)
        self.best = pg.PlotDataItem([], [], dynamicRangeLimit=None, pen=pg.mkPen("#1565c0", width=2.2), symbol="o", symbolSize=7,
                                    symbolBrush="#1565c0", symbolPen=None, connect="finite", name="best")
        self.current = pg.PlotDataItem([], [], dynamicRangeLimit=None, pen=pg.mkPen("#f28e2b", width=1.6, style=Qt.PenStyle.DashLine),
                                       symbol="s", symbolSize=6, symbolBrush="#f28e2b", symbolPen=None,
                                       connect="finite", name="current")
        pi.addItem(self.best)
        pi.addItem(self.current)
        self.lines: list[pg.InfiniteLine] = []
        for i in range(self.MAX_LINES):
            ln = pg.InfiniteLine(angle=0, pen=pg.mkPen(CARD_COLORS[i], width=1.3, style=Qt.PenStyle.DashLine),
                                 label="", labelOpts={"position": 0.99, "color": CARD_COLORS[i],
                                                      "anchors": [(1, 1), (1, 1)],
                                                      "fill": (255, 255, 255, 210)})
            ln.setVisible(False)
            pi.addItem(ln)
            self.lines.append(ln)
        self._res: Any = None
        self.groups: list[tuple[float, list[str], bool]] = []
        self.data: dict[str, Any] = {}
        self.retranslate()

    def retranslate(self) -> None:
        super().retranslate()
        self.title_label.setText(self.tr("Memory per GPU against GPU count"))
        self.title_label.setToolTip(self.tr(
            "For this model and training method: the layout (TP, PP, ZeRO…) that needs the least memory at each "
            "GPU count, your own layout at that count, and the memory of each GPU you ticked on the Hardware page."))
        pi = self.plot.getPlotItem()
        pi.setLabel("bottom", self.tr("GPUs"))
        pi.setLabel("left", self.tr("GiB per GPU"))
        self.update_from(self._res)

    def _update_legend(self) -> None:
        items = [("#1565c0", "●—", self.tr("least memory (best layout)")),
                 ("#f28e2b", "■╌", self.tr("your layout"))]
        parts = [legend_html(items)]
        for i, (cap, names, _plan) in enumerate(self.groups[: self.MAX_LINES]):
            # a long list of cards may wrap between names, never inside one
            head = legend_html([(CARD_COLORS[i], "╌╌", self.tr("{0} GiB:").format(format_number(cap, 0)))])
            parts.append(head + " " + ", ".join(
                "<span style='white-space:nowrap'>" + html.escape(n).replace(" ", "&nbsp;") + "</span>"
                for n in names))
        self.legend_label.setText(" &nbsp; ".join(parts))

    def layout_text(self, lay: Any) -> str:
        parts = []
        if lay.tp > 1:
            parts.append(f"TP {lay.tp}")
        if lay.pp > 1:
            parts.append(f"PP {lay.pp}")
        if lay.cp > 1:
            parts.append(f"CP {lay.cp}")
        if lay.ep > 1:
            parts.append(f"EP {lay.ep}")
        if lay.dp > 1:
            parts.append(f"DP {lay.dp}")
        parts.append(f"ZeRO-{lay.zero}")
        return " · ".join(parts)

    def update_from(self, res: Any) -> None:
        """``res``: a ScalingResult (its ``memory``) or a MemoryByCount, or None."""
        self._res = res
        mb = getattr(res, "memory", res) if res is not None and not hasattr(res, "points") else res
        pts = [p for p in (mb.points if mb is not None else ()) if p.memory is not None]
        if not pts:
            self.set_empty(self.tr("No estimate yet.") if mb is None else
                           self.tr("No layout of this scenario runs at these GPU counts."))
            self.best.setData([], [])
            self.current.setData([], [])
            for ln in self.lines:
                ln.setVisible(False)
            self.groups = []
            self.data = {}
            self.set_hover_points([])
            self._update_legend()
            return
        self.set_empty(None)
        from gpuplanner.formatting import gpu_display_name

        xs = np.array([p.num_gpus for p in pts], float)
        ys = np.array([p.memory.total for p in pts], float)
        self.best.setData(xs, ys)
        cur = [(p.num_gpus, p.current.total) for p in mb.points if p.current is not None]
        self.current.setData(np.array([c[0] for c in cur], float), np.array([c[1] for c in cur], float))
        # one line per distinct capacity, naming every ticked card of that size (the plan's GPU first)
        groups: dict[float, list[str]] = {}
        plan_caps = set()
        for c in mb.cards:
            groups.setdefault(float(c.memory_gib), []).append(gpu_display_name(c.name, short=True))
            if c.gpu_id == mb.plan_gpu_id:
                plan_caps.add(float(c.memory_gib))
        self.groups = [(cap, names, cap in plan_caps) for cap, names in sorted(groups.items(), reverse=True)]
        for i, ln in enumerate(self.lines):
            if i < len(self.groups):
                cap, names, plan = self.groups[i]
                ln.setVisible(True)  # first: a hidden line's label does not take a new text
                ln.setPen(pg.mkPen(CARD_COLORS[i], width=2.2 if plan else 1.3, style=Qt.PenStyle.DashLine))
                ln.label.setFormat(self.tr("{0} GiB").format(format_number(cap, 0)))
                ln.setValue(math.log10(cap))
            else:
                ln.setVisible(False)
        self.data = {"gpus": xs, "gib": ys, "current": cur, "capacities": [g[0] for g in self.groups]}
        hov = []
        for p in pts:
            fit = [", ".join(names) for cap, names, _ in self.groups if p.memory.total + mb.headroom <= cap]
            lines = [self.tr("{0} GPUs: {1} GiB per GPU").format(p.num_gpus, format_sig(p.memory.total)),
                     self.tr("least-memory layout: {0}").format(self.layout_text(p.layout))]
            if p.current is not None:
                lines.append(self.tr("your layout: {0} GiB").format(format_sig(p.current.total)))
            lines.append(self.tr("fits on: {0}").format(", ".join(fit)) if fit else self.tr("fits on none of the ticked GPUs"))
            hov.append(_HoverPoint(math.log10(p.num_gpus), math.log10(p.memory.total), "\n".join(lines)))
        for n, v in cur:
            hov.append(_HoverPoint(math.log10(n), math.log10(v), self.tr("{0} GPUs, your layout: {1} GiB per GPU").format(
                n, format_sig(v))))
        self.set_hover_points(hov)
        self._update_legend()
        yr = list(ys) + [c[1] for c in cur] + [g[0] for g in self.groups]
        self._set_log_ranges(list(xs), yr, x_ticks=gpu_ticks, pad=1.3)
