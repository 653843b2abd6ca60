"""FP8 training recipes: which GEMMs run in FP8, what the scaling costs, and what FP8 changes in memory.

``training.precision = "fp8"`` with ``training.fp8_recipe`` (or one of the spelled-out precisions
``fp8_te_delayed`` … ``fp8_rowwise``, read as ``fp8`` plus the recipe). What every recipe shares:

* **Which GEMMs.** The linear layers of attention (q, k, v, output) and MLP run their three GEMMs in FP8: the
  forward ``y = x·Wᵀ``, the input gradient ``dx = dy·W`` and the weight gradient ``dW = xᵀ·dy`` (torchao docs,
  "Quantized Training": the three matmuls of ``torch.nn.Linear``; Transformer Engine docs, "Using FP8 with
  Transformer Engine": ``te.Linear`` / ``LayerNormLinear`` / ``LayerNormMLP`` inside ``fp8_autocast``). The
  attention core (softmax(QKᵀ)V) stays in 16-bit (TE's ``DotProductAttention`` and SDPA run BF16 unless FP8
  attention is asked for separately), and so does the output layer: Megatron-Core builds the LM head as a plain
  column-parallel linear outside the FP8 TE layers; torchtitan converts linears except those filtered, and its
  float8 converter filters ``output`` by default (``filter_fqns``). The time model (:mod:`timing`) already
  runs the layers' linear FLOPs at the catalog's dense FP8 peak and the attention core and head at the BF16 peak;
  FP8 GEMMs reach a lower share of their peak (``timing.FP8_EFFICIENCY_RATIO``, gpu-catalog.md §4.1).
* **Scaling and casting** (memory-bound element-wise work, below): every GEMM operand is cast to FP8 with a
  scale from its absolute maximum (amax).

Per recipe (bytes moved per element of an activation operand over forward + backward; a bf16 read is 2 bytes,
an FP8 write 1):

* ``te_delayed`` — Transformer Engine ``DelayedScaling`` (TE docs, "FP8 recipes"; Megatron-Core ``--fp8-format
  hybrid --fp8-recipe delayed``): the scale comes from the amax history of earlier steps, so the cast kernel
  computes the new amax on the fly; Hopper's FP8 GEMM needs both operands K-major, so TE fuses cast and transpose
  (``cast_transpose``) and writes both layouts: x and dy each 2 + 1 + 1 = **4**. Weights are cast (+ transposed)
  once per step and reused by every micro-batch (``is_first_microbatch``): 4 bytes per parameter per step;
  the FP8 weight copy lives through the step (**1 byte per parameter**, :func:`memory.state_bytes`).
* ``te_current`` — TE ``Float8CurrentScaling``: the amax of the tensor itself is computed first (one more 2-byte
  read): **6** per element; weights 6 bytes per parameter per step; FP8 weight copy 1 byte.
* ``te_mxfp8`` — TE ``MXFP8BlockScaling`` (Blackwell only: SM 10.x; TE docs, "MXFP8"; Megatron ``--fp8-recipe
  mxfp8``): one E8M0 scale per 32 consecutive elements, computed inside the quantisation kernel (no separate amax
  pass). Rowwise (1×32) and columnwise (32×1) copies are numerically different, so "both must be quantized
  independently from the full-precision data" (TE docs, "Handling transposes"): one 2-byte read, two 1-byte
  writes and two 1-byte scales per 32 elements: x and dy each 2 + 1 + 1 + 2/32 = **4.0625**; the scales' GEMM
  layout (swizzle) is fused into the quantisation when no communication follows (TE docs, "Swizzling scaling
  factors"). Weights 4.0625 bytes per parameter per step (cached like the other TE recipes); the kept weight holds
  both orientations: **2 + 2/32 bytes per parameter**. The block-scaled GEMM runs slower than the tensor-scaled
  one (:data:`MX_GEMM_RATIO`).
* ``torchao_tensorwise`` — torchao ``Float8Linear`` with dynamic tensorwise scaling (torchao ``float8`` README;
  torchtitan ``quantize.linear.float8``): the linear saves its *high-precision* input for backward
  (``matmul_with_hp_or_float8_args``: ``ctx.save_for_backward(input_hp, weight_hp_t)``) and casts it again there:
  x = (2 amax + 2 + 1) × 2 = **10**; dy = 5 + a transposed FP8 copy (1 + 1) = **7**; weights cast in forward and
  backward of every micro-batch: 10 bytes per parameter per micro-batch. No FP8 weight copy is kept.
  ``torch.compile`` (which torchtitan requires for float8) fuses the amax reduction into the producing kernel:
  −2 per amax pass (x 6, dy 5, weights 6). ``training.fp8_all_gather`` (torchao
  ``enable_fsdp_float8_all_gather``, FSDP2 only): the weight is cast on its shard before FSDP's all-gather, so the
  all-gather moves 1 byte per parameter instead of 2 and the gathered layer is held in FP8; the weight casts then
  touch only the local shard.
* ``torchao_rowwise`` — torchao rowwise scaling (``Float8LinearRecipeName.ROWWISE``): a scale per row, so the
  weight-gradient GEMM needs its operands scaled along the other axis: x and dy are each cast twice (dim 0 and
  dim 1): **10** each (compiled: 6); weights 10 bytes per parameter per micro-batch (compiled 6). No FP8
  all-gather (torchao supports it for tensorwise scaling only).

Activation memory: TE's linear saves the FP8 copy of its input for the weight-gradient GEMM
(``transformer_engine/pytorch/module/linear.py``, ``_Linear.forward``: ``saved_inputmat`` is the FP8 tensor
unless ``override_linear_precision.wgrad``), so Megatron's norm outputs and FC2 input are held in 1 byte
(:func:`memory.activation_parts_per_layer`, ``fp8_te``); torchao saves the bf16 input (above), and the
Hugging Face layer model (``hf``/``deepspeed`` with TE through Accelerate) keeps 16-bit activations (an upper
bound).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True, frozen=True)
class Fp8Recipe:
    id: str
    library: str  # "te" | "torchao"
    x_bytes: float  # per element of a GEMM input activation, forward + backward casts
    dy_bytes: float  # per element of an output gradient
    w_bytes: float  # per weight parameter and cast round
    w_per_micro_batch: bool  # weights re-cast every micro-batch (torchao) or once per step (TE cache)
    weight_copy: float  # bytes per parameter of an FP8 weight copy kept through the step
    fused_saving: float  # bytes per element torch.compile saves (amax fused into the producer)
    all_gather_fp8: bool  # FP8 all-gather of FSDP2 weights available
    gemm_ratio: float = 0.7  # FP8 GEMM efficiency relative to the BF16 GEMMs' (timing.FP8_EFFICIENCY_RATIO)


#: FP8 GEMM efficiency relative to BF16's, Transformer Engine: its GEMMs are cuBLASLt FP8 GEMMs on operands TE
#: already cast and transposed (``cast_transpose``), so they run as the plain matmul benchmark does: the MAMF
#: finder measures 1402.6 TFLOP/s FP8 (70.9% of the dense peak) against 794.5 BF16 (80.3%) on an H100 SXM
#: (stas00/ml-engineering, gpu-catalog.md §4.1): 70.9 / 80.3. torchao (``torch._scaled_mm``) keeps the whole-run
#: ratio (``timing.FP8_EFFICIENCY_RATIO`` = 0.7, llm-foundry FP8 / Llama 4): its row-wise GEMM is a CUTLASS kernel
#: "substantially slower than tensor-wise" (pytorch/pytorch#147971: most shapes 90–100% of cuBLAS, a tail to 50%)
#: and its backward GEMMs run with slow accumulation (torchao ``Float8LinearConfig``: ``use_fast_accum=False``
#: for grad_input and grad_weight), and no GEMM-level figure for it was found. Against Megatron-Bridge's published
#: H100 FP8 current-scaling rows (docs/performance-summary.md, 25.11: Llama 3 8B / 70B / 405B) the TE ratio gives
#: −9% / 0% / +4% where 0.7 gave −21% / −16% / −14% (docs/validation_time.md).
TE_GEMM_RATIO = 70.9 / 80.3

#: MXFP8's block-scaled GEMM against the tensor-scaled FP8 GEMM on the same Blackwell GPU: Transformer Engine's GEMM
#: profiling tutorial (``docs/examples/gemm_profiling/gemm_profiling.rst``, "Autocast vs Pre-quantized", NVIDIA
#: B300, a 5B model: hidden 4096, FFN 16384, 15,872 tokens) measures the 12 GEMMs of a layer on pre-quantized
#: inputs (kernel time only) at 6.812 ms with FP8 tensor scaling and 7.161 ms with MXFP8: 6.812 / 7.161 = 0.951.
#: Against Megatron-Bridge's published tables the same layouts run 3–6% slower with MXFP8 than with FP8 current
#: scaling (Llama 3 8B on GB200 and B200, 405B on B200: bench/validate_bridge_dense.py).
MX_GEMM_RATIO = 6.812 / 7.161
MX_ELEM_BYTES = 2.0 + 1.0 + 1.0 + 2.0 / 32.0

RECIPES: dict[str, Fp8Recipe] = {
    "te_delayed": Fp8Recipe("te_delayed", "te", 4.0, 4.0, 4.0, False, 1.0, 0.0, False, TE_GEMM_RATIO),
    "te_current": Fp8Recipe("te_current", "te", 6.0, 6.0, 6.0, False, 1.0, 0.0, False, TE_GEMM_RATIO),
    "te_mxfp8": Fp8Recipe("te_mxfp8", "te", MX_ELEM_BYTES, MX_ELEM_BYTES, MX_ELEM_BYTES, False, 2.0 + 2.0 / 32.0, 0.0,
                          False, TE_GEMM_RATIO * MX_GEMM_RATIO),
    "torchao_tensorwise": Fp8Recipe("torchao_tensorwise", "torchao", 10.0, 7.0, 10.0, True, 0.0, 2.0, True),
    "torchao_rowwise": Fp8Recipe("torchao_rowwise", "torchao", 10.0, 10.0, 10.0, True, 0.0, 2.0, False),
}
#: ``training.precision`` spellings that name a recipe (read as ``fp8`` + ``fp8_recipe``)
PRECISION_ALIASES = {"fp8_te_delayed": "te_delayed", "fp8_te_current": "te_current",
                     "fp8_tensorwise": "torchao_tensorwise", "fp8_rowwise": "torchao_rowwise"}
#: the recipe each framework uses when the scenario names none: Megatron-Core, DeepSpeed and Accelerate run
#: Transformer Engine (delayed scaling is TE's and Megatron's default recipe); torchtitan runs torchao
#: (tensorwise is torchao's default ``Float8LinearConfig``)
DEFAULT_RECIPE = {"megatron": "te_delayed", "deepspeed": "te_delayed", "hf": "te_delayed",
                  "fsdp": "torchao_tensorwise"}


#: recipes that need a given GPU generation (``timing.gpu_generation``): MXFP8's block-scaled tensor-core MMA exists
#: on datacenter Blackwell only (TE docs, "MXFP8", supported devices: SM 10.0, SM 10.3)
RECIPE_GENERATIONS = {"te_mxfp8": ("blackwell",)}


def recipe_for(framework: str, recipe: str | None) -> Fp8Recipe:
    """The recipe a run uses: the scenario's, else its framework's default."""
    return RECIPES[recipe or DEFAULT_RECIPE.get(framework, "te_delayed")]


#: Frozen weights under Transformer Engine (LoRA/QLoRA base layers): no weight-gradient GEMM, so TE writes only the
#: row-wise FP8 copy of each linear's input, not the transposed (column-wise) one the wgrad GEMM reads
#: (``transformer_engine/pytorch/module/linear.py`` and ``layernorm_linear.py``: ``backward_needs_input =
#: is_grad_enabled and weight.requires_grad``; ``input_quantizer.set_usage(rowwise=True,
#: columnwise=backward_needs_input)``; TE 1.x: ``cast_to_fp8`` instead of ``fp8_cast_transpose_fused`` when the
#: weight needs no gradient): one 1-byte write fewer per input element. The output gradient keeps both copies
#: (``grad_output_quantizer.set_usage(rowwise=True, columnwise=True)`` in the modules' backward). torchao's
#: ``Float8Linear`` casts the saved input in its backward only for the weight gradient as well, but no LoRA row
#: runs it; only TE is changed.
TE_FROZEN_X_SAVING = 1.0


def frozen_x_saving(recipe: Fp8Recipe, lora: bool) -> float:
    """Bytes per linear-input element that a frozen base weight saves on the FP8 casts (:data:`TE_FROZEN_X_SAVING`)."""
    return TE_FROZEN_X_SAVING if lora and recipe.library == "te" else 0.0


def routed_copies(m) -> float:
    """How many times a token's MLP input is counted per layer: once in a dense layer, ``k`` routed copies (plus the
    shared expert's) in an MoE layer, averaged over the layers (``m`` is :class:`memory.ModelFacts`)."""
    return (1 - m.moe_frac) * 1.0 + m.moe_frac * (m.k_active + (1.0 if m.shared_f else 0.0))


def cast_elements_per_token(m) -> tuple[float, float]:
    """(x, dy) elements per token and decoder layer that FP8 casts (before tensor parallelism): the distinct
    linear inputs (q/k/v share the norm output, gate/up share theirs) and every linear's output gradient.
    ``m`` is :class:`memory.ModelFacts`; MoE layers count the routed experts' tokens ``k`` times."""
    f = m.mlp_width
    k = routed_copies(m)
    x = m.h + m.v_dim + k * m.h + f  # qkv input, o input, MLP input(s), down input
    dy = m.q_dim + 2 * m.kv_dim + m.h + f * (2 if m.gated else 1) + k * m.h
    return x, dy


def all_gather_in_fp8(framework: str, precision: str, recipe: str | None, flag: bool | None) -> bool:
    """Whether FSDP2 all-gathers the weights in FP8 (torchao ``enable_fsdp_float8_all_gather``): only asked for
    (torchtitan's default is off), only FSDP2 with an FP8 recipe that supports it."""
    return bool(flag) and framework == "fsdp" and precision == "fp8" and recipe_for(framework, recipe).all_gather_fp8


def megatron_fp8_param_gather(framework: str, precision: str, recipe: str | None, flag: bool | None) -> bool:
    """Megatron-Core ``--fp8-param-gather`` (``training.fp8_all_gather`` under framework ``megatron``): "Keep the
    compute param in fp8 (do not use any other intermediate dtype) and perform the param all-gather in fp8"
    (``megatron/training/arguments.py``); the model is built under TE's ``fp8_model_init`` (NeMo 1.0
    ``fp8_params``, ``megatron_gpt_model.py``). Off by default in Megatron-Core and NeMo 1.0; Megatron-Bridge's FP8
    mixed-precision presets (``bf16_with_fp8_current_scaling_mixed``, ``bf16_with_mxfp8_mixed``) set
    ``fp8_param_gather = True``. What changes in time (:mod:`timing`): the distributed optimizer casts only its
    fp32 shard into the FP8 parameter after the step (``fp8_utils.quantize_param_shard``) and all-gathers 1 byte per
    FP8 weight; TE then builds the transposed copy of each gathered weight once (``post_all_gather_processing``,
    read 1 + write 1 byte); frozen FP8 weights (LoRA's base layers) are never cast again."""
    return bool(flag) and framework == "megatron" and precision == "fp8" and recipe_for(framework, recipe).library == "te"


#: bytes per FP8 weight of TE's transposed copy after each FP8 parameter all-gather (read 1 + write 1)
FP8_PARAM_TRANSPOSE_BYTES = 2.0


#: torchtitan's tensor parallelism with torchao float8 (``parallelize_llama.apply_tp``, torchtitan 9dec370 …
#: 2c8b594): with tensorwise scaling the block linears take ``Float8ColwiseParallel`` / ``Float8RowwiseParallel`` /
#: ``PrepareFloat8ModuleInput`` (torchao ``float8/float8_tensor_parallel.py``): the sequence-sharded input is cast
#: to float8 on its shard *before* ``redistribute`` (so the activation all-gather moves 1 byte per element), and the
#: output gradient is cast by ``NoopFwToFloat8BwDynamic`` on its shard before the backward's all-gather. The
#: reduce-scatters carry the 16-bit matmul outputs. With rowwise scaling torchtitan keeps the plain
#: ``ColwiseParallel`` / ``RowwiseParallel`` ("For rowwise recipes, we use regular TP and all-gather happens in high
#: precision"): the gathers move 16 bits, and ``Float8Linear`` casts the *gathered* (replicated) tensors on every
#: tensor-parallel rank: the attention and MLP inputs, and the output gradients of the output and down projections.
TP_FP8_GATHER_BYTES = 1.0


def torchtitan_tp_float8(framework: str, precision: str, recipe: str | None) -> str | None:
    """How torchtitan's tensor parallelism meets the float8 recipe: ``"tensorwise"`` (float8 TP styles: FP8
    all-gathers, casts on the shard), ``"rowwise"`` (plain TP styles: 16-bit gathers, casts on the gathered
    tensors), or None (not torchtitan's FSDP2 + torchao float8)."""
    if framework != "fsdp" or precision != "fp8":
        return None
    rid = recipe_for(framework, recipe).id
    return {"torchao_tensorwise": "tensorwise", "torchao_rowwise": "rowwise"}.get(rid)


def tp_gather_halves(rec_whole, rec_op):
    """The all-gather share of a layer's tensor-parallel collectives with sequence parallelism, in all-reduce
    units (timing's ``n_layer_coll`` counts ``4 + 2·rec_whole + rec_op`` per layer): forward and backward each run
    two all-gathers and two reduce-scatters (2 all-reduce units of gathers), full recomputation re-runs the forward's
    two of each (1 more unit of gathers), per-op SAC re-runs only the gathers (torchtitan saves the reduce-scatter
    outputs: 1 unit)."""
    return 2.0 + rec_whole + rec_op


def tp_replicated_cast_elements(m) -> tuple[float, float]:
    """(x, dy) elements per token and layer that torchao casts on the gathered tensor under plain TP (rowwise
    scaling): the attention input and the MLP input (``k`` routed copies, :func:`routed_copies`), the
    output gradients of the attention output and down projections."""
    k = routed_copies(m)
    return m.h + k * m.h, m.h + k * m.h
