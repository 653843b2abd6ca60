"""Issue 35 round 18 (memoos18): llama-recipes' FSDP LoRA run on Llama-2-7B (4 × A100 40GB), peak memory out of sample.

Usage: python bench/validate_mem_oos18.py [--fragment]

Source: meta-llama/llama-recipes (now llama-cookbook) PR #41, "Improve FSDP LoRA Memory Usage" (awgu, merged
2023-07-25 as e5970e2e), description: "For my AWS setup with 4 40 GB A100 GPUs", the PR's test plan ``torchrun
--nnodes 1 --nproc_per_node 4 llama_finetuning.py --enable_fsdp --use_peft --peft_method lora --model_name
llama-2-7b-hf/ --pure_bf16``:
- ``limit_all_gathers=False``: peak active 25.86 GB, peak reserved 32.67 GB (printed only: the tool has no switch for
  FSDP1's rate limiter, which every FSDP1 row of the tool runs with);
- ``limit_all_gathers=True``: 20.20 / 27.36 (the loop still did ``outputs = model(**batch); loss = outputs.loss``);
- ``limit_all_gathers=True`` and ``loss = model(**batch).loss`` (the merged state): 15.22 / 19.36.
No earlier round used this source (grep of bench/, docs/, tests/ and the shared calibration runs for
"llama-recipes", "llama-cookbook", "limit_all_gathers" rows, "llama_finetuning").

The run, read at e5970e2e (the merge) in the llama-recipes mirror:
- ``requirements.txt``: torch 2.0.1+cu118, transformers >= 4.31.0, peft from git (July 2023).
- ``configs/training.py``: ``batch_size_training`` 4 = ``micro_batch_size`` 4 (accumulation 1), ``samsum_dataset``;
  ``configs/fsdp.py``: FULL_SHARD, ``fsdp_activation_checkpointing`` True, ``pure_bf16``; ``configs/peft.py``
  ``lora_config``: r 8, alpha 32, ``q_proj``/``v_proj``, dropout 0.05.
- ``ft_datasets/samsum_dataset.py``: the samples are tokenised and ``Concatenator()`` (``ft_datasets/utils.py``,
  ``chunk_size=2048``) packs them into 2,048-token rows; ``default_data_collator``: 4 × 2,048 tokens a step.
- ``llama_finetuning.py``: ``LlamaForCausalLM.from_pretrained`` without ``use_cache`` (the config's default, True:
  #165, 2023-09-05, added ``use_cache=False`` for FSDP), ``model.to(torch.bfloat16)`` (pure bf16), PEFT LoRA, then
  ``FSDP(model, auto_wrap_policy=fsdp_auto_wrap_policy(...), mixed_precision=None, FULL_SHARD,
  limit_all_gathers=True)`` (``utils/fsdp_utils.py``: each adapter leaf its own unit, each ``LlamaDecoderLayer`` one),
  then ``apply_fsdp_checkpointing`` (``policies/activation_checkpointing_functions.py``: ``checkpoint_wrapper`` with
  ``CheckpointImpl.NO_REENTRANT`` on every decoder layer, outside transformers' ``gradient_checkpointing_enable``, so
  ``use_cache`` stays on), ``optim.AdamW(model.parameters(), lr, weight_decay=0.0)`` (torch 2.0's foreach default).
- No ``use_fast_kernels``: transformers 4.31's eager Llama attention (fp32 softmax); ``LlamaForCausalLM.forward``
  returns ``logits.float()``.

Mapping (ASSUMED where marked): framework ``hf`` with ``fsdp_version`` 1 (HF modelling code under bare torch FSDP1;
``parallel.zero`` 3 = FULL_SHARD), LoRA r 8 on q/v (``qv``), dropout 0.05, pure bf16 (``master_weights`` False:
ASSUMED — PEFT's adapters were created after ``model.to(bf16)``; their dtype is not printed), packed 2,048-token rows,
batch 4, full non-reentrant checkpointing, no flash attention, AdamW foreach, ``training.use_cache`` True (both rows)
and ``training.logits_held`` True (the row whose loop kept ``outputs``). ``GB``: ASSUMED to be GiB (the figures are
two-decimal readings of ``torch.cuda.memory_stats``; the PR's held − freed difference, 4.98 "GB" active, is the
returned key/value cache plus the fp32 logits to the digit in GiB: 32 × 2 × 4 × 2,048 × 4,096 × 2 B = 4.000 GiB and
4 × 2,048 × 32,000 × 4 B = 0.977 GiB). "Peak active" is scored against the model's allocated figure, "peak reserved"
against reserved; error = published / predicted − 1.
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for _p in (ROOT, ROOT / "bench"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

from gpuplanner.core.estimate import estimate  # noqa: E402
from gpuplanner.core.scenario import scenario_from_dict  # noqa: E402

SRC = "meta-llama/llama-recipes PR #41 (e5970e2e, 2023-07-25), awgu's description: 4 × A100 40GB"
#: (row id, peak active GiB, peak reserved GiB, the loop keeps the model's output through backward)
ROWS = [
    ("llrec-lora-l2-7b-4xa100-outputs-held", 20.20, 27.36, True),
    ("llrec-lora-l2-7b-4xa100-loss-only", 15.22, 19.36, False),
]
#: printed, not scored: FSDP1's rate limiter off (no such switch in the tool)
UNSCORED = [("llrec-lora-l2-7b-4xa100-no-rate-limiter", 25.86, 32.67)]
#: the model's figures on main cd08457e, before this round (no ``use_cache`` field there: the same scenario without it)
BEFORE = {"llrec-lora-l2-7b-4xa100-outputs-held": (10.9819, 11.4771),
          "llrec-lora-l2-7b-4xa100-loss-only": (10.9819, 11.4771)}


def scenario(row, use_cache: bool = True) -> dict:
    _rid, _a, _r, held = row
    t = {"framework": "hf", "fsdp_version": 1, "method": "lora", "lora_rank": 8, "lora_targets": "qv",
         "lora_dropout": 0.05, "micro_batch_size": 4, "global_batch_size": 16, "seq_len": 2048, "packing": True,
         "recompute": "full", "checkpoint_reentrant": False, "flash_attention": False, "optimizer": "adamw",
         "optimizer_implementation": "foreach", "precision": "bf16", "master_weights": False,
         "use_cache": use_cache, "logits_held": held}
    return {"model": {"preset": "llama-2-7b"}, "training": t, "parallel": {"zero": 3},
            "data": {"mean_sample_len": 2048}, "hardware": {"gpu": "a100-sxm-40gb", "num_gpus": 4}}


def predict(row) -> tuple[float, float]:
    m = estimate(scenario_from_dict(scenario(row))).memory
    return m.metric("allocated"), m.metric("reserved")


def results() -> list[tuple[str, str, float, float, float]]:
    """(row id, metric, published GiB, before GiB, now GiB), allocated then reserved for each row."""
    out = []
    for row in ROWS:
        a, r = predict(row)
        ba, br = BEFORE[row[0]]
        out += [(row[0], "allocated", row[1], ba, a), (row[0], "reserved", row[2], br, r)]
    return out


def _p90(errs: list[float]) -> float:
    s = sorted(abs(e) for e in errs)
    return s[min(len(s) - 1, int(round(0.9 * (len(s) - 1))))]


def summary(res) -> dict:
    out = {}
    for metric in ("allocated", "reserved", "all"):
        for col, name in ((3, "before"), (4, "now")):
            e = [x[2] / x[col] - 1 for x in res if metric in ("all", x[1])]
            out[(metric, name)] = (len(e), statistics.median(abs(x) for x in e), _p90(e))
    return out


def table(res) -> list[str]:
    lines = ["| row | metric | published GiB | before | error | now | error |", "|---|---|---:|---:|---:|---:|---:|"]
    for rid, metric, pub, b, n in res:
        lines.append(f"| {rid} | {metric} | {pub:.2f} | {b:.2f} | {pub / b - 1:+.1%} | {n:.2f} | {pub / n - 1:+.1%} |")
    lines += ["", "| group | rows | median \\|error\\| before → now | p90 before → now |", "|---|---:|---|---|"]
    s = summary(res)
    for metric in ("allocated", "reserved", "all"):
        (n, mb, pb), (_n, mn, pn) = s[(metric, "before")], s[(metric, "now")]
        lines.append(f"| {metric} | {n} | {mb:.1%} → {mn:.1%} | {pb:.1%} → {pn:.1%} |")
    lines += ["", "Not scored (no rate-limiter switch): " + ", ".join(
        f"{rid} published {a:.2f} active / {r:.2f} reserved" for rid, a, r in UNSCORED)]
    return lines


def main(argv: list[str]) -> int:
    res = results()
    if "--json" in argv:
        print(json.dumps({rid + ":" + metric: round(n, 4) for rid, metric, _p, _b, n in res}, indent=1))
        return 0
    if "--fragment" in argv:
        print("<!-- issue 35 round 18, memoos18: bench/validate_mem_oos18.py --fragment -->")
        print("#### Peak memory out of sample: llama-recipes FSDP LoRA, Llama-2-7B on 4 × A100 40GB (memoos18)\n")
        print(f"Source: {SRC} (torch 2.0.1 FSDP1, pure bf16, packed 2,048-token rows, eager attention; "
              "`training.use_cache`, `training.logits_held`). Before: main cd08457e. Error = published / predicted − 1.\n")
    print("\n".join(table(res)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
