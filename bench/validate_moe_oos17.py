"""NeMo 2.0's published Mixtral pre-training rows (B200, GB200): MoE step time on runs the model had never seen
(issue 35 round 17, helper moe17).

Usage: python bench/validate_moe_oos17.py [--dump]

Every row was entered and scored BEFORE any model change (``BEFORE``: predictions at main eda76f01); "now" is the
current code. Error = predicted / published tokens/s/GPU − 1 (+ = the model is too fast), the convention of
``validate_moe_oos.py``.

Held-row check: ``grep -ri "mixtral" bench/ tests/`` finds Mixtral only in memory rows (Megatron-LM functional tests),
serving rows and fine-tuning rows (``validate_ft_oos16``); no Mixtral pre-training step time. ``validate_bridge_dense``
took the DENSE rows of the same NeMo pages (its docstring: "every dense pre-training row"); its MoE rows were never
entered. ``/work/shared/reference/calibration-runs.jsonl`` holds no MoE row.

Sources
-------
* Published figures: docs.nvidia.com/nemo-framework/user-guide/latest/performance/performance_summary.html
  ("Container: NeMo 25.02", DGX-B200, "pre-training performance of various models at FP8 precision (using NeMo
  2.0)") and …/performance/archive/25.04-performance-summary.html ("Container: NeMo 25.04", DGX-GB200, "per-tensor FP8
  quantization, leveraging scaling factors computed in the current step"). Columns read: #-GPUs, GBS, MBS, sequence,
  (FSDP), TP, PP, CP, VP, EP, GA, Tokens/sec/GPU.
* Recipes, github.com/NVIDIA/NeMo (mirror 8cfedd72; read with ``git show``):
  - 25.02 = NeMo v2.2.1 (132f2179): ``scripts/llm/performance/pretrain_mixtral_8x{7,22}b.py``,
    ``recommended_model_configs/model_configs_b200.csv`` (8x7B: TP1 PP1 CP1 EP8 VP1 MBS2 GBS256, no CUDA-graph
    column; 8x22B: TP2 PP4 CP8 EP8 ETP1 VP14 MBS1 GBS64); ``utils.py`` FP8 = ``bf16_with_fp8_mixed()`` (TE delayed
    scaling; the page does not name the recipe: entered ``te_delayed`` as ``validate_bridge_dense`` enters 25.02).
  - 25.04 = NeMo v2.3.0 (2b03b748): ``scripts/performance/llm/pretrain_mixtral_8x7b.py`` /
    ``recommended_model_configs/model_configs_gb200.csv`` (8x7B GB200: the same layout, ``cuda_graphs`` 1 →
    ``utils.set_primary_perf_configs``: ``recipe.model.config.enable_cuda_graph = True``, Megatron-Core's per-layer
    graphs of the whole transformer layer: entered ``cuda_graph_scope = "layer"``, ASSUMED mapping); the GB200 csv has
    no 8x22B row: the B200 row's layout (the page's row shows it: TP2 PP4 CP8 VP14 EP8 GA16) with ETP 1 and no graphs.
  - Both versions: ``nemo/collections/llm/recipes/mixtral_8x{7,22}b.py`` ``pretrain_performance_optimizations``
    adds ``MegatronTokenDropCallback()`` (``nemo/lightning/pytorch/callbacks/moe_token_drop.py``: defaults
    ``moe_expert_capacity_factor = 1.0``, ``moe_pad_expert_input_to_capacity = True``: token dropping, every expert
    padded to its capacity), the comm-overlap callback (framework defaults) and ``grad_reduce_in_fp32 = False``
    (the strategy's TP 8 / EP 1 are overwritten by the perf script's csv layout). ``nemo/collections/llm/gpt/model/
    mixtral.py`` ``MixtralConfig``: ``moe_token_dispatcher_type = "alltoall"``, ``moe_router_topk = 2``,
    ``moe_aux_loss_coeff = 0.01`` (aux_loss load balancing), router pre-softmax, no ``moe_grouped_gemm`` (Megatron's
    default False: SequentialMLP; one local expert at EP 8, so grouped or not runs one GEMM per projection), no
    ``moe_permute_fusion`` (default False), router in the model dtype (no ``moe_router_dtype``); GPTConfig
    ``cross_entropy_loss_fusion = True``; distributed optimizer with both overlaps (recipe ``trainer``).

Not entered: the DGX-H100 tables of the same pages (the stored copies end inside the first table; layouts are in the
csv but the published figures are unseen), NeMo 25.07 GB200's Llama-4 Scout / Maverick rows (no Llama-4 preset; the
parenthesised second configuration is unnamed), the 25.04 GB200 BF16 runs (not published).
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PAGE_2502 = "docs.nvidia.com/nemo-framework/user-guide/latest/performance/performance_summary.html (NeMo 25.02)"
PAGE_2504 = "docs.nvidia.com/nemo-framework/user-guide/latest/performance/archive/25.04-performance-summary.html"
GPU = {"B200": "b200-180gb", "GB200": "gb200-186gb"}

#: (label, page, system, preset, fp8 recipe, GPUs, GBS, MBS, seq, TP, PP, CP, VP, EP, CUDA graph scope,
#:  published tokens/s/GPU)
ROWS = [
    ("25.02 B200 Mixtral-8x7B", PAGE_2502, "B200", "mixtral-8x7b", "te_delayed", 64, 256, 2, 4096,
     1, 1, 1, 1, 8, None, 15457),
    ("25.02 B200 Mixtral-8x22B 64k CP8", PAGE_2502, "B200", "mixtral-8x22b", "te_delayed", 256, 64, 1, 65536,
     2, 4, 8, 14, 8, None, 2232),
    ("25.04 GB200 Mixtral-8x7B", PAGE_2504, "GB200", "mixtral-8x7b", "te_current", 64, 256, 2, 4096,
     1, 1, 1, 1, 8, "layer", 19275),
    ("25.04 GB200 Mixtral-8x22B 64k CP8", PAGE_2504, "GB200", "mixtral-8x22b", "te_current", 256, 64, 1, 65536,
     2, 4, 8, 14, 8, None, 2731),
]

#: predicted tokens/s/GPU at main eda76f01, before anything of this round (``--dump`` prints them)
BEFORE: dict[str, float] = {
    "25.02 B200 Mixtral-8x7B": 15098,
    "25.02 B200 Mixtral-8x22B 64k CP8": 3279,
    "25.04 GB200 Mixtral-8x7B": 20372,
    "25.04 GB200 Mixtral-8x22B 64k CP8": 3571,
}


def scenario(row) -> dict:
    """The scenario a NeMo 2.0 user enters for one row (module docstring: the recipe's settings)."""
    _l, _p, system, preset, recipe, n, gbs, mbs, seq, tp, pp, cp, vp, ep, scope, _pub = row
    return {"model": {"preset": preset},
            "training": {"framework": "megatron", "precision": "fp8", "fp8_recipe": recipe, "fp8_all_gather": True,
                         "seq_len": seq, "micro_batch_size": mbs, "global_batch_size": gbs,
                         "fused_cross_entropy": True},
            "parallel": {"tp": tp, "pp": pp, "cp": cp, "vpp": vp, "ep": ep, "expert_tp": 1,
                         "sequence_parallel": tp > 1, "zero": 1, "moe_dispatcher": "alltoall",
                         "moe_capacity_factor": 1.0, "moe_pad_to_capacity": True, "cuda_graph_scope": scope},
            "hardware": {"gpu": GPU[system], "num_gpus": n}}


def predict(row):
    """(tokens/s/GPU, step s, the largest part of the step) the model predicts for ``row``."""
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import scenario_from_dict
    from gpuplanner.core.timing import time_estimate

    t = time_estimate(resolve(scenario_from_dict(scenario(row))))
    bd = {**{k: v for k, v in t.seconds.items() if k != "compute"}, **t.parts}
    k, v = max(bd.items(), key=lambda kv: kv[1])
    return t.tokens_per_s_per_gpu, t.step_time_s, f"{k} {v / t.step_time_s:.0%}", t


def _p90(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.9 * (len(xs) - 1))))]


def _stats(errs: list[float]) -> str:
    a = [abs(e) for e in errs]
    return f"{len(a)} rows: median |error| {statistics.median(a):.1%}, p90 {_p90(a):.1%}"


def main() -> int:
    res = [(row, *predict(row)) for row in ROWS]
    if "--dump" in sys.argv:
        for row, pred, *_ in res:
            print(f'    "{row[0]}": {pred:.0f},')
        return 0
    before = [BEFORE.get(r[0], p) / r[-1] - 1 for r, p, *_ in res]
    now = [p / r[-1] - 1 for r, p, *_ in res]
    print(f"- before {_stats(before)}; now {_stats(now)}")
    print()
    print("| row | published tok/s/GPU | before | error before | now | error now | step s | largest part |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for (row, pred, step, top, _t), eb in zip(res, before):
        b = BEFORE.get(row[0], pred)
        print(f"| {row[0]} | {row[-1]:,} | {b:,.0f} | {eb:+.1%} | {pred:,.0f} | {pred / row[-1] - 1:+.1%} | "
              f"{step:.2f} | {top} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
