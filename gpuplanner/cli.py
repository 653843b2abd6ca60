"""Command-line interface: the same core as the app, for scripting.

Each subcommand lives in ``gpuplanner/commands/<name>.py`` and exposes ``register(subparsers)``, which
adds its parser and sets ``func`` (called with the parsed args; returns the exit code). Modules are
discovered automatically, so adding a command touches no shared file.

Exit codes: 0 success, 2 bad input (one-line message on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import functools
import importlib
import importlib.util
import os
import sys

from . import __version__
from .core.errors import PlannerError
from .core.i18n import QT_TRANSLATE_NOOP

CTX = "CLI"

#: argparse's own words (CPython 3.12 ``Lib/argparse.py``: ``_format_usage``'s prefix, ``ArgumentParser``'s two
#: groups, the ``-h`` and ``--version`` actions), marked so that ``--help`` reads in the language asked for: every
#: command's help was English under ``--lang zh_CN`` / a Chinese locale (issue 35 r18, cli18 and ux28's "seen")
ARGPARSE_WORDS = (
    QT_TRANSLATE_NOOP(CTX, "usage: "),
    QT_TRANSLATE_NOOP(CTX, "positional arguments"),
    QT_TRANSLATE_NOOP(CTX, "options"),
    QT_TRANSLATE_NOOP(CTX, "show this help message and exit"),
    QT_TRANSLATE_NOOP(CTX, "show program's version number and exit"),
)


def _help_formatter(prog: str, **kwargs) -> argparse.HelpFormatter:
    """argparse's help formatter at the terminal's width, found as ``shutil.get_terminal_size`` finds it
    (``COLUMNS``, else the terminal, else 80) without importing ``shutil`` (and its compression modules), which
    argparse does for every argument it adds (issue #20: commands import only what they run)."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    kwargs.setdefault("width", (columns or 80) - 2)
    return _HelpFormatter(prog, **kwargs)


def _tr(text: str) -> str:
    """A help text in the CLI's language (the one :meth:`_Parser.format_help` installed; English as written)."""
    from .commands import _lang

    return _lang.translate(CTX, text) if text else text


def _wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` terminal columns. English as textwrap wraps it, never at a hyphen
    (cli18: "'gpuplanner kit-" / "import'"); a text with wide (Chinese) characters by display width, as a Chinese
    character takes two columns and may end a line anywhere, but never before a closing punctuation mark."""
    import textwrap

    if text.isascii():
        return textwrap.wrap(text, width, break_on_hyphens=False)
    import re

    from .commands._args import display_width

    lines, line = [], ""
    for token in re.findall(r"[^\x00-\x7f]|[\x21-\x7e]+| +", text):
        closing = token in "，。；：、）》」！？" and line
        if line and not closing and display_width(line + token.rstrip()) > width:
            lines.append(line.rstrip())
            line = token.lstrip()
        else:
            line += token
    return [*lines, line.rstrip()] if line.strip() else lines


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter in the CLI's language (argparse's headings, each description and option help through
    :func:`_tr`), wrapped by display width and never at a hyphen (:func:`_wrap`)."""

    def _split_lines(self, text, width):
        return _wrap(self._whitespace_matcher.sub(" ", text).strip(), width)

    def _fill_text(self, text, width, indent):
        return "\n".join(indent + line for line in _wrap(self._whitespace_matcher.sub(" ", text).strip(),
                                                          width - len(indent)))

    def _format_text(self, text):
        return super()._format_text(_tr(text))

    def _get_help_string(self, action):
        return _tr(action.help)

    def start_section(self, heading):
        super().start_section(_tr(heading))

    def _format_usage(self, usage, actions, groups, prefix):
        """argparse's "usage: " in the CLI's language; argparse indents the usage's further lines by the prefix's
        length in characters, so a Chinese prefix (two columns a character) is measured by a stand-in as wide."""
        word = _tr("usage: ") if prefix is None else prefix
        if word.isascii():
            return super()._format_usage(usage, actions, groups, word)
        from .commands._args import display_width

        stand_in = "\x00" * display_width(word)
        return super()._format_usage(usage, actions, groups, stand_in).replace(stand_in, word, 1)


class _Parser(argparse.ArgumentParser):
    """The parser of the command line and of each command (``add_subparsers`` makes its own kind)."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("formatter_class", _help_formatter)
        super().__init__(*args, **kwargs)

    def format_help(self) -> str:
        """The help in the language of the command line's ``--lang`` (else the default language), installed here as
        argparse prints ``--help`` while it parses, before the command installs it (:func:`run_cli`)."""
        return _zh_colons(self._in_language(super().format_help))

    def format_usage(self) -> str:
        return self._in_language(super().format_usage)

    @staticmethod
    def _in_language(format_text):
        from .commands import _args, _lang

        _lang.install(_args.argv_language(_ARGV))
        return format_text()

    def error(self, message: str):
        """A bad argument: one line on stderr, exit 2 (argparse's own prints the usage first); ``--help`` has it."""
        from .io.safe_read import one_line

        command = self.prog.partition(" ")[2]  # "gpuplanner topo": the same prefix as every other error line
        text = one_line(_parse_error(message), 360)  # first: it installs the command line's language
        self.exit(2, f"{error_prefix()}{command + ': ' if command else ''}{text}\n")


#: the command line being read (run_cli), for a parse error's language
_ARGV: list[str] = []


def _zh_colons(text: str) -> str:
    """argparse ends each heading with ":" (``"%s:" % heading``); a Chinese heading takes the full-width "：" as
    every other Chinese label of the CLI does (``formatting.colon``)."""
    import re

    return re.sub(r"^([^\x00-\x7f][^\n:]*):$", r"\1：", text, flags=re.MULTILINE)


def error_prefix() -> str:
    """"gpuplanner: error: " in the CLI's language (argparse's "%(prog)s: error: "; zh "gpuplanner: 错误："): the
    program's name as typed, the word translated as every other word of a Chinese line (helpzh18)."""
    from .commands import _lang

    return "gpuplanner: " + _lang.translate(CTX, QT_TRANSLATE_NOOP(CTX, "error: "))


def _parse_error(message: str) -> str:
    """argparse's sentence in the language of the command line's ``--lang`` (else the default language, as every
    command's output), English where it has no translation (``commands._args.parse_error_text``; ux24)."""
    from .commands import _args, _lang

    lang = _lang.install(_args.argv_language(_ARGV))
    return message if lang == "en" else _args.parse_error_text(message, _lang.translate)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser: every command (``--help`` lists them), or with ``only`` the one module that
    registers that command (:func:`command_module`), so running a command imports no other command's module."""
    parser = _Parser(
        prog="gpuplanner",
        usage="gpuplanner [-h] [--version] [--self-test] [FILE | COMMAND ...]",
        description=QT_TRANSLATE_NOOP(CTX, "GPU Planner: describe the training task, derive the GPU servers to rent. "
                                      "With no COMMAND it opens the desktop app (with FILE: that scenario or "
                                      ".gpuplan file)."),
        epilog=QT_TRANSLATE_NOOP(CTX, "Every COMMAND takes --lang en or --lang zh_CN, the language of its output and "
                                 "help (default: the app's setting, else the system locale). 'gpuplanner COMMAND "
                                 "--help' describes a command."),
    )
    parser.add_argument("--version", action="version", version=f"gpuplanner {__version__}")
    # the app's own option (ui/app.py parses it; listed here so that --help shows it)
    parser.add_argument("--self-test", action="store_true",
                        help=QT_TRANSLATE_NOOP(CTX, "open the app's window, render every page, exit 0 (1 on a "
                                               "problem); no COMMAND"))
    # prog: each command's usage and one-line errors start "gpuplanner plan", not the top-level usage string argparse
    # would put before the command's name ("gpuplanner: error: [-h] [--version] … plan: argument --top", probe13)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", prog="gpuplanner")
    one = command_module(only) if only is not None else None
    for module in [one] if one is not None else _command_modules():
        register = getattr(module, "register", None)
        if register is not None:
            register(sub)
    _add_lang_options(sub)
    return parser


def _command_modules() -> list:
    """Every module of ``gpuplanner.commands`` (discovered, so adding a command touches no shared file)."""
    import pkgutil

    from . import commands

    return [importlib.import_module(f"{commands.__name__}.{info.name}")
            for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name)
            if not info.name.startswith("_")]


@functools.lru_cache(maxsize=64)
def command_module(name: str):
    """The module of ``gpuplanner.commands`` that registers the command ``name`` (None: not a command).

    Found first by its name without importing any other command's module (:func:`_module_by_name`); a command
    whose module is named otherwise is still found, by importing them all (as ``--help`` does)."""
    if not isinstance(name, str):
        return None
    module = _module_by_name(name)
    if module is not None:
        return module
    return next((m for m in _command_modules() if _registers(m, name)), None)


def _module_by_name(name: str):
    """The command module named ``name``, ``name`` with ``_`` for ``-``, or the part of ``name`` before its first
    hyphen (``kit-import`` → ``kit``), if it registers ``name``; only that module is imported."""
    from . import commands

    for candidate in dict.fromkeys((name, name.replace("-", "_"), name.split("-", 1)[0])):
        if not candidate.isidentifier() or candidate.startswith("_"):
            continue
        try:
            spec = importlib.util.find_spec(f"{commands.__name__}.{candidate}")
        except (ImportError, ValueError):
            spec = None
        if spec is not None:
            module = importlib.import_module(spec.name)
            if _registers(module, name):
                return module
    return None


def _registers(module, name: str) -> bool:
    """Whether ``module.register`` adds the command ``name`` (registered on a scratch parser)."""
    register = getattr(module, "register", None)
    if register is None:
        return False
    probe = _Parser(add_help=False).add_subparsers()
    register(probe)
    return name in probe.choices


def _add_lang_options(sub) -> None:
    """Every command takes ``--lang`` (commands that declare their own keep theirs)."""
    for p in sub.choices.values():
        if not any("--lang" in a.option_strings for a in p._actions):
            p.add_argument("--lang", choices=("en", "zh_CN"), default=None,
                           help=QT_TRANSLATE_NOOP(CTX, "language of the output (default: the app's setting, else "
                                                  "the system locale)"))


def is_command(name: str) -> bool:
    """``name`` is a subcommand (imports the one module that registers it, no other command's)."""
    return command_module(name) is not None


def command_names() -> set[str]:
    """Names of the available subcommands (as registered by the modules in ``gpuplanner.commands``)."""
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return set(action.choices)
    return set()


class _TerminalSafe:
    """A text stream that drops control characters (terminal escapes such as ``ESC[2J`` or ``ESC]0;title``
    from a vendor's file or a pasted topology) except line breaks and tabs, before they reach the terminal, and
    replaces with U+FFFD the invisible ones that reorder or hide text (bidirectional overrides and isolates such
    as U+202E and U+2066, marks such as U+200F, zero-width characters, line/paragraph separators) and lone
    surrogates (which no terminal encoding can write)."""

    _DROP = {c: None for c in list(range(0, 32)) + list(range(127, 160)) if c not in (9, 10)}
    _INVISIBLE = [0x061C, 0x180E, 0xFEFF, *range(0x200B, 0x2010), *range(0x2028, 0x202F), *range(0x2060, 0x2065),
                  *range(0x2066, 0x206A), *range(0xFFF9, 0xFFFC), *range(0xD800, 0xE000)]
    _DROP.update({c: "\ufffd" for c in _INVISIBLE})

    def __init__(self, stream):
        self._stream = stream

    def write(self, text: str) -> int:
        return self._stream.write(str(text).translate(self._DROP))

    def __getattr__(self, name):
        return getattr(self._stream, name)


def run_cli(argv: list[str]) -> int:
    # a command's own parser alone (its module, not every command's); --help and the rest get them all
    parser = build_parser(argv[0] if argv and is_command(argv[0]) else None)
    _ARGV[:] = argv  # the line a parse error's --lang is read from (_parse_error)
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    from .io.safe_read import one_line

    from .commands import _lang

    args.lang = _lang.install(getattr(args, "lang", None), gui=args.command == "report")
    old_out = sys.stdout
    sys.stdout = _TerminalSafe(old_out)
    import warnings

    try:
        with warnings.catch_warnings():
            # numpy's RuntimeWarnings (overflow, division by zero in a candidate that is then dropped) are not
            # messages for the user: the command's figures and one-line errors are (issue #32)
            warnings.simplefilter("ignore", RuntimeWarning)
            return int(args.func(args) or 0)
    except PlannerError as err:
        # one line, no control characters (a vendor's file must not drive the terminal), capped in length
        first = err.args[0] if err.args else None  # a MsgStr keeps its message id: shown in the CLI's language
        text = _lang.msg(first) if hasattr(first, "context") and hasattr(first, "params") else err
        print(f"{error_prefix()}{one_line(text)}", file=sys.stderr)
        return 2
    except (RecursionError, MemoryError, OverflowError):
        print(error_prefix() + _lang.translate("Cli", "the input is too large or nested too deeply"),
              file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    finally:
        sys.stdout = old_out
