"""The main window (first version: the wizard comes with the desktop-app issue)."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QMainWindow


class MainWindow(QMainWindow):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.label = QLabel(self)
        self.setCentralWidget(self.label)
        self.resize(1280, 800)
        self.retranslate()

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("GPU Planner"))
        self.label.setText(self.tr("Describe the training task; GPU Planner derives what to rent."))

    def self_test(self) -> int:
        from PySide6.QtWidgets import QApplication

        QApplication.processEvents()
        return 0 if not self.grab().isNull() else 1
