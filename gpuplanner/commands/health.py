"""``gpuplanner health FILE [--dmesg LOG] [--plan PLAN | --gpu ID] [--json] [--strict]``: the health of every card
from pasted ``nvidia-smi -q``, ``npu-smi info`` (Ascend), ``rocm-smi`` (AMD) or ``dmesg`` (Xid lines).

The tool is recognised from the text. Text output: the verdict, problems first; ``--json``: the parsed cards
(``gpus`` / ``npus`` / ``amd``), ``xids``, ``verdict`` and ``findings``. ``--plan``/``--gpu`` give the catalog GPU
(TDP for power caps, the expected model, the CUDA version it needs). Exit codes: 0 checked, 1 with ``--strict``
when a finding is "bad", 2 unreadable input (one line naming the line).
"""

from __future__ import annotations


from ._args import read_input, strict_json
from ._lang import msg, translate
from ..core.i18n import QT_TRANSLATE_NOOP
from ..formatting import plural_s

CTX = "CLI"

_MARK = {"ok": "[ok]  ", "info": "[info]", "warn": "[warn]", "bad": "[BAD] "}


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "health", help=QT_TRANSLATE_NOOP("CLI", "check every card's health from nvidia-smi -q, npu-smi info, rocm-smi or dmesg output"),
        description=QT_TRANSLATE_NOOP("CLI", "Temperatures, throttling, power caps vs TDP, ECC / retired pages / remapped rows, Xid errors, "
        "processes already on the cards, driver and CUDA versions; problems first."))
    p.add_argument("file", metavar="FILE", help=QT_TRANSLATE_NOOP("CLI", "saved output (nvidia-smi -q, npu-smi info, rocm-smi, dmesg), or -"))
    p.add_argument("--dmesg", metavar="LOG", help=QT_TRANSLATE_NOOP("CLI", "also read Xid errors from this kernel log"))
    p.add_argument("--plan", metavar="PLAN", help=QT_TRANSLATE_NOOP("CLI", "scenario JSON or .gpuplan file: its GPU is the expected card"))
    p.add_argument("--gpu", metavar="ID", help=QT_TRANSLATE_NOOP("CLI", "the expected catalog GPU instead of a plan (e.g. h100-sxm-80gb)"))
    p.add_argument("--json", action="store_true", help=QT_TRANSLATE_NOOP("CLI", "print a JSON object"))
    p.add_argument("--strict", action="store_true", help=QT_TRANSLATE_NOOP("CLI", "exit 1 when a finding is 'bad'"))
    p.set_defaults(func=run)


def _read(path: str, what: str) -> bytes:
    from ..verify.health import MAX_CHARS, HealthError

    return read_input(path, MAX_CHARS, what, HealthError)


def run(args) -> int:
    from ..verify.health import check_health  # imported here: --help loads no verify/numpy

    gpu = args.gpu
    if gpu is not None:  # an unknown id is an error naming the catalog's close matches, never ignored
        from ..core.catalog_hw import get_gpu

        gpu = get_gpu(gpu).id
    if args.plan:
        from ..app.answer import answer

        gpu = answer(args.plan).plan_scenario.hardware.gpu  # the plan the file stands for
    dmesg = _read(args.dmesg, "kernel log") if args.dmesg else None
    rep = check_health(_read(args.file, "tool output"), gpu, dmesg)
    if args.json:
        print(strict_json(rep.to_json(), indent=2))
    else:
        kinds = {"nvidia": "nvidia-smi -q", "ascend": "npu-smi info", "amd": "rocm-smi",
                 "dmesg": translate(CTX, "kernel log")}
        cards = len(rep.gpus) or len(rep.npus) or len(rep.amd)
        head = (plural_s(translate(CTX, "{tool}: {n} card(s)"), cards).format(tool=kinds[rep.kind], n=cards)
                if rep.kind != "dmesg" else plural_s(translate(CTX, "{tool}: {n} Xid event(s)"), len(rep.xids)).format(
                    tool=kinds[rep.kind], n=len(rep.xids)))
        if rep.driver or rep.cuda:
            head += translate(CTX, ", driver {d}").format(d=rep.driver or "?") + (f", CUDA {rep.cuda}" if rep.cuda else "")
        print(head)
        print()
        for f in rep.findings:
            print(f"{_MARK[f.severity]} {msg(f.msg)}")
    return 1 if args.strict and rep.worst == "bad" else 0
