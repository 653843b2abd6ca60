"""Serving efficiencies shared by the serving sizer (:mod:`core.inference`) and the time model's rollouts
(:mod:`core.timing`): one small module both import, so a training estimate does not load the serving sizer.
Sources: :mod:`core.inference`'s module docstring (decode bandwidth: Databricks/MosaicML, "LLM Inference
Performance Engineering: Best Practices", databricks.com/blog, October 2023, MBU about 60% decoding 7B models at
small batch on A100/H100; the serving sizer now splits that share into a streaming share and a fixed time per
kernel, :data:`DECODE_STREAM_SHARE` and :data:`DECODE_KERNEL_S`, issue 35 round 5)."""

from __future__ import annotations

import functools

from dataclasses import dataclass
from typing import Any

from .i18n import QT_TRANSLATE_NOOP
from .messages import Msg

#: how the serving engines (``inference.engine``) write their own names: proper nouns, not translated. Here, not in
#: :mod:`core.inference`, so the CLI and the report print them without loading the sizer (and numpy).
ENGINE_NAMES = {"vllm": "vLLM", "sglang": "SGLang", "tensorrt-llm": "TensorRT-LLM"}

#: a serving phase's engine, KV cache per GPU and idle replica's first token: the one sentence ``gpuplanner project``,
#: the Project page and the PDF print (:func:`first_token_line`; issue 35 round 12, tidy12: three copies before)
FIRST_TOKEN_CTX = "Project"
FIRST_TOKEN_LINE = QT_TRANSLATE_NOOP(
    "Project", "{engine}: KV cache {kv} GiB per GPU, first token in {ttft} ms on an idle replica")


def first_token_line(serving: Any) -> Msg:
    """:data:`FIRST_TOKEN_LINE` of a ``core.inference.ServingSize`` (its ``engine``, ``kv_cache_gib_per_gpu`` and
    ``ttft_s``), its numbers through the one formatter (one decimal of GiB, whole milliseconds)."""
    from ..formatting import format_number  # pure Python, no Qt: the core stays pure

    return Msg(FIRST_TOKEN_CTX, FIRST_TOKEN_LINE, {
        "engine": ENGINE_NAMES.get(serving.engine, serving.engine),
        "kv": format_number(serving.kv_cache_gib_per_gpu, 1), "ttft": format_number(serving.ttft_s * 1e3, 0)})


#: a serving phase's size and throughput: the one line ``gpuplanner project`` and the Project page print (issue 35
#: round 15, fix15: the page showed the first-token sentence only). The price per million output tokens is the
#: phase's own (``ProjectPhase.cost_per_million_tokens``); a phase with no cost has the line without it.
THROUGHPUT_LINE = QT_TRANSLATE_NOOP(
    "Project", "serving: TP {tp}, {b} users per replica, {r} replica(s), {tps} tokens/s per GPU ({bound}), "
               "{per_m:,.2f} {cur} per million tokens")
THROUGHPUT_LINE_UNPRICED = QT_TRANSLATE_NOOP(
    "Project", "serving: TP {tp}, {b} users per replica, {r} replica(s), {tps} tokens/s per GPU ({bound})")
#: what bounds a replica's decode step (``ServingSize.bound``, from ``inference.decode_step_s``): the weights' stream,
#: the GEMMs' FLOPs or the engine's host work per step
BOUND_TEXTS = {"host": QT_TRANSLATE_NOOP("Project", "host bound: the engine's CPU work per decode step"),
               "memory": QT_TRANSLATE_NOOP("Project", "memory bound"),
               "compute": QT_TRANSLATE_NOOP("Project", "compute bound")}


def bound_text(bound: str) -> Msg:
    """:data:`BOUND_TEXTS`' phrase for a ``ServingSize.bound`` (anything but host and memory reads compute)."""
    return Msg(FIRST_TOKEN_CTX, BOUND_TEXTS.get(bound, BOUND_TEXTS["compute"]))


def throughput_line(serving: Any, cost_per_million_tokens: float | None, currency: str) -> Msg:
    """:data:`THROUGHPUT_LINE` of a ``core.inference.ServingSize`` (``tp``, ``batch_per_replica``, ``replicas``,
    ``tokens_per_s_per_gpu``, ``bound``) and its phase's price per million tokens (money through the one formatter
    at two decimals; None: :data:`THROUGHPUT_LINE_UNPRICED`)."""
    from ..formatting import format_number  # pure Python, no Qt: the core stays pure

    params = {"tp": serving.tp, "b": serving.batch_per_replica, "r": serving.replicas,
              "tps": format_number(serving.tokens_per_s_per_gpu), "bound": bound_text(serving.bound)}
    if cost_per_million_tokens is None:
        return Msg(FIRST_TOKEN_CTX, THROUGHPUT_LINE_UNPRICED, params)
    return Msg(FIRST_TOKEN_CTX, THROUGHPUT_LINE, {**params, "per_m": float(cost_per_million_tokens), "cur": currency})
#: a serving phase's latencies under load, the 95th percentiles of ``inference.load_latency`` (issue 35 round 17,
#: servoos17, advice17: the plan stated only an idle replica's first token); and an offline job's target and what
#: sizes it (``inference.offline_replicas``)
LOAD_LATENCY_LINE = QT_TRANSLATE_NOOP(
    "Project", "under full load ({b} requests per replica): 95% of tokens within {itl} ms of the previous one, "
               "95% of first tokens within {ttft} ms")
OFFLINE_LINE = QT_TRANSLATE_NOOP(
    "Project", "offline target {docs} documents/s ({tps} output tokens/s): {r} replica(s) at {per} tokens/s each")
#: issue 35 round 18 (serve18): the same target held at the far end of the serving validation band
#: (``inference.throughput_far_end``; ``resources/serving_band.json``, bench/serving_band.py) and the margin left
OFFLINE_FAR_LINE = QT_TRANSLATE_NOOP(
    "Project", "offline target {docs} documents/s ({tps} output tokens/s): {r} replica(s) at {per} tokens/s each, "
               "{far} tokens/s in all at the far end of the serving validation band (9 in 10 of {rows} published runs "
               "were at most {slow} slower than modelled): {spare} to spare")


def load_latency_line(serving: Any) -> Msg:
    """:data:`LOAD_LATENCY_LINE` of a ``core.inference.ServingSize`` (``batch_per_replica``, ``p95_itl_s``,
    ``p95_ttft_s``; whole milliseconds, one decimal under 10 ms)."""
    from ..formatting import format_number  # pure Python, no Qt: the core stays pure

    def ms(s: float) -> str:
        return format_number(s * 1e3, 1 if s < 0.01 else 0)

    return Msg(FIRST_TOKEN_CTX, LOAD_LATENCY_LINE, {"b": serving.batch_per_replica, "itl": ms(serving.p95_itl_s),
                                                    "ttft": ms(serving.p95_ttft_s)})


def offline_line(serving: Any) -> Msg | None:
    """:data:`OFFLINE_LINE` of a ``ServingSize`` sized for an offline target (``target_tokens_per_s``); None for
    an interactive load."""
    from ..formatting import format_number  # pure Python, no Qt: the core stays pure

    target = getattr(serving, "target_tokens_per_s", None)
    if not target:
        return None
    from ..formatting import format_percent

    out = max(int(serving.output_tokens), 1)
    args = {"docs": format_number(target / out, 2 if target / out < 10 else 1), "tps": format_number(target),
            "r": serving.replicas, "per": format_number(serving.tokens_per_s / max(serving.replicas, 1))}
    far_end = float(getattr(serving, "far_end", 1.0) or 1.0)
    if far_end <= 1.0:
        return Msg(FIRST_TOKEN_CTX, OFFLINE_LINE, args)
    far = serving.tokens_per_s / far_end
    band = serving_band("throughput") or {}
    return Msg(FIRST_TOKEN_CTX, OFFLINE_FAR_LINE, {
        **args, "far": format_number(far), "slow": format_percent(far_end - 1.0, 1),
        "rows": int(band.get("rows", 0)), "spare": format_percent(far / target - 1.0, 1)})


#: issue 35 round 17 (servadv17): a long prompt's stall and the engine setting that bounds it
#: (``inference.stall_advice``); the flags are parameters (:data:`STALL_FLAGS`), not translated text
STALL_LINE = QT_TRANSLATE_NOOP(
    "Project", "each new prompt's prefill stalls every running user: 95% of tokens within {itl} ms is {gaps} times the {gap} ms "
               "gap the target allows. {engine} {flags} bounds the stall: 95% within {itl2} ms, 95% of first tokens "
               "within {ttft2} ms ({source})")
#: the engine settings that shrink the prefill chunk a decode step carries, and where they are documented
STALL_FLAGS = {
    "vllm": ("--max-num-batched-tokens {n}",
             "vLLM docs, Optimization and Tuning, Chunked Prefill: https://docs.vllm.ai/en/v0.8.3/performance/optimization.html"),
    "sglang": ("--chunked-prefill-size {n} --enable-mixed-chunk", "SGLang ServerArgs: https://docs.sglang.ai/backend/server_arguments.html"),
    "tensorrt-llm": ("trtllm-serve --enable_chunked_prefill --max_num_tokens {n}",
                     "TensorRT-LLM docs, Chunked Context: https://nvidia.github.io/TensorRT-LLM/advanced/gpt-attention.html"),
}


def stall_line(serving: Any) -> Msg | None:
    """:data:`STALL_LINE` of a ``ServingSize`` with a ``stall_budget`` (``inference.stall_advice``); None without."""
    from ..formatting import format_number  # pure Python, no Qt: the core stays pure

    budget = getattr(serving, "stall_budget", None)
    if not budget or not serving.tokens_per_s_per_user:
        return None
    gap = 1.0 / float(serving.tokens_per_s_per_user)
    flags, source = STALL_FLAGS.get(serving.engine, STALL_FLAGS["vllm"])
    return Msg(FIRST_TOKEN_CTX, STALL_LINE, {
        "itl": format_number(serving.p95_itl_s * 1e3, 0), "gaps": format_number(serving.p95_itl_s / gap, 1),
        "gap": format_number(gap * 1e3, 0), "engine": ENGINE_NAMES.get(serving.engine, serving.engine),
        "flags": flags.format(n=int(budget)), "itl2": format_number(serving.stall_p95_itl_s * 1e3, 0),
        "ttft2": format_number(serving.stall_p95_ttft_s * 1e3, 0), "source": source})


def serving_lines(serving: Any) -> list[Msg]:
    """The lines a serving phase prints after its throughput line, in the CLI, the Project page and the PDF: the
    idle replica's first token (:func:`first_token_line`), the latencies under load, the stall advice
    (:func:`stall_line`) and an offline target's sizing."""
    return [first_token_line(serving), load_latency_line(serving)] + [
        m for m in (stall_line(serving), offline_line(serving)) if m is not None]


#: Issue 35, round 5 (serve5): the serving sizer's decode step is two terms, not one share. The weights and the KV cache
#: stream at the share any large copy reaches (``timing.MEM_BW_EFFICIENCY``, 0.8: STREAM-like kernels), and every
#: kernel of the step costs the GPU a fixed time on top (:data:`DECODE_KERNEL_S`, ``inference.decode_kernels_s``).
#: At batch 1 the second term is what made the single share look like 0.6: Llama 3 8B on an H100 (6.0 ms of weights
#: at 0.8 + 1.0 ms of kernels) against vLLM 0.21's 6.48 ms; the same on an A100 40GB (13.0 + 1.0) against vLLM 0.23's
#: 13.3 ms; 70B at TP 2 (14.6 + 2.4 + all-reduces) against NIM's 18.6 ms.
DECODE_STREAM_SHARE = 0.8
#: decode reads weights and KV cache at this share of an HBM part's bandwidth (the rollouts in a training step too):
#: since issue 35 round 5 the streaming share above (it was 0.6, Databricks' MBU), the rest of the old share being the
#: kernels' fixed time (``methods.decode_kernels_fixed_s``, which the rollouts' vLLM step adds too)
DECODE_MBU_HBM = DECODE_STREAM_SHARE
#: GPU time a kernel costs beyond its bytes and FLOPs (its launch, ramp and tail): 2.7 µs, measured on an H100 as the
#: fixed part of back-to-back cuBLAS GEMMs (TransformerEngine PR #2045's grouped-GEMM table, two splits of the same
#: work: ``FLOPs / R + t0``; the time model's ``timing.MOE_GEMM_LAUNCH_S``, same measurement). CUDA graphs remove the
#: host's launch, not this.
DECODE_KERNEL_S = 2.7e-6


@dataclass(slots=True, frozen=True)
class ServingEfficiency:
    """Achieved fractions of the roofs (core.inference's module docstring for the sources)."""

    # weights stream at a copy kernel's share on every card; the fixed cost per kernel is apart (DECODE_KERNEL_S)
    memory_bandwidth: float = DECODE_STREAM_SHARE
    memory_bandwidth_gddr: float = DECODE_STREAM_SHARE
    # (issue 35: the GEMMs run at the time model's matmul efficiency, inference.gemm_efficiency, and the engine's
    # memory reservation is inference.kv_cache_bytes_per_gpu: no serving-only compute share or fixed reserve)


def kv_heads_per_rank(num_kv_heads, tp, xp=None):
    """KV heads each of ``tp`` vLLM ranks holds: ``max(1, kv_heads // tp)``, the heads split over the ranks and
    replicated below one a rank ("we will replicate the KV heads in the case where the number of KV heads is smaller
    than the tensor parallel size so each GPU has at least one KV head", vLLM ``ModelConfig.get_num_kv_heads``:
    ``max(1, total_num_kv_heads // tensor_parallel_size)``). The one rule of the serving sizer
    (``inference.kv_bytes_per_token_per_gpu``) and the rollouts (``methods.vllm_kv_per_token_per_gpu``). ``xp``
    (:mod:`core.arrayops`) takes ``tp`` as an array for the search; the floor division is the same there."""
    if xp is None:
        return max(1, int(num_kv_heads) // max(int(tp), 1))
    tp = xp.maximum(xp.asarray(tp, dtype=float), 1.0)
    return xp.maximum(float(num_kv_heads) // tp, 1.0)


# ---- vLLM V1's KV-pool sizing facts (issue 35 round 11, nemorl12: moved here from core.inference so the time
# model's RL rollouts, timing.rollout_engine_reserve_bytes, read the same ones; inference re-exports them)

#: Share of the memory nvidia-smi counts that CUDA hands out (``cudaMemGetInfo``'s total, what vLLM's profiler and
#: PyTorch's allocator see): the driver keeps a few hundred MiB for itself. An H100 80GB reports 81,559 MiB in
#: nvidia-smi and "total_gpu_memory (79.22GiB)" in vLLM's start-up log (vllm PR #10511, Dec 2024): 79.22 / 80. PyTorch's
#: out-of-memory messages ("GPU 0 has a total capacity of …") give the same share elsewhere: 79.15–79.25 GiB on 80GB
#: A100/H100, 139.72–139.81 GiB on the 141 GB H200 (0.991), 23.64–23.69 GiB on the 24 GB RTX 4090 (0.986), and
#: 44.34–44.42 GiB on the L40S after its ECC share (46,068 MiB × 0.987; vLLM issue #15815's log: 44.42 GiB).
CUDA_VISIBLE_SHARE = 79.22 / 80.0

#: Activations are 16-bit between the layers (the all-reduced hidden state, vLLM/TensorRT-LLM's model dtype).
ACT_BYTES = 2.0

#: fp32 tensors of ``sequences × vocab`` the sampler holds at once in the profile run: logits, probabilities,
#: log-probabilities and the sorted copy for top-p/top-k (vLLM ``Sampler``; a count).
SAMPLER_COPIES = 4

#: Issue 35 round 9 (serveoos9): vLLM's scheduler budget is not one figure. Its defaults depend on how the engine is
#: started (vllm ``engine/arg_utils.py`` ``EngineArgs.get_batch_defaults``: the offline ``LLM`` class 16,384 tokens /
#: 1,024 sequences on cards of at least 70 GiB other than the A100, 8,192 / 256 elsewhere; the OpenAI server
#: 8,192 / 1,024 and 2,048 / 256, ``inference.LARGE_BUDGET`` and ``SMALL_BUDGET``) and on the version: V0 without
#: chunked prefill (its ``LLM`` class below 32K context) ran ``max(max_model_len, 2048)`` tokens a step (vllm v0.7
#: ``config.py`` ``SchedulerConfig.__post_init__``, ``_DEFAULT_MAX_NUM_BATCHED_TOKENS``), with ``max_num_seqs`` as
#: given. The budget sets both the prefill step's rows and the profiling forward that is kept out of the KV pool
#: (``profile_run`` at ``max_num_batched_tokens`` over ``max_num_seqs`` dummy requests), so a run that states its own
#: passes it (``inference.run_budget``); the planner's serving plans keep the server defaults.
VLLM_LLM_CLASS_BUDGET = {True: (16384, 1024), False: (8192, 256)}

#: vLLM V1's own split of what is not KV cache (issue 35 round 7): ``determine_available_memory`` (vllm
#: ``v1/worker/gpu_worker.py``) takes a memory snapshot after the worker's CUDA context, NCCL communicators and weights
#: exist, runs ``profile_run`` inside ``memory_profiling`` and subtracts ``weights + torch peak increase + non-torch
#: increase`` from ``total × gpu_memory_utilization``. Only what the profile run ADDS outside PyTorch counts: "non-torch
#: forward increase memory: 0.25GiB" alone and 2.07 GiB with TP 2 (2.13 with TP 4) on H100s for Llama-3.1-8B-Instruct
#: (vLLM 0.19.0 start-up logs of llm-d-incubation/llm-d-planner's accuracy sweep, Apr 2026: the custom all-reduce and
#: NCCL buffers ``_dummy_run(is_profile=True)`` pre-allocates). The older split (``inference.NON_TORCH_GIB``, vLLM
#: 0.6) counted the context too. PCIe cards keep their measured 0.30 GiB (no NVLink all-reduce buffers). Measured,
#: not derived.
VLLM_NON_TORCH_GIB = {("nvlink", 1): 0.25, ("nvlink", 2): 2.07, ("pcie", 1): 0.30, ("pcie", 2): 0.30}


def vllm_profile_parts(hidden, ffn, vocab, tp, tokens, seqs, xp=None):
    """The two parts of vLLM's profile run per GPU (``inference.activation_peak_bytes``): one layer's live tensors
    over ``tokens`` — the residual and normed hidden states (``2h``) and the MLP's gate/up output and activation
    (``3·ffn/tp``), :data:`ACT_BYTES` each — and the sampler's :data:`SAMPLER_COPIES` fp32 copies of the logits of
    ``seqs`` sequences. ``tp`` may be an array (``xp``: :mod:`core.arrayops`, the search), at least 1."""
    tp = max(tp, 1) if xp is None else xp.maximum(tp, 1.0)
    layer = tokens * (2.0 * hidden + 3.0 * ffn / tp) * ACT_BYTES
    return layer, seqs * vocab * 4.0 * SAMPLER_COPIES


#: Issue 35 round 18 (serve18): the serving validation band (``resources/serving_band.json``, written by
#: ``bench/serving_band.py`` from the "max load" rows of ``scripts/validate_inference.py``: the ratio of true to
#: predicted time, predicted ÷ published tokens/s; p10–p90 is where 80% of the published runs fell). At the far end
#: (p90, 1.062 on 70 rows, 2026-12-08) a replica makes 1/1.062 of its modelled tokens/s.
SERVING_BAND_FILE = "serving_band.json"


@functools.lru_cache(maxsize=4)
def serving_band(kind: str = "throughput") -> dict | None:
    """The serving validation band ``kind`` (``throughput`` or ``first_token``) of ``resources/serving_band.json``
    with its source; None when the file has none."""
    from .shipped import load_json

    try:
        doc = load_json(SERVING_BAND_FILE)
    except (OSError, ValueError):
        return None
    b = (doc.get("bands") or {}).get(kind)
    if not isinstance(b, dict) or not (0 < b.get("p10", 0) <= b.get("p90", 0)):
        return None
    return {"p10": float(b["p10"]), "p90": float(b["p90"]), "median": float(b.get("median", 1.0)),
            "rows": int(b.get("rows", 0)), "source": doc.get("source"), "source_date": doc.get("source_date")}


def throughput_far_end() -> float:
    """The far end of the serving throughput band (its p90, at least 1: a band whose runs all beat the model
    leaves the modelled figure); 1 without a band."""
    b = serving_band("throughput")
    return max(1.0, b["p90"]) if b is not None else 1.0
