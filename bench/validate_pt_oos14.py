"""MLPerf Training step times the project had not used, round 14: an out-of-sample check (issue 35, ptoos14).

Usage: python bench/validate_pt_oos14.py

Every row was entered and scored BEFORE any model change (``BEFORE`` holds those predictions, main 33833c23). No
constant was chosen from these rows. Error = predicted / published − 1 in tokens/s per GPU = published step /
predicted step − 1 (+ = the model is too fast).

What was already held: ``bench/validate_mlperf_oos.py`` has v3.1 gpt3 of NVIDIA's ``eos_n64``, ``eos_n96``,
``eos-dfw_n512`` and ``eos-dfw_n1344`` folders and v5.0 llama31_405b of NVIDIA's ``eos-dfw_n64/n256/n1024`` and
``tyche_ngpu256/512``; ``bench/validate_pt_oos13.py`` v4.0 SMC, v4.1 NVIDIA / Oracle gpt3 and v5.1. Not held (grep of
bench/, tests/, docs/ and /work/shared/reference/calibration-runs.jsonl for ``training_results_v3.0``, ``n768``,
``n1024_ngc23``, ``n1280``, ``ND_H100``, ``n304``, ``n320_ngc``, ``carina``: none): **MLPerf Training v3.0** gpt3
(NVIDIA and NVIDIA+CoreWeave, the first GPT-3 round on H100), v3.1's ``eos-dfw_n768/n1024/n1280`` and Azure's
``ND_H100_v5_n1344``, v5.0's NVIDIA ``eos-dfw_n304/n320`` and the IBM+CoreWeave+NVIDIA GB200 ``carina`` runs.

Sources: github.com/mlcommons/training_results_v3.0 @63e326c400f5, _v3.1 @d06288b2bd67, _v5.0 @0fdc28f01325, folders
``<org>/results/<system>/<benchmark>/result_*.txt`` (MLLOG) and ``<org>/benchmarks/<benchmark>/implementations/``.
Published step time: per run the median of MLLOG ``tracked_stats`` ``train_step_timing`` (v3.x) /
``train_step_time`` (v5.0) over all logged steps, then the median over the 3 runs — the ``validate_mlperf_oos.py``
rule (the same parser gives that file's held values 11.054 / 11.075 / 1.6084 / 0.9296 / 55.143 s). The log's
``global_batch_size`` and ``gradient_accumulation_steps`` fix the config: MINIBS × DP = GBS and GBS / DP / MBS = the
accumulation steps (``LOG``, ``MINIBS``; checked in ``tests/test_validation_pt_oos14.py``).

Mapping (the configs' exports, the Hydra YAML defaults of the same folder):

* gpt3 (GPT-3 175B, 96 layers, hidden 12,288, sequence 2,048: ``config_common.sh``): TP 4 × PP 8 (config name
  ``…x4x8``), MBS 1 (``export MICRO_BATCH_SIZE=1`` in each per-size config, after ``config_common.sh``'s 2),
  interleaving 12 (v3.0 ``config_common.sh`` ``INTERLEAVED_PIPELINE=12``; v3.1: not exported, the YAML default 12,
  as ``validate_mlperf_oos.py`` maps the held v3.1 rows); FP8 delayed scaling (``config_fp8.sh``: hybrid, amax
  history 1024, ``max``), no FP8 parameter gather (no ``FP8_PARAMS`` in v3.0 / v3.1), distributed optimizer with
  overlapped grad / param sync (YAML), sequence parallel, TP userbuffers overlap (``TP_COMM_OVERLAP=True``), no
  recompute (``ACT_CKPT_GRANULARITY=null``). v3.0 is NeMo on ``pytorch:23.04`` (the Dockerfile's base), v3.1 NeMo
  23.09. The NVIDIA+CoreWeave folders hold the same ``config_common.sh`` and YAML as NVIDIA's (diff: identical);
  Azure's v3.1 config differs from NVIDIA's only in comments and ``WALLTIME_MINUTES``. Not a field: v3.0 reduces
  the FP8 amaxes over TP × DP every micro-batch (TE's default ``NVTE_DP_AMAX_REDUCE_INTERVAL=1``); v3.1 sets 0 and
  ``NVTE_ASYNC_AMAX_REDUCTION=1``.
* llama31_405b (126 layers, sequence 8,192, MBS 1, VP 8, NeMo 25.01 on H100 / 25.04 on GB200): TP 8 × PP 8 × CP 2
  (H100) or TP 4 × PP 8 × CP 2 (GB200) from the config name; ``ASYM_PP_EMBED`` / ``ASYM_PP_LOSS=True``
  (``pp_account_embedding_loss``); FP8 delayed (``fp8_recipe`` YAML default ``delayed``) with FP8 parameter gather
  (``FP8_PARAMS`` H100, ``FP8_PARAM_GATHER`` GB200); TP overlap; distributed optimizer with both overlaps. GB200:
  ``config_common_cg.sh`` ``FULL_CUDA_GRAPH=True`` (entered as ``cuda_graph_scope: layer``, the nearest field) and a
  ``config_common_blackwell.sh`` that the submission does not contain (flagged; the held ``tyche`` rows source it
  too); ``TP_PP_DP_MAPPING=True`` (pipeline stages inside the NVL72 rack) is not a field.

Left out: v3.0 / v3.1 Intel-HabanaLabs Gaudi 2 and Google TPU runs (not modelled).
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
COMMIT = {"v3.0": "63e326c400f5d8bb8c6070a9ab08332d4931152e", "v3.1": "d06288b2bd675a9d88e0e6181f5bb5626b71ec19",
          "v5.0": "0fdc28f013256aea84fa36fdaf1e0fa46094b18c"}
GPU = {"H100": "h100-sxm-80gb", "GB200": "gb200-186gb"}
MODEL = {"gpt3": "gpt3-175b", "llama31_405b": "llama-3.1-405b"}
SEQ = {"gpt3": 2048, "llama31_405b": 8192}
LAYERS = {"gpt3": 96, "llama31_405b": 126}

#: (round, org folder, results folder, config, benchmark, system, GPUs, GBS, MBS, TP, PP, CP, VP, published step
#: time s (median of the run medians), the run medians, settings) — settings: ``graphs`` (the config captures CUDA
#: graphs: entered as ``cuda_graph_scope: layer``, the nearest field), ``asym`` (ASYM_PP_EMBED / ASYM_PP_LOSS),
#: ``fp8pg`` (FP8 parameter gather), ``flag`` (what the scenario cannot say or the submission does not hold)
_G3 = {}
_405 = {"asym": True, "fp8pg": True}
_405CG = {"asym": True, "fp8pg": True, "graphs": True, "flag": "config_common_blackwell.sh not in the submission"}
ROWS = [
    ("v3.0", "NVIDIA", "dgxh100_n64_nemo", "pytorch/config_DGXH100_64x8x128x4x8_mbs1.sh", "gpt3", "H100",
     512, 2048, 1, 4, 8, 1, 12, 12.0741, (12.0827, 12.0713, 12.0741), _G3),
    ("v3.0", "NVIDIA", "dgxh100_n96_nemo", "pytorch/config_DGXH100_96x8x128x4x8_mbs1.sh", "gpt3", "H100",
     768, 3072, 1, 4, 8, 1, 12, 12.1274, (12.1282, 12.1274, 12.1236), _G3),
    ("v3.0", "NVIDIA_CoreWeave", "coreweave_hgxh100_n96_ngc23.04_pytorch", "pytorch/config_DGXH100_96x8x128x4x8_mbs1.sh",
     "gpt3", "H100", 768, 3072, 1, 4, 8, 1, 12, 12.3049, (12.3223, 12.2857, 12.3049), _G3),
    ("v3.0", "NVIDIA_CoreWeave", "coreweave_hgxh100_n192_ngc23.04_pytorch",
     "pytorch/config_DGXH100_192x8x64x4x8_mbs1.sh", "gpt3", "H100",
     1536, 3072, 1, 4, 8, 1, 12, 6.3397, (6.3264, 6.3573, 6.3397), _G3),
    ("v3.0", "NVIDIA_CoreWeave", "coreweave_hgxh100_n448_ngc23.04_pytorch",
     "pytorch/config_DGXH100_448x8x24x4x8_mbs1.sh", "gpt3", "H100",
     3584, 2688, 1, 4, 8, 1, 12, 2.6005, (2.5943, 2.6005, 2.6021), _G3),
    ("v3.1", "NVIDIA", "eos-dfw_n768_ngc23.09_nemo", "pytorch/config_DGXH100_768x8x16x4x8_mbs1.sh", "gpt3", "H100",
     6144, 3072, 1, 4, 8, 1, 12, 1.6152, (1.6159, 1.6152, 1.6150), _G3),
    ("v3.1", "NVIDIA", "eos-dfw_n1024_ngc23.09_nemo", "pytorch/config_DGXH100_1024x8x16x4x8_mbs1.sh", "gpt3", "H100",
     8192, 4096, 1, 4, 8, 1, 12, 1.6192, (1.6193, 1.6192, 1.6192), _G3),
    ("v3.1", "NVIDIA", "eos-dfw_n1280_ngc23.09_nemo", "pytorch/config_DGXH100_1280x8x8x4x8_mbs1.sh", "gpt3", "H100",
     10240, 2560, 1, 4, 8, 1, 12, 0.9256, (0.9256, 0.9255, 0.9256), _G3),
    ("v3.1", "Azure+NVIDIA", "ND_H100_v5_n1344_pytorch", "pytorch/config_DGXH100_1344x8x8x4x8_mbs1.sh", "gpt3", "H100",
     10752, 2688, 1, 4, 8, 1, 12, 0.9451, (0.9451, 0.9451, 0.9546), _G3),
    ("v5.0", "NVIDIA", "eos-dfw_n304_ngc25.01_nemo",
     "eos-dfw_n304_ngc25.01_nemo/config_DGXH100_304x8x64xtp8pp8cp2.sh", "llama31_405b", "H100",
     2432, 1216, 1, 8, 8, 2, 8, 12.7118, (12.7006, 12.7118, 12.8648), _405),
    ("v5.0", "NVIDIA", "eos-dfw_n320_ngc25.01_nemo",
     "eos-dfw_n320_ngc25.01_nemo/config_DGXH100_320x8x56xtp8pp8cp2.sh", "llama31_405b", "H100",
     2560, 1120, 1, 8, 8, 2, 8, 11.1731, (11.1847, 11.1731, 11.1658), _405),
    ("v5.0", "IBM+CoreWeave+NVIDIA", "carina_ngpu512_ngc25.04_nemo",
     "carina_ngpu512_ngc25.04_nemo/config_GB200_128x4x112xtp4pp8cp2.sh", "llama31_405b", "GB200",
     512, 896, 1, 4, 8, 2, 8, 19.2784, (19.4294, 19.2784, 19.2530), _405CG),
    ("v5.0", "IBM+CoreWeave+NVIDIA", "carina_ngpu1024_ngc25.04_nemo",
     "carina_ngpu1024_ngc25.04_nemo/config_GB200_256x4x48xtp4pp8cp2.sh", "llama31_405b", "GB200",
     1024, 768, 1, 4, 8, 2, 8, 8.4484, (8.4484, 8.4527, 8.4459), _405CG),
    ("v5.0", "IBM+CoreWeave+NVIDIA", "carina_ngpu1536_ngc25.04_nemo",
     "carina_ngpu1536_ngc25.04_nemo/config_GB200_384x4x48xtp4pp8cp2.sh", "llama31_405b", "GB200",
     1536, 1152, 1, 4, 8, 2, 8, 8.4995, (8.4906, 8.4995, 8.5254), _405CG),
    ("v5.0", "IBM+CoreWeave+NVIDIA", "carina_ngpu2048_ngc25.04_nemo",
     "carina_ngpu2048_ngc25.04_nemo/config_GB200_512x4x40xtp4pp8cp2.sh", "llama31_405b", "GB200",
     2048, 1280, 1, 4, 8, 2, 8, 7.1585, (7.1523, 7.1585, 7.1796), _405CG),
    ("v5.0", "IBM+CoreWeave+NVIDIA", "carina_ngpu2496_ngc25.04_nemo",
     "carina_ngpu2496_ngc25.04_nemo/config_GB200_624x4x32xtp4pp8cp2.sh", "llama31_405b", "GB200",
     2496, 1248, 1, 4, 8, 2, 8, 5.8232, (5.8232, 5.8200, 5.8361), _405CG),
]

#: each row's MLLOG (global_batch_size, gradient_accumulation_steps, submission_platform), read from result_0.txt
LOG = {
    "dgxh100_n64_nemo": (2048, 128, "64xNVIDIA DGX H100"),
    "dgxh100_n96_nemo": (3072, 128, "96xNVIDIA DGX H100"),
    "coreweave_hgxh100_n96_ngc23.04_pytorch": (3072, 128, "96xNVIDIA HGX H100"),
    "coreweave_hgxh100_n192_ngc23.04_pytorch": (3072, 64, "192xNVIDIA HGX H100"),
    "coreweave_hgxh100_n448_ngc23.04_pytorch": (2688, 24, "448xNVIDIA HGX H100"),
    "eos-dfw_n768_ngc23.09_nemo": (3072, 16, "768xNVIDIA DGX H100"),
    "eos-dfw_n1024_ngc23.09_nemo": (4096, 16, "1024xNVIDIA DGX H100"),
    "eos-dfw_n1280_ngc23.09_nemo": (2560, 8, "1280xNVIDIA DGX H100"),
    "ND_H100_v5_n1344_pytorch": (2688, 8, "1344xSUBMISSION_PLATFORM_PLACEHOLDER"),
    "eos-dfw_n304_ngc25.01_nemo": (1216, 64, "304xNVIDIA HGX H100"),
    "eos-dfw_n320_ngc25.01_nemo": (1120, 56, "320xNVIDIA HGX H100"),
    "carina_ngpu512_ngc25.04_nemo": (896, 112, "128xNVIDIA GB200"),
    "carina_ngpu1024_ngc25.04_nemo": (768, 48, "256xNVIDIA GB200"),
    "carina_ngpu1536_ngc25.04_nemo": (1152, 48, "384xNVIDIA GB200"),
    "carina_ngpu2048_ngc25.04_nemo": (1280, 40, "512xNVIDIA GB200"),
    "carina_ngpu2496_ngc25.04_nemo": (1248, 32, "624xNVIDIA GB200"),
}
#: ``export MINIBS=`` of each row's per-size config (the folder's config name says the same: ``…x<MINIBS>x…``)
MINIBS = {"dgxh100_n64_nemo": 128, "dgxh100_n96_nemo": 128, "coreweave_hgxh100_n96_ngc23.04_pytorch": 128,
          "coreweave_hgxh100_n192_ngc23.04_pytorch": 64, "coreweave_hgxh100_n448_ngc23.04_pytorch": 24,
          "eos-dfw_n768_ngc23.09_nemo": 16, "eos-dfw_n1024_ngc23.09_nemo": 16, "eos-dfw_n1280_ngc23.09_nemo": 8,
          "ND_H100_v5_n1344_pytorch": 8, "eos-dfw_n304_ngc25.01_nemo": 64, "eos-dfw_n320_ngc25.01_nemo": 56,
          "carina_ngpu512_ngc25.04_nemo": 112, "carina_ngpu1024_ngc25.04_nemo": 48,
          "carina_ngpu1536_ngc25.04_nemo": 48, "carina_ngpu2048_ngc25.04_nemo": 40,
          "carina_ngpu2496_ngc25.04_nemo": 32}
#: GPUs per node of each system (``DGXNGPU``: 8, GB200 4)
GPN = {"H100": 8, "GB200": 4}

#: predictions on main 33833c23, before any change of this round (tokens/s per GPU)
BEFORE: list[int] = [693, 693, 693, 685, 658, 637, 635, 578, 578, 305, 304, 772, 762, 761, 758, 752]


def source(row) -> str:
    rnd, org, res, cfg, bench = row[:5]
    base = f"{GH}{rnd}/blob/{COMMIT[rnd]}/{org}"
    return f"{base}/results/{res}/{bench}/result_*.txt; {base}/benchmarks/{bench}/implementations/{cfg}"


def dp(row) -> int:
    """Data-parallel replicas: GPUs / (TP · PP · CP)."""
    return row[6] // (row[9] * row[10] * row[11])


def micro_batches(row) -> int:
    """Micro-batches per replica and step: GBS / (DP · MBS)."""
    return row[7] // (dp(row) * row[8])


def tokens_per_step(row) -> int:
    return row[7] * SEQ[row[4]]


def published(row) -> float:
    """Published tokens/s per GPU: GBS × sequence / step / GPUs."""
    return tokens_per_step(row) / row[13] / row[6]


def layer_ms(row) -> float:
    """Published ms per decoder layer per micro-batch on one GPU: step / micro-batches / (layers / PP)."""
    return 1000.0 * row[13] / micro_batches(row) / (LAYERS[row[4]] / row[10])


def scenario(row) -> dict:
    """The scenario a user would enter for one row (mapping in the module doc)."""
    _rnd, _org, _res, _cfg, bench, system, n, gbs, mbs, tp, pp, cp, vp, _step, _runs, s = row
    training = {"framework": "megatron", "precision": "fp8", "fp8_recipe": "te_delayed",
                "fp8_all_gather": bool(s.get("fp8pg")), "seq_len": SEQ[bench], "micro_batch_size": mbs,
                "global_batch_size": gbs, "recompute": "none"}
    parallel = {"tp": tp, "pp": pp, "cp": cp, "vpp": vp, "sequence_parallel": tp > 1, "zero": 1}
    if s.get("asym"):
        parallel["pp_account_embedding_loss"] = True
    if s.get("graphs"):
        parallel["cuda_graph_scope"] = "layer"
    return {"model": {"preset": MODEL[bench]}, "training": training, "parallel": parallel,
            "hardware": {"gpu": GPU[system], "num_gpus": n}}


def _as_dense(row) -> tuple:
    rnd, org, _res, _cfg, bench, system, n, gbs, mbs, tp, pp, cp, vp = row[:13]
    return (f"MLPerf {rnd} {org} {bench}", system, MODEL[bench], "ds", n, gbs, mbs, SEQ[bench], 0, tp, pp, cp, vp,
            round(published(row)))


def results() -> list[dict]:
    res = vbd.results(ROWS, scenario)
    for i, (r, row) in enumerate(zip(res, ROWS)):
        r["row"] = _as_dense(row)
        r["pub"] = published(row)
        r["before"] = BEFORE[i] if i < len(BEFORE) else None
        r["round"], r["org"], r["bench"], r["system"] = row[0], row[1], row[4], row[5]
    return res


def simulate_interleaved(p: int, v: int, m: int, t_f: float = 1.0, t_b: float = 2.0, hop: float = 0.0) -> float:
    """Makespan of Megatron-core's interleaved 1F1B schedule (``schedules.py``
    ``forward_backward_pipelining_with_interleaving``) as a list schedule: rank r runs ``2(p−r−1) + (v−1)p``
    warm-up forwards, then one forward and one backward in turn, then the cool-down backwards; virtual micro-batch k
    is chunk ``(k // p) % v`` (forward; ``v − 1 −`` that for the backward) of micro-batch ``(k // (p·v))·p + k % p``.
    A forward waits for the same chunk on rank r−1 (rank 0: the previous chunk on rank p−1), a backward for rank r+1
    (rank p−1: the next chunk on rank 0; the last chunk: its own forward); every wait on another rank adds ``hop``.
    Chunk forward ``t_f``, backward ``t_b``; no other communication. Used by ``timing.pipeline_fill_p2p_seconds``'s
    derivation and its test: the makespan is ``m·v·(t_f + t_b) + (p − 1)(t_f + t_b) + 2(v·p − 1)·hop``."""
    total = m * v
    orders = []
    for r in range(p):
        warm = min((p - r - 1) * 2 + (v - 1) * p, total)
        ops = [("F", k) for k in range(warm)]
        for i in range(total - warm):
            ops += [("F", warm + i), ("B", i)]
        ops += [("B", k) for k in range(total - warm, total)]
        orders.append(ops)
    done: dict = {}
    clock, idx = [0.0] * p, [0] * p
    moved = True
    while moved:
        moved = False
        for r in range(p):
            while idx[r] < len(orders[r]):
                kind, k = orders[r][idx[r]]
                j = (k // (p * v)) * p + k % p
                if kind == "F":
                    c = (k // p) % v
                    dep = None if r == 0 and c == 0 else (("F", r - 1, c, j) if r > 0 else ("F", p - 1, c - 1, j))
                    dur = t_f
                else:
                    c = v - 1 - (k // p) % v
                    dep = (("F", r, c, j) if r == p - 1 and c == v - 1 else
                           ("B", r + 1, c, j) if r < p - 1 else ("B", 0, c + 1, j))
                    dur = t_b
                if dep is not None and dep not in done:
                    break
                ready = 0.0 if dep is None else done[dep] + (hop if dep[1] != r else 0.0)
                clock[r] = max(clock[r], ready) + dur
                done[(kind, r, c, j)] = clock[r]
                idx[r] += 1
                moved = True
    if any(idx[r] < len(orders[r]) for r in range(p)):
        raise RuntimeError("schedule deadlocked")
    return max(clock)


def _group(name, sub, key="pred"):
    e = [r[key] / r["pub"] - 1 for r in sub if r[key] is not None]
    if not e:
        return f"| {name} | 0 | — | — | — |"
    a = [abs(x) for x in e]
    return f"| {name} | {len(e)} | {statistics.median(a):.1%} | {vbd._pct(a, 0.9):.1%} | {statistics.median(e):+.1%} |"


def _err(x, pub):
    return "—" if x is None else f"{x / pub - 1:+.1%}"


def row_lines(res) -> list[str]:
    out = ["| # | round | submitter | system folder | benchmark | GPU | GPUs | GBS | TP/PP/CP/VP | DP | micro-batches "
           "per replica | published step s | ms/layer/micro-batch | published tok/s/GPU | before | now | error before | "
           "error now | top part | note |",
           "|---:|---|---|---|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"]
    for i, (r, row) in enumerate(zip(res, ROWS)):
        now = "—" if r["pred"] is None else f"{r['pred']:,.0f}"
        before = "—" if r["before"] is None else f"{r['before']:,}"
        out.append(f"| {i} | {row[0]} | {row[1]} | {row[2]} | {row[4]} | {row[5]} | {row[6]} | {row[7]} | "
                   f"{row[9]}/{row[10]}/{row[11]}/{row[12]} | {dp(row)} | {micro_batches(row)} | {row[13]:.4f} | "
                   f"{layer_ms(row):.1f} | {r['pub']:,.0f} | {before} | {now} | {_err(r['before'], r['pub'])} | "
                   f"{_err(r['pred'], r['pub'])} | {r['top'] or r['why']} | {row[15].get('flag', '')} |")
    return out


GROUPS = (("gpt3, v3.0 (pytorch 23.04)", lambda r: r["bench"] == "gpt3" and r["round"] == "v3.0"),
          ("gpt3, v3.1 (NeMo 23.09)", lambda r: r["bench"] == "gpt3" and r["round"] == "v3.1"),
          ("llama31_405b H100 (NeMo 25.01)", lambda r: r["bench"] == "llama31_405b" and r["system"] == "H100"),
          ("llama31_405b GB200 (NeMo 25.04)", lambda r: r["bench"] == "llama31_405b" and r["system"] == "GB200"),
          ("all rows", lambda r: True))


def group_lines(res, key="pred") -> list[str]:
    out = ["| group | rows | median |err| | p90 |err| | signed median |", "|---|---:|---:|---:|---:|"]
    out += [_group(name, [r for r in res if keep(r)], key) for name, keep in GROUPS]
    return out


def main(argv=None) -> int:
    res = results()
    print("\n".join(row_lines(res)))
    if all(r["before"] is not None for r in res):
        print("\nBefore (main 33833c23):")
        print("\n".join(group_lines(res, "before")))
    print("\nNow:")
    print("\n".join(group_lines(res)))
    n, med, p90, sgn = vbd.stats(res)
    print(f"\nSCORE (now): {n} rows, median |error| {med:.1%}, p90 {p90:.1%}, signed median {sgn:+.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
