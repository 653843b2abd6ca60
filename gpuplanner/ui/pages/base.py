"""Common page scaffolding: a scrollable body, bound fields kept in sync with the model, retranslate()."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QFormLayout, QFrame, QGroupBox, QLabel, QScrollArea, QVBoxLayout, QWidget

from ..model import ScenarioModel


@dataclass
class AppContext:
    """What every page may use: the document, the live estimator, the search controller."""

    model: ScenarioModel
    estimator: Any
    search: Any


class BasePage(QWidget):
    """A wizard page. Subclasses build widgets in ``build()`` and set every text in ``retranslate()``.
    ``SCROLL = False`` pages fill the height instead (the Plans page's table and details)."""

    SCROLL = True

    def __init__(self, ctx: AppContext, parent: QWidget | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.model = ctx.model
        self.fields: list[Any] = []
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        inner = QWidget()
        if self.SCROLL:
            self.scroll = QScrollArea()
            self.scroll.setWidgetResizable(True)
            self.scroll.setFrameShape(QFrame.Shape.NoFrame)
            self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
            outer.addWidget(self.scroll)
            self.scroll.setWidget(inner)
        else:
            outer.addWidget(inner)
        self.body = QVBoxLayout(inner)
        self.body.setContentsMargins(16, 12, 16, 12)
        self.body.setSpacing(10)
        self.heading = QLabel()
        f = self.heading.font()
        f.setPointSizeF(f.pointSizeF() * 1.35)
        f.setBold(True)
        self.heading.setFont(f)
        self.body.addWidget(self.heading)
        self.intro = QLabel()
        self.intro.setWordWrap(True)
        self.intro.setStyleSheet("color: #444;")
        self.body.addWidget(self.intro)
        self.build()
        if self.SCROLL:
            self.body.addStretch(1)
        self.model.changed.connect(self._on_model_changed)
        self.model.errorsChanged.connect(self.refresh_errors)
        self.retranslate()
        self.sync()
        self.refresh_errors()

    # -------------------------------------------------------------------------------- to override
    def build(self) -> None:
        pass

    def retranslate(self) -> None:
        pass

    def on_model_changed(self, section: str) -> None:
        pass

    def title(self) -> str:
        return ""

    # -------------------------------------------------------------------------------- helpers
    def group(self, layout_cls=QFormLayout) -> tuple[QGroupBox, Any]:
        box = QGroupBox()
        lay = layout_cls(box)
        if isinstance(lay, QFormLayout):
            lay.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
            lay.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.body.addWidget(box)
        return box, lay

    def add_field(self, form: QFormLayout, field: Any, unit: str = "") -> QLabel:
        self.fields.append(field)
        label = QLabel()
        label.setBuddy(field)
        if unit:
            field.box.set_unit(unit)
        form.addRow(label, field.box)
        return label

    def sync(self) -> None:
        for f in self.fields:
            f.sync()

    def refresh_errors(self) -> None:
        for f in self.fields:
            f.refresh_error()

    def _on_model_changed(self, section: str) -> None:
        self.sync()
        self.on_model_changed(section)

    def changeEvent(self, ev):  # noqa: N802 (Qt)
        if ev.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(ev)
