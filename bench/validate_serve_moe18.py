"""Issue 35, round 18 (servmoe18): how the serving model prices an MoE layer, checked against vLLM's fused-MoE kernel
at its untuned (default) config, and the two DeepSeek-V2-Lite max-load misses of servoos19 re-read. Run:
``python bench/validate_serve_moe18.py``.

Error convention: published / predicted - 1 (the brief's). No estimate is changed by this script: every figure is the
model of this branch (base h-servoos19 1fb26aa1).

What the engines' code does (vllm/model_executor/layers/fused_moe/fused_moe.py, vllm-project/vllm 000d1458)
-------
* ``moe_align_block_size`` sorts the (token, expert) pairs by expert and pads each expert's count up to BLOCK_SIZE_M;
  ``fused_moe_kernel`` runs one program per (BLOCK_SIZE_M rows of one expert, BLOCK_SIZE_N columns) and loads that
  expert's weight tile for it (``b_ptr + off_experts * stride_be``). Programs past ``num_tokens_post_padded`` return
  at once, so a decode step reads the weights of the experts its tokens reach (their union) and no other; the
  tokens' rows are gathered in the GEMM's A load (``offs_token // top_k``) and scattered in its C store, so there is
  no separate permute / un-permute pass (the top-k outputs are summed once, ``moe_sum``).
* The serving model's pricing (core/inference.py): ``decode_weight_bytes`` (the union, ``1 - (1 - k/E)^B`` of the
  experts), ``expert_grouped_gemm_extra_s`` (each expert's GEMMs at the tile efficiency of its own
  ``B·k/(E·reach)`` rows, width ``min(h, moe_intermediate)/tp``), both through ``gemm_efficiency``'s
  ``timing.T0`` = 128 and ``timing.D0`` = 64: the constants and the rule the training model uses for Megatron's
  grouped GEMMs (``timing._moe_terms``: ``1/(1 + D0·etp/f_moe) / (1 + T0/rows)``). BLOCK_SIZE_M padding (16 rows
  at ``M <= E``, else 64, in vLLM's default config) charges an expert 16-64 rows; the T0 term charges it
  ``rows + 128`` rows' worth, so the padding does not bind: the sum bound padded per expert
  (:func:`padded_sum_s`) in place of the model's moves no kernel row by more than 1%.

Kernel rows (KERNEL_ROWS): one MoE layer's routed experts (vLLM ``benchmarks/kernels/benchmark_moe.py``: top-k,
align, both grouped GEMMs, activation, sum), BF16, the DEFAULT column (no tuned config file for the shape):
(K40542) vllm-project/vllm PR #40542 (varjoranta, 2026-04-21) "Add A100 tuned config for E=64,N=1408": bf16,
    hidden 2048, top_k 6, 1 x A100 80GB SXM4 (DeepSeek-V2-Lite's routed-expert shape: 64 experts, 1,408 wide, top 6).
(K44818) vllm-project/vllm PR #44818 (LucasWilkinson, 2026-06-08) "Add H200 BF16 fused MoE configs for Gemma4
    (E=128,N=704)": E=128, N=704, K=2816, top_k 8, NVIDIA H200. ASSUMED the SXM card (the PR names "H200").
The model's time for the layer: its decode-step GEMM bound (``max(read, min(compute roof, sum bound))``) on a
one-layer model holding only the routed experts (:func:`expert_layer`), context 0, no fixed kernel times.

Whole-model batch-1 row (B12637): vllm-project/vllm PR #12637 (mgoin, 2025-02-01) "Apply torch.compile to
fused_moe/grouped_topk": ``VLLM_MLA_DISABLE=1 benchmark_latency.py --model DeepSeek-Coder-V2-Lite-Instruct
--batch-size 1 --input-len 128 --output-len 512`` on an H100, main: "Avg generation throughput: 154.8 tokens/s"
(6.46 ms a token). DeepSeek-Coder-V2-Lite has DeepSeek-V2-Lite's dimensions (the preset); ASSUMED H100 SXM; V0
(0.7.x, February 2025) with CUDA graphs; the cache of the non-MLA path (below); context 128 + 512/2.

V905 re-mapped: vLLM 0.5.3 had no MLA path. ``DeepseekV2Attention`` builds ``Attention(num_local_heads,
qk_head_dim, num_kv_heads=num_local_heads)`` and pads V from 128 to ``qk_head_dim`` = 192 before the attention
(vllm/model_executor/models/deepseek_v2.py, vllm-project/vllm 002d6073; the same class is the ``use_mla=False`` path
today, the only one before MLA landed in 2025): every layer caches 16 K and 16 V heads of 192, 331,776 bytes a
token against MLA's 31,104. servoos19's mapping held MLA's latent; :func:`full_head_cache` gives the engine's.
"""
from __future__ import annotations

import dataclasses
import statistics
import sys

from gpuplanner.core import inference as inf
from gpuplanner.core.catalog_hw import get_gpu

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import validate_serve_oos19 as oos19  # noqa: E402

A100, H100, H200 = "a100-sxm-80gb", "h100-sxm-80gb", "h200-sxm-141gb"
#: (label, card, (E, N, K, top_k), [(M tokens, default-config µs)], source)
KERNEL_ROWS = [
    ("K40542", A100, (64, 1408, 2048, 6),
     [(1, 183.5), (4, 266.2), (16, 542.6), (64, 698.1), (256, 769.5), (1024, 1022.5), (4096, 2919.0)],
     "vLLM PR #40542 (2026-04-21), A100 80GB SXM4, E=64 N=1408 K=2048 top-6, default config"),
    ("K44818", H200, (128, 704, 2816, 8),
     [(1, 189.2), (2, 187.0), (4, 185.4), (8, 200.0), (16, 257.8), (24, 314.4), (32, 341.1), (48, 382.8),
      (64, 391.8), (96, 405.6), (128, 409.1), (256, 419.8), (512, 442.2), (1024, 536.5), (1536, 585.4),
      (2048, 742.9), (3072, 992.9), (4096, 1249.5)],
     "vLLM PR #44818 (2026-06-08), H200, E=128 N=704 K=2816 top-8, default config"),
]
#: Token counts below which vLLM's fused-MoE kernel is scored apart (batch-1..8 decode: the small-M floor, the note)
SMALL_M = 16
#: (label, model, card, published ms a token, input, output, vLLM version, source)
BATCH1_ROWS = [("B12637", "deepseek-v2-lite", H100, 1e3 / 154.8, 128, 512, "0.7",
                "vLLM PR #12637 (2025-02-01), DeepSeek-Coder-V2-Lite, VLLM_MLA_DISABLE=1, batch 1, 128/512, H100")]


def expert_layer(e: int, n: int, k_hidden: int, top_k: int) -> inf.ServingModel:
    """One MoE layer's routed experts as a :class:`inf.ServingModel`: ``E`` experts of ``3·N·K`` weights (gate, up,
    down), ``top_k`` of them a token, hidden ``K``, expert width ``N``; nothing else (no attention, no vocabulary)."""
    w = e * 3.0 * n * k_hidden
    return inf.ServingModel(name=f"E{e} N{n} K{k_hidden} top{top_k}", params_total=w, params_active=w * top_k / e,
                            num_layers=1, num_heads=k_hidden // 128, num_kv_heads=k_hidden // 128, head_dim=128,
                            expert_params=w, num_experts=e, experts_per_tok=top_k, hidden_size=k_hidden,
                            moe_intermediate=n)


def layer_s(m: inf.ServingModel, g: str, tokens: float, padded: bool = False) -> float:
    """Seconds the model gives the layer's GEMMs for ``tokens`` tokens: :func:`inf.decode_step_s`'s GEMM bound
    (the weight stream of the reached experts against the compute roof and the sum bound), BF16, TP 1.
    ``padded``: the sum bound with vLLM's per-expert padding instead (:func:`padded_sum_s`)."""
    gpu, eff = get_gpu(g), inf.ServingEfficiency()
    bw = float(gpu.mem_bw_tbs) * 1e12 * inf.bandwidth_fraction(gpu, eff)
    t_read = inf.decode_weight_bytes(m, "bf16", tokens) / bw
    t_gemm = inf.lm_head_split_gemm_s(m, gpu, "bf16", tokens, 1, None)
    t_sum = padded_sum_s(m, g, tokens) if padded else inf.no_overlap_gemm_s(m, gpu, "bf16", tokens, 1, t_read)
    return max(t_read, min(t_gemm, t_sum))


def padded_sum_s(m: inf.ServingModel, g: str, tokens: float) -> float:
    """The sum bound with vLLM's per-expert padding (the default config's BLOCK_SIZE_M: 16 at ``M <= E``, else 64,
    ``get_default_config`` before PR #34846): the reached experts' weights streamed, then ``Σ ceil(rows_e/BM)·BM``
    rows of FLOPs at the large-GEMM share (no tile term, as :func:`inf.no_overlap_gemm_s`)."""
    gpu, eff = get_gpu(g), inf.ServingEfficiency()
    bw = float(gpu.mem_bw_tbs) * 1e12 * inf.bandwidth_fraction(gpu, eff)
    reach = 1.0 - (1.0 - m.experts_per_tok / m.num_experts) ** max(tokens, 1.0)
    rows = inf.expert_rows(m, tokens)
    bm = 16.0 if tokens <= m.num_experts else 64.0
    padded = m.num_experts * reach * (-(-rows // bm)) * bm
    peak = inf.peak_flops(gpu, "bf16") * inf.gemm_efficiency(m, gpu, "bf16", 1e12, 1, t0=0.0)
    per_expert = m.expert_params / m.num_experts
    return inf.decode_weight_bytes(m, "bf16", tokens) / bw + padded * 2.0 * per_expert / peak


def kernel_rows():
    """[(label, M, published µs, predicted µs, predicted µs with the per-expert padded sum bound, source)]."""
    out = []
    for lab, g, shape, pts, src in KERNEL_ROWS:
        m = expert_layer(*shape)
        for tokens, us in pts:
            out.append((lab, tokens, us, layer_s(m, g, tokens) * 1e6, layer_s(m, g, tokens, True) * 1e6, src))
    return out


def full_head_cache(m: inf.ServingModel) -> inf.ServingModel:
    """DeepSeek-V2 as vLLM's non-MLA path caches it: every head's K and V, V padded to ``qk_head_dim`` (module
    docstring): ``num_heads`` KV heads of ``head_dim`` = ``qk_nope + qk_rope`` (192), no latent."""
    return dataclasses.replace(m, kv_lora_rank=0, qk_rope_head_dim=0, num_kv_heads=m.num_heads)


def batch1_rows():
    """[(label, published ms, predicted ms, source)]: the batch-1 decode step at the mean context (vLLM V0)."""
    out = []
    for lab, p, g, ms, i, o, ver, src in BATCH1_ROWS:
        m = full_head_cache(oos19.model(p))
        t, _ = inf.decode_step_s(m, get_gpu(g), precision="bf16", kv_bytes=inf.KV_BYTES["bf16"], batch=1,
                                 context=i + o / 2, tp=1, eff=inf.ServingEfficiency(), loop=inf.vllm_v0_loop(ver))
        out.append((lab, ms, t * 1e3, src))
    return out


def v905_rows():
    """[(label, mapping, published, predicted)]: servoos19's V905 with MLA's latent cache, then with vLLM 0.5.3's."""
    lab, p, g, tp, run, n, pm, om, kind, metric, pub, _ = next(r for r in oos19.ROWS if r[0] == "V905")
    ps, os_ = oos19.lengths(pm, om, kind)
    out = []
    for what, m in (("MLA latent (servoos19)", oos19.model(p)), ("full K/V heads, V padded to 192 (vLLM 0.5.3)",
                                                               full_head_cache(oos19.model(p)))):
        r = inf.max_load_run(m, get_gpu(g), prompts=ps, outputs=os_, requests=n, precision="bf16", tp=tp, **run)
        out.append((lab, what, pub, r.output_tokens_per_s if r else 0.0))
    return out


def stats(errs):
    a = [abs(e) for e in errs]
    return len(a), statistics.median(a) * 100, oos19.p90(a) * 100, statistics.median(errs) * 100


def main(argv):
    ks = kernel_rows()
    for name, sel in (("kernel rows, M >= 16", lambda r: r[1] >= SMALL_M),
                      ("kernel rows, M < 16", lambda r: r[1] < SMALL_M)):
        n, med, p9, sm = stats([oos19.err(r[2], r[3]) for r in ks if sel(r)])
        print(f"{name} | {n} | median |err| {med:.1f}% / p90 {p9:.1f}% (signed median {sm:+.1f}%)")
    print("| row | M | published µs | predicted µs | error | predicted, sum bound padded per expert µs |")
    for lab, tokens, us, pred, pad, _ in ks:
        print(f"| {lab} | {tokens} | {us:,.1f} | {pred:,.1f} | {oos19.err(us, pred) * 100:+.1f}% | {pad:,.1f} |")
    print("| row | published ms | predicted ms | error | source |")
    for lab, ms, pred, src in batch1_rows():
        print(f"| {lab} | {ms:.2f} | {pred:.2f} | {oos19.err(ms, pred) * 100:+.1f}% | {src} |")
    print("| row | KV cache mapped | published tok/s | predicted tok/s | error |")
    for lab, what, pub, pred in v905_rows():
        print(f"| {lab} | {what} | {pub:,.2f} | {pred:,.2f} | {oos19.err(pub, pred) * 100:+.1f}% |")


if __name__ == "__main__":
    main(sys.argv[1:])
