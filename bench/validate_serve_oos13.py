"""Issue 35, round 13 (servoos13): NEW out-of-sample TensorRT-LLM serving rows, entered as a user would enter them
(model preset, card, precision, TP, lengths, batch) and scored with the current model. Run:
``python bench/validate_serve_oos13.py`` (``--fragment``: the markdown tables only).

Error convention: **published / predicted - 1** (the brief's); the r8-r12 scripts' modelled / published - 1 is printed
beside it in brackets. Summaries are median / p90 of |error| (p90 nearest rank, as scripts/validate_inference.py).

None of these figures is in scripts/validate_inference.py, bench/, tests/, docs/ or /work/shared/reference (grepped
for "27792", "16116", "3173.65", "20569", "8968", "84.4"): the repo holds perf-overview at v0.9 (TTFT and fixed
batch), v0.17, v1.0 (00f3768), the v0.19+/v0.21/newest PyTorch-backend pages (servoos11) and v0.6.1 (fixed batch).

Sources (NVIDIA/TensorRT-LLM, two stored versions of the performance page; the code index gives no commit for them)
-------
(F) ``docs/source/performance/perf-overview.md`` as of v0.15.0 ("All data in the table below was generated using
    version 0.15.0 and presents token throughput in tokens/second"): ``trtllm-bench build --quantization FP8`` (FP8
    weights and, "automatically", an FP8 KV cache) or without it for FP16 ("Mixed" columns), ``trtllm-bench throughput``
    with synthetic fixed-length requests (``--input-stdev=0 --output-stdev=0``, 1,000-30,000 requests), infinite rate,
    total output tok/s of the TP group. ``kv_cache_free_gpu_mem_fraction`` "0.95 in majority of cases ... fall back to
    0.90" (not per row): ASSUMED the engine default 0.90, as every TRT-LLM row in the repo; 0.95 printed as a
    sensitivity. Columns: H100 80GB HBM3 FP8, H100 FP16 (the unlabelled "Mixed" column under H100; its A100-SXM
    neighbour matches v0.17's A100 FP16 figures within 1-2%), A100-SXM4-80GB FP16, A100-PCIE-80GB FP16, L40S FP8.
    Entered: Llama 3.1 8B, Llama 3.1 70B, Mistral 7B. Left out: LLaMA v3 70B (the same architecture as 3.1 70B at the
    same settings, figures within 1-3%: a duplicate), Mixtral 8x7B / 8x22B (MoE at maximum load is kept apart, as
    serve6), GH200 (not in the catalog). The H100 FP16 column is the first TensorRT-LLM BF16/FP16 H100 maximum-load
    set in the repo; the A100-PCIE column the first TRT-LLM PCIe A100 set.
(E) ``docs/source/performance.md`` as of v0.8.0 ("All data was generated using version 0.8.0"), gptSessionBenchmark:
    "Peak Throughput" static batches at the stated batch size (out tok/s per GPU) and "Low Latency" batch-1 first-token
    latency (output length 1); FP8 weights and KV on H200 / H100 / L40S, FP16 on A100 (``--strongly_typed``, XQA
    enabled "where our tests displayed performance benefits": the grouped-query kernel, as the v0.9 rows). LLaMA 7B /
    70B are Llama 2's (the page's config files: 32 KV heads / 8 KV heads, vocab 32,000). GPT-J 6B and Falcon 180B have
    no preset. The v0.9 page (held) has the same kinds of rows at other batches / TPs / figures.
"""
from __future__ import annotations

import contextlib
import statistics
import sys

from gpuplanner.core import inference as inf
from gpuplanner.core import timing as T
from gpuplanner.core.catalog_hw import get_gpu
from gpuplanner.core.estimate import resolve
from gpuplanner.core.scenario import Scenario

H100, A100, A100P, L40S, H200 = "h100-sxm-80gb", "a100-sxm-80gb", "a100-pcie-80gb", "l40s-48gb", "h200-sxm-141gb"
LENS_F = [(128, 128), (128, 2048), (128, 4096), (500, 2000), (1000, 1000), (2048, 128), (2048, 2048), (5000, 500),
          (20000, 2000)]
# (F) {(preset, tp): {(gpu, precision): [total output tok/s for LENS_F, None where the page has no figure]}}
TABLE_F = {
    ("llama-3.1-8b", 1): {
        (H100, "fp8"): [27792.16, 19965.18, 13222.06, 15782.2, 14797.28, 3496.41, 8980.42, 3477.61, 1378.69],
        (H100, "bf16"): [16116.63, 9894.49, 5758.98, 7953.1, 7721.07, 1972.07, 4370.61, 1802.2, 621.58],
        (A100, "bf16"): [6552.62, 5220.03, 3326.45, 4191.62, 3753.46, 789.56, 2366.86, 816.09, 330.47],
        (A100P, "bf16"): [5158.57, 4640.02, 2906.77, 3736.1, 3328.02, 630.86, 2125.4, 693.38, 298.79],
        (L40S, "fp8"): [8982.97, 5297.21, 2989.17, 4263.97, 4013.95, 1055.55, 2162.8, 972.2, 326.02]},
    ("llama-3.1-70b", 1): {
        (H100, "fp8"): [3173.65, 804.73, None, 652.24, 775.07, 328.44, 388.02, 217.98, None]},
    ("llama-3.1-70b", 2): {
        (H100, "fp8"): [6399.24, 5920.14, 3580.79, 4775.52, 4247.38, 774.11, 2667.23, 901.84, 410.93],
        (H100, "bf16"): [3143.32, 784.73, 418.75, 660.68, 785.36, 315.43, 384.36, 210.7, None],
        (A100, "bf16"): [1330.41, 532.31, 285.01, 437.64, 483.87, 144.88, 259.65, 124.33, None],
        (A100P, "bf16"): [790.66, None, None, None, 267.63, 94.83, 137.09, 76.77, None]},
    ("llama-3.1-70b", 4): {
        (H100, "fp8"): [10589.19, 11063.97, 7428.89, 9504.33, 7306.35, 1316.33, 5166.41, 1566.63, 915.06],
        (H100, "bf16"): [6392.74, 5742.27, 3457.03, 4375.09, 4075.52, 779.81, 2609.39, 874.96, 406.36],
        (A100, "bf16"): [2716.71, 2663.76, 1913.13, 2193.81, 1889.72, 320.96, 1341.99, 389.99, 209.39],
        (A100P, "bf16"): [1192.33, 1385.61, 1206.15, 1248.45, 999.4, 162.09, 874.11, 218.29, 141.13],
        (L40S, "fp8"): [1469.28, 1911.43, 1357.83, 1599.38, 1187.23, 176.41, 909.3, 242.95, 158.35]},
    ("llama-3.1-70b", 8): {
        (H100, "fp8"): [15427.05, 16533.07, 12008.26, 14508.43, 11086.68, 2064.53, 7768.15, 2533.55, 1447.5],
        (H100, "bf16"): [10959.63, 10252.11, 6915.81, 8942.09, 6983.63, 1351.25, 4515.31, 1589.18, 847.42],
        (A100, "bf16"): [4595.66, 4967.17, 3594.1, 4349.21, 3285.33, 556.48, 2464.13, 700.7, 399.8],
        (A100P, "bf16"): [943.87, 1605.66, 1449.32, 1238.68, 907.21, 140.49, 811.88, 212.07, 140.86],
        (L40S, "fp8"): [1381.25, 2157.58, 1895.68, 1877.86, 1242.34, 163.53, 1092.72, 242.61, 198.77]},
    ("mistral-7b-v0.1", 1): {
        (H100, "fp8"): [30177.4, 22060.45, 13773.03, 17229.29, 15428.87, 3546.44, 9118.64, 3493.52, 1267.96],
        (H100, "bf16"): [17025.15, 10324.05, 6205.41, 8294.02, 7894.2, 2001.13, 4520.74, 1838.75, 641],
        (A100, "bf16"): [6968.4, 5556.98, 3430.11, 4339.77, 3874.65, 793.57, 2440.45, 828.17, 334.06],
        (A100P, "bf16"): [5444.55, 4960.48, 3077.47, 3883.38, 3433.27, 635.46, 2187.82, 702.36, 296.1],
        (L40S, "fp8"): [9526.7, 5669.19, 3091.88, 4498.74, 4118.6, 1067.47, 2231.66, 999.35, 336.18]},
}
# (E) fixed batch: {gpu: [(preset, tp or tp per length, batches, out tok/s per GPU)]} over LENS_E
LENS_E = [(128, 128), (128, 2048), (2048, 128), (2048, 2048)]
FIXED_E = {
    H200: [("mistral-7b-v0.1", 1, (896, 120, 84, 56), (20569, 8968, 2450, 3868)),
           ("llama-2-7b", 1, (896, 120, 84, 56), (20548, 8343, 2429, 3530)),
           ("llama-2-70b", (1, 2, 1, 1), (512, 512, 64, 64), (3844, 4008, 421, 1461))],
    H100: [("mistral-7b-v0.1", 1, (896, 120, 64, 56), (20517, 8619, 2438, 3733)),
           ("llama-2-7b", 1, (896, 120, 64, 56), (20241, 6922, 2170, 2816)),
           ("llama-2-70b", (2, 4, 2, 2), (1024, 512, 96, 64), (3269, 2718, 347, 1020))],
    L40S: [("mistral-7b-v0.1", 1, (896, 120, 84, 56), (9679, 4401, 979, 1721)),
           ("llama-2-7b", 1, (256, 64, 32, 16), (5954, 1654, 579, 542)),
           ("llama-2-70b", (2, 4, 2, 4), (256, 256, 16, 64), (561, 471, 49, 177))],
    A100: [("mistral-7b-v0.1", 1, (896, 120, 84, 56), (6472, 3812, 734, 1607)),
           ("llama-2-7b", 1, (256, 32, 32, 16), (5353, 1518, 547, 613)),
           ("llama-2-70b", 4, (256, 128, 32, 32), (565, 595, 66, 185))],
}
# (E) batch-1 first token (ms): {gpu: [(preset, tp, ms at 128 tokens, ms at 2,048 tokens)]}
TTFT_E = {
    H200: [("mistral-7b-v0.1", 1, 6.0, 31.8), ("llama-2-7b", 1, 5.8, 30.1), ("llama-2-70b", 8, 16.0, 78.8)],
    H100: [("mistral-7b-v0.1", 1, 6.6, 32.6), ("llama-2-7b", 1, 6.4, 31.0), ("llama-2-70b", 8, 17.0, 84.4)],
    L40S: [("mistral-7b-v0.1", 1, 15.5, 84.3), ("llama-2-7b", 1, 14.3, 79.0), ("llama-2-70b", 8, 70.9, 708.7)],
    A100: [("mistral-7b-v0.1", 1, 16.4, 128.7), ("llama-2-7b", 1, 16.1, 120.5), ("llama-2-70b", 8, 35.6, 235.1)],
}
_MODELS: dict = {}


@contextlib.contextmanager
def before_r13():
    """The model as it was before this round's change: no power-limited A100 PCIe factor
    (:data:`timing.MAMF_TABLE_PAIRS` empty), so every row can be printed before and after in one run."""
    saved = dict(T.MAMF_TABLE_PAIRS)
    T.MAMF_TABLE_PAIRS.clear()
    try:
        yield
    finally:
        T.MAMF_TABLE_PAIRS.update(saved)


def model(preset):
    if preset not in _MODELS:
        r = resolve(Scenario.model_validate({"model": {"preset": preset}}))
        _MODELS[preset] = inf.ServingModel.of(r.arch, r.params)
    return _MODELS[preset]


def max_load_total(preset, tp, gpu, prec, isl, osl, utilization=None):
    """The TP group's output tok/s as the held TRT-LLM maximum-load rows score it (steady state, engine default 0.90)."""
    v = inf.max_throughput_per_gpu(model(preset), get_gpu(gpu), prompt_tokens=isl, output_tokens=osl, precision=prec,
                                   tp=tp, engine="tensorrt-llm", utilization=utilization)
    return 0.0 if v is None else v * tp


def rows(grouped_kernel=True):
    """(metric, group, label, published, predicted, predicted at KV share 0.95 or None) for every new row.
    ``grouped_kernel`` False: the v0.8 fixed-batch rows as if decode attention streamed each KV head once per query
    head (TensorRT-LLM's pre-XQA masked MHA kernel; v0.8's XQA was "experimental and not enabled by default", exported
    only in the page's Llama-2-70B and Falcon commands, none shown for Mistral): a sensitivity, not the scored figure."""
    out = []
    for (p, tp), by_gpu in TABLE_F.items():
        for (g, prec), vals in by_gpu.items():
            for (i, o), meas in zip(LENS_F, vals):
                if meas is not None:
                    out.append(("max load", f"F {g} {prec}", f"v0.15 {p} {g} {prec} TP{tp} {i}/{o}", meas,
                                max_load_total(p, tp, g, prec, i, o), max_load_total(p, tp, g, prec, i, o, 0.95)))
    for g, models in FIXED_E.items():
        prec = "bf16" if g == A100 else "fp8"
        for p, tps, batches, vals in models:
            tps = tps if isinstance(tps, tuple) else (tps,) * 4
            for (i, o), tp, b, meas in zip(LENS_E, tps, batches, vals):
                v = inf.static_batch_tokens_per_s_per_gpu(
                    model(p), get_gpu(g), batch=b, prompt_tokens=i, output_tokens=o, precision=prec, tp=tp,
                    kv_passes=inf.attention_kv_passes(model(p), grouped_kernel=grouped_kernel))
                out.append(("fixed batch", f"E {g} {prec}", f"v0.8 {p} {g} {prec} TP{tp} b{b} {i}/{o}", meas, v,
                            None))
    for g, models in TTFT_E.items():
        prec = "bf16" if g == A100 else "fp8"
        for p, tp, *ms in models:
            for i, meas in zip((128, 2048), ms):
                v = inf.time_to_first_token_s(model(p), get_gpu(g), prompt_tokens=i, precision=prec, tp=tp) * 1000
                # a time: published / predicted - 1 with times (a longer published time = the model too fast)
                out.append(("first token", f"E {g} {prec}", f"v0.8 TTFT {p} {g} {prec} TP{tp} {i}", meas, v, None))
    return out


def err(metric, pub, pred):
    """published / predicted - 1 (the brief's convention), and modelled / published - 1 (the r8-r12 scripts')."""
    if pred <= 0:
        return float("inf"), -1.0
    return pub / pred - 1, pred / pub - 1


def p90(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.9 * (len(xs) - 1))))]


def stats(errs):
    a = [abs(e) for e in errs]
    return len(a), statistics.median(a) * 100, p90(a) * 100, statistics.median(errs) * 100


def summary_lines(rs):
    """Per metric (all rows are engine tensorrt-llm), per source x card x precision, and all rows."""
    lines = ["| set | rows | median \\|pub/pred-1\\| | p90 | signed median | [median / p90 \\|model/pub-1\\|] |",
             "|---|---|---|---|---|---|"]
    groups: dict = {}
    for metric, grp, _lab, pub, pred, _s in rs:
        e, e2 = err(metric, pub, pred)
        for key in (f"**tensorrt-llm, {metric}**", f"{metric}: {grp}", "**all new rows**"):
            groups.setdefault(key, ([], []))
            groups[key][0].append(e)
            groups[key][1].append(e2)
    order = sorted(groups, key=lambda k: (k != "**all new rows**", not k.startswith("**"), k))
    for k in order:
        n, med, q90, sgn = stats(groups[k][0])
        _n, med2, q902, _s = stats(groups[k][1])
        lines.append(f"| {k} | {n} | {med:.1f}% | {q90:.1f}% | {sgn:+.1f}% | [{med2:.1f}% / {q902:.1f}%] |")
    sens = [(pub / s - 1) for m, _g, _l, pub, _p, s in rs if s]
    if sens:
        n, med, q90, sgn = stats(sens)
        lines.append(f"| sensitivity: (F) at KV share 0.95 | {n} | {med:.1f}% | {q90:.1f}% | {sgn:+.1f}% | |")
    return lines


def row_lines(before, after):
    lines = ["| metric | row | published | predicted before | pub/pred-1 before | predicted after | pub/pred-1 after "
             "| [model/pub-1 after] |", "|---|---|---|---|---|---|---|---|"]
    for (metric, _g, lab, pub, pred0, _s0), (_m, _g1, _l, _p, pred, _s) in zip(before, after):
        e0, _ = err(metric, pub, pred0)
        e, e2 = err(metric, pub, pred)
        unit = " ms" if metric == "first token" else ""
        lines.append(f"| {metric} | {lab} | {pub:,.1f}{unit} | {pred0:,.1f}{unit} | {e0 * 100:+.1f}% | "
                     f"{pred:,.1f}{unit} | {e * 100:+.1f}% | [{e2 * 100:+.1f}%] |")
    return lines


def xqa_lines():
    """The v0.8 Mistral 7B fixed-batch rows on H100/H200 with and without the grouped-query decode kernel."""
    lines = ["| row (v0.8 Mistral 7B, Hopper FP8) | published | grouped kernel (scored) | one KV pass per query head |",
             "|---|---|---|---|"]
    for a, b in zip(rows(), rows(grouped_kernel=False)):
        if a[0] == "fixed batch" and "mistral" in a[2] and ("h100" in a[2] or "h200" in a[2]):
            lines.append(f"| {a[2]} | {a[3]:,.0f} | {a[4]:,.0f} ({a[3] / a[4] - 1:+.1%}) | "
                         f"{b[4]:,.0f} ({b[3] / b[4] - 1:+.1%}) |")
    return lines


def main(argv):
    with before_r13():
        before = rows()
    after = rows()
    print("Before the round-13 change (no A100 PCIe power-limit factor):")
    print("\n".join(summary_lines(before)))
    print("\nAfter (timing.MAMF_TABLE_PAIRS: A100 PCIe 80GB at 252.9 / 271.2 of the SXM's matmul share):")
    print("\n".join(summary_lines(after)))
    if "--fragment" not in argv:
        print("\nSensitivity, not scored: v0.8's Mistral on Hopper without the grouped-query kernel")
        print("\n".join(xqa_lines()))
    print()
    print("\n".join(row_lines(before, after)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
