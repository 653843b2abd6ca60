"""Pre-training step times the project had not used, round 19: DeepSeek's H800 cost figures (issue 35, ptoos19).

Usage: python bench/validate_pt_oos19.py [--before]

Every row was entered and scored BEFORE any model change (``BEFORE`` holds those predictions, main 76601896). No
constant was chosen from these rows. Error = predicted / published − 1 in tokens/s per GPU (+ = the model is too fast).

What was already held (grep of bench/, tests/, docs/ and /work/shared/reference/calibration-runs.jsonl for
``DeepSeek``, ``172.8``, ``300.6``, ``H800``): the DeepSeek-V3 report's 180K H800 hours per trillion tokens
(``validate_time.BRIDGE_MOE``, 1,543 tok/s/GPU). Nothing from the DeepSeek-V2 report or the DeepSeek LLM report.

Source
------
**DeepSeek-V2 report** (DeepSeek-AI 2024, arXiv 2405.04434), §3.2.3 "Training and Inference Efficiency": "During our
practical training on the H800 cluster, for training on each trillion tokens, DeepSeek 67B requires 300.6K GPU hours,
while DeepSeek-V2 needs only 172.8K GPU hours". Published tokens/s/GPU = 1e12 / (GPU hours × 3600): 1,607.5 for
DeepSeek-V2 and 924.1 for DeepSeek 67B. The figures are whole-run averages over the batch ramp (restarts, evaluation
and checkpointing included), so they are a lower bound on the steady step rate.

Layouts
-------
* **DeepSeek-V2** (same report §3.1.2–3.1.3): HAI-LLM, "16-way zero-bubble pipeline parallelism, an 8-way expert
  parallelism, and ZeRO-1 data parallelism", no tensor parallelism, "a portion of the operators are recomputed",
  shared-expert compute overlapped with the all-to-all; sequence 4K; batch 2,304 → 9,216 over the first 225B tokens,
  then 9,216 (the steady value is entered); device-limited routing M = 3; token dropping in training. Model: the
  released ``deepseek-ai/DeepSeek-V2`` config.json (hidden 5,120, 60 layers, 128 heads, MLA q_lora 1,536 / kv_lora 512
  / nope 128 / rope 64 / v 128, 160 routed + 2 shared experts of 1,536, top-6, first layer dense 12,288, vocab
  102,400, untied).
* **DeepSeek 67B** (DeepSeek LLM report, arXiv 2401.02954, §2.4 "Infrastructures" and Table 2): HAI-LLM with "data
  parallelism, tensor parallelism, sequence parallelism, and 1F1B pipeline parallelism … as done in Megatron", flash
  attention, ZeRO-1, overlap of the last micro-batch's backward with ZeRO-1's reduce-scatter and of GEMMs with the SP
  all-gather / reduce-scatter, fused LayerNorm / GEMM / Adam, bf16 with fp32 gradient accumulation; sequence 4,096;
  batch 4,608; 95 layers, hidden 8,192, 64 heads with 8 KV heads (GQA), FFN 22,016, vocab 102,400.

Mapping and flags (ASSUMED where the source is silent; each alternative is printed)
------------------------------------------------------------------------------------
* ``framework: megatron`` (HAI-LLM is internal; the 67B report says "as done in Megatron"), bf16 (FP8 arrived with
  V3), ``zero`` 1, FlashAttention on (Megatron's default).
* ASSUMED **GPU count 2,048** for both: the reports give none; 2,048 H800 is the cluster the V3 report (§3.1) names.
  Printed: 512 / 1,024 for V2, 1,024 for 67B.
* ASSUMED **micro-batch 1** (not stated).
* ASSUMED **V2 recompute ``selective``** (Megatron's core-attention recompute) for "a portion of the operators are
  recomputed"; none printed. 67B: no recompute stated → none; ``selective`` and ``full`` printed.
* ASSUMED **67B TP 8 (one node) × PP 8**: the report states neither degree (PP 4, TP 4 × PP 8 printed).
* Not representable: **zero-bubble PP** (V2 is entered as Megatron's 1F1B, so its bubble is counted), the shared-
  expert / all-to-all overlap, device-limited routing and token dropping (entered dropless). All of them make the
  published run faster than the entry, so V2's entry should read slow.
* The pipeline split is Megatron's default (embedding and head not counted as layers); V2's 60 layers over 16
  stages leave 4 layers on the heaviest stage.
"""
from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import validate_bridge_dense as vbd  # noqa: E402

SRC = "DeepSeek-V2 report (arXiv 2405.04434) §3.2.3; DeepSeek LLM report (arXiv 2401.02954) §2.4, Table 2"
SEQ = 4096
GPU = "h800-sxm-80gb"

#: deepseek-ai/DeepSeek-V2 config.json
DEEPSEEK_V2 = {"name": "DeepSeek-V2 (236B MoE, MLA)", "hidden_size": 5120, "num_hidden_layers": 60,
               "num_attention_heads": 128, "num_key_value_heads": 128, "intermediate_size": 12288,
               "moe_intermediate_size": 1536, "num_experts": 160, "num_shared_experts": 2, "num_experts_per_tok": 6,
               "first_k_dense_replace": 1, "q_lora_rank": 1536, "kv_lora_rank": 512, "qk_nope_head_dim": 128,
               "qk_rope_head_dim": 64, "v_head_dim": 128, "vocab_size": 102400, "tie_word_embeddings": False,
               "gated_mlp": True, "hidden_act": "silu", "norm_type": "rmsnorm", "position_embedding": "rope",
               "max_position_embeddings": SEQ}
#: DeepSeek LLM report Table 2 / deepseek-ai/deepseek-llm-67b-base config.json
DEEPSEEK_67B = {"name": "DeepSeek LLM 67B", "hidden_size": 8192, "num_hidden_layers": 95, "num_attention_heads": 64,
                "num_key_value_heads": 8, "intermediate_size": 22016, "vocab_size": 102400,
                "tie_word_embeddings": False, "gated_mlp": True, "hidden_act": "silu", "norm_type": "rmsnorm",
                "position_embedding": "rope", "max_position_embeddings": SEQ}
MODELS = {"v2": DEEPSEEK_V2, "67b": DEEPSEEK_67B}

#: (key, model, GPUs, GBS, TP, PP, EP, MBS, recompute, published GPU hours per 1e12 tokens, flags)
ROWS = [
    ("DeepSeek-V2 PP16 EP8", "v2", 2048, 9216, 1, 16, 8, 1, "selective", 172.8e3,
     "GPUs, MBS, recompute ASSUMED; zero-bubble PP, shared-expert overlap, token dropping not modelled"),
    ("DeepSeek 67B TP8 PP8", "67b", 2048, 4608, 8, 8, 1, 1, "none", 300.6e3,
     "GPUs, TP, PP, MBS, recompute ASSUMED"),
]

#: the printed alternatives of the ASSUMED settings: (label, row key, field → value)
ALTERNATIVES = [
    ("V2 on 512 GPUs", "DeepSeek-V2 PP16 EP8", {"gpus": 512}),
    ("V2 on 1,024 GPUs", "DeepSeek-V2 PP16 EP8", {"gpus": 1024}),
    ("V2 without recompute", "DeepSeek-V2 PP16 EP8", {"recompute": "none"}),
    ("V2 MBS 2", "DeepSeek-V2 PP16 EP8", {"mbs": 2}),
    ("V2 embedding/head counted in the split", "DeepSeek-V2 PP16 EP8", {"account": True}),
    ("67B on 1,024 GPUs", "DeepSeek 67B TP8 PP8", {"gpus": 1024}),
    ("67B TP8 PP4", "DeepSeek 67B TP8 PP8", {"pp": 4}),
    ("67B TP4 PP8", "DeepSeek 67B TP8 PP8", {"tp": 4}),
    ("67B selective recompute", "DeepSeek 67B TP8 PP8", {"recompute": "selective"}),
    ("67B full recompute", "DeepSeek 67B TP8 PP8", {"recompute": "full"}),
]

#: predictions on main 76601896 with the entry's mapping (tokens/s per GPU), by row key
BEFORE: dict[str, float] = {"DeepSeek-V2 PP16 EP8": 1437.71, "DeepSeek 67B TP8 PP8": 905.31}


def pub_tps(row) -> float:
    """Published tokens/s per GPU: 1e12 tokens over the GPU hours."""
    return 1e12 / (row[9] * 3600.0)


def scenario(row, gpus=None, tp=None, pp=None, mbs=None, recompute=None, account=False) -> dict:
    """The scenario for one row (mapping in the module doc); keyword overrides for the printed alternatives."""
    _key, model, n, gbs, tp0, pp0, ep, mbs0, rec0, _h, _f = row
    tp, pp, mbs, rec = tp or tp0, pp or pp0, mbs or mbs0, recompute or rec0
    par = {"tp": tp, "pp": pp, "vpp": 1, "zero": 1, "sequence_parallel": tp > 1}
    if ep > 1:
        par["ep"] = ep
    if account:
        par["pp_account_embedding_loss"] = True
    return {"model": MODELS[model],
            "training": {"method": "pretrain", "framework": "megatron", "precision": "bf16", "seq_len": SEQ,
                         "micro_batch_size": mbs, "global_batch_size": gbs, "recompute": rec},
            "parallel": par,
            "hardware": {"gpu": GPU, "num_gpus": gpus or n, "gpus_per_node": 8}}


def results(rows=None, **kw) -> list[dict]:
    rs = ROWS if rows is None else rows
    res = vbd.results([(r,) for r in rs], lambda t: scenario(t[0], **kw))
    for r, x in zip(rs, res):
        x.update(label=r[0], pub=pub_tps(r), flags=r[10], before=BEFORE.get(r[0]))
    return res


def _stats(res, key="pred"):
    e = [r[key] / r["pub"] - 1 for r in res if r.get(key) is not None]
    a = [abs(x) for x in e]
    return len(e), statistics.median(a), vbd._pct(a, 0.9), statistics.median(e)


def _pm(x) -> str:
    return "—" if x is None else f"{x:+.1%}"


def row_lines(res) -> list[str]:
    out = ["| # | row | published tok/s/GPU | before | now | error before | error now | top part | flags |",
           "|---:|---|---:|---:|---:|---:|---:|---|---|"]
    for i, r in enumerate(res):
        b = r["before"]
        now = None if r["pred"] is None else r["pred"] / r["pub"] - 1
        out.append(f"| {i} | {r['label']} | {r['pub']:,.0f} | {'—' if b is None else f'{b:,.0f}'} | "
                   f"{'—' if r['pred'] is None else format(r['pred'], ',.0f')} | "
                   f"{_pm(None if b is None else b / r['pub'] - 1)} | {_pm(now)} | {r['top'] or r['why']} | "
                   f"{r['flags']} |")
    return out


def alternative_lines() -> list[str]:
    by_key = {r[0]: r for r in ROWS}
    out = ["| ASSUMED setting changed | tok/s/GPU | error |", "|---|---:|---:|"]
    for name, key, kw in ALTERNATIVES:
        r = results([by_key[key]], **kw)[0]
        out.append(f"| {name} | {'—' if r['pred'] is None else format(r['pred'], ',.0f')} | "
                   f"{_pm(None if r['pred'] is None else r['pred'] / r['pub'] - 1)} |")
    return out


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    res = results()
    print(f"Source: {SRC}\n")
    print("\n".join(row_lines(res)))
    n, med, p90, sgn = _stats(res, "before")
    print(f"\nBefore (main 76601896): {n} rows, median |error| {med:.1%}, p90 {p90:.1%}, signed median {sgn:+.1%}")
    n, med, p90, sgn = _stats(res)
    print(f"SCORE (now): {n} rows, median |error| {med:.1%}, p90 {p90:.1%}, signed median {sgn:+.1%}")
    print("\nThe ASSUMED settings, one at a time (not scored):\n")
    print("\n".join(alternative_lines()))
    if "--before" in argv:
        print("BEFORE =", {r["label"]: None if r["pred"] is None else round(r["pred"], 2) for r in res})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
