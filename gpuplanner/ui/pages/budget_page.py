"""Step 4: time and budget — deadline (days or a date), work pattern, phase, budget cap, currency."""

from __future__ import annotations

import datetime as dt

from PySide6.QtCore import QCoreApplication, QDate
from PySide6.QtWidgets import QDateEdit, QFormLayout, QLabel

from gpuplanner.formatting import format_number

from ..fields import BoundCombo, BoundEdit, FieldBox, align_form_units, fmt_float, fmt_int, parse_float, parse_positive
from .advanced_fields import PriceSources
from .base import BasePage


def parse_pos(text: str) -> float:
    return parse_positive(parse_float(text))


class DateField(QDateEdit):
    """A deadline date; writes the days from today into constraints.deadline_days."""

    def __init__(self, page: "BudgetPage"):
        super().__init__()
        self.page = page
        self.setCalendarPopup(True)
        self.setDisplayFormat("yyyy-MM-dd")
        self.box = FieldBox(self)
        self.dateChanged.connect(self._on_date)

    def _on_date(self, d: QDate) -> None:
        days = QDate.currentDate().daysTo(d)
        self.page.model.set_ui("deadline_date", d.toString("yyyy-MM-dd"))
        if days <= 0:
            self.box.set_error(QCoreApplication.translate("BudgetPage", "the deadline must be after today"))
            return
        self.box.set_error(self.page.model.set("constraints.deadline_days", float(days)))

    def sync(self) -> None:
        m = self.page.model
        days = m.scenario.constraints.deadline_days
        if days:
            target = QDate.currentDate().addDays(int(round(days)))
            if target != self.date():
                self.blockSignals(True)
                self.setDate(target)
                self.blockSignals(False)

    def refresh_error(self) -> None:
        pass


class BudgetPage(BasePage):
    def title(self) -> str:
        return self.tr("Time and budget")

    def build(self) -> None:
        m = self.model
        self.time_box, form = self.group()
        self.deadline_mode = BoundCombo(m, None, ["days", "date", "none"], getter=lambda: m.ui.get("deadline_mode"),
                                        setter=self._set_deadline_mode)
        self.deadline_days = BoundEdit(m, "constraints.deadline_days", parse=parse_pos, fmt=fmt_float)
        self.deadline_date = DateField(self)
        self.work_mode = BoundCombo(m, None, ["continuous", "weekly"], getter=lambda: m.ui.get("work_mode"),
                                    setter=self._set_work_mode)
        self.hours = BoundEdit(m, "constraints.hours_per_week", parse=parse_pos, fmt=fmt_float)
        self.phase = BoundCombo(m, "constraints.phase", ["research", "stable", "burst"])
        self.labels = {}
        for key in ("deadline_mode", "deadline_days", "deadline_date", "work_mode", "hours", "phase"):
            self.labels[key] = self.add_field(form, getattr(self, key))
        self.form = form
        self.phase_info = QLabel()
        self.phase_info.setWordWrap(True)
        self.phase_info.setStyleSheet("color: #444;")
        form.addRow(self.phase_info)

        self.money_box, mf = self.group()
        self.budget = BoundEdit(m, "constraints.budget", parse=parse_pos, fmt=lambda v: "" if v is None else format_number(v, 0),
                                allow_empty=True)
        self.currency = BoundCombo(m, "constraints.currency", ["CNY", "USD"])
        self.objective = BoundCombo(m, "constraints.objective", ["cheapest", "fastest", "value"])
        self.max_gpus = BoundEdit(m, "constraints.max_gpus", fmt=fmt_int)
        # constraints.rental_mode: "auto" (None) = the cheapest mode without interruptions (core/cost.STEADY_MODES),
        # or one of core/cost.MODES (the core loads with the page, not at import)
        from gpuplanner.core.cost import MODES

        self.rental_mode = BoundCombo(m, None, ["auto", *MODES],
                                      getter=lambda: m.scenario.constraints.rental_mode or "auto",
                                      setter=lambda v: m.set("constraints.rental_mode", None if v == "auto" else v))
        for key in ("budget", "currency", "objective", "rental_mode", "max_gpus"):
            self.labels[key] = self.add_field(mf, getattr(self, key))
        self.prices = PriceSources(self, mf)  # constraints.region, price_kinds, converted_prices
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        mf.addRow(self.summary)

    def _set_deadline_mode(self, mode: str) -> str | None:
        self.model.set_ui("deadline_mode", mode)
        err = None
        if mode == "none":
            err = self.model.set("constraints.deadline_days", None)
        elif self.model.scenario.constraints.deadline_days is None:
            err = self.model.set("constraints.deadline_days", 30.0)
        self._update_visibility()
        return err

    def _set_work_mode(self, mode: str) -> str | None:
        self.model.set_ui("work_mode", mode)
        self._update_visibility()
        if mode == "continuous":
            return self.model.set("constraints.hours_per_week", 168.0)
        if self.model.scenario.constraints.hours_per_week >= 168:
            return self.model.set("constraints.hours_per_week", 60.0)
        return None

    def retranslate(self) -> None:
        self.heading.setText(self.tr("4 · Time and budget"))
        self.intro.setText(self.tr(
            "When it must be done and what it may cost. The deadline sets the throughput the plans must "
            "reach; the budget caps what they may cost."))
        self.time_box.setTitle(self.tr("Time"))
        self.money_box.setTitle(self.tr("Money and ranking"))
        texts = {
            "deadline_mode": (self.tr("Deadline given as"), self.tr("A number of days from now, a calendar date, or no deadline")),
            "deadline_days": (self.tr("Deadline"), self.tr("Calendar days from the start to the end of training")),
            "deadline_date": (self.tr("Deadline date"), self.tr("The date training must be finished")),
            "work_mode": (self.tr("Work pattern"), self.tr(
                "Continuous: the GPUs run around the clock; hours per week: only part of each week is usable")),
            "hours": (self.tr("Hours per week"), self.tr("Hours per week the cards can be used (168 = around the clock)")),
            "phase": (self.tr("Phase"), self.tr(
                "Research validation favours short, flexible rentals; stable training long, cheap rentals; "
                "a burst the fastest plan")),
            "budget": (self.tr("Budget cap"), self.tr("Plans that cost more are marked; empty = no cap")),
            "currency": (self.tr("Currency"), self.tr("Prices are converted at the catalog's exchange rate when needed")),
            "objective": (self.tr("Rank plans by"), self.tr(
                "Cheapest total cost, fastest finish, or best value (cost × time)")),
            "max_gpus": (self.tr("Max GPUs"), self.tr("The largest GPU count the search considers")),
            "rental_mode": (self.tr("Rental mode"), self.tr(
                "Automatic: every plan is billed in its cheapest mode without interruptions (card-hours, whole "
                "machines per week or month, capped card-hours) and a cheaper spot price is shown beside it. A mode "
                "chosen here bills every plan; cards without a price in that mode are left out, with the reason")),
        }
        for key, (label, tip) in texts.items():
            self.labels[key].setText(label)
            getattr(self, key).box.set_help(tip)
        self.deadline_days.box.set_unit(self.tr("days"))
        self.hours.box.set_unit(self.tr("h/week"))
        self.max_gpus.box.set_unit(self.tr("GPUs"))
        self.budget.setPlaceholderText(self.tr("no cap"))  # what empty means, as the tooltip says
        self.deadline_mode.set_labels({"days": self.tr("days from now"), "date": self.tr("a date"),
                                       "none": self.tr("no deadline")})
        self.work_mode.set_labels({"continuous": self.tr("continuous (24/7)"), "weekly": self.tr("hours per week")})
        self.phase.set_labels({"research": self.tr("research validation"), "stable": self.tr("stable training"),
                               "burst": self.tr("burst")})
        self.objective.set_labels({"cheapest": self.tr("cheapest"), "fastest": self.tr("fastest"),
                                   "value": self.tr("best value")})
        from gpuplanner.core.cost import MODE_LABELS, MODES  # (the core loads with the page's texts, not at import)

        self.rental_mode.set_labels({"auto": self.tr("automatic (without interruptions)"),
                                     **{k: QCoreApplication.translate("Cost", MODE_LABELS[k]) for k in MODES}})
        self.prices.retranslate()
        self._update_visibility()
        self.on_model_changed("all")
        self._align()

    def _align(self) -> None:
        """Each box's editors end on one line (ux28: the deadline, budget and GPU cap ended short of the lists
        beside them, one right edge per unit's width), as the Training page's."""
        for form in self.findChildren(QFormLayout):
            align_form_units(form)

    def _update_visibility(self) -> None:
        mode = self.model.ui.get("deadline_mode", "days")
        self.form.setRowVisible(self.deadline_days.box, mode == "days")
        self.form.setRowVisible(self.deadline_date.box, mode == "date")
        self.form.setRowVisible(self.hours.box, self.model.ui.get("work_mode") == "weekly")

    def on_model_changed(self, section: str) -> None:
        if section in ("ui", "all"):
            self._update_visibility()
        c = self.model.scenario.constraints
        if self.budget.box.unit.text() != c.currency:
            self.budget.box.set_unit(c.currency)  # the cap is in the plan's currency, as the costs beside it
            self._align()
        phase_text = {
            "research": self.tr("Research validation: short runs to test an idea; pay by the hour, stop any time."),
            "stable": self.tr("Stable training: a long, predictable run; weekly or monthly rent is usually cheaper."),
            "burst": self.tr("Burst: finish as soon as possible; more GPUs even at a worse price."),
        }
        self.phase_info.setText(phase_text.get(c.phase, ""))
        if c.deadline_days:
            end = dt.date.today() + dt.timedelta(days=c.deadline_days)
            from gpuplanner.core.units import usable_hours

            gpu_hours = usable_hours(c.deadline_days, c.hours_per_week)
            s = self.tr("Finish by {0}: {1} usable hours per GPU.").format(end.isoformat(), format_number(gpu_hours, 0))
        else:
            s = self.tr("No deadline: plans are ranked by cost alone.")
        if c.budget:
            s += " " + self.tr("Budget cap: {0} {1}.").format(format_number(c.budget, 0), c.currency)
        self.summary.setText(s)
