"""MLPerf Training (MLCommons) NVIDIA submissions as an out-of-sample step-time check (issue 35 round 8, helper mlperf8).

Usage: python bench/validate_mlperf_oos.py

Every row was entered and scored with the model as it stood on main before this round's changes; no model code was
changed for these rows. Sources (GitHub, read at the commit given per round; v3.1, v4.0, v4.1, v5.0):

* results: ``NVIDIA/results/<system>/<benchmark>/result_*.txt`` (10 runs for llama2_70b_lora, 3 for gpt3 and
  llama31_405b), MLLOG lines;
* configurations: ``NVIDIA/benchmarks/<benchmark>/implementations/<impl>/config_*.sh`` plus ``config_common.sh`` and
  the Hydra YAML of the same folder.

How the published step time is derived from the MLLOG lines (the logs' own fields, no wall-clock arithmetic):

* llama2_70b_lora: ``tracked_stats`` ``{"throughput": x}`` is samples per second of each training block between two
  evaluations (``custom_callbacks.py``; checked on v4.0 ``eos_ngc24.04_nemo`` result_0: 384 samples between
  block_start 1714898507967 ms and block_stop 1714898686027 ms = 2.157/s, logged 2.157). Per run the median over
  its blocks after the first (the first block holds warm-up); the row is the median over the 10 runs. Step time =
  ``global_batch_size`` (MLLOG) / that rate. Each sample is 8,192 tokens (GovReport packed to ``max_seq_length``
  8192 with ``packed_sequence_return_cu_seqlen: False``: one causal mask over the whole row).
* gpt3, llama31_405b and llama31_8b: ``tracked_stats`` ``{"train_step_timing": s}`` (v3.1) / ``{"train_step_time": s}``
  (v5.0) is logged per optimizer step. Per run the median over all steps; the row is the median over the 3 runs.
* The global batch is MLLOG ``global_batch_size`` (it equals ``MINIBS`` × DP of the config, DP = GPUs / (TP·PP·CP);
  ``gradient_accumulation_steps`` in the log = GBS / DP / MBS agrees on every row).

Mapping (as a user would fill the scenario), from the config files:

* llama2_70b_lora (NeMo 1.0 ``megatron_gpt_peft_tuning_config.yaml``): LoRA rank 16 (``LORA_DIM``), targets
  ``['attention']`` = linear_qkv + linear_proj (``attention`` here), ``adapter_dropout`` 0.1, optimizer
  ``fused_adam`` (no distributed optimizer: ZeRO 0), MBS 1, SP when TP > 1, TP comm overlap (``TP_COMM_OVERLAP``),
  FP8 delayed scaling (``fp8_hybrid``, ``FP8_AMAX_ALGO``). Not entered (no scenario field): ``FP8_DPA=1``
  (attention in FP8 through cuDNN), v5.0 GB200 72-GPU ``MCORE_CUDA_GRAPH=1``.
* gpt3 175B (v3.1 NeMo 23.09, ``conf/custom.yaml``): TP 4, PP 8 (config name ``…x4x8``), VP 12 (the YAML default,
  no ``INTERLEAVED_PIPELINE`` in the configs), MBS 1 (``MICRO_BATCH_SIZE=1`` in the per-size config), seq 2048,
  FP8 delayed (``config_fp8.sh``: hybrid, history 1024, max), distributed optimizer (``USE_DIST_OPTIMIZER``).
* llama31_8b (v5.1, NeMo 25.09, GB200): TP 1 × CP 2 (72 GPUs) and TP 2 × CP 4 (512 GPUs), MBS 1, seq 8192, FP8
  current scaling (``FP8_RECIPE="tensorwise"``) with FP8 parameter gather, distributed optimizer, CUDA graphs
  (``config_common_cg.sh``). The 8-GPU run uses NVFP4 (``…_8b_fp4.sh``), which the model has no recipe for: left out.
* llama31_405b (v5.0, NeMo 25.01 / 25.04, ``conf/custom.yaml``): TP 8 PP 8 CP 2 (H100) or TP 4 PP 8 CP 2 (GB200),
  VP 8 (``INTERLEAVED_PIPELINE=8``), MBS 1, seq 8192, FP8 delayed (``fp8_recipe`` default ``delayed``) with FP8
  parameter gather (``FP8_PARAMS`` / ``FP8_PARAM_GATHER``), distributed optimizer with overlapped grad reduce /
  param gather; ``account_for_embedding_in_pipeline_split`` is False (``ASYM_PP_EMBED`` unset), 126 layers.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import validate_bridge_dense as vbd  # noqa: E402

GH = "https://github.com/mlcommons/training_results_"
COMMIT = {"v3.1": "d06288b2bd675a9d88e0e6181f5bb5626b71ec19", "v4.0": "6fe954378efe4a1a1bd665550b18ff8f26018def",
          "v4.1": "b87b9e396f771345d4ef122ba33456304f15228d",
          "v5.0": "0fdc28f013256aea84fa36fdaf1e0fa46094b18c", "v5.1": "441d65f4445cd59687466533fd9f55399136e7a4"}
GPU = {"H100": "h100-sxm-80gb", "H200": "h200-sxm-141gb", "B200": "b200-180gb", "GB200": "gb200-186gb",
       "MI300X": "mi300x-192gb"}
MODEL = {"llama2_70b_lora": "llama-2-70b", "gpt3": "gpt3-175b", "llama31_405b": "llama-3.1-405b",
         "llama31_8b": "llama-3.1-8b"}
SEQ = {"llama2_70b_lora": 8192, "gpt3": 2048, "llama31_405b": 8192, "llama31_8b": 8192}

#: (round, results folder under NVIDIA/results, config under NVIDIA/benchmarks/<benchmark>/implementations,
#: benchmark, system, GPUs, GBS, MBS, TP, PP, CP, VP, published step time in seconds, derivation)
#: ``rate``: GBS / median tracked_stats throughput (samples/s); ``step``: median tracked_stats train_step_tim(e|ing)
ROWS = [
    ("v4.0", "eos_ngc24.04_nemo", "nemo/config_DGXH100_1x8x4xtp4pp1cp1.sh",
     "llama2_70b_lora", "H100", 8, 8, 1, 4, 1, 1, 1, 8 / 2.1549, "rate 2.1549"),
    ("v4.0", "eos_n8_ngc24.04_nemo", "nemo/config_DGXH100_8x8x1xtp4pp1cp2.sh",
     "llama2_70b_lora", "H100", 64, 8, 1, 4, 1, 2, 1, 8 / 12.558, "rate 12.558"),
    ("v4.0", "eos_n128_ngc24.04_nemo", "nemo/config_DGXH100_128x8x1xtp4pp1cp2.sh",
     "llama2_70b_lora", "H100", 1024, 128, 1, 4, 1, 2, 1, 128 / 192.69, "rate 192.69"),
    ("v4.0", "h200_ngc24.04_nemo", "nemo/config_DGXH200_1x8x2xtp2pp1cp1.sh",
     "llama2_70b_lora", "H200", 8, 8, 1, 2, 1, 1, 1, 8 / 2.4747, "rate 2.4747"),
    # v4.1 (NeMo 24.09): the same H100 layouts as v4.0, now with NeMo's per-layer CUDA graphs at TP 4 × CP 2
    ("v4.1", "eos_ngc24.09_nemo", "eos_ngc24.09_nemo/config_DGXH100_1x8x4xtp4pp1cp1.sh",
     "llama2_70b_lora", "H100", 8, 8, 1, 4, 1, 1, 1, 8 / 2.1825, "rate 2.1825"),
    ("v4.1", "eos_n8_ngc24.09_nemo", "eos_n8_ngc24.09_nemo/config_DGXH100_8x8x1xtp4pp1cp2.sh",
     "llama2_70b_lora", "H100", 64, 8, 1, 4, 1, 2, 1, 8 / 14.800, "rate 14.800"),
    ("v4.1", "eos_n128_ngc24.09_nemo", "eos_n128_ngc24.09_nemo/config_DGXH100_128x8x1xtp4pp1cp2.sh",
     "llama2_70b_lora", "H100", 1024, 128, 1, 4, 1, 2, 1, 128 / 234.86, "rate 234.86"),
    ("v4.1", "h200_ngc24.09_nemo", "h200_ngc24.09_nemo/config_DGXH200_1x8x2xtp1pp1cp2.sh",
     "llama2_70b_lora", "H200", 8, 8, 1, 1, 1, 2, 1, 8 / 2.4754, "rate 2.4754"),
    ("v4.1", "b200_preview_nemo", "b200_preview_nemo/config_DGXB200_1x8x2xtp1pp1cp2.sh",
     "llama2_70b_lora", "B200", 8, 8, 1, 1, 1, 2, 1, 8 / 4.6965, "rate 4.6965"),
    ("v5.0", "nyx_n1_ngc25.04_nemo", "nyx_n1_ngc25.04_nemo/config_DGXB200_1x8x1xtp1pp1cp1.sh",
     "llama2_70b_lora", "B200", 8, 8, 1, 1, 1, 1, 1, 8 / 5.2884, "rate 5.2884"),
    ("v5.0", "tyche_ngpu8_ngc25.04_nemo", "tyche_ngpu8_ngc25.04_nemo/config_GB200_2x4x1xtp1pp1cp1.sh",
     "llama2_70b_lora", "GB200", 8, 8, 1, 1, 1, 1, 1, 8 / 5.3813, "rate 5.3813"),
    ("v5.0", "tyche_ngpu72_ngc25.04_nemo", "tyche_ngpu72_ngc25.04_nemo/config_GB200_18x4x1xtp1pp1cp8.sh",
     "llama2_70b_lora", "GB200", 72, 9, 1, 1, 1, 8, 1, 9 / 37.719, "rate 37.719"),
    # other submitters (results and configs under <org>/ instead of NVIDIA/: :data:`ORG`)
    ("v4.0", "XE9680x8H100-SXM-80GB", "pytorch/configs/config_XE9680x8H100-SXM-80GB.sh",
     "llama2_70b_lora", "H100", 8, 8, 1, 4, 1, 1, 1, 8 / 1.9663, "rate 1.9663"),
    ("v4.0", "GX2560M7_H100_SXM_80GBx4", "pytorch/configs/config_GX2560M7_1x4x8xtp4pp1cp1.sh",
     "llama2_70b_lora", "H100", 4, 8, 1, 4, 1, 1, 1, 8 / 0.9813, "rate 0.9813"),
    ("v5.0", "scitix_n8_ngc24.09_nemo", "scitix_n8_ngc24.09_nemo/config_H100_8x8x1xtp4pp1cp2.sh",
     "llama2_70b_lora", "H100", 64, 8, 1, 4, 1, 2, 1, 8 / 14.598, "rate 14.598"),
    ("v5.0", "XE9680x8H200-SXM-141GB", "nemo/config_XE9680x8H200-SXM-141GB_1x8x2xtp1pp1cp2.sh",
     "llama2_70b_lora", "H200", 8, 8, 1, 1, 1, 2, 1, 8 / 2.5566, "rate 2.5566"),
    ("v5.0", "64xBM.GPU.H200.8", "64xBM.GPU.H200.8/configs/config_DGXH200_64x8x1xtp4pp1cp2.sh",
     "llama2_70b_lora", "H200", 512, 64, 1, 4, 1, 2, 1, 64 / 80.603, "rate 80.603"),
    ("v5.0", "1xXE9680Lx8B200-SXM-180GB", "nemo/config_XE9680L_B200.sh",
     "llama2_70b_lora", "B200", 8, 8, 1, 1, 1, 1, 1, 8 / 5.2808, "rate 5.2808"),
    ("v5.0", "8xBM.GPU.B200.8", "8xBM.GPU.B200.8/config_DGXB200_8x8x1xtp1pp1cp8.sh",
     "llama2_70b_lora", "B200", 64, 8, 1, 1, 1, 8, 1, 8 / 31.255, "rate 31.255"),
    ("v5.0", "1xBM.GPU.GB200.4", "1xBM.GPU.GB200.4/config_GB200_1x4x4xtp1pp1cp2.sh",
     "llama2_70b_lora", "GB200", 4, 8, 1, 1, 1, 2, 1, 8 / 2.6889, "rate 2.6889"),
    ("v5.0", "MI300X_EPYC_9575F_pytorch", "MI300X_EPYC_9575F_pytorch/config_MI300X_1x8x1.sh",
     "llama2_70b_lora", "MI300X", 8, 8, 1, 1, 1, 1, 1, 8 / 2.0274, "rate 2.0274"),
    ("v5.0", "MI300X-LLMBoost-GPUBoost-2node", "MI300X-LLMBoost-GPUBoost-2node/config_MI300X_2x8x1.sh",
     "llama2_70b_lora", "MI300X", 16, 8, 1, 1, 1, 2, 1, 8 / 3.7897, "rate 3.7897"),
    ("v5.0", "MI300X-LLMBoost-GPUBoost-4node", "MI300X-LLMBoost-GPUBoost-4node/config_MI300X_4x8x1.sh",
     "llama2_70b_lora", "MI300X", 32, 8, 1, 1, 1, 4, 1, 8 / 5.9317, "rate 5.9317"),
    ("v3.1", "eos_n64_ngc23.09_nemo", "pytorch/config_DGXH100_64x8x192x4x8_mbs1.sh",
     "gpt3", "H100", 512, 2048, 1, 4, 8, 1, 12, 11.054, "step"),
    ("v3.1", "eos_n96_ngc23.09_nemo", "pytorch/config_DGXH100_96x8x128x4x8_mbs1.sh",
     "gpt3", "H100", 768, 3072, 1, 4, 8, 1, 12, 11.075, "step"),
    ("v3.1", "eos-dfw_n512_ngc23.09_nemo", "pytorch/config_DGXH100_512x8x16x4x8_mbs1.sh",
     "gpt3", "H100", 4096, 2048, 1, 4, 8, 1, 12, 1.6084, "step"),
    ("v3.1", "eos-dfw_n1344_ngc23.09_nemo", "pytorch/config_DGXH100_1344x8x8x4x8_mbs1.sh",
     "gpt3", "H100", 10752, 2688, 1, 4, 8, 1, 12, 0.9296, "step"),
    ("v5.0", "eos-dfw_n64_ngc25.01_nemo", "eos-dfw_n64_ngc25.01_nemo/config_DGXH100_64x8x288xtp8pp8cp2.sh",
     "llama31_405b", "H100", 512, 1152, 1, 8, 8, 2, 8, 55.143, "step"),
    ("v5.0", "eos-dfw_n256_ngc25.01_nemo", "eos-dfw_n256_ngc25.01_nemo/config_DGXH100_256x8x72xtp8pp8cp2.sh",
     "llama31_405b", "H100", 2048, 1152, 1, 8, 8, 2, 8, 14.222, "step"),
    ("v5.0", "eos-dfw_n1024_ngc25.01_nemo", "eos-dfw_n1024_ngc25.01_nemo/config_DGXH100_1024x8x24xtp8pp8cp2.sh",
     "llama31_405b", "H100", 8192, 1536, 1, 8, 8, 2, 8, 5.1804, "step"),
    ("v5.0", "tyche_ngpu256_ngc25.04_nemo", "tyche_ngpu256_ngc25.04_nemo/config_GB200_64x4x112xtp4pp8cp2_cg.sh",
     "llama31_405b", "GB200", 256, 448, 1, 4, 8, 2, 8, 19.168, "step"),
    ("v5.0", "tyche_ngpu512_ngc25.04_nemo",
     "tyche_ngpu512_ngc25.04_nemo/config_GB200_128x4x112xtp4pp8cp2_cg_dplast.sh",
     "llama31_405b", "GB200", 512, 896, 1, 4, 8, 2, 8, 19.432, "step"),
    # v5.1 (NeMo 25.09) llama31_8b on GB200; the implementation folder holds every system's configs: the row's config
    # is the only one whose nodes × GPUs and MINIBS × DP match the log's platform and global_batch_size
    ("v5.1", "tyche_ngpu72_ngc25.09_nemo", "nemo/config_GB200_18x4x1xtp1pp1cp2_8b.sh",
     "llama31_8b", "GB200", 72, 36, 1, 1, 1, 2, 1, 0.1709, "step"),
    ("v5.1", "tyche_ngpu512_ngc25.09_nemo", "nemo/config_GB200_128x4x1xtp2pp1cp4_8b.sh",
     "llama31_8b", "GB200", 512, 64, 1, 2, 1, 4, 1, 0.0889, "step"),
]

#: the submitter of a results folder (NVIDIA where not listed)
ORG = {"XE9680x8H100-SXM-80GB": "Dell", "GX2560M7_H100_SXM_80GBx4": "Fujitsu", "scitix_n8_ngc24.09_nemo": "SCITIX",
       "XE9680x8H200-SXM-141GB": "Dell", "64xBM.GPU.H200.8": "Oracle", "1xXE9680Lx8B200-SXM-180GB": "Dell",
       "8xBM.GPU.B200.8": "Oracle", "1xBM.GPU.GB200.4": "Oracle", "MI300X_EPYC_9575F_pytorch": "AMD",
       "MI300X-LLMBoost-GPUBoost-2node": "MangoBoost", "MI300X-LLMBoost-GPUBoost-4node": "MangoBoost"}
#: configurations that switch TP userbuffers overlap off (the last ``TP_COMM_OVERLAP`` export of the config is
#: ``False``; AMD's and MangoBoost's TP 1 configs say False too, which changes nothing at TP 1)
NO_TP_OVERLAP = {"XE9680x8H100-SXM-80GB", "GX2560M7_H100_SXM_80GBx4"}

#: LoRA configurations: every submitter's ``config_common.sh`` exports ``LORA_A2A=1`` (NeMo ``a2a_experimental``: the
#: row-parallel adapter's all-to-all, ``training.lora_a2a``). NVIDIA's NeMo YAML sets ``tp_comm_overlap_disable_qkv``
#: from ``MC_TP_DISABLE_QKV`` (default True; v4.1 ``conf/megatron_gpt_peft_tuning_config.yaml``, and v5.0's NeMo 2
#: ``train.py`` sets it True). v4.0's YAML names the key ``tp_comm_disable_qkv`` (whether NeMo 24.04 read that key
#: was not checked), so v4.0 rows are entered without it; the other submitters' rows run without TP overlap or at
#: TP 1 except SCITIX and Oracle (NVIDIA's v4.1/v5.0 code): entered with it.
DISABLE_QKV = {"eos_ngc24.09_nemo", "eos_n8_ngc24.09_nemo", "eos_n128_ngc24.09_nemo", "h200_ngc24.09_nemo",
               "b200_preview_nemo", "scitix_n8_ngc24.09_nemo", "64xBM.GPU.H200.8"}
#: LoRA configurations that capture CUDA graphs (``MCORE_CUDA_GRAPH=1``: Megatron-Core's full-layer graphs;
#: ``LAYER_CUDA_GRAPH=1``: NeMo's per-layer graphs); every other LoRA config sets both to 0 or leaves them unset
GRAPHS = {"tyche_ngpu72_ngc25.04_nemo": "MCORE_CUDA_GRAPH=1", "8xBM.GPU.B200.8": "MCORE_CUDA_GRAPH=1",
          "1xBM.GPU.GB200.4": "MCORE_CUDA_GRAPH=1", "scitix_n8_ngc24.09_nemo": "LAYER_CUDA_GRAPH=1",
          "eos_n8_ngc24.09_nemo": "LAYER_CUDA_GRAPH=1", "eos_n128_ngc24.09_nemo": "LAYER_CUDA_GRAPH=1",
          "b200_preview_nemo": "LAYER_CUDA_GRAPH=1"}


def _graph_rows(res: list[dict]) -> list[dict]:
    return [r for r, row in zip(res, ROWS) if row[1] in GRAPHS]


def source(row) -> str:
    """repo + path + commit of the row's result logs and config."""
    rnd, res, cfg, bench = row[0], row[1], row[2], row[3]
    base = f"{GH}{rnd}/blob/{COMMIT[rnd]}/{ORG.get(res, 'NVIDIA')}"
    return f"{base}/results/{res}/{bench}/result_*.txt; {base}/benchmarks/{bench}/implementations/{cfg}"


def tokens_per_step(row) -> int:
    """Tokens in one optimizer step: GBS × sequence (every MLPerf sample fills the sequence)."""
    return row[6] * SEQ[row[3]]


def scenario(row) -> dict:
    """The scenario for one :data:`ROWS` row (mapping in the module doc)."""
    _rnd, _res, _cfg, bench, system, n, gbs, mbs, tp, pp, cp, vp, _step, _how = row
    lora = bench == "llama2_70b_lora"
    training = {"framework": "megatron-bridge" if lora else "megatron", "precision": "fp8",
                "fp8_recipe": "te_delayed", "seq_len": SEQ[bench], "micro_batch_size": mbs,
                "global_batch_size": gbs, "recompute": "none"}
    if bench == "llama31_8b":
        # config_common.sh: FP8_RECIPE="tensorwise" (TE current scaling), FP8_PARAM_GATHER=True
        training["fp8_recipe"] = "te_current"
    if lora:
        training.update({"method": "lora", "lora_rank": 16, "lora_targets": "attention", "lora_dropout": 0.1,
                         "lora_a2a": True, "tp_comm_overlap_disable_qkv": _res in DISABLE_QKV})
        if _res in NO_TP_OVERLAP:
            training["tp_comm_overlap"] = False
    else:
        training["fp8_all_gather"] = bench in ("llama31_405b", "llama31_8b")
    return {"model": {"preset": MODEL[bench]}, "training": training,
            "parallel": {"tp": tp, "pp": pp, "cp": cp, "vpp": vp, "sequence_parallel": tp > 1,
                         "zero": 0 if lora else 1},
            "hardware": {"gpu": GPU[system], "num_gpus": n}}


#: decoder layers (the presets': Llama 2 70B 80, GPT-3 175B 96, Llama 3.1 405B 126)
LAYERS = {"llama2_70b_lora": 80, "gpt3": 96, "llama31_405b": 126, "llama31_8b": 32}


def layer_ms(row) -> float:
    """Published milliseconds per decoder layer per micro-batch on one GPU (forward + backward): step time / the
    micro-batches each replica runs (GBS / (DP · MBS)) / the layers one pipeline stage holds. A pointer to how small
    each GPU's share of work is, used to sort the LoRA rows (see bench/data/mlperf8.md)."""
    _rnd, _res, _cfg, bench, _sys, n, gbs, mbs, tp, pp, cp, _vp, step, _how = row
    dp = n // (tp * pp * cp)
    return 1000.0 * step / (gbs / (dp * mbs)) / (LAYERS[bench] / pp)


def _as_dense(row) -> tuple:
    """The row in :data:`vbd.ROWS` layout (published tokens/s per GPU) so the dense table's helpers print it."""
    rnd, _res, _cfg, bench, system, n, gbs, mbs, tp, pp, cp, vp, step, _how = row
    return (f"MLPerf {rnd} {bench}", system, MODEL[bench], "ds", n, gbs, mbs, SEQ[bench], 0, tp, pp, cp, vp,
            round(tokens_per_step(row) / step / n))


def results() -> list[dict]:
    """Rows with predictions (tokens/s per GPU; the published step time gives the published rate)."""
    res = vbd.results(ROWS, scenario)
    for r, row in zip(res, ROWS):
        r["pub"] = tokens_per_step(row) / row[12] / row[5]
        r["row"] = _as_dense(row)
        r["bench"], r["system"], r["org"] = row[3], row[4], ORG.get(row[1], "NVIDIA")
    return res


def summary_lines(res: list[dict]) -> list[str]:
    """Median/p90 |error| per benchmark, per system family, and overall."""
    out = ["| group | rows | median |err| | p90 |err| | signed median |", "|---|---:|---:|---:|---:|"]
    groups = [(b, [r for r in res if r["bench"] == b]) for b in MODEL]
    groups += [(f"system {s}", [r for r in res if r["system"] == s]) for s in GPU]
    lora = [(r, row) for r, row in zip(res, ROWS) if row[3] == "llama2_70b_lora"]
    tp4cp2 = [r for r, row in lora if row[8:11] == (4, 1, 2)]
    groups.append(("LoRA TP 4 × CP 2 without CUDA graphs", [r for r in tp4cp2 if
                                                            not any(r is x for x in _graph_rows(res))]))
    groups.append(("LoRA rows with CUDA graphs in the config", [r for r, row in lora if row[1] in GRAPHS]))
    groups.append(("LoRA, every other row", [r for r, row in lora if row[1] not in GRAPHS and
                                             row[8:11] != (4, 1, 2)]))
    groups.append(("LoRA, other submitters", [r for r in res if r["org"] != "NVIDIA"]))
    groups.append(("all rows", res))
    for name, sub in groups:
        n, med, p90, sgn = vbd.stats(sub)
        out.append(f"| {name} | {n} | {med:.1%} | {p90:.1%} | {sgn:+.1%} |")
    return out


def step_lines(res: list[dict]) -> list[str]:
    """Published vs predicted step time per row, with the source."""
    out = ["| round | benchmark | system | GPUs | GBS | TP/PP/CP/VP | published step s | ms/layer/micro-batch | "
           "predicted step s | error | source |", "|---|---|---|---:|---:|---|---:|---:|---:|---:|---|"]
    for r, row in zip(res, ROWS):
        pred = "—" if r["pred"] is None else f"{r['pub'] / r['pred'] * row[12]:.3f}"
        err = "—" if r["pred"] is None else f"{r['pred'] / r['pub'] - 1:+.1%}"
        out.append(f"| {row[0]} | {row[3]} | {row[4]} | {row[5]} | {row[6]} | {row[8]}/{row[9]}/{row[10]}/{row[11]} "
                   f"| {row[12]:.3f} | {layer_ms(row):.1f} | {pred} | {err} | [{r['org']} {row[1]}]({source(row).split(';')[0]}) |")
    return out


def main() -> int:
    res = results()
    print("\n".join(step_lines(res)))
    print()
    print("\n".join(vbd.row_lines(res)))
    print()
    print("\n".join(summary_lines(res)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
