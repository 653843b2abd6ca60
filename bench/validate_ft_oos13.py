"""Out-of-sample fine-tuning step time, round 13: NeMo AutoModel's published LoRA rows (not fitted).

Usage: python bench/validate_ft_oos13.py [--before FILE] [--write-before FILE]

Before entering the source I grepped ``bench/``, ``tests/``, ``docs/`` and ``shared/reference`` for its figures
(10.51, 9.29, 15.00, 7.28, 8.32, 3.95, 12472.87, 14110.05, 1091.85, 2250.31) and for "Automodel": none was held
(round 7 read the same page for its MoE pre-training rows and did not enter them).

Source: NVIDIA-NeMo/Automodel ``docs/performance-summary.md``, "Fine-Tuning (LoRA) Performance", "System: DGX-H100,
Precision: BF16", "Time per Global Step (s)" ("forward and backward passes and optimizer step for the global
batch"; "mock data", "full sequences with no padding", "No gradient clipping"). Tokens/s/GPU as published =
GBS x 4,096 / step time / GPUs. Two versions of the table, each with the recipes of its own commit:

* ``am-2512`` -- commit 507bfb751 (2025-12-16, "add more PEFT lora recipes"; the two single-GPU rows are unchanged
  through 2013a4dd6 and HEAD 36044ad3d). ``examples/llm_finetune/llama3_1/llama3_1_8b_peft_benchmark.yaml`` and
  ``qwen/qwen2_5_7b_peft_benchmark.yaml``: ``MockIterableDataset`` (seq_len 4096, batch 2), GBS 32, local batch 2 (16
  micro-batches on one GPU), ``PeftConfig(match_all_linear=True, dim=16, alpha=32, use_triton=True)`` with dropout
  0.1 (Llama; ``dropout_position`` default "post") and 0.0 (Qwen), ``FSDP2Manager`` defaults (no activation
  checkpointing), ``torch.optim.AdamW``. The model: ``NeMoAutoModelForCausalLM.from_pretrained`` at 507bfb751
  (``_transformers/auto_model.py``) takes its custom implementation only for architectures in ``ModelRegistry``,
  which registers modules that define ``ModelClass`` (``_transformers/registry.py``); ``models/llama/model.py`` and
  ``models/qwen2/model.py`` define none at that commit, so both load through Transformers with
  ``attn_implementation="flash_attention_2"`` (the method's default) in the checkpoint's bf16 (``torch_dtype``
  "auto"; Qwen's yaml says bf16), and are then patched with Liger Kernel (``use_liger_kernel: bool = True``, not
  turned off at TP 1 and CP 1; ``liger-kernel`` is a dependency in ``pyproject.toml`` on x86): entered as
  ``training.liger_kernel: true``. The LoRA linears patch Transformers' separate q/k/v and gate/up projections
  (``lora_targets: all_linear``; ``module_matcher.py`` skips ``lm_head``). On one GPU ``FSDP2Manager.parallelize``
  returns the model unwrapped ("World size is 1, skipping parallelization", ``distributed/fsdp2.py``): a plain
  module, which the model prices the same under ``framework: fsdp`` or ``hf`` (checked: identical figures).
* ``am-2604`` -- commit 2013a4dd6 (2026-04-10, "FSDP2 w weight prefetching and async TP optimization"): the four
  multi-GPU rows ("TE + triton + fsdp2_prefetch"), ``examples/llm_finetune/llama3_3/
  custom_llama3_3_70b_instruct_peft_benchmark{,_2nodes}.yaml`` and ``qwen/custom_qwen2_5_32b_peft_benchmark
  {,_2nodes}.yaml``: bf16, LoRA rank 16 on all linears (dropout 0), local batch 2, GBS 32, TP 2 (FSDP2 over the
  rest: 4 or 8), ``activation_checkpointing: true``, ``enable_compile: true``, ``enable_fsdp2_prefetch: true``;
  Llama: ``sequence_parallel: true``, ``enable_async_tensor_parallel: true``; Qwen: neither.
  ``torch.optim.Adam``. The custom Llama and Qwen2 models of that commit use separate q/k/v and gate/up projections
  ("HF-style", the modules' docstrings) and are registered (``ModelClass``). Two-node rows: DGX-H100 nodes,
  ENTERED with 400 Gb/s NDR InfiniBand (DGX H100's compute fabric; not stated on the page).

Not entered: the same table's pipeline-parallel rows of 507bfb751 / 822effa16 (70B TP 2 PP 4 VP 10, 32B PP 4 VP 8,
``AutoPipeline`` interleaved 1F1B, ``layers_per_stage: 2``): the printed GA (4 for 70B on 8 GPUs) disagrees with
GBS 32 / (local batch 4 x DP 1) = 8 of the recipe, and the columns of the 32B rows are shifted (a "Kernel
Optimizations" cell holds a number), so the run's layout cannot be read with confidence. The pre-training rows (MoE,
and Llama3 70B FSDP2 + CP 2 with TE) are not fine-tuning.

Error = predicted tokens/s / published - 1 (+ = predicted too fast), i.e. published step / predicted step - 1.
"""

from __future__ import annotations

import statistics
import sys
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "bench"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import validate_ft_tools as vft  # noqa: E402

SRC = "NVIDIA-NeMo/Automodel docs/performance-summary.md (507bfb751; 2013a4dd6), DGX-H100 BF16 LoRA"
SEQ = 4096
GBS = 32
#: what every row shares (module docstring): FSDP2, pure bf16 (no fp32 master copy), LoRA rank 16 on every linear
#: (round 14, nemoauto14: ``lora_layer`` "automodel", AutoModel's ``LinearLoRA``: ``patch_linear_module`` turns the
#: recipes' ``use_triton: true`` off whenever Transformer Engine imports, as in AutoModel's NGC-based container and
#: the "TE" runs of 2013a4dd6; the Triton path is a what-if below. Before: PEFT's layer, bench/data/ftoos13_before.json)
BASE = {"framework": "fsdp", "fsdp_version": 2, "precision": "bf16", "master_weights": False, "method": "lora",
        "lora_rank": 16, "lora_targets": "all_linear", "seq_len": SEQ, "micro_batch_size": 2,
        "global_batch_size": GBS, "flash_attention": True, "optimizer": "adamw", "lora_layer": "automodel"}
#: 507bfb751: Transformers model + Liger Kernel, no checkpointing, no compile
SINGLE = {**BASE, "recompute": "none", "liger_kernel": True}
#: 2013a4dd6: compiled, per-layer activation checkpointing, no dropout
MULTI = {**BASE, "recompute": "full", "torch_compile": True, "lora_dropout": 0.0, "overlap_param_gather": True}
#: the Llama recipes' async TP (``enable_async_tensor_parallel`` with sequence parallelism); Qwen's run neither
ASYNC_TP = {**MULTI, "tp_comm_overlap": True}
NO_ASYNC_TP = {**MULTI, "tp_comm_overlap": False}
NDR = {"inter_node": "ib-ndr-400"}

#: (id, table, published s per global step, preset, GPUs, training overrides, parallel, hardware extra, assumed)
#: the single-GPU rows' loss: ``train_ft.py`` (507bfb751) pops the labels and calls ``model(**batch)``, then
#: ``MaskedCrossEntropy`` on the full logits, so Liger's fused linear cross-entropy never runs; ``liger_kernel``
#: prices the loss fused (about 8 bytes x vocabulary per token: ~0.05 s of a 10 s step)
LIGER_LOSS = ("Liger entered as training.liger_kernel; its fused loss is not used by Automodel's loop (labels "
              "popped, MaskedCrossEntropy on full logits in fp32): priced at 8 bytes per logit, the eager loss moves "
              "~36 (timing.HF_EAGER_CE_BYTES): ~0.18 s (Llama) / ~0.21 s (Qwen) a step more, left as is (no "
              "scenario holds Liger's layers with an eager loss)",)
RUNS = (
    ("am-l31-8b-lora-1xh100", "am-2512", 10.51, "llama-3.1-8b", 1, {**SINGLE, "lora_dropout": 0.1}, {}, {},
     LIGER_LOSS),
    ("am-q25-7b-lora-1xh100", "am-2512", 9.29, "qwen2.5-7b", 1, {**SINGLE, "lora_dropout": 0.0}, {}, {},
     LIGER_LOSS),
    ("am-l33-70b-lora-8xh100-tp2", "am-2604", 15.00, "llama-3.1-70b", 8, ASYNC_TP,
     {"tp": 2, "sequence_parallel": True, "zero": 3}, {},
     ("Llama-3.3-70B entered as the llama-3.1-70b preset (the same architecture)",)),
    ("am-q25-32b-lora-8xh100-tp2", "am-2604", 7.28, "qwen2.5-32b", 8, NO_ASYNC_TP,
     {"tp": 2, "sequence_parallel": False, "zero": 3}, {},
     ()),
    ("am-l33-70b-lora-16xh100-tp2", "am-2604", 8.32, "llama-3.1-70b", 16, ASYNC_TP,
     {"tp": 2, "sequence_parallel": True, "zero": 3}, NDR,
     ("Llama-3.3-70B entered as the llama-3.1-70b preset", "two DGX-H100 nodes on 400 Gb/s NDR (not stated)")),
    ("am-q25-32b-lora-16xh100-tp2", "am-2604", 3.95, "qwen2.5-32b", 16, NO_ASYNC_TP,
     {"tp": 2, "sequence_parallel": False, "zero": 3}, NDR,
     ("two DGX-H100 nodes on 400 Gb/s NDR (not stated)",)),
)
#: printed, not scored (docstring): (id, published s per step)
SHOWN = (("am-l33-70b-lora-8xh100-tp2-pp4-vp10 (822effa16, skipped)", 24.87),
         ("am-q25-32b-lora-8xh100-pp4-vp8 (507bfb751, skipped)", 8.40))


def all_rows() -> list[vft.Row]:
    return [vft.Row(rid, table, "step", s, {"preset": preset}, dict(tr), gpu="h100-sxm-80gb", num_gpus=n,
                    parallel=dict(par), data={}, assumed=assumed)
            for rid, table, s, preset, n, tr, par, _hw, assumed in RUNS]


def _hardware(row: vft.Row) -> dict:
    extra = next(hw for rid, *_rest, hw, _a in RUNS if rid == row.id)
    return {"gpu": row.gpu, "num_gpus": row.num_gpus, **extra}


def predict(row: vft.Row) -> float:
    """Predicted seconds per global step (the row's scenario, with its hardware extras)."""
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import scenario_from_dict
    from gpuplanner.core.timing import time_estimate

    d = {"model": row.model, "training": row.training, "parallel": row.parallel, "hardware": _hardware(row)}
    return time_estimate(resolve(scenario_from_dict(d))).step_time_s


def results() -> list[tuple[vft.Row, float, float]]:
    return [(r, p, vft.error(r, p)) for r in all_rows() for p in (predict(r),)]


@contextmanager
def _patched(module, **values):
    """Set module constants for a what-if and restore them (never used by the scored predictions)."""
    old = {k: getattr(module, k) for k in values}
    try:
        for k, v in values.items():
            setattr(module, k, v)
        yield
    finally:
        for k, v in old.items():
            setattr(module, k, v)


def with_layer(row: vft.Row, layer: str) -> vft.Row:
    """The row with another ``training.lora_layer`` (round 14: ``peft`` is round 13's entry, ``automodel_triton``
    AutoModel's ``TritonLinearLoRA``, flops.AUTOMODEL_LORA_BWD_IN)."""
    import dataclasses

    return dataclasses.replace(row, training={**row.training, "lora_layer": layer})


def what_ifs() -> dict[str, dict[str, float]]:
    """Per row, predicted s/step under two what-ifs (printed, not scored; nothing in gpuplanner changes):
    ``triton``: AutoModel's ``TritonLinearLoRA`` (``lora_layer`` automodel_triton: the recipes' ``use_triton: true``
    where Transformer Engine is not installed) instead of its ``LinearLoRA``;
    ``flop_floor``: the model with its memory-bound work removed (``timing.MEM_BW_EFFICIENCY`` huge), i.e. its
    GEMM, attention and exposed-communication time alone, at Hopper's ``GEN_EFFICIENCY``."""
    from gpuplanner.core import timing as T

    out: dict[str, dict[str, float]] = {r.id: {} for r in all_rows()}
    for r in all_rows():
        out[r.id]["triton"] = predict(with_layer(r, "automodel_triton"))
    with _patched(T, MEM_BW_EFFICIENCY=1e9):
        for r in all_rows():
            out[r.id]["flop_floor"] = predict(r)
    for r in all_rows():
        out[r.id]["implied_hopper"] = implied_hopper_efficiency(r)
    return out


def implied_hopper_efficiency(row: vft.Row, lo: float = 0.40, hi: float = 0.95, steps: int = 20) -> float:
    """The ``timing.GEN_EFFICIENCY["hopper"]`` at which the model would predict the published step (bisection; a
    what-if, the constant and ``gpu_time_facts``' cache are restored)."""
    from gpuplanner.core import timing as T

    orig = T.GEN_EFFICIENCY["hopper"]
    try:
        for _ in range(steps):
            mid = (lo + hi) / 2.0
            T.GEN_EFFICIENCY["hopper"] = mid
            T.gpu_time_facts.cache_clear()
            lo, hi = (mid, hi) if predict(row) > row.measured else (lo, mid)
    finally:
        T.GEN_EFFICIENCY["hopper"] = orig
        T.gpu_time_facts.cache_clear()
    return (lo + hi) / 2.0


def _stats(errs: list[float]) -> str:
    a = sorted(abs(e) for e in errs)
    return (f"{len(a)} rows, median {statistics.median(a):.1%}, p90 {vft._pct(a, 0.9):.1%}, "
            f"signed median {statistics.median(errs):+.1%}")


def table(before: dict | None = None) -> list[str]:
    lines = [f"Source: {SRC}", "", "| run | published s/step | tokens/s/GPU | predicted s/step | error | before |",
             "|---|---:|---:|---:|---:|---:|"]
    by: dict[str, list[float]] = {}
    for r, p, e in results():
        b = "" if not before or r.id not in before else f"{before[r.id]:+.1%}"
        tps = GBS * SEQ / r.measured / r.num_gpus
        lines.append(f"| {r.id} | {r.measured:.2f} | {tps:,.0f} | {p:.2f} | {e:+.1%} | {b} |")
        by.setdefault(r.table, []).append(e)
    for rid, s in SHOWN:
        lines.append(f"| {rid} | {s:.2f} | | not scored | | |")
    lines.append("")
    for t, errs in by.items():
        lines.append(f"{t}: {_stats(errs)}")
    lines.append(f"all: {_stats([e for v in by.values() for e in v])}")
    lines += ["", "What-ifs (printed, not scored): Automodel's Triton LoRA layer, and the model's FLOP-bound floor "
              "(memory-bound work removed), and the Hopper GEMM efficiency (GEN_EFFICIENCY, 0.55) that would give the "
              "published step", "",
              "| run | published | predicted | Triton LoRA layer | error | FLOP-bound floor | published / floor "
              "| implied Hopper efficiency |",
              "|---|---:|---:|---:|---:|---:|---:|---:|"]
    wi = what_ifs()
    for r, p, _e in results():
        w = wi[r.id]
        lines.append(f"| {r.id} | {r.measured:.2f} | {p:.2f} | {w['triton']:.2f} | {r.measured / w['triton'] - 1:+.1%} "
                     f"| {w['flop_floor']:.2f} | {r.measured / w['flop_floor']:.2f} | {w['implied_hopper']:.3f} |")
    for r in all_rows():
        if r.assumed:
            lines.append(f"ASSUMED {r.id}: " + "; ".join(r.assumed))
    return lines


def main(argv: list[str] | None = None) -> int:
    return vft.before_main(__doc__.splitlines()[0], table, results, argv)


if __name__ == "__main__":
    raise SystemExit(main())
