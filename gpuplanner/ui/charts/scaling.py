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
from .axes import LINK_COLORS, RED, gpu_ticks, set_axis_label, short_num
from .base import ChartBase, LabeledLine, _HoverPoint
from .items import LogLineItem
from .legend import legend_html


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
