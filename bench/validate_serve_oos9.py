"""Issue 35, round 9 (serveoos9): NEW out-of-sample serving rows, entered as a user would enter them (model preset, card,
precision, TP, engine and version, lengths, concurrency) and scored with the current model. None of these sources is
used by scripts/validate_inference.py or bench/ (grepped for each before entering it).

Sources
-------
(1) FreedomIntelligence/AccelMark, commit 5797fc42745be2494e6213938d9e5afa0c6c5bef (2026-05-19), results/verified/
    <chip>_suite_{A,B,G}_nvidia_vllm_*/{offline,interactive}/result.json ("verified" submissions of the runner
    runners/nvidia_vllm_47f5d58e/runner.py; vLLM 0.7.3 unless stated: 0.19.1rc1 on the RTX 5090, 0.20.1 in the
    nvidia_vllm020 runner). Every run: BF16, gpu_memory_utilization 0.90, max_num_seqs 512 (offline), max_model_len
    4096, max_tokens 512, temperature 0 (greedy, so every card generates the same tokens), CUDA graphs on.
    * suite A: Meta-Llama-3-8B-Instruct, TP1; suite B: Meta-Llama-3-70B-Instruct, TP8; suite G: Mixtral-8x7B-Instruct,
      TP8; suite F: Qwen2.5-0.5B-Instruct, TP1, its own short-prompt dataset (suites/suite_*/suite.json).
    * dataset datasets/sharegpt_standard_v1/requests.jsonl (its own "input_tokens" per prompt, Llama 3 tokenizer).
    * "offline" (loadgen/loadgen.py _run_offline): the first request_count (100; suite F 200) prompts sent at once through
      LLM.generate (the runner's inference_fn_offline); output tokens / wall time. The figure is the same at every
      client concurrency (all 100 go at once): the c128 figure is used. -> MAXIMUM LOAD (a run of 100 requests).
    * "interactive": the first 150 prompts one at a time through AsyncLLMEngine; p50 of TTFT and of TPOT.
      -> FIRST TOKEN (idle replica, median prompt) and BATCH-1 DECODE (TPOT p50).
    Lengths derived from the published figures, not assumed: the suite-A 4090 offline row prints total (input+output)
    2,516.17 and output 1,452.30 tok/s over 24.1 s: 256 input and 350 output tokens a request; the dataset's first 100
    prompts average 245.4 tokens, so the chat template adds 11. Suite B's rows give the same (256 / 344); suite G's
    (Mixtral's tokenizer and [INST] template) 306 input / 351 output: its prompts are 306/256 = 1.19x longer.
    ASSUMED: the 100 outputs' spread (not published): an exponential clipped at max_tokens 512 whose mean is the 350
    measured (scale 610: 43% of the requests stop at 512). vLLM 0.7.3 runs its V0 engine by default (V1 became the
    default in 0.8.0): host work between GPU steps (inf loop "serial"); 0.19/0.20 are V1 with async scheduling
    ("overlapped"). Cards not in the catalog (RTX 3090, L4, RTX 6000 Ada, V100S, H20-3e, T4) are left out.
(2) KV capacity from vLLM start-up logs quoted in GitHub threads:
    * vllm-project/vllm PR #2031 (2023-12-12, "Fix peak memory profiling"), the author's own figures with the fix:
      Llama2-7B TP1 1xA100-80GB "# GPU blocks: 7351"; Llama2-70B TP4 4xA100-80GB "# GPU blocks: 20865" (block 16
      tokens, gpu_memory_utilization 0.90 default; vLLM 0.2.x).
    * vllm-project/vllm issue #13061 (2025-02-11, vLLM 0.7.x V0): DeepSeek-R1-Distill-Qwen-14B (Qwen2.5-14B's shape)
      on two RTX 4090, TP2, --gpu_memory_utilization 0.98: "maximum number of tokens that can be stored in KV cache
      (81536)" (the pool is the smallest rank's).
Looked at, not entered: gigagpu.com RTX 4090 "vLLM 0.6.4" article (195 tok/s FP8 batch 1 is above the card's own
bandwidth ceiling for 8 GB of weights: not a measurement); InferenceBench H100 sweep (prompt and output lengths not
published); Database Mart A40 (no catalog card); vLLM issue #10517 (RTX 3090, not in the catalog).
"""
from __future__ import annotations

import math
import statistics
import sys

from gpuplanner.core import inference as inf
from gpuplanner.core.catalog_hw import get_gpu
from gpuplanner.core.estimate import resolve
from gpuplanner.core.scenario import Scenario

ACCELMARK = "AccelMark 5797fc4"
# The first 100 prompts of datasets/sharegpt_standard_v1/requests.jsonl ("input_tokens", Llama 3 tokenizer)
SHAREGPT_STD_100 = [395, 342, 401, 85, 332, 543, 78, 66, 249, 87, 289, 108, 452, 147, 117, 355, 163, 213, 305, 523, 74,
                    95, 90, 81, 156, 135, 428, 312, 113, 364, 199, 246, 79, 70, 69, 446, 84, 90, 164, 479, 415, 99, 238,
                    185, 216, 198, 405, 306, 264, 112, 188, 92, 260, 70, 403, 592, 74, 274, 188, 167, 311, 146, 262, 405,
                    169, 253, 575, 287, 66, 478, 116, 200, 565, 519, 413, 77, 266, 380, 180, 245, 403, 158, 95, 97, 220,
                    226, 161, 107, 74, 361, 115, 171, 189, 368, 535, 478, 180, 382, 470, 71]
MEDIAN_150 = 193.5  # median "input_tokens" of the first 150 prompts (the interactive scenario's)
TEMPLATE = 11.0  # Llama 3 chat template tokens (derived above)
OUT_MEAN, OUT_CAP = 350.0, 512
# Suite F (Qwen2.5-0.5B-Instruct, "consumer/edge"): datasets/sharegpt_edge_v1/requests.jsonl, the first 200 prompts
# (request_count 200, max_model_len 2048, max_tokens 256). Derived as above from the 4090 row (16,886.59 total and
# 11,326.50 output tok/s over 3.7 s): 210 output tokens a request and 103 input, of which 74.2 are the prompts' own:
# Qwen2.5's template (its default system prompt) adds 29. Median of the first 150 prompts: 57.
SHAREGPT_EDGE_200 = [61, 67, 33, 113, 50, 96, 28, 47, 48, 26, 28, 40, 153, 85, 140, 42, 48, 101, 40, 171, 84, 37, 31, 23,
                     43, 70, 58, 20, 195, 42, 30, 70, 85, 45, 86, 45, 29, 194, 30, 111, 105, 157, 100, 29, 57, 125, 25,
                     116, 46, 61, 94, 38, 42, 60, 144, 37, 107, 55, 26, 28, 21, 198, 89, 26, 34, 51, 116, 65, 67, 52, 77,
                     30, 54, 147, 139, 180, 64, 91, 40, 38, 161, 115, 31, 20, 35, 27, 58, 38, 80, 35, 63, 96, 23, 29, 53,
                     60, 80, 81, 93, 24, 25, 27, 126, 153, 23, 45, 29, 106, 148, 136, 43, 20, 136, 42, 34, 158, 107, 159,
                     60, 193, 41, 49, 74, 20, 125, 157, 35, 22, 120, 105, 163, 57, 25, 77, 104, 20, 150, 28, 21, 27, 72,
                     34, 39, 62, 25, 45, 94, 34, 194, 118, 72, 122, 74, 30, 30, 43, 155, 46, 186, 133, 113, 164, 66, 74,
                     191, 172, 34, 180, 31, 59, 35, 107, 23, 25, 177, 21, 20, 73, 158, 65, 37, 26, 91, 23, 182, 65, 31,
                     59, 153, 72, 73, 24, 73, 23, 31, 82, 31, 54, 43, 106]
# (preset, tp, prompt scale, prompts, interactive median, template, output mean, max_tokens, max_model_len)
SUITES = {"A": ("llama-3-8b", 1, 1.0, SHAREGPT_STD_100, MEDIAN_150, TEMPLATE, OUT_MEAN, OUT_CAP, 4096),
          "B": ("llama-3-70b", 8, 1.0, SHAREGPT_STD_100, MEDIAN_150, TEMPLATE, OUT_MEAN, OUT_CAP, 4096),
          "G": ("mixtral-8x7b", 8, 306.0 / 256.4, SHAREGPT_STD_100, MEDIAN_150, TEMPLATE, OUT_MEAN, OUT_CAP, 4096),
          "F": ("qwen2.5-0.5b", 1, 1.0, SHAREGPT_EDGE_200, 57.0, 29.0, 210.0, 256, 2048),
          # suite C: Llama-3.1-8B-Instruct; the 4090 BF16 row (2,296.43 total, 1,290.19 output tok/s, 28.0 s) gives 360
          # output and 281 input tokens a request: Llama 3.1's template (its dated system header) adds 36
          "C": ("llama-3.1-8b", 1, 1.0, SHAREGPT_STD_100, MEDIAN_150, 36.0, 355.0, OUT_CAP, 4096)}
# Suite C ("quantization efficiency"), offline only: the same 100 prompts at once, one checkpoint per precision
# (RedHatAI Meta-Llama-3.1-8B-Instruct-FP8 / -quantized.w8a16 / -quantized.w4a16, GPTQ-Marlin for w4a16; BF16 the
# original). Best output tok/s over the client concurrencies (all 100 go at once each time). W8A8 (int8 activations)
# left out. Scored apart, not pooled: W4A16, which the suite loads with quantization="gptq" explicitly
# (suites/suite_C/suite.json), so vLLM keeps its legacy GPTQ kernel instead of Marlin (vllm quantization/gptq_marlin.py
# override_quantization_method: "you specified quantization=gptq explicitly, so forcing gptq. Use
# quantization=gptq_marlin for faster inference"; config.py: "gptq quantization is not fully optimized yet. The speed
# can be slower than non-quantized models"), a kernel the planner does not offer; and W8A16 on cards with 8-bit tensor
# cores (Ada, Hopper), where the planner's int8 is W8A8 while the checkpoint runs weight-only.
# (card, vLLM version, {precision: tok/s})
ACCEL_C = [
    ("a100-sxm-40gb", "0.7.3", {"bf16": 2387.70, "fp8": 2574.53, "int8": 2465.33, "int4": 1563.39}),
    ("a100-sxm-80gb", "0.20.1", {"bf16": 3888.91, "fp8": 4141.71, "int8": 3547.44, "int4": 1889.19}),
    ("a100-sxm-80gb", "0.7.3", {"bf16": 2666.87, "fp8": 2823.04, "int8": 2661.86, "int4": 1761.96}),
    ("a800-sxm-80gb", "0.7.3", {"bf16": 2710.52, "fp8": 2859.89, "int8": 2695.72, "int4": 1770.93}),
    ("rtx-4090d-24gb", "0.7.3", {"bf16": 1292.71, "fp8": 2933.85, "int8": 2226.02, "int4": 1343.61}),
    ("rtx-4090-24gb", "0.7.3", {"bf16": 1299.02, "fp8": 2888.23, "int8": 2171.95, "int4": 1345.66}),
    ("rtx-5090-32gb", "0.19.1", {"bf16": 3519.52, "int8": 5303.83, "int4": 2934.27}),
    ("h100-sxm-80gb", "0.7.3", {"bf16": 5052.11, "fp8": 6314.92, "int8": 5369.94, "int4": 3156.46}),
    ("h200-sxm-141gb", "0.7.3", {"bf16": 5333.35, "fp8": 6195.58, "int8": 5093.12, "int4": 3278.96}),
    ("rtx-a6000-48gb", "0.7.3", {"bf16": 1542.59, "fp8": 1469.08, "int8": 1469.70, "int4": 940.08}),
]
# (card, suite, vLLM version, TTFT p50 ms, TPOT p50 ms, offline output tok/s at c128, result dir suffix)
ACCEL_ROWS = [
    ("a100-sxm-40gb", "A", "0.7.3", 39.80, 14.27, 2415.99, "nvidia_a100_sxm4_40gbx1_suite_A_nvidia_vllm_47f5d58e_b4a92b30"),
    ("a100-sxm-80gb", "A", "0.7.3", 46.45, 13.19, 2696.82, "nvidia_a100_sxm4_80gbx1_suite_A_nvidia_vllm_47f5d58e_ed4b0557"),
    ("a100-sxm-80gb", "A", "0.20.1", 27.78, 10.77, 3908.22,
     "nvidia_a100_sxm4_80gbx1_suite_A_nvidia_vllm020_0f6c56e4_8f83bfab"),
    ("a800-sxm-80gb", "A", "0.7.3", 37.83, 12.43, 2715.90, "nvidia_a800_sxm4_80gbx1_suite_A_nvidia_vllm_47f5d58e_298e6500"),
    ("rtx-4090d-24gb", "A", "0.7.3", 49.28, 17.62, 1461.83,
     "nvidia_geforce_rtx_4090_dx1_suite_A_nvidia_vllm_47f5d58e_d6543f77"),
    ("rtx-4090-24gb", "A", "0.7.3", 67.76, 20.13, 1452.30, "nvidia_geforce_rtx_4090x1_suite_A_nvidia_vllm_47f5d58e_675e325e"),
    ("rtx-5090-32gb", "A", "0.19.1", 30.30, 10.22, 3478.44, "nvidia_geforce_rtx_5090x1_suite_A_nvidia_vllm_47f5d58e_b8f8ed0f"),
    ("h100-sxm-80gb", "A", "0.7.3", 20.08, 7.74, 5113.45, "nvidia_h100_80gb_hbm3x1_suite_A_nvidia_vllm_47f5d58e_831c95a7"),
    ("h200-sxm-141gb", "A", "0.7.3", 27.89, 7.62, 5730.96, "nvidia_h200x1_suite_A_nvidia_vllm_47f5d58e_29b2ec38"),
    ("rtx-a6000-48gb", "A", "0.7.3", 76.75, 25.94, 1562.46, "nvidia_rtx_a6000x1_suite_A_nvidia_vllm_47f5d58e_7cd0b745"),
    ("a100-sxm-40gb", "B", "0.7.3", 81.65, 20.93, 1704.46, "nvidia_a100_sxm4_40gbx8_suite_B_nvidia_vllm_47f5d58e_14410aea"),
    ("a800-sxm-80gb", "B", "0.7.3", 81.80, 18.08, 1801.38, "nvidia_a800_sxm4_80gbx8_suite_B_nvidia_vllm_47f5d58e_de0853fa"),
    ("rtx-4090-24gb", "B", "0.7.3", 277.19, 29.79, 441.40, "nvidia_geforce_rtx_4090x8_suite_B_nvidia_vllm_47f5d58e_cfd0bdc8"),
    ("h200-sxm-141gb", "B", "0.7.3", 77.23, 12.29, 3553.46, "nvidia_h200x8_suite_B_nvidia_vllm_47f5d58e_b727568e"),
    ("rtx-a6000-48gb", "B", "0.7.3", 157.98, 34.41, 798.25, "nvidia_rtx_a6000x8_suite_B_nvidia_vllm_47f5d58e_0981ecf7"),
    ("a100-sxm-40gb", "G", "0.7.3", 50.45, 7.12, 3215.89, "nvidia_a100_sxm4_40gbx8_suite_G_nvidia_vllm_47f5d58e_08de2dc2"),
    ("a800-sxm-80gb", "G", "0.7.3", 52.14, 6.85, 3426.69, "nvidia_a800_sxm4_80gbx8_suite_G_nvidia_vllm_47f5d58e_d31ba78b"),
    ("rtx-4090-24gb", "G", "0.7.3", 108.91, 10.74, 1360.73, "nvidia_geforce_rtx_4090x8_suite_G_nvidia_vllm_47f5d58e_a4179ecc"),
    ("h200-sxm-141gb", "G", "0.7.3", 53.26, 6.63, 5332.70, "nvidia_h200x8_suite_G_nvidia_vllm_47f5d58e_7f7a270e"),
    ("rtx-a6000-48gb", "G", "0.7.3", 88.17, 9.45, 1681.33, "nvidia_rtx_a6000x8_suite_G_nvidia_vllm_47f5d58e_a8cf2a0f"),
    # suite F, the offline figure at client concurrency 64 (all 200 at once)
    ("a100-sxm-40gb", "F", "0.7.3", 15.97, 3.15, 10525.21, "nvidia_a100_sxm4_40gbx1_suite_F_nvidia_vllm_47f5d58e_fe3156b5"),
    ("a100-sxm-80gb", "F", "0.7.3", 28.88, 3.83, 10940.86, "nvidia_a100_sxm4_80gbx1_suite_F_nvidia_vllm_47f5d58e_52ad2fe3"),
    ("a100-sxm-80gb", "F", "0.20.1", 11.24, 1.83, 22884.92,
     "nvidia_a100_sxm4_80gbx1_suite_F_nvidia_vllm020_0f6c56e4_a4e6a6e4 (max_num_seqs 128)"),
    ("a800-sxm-80gb", "F", "0.7.3", 27.45, 3.71, 11972.12, "nvidia_a800_sxm4_80gbx1_suite_F_nvidia_vllm_47f5d58e_54d0e7aa"),
    ("rtx-4090d-24gb", "F", "0.7.3", 10.63, 2.32, 14215.49,
     "nvidia_geforce_rtx_4090_dx1_suite_F_nvidia_vllm_47f5d58e_06662a14"),
    ("rtx-4090-24gb", "F", "0.7.3", 35.13, 4.47, 11196.95, "nvidia_geforce_rtx_4090x1_suite_F_nvidia_vllm_47f5d58e_b228454f"),
    ("rtx-5090-32gb", "F", "0.19.1", 22.50, 5.11, 15234.14, "nvidia_geforce_rtx_5090x1_suite_F_nvidia_vllm_47f5d58e_776d2702"),
    ("h100-sxm-80gb", "F", "0.7.3", 11.52, 2.21, 18129.50, "nvidia_h100_80gb_hbm3x1_suite_F_nvidia_vllm_47f5d58e_2c0b7beb"),
    ("h200-sxm-141gb", "F", "0.7.3", 36.01, 5.17, 12855.15, "nvidia_h200x1_suite_F_nvidia_vllm_47f5d58e_53471efa"),
    ("rtx-a6000-48gb", "F", "0.7.3", 35.75, 5.12, 10431.40, "nvidia_rtx_a6000x1_suite_F_nvidia_vllm_47f5d58e_a33d6eb3"),
]
# The 0.20.1 suite-F run states max_num_seqs 128 (its extra_config); every other run 512.
SEQS = {("a100-sxm-80gb", "F", "0.20.1"): 128}
# (preset, card, precision, tp, engine, gpu_memory_utilization, KV tokens in the log, source)
KV_LOGS = [
    ("llama-2-7b", "a100-sxm-80gb", "bf16", 1, "vllm", 0.90, 7351 * 16, "vLLM PR #2031: Llama2-7B TP1, 7351 blocks"),
    ("llama-2-70b", "a100-sxm-80gb", "bf16", 4, "vllm", 0.90, 20865 * 16, "vLLM PR #2031: Llama2-70B TP4, 20865 blocks"),
    ("qwen2.5-14b", "rtx-4090-24gb", "bf16", 2, "vllm", 0.98, 81536,
     "vLLM issue #13061: R1-Distill-Qwen-14B TP2 on 2x4090, 81,536 tokens"),
]


class Errs(list):
    """|error| per row, with each row's signed error and label."""

    def __init__(self):
        super().__init__()
        self.rows = []

    def add(self, err, label):
        self.append(abs(err))
        self.rows.append((err, label))


def p90(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.9 * (len(xs) - 1))))] if xs else float("nan")


def model(preset):
    r = resolve(Scenario.model_validate({"model": {"preset": preset}}))
    return inf.ServingModel.of(r.arch, r.params)


def clipped_outputs(mean=OUT_MEAN, cap=OUT_CAP, n=100):  # noqa: D401
    """n even quantiles of an exponential clipped at ``cap`` whose clipped mean is ``mean`` (the ASSUMED spread)."""
    lo, hi = 1.0, 10.0 * cap
    for _ in range(60):
        s = (lo + hi) / 2
        lo, hi = (s, hi) if s * (1 - math.exp(-cap / s)) < mean else (lo, s)
    return [min(cap, max(1.0, -s * math.log(1 - (i + 0.5) / n))) for i in range(n)]


def loop_of(version):
    """vLLM 0.7.x runs its V0 engine (inf loop "v0", issue 35 round 10; "serial" with ``--before-r10``; from round 11
    the V0 loop of its release, inf.vllm_v0_loop: "v0async"; "v0" with ``--before-r11``), 0.19/0.20 V1."""
    if version.startswith("0.7"):
        return "serial" if BEFORE_R10 else "v0" if BEFORE_R11 else inf.vllm_v0_loop(version)
    return inf.ENGINE_LOOP["vllm"]


def run_budget(card, ver, stated=True, max_model_len=4096, seqs=512):
    """The run's scheduler budget (tokens a step, sequences): the runner's LLM class with max_num_seqs 512 and
    max_model_len 4096. V0 (0.7.x) without chunked prefill: max(max_model_len, 2048) = 4,096 (inf.vllm_v0_budget);
    V1 (0.19/0.20): the LLM class default, 16,384 on cards of 70 GiB or more other than the A100, else 8,192
    (inf.VLLM_LLM_CLASS_BUDGET). ``stated=False``: None, the planner's server defaults (the score before round 9)."""
    if not stated:
        return None
    if ver.startswith("0.7"):
        return inf.vllm_v0_budget(max_model_len, seqs)
    g = get_gpu(card)
    big = g.memory_gib >= inf.LARGE_GPU_GIB and not card.startswith("a100")
    return inf.VLLM_LLM_CLASS_BUDGET[big][0], seqs


STATED = "--server-defaults" not in sys.argv and "--before" not in sys.argv
BEFORE_R10 = "--before" in sys.argv or "--before-r10" in sys.argv  # round 9's model: V0 as the generic serial loop
BEFORE_R11 = BEFORE_R10 or "--before-r11" in sys.argv  # round 10's model: every V0 build on the 0.5-era loop "v0"
if "--before" in sys.argv:  # the model as it was before round 9: no V0 output processing, one Marlin pass
    inf.VLLM_V0_OUTPUT_PROC = (0.0, 0.0, 32)
    inf.MARLIN_PROBLEM_ROWS = 1e12


#: Issue 35 round 12 (fp8serve12): the runner sets no ``kv_cache_dtype`` (runners/nvidia_vllm_47f5d58e/runner.py; suite C's
#: ``precision_model_map`` passes only ``quantization``, suites/suite_C/suite.json) and the FP8 checkpoint
#: (RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8, static per-tensor W8A8) quantizes no KV cache, so vLLM's ``auto`` keeps
#: the cache in bf16 for every format; until round 12 the FP8 rows took the planner's default (an fp8 cache, twice the
#: tokens). ``--kv-as-before`` scores them as before.
KV_AS_BEFORE = "--kv-as-before" in sys.argv


def offline_run(card, suite, ver, precision="bf16"):
    """The modelled offline run (inf.MaxLoadRun) of one AccelMark suite on one card."""
    preset, tp, scale, data, _med, tmpl, out_mean, cap, mml = SUITES[suite]
    seqs = SEQS.get((card, suite, ver), 512)
    return inf.max_load_run(model(preset), get_gpu(card), prompts=[(p + tmpl) * scale for p in data],
                            outputs=clipped_outputs(out_mean, cap, len(data)), requests=len(data), precision=precision,
                            kv_precision=None if KV_AS_BEFORE else "bf16",
                            tp=tp, engine="vllm", utilization=0.90, max_batch=seqs, loop=loop_of(ver),
                            budget=run_budget(card, ver, STATED, mml, seqs))


def accel_row(card, suite, ver, ttft_ms, tpot_ms, tok_s):
    """(TTFT, TPOT, offline tok/s) modelled for one AccelMark run."""
    preset, tp, scale, data, med, tmpl, out_mean, cap, mml = SUITES[suite]
    m, g, loop = model(preset), get_gpu(card), loop_of(ver)
    seqs = SEQS.get((card, suite, ver), 512)
    p_med = (med + tmpl) * scale
    f = inf.time_to_first_token_s(m, g, prompt_tokens=int(round(p_med)), precision="bf16", tp=tp, loop=loop) * 1e3
    t, _ = inf.decode_step_s(m, g, precision="bf16", kv_bytes=inf.KV_BYTES["bf16"], batch=1,
                             context=p_med + out_mean / 2, tp=tp, eff=inf.ServingEfficiency(), loop=loop)
    run = offline_run(card, suite, ver)
    return f, t * 1e3, (run.output_tokens_per_s if run else 0.0), run


def engine_class(card):
    if card.startswith("rtx-") and "a6000" not in card:
        return "GeForce"
    return "GDDR pro" if card.startswith(("rtx-a6000", "l40", "l20")) else "HBM"


APART = Errs()  # suite C rows whose kernel the planner does not model (above)


def score():
    """{metric: Errs} over every new row, printed row by row."""
    out = {"first token": Errs(), "batch-1 decode": Errs(), "max load": Errs(), "KV capacity": Errs()}
    print("| card | model | TP | vLLM | TTFT p50 ms (pub / model) | TPOT p50 ms | offline out tok/s | mean batch |")
    print("|---|---|---|---|---|---|---|---|")
    for card, suite, ver, ttft, tpot, tok_s, _src in ACCEL_ROWS:
        preset, tp = SUITES[suite][:2]
        f, t, v, run = accel_row(card, suite, ver, ttft, tpot, tok_s)
        tag = f"vLLM {ver} {preset} {card} TP{tp} [{engine_class(card)}]"
        out["first token"].add(f / ttft - 1, f"{ACCELMARK} TTFT {tag}")
        out["batch-1 decode"].add(tpot / t - 1, f"{ACCELMARK} TPOT {tag}")  # as tokens/s: (1/t) / (1/tpot) - 1
        out["max load"].add(v / tok_s - 1, f"{ACCELMARK} offline, all at once, {tag}")
        mb = f"{run.mean_batch:.0f}, preempt {run.preemptions:.0f}" if run else "-"
        print(f"| {card} | {preset} | {tp} | {ver} | {ttft:.1f} / {f:.1f} ({f / ttft - 1:+.0%}) | {tpot:.2f} / {t:.2f} "
              f"({tpot / t - 1:+.0%} tok/s) | {tok_s:,.0f} / {v:,.0f} ({v / tok_s - 1:+.0%}) | {mb} |")
    for card, ver, by_prec in ACCEL_C:
        for prec, tok_s in by_prec.items():
            run = offline_run(card, "C", ver, prec)
            v = run.output_tokens_per_s if run else 0.0
            apart = prec == "int4" or (prec == "int8" and getattr(get_gpu(card), "fp8_tflops", None))
            (APART if apart else out["max load"]).add(
                v / tok_s - 1, f"{ACCELMARK} suite C offline {prec} vLLM {ver} llama-3.1-8b {card} TP1 [{engine_class(card)}]")
            print(f"  suite C {card} vLLM {ver} {prec}: {tok_s:,.0f} published, {v:,.0f} modelled ({v / tok_s - 1:+.0%})"
                  + (f", mean batch {run.mean_batch:.0f}, preemptions {run.preemptions:.0f}" if run else ""))
    for p, card, prec, tp, eng, frac, tokens, src in KV_LOGS:
        m = model(p)
        pool = inf.kv_cache_bytes_per_gpu(m, get_gpu(card), precision=prec, tp=tp, engine=eng, utilization=frac)
        got = pool / inf.kv_bytes_per_token_per_gpu(m, inf.KV_BYTES["bf16"], tp)
        out["KV capacity"].add(got / tokens - 1, f"KV {src} {card} [{engine_class(card)}]")
        print(f"  KV pool {p} {card} TP{tp} util {frac}: {tokens:,} tokens published, {got:,.0f} modelled "
              f"({got / tokens - 1:+.1%}) — {src}")
    return out


MODELS = ("llama-3.1-8b", "llama-3-8b", "llama-3-70b", "mixtral-8x7b", "qwen2.5-0.5b", "llama-2-7b", "llama-2-70b", "qwen2.5-14b")
AXES = (("card class", lambda lab: lab.split("[")[-1].rstrip("]")),
        ("model", lambda lab: next((w for w in lab.split() if w in MODELS), "?")),
        ("engine", lambda lab: "vLLM V0 (0.7.3)" if "vLLM 0.7" in lab else "vLLM V1 (0.19/0.20)" if "vLLM 0." in lab
         else "vLLM (KV logs)"))


def _line(label, xs):
    a = [abs(x) for x in xs]
    return (f"{label}: {len(xs)} rows, median {statistics.median(a) * 100:.1f}%, p90 {p90(a) * 100:.1f}%, "
            f"signed median {statistics.median(xs) * 100:+.1f}%")


def report(out):
    """Median / p90 of |error| per metric, then per card class, model and engine generation."""
    print("\nRound 9 (serveoos9) new rows, by metric (median / p90 of |error|, signed median):")
    allr = []
    for name, e in out.items():
        allr += [x for x, _ in e.rows]
        print("  " + _line(name, [x for x, _ in e.rows]))
        for axis, key in AXES:
            groups = {}
            for x, lab in e.rows:
                groups.setdefault(key(lab), []).append(x)
            for k, xs in sorted(groups.items()):
                print("      " + _line(f"{axis} {k}", xs))
    print("  " + _line("all new rows", allr))
    if APART:
        print("  " + _line("apart, not pooled: suite C W4A16 (legacy GPTQ kernel) and W8A16 on Ada/Hopper",
                           [x for x, _ in APART.rows]))
    no_f = [x for e in out.values() for x, lab in e.rows if "qwen2.5-0.5b" not in lab]
    print("  " + _line("all new rows without suite F (Qwen2.5-0.5B)", no_f))
    worst = sorted((r for e in out.values() for r in e.rows), key=lambda r: -abs(r[0]))[:10]
    print("  worst: " + "; ".join(f"{lab} {x:+.0%}" for x, lab in worst))
    return allr


if __name__ == "__main__":
    report(score())
    sys.exit(0)
