"""``gpuplanner gpus``: list the accelerator catalog (ids to use in scenarios), as a table or JSON."""

from __future__ import annotations

import argparse
import sys

from typing import TYPE_CHECKING

from ..core.i18n import QT_TRANSLATE_NOOP

if TYPE_CHECKING:  # the catalog is loaded by run(), not by ``gpuplanner --help``
    from ..core.catalog_hw import GPU

_CTX = "gpus"
UNKNOWN = QT_TRANSLATE_NOOP(_CTX, "unknown")


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "gpus",
        help=QT_TRANSLATE_NOOP("CLI", "list the GPU catalog (dense TFLOPS, memory, links)"),
        description=QT_TRANSLATE_NOOP("CLI", "List the accelerators known to GPU Planner. TFLOPS are dense (no sparsity); "
        "'unknown' means the reference has no verified figure."),
    )
    p.add_argument("--json", action="store_true", help=QT_TRANSLATE_NOOP("CLI", "print the records as a JSON list"))
    p.set_defaults(func=run)


def _fmt(value, unit: str = "") -> str:
    if value is None:
        from ._lang import translate

        return translate(_CTX, UNKNOWN)
    from ..formatting import format_number

    # the catalog's figure as written (every decimal it has), grouped by the one formatter ("2,250", "1,307.4")
    decimals = 0 if float(value).is_integer() else len(repr(float(value)).split(".")[1])
    return f"{format_number(value, decimals)}{unit}"


def _link(g: GPU) -> str:
    if g.intra_node_link is None:
        return _fmt(None)
    bw = _fmt(None) if g.intra_node_bw_gbs is None else f"{_fmt(g.intra_node_bw_gbs)} GB/s"
    return f"{g.intra_node_link} {bw}"


def table_rows(gpus: list[GPU]) -> list[list[str]]:
    from ..formatting import gpu_display_name
    from ._lang import translate

    header = ["id", translate(_CTX, "name"), translate(_CTX, "memory GiB"), translate(_CTX, "BF16 TFLOPS (dense)"),
              translate(_CTX, "memory bandwidth TB/s"), translate(_CTX, "link (both directions)"), "TDP W"]
    rows = [header]
    for g in gpus:
        rows.append([g.id, gpu_display_name(g.name), _fmt(g.memory_gib), _fmt(g.bf16_tflops), _fmt(g.mem_bw_tbs), _link(g), _fmt(g.tdp_w)])
    return rows


def run(args: argparse.Namespace) -> int:
    from ..core.catalog_hw import load_gpus

    gpus = list(load_gpus().values())
    out = sys.stdout
    if args.json:
        from ._args import strict_json

        out.write(strict_json([g.to_dict() for g in gpus], indent=2) + "\n")  # allow_nan=False, as every --json
        return 0
    from ._args import display_width, ljust

    rows = table_rows(gpus)
    # columns by display width: a Chinese header or "未知" takes two columns a character
    widths = [max(display_width(r[i]) for r in rows) for i in range(len(rows[0]))]
    for n, r in enumerate(rows):
        out.write("  ".join(ljust(c, w) for c, w in zip(r, widths)).rstrip() + "\n")
        if n == 0:
            out.write("  ".join("-" * w for w in widths) + "\n")
    return 0
