"""Issue 35 round 15 (memoos15): ms-swift's ``swift sft`` example scripts, peak memory out of sample.

Usage: python bench/validate_mem_oos15.py [--fragment] [--write-before FILE]

Source: modelscope/ms-swift ``examples/train/**.sh`` (Transformers engine, ``swift sft``). Each script's first line
is its memory per GPU ("# 17.2GiB", "# 27.5GiB * 2"), next to its full command line. No earlier round used these
scripts: the post-training rows (bench/validate_post_memory.py, _oos9) are ``examples/train/rlhf`` and
``examples/megatron``; the SFT rows there are Megatron-SWIFT's. Each row is entered from the script AS IT WAS when
its memory comment was written (``git log -S`` on the comment: the commit and the first release holding it are next
to the row), because later edits changed models and flags under an unchanged comment.

What ms-swift logs: ``memory(GiB)`` = ``SwiftMixin.get_max_cuda_memory`` (``swift/trainers/mixin.py`` at b40f31df7,
v3.0.0): ``sum(torch.cuda.max_memory_reserved(d) for d in range(device_count())) / 1024**3`` -- the calling
process's peak RESERVED memory summed over its visible devices (a DDP/DeepSpeed rank reserves on its own device
only). ASSUMED: the comment is that logged figure ("GB" read as the same GiB); compared with the model's
``reserved`` figure.

ms-swift 3.x defaults the scripts leave unset (``swift/llm/argument`` at b40f31df7): ``gradient_checkpointing`` True
(``train_args.py``), ``target_modules`` ['all-linear'] and ``lora_dropout`` 0.05 (``tuner_args.py``), ``attn_impl``
None (Transformers' default: sdpa), ``torch_dtype`` the checkpoint's (bfloat16), optimizer ``adamw_torch`` (HF
TrainingArguments), one sample per batch. The checkpoint's ``use_reentrant``: v3.0.0 passes no
``gradient_checkpointing_kwargs``, so transformers 4.46/4.47 sets ``{"use_reentrant": True}``; v3.0.1 on
(``swift/trainers/arguments.py`` a3731f998) keeps an unset value True. The DDP script sets it False; Accelerate's
FSDP2 ``fsdp_activation_checkpointing`` wraps each layer non-reentrant.

Data (ms-swift ``docs/source_en/Instruction/Supported-models-and-datasets.md`` at 3602360, tokens per sample, mean ±
std, min, max): swift/self-cognition 58.9 ± 20.3, max 131 (108 samples: "#1000" repeats them);
AI-ModelScope/alpaca-gpt4-data-en 167.6 ± 123.9, max 607; alpaca-gpt4-data-zh 157.2 ± 93.2, max 544;
AI-ModelScope/function-calling-chatml 465.3 ± 320.1, max 6,106. A batch of one sample has the sample's length: the
run's peak is at its longest sample (``seq_len`` = the dataset's maximum, ASSUMED reached: the "#500" subsets of the
alpaca sets draw 500 of ~50,000 and may miss the longest), and the lengths vary from step to step
(``data.mean_sample_len``).

Models: Qwen2-7B-Instruct has Qwen2.5-7B's dimensions (config.json: hidden 3584, 28 layers, 28 query / 4 KV heads,
intermediate 18944, vocabulary 152064, untied) and is entered as the ``qwen2.5-7b`` preset.
DeepSeek-R1-0528-Qwen3-8B as ``qwen3-8b``. Qwen2.5-3B from its config.json (below). GPU: ASSUMED A100-SXM4-80GB (no
script names one; ms-swift's own benchmarks ran on A100s), as bench/validate_post_memory.py.

Printed, not scored: rows whose method the tool cannot state (AdaLoRA, GaLore, LISA, LLaMA-Pro, BOFT, Bone,
adapter, Muon) are left out; the DoRA row is scored (``training.dora``).

Error = published / predicted − 1 (+: the run used more than the model says).
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from gpuplanner.core.estimate import estimate  # noqa: E402
from gpuplanner.core.scenario import scenario_from_dict  # noqa: E402

SWIFT = "modelscope/ms-swift"
#: Qwen/Qwen2.5-3B config.json (no preset ships)
QWEN25_3B = {"name": "Qwen2.5-3B", "hidden_size": 2048, "num_hidden_layers": 36, "num_attention_heads": 16,
             "num_key_value_heads": 2, "intermediate_size": 11008, "gated_mlp": True, "vocab_size": 151936,
             "tie_word_embeddings": True, "attention_bias": True}
Q7 = {"preset": "qwen2.5-7b"}
#: (seq_len = longest sample, data) per dataset mix
SC = (131, {"mean_sample_len": 59, "sample_len_std": 20})  # swift/self-cognition
#: alpaca-gpt4-data-zh#500 + alpaca-gpt4-data-en#500 + self-cognition#500: longest 607 (en); mean of the three
#: subsets' means (157.2, 167.6, 58.9) = 128
MIX = (607, {"mean_sample_len": 128})
#: swift/DeepSeek-R1-Qwen3-8B-Distill (no statistics published): R1 traces run past 2,048 tokens and ms-swift 3's
#: ``truncation_strategy`` default 'delete' drops longer samples: ASSUMED the longest kept sample reaches 2,048
R1 = (2048, {"mean_sample_len": 1024})
A100 = "a100-sxm-80gb"
#: the optimizer the scripts ran (issue 35 round 15): ms-swift 3.0-3.7 under transformers' ``default_optim``
#: ``adamw_torch`` (``training_args.py``: ``adamw_torch_fused`` only ``if is_torch_greater_or_equal_than_2_8``; torch
#: 2.8 was released 2025-08-06, after every script here but fsdp2_lora's), i.e. ``torch.optim.AdamW`` with neither
#: ``fused`` nor ``foreach``, which torch runs foreach on CUDA tensors. None (the tool default, fused) on the
#: "before" run: this field fed the time model only until this round. The v3.10 FSDP2 row keeps the default (its
#: torch is not stated; its LoRA states are 0.08 GiB either way).
FOREACH = "foreach"
#: issue 35 round 15 (mgpumem15): the FSDP2 script (ms-swift 376640797, 2025-11-07) ran Accelerate <= 1.12 (the
#: newest release then was v1.11.0, 2025-10-20), whose ``fsdp2_prepare_model`` casts the whole model to fp32 under
#: ``mixed_precision: bf16`` (the script's fsdp2.json); the fix (d1c96ba9, #3848) first shipped in v1.13.0
#: (2026-03-04). None of ms-swift's requirements pins accelerate (``requirements/framework.txt``: "accelerate").
ACCELERATE_FSDP2_UPCAST = True


def _t(**kw) -> dict:
    """``swift sft`` defaults of ms-swift 3.x (module docstring)."""
    t = {"framework": "ms-swift", "method": "lora", "lora_rank": 8, "lora_targets": "all_linear",
         "lora_dropout": 0.05, "micro_batch_size": 1, "global_batch_size": 16, "recompute": "full",
         "flash_attention": True, "optimizer": "adamw", "precision": "bf16", "master_weights": False,
         "optimizer_implementation": FOREACH}
    t.update(kw)
    return t


def _full(**kw) -> dict:
    t = _t(method="full", **kw)
    for k in ("lora_rank", "lora_targets", "lora_dropout"):
        t.pop(k)
    return t


#: (row id, script @ commit where the comment was written (first release), published GiB per GPU, model, data,
#:  training, GPUs, parallel, notes)
ROWS = [
    ("lora-qwen2-7b", "examples/train/tuners/lora/train.sh @b40f31df7 (v3.0.0) '# 17.2GiB'", 17.2, Q7, SC,
     _t(checkpoint_reentrant=True), 1, {}, ("lorap_lr_ratio 16 (LoRA+: learning rates only)",)),
    ("pissa-qwen2-7b", "examples/train/tuners/pissa/train.sh @b40f31df7 (v3.0.0) '# 17GiB'", 17.0, Q7, SC,
     _t(checkpoint_reentrant=True), 1, {}, ("init_lora_weights pissa: an initialisation, the same tensors",)),
    ("olora-qwen2-7b", "examples/train/tuners/olora/train.sh @b40f31df7 (v3.0.0) '# 17GiB'", 17.0, Q7, SC,
     _t(checkpoint_reentrant=True), 1, {}, ("init_lora_weights olora: an initialisation, the same tensors",)),
    ("neftune-qwen2-7b", "examples/train/tuners/neftune/train.sh @b40f31df7 (v3.0.0) '# 17GiB'", 17.0, Q7, SC,
     _t(checkpoint_reentrant=True), 1, {}, ("neftune_noise_alpha 15: noise added to the embedding output",)),
    ("dora-qwen2-7b", "examples/train/tuners/dora/train.sh @b40f31df7 (v3.0.0) '# 17.2GiB'", 17.2, Q7, SC,
     _t(checkpoint_reentrant=True, dora=True), 1, {}, ("use_dora true",)),
    ("full-qwen2-7b", "examples/train/full/train.sh @b40f31df7 (v3.0.0) '# 76GiB'", 76.0, Q7, SC,
     _full(checkpoint_reentrant=True), 1, {}, ()),
    ("lazy-tokenize-qwen2.5-7b", "examples/train/streaming/lazy_tokenize.sh @11a345d41 (v3.7.0) '# 17GiB'", 17.0,
     Q7, SC, _t(), 1, {}, ("lazy_tokenize true: tokenised in the data loader; one GPU: reentrant (tool default)",)),
    ("unsloth-qwen2.5-7b", "examples/train/tuners/unsloth/train.sh @4a280f71e (v3.0.0) '# 17GiB'", 17.0, Q7, SC,
     _t(framework="unsloth"), 1, {}, ("tuner_backend unsloth: Unsloth's LoRA model and checkpointing "
                                      "(framework unsloth)",)),
    ("lora-sft-qwen2.5-7b", "examples/train/lora_sft.sh @8f0fe2d6f (v3.0.2) '# 22GB'", 22.0, Q7, MIX,
     _t(checkpoint_reentrant=True), 1, {}, ("max_length 2048 cuts none",)),
    ("qlora-bnb-qwen2.5-7b", "examples/train/qlora/bnb/train.sh @74e4831d2 (v3.7.0) '# 10GB'", 10.0, Q7, MIX,
     _t(method="qlora"), 1, {}, ("bnb NF4, double quantisation, bf16 compute; bitsandbytes >= 0.43.2 "
                                 "(2025): legacy_bnb_4bit false",)),
    ("packing-qwen2.5-7b", "examples/train/packing/llm.sh @dbe09322a (v3.3.0) '# 22GB'", 22.0, Q7,
     (2048, {"mean_sample_len": 128}), _t(packing=True, attn_implementation="flash_attention_2",
                                          global_batch_size=4), 1, {},
     ("packing true: rows of max_length 2048 (ASSUMED full rows); attn_impl flash_attn; accumulation 4",)),
    ("ddp-qwen2.5-7b", "examples/train/multi-gpu/ddp/train.sh @a3731f998 (v3.0.1) '# 27.5GiB * 2'", 27.5, Q7, SC,
     _t(checkpoint_reentrant=False), 2, {}, ("DDP on 2 GPUs, accumulation 8; use_reentrant false (script)",)),
    ("zero2-qwen2.5-7b", "examples/train/multi-gpu/deepspeed/train_zero2.sh @a3731f998 (v3.0.1) '# 18GiB * 2'", 18.0,
     Q7, SC, _t(checkpoint_reentrant=True), 2, {"zero": 2}, ("DeepSpeed ZeRO-2 (ms-swift's zero2.json)",)),
    ("zero3-qwen2.5-7b", "examples/train/multi-gpu/deepspeed/train_zero3.sh @a3731f998 (v3.0.1) '# 16GiB * 2'", 16.0,
     Q7, SC, _t(checkpoint_reentrant=True), 2, {"zero": 3}, ("DeepSpeed ZeRO-3 (ms-swift's zero3.json)",)),
    ("fsdp2-lora-qwen2.5-7b", "examples/train/multi-gpu/fsdp2_lora/train.sh @376640797 (v3.10.0) '# 14.7GiB * 2'",
     14.7, Q7, SC, _t(framework="fsdp", fsdp_version=2, checkpoint_reentrant=False, optimizer_implementation=None,
                      fsdp2_fp32_upcast=ACCELERATE_FSDP2_UPCAST),
     2, {"zero": 3},
     ("accelerate launch fsdp2.json: FSDP2 (fully_shard per decoder layer, reshard after forward), "
      "fsdp_activation_checkpointing (non-reentrant wrapper; swift's own gradient_checkpointing false), mixed "
      "precision bf16; entered as framework fsdp, fsdp_version 2",
      "Accelerate <= 1.12 (the newest before the script): fsdp2_prepare_model's model.to(torch.float32) makes the "
      "frozen base's shards fp32 (training.fsdp2_fp32_upcast)")),
    ("r1-distill-qwen3-8b", "examples/train/think_model/deepseek_r1.sh @e0d3439c1 (v3.5.0) '# 18GB'", 18.0,
     {"preset": "qwen3-8b"}, R1, _t(liger_kernel=True), 1, {},
     ("use_liger_kernel true", "DeepSeek-R1-Qwen3-8B-Distill#1800 + self-cognition:empty_think#600: longest kept "
      "sample ASSUMED 2,048 (max_length), mean ASSUMED 1,024 (no statistics published)")),
    ("agent-qwen2.5-3b-full", "examples/train/agent/qwen2_5.sh @b91109223 (v3.3.1) '# 35GiB'", 35.0, QWEN25_3B,
     (8192, {"mean_sample_len": 465}), _full(packing=True, liger_kernel=True,
                                             attn_implementation="flash_attention_2", global_batch_size=8), 1, {},
     ("function-calling-chatml packed into rows of max_length 8192 (ASSUMED full rows); liger; flash_attn",)),
]


def scenario(row) -> dict:
    _rid, _src, _gib, model, (seq, data), t, gpus, par, _notes = row
    return {"model": dict(model), "training": dict(t, seq_len=seq), "parallel": dict(par), "data": dict(data),
            "hardware": {"gpu": A100, "num_gpus": gpus}, "assumptions": {"memory_metric": "reserved"}}


def predict(row) -> float:
    return estimate(scenario_from_dict(scenario(row))).memory.metric("reserved")


def group(rid: str) -> str:
    if rid.startswith(("ddp", "zero", "fsdp")):
        return "multi-GPU LoRA"
    if "full" in rid:
        return "full fine-tuning"
    return "one GPU LoRA/QLoRA"


BEFORE = ROOT / "bench" / "data" / "memoos15_before.json"


def before() -> dict:
    if not BEFORE.exists():
        return {}
    return json.loads(BEFORE.read_text(encoding="utf-8"))["rows"]


def _p90(errs: list[float]) -> float:
    e = sorted(abs(x) for x in errs)
    return e[min(len(e) - 1, int(round(0.9 * (len(e) - 1))))]


def summary(res: list[tuple[str, float, float]]) -> dict:
    out = {}
    for name in ("one GPU LoRA/QLoRA", "multi-GPU LoRA", "full fine-tuning", "all"):
        e = [pub / pred - 1 for rid, pub, pred in res if name in ("all", group(rid))]
        if e:
            out[name] = (len(e), statistics.median(abs(x) for x in e), _p90(e), statistics.median(e))
    return out


def lines() -> list[str]:
    res = [(r[0], r[2], predict(r)) for r in ROWS]
    old = before()
    out = ["| row | script (commit, release, comment) | published GiB (reserved) | before: predicted | error | "
           "after: predicted | error |", "|---|---|---:|---:|---:|---:|---:|"]
    for row, (rid, pub, pred) in zip(ROWS, res):
        b = old.get(rid, pred)
        out.append(f"| {rid} | {row[1]} | {pub:.1f} | {b:.2f} | {pub / b - 1:+.1%} | {pred:.2f} | "
                   f"{pub / pred - 1:+.1%} |")
    out.append("")
    s_after = summary(res)
    s_before = summary([(rid, pub, old.get(rid, pred)) for rid, pub, pred in res])
    for name, (n, med, p90, signed) in s_after.items():
        _bn, bmed, bp90, bsigned = s_before[name]
        out.append(f"- {name}: {n} rows, median |error| {bmed:.1%} → {med:.1%}, p90 {bp90:.1%} → {p90:.1%}, "
                   f"signed median {bsigned:+.1%} → {signed:+.1%}")
    return out


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--write-before" in argv:
        path = Path(argv[argv.index("--write-before") + 1])
        rows = {r[0]: round(predict(r), 4) for r in ROWS}
        path.write_text(json.dumps({"commit": "c0b0ae2c", "rows": rows}, indent=1) + "\n", encoding="utf-8")
        return 0
    body = lines()
    if "--notes" in argv:
        for r in ROWS:
            for n in r[8]:
                body.append(f"ASSUMED {r[0]}: {n}")
    if "--fragment" in argv:
        body = ["<!-- issue 35 round 15, memoos15: bench/validate_mem_oos15.py --fragment -->",
                "#### ms-swift example scripts: `swift sft` peak reserved memory (memoos15)", "",
                f"Out of sample. Source: {SWIFT} examples/train/**.sh, each at the commit that wrote its memory "
                "comment. Error = published / predicted − 1.", ""] + body
    print("\n".join(body))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
