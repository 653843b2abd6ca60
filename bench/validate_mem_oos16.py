"""Issue 35 round 16 (memoos16): fms-acceleration's A100 benchmark table, peak allocated memory out of sample.

Usage: python bench/validate_mem_oos16.py [--fragment] [--write-before FILE] [--notes]

Source: foundation-model-stack/fms-acceleration ``scripts/benchmarks/refs/a100_80gb.csv`` at 24bdadb (2025-02-07,
"fix: cross entropy for transformers>4.45", #123), the table its ``scripts/run_benchmarks.sh`` writes, with the
frozen environment beside it (``refs/requirements.txt``: torch 2.4.1, transformers 4.48.1, accelerate 1.0.1, peft
0.13.2, trl 0.13.0, bitsandbytes 0.43.3, flash-attn 2.7.3). No earlier round used fms-acceleration (grep of bench/,
docs/, tests/ and the shared calibration runs). The card is the file's: A100-SXM4-80GB.

What each run is (``scripts/benchmarks`` at 24bdadb):
- ``benchmark.py``: every run is ``accelerate launch --config_file accelerate.yaml --num_processes={num_gpus} -m
  tuning.sft_trainer`` (fms-hf-tuning 2.5.0: TRL's SFTTrainer on the HF Trainer); ``--packing_matrix`` default True
  and ``--max_seq_len_matrix`` default 4096: packed rows of 4,096 tokens; ``--effective_batch_size_matrix`` 4 8 and
  ``--num_gpus_matrix`` 1 2 (``run_benchmarks.sh``), per-device batch = effective / GPUs, accumulation 1
  (``defaults.yaml``).
- ``defaults.yaml``: ``use_flash_attn: True``, ``gradient_checkpointing: True`` (transformers 4.48 sets
  ``use_reentrant`` True when no kwargs are given), ``gradient_accumulation_steps: 1``, ``max_steps: 100``, no
  evaluation, no saving; the optimizer is the HF default ``adamw_torch`` (``default_optim`` becomes
  ``adamw_torch_fused`` only for torch >= 2.8): ``torch.optim.AdamW`` on CUDA tensors, foreach.
- ``accelerate.yaml``: ``distributed_type: FSDP`` (FSDP1), ``fsdp_sharding_strategy: 1`` (FULL_SHARD),
  ``TRANSFORMER_BASED_WRAP``, ``BACKWARD_PRE``, ``mixed_precision: 'no'`` (the bf16 checkpoint trains in bf16: pure
  bf16 weights, gradients and AdamW states), ``fsdp_cpu_ram_efficient_loading: true``. ``fsdp_use_orig_params`` is
  not set, so Accelerate's launcher default applies (``commands/launch.py`` at v1.0.1: ``--fsdp_use_orig_params``
  default "true", exported as ``FSDP_USE_ORIG_PARAMS`` by ``utils/launch.py`` ``prepare_multi_gpu_env``). One GPU
  runs the same FSDP1 wrapper with one rank.
- ``scenarios.yaml``: full fine-tuning (lr 2e-5); ``standard-peft``: LoRA r 16, alpha 16, dropout 0.1 on q/k/v/o;
  ``baseline-peft-bnb`` (``sample-configurations/baseline-peft-bnb-nf4-sample-configuration.yaml``): the same LoRA
  on a bitsandbytes NF4 model, double quantisation, bf16 compute and, distributed, bf16 quant storage
  (``plugins/accelerated-peft/.../framework_plugin_bnb.py``): transformers' QLoRA path. The ``foak``,
  ``accelerated-peft-*`` and GPTQ rows are the project's own kernels: not scenarios, left out.

What the figure measures: ``mem_peak_torch_mem_alloc_in_bytes`` (``benchmark.py`` ``extract_gpu_memory_metrics``)
sums the HF Trainer's memory metrics (``skip_memory_metrics=False``): the allocated bytes at the end of ``train``
plus ``train_mem_gpu_peaked_delta``, i.e. ``torch.cuda.max_memory_allocated()`` over ``train()`` on rank 0
(README "Calculating Memory from HFTrainer Output Metrics"). PEAK ALLOCATED bytes, converted here to GiB and
compared with the model's ``allocated`` figure. A 0 in that column with ``mem_nvidia_mem_reserved`` near 80 GB is a
run that did not finish (out of memory): those rows are printed as OOM checks, not scored.

Error = published / predicted − 1 (+: the run used more memory than the model says).
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

SRC = "foundation-model-stack/fms-acceleration scripts/benchmarks/refs/a100_80gb.csv @24bdadb"
A100 = "a100-sxm-80gb"
SEQ = 4096
MODELS = {"mistral": {"preset": "mistral-7b-v0.1"}, "mixtral": {"preset": "mixtral-8x7b"},
          "llama70": {"preset": "llama-2-70b"}}
#: torch.optim.AdamW with neither fused nor foreach under transformers 4.48 / torch 2.4.1 (module docstring)
FOREACH = "foreach"


def _t(method: str, mbs: int, gpus: int) -> dict:
    """One benchmark run (module docstring): packed 4,096-token rows, accumulation 1, reentrant checkpointing."""
    t = {"framework": "hf", "method": method, "micro_batch_size": mbs, "global_batch_size": mbs * gpus,
         "seq_len": SEQ, "packing": True, "recompute": "full", "checkpoint_reentrant": True,
         "flash_attention": True, "attn_implementation": "flash_attention_2", "optimizer": "adamw",
         "precision": "bf16", "master_weights": False, "optimizer_implementation": FOREACH, "fsdp_version": 1}
    if method != "full":
        t.update(lora_rank=16, lora_targets="attention", lora_dropout=0.1)
    if method == "qlora":
        # scenarios.yaml's baseline-peft-bnb sets ``bf16: True`` (the HF Trainer's bf16 autocast over the 16-bit
        # weights, fp32 adapters); the full and LoRA scenarios set only ``torch_dtype: bfloat16`` (pure bf16)
        t["master_weights"] = BNB_AMP
    return t


#: Issue 35 round 16: the QLoRA rows as entered after the first scoring (the "before" file holds the first entry:
#: master_weights False everywhere, zero 3 on one GPU). ``baseline-peft-bnb`` runs with ``bf16: True``
#: (scenarios.yaml), and on one GPU TRL prepares the 4-bit model: trl 0.13 ``SFTTrainer`` calls PEFT's
#: ``prepare_model_for_kbit_training`` unless ``is_sharded_qlora`` (the Params4bit data on cpu/meta, FSDP's
#: low-memory load with a float quant storage, which fms-acceleration's plugin sets only when ``world_size > 1``:
#: ``framework_plugin_bnb.py`` at 24bdadb, whose single-device branch warns that "PEFT preparation will be managed by
#: SFTTrainer and will cause a slowdown in training speed due to extraneous dtype casting"). The tool's
#: ``kbit_fp32`` applies without sharding: the one-GPU QLoRA rows are entered at ``parallel.zero`` 0 (one rank, no
#: state to shard; torch's FSDP1 runs NO_SHARD at world size 1).
BNB_AMP = True
BNB_ONE_GPU_ZERO = 0


#: (row id, peak allocated bytes (``mem_peak_torch_mem_alloc_in_bytes``) or None for a run that did not finish, model,
#:  method, GPUs, per-device batch, ``mem_nvidia_mem_reserved`` MiB (nvidia-smi peak less its first reading, mean of
#:  the GPUs: printed only)); framework_config ``none`` for full and LoRA, ``baseline-peft-bnb`` for QLoRA
ROWS = [
    ("full-mistral-1x4", 72434837504, "mistral", "full", 1, 4, 77256),
    ("full-mistral-2x2", 36225939968, "mistral", "full", 2, 2, 44382),
    ("full-mistral-1x8", 72435230720, "mistral", "full", 1, 8, 72988),
    ("full-mistral-2x4", 36226136576, "mistral", "full", 2, 4, 53587),
    ("full-mixtral-1x4", None, "mixtral", "full", 1, 4, 81166),
    ("full-mixtral-2x2", None, "mixtral", "full", 2, 2, 80284),
    ("full-mixtral-1x8", None, "mixtral", "full", 1, 8, 81166),
    ("full-mixtral-2x4", None, "mixtral", "full", 2, 4, 80750),
    ("full-llama70-1x4", None, "llama70", "full", 1, 4, 80882),
    ("full-llama70-2x2", None, "llama70", "full", 2, 2, 80808),
    ("full-llama70-1x8", None, "llama70", "full", 1, 8, 80882),
    ("full-llama70-2x4", None, "llama70", "full", 2, 4, 80603),
    ("lora-mistral-1x4", 26704571904, "mistral", "lora", 1, 4, 29576),
    ("lora-mistral-2x2", 15144870400, "mistral", "lora", 2, 2, 18678),
    ("lora-mistral-1x8", 38742912512, "mistral", "lora", 1, 8, 43232),
    ("lora-mistral-2x4", 21959827968, "mistral", "lora", 2, 4, 26328),
    ("lora-mixtral-1x4", None, "mixtral", "lora", 1, 4, 81214),
    ("lora-mixtral-2x2", 57554708992, "mixtral", "lora", 2, 2, 63398),
    ("lora-mixtral-1x8", None, "mixtral", "lora", 1, 8, 81214),
    ("lora-mixtral-2x4", 64851605504, "mixtral", "lora", 2, 4, 70747),
    ("lora-llama70-1x4", None, "llama70", "lora", 1, 4, 81038),
    ("lora-llama70-2x2", None, "llama70", "lora", 2, 2, 80937),
    ("lora-llama70-1x8", None, "llama70", "lora", 1, 8, 81038),
    ("lora-llama70-2x4", None, "llama70", "lora", 2, 4, 80981),
    ("qlora-mistral-1x4", 20669338112, "mistral", "qlora", 1, 4, 26056),
    ("qlora-mistral-2x2", 9424594432, "mistral", "qlora", 2, 2, 13164),
    ("qlora-mistral-1x8", 37002646016, "mistral", "qlora", 1, 8, 46050),
    ("qlora-mistral-2x4", 15970067968, "mistral", "qlora", 2, 4, 21182),
    ("qlora-mixtral-1x4", 42794268160, "mixtral", "qlora", 1, 4, 44924),
    ("qlora-mixtral-2x2", 21129981952, "mixtral", "qlora", 2, 2, 29958),
    ("qlora-mixtral-1x8", 60545920512, "mixtral", "qlora", 1, 8, 63932),
    ("qlora-mixtral-2x4", 28146350592, "mixtral", "qlora", 2, 4, 35417),
    ("qlora-llama70-1x4", None, "llama70", "qlora", 1, 4, 79762),
    ("qlora-llama70-2x2", 46685287936, "llama70", "qlora", 2, 2, 51988),
    ("qlora-llama70-1x8", None, "llama70", "qlora", 1, 8, 80220),
    ("qlora-llama70-2x4", None, "llama70", "qlora", 2, 4, 79517),
]


def scenario(row) -> dict:
    _rid, _b, model, method, gpus, mbs, _nv = row
    zero = BNB_ONE_GPU_ZERO if (method == "qlora" and gpus == 1) else 3
    return {"model": dict(MODELS[model]), "training": _t(method, mbs, gpus), "parallel": {"zero": zero},
            "data": {"mean_sample_len": SEQ}, "hardware": {"gpu": A100, "num_gpus": gpus},
            "assumptions": {"memory_metric": "allocated"}}


def predict(row) -> float:
    return estimate(scenario_from_dict(scenario(row))).memory.metric("allocated")


def published(row) -> float | None:
    return None if row[1] is None else row[1] / 2**30


def group(rid: str) -> str:
    return rid.split("-")[0]


BEFORE = ROOT / "bench" / "data" / "memoos16_before.json"


def before() -> dict:
    if not BEFORE.exists():
        return {}
    return json.loads(BEFORE.read_text(encoding="utf-8"))["rows"]


def _p90(errs: list[float]) -> float:
    e = sorted(abs(x) for x in errs)
    return e[min(len(e) - 1, int(round(0.9 * (len(e) - 1))))]


def summary(res: list[tuple[str, float, float]]) -> dict:
    out = {}
    for name in ("full", "lora", "qlora", "all"):
        e = [pub / pred - 1 for rid, pub, pred in res if name in ("all", group(rid))]
        if e:
            out[name] = (len(e), statistics.median(abs(x) for x in e), _p90(e), statistics.median(e))
    return out


def results() -> tuple[list, list]:
    """(scored rows (id, published GiB, predicted GiB), OOM rows (id, predicted GiB))."""
    scored, oom = [], []
    for row in ROWS:
        pub = published(row)
        pred = predict(row)
        if pub is None:
            oom.append((row[0], pred))
        else:
            scored.append((row[0], pub, pred))
    return scored, oom


def table(scored, oom) -> list[str]:
    b = before()
    lines = ["| row | published GiB (peak allocated) | before | error | now | error |", "|---|---:|---:|---:|---:|---:|"]
    for rid, pub, pred in scored:
        pb = b.get(rid)
        eb = f"{pub / pb - 1:+.1%}" if pb else "–"
        lines.append(f"| {rid} | {pub:.2f} | {pb:.2f} | {eb} | {pred:.2f} | {pub / pred - 1:+.1%} |" if pb else
                     f"| {rid} | {pub:.2f} | – | – | {pred:.2f} | {pub / pred - 1:+.1%} |")
    lines += ["", "| group | rows | median \\|error\\| | p90 | signed median |", "|---|---:|---:|---:|---:|"]
    for name, (n, med, p90, sm) in summary(scored).items():
        lines.append(f"| {name} | {n} | {med:.1%} | {p90:.1%} | {sm:+.1%} |")
    if b:
        sb = summary([(rid, pub, b[rid]) for rid, pub, _ in scored if rid in b])
        lines.append("")
        lines.append("Before: " + "; ".join(f"{k} {v[1]:.1%} / {v[2]:.1%}" for k, v in sb.items()))
    lines += ["", "Runs that did not finish (no torch figure; nvidia-smi at the card's limit): predicted allocated GiB "
              "per GPU, an 80 GiB card:", ""]
    lines += [f"- {rid}: {pred:.1f} GiB {'(over 80: agrees)' if pred > 80 else '(fits: disagrees)'}" for rid, pred in oom]
    return lines


def main(argv: list[str]) -> int:
    scored, oom = results()
    if "--write-before" in argv:
        path = Path(argv[argv.index("--write-before") + 1])
        path.write_text(json.dumps({"source": SRC, "rows": {rid: round(pred, 4) for rid, _p, pred in scored}},
                                   indent=1) + "\n", encoding="utf-8")
        return 0
    lines = table(scored, oom)
    if "--fragment" in argv:
        print("<!-- issue 35 round 16, memoos16: bench/validate_mem_oos16.py --fragment -->")
        print("#### fms-acceleration's A100 benchmark table: peak allocated memory (memoos16)\n")
        print(f"Out of sample. Source: {SRC} (Accelerate FSDP1, packed 4,096-token rows, torch 2.4.1). "
              "Error = published / predicted − 1.\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
