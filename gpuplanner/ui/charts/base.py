"""What every live chart shares: ``ChartBase`` (the plot, its legend, hover, export, the empty state), labelled
lines and hover points."""

from __future__ import annotations

import html
import math
from typing import Callable

import pyqtgraph as pg
from PySide6.QtCore import QEvent, QPointF, QRect, Qt
from PySide6.QtGui import QCursor
from PySide6.QtWidgets import QFileDialog, QHBoxLayout, QLabel, QMenu, QMessageBox, QToolButton, QToolTip, QVBoxLayout, QWidget

from ..fit_box import FitHeightBox
from .axes import log_ticks, set_ticks, short_num, snap_log_range


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
        # the message sits in the data area: placed again when the axes take their room
        self.plot.getPlotItem().vb.sigResized.connect(
            lambda _vb: self._place_empty() if self.empty.isVisibleTo(self.plot) else None)

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
        from .. import settings

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
            from ..text import error_message

            QMessageBox.warning(self, self.tr("Cannot export the chart"), error_message(err))
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
        if message:  # no stale tick labels beside the message (ux17: "1万" half hidden behind it)
            pi = self.plot.getPlotItem()
            for side in ("left", "bottom"):
                axis = pi.getAxis(side)
                if getattr(axis, "_gp_ticks", None) is not None:  # ticks this chart sets itself (log axes)
                    set_ticks(axis, [[], []])
        self._place_empty()

    def empty_area(self) -> QRect:
        """Where the empty-state message goes: the plot's data area (inside its axes), in the plot widget's
        coordinates; the whole plot while the data area has no size yet."""
        vb = self.plot.getPlotItem().vb
        area = self.plot.mapFromScene(vb.sceneBoundingRect()).boundingRect() & self.plot.rect()
        return area if area.width() >= 120 and area.height() >= 30 else self.plot.rect()

    def _place_empty(self) -> None:
        r = self.empty_area()
        w = min(r.width() - 12, 360)
        self.empty.setFixedWidth(max(80, w))
        self.empty.adjustSize()
        self.empty.move(r.x() + (r.width() - self.empty.width()) // 2, r.y() + max(0, (r.height() - self.empty.height()) // 2))

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
