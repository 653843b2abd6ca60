"""Out-of-sample fine-tuning step time and peak memory, round 9: published rows no other bench holds (not fitted).

Usage: python bench/validate_ft_oos9.py [--before FILE] [--write-before FILE]

Three sources, each entered as the scenario a user would type; what the source does not state is ``ASSUMED``.

* ``answerai-4090`` -- AnswerDotAI/fsdp_qlora ``benchmarks_03_2024.md`` @4cd69234 (benchmarks of Feb-Mar 2024),
  "Case Study: A Dual 4090 Budget Workstation": two RTX 4090s (PCIe 4.0 x16 each, no NVLink). The script is
  ``train.py`` of that time (@27ce87d, 2024-03-19): its own loop around PyTorch FSDP1 (``use_orig_params=False``,
  ``limit_all_gathers``), PEFT LoRA (QLoRA: bitsandbytes NF4 with ``quant_storage`` bf16) on k/q/v/gate/up/down
  (``lora_target_modules="all"``: every linear but o_proj), rank 64, dropout 0.1, ``precision="bf16"`` (bf16 weights,
  adapters and AdamW states, no fp32 copy), gradient accumulation 1, the page's template ``--use_gradient_checkpointing
  True --reentrant_checkpointing True``, ``dataset dummy`` (every sample ``context_length`` tokens), 1,024 samples.
  "Time (s)" is the CUDA-event time of the training loop; tokens/s per GPU = 1024 x context / (2 x time) (the page's
  own 2,200 tokens/s for its 483 s Mistral row checks this). "Peak Memory (GiB)" is peak reserved (the page: "the
  reported peak reserved memory"). ``DDP True`` is ``sharding_strategy ddp`` (FSDP NO_SHARD: zero 0); otherwise
  FULL_SHARD (zero 3); ``CPU Offload`` is FSDP ``CPUOffload(offload_params=True)``. ``answerai-3090``: the same
  page's dual-3090 rows that the 4090 tables do not repeat, memory only (the page prints the code's own
  ``max_memory_reserved``/``max_memory_allocated``, train.py @50efa1e, the commit that added
  ``reserved_after_model_wrap``, which the page quotes).
* ``peft-mmqa-mem`` (NOT new rows: ``bench/validate_memory_oos8.py`` holds the same five runs, entered there without
  their sample lengths) -- huggingface/peft ``method_comparison/MetaMathQA/results/*.json`` @5d602fdbff: the same runs
  whose tokens/s ``bench/validate_ft_oos8.py`` holds (one L40S, Llama-3.2-3B bf16, batch 4, no checkpointing, SDPA),
  here their memory: ``accelerator_memory_max`` = ``max_memory_reserved()`` at the end minus at the start
  (``run.py``/``utils.py``), i.e. the run's peak reserved. Samples are cut at 1,300 characters (``data.py``: "a token
  limit of 768"), 209.9 tokens on average; ``BucketIterator`` batches samples of similar length, so the longest batch
  is near 768 tokens (ASSUMED 768); ``run.py`` empties the cache every 10 steps. Entered here with the data's
  mean length (``data.mean_sample_len`` 210), as a user who knows the data would: the check of round 9's
  ``training.empty_cache_steps``.
* ``peft-docs`` -- huggingface/peft ``docs/source/accelerate/fsdp.md`` and ``deepspeed.md`` "Memory usage", the two
  8 x H100 LoRA runs (the QLoRA runs on two GPUs are in ``bench/validate_memory.py``'s public set, the CPU-offload
  one among its skipped rows): GPU memory per GPU of the quoted runs of ``examples/sft/train.py``: Llama-2-70B,
  ``smangrul/ultrachat-10k-chatml``, packing, ``max_seq_len`` 2048, LoRA r 8 all-linear, dropout 0.1, gradient
  checkpointing, flash attention, batch 8 x 4. Read from screenshots of the GPU monitor: compared as device memory.

Error: predicted / published - 1 (+ = predicted too fast / too much memory), as the other ft benches.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "bench"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import validate_ft_oos8 as oos8  # noqa: E402
import validate_ft_tools as vft  # noqa: E402

AAI_SRC = "AnswerDotAI/fsdp_qlora benchmarks_03_2024.md @4cd69234, train.py @27ce87d"
PEFT_MEM_SRC = "huggingface/peft method_comparison/MetaMathQA/results @5d602fdbff, accelerator_memory_max"
PEFT_DOCS_SRC = "huggingface/peft docs/source/accelerate/{fsdp,deepspeed}.md @781cac467, 'Memory usage'"

#: Answer.AI train.py defaults as the page ran them (see the docstring); ``lora_targets`` "qkv_mlp" (round 9, geft9):
#: train.py's ``lora_target_modules="all"`` is k/q/v/gate/up/down, not o_proj (entered as all_linear before)
AAI_TRAIN = {"framework": "hf", "fsdp_version": 1, "lora_rank": 64, "lora_targets": "qkv_mlp", "lora_dropout": 0.1,
             "seq_len": 2048, "recompute": "full", "checkpoint_reentrant": True, "master_weights": False,
             "flash_attention": True, "optimizer": "adamw"}
AAI_ASSUMED = ("train.py's own loop priced as framework hf (PEFT, FSDP1 through torch, no Trainer)",
               "SDPA attention (transformers' default then) entered as flash_attention")
#: (id, model preset, method, zero, offload_params, batch, context, peak reserved GiB, time s)
AAI_ROWS = [
    ("l2-7b-lora-ddp-b4", "llama-2-7b", "lora", 0, False, 4, 2048, 22.04, 437),
    ("l2-7b-lora-fsdp-b6", "llama-2-7b", "lora", 3, False, 6, 2048, 21.35, 481),
    ("l2-7b-lora-fsdp-offload-b10", "llama-2-7b", "lora", 3, True, 10, 2048, 22.69, 482),
    ("l2-7b-qlora-ddp-b8", "llama-2-7b", "qlora", 0, False, 8, 2048, 20.94, 450),
    ("l2-7b-qlora-fsdp-b10", "llama-2-7b", "qlora", 3, False, 10, 2048, 20.97, 466),
    ("l2-7b-qlora-fsdp-offload-b12", "llama-2-7b", "qlora", 3, True, 12, 2048, 22.38, 464),
    ("yi-34b-qlora-fsdp-b2", "yi-34b", "qlora", 3, False, 2, 2048, 23.05, 2072),
    ("yi-34b-qlora-fsdp-offload-b4", "yi-34b", "qlora", 3, True, 4, 2048, 22.98, 2061),
    ("l2-70b-qlora-fsdp-offload-b2", "llama-2-70b", "qlora", 3, True, 2, 2048, 14.92, 4399),
    ("mistral-7b-qlora-fsdp-offload-b12", "mistral-7b-v0.1", "qlora", 3, True, 12, 2048, 22.54, 483),
    ("mistral-7b-qlora-fsdp-offload-24k", "mistral-7b-v0.1", "qlora", 3, True, 1, 24576, 22.54, 7809),
]
AAI_SAMPLES = 1024
AAI_GPUS = 2
#: the same page's "Case Study: A Dual 3090 Basement Rig" (two RTX 3090s, no NVLink, 280 W), memory only: the rows
#: the 4090 tables do not repeat (Llama-2 7B, FULL_SHARD). The RTX 3090 is not in the catalogue; memory does not depend
#: on the card beyond its 24 GB, so the RTX 4090 stands in (its time is not compared). (id, method, batch, context,
#: GiB, metric): peak reserved, and the two peak allocated figures the page gives ("8.28 GiB vs 9.16 GiB")
AAI_3090_MEM = [
    ("qlora-b1-512", "qlora", 1, 512, 4.98, "reserved"), ("qlora-b1-2048", "qlora", 1, 2048, 5.21, "reserved"),
    ("lora-b1-512", "lora", 1, 512, 10.24, "reserved"), ("lora-b1-2048", "lora", 1, 2048, 10.22, "reserved"),
    ("lora-b1-512-alloc", "lora", 1, 512, 8.28, "allocated"),
    ("lora-b1-2048-alloc", "lora", 1, 2048, 9.16, "allocated"),
    ("qlora-b4-2048", "qlora", 4, 2048, 11.22, "reserved"), ("lora-b4-2048", "lora", 4, 2048, 16.14, "reserved"),
]


def _aai_rows() -> list[vft.Row]:
    out = []
    for rid, preset, method, zero, offload, b, ctx, gib, secs in AAI_ROWS:
        t = dict(AAI_TRAIN, method=method, micro_batch_size=b, global_batch_size=b * AAI_GPUS, seq_len=ctx)
        par = {"zero": zero, "offload_params": offload}
        assumed = AAI_ASSUMED + (("Mistral 7B v0.2 (32k positions, no sliding window) entered as the v0.1 preset",)
                                 if preset.startswith("mistral") else ())
        tps = AAI_SAMPLES * ctx / (AAI_GPUS * secs)
        for kind, val, metric in (("memory", gib, "reserved"), ("tps", tps, "device")):
            out.append(vft.Row(f"aai-{rid}-{'mem' if kind == 'memory' else 'tps'}", "answerai-4090", kind, val,
                               {"preset": preset}, t, gpu="rtx-4090-24gb", num_gpus=AAI_GPUS, parallel=par,
                               metric=metric, assumed=assumed))
    for rid, method, b, ctx, gib, metric in AAI_3090_MEM:
        t = dict(AAI_TRAIN, method=method, micro_batch_size=b, global_batch_size=b * AAI_GPUS, seq_len=ctx)
        out.append(vft.Row(f"aai3090-l2-7b-{rid}-mem", "answerai-3090", "memory", gib, {"preset": "llama-2-7b"}, t,
                           gpu="rtx-4090-24gb", num_gpus=AAI_GPUS, parallel={"zero": 3}, metric=metric,
                           assumed=AAI_ASSUMED + ("RTX 3090 24GB (not in the catalogue) entered as the RTX 4090: "
                                                  "memory only",)))
    return out


#: peak reserved GiB (accelerator_memory_max / 2**30) of the @5d602fdbff files; the earlier software's files
#: (a99942694, f650b08ab) agree within 1.5% (full FT 35.9 / 34.7) and are not entered twice
PEFT_MEM = {"lora-r32-qv": 20.762, "lora-r64-qv": 21.004, "lora-r64-qv-rslora": 21.012, "lora-r10-mlp": 23.002,
            "full-ft": 36.199}
#: run.py ``ACCELERATOR_EMPTY_CACHE_SCHEDULE = 10``: ``empty_cache()`` every 10 steps (training.empty_cache_steps)
PEFT_EMPTY_CACHE_STEPS = 10
PEFT_MEM_ASSUMED = ("the run's peak batch is 4 samples near the 768-token cut (BucketIterator sorts by length)",
                    "samples vary in length (209.9 tokens mean): data.mean_sample_len 210",
                    "plain PyTorch loop priced as framework hf")


def _peft_mem_rows() -> list[vft.Row]:
    out = []
    for r in oos8.PEFT_ROWS:
        if r.commit != "5d602fdbff" or r.id not in PEFT_MEM:
            continue
        t = {"framework": "hf", "seq_len": 768, "micro_batch_size": 4, "global_batch_size": 4, "recompute": "none",
             "flash_attention": True, "optimizer": "adamw", "lora_dropout": 0.0, **r.training,
             "empty_cache_steps": PEFT_EMPTY_CACHE_STEPS}
        out.append(vft.Row(f"peft-mmqa-{r.id}-mem", "peft-mmqa-mem", "memory", PEFT_MEM[r.id], oos8.LLAMA32_3B, t,
                           gpu="l40s-48gb", metric="reserved", assumed=PEFT_MEM_ASSUMED,
                           data={"mean_sample_len": 210}))
    return out


#: the docs print decimal GB, read as GiB x 1e9 / 2**30 (as bench/validate_memory.py does for the same pages)
GB = 1e9 / 2 ** 30
PEFT_DOCS_TRAIN = {"framework": "hf", "lora_rank": 8, "lora_targets": "all_linear", "lora_dropout": 0.1,
                   "seq_len": 2048, "recompute": "full", "flash_attention": True, "optimizer": "adamw",
                   "packing": True}


def _peft_docs_rows() -> list[vft.Row]:
    """(id, GiB, training overrides, parallel, gpu, GPUs, framework, note)."""
    l70 = {"preset": "llama-2-70b"}
    specs = [
        ("ds-z3-lora-8gpu", 64.0 * GB, dict(method="lora", micro_batch_size=8, global_batch_size=256,
                                        checkpoint_reentrant=False),
         {"zero": 3}, "h100-sxm-80gb", 8, "deepspeed", "8xH100 80GB, ZeRO-3, batch 8 x 4"),
        ("fsdp-lora-8gpu", 76.0 * GB, dict(method="lora", micro_batch_size=8, global_batch_size=256,
                                       checkpoint_reentrant=False, fsdp_version=1),
         {"zero": 3}, "h100-sxm-80gb", 8, "hf", "8xH100 80GB, FSDP1 FULL_SHARD; '72-80 GB': the middle, 76"),
    ]
    out = []
    for rid, gib, kw, par, gpu, n, fw, note in specs:
        t = dict(PEFT_DOCS_TRAIN, framework=fw, **kw)
        out.append(vft.Row(f"peft-docs-{rid}-mem", "peft-docs", "memory", gib, l70, t, gpu=gpu, num_gpus=n,
                           parallel=par, metric="device",
                           assumed=(note, "the monitor's GB read as decimal GB, device memory")))
    return out


#: tables whose runs another bench already holds (entered here to check a mechanism, not counted as new)
NOT_NEW = ("peft-mmqa-mem",)


def all_rows() -> list[vft.Row]:
    return _aai_rows() + _peft_mem_rows() + _peft_docs_rows()


def _tool_of(row: vft.Row) -> str:
    fw = row.training.get("framework", "hf")
    if row.table.startswith("answerai"):
        return "Answer.AI FSDP loop (hf)"
    return "DeepSpeed" if fw == "deepspeed" else "HF/PEFT"


def by_tool(res) -> list[str]:
    groups: dict = {}
    for row, _, e in res:
        kind = "memory" if row.kind == "memory" else "time"
        groups.setdefault((_tool_of(row), row.training.get("method", "full"), kind), []).append(e)
        groups.setdefault((_tool_of(row), "all", kind), []).append(e)
    lines = ["| tool | method | kind | rows | median |error| | p90 |error| | signed median |",
             "|---|---|---|---:|---:|---:|---:|"]
    for (tool, method, kind), errs in sorted(groups.items()):
        a = [abs(e) for e in errs]
        lines.append(f"| {tool} | {method} | {kind} | {len(a)} | {statistics.median(a):.1%} | "
                     f"{vft._pct(a, 0.9):.1%} | {statistics.median(errs):+.1%} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", type=Path, help="a JSON file written by --write-before (prints before -> now)")
    ap.add_argument("--write-before", type=Path, help="write this run's predictions as JSON")
    args = ap.parse_args(argv)
    before = json.loads(args.before.read_text()) if args.before else {}
    res = [(r, p, vft.error(r, p)) for r in all_rows() for p in (vft.predict(r),)]
    print("| row | kind | published | before | now | error before | error now |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for r, p, e in res:
        b = before.get(r.id)
        bs, be = ("—", "—") if b is None else (f"{b:.2f}", f"{vft.error(r, b):+.1%}")
        unit = r.metric if r.kind == "memory" else "tokens/s/GPU"
        print(f"| {r.id} | {r.kind} ({unit}) | {r.measured:.2f} | {bs} | {p:.2f} | {be} | {e:+.1%} |")
    print("\nNow, per tool:\n")
    print("\n".join(by_tool(res)))
    if before:
        print("\nBefore, per tool:\n")
        print("\n".join(by_tool([(r, before[r.id], vft.error(r, before[r.id])) for r, _, _ in res if r.id in before])))
    new = [x for x in res if x[0].table not in NOT_NEW]
    print(f"\nNew rows (not {', '.join(NOT_NEW)}): {len(new)}")
    print("\n| table | rows | median | p90 |\n|---|---:|---:|---:|")
    for k, (n, med, p90) in sorted(vft.summary(new).items()):
        print(f"| new {k} | {n} | {med:.1%} | {p90:.1%} |")
    for k, (n, med, p90) in sorted(vft.summary(res).items()):
        print(f"| {k} | {n} | {med:.1%} | {p90:.1%} |")
    seen = set()
    for r, _, _ in res:
        for a in r.assumed:
            if (r.table, a) not in seen:
                seen.add((r.table, a))
                print(f"ASSUMED {r.table}: {a}")
    if args.write_before:
        args.write_before.write_text(json.dumps({r.id: p for r, p, _ in res}, indent=0))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
