"""Published Hugging Face Trainer + PEFT LoRA / QLoRA step times against the model (a sanity table, not fitted).

Usage: python bench/validate_peft.py [--root DIR]

Rows: the Qwen README "Profiling of Memory and Speed" table (QwenLM/Qwen ``README.md``, commit 2df8e8a; the
runs of ``finetune.py`` with ``finetune/finetune_lora_single_gpu.sh`` and ``finetune_qlora_single_gpu.sh``). The
source states: one A100-SXM4-80G, CUDA 11.8, PyTorch 2.0, FlashAttention 2, batch size 1 and gradient
accumulation 8, inputs of 256 … 8192 tokens, seconds per iteration (one optimizer step of 8 micro-batches).
``finetune.py`` pads every sample to ``model_max_length`` (``preprocess``: ``input_id += [pad] * (max_len -
len(input_id))``), so each micro-batch is exactly the stated length. From the code: the HF ``Trainer`` with
``bf16`` (LoRA) and gradient checkpointing (``--gradient_checkpointing``), ``optim = "adamw_torch"``, PEFT
``LoraConfig(r=64, lora_alpha=16, lora_dropout=0.05, target_modules=["c_attn", "c_proj", "w1", "w2"])`` (every
linear layer of a Qwen block; ``c_attn`` is one fused q/k/v matrix). Q-LoRA loads the GPTQ Int4 checkpoint
(``GPTQConfig(bits=4, disable_exllama=True)``, auto-gptq kernels, not bitsandbytes NF4), runs ``--fp16`` under
DeepSpeed ZeRO-2 on the one GPU and calls ``prepare_model_for_kbit_training``: the scenario's ``qlora`` is the
bitsandbytes path, so these rows are shown apart and are not part of the LoRA figures.

Architectures (the checkpoints' ``config.json``; Qwen's ``intermediate_size`` is twice each MLP branch's width):
Qwen-1.8B h 2048, 24 layers, 16 heads, MLP 5504, vocabulary 151,936; Qwen-7B h 4096, 32 layers, 32 heads, MLP
11,008, vocabulary 151,936; Qwen-14B h 5120, 40 layers, 40 heads, MLP 13,696, vocabulary 152,064. Untied
embeddings, q/k/v bias, multi-head attention (no GQA), RoPE, RMSNorm.

Looked for and not used: Unsloth's benchmark tables (only ratios to "Hugging Face + FA2", no absolute time);
the LLaMA-Factory README speed chart (samples/s on short ADGEN samples padded per batch: tokens unknown); the
LlamaFactory paper's efficiency table (no text of it was available); torchtune's README (compiled torchtune, not
PEFT; in the calibration set).
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _percentile(values: list[float], q: float) -> float:
    v = sorted(values)
    pos = (len(v) - 1) * q
    lo = int(pos)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (pos - lo)


QWEN = {
    "1.8B": dict(hidden_size=2048, num_hidden_layers=24, num_attention_heads=16, num_key_value_heads=16,
                 intermediate_size=5504, vocab_size=151936),
    "7B": dict(hidden_size=4096, num_hidden_layers=32, num_attention_heads=32, num_key_value_heads=32,
               intermediate_size=11008, vocab_size=151936),
    "14B": dict(hidden_size=5120, num_hidden_layers=40, num_attention_heads=40, num_key_value_heads=40,
                intermediate_size=13696, vocab_size=152064),
}
LENGTHS = (256, 512, 1024, 2048, 4096, 8192)
#: published seconds per iteration (8 micro-batches of one sequence), QwenLM/Qwen README at 2df8e8a
PUBLISHED = {
    ("1.8B", "lora"): (1.0, 1.0, 1.1, 1.7, 3.3, 6.8),
    ("7B", "lora"): (1.2, 1.5, 2.8, 5.2, 10.1, 21.3),
    ("14B", "lora"): (1.6, 2.4, 4.4, 8.4, 17.0, 36.0),
    ("1.8B", "qlora"): (1.4, 1.4, 1.4, 2.0, 3.4, 6.5),
    ("7B", "qlora"): (3.0, 3.0, 3.5, 7.0, 11.6, 22.3),
    ("14B", "qlora"): (5.3, 6.3, 8.2, 11.8, 20.1, 38.3),
}
#: the published step times of the rows predicted by the model before issue 35 round 3 (commit e2dee63), s/it
BEFORE = {
    ("1.8B", "lora"): (0.47, 0.47, 0.68, 1.35, 2.78, 6.01),
    ("7B", "lora"): (0.79, 1.38, 2.58, 5.03, 10.18, 21.47),
    ("14B", "lora"): (1.43, 2.49, 4.61, 8.97, 18.06, 37.77),
    ("1.8B", "qlora"): (0.55, 0.55, 0.76, 1.43, 2.86, 6.09),
    ("7B", "qlora"): (1.22, 1.81, 3.01, 5.46, 10.61, 21.9),
    ("14B", "qlora"): (2.27, 3.32, 5.45, 9.81, 18.9, 38.61),
}


def scenario(size: str, method: str, seq: int) -> dict:
    t = {"framework": "hf", "method": method, "lora_rank": 64, "lora_targets": "all_linear", "lora_dropout": 0.05,
         "seq_len": seq, "micro_batch_size": 1, "global_batch_size": 8, "recompute": "full",
         "flash_attention": True, "optimizer": "adamw",
         # modeling_qwen.py calls torch.utils.checkpoint.checkpoint without use_reentrant: PyTorch 2.0's reentrant
         "checkpoint_reentrant": True}
    if method == "qlora":
        t.update(precision="fp16")
    return {"model": {"name": f"Qwen-{size}", **QWEN[size], "tie_word_embeddings": False, "attention_bias": True},
            "training": t, "parallel": {"zero": 2 if method == "qlora" else 0},
            "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 1}}


def predict(size: str, method: str, seq: int):
    """The model's step time (TimeEstimate) for one row; Qwen's fused ``c_attn`` set on the architecture."""
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.memory import model_facts
    from gpuplanner.core.params import count_params
    from gpuplanner.core.scenario import scenario_from_dict
    from gpuplanner.core.timing import time_estimate

    r = resolve(scenario_from_dict(scenario(size, method, seq)))
    arch = r.arch.replace(fused_qkv=True)  # modeling_qwen.py: self.c_attn = nn.Linear(h, 3 * projection_size)
    r = dataclasses.replace(r, arch=arch, facts=model_facts(arch, count_params(arch)))
    return time_estimate(r)


def rows(method: str = "lora") -> list[dict]:
    out = []
    for (size, meth), pub in PUBLISHED.items():
        if meth != method:
            continue
        for i, (seq, p) in enumerate(zip(LENGTHS, pub)):
            t = predict(size, meth, seq)
            # error in tokens/s (the calibration tables' convention): published step / predicted step − 1
            row = {"size": size, "seq": seq, "published": p, "predicted": t.step_time_s,
                   "err": p / t.step_time_s - 1.0, "parts": t.parts}
            b = BEFORE.get((size, meth))
            if b:
                row["before"] = b[i]
                row["err_before"] = p / b[i] - 1.0
            out.append(row)
    return out


def stats(errs: list[float]) -> tuple[float, float]:
    a = [abs(e) for e in errs]
    return statistics.median(a), _percentile(a, 0.9)


def table(method: str = "lora") -> list[str]:
    res = rows(method)
    lines = ["| Qwen | tokens | published s/it | before | now | error before | error now | LoRA passes | launch floor |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in res:
        b = f"{r['before']:.2f}" if "before" in r else "—"
        eb = f"{r['err_before']:+.0%}" if "err_before" in r else "—"
        lines.append(f"| {r['size']} | {r['seq']} | {r['published']} | {b} | {r['predicted']:.2f} | {eb} | "
                     f"{r['err']:+.0%} | {r['parts'].get('lora_adapters', 0.0):.2f} s | "
                     f"{r['parts'].get('launch_overhead', 0.0):.2f} s |")
    m, p = stats([r["err"] for r in res])
    line = f"{method}: {len(res)} rows, tokens/s error now median {m:.1%}, p90 {p:.1%}"
    if all("err_before" in r for r in res):
        mb, pb = stats([r["err_before"] for r in res])
        line += f" (before {mb:.1%} / {pb:.1%})"
        short = [r for r in res if r["seq"] <= 1024]
        ms, ps = stats([r["err"] for r in short])
        msb, psb = stats([r["err_before"] for r in short])
        line += f"; up to 1024 tokens: {ms:.1%} / {ps:.1%} (before {msb:.1%} / {psb:.1%})"
    return lines + ["", line]


#: Unsloth's documentation ("Unsloth Benchmarks", docs.unsloth.ai/basics/unsloth-benchmarks): Llama 3.1 8B, QLoRA on
#: all linear layers, rank 32, Alpaca, batch 2, gradient accumulation 4, an 80 GB GPU: Unsloth "2x" the speed of
#: "Hugging Face + FA2" (the HF Trainer through TRL with PEFT and FlashAttention 2). Alpaca's samples are a few
#: hundred tokens, padded to the batch's longest: 512 and 1024 tokens bracket them (ASSUMED).
UNSLOTH_RATIO = 2.0
UNSLOTH_BEFORE = {("a100-sxm-80gb", 512): 1.11, ("a100-sxm-80gb", 1024): 1.12, ("h100-sxm-80gb", 512): 1.14,
                  ("h100-sxm-80gb", 1024): 1.16}


def unsloth_ratios() -> dict:
    """The model's Unsloth / HF (TRL) QLoRA throughput ratio for the Unsloth benchmark's setting."""
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import scenario_from_dict
    from gpuplanner.core.timing import time_estimate

    out = {}
    for gpu, seq in UNSLOTH_BEFORE:
        tps = {}
        for fw in ("trl", "unsloth"):
            sc = scenario_from_dict({"model": {"preset": "llama-3.1-8b"}, "training": {
                "framework": fw, "method": "qlora", "lora_rank": 32, "lora_targets": "all_linear", "seq_len": seq,
                "micro_batch_size": 2, "global_batch_size": 8, "recompute": "full", "flash_attention": True,
                # 2024-12: TRL left use_reentrant to transformers 4.x, which set True (transformers#28538)
                **({"checkpoint_reentrant": True} if fw == "trl" else {})},
                "hardware": {"gpu": gpu, "num_gpus": 1}})
            tps[fw] = time_estimate(resolve(sc)).tokens_per_s_per_gpu
        out[(gpu, seq)] = tps["unsloth"] / tps["trl"]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, default=ROOT, help="the repository whose gpuplanner is used")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(args.root))
    try:
        print("\n".join(table("lora")))
        print()
        print("Q-LoRA rows (GPTQ int4 + fp16 under DeepSpeed ZeRO-2: not the bitsandbytes path the scenario models)")
        print("\n".join(table("qlora")))
        print(f"\nUnsloth / HF + FA2 (TRL) QLoRA throughput, published {UNSLOTH_RATIO}x:")
        for k, v in unsloth_ratios().items():
            print(f"  {k[0]} {k[1]} tokens: model {v:.2f}x (before {UNSLOTH_BEFORE[k]:.2f}x)")
    except BrokenPipeError:  # piped into head
        pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
