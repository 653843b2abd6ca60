"""The memory chart: memory per GPU by part (the live Evaluation's ``memory``), capacity and headroom."""

from __future__ import annotations

import html
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QWidget

from ..text import tr_error, tr_msg
from gpuplanner.app import engine
from gpuplanner.formatting import format_number
from .axes import RED, SERIES_COLORS, nice_ceil, set_ticks
from .base import ChartBase, _HoverPoint, _once
from .items import StackedBarsItem
from .legend import legend_html


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
            t.setFont(_label_font())
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
            + [("#333", "╌╌", self.capacity_text), (RED, "□", self.tr("does not fit"))])
            + self._note_html())
        self.plot.getPlotItem().setLabel("left", self.tr("GiB"))
        if self._last is not None:
            self.update_bars(self._last)

    def _note_html(self) -> str:
        """The core's one line on bars left out (no ZeRO bars at data-parallel 1), under the legend."""
        note = tr_msg(getattr(self, "note", None))
        return f"<br><span style='color:#666'>{html.escape(note)}</span>" if note else ""

    def alt_label(self, alt: engine.Alternative) -> str:
        if alt.kind == "current":
            return self.tr("Current")
        if alt.kind == "zero":
            return self.tr("ZeRO-{0}").format(alt.value)
        # plain words, not "sel. RC" (terms18: a new user does not know the abbreviation; the tooltip says more)
        names = {"none": self.tr("no recompute"), "selective": self.tr("recompute some"),
                 "megatron_selective": self.tr("recompute some"), "op_sac": self.tr("recompute ops"),
                 "layer_sac": self.tr("recompute layers"), "full": self.tr("recompute all")}
        return names.get(alt.value, str(alt.value))

    def update_from(self, res: engine.LiveResult | None) -> None:
        if res is None or res.evaluation is None:
            if getattr(self, "note", None) is not None:  # no bars: no line on bars left out
                self.note = None
                self.retranslate()
            self.set_empty(tr_error(res.error, self) if res is not None and res.error else self.tr("No estimate yet."))
            self.update_bars([])
            return
        self.set_empty(None)
        if getattr(res, "alternatives_note", None) != getattr(self, "note", None):
            self.note = getattr(res, "alternatives_note", None)
            self.retranslate()
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


def _label_font() -> QFont:
    """The bar totals' font: the application's (sans-serif, with the CJK fallback) at 8 pt. ``QFont("", 8)``, an
    empty family, matched a serif face offscreen, unlike every other text of the chart."""
    f = QFont()
    f.setPointSize(8)
    return f
