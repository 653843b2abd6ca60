"""The cost chart: cost against calendar days of the ranked plans (each ``PlanRow.evaluation``), the Pareto front."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtWidgets import QLabel, QWidget

from ..text import set_text
from gpuplanner.app import engine
from gpuplanner.formatting import ELAPSED_UNITS, elapsed_unit, format_elapsed, format_money, gpu_display_name, pick_time_unit
from .axes import RED, _set_line_label, set_axis_label, set_ticks
from .base import ChartBase, LabeledLine, _HoverPoint
from .items import LogLineItem, PointsItem
from .legend import legend_html


def chart_time_unit(max_days: float, chosen_days: float | None) -> tuple[str, float]:
    """The unit the time axis reads in, and its days: the chosen plan's headline unit where it has one
    (``formatting.elapsed_unit``: hours below a day), so a "7.9 hours" plan is not starred at "0.3" on an axis in days
    (the PDF's rule, report.render.chart_time_unit; issue 35 round 16, ux24); else hours, days or weeks, whichever
    suits the range (``pick_time_unit``; never "(x0.001)"), but not hours under a plan that reads in days."""
    unit, per = pick_time_unit(max_days)
    if chosen_days is not None and math.isfinite(chosen_days) and chosen_days > 0:
        head = elapsed_unit(chosen_days)
        if head == "hours" or unit == "hours":
            return head, ELAPSED_UNITS[head][0]
    return unit, per


def _star_point(pts, chosen: int | None, chosen_at: tuple[float, float] | None) -> list[tuple[float, float]]:
    """Where the "chosen" star goes, as [(calendar days, cost)] or []: at ``chosen_at`` when given (the document's
    own Evaluation), else on the plan at index ``chosen``; nothing without a positive duration and cost."""
    if chosen_at is not None:
        d, c = chosen_at
        return [(float(d), float(c))] if d and c and d > 0 and c > 0 else []
    return [(p.calendar_days, p.cost) for i, p in pts if i == chosen]


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
            self.update_plans(*state[:-1], updating=self._updating, chosen_at=state[-1])

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
        items = [("#888", "●", self.tr("plans")), ("#1565c0", "●—", self.tr("best trade-offs")),
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
            p.rank, p.num_gpus, gpu_display_name(p.gpu_name, short=True), format_elapsed(p.calendar_days),
            format_money(p.cost, p.currency))

    def update_plans(self, plans: list[engine.PlanRow], chosen: int | None, currency: str,
                     deadline_days: float | None = None, budget: float | None = None,
                     status: str | None = None, updating: bool = False,
                     chosen_at: tuple[float, float] | None = None) -> None:
        """Draw ``plans``; ``updating``: they are the previous search's while a new one runs (kept, not cleared, so
        the chart neither flickers nor repaints twice per keystroke; marked "updating…"). ``chosen_at``: the
        (calendar days, cost) of the plan the document stands for when it is not one of ``plans`` by index (a
        manual layout: the summary's Evaluation); the star goes there instead of on ``plans[chosen]``."""
        state = (plans, chosen, currency, deadline_days, budget, status, chosen_at)
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
        star = _star_point(pts, chosen, chosen_at)
        self.time_unit, per = chart_time_unit(float(days.max()), star[0][0] if star else None)
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
        ch = [(d / per, c) for d, c in star]
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
                     "chosen": star}
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
