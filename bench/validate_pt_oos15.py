"""Pre-training step times the project had not used, round 15: an out-of-sample check (issue 35, ptoos15).

Usage: python bench/validate_pt_oos15.py

Every row was entered and scored BEFORE any model change (``BEFORE`` holds those predictions, main c0b0ae2c). No
constant was chosen from these rows. The one change of the round, ``timing.contention_rate_share`` (the compute
contention of hidden data-parallel collectives priced at their own rate: Lee et al. 2025 measured its 18.9% inside
one 4-GPU server), adds no constant. Error = predicted / published − 1 in tokens/s per GPU = published step /
predicted step − 1 (+ = the model is too fast).

What was already held (grep of bench/, tests/, docs/ and /work/shared/reference/calibration-runs.jsonl for
``training_results_v6``, ``v6.0``, ``fms-fsdp``, ``foundation-model-stack``, ``Zeus_``, ``C885A``, ``tyche-hsg``,
``hpg.dgxb200x8.n16``, ``BM.GPU.B200``: none). Three sources:

1. **MLPerf Training v6.0** (first published May 2026), llama31_8b: NVIDIA ``tyche-hsg_ngpu1024_ngc26.04_nemo``
   (1,024 GB200) and Cisco's ``Zeus_8xH100_SXM_80GB`` / ``Zeus_16xH100_SXM_80GB`` (64 / 128 H100) and
   ``2xC885A_M8-8xH200-SXM-141GB`` (16 H200). Read from the copy github.com/Richardyu114/training_results_v6.0 @
   eabf23a07b2a (the submission tree of mlcommons/training_results_v6.0; the project's store has no snapshot of the
   mlcommons repository itself), ``<org>/results/<system>/llama31_8b/result_*.txt`` (MLLOG) and the
   ``benchmarks/llama31_8b`` configs. Published step = the median of the ``tracked_stats`` ``train_step_time``
   values of one log window (one run, 16 KB read at offset 40,000 / 60,000: 16–30 consecutive logged steps, within
   ±1% of their median; the other runs not read; the first step after each evaluation, ≈ 0.02 s, a timer artefact,
   and the per-block averages are left out). GBS from the log's ``samples_count`` per logged interval
   (``LOG_EVERY_N_STEPS``).
2. **MLPerf Training v5.1** llama31_8b rows round 13 left out as near-duplicates of held rows (same config, same
   code): University of Florida ``hpg.dgxb200x8.n16`` (128 B200) and ``n8`` (64 B200), Oracle
   ``8xBM.GPU.B200.8`` (64 B200); github.com/mlcommons/training_results_v5.1 @441d65f4445c; published step = the
   median of the 10 runs' medians (the ``validate_mlperf_oos.py`` rule).
3. **IBM fms-fsdp README** throughput tables (github.com/foundation-model-stack/fms-fsdp): PyTorch FSDP1
   pre-training of Llama 2 7B / 13B / 34B / 70B at sequence 4,096, "A100 80G 128 GPUs with 400Gbps" and "H100 96
   GPUs with 800 Gbps". Two versions of the table: ``README.md`` @cf6e42c (Feb 2024, eager) and @ed74fd5 (May
   2024, "numbers are updated with torch.compile", unchanged to HEAD 5a296afe).

Mapping:

* MLPerf v6.0 / v5.1 llama31_8b (Llama 3.1 8B, sequence 8,192, MBS 1, NeMo): Cisco's H100 config
  ``config_DGXH100_8x8x36xtp8pp8cp2.sh`` (sourced by the 16-node one) sets TP 2, SP, TP overlap, MINIBS 1, FP8
  **delayed** (``FP8_RECIPE="delayed"``, hybrid, history 1024, max) with FP8 parameters and gather, full CUDA
  graphs, distributed optimizer with overlapped grad reduce / param gather (``nemo/config_common.sh``). The H200
  run's log prints its resolved config: TP 1, DP 16, ``fp8_recipe='tensorwise'`` (TE current scaling),
  ``fp8_param=True``, ``recompute_granularity=None``, ``cuda_graph_scope=[full_iteration]``; GBS 32 (MINIBS 4 in
  its config × 8 GPUs; the log's 16 ranks run 2 micro-batches each). NVIDIA's GB200 config
  ``config_GB200_256x4x1xtp4pp1cp4_8b.sh``: TP 4 × CP 4, SP, TP overlap, MINIBS 1 → GBS 64 (DP 64); its
  ``config_common*.sh`` are not in the stored copy: FP8 current scaling + FP8 parameter gather + full CUDA graphs
  ASSUMED from the v5.1 files of the same name (``validate_mlperf_oos.py``) and the H200 log above. v5.1 B200
  rows: as round 13 entered Verda's (TP 1 × CP 2, current scaling, graphs). Full-iteration CUDA graphs are
  entered as ``cuda_graph_scope: layer`` (the nearest field, as rounds 13–14 did).
* fms-fsdp: PyTorch ``FullyShardedDataParallel`` (``fsdp_version`` 1), bf16 mixed precision, SDPA flash attention
  (FlashAttention-2), batch = per-GPU micro-batch, one optimizer step per batch (``main_training.py``), so GBS =
  batch × GPUs; vocabulary 32,000 (``train_config.vocab_size``); architectures from
  ``fms_fsdp/utils/config_utils.py`` @ed74fd5 (34b: hidden 8,192, 48 layers, 64 heads, 8 KV heads, FFN 22,016).
  Sharding: FSDP = FULL_SHARD (``zero`` 3); HSDP (7B) shards inside the node and all-reduces across nodes — not a
  field: entered as FULL_SHARD (flag). AC: "No AC"/"False" → none; "Full AC"/"True" → full (every block,
  ``selective_checkpointing=1``); "Selective AC" with no fraction stated → the tool's documented default
  ``selective_checkpointing=1`` = every block = full (flag). The Feb-2024 eager table's scripts
  (``scripts/{7b,13b,34b,70b}.sh`` @82731b2) match its rows (7b hsdp b2 no AC, 13b hsdp b1 no AC, 34b / 70b fsdp
  full AC); the batches of the row @cf6e42c are the table's own. Network: A100 400 Gb/s a node (entered
  ``roce-100`` × 4: the scripts' EFA libraries, i.e. AWS p4de), H100 800 Gb/s a node (``roce-400`` × 2: fabric
  type ASSUMED, rate stated).

Left out: MLPerf v6.0 DeepSeek-V3 671B on GB200 (NVIDIA tyche-hsg 512–8192, Google 256): full-iteration graphs,
the cuteDSL fused grouped MLP, FP8 attention and paged stashing — none is a scenario field (round 12's reason for the
26.06+ Bridge GB200 MoE rows); Azure's 2,048-GB200 405B run (``run_sweep.sh`` sources the ``…_fp4_mrc.sh`` config:
NVFP4); every v6.0 B200 / B300 / GB300 / MI3xx 8B run (NVFP4 configs or cards not in the catalogue); gpt_oss_20b
(no preset).
"""
from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import validate_bridge_dense as vbd  # noqa: E402

V60 = "https://github.com/Richardyu114/training_results_v6.0/blob/eabf23a07b2a0c60a289ff871dc3a46fff0d0421"
V51 = "https://github.com/mlcommons/training_results_v5.1/blob/441d65f4445cd59687466533fd9f55399136e7a4"
FMS = "https://github.com/foundation-model-stack/fms-fsdp/blob"
GPU = {"H100": "h100-sxm-80gb", "H200": "h200-sxm-141gb", "B200": "b200-180gb", "GB200": "gb200-186gb",
       "A100": "a100-sxm-80gb"}

#: MLPerf rows: (round, org, results folder, config, system, GPUs, GBS, TP, CP, published step s, settings)
_CUR = {"recipe": "te_current"}
MLPERF = [
    ("v6.0", "NVIDIA", "tyche-hsg_ngpu1024_ngc26.04_nemo", "llama31_8b/implementations/nemo/"
     "config_GB200_256x4x1xtp4pp1cp4_8b.sh", "GB200", 1024, 64, 4, 4, 0.07211,
     {"recipe": "te_current", "flag": "config_common*.sh not in the stored copy (v5.1's ASSUMED)"}),
    ("v6.0", "Cisco", "Zeus_8xH100_SXM_80GB", "llama31_8b/nemo/config_DGXH100_8x8x36xtp8pp8cp2.sh", "H100", 64, 32,
     2, 1, 0.3481, {"recipe": "te_delayed"}),
    ("v6.0", "Cisco", "Zeus_16xH100_SXM_80GB", "llama31_8b/nemo/config_DGXH100_16x8x36xtp8pp8cp2.sh", "H100", 128,
     64, 2, 1, 0.3494, {"recipe": "te_delayed"}),
    ("v6.0", "Cisco", "2xC885A_M8-8xH200-SXM-141GB", "llama31_8b/implementations/nemo/"
     "config_C885A_H200_2x8x1xtp1pp1cp1_8b.sh", "H200", 16, 32, 1, 1, 1.1742,
     {"recipe": "te_current", "flag": "first evaluation block's steps"}),
    ("v5.1", "University-of-Florida", "hpg.dgxb200x8.n16", "llama31_8b/implementations/hpg.dgxb200x8/"
     "config_DGXB200_16x8x1xtp1pp1cp2_8b.sh", "B200", 128, 64, 1, 2, 0.19276, _CUR),
    ("v5.1", "Oracle", "8xBM.GPU.B200.8", "llama31_8b/implementations/", "B200", 64, 32, 1, 2, 0.19015, _CUR),
    ("v5.1", "University-of-Florida", "hpg.dgxb200x8.n8", "llama31_8b/implementations/hpg.dgxb200x8/"
     "config_DGXB200_8x8x1xtp1pp1cp2_8b.sh", "B200", 64, 32, 1, 2, 0.18946, _CUR),
]

#: fms-fsdp Llama 2 34B (``config_utils.py`` @ed74fd5 ``model_variant == "34b"``)
FMS_34B = {"name": "fms-fsdp llama2 34b", "hidden_size": 8192, "num_hidden_layers": 48, "num_attention_heads": 64,
           "num_key_value_heads": 8, "intermediate_size": 22016, "vocab_size": 32000, "gated_mlp": True,
           "tie_word_embeddings": False, "norm_type": "rmsnorm", "position_embedding": "rope", "hidden_act": "silu"}
FMS_MODEL = {"7b": {"preset": "llama-2-7b"}, "13b": {"preset": "llama-2-13b"}, "34b": FMS_34B,
             "70b": {"preset": "llama-2-70b"}}
#: the table's cluster per card: (GPUs, network id, NICs a node) — "A100 80G 128 GPUs with 400Gbps", "H100 96 GPUs
#: with 800 Gbps"
FMS_CLUSTER = {"A100": (128, "roce-100", 4), "H100": (96, "roce-400", 2)}
#: fms-fsdp rows: (README commit, size, card, sharding, AC, batch per GPU, compile, published tokens/s/GPU)
FMS_ROWS = [
    ("cf6e42c", "7b", "A100", "hsdp", "none", 2, False, 3650),
    ("cf6e42c", "13b", "A100", "fsdp", "selective", 2, False, 1800),
    ("cf6e42c", "34b", "A100", "fsdp", "full", 2, False, 700),
    ("cf6e42c", "70b", "A100", "fsdp", "full", 2, False, 370),
    ("cf6e42c", "7b", "H100", "hsdp", "none", 2, False, 7500),
    ("cf6e42c", "13b", "H100", "fsdp", "selective", 2, False, 3800),
    ("cf6e42c", "34b", "H100", "fsdp", "full", 2, False, 1550),
    ("cf6e42c", "70b", "H100", "fsdp", "full", 2, False, 800),
    ("ed74fd5", "7b", "A100", "hsdp", "none", 2, True, 4550),
    ("ed74fd5", "13b", "A100", "fsdp", "selective", 2, True, 2150),
    ("ed74fd5", "34b", "A100", "fsdp", "selective", 2, True, 820),
    ("ed74fd5", "70b", "A100", "fsdp", "selective", 2, True, 410),
    ("ed74fd5", "7b", "H100", "hsdp", "none", 2, True, 9600),
    ("ed74fd5", "13b", "H100", "fsdp", "selective", 2, True, 4850),
    ("ed74fd5", "34b", "H100", "fsdp", "selective", 2, True, 1830),
    ("ed74fd5", "70b", "H100", "fsdp", "selective", 2, True, 890),
]

#: predictions on main c0b0ae2c, before any change of this round (tokens/s per GPU): MLPERF rows then FMS_ROWS
BEFORE: list[int] = [12228, 11440, 11391, 14376, 19264, 19360, 19360, 3744, 1560, 632, 313, 8019, 3435, 1427,
                      714, 4071, 1676, 665, 328, 8956, 3788, 1531, 762]


def mlperf_published(row) -> float:
    """Published tokens/s per GPU: GBS × 8,192 / step / GPUs."""
    return row[6] * 8192 / row[9] / row[5]


def mlperf_scenario(row) -> dict:
    """The scenario a user would enter for one MLPerf row (mapping in the module doc)."""
    _rnd, _org, _res, _cfg, system, n, gbs, tp, cp, _step, s = row
    return {"model": {"preset": "llama-3.1-8b"},
            "training": {"framework": "megatron", "precision": "fp8", "fp8_recipe": s["recipe"],
                         "fp8_all_gather": True, "seq_len": 8192, "micro_batch_size": 1, "global_batch_size": gbs,
                         "recompute": "none"},
            "parallel": {"tp": tp, "pp": 1, "cp": cp, "sequence_parallel": tp > 1, "zero": 1,
                         "cuda_graph_scope": "layer"},
            "hardware": {"gpu": GPU[system], "num_gpus": n}}


def fms_flags(row) -> str:
    _c, _size, _card, shard, ac, _b, _comp, _pub = row
    out = []
    if shard == "hsdp":
        out.append("HSDP entered as FULL_SHARD")
    if ac == "selective":
        out.append("'Selective AC' fraction unstated: default 1 (every block)")
    return "; ".join(out)


def fms_scenario(row) -> dict:
    """The scenario for one fms-fsdp row (mapping in the module doc)."""
    _c, size, card, _shard, ac, batch, comp, _pub = row
    n, net, nics = FMS_CLUSTER[card]
    return {"model": dict(FMS_MODEL[size]),
            "training": {"method": "pretrain", "framework": "fsdp", "fsdp_version": 1, "precision": "bf16",
                         "seq_len": 4096, "micro_batch_size": batch, "global_batch_size": batch * n,
                         "recompute": "none" if ac == "none" else "full", "flash_attention": True,
                         "attention_kernel": "flash2", "torch_compile": comp},
            "parallel": {"zero": 3},
            "hardware": {"gpu": GPU[card], "num_gpus": n, "gpus_per_node": 8, "inter_node": net,
                         "nics_per_node": nics}}


def results() -> list[dict]:
    res = vbd.results(MLPERF, mlperf_scenario) + vbd.results(FMS_ROWS, fms_scenario)
    for r in res[:len(MLPERF)]:
        row = r["row"]
        r["pub"], r["family"], r["system"] = mlperf_published(row), f"MLPerf {row[0]} llama31_8b", row[4]
        r["flag"] = row[10].get("flag", "")
    for r in res[len(MLPERF):]:
        row = r["row"]
        r["pub"], r["family"], r["system"] = float(row[7]), f"fms-fsdp {'compile' if row[6] else 'eager'}", row[2]
        r["flag"] = fms_flags(row)
    for i, r in enumerate(res):
        r["before"] = BEFORE[i] if i < len(BEFORE) else None
    return res


def _err(r, key="pred"):
    v = r[key]
    return None if v is None else v / r["pub"] - 1


def _group(name, sub, key="pred"):
    e = [_err(r, key) for r in sub if r[key] is not None]
    if not e:
        return f"| {name} | 0 | — | — | — |"
    a = [abs(x) for x in e]
    return f"| {name} | {len(e)} | {statistics.median(a):.1%} | {vbd._pct(a, 0.9):.1%} | {statistics.median(e):+.1%} |"


def _pct_or_dash(x) -> str:
    return "—" if x is None else f"{x:+.1%}"


def row_lines(res) -> list[str]:
    out = ["| # | source | row | system | GPUs | published tok/s/GPU | before | now | error before | error now | "
           "top part | note |", "|---:|---|---|---|---:|---:|---:|---:|---:|---:|---|---|"]
    for i, r in enumerate(res):
        row = r["row"]
        if i < len(MLPERF):
            label = f"{row[1]} {row[2]} TP{row[7]}×CP{row[8]} GBS {row[6]} ({row[10]['recipe']})"
        else:
            label = (f"{row[1]} {row[3]} AC {row[4]} b{row[5]}"
                     f"{' compile' if row[6] else ''} (@{row[0]})")
        now = "—" if r["pred"] is None else f"{r['pred']:,.0f}"
        bef = "—" if r["before"] is None else f"{r['before']:,}"
        gpus = row[5] if i < len(MLPERF) else FMS_CLUSTER[row[2]][0]
        out.append(f"| {i} | {r['family']} | {label} | {r['system']} | {gpus} | "
                   f"{r['pub']:,.0f} | {bef} | {now} | {_pct_or_dash(_err(r, 'before'))} | "
                   f"{_pct_or_dash(_err(r))} | {r['top'] or r['why']} | {r['flag']} |")
    return out


def group_lines(res, key="pred") -> list[str]:
    out = ["| group | rows | median |err| | p90 |err| | signed median |", "|---|---:|---:|---:|---:|"]
    for fam in dict.fromkeys(r["family"] for r in res):
        out.append(_group(fam, [r for r in res if r["family"] == fam], key))
    for system in ("A100", "H100", "H200", "B200", "GB200"):
        out.append(_group(f"system {system}", [r for r in res if r["system"] == system], key))
    out.append(_group("rows without a flag", [r for r in res if not r["flag"]], key))
    out.append(_group("all rows", res, key))
    return out


def main(argv=None) -> int:
    res = results()
    print("\n".join(row_lines(res)))
    if all(r["before"] is not None for r in res):
        print("\nBefore (main c0b0ae2c):\n")
        print("\n".join(group_lines(res, "before")))
    print("\nNow:\n")
    print("\n".join(group_lines(res)))
    n, med, p90, sgn = vbd.stats(res)
    print(f"\nSCORE (now): {n} rows, median |error| {med:.1%}, p90 {p90:.1%}, signed median {sgn:+.1%}")
    if "--before" in (argv or sys.argv[1:]):
        print("BEFORE =", [None if r["pred"] is None else round(r["pred"]) for r in res])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
