"""Out-of-sample fine-tuning step time and memory, round 17: IBM fms-acceleration's Granite A100 table (not fitted).

Usage: python bench/validate_ft_oos17.py [--fragment] [--write-before FILE]

Before entering the source I grepped ``bench/``, ``tests/``, ``docs/``, ``gpuplanner/`` and ``shared/reference`` for
``a100_80gb_granite``, ``PowerLM`` and the figures: no row is held. ftoos16 / memoos16 entered the same harness's
``refs/a100_80gb.csv`` (Mistral / Mixtral / Llama-2-70B); this is its sibling table for IBM's PowerLM-3B.

Source: foundation-model-stack/fms-acceleration ``scripts/benchmarks/refs/a100_80gb_granite.csv`` as regenerated at
fc78b55 (2024-10-18, "Fix Low CPU Memory Mode Issues for Quantized Peft (#90)"; first added at ff14d4f with other
figures; the fc78b55 figures are unchanged at HEAD 876e2ed6), run with ``refs/requirements_granite.txt`` (fc78b55):
torch 2.4.1, transformers 4.45.2, peft 0.12.0, accelerate 0.34.2, bitsandbytes 0.43.3, flash-attn 2.6.3, trl at git
9b80f3d. Settings:

* the CSV's own ``bf16`` column (fc78b55; ``display_bench_results.py`` writes every argument that varies between
  rows): empty on the "full-finetuning" and "standard-peft" rows (no ``framework_config``; ``torch_dtype:
  bfloat16``, no ``bf16`` flag: pure bf16, AdamW on bf16 parameters), ``True`` on "baseline-peft-bnb" (the
  bitsandbytes NF4 loader, the tool's QLoRA, as in ftoos16). LoRA r 16, alpha 16, dropout 0.1 on q/k/v/o. (Issue 35
  round 17, lora17: ``scenarios-granite.yaml`` at ff14d4f and fc78b55 lists ``bf16: True`` under "standard-peft" and
  "full-finetuning" too, so the runs did not come from that file; ff14d4f also added PowerLM-3B to
  ``scenarios.yaml``, whose "standard-peft" has no ``bf16``. The CSV is the run's record, so it decides; ff14d4f's
  first CSV, 2024-10-01, had no ``bf16`` column at all: every row then carried the same value.)
* ``defaults.yaml`` / ``benchmark.py`` / ``accelerate.yaml``: as ftoos16 (flash attention, reentrant gradient
  checkpointing, accumulation 1, 100 steps, packed 4,096-token rows, per-device batch = effective / GPUs, FSDP1
  FULL_SHARD on 2 GPUs through Accelerate, ``mixed_precision: 'no'``). ``train_runtime`` / 100 = s/step;
  ``mem_peak_torch_mem_alloc_in_bytes`` = peak allocated.
* PEFT 0.12.0 already has ``get_peft_model(..., autocast_adapter_dtype=True)`` (huggingface/peft ae1ae20b, #1706,
  first in v0.12.0): fp32 adapters, so ``master_weights: true`` for LoRA/QLoRA, as ftoos16's corrected entry.

The model, PowerLM-3B (``GraniteForCausalLM``): Shen et al., "Power Scheduler" (arXiv 2408.13359) Table 4: hidden
2,304, 40 layers, 36 heads of 64 (36 KV heads), SwiGLU MLP 9,216. Vocabulary 49,152 with tied embeddings: ASSUMED
from the paper's StarCoder tokenizer; checked against the CSV: a pure-bf16 foreach step holds 10 bytes a parameter
(memoos16), 10 × 3,510,819,072 = 35.108e9 B against the published 35.135e9 at batch 4 on one GPU (untied would be
36.24e9). Granite's µP multipliers (embedding × 12, residual × 0.22, logits / 9, attention scale 1/64) are not in the
tool: priced as Llama (ASSUMED: a few elementwise operations per layer).

Not scored: the ``foak`` and ``accelerated-peft`` rows (IBM's kernels), and ``a100_80gb_liger.csv`` (only foak /
Liger rows), ``a100_80gb_moe.csv`` (unpacked, padded per batch: tokens unknown; nvidia-smi only).
Error = published / predicted − 1 on time (+ = predicted too fast); memory (predicted − published) / published.
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

import validate_ft_oos16 as v16  # noqa: E402
import validate_ft_tools as vft  # noqa: E402

SRC = ("foundation-model-stack/fms-acceleration scripts/benchmarks/refs/a100_80gb_granite.csv @fc78b55 (A100-80GB; "
       "torch 2.4.1, transformers 4.45.2, peft 0.12.0, accelerate 0.34.2; bf16 per row from its own column), "
       "with defaults.yaml, "
       "accelerate.yaml and benchmark.py")
STEPS, SEQ = v16.STEPS, v16.SEQ
#: PowerLM-3B, arXiv 2408.13359 Table 4; vocabulary and tying ASSUMED (checked against the full rows, docstring)
POWERLM_3B = {"name": "PowerLM-3B", "hidden_size": 2304, "num_hidden_layers": 40, "num_attention_heads": 36,
              "num_key_value_heads": 36, "head_dim": 64, "intermediate_size": 9216, "gated_mlp": True,
              "vocab_size": 49152, "tie_word_embeddings": True, "norm_type": "rmsnorm", "position_embedding": "rope",
              "max_position_embeddings": 4096, "hidden_act": "silu"}
CONFIG_METHOD = v16.CONFIG_METHOD
#: (framework_config + method, GPUs, per-device batch, train_runtime s, peak allocated bytes), as in the CSV
ROWS = (
    ("none-full", 1, 4, 321.2872, 35134836736),
    ("none-full", 2, 2, 178.9566, 17626672128),
    ("none-full", 1, 8, 627.2531, 47059390976),
    ("none-full", 2, 4, 328.2929, 23781051904),
    ("none-lora", 1, 4, 325.5188, 20169870848),
    ("none-lora", 2, 2, 205.3199, 10321519104),
    ("none-lora", 1, 8, 641.7595, 33152880128),
    ("none-lora", 2, 4, 342.5583, 16819665408),
    ("baseline-peft-bnb", 1, 4, 390.2779, 18174161920),
    ("baseline-peft-bnb", 2, 2, 217.3217, 7826759168),
    ("baseline-peft-bnb", 1, 8, 759.0108, 34177070080),
    ("baseline-peft-bnb", 2, 4, 325.6275, 14319836672),
)
#: the CSV's train_tokens_per_second (per device), for the transcription check (runtime × tok/s = 100 × b × 4,096)
TOKENS_PER_S = (5099.488, 4577.647, 5224.047, 4990.665, 5033.196, 3989.872, 5105.963, 4782.835, 4198.034, 3769.527,
                4317.198, 5031.517)
BEFORE = ROOT / "bench" / "data" / "ftoos17_before.json"
GIB = 2.0**30


def vrow(config: str, gpus: int, b: int, kind: str, measured: float) -> vft.Row:
    return vft.Row(row_id(config, gpus, b), "fms-acceleration granite", kind, measured, dict(POWERLM_3B),
                   v16.training(config, b, gpus), gpu="a100-sxm-80gb", num_gpus=gpus,
                   parallel={"zero": 3} if gpus > 1 else {}, metric="allocated",
                   assumed=("vocab 49,152 tied", "µP multipliers priced as Llama"))


def row_id(config: str, gpus: int, b: int) -> str:
    return f"PowerLM-3B {CONFIG_METHOD[config]} b{b} × {gpus} GPU"


def results() -> list[tuple[str, float, float, float, float]]:
    """(row id, published s/step, predicted s/step, published peak allocated GiB, predicted GiB)."""
    out = []
    for config, gpus, b, runtime, peak in ROWS:
        step = vft.predict(vrow(config, gpus, b, "step", runtime / STEPS))
        mem = vft.predict(vrow(config, gpus, b, "memory", peak / GIB))
        out.append((row_id(config, gpus, b), runtime / STEPS, step, peak / GIB, mem))
    return out


def errors(res=None) -> dict[str, dict[str, float]]:
    return v16.errors(res or results())


def lines() -> list[str]:
    before = json.loads(BEFORE.read_text(encoding="utf-8")) if BEFORE.exists() else {}
    res = results()
    out = ["| row | published s/step | predicted | error | main | published peak alloc GiB | predicted | error | "
           "main |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]

    def cell(kind: str, rid: str) -> str:
        v = before.get(kind, {}).get(rid)
        return "" if v is None else f"{v:+.1%}"

    for rid, pub, pred, mem, pmem in res:
        out.append(f"| {rid} | {pub:.2f} | {pred:.2f} | {pub / pred - 1:+.1%} | {cell('time', rid)} | {mem:.2f} | "
                   f"{pmem:.2f} | {pmem / mem - 1:+.1%} | {cell('memory', rid)} |")
    out.append("")
    now = errors(res)
    for kind in ("time", "memory"):
        was = v16.summary(before.get(kind, {}))
        for name, (n, med, p90, signed) in v16.summary(now[kind]).items():
            head = f"main {was[name][1]:.1%} / {was[name][2]:.1%}; " if name in was else ""
            out.append(f"- {kind}, {name}: {n} rows; {head}now median |error| {med:.1%}, p90 {p90:.1%}, signed "
                       f"median {signed:+.1%}")
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--write-before" in argv:
        path = Path(argv[argv.index("--write-before") + 1])
        path.write_text(json.dumps(errors(), indent=1) + "\n", encoding="utf-8")
        print(f"wrote {path}")
        return 0
    body = lines()
    if "--fragment" in argv:
        body = ["<!-- issue 35 round 17, ftoos17: bench/validate_ft_oos17.py --fragment -->",
                "#### IBM fms-acceleration A100-80GB Granite benchmark: PowerLM-3B full / LoRA / QLoRA (ftoos17)", "",
                f"Out of sample. Source: {SRC}. Error = published / predicted − 1 on time (+ = predicted too fast); "
                "memory: (predicted − published) / published, peak allocated. \"main\" = scored on main before any "
                "change.", ""] + body
    print("\n".join(body))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
