"""Published pre-training step times the project had not used: an out-of-sample check (issue 35 round 9, ptoos9).

Usage: python bench/validate_pretrain_oos9.py [--md]

Every row was entered and scored BEFORE any model change of this round (``BEFORE`` below holds those predictions).
No constant was chosen from these rows. Each row names its source (repository + path + commit) and how the
source's figure maps to our step time / tokens per second per GPU.

Sources
-------
1. **Nanotron / the Ultra-Scale Playbook benchmark** (Hugging Face): github.com/huggingface/nanotron,
   ``docs/benchmark_summary.svg`` at commit c252843039cc167ff8d6894b87172af4637eb14b (March 2025; the README's
   "Benchmarks" section: "the best configurations we discovered for each model size and node count in nanotron
   v0.5"). The figure is a Matplotlib SVG: each heat-map cell carries its MFU (%) and, in the right panel, its
   layout ("DP: 32 TP: 4 PP: 1 / GAS: 1 MBS: 8 / ZeRO-0"), as text. 25 cells (4 sizes × 7 node counts; the 80B
   model has no 1- or 2-node cell). The runs: ``scripts/scaling_benchmarks.py`` (e24d2483a4, Feb 2025):
   sequence 4096, global batch 1M tokens (``GBS = [512 * 2048]``; every cell's DP × GAS × MBS is 256), vocabulary
   131,072, multi-head attention (``NUM_KEY_VALUE_HEADS = None``), embeddings tied below 4B (``tie_word_embeddings =
   True if intermediate_size < 10_000``), ``tp_mode: REDUCE_SCATTER`` (sequence parallel) with
   ``tp_linear_async_communication: True``; the model table ``"1B": (16, 2048, 32, 8192)``, ``"3B": (28, 3072, 32,
   8192)``, ``"8B": (32, 4096, 32, 14336)``, ``"70B": (80, 8192, 64, 28672)`` gives 1.34B / 3.57B / 8.86B / 80.0B
   with ``estimate_num_params`` (the figure's column labels). The base config
   (``examples/config_tiny_llama_bench.yaml`` at 6ac7d73369): bf16, ``pp_engine: 1f1b``, ``ddp_bucket_cap_mb: 25``,
   ``accumulate_grad_in_fp32: true``, fused torch AdamW, no recompute. H100 80GB nodes of 8 (``hopper-prod``).
   *Mapping*: nanotron's MFU = ``get_flops`` (``src/nanotron/models/llama.py`` at c252843: 6 × (QKV, QKᵀ and AV
   over the FULL s × s, output, gate/up/down, LM head) per token) / (step × GPUs) / peak. Peak ASSUMED 989.5 TFLOP/s
   (H100 SXM dense BF16). So published tokens/s/GPU = MFU × 989.5e12 / nanotron_flops_per_token, and the step =
   1M tokens / (that × GPUs). The mapping uses nanotron's own FLOP count, not ours.
   *Framework*: entered as ``megatron`` (Megatron-LM mechanics) because nanotron's code does the same things:
   SP all-gather / reduce-scatter around column/row linears (``parallel/tensor_parallel/functional.py``), the
   non-interleaved 1F1B schedule (``OneForwardOneBackwardPipelineEngine``, ``pipeline_parallel/engine.py``), ZeRO-1
   optimizer sharding with a non-overlapped coalesced all-gather of the parameters after the step
   (``optim/zero.py`` ``_all_gather_params``), torch DDP bucketed all-reduce during the backward
   (``trainer.py`` ``DistributedDataParallel(bucket_cap_mb=...)``, ``no_sync`` for all but the last micro-batch),
   an unfused vocab-parallel cross-entropy in FP32 (``sharded_cross_entropy``), flash-attention 2, no TE,
   no userbuffers TP overlap. Set: ``fused_cross_entropy False``, ``overlap_grad_reduce True``,
   ``overlap_param_gather False``, ``tp_comm_overlap False``, ``zero`` 0/1 per cell.
2. **BLOOM 176B** (BigScience, Megatron-DeepSpeed): github.com/bigscience-workshop/bigscience
   ``train/tr11-176B-ml/README.md`` ("Important checkpoints": iteration 85376, "elapsed time per iteration (s):
   104.70 | global batch size: 2048 | ... TFLOPs: 149.77") and ``tr11-176B-ml.slurm`` (TP 4, PP 12, MBS 2, GBS 2048,
   seq 2048, 70 layers, hidden 14336, 112 heads, ``--bf16``, ``--checkpoint-activations``, ZeRO stage 0 with the
   bf16 optimizer that "implements its own zero stage 1 equivalent"), 48 nodes × 8 A100 80GB (README: "48 nodes with
   8 GPUs each"), commit 9e64edec2ad1fb9263bf39ba616a84ff64b4d947. Published step = 104.70 s.
3. **OLMo-core README throughput table** (Ai2): github.com/allenai/OLMo-core ``README.md`` at
   41f8ddc9f57f2edd7172dfd1dfca149b3dd2f0d0^ (March 2025): "Throughput reported in tokens per second per device",
   "measured on a cluster with NVIDIA H100 GPUs"; the scripts ``src/scripts/train/{OLMo2-1B,OLMo2-7B,Llama3-8B,
   OLMo2-13B}.py`` at the same commit: ``rank_microbatch_size`` 8/2/2/1 × 4096, sequence 4096, global batch 1024
   (13B: 2048) × 4096 tokens, ``compile_model=True``, HSDP (``DataParallelType.hsdp``, bf16 params, fp32
   reduce), no activation checkpointing, fused AdamW; FP8 rows: ``float8_config.enabled=true`` (torchao float8,
   dynamic tensorwise). Archs (``nn/transformer/config.py``): OLMo2-1B = llama2_1B (d 2048, 18 layers, 16 heads,
   FFN 5632), 7B = llama2_7B (4096, 32, 32, 11008), 13B = llama2_13B (5120, 40, 40, 13824), Llama3-8B (4096, 32,
   32 heads / 8 KV, 14336); the Dolma 2 tokenizer padded to 100,352 (``padded_vocab_size``), untied, QK-norm.
   GPU count is not stated: ASSUMED one node (8 H100 SXM; ``internal/experiment.py`` ``num_nodes: int = 1``).
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import validate_bridge_dense as vbd  # noqa: E402

NANOTRON_SRC = ("https://github.com/huggingface/nanotron/blob/c252843039cc167ff8d6894b87172af4637eb14b/"
                "docs/benchmark_summary.svg")
BLOOM_SRC = ("https://github.com/bigscience-workshop/bigscience/blob/9e64edec2ad1fb9263bf39ba616a84ff64b4d947/"
             "train/tr11-176B-ml/README.md")
OLMO_SRC = ("https://github.com/allenai/OLMo-core/blob/41f8ddc9f57f2edd7172dfd1dfca149b3dd2f0d0%5E/README.md "
            "(table) + src/scripts/train/*.py")

#: ASSUMED peak behind nanotron's MFU: H100 SXM dense BF16, 989.5 TFLOP/s
H100_PEAK = 989.5e12
SEQ = 4096
GBS_SEQS = 256
#: nanotron ``scripts/scaling_benchmarks.py`` model table: (layers, hidden, heads, FFN)
NANO_MODELS = {"1.34B": (16, 2048, 32, 8192), "3.57B": (28, 3072, 32, 8192), "8.86B": (32, 4096, 32, 14336),
               "80.0B": (80, 8192, 64, 28672)}
NANO_VOCAB = 131072

#: (model, nodes, DP, TP, PP, GAS, MBS, ZeRO, published MFU %) — read from the SVG's cell texts (module doc)
NANOTRON = [
    ("1.34B", 64, 128, 2, 2, 1, 2, 1, 5.25), ("3.57B", 64, 128, 4, 1, 1, 2, 1, 10.49),
    ("8.86B", 64, 128, 4, 1, 1, 2, 0, 18.69), ("80.0B", 64, 32, 16, 1, 4, 2, 1, 17.79),
    ("1.34B", 32, 64, 4, 1, 1, 4, 0, 23.20), ("3.57B", 32, 64, 4, 1, 1, 4, 0, 26.77),
    ("8.86B", 32, 32, 8, 1, 1, 8, 0, 32.71), ("80.0B", 32, 4, 4, 16, 64, 1, 1, 30.75),
    ("1.34B", 16, 64, 2, 1, 1, 4, 0, 29.46), ("3.57B", 16, 32, 4, 1, 1, 8, 0, 34.59),
    ("8.86B", 16, 16, 8, 1, 2, 8, 0, 36.33), ("80.0B", 16, 1, 4, 32, 256, 1, 0, 34.29),
    ("1.34B", 8, 32, 1, 2, 8, 1, 1, 32.47), ("3.57B", 8, 32, 1, 2, 8, 1, 1, 35.53),
    ("8.86B", 8, 32, 1, 2, 8, 1, 1, 39.50), ("80.0B", 8, 1, 4, 16, 256, 1, 0, 30.65),
    ("1.34B", 4, 16, 1, 2, 16, 1, 1, 38.38), ("3.57B", 4, 16, 1, 2, 8, 2, 1, 40.39),
    ("8.86B", 4, 16, 1, 2, 16, 1, 1, 43.31), ("80.0B", 4, 1, 8, 4, 256, 1, 0, 14.76),
    ("1.34B", 2, 8, 1, 2, 32, 1, 1, 41.59), ("3.57B", 2, 8, 1, 2, 16, 2, 1, 43.77),
    ("8.86B", 2, 4, 4, 1, 16, 4, 1, 43.94),
    ("1.34B", 1, 4, 1, 2, 16, 4, 1, 44.32), ("3.57B", 1, 4, 1, 2, 32, 2, 1, 46.68),
    ("8.86B", 1, 2, 1, 4, 128, 1, 1, 45.22),
]


#: the same cells' memory labels ("8.40GB"...: the figure's left panel, "MFU and Memory Usage"), in the order of
#: :data:`NANOTRON`; which PyTorch counter the benchmark logged is not stated (ASSUMED the peak; compared with the
#: model's peak total)
NANOTRON_MEM_GB = [8.40, 16.42, 57.76, 53.46, 19.57, 38.98, 63.39, 64.21, 38.84, 66.20, 66.88, 61.18,
                   16.27, 36.73, 59.09, 63.07, 16.39, 53.33, 61.10, 65.97, 19.45, 54.31, 58.34, 41.76, 56.87, 63.07]


def nanotron_flops_per_token(model: str, seq: int = SEQ) -> float:
    """nanotron ``get_flops`` (models/llama.py at c252843) per token: 3 × forward, attention over the full s × s,
    multi-head (KV heads = heads), LM head counted once."""
    L, h, nh, ffn = NANO_MODELS[model]
    hd = h // nh
    fwd = (2 * L * seq * h * nh * hd + 2 * L * seq * h * 2 * nh * hd  # QKV
           + 2 * L * nh * seq * hd * seq + 2 * L * nh * seq * seq * hd  # QK^T, AV
           + 2 * L * nh * seq * hd * h  # output projection
           + 4 * L * seq * h * ffn + 2 * L * seq * ffn * h  # gate/up, down
           + 2 * seq * h * NANO_VOCAB)  # LM head
    return 3 * fwd / seq


def nanotron_pub_tps(row) -> float:
    """Published tokens/s per GPU from the cell's MFU (module doc, mapping)."""
    return row[-1] / 100 * H100_PEAK / nanotron_flops_per_token(row[0])


#: ``--first-entry``: the nanotron cells as first scored (framework ``megatron`` with nanotron's switches), the
#: figures of :data:`BEFORE`; without it they run as the ``nanotron`` tool (issue 35 round 9)
FIRST_ENTRY = "--first-entry" in sys.argv


def nanotron_scenario(row, first_entry: bool | None = None) -> dict:
    """A cell as a user fills the scenario: the ``nanotron`` tool (its defaults: DDP gradient overlap, no TP/PP
    overlap, unfused loss; ``core/frameworks.py``), or, as first entered, ``megatron`` with those switches set."""
    model, nodes, dp, tp, pp, gas, mbs, zero, _mfu = row
    L, h, nh, ffn = NANO_MODELS[model]
    t = {"method": "pretrain", "framework": "nanotron", "precision": "bf16", "seq_len": SEQ, "micro_batch_size": mbs,
         "global_batch_size": dp * gas * mbs, "recompute": "none", "flash_attention": True}
    if FIRST_ENTRY if first_entry is None else first_entry:
        t.update({"framework": "megatron", "fused_cross_entropy": False, "overlap_grad_reduce": True,
                  "overlap_param_gather": False, "tp_comm_overlap": False})
    return {"model": {"name": f"nanotron bench {model}", "hidden_size": h, "num_hidden_layers": L,
                      "num_attention_heads": nh, "num_key_value_heads": nh, "intermediate_size": ffn,
                      "vocab_size": NANO_VOCAB, "tie_word_embeddings": ffn < 10_000, "max_position_embeddings": SEQ},
            "training": t,
            "parallel": {"tp": tp, "pp": pp, "vpp": 1, "zero": zero, "sequence_parallel": tp > 1},
            "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": nodes * 8, "gpus_per_node": 8}}


#: BLOOM 176B (module doc, source 2): published step 104.70 s, GBS 2048 × 2048 tokens on 384 GPUs
BLOOM_STEP_S = 104.70
BLOOM = {"name": "BLOOM 176B", "hidden_size": 14336, "num_hidden_layers": 70, "num_attention_heads": 112,
         "num_key_value_heads": 112, "intermediate_size": 4 * 14336, "vocab_size": 250880, "gated_mlp": False,
         "hidden_act": "gelu", "tie_word_embeddings": True, "norm_type": "layernorm", "position_embedding": "alibi",
         "attention_bias": True, "attention_out_bias": True, "mlp_bias": True, "max_position_embeddings": 2048}


def bloom_scenario() -> dict:
    """Megatron-DeepSpeed as Megatron-LM mechanics (TP 4, PP 12 1F1B — DeepSpeed's ``TrainSchedule`` is 1F1B —,
    ZeRO-1-equivalent bf16 optimizer, full recompute, no sequence parallelism: Megatron-DeepSpeed 2022 had none)."""
    return {"model": BLOOM,
            "training": {"method": "pretrain", "framework": "megatron", "precision": "bf16", "seq_len": 2048,
                         "micro_batch_size": 2, "global_batch_size": 2048, "recompute": "full",
                         "fused_cross_entropy": False},
            "parallel": {"tp": 4, "pp": 12, "vpp": 1, "zero": 1, "sequence_parallel": False},
            "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 384, "gpus_per_node": 8}}


_OLMO2 = {"vocab_size": 100352, "tie_word_embeddings": False, "qk_norm": True, "max_position_embeddings": 4096}
OLMO_MODELS = {
    "OLMo2-1B": {"name": "OLMo 2 1B (OLMo-core)", "hidden_size": 2048, "num_hidden_layers": 18,
                 "num_attention_heads": 16, "num_key_value_heads": 16, "intermediate_size": 5632, **_OLMO2},
    "OLMo2-7B": {"name": "OLMo 2 7B (OLMo-core)", "hidden_size": 4096, "num_hidden_layers": 32,
                 "num_attention_heads": 32, "num_key_value_heads": 32, "intermediate_size": 11008, **_OLMO2},
    "Llama3-8B": {"name": "Llama 3 8B, Dolma 2 vocab (OLMo-core)", "hidden_size": 4096, "num_hidden_layers": 32,
                  "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
                  **{**_OLMO2, "qk_norm": False}},
    "OLMo2-13B": {"name": "OLMo 2 13B (OLMo-core)", "hidden_size": 5120, "num_hidden_layers": 40,
                  "num_attention_heads": 40, "num_key_value_heads": 40, "intermediate_size": 13824, **_OLMO2},
}
#: (script, precision, rank micro-batch sequences, global batch sequences, published TPS per device)
OLMO = [("OLMo2-1B", "bf16", 8, 1024, 55000), ("OLMo2-1B", "fp8", 8, 1024, 65000),
        ("OLMo2-7B", "bf16", 2, 1024, 10000), ("OLMo2-7B", "fp8", 2, 1024, 13000),
        ("Llama3-8B", "bf16", 2, 1024, 9500), ("Llama3-8B", "fp8", 2, 1024, 12500),
        ("OLMo2-13B", "bf16", 1, 2048, 4600), ("OLMo2-13B", "fp8", 1, 2048, 5500)]


def olmo_scenario(row) -> dict:
    """OLMo-core's FSDP2 (``fully_shard``) + torch.compile, entered as the ``fsdp`` framework (torchtitan-style
    FSDP2, the same PyTorch calls); HSDP on one node = FSDP over 8 GPUs."""
    script, prec, mbs, gbs, _tps = row
    t = {"method": "pretrain", "framework": "fsdp", "precision": prec, "seq_len": 4096, "micro_batch_size": mbs,
         "global_batch_size": gbs, "recompute": "none", "torch_compile": True}
    if prec == "fp8":
        t["fp8_recipe"] = "torchao_tensorwise"
    return {"model": OLMO_MODELS[script], "training": t, "parallel": {"zero": 3},
            "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8, "gpus_per_node": 8}}


#: torch DDP's default ``bucket_cap_mb`` (nanotron ``ddp_bucket_cap_mb: 25``): bytes of 16-bit gradients per bucket
DDP_BUCKET_BYTES = 25 * 2**20
#: parameter tensors per nanotron Llama decoder layer (``LlamaDecoderLayer``: input_layernorm, qkv_proj, o_proj,
#: post_attention_layernorm, gate_up_proj, down_proj)
NANO_TENSORS_PER_LAYER = 6


def nanotron_stage_tensors(row) -> int:
    """Parameter tensors on the busiest GPU: its stage's layers (even share, rounded up) plus the embedding, the
    final norm and, untied, the LM head (counted on every stage: an upper bound of 3)."""
    model, _n, _dp, _tp, pp, *_ = row
    L = NANO_MODELS[model][0]
    return -(-L // pp) * NANO_TENSORS_PER_LAYER + 3


def nanotron_zero1_host_ops(row) -> tuple[float, float]:
    """Host-issued copies per step of nanotron's ZeRO-1 collectives on lists of per-rank views (what-if, NOT in the
    model; counted from nanotron c252843):

    * gradients, per DDP bucket (``gradient_accumulator.get_fp32_accum_hook`` with ``reduce_scatter=True``): one
      ``_flatten_dense_tensors`` (a ``cat``) per DP rank plus the output's (``distributed.reduce_scatter_coalesced``),
      then ``ProcessGroupNCCL::reduce_scatter`` copies each of the DP ranks' inputs into its flat buffer (one
      ``copy_`` per rank), then one ``copy_`` back per parameter (``update_output``): 2·d + 1 per bucket + the
      bucket's tensors;
    * parameters after the step (``optim/zero.py`` ``_all_gather_params`` → ``distributed.all_gather_coalesced``): one
      ``cat`` per rank and the input's, ``ProcessGroupNCCL::allgather``'s copy out per rank, then ``update_output``
      copies every parameter's slice of every rank back: 2·d + 1 + d × tensors.

    Returns (gradient-side ops, parameter-side ops); ZeRO-0 rows (torch ``all_reduce_coalesced``) return (0, 0)."""
    model, _n, dp, tp, pp, _gas, _mbs, zero, _mfu = row
    if zero < 1 or dp < 2:
        return 0.0, 0.0
    L, h, nh, ffn = NANO_MODELS[model]
    tensors = nanotron_stage_tensors(row)
    params = (L * (4 * h * h + 3 * h * ffn) / pp + NANO_VOCAB * h) / tp
    buckets = -(-int(params * 2) // DDP_BUCKET_BYTES)
    return buckets * (2 * dp + 1) + tensors, 2 * dp + 1 + dp * tensors


def all_rows() -> list[tuple[str, str, dict, float]]:
    """(group, label, scenario, published tokens/s per GPU) for every row."""
    out = []
    for r in NANOTRON:
        out.append(("nanotron", f"{r[0]} {r[1]}n DP{r[2]} TP{r[3]} PP{r[4]} GAS{r[5]} MBS{r[6]} Z{r[7]}",
                    nanotron_scenario(r), nanotron_pub_tps(r)))
    out.append(("bloom", "BLOOM 176B 384×A100 TP4 PP12 DP8", bloom_scenario(), 2048 * 2048 / BLOOM_STEP_S / 384))
    for r in OLMO:
        out.append(("olmo-core", f"{r[0]} {r[1]} 8×H100 mbs{r[2]}", olmo_scenario(r), float(r[4])))
    return out


#: predictions (tokens/s per GPU) at main 837da9d, before any change of round 9: label → predicted
BEFORE = {
    "1.34B 64n DP128 TP2 PP2 GAS1 MBS2 Z1": 15600.82,
    "3.57B 64n DP128 TP4 PP1 GAS1 MBS2 Z1": 11815.34,
    "8.86B 64n DP128 TP4 PP1 GAS1 MBS2 Z0": 5296.10,
    "80.0B 64n DP32 TP16 PP1 GAS4 MBS2 Z1": 216.57,
    "1.34B 32n DP64 TP4 PP1 GAS1 MBS4 Z0": 31594.52,
    "3.57B 32n DP64 TP4 PP1 GAS1 MBS4 Z0": 13413.19,
    "8.86B 32n DP32 TP8 PP1 GAS1 MBS8 Z0": 5670.56,
    "80.0B 32n DP4 TP4 PP16 GAS64 MBS1 Z1": 603.78,
    "1.34B 16n DP64 TP2 PP1 GAS1 MBS4 Z0": 38668.12,
    "3.57B 16n DP32 TP4 PP1 GAS1 MBS8 Z0": 14386.95,
    "8.86B 16n DP16 TP8 PP1 GAS2 MBS8 Z0": 5917.53,
    "80.0B 16n DP1 TP4 PP32 GAS256 MBS1 Z0": 558.03,
    "1.34B 8n DP32 TP1 PP2 GAS8 MBS1 Z1": 31486.69,
    "3.57B 8n DP32 TP1 PP2 GAS8 MBS1 Z1": 14515.58,
    "8.86B 8n DP32 TP1 PP2 GAS8 MBS1 Z1": 7148.56,
    "80.0B 8n DP1 TP4 PP16 GAS256 MBS1 Z0": 706.17,
    "1.34B 4n DP16 TP1 PP2 GAS16 MBS1 Z1": 33627.21,
    "3.57B 4n DP16 TP1 PP2 GAS8 MBS2 Z1": 14869.63,
    "8.86B 4n DP16 TP1 PP2 GAS16 MBS1 Z1": 7667.35,
    "80.0B 4n DP1 TP8 PP4 GAS256 MBS1 Z0": 751.97,
    "1.34B 2n DP8 TP1 PP2 GAS32 MBS1 Z1": 34766.40,
    "3.57B 2n DP8 TP1 PP2 GAS16 MBS2 Z1": 15803.59,
    "8.86B 2n DP4 TP4 PP1 GAS16 MBS4 Z1": 7493.89,
    "1.34B 1n DP4 TP1 PP2 GAS16 MBS4 Z1": 34746.74,
    "3.57B 1n DP4 TP1 PP2 GAS32 MBS2 Z1": 16429.53,
    "8.86B 1n DP2 TP1 PP4 GAS128 MBS1 Z1": 7046.12,
    "BLOOM 176B 384×A100 TP4 PP12 DP8": 105.34,
    "OLMo2-1B bf16 8×H100 mbs8": 51899.62,
    "OLMo2-1B fp8 8×H100 mbs8": 56542.61,
    "OLMo2-7B bf16 8×H100 mbs2": 9257.03,
    "OLMo2-7B fp8 8×H100 mbs2": 10630.46,
    "Llama3-8B bf16 8×H100 mbs2": 8721.66,
    "Llama3-8B fp8 8×H100 mbs2": 10040.77,
    "OLMo2-13B bf16 8×H100 mbs1": 4571.65,
    "OLMo2-13B fp8 8×H100 mbs1": 5164.21,
}


def results() -> list[dict]:
    res = []
    for group, label, sc, pub in all_rows():
        r = vbd.results([(label,)], lambda _row, sc=sc: sc)[0]
        r.update(group=group, label=label, pub=pub)
        res.append(r)
    return res


def zero1_whatif() -> list[tuple[str, float, float, float]]:
    """(label, published step s, model step s, model step + the ZeRO-1 list copies) for the nanotron ZeRO-1 rows
    with several DP ranks. What-if only: the copies are issued by the host at ``methods.EAGER_OP_S`` each; the
    parameter side runs after the optimizer step (exposed), the gradient side in the DDP hooks of the last
    micro-batch's backward (exposed beyond that backward, ASSUMED two thirds of one micro-batch's compute)."""
    from gpuplanner.core.estimate import resolve, time_estimate
    from gpuplanner.core.methods import EAGER_OP_S
    from gpuplanner.core.scenario import scenario_from_dict

    out = []
    for r in NANOTRON:
        g_ops, p_ops = nanotron_zero1_host_ops(r)
        if not p_ops:
            continue
        t = time_estimate(resolve(scenario_from_dict(nanotron_scenario(r, first_entry=True))))
        pub_step = GBS_SEQS * SEQ / nanotron_pub_tps(r) / (r[1] * 8)
        bwd_last = 2.0 / 3.0 * t.seconds["compute"] / (r[5] * r[4] if r[4] > 1 else r[5])
        extra = p_ops * EAGER_OP_S + max(g_ops * EAGER_OP_S - bwd_last, 0.0)
        out.append((f"{r[0]} {r[1]}n DP{r[2]} TP{r[3]} PP{r[4]} GAS{r[5]}", pub_step, t.step_time_s,
                    t.step_time_s + extra))
    return out


def nanotron_pp_split(model: str, pp: int) -> list[tuple[int, bool]]:
    """(decoder layers, holds the LM head) per pipeline stage as nanotron builds them (``models/base.py``
    ``build_model`` at c252843: blocks in order — embedding, the decoder layers, final norm, LM head, loss — each
    costed by ``LlamaForTraining.get_block_compute_costs``: a layer 4·h² + 3·h·ffn (MHA), the LM head V·h, the rest
    0; a block goes to the current stage, which closes once the running total passes total × (rank + 1) / pp)."""
    L, h, _nh, ffn = NANO_MODELS[model]
    costs = [0] + [4 * h * h + 3 * h * ffn] * L + [0, NANO_VOCAB * h, 0]
    total, cum, rank = sum(costs), 0, 0
    layers, head = [0] * pp, [False] * pp
    for i, c in enumerate(costs):
        cum += c
        if 1 <= i <= L:
            layers[rank] += 1
        if i == L + 2:
            head[rank] = True
        if cum > total * (rank + 1) / pp and rank < pp - 1:
            rank += 1
    return list(zip(layers, head))


def pp_balance_whatif() -> list[tuple[str, float, float, float]]:
    """(label, published tok/s/GPU, model, model with nanotron's cost-balanced split) for the nanotron PP rows.
    What-if only: ``timing.pp_stage_shares`` (Megatron's even split, the head on the last stage) is replaced for
    the call by the split of :func:`nanotron_pp_split`."""
    from unittest import mock

    from gpuplanner.core import timing as T

    out = []
    for r in NANOTRON:
        model, pp = r[0], r[4]
        if pp < 2:
            continue
        split = nanotron_pp_split(model, pp)
        per = NANO_MODELS[model][0] / pp
        head_rank = next(i for i, (_n, hd) in enumerate(split) if hd)
        mid = max(n for i, (n, _hd) in enumerate(split) if i != head_rank) / per
        shares = {"pp_head_stage": float(pp), "pp_mid_layers": mid, "pp_last_layers": split[head_rank][0] / per}
        sc = nanotron_scenario(r, first_entry=True)
        base = vbd.results([(0,)], lambda _r, sc=sc: sc)[0]["pred"]
        with mock.patch.object(T, "pp_stage_shares", lambda *a, **k: shares):
            alt = vbd.results([(0,)], lambda _r, sc=sc: sc)[0]["pred"]
        out.append((f"{model} {r[1]}n DP{r[2]} TP{r[3]} PP{pp} ({'/'.join(str(n) for n, _ in split)} layers)",
                    nanotron_pub_tps(r), base, alt))
    return out


def memory_lines() -> list[str]:
    """The nanotron cells' published memory against the model's peak, as first entered (even split) and as the tool
    (its cost-balanced split holds more layers on the first stage): a side check, not the step-time score."""
    from gpuplanner.core.evaluate import evaluate
    from gpuplanner.core.scenario import scenario_from_dict

    out = ["| nanotron cell | published GB | model, even split (GiB) | model, nanotron split (GiB) |",
           "|---|---:|---:|---:|"]
    e_even, e_nano = [], []
    for r, gb in zip(NANOTRON, NANOTRON_MEM_GB):
        even = evaluate(scenario_from_dict(nanotron_scenario(r, first_entry=True)), rent_vs_build=False).memory.total
        nano = evaluate(scenario_from_dict(nanotron_scenario(r)), rent_vs_build=False).memory.total
        pub = gb * 1e9 / 2**30
        if r[4] > 1:
            e_even.append(even / pub - 1)
            e_nano.append(nano / pub - 1)
        out.append(f"| {r[0]} {r[1]}n DP{r[2]} TP{r[3]} PP{r[4]} | {gb:.2f} | {even:.1f} | {nano:.1f} |")
    med = statistics.median
    out += ["", f"PP rows ({len(e_nano)}): median |error| {med(abs(x) for x in e_even):.1%} (signed "
            f"{med(e_even):+.1%}) with the even split, {med(abs(x) for x in e_nano):.1%} (signed {med(e_nano):+.1%}) "
            f"with nanotron's."]
    return out


def whatif_lines() -> list[str]:
    out = ["| nanotron ZeRO-1 row | published step | model | error | + list copies (what-if) | error |",
           "|---|---:|---:|---:|---:|---:|"]
    for label, pub, pred, alt in zero1_whatif():
        out.append(f"| {label} | {pub:.3f} s | {pred:.3f} s | {pub / pred - 1:+.1%} | {alt:.3f} s | "
                   f"{pub / alt - 1:+.1%} |")
    out += ["", "| nanotron PP row (nanotron's split) | published tok/s/GPU | model (even split) | error | "
            "cost-balanced split (what-if) | error |", "|---|---:|---:|---:|---:|---:|"]
    for label, pub, base, alt in pp_balance_whatif():
        out.append(f"| {label} | {pub:,.0f} | {base:,.0f} | {base / pub - 1:+.1%} | {alt:,.0f} | {alt / pub - 1:+.1%} |")
    return out


def _before(sub: list[dict]) -> list[dict]:
    """The rows with their first-entry predictions (:data:`BEFORE`) in place of today's."""
    return [{**r, "pred": BEFORE.get(r["label"])} for r in sub]


def _line(name: str, sub: list[dict]) -> str:
    n, med, p90, sgn = vbd.stats(sub)
    _n, bmed, bp90, bsgn = vbd.stats(_before(sub))
    return (f"| {name} | {n} | {bmed:.1%} / {bp90:.1%} ({bsgn:+.1%}) | {med:.1%} / {p90:.1%} ({sgn:+.1%}) |")


def summary_lines(res: list[dict]) -> list[str]:
    out = ["| group | rows | first entry (main 837da9d): median / p90 |err| (signed) | now |", "|---|---:|---|---|"]
    for g in ("nanotron", "bloom", "olmo-core"):
        out.append(_line(g, [r for r in res if r["group"] == g]))
    nano = [r for r in res if r["group"] == "nanotron"]
    out.append(_line("nanotron ≤ 8 nodes", [r for r in nano if int(r["label"].split()[1][:-1]) <= 8]))
    out.append(_line("nanotron ≥ 16 nodes", [r for r in nano if int(r["label"].split()[1][:-1]) >= 16]))
    out.append(_line("all", res))
    return out


def row_lines(res: list[dict]) -> list[str]:
    out = ["| group | row | published tok/s/GPU | predicted | error | largest overhead |", "|---|---|---:|---:|---:|---|"]
    for r in res:
        pred = "—" if r["pred"] is None else f"{r['pred']:,.0f}"
        err = r["why"][:60] if r["pred"] is None else f"{r['pred'] / r['pub'] - 1:+.1%}"
        out.append(f"| {r['group']} | {r['label']} | {r['pub']:,.0f} | {pred} | {err} | {r['top']} |")
    return out


def main() -> int:
    res = results()
    print("\n".join(summary_lines(res)))
    print()
    print("\n".join(row_lines(res)))
    print()
    print("\n".join(whatif_lines()))
    print()
    print("\n".join(memory_lines()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
