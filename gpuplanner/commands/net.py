"""``gpuplanner net FILE [--json] [--plan PLAN | --network ID [--nics N]] [--topo TOPO] [--strict]``: check the
network between nodes from pasted ``ibstat`` / ``ibv_devinfo [-v]`` / ``ibstatus`` output.

FILE may be ``-`` for stdin. Text output: one row per HCA port and the verdict, problems first. ``--json``:
``ports`` (each ``device``, ``port``, ``link_layer`` = ``InfiniBand`` | ``Ethernet`` (RoCE) | null, ``state``,
``rate_gbps``), ``verdict`` (the sentences), ``findings`` (severity + sentence id + parameters), ``plan`` and
``affinity`` (with ``--topo``: the GPUs nearest to each NIC). Exit codes: 0 checked, 1 with ``--strict`` when a
finding is "bad", 2 unreadable input (one line naming the line of the file).
"""

from __future__ import annotations


from ..core.i18n import QT_TRANSLATE_NOOP
from ._args import MAX_NICS, int_in, read_input, strict_json
from ._lang import msg, translate

CTX = "CLI"

_MARK = {"ok": "[ok]  ", "info": "[info]", "warn": "[warn]", "bad": "[BAD] "}


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "net",
        help=QT_TRANSLATE_NOOP("CLI", "check the network between nodes from 'ibstat' or 'ibv_devinfo' output"),
        description=QT_TRANSLATE_NOOP("CLI", "Read pasted 'ibstat', 'ibv_devinfo [-v]' or 'ibstatus' output (a file, or - for stdin): per "
        "HCA port the link layer (InfiniBand or Ethernet = RoCE), state and rate, judged against the plan's "
        "inter-node network."),
    )
    p.add_argument("file", metavar="FILE", help=QT_TRANSLATE_NOOP("CLI", "saved output of ibstat / ibv_devinfo, or - for stdin"))
    p.add_argument("--json", action="store_true", help=QT_TRANSLATE_NOOP("CLI", "print ports and verdict as JSON"))
    p.add_argument("--plan", metavar="PLAN", help=QT_TRANSLATE_NOOP("CLI", "scenario JSON or .gpuplan file: check against its network"))
    p.add_argument("--network", metavar="ID", help=QT_TRANSLATE_NOOP("CLI", "the promised network instead of a plan (e.g. ib-ndr-400, roce-400)"))
    p.add_argument("--nics", type=int_in(1, MAX_NICS), metavar="N", help=QT_TRANSLATE_NOOP("CLI", "with --network: NICs per node on the network between GPUs (not storage or management)"))
    p.add_argument("--topo", metavar="TOPO", help=QT_TRANSLATE_NOOP("CLI", "'nvidia-smi topo -m' output of the same node: NIC-to-GPU affinity"))
    p.add_argument("--strict", action="store_true", help=QT_TRANSLATE_NOOP("CLI", "exit 1 when a finding is 'bad'"))
    p.set_defaults(func=run)


def _read(path: str, what: str) -> bytes:
    from ..verify.network import MAX_CHARS, NetworkError

    return read_input(path, MAX_CHARS, what, NetworkError)


def run(args) -> int:
    # imported here: --help loads no verify/numpy
    from ..verify.network import diagnose_network, format_ports, parse_ports, plan_network, planned_network

    ports = parse_ports(_read(args.file, "ibstat/ibv_devinfo output"))
    plan = None
    if args.plan:
        from ..io.scenario_files import load_scenario

        scenario, _ = load_scenario(args.plan)
        plan = plan_network(scenario)
    elif args.network:
        plan = planned_network(args.network, args.nics, source="command line")
    topo = None
    if args.topo:
        from ..verify.topology import parse_topo

        topo = parse_topo(_read(args.topo, "nvidia-smi topo -m output"))
    rep = diagnose_network(ports, plan, topo)
    if args.json:
        print(strict_json(rep.to_json(), indent=2))
    else:
        print(format_ports(ports))
        if plan is not None:
            print("\n" + translate(CTX, "plan: {n} × {name} per node ({source})").format(
                n=plan.nics, name=plan.name, source=plan.source or translate(CTX, "plan")))
        print()
        for f in rep.findings:
            print(f"{_MARK[f.severity]} {msg(f.msg)}")
    return 1 if args.strict and rep.worst == "bad" else 0
