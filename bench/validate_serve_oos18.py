"""Issue 35, round 18 (servoos18): NEW out-of-sample rows at a FIXED LOAD (Poisson arrivals at a stated request rate) —
the "Online benchmark results" of sgl-project/sglang ``benchmark/benchmark_vllm_060/README.md`` (commit 120affb9),
SGLang v0.3.0 against vLLM v0.6.0 — scored with the model BEFORE any change. Run:
``python bench/validate_serve_oos18.py`` (``--rows``: every row).

Held-row check: the same README's "Offline benchmark results" (request rate inf, 4 rows) are held in
scripts/validate_inference.py (``SHAREGPT``, issue 35 round 4). Its online table (request rate 4 and 8) is not: none of
its figures (13.17, 17.85, 14.14, 17.09, 25.03, 33.07, 23.58, 29.15 ms TPOT; 31.98 … 207.12 ms TTFT) is in scripts/,
bench/, tests/ or docs/ (grepped).

Source (the README's own commands)
------
Servers: ``python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --enable-torch-compile
--disable-radix-cache`` (70B: ``--tp 4``, no torch.compile) and ``python -m vllm.entrypoints.openai.api_server --model
... --disable-log-requests --num-scheduler-steps 10 --max_model_len 4096`` (70B: ``--tensor 4``). Client:
``python3 -m sglang.bench_serving --backend {sglang,vllm} --dataset-name sharegpt --num-prompts 1200 --request-rate 4``
and ``--num-prompts 2400 --request-rate 8``. Cards: "1 x A100 80G" (8B) and "4 x H100 80G" (70B). Figures: median
E2E latency, median TTFT, median TPOT (ms). The ITL column is per streamed chunk (vLLM's multi-step streams 10 tokens
at once: ITL 129 ms against TPOT 14 ms), so it is not used.

Mapping onto the model (one rule for every row)
-------
* The running batch is Little's law: ``b = rate × E2E`` (ASSUMED: the median E2E stands for the mean).
* ShareGPT lengths: the held rows' means of the same script's sample, 226 in / 194 out (scripts/validate_inference.py
  ``SHAREGPT``, sglang issue #1505); the KV context a running request holds is :func:`inference.held_context` with the
  ``sharegpt`` spread.
* TPOT = the decode step at ``b`` / (1 − rate × one request's prefill): the GPU time the arriving prompts take is
  time the running requests do not decode. This is the sizer's own ``step + b·prefill/output`` (``inf.replica``)
  solved for the arrivals a step brings at the stated rate.
* Each engine as the held offline rows of the same README (``SHAREGPT_RUN``): vLLM 0.6.0 ``loop`` =
  ``inf.vllm_v0_loop("0.6.0")`` with ``steps_per_schedule`` 10; SGLang 0.3.0 loop ``none`` with its pre-overlap
  factor ``inf.SGLANG_PRE_OVERLAP_STEP`` on every GPU step.
* TTFT (printed and scored as its own category) = the idle replica's first token (``inf.time_to_first_token_s`` at
  226 tokens, the engine's loop) + half a decode step (the median wait for the step in flight).
ASSUMED: A100 = A100-SXM4-80GB, H100 = H100-SXM-80GB (both the held offline rows' cards), BF16, the medians stand for
the means.

Error convention: published / predicted - 1 (the brief's).
"""
from __future__ import annotations

import statistics
import sys

from gpuplanner.core import inference as inf
from gpuplanner.core.catalog_hw import get_gpu
from gpuplanner.core.estimate import resolve
from gpuplanner.core.scenario import Scenario

SRC = "sglang benchmark_vllm_060 online"
PROMPT, OUTPUT = 226, 194
# (model, card, tp, engine, request rate, published median E2E ms, median TTFT ms, median TPOT ms)
ROWS = [("llama-3.1-8b", "a100-sxm-80gb", 1, "sglang", 4, 1564.17, 31.98, 13.17),
        ("llama-3.1-8b", "a100-sxm-80gb", 1, "vllm", 4, 1691.97, 100.48, 14.14),
        ("llama-3.1-8b", "a100-sxm-80gb", 1, "sglang", 8, 2175.02, 35.68, 17.85),
        ("llama-3.1-8b", "a100-sxm-80gb", 1, "vllm", 8, 2137.16, 120.39, 17.09),
        ("llama-3.1-70b", "h100-sxm-80gb", 4, "sglang", 4, 3005.24, 53.94, 25.03),
        ("llama-3.1-70b", "h100-sxm-80gb", 4, "vllm", 4, 2915.60, 179.15, 23.58),
        ("llama-3.1-70b", "h100-sxm-80gb", 4, "sglang", 8, 4064.98, 58.11, 33.07),
        ("llama-3.1-70b", "h100-sxm-80gb", 4, "vllm", 8, 3752.38, 207.12, 29.15)]
# the held offline rows' engine runs (scripts/validate_inference.py SHAREGPT_RUN)
RUN = {"vllm": dict(host_step=1.0, loop=inf.vllm_v0_loop("0.6.0"), steps_per_schedule=10),
       "sglang": dict(host_step=inf.SGLANG_PRE_OVERLAP_STEP, loop="none", steps_per_schedule=1)}
_MODELS: dict = {}


def model(name):
    if name not in _MODELS:
        r = resolve(Scenario.model_validate({"model": {"preset": name}}))
        _MODELS[name] = inf.ServingModel.of(r.arch, r.params)
    return _MODELS[name]


def _step_s(m, gpu, tp, run, b):
    ctx = inf.held_context(PROMPT, OUTPUT, "sharegpt")
    return run["host_step"] * inf.decode_step_s(
        m, gpu, precision="bf16", kv_bytes=inf.KV_BYTES["bf16"], batch=b, context=ctx, tp=tp,
        eff=inf.ServingEfficiency(), loop=run["loop"], steps_per_schedule=run["steps_per_schedule"])[0]


def predict(p, g, tp, eng, rate, e2e_ms, after=False):
    """(TPOT s, TTFT s, batch) at the row's load. ``after``: this round's mechanisms —
    * the prompts run as a prefill forward of their own (SGLang: ``inf.SEPARATE_PREFILL_ENGINES``; vLLM 0.6 with
      chunked prefill off at ``--max_model_len 4096``: ``_schedule_default``), :func:`inf.separate_prefill_step_s` of
      the prompts arriving per decode step, ``rate × TPOT`` (solved by iteration);
    * a new request waits for the pass in flight: half of ``--num-scheduler-steps`` decode steps under vLLM's
      multi-step scheduling (the scheduler runs once per pass; 1 step for SGLang)."""
    m, gpu, run = model(p), get_gpu(g), RUN[eng]
    b = rate * e2e_ms / 1e3
    step = _step_s(m, gpu, tp, run, b)
    idle = inf.time_to_first_token_s(m, gpu, prompt_tokens=PROMPT, precision="bf16", tp=tp, loop=run["loop"],
                                     engine=eng)
    if not after:
        pre = run["host_step"] * inf.prefill_s(m, gpu, precision="bf16", prompt=PROMPT, tp=tp,
                                               eff=inf.ServingEfficiency(), rows=inf.token_budget(eng, gpu)[0],
                                               engine=eng)
        return step / max(1e-9, 1.0 - rate * pre), idle + 0.5 * step, b
    chunk = inf.prefill_chunk_tokens(eng, gpu) if eng == "sglang" else inf.vllm_v0_budget(4096)[0]
    tpot = step
    for _ in range(50):
        tpot = step + run["host_step"] * inf.separate_prefill_step_s(
            m, gpu, precision="bf16", prompt=PROMPT, arrivals=rate * tpot, tp=tp, eff=inf.ServingEfficiency(),
            chunk=chunk, engine=eng)
    return tpot, idle + 0.5 * run["steps_per_schedule"] * step, b


def rows(after=False):
    """[(category, group, label, published ms, predicted ms)]"""
    out = []
    for p, g, tp, eng, rate, e2e, ttft, tpot in ROWS:
        t_pred, f_pred, b = predict(p, g, tp, eng, rate, e2e, after)
        lab = f"{SRC} {eng} {p} {g} TP{tp} rate {rate} (b {b:.1f})"
        out.append(("fixed load TPOT", f"TPOT {eng}", lab, tpot, t_pred * 1e3))
        out.append(("fixed load TTFT", f"TTFT {eng}", lab, ttft, f_pred * 1e3))
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
    groups: dict = {}
    for cat, grp, _, pub, pred in rs:
        for key in (cat, grp):
            groups.setdefault(key, []).append(err(pub, pred))
    return {k: stats(v) for k, v in groups.items()}


def main(argv):
    before, after = rows(), rows(after=True)
    sb, sa = group_stats(before), group_stats(after)
    print("set | rows | before: median |err| % / p90 % (signed median %) | after: the same")
    for k in sb:
        (n, med, p9, sm), (_, med2, p92, sm2) = sb[k], sa[k]
        print(f"{k} | {n} | {med:.1f} / {p9:.1f} ({sm:+.1f}) | {med2:.1f} / {p92:.1f} ({sm2:+.1f})")
    if "--rows" in argv:
        for (cat, _, lab, pub, pred), (*_, pred2) in zip(before, after):
            print(f"{cat}: {lab}: published {pub:.2f} ms, before {pred:.2f} ({err(pub, pred) * 100:+.1f}%), "
                  f"after {pred2:.2f} ({err(pub, pred2) * 100:+.1f}%)")


if __name__ == "__main__":
    main(sys.argv[1:])
