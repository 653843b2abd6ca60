"""Memory per GPU: weights, gradients, optimizer states, activations and the rest.

The arithmetic is written once and works on numpy arrays as well as on plain numbers, so the plan
search evaluates many candidate layouts at once with exactly the formulas a single estimate uses.

Sources:

* Model states and ZeRO sharding: Rajbhandari et al. 2020, "ZeRO: Memory Optimizations Toward Training
  Trillion Parameter Models" (arXiv:1910.02054) §3.1 and Figure 1: mixed-precision Adam keeps 2Ψ (fp16
  weights) + 2Ψ (fp16 gradients) + KΨ with K = 12 (fp32 master weights, momentum, variance); stage 1
  shards the K part, stage 2 also the gradients, stage 3 also the weights, each over the
  data-parallel degree N_d.
* Framework conventions (bytes per trainable parameter, mixed precision):
  - ``hf`` — PyTorch autocast as used by the Hugging Face Trainer: fp32 weights (4) + the bf16 copies
    autocast makes and autograd keeps for backward (2) + fp32 gradients (4); no separate master copy.
    Hugging Face Transformers docs, "Model training anatomy" (6 bytes/param weights in mixed precision,
    4 gradients, 8 AdamW). DDP adds gradient buckets the size of all gradients unless
    ``gradient_as_bucket_view`` (PyTorch DistributedDataParallel docs).
  - ``deepspeed`` — the ZeRO paper's layout: 2 + 2 + 12 (DeepSpeed ZeRO docs, "memory requirements").
  - ``megatron`` — bf16 weights (2) + fp32 main gradients (4) + fp32 master (4) + Adam (8) = 18; the
    distributed optimizer shards the 12 optimizer bytes over data parallelism (Megatron-LM
    ``docs/source/distrib_optimizer.md``, table "6 + 12/d"). With ZeRO-3 Megatron runs Megatron-FSDP
    (:mod:`core.megatron_fsdp`): 16-bit (or FP8) compute weights, fp32 main weights, Adam and 16-bit main gradients,
    all sharded; two units' gathered weights and gradients and the embedding/output layer held whole.
  - ``fsdp`` — PyTorch FSDP2 with ``MixedPrecisionPolicy(param_dtype=bf16, reduce_dtype=fp32)``: sharded
    fp32 parameters (4) and gradients (4), AdamW (8); unsharded bf16 parameters of the layer being run
    and the one prefetched (PyTorch FSDP2 ``fully_shard`` docs). As torchtitan applies it: the shard group
    is data × context parallel (``dp_shard_cp`` mesh); with pipeline parallelism the stage's bf16
    parameters stay gathered (``reshard_after_forward = not pp_enabled``) and its gradients accumulate
    unsharded in fp32 until the stage's last backward (``torch.distributed.pipelining`` disables gradient
    sync and resharding per micro-batch; ``FSDPParam.to_accumulated_grad_if_needed`` upcasts to the reduce
    dtype); ZeRO-2 (reshard_after_forward=False) keeps the gathered bf16 copy beside the sharded fp32 one.
    Megatron's distributed optimizer also shards over data × context parallel ranks.
  ``training.master_weights = false`` (torchtune-style pure bf16) keeps weights, gradients and optimizer
  states in bf16.
* Activations: Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer Models"
  (arXiv:2205.05198) §4: per layer ``sbh(34 + 5as/h)`` bytes for a GPT layer, ``sbh(10 + 24/t + 5as/(ht))``
  with tensor parallelism, ``sbh/t·(34 + 5as/h)`` with sequence parallelism, ``2sbh`` with full
  recomputation, and the ``5as²b`` attention-core term removed by selective recomputation; pipeline
  stage 1 holds ``p`` micro-batches of ``L/p`` layers (1F1B), times ``1 + (p−1)/(p·v)`` when interleaved.
  We rebuild the 34 from the tensors each op saves, so SwiGLU (gate, up, act, product: ``4·2sbf``), GQA
  (K and V of ``kv_heads·head_dim``), flash attention (Dao et al. 2022: output plus fp32 log-sum-exp, no
  ``s²`` term), MoE (each token through ``k`` experts) and the frameworks' norm/softmax upcasts follow.
  Korthikanti's formulas stay as written for ``megatron``. For ``hf``/``fsdp``/``deepspeed`` (Hugging Face
  modelling code) the layer is rebuilt from what each PyTorch op saves (RMSNorm fp32 upcasts, SwiGLU's four
  ``f``-wide tensors, GQA K/V, flash log-sum-exp or eager fp32 softmax, fp32 log-softmax of the logits,
  autocast's per-linear bf16 copies, frozen LoRA bases saving nothing) and measured against PyTorch 2.13
  with ``torch.autograd.graph.saved_tensors_hooks`` on Llama, Qwen2, Mistral, Mixtral, Gemma 2 and GPT-2:
  every component within 5% (``tests_validate/``, ``docs/validation_pytorch.md``).
* LoRA: Hu et al. 2021 (arXiv:2106.09685). QLoRA: Dettmers et al. 2023 (arXiv:2305.14314) §3: NF4
  weights (4 bits) with blocksize-64 absmax constants; double quantisation stores them in 8 bits plus a
  fp32 constant per 256 blocks: 0.5 + 8/64/8 + 32/(64·256)/8 bytes per parameter.
* 8-bit AdamW: Dettmers et al. 2022 (arXiv:2110.02861): two 8-bit states per parameter (2 bytes) plus
  block-wise fp32 absmax per 2048 values. Adafactor: Shazeer & Stern 2018 (arXiv:1804.04235): factored
  second moment of ``rows + cols`` values per matrix, no first moment by default.
* Other: CUDA context and library workspaces (a fixed amount, ``assumptions.cuda_context_gib``, default
  0.75 GiB: PyTorch's CUDA context plus cuBLAS workspaces measure 0.5–1 GiB on A100/H100, see Stas Bekman,
  "Machine Learning Engineering", chapter "Training → Model memory usage"); caching-allocator
  fragmentation as a fraction of the rest (``assumptions.fragmentation``, default 5%).
* Allocated, reserved, device. PyTorch's CUDA caching allocator keeps freed blocks for reuse instead of
  returning them to the driver, rounds requests up to block sizes and splits/caches segments
  (PyTorch docs, "CUDA semantics → Memory management": ``memory_allocated()`` counts tensors,
  ``memory_reserved()`` everything the allocator holds; "unused memory managed by the allocator will still show
  as if used in nvidia-smi"). So three figures: *allocated* (peak of live tensors: model states, activations,
  the framework's gather/reduce buffers), *reserved* (allocated plus the fragmentation share: cached free blocks
  and rounding; what torchtitan and most training logs print as "max reserved") and the *device* total
  (reserved plus the CUDA context and the workspaces outside the allocator, e.g. NCCL's communication buffers
  that NCCL allocates itself: NCCL docs, environment variable ``NCCL_BUFFSIZE``, 4 MiB per channel and peer by
  default). The device total is what must fit in the card (``MemoryBreakdown.total``);
  ``assumptions.memory_metric`` says which of the allocator's figures a measurement is compared with.
"""

from __future__ import annotations

from dataclasses import replace as _replace
import math
from functools import lru_cache

import numpy as np

from dataclasses import dataclass
from .arrayops import ops_for as _xp
from . import recompute as rc
from . import fp8 as fp8mod
from . import megatron_fsdp as mfsdpmod
from . import nanotron as _nanotron

from .architecture import ModelArch
from .params import ParamCount, base_linear_params, count_params
from .params import LORA_MLP_TARGETS, adapter_params, dora_largest_weight, lora_io_elements, lora_linears
from .params import attention_linears, layer_norm_params, mlp_linears
from .methods import SFT, MethodProfile, kv_bytes_per_token, kv_cache_tokens
from .frameworks import RL_OFFLOAD_MODEL_TOOLS, checkpoint_nonreentrant, hf_sharded_by_fsdp, pipeline_split
from .frameworks import TRL_SELECTIVE_LOG_SOFTMAX  # noqa: F401 (memory_arrays; importers read it here too)

GIB = float(1024**3)
DEFAULT_CUDA_CONTEXT_GIB = 0.75
DEFAULT_FRAGMENTATION = 0.05
QLORA_NF4_BYTES = 0.5 + 1.0 / 64 + 4.0 / (64 * 256)  # double-quantised NF4 (QLoRA §3)
#: DoRA (PEFT ``tuners/lora/dora.py`` ``DoraLinearLayer.forward``), per token and output element of each adapted
#: linear: ``(mag_norm_scale - 1) * base_result`` saves ``base_result`` (16-bit) and ``mag_norm_scale * lora_result``
#: saves ``lora_result`` (the adapters' dtype: fp32 under PEFT's ``autocast_adapter_dtype``) — both for the
#: magnitude's gradient. Plain LoRA saves neither (its ``* scaling`` and add save nothing).
DORA_SAVED_BYTES_FP32, DORA_SAVED_BYTES_16 = 6.0, 4.0
#: DoRA's weight-norm temporaries, bytes per element of the adapted weight being run: ``lora_weight``, W cast to
#: the adapters' dtype, ``scaling * lora_weight`` and the sum live together inside ``get_weight_norm`` (fp32
#: adapters: 4 x 4; 16-bit: W is not copied, 3 x 2)
DORA_TRANSIENT_BYTES_FP32, DORA_TRANSIENT_BYTES_16 = 16.0, 6.0
#: QLoRA prepared by PEFT's ``prepare_model_for_kbit_training`` (``peft/utils/other.py``: "cast all non INT8
#: parameters to fp32" — every 16-bit parameter that is not a ``Params4bit``), which the HF Trainer recipes, TRL's
#: ``prepare_peft_model`` call (``frameworks.KBIT_PREP_TOOLS``; LLaMA-Factory and Unsloth do not, Axolotl casts back):
#:
#: * the embedding, the LM head (transformers keeps the output layer unquantised: ``get_keys_to_not_convert``) and the
#:   norms are held in fp32: 4 bytes per parameter instead of 2 (:data:`KBIT_FP32_PARAM_BYTES`);
#: * the fp32 norm weights make the norms' outputs fp32 (HF ``LlamaRMSNorm``: ``weight * x.to(input_dtype)``), and
#:   residual adds keep fp32, so the residual stream — the checkpointed layer input — is fp32 (4 bytes, not 2);
#: * a 4-bit linear returns its input's dtype (bitsandbytes ``Linear4bit.forward``: ``matmul_4bit(x.to(compute_dtype),
#:   ...).to(inp_dtype)``), so the MLP's gate, up and act(gate), saved for backward, are fp32
#:   (:data:`KBIT_FP32_MLP_BYTES`); the attention core still saves 16-bit q/k/v (FlashAttention/SDPA cast them);
#: * under autocast the fp32 LM head is cast to 16 bits on every forward and the copy is saved for the input
#:   gradient (autocast caches casts only of leaf tensors that require grad; the frozen head does not): ``2·V·h``
#:   bytes from the head's forward to its backward.
KBIT_FP32_PARAM_BYTES = 4.0
KBIT_FP32_MLP_BYTES = 4.0
RECOMPUTE_CODES = rc.CODES  # policy name (aliases included) → code (core/recompute.py)


@dataclass(slots=True, frozen=True)
class StateBytes:
    """Bytes per parameter of one training-state kind, as resident on the GPU."""

    weight: float  # working weights (incl. autocast copies kept for backward)
    grad: float
    master: float  # fp32 master copy held by the optimizer
    moments: float  # optimizer moments
    ddp_buckets: float = 0.0  # DDP gradient buckets (hf without ZeRO and dp > 1)


def state_bytes(framework: str, precision: str, optimizer: str, master_weights: bool = True,
                fp8_recipe: str | None = None) -> StateBytes:
    """Bytes per trainable parameter by framework convention (see module docstring for sources). FP8: the
    FP8 weight copy the recipe keeps through the step (Transformer Engine: 1 byte; torchao casts on the fly:
    none; core/fp8.py)."""
    moments = {"adamw": 8.0, "adamw_8bit": 2.0 + 8.0 / 2048, "sgd": 4.0, "adafactor": 0.0}[optimizer]
    if precision == "fp32":
        return StateBytes(4.0, 4.0, 0.0, moments, 4.0 if framework == "hf" else 0.0)
    if not master_weights:
        # pure 16-bit: optimizer states follow the parameter dtype (torchtune default recipes)
        return StateBytes(2.0, 2.0, 0.0, moments / 2 if optimizer in ("adamw", "sgd") else moments, 0.0)
    fp8_cache = fp8mod.recipe_for(framework, fp8_recipe).weight_copy if precision == "fp8" else 0.0
    if framework == "hf":
        return StateBytes(6.0 + fp8_cache, 4.0, 0.0, moments, 4.0)
    if framework == "fsdp":
        return StateBytes(4.0 + fp8_cache, 4.0, 0.0, moments, 0.0)
    if framework == "megatron":
        return StateBytes(2.0 + fp8_cache, 4.0, 4.0, moments, 0.0)
    return StateBytes(2.0 + fp8_cache, 2.0, 4.0, moments, 0.0)  # deepspeed (ZeRO paper)


@dataclass(slots=True, frozen=True)
class ModelFacts:
    """Numbers from the architecture that the memory and time formulas need (computed once)."""

    arch: ModelArch
    params: ParamCount
    h: int
    L: int
    heads: int
    q_dim: int
    kv_dim: int  # K (and V) width
    v_dim: int  # V width / attention output width
    f: int
    f_moe: int
    k_active: int
    n_experts: int
    moe_frac: float  # fraction of layers that are MoE
    shared_f: int  # width of shared experts (total)
    V: int
    gated: bool
    dropout: bool
    layer_non_expert: float  # mean params per layer outside routed experts
    layer_expert: float  # mean routed-expert params per layer
    first_extra: int  # embedding params (first pipeline stage)
    last_extra: int  # head + final norm (last stage)
    tied: bool
    adafactor_bytes_per_param: float
    vision_params: float = 0.0  # vision encoder of a vision-language model (placed on the first stage)
    projector_params: float = 0.0  # its projector into the language model

    @property
    def mlp_width(self) -> float:
        """The MLP width one token passes through in the mean decoder layer: ``f`` in a dense layer; in an MoE
        layer its ``k_active`` routed experts' ``f_moe`` plus the shared experts' width; weighted by the layers'
        shares (``moe_frac``). The down projection's input width, the width the MLP's element-wise work runs on."""
        return (1 - self.moe_frac) * self.f + self.moe_frac * (self.k_active * self.f_moe + self.shared_f)


def model_facts(arch: ModelArch, params: ParamCount | None = None) -> ModelFacts:
    p = params or count_params(arch)
    L = arch.num_layers
    layer_total = p.language - p.embedding - p.lm_head - p.final_norm  # the vision part: vision_params below
    if arch.is_mla:
        q_dim = arch.num_heads * (arch.qk_nope_head_dim + arch.qk_rope_head_dim)
        kv_dim = q_dim
        v_dim = arch.num_heads * arch.v_head_dim
    else:
        q_dim = arch.num_heads * arch.head_dim
        kv_dim = arch.num_kv_heads * arch.head_dim
        v_dim = q_dim
    # Adafactor: factored second moment ~ (rows + cols) fp32 values per matrix (Shazeer & Stern 2018)

    ada = 0.0
    n_moe = arch.num_moe_layers
    for moe, n in ((False, L - n_moe), (True, n_moe)):
        if n:
            for lin in attention_linears(arch) + mlp_linears(arch, moe):
                ada += n * lin.count * 4.0 * (lin.fan_in + lin.fan_out)
    ada += 4.0 * (arch.vocab_size + arch.hidden_size) * (1 if arch.tie_word_embeddings else 2)
    return ModelFacts(
        arch=arch, params=p, h=arch.hidden_size, L=L, heads=arch.num_heads, q_dim=q_dim, kv_dim=kv_dim,
        v_dim=v_dim, f=arch.intermediate_size, f_moe=arch.moe_intermediate_size, k_active=arch.num_experts_per_tok,
        n_experts=arch.num_experts, moe_frac=(n_moe / L) if L else 0.0,
        shared_f=arch.moe_intermediate_size * arch.num_shared_experts + arch.shared_expert_intermediate_size,
        V=arch.vocab_size, gated=arch.gated_mlp, dropout=arch.dropout,
        layer_non_expert=(layer_total - p.expert_params) / L, layer_expert=p.expert_params / L,
        first_extra=p.embedding, last_extra=p.lm_head + p.final_norm, tied=arch.tie_word_embeddings,
        adafactor_bytes_per_param=ada / max(p.language, 1), vision_params=p.vision, projector_params=p.projector,
    )


def vision_block_bytes_per_patch(a: ModelArch, precision: str, flash: bool = True, patches_per_image: float = 0.0):
    """Bytes one trained vision-encoder block saves for backward per patch, op by op as autograd saves them in
    the Hugging Face modelling code (``tools/autograd/derivatives.yaml``), measured with ``saved_tensors_hooks``
    on Qwen2-VL, Qwen2.5-VL, CLIP and SigLIP blocks (``tests_validate/test_pytorch_vision.py``: exact):

    * LayerNorm (Qwen2-VL, CLIP, SigLIP): its input (r·w) and mean/rstd (2r); RMSNorm (Qwen2.5-VL,
      ``Qwen2RMSNorm``): the fp32 upcast (4w), rsqrt (4) and the normalised 16-bit tensor (r·w); each norm's
      output is saved once more by the linear reading it (r·w);
    * attention: Qwen-VL's fused ``qkv`` keeps its whole output alive (v is a view of it: 3r·w) and q, k after the
      2-D RoPE (2r·w); CLIP/SigLIP's separate q, k, v (3r·w); the attention output and the projection's input
      (a reshaped copy for Qwen-VL: 2r·w; a view for CLIP/SigLIP: r·w); SDPA/flash adds the fp32 log-sum-exp (4 bytes per head), eager attention the fp32
      softmax and its 16-bit cast over the image's patches (6 bytes per head and key) instead;
    * MLP: QuickGELU written in Python (Qwen2-VL, CLIP: ``x * sigmoid(1.702 x)``) saves fc1's output, the
      sigmoid and the product (3r·i); a native GELU (SigLIP) fc1's output and the GELU output (2r·i); SwiGLU
      (Qwen2.5-VL) gate, up, SiLU output and product (4r·i).
    """
    w, i, h = a.vision_hidden, a.vision_intermediate, a.vision_heads
    r = activation_dtype_bytes(precision)
    if a.vision_norm == "rmsnorm":
        norms = 2 * (4.0 * w + 4.0 + r * w)
    else:
        norms = 2 * (r * w + 2.0 * r)
    norm_out = 2 * r * w
    qkv = (3.0 + 2.0) * r * w if a.vision_kind in ("qwen2_vl", "qwen2_5_vl") else 3.0 * r * w
    if a.vision_qk_norm:
        qkv += 2 * (4.0 * w + 4.0 + r * w)  # InternViT-6B's q/k RMSNorm (as the block norms)
    if a.vision_layer_scale:
        qkv += 2 * r * w  # ls1·x and ls2·x save x (the attention and MLP outputs)
    if flash:
        # Qwen-VL's projection input is a reshaped copy of the attention output; CLIP/SigLIP's is a view of it
        core = (2.0 if a.vision_kind in ("qwen2_vl", "qwen2_5_vl") else 1.0) * r * w + 4.0 * h
    else:
        core = r * w + 6.0 * h * patches_per_image
    if a.vision_gated:
        mlp = 4.0 * r * i
    elif a.vision_kind in ("siglip", "intern_vit"):
        mlp = 2.0 * r * i  # a native GELU
    else:
        mlp = 3.0 * r * i
    return norms + norm_out + qkv + core + mlp


def vision_activation_bytes(m: ModelFacts, patches, tokens, images, mbs, tp, recompute, precision: str, flash,
                            vision_trains: bool, projector_trains: bool):
    """Bytes the vision encoder and projector keep for backward for one micro-batch (``patches`` encoder patches,
    ``tokens`` language-model tokens and ``images`` images per sample).

    A frozen encoder whose input (pixels) needs no gradient saves nothing: autograd records no graph for it
    (PyTorch "Autograd mechanics", requires_grad). A trained encoder saves its blocks'
    (:func:`vision_block_bytes_per_patch`; full recomputation: each block's input, r·w) and the patch
    embedding's input pixels (``in_chans·temporal·patch²`` values per patch) and, for Qwen-VL, the RoPE cos/sin
    tables (fp32, head_dim each per patch). A trained projector (or one
    behind a trained encoder) saves its norm's input and statistics (Qwen-VL merger) or its input features
    (LLaVA), and its hidden layer before and after the GELU."""
    xp = _xp(patches, mbs, tp, recompute, flash)
    a = m.arch
    r = activation_dtype_bytes(precision)
    total = 0.0
    per_image = patches / images if images else 0.0
    if vision_trains:
        fl = xp.asarray(flash, dtype=bool)
        block = xp.where(fl, vision_block_bytes_per_patch(a, precision, True),
                         vision_block_bytes_per_patch(a, precision, False, per_image))
        # the vision tower checkpoints its blocks under the layer-checkpointing policies (HF gradient checkpointing)
        per_layer = xp.where(xp.asarray(recompute) == 2, r * a.vision_hidden, block)
        pixels = r * a.vision_in_chans * a.vision_temporal_patch * a.vision_patch ** 2
        # Qwen-VL's 2-D RoPE: cos and sin per patch in fp32, made once and saved by every block
        rope = 8.0 * a.vision_hidden / a.vision_heads if a.vision_kind in ("qwen2_vl", "qwen2_5_vl") else 0.0
        # CLIP's pre_layrnorm and post_layernorm, SigLIP's post_layernorm: input and statistics
        outer_norms = {"clip": 2, "siglip": 1}.get(a.vision_kind, 0) * (r * a.vision_hidden + 2.0 * r)
        total = total + (a.vision_layers * per_layer + pixels + rope + outer_norms) * patches
    if projector_trains or vision_trains:
        if a.vision_kind in ("qwen2_vl", "qwen2_5_vl"):
            w = a.vision_hidden
            ln = (4.0 * w + 4.0 + r * w) if a.vision_norm == "rmsnorm" else (r * w + 2.0 * r)
            total = total + patches * (ln + r * w) + tokens * 2.0 * r * a.projector_in
        else:
            total = total + tokens * r * (a.projector_in + 2.0 * a.projector_out)
    return total * xp.asarray(mbs, dtype=float) / xp.asarray(tp, dtype=float)


def activation_dtype_bytes(precision: str) -> float:
    """Bytes of one activation element: matmul outputs are 16-bit unless the run is plain fp32."""
    return 4.0 if precision == "fp32" else 2.0


# HF modelling code whose eager softmax runs in the input dtype (``modeling_gpt2.eager_attention_forward``:
# ``softmax(attn_weights, dim=-1)``); Llama-family code upcasts (``softmax(..., dtype=torch.float32)``).
_SOFTMAX_IN_INPUT_DTYPE = ("gpt2",)
# GPT-2's default ``activation_function="gelu_new"`` is ``NewGELUActivation`` (transformers
# ``activations.py``), written in Python: autograd saves x, tanh(·), 1 + tanh(·), 0.5·x and the product.
_PYTHON_GELU = ("gpt2",)
# Gemma's RMSNorm multiplies in fp32 (``(1 + weight.float()) * norm(x.float())``, ``modeling_gemma2.py``)
# and soft-caps attention scores and final logits with tanh (saves the tanh output).
_GEMMA = ("gemma", "gemma2", "gemma3_text")


def _hf_attention_saved(m: ModelFacts, s, flash, act_b: float, autocast, lora: bool, fused_qkv: bool, xp):
    """Bytes per token one HF attention block saves beside its input norm: q, k, v; the output; PEFT's cast
    for o_proj's adapter; the core (flash: the log-sum-exp; eager: repeat_kv's K and V, the softmax and its
    cast, GPT-2's dropout, Gemma's soft-capping) — see :func:`_hf_layer_parts`."""
    mt = m.arch.model_type
    gemma = mt in _GEMMA
    if fused_qkv:
        qkv = act_b * (m.q_dim + 2 * m.kv_dim)  # q, k, v are views of c_attn's output
    else:
        qkv = act_b * (m.q_dim + 2 * m.kv_dim)  # q, k after RoPE, v (GQA: kv heads)
    attn_out = act_b * m.v_dim
    o_copy = xp.where(autocast, 2.0 * m.v_dim, 0.0) if lora else 0.0  # PEFT cast for o_proj's adapter
    lse = 4.0 * m.heads
    flash_core = lse
    # eager: repeat_kv materialises K and V at query width when heads are grouped
    rep_kv = 0.0 if (fused_qkv or m.kv_dim == m.q_dim) else act_b * 2 * (m.q_dim - m.kv_dim)
    sm_b = xp.where(autocast, 4.0, act_b) if mt in _SOFTMAX_IN_INPUT_DTYPE else 4.0
    if m.dropout:
        probs = sm_b + 1.0 + act_b  # softmax output, dropout mask (bool), dropout output
    else:
        probs = sm_b + xp.where(sm_b != act_b, act_b, 0.0)  # softmax output + its cast for P·V
    if gemma:
        probs = probs + act_b  # attention logit soft-capping: tanh output
    eager_core = rep_kv + probs * m.heads * s
    core = xp.where(flash, flash_core, eager_core)
    return qkv, attn_out, o_copy, core


#: LoRA targets that leave o_proj without an adapter (params.lora_linears; "qkv_mlp": Answer.AI fsdp_qlora train.py's
#: "all")
_NO_O_TARGETS = ("mlp", "qv", "qkv_mlp")


def _hf_layer_parts(m: ModelFacts, s, b, flash, act_b: float, autocast, lora_targets: str | None, kbit=False):
    """(replicated, split) bytes one decoder layer of Hugging Face modelling code saves for backward.

    Rebuilt from what each PyTorch op saves (``tools/autograd/derivatives.yaml``) in the HF modules
    (``modeling_llama.py``, ``modeling_qwen2.py``, ``modeling_mixtral.py``, ``modeling_gemma2.py``,
    ``modeling_gpt2.py``) and checked against PyTorch 2.13 with ``saved_tensors_hooks``
    (``tests_validate/``, ``docs/validation_pytorch.md``):

    * RMSNorm (``LlamaRMSNorm``): the fp32 upcast of the input (4h), ``rsqrt`` per token (4), the
      normalised tensor cast back (``r·h``) that ``weight * x`` saves when the weight trains;
      LayerNorm (``native_layer_norm``): input (``r·h``) + mean and rstd (``2r``).
    * The norm's output is saved once by the linears reading it; under autocast each linear casts it
      to bf16 itself (``at::autocast`` caches casts of leaf tensors only), so q, k, v (and gate, up) each
      save a ``2h`` copy. A frozen linear saves only its weight, not its input (LoRA's base layers); PEFT
      casts the input to the adapter's fp32 and autocast back to bf16: one ``2h`` copy per adapted input.
    * Attention: q and k after RoPE (which saves only cos/sin), v; SDPA/flash adds the output and an fp32
      log-sum-exp per head (Dao et al. 2022); eager attention saves ``repeat_kv``'s expanded K and V,
      the softmax output (fp32 in Llama-family code) and its cast back, GPT-2 the dropout mask (1 byte,
      CUDA ``native_dropout``) and dropout output.
    * MLP: SwiGLU/GeGLU saves gate, up, act(gate), product (4f); GPT-2's Python GELU 5 tensors of ``f``
      plus two residual dropout masks; MoE: per routed token the gathered input, fused gate_up, act,
      product and expert output (weighted by the router), and the router's fp32 softmax.

    ``act_b`` is the matmul output dtype size (2, or 4 for fp32); ``autocast`` (fp32 weights under
    ``torch.autocast``) keeps the residual stream and norm outputs in fp32. ``kbit``: a QLoRA base prepared by
    PEFT's ``prepare_model_for_kbit_training`` (:data:`KBIT_FP32_MLP_BYTES`).
    """
    xp = _xp(s, b, flash, autocast, kbit)
    h, sb = m.h, s * b
    arch = m.arch
    mt = arch.model_type
    autocast = xp.asarray(autocast, dtype=bool)
    lora = lora_targets is not None
    # residual-stream bytes: fp32 when fp32 weights run under autocast (embedding and residual adds are
    # not autocast ops); LoRA's base stays 16-bit, only its fp32 adapters are autocast
    r = act_b if lora else xp.where(autocast, 4.0, act_b)
    r = xp.where(kbit := xp.asarray(kbit, dtype=bool) & lora, 4.0, r)  # kbit: fp32 norms, fp32 residual stream
    mlp_trains, o_lora = (not lora) or lora_targets in LORA_MLP_TARGETS, lora and lora_targets not in _NO_O_TARGETS
    fused_qkv = mt in _PYTHON_GELU  # GPT-2 Conv1D c_attn: one linear reads the norm output
    n_attn_in = 1 if fused_qkv else 3
    n_mlp_in = 2 if m.gated else 1
    gemma = mt in _GEMMA

    def norm(weight_trains: bool):
        if arch.norm_type.startswith("layernorm"):
            return r * h + 2.0 * r
        normalised = (4.0 if gemma else r) * h if weight_trains else 0.0
        return 4.0 * h + 4.0 + normalised

    def norm_out(n_consumers: int, consumers_save: bool):
        """Bytes of the norm output saved by the linears that read it."""
        if not consumers_save:
            return 0.0
        # autocast: a bf16 copy per linear (LoRA: PEFT's x.to(fp32 adapter dtype), then autocast's cast)
        return xp.where(autocast, 2.0 * h * n_consumers, r * h)

    rep = norm(not lora) * 2 + norm_out(n_attn_in, lora_targets != "mlp") + norm_out(n_mlp_in, mlp_trains)
    if gemma and arch.norms_per_layer >= 4:
        rep = rep + norm(not lora) * 2  # post-attention and post-feedforward norms (outputs not saved)
    if m.dropout:
        rep = rep + 2.0 * h  # two residual dropout masks, 1 byte each (CUDA native_dropout)
    qkv, attn_out, o_copy, core = _hf_attention_saved(m, s, flash, act_b, autocast, o_lora, fused_qkv, xp)
    # MLP
    if mt in _PYTHON_GELU:
        dense_mlp = act_b * m.f * 5
    elif m.gated:
        dense_mlp = act_b * m.f * (4 if mlp_trains else 3)  # product saved only if down_proj learns
        # kbit: the 4-bit gate and up return fp32 (their input's dtype), so gate, up and act(gate) are fp32; the
        # product reaches down_proj's adapter as autocast's 16-bit copy
        dense_mlp = xp.where(kbit, KBIT_FP32_MLP_BYTES * m.f * 3 + (act_b * m.f if mlp_trains else 0.0), dense_mlp)
    else:
        dense_mlp = act_b * m.f * (2 if mlp_trains else 1)
    moe_mlp = (
        m.k_active * (r * h + act_b * m.f_moe * (4 if m.gated else 2) + act_b * h)
        + act_b * m.shared_f * (4 if m.gated else 2)
        + 4.0 * m.n_experts
    )
    mlp = (1 - m.moe_frac) * dense_mlp + m.moe_frac * moe_mlp
    split = qkv + attn_out + o_copy + core + mlp
    return rep * sb, split * sb


#: Adapted linears whose input is saved anyway without lora_dropout (the attention output: SDPA/flash attention save
#: it for backward and o_proj reads a view of it), so only the dropout's own copy is new there
_LORA_INPUT_SAVED_ELSEWHERE = ("o_proj",)
#: Adapted linears reading one shared input (the norm output, or an expert's gathered input)
_LORA_SHARED_INPUT = {"q_proj": "attn", "k_proj": "attn", "v_proj": "attn", "qkv_proj": "attn", "q_a_proj": "attn",
                      "kv_a_proj_with_mqa": "attn", "gate_proj": "mlp", "up_proj": "mlp", "gate_up_proj": "mlp",
                      "fc1": "mlp"}


@lru_cache(maxsize=256)
def lora_dropout_elements(a, targets: str) -> tuple[float, float]:
    """(adapted, shared) input elements per token over all layers, for :func:`lora_dropout_bytes_per_token`.

    ``adapted``: Σ fan_in of every adapted linear (the experts a token is routed to); ``shared``: Σ fan_in of each
    distinct input that, without dropout, only the adapters save (the norm output read by q/k/v, the MLP input read
    by gate/up, the down projection's input; not o_proj's, which attention saves)."""
    shared = 0.0
    groups: set = set()
    for lin, n_layers in lora_linears(a, targets):
        base = lin.name.split(".")[-1]
        if base in _LORA_INPUT_SAVED_ELSEWHERE:
            continue
        key = (lin.name.rsplit(".", 1)[0] if "." in lin.name else "", _LORA_SHARED_INPUT.get(base, base), n_layers)
        if key not in groups:
            groups.add(key)
            shared += float(lin.fan_in * lin.active * n_layers)
    return lora_io_elements(a, targets)[0], shared  # adapted: the adapters' Σ fan_in (params.lora_io_elements)


def lora_dropout_bytes_per_token(a, targets: str, act_b: float, autocast, xp=np, base_keeps_input: bool = False):
    """Extra bytes per token, per layer on average, that PEFT LoRA saves with ``lora_dropout`` > 0.

    PEFT ``tuners/lora/layer.py``: ``LoraLayer.update_layer`` gives each adapted linear its own
    ``nn.Dropout(p=lora_dropout)`` (``nn.Identity()`` at 0, PEFT's default), and ``Linear.forward`` runs
    ``lora_B(lora_A(dropout(x)))`` after ``x = self._cast_input_dtype(x, lora_A.weight.dtype)``. So every adapted
    linear makes its own copy of its input, which ``lora_A`` saves for its weight gradient, plus the dropout mask
    (CUDA ``native_dropout``: a 1-byte bool, ATen ``derivatives.yaml``). Without dropout the adapters of one input
    share one saved tensor (the frozen base linear saves only its weight).

    * 16-bit (or fp32) weights without autocast: ``(act_b + 1)`` per adapted input element, less the ``act_b`` per
      shared input the model already counts (:func:`lora_dropout_elements`).
    * Autocast over fp32 adapters (the HF Trainer's mixed precision): each adapter already saved its own 16-bit
      cast; only the mask is new: 1 byte per adapted input element.
    * ``base_keeps_input``: bitsandbytes < 0.43.2 keeps each 4-bit linear's input as ``ctx.tensors``
      (``MatMul4Bit.forward``; ``legacy_bnb_4bit``), so the shared input stays held beside the adapters' copies and
      nothing is subtracted.

    Measured exactly with PyTorch's ``saved_tensors_hooks`` on PEFT 0.21 (``tests_validate/test_lora_dropout_memory.py``).
    """
    adapted, shared = lora_dropout_elements(a, targets)
    layers = max(a.num_layers, 1)
    plain = ((act_b + LORA_DROPOUT_MASK_BYTES) * adapted - (0.0 if base_keeps_input else act_b * shared)) / layers
    return xp.where(xp.asarray(autocast, dtype=bool), LORA_DROPOUT_MASK_BYTES * adapted / layers, plain)


#: CUDA ``native_dropout``'s mask: one bool per element (ATen ``native/cuda/Dropout.cu``)
LORA_DROPOUT_MASK_BYTES = 1.0


#: The LoRA layers whose ``lora_B`` keeps its rank-wide input for its weight gradient (``flops.LORA_LAYERS``; issue 35
#: round 15, consist15). PEFT ``tuners/lora/layer.py`` ``Linear.forward``: ``lora_B(lora_A(dropout(x))) * scaling``,
#: so ``lora_B`` (an ``nn.Linear``, ``mm`` in ATen ``derivatives.yaml``: ``mat2: self.t().mm(grad)`` keeps ``self``)
#: saves ``lora_A``'s output, r elements per token; ``* scaling`` multiplies by a Python float (``mul.Scalar``: nothing
#: saved). NeMo AutoModel ``components/_peft/lora.py`` ``LinearLoRA.forward`` (NVIDIA-NeMo/Automodel 507bfb751 and
#: 2013a4dd6): ``self.lora_B(self.lora_A(x) * self.scale)``: ``lora_B`` saves the scaled rank-wide product, the same
#: r elements. ``TritonLinearLoRA`` runs ``LoRATritonFunction``, whose ``setup_context`` saves ``(x, lora_A,
#: lora_B)`` only and recomputes ``A·xᵀ`` in its backward (``lora_db_update_wrapper``): no rank-wide tensor kept.
#: LitGPT before v0.3.1 (Lightning-AI/litgpt ``lit_gpt/lora.py`` at 02153072, ``LoRAQKVLinear.forward``): ``after_A =
#: F.linear(self.lora_dropout(x), self.lora_A)`` then ``F.conv1d(after_A.transpose(-2, -1), lora_B.unsqueeze(-1),
#: groups=…)``, whose weight gradient keeps its input, the same r elements per adapted projection; ``zero_pad``'s
#: ``index_copy`` and ``* self.scaling`` keep no activation (issue 35 round 15, parity15: the layer, added to
#: flops.LORA_LAYERS by ftoos15, had no entry here and every litgpt plan raised KeyError in the memory model).
LORA_KEEPS_RANK_WIDE = {"peft": True, "automodel": True, "automodel_triton": False, "litgpt": True}
#: Where each LoRA layer drops out (``lora_dropout`` > 0): PEFT on each adapter's input (``nn.Dropout`` before
#: ``lora_A``: a copy of the input and its mask, :func:`lora_dropout_bytes_per_token`); NeMo AutoModel on the
#: adapter's output (``PeftConfig.dropout_position = "post"``, the default: ``F.dropout(lora_res)`` after
#: ``lora_B``), which keeps only the 1-byte mask of the fan-out (``native_dropout`` saves ``result1``, the mask, for
#: its backward; ATen ``derivatives.yaml``), and no copy of the input (``lora_A`` saves ``x`` itself, as without
#: dropout). LitGPT as PEFT: ``self.lora_dropout(x)`` on the adapter's input (the same file).
LORA_DROPOUT_ON_OUTPUT = {"peft": False, "automodel": True, "automodel_triton": True, "litgpt": False}


def lora_adapted_count(a, targets: str) -> float:
    """Adapted linears a token passes through, over all layers (the experts it is routed to, for MoE)."""
    return float(sum(lin.active * n_layers for lin, n_layers in lora_linears(a, targets)))


def lora_layer_saved_bytes_per_token(a, targets: str, rank: int, act_b: float, layer: str, lora_dropout: float,
                                     autocast, xp=np, base_keeps_input: bool = False):
    """Bytes per token, per layer on average, that the LoRA adapters of one layer keep for backward beyond the
    inputs the base model already saves: the rank-wide tensor ``lora_B`` saves (:data:`LORA_KEEPS_RANK_WIDE`; in the
    matmul's output dtype, ``act_b``: 16-bit under autocast too, where ``lora_A`` runs in bf16) and, with
    ``lora_dropout`` > 0, what the dropout keeps where the layer drops out (:data:`LORA_DROPOUT_ON_OUTPUT`: the
    fan-out mask; PEFT: :func:`lora_dropout_bytes_per_token`)."""
    layers = max(a.num_layers, 1)
    rank_b = act_b * float(rank) * lora_adapted_count(a, targets) / layers if LORA_KEEPS_RANK_WIDE[layer] else 0.0
    if lora_dropout <= 0.0:
        return rank_b + xp.asarray(autocast, dtype=bool) * 0.0
    if LORA_DROPOUT_ON_OUTPUT[layer]:
        drop = LORA_DROPOUT_MASK_BYTES * lora_io_elements(a, targets)[1] / layers + xp.asarray(autocast) * 0.0
    else:
        drop = lora_dropout_bytes_per_token(a, targets, act_b, autocast, xp, base_keeps_input)
    return rank_b + drop


def lora_fp32_path_bytes_per_token(a, targets: str, rank: int, act_b: float, layer: str, lora_dropout: float,
                                   autocast, xp=np):
    """Bytes per token, per layer on average, that PEFT's fp32 adapters keep for backward beyond
    :func:`lora_layer_saved_bytes_per_token` and the base layer's saved set when no autocast runs
    (``training.mixed_precision_off``: the HF Trainer without ``--bf16``/``--fp16``, frameworks.mixed_precision_
    off_allowed; issue 35 round 17, fixes17, review17 #4).

    PEFT ``src/peft/tuners/lora/layer.py`` ``Linear.forward`` (v0.13.0 f0b066ea l. 581-595: ``x = x.to(lora_A.weight.
    dtype)``; main 5d602fdb l. 1061-1074: ``x = self._cast_input_dtype(x, lora_A.weight.dtype)``; PEFT's
    ``autocast_adapter_dtype=True`` keeps the adapters fp32): the cast
    makes each adapted linear its own fp32 copy of its input (``Tensor.to``: a new tensor per call), ``lora_B(lora_A(
    dropout(x)))``: ``lora_A`` (``mm``, ATen ``derivatives.yaml``: the weight gradient keeps ``self``) saves that
    fp32 copy, or the dropout's fp32 output beside its mask, and ``lora_B`` saves ``lora_A``'s fp32 rank-wide output;
    ``* scaling`` (a Python float), ``result +`` and ``.to(torch_result_dtype)`` save nothing. So per token:

    * the rank-wide input: 4 bytes instead of ``act_b`` (``lora_layer_saved_bytes_per_token`` counts ``act_b``):
      ``(4 − act_b)·r`` per adapted linear;
    * the adapter's input, against what the model already counts: under the autocast reading (one GPU or DDP,
      ``autocast``; each adapter saved autocast's 16-bit cast, 2 bytes) ``(4 − 2)`` per adapted input element;
      without it (Accelerate's FSDP1, where the model reads a bf16 MixedPrecision policy: the adapters share the
      16-bit input) ``(4 − act_b)`` per adapted element with dropout (:func:`lora_dropout_bytes_per_token`'s plain
      case counted the 16-bit dropout output), and without dropout ``4`` per adapted element less the ``act_b``
      per shared input the base layer's set already counts (:func:`lora_dropout_elements`).

    Only PEFT's layer (``layer`` ``peft``): the rule admits the Hugging Face stack alone."""
    if layer != "peft":
        return 0.0 * xp.asarray(autocast, dtype=float)
    adapted, shared = lora_dropout_elements(a, targets)
    layers = max(a.num_layers, 1)
    rank_b = (4.0 - act_b) * float(rank) * lora_adapted_count(a, targets)
    sharded = (4.0 - act_b) * adapted if lora_dropout > 0.0 else 4.0 * adapted - act_b * shared
    return (rank_b + xp.where(xp.asarray(autocast, dtype=bool), (4.0 - 2.0) * adapted, sharded)) / layers


def activation_bytes_per_layer(m: ModelFacts, s, b, tp, sp, flash, recompute, framework: str, *,
                               precision: str = "bf16", autocast=False, lora_targets: str | None = None):
    """Bytes one decoder layer saves for backward for one micro-batch (``s`` tokens per sequence on this
    GPU after context parallelism, ``b`` sequences).

    Returns (stored, full): the stored amount under the layer's policy and the full layer's. A fully
    checkpointed layer (``full``; the checkpointed layers of ``layer_sac``) stores its input only (``2sbh``;
    ``4sbh`` with an fp32 residual stream), ``op_sac`` its input plus the saved op outputs
    (:func:`activation_parts_per_layer`). Works element-wise on numpy arrays (``tp``, ``sp``, ``recompute``,
    ``autocast`` may be arrays).
    """
    keep, ckpt, op, full = activation_parts_per_layer(m, s, b, tp, sp, flash, recompute, framework,
                                                      precision=precision, autocast=autocast,
                                                      lora_targets=lora_targets)
    xp = _xp(s, b, tp, sp, flash, recompute, autocast)
    code = xp.asarray(recompute)
    stored = xp.where((code == rc.FULL) | (code == rc.LAYER_SAC), ckpt, xp.where(code == rc.OP_SAC, op, keep))
    return stored, full


def activation_parts_per_layer(m: ModelFacts, s, b, tp, sp, flash, recompute, framework: str, *,
                               precision: str = "bf16", autocast=False, lora_targets: str | None = None,
                               fp8_te: bool = False, kbit=False, recompute_modules: tuple | None = None):
    """(keep, checkpoint, op_sac, full) bytes of one decoder layer for one micro-batch.

    ``keep``: what the layer saves when it is not checkpointed (Megatron's selective drops the attention
    core's ``s²`` tensors); ``checkpoint``: the layer input a checkpointed layer keeps; ``op_sac``: the input
    plus the outputs torchtitan's per-op policy saves (:func:`recompute.op_sac_plan`: every other bias-free
    matmul output and the SDPA output + fp32 log-sum-exp); ``full``: everything, no policy.

    * ``megatron``: Korthikanti et al. 2022 §4.1 (GPT layer: 34sbh + 5as²b) rebuilt tensor by tensor
      (module docstring), 16-bit activations.
    * ``hf``/``fsdp``/``deepspeed`` (Hugging Face modelling code under each launcher): :func:`_hf_layer_parts`,
      in the run's activation dtype (``precision``); ``autocast`` = fp32 weights under ``torch.autocast``
      (HF Trainer without ZeRO); ``lora_targets`` set for LoRA/QLoRA (frozen base layers save less).
    * ``fp8_te`` (Megatron with a Transformer Engine FP8 recipe): TE's linear saves the FP8 copy of its input
      for the weight-gradient GEMM (``_Linear.forward``: ``saved_inputmat`` / ``saved_inputmat_t`` is the FP8
      tensor unless ``override_linear_precision.wgrad``): the two norm outputs feeding QKV and FC1 and the
      FC2 input drop from 2 bytes to 1; the attention output stays saved in 16-bit by flash attention and the
      projection keeps its own FP8 copy (+1 byte).
    """
    xp = _xp(s, b, tp, sp, flash, recompute, autocast)
    h, sb = m.h, s * b
    code = xp.asarray(recompute)
    hf_style = framework in ("hf", "fsdp", "deepspeed")  # HF modelling code under each launcher
    plan = rc.op_sac_plan(m.arch)
    if hf_style:
        act_b = activation_dtype_bytes(precision)
        rep, split = _hf_layer_parts(m, s, b, flash, act_b, autocast, lora_targets, kbit)
        full = xp.where(sp, (rep + split) / tp, rep + split / tp)
        r = act_b if lora_targets is not None else xp.where(xp.asarray(autocast, dtype=bool), 4.0, act_b)
        r = xp.where(xp.asarray(kbit, dtype=bool) & (lora_targets is not None), 4.0, r)  # fp32 residual (kbit)
        # torch.utils.checkpoint (non-reentrant, the HF default) saves the layer's input
        ckpt = xp.where(sp, r * sb * h / tp, r * sb * h)
        keep = full  # flash: nothing of the attention core to drop; eager HF attention has no selective path
    else:
        act_b = 2.0
        # replicated across TP ranks unless sequence parallelism splits them:
        rep = sb * h * (2 * 2.0 + 4.0 + (2.0 if m.dropout else 0.0))
        # split across TP ranks:
        qkv = 2.0 * sb * (m.q_dim + 2 * m.kv_dim)
        attn_out = 2.0 * sb * m.v_dim
        lse = 4.0 * sb * m.heads  # flash attention: fp32 log-sum-exp per head and token
        scores = (2.0 + (3.0 if m.dropout else 0.0)) * m.heads * s * s * b
        dense_mlp = 2.0 * sb * m.f * (4 if m.gated else 2)
        moe_mlp = (
            m.k_active * sb * (2.0 * h + 2.0 * m.f_moe * (4 if m.gated else 2))
            + 2.0 * sb * m.shared_f * (4 if m.gated else 2)
            + 4.0 * sb * m.n_experts
        )
        mlp = (1 - m.moe_frac) * dense_mlp + m.moe_frac * moe_mlp
        base = qkv + attn_out + mlp
        if fp8_te:
            f_in = m.mlp_width
            rep = rep - 2.0 * sb * h  # the two norm outputs (QKV and FC1 inputs) saved in FP8
            base = base - 1.0 * sb * f_in + 1.0 * sb * m.v_dim  # FC2 input in FP8; projection's own FP8 copy
        full = xp.where(sp, (rep + base + xp.where(flash, lse, scores)) / tp,
                        rep + (base + xp.where(flash, lse, scores)) / tp)
        # selective: the recompute modules (rc.module_terms; Megatron's default: the attention core alone, whose s²
        # tensors are recomputed) free what they re-make in backward
        mod = rc.module_terms(m, recompute_modules, fp8_te)
        core_sel = xp.where(flash, lse, 0.0) if mod["core_attn"] else xp.where(flash, lse, scores)
        sel = code == rc.MEGATRON_SELECTIVE
        keep_core = xp.where(sel, core_sel, xp.where(flash, lse, scores))
        rep_k = rep - xp.where(sel, mod["save_rep"] * sb, 0.0)
        base_k = base - xp.where(sel, mod["save_split"] * sb, 0.0)
        keep = xp.where(sp, (rep_k + base_k + keep_core) / tp, rep_k + (base_k + keep_core) / tp)
        ckpt = xp.where(sp, 2.0 * sb * h / tp, 2.0 * sb * h)
    # per-op SAC (torchtitan): the block input, the saved matmul outputs (column-parallel ones split over TP,
    # row-parallel ones hidden-wide, split only by sequence parallelism) and the SDPA output + log-sum-exp
    sdpa = xp.where(flash, act_b * m.v_dim + 4.0 * m.heads, 0.0)
    op = ckpt + sb * (act_b * plan["saved_split"] + sdpa) / tp + xp.where(
        sp, act_b * sb * plan["saved_rep"] / tp, act_b * sb * plan["saved_rep"])
    return keep, ckpt, op, full


def liger_layer_saving(m: ModelFacts, s, b, lora: bool, act_b: float, r) -> float:
    """Bytes per layer Liger Kernel's fused RMSNorm and SwiGLU save less than HF's modules (``training.liger_kernel``).

    linkedin/Liger-Kernel ``ops/rms_norm.py``: ``LigerRMSNormFunction.forward`` saves the input ``X`` (in its own
    dtype, ``r`` bytes: the residual stream's) and the fp32 ``RSTD`` per row, where HF's ``LlamaRMSNorm`` saves the fp32
    upcast (4h), ``rsqrt`` and, when the weight trains, the normalised tensor (``r·h``): a saving of
    ``(4 − r)·h`` plus ``r·h`` for a trained weight, per norm (two per layer). ``ops/swiglu.py``:
    ``LigerSiLUMulFunction`` saves ``a`` and ``b`` (gate and up) and recomputes SiLU in backward, where HF saves the gate
    (SiLU's input), act(gate) and up: one ``f``-wide tensor less (dense gated MLPs). RMSNorm models only."""
    if not m.arch.norm_type.startswith("rms") or m.arch.model_type in _GEMMA:
        return 0.0
    per_norm = (4.0 - r) * m.h + (0.0 if lora else r * m.h)
    mlp = (1 - m.moe_frac) * act_b * m.f if m.gated else 0.0
    return (2.0 * per_norm + mlp) * s * b


def unsloth_lora_layer_bytes(m: ModelFacts, s, b, act_b: float = 2.0):
    """What one Llama-style decoder layer saves under Unsloth's LoRA kernels (``unsloth/kernels``), per
    micro-batch of ``s × b`` tokens:

    * ``fast_rms_layernorm`` (Triton) saves its input and the fp32 reciprocal RMS per row: ``2h + 4`` per norm,
      two norms;
    * ``LoRA_QKV`` and ``LoRA_MLP`` (``unsloth/kernels/fast_lora.py``) save the normalised input once each
      (``2h``) — not a copy per projection — and ``LoRA_MLP`` the gate and up outputs ``e`` and ``g``
      (``2·2f``); the SwiGLU product is recomputed in its backward (``swiglu_DWf_DW_dfg_kernel``);
    * attention: Q and K after RoPE, V, the output (also the input ``LoRA_W`` saves for ``o_proj``) and the
      flash log-sum-exp (``4`` per head).
    """
    h = m.h
    rep = 2.0 * (act_b * h + 4.0)
    split = (act_b * h + act_b * (m.q_dim + 2 * m.kv_dim) + act_b * m.v_dim + 4.0 * m.heads
             + act_b * h + 2.0 * act_b * m.f)
    return (rep + split) * s * b


#: tools whose preference trainers cast the logits to fp32 themselves: LLaMA-Factory's ``CustomDPOTrainer`` and
#: ``CustomKTOTrainer`` (``src/llamafactory/train/dpo/trainer.py`` ``concatenated_forward``:
#: ``model(...).logits.to(torch.float32)``; ``train/kto/trainer.py`` likewise), then ``get_batch_logps``
#: (``train/trainer_utils.py``: ``torch.gather(logits.log_softmax(-1), ...)``): the saved fp32 log-softmax (4 bytes per
#: logit) and, in backward, ``gather``'s scattered fp32 gradient and the log-softmax's (8), whatever the engine
#: (DeepSpeed included). The same 4 + 8 as TRL's fp32 branch (trl_amp_*_bytes_per_logit); objectives below.
FP32_LOGPS_TOOLS = ("llamafactory",)
FP32_LOGPS_OBJECTIVES = ("dpo", "ipo", "kto", "orpo", "simpo")


def logits_bytes(m: ModelFacts, s, b, tp, framework: str):
    """Output layer: saved logits plus the loss's transient at the start of backward.

    HF: bf16 logits (2sbV) + their fp32 upcast (4sbV, ``ForCausalLMLoss`` calls ``logits.float()``) +
    the fp32 log-softmax output cross-entropy saves (4sbV) coexist at the loss; the first two are freed
    before backward (the Trainer keeps only the loss), whose gradient (4sbV) replaces them: a 10sbV peak.
    Megatron: vocab-parallel cross-entropy over the logits split by TP (Korthikanti §4.1: 4sbv/t), 6 bytes per
    local logit at both ends (``_VocabParallelCrossEntropy``, ``megatron/core/tensor_parallel/cross_entropy.py``):
    the forward makes the fp32 copy inside the autograd function (``calculate_logits_max``: ``.float()``) beside
    the 16-bit logits (2 + 4), turns it into the softmax in place (``exp(..., out=)``, ``div_``) and saves it;
    the backward writes the gradient into that saved softmax in place (``prepare_gradient_calculation_operands``:
    ``grad_input = softmax``; ``calculate_gradients``: ``-=`` and ``mul_``), which autograd casts to the logits'
    16-bit dtype (4 + 2). Before issue 35 round 6: 8 (a separate fp32 gradient), which the published Megatron-LM
    7B and 15B functional-test figures put 1–2 GiB too high.
    """
    if framework == "megatron":
        return 6.0 * s * b * m.V / tp
    return 10.0 * s * b * m.V / tp


def ce_backward_bytes_per_logit() -> float:
    """Bytes per logit live when cross-entropy's backward starts (unchunked, eager; HF ``ForCausalLMLoss`` and
    torchtune's ``TransformerDecoder`` both upcast the logits with ``.float()`` before
    ``F.cross_entropy`` = ``log_softmax`` + ``nll_loss``).

    ``nll_loss_backward`` returns a dense fp32 gradient the size of its input (``at::zeros_like`` then a
    scatter of the weights: PyTorch ``aten/src/ATen/native/cuda/Loss.cu``, ``nll_loss_backward_out_cuda``),
    and ``_log_softmax_backward_data`` writes a new fp32 tensor from it and the saved output
    (``tools/autograd/derivatives.yaml``: ``_log_softmax``); until that node returns, the saved log-softmax
    (4), its gradient (4) and the logits' gradient (4) are live together: 12 bytes per logit. The forward's
    peak is 10 (16-bit logits 2 + fp32 upcast 4 + log-softmax 4), which the backward's replaces."""
    return 12.0


def held_logits_bytes_per_logit() -> float:
    """Bytes per logit a training loop adds to cross-entropy's backward when it still holds the fp32 logits
    (``training.logits_held``): the upcast copy (4) stays referenced beside the saved log-softmax and the two fp32
    gradients of :func:`ce_backward_bytes_per_logit` (12), 16 in all; the forward's peak (10) already counts it.

    prime-rl's SFT trainer at 8718eb143 (``src/prime_rl/trainer/sft/train.py``): ``out = forward(model, ...)``
    (``trainer/model.py`` ``forward`` → ``models/layers/lm_head.py`` ``cast_float_and_contiguous``:
    ``tensor.float().contiguous()``), ``logits = out["logits"]``, the loss, then ``del logits`` ("Delete logits
    before backward pass to avoid memory spike") and ``backward()`` while the dict ``out`` still references them;
    447cafede (2026-03-10, #1850) moved the loss into a helper that ends with ``del out``. Loops that free them:
    the HF Trainer (the upcast lives inside ``ForCausalLMLoss``), torchtitan (``del pred`` before ``backward``,
    ``experiments/forge/example_train.py`` at b5bcd76c6)."""
    return 4.0


def returned_kv_cache_bytes(m: "ModelFacts", s, mbs, tp, n_ck, act_b: float):
    """Bytes of the key/value cache the model's forward builds and returns while training (``training.use_cache``),
    on one rank: K and V of every checkpointed layer (``2 · kv_dim · act_b`` per token and layer).

    transformers' Llama-family decoder layers return ``past_key_value = (key_states, value_states) if use_cache``
    and the model collects them (``next_decoder_cache``) into its output; ``LlamaConfig.use_cache`` defaults to True
    (transformers aea76149 ``configuration_llama.py``). Transformers' own ``gradient_checkpointing_enable`` turns it
    off in training ("use_cache=True is incompatible with gradient checkpointing"), the HF Trainer's path; a loop that
    checkpoints the layers itself does not: llama-recipes wrapped them with FSDP's ``apply_activation_checkpointing``
    and kept the default until #165 (2023-09-05, "Pass use_cache=False when training with FSDP": "saves ~4 GB in
    activation memory and avoids peak memory from being at the end of the forward pass" for Llama-7B). A layer that
    is not checkpointed saves these K and V for its backward anyway (no extra); a checkpointed layer saves only its
    input, so its returned K and V are extra. They live until the output is dropped: through the loss, and through
    the whole backward when the loop keeps the output (``training.logits_held``)."""
    return act_b * 2.0 * m.kv_dim * s * mbs * n_ck / tp


def loss_parallel_bytes_per_logit() -> float:
    """Bytes per local logit live at the peak of DTensor's loss-parallel cross-entropy (torchtitan with tensor
    parallelism: the output layer's logits stay sharded over the vocabulary, ``loss_parallel()``).

    ``torch/distributed/tensor/parallel/loss.py``: the forward ``_log_softmax`` (after the caller's ``.float()``,
    4) makes ``shifted = x − max`` (4) and ``exp(shifted)`` (4) for the sum, then the result (4): 14 with the
    16-bit logits; the backward ``_nll_loss_and_log_softmax_backward`` computes ``(grad_input + exp(x)) *
    grad_output`` from ``grad_input = zeros_like(x)`` (4) and the saved log-softmax ``x`` (4): ``exp(x)`` (4) and
    the sum (4) exist together beside them, 16 bytes per logit, above plain cross-entropy's 12
    (:func:`ce_backward_bytes_per_logit`)."""
    return 16.0


def compiled_loss_bytes_per_logit() -> float:
    """Bytes per logit at a compiled ``F.cross_entropy(logits.float(), labels)``: the 16-bit logits the compiled
    graph saves (it recomputes the fp32 upcast and log-softmax from them and two fp32 values per row) and their
    16-bit gradient, written by one fused kernel: 2 + 2. torchtitan compiles the loss with the model since
    commit bbb1b616 (April 2025: ``build_cross_entropy_loss`` wraps it in ``torch.compile`` when
    ``training.compile``; later ``compile.components = ["model", "loss"]``); the compiled chunk of torchtune's
    chunked loss was measured to save the same (:func:`chunked_loss_bytes_per_logit`)."""
    return 4.0


def megatron_fused_ce_bytes_per_logit() -> float:
    """Bytes per local logit live at the peak of Megatron-Core's fused vocab-parallel cross-entropy, which
    Megatron-SWIFT runs by default (ms-swift ``swift/megatron/arguments/megatron_args.py`` at 3602360:
    ``cross_entropy_loss_fusion: bool = True``, ``cross_entropy_fusion_impl = 'native'``; the model's
    ``compute_language_model_loss`` then calls ``megatron/core/fusions/fused_cross_entropy.py``
    ``fused_vocab_parallel_cross_entropy``).

    Its helpers are decorated with ``megatron.core.jit.jit_fuser``, which is ``torch.compile`` for torch >= 2.2
    (``megatron/core/jit.py``; ms-swift never calls ``disable_jit_fuser``). The forward upcasts the 16-bit logits
    to fp32 and works in place on that copy (``VocabParallelCrossEntropy.calculate_logits_max`` /
    ``calculate_predicted_logits``: subtract the max, ``exp`` into the same tensor, divide by the sum) and saves
    it as the softmax: 2 + 4 bytes at the forward's peak, 4 saved. The backward's in-place update of that saved
    softmax (``calculate_gradients``: subtract 1 at the targets, multiply by the loss gradient, ``.to(bf16)``)
    is functionalised by the compiler: a new fp32 tensor beside the saved one, then the 16-bit gradient:
    4 + 4 + 2 = 10 bytes per logit. Measured on the CPU with megatron-core 0.16.1 and torch 2.13 (peak resident
    memory, ``tests_validate/test_megatron_ce_memory.py``): forward 6, backward 10 compiled; 6 and 6 eager
    (the unfused ``tensor_parallel.vocab_parallel_cross_entropy``, Megatron-LM's default without
    ``--cross-entropy-loss-fusion``, measures 6 and 6 too: :func:`logits_bytes`). Megatron-LM and Megatron-Bridge keep
    :func:`logits_bytes` here (their published rows were not re-checked with the fused loss)."""
    return 10.0


def loss_reserved_extra_bytes_per_logit() -> float:
    """Bytes per logit the caching allocator holds beyond the live tensors at an eager fp32 cross-entropy.

    The allocator serves a request from the smallest cached free block that fits and otherwise grows the pool
    (a new segment, or with expandable segments more pages mapped at the end of the stream's segment:
    ``get_free_block``, ``try_allocate_expandable_block`` in ``c10/cuda/CUDACachingAllocator.cpp``). The loss
    allocates the 16-bit logits (2 bytes per logit), their fp32 upcast (4) and the log-softmax (4) in a row,
    then frees the upcast and, before backward, the logits: a 6-byte hole below the saved log-softmax. The
    backward's first fp32 tensor (``nll_loss``'s gradient; loss parallel: ``zeros_like``, then ``exp``, also
    placed in the hole) fits in it; the next (the log-softmax gradient; loss parallel: the sum) does not fit in
    what is left and goes above: the pool reaches 14 bytes per logit for 12 live (loss parallel: 18 for 16).
    2 bytes per logit, the 16-bit logits' size, in both; not with the compiled, chunked or TRL losses. A free
    segment: in reserved and on the device, not in what fits (:func:`allocator_cache_bytes`; issue 35 round 18)."""
    return 2.0


def allocator_cache_bytes(varlen_cache, loss_hole):
    """Free segments the caching allocator holds at the peak beside the live tensors: the loss segments of an earlier,
    shorter batch (:func:`varlen_cache_bytes_per_logit`) and the eager loss's hole
    (:func:`loss_reserved_extra_bytes_per_logit`, its high-water excess over the live peak).

    Both are in ``max_memory_reserved`` and on the device (``MemoryBreakdown.cached``), not in what ``fits`` is
    judged on: before it reports out-of-memory the allocator frees every cached free segment and retries
    (PyTorch ``c10/cuda/CUDACachingAllocator.cpp``: ``malloc`` → ``release_available_cached_blocks``, then
    ``release_cached_blocks`` → ``release_blocks``, which frees each non-split block with ``release_block`` and,
    with expandable segments, unmaps the free pages of a segment with ``unmap_block``). The hole is a whole
    segment: the freed 16-bit logits, above 10 MiB, got a ``cudaMalloc`` segment of their own (``kMinLargeAlloc``)
    that the backward's larger fp32 tensor could not use. Evidence: prime-rl's 8 × B200 Qwen3-4B 65,536-token SFT
    run finished at 171.5 GiB reserved (96% of the card) where live tensors plus the hole would need 187.6
    (memoos17, issue 35 round 17)."""
    return varlen_cache + loss_hole


def varlen_cache_bytes_per_logit() -> float:
    """Bytes per logit (at the run's longest batch) that the caching allocator keeps cached when batches change
    length from step to step: the fp32 loss tensors' segments cut at an earlier, shorter batch.

    The Hugging Face stack pads each batch to its own longest sample (transformers ``DataCollatorForSeq2Seq`` and
    ``DataCollatorWithPadding``: ``padding=True`` is ``"longest"``; TRL's collators and ms-swift's
    ``Template.data_collator`` pad to the batch's longest too), so without packing the loss's vocabulary-sized
    tensors change size every step. With PyTorch's default fixed segments a request above 10 MiB gets a
    ``cudaMalloc`` segment of its own, rounded to 2 MiB (``kMinLargeAlloc``, ``kRoundLarge``); a cached block
    serves only requests that fit in it (``get_free_block``), and cached segments go back to the driver only
    when a ``cudaMalloc`` fails or on ``empty_cache`` (``release_cached_blocks``), all in PyTorch
    ``c10/cuda/CUDACachingAllocator.cpp``. So when a batch longer than every earlier one comes, its fp32 loss
    tensors find no cached block large enough and get new segments: the fp32 upcast (or TRL's fp32 logits), the
    saved log-softmax and the log-softmax's gradient, 12 bytes per logit (``nll_loss``'s gradient takes the
    upcast's freed segment). The segments cut at the earlier longest batch stay cached beside them; the 16-bit
    requests (2 bytes per logit) fit in those 4-byte-per-logit segments. With samples spread up to the
    cut-off (``max_length``), the earlier longest batch is near it: 12 more bytes per logit at ``seq_len``.
    Every further record near the cut-off adds as much again; one is counted (how many there are depends on
    the data's lengths and order). Reserved and the device figure only: these blocks are free, and the
    allocator releases them and retries before it reports out-of-memory, so what fits does not change. None
    with expandable segments (freed pages are re-used at any size) or where the tensors keep their size
    (packed rows, fixed-length samples)."""
    return 12.0


def varlen_record_fraction(empty_cache_steps: int | None, mean_sample_len: float | None, seq_len: float) -> float:
    """Length of the earlier batch whose loss segments stay cached (:func:`varlen_cache_bytes_per_logit`), as a
    fraction of ``seq_len``, when the run empties the allocator's cache every ``empty_cache_steps`` steps.

    ``torch.cuda.empty_cache()`` returns every cached free segment to the driver (PyTorch
    ``CUDACachingAllocator.cpp`` ``release_cached_blocks``). The Hugging Face Trainer calls it every
    ``TrainingArguments.torch_empty_cache_steps`` optimizer steps (transformers ``Trainer.training_step``: after
    ``compute_loss``, ``if self.args.torch_empty_cache_steps is not None and self.state.global_step %
    self.args.torch_empty_cache_steps == 0``; default ``None``, never); PEFT's ``method_comparison/MetaMathQA/run.py``
    every 10 steps (``ACCELERATOR_EMPTY_CACHE_SCHEDULE``). The segments cut at the run's earlier longest batch are then
    gone by the time its longest batch comes: what is cached beside that batch was cut by the few batches since the
    last release, ordinary ones, whose length is taken at the data's mean sample length. Unset: 1 (the earlier
    record near the cut-off, as without the release)."""
    if empty_cache_steps is None or mean_sample_len is None or seq_len <= 0:
        return 1.0
    return min(1.0, max(0.0, float(mean_sample_len) / float(seq_len)))


def varlen_cache_16bit_bytes_per_logit() -> float:
    """Bytes per logit cached from an earlier, shorter batch when TRL's per-token log-probabilities run in 16 bits
    (the logits stay bf16: DeepSpeed, or a model trained in pure bf16 without the HF Trainer's AMP).

    The same allocator policy as :func:`varlen_cache_bytes_per_logit` (PyTorch ``CUDACachingAllocator.cpp``:
    a request above 10 MiB gets its own segment; a cached block serves only requests that fit in it). TRL's
    ``selective_log_softmax`` (trl/trainer/utils.py; ms-swift's DPO/KTO trainers import it,
    ``swift/rlhf_trainers/rlhf_mixin.py`` ``get_per_token_logps``) takes its 16-bit branch: the whole 16-bit
    logits tensor (2 bytes per logit), then ``F.log_softmax`` row by row, each row's 16-bit output saved for
    backward (2 more, one segment per row). A batch longer than every earlier one finds none of these cached
    segments large enough and gets new ones; the earlier record's stay cached: 4 bytes per logit at ``seq_len``.
    The backward's 16-bit gradients (row gradients, then the stacked logits gradient) fit in the forward's freed
    segments of the same batch and add none. One earlier record is counted, as in the fp32 case."""
    return 4.0


def trl_amp_saved_bytes_per_logit() -> float:
    """Bytes per logit TRL's objectives save under the HF Trainer's mixed precision: the fp32 logits.

    Accelerate's native AMP (``Accelerator.prepare_model`` when ``mixed_precision`` is fp16/bf16 and the run is
    not DeepSpeed or Megatron) wraps the model's forward in ``convert_outputs_to_fp32``
    (``accelerate/utils/operations.py``: every fp16/bf16 tensor of the output gets ``.float()``), so TRL's
    ``selective_log_softmax`` (``trl/trainer/utils.py``) receives fp32 logits and takes its fp32 branch:
    ``torch.gather`` plus a per-row ``torch.logsumexp``, both of which save the fp32 logits for backward
    (``derivatives.yaml``: ``gather`` and ``logsumexp`` keep ``self``). 4 bytes per logit, where the 16-bit
    branch (row-wise ``log_softmax`` in the logits' dtype) saves 2."""
    return 4.0


def chosen_nll_bytes_per_logit(fp32_logits: bool, after_logps: bool = False) -> float:
    """Bytes per logit (of the chosen + rejected logits) that TRL's NLL on the chosen rows adds at the output layer.

    TRL computes it with its own cross-entropy on a copy of the chosen half of the concatenated logits, beside the
    log-probabilities (``selective_log_softmax``) (huggingface/trl v0.19.0 ``trl/trainer/{cpo,orpo,dpo}_trainer.py``):
    ``CPOTrainer.concatenated_forward`` (CPO and SimPO while ``cpo_alpha`` != 0; ``CPOConfig.cpo_alpha`` and ms-swift's
    ``RLHFArguments.cpo_alpha`` default to 1.0) and ``ORPOTrainer.concatenated_forward`` (always: ORPO's NLL term)
    call ``cross_entropy_loss(all_logits[:len_chosen], ...)`` (``[..., :-1, :].contiguous()``, then
    ``nn.CrossEntropyLoss``) before the log-probabilities; ``DPOTrainer.concatenated_forward`` with ``rpo_alpha``
    calls ``F.cross_entropy(torch.flatten(logits[:n, :-1], end_dim=1), ...)`` after them (``after_logps``).
    The half-size copy and its saved log-softmax are in the logits' dtype. Measured on the CPU (PyTorch 2.13,
    ``tests_validate/test_chosen_nll_memory.py``, TRL's ops in TRL's order): with 16-bit logits the peak goes from
    4.0 to 6.0 bytes per logit (both orders); with fp32 logits (the HF Trainer's AMP) from 16.0 to 18.0 when the
    NLL comes first (CPO, SimPO, ORPO) and stays 16.0 when it comes after (DPO: its tensors fit beside the fp32
    branch's two backward gradients)."""
    if not fp32_logits:
        return 2.0
    return 0.0 if after_logps else 2.0


def trl_amp_backward_extra_bytes_per_logit() -> float:
    """Bytes per logit beside the saved fp32 logits at the start of backward, TRL's fp32 branch under AMP.

    The per-row ``logsumexp`` runs over ``for lg in logits`` (``Tensor.__iter__`` = ``unbind(0)``): autograd
    holds every row's fp32 gradient in ``UnbindBackward``'s input buffer until the last row arrives, then
    ``unbind_backward`` stacks them into one full fp32 tensor (4 + 4 while it runs); next ``gather``'s
    backward scatters into a new zero fp32 tensor (``gather_backward``: 4) while the logits are still saved
    and the stacked gradient waits in the input buffer. Either moment: 8 bytes per logit beside the saved 4,
    12 in all (the forward's moment, the 16-bit logits beside their fp32 copy, is 6). Measured on the CPU (peak RSS
    of a fresh process, ``tests_validate/test_trl_logps_memory.py``): 11.95 bytes per logit. The
    ``_get_per_token_logps_and_entropies`` instrumentation in huggingface/trl#3678 (B = 2, 257 kept positions,
    151,665 vocabulary) shows the fp32 copy: its "full logits tensor" of 310 MB is 4 bytes per logit."""
    return 8.0


def unsloth_ce_copy_bytes_per_logit() -> float:
    """Bytes per logit beside the saved 16-bit logits at the forward's end, Unsloth before Cut Cross-Entropy.

    Unsloth's ``Fast_CrossEntropyLoss`` (``unsloth/kernels/cross_entropy_loss.py`` at 6dad5dd, April 2024) runs on
    the 16-bit logits, saves them with the per-row logsumexp (``ctx.save_for_backward(logits, logsumexp, labels)``)
    and returns the gradient written into them in place: 2 bytes per logit from the forward through the head's
    backward. The model still returns the logits (``CausalLMOutputWithPast(logits=logits)``), and under the HF
    Trainer's mixed precision Accelerate's ``convert_outputs_to_fp32`` copies them to fp32 (4), alive until
    ``compute_loss`` returns, before backward. Peak 6 bytes per logit, at the forward's end. Since fa8e59e
    (November 2024) Unsloth uses Cut Cross-Entropy and returns no logits (``loss_kernel`` ``cce``)."""
    return 4.0


def head_gather_bytes(m: ModelFacts, tp, precision: str, master_weights: bool, framework: str,
                      trainable: bool) -> float:
    """ZeRO-3/FSDP at the start of backward: the output projection's gathered weight and its unsharded gradient.

    The head (``V × h``; larger than a block for a big vocabulary: Llama 3 8B's 525M against 218M per block) is
    gathered for the forward's last matmul and stays gathered into backward: torchtitan shards ``[norm, lm_head]``
    as one unit with ``reshard_after_forward`` off ("do not reshard_after_forward the last layers by default
    since FSDP would prefetch them immediately", ``torchtitan/distributed/fsdp.py``); FSDP1 keeps the root unit
    (embeddings, norm, head under Accelerate's transformer wrap policy) gathered from forward to backward;
    torchtune shards ``tok_embeddings`` and ``output`` as their own units (``custom_sharded_layers``) and
    gathers the head again for backward. During the head's backward its 16-bit weight and, when it trains, its
    unsharded 16-bit gradient live (2 + 2 bytes); FSDP2 then reshards the weight and copies the gradient into
    the fp32 reduce-scatter input (``post_backward``: ``reshard`` then ``foreach_reduce``;
    :func:`fsdp_rs_buffer_bytes`: 2 + 4 bytes), the larger of the two; the last block is prefetched meanwhile
    (the caller adds it)."""
    vh = m.V * m.h / tp
    act_b = activation_dtype_bytes(precision)
    if not trainable:
        return act_b * vh
    per = 2.0 * act_b  # weight + gradient, bytes per head parameter
    if framework == "fsdp":
        per = max(per, fsdp_rs_buffer_bytes(1.0, precision, master_weights))
    return per * vh


def qlora_gathered_bytes(m: ModelFacts) -> float:
    """Bytes per parameter of a QLoRA layer gathered by ZeRO-3/FSDP: the 4-bit data and its constants, not a 16-bit
    copy. torchao's ``NF4Tensor.fsdp_pre_all_gather`` (torchtune's QLoRA under FSDP2) all-gathers
    ``quantized_data`` (two 4-bit values a byte), ``quantized_scalers`` (8 bits per 64-value block) and
    ``quantization_factor`` (fp32 per 256 blocks) and rebuilds an ``NF4Tensor`` from them
    (``fsdp_post_all_gather``); bitsandbytes' ``Params4bit`` stored as ``bnb_4bit_quant_storage`` bf16 (the
    PEFT/Accelerate FSDP and DeepSpeed ZeRO-3 guides) is flattened and gathered as that packed storage. The
    layer's norms (and biases) stay 16-bit."""
    layer_params = float(m.layer_non_expert + m.layer_expert) * max(m.L, 1)
    q = min(base_linear_params(m.arch) / max(layer_params, 1.0), 1.0)
    return q * QLORA_NF4_BYTES + (1.0 - q) * 2.0


#: torch's ring attention backward (``torch/distributed/tensor/experimental/_attention.py``,
#: ``_templated_ring_attention_backward``, torch 1963fc8 as torchtitan ran it; the same loop since), what one layer's
#: attention backward holds beside the layer's recomputed activations, in units of the rank's local K/V (K and V,
#: 16-bit, repeated to the query heads: torchtitan ``repeat_kv`` before SDPA): the all-gathered K/V of every rank
#: (the default "allgather" rotater keeps its ``_aggregated_buffer`` for the whole loop: ``cp`` units), dQ in fp32
#: (``grad_query = torch.zeros_like(query, dtype=accum_dtype)``, ``convert_to_f32``: 1), the fp32 dK/dV pair the rank
#: accumulates into (2), its ``torch.cat`` copy being sent to the next rank and the buffer receiving the previous
#: rank's (``permute_tensor``: 2 each), and the step kernel's 16-bit dQ, dK, dV (1.5): ``cp + 8.5``. A judgement
#: from counting the loop's live tensors at its exchange.
CP_RING_BWD_EXTRA_UNITS = 8.5


def cp_ring_backward_bytes(m: ModelFacts, s_local, mbs, tp, cp, xp=np):
    """Bytes torch's ring attention backward holds for one layer (:data:`CP_RING_BWD_EXTRA_UNITS`); 0 at ``cp`` 1."""
    heads = xp.minimum(xp.asarray(tp, dtype=float), float(m.arch.num_heads))
    kv_local = 2.0 * 2.0 * s_local * mbs * m.q_dim / heads
    cp = xp.asarray(cp, dtype=float)
    return xp.where(cp > 1, (cp + CP_RING_BWD_EXTRA_UNITS) * kv_local, 0.0)


def qlora_dequant_bytes(m: ModelFacts, tp) -> float:
    """The 16-bit copy of one frozen 4-bit weight while its matmul runs: torchao ``LinearNF4`` computes
    ``F.linear(input, weight.to(input.dtype))`` in forward and ``grad_output @ weight.to(grad_output.dtype)`` in
    backward (``torchao/dtypes/nf4tensor.py``); bitsandbytes ``MatMul4Bit`` dequantizes with
    ``dequantize_4bit`` the same way. The largest linear of a layer sets it (the MLP's up/gate projection)."""
    a = m.arch
    lins = attention_linears(a) + mlp_linears(a, a.num_moe_layers > 0 and a.num_moe_layers == a.num_layers)
    return 2.0 * max((lin.weight_each for lin in lins), default=0) / tp


def bnb_kept_input_bytes(m: ModelFacts, s, b, act_b: float = 2.0):
    """What one checkpointed layer keeps from its forward to its backward under bitsandbytes older than 0.43.2 and
    non-reentrant checkpointing (``training.legacy_bnb_4bit``): the input of every 4-bit linear.

    Source: bitsandbytes ``bitsandbytes/autograd/_functions.py`` ``MatMul4Bit.forward``, 0.41.0 to 0.43.1, stores
    ``ctx.tensors = (A, B)`` as a plain attribute of the autograd context; ``backward`` never reads ``A`` (its
    ``grad_B`` line is commented out). Commit 9e75374 (PR #1270, "fix QLoRA mem bug: delete useless buffered
    activation", 2024-07-16, first in 0.43.2) stores ``(None, B)`` instead. Non-reentrant ``torch.utils.checkpoint``
    frees only what ops save through ``save_for_backward`` (its saved-tensor hooks); a tensor held as a context
    attribute stays alive with the graph node, from the layer's forward to its backward. Under reentrant
    checkpointing the first forward runs without grad, ``needs_input_grad`` is false and nothing is kept.

    The distinct inputs of a decoder layer's linears, in the compute dtype (``Linear4bit`` casts its input to
    ``compute_dtype``, the tensor ``MatMul4Bit`` receives): the attention input (q/k/v share it), the attention
    output (o_proj, ``q_dim`` wide), the MLP input (gate/up share it) and the down projection's input (``f`` wide;
    MoE layers: the active experts' width, as :func:`memory_arrays`' ``grad_ws``)."""
    f_eff = m.mlp_width
    return act_b * s * b * (2.0 * m.h + m.q_dim + f_eff)


def bnb_unchecked_kept_bytes_per_token(a, targets: str, act_b: float = 2.0) -> float:
    """Bytes per token, per layer on average, that a layer run WITHOUT checkpointing keeps under bitsandbytes older
    than 0.43.2 (``training.legacy_bnb_4bit``) beyond its ordinary saved set.

    ``MatMul4Bit.forward`` (bitsandbytes 0.41.0 to 0.43.1, ``bitsandbytes/autograd/_functions.py``) stores
    ``ctx.tensors = (A, B)`` whenever its input or weight needs a gradient, checkpointed or not (fixed in 9e75374,
    PR #1270, 0.43.2: ``(None, B)``). In a layer that is not checkpointed, the inputs the layer saves anyway cost
    nothing more: those the LoRA adapters save (their ``lora_A`` input; with dropout
    :func:`lora_dropout_bytes_per_token` already keeps the base's copy, ``base_keeps_input``) and o_proj's, which is
    attention's saved output (:func:`lora_dropout_elements`). The other distinct inputs of the 4-bit linears (the MLP
    input read by gate/up and the down projection's input when the MLP is not adapted; the attention input when
    q/k/v are not) stay alive only through ``ctx.tensors``: ``act_b`` bytes per element, the compute dtype
    ``Linear4bit.forward`` casts to. (The checkpointed layers' term is :func:`bnb_kept_input_bytes`.)"""
    every = lora_dropout_elements(a, "all_linear")[1]
    adapted = lora_dropout_elements(a, targets)[1]
    return act_b * max(every - adapted, 0.0) / max(a.num_layers, 1)


def fsdp_no_sync_on(fsdp_no_sync, grad_accum, zero, pp, xp=np):
    """Whether FSDP's gradient sync is off on the accumulation's micro-batches (``training.fsdp_no_sync``).

    torch ``FullyShardedDataParallel.no_sync`` (FSDP1): "FSDP will accumulate the full model gradients (instead of
    gradient shards) until the eventual sync"; FSDP2's ``set_requires_gradient_sync(False)`` likewise keeps each
    parameter's unsharded gradient. Accelerate ``docs/source/concept_guides/gradient_synchronization.md`` (16cb6eb8,
    "no_sync requires additional GPU memory when using FSDP": Mixtral 8x7B on 8 A100-80GB, 69G at accumulation 1,
    OOM at 2). Only with accumulation (more than one micro-batch a step), sharded gradients (``zero`` 2 or 3) and
    no pipeline."""
    return (xp.asarray(bool(fsdp_no_sync), dtype=bool) & (xp.asarray(grad_accum) > 1) & (xp.asarray(zero) >= 2)
            & (xp.asarray(pp) == 1))


def fsdp_lora_unit_params(m: ModelFacts) -> float:
    """Parameters whose gradients FSDP1 holds for LoRA when the adapters share their block's FSDP unit.

    With ``use_orig_params=True`` FSDP1 flattens frozen and trainable parameters into one ``FlatParameter`` that
    requires grad as a whole (torch ``distributed/fsdp/_flat_param.py`` ``_validate_tensors_to_flatten``:
    ``flat_param_requires_grad = flat_param_requires_grad or tensor.requires_grad``; mixed ``requires_grad`` is
    refused only when ``use_orig_params=False``), and the forward's parameter views of that flat parameter require
    grad, so autograd computes, and FSDP reduces and keeps, a gradient over every element of each block's unit.
    Lightning Fabric sets ``use_orig_params=True`` for torch >= 2.0 (``lightning/fabric/strategies/fsdp.py`` at
    2.1.0) and LitGPT wraps each ``Block`` (``finetune/lora.py`` at 8641822); Composer/llm-foundry's FSDP1 wraps
    blocks with ``use_orig_params`` too. The root unit (embedding, final norm, head: no adapter) stays frozen.
    Accelerate under PEFT wraps the adapters as units of their own (``peft.utils.other.fsdp_auto_wrap_policy``) and
    verl's FSDP1 LoRA likewise (core/fsdp1_lora.py): not these."""
    p = m.params
    return float(max(p.language - p.embedding - p.lm_head - p.final_norm, 0))


def bnb_fp16_storage_readers(m: ModelFacts) -> int:
    """How many more 4-bit linears of a decoder layer read a shared input than there are shared inputs: each one casts
    its own copy when the stored 16-bit dtype differs from the compute dtype (``training.bnb_fp16_storage``).

    Source: bitsandbytes ``bitsandbytes/nn/modules.py`` ``Linear4bit.forward`` (0.41.0 onwards): ``x =
    x.to(self.compute_dtype)`` per module, so q, k and v (one ``c_attn``/``qkv_proj`` when fused) and gate and up (one
    ``gate_up_proj`` when fused) each make and pass their own tensor to ``MatMul4Bit``. The attention output and the
    down projection's input have one reader each. MLA (DeepSeek) reads the layer input with its q and kv_a
    projections."""
    a = m.arch
    if a.fused_qkv:
        attn = 1
    elif a.is_mla:
        attn = 2
    else:
        attn = 3
    mlp = 2 if a.gated_mlp and not a.fused_gate_up else 1
    return attn - 1 + mlp - 1


def bnb_fp16_storage_kept_bytes(m: ModelFacts, s, b, act_b: float = 2.0):
    """The extra inputs one checkpointed layer keeps under bitsandbytes < 0.43.2 and non-reentrant checkpointing
    (:func:`bnb_kept_input_bytes`) when the model's unquantised layers are stored fp16 and training runs bf16
    (``training.bnb_fp16_storage``): :func:`bnb_fp16_storage_readers` more ``h``-wide tensors.

    Why fp16: a QLoRA base loaded without ``torch_dtype`` keeps its unquantised layers (embeddings, norms, LM head,
    biases) in fp16. Source: transformers ``quantizers/quantizer_bnb_4bit.py`` ``update_torch_dtype`` (and
    ``modeling_utils.from_pretrained`` before the quantizer classes): "Overriding torch_dtype=None with
    `torch_dtype=torch.float16` due to requirements of `bitsandbytes`". ms-swift v1 did this for Qwen-1 models until
    f52dfd35c ("fix bnb qwen bug", 2024-01-06): ``swift/llm/utils/model.py`` ``get_model_tokenizer_qwen`` set
    ``torch_dtype = None`` and chose the dtype through Qwen's ``config.bf16``. Under bf16 autocast (the HF Trainer's
    ``bf16=True``, no ``prepare_model_for_kbit_training``):

    * the frozen fp16 LM head is cast to bf16 on every forward and the copy is saved for the input gradient, as the
      fp32 head of the kbit path (autocast caches casts only of fp32 leaves that require grad): ``2·V·h`` bytes
      (``memory_arrays``' ``head_copy``);
    * the residual stream is fp16, so each 4-bit linear casts its input to bf16 itself (bitsandbytes ``Linear4bit``);
      under bitsandbytes < 0.43.2 and non-reentrant checkpointing each copy is kept (this function).

    Sizes do not change otherwise (fp16 and bf16 are both 2 bytes)."""
    return act_b * s * b * m.h * bnb_fp16_storage_readers(m)


def compiled_layer_bytes(m: ModelFacts, s, b, act_b: float = 2.0):
    """What a compiled dense SwiGLU block saves for backward (flash/SDPA attention, full fine-tuning, no TP).

    torchtune compiles each block (``training.compile_model``: ``m.compile()`` per ``TransformerSelfAttentionLayer``;
    torchtitan likewise); AOTAutograd's min-cut partitioner then keeps the matmuls' and attention's inputs and
    recomputes the element-wise ops in backward, so the norms' fp32 upcasts, their 16-bit outputs before the
    weight and the SwiGLU activation are not saved. Per token: the two normed inputs (``2h``), the rotated query
    and key and the value (``q + 2kv``), the attention output and its copy in ``o_proj``'s layout (``2v``), gate,
    up and product (``3f``), all 16-bit; the attention's fp32 log-sum-exp per head and the norms' two fp32
    reciprocal RMS values. Measured with ``saved_tensors_hooks`` on the compiled Hugging Face Llama block
    (PyTorch 2.13, inductor, CPU) at three shapes (GQA and MHA): exact (the rotary cos/sin, computed once per
    model, aside); eager saves 1.5 times as much."""
    per_token = act_b * (2 * m.h + m.q_dim + 2 * m.kv_dim + 2 * m.v_dim + 3 * m.f) + 4.0 * (m.heads + 2)
    return per_token * s * b


def chunked_loss_bytes_per_logit(torch_compile: bool, chunks: int = 8) -> float:
    """Bytes per logit at the loss with torchtune's ``CEWithChunkedOutputLoss`` (``num_output_chunks = 8``).

    The model returns the 16-bit logits as a list of chunks (``TransformerDecoder.chunked_output``: no
    ``.float()``), which the recipe holds until the loss is built (2 bytes). Each chunk runs
    ``compute_cross_entropy`` = ``F.cross_entropy(logits.float(), ...)``:

    * eager: ``log_softmax`` saves its fp32 output for every chunk (4), beside the 16-bit logits and the
      fp32 upcast of the chunk being computed (4/chunks): 2 + 4 + 4/8 = 6.5 at the last chunk (the backward,
      after the recipe's ``del logits``, holds less: 4 + one chunk's gradients);
    * compiled (``compile=True``: ``training.compile_loss`` compiles ``compute_cross_entropy`` alone):
      inductor fuses the upcast, log-softmax and gather into reductions over the 16-bit input, which the
      backward graph keeps with the per-row log-sum-exp and recomputes from; the backward writes each chunk's
      16-bit gradient (2/chunks): 2 + 2/8 = 2.25.

    torchtune ``modules/loss/ce_chunked_output_loss.py`` and ``training/_compile.py`` (``compile_loss``);
    the class's own note: "The CE and upcasting have to be compiled together for better performance"."""
    if torch_compile:
        return 2.0 + 2.0 / chunks
    return 2.0 + 4.0 + 4.0 / chunks


def titan_chunked_loss_bytes(m: ModelFacts, tokens, tp, precision: str, compile_loss: bool, trainable: bool,
                             xp=np, chunks: int = 8):
    """Bytes live at the loss with torchtitan's chunked cross-entropy (``ChunkedCELoss``, 786e26f8e, April 2026,
    the default loss of torchtitan's model configs since; now ``ChunkedLossWrapper`` in
    ``torchtitan/components/loss.py``, ``num_chunks = 8``), beside the saved activations.

    Unlike torchtune's chunked loss (:func:`chunked_loss_bytes_per_logit`: every chunk's logits kept for one
    backward), the model stops before the output layer and the wrapper runs ``lm_head`` + cross-entropy +
    ``backward()`` chunk by chunk, so one chunk's logits exist at a time: its 16-bit logits beside the eager
    cross-entropy's backward (:func:`ce_backward_bytes_per_logit`; DTensor's loss parallel under TP,
    :func:`loss_parallel_bytes_per_logit`), or the compiled loss's 16-bit logits and gradient
    (:func:`compiled_loss_bytes_per_logit`; ``compile.components`` with "loss"), over ``chunks``. Beside them:
    ``GradAccumulator``'s fp32 buffer for the hidden states' gradient (4 bytes × tokens × h) and, when the head
    trains, its unsharded gradient accumulated over the chunks without gradient sync
    (``set_requires_gradient_sync(False)`` until the last chunk; FSDP2 accumulates it in the fp32 reduce dtype,
    4 bytes × V × h / tp); the gathered head itself is one of the loss moment's buffers (``loss_bufs``)."""
    act_b = activation_dtype_bytes(precision)
    ce_b = xp.where(xp.asarray(tp) > 1, loss_parallel_bytes_per_logit(), ce_backward_bytes_per_logit())
    per_logit = compiled_loss_bytes_per_logit() if compile_loss else ce_b + act_b
    head_grad = 4.0 * m.V * m.h / tp if trainable else 0.0
    return per_logit / chunks * tokens * m.V / tp + 4.0 * tokens * m.h + head_grad


def head_saved_bytes(m: ModelFacts, s, b, tp, precision: str, autocast=False, lora: bool = False,
                     logps_b: float = 4.0):
    """HF: what the embeddings, final norm, LM head and loss save for backward (no transients).

    ``input_ids`` (int64, saved by the embedding; GPT-2 also position ids and an embedding dropout mask),
    the final norm (as in :func:`_hf_layer_parts`), the LM head's input (a bf16 copy under autocast;
    nothing when the head is frozen, LoRA), Gemma's logit soft-capping tanh output, the fp32 log-softmax
    output (``torch.nn.functional.cross_entropy`` = ``log_softmax`` + ``nll_loss``, ``derivatives.yaml``)
    and the int64 shifted labels. PyTorch 2.13 measurement: ``tests_validate/``.
    """
    xp = _xp(s, b, tp, autocast)
    h, sb, V = m.h, s * b, m.V
    arch = m.arch
    act_b = activation_dtype_bytes(precision)
    autocast = xp.asarray(autocast, dtype=bool)
    r = act_b if lora else xp.where(autocast, 4.0, act_b)
    emb = 8.0
    if arch.position_embedding == "learned":
        emb += 8.0
    if m.dropout:
        emb += 1.0 * h
    if arch.norm_type.startswith("layernorm"):
        fnorm = r * h + 2.0 * r
    else:
        fnorm = 4.0 * h + 4.0 + (0.0 if lora else (4.0 if arch.model_type in _GEMMA else r) * h)
    head_in = 0.0 if lora else xp.where(autocast, 2.0 * h, r * h)
    cap = act_b * V / tp if arch.model_type in _GEMMA else 0.0
    return sb * (emb + fnorm + head_in + cap + logps_b * V / tp + 8.0)


def _autocast_copied_fraction(m: ModelFacts) -> float:
    """Share of the parameters autocast casts to 16-bit (matmul weights and their biases)."""

    a = m.arch
    n_moe = a.num_moe_layers
    norms = (a.num_layers - n_moe) * layer_norm_params(a, False) + n_moe * layer_norm_params(a, True)
    norms += m.params.final_norm
    copied = m.params.language - m.params.embedding - norms
    if m.tied:
        copied += a.vocab_size * a.hidden_size
    return copied / max(m.params.language, 1)


def model_state_arrays(non_expert, expert, w_b, g_b, opt_b, zero, dp, dp_expert):
    """Bytes of weights, gradients and optimizer states on one GPU (ZeRO paper §5, Figure 1).

    ``non_expert``/``expert``: this GPU's parameter counts before ZeRO (after TP/PP/EP splits);
    ``w_b``, ``g_b``, ``opt_b``: bytes per parameter; stage 1 shards the optimizer states, stage 2 also
    the gradients, stage 3 also the weights, over ``dp`` (routed experts over ``dp_expert = dp/ep``).
    Example (ZeRO Table 1, Ψ = 7.5B, N_d = 64, K = 12): stage 1 → (2 + 2 + 12/64)·Ψ = 31.4 GB.
    ``expert`` None: a dense model (no routed experts; the same values as ``expert = 0``, fewer operations).
    """
    xp = _xp(non_expert, expert, w_b, g_b, opt_b, zero, dp, dp_expert)
    zero = xp.asarray(zero)

    def shard(per, on):
        dense = xp.where(on, non_expert * per / dp, non_expert * per)
        if expert is None:
            return dense
        return dense + xp.where(on, expert * per / dp_expert, expert * per)

    return shard(w_b, zero >= 3), shard(g_b, zero >= 2), shard(opt_b, zero >= 1)


def _ceil_div(a, b):
    return -(-a // b)


@dataclass(slots=True, frozen=True)
class MemoryBreakdown:
    """GiB per GPU on the most loaded GPU."""

    weights: float
    gradients: float
    optimizer: float
    activations: float
    other: float
    capacity: float
    headroom: float
    #: models and buffers the training objective adds (core/methods.py), each its own part: ``reference``,
    #: ``reward``, ``critic``, ``rollout_weights``, ``kv_cache`` — present only when the objective holds them
    extra: dict = None

    def __post_init__(self):
        if self.extra is None:
            object.__setattr__(self, "extra", {})

    #: the order parts are listed and stacked in (charts, PDF, ``memory_per_gpu_gib``)
    BASE_PARTS = ("weights", "gradients", "optimizer", "activations", "other")
    EXTRA_PARTS = ("reference", "reward", "critic", "rollout_weights", "kv_cache")

    @property
    def parts(self) -> dict:
        """Every part of this plan, in :attr:`BASE_PARTS` then :attr:`EXTRA_PARTS` order (GiB)."""
        out = {k: getattr(self, k) for k in self.BASE_PARTS}
        out.update({k: float(self.extra[k]) for k in self.EXTRA_PARTS if k in self.extra})
        return out

    allocated: float | None = None  # peak bytes of live tensors (torch.cuda.max_memory_allocated)
    reserved: float | None = None  # peak held by the caching allocator (torch.cuda.max_memory_reserved)
    #: cached free segments (allocator_cache_bytes: earlier, shorter batches' loss segments, the eager loss's hole):
    #: in ``reserved`` and on the device (nvidia-smi), not in :attr:`total`, since the allocator frees them before
    #: an out-of-memory error
    cached: float = 0.0
    #: the last pipeline rank's max allocated (Megatron-LM's logged 'mem-max-allocated-bytes'); = allocated at PP 1
    allocated_last: float | None = None

    @property
    def total(self) -> float:
        """Device memory the plan needs: the allocator's reserved memory plus the CUDA context, library
        workspaces and NCCL buffers outside it (and the objective's extra models). What ``fits`` is judged on."""
        return (self.weights + self.gradients + self.optimizer + self.activations + self.other
                + sum(float(v) for v in self.extra.values()))

    def metric(self, name: str) -> float:
        """The figure a measurement reports (``assumptions.memory_metric``): ``allocated``, ``reserved`` or
        ``device`` (= :attr:`total`); ``allocated_last``: allocated on the last pipeline rank."""
        value = {"allocated": self.allocated, "reserved": self.reserved,
                 "allocated_last": self.allocated if self.allocated_last is None else self.allocated_last}.get(name)
        return self.total + self.cached if value is None else value

    @property
    def fits(self) -> bool:
        return self.total + self.headroom <= self.capacity

    def as_dict(self) -> dict:
        out = dict(self.parts)
        out["total"] = self.total
        if self.allocated is not None:
            out["allocated"] = self.allocated
        if self.reserved is not None:
            out["reserved"] = self.reserved
        return out

    @classmethod
    def from_arrays(cls, arr: dict, capacity: float, headroom: float, index=None,
                    held: tuple = ()) -> "MemoryBreakdown":
        """From :func:`memory_arrays`' output (bytes; element ``index`` of array outputs) with the parts
        ``held`` (:meth:`methods.MethodProfile.models_held`)."""
        def g(k):
            v = np.atleast_1d(np.asarray(arr[k], dtype=float))
            return float(v[0] if (index is None or v.size == 1) else v[index]) / GIB
        return cls(weights=g("weights"), gradients=g("gradients"), optimizer=g("optimizer"),
                   activations=g("activations"), other=g("other"), capacity=capacity, headroom=headroom,
                   extra={k: g(k) for k in held},
                   allocated=g("allocated") if "allocated" in arr else None,
                   reserved=g("reserved") if "reserved" in arr else None,
                   cached=g("allocator_cache") if "allocator_cache" in arr else 0.0,
                   allocated_last=g("allocated_last") if "allocated_last" in arr else None)


def expandable_segments_default(framework: str, fsdp_version: int = 2) -> bool:
    """Whether a framework's launcher turns on the caching allocator's expandable segments.

    PyTorch's default is off (``PYTORCH_CUDA_ALLOC_CONF``, "CUDA semantics → Optimizing memory usage with
    PYTORCH_CUDA_ALLOC_CONF": ``expandable_segments`` defaults to False). torchtitan's launcher sets it
    (``run_train.sh``: ``PYTORCH_ALLOC_CONF="expandable_segments:True"``): the ``fsdp`` framework with FSDP2.
    FSDP1 under Accelerate or Composer (``training.fsdp_version = 1``), Megatron-LM, DeepSpeed, the HF Trainer
    and the tools on them leave PyTorch's default."""
    return framework == "fsdp" and fsdp_version == 2


def allocator_waste(live, fragmentation, expandable: bool):
    """Bytes the caching allocator holds beyond the live tensors at the peak (reserved − allocated).

    Without expandable segments (PyTorch's default) each ``cudaMalloc`` segment is fixed: requests under 1 MiB
    share 2 MiB small-pool segments, requests up to 10 MiB are carved from 20 MiB segments, larger ones get a
    segment of their own rounded up to 2 MiB, and a freed block is split and reused only for requests that
    fit in it (best fit within the stream's pool); blocks freed on one stream are not reused by another
    stream's allocations (PyTorch ``c10/cuda/CUDACachingAllocator.cpp``: ``kSmallSize`` 1 MiB,
    ``kSmallBuffer`` 2 MiB, ``kLargeBuffer`` 20 MiB, ``kMinLargeAlloc`` 10 MiB, ``kRoundLarge`` 2 MiB; "CUDA
    semantics → Memory management"). What is left over as cached free blocks depends on the order of
    allocations; it is modelled as ``fragmentation`` (``assumptions.fragmentation``, default 5%, a judgement)
    of the live memory. With ``expandable_segments:True`` a stream's pool is one segment mapped in 2 MiB pages
    that grows as needed and re-uses freed pages at any size (the PyTorch docs: it "avoids fragmentation"
    for changing allocation sizes): the waste is a page per live tensor at most, ~0 at training scale.
    The collectives' buffers are live tensors (allocated): FSDP's gathered layers and reduce-scatter
    buffers (``memory_arrays``' ``gather``), DeepSpeed's buckets; NCCL's own channel buffers are allocated by
    NCCL outside PyTorch's allocator and belong with the CUDA context (``assumptions.cuda_context_gib``).
    """
    return 0.0 * live if expandable else fragmentation * live


def fsdp_rs_buffer_bytes(layer_params, precision: str, master_weights: bool):
    """FSDP2's reduce-scatter buffers of one layer (``_fsdp_collectives.foreach_reduce``): the unsharded
    gradients autograd produced in the parameters' 16-bit dtype (2 bytes each; freed once copied in) and
    the reduce-scatter input in the reduce dtype (torchtitan ``mixed_precision_reduce = float32``: 4 bytes;
    pure 16-bit training reduces in 16 bits), which FSDP2 keeps until the next reduce-scatter is issued
    (``FSDPCommContext.reduce_scatter_state``)."""
    grad_b = 4.0 if precision == "fp32" else 2.0
    reduce_b = 4.0 if (precision == "fp32" or master_weights) else 2.0
    return (grad_b + reduce_b) * layer_params


#: tools that set their own ``expert_tensor_parallel_size`` default: Megatron-SWIFT declares
#: ``expert_tensor_parallel_size: int = 1`` (modelscope/ms-swift ``swift/megatron/arguments/megatron_args.py`` at
#: 3602360; added in 9f5fcf5c3, 2025-09-24; before it the field was absent and Megatron-LM's "same as TP" held)
TOOL_EXPERT_TP = {"megatron-swift": 1.0}


def gpt_neox_state_bytes(tool: str | None, precision: str, optimizer: str, master_weights: bool, megatron: tuple):
    """Bytes per parameter ``(weight, gradient, master, DDP buckets)`` under GPT-NeoX v1.0 (issue 35 round 10, neox11):
    its Megatron model hands the model states to DeepSpeed (``megatron/training.py`` ``setup_model_and_optimizer``:
    ``deepspeed.initialize`` with the config's fp16/bf16 and ``zero_optimization`` blocks), so DeepSpeed's convention
    holds, as the time model's DeepSpeed ZeRO-1 (core/overlap.py): 16-bit weights and gradients, the fp32 master and
    Adam moments sharded over the data-parallel ranks from ZeRO-1 on, no Megatron fp32 main-gradient buffer; its
    ZeRO-1/2 reduce bucket and the step's fp32 gradient partition are counted in :func:`memory_arrays` (DeepSpeed's
    default ``reduce_bucket_size`` 5e8; the Pythia 6.9B/12B configs set 1.26e9). ``megatron``: the engine's
    convention, returned for every other tool."""
    if tool != "gpt-neox" or precision == "fp32" or not master_weights:
        return megatron
    ds = state_bytes("deepspeed", precision, optimizer, master_weights)
    return ds.weight, ds.grad, ds.master, 0.0


def expert_tp_of(framework: str, tp, expert_tp=None, tool: str | None = None):
    """Tensor parallelism inside each routed expert: the scenario's ``parallel.expert_tp``, else the framework's
    default — Megatron-Core sets ``expert_tensor_parallel_size`` to the tensor-parallel size when it is not given
    (``megatron/training/arguments.py``: "Default is None, which will be set to the value of
    --tensor-model-paralle-size"); DeepSpeed-MoE, torchtitan (``expert_tensor_parallel_degree = 1``) and the HF
    stack keep whole experts on each GPU (1)."""
    if expert_tp is not None:
        return float(expert_tp)
    if tool in TOOL_EXPERT_TP:  # the tool's own default (TOOL_EXPERT_TP)
        return TOOL_EXPERT_TP[tool]
    return tp if framework == "megatron" else 1.0


# long: one vectorised derivation (weights, gradients, optimizer states, activations, buffers) per candidate, in the
#   module docstring's order; later terms reuse earlier ones, and numpy and the scalar path share every line
def memory_arrays(
    m: ModelFacts,
    *,
    method: str,
    precision: str,
    optimizer: str,
    framework: str,
    master_weights: bool,
    seq_len: int,
    lora_rank: int,
    lora_targets: str,
    flash,
    tp,
    pp,
    cp,
    ep,
    dp,
    zero,
    recompute,
    mbs,
    sp,
    grad_accum,
    vpp,
    offload,
    optimizer_in_backward: bool = False,
    activation_offload: bool = False,
    offload_params: bool = False,
    chunked_loss: bool = False,
    torch_compile: bool = False,
    paged_optimizer: bool = False,
    cuda_context_gib: float = DEFAULT_CUDA_CONTEXT_GIB,
    fragmentation: float = DEFAULT_FRAGMENTATION,
    vision_trainable: bool = False,
    projector_trainable: bool = False,
    vision_patches: float = 0.0,
    vision_tokens: float = 0.0,
    vision_images: float = 0.0,
    profile: MethodProfile = SFT,
    gpu_capacity_gib: float = 0.0,
    loss_kernel: str = "standard",
    layer_kernels: str = "hf",
    checkpoint_offload: bool = False,
    recompute_every_n: int = rc.DEFAULT_EVERY_N,
    recompute_num_layers: int | None = None,
    recompute_method: str = "uniform",
    recompute_modules: tuple | None = None,
    fp8_recipe: str | None = None,
    fp8_all_gather: bool | None = None,
    expandable_segments: bool | None = None,
    pipeline_mbs=None,
    expert_tp=None,
    compile_loss: bool = False,
    fsdp_root_embedding: bool = False,
    logits_held: bool = False,
    use_cache: bool = False,
    kbit_fp32: bool = False,
    fp32_logps: bool = False,
    varlen_batches: bool = False,
    varlen_record_frac: float = 1.0,
    legacy_bnb_4bit: bool = False,
    ckpt_tool: str | None = None,
    checkpoint_reentrant: bool | None = None,
    bnb_fp16_storage: bool = False,
    dora: bool = False,
    lora_dropout: float = 0.0,
    lora_layer: str = "peft",
    fsdp_version: int = 2,
    fsdp1_root: bool = False,
    fsdp_no_sync: bool = False,
    fsdp_lora_units: bool = False,
    padding_free: bool = False,
    adamw_foreach: bool = False,
    fsdp2_fp32_base: bool = False,
    no_autocast: bool = False,
):
    """Vectorised memory model. Every per-candidate argument may be a numpy array (broadcast together).

    Returns a dict of arrays in bytes: weights, gradients (those live at the step's peak:
    :func:`gradients_at_peak`; ``gradients_all``: every gradient, as after backward), optimizer, activations,
    other, total, and the parts the training objective adds (:func:`objective_parts`): reference, reward, critic, rollout_weights,
    kv_cache (zero when not held).

    ``profile`` (:mod:`core.methods`): paired objectives run ``seqs_per_example`` sequences per example in one
    forward (activations of ``mbs × 2`` sequences); a value head (reward-model training) replaces the LM head
    (no vocabulary-sized logits). ``loss_kernel``: ``standard``; ``cce`` — the loss computed from the hidden
    states block by block without a logits tensor (Apple Cut Cross-Entropy, Wijmans et al. 2024,
    arXiv:2411.09009, which Unsloth uses; Liger's fused linear cross-entropy likewise): the output layer keeps
    the head's input and its gradient only; ``megatron_fused`` — Megatron-Core's compiled fused cross-entropy
    (:func:`megatron_fused_ce_bytes_per_logit`). ``torch_compile``: compiled blocks (:func:`compiled_layer_bytes`) and,
    with ``chunked_loss``, torchtune's compiled loss (:func:`chunked_loss_bytes_per_logit`). ``paged_optimizer``:
    bitsandbytes' paged states, on the device but outside the allocator's figures. ``kbit_fp32``: the tool prepares a
    QLoRA base with PEFT's ``prepare_model_for_kbit_training`` (:data:`KBIT_FP32_PARAM_BYTES`). ``fp32_logps``: the
    tool casts the logits to fp32 itself before its preference log-probabilities (:data:`FP32_LOGPS_TOOLS`), under
    any engine; otherwise TRL's objectives see fp32 logits only under Accelerate's native AMP
    (:func:`trl_amp_saved_bytes_per_logit`). ``varlen_batches``: the batches change length from step to step
    (unpacked samples shorter than ``seq_len``, padded to each batch's longest): the fp32 loss tensors' segments
    cut at an earlier batch stay cached (:func:`varlen_cache_bytes_per_logit`), in ``reserved`` and
    ``allocator_cache``, not in ``total``; ``varlen_record_frac`` scales them when the cache is emptied every few steps
    (:func:`varlen_record_fraction`). ``legacy_bnb_4bit``: QLoRA on bitsandbytes < 0.43.2, whose 4-bit linears
    keep their inputs through non-reentrant checkpointing (:func:`bnb_kept_input_bytes`; ``ckpt_tool`` and
    ``checkpoint_reentrant`` give the checkpoint kind, ``frameworks.checkpoint_nonreentrant``). ``bnb_fp16_storage``:
    a QLoRA base whose unquantised layers are stored fp16 under bf16 autocast (:func:`bnb_fp16_storage_kept_bytes`).
    """
    # torchtitan's pipeline splits each rank's batch into its own micro-batches (frameworks.pipeline_split)
    mbs, grad_accum = pipeline_split(framework, pp, mbs, grad_accum, pipeline_mbs)
    mbs_examples = mbs
    mbs = mbs * profile.seqs_per_example if profile.seqs_per_example != 1 else mbs
    m_full = m
    if profile.value_head:
        # AutoModelForSequenceClassification(num_labels=1): a hidden×1 score head replaces the LM head
        m = _replace(m, V=1, last_extra=m.last_extra - m.params.lm_head + m.h)
    lf = rl_logit_fraction(profile, framework)
    mh = _replace(m, V=m.V * lf) if lf != 1.0 else m
    xp = _xp(flash, tp, pp, cp, ep, dp, zero, recompute, mbs, sp, grad_accum, vpp, offload)
    tp = xp.asarray(tp, dtype=float)
    pp_i = xp.asarray(pp, dtype=xp.int64)
    pp = pp_i * 1.0
    dp = xp.asarray(dp, dtype=float)
    ep = xp.asarray(ep, dtype=float)
    zero = xp.asarray(zero)
    recompute = xp.asarray(recompute)
    mbs = xp.asarray(mbs, dtype=float)
    sbytes = state_bytes(framework, precision, optimizer, master_weights, fp8_recipe)
    # prepare_model_for_kbit_training's fp32 casts (KBIT_FP32_PARAM_BYTES), in the HF Trainer's mixed precision (the
    # same condition as ``autocast`` below; pure 16-bit recipes such as torchtune's never call it); with ZeRO,
    # DeepSpeed's engine casts the module back to its 16-bit dtype (``_configure_distributed_model``: ``bfloat16()``)
    kbit_on = xp.asarray(bool(kbit_fp32) and method == "qlora" and framework == "hf" and precision != "fp32"
                         and bool(master_weights)) & (zero == 0)
    # torchao enable_fsdp_float8_all_gather: FSDP2 gathers (and holds gathered) weights in FP8 (core/fp8.py)
    # FP8 gathers: torchao's FSDP2 float8 all-gather, or Megatron's --fp8-param-gather (weights kept in FP8)
    gathered_b = 1.0 if (fp8mod.all_gather_in_fp8(framework, precision, fp8_recipe, fp8_all_gather)
                         or fp8mod.megatron_fp8_param_gather(framework, precision, fp8_recipe, fp8_all_gather)) else 2.0
    w_b, g_b, master_b, ddp_b = sbytes.weight, sbytes.grad, sbytes.master, sbytes.ddp_buckets
    # the HF stack's ZeRO 2/3 through Accelerate's FSDP1 plugin instead of DeepSpeed (frameworks.hf_sharded_by_fsdp)
    hf_fs = hf_sharded_by_fsdp(framework, fsdp_version, zero, engine=framework)
    if framework == "hf":
        # With ZeRO on, the HF Trainer hands the model states to DeepSpeed: its convention applies; FSDP's where it
        # shards with FSDP (fp32 sharded parameters and gradients, no separate master copy)
        ds = state_bytes("deepspeed", precision, optimizer, master_weights)
        fs = state_bytes("fsdp", precision, optimizer, master_weights, fp8_recipe)
        w_b = xp.where(hf_fs, fs.weight, xp.where(zero > 0, ds.weight, w_b))
        g_b = xp.where(hf_fs, fs.grad, xp.where(zero > 0, ds.grad, g_b))
        master_b = xp.where(hf_fs, fs.master, xp.where(zero > 0, ds.master, master_b))
        ddp_b = xp.where(zero > 0, 0.0, ddp_b)
    w_b, g_b, master_b, ddp_b = gpt_neox_state_bytes(ckpt_tool, precision, optimizer, master_weights,
                                                     (w_b, g_b, master_b, ddp_b))
    if framework == "hf" and precision != "fp32" and master_weights:
        # autocast copies only what goes through a matmul: not the input embedding (or learned
        # positions) nor the norm weights; a tied head copies the embedding (PyTorch autocast op lists,
        # "Automatic Mixed Precision package"; measured in tests_validate/). The copies live until
        # backward because the matmuls save them; under full recomputation the layers' copies are
        # remade in backward and only the LM head's copy is kept.
        head_frac = m.V * m.h / max(m.params.language, 1)
        copied = xp.where(xp.asarray(recompute) == rc.FULL, head_frac, _autocast_copied_fraction(m))
        w_b = xp.where(zero > 0, w_b, 4.0 + 2.0 * copied)
    # Megatron-FSDP (core/megatron_fsdp.py): sharded compute weights (FP8 under --fp8-param-gather) beside the fp32
    # main weights; main gradients in the compute dtype
    mfsdp = mfsdpmod.applies(framework, zero)
    mfsdp2 = mfsdpmod.applies(framework, zero, 2)  # optim_grads: weights whole, gradients sharded
    if framework == "megatron" and np.any(mfsdp | mfsdp2):
        fp8_gather = gathered_b == 1.0
        w_b = xp.where(mfsdp, mfsdpmod.weight_bytes(precision, fp8_recipe, fp8_gather), w_b)
        g_b = xp.where(mfsdp | mfsdp2, mfsdpmod.grad_bytes(precision), g_b)
    if optimizer == "adafactor":
        moments_b = m.adafactor_bytes_per_param
    else:
        moments_b = sbytes.moments

    L = m.L
    layers_stage = _ceil_div(L, pp_i) * 1.0
    if ckpt_tool == "nanotron":
        # Nanotron balances its stages by cost (core/nanotron.py): the busiest stage holds more than L / pp layers
        layers_stage = xp.where(pp_i > 1, _nanotron.max_stage_layers(m, pp_i), layers_stage)
    # a vision-language model's encoder and projector sit on the first pipeline stage (Megatron-LM LLaVAModel
    # builds the vision model where ``pre_process``): trained ones carry training states like the embedding,
    # frozen ones only their weights (vision_frozen below)
    lora_like = method in ("lora", "qlora")
    v_trained = 0.0 if lora_like else (m.vision_params * bool(vision_trainable)
                                        + m.projector_params * bool(projector_trainable))
    v_frozen = m.vision_params + m.projector_params - v_trained
    first_extra = m.first_extra + v_trained
    extra = xp.where(
        pp_i > 1,
        xp.maximum(first_extra, m.last_extra + (m.first_extra if m.tied else 0)),
        first_extra + m.last_extra,
    )
    expert_tp = expert_tp_of(framework, tp, expert_tp, tool=ckpt_tool)
    non_expert_gpu = (layers_stage * m.layer_non_expert + extra) / tp
    # a dense model: the expert terms are zeros, and adding them changes no value; they are left out
    dense = not m.layer_expert
    expert_gpu = None if dense else layers_stage * m.layer_expert / (ep * expert_tp)
    model_gpu = non_expert_gpu if dense else non_expert_gpu + expert_gpu  # this GPU's parameters before ZeRO
    # the ZeRO/FSDP sharding group: Megatron's distributed optimizer and torchtitan's FSDP shard over the
    # data- and context-parallel ranks together (CP ranks hold the same weights): Megatron-Core
    # ``DistributedOptimizer`` over ``get_data_parallel_group(with_context_parallel=True)``; torchtitan
    # ``parallelize.py`` applies ``fully_shard`` on the ``dp_shard_cp`` mesh
    cp_f = xp.asarray(cp, dtype=float)
    dp_sh = dp * cp_f if framework in ("megatron", "fsdp") else dp
    # Megatron's expert data-parallel group: the GPUs of a stage over ep × expert_tp (parallel_state
    # ``expert_data_parallel``); dp_sh / ep when expert_tp equals tp
    dp_exp = None if dense else xp.maximum(dp_sh * tp / (ep * expert_tp), 1.0)
    # FSDP2 keeps the gathered 16-bit weights from the forward to the end of the step with pipeline
    # parallelism (torchtitan ``reshard_after_forward = not pp_enabled``) and under ZeRO-2
    # (reshard_after_forward=False); with pipeline parallelism it also skips the reduce-scatter until the
    # stage's last backward (``torch.distributed.pipelining`` stage: ``set_requires_gradient_sync(False)``,
    # ``set_reshard_after_backward(False)``, REDUCE_GRAD after all micro-batches) and accumulates the
    # unsharded gradients in the reduce dtype (``FSDPParam.to_accumulated_grad_if_needed``: fp32)
    fsdp_keep = ((framework == "fsdp") | hf_fs) & (zero >= 2) & ((pp_i > 1) | (zero == 2))
    fsdp_pp = (framework == "fsdp") & (zero >= 2) & (pp_i > 1)

    # FSDP's no_sync over the accumulation's micro-batches: unsharded gradients of the trainable units (fsdp_no_sync_on)
    no_sync = fsdp_no_sync_on(fsdp_no_sync, grad_accum, zero, pp, xp)
    if method in ("lora", "qlora"):
        lora_total = adapter_params(m.arch, lora_rank, lora_targets, dora)
        total_params = m.params.language
        scale = model_gpu / total_params  # this GPU's share of the model
        adapters = lora_total * scale
        base_gpu = model_gpu
        # fp32 frozen base: an fp32 run, verl's fp32 actor, or Accelerate < 1.13 upcasting the FSDP2 shards
        # (fsdp2_fp32_base_applies)
        base_bytes_per = 4.0 if (precision == "fp32" or verl_actor_fp32(profile, framework)) else 2.0
        if fsdp2_fp32_base_applies(fsdp2_fp32_base, framework, precision) and method == "lora":
            # the fp32 shards of FULL_SHARD (a kept, gathered layout holds its 16-bit copy: not this)
            base_bytes_per = xp.where(fsdp_keep, base_bytes_per, xp.where(zero >= 3, 4.0, base_bytes_per))
        if method == "qlora":
            lin = base_linear_params(m.arch)
            frozen = (lin * QLORA_NF4_BYTES + (total_params - lin) * xp.where(kbit_on, KBIT_FP32_PARAM_BYTES, 2.0)) * scale
        else:
            frozen = base_gpu * base_bytes_per
        # (FSDP-kept layouts: the whole stage's frozen base stays gathered)
        frozen = xp.where(fsdp_keep, frozen, xp.where(zero >= 3, frozen / dp_sh, frozen))
        # PEFT keeps adapters in fp32 (autocast_adapter_dtype) under mixed precision; pure 16-bit
        # recipes (torchtune) keep them in bf16
        adapter_b = 4.0 if (master_weights or precision == "fp32") else 2.0
        weights = frozen + adapters * adapter_b
        if framework == "hf" and precision != "fp32" and master_weights:
            # autocast's bf16 adapter copies, saved by the adapters' matmuls (remade under full recompute)
            weights = weights + xp.where((zero > 0) | (xp.asarray(recompute) == rc.FULL), 0.0, adapters * 2.0)
        gradients = adapters * adapter_b
        if fsdp_lora_units:
            # LoRA inside its block's FSDP1 unit under use_orig_params=True: the blocks' flat parameters require
            # grad as a whole (fsdp_lora_unit_params), sharded, or unsharded under no_sync
            unit_g = fsdp_lora_unit_params(m) * scale * base_bytes_per
            gradients = gradients + xp.where(zero >= 2, xp.where(no_sync, unit_g, unit_g / dp_sh), 0.0)
        trained_gpu = adapters
        opt = adapters * (moments_b if optimizer != "adafactor" else 8.0)
        opt = xp.where(zero >= 1, opt / dp_sh, opt)
        ddp = xp.where((dp > 1) & (zero == 0), gradients, 0.0) if framework == "hf" else 0.0
    else:
        weights, gradients, opt = model_state_arrays(
            non_expert_gpu, expert_gpu, w_b, g_b, master_b + moments_b, zero, dp_sh, dp_exp)
        trained_gpu = model_gpu
        # FSDP2 kept layouts: sharded fp32 parameters (also under ZeRO-2) beside the unsharded 16-bit copy
        # (added below); with PP the unsharded gradients of the whole stage in the reduce dtype replace the
        # sharded ones
        w_sharded = non_expert_gpu * w_b / dp_sh
        if not dense:
            w_sharded = w_sharded + expert_gpu * w_b / dp_exp
        weights = xp.where(fsdp_keep, w_sharded, weights)
        gradients = xp.where(fsdp_pp, model_gpu * g_b, gradients)
        # under no_sync each rank holds every unit's unsharded gradient, in the dtype the units compute in
        gradients = xp.where(no_sync, model_gpu * activation_dtype_bytes(precision), gradients)
        ddp = xp.where(dp > 1, model_gpu * ddp_b, 0.0)
    if optimizer_in_backward:
        # each parameter is stepped and its gradient freed during backward (``register_post_accumulate_grad_hook``),
        # except a tied embedding: autograd sums the gradients a leaf receives in the node's input buffer before
        # its AccumulateGrad runs, so the output projection's gradient (the first backward computes) waits for the
        # embedding's (the last): one V×h gradient lives through the whole backward
        tied_grad = 0.0 if (method in ("lora", "qlora") or not m.tied) else m.V * m.h / tp * g_b
        gradients = gradients * 0.0 + xp.where(zero >= 2, tied_grad / dp_sh, tied_grad)
    # (verl's offload is per phase: the actor's states are back on the GPU for its update, verl_offload_per_phase)
    opt = opt if verl_offload_per_phase(profile, framework) else xp.where(offload, 0.0, opt)
    # the unsharded 16-bit copy FSDP keeps (fsdp_keep above): on the GPU even with CPU offload
    kept = xp.where(fsdp_keep & (method not in ("lora", "qlora")),
                    model_gpu * min(activation_dtype_bytes(precision), gathered_b), 0.0)
    if offload_params and not verl_offload_per_phase(profile, framework):
        # FSDP CPUOffload(offload_params=True) / ZeRO-3 offload_param: the sharded parameters, their
        # gradients and the optimizer live in CPU memory; the GPU holds the gathered layers (counted below)
        weights, gradients, opt = weights * 0.0, gradients * 0.0, opt * 0.0
    weights = weights + kept
    if v_frozen and not offload_params:
        # frozen vision weights: the working dtype of the framework's weights (fp32 under the HF Trainer's
        # autocast and FSDP's sharded parameters, else 16-bit; LoRA/QLoRA load the model in 16-bit and leave the
        # vision tower unquantised); sharded by ZeRO-3/FSDP, split by TP; CPU-offloaded with the parameters
        if precision == "fp32":
            frozen_b = 4.0
        elif lora_like:
            frozen_b = 2.0
        else:
            frozen_b = xp.minimum(w_b, 4.0)
        vf = v_frozen * frozen_b / tp
        weights = weights + xp.where(fsdp_keep, vf, xp.where(zero >= 3, vf / dp_sh, vf))

    # activations
    s_local = seq_len / xp.asarray(cp, dtype=float)
    hf_style = framework in ("hf", "fsdp", "deepspeed")
    lora_t = lora_targets if method in ("lora", "qlora") else None
    # autocast over fp32 weights: the HF Trainer's mixed precision without ZeRO (with ZeRO, DeepSpeed
    # runs 16-bit weights; FSDP's MixedPrecisionPolicy casts parameters, no autocast)
    autocast = (framework == "hf") & (precision != "fp32") & bool(master_weights) & (zero == 0)
    # fp16-stored unquantised layers under bf16 autocast (bnb_fp16_storage_kept_bytes); PEFT's kbit preparation casts them
    # to fp32 first (kbit_on), which the kbit terms already count
    fp16_mix = (autocast & (bool(bnb_fp16_storage) and method == "qlora" and precision == "bf16")
                & xp.where(kbit_on, False, True))  # not kbit_on (the scalar ops have no logical_not)
    fp8_te = precision == "fp8" and fp8mod.recipe_for(framework, fp8_recipe).library == "te"
    keep, ckpt, op_saved, full_layer = activation_parts_per_layer(
        m, s_local, mbs, tp, sp, flash, recompute, framework, precision=precision, autocast=autocast,
        lora_targets=lora_t, fp8_te=fp8_te and framework == "megatron", kbit=kbit_on,
        recompute_modules=recompute_modules)
    if dora and lora_t is not None:
        # DoRA's saved outputs (DORA_SAVED_BYTES_*), per layer, in every variant of the layer's saved set
        d_out = lora_io_elements(m.arch, lora_t)[1] / max(m.L, 1)
        dora_b = xp.where(autocast, DORA_SAVED_BYTES_FP32, DORA_SAVED_BYTES_16) * d_out * s_local * mbs / tp
        keep, op_saved, full_layer = keep + dora_b, op_saved + dora_b, full_layer + dora_b
    if lora_t is not None and hf_style:
        # what the LoRA layer's adapters keep (lora_layer_saved_bytes_per_token: lora_B's rank-wide input; with dropout
        # PEFT's per-adapter input copies and masks, or AutoModel's fan-out mask), in every saved set of the layer;
        # Unsloth's own LoRA kernels (unsloth_lora_layer_bytes) keep no rank-wide tensor of PEFT's
        drop_b = lora_layer_saved_bytes_per_token(
            m.arch, lora_t, 0 if layer_kernels == "unsloth" else lora_rank, activation_dtype_bytes(precision),
            lora_layer, lora_dropout, autocast, xp,
            method == "qlora" and legacy_bnb_4bit) * s_local * mbs / tp
        keep, op_saved, full_layer = keep + drop_b, op_saved + drop_b, full_layer + drop_b
        if no_autocast:
            # the HF Trainer without --bf16: PEFT's fp32 adapters keep fp32 copies (lora_fp32_path_bytes_per_token)
            fp32_b = lora_fp32_path_bytes_per_token(
                m.arch, lora_t, lora_rank, activation_dtype_bytes(precision), lora_layer, lora_dropout, autocast,
                xp) * s_local * mbs / tp
            keep, op_saved, full_layer = keep + fp32_b, op_saved + fp32_b, full_layer + fp32_b
    full_layer_rc = full_layer  # what a checkpointed block's recomputation holds (compiled_layer_bytes)
    if torch_compile and hf_style and method == "full" and m.moe_frac == 0 and m.gated and precision != "fp8":
        compiled = compiled_layer_bytes(m, s_local, mbs, activation_dtype_bytes(precision))
        c_ok = xp.asarray(flash, dtype=bool) & (tp == 1) & (autocast == False)  # noqa: E712 (arrays)
        keep = xp.where(c_ok, xp.minimum(keep, compiled), keep)
        full_layer_rc = xp.where(c_ok, xp.minimum(full_layer, compiled), full_layer)
    if layer_kernels == "liger" and hf_style:
        # Liger's fused RMSNorm and SwiGLU save less per layer (liger_layer_saving); tp is 1 for these engines
        r_res = act_b_l = activation_dtype_bytes(precision)
        # the residual stream's bytes, as _hf_layer_parts: fp32 under autocast (full) or PEFT's kbit preparation (QLoRA)
        r_res = xp.where(kbit_on, 4.0, act_b_l) if lora_t is not None else xp.where(autocast, 4.0, act_b_l)
        lig = liger_layer_saving(m, s_local, mbs, lora_t is not None, act_b_l, r_res) / tp
        keep, full_layer, full_layer_rc = keep - lig, full_layer - lig, full_layer_rc - lig
    # the policy over the stage's layers (core/recompute.py): checkpointed layers keep their input (one per
    # group under Megatron's uniform method), per-op SAC keeps its saved outputs, the others keep everything
    n_ck, n_groups, group = rc.layer_counts(recompute, layers_stage, recompute_every_n, recompute_num_layers,
                                            recompute_method)
    is_op = recompute == rc.OP_SAC
    stage_stored = xp.where(is_op, layers_stage * op_saved, n_groups * ckpt + (layers_stage - n_ck) * keep)
    if method == "qlora" and legacy_bnb_4bit:
        # bitsandbytes < 0.43.2 keeps each 4-bit linear's input through non-reentrant checkpointing (bnb_kept_input_bytes)
        nonre = checkpoint_nonreentrant(ckpt_tool or framework, checkpoint_reentrant, profile.objective, True, dp, zero)
        kept_in = bnb_kept_input_bytes(m, s_local, mbs, activation_dtype_bytes(precision)) / tp
        kept_in = kept_in + xp.where(fp16_mix, bnb_fp16_storage_kept_bytes(m, s_local, mbs,
                                                                           activation_dtype_bytes(precision)) / tp, 0.0)
        stage_stored = stage_stored + xp.where(nonre, n_ck * kept_in, 0.0)
        # ... and the layers run without checkpointing keep the inputs their saved set does not already hold
        # (bnb_unchecked_kept_bytes_per_token; per-op SAC left as it was)
        unchecked = bnb_unchecked_kept_bytes_per_token(m.arch, lora_t, activation_dtype_bytes(precision))
        stage_stored = stage_stored + xp.where(is_op, 0.0, layers_stage - n_ck) * unchecked * s_local * mbs / tp
    stored = stage_stored / xp.maximum(layers_stage, 1.0)  # per layer, on average
    if layer_kernels == "unsloth" and hf_style and lora_t == "all_linear" and m.moe_frac == 0 and m.gated:
        # Unsloth's LoRA kernels save fewer tensors per layer when it is not checkpointed
        full_layer = unsloth_lora_layer_bytes(m, s_local, mbs, activation_dtype_bytes(precision))
        full_layer_rc = full_layer  # (a checkpointed block recomputes with Unsloth's kernels too)
        stored = xp.where(xp.asarray(recompute) == rc.FULL, stored, full_layer)
    # saved activations live in pinned CPU memory; the GPU keeps roughly the layer being computed and the
    # one being prefetched (torchtune OffloadActivations, double-buffered streams); Unsloth's offloaded
    # gradient checkpointing (``checkpoint_offload``) moves each checkpointed layer input to CPU the same way,
    # when layers are checkpointed
    offloaded = xp.asarray(activation_offload, dtype=bool) | (
        xp.asarray(checkpoint_offload, dtype=bool) & (xp.asarray(n_ck) > 0))
    stored = xp.where(offloaded, stored * xp.minimum(1.0, 2.0 / layers_stage), stored)
    m_micro = xp.asarray(grad_accum, dtype=float)
    inflight = xp.where(pp > 1, xp.minimum(pp, m_micro), 1.0)
    # the first stage's micro-batches in flight at the steady state (pipeline_inflight): the warm-up forwards
    # plus one, never more than the step runs
    first_stage = layers_stage * stored * pipeline_inflight(pp, vpp, m_micro, xp)
    if vision_patches and m.vision_params:
        first_stage = first_stage + inflight * vision_activation_bytes(
            m, vision_patches, vision_tokens, vision_images, mbs, tp, recompute, precision, flash,
            bool(vision_trainable) and not lora_like, bool(projector_trainable) and not lora_like)
    # rematerialised during backward: the checkpointed group's layers (one layer unless Megatron's uniform
    # method groups several), or what per-op SAC did not save of the layer being recomputed
    recomputes = (n_ck > 0) | is_op
    working = xp.where(is_op, xp.maximum(full_layer - op_saved + ckpt, 0.0),
                       xp.where(n_ck > 0, group * full_layer_rc, 0.0))
    if hf_style:
        # ... and, while its MLP runs backward, the gradients of the intermediates beside what the layer
        # saved: d(product) with d(act) and d(up) (SwiGLU; GELU: d(act) and d(fc1)) before the product
        # (saved for down_proj) is released: two f-wide tensors (derivatives.yaml: mul, silu, mm)
        f_eff = m.mlp_width
        grad_ws = 2.0 * activation_dtype_bytes(precision) * s_local * mbs * f_eff / tp
        working = working + xp.where(recomputes, grad_ws, 0.0)
    if method == "qlora":
        # the frozen 4-bit linear being run holds its weight dequantized to 16 bits (qlora_dequant_bytes)
        working = working + qlora_dequant_bytes(m, tp)
    if framework == "fsdp":
        # torch's context-parallel ring (torchtitan): its backward's gathered K/V and fp32 gradients (cp_ring_backward_bytes)
        working = working + cp_ring_backward_bytes(m, s_local, mbs, tp, cp, xp)
    if hf_style:
        act_b = activation_dtype_bytes(precision)
        # TRL's objectives (DPO and its relatives, PPO, GRPO) take per-token log-probabilities with
        # ``selective_log_softmax`` (trl/trainer/utils.py) on the model's logits as they come out, bf16: for 16-bit
        # logits it runs ``log_softmax`` row by row in that dtype ("the logsumexp approach is unstable with
        # bfloat16"), so no fp32 upcast exists and the saved log-softmax is 16-bit; the chosen and rejected
        # completions go through one concatenated forward (profile.seqs_per_example)
        trl = profile.objective in TRL_SELECTIVE_LOG_SOFTMAX
        logps_b = act_b if trl else 4.0
        # ... unless the HF Trainer's mixed precision (Accelerate's native AMP, the ``autocast`` case; not under
        # DeepSpeed) has converted the logits to fp32 first: TRL's fp32 branch saves them (trl_amp_saved_bytes_
        # per_logit) and its backward holds two fp32 gradients beside them (trl_amp_backward_extra_bytes_per_logit)
        trl_amp = xp.asarray(trl and act_b != 4.0 and loss_kernel != "cce") & (
            xp.asarray(autocast, dtype=bool) | bool(fp32_logps))
        # the eager fp32 cross-entropy whose allocation order leaves a hole (loss_reserved_extra_bytes_per_logit)
        eager_ce = xp.asarray(not trl and act_b != 4.0 and not chunked_loss
                              and loss_kernel not in ("cce", "unsloth_ce")) & (tp > 0)
        out_saved = head_saved_bytes(mh, s_local, mbs, tp, precision, autocast, lora_t is not None, logps_b)
        # at the loss the logits (act_b) and, unless already fp32 (or TRL's), their fp32 upcast exist beside the
        # saved log-softmax output: 10sbV in 16-bit (see logits_bytes)
        upcast = 0.0 if (trl or act_b == 4.0) else 4.0
        out_layer = out_saved + (act_b + upcast) * s_local * mbs * mh.V / tp
        if trl:
            amp_saved = head_saved_bytes(mh, s_local, mbs, tp, precision, autocast, lora_t is not None,
                                         trl_amp_saved_bytes_per_logit())
            amp_layer = amp_saved + xp.maximum(act_b, trl_amp_backward_extra_bytes_per_logit()) * (
                s_local * mbs * mh.V / tp)
            out_saved = xp.where(trl_amp, amp_saved, out_saved)
            out_layer = xp.where(trl_amp, amp_layer, out_layer)
            if profile.chosen_nll and not fp32_logps:
                # TRL's NLL on the chosen half (CPO/SimPO cpo_alpha, ORPO, DPO rpo_alpha): its copy of the chosen
                # logits, their log-softmax and their gradients (chosen_nll_bytes_per_logit); not LLaMA-Factory,
                # whose trainers take the NLL from the same log-probabilities (fp32_logps)
                after = profile.objective in ("dpo", "ipo")  # DPOTrainer: rpo's cross-entropy after the logps
                nll_b = xp.where(trl_amp, chosen_nll_bytes_per_logit(True, after), chosen_nll_bytes_per_logit(False))
                out_layer = out_layer + nll_b * (s_local * mbs * mh.V / tp)
        if trl and verl_offload_per_phase(profile, framework):
            # verl's actor: flash-attn's cross-entropy on the 16-bit logits and the compiled entropy (verl_loss_
            # bytes_per_logit), over every token (rl_logit_fraction)
            out_layer = out_saved + (verl_loss_bytes_per_logit(padding_free) - logps_b) * (s_local * mbs * mh.V / tp)
        if not trl:
            # ... and at the start of backward (ce_backward_bytes_per_logit) the fp32 gradients of the saved
            # log-softmax and of the logits exist beside it: 12 bytes per logit in 16-bit, above the forward's 10;
            # torchtitan under tensor parallelism runs DTensor's loss-parallel cross-entropy (16: loss_parallel_
            # bytes_per_logit)
            ce_b = xp.where((framework == "fsdp") & (tp > 1), loss_parallel_bytes_per_logit(),
                            ce_backward_bytes_per_logit())
            # a loop that still holds the fp32 logits through the backward (held_logits_bytes_per_logit)
            ce_b = ce_b + (held_logits_bytes_per_logit() if logits_held else 0.0)
            out_layer = out_saved + xp.maximum(act_b + upcast, ce_b - 4.0) * (s_local * mbs * mh.V / tp)
            # a compiled loss (compiled_loss_bytes_per_logit; torchtitan's default with compile, estimate.
            # compile_loss_of; a user's explicit choice elsewhere); not under loss parallel / tensor parallelism
            if compile_loss and upcast:
                c_saved = head_saved_bytes(mh, s_local, mbs, tp, precision, autocast, lora_t is not None, act_b)
                c_layer = c_saved + (compiled_loss_bytes_per_logit() - act_b) * (s_local * mbs * mh.V / tp)
                out_saved = xp.where(tp == 1, c_saved, out_saved)
                out_layer = xp.where(tp == 1, c_layer, out_layer)
                eager_ce = eager_ce & (tp > 1)
    else:
        out_saved = 4.0 * s_local * mbs * mh.V / tp + 4.0 * s_local * mbs * m.h
        out_layer = logits_bytes(mh, s_local, mbs, tp, framework) + 4.0 * s_local * mbs * m.h
        if loss_kernel == "megatron_fused":
            # Megatron-Core's fused cross-entropy, compiled (megatron_fused_ce_bytes_per_logit): its backward
            # holds the saved fp32 softmax, the compiled gradient's fp32 copy and the 16-bit gradient
            out_layer = (megatron_fused_ce_bytes_per_logit() * s_local * mbs * mh.V / tp
                         + 4.0 * s_local * mbs * m.h)
        eager_ce = xp.asarray(False) & (tp > 0)
    if chunked_loss and framework == "fsdp":
        # torchtitan's ChunkedCELoss: lm_head + loss + backward one chunk at a time (titan_chunked_loss_bytes)
        out_layer = titan_chunked_loss_bytes(mh, s_local * mbs, tp, precision, compile_loss, not lora_like, xp)
    elif chunked_loss:
        # torchtune CEWithChunkedOutputLoss (chunked_loss_bytes_per_logit): compiled, the 16-bit logits and one
        # chunk's gradient; eager, every chunk's fp32 log-softmax is saved beside the 16-bit logits
        out_layer = (chunked_loss_bytes_per_logit(torch_compile) * s_local * mbs * mh.V / tp
                     + 4.0 * s_local * mbs * m.h)
    if loss_kernel == "cce":
        # no logits tensor: the head's input (saved) and its gradient, plus the loss's per-token fp32 values
        out_saved = head_saved_bytes(_replace(mh, V=0), s_local, mbs, tp, precision, autocast, lora_t is not None)
        out_layer = out_saved + (2.0 * m.h + 8.0) * s_local * mbs
    if loss_kernel == "unsloth_ce":
        # Unsloth before Cut Cross-Entropy (unsloth_ce_copy_bytes_per_logit): the 16-bit logits saved by its Triton
        # loss, and at the forward's end Accelerate's fp32 copy of them in the output (HF Trainer's AMP only)
        out_saved = head_saved_bytes(mh, s_local, mbs, tp, precision, autocast, lora_t is not None,
                                     activation_dtype_bytes(precision))
        out_layer = out_saved + xp.where(xp.asarray(autocast, dtype=bool), unsloth_ce_copy_bytes_per_logit(),
                                         0.0) * (s_local * mbs * mh.V / tp)
    # kbit under autocast: the fp32 LM head's 16-bit copy, saved by its matmul until the head's backward
    head_copy = xp.where(kbit_on | fp16_mix, 2.0 * m.V * m.h / tp, 0.0) if method == "qlora" else 0.0
    out_saved = out_saved + head_copy
    out_layer = out_layer + head_copy
    # the loss's transients (logits, log-softmax and their gradients) are freed once the output layer's backward
    # is done, before backward reaches the last block and recomputes it: the two never coexist, the larger counts
    # (autograd runs the loss's and the head's nodes first; a node's saved tensors are released when it returns),
    # except the head's output: the gradient of the last hidden state, which the last block's backward takes in
    grad_h = activation_dtype_bytes(precision) * s_local * mbs * m.h
    # the model's output while it is referenced: its key/value cache (use_cache: returned_kv_cache_bytes) until the
    # loss, and, when the loop keeps the output (logits_held), that cache and the fp32 logits through the backward
    kv_out = returned_kv_cache_bytes(m, s_local, mbs, tp, n_ck, activation_dtype_bytes(precision)) if (
        use_cache and hf_style) else 0.0
    out_layer = out_layer + kv_out
    back_held = (kv_out + held_logits_bytes_per_logit() * s_local * mbs * mh.V / tp) if (
        logits_held and hf_style) else 0.0
    tail = xp.maximum(out_layer, working + grad_h + back_held)
    # FSDP1 with LoRA's frozen block units under reentrant checkpointing keeps every recomputed block's input
    # gradient to the end of backward (fsdp1_frozen_unit_grads_held): at the first block's backward, beside its
    # recompute, the gradients of the blocks above it
    fsdp1_on = hf_fs | ((framework == "fsdp") & bool(fsdp1_root) & (zero >= 2))
    held_on = fsdp1_on & fsdp1_frozen_units_hold_grads(
        lora_like, bool(fsdp_lora_units), np.logical_not(checkpoint_nonreentrant(
            ckpt_tool or framework, checkpoint_reentrant, profile.objective, True, dp, zero)))
    held_on = held_on & (xp.asarray(n_ck) >= layers_stage) & (pp_i == 1)
    held_phase = xp.where(held_on, working + fsdp1_frozen_unit_grads_held(layers_stage, xp) * grad_h + back_held,
                          0.0)
    tail = xp.maximum(tail, held_phase)
    if dora and lora_t is not None:
        # DoRA's weight-norm temporaries (DORA_TRANSIENT_BYTES_*) of the largest adapted weight, beside the saved set
        tail = xp.maximum(tail, xp.where(autocast, DORA_TRANSIENT_BYTES_FP32, DORA_TRANSIENT_BYTES_16)
                          * dora_largest_weight(m.arch, lora_t) / tp)
    # torch.distributed.pipelining's per-micro-batch stage buffers (pipeline_stage_buffer_bytes), torchtitan only
    io_first, io_last = pipeline_stage_buffer_bytes(
        activation_dtype_bytes(precision) * s_local * mbs * m.h / xp.where(sp, tp, 1.0), m_micro,
        xp.asarray(vpp, dtype=float), xp)
    io_on = (framework == "fsdp") & (pp > 1)
    first_stage = first_stage + xp.where(io_on, io_first, 0.0)
    # the last rank: one micro-batch under 1F1B; under the interleaved schedule its (vpp − 1)·pp warm-up forwards
    # (pipeline_inflight_last)
    last_stage = (layers_stage * stored * pipeline_inflight_last(pp, vpp, m_micro, xp)
                  + xp.where(io_on, io_last, 0.0) + tail)
    acts = xp.where(pp > 1, xp.maximum(first_stage + working, last_stage), first_stage + tail)
    # the last pipeline rank's own peak (assumptions.memory_metric = "allocated_last"): Megatron-LM logs
    # 'mem-max-allocated-bytes' from its tensorboard writer, which only the last rank holds
    # (megatron/training/global_vars.py _set_tensorboard_writer: rank == world_size − 1; training.py training_log:
    # torch.cuda.memory_stats()["allocated_bytes.all.peak"]), and under 1F1B that rank holds one micro-batch
    acts_last = xp.where(pp > 1, last_stage, first_stage + tail)
    # the caching allocator's high-water mark at the loss (loss_reserved_extra_bytes_per_logit): reserved, not live
    loss_hw = xp.where(eager_ce, loss_reserved_extra_bytes_per_logit() * s_local * mbs * mh.V / tp, 0.0)
    # the fp32 loss tensors' segments cached from an earlier, shorter batch (varlen_cache_bytes_per_logit)
    fp32_loss = eager_ce | trl_amp if (hf_style and trl) else eager_ce
    varlen_cache = xp.where(fp32_loss & bool(varlen_batches) & (tp > 0),
                            varlen_cache_bytes_per_logit() * s_local * mbs * mh.V / tp, 0.0)
    # ... or, for TRL's 16-bit branch (no AMP: DeepSpeed, pure bf16), its 16-bit loss tensors' segments
    # (varlen_cache_16bit_bytes_per_logit)
    if hf_style and trl and precision != "fp32" and not chunked_loss and loss_kernel not in ("cce", "unsloth_ce"):
        cache16 = xp.where(bool(varlen_batches) & (tp > 0),
                           varlen_cache_16bit_bytes_per_logit() * s_local * mbs * mh.V / tp, 0.0)
        varlen_cache = varlen_cache + xp.where(trl_amp, 0.0, cache16)
    # ... cut by an ordinary batch when the run empties the cache every few steps (varlen_record_fraction)
    varlen_cache = varlen_cache * varlen_record_frac
    tail_hw = xp.maximum(xp.maximum(out_layer + loss_hw, working + grad_h + back_held), held_phase)
    acts_hw = xp.where(pp > 1, xp.maximum(first_stage + working, last_stage - tail + tail_hw), first_stage + tail_hw)
    loss_extra = acts_hw - acts
    # what is held from the end of the forward pass until backward, without backward/loss transients
    # (the quantity tests_validate/ measures with saved_tensors_hooks)
    acts_saved = xp.where(pp > 1, xp.maximum(first_stage, layers_stage * stored + out_saved),
                          first_stage + out_saved)

    # framework buffers: ZeRO-3/FSDP gather a layer's full 16-bit weights (current + prefetched);
    # DeepSpeed ZeRO-1/2 reduce/all-gather buckets (reduce_bucket_size 5e8 elements, DeepSpeed config docs)
    layer_full = (m.layer_non_expert + m.layer_expert / ep) / tp
    layer_gathered_b = qlora_gathered_bytes(m) if method == "qlora" else gathered_b
    gather = xp.where(fsdp_keep, 0.0, xp.where(zero >= 3, 2 * layer_gathered_b * layer_full, 0.0))
    # FSDP2's reduce-scatter of one layer (fsdp_rs_buffer_bytes): the reduce-scatter input in the reduce dtype,
    # held until the next layer's reduce-scatter is issued, beside the 16-bit gradients of the layer in backward
    if framework == "fsdp" and not lora_like:
        gather = gather + xp.where((zero >= 2) & (dp_sh > 1),
                                   fsdp_rs_buffer_bytes(layer_full, precision, master_weights), 0.0)
    # ... unless the output layer's phase holds more (head_gather_bytes): the gathered head and its gradient
    # beside the prefetched last block, at the start of backward
    head_phase = (head_gather_bytes(m, tp, precision, master_weights, framework, not lora_like)
                  + layer_gathered_b * layer_full)
    layer_bufs = gather
    gather = xp.where(fsdp_keep, gather, xp.where(zero >= 3, xp.maximum(gather, head_phase), gather))
    if fsdp1_root and lora_like:
        # FSDP1 FULL_SHARD keeps its root unit (embedding, final norm, head) gathered for the whole step
        # (fsdp1_root_unit_bytes), at each moment beside that moment's blocks: the loss with the prefetched last
        # block, a recomputed block's backward with its own and the prefetched one. What that adds above the
        # activations' peak plus the largest buffers counted so far (tail + gather)
        _emb_b, root_b = fsdp1_root_unit_bytes(m, tp, precision)
        root_peak = xp.maximum(out_layer + root_b + layer_gathered_b * layer_full,
                               xp.maximum(working + grad_h, held_phase) + root_b + layer_bufs)
        # (ZeRO-3 without a pipeline: fsdp_keep is false there)
        gather = gather + xp.where((zero >= 3) & (pp_i == 1),
                                   xp.maximum(root_peak - tail - gather, 0.0), 0.0)
    # torch's FSDP1 on one rank runs NO_SHARD (fsdp1_no_shard): no unit is gathered into a second copy
    gather = xp.where(fsdp1_no_shard(fsdp1_on, dp_sh), 0.0, gather)
    if framework == "fsdp" and not lora_like:
        # torchtitan's FSDP2 without a pipeline: the loss, the head's backward and a block's backward are separate
        # moments, each with its own gathered weights (fsdp_backward_phases), instead of the largest buffers of
        # any moment beside the larger transient of any moment
        ph_on = (zero >= 3) & (xp.asarray(fsdp_keep) == False) & (pp_i == 1)  # noqa: E712 (arrays)
        # torchtitan before July 2025: the embedding in the root unit with the norm and head (fsdp_root_unit_bytes)
        emb_held, head_held = fsdp_root_unit_bytes(m, tp, precision) if fsdp_root_embedding else (0.0, 0.0)
        # torchtitan's chunked loss runs the head's backward chunk by chunk inside the loss moment
        # (titan_chunked_loss_bytes): no head moment of its own, only the prefetched last block
        head_m = head_phase if not fsdp_root_embedding else head_held + layer_gathered_b * layer_full
        peak, peak_hw = fsdp_backward_phases(
            out_layer, loss_hw, working + grad_h + back_held, layer_bufs,
            layer_gathered_b * layer_full if chunked_loss else head_m,
            # the logits' 16-bit gradient: none where the loss kernel keeps no logits (cce: Cut Cross-Entropy,
            # Liger's fused linear cross-entropy) or makes them a chunk at a time (chunked); and the output the
            # loop keeps (back_held)
            back_held + (0.0 if (loss_kernel == "cce" or chunked_loss)
                         else activation_dtype_bytes(precision) * s_local * mbs * mh.V / tp),
            # at the loss: the head's unit, and the last block only in the layout before July 2025 (torchtitan
            # 83e694105 reshards every block after forward: the last is gathered again when the head's backward
            # prefetches it, which the chunked loss runs inside the loss moment)
            activation_dtype_bytes(precision) * m.V * m.h / tp
            + (layer_gathered_b * layer_full if (fsdp_root_embedding or chunked_loss) else 0.0), xp,
            held=emb_held, block_held=head_held)
        gather = xp.where(ph_on, peak - tail, gather)
        loss_extra = xp.where(ph_on, peak_hw - peak, loss_extra)
    if framework == "megatron" and np.any(mfsdp):
        # Megatron-FSDP: two units' gathered weights and un-sharded gradients, the non-unit modules held whole
        # (mfsdpmod.buffer_bytes); LoRA's frozen base has no gradient buffer
        nu = mfsdpmod.non_unit_params(m.first_extra, m.last_extra, m.tied, pp_i)
        unit_g = 0.0 if lora_like else g_b
        gather = xp.where(mfsdp, mfsdpmod.buffer_bytes(layer_full, layer_gathered_b, unit_g, nu, tp), gather)
    if framework == "megatron" and np.any(mfsdp2):
        # optim_grads: two units' un-sharded gradients only (the weights stay whole)
        gather = xp.where(mfsdp2, mfsdpmod.UNITS_IN_FLIGHT * layer_full * (0.0 if lora_like else g_b), gather)
    # ZeRO-3 allocates its gradient reduce bucket whole when the optimizer is built (deepspeed/runtime/zero/
    # stage3.py: ``__ipg_bucket_flat_buffer = torch.empty(self.reduce_bucket_size, dtype=self.dtype, ...)``), at
    # the same default of 5e8 elements, whatever the model's size (framework deepspeed: the HF engine's ZeRO-3 may
    # be FSDP under Accelerate, which has no such bucket)
    ds_engine = framework in ("hf", "deepspeed") or ckpt_tool == "gpt-neox"  # GPT-NeoX: gpt_neox_state_bytes
    ds_engine = ds_engine & (hf_fs == False)  # noqa: E712 (arrays): not the HF stack's FSDP (hf_sharded_by_fsdp)
    buckets = xp.where((zero >= 1) & (zero <= 2) & ds_engine,
                       xp.minimum(5e8, model_gpu) * 2.0,
                       xp.where((zero >= 3) & (framework == "deepspeed"), 5e8 * 2.0, 0.0))
    # DeepSpeed's optimizer step (ds_step_grad_bytes): the fp32 copy of the gradient partition, after the
    # activations are freed; counted where it exceeds them (the peak is the larger of the two phases)
    if np.any(ds_engine) and precision != "fp32" and master_weights:
        step_b = ds_step_grad_bytes(trained_gpu / dp_sh, zero, xp)
        buckets = buckets + xp.where(offload | (ds_engine == False), 0.0,  # noqa: E712 (arrays)
                                     xp.where(zero >= 1, xp.maximum(step_b - acts, 0.0), 0.0))
    grads_kept = gradients  # every gradient, as the objective's critic holds them
    if framework == "hf" and not optimizer_in_backward and method not in ("lora", "qlora"):
        head_grad = m.V * m.h / tp * g_b  # the output projection's (or the tied embedding's) gradient
    else:
        head_grad = 0.0
    # (optimizer in backward: ``gradients`` already holds what lives through backward)
    freed = ((framework == "hf") & (zero == 0) & (pp_i == 1) & (xp.asarray(grad_accum) == 1)
             & (not optimizer_in_backward))
    gradients = gradients_at_peak(gradients, acts, working, head_grad, freed, xp)
    # FSDP2 with one micro-batch and no pipeline: the sharded gradients are freed before the forward and cached in
    # the reduce-scatter stream's pool (fsdp_grads_cached_bytes): reserved, not live, at the activations' peak
    # The HF stack's FSDP1 (hf_sharded_by_fsdp) frees them the same way (fsdp1_grads_freed)
    fsdp_freed = ((((framework == "fsdp") & (zero >= 2)) | fsdp1_grads_freed(hf_fs)) & (pp_i == 1)
                  & (xp.asarray(grad_accum) == 1) & (not optimizer_in_backward))
    grads_cached = fsdp_grads_cached_bytes(gradients, acts, working, fsdp_freed, xp)
    states = weights + gradients + opt
    extra = objective_parts(
        m_full, profile, precision=precision, weights=weights, gradients=grads_kept, opt=opt, acts=acts,
        model_gpu=model_gpu, layer_full=layer_full, zero=zero, dp_sh=dp_sh, tp=tp,
        seqs=mbs_examples * xp.asarray(grad_accum, dtype=float), gpu_capacity_gib=gpu_capacity_gib, xp=xp,
        model_offloaded=rl_model_offloaded(profile, ckpt_tool),
        verl_offload=verl_generation_offload(profile, framework, offload_params, offload))
    if "critic" in extra and offload_params and verl_offload_per_phase(profile, framework):
        # verl offloads the critic's states while the actor trains and the actor's while the critic trains (each
        # worker's per-phase offload, verl_offload_per_phase): one model's states at a time; the actor's, with the
        # LM head the critic lacks, are the larger
        extra["critic"] = extra["critic"] * 0.0
    extra_sum = sum(extra.values())
    cached_reserved = grads_cached  # what of them reserved adds beside the live peak
    grads_reused = 0.0  # what of them the optimizer step's excess re-uses (live again, counted in ``gradients``)
    if adamw_foreach and optimizer == "adamw" and not optimizer_in_backward and framework != "megatron":
        # torch.optim.AdamW's unfused step (adamw_foreach_step_bytes): after backward the activations are gone and
        # every gradient is live; the step's square roots sit beside the states. Under DeepSpeed it is the client
        # optimizer (a config without an "optimizer" block: the HF Trainer hands DeepSpeed its own torch AdamW),
        # stepping the fp32 partition beside the fp32 gradient copy (ds_step_grad_bytes). Megatron-Core and the
        # other Megatron tools build their own fused Adam
        # FSDP1 (fsdp1_root with sharding): one FlatParameter per decoder layer, stepped one at a time
        # (not where DeepSpeed runs the HF stack: ds_engine, an array once hf_sharded_by_fsdp reads the ZeRO stage).
        # The HF stack's FSDP1 steps the original parameters instead (fsdp1_orig_params_foreach): one foreach list
        ds_on = xp.asarray(ds_engine)
        units = xp.where(bool(fsdp1_root) & (zero >= 1) & (ds_on == False)  # noqa: E712 (arrays)
                         & (fsdp1_orig_params_foreach(hf_fs) == False), layers_stage, 1.0)  # noqa: E712 (arrays)
        sq = adamw_foreach_step_bytes(opt, 0.0 if lora_like else master_b, moments_b, units, xp)
        ds_grad = 0.0
        if precision != "fp32" and master_weights:
            ds_grad = xp.where(offload | (zero < 1) | (ds_on == False), 0.0,  # noqa: E712 (arrays)
                               ds_step_grad_bytes(trained_gpu / dp_sh, zero, xp))
        buckets, cached_reserved, grads_reused = step_phase_buffers(
            weights + grads_kept + opt + ddp + sq + ds_grad, states + acts + ddp + gather + buckets, grads_cached,
            buckets, xp)
    # cached free blocks and rounding (reserved − allocated): none with expandable segments (allocator_waste)
    waste = allocator_waste(states + acts + extra_sum, fragmentation,
                            expandable_segments_default(framework) if expandable_segments is None
                            else bool(expandable_segments))
    # the eager loss's hole (loss_reserved_extra_bytes_per_logit) is a free cached segment: in reserved and on the
    # device, not in what fits (allocator_cache_bytes)
    other = cuda_context_gib * GIB + waste + ddp + gather + buckets
    total = states + acts + other + extra_sum
    # the caching allocator's two figures (module docstring, "Allocated, reserved, device"): what live tensors
    # hold at the peak (torch.cuda.max_memory_allocated) and what the allocator holds from the driver
    # (max_memory_reserved: the same plus cached free blocks and rounding, the fragmentation share); the device
    # total adds the CUDA context, cuBLAS/NCCL workspaces and NCCL's own buffers, outside the allocator
    allocated = states + acts + ddp + gather + buckets + extra_sum - grads_cached + grads_reused
    # issue 35 round 10: vLLM's sleeping pool stays in the caching allocator's counters (sleeping_pool_counted_bytes)
    allocated = allocated + sleeping_pool_counted_bytes(profile, framework, acts, gpu_capacity_gib, xp,
                                                        kv_part=extra.get("kv_cache"))
    if paged_optimizer:
        # bitsandbytes' paged optimizers keep their states in CUDA unified memory, outside PyTorch's caching
        # allocator (paged_state_bytes): on the device, not in allocated or reserved
        allocated = allocated - opt
        waste = allocator_waste(states - opt + acts + extra_sum, fragmentation,
                                expandable_segments_default(framework) if expandable_segments is None
                                else bool(expandable_segments))
        other = cuda_context_gib * GIB + waste + ddp + gather + buckets
        total = states + acts + other + extra_sum
    reserved = allocated + waste + cached_reserved
    allocated_last = allocated - acts + acts_last
    # cached free segments (allocator_cache_bytes): of earlier, shorter batches (fixed segments only) and the eager
    # loss's hole, no more than the card leaves beside the CUDA context
    expandable = (expandable_segments_default(framework) if expandable_segments is None
                  else bool(expandable_segments))
    cache = allocator_cache_bytes(0.0 * reserved if expandable else varlen_cache + 0.0 * reserved, loss_extra)
    if gpu_capacity_gib > 0:
        cache = xp.minimum(cache, xp.maximum((gpu_capacity_gib - cuda_context_gib) * GIB - reserved, 0.0))
    reserved = reserved + cache
    out = {
        "weights": weights, "gradients": gradients, "optimizer": opt, "activations": acts,
        "other": other, "total": total, "activations_saved": acts_saved, "gradients_all": grads_kept,
        "allocated": allocated, "reserved": reserved, "allocator_cache": cache, "allocated_last": allocated_last,
    }
    out.update(extra)
    return out


def pipeline_inflight_last(pp, vpp, micro_batches, xp=np):
    """Micro-batches whose activations the last pipeline rank holds at once, in whole-stage units: one under 1F1B
    (no warm-up); under the interleaved schedule the last rank still runs ``(vpp − 1)·pp`` warm-up chunk-forwards
    (Megatron-Core ``get_pp_rank_microbatches``: ``(pp − rank − 1)·2 + (vpp − 1)·pp`` with rank = pp − 1; torch
    ``ScheduleInterleaved1F1B`` the same) and one more, capped at the step's ``m·vpp``: ``((vpp − 1)·pp + 1)/vpp``
    whole-stage micro-batches, at most ``m``."""
    pp = xp.asarray(pp, dtype=float)
    v = xp.maximum(xp.asarray(vpp, dtype=float), 1.0)
    m = xp.asarray(micro_batches, dtype=float)
    held = xp.where(v > 1, xp.minimum(((v - 1.0) * pp + 1.0) / v, m), 1.0)
    return xp.where(pp > 1, held, 1.0)


def fsdp_backward_phases(loss, loss_hole, block, layer_bufs, head_bufs, logits_grad, loss_bufs, xp=np, held=0.0,
                         block_held=0.0):
    """The transient part of an FSDP2 step's peak (beside the saved activations and the model states), as the
    largest of three moments of backward, each with the weights FSDP2 holds gathered at that moment.

    * The loss (``loss``: the output layer's transients, :func:`ce_backward_bytes_per_logit` and relatives): the
      head stays gathered from its forward and the last block is not resharded after forward (torchtitan
      ``apply_fsdp``: "do not reshard after forward for the last transformer block since FSDP would prefetch it
      immediately"; the head's unit ``reshard_after_forward`` off) — ``loss_bufs``; nothing else is gathered: the
      head's pre-backward hook (and the prefetch it issues) runs only when autograd reaches the head.
    * The head's backward: its input gradient is the logits' 16-bit gradient (``logits_grad``), beside the head's
      weight, gradient and fp32 reduce-scatter input and the prefetched last block (``head_bufs``,
      :func:`head_gather_bytes`); the loss's fp32 tensors are freed by then.
    * A block's backward (``block``: its recomputation and the incoming gradient) with two gathered blocks and one
      block's reduce-scatter buffers (``layer_bufs``).

    ``loss_hole``: the allocator's 2 bytes per logit at the eager loss (:func:`loss_reserved_extra_bytes_per_logit`).
    ``held``: weights gathered through all three moments; ``block_held``: what else a block's backward finds still
    gathered (both from :func:`fsdp_root_unit_bytes`; zero with torchtitan's layout since July 2025).
    Returns (live peak, reserved high-water)."""
    block_m = block + layer_bufs + held + block_held
    live = xp.maximum(xp.maximum(loss + loss_bufs, logits_grad + head_bufs) + held, block_m)
    high = xp.maximum(xp.maximum(loss + loss_hole + loss_bufs, logits_grad + head_bufs) + held, block_m)
    return live, high


def fsdp1_root_unit_bytes(m: ModelFacts, tp, precision: str) -> tuple[float, float]:
    """(embedding, whole root) 16-bit bytes FSDP1's root unit holds gathered from its forward to the end of backward.

    PyTorch ``torch/distributed/fsdp/_runtime_utils.py``: ``_post_forward_reshard`` frees a unit's unsharded flat
    parameter after forward only when ``not state._is_root`` ("Do not free the root's parameters in the
    post-forward for FULL_SHARD with the intention that they are immediately used for backward computation"); a
    frozen flat parameter has no post-backward hook, so the root is resharded by the final callback
    (``_post_backward_final_callback`` → ``_catch_all_reshard``) when backward ends. Under Accelerate's and
    Answer.AI's transformer wrap policies (one unit per decoder layer; Answer.AI also one per LoRA adapter) the root
    holds what is left: the token embedding, the final norm and the output layer. LoRA/QLoRA keep them 16-bit
    (not quantised: transformers ``get_keys_to_not_convert``). Full fine-tuning is not covered here (its root trains;
    see the round-10 note)."""
    vh = m.V * m.h / tp
    act_b = activation_dtype_bytes(precision)
    emb = 0.0 if m.tied else act_b * vh
    return emb, emb + act_b * vh + act_b * m.h


def fsdp_root_unit_bytes(m: ModelFacts, tp, precision: str) -> tuple[float, float]:
    """(held, block_held): bytes FSDP2's root unit keeps gathered in backward when it holds the token embedding,
    the final norm and the output layer (torchtitan before 83e694105, July 2025: ``apply_fsdp`` wrapped each block,
    then ``fully_shard(model)``; ``training.fsdp_root_embedding``). That layout also kept the last block gathered
    after forward ("do not reshard after forward for the last transformer block since FSDP would prefetch it
    immediately"), which the caller adds at the loss; 83e694105 reshards every block after forward.

    FSDP2 does not reshard the root after forward ("For the root, do not reshard after forward since for training,
    the parameters would be freed and all-gathered immediately": ``FSDPState._lazy_init``,
    ``torch/distributed/fsdp/_fully_shard/_fsdp_state.py``), and reshards a unit and reduce-scatters its gradients
    only once every parameter of the unit has its gradient (``post_backward``), which for the root is the
    embedding's, at the end of backward. So the embedding's 16-bit weight (``held``, none when tied to the output) is
    gathered at the loss, in the head's backward and in every block's backward; the output's weight and its
    unsharded 16-bit gradient (``block_held``) stay from the head's backward to the end, into every block's backward
    (torchtitan since July 2025 shards ``[norm, output]`` as a unit that reshards and reduce-scatters when the
    head's backward ends: :func:`head_gather_bytes`). Tensor parallelism splits both by ``tp``."""
    vh = m.V * m.h / tp
    act_b = activation_dtype_bytes(precision)
    held = 0.0 if m.tied else act_b * vh
    return held, 2.0 * act_b * vh


def pipeline_inflight(pp, vpp, micro_batches, xp=np):
    """Micro-batches whose activations the first pipeline stage holds at once, in whole-stage units.

    Rank 0 runs its warm-up forwards and one more before its first backward. 1F1B: ``pp − 1`` warm-up
    micro-batches (Narayanan et al. 2021, arXiv:2104.04473 §2.2). Interleaved with ``vpp`` model chunks per rank:
    ``2·(pp − 1) + (vpp − 1)·pp`` warm-up chunk-forwards of ``1/vpp`` of the rank's layers each, i.e.
    ``pp + (pp − 1)/vpp`` whole-stage micro-batches (Megatron-Core ``get_pp_rank_microbatches`` in
    ``megatron/core/pipeline_parallel/schedules.py``; torch ``ScheduleInterleaved1F1B`` warm-up
    ``(n_local_stages − 1)·pp + 2·(pp − 1 − rank)``). Both cap the warm-up at the step's chunk-forwards
    (``num_microbatches × vpp``), so with as many micro-batches as stages (torchtitan's default until 2025,
    ``n_microbatches = pipeline_parallel_degree``) the interleaved rank holds ``m`` micro-batches, as 1F1B does.
    One micro-batch without a pipeline."""
    pp = xp.asarray(pp, dtype=float)
    vpp = xp.asarray(vpp, dtype=float)
    m = xp.asarray(micro_batches, dtype=float)
    steady = xp.where(vpp > 1, pp + (pp - 1) / xp.maximum(vpp, 1.0), pp)
    return xp.where(pp > 1, xp.minimum(steady, m), 1.0)


def pipeline_stage_buffer_bytes(stage_io, micro_batches, vpp, xp=np):
    """Bytes torch.distributed.pipelining holds per rank for the stage boundaries, on the first and last ranks.

    ``stage_io`` is one micro-batch's stage input/output (``[mbs, s, h]`` in 16 bits, split by sequence
    parallelism). Each stage allocates, once, a receive buffer per micro-batch for its input (not the first
    stage) and for its output's gradient (not the last stage) (``_PipelineStageBase._prepare_forward_infra``
    and ``_prepare_backward_infra`` → ``_make_tensor_from_meta``), and keeps every micro-batch's output until
    the step's end (``fwd_cache`` and the pending send ``Work`` objects retain ``microbatches ×
    stages_per_rank`` activations: pytorch/pytorch#193903; before pytorch#153383, May 2025, also
    ``output_chunks``). A rank runs ``vpp`` stages. First rank: outputs and gradient buffers of its ``vpp``
    stages and the input buffers of the ``vpp − 1`` later ones: ``m·(3·vpp − 1)``; last rank: input buffers of
    its ``vpp`` stages and outputs and gradient buffers of the ``vpp − 1`` earlier ones (the last stage's
    output, the logits, is not kept since torchtitan passes ``return_outputs=False``, torchtitan#1922):
    ``m·(3·vpp − 2)``, in ``stage_io`` units. Megatron frees its outputs after the send
    (``deallocate_output_tensor``) and allocates receive buffers per transfer: not counted there."""
    m = xp.asarray(micro_batches, dtype=float)
    v = xp.maximum(xp.asarray(vpp, dtype=float), 1.0)
    return stage_io * m * (3.0 * v - 1.0), stage_io * m * (3.0 * v - 2.0)


def fsdp1_no_shard(fsdp1, shard_ranks):
    """Whether torch's FSDP1 runs with nothing to shard: ``_init_utils.py`` (``_init_process_group_state``) warns
    "FSDP is switching to use `NO_SHARD` instead of ShardingStrategy.FULL_SHARD since the world size is 1" and
    switches; a NO_SHARD flat parameter is its own unsharded form (``FlatParamHandle.uses_sharded_strategy`` false:
    ``unshard`` allocates nothing), so no unit is gathered beside the weights. ``fsdp1``: the plan runs FSDP1
    (element-wise); ``shard_ranks``: the ranks its states are sharded over."""
    return fsdp1 & (np.asarray(shard_ranks) <= 1)


def fsdp1_frozen_units_hold_grads(lora_like: bool, mixed_units: bool, reentrant):
    """Whether FSDP1 keeps each recomputed block's input gradient until backward ends (the count:
    :func:`fsdp1_frozen_unit_grads_held`): LoRA/QLoRA whose block units hold only the frozen base (PEFT's
    ``fsdp_auto_wrap_policy`` gives each adapter leaf its own unit; not ``mixed_units``, the adapters inside the
    block's unit, whose flat parameter then requires grad), under reentrant checkpointing (``reentrant``, element-wise).

    torch FSDP1 ``_runtime_utils.py`` (pytorch/pytorch 3ade90a, unchanged since 2.1): ``_pre_forward`` calls
    ``_register_post_backward_reshard_only_hook``, which for a ``FlatParameter`` that does not require grad registers
    ``register_multi_grad_hook(inp_tensors, ...)`` on the unit's inputs that require grad, and keeps the handle in
    ``flat_param._post_backward_hook_state`` until ``_finalize_params`` removes it in the post-backward final callback
    (no sharding-strategy test: NO_SHARD at one rank too). ``torch/autograd/graph.py`` ``register_multi_grad_hook``
    builds ``grad_fns = list(map(_get_grad_fn_or_grad_acc, tensors))`` and closes over it in the hook it registers on
    each input. Under reentrant checkpointing the unit's input is ``CheckpointFunction.backward``'s detached leaf (its
    grad accumulator, which holds the leaf), and that function reads the leaf's ``.grad`` for the block below
    (``torch/utils/checkpoint.py``): leaf, grad accumulator and closure form a cycle that only the hook's removal
    breaks, so each block's input gradient (one hidden-state tensor in the activation dtype) stays until backward
    ends. Under non-reentrant checkpointing the input is the block below's output (a graph node, not a leaf with a
    ``.grad``): nothing is kept."""
    return lora_like & (not mixed_units) & reentrant


def fsdp1_frozen_unit_grads_held(layers, xp=np):
    """How many hidden-state gradients are live while the first block runs backward under
    :func:`fsdp1_frozen_units_hold_grads`: those of the ``layers − 1`` blocks above it (the last of them is the
    first block's incoming gradient, which the ordinary phase already counts once)."""
    return xp.maximum(xp.asarray(layers, dtype=float) - 1.0, 1.0)


def fsdp1_orig_params_foreach(hf_fsdp1):
    """Issue 35 round 16 (memoos16): whether torch.optim.AdamW's unfused step runs one foreach list over the rank's
    original parameters under the Hugging Face stack's FSDP1 (``hf_fsdp1``: frameworks.hf_sharded_by_fsdp), not
    the single-tensor loop over ``FlatParameter`` s (:func:`adamw_foreach_step_bytes`' ``units``).

    The HF stack wraps with ``use_orig_params=True`` unless told otherwise: Accelerate's launcher
    (``commands/launch.py`` at v1.0.1: ``--fsdp_use_orig_params`` default "true", exported as
    ``FSDP_USE_ORIG_PARAMS`` by ``utils/launch.py`` ``prepare_multi_gpu_env``) and transformers' ``--fsdp``
    (``training_args.py``: ``fsdp_config.get("use_orig_params", "true")``). The Trainer builds its optimizer after
    wrapping under FSDP (``delay_optimizer_creation``), over ``model.parameters()``: with ``use_orig_params`` those
    are the original ``nn.Parameter`` s (views into the flat shard), which torch's ``_default_to_fused_or_foreach``
    accepts (``_foreach_supported_types``: Tensor and Parameter; ``FlatParameter`` is neither), so the step's
    ``_foreach_sqrt`` list spans the rank's whole second-moment shard. verl and bare torch FSDP1 keep
    ``use_orig_params=False`` (``fsdp_workers.py``; the wrapper's default): the flat parameters, one unit at a time.
    Measured: fms-acceleration's A100 table (``scripts/benchmarks/refs/a100_80gb.csv`` at 24bdadb, Accelerate 1.0.1,
    torch 2.4.1): Mistral-7B full bf16 on one GPU peaks at 67.46 GiB allocated at per-device batch 4 and 8 alike,
    which is weights + gradients + both moments + one more copy of the second moments (4 × 13.49 + 13.49 GiB)."""
    return hf_fsdp1


def fsdp1_grads_freed(hf_fsdp1):
    """Issue 35 round 16 (memoos16): whether the HF stack's FSDP1 frees its sharded gradients between steps, as
    :func:`fsdp_grads_cached_bytes` has FSDP2 do (with one micro-batch and no pipeline).

    The HF Trainer calls ``model.zero_grad()`` after each step (``set_to_none`` by default since torch 2.0); under
    ``use_orig_params`` FSDP1 then drops the flat parameter's gradient as well when every original parameter's is
    None (``FlatParamHandle._reset_flat_param_grad_info_if_needed``). FSDP1 reduce-scatters into a tensor it
    allocates on its post-backward stream (``_runtime_utils._post_backward_hook`` runs ``_reduce_grad`` under
    ``state._post_backward_stream``), so, as with FSDP2, the freed bytes stay reserved in that stream's pool. The
    fms-acceleration rows (:func:`fsdp1_orig_params_foreach`) see it: the full Mistral-7B run's peak does not grow
    from per-device batch 4 to 8, so no gradient is live beside the activations."""
    return hf_fsdp1


def step_phase_buffers(step_phase, act_phase, grads_cached, buckets, xp=np):
    """``(buckets, cached_reserved, grads_reused)`` once the optimizer step's phase (``step_phase``: every live byte
    of an unfused AdamW step) is set beside the activations' (``act_phase``: the states, the freed-and-cached FSDP
    gradients included, :func:`fsdp_grads_cached_bytes`, plus activations and buffers).

    Allocated, the activations' phase lacks the cached gradients (``grads_cached``), which are live again at the
    step; the step's excess over it re-uses those cached blocks first (memoos16, issue 35 round 16). The re-used
    bytes (``grads_reused``) are the gradients the states already count, so only the rest of the excess is a new
    buffer in the device total: the allocated figure adds them back, and reserved keeps what stays cached
    (``cached_reserved``). So device − reserved stays the CUDA context (review16: the round-16 change added the
    whole excess to the buffers, counting the re-used gradients twice in the total, up to their full size)."""
    step_excess = xp.maximum(step_phase - (act_phase - grads_cached), 0.0)
    grads_reused = xp.minimum(grads_cached, step_excess)
    return buckets + step_excess - grads_reused, grads_cached - grads_reused, grads_reused


def fsdp_grads_cached_bytes(gradients, acts, working, freed, xp=np):
    """FSDP2's sharded gradients at the activations' peak: freed, yet held by the caching allocator.

    torchtitan calls ``optimizers.zero_grad()`` (``set_to_none=True``, PyTorch's default) before each forward, so
    with one micro-batch and no pipeline no sharded gradient is live when backward starts; each layer's comes back
    from its reduce-scatter as backward proceeds, while the activations are freed (the live peak:
    :func:`gradients_at_peak`). FSDP2 allocates them on the reduce-scatter stream (``_fsdp_collectives.
    foreach_reduce``: ``reduce_output = ...new_empty(...)`` under ``device_handle.stream(reduce_scatter_stream)``,
    the sharded ``.grad`` are views of it), and the caching allocator returns a freed block to the pool of the
    stream that allocated it, reused only by that stream's later requests ("CUDA semantics → Memory
    management"; ``CUDACachingAllocator.cpp`` pools by stream): the default stream's activations cannot use it,
    so it stays in ``max_memory_reserved`` beside them. Returns the bytes to take from the live peak and keep in
    reserved: all the gradients minus those live at the peak."""
    return gradients - gradients_at_peak(gradients, acts, working, 0.0, freed, xp)


#: DeepSpeed ZeRO-3's ``sub_group_size`` default (``deepspeed/runtime/zero/config.py``: ``pp_int(1e9)``): the optimizer
#: steps the rank's partition in sub-groups of this many elements.
DS_SUB_GROUP_SIZE = 1e9

#: Bytes per gradient element at the peak of DeepSpeed's fp32-gradient conversion (:func:`ds_step_grad_bytes`): the
#: 16-bit flat copy made by ``flatten`` (2) and the fp32 tensor ``.to(fp32)`` allocates from it (4), both live at once
#: (deepspeed/runtime/zero/stage3.py ``_prepare_fp32_grad_for_sub_group``; stage_1_and_2.py ``step``:
#: ``self.flatten(self.averaged_gradients[i]).to(...)`` / ``flatten_dense_tensors_aligned(...).to(...)``).
DS_STEP_GRAD_PEAK_BYTES = 2.0 + 4.0


def ds_step_grad_bytes(partition, zero, xp=np):
    """Bytes DeepSpeed's ZeRO optimizer step adds for the rank's gradient ``partition`` (elements): each group's 16-bit
    gradients are flattened and converted to an fp32 gradient for the fp32 master partition, which lives through
    that group's optimizer step (ZeRO-1/2 ``stage_1_and_2.py`` ``step``: ``flat_grad_partition.to(fp32)`` per parameter
    group, the whole partition; ZeRO-3 ``stage3.py`` ``_prepare_fp32_grad_for_sub_group``: one sub-group of at most
    :data:`DS_SUB_GROUP_SIZE` elements at a time). The conversion is one expression,
    ``self.flatten(self.averaged_gradients[i]).to(fp32)``: ``flatten`` (``torch.cat`` of the per-parameter gradient
    views) makes a new 16-bit flat copy, and ``.to`` allocates the fp32 result while that copy is still referenced,
    so the step's peak holds both, :data:`DS_STEP_GRAD_PEAK_BYTES` per element; the 16-bit copy is freed when the
    expression ends and the fp32 gradient lives through the group's step. CPU-offloaded optimizers step on the host
    (none)."""
    return DS_STEP_GRAD_PEAK_BYTES * xp.where(xp.asarray(zero) >= 3, xp.minimum(partition, DS_SUB_GROUP_SIZE),
                                              partition)


def adamw_foreach_step_bytes(opt, master_b, moments_b, units, xp=np):
    """Issue 35 round 15 (memoos15): the bytes torch.optim.AdamW's unfused step allocates beside the model states.

    ``torch/optim/adamw.py`` (torch 2.1-2.7; ``adam.py`` with ``decoupled_weight_decay`` since 2.6)
    ``_multi_tensor_adamw``: the moments are updated in place (``_foreach_lerp_``, ``_foreach_mul_`` +
    ``_foreach_addcmul_``), then ``exp_avg_sq_sqrt = torch._foreach_sqrt(device_exp_avg_sqs)`` makes a new list the
    size of the second moments, in their dtype, divided and shifted in place (``_foreach_div_``, ``_foreach_add_``)
    and held until ``_foreach_addcdiv_`` has updated the parameters; the whole device/dtype group is one list. The
    single-tensor loop (``_single_tensor_adam``: FSDP1's ``FlatParameter``, which ``_default_to_fused_or_foreach``
    leaves out of foreach) works one tensor at a time, ``(exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)``:
    the square root and the quotient live together, two copies of the largest flat parameter's second moment, one
    unit (a decoder layer) of the ``units`` a rank holds. torchtune PR #389 (2024-02) saw the list on a bf16 Llama 2
    7B step ("the foreach implementation uses ~ sizeof(params) more peak memory"). The fused kernel
    (``_fused_adamw_``) allocates nothing. Measured on the CPU with torch 2.13.0 (``tests_validate/
    test_adamw_step_memory.py``, the profiler's allocation events over one ``step()``): foreach 1.000 × the second
    moments' bytes, the single-tensor loop 2.000 × the largest tensor's, fused none, in fp32 and bf16.

    ``opt``: the rank's optimizer bytes (``master_b`` + ``moments_b`` per trained parameter, after sharding and
    offload); the second moment is half of ``moments_b``. ``units`` > 1: the single-tensor loop over that many
    equal flat parameters. Returns the transient's bytes."""
    frac = (moments_b / 2.0) / xp.maximum(master_b + moments_b, 1e-9)
    sq = opt * frac
    if units is not None:
        u = xp.asarray(units, dtype=float)
        sq = xp.where(u > 1.0, 2.0 * sq / xp.maximum(u, 1.0), sq)
    return sq


def gradients_at_peak(gradients, acts, working, head_grad, freed, xp):
    """Gradient bytes live at the step's peak when no gradient outlives the step.

    PyTorch's ``Optimizer.zero_grad()`` sets gradients to None (``set_to_none=True``, the default since
    PyTorch 2.0); the HF Trainer calls it after each optimizer step and torchtune's recipes call
    ``zero_grad(set_to_none=True)`` (``full_finetune_single_device.py``, ``train``). With one micro-batch per
    step (no accumulation, no pipeline) the next forward therefore starts with no gradient; backward creates
    them layer by layer from the output side while it frees the saved activations, so the peak is either its
    start (every activation, plus the output projection's gradient, ``head_grad``: the head is the first
    layer backward reaches) or its end (every gradient, plus the first layer's recomputation, ``working``).
    ``freed`` false (accumulation, pipelines, ZeRO/DeepSpeed's or Megatron's persistent gradient buffers):
    all gradients are live with the activations. Returns the gradient part of that peak:
    ``max(head_grad, gradients + working − acts)``, so that weights + optimizer + activations + this part is
    the larger of the two."""
    return xp.where(freed, xp.maximum(xp.minimum(head_grad, gradients), gradients + working - acts), gradients)


def reference_grad_buffer_bytes_per_param() -> float:
    """Bytes per reference parameter of the DDP gradient buffer Megatron-SWIFT's full-parameter reference carried
    before ms-swift 3.9 (``training.preference.reference_grad_buffer``).

    modelscope/ms-swift at 5df8180fd (July 2025), ``swift/megatron/train/trainers/dpo_trainer.py``
    ``setup_model_and_optimizer``: ``ref_model = get_model(model_provider_func, model_type)``. Megatron-LM's
    ``megatron/training/training.py`` ``get_model`` wraps the model in Megatron-Core's ``DistributedDataParallel``
    unless ``wrap_with_ddp=False``; DDP's ``_ParamAndGradBuffer`` allocates a contiguous gradient buffer
    (``main_grad``) for every parameter with ``requires_grad`` (the reference's were never frozen), in fp32
    because Megatron-LM sets ``accumulate_allreduce_grads_in_fp32`` for bf16 runs (``arguments.py``). 4 bytes per
    parameter, the full buffer on every rank (the distributed optimizer shards its states, not this buffer). Commit
    1b184f296 ("[megatron] optimize dpo main_grad (GPU memory)", #6027, 2025-09-30) passed ``wrap_with_ddp=False``
    and ``requires_grad_(False)``, and lowered the examples' published figures with it: ``rlhf/dpo/dense.sh``
    4 × 55 → 4 × 45 GiB, ``multimodal/moe/full_dpo_offload.sh`` 8 × 80 → 8 × 65 GiB."""
    return 4.0


#: Issue 35 round 10 (postoos10): verl's actor (RL on the ``fsdp`` framework is verl's FSDP workers, as
#: ``timing.offload_layout``) is built in fp32 (``verl/workers/fsdp_workers.py`` ``_build_model_optimizer``:
#: ``torch_dtype = torch.float32 if self._is_actor``, "we have to create model in fp32", a LoRA actor's frozen base
#: included) and wrapped without FSDP's CPU offload (``cpu_offload = None if role == "actor"``: "We force turn off
#: CPUOffload for actor because it causes incorrect results when using grad accumulation"). Its ``param_offload`` /
#: ``optimizer_offload`` move the shard and the optimizer state to the host between phases and back for each
#: (``update_actor``: ``load_fsdp_model_to_gpu``, ``load_fsdp_optimizer`` before the update), so at the update's
#: peak the states are on the GPU as without offload; the offload frees them while vLLM generates.
def verl_offload_per_phase(prof: MethodProfile, framework: str) -> bool:
    """Whether the run is verl's FSDP actor, whose CPU offload is per phase (above): the training peak keeps its
    parameters, gradients and optimizer state on the GPU."""
    return bool(prof.rl) and framework == "fsdp"


def verl_loss_bytes_per_logit(padding_free: bool = True) -> float:
    """Bytes per logit live at the peak of verl's actor loss (``verl/workers/actor/dp_actor.py``
    ``_forward_micro_batch``, volcengine/verl v0.3.0.post1 070ed6ac to v0.4.1 / ee65422, no fused kernels):
    8 with ``use_remove_padding`` (``padding_free``), 6 without.

    With padding removed verl takes ``logits_rmpad = output.logits.squeeze(0)`` (a view of the ``(1, total_nnz,
    vocab)`` output) and divides it **in place** by the temperature (``logits_rmpad.div_(temperature)``). An in-place
    op on a view of a tensor that needs its gradient makes autograd put a ``CopySlices`` node on the base (the view's
    own ``grad_fn`` becomes ``AsStridedBackward0``). ``CopySlices::apply`` (PyTorch
    ``torch/csrc/autograd/functions/tensor.cpp``, the same C++ on every device) allocates ``result =
    grad.new_empty_strided(base.sizes(), …)``, copies the incoming gradient into it, and calls the division's backward
    on ``grad_slice.clone()``, which returns a third tensor (``grad / temperature``); the incoming gradient is still
    held. So when the logits' gradient passes that node, four 16-bit ``(tokens, vocab)`` tensors are live: 2 + 2 + 2 +
    2 = 8 bytes a logit, with or without an entropy bonus. Measured (issue 35 round 11, verl11): the same head on the
    CPU (PyTorch 2.13, peak RSS while ``backward`` runs) holds 8.0–8.1 bytes a logit with the in-place division on the
    view and 4.2 (no entropy) / 6.1 (entropy) with an out-of-place division.

    Earlier in the backward the loss's own gradients peak at 6 (the 16-bit logits, flash-attn's own gradient —
    ``cross_entropy_loss(..., inplace_backward=False)`` when the entropy is computed,
    ``flash_attn/ops/triton/cross_entropy.py``: ``dlogits = logits if inplace_backward else torch.empty_like(logits)``
    — and the compiled entropy's 16-bit gradient), below CopySlices' 8.

    The compiled ``entropy_from_logits`` (``torch.compile(..., dynamic=True)``) holds no ``(tokens, vocab)`` fp32
    buffer on CUDA: Inductor realizes a reused ``exp`` only on the CPU (``torch/_inductor/ir.py``
    ``StorageBox.should_realize_on_reuse``: the "heavy ops on cpu" rule is guarded by ``is_cpu``; on CUDA a node
    with so few reads is recomputed inside the fused Triton reduction). Round 10 had read the CPU's realized
    ``exp(x − max)`` (4 bytes a logit) as the old log-probabilities' peak; on CUDA that pass holds the 16-bit logits
    only, below the update's.

    Without padding removal verl divides the whole output (``logits.div_``: not a view, no ``CopySlices``) and
    slices the response afterwards; that path keeps round 10's 6 (not re-derived here)."""
    return 8.0 if padding_free else 6.0


#: Issue 35 round 10 (verlmem10): verl's actor computes the logits of every token of its micro-batch, the prompt's
#: included, and slices the response's log-probabilities afterwards (``verl/workers/actor/dp_actor.py``
#: ``DataParallelPPOActor._forward_micro_batch``, v0.4.1 / July 2025: with ``use_remove_padding``
#: ``logits_rmpad = output.logits.squeeze(0)`` is ``(total_nnz, vocab_size)``, every unpadded token, before
#: ``pad_input`` and the ``[:, -response_length - 1 : -1]`` slice; without it ``logits[:, -response_length - 1 : -1, :]``
#: is a view that keeps the whole ``(bsz, seqlen, vocab)`` output alive). TRL's GRPO passes ``logits_to_keep``
#: (:attr:`methods.MethodProfile.logit_fraction`); verl has no such argument, so its loss holds all the tokens' logits.
def rl_logit_fraction(prof: MethodProfile, framework: str) -> float:
    """Share of the training sequence whose logits the policy's loss holds: 1 for verl's actor (above), else the
    profile's own (TRL's ``logits_to_keep``)."""
    return 1.0 if verl_offload_per_phase(prof, framework) else prof.logit_fraction


#: Issue 35 round 15 (mgpumem15): Accelerate's FSDP2 preparation upcast the whole model. huggingface/accelerate
#: ``src/accelerate/utils/fsdp_utils.py`` ``fsdp2_prepare_model`` from FSDP2's first support (d7c741a6, #3394,
#: 2025-03-27) through v1.12.0 (2025-11-21) ends with ``if accelerator.mixed_precision != "no" and model_dtype !=
#: torch.float32: model = model.to(torch.float32)``: every parameter of the sharded model, a LoRA run's frozen base
#: included, becomes an fp32 DTensor shard. Commit d1c96ba9 (#3848, 2025-11-26; first release v1.13.0, 2026-03-04)
#: upcasts only ``param.requires_grad`` parameters. The compute copy FSDP2 all-gathers stays 16-bit: Accelerate's
#: ``FullyShardedDataParallelPlugin.set_mixed_precision`` builds ``MixedPrecisionPolicy(param_dtype=bf16,
#: reduce_dtype=bf16, output_dtype=bf16)`` (``utils/dataclasses.py`` at v1.11.0). So only the shard doubles:
#: 4 bytes per frozen parameter / the sharding group, not 2.
def fsdp2_fp32_base_applies(upcast: bool, framework: str, precision: str) -> bool:
    """Whether the frozen base's FSDP2 shard is fp32 (above): the scenario's statement
    (``training.fsdp2_fp32_upcast``, checked by frameworks.fsdp2_upcast_applies), on the FSDP engine under 16-bit
    mixed precision (an fp32 run is fp32 already). The caller applies it where the parameters are sharded (ZeRO-3, resharded after forward)."""
    return bool(upcast) and framework == "fsdp" and precision in ("bf16", "fp16", "fp8")


def verl_actor_fp32(prof: MethodProfile, framework: str) -> bool:
    """Whether the actor's frozen weights are fp32 (verl builds the actor in fp32, above)."""
    return verl_offload_per_phase(prof, framework)


#: Issue 35 round 10 (postoos10): vLLM's sleep mode keeps its pool in PyTorch's counters. The engine allocates its
#: weights and KV cache through ``CuMemAllocator`` (``vllm/device_allocator/cumem.py``: a ``CUDAPluggableAllocator``
#: in a ``torch.cuda.MemPool``, since vLLM 0.7.3), so they are ordinary blocks of PyTorch's caching allocator.
#: ``sleep()`` copies the weights to the host (level 1) and calls ``unmap_and_release`` on every allocation: the
#: physical memory goes back to the driver, but no tensor is freed, so ``torch.cuda.memory_allocated()`` /
#: ``memory_reserved()`` go on counting the whole pool while the model trains. The device holds the larger of the
#: pool and the activations (``objective_parts``: ``kv_cache``; what :attr:`MemoryBreakdown.total` and ``fits`` read),
#: but the allocator's counters hold both: a training process that logs ``torch.cuda.max_memory_allocated()`` with
#: the engine in it (verl's hybrid worker, ``perf/max_memory_allocated_gb``; TRL's colocate mode) reports the pool on
#: top of the training peak. Published check: verl logs whose ``max_memory_reserved_gb`` exceeds the card (play-verl
#: "recommended" PPO 83.6 GiB of allocated on an 80 GB H100; verl-data's GRPO-LoRA runs 82–99 GiB reserved,
#: bench/rl_step_times_r10.py). NeMo RL (the ``megatron`` framework's RL reading) runs vLLM in its own Ray worker
#: processes, whose pool the policy worker's counters never see: left out.
def sleeping_pool_counted_bytes(prof: MethodProfile, framework: str, acts, gpu_capacity_gib, xp, kv_part=None):
    """Bytes the allocator's counters (``allocated``, and with it ``reserved``) hold beyond the device's peak for a
    colocated vLLM engine asleep in the training process: the pool (``generation_gpu_fraction`` of the card) less
    what ``objective_parts`` already counts of it (``kv_part``, its ``kv_cache`` entry; without it the part above
    the activations, i.e. min(pool, activations)). So the counters read the pool beside the whole training peak
    whatever the offload between phases (verl's, :func:`verl_generation_offload`, lowers the device, not them)."""
    if not (prof.rl and prof.engine == "vllm_colocated" and prof.engine_sleep and framework != "megatron"):
        return 0.0 * acts
    pool = prof.gpu_fraction * gpu_capacity_gib * GIB
    if kv_part is None:
        return xp.minimum(pool, acts)
    return xp.maximum(pool - kv_part, 0.0)


def rl_model_offloaded(prof: MethodProfile, tool) -> bool:
    """Whether the training model leaves the GPU while vLLM generates (``training.rl.offload_model`` on a tool of
    :data:`frameworks.RL_OFFLOAD_MODEL_TOOLS`)."""
    return bool(prof.offload_model and prof.engine == "vllm_colocated" and tool in RL_OFFLOAD_MODEL_TOOLS)


#: Issue 35 round 12 (savers12): Megatron-SWIFT's offload context around colocated generation (modelscope/ms-swift
#: 3602360a5, ``swift/megatron/trainers/rollout_mixin.py`` ``_generate_completions`` and ``offload_context``;
#: ``swift/megatron/trainers/utils.py``). In one generation batch: vLLM wakes its weights (``wake_up(tags=
#: ['weights'])``), the training model's weights are loaded into them (``_move_model_to_vllm``), *then* the offload
#: context moves the training model out (``offload_megatron_model_to_cpu``: each DDP buffer's 16-bit ``param_data``
#: copied to a pinned CPU buffer and its storage freed, the gradient buffer's storage freed; the reference models
#: likewise; ``offload_megatron_optimizer``: the fp32 master shard and Adam's moments ``.to('cpu')``), vLLM wakes its
#: KV cache and generates, sleeps, and the context loads everything back before training. Three moments, per GPU:
#: training (states + activations, vLLM asleep), the refit (states + vLLM's 16-bit weights, no KV cache yet) and the
#: generation (vLLM's whole pool, the training model gone).
def offloaded_pool_bytes(pool, held, acts, w16_vllm, xp, back=None):
    """Bytes the colocated engine adds beyond the training state and activations when the training model
    (``held``: weights, gradients, optimizer states, reference) leaves the GPU while vLLM generates: the larger of
    the generation's pool and the refit's vLLM weights (the comment above), less what training already holds,
    never below zero. ``back``: what of ``held`` is on the GPU again during the refit (Megatron-SWIFT: all of it,
    the default; verl: the parameter shard only, :func:`verl_generation_offload`)."""
    refit = w16_vllm - acts if back is None else w16_vllm + back - held - acts
    return xp.maximum(xp.maximum(pool - held - acts, refit), 0.0)


#: Issue 35 round 17 (post18): verl's actor offload between phases, seen from the generation. verl
#: (volcengine/verl b178a3cd5) ``actor_rollout_ref.actor.fsdp_config.param_offload`` / ``optimizer_offload``, both
#: ``false`` by default (``verl/trainer/config/engine/fsdp.yaml``), and EasyR1 (hiyouga/EasyR1 a23fb5b0, v0.3.2)
#: ``worker.actor.offload.offload_params`` / ``offload_optimizer``, both ``False`` in ``OffloadConfig``
#: (``verl/workers/actor/config.py``; its ``examples/config.yaml`` sets both true): the planner's
#: ``parallel.offload_params`` / ``offload_optimizer`` on the ``fsdp`` framework's RL (bench/rl_step_times.py).
#: * What leaves the GPU: ``offload_fsdp_model`` moves each FSDP handle's flat parameter shard to the host
#:   (``handle.flat_param_to("cpu")``, ``verl/utils/fsdp_utils.py``); ``offload_fsdp_optimizer`` moves every tensor
#:   of ``optimizer.state``. The gradients are gone in either case: the update ends with ``zero_grad()``
#:   (``dp_actor.py`` ``_optimizer_step`` at a23fb5b0; ``update_policy``'s last line, l. 668, at b178a3cd5), which
#:   sets every ``.grad`` to None (``torch.optim.Optimizer.zero_grad(set_to_none=True)``, the default since
#:   torch 2.0). The reference is FSDP-wrapped with ``CPUOffload(offload_params=True)`` (EasyR1
#:   ``ref.fsdp.enable_cpu_offload``; verl for every reference): its streamed layers live only in its own forward.
#: * Whose memory the sleeping engine takes (fixes17), with both flags off too: the freed gradients and the
#:   reference's layers go back to torch's caching allocator, and the switch to generation returns the cache to the
#:   driver before vLLM wakes: ``rollout_mode`` opens with ``aggressive_empty_cache(force_sync=True)``
#:   (``verl/workers/fsdp_workers.py`` l. 679 at b178a3cd5; ``verl/utils/memory_utils.py``: ``gc.collect()``,
#:   ``empty_cache()``), then ``rollout.resume(tags=["weights"])`` and, after the weight sync and a second
#:   ``aggressive_empty_cache`` (l. 750), ``resume(tags=["kv_cache"])``: vLLM's sleep-mode allocator maps fresh
#:   physical memory (``CuMemAllocator``, ``cuMemCreate``) out of what the driver holds free. So the pool reuses the
#:   gradients and the reference beside the activations whatever the flags; the flags decide only whether the
#:   parameter shard and the optimizer state also leave (:func:`verl_offloaded_pool_bytes`).
#: * When: ``update_actor`` loads both before the mini-batches and offloads both after; ``compute_log_prob`` and
#:   the refit load and offload the parameters (``fsdp_workers.py``; the refit:
#:   ``sharding_manager/fsdp_vllm.py`` ``_sync_weight_to_vllm``: ``load_fsdp_model``, the per-tensor sync into
#:   vLLM's woken weights, ``offload_fsdp_model``, then ``wake_up(tags=["kv_cache"])``). So the training moment
#:   holds every state (memory.verl_offload_per_phase), the generation holds the pool and what was not offloaded,
#:   and the refit holds vLLM's 16-bit weights beside the parameter shard.
#: * Time: the copies are already priced per phase at the host link's pinned rate (timing.verl_phase_bytes).
def verl_generation_offload(prof: MethodProfile, framework: str, offload_params, offload_optimizer):
    """``(params, optimizer)`` offload flags of verl's actor while a sleeping colocated vLLM generates (the
    comment above; booleans or, in the vectorised search, arrays), or None where the run is no such verl run. Where
    both flags are off the pool reuses the activations', the gradients' and the reference's memory (fixes17)."""
    if not (verl_offload_per_phase(prof, framework) and prof.engine == "vllm_colocated" and prof.engine_sleep):
        return None
    return offload_params, offload_optimizer


def verl_offloaded_pool_bytes(verl_offload, pool, weights, gradients, opt, reference, acts, w16, xp):
    """The colocated pool's bytes beyond the training moment for verl's actor (:func:`verl_generation_offload`'s
    flags): the gradients (freed by ``zero_grad``) and the reference's streamed layers leave while vLLM generates
    whatever the flags, and the switch empties torch's cache so the pool takes their memory (the comment above,
    fixes17); with an offload on, the parameter shard and/or the optimizer state leave too and the parameter shard
    is back for the refit (:func:`offloaded_pool_bytes`). With both off nothing of the actor's parameters leaves:
    the refit holds vLLM's weights beside the resident states (``back`` 0, the shard never left)."""
    params_off = xp.asarray(verl_offload[0], dtype=bool)
    opt_off = xp.asarray(verl_offload[1], dtype=bool)
    back = xp.where(params_off, weights, 0.0)
    held = back + xp.where(opt_off, opt, 0.0) + gradients + reference
    return offloaded_pool_bytes(pool, held, acts, w16, xp, back=back)


def objective_parts(m: ModelFacts, prof: MethodProfile, *, precision, weights, gradients, opt, acts, model_gpu,
                    layer_full, zero, dp_sh, tp, seqs, gpu_capacity_gib, xp, model_offloaded: bool = False,
                    verl_offload=None):
    """Bytes per GPU of the models and buffers a training objective adds (:mod:`core.methods`).

    * ``reference`` (``reference = separate``) and ``reward`` (a reward model): frozen copies in 16-bit (fp32
      for fp32 runs), no gradients or optimizer states; split like the policy by tensor/pipeline/expert
      parallelism and sharded over the data-parallel ranks under ZeRO-3/FSDP (TRL ``prepare_deepspeed``
      keeps stage 3 for the reference; other stages hold a full copy). Offloaded (OpenRLHF
      ``--ref_reward_offload``): two layers in flight on the GPU (current + prefetched), the rest in CPU memory.
      The reward model has a value head instead of the LM head. A LoRA policy's reference with the adapters
      disabled (``lora_base``) or precomputed log-probabilities hold nothing more.
    * ``critic`` (PPO): a second trained model with the policy's states (weights, gradients, optimizer) and a
      value head.
    * Generation (RL): the rollouts' KV cache — ``seqs`` = micro-batch × accumulation sequences per GPU per
      step (TRL ``steps_per_generation`` = accumulation), ``prompt + rollout`` tokens each, K/V heads split by
      tensor parallelism.
      - ``training`` engine (HF ``generate``): generation and the training step alternate, so the KV cache (and,
        under ZeRO-3, the gathered 16-bit weights: TRL ``ds3_gather_for_generation``) reuse the activations'
        memory: ``kv_cache`` is what the generation phase needs beyond the activations.
      - ``vllm_colocated``: vLLM reserves ``generation_gpu_fraction`` of the GPU at start (its 16-bit weights,
        ``rollout_weights``, and the KV pool, ``kv_cache``) beside the training state (TRL colocate mode,
        ``vllm_gpu_memory_utilization``); with ``engine_sleep`` vLLM frees both while the model trains, so the
        reservation reuses the activations' memory like the training engine. With ``model_offloaded`` as well
        (``training.rl.offload_model``, :func:`rl_model_offloaded`) the training model leaves the GPU while vLLM
        generates, so the pool also reuses the memory of the weights, gradients, optimizer states and reference
        (:func:`offloaded_pool_bytes`); verl's actor offload likewise (:func:`verl_generation_offload`).
      - ``vllm_separate``: the rollouts run on other GPUs; nothing here.
    """
    zero_arr = xp.asarray(zero)
    frozen_b = 4.0 if precision == "fp32" else 2.0
    value_ratio = (m.params.total - m.params.lm_head + m.h) / max(m.params.total, 1)
    zeros = weights * 0.0
    out = {}

    def frozen(share):
        held = xp.where(zero_arr >= 3, model_gpu * share / dp_sh, model_gpu * share) * frozen_b
        streamed = 2 * 2.0 * layer_full * share
        return xp.where(prof.reference_offload, streamed, held) + zeros

    if prof.reference == "separate":
        out["reference"] = frozen(1.0)
        if prof.reference_grad_buffer:
            # Megatron-SWIFT before 1b184f296 built the reference with Megatron's ``get_model`` (default
            # ``wrap_with_ddp=True``): its DDP allocates a gradient buffer for every parameter that requires grad,
            # fp32 under bf16 (reference_grad_buffer_bytes_per_param), split like the policy
            out["reference"] = out["reference"] + reference_grad_buffer_bytes_per_param() * model_gpu
    if prof.reward_model:
        out["reward"] = frozen(value_ratio)
    if prof.critic:
        out["critic"] = (weights + gradients + opt) * value_ratio
    if prof.rl and prof.engine != "vllm_separate":
        kv_tok = kv_bytes_per_token(m.arch, 2.0)
        vllm = prof.engine == "vllm_colocated"
        kv_need = kv_cache_tokens(prof, seqs, shared_prompts=vllm) * kv_tok / tp
        w16 = 2.0 * m.params.total / tp
        if vllm:
            if prof.rollout_tp:
                w16 = 2.0 * m.params.total / prof.rollout_tp  # vLLM's own tensor parallelism (timing._rollouts)
            pool = prof.gpu_fraction * gpu_capacity_gib * GIB
            if prof.engine_sleep and model_offloaded:
                held = weights + gradients + opt + out.get("reference", 0.0)
                out["kv_cache"] = offloaded_pool_bytes(pool, held, acts, w16, xp) + zeros
            elif prof.engine_sleep and verl_offload is not None:
                out["kv_cache"] = zeros + verl_offloaded_pool_bytes(
                    verl_offload, pool, weights, gradients, opt, out.get("reference", 0.0), acts, w16, xp)
            elif prof.engine_sleep:
                out["kv_cache"] = xp.maximum(pool - acts, 0.0) + zeros
            else:
                out["rollout_weights"] = w16 + zeros
                out["kv_cache"] = xp.maximum(pool - w16, 0.0) + zeros
        else:
            # PPO: TRL generates with ``unwrap_model_for_generation(self.model, ...)`` where ``self.model`` is the
            # ``PolicyAndValueWrapper(policy, value_model)``: under ZeRO-3 ``GatheredParameters(model.parameters())``
            # gathers the critic's 16-bit weights beside the policy's (trl/trainer/ppo_trainer.py, trl/models/
            # utils.py)
            wrap = 1.0 + (value_ratio if prof.critic else 0.0)
            gathered = xp.where(zero_arr >= 3, w16 * wrap, 0.0)
            out["kv_cache"] = xp.maximum(kv_need + gathered - acts, 0.0) + zeros
    return out
