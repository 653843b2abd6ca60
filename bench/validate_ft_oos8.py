"""Out-of-sample fine-tuning step times, round 8: published figures no other bench holds (a check, not fitted).

Usage: python bench/validate_ft_oos8.py

Two sources, each entered as the scenario a user would type; what the source does not state is ``ASSUMED`` below.

* ``peft-mmqa`` -- huggingface/peft ``method_comparison/MetaMathQA/results/*.json`` @5d602fdbff (results of PR #3445,
  2026-07-20). One NVIDIA L40S, torch 2.13.0+cu130, transformers 5.13.1, PEFT 0.19.2.dev0, bitsandbytes 0.49.2.
  The loop is ``method_comparison/MetaMathQA/run.py``: plain PyTorch (no Trainer), Llama-3.2-3B in bf16, no autocast
  (``use_amp`` false), default attention (SDPA), no checkpointing (``use_gc`` false), no compile, batch 4, one
  micro-batch per optimizer step, ``torch.optim.AdamW`` (default foreach), ``clip_grad_norm_(1.0)``, a ``loss.item()``
  and two memory queries per step. PEFT's ``get_peft_model`` keeps its default ``autocast_adapter_dtype=True``
  (``utils.py``): the adapters are fp32 while the base is bf16. Batches come from ``BucketIterator`` (buckets of 80
  samples sorted by length, so little padding). The figure is ``tokens / sec`` = (real tokens + 1 EOS per sample) /
  seconds of the timed train steps, over 20 windows of 250 steps; tokens per sample = tokens / (250 x 4) per window.
* ``swift-v1`` -- modelscope/ms-swift ``docs/source_en/LLM/Benchmark.md`` @4692215, the sections
  ``bench/validate_ft_oos.py`` does not hold: "Model Type & Max Length / Full" (one-A100 rows), "Batch Size",
  "Gradient Accumulation Steps" and the Qwen-72B "int4 (bnb)" row of "Quantization". The same settings, data set
  and length assumption as that bench (its docstring): ``swift sft`` on one A100, torch 2.1.1, flash_attn 2.3.4,
  cls-fudan-news-zh lengths ASSUMED log-normal (mean 3234, sd 2548) cut at ``max_length``; samples/s of the HF
  Trainer. A batch of ``b`` pads to its longest sample (the HF collator, ``group_by_length`` off): its length is
  the maximum of ``b`` draws, taken at the mid-quantiles of the maximum's distribution (F^b).

Error: predicted / published - 1 (+ = predicted too fast), as the other ft benches.
"""

from __future__ import annotations

import dataclasses
import math
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "bench"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import validate_ft_oos as oos  # noqa: E402
import validate_ft_tools as vft  # noqa: E402

PEFT_SRC = "huggingface/peft method_comparison/MetaMathQA/results @5d602fdbff (PR #3445), one L40S"
SWIFT_SRC = "modelscope/ms-swift docs/source_en/LLM/Benchmark.md @4692215, one A100"

#: meta-llama/Llama-3.2-3B config.json: hidden 3072, 28 layers, 24 heads, 8 KV heads, MLP 8192, vocabulary 128256,
#: tied embeddings
LLAMA32_3B = {"name": "Llama-3.2-3B", "hidden_size": 3072, "num_hidden_layers": 28, "num_attention_heads": 24,
              "num_key_value_heads": 8, "intermediate_size": 8192, "vocab_size": 128256,
              "tie_word_embeddings": True}


@dataclass(frozen=True)
class PeftRow:
    id: str
    file: str  # results/<file>.json
    tokens_per_s: float  # mean over the 20 windows, weighted by window time
    tokens_per_sample: float
    training: dict = field(default_factory=dict)
    note: str = ""
    shown_only: bool = False  # a mechanism the scenario cannot state: printed, not in the figures
    commit: str = "5d602fdbff"  # the peft commit whose results/ file holds the figure


#: tokens/s and tokens per sample as read from each results JSON (sum over ``train_info.metrics`` windows of
#: ``tokens / sec`` x ``train time``, divided by the summed time; samples: 1000 per window)
PEFT_ROWS = [
    PeftRow("lora-r32-qv", "lora--llama-3.2-3B-rank32", 7174, 209.9,
            dict(method="lora", lora_rank=32, lora_targets="qv"), "q_proj, v_proj"),
    PeftRow("lora-r64-qv", "lora--llama-3.2-3B-rank64", 7062, 209.9,
            dict(method="lora", lora_rank=64, lora_targets="qv"), "q_proj, v_proj"),
    PeftRow("lora-r64-qv-rslora", "lora--llama-3.2-3B-rank64-rslora", 7045, 209.9,
            dict(method="lora", lora_rank=64, lora_targets="qv"), "rsLoRA only changes the scaling constant"),
    PeftRow("lora-r10-mlp", "lora--llama-3.2-3B-rank10-target-mlp", 6309, 209.9,
            dict(method="lora", lora_rank=10, lora_targets="mlp"), "gate/up/down (lora_targets mlp)"),
    PeftRow("full-ft", "full-finetuning--llama-3.2-3B-lr_0.00001", 2316, 209.9,
            dict(method="full", master_weights=False), "bf16 weights and AdamW states (no autocast, no fp32 copy)"),
    PeftRow("dora-r32-qv", "lora--llama-3.2-3B-rank32-dora", 5941, 209.9,
            dict(method="lora", lora_rank=32, lora_targets="qv", dora=True), "DoRA (training.dora), q_proj, v_proj"),
]
#: the same script and card, earlier software: results of PR #2984 (a99942694, 2026-01-13: torch 2.9.0+cu128,
#: transformers 4.57.1, PEFT 0.18.1.dev0) and of #2610 (f650b08ab, 2025-07-22: torch 2.7.1+cu126, transformers 4.52.4,
#: PEFT 0.15.2.dev0)
for _c, _vals in (("a99942694", (6988, 6870, 2292)), ("f650b08ab", (6778, 6659, 2316))):
    for _base, _v in zip(PEFT_ROWS[:2] + PEFT_ROWS[4:5], _vals):
        PEFT_ROWS.append(dataclasses.replace(_base, id=f"{_base.id}@{_c[:7]}", tokens_per_s=_v, commit=_c))
PEFT_ASSUMED = ("every micro-batch padded to the mean sample length (BucketIterator sorts buckets of 80: a few % "
                "padding, not counted)", "plain PyTorch loop priced as framework hf (eager, PEFT)",
                "AdamW foreach (torch default), bf16 base with fp32 adapters (PEFT autocast_adapter_dtype)")


def peft_predict(row: PeftRow) -> float:
    """Predicted tokens/s (real tokens) of one PEFT MetaMathQA run."""
    seq = max(1, round(row.tokens_per_sample))
    t = {"framework": "hf", "seq_len": seq, "micro_batch_size": 4, "global_batch_size": 4, "recompute": "none",
         "flash_attention": True, "optimizer": "adamw", "lora_dropout": 0.0, **row.training}
    r = vft.Row(row.id, "oos8", "tps", 0.0, LLAMA32_3B, t, gpu="l40s-48gb")
    return vft.predict(r) * row.tokens_per_sample / seq


# --------------------------------------------------------------------------------------------- ms-swift v1
#: "Model Type & Max Length / Full", one-A100 rows (the 2*A100 rows ran a device_map split: not entered)
SWIFT_FULL = {"qwen-1.8b": ("1.8B", (10.77, 10.39, 8.73, 5.45, 3.81)),
              "qwen-7b": ("7B", (5.96, 5.00, 3.30, 1.64, None))}
#: "Batch Size", qwen-7b-chat LoRA at max_length 2048 (batch 1 is the 4.31 default row)
SWIFT_BATCH = {2: 3.60, 4: 3.02, 8: 2.77}
#: "Gradient Accumulation Steps", qwen-7b-chat LoRA: samples/s at 1 and at 16 (the default)
SWIFT_GA = {1: 4.26, 16: 4.33}
#: "Quantization": qwen-72b-chat int4 (bnb) on one A100
SWIFT_72B_BNB = 0.28


def kept_max_lengths(max_length: int, b: int, bins: int = oos.BINS) -> list[int]:
    """Mid-quantile lengths of the longest of ``b`` kept samples (ASSUMED log-normal, cut as in validate_ft_oos)."""
    from statistics import NormalDist

    mu, sig = oos._lognormal()
    nd = NormalDist()
    lo = nd.cdf((math.log(oos.MIN_LEN) - mu) / sig)
    hi = nd.cdf((math.log(max_length) - mu) / sig)
    out = []
    for i in range(bins):
        u = ((i + 0.5) / bins) ** (1.0 / b)
        out.append(max(oos.MIN_LEN, min(max_length, round(math.exp(mu + sig * nd.inv_cdf(lo + (hi - lo) * u))))))
    return out


def _swift_sps(model: dict, fused: bool, max_length: int, b: int = 1, accum: int = 16, **kw) -> float:
    """Predicted samples/s: b / mean micro-batch time over the padded lengths."""
    times = []
    for seq in kept_max_lengths(max_length, b):
        t = vft._swift_train(seq_len=seq, micro_batch_size=b, **kw)
        t["global_batch_size"] = accum * b
        r = vft.Row("swift", "oos8", "step", 0.0, model, t, fused_qkv=fused)
        times.append(vft.predict(r) / accum)
    return b / statistics.fmean(times)


@dataclass(frozen=True)
class SwiftRow:
    id: str
    published: float
    predicted: float
    note: str = ""


def swift_rows() -> list[SwiftRow]:
    out = []
    for name, (size, sps) in SWIFT_FULL.items():
        model = vft._qwen_model(size)
        for L, v in zip(oos.LENGTHS, sps):
            if v is not None:
                p = _swift_sps(model, True, L, method="full", master_weights=False)
                out.append(SwiftRow(f"{name}-full-{L}", v, p, "full, bf16 weights and AdamW states"))
    q7 = vft._qwen_model("7B")
    for b, v in SWIFT_BATCH.items():
        out.append(SwiftRow(f"qwen-7b-lora-batch{b}", v, _swift_sps(q7, True, 2048, b), "padded to the longest of b"))
    for ga, v in SWIFT_GA.items():
        out.append(SwiftRow(f"qwen-7b-lora-ga{ga}", v, _swift_sps(q7, True, 2048, accum=ga), "gradient accumulation"))
    q72 = {"name": "Qwen-72B-Chat", **vft.QWEN_72B, "tie_word_embeddings": False, "attention_bias": True}
    out.append(SwiftRow("qwen-72b-int4-bnb", SWIFT_72B_BNB, _swift_sps(q72, True, 2048, **vft.SWIFT_BNB),
                        "bitsandbytes NF4 QLoRA, c_attn r 8"))
    return out


def _pct(v, q):
    return vft._pct(v, q)


def _stats(errs: list[float]) -> str:
    a = [abs(e) for e in errs]
    return f"{len(a)} rows, median |error| {statistics.median(a):.1%}, p90 {_pct(a, 0.9):.1%}" if a else "no rows"


def peft_table() -> tuple[list[str], list[float]]:
    lines = [f"PEFT MetaMathQA ({PEFT_SRC}): tokens/s", "",
             "| run | tokens/sample | published | predicted | error | note |", "|---|---:|---:|---:|---:|---|"]
    errs = []
    for r in PEFT_ROWS:
        p = peft_predict(r)
        e = p / r.tokens_per_s - 1.0
        if not r.shown_only:
            errs.append(e)
        lines.append(f"| {r.id}{' (shown only)' if r.shown_only else ''} | {r.tokens_per_sample:.0f} | "
                     f"{r.tokens_per_s:.0f} | {p:.0f} | {e:+.1%} | {r.note} |")
    lines.append(f"\npeft-mmqa: {_stats(errs)}")
    lines += [f"ASSUMED peft-mmqa: {a}" for a in PEFT_ASSUMED]
    return lines, errs


def ratio_rows(by: dict) -> list[tuple[str, float, float]]:
    """(id, published, predicted) ratios between rows of the same page, same data and max_length: full / LoRA
    (validate_ft_oos's LoRA rows), batch 8 / batch 2, gradient accumulation 1 / 16."""
    lora = {r.id: (r.published, p) for r, p in oos.results().values()}
    out = []
    for name in SWIFT_FULL:
        for L in oos.LENGTHS:
            f, lo = by.get(f"{name}-full-{L}"), lora.get(f"{name}-lora-{L}")
            if f is not None and lo is not None:
                out.append((f"{name} full / LoRA at {L}", f.published / lo[0], f.predicted / lo[1]))
    for rid, num, den in (("qwen-7b LoRA batch 8 / batch 2", "qwen-7b-lora-batch8", "qwen-7b-lora-batch2"),
                          ("qwen-7b LoRA GA 1 / GA 16", "qwen-7b-lora-ga1", "qwen-7b-lora-ga16")):
        out.append((rid, by[num].published / by[den].published, by[num].predicted / by[den].predicted))
    return out


def swift_table() -> tuple[list[str], list[float]]:
    lines = [f"ms-swift v1 Benchmark, sections not used before ({SWIFT_SRC}): samples/s", "",
             "| run | published | predicted | error | note |", "|---|---:|---:|---:|---|"]
    rows = swift_rows()
    errs = []
    for r in rows:
        e = r.predicted / r.published - 1.0
        errs.append(e)
        lines.append(f"| {r.id} | {r.published:.2f} | {r.predicted:.2f} | {e:+.1%} | {r.note} |")
    lines.append(f"\nswift-v1 (absolute, length ASSUMED): {_stats(errs)}")
    by = {r.id: r for r in rows}
    lines += ["", "| ratio (same data) | published | predicted | error |", "|---|---:|---:|---:|"]
    rr = ratio_rows(by)
    for rid, pub, pred in rr:
        lines.append(f"| {rid} | {pub:.3f} | {pred:.3f} | {pred / pub - 1:+.1%} |")
    lines.append(f"\nswift-v1 ratios (the length assumption cancels): {_stats([p / q - 1 for _, q, p in rr])}")
    lines.append(f"ASSUMED swift-v1: log-normal lengths, mean {oos.MEAN}, sd {oos.SD}, cut to [{oos.MIN_LEN}, "
                 "max_length]; full rows: bf16 weights and AdamW states (73 GiB for Qwen-7B on one 80 GB card)")
    return lines, errs


def by_tool_method() -> list[str]:
    """median / p90 |error| per tool and method over the absolute rows (shown-only rows left out)."""
    groups: dict = {}
    for r in PEFT_ROWS:
        if not r.shown_only:
            key = ("PEFT loop on L40S (hf)", r.training.get("method", "lora"))
            groups.setdefault(key, []).append(peft_predict(r) / r.tokens_per_s - 1.0)
    for r in swift_rows():
        method = "qlora" if "bnb" in r.id else "full" if "-full-" in r.id else "lora"
        groups.setdefault(("ms-swift v1 on A100 (length ASSUMED)", method), []).append(r.predicted / r.published - 1.0)
    lines = ["| tool | method | rows | median |error| | p90 |error| | signed median |", "|---|---|---:|---:|---:|---:|"]
    for (tool, method), errs in groups.items():
        a = [abs(e) for e in errs]
        lines.append(f"| {tool} | {method} | {len(a)} | {statistics.median(a):.1%} | {_pct(a, 0.9):.1%} | "
                     f"{statistics.median(errs):+.1%} |")
    return lines


def main() -> int:
    pl, pe = peft_table()
    sl, se = swift_table()
    print("\n".join(pl))
    print()
    print("\n".join(sl))
    print(f"\nall new rows: {_stats(pe + se)}")
    print("\nPer tool and method (absolute rows):\n")
    print("\n".join(by_tool_method()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
