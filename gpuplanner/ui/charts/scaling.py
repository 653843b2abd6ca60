"""The scaling chart: days against GPU count (the sweep's Evaluations, ``core.evaluate.scaling``)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QWidget

from ..text import set_text
from gpuplanner.app import engine
from gpuplanner.formatting import format_sig
from .axes import LINK_COLORS, RED, gpu_ticks, set_axis_label
from .base import ChartBase, LabeledLine, _HoverPoint
from .items import LogLineItem
from .legend import legend_html


#: where the deadline's label may sit on its line, in order of preference: (place along the line from the left,
#: text anchor): the right end, the left end, the middle, above the line, then the same below it
LABEL_PLACES = ((0.98, (1.0, 1.0)), (0.02, (0.0, 1.0)), (0.5, (0.5, 1.0)),
                (0.98, (1.0, 0.0)), (0.02, (0.0, 0.0)), (0.5, (0.5, 0.0)))


def label_box(view: tuple[float, float, float, float], line_y: float, size: tuple[float, float],
              place: tuple[float, tuple[float, float]]) -> tuple[float, float, float, float]:
    """The box (x0, x1, y0, y1, view units) a label of ``size`` (view units) covers at ``place`` on the horizontal
    line at ``line_y`` in the view ``(x0, x1, y0, y1)``: the anchor's point of the text sits on the line."""
    x0, x1, _y0, _y1 = view
    pos, (ax, ay) = place
    px = x0 + pos * (x1 - x0)
    w, h = size
    left = px - ax * w
    bottom = line_y - (1.0 - ay) * h  # anchor y 1: the text's bottom on the line (text above it)
    return left, left + w, bottom, bottom + h


def free_label_place(view, line_y: float, size, curves) -> tuple[float, tuple[float, float]] | None:
    """The first of :data:`LABEL_PLACES` whose box crosses no curve (``curves``: lists of (x, y) points in view
    units, each joined by straight segments) and stays inside the view; None when every place is taken (the
    chart then writes the text in its legend)."""
    samples = []
    for pts in curves:
        for (xa, ya), (xb, yb) in zip(pts, pts[1:]):
            samples += [(xa + (xb - xa) * t / 16, ya + (yb - ya) * t / 16) for t in range(17)]
        if len(pts) == 1:
            samples.append(pts[0])
    vx0, vx1, vy0, vy1 = view
    for place in LABEL_PLACES:
        bx0, bx1, by0, by1 = label_box(view, line_y, size, place)
        if by0 < vy0 or by1 > vy1 or bx0 < vx0 or bx1 > vx1:
            continue  # cut by the frame
        if not any(bx0 <= x <= bx1 and by0 <= y <= by1 for x, y in samples):
            return place
    return None


def _log_points(x, y) -> list[tuple[float, float]]:
    """A curve's finite, positive points as (log10 x, log10 y): the view's units in log mode."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    ok = np.isfinite(x) & np.isfinite(y) & (x > 0) & (y > 0)
    return list(zip(np.log10(x[ok]).tolist(), np.log10(y[ok]).tolist()))


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
        pi.vb.sigResized.connect(lambda _vb: self._place_deadline_label())  # the label's size against the view
        self._res: engine.ScalingResult | None = None
        self._deadline_days: float | None = None
        self._estimate_error = ""  # why the scenario has no estimate (set_estimate_error)
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
        note = getattr(self, "deadline_note", "") or getattr(self, "_label_note", "")
        target = getattr(self, "_line_target", None)  # no deadline set: no deadline line, so none in the legend
        deadline = [(RED, "─·─", note or self.tr("deadline"))] if note or (target and target > 0) else []
        set_text(self.legend_label, legend_html(
            [(LINK_COLORS[k], "●", self.kind_names[k]) for k in kinds]
            + [("#777", "╌╌", self.kind_names["ideal"])] + deadline))

    def set_deadline_days(self, days: float | None) -> None:
        self._deadline_days = days

    def set_estimate_error(self, text: str) -> None:
        """Why the scenario has no estimate (the live estimate's error, in the UI language; "" when it has one): an
        empty chart says it rather than "no layout fits" (ux27: an unknown preset read as an out-of-memory sweep)."""
        if text != self._estimate_error:
            self._estimate_error = text
            if text or not self.data:
                self.update_from(self._res)

    def _point_tip(self, kind: str, gpus: float, value: float, days_mode: bool) -> str:
        # a sentence per unit: the menu's word ("tokens/s", zh "每秒 token 数") and the axis's ("days", zh "天数")
        # read wrong after a number ("→ 3.5 天数"; ux20)
        text = self.tr("{0}: {1} GPUs → {2} days") if days_mode else self.tr("{0}: {1} GPUs → {2} tokens/s")
        return text.format(self.kind_names[kind], int(gpus), format_sig(value))

    def _show_empty(self, res: engine.ScalingResult | None) -> None:
        """No point to draw: the message, no curves, no deadline line (and none in the legend, ux17)."""
        err = self._estimate_error
        msg = (self.tr("No curve: {0}").format(err) if err else
               self.tr("No layout of this scenario fits at these GPU counts.") if res is not None else
               self.tr("No estimate yet."))
        self.set_empty(msg)
        for c in self.curves.values():
            c.setData([], [])
        self.ideal.setData([], [])
        self.deadline.setVisible(False)
        self.data = {}
        self.set_hover_points([])
        self._line_target, self.deadline_note = None, ""
        self._update_legend()

    def update_from(self, res: engine.ScalingResult | None) -> None:
        self._res = res
        days_mode = self.mode.currentData() == "days"
        pi = self.plot.getPlotItem()
        set_axis_label(pi, "left", self.tr("calendar days") if days_mode else self.tr("tokens/s"))
        # no point that runs (every count out of memory or invalid): say so, rather than an empty frame
        runs = res is not None and any(v > 0 and math.isfinite(v) for sr in res.series
                                       for v in (sr.calendar_days if days_mode else sr.tokens_per_s))
        if res is None or not runs or self._estimate_error:
            self._show_empty(res)
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
            from gpuplanner.core.series import ideal_days  # the core's line (Scaling.ideal_calendar_days), as the PDF's

            pts = ideal_days(res)
            self.ideal.setData(np.array([n for n, _ in pts], float), np.array([d for _, d in pts], float))
        else:
            self.ideal.setData([], [])
        target = self._deadline_days if days_mode else res.required_tokens_per_s
        if target and target > 0:
            self.deadline.setValue(math.log10(target))
            self.deadline.label.setFormat(
                self.tr("deadline ({0} days)").format(format_sig(target)) if days_mode
                # a figure in a sentence, not an axis tick: grouped in both languages ("3,307", never zh "3307"; ux23)
                else self.tr("needed for the deadline: {0} tokens/s").format(format_sig(target)))
            self.deadline.setVisible(True)
        else:
            self.deadline.setVisible(False)
        self.set_hover_points(hov)
        self._line_target = target
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
                    format_sig(target))
        self._update_legend()
        self._set_log_ranges(xs_all, ys_all, x_ticks=gpu_ticks)
        self._place_deadline_label()
        self.settle_view()

    def _place_deadline_label(self) -> None:
        """Put the deadline's label where it crosses no curve (:func:`free_label_place`): the tokens/s curves rise
        to the right, so the right end above the line is often taken."""
        target = getattr(self, "_line_target", None)
        vb = self.plot.getPlotItem().vb
        if not (target and target > 0 and self.deadline.isVisible()) or vb.width() <= 0 or vb.height() <= 0:
            return self._label_to_legend("")
        (x0, x1), (y0, y1) = vb.viewRange()
        label = self.deadline.label
        label.setVisible(True)  # (pyqtgraph's label takes a new text only while shown: measured as it will read)
        br = label.boundingRect()  # pixels (the text ignores the view's scale)
        size = (br.width() * (x1 - x0) / vb.width(), br.height() * (y1 - y0) / vb.height())
        curves = [_log_points(x, y) for x, y in (*self.data.values(), self.ideal.getData())]
        place = free_label_place((x0, x1, y0, y1), math.log10(target), size, curves)
        if place is None:  # the curves cross the line wherever the text would sit: the legend says it instead
            label.setVisible(False)
            return self._label_to_legend(label.format)
        pos, anchor = place
        if (label.orthoPos, label.anchors[0]) != (pos, anchor):
            label.anchors = [anchor, anchor]
            label.setPosition(pos)
        label.setVisible(True)
        self._label_to_legend("")

    def _label_to_legend(self, text: str) -> None:
        """The deadline's text in the legend (``text``) rather than on its line, or back on the line ("")."""
        if getattr(self, "_label_note", "") != text:
            self._label_note = text
            self._update_legend()

