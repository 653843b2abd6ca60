"""MLPerf Training step times the project had not used, round 13: an out-of-sample check (issue 35, ptoos13).

Usage: python bench/validate_pt_oos13.py [--md]

Every row was entered and scored BEFORE any model change (``BEFORE`` holds those predictions, main a8283e44). No
constant was chosen from these rows. Error = predicted / published − 1 in tokens/s per GPU = published step /
predicted step − 1 (+ = the model is too fast).

What was already held (``bench/validate_mlperf_oos.py``): v3.1 gpt3 (NVIDIA H100), v4.0–v5.0 llama2_70b_lora, v5.0
llama31_405b (NVIDIA H100 and GB200), v5.1 llama31_8b (NVIDIA GB200 72 and 512 GPUs). That file left out v4.0/v4.1
gpt3 because "its logs have no step-time tracked_stats": the v4.0 SMC and v4.1 logs do log it, under the key
``"train_step_timing in s"`` (with the unit in the name); NVIDIA's own v4.0 and v4.1 ``eos-dfw_n1452`` logs do not.
Nothing of v5.1 other than NVIDIA's two GB200 8B runs was held.

Sources: github.com/mlcommons/training_results_v4.0 @6fe954378efe, _v4.1 @b87b9e396f77, _v5.1 @441d65f4445c.
Published step time: per run the median of the MLLOG ``tracked_stats`` step time over all logged steps, then the
median over the runs (3 for gpt3 and 405B, 10 for 8B) — the ``validate_mlperf_oos.py`` rule. The log's
``global_batch_size`` and ``gradient_accumulation_steps`` fix the config: the row's config is the one whose nodes ×
GPUs and MINIBS × DP give the log's global batch (checked in ``tests/test_validation_pt_oos13.py`` through
``LOG_GBS``).

Mapping (the configs' exports, the Hydra YAML defaults of the same folder):

* gpt3 (GPT-3 175B, 96 layers, sequence 2,048): TP 4 × PP 8 (config name), ``MICRO_BATCH_SIZE=2``,
  ``INTERLEAVED_PIPELINE`` 6 (NVIDIA v4.1), 4 (Oracle v4.1), unset = the YAML default 12 (SMC v4.0
  ``conf/custom.yaml`` ``virtual_pipeline_model_parallel_size: ${oc.env:INTERLEAVED_PIPELINE,12}``); FP8 delayed
  scaling (``config_fp8.sh``: hybrid, amax history 1024, ``max``), ``FP8_PARAMS=True`` (FP8 weight gather),
  distributed optimizer, TP userbuffers overlap, sequence parallel (YAML default). The B200 preview config adds
  ``LAYER_CUDA_GRAPH=1`` (NeMo's per-layer graphs: ``cuda_graph_scope: layer``) and sources a
  ``config_common_blackwell.sh`` that the submission does not contain (what it sets is unknown: flagged).
* llama31_405b (126 layers, sequence 8,192): TP 4 × PP 8 × CP 2 × VP 8, MBS 1, ``ASYM_PP_EMBED=True``,
  ``ASYM_PP_LOSS=True`` (``pp_account_embedding_loss``), ``FP8_PARAMS`` / ``FP8_PARAM_GATHER=True``, TP overlap,
  distributed optimizer with both overlaps. Nebius H200 (NVIDIA's v5.0 code on ``pytorch:25.01``): FP8 delayed
  (``fp8_recipe`` YAML default ``delayed``), no CUDA graphs. University of Florida B200 (NVIDIA's v5.1 code on
  ``pytorch:25.09``): ``FP8_RECIPE="tensorwise"`` (current scaling), ``FULL_CUDA_GRAPH=1`` / ``MCORE_CUDA_GRAPH=1``
  (whole-iteration graphs: entered as ``cuda_graph_scope: layer``, the nearest field).
* llama31_8b (32 layers, sequence 8,192, MBS 1): Cisco H100 (NVIDIA v5.0 code on ``pytorch:25.01``): TP 1 (64 GPUs)
  and TP 2 with SP (128 GPUs), CP 1, FP8 delayed (YAML default), ``FP8_PARAMS=True``, ``MCORE_CUDA_GRAPH=False``.
  HPE H200, Verda B200, University of Florida B200 (NVIDIA v5.1 code): TP 1 × CP 2, ``FP8_RECIPE="tensorwise"``,
  ``FP8_PARAM_GATHER=True``, ``FULL_CUDA_GRAPH=1`` (``cuda_graph_scope: layer``). HPE's config also sources
  ``config_common_fp8attn.sh`` (``FP8_DPA=True``: attention in FP8, no scenario field: flagged). The University of
  Florida ``hpg.dgxb200x8`` folder holds the per-size configs but not the ``config_common*.sh`` they source: its
  ``b200_nemo`` folder's (same submitter, v5.1 code) are ASSUMED.

Left out: NVIDIA v5.1 GB200 405B (``tyche_ngpu512``): its folder holds an FP8 and an NVFP4 config with the same
layout and global batch, and the log does not say which ran (the time per micro-batch is 1.45× v5.0's FP8 run on the
same layout, which points at NVFP4); GB300 / B300 runs (no catalogue entry); every NVFP4 config; AMD MI350X / MI355X
(no catalogue entry); NVIDIA v4.0 / v4.1 ``eos_n64 (v4.0)`` and ``eos-dfw`` gpt3 (no step time in the log); 8B runs
whose folder has an FP8 and an NVFP4 config for the same size (Dell, Lenovo, Supermicro, Nebius single node);
Oracle's and the University of Florida's 64-GPU 8B runs (same config and step time within 0.7% of Verda's, entered
once); the Google TPU and Gaudi runs (not modelled).
"""
from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import validate_bridge_dense as vbd  # noqa: E402

GH = "https://github.com/mlcommons/training_results_"
COMMIT = {"v4.0": "6fe954378efe4a1a1bd665550b18ff8f26018def", "v4.1": "b87b9e396f771345d4ef122ba33456304f15228d",
          "v5.1": "441d65f4445cd59687466533fd9f55399136e7a4"}
GPU = {"H100": "h100-sxm-80gb", "H200": "h200-sxm-141gb", "B200": "b200-180gb"}
MODEL = {"gpt3": "gpt3-175b", "llama31_405b": "llama-3.1-405b", "llama31_8b": "llama-3.1-8b"}
SEQ = {"gpt3": 2048, "llama31_405b": 8192, "llama31_8b": 8192}

#: (round, org, results folder, config under <org>/benchmarks, benchmark, system, GPUs, GBS, MBS, TP, PP, CP, VP,
#: published step time s (median of run medians), settings) — settings: ``recipe`` te_delayed / te_current,
#: ``graphs`` (config captures CUDA graphs), ``asym`` (ASYM_PP_EMBED / ASYM_PP_LOSS), ``flag`` (what the scenario
#: cannot say)
ROWS = [
    ("v4.0", "smc", "64xSMC-H100-SXM-80GB", "gpt3/implementations/nemo/config_SMCH100_64x8x128x4x8.sh",
     "gpt3", "H100", 512, 2048, 2, 4, 8, 1, 12, 10.6365, {"recipe": "te_delayed"}),
    ("v4.1", "NVIDIA", "eos_n32_ngc24.09_nemo",
     "gpt3/implementations/eos_n32_ngc24.09_nemo/config_DGXH100_32x8x256x4x8_mbs2.sh",
     "gpt3", "H100", 256, 2048, 2, 4, 8, 1, 6, 18.3743, {"recipe": "te_delayed"}),
    ("v4.1", "NVIDIA", "eos_n64_ngc24.09_nemo",
     "gpt3/implementations/eos_n64_ngc24.09_nemo/config_DGXH100_64x8x128x4x8_mbs2.sh",
     "gpt3", "H100", 512, 2048, 2, 4, 8, 1, 6, 9.4963, {"recipe": "te_delayed"}),
    ("v4.1", "Oracle", "1536xBM.GPU.H100.8", "gpt3/DGXH100_128x8x64x4x8_mbs2/config_DGXH100_192x8x64x4x8_mbs2.sh",
     "gpt3", "H100", 1536, 3072, 2, 4, 8, 1, 4, 5.1704, {"recipe": "te_delayed"}),
    ("v4.1", "Oracle", "3072xBM.GPU.H100.8", "gpt3/DGXH100_128x8x64x4x8_mbs2/config_DGXH100_384x8x32x4x8_mbs2.sh",
     "gpt3", "H100", 3072, 3072, 2, 4, 8, 1, 4, 3.0497, {"recipe": "te_delayed"}),
    ("v4.1", "NVIDIA", "b200_n8_preview_nemo",
     "gpt3/implementations/b200_n8_preview_nemo/config_DGXB200_8x8x1024x4x8_mbs2_cg.sh",
     "gpt3", "B200", 64, 2048, 2, 4, 8, 1, 6, 36.2336,
     {"recipe": "te_delayed", "graphs": True, "flag": "config_common_blackwell.sh missing"}),
    ("v5.1", "Nebius", "nebius_h200_n64", "llama31_405b/implementations/nebius_h200_n64/config_DGXH200_64x8x144xtp4pp8cp2.sh",
     "llama31_405b", "H200", 512, 1152, 1, 4, 8, 2, 8, 50.0153, {"recipe": "te_delayed", "asym": True}),
    ("v5.1", "Nebius", "nebius_h200_n128",
     "llama31_405b/implementations/nebius_h200_n128/config_DGXH200_128x8x72xtp4pp8cp2.sh",
     "llama31_405b", "H200", 1024, 1152, 1, 4, 8, 2, 8, 25.3561, {"recipe": "te_delayed", "asym": True}),
    ("v5.1", "University-of-Florida", "hpg.dgxb200x8.n32",
     "llama31_405b/implementations/b200_nemo/config_DGXB200_64x8x144xtp4pp8cp2_cg.sh",
     "llama31_405b", "B200", 256, 576, 1, 4, 8, 2, 8, 27.6456, {"recipe": "te_current", "asym": True, "graphs": True}),
    ("v5.1", "University-of-Florida", "hpg.dgxb200x8.n56",
     "llama31_405b/implementations/b200_nemo/config_DGXB200_64x8x144xtp4pp8cp2_cg.sh",
     "llama31_405b", "B200", 448, 1008, 1, 4, 8, 2, 8, 27.9791, {"recipe": "te_current", "asym": True, "graphs": True}),
    ("v5.1", "Cisco", "hpf_n8", "llama31_8b/implementations/nemo/config_DGXH100_8x8x1xtp1pp1cp1.sh",
     "llama31_8b", "H100", 64, 64, 1, 1, 1, 1, 1, 0.7205, {"recipe": "te_delayed"}),
    ("v5.1", "Cisco", "hpf_n16", "llama31_8b/implementations/nemo/config_DGXH100_16x8x1xtp2pp1cp1.sh",
     "llama31_8b", "H100", 128, 64, 1, 2, 1, 1, 1, 0.4852, {"recipe": "te_delayed"}),
    ("v5.1", "HPE", "HPE-Cray-XD670-H200-SXM5-141GB_n8_25.09",
     "llama3_8b/implementations/nemo-x86_64/config_XD670_8x8x1xtp1pp1cp2_8b.sh",
     "llama31_8b", "H200", 64, 32, 1, 1, 1, 2, 1, 0.3532,
     {"recipe": "te_current", "graphs": True, "flag": "FP8 attention (FP8_DPA) not a field"}),
    ("v5.1", "Verda", "b200_8x8_ngc25.09",
     "llama31_8b/implementations/b200_8x8_ngc25.09/config_DGXB200_8x8x1xtp1pp1cp2_8b.sh",
     "llama31_8b", "B200", 64, 32, 1, 1, 1, 2, 1, 0.1909, {"recipe": "te_current", "graphs": True}),
    ("v5.1", "University-of-Florida", "hpg.dgxb200x8.n32",
     "llama31_8b/implementations/hpg.dgxb200x8/config_DGXB200_32x8x1xtp1pp1cp2_8b.sh",
     "llama31_8b", "B200", 256, 128, 1, 1, 1, 2, 1, 0.2211,
     {"recipe": "te_current", "graphs": True, "flag": "config_common*.sh ASSUMED from b200_nemo"}),
]

#: the MLLOG ``global_batch_size`` of each row's logs (read with the parser in the module doc; the tests check that
#: the config's MINIBS × DP gives it)
LOG_GBS = {r[2] + r[4]: r[7] for r in ROWS}

#: predictions on main a8283e44, before any change of this round (tokens/s per GPU)
BEFORE = [711, 713, 704, 676, 636, 1605, 322, 319, 694, 694, 12346, 11391, 11890, 19360, 19108]


def source(row) -> str:
    rnd, org, res, cfg, bench = row[:5]
    base = f"{GH}{rnd}/blob/{COMMIT[rnd]}/{org}"
    return f"{base}/results/{res}/{bench}/result_*.txt; {base}/benchmarks/{cfg}"


def tokens_per_step(row) -> int:
    return row[7] * SEQ[row[4]]


def published(row) -> float:
    """Published tokens/s per GPU: GBS × sequence / step / GPUs."""
    return tokens_per_step(row) / row[13] / row[6]


def scenario(row) -> dict:
    """The scenario a user would enter for one row (mapping in the module doc)."""
    _rnd, _org, _res, _cfg, bench, system, n, gbs, mbs, tp, pp, cp, vp, _step, s = row
    training = {"framework": "megatron", "precision": "fp8", "fp8_recipe": s["recipe"], "fp8_all_gather": True,
                "seq_len": SEQ[bench], "micro_batch_size": mbs, "global_batch_size": gbs, "recompute": "none"}
    parallel = {"tp": tp, "pp": pp, "cp": cp, "vpp": vp, "sequence_parallel": tp > 1, "zero": 1}
    if s.get("asym"):
        parallel["pp_account_embedding_loss"] = True
    if s.get("graphs"):
        parallel["cuda_graph_scope"] = "layer"
    return {"model": {"preset": MODEL[bench]}, "training": training, "parallel": parallel,
            "hardware": {"gpu": GPU[system], "num_gpus": n}}


def _as_dense(row) -> tuple:
    rnd, org, _res, _cfg, bench, system, n, gbs, mbs, tp, pp, cp, vp, _step, s = row
    prec = "cs" if s["recipe"] == "te_current" else "ds"
    return (f"MLPerf {rnd} {org} {bench}", system, MODEL[bench], prec, n, gbs, mbs, SEQ[bench], 0, tp, pp, cp, vp,
            round(published(row)))


def results() -> list[dict]:
    res = vbd.results(ROWS, scenario)
    for r, row, before in zip(res, ROWS, BEFORE):
        r["row"] = _as_dense(row)
        r["pub"] = published(row)
        r["before"] = before
        r["bench"], r["system"], r["org"] = row[4], row[5], row[1]
    return res


def _group(name, sub, key="pred"):
    e = [r[key] / r["pub"] - 1 for r in sub if r[key] is not None]
    if not e:
        return f"| {name} | 0 | — | — | — |"
    a = [abs(x) for x in e]
    return f"| {name} | {len(e)} | {statistics.median(a):.1%} | {vbd._pct(a, 0.9):.1%} | {statistics.median(e):+.1%} |"


def row_lines(res) -> list[str]:
    out = ["| # | round | submitter | benchmark | system | GPUs | GBS/MBS | TP/PP/CP/VP | recipe | published step s | "
           "published tok/s/GPU | before | now | error before | error now | top part | note |",
           "|---:|---|---|---|---|---:|---|---|---|---:|---:|---:|---:|---:|---:|---|---|"]
    for i, (r, row) in enumerate(zip(res, ROWS)):
        s = row[14]
        now = "—" if r["pred"] is None else f"{r['pred']:,.0f}"
        en = "—" if r["pred"] is None else f"{r['pred'] / r['pub'] - 1:+.1%}"
        out.append(f"| {i} | {row[0]} | {row[1]} | {row[4]} | {row[5]} | {row[6]} | {row[7]}/{row[8]} | "
                   f"{row[9]}/{row[10]}/{row[11]}/{row[12]} | {s['recipe']}{' +graphs' if s.get('graphs') else ''} | "
                   f"{row[13]:.4f} | {r['pub']:,.0f} | {r['before']:,} | {now} | {r['before'] / r['pub'] - 1:+.1%} | "
                   f"{en} | {r['top'] or r['why']} | {s.get('flag', '')} |")
    return out


def group_lines(res) -> list[str]:
    out = ["| group | rows | median |err| | p90 |err| | signed median |", "|---|---:|---:|---:|---:|"]
    for bench in MODEL:
        out.append(_group(bench, [r for r in res if r["bench"] == bench]))
    for system in GPU:
        out.append(_group(f"system {system}", [r for r in res if r["system"] == system]))
    out.append(_group("rows without a flag", [r for r, row in zip(res, ROWS) if not row[14].get("flag")]))
    out.append(_group("all rows", res))
    return out


def before_lines(res) -> list[str]:
    out = ["| group (before: main a8283e44) | rows | median |err| | p90 |err| | signed median |",
           "|---|---:|---:|---:|---:|"]
    for system in GPU:
        out.append(_group(f"system {system}", [r for r in res if r["system"] == system], "before"))
    out.append(_group("all rows", res, "before"))
    return out


def main(argv=None) -> int:
    res = results()
    print("\n".join(row_lines(res)))
    print()
    print("\n".join(before_lines(res)))
    print()
    print("\n".join(group_lines(res)))
    n, med, p90, sgn = vbd.stats(res)
    print(f"\nSCORE (now): {n} rows, median |error| {med:.1%}, p90 {p90:.1%}, signed median {sgn:+.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
