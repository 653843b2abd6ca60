"""Issue 35, round 14 (h20serve14): is the H20's slow batch-1 decode in the Qwen3 speed benchmark (servoos14: a step
fits 1.5 ms + weight bytes at 1.38 TB/s, 34% of the card's 4.0 TB/s) a fact of the card or of that one run? NEW rows
from OTHER publications, entered as a user would enter them and scored with the current model BEFORE any change.
None of these figures is used by scripts/validate_inference.py or bench/ (grepped for "7631", "22.99", "19.73",
"84.28", "46.30", "22.13").

Sources
-------
(D) sgl-project/sglang pull request #7631, "Add H20 fused MoE kernel configs for Dpsk & Qwen3" (M0gician,
    2025-06-29, merged): 8 x NVIDIA H20, ``python3 -m sglang.launch_server --model-path DeepSeek-V3-0324
    --disable-radix-cache --tp 8 --context-length 4096 --mem-fraction-static 0.9``; ``python3 -m sglang.bench_serving
    --backend sglang --dataset-name random --random-input 1024 --random-output 512 --max-concurrency 8
    --num-prompt 200``: 103,005 input / 53,590 generated tokens (means 515.0 / 268.0), "Concurrency: 7.83".
    Entered: the run WITH the PR's tuned configs — mean ITL 22.99 ms, median ITL 19.73 ms, mean TTFT 256.53 ms.
    The SGLang release is not stated (the PR's branch, late June 2025). ASSUMED: DeepSeek-V3-0324's own
    block-scaled FP8 weights (scored as the planner's ``fp8``, no block field), KV
    BF16 (SGLang "auto"), SGLang's other defaults (CUDA graphs, overlap scheduler). Modelled like servoos14's (G):
    median ITL = the decode step at a batch of 8 over the mean context 515 + 268 / 2; mean ITL = that step plus the
    7 other requests' prefills spread over a request's 267 later tokens; TTFT = the idle replica's first token of a
    515-token prompt plus the API wait (the queue behind a running step left out, as in (G)).
(A) Control, same publisher and method on another card: Qwen team, "Qwen2.5 Speed Benchmark" (QwenLM/Qwen2.5
    ``docs/source/benchmark/speed_benchmark.rst`` @a912d239c2d0e2e5d10bb8d02e6f5685edb43e68): "NVIDIA A100 80GB",
    vLLM 0.6.3, PyTorch 2.4.0, "batch size of 1 and the least number of GPUs", 2,048 generated tokens,
    ``gpu_memory_utilization=0.9 max_model_len=32768 enforce_eager=False``. Entered: the BF16 rows at input length 1
    (pure decode) of every size with a preset (0.5B, 1.5B, 7B, 14B, 32B on 1 GPU; 72B on 2 and on 4). ASSUMED: the
    SXM card (the page says "A100 80GB"); KV BF16. Speed at a 1-token prompt = 2,049 tokens / the request's time.

(K) Kernel-level measurements of the H20's memory, the card fact itself:
    (K1) NVIDIA/cuda-samples issue #366, "Copy engine vs SM mode" (MARD1NO, 2025-05-09): on an H20 "in SM Mode (for
    example, write a copy kernel), memcpy's bandwidth is higher than copy engine (cudaMemcpy) ... 3.3T/s vs 2T/s".
    Entered: the SM copy, 3.3 TB/s, against the planner's streaming share of the datasheet (timing.MEM_BW_EFFICIENCY
    x 4.0 TB/s, the share ``serving_facts.DECODE_STREAM_SHARE`` takes for decode).
    (K2) held, not new (scripts/validate_inference.py ``H20_MOE_GEMM_MS``): vllm-project/vllm PR #44152, the bf16
    fused-MoE GEMM on one H20 at 1 token, 0.076 ms for two experts' 235 MB: 3.1 TB/s, 77% of 4.0.
    Left out: NVIDIA/nvbandwidth issue #48 (an H20-3e, the 141 GB / 4.8 TB/s variant not in the catalogue; its
    ``device_local_copy`` is the copy engine's memcpy, 1.1 TB/s, and K1 shows the copy engine below an SM copy on the
    H20 too: not the path a decode kernel reads by).

The share each row needs (:func:`required_share`): the decode streaming share that would make the model's step equal
the step a published row implies (bisection on ``ServingEfficiency.memory_bandwidth``, nothing else changed). One card
fact would show as one share on every H20 row.

Error convention: published / predicted − 1 (the brief's); modelled / published − 1 in brackets.
"""
from __future__ import annotations

import sys

from gpuplanner.core import inference as inf
from gpuplanner.core import timing
from gpuplanner.core.catalog_hw import get_gpu
from gpuplanner.core.estimate import resolve
from gpuplanner.core.scenario import Scenario
from validate_serve_oos10 import summary  # the serving benches' one summary line (round 10)

KV = "bf16"
D_GPU, D_ENGINE, D_TP, D_CONC = "h20-96gb", "sglang", 8, 8
D_PROMPT, D_OUTPUT = 103005 / 200, 53590 / 200
D_SOURCE = "sgl-project/sglang PR #7631 (DeepSeek-V3-0324, 8x H20, TP 8, max-concurrency 8, random 1024/512)"
D_ITL_MEAN_MS, D_ITL_MEDIAN_MS, D_TTFT_MS = 22.99, 19.73, 256.53

A_GPU, A_ENGINE, A_OUTPUT = "a100-sxm-80gb", "vllm", 2048
A_SOURCE = "QwenLM/Qwen2.5 docs/source/benchmark/speed_benchmark.rst @a912d23 (vLLM 0.6.3, A100 80GB, batch 1)"
# (preset, GPUs (TP), published tokens/s at a 1-token prompt, BF16)
A_ROWS = [("qwen2.5-0.5b", 1, 311.55), ("qwen2.5-1.5b", 1, 183.33), ("qwen2.5-7b", 1, 84.28),
          ("qwen2.5-14b", 1, 46.30), ("qwen2.5-32b", 1, 22.13), ("qwen2.5-72b", 2, 18.19), ("qwen2.5-72b", 4, 31.37)]


# (label, published TB/s); modelled: timing.MEM_BW_EFFICIENCY x the datasheet's 4.0 TB/s
K_ROWS = [("H20 SM copy kernel (cuda-samples #366)", 3.3)]


def k_scored():
    """[(|err|, err, label, published TB/s, modelled TB/s)] for the kernel-level bandwidth rows."""
    bw = timing.MEM_BW_EFFICIENCY * float(get_gpu(D_GPU).mem_bw_tbs)
    return [(abs(meas / bw - 1), meas / bw - 1, label, meas, bw) for label, meas in K_ROWS]


def model(preset):
    r = resolve(Scenario.model_validate({"model": {"preset": preset}}))
    return inf.ServingModel.of(r.arch, r.params)


def step_s(preset, gpu_id, engine, precision, batch, context, tp, share=None):
    """The planner's decode step; ``share``: the decode streaming share to use instead of the default (diagnostic)."""
    m, gpu = model(preset), get_gpu(gpu_id)
    eff = inf.ServingEfficiency() if share is None else inf.ServingEfficiency(memory_bandwidth=share)
    s, _ = inf.decode_step_s(m, gpu, precision=precision, kv_bytes=inf.KV_BYTES[KV], batch=batch, context=context,
                             tp=tp, eff=eff, loop=inf.ENGINE_LOOP[engine],
                             tile_rows=inf.dense_tile_rows(engine, gpu, precision, m),  # as the planner's replica
                             pad_rows=inf.block_tile_rows(engine, gpu, precision, m))  # round 15 (h20dec15)
    return s


def required_share(target_s, preset, gpu_id, engine, precision, batch, context, tp):
    """The streaming share at which the modelled step equals ``target_s`` (NaN if even 1.5 is too slow)."""
    lo, hi = 0.02, 1.5
    if step_s(preset, gpu_id, engine, precision, batch, context, tp, hi) > target_s:
        return float("nan")
    for _ in range(40):
        mid = (lo + hi) / 2
        slow = step_s(preset, gpu_id, engine, precision, batch, context, tp, mid) > target_s
        lo, hi = (mid, hi) if slow else (lo, mid)
    return (lo + hi) / 2


def share_table():
    """[(label, implied step ms, share needed)]: servoos14's H20 batch-1 rows (prompt 1), (D)'s median ITL, (A)."""
    import validate_serve_oos14 as q  # the servoos14 rows, read from their own script (bench/ is on sys.path)
    out = []
    for p, prec, tp, vals in q.SPEED:
        first, _ = q.request_s(p, prec, tp, 1)
        t = q.implied_decode_ms(vals[0], 1, first) / 1e3
        out.append((f"H20 SGLang 0.4.6 {p} {prec.upper()} TP{tp} batch 1 (servoos14)", t * 1e3,
                    required_share(t, p, D_GPU, D_ENGINE, prec, 1, 1 + 2048 / 2, tp)))
    out.append(("H20 SGLang DeepSeek-V3 FP8 TP8 batch 8 median ITL (D)", D_ITL_MEDIAN_MS,
                required_share(D_ITL_MEDIAN_MS / 1e3, "deepseek-v3", D_GPU, D_ENGINE, "fp8", D_CONC,
                               D_PROMPT + D_OUTPUT / 2, D_TP)))
    for (_, _, label, _, _, pms, _), (preset, tp, _) in zip(a_scored(), A_ROWS):
        out.append((f"A100 vLLM 0.6.3 {label} (A)", pms,
                    required_share(pms / 1e3, preset, A_GPU, A_ENGINE, "bf16", 1, 1 + A_OUTPUT / 2, tp)))
    return out


def first_token_s(preset, gpu_id, engine, precision, prompt, tp):
    m, gpu = model(preset), get_gpu(gpu_id)
    return inf.time_to_first_token_s(m, gpu, prompt_tokens=prompt, precision=precision, tp=tp,
                                     loop=inf.ENGINE_LOOP[engine], chunk=inf.prefill_chunk_tokens(engine, gpu),
                                     kv_precision=KV, engine=engine)


def d_scored():
    """[(|err|, err, label, published ms, predicted ms)] for the (D) rows."""
    step = step_s("deepseek-v3", D_GPU, D_ENGINE, "fp8", D_CONC, D_PROMPT + D_OUTPUT / 2, D_TP)
    m, gpu = model("deepseek-v3"), get_gpu(D_GPU)
    pre = inf.prefill_s(m, gpu, precision="fp8", prompt=D_PROMPT, tp=D_TP, eff=inf.ServingEfficiency(),
                        attn_precision=KV, engine=D_ENGINE)
    ttft = inf.api_request_wait_s(D_ENGINE) + first_token_s("deepseek-v3", D_GPU, D_ENGINE, "fp8", D_PROMPT, D_TP)
    out = []
    for label, meas, got in (("median ITL (decode step, batch 8)", D_ITL_MEDIAN_MS, step * 1e3),
                             ("mean ITL (step + joining prefills)", D_ITL_MEAN_MS,
                              (step + (D_CONC - 1) * pre / (D_OUTPUT - 1)) * 1e3),
                             ("mean TTFT", D_TTFT_MS, ttft * 1e3)):
        e = meas / got - 1
        out.append((abs(e), e, f"DeepSeek-V3 FP8 8x H20 TP8 C=8 {label}", meas, got))
    return out


def a_scored():
    """[(|err|, err, label, published tok/s, predicted tok/s, published ms/step, modelled ms/step)]."""
    out = []
    for preset, tp, meas in A_ROWS:
        first = first_token_s(preset, A_GPU, A_ENGINE, "bf16", 1, tp)
        step = step_s(preset, A_GPU, A_ENGINE, "bf16", 1, 1 + A_OUTPUT / 2, tp)
        got = (1 + A_OUTPUT) / (first + step * (A_OUTPUT - 1))
        e = meas / got - 1
        out.append((abs(e), e, f"{preset} BF16 TP{tp} 1/{A_OUTPUT} A100", meas, got,
                    ((1 + A_OUTPUT) / meas - first) / (A_OUTPUT - 1) * 1e3, step * 1e3))
    return out


def main():
    print(f"Source (D): {D_SOURCE}")
    print("| row | published ms | predicted ms | error (pub/pred-1) | [model/pub-1] |")
    print("|---|---|---|---|---|")
    d = d_scored()
    for _, e, label, meas, got in d:
        print(f"| {label} | {meas:.2f} | {got:.2f} | {e:+.1%} | [{got / meas - 1:+.1%}] |")
    print()
    print(f"Source (A, control): {A_SOURCE}")
    print("| row | published tok/s | predicted | error (pub/pred-1) | [model/pub-1] | implied ms/step | modelled |")
    print("|---|---|---|---|---|---|---|")
    a = a_scored()
    for _, e, label, meas, got, pms, mms in a:
        print(f"| {label} | {meas:.2f} | {got:.2f} | {e:+.1%} | [{got / meas - 1:+.1%}] | {pms:.2f} | {mms:.2f} |")
    print()
    k = k_scored()
    print("| kernel-level row | published TB/s | modelled TB/s | error (pub/pred-1) |")
    print("|---|---|---|---|")
    for _, e, label, meas, got in k:
        print(f"| {label} | {meas:.2f} | {got:.2f} | {e:+.1%} |")
    print()
    print("| row | implied step ms | decode streaming share it needs (model: "
          f"{inf.ServingEfficiency().memory_bandwidth:.2f}) |")
    print("|---|---|---|")
    for label, ms, share in share_table():
        print(f"| {label} | {ms:.2f} | {share:.2f} |")
    print()
    print(summary("(D) H20 SGLang DeepSeek-V3 decode (ITL)", [x for x in d if "ITL" in x[2]]))
    print(summary("(D) H20 SGLang DeepSeek-V3 TTFT", [x for x in d if "TTFT" in x[2]]))
    print(summary("(A) A100 vLLM 0.6.3 Qwen2.5 batch 1 (control)", a))
    print(summary("(K1) H20 SM copy bandwidth", k))
    print(summary("all new rows", d + a + k))
    return 0


if __name__ == "__main__":
    sys.exit(main())
