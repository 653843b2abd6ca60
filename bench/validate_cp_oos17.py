"""Issue 35 round 17 (helper cp17): what the context-parallel rings execute per ring step, priced, before → after on
every held CP row.

Usage: python bench/validate_cp_oos17.py

Error = predicted / published − 1 in tokens/s per GPU (+ = the model is too fast). ``BEFORE`` holds main c40703b7
(this round's base), recorded before the change. Rows: round 16's scoreboard (``bench/validate_cp_oos16.py``: the
torchtitan and Accelerate/TRL rows on torch's ring, the NeMo H100/B200 long-sequence rows on Transformer Engine's
ring), round 17's NeMo Mixtral-8x22B 64k CP 8 VP 14 rows (``bench/validate_moe_oos17.py``) and Llama 3 Table 4's
CP 16 row (shown, not in the medians, as in round 16).

The change (``core/timing.py``): Transformer Engine's p2p ring (``AttnFuncWithCPAndKVP2P``,
NVIDIA/TransformerEngine 015d2257 ``transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py``)
now carries (1) its memory-bound work outside the attention kernels — the forward's per-step output corrections,
the backward's dQ/dK/dV accumulations and the half-chunk ``.contiguous()`` copies of the load-balanced steps
(``te_cp_merge_bytes``, ``TE_CP_*`` constants), and (2) its exposure pass by pass (``_te_cp_exposure``): each ring
step hides its exchange under its own kernel only, so a forward step cannot borrow the backward's slack. torch's
ring (rounds 7–8: ``cp_merge_bytes``, ``_torch_cp_exposure``) is unchanged. The column ``TE ring work`` is the new
memory-bound part as a share of the predicted step.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for _p in (ROOT, ROOT / "bench"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

#: main c40703b7, before this round: error per row (validate_cp_oos16.BEFORE holds the 21 round-16 rows; the two
#: Mixtral rows are validate_moe_oos17.BEFORE's 3,279 / 2,232 and 3,571 / 2,731)
MOE_BEFORE = {"25.02 B200 Mixtral-8x22B 64k CP8": 3279 / 2232 - 1, "25.04 GB200 Mixtral-8x22B 64k CP8": 3571 / 2731 - 1}


def moe_rows() -> list[tuple[str, str, float, float]]:
    """(family, label, error, TE ring work share of the step) of the two Mixtral-8x22B 64k CP 8 rows."""
    import validate_moe_oos17 as moe

    out = []
    for row in moe.ROWS:
        if row[11] > 1:
            tps, step, _top, t = moe.predict(row)
            out.append(("TE p2p ring, MoE VP 14 (megatron)", row[0], tps / row[-1] - 1,
                        t.parts.get("cp_merge", 0.0) / step))
    return out


def _p90(errs: list[float]) -> float:
    a = sorted(abs(e) for e in errs)
    return a[int(0.9 * (len(a) - 1) + 0.5)]


def all_rows() -> list[tuple[str, str, float, float | None]]:
    """Every held CP row: (family, label, error now, before)."""
    import validate_cp_oos16 as cp16

    rows = [(f, lbl, e, cp16.BEFORE[lbl]) for f, lbl, e in cp16.torch_ring_rows() + cp16.te_ring_rows()]
    rows += [(f, lbl, e, MOE_BEFORE[lbl]) for f, lbl, e, _w in moe_rows()]
    return rows


def main() -> int:
    import validate_cp_oos16 as cp16

    rows = all_rows()
    work = {lbl: w for _f, lbl, _e, w in moe_rows()}
    print("| family | row | before | after |\n|---|---|---:|---:|")
    for fam, lbl, err, before in rows:
        extra = f" (TE ring work {work[lbl]:.1%} of the step)" if lbl in work else ""
        print(f"| {fam} | {lbl}{extra} | {before:+.1%} | {err:+.1%} |")
    print("\n| family | rows | before median / p90 | after median / p90 |\n|---|---:|---:|---:|")
    for fam in dict.fromkeys(f for f, *_r in rows):
        after = [e for f, _l, e, _b in rows if f == fam]
        before = [b for f, _l, _e, b in rows if f == fam]
        print(f"| {fam} | {len(after)} | {statistics.median(abs(e) for e in before):.1%} / {_p90(before):.1%} | "
              f"{statistics.median(abs(e) for e in after):.1%} / {_p90(after):.1%} |")
    print("\n" + cp16.llama3_cp_row() + " (before: VP 1: -35%, VP 4: +1%)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
