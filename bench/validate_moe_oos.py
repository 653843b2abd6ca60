"""Megatron-Bridge MoE pre-training rows of releases the MoE table (``validate_time.BRIDGE_MOE``) does not hold.

Usage: python bench/validate_moe_oos.py

Out-of-sample check (issue 35 round 7, helper moe10): the model's constants were set while looking at the 25.11 and
26.04.01 rows of ``BRIDGE_MOE`` (and the release pairs); these rows come from the other releases of the same archive
and were scored before any change of round 7.

Source: NVIDIA-NeMo/Megatron-Bridge ``docs/performance-summary-archive.md`` at commit 067f987df03b (2026-08-22),
sections "26.02", "26.02.01", "26.04" and "26.06" (DGX-H100, DGX-B200, DGX-GB200; the models the catalogue holds).
Each row's recipe is the Bridge tag of its container (``docs/releases/software-versions.md``: 26.02 = v0.3.0,
26.04 = v0.4.0, 26.06 = v0.5.0; 26.02.01 = v0.3.1) and its ``scripts/performance/configs/{qwen,deepseek,gpt_oss}/
*_workload_base_configs.py`` config whose GPU count, TP/PP/VP/EP, GBS and MBS equal the published row's
(``{MODEL}_PRETRAIN_CONFIG_{GPU}_{PRECISION}_V1|V2``): its ``moe_flex_dispatcher_backend`` (set → Megatron's flex
dispatcher) and ``cuda_graph_scope`` are entered; the rest as ``validate_time.bridge_moe_scenario`` enters the MoE
table (FP8 and MXFP8 as TE current scaling, expert TP 1, ZeRO-1).

Left out: the rows that are already release pairs (26.02 / 26.02.01 H100 Qwen3-30B PP 2 / VP 12, in
``BRIDGE_MOE_RELEASE_PAIRS``); 26.02.01 B200 GPT-OSS (no v0.3.1 config has its layout); the 26.06, 26.06.01 and 26.08
GB200 rows (their v0.5.x recipes run ``cuda_graph_impl = "full_iteration"``, ``cutedsl_fused_grouped_mlp`` and FP8
attention, which the scenario cannot describe); the 25.09 token-drop rows (helper moe8: the v0.1.0rc3/rc4 layouts do
not match the published ones); GB300/B300 (not in the catalogue).
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

#: (release, system, model, precision, GPUs, GBS, MBS, sequence, TP, PP, VP, EP, published tok/s/GPU, dispatcher,
#: CUDA graph scope, recipe config) — dispatcher and scope from the recipe (module docstring).
BRIDGE_MOE_OOS = [
    ("26.06", "H100", "qwen3-30b-a3b", "fp8", 16, 1024, 1, 4096, 1, 1, 1, 16, 8826, "flex", None,
     "v0.5.0 QWEN3_30B_A3B_PRETRAIN_CONFIG_H100_FP8_CS_V1 (hybridep)"),
    ("26.04", "H100", "qwen3-30b-a3b", "fp8", 16, 1024, 1, 4096, 1, 1, 1, 16, 8901, "flex", None,
     "v0.4.0 QWEN3_30B_A3B_PRETRAIN_CONFIG_H100_FP8_CS_V1 (hybridep)"),
    ("26.04", "H100", "gpt-oss-120b", "bf16", 64, 1280, 1, 4096, 1, 4, 1, 8, 5810, "alltoall", None,
     "v0.4.0 GPT_OSS_120B_PRETRAIN_CONFIG_H100_BF16_V2"),
    ("26.02.01", "H100", "gpt-oss-120b", "bf16", 64, 1280, 1, 4096, 1, 4, 1, 8, 5984, "alltoall", None,
     "v0.3.1 GPT_OSS_120B_PRETRAIN_CONFIG_H100_BF16_V2"),
    ("26.02", "H100", "gpt-oss-120b", "bf16", 64, 1280, 1, 4096, 1, 4, 1, 8, 5993, "alltoall", None,
     "v0.3.0 GPT_OSS_120B_PRETRAIN_CONFIG_H100_BF16_V2"),
    ("26.04", "H100", "qwen3-235b-a22b", "fp8", 256, 8192, 1, 4096, 2, 8, 4, 32, 1686, "alltoall", None,
     "v0.4.0 QWEN3_235B_A22B_PRETRAIN_CONFIG_H100_FP8_CS_V2 (moe_a2a_overlap)"),
    ("26.02.01", "H100", "qwen3-235b-a22b", "fp8", 256, 8192, 1, 4096, 2, 8, 4, 32, 1611, "flex", None,
     "v0.3.1 QWEN3_235B_A22B_PRETRAIN_CONFIG_H100_FP8_CS_V2 (deepep, moe_a2a_overlap)"),
    ("26.02", "H100", "qwen3-235b-a22b", "fp8", 256, 8192, 1, 4096, 2, 8, 4, 32, 1633, "alltoall", None,
     "v0.3.0 QWEN3_235B_A22B_PRETRAIN_CONFIG_H100_FP8_CS_V2 (moe_a2a_overlap)"),
    ("26.04", "B200", "deepseek-v3", "fp8", 256, 4096, 1, 4096, 1, 16, 1, 8, 2815, "flex", None,
     "v0.4.0 DEEPSEEK_V3_PRETRAIN_CONFIG_B200_FP8_MX_V2 (hybridep)"),
    ("26.02.01", "B200", "deepseek-v3", "fp8", 256, 4096, 1, 4096, 1, 16, 1, 8, 2790, "flex", None,
     "v0.3.1 DEEPSEEK_V3_PRETRAIN_CONFIG_B200_FP8_MX_V2 (hybridep)"),
    ("26.02", "B200", "deepseek-v3", "fp8", 256, 4096, 1, 4096, 1, 16, 1, 8, 2689, "flex", None,
     "v0.3.0 DEEPSEEK_V3_PRETRAIN_CONFIG_B200_FP8_MX_V2 (hybridep)"),
    ("26.04", "B200", "gpt-oss-120b", "bf16", 64, 1280, 4, 4096, 1, 1, 1, 8, 13045, "flex", None,
     "v0.4.0 GPT_OSS_120B_PRETRAIN_CONFIG_B200_BF16_V2 (hybridep)"),
    ("26.02", "B200", "gpt-oss-120b", "bf16", 64, 1280, 4, 4096, 1, 1, 1, 64, 8047, "alltoall", None,
     "v0.3.0 GPT_OSS_120B_PRETRAIN_CONFIG_B200_BF16_V2"),
    ("26.04", "B200", "qwen3-30b-a3b", "fp8", 8, 512, 4, 4096, 1, 1, 1, 8, 26859, "flex", "attn_moe_router",
     "v0.4.0 QWEN3_30B_A3B_PRETRAIN_CONFIG_B200_FP8_MX_V1 (hybridep)"),
    ("26.02.01", "B200", "qwen3-30b-a3b", "fp8", 8, 512, 4, 4096, 1, 1, 1, 8, 26695, "flex", "attn_moe_router",
     "v0.3.1 QWEN3_30B_A3B_PRETRAIN_CONFIG_B200_FP8_MX_V1 (hybridep)"),
    ("26.02", "B200", "qwen3-30b-a3b", "fp8", 8, 512, 1, 4096, 1, 1, 1, 8, 9691, "alltoall", "moe_router",
     "v0.3.0 QWEN3_30B_A3B_PRETRAIN_CONFIG_B200_FP8_MX_V1"),
    ("26.02", "B200", "qwen3-235b-a22b", "fp8", 256, 8192, 1, 4096, 1, 8, 1, 8, 3805, "alltoall", None,
     "v0.3.0 QWEN3_235B_A22B_PRETRAIN_CONFIG_B200_FP8_MX_V2"),
    ("26.04", "GB200", "deepseek-v3", "fp8", 256, 4096, 1, 4096, 1, 4, 4, 64, 4193, "flex", "attn_moe_router",
     "v0.4.0 DEEPSEEK_V3_PRETRAIN_CONFIG_GB200_FP8_MX_V2 (hybridep)"),
    ("26.02.01", "GB200", "deepseek-v3", "fp8", 256, 4096, 1, 4096, 1, 4, 4, 64, 4021, "flex", "attn_moe_router",
     "v0.3.1 DEEPSEEK_V3_PRETRAIN_CONFIG_GB200_FP8_MX_V2 (hybridep)"),
    ("26.02", "GB200", "deepseek-v3", "fp8", 256, 4096, 1, 4096, 1, 4, 4, 64, 3955, "flex", "attn_moe_router",
     "v0.3.0 DEEPSEEK_V3_PRETRAIN_CONFIG_GB200_FP8_MX_V2 (hybridep)"),
    ("26.04", "GB200", "gpt-oss-120b", "bf16", 64, 1280, 4, 4096, 1, 1, 1, 64, 15938, "flex", None,
     "v0.4.0 GPT_OSS_120B_PRETRAIN_CONFIG_GB200_BF16_V2 (hybridep, moe_a2a_overlap)"),
    ("26.02.01", "GB200", "gpt-oss-120b", "bf16", 64, 1280, 4, 4096, 1, 1, 1, 64, 15754, "alltoall", None,
     "v0.3.1 GPT_OSS_120B_PRETRAIN_CONFIG_GB200_BF16_V2"),
    ("26.02", "GB200", "gpt-oss-120b", "bf16", 64, 1280, 4, 4096, 1, 1, 1, 64, 15784, "alltoall", None,
     "v0.3.0 GPT_OSS_120B_PRETRAIN_CONFIG_GB200_BF16_V2"),
    ("26.04", "GB200", "qwen3-30b-a3b", "fp8", 8, 512, 4, 4096, 1, 1, 1, 8, 26032, "flex", "moe_router",
     "v0.4.0 QWEN3_30B_A3B_PRETRAIN_CONFIG_GB200_FP8_MX_V1 (hybridep)"),
    ("26.02.01", "GB200", "qwen3-30b-a3b", "fp8", 8, 512, 4, 4096, 1, 1, 1, 8, 26373, "flex", "moe_router",
     "v0.3.1 QWEN3_30B_A3B_PRETRAIN_CONFIG_GB200_FP8_MX_V1 (hybridep)"),
    ("26.02", "GB200", "qwen3-30b-a3b", "fp8", 8, 512, 4, 4096, 1, 1, 1, 8, 26084, "flex", "moe_router",
     "v0.3.0 QWEN3_30B_A3B_PRETRAIN_CONFIG_GB200_FP8_MX_V1 (hybridep)"),
    ("26.04", "GB200", "qwen3-235b-a22b", "fp8", 256, 8192, 1, 4096, 1, 8, 3, 32, 5672, "flex", "attn_moe_router",
     "v0.4.0 QWEN3_235B_A22B_PRETRAIN_CONFIG_GB200_FP8_MX_V2 (hybridep)"),
    ("26.02.01", "GB200", "qwen3-235b-a22b", "fp8", 256, 8192, 1, 4096, 1, 8, 1, 32, 5530, "flex", "attn_moe_router",
     "v0.3.1 QWEN3_235B_A22B_PRETRAIN_CONFIG_GB200_FP8_MX_V2 (hybridep)"),
    ("26.02", "GB200", "qwen3-235b-a22b", "fp8", 256, 8192, 1, 4096, 1, 8, 1, 32, 5448, "flex", "attn_moe_router",
     "v0.3.0 QWEN3_235B_A22B_PRETRAIN_CONFIG_GB200_FP8_MX_V2 (hybridep)"),
]

#: |error| median / p90 of these rows with main's model before round 7's MoE change (helper moe10; main at ca9afee)
BRIDGE_MOE_OOS_BEFORE = {"all": (0.174, 0.624), "x86": (0.283, 0.500)}


def oos_scenario(row) -> dict:
    """The scenario for one :data:`BRIDGE_MOE_OOS` row: the MoE table's entry with the recipe's dispatcher and
    CUDA graph scope."""
    import validate_time as vt

    rel, system, model, prec, n, gbs, mbs, seq, tp, pp, vp, ep, pub, disp, scope, _cfg = row
    sc = vt.bridge_moe_scenario((rel, system, model, prec, n, gbs, mbs, seq, tp, pp, vp, ep, pub, ""))
    sc["parallel"]["moe_dispatcher"] = disp
    sc["parallel"]["cuda_graph_scope"] = scope
    return sc


def oos_results() -> list[dict]:
    """Each row with its prediction and signed error (+ = predicted too fast)."""
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import scenario_from_dict
    from gpuplanner.core.timing import time_estimate

    out = []
    for row in BRIDGE_MOE_OOS:
        t = time_estimate(resolve(scenario_from_dict(oos_scenario(row))))
        pred = t.tokens_per_s_per_gpu
        out.append({"row": row, "pred": pred, "err": pred / row[12] - 1})
    return out


def _p90(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.9 * (len(xs) - 1))))]


def oos_stats(results: list[dict], systems=("H100", "B200", "GB200")) -> tuple[int, float, float]:
    """(rows, median |error|, p90 |error|) over the rows on ``systems``."""
    e = [abs(r["err"]) for r in results if r["row"][1] in systems]
    return len(e), statistics.median(e), _p90(e)


def oos_rows() -> list[str]:
    """The table as markdown lines."""
    res = oos_results()
    out = ["| release | system | model | precision | GPUs | MBS | TP/PP/VP/EP | dispatcher | CUDA graphs | published | "
           "predicted | error | recipe |", "|---|---|---|---|---:|---:|---|---|---|---:|---:|---:|---|"]
    for r in res:
        rel, system, model, prec, n, _g, mbs, _s, tp, pp, vp, ep, pub, disp, scope, cfg = r["row"]
        out.append(f"| {rel} | {system} | {model} | {prec} | {n} | {mbs} | {tp}/{pp}/{vp}/{ep} | {disp} | "
                   f"{scope or '—'} | {pub:,} | {r['pred']:,.0f} | {r['err']:+.0%} | {cfg} |")
    n, med, p90 = oos_stats(res)
    nx, medx, p90x = oos_stats(res, ("H100", "B200"))
    out += ["", f"|error| median / p90: all {n} rows {med:.1%} / {p90:.1%}; x86 (H100, B200) {nx} rows "
                f"{medx:.1%} / {p90x:.1%}."]
    return out


def main() -> int:
    print("\n".join(oos_rows()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
