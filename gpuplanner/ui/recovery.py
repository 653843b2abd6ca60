"""The recovery dialog: every autosave a crashed session left behind, newest first, with time and title.

Nothing here deletes work the user has not seen: *Recover* opens the chosen one (the main window autosaves
it again under this session before the old file goes), *Discard…* deletes one after asking, and *Later*
(or closing the dialog) keeps them all, to be offered again at the next start or from
File › Recover Unsaved Work….
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog, QDialogButtonBox, QLabel, QListWidget, QListWidgetItem, QMessageBox, QPushButton, QVBoxLayout,
)


def _when(rec) -> str:
    return rec.saved_at.astimezone().strftime("%Y-%m-%d %H:%M:%S") if rec.saved_at else "?"


class RecoveryDialog(QDialog):
    """Lists ``pending`` (:class:`gpuplanner.io.autosave.Recovery`, newest first). ``discard(rec)`` deletes
    one autosave and returns an error message or ``None``. After ``exec()``: :attr:`chosen` is the recovery
    to open (or ``None``) and :attr:`pending` what is still on disk."""

    def __init__(self, pending: list, discard: Callable[[object], str | None], parent=None):
        super().__init__(parent)
        self.pending = list(pending)
        self._discard = discard
        self.chosen = None
        self.setWindowTitle(self.tr("Recover unsaved work"))
        self.setMinimumWidth(560)
        lay = QVBoxLayout(self)
        self.intro = QLabel(self.tr(
            "GPU Planner did not close cleanly. These plans were autosaved and never saved to a file "
            "(newest first). Each is kept until you recover or discard it."))
        self.intro.setWordWrap(True)
        self.intro.setTextFormat(Qt.TextFormat.PlainText)
        lay.addWidget(self.intro)
        self.list = QListWidget()
        self.list.setWordWrap(True)
        self.list.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        lay.addWidget(self.list, 1)
        self.buttons = QDialogButtonBox()
        self.recover_btn = QPushButton(self.tr("&Recover"))
        self.discard_btn = QPushButton(self.tr("&Discard…"))
        self.later_btn = QPushButton(self.tr("&Later"))
        self.buttons.addButton(self.recover_btn, QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.addButton(self.discard_btn, QDialogButtonBox.ButtonRole.DestructiveRole)
        self.buttons.addButton(self.later_btn, QDialogButtonBox.ButtonRole.RejectRole)
        self.recover_btn.clicked.connect(lambda: self.recover())
        self.discard_btn.clicked.connect(lambda: self.discard())
        self.later_btn.clicked.connect(self.reject)
        self.list.currentRowChanged.connect(self._update_buttons)
        self.list.itemDoubleClicked.connect(lambda _i: self.recover())
        lay.addWidget(self.buttons)
        self._fill()

    # ---------------------------------------------------------------------------------- content
    def describe(self, rec) -> str:
        """Two lines for one autosave: title and when; where it was saved and what it plans."""
        when = _when(rec)
        if rec.document is None:
            return self.tr("Unreadable autosave from {0}\n{1}").format(when, rec.error or "")
        doc = rec.document
        s = doc.scenario
        title = doc.title or self.tr("Untitled plan")
        where = str(rec.source_path) if rec.source_path else self.tr("never saved to a file")
        model = s.model.name or s.model.preset or s.model.hf_config or self.tr("custom model")
        return self.tr("{title} — autosaved {when}\n{where} · {model}, {method}, {n} × {gpu}").format(
            title=title, when=when, where=where, model=model, method=s.training.method, n=s.hardware.num_gpus,
            gpu=s.hardware.gpu)

    def entries(self) -> list[str]:
        """The lines shown, in order (newest first)."""
        return [self.list.item(i).text() for i in range(self.list.count())]

    def _fill(self) -> None:
        self.list.clear()
        for rec in self.pending:
            item = QListWidgetItem(self.describe(rec))
            item.setToolTip(str(rec.file))
            self.list.addItem(item)
        if self.pending:
            self.list.setCurrentRow(0)
        self._update_buttons()

    def _update_buttons(self, *_a) -> None:
        row = self.list.currentRow()
        rec = self.pending[row] if 0 <= row < len(self.pending) else None
        self.recover_btn.setEnabled(rec is not None and rec.document is not None)
        self.discard_btn.setEnabled(rec is not None)

    # ---------------------------------------------------------------------------------- actions
    def _row(self, row: int | None) -> int:
        return self.list.currentRow() if row is None else row

    def recover(self, row: int | None = None) -> bool:
        """Choose autosave ``row`` (default: the selected one) and close the dialog."""
        row = self._row(row)
        if not (0 <= row < len(self.pending)) or self.pending[row].document is None:
            return False
        self.chosen = self.pending[row]
        self.accept()
        return True

    def discard(self, row: int | None = None) -> bool:
        """Delete autosave ``row`` after the user confirms; the dialog closes when none is left."""
        row = self._row(row)
        if not (0 <= row < len(self.pending)):
            return False
        rec = self.pending[row]
        name = rec.title or self.tr("Untitled plan")
        btn = QMessageBox.question(
            self, self.tr("Discard autosave"),
            self.tr("Delete the autosave of “{0}” from {1}? Its unsaved changes will be lost.").format(name, _when(rec)),
            QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Cancel)
        if btn != QMessageBox.StandardButton.Discard:
            return False
        error = self._discard(rec)
        if error:
            QMessageBox.warning(self, self.tr("Discard autosave"), error)
            return False
        del self.pending[row]
        self._fill()
        if not self.pending:
            self.reject()
        return True
