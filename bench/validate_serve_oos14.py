"""Issue 35, round 14 (servoos14): NEW out-of-sample serving rows — SGLang batch-1 requests on the H20, dense and MoE
(Qwen3-8B, Qwen3-30B-A3B, Qwen3-235B-A22B), entered as a user would enter them (model preset, card, precision, TP,
engine, prompt and output lengths) and scored with the current model BEFORE any change. None of these figures is used
by scripts/validate_inference.py or bench/ (grepped for "speed_benchmark", "81.73", "137.18", "74.50", "H20 96GB").

Source
------
(Q) Qwen team, "Speed Benchmark" (QwenLM/Qwen2.5 ``docs/source/getting_started/speed_benchmark.md``, commit
    ac7272455d45483d2f579a88295e81586d60ff6f, the Qwen3 edition; also qwen.readthedocs.io getting_started/speed_benchmark):
    - "NVIDIA H20 96GB"; SGLang 0.4.6.post1, SGL-kernel 0.1.0, PyTorch 2.6.0+cu124.
    - "Speed = (tokens_prompt + tokens_generation) / time"; "a batch size of 1 and the minimum number of GPUs";
      "generating 2048 tokens, with input lengths of 1, 6144, 14336, 30720, 63488, and 129024 tokens" (the tables
      print the last as "129042": read as 129024, the notes' figure; 18 tokens change no row by more than 0.01%).
    - SGLang: ``mem_fraction_static=0.85``, ``context_length=140000``, ``enable_mixed_chunk=True``,
      ``skip_tokenizer_init=True`` (input ids, no tokenizer in the timed path).
    - Qwen3-235B-A22B: BF16 on 8 GPUs (TP=8), FP8 on 4 (TP=4); every other row one GPU.
ASSUMED (not stated): SGLang's other defaults (chunked-prefill budget for a 96 GB card, CUDA graphs on, overlap
scheduler on: ``inf.ENGINE_LOOP["sglang"]``); the FP8 rows are the Qwen3-*-FP8 checkpoints (fine-grained 128×128
block-scaled FP8 weights, per the Qwen model cards), scored as the planner's ``fp8`` (it has no block-scale field); the
KV cache is BF16 in every row (no ``kv_cache_dtype`` stated; SGLang's default "auto" = the model's dtype); the time
is the request's whole life: its prefill (first token) and then 2,047 decode steps at batch 1, each over the context
reached so far (the step is linear in the context, so the mean context L + 1,024 stands for all of them).
Left out: the INT4 rows (AWQ-INT4 / GPTQ-INT4 Marlin kernels: GPTQ-Marlin MoE runs 4-5x slower than BF16, a kernel
not a format), the Transformers tables (HF generate, not a serving engine), and the models without a preset (Qwen3
0.6B / 1.7B / 4B / 14B / 32B).

(G) GPUStack "Performance Lab", "Optimizing Qwen3-8B Latency on NVIDIA H100 GPUs" (gpustack/gpustack
    ``docs/performance-lab/qwen3-8b/h100-latency.md``, commit 1dbc3b8130da92d31539404545a1aff5c3992f8c): "A single NVIDIA
    H100 SXM GPU"; vLLM v0.11.0, SGLang v0.5.3.post3, TensorRT-LLM v1.2.0rc1, each started with its defaults
    (``vllm serve Qwen/Qwen3-8B``, ``python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B`` or ``Qwen3-8B-FP8``,
    ``trtllm-serve Qwen/Qwen3-8B``); ``vllm bench serve --backend openai-chat --endpoint /v1/chat/completions
    --dataset-name sharegpt --num-prompts 100 --max-concurrency C``: 23,260 input and 22,061 generated tokens in
    every run (means 232.6 / 220.6). Entered: mean TPOT and mean TTFT of the vLLM baseline at C = 1, 2, 4, 8 and of the
    three engines' "choosing the engine" runs at C = 4 (SGLang BF16 and FP8 too). Left out: the speculative-decoding
    runs (EAGLE3: no planner mechanism), the attention-backend and ``--cuda-graph-max-bs 8`` variants (same engine and
    figures within 1%).
    Modelled: TPOT = the decode step at a batch of C over the mean context 232.6 + 220.6 / 2, plus the prefills of
    the C − 1 other requests that join a running request's steps, spread over its 219.6 later tokens (each request
    that finishes is replaced: about one arrival per other slot during a request's life; ASSUMED); TTFT = the idle
    replica's first token of a 232.6-token prompt plus the engine's API wait (``inf.api_request_wait_s``), the same
    at every C (ASSUMED: the wait for a running step at C > 1, about half a step, is left out). The chat template's
    tokens are in the client's count. KV BF16 ("auto") in every run.

Error convention: published / predicted − 1 (the brief's); modelled / published − 1 in brackets.
"""
from __future__ import annotations

import sys

from gpuplanner.core import inference as inf
from gpuplanner.core.catalog_hw import get_gpu
from gpuplanner.core.estimate import resolve
from gpuplanner.core.scenario import Scenario
from validate_serve_oos10 import summary  # the serving benches' one summary line (round 10)

GPU = "h20-96gb"
ENGINE = "sglang"
KV = "bf16"  # SGLang's kv_cache_dtype "auto": the model's dtype (BF16 activations, FP8 checkpoints too) (ASSUMED)
OUTPUT = 2048
LENGTHS = (1, 6144, 14336, 30720, 63488, 129024)
SOURCE = ("QwenLM/Qwen2.5 docs/source/getting_started/speed_benchmark.md @ac72724 (Qwen3 speed benchmark, "
          "SGLang 0.4.6.post1, H20 96GB)")
# (preset, precision, tp, published speed (prompt + generated tokens) / s at each of LENGTHS)
SPEED = [
    ("qwen3-8b", "bf16", 1, (81.73, 296.25, 524.70, 832.67, 1112.78, 1173.32)),
    ("qwen3-8b", "fp8", 1, (150.25, 516.64, 859.92, 1242.24, 1476.46, 1393.21)),
    ("qwen3-30b-a3b", "bf16", 1, (137.18, 490.10, 849.62, 1283.94, 1538.79, 1385.65)),
    ("qwen3-30b-a3b", "fp8", 1, (155.55, 551.34, 945.13, 1405.91, 1647.89, 1442.14)),
    ("qwen3-235b-a22b", "bf16", 8, (74.50, 289.03, 546.73, 979.41, 1493.91, 1639.54)),
    ("qwen3-235b-a22b", "fp8", 4, (71.65, 275.16, 514.23, 887.90, 1269.34, 1319.66)),
]


G_GPU = "h100-sxm-80gb"
G_PROMPT, G_OUTPUT = 23260 / 100, 22061 / 100
G_SOURCE = "gpustack/gpustack docs/performance-lab/qwen3-8b/h100-latency.md @1dbc3b8"
# (label, engine, precision, concurrency, published mean TPOT ms, published mean TTFT ms)
GPUSTACK = [
    ("vLLM 0.11.0", "vllm", "bf16", 1, 7.28, 59.01),
    ("vLLM 0.11.0", "vllm", "bf16", 2, 7.37, 63.78),
    ("vLLM 0.11.0", "vllm", "bf16", 4, 7.38, 64.00),
    ("vLLM 0.11.0", "vllm", "bf16", 8, 7.71, 74.57),
    ("SGLang 0.5.3.post3", "sglang", "bf16", 4, 7.19, 27.70),
    ("SGLang 0.5.3.post3", "sglang", "fp8", 4, 5.65, 39.66),
    ("TensorRT-LLM 1.2.0rc1", "tensorrt-llm", "bf16", 4, 7.67, 51.61),
]


def gpustack_modelled(engine, precision, conc):
    """(TPOT s, TTFT s) of one (G) run, as the module docstring says."""
    m, gpu = model("qwen3-8b"), get_gpu(G_GPU)
    loop = inf.ENGINE_LOOP[engine]
    step, _ = inf.decode_step_s(m, gpu, precision=precision, kv_bytes=inf.KV_BYTES[KV], batch=conc,
                                context=G_PROMPT + G_OUTPUT / 2, tp=1, eff=inf.ServingEfficiency(), loop=loop,
                                tile_rows=inf.dense_tile_rows(engine, gpu, precision, m),
                                pad_rows=inf.block_tile_rows(engine, gpu, precision, m))  # round 15 (h20dec15)
    pre = inf.prefill_s(m, gpu, precision=precision, prompt=G_PROMPT, tp=1, eff=inf.ServingEfficiency(),
                        attn_precision=KV, engine=engine)
    tpot = step + (conc - 1) * pre / (G_OUTPUT - 1)
    ttft = inf.api_request_wait_s(engine) + inf.time_to_first_token_s(
        m, gpu, prompt_tokens=G_PROMPT, precision=precision, tp=1, loop=loop,
        chunk=inf.prefill_chunk_tokens(engine, gpu), kv_precision=KV, engine=engine)
    return tpot, ttft


def gpustack_scored():
    """[(|err|, err, label, published ms, predicted ms, metric)] for every (G) TPOT and TTFT."""
    out = []
    for label, eng, prec, c, tpot, ttft in GPUSTACK:
        mt, mf = gpustack_modelled(eng, prec, c)
        for metric, meas, got in (("TPOT", tpot, mt * 1e3), ("TTFT", ttft, mf * 1e3)):
            e = meas / got - 1
            out.append((abs(e), e, f"{label} qwen3-8b {prec.upper()} H100 C={c} {metric}", meas, got, metric))
    return out


def rows():
    """Every entered row: (preset, precision, tp, prompt, published speed)."""
    return [(p, prec, tp, n, v) for p, prec, tp, vals in SPEED for n, v in zip(LENGTHS, vals)]


def model(preset):
    r = resolve(Scenario.model_validate({"model": {"preset": preset}}))
    return inf.ServingModel.of(r.arch, r.params)


def request_s(preset, precision, tp, prompt, output=OUTPUT):
    """(first-token s, decode s) of one request alone on an idle SGLang replica: the prompt's prefill in the engine's
    default chunks, then ``output − 1`` batch-1 decode steps at the mean context."""
    m, gpu = model(preset), get_gpu(GPU)
    loop = inf.ENGINE_LOOP[ENGINE]
    first = inf.time_to_first_token_s(m, gpu, prompt_tokens=prompt, precision=precision, tp=tp, loop=loop,
                                      chunk=inf.prefill_chunk_tokens(ENGINE, gpu), kv_precision=KV, engine=ENGINE)
    step, _ = inf.decode_step_s(m, gpu, precision=precision, kv_bytes=inf.KV_BYTES[KV],
                                batch=1, context=prompt + output / 2, tp=tp, eff=inf.ServingEfficiency(), loop=loop,
                                tile_rows=inf.dense_tile_rows(ENGINE, gpu, precision, m),  # as the planner's replica
                                pad_rows=inf.block_tile_rows(ENGINE, gpu, precision, m))  # round 15 (h20dec15)
    return first, step * (output - 1)


def predicted_speed(preset, precision, tp, prompt, output=OUTPUT):
    """The benchmark's speed: (prompt + generated tokens) / the request's time."""
    first, dec = request_s(preset, precision, tp, prompt, output)
    return (prompt + output) / (first + dec)


def scored():
    """[(|err|, err, label, published, predicted, first-token share of the predicted time)]."""
    out = []
    for p, prec, tp, n, meas in rows():
        first, dec = request_s(p, prec, tp, n)
        got = (n + OUTPUT) / (first + dec)
        e = meas / got - 1
        out.append((abs(e), e, f"{p} {prec.upper()} TP{tp} {n}/{OUTPUT}", meas, got, first / (first + dec)))
    return out


def implied_decode_ms(meas, prompt, first_s, output=OUTPUT):
    """The per-step decode time the published speed implies, given the model's first-token time."""
    return ((prompt + output) / meas - first_s) / (output - 1) * 1e3


def tile_sensitivity(rows_pad):
    """The rows scored with the small-M decode kernels padding the tokens to ``rows_pad`` rows instead of
    ``inf.SMALL_M_TILE_ROWS`` (a sensitivity printed, not a change: section 3 of the note)."""
    keep = inf.SMALL_M_TILE_ROWS
    inf.SMALL_M_TILE_ROWS = float(rows_pad)
    try:
        return scored()
    finally:
        inf.SMALL_M_TILE_ROWS = keep


def main():
    res = scored()
    print(f"Source: {SOURCE}")
    print("| row | published tok/s | predicted | error (pub/pred-1) | [model/pub-1] | prefill share | "
          "implied decode ms/step | modelled ms/step |")
    print("|---|---|---|---|---|---|---|---|")
    for (a, e, label, meas, got, share), (p, prec, tp, n, _) in zip(res, rows()):
        first, dec = request_s(p, prec, tp, n)
        print(f"| {label} | {meas:,.2f} | {got:,.2f} | {e:+.1%} | [{got / meas - 1:+.1%}] | {share:.0%} | "
              f"{implied_decode_ms(meas, n, first):.2f} | {dec / (OUTPUT - 1) * 1e3:.2f} |")
    print()
    print(summary("all new rows (servoos14, SGLang H20 batch 1)", res))
    print(summary("  decode-bound (prompt 1)", [x for x in res if x[2].endswith(f" 1/{OUTPUT}")]))
    print(summary("  prompt 6,144-30,720", [x for x in res if any(f" {n}/" in x[2] for n in (6144, 14336, 30720))]))
    print(summary("  prompt 63,488-129,024", [x for x in res if any(f" {n}/" in x[2] for n in (63488, 129024))]))
    for p in ("qwen3-8b ", "qwen3-30b-a3b ", "qwen3-235b-a22b "):
        print(summary(f"  {p.strip()}", [x for x in res if x[2].startswith(p)]))
    print(summary("  dense (qwen3-8b)", [x for x in res if x[2].startswith("qwen3-8b ")]))
    print(summary("  MoE (30B-A3B, 235B-A22B)", [x for x in res if not x[2].startswith("qwen3-8b ")]))
    for prec in ("BF16", "FP8"):
        print(summary(f"  {prec}", [x for x in res if f" {prec} " in x[2]]))
    print()
    print(f"Source (G): {G_SOURCE}")
    print("| run | published ms | predicted ms | error (pub/pred-1) | [model/pub-1] |")
    print("|---|---|---|---|---|")
    g = gpustack_scored()
    for a, e, label, meas, got, _ in g:
        print(f"| {label} | {meas:.2f} | {got:.2f} | {e:+.1%} | [{got / meas - 1:+.1%}] |")
    print(summary("(G) TPOT, H100 Qwen3-8B, C = 1-8", [x for x in g if x[5] == "TPOT"]))
    print(summary("(G) TTFT, H100 Qwen3-8B (chat endpoint)", [x for x in g if x[5] == "TTFT"]))
    print(summary("(G) all", g))
    print(summary("all new rows (Q) + (G)", res + g))
    print()
    for pad in (32, 64):
        sens = tile_sensitivity(pad)
        print(summary(f"sensitivity, small-M pad {pad} rows (not built)", sens))
        for prec in ("BF16", "FP8"):
            print(summary(f"  {prec}", [x for x in sens if f" {prec} " in x[2]]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
