"""Pre-training step times the project had not used, round 18: an out-of-sample check (issue 35, ptoos18).

Usage: python bench/validate_pt_oos18.py [--before]

Every row was entered and scored BEFORE any model change (``BEFORE`` holds those predictions, main 6e4c8288). No
constant was chosen from these rows. Error = predicted / published − 1 in tokens/s per GPU = published step /
predicted step − 1 (+ = the model is too fast).

What was already held (grep of bench/, tests/, docs/ and /work/shared/reference/calibration-runs.jsonl for
``bigscience``, ``chronicles``, ``tr11``, ``BLOOM``): one BLOOM row, the final run's logged iteration
(``validate_pretrain_oos9.py``: TP 4, PP 12, DP 8, MBS 2, 112 heads, 104.70 s). Nothing from the layout search.

Source
------
**BigScience BLOOM-176B layout search** (Megatron-DeepSpeed on Jean Zay's A100 80GB partition, 48 nodes × 8 GPUs):
github.com/bigscience-workshop/bigscience ``train/tr11-176B-ml/chronicles-prequel.md`` @9e64edec2ad1fb9263bf39ba616a84ff64b4d947,
section "Rebalancing layers" (all rows dated 02-28, 2022): columns Nodes, Size, DP, TP, PP, MBS, NHEADS, GBS, Mem,
Sec/it, TFLOPs. Published step = Sec/it; tokens/s/GPU = 2048 × 2048 / Sec/it / 384. Only this section is entered:
it is the one measured with the final run's software (the section's own note: "from now on the testing is happening
with BF16 optimizer that was just written to accumulate gradients in fp32 … I implemented and enabled
``--pp-partition-method 'type:transformer|embedding'``"); the earlier sections ran fp16-style accumulation, an
unbalanced partition and, before 02-25, a PCIe/NUMA setting the document says changed every figure by 1–5%. OOM
rows have no time. The 176B / 112-head / TP 4 / PP 12 / MBS 2 row (104.50 s) is the held final-run layout: printed
as a side check, not scored.

Run settings (the final ``tr11-176B-ml.slurm`` at the same commit, which the section's runs led to): ``--bf16`` with
ZeRO stage 0 and DeepSpeed's BF16 optimizer ("implements its own zero stage 1 equivalent") → ``zero`` 1;
``--checkpoint-activations`` → ``recompute: full``; sequence 2,048; ``--pad-vocab-size-to 250880``; tied
embeddings; ``--position-embedding-type alibi``; ``--embed-layernorm``; GeLU 4h MLP with biases, LayerNorm;
DeepSpeed's pipeline engine (1F1B ``TrainSchedule``), Megatron tensor slicing without sequence parallelism.

Mapping and flags (ASSUMED where the source is silent):
* ``framework: megatron`` (Megatron-LM mechanics, as the held BLOOM row), with DeepSpeed's pipeline engine as
  ``validate_pretrain_oos10.py`` enters it for MT-NLG and GPT-NeoX (microsoft/DeepSpeed ``runtime/pipe/schedule.py``
  ``TrainSchedule.steps``: ``ReduceGrads`` only after the whole schedule; ``pipe/p2p.py`` blocking sends):
  ``overlap_grad_reduce`` and ``overlap_p2p_comm`` off. The held BLOOM row left both at Megatron's defaults.
* ``flash_attention: false``: Megatron-DeepSpeed of 2022 has no FlashAttention; its core is ``baddbmm`` +
  ``FusedScaleMaskSoftmax`` + ``bmm`` (the section's NHEADS notes: "NHEADS=108 breaks constraints for invoking
  optimized fused softmax kernel"; the slurm's ``--abort-on-unmet-fused-kernel-constraints``) — the time model's
  ``timing.MEGATRON_SCORES_ELEMS`` path. The held BLOOM row was entered with the default (flash); printed.
* Dropout: the slurm sets neither ``--attention-dropout`` nor ``--hidden-dropout`` (Megatron's argument defaults
  0.1 / 0.1). A plain model dict has no dropout field (``architecture.ModelArch.dropout`` is set by the GPT-2 /
  NeoX families only), so the rows are entered without it, as the public Megatron-LM 2021 rows (same code path,
  also dropout 0.1) and the held BLOOM row are: the calibrated band already carries that omission.
* ``pp_account_embedding_loss: true`` for ``type:transformer|embedding`` (the embedding and the tied head each take
  one layer's slot: the section's "2+nlayers*PP" balance; every row's NLAYERS + 2 divides by its PP).
* The section's runs use the model dims of each row (NHIDDEN, NLAYERS, NHEADS); ALiBi's bias add is inside the fused
  softmax (no separate pass).
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import validate_bridge_dense as vbd  # noqa: E402

SRC = ("github.com/bigscience-workshop/bigscience train/tr11-176B-ml/chronicles-prequel.md @9e64edec "
       "'Rebalancing layers'")
GPUS = 384
GBS = 2048
SEQ = 2048

#: (hidden, layers, DP, TP, PP, MBS, heads, Sec/it, published TFLOPs) — the section's rows with a time, in order
ROWS = [
    (12288, 106, 8, 4, 12, 2, 64, 116.54, 149.75),
    (12288, 106, 8, 4, 12, 2, 96, 118.79, 146.90),
    (12288, 106, 8, 4, 12, 2, 128, 121.42, 143.73),
    (12288, 106, 8, 4, 12, 4, 96, 120.34, 145.01),
    (12288, 100, 8, 8, 6, 2, 64, 139.72, 117.91),
    (12288, 100, 8, 8, 6, 4, 64, 120.96, 136.20),
    (13312, 82, 4, 8, 12, 4, 64, 111.79, 141.76),
    (13312, 82, 8, 4, 12, 2, 64, 104.45, 151.71),
    (13312, 82, 8, 4, 12, 2, 104, 123.71, 128.10),
    (13312, 82, 8, 4, 12, 2, 128, 108.78, 145.68),
    (13312, 82, 8, 4, 12, 4, 64, 104.82, 151.18),
    (13312, 94, 8, 4, 12, 2, 128, 124.10, 146.12),
    (14336, 70, 4, 8, 12, 2, 64, 121.63, 128.92),
    (14336, 70, 8, 4, 12, 2, 64, 102.03, 153.68),
    (14336, 70, 8, 4, 12, 2, 128, 105.89, 148.08),
    (14336, 70, 8, 4, 12, 4, 64, 102.27, 153.33),
]
#: the held final-run layout measured in the same section (side check only, not scored)
HELD = (14336, 70, 8, 4, 12, 2, 112, 104.50, 150.05)


def model(r) -> dict:
    h, L, _dp, _tp, _pp, _mbs, nh, _s, _tf = r
    return {"name": f"BLOOM search {h}x{L} {nh}h", "hidden_size": h, "num_hidden_layers": L,
            "num_attention_heads": nh, "num_key_value_heads": nh, "intermediate_size": 4 * h, "vocab_size": 250880,
            "gated_mlp": False, "hidden_act": "gelu", "tie_word_embeddings": True, "norm_type": "layernorm",
            "position_embedding": "alibi", "attention_bias": True, "attention_out_bias": True, "mlp_bias": True,
            "max_position_embeddings": SEQ}


def scenario(r, flash: bool = False, account: bool = True, bf16_opt: bool | None = True) -> dict:
    _h, _L, _dp, tp, pp, mbs, _nh, _s, _tf = r
    return {"model": model(r),
            "training": {"method": "pretrain", "framework": "megatron", "precision": "bf16", "seq_len": SEQ,
                         "micro_batch_size": mbs, "global_batch_size": GBS, "recompute": "full",
                         "fused_cross_entropy": False, "flash_attention": flash, "overlap_grad_reduce": False,
                         "overlap_p2p_comm": False,
                         **({} if bf16_opt is None else {"ds_bf16_grad_accum": bf16_opt})},
            "parallel": {"tp": tp, "pp": pp, "vpp": 1, "zero": 1, "sequence_parallel": False,
                         "pp_account_embedding_loss": account},
            "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": GPUS, "gpus_per_node": 8}}


def label(r) -> str:
    h, L, dp, tp, pp, mbs, nh, _s, _tf = r
    return f"{h}x{L} {nh}h DP{dp} TP{tp} PP{pp} MBS{mbs}"


def pub_tps(r) -> float:
    return GBS * SEQ / r[7] / GPUS


#: predictions on main 6e4c8288 with the entry's mapping (tokens/s per GPU), by row label
BEFORE: dict[str, float] = {
    "12288x106 64h DP8 TP4 PP12 MBS2": 100.32, "12288x106 96h DP8 TP4 PP12 MBS2": 99.12,
    "12288x106 128h DP8 TP4 PP12 MBS2": 97.96, "12288x106 96h DP8 TP4 PP12 MBS4": 93.2,
    "12288x100 64h DP8 TP8 PP6 MBS2": 100.36, "12288x100 64h DP8 TP8 PP6 MBS4": 98.36,
    "13312x82 64h DP4 TP8 PP12 MBS4": 101.99, "13312x82 64h DP8 TP4 PP12 MBS2": 111.8,
    "13312x82 104h DP8 TP4 PP12 MBS2": 110.37, "13312x82 128h DP8 TP4 PP12 MBS2": 109.52,
    "13312x82 64h DP8 TP4 PP12 MBS4": 105.15, "13312x94 128h DP8 TP4 PP12 MBS2": 96.23,
    "14336x70 64h DP4 TP8 PP12 MBS2": 107.89, "14336x70 64h DP8 TP4 PP12 MBS2": 114.74,
    "14336x70 128h DP8 TP4 PP12 MBS2": 112.69, "14336x70 64h DP8 TP4 PP12 MBS4": 107.91}


def results(rows=None, **kw) -> list[dict]:
    rs = ROWS if rows is None else rows
    res = vbd.results([(r,) for r in rs], lambda t: scenario(t[0], **kw))
    for r, x in zip(rs, res):
        x.update(label=label(r), pub=pub_tps(r), step=r[7], heads=r[6], before=BEFORE.get(label(r)))
    return res


def _stats(res, key="pred"):
    e = [r[key] / r["pub"] - 1 for r in res if r.get(key) is not None]
    a = [abs(x) for x in e]
    return len(e), statistics.median(a), vbd._pct(a, 0.9), statistics.median(e)


def _pm(x) -> str:
    return "—" if x is None else f"{x:+.1%}"


def row_lines(res) -> list[str]:
    out = ["| # | row | Sec/it | published tok/s/GPU | before | now | error before | error now | top part |",
           "|---:|---|---:|---:|---:|---:|---:|---:|---|"]
    for i, r in enumerate(res):
        b = r["before"]
        out.append(f"| {i} | {r['label']} | {r['step']:.2f} | {r['pub']:,.0f} | {'—' if b is None else f'{b:,}'} | "
                   f"{'—' if r['pred'] is None else format(r['pred'], ',.0f')} | "
                   f"{_pm(None if b is None else b / r['pub'] - 1)} | "
                   f"{_pm(None if r['pred'] is None else r['pred'] / r['pub'] - 1)} | {r['top'] or r['why']} |")
    return out


def group_lines(res, key="pred") -> list[str]:
    out = ["| group | rows | median |err| | p90 |err| | signed median |", "|---|---:|---:|---:|---:|"]
    groups = {"all rows": res,
              "64 heads (no kernel-constraint effect)": [r for r in res if r["heads"] == 64],
              "TP 4": [r for r in res if " TP4 " in r["label"]], "TP 8": [r for r in res if " TP8 " in r["label"]]}
    for name, sub in groups.items():
        if any(r.get(key) is not None for r in sub):
            n, med, p90, sgn = _stats(sub, key)
            out.append(f"| {name} | {n} | {med:.1%} | {p90:.1%} | {sgn:+.1%} |")
    return out


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    res = results()
    print(f"Source: {SRC}\n")
    print("\n".join(row_lines(res)))
    if all(r["before"] is not None for r in res):
        print("\nBefore (main 6e4c8288):\n")
        print("\n".join(group_lines(res, "before")))
    print("\nNow:\n")
    print("\n".join(group_lines(res)))
    n, med, p90, sgn = _stats(res)
    print(f"\nSCORE (now): {n} rows, median |error| {med:.1%}, p90 {p90:.1%}, signed median {sgn:+.1%}")
    side = [("held layout, this mapping", results([HELD])[0]),
            ("held layout, flash (the held row's mapping) + accounted split", results([HELD], flash=True)[0]),
            ("held layout, flash, unaccounted split (validate_pretrain_oos9's mapping)",
             results([HELD], flash=True, account=False)[0])]
    print("\nSide check (not scored): the held final-run layout as measured in this section, 104.50 s\n")
    for name, r in side:
        print(f"- {name}: {r['pred']:,.0f} tok/s/GPU vs {r['pub']:,.0f} ({r['pred'] / r['pub'] - 1:+.1%})")
    alt = results(flash=True)
    n, med, p90, sgn = _stats(alt)
    print(f"- all 16 rows with flash_attention on (mapping alternative): median {med:.1%}, p90 {p90:.1%}, "
          f"signed {sgn:+.1%}")
    if "--before" in argv:
        print("BEFORE =", {r["label"]: None if r["pred"] is None else round(r["pred"], 2) for r in res})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
