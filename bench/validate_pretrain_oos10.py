"""Published pre-training step times the project had not used, round 10: an out-of-sample check (issue 35, ptoos10).

Usage: python bench/validate_pretrain_oos10.py

Every row was entered and scored BEFORE any model change of this round (``BEFORE`` holds those predictions, main
1980087d). No constant was chosen from these rows. Errors are predicted / published − 1 in tokens/s per GPU
(+ = model too fast).

Sources
-------
1. **Megatron-Turing NLG 530B** (Smith et al. 2022, arXiv 2201.11990): §2.4 "iteration times of 60.1, 50.2 and
   44.4 seconds" with global batch 1,920 on 280, 350 and 420 DGX A100 servers (8 × A100 80GB each), sequence 2,048
   (§3.2), 105 layers, hidden 20,480, 128 heads (Table/§3.2), GPT-2 BPE vocabulary (50,257). Layout stated in
   §2.3: 8-way tensor slicing inside a node, 35-way pipeline across nodes, data parallelism over the rest
   (DP 8 / 10 / 12). Megatron-DeepSpeed (Megatron tensor slicing + DeepSpeed's 1F1B pipeline).
   ASSUMED: micro-batch 1, full activation recomputation (Megatron-DeepSpeed's ``checkpoint-activations`` of 2021),
   DeepSpeed's ZeRO-1-equivalent bf16 optimizer as the BLOOM row of round 9, no sequence parallelism (2021).
   Mapping: tokens/s/GPU = 1,920 × 2,048 / step / GPUs.
2. **Pythia** (Biderman et al. 2023, arXiv 2304.01373), Appendix D Table 5: GPU count and total GPU-hours per model,
   "computed from logged iteration time" (A100 40GB); every model saw 299,892,736,000 tokens (EleutherAI/pythia
   README). The run configs: github.com/EleutherAI/pythia ``models/<size>/pythia-<size>.yml`` (410M ddad623a,
   1B b14d5af9, 1.4B 4d0c9018, 2.8B 2d898509, 6.9B 31654e58, 12B 55e1182b): GPT-NeoX (Megatron + DeepSpeed),
   ``model-parallel-size`` 1/1/1/1/2/4, ``pipe-parallel-size`` 1, micro-batch 32/16/16/16/8/8 with
   ``gradient_accumulation_steps`` 1/1/1/1/2/2 (global 1,024 × 2,048 tokens), ZeRO stage 1 with ``overlap_comm``,
   ``checkpoint-activations`` every layer, fp16, FlashAttention (``attention-config [["flash"], L]``) except the 1B
   config (no attention-config: GPT-NeoX's default attention with the fused upper-triangular masked softmax),
   parallel residual (``gpt-j-residual``), untied output layer, LayerNorm, GELU 4h MLP with biases, vocabulary
   50,304. Mapping: tokens/s/GPU = 299,892,736,000 / (GPU-hours × 3,600).
   ASSUMED: the hours cover training steps only (the caption says they come from the logged iteration time).
3. **GLM-130B** (Zeng et al. 2022, arXiv 2210.02414): 96 DGX-A100 (8 × 40GB) servers; "HFU of 43.3% and MFU of
   32.5% due to re-materialization" (§3 / training efficiency), so full recomputation (43.3 / 32.5 = 8 / 6); FP16
   mixed precision; 4-way tensor and 8-way pipeline parallelism (THUDM/GLM-130B ``docs/low-resource-inference.md``:
   "trained with 4-way tensor parallel and 8-way pipeline parallel"), DP 24; 70 layers, hidden 12,288, 96 heads,
   GeGLU FFN 32,768, vocabulary 150,528, sequence 2,048, global batch 4,224 after warm-up. Megatron-DeepSpeed-style
   code (the paper's training framework), entered as ``megatron``. ASSUMED: micro-batch 1, ZeRO-1 as BLOOM, no
   sequence parallelism. Mapping: MFU in PaLM's definition (Chowdhery et al. 2022 App. B: 6N + 12·L·h·s FLOPs per
   token) with N = 130e9 (the paper's round figure, ASSUMED) and A100 peak 312 TFLOP/s: tokens/s/GPU =
   0.325 × 312e12 / (6 × 130e9 + 12 × 70 × 12,288 × 2,048).

As run (entry corrections from the stacks' code, no model change; ``--first-entry`` gives the first entry)
-----------------------------------------------------------------------------------------------------
The first entry took the ``megatron`` defaults for three switches the rows' stacks set otherwise:

* DeepSpeed's pipeline engine (Megatron-DeepSpeed for MT-NLG; GPT-NeoX builds ``GPT2ModelPipe`` whenever
  ``pipe-parallel-size`` ≥ 1, so the Pythia configs' 1 runs it too; GLM-130B ASSUMED the same) reduces the
  gradients only after the whole schedule: microsoft/DeepSpeed ``deepspeed/runtime/pipe/schedule.py``
  ``TrainSchedule.steps`` appends ``ReduceTiedGrads``, ``ReduceGrads`` and ``OptimizerStep`` at the last step
  (``engine.py`` ``_exec_reduce_grads`` → ``allreduce_gradients``), and its p2p sends block
  (``pipe/p2p.py`` ``send``: ``assert async_op == False``, ``dist.send``): ``overlap_grad_reduce`` and
  ``overlap_p2p_comm`` off.
* (neox10) GPT-NeoX v1.0, the tag the Pythia README checks out, pins ``flash-attn==0.2.2``
  (EleutherAI/gpt-neox ``requirements/requirements-flashattention.txt`` at v1.0, 71df4d50; its
  ``megatron/model/flash_attention.py`` wraps that package's ``flash_attn_cuda``): FlashAttention-1, so the Pythia
  rows that name ``flash`` run ``attention_kernel: flash1`` (core/timing ``FLASH1_AMPERE_CEILING``).
  ``--no-flash1`` gives ptoos10's entry.
* No FlashAttention in 2021–22 (FlashAttention appeared in May 2022, after MT-NLG and during GLM-130B's run);
  the Pythia 1B config has no ``attention-config`` (GPT-NeoX's default unfused attention with the fused masked
  softmax): ``flash_attention`` off for MT-NLG, GLM-130B and Pythia 1B. The other Pythia configs name ``flash``.
"""
from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import validate_bridge_dense as vbd  # noqa: E402

#: ``--first-entry``: the rows as first entered (the ``megatron`` defaults for the three switches below)
FIRST_ENTRY = "--first-entry" in sys.argv


#: ``--no-flash1``: ptoos10's "as run" (without neox10's FlashAttention-1 kernel and exposed ZeRO all-gather)
NO_FLASH1 = "--no-flash1" in sys.argv


def as_run(flash: bool, kernel: str = "auto") -> dict:
    """The switches the rows' stacks set (module doc, "As run"): DeepSpeed's pipeline engine reduces the gradients
    after the schedule and blocks on its p2p sends; FlashAttention as the config/era says, with the kernel the
    stack pins (``kernel``: GPT-NeoX v1.0's ``flash-attn==0.2.2`` is FlashAttention-1, ``flash1``)."""
    if FIRST_ENTRY:
        return {}
    out = {"overlap_grad_reduce": False, "overlap_p2p_comm": False, "flash_attention": flash}
    if not NO_FLASH1:
        # (neox10) DeepSpeed's ZeRO-1/2 optimizer all-gathers the updated 16-bit weights inside ``step()``, before
        # the next forward: microsoft/DeepSpeed ``runtime/zero/stage_1_and_2.py`` ``step`` → ``all_gather_dp_groups``
        # (``runtime/utils.py``), and ``runtime/bf16_optimizer.py`` ``step`` → ``update_lp_params`` the same
        out["overlap_param_gather"] = False
    if flash and kernel != "auto" and not NO_FLASH1:
        out["attention_kernel"] = kernel
    return out


MTNLG_SRC = "arXiv 2201.11990 §2.3–2.4, §3.2 (Smith et al. 2022)"
PYTHIA_SRC = ("arXiv 2304.01373 App. D Table 5 + github.com/EleutherAI/pythia models/*/pythia-*.yml")

MTNLG = {"name": "MT-NLG 530B", "hidden_size": 20480, "num_hidden_layers": 105, "num_attention_heads": 128,
         "num_key_value_heads": 128, "intermediate_size": 4 * 20480, "vocab_size": 50257, "gated_mlp": False,
         "hidden_act": "gelu", "tie_word_embeddings": True, "norm_type": "layernorm", "position_embedding": "learned",
         "attention_bias": True, "attention_out_bias": True, "mlp_bias": True, "max_position_embeddings": 2048}
#: (DGX A100 servers, published seconds per iteration) — §2.4
MTNLG_ROWS = [(280, 60.1), (350, 50.2), (420, 44.4)]
MTNLG_GBS = 1920
MTNLG_PP = 35


def mtnlg_scenario(nodes: int) -> dict:
    return {"model": MTNLG,
            "training": {"method": "pretrain", "framework": "megatron", "precision": "bf16", "seq_len": 2048,
                         "micro_batch_size": 1, "global_batch_size": MTNLG_GBS, "recompute": "full",
                         "fused_cross_entropy": False, **as_run(flash=False)},
            "parallel": {"tp": 8, "pp": MTNLG_PP, "vpp": 1, "zero": 1, "sequence_parallel": False},
            "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": nodes * 8, "gpus_per_node": 8}}


PYTHIA_TOKENS = 299_892_736_000
#: (size, layers, hidden, heads, GPUs, GPU-hours (Table 5), TP, micro-batch, grad. accumulation, flash attention)
PYTHIA = [("410M", 24, 1024, 16, 32, 2540, 1, 32, 1, True),
          ("1B", 16, 2048, 8, 64, 4830, 1, 16, 1, False),
          ("1.4B", 24, 2048, 16, 64, 7120, 1, 16, 1, True),
          ("2.8B", 32, 2560, 32, 64, 14240, 1, 16, 1, True),
          ("6.9B", 32, 4096, 32, 128, 33500, 2, 8, 2, True),
          ("12B", 36, 5120, 40, 256, 72300, 4, 8, 2, True)]


def pythia_model(row) -> dict:
    size, L, h, nh, *_ = row
    return {"name": f"Pythia {size}", "hidden_size": h, "num_hidden_layers": L, "num_attention_heads": nh,
            "num_key_value_heads": nh, "intermediate_size": 4 * h, "vocab_size": 50304, "gated_mlp": False,
            "hidden_act": "gelu", "tie_word_embeddings": False, "norm_type": "layernorm",
            "position_embedding": "rope", "attention_bias": True, "attention_out_bias": True, "mlp_bias": True,
            "max_position_embeddings": 2048}


#: ``--megatron``: neox10's entry (GPT-NeoX as Megatron-LM mechanics, ``framework: megatron``) instead of the
#: ``gpt-neox`` tool (neox11)
AS_MEGATRON = "--megatron" in sys.argv


def pythia_scenario(row, megatron: bool | None = None) -> dict:
    """GPT-NeoX v1.0 (``framework: gpt-neox``, neox11): TP per config, no PP, ZeRO-1, full recompute, fp16, the
    configs' ``gpt-j-residual: true``. ``megatron`` (or ``--megatron``): neox10's entry as Megatron-LM mechanics."""
    _s, _L, _h, _nh, gpus, _gh, tp, mbs, gas, flash = row
    as_meg = AS_MEGATRON if megatron is None else megatron
    tool = {"framework": "megatron", "fused_cross_entropy": False} if as_meg or FIRST_ENTRY else {
        "framework": "gpt-neox", "gpt_j_residual": True}
    return {"model": pythia_model(row),
            "training": {"method": "pretrain", "precision": "fp16", "seq_len": 2048, **tool,
                         "micro_batch_size": mbs, "global_batch_size": 1024, "recompute": "full",
                         **as_run(flash=flash, kernel="flash1")},
            "parallel": {"tp": tp, "pp": 1, "vpp": 1, "zero": 1, "sequence_parallel": False},
            "hardware": {"gpu": "a100-sxm-40gb", "num_gpus": gpus, "gpus_per_node": 8}}


GLM = {"name": "GLM-130B", "hidden_size": 12288, "num_hidden_layers": 70, "num_attention_heads": 96,
       "num_key_value_heads": 96, "intermediate_size": 32768, "vocab_size": 150528, "gated_mlp": True,
       "hidden_act": "gelu", "tie_word_embeddings": True, "norm_type": "layernorm", "position_embedding": "rope",
       "attention_bias": True, "attention_out_bias": True, "mlp_bias": True, "max_position_embeddings": 2048}
GLM_MFU = 0.325
A100_PEAK = 312e12


def glm_pub_tps() -> float:
    """GLM-130B's MFU as tokens/s per GPU (PaLM's FLOPs per token, module doc source 3)."""
    return GLM_MFU * A100_PEAK / (6 * 130e9 + 12 * 70 * 12288 * 2048)


def glm_scenario() -> dict:
    return {"model": GLM,
            "training": {"method": "pretrain", "framework": "megatron", "precision": "fp16", "seq_len": 2048,
                         "micro_batch_size": 1, "global_batch_size": 4224, "recompute": "full",
                         "fused_cross_entropy": False, **as_run(flash=False)},
            "parallel": {"tp": 4, "pp": 8, "vpp": 1, "zero": 1, "sequence_parallel": False},
            "hardware": {"gpu": "a100-sxm-40gb", "num_gpus": 768, "gpus_per_node": 8}}


def all_rows() -> list[tuple[str, str, dict, float]]:
    """(group, label, scenario, published tokens/s per GPU) for every row."""
    out = []
    for nodes, step in MTNLG_ROWS:
        out.append(("mt-nlg", f"MT-NLG 530B {nodes * 8}×A100 TP8 PP35 DP{nodes * 8 // (8 * MTNLG_PP)}",
                    mtnlg_scenario(nodes), MTNLG_GBS * 2048 / step / (nodes * 8)))
    for r in PYTHIA:
        out.append(("pythia", f"Pythia {r[0]} {r[4]}×A100-40GB TP{r[6]} mbs{r[7]}×{r[8]}", pythia_scenario(r),
                    PYTHIA_TOKENS / (r[5] * 3600.0)))
    out.append(("glm", "GLM-130B 768×A100-40GB TP4 PP8 DP24", glm_scenario(), glm_pub_tps()))
    return out


#: predictions (tokens/s per GPU) at main 1980087d, before any change of round 10: label → predicted
BEFORE: dict[str, float] = {
    "MT-NLG 530B 2240×A100 TP8 PP35 DP8": 33.99,
    "MT-NLG 530B 2800×A100 TP8 PP35 DP10": 32.92,
    "MT-NLG 530B 3360×A100 TP8 PP35 DP12": 31.92,
    "Pythia 410M 32×A100-40GB TP1 mbs32×1": 47894.09,
    "Pythia 1B 64×A100-40GB TP1 mbs16×1": 23260.04,
    "Pythia 1.4B 64×A100-40GB TP1 mbs16×1": 16146.92,
    "Pythia 2.8B 64×A100-40GB TP1 mbs16×1": 8397.21,
    "Pythia 6.9B 128×A100-40GB TP2 mbs8×2": 3236.66,
    "Pythia 12B 256×A100-40GB TP4 mbs8×2": 1665.69,
    "GLM-130B 768×A100-40GB TP4 PP8 DP24": 153.60,
}


#: predictions with ptoos10's "as run" entry (main 7c7ca312, before neox10's ``flash1`` kernel): label → predicted
AS_RUN_PTOOS10: dict[str, float] = {
    "Pythia 410M 32×A100-40GB TP1 mbs32×1": 47749.0,
    "Pythia 1B 64×A100-40GB TP1 mbs16×1": 19468.0,
    "Pythia 1.4B 64×A100-40GB TP1 mbs16×1": 16017.0,
    "Pythia 2.8B 64×A100-40GB TP1 mbs16×1": 8327.0,
    "Pythia 6.9B 128×A100-40GB TP2 mbs8×2": 3193.0,
    "Pythia 12B 256×A100-40GB TP4 mbs8×2": 1630.0,
}


def results() -> list[dict]:
    res = []
    for group, label, sc, pub in all_rows():
        r = vbd.results([(label,)], lambda _row, sc=sc: sc)[0]
        r.update(group=group, label=label, pub=pub)
        res.append(r)
    return res


def _line(name: str, sub: list[dict]) -> str:
    n, med, p90, sgn = vbd.stats(sub)
    _n, bmed, bp90, bsgn = vbd.stats([{**r, "pred": BEFORE.get(r["label"])} for r in sub])
    return f"| {name} | {n} | {bmed:.1%} / {bp90:.1%} ({bsgn:+.1%}) | {med:.1%} / {p90:.1%} ({sgn:+.1%}) |"


def summary_lines(res: list[dict]) -> list[str]:
    out = ["| group | rows | first entry (main 1980087d): median / p90 |err| (signed) | now |", "|---|---:|---|---|"]
    for g in ("mt-nlg", "pythia", "glm"):
        out.append(_line(g, [r for r in res if r["group"] == g]))
    out.append(_line("all", res))
    return out


def row_lines(res: list[dict]) -> list[str]:
    out = ["| group | row | published tok/s/GPU | first entry | predicted | error | largest overhead |",
           "|---|---|---:|---:|---:|---:|---|"]
    for r in res:
        b = BEFORE.get(r["label"])
        pred = "—" if r["pred"] is None else f"{r['pred']:,.0f}"
        err = r["why"][:60] if r["pred"] is None else f"{r['pred'] / r['pub'] - 1:+.1%}"
        bs = "—" if b is None else f"{b:,.0f} ({b / r['pub'] - 1:+.1%})"
        out.append(f"| {r['group']} | {r['label']} | {r['pub']:,.0f} | {bs} | {pred} | {err} | {r['top']} |")
    return out


#: DeepSpeed ``reduce_bucket_size`` / ``allgather_bucket_size`` of each Pythia config (elements): 5e8 up to
#: 2.8B, 1.26e9 for 6.9B and 12B (the configs' ``zero_optimization`` blocks)
PYTHIA_BUCKET = {"410M": 5e8, "1B": 5e8, "1.4B": 5e8, "2.8B": 5e8, "6.9B": 1.26e9, "12B": 1.26e9}


def pythia_params(row) -> float:
    """Parameters per tensor-parallel rank: 12 h² + 13 h per layer (GPT-NeoX layer with biases), untied
    embedding and output layer of 50,304 rows, over TP."""
    _s, L, h, _nh, _g, _gh, tp, *_ = row
    return (L * (12 * h * h + 13 * h) + 2 * 50304 * h) / tp


def zero1_whatif(row, gbs_per_gpu: float) -> float:
    """WHAT-IF, not in the model: seconds of DeepSpeed ZeRO-1 traffic left after the backward when the reduce
    bucket is as large as the gradients (DeepSpeed ``stage_1_and_2.py`` reduces a bucket only once it holds
    ``reduce_bucket_size`` elements, or at the end of the backward; ZeRO-1 reduces on the accumulation boundary
    only): the reduce-scatter of the 16-bit gradients and the all-gather of the updated 16-bit weights, as rings
    over the DP ranks, at ``gbs_per_gpu`` GB/s per GPU. Only the part past the last full bucket is exposed."""
    _s, _L, _h, _nh, gpus, _gh, tp, *_ = row
    d = gpus // tp
    n = pythia_params(row)
    tail = n - PYTHIA_BUCKET[row[0]] * int(n // PYTHIA_BUCKET[row[0]])
    ring = (d - 1) / d * 2.0 / (gbs_per_gpu * 1e9)
    return tail * ring + n * ring


def whatif_lines(res: list[dict]) -> list[str]:
    """The Pythia gap against an exposed ZeRO-1 tail at the catalogue's A100 network (8 × HDR 200, 24 GB/s per GPU
    after NCCL's 0.96) and at an ASSUMED 4 × 100 Gb/s per node (6 GB/s per GPU)."""
    out = ["| Pythia row | published step (s) | model step (s) | gap (s) | exposed ZeRO-1 at 24 GB/s | at 6 GB/s |",
           "|---|---:|---:|---:|---:|---:|"]
    by = {r["label"]: r for r in res}
    for row in PYTHIA:
        lab = f"Pythia {row[0]} {row[4]}×A100-40GB TP{row[6]} mbs{row[7]}×{row[8]}"
        r = by[lab]
        pub = 1024 * 2048 / (r["pub"] * row[4])
        mod = 1024 * 2048 / (r["pred"] * row[4])
        out.append(f"| {row[0]} | {pub:.2f} | {mod:.2f} | {pub - mod:+.2f} | {zero1_whatif(row, 24.0):.2f} | "
                   f"{zero1_whatif(row, 6.0):.2f} |")
    return out


def megatron_entry_preds() -> dict[str, float]:
    """Pythia predictions with neox10's entry (``framework: megatron``): label → predicted tokens/s per GPU. neox10's
    element-wise what-if is now the ``gpt-neox`` tool's mechanics (core/timing.py ``gpt_neox_copies_bytes``,
    ``gpt_neox_tp_collectives``), counted from GPT-NeoX v1.0's code."""
    out = {}
    for r in PYTHIA:
        lab = f"Pythia {r[0]} {r[4]}×A100-40GB TP{r[6]} mbs{r[7]}×{r[8]}"
        out[lab] = vbd.results([(lab,)], lambda _row, sc=pythia_scenario(r, megatron=True): sc)[0]["pred"]
    return out


def neox_whatif_lines(res: list[dict]) -> list[str]:
    """The Pythia rows: ptoos10's as-run entry, neox10's (``megatron``, flash1) and now (the ``gpt-neox`` tool)."""
    meg = megatron_entry_preds()
    out = ["| Pythia row | ptoos10 as run | neox10 (megatron, flash1) | now (gpt-neox tool, neox11) |",
           "|---|---:|---:|---:|"]
    rows = [r for r in res if r["group"] == "pythia"]
    for r in rows:
        b = AS_RUN_PTOOS10[r["label"]]
        out.append(f"| {r['label']} | {b / r['pub'] - 1:+.1%} | {meg[r['label']] / r['pub'] - 1:+.1%} | "
                   f"{r['pred'] / r['pub'] - 1:+.1%} |")
    for name, key in (("ptoos10 as run", None), ("neox10", "meg"), ("now", "pred")):
        preds = [AS_RUN_PTOOS10[r["label"]] if key is None else (r["pred"] if key == "pred" else meg[r["label"]])
                 for r in rows]
        _n, med, p90, sgn = vbd.stats([{**r, "pred": p} for r, p in zip(rows, preds)])
        out.append(f"| median / p90 ({name}) | | | {med:.1%} / {p90:.1%} ({sgn:+.1%}) |")
    return out


def doc_lines() -> list[str]:
    """The tables for docs/validation_time.md (bench/validate_time.py includes them after the fragment)."""
    res = results()
    return [*summary_lines(res), "", *row_lines(res), "", *whatif_lines(res), "", *neox_whatif_lines(res)]


def main() -> int:
    res = results()
    print("\n".join(summary_lines(res)))
    print()
    print("\n".join(row_lines(res)))
    print()
    print("\n".join(whatif_lines(res)))
    print()
    print("\n".join(neox_whatif_lines(res)))
    if "--dump" in sys.argv:
        for r in res:
            print(f'    "{r["label"]}": {r["pred"]:.2f},')
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
