"""Issue 35, round 12 (vllm12): NEW out-of-sample vLLM serving rows, scored with the model as it stood before any
round-12 change (``--before`` would reproduce it if a change were made; none was: see docs/validation_inference.md).

Sources (none used by scripts/validate_inference.py or bench/ before; grepped "2026-03-22", "47.99", "3858"):
FreedomIntelligence/AccelMark results/verified/, submissions of 2026-03-22 by the same submitter with the older runner
``scripts/nvidia/run_vllm.py`` (interactive scenario: prompts one at a time through AsyncLLMEngine, p50 of TTFT and
TPOT), vLLM **0.6.6.post1** (V0; V1 became the default in 0.8.0), one A100-SXM4-80GB, BF16, TP1, CUDA graphs (the
runner's default), temperature 0:
  * a100sxm480gbx1_llama3-8b_suite-A_2026-03-22/interactive/result.json (commit e2c6c3bd): Meta-Llama-3-8B-Instruct,
    suite A, TTFT p50 47.99 ms, TPOT p50 12.44 ms (3 runs);
  * a100x1_llama3-8b_suite-A_2026-03-22/interactive/result.json (commit 7ab048c3): the same suite on the same card type,
    an earlier run the same day: TTFT p50 45.98 ms, TPOT p50 12.24 ms;
  * a100sxm480gbx1_llama-3.1-8b_suite-D_2026-03-22/interactive/result.json (commit e2c6c3bd): Llama-3.1-8B-Instruct,
    suite D (suites/suite_D/suite.json: input p50 32,705 tokens, output 256, max_model_len 40,000), TTFT p50
    3,858.68 ms, TPOT p50 15.73 ms (2 runs).
Suite A's interactive prompts are serveoos9's (median 193.5 + 11 template tokens, bench/validate_serve_oos9.py).
ASSUMED: the chat template as in the 0.7.3 runner; the stored version of ``scripts/nvidia/run_vllm.py`` (commit
67e690ff) passes the raw prompt to ``AsyncLLMEngine.generate`` (193.5 tokens: modelled TTFT 35.8 instead of 36.5 ms)
and sets no ``max_model_len`` (Llama-3.1-8B's 131,072 > 32K, so suite D's chunked prefill is on either way). The
interactive timer runs around ``engine.generate(prompt, …)``: tokenization and the first detokenization are inside it.
V0 0.6.x turns chunked prefill on by itself when max_model_len > 32K (serve11, vllm ``engine/arg_utils.py``), so suite
D's prompt runs in chunks: 512 tokens a step is serve11's figure for that era; 2,048 and unchunked are printed as a
sensitivity. The offline results of these submissions print "throughput_tokens_per_sec" without saying whether
prompt tokens count (the 0.7.3 runner's output-only figure is 2,697 on the same card, this one 5,321): left out.
(S) vLLM **0.30.0** (V1; async scheduling on by default since vllm-project/vllm PR #27614), tgarg01/silybench-data,
    commit 893db451 / 93e48873: runs 20260924T125045Z_h100-80gbx1_qwen3-8b_bf16 (derived/runs/*.json, merged with
    20260924T222914Z) and 20260924T225750Z_h100-80gbx1_qwen3-8b_fp8; derived/csv/perf_points.csv. One H100 80GB (GCP
    a3-highgpu-1g: H100 SXM), Qwen/Qwen3-8B, TP 1, ``vllm/vllm-openai:v0.30.0`` with ``--max-model-len 16384
    --gpu-memory-utilization 0.9`` (BF16: ``--dtype bfloat16``; FP8: ``--quantization fp8``, i.e. dynamic W8A8 from
    the BF16 checkpoint with the KV cache left at the model dtype, bf16), ``vllm bench serve`` on the random dataset
    at fixed lengths (output tok/s ÷ request/s = the stated output length: 128.0 and 1024.0), 50 prompts at
    concurrency 1 and 5 × concurrency above, 3 repeats. The experiment file calls these runs "pipeline validation, not
    a published result"; every raw file is public. Entered:
    * KV capacity: the start-up log's ``kv_cache_tokens``, BF16 377,024 and FP8 430,272 (``KV_TOKENS``);
    * first token at concurrency 1 (one request at a time: an idle replica): TTFT **p95** (the files give p95 / p99
      only; at fixed lengths the two differ by 1–6%, so the median sits a little below): 128, 1,024, 2,048, 8,192
      tokens — the short-prompt V1 first token the brief asks about;
    * batch-1 decode: the median inter-token latency at concurrency 1 (context = prompt + output / 2);
    * maximum load: output tok/s at concurrency 512 (2,560 prompts, closed loop), scored as 2,560 requests at once
      with at most 512 running (``inf.max_load_run``, max_batch 512; the server's own cap on an H100 is above it).
Looked at, not entered (no vLLM V1 figure with card, model, lengths and concurrency all stated and not already in the
repo was found in the time): vLLM PR #18566 (already serve10's), PR #33743 (gemma-3-27b, no preset, card not in the
excerpt), PR #23867 (Qwen3-0.6B, card not stated), pytorch/xla PR #9376 (TPU), Microsoft Azure HPC blog "Performance
of Llama 3.1 8B AI Inference using vLLM on ND-H100-v5" (2025-08-26; its tables not in the stored text), morphllm.com
vLLM benchmarks (a compilation, settings per row not stated), Red Hat MLPerf v5.1 (FP8 Llama-3.1-8B, MLPerf server
scenario, not a serving benchmark the planner models).

Error = modelled / published − 1 (the r8–r11 serving convention; TPOT as tokens/s). The brief's convention,
published / predicted − 1, is printed beside it in brackets.
"""
from __future__ import annotations

import statistics
import sys

from gpuplanner.core import inference as inf
from gpuplanner.core.catalog_hw import get_gpu
from gpuplanner.core.estimate import resolve
from gpuplanner.core.scenario import Scenario

CARD = "a100-sxm-80gb"
VERSION = "0.6.6"
SUITE_A_PROMPT = 193.5 + 11.0  # serveoos9: median of the first 150 prompts + the Llama 3 chat template
SUITE_A_OUT_MEAN = 350.0
# (label, preset, prompt tokens, output tokens (mean), TTFT p50 ms, TPOT p50 ms, source)
ROWS = [
    ("A (e2c6c3bd)", "llama-3-8b", SUITE_A_PROMPT, SUITE_A_OUT_MEAN, 47.99, 12.44,
     "AccelMark a100sxm480gbx1_llama3-8b_suite-A_2026-03-22"),
    ("A (7ab048c3)", "llama-3-8b", SUITE_A_PROMPT, SUITE_A_OUT_MEAN, 45.98, 12.24,
     "AccelMark a100x1_llama3-8b_suite-A_2026-03-22"),
    ("D (e2c6c3bd)", "llama-3.1-8b", 32705.0, 256.0, 3858.68, 15.73,
     "AccelMark a100sxm480gbx1_llama-3.1-8b_suite-D_2026-03-22"),
]
# (S) silybench: (workload, prompt, output, {precision: (TTFT p95 ms at c1, ITL median ms at c1, out tok/s at c512)})
SILY = [
    ("chat-128-128", 128, 128, {"bf16": (14.234, 6.8255, 14539.53), "fp8": (14.454, 4.6183, 16541.95)}),
    ("prefill-1024-128", 1024, 128, {"bf16": (34.308, 6.8887, 3517.66), "fp8": (29.305, 4.6963, 4417.53)}),
    ("decode-128-1024", 128, 1024, {"bf16": (14.096, 6.8579, 13522.58), "fp8": (14.429, 4.6620, 15389.46)}),
    ("balanced-2048-2048", 2048, 2048, {"bf16": (61.344, 6.9976, 3901.08), "fp8": (50.319, 4.7958, 4344.14)}),
    ("longctx-8192-512", 8192, 512, {"bf16": (253.870, 7.3006, 997.00), "fp8": (205.084, 5.1041, 1157.38)}),
]
KV_TOKENS = {"bf16": 377024, "fp8": 430272}
SILY_CARD, SILY_MODEL, SILY_C = "h100-sxm-80gb", "qwen3-8b", 512
V0_LONG_CONTEXT_CHUNK = 512  # serve11: V0's automatic chunked prefill above 32K, 512 tokens a step in that era


def model(preset):
    r = resolve(Scenario.model_validate({"model": {"preset": preset}}))
    return inf.ServingModel.of(r.arch, r.params)


def row(preset, prompt, out, chunk=None):
    """(TTFT ms, TPOT ms) modelled for one interactive run (V0 loop of 0.6.6: inf.vllm_v0_loop)."""
    m, g, loop = model(preset), get_gpu(CARD), inf.vllm_v0_loop(VERSION)
    f = inf.time_to_first_token_s(m, g, prompt_tokens=int(round(prompt)), precision="bf16", tp=1, loop=loop,
                                  chunk=chunk) * 1e3
    t, _ = inf.decode_step_s(m, g, precision="bf16", kv_bytes=inf.KV_BYTES["bf16"], batch=1, context=prompt + out / 2,
                             tp=1, eff=inf.ServingEfficiency(), loop=loop)
    return f, t * 1e3


def score():
    """{metric: [(signed error, label)]}, printed row by row."""
    out = {"first token": [], "batch-1 decode": [], "max load": [], "KV capacity": []}
    print("| run | model | TTFT p50 ms published / modelled (err) [pub/pred-1] | TPOT p50 ms published / modelled "
          "(err as tok/s) [pub/pred-1 as tok/s] |")
    print("|---|---|---|---|")
    for lab, preset, p, o, ttft, tpot, src in ROWS:
        chunk = V0_LONG_CONTEXT_CHUNK if p > 32768 - 1 - 4096 else None
        f, t = row(preset, p, o, chunk)
        e_f, e_t = f / ttft - 1, tpot / t - 1
        out["first token"].append((e_f, f"{src} TTFT"))
        out["batch-1 decode"].append((e_t, f"{src} TPOT"))
        print(f"| vLLM 0.6.6.post1 suite {lab} | {preset} | {ttft:,.1f} / {f:,.1f} ({e_f:+.0%}) [{ttft / f - 1:+.0%}] | "
              f"{tpot:.2f} / {t:.2f} ({e_t:+.0%}) [{(1 / tpot) / (1 / t) - 1:+.0%}] |")
        if chunk:
            for alt in (2048, None):
                fa = row(preset, p, o, alt)[0]
                print(f"  sensitivity: suite {lab} TTFT with chunk {alt or 'none'}: {fa:,.1f} ms ({fa / ttft - 1:+.0%})")
    return out


BEFORE = "--before" in sys.argv  # the round-11 model: no front-end wait in the first token
BEFORE_AFTER = []  # (label, published TTFT ms, modelled before, modelled after)


def lab_of(name, prec):
    return f"silybench vLLM 0.30 {SILY_MODEL} {prec} {SILY_CARD} {name}"


def print_before_after():
    """The first-token rows before (round 11) and after round 12's front-end wait (inf.api_request_wait_s)."""
    print("\n| silybench row | TTFT p95 ms published | before (r11) | after (r12) |")
    print("|---|---|---|---|")
    for lab, pub, b, a in BEFORE_AFTER:
        print(f"| {lab.split(' ', 4)[-1]} | {pub:.1f} | {b:.1f} ({b / pub - 1:+.0%}) [{pub / b - 1:+.0%}] | "
              f"{a:.1f} ({a / pub - 1:+.0%}) [{pub / a - 1:+.0%}] |")
    for name, i in (("before", 2), ("after", 3)):
        for sub in ("", " bf16 ", " fp8 "):
            xs = [r[i] / r[1] - 1 for r in BEFORE_AFTER if sub in r[0]]
            print(_line(f"first token {name}{sub or ' (all)'}".rstrip(), xs))


def sily_rows(out):
    """The silybench vLLM 0.30 rows (S): first token, batch-1 decode, maximum load, KV capacity."""
    m, g = model(SILY_MODEL), get_gpu(SILY_CARD)
    loop, chunk, kvb = inf.ENGINE_LOOP["vllm"], inf.prefill_chunk_tokens("vllm", g), inf.KV_BYTES["bf16"]
    print("\n| workload | precision | TTFT p95 ms published / modelled (err) [pub/pred-1] | ITL median ms (err as "
          "tok/s) [pub/pred-1 as tok/s] | out tok/s at c512 published / modelled (err) [pub/pred-1] |")
    print("|---|---|---|---|---|")
    for name, p, o, by_prec in SILY:
        for prec, (ttft, itl, tput) in by_prec.items():
            # the KV cache stays bf16 under --quantization fp8 (round 12, fp8serve12: it sets the attention's precision)
            f0 = inf.time_to_first_token_s(m, g, prompt_tokens=p, precision=prec, tp=1, loop=loop, chunk=chunk,
                                           kv_precision="bf16", engine="vllm") * 1e3  # engine: round 13 (fp8lin13)
            # vllm bench serve drives the OpenAI server: the front end's tokenizer window (round 12), unless --before
            f = f0 + (0.0 if BEFORE else inf.api_request_wait_s("vllm") * 1e3)
            BEFORE_AFTER.append((lab_of(name, prec), ttft, f0, f0 + inf.api_request_wait_s("vllm") * 1e3))
            t = inf.decode_step_s(m, g, precision=prec, kv_bytes=kvb, batch=1, context=p + o / 2, tp=1,
                                  eff=inf.ServingEfficiency(), loop=loop)[0] * 1e3
            n = 5 * SILY_C
            run = inf.max_load_run(m, g, prompts=[float(p)] * n, outputs=[float(o)] * n, requests=n, precision=prec,
                                   kv_precision="bf16", tp=1, engine="vllm", utilization=0.90, max_batch=SILY_C,
                                   loop=loop)
            v = run.output_tokens_per_s if run else 0.0
            lab = lab_of(name, prec)
            out["first token"].append((f / ttft - 1, f"{lab} TTFT"))
            out["batch-1 decode"].append((itl / t - 1, f"{lab} ITL"))
            out["max load"].append((v / tput - 1, f"{lab} c512"))
            print(f"| {name} | {prec} | {ttft:.1f} / {f:.1f} ({f / ttft - 1:+.0%}) [{ttft / f - 1:+.0%}] | {itl:.2f} / "
                  f"{t:.2f} ({itl / t - 1:+.0%}) [{t / itl - 1:+.0%}] | {tput:,.0f} / {v:,.0f} ({v / tput - 1:+.0%}) "
                  f"[{tput / v - 1:+.0%}] |")
    for prec, tokens in KV_TOKENS.items():
        pool = inf.kv_cache_bytes_per_gpu(m, g, precision=prec, tp=1, engine="vllm", utilization=0.90)
        got = pool / inf.kv_bytes_per_token_per_gpu(m, kvb, 1)
        out["KV capacity"].append((got / tokens - 1, f"silybench vLLM 0.30 KV {SILY_MODEL} {prec} {SILY_CARD}"))
        print(f"  KV pool {SILY_MODEL} {prec} (bf16 KV) util 0.90: {tokens:,} tokens published, {got:,.0f} modelled "
              f"({got / tokens - 1:+.1%})")
    return out


def p90(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.9 * (len(xs) - 1))))] if xs else float("nan")


def _line(name, xs):
    a = [abs(x) for x in xs]
    b = [abs(1.0 / (1.0 + x) - 1.0) for x in xs]  # the brief's published / predicted - 1
    return (f"  {name}: {len(xs)} rows, median {statistics.median(a) * 100:.1f}%, p90 {p90(a) * 100:.1f}%, "
            f"signed median {statistics.median(xs) * 100:+.1f}% [pub/pred-1: median {statistics.median(b) * 100:.1f}%, "
            f"p90 {p90(b) * 100:.1f}%]")


def report(out):
    """Median / p90 of |error| per metric and source (AccelMark V0 rows, silybench V1 rows), then all rows."""
    print("\nRound 12 (vllm12) new rows, by metric:")
    allr = []
    for name, rows in out.items():
        xs = [x for x, _ in rows]
        allr += xs
        print(_line(name, xs))
        for src in ("AccelMark", "silybench"):
            sub = [x for x, lab in rows if lab.startswith(src)]
            if sub and len(sub) < len(xs):
                print("  " + _line(f"{name}, {src}", sub))
    v1 = [x for rows in out.values() for x, lab in rows if lab.startswith("silybench")]
    print(_line("silybench vLLM 0.30 (V1) rows", v1))
    print(_line("silybench BF16 rows", [x for rows in out.values() for x, lab in rows
                                         if lab.startswith("silybench") and " bf16 " in lab]))
    print(_line("all new rows", allr))
    return allr


if __name__ == "__main__":
    report(sily_rows(score()))
    print_before_after()
    sys.exit(0)
