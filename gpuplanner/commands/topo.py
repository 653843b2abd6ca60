"""``gpuplanner topo FILE [--json] [--tp N] [--gpus N] [--strict]``: check a server's ``nvidia-smi topo -m``.

FILE may be ``-`` for stdin. Text output: the link matrix and the verdict lines; ``--json`` prints
``Diagnosis.to_json()``. Exit codes: 0 checked, 1 with ``--strict`` when a verdict line is "bad",
2 unreadable input (one-line message).
"""

from __future__ import annotations


from ..core.i18n import QT_TRANSLATE_NOOP
from ._args import MAX_GPUS, MAX_TP, int_in, read_input, strict_json
from . import _lang

_MARK = {"ok": "[ok]  ", "warn": "[warn]", "bad": "[BAD] "}


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "topo",
        help=QT_TRANSLATE_NOOP("CLI", "check a rented server's GPU interconnect from 'nvidia-smi topo -m' output"),
        description=QT_TRANSLATE_NOOP("CLI", "Read 'nvidia-smi topo -m' output (a file, or - for stdin) and explain what it means "
        "for tensor parallelism, NUMA and NIC placement."),
    )
    p.add_argument("file", metavar="FILE", help=QT_TRANSLATE_NOOP("CLI", "saved output of 'nvidia-smi topo -m', or - for stdin"))
    p.add_argument("--json", action="store_true", help=QT_TRANSLATE_NOOP("CLI", "print the diagnosis as JSON"))
    p.add_argument("--tp", type=int_in(1, MAX_TP), metavar="N", help=QT_TRANSLATE_NOOP("CLI", "the plan's tensor-parallel size to check"))
    p.add_argument("--gpus", type=int_in(1, MAX_GPUS), metavar="N", help=QT_TRANSLATE_NOOP("CLI", "the plan's total GPU count (multi-node if larger)"))
    p.add_argument("--strict", action="store_true", help=QT_TRANSLATE_NOOP("CLI", "exit 1 when a verdict line is 'bad'"))
    p.set_defaults(func=run)


def _read(path: str) -> bytes:
    """The file (or stdin) through the safe reader, as ``net`` and ``health`` read theirs: a regular file only
    (a FIFO or ``/dev/zero`` is refused before reading), at most :data:`MAX_TOPO_CHARS` bytes."""
    from ..verify.topology import MAX_TOPO_CHARS, TopologyError

    return read_input(path, MAX_TOPO_CHARS, "nvidia-smi topo -m output", TopologyError)


def run(args) -> int:
    from ..verify.topology import diagnose, format_matrix, parse_topo

    topo = parse_topo(_read(args.file))
    diag = diagnose(topo, plan_tp=args.tp, plan_gpus=args.gpus)
    if args.json:
        print(strict_json(diag.to_json(), indent=2))
    else:
        print(format_matrix(topo))
        print()
        for f in diag.verdict:
            print(f"{_MARK[f.severity]} {_lang.msg(getattr(f, 'msg', None) or f.text)}")
    return 1 if args.strict and diag.worst == "bad" else 0
