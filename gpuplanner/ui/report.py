"""File → Print Preview / Print / Export PDF: the main window's answer through gpuplanner.report.

The report (content and rendering) lives in :mod:`gpuplanner.report`; this module is the Qt adapter: it takes
the :class:`~gpuplanner.app.answer.Answer` the window already holds (:func:`window_answer`: the open plan, the
search outcome and the scaling sweep it shows — no second search), gathers the report data on a worker thread,
and for Export PDF renders the PDF there too (a QTextDocument painted onto a QPdfWriter in memory: Qt allows
painting onto QImage, QPrinter and QPdfWriter outside the GUI thread), so the window keeps answering while a
report is written. The preview and print dialogs show on the GUI thread once the data has arrived. It keeps one
QPrinter per window, so paper and printer choices survive between prints (Frescobaldi keeps
``self._sourcePrinter`` the same way).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog

from gpuplanner.core.errors import PlannerError

from . import settings
from .offthread import busy, run_off_gui  # noqa: F401  (busy: a report is being gathered or written)


def window_answer(window):
    """The :class:`~gpuplanner.app.answer.Answer` for what the window shows: its document (the user's scenario,
    the selected plan), the search outcome and the live Evaluation and sweep it already has, when they are for
    these inputs. Read on the GUI thread (cheap); what is missing is computed where the Answer is read."""
    from gpuplanner.app.answer import Answer, document_from_plan
    from gpuplanner.io.model_files import ModelFiles

    doc = window.doc.document()
    name = window.model.path.name if window.model.path else ""
    base_dir = window.model.base_dir
    out = window.search.current_outcome()
    given_search = out.result if out is not None else None
    est = window.estimator
    ev = est.result.evaluation if est.result is not None else None
    sweep = (ev.scenario, est.scaling) if ev is not None and est.scaling is not None else None
    document = document_from_plan(doc, base_dir, name, models=ModelFiles(base_dir))
    return Answer(document, top=20, given_search=given_search, given_evaluation=ev, given_scaling=sweep)


def report_data(window, answer=None):
    """The report's data for the window (on the calling thread)."""
    from gpuplanner.app.answer import report_data as build

    return build(None, answer_=answer if answer is not None else window_answer(window),
                 author=settings.report_author())


def _printer(window):
    from gpuplanner.report.render import make_printer

    if getattr(window, "_printer", None) is None:
        window._printer = make_printer()
    return window._printer


def _fail(window, err: Exception) -> None:
    from .text import error_message, warning_box

    warning_box(window, QCoreApplication.translate("MainWindow", "Report"), error_message(err))


def _with_data(window, show: Callable[[Any], None]) -> None:
    """Gather the report data off the GUI thread, then ``show(data)`` on it."""
    answer = window_answer(window)
    author = settings.report_author()

    def work():
        from gpuplanner.app.answer import report_data as build

        return build(None, answer_=answer, author=author)

    def then(data, err) -> None:
        if err is not None:
            _fail(window, err)
        else:
            show(data)

    run_off_gui(work, then)


def print_preview(window) -> None:
    from gpuplanner.report.render import preview_dialog

    def show(data) -> None:
        try:
            dlg = preview_dialog(data, window, _printer(window))
        except PlannerError as err:
            _fail(window, err)
            return
        dlg.exec()

    _with_data(window, show)


def print_report(window) -> None:
    from gpuplanner.report.render import print_dialog

    def show(data) -> None:
        try:
            print_dialog(data, window, _printer(window))
        except PlannerError as err:
            _fail(window, err)

    _with_data(window, show)


def export_pdf(window, path: str | None = None, done: Callable[[Path | None], None] | None = None) -> bool:
    """Ask for a file name (unless ``path``), then gather and write the PDF on a worker thread; the status bar
    says where it went (or a message box why not). ``done(path or None)`` runs on the GUI thread at the end.
    Returns False when the user cancelled the file dialog."""
    if path is None:
        stem = window.model.path.stem if window.model.path else "gpuplanner-report"
        path, _ = QFileDialog.getSaveFileName(window, QCoreApplication.translate("MainWindow", "Export report as PDF"),
                                              str(Path(settings.last_dir()) / f"{stem}.pdf"),
                                              QCoreApplication.translate("MainWindow", "PDF documents (*.pdf)"))
        if not path:
            return False
        if not path.lower().endswith(".pdf"):
            path += ".pdf"
    answer = window_answer(window)
    author = settings.report_author()

    def work() -> Path:  # the report's modules load here too, on first use: not on the GUI thread
        from gpuplanner.app.answer import report_data as build

        from gpuplanner.report_file import export_pdf as write_pdf

        return write_pdf(build(None, answer_=answer, author=author), path)

    def then(out, err) -> None:
        if err is not None:
            _fail(window, err)
        else:
            settings.remember_dir(out)
            window.statusBar().showMessage(
                QCoreApplication.translate("MainWindow", "Report written to {0}").format(str(out)), 8000)
        if done is not None:
            done(None if err is not None else out)

    run_off_gui(work, then)
    return True
