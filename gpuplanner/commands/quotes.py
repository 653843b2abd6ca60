"""``gpuplanner quotes FILE [QUOTES.csv|.xlsx ...] [--json] [--save] [--rfq RFQ.pdf]``: vendor quotes compared.

For the plan FILE stands for (a ``.gpuplan`` file's selected plan, or a scenario JSON), each vendor's cheapest
applicable offer, the costs the quote leaves out (storage, egress, setup, migration), the total and its band,
the network checked against the plan, the hard questions still to ask, and the ranking
(:meth:`gpuplanner.app.answer.Answer.quotes`: :func:`gpuplanner.core.quotes.compare`). Without sheets, the quotes
stored in the plan file are compared. ``--save`` stores the sheets' quotes in the plan file (replacing the same
vendors' stored quotes, keeping the others); ``--rfq`` writes the one-page request for quote (PDF).

``--json`` prints ``{"plan": {...}, "vendors": [{"provider", "rank", "total", "total_band", "breakdown":
{"compute", "storage", "egress", "setup", "migration"}, "billing": {"unit", "price", "billed", "instances",
"combination" (where the vendor's offers bill together: [{"unit", "price", "periods"|"card_hours"}, ...], longest
period first, as the plan bills its prices), "break_even_hours_per_week", "break_even_against"}, "network_check", "unanswered", "risks", "reasons"}, ...],
"ranking": [provider, ...]}``.

``gpuplanner quotes --template xlsx|csv -o quotes.xlsx [--lang zh_CN]`` writes the documented blank sheet.
"""

from __future__ import annotations

from pathlib import Path

from ..core.i18n import QT_TRANSLATE_NOOP
from ..core.errors import PlannerError
from ._args import strict_json
from ._lang import translate

CTX = "CLI"


def register(sub) -> None:
    p = sub.add_parser(
        "quotes",
        help=QT_TRANSLATE_NOOP("CLI", "compare vendors' quote sheets for the plan, with the costs quotes leave out"),
        description=QT_TRANSLATE_NOOP("CLI", "Read vendors' quote sheets (.csv or .xlsx) and compare them for the "
                                      "plan: the price of the whole job per vendor, with the costs a quote leaves "
                                      "out (storage, data egress, setup, migration). Also writes the blank quote sheet to send "
                                      "out (--template) and the request for quote (--rfq)."))
    p.add_argument("file", nargs="?", help=QT_TRANSLATE_NOOP("CLI", ".gpuplan file or scenario JSON"))
    p.add_argument("sheets", nargs="*", metavar="QUOTES", help=QT_TRANSLATE_NOOP("CLI", "quote sheets (.csv or .xlsx); default: the plan's"))
    p.add_argument("--json", action="store_true", help=QT_TRANSLATE_NOOP("CLI", "print the comparison as JSON"))
    p.add_argument("--template", choices=("csv", "xlsx"), help=QT_TRANSLATE_NOOP("CLI", "write the blank, documented quote sheet"))
    p.add_argument("-o", "--output", help=QT_TRANSLATE_NOOP("CLI", "file to write (with --template)"))
    p.add_argument("--save", action="store_true", help=QT_TRANSLATE_NOOP("CLI", "store the sheets' quotes in the plan file (a vendor's new sheet replaces its stored one; "
                   "the other vendors are kept)"))
    p.add_argument("--rfq", metavar="PDF", help=QT_TRANSLATE_NOOP("CLI", "write the one-page request for quote (PDF)"))
    p.set_defaults(func=run)


def run(args) -> int:
    from ..io import quote_sheets

    if args.rfq or args.template:  # never onto the plan or a sheet it reads (probe15)
        from ..io.planfile import check_not_input

        check_not_input(args.rfq or args.output or "", args.file, *args.sheets)
    if args.template:
        if not args.output:
            raise PlannerError(translate(CTX, "--template needs -o FILE"))
        out = Path(args.output)
        try:  # "-o ." made with_suffix raise (a traceback)
            if out.is_dir() or not out.name:
                raise ValueError(out)
            if out.suffix.lower() != f".{args.template}":
                out = out.with_suffix(f".{args.template}")
        except (ValueError, OSError):
            raise PlannerError(translate(CTX, "{path}: a folder; give -o a file name").format(
                path=args.output[:120])) from None
        print(quote_sheets.write_sheet(out, None, lang=args.lang))
        return 0
    if not args.file:
        raise PlannerError(translate(CTX, "quotes needs a plan FILE (or --template)"))
    sheets = [q for path in args.sheets for q in quote_sheets.read_quotes(path)]
    result, ans = compare_for_file(args.file, sheets or None)
    doc = ans.document.plan
    project = ans.quotes_by_phase(result, sheets or None)
    if args.save:
        _save(args.file, doc, sheets)
    if args.rfq:
        _rfq(args, result, doc.title if doc is not None else "")
    if args.json:
        out = result.to_json()
        if project is not None:
            out["project"] = project.to_json()
        print(strict_json(out, indent=2))
        return 0
    from ..report.quotes_section import project_lines, text_lines
    from ._lang import msg

    print("\n".join(text_lines(result, translate, msg)))
    if project is not None:
        print("\n".join(project_lines(project, result.plan.currency, translate)))
    return 0


def compare_for_file(path: str, sheets=None):
    """(comparison, the file's Answer) for the plan ``path`` stands for (:func:`gpuplanner.app.answer.answer`: the
    selected plan, else with automatic layout the search's #1, else the scenario); ``sheets`` or the plan file's
    quotes, compared by the Answer (:meth:`gpuplanner.app.answer.Answer.quotes`, the PDF's comparison too)."""
    from ..app.answer import answer

    ans = answer(path)
    result = ans.quotes(sheets)
    if result is None:
        raise PlannerError(translate(CTX, "no quotes: give quote sheets (.csv/.xlsx) or store them in the plan"))
    return result, ans


def _save(path: str, doc, sheets) -> None:
    from ..io import planfile

    if doc is None:
        raise PlannerError(translate(CTX, "--save needs a .gpuplan file"))
    doc.quotes = merged_quotes(doc.quotes, sheets)
    planfile.save(doc, path)


def merged_quotes(stored, sheets) -> list:
    """The plan's quotes after ``--save``: each vendor of ``sheets`` replaces the stored quote of the same provider
    (a new sheet from the same vendor), the other stored vendors are kept, in their order, before the new ones (as
    the Quotes page's Import appends). Before probe16 ``--save`` replaced them all: a vendor typed on the Quotes
    page was gone after saving another vendor's sheet from the command line."""
    new = {q.provider for q in sheets}
    return [q for q in stored if q.provider not in new] + list(sheets)


def _rfq(args, result, title: str) -> None:
    from ..report import render
    from ..report_file import export_rfq_pdf

    render.ensure_app()
    if args.lang and args.lang != "en":
        render.install_language(args.lang)
        render.ensure_cjk_font()
    print(export_rfq_pdf(result, args.rfq, title=title, lang=None if args.lang == "en" else args.lang))
