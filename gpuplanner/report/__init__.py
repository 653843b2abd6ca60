"""The printed plan: a PDF/printable report of one scenario or ``.gpuplan`` document.

* :mod:`.content` selects every figure of one :class:`gpuplanner.app.answer.Answer` into a
  :class:`~.content.ReportData` (pure Python, no Qt, no file read, no search), so the CLI, the app and the tests
  all print the same numbers.
* :mod:`.render` turns it into a ``QTextDocument`` (HTML + chart images) and prints it to PDF, a printer
  or a print preview.
"""

from .content import ReportData, build_report_data  # noqa: F401
