"""Where a rendered report meets the disk: :func:`export_pdf` writes :func:`gpuplanner.report.render.pdf_bytes`
atomically through :mod:`gpuplanner.io` (the report itself only formats: it reads and writes no file).

Used by ``gpuplanner report`` and the window's File › Export PDF (on a worker thread)."""

from __future__ import annotations

import os
from pathlib import Path


def export_pdf(data, path: str | os.PathLike, paper: str = "a4", lang: str | None = None) -> Path:
    """Write the report ``data`` (:class:`gpuplanner.report.content.ReportData`) to ``path`` as PDF: the folder is
    checked first (a read-only folder fails at once, in one line, before the render), then the PDF rendered in
    memory is written atomically (a complete file or the previous one). Raises :class:`PlannerError`."""
    from gpuplanner.io.planfile import check_writable_folder, write_output
    from gpuplanner.report.render import pdf_bytes

    path = Path(path)
    check_writable_folder(path)
    return write_output(path, pdf_bytes(data, paper=paper, lang=lang))


def export_rfq_pdf(comparison, path: str | os.PathLike, title: str = "", paper: str = "a4",
                   lang: str | None = None) -> Path:
    """Write the one-page request for quote (:func:`gpuplanner.report.quotes_section.rfq_pdf_bytes`) to ``path``:
    the folder checked first, the file written atomically. Raises :class:`PlannerError`."""
    from gpuplanner.io.planfile import check_writable_folder, write_output
    from gpuplanner.report.quotes_section import rfq_pdf_bytes

    path = Path(path)
    check_writable_folder(path)
    return write_output(path, rfq_pdf_bytes(comparison, title=title, paper=paper, lang=lang))
