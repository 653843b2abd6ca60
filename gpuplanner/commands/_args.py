"""Argument types shared by the CLI subcommands."""

from __future__ import annotations

import argparse
from ..core.i18n import QT_TRANSLATE_NOOP
from ..formatting import format_list

CTX = "CLI"

# the ranges of the scenario's own fields (core/scenario.py), repeated here so that parsing a flag loads no model:
MAX_TP = 1024  # MeasuredRun.tp: one tensor-parallel group
MAX_GPUS = 1_000_000  # HardwareSection.num_gpus
MAX_NICS = 64  # HardwareSection.nics_per_node


def positive_int(value: str) -> int:
    """argparse type: a whole number ≥ 1, with a one-line message otherwise."""
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {value!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a number >= 1, got {n}")
    return n


def int_in(lo: int, hi: int):
    """argparse type: a whole number from ``lo`` to ``hi`` (the message names the range; a value past it is an
    error, never a verdict about an impossible plan)."""
    def parse(value: str) -> int:
        from ..formatting import format_number

        span = f"from {format_number(lo, 0)} to {format_number(hi, 0)}"
        text = value.strip().replace("_", "")
        if not text.lstrip("+-").isdigit() or len(text) > 12:
            raise argparse.ArgumentTypeError(f"expected a whole number {span}, got {value[:40]!r}")
        n = int(text)
        if not lo <= n <= hi:
            raise argparse.ArgumentTypeError(f"expected a whole number {span}, got {format_number(n, 0)}")
        return n

    parse.__name__ = f"whole number {lo}-{hi}"
    return parse


def text_up_to(limit: int):
    """argparse type: one line of at most ``limit`` characters (``report --author``: probe14 found a 1 MB author
    held the PDF's title block layout for minutes)."""
    def parse(value: str) -> str:
        from ..formatting import format_number

        if len(value) > limit:
            raise argparse.ArgumentTypeError(f"expected at most {format_number(limit, 0)} characters, got "
                                             f"{format_number(len(value), 0)}")
        return value

    parse.__name__ = f"text up to {limit}"
    return parse


def strict_json(data, **kwargs) -> str:
    """``data`` as JSON that a strict parser reads (``allow_nan=False``): a figure that is not finite (a cost
    without a price, a job that never finishes) becomes ``null`` and its path is listed under ``"unbounded"``
    with a sentence saying so; nothing else changes."""
    import json
    import math

    paths: list[str] = []

    def clean(v, path: str):
        if isinstance(v, float) and not math.isfinite(v):
            paths.append(path or "$")
            return None
        if isinstance(v, dict):
            return {k: clean(x, f"{path}.{k}" if path else str(k)) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [clean(x, f"{path}[{i}]") for i, x in enumerate(v)]
        return v

    out = clean(data, "")
    if paths and isinstance(out, dict):
        out["unbounded"] = {"fields": paths[:50], "message": "no finite value (the figure grows without bound, "
                            "e.g. a job that never finishes); shown as null"}
    kwargs.setdefault("ensure_ascii", False)
    return json.dumps(out, allow_nan=False, **kwargs)


def likely_range(ev, currency: str) -> tuple[str, str] | None:
    """The plan's likely range as ``estimate`` and ``plan`` print it: (its calendar days, with the cost range where
    the Evaluation has one; the band's source, p10–p90 of the model's error on the family's published runs), read
    from ``ev.calendar_days_band``/``cost_band``/``band``; None without a band. The days at the headline's precision
    and in its unit (formatting.format_plan_span: the view converts no unit; parity16)."""
    from ..core.evaluate import band_name
    from ..formatting import format_plan_span
    from ._lang import translate

    if ev.calendar_days_band is None:
        return None
    # in the unit of the plan's whole range, with its word, as the headline ("14.6–19.2 hours"; ux21, ux22)
    rng = format_plan_span(ev.calendar_days, ev.calendar_days_band)[1]
    if ev.cost_band and ev.memory.fits:  # no price for a layout that does not fit (the PDF's rule; ux21, ux22)
        from ..core.evaluate import cost_band_msg  # one figure says why: a month's rent at both ends (ux15)
        from ._lang import msg

        rng = translate(CTX, "{days}, {cost}").format(days=rng, cost=msg(cost_band_msg(ev)))
    # the published runs behind the band (core.evaluate.band_name: its runs; a band stored before: its family)
    from ..formatting import close_paren_space  # "llm-foundry（PyTorch FSDP）训练", no space after the bracket (ux11)

    return rng, close_paren_space(translate(CTX, "(p10–p90 of the model's error on {n} published {family} runs)").format(
        n=ev.band["rows"], family=band_name(ev.band, translate)))


def rent_vs_build_lines(rb, indent: str = "   ") -> list[str]:
    """The rent-or-build answer as text: the sentence, the five parts of building next to renting, the
    break-even utilisation and what was not counted (read from ``cost.BuildResult``; nothing computed here),
    in the CLI's language, money through the one formatter."""
    from ..core.cost import BUILD_PART_LABELS, unknown_build_parts
    from ..formatting import format_money, format_percent, format_sig
    from ._lang import name, translate

    cur = rb.currency

    unknown = unknown_build_parts(rb)  # a part whose input is missing is unknown, not zero

    def row(label: str, value: float | None, extra: str = "") -> str:
        # whole money, as the PDF's rent-or-build table (report.content.fmt_money): "$36" beside "$627,000", not
        # "$36.00" (ux23: the CLI's table mixed cents and whole amounts, the PDF's had none)
        shown = translate(CTX, "unknown") if value is None else format_money(value, cur, decimals=0)
        # columns by display width: a Chinese label takes two columns a character ("自建：机柜/托管")
        return f"{indent}{ljust(label, 43)}{rjust(shown, 16)}{extra}"

    lines = [row(translate(CTX, "rent"), rb.rent_total)]
    for key, label in BUILD_PART_LABELS.items():
        src = rb.inputs.sources.get({"hardware": "machine_price", "rack": "colocation_per_machine_month",
                                     "electricity": "tariff_per_kwh", "staff": "ops_staff_per_month",
                                     "spares": "spare_rate_per_year"}[key], "")
        lines.append(row(translate(CTX, "build: {part}").format(part=name("Cost", label)),
                         None if key in unknown else rb.breakdown[key], f"   [{cut(src, 70)}]" if src else ""))
    lines.append(row(translate(CTX, "build total"), None if unknown else rb.build_total,
                     "   " + translate(CTX, "verdict: {v}").format(v={
                         "rent": translate(CTX, "rent"), "build": translate(CTX, "build"),
                         "unknown": translate(CTX, "unknown (no purchase price)")}.get(rb.verdict, rb.verdict))))
    if rb.verdict == "unknown":  # without a purchase price there is no break-even to state, either way
        lines.append(indent + translate(CTX, "break-even utilisation: unknown (no purchase price)"))
    elif rb.break_even_utilisation is not None:
        lines.append(indent + translate(CTX, "break-even utilisation: {pct} of the hours over {years} years").format(
            pct=format_percent(rb.break_even_utilisation), years=format_sig(rb.inputs.depreciation_years)))
    else:
        lines.append(indent + translate(CTX, "break-even utilisation: none (owning never pays off at these prices)"))
    if rb.missing:
        fields = {"machine_price": translate(CTX, "purchase price per server"),
                  "power_kw_per_machine": translate(CTX, "power per server (kW)"),
                  "tariff_per_kwh": translate(CTX, "electricity tariff"),
                  "colocation_per_machine_month": translate(CTX, "rack / colocation per month"),
                  "ops_staff_per_month": translate(CTX, "operations staff per month"),
                  "spare_rate_per_year": translate(CTX, "spares per year"),
                  "pue": "PUE", "depreciation_years": translate(CTX, "depreciation years")}
        lines.append(indent + translate(CTX, "not counted (enter your figures): {items}").format(
            items=format_list(fields.get(k, k) for k in rb.missing)))
    return lines


def read_input(path: str, limit: int, what: str, error: type[Exception]) -> bytes:
    """Pasted tool output from a file or ``-`` (stdin), at most ``limit`` bytes (the safe reader's bound for
    files; stdin is cut at ``limit + 1`` and refused with ``error`` when longer)."""
    import sys

    from ..formatting import format_number
    from ..io.safe_read import read_limited

    if path == "-":
        data = sys.stdin.buffer.read(limit + 1)
        if len(data) > limit:
            raise error(f"stdin: too large for {what} (over {format_number(limit, 0)} bytes)")
        return data
    return read_limited(path, limit, what)


# ------------------------------------------------------------------ text columns (a CJK character takes two)

def display_width(text: str) -> int:
    """Terminal columns of ``text``: wide and full-width characters (Chinese) take two (Unicode EAW)."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def ljust(text: str, width: int, min_gap: int = 0) -> str:
    """``text`` padded to ``width`` columns, followed by at least ``min_gap`` spaces."""
    return text + " " * max(min_gap, width - display_width(text))


def label(text: str, width: int = 13) -> str:
    """A left-column label of the text outputs (``Model        …``), at least one space before the value."""
    return ljust(text, width, min_gap=1)


def rjust(text: str, width: int) -> str:
    return " " * max(0, width - display_width(text)) + text


def cut(text: str, width: int) -> str:
    """``text`` shortened to at most ``width`` columns: a shortened text ends in "…", after a whole word where
    one ends in its second half (never "the refe"); Chinese, which has no spaces, at any character."""
    if display_width(text) <= width:
        return text
    short = text
    while short and display_width(short) > width - 1:
        short = short[:-1]
    space = short.rfind(" ")
    if not text[len(short)].isspace() and space >= len(short) // 2:
        short = short[:space]
    return short.rstrip(" ,;:·-–—(") + "…"


#: argparse's own sentences (CPython 3.12 ``Lib/argparse.py``: ``error``, ``_get_values``, ``_check_value``,
#: ``parse_known_args``) and this module's, each as a pattern and its marked template, so a mistyped option is told
#: in the language asked for: ``--lang zh_CN`` printed "plan: argument --top: expected a whole number from 1 to
#: 1,000, got 'x'" and "report: the following arguments are required: -o/--output" in English (issue 35 round 16,
#: ux24). A sentence not listed stays as argparse wrote it.
_PARSE_ERRORS = (
    (r"the following arguments are required: (?P<args>.+)",
     QT_TRANSLATE_NOOP(CTX, "the following arguments are required: {args}")),
    (r"unrecognized arguments: (?P<args>.+)", QT_TRANSLATE_NOOP(CTX, "unrecognized arguments: {args}")),
    (r"argument (?P<arg>\S+): (?P<msg>.+)", QT_TRANSLATE_NOOP(CTX, "argument {arg}: {msg}")),
    (r"expected a whole number from (?P<lo>\S+) to (?P<hi>\S+), got (?P<value>.+)",
     QT_TRANSLATE_NOOP(CTX, "expected a whole number from {lo} to {hi}, got {value}")),
    (r"expected a whole number, got (?P<value>.+)", QT_TRANSLATE_NOOP(CTX, "expected a whole number, got {value}")),
    (r"expected a number >= 1, got (?P<value>.+)", QT_TRANSLATE_NOOP(CTX, "expected a number >= 1, got {value}")),
    (r"expected at most (?P<limit>\S+) characters, got (?P<value>\S+)",
     QT_TRANSLATE_NOOP(CTX, "expected at most {limit} characters, got {value}")),
    (r"invalid choice: (?P<value>.+) \(choose from (?P<choices>.+)\)",
     QT_TRANSLATE_NOOP(CTX, "invalid choice: {value} (choose from {choices})")),
    (r"expected one argument", QT_TRANSLATE_NOOP(CTX, "expected one argument")),
    # the launcher's own (gpuplanner.__main__.not_an_app_argument; issue 35 r17, ux26: English under --lang zh_CN)
    (r"unknown command (?P<name>'.*') — did you mean (?P<close>'.*')\?",
     QT_TRANSLATE_NOOP(CTX, "unknown command {name} — did you mean {close}?")),
    (r"unknown command (?P<name>'.*') \(commands: (?P<names>.+); gpuplanner --help lists them\)",
     QT_TRANSLATE_NOOP(CTX, "unknown command {name} (commands: {names}; gpuplanner --help lists them)")),
    (r"(?P<name>'.*') is a folder, not a plan file", QT_TRANSLATE_NOOP(CTX, "{name} is a folder, not a plan file")),
    (r"file not found: (?P<name>.+)", QT_TRANSLATE_NOOP(CTX, "file not found: {name}")),
    # issue 35 r18, ux28: "gpuplanner --lang zh_CN" (the window) or "--help --lang zh_CN" said "unknown command 'zh_CN'"
    (r"--lang goes with a command \(gpuplanner COMMAND \.\.\. --lang zh_CN\); the window's language: Settings → Language",
     QT_TRANSLATE_NOOP(CTX, "--lang goes with a command (gpuplanner COMMAND ... --lang zh_CN); the window's language: "
                       "Settings → Language")),
)


def parse_error_text(message: str, translate) -> str:
    """argparse's ``message`` through ``translate(CTX, template)`` (:data:`_PARSE_ERRORS`; the message after
    "argument X:" translated in turn); unchanged where no pattern matches."""
    import re

    for pattern, template in _PARSE_ERRORS:
        m = re.fullmatch(pattern, message, re.DOTALL)
        if m is None:
            continue
        params = m.groupdict()
        if "msg" in params:
            params["msg"] = parse_error_text(params["msg"], translate)
        return translate(CTX, template).format(**params)
    return message


def argv_language(argv: list[str]) -> str | None:
    """The ``--lang`` of a command line argparse could not finish reading (``--lang zh_CN`` / ``--lang=zh_CN``)."""
    for i, a in enumerate(argv):
        if a == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if a.startswith("--lang="):
            return a.partition("=")[2]
    return None


def refuse_folder_output(output: str) -> None:
    """Refuse an ``-o`` that names a folder — one there, or a name ending in a separator ("out/") — before
    anything is written: ``kit -o out/`` without a folder ``out`` wrote a file named ``out`` and told to run
    "bash " (the empty last part of the name; probe17, ux27). The sentence ``quotes --template`` says."""
    import os  # noqa: PLC0415

    from ..core.errors import PlannerError  # noqa: PLC0415
    from ..io.safe_read import one_line  # noqa: PLC0415
    from ._lang import translate  # noqa: PLC0415

    seps = tuple(s for s in (os.sep, os.altsep, "/") if s)
    # os.path.isdir, not Path.is_dir: Python 3.12's is_dir raises on a name past the file system's 255 bytes
    # (ENAMETOOLONG), a traceback from "kit -o <256 bytes>" (probe18, against probe17's case); the name echoed as
    # one printable line ("-o 'a<newline>b/'" split the error line)
    if output.endswith(seps) or os.path.isdir(output):
        raise PlannerError(translate(CTX, "{path}: a folder; give -o a file name").format(path=one_line(output, 120)))
