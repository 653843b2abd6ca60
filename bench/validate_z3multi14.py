"""Multi-server DeepSpeed runs predicted too fast (issue 35 round 14, z3multi14): one mechanism, or several?

Usage: python bench/validate_z3multi14.py [--write-before FILE] [--before FILE]

Every multi-server DeepSpeed run the project holds is predicted too fast, the single-server ones are close (the
ftoos14 note's table). This script puts the rows side by side and prints what each candidate mechanism would have to
be, in the model's own units (nothing here sets a constant):

1. the rows, per source, with the model's prediction at the entered network and at thinner ones: the NICs per
   server at which each row's error would vanish (if any does) -- whether one network explains all three sources;
2. DeepSpeed ZeRO-3 ``step()`` across nodes (deepspeedai/DeepSpeed v0.14.2, ``deepspeed/runtime/zero/stage3.py``),
   every collective it launches once per optimizer step, priced with the model's NCCL ring latency
   (``timing._ring_latency``, NVIDIA/nccl ``src/graph/tuning.cc``) at 8 / 16 / 32 ranks;
3. XTuner's sequence-parallel pairs read as a once-per-step cost: the compute rate that reading implies, against
   the A100's measured matmul ceiling (``timing.MAMF_TFLOPS``, stas00 mamf-finder);
4. the fabric the model assumes when none is entered, per catalogue GPU (``timing.DEFAULT_FABRIC``,
   ``timing.PCIE_BOX_FABRIC``), against the planning guide's "≥ 400 Gb/s between nodes" and what the sources state;
5. the single-server DeepSpeed rows (``bench/validate_deepspeed.py``) as a control.

Findings (the note, ``docs/notes/2026-12-07/issue-35-r14-z3multi14.md``): ``step()`` costs under a millisecond
across servers; the SP pairs read as a per-step cost need a compute rate above the A100's matmul ceiling; the two
ZeRO-3 sources (XTuner, open-instruct) close to within ±18% at one NIC a server, the Qwen ZeRO-2 LoRA rows do not
(another cause). The sources do not state their networks, so no default is changed; the default is now said.

Error = published / predicted - 1 (+ = predicted too fast).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "bench"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))


# ---------------------------------------------------------------------------------------------- 1. the rows

#: network what-ifs (label, hardware overrides); ``None`` = as entered in the row's own bench
NETWORKS = (("as entered", None),
            ("8 NICs/server", {"nics_per_node": 8}), ("4 NICs/server", {"nics_per_node": 4}),
            ("2 NICs/server", {"nics_per_node": 2}), ("1 NIC/server", {"nics_per_node": 1}),
            ("1 x 100 Gb/s RoCE", {"inter_node": "roce-100", "nics_per_node": 1}))


def _xtuner():
    """(id, published s/step, seconds(hardware overrides) -> predicted s/step) for XTuner's four-server rows."""
    import validate_ft_oos14 as x

    out = []
    for r in x.all_rows():
        if r.num_gpus <= 8:
            continue
        net = {"inter_node": "ib-hdr-200"}  # the A100 default the row runs with (ftoos14)
        out.append((f"XTuner {r.id}", r.measured,
                    lambda hw, r=r, net=net: x.predict(r, hardware=None if hw is None else {**net, **hw})))
    return out


def _qwen():
    """Qwen-7B LoRA (multinode), 2 servers x 2 A100 (validate_ft_oos12.py)."""
    import validate_ft_oos12 as q

    out = []
    for r in q.qwen_multinode_rows():
        if r.kind != "step":
            continue

        def f(hw, r=r):
            if hw is None:
                return q.predict(r)
            keep = q.QWEN_MN_HW
            try:
                q.QWEN_MN_HW = {**keep, **hw}
                return q.predict(r)
            finally:
                q.QWEN_MN_HW = keep
        out.append((f"Qwen {r.id.replace('qwen-readme-7B-lora-multinode-', 'LoRA 2x2 ')}", r.measured, f))
    return out


def _open_instruct():
    """open-instruct DPO, 4 x 8 H100, ZeRO-3 (validate_post_time.py): training hours, model hours."""
    import validate_post_time as v
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import scenario_from_dict
    from gpuplanner.core.timing import time_estimate

    out = []
    for name, hours, _before, d, steps in v.OPEN_INSTRUCT_RUNS:
        def f(hw, d=d, steps=steps):
            dd = dict(d, hardware={**d["hardware"], **({} if hw is None else {"inter_node": "ib-ndr-400", **hw})})
            return steps * time_estimate(resolve(scenario_from_dict(dd))).step_time_s / 3600.0
        out.append((f"open-instruct {name.split(' ')[0]}", hours, f))
    return out


def multi_rows():
    """Every multi-server DeepSpeed row: (source, id, published, predictor)."""
    return ([("XTuner ZeRO-3 full, 4 x 8 A100", *r) for r in _xtuner()]
            + [("Qwen README LoRA ZeRO-2, 2 x 2 A100", *r) for r in _qwen()]
            + [("open-instruct DPO ZeRO-3, 4 x 8 H100", *r) for r in _open_instruct()])


def multi_table(before: dict | None = None) -> tuple[list[str], dict]:
    lines = ["| source | row | published | " + " | ".join(lab for lab, _ in NETWORKS) + " | before |",
             "|---|---|---:|" + "---:|" * len(NETWORKS) + "---:|"]
    errs: dict[str, float] = {}
    by_src: dict[str, list[float]] = {}
    for src, rid, pub, f in multi_rows():
        cells = []
        for lab, hw in NETWORKS:
            pred = f(hw)
            e = pub / pred - 1.0
            cells.append(f"{e:+.1%}")
            if hw is None:
                errs[rid] = e
                by_src.setdefault(src, []).append(e)
        b = "" if not before or rid not in before else f"{before[rid]:+.1%}"
        lines.append(f"| {src} | {rid} | {pub:.2f} | " + " | ".join(cells) + f" | {b} |")
    lines += [""] + [f"{src}: {len(e)} rows, median |error| {statistics.median(abs(x) for x in e):.1%}, signed median "
                     f"{statistics.median(e):+.1%}" for src, e in by_src.items()]
    return lines, errs


# -------------------------------------------------------------------------- 2. DeepSpeed ZeRO-3 step() collectives

#: ``DeepSpeedZeroOptimizer_Stage3.step()`` at v0.14.2 (``stage3.py`` l. 2016-2120), bf16, no offload: what runs
#: once per optimizer step and talks to other ranks. (what, collective, count per step, bytes)
Z3_STEP_COLLECTIVES = (
    ("_overflow_check_and_loss_scale_update -> has_overflow (fp16 only; bf16 skips it)", "all_reduce", 0, 1),
    ("_get_norm_groups -> get_grad_norm_direct: fp64 sum of squares, one per parameter group", "all_reduce", 2, 8),
    ("_post_step: persistent parameters' all_gather (norms under stage3_param_persistence_threshold)",
     "all_gather", 1, None),
)
#: and the host syncs: ``unscale_and_clip_grads`` ``if clip > 1`` (a CUDA tensor read by Python) per sub-group
Z3_STEP_SYNCS_PER_SUBGROUP = 1


def z3_step_table() -> list[str]:
    from gpuplanner.core.timing import NCCL_BASE_LAT, _ring_latency, _ScalarOps

    lines = ["| what (stage3.py v0.14.2) | collective | per step | 8 ranks (1 server) | 16 ranks (2) | 32 ranks (4) |",
             "|---|---|---:|---:|---:|---:|"]
    tot = {8: 0.0, 16: 0.0, 32: 0.0}
    for what, coll, count, _b in Z3_STEP_COLLECTIVES:
        cells = []
        for n in (8, 16, 32):
            lat = float(_ring_latency(n, 8, coll, _ScalarOps)) * count
            tot[n] += lat
            cells.append(f"{lat * 1e6:,.0f} µs")
        lines.append(f"| {what} | {coll} | {count} | " + " | ".join(cells) + " |")
    lines.append("| **all** | | | " + " | ".join(f"**{tot[n] * 1e3:.2f} ms**" for n in (8, 16, 32)) + " |")
    lines.append(f"(ring latency: NCCL base {NCCL_BASE_LAT * 1e6:.1f} µs + steps; the persistent parameters' bytes, "
                 "a few MB, add < 0.1 ms at the default fabric)")
    return lines


# -------------------------------------------------------------------- 3. the SP pairs read as a per-step cost

def sp_per_step_reading() -> list[tuple[str, float, float, float, float]]:
    """Per XTuner pair: (pair, X s per optimizer step, C s compute per SP 1 iteration, implied TFLOP/s of the SP 1
    row's XTuner work over C, A100 MAMF). Reading: SP 1 iteration = C + X; SP row iteration = w·C + X / acc,
    w = the pair's work ratio (XTuner's own count), acc = SP (the configs' accumulative_counts)."""
    import validate_ft_oos14 as x
    from gpuplanner.core.timing import MAMF_TFLOPS

    tab = {t[0]: t for t in x.TABLE}
    sp = {t[0]: t for t in x.SP_ROWS}
    out = []
    for rid, name, _t, w in x.sp_pairs():
        _r, _p, _n, seq1, sp1, tgs1, tf1, _c, _a = tab[rid]
        _nm, _pp, _nn, seq2, sp2, tgs2, _tf2 = sp[name]
        t1, t2 = seq1 / sp1 / tgs1, seq2 / sp2 / tgs2
        xs = (w * t1 - t2) / (w - 1.0 / sp2)
        c = t1 - xs
        out.append((f"{name} vs {rid}", xs, c, tf1 * t1 / c, MAMF_TFLOPS["a100-sxm-80gb"]))
    return out


# -------------------------------------------------------------------------------- 4. the default fabric

def default_fabrics() -> list[tuple[str, str, str, int, float]]:
    """Per catalogue GPU with a data-centre fabric default: (gpu id, generation, network id, NICs per 8-GPU
    server, Gb/s per server) as ``timing.gpu_time_facts`` assumes when ``hardware.inter_node`` is not entered."""
    from gpuplanner.core import catalog_hw as C
    from gpuplanner.core.timing import gpu_generation, gpu_time_facts

    out = []
    for g in C.load_gpus().values():
        try:
            f = gpu_time_facts(g.id, "bf16", gpus_per_node=8)
        except Exception:  # noqa: BLE001 - a card without a BF16 figure is not planned for training
            continue
        net = C.get_network(f.inter_node)
        out.append((g.id, gpu_generation(g), net.id, int(f.nics_per_node), float(net.gbps_per_nic or 0) * f.nics_per_node))
    return out


# ----------------------------------------------------------------------------------- 5. single-server control

def single_server_rows() -> list[tuple[str, float, float, float]]:
    import validate_deepspeed as vd

    return [(r.id + (" (not modelled)" if r.not_modelled else ""), r.step_s, pred, r.step_s / pred - 1.0)
            for r, pred, _err, _n in vd.results()]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", type=Path)
    ap.add_argument("--write-before", type=Path)
    a = ap.parse_args(argv)
    before = json.loads(a.before.read_text()) if a.before else None
    print("## 1. Multi-server DeepSpeed rows: error at the entered network and at thinner ones\n")
    lines, errs = multi_table(before)
    print("\n".join(lines))
    print("\n## 2. DeepSpeed ZeRO-3 step() across nodes: the collectives it launches once per optimizer step\n")
    print("\n".join(z3_step_table()))
    print("\n## 3. XTuner's SP pairs read as a once-per-step cost X\n")
    print("| pair | X (s/step) | C (s, SP 1 compute) | implied TFLOP/s | A100 MAMF |\n|---|---:|---:|---:|---:|")
    for name, xs, c, rate, mamf in sp_per_step_reading():
        print(f"| {name} | {xs:.1f} | {c:.1f} | {rate:.0f} | {mamf:.1f} |")
    print("\n## 4. The fabric assumed when none is entered (per 8-GPU server)\n")
    print("| GPU | generation | network | NICs | Gb/s per server |\n|---|---|---|---:|---:|")
    for gid, gen, net, nics, gbps in default_fabrics():
        print(f"| {gid} | {gen} | {net} | {nics} | {gbps:,.0f} |")
    print("\n## 5. Single-server DeepSpeed rows (bench/validate_deepspeed.py), the control\n")
    print("| row | published s | predicted s | error |\n|---|---:|---:|---:|")
    for rid, pub, pred, err in single_server_rows():
        print(f"| {rid} | {pub:.2f} | {pred:.2f} | {err:+.1%} |")
    if a.write_before:
        a.write_before.write_text(json.dumps(errs, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
