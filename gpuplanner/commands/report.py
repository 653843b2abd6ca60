"""``gpuplanner report FILE -o OUT.pdf [--lang en|zh_CN] [--paper a4|letter]``: the printed plan as PDF.

Runs without a display: when neither ``DISPLAY`` nor ``WAYLAND_DISPLAY`` is set (and ``QT_QPA_PLATFORM``
is not chosen already) it uses Qt's ``offscreen`` platform. Translations come from
``gpuplanner/resources/i18n/gpuplanner_<lang>.qm`` when that file exists (English otherwise, with a note
on stderr). Chinese needs a CJK font: a system one (``fc-list :lang=zh``; ``.ci/run`` installs
``fonts-noto-cjk`` on Linux CI) or a font file in ``gpuplanner/resources/fonts/`` registered with
``QFontDatabase.addApplicationFont``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..core.i18n import QT_TRANSLATE_NOOP
from ..core.errors import PlannerError
from ..io.app_settings import MAX_AUTHOR
from ._args import refuse_folder_output, text_up_to

LANGS = ("en", "zh_CN")


def register(sub) -> None:
    p = sub.add_parser(
        "report",
        help=QT_TRANSLATE_NOOP("CLI", "write the printed plan (PDF) for a scenario or .gpuplan file"),
        description=QT_TRANSLATE_NOOP("CLI", "Write the plan as a PDF to print or send: the chosen plan and the ranked "
                                      "alternatives with their memory, time and cost, on A4 or letter paper, in the "
                                      "language of --lang; runs without a display."))
    p.add_argument("file", help=QT_TRANSLATE_NOOP("CLI", "scenario JSON or .gpuplan file"))
    p.add_argument("-o", "--output", required=True, help=QT_TRANSLATE_NOOP("CLI", "PDF file to write"))
    p.add_argument("--lang", choices=LANGS, default=None,
                   help=QT_TRANSLATE_NOOP("CLI", "report language (default: the app's setting, else the system locale)"))
    p.add_argument("--paper", choices=("a4", "letter"), default="a4", help=QT_TRANSLATE_NOOP("CLI", "paper size (default a4)"))
    p.add_argument("--author", default=None, type=text_up_to(MAX_AUTHOR),
                   help=QT_TRANSLATE_NOOP("CLI", "author/team for the title block (default: the app's setting)"))
    p.set_defaults(func=run)


def _default_author() -> str:
    """The author/team the app stores under ``report/author`` in its settings (empty if none)."""
    from ..io.app_settings import report_author

    return report_author()


def run(args) -> int:
    from ..io.planfile import check_not_input, check_writable_folder
    from ..app.answer import report_data

    from ..report import render

    # the language first: a refusal below (a folder for -o, an unreadable plan) is said in it too
    render.ensure_app()
    if args.lang == "en":  # English asked for: no translator of an earlier report in this process stays installed
        render.install_language("en")
    elif not render.install_language(args.lang):
        print(f"gpuplanner: note: no translation file gpuplanner_{args.lang}.qm; the report is in English",
              file=sys.stderr)
    refuse_folder_output(args.output)  # "-o out/": a folder, not a file named "out" (ux27)
    out = Path(args.output)
    check_not_input(out, args.file)  # never the scenario or plan it reads (probe15)
    check_writable_folder(out)  # missing or read-only folder: one line, before the render
    data = report_data(args.file, author=args.author if args.author is not None else _default_author())
    if args.author is None:
        data.author = _default_author()
    if args.lang != "en":
        if render.ensure_cjk_font() is None:
            print("gpuplanner: note: no CJK font found (install fonts-noto-cjk or put one in resources/fonts)",
                  file=sys.stderr)
    # rendered in memory and written atomically (a failure raises PlannerError: one line, nothing written)
    from ..report_file import export_pdf

    export_pdf(data, out, paper=args.paper, lang=None if args.lang == "en" else args.lang)
    if not out.exists() or out.stat().st_size == 0:
        raise PlannerError(f"{out}: could not be written")
    print(out)
    return 0
