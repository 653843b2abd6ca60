"""The memory headroom every plan is checked against: which published peaks define it, and its value.

Usage: python bench/memory_margin.py            (prints every counted row, the left-out ones and the figure)
       python bench/mfu_ceilings.py --write-margin gpuplanner/resources/validation_bands.json   (writes it)

``core/advisor.memory_margin`` reads ``memory_margin.p75`` from ``gpuplanner/resources/validation_bands.json``: a plan's
predicted peak must stay below (1 − margin) of the card. The margin is the 75th percentile (nearest rank) of the memory
model's under-predictions on published peaks: rows whose published figure is above the prediction (the direction that
runs out of memory; an over-prediction leaves room), |predicted / published − 1|.

Which rows (issue 35 round 9): every published-peak table, each published figure once. A user's run is out of sample,
so the rows no constant was ever set on (the out-of-sample tables of rounds 6 and 8, the fine-tuning-tool,
LLaMA-Factory and post-training tables) count as much as the shared calibration table; the calibration table alone
(24 rows, 6 of them ZeRO's arithmetic, 16 torchtune README rows) is one tool and one source for most of its rows. The
rows are read from the validation scripts' own row functions and predicted with the same core calls those scripts
make, so this figure and the scripts' tables cannot disagree. Left out, each with its reason (``LEFT_OUT``):

* rows marked as data issues (D) in ``bench/validate_time.py`` ``OUT_OF_SCOPE`` (the same runs' published memory
  cannot be the recipe's: docs/validation_memory.md, "Where rows miss"), and any verl row ``rl_step_times``
  ``MEM_NOT_COUNTED`` lists (none since round 10: a logged figure above the card is vLLM's sleeping pool, counted);
* rows whose column is not a published peak against a prediction of it: ZeRO's Table 1 (model states computed from
  Ψ and N_d, not measured), the card-capacity rows (Unsloth docs "max context that fits", Liger README "16K fits":
  the card's 80 GB, not a peak);
* Megatron-LM's pipeline rows log the last rank: compared with the model's last-rank figure, as
  ``bench/validate_memory_oos8.py`` does (the busiest rank's figure is not a prediction of that published number).
"""

from __future__ import annotations

import importlib
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for _p in (ROOT, ROOT / "bench"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

#: row id → why it is not a prediction-vs-published-peak pair (beside the (D) and not-counted marks read from the
#: validation scripts)
CAPACITY_ROWS = {
    "unsloth-docs-hf-fa2-l31-8b-80gb": "the card's 80 GB (the longest context that fits), not a measured peak",
    "liger-readme-l3-8b-fsdp1-16k": "the card's 80 GB (16K 'scales up', fits), not a measured peak",
}
#: frameworks whose own rows' p75 ``main`` prints beside the figure (information, not written): Megatron-LM /
#: Megatron-Core meets its 26 published peaks within 2.9% where it under-predicts (p75 2.7%), but a margin that small
#: puts #1 plans at 93-97% of the card (issue 35 round 9 note: 4 × B200 at 175 of 180 GiB), which no engineer signs:
#: the rows are small controlled tests of the allocated peak, not a user's run. One margin for every framework.
BY_FRAMEWORK = ("megatron", "megatron-swift", "fsdp", "hf", "ms-swift")
SOURCE = ("bench/memory_margin.py: every published-peak table (bench/validate_memory.py calibration rows, "
          "pretrain_memory_rows.py, validate_memory_oos8.py, validate_ft_tools.py, validate_llamafactory.py, "
          "validate_post_memory.py, rl_step_times.py), each row once, (D) rows, model-state and card-capacity rows "
          "left out")
MEANING = "75th percentile (nearest rank) of the memory model's under-prediction on published peaks"


def nearest_rank(values: list[float], q: float) -> float:
    """The nearest-rank percentile: the smallest value with at least ``q`` of the values at or below it
    (rank ceil(q·n), 1-based). An empty list gives 0."""
    if not values:
        return 0.0
    s = sorted(values)
    return s[max(0, math.ceil(q * len(s)) - 1)]


def _calibration_rows() -> tuple[list[tuple], list[tuple[str, str]]]:
    """The shared calibration set's memory rows mapped in ``validate_memory.MAP`` (the ZeRO rows are arithmetic)."""
    import json

    vm = importlib.import_module("validate_memory")
    vt = importlib.import_module("validate_time")
    out, left = [], []
    for line in vm.CAL.read_text().splitlines():
        r = json.loads(line) if line.strip() else None
        if not r or "memory" not in r["category"]:
            continue
        if r["id"].startswith("zero-t1-"):
            left.append((r["id"], "ZeRO Table 1: model states computed from the formula, not a measured peak"))
        elif r["id"] in vm.MAP and r["peak_memory_per_gpu"] is not None:
            if vt.OUT_OF_SCOPE.get(r["id"]) == "D":
                left.append((r["id"], "(D) in bench/validate_time.py: the published run is not the recipe's"))
                continue
            over, kind = vm.MAP[r["id"]]
            out.append(("calibration", "shared calibration set", r["id"], vm.predicted_gib(r, over, kind),
                        vm.published_gib(r), over["training"].get("framework")))
    return out, left


def _pretrain_rows() -> list[tuple]:
    """torchtitan / torchao / Megatron-LM pretraining peaks (rounds 4, 6 and 11), each in the metric its source logs."""
    from gpuplanner.core.estimate import estimate
    from gpuplanner.core.scenario import scenario_from_dict

    pm = importlib.import_module("pretrain_memory_rows")
    out = []
    for fam, rid, sc, pub, _src in pm.rows() + pm.rows_r6() + pm.rows_r11():
        sc = {**sc, "assumptions": {"memory_metric": "reserved", **sc.get("assumptions", {})}}
        pred = estimate(scenario_from_dict(sc)).memory.metric(sc["assumptions"]["memory_metric"])
        out.append(("pretraining", fam, rid, pred, pub, sc["training"].get("framework")))
    return out


def _oos8_rows() -> list[tuple]:
    """Round 8's out-of-sample rows, each compared at the rank its source logs."""
    m = importlib.import_module("validate_memory_oos8")
    out = []
    for cat, fam, rid, sc, pub, _src in m.rows():
        last = m.last_rank(sc)
        out.append((cat, fam, rid, m.predict(sc) if last is None else last, pub, sc["training"].get("framework")))
    return out


def _tool_rows() -> tuple[list[tuple], list[tuple[str, str]]]:
    """Fine-tuning tools (memory rows), LLaMA-Factory issue readings, post-training (ms-swift, verl)."""
    ft = importlib.import_module("validate_ft_tools")
    lf = importlib.import_module("validate_llamafactory")
    pm = importlib.import_module("validate_post_memory")
    rl = importlib.import_module("rl_step_times")
    out, left = [], []
    for r in ft.all_rows():
        if r.kind != "memory":
            continue
        if r.id in CAPACITY_ROWS:
            left.append((r.id, CAPACITY_ROWS[r.id]))
            continue
        out.append(("fine-tuning", r.table, r.id, ft.predict(r), r.measured, r.training.get("framework")))
    for r, est, _err in lf.results():
        out.append(("fine-tuning", "LLaMA-Factory issue readings", r.id, est, r.measured_gib, "llamafactory"))
    for r in pm.all_rows():  # the Megatron-SWIFT SFT scripts sit in that table: fine-tuning runs
        cat = "fine-tuning" if r.table == "swift-megatron-sft" else "post-training"
        out.append((cat, r.table, r.id, pm.predict(r), r.measured, r.training.get("framework")))
    for rid, _src, scn, pub, _note, _counted in rl.ROWS:
        if "mem" not in pub:
            continue
        if rid in rl.MEM_NOT_COUNTED:
            left.append((rid, "not counted in bench/rl_step_times.py: " + rl.MEM_NOT_COUNTED[rid]))
            continue
        out.append(("post-training", "verl logs", rid, rl.predict(scn)["mem"], pub["mem"], scn["training"].get("framework")))
    return out, left


def margin_rows() -> tuple[list[tuple], list[tuple[str, str]]]:
    """(counted rows, left-out rows). A counted row is (category, family, id, predicted GiB, published GiB,
    ``training.framework`` of the row's scenario); each published figure once (a repeated (family, id) is dropped);
    left out: (id, reason)."""
    cal, left = _calibration_rows()
    tools, left2 = _tool_rows()
    seen, rows = set(), []
    for row in cal + _pretrain_rows() + _oos8_rows() + tools:
        if (row[1], row[2]) in seen:
            continue
        seen.add((row[1], row[2]))
        rows.append(row)
    return rows, left + left2


def under_predictions(rows: list[tuple]) -> list[tuple[float, str]]:
    """(|error|, id) of the rows whose published peak is above the prediction, smallest first."""
    return sorted((1.0 - r[3] / r[4], r[2]) for r in rows if r[3] < r[4])


def memory_margin(rows: list[tuple] | None = None) -> dict:
    """The ``memory_margin`` section of validation_bands.json, computed from the rows."""
    rows = margin_rows()[0] if rows is None else rows
    under = under_predictions(rows)
    p75 = nearest_rank([e for e, _ in under], 0.75)
    return {"p75": round(p75, 4), "rows_compared": len(rows), "rows_under": len(under),
            "rows": [rid for _e, rid in under], "source": SOURCE, "meaning": MEANING}


def main() -> int:
    rows, left = margin_rows()
    for cat, fam, rid, pred, pub, fw in rows:
        print(f"| {cat} | {fam} | {rid} | {fw} | {pub:.2f} | {pred:.2f} | {(pred / pub - 1) * 100:+.1f}% |")
    print("\nLeft out:")
    for rid, why in left:
        print(f"- {rid}: {why}")
    cats = sorted({r[0] for r in rows})
    for cat in cats + ["all"]:
        sub = [r for r in rows if cat in ("all", r[0])]
        under = under_predictions(sub)
        print(f"{cat}: {len(sub)} rows, {len(under)} under-predicted, nearest-rank p75 of the under-predictions "
              f"{nearest_rank([e for e, _ in under], 0.75) * 100:.1f}%")
    for fw in BY_FRAMEWORK:  # information only (see BY_FRAMEWORK)
        sub = [r for r in rows if r[5] == fw]
        under = under_predictions(sub)
        print(f"framework {fw}: {len(sub)} rows, {len(under)} under-predicted, p75 "
              f"{nearest_rank([e for e, _ in under], 0.75) * 100:.1f}%")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
