"""The printed plan: a PDF/printable report of one scenario or ``.gpuplan`` document.

* :mod:`.content` gathers every figure from the core into a :class:`~.content.ReportData` (pure Python,
  no Qt), so the CLI, the app and the tests all print the same numbers.
* :mod:`.render` turns it into a ``QTextDocument`` (HTML + chart images) and prints it to PDF, a printer
  or a print preview.
"""

from .content import ReportData, build_report_data, load_report_data  # noqa: F401
