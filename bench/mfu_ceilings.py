"""Write the MFU ceilings: per GPU family × framework family × model size, the best published run.

Usage: python bench/mfu_ceilings.py [--write gpuplanner/resources/validation_bands.json]
       python bench/mfu_ceilings.py --write-margin gpuplanner/resources/validation_bands.json (memory_margin only)

A plan's modelled MFU is never used above the best utilisation a published run of its class reached
(``core/advisor.py``; issue 31: "MFU never above the best published run of its class"). The runs are the
throughput rows of ../shared/reference/calibration-runs.jsonl (each with its original source); a row's
utilisation is its MFU where the source gives one, else its HFU (Narayanan et al. 2021 print hardware FLOPs
with recomputation counted, an upper bound of the MFU). Classes:

* GPU family: ``ampere_dc`` (A100/A800: the same GA100 chip; A800 differs only in NVLink bandwidth) and
  ``hopper_dc`` (H100/H800/H200/H20: GH100); other cards have no published run in the set.
* framework family: ``megatron`` (Megatron-LM / Megatron-Core), ``fsdp`` (MosaicML llm-foundry / Composer FSDP).
* model size: ``le20b`` (dense ≤ 20B parameters) and ``gt20b`` (larger): small models reach higher MFU (wide
  matmuls per byte of communication, no pipeline), so one ceiling for both would let a 70B plan use a 7B run.

The ``_fallback`` rules (documented in core/advisor.py) cover the classes without a published run.
"""

from __future__ import annotations

import argparse
import re
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _cal_path() -> Path:
    for up in [ROOT, *ROOT.parents]:
        cand = up / "shared" / "reference" / "calibration-runs.jsonl"
        if cand.exists():
            return cand
    raise SystemExit("calibration-runs.jsonl not found")


def gpu_family(gpu_type: str) -> str | None:
    g = gpu_type.upper()
    if "A100" in g or "A800" in g:
        return "ampere_dc"
    if any(k in g for k in ("H100", "H800", "H200", "H20")):
        return "hopper_dc"
    return None


def fw_family(framework: str) -> str | None:
    f = framework.lower()
    if "megatron" in f:
        return "megatron"
    if "foundry" in f or "composer" in f:
        return "fsdp"
    return None


def _date(r: dict) -> str | None:
    """The date the source gives (a commit's or the paper's year)."""
    import re

    m = re.search(r"(20\d\d-\d\d-\d\d)", str(r.get("source_commit") or ""))
    m = m or re.search(r"\b(20\d\d)\b", str(r.get("source_title") or ""))
    m = m or re.search(r"(20\d\d-\d\d-\d\d)", str(r.get("source_locator") or ""))
    return m.group(1) if m else None


def ceilings(rows: list[dict]) -> dict:
    out: dict = {}
    for r in rows:
        util = r.get("mfu_pct") or r.get("hfu_pct")
        gf, ff = gpu_family(r.get("gpu_type") or ""), fw_family(r.get("framework") or "")
        if not util or gf is None or ff is None or not r.get("params_b"):
            continue
        size = "le20b" if float(r["params_b"]) <= 20 else "gt20b"
        key = f"{gf}/{ff}/{size}"
        if key in out and out[key]["mfu"] >= util / 100:
            continue
        out[key] = {
            "mfu": round(util / 100, 4), "metric": "mfu" if r.get("mfu_pct") else "hfu",
            "row": r["id"], "source": r["source_title"], "source_url": r.get("source_url"),
            "source_locator": r.get("source_locator"),
            "layout": f"{r['num_gpus']} GPUs, TP {r.get('tp') or 1} × PP {r.get('pp') or 1}, "
                      f"{r['params_b']}B, seq {r.get('seq_len')}",
            # the card as a plan's MFU-ceiling line names it ("H100", "A100-SXM 80GB"); the source's bracketed
            # remarks ("SXM, 80GB assumed; README says …", "DGX A100, Selene") stay in gpu_type_note, so a
            # Chinese plan does not print English prose from the data
            "gpu_type": re.sub(r"\s*\(.*\)\s*$", "", r["gpu_type"]).strip() or r["gpu_type"],
            "gpu_type_note": r["gpu_type"], "source_date": _date(r),
        }
    return dict(sorted(out.items()))


def memory_margin() -> dict:
    """The memory headroom a plan needs: the 75th percentile (nearest rank) of the memory model's under-predictions
    on published peaks (rows whose published figure is above the prediction: the direction that runs out of memory;
    an over-prediction leaves room). Which rows and why: ``bench/memory_margin.py`` (every published-peak table, each
    row once, computed from the validation scripts' row functions; issue 35 round 9). Before, this regex-parsed
    docs/validation_memory.md. Too few rows per framework family to split them: one margin for every family."""
    sys.path.insert(0, str(ROOT / "bench"))
    import memory_margin as mm

    return mm.memory_margin()


def write_sections(path: Path, **sections) -> None:
    """Rewrite ``sections`` of ``path`` (validation_bands.json), ``memory_margin`` always (:func:`memory_margin`);
    every other key is kept as it is, in its place."""
    full = json.loads(path.read_text())
    full.update(sections)
    full["memory_margin"] = memory_margin()
    path.write_text(json.dumps(full, indent=1, ensure_ascii=False) + "\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--write", type=Path)
    ap.add_argument("--write-margin", type=Path, help="rewrite only the memory_margin section of this file")
    a = ap.parse_args(argv)
    if a.write_margin:
        write_sections(a.write_margin)
        print(json.dumps(json.loads(a.write_margin.read_text())["memory_margin"], indent=1, ensure_ascii=False))
        return 0
    rows = [json.loads(line) for line in _cal_path().read_text().splitlines() if line.strip()]
    ceil = ceilings(rows)
    doc = {"_about": __doc__.split("\n\n")[0] + " Generated by bench/mfu_ceilings.py.", "ceilings": ceil}
    if a.write:
        write_sections(a.write, mfu_ceilings=doc)
    print(json.dumps(doc, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
