"""Floating-point operations of training: per token, per step and for a whole run.

Everything here is pure arithmetic on :class:`memory.ModelFacts`; ``seq_len`` may be a numpy array.

Sources:

* Matmul FLOPs: a ``fan_in → fan_out`` linear layer costs ``2·fan_in·fan_out`` FLOPs per token in the
  forward pass (one multiply and one add per weight); the backward pass costs twice the forward — one
  matmul for the input gradient, one for the weight gradient — so training costs ``6·N`` per token
  (Kaplan et al. 2020, "Scaling Laws for Neural Language Models", arXiv:2001.08361 §2.1 and Table 1;
  Narayanan et al. 2021, arXiv:2104.04473 §5.1 / Appendix, eq. 3). ``N`` here is the *active* matmul
  weights: the decoder layers' linear layers (:attr:`params.ParamCount.linear_active`: GQA-narrowed
  k/v projections, MLA's low-rank projections, the router, only the ``num_experts_per_tok`` routed
  experts plus shared experts of MoE layers) and the output projection ``V×h`` (a matmul whether or not
  it is tied to the embedding; the embedding lookup itself costs no FLOPs).
* Attention core: per layer and token, ``QKᵀ`` costs ``2·c·q_dim`` and ``softmax·V`` costs
  ``2·c·v_dim`` in the forward pass, where ``c`` is the number of keys the token attends to (Kaplan et
  al. 2020 Table 1: ``2·n_layer·n_ctx·d_attn``). Query heads, not KV heads, set the cost under GQA.
  Published MFU formulas (PaLM, Chowdhery et al. 2022, arXiv:2204.02311 Appendix B: ``6N + 12·L·H·Q·T``;
  Megatron eq. 3; llm-foundry) take ``c = s`` for every token. A causal mask lets FlashAttention skip
  the masked blocks (Dao 2023, "FlashAttention-2", arXiv:2307.08691 §3.1.1), so the work actually done
  is ``c = (s+1)/2`` on average; ``causal=True`` (our default) counts that.
* Activation recomputation (Korthikanti et al. 2022, arXiv:2205.05198 §5): *full* recomputation runs
  every layer's forward pass again during backward (hardware FLOPs ``8·N`` instead of ``6·N`` for the
  layers, not for the output layer); *selective* recomputation re-runs only the attention core
  (``QKᵀ``, softmax, ``·V``). Model FLOPs (MFU) never count recomputation; hardware FLOPs (HFU) do.
* LoRA (Hu et al. 2021, arXiv:2106.09685): frozen weights need the input gradient (to reach earlier
  layers) but no weight gradient, so they cost ``2·N`` forward + ``2·N`` backward = ``4·N``; adapters
  ``A: r×in`` and ``B: out×r`` cost ``6`` per adapter weight like any trained weight.
* QLoRA (Dettmers et al. 2023, arXiv:2305.14314 §3): NF4 weights are dequantised to bf16 before every
  matmul, in the forward pass and again in the backward pass (and in a recompute forward). That is
  memory traffic, not matmul work: :func:`qlora_dequant_bytes` counts it (read the 4-bit weight and its
  block constants, write the bf16 copy, read it back in the matmul) and the time model divides it by the
  GPU's memory bandwidth.
"""

from __future__ import annotations


import math

import numpy as np

from dataclasses import dataclass
from .lognormal import lognormal_loc_sig
from .memory import QLORA_NF4_BYTES, ModelFacts
from functools import lru_cache

from .params import base_linear_params, lora_linears, lora_params
from .params import lora_io_elements  # noqa: F401 (the time model reads it as F.lora_io_elements)
from . import recompute as rc

RECOMPUTE_NONE, RECOMPUTE_SELECTIVE, RECOMPUTE_FULL = 0, 1, 2


@dataclass(slots=True, frozen=True)
class ForwardFlops:
    """Forward-pass FLOPs per token, by part (``attention`` may be an array when ``seq_len`` is)."""

    layers: float  # matmuls of the decoder layers (active weights)
    head: float  # output projection V×h
    attention: float  # attention core (QKᵀ and ·V) summed over layers
    lora: float = 0.0  # LoRA adapters (forward)

    @property
    def total(self):
        return self.layers + self.head + self.attention + self.lora


def attended_context(seq_len, causal: bool = True):
    """Mean number of keys a token attends to: ``(s+1)/2`` under a causal mask, else ``s``."""
    s = float(seq_len) if isinstance(seq_len, (int, float)) else np.asarray(seq_len, dtype=float)
    return (s + 1.0) / 2.0 if causal else s


@dataclass(slots=True, frozen=True)
class SampleShape:
    """How a micro-batch's rows are filled (:func:`sample_shape`): ``row_len`` tokens processed per row (the
    sequence that sets activations and the GEMMs), ``attn_len`` the span one token's causal attention covers,
    ``real_frac`` the share of processed tokens that are real data (the rest is padding)."""

    row_len: float
    attn_len: float
    real_frac: float
    #: padded batches: a micro-batch of one sequence is padded to nothing (the collator pads to the batch's longest)
    #: and runs this many tokens, all real; None where rows do not depend on the micro-batch
    single_len: float | None = None
    #: padded batches: the samples' length spread (standard deviation / mean, :func:`expected_longest`); a batch of
    #: several samples is padded to its expected longest; None: to ``row_len`` (the cut-off). Padding-free batches
    #: (``single_len`` None) keep it too: only the ranks' imbalance reads it there (``timing.padded_rank_factor``)
    spread_cv: float | None = None


def sample_shape(seq_len: int, mean_sample_len: int | None, packing: bool, padding_free: bool,
                 flash: bool, sample_len_std: float | None = None) -> SampleShape:
    """Rows of a micro-batch for samples of mean length ``mean_sample_len`` cut at ``seq_len``.

    - no packing, no padding-free: each sample is padded to the row (transformers/TRL collators pad to the
      longest sample of the batch, ``padding="max_length"`` to ``max_length``): ``row_len`` = ``seq_len`` is the
      longest row a run meets (peak memory keeps it); the time model runs each micro-batch at its expected
      longest sample (``spread_cv``, :func:`expected_longest`, picked per micro-batch size in
      ``timing.padded_batch_rows``), of which the mean is real. A micro-batch of one sequence is its own
      longest: ``single_len`` = the mean, no padding.
    - ``packing`` (TRL ``SFTConfig.packing``; ``trl/data_utils.py`` ``pack_dataset``): samples are concatenated
      into rows of ``seq_len`` real tokens; TRL's default ``bfd`` strategy emits per-sample ``position_ids`` so
      FlashAttention's varlen path (transformers ``modeling_flash_attention_utils``: ``cu_seqlens`` from the
      position ids) confines each token's attention to its own sample: attention over the mean sample. Without a
      flash kernel the masked attention still spans the whole row.
    - ``padding_free`` (TRL ``SFTConfig.padding_free``; transformers ``DataCollatorWithFlattening``): each
      micro-batch's samples are flattened into one row with no padding: ``mbs × mean`` real tokens, attention per
      sample (flash varlen; TRL warns that padding-free needs a flash kernel, so that case is taken as given).
    ``mean_sample_len`` None (or ≥ ``seq_len``): every sample fills the row, today's pretraining case.
    ``sample_len_std`` (padded batches): the samples' standard deviation, so a batch of several samples pads to
    its expected longest (:func:`expected_longest`); None: :data:`DEFAULT_SAMPLE_LEN_CV` × the mean."""
    L = float(seq_len)
    mu = L if mean_sample_len is None else min(float(mean_sample_len), L)
    if mu >= L:
        return SampleShape(L, L, 1.0)
    cv = DEFAULT_SAMPLE_LEN_CV if sample_len_std is None else float(sample_len_std) / mu
    if padding_free and not packing:
        # the spread stays: each rank's flattened micro-batch holds its own draws (timing.padded_rank_factor)
        return SampleShape(mu, mu, 1.0, None, cv)
    if packing:
        return SampleShape(L, mu if flash else L, 1.0)
    return SampleShape(L, L, mu / L, mu, cv)


#: The length spread (standard deviation / mean of tokens per sample) taken when the user gives none: the median of
#: the 149 "mean±std" token statistics in ms-swift's dataset table (modelscope/ms-swift at 3602360,
#: docs/source_en/Instruction/Supported-models-and-datasets.md, column "Statistic (token)"; quartiles 0.29 / 0.69).
#: The emoji DPO set there is 334.0±162.8 (0.49); orpo-dpo-mix-40k and alpaca-gpt4 are in the same table.
DEFAULT_SAMPLE_LEN_CV = 0.46
#: points of the quadrature in :func:`expected_longest`, over ±_LONGEST_Z standard deviations of log-length
_LONGEST_GRID = 512
_LONGEST_Z = 8.0


@lru_cache(maxsize=64)
def _longest_grid(mu: float, cv: float, cap: float):
    """The quadrature grid of :func:`expected_longest` for one length distribution and cut: the log-normal's
    ``loc``/``sig``, the normal variable ``z``, Φ(z) and the length x(z). It depends on neither ``n`` nor the
    layout, so a search's layouts (and the app's repeated estimates) share it; the arrays are read-only."""
    loc, sig = lognormal_loc_sig(mu, cv)
    # in the normal variable z (x = exp(loc + sig z)): E = x(z_lo) + ∫ (1 − Φ(z)ⁿ) sig x dz from z_lo to the cut
    z_lo, z_hi = -_LONGEST_Z, min(_LONGEST_Z, (math.log(cap) - loc) / sig)
    z = np.linspace(z_lo, z_hi, _LONGEST_GRID + 1)
    cdf = 0.5 * (1.0 + np.array([math.erf(v / math.sqrt(2.0)) for v in z]))
    x = np.exp(loc + sig * z)
    for a in (z, cdf, x):
        a.flags.writeable = False
    return loc, sig, z, cdf, x


def expected_longest(mean: float, cv: float, n, cap: float):
    """Expected longest of ``n`` samples, each cut at ``cap`` tokens: what a collator that pads a batch to its own
    longest sample runs per row (transformers ``DataCollatorWithPadding``/``DataCollatorForSeq2Seq`` and TRL's
    collators, ``padding="longest"``; ms-swift ``Template._data_collator``; LLaMA-Factory's
    ``SFTDataCollatorWith4DAttentionMask``/``PairwiseDataCollatorWithPadding``). ``n`` may be an array (micro-batch
    candidates).

    Lengths are taken as log-normal with the given mean and spread ``cv`` (standard deviation / mean). Why
    log-normal: over the 143 datasets of ms-swift's table with at least 100 samples, the median of each set's
    published maximum predicted from its size, mean and std is 1.08 × the real maximum under a log-normal, 0.84 ×
    under a gamma, 0.62 × under a normal and 1.9 × under an exponential (bench/data/pref8.md). With the cut-off,
    E[min(max, cap)] = ∫₀^cap (1 − F(x)ⁿ) dx, by a trapezoid rule on a fixed grid of the log-length. One sample
    (``n`` = 1) is the mean itself (no padding; :class:`SampleShape`'s ``single_len``), and the result is never
    below the mean. ``cv`` infinite: every row is padded to ``cap``."""
    mu, cap = float(mean), float(cap)
    if math.isinf(cv):  # every row padded to the cut (timing.sample_shape_of: training.pad_to_seq_len)
        return np.full(np.shape(n), cap) if isinstance(n, np.ndarray) else cap
    if cv <= 0.0 or mu >= cap:
        return np.full(np.shape(n), min(mu, cap)) if isinstance(n, np.ndarray) else min(mu, cap)
    if not isinstance(n, np.ndarray):  # the one-plan path: one micro-batch size, its value cached
        return _longest_one(mu, float(cv), float(n), cap)
    return _longest_integral(mu, float(cv), n, cap)


@lru_cache(maxsize=256)
def _longest_one(mu: float, cv: float, n: float, cap: float) -> float:
    """:func:`expected_longest` of one micro-batch size (a plain number), cached: the app's estimates repeat it."""
    return float(_longest_integral(mu, cv, n, cap))


def _longest_integral(mu: float, cv: float, n, cap: float):
    """The quadrature of :func:`expected_longest` for ``n`` (number or array), the result shaped as ``n``."""
    loc, sig, z, cdf, x = _longest_grid(mu, cv, cap)
    z_lo = -_LONGEST_Z
    nn = np.asarray(n, dtype=float)
    # the search's candidates share a few micro-batch sizes: each distinct n is integrated once
    vals, back = np.unique(nn.reshape(-1), return_inverse=True)
    tail = 1.0 - cdf[None, :] ** np.maximum(vals.reshape(-1, 1), 1.0)  # P(max > x) per n
    g = tail * (sig * x)[None, :]
    area = math.exp(loc + sig * z_lo) + (z[1] - z[0]) * (g.sum(axis=1) - 0.5 * (g[:, 0] + g[:, -1]))
    return np.where(vals <= 1.0, mu, np.minimum(np.maximum(area, mu), cap))[back].reshape(nn.shape)


def forward_flops_per_token(m: ModelFacts, seq_len, *, causal: bool = True, method: str = "full",
                            lora_rank: int = 16, lora_targets: str = "all_linear") -> ForwardFlops:
    """Forward FLOPs per token (Kaplan et al. 2020 Table 1; see the module docstring)."""
    layers = 2.0 * m.params.linear_active
    head = 2.0 * m.V * m.h
    attention = 2.0 * attended_context(seq_len, causal) * (m.q_dim + m.v_dim) * m.L
    lora = 0.0
    if method in ("lora", "qlora"):
        lora = 2.0 * lora_params(m.arch, lora_rank, lora_targets)[1]
    if isinstance(attention, np.ndarray) and attention.ndim == 0:
        attention = float(attention)
    return ForwardFlops(layers=layers, head=head, attention=attention, lora=lora)


def model_flops_per_token(m: ModelFacts, seq_len, *, method: str = "full", causal: bool = True,
                          lora_rank: int = 16, lora_targets: str = "all_linear"):
    """Training FLOPs per token without recomputation (what MFU counts).

    Full training: 3 × forward (forward + backward at twice the forward; Kaplan et al. 2020 §2.1).
    LoRA/QLoRA: frozen matmuls 2 × forward (no weight gradient), attention core 3 × forward (its
    backward computes gradients of Q, K and V, two matmuls per forward matmul), adapters 3 × forward
    (Hu et al. 2021).
    """
    f = forward_flops_per_token(m, seq_len, causal=causal, method=method, lora_rank=lora_rank,
                                lora_targets=lora_targets)
    if method in ("lora", "qlora"):
        return 2.0 * (f.layers + f.head) + 3.0 * f.attention + 3.0 * f.lora
    return 3.0 * f.total


def recompute_flops_per_token(m: ModelFacts, seq_len, recompute, *, method: str = "full", causal: bool = True,
                              lora_rank: int = 16, lora_targets: str = "all_linear", every_n: int = 2):
    """Extra forward FLOPs per token that activation recomputation adds (Korthikanti et al. 2022 §5).

    ``recompute`` (codes of :mod:`core.recompute`): 0 none, 1 Megatron selective (attention core only), 2 full
    (the decoder layers' forward, not the output layer), 3 torchtitan per-op SAC (the matmuls it does not save:
    :func:`recompute.op_sac_plan`), 4 layer SAC (every ``every_n``-th layer whole; over the whole model,
    ``1/every_n`` of the layers). Works element-wise on arrays.
    """
    f = forward_flops_per_token(m, seq_len, causal=causal, method=method, lora_rank=lora_rank,
                                lora_targets=lora_targets)
    r = np.asarray(recompute)
    whole = f.layers + f.attention + f.lora
    share = (m.L // max(int(every_n), 1)) / max(m.L, 1)
    op = rc.op_sac_plan(m.arch)["recompute_linear"] * (f.layers + f.lora)
    out = np.where(r == RECOMPUTE_FULL, whole, np.where(
        r == RECOMPUTE_SELECTIVE, f.attention, np.where(
            r == rc.OP_SAC, op, np.where(r == rc.LAYER_SAC, share * whole, 0.0))))
    return float(out) if np.ndim(out) == 0 else out


def hardware_flops_per_token(m: ModelFacts, seq_len, recompute, *, method: str = "full", causal: bool = True,
                             lora_rank: int = 16, lora_targets: str = "all_linear"):
    """Model FLOPs plus the recompute forward (what HFU counts)."""
    kw = dict(method=method, causal=causal, lora_rank=lora_rank, lora_targets=lora_targets)
    return model_flops_per_token(m, seq_len, **kw) + recompute_flops_per_token(m, seq_len, recompute, **kw)


def dense_equivalent_flops_per_token(m: ModelFacts) -> float:
    """The plain ``6·N`` rule with N = all parameters (the naive baseline; Kaplan et al. 2020 §2.1)."""
    return 6.0 * m.params.total


def megatron_eq3_flops_per_token(h: int, L: int, s: int, V: int) -> float:
    """Narayanan et al. 2021 eq. 3 per token: ``96·l·h²·(1 + s/(6h) + V/(16·l·h))`` — GPT with a 4h MLP,
    full (non-causal) attention, recompute forward included (their "TFLOP/s per GPU" are HFU-style)."""
    return 96.0 * L * h * h * (1.0 + s / (6.0 * h) + V / (16.0 * L * h))


def megatron_core_flops_per_token(h: int, L: int, s: int, V: int, *, ffn: int | None = None,
                                  heads: int = 1, kv_heads: int | None = None, head_dim: int | None = None,
                                  swiglu: bool = False, topk: int = 1) -> float:
    """Megatron-Core's ``num_floating_point_operations`` per token (``megatron/training/training.py`` at
    commit f2e5db40, July 2024, the commit of the README's H100 table):
    ``12·l·h²·[(1 + g/a + s/h)·q/h + (f/h)·k·(3/2 if SwiGLU) + V/(2·l·h)]`` — forward and backward of every
    matmul (6 per weight and token), non-causal attention, *no* recompute term, untied output layer counted
    once. ``q = head_dim·a`` (the query projection width), ``g`` KV groups, ``k`` routed experts."""
    ffn = 4 * h if ffn is None else ffn
    kv_heads = heads if kv_heads is None else kv_heads
    q = (head_dim or h // heads) * heads
    bracket = ((1.0 + kv_heads / heads + s / h) * q / h + (ffn / h) * topk * (1.5 if swiglu else 1.0)
               + V / (2.0 * L * h))
    return 12.0 * L * h * h * bracket


def qlora_dequant_bytes(m: ModelFacts) -> float:
    """Memory traffic of one dequantisation of all NF4 weights (Dettmers et al. 2023 §3).

    Per weight: read the NF4 value and its double-quantised block constants (:data:`memory.QLORA_NF4_BYTES`),
    write the bf16 weight (2 bytes), read it back in the matmul (2 bytes). One dequantisation happens per
    pass over the layers (forward, backward, recompute forward) and micro-batch.
    """
    return float(base_linear_params(m.arch)) * (QLORA_NF4_BYTES + 2.0 + 2.0)


#: LoRA adapter path, 16-bit elements moved through HBM per token and adapted linear, by pass (the adapter
#: GEMMs have the rank as inner dimension, so their arithmetic intensity is ~r FLOPs per byte, far below any
#: GPU's ridge point: they run at memory speed, not at the matmul rate). PEFT ``tuners/lora/layer.py``
#: ``Linear.forward``: ``result = result + lora_B(lora_A(dropout(x))) * scaling`` (torchtune ``LoRALinear``:
#: ``out + (alpha / rank) * lora_b(lora_a(dropout(x)))``); ``lora_dropout = 0`` is ``nn.Identity`` (PEFT's
#: default). Forward: ``lora_A`` reads x (fan_in), ``lora_B`` writes its output (fan_out), ``* scaling`` reads
#: and writes it (2 fan_out), ``+`` reads both and writes (3 fan_out); torch.compile fuses the scale and add
#: into one pass (3 fan_out for both). Backward: the scaled output gradient is written once (2 fan_out: read,
#: write) and read by ``lora_B``'s dgrad and wgrad (2 fan_out); ``lora_A``'s dgrad writes the input gradient
#: (fan_in) and its wgrad reads x (fan_in); autograd accumulates the adapter's input gradient into the base
#: layer's (read 2, write 1: 3 fan_in). Dropout (p > 0): forward reads x and writes the dropped copy plus a
#: 1-byte mask (2.5 fan_in in 16-bit units), backward the same on the gradient.
LORA_FWD_IN, LORA_FWD_OUT, LORA_FWD_OUT_FUSED = 1.0, 6.0, 4.0
LORA_BWD_IN, LORA_BWD_OUT = 5.0, 4.0
LORA_DROPOUT_IN = 2.5
#: PEFT under autocast (the HF Trainer's ``bf16``/``fp16`` mixed precision) keeps the adapters in fp32:
#: ``get_peft_model(autocast_adapter_dtype=True)`` upcasts 16-bit adapter weights (``tuners_utils.cast_adapter_dtype``).
#: ``lora.Linear.forward`` then casts the adapter's input to the adapters' dtype
#: (``LoraLayer._cast_input_dtype``: ``x.to(torch.float32)``, read 1 and write 2 in 16-bit elements) and autocast
#: casts it back to bf16 for ``lora_A``'s matmul (read 2, write 1): 6 fan_in. The backward runs both casts' backward
#: on the input gradient (``ToCopyBackward``): 6 fan_in. Dropout (p > 0) then runs on the fp32 copy: read 2, write 2
#: and the 1-byte mask (4.5 instead of 2.5), forward and backward. The bitsandbytes 4-bit path
#: (``lora/bnb.py`` ``Linear4bit.forward``) casts only without autocast, but clones the base output first ("for
#: 4bit, we need to defensively clone here"): read and write fan_out, 2 per forward.
LORA_AUTOCAST_IN = 6.0
LORA_DROPOUT_IN_FP32 = 4.5
QLORA_CLONE_OUT = 2.0
#: The same fp32 adapters without autocast (the HF Trainer without --bf16/--fp16, ``training.mixed_precision_off``),
#: over the autocast counts above, 16-bit elements per token and adapted linear. PEFT 0.12/0.13 ``lora.Linear.forward``:
#: ``x = x.to(lora_A.weight.dtype)``; ``result = result + lora_B(lora_A(dropout(x))) * scaling``; ``result =
#: result.to(torch_result_dtype)``. Nothing casts back to bf16, so: forward, ``lora_A`` reads the fp32 x (2 instead
#: of 1) and there is no autocast cast-down (the input cast is read 1, write 2: 3 instead of 6): −2 fan_in;
#: ``lora_B`` writes fp32 (2), ``* scaling`` reads and writes fp32 (4), ``result +`` promotes the bf16 base output
#: (read 1 + 2, write 2: 5) and ``.to(bf16)`` (read 2, write 1: 3): 14 fan_out instead of :data:`LORA_FWD_OUT` 6, +8.
#: Backward: the cast's backward (read 1, write 2), the add's gradient cast to the bf16 base output (read 2, write 1),
#: the scaling's backward (read 2, write 2) and ``lora_B``'s dgrad and wgrad reading the fp32 gradient (2 + 2): 14
#: fan_out instead of :data:`LORA_BWD_OUT` 4, +10; on the input side ``lora_A`` writes an fp32 input gradient and its
#: wgrad reads the fp32 x (+1, +1) but no autocast cast's backward (3 instead of 6): −1 fan_in. The rank-wide GEMMs
#: also run in fp32 (torch's default ``allow_tf32 = False`` for matmuls): SGEMM at the card's FP32 rate, against
#: these fp32 operands (``timing.lora_gemm_roofline``; issue 35 round 17, lora17).
LORA_NO_AUTOCAST_IN_FWD, LORA_NO_AUTOCAST_IN_BWD = -2.0, -1.0
LORA_NO_AUTOCAST_OUT_FWD, LORA_NO_AUTOCAST_OUT_BWD = 8.0, 10.0
#: The rank-wide adapter GEMMs' own operands, 16-bit elements per token and adapted linear (a part of
#: :data:`LORA_FWD_IN` … above): each forward reads x into ``lora_A`` (fan_in) and writes ``lora_B``'s output
#: (fan_out); the backward reads the scaled output gradient twice (``lora_B``'s dgrad and wgrad) and, in ``lora_A``'s,
#: writes the input gradient and reads x again (2 fan_in, 2 fan_out). Their FLOPs (2·r per element moved, each pass)
#: are counted with the other linears' (:func:`forward_flops_per_token` ``lora``): r FLOPs per byte, below every
#: GPU's ridge point at the usual ranks, so a roofline kernel takes the longer of the two times, not their sum
#: (Williams, Waterman, Patterson, "Roofline", CACM 52(4), 2009; the GEMMs are PEFT ``tuners/lora/layer.py``
#: ``Linear.forward`` ``lora_B(lora_A(dropout(x)))``, ``nn.Linear`` each, one cuBLAS GEMM per pass and operand).
LORA_GEMM_FWD, LORA_GEMM_BWD = 1.0, 2.0


def lora_gemm_elements(d_in, d_out, fwd_passes):
    """16-bit elements per token that the adapter GEMMs themselves move (:data:`LORA_GEMM_FWD`), over
    ``fwd_passes`` forwards (1 + the recompute share) and one backward."""
    return (d_in + d_out) * (LORA_GEMM_FWD * fwd_passes + LORA_GEMM_BWD)


#: DoRA (Liu et al. 2024, arXiv:2402.09353 eq. 5; PEFT ``tuners/lora/dora.py`` ``DoraLinearLayer.forward``): every
#: forward of an adapted linear, in training, rebuilds ``lora_weight = lora_B(lora_A(eye(fan_in))).T`` and the
#: column norm ``||W + scaling * lora_weight||`` (``get_weight_norm``; the cache is off in training). The norm is
#: detached (paper §4.3), so none of this has a backward; a recompute forward runs it again. Bytes per weight
#: element (fan_in x fan_out) of one forward, by the adapters' dtype:
#: fp32 adapters (PEFT ``autocast_adapter_dtype=True``: x is cast to fp32, so ``weight.to(x.dtype)`` copies W):
#: lora_weight written (4), W cast to fp32 (read 2, write 4), ``scaling *`` (read 4, write 4), ``W +`` (read 8,
#: write 4), ``linalg.norm(dim=1)`` reads it (4): 34. 16-bit adapters: 2 + 0 + 4 + 6 + 2 = 14. The identity
#: matrix: written and read by ``lora_A`` (fan_in², 2 x the adapter dtype). The eye GEMMs' FLOPs
#: (2·r·fan_in·(fan_in + fan_out)) are left out: about 1/17 of the bytes' time at r 32 on an L40S.
DORA_WEIGHT_BYTES_FP32, DORA_WEIGHT_BYTES_16 = 34.0, 14.0
DORA_EYE_BYTES_FP32, DORA_EYE_BYTES_16 = 8.0, 4.0
#: DoRA's output path per token, 16-bit elements per output element (fan_out), over LoRA's (LORA_FWD_OUT …):
#: ``result_dora = (m / ||·|| - 1) * base_result + (m / ||·||) * lora_result * scaling`` and its add to the base
#: output. Forward (fp32 adapters): the base scale (read 1, write 2), the adapter scale (read 2, write 2), the add
#: (read 4, write 2): 13. Backward: the two products' input gradients (3 + 4), the magnitude's gradient reads
#: (g and base: 3; g and lora_result: 4), ``* scaling`` (4) and the base output's gradient add (3): 21. 16-bit
#: adapters: about half of each (7, 11). (Memory: memory.DORA_SAVED_BYTES_*.)
DORA_FWD_OUT_FP32, DORA_BWD_OUT_FP32 = 13.0, 21.0
DORA_FWD_OUT_16, DORA_BWD_OUT_16 = 7.0, 11.0


@lru_cache(maxsize=256)
def dora_weight_elements(a, targets: str) -> tuple[float, float]:
    """(Σ fan_in·fan_out, Σ fan_in²) over every adapted linear of all layers: the weights whose norm DoRA
    recomputes each forward (MoE: every expert, routed to or not)."""
    w = eye = 0.0
    for lin, n_layers in lora_linears(a, targets):
        w += float(lin.fan_in) * lin.fan_out * lin.count * n_layers
        eye += float(lin.fan_in) * lin.fan_in * lin.count * n_layers
    return w, eye


@lru_cache(maxsize=256)
def dora_dropout_base_flops(a, targets: str) -> float:
    """FLOPs per token of one more base matmul over the adapted linears (the experts a token is routed to): DoRA with
    ``lora_dropout > 0`` re-runs ``F.linear(dropout(x), W)`` (PEFT ``variants.py`` ``DoraLinearVariant.forward``:
    ``base_result=None`` unless the dropout is ``nn.Identity``) — 2·fan_in·fan_out per pass."""
    return sum(2.0 * lin.fan_in * lin.fan_out * lin.active * n for lin, n in lora_linears(a, targets))


@lru_cache(maxsize=256)
def lora_targets_per_layer(a, targets: str) -> float:
    """Adapted linears per decoder layer (mean over the layers; each one a LoRA module with its own kernels)."""
    n = sum(float(n_layers) for _lin, n_layers in lora_linears(a, targets))
    return n / max(float(a.num_layers), 1.0)


#: NeMo AutoModel's LoRA linears (``training.lora_layer``; NVIDIA-NeMo/Automodel
#: ``nemo_automodel/components/_peft/lora.py`` and ``lora_kernel.py``, read at commits 507bfb751 (2025-12-16) and
#: 2013a4dd6 (2026-04-10), the same in both), in the units of :data:`LORA_FWD_IN` … (16-bit elements per token and
#: adapted linear). ``LinearLoRA.forward``: ``lora_res = self.lora_B(self.lora_A(x) * self.scale)`` ("Apply scale
#: before lora_B"), so the scaling multiplies the rank-wide product, not the fan_out-wide output as PEFT's and
#: torchtune's ``* scaling`` does; then ``res + lora_res``. Forward: ``lora_B`` writes its output (1 fan_out), the add
#: reads both and writes (3): 4 fan_out (PEFT 6; torch.compile's fused PEFT count is also 4). Backward: the add passes
#: the output gradient to ``lora_B``'s dgrad and wgrad unscaled, read twice (2 fan_out; PEFT writes and reads the
#: scaled copy: 4); ``lora_A`` writes the input gradient and reads x (2 fan_in) and autograd adds it into the base
#: layer's (3): 5 fan_in, PEFT's. ``TritonLinearLoRA`` (``PeftConfig.use_triton``, default False; ``patch_linear_module``
#: turns it off whenever Transformer Engine imports, ``if HAS_TE: ... use_triton = False``): one kernel writes
#: ``scale · (x Aᵀ) Bᵀ`` (the same 4 fan_out with the add); its backward ``lora_da_dx_update_wrapper`` reads d_y and
#: writes dx, ``torch.matmul(xt, dyb)`` reads x, and ``lora_db_update_wrapper`` recomputes ``A xᵀ`` (reads x) and
#: multiplies by d_y (reads it): 2 fan_out, 6 fan_in. Dropout: ``dropout_position`` "post" by default, on the adapter's
#: output (``F.dropout(lora_res)``): :data:`LORA_DROPOUT_IN` × fan_out each pass instead of × fan_in; ``F.dropout``
#: with p = 0 returns its input (no kernel). The adapters are in the base weight's dtype (``lora_dtype or
#: obj.weight.dtype``), so no fp32 casts (:data:`LORA_AUTOCAST_IN`), and the 4-bit path calls the base's forward
#: without PEFT's defensive clone (:data:`QLORA_CLONE_OUT`).
AUTOMODEL_LORA_FWD_OUT, AUTOMODEL_LORA_BWD_OUT = 4.0, 2.0
AUTOMODEL_LORA_BWD_IN = {"automodel": LORA_BWD_IN, "automodel_triton": 6.0}
#: the LoRA layer implementations ``training.lora_layer`` names: ``peft`` (PEFT / torchtune, the default), NeMo
#: AutoModel's ``LinearLoRA`` and its ``TritonLinearLoRA``, LitGPT's ``LoRAQKVLinear`` before v0.3.1 (PEFT's element
#: counts; its host cost is timing.LITGPT_LORA_INDEX_S)
LORA_LAYERS = ("peft", "automodel", "automodel_triton", "litgpt")
#: the layers priced with PEFT's element counts (:data:`LORA_FWD_IN` …); the others are AutoModel's
#: (:func:`automodel_lora_elements`)
PEFT_COUNT_LAYERS = ("peft", "litgpt")


def automodel_lora_elements(d_in, d_out, dropout: bool, layer: str) -> tuple[float, float]:
    """(forward, backward) 16-bit elements per token of NeMo AutoModel's LoRA linears (:data:`AUTOMODEL_LORA_FWD_OUT`),
    ``layer`` ``automodel`` or ``automodel_triton``; ``dropout``: p > 0, on the adapter's output ("post")."""
    drop = LORA_DROPOUT_IN * d_out if dropout else 0.0
    fwd = LORA_FWD_IN * d_in + AUTOMODEL_LORA_FWD_OUT * d_out + drop
    bwd = AUTOMODEL_LORA_BWD_IN[layer] * d_in + AUTOMODEL_LORA_BWD_OUT * d_out + drop
    return fwd, bwd


def lora_traffic_elements(d_in, d_out, dropout: bool, fused, autocast=False, qlora: bool = False,
                          fp32_input=False, layer: str = "peft", no_autocast=False):
    """(forward, backward) 16-bit elements per token of the LoRA adapter paths (:data:`LORA_FWD_IN` …);
    ``fused`` and ``autocast`` may be boolean arrays. ``autocast``: PEFT's fp32 adapters under autocast, eager
    (:data:`LORA_AUTOCAST_IN`; torch.compile folds the casts into the adapter's kernels); ``qlora``: the
    bitsandbytes LoRA layer (:data:`QLORA_CLONE_OUT`), which skips the input cast under autocast; ``fp32_input``: the
    layer's input is fp32 (:data:`KBIT_FP32_EW_FACTOR`), and autocast casts it to bf16 for ``lora_A`` (half of
    :data:`LORA_AUTOCAST_IN` each way); ``layer``: the LoRA layer implementation (:data:`LORA_LAYERS`; NeMo
    AutoModel's: :func:`automodel_lora_elements`, whatever ``fused``, ``autocast`` and ``qlora`` say);
    ``no_autocast``: those fp32 adapters without autocast (:data:`LORA_NO_AUTOCAST_OUT_FWD` …), with ``autocast``."""
    if layer not in PEFT_COUNT_LAYERS:
        return automodel_lora_elements(d_in, d_out, dropout, layer)
    eager_cast = np.logical_and(autocast, np.logical_not(fused)) & (not qlora)
    kbit_cast = np.logical_and(autocast, np.logical_not(fused)) & np.logical_and(qlora, fp32_input)
    cast_in = (np.where(eager_cast, LORA_AUTOCAST_IN, 0.0) + np.where(kbit_cast, LORA_AUTOCAST_IN / 2.0, 0.0)) * d_in
    drop = (np.where(eager_cast, LORA_DROPOUT_IN_FP32, LORA_DROPOUT_IN) * d_in) if dropout else 0.0
    clone = np.where(fused, 0.0, QLORA_CLONE_OUT) * d_out if qlora else 0.0
    fwd = LORA_FWD_IN * d_in + np.where(fused, LORA_FWD_OUT_FUSED, LORA_FWD_OUT) * d_out + drop + cast_in + clone
    bwd = LORA_BWD_IN * d_in + LORA_BWD_OUT * d_out + drop + cast_in
    plain = np.logical_and(eager_cast, no_autocast)  # fp32 adapters without autocast
    fwd = fwd + np.where(plain, LORA_NO_AUTOCAST_IN_FWD * d_in + LORA_NO_AUTOCAST_OUT_FWD * d_out, 0.0)
    bwd = bwd + np.where(plain, LORA_NO_AUTOCAST_IN_BWD * d_in + LORA_NO_AUTOCAST_OUT_BWD * d_out, 0.0)
    if np.ndim(fwd) == 0:
        fwd = float(fwd)
    if np.ndim(bwd) == 0:
        bwd = float(bwd)
    return fwd, bwd


#: QLoRA prepared by PEFT's ``prepare_model_for_kbit_training`` (``utils/other.py``: "cast all non INT8 parameters to
#: fp32"; called by the PEFT quantization guide's recipe, TRL's ``prepare_peft_model`` for non-sharded 4-bit models and
#: Axolotl's model loader; LLaMA-Factory and Unsloth do not call it). The norms' weights are fp32, so HF's RMSNorm
#: returns ``weight * hidden.to(input_dtype)`` in fp32 and the residual stream is fp32 from the first MLP on (HF's
#: flash-attention path warns of exactly this: "The input hidden states seems to be silently casted in float32, this
#: might be related to the fact you have upcasted embedding or layer norm layers in float32"): the residual adds,
#: the activation and RoPE move fp32 (:data:`KBIT_FP32_EW_FACTOR` × their 16-bit bytes; the norms compute in fp32
#: either way), and every bitsandbytes
#: ``Linear4bit`` fed an fp32 input casts it to the compute dtype (``x.to(self.compute_dtype)``) and its output back
#: (``.to(inp_dtype)``), 6 bytes per element each (read 4 + write 2, read 2 + write 4), as does autocast's SDPA with
#: q, k and v; the backward casts the gradients back the same way. ``o_proj`` is fed SDPA's bf16 output: no cast.
KBIT_FP32_EW_FACTOR = 2.0
KBIT_CAST_BYTES = 6.0


@lru_cache(maxsize=256)
def kbit_cast_elements(a) -> float:
    """Elements cast per token and pass over all layers under :data:`KBIT_CAST_BYTES`: the inputs and outputs of
    every 4-bit linear except ``o_proj`` (the routed experts a token reaches, for MoE) and SDPA's q, k and v."""
    n = 0.0
    for lin, n_layers in lora_linears(a, "all_linear"):
        if lin.name != "o_proj":
            n += float((lin.fan_in + lin.fan_out) * lin.active * n_layers)
    q = float(a.num_heads * a.head_dim)
    kv = float(a.num_kv_heads * a.head_dim)
    return n + (q + 2.0 * kv) * float(a.num_layers)


def flops_per_step(flops_per_token, global_batch, seq_len):
    """FLOPs of one optimizer step: per-token FLOPs × ``global_batch × seq_len`` tokens."""
    return flops_per_token * np.asarray(global_batch, dtype=float) * seq_len


def total_flops(flops_per_token, tokens):
    """FLOPs to train on ``tokens`` tokens."""
    return flops_per_token * float(tokens)
