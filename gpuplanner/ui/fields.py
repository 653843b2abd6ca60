"""Form fields bound to a :class:`ScenarioModel` path, with inline validation messages.

Each field shows its help as a tooltip ("what it changes and why"), and when a value is invalid it
keeps the typed text, paints the editor red and shows the one-line reason under it.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QHBoxLayout, QLabel, QLineEdit, QSizePolicy, QSpinBox, QVBoxLayout, QWidget,
)

from gpuplanner.core.i18n import QT_TRANSLATE_NOOP
from gpuplanner.core.messages import MsgStr, error_text
from gpuplanner.core.units import parse_count, shown_text
from gpuplanner.formatting import format_compact, format_tokens

from .model import ScenarioModel
from .text import plain, tr_error

LABEL_MAX_PX = 160  # a form label's width before it wraps (wrap_long_label)
LIST_MIN_CHARS = 16  # a list's minimum width, in average characters (let_list_shrink)
INVALID_STYLE = "border: 1px solid #d32f2f; background: #fff3f3;"


def fmt_int(v: Any) -> str:
    return "" if v is None else str(int(v))


#: context of the fields' own refusals (a value that cannot be read as a number): marked, so the field shows them
#: in the UI language (FieldBox.set_error translates a message that keeps its id)
CTX = "Fields"


def field_error(template: str, **params: Any) -> ValueError:
    """A field's one-line refusal, keeping its message id (``MsgStr``): ``raise field_error(QT_TRANSLATE_NOOP(…))``."""
    return ValueError(MsgStr.make(CTX, template, **params))


def parse_int(text: str) -> int:
    """A whole number typed or pasted in a line edit; a refusal echoes the text printable and short
    (:func:`core.units.shown_text`: a pasted bidi override, escape or megabyte of digits stays out of the line)."""
    t = text.strip().replace(",", "").replace("_", "")
    if not t:
        raise field_error(QT_TRANSLATE_NOOP(CTX, "enter a whole number"))
    try:
        f = float(parse_count(t))
    except ValueError:
        raise field_error(QT_TRANSLATE_NOOP(CTX, "'{text}' is not a whole number"), text=shown_text(text)) from None
    if f != int(f):
        raise field_error(QT_TRANSLATE_NOOP(CTX, "'{text}' is not a whole number"), text=shown_text(text))
    return int(f)


def parse_float(text: str) -> float:
    """A number typed or pasted in a line edit; a refusal echoes the text as :func:`parse_int` does."""
    t = text.strip().replace(",", "")
    try:
        v = float(t)
    except ValueError:
        raise field_error(QT_TRANSLATE_NOOP(CTX, "'{text}' is not a number"), text=shown_text(text)) from None
    if not math.isfinite(v):
        raise field_error(QT_TRANSLATE_NOOP(CTX, "'{text}' is not a finite number"), text=shown_text(text))
    return v


def parse_positive(v: float) -> float:
    """``v`` when above zero, else the fields' refusal "must be more than zero"."""
    if v <= 0:
        raise field_error(QT_TRANSLATE_NOOP(CTX, "must be more than zero"))
    return v


def fmt_float(v: Any) -> str:
    if v is None:
        return ""
    text = f"{float(v):.6g}"
    if "e" in text:  # never scientific notation in a field a person reads and edits: 2e+06 -> 2000000
        from decimal import Decimal

        text = format(Decimal(text), "f")
    return text


def fmt_count(v: Any) -> str:
    return "" if v is None else format_compact(float(v), 4)


def fmt_tokens(v: Any) -> str:
    """A token count (a number, or a text :func:`parse_count` reads: "100B", "20亿") the way the UI language counts
    it (``formatting.format_tokens``: "100B" / "1,000 亿"), with as many digits as it takes to read back the same
    count, so showing a value never changes it ("1.4123T", not "1.41T"). A text that is not a count is shown as
    it is (the field's error names it)."""
    if v is None:
        return ""
    try:
        n = parse_count(v)
    except ValueError:
        return str(v)
    text = str(v)
    for digits in range(3, 18):
        text = format_tokens(n, digits=digits)
        try:
            if abs(parse_count(text) - n) <= 1e-12 * abs(n):
                return text
        except ValueError:
            break
    return text


def align_units(boxes) -> None:
    """The unit labels of one form's ``boxes`` (:class:`FieldBox`) as wide as the widest, a box without a unit
    keeping the blank place: the editors end on one line (issue 35 r17, ux26: Owning instead of renting had five
    right edges, one per unit's width)."""
    boxes = list(boxes)
    width = max((b.unit.sizeHint().width() for b in boxes if b.unit.text()), default=0)
    for b in boxes:
        b.unit.setMinimumWidth(max(64, width))
        b.unit.setVisible(bool(width))


def align_form_units(form) -> None:
    """The editors of one ``QFormLayout``'s :class:`FieldBox` rows end on one line (issue 35 r18, ux28; ux27's
    alignment, off in r17 because it widened the Training page past 1280 × 800 in Chinese): every unit place as
    wide as the form's widest unit text, and no wider (not the 64 px floor a lone box keeps), and no blank unit
    place beside a check box, which has no right edge to line up (its text is as long as it is). A line edit, list
    or spin box without a unit keeps the blank place, so its right edge is the others'."""
    from PySide6.QtWidgets import QAbstractButton, QFormLayout  # noqa: PLC0415

    boxes = []
    for i in range(form.rowCount()):
        item = form.itemAt(i, QFormLayout.ItemRole.FieldRole)
        w = None if item is None else item.widget()
        if isinstance(w, FieldBox):
            boxes.append(w)
        label = form.itemAt(i, QFormLayout.ItemRole.LabelRole)
        if label is not None and isinstance(label.widget(), QLabel):
            wrap_long_label(label.widget(), form.labelAlignment())
    edges = [b for b in boxes if not isinstance(b.editor, QAbstractButton)]
    width = max((b.unit.sizeHint().width() for b in edges if b.unit.text()), default=0)
    for b in boxes:
        place = width if b in edges else 0
        b.unit.setMinimumWidth(place)
        b.unit.setVisible(bool(place))
        if isinstance(b.editor, QComboBox):
            let_list_shrink(b.editor)


def wrap_long_label(label: QLabel, align=None) -> None:
    """A form's label wider than :data:`LABEL_MAX_PX` goes on two lines ("Overlap tensor-parallel / communication"),
    leaving its width to the lists beside it (measured again at each language change)."""
    label.setWordWrap(False)
    label.setMinimumSize(0, 0)
    label.setMaximumWidth(16777215)
    if label.sizeHint().width() > LABEL_MAX_PX:
        label.setWordWrap(True)
        if align is not None:  # its lines on the side the form's other labels are (right, in Fusion)
            label.setAlignment(align)
        label.setFixedWidth(LABEL_MAX_PX)  # a wrapping label's own size hint is narrower: its lines fixed here
        label.setMinimumHeight(label.heightForWidth(LABEL_MAX_PX))


def let_list_shrink(combo) -> None:
    """A list no longer asks for its longest item's width (the form's minimum), only for
    :data:`LIST_MIN_CHARS` characters: it still fills its column (its row stretches it), and its open list is as
    wide as its longest item. At 1280 × 800 every Training-page list is shown whole (``test_training_width_ux16``
    and ``tests/ui/test_ux28_r18_ui.py`` measure it); a narrower window elides the closed list, not the page."""
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(LIST_MIN_CHARS)
    view = combo.view()
    view.setTextElideMode(Qt.TextElideMode.ElideNone)
    view.setMinimumWidth(view.sizeHintForColumn(0) + 2 * view.frameWidth())


class FieldBox(QWidget):
    """Editor + unit label on one line, the error message under it."""

    def __init__(self, editor: QWidget, unit: str = "", parent: QWidget | None = None):
        super().__init__(parent)
        self.editor = editor
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(editor, 1)
        self.unit = QLabel(unit)
        self.unit.setMinimumWidth(64)
        self.unit.setVisible(bool(unit))
        row.addWidget(self.unit)
        lay.addLayout(row)
        self.error_label = plain(QLabel())
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet("color: #c62828;")
        self.error_label.setVisible(False)
        self.error_label.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        lay.addWidget(self.error_label)
        self._help = ""
        self._error: str | None = None

    def set_unit(self, text: str) -> None:
        self.unit.setText(text)
        self.unit.setVisible(bool(text))

    def set_help(self, text: str) -> None:
        self._help = text
        self._update_tip()

    def set_error(self, message: str | None) -> None:
        if message == self._error:
            return
        self._error = message
        # a core message in the UI language, without the field's own path in front (it is shown at the field)
        self.error_label.setText(tr_error(message, self, own=True) if message else "")
        self.error_label.setVisible(bool(message))
        self.editor.setStyleSheet(INVALID_STYLE if message else "")
        self.editor.setProperty("invalid", bool(message))
        self.editor.setAccessibleDescription(message or "")
        self._update_tip()

    @property
    def error(self) -> str | None:
        return self._error

    def _update_tip(self) -> None:
        tip = self._help
        if self._error:
            err = tr_error(self._error, self, own=True)
            tip = f"{tip}\n\n⚠ {err}" if tip else f"⚠ {err}"
        self.editor.setToolTip(tip)
        self.setToolTip(tip)


class BoundEdit(QLineEdit):
    """A line edit for a number/count at ``path``. Parse errors stay local and are shown at the field."""

    edited = Signal()

    def __init__(self, model: ScenarioModel, path: str | None, parse: Callable[[str], Any] = parse_int,
                 fmt: Callable[[Any], str] = fmt_int, allow_empty: bool = False,
                 setter: Callable[[Any], str | None] | None = None, getter: Callable[[], Any] | None = None,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.model, self.path = model, path
        self.parse, self.fmt = parse, fmt
        self.allow_empty = allow_empty
        self._setter = setter
        self._getter = getter
        self.local_error: str | None = None
        # a disabled row is visibly empty: its placeholder (a default such as "vLLM default") is not drawn, so
        # it cannot read as a value of a setting that does not apply; the tooltip still names the default
        pal = self.palette()
        pal.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.PlaceholderText, QColor(0, 0, 0, 0))
        self.setPalette(pal)
        self.box = FieldBox(self)
        self.textEdited.connect(self._on_edited)
        self.sync()

    def current(self) -> Any:
        return self._getter() if self._getter else self.model.value(self.path)

    def _on_edited(self, text: str) -> None:
        if not text.strip() and self.allow_empty:
            value = None
        else:
            try:
                value = self.parse(text)
            except ValueError as err:
                self.local_error = error_text(err)  # keeps its message id: shown in the UI language
                self.box.set_error(self.local_error)
                return
        self.local_error = None
        err = self._setter(value) if self._setter else self.model.set(self.path, value)
        self.box.set_error(err)
        self.edited.emit()

    def sync(self) -> None:
        """Show the model's value unless the text being typed already means it (or is a local error)."""
        if self.local_error is not None:
            return
        value = self.current()
        if self.hasFocus():
            try:
                parsed = None if (not self.text().strip() and self.allow_empty) else self.parse(self.text())
                if parsed == value or (isinstance(value, float) and isinstance(parsed, (int, float))
                                       and value and abs(parsed - value) <= 1e-9 * abs(value)):
                    return
            except ValueError:
                pass
        text = self.fmt(value)
        if text != self.text():
            self.setText(text)

    def refresh_error(self) -> None:
        if self.local_error is None and self.path:
            self.box.set_error(self.model.error(self.path))


class BoundCombo(QComboBox):
    """A choice at ``path``; items are (value, label) set by the page's retranslate()."""

    def __init__(self, model: ScenarioModel, path: str | None, values: list[Any],
                 setter: Callable[[Any], str | None] | None = None, getter: Callable[[], Any] | None = None,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.model, self.path, self.values = model, path, list(values)
        self._setter, self._getter = setter, getter
        for v in self.values:
            self.addItem(str(v), v)
        self.box = FieldBox(self)
        self.activated.connect(self._on_activated)
        self.sync()

    def set_labels(self, labels: dict[Any, str]) -> None:
        for i, v in enumerate(self.values):
            self.setItemText(i, labels.get(v, str(v)))

    def _on_activated(self, index: int) -> None:
        value = self.itemData(index)
        err = self._setter(value) if self._setter else self.model.set(self.path, value)
        self.box.set_error(err)

    def sync(self) -> None:
        value = self._getter() if self._getter else self.model.value(self.path)
        idx = self.findData(value)
        if idx >= 0 and idx != self.currentIndex():
            self.blockSignals(True)
            self.setCurrentIndex(idx)
            self.blockSignals(False)

    def refresh_error(self) -> None:
        if self.path:
            self.box.set_error(self.model.error(self.path))


class BoundCheck(QCheckBox):
    def __init__(self, model: ScenarioModel, path: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.model, self.path = model, path
        self.box = FieldBox(self)
        self.toggled.connect(self._on_toggled)
        self.sync()

    def _on_toggled(self, on: bool) -> None:
        self.box.set_error(self.model.set(self.path, bool(on)))

    def sync(self) -> None:
        v = bool(self.model.value(self.path))
        if v != self.isChecked():
            self.blockSignals(True)
            self.setChecked(v)
            self.blockSignals(False)

    def refresh_error(self) -> None:
        self.box.set_error(self.model.error(self.path))


class BoundSpin(QSpinBox):
    """A small integer (TP, PP, ZeRO ...). Keyboard arrows step; typing is validated by the model."""

    def __init__(self, model: ScenarioModel, path: str, lo: int, hi: int, parent: QWidget | None = None):
        super().__init__(parent)
        self.model, self.path = model, path
        self.setRange(lo, hi)
        self.box = FieldBox(self)
        self.valueChanged.connect(self._on_changed)
        self.sync()

    def _on_changed(self, v: int) -> None:
        self.box.set_error(self.model.set(self.path, int(v)))

    def sync(self) -> None:
        v = self.model.value(self.path)
        if v is not None and int(v) != self.value():
            self.blockSignals(True)
            self.setValue(int(v))
            self.blockSignals(False)

    def refresh_error(self) -> None:
        self.box.set_error(self.model.error(self.path))


