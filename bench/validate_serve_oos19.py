"""Issue 35, round 18 (servoos19): NEW out-of-sample serving rows — maximum-load and prefill-throughput runs from the
engines' own maintainers and users that no earlier round entered — entered as a user would enter them (model, card,
precision, TP, engine, lengths) and scored with the current model BEFORE any change. Run:
``python bench/validate_serve_oos19.py`` (``--rows``: every row).

Held-row check: scripts/validate_inference.py, every bench/validate_serve*.py, tests/ and docs/ grepped for the issue
numbers and the figures ("10896", "22116", "3535.64", "27670", "653.61"). sglang #1639 was looked at and left out by
servoos11 ("card not stated") and vLLM #17788 by fp8serve12 ("two models"); neither row was entered. The rest are new.

Error convention: published / predicted - 1 (the brief's).

Sources and the settings mapped (ASSUMED where the source is silent)
-------
(S1639) sgl-project/sglang issue #1639 ("is it time to rerun the benchmarks?"). The opener (stas00, 2024-10-12)
    benchmarks "vllm=0.6.2 vs sglang=0.3.2 on 2 H100s w/ 8b llama3 and tp=2". The maintainer's answer (zhyncs,
    2024-10-17): "a simple benchmark with 2000 prompts ... The commands are generally consistent with what you provided
    above. Among them, vLLM is version 0.6.3 and SGLang is the latest main version. The startup command for vLLM
    removed `--gpu_memory_utilization 0.8` and added `--disable-log-requests`". SGLang: 2000 requests, 453,502 input
    and 376,493 generated tokens, output 10,896.87 tok/s, total 24,022.63; vLLM: total 22,116.03 tok/s.
    ASSUMED: the opener's 2 x H100 SXM 80 GB at TP 2 and Llama 3 8B (Instruct) for the answer's run; ShareGPT
    (bench_serving's default dataset; 226.75 in / 188.25 out a request, the Llama 3 tokenizer's counts); BF16;
    SGLang of mid-October 2024 (0.3.3/0.3.4: before the overlap scheduler, loop ``none`` x
    ``inf.SGLANG_PRE_OVERLAP_STEP``; mem_fraction_static 0.87, the 0.3 line's TP-2 default); vLLM 0.6.3 V0
    (``inf.vllm_v0_loop("0.6.3")``, max_num_seqs 256, one scheduler step a pass: the answer names no
    ``--num-scheduler-steps``; util 0.90, the default once 0.8 was removed). vLLM's total is scored on the SGLang
    run's token counts (its own counts are not in the answer).
(D1060) sgl-project/sglang PR #1060 ("fix: temporary solution for DeepSeek V2 H100 layout conversion issue",
    zhyncs, 2024-08-12): ``sglang.launch_server --model-path deepseek-ai/DeepSeek-V2-Lite --disable-radix-cache
    --enable-mla``; bench_serving, request rate inf, 1000 requests, 236,142 input and 215,614 generated tokens, output
    3,535.64 tok/s. ASSUMED: one H100 SXM 80 GB (the PR fixes an H100 layout issue), BF16, ShareGPT (236.1
    / 215.6 a request), SGLang 0.2.x (loop ``none`` x ``SGLANG_PRE_OVERLAP_STEP``, mem_fraction_static 0.88).
(V905) sgl-project/sglang PR #905 ("Support MLA for DeepSeek-V2 with Triton - step 1", zhyncs, 2024-08-04): "A100
    80G, ShareGPT 1k", the vLLM baseline ``vllm.entrypoints.openai.api_server --model deepseek-ai/DeepSeek-V2-Lite
    --disable-log-requests --trust-remote-code --max-model-len 4096``, ``sglang.bench_serving --backend vllm``: 1000
    requests at rate inf, 236,142 input and 215,614 generated tokens (the same prompts as D1060), output 1,248.36 tok/s.
    Mapped: A100 SXM 80 GB, BF16, TP 1, vLLM of that week (0.5.3.post1, the version sglang's PR #810 environment
    printed four days earlier: V0 loop ``v0``), 256 sequences, util 0.90, ``vllm_v0_budget(4096)``. vLLM had no MLA
    cache for DeepSeek-V2 then (it cached full K/V heads; vLLM PR #10927 is the later MLA work): the model's pool holds
    MLA's latent, so its batch is not capped by memory where the run's may have been.
(L1060) the same PR (2024-08-13): ``--model-path meta-llama/Meta-Llama-3.1-8B-Instruct --enable-torch-compile
    --disable-radix-cache --disable-flashinfer``; ``bench_serving --dataset-name random --num-prompts 1000
    --random-input 8192 --random-output 8``: 4,064,944 input and 3,930 generated tokens in 146.91 s, input 27,670.26
    tok/s. The figure is the prefill rate of a queue of long prompts. bench_serving's random lengths of that release
    are uniform on [1, len] (``--random-range-ratio`` 0: ``np.random.randint(max(int(len * ratio), 1), len + 1)``),
    which the means agree with (4,065 of 4,096.5; 3.9 of 4.5 outputs). ASSUMED: one H100 SXM 80 GB, BF16, SGLang 0.2.x.
(Q17788) vllm-project/vllm issue #17788 (2025-05-07): "a single H100 NVL node with 95GB VRAM and vllm 0.8.5.post1",
    ``vllm serve "Qwen/Qwen3-32B" --dtype bfloat16 --max-model-len 32000 --enable-chunked-prefill
    --enable-prefix-caching --max-num-seqs 32``; benchmark_serving on ShareGPT, 1000 requests at rate inf: 217,393
    input and 200,516 generated tokens in 306.78 s, output 653.61 tok/s. Mapped: H100 NVL 94 GB, BF16, TP 1, vLLM V1
    (0.8.5's default engine; loop ``serial``), max_num_seqs 32 (the run's own cap), ShareGPT 217.4 / 200.5. Qwen3-32B
    is entered over the qwen3-8b preset with its ``config.json`` (huggingface.co/Qwen/Qwen3-32B): hidden 5120, 64
    layers, 64 heads, 8 KV heads, head_dim 128, intermediate 25600, vocabulary 151,936, untied embeddings.
    The client's ``--temperature/--top-k/--top-p`` change sampling only. Prefix caching finds nothing to share in
    ShareGPT's distinct conversations (ASSUMED).

(K10927) vllm-project/vllm PR #10927 ("[WIP] Deepseek V2 MLA", simon-mo, 2024-12-05), the "Before" run:
    ``benchmark_throughput.py --model deepseek-ai/DeepSeek-V2-Lite-Chat --enforce-eager --max-model-len 8192
    --input-len 1000 --output-len 100 --num-prompts 200 --dtype float16`` (VLLM_ATTENTION_BACKEND=FLASHINFER), vLLM
    V0 of that week on an "NVIDIA_H100_80GB_HBM3" (the fused-MoE config file name in its log): "Loading model weights
    took 29.3010 GB", "total_gpu_memory=79.10GiB ... peak_torch_memory=30.56GiB ... non_torch_memory=5.21GiB,
    kv_cache_size=35.42GiB, gpu_memory_utilization=0.90", "# GPU blocks: 5373". -> KV CAPACITY (GiB a GPU; the
    pool's bytes, whatever the cache layout: that build cached full K/V heads, not MLA's latent). Mapped: H100 SXM
    80 GB, 16-bit, TP 1, vLLM at 0.90, the scheduler budget of ``--max-model-len 8192`` without chunked prefill
    (``inf.vllm_v0_budget(8192)``; the benchmark_throughput ``LLM`` class of V0).

Looked at, not entered: sglang #810 (Llama-3-70B-FP8 on 8 x H100: the result block is not in the stored text);
vLLM #7567 (Llama 3.1 70B TP 8: card not named); kubeai PR #341 (GH200: not in the catalog); vLLM #10517 (RTX 3090:
not in the catalog); vLLM #13061 (2 x RTX 4090 KV pool: already used for ``inf.NON_TORCH_GIB``'s PCIe figure);
vLLM PR #10511 and #15815 (held); tenstorrent/tt-inference-server #356 (DeepSeek-R1 on 16 x H100 over InfiniBand:
multi-node TP16 decode is not a shape the planner offers).
"""
from __future__ import annotations

import statistics
import sys

from gpuplanner.core import inference as inf
from gpuplanner.core.catalog_hw import get_gpu
from gpuplanner.core.estimate import resolve
from gpuplanner.core.scenario import Scenario

H100, H100NVL = "h100-sxm-80gb", "h100-nvl-94gb"
DIMS = {"qwen3-32b": dict(name="Qwen3 32B", hidden_size=5120, num_hidden_layers=64, num_attention_heads=64,
                          num_key_value_heads=8, head_dim=128, intermediate_size=25600, tie_word_embeddings=False)}
SGLANG_OLD = dict(engine="sglang", host_step=inf.SGLANG_PRE_OVERLAP_STEP, loop="none", steps_per_schedule=1)
# (label, model, gpu, tp, run settings, requests, prompt mean, output mean, lengths, metric, published, source)
ROWS = [
    ("S1639", "llama-3-8b", H100, 2, dict(SGLANG_OLD, utilization=0.87), 2000, 453502 / 2000, 376493 / 2000,
     "sharegpt", "output", 10896.87, "sglang #1639 (2024-10-17), SGLang main, 2000 ShareGPT"),
    ("V1639", "llama-3-8b", H100, 2, dict(engine="vllm", host_step=1.0, loop=inf.vllm_v0_loop("0.6.3"),
                                         steps_per_schedule=1, utilization=0.90, max_batch=256),
     2000, 453502 / 2000, 376493 / 2000, "sharegpt", "total", 22116.03,
     "sglang #1639 (2024-10-17), vLLM 0.6.3, 2000 ShareGPT"),
    ("D1060", "deepseek-v2-lite", H100, 1, dict(SGLANG_OLD, utilization=0.88), 1000, 236.142, 215.614,
     "sharegpt", "output", 3535.64, "sglang PR #1060 (2024-08-12), DeepSeek-V2-Lite --enable-mla, 1000 ShareGPT"),
    ("V905", "deepseek-v2-lite", "a100-sxm-80gb", 1, dict(engine="vllm", host_step=1.0, loop=inf.vllm_v0_loop("0.5.3"),
                                                          steps_per_schedule=1, utilization=0.90, max_batch=256,
                                                          budget=inf.vllm_v0_budget(4096)),
     1000, 236.142, 215.614, "sharegpt", "output", 1248.36,
     "sglang PR #905 (2024-08-04), vLLM 0.5.3 baseline, DeepSeek-V2-Lite, A100 80G, 1000 ShareGPT"),
    ("L1060", "llama-3.1-8b", H100, 1, dict(SGLANG_OLD, utilization=0.88), 1000, 8192, 8,
     "uniform", "input", 27670.26, "sglang PR #1060 (2024-08-13), random 8192/8 (uniform), 1000 prompts"),
    ("Q17788", "qwen3-32b", H100NVL, 1, dict(engine="vllm", host_step=1.0, loop="serial", steps_per_schedule=1,
                                              utilization=0.90, max_batch=32),
     1000, 217.393, 200.516, "sharegpt", "output", 653.61,
     "vLLM #17788 (2025-05-07), 0.8.5.post1, --max-num-seqs 32, 1000 ShareGPT"),
]
# (label, model, gpu, precision, tp, engine, memory knob, scheduler budget, published KV GiB a GPU, source)
KV_ROWS = [("K10927", "deepseek-v2-lite", H100, "bf16", 1, "vllm", 0.90, inf.vllm_v0_budget(8192), 35.42,
            "vLLM PR #10927 (2024-12-05), V0, DeepSeek-V2-Lite-Chat fp16, enforce_eager, util 0.90")]
SAMPLES = 200
_MODELS: dict = {}


def model(name):
    if name not in _MODELS:
        spec = {"preset": name} if name not in DIMS else {"preset": "qwen3-8b", "vocab_size": 151936, **DIMS[name]}
        r = resolve(Scenario.model_validate({"model": spec}))
        _MODELS[name] = inf.ServingModel.of(r.arch, r.params)
    return _MODELS[name]


def lengths(pm, om, kind):
    """(prompts, outputs) of ``SAMPLES`` requests: ShareGPT's spread (``inf.request_mix``) or bench_serving's
    uniform random lengths on [1, len] (even quantiles; prompts and outputs paired by a fixed stride)."""
    if kind == "sharegpt":
        return inf.request_mix(pm, om, "sharegpt", samples=SAMPLES)
    ps = [1 + (pm - 1) * (i + 0.5) / SAMPLES for i in range(SAMPLES)]
    os_ = [float(1 + (i * 7) % int(om)) for i in range(SAMPLES)]
    return ps, os_


def predict(p, g, tp, run, n, pm, om, kind, metric):
    """The published metric as the modelled run gives it (``inf.max_load_run``)."""
    ps, os_ = lengths(pm, om, kind)
    kw = {k: v for k, v in run.items()}
    r = inf.max_load_run(model(p), get_gpu(g), prompts=ps, outputs=os_, requests=n, precision="bf16", tp=tp, **kw)
    if r is None:
        return 0.0
    if metric == "output":
        return r.output_tokens_per_s
    if metric == "total":
        return r.output_tokens_per_s * (pm + om) / om
    return n * sum(ps) / len(ps) / r.duration_s  # input tokens/s


def kv_rows():
    """[(label, "KV GiB", published, predicted, source)]: ``inf.kv_cache_bytes_per_gpu`` a GPU."""
    return [(lab, "KV GiB", pub, inf.kv_cache_bytes_per_gpu(model(p), get_gpu(g), precision=prec, tp=tp, engine=eng,
                                                             utilization=frac, budget=budget) / inf.GIB, src)
            for lab, p, g, prec, tp, eng, frac, budget, pub, src in KV_ROWS]


def rows():
    """[(label, metric, published, predicted, source)]: the maximum-load rows, then the KV rows."""
    return [(lab, metric, pub, predict(p, g, tp, run, n, pm, om, kind, metric), src)
            for lab, p, g, tp, run, n, pm, om, kind, metric, pub, src in ROWS] + kv_rows()


def err(pub, pred):
    return (pub / pred - 1) if pred > 0 else float("inf")


def p90(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.9 * (len(xs) - 1))))]


def stats(errs):
    a = [abs(e) for e in errs]
    return len(a), statistics.median(a) * 100, p90(a) * 100, statistics.median(errs) * 100


#: Sensitivity to the ASSUMED settings (printed, not scored): (label, what changes, the row's settings replaced)
SENSITIVITY = [("S1639", "one H100 at TP 1 (mem_fraction_static 0.88)", dict(tp=1, utilization=0.88)),
               ("V1639", "vLLM --num-scheduler-steps 10 (benchmark_vllm_060's vLLM command)",
                dict(steps_per_schedule=10)),
               ("V1639", "one H100 at TP 1", dict(tp=1)),
               ("D1060", "the same run on an A100 80 GB", dict(gpu="a100-sxm-80gb")),
               ("Q17788", "max_num_seqs 256 instead of the run's 32 (what the cap costs)", dict(max_batch=256))]


def sensitivity():
    """[(label, what, published, predicted)] for :data:`SENSITIVITY`."""
    by = {r[0]: r for r in ROWS}
    out = []
    for lab, what, change in SENSITIVITY:
        _, p, g, tp, run, n, pm, om, kind, metric, pub, _ = by[lab]
        run = dict(run, **{k: v for k, v in change.items() if k not in ("tp", "gpu")})
        pred = predict(p, change.get("gpu", g), change.get("tp", tp), run, n, pm, om, kind, metric)
        out.append((lab, what, pub, pred))
    return out


def main(argv):
    rs = rows()
    n, med, p9, sm = stats([err(pub, pred) for _, _, pub, pred, _ in rs])
    print(f"all new rows | {n} | median |err| {med:.1f}% / p90 {p9:.1f}% (signed median {sm:+.1f}%)")
    print("| row | metric | published | predicted | error | source |")
    for lab, metric, pub, pred, src in rs:
        unit = "" if metric == "KV GiB" else " tok/s"
        print(f"| {lab} | {metric}{unit} | {pub:,.2f} | {pred:,.2f} | {err(pub, pred) * 100:+.1f}% | {src} |")
    print("sensitivity (not scored):")
    for lab, what, pub, pred in sensitivity():
        print(f"| {lab} | {what} | {pub:,.0f} | {pred:,.0f} | {err(pub, pred) * 100:+.1f}% |")


if __name__ == "__main__":
    main(sys.argv[1:])
