"""The report's charts drawn with ``QPainter``: axes with 1-2-5 ticks (linear or log), grid, bars, lines,
markers, reference lines, anchored labels and legend keys. No plotting library: the PDF needs five small
static charts, and pyqtgraph's import alone (its Qt shim materialises every PySide6 class and enum) cost a
quarter of a second of every ``gpuplanner report``.

A :class:`Chart` records what it draws and draws it on any painter afterwards: into the PDF as vector graphics
(:meth:`Chart.paint`, called by ``render.print_to`` over the blank image that keeps the chart's place in the
document; its texts stay text, no 2000-pixel raster is compressed into the file), or into an image
(:attr:`Chart.image`, 2000 px wide, about 300 dpi on paper) for tests and screenshots.

Geometry: a chart is laid out in the document's layout pixels (96 per inch; :data:`WIDTH` × :data:`HEIGHT`
≈ 169 × 77 mm on the page) and measures its texts on a 96-dpi image, as the document does, so a point size
comes out as on paper on any device. Pen widths, marker sizes and offsets are in layout pixels.

Texts: every string a chart draws is handed in by its caller (translated there, numbers through
:mod:`gpuplanner.formatting`; default linear ticks use :func:`~gpuplanner.formatting.format_axis`) and is
recorded with its box in :attr:`Chart.texts`, so tests read what was drawn and where. Labels are kept
inside the chart: a label that would cross its edge is moved in, one wider than the chart is elided.

Tick positions: Heckbert's "nice numbers" (1, 2, 5 × 10^k steps; Graphics Gems I, 1990, "Nice numbers for
graph labels") — the same 1-2-5 series the report's log axes used.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence, Union

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QImage, QPainter, QPen, QPolygonF, QTransform

from ..formatting import format_axis_ticks

WIDTH = 640  # layout pixels (96 per inch): ≈ 169 mm
HEIGHT = 290
EXPORT_WIDTH = 2000  # device pixels: 2000 / (169 mm / 25.4) ≈ 300 dpi on paper
SCALE = EXPORT_WIDTH / WIDTH
_DOTS_PER_METRE_96 = round(96 / 0.0254)  # a 96-dpi image: 8 pt text is 10.7 layout pixels, as in the document
FONT_PT = 8.0
TICK_PX = 4.0  # tick mark length
PAD_PX = 4.0  # space between the image's edge and anything drawn
GRID = QColor(0, 0, 0, 64)

Ticks = Union[Sequence[tuple[float, str]], Callable[[float, float, int], list[tuple[float, str]]], None]


# ------------------------------------------------------------------------------------------- ticks

def nice_step(span: float, max_ticks: int) -> float:
    """The smallest step of the 1-2-5 series (1, 2, 5, 10, 20, …, also below 1) that puts at most
    ``max_ticks`` steps in ``span``."""
    if not (span > 0 and math.isfinite(span)):
        return 1.0
    raw = span / max(int(max_ticks), 1)
    e = math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        step = m * 10.0 ** e
        if step >= raw * (1 - 1e-9):
            return step
    return 10.0 ** (e + 1)


def linear_ticks(lo: float, hi: float, max_ticks: int = 8) -> list[float]:
    """Multiples of :func:`nice_step` in [lo, hi] (rounded so that 0.1 × 3 is 0.3)."""
    step = nice_step(hi - lo, max_ticks)
    digits = max(0, -math.floor(math.log10(step)) + 1)
    first = math.ceil(lo / step - 1e-9)
    out = []
    k = first
    while k * step <= hi + step * 1e-9:
        out.append(round(k * step, digits) + 0.0)  # + 0.0: never "-0"
        k += 1
    return out


def narrow_log_values(lo: float, hi: float, limit: int = 5) -> list[float]:
    """Two to ``limit`` round values inside ``[lo, hi]`` (steps of 1, 2 or 5 × 10^k), for a log axis whose range
    holds fewer than two of its usual ticks; [] only for an empty range."""
    if not hi > lo > 0:
        return [lo] if lo > 0 else []
    span = hi - lo
    for k in range(math.floor(math.log10(span)) + 1, math.floor(math.log10(span)) - 3, -1):
        for m in (5, 2, 1):
            step = m * 10.0 ** k
            vals = [j * step for j in range(math.ceil(lo / step - 1e-9), math.floor(hi / step + 1e-9) + 1)]
            if 2 <= len(vals) <= max(2, limit):
                return vals
    return [lo, hi]


def log_ticks(lo: float, hi: float, max_ticks: int = 12) -> list[float]:
    """1-2-5 ticks between ``lo`` and ``hi`` for a log axis (no exponent notation); when they would be more
    than ``max_ticks``, powers of ten only (every second or fifth decade when those are still too many)."""
    lo = max(lo, 1e-12)
    if hi < lo:
        return []
    e0, e1 = math.floor(math.log10(lo)), math.floor(math.log10(hi))
    for mantissas in ((1, 2, 5), (1, 3), (1,)):
        out = [m * 10.0 ** e for e in range(e0, e1 + 1) for m in mantissas if lo <= m * 10.0 ** e <= hi * (1 + 1e-12)]
        if len(out) <= max_ticks:
            if len(out) < 2:  # a range inside one 1-2-5 step (9K–18K): even steps, at least two labels
                return narrow_log_values(lo, hi, min(max_ticks, 5))
            return out
    every = max(1, math.ceil(len(out) / max(max_ticks, 1)))
    return [v for v in out if round(math.log10(v)) % every == 0]


def formatted(values: list[float]) -> list[tuple[float, str]]:
    """Ticks labelled by the one formatter (``20K`` / ``2 万``), one scale for the whole axis."""
    return list(zip(values, format_axis_ticks(values)))


def auto_linear(lo: float, hi: float, max_ticks: int) -> list[tuple[float, str]]:
    return formatted(linear_ticks(lo, hi, max_ticks))


def auto_log(lo: float, hi: float, max_ticks: int) -> list[tuple[float, str]]:
    return formatted(log_ticks(lo, hi, max_ticks))


@dataclass
class Axis:
    """One axis: its range (values, also for a log axis), ticks and title.

    ``ticks``: a list of (value, label) — labels may hold line breaks — or a function ``(lo, hi, max_ticks)
    → list`` called once the axis's length in pixels is known; ``None`` is :func:`auto_linear`
    (:func:`auto_log` on a log axis). An empty label draws the tick mark alone."""

    lo: float
    hi: float
    log: bool = False
    ticks: Ticks = None
    title: str = ""
    grid: bool = True

    def frac(self, v: float) -> float:
        if self.log:
            a, b = math.log10(self.lo), math.log10(self.hi)
            return (math.log10(max(v, 1e-300)) - a) / ((b - a) or 1.0)
        return (v - self.lo) / ((self.hi - self.lo) or 1.0)

    def tick_list(self, max_ticks: int) -> list[tuple[float, str]]:
        t = self.ticks
        if t is None:
            t = auto_log if self.log else auto_linear
        items = t(self.lo, self.hi, max_ticks) if callable(t) else list(t)
        return [(v, s) for v, s in items if self.frac(v) >= -1e-9 and self.frac(v) <= 1 + 1e-9]


# ------------------------------------------------------------------------------------ pens, brushes

def pen(color: str = "#000000", width: float = 1.0, style: Qt.PenStyle = Qt.PenStyle.SolidLine) -> QPen:
    """A pen ``width`` layout pixels wide (it scales with the chart; flat ends, mitred joins)."""
    p = QPen(QColor(color), width, style)
    p.setCapStyle(Qt.PenCapStyle.FlatCap)
    p.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
    return p


def hatch(grey: str, style: Qt.BrushStyle) -> QBrush:
    """A grey fill, or a hatch pattern in that grey (drawn at the chart's scale: its spacing is in layout
    pixels, as on screen)."""
    return QBrush(QColor(grey), style)


# ------------------------------------------------------------------------------------------- chart

class Chart:
    """A chart with two axes, recorded as it is built and drawn on any painter afterwards: :meth:`paint` into
    the PDF as vector graphics (text stays text), :attr:`image` as a raster for tests and previews.

    Coordinates: data values for :meth:`bar`, :meth:`polyline`, :meth:`marker`, :meth:`hline`,
    :meth:`vline` and :meth:`label`; layout pixels for offsets and sizes (y grows downwards). Texts are
    measured on a 96-dpi image, so a layout is the same whatever it is later drawn on.
    """

    def __init__(self, x: Axis, y: Axis, *, width: float = WIDTH, height: float = HEIGHT,
                 families: Sequence[str] = (), font_pt: float = FONT_PT):
        self.x, self.y = x, y
        self.width, self.height = float(width), float(height)
        self.families = list(families)
        self.font = self.make_font(font_pt)
        self.texts: list[tuple[str, QRectF]] = []  # every string drawn, with its box in layout pixels
        self.ops: list[Callable[[QPainter, float], None]] = []  # (painter, font scale) → draws one element
        self._image: QImage | None = None
        self.finished = False
        self._layout()
        self._grid()

    # ---- fonts and text
    def make_font(self, size_pt: float = FONT_PT, bold: bool = False) -> QFont:
        f = QFont()
        if self.families:
            f.setFamilies(self.families)
        f.setPointSizeF(size_pt)
        f.setBold(bold)
        f.setHintingPreference(QFont.HintingPreference.PreferNoHinting)  # the same metrics at any scale
        return f

    @staticmethod
    def metrics(font: QFont) -> QFontMetricsF:
        return QFontMetricsF(font, _metric_device())

    def text_size(self, text: str, font: QFont | None = None) -> tuple[float, float]:
        """Width and height of ``text`` (lines separated by ``\\n``) in layout pixels."""
        fm = self.metrics(font or self.font)
        lines = text.split("\n")
        return max(fm.horizontalAdvance(s) for s in lines), fm.height() * len(lines)

    def _layout(self) -> None:
        """Margins from the tick labels and titles, then the plot area and the ticks that fit in it."""
        lh = self.metrics(self.font).height()
        x_static = None if (self.x.ticks is None or callable(self.x.ticks)) else self.x.tick_list(0)
        x_lines = max((s.count("\n") + 1 for _v, s in x_static or [] if s), default=1 if x_static is None else 0)
        top = PAD_PX + lh / 2
        bottom = PAD_PX + TICK_PX + 2 + x_lines * lh + ((lh + 2) if self.x.title else 0)
        plot_h = self.height - top - bottom
        self.y_ticks = self.y.tick_list(max(2, int(plot_h // (lh * 2.2))))
        label_w = max((self.text_size(s)[0] for _v, s in self.y_ticks if s), default=0.0)
        left = PAD_PX + ((lh + 4) if self.y.title else 0) + label_w + (4 if label_w else 0) + TICK_PX
        plot_w0 = self.width - left - 12
        self.x_ticks = x_static if x_static is not None else self.x.tick_list(max(2, int(plot_w0 // 60)))
        # the last tick's label is centred on it: half of it may stand right of the plot
        last_w = max((self.text_size(s)[0] for v, s in self.x_ticks if s and self.x.frac(v) > 0.97), default=0.0)
        right = max(12.0, PAD_PX + last_w / 2)
        self.plot = QRectF(left, top, self.width - left - right, plot_h)

    def px(self, xv: float, yv: float) -> QPointF:
        return QPointF(self.xpx(xv), self.ypx(yv))

    def xpx(self, v: float) -> float:
        return self.plot.left() + self.x.frac(v) * self.plot.width()

    def ypx(self, v: float) -> float:
        return self.plot.bottom() - self.y.frac(v) * self.plot.height()

    def _fit(self, text: str, rect: QRectF, font: QFont) -> tuple[str, QRectF]:
        """``text`` elided to the image's width and its box moved inside the image."""
        room = self.width - 2 * PAD_PX
        if rect.width() > room and "\n" not in text:
            text = self.metrics(font).elidedText(text, Qt.TextElideMode.ElideRight, room)
            rect = QRectF(rect.left(), rect.top(), self.text_size(text, font)[0], rect.height())
        dx = max(PAD_PX - rect.left(), 0.0) - max(rect.right() - (self.width - PAD_PX), 0.0)
        dy = max(PAD_PX - rect.top(), 0.0) - max(rect.bottom() - (self.height - PAD_PX), 0.0)
        return text, rect.translated(dx, dy)

    def text_at(self, text: str, x: float, y: float, anchor: tuple[float, float] = (0.0, 0.0),
                font: QFont | None = None, color: str = "#000000", fit: bool = True) -> QRectF:
        """Draw ``text`` with the point ``anchor`` of its box ((0, 0) top left, (0.5, 1) bottom centre) at
        (x, y) layout pixels; lines are centred, left- or right-aligned as the anchor is. Returns the box."""
        font = font or self.font
        w, h = self.text_size(text, font)
        rect = QRectF(x - anchor[0] * w, y - anchor[1] * h, w, h)
        if fit:
            text, rect = self._fit(text, rect, font)
        align = Qt.AlignmentFlag.AlignHCenter if anchor[0] == 0.5 else (
            Qt.AlignmentFlag.AlignRight if anchor[0] >= 1 else Qt.AlignmentFlag.AlignLeft)
        flags = int(align | Qt.AlignmentFlag.AlignTop)
        box = rect.adjusted(-1, 0, 1, 0)  # a little wider than measured: no wrap or elision from rounding
        colour = QColor(color)

        def op(p: QPainter, font_scale: float) -> None:
            p.setFont(_scaled(font, font_scale))
            p.setPen(colour)
            p.drawText(box, flags, text)

        self.ops.append(op)
        self.texts.append((text, rect))
        return rect

    def label(self, text: str, xv: float, yv: float, anchor: tuple[float, float] = (0.5, 1.0),
              offset: tuple[float, float] = (0.0, 0.0), size_pt: float | None = None, bold: bool = False) -> QRectF:
        """A label at a data point, shifted by ``offset`` layout pixels (positive y: down)."""
        font = self.font if size_pt is None and not bold else self.make_font(size_pt or FONT_PT, bold)
        pt = self.px(xv, yv)
        return self.text_at(text, pt.x() + offset[0], pt.y() + offset[1], anchor, font)

    # ---- data
    def _clipped(self, draw: Callable[[QPainter], None]) -> None:
        """Record ``draw`` clipped to the plot area (within whatever clip the painter has: a printed page's)."""
        plot = QRectF(self.plot)

        def op(p: QPainter, _font_scale: float) -> None:
            p.save()
            p.setClipRect(plot, Qt.ClipOperation.IntersectClip)
            draw(p)
            p.restore()

        self.ops.append(op)

    def _grid(self) -> None:
        lines = []
        if self.y.grid:
            lines += [(QPointF(self.plot.left(), self.ypx(v)), QPointF(self.plot.right(), self.ypx(v)))
                      for v, _s in self.y_ticks]
        if self.x.grid:
            lines += [(QPointF(self.xpx(v), self.plot.top()), QPointF(self.xpx(v), self.plot.bottom()))
                      for v, _s in self.x_ticks]
        grid_pen = pen(GRID.name(QColor.NameFormat.HexArgb), 0.6)

        def op(p: QPainter, _font_scale: float) -> None:
            p.setPen(grid_pen)
            for a, b in lines:
                p.drawLine(a, b)

        self.ops.append(op)

    def bar(self, x0: float, x1: float, y0: float, y1: float, brush: QBrush, outline: QPen | None = None) -> None:
        """A filled rectangle between two data corners; a hatched fill gets a white base under it."""
        r = QRectF(self.px(x0, y1), self.px(x1, y0)).normalized()
        brush = QBrush(brush)

        def draw(p: QPainter) -> None:
            if brush.style() != Qt.BrushStyle.SolidPattern:
                p.fillRect(r, QColor("white"))
            p.fillRect(r, brush)
            if outline is not None:
                p.setPen(outline)
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawRect(r)

        self._clipped(draw)

    def polyline(self, points: Sequence[tuple[float, float]], line: QPen) -> None:
        poly = QPolygonF([self.px(x, y) for x, y in points])

        def draw(p: QPainter) -> None:
            p.setPen(line)
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawPolyline(poly)

        self._clipped(draw)

    def marker(self, xv: float, yv: float, symbol: str, size: float, fill: str, outline: QPen) -> None:
        """A point marker ``size`` layout pixels across: ``o`` circle, ``s`` square, ``t`` triangle (point down)."""
        c = self.px(xv, yv)
        brush = QBrush(QColor(fill))
        self.ops.append(lambda p, _s: draw_symbol(p, symbol, c, size / 2, brush, outline))

    def hline(self, yv: float, line: QPen, x0: float | None = None, x1: float | None = None) -> None:
        """A horizontal line at ``yv`` across the plot (or from ``x0`` to ``x1``)."""
        y = self.ypx(yv)
        a = QPointF(self.plot.left() if x0 is None else self.xpx(x0), y)
        b = QPointF(self.plot.right() if x1 is None else self.xpx(x1), y)
        self._clipped(lambda p: (p.setPen(line), p.drawLine(a, b)))

    def vline(self, xv: float, line: QPen) -> None:
        x = self.xpx(xv)
        a, b = QPointF(x, self.plot.top()), QPointF(x, self.plot.bottom())
        self._clipped(lambda p: (p.setPen(line), p.drawLine(a, b)))

    # ---- axes
    def finish(self) -> "Chart":
        """Record the axes, ticks, tick labels and titles over the data (once)."""
        if self.finished:
            return self
        self.finished = True
        r = QRectF(self.plot)
        fm = self.metrics(self.font)
        axis_pen = pen("#000000", 1.0)
        axis_pen.setCapStyle(Qt.PenCapStyle.SquareCap)
        marks = [(QPointF(r.left() - TICK_PX, self.ypx(v)), QPointF(r.left(), self.ypx(v))) for v, _s in self.y_ticks]
        marks += [(QPointF(self.xpx(v), r.bottom()), QPointF(self.xpx(v), r.bottom() + TICK_PX))
                  for v, _s in self.x_ticks]

        def axes(p: QPainter, _font_scale: float) -> None:
            p.setPen(axis_pen)
            p.drawLine(r.bottomLeft(), r.topLeft())
            p.drawLine(r.bottomLeft(), r.bottomRight())
            for a, b in marks:
                p.drawLine(a, b)

        self.ops.append(axes)
        label_right = r.left() - TICK_PX - 4
        for v, s in self.y_ticks:
            if s:
                self.text_at(s, label_right, self.ypx(v), (1.0, 0.5))
        xs = [self.xpx(v) for v, _s in self.x_ticks]
        for i, (_v, s) in enumerate(self.x_ticks):
            if s:
                gaps = [abs(xs[i] - o) for j, o in enumerate(xs) if j != i]
                room = min(gaps) - 4 if gaps else self.width
                lines = [fm.elidedText(line, Qt.TextElideMode.ElideRight, max(room, 20.0)) for line in s.split("\n")]
                self.text_at("\n".join(lines), xs[i], r.bottom() + TICK_PX + 2, (0.5, 0.0))
        title_font = self.make_font(FONT_PT + 0.5)
        if self.x.title:
            self.text_at(self.x.title, r.center().x(), self.height - PAD_PX, (0.5, 1.0), title_font)
        if self.y.title:
            self._vertical_title(self.y.title, title_font)
        return self

    def _vertical_title(self, text: str, font: QFont) -> None:
        """The y axis's title read bottom to top, centred on the plot's height, left of the tick labels."""
        fm = self.metrics(font)
        text = fm.elidedText(text, Qt.TextElideMode.ElideRight, self.plot.height())
        w, h = fm.horizontalAdvance(text), fm.height()
        cy = self.plot.center().y()

        def op(p: QPainter, font_scale: float) -> None:
            p.save()
            p.translate(PAD_PX, cy)
            p.rotate(-90)
            p.setFont(_scaled(font, font_scale))
            p.setPen(QColor("#000000"))
            p.drawText(QRectF(-w / 2 - 1, 0, w + 2, h), int(Qt.AlignmentFlag.AlignCenter), text)
            p.restore()

        self.ops.append(op)
        self.texts.append((text, QRectF(PAD_PX, cy - w / 2, h, w)))

    # ---- output
    def paint(self, p: QPainter, target: QRectF) -> None:
        """Draw the chart into ``target`` (in the painter's coordinates) as vector graphics. Fonts keep their
        point size on any device: Qt sizes a font for the painter's device (300 or 1200 dpi for a PDF or a
        printer), while the chart was measured at 96 dpi, so each font is scaled by 96 / the device's dpi."""
        self.finish()
        dpi = p.device().logicalDpiY() if p.device() is not None else 96
        p.save()
        p.translate(target.topLeft())
        p.scale(target.width() / self.width, target.height() / self.height)
        p.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing
                         | QPainter.RenderHint.NonCosmeticBrushPatterns)
        p.fillRect(QRectF(0, 0, self.width, self.height), QColor("white"))
        for op in self.ops:
            op(p, 96.0 / (dpi or 96))
        p.restore()

    @property
    def image(self) -> QImage:
        """The chart as an image of :data:`EXPORT_WIDTH` pixels (about 300 dpi on paper), drawn once."""
        if self._image is None:
            img = QImage(round(self.width * SCALE), round(self.height * SCALE), QImage.Format.Format_RGB32)
            img.setDotsPerMeterX(_DOTS_PER_METRE_96)
            img.setDotsPerMeterY(_DOTS_PER_METRE_96)
            img.fill(QColor("white"))
            p = QPainter(img)
            self.paint(p, QRectF(0, 0, img.width(), img.height()))
            p.end()
            self._image = img
        return self._image


_METRIC_DEVICE: list[QImage] = []


def _metric_device() -> QImage:
    """A 96-dpi image the charts measure their texts on (as the document lays out its own)."""
    if not _METRIC_DEVICE:
        img = QImage(1, 1, QImage.Format.Format_RGB32)
        img.setDotsPerMeterX(_DOTS_PER_METRE_96)
        img.setDotsPerMeterY(_DOTS_PER_METRE_96)
        _METRIC_DEVICE.append(img)
    return _METRIC_DEVICE[0]


def _scaled(font: QFont, factor: float) -> QFont:
    if abs(factor - 1.0) < 1e-9:
        return font
    f = QFont(font)
    f.setPointSizeF(font.pointSizeF() * factor)
    return f


# ------------------------------------------------------------------------------------------ legend

def draw_symbol(p: QPainter, symbol: str, c: QPointF, r: float, fill: QBrush, outline: QPen) -> None:
    """A marker of radius ``r`` centred on ``c``: ``o`` circle, ``s`` square, ``t`` triangle pointing down."""
    p.setPen(outline)
    p.setBrush(fill)
    if symbol == "o":
        p.drawEllipse(c, r, r)
    elif symbol == "s":
        p.drawRect(QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r))
    elif symbol == "t":
        p.drawPolygon(QPolygonF([QPointF(c.x() - r, c.y() - r * 0.8), QPointF(c.x() + r, c.y() - r * 0.8),
                                 QPointF(c.x(), c.y() + r * 0.9)]))


def legend_key(brush: QBrush | None = None, line: QPen | None = None, symbol: str | None = None,
               fill: str = "#ffffff") -> QImage:
    """A legend key (72 × 30 px, shown 24 × 10 layout pixels next to its label): a filled box, a line in the
    series' style, a marker, or a line with its marker."""
    w, h = 72, 30
    img = QImage(w, h, QImage.Format.Format_ARGB32)
    img.fill(QColor("white"))
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    if brush is not None:
        b = QBrush(brush)
        b.setTransform(QTransform.fromScale(SCALE / 2, SCALE / 2))  # the chart's hatch spacing at the key's size
        p.fillRect(6, 3, w - 12, h - 6, QColor("white"))
        p.fillRect(6, 3, w - 12, h - 6, b)
        p.setPen(QPen(QColor("black"), 2))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRect(6, 3, w - 12, h - 6)
    if line is not None:
        q = QPen(line)
        q.setWidthF(max(2.0, line.widthF() * 1.6))
        p.setPen(q)
        p.drawLine(2, h // 2, w - 2, h // 2)
    if symbol is not None:
        draw_symbol(p, symbol, QPointF(w / 2, h / 2), 9, QBrush(QColor(fill)), QPen(QColor("black"), 3))
    p.end()
    return img
