"""Issue 35 round 13 (fp8train13): how the training time model prices FP8, on every held FP8 training row.

1. Before/after of a what-if: fp8lin13's serving rule (``inference.eight_bit_gemm_share``: only the part of a GEMM at
   the 16-bit matmul ceiling speeds up by the 8-bit/16-bit peak ratio; the loss below the ceiling, ``1/g − 1/s``, is
   memory time that FP8 does not shrink) applied to the training linear GEMMs as well. In the model an FP8 linear GEMM
   runs at ``P8 × g × gemm_ratio`` (``timing.time_arrays``: ``t_lin_tok``); under the rule its rate is
   ``P8 × eight_bit_gemm_share``, i.e. every recipe's ``gemm_ratio`` × ``eight_bit_gemm_share / (g × TE_GEMM_RATIO)``
   (0.806 on Hopper). One factor per GPU generation, every recipe (TE delayed/current/MXFP8, torchao tensorwise/
   rowwise). Nothing in ``gpuplanner/`` is changed by this script.
2. FP8 / BF16 twins (same source, model, layout): the published FP8 speed-up against the modelled one.

Rows: the sources of ``bench/hopper_implied_eff_r13.py`` (every GPU, not only Hopper) plus
``bench/validate_pt_oos13.py``. Error = predicted speed / published speed − 1 (+ = predicted too fast), i.e.
published / predicted − 1 on step time. ``python bench/fp8train13_split.py [--rows]``.
"""
from __future__ import annotations

import dataclasses
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import hopper_implied_eff_r13 as hi  # noqa: E402
from gpuplanner.core import catalog_hw as C  # noqa: E402
from gpuplanner.core import fp8 as fp8mod  # noqa: E402
from gpuplanner.core import inference as inf  # noqa: E402
from gpuplanner.core import timing as T  # noqa: E402
from gpuplanner.core.estimate import resolve  # noqa: E402
from gpuplanner.core.evaluate import evaluate  # noqa: E402
from gpuplanner.core.scenario import scenario_from_dict  # noqa: E402



def split_factor(gpu_id: str) -> float:
    """``eight_bit_gemm_share / (g × TE_GEMM_RATIO)``: the FP8 linear GEMM's rate under the serving rule over the
    training model's (1.0 where the generation has no ceiling above g or the card no 8-bit figure)."""
    g = C.get_gpu(gpu_id)
    gen = T.gpu_generation(g)
    return inf.eight_bit_gemm_share(g) / (T.GEN_EFFICIENCY[gen] * fp8mod.TE_GEMM_RATIO)


def _pt13():
    import validate_pt_oos13 as pt13
    for i, row in enumerate(pt13.ROWS):
        sc = pt13.scenario(row)
        yield "pt_oos13", f"{row[0]} {row[1]} {row[4]} {row[5]}#{i}", sc, hi._tps_err(sc, pt13.published(row))


SOURCES = hi.SOURCES + (_pt13,)


def _with_factor(f: float, err):
    saved = dict(fp8mod.RECIPES)
    try:
        for k, r in saved.items():
            fp8mod.RECIPES[k] = dataclasses.replace(r, gemm_ratio=r.gemm_ratio * f)
        T.gpu_time_facts.cache_clear()
        return err()
    finally:
        fp8mod.RECIPES.clear()
        fp8mod.RECIPES.update(saved)
        T.gpu_time_facts.cache_clear()


def _speed(sc: dict) -> float:
    try:
        return evaluate(scenario_from_dict(sc)).time_modelled.tokens_per_s_per_gpu
    except Exception:  # noqa: BLE001 - a row the validation refuses but its bench scores (resolve + time_estimate)
        return T.time_estimate(resolve(scenario_from_dict(sc))).tokens_per_s_per_gpu


def _describe(sc: dict) -> tuple[dict, str]:
    """``hi.describe`` and the catalogue card whose generation gives the split factor; a user-entered card (the
    Grand Teton H100 of validate_time, architecture "hopper", the H100 SXM's 989 / 1,979 peaks) is described on the
    H100 SXM."""
    hw = sc.get("hardware", {})
    if not hw.get("custom_gpus"):
        d = hi.describe(sc)
        return d, d["gpu"]
    d = hi.describe({**sc, "hardware": {**hw, "gpu": "h100-sxm-80gb", "custom_gpus": []}})
    return {**d, "gpu": hw["gpu"]}, "h100-sxm-80gb"


def _recipe(d: dict, sc: dict) -> str:
    if d["prec"] != "FP8":
        return ""
    t = sc.get("training", {})
    fw = "megatron" if d["fw"] == "megatron-bridge" else d["fw"]
    return fp8mod.recipe_for(fw, t.get("fp8_recipe") or fp8mod.PRECISION_ALIASES.get(t.get("precision"))).id


def collect() -> list[dict]:
    saved, hi.HOPPER_TRAIN = hi.HOPPER_TRAIN, ("",)  # every GPU (restored)
    try:
        return _collect()
    finally:
        hi.HOPPER_TRAIN = saved


def _collect() -> list[dict]:
    out = []
    for src_fn in SOURCES:
        for src, label, sc, err in src_fn():
            try:
                d, card = _describe(sc)
                before = err()
                after = _with_factor(split_factor(card), err) if d["prec"] == "FP8" else before
                speed = _speed(sc)
                recipe = _recipe(d, sc)
            except Exception as e:  # noqa: BLE001 - a refused scenario: reported, not scored
                print(f"  skipped {src} {label}: {str(e).splitlines()[0][:80]}", file=sys.stderr)
                continue
            out.append({"src": src, "label": label, "before": before, "after": after, "speed": speed,
                        "fam": hi.family(src, d), "recipe": recipe, **d})
    return out


def _ms(errs):
    a = sorted(abs(e) for e in errs)
    return statistics.median(a), a[min(len(a) - 1, int(0.9 * (len(a) - 1) + 0.5))]


def family_lines(res) -> list[str]:
    lines = ["| family (FP8 rows) | rows | before |err| median / p90 [signed median] | after (split) |",
             "|---|---:|---|---|"]
    groups: dict[str, list[dict]] = {}
    for r in res:
        if r["prec"] == "FP8":
            groups.setdefault(f"{r['src']} ({r['recipe']})", []).append(r)
            groups.setdefault(f"ALL {r['fam']}", []).append(r)
    for k in sorted(groups):
        rs = groups[k]
        cells = []
        for key in ("before", "after"):
            m, p = _ms([r[key] for r in rs])
            cells.append(f"{m:.1%} / {p:.1%} [{statistics.median(r[key] for r in rs):+.1%}]")
        lines.append(f"| {k} | {len(rs)} | " + " | ".join(cells) + " |")
    return lines


def twin_lines(res) -> list[str]:
    """FP8 / BF16 twins: published speed-up (FP8 tokens/s over BF16's) against the modelled one."""
    import re
    pat = re.compile(r"\b(bf16|fp8|ds|cs|mx|mxfp8)\b", re.I)
    fsdp = re.compile(r"\b(BF16|float8|MXFP8)\b.*$")  # fsdp_oos labels: the precision and what follows it

    def key(r):
        lab = fsdp.sub("", r["label"].split(": ", 1)[-1]) if r["src"] == "fsdp_oos" else pat.sub("", re.sub(r"#\d+$", "", r["label"]))
        return r["src"], r["gpu"], " ".join(lab.split()), r["hidden"]
    twins: dict[tuple, dict[str, list[dict]]] = {}
    for r in res:
        twins.setdefault(key(r), {}).setdefault(r["prec"], []).append(r)
    lines = ["| source | row | GPU | recipe | published FP8/BF16 | modelled | modelled / published | after (split) |",
             "|---|---|---|---|---:|---:|---:|---:|"]
    ratios, after, by_lib = [], [], {}
    for k, d in twins.items():
        for a in d.get("BF16", []):
            for b in d.get("FP8", []):
                mod = b["speed"] / a["speed"]
                q = (1.0 + b["before"]) / (1.0 + a["before"])
                q2 = (1.0 + b["after"]) / (1.0 + a["after"])
                ratios.append(q)
                after.append(q2)
                by_lib.setdefault(fp8mod.RECIPES[b["recipe"]].library, []).append((mod / q, mod, q, q2))
                lines.append(f"| {k[0]} | {k[2][:46]} | {b['gpu']} | {b['recipe']} | {mod / q:.3f} | {mod:.3f} | "
                             f"{q:.3f} | {q2:.3f} |")
    for lib, qs in sorted(by_lib.items()):
        med = [statistics.median(x[i] for x in qs) for i in range(4)]
        lines.append(f"| {lib} twins | {len(qs)} | | | median {med[0]:.3f} | {med[1]:.3f} | {med[2]:.3f} | "
                     f"{med[3]:.3f} |")
    if ratios:
        lines.append(f"| all twins | {len(ratios)} | | | | | median {statistics.median(ratios):.3f} | "
                     f"median {statistics.median(after):.3f} |")
    return lines


def main() -> int:
    res = collect()
    if "--rows" in sys.argv:
        for r in res:
            print(f"{r['src']:22s} {r['label'][:48]:48s} {r['gpu']:16s} {r['prec']:4s} {r['recipe']:18s} "
                  f"{r['before']:+.1%} -> {r['after']:+.1%}")
    n8 = sum(r["prec"] == "FP8" for r in res)
    moved16 = [r for r in res if r["prec"] != "FP8" and r["before"] != r["after"]]
    print(f"rows {len(res)}, FP8 {n8}, non-FP8 rows moved by the what-if: {len(moved16)}")
    print("\n".join(family_lines(res)))
    print()
    print("\n".join(twin_lines(res)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
