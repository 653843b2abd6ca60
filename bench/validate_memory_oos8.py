"""Issue 35 round 8: published peak-memory figures never used before, scored against the model (out of sample).

Usage: python bench/validate_memory_oos8.py

The rows were entered from their sources and scored before any change (main at c34ad40); this round changes no
model code, so the figures are the model's as merged. Each row names its source (repository, path, commit), the card, the configuration and the metric the
source prints; what the source does not state is the tool's default, or ``ASSUMED`` in the row's note. Nothing is
tuned per row. Families follow the scoring categories: pretraining (Megatron-LM's functional tests, max allocated on
the last rank) and fine-tuning tools (torchtune's April 2024 tutorials, max reserved). No post-training row was
found in time whose configuration a source states whole (see docs/validation_memory.md).
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "bench"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from gpuplanner.core.estimate import estimate  # noqa: E402
from gpuplanner.core.scenario import scenario_from_dict  # noqa: E402

GIB = 1024 ** 3
MEG = "NVIDIA/Megatron-LM@d98e8a64dd tests/functional_tests/test_cases/gpt/"
MEG_NOTE = ("8 GPUs (tests/test_utils/recipes/h100/gpt.yaml: nodes 1, gpus 8); 'mem-max-allocated-bytes' "
            "(torch.cuda.max_memory_allocated, logged by the last rank's tensorboard writer), max over the "
            "golden steps, bytes / 2**30")


def megatron_small(tp=1, pp=1, vpp=1, cp=1, zero=0, local=False, flash=False, sp=False, recompute="none",
                   swiglu=False, rope=False, untied=False, qk_norm=False, gpu="a100") -> dict:
    """Megatron-LM's small GPT functional test (``gpt3_mcore_*``) as a scenario: 12 layers × 512, 8 heads,
    micro-batch 4, global batch 32, sequence 1024, bf16, GPT-2 BPE vocabulary (50,257) padded to a multiple of
    128 × TP (``--make-vocab-size-divisible-by`` 128), Megatron's defaults otherwise (``arguments.py``: 4h GELU MLP,
    LayerNorm, learned positions, biases, dropout 0.1, tied embeddings, DDP without the distributed optimizer).
    ``--attention-backend unfused`` (and the local spec's ``DotProductAttention``) materialise the scores: flash off.
    ``--swiglu`` sets ``ffn_hidden_size = int(4h·2/3 / 64)·64`` = 1344 (``arguments.py``)."""
    vocab = -(-50257 // (128 * tp)) * 128 * tp
    model = {"preset": "gpt3-175b", "name": "Megatron functional-test GPT 12×512", "hidden_size": 512,
             "num_hidden_layers": 12, "num_attention_heads": 8, "num_key_value_heads": 8,
             "intermediate_size": 1344 if swiglu else 2048, "vocab_size": vocab, "tie_word_embeddings": not untied,
             "max_position_embeddings": 1024}
    if swiglu:
        model.update(gated_mlp=True, hidden_act="silu")
    if rope:
        model["position_embedding"] = "rope"
    if qk_norm:
        model["qk_norm"] = True
    return {"model": model,
            "training": {"framework": "megatron", "seq_len": 1024, "micro_batch_size": 4, "global_batch_size": 32,
                         "recompute": recompute, "precision": "bf16", "flash_attention": flash},
            "parallel": {"tp": tp, "pp": pp, "vpp": vpp, "cp": cp, "zero": zero, "sequence_parallel": sp},
            "hardware": {"gpu": {"h100": "h100-sxm-80gb", "a100": "a100-sxm-80gb", "gb200": "gb200-186gb"}[gpu],
                         "num_gpus": 8},
            "assumptions": {"memory_metric": "allocated"}}


def pretrain_rows() -> list[tuple[str, str, dict, float, str]]:
    """(family, id, scenario, published GiB, source) — Megatron-LM functional tests."""
    from pretrain_memory_rows import megatron_7b_test
    out = []
    src7 = (MEG + "gpt3_7b_tp{1,4}_pp{4,1}_memory_speed/golden_values_dev_dgx_gb200.json (the H100/A100 files are in "
            "bench/pretrain_memory_rows.py; the GB200 ones were not used)")
    for tp, pp, vpp, mbs, pub in ((1, 4, 8, 1, 56.363), (4, 1, 1, 2, 54.219)):
        sc = megatron_7b_test(tp, pp, vpp, mbs, "h100")
        sc["hardware"]["gpu"] = "gb200-186gb"
        out.append(("Megatron 7B tests, GB200", f"gpt3_7b_tp{tp}_pp{pp} GB200", sc, pub, src7))
    fam = "Megatron small GPT tests"
    small = [  # (test case, golden file, published GiB, scenario arguments)
        ("gpt3_mcore_tp1_pp2", "dev_dgx_h100", 3.384, dict(pp=2, local=True, gpu="h100")),
        ("gpt3_mcore_tp1_pp4", "dev_dgx_h100", 2.558, dict(pp=4, local=True, gpu="h100")),
        ("gpt3_mcore_tp4_pp1", "dev_dgx_a100", 1.517, dict(tp=4, local=True)),
        ("gpt3_mcore_tp1_pp1_dist_optimizer_overlap_grad_reduce_param_gather", "dev_dgx_a100", 4.411,
         dict(zero=1, local=True)),
        ("gpt3_mcore_te_tp2_pp2", "dev_dgx_a100", 1.770, dict(tp=2, pp=2)),
        ("gpt3_mcore_te_tp1_pp1_uniform_full_recompute", "dev_dgx_a100", 2.360, dict(recompute="full")),
        ("gpt3_mcore_te_tp1_pp2_rope_embeddings", "dev_dgx_a100", 3.325, dict(pp=2, rope=True)),
        ("gpt3_mcore_te_tp1_pp4_swiglu", "dev_dgx_a100", 2.500, dict(pp=4, swiglu=True)),
        ("gpt3_mcore_te_tp1_pp4_untie_embeddings_and_outputs", "dev_dgx_a100", 2.501, dict(pp=4, untied=True)),
        ("gpt3_mcore_te_tp1_pp4_vp1", "dev_dgx_h100", 3.875, dict(pp=4, vpp=3, gpu="h100")),
        ("gpt3_mcore_te_tp1_pp4_vp1_dist_optimizer_overlap_grad_reduce_param_gather", "dev_dgx_a100", 3.644,
         dict(pp=4, vpp=3, zero=1)),
        ("gpt3_mcore_te_tp1_pp4_vp1_dist_optimizer_overlap_grad_reduce_untied", "dev_dgx_a100", 3.645,
         dict(pp=4, vpp=3, zero=1, untied=True)),
        ("gpt3_mcore_te_tp4_pp1_dist_optimizer_overlap_grad_reduce", "dev_dgx_a100", 1.412, dict(tp=4, zero=1)),
        ("gpt3_mcore_te_tp4_pp1_qk_layernorm_test_mode", "dev_dgx_a100", 1.530, dict(tp=4, qk_norm=True)),
        ("gpt3_mcore_te_tp2_pp2_cross_entropy_loss_fusion", "dev_dgx_h100", 1.711, dict(tp=2, pp=2, gpu="h100")),
        # --attention-backend flash, --hidden-dropout 0 --attention-dropout 0, --sequence-parallel
        ("gpt3_mcore_te_tp2_pp1_cp2_nondeterministic", "dev_dgx_a100", 1.062, dict(tp=2, cp=2, flash=True, sp=True)),
        ("gpt3_mcore_te_tp2_pp2_cp2", "dev_dgx_h100", 0.871, dict(tp=2, pp=2, cp=2, flash=True, sp=True, gpu="h100")),
    ]
    for case, golden, pub, kw in small:
        kw = dict(kw)
        kw.pop("local", None)  # the local spec's layer saves what TE's does at this size (both unfused)
        out.append((fam, case.replace("gpt3_mcore_", ""), megatron_small(**kw), pub,
                    f"{MEG}{case}/model_config.yaml, golden_values_{golden}.json; {MEG_NOTE}"))
    return out


TT_SRC = ("pytorch/torchtune docs/source/tutorials/lora_finetune.rst (ff594c231, 2024-04-15, 'Peak Memory') and "
          "qlora_finetune.rst (0914d5cfb, 2024-04-15, 'Peak memory reserved, training'); configs "
          "recipes/configs/llama2/7B_{lora,qlora}_single_device.yaml at ff594c231: Llama 2 7B, batch 2, bf16 "
          "(no fp32 master weights), activation checkpointing, SDPA, torch.nn.CrossEntropyLoss, no compile, "
          "alpaca_cleaned_dataset unpacked; torchtune's memory_stats_log divided by 1e9 then (utils/memory.py), so "
          "GB → GiB ×0.9313. ASSUMED: card (not named; any ≥ 24 GB card reads the same); sample lengths from "
          "ms-swift's statistics of yahma/alpaca-cleaned (170.1 ± 122.9 tokens, max 1,028): the longest batch is "
          "padded to 1,028")
TT = {"framework": "hf", "master_weights": False, "flash_attention": True, "recompute": "full", "seq_len": 1028,
      "micro_batch_size": 2, "global_batch_size": 128}
ALPACA = {"mean_sample_len": 170, "sample_len_std": 123}


def ft_rows() -> list[tuple[str, str, dict, float, str]]:
    fam = "torchtune tutorials (Llama 2 7B, Apr 2024)"
    out = []
    for label, method, rank, targets, gb in (
            ("LoRA q,v r8", "lora", 8, "attention", 15.57),  # nearest: q,k,v,o (attention)
            ("LoRA all layers r8", "lora", 8, "all_linear", 15.87),  # + output projection: not modelled
            ("LoRA q,v r64", "lora", 64, "attention", 15.86),
            ("LoRA all layers r64", "lora", 64, "all_linear", 17.04),
            ("QLoRA q,k,v,o+MLP r8", "qlora", 8, "all_linear", 9.29)):
        sc = {"model": {"preset": "llama-2-7b"},
              "training": {**TT, "method": method, "lora_rank": rank, "lora_targets": targets},
              "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 1}, "data": dict(ALPACA),
              "assumptions": {"memory_metric": "reserved"}}
        out.append((fam, label, sc, gb * 1e9 / GIB, TT_SRC))
    src = ("pytorch/torchtune docs/source/tutorials/llama3.rst (20747cd87, 2024-04-18: 'we observed a peak memory usage "
           "of 18.5 GB'); recipes/configs/llama3/8B_lora_single_device.yaml there: Llama 3 8B, LoRA r8 on q, v, batch 2, "
           "bf16, activation checkpointing, torch.nn.CrossEntropyLoss, no compile, alpaca_cleaned. ASSUMED: the "
           "figure is the logged peak reserved (the tutorials' QLoRA table names reserved), decimal GB; lengths as "
           "the rows above")
    sc = {"model": {"preset": "llama-3-8b"},
          "training": {**TT, "method": "lora", "lora_rank": 8, "lora_targets": "attention"},
          "hardware": {"gpu": "rtx-4090-24gb", "num_gpus": 1}, "data": dict(ALPACA),
          "assumptions": {"memory_metric": "reserved"}}
    out.append(("torchtune tutorials (Llama 3 8B, Apr 2024)", "LoRA q,v r8", sc, 18.5e9 / GIB, src))
    return out


PEFT_SRC = ("huggingface/peft@5d602fdbff method_comparison/MetaMathQA/results/*.json (runs of 2026-07-14/16; "
            "run.py / utils.py): Llama 3.2 3B, one NVIDIA L40S, transformers 5.13.1, torch 2.13, plain PyTorch loop "
            "(no HF Trainer), model in bf16 without AMP (AdamW states bf16), no gradient checkpointing, SDPA "
            "(attn_implementation None), batch 4, samples up to 768 tokens (data.py: character limit 1304), batches "
            "bucketed by length; 'accelerator_memory_max' = torch.cuda.max_memory_reserved over the run (utils.py), "
            "bytes / 2**30. ASSUMED: the longest batch is 4 × 768 (bucketing puts the longest samples together); "
            "lengths otherwise not modelled (MetaMathQA's length statistics are not published)")
LLAMA32_3B = {"name": "Llama 3.2 3B", "hidden_size": 3072, "num_hidden_layers": 28, "num_attention_heads": 24,
              "num_key_value_heads": 8, "intermediate_size": 8192, "vocab_size": 128256, "tie_word_embeddings": True}


def peft_rows() -> list[tuple[str, str, dict, float, str]]:
    fam = "PEFT method comparison (Llama 3.2 3B, L40S)"
    out = []
    for label, method, rank, targets, pub_b in (
            ("full fine-tuning", "full", None, None, 36.20),
            ("LoRA r32 q,v", "lora", 32, "qv", 20.76),
            ("LoRA r64 q,v", "lora", 64, "qv", 21.00),
            ("LoRA r10 MLP", "lora", 10, "mlp", 23.00),  # gate, up, down (lora_targets mlp)
            # lora--llama-3.2-3B-rank32-dora.json: accelerator_memory_max 24,532,484,096 B (training.dora)
            ("DoRA r32 q,v", "dora", 32, "qv", 22.85)):
        t = {"framework": "hf", "master_weights": False, "flash_attention": True, "recompute": "none",
             "seq_len": 768, "micro_batch_size": 4, "global_batch_size": 4,
             "method": "lora" if method == "dora" else method, "dora": method == "dora"}
        if rank:
            t.update(lora_rank=rank, lora_targets=targets)
        sc = {"model": dict(LLAMA32_3B), "training": t, "hardware": {"gpu": "l40s-48gb", "num_gpus": 1},
              "assumptions": {"memory_metric": "reserved"}}
        out.append((fam, label, sc, pub_b, PEFT_SRC))
    return out


def rows():
    return [("pretraining", *r) for r in pretrain_rows()] + [("fine-tuning", *r) for r in ft_rows() + peft_rows()]


def predict(sc: dict) -> float:
    s = scenario_from_dict(sc)
    return estimate(s).memory.metric(s.assumptions.memory_metric)


def last_rank(sc: dict) -> float | None:
    """The model's figure for the last pipeline rank, the rank Megatron-LM logs (``global_vars``: the tensorboard
    writer is rank world_size − 1). Under 1F1B without interleaving the last rank holds one micro-batch in flight
    (Megatron-Core ``get_pp_rank_microbatches``: pp − rank − 1 = 0 warm-up forwards) while the first holds
    min(pp, micro-batches); the model's headline is the busiest rank. Read here by giving the scenario one
    micro-batch per step, where every rank holds one and the last rank (head and loss) is the busiest; the
    micro-batch count changes nothing else in Megatron's memory (the gradient buffers exist either way). None
    where the source's rank and the busiest one coincide (no pipeline, or the interleaved schedule)."""
    p = sc.get("parallel", {})
    if sc["training"].get("framework") != "megatron" or p.get("pp", 1) == 1 or p.get("vpp", 1) > 1:
        return None
    dp = sc["hardware"]["num_gpus"] // (p.get("tp", 1) * p["pp"] * p.get("cp", 1))
    one = {**sc, "training": {**sc["training"], "global_batch_size": sc["training"]["micro_batch_size"] * dp}}
    return predict(one)


def _stats(errs):
    errs = sorted(errs)
    return statistics.median(errs), errs[max(0, int(round(0.9 * len(errs))) - 1)]


def table() -> list[str]:
    """Per row: the model's busiest-rank figure and, where the source logs another rank, the model's figure for
    that rank (the compared one). Group statistics for both readings."""
    out = ["| category | family | row | published GiB | model, busiest rank | model, source's rank | error |",
           "|---|---|---|---:|---:|---:|---|"]
    groups: dict[str, list[tuple[float, float]]] = {}
    for cat, fam, rid, sc, pub, _src in rows():
        busiest = predict(sc)
        last = last_rank(sc)
        cmp_ = busiest if last is None else last
        eb, ec = (busiest / pub - 1) * 100, (cmp_ / pub - 1) * 100
        shown = "same" if last is None else f"{last:.2f}"
        err = f"{ec:+.1f}%" if last is None else f"{eb:+.1f}% (busiest) / {ec:+.1f}% (last rank)"
        out.append(f"| {cat} | {fam} | {rid} | {pub:.2f} | {busiest:.2f} | {shown} | {err} |")
        for key in (cat, f"{cat}: {fam}", "all rows"):
            groups.setdefault(key, []).append((abs(eb), abs(ec)))
    out += ["", "| group | rows | median, busiest rank → source's rank | p90, busiest rank → source's rank |",
            "|---|---:|---|---|"]
    for key in sorted(groups):
        pairs = groups[key]
        (mb, pb), (mn, pn) = _stats([b for b, _ in pairs]), _stats([n for _, n in pairs])
        out.append(f"| {key} | {len(pairs)} | {mb:.1f}% → {mn:.1f}% | {pb:.1f}% → {pn:.1f}% |")
    out += ["", "Sources:", ""] + [f"- {s}" for s in sorted({f"{fam}: {src}" for _c, fam, _r, _s, _p, src in rows()})]
    return out


def main() -> int:
    print("\n".join(table()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
