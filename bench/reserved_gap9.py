"""Reserved and device memory against allocated (issue 35 round 9, helper resv9). A validation table; nothing is fitted.

Usage: python bench/reserved_gap9.py

Two tables.

1. **Pairs**: every run in the bench tables whose source gives both the allocated peak
   (``torch.cuda.max_memory_allocated``) and the reserved peak (``torch.cuda.max_memory_reserved``) of the same run:
   - the 80 steps measured on one H100 (``bench/validate_h100_measured.py``, run 1: the HF training loop, PyTorch
     2.11, fixed lengths, expandable segments off);
   - Answer.AI's dual-3090 LoRA runs at batch 1 (``bench/validate_ft_oos9.py``: "8.28 GiB vs 9.16 GiB" allocated
     beside 10.24 / 10.22 GiB reserved; FSDP1 FULL_SHARD through their own loop, fixed lengths, expandable off);
   - verl's GPG run (``bench/validate_post_memory_oos9.py``: ``perf/max_memory_allocated_gb`` 66.1 and
     ``perf/max_memory_reserved_gb`` 99.2 at step 1; variable response lengths).
   For each: published reserved / allocated, the model's reserved / allocated, and both errors.
2. **Reserved-only rows** (the source prints one figure): the published reserved (or device) figure over the
   model's allocated peak, beside the model's own reserved (device) / allocated. The published ratio here carries
   the model's allocated error too, so it is a bound, not a measurement of the allocator.

Rows are grouped by tool, by whether ``expandable_segments`` is on (the scenario's value after defaults,
``memory.expandable_segments_default``) and by sample-length variability (``data.mean_sample_len`` below the
sequence: variable; otherwise fixed or packed).
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "bench"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))


def _breakdown(d: dict):
    from gpuplanner.core.estimate import memory_breakdown, resolve
    from gpuplanner.core.scenario import scenario_from_dict

    return memory_breakdown(resolve(scenario_from_dict(d)))


def _row_dict(row) -> dict:
    """The scenario dict the benches build from a ``validate_ft_tools.Row`` (or a subclass)."""
    return {"model": row.model, "training": row.training, "parallel": row.parallel,
            "hardware": {"gpu": row.gpu, "num_gpus": row.num_gpus}, "data": row.data,
            "assumptions": dict(getattr(row, "assumptions", {}) or {})}


def _expandable(d: dict) -> bool:
    from gpuplanner.core.memory import expandable_segments_default

    a = d.get("assumptions") or {}
    if a.get("expandable_segments") is not None:
        return bool(a["expandable_segments"])
    t = d.get("training") or {}
    return expandable_segments_default(t.get("framework", "hf"), t.get("fsdp_version", 2))


def _lengths(d: dict) -> str:
    t, data = d.get("training") or {}, d.get("data") or {}
    mean = data.get("mean_sample_len")
    if t.get("packing"):
        return "packed"
    return "variable" if mean and mean < t.get("seq_len", 0) else "fixed"


def pairs() -> list[dict]:
    """Runs with both peaks published: (tool, expandable, lengths, published alloc/reserved, modelled)."""
    import validate_h100_measured as vh
    import validate_ft_oos9 as o9
    import validate_post_memory_oos9 as pm9

    out = []
    run1 = vh.load()  # run 1: every family, allocator peaks (validate_h100_measured docstring)
    for it in vh.train_rows(run1):
        if "measured_alloc" not in it:
            continue
        out.append(dict(id=f"h100-{it['model']}-{it['mode']}-s{it['seq']}-b{it['mb']}-gc{int(it['gc'])}",
                        tool="HF loop, 1 GPU (measured H100)", expandable=False, lengths="fixed",
                        pub_alloc=it["measured_alloc"], pub_res=it["measured_reserved"],
                        mod_alloc=it["predicted_alloc"], mod_res=it["predicted_reserved"]))
    rows = {r.id: r for r in o9.all_rows()}
    for ctx in (512, 2048):
        res, alloc = rows[f"aai3090-l2-7b-lora-b1-{ctx}-mem"], rows[f"aai3090-l2-7b-lora-b1-{ctx}-alloc-mem"]
        d = _row_dict(res)
        m = _breakdown(d)
        out.append(dict(id=f"answerai-3090-lora-b1-{ctx}", tool="Answer.AI FSDP1 loop, 2 GPUs",
                        expandable=_expandable(d), lengths=_lengths(d), pub_alloc=alloc.measured,
                        pub_res=res.measured, mod_alloc=m.allocated, mod_res=m.reserved))
    verl = {rid: (scn, pub) for rid, _t, scn, pub, _m, _a in pm9._verl_scenarios()}
    if "verl-qwen2-7b-gpg-allocated" in verl:
        scn, pa = verl["verl-qwen2-7b-gpg-allocated"]
        pr = verl["verl-qwen2-7b-gpg-reserved"][1]
        m = _breakdown(scn)
        out.append(dict(id="verl-qwen2-7b-gpg", tool="verl FSDP (RL)", expandable=_expandable(scn),
                        lengths="variable", pub_alloc=pa, pub_res=pr, mod_alloc=m.metric("allocated"),
                        mod_res=m.metric("reserved")))
    return out


def single_rows() -> list[dict]:
    """Reserved-only (or device-only) rows: published figure / modelled allocated vs modelled figure / allocated."""
    import validate_ft_oos9 as o9
    import validate_ft_tools as vft
    import validate_post_memory as pm
    import validate_post_memory_oos9 as pm9

    out = []
    groups = [("ft_tools", vft.all_rows()), ("ft_oos9", o9.all_rows()), ("post_memory", pm.all_rows()),
              ("post_memory_oos9", pm9._swift_v3_rows() + pm9._swift_v2_rows())]
    for table, rows in groups:
        for r in rows:
            if r.kind != "memory" or r.metric not in ("reserved", "device") or getattr(r, "fused_qkv", False):
                continue
            d = _row_dict(r)
            try:
                m = _breakdown(d)
            except Exception:  # noqa: BLE001 - a refused row is left out of this table
                continue
            if not m.allocated:
                continue
            fw = d["training"].get("framework", "hf")
            tool = ("Answer.AI FSDP1 loop" if r.table.startswith("answerai") else
                    {"swift_megatron": "ms-swift Megatron", "megatron": "Megatron"}.get(fw, fw))
            out.append(dict(id=r.id, table=table, tool=tool, metric=r.metric, expandable=_expandable(d),
                            lengths=_lengths(d), pub=r.measured, mod=m.metric(r.metric), mod_alloc=m.allocated))
    return out


def _med(v):
    return statistics.median(v) if v else float("nan")


def pair_table(rows: list[dict]) -> list[str]:
    lines = ["| group | n | published reserved/allocated (median, range) | modelled | allocated error median |"
             " reserved error median / p90 |", "|---|---:|---|---|---:|---|"]
    groups: dict = {}
    for r in rows:
        groups.setdefault((r["tool"], r["expandable"], r["lengths"]), []).append(r)
    for (tool, exp, lens), rs in sorted(groups.items()):
        pr = [r["pub_res"] / r["pub_alloc"] for r in rs]
        mr = [r["mod_res"] / r["mod_alloc"] for r in rs]
        ea = [r["mod_alloc"] / r["pub_alloc"] - 1 for r in rs]
        er = [abs(r["mod_res"] / r["pub_res"] - 1) for r in rs]
        er_sorted = sorted(er)
        p90 = er_sorted[min(len(er) - 1, int(0.9 * len(er)))]
        lines.append(f"| {tool}; expandable {'on' if exp else 'off'}; {lens} | {len(rs)} | {_med(pr):.3f} "
                     f"({min(pr):.2f}–{max(pr):.2f}) | {_med(mr):.3f} ({min(mr):.2f}–{max(mr):.2f}) | "
                     f"{_med(ea):+.1%} | {_med(er):.1%} / {p90:.1%} |")
    return lines


def single_table(rows: list[dict]) -> list[str]:
    lines = ["| group | metric | n | published / modelled allocated (median) | modelled / modelled allocated "
             "(median) | error median (signed) |", "|---|---|---:|---|---|---:|"]
    groups: dict = {}
    for r in rows:
        groups.setdefault((r["tool"], r["expandable"], r["lengths"], r["metric"]), []).append(r)
    for (tool, exp, lens, metric), rs in sorted(groups.items()):
        pr = [r["pub"] / r["mod_alloc"] for r in rs]
        mr = [r["mod"] / r["mod_alloc"] for r in rs]
        e = [r["mod"] / r["pub"] - 1 for r in rs]
        lines.append(f"| {tool}; expandable {'on' if exp else 'off'}; {lens} | {metric} | {len(rs)} | "
                     f"{_med(pr):.3f} | {_med(mr):.3f} | {_med(e):+.1%} |")
    return lines


def main() -> int:
    p = pairs()
    print("### Runs with both peaks published\n")
    print("\n".join(pair_table(p)))
    print("\n| run | published alloc | published reserved | ratio | modelled alloc | modelled reserved | ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in p:
        if r["tool"].startswith("HF loop"):
            continue
        print(f"| {r['id']} | {r['pub_alloc']:.2f} | {r['pub_res']:.2f} | {r['pub_res'] / r['pub_alloc']:.3f} | "
              f"{r['mod_alloc']:.2f} | {r['mod_res']:.2f} | {r['mod_res'] / r['mod_alloc']:.3f} |")
    print("\n### Rows with one published figure (reserved or device)\n")
    print("\n".join(single_table(single_rows())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
