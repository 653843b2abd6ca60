"""File → Print Preview / Print / Export PDF: the main window's document through gpuplanner.report.

The report itself (content and rendering) lives in :mod:`gpuplanner.report`; this module only builds its
data from the open plan and keeps one QPrinter per window, so paper and printer choices survive between
prints (Frescobaldi keeps ``self._sourcePrinter`` the same way).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog, QMessageBox

from gpuplanner.core.errors import PlannerError

from . import settings


def report_data(window):
    from gpuplanner.report.content import build_report_data

    doc = window.doc.document()
    source = window.model.scenario if doc is None else doc
    name = window.model.path.name if window.model.path else ""
    return build_report_data(source, base_dir=window.model.base_dir, source_file=name,
                             author=settings.report_author())


def _printer(window):
    from gpuplanner.report.render import make_printer

    if getattr(window, "_printer", None) is None:
        window._printer = make_printer()
    return window._printer


def _fail(window, err: Exception) -> None:
    QMessageBox.warning(window, QCoreApplication.translate("MainWindow", "Report"), str(err))


def print_preview(window) -> None:
    from gpuplanner.report.render import preview_dialog

    try:
        dlg = preview_dialog(report_data(window), window, _printer(window))
    except PlannerError as err:
        _fail(window, err)
        return
    dlg.exec()


def print_report(window) -> bool:
    from gpuplanner.report.render import print_dialog

    try:
        return print_dialog(report_data(window), window, _printer(window))
    except PlannerError as err:
        _fail(window, err)
        return False


def export_pdf(window, path: str | None = None) -> Path | None:
    from gpuplanner.report.render import export_pdf as write_pdf

    if path is None:
        stem = window.model.path.stem if window.model.path else "gpuplanner-report"
        path, _ = QFileDialog.getSaveFileName(window, QCoreApplication.translate("MainWindow", "Export report as PDF"),
                                              str(Path(settings.last_dir()) / f"{stem}.pdf"),
                                              QCoreApplication.translate("MainWindow", "PDF documents (*.pdf)"))
        if not path:
            return None
        if not path.lower().endswith(".pdf"):
            path += ".pdf"
    try:
        out = write_pdf(report_data(window), path)
    except (PlannerError, OSError) as err:
        _fail(window, err)
        return None
    settings.remember_dir(out)
    window.statusBar().showMessage(QCoreApplication.translate("MainWindow", "Report written to {0}").format(str(out)), 8000)
    return out
