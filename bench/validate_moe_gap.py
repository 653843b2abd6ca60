"""Where the Megatron-Bridge MoE rows' time goes: published time per layer and micro-batch against the model's parts.

Usage: python bench/validate_moe_gap.py

Issue 35 round 8 (helper moe11). For every row of the MoE table (``validate_time.BRIDGE_MOE``) and of the out-of-sample
table (``validate_moe_oos.BRIDGE_MOE_OOS``) it divides the published step (``GBS × sequence / (tok/s/GPU × GPUs)``)
by the micro-batches one pipeline rank runs (``GBS / (DP × MBS)``, ``DP = GPUs / (TP × PP)``) and the layers of one
stage (``L / PP``), and sets beside it the model's parts per layer and micro-batch: the GPU's work (``compute`` and
``other``, the host waits included), the expert all-to-all (``ep_comm``), the pipeline bubble and imbalance, the
data-/tensor-parallel communication left exposed, and the host issue time the model counts for one MoE layer
(``timing.moe_host_parts``, the dispatcher's own kernels ``timing.moe_dispatch_host_ops`` included). ``gap`` = published
− predicted step, per layer and micro-batch (+ = the model is missing time). The pipeline bubble is in both, so the
gap is the time the model does not have.

The recipe's activation recomputation (Megatron ``recompute_modules``, selective granularity) is listed per row
(:data:`RECIPE_RECOMPUTE`); since issue 35 round 12 (mgfields12) the MoE table's scenario enters it
(``training.recompute_modules``, ``validate_time.bridge_moe_scenario``).
Read from each release's Megatron-Bridge tag by executing ``scripts/performance/configs/{qwen,qwen3,deepseek,gpt_oss}/
*workload_base_configs.py`` with a stub ``WorkloadBaseConfig`` (25.11 = v0.2.2, 26.02 = v0.3.0, 26.02.01 = v0.3.1,
26.04 = v0.4.0, 26.04.01 = v0.4.2): every Qwen3 recipe sets none (``qwen3_llm_pretrain.py``
``set_qwen3_common_configs``: ``recompute_granularity = None``); every GPT-OSS recipe ``["layernorm", "moe_act"]``;
DeepSeek-V3 ``["mla_up_proj"]`` (B200 and GB200 25.11 to 26.02.01, B200 26.04), ``["mlp"]`` (GB200 26.04 and
26.04.01: ``DEEPSEEK_V3_PRETRAIN_CONFIG_GB200_FP8_MX_V2``), ``["mla_up_proj", "mlp"]`` (B200 26.04.01:
``DEEPSEEK_V3_PRETRAIN_CONFIG_B200_FP8_MX_V2``). Megatron-LM d98e8a64 ``transformer_layer.py``: ``"mlp"`` recomputes
only dense MLP layers (``if not self.is_moe_layer``), so for DeepSeek-V3 its first three layers.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

#: (model, system, release) → the recipe's ``recompute_modules`` (module docstring); () = none. A release not
#: named takes the model's entry under None.
RECIPE_RECOMPUTE = {
    ("qwen3-30b-a3b", None, None): (),
    ("qwen3-235b-a22b", None, None): (),
    ("gpt-oss-120b", None, None): ("layernorm", "moe_act"),
    ("deepseek-v3", None, None): ("mla_up_proj",),
    ("deepseek-v3", "GB200", "26.04"): ("mlp",),
    ("deepseek-v3", "GB200", "26.04.01"): ("mlp",),
    ("deepseek-v3", "B200", "26.04.01"): ("mla_up_proj", "mlp"),
}


def recipe_recompute(model: str, system: str, release: str) -> tuple[str, ...] | None:
    """The recipe's ``recompute_modules`` for one published row; None for a row that is not a Bridge recipe."""
    if not release[:1].isdigit():
        return None
    return RECIPE_RECOMPUTE.get((model, system, release), RECIPE_RECOMPUTE.get((model, None, None)))


def published_ms_per_layer_mb(row) -> float:
    """Published step per layer of one pipeline stage and per micro-batch of one rank, in milliseconds."""
    _rel, _sys, _model, _prec, n, gbs, mbs, seq, tp, pp, _vp, _ep, pub = row[:13]
    dp = n // (tp * pp)
    return 1e3 * gbs * seq / (pub * n) / (gbs / (dp * mbs)) / (_layers(row) / pp)


def _layers(row) -> int:
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import scenario_from_dict

    return resolve(scenario_from_dict(_scenario(row))).arch.num_layers


def _scenario(row) -> dict:
    import validate_moe_oos as oos
    import validate_time as vt

    return oos.oos_scenario(row) if len(row) == 16 else vt.bridge_moe_scenario(row)


def gap_result(row, table: str) -> dict:
    """One row's published and modelled time per layer and micro-batch (ms), with its recipe facts."""
    from gpuplanner.core import timing
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.memory import model_facts
    from gpuplanner.core.scenario import scenario_from_dict

    rel, system, model, prec, n, gbs, mbs, seq, tp, pp, _vp, ep, pub = row[:13]
    sc = _scenario(row)
    r = resolve(scenario_from_dict(sc))
    t = timing.time_estimate(r)
    per = gbs / (n // (tp * pp) * mbs) * r.arch.num_layers / pp  # layer × micro-batch units in one step
    s = t.seconds
    host = sum(timing.moe_host_parts(model_facts(r.arch), "megatron", prec, ep, pp, sc["parallel"]["cuda_graph_scope"],
                                     sc["training"].get("fp8_recipe"), sc["parallel"]["moe_dispatcher"]))
    pub_step = gbs * seq / (pub * n)
    return {"table": table, "row": row, "disp": sc["parallel"]["moe_dispatcher"], "local": r.arch.num_experts // ep,
            "rec": recipe_recompute(model, system, rel), "pub": 1e3 * pub_step / per,
            "gpu": 1e3 * (s["compute"] + s["other"]) / per, "ep": 1e3 * s["ep_comm"] / per,
            "pp": 1e3 * s["pp_bubble"] / per, "comm": 1e3 * (s["dp_comm"] + s["tp_comm"] + s["cp_comm"]) / per,
            "host": 1e3 * host / (r.arch.num_layers / pp), "gap": 1e3 * (pub_step - t.step_time_s) / per,
            "err": t.tokens_per_s_per_gpu / pub - 1}


def gap_results() -> list[dict]:
    """:func:`gap_result` of every MoE-table row (the DeepSeek-V3 report included) and every out-of-sample row."""
    import validate_moe_oos as oos
    import validate_time as vt

    return ([gap_result(row, "MoE table") for row in vt.BRIDGE_MOE]
            + [gap_result(row, "out-of-sample") for row in oos.BRIDGE_MOE_OOS])


def _group(res: dict) -> str:
    rel, system, model = res["row"][:3]
    if not rel[:1].isdigit():
        return "DeepSeek-V3 report (HAI-LLM)"
    if model == "gpt-oss-120b":
        return "GPT-OSS, every system"
    where = "GB200" if system == "GB200" else "x86"
    fam = "DeepSeek-V3" if model == "deepseek-v3" else "Qwen3"
    return f"{fam}, {where}, {res['disp']}"


def gap_groups(results: list[dict]) -> dict[str, tuple[int, float, float]]:
    """Per group of rows: (rows, median gap ms, median signed error)."""
    out: dict[str, list[dict]] = {}
    for res in results:
        out.setdefault(_group(res), []).append(res)
    return {k: (len(v), statistics.median(x["gap"] for x in v), statistics.median(x["err"] for x in v))
            for k, v in sorted(out.items())}


def gap_rows() -> list[str]:
    """The table as markdown lines."""
    res = gap_results()
    out = ["| table | release | system | model | MBS | TP/PP/VP/EP | dispatcher | local experts | recipe recompute | "
           "published | GPU work | EP all-to-all | pipeline | DP/TP comm | host issue (counted) | gap | error |",
           "|---|---|---|---|---:|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in res:
        rel, system, model, _p, _n, _g, mbs, _s, tp, pp, vp, ep = r["row"][:12]
        rec = "—" if r["rec"] is None else (", ".join(r["rec"]) or "none")
        out.append(f"| {r['table']} | {rel} | {system} | {model} | {mbs} | {tp}/{pp}/{vp}/{ep} | {r['disp']} | "
                   f"{r['local']} | {rec} | {r['pub']:.2f} | {r['gpu']:.2f} | {r['ep']:.2f} | {r['pp']:.2f} | "
                   f"{r['comm']:.2f} | {r['host']:.2f} | {r['gap']:+.2f} | {r['err']:+.0%} |")
    out += ["", "Milliseconds per layer of one pipeline stage and per micro-batch of one rank. By group (rows, median "
                "gap, median error, + = predicted too fast):", ""]
    out += [f"- {k}: {n} rows, {gap:+.2f} ms, {err:+.0%}" for k, (n, gap, err) in gap_groups(res).items()]
    return out


def main() -> int:
    print("\n".join(gap_rows()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
