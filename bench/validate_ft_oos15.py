"""Out-of-sample fine-tuning step time, round 15: LitGPT's published LoRA / QLoRA times (not fitted).

Usage: python bench/validate_ft_oos15.py [--fragment] [--write-before FILE]

Before entering the source I grepped ``bench/``, ``tests/``, ``docs/`` and ``shared/reference`` for it: round 14
(memoos14, ``bench/validate_mem_oos14.py``) entered the SAME tables' "Max GPU RAM" column as memory rows; the
"Time 1k iterations" column was used by no bench (grep "Time 1k", "1.62 min", "10.25"). These are step-time rows.

Source: Lightning-AI/litgpt ``tutorials/resource-tables.md`` (added in 0cc02afa, PR #663, 2023-10-27; the figures
unchanged at HEAD 26857050; the verbatim excerpt is ``tests/data/litgpt/resource-tables-0cc02afa-lora.md``), "Finetuning
with LoRA on 1 GPU" and "... on Multiple GPUs": LitGPT commit 8641822, NVIDIA A100-SXM4-40GB, PyTorch 2.1.0+cu121,
Lightning 2.1.0.rc0, bitsandbytes 0.41.1, ``--precision bf16-true``, Alpaca at its default length (longest training
sample 1,044 / 1,034 / 1,304 tokens for phi-1.5 / StableLM Alpha / Llama 2), a minibatch of 128 per device.

The script, ``finetune/lora.py`` at 8641822 (read in the litgpt snapshot):

* "Time 1k iterations" = the printed ``Training time`` of a run stopped at 1,000 iterations (the table's "50k
  (extrapolated)" column is 50 x it): ``train_time`` brackets ``train()``, which runs ONE sanity-check ``validate``
  first (``eval_iters = 100`` forward passes of a micro-batch of validation samples with full logits, then a
  100-token ``generate`` at batch 1 with a KV cache), then the 1,000 iterations. No evaluation or save falls inside:
  ``eval_interval = save_interval = 100`` optimizer steps, and 1,000 iterations are at most 31 steps (b = 4).
* One iteration = one micro-batch per device: ``get_batch`` draws ``micro_batch_size`` random samples and pads them to
  the batch's longest (the first iteration takes the longest sample); the model runs with ``lm_head_chunk_size=128``
  and ``chunked_cross_entropy``; ``loss.item()`` is printed every iteration (``log_interval = 1``: a host sync per
  micro-batch); ``optimizer.step()`` every ``128 / micro_batch_size`` iterations (the accumulation runs under
  ``fabric.no_backward_sync``). So published seconds per optimizer step = minutes x 60 / 1000 x (128 / b).
* LoRA r 8, alpha 16, dropout 0.05 on the query and value parts of the fused ``attn`` linear; AdamW (bitsandbytes
  ``PagedAdamW`` with ``--quantize``); one GPU: no checkpointing; several GPUs: Fabric ``FSDPStrategy`` (FSDP1
  FULL_SHARD per ``Block``, every block checkpointed, ``use_orig_params=True`` set by Fabric 2.1).

Entered as bench/validate_mem_oos14.py enters the same runs (its ``scenario``: ``framework: hf`` on one GPU,
``framework: fsdp`` + ``fsdp_version: 1`` + ``fsdp_no_sync`` + ``fsdp_lora_mixed_units`` on several), with what time
needs on top: ``data.mean_sample_len`` / ``data.sample_len_std`` and ``lora_layer: litgpt`` (LitGPT's ``LoRAQKVLinear``
at 8641822, before v0.3.1's PR #1374; a value new this round, so the before file has the rows at ``peft``). ASSUMED (the page gives the longest sample only):
ms-swift's published statistic of the same data (yahma/alpaca-cleaned, 170.1 +- 122.9 tokens, max 1,028: modelscope/
ms-swift 3602360 ``docs/source_en/Instruction/Supported-models-and-datasets.md``, the figure
``bench/validate_memory_oos8.py`` already uses) scaled by the page's longest sample over ms-swift's 1,028 (each
model's tokenizer and LitGPT's Alpaca template against ms-swift's): x 1.016 / 1.006 / 1.268. ``seq_len`` = the longest
sample (the cut; no sample is truncated). ``gpus_per_node: 8`` (an A100-SXM4-40GB server: NVLink between the GPUs).
The ``bnb.nf4`` rows (no double quantisation) are printed, not scored (the tool's QLoRA is double-quantised NF4), as in
memoos14.

Not in the model and inside the published figure: the sanity-check ``validate`` (100 forward passes + a 100-token
generation; a few seconds of 75 to 615) and LitGPT's own module code beyond ``zero_pad``'s index list (its ``GPT`` is
priced as the Transformers architecture of the same shape and its fused-q/k/v LoRA with PEFT's element counts, as
memoos14 did).

Error = published / predicted - 1 on time (+ = predicted too fast).
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for _p in (str(ROOT), str(ROOT / "bench")):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import validate_mem_oos14 as mem14  # noqa: E402

SRC = ("Lightning-AI/litgpt tutorials/resource-tables.md (0cc02afa, PR #663, 2023-10-27; LitGPT 8641822, "
       "A100-SXM4-40GB, PyTorch 2.1.0, bitsandbytes 0.41.1, bf16-true), column 'Time 1k iterations'; "
       "finetune/lora.py at 8641822")
#: ms-swift's statistic of yahma/alpaca-cleaned (tokens: mean, std, max), ms-swift 3602360
#: docs/source_en/Instruction/Supported-models-and-datasets.md
ALPACA_MEAN, ALPACA_STD, ALPACA_MAX = 170.1, 122.9, 1028
#: (model, quantize, micro-batch, GPUs, published 'Time 1k iterations' in minutes); resource-tables.md as printed
ROWS = (
    ("phi-1.5", None, 1, 1, 1.62), ("phi-1.5", "nf4", 1, 1, 1.77), ("phi-1.5", "nf4-dq", 1, 1, 1.87),
    ("phi-1.5", None, 2, 1, 1.65), ("phi-1.5", None, 4, 1, 1.70),
    ("stablelm-3b", None, 1, 1, 1.24), ("stablelm-3b", "nf4", 1, 1, 1.82), ("stablelm-3b", "nf4-dq", 1, 1, 1.87),
    ("stablelm-3b", None, 2, 1, 1.33), ("stablelm-3b", None, 4, 1, 1.50),
    ("llama-2-7b", None, 1, 1, 2.36), ("llama-2-7b", "nf4", 1, 1, 3.68), ("llama-2-7b", "nf4-dq", 1, 1, 3.83),
    ("llama-2-7b", None, 2, 1, 2.52),
    ("llama-2-13b", None, 1, 1, 3.19), ("llama-2-13b", "nf4", 1, 1, 6.38), ("llama-2-13b", "nf4-dq", 1, 1, 6.55),
    ("phi-1.5", None, 1, 2, 3.81), ("phi-1.5", None, 2, 2, 3.63), ("phi-1.5", None, 4, 2, 3.64),
    ("stablelm-3b", None, 1, 2, 2.92), ("stablelm-3b", None, 2, 2, 3.06), ("stablelm-3b", None, 4, 2, 3.86),
    ("llama-2-7b", None, 1, 2, 5.93), ("llama-2-7b", None, 2, 2, 6.48), ("llama-2-7b", None, 4, 2, 8.66),
    ("llama-2-13b", None, 1, 4, 10.25),
)
ITERS = 1000
BATCH_PER_DEVICE = 128  # lora.py batch_size: the accumulation is 128 // micro_batch_size per device
BEFORE = ROOT / "bench" / "data" / "ftoos15_before.json"


def scale(model: str) -> float:
    """The page's longest sample for this model's tokenizer over ms-swift's longest alpaca-cleaned sample."""
    return mem14.MODELS[model][1] / ALPACA_MAX


def scenario(model: str, quant: str | None, b: int, gpus: int, training: dict | None = None) -> dict:
    d = mem14.scenario(model, quant, b, gpus)
    k = scale(model)
    d["data"] = {"mean_sample_len": round(ALPACA_MEAN * k), "sample_len_std": ALPACA_STD * k}
    d["hardware"]["gpus_per_node"] = 8
    d["training"]["lora_layer"] = "litgpt"  # lit_gpt/lora.py at 8641822: LoRAQKVLinear (LitGPT before v0.3.1)
    d["training"].update(training or {})
    return d


def row_id(model: str, quant: str | None, b: int, gpus: int) -> str:
    return mem14.row_id(model, quant, b, gpus)


def published_step_s(minutes: float, b: int) -> float:
    """Seconds per optimizer step: 1,000 iterations (micro-batches per device) in ``minutes``, 128 / b a step."""
    return minutes * 60.0 / ITERS * (BATCH_PER_DEVICE / b)


def predict(model: str, quant: str | None, b: int, gpus: int, training: dict | None = None):
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import scenario_from_dict
    from gpuplanner.core.timing import time_estimate

    return time_estimate(resolve(scenario_from_dict(scenario(model, quant, b, gpus, training))))


def results() -> list[tuple[str, float, float, bool, dict]]:
    """(row id, published s/step, predicted s/step, scored, predicted parts in s per 1k iterations)."""
    out = []
    for model, quant, b, gpus, minutes in ROWS:
        te = predict(model, quant, b, gpus)
        per_k = ITERS / (BATCH_PER_DEVICE / b)
        parts = {k: v * per_k for k, v in {**te.seconds, **te.parts}.items() if v > 1e-6}
        out.append((row_id(model, quant, b, gpus), published_step_s(minutes, b), te.step_time_s, quant != "nf4",
                    parts))
    return out


def _p90(errs: list[float]) -> float:
    e = sorted(abs(x) for x in errs)
    return e[min(len(e) - 1, int(round(0.9 * (len(e) - 1))))]


GROUPS = (("all scored", lambda r: True), ("one GPU, LoRA", lambda r: r.endswith("× 1 GPU") and "QLoRA" not in r),
          ("one GPU, QLoRA nf4-dq", lambda r: "QLoRA" in r), ("FSDP (2 or 4 GPUs)", lambda r: not r.endswith("× 1 GPU")))


def summary(errors: dict[str, float]) -> dict[str, tuple[int, float, float, float]]:
    """{group: (rows, median |error|, p90, signed median)} over the scored rows' errors."""
    out = {}
    for name, keep in GROUPS:
        e = [v for k, v in errors.items() if keep(k)]
        if e:
            out[name] = (len(e), statistics.median(abs(x) for x in e), _p90(e), statistics.median(e))
    return out


def errors() -> dict[str, float]:
    return {rid: pub / pred - 1 for rid, pub, pred, scored, _p in results() if scored}


def lines() -> list[str]:
    before = json.loads(BEFORE.read_text(encoding="utf-8")) if BEFORE.exists() else {}
    out = ["| row | published min / 1k it | published s/step | predicted s/step | error | before | predicted parts "
           "(s / 1k it) |", "|---|---:|---:|---:|---:|---:|---|"]
    for (rid, pub, pred, scored, parts), row in zip(results(), ROWS):
        tag = "" if scored else " (printed)"
        b = f"{before[rid]:+.1%}" if rid in before else ""
        shown = ", ".join(f"{k} {v:.0f}" for k, v in parts.items() if v >= 1.0)
        out.append(f"| {rid} | {row[4]:.2f} | {pub:.2f} | {pred:.2f} | {pub / pred - 1:+.1%}{tag} | {b} | {shown} |")
    out.append("")
    now = summary(errors())
    was = summary(before) if before else {}
    for name, (n, med, p90, signed) in now.items():
        prev = was.get(name)
        head = (f"before median {prev[1]:.1%}, p90 {prev[2]:.1%}, signed {prev[3]:+.1%}; " if prev else "")
        out.append(f"- {name}: {n} rows; {head}now median |error| {med:.1%}, p90 {p90:.1%}, signed median "
                   f"{signed:+.1%}")
    out += ["", "Per-layer host time the published b = 1 rows imply (minutes x 60 / 1,000 / layers, one GPU): "
            + ", ".join(f"{m} {t * 60 / ITERS / n * 1e3:.1f} ms" for m, t, n in
                        (("phi-1.5", 1.62, 24), ("StableLM 3B", 1.24, 16), ("Llama-2-7B", 2.36, 32),
                         ("Llama-2-13B", 3.19, 40)))]
    return out


LAYERS = {"phi-1.5": 24, "stablelm-3b": 16, "llama-2-7b": 32, "llama-2-13b": 40}


def sanity_check_s(model: str) -> float:
    """Estimate (not scored) of the sanity-check ``validate`` inside the published time, from the model's own eager
    host constants (host-bound at these sizes): 100 forward passes of a LoRA layer stack (``timing.EAGER_OPS_FWD_LAYER``
    plus two adapters' ``EAGER_OPS_LORA_FWD`` + dropout) and a 100-token eager decode
    (``methods.EAGER_DECODE_OPS_PER_LAYER``), every kernel at ``methods.EAGER_FWD_OP_S``."""
    from gpuplanner.core import methods, timing

    fwd_ops = timing.EAGER_OPS_FWD_LAYER + 2 * (timing.EAGER_OPS_LORA_FWD + 1)
    return 100 * LAYERS[model] * (fwd_ops + methods.EAGER_DECODE_OPS_PER_LAYER) * methods.EAGER_FWD_OP_S


def sensitivity() -> list[str]:
    """Per scored row: the error with ms-swift's statistic unscaled (170 +- 123 tokens for every tokenizer) and with the
    sanity check's estimate taken out of the published time (printed, not scored)."""
    out = ["| row | error (entered) | lengths unscaled | published less the sanity check (estimate) |",
           "|---|---:|---:|---:|"]
    for (rid, pub, pred, scored, _parts), (model, quant, b, gpus, minutes) in zip(results(), ROWS):
        if not scored:
            continue
        k = scale(model)
        raw = predict(model, quant, b, gpus).step_time_s if k == 1.0 else _predict_len(model, quant, b, gpus)
        per_step = BATCH_PER_DEVICE / b
        less = (minutes * 60.0 - sanity_check_s(model)) / ITERS * per_step
        out.append(f"| {rid} | {pub / pred - 1:+.1%} | {pub / raw - 1:+.1%} | {less / pred - 1:+.1%} |")
    return out


def _predict_len(model: str, quant: str | None, b: int, gpus: int) -> float:
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import scenario_from_dict
    from gpuplanner.core.timing import time_estimate

    d = scenario(model, quant, b, gpus)
    d["data"] = {"mean_sample_len": round(ALPACA_MEAN), "sample_len_std": ALPACA_STD}
    return time_estimate(resolve(scenario_from_dict(d))).step_time_s


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--write-before" in argv:
        path = Path(argv[argv.index("--write-before") + 1])
        path.write_text(json.dumps(errors(), indent=1) + "\n", encoding="utf-8")
        print(f"wrote {path}")
        return 0
    body = lines() + ["", "Sensitivity to what the page does not state (printed, not scored):", ""] + sensitivity()
    if "--fragment" in argv:
        body = ["<!-- issue 35 round 15, ftoos15: bench/validate_ft_oos15.py --fragment -->",
                "#### LitGPT resource tables: LoRA / QLoRA time per 1,000 iterations (ftoos15)", "",
                f"Out of sample. Source: {SRC}. Error = published / predicted − 1 (+ = predicted too fast).", ""] + body
    print("\n".join(body))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
