"""Published pre-training step times the project had not used: an out-of-sample check (issue 35 round 11, ptoos11).

Usage: python bench/validate_pretrain_oos11.py [--md]

Every row was entered and scored BEFORE any model change (``BEFORE`` holds those predictions, main 367a38d3); "now"
is the current code. This round's one model change (``timing.ep_recompute_passes``: whole-layer recompute re-runs the
MoE layer's expert dispatch) moves only the rows with full recompute and expert parallelism here (the Megatron-FSDP
row and the long-context "full" bound). No constant was chosen from these rows. Error = published step / predicted step − 1 (+ = the model is too fast). Before entering a source I
grepped ``bench/``, ``tests/``, ``docs/`` and ``gpuplanner/resources`` for its repository and path: none was held.

Sources
-------
1. **Megatron MoE Model Zoo, Qwen3-235B-A22B on 256 H100** (NVIDIA's Megatron-Core MoE team):
   github.com/yanring/Megatron-MoE-ModelZoo ``best_practice/Qwen3/readme.md`` at c1ad0b5c89f425d60febddc38e7f741a16f08bd1
   (the same table: ``examples/qwen3/readme.md`` at 17070963cc). "256 H100 GPUS, NVLink 4th Generation, InfiniBand
   8x50 GB/s", BF16, sequence 4096, GBS 2048, Megatron-LM ``moe_dev`` f3e6c5 / ``main`` 1e057005. Columns read:
   dispatcher (DeepEP = ``--moe-token-dispatcher-type flex``; A2A = ``alltoall``), TP, CP, EP, PP, ETP 1, VPP, FSDP,
   MBS, recompute, "Step time (sec)". The model file ``model_configs/benchmarking/Qwen3-235B-A22B.yaml`` (same repo,
   1ed4179f): 94 layers, ``--account-for-embedding-in-pipeline-split`` / ``-loss-`` (``runtime.conf`` counts 96
   layers for the stage split: ``pp_account_embedding_loss``), ``--sequence-parallel``, distributed optimizer with
   ``--overlap-grad-reduce`` / ``--overlap-param-gather``, ``--cross-entropy-loss-fusion`` (TE), ``--moe-grouped-gemm``,
   ``--moe-permute-fusion``, ``--expert-tensor-parallel-size 1``, flash attention, untied embeddings, vocabulary
   151,936 (``--make-vocab-size-divisible-by 1187``: 1187 × 128 = 151,936, no padding at TP 2 or 4).
   *Check of the reading*: Megatron-LM's ``num_floating_point_operations`` (``megatron/training/training.py``, causal
   attention since 8873b55d6a, 2025-03-06) gives 2048 × 4096 × F / step / 256 = 246 / 276 / 200 / 167 TFLOP/s for
   the 19.7 / 17.6 / 24.2 / 29.0 s rows against the table's 245 / 276 / 200 / 167: the step is per iteration of the
   whole GBS on 256 GPUs. ``F`` is :func:`megatron_moe_flops_per_token`.
   *Not describable*: the "+1f1b overlap" row (Megatron's ``--overlap-moe-expert-parallel-comm``, EP all-to-all hidden
   behind the other micro-batch's compute in the combined 1F1B schedule: no scenario field) is entered without the
   overlap and shown apart; "recompute: norm, act" (``--recompute-modules layernorm moe_act``: the norms and the
   expert activation re-run, element-wise work) is entered as ``none`` (ASSUMED small).
2. **The same table's "Long Context" section**: 32 nodes of H100, TP 4, CP 1/2/4/8 at sequence 16k/32k/64k/128k,
   GBS 256, DeepEP, BF16, "TFLOPS" with ``--moe-router-force-load-balancing`` ("forced balance") and without
   ("dropless"). Command: ``PP=8 VPP=4 EP=8 ... --recompute-granularity selective --recompute-modules layernorm moe``;
   MBS from ``runtime.conf`` (1). Published TFLOP/s → step with the same Megatron count
   (:func:`megatron_moe_flops_per_token`). ``moe`` recompute re-runs the whole MoE layer's forward (router, dispatch,
   experts, combine: Megatron-Core ``transformer/moe/moe_layer.py`` ``MoELayer.forward`` under
   ``tensor_parallel.checkpoint`` when ``"moe" in recompute_modules``); the scenario has no per-module recompute, so
   each row is predicted twice, ``none`` (too little recompute) and ``full`` (too much: also attention), and the
   published figure is reported against both. The model assumes balanced routing (``timing`` MoE terms; round 10's
   moeimb10: exact for forced balance), so the forced-balance column is the one to compare; the runs load the
   Qwen3 checkpoint (``runtime.conf``: ``PRETRAIN 0``, the yaml's ``--finetune --load``), so "dropless" routes with
   the released router's imbalance.
3. **Megatron-LM ``examples/llama/README.md`` "FP8 Performance"** at bf6e99859f884fa2d7733497022f49ca5b950569
   (2025-06-14; github.com/NVIDIA/Megatron-LM): Llama 3 8B / 70B / 405B on 8 / 64 / 1024 GPUs, GBS 128 / 128 / 512,
   MBS 1, sequence 8192, TP/PP/CP/VP 1/1/2/1, 4/8/1/5, 8/8/2/8, tokens/s/GPU 13,812 / 1,621 / 315. The card: the
   README's script ``train_llama3_8b_h100_fp8.sh`` (same commit) is for H100; the README names no other card
   (ASSUMED H100 SXM for the 70B/405B rows too). FP8: the script's ``--fp8-format hybrid --fp8-amax-history-len 1024
   --fp8-amax-compute-algo max --fp8-param-gather`` (Transformer Engine delayed scaling, FP8 weight gather);
   ``--cross-entropy-loss-fusion``, distributed optimizer with both overlaps, sequence parallel, no recompute. The
   70B/405B rows are entered with the same flags (ASSUMED; the README says the configuration "follows those defined
   in NeMo Framework's performance scripts"). Entered through ``validate_bridge_dense.scenario`` (the NeMo/Bridge
   rows' conventions: ``ds`` = delayed scaling with FP8 gather).

Not entered: the Model Zoo's Qwen3-Next-80B-A3B row (gated delta-net layers: no preset), DeepSeek-V3 / Mixtral best
practice pages (no figures at the stored commits), Megatron-LM's DeepSeek-V3 GB200 report (MXFP8 with kernel
changes the scenario cannot describe). NeMo's 24.07 perf table at 4c73f77670 (a first version of the 24.07 table
already held at 8e3d65dcfe; re-runs of the same configs, not independent rows).
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import validate_bridge_dense as vbd  # noqa: E402

ZOO_SRC = ("github.com/yanring/Megatron-MoE-ModelZoo best_practice/Qwen3/readme.md @c1ad0b5c "
           "+ model_configs/benchmarking/Qwen3-235B-A22B.yaml @1ed4179f")
MLM_SRC = "github.com/NVIDIA/Megatron-LM examples/llama/README.md @bf6e9985 (FP8 Performance)"

#: Qwen3-235B-A22B as Megatron counts it (the yaml above): layers, hidden, heads, KV groups, head dim, expert FFN,
#: top-k, vocabulary
QWEN3_235B = (94, 4096, 64, 4, 128, 1536, 8, 151936)


def megatron_moe_flops_per_token(seq: int, arch=QWEN3_235B) -> float:
    """Megatron-LM ``num_floating_point_operations`` / (batch × sequence) for a GQA MoE without dense layers or
    shared experts (``megatron/training/training.py`` at 610a75ef3a^, causal attention since 8873b55d6a):
    ``12·L·h·(f_moe·k·3/2) + 12·L·h²·(1 + g/a + s/(2h))·(q/h) + 6·h·V``."""
    L, h, a, g, hd, f, k, V = arch
    q_ratio = a * hd / h
    return 12 * L * h * (f * k * 1.5) + 12 * L * h * h * (1 + g / a + seq / h / 2) * q_ratio + 6 * h * V


def zoo_scenario(tp, pp, vp, ep, mbs, disp, *, zero=1, rec="none", seq=4096, gbs=2048, cp=1, n=256,
                 mods: tuple | None = None, ovl: bool = False) -> dict:
    """A Model Zoo row as a Megatron-LM user enters it (module doc, source 1). ``mods``: the row's
    ``--recompute-modules`` (selective granularity), ``ovl``: ``--overlap-moe-expert-parallel-comm`` — the two
    scenario fields of issue 35 round 12 (mgfields12)."""
    training = {"framework": "megatron", "precision": "bf16", "seq_len": seq, "micro_batch_size": mbs,
                "global_batch_size": gbs, "fused_cross_entropy": True, "recompute": rec}
    if mods:
        training.update(recompute="megatron_selective", recompute_modules=list(mods))
    return {"model": {"preset": "qwen3-235b-a22b"}, "training": training,
            "parallel": {"tp": tp, "pp": pp, "vpp": vp, "ep": ep, "cp": cp, "expert_tp": 1,
                         "sequence_parallel": tp > 1, "zero": zero, "moe_dispatcher": disp,
                         "pp_account_embedding_loss": pp > 1, "ep_a2a_overlap": ovl},
            "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": n}}


#: (label, scenario kwargs, published step s, describable) — source 1; FSDP "On" = Megatron FSDP (``zero`` 3).
#: Round 12 (mgfields12): "norm, act" is entered as the table states it (``--recompute-modules layernorm moe_act``,
#: ``training.recompute_modules``) and the "+1f1b overlap" row with ``parallel.ep_a2a_overlap`` (now describable);
#: ``BEFORE`` keeps round 11's predictions (recompute none, no overlap).
_NORM_ACT = ("layernorm", "moe_act")
ZOO = [
    ("Qwen3-235B DeepEP TP2 PP8 VP4 EP32, norm+act", dict(tp=2, pp=8, vp=4, ep=32, mbs=1, disp="flex",
                                                          mods=_NORM_ACT), 19.7, True),
    ("Qwen3-235B same + 1F1B EP overlap", dict(tp=2, pp=8, vp=4, ep=32, mbs=1, disp="flex", mods=_NORM_ACT,
                                               ovl=True), 17.6, True),
    ("Qwen3-235B DeepEP TP2 EP8 FSDP MBS4, full", dict(tp=2, pp=1, vp=1, ep=8, mbs=4, disp="flex", zero=3,
                                                     rec="full"), 17.6, True),
    ("Qwen3-235B A2A TP2 PP32 VP3 EP8, norm+act", dict(tp=2, pp=32, vp=3, ep=8, mbs=1, disp="alltoall",
                                                       mods=_NORM_ACT), 24.2, True),
    ("Qwen3-235B DeepEP TP4 PP8 VP4 EP8", dict(tp=4, pp=8, vp=4, ep=8, mbs=1, disp="flex"), 29.0, True),
]

#: (sequence, CP, TFLOP/s forced balance, TFLOP/s dropless) — source 2
ZOO_LONG = [(16384, 1, 295, 237), (32768, 2, 335, 277), (65536, 4, 368, 320), (131072, 8, 389, 357)]
ZOO_LONG_GBS = 256

#: (label, validate_bridge_dense row) — source 3
MLM = [
    ("Llama 3 8B FP8, 8 GPUs, CP 2", ("Megatron-LM bf6e9985", "H100", "llama-3-8b", "ds", 8, 128, 1, 8192, 0,
                                      1, 1, 2, 1, 13812)),
    ("Llama 3 70B FP8, 64 GPUs, TP4 PP8 VP5", ("Megatron-LM bf6e9985", "H100", "llama-3-70b", "ds", 64, 128, 1, 8192,
                                               0, 4, 8, 1, 5, 1621)),
    ("Llama 3.1 405B FP8, 1024 GPUs, TP8 PP8 CP2 VP8", ("Megatron-LM bf6e9985", "H100", "llama-3.1-405b", "ds", 1024,
                                                        512, 1, 8192, 0, 8, 8, 2, 8, 315)),
]

#: predicted step seconds at main 367a38d3, before anything of this round (``--dump`` prints them)
BEFORE = {
    "Qwen3-235B DeepEP TP2 PP8 VP4 EP32, norm+act": 20.13,
    "Qwen3-235B same + 1F1B EP overlap": 20.13,
    "Qwen3-235B DeepEP TP2 EP8 FSDP MBS4, full": 20.53,
    "Qwen3-235B A2A TP2 PP32 VP3 EP8, norm+act": 19.56,
    "Qwen3-235B DeepEP TP4 PP8 VP4 EP8": 15.95,
    "Llama 3 8B FP8, 8 GPUs, CP 2": 9.82,
    "Llama 3 70B FP8, 64 GPUs, TP4 PP8 VP5": 11.52,
    "Llama 3.1 405B FP8, 1024 GPUs, TP8 PP8 CP2 VP8": 13.36,
    "long 16384 CP1 none": 9.58, "long 16384 CP1 full": 11.98,
    "long 32768 CP2 none": 23.32, "long 32768 CP2 full": 29.66,
    "long 65536 CP4 none": 65.39, "long 65536 CP4 full": 85.46,
    "long 131072 CP8 none": 210.20, "long 131072 CP8 full": 276.84,
}


def _step(sc: dict) -> tuple[float, float]:
    """(step seconds, tokens/s per GPU) the model predicts for ``sc``."""
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import scenario_from_dict
    from gpuplanner.core.timing import time_estimate

    t = time_estimate(resolve(scenario_from_dict(sc)))
    return t.step_time_s, t.tokens_per_s_per_gpu


def mlm_pub_step(row) -> float:
    """The published tokens/s/GPU of a Megatron-LM example row as a step: GBS × sequence / (rate × GPUs)."""
    _src, _sys, _m, _p, n, gbs, _mbs, seq, *_rest, pub = row
    return gbs * seq / (pub * n)


def long_pub_step(seq: int, tflops: float, n: int = 256) -> float:
    """A long-context row's TFLOP/s as a step: GBS × sequence × F / (rate × GPUs)."""
    return ZOO_LONG_GBS * seq * megatron_moe_flops_per_token(seq) / (tflops * 1e12 * n)


def results() -> list[dict]:
    """The step-time rows (sources 1 and 3): label, group, published, predicted now, before, describable."""
    out = []
    for label, kw, pub, ok in ZOO:
        pred, _tps = _step(zoo_scenario(**kw))
        out.append({"label": label, "group": "Model Zoo Qwen3-235B", "src": ZOO_SRC, "pub": pub, "pred": pred,
                    "before": BEFORE[label], "ok": ok})
    for label, row in MLM:
        pred, _tps = _step(vbd.scenario(row))
        out.append({"label": label, "group": "Megatron-LM examples/llama", "src": MLM_SRC, "pub": mlm_pub_step(row),
                    "pred": pred, "before": BEFORE[label], "ok": True})
    return out


def long_results() -> list[dict]:
    """Source 2: each sequence with the none/full recompute bounds and both published readings."""
    out = []
    for seq, cp, fb, dl in ZOO_LONG:
        r = {"seq": seq, "cp": cp, "pub_fb": long_pub_step(seq, fb), "pub_dl": long_pub_step(seq, dl)}
        for rec in ("none", "full"):
            r[rec] = _step(zoo_scenario(4, 8, 4, 8, 1, "flex", rec=rec, seq=seq, gbs=ZOO_LONG_GBS, cp=cp))[0]
            r[f"before_{rec}"] = BEFORE[f"long {seq} CP{cp} {rec}"]
        # the command's own recompute (round 12: training.recompute_modules)
        r["modules"] = _step(zoo_scenario(4, 8, 4, 8, 1, "flex", seq=seq, gbs=ZOO_LONG_GBS, cp=cp,
                                          mods=("layernorm", "moe")))[0]
        out.append(r)
    return out


def _p90(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.9 * (len(xs) - 1))))]


def _stats(errs: list[float]) -> str:
    a = [abs(e) for e in errs]
    return (f"{len(a)} rows: median |error| {statistics.median(a):.1%}, p90 {_p90(a):.1%}, "
            f"signed median {statistics.median(errs):+.1%}")


def summary_lines(res: list[dict], long: list[dict]) -> list[str]:
    out = []
    for name, sub in (("Model Zoo Qwen3-235B, describable", [r for r in res if r["ok"] and "Zoo" in r["group"]]),
                      ("Megatron-LM examples/llama", [r for r in res if "examples" in r["group"]]),
                      ("all describable step rows", [r for r in res if r["ok"]]),
                      ("all step rows (with the 1F1B-overlap row)", res)):
        out.append(f"- {name}: before {_stats([r['pub'] / r['before'] - 1 for r in sub])}; "
                   f"now {_stats([r['pub'] / r['pred'] - 1 for r in sub])}")
    for col, key in (("forced balance", "pub_fb"), ("dropless", "pub_dl")):
        for rec in ("none", "full"):
            out.append(f"- long context, {col}, predicted with recompute {rec}: before "
                       f"{_stats([r[key] / r['before_' + rec] - 1 for r in long])}; now "
                       f"{_stats([r[key] / r[rec] - 1 for r in long])}")
        out.append(f"- long context, {col}, predicted with the command's --recompute-modules layernorm moe (round 12): "
                   f"{_stats([r[key] / r['modules'] - 1 for r in long])}")
    return out


def row_lines(res: list[dict]) -> list[str]:
    out = ["| row | group | published step (s) | predicted before | error before | predicted now | error now |",
           "|---|---|---:|---:|---:|---:|---:|"]
    for r in res:
        tag = "" if r["ok"] else " (not describable)"
        out.append(f"| {r['label']}{tag} | {r['group']} | {r['pub']:.2f} | {r['before']:.2f} | "
                   f"{r['pub'] / r['before'] - 1:+.1%} | {r['pred']:.2f} | {r['pub'] / r['pred'] - 1:+.1%} |")
    return out


def long_lines(long: list[dict]) -> list[str]:
    out = ["| sequence | CP | published step, forced balance / dropless (s) | predicted, recompute none / full (s) "
           "| error forced balance, none / full | error dropless, none / full |", "|---:|---:|---|---|---|---|"]
    for r in long:
        out.append(f"| {r['seq']:,} | {r['cp']} | {r['pub_fb']:.1f} / {r['pub_dl']:.1f} | {r['none']:.1f} / "
                   f"{r['full']:.1f} | {r['pub_fb'] / r['none'] - 1:+.1%} / {r['pub_fb'] / r['full'] - 1:+.1%} | "
                   f"{r['pub_dl'] / r['none'] - 1:+.1%} / {r['pub_dl'] / r['full'] - 1:+.1%} |")
    return out


def rows_per_expert(tp: int, ep: int, mbs: int = 1, seq: int = 4096, topk: int = 8, experts: int = 128) -> float:
    """Routed rows each local expert multiplies per micro-batch (balanced): MBS × s / TP × EP × k / E
    (``bench/validate_moe_gemm.py``'s shape rule: sequence parallel splits the tokens over TP before dispatch)."""
    return mbs * seq / tp * ep * topk / experts


def main() -> int:
    res, long = results(), long_results()
    if "--dump" in sys.argv:
        for r in res:
            print(f'    "{r["label"]}": {r["pred"]:.2f},')
        for r in long:
            for rec in ("none", "full"):
                print(f'    "long {r["seq"]} CP{r["cp"]} {rec}": {r[rec]:.2f},')
        return 0
    print("\n".join(summary_lines(res, long)))
    print()
    print("\n".join(row_lines(res)))
    print()
    print("\n".join(long_lines(long)))
    print()
    print("Rows per local expert and micro-batch (Model Zoo step rows): "
          + "; ".join(f"{lab.split(',')[0]}: {rows_per_expert(kw['tp'], kw['ep'], kw['mbs']):,.0f}"
                      for lab, kw, _p, _ok in ZOO))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
