"""The live panel beside the pages: a one-glance summary and the three charts for the current scenario."""

from __future__ import annotations

from gpuplanner.formatting import (format_money, format_number, format_percent, format_sig,
                                   format_list, format_params, format_sentences, gpu_display_name)

from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QSplitter, QVBoxLayout, QWidget


from gpuplanner.app import engine
from .charts import CostChart, MemoryChart, ScalingChart
from .fit_box import FitHeightBox
from .model import ScenarioModel
from .text import better_line, mfu_cell, plain, set_style, set_text, tr_error, tr_msg
from gpuplanner.core.evaluate import cost_band_msg
from gpuplanner.core.messages import memory_sum_msg, plan_span_msgs


class LivePanel(QWidget):
    def __init__(self, model: ScenarioModel, estimator, search, parent: QWidget | None = None):
        super().__init__(parent)
        self.model, self.estimator, self.search = model, estimator, search
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.setSpacing(6)
        card = QFrame()
        card.setObjectName("summaryCard")
        card.setStyleSheet("#summaryCard { background: #f5f7fa; border: 1px solid #dde3ea; border-radius: 6px; }")
        grid = QGridLayout(card)
        grid.setContentsMargins(10, 6, 10, 6)
        grid.setHorizontalSpacing(14)
        grid.setVerticalSpacing(2)
        self.model_title, self.model_value = QLabel(), QLabel()
        self.mem_title, self.mem_value = QLabel(), QLabel()
        self.time_title, self.time_value = QLabel(), QLabel()
        for i, (t, v) in enumerate([(self.model_title, self.model_value), (self.mem_title, self.mem_value),
                                    (self.time_title, self.time_value)]):
            t.setStyleSheet("color: #555;")
            f = v.font()
            f.setBold(True)
            v.setFont(f)
            v.setWordWrap(True)
            v.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            grid.addWidget(t, 0, i)
            grid.addWidget(v, 1, i)
            grid.setColumnStretch(i, 1)
        # the plan (GPUs, MFU, cost) on a line of its own across the card: under "Time" it squeezed into a third
        self.plan_value = QLabel()
        self.plan_value.setObjectName("summaryPlan")
        self.plan_value.setWordWrap(True)
        self.plan_value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        f = self.plan_value.font()
        f.setBold(True)
        self.plan_value.setFont(f)
        grid.addWidget(self.plan_value, 4, 0, 1, 3)
        # the search's best plan when it beats the manual layout by more than its tie (text.better_line; choice15)
        self.better = QLabel()
        self.better.setObjectName("betterPlan")
        self.better.setWordWrap(True)
        self.better.setStyleSheet("color: #8a5300;")
        self.better.hide()
        grid.addWidget(self.better, 5, 0, 1, 3)
        self.error = plain(QLabel())
        # names from files (models, custom GPUs) are shown as text, never interpreted as HTML
        for lab in (self.model_value, self.mem_value, self.time_value, self.plan_value, self.error, self.better):
            lab.setTextFormat(Qt.TextFormat.PlainText)
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #c62828;")
        self.error.hide()
        grid.addWidget(self.error, 2, 0, 1, 3)
        # the model intake's warnings (approximate architecture, weights vs config, context, host RAM)
        self.warnings = QLabel()
        self.warnings.setObjectName("intakeWarnings")
        self.warnings.setTextFormat(Qt.TextFormat.PlainText)
        self.warnings.setWordWrap(True)
        self.warnings.setStyleSheet("color: #8a5300;")
        self.warnings.hide()
        grid.addWidget(self.warnings, 3, 0, 1, 3)
        self.card = card
        # its figures change on every keystroke: the card re-lays out itself, the panel only when its height changes
        lay.addWidget(FitHeightBox(card))
        self.split = QSplitter(Qt.Orientation.Vertical)
        self.split.setChildrenCollapsible(False)
        self.memory_chart = MemoryChart()
        self.scaling_chart = ScalingChart()
        self.cost_chart = CostChart()
        for c in (self.memory_chart, self.scaling_chart, self.cost_chart):
            self.split.addWidget(c)
        self.split.setSizes([300, 240, 240])
        lay.addWidget(self.split, 1)
        estimator.updated.connect(self.on_estimate)
        estimator.updated.connect(lambda _r: self.refresh_cost())  # a manual layout's star is the estimate's plan
        estimator.scalingUpdated.connect(self.on_scaling)
        search.finished.connect(lambda _o: self.refresh_cost())
        search.started.connect(self.refresh_cost)
        search.failed.connect(lambda _m: self.refresh_cost())
        model.changed.connect(self._on_model_changed)
        self.retranslate()

    def charts(self):
        return [self.memory_chart, self.scaling_chart, self.cost_chart]

    def _on_model_changed(self, section: str) -> None:
        if section in ("ui", "plan", "constraints", "all"):
            self.refresh_cost()

    def on_estimate(self, res: engine.LiveResult) -> None:
        self.memory_chart.update_from(res)
        # no estimate: the scaling chart names the reason (an unknown preset), not "no layout fits" (ux27)
        self.scaling_chart.set_estimate_error(
            tr_error(res.error, self) if res is not None and res.evaluation is None and res.error else "")
        if res is None or res.evaluation is None:
            self.model_value.setText("—")
            self.mem_value.setText("—")
            self.time_value.setText("—")
            self.plan_value.setText("")
            self.error.setText(tr_error(res.error, self) if res is not None else "")
            self.error.setVisible(bool(res is not None and res.error))
            self.warnings.hide()
            return
        self.error.hide()
        ev = res.evaluation
        # each label is set once, and only when its text changes: a label whose text changes asks every enclosing
        # layout to recompute (and the card to repaint) — once per keystroke, not once per line
        warn = [tr_msg(w) for w in getattr(ev, "warnings", ())]
        set_text(self.warnings, "\n".join("⚠ " + w for w in warn))
        self.warnings.setVisible(bool(warn))
        pc = ev.params
        if pc.active < pc.total:  # MoE: which figure is which (ux17: "46.7B" alone read as the active count)
            params = self.tr("{0} · {1} total, {2} active params").format(
                ev.model_name, format_params(pc.total), format_params(pc.active))
        else:
            params = self.tr("{0} · {1} params").format(ev.model_name, format_params(pc.total))
        set_text(self.model_value, params)
        m = ev.memory
        fit = self.tr("fits") if m.fits else self.tr("does not fit")
        # the sum every view says (core.messages.memory_sum_msg: the estimate + the margin kept free; ux28)
        mem = self.tr("{0} per GPU — {1}").format(tr_msg(memory_sum_msg(m.total, m.headroom, m.capacity)), fit)
        if ev.host_ram is not None:
            mem += "\n" + self.tr("host RAM for offload: {0} GiB per node").format(
                format_number(ev.host_ram.total)) + ("" if ev.host_ram.available is None else self.tr(" of {0}").format(
                    format_number(ev.host_ram.available)))
        set_text(self.mem_value, mem)
        set_style(self.mem_value, "" if m.fits else "color: #c62828;")
        # one message in the one unit of the plan's whole range (formatting.format_plan_time; ux21, ux22)
        head, compute, span_rng = plan_span_msgs(ev.calendar_days, ev.compute_days, ev.calendar_days_band)
        lines = [self.tr("{0} in calendar time ({1} of compute)").format(tr_msg(head), tr_msg(compute))]
        # RL: the rollouts' whole share of the step and its named parts, the CLI's and the PDF's rows
        # (TimeEstimate.rollout_shares; the remainder alone read 16% where the rollouts took 26%: ux25)
        rollouts = ev.time.rollout_shares
        if rollouts is not None:
            lines.append(self.rollout_line(ev.time, *rollouts))
        set_text(self.time_value, "\n".join(lines))
        plan = [self.tr("{0} × {1} · MFU {2}").format(ev.num_gpus, gpu_display_name(ev.gpu_name),
                                                     mfu_cell(ev.mfu, ev))]  # "(capped)" as `plan` marks it
        if not m.fits:  # not priced, as the PDF and ``estimate`` (ux21, ux22: "¥70,000" beside "does not fit")
            plan.append(self.tr("no price: it does not fit"))
        elif ev.cost is not None:
            plan.append(self.tr("{0} ({1})").format(
                format_money(ev.cost, ev.currency), QCoreApplication.translate("Cost", ev.rental_mode_label)))
        set_text(self.plan_value, " · ".join(plan))
        tip = self.tr(
            "Calendar time: what you wait, with setup, checkpoints, interruptions and your hours per week. "
            "Compute time: GPU time around the clock.")
        if ev.calendar_days_band is not None:
            cost = "" if ev.cost_band is None else self.tr(", {0}").format(tr_msg(cost_band_msg(ev)))  # why (ux15)
            tip += "\n\n" + format_sentences([self.tr("Likely range: {0}{1}.").format(
                tr_msg(span_rng), cost),
                QCoreApplication.translate("Evaluation", ev.band["meaning"])])
        if self.time_value.toolTip() != tip:
            self.time_value.setToolTip(tip)
        self.scaling_chart.set_deadline_days(ev.deadline_days)

    def rollout_line(self, te, whole: float, parts: dict) -> str:
        """The rollouts' share of each step, the parts carved out of it named as the time-share rows name them
        (``timing.ROLLOUT_PART_SHORT``: the rows' parts in fewer words), and under an overlapped schedule that it is
        what the training does not hide."""
        from gpuplanner.core.timing import OVERLAPPED_SCHEDULES, ROLLOUT_PART_SHORT
        from gpuplanner.formatting import BREAKDOWN_SHARE_DECIMALS, breakdown_rows

        # the rows' own percents (formatting.breakdown_rows: "0.3%", as the CLI and the PDF print them), each part
        # in the few words the panel has room for (timing.ROLLOUT_PART_SHORT)
        inner = [self.tr("{0} {1}").format(QCoreApplication.translate("Timing", ROLLOUT_PART_SHORT[k]), pct)
                 for k, pct in breakdown_rows({k: v for k, v in parts.items() if k != "generation"})]
        head = (self.tr("rollouts the training does not hide: {0} of each step") if te.rollout_schedule in
                OVERLAPPED_SCHEDULES else self.tr("rollouts: {0} of each step")).format(
            format_percent(whole, BREAKDOWN_SHARE_DECIMALS))
        return head if not inner else self.tr("{0}, of which {1}").format(head, format_list(inner))

    def on_scaling(self, res) -> None:
        self.scaling_chart.set_deadline_days(self.model.scenario.constraints.deadline_days)
        self.scaling_chart.update_from(res)

    def refresh_better(self) -> None:
        """The line under the plan: the search's best plan against the manual layout (``text.better_line``)."""
        line = better_line(self.model.scenario, self.estimator, self.search)
        set_text(self.better, line)
        self.better.setVisible(bool(line))

    def refresh_cost(self) -> None:
        s = self.search
        self.refresh_better()
        c = self.model.scenario.constraints
        # while a new search runs, the previous search's plans of this document stay drawn, marked "updating…"
        # (a new document clears the outcome: SearchController.reset)
        plans = s.outcome.plans if (s.outcome is not None and s.state in ("done", "running")) else []
        chosen, chosen_at = self._chosen_on_chart(plans)
        status = None
        if s.state == "running":
            status = self.tr("Searching for plans…") if not plans else None
        elif s.state == "failed":
            # in the UI language, the field by its label (the search process sends the MsgStr; ux26: it was English)
            status = self.tr("The plan search failed: {0}").format(tr_error(s.error, self) if s.error else "")
        self.cost_chart.update_plans(plans, chosen, c.currency, c.deadline_days, c.budget, status,
                                     updating=s.state == "running" and bool(plans), chosen_at=chosen_at)

    def _chosen_on_chart(self, plans) -> tuple[int | None, tuple[float, float] | None]:
        """The star's place, decided by app.answer.chart_star (the rule the summary, the CLI and the report follow):
        this view only hands it the window's state and draws what it returns."""
        res = self.estimator.result
        return engine.chart_star(self.model.scenario, plans, self.model.ui.get("selected_plan"),
                                 None if res is None else res.evaluation)

    def changeEvent(self, ev):  # noqa: N802 (Qt)
        if ev.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(ev)

    def retranslate(self) -> None:
        self.model_title.setText(self.tr("Model"))
        self.mem_title.setText(self.tr("Memory"))
        self.time_title.setText(self.tr("Time"))
        if self.estimator.result is not None:
            self.on_estimate(self.estimator.result)
        self.refresh_cost()
