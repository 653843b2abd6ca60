"""A box that holds one widget at that widget's height for the box's width, without a layout.

A label whose text changes asks every enclosing layout to recompute (``QWidget::updateGeometry`` invalidates the
parent's layout, whose activation calls ``updateGeometry`` on its own widget, and so on up to the window): on each
keystroke the live panel's summary card and the charts' legends re-laid out the chart or card, the splitter, the
panel and the window, ~0.5–1.5 ms each (issue 20 "Fast at any size", measured per event on the GUI thread). A
widget whose parent has no layout only posts ``LayoutRequest`` to that parent; this box answers it by taking the
child's new height (``heightForWidth`` at the box's width, else its size hint) and changes its own fixed height —
re-laying out what encloses it — only when that height changed (a legend wrapping to a second line).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QRect, QSize
from PySide6.QtWidgets import QSizePolicy, QWidget


class FitHeightBox(QWidget):
    """Holds ``child`` across its whole width, at the child's height for that width (see the module docstring)."""

    def __init__(self, child: QWidget, parent: QWidget | None = None):
        super().__init__(parent)
        self.child = child
        child.setParent(self)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self._min_w = 0
        self.fit()

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt)
        return QSize(self.child.sizeHint().width(), self.height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt)
        return QSize(self._min_w, self.height())

    def child_height(self, width: int) -> int:
        c = self.child
        h = c.heightForWidth(width) if (width > 0 and c.hasHeightForWidth()) else -1
        return h if h >= 0 else c.sizeHint().height()

    def fit(self) -> None:
        """The child fills the box; the box takes the child's height at the box's width."""
        w = self.width()
        h = self.child_height(w)
        self._min_w = max(0, self.child.minimumSizeHint().width())
        if self.minimumHeight() != h or self.maximumHeight() != h:
            self.setFixedHeight(h)  # (re-lays out what encloses the box: only when the height changed)
        if self.child.geometry() != QRect(0, 0, w, h):
            self.child.setGeometry(0, 0, w, h)

    def event(self, ev) -> bool:
        if ev.type() == QEvent.Type.LayoutRequest:  # the child's size hint changed (its text, its content)
            self.fit()
            return True
        return super().event(ev)

    def resizeEvent(self, ev) -> None:  # noqa: N802 (Qt)
        super().resizeEvent(ev)
        self.fit()
