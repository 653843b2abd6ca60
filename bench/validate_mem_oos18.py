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

Second source, pre-training (``tt165-`` prefix): pytorch/torchtitan PR #165, "Used per-parameter FSDP" (awgu, merged
2024-03-28 as 83c879f18), "Numeric Parity", 1D FSDP: "1k steps of minipile on 8 H100 GPUs, local batch size 8, sequence
length 2048, AC/SAC, bf16 mixed precision, fp32 reduce-scatter"; FSDP2 (AC) 23.92% peak active / 32.64% peak reserved,
FSDP2 (SAC) 52.13% / 62.51% ("can convert against 95.0396 GiB GPU memory"); compiled, peak reserved only: FSDP2 (AC)
28.90 GiB (buffer reuse enabled; 28.72 disabled, printed), FSDP2 (SAC) 53.83 GiB, SAC at local batch 16 88.23 GiB,
no AC at batch 8 90.28 GiB. Read at 83c879f18:
- ``train_configs/llama_7b.toml``: flavor 7B (``torchtrain/models/llama/__init__.py``: dim 4,096, 32 layers, 32 heads,
  ``multiple_of`` 256 → SwiGLU 11,008; the Llama tokenizer's 32,000: the ``llama-2-7b`` preset), AdamW
  (``torchtrain/metrics.py`` ``build_optimizer``: ``foreach=True``), no compile unless ``training.compile``
  (``train.py``: ``model = torch.compile(model)``, the loss outside it).
- ``parallelize_llama.py``: ``fully_shard`` per block (``reshard_after_forward`` off for the last), then the root
  (embedding, norm and output in the root unit: ``training.fsdp_root_embedding``), ``MixedPrecisionPolicy(bf16,
  fp32 reduce)``; AC "full" wraps every block (non-reentrant); "selective" with option "op" saves the
  ``no_recompute_list`` ops (mm, except every second; SDPA; reduce-scatter): ``op_sac``. ASSUMED: the PR's "SAC" is the
  op policy (the config's default option is "2", every second layer; the op policy's figures match, the layer
  policy's do not: −25% active).
- ``model.py``: ``output = self.output(h).float()`` and ``train.py``: ``pred = model(input_ids)``, ``loss =
  F.cross_entropy(pred.flatten(0, 1), ...)``, ``loss.backward()`` with ``pred`` still referenced: the fp32 logits live
  through the backward, ``training.logits_held`` (torchtitan added ``del pred`` later).
- ``metrics.py``: ``active_bytes.all.peak`` and ``reserved_bytes.all.peak`` (scored as allocated and reserved).
- The card: H100 96 GB (95.04 GiB: Meta's Grand Teton, as in ``bench/validate_time.py`` ``GRAND_TETON_H100``).
- Not scored: the FSDP1 rows (the code before this PR).
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


TT_SRC = "pytorch/torchtitan PR #165 (83c879f18, 2024-03-28): Llama-2-7B geometry, 8 × H100 96GB"
#: bench/validate_time.py's user-entered card for Meta's Grand Teton H100 (96 GB HBM2e)
GRAND_TETON_H100 = {"id": "custom-h100-grand-teton", "name": "H100 96GB HBM2e, 500 W (Grand Teton)",
                    "memory_gib": 96, "bf16_tflops": 989, "fp8_tflops": 1979, "mem_bw_tbs": 2.4, "tdp_w": 500,
                    "intra_node_link": "nvlink", "intra_node_bw_gbs": 900, "gpus_per_node": 8,
                    "architecture": "hopper"}
_CAP = 95.0396  # GiB: the PR's percentages are of this
#: (row id, recompute, compile, local batch, peak active GiB or None, peak reserved GiB)
TT_ROWS = [
    ("tt165-fsdp2-ac-eager", "full", False, 8, 0.2392 * _CAP, 0.3264 * _CAP),
    ("tt165-fsdp2-sac-eager", "op_sac", False, 8, 0.5213 * _CAP, 0.6251 * _CAP),
    ("tt165-fsdp2-ac-compile", "full", True, 8, None, 28.90),
    ("tt165-fsdp2-sac-compile", "op_sac", True, 8, None, 53.83),
    ("tt165-fsdp2-sac-compile-b16", "op_sac", True, 16, None, 88.23),
    ("tt165-fsdp2-noac-compile", "none", True, 8, None, 90.28),
]
#: main cd08457e on the same entries (allocated, reserved): ``training.logits_held`` exists there (round 17)
TT_BEFORE = {"tt165-fsdp2-ac-eager": (22.5863, 26.7065), "tt165-fsdp2-sac-eager": (49.3995, 53.5197),
             "tt165-fsdp2-ac-compile": (22.5863, 26.7065), "tt165-fsdp2-sac-compile": (49.3995, 53.5197),
             "tt165-fsdp2-sac-compile-b16": (88.5345, 93.6192), "tt165-fsdp2-noac-compile": (78.9069, 83.0235)}


def tt_scenario(row, held: bool = True) -> dict:
    _rid, rec, compile_, mbs, _a, _r = row
    t = {"framework": "fsdp", "seq_len": 2048, "micro_batch_size": mbs, "global_batch_size": mbs * 8,
         "recompute": rec, "torch_compile": compile_, "compile_loss": False, "precision": "bf16",
         "fsdp_root_embedding": True, "logits_held": held, "optimizer": "adamw", "optimizer_implementation": "foreach"}
    return {"model": {"preset": "llama-2-7b"}, "training": t, "parallel": {"zero": 3},
            "hardware": {"gpu": GRAND_TETON_H100["id"], "custom_gpus": [GRAND_TETON_H100], "num_gpus": 8}}


def tt_predict(row, held: bool = True) -> tuple[float, float]:
    m = estimate(scenario_from_dict(tt_scenario(row, held))).memory
    return m.metric("allocated"), m.metric("reserved")


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
    for row in TT_ROWS:
        a, r = tt_predict(row)
        ba, br = TT_BEFORE[row[0]]
        if row[4] is not None:
            out.append((row[0], "allocated", row[4], ba, a))
        out.append((row[0], "reserved", row[5], br, r))
    return out


def _p90(errs: list[float]) -> float:
    s = sorted(abs(e) for e in errs)
    return s[min(len(s) - 1, int(round(0.9 * (len(s) - 1))))]


def summary(res) -> dict:
    out = {}
    for group in ("llrec", "tt165", "all"):
        for metric in ("allocated", "reserved", "all"):
            for col, name in ((3, "before"), (4, "now")):
                e = [x[2] / x[col] - 1 for x in res if metric in ("all", x[1])
                     and group in ("all", x[0].split("-")[0])]
                if e:
                    out[(group, metric, name)] = (len(e), statistics.median(abs(x) for x in e), _p90(e))
    return out


def table(res) -> list[str]:
    lines = ["| row | metric | published GiB | before | error | now | error |", "|---|---|---:|---:|---:|---:|---:|"]
    for rid, metric, pub, b, n in res:
        lines.append(f"| {rid} | {metric} | {pub:.2f} | {b:.2f} | {pub / b - 1:+.1%} | {n:.2f} | {pub / n - 1:+.1%} |")
    lines += ["", "| group | metric | rows | median \\|error\\| before → now | p90 before → now |",
              "|---|---|---:|---|---|"]
    s = summary(res)
    for (group, metric, name), (n, med, p90) in s.items():
        if name == "now":
            _n, mb, pb = s[(group, metric, "before")]
            lines.append(f"| {group} | {metric} | {n} | {mb:.1%} → {med:.1%} | {pb:.1%} → {p90:.1%} |")
    lines += ["", "torchtitan rows without `training.logits_held` (the fp32 logits freed before backward): " + ", ".join(
        f"{r[0]} {tt_predict(r, False)[0]:.2f} / {tt_predict(r, False)[1]:.2f} GiB" for r in TT_ROWS[:2])]
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
        print("#### Peak memory out of sample: llama-recipes FSDP LoRA and torchtitan FSDP2 pre-training (memoos18)\n")
        print(f"Sources: {SRC} (torch 2.0.1 FSDP1, pure bf16, packed 2,048-token rows, eager attention; "
              f"`training.use_cache`, `training.logits_held`); {TT_SRC} (`training.logits_held`). Before: main "
              "cd08457e. Error = published / predicted − 1.\n")
    print("\n".join(table(res)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
