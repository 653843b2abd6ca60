"""The hardware page's spot price (``constraints.prices[<gpu>].spot_card_hour``): one field beside the GPU table's
buttons' row, for the selected row's GPU (else the live estimate's GPU). The table keeps its columns (a spot column
would cut the price source's, issue 36); the figure is per card and hour, stored as typed, in the document's
currency, and the cost model prices its spot mode from it (core/cost.py: preemptions, restarts)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit

from gpuplanner.core.catalog_hw import lookup_gpu
from gpuplanner.core.errors import PlannerError
from gpuplanner.formatting import format_number
from gpuplanner.i18n import _close_paren_space  # a name ending "（中国特供版）" before Chinese: no space (ux9)


def _price_text(v: float) -> str:
    """``v`` with two decimals, more where it has them ("1.50", "1.234"): the field shows what was typed, so a
    second Enter (the text read again) never rounds the stored price."""
    return format_number(v, next((d for d in range(2, 10) if round(v, d) == v), 10))


class SpotPrice(QObject):
    """A label, a line edit and its unit, a row of their own appended to ``layout`` (the GPU table's box)."""

    def __init__(self, page: Any, layout: Any):
        super().__init__(page)
        self.page = page
        self.label, self.edit, self.unit = QLabel(), QLineEdit(), QLabel()
        self.edit.setMaximumWidth(90)
        row = QHBoxLayout()
        for w in (self.label, self.edit, self.unit):
            row.addWidget(w)
        row.addStretch(1)
        layout.addLayout(row)
        self.edit.editingFinished.connect(self._edited)
        self.page.table.itemSelectionChanged.connect(self.refresh)

    def gpu_id(self) -> str:
        """The selected row's GPU, else the one the live estimate uses."""
        rows = self.page.table.selectionModel().selectedRows()
        ids = getattr(self.page, "row_ids", [])
        if rows and rows[0].row() < len(ids):
            return ids[rows[0].row()]
        return self.page.model.scenario.hardware.gpu

    def _price(self, gid: str):
        from .hardware_page import _price_table

        s = self.page.model.scenario
        try:
            return _price_table(s.constraints).get(lookup_gpu(gid, s.hardware.custom_gpus))
        except PlannerError:
            return None

    def refresh(self) -> None:
        from .hardware_page import _quotes

        s = self.page.model.scenario
        gid = self.gpu_id()
        # "H800 SXM5 80GB（中国特供版）的竞价价格", no space after the full-width bracket (i18n._close_paren_space)
        self.label.setText(_close_paren_space(self.tr("Spot price, {0}:").format(self.page.gpu_label(gid))))
        self.unit.setText(self.tr("{0} per card-hour").format(s.constraints.currency))
        mine = _quotes(s.constraints).get(gid, {}).get("spot_card_hour")
        price = self._price(gid)
        default = price.spot_card_hour if price is not None else None
        self.edit.setText("" if mine is None else _price_text(mine))
        self.edit.setPlaceholderText(self.tr("no spot offer") if default is None else format_number(default, 2))

    def _edited(self) -> None:
        from .hardware_page import _quotes

        s = self.page.model.scenario
        gid = self.gpu_id()
        text = self.edit.text().strip()
        overrides = _quotes(s.constraints)
        ov = overrides.setdefault(gid, {})
        if text:
            v = self.page.typed_price(text, gid, spot=True)
            if v is None:
                return
            if ov.get("spot_card_hour") == v:
                return
            ov["spot_card_hour"] = v
        elif ov.pop("spot_card_hour", None) is None:
            return
        self.page.store_quotes(overrides, gid)
        self.refresh()

    def retranslate(self) -> None:
        self.edit.setToolTip(self.tr(
            "Your spot (interruptible) price per card and hour for this GPU: cheaper than on demand, but the "
            "provider may take the cards back, so the plan counts restarts. Select a row to price another GPU. "
            "Empty (default): the catalog's spot price where it has one, else no spot offer"))
        self.refresh()
