"""Issue 35 round 11 (memoos11): Megatron-LM's Mixtral release tests' logged peaks, out of sample.

Per row: the published 'mem-max-allocated-bytes' (GiB), the figure main compared before this round (max allocated
on the busiest rank: ``memory_metric`` "allocated"), the last pipeline rank's figure (``allocated_last``: the rank
Megatron-LM's tensorboard writer is on), and error = published / predicted − 1. Rows: bench/pretrain_memory_rows.py
``rows_r11``. ``--fragment`` prints the Markdown section for bench/data/memoos11.md.
"""

from __future__ import annotations

import importlib.util
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gpuplanner.core.estimate import estimate  # noqa: E402
from gpuplanner.core.scenario import scenario_from_dict  # noqa: E402


def _rows_module():
    spec = importlib.util.spec_from_file_location("pretrain_memory_rows_oos11", Path(__file__).with_name(
        "pretrain_memory_rows.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _p90(errs: list[float]) -> float:
    e = sorted(abs(x) for x in errs)
    return e[min(len(e) - 1, int(round(0.9 * (len(e) - 1))))]


def results() -> list[tuple[str, str, float, float, float]]:
    """(family, row, published GiB, busiest-rank allocated GiB, last-rank allocated GiB)."""
    out = []
    mod = _rows_module()
    for fam, rid, sc, pub, _src in mod.rows_r11():
        mem = estimate(scenario_from_dict(sc)).memory
        out.append((fam, rid, pub, mem.metric("allocated"), mem.metric("allocated_last")))
    return out


def lines() -> list[str]:
    res = results()
    out = ["| row | published GiB | busiest rank (before) | last rank (after) | error before → after |",
           "|---|---:|---:|---:|---|"]
    before, after = [], []
    for _fam, rid, pub, busy, last in res:
        before.append(pub / busy - 1)
        after.append(pub / last - 1)
        out.append(f"| {rid} | {pub:.2f} | {busy:.2f} | {last:.2f} | {before[-1]:+.1%} → {after[-1]:+.1%} |")
    out += ["", f"{len(res)} rows: median |error| {statistics.median(abs(x) for x in before):.1%} → "
                f"{statistics.median(abs(x) for x in after):.1%}, p90 {_p90(before):.1%} → {_p90(after):.1%}"]
    return out


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    body = lines()
    if "--fragment" in argv:
        print("\n".join(["<!-- issue 35 round 11, memoos11: bench/validate_memory_oos11.py --fragment -->",
                         "## Megatron-LM Mixtral release tests: peak memory on the last pipeline rank (memoos11)", "",
                         "Out of sample: scored before any change (\"busiest rank\", what main compared), then with "
                         "`assumptions.memory_metric: allocated_last` (Megatron-LM logs 'mem-max-allocated-bytes' "
                         "from its tensorboard writer on rank world_size − 1, the last pipeline stage, which under "
                         "1F1B holds one micro-batch of its layers). Sources: bench/pretrain_memory_rows.py "
                         "`rows_r11`.", ""] + body))
    else:
        print("\n".join(body))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
