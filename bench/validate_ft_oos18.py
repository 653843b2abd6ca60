"""Out-of-sample fine-tuning step time, round 18: IBM fms-acceleration's first published benchmark, on L40s (not fitted).

Usage: python bench/validate_ft_oos18.py [--fragment] [--write-before FILE]

Before entering the source I grepped ``bench/``, ``tests/``, ``docs/``, ``gpuplanner/`` and ``shared/reference`` for
``l40_40gb``, its figures (120.2794, 2724.324, 78.5825, 130.1845, 218.3215) and its commit: no row is held
(memoos16 named the file among those it left out; ftoos16 / ftoos17 / memoos16 hold the LATER A100 tables of the same
harness: ``refs/a100_80gb.csv`` @24bdadb and ``a100_80gb_granite.csv`` @fc78b55).

Source: foundation-model-stack/fms-acceleration ``scripts/benchmarks/refs/l40_40gb.csv`` at 8af8fa7 (2024-05-13, "More
README updates. Bench result updates and script Improvements", #4; removed at 8103238, 2024-06-02, "update benches
(remove l40)"). The harness of the same commit:

* ``scenarios.yaml``: every scenario ``torch_dtype: float16``. "full-finetuning" and "standard-peft" pass no
  ``fp16`` flag: pure fp16 (AdamW on fp16 parameters; ``defaults.yaml`` ``adam_epsilon: 1e-4``), no autocast.
  "standard-peft": LoRA r 16, alpha 16, **dropout 0.0**, q/k/v/o. "accelerated-peft-bnb": ``fp16: True`` (autocast
  fp16) and the accelerated-peft plugin's bitsandbytes NF4 loader (``framework_plugin_bnb.py``: double quant, compute
  dtype = ``torch_dtype``, ``bnb_4bit_quant_storage`` = ``torch_dtype`` when distributed; its own
  ``_prepare_model_for_kbit_training`` that does NOT upcast the non-quantized parameters to fp32, "because the
  activations will then be constantly downcasted"; then PEFT ``get_peft_model``): the tool's QLoRA.
* ``defaults.yaml``: flash attention, gradient checkpointing (transformers < 4.40: reentrant), accumulation 1,
  ``max_steps: 100``; ``benchmark.py``: ``--packing_matrix True``, ``--max_seq_len_matrix 4096``, yahma/alpaca-cleaned;
  per-device batch = effective / GPUs; ``accelerate.yaml``: FSDP1 FULL_SHARD, TRANSFORMER_BASED_WRAP, BACKWARD_PRE,
  ``mixed_precision: 'no'``.
* Versions: ``plugins/framework/pyproject.toml`` at 8af8fa7 pins ``torch<2.3``, ``transformers<4.40``; PEFT unpinned,
  so 0.10.0 at the commit's date (0.11.0 is 2024-05-16). Before huggingface/peft ae1ae20b (#1706, first in 0.12.0) a
  LoRA layer takes the base weight's dtype when it is floating (``update_layer``: ``self.to(weight.device,
  dtype=weight.dtype)``): **the adapters are fp16** on the fp16 model (``master_weights: false``, nothing in fp32:
  ``mixed_precision_off`` does not apply — it describes fp32 adapters without autocast). For QLoRA on one GPU the
  Linear4bit weight is uint8 (kept fp32 adapters, ``master_weights: true``); on two GPUs the plugin stores the 4-bit
  weight as fp16 (``quant_storage``), so the adapters become fp16 (``master_weights: false``). ASSUMED: PEFT 0.10.0.
* **Steps.** The CSV has no ``epoch``-consistent 100 steps: ``train_runtime`` × ``train_tokens_per_second`` = 20 × b
  × 4,096 on every row (e.g. 120.2794 × 2724.324 = 327,680 = 20 × 4 × 4,096), and the epoch (0.03 at b 4, 0.06 at
  b 8) is 20 steps of the same packed alpaca-cleaned set that ``a100_80gb.csv`` covers at 0.15 per 100 steps of b 4
  (2,667 blocks of 4,096). So these runs stopped at 20 steps (ASSUMED: the ``max_steps`` of the L40 run, not in the
  repository). s/step = b × 4,096 / ``train_tokens_per_second`` (= runtime / 20). The 20 steps include the first
  step's start-up: a few tenths of a second, 1–2% of a 20-step runtime (not removed).
* The card: "l40_40gb" (the L40 has 48 GB; no other L40 exists): the catalog's ``l40-48gb`` (PCIe Gen4, no NVLink).
  ASSUMED: two GPUs on PCIe 4.0 x16, as the catalog.

The QLoRA rows state ``training.qlora_no_upcast`` (round 18): the plugin's own ``_prepare_model_for_kbit_training``
skips PEFT's fp32 cast of the non-4-bit parameters. ``--kbit-upcast`` prints the entry main's model had (the cast).

Rows: every row of the CSV with a runtime, except ``accelerated-peft-autogptq`` (a GPTQ base; not a scenario choice).
The 1-GPU full rows and every Mixtral / Llama-2-70B full and LoRA row have no runtime (out of memory on 48 GB, or not
run): not scored. No memory column in this CSV. Error = published / predicted − 1 (+ = predicted too fast).
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

SRC = ("foundation-model-stack/fms-acceleration scripts/benchmarks/refs/l40_40gb.csv @8af8fa7 (L40; torch < 2.3, "
       "transformers < 4.40, PEFT 0.10 ASSUMED; fp16), with scenarios.yaml, defaults.yaml, accelerate.yaml and "
       "benchmark.py of the same commit")
SEQ = 4096
MISTRAL, MIXTRAL = "mistralai/Mistral-7B-v0.1", "mistralai/Mixtral-8x7B-Instruct-v0.1"
PRESETS = {MISTRAL: ("mistral-7b-v0.1", "Mistral-7B"), MIXTRAL: ("mixtral-8x7b", "Mixtral-8x7B")}
CONFIG_METHOD = {"none-full": "full", "none-lora": "lora", "accelerated-peft-bnb": "qlora"}
#: (framework_config + method, model, GPUs, per-device batch, train_runtime s, train_tokens_per_second), as in the CSV
ROWS = (
    ("none-full", MISTRAL, 2, 2, 102.4493, 1599.23),
    ("none-full", MISTRAL, 2, 4, 170.7722, 1918.814),
    ("none-lora", MISTRAL, 1, 4, 120.2794, 2724.324),
    ("none-lora", MISTRAL, 2, 2, 78.5825, 2084.943),
    ("none-lora", MISTRAL, 1, 8, 241.3246, 2715.679),
    ("none-lora", MISTRAL, 2, 4, 133.2158, 2459.768),
    ("accelerated-peft-bnb", MISTRAL, 1, 4, 130.1845, 2517.044),
    ("accelerated-peft-bnb", MISTRAL, 2, 2, 69.8209, 2346.575),
    ("accelerated-peft-bnb", MISTRAL, 1, 8, 259.8776, 2521.802),
    ("accelerated-peft-bnb", MISTRAL, 2, 4, 133.6157, 2452.406),
    ("accelerated-peft-bnb", MIXTRAL, 1, 4, 218.3215, 1500.906),
    ("accelerated-peft-bnb", MIXTRAL, 2, 2, 173.2373, 945.755),
    ("accelerated-peft-bnb", MIXTRAL, 2, 4, 273.4507, 1198.315),
)
STEPS = 20  # runtime × tokens/s = 20 × b × 4,096 on every row (docstring)
L2_70B = "NousResearch/Llama-2-70b-hf"
PRESETS[L2_70B] = ("llama-2-70b", "Llama-2-70B")
#: the same commit's refs/a100_80gb.csv (the same harness and settings, one A100-80GB): 100 steps (runtime ×
#: tokens/s = 100 × b × 4,096); not the later table ftoos16 holds (@24bdadb: bf16, PEFT 0.13, dropout 0.1)
A100_ROWS = (
    ("none-full", MISTRAL, 1, 4, 561.4936, 2917.932),
    ("none-full", MISTRAL, 2, 2, 306.2728, 2674.74),
    ("none-full", MISTRAL, 1, 8, 1094.7748, 2993.127),
    ("none-full", MISTRAL, 2, 4, 572.0158, 2864.256),
    ("none-lora", MISTRAL, 1, 4, 458.0185, 3577.148),
    ("none-lora", MISTRAL, 2, 2, 259.6061, 3155.55),
    ("none-lora", MISTRAL, 1, 8, 915.9053, 3577.662),
    ("none-lora", MISTRAL, 2, 4, 480.6995, 3408.367),
    ("none-lora", MIXTRAL, 2, 2, 535.3534, 1530.204),
    ("none-lora", MIXTRAL, 2, 4, 924.5333, 1772.137),
    ("accelerated-peft-bnb", MISTRAL, 1, 4, 481.8265, 3400.394),
    ("accelerated-peft-bnb", MISTRAL, 2, 2, 271.0715, 3022.081),
    ("accelerated-peft-bnb", MISTRAL, 1, 8, 951.8817, 3442.445),
    ("accelerated-peft-bnb", MISTRAL, 2, 4, 498.9262, 3283.852),
    ("accelerated-peft-bnb", MIXTRAL, 1, 4, 908.6145, 1803.185),
    ("accelerated-peft-bnb", MIXTRAL, 2, 2, 548.0391, 1494.784),
    ("accelerated-peft-bnb", MIXTRAL, 1, 8, 1714.3117, 1911.438),
    ("accelerated-peft-bnb", MIXTRAL, 2, 4, 954.0851, 1717.247),
    ("accelerated-peft-bnb", L2_70B, 1, 4, 3696.2907, 443.255),
    ("accelerated-peft-bnb", L2_70B, 2, 2, 1960.7862, 417.792),
    ("accelerated-peft-bnb", L2_70B, 2, 4, 3809.1796, 430.119),
)
TABLES = {"L40": ("l40-48gb", ROWS), "A100": ("a100-sxm-80gb", A100_ROWS)}
BEFORE = ROOT / "bench" / "data" / "ftoos18_before.json"


def training(config: str, b: int, gpus: int) -> dict:
    method = CONFIG_METHOD[config]
    t = {"framework": "trl", "method": method, "seq_len": SEQ, "micro_batch_size": b, "global_batch_size": b * gpus,
         "recompute": "full", "flash_attention": True, "packing": True, "precision": "fp16",
         # pure fp16 (no --fp16 flag on full / standard-peft); transformers < 4.40's "adamw_torch" is
         # torch.optim.AdamW with torch's foreach default; the Trainer's checkpointing is reentrant
         "master_weights": False, "optimizer": "adamw", "optimizer_implementation": "foreach",
         "checkpoint_reentrant": True}
    if method != "full":
        # PEFT 0.10: adapters take the base weight's float dtype (fp16); a uint8 Linear4bit (QLoRA, one GPU) keeps
        # them fp32 (the plugin's fp16 autocast runs them)
        t.update(lora_rank=16, lora_targets="attention", lora_dropout=0.0,
                 master_weights=method == "qlora" and gpus == 1)
    if method == "qlora" and "--kbit-upcast" not in sys.argv:
        # issue 35 round 18 (ftoos18): the accelerated-peft plugin's own _prepare_model_for_kbit_training does not
        # cast the non-4-bit parameters to fp32 (framework_plugin_bnb.py @8af8fa7): training.qlora_no_upcast.
        # ``--kbit-upcast`` prints the first entry (main's model has no such field: the trl default casts)
        t["qlora_no_upcast"] = True
    if gpus > 1:
        t["fsdp_version"] = 1
    return t


def vrow(card: str, config: str, model: str, gpus: int, b: int, measured: float) -> vft.Row:
    return vft.Row(row_id(card, config, model, gpus, b), f"fms-acceleration {card}", "step", measured,
                   {"preset": PRESETS[model][0]}, training(config, b, gpus), gpu=TABLES[card][0], num_gpus=gpus,
                   parallel={"zero": 3} if gpus > 1 else {},
                   assumed=("PEFT 0.10 (fp16 adapters)",) + (("20 steps", "L40 48 GB, PCIe") if card == "L40" else ()))


def row_id(card: str, config: str, model: str, gpus: int, b: int) -> str:
    return f"{card} {PRESETS[model][1]} {CONFIG_METHOD[config]} b{b} × {gpus} GPU"


def results() -> list[tuple[str, float, float]]:
    """(row id, published s/step, predicted s/step); s/step = b × 4,096 / tokens/s per device."""
    out = []
    for card, (_gpu, rows) in TABLES.items():
        for config, model, gpus, b, _runtime, tps in rows:
            pub = b * SEQ / tps
            out.append((row_id(card, config, model, gpus, b), pub,
                        vft.predict(vrow(card, config, model, gpus, b, pub))))
    return out


def errors(res=None) -> dict[str, float]:
    return {rid: pub / pred - 1.0 for rid, pub, pred in (res or results())}


def lines() -> list[str]:
    before = json.loads(BEFORE.read_text(encoding="utf-8")) if BEFORE.exists() else {}
    res = results()
    out = ["| row | published s/step | predicted | error | main |", "|---|---:|---:|---:|---:|"]
    for rid, pub, pred in res:
        was = f"{before[rid]:+.1%}" if rid in before else ""
        out.append(f"| {rid} | {pub:.2f} | {pred:.2f} | {pub / pred - 1:+.1%} | {was} |")
    out.append("")
    now = errors(res)
    for card in ("", *TABLES):
        was = v16.summary({k: v for k, v in before.items() if k.startswith(card)})
        for name, (n, med, p90, signed) in v16.summary({k: v for k, v in now.items() if k.startswith(card)}).items():
            head = f"main {was[name][1]:.1%} / {was[name][2]:.1%}; " if name in was else ""
            out.append(f"- time, {card or 'both cards'}, {name}: {n} rows; {head}now median |error| {med:.1%}, p90 "
                       f"{p90:.1%}, signed median {signed:+.1%}")
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
        body = ["<!-- issue 35 round 18, ftoos18: bench/validate_ft_oos18.py --fragment -->",
                "#### IBM fms-acceleration's first benchmark, two L40s: Mistral-7B / Mixtral-8x7B fp16 full / LoRA / "
                "QLoRA (ftoos18)", "",
                f"Out of sample. Source: {SRC}. Error = published / predicted − 1 (+ = predicted too fast). \"main\" = "
                "scored on main before any change.", ""] + body
    print("\n".join(body))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
