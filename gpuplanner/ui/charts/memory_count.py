"""Memory per GPU against GPU count (``Scaling.memory``: ``core.evaluate.memory_by_gpu_count``), with each
candidate card's capacity."""

from __future__ import annotations

import html
import math
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from gpuplanner.formatting import format_number, format_sig, gpu_display_name
from gpuplanner.core.series import memory_own
from .axes import gpu_ticks
from .base import ChartBase, _HoverPoint
from .legend import legend_html
from gpuplanner.formatting import format_list


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
            lab = self.tr("{0} GiB:").format(format_number(cap, 0))
            head = legend_html([(CARD_COLORS[i], "╌╌", lab)])
            # a full-width colon carries its own space: "96 GiB：H20", not "96 GiB： H20" (ux11)
            parts.append(head + ("" if lab.endswith("：") else " ") + format_list(
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
        cur = memory_own(mb)  # the series the PDF's chart plots too (core/series.py)
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
            fit = [format_list(names) for cap, names, _ in self.groups if p.memory.total + mb.headroom <= cap]
            lines = [self.tr("{0} GPUs: {1} GiB per GPU").format(p.num_gpus, format_sig(p.memory.total)),
                     self.tr("least-memory layout: {0}").format(self.layout_text(p.layout))]
            if p.current is not None:
                lines.append(self.tr("your layout: {0} GiB").format(format_sig(p.current.total)))
            lines.append(self.tr("fits on: {0}").format(format_list(fit)) if fit else self.tr("fits on none of the ticked GPUs"))
            hov.append(_HoverPoint(math.log10(p.num_gpus), math.log10(p.memory.total), "\n".join(lines)))
        for n, v in cur:
            hov.append(_HoverPoint(math.log10(n), math.log10(v), self.tr("{0} GPUs, your layout: {1} GiB per GPU").format(
                n, format_sig(v))))
        self.set_hover_points(hov)
        self._update_legend()
        yr = list(ys) + [c[1] for c in cur] + [g[0] for g in self.groups]
        self._set_log_ranges(list(xs), yr, x_ticks=gpu_ticks, pad=1.3)
