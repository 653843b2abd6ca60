"""Issue 35 round 17 (memoos17): fms-acceleration's PowerLM-3b (Granite) A100 table, peak allocated memory out of sample.

Usage: python bench/validate_mem_oos17.py [--fragment] [--write-before FILE]

Source: foundation-model-stack/fms-acceleration ``scripts/benchmarks/refs/a100_80gb_granite.csv`` at fc78b55
(2024-10-18, "Fix Low CPU Memory Mode Issues for Quantized Peft", #90; the file's last change), with
``refs/requirements_granite.txt`` and ``scenarios-granite.yaml`` at that commit: torch 2.4.1, transformers 4.45.2,
accelerate 0.34.2, peft 0.12.0, bitsandbytes 0.43.3, flash-attn 2.6.3, trl @9b80f3d. No earlier round used this file
(memoos16 entered ``refs/a100_80gb.csv`` only; grep of bench/, docs/, tests/ and the shared calibration runs for
"granite.csv" / "PowerLM"). The harness is memoos16's (``benchmark.py``, ``defaults.yaml``, ``accelerate.yaml``:
Accelerate FSDP1 FULL_SHARD, ``use_orig_params`` by the launcher's default, packed 4,096-token rows, per-device batch =
effective / GPUs, accumulation 1, reentrant checkpointing, HF default ``adamw_torch`` = foreach): see
``bench/validate_mem_oos16.py``. Card: A100-SXM4-80GB.

The model (Power Scheduler paper, arXiv 2408.13359, Table 4, "PowerLM-3B"): hidden 2,304, 40 layers, 36 heads of 64,
36 KV heads, SwiGLU MLP 9,216, sequence 4,096. ``ASSUMED``: vocabulary 49,152 (the Granite tokenizer) and tied
embeddings. Both are checked by the table itself: the end-of-train allocation of the one-GPU full run
(``mem_torch_mem_alloc_in_bytes`` 21,089,537,536 B) is 6.00 B × 3.515 B parameters (bf16 weights + two bf16 moments),
and 40 × (4 × 2304² + 3 × 2304 × 9216) + 49,152 × 2304 + norms = 3.510 B.

Scenarios (``scenarios-granite.yaml`` at fc78b55): every one sets ``bf16: True`` and ``torch_dtype: bfloat16``.
- full: ``mixed_precision`` in the tool is pure bf16 (``master_weights`` False). Accelerate 0.34.2
  ``Accelerator.prepare_model`` would upcast trainable flat parameters to fp32 under mixed precision, but the same
  end-of-train allocation (6.00 B/param, not 12) says the states stayed bf16; this is an entry from the table's own
  state column, ``ASSUMED`` as to why.
- LoRA (r 16, alpha 16, dropout 0.1, q/k/v/o) and ``baseline-peft-bnb`` QLoRA: bf16 autocast, ``master_weights``
  True as memoos16 entered its QLoRA rows; one-GPU QLoRA at ``parallel.zero`` 0 (memoos16: TRL prepares the 4-bit
  model, FSDP1 runs NO_SHARD).
- Left out: ``foak-fast-kernels``, ``accelerated-peft-bnb(-foak)`` (the project's own kernels/loaders).

Figure: ``mem_peak_torch_mem_alloc_in_bytes`` = ``torch.cuda.max_memory_allocated()`` over ``train()`` on rank 0 (peak
allocated), compared with the model's ``allocated``. Error = published / predicted − 1.

Second source, DeepSpeed ZeRO-2 (one row, ``ds-`` prefix): deepspeedai/DeepSpeed ``blogs/muon-optimizer/README.md`` at
de1846cf6 (2026-07-17), "Measured GPU Memory: Qwen2.5-3B Finetuning": AdamW "Peak Memory per GPU" 34.5 GiB on 8 ×
A100 40GB, "batch size 32, ZeRO Stage 2, bf16" (the Muon row is not a scenario the tool states: no Muon optimizer).
The run is delock/deepspeed_finetune_demo (the blog's [7]): ``finetune.sh`` → ``finetune_llama.py`` (@18f3df1d):
``ds_config["train_batch_size"] = args.batch_size`` (32 global → 4 per GPU on 8, accumulation 1), bf16 weights
loaded with ``flash_attention_2``, ``gradient_checkpointing_enable()`` (transformers >= 4.57.3: reentrant by
default), every sample padded to ``--max_length`` 2,048 (``padding="max_length"``), DeepSpeed's AdamW. Qwen2.5-3B:
hidden 2,048, 36 layers, 16 heads / 2 KV heads of 128, MLP 11,008, vocabulary 151,936, tied, q/k/v bias (the model's
config.json). ``ASSUMED``: the figure is peak allocated (the blog does not say; the reserved figure is printed too)
and the AdamW config is z2_muon.json with AdamW (the demo's ``z2_config.json`` is not in the stored repository).

Third source, prime-rl's SFT trainer (``prime-`` prefix; post-training tool, full fine-tuning step):
PrimeIntellect-ai/prime-rl ``benchmarks/baselines/benchmark-*-sft-full-*.json`` at 8718eb143 (2026-01-19, runs of
2026-01-15, image primeintellect/prime-rl-jackmin@sha256:5a146f7d…). postoos16 entered the RL files of the same
commit; no round used the SFT files (grep "sft-full", "sft/train.py"). Read at 8718eb143:
- ``benchmarks/scripts/run_single_benchmark.py``: ``torchrun --nproc-per-node=N src/prime_rl/trainer/sft/train.py
  --model.seq-len S --model.attn A --model.compile --model.ac --data.type fake --data.batch-size (2 × N)
  --data.seq-len S``; ``sft/config.py``: ``micro_batch_size`` 1 (two micro-batches a rank, accumulation 2), fake
  data of exactly S tokens (``length`` "fixed"), ``loss_impl`` "torch" (``CrossEntropyLoss(reduction="none")``).
- ``sft/train.py``: ``out = forward(model, ...)`` returns the logits as fp32 (``cast_float_and_contiguous``), the
  eager cross-entropy over all S × V of them (no chunking: the RL trainer's ``fused_lm_head_chunk_size`` is not
  used; ``--model.compile`` compiles the model's blocks, not this loss), ``del logits`` and ``backward()`` while
  ``out`` still holds them: ``training.logits_held`` (``memory.held_logits_bytes_per_logit``).
- FSDP2 over an fp32 model with bf16 compute (postoos16's reading of ``trainer/model.py``), AdamW foreach, full
  activation checkpointing. The figure is ``torch.cuda.max_memory_reserved()`` (reset each step; mean of steps
  2–4): scored as reserved, as postoos16 did. Mapping: postoos16's ``prime_scenario`` with ``chunked_loss`` False,
  ``compile_loss`` False. Left out: the 8×B200 Qwen3-30B-A3B run ("Non-zero exit code: 1", no reason logged);
  the 1×H100 0.6B 65,536-token run did not finish (CUDA out of memory, "Tried to allocate 37.09 GiB", the fp32
  logits: 65,536 × 151,936 × 4 B): an OOM check.
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for _p in (ROOT, ROOT / "bench"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

from bench import validate_mem_oos16 as m16  # noqa: E402
from gpuplanner.core.estimate import estimate  # noqa: E402
from gpuplanner.core.scenario import scenario_from_dict  # noqa: E402

SRC = "foundation-model-stack/fms-acceleration scripts/benchmarks/refs/a100_80gb_granite.csv @fc78b55"
#: Power Scheduler paper (arXiv 2408.13359) Table 4; vocabulary and tying ASSUMED (module docstring)
POWERLM_3B = {"name": "PowerLM-3b", "hidden_size": 2304, "num_hidden_layers": 40, "num_attention_heads": 36,
              "num_key_value_heads": 36, "head_dim": 64, "intermediate_size": 9216, "gated_mlp": True,
              "vocab_size": 49152, "tie_word_embeddings": True, "norm_type": "rmsnorm",
              "position_embedding": "rope", "max_position_embeddings": 4096, "hidden_act": "silu"}
#: ``bf16: True`` in every scenario: the adapters' runs under autocast (memoos16's QLoRA entry); full: pure bf16
AMP = {"full": False, "lora": True, "qlora": True}

#: (row id, peak allocated bytes, method, GPUs, per-device batch, nvidia-smi MiB (printed only)); framework_config
#: ``none`` for full and LoRA, ``baseline-peft-bnb`` for QLoRA; a100_80gb_granite.csv @fc78b55 as printed
ROWS = [
    ("full-powerlm-1x4", 35134836736, "full", 1, 4, 47683),
    ("full-powerlm-2x2", 17626672128, "full", 2, 2, 25563),
    ("full-powerlm-1x8", 47059390976, "full", 1, 8, 52927),
    ("full-powerlm-2x4", 23781051904, "full", 2, 4, 28962),
    ("lora-powerlm-1x4", 20169870848, "lora", 1, 4, 24591),
    ("lora-powerlm-2x2", 10321519104, "lora", 2, 2, 13919),
    ("lora-powerlm-1x8", 33152880128, "lora", 1, 8, 41237),
    ("lora-powerlm-2x4", 16819665408, "lora", 2, 4, 22182),
    ("qlora-powerlm-1x4", 18174161920, "qlora", 1, 4, 23127),
    ("qlora-powerlm-2x2", 7826759168, "qlora", 2, 2, 11366),
    ("qlora-powerlm-1x8", 34177070080, "qlora", 1, 8, 43327),
    ("qlora-powerlm-2x4", 14319836672, "qlora", 2, 4, 19662),
]


QWEN25_3B = {"name": "Qwen2.5-3B", "hidden_size": 2048, "num_hidden_layers": 36, "num_attention_heads": 16,
             "num_key_value_heads": 2, "head_dim": 128, "intermediate_size": 11008, "gated_mlp": True,
             "vocab_size": 151936, "tie_word_embeddings": True, "attention_bias": True, "norm_type": "rmsnorm",
             "position_embedding": "rope", "hidden_act": "silu"}
DS_SRC = "deepspeedai/DeepSpeed blogs/muon-optimizer/README.md @de1846cf6 (run: delock/deepspeed_finetune_demo)"
#: (row id, published GiB, per-GPU batch, GPUs)
DS_ROWS = [("ds-z2-qwen25-3b-adamw", 34.5, 4, 8)]


def ds_scenario(row) -> dict:
    _rid, _pub, mbs, gpus = row
    t = {"framework": "deepspeed", "method": "full", "micro_batch_size": mbs, "global_batch_size": mbs * gpus,
         "seq_len": 2048, "packing": False, "recompute": "full", "checkpoint_reentrant": True,
         "flash_attention": True, "attn_implementation": "flash_attention_2", "optimizer": "adamw",
         "precision": "bf16", "master_weights": True}
    return {"model": dict(QWEN25_3B), "training": t, "parallel": {"zero": 2}, "data": {"mean_sample_len": 2048},
            "hardware": {"gpu": "a100-sxm-40gb", "num_gpus": gpus}}


def ds_predict(row, metric: str = "allocated") -> float:
    return estimate(scenario_from_dict(ds_scenario(row))).memory.metric(metric)


PRIME_SRC = "PrimeIntellect-ai/prime-rl benchmarks/baselines/benchmark-*-sft-full-*.json @8718eb143"
#: (model, GPUs, seq_len, card, peak reserved GiB or None for the out-of-memory run); the JSONs as printed
PRIME_ROWS = [
    ("Qwen3-0.6B", 1, 8192, "h100-sxm-80gb", 31.7421875),
    ("Qwen3-0.6B", 1, 16384, "h100-sxm-80gb", 52.83984375),
    ("Qwen3-0.6B", 1, 8192, "rtx-a6000-48gb", 31.21484375),
    ("Qwen3-4B-Instruct-2507", 8, 16384, "h100-sxm-80gb", 54.6328125),
    ("Qwen3-4B-Instruct-2507", 8, 16384, "h200-sxm-141gb", 54.6328125),
    ("Qwen3-4B-Instruct-2507", 8, 16384, "b200-180gb", 54.59375),
    ("Qwen3-4B-Instruct-2507", 8, 65536, "b200-180gb", 171.52994791666666),
    ("Qwen3-30B-A3B-Instruct-2507", 8, 16384, "h200-sxm-141gb", 106.423828125),
    ("Qwen3-0.6B", 1, 65536, "h100-sxm-80gb", None),
]
#: prime-rl's SFT loop at 8718eb143 keeps the fp32 logits through the backward (module docstring)
PRIME_LOGITS_HELD = True


def prime_id(row) -> str:
    model, gpus, seq, gpu, _pub = row
    return f"prime-sft-{model.split('-Instruct')[0].lower()}-{gpus}x{gpu.split('-')[0]}-{seq // 1024}k"


def prime_scenario(row, held: bool = PRIME_LOGITS_HELD) -> dict:
    from validate_post_oos16 import prime_scenario as post16
    model, gpus, seq, gpu, _pub = row
    sc = post16(model, gpus, None, seq, "Recompute", gpu)
    sc["training"].update(chunked_loss=False, compile_loss=False)
    if held:
        sc["training"]["logits_held"] = True
    if gpu.startswith("b200"):
        sc["training"]["attention_kernel"] = "flash2"  # --model.attn flash_attention_2 on the B200 runs
    return sc


def prime_predict(row, held: bool = PRIME_LOGITS_HELD) -> float:
    return estimate(scenario_from_dict(prime_scenario(row, held))).memory.metric("reserved")


def scenario(row) -> dict:
    _rid, _b, method, gpus, mbs, _nv = row
    t = m16._t(method, mbs, gpus)
    t["master_weights"] = AMP[method]
    zero = m16.BNB_ONE_GPU_ZERO if (method == "qlora" and gpus == 1) else 3
    return {"model": dict(POWERLM_3B), "training": t, "parallel": {"zero": zero},
            "data": {"mean_sample_len": m16.SEQ}, "hardware": {"gpu": m16.A100, "num_gpus": gpus},
            "assumptions": {"memory_metric": "allocated"}}


def predict(row) -> float:
    return estimate(scenario_from_dict(scenario(row))).memory.metric("allocated")


BEFORE = ROOT / "bench" / "data" / "memoos17_before.json"


def before() -> dict:
    return json.loads(BEFORE.read_text(encoding="utf-8"))["rows"] if BEFORE.exists() else {}


def summary(res: list[tuple[str, float, float]]) -> dict:
    out = {}
    for name in ("full", "lora", "qlora", "ds", "prime", "all"):
        e = [pub / pred - 1 for rid, pub, pred in res if name in ("all", rid.split("-")[0])]
        if e:
            out[name] = (len(e), statistics.median(abs(x) for x in e), m16._p90(e), statistics.median(e))
    return out


def results() -> list[tuple[str, float, float]]:
    """Scored rows (id, published GiB, predicted allocated GiB): the fms table, then the DeepSpeed row."""
    return ([(row[0], row[1] / 2**30, predict(row)) for row in ROWS] + [(r[0], r[1], ds_predict(r)) for r in DS_ROWS]
            + [(prime_id(r), r[4], prime_predict(r)) for r in PRIME_ROWS if r[4] is not None])


def table(scored) -> list[str]:
    b = before()
    lines = ["| row | published GiB (fms, ds: peak allocated; prime: peak reserved) | before | error | now | error |",
             "|---|---:|---:|---:|---:|---:|"]
    for rid, pub, pred in scored:
        pb = b.get(rid)
        old = f"{pb:.2f} | {pub / pb - 1:+.1%}" if pb else "– | –"
        lines.append(f"| {rid} | {pub:.2f} | {old} | {pred:.2f} | {pub / pred - 1:+.1%} |")
    lines += ["", "| group | rows | median \\|error\\| | p90 | signed median |", "|---|---:|---:|---:|---:|"]
    for name, (n, med, p90, sm) in summary(scored).items():
        lines.append(f"| {name} | {n} | {med:.1%} | {p90:.1%} | {sm:+.1%} |")
    if b:
        sb = summary([(rid, pub, b[rid]) for rid, pub, _ in scored if rid in b])
        lines += ["", "Before: " + "; ".join(f"{k} {v[1]:.1%} / {v[2]:.1%}" for k, v in sb.items())]
    lines += ["", f"DeepSpeed row ({DS_SRC}): the model's reserved figure "
              + ", ".join(f"{r[0]} {ds_predict(r, 'reserved'):.2f} GiB ({r[1] / ds_predict(r, 'reserved') - 1:+.1%})"
                          for r in DS_ROWS)]
    lines += ["", f"prime-rl ({PRIME_SRC}), out of memory: "
              + ", ".join(f"{prime_id(r)} predicted {prime_predict(r):.1f} GiB reserved on an 80 GB card"
                          for r in PRIME_ROWS if r[4] is None)]
    return lines


def main(argv: list[str]) -> int:
    scored = results()
    if "--write-before" in argv:
        path = Path(argv[argv.index("--write-before") + 1])
        path.write_text(json.dumps({"source": SRC, "rows": {rid: round(pred, 4) for rid, _p, pred in scored}},
                                   indent=1) + "\n", encoding="utf-8")
        return 0
    if "--fragment" in argv:
        print("<!-- issue 35 round 17, memoos17: bench/validate_mem_oos17.py --fragment -->")
        print("#### Peak memory out of sample: fms-acceleration PowerLM-3b, DeepSpeed ZeRO-2, prime-rl SFT (memoos17)\n")
        print(f"Sources: {SRC} (Accelerate FSDP1, packed 4,096-token rows, torch 2.4.1); {DS_SRC}; {PRIME_SRC} "
              "(FSDP2, fake fixed-length rows; `training.logits_held`). Before: main eda76f01. "
              "Error = published / predicted − 1.\n")
    print("\n".join(table(scored)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
