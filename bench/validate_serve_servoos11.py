"""Issue 35, round 11 (servoos11): NEW out-of-sample maximum-load rows of the CURRENT TensorRT-LLM engine (the PyTorch
backend, v0.19 and later), scored with the current model before any change. Run: ``python bench/validate_serve_servoos11.py``
(``--fragment`` prints the markdown table only).

None of these figures is in scripts/validate_inference.py, bench/ or docs/validation_inference.md (grepped for
"28447", "3657.58", "3191.27", "745.19", "26401", "6092.28", "2587", "2209"): the repo holds the page at v0.17 (commit 258c754, TensorRT
engines) and at commit 00f3768 (the main table), not the two versions below.

Sources (NVIDIA/TensorRT-LLM ``docs/source/performance/perf-overview.md``, two stored versions of the file)
-------
(P) The version written after v0.19's switch to the PyTorch backend and before the v1.0 page ("Starting with v0.19,
    testing was performed using the PyTorch backend"; ``trtllm-bench ... throughput --backend pytorch
    --extra_llm_api_options`` with ``cuda_graph_config: enable_padding, batch_sizes 1..8192``): FP8 checkpoints
    (nvidia/Llama-3.1-8B/70B/405B-Instruct-FP8), synthetic fixed-length requests (stdev 0), infinite rate,
    "Total Output Throughput (tokens/sec)" of the TP group; kv_cache_free_gpu_mem_fraction "0.95 in majority of cases,
    0.90 on OOM" (not per row: ASSUMED the engine default 0.90, as every TRT-LLM row in the repo).
(V) The v0.21 version ("The data collected for the v0.21 benchmarks was run with the following file": the same
    CUDA-graph list, PyTorch backend): Llama 3.1 8B TP1, Llama 3.3 70B TP2, Llama 3.1 405B TP8, FP8, H100 and H200
    (the GH200 column left out: no GH200 in the catalog), total output tok/s; same ISL/OSL grid as (P).
(L) The newest stored version (v1.1+: "Output Throughput per GPU (tokens/sec/GPU)", RTX 6000 Pro tables, GPT-OSS):
    LLaMA v3.3 70B FP8 on H200 TP2 and H100 TP2, ``trtllm-bench --tp 2 --pp 1 ... --backend pytorch --config`` with the
    same CUDA-graph list; per-GPU output tok/s. Llama 3.3 70B has Llama 3.1 70B's architecture (the preset used).
Left out: FP4 (B200/GB200/RTX 6000 Pro: no FP4 precision in the catalog), DEP (attention data parallel + expert
parallel: the planner's TP only), GPT-OSS / Llama 4 / DeepSeek-R1 / Qwen3-30B (no preset).
"""
from __future__ import annotations

import statistics
import sys

from gpuplanner.core import inference as inf
from gpuplanner.core.catalog_hw import get_gpu
from gpuplanner.core.estimate import resolve
from gpuplanner.core.scenario import Scenario

LENS_P = [(128, 128), (128, 2048), (128, 4096), (500, 2000), (1000, 1000), (1000, 2000), (1024, 2048), (2048, 128),
          (2048, 2048), (5000, 500), (20000, 2000)]
H200, H100 = "h200-sxm-141gb", "h100-sxm-80gb"
# {(preset, tp, gpu): [total output tok/s for LENS_P, None where the page has no figure]}  -- source (P)
TABLE_P = {
    ("llama-3.1-8b", 1, H200): [28447.38, 23294.74, 17481.48, 21462.57, 17590.60, 17139.51, 16970.63, 3531.33,
                                12022.38, 3851.65, 1706.06],
    ("llama-3.1-8b", 1, H100): [27568.68, 22003.62, 13640.35, 17794.39, 15270.02, 13850.22, 13374.15, 3495.05,
                                9653.67, 3371.16, 1340.92],
    ("llama-3.1-70b", 1, H200): [3657.58, 4351.07, 2696.61, 3475.58, 2727.42, 2913.54, 2893.02, 433.30, 1990.25,
                                 543.88, 276.99],
    ("llama-3.1-70b", 2, H200): [6477.50, 8450.31, 5598.92, 6712.35, 5097.36, 5841.15, 5565.28, 772.97, 3822.83,
                                 1005.81, 618.01],
    ("llama-3.1-70b", 4, H200): [10466.04, 13438.71, 11524.93, 12332.32, 8698.15, 9016.49, 9017.72, 1278.26,
                                 7068.68, 1714.77, 1175.35],
    ("llama-3.1-70b", 8, H200): [15554.57, 20750.58, 16634.90, 17311.28, 12794.92, 13174.68, 13117.34, 1947.33,
                                 10529.06, 2683.22, 2021.08],
    ("llama-3.1-70b", 1, H100): [3191.27, 745.19, None, None, 734.67, 526.31, 525.43, 315.90, 357.98, 203.27, None],
    ("llama-3.1-70b", 2, H100): [6183.41, 5822.02, 3714.87, 4704.31, 4191.26, 3920.44, 3896.14, 747.51, 2732.86,
                                 866.77, 408.43],
    ("llama-3.1-70b", 4, H100): [10260.68, 11442.01, 8209.91, 10278.02, 7427.35, 7590.35, 7557.32, 1240.12, 5640.31,
                                 1571.92, 910.77],
    ("llama-3.1-70b", 8, H100): [14686.01, 17463.99, 12598.55, 14630.41, 11082.48, 11108.11, 11028.32, 1840.12,
                                 8772.88, 2399.78, 1568.84],
    ("llama-3.1-405b", 8, H200): [3800.11, 5661.13, 5167.18, 4854.29, 3332.15, 3682.15, 3685.56, 453.42, 3055.73,
                                  656.11, 514.02],
    ("llama-3.1-405b", 8, H100): [3732.40, 4572.23, 2911.42, 3661.85, 2963.36, 3253.17, 3089.16, 448.89, 2139.94,
                                  579.14, 370.26],
}
# {(preset, tp, gpu): [total output tok/s for LENS_P]}  -- source (V), v0.21 (Llama 3.3 70B as the 3.1 70B preset)
TABLE_V = {
    ("llama-3.1-8b", 1, H100): [26401.48, 21413.21, 13541.54, 17571.01, 14991.62, 13505.23, 13165.91, 3275.55,
                                9462.43, 3276.47, 1340.69],
    ("llama-3.1-8b", 1, H200): [27027.80, 23102.25, 17396.83, 19759.16, 17162.49, 16227.11, 16057.66, 3390.69,
                                11822.14, 3758.08, 1705.68],
    ("llama-3.1-70b", 2, H100): [6092.28, 5892.94, 3828.46, 4654.74, 4181.06, 3708.93, 3785.04, 723.40, 2785.53,
                                 865.55, 411.85],
    ("llama-3.1-70b", 2, H200): [6327.98, 7467.36, 5526.42, 6639.15, 4773.33, 5790.36, 5480.44, 747.55, 3775.80,
                                 978.28, 609.42],
    ("llama-3.1-405b", 8, H100): [None, 4517.39, 2910.31, 3664.62, 2955.50, 2884.69, 3237.41, 433.47, 2216.55,
                                  579.05, 363.27],
    ("llama-3.1-405b", 8, H200): [3705.18, 4715.13, 4475.91, 4804.10, 3208.25, 3630.29, 3609.50, 441.35, 2840.86,
                                  645.26, 509.87],
}
LENS_L = [(1000, 1000), (1024, 1024), (1024, 8192), (8192, 1024), (32768, 1024)]
# {(preset, tp, gpu): [output tok/s PER GPU for LENS_L]}  -- source (L), LLaMA v3.3 70B FP8
TABLE_L = {
    ("llama-3.1-70b", 2, H200): [2587, 2582, 2009, 537, 120],
    ("llama-3.1-70b", 2, H100): [2209, None, None, 398, None],
}


def model(preset):
    r = resolve(Scenario.model_validate({"model": {"preset": preset}}))
    return inf.ServingModel.of(r.arch, r.params)


def predicted_total(preset, tp, gpu, isl, osl, utilization=None):
    """The TP group's output tok/s as the main TRT-LLM table scores it (steady state, engine default memory 0.90);
    ``utilization`` 0.95: the page's "majority of cases" setting (printed as a sensitivity, not the scored figure)."""
    v = inf.max_throughput_per_gpu(model(preset), get_gpu(gpu), prompt_tokens=isl, output_tokens=osl,
                                   precision="fp8", tp=tp, engine="tensorrt-llm", utilization=utilization)
    return 0.0 if v is None else v * tp


def rows():
    """(source, label, published total tok/s, predicted total tok/s at 0.90, at 0.95) of every row."""
    out = []
    for (p, tp, g), vals in TABLE_P.items():
        for (i, o), meas in zip(LENS_P, vals):
            if meas is not None:
                out.append(("P", f"{p} {g} FP8 TP{tp} {i}/{o}", meas, predicted_total(p, tp, g, i, o),
                            predicted_total(p, tp, g, i, o, 0.95)))
    for (p, tp, g), vals in TABLE_V.items():
        for (i, o), meas in zip(LENS_P, vals):
            if meas is not None:
                name = "llama-3.3-70b" if p == "llama-3.1-70b" else p
                out.append(("V", f"{name} {g} FP8 TP{tp} {i}/{o}", meas, predicted_total(p, tp, g, i, o),
                            predicted_total(p, tp, g, i, o, 0.95)))
    for (p, tp, g), vals in TABLE_L.items():
        for (i, o), meas in zip(LENS_L, vals):
            if meas is not None:
                out.append(("L", f"llama-3.3-70b {g} FP8 TP{tp} {i}/{o}", meas * tp, predicted_total(p, tp, g, i, o),
                            predicted_total(p, tp, g, i, o, 0.95)))
    return out


def p90(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.9 * (len(xs) - 1))))]


def summary(name, errs):
    if not errs:
        return f"{name}: no rows"
    a = [abs(e) for e in errs]
    return (f"{name}: {len(a)} rows, median {statistics.median(a) * 100:.1f}%, p90 {p90(a) * 100:.1f}%, "
            f"signed median {statistics.median(errs) * 100:+.1f}%")


def main(argv):
    rs = rows()
    lines = ["| src | run | published tok/s | modelled (0.90) | error | at 0.95 |", "|---|---|---|---|---|---|"]
    groups: dict[str, list[float]] = {}
    for src, label, meas, got, got95 in rs:
        e = got / meas - 1
        lines.append(f"| {src} | {label} | {meas:,.0f} | {got:,.0f} | {e:+.1%} | {got95 / meas - 1:+.1%} |")
        groups.setdefault("all, KV fraction 0.95 (sensitivity)", []).append(got95 / meas - 1)
        key = label.split(" FP8 ")[0].replace("llama-3.3-70b", "llama-3.1-70b")
        tp = label.split(" ")[3]
        groups.setdefault(f"{src} {key} {tp}", []).append(e)
        groups.setdefault("all", []).append(e)
    print("\n".join(lines))
    if "--fragment" in argv:
        return 0
    print()
    for k in sorted(groups):
        print(summary(k, groups[k]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
