"""Issue 35 round 14 (memoos14): LitGPT's published fine-tuning peaks, out of sample.

Usage: python bench/validate_mem_oos14.py [--fragment]

Source: Lightning-AI/litgpt ``tutorials/resource-tables.md`` (added in 0cc02afa, PR #663, 2023-10-27; unchanged
since apart from renames), "Finetuning with LoRA on 1 GPU" and "... on Multiple GPUs". The page states: LitGPT
commit 8641822, NVIDIA A100-SXM4-40GB, PyTorch 2.1.0+cu121, bitsandbytes 0.41.1, ``--precision bf16-true``, the
Alpaca data set at its default length, longest training sample 1,044 (phi-1.5) / 1,034 (StableLM Alpha) / 1,304
(Llama 2) tokens, a minibatch of 128. The script, ``finetune/lora.py`` at 8641822:

* LoRA r 8, alpha 16, dropout 0.05 on the query and value parts of LitGPT's fused ``attn`` linear
  (``lora_query``/``lora_value`` True, the rest False): trainable 4,194,304 for Llama 2 7B = 32 × 2 × 8 × (4096 +
  4096), as the table prints, so ``lora_targets`` "qv", rank 8;
* ``torch.optim.AdamW`` over the LoRA parameters (bitsandbytes ``PagedAdamW`` with ``--quantize``); no gradient
  checkpointing on one GPU; on several GPUs Fabric's ``FSDPStrategy(auto_wrap_policy={Block},
  activation_checkpointing_policy={Block}, state_dict_type="full", limit_all_gathers=True, cpu_offload=False)``
  (FULL_SHARD, every block checkpointed);
* ``get_batch`` pads to the longest sample of the micro-batch and the first iteration puts the longest training
  sample in it (``longest_seq_ix``): the peak batch is ``micro_batch_size`` × the longest length;
* the figure is ``fabric.print(f"Memory used: {torch.cuda.max_memory_allocated() / 1e9:.02f} GB")`` after training:
  **peak allocated, decimal GB** (converted here to GiB, × 1e9 / 2**30) -- compared with the model's ``allocated``.
* ``--precision bf16-true``: weights, LoRA parameters and AdamW states in bf16, no fp32 copy (``master_weights``
  false); attention is ``F.scaled_dot_product_attention(..., is_causal=True)`` (flash kernel on an A100:
  ``flash_attention`` true); ``--quantize bnb.nf4-dq``: Lightning's ``BitsandbytesPrecision`` (NF4 with double
  quantisation, bitsandbytes 0.41.1 < 0.43.2: ``legacy_bnb_4bit``).

One GPU: entered as ``framework: hf`` (a plain PyTorch loop over a 16-bit model, the way
bench/validate_memory_oos8.py enters PEFT's own loop) -- LitGPT is not one of the tool's frameworks. Several GPUs:
``framework: fsdp`` with ``fsdp_version: 1`` (Fabric's ``FSDPStrategy`` runs torch FSDP1, flat parameters; the
same figures as ``hf`` with ``fsdp_version: 1`` before this round), ``training.fsdp_no_sync`` (``lora.py`` runs the
accumulation's micro-batches under ``fabric.no_backward_sync`` = FSDP ``no_sync``) and
``training.fsdp_lora_mixed_units`` (Fabric 2.1 sets ``use_orig_params=True``; the LoRA A/B sit in each ``Block``
unit beside the frozen weights) -- both fields new this round; the "before" column (bench/data/memoos14_before.json,
main 0956a408) had neither. ASSUMED (what the tool cannot state): LitGPT's own
``GPT`` module is priced as the Hugging Face architecture of the same shape (StableLM Alpha and phi-1.5 as
``gpt_neox``-style blocks: LayerNorm, biases, GELU MLP of 4h, parallel residual; phi-1.5 with one norm a block);
LitGPT runs the head in chunks of 128 tokens (``lm_head_chunk_size=128``) and ``chunked_cross_entropy`` on the
16-bit chunks without an fp32 upcast, which the tool's eager cross-entropy (fp32 upcast) does not know; one dropout
before the fused q/k/v LoRA ``A`` (``LoRAQKVLinear``) where PEFT has one per adapter (entered as ``lora_dropout``
0.05 all the same: the mechanism the tool has). The ``bnb.nf4`` rows (no double quantisation) are printed, not
scored: the tool's QLoRA is double-quantised NF4.

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

GIB = 2.0 ** 30
GB = 1e9 / GIB
SRC = ("Lightning-AI/litgpt tutorials/resource-tables.md (0cc02afa, PR #663, 2023-10-27; LitGPT 8641822, "
       "A100-SXM4-40GB, PyTorch 2.1.0, bitsandbytes 0.41.1, bf16-true); finetune/lora.py at 8641822: "
       "'Memory used: torch.cuda.max_memory_allocated() / 1e9 GB'")
#: LitGPT ``lit_gpt/config.py`` at 8641822 (``padded_vocab_size``; intermediate 4 × n_embd for GptNeoxMLP)
STABLELM_3B = {"name": "StableLM Alpha 3B (LitGPT)", "hidden_size": 4096, "num_hidden_layers": 16,
               "num_attention_heads": 32, "intermediate_size": 16384, "gated_mlp": False, "vocab_size": 50688,
               "tie_word_embeddings": False, "norm_type": "layernorm", "attention_bias": True, "mlp_bias": True,
               "hidden_act": "gelu"}
PHI_15 = {"name": "phi-1.5 (LitGPT)", "hidden_size": 2048, "num_hidden_layers": 24, "num_attention_heads": 32,
          "intermediate_size": 8192, "gated_mlp": False, "vocab_size": 51200, "tie_word_embeddings": False,
          "norm_type": "layernorm", "norms_per_layer": 1, "attention_bias": True, "mlp_bias": True,
          "hidden_act": "gelu"}
MODELS = {"phi-1.5": (PHI_15, 1044), "stablelm-3b": (STABLELM_3B, 1034),
          "llama-2-7b": ({"preset": "llama-2-7b"}, 1304), "llama-2-13b": ({"preset": "llama-2-13b"}, 1304)}
#: (model, quantize, micro-batch, GPUs, published 'Max GPU RAM' GB or None for OOM); resource-tables.md as printed
ROWS = [
    ("phi-1.5", None, 1, 1, 4.82), ("phi-1.5", "nf4", 1, 1, 3.78), ("phi-1.5", "nf4-dq", 1, 1, 3.72),
    ("phi-1.5", None, 2, 1, 6.76), ("phi-1.5", None, 4, 1, 10.68),
    ("stablelm-3b", None, 1, 1, 9.69), ("stablelm-3b", "nf4", 1, 1, 6.35), ("stablelm-3b", "nf4-dq", 1, 1, 6.19),
    ("stablelm-3b", None, 2, 1, 12.10), ("stablelm-3b", None, 4, 1, 16.92),
    ("llama-2-7b", None, 1, 1, 21.30), ("llama-2-7b", "nf4", 1, 1, 14.14), ("llama-2-7b", "nf4-dq", 1, 1, 13.84),
    ("llama-2-7b", None, 2, 1, 29.07), ("llama-2-7b", None, 4, 1, None),
    ("llama-2-13b", None, 1, 1, 38.12), ("llama-2-13b", "nf4", 1, 1, 23.14), ("llama-2-13b", "nf4-dq", 1, 1, 22.55),
    ("llama-2-13b", None, 2, 1, None), ("llama-2-13b", None, 4, 1, None),
    ("phi-1.5", None, 1, 2, 4.86), ("phi-1.5", None, 2, 2, 5.05), ("phi-1.5", None, 4, 2, 5.88),
    ("stablelm-3b", None, 1, 2, 12.75), ("stablelm-3b", None, 2, 2, 12.94), ("stablelm-3b", None, 4, 2, 13.45),
    ("llama-2-7b", None, 1, 2, 22.18), ("llama-2-7b", None, 2, 2, 22.47), ("llama-2-7b", None, 4, 2, 23.39),
    ("llama-2-13b", None, 1, 2, None), ("llama-2-13b", None, 1, 4, 35.57),
]
CARD_GIB = 40.0  # A100-SXM4-40GB: the catalogue's 40 GiB, against the model's total (what must fit)


def scenario(model: str, quant: str | None, b: int, gpus: int) -> dict:
    arch, seq = MODELS[model]
    t = {"framework": "hf", "method": "qlora" if quant else "lora", "lora_rank": 8, "lora_targets": "qv",
         "lora_dropout": 0.05, "seq_len": seq, "micro_batch_size": b, "global_batch_size": 128 * gpus,
         "recompute": "full" if gpus > 1 else "none", "flash_attention": True, "optimizer": "adamw",
         "master_weights": False, "precision": "bf16"}
    par = {}
    if quant:
        t["legacy_bnb_4bit"] = True
    if gpus > 1:
        # Lightning Fabric's FSDPStrategy: torch FSDP1 (flat parameters) over each Block, use_orig_params=True;
        # lora.py runs the accumulation's micro-batches under fabric.no_backward_sync (FSDP no_sync)
        t.update(framework="fsdp", fsdp_version=1, checkpoint_reentrant=False, fsdp_no_sync=True,
                 fsdp_lora_mixed_units=True)
        par = {"zero": 3}
    return {"model": dict(arch), "training": t, "parallel": par,
            "hardware": {"gpu": "a100-sxm-40gb", "num_gpus": gpus},
            "assumptions": {"memory_metric": "allocated"}}


def row_id(model: str, quant: str | None, b: int, gpus: int) -> str:
    return f"{model} {'LoRA' if not quant else 'QLoRA ' + quant} b{b} × {gpus} GPU"


BEFORE = ROOT / "bench" / "data" / "memoos14_before.json"


def before() -> dict:
    """The rows' predictions on main (0956a408) before this round's changes: {row id: (allocated GiB, total GiB)}."""
    rows = json.loads(BEFORE.read_text(encoding="utf-8"))["rows"]
    return {k: (v["allocated_gib"], v["total_gib"]) for k, v in rows.items()}


def results() -> list[tuple[str, float | None, float, float, bool]]:
    """(row id, published GiB or None for OOM, predicted allocated GiB, predicted total GiB, scored)."""
    out = []
    for model, quant, b, gpus, gb in ROWS:
        mem = estimate(scenario_from_dict(scenario(model, quant, b, gpus))).memory
        scored = gb is not None and quant != "nf4"
        out.append((row_id(model, quant, b, gpus), None if gb is None else gb * GB, mem.metric("allocated"),
                    mem.total, scored))
    return out


def _p90(errs: list[float]) -> float:
    e = sorted(abs(x) for x in errs)
    return e[min(len(e) - 1, int(round(0.9 * (len(e) - 1))))]


def _stats(errs: list[float]) -> str:
    return (f"median |error| {statistics.median(abs(x) for x in errs):.1%}, p90 {_p90(errs):.1%}, signed median "
            f"{statistics.median(errs):+.1%}")


def summary(res, pred_of) -> dict:
    """{group: (rows, median |error|, p90, signed median)} with ``pred_of(row id, after)`` the prediction."""
    out = {}
    for name, keep in (("all", lambda r: True), ("one GPU, LoRA", lambda r: r.endswith("× 1 GPU") and "QLoRA" not in r),
                       ("one GPU, QLoRA nf4-dq", lambda r: "QLoRA" in r),
                       ("FSDP (2 or 4 GPUs)", lambda r: not r.endswith("× 1 GPU"))):
        e = [pub / pred_of(rid, pred) - 1 for rid, pub, pred, _tot, sc in res if sc and keep(rid)]
        if e:
            out[name] = (len(e), statistics.median(abs(x) for x in e), _p90(e), statistics.median(e))
    return out


def lines() -> list[str]:
    res, old = results(), before()
    out = ["| row | published GiB (allocated) | before: predicted | error | after: predicted | error |",
           "|---|---:|---:|---:|---:|---:|"]
    for rid, pub, pred, total, scored in res:
        b_alloc, b_total = old[rid]
        if pub is None:
            verdict = lambda t: "OOM" if t > CARD_GIB else "fits"  # noqa: E731 (what must fit against the card)
            out.append(f"| {rid} | OOM | {b_total:.2f} total | {verdict(b_total)} | {total:.2f} total | "
                       f"{verdict(total)} |")
            continue
        tag = "" if scored else " (printed)"
        out.append(f"| {rid} | {pub:.2f} | {b_alloc:.2f} | {pub / b_alloc - 1:+.1%}{tag} | {pred:.2f} | "
                   f"{pub / pred - 1:+.1%}{tag} |")
    out.append("")
    s_before = summary(res, lambda rid, _p: old[rid][0])
    s_after = summary(res, lambda _rid, p: p)
    for name, (n, med, p90, signed) in s_after.items():
        bn, bmed, bp90, bsigned = s_before[name]
        out.append(f"- {name}: {n} rows, median |error| {bmed:.1%} → {med:.1%}, p90 {bp90:.1%} → {p90:.1%}, "
                   f"signed median {bsigned:+.1%} → {signed:+.1%}")
    oom_b = sum(1 for rid, pub, *_ in res if pub is None and old[rid][1] > CARD_GIB)
    oom_a = sum(1 for rid, pub, _p, tot, _s in res if pub is None and tot > CARD_GIB)
    n_oom = sum(1 for _r, pub, *_ in res if pub is None)
    out.append(f"- published OOM predicted OOM (what must fit above the card's {CARD_GIB:.0f} GiB): {oom_b} → "
               f"{oom_a} of {n_oom}")
    return out


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    body = lines()
    if "--fragment" in argv:
        body = ["<!-- issue 35 round 14, memoos14: bench/validate_mem_oos14.py --fragment -->",
                "## LitGPT resource tables: LoRA / QLoRA peak allocated memory (memoos14)", "",
                f"Out of sample. Source: {SRC}. Error = published / predicted − 1.", ""] + body
    print("\n".join(body))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
