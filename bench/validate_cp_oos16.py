"""Issue 35 round 16 (helper cp16): every published context-parallel step time the project holds, scored in one
table per CP algorithm, before → after.

Usage: python bench/validate_cp_oos16.py

Error = predicted / published − 1 in tokens/s per GPU (+ = the model is too fast). ``BEFORE`` holds the figures of
main 2b8c7c19 (this round's base), recorded before anything was changed; this round changes no model code, so
"after" is computed now and must equal it (the script says so when it does not).

Where the rows come from (all held before this round; none is new):

* torch's all-gather ring (``torch.distributed.tensor.experimental.context_parallel``, the model's ``fsdp``
  framework): torchtitan's Dec-2024 ``docs/performance.md`` Tables 2 and 6 (Llama 3.1 8B CP 2/4/8 and 405B
  FSDP+TP 8+PP 8 with CP 2/4/8; torch 1963fc8, torchtitan 9dec370; scored on the source's 500 W HBM2e card,
  ``validate_time.TORCHTITAN_SANITY_CARD``) and round 8's Accelerate/TRL rows (``bench/validate_cp_oos.py``:
  Qwen3-8B at 1,048,576 tokens, CP 8, huggingface/transformers#48324, huggingface/trl#6846).
* Transformer Engine's p2p ring under Megatron-Core (``cp_comm_type`` "p2p", the default of Megatron's
  ``--cp-comm-type`` and of every NeMo long-context recipe): NVIDIA NeMo
  ``docs/source/performance/performance_long_sequence.md`` — the Llama 2 7B FP8 H100 table (NeMo 24.03, read with
  the causal-halved attention term, as ``validate_time.long_context_rows`` does) and the Llama 3 8B FP8 B200 table
  (NeMo 25.04, read with ``flops_formulas.llama3`` of the page's date, full attention term), rows with CP > 1.
* Llama 3 (Dubey et al. 2024, arXiv:2407.21783) Table 4, the 131,072-token CP 16 row: Meta's own all-gather CP
  (§3.3.2: K and V, GQA-sized, all-gathered, then the local queries), shown at Megatron-Core's ring with virtual
  pipeline 1 and 4 (the paper does not state the interleaving); not in the medians (no framework of the model runs
  Meta's code).

The NeMo page at NVIDIA/NeMo 9421f21 adds a "Batch Size" column to the H100 table (1,024 at 4K down to 4 at 1M:
4,194,304 tokens per batch at every row). ``validate_time.long_context_rows`` had assumed exactly that batch from
the B200 table; the column confirms it, so no H100 row moves.

Searched this round for published CP runs not yet held, none scorable (see the round's note,
``docs/notes/2026-12-07/issue-35-r16-cp16.md``): Megatron-Bridge ``docs/performance-summary.md`` (25.11 at
00b7660; its longest rows are 8,192 tokens, its CP 2 rows held by ``bench/validate_bridge_dense.py``);
NeMo AutoModel ``docs/performance-summary.md`` (no CP > 1 row); torchtitan ``docs/performance.md`` at eaea6f6 (the
Dec-2024 table, held) and ``benchmarks/`` (no CP row); TRL's long-context guide (the 380 s row of trl#6846, held);
Accelerate's context-parallel guide (a figure, no numbers); torchtitan PR #592 (figures of the longest sequence,
no throughput); DeepSpeed-Ulysses / ALST / the Hugging Face Ulysses blog and USP / LoongTrain (head-parallel
sequence parallelism, which the model does not have: ``core/frameworks.py``); MaxText's CP PRs (TPU, not in the
catalogue); Meta's million-token CP inference paper (arXiv:2411.01783: prefill, the serving model has no CP).
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "bench"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from gpuplanner.core.evaluate import evaluate  # noqa: E402
from gpuplanner.core.scenario import scenario_from_dict  # noqa: E402

#: main 2b8c7c19, recorded before any change (tokens/s error, model / published − 1)
BEFORE = {
    "torchtitan T2 8B 64k, FSDP 4 CP 2": 0.0043, "torchtitan T2 8B 128k, FSDP 2 CP 4": 0.3573,
    "torchtitan T2 8B 256k, FSDP 1 CP 8": 0.4259, "torchtitan T6 405B 64k, FSDP 4 CP 2": 0.1641,
    "torchtitan T6 405B 128k, FSDP 2 CP 4": 0.1358, "torchtitan T6 405B 256k, FSDP 1 CP 8": 0.2846,
    "Qwen3-8B 1M, CP 8, SDPA FlashAttention fallback": -0.0547, "Qwen3-8B 1M, CP 8, SDPA cuDNN": 0.1341,
    "Qwen3-8B 1M, CP 8, SDPA cuDNN (TRL example)": 0.1553,
    "NeMo H100 Llama 2 7B 32K TP 2 CP 2": 0.0097, "NeMo H100 Llama 2 7B 64K TP 4 CP 2": -0.0120,
    "NeMo H100 Llama 2 7B 128K TP 4 CP 4": -0.0186, "NeMo H100 Llama 2 7B 256K TP 4 CP 8": -0.0363,
    "NeMo H100 Llama 2 7B 512K TP 8 CP 16": -0.1061, "NeMo H100 Llama 2 7B 1024K TP 8 CP 32": -0.0944,
    "NeMo B200 Llama 3 8B 32K TP 1 CP 2": 0.0862, "NeMo B200 Llama 3 8B 64K TP 1 CP 4": 0.1192,
    "NeMo B200 Llama 3 8B 128K TP 2 CP 4": 0.1150, "NeMo B200 Llama 3 8B 256K TP 4 CP 4": 0.0945,
    "NeMo B200 Llama 3 8B 512K TP 4 CP 8": 0.0846, "NeMo B200 Llama 3 8B 1024K TP 4 CP 16": 0.0973,
}


def torch_ring_rows() -> list[tuple[str, str, float]]:
    """(family, label, error) of torch's ring: torchtitan's CP rows (source's card) and round 8's 1M rows."""
    import validate_cp_oos as hf
    import validate_time as vt

    out = []
    for label, sc, tps, *_r in vt.TORCHTITAN_SANITY_CARD:
        if " CP " in label:
            now = evaluate(scenario_from_dict(sc)).time_modelled.tokens_per_s_per_gpu
            out.append(("torch ring (fsdp)", f"torchtitan {label}", now / tps - 1.0))
    for label, sc, pub, _src in hf.ROWS:
        out.append(("torch ring (fsdp)", label, pub / hf.step_seconds(sc) - 1.0))
    return out


def _tps(sc: dict) -> float:
    return evaluate(scenario_from_dict(sc)).time_modelled.tokens_per_s_per_gpu


def te_ring_rows() -> list[tuple[str, str, float]]:
    """(family, label, error) of Transformer Engine's p2p ring: the NeMo long-sequence tables' CP > 1 rows, read as
    ``validate_time`` reads them (H100: causal-halved term; B200: the formula of the page's date)."""
    import validate_time as vt

    out = []
    for k, tp, dp, cp, pub in vt.NEMO_LONG_SEQ:
        if cp == 1:
            continue
        seq = k * 1024
        sc = {"model": {"preset": "llama-2-7b"},
              "training": {"framework": "megatron", "precision": "fp8", "seq_len": seq, "micro_batch_size": 1,
                           "global_batch_size": max(4 * 1024 * 1024 // seq, dp), "fused_cross_entropy": False},
              "parallel": {"tp": tp, "pp": 1, "cp": cp, "zero": 1, "sequence_parallel": tp > 1},
              "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": tp * dp * cp}}
        pub_tps = pub * 1e12 / vt._nemo_llama2_flops_per_token(seq, True)
        out.append(("TE p2p ring (megatron)", f"NeMo H100 Llama 2 7B {k}K TP {tp} CP {cp}", _tps(sc) / pub_tps - 1))
    for k, _g, gbs, tp, pp, dp, cp, pub in vt.NEMO_LONG_SEQ_B200:
        if cp == 1:
            continue
        seq = k * 1024
        sc = {"model": {"preset": "llama-3.1-8b"},
              "training": {"framework": "megatron", "precision": "fp8", "fp8_recipe": "te_delayed", "seq_len": seq,
                           "micro_batch_size": 1, "global_batch_size": gbs, "fused_cross_entropy": True},
              "parallel": {"tp": tp, "pp": pp, "cp": cp, "zero": 1, "sequence_parallel": tp > 1},
              "hardware": {"gpu": "b200-180gb", "num_gpus": tp * pp * dp * cp}}
        tf = _tps(sc) * vt._nemo_llama3_8b_flops_per_token(seq, False) / 1e12
        out.append(("TE p2p ring (megatron)", f"NeMo B200 Llama 3 8B {k}K TP {tp} CP {cp}", tf / pub - 1.0))
    return out


def llama3_cp_row() -> str:
    """Llama 3 Table 4's CP 16 row at Megatron-Core's ring, virtual pipeline 1 and 4 (shown, not in the medians)."""
    import validate_time as vt

    n, cp, seq, bpd, pub = vt.LLAMA3_TABLE4[2]
    cells = []
    for vpp in (1, 4):
        sc = {"model": {"preset": "llama-3.1-405b"},
              "training": {"framework": "megatron", "seq_len": seq, "micro_batch_size": 1, "precision": "bf16",
                           "global_batch_size": bpd * n // (8 * 16 * cp)},
              "parallel": {"tp": 8, "pp": 16, "cp": cp, "vpp": vpp, "zero": 1, "sequence_parallel": True},
              "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": n}}
        t = evaluate(scenario_from_dict(sc)).time_modelled
        cells.append(f"VP {vpp}: {t.tokens_per_s_per_gpu * t.flops_per_token / 1e12 / pub - 1:+.0%}")
    return f"Llama 3 Table 4, 405B, {n:,} GPUs, CP {cp}, {seq:,} tokens, {pub} TFLOP/s: " + ", ".join(cells)


def _p90(errs: list[float]) -> float:
    a = sorted(abs(e) for e in errs)
    return a[int(0.9 * (len(a) - 1) + 0.5)]


def main() -> int:
    rows = torch_ring_rows() + te_ring_rows()
    print("| family | row | before | after |\n|---|---|---:|---:|")
    moved = []
    for fam, label, err in rows:
        before = BEFORE.get(label)
        if before is None or abs(before - err) > 0.0015:
            moved.append(label)
        cell = "—" if before is None else f"{before:+.1%}"
        print(f"| {fam} | {label} | {cell} | {err:+.1%} |")
    print("\n| family | rows | before median / p90 | after median / p90 |\n|---|---:|---:|---:|")
    for fam in dict.fromkeys(f for f, _l, _e in rows):
        after = [e for f, _l, e in rows if f == fam]
        before = [BEFORE[lbl] for f, lbl, _e in rows if f == fam and lbl in BEFORE]
        print(f"| {fam} | {len(after)} | {statistics.median(abs(e) for e in before):.1%} / {_p90(before):.1%} | "
              f"{statistics.median(abs(e) for e in after):.1%} / {_p90(after):.1%} |")
    print("\n" + llama3_cp_row())
    print("\nrows that moved from BEFORE: " + (", ".join(moved) if moved else "none"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
