"""Acceptance test kit commands.

``gpuplanner kit FILE [-o kit.sh] [--nodes N]``
    Export the self-contained test script (bash + Python, PyTorch only) for a scenario or plan file.
    ``-o -`` (or no ``-o``) prints it to stdout. ``--nodes N`` (N ≥ 2) exports the multi-node kit instead
    (torchrun across N nodes; :mod:`gpuplanner.verify.multinode`).
``gpuplanner kit-import FILE RESULT.json [--json]`` (also ``gpuplanner kit FILE --import RESULT.json``)
    Read the script's JSON result, compare it with the plan and the catalog, and show the plan's time and
    cost before and after replacing the assumed MFU with the measured one.

Exit codes: 0 done, 1 the analysis found a "bad" item (``kit-import --strict``), 2 unreadable input.
"""

from __future__ import annotations

import os
import sys

# verify and io are imported by the run functions: ``gpuplanner --help`` and the other commands do not load them
from ._args import label as _lbl, ljust, positive_int, refuse_folder_output, rjust, strict_json
from . import _lang
from ._lang import translate
from ..core.errors import PlannerError
from ..core.i18n import QT_TRANSLATE_NOOP
from ..formatting import format_list, format_money, format_number, format_percent, format_sig, plural_s

CTX = "CLI"

_MARK = {"ok": "[ok]  ", "info": "[info]", "warn": "[warn]", "bad": "[BAD] "}


def register(sub) -> None:
    p = sub.add_parser("kit", help=QT_TRANSLATE_NOOP("CLI", "export the acceptance-test script for a rented server"),
                       description=QT_TRANSLATE_NOOP("CLI", "Write the self-contained acceptance-test script (bash + PyTorch) for the "
                       "plan's GPU and model shape. Run it on the server, then 'gpuplanner kit-import'."))
    p.add_argument("file", metavar="FILE", help=QT_TRANSLATE_NOOP("CLI", "scenario JSON or .gpuplan file"))
    p.add_argument("-o", "--output", metavar="KIT.sh", default="-", help=QT_TRANSLATE_NOOP("CLI", "output file (default: stdout)"))
    p.add_argument("--nodes", type=positive_int, metavar="N",
                   help=QT_TRANSLATE_NOOP("CLI", "export the multi-node kit for N nodes (torchrun; measures the network between nodes)"))
    p.add_argument("--import", dest="result", metavar="RESULT.json",
                   help=QT_TRANSLATE_NOOP("CLI", "instead of exporting: analyse this result (same as 'gpuplanner kit-import FILE RESULT.json')"))
    p.add_argument("--json", action="store_true", help=QT_TRANSLATE_NOOP("CLI", "with --import: print a JSON object"))
    p.add_argument("--strict", action="store_true", help=QT_TRANSLATE_NOOP("CLI", "with --import: exit 1 when something is flagged bad"))
    p.set_defaults(func=run_export)

    q = sub.add_parser("kit-import", help=QT_TRANSLATE_NOOP("CLI", "analyse an acceptance-test result and re-estimate with the measured MFU"),
                       description=QT_TRANSLATE_NOOP("CLI", "Compare the kit's JSON result with the plan and the catalog; show time and "
                       "cost before and after using the measured MFU."))
    q.add_argument("file", metavar="FILE", help=QT_TRANSLATE_NOOP("CLI", "scenario JSON or .gpuplan file"))
    q.add_argument("result", metavar="RESULT.json", help=QT_TRANSLATE_NOOP("CLI", "the kit's result file"))
    q.add_argument("--json", action="store_true", help=QT_TRANSLATE_NOOP("CLI", "print a JSON object"))
    q.add_argument("--strict", action="store_true", help=QT_TRANSLATE_NOOP("CLI", "exit 1 when the analysis flags something as bad"))
    q.set_defaults(func=run_import)


def run_export(args) -> int:
    if getattr(args, "result", None):
        return run_import(args)
    from ..app.answer import answer
    from ..io.planfile import check_not_input, write_output
    from ..verify.acceptance import render_kit

    if getattr(args, "json", False) or getattr(args, "strict", False):  # "with --import" (their help): an export prints no JSON and flags nothing
        raise PlannerError(translate(CTX, "--json and --strict go with --import RESULT.json"))
    if args.output not in ("-", ""):
        refuse_folder_output(args.output)  # "-o out/": a folder, not a file named "out" (ux27)
        check_not_input(args.output, args.file)  # never the scenario or plan it reads (probe15)
    ans = answer(args.file)  # the plan the file stands for (app.answer.decide)
    scenario, base = ans.plan_scenario, ans.models
    nodes = getattr(args, "nodes", None)
    from ..core.catalog_hw import lookup_gpu

    vendor = lookup_gpu(scenario.hardware.gpu, scenario.hardware.custom_gpus).vendor
    if vendor not in ("NVIDIA", "custom") and not nodes:
        nodes = 1  # AMD / Ascend / others: the torchrun kit, which picks ROCm or torch_npu (the single-node kit is CUDA-only)
    if nodes and (nodes > 1 or vendor not in ("NVIDIA", "custom")):
        from ..verify.multinode import render_multinode_kit

        text = render_multinode_kit(scenario, nodes, base_dir=base)
    else:
        text = render_kit(scenario, base_dir=base)
    if args.output in ("-", ""):
        sys.stdout.write(text)
        return 0
    # atomically (temp file, fsync, rename): a full disk or a read-only folder leaves no truncated kit.sh
    # (a truncated script can still pass 'bash -n'); an older kit.sh there stays as it was
    write_output(args.output, text.encode("utf-8"), mode=0o755)
    if nodes and (nodes > 1 or vendor not in ("NVIDIA", "custom")):
        print(translate(CTX, "wrote {path}: copy it to the {n} nodes and run '{cmd}' for the command on each "
                                   "node").format(path=args.output, n=nodes,
                                                  cmd=f"bash {os.path.basename(args.output)} --master ADDRESS_OF_NODE_0"),
              file=sys.stderr)
        return 0
    print(translate(CTX, "wrote {path}: run '{cmd}' on the server ('--cpu' for a quick check without "
                               "GPUs)").format(path=args.output, cmd=f"bash {os.path.basename(args.output)}"),
          file=sys.stderr)
    return 0


def _fmt(v, decimals: int, width: int = 0, none: str = "—") -> str:
    """A right-aligned table cell through the one formatter (``—`` when unknown)."""
    return (none if v is None else format_number(v, decimals)).rjust(width)


def _num(v: float, width: int) -> str:
    """Small values (CPU runs) keep three significant digits instead of printing 0.0."""
    return (format_sig(v, 3) if abs(v) < 10 else format_number(v, 1)).rjust(width)


def run_import(args) -> int:
    from ..app.answer import answer
    from ..verify.acceptance import analyse, before_after, load_kit_result

    ans = answer(args.file)  # the plan the file stands for (app.answer.decide)
    scenario, base = ans.plan_scenario, ans.models
    from ..verify.multinode import SCHEMA as MN_SCHEMA, result_schema

    if result_schema(args.result) == MN_SCHEMA:
        return _run_import_multinode(args, scenario)
    result = load_kit_result(args.result)
    a = analyse(result, scenario, base_dir=base)
    ba = before_after(scenario, a, base) if a.measured_mfu is not None else None
    if args.json:
        out = {"analysis": a.to_json(), "before_after": ba,
               "server": {"host": result.host, "gpus": [g.name for g in result.gpus], "driver": result.driver,
                          "cuda": result.cuda, "mode": result.mode}}
        print(strict_json(out, indent=2))
        return 1 if args.strict and a.worst == "bad" else 0
    low = translate(CTX, "LOW")
    lines = [_lbl(translate(CTX, "Server")) + plural_s(translate(CTX, "{host}: {n} GPU(s) {names}"), len(result.gpus)).format(
                 host=result.host or "?", n=len(result.gpus),
                 names=", ".join(sorted({g.name for g in result.gpus})) or "").rstrip(),
             _lbl(translate(CTX, "Versions")) + translate(CTX, "driver {d}, CUDA {c}, torch {t} ({mode})").format(
                 d=result.driver or "?", c=result.cuda or "?", t=result.torch or "?", mode=result.mode or "?"), ""]
    if a.matmul:
        lines.append(_lbl(translate(CTX, "Matmul")) + "GPU   TFLOPS    " + translate(CTX, "peak") + "   " + translate(CTX, "share"))
        for m in a.matmul:
            lines.append(f"             {'cpu' if m.gpu is None else m.gpu:>3} {_num(m.tflops, 8)} {_fmt(m.peak, 0, 7)}"
                         f"  {_fmt(m.ratio and m.ratio * 100, 1, 5)}%{'  ' + low if m.low else ''}")
    if a.allreduce:
        lines.append(_lbl(translate(CTX, "All-reduce")) + "GPUs  busbw GB/s  " + translate(CTX, "reference") + "  " + translate(CTX, "share"))
        for b in a.allreduce:
            lines.append(f"             {b.n:>4} {_num(b.busbw_gbs, 11)} {_fmt(b.reference_gbs, 0, 10)}"
                         f"  {_fmt(b.ratio and b.ratio * 100, 1, 5)}%{'  ' + low if b.low else ''}")
    if a.scaling:
        lines.append(_lbl(translate(CTX, "Scaling")) + "GPUs   tokens/s     " + translate(CTX, "linear") + "  " + translate(CTX, "efficiency")
                     + "   MFU")
        for p in a.scaling:
            lines.append(f"             {p.n:>4} {_fmt(p.tokens_per_s, 0, 10)} {_fmt(p.linear, 0, 10)}  {format_percent(p.efficiency, 1):>10}"
                         f"  {'  —' if not p.mfu else format_sig(p.mfu * 100)}%")
    if a.power:
        lines.append(_lbl(translate(CTX, "Power")) + "GPU   " + translate(CTX, "draw W") + "   TDP W  " + translate(CTX, "limit W") + "  "
                     + translate(CTX, "share"))
        for p in a.power:
            lines.append(f"             {p.gpu:>3} {_fmt(p.draw_w, 0, 8)} {_fmt(p.tdp_w, 0, 7)} {_fmt(p.limit_w, 0, 8)}"
                         f"  {_fmt(p.ratio and p.ratio * 100, 1, 5)}%{'  ' + low if p.low else ''}")
    lines.append("")
    for f in a.findings:
        lines.append(f"{_MARK[f.severity]} {_lang.msg(getattr(f, 'msg', None) or f.text)}")
    if ba is not None:
        b, c = ba["before"], ba["after"]
        cur = b["currency"]
        lines += ["", _lbl(translate(CTX, "Plan")) + translate(CTX, "before      after (measured MFU)")]
        rows = [("MFU", "mfu", lambda v: format_sig(v * 100) + "%"),
                (translate(CTX, "tokens/s/GPU"), "tokens_per_s_per_gpu", lambda v: format_number(v, 0)),
                (translate(CTX, "days"), "compute_days", lambda v: format_number(v, 2)),
                # the unit the price is quoted in, one name in one formula (cli18: "GPU-hours × ¥1.98 per card-hour")
                (translate(CTX, "card-hours"), "gpu_hours", lambda v: format_number(v, 0)),
                (translate(CTX, "cost ({currency})").format(currency=cur), "cost", lambda v: format_number(v, 0))]
        for label, key, f in rows:
            lines.append(f"  {ljust(label, 12)}{(f(b[key]) if b[key] is not None else '—'):>10}  "
                         f"{(f(c[key]) if c[key] is not None else '—'):>10}")
        if b["cost"] is not None:
            lines.append("  " + translate(CTX, "(cost = card-hours × {price} per card-hour, no overheads)").format(
                price=format_money(b["card_hour"], cur, decimals=2)))
    print("\n".join(lines))
    return 1 if args.strict and a.worst == "bad" else 0


#: what the multi-node kit's measurement scopes are called (verify/multinode: scaling "gpus"/"nodes", the
#: inter-node all-reduce "inter" (one GPU per node) and "world" (every GPU))
_SCOPES = {"gpus": QT_TRANSLATE_NOOP(CTX, "in one node"), "nodes": QT_TRANSLATE_NOOP(CTX, "across nodes"),
           "inter": QT_TRANSLATE_NOOP(CTX, "one GPU per node"), "world": QT_TRANSLATE_NOOP(CTX, "every GPU")}


def _scope(key: str) -> str:
    return translate(CTX, _SCOPES[key]) if key in _SCOPES else str(key)


def _multinode_lines(result, a, ba) -> list[str]:
    """The text report of a multi-node kit result, in the CLI's language (labels and sentences translated, every
    number through the formatter)."""
    lines = [_lbl(translate(CTX, "Cluster")) + plural_s(translate(
                 CTX, "{nodes} node(s) × {per} ({device}, {backend}), torch {torch}"), result.nodes).format(
                 nodes=result.nodes, per=result.gpus_per_node, device=result.device or "?",
                 backend=result.backend or "?", torch=result.torch or "?"),
             _lbl(translate(CTX, "Plan network")) + translate(CTX, "{network} × {n} per node").format(
                 network=a.network or "?", n=format_sig(a.nics_per_node or 0, 6)), ""]
    if a.transports:
        lines.append(_lbl(translate(CTX, "Transport")) + ", ".join(f"{h}: {t or '?'}" for h, t in a.transports.items()))
    if a.intra_busbw_gbs is not None:
        lines.append(_lbl(translate(CTX, "Intra-node")) + translate(CTX, "all-reduce bus bandwidth {bw} GB/s").format(
            bw=_num(a.intra_busbw_gbs, 0).strip()))
    for c in a.inter:
        lines.append(_lbl(translate(CTX, "Inter-node")) + translate(
            CTX, "{scope}: all-reduce {size} MiB, bus bandwidth {bw} GB/s (runs {runs}); NICs {nics} GB/s, plan "
                 "{plan} GB/s").format(scope=_scope(c.scope), size=format_sig(c.size_bytes / 2**20, 6),
                                       bw=_num(c.busbw_gbs, 0).strip(), runs=format_list(_num(r, 0).strip() for r in c.runs),
                                       nics=_fmt(c.achievable_gbs, 0), plan=_fmt(c.plan_gbs, 0)))
    if a.scaling:
        lines.append(_lbl(translate(CTX, "Scaling")) + ljust(translate(CTX, "scope"), 16) + rjust(translate(CTX, "GPUs"), 6)
                     + rjust(translate(CTX, "tokens/s"), 11) + rjust(translate(CTX, "efficiency"), 12))
        for p in a.scaling:
            lines.append(_lbl("") + ljust(_scope(p["scope"]), 16) + f"{p['n']:>6} {_fmt(p['tokens_per_s'], 0, 10)}"
                         f"  {format_percent(p['efficiency'], 1):>10}")
    if a.probe is not None:
        lines.append(_lbl(translate(CTX, "Op probe")) + translate(
            CTX, "{ops} operators on {device}, {failed} failed, {cpu} on CPU").format(
                ops=a.probe.get("ops", 0), device=a.probe.get("device"), failed=len(a.probe.get("failed") or []),
                cpu=len(a.probe.get("cpu_fallback") or [])))
    lines.append("")
    for f in a.findings:
        lines.append(f"{_MARK[f.severity]} {_lang.msg(getattr(f, 'msg', None) or f.text)}")
    if ba is not None:
        b, c = ba["before"], ba["after"]
        lines += ["", translate(CTX, "Plan with the measured network (= {n} × {network} per node)").format(
            n=ba["effective_nics_per_node"], network=ba["network"]),
                  " " * 16 + rjust(translate(CTX, "before"), 10) + "  " + rjust(translate(CTX, "after"), 10)]
        for label, key, f in ((translate(CTX, "tokens/s/GPU"), "tokens_per_s_per_gpu", lambda v: format_number(v, 0)),
                              (translate(CTX, "days"), "compute_days", lambda v: format_number(v, 2)),
                              (translate(CTX, "cost ({currency})").format(currency=b["currency"]), "cost",
                               lambda v: format_number(v, 0))):
            lines.append(f"  {ljust(label, 14)}{(f(b[key]) if b[key] is not None else '—'):>10}  "
                         f"{(f(c[key]) if c[key] is not None else '—'):>10}")
    return lines


def _run_import_multinode(args, scenario) -> int:
    from ..verify.acceptance import _figures
    from ..verify.multinode import analyse_multinode, load_multinode_result, measured_network_scenario

    result = load_multinode_result(args.result)
    a = analyse_multinode(result, scenario)
    ba = None
    measured = measured_network_scenario(scenario, a)
    if measured is not None:
        new, nics = measured
        ba = {"before": _figures(scenario, None), "after": _figures(new, None), "effective_nics_per_node": nics,
              "network": a.network}
    if args.json:
        out = {"analysis": a.to_json(), "before_after": ba,
               "server": {"nodes": result.nodes, "gpus_per_node": result.gpus_per_node, "device": result.device,
                          "backend": result.backend, "hosts": [h.host for h in result.hosts]}}
        print(strict_json(out, indent=2))
        return 1 if args.strict and a.worst == "bad" else 0
    lines = _multinode_lines(result, a, ba)
    print("\n".join(lines))
    return 1 if args.strict and a.worst == "bad" else 0
