"""Out-of-sample fine-tuning step time and memory, round 16: IBM fms-acceleration's published A100 benchmark (not fitted).

Usage: python bench/validate_ft_oos16.py [--fragment] [--write-before FILE]

Before entering the source I grepped ``bench/``, ``tests/``, ``docs/``, ``gpuplanner/`` and ``shared/reference`` for
``fms-acceleration``, ``fms_acceleration``, ``foundation-model-stack`` and the figures: only the other IBM repository,
``fms-fsdp`` (pre-training, ptoos15), is held. No row of this table is.

Source: foundation-model-stack/fms-acceleration ``scripts/benchmarks/refs/a100_80gb.csv`` at 24bdadb (2025-02-07, "fix:
cross entropy for transformers>4.45 (#123)"; unchanged at HEAD 876e2ed6), the reference run of the repository's own
benchmark on A100-80GB, with its pinned stack ``scripts/benchmarks/refs/requirements.txt`` (torch 2.4.1,
transformers 4.48.1, trl 0.13.0, peft 0.13.2, accelerate 1.0.1, bitsandbytes 0.43.3, flash-attn 2.7.3,
fms-hf-tuning 2.5.0). The settings, all read at 24bdadb:

* ``scripts/benchmarks/defaults.yaml``: ``use_flash_attn: True``, ``gradient_accumulation_steps: 1``,
  ``gradient_checkpointing: True``, ``max_steps: 100``, ``logging_steps: 10``, no evaluation, no save.
* ``scripts/benchmarks/benchmark.py``: dataset yahma/alpaca-cleaned; ``--packing_matrix`` default ``[True]`` and
  ``--max_seq_len_matrix`` default ``[4096]``: every row is a packed 4,096-token sequence; ``--num_gpus_matrix`` [1, 2]
  and ``--effective_batch_size_matrix`` [4, 8], per-device batch = effective / GPUs (the CSV's
  ``per_device_train_batch_size``); ``train_runtime`` = the HF Trainer's runtime of the 100 steps.
  ``mem_peak_torch_mem_alloc_in_bytes`` (``extract_gpu_memory_metrics``) = the Trainer's memory tracker: allocated
  before init + init delta + train alloc delta, plus the train stage's peaked delta: the peak allocated bytes.
* ``scripts/benchmarks/scenarios.yaml``: "full-finetuning" and "standard-peft" with ``framework_config`` none
  (``torch_dtype: bfloat16``, no ``bf16`` flag: the model trains in bf16 without autocast, AdamW on bf16 parameters);
  standard-peft and baseline-peft-bnb: LoRA r 16, alpha 16, dropout 0.1 on q/k/v/o (``lora_targets: attention``);
  "baseline-peft-bnb" adds ``bf16: True`` and fms-acceleration's bitsandbytes loader
  (``plugins/accelerated-peft/.../framework_plugin_bnb.py``: ``load_in_4bit``, ``bnb_4bit_use_double_quant=True``,
  nf4 per ``sample-configurations/baseline-peft-bnb-nf4-sample-configuration.yaml``): the tool's QLoRA.
* ``scripts/benchmarks/accelerate.yaml``: ``distributed_type: FSDP``, FULL_SHARD, TRANSFORMER_BASED_WRAP,
  BACKWARD_PRE, ``mixed_precision: 'no'``: on 2 GPUs, FSDP1 through Accelerate (``fsdp_version: 1``, ``zero: 3``).
  With PEFT, transformers' Trainer replaces the wrap policy by PEFT's ``fsdp_auto_wrap_policy`` (adapters in their own
  units), so ``fsdp_lora_mixed_units`` stays off.

Entered as a user would enter the run: ``framework: trl`` (fms-hf-tuning runs TRL's SFTTrainer on the HF Trainer),
``packing: true``, ``seq_len`` 4096, ``recompute: full``, ``flash_attention: true``, ``precision: bf16``; full
fine-tuning with ``master_weights: false`` (bf16 parameters and AdamW states). LoRA and QLoRA with ``master_weights:
true``: TRL 0.13's ``SFTTrainer`` calls PEFT 0.13's ``get_peft_model`` with its default ``autocast_adapter_dtype=True``,
which makes the bf16 adapters fp32 (fp32 AdamW states), the tool's meaning of the field. The first entry had it false
(the base's ``torch_dtype``); that entry's scores on main are ``bench/data/ftoos16_before.json``, the corrected
entry's on main ``bench/data/ftoos16_main_entry.json`` (model unchanged: the QLoRA rows on one GPU then take the
model's existing ``prepare_model_for_kbit_training`` path, which TRL 0.13 runs for a non-sharded 4-bit model, and
which fms-acceleration's ``framework_plugin_bnb.py`` itself warns of on a single device: "will cause a slowdown in
training speed due to extraneous dtype casting when SFTTrainer prepares the model"). ``--pure16`` prints the first
entry. Scored: the three baseline configurations (none / standard-peft / baseline-peft-bnb) for
the Mistral-7B, Mixtral-8x7B and Llama-2-70B presets; rows without a runtime (OOM) are left out. Not scored: the
``foak`` and ``accelerated-peft`` rows (IBM's fused Triton kernels and GPTQ, which the tool does not model) and
gpt_bigcode-santacoder (no preset). Issue 35 round 17 (ftoos17): the "standard-peft" rows are entered with
``training.mixed_precision_off`` (no ``bf16`` flag: no autocast, so PEFT's fp32 adapters run entirely in fp32; on 2
GPUs Accelerate's ``mixed_precision: 'no'`` also leaves FSDP1 without a MixedPrecision policy, so the adapter units
cast their input as on one GPU); ``--no-mp-off`` prints the entry before (= main 64ef3985). Error = published / predicted − 1 on time (+ = predicted too fast); memory error =
(predicted − published) / published, peak allocated.
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

import validate_ft_tools as vft  # noqa: E402

SRC = ("foundation-model-stack/fms-acceleration scripts/benchmarks/refs/a100_80gb.csv @24bdadb (A100-80GB; torch "
       "2.4.1, transformers 4.48.1, trl 0.13.0, peft 0.13.2, accelerate 1.0.1), with scenarios.yaml, defaults.yaml, "
       "accelerate.yaml and benchmark.py of the same commit")
STEPS = 100  # defaults.yaml max_steps
SEQ = 4096  # benchmark.py --max_seq_len_matrix default, packed
PRESETS = {"mistralai/Mistral-7B-v0.1": ("mistral-7b-v0.1", "Mistral-7B"),
           "mistralai/Mixtral-8x7B-Instruct-v0.1": ("mixtral-8x7b", "Mixtral-8x7B"),
           "NousResearch/Llama-2-70b-hf": ("llama-2-70b", "Llama-2-70B")}
CONFIG_METHOD = {"none-full": "full", "none-lora": "lora", "baseline-peft-bnb": "qlora"}
#: (framework_config + method, model, GPUs, per-device batch, train_runtime s, peak allocated bytes), as in the CSV
ROWS = (
    ("none-full", "mistralai/Mistral-7B-v0.1", 1, 4, 534.9538, 72434837504),
    ("none-full", "mistralai/Mistral-7B-v0.1", 2, 2, 294.9755, 36225939968),
    ("none-full", "mistralai/Mistral-7B-v0.1", 1, 8, 1042.5316, 72435230720),
    ("none-full", "mistralai/Mistral-7B-v0.1", 2, 4, 544.5118, 36226136576),
    ("none-lora", "mistralai/Mistral-7B-v0.1", 1, 4, 492.8771, 26704571904),
    ("none-lora", "mistralai/Mistral-7B-v0.1", 2, 2, 278.0431, 15144870400),
    ("none-lora", "mistralai/Mistral-7B-v0.1", 1, 8, 977.0384, 38742912512),
    ("none-lora", "mistralai/Mistral-7B-v0.1", 2, 4, 517.0716, 21959827968),
    ("none-lora", "mistralai/Mixtral-8x7B-Instruct-v0.1", 2, 2, 521.3771, 57554708992),
    ("none-lora", "mistralai/Mixtral-8x7B-Instruct-v0.1", 2, 4, 893.1647, 64851605504),
    ("baseline-peft-bnb", "mistralai/Mistral-7B-v0.1", 1, 4, 564.2301, 20669338112),
    ("baseline-peft-bnb", "mistralai/Mistral-7B-v0.1", 2, 2, 277.7698, 9424594432),
    ("baseline-peft-bnb", "mistralai/Mistral-7B-v0.1", 1, 8, 1096.8531, 37002646016),
    ("baseline-peft-bnb", "mistralai/Mistral-7B-v0.1", 2, 4, 482.0717, 15970067968),
    ("baseline-peft-bnb", "mistralai/Mixtral-8x7B-Instruct-v0.1", 1, 4, 1072.2023, 42794268160),
    ("baseline-peft-bnb", "mistralai/Mixtral-8x7B-Instruct-v0.1", 2, 2, 518.5422, 21129981952),
    ("baseline-peft-bnb", "mistralai/Mixtral-8x7B-Instruct-v0.1", 1, 8, 1938.6247, 60545920512),
    ("baseline-peft-bnb", "mistralai/Mixtral-8x7B-Instruct-v0.1", 2, 4, 871.1804, 28146350592),
    ("baseline-peft-bnb", "NousResearch/Llama-2-70b-hf", 2, 2, 1889.605, 46685287936),
)
#: published OOM (no runtime; nvidia-smi at the card's 80 GB): every baseline row of the three configurations without
#: a runtime, checked against the model's device total (statements, not scored)
_MX, _L70 = "mistralai/Mixtral-8x7B-Instruct-v0.1", "NousResearch/Llama-2-70b-hf"
OOM = tuple((c, m, g, b) for c, models, shapes in (
    ("none-full", (_MX, _L70), ((1, 4), (2, 2), (1, 8), (2, 4))),
    ("none-lora", (_MX,), ((1, 4), (1, 8))),
    ("none-lora", (_L70,), ((1, 4), (2, 2), (1, 8), (2, 4))),
    ("baseline-peft-bnb", (_L70,), ((1, 4), (1, 8), (2, 4)))) for m in models for g, b in shapes)
BEFORE = ROOT / "bench" / "data" / "ftoos16_before.json"
#: the adapters' dtype as entered (see ``training``); ``--pure16`` prints the first entry (master_weights false)
MASTER = "--pure16" not in sys.argv
GIB = 2.0**30
CARD_GIB = 79.15  # what an A100-SXM4-80GB gives a process (PyTorch's total capacity, 81,050 MiB)


def training(config: str, b: int, gpus: int) -> dict:
    method = CONFIG_METHOD[config]
    t = {"framework": "trl", "method": method, "seq_len": SEQ, "micro_batch_size": b, "global_batch_size": b * gpus,
         "recompute": "full", "flash_attention": True, "packing": True, "precision": "bf16",
         "master_weights": False, "optimizer": "adamw",
         # as memoos16 enters the same runs (bench/validate_mem_oos16.py): transformers 4.48's "adamw_torch" is
         # torch.optim.AdamW with torch's own foreach default; the Trainer's checkpointing is reentrant
         "optimizer_implementation": "foreach", "checkpoint_reentrant": True}
    if method != "full":
        # PEFT 0.13 get_peft_model(autocast_adapter_dtype=True), called by TRL 0.13's SFTTrainer: the adapters are
        # fp32 over the bf16 (or 4-bit) base, with fp32 AdamW states: the tool's master_weights for LoRA
        t.update(lora_rank=16, lora_targets="attention", lora_dropout=0.1, master_weights=MASTER)
    if gpus > 1:
        t["fsdp_version"] = 1
    if method == "lora" and "--no-mp-off" not in sys.argv:
        # issue 35 round 17 (ftoos17): "standard-peft" sets no bf16 (training.mixed_precision_off): no autocast, so
        # PEFT's fp32 adapters run entirely in fp32; on 2 GPUs Accelerate's mixed_precision also stays 'no'
        # (accelerate.yaml; transformers writes ACCELERATE_MIXED_PRECISION only for bf16/fp16) and FSDP1 gets no
        # MixedPrecision policy. baseline-peft-bnb sets bf16: True (autocast; FSDP1 gathers in bf16): unchanged
        t["mixed_precision_off"] = True
    return t


def vrow(config: str, model: str, gpus: int, b: int, kind: str, measured: float) -> vft.Row:
    return vft.Row(row_id(config, model, gpus, b), "fms-acceleration", kind, measured, {"preset": PRESETS[model][0]},
                   training(config, b, gpus), gpu="a100-sxm-80gb", num_gpus=gpus,
                   parallel={"zero": 3} if gpus > 1 else {}, metric="allocated")


def row_id(config: str, model: str, gpus: int, b: int) -> str:
    return f"{PRESETS[model][1]} {CONFIG_METHOD[config]} b{b} × {gpus} GPU"


def results() -> list[tuple[str, float, float, float, float]]:
    """(row id, published s/step, predicted s/step, published peak allocated GiB, predicted GiB)."""
    out = []
    for config, model, gpus, b, runtime, peak in ROWS:
        step = vft.predict(vrow(config, model, gpus, b, "step", runtime / STEPS))
        mem = vft.predict(vrow(config, model, gpus, b, "memory", peak / GIB))
        out.append((row_id(config, model, gpus, b), runtime / STEPS, step, peak / GIB, mem))
    return out


def oom_results() -> list[tuple[str, float]]:
    """(row id, predicted device total GiB) for the published OOM rows (the card gives a process 79.15 GiB)."""
    return [(row_id(c, m, g, b), _device_gib(c, m, g, b)) for c, m, g, b in OOM]


def _device_gib(config: str, model: str, gpus: int, b: int) -> float:
    import dataclasses

    return vft.predict(dataclasses.replace(vrow(config, model, gpus, b, "memory", 0.0), metric="device"))


def _p90(errs: list[float]) -> float:
    e = sorted(abs(x) for x in errs)
    return e[min(len(e) - 1, int(round(0.9 * (len(e) - 1))))]


GROUPS = (("all", lambda r: True), ("full", lambda r: " full " in r), ("LoRA", lambda r: " lora " in r),
          ("QLoRA", lambda r: " qlora " in r), ("one GPU", lambda r: r.endswith("× 1 GPU")),
          ("FSDP, 2 GPUs", lambda r: r.endswith("× 2 GPU")))


def summary(errors: dict[str, float]) -> dict[str, tuple[int, float, float, float]]:
    out = {}
    for name, keep in GROUPS:
        e = [v for k, v in errors.items() if keep(k)]
        if e:
            out[name] = (len(e), statistics.median(abs(x) for x in e), _p90(e), statistics.median(e))
    return out


def errors(res=None) -> dict[str, dict[str, float]]:
    res = res or results()
    return {"time": {rid: pub / pred - 1.0 for rid, pub, pred, _m, _pm in res},
            "memory": {rid: pm / m - 1.0 for rid, _p, _pr, m, pm in res}}


#: the corrected entry (fp32 adapters: ``master_weights`` true for LoRA/QLoRA) scored on main's model (96ef3860)
MAIN_ENTRY = ROOT / "bench" / "data" / "ftoos16_main_entry.json"


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def lines() -> list[str]:
    first, main_e = _load(BEFORE), _load(MAIN_ENTRY)
    res = results()
    out = ["| row | published s/step | predicted | error | main | first entry | published peak alloc GiB | "
           "predicted | error | main | first entry |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]

    def cell(d: dict, kind: str, rid: str) -> str:
        v = d.get(kind, {}).get(rid)
        return "" if v is None else f"{v:+.1%}"

    for rid, pub, pred, mem, pmem in res:
        out.append(f"| {rid} | {pub:.2f} | {pred:.2f} | {pub / pred - 1:+.1%} | {cell(main_e, 'time', rid)} | "
                   f"{cell(first, 'time', rid)} | {mem:.1f} | {pmem:.1f} | {pmem / mem - 1:+.1%} | "
                   f"{cell(main_e, 'memory', rid)} | {cell(first, 'memory', rid)} |")
    out.append("")
    now = errors(res)
    for kind in ("time", "memory"):
        was, ent = summary(first.get(kind, {})), summary(main_e.get(kind, {}))
        for name, (n, med, p90, signed) in summary(now[kind]).items():
            head = "".join(f"{label} {d[name][1]:.1%} / {d[name][2]:.1%}; " for label, d in
                           (("first entry on main", was), ("entry on main", ent)) if name in d)
            out.append(f"- {kind}, {name}: {n} rows; {head}now median |error| {med:.1%}, p90 {p90:.1%}, signed "
                       f"median {signed:+.1%}")
    out += ["", "Published OOM (no runtime in the CSV), the model's device total against the card's 79.15 GiB:", ""]
    out += [f"- {rid}: {gib:.1f} GiB{'' if gib > CARD_GIB else ' (fits: a miss)'}" for rid, gib in oom_results()]
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
        body = ["<!-- issue 35 round 16, ftoos16: bench/validate_ft_oos16.py --fragment -->",
                "#### IBM fms-acceleration A100-80GB benchmark: full / LoRA / QLoRA, 1 GPU and FSDP (ftoos16)", "",
                f"Out of sample. Source: {SRC}. Error = published / predicted − 1 on time (+ = predicted too fast); "
                "memory: (predicted − published) / published, peak allocated. \"main\" and \"first entry\" were "
                "scored before the merge with memoos16, which enters the same runs with transformers' foreach AdamW "
                "and reentrant checkpointing (now this entry too). Round 17 (ftoos17): the LoRA rows state "
                "`training.mixed_precision_off` (no bf16 flag: no autocast; FSDP1 without a MixedPrecision policy).", ""] + body
    print("\n".join(body))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
