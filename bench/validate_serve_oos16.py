"""Issue 35, round 16 (servoos16): NEW out-of-sample serving rows — TensorRT-LLM's maximum-load tables as of v0.12.0
and v0.11.0 (the first in-flight-batching pages; the repo held v0.9, v0.15, v0.17, v1.0 and later, never these two) —
entered as a user would enter them (model preset, card, precision, TP, lengths) and scored with the current model
BEFORE any change. Run: ``python bench/validate_serve_oos16.py`` (``--rows``: every row; ``--finite``: also each
page's request set sent at once, a few minutes).

None of these figures is in scripts/validate_inference.py, bench/, tests/, docs/ or /work/shared/reference (grepped
for "19706.35", "29084.05", "28288.75", "10818.97", "11393.48", "16125.2").

Sources (NVIDIA/TensorRT-LLM ``docs/source/performance/perf-overview.md``, two stored versions; the code index gives
no commit for them, the pages name their version)
-------
(T12) "All data in the table below was generated using version 0.12.0 and presents token throughput in
    tokens/second." ``trtllm-bench --model $model_name build --tp_size $tp_size --quantization FP8 --dataset
    $dataset_file`` (FP16 engines: the same without ``--quantization FP8``; "If you specify FP8 quantization, the KV
    cache will automatically be set to FP8 as well"), ``trtllm-bench --model $model_name throughput --dataset
    $dataset_file --engine_dir $engine_dir``; dataset ``prepare_dataset.py ... token-norm-dist --input-mean=$isl
    --output-mean=$osl --input-stdev=0 --output-stdev=0`` (30,000 / 3,000 / 1,500 / 3,000 / 1,500 requests for
    128/128, 128/2048, 128/4096, 2048/128, 2048/2048); infinite rate; total output tok/s of the TP group. The page's
    example printout (Llama-2-7B FP8, 0.12.0): "Max Runtime Batch Size: 4096", "Max Runtime Tokens: 8192",
    "Scheduling Policy: Guaranteed No Evict", "KV Memory Percentage: 99.0%".
(T11) "All data in the table below was generated using version 0.11.0": ``trtllm-build --model_config $model_cfg
    --use_fused_mlp --gpt_attention_plugin float16 ... --max_batch_size $max_batch_size --max_input_len 2048
    --max_output_len 2048 --max_num_tokens $max_num_tokens --use_paged_context_fmha enable --multiple_profiles
    enable`` (FP8 configs: ``"quant_algo": "FP8", "kv_cache_quant_algo": "FP8"``; A100: both null), run with
    ``gptManagerBenchmark --type IFB --eos_id -1 --scheduler_policy guaranteed_no_evict
    --kv_cache_free_gpu_mem_fraction 0.99 --request_rate -1.0 --enable_chunked_context``; per model and TP the page
    gives ``$max_batch_size`` (``MAX_BATCH_T11``, entered as the user's batch cap). Same datasets (no 128/4096).
Columns entered: H200 141GB HBM3 FP8, H100 80GB HBM3 FP8, H100 "Mixed"/"FP16" (16-bit), A100-SXM4-80GB 16-bit, L40S
FP8. Left out: GH200 (not in the catalog), GPT-J 6B and Falcon 180B (no preset). LLaMA v3 8B / 70B are the
``llama-3-8b`` / ``llama-3-70b`` presets; Mixtral 8x7B (MoE) is its own group, as serve6 keeps MoE maximum load apart.

Scored as the held TensorRT-LLM maximum-load rows are (``bench/validate_serve_oos13.py``: ``inf.max_throughput_per_gpu``,
the steady state at fixed lengths, engine ``tensorrt-llm``), with the KV share each page states: 0.99 (T11's command;
T12's printout). The engine default 0.90 (what the held v0.15 / v0.17 rows assume) is printed as a sensitivity.

(B1) Batch-1 decode (concurrency 1) from tenstorrent/tt-inference-server's GPU reference runs (the client is
    vLLM's ``benchmark_serving`` at ``--max-concurrency 1``; mean TPOT in ms): issue #143 (2025-04-01, "Performance
    Benchmarks for Qwen2.5-72B-Instruct on 2xH100") and issue #125 (2025-03-28, "Performance Benchmarks for
    Qwen2.5-7B-Instruct on 4090"; its metadata block says "device": "n300", a template left over — the figures, 17 ms
    a token and 31 ms to the first, are a GPU's, the n300 runs of the same model in issue #332 are 42 ms and 245 ms).
    ASSUMED (the comments are silent): vLLM of that spring (0.8.x, V1 without async scheduling: loop ``serial``), BF16
    weights and KV cache (the HF checkpoints), H100 SXM 80 GB, TP 2 for "2xH100". Context: prompt + half the output.
    Left out: the same tables' TTFT columns — not monotonic in the prompt in the same project's GPU runs (issue #356
    DeepSeek-R1 8xH100: 127 ms at 2,048 tokens, 120 ms at 4,096; #340 Qwen3-14B A100: 284 ms at 1,024, 217 ms at
    4,096; #143 itself: 2,048 tokens in 149.5 ms is 2 x 72e9 x 2,048 / 2 GPUs / 0.1495 s = 986 TFLOP/s a GPU, the
    H100's whole dense peak), so a prefix cache or warm-up is in them.

Error convention: published / predicted - 1 (the brief's); modelled / published - 1 in brackets.
"""
from __future__ import annotations

import contextlib
import statistics
import sys

from gpuplanner.core import inference as inf
from gpuplanner.core.catalog_hw import get_gpu
from gpuplanner.core.estimate import resolve
from gpuplanner.core.scenario import Scenario

H100, A100, L40S, H200 = "h100-sxm-80gb", "a100-sxm-80gb", "l40s-48gb", "h200-sxm-141gb"
# T12 printout "KV Memory Percentage: 99.0%"; T11 --kv_cache_free_gpu_mem_fraction 0.99
KV_SHARE = {"v0.12": 0.99, "v0.11": 0.99}
# (T11) $max_batch_size per (preset, tp) ("General"), and the special (preset, tp, isl, osl) cases of the page
MAX_BATCH_T11 = {("llama-2-7b", 1): 4096, ("llama-2-70b", 2): 2048, ("llama-2-70b", 4): 4096, ("llama-2-70b", 8): 8192,
                 ("llama-3-8b", 1): 2048, ("llama-3-70b", 4): 2048, ("llama-3-70b", 8): 8192,
                 ("mixtral-8x7b", 2): 2048, ("mixtral-8x7b", 4): 8192, ("mistral-7b-v0.1", 1): 4098,
                 ("llama-2-70b", 4, 128, 4096): 256, ("llama-2-70b", 8, 128, 2048): 1024}
# both pages: "$num_requests" per (isl, osl), "to guarantee that the system hit a steady state"
NUM_REQUESTS = {(128, 128): 30000, (128, 2048): 3000, (128, 4096): 1500, (2048, 128): 3000, (2048, 2048): 1500}
MAX_BATCH_T12 = 4096  # the page's printout: "Max Runtime Batch Size: 4096" (trtllm-bench build's choice)
# (preset, tp, gpu, precision, isl, osl, published total output tok/s of the TP group)
T12 = [
    ("llama-2-7b", 1, H200, "fp8", 128, 128, 19706.35),
    ("llama-2-7b", 1, H100, "fp8", 128, 128, 19068.99),
    ("llama-2-7b", 1, H100, "bf16", 128, 128, 11393.48),
    ("llama-2-7b", 1, A100, "bf16", 128, 128, 5272.39),
    ("llama-2-7b", 1, L40S, "fp8", 128, 128, 6345.72),
    ("llama-2-7b", 1, H200, "fp8", 128, 2048, 7651.12),
    ("llama-2-7b", 1, H100, "fp8", 128, 2048, 6610.03),
    ("llama-2-7b", 1, H100, "bf16", 128, 2048, 2964.65),
    ("llama-2-7b", 1, A100, "bf16", 128, 2048, 1785.79),
    ("llama-2-7b", 1, L40S, "fp8", 128, 2048, 1551.37),
    ("llama-2-7b", 1, H200, "fp8", 128, 4096, 4424.9),
    ("llama-2-7b", 1, H100, "fp8", 128, 4096, 3649.38),
    ("llama-2-7b", 1, H100, "bf16", 128, 4096, 1596.87),
    ("llama-2-7b", 1, A100, "bf16", 128, 4096, 957.12),
    ("llama-2-7b", 1, L40S, "fp8", 128, 4096, 817.24),
    ("llama-2-7b", 1, H200, "fp8", 2048, 128, 2385.54),
    ("llama-2-7b", 1, H100, "fp8", 2048, 128, 2271.63),
    ("llama-2-7b", 1, H100, "bf16", 2048, 128, 1189.06),
    ("llama-2-7b", 1, A100, "bf16", 2048, 128, 564.77),
    ("llama-2-7b", 1, L40S, "fp8", 2048, 128, 625.09),
    ("llama-2-7b", 1, H200, "fp8", 2048, 2048, 3191.34),
    ("llama-2-7b", 1, H100, "fp8", 2048, 2048, 2802.41),
    ("llama-2-7b", 1, H100, "bf16", 2048, 2048, 1243.96),
    ("llama-2-7b", 1, A100, "bf16", 2048, 2048, 735.19),
    ("llama-2-7b", 1, L40S, "fp8", 2048, 2048, 641.56),
    ("llama-3-8b", 1, H200, "fp8", 128, 128, 28288.75),
    ("llama-3-8b", 1, H100, "fp8", 128, 128, 27399.75),
    ("llama-3-8b", 1, H100, "bf16", 128, 128, 15567.44),
    ("llama-3-8b", 1, A100, "bf16", 128, 128, 6586.88),
    ("llama-3-8b", 1, L40S, "fp8", 128, 128, 8745.8),
    ("llama-3-8b", 1, H200, "fp8", 128, 2048, 23230.62),
    ("llama-3-8b", 1, H100, "fp8", 128, 2048, 19198.73),
    ("llama-3-8b", 1, H100, "bf16", 128, 2048, 8817.39),
    ("llama-3-8b", 1, A100, "bf16", 128, 2048, 4882.13),
    ("llama-3-8b", 1, L40S, "fp8", 128, 2048, 5084.49),
    ("llama-3-8b", 1, H200, "fp8", 128, 4096, 16144.44),
    ("llama-3-8b", 1, H100, "fp8", 128, 4096, 12084.97),
    ("llama-3-8b", 1, H100, "bf16", 128, 4096, 5352.37),
    ("llama-3-8b", 1, A100, "bf16", 128, 4096, 3079.9),
    ("llama-3-8b", 1, L40S, "fp8", 128, 4096, 2755.13),
    ("llama-3-8b", 1, H200, "fp8", 2048, 128, 3623.79),
    ("llama-3-8b", 1, H100, "fp8", 2048, 128, 3463.26),
    ("llama-3-8b", 1, H100, "bf16", 2048, 128, 1852.48),
    ("llama-3-8b", 1, A100, "bf16", 2048, 128, 781.63),
    ("llama-3-8b", 1, L40S, "fp8", 2048, 128, 980.86),
    ("llama-3-8b", 1, H200, "fp8", 2048, 2048, 11093.62),
    ("llama-3-8b", 1, H100, "fp8", 2048, 2048, 8894.11),
    ("llama-3-8b", 1, H100, "bf16", 2048, 2048, 3986.83),
    ("llama-3-8b", 1, A100, "bf16", 2048, 2048, 2268.13),
    ("llama-3-8b", 1, L40S, "fp8", 2048, 2048, 2051.79),
    ("mistral-7b-v0.1", 1, H200, "fp8", 128, 128, 30223.01),
    ("mistral-7b-v0.1", 1, H100, "fp8", 128, 128, 29788.46),
    ("mistral-7b-v0.1", 1, H100, "bf16", 128, 128, 16319.25),
    ("mistral-7b-v0.1", 1, A100, "bf16", 128, 128, 6807.02),
    ("mistral-7b-v0.1", 1, L40S, "fp8", 128, 128, 9612.58),
    ("mistral-7b-v0.1", 1, H200, "fp8", 128, 2048, 24989.54),
    ("mistral-7b-v0.1", 1, H100, "fp8", 128, 2048, 20509.72),
    ("mistral-7b-v0.1", 1, H100, "bf16", 128, 2048, 9982.01),
    ("mistral-7b-v0.1", 1, A100, "bf16", 128, 2048, 5296.02),
    ("mistral-7b-v0.1", 1, L40S, "fp8", 128, 2048, 5444.89),
    ("mistral-7b-v0.1", 1, H200, "fp8", 128, 4096, 17036.14),
    ("mistral-7b-v0.1", 1, H100, "fp8", 128, 4096, 12807.8),
    ("mistral-7b-v0.1", 1, H100, "bf16", 128, 4096, 5718.89),
    ("mistral-7b-v0.1", 1, A100, "bf16", 128, 4096, 3241.33),
    ("mistral-7b-v0.1", 1, L40S, "fp8", 128, 4096, 2931.17),
    ("mistral-7b-v0.1", 1, H200, "fp8", 2048, 128, 3678.8),
    ("mistral-7b-v0.1", 1, H100, "fp8", 2048, 128, 3521.71),
    ("mistral-7b-v0.1", 1, H100, "bf16", 2048, 128, 1887.75),
    ("mistral-7b-v0.1", 1, A100, "bf16", 2048, 128, 786.43),
    ("mistral-7b-v0.1", 1, L40S, "fp8", 2048, 128, 1002.49),
    ("mistral-7b-v0.1", 1, H200, "fp8", 2048, 2048, 11510.54),
    ("mistral-7b-v0.1", 1, H100, "fp8", 2048, 2048, 9214.61),
    ("mistral-7b-v0.1", 1, H100, "bf16", 2048, 2048, 4284.82),
    ("mistral-7b-v0.1", 1, A100, "bf16", 2048, 2048, 2363.25),
    ("mistral-7b-v0.1", 1, L40S, "fp8", 2048, 2048, 2154.26),
    ("mixtral-8x7b", 2, H200, "fp8", 128, 128, 24895.03),
    ("mixtral-8x7b", 2, H100, "fp8", 128, 128, 24394.71),
    ("mixtral-8x7b", 2, H100, "bf16", 128, 128, 15529.86),
    ("mixtral-8x7b", 2, A100, "bf16", 128, 128, 5921.41),
    ("mixtral-8x7b", 4, H200, "fp8", 128, 128, 42014.24),
    ("mixtral-8x7b", 4, H100, "fp8", 128, 128, 40197.42),
    ("mixtral-8x7b", 4, H100, "bf16", 128, 128, 28132.17),
    ("mixtral-8x7b", 4, A100, "bf16", 128, 128, 11414.95),
    ("mixtral-8x7b", 4, L40S, "fp8", 128, 128, 6820.26),
    ("mixtral-8x7b", 2, H200, "fp8", 128, 2048, 29389.21),
    ("mixtral-8x7b", 2, H100, "fp8", 128, 2048, 20873.02),
    ("mixtral-8x7b", 2, H100, "bf16", 128, 2048, 7066.02),
    ("mixtral-8x7b", 2, A100, "bf16", 128, 2048, 4306.98),
    ("mixtral-8x7b", 4, H200, "fp8", 128, 2048, 52348.1),
    ("mixtral-8x7b", 4, H100, "fp8", 128, 2048, 40588.05),
    ("mixtral-8x7b", 4, H100, "bf16", 128, 2048, 21285.72),
    ("mixtral-8x7b", 4, A100, "bf16", 128, 2048, 10974.83),
    ("mixtral-8x7b", 4, L40S, "fp8", 128, 2048, 7467.15),
    ("mixtral-8x7b", 2, H200, "fp8", 128, 4096, 21480.27),
    ("mixtral-8x7b", 2, H100, "fp8", 128, 4096, 12838.28),
    ("mixtral-8x7b", 2, H100, "bf16", 128, 4096, 3986.01),
    ("mixtral-8x7b", 2, A100, "bf16", 128, 4096, 2400.11),
    ("mixtral-8x7b", 4, H200, "fp8", 128, 4096, 39182.04),
    ("mixtral-8x7b", 4, H100, "fp8", 128, 4096, 28337.31),
    ("mixtral-8x7b", 4, H100, "bf16", 128, 4096, 12447.13),
    ("mixtral-8x7b", 4, A100, "bf16", 128, 4096, 7278.89),
    ("mixtral-8x7b", 4, L40S, "fp8", 128, 4096, 5233.43),
    ("mixtral-8x7b", 2, H200, "fp8", 2048, 128, 2934.44),
    ("mixtral-8x7b", 2, H100, "fp8", 2048, 128, 2898.27),
    ("mixtral-8x7b", 2, H100, "bf16", 2048, 128, 1834.77),
    ("mixtral-8x7b", 2, A100, "bf16", 2048, 128, 693.51),
    ("mixtral-8x7b", 4, H200, "fp8", 2048, 128, 5152.4),
    ("mixtral-8x7b", 4, H100, "fp8", 2048, 128, 5028.61),
    ("mixtral-8x7b", 4, H100, "bf16", 2048, 128, 3393.18),
    ("mixtral-8x7b", 4, A100, "bf16", 2048, 128, 1362.93),
    ("mixtral-8x7b", 4, L40S, "fp8", 2048, 128, 805.49),
    ("mixtral-8x7b", 2, H200, "fp8", 2048, 2048, 14029.17),
    ("mixtral-8x7b", 2, H100, "fp8", 2048, 2048, 10479.45),
    ("mixtral-8x7b", 2, H100, "bf16", 2048, 2048, 3531.31),
    ("mixtral-8x7b", 2, A100, "bf16", 2048, 2048, 1945.88),
    ("mixtral-8x7b", 4, H200, "fp8", 2048, 2048, 25436.05),
    ("mixtral-8x7b", 4, H100, "fp8", 2048, 2048, 19971.72),
    ("mixtral-8x7b", 4, H100, "bf16", 2048, 2048, 9622.66),
    ("mixtral-8x7b", 4, A100, "bf16", 2048, 2048, 5221.74),
    ("mixtral-8x7b", 4, L40S, "fp8", 2048, 2048, 3616.3),
    ("llama-3-70b", 2, H200, "fp8", 128, 128, 5386.88),
    ("llama-3-70b", 2, H100, "bf16", 128, 128, 2959.22),
    ("llama-3-70b", 2, A100, "bf16", 128, 128, 1301.14),
    ("llama-3-70b", 4, H200, "fp8", 128, 128, 8944.26),
    ("llama-3-70b", 4, H100, "fp8", 128, 128, 8642.05),
    ("llama-3-70b", 4, H100, "bf16", 128, 128, 5966.47),
    ("llama-3-70b", 4, A100, "bf16", 128, 128, 2413.95),
    ("llama-3-70b", 8, H200, "fp8", 128, 128, 16125.2),
    ("llama-3-70b", 8, H100, "fp8", 128, 128, 15397.47),
    ("llama-3-70b", 8, H100, "bf16", 128, 128, 10406.55),
    ("llama-3-70b", 8, A100, "bf16", 128, 128, 4548.32),
    ("llama-3-70b", 8, L40S, "fp8", 128, 128, 1364.08),
    ("llama-3-70b", 2, H200, "fp8", 128, 2048, 7007.27),
    ("llama-3-70b", 2, H100, "bf16", 128, 2048, 720.73),
    ("llama-3-70b", 2, A100, "bf16", 128, 2048, 500.83),
    ("llama-3-70b", 4, H200, "fp8", 128, 2048, 12906.75),
    ("llama-3-70b", 4, H100, "fp8", 128, 2048, 8978.95),
    ("llama-3-70b", 4, H100, "bf16", 128, 2048, 4736.61),
    ("llama-3-70b", 4, A100, "bf16", 128, 2048, 2380.02),
    ("llama-3-70b", 8, H200, "fp8", 128, 2048, 19417.37),
    ("llama-3-70b", 8, H100, "fp8", 128, 2048, 14822.93),
    ("llama-3-70b", 8, H100, "bf16", 128, 2048, 6672.14),
    ("llama-3-70b", 8, A100, "bf16", 128, 2048, 3815.08),
    ("llama-3-70b", 8, L40S, "fp8", 128, 2048, 1809.4),
    ("llama-3-70b", 2, H200, "fp8", 128, 4096, 6183.85),
    ("llama-3-70b", 2, H100, "bf16", 128, 4096, 369.29),
    ("llama-3-70b", 2, A100, "bf16", 128, 4096, 251.24),
    ("llama-3-70b", 4, H200, "fp8", 128, 4096, 8859.54),
    ("llama-3-70b", 4, H100, "fp8", 128, 4096, 6073.48),
    ("llama-3-70b", 4, H100, "bf16", 128, 4096, 2969.99),
    ("llama-3-70b", 4, A100, "bf16", 128, 4096, 1634.82),
    ("llama-3-70b", 8, H200, "fp8", 128, 4096, 13969.95),
    ("llama-3-70b", 8, H100, "fp8", 128, 4096, 10094.57),
    ("llama-3-70b", 8, H100, "bf16", 128, 4096, 4358.77),
    ("llama-3-70b", 8, A100, "bf16", 128, 4096, 2847.54),
    ("llama-3-70b", 8, L40S, "fp8", 128, 4096, 1313.78),
    ("llama-3-70b", 2, H200, "fp8", 2048, 128, 696.59),
    ("llama-3-70b", 2, H100, "bf16", 2048, 128, 301.46),
    ("llama-3-70b", 2, A100, "bf16", 2048, 128, 140.88),
    ("llama-3-70b", 4, H200, "fp8", 2048, 128, 1044.35),
    ("llama-3-70b", 4, H100, "fp8", 2048, 128, 1022.06),
    ("llama-3-70b", 4, H100, "bf16", 2048, 128, 681.72),
    ("llama-3-70b", 4, A100, "bf16", 2048, 128, 278.76),
    ("llama-3-70b", 8, H200, "fp8", 2048, 128, 2018.47),
    ("llama-3-70b", 8, H100, "fp8", 2048, 128, 1933.15),
    ("llama-3-70b", 8, H100, "bf16", 2048, 128, 1279.46),
    ("llama-3-70b", 8, A100, "bf16", 2048, 128, 543.73),
    ("llama-3-70b", 8, L40S, "fp8", 2048, 128, 163.36),
    ("llama-3-70b", 2, H200, "fp8", 2048, 2048, 3525.18),
    ("llama-3-70b", 2, A100, "bf16", 2048, 2048, 87.54),
    ("llama-3-70b", 4, H200, "fp8", 2048, 2048, 6550.76),
    ("llama-3-70b", 4, H100, "fp8", 2048, 2048, 4870.26),
    ("llama-3-70b", 4, H100, "bf16", 2048, 2048, 2379.66),
    ("llama-3-70b", 4, A100, "bf16", 2048, 2048, 1209.69),
    ("llama-3-70b", 8, H200, "fp8", 2048, 2048, 9706.95),
    ("llama-3-70b", 8, H100, "fp8", 2048, 2048, 7670.04),
    ("llama-3-70b", 8, H100, "bf16", 2048, 2048, 3692.41),
    ("llama-3-70b", 8, A100, "bf16", 2048, 2048, 2192.28),
    ("llama-3-70b", 8, L40S, "fp8", 2048, 2048, 895.23),
    ("llama-2-70b", 2, H200, "fp8", 128, 128, 6355.16),
    ("llama-2-70b", 2, H100, "bf16", 128, 128, 2927.71),
    ("llama-2-70b", 2, A100, "bf16", 128, 128, 1374.05),
    ("llama-2-70b", 4, H200, "fp8", 128, 128, 10818.97),
    ("llama-2-70b", 4, H100, "fp8", 128, 128, 10754.99),
    ("llama-2-70b", 4, H100, "bf16", 128, 128, 6603.1),
    ("llama-2-70b", 4, A100, "bf16", 128, 128, 2765.94),
    ("llama-2-70b", 8, H200, "fp8", 128, 128, 16667.25),
    ("llama-2-70b", 8, H100, "fp8", 128, 128, 16074.84),
    ("llama-2-70b", 8, H100, "bf16", 128, 128, 11369.11),
    ("llama-2-70b", 8, A100, "bf16", 128, 128, 4796.89),
    ("llama-2-70b", 8, L40S, "fp8", 128, 128, 1402.92),
    ("llama-2-70b", 2, H200, "fp8", 128, 2048, 6185.77),
    ("llama-2-70b", 2, H100, "bf16", 128, 2048, 668.52),
    ("llama-2-70b", 2, A100, "bf16", 128, 2048, 445.04),
    ("llama-2-70b", 4, H200, "fp8", 128, 2048, 12884.76),
    ("llama-2-70b", 4, H100, "fp8", 128, 2048, 8870.71),
    ("llama-2-70b", 4, H100, "bf16", 128, 2048, 5067.06),
    ("llama-2-70b", 4, A100, "bf16", 128, 2048, 2710.53),
    ("llama-2-70b", 8, H200, "fp8", 128, 2048, 19053.13),
    ("llama-2-70b", 8, H100, "fp8", 128, 2048, 17534.62),
    ("llama-2-70b", 8, H100, "bf16", 128, 2048, 8805.16),
    ("llama-2-70b", 8, A100, "bf16", 128, 2048, 5665.93),
    ("llama-2-70b", 8, L40S, "fp8", 128, 2048, 2203.33),
    ("llama-2-70b", 2, H200, "fp8", 128, 4096, 4873.24),
    ("llama-2-70b", 2, H100, "bf16", 128, 4096, 334.1),
    ("llama-2-70b", 2, A100, "bf16", 128, 4096, 215.7),
    ("llama-2-70b", 4, H200, "fp8", 128, 4096, 8664.9),
    ("llama-2-70b", 4, H100, "fp8", 128, 4096, 7564.99),
    ("llama-2-70b", 4, H100, "bf16", 128, 4096, 3354.02),
    ("llama-2-70b", 4, A100, "bf16", 128, 4096, 1884.46),
    ("llama-2-70b", 8, H200, "fp8", 128, 4096, 15110.32),
    ("llama-2-70b", 8, H100, "fp8", 128, 4096, 10584.03),
    ("llama-2-70b", 8, H100, "bf16", 128, 4096, 5373.1),
    ("llama-2-70b", 8, A100, "bf16", 128, 4096, 3672.8),
    ("llama-2-70b", 8, L40S, "fp8", 128, 4096, 1787.76),
    ("llama-2-70b", 2, H200, "fp8", 2048, 128, 732.09),
    ("llama-2-70b", 2, H100, "bf16", 2048, 128, 302.49),
    ("llama-2-70b", 2, A100, "bf16", 2048, 128, 141.7),
    ("llama-2-70b", 4, H200, "fp8", 2048, 128, 1272.9),
    ("llama-2-70b", 4, H100, "fp8", 2048, 128, 1265.8),
    ("llama-2-70b", 4, H100, "bf16", 2048, 128, 774.93),
    ("llama-2-70b", 4, A100, "bf16", 2048, 128, 320.79),
    ("llama-2-70b", 8, H200, "fp8", 2048, 128, 2015.77),
    ("llama-2-70b", 8, H100, "fp8", 2048, 128, 1943.96),
    ("llama-2-70b", 8, H100, "bf16", 2048, 128, 1355.78),
    ("llama-2-70b", 8, A100, "bf16", 2048, 128, 569.48),
    ("llama-2-70b", 8, L40S, "fp8", 2048, 128, 165.52),
    ("llama-2-70b", 2, H200, "fp8", 2048, 2048, 3508.5),
    ("llama-2-70b", 2, H100, "bf16", 2048, 2048, 321.95),
    ("llama-2-70b", 2, A100, "bf16", 2048, 2048, 212.97),
    ("llama-2-70b", 4, H200, "fp8", 2048, 2048, 6642.69),
    ("llama-2-70b", 4, H100, "fp8", 2048, 2048, 4889.26),
    ("llama-2-70b", 4, H100, "bf16", 2048, 2048, 2439.1),
    ("llama-2-70b", 4, A100, "bf16", 2048, 2048, 1276.58),
    ("llama-2-70b", 8, H200, "fp8", 2048, 2048, 10178.71),
    ("llama-2-70b", 8, H100, "fp8", 2048, 2048, 8071.77),
    ("llama-2-70b", 8, H100, "bf16", 2048, 2048, 4275.74),
    ("llama-2-70b", 8, A100, "bf16", 2048, 2048, 2589.6),
    ("llama-2-70b", 8, L40S, "fp8", 2048, 2048, 1083.45),
]
T11 = [
    ("llama-2-7b", 1, H200, "fp8", 128, 128, 19695.41),
    ("llama-2-7b", 1, H100, "fp8", 128, 128, 17684.88),
    ("llama-2-7b", 1, H100, "bf16", 128, 128, 11605.69),
    ("llama-2-7b", 1, A100, "bf16", 128, 128, 5286.1),
    ("llama-2-7b", 1, L40S, "fp8", 128, 128, 6655.52),
    ("llama-2-7b", 1, H200, "fp8", 2048, 128, 2471.89),
    ("llama-2-7b", 1, H100, "fp8", 2048, 128, 2342.71),
    ("llama-2-7b", 1, H100, "bf16", 2048, 128, 1173.81),
    ("llama-2-7b", 1, A100, "bf16", 2048, 128, 558.56),
    ("llama-2-7b", 1, L40S, "fp8", 2048, 128, 644.72),
    ("llama-2-7b", 1, H200, "fp8", 128, 2048, 7867.28),
    ("llama-2-7b", 1, H100, "fp8", 128, 2048, 6814.72),
    ("llama-2-7b", 1, H100, "bf16", 128, 2048, 3074.4),
    ("llama-2-7b", 1, A100, "bf16", 128, 2048, 1813.79),
    ("llama-2-7b", 1, L40S, "fp8", 128, 2048, 1591.51),
    ("llama-2-7b", 1, H200, "fp8", 2048, 2048, 3215.63),
    ("llama-2-7b", 1, H100, "fp8", 2048, 2048, 2820.31),
    ("llama-2-7b", 1, H100, "bf16", 2048, 2048, 1289.87),
    ("llama-2-7b", 1, A100, "bf16", 2048, 2048, 716.55),
    ("llama-2-7b", 1, L40S, "fp8", 2048, 2048, 653.19),
    ("llama-3-8b", 1, H200, "fp8", 128, 128, 29084.05),
    ("llama-3-8b", 1, H100, "fp8", 128, 128, 27781.28),
    ("llama-3-8b", 1, H100, "bf16", 128, 128, 15225.75),
    ("llama-3-8b", 1, A100, "bf16", 128, 128, 6450.88),
    ("llama-3-8b", 1, L40S, "fp8", 128, 128, 8929.6),
    ("llama-3-8b", 1, H200, "fp8", 2048, 128, 3699.64),
    ("llama-3-8b", 1, H100, "fp8", 2048, 128, 3555.57),
    ("llama-3-8b", 1, H100, "bf16", 2048, 128, 1844.38),
    ("llama-3-8b", 1, A100, "bf16", 2048, 128, 775.18),
    ("llama-3-8b", 1, L40S, "fp8", 2048, 128, 1052.3),
    ("llama-3-8b", 1, H200, "fp8", 128, 2048, 23723.81),
    ("llama-3-8b", 1, H100, "fp8", 128, 2048, 17894.85),
    ("llama-3-8b", 1, H100, "bf16", 128, 2048, 8415.67),
    ("llama-3-8b", 1, A100, "bf16", 128, 2048, 4837.47),
    ("llama-3-8b", 1, L40S, "fp8", 128, 2048, 4497.21),
    ("llama-3-8b", 1, H200, "fp8", 2048, 2048, 11193.29),
    ("llama-3-8b", 1, H100, "fp8", 2048, 2048, 8398.71),
    ("llama-3-8b", 1, H100, "bf16", 2048, 2048, 3996.93),
    ("llama-3-8b", 1, A100, "bf16", 2048, 2048, 2271.65),
    ("llama-3-8b", 1, L40S, "fp8", 2048, 2048, 1911.63),
    ("mistral-7b-v0.1", 1, H200, "fp8", 128, 128, 31618.59),
    ("mistral-7b-v0.1", 1, H100, "fp8", 128, 128, 30400.21),
    ("mistral-7b-v0.1", 1, H100, "bf16", 128, 128, 16108.11),
    ("mistral-7b-v0.1", 1, A100, "bf16", 128, 128, 6749.91),
    ("mistral-7b-v0.1", 1, L40S, "fp8", 128, 128, 10237.23),
    ("mistral-7b-v0.1", 1, H200, "fp8", 2048, 128, 3791.1),
    ("mistral-7b-v0.1", 1, H100, "fp8", 2048, 128, 3618.11),
    ("mistral-7b-v0.1", 1, H100, "bf16", 2048, 128, 1896.76),
    ("mistral-7b-v0.1", 1, A100, "bf16", 2048, 128, 783.94),
    ("mistral-7b-v0.1", 1, L40S, "fp8", 2048, 128, 1126.08),
    ("mistral-7b-v0.1", 1, H200, "fp8", 128, 2048, 25646.02),
    ("mistral-7b-v0.1", 1, H100, "fp8", 128, 2048, 20518.75),
    ("mistral-7b-v0.1", 1, H100, "bf16", 128, 2048, 10018.54),
    ("mistral-7b-v0.1", 1, A100, "bf16", 128, 2048, 5358.28),
    ("mistral-7b-v0.1", 1, L40S, "fp8", 128, 2048, 5441.98),
    ("mistral-7b-v0.1", 1, H200, "fp8", 2048, 2048, 12068.11),
    ("mistral-7b-v0.1", 1, H100, "fp8", 2048, 2048, 9504.59),
    ("mistral-7b-v0.1", 1, H100, "bf16", 2048, 2048, 4383.42),
    ("mistral-7b-v0.1", 1, A100, "bf16", 2048, 2048, 2465.77),
    ("mistral-7b-v0.1", 1, L40S, "fp8", 2048, 2048, 2213.69),
    ("llama-2-70b", 2, H200, "fp8", 128, 128, 6652.29),
    ("llama-2-70b", 2, H100, "fp8", 128, 128, 6502.44),
    ("llama-2-70b", 4, H200, "fp8", 128, 128, 10921.65),
    ("llama-2-70b", 4, H100, "fp8", 128, 128, 10448.46),
    ("llama-2-70b", 4, H100, "bf16", 128, 128, 6219.11),
    ("llama-2-70b", 4, A100, "bf16", 128, 128, 2487.78),
    ("llama-2-70b", 4, L40S, "fp8", 128, 128, 1549.09),
    ("llama-2-70b", 8, H200, "fp8", 128, 128, 15878.34),
    ("llama-2-70b", 8, H100, "fp8", 128, 128, 14781.66),
    ("llama-2-70b", 8, H100, "bf16", 128, 128, 10093.27),
    ("llama-2-70b", 8, A100, "bf16", 128, 128, 4233.24),
    ("llama-2-70b", 8, L40S, "fp8", 128, 128, 1497.68),
    ("llama-2-70b", 2, H200, "fp8", 2048, 128, 766.38),
    ("llama-2-70b", 2, H100, "fp8", 2048, 128, 747.14),
    ("llama-2-70b", 4, H200, "fp8", 2048, 128, 1296.75),
    ("llama-2-70b", 4, H100, "fp8", 2048, 128, 1231.26),
    ("llama-2-70b", 4, H100, "bf16", 2048, 128, 714.07),
    ("llama-2-70b", 4, A100, "bf16", 2048, 128, 285.9),
    ("llama-2-70b", 4, L40S, "fp8", 2048, 128, 179.19),
    ("llama-2-70b", 8, H200, "fp8", 2048, 128, 1930.16),
    ("llama-2-70b", 8, H100, "fp8", 2048, 128, 1808.02),
    ("llama-2-70b", 8, H100, "bf16", 2048, 128, 1230.66),
    ("llama-2-70b", 8, A100, "bf16", 2048, 128, 494.29),
    ("llama-2-70b", 8, L40S, "fp8", 2048, 128, 176.24),
    ("llama-2-70b", 2, H200, "fp8", 128, 2048, 7014.86),
    ("llama-2-70b", 2, H100, "fp8", 128, 2048, 5267.56),
    ("llama-2-70b", 4, H200, "fp8", 128, 2048, 13365.86),
    ("llama-2-70b", 4, H100, "fp8", 128, 2048, 9202.42),
    ("llama-2-70b", 4, H100, "bf16", 128, 2048, 3787.24),
    ("llama-2-70b", 4, A100, "bf16", 128, 2048, 2267.02),
    ("llama-2-70b", 4, L40S, "fp8", 128, 2048, 1772.45),
    ("llama-2-70b", 8, H200, "fp8", 128, 2048, 18861.53),
    ("llama-2-70b", 8, H100, "fp8", 128, 2048, 17085.82),
    ("llama-2-70b", 8, H100, "bf16", 128, 2048, 7846.64),
    ("llama-2-70b", 8, A100, "bf16", 128, 2048, 5096.52),
    ("llama-2-70b", 8, L40S, "fp8", 128, 2048, 2290.99),
    ("llama-2-70b", 2, H200, "fp8", 2048, 2048, 3554.71),
    ("llama-2-70b", 2, H100, "fp8", 2048, 2048, 2457.73),
    ("llama-2-70b", 4, H200, "fp8", 2048, 2048, 6604.37),
    ("llama-2-70b", 4, H100, "fp8", 2048, 2048, 4586.99),
    ("llama-2-70b", 4, H100, "bf16", 2048, 2048, 1994.1),
    ("llama-2-70b", 4, A100, "bf16", 2048, 2048, 1137.22),
    ("llama-2-70b", 4, L40S, "fp8", 2048, 2048, 890.83),
    ("llama-2-70b", 8, H200, "fp8", 2048, 2048, 10034.12),
    ("llama-2-70b", 8, H100, "fp8", 2048, 2048, 7647.54),
    ("llama-2-70b", 8, H100, "bf16", 2048, 2048, 4347.09),
    ("llama-2-70b", 8, A100, "bf16", 2048, 2048, 2152.35),
    ("llama-2-70b", 8, L40S, "fp8", 2048, 2048, 1130.36),
    ("llama-3-70b", 8, H200, "fp8", 128, 128, 15255.0),
    ("llama-3-70b", 8, H100, "fp8", 128, 128, 13853.05),
    ("llama-3-70b", 8, A100, "bf16", 128, 128, 4033.42),
    ("llama-3-70b", 8, H200, "fp8", 2048, 128, 1918.47),
    ("llama-3-70b", 8, H100, "fp8", 2048, 128, 1738.94),
    ("llama-3-70b", 8, A100, "bf16", 2048, 128, 476.42),
    ("llama-3-70b", 8, H200, "fp8", 128, 2048, 19071.39),
    ("llama-3-70b", 8, H100, "fp8", 128, 2048, 10887.34),
    ("llama-3-70b", 8, A100, "bf16", 128, 2048, 3373.71),
    ("llama-3-70b", 8, H200, "fp8", 2048, 2048, 9387.81),
    ("llama-3-70b", 8, H100, "fp8", 2048, 2048, 6029.39),
    ("llama-3-70b", 8, A100, "bf16", 2048, 2048, 1824.06),
    ("mixtral-8x7b", 2, H200, "fp8", 128, 128, 26317.73),
    ("mixtral-8x7b", 2, H100, "fp8", 128, 128, 24770.44),
    ("mixtral-8x7b", 2, H100, "bf16", 128, 128, 11821.14),
    ("mixtral-8x7b", 2, A100, "bf16", 128, 128, 5522.43),
    ("mixtral-8x7b", 2, H200, "fp8", 2048, 128, 3181.76),
    ("mixtral-8x7b", 2, H100, "fp8", 2048, 128, 2973.11),
    ("mixtral-8x7b", 2, H100, "bf16", 2048, 128, 1391.28),
    ("mixtral-8x7b", 2, A100, "bf16", 2048, 128, 636.77),
    ("mixtral-8x7b", 2, H200, "fp8", 128, 2048, 30105.61),
    ("mixtral-8x7b", 2, H100, "fp8", 128, 2048, 22120.85),
    ("mixtral-8x7b", 2, H100, "bf16", 128, 2048, 6337.02),
    ("mixtral-8x7b", 2, A100, "bf16", 128, 2048, 3698.23),
    ("mixtral-8x7b", 2, H200, "fp8", 2048, 2048, 15002.42),
    ("mixtral-8x7b", 2, H100, "fp8", 2048, 2048, 11486.66),
    ("mixtral-8x7b", 2, H100, "bf16", 2048, 2048, 3024.95),
    ("mixtral-8x7b", 2, A100, "bf16", 2048, 2048, 1710.53),
]
# (B1) (source, preset, gpu, tp, [(isl, osl, published mean TPOT ms)])
B1 = [("tt-inference-server #143", "qwen2.5-72b", H100, 2,
       [(128, 128, 30.9), (128, 1024, 30.9), (1024, 128, 31.0), (2048, 128, 31.0), (3072, 128, 31.1),
        (4096, 128, 31.1), (8192, 128, 31.3)]),
      ("tt-inference-server #125", "qwen2.5-7b", "rtx-4090-24gb", 1,
       [(128, 128, 17.1), (128, 1024, 17.2), (1024, 128, 17.2), (2048, 128, 17.2)])]
_MODELS: dict = {}


def model(preset):
    if preset not in _MODELS:
        r = resolve(Scenario.model_validate({"model": {"preset": preset}}))
        _MODELS[preset] = inf.ServingModel.of(r.arch, r.params)
    return _MODELS[preset]


def max_batch(ver, preset, tp, isl, osl):
    if ver == "v0.12":
        return MAX_BATCH_T12
    return MAX_BATCH_T11.get((preset, tp, isl, osl), MAX_BATCH_T11[(preset, tp)])


def predicted(ver, preset, tp, gpu, prec, isl, osl, share=None, finite=False):
    """The TP group's output tok/s under maximum load: the steady state, as the held TRT-LLM rows are scored, or
    (``finite``) the page's own request set sent at once (``NUM_REQUESTS``, ``inf.max_load_run`` at fixed lengths)."""
    v = inf.max_throughput_per_gpu(model(preset), get_gpu(gpu), prompt_tokens=isl, output_tokens=osl, precision=prec,
                                   tp=tp, engine="tensorrt-llm", utilization=share or KV_SHARE[ver],
                                   max_batch=max_batch(ver, preset, tp, isl, osl),
                                   requests=NUM_REQUESTS[(isl, osl)] if finite else None)
    return 0.0 if v is None else v * tp


def rows(share=None, finite=False):
    """[(group, label, published, predicted)] for every new row."""
    out = []
    for ver, table in (("v0.12", T12), ("v0.11", T11)):
        for p, tp, g, prec, i, o, meas in table:
            kind = "MoE" if p.startswith("mixtral") else "dense"
            grp = f"{ver} {kind} {g.split('-')[0].upper()} {prec}"
            out.append((grp, f"{ver} {p} {g} {prec} TP{tp} {i}/{o}", meas,
                        predicted(ver, p, tp, g, prec, i, o, share, finite)))
    return out


def b1_rows():
    """[(group, label, published ms, predicted ms)]: the batch-1 decode step at the mean context (vLLM V1, serial)."""
    out = []
    for src, p, g, tp, vals in B1:
        for i, o, ms in vals:
            t, _ = inf.decode_step_s(model(p), get_gpu(g), precision="bf16", kv_bytes=inf.KV_BYTES["bf16"], batch=1,
                                     context=i + o / 2, tp=tp, eff=inf.ServingEfficiency(), loop="serial")
            out.append((f"batch-1 {g}", f"{src} {p} {g} BF16 TP{tp} {i}/{o} TPOT", ms, t * 1e3))
    return out


def version_ratios():
    """{(version, preset, "long"/"short"): [published here / published in the held v0.15 table]} over the
    configurations both pages ran (same card, precision, TP and lengths; Llama 3.1 = Llama 3's architecture):
    ``bench/validate_serve_oos13.py`` ``TABLE_F``. "long": outputs of 2,048 tokens or more."""
    import validate_serve_oos13 as v015  # noqa: PLC0415 (bench-only)
    alias = {"llama-3.1-8b": "llama-3-8b", "llama-3.1-70b": "llama-3-70b", "mistral-7b-v0.1": "mistral-7b-v0.1"}
    new = {(ver, p, tp, g, prec, i, o): v for ver, tab in (("v0.12", T12), ("v0.11", T11))
           for p, tp, g, prec, i, o, v in tab}
    out: dict = {}
    for (p, tp), by in v015.TABLE_F.items():
        for (g, prec), vals in by.items():
            for (i, o), old in zip(v015.LENS_F, vals):
                for ver in ("v0.12", "v0.11"):
                    k = (ver, alias.get(p), tp, g, prec, i, o)
                    if old and k in new:
                        out.setdefault((ver, alias[p], "long" if o >= 2048 else "short"), []).append(new[k] / old)
    return out


def err(pub, pred):
    return (pub / pred - 1) if pred > 0 else float("inf")


def p90(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.9 * (len(xs) - 1))))]


def stats(errs):
    a = [abs(e) for e in errs]
    return len(a), statistics.median(a) * 100, p90(a) * 100, statistics.median(errs) * 100


def group_stats(rs):
    """{set: (n, median |err| %, p90 %, signed median %)} per group, per version x kind, dense / MoE and all rows."""
    groups: dict = {}
    for grp, lab, pub, pred in rs:
        ver, kind = grp.split()[:2]
        lens = lab.split()[-1]
        for key in ("all new rows", f"all {kind}", f"{ver} {kind}", grp, f"{kind} {lens}"):
            groups.setdefault(key, []).append(err(pub, pred))
    return {k: stats(v) for k, v in groups.items()}


def _base_ratio(engine, step):
    """``inf._sglang_ratio`` before this round: TensorRT-LLM admitted a request on its prompt alone (0)."""
    if engine != "sglang":
        return 0.0
    init, low, steps = inf.SGLANG_NEW_TOKEN_RATIO
    return max(init - step * (init - low) / steps, low)


@contextlib.contextmanager
def before_r16():
    """The planner before this round's change: a finite TensorRT-LLM run admitted requests on their prompt alone
    (no ``GUARANTEED_NO_EVICT`` reservation), so every row can be printed before and after in one run."""
    keep = inf._sglang_ratio
    inf._sglang_ratio = _base_ratio
    try:
        yield
    finally:
        inf._sglang_ratio = keep


def fmt(x):
    return f"{x[1]:.1f}% / {x[2]:.1f}% ({x[3]:+.1f}%)"


def main(argv):
    finite = "--finite" in argv  # the finite runs take minutes (375 rows x 2 simulated runs)
    with before_r16():
        before, fin_before = rows(), (rows(finite=True) if finite else rows())
    after, at090, fin_after = rows(), rows(0.90), (rows(finite=True) if finite else rows())
    sb, sa, s9 = group_stats(before), group_stats(after), group_stats(at090)
    fb, fa = group_stats(fin_before), group_stats(fin_after)
    if not finite:
        print("(finite-run columns repeat the steady state: run with --finite for the page's request sets)")
    print("Steady state (the held TRT-LLM rows' convention) and the page's request set sent at once (finite run); "
          "median / p90 |pub/pred-1| (signed median)")
    print("| set | rows | steady, before | steady, after | steady after, KV share 0.90 | finite run, before | "
          "finite run, after |")
    print("|---|---|---|---|---|---|---|")
    for k in sorted(sa, key=lambda k: (k != "all new rows", not k.startswith("all"), k)):
        print(f"| {k} | {sa[k][0]} | {fmt(sb[k])} | {fmt(sa[k])} | {fmt(s9[k])} | {fmt(fb[k])} | {fmt(fa[k])} |")
    print()
    print("| published here / published in v0.15, same configuration | pairs | median ratio | min | max |")
    print("|---|---|---|---|---|")
    for k, v in sorted(version_ratios().items()):
        print(f"| {' '.join(k)} | {len(v)} | {statistics.median(v):.3f} | {min(v):.2f} | {max(v):.2f} |")
    b1 = b1_rows()
    print()
    print("| batch-1 decode row | published ms | predicted ms | pub/pred-1 |")
    print("|---|---|---|---|")
    for _g, lab, pub, pred in b1:
        print(f"| {lab} | {pub:.1f} | {pred:.2f} | {err(pub, pred):+.1%} |")
    n, m, p, sgn = stats([err(x[2], x[3]) for x in b1])
    print(f"batch-1 decode: {n} rows, median {m:.1f}% / p90 {p:.1f}% (signed {sgn:+.1f}%); unchanged by this round")
    if "--rows" in argv:
        print()
        print("| row | published | steady (before = after) | err | finite run before | err | finite run after | "
              "err [model/pub-1] |")
        print("|---|---|---|---|---|---|---|---|")
        for (_g, lab, pub, pb), (_a, _b, _c, pa), (_d, _e, _f, fb0), (_h, _i, _j, fa0) in zip(
                before, after, fin_before, fin_after):
            print(f"| {lab} | {pub:,.1f} | {pa:,.0f} | {err(pub, pa):+.1%} | {fb0:,.0f} | {err(pub, fb0):+.1%} | "
                  f"{fa0:,.0f} | {err(pub, fa0):+.1%} [{fa0 / pub - 1:+.1%}] |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
