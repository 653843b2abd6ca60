"""Issue 35, round 11 (gemmtile11): per-row before/after of TensorRT-LLM's 64-row dense FP8 tile on Hopper
(``inference.DENSE_FP8_TILE_ROWS``) on servoos11's 201 TensorRT-LLM PyTorch-backend max-load rows. "Before" runs
the same code with the table emptied (every GEMM at ``timing.T0`` = 128 rows). Run:
``python bench/validate_gemm_tile_r11.py`` (``--fragment``: the markdown table only). Error = modelled / published − 1.
"""
from __future__ import annotations

import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import validate_serve_servoos11 as S  # noqa: E402

from gpuplanner.core import inference as inf  # noqa: E402


def both():
    """(source, label, published, modelled before, modelled after) of every servoos11 row (KV share 0.90)."""
    after = [(s, lab, pub, pred) for s, lab, pub, pred, _ in S.rows()]
    keep = inf.DENSE_FP8_TILE_ROWS
    inf.DENSE_FP8_TILE_ROWS = {}
    try:
        before = [pred for _, _, _, pred, _ in S.rows()]
    finally:
        inf.DENSE_FP8_TILE_ROWS = keep
    return [(s, lab, pub, b, a) for (s, lab, pub, a), b in zip(after, before)]


def _stats(errs):
    a = sorted(abs(e) for e in errs)
    return statistics.median(a), a[min(len(a) - 1, int(round(0.9 * (len(a) - 1))))], statistics.median(errs)


def main(argv):
    rs = both()
    print("| src | run | published tok/s | before (128 rows) | error | after (TRT Hopper FP8: 64 rows) | error |")
    print("|---|---|---|---|---|---|---|")
    for s, lab, pub, b, a in rs:
        print(f"| {s} | {lab} | {pub:,.0f} | {b:,.0f} | {b / pub - 1:+.1%} | {a:,.0f} | {a / pub - 1:+.1%} |")
    if "--fragment" in argv:
        return 0
    groups = {}
    for s, lab, pub, b, a in rs:
        key = s + " " + " ".join(lab.split()[:4])
        groups.setdefault(key, []).append((b / pub - 1, a / pub - 1))
    groups["all"] = [(b / pub - 1, a / pub - 1) for _, _, pub, b, a in rs]
    for k, v in groups.items():
        mb, pb, sb = _stats([x for x, _ in v])
        ma, pa, sa = _stats([y for _, y in v])
        print(f"{k}: {len(v)} rows, before median {mb:.1%} p90 {pb:.1%} signed {sb:+.1%} | "
              f"after median {ma:.1%} p90 {pa:.1%} signed {sa:+.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
