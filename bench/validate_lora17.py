"""PowerLM-3B LoRA with and without the HF Trainer's ``--bf16``: fms-acceleration's two Granite runs (not fitted).

Usage: python bench/validate_lora17.py [--fragment] [--write-before FILE]

Issue 35 round 17 (lora17). foundation-model-stack/fms-acceleration committed ``scripts/benchmarks/refs/
a100_80gb_granite.csv`` twice with the same harness, model and per-device batches:

* ff14d4f (2024-10-01, #86): every row ran with ``bf16: True`` — the CSV has no ``bf16`` column because
  ``display_bench_results.py`` (``gather_report(raw=False)``: ``df.loc[:, nunique != 1]``) drops a column every row
  shares, and ``scenarios-granite.yaml`` of that commit sets ``bf16: True`` in "standard-peft", "full-finetuning"
  and "baseline-peft-bnb" alike.
* fc78b55 (2024-10-18, #90; the rows ``bench/validate_ft_oos17.py`` scores): its ``bf16`` column is empty on the
  "standard-peft" and full rows and ``True`` on "baseline-peft-bnb".

So the four "standard-peft" (LoRA r 16, alpha 16, dropout 0.1 on q/k/v/o) rows exist with autocast (ff14d4f, scored
here, ``training.mixed_precision_off`` false) and without (fc78b55, ftoos17's entry with the switch): the
difference is the published cost of the HF Trainer without ``--bf16`` at the same everything else, the check of
``flops.LORA_NO_AUTOCAST_*`` (PEFT's fp32 adapters without autocast), of ``timing.lora_gemm_roofline`` (their fp32
GEMMs on the CUDA cores) and of the FSDP1-without-MixedPrecision casts (``timing.time_layout`` ``fp32_units``).
Repeatability: the "baseline-peft-bnb" rows, the same settings in both commits, differ by 0.3% / 0.2% on one GPU and
1.7% / 3.3% on two (391.29 → 390.28 s, 760.37 → 759.01, 220.95 → 217.32, 336.50 → 325.63). Not scored from
ff14d4f: the full rows (the two-GPU ones peak at 35.2 GB, the one-GPU figure: not sharded as at fc78b55's 17.6 GB,
so a different setup; the one-GPU ones repeat fc78b55's within 0.5%), the QLoRA rows (repeats of fc78b55's).
Error = published / predicted − 1 (+ = predicted too fast).
"""

from __future__ import annotations

import dataclasses
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for _p in (str(ROOT), str(ROOT / "bench")):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import validate_ft_oos17 as v17  # noqa: E402
import validate_ft_tools as vft  # noqa: E402

SRC = ("foundation-model-stack/fms-acceleration scripts/benchmarks/refs/a100_80gb_granite.csv @ff14d4f (all rows "
       "bf16: True) against the same file @fc78b55 (standard-peft without bf16)")
#: ff14d4f "standard-peft" rows: (GPUs, per-device batch, train_runtime s, train_tokens_per_second), as in the CSV
ROWS_BF16 = ((1, 4, 310.9178, 5269.56), (2, 2, 215.9738, 3793.053), (1, 8, 611.955, 5354.642),
             (2, 4, 332.7819, 4923.344))
BEFORE = ROOT / "bench" / "data" / "lora17_before.json"


def vrow(gpus: int, b: int, bf16: bool) -> vft.Row:
    """ftoos17's entry of the row; ``bf16``: the Trainer's autocast on (``mixed_precision_off`` false)."""
    r = v17.vrow("none-lora", gpus, b, "step", 1.0)
    return dataclasses.replace(r, training={**r.training, "mixed_precision_off": not bf16})


def row_id(gpus: int, b: int) -> str:
    return f"PowerLM-3B lora b{b} × {gpus} GPU"


def _no_bf16() -> dict[tuple[int, int], float]:
    return {(g, b): rt / v17.STEPS for c, g, b, rt, _p in v17.ROWS if c == "none-lora"}


def results() -> list[tuple[str, float, float, float, float]]:
    """(row id, published s/step with bf16, predicted, published without bf16, predicted)."""
    off = _no_bf16()
    return [(row_id(g, b), rt / v17.STEPS, vft.predict(vrow(g, b, True)), off[(g, b)], vft.predict(vrow(g, b, False)))
            for g, b, rt, _tps in ROWS_BF16]


def errors(res=None) -> dict[str, dict[str, float]]:
    res = res or results()
    return {"time": {rid: pub / pred - 1.0 for rid, pub, pred, _o, _po in res},
            "delta": {rid: (o - pub) - (po - pred) for rid, pub, pred, o, po in res}}


def lines() -> list[str]:
    before = json.loads(BEFORE.read_text(encoding="utf-8")) if BEFORE.exists() else {}
    res = results()
    out = ["| row | published s/step (bf16) | predicted | error | main | published without bf16 − with | predicted "
           "| model − published |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for rid, pub, pred, o, po in res:
        was = before.get("time", {}).get(rid)
        out.append(f"| {rid} | {pub:.2f} | {pred:.2f} | {pub / pred - 1:+.1%} | "
                   f"{'' if was is None else f'{was:+.1%}'} | {o - pub:+.3f} | {po - pred:+.3f} | "
                   f"{(po - pred) - (o - pub):+.3f} |")
    out.append("")
    for name, keep in (("all", lambda r: True), ("one GPU", lambda r: r.endswith("× 1 GPU")),
                       ("FSDP, 2 GPUs", lambda r: r.endswith("× 2 GPU"))):
        e = [v for k, v in errors(res)["time"].items() if keep(k)]
        med, p90 = statistics.median(abs(x) for x in e), max(abs(x) for x in e)
        out.append(f"- time with bf16, {name}: {len(e)} rows; median |error| {med:.1%}, max {p90:.1%}, signed "
                   f"median {statistics.median(e):+.1%}")
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--write-before" in argv:
        path = Path(argv[argv.index("--write-before") + 1])
        path.write_text(json.dumps(errors(), indent=1) + "\n", encoding="utf-8")
        print(f"wrote {path}")
        return 0
    body = lines()
    if "--fragment" in argv:
        body = ["<!-- issue 35 round 17, lora17: bench/validate_lora17.py --fragment -->",
                "#### IBM fms-acceleration Granite benchmark: PowerLM-3B LoRA with and without --bf16 (lora17)", "",
                f"Out of sample. Source: {SRC}. Error = published / predicted − 1 (+ = predicted too fast). The "
                "difference columns: the run without bf16 less the run with it, seconds per step.", ""] + body
    print("\n".join(body))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
