"""Light pyqtgraph items the charts draw with (one ``paint`` each): log-scaled lines, stacked bars, point markers."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QPainter, QPainterPath, QPen, QPixmap

from .axes import _export_scale, _scaled_pen


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
