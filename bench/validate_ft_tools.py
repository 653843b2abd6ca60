"""Published step times and peak memory of fine-tuning tools against the model (a sanity table, not fitted).

Usage: python bench/validate_ft_tools.py [--before FILE] [--write-before FILE]

Each row is a published run entered as a user of the app would enter it: the tool (``training.framework``), the
model, method, LoRA rank/targets, batch, length, recomputation, GPU. Where the source is silent the choice is
written next to the row (``ASSUMED``) and printed. Nothing is tuned per row. The tables:

* ``qwen-readme-mem`` — QwenLM/Qwen ``README.md`` (commit 2df8e8a) "Profiling of Memory and Speed": the memory
  half of the table whose speed half is in ``bench/validate_peft.py`` (the same runs: HF Trainer + PEFT, LoRA r 64
  on every linear layer, dropout 0.05, gradient checkpointing, batch 1 × 8, samples padded to the length, one
  A100-SXM4-80G, FlashAttention 2). The README prints "G" and does not say how it read memory. Read as nvidia-smi
  MiB / 1000 (``QWEN_G_GIB``; the evidence is next to the constant) and compared as the device figure in GiB.
* ``qwen-readme-full`` — the same table's "Full-parameter" Qwen-1.8B row on one GPU: ``finetune/finetune_ds.sh``
  (bf16, gradient checkpointing, ``--deepspeed finetune/ds_config_zero3.json``: ZeRO-3 with no offload), batch 1
  × 8 (the profile's setting), s/it and memory.
* ``swift-bench-mem`` — modelscope/ms-swift ``docs/source_en/LLM/Benchmark.md`` (commit 4692215): ``swift sft``
  on one A100, torch 2.1.1, flash_attn 2.3.4, defaults ``--max_length 2048 --batch_size 1
  --gradient_checkpointing true --use_flash_attn true --lora_rank 8 --lora_target_modules DEFAULT`` (Qwen:
  ``c_attn``), dataset cls-fudan-news-zh (3234 ± 2548 tokens, max 19548). Memory is ms-swift's
  ``get_max_cuda_memory``: ``torch.cuda.max_memory_reserved`` / 1024**3 (``swift/trainers/callback.py`` /
  ``trainers.py``), so compared as reserved GiB. Samples longer than ``max_length`` are dropped (v1's
  ``truncation_strategy`` default ``delete``); with thousands of samples spread to 19,548 tokens, the longest
  kept sample reaches ``max_length`` (ASSUMED), and a batch of ``b`` is padded to its longest. The kept samples
  vary in length from step to step (``data.mean_sample_len`` below ``max_length`` marks it), so the reserved
  figure holds the loss segments cached from an earlier, shorter batch (core/memory.varlen_cache_bytes_per_logit).
  Speed (samples/s) is not compared: the kept samples' length distribution is not published.
* ``lf-wiki-longctx`` — hiyouga/LLaMA-Factory wiki "Performance comparison" (revision of 2024-04-15), the
  long-context table: one A100 40GB, LLaMA2-7B, batch 1, gradient accumulation 4, LoRA rank 8 on all modules,
  4-bit (bitsandbytes) QLoRA, lengths 1,024 … 100,000; "FlashAttention2" is LLaMA-Factory's own path
  (``framework: llamafactory``), "Unsloth+FA2" its ``use_unsloth: true`` (Unsloth's kernels and
  ``use_gradient_checkpointing="unsloth"``: ``framework: unsloth``). TGS = tokens per GPU per second; VRAM in
  whole GB (read as device GiB, ASSUMED; ±0.5 of rounding). Samples ASSUMED to be the stated length.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
if str(ROOT / "bench") not in sys.path:
    sys.path.insert(0, str(ROOT / "bench"))


@dataclass(frozen=True)
class Row:
    id: str
    table: str
    kind: str  # "memory" (GiB in ``metric``) | "tps" (tokens/s per GPU) | "step" (seconds per optimizer step)
    measured: float
    model: dict
    training: dict
    gpu: str = "a100-sxm-80gb"
    num_gpus: int = 1
    parallel: dict = field(default_factory=dict)
    metric: str = "device"  # allocated | reserved | device
    fused_qkv: bool = False
    assumed: tuple = ()
    data: dict = field(default_factory=dict)


# ----------------------------------------------------------------------------------------------- Qwen README
QWEN_MEM = {  # QwenLM/Qwen README.md @2df8e8a, "Profiling of Memory and Speed", LoRA rows, G
    "1.8B": (6.7, 7.4, 8.4, 11.0, 16.2, 21.8),
    "7B": (20.1, 20.4, 21.5, 23.8, 29.7, 36.6),
    "14B": (34.6, 35.1, 35.3, 37.4, 42.5, 55.2),
}
QWEN_FULL_18B = ((43.5, 2.1), (43.5, 2.2), (43.5, 2.2), (43.5, 2.3), (47.1, 2.8), (48.3, 5.6))  # G, s/it
#: One "G" of this README table in GiB: nvidia-smi MiB / 1000 (issue 35 r10 qwenG10; the README does not say how it
#: read memory, and QwenLM/Qwen has no script for the fine-tuning profile). Evidence, QwenLM/Qwen README.md at 2df8e8a:
#: (1) not GiB: the same table gives Qwen-7B full-parameter on 2 GPUs at 1024 tokens as 162.0G, 81.0 per GPU at least
#: on one of them; an A100-SXM4-80G gives a process 79.15 GiB (PyTorch's "total capacity", 81,050 MiB), so no GiB
#: meter (torch max_memory_* / 2**30, nvidia-smi MiB / 1024) can read 81; README_CN says only 256-1024 tokens were run
#: "受限于显存大小" (limited by GPU memory), so 1024 sat at the card's edge. (2) not 10^9 bytes either, if Qwen used one
#: convention: its "Inference Performance" table (profile.py on qianwen-res, same A100s, summed over 2 GPUs as here)
#: gives Qwen-72B BF16 as 144.69GB on 2xA100, while its bf16 weights alone are 144.58e9 bytes (72.29e9 parameters,
#: the QWEN_72B dimensions below) and the KV cache of 2,048 generated tokens adds 5.37e9 (80 x 2 x 8192 x 2 bytes x
#: 2049): 144.69e9 bytes cannot hold both, 144,690 MiB (151.7e9 bytes) can. MiB / 1000 fits every row of both tables:
#: 81.0 -> 79.10 GiB per GPU, under 79.15. (A reading of 10^9 bytes is ruled out only through the inference table.)
QWEN_G_GIB = 1000 / 1024


def _qwen_rows() -> list[Row]:
    import validate_peft as vp

    out = []
    for size, mems in QWEN_MEM.items():
        for seq, g in zip(vp.LENGTHS, mems):
            sc = vp.scenario(size, "lora", seq)
            out.append(Row(f"qwen-readme-{size}-lora-{seq}", "qwen-readme-mem", "memory", g * QWEN_G_GIB,
                           sc["model"], sc["training"], fused_qkv=True,
                           assumed=("'G' read as nvidia-smi MiB / 1000 (QWEN_G_GIB), compared as device GiB",)))
    for seq, (g, s_it) in zip(vp.LENGTHS, QWEN_FULL_18B):
        sc = vp.scenario("1.8B", "lora", seq)
        t = dict(sc["training"], method="full")
        for k in ("lora_rank", "lora_targets", "lora_dropout"):
            t.pop(k)
        for kind, val in (("memory", g * QWEN_G_GIB), ("step", s_it)):
            out.append(Row(f"qwen-readme-1.8B-full-{seq}-{kind}", "qwen-readme-full", kind, val, sc["model"], t,
                           parallel={"zero": 3}, fused_qkv=True,
                           assumed=("finetune_ds.sh with ds_config_zero3.json on one GPU (the table's '1 node, "
                                    "1 GPU'); batch 1 x 8 as the profile states",
                                    "'G' read as nvidia-smi MiB / 1000 (QWEN_G_GIB), compared as device GiB")))
    return out


#: Qwen-72B (Qwen/Qwen-72B config.json: hidden 8192, 80 layers, 64 heads, ``intermediate_size`` 49152 = two MLP branches
#: of 24576, vocabulary 152064, untied)
QWEN_72B = dict(hidden_size=8192, num_hidden_layers=80, num_attention_heads=64, num_key_value_heads=64,
                intermediate_size=24576, vocab_size=152064)
#: the same README table's multi-GPU ZeRO-3 rows: "Full-parameter" Qwen-7B on 2 GPUs (256-1024 tokens) and
#: "LoRA + Deepspeed Zero3" Qwen-72B on 4 GPUs; "G" is the sum over the GPUs (above 80 per card), in QWEN_G_GIB
QWEN_Z3_MULTI = {
    ("7B", "full", 2): ((139.2, 4.0), (148.0, 4.0), (162.0, 4.5)),
    ("72B", "lora", 4): ((215.4, 17.6), (217.7, 20.5), (222.6, 29.4), (228.8, 45.7), (249.0, 83.4), (289.2, 161.5)),
}


def _qwen_z3_rows() -> list[Row]:
    import validate_peft as vp

    out = []
    for (size, method, gpus), vals in QWEN_Z3_MULTI.items():
        dims = QWEN_72B if size == "72B" else vp.QWEN[size]
        model = {"name": f"Qwen-{size}", **dims, "tie_word_embeddings": False, "attention_bias": True}
        for seq, (g, s_it) in zip(vp.LENGTHS, vals):
            t = {"framework": "hf", "method": method, "seq_len": seq, "micro_batch_size": 1,
                 "global_batch_size": 8 * gpus, "recompute": "full", "flash_attention": True, "optimizer": "adamw",
                 "checkpoint_reentrant": True}  # modeling_qwen.py's checkpoint call: PyTorch 2.0's reentrant default
            if method == "lora":
                t.update(lora_rank=64, lora_targets="all_linear", lora_dropout=0.05)
            for kind, val in (("memory", g / gpus * QWEN_G_GIB), ("step", s_it)):
                out.append(Row(f"qwen-readme-{size}-{method}-z3-{gpus}gpu-{seq}-{kind}", "qwen-readme-z3-multi", kind,
                               val, model, t, num_gpus=gpus, parallel={"zero": 3}, fused_qkv=True,
                               assumed=("'G' is the sum over the GPUs: compared per GPU (G / GPUs), read as nvidia-smi MiB / "
                                        "1000 (QWEN_G_GIB), as device GiB",
                                        "finetune_ds.sh / finetune_lora_ds.sh with ds_config_zero3.json, batch 1 x 8 "
                                        "per GPU as the profile states", "A100-SXM4-80G with NVLink (one node)")))
    return out


# -------------------------------------------------------------------------------------- ms-swift Benchmark
def _qwen_model(size: str) -> dict:
    import validate_peft as vp

    return {"name": f"Qwen-{size}-Chat", **vp.QWEN[size], "tie_word_embeddings": False, "attention_bias": True}


SWIFT_LEN = (512, 1024, 2048, 4096, 8192)
SWIFT_MEM = {  # ms-swift docs/source_en/LLM/Benchmark.md @4692215, "Model Type & Max Length", LoRA, GiB
    "1.8B": (6.99, 10.71, 16.35, 23.80, 37.03),
    "7B": (18.01, 21.73, 27.74, 35.31, 48.41),
    "14B": (30.14, 34.43, 40.14, 47.95, 60.74),
}
#: Yi-6B (01-ai/Yi-6B config.json: LlamaForCausalLM, hidden 4096, 32 layers, 32 heads, 4 KV heads, MLP 11008,
#: vocabulary 64000, untied)
YI_6B = {"name": "Yi-6B-Chat", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
         "num_key_value_heads": 4, "intermediate_size": 11008, "vocab_size": 64000, "tie_word_embeddings": False}
SWIFT_YI6B = (13.72, 15.44, 16.95, 28.25, 43.81)
SWIFT_ASSUMED = ("the longest kept sample reaches max_length (samples above it are dropped; the dataset runs to "
                 "19,548 tokens)", "bf16 (dtype AUTO on an A100), AdamW, PEFT LoRA (tuner_backend peft)",
                 "kept samples vary in length below max_length (3234 +/- 2548 tokens, min 91, before the cut): "
                 "data.mean_sample_len = max_length / 2 marks it; only its being below max_length changes "
                 "memory (core/memory.varlen_cache_bytes_per_logit), and speed is not compared")


#: the Benchmark's environment lists bitsandbytes 0.41.3.post2 (legacy_bnb_4bit: 4-bit linears keep their inputs on
#: the autograd context). Qwen's remote code calls torch.utils.checkpoint.checkpoint without use_reentrant, and ms-swift
#: v1 rebinds that function so an unset use_reentrant means False (SWIFT_V1_CKPT): the inputs are kept across layers
BNB_NOTE = ("quantization_bit 4 (bitsandbytes NF4, 0.41.3.post2: legacy_bnb_4bit; ms-swift v1's non-reentrant "
            "checkpoint keeps each 4-bit linear's input across layers)",
            "bnb_fp16_storage: the figures were published 2024-01-02 (97e4d198b), before ms-swift's 'fix bnb qwen bug' "
            "(f52dfd35c, 2024-01-06): get_model_tokenizer_qwen passed torch_dtype=None, so transformers stored the "
            "unquantised layers fp16 under bf16 training")
#: the 4-bit rows' run: bitsandbytes 0.41.3 and ms-swift before f52dfd35c (BNB_NOTE)
SWIFT_BNB = dict(method="qlora", legacy_bnb_4bit=True, bnb_fp16_storage=True)
#: ms-swift v1.4-v1.5 (the Benchmark ran at 4312aeb, 2024-01-04, between v1.5.0 and v1.5.1) ``swift/llm/utils/model.py``
#: ``fix_gradient_checkpointing_warning``, called by ``get_model_tokenizer`` for every model: it replaces
#: ``torch.utils.checkpoint.checkpoint`` (and ``transformers.modeling_utils.checkpoint``) by a wrapper whose
#: ``use_reentrant`` defaults to False; v1.6-v2.x keep False for torch >= 2.1 (dense models). ms-swift 3.x
#: (``swift/trainers/mixin.py`` ``_fix_gradient_checkpointing``) is the tool default the core models (reentrant on one
#: GPU), so these rows state the old default: training.checkpoint_reentrant = False
SWIFT_V1_CKPT = False


def _swift_data(seq: int = 2048) -> dict:
    """ms-swift v1 pads each batch to its longest sample (``Template.data_collator``: ``pad_sequence``), without
    packing: the batches change length from step to step."""
    return {"mean_sample_len": seq // 2}


def _swift_train(**kw) -> dict:
    t = {"framework": "ms-swift", "method": "lora", "lora_rank": 8, "lora_targets": "attention",
         "seq_len": 2048, "micro_batch_size": 1, "global_batch_size": 16, "recompute": "full",
         "flash_attention": True, "optimizer": "adamw", "checkpoint_reentrant": SWIFT_V1_CKPT}
    t.update(kw)
    t["global_batch_size"] = 16 * t["micro_batch_size"]
    return t


def _swift_rows() -> list[Row]:
    out = []
    c_attn = "DEFAULT target c_attn (Qwen's fused q/k/v): 'attention' also adapts c_proj (r 8: < 0.05 GiB)"
    for size, mems in SWIFT_MEM.items():
        for seq, g in zip(SWIFT_LEN, mems):
            out.append(Row(f"swift-qwen-{size}-lora-{seq}", "swift-bench-mem", "memory", g, _qwen_model(size),
                           _swift_train(seq_len=seq), metric="reserved", fused_qkv=True,
                           assumed=SWIFT_ASSUMED + (c_attn,), data=_swift_data(seq)))
    for seq, g in zip(SWIFT_LEN, SWIFT_YI6B):
        out.append(Row(f"swift-yi-6b-lora-{seq}", "swift-bench-mem", "memory", g, YI_6B, _swift_train(seq_len=seq),
                       metric="reserved", assumed=SWIFT_ASSUMED + (
                           "DEFAULT target for Llama-style models q/k/v: 'attention' also adapts o_proj",),
                       data=_swift_data(seq)))
    q7 = _qwen_model("7B")
    variants = [  # (id, measured GiB, training overrides, note)
        ("bs2", 43.11, dict(micro_batch_size=2), "a batch padded to its longest sample (max_length)"),
        ("bs4", 63.81, dict(micro_batch_size=4), "a batch padded to its longest sample (max_length)"),
        ("bs8", 76.14, dict(micro_batch_size=8), "a batch padded to its longest sample (max_length)"),
        ("noflash", 27.71, dict(flash_attention=False), "use_flash_attn false: Qwen's own eager attention"),
        ("nogc", 37.70, dict(recompute="none"), "gradient_checkpointing false"),
        ("noflash-nogc", 57.67, dict(flash_attention=False, recompute="none"), "both off"),
        ("r64", 27.85, dict(lora_rank=64), c_attn),
        ("all-r8", 27.87, dict(lora_targets="all_linear"), "ALL: every linear layer"),
        ("int4-bnb", 23.85, SWIFT_BNB, BNB_NOTE),
    ]
    for vid, g, kw, note in variants:
        notes = note if isinstance(note, tuple) else (note,)
        out.append(Row(f"swift-qwen-7B-{vid}", "swift-bench-mem", "memory", g, q7, _swift_train(**kw),
                       metric="reserved", fused_qkv=True, assumed=SWIFT_ASSUMED + notes, data=_swift_data()))
    out.append(Row("swift-qwen-14B-int4-bnb", "swift-bench-mem", "memory", 30.05, _qwen_model("14B"),
                   _swift_train(**SWIFT_BNB), metric="reserved", fused_qkv=True,
                   assumed=SWIFT_ASSUMED + BNB_NOTE, data=_swift_data()))
    # the same Quantization table's qwen-72b-chat "int4 (bnb)" 74.87 GiB (one A100: only its bf16 row names
    # 2*A100); entered in round 7 (main's mapping: -31.9%)
    q72 = {"name": "Qwen-72B-Chat", **QWEN_72B, "tie_word_embeddings": False, "attention_bias": True}
    out.append(Row("swift-qwen-72B-int4-bnb", "swift-bench-mem", "memory", 74.87, q72, _swift_train(**SWIFT_BNB),
                   metric="reserved", fused_qkv=True, assumed=SWIFT_ASSUMED + BNB_NOTE + (
                       "one A100-SXM4-80GB (the row names no second GPU)",), data=_swift_data()))
    return out


# ------------------------------------------------------------------------- LLaMA-Factory wiki, long context
LF_LEN = (1024, 2048, 4096, 8192, 16384, 32768, 65536, 100000)
LF_VRAM = {"llamafactory": (6, 7, 9, 12, 19, 32, None, None), "unsloth": (5, 6, 7, 8, 10, 16, 25, 37)}
LF_TGS = {"llamafactory": (2295, 2741, 2926, 3128, 3542, 2216, None, None),
          "unsloth": (2556, 3178, 3413, 3632, 4050, 2456, 1820, 1202)}


def _lf_rows() -> list[Row]:
    out = []
    for fw in ("llamafactory", "unsloth"):
        for i, seq in enumerate(LF_LEN):
            t = {"framework": fw, "method": "qlora", "lora_rank": 8, "lora_targets": "all_linear", "seq_len": seq,
                 "micro_batch_size": 1, "global_batch_size": 4, "flash_attention": True}
            note = ("samples of the stated length", "LLaMA-Factory's default recompute (gradient checkpointing on)",
                    "bf16 compute, AdamW")
            if fw == "unsloth":
                # the wiki's revision (2024-04-15) predates Unsloth's Cut Cross-Entropy (fa8e59e, 2024-11-17):
                # Fast_CrossEntropyLoss on the 16-bit logits (unsloth 6dad5dd, 2024-04-15)
                t["cut_cross_entropy"] = False
                note += ("Unsloth of April 2024: no Cut Cross-Entropy (training.cut_cross_entropy false)",)
            if LF_VRAM[fw][i] is not None:
                out.append(Row(f"lf-wiki-{fw}-qlora-{seq}-mem", "lf-wiki-longctx", "memory", float(LF_VRAM[fw][i]),
                               {"preset": "llama-2-7b"}, t, gpu="a100-sxm-40gb",
                               assumed=note + ("VRAM in whole GB read as device GiB",)))
            if LF_TGS[fw][i] is not None:
                out.append(Row(f"lf-wiki-{fw}-qlora-{seq}-tgs", "lf-wiki-longctx", "tps", float(LF_TGS[fw][i]),
                               {"preset": "llama-2-7b"}, t, gpu="a100-sxm-40gb",
                               assumed=note + ("A100 40GB read as the SXM part",)))
    return out


def _unsloth_hf_rows() -> list[Row]:
    """Unsloth docs "Unsloth Benchmarks" (docs.unsloth.ai/basics/unsloth-benchmarks; unsloth.ai/blog/llama3-3,
    2024-12), context-length table, "Hugging Face + FA2" column: Llama 3.1 8B, QLoRA (bitsandbytes 4-bit) on all
    linear layers, rank 32, batch 1, the longest context that fits an 80 GB card: 28,454 tokens. At that context
    the run fills the card, so the estimate is compared with the card (as tests/test_validation_tools.py does for
    the Unsloth column). The HF side is TRL's SFTTrainer (``framework: trl``; gradient checkpointing on, TRL's
    default), which prepares the 4-bit base with ``prepare_model_for_kbit_training``."""
    t = {"framework": "trl", "method": "qlora", "lora_rank": 32, "lora_targets": "all_linear", "seq_len": 28454,
         "micro_batch_size": 1, "optimizer": "adamw_8bit", "flash_attention": True}
    return [Row("unsloth-docs-hf-fa2-l31-8b-80gb", "unsloth-docs-hf", "memory", 80.0, {"preset": "llama-3.1-8b"}, t,
                assumed=("the card's 80 GB compared with the device total in GiB, as the Unsloth column's test does",
                         "8-bit AdamW, as the Unsloth column's rows"))]


def _liger_rows() -> list[Row]:
    """linkedin/Liger-Kernel README, "Supercharge Your Model with Liger Kernel" (benchmark note): LLaMA 3-8B, batch 8,
    bf16, AdamW, gradient checkpointing, FSDP1 on 8 A100s; "Hugging Face models start to OOM at a 4K context length,
    whereas Hugging Face + Liger Kernel scales up to 16K". The 16K run is the longest that fits: compared with the
    card (80 GB, as the Unsloth rows). The HF side's 4K OOM is checked in tests/test_mechanics_liger.py."""
    t = {"framework": "fsdp", "fsdp_version": 1, "method": "full", "seq_len": 16384, "micro_batch_size": 8,
         "recompute": "full", "flash_attention": True, "liger_kernel": True}
    return [Row("liger-readme-l3-8b-fsdp1-16k", "liger-readme", "memory", 80.0, {"preset": "llama-3-8b"}, t,
                parallel={"zero": 3}, num_gpus=8,
                assumed=("A100 80 GB (the README says A100s)", "the card's 80 GB against the device total in GiB",
                         "FSDP1 FULL_SHARD under Accelerate: fsdp_version 1, zero 3"))]


def all_rows() -> list[Row]:
    return _qwen_rows() + _qwen_z3_rows() + _swift_rows() + _lf_rows() + _unsloth_hf_rows() + _liger_rows()


def predict(row: Row) -> float:
    """The model's figure for one row (GiB in the row's metric, tokens/s per GPU, or seconds per step)."""
    from gpuplanner.core.estimate import memory_breakdown, resolve
    from gpuplanner.core.memory import model_facts
    from gpuplanner.core.params import count_params
    from gpuplanner.core.scenario import scenario_from_dict
    from gpuplanner.core.timing import time_estimate

    d = {"model": row.model, "training": row.training, "parallel": row.parallel,
         "hardware": {"gpu": row.gpu, "num_gpus": row.num_gpus}, "data": row.data}
    r = resolve(scenario_from_dict(d))
    if row.fused_qkv:  # modeling_qwen.py: self.c_attn = nn.Linear(h, 3 * projection_size)
        arch = r.arch.replace(fused_qkv=True)
        r = dataclasses.replace(r, arch=arch, facts=model_facts(arch, count_params(arch)))
    if row.kind == "memory":
        return memory_breakdown(r).metric(row.metric)
    t = time_estimate(r)
    return t.tokens_per_s_per_gpu if row.kind == "tps" else t.step_time_s


def error(row: Row, pred: float) -> float:
    """Signed error: memory (predicted − measured) / measured; time in throughput terms (+ = predicted too fast)."""
    if row.kind == "step":
        return row.measured / pred - 1.0
    return pred / row.measured - 1.0


def _pct(v: list[float], q: float) -> float:
    s = sorted(v)
    pos = (len(s) - 1) * q
    lo = int(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def stats_line(errs: list[float]) -> str:
    """``n rows, median |error| …, p90 …`` of signed errors (the round-10/12 fine-tuning scripts' summary line)."""
    a = [abs(e) for e in errs]
    if not a:
        return "no rows"
    return f"{len(a)} rows, median |error| {statistics.median(a):.1%}, p90 {_pct(a, 0.9):.1%}"


def summary(res: list[tuple[Row, float, float]]) -> dict:
    """(median, p90) |error| per (table, memory|time) group and overall per kind."""
    groups: dict = {}
    for row, _, e in res:
        kind = "memory" if row.kind == "memory" else "time"
        groups.setdefault((row.table, kind), []).append(abs(e))
        groups.setdefault(("all", kind), []).append(abs(e))
    return {f"{t}/{k}": (len(v), statistics.median(v), _pct(v, 0.9)) for (t, k), v in groups.items()}


def before_main(description: str, table, results, argv: list[str] | None = None) -> int:
    """The command line of a bench whose ``table(before)`` prints its rows beside earlier errors and whose
    ``results()`` gives (row, predicted, error) (validate_ft_oos13, validate_ft_oos14): ``--before FILE`` prints the
    errors a ``--write-before FILE`` run wrote."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--before", type=Path, help="JSON of earlier errors (from --write-before) to print beside")
    ap.add_argument("--write-before", type=Path, help="write this run's errors as JSON")
    a = ap.parse_args(argv)
    before = json.loads(a.before.read_text()) if a.before else None
    print("\n".join(table(before)))
    if a.write_before:
        a.write_before.write_text(json.dumps({r.id: e for r, _p, e in results()}, indent=1) + "\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", type=Path, help="a JSON file written by --write-before (prints before → now)")
    ap.add_argument("--write-before", type=Path, help="write this run's predictions as JSON")
    args = ap.parse_args(argv)
    before = json.loads(args.before.read_text()) if args.before else {}
    res = [(r, p, error(r, p)) for r in all_rows() for p in (predict(r),)]
    print("| row | kind | published | before | now | error before | error now |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for r, p, e in res:
        b = before.get(r.id)
        bs, be = ("—", "—") if b is None else (f"{b:.2f}", f"{error(r, b):+.1%}")
        print(f"| {r.id} | {r.kind} ({r.metric if r.kind == 'memory' else 'tokens/s' if r.kind == 'tps' else 's/step'})"
              f" | {r.measured:g} | {bs} | {p:.2f} | {be} | {e:+.1%} |")
    print("\n| table | rows | median before | p90 before | median now | p90 now |")
    print("|---|---:|---:|---:|---:|---:|")
    now = summary(res)
    was = summary([(r, before[r.id], error(r, before[r.id])) for r, _, _ in res if r.id in before]) if before else {}
    for k, (n, med, p90) in sorted(now.items()):
        bm = f"{was[k][1]:.1%} | {was[k][2]:.1%}" if k in was else "— | —"
        print(f"| {k} | {n} | {bm} | {med:.1%} | {p90:.1%} |")
    seen = set()
    for r, _, _ in res:
        for a in r.assumed:
            if (r.table, a) not in seen:
                seen.add((r.table, a))
                print(f"ASSUMED {r.table}: {a}")
    if args.write_before:
        args.write_before.write_text(json.dumps({r.id: p for r, p, _ in res}, indent=0))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
