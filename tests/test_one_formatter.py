"""Issue #15 — one formatter: every number a person reads in the app, the CLI or the PDF is written by
``gpuplanner.formatting`` (grouping, percent, money, significant digits, durations, Chinese 万/亿).

An AST scan of the views (``gpuplanner/ui``, ``gpuplanner/report``, ``gpuplanner/commands``, ``cli.py``) fails on
a number formatted in place:

* an f-string replacement field with a numeric format spec (``f"{x:,.0f}"``, ``f"{u:.0%}"``, ``f"{v:.{d}f}"``);
* a ``str.format`` template with a numeric spec (``"{:.1f}".format(x)``, ``self.tr("… {1:.1f} weeks")``, a
  message template ``"{gbps:,.0f} Gb/s"``) — any string literal in code, docstrings aside;
* ``%``-formatting with a numeric conversion (``"%.2f" % x``, ``"%d GPUs" % n``);
* the built-in ``format(x, spec)``;
* a formatter from elsewhere: ``core.units.format_count`` (it wrote ``1e+03K``; views use
  ``formatting.format_compact``).

Alignment alone (``f"{label:<12}"``, ``f"{n:>4}"``) is not number formatting and passes. The allowlist below
names the few genuine non-display uses, each with its reason; an entry that no longer matches fails too, so
the list cannot go stale.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ("gpuplanner/ui", "gpuplanner/report", "gpuplanner/commands", "gpuplanner/cli.py")

# format-spec mini-language (Python docs, "Format Specification Mini-Language"):
# [[fill]align][sign]["z"]["#"]["0"][width][grouping]["." precision][type]
_SPEC = re.compile(r"(?:.?[<>=^])?(?P<sign>[+\- ]?)z?#?0?\d*(?P<group>[,_]?)(?P<prec>(?:\.\d+)?)(?P<type>[bcdeEfFgGnosxX%]?)")
_NUMERIC_TYPES = set("bcdeEfFgGnoxX%")
# printf-style conversion (Python docs, "printf-style String Formatting"): %[(key)][flags][width][.prec]type
_PRINTF_NUMERIC = re.compile(r"%(?:\([^)]*\))?[-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?[diouxXeEfFgG]")
_TEMPLATE_FIELD = re.compile(r"(?<!\{)\{([^{}:!]*)(?:![rsa])?:([^{}]*)\}")

#: (file, what) → why it is not a number shown to a person. ``what`` is the scan's description of the site
#: (see :func:`scan_source`); a file mapped to ``"*"`` is exempt as a whole.
ALLOWED = {
    # The text of an editable field, parsed back by fields.parse_float when the user edits it: it must
    # round-trip the stored value (6 significant digits, never scientific notation; a grouped or rounded
    # display form would change the user's figure on the next edit — "user's choices are sacred").
    ("gpuplanner/ui/fields.py", "f-string float(v):.6g"): "editable field text, round-trips the value",
    ("gpuplanner/ui/fields.py", "format(Decimal(text), 'f')"): "same field: 2e+06 → 2000000 for the editor",
    # Builds a regular expression (a repetition count), not text anyone reads.
    ("gpuplanner/report/render.py", "%-format " + repr(r"[^\s\u200b]{%d,}")): "regex quantifier for the line breaker",
    # A Unicode code point written in its standard notation (U+4E2D) in an error message: an identifier,
    # not a quantity (Unicode Standard, Appendix A "Notational Conventions").
    ("gpuplanner/report/render.py", "f-string ord(c):04X"): "code point notation U+XXXX",
}


def is_numeric_spec(spec: str) -> bool:
    """A format spec that formats a number (precision, grouping, sign or a numeric type); ``>10`` is not."""
    m = _SPEC.fullmatch(spec)
    if m is None:
        return False
    return bool(m["sign"] or m["group"] or m["prec"] or (m["type"] in _NUMERIC_TYPES and m["type"]))


def _spec_text(spec: ast.JoinedStr) -> str:
    # a nested field ({x:.{d}f}) stands in as a digit: "{d}" is a precision or width
    return "".join(v.value if isinstance(v, ast.Constant) else "9" for v in spec.values)


def scan_source(source: str) -> list[tuple[int, str]]:
    """(line, description) of every number formatted in place in ``source``."""
    tree = ast.parse(source)
    in_fstring: set[int] = set()
    docstrings: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            in_fstring.update(id(n) for n in ast.walk(node))
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            docstrings.add(id(node.value))  # docstrings and bare string statements: prose, not code
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FormattedValue) and node.format_spec is not None:
            spec = _spec_text(node.format_spec)
            if is_numeric_spec(spec):
                found.append((node.lineno, f"f-string {ast.unparse(node.value)}:{spec}"))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in in_fstring \
                and id(node) not in docstrings:
            text = node.value.replace("{{", "").replace("}}", "")
            for m in _TEMPLATE_FIELD.finditer(text):
                if is_numeric_spec(m.group(2)):
                    found.append((node.lineno, f"template {{{m.group(1)}:{m.group(2)}}}"))
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant) \
                and isinstance(node.left.value, str) and _PRINTF_NUMERIC.search(node.left.value.replace("%%", "")):
            found.append((node.lineno, f"%-format {node.left.value!r}"))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "format" \
                and len(node.args) == 2:
            spec = node.args[1]
            if not (isinstance(spec, ast.Constant) and isinstance(spec.value, str)) or is_numeric_spec(spec.value) \
                    or spec.value == "":
                found.append((node.lineno, ast.unparse(node)))
        if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("core.units") \
                and any(a.name.startswith("format_") for a in node.names):
            found.append((node.lineno, f"import {ast.unparse(node)}"))
    return sorted(found)


def _files():
    for entry in SCANNED:
        p = ROOT / entry
        yield from ([p] if p.is_file() else sorted(p.rglob("*.py")))


def _sites():
    for path in _files():
        rel = path.relative_to(ROOT).as_posix()
        for line, what in scan_source(path.read_text(encoding="utf-8")):
            yield rel, line, what


def test_views_format_numbers_through_the_formatter():
    bad = [f"{rel}:{line}: {what}" for rel, line, what in _sites()
           if (rel, what) not in ALLOWED and (rel, "*") not in ALLOWED]
    assert not bad, ("numbers formatted in place; use gpuplanner.formatting (format_number, format_percent, "
                     "format_money, format_sig, format_count, format_duration, …):\n" + "\n".join(bad))


def test_allowlist_entries_still_match():
    sites = {(rel, what) for rel, _, what in _sites()}
    files_with_sites = {rel for rel, _ in sites}
    stale = [key for key in ALLOWED
             if (key[1] == "*" and key[0] not in files_with_sites) or (key[1] != "*" and key not in sites)]
    assert not stale, f"allowlist entries that no longer match (remove them): {stale}"


@pytest.mark.parametrize("snippet", [
    'f"{x:,.0f}"', 'f"{p.calendar_days:.2f}"', 'f"{p.mfu * 100:.0f}%"', 'f"{u:.0%}"', 'f"{value:,.4g}"',
    'f"{w:g}"', 'f"{n:d}"', 'f"{t:10.0f}"', 'f"{v:.{d}f}"', 'f"{v:+}"', 'f"{v:,}"',
    '"{:.1f}".format(x)', '"{0:,.0f} of {1}".format(a, b)', 'self.tr("Project total: {0} over {1:.1f} weeks")',
    'Msg(CTX, "at least {gbps:,.0f} Gb/s", {"gbps": g})', '"%.2f" % x', '"%d GPUs" % n', '"%(n)5.1f%%" % d',
    'format(v, ".2f")', 'format(v, spec)', 'format(v, f"{w}.3g")',
    'from gpuplanner.core.units import format_count', 'from ..core.units import format_count, parse_count',
])
def test_the_scan_finds_a_number_formatted_in_place(snippet):
    assert scan_source(snippet), snippet


@pytest.mark.parametrize("snippet", [
    'f"{label:<12}{n:>4}"', 'f"{name!r}"', 'f"{x}"', '"{0} of {1}".format(a, b)', '"100%% done" % ()',
    '"%s: %r" % (a, b)', '"#box { color: #333; border: 1px solid #ddd; }"', 'f"{text:>{width}}"',
    'format_number(x, 1)', 'from gpuplanner.core.units import parse_count', '"""Docstring: f"{x:.1f}" is what we avoid."""',
])
def test_the_scan_passes_text_that_formats_no_number(snippet):
    assert not scan_source(snippet), snippet
