"""Which Hopper matmul share would EVERY held H100/H800/H200 training row need? (issue 35 round 13, helper hopper13)

Usage: python bench/hopper_implied_eff_r13.py [--rows]

Extends ``bench/hopper_implied_eff.py`` (round 8, which covered the dgxc/Bridge NeMo rows and the public set's
Megatron-Core README and llm-foundry H100 rows) to every held training row on a Hopper H100/H800/H200 card: the public
set (``bench/validate_time.py``, every Hopper row), and the out-of-sample benches (``validate_pt_oos12``,
``validate_pretrain_oos9/10/11``, ``validate_bridge_dense``/``_oos`` (pre-training and fine-tuning tables),
``validate_mlperf_oos``, ``validate_nemo_finetune``, ``validate_fsdp_oos``, ``validate_megatron_ft_oos9``, the
``validate_ft_*`` tool rows, ``validate_post_time`` and ``rl_step_times`` (whole RL steps: generation included)).

For each row it finds by bisection the value of ``timing.GEN_EFFICIENCY["hopper"]`` at which the model's figure
equals the published one, all other constants as they are (set in this process only, restored after every row;
``gpu_time_facts``' cache cleared). Rows that cannot be met inside [LO, HI] print as "<LO" / ">HI". It then tabulates
the implied share by framework family, precision, tokens per micro-batch (per GPU: micro-batch × sequence / CP) and
hidden size, and prints the spread. It changes nothing in the model.
"""

from __future__ import annotations

import math
import statistics
import sys
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from gpuplanner.core import timing as T  # noqa: E402
from gpuplanner.core.estimate import resolve  # noqa: E402
from gpuplanner.core.scenario import scenario_from_dict  # noqa: E402

LO, HI, STEPS = 0.30, 1.00, 18
HOPPER_TRAIN = ("h100", "h800", "h200")


def _set(v: float) -> None:
    T.GEN_EFFICIENCY["hopper"] = v
    T.gpu_time_facts.cache_clear()


def implied(err: Callable[[], float]) -> float:
    """The Hopper share at which ``err()`` (signed, + = predicted too fast; rises with the share) is zero."""
    saved = T.GEN_EFFICIENCY["hopper"]
    lo, hi = LO, HI
    try:
        _set(hi)
        if err() < 0:
            return math.inf
        _set(lo)
        if err() > 0:
            return -math.inf
        for _ in range(STEPS):
            mid = 0.5 * (lo + hi)
            _set(mid)
            if err() < 0:
                lo = mid
            else:
                hi = mid
    finally:
        _set(saved)
    return 0.5 * (lo + hi)


#: Global shares tried as what-ifs (the per-source |error| median / p90 at each is printed; nothing is changed).
WHATIF = (0.55, 0.58, 0.60, 0.62)


def _at(v: float, err: Callable[[], float]) -> float:
    """``err()`` with the Hopper share set to ``v`` (restored)."""
    saved = T.GEN_EFFICIENCY["hopper"]
    try:
        _set(v)
        return err()
    finally:
        _set(saved)


def describe(sc: dict) -> dict:
    """gpu, precision, tokens per micro-batch per GPU, hidden size, framework, compile/liger of a scenario dict."""
    r = resolve(scenario_from_dict(sc))
    t, p = r.scenario.training, r.scenario.parallel
    return {"gpu": str(r.gpu.id), "prec": "FP8" if t.precision == "fp8" else t.precision.upper(),
            "tok": t.micro_batch_size * t.seq_len // max(1, p.cp), "hidden": r.arch.hidden_size,
            "fw": t.framework, "method": t.method, "compile": bool(t.torch_compile), "liger": bool(t.liger_kernel),
            "moe": bool(getattr(r.arch, "num_experts", 0) or 0)}


def _tps_err(sc: dict, pub: float, via=None) -> Callable[[], float]:
    """Throughput rows (tokens/s/GPU): predicted / published − 1."""
    def f() -> float:
        if via is not None:
            return via() / pub - 1.0
        return T.time_estimate(resolve(scenario_from_dict(sc))).tokens_per_s_per_gpu / pub - 1.0
    return f


def _step_err(pred: Callable[[], float], pub: float) -> Callable[[], float]:
    """Step-time rows: published / predicted − 1."""
    return lambda: pub / pred() - 1.0


def _step_of(sc: dict) -> Callable[[], float]:
    return lambda: T.time_estimate(resolve(scenario_from_dict(sc))).step_time_s


# ---- sources: each yields (source, label, scenario dict, err function) ------------------------------------------

def _public():
    import validate_time as vt
    for row in vt.throughput_rows():
        rid = row["id"]
        if rid.startswith("megatron-readme-h100"):
            sc = vt.megatron_core_scenario(row)[0]
        elif rid.startswith("megatron"):
            sc = vt.megatron_scenario(row)[0]
        elif rid.startswith("llmfoundry"):
            sc = vt.foundry_scenario(row)[0]
        else:
            sc = vt.TT_ROWS[rid]
        pub = vt.published_tokens_per_s(row)[0]
        yield "public validate_time", rid, sc, (lambda r=row, p=pub: vt.run_row(r)["predicted"] / p - 1.0)


def _dense_tables():
    import validate_bridge_dense as vbd
    import validate_bridge_oos as oos
    import validate_mlperf_oos as mlp
    import validate_pt_oos12 as pt12
    for i, row in enumerate(vbd.ROWS):
        sc = vbd.scenario(row)
        yield "bridge_dense", f"{row[0]} {row[1]} {row[2]} {row[3]} {row[4]}#{i}", sc, _tps_err(sc, row[-1])
    for i, row in enumerate(vbd.FT_ROWS):
        sc = vbd.ft_scenario(row)
        yield "bridge_dense FT", f"{row[0]} {row[1]} {row[2]} {row[3]}#{i}", sc, _tps_err(sc, row[-1])
    for i, row in enumerate(oos.ROWS):
        sc = oos.scenario(row)
        yield "bridge_oos", f"{row[2]} {row[3]} {row[4]}#{i}", sc, _tps_err(sc, row[-1] / row[4])
    for i, row in enumerate(oos.FT_ROWS):
        sc = oos.ft_scenario(row)
        yield "bridge_oos FT", f"{row[2]} {row[3]} {row[4]}#{i}", sc, _tps_err(sc, row[-1] / row[5])
    for i, row in enumerate(pt12.ROWS):
        sc = pt12.scenario(row)
        yield "pt_oos12", f"{row[0]} {row[2]} {row[3]}#{i}", sc, _tps_err(sc, row[-1])
    for i, row in enumerate(mlp.ROWS):
        sc = mlp.scenario(row)
        yield "mlperf_oos", f"{row[3]} {row[4]} #{i}", sc, _tps_err(sc, mlp.tokens_per_step(row) / row[12] / row[5])


def _pretrain():
    import validate_pretrain_oos9 as p9
    import validate_pretrain_oos10 as p10
    import validate_pretrain_oos11 as p11
    for mod, name in ((p9, "pretrain_oos9"), (p10, "pretrain_oos10")):
        for group, label, sc, pub in mod.all_rows():
            yield name, f"{group}: {label}", sc, _tps_err(sc, pub)
    for label, kw, pub, _ok in p11.ZOO:
        sc = p11.zoo_scenario(**kw)
        yield "pretrain_oos11", label, sc, _step_err(_step_of(sc), pub)
    for label, row in p11.MLM:
        sc = p11.vbd.scenario(row)
        yield "pretrain_oos11", label, sc, _step_err(_step_of(sc), p11.mlm_pub_step(row))


def _finetune():
    import validate_fsdp_oos as fo
    import validate_megatron_ft_oos9 as mft
    import validate_nemo_finetune as nf
    for grp, label, sc, pub, _src in fo.rows():
        yield "fsdp_oos", f"{grp}: {label}", sc, (lambda s=sc, p=pub: fo.predict(s) / p - 1.0)
    for rid, _group, _src, pub, sc, _named in mft.ROWS:
        sc2 = mft._with_assumptions(sc)
        yield "megatron_ft_oos9", rid, sc2, _step_err(_step_of(sc2), pub)
    for i, row in enumerate(nf.ROWS):
        sc = nf.scenario(row)
        if sc is None:
            continue
        yield "nemo_finetune", f"{row[0]} {row[1]} {row[2]} {row[3]}#{i}", sc, \
            (lambda r=row: (nf.predict(r)[0].tokens_per_s_per_gpu / r[10] - 1.0))


def _row_sc(row, **extra) -> dict:
    d = {"model": row.model, "training": row.training, "parallel": row.parallel,
         "hardware": {"gpu": row.gpu, "num_gpus": row.num_gpus}, "data": row.data}
    d.update(extra)
    return d


def _tool_rows():
    import importlib
    import validate_ft_tools as vft
    for name in ("validate_ft_tools", "validate_ft_oos9", "validate_ft_oos10", "validate_ft_oos12",
                 "validate_ft_step10", "validate_ft_oos13"):
        mod = importlib.import_module(name)
        pred = getattr(mod, "predict", vft.predict)
        for row in mod.all_rows():
            if row.kind == "memory" or not str(row.gpu).startswith(HOPPER_TRAIN):
                continue
            sc = _row_sc(row, hardware=mod._hardware(row)) if hasattr(mod, "_hardware") else _row_sc(row)
            yield name, row.id, sc, (lambda r=row, pr=pred: vft.error(r, pr(r)))
    import validate_post_time as vpt
    for row in vpt.all_rows():
        if row.kind == "memory" or not str(row.gpu).startswith(HOPPER_TRAIN):
            continue
        sc = _row_sc(row, assumptions=dict(getattr(row, "assumptions", {})))
        yield "post_time", row.id, sc, (lambda r=row: vft.error(r, vpt.predict(r).step_time_s))


def _rl():
    import rl_step_times as rl
    for rid, _src, scn, pub, *_rest in list(rl.ROWS) + list(rl.STEP_ROWS):
        yield "rl_step_times (whole step)", rid, scn, (lambda s=scn, p=pub: p["step"] / rl.predict(s)["step"] - 1.0)


SOURCES = (_public, _dense_tables, _pretrain, _finetune, _tool_rows, _rl)


def family(src: str, d: dict) -> str:
    """Framework family of a row: the scenario's framework field (Megatron-Core, Megatron-Bridge, nanotron, FSDP =
    torchtitan / llm-foundry / torchtune / Automodel, the HF-based tools), RL loops apart (their step has generation)."""
    if src.startswith("rl_"):
        return "RL (verl / NeMo RL), whole step"
    return {"megatron": "Megatron-Core / NeMo", "megatron-bridge": "Megatron-Bridge", "nanotron": "nanotron",
            "fsdp": "PyTorch FSDP (torchtitan, llm-foundry, torchtune, Automodel)"}.get(d["fw"], f"HF-based ({d['fw']})")


def collect() -> list[dict]:
    out = []
    for src_fn in SOURCES:
        for src, label, sc, err in src_fn():
            try:
                d = describe(sc)
            except Exception as e:  # noqa: BLE001 - a refused scenario: reported, not scored
                print(f"  skipped {src} {label}: {str(e).splitlines()[0][:80]}", file=sys.stderr)
                continue
            if not d["gpu"].startswith(HOPPER_TRAIN):
                continue
            try:
                base = err()
                v = implied(err)
                moved = {c: _at(c, err) for c in WHATIF}
            except Exception as e:  # noqa: BLE001
                print(f"  skipped {src} {label}: {str(e).splitlines()[0][:80]}", file=sys.stderr)
                continue
            # elasticity: d ln(predicted rate) / d ln(share) at the model's share (1: all compute-bound GEMM time)
            el = math.log((1.0 + _at(T.GEN_EFFICIENCY["hopper"] * 1.05, err)) / (1.0 + base)) / math.log(1.05)
            out.append({"src": src, "label": label, "err": base, "eff": v, "fam": family(src, d), "el": el,
                        "moved": moved, **d})
    return out


def _bucket_tok(n: int) -> str:
    return "≤2k" if n <= 2048 else "4k" if n <= 4096 else "8k" if n <= 8192 else ">8k"


def _bucket_h(h: int) -> str:
    return "<4096" if h < 4096 else "4096" if h == 4096 else "5120-6144" if h <= 6144 else "8192" if h <= 8192 \
        else ">8192"


def _bucket_el(e: float) -> str:
    return "<0.70" if e < 0.7 else "0.70-0.80" if e < 0.8 else "0.80-0.90" if e < 0.9 else "≥0.90"


def _stats(vals: list[float]) -> str:
    fin = sorted(v for v in vals if math.isfinite(v))
    n_out = len(vals) - len(fin)
    if not fin:
        return f"{len(vals):4d} |   – |   – |   – |   – | {n_out}"
    q = lambda p: fin[min(len(fin) - 1, int(p * (len(fin) - 1) + 0.5))]  # noqa: E731
    return (f"{len(vals):4d} | {statistics.median(fin):.3f} | {q(0.1):.3f} | {q(0.9):.3f} | "
            f"{statistics.pstdev(fin) / statistics.mean(fin):.0%} | {n_out}")


def table(res: list[dict], key: Callable[[dict], str], title: str) -> list[str]:
    lines = [f"\n### by {title}", f"| {title} | rows | median | p10 | p90 | CV | outside [{LO}, {HI}] |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    groups: dict[str, list[float]] = {}
    for r in res:
        groups.setdefault(key(r), []).append(r["eff"])
    for k in sorted(groups):
        lines.append(f"| {k} | {_stats(groups[k])} |")
    return lines


def _abs_stats(errs: list[float]) -> str:
    a = sorted(abs(e) for e in errs)
    return f"{statistics.median(a):.1%} / {a[min(len(a) - 1, int(0.9 * (len(a) - 1) + 0.5))]:.1%}"


def whatif_lines(res: list[dict]) -> list[str]:
    """|error| median / p90 per source and family with the Hopper share at each :data:`WHATIF` value."""
    hdr = " | ".join(f"{c:.2f}" for c in WHATIF)
    lines = ["\n### what-if: |error| median / p90 with GEN_EFFICIENCY['hopper'] at each value (signed median in [])",
             f"| group | rows | {hdr} |", "|---|---:|" + "---:|" * len(WHATIF)]
    for key in (lambda r: r["src"], lambda r: r["fam"], lambda r: "all"):
        groups: dict[str, list[dict]] = {}
        for r in res:
            groups.setdefault(key(r), []).append(r)
        for k in sorted(groups):
            rs = groups[k]
            cells = [f"{_abs_stats([r['moved'][c] for r in rs])} [{statistics.median(r['moved'][c] for r in rs):+.1%}]"
                     for c in WHATIF]
            lines.append(f"| {k} | {len(rs)} | " + " | ".join(cells) + " |")
    return lines


def pair_lines(res: list[dict], attr: str = "prec", a: str = "BF16", b: str = "FP8",
               words: tuple = ("bf16", "fp8", "ds", "cs")) -> list[str]:
    """Rows of one source that differ only in ``attr`` (same label once ``words`` and the index are dropped): the
    ``b`` row's implied share over its ``a`` twin's. Precision: 1.0 says the FP8 path (``fp8.TE_GEMM_RATIO`` and the
    cast/amax work the model charges) is right relative to BF16, below 1 that the model prices FP8 too fast relative
    to BF16. Method: above 1, the model prices LoRA too slow relative to full fine-tuning of the same recipe."""
    import re

    pat = re.compile(r"\b(" + "|".join(words) + r")\b", re.I)

    def key(r):
        lab = pat.sub("", re.sub(r"#\d+$", "", r["label"]))
        return r["src"], r["gpu"], " ".join(lab.split()), r["hidden"], r["tok"] if attr != "prec" else 0
    twins: dict[tuple, dict[str, list[dict]]] = {}
    for r in res:
        twins.setdefault(key(r), {}).setdefault(r[attr], []).append(r)
    lines = [f"\n### {a} / {b} twins (same source, model, layout): implied share of the {b} row over the {a} row's",
             f"| source | row | {a} implied | {b} implied | ratio |", "|---|---|---:|---:|---:|"]
    ratios = []
    for k, d in twins.items():
        for ra in d.get(a, []):
            for rb in d.get(b, []):
                if math.isfinite(ra["eff"]) and math.isfinite(rb["eff"]):
                    ratios.append(rb["eff"] / ra["eff"])
                    lines.append(f"| {k[0]} | {k[2][:50]} | {ra['eff']:.3f} | {rb['eff']:.3f} | {ratios[-1]:.3f} |")
    if ratios:
        lines.append(f"| all twins | {len(ratios)} | | | median {statistics.median(ratios):.3f} |")
    return lines


def main() -> int:
    res = collect()
    print(f"GEN_EFFICIENCY['hopper'] in the model: {T.GEN_EFFICIENCY['hopper']}; "
          f"{len(res)} Hopper training rows (H100/H800/H200)")
    if "--rows" in sys.argv:
        print("| source | row | GPU | family | prec | tok/mb | hidden | error now | elasticity | implied share |")
        print("|---|---|---|---|---|---:|---:|---:|---:|---:|")
        for r in res:
            e = f"{r['eff']:.3f}" if math.isfinite(r["eff"]) else (f">{HI}" if r["eff"] > 0 else f"<{LO}")
            print(f"| {r['src']} | {r['label'][:60]} | {r['gpu']} | {r['fam'][:24]} | {r['prec']} | {r['tok']} | "
                  f"{r['hidden']} | {r['err']:+.1%} | {r['el']:.2f} | {e} |")
    lines = ["\n### all rows", "| set | rows | median | p10 | p90 | CV | outside |", "|---|---:|---:|---:|---:|---:|---:|",
             f"| all | {_stats([r['eff'] for r in res])} |"]
    lines += table(res, lambda r: r["src"], "source")
    lines += table(res, lambda r: r["fam"], "framework family")
    lines += table(res, lambda r: f"{r['fam'][:22]} / {r['prec']}", "family / precision")
    lines += table(res, lambda r: r["prec"], "precision")
    lines += table(res, lambda r: r["method"], "method")
    lines += table(res, lambda r: "compile" if r["compile"] else "eager", "torch.compile")
    lines += table(res, lambda r: "liger" if r["liger"] else "no liger", "Liger")
    lines += table(res, lambda r: "MoE" if r["moe"] else "dense", "MoE")
    lines += table(res, lambda r: _bucket_tok(r["tok"]), "tokens per micro-batch per GPU")
    lines += table(res, lambda r: _bucket_h(r["hidden"]), "hidden size")
    lines += table(res, lambda r: r["gpu"], "GPU")
    lines += table(res, lambda r: "compute-bound (elasticity ≥ 0.7)" if r["el"] >= 0.7 else "elasticity < 0.7", "elasticity")
    lines += table([r for r in res if r["el"] >= 0.7], lambda r: r["fam"], "family, rows with elasticity ≥ 0.7 only")
    # the double-count test: if GEN_EFFICIENCY were a whole-step figure that already holds the memory-bound work the
    # model charges apart, rows with more of that work (lower elasticity) would need a HIGHER share
    lines += table([r for r in res if r["fam"] in ("Megatron-Core / NeMo", "Megatron-Bridge")],
                   lambda r: _bucket_el(r["el"]), "elasticity, Megatron-Core / NeMo / Bridge rows")
    lines += table([r for r in res if r["fam"].startswith("PyTorch FSDP") or r["src"] == "public validate_time"],
                   lambda r: _bucket_el(r["el"]), "elasticity, PyTorch FSDP rows and the public set")
    lines += pair_lines(res)
    lines += pair_lines(res, "method", "full", "lora", ("full", "lora"))
    lines += whatif_lines(res)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
