"""The published Megatron rows whose recipes set the EP all-to-all overlap or per-module recompute, before and after
the recipe's flags are entered (issue 35 round 12, mgfields12).

Usage: python bench/validate_mgfields12.py [--md]

Two Megatron-Core choices became scenario fields this round: ``parallel.ep_a2a_overlap`` (``--overlap-moe-expert-
parallel-comm --delay-wgrad-compute``; Megatron-Bridge ``moe_a2a_overlap``) and ``training.recompute_modules``
(``--recompute-granularity selective --recompute-modules …``). "before" = each row as the project's tables enter it
today (no overlap; recompute ``none``); "after" = the same row with the flags its source states, and nothing else
changed. Error = published step / predicted step − 1 (+ = the model is too fast); for the Bridge tables, whose
figure is tokens/s/GPU, the same number (predicted rate / published rate − 1).

Which rows state the flags (each read by an earlier helper from the source named; not re-read here):

* Megatron MoE Model Zoo, Qwen3-235B-A22B (``validate_pretrain_oos11``, ptoos11: github.com/yanring/Megatron-MoE-
  ModelZoo ``best_practice/Qwen3/readme.md`` @c1ad0b5c): the rows "recompute: norm, act" set ``--recompute-modules
  layernorm moe_act``; the "+1f1b overlap" row adds ``--overlap-moe-expert-parallel-comm``; the long-context rows
  ``--recompute-granularity selective --recompute-modules layernorm moe``.
* Megatron-Bridge MoE performance table and its out-of-sample releases (``validate_time.BRIDGE_MOE``,
  ``validate_moe_oos.BRIDGE_MOE_OOS``): ``moe_a2a_overlap`` per recipe (a2aovl8, round 7: ``BRIDGE_MOE_A2A_OVERLAP``
  below, and the out-of-sample recipe column's "moe_a2a_overlap"); ``recompute_modules`` per recipe (moe11, round 8:
  ``validate_moe_gap.RECIPE_RECOMPUTE``: every Qwen3 recipe none, GPT-OSS ``layernorm moe_act``, DeepSeek-V3
  ``mla_up_proj`` / ``mlp`` / both by release).
* Megatron-SWIFT MoE examples (ms-swift @3602360 ``examples/megatron``): none sets either flag (``git grep`` of
  ``recompute_modules`` / ``overlap_moe_expert`` finds only two Ascend dense scripts with the default ``core_attn``):
  nothing to enter.
"""

from __future__ import annotations

import copy
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

#: The Bridge MoE table rows whose recipe turns on Megatron-Core's EP all-to-all overlap (issue 35 round 7, helper
#: a2aovl8, branch h-a2aovl8 ``bench/validate_time.py``): the workload config's ``moe_a2a_overlap = True``, which the
#: performance scripts turn into ``overlap_moe_expert_parallel_comm = True`` and ``delay_wgrad_compute = True``
#: (Megatron-Bridge v0.2.2 ``scripts/performance/utils/helpers.py`` ``set_moe_a2a_overlap_overrides``; v0.4.2
#: ``utils/overrides.py`` ``_set_moe_a2a_overlap_overrides``). 25.11 = v0.2.2 ``configs/qwen3/workload_base_configs.py``
#: ``QWEN3_235B_A22B_H100_FP8_CS_BASE_CONFIG``, ``QWEN3_30B_A3B_H100_FP8_CS_BASE_CONFIG``,
#: ``QWEN3_235B_A22B_B200_FP8_CS_BASE_CONFIG``; 26.04.01 = v0.4.2 ``DEEPSEEK_V3_PRETRAIN_CONFIG_B200_FP8_MX_V2``,
#: ``QWEN3_235B_A22B_PRETRAIN_CONFIG_H100_FP8_CS_V2``, ``GPT_OSS_120B_PRETRAIN_CONFIG_GB200_BF16_V2``.
BRIDGE_MOE_A2A_OVERLAP = {("25.11", "H100", "qwen3-235b-a22b"), ("25.11", "H100", "qwen3-30b-a3b"),
                          ("25.11", "B200", "qwen3-235b-a22b"), ("26.04.01", "B200", "deepseek-v3"),
                          ("26.04.01", "H100", "qwen3-235b-a22b"), ("26.04.01", "GB200", "gpt-oss-120b")}


def _set_flags(sc: dict, overlap: bool, modules: tuple | None) -> dict:
    sc = copy.deepcopy(sc)
    if overlap:
        sc["parallel"]["ep_a2a_overlap"] = True
    if modules:
        sc["training"]["recompute"] = "megatron_selective"
        sc["training"]["recompute_modules"] = list(modules)
    return sc


def _step(sc: dict) -> float:
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import scenario_from_dict
    from gpuplanner.core.timing import time_estimate

    return time_estimate(resolve(scenario_from_dict(sc))).step_time_s


def _tps(sc: dict) -> float:
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import scenario_from_dict
    from gpuplanner.core.timing import time_estimate

    return time_estimate(resolve(scenario_from_dict(sc))).tokens_per_s_per_gpu


# --------------------------------------------------------------------------------------------------- Model Zoo

#: label → (overlap, recompute modules) as the Zoo table states them (ptoos11's reading)
ZOO_FLAGS = {
    "Qwen3-235B DeepEP TP2 PP8 VP4 EP32, norm+act": (False, ("layernorm", "moe_act")),
    "Qwen3-235B same + 1F1B EP overlap": (True, ("layernorm", "moe_act")),
    "Qwen3-235B DeepEP TP2 EP8 FSDP MBS4, full": (False, None),
    "Qwen3-235B A2A TP2 PP32 VP3 EP8, norm+act": (False, ("layernorm", "moe_act")),
    "Qwen3-235B DeepEP TP4 PP8 VP4 EP8": (False, None),
}


def zoo_rows() -> list[dict]:
    import validate_pretrain_oos11 as z

    out = []
    for label, kw, pub, _ok in z.ZOO:
        # "before": round 11's entry (no modules, no overlap; the overlap row was not describable)
        sc = z.zoo_scenario(**{k: v for k, v in kw.items() if k not in ("mods", "ovl")})
        ok = "overlap" not in label
        ovl, mods = ZOO_FLAGS[label]
        before = _step(sc)
        after = _step(_set_flags(sc, ovl, mods))
        out.append({"label": label, "pub": pub, "before": before, "after": after,
                    "err_b": pub / before - 1, "err_a": pub / after - 1, "desc_before": ok, "flags": (ovl, mods)})
    return out


def zoo_long_rows() -> list[dict]:
    """The long-context rows with ``--recompute-modules layernorm moe`` against the forced-balance figure, and the two
    bounds ptoos11 had to use (recompute none and full)."""
    import validate_pretrain_oos11 as z

    out = []
    for seq, cp, fb, _dl in z.ZOO_LONG:
        pub = z.long_pub_step(seq, fb)
        base = z.zoo_scenario(4, 8, 4, 8, 1, "flex", seq=seq, gbs=z.ZOO_LONG_GBS, cp=cp)
        full = copy.deepcopy(base)
        full["training"]["recompute"] = "full"
        none_s, full_s = _step(base), _step(full)
        mod_s = _step(_set_flags(base, False, ("layernorm", "moe")))
        out.append({"label": f"long {seq} CP{cp}", "pub": pub, "none": none_s, "full": full_s, "after": mod_s,
                    "err_none": pub / none_s - 1, "err_full": pub / full_s - 1, "err_a": pub / mod_s - 1})
    return out


# --------------------------------------------------------------------------------------------------- Bridge

def _bridge_flags(rel: str, system: str, model: str, overlap: bool) -> tuple[bool, tuple | None]:
    import validate_moe_gap as gap

    mods = gap.recipe_recompute(model, system, rel) or None
    return overlap, mods


def bridge_rows(which: str = "table") -> list[dict]:
    """The Bridge MoE table (``table``) or its out-of-sample releases (``oos``), each row before and after its flags,
    and with each flag alone (``ovl_only``, ``mod_only``)."""
    import validate_moe_oos as oos
    import validate_time as vt

    rows = vt.BRIDGE_MOE if which == "table" else oos.BRIDGE_MOE_OOS
    out = []
    for row in rows:
        rel, system, model = row[0], row[1], row[2]
        if which == "table":
            sc = vt.bridge_moe_scenario(row)
            ovl = (rel, system, model) in BRIDGE_MOE_A2A_OVERLAP
        else:
            sc = oos.oos_scenario(row)
            ovl = "moe_a2a_overlap" in row[15]
        ovl, mods = _bridge_flags(rel, system, model, ovl)
        # "before": the row as round 11 entered it (validate_time.bridge_moe_scenario now enters the modules)
        sc["training"].pop("recompute_modules", None)
        sc["training"].pop("recompute", None)
        try:
            before = _tps(sc)
        except Exception as e:  # noqa: BLE001 (a row the scenario refuses, as validate_time reports it)
            out.append({"label": f"{rel} {system} {model}", "skip": str(e)})
            continue
        pub = row[12]
        r = {"label": f"{rel} {system} {model} TP{row[8]} PP{row[9]} VP{row[10]} EP{row[11]}", "pub": pub,
             "before": before, "err_b": before / pub - 1, "flags": (ovl, mods)}
        r["after"] = _tps(_set_flags(sc, ovl, mods)) if (ovl or mods) else before
        r["err_a"] = r["after"] / pub - 1
        r["ovl_only"] = _tps(_set_flags(sc, ovl, None)) / pub - 1 if ovl else None
        r["mod_only"] = _tps(_set_flags(sc, False, mods)) / pub - 1 if mods else None
        out.append(r)
    return out


def _p90(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.9 * (len(xs) - 1))))]


def stats(errs: list[float]) -> str:
    a = [abs(e) for e in errs]
    return f"{len(a)} rows, median {statistics.median(a):.1%}, p90 {_p90(a):.1%}" if a else "no rows"


def _flag_text(flags) -> str:
    ovl, mods = flags
    parts = (["overlap"] if ovl else []) + ([" ".join(mods)] if mods else [])
    return ", ".join(parts) or "—"


def lines() -> list[str]:
    out = ["| row | flags entered | published | before | error before | after | error after |",
           "|---|---|---:|---:|---:|---:|---:|"]
    zoo = zoo_rows()
    for r in zoo:
        eb = f"{r['err_b']:+.1%}" + ("" if r["desc_before"] else " (not describable)")
        out.append(f"| Zoo {r['label']} | {_flag_text(r['flags'])} | {r['pub']:.1f} s | {r['before']:.2f} | {eb} | "
                   f"{r['after']:.2f} | {r['err_a']:+.1%} |")
    out += ["", f"Model Zoo, describable before (4): before {stats([r['err_b'] for r in zoo if r['desc_before']])}; "
            f"after, same 4: {stats([r['err_a'] for r in zoo if r['desc_before']])}; after, all 5: "
            f"{stats([r['err_a'] for r in zoo])}", ""]
    out += ["| long context (forced balance) | published | none | full | layernorm moe | error none / full → modules |",
            "|---|---:|---:|---:|---:|---|"]
    lr = zoo_long_rows()
    for r in lr:
        out.append(f"| {r['label']} | {r['pub']:.1f} s | {r['none']:.1f} | {r['full']:.1f} | {r['after']:.1f} | "
                   f"{r['err_none']:+.1%} / {r['err_full']:+.1%} → {r['err_a']:+.1%} |")
    out += ["", f"long context: none bound {stats([r['err_none'] for r in lr])}; full bound "
            f"{stats([r['err_full'] for r in lr])}; with the modules {stats([r['err_a'] for r in lr])}", ""]
    for which, title in (("table", "Bridge MoE table (validate_time.BRIDGE_MOE)"),
                         ("oos", "Bridge MoE out of sample (validate_moe_oos)")):
        rows = [r for r in bridge_rows(which) if "skip" not in r]
        out += [f"{title}: rows whose recipe sets a flag", "",
                "| row | flags | error before | overlap alone | modules alone | both (after) |", "|---|---|---:|---:|---:|---:|"]
        for r in rows:
            if r["flags"][0] or r["flags"][1]:
                o = "" if r["ovl_only"] is None else f"{r['ovl_only']:+.1%}"
                mo = "" if r["mod_only"] is None else f"{r['mod_only']:+.1%}"
                out.append(f"| {r['label']} | {_flag_text(r['flags'])} | {r['err_b']:+.1%} | {o} | {mo} | "
                           f"{r['err_a']:+.1%} |")
        mod_only = [r["mod_only"] if r["mod_only"] is not None else r["err_b"] for r in rows]
        ovl_only = [r["ovl_only"] if r["ovl_only"] is not None else r["err_b"] for r in rows]
        out += ["", f"{title}: before {stats([r['err_b'] for r in rows])}; modules only {stats(mod_only)}; "
                f"overlap only {stats(ovl_only)}; both {stats([r['err_a'] for r in rows])}", ""]
    return out


def main() -> int:
    print("\n".join(lines()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
