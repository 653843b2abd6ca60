"""Pre-training step times the project had not used, round 17: an out-of-sample check (issue 35, ptoos17).

Usage: python bench/validate_pt_oos17.py [--before]

Every row was entered and scored BEFORE any model change (``BEFORE`` holds those predictions, main 64ef3985). No
constant was chosen from these rows. The one change of the round, ``timing.HF_EAGER_SCORES_ELEMS``' backward count
(PyTorch's softmax backward runs ``tmp = grad * output`` as a kernel of its own: ``aten/src/ATen/native/cuda/
SoftMax.cu``), moves the Hugging Face eager rows only; ``std_attention_lines`` checks it against PyTorch's standard
attention in the FlashAttention-2 paper's A100 benchmark. Error = predicted / published − 1 in tokens/s per GPU =
published step / predicted step − 1 (+ = the model is too fast).

What was already held (grep of bench/, tests/, docs/ and /work/shared/reference/calibration-runs.jsonl for
``flash-attention``, ``training/README``, ``GPT3-1.3B``, ``1310k``, ``TinyLlama``, ``jzhang38``, ``ColossalAI``,
``colossal``, ``gemini``, ``hpcaitech``: none). Three sources:

1. **FlashAttention's training README** (github.com/Dao-AILab/flash-attention ``training/README.md``, table added
   in 4a6eaa9f, 2022-11-29, "Update configs, add results"; unchanged to 0b037c2d): "the wallclock training speed on
   one node with 8 x A100 80GB SXM4 80GB (400W) with NVLink", GPT3-125M / 355M / 760M / 1.3B / 2.7B on The Pile,
   sequence 2,048, "Batch size (tokens)" 0.5M / 0.5M / 0.5M / 1M / 1M, "Through put (tokens/sec)" 1310k / 503k /
   245k / 169k / 85k for the node (published tokens/s/GPU = that / 8). The README's own check: "up to 189
   TFLOPs/sec per A100" = the 1.3B row under its formula (Megatron-LM §5.1 × 3/4; tested).
   *Runs* (configs at the same commit 4a6eaa9f, ``training/configs/experiment/pile/``): ``base.yaml`` (8 devices,
   ``precision: bf16``, Lightning DDP ``strategy: null``, apex FusedAdam, apex cross-entropy, ``max_length`` 2048,
   ``global_batch_size`` 256), ``gpt3s-flash.yaml`` (gpt2-small 768 / 12 heads / 12 layers, ``use_flash_attn``,
   ``fused_dropout_add_ln``, ``fused_dense_gelu_dense``, ``fused_bias_fc``; per-GPU batch 32 where
   ``train.gpu_mem`` ≥ 40 GB), ``gpt3m-flash.yaml`` (gpt2-medium 1024 / 16 / 24; batch 32 at ≥ 80 GB — the A100
   80GB reports 82 in ``nvidia-smi`` / 1000), ``gpt3l-flash.yaml`` (1536 / 16 / 24; batch 16 at ≥ 80 GB;
   ``DDPStrategyZero1``), ``gpt3xl-flash.yaml`` (2048 / 16 / 24; batch 8; global batch 512; ``DDPStrategyZero1``),
   ``gpt3-2.7B-flash-hdim128.yaml`` (2560 / 20 / 32; batch 4; ``mlp_checkpoint_lvl: 0``). Accumulation = global
   batch / (8 × batch): 1 / 1 / 2 / 8 / 16. GPT-2 architecture (``flash_attn/models/gpt.py``): learned positions,
   LayerNorm, biases, GeLU 4h MLP, tied LM head, vocabulary 50,257 padded to a multiple of 8 (50,264).
   ``setup.py`` at 4a6eaa9f: ``flash_attn`` 0.2.2 = FlashAttention-1 (``attention_kernel: flash1``).
   The README's two figures (``assets/gpt3_training_efficiency.jpg``, ``assets/gpt2_training_efficiency.jpg``, same
   commit, "TFLOPs/s per A100" under the same formula) add the **Hugging Face** baseline (transformers'
   ``GPT2LMHeadModel``, the ``gpt2-hf`` model config: eager attention, ``gelu_new``, dropout 0.1,
   ``scale_attn_by_inverse_layer_idx``) at sequence 2,048 (bf16) and 1,024 (OpenWebText, fp16), and FlashAttention
   at 1,024 (``FIG_ROWS``). Published tokens/s/GPU = the bar × 1e12 / the README's FLOPs per token.
2. **TinyLlama README** (github.com/jzhang38/TinyLlama ``README.md`` @026587c0): "a throughput of **24k** tokens
   per second per A100-40G GPU, which translates to **56% model flops utilization** without activation
   checkpointing", on the "16 A100-40G GPUs" of its training table, "per-gpu batch size of 16k tokens"; its
   A100-hours figure (3,456 for 300B tokens = 24,113 tokens/s/GPU) agrees. Run: ``pretrain/tinyllama.py``
   @01c9c774 (lit-gpt on Lightning Fabric ``FSDPStrategy(auto_wrap_policy={Block}, activation_checkpointing_policy
   =None, limit_all_gathers=True)``: torch FSDP1, FULL_SHARD by default; ``micro_batch_size`` 8, sequence 2,048;
   global batch 1,024 × 2,048 (README table) over 16 GPUs → 8 accumulation steps; FlashAttention-2, fused
   RMSNorm / SwiGLU / rotary / cross-entropy; bf16 mixed). Model (README): 22 layers, 32 heads, 4 query groups,
   2,048 hidden, SwiGLU 5,632, Llama 2 tokenizer (32,000).
3. **Colossal-AI LLaMA-2 example** (github.com/hpcaitech/ColossalAI ``examples/language/llama2/README.md``
   @068372a7, "4. Shell Script Examples"): "performed on 4 computing nodes with 32 A800 GPUs … connected with RDMA
   and GPUs within one node are fully connected with NVLink", command ``scripts/benchmark_7B/gemini.sh``
   (``benchmark.py -g -x -b 16``, four ``mlx5`` HCAs a node, ``NCCL_IB_GID_INDEX=3``), result "throughput: 24.26
   samples/s, TFLOPS/GPU: 167.43". ``benchmark.py`` @01ee32a7: config ``7b`` = ``LlamaConfig(max_position_
   embeddings=4096)`` (Llama 2 7B), ``--max_length`` 4096, ``GeminiPlugin(precision="bf16")`` (ZeRO-3-style
   chunked sharding, no offload at the defaults), ``-g`` → ``model.gradient_checkpointing_enable()``, ``-x`` →
   xformers attention, ``HybridAdam``, one step a batch. The samples/s is the whole job's: 24.26 × 4,096 / 32 =
   3,105 tokens/s/GPU, and 167.43 TFLOPS/GPU = 3,105 × 8 × 6.74e9 (the evaluator's 8·N with checkpointing)
   confirms the 7B model and the 32 GPUs (tested). The README's sentence says "for LLaMA-1 65B"; the command,
   the config and the figures are the 7B one.

Mapping and flags (ASSUMED where the source is silent):
* Fused kernels (FlashAttention rows: ``fused_dropout_add_ln``, ``fused_dense_gelu_dense``, ``fused_bias_fc``, apex
  cross-entropy; TinyLlama: "fused layernorm", "fused swiglu", "fused cross entropy loss", "fused rotary positional
  embedding"): ``torch_compile: true``, the scenario field documented as "torch.compile or fused kernels: element-wise
  ops fused". The first scoring (``FIRST_ENTRY``, main 64ef3985) left the field at its default (eager element-wise
  kernels) — a mapping error of this round, corrected before any model change; both are printed.
* FlashAttention rows: ``framework: fsdp`` with ``zero`` 0 (torch DDP, the nearest engine: Lightning's
  ``DDPStrategy``); the 760M / 1.3B / 2.7B rows run ``DDPStrategyZero1`` (torch ``ZeroRedundancyOptimizer``:
  the optimizer state sharded, the updated parameters broadcast) — entered as zero 0 (flag). One node of 8:
  ``gpus_per_node`` 8.
* TinyLlama: ``framework: fsdp``, ``fsdp_version`` 1, ``zero`` 3, no recompute, ``attention_kernel: flash2``; the
  two nodes' fabric is not stated — the catalogue default (flag).
* Colossal-AI: ``framework: hf`` (the Hugging Face ``LlamaForCausalLM`` as it is, with its own checkpointing),
  ``zero`` 3 for Gemini (flag), ``recompute: full``, xformers' memory-efficient attention entered as
  ``attention_kernel: flash2`` (flag); A800 SXM 80GB; four NICs a node, ``roce-100`` (flag: the rate is not
  stated; GID index 3 = RoCE v2).

* Hugging Face GPT-2 rows: ``framework: hf`` (the model's code as it is), ``zero`` 0, ``flash_attention: false``
  (Transformers' eager attention), the GPT-2 preset's family (``gpt2-xl``: learned positions, fused ``c_attn``,
  dropout, ``gelu_new``) with the run's sizes (head dim = hidden / heads; the first run of this script kept the
  preset's 64 for the 760M / 1.3B sizes of the GPT3 figure — a mapping error, corrected before any model change).

Left out: the figures' **Megatron-LM** bars (GPT3 70 / 82 / 115 / 142 / 149, GPT2 81 / 99 / 109 / 114 TFLOPs/s): the
README gives no Megatron layout (micro-batch, recompute: "we scale by 3/4 to get the model FLOPs (instead of
hardware FLOPs with activation checkpointing)" suggests full recompute, not stated); Colossal-AI's GPT example tables (``examples/language/gpt/README.md``: Gemini with CPU / auto placement
on PCIe A100s, "Tflops" of an unstated formula); its LLaMA-1/2/3 headline figures (images); FlashAttention-2
paper Table 1 (the store has no readable copy of the table); Llama 2's GPU-hours (no layout).
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import validate_bridge_dense as vbd  # noqa: E402

FA = "github.com/Dao-AILab/flash-attention training/README.md @4a6eaa9f"
TINY = "github.com/jzhang38/TinyLlama README.md @026587c0"
COLO = "github.com/hpcaitech/ColossalAI examples/language/llama2/README.md @068372a7"

#: FlashAttention training rows: (name, hidden, heads, layers, per-GPU batch, global batch, ZeRO-1, node tokens/s)
FA_ROWS = [
    ("GPT3-125M", 768, 12, 12, 32, 256, False, 1_310_000),
    ("GPT3-355M", 1024, 16, 24, 32, 256, False, 503_000),
    ("GPT3-760M", 1536, 16, 24, 16, 256, True, 245_000),
    ("GPT3-1.3B", 2048, 16, 24, 8, 512, True, 169_000),
    ("GPT3-2.7B", 2560, 20, 32, 4, 512, True, 85_000),
]
FA_VOCAB = 50_264  # 50,257 padded to a multiple of 8 (``pad_vocab_size_multiple: 8``)
HF_VOCAB = 50_257  # transformers' GPT2Config default (the ``gpt2-hf`` model: no padding)
SEQ_FA = 2048

#: The README's two figures (``assets/gpt3_training_efficiency.jpg``, ``assets/gpt2_training_efficiency.jpg``, both
#: added in 4a6eaa9f; bar labels in TFLOPs/s per A100 under the README's formula): (figure, implementation, name,
#: hidden, heads, layers, sequence, precision, per-GPU batch, global batch, ZeRO-1, TFLOPs/s). The GPT3 figure's
#: FlashAttention bars (149 / 167 / 163 / 189 / 189) are the table's rows above (tested), not entered twice; its
#: Megatron-LM bars are left out (module doc). GPT3 (The Pile, sequence 2,048, bf16): ``pile/gpt3{s,m,l,xl}-hf.yaml``
#: at 4a6eaa9f (per-GPU batch 8 / 4 / 2 / 2; xl ``DDPStrategyZero1``; 2.7B "OOM"). GPT2 (OpenWebText, sequence
#: 1,024, ``owt/base.yaml``: ``precision: 16``, global batch 512): ``owt/gpt2{s,m,l,xl}-flash.yaml`` (64 / 64 / 32 /
#: 16 at ≥ 80 GB; l and xl ``DDPStrategyZero1``) and ``owt/gpt2{s,m,l,xl}-hf.yaml`` (8 / 4 / 2 / 1; l and xl
#: ZeRO-1); gpt2-large 1280 / 20 / 36, gpt2-xlarge 1600 / 25 / 48. The GPT2 125M FlashAttention label (behind the
#: legend) reads 147.
FIG_ROWS = [
    ("gpt3", "hf", "GPT3-125M", 768, 12, 12, 2048, "bf16", 8, 256, False, 25.0),
    ("gpt3", "hf", "GPT3-355M", 1024, 16, 24, 2048, "bf16", 4, 256, False, 29.0),
    ("gpt3", "hf", "GPT3-760M", 1536, 16, 24, 2048, "bf16", 2, 256, False, 46.0),
    ("gpt3", "hf", "GPT3-1.3B", 2048, 16, 24, 2048, "bf16", 2, 512, True, 63.0),
    ("gpt2", "flash", "GPT2-125M", 768, 12, 12, 1024, "fp16", 64, 512, False, 147.0),
    ("gpt2", "flash", "GPT2-355M", 1024, 16, 24, 1024, "fp16", 64, 512, False, 159.0),
    ("gpt2", "flash", "GPT2-760M", 1280, 20, 36, 1024, "fp16", 32, 512, True, 170.0),
    ("gpt2", "flash", "GPT2-1.6B", 1600, 25, 48, 1024, "fp16", 16, 512, True, 164.0),
    ("gpt2", "hf", "GPT2-125M", 768, 12, 12, 1024, "fp16", 8, 512, False, 35.0),
    ("gpt2", "hf", "GPT2-355M", 1024, 16, 24, 1024, "fp16", 4, 512, False, 41.0),
    ("gpt2", "hf", "GPT2-760M", 1280, 20, 36, 1024, "fp16", 2, 512, True, 46.0),
    ("gpt2", "hf", "GPT2-1.6B", 1600, 25, 48, 1024, "fp16", 1, 512, True, 51.0),
]

TINYLLAMA = {"name": "TinyLlama 1.1B", "hidden_size": 2048, "num_hidden_layers": 22, "num_attention_heads": 32,
             "num_key_value_heads": 4, "intermediate_size": 5632, "vocab_size": 32000, "gated_mlp": True,
             "tie_word_embeddings": False, "norm_type": "rmsnorm", "position_embedding": "rope",
             "hidden_act": "silu"}

#: predictions on main 64ef3985 with the entry's mapping (tokens/s per GPU), by row label
BEFORE: dict[str, int] = {
    "GPT3-125M b32 GBS 256": 162343, "GPT3-355M b32 GBS 256": 60747, "GPT3-760M b16 GBS 256": 32447,
    "GPT3-1.3B b8 GBS 512": 20316, "GPT3-2.7B b4 GBS 512": 10495, "GPT3-125M (gpt3 figure, bf16) b8 GBS 256": 50503,
    "GPT3-355M (gpt3 figure, bf16) b4 GBS 256": 19409, "GPT3-760M (gpt3 figure, bf16) b2 GBS 256": 14601,
    "GPT3-1.3B (gpt3 figure, bf16) b2 GBS 512": 11203, "GPT2-125M (gpt2 figure, fp16) b64 GBS 512": 183416,
    "GPT2-355M (gpt2 figure, fp16) b64 GBS 512": 68438, "GPT2-760M (gpt2 figure, fp16) b32 GBS 512": 33138,
    "GPT2-1.6B (gpt2 figure, fp16) b16 GBS 512": 17318, "GPT2-125M (gpt2 figure, fp16) b8 GBS 512": 73192,
    "GPT2-355M (gpt2 figure, fp16) b4 GBS 512": 28355, "GPT2-760M (gpt2 figure, fp16) b2 GBS 512": 14498,
    "GPT2-1.6B (gpt2 figure, fp16) b1 GBS 512": 7106, "TinyLlama 1.1B b8 × 8 accum": 26524,
    "LLaMA-2 7B gemini b16 seq 4k AC": 3362}
#: the first scoring on main 64ef3985 of the first seven rows, before the fused-kernel correction of the mapping (module
#: doc): FlashAttention and TinyLlama rows entered without ``torch_compile`` (eager element-wise kernels)
FIRST_ENTRY: dict[str, int] = {
    "GPT3-125M b32 GBS 256": 129860, "GPT3-355M b32 GBS 256": 52267, "GPT3-760M b16 GBS 256": 29075,
    "GPT3-1.3B b8 GBS 512": 18622, "GPT3-2.7B b4 GBS 512": 9788, "TinyLlama 1.1B b8 × 8 accum": 21360,
    "LLaMA-2 7B gemini b16 seq 4k AC": 3362}


def fa_flops_per_token(h: int, layers: int, seq: int = SEQ_FA, vocab: int = FA_VOCAB) -> float:
    """The README's FLOP count: Narayanan et al. 2021 §5.1 (96·B·s·l·h²·(1 + s/6h + V/16lh) a step with
    recompute) scaled by 3/4, per token."""
    return 72 * layers * h * h * (1 + seq / (6 * h) + vocab / (16 * layers * h))


def fa_scenario(r, seq: int = SEQ_FA, precision: str = "bf16") -> dict:
    name, h, heads, layers, mbs, gbs, _z1, _tps = r
    return {"model": {"name": name, "hidden_size": h, "num_hidden_layers": layers, "num_attention_heads": heads,
                      "intermediate_size": 4 * h, "vocab_size": FA_VOCAB, "gated_mlp": False,
                      "tie_word_embeddings": True, "attention_bias": True, "attention_out_bias": True,
                      "mlp_bias": True, "norm_type": "layernorm", "position_embedding": "learned",
                      "max_position_embeddings": seq, "hidden_act": "gelu"},
            "training": {"method": "pretrain", "framework": "fsdp", "precision": precision, "seq_len": seq,
                         "micro_batch_size": mbs, "global_batch_size": gbs, "recompute": "none",
                         "flash_attention": True, "attention_kernel": "flash1", "torch_compile": True},
            "parallel": {"zero": 0},
            "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 8, "gpus_per_node": 8}}


def hf_gpt2_scenario(r) -> dict:
    """transformers' ``GPT2LMHeadModel`` as the ``gpt2-hf`` model config builds it (eager attention, ``gelu_new``,
    dropout 0.1): the GPT-2 preset's family with the run's sizes; Lightning DDP = ``framework: hf``, zero 0."""
    _fig, _impl, _name, h, heads, layers, seq, prec, mbs, gbs, _z1, _tf = r
    return {"model": {"preset": "gpt2-xl", "hidden_size": h, "num_hidden_layers": layers, "num_attention_heads": heads,
                      "num_key_value_heads": heads, "head_dim": h // heads, "intermediate_size": 4 * h,
                      "vocab_size": HF_VOCAB, "max_position_embeddings": seq, "context_length": seq},
            "training": {"method": "pretrain", "framework": "hf", "precision": prec, "seq_len": seq,
                         "micro_batch_size": mbs, "global_batch_size": gbs, "recompute": "none",
                         "flash_attention": False},
            "parallel": {"zero": 0},
            "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 8, "gpus_per_node": 8}}


def fig_row(r) -> dict:
    fig, impl, name, h, heads, layers, seq, prec, mbs, gbs, z1, tf = r
    vocab = FA_VOCAB if impl == "flash" else HF_VOCAB
    pub = tf * 1e12 / fa_flops_per_token(h, layers, seq, vocab)
    scen = (fa_scenario((name, h, heads, layers, mbs, gbs, z1, 0), seq, prec) if impl == "flash"
            else hf_gpt2_scenario(r))
    fam = ("FlashAttention training (A100 80GB)" if impl == "flash" else "Hugging Face GPT-2 (FlashAttention README)")
    return {"label": f"{name} ({fig} figure, {prec}) b{mbs} GBS {gbs}", "family": fam, "system": "A100", "gpus": 8,
            "pub": pub, "scenario": scen, "src": FA + f" assets/{fig}_training_efficiency.jpg",
            "flag": "ZeroRedundancyOptimizer (ZeRO-1) entered as DDP" if z1 else ""}


def tiny_scenario(_r) -> dict:
    return {"model": dict(TINYLLAMA),
            "training": {"method": "pretrain", "framework": "fsdp", "fsdp_version": 1, "precision": "bf16",
                         "seq_len": 2048, "micro_batch_size": 8, "global_batch_size": 1024, "recompute": "none",
                         "flash_attention": True, "attention_kernel": "flash2", "torch_compile": True},
            "parallel": {"zero": 3},
            "hardware": {"gpu": "a100-sxm-40gb", "num_gpus": 16, "gpus_per_node": 8}}


def colo_scenario(_r) -> dict:
    return {"model": {"preset": "llama-2-7b"},
            "training": {"method": "pretrain", "framework": "hf", "precision": "bf16", "seq_len": 4096,
                         "micro_batch_size": 16, "global_batch_size": 16 * 32, "recompute": "full",
                         "flash_attention": True, "attention_kernel": "flash2"},
            "parallel": {"zero": 3},
            "hardware": {"gpu": "a800-sxm-80gb", "num_gpus": 32, "gpus_per_node": 8, "inter_node": "roce-100",
                         "nics_per_node": 4}}


def rows() -> list[dict]:
    """Every row: label, family, system, GPUs, published tokens/s/GPU, scenario, flag."""
    out = []
    for r in FA_ROWS:
        out.append({"label": f"{r[0]} b{r[4]} GBS {r[5]}", "family": "FlashAttention training (A100 80GB)",
                    "system": "A100", "gpus": 8, "pub": r[7] / 8, "scenario": fa_scenario(r), "src": FA,
                    "flag": "ZeroRedundancyOptimizer (ZeRO-1) entered as DDP" if r[6] else ""})
    out.extend(fig_row(r) for r in FIG_ROWS)
    out.append({"label": "TinyLlama 1.1B b8 × 8 accum", "family": "TinyLlama (A100 40GB)", "system": "A100",
                "gpus": 16, "pub": 24_000.0, "scenario": tiny_scenario(None), "src": TINY,
                "flag": "two nodes' fabric not stated (catalogue default)"})
    out.append({"label": "LLaMA-2 7B gemini b16 seq 4k AC", "family": "Colossal-AI (A800)", "system": "A800",
                "gpus": 32, "pub": 24.26 * 4096 / 32, "scenario": colo_scenario(None), "src": COLO,
                "flag": "Gemini as ZeRO-3; xformers as flash2; NIC rate ASSUMED roce-100"})
    return out


def results() -> list[dict]:
    rs = rows()
    res = vbd.results([(r["scenario"], r["pub"]) for r in rs], lambda t: t[0])
    for r, x in zip(rs, res):
        x.update({k: r[k] for k in ("label", "family", "system", "gpus", "pub", "flag")})
        x["before"] = BEFORE.get(r["label"])
        x["first"] = FIRST_ENTRY.get(r["label"])
    return res


#: FlashAttention-2 paper Fig. 4 = Dao-AILab/flash-attention ``assets/flash2_a100_fwd_bwd_benchmark.png`` (A100 80GB
#: SXM4, forward + backward, fp16), the "Pytorch" bars (``benchmarks/benchmark_flash_attention.py``
#: ``attention_pytorch``: ``baddbmm`` scores, ``+ causal_mask`` when causal, ``torch.softmax`` in fp16, ``einsum``
#: with V; its FLOPs ``3.5 × 4·s²·d·heads``, halved when causal): {(causal, head dim): TFLOP/s at 512, 1k, 2k, 4k, 8k}.
STD_ATTN_TFLOPS = {(False, 64): (36, 40, 43, 45, 46), (False, 128): (53, 67, 76, 79, 86),
                   (True, 64): (15, 16, 17, 18, 18), (True, 128): (23, 28, 32, 32, 34)}
STD_ATTN_SEQ = (512, 1024, 2048, 4096, 8192)


def std_attention_tflops(causal: bool, d: int, s: int, softmax_tmp: bool = True) -> float:
    """The time model's reading of ``attention_pytorch`` per (batch × head), as TFLOP/s under the benchmark's count:
    GEMMs (the whole square, forward + 2 × backward) at Ampere's matmul rate, score passes (16-bit) at
    ``MEM_BW_EFFICIENCY`` of the A100's HBM. Passes: forward ``baddbmm`` writes 1, the causal mask add reads and
    writes 2, softmax 2, ``einsum`` reads 1; backward ``einsum`` 2, the softmax backward's ``tmp = grad * output``
    3 (``softmax_tmp``; timing.HF_EAGER_SCORES_ELEMS) and its kernel 3, ``baddbmm`` reads the gradient twice 2."""
    from gpuplanner.core import timing as T
    fwd = 1 + (2 if causal else 0) + 2 + 1
    bwd = 2 + (3 if softmax_tmp else 0) + 3 + 2
    gemm = 3 * 4.0 * s * s * d / (312e12 * T.GEN_EFFICIENCY["ampere"])
    mem = (fwd + bwd) * 2.0 * s * s / (2.039e12 * T.MEM_BW_EFFICIENCY)
    counted = 3.5 * 4.0 * s * s * d / (2 if causal else 1)
    return counted / (gemm + mem) / 1e12


def std_attention_lines() -> list[str]:
    out = ["| causal | head dim | seq | published TFLOP/s | model, softmax tmp | error | without tmp | error |",
           "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for (causal, d), vals in STD_ATTN_TFLOPS.items():
        for s, pub in zip(STD_ATTN_SEQ, vals):
            a, b = std_attention_tflops(causal, d, s), std_attention_tflops(causal, d, s, softmax_tmp=False)
            out.append(f"| {causal} | {d} | {s} | {pub} | {a:.1f} | {a / pub - 1:+.1%} | {b:.1f} | {b / pub - 1:+.1%} |")
    return out


def std_attention_stats(softmax_tmp: bool = True) -> tuple[float, float]:
    e = [std_attention_tflops(c, d, s, softmax_tmp) / pub - 1
         for (c, d), vals in STD_ATTN_TFLOPS.items() for s, pub in zip(STD_ATTN_SEQ, vals)]
    return statistics.median(abs(x) for x in e), statistics.median(e)


def _err(r, key="pred"):
    v = r[key]
    return None if v is None else v / r["pub"] - 1


def _group(name, sub, key="pred"):
    e = [_err(r, key) for r in sub if r[key] is not None]
    if not e:
        return f"| {name} | 0 | — | — | — |"
    a = [abs(x) for x in e]
    return f"| {name} | {len(e)} | {statistics.median(a):.1%} | {vbd._pct(a, 0.9):.1%} | {statistics.median(e):+.1%} |"


def _pm(x) -> str:
    return "—" if x is None else f"{x:+.1%}"


def row_lines(res) -> list[str]:
    out = ["| # | source | row | GPUs | published tok/s/GPU | first entry | before | now | error first entry | "
           "error before | error now | top part | note |", "|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"]
    for i, r in enumerate(res):
        now = "—" if r["pred"] is None else f"{r['pred']:,.0f}"
        bef = "—" if r["before"] is None else f"{r['before']:,}"
        fst = "—" if r["first"] is None else f"{r['first']:,}"
        out.append(f"| {i} | {r['family']} | {r['label']} | {r['gpus']} | {r['pub']:,.0f} | {fst} | {bef} | {now} | "
                   f"{_pm(_err(r, 'first'))} | {_pm(_err(r, 'before'))} | {_pm(_err(r))} | {r['top'] or r['why']} | "
                   f"{r['flag']} |")
    return out


def group_lines(res, key="pred") -> list[str]:
    out = ["| group | rows | median |err| | p90 |err| | signed median |", "|---|---:|---:|---:|---:|"]
    for fam in dict.fromkeys(r["family"] for r in res):
        out.append(_group(fam, [r for r in res if r["family"] == fam], key))
    out.append(_group("rows without a flag", [r for r in res if not r["flag"]], key))
    out.append(_group("all rows", res, key))
    return out


def main(argv=None) -> int:
    res = results()
    print("\n".join(row_lines(res)))
    print("\nFirst entry (main 64ef3985, element-wise kernels left eager; its seven rows):\n")
    print("\n".join(group_lines([r for r in res if r["first"] is not None], "first")))
    if all(r["before"] is not None for r in res):
        print("\nBefore (main 64ef3985):\n")
        print("\n".join(group_lines(res, "before")))
    print("\nNow:\n")
    print("\n".join(group_lines(res)))
    n, med, p90, sgn = vbd.stats(res)
    print(f"\nSCORE (now): {n} rows, median |error| {med:.1%}, p90 {p90:.1%}, signed median {sgn:+.1%}")
    print("\nPyTorch's standard attention on the A100 (FlashAttention-2 Fig. 4), the time model's pass count:\n")
    print("\n".join(std_attention_lines()))
    (m1, s1), (m0, s0) = std_attention_stats(True), std_attention_stats(False)
    print(f"\n20 bars: median |error| {m1:.1%} (signed {s1:+.1%}) with the softmax backward's tmp, "
          f"{m0:.1%} ({s0:+.1%}) without")
    if "--before" in (argv if argv is not None else sys.argv[1:]):
        print("BEFORE =", {r["label"]: None if r["pred"] is None else round(r["pred"]) for r in res})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
