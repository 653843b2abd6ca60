"""Exact parameter counts from the architecture.

The count walks the modules of a decoder layer the way the reference implementations build them
(Hugging Face ``transformers`` ``modeling_llama.py``, ``modeling_mixtral.py``, ``modeling_qwen2_moe.py``,
``modeling_deepseek_v3.py``, ``modeling_gpt2.py``; Megatron-LM ``transformer_layer.py``):

* attention: q, k, v and o projections; GQA shrinks k and v to ``num_kv_heads·head_dim``; MLA
  (DeepSeek-V2 paper, arXiv:2405.04434 §2.1.2) uses low-rank q (``q_a``/``q_b``) and a joint kv latent
  (``kv_a_proj_with_mqa`` → ``kv_b``) with their RMSNorms;
* MLP: SwiGLU/GeGLU has three ``h×f`` matrices (gate, up, down; Shazeer 2020, arXiv:2002.05202), GELU
  MLPs two;
* MoE: a router ``h×E`` plus E experts; only ``num_experts_per_tok`` experts (plus shared experts) are
  active per token (Fedus et al. 2021; Jiang et al. 2024 Mixtral);
* norms: RMSNorm has a weight, LayerNorm a weight and a bias; embeddings ``V×h``, an untied LM head
  another ``V×h``, learned positions ``P×h``.
"""

from __future__ import annotations

from dataclasses import field
from functools import lru_cache

from dataclasses import dataclass
from .architecture import ModelArch


@dataclass(slots=True, frozen=True)
class Linear:
    """One weight matrix of a layer: ``fan_in → fan_out`` (+ bias), ``count`` copies of which
    ``active`` are used per token (experts), and whether it belongs to an expert."""

    name: str
    fan_in: int
    fan_out: int
    bias: bool = False
    count: int = 1
    active: int = 1
    expert: bool = False

    @property
    def params_each(self) -> int:
        return self.fan_in * self.fan_out + (self.fan_out if self.bias else 0)

    @property
    def weight_each(self) -> int:
        return self.fan_in * self.fan_out


def norm_params(arch: ModelArch, width: int) -> int:
    """RMSNorm: weight only; LayerNorm: weight + bias (Zhang & Sennrich 2019; Ba et al. 2016)."""
    return 2 * width if arch.norm_type == "layernorm" else width


def attention_linears(a: ModelArch) -> list[Linear]:
    h = a.hidden_size
    if a.is_mla:
        out: list[Linear] = []
        qk_head = a.qk_nope_head_dim + a.qk_rope_head_dim
        if a.q_lora_rank:
            out += [Linear("q_a_proj", h, a.q_lora_rank), Linear("q_b_proj", a.q_lora_rank, a.num_heads * qk_head)]
        else:
            out.append(Linear("q_proj", h, a.num_heads * qk_head))
        out += [
            Linear("kv_a_proj_with_mqa", h, a.kv_lora_rank + a.qk_rope_head_dim),
            Linear("kv_b_proj", a.kv_lora_rank, a.num_heads * (a.qk_nope_head_dim + a.v_head_dim)),
            Linear("o_proj", a.num_heads * a.v_head_dim, h, a.attention_out_bias),
        ]
        return out
    qd, kvd = a.num_heads * a.head_dim, a.num_kv_heads * a.head_dim
    return [
        Linear("q_proj", h, qd, a.attention_bias),
        Linear("k_proj", h, kvd, a.attention_bias),
        Linear("v_proj", h, kvd, a.attention_bias),
        Linear("o_proj", qd, h, a.attention_out_bias),
    ]


def _mlp(prefix: str, h: int, f: int, gated: bool, bias: bool, count: int = 1, active: int = 1,
         expert: bool = False) -> list[Linear]:
    if gated:
        return [
            Linear(f"{prefix}gate_proj", h, f, bias, count, active, expert),
            Linear(f"{prefix}up_proj", h, f, bias, count, active, expert),
            Linear(f"{prefix}down_proj", f, h, bias, count, active, expert),
        ]
    return [
        Linear(f"{prefix}fc1", h, f, bias, count, active, expert),
        Linear(f"{prefix}fc2", f, h, bias, count, active, expert),
    ]


def mlp_linears(a: ModelArch, moe_layer: bool) -> list[Linear]:
    h = a.hidden_size
    if not moe_layer:
        return _mlp("", h, a.intermediate_size, a.gated_mlp, a.mlp_bias)
    out = [Linear("router", h, a.num_experts, False)]
    out += _mlp("experts.", h, a.moe_intermediate_size, a.gated_mlp, a.mlp_bias,
                count=a.num_experts, active=a.num_experts_per_tok, expert=True)
    if a.num_shared_experts:
        out += _mlp("shared_experts.", h, a.moe_intermediate_size * a.num_shared_experts, a.gated_mlp, a.mlp_bias)
    if a.shared_expert_intermediate_size:
        out += _mlp("shared_expert.", h, a.shared_expert_intermediate_size, a.gated_mlp, a.mlp_bias)
        out.append(Linear("shared_expert_gate", h, 1, False))
    return out


def layer_norm_params(a: ModelArch, moe_layer: bool) -> int:
    n = a.norms_per_layer * norm_params(a, a.hidden_size)
    if a.qk_norm:
        n += 2 * a.head_dim  # q_norm and k_norm act per head (weights shared across heads)
    if a.is_mla:
        n += a.kv_lora_rank + (a.q_lora_rank or 0)  # kv_a_layernorm, q_a_layernorm (RMSNorm)
    if moe_layer and a.router_bias:
        n += a.num_experts  # DeepSeek-V3 e_score_correction_bias
    return n


@dataclass(slots=True, frozen=True)
class ParamCount:
    """Parameter counts. ``total`` counts every stored weight; ``active`` those used per token."""

    total: int
    active: int
    embedding: int  # word (+ position) embeddings (+ embedding norm)
    lm_head: int  # untied output projection (0 when tied)
    final_norm: int
    dense_layer: int  # params of one dense layer (0 if none)
    moe_layer: int  # params of one MoE layer (0 if none)
    moe_layer_active: int
    expert_params: int  # all routed-expert params over the whole model
    attention_per_layer: int
    linear_active: int  # active matmul weights in the layers (for FLOPs), excludes embeddings/head
    layers: list[tuple[str, int]] = field(default_factory=list)
    vision: int = 0  # vision encoder of a vision-language model (in ``total`` and ``active``)
    projector: int = 0  # its projector / patch merger into the language model (in ``total`` and ``active``)

    @property
    def non_expert(self) -> int:
        return self.total - self.expert_params

    @property
    def language(self) -> int:
        """The language model's parameters (``total`` without the vision encoder and projector)."""
        return self.total - self.vision - self.projector


def layer_params(a: ModelArch, moe_layer: bool) -> tuple[int, int, int]:
    """(total, active, routed-expert) params of one decoder layer."""
    lin = attention_linears(a) + mlp_linears(a, moe_layer)
    total = sum(l.params_each * l.count for l in lin) + layer_norm_params(a, moe_layer)
    active = sum(l.params_each * l.active for l in lin) + layer_norm_params(a, moe_layer)
    experts = sum(l.params_each * l.count for l in lin if l.expert)
    return total, active, experts


@lru_cache(maxsize=64)
def count_params(a: ModelArch) -> ParamCount:
    h = a.hidden_size
    emb = a.vocab_size * h
    if a.position_embedding == "learned":
        emb += a.max_position_embeddings * h
    if a.embedding_norm:
        emb += norm_params(a, h)
    head = 0 if a.tie_word_embeddings else a.vocab_size * h
    final_norm = norm_params(a, h)
    n_moe = a.num_moe_layers
    n_dense = a.num_layers - n_moe
    dense_t, dense_a, _ = layer_params(a, False) if n_dense else (0, 0, 0)
    moe_t, moe_a, moe_e = layer_params(a, True) if n_moe else (0, 0, 0)
    total = emb + head + final_norm + n_dense * dense_t + n_moe * moe_t
    active = emb + head + final_norm + n_dense * dense_a + n_moe * moe_a
    attn = sum(l.params_each for l in attention_linears(a))
    lin_active = n_dense * sum(l.weight_each * l.active for l in attention_linears(a) + mlp_linears(a, False)) if n_dense else 0
    if n_moe:
        lin_active += n_moe * sum(l.weight_each * l.active for l in attention_linears(a) + mlp_linears(a, True))
    layers = [("dense", dense_t)] * n_dense + [("moe", moe_t)] * n_moe
    vision, projector = vision_params(a)
    return ParamCount(
        total=total + vision + projector, active=active + vision + projector, embedding=emb, lm_head=head,
        final_norm=final_norm, dense_layer=dense_t, moe_layer=moe_t, moe_layer_active=moe_a,
        expert_params=n_moe * moe_e, attention_per_layer=attn, linear_active=lin_active, layers=layers,
        vision=vision, projector=projector,
    )


def vision_layer_params(a: ModelArch) -> int:
    """One vision-encoder block: two norms, fused qkv + output projection with biases, the MLP with biases
    (fc1/fc2, or gate/up/down for Qwen2.5-VL's SwiGLU)."""
    w, i = a.vision_hidden, a.vision_intermediate
    norms = 2 * (2 * w if a.vision_norm == "layernorm" else w)
    attn = (w * 3 * w + (3 * w if a.vision_qkv_bias else 0)) + (w * w + w)
    if a.vision_qk_norm:
        attn += 2 * w  # InternViT-6B: q_norm, k_norm (RMSNorm over the full width)
    mlp = (2 * (w * i + i) + (i * w + w)) if a.vision_gated else ((w * i + i) + (i * w + w))
    scale = 2 * w if a.vision_layer_scale else 0  # InternViT: ls1, ls2
    return norms + attn + mlp + scale


def vision_params(a: ModelArch) -> tuple[int, int]:
    """(vision encoder, projector) parameters of a vision-language model; (0, 0) for a text model.

    Module by module as the modelling code builds them (``architecture._vision_fields`` cites the files):

    * Qwen2-VL / Qwen2.5-VL: Conv3d patch embedding ``in_chans·temporal·patch²·w`` (no bias), ``depth``
      blocks, no position table (2-D RoPE); merger: ``ln_q`` over ``w``, ``Linear(w·m², w·m²)``,
      ``Linear(w·m², out)`` with biases.
    * CLIP: ``class_embedding`` (w), Conv2d patch embedding without bias, learned positions
      ``((image/patch)² + 1)·w``, ``pre_layrnorm`` and ``post_layernorm``; SigLIP: Conv2d with bias, positions
      ``(image/patch)²·w``, ``post_layernorm`` and, with ``vision_use_head``, the attention-pooling head (probe,
      ``nn.MultiheadAttention`` in/out projections with biases, LayerNorm, MLP).
    * LLaVA projector: ``Linear(projector_in, out)`` and ``Linear(out, out)`` (biases unless
      ``multimodal_projector_bias`` is false); LLaVA-NeXT adds the ``image_newline`` vector (out).
    """
    if not a.vision_kind:
        return 0, 0
    w, p = a.vision_hidden, a.vision_patch
    blocks = a.vision_layers * vision_layer_params(a)
    if a.vision_kind in ("qwen2_vl", "qwen2_5_vl"):
        embed = a.vision_in_chans * a.vision_temporal_patch * p * p * w
        m = a.projector_in  # w · merge²
        ln = 2 * w if a.vision_norm == "layernorm" else w
        return embed + blocks, ln + (m * m + m) + (m * a.projector_out + a.projector_out)
    n_patches = (a.vision_image_size // p) ** 2
    if a.vision_kind == "intern_vit":
        # class token, Conv2d with bias, positions for the patches and the class token; mlp1: LayerNorm(w·s²),
        # Linear(w·s², text), GELU, Linear(text, text)
        embed = w + (a.vision_in_chans * p * p * w + w) + (n_patches + 1) * w
        m, o = a.projector_in, a.projector_out
        return embed + blocks, 2 * m + (m * o + o) + (o * o + o)
    if a.vision_kind == "clip":
        embed = w + a.vision_in_chans * p * p * w + (n_patches + 1) * w + 2 * (2 * w)
    else:  # siglip
        embed = (a.vision_in_chans * p * p * w + w) + n_patches * w + 2 * w
        if a.vision_head:
            i = a.vision_intermediate
            embed += w + (3 * w * w + 3 * w) + (w * w + w) + 2 * w + (w * i + i) + (i * w + w)
    o = a.projector_out
    b = 1 if a.projector_bias else 0
    proj = (a.projector_in * o + b * o) + (o * o + b * o) + (o if a.image_newline else 0)
    return embed + blocks, proj


def vision_tokens_per_image(a: ModelArch, resolution: int) -> tuple[int, int]:
    """(patches the encoder runs on, tokens the language model receives) for one square image.

    Qwen2-VL resizes each side to a multiple of ``patch·merge`` (``smart_resize`` in the Qwen2-VL image
    processor, rounding to the nearest multiple of 28) and the merger joins ``merge²`` patches into one token;
    CLIP/SigLIP resize to their fixed ``image_size`` (LLaVA takes every patch, CLIP's class token dropped)."""
    if not a.vision_kind:
        return 0, 0
    if a.vision_kind == "intern_vit":
        # InternVL's dynamic_preprocess: tiles of image_size in the grid closest to the image's aspect ratio
        # (a square image: k×k), a larger grid only while the image covers more than half of it, at most
        # max_dynamic_patch tiles, plus a thumbnail tile when split; each tile is (image/patch)² patches and
        # the class token, pixel-shuffled into (image/patch)²/s² tokens
        img = a.vision_image_size
        k = 1
        while a.vision_max_tiles and (k + 1) ** 2 <= a.vision_max_tiles and 2 * resolution ** 2 > (img * (k + 1)) ** 2:
            k += 1
        tiles = k * k + (1 if k > 1 and a.vision_thumbnail else 0)
        grid = (img // a.vision_patch) ** 2
        return tiles * (grid + 1), tiles * grid // a.vision_merge ** 2
    if a.vision_image_size:
        n = (a.vision_image_size // a.vision_patch) ** 2
        return n, n
    unit = a.vision_patch * a.vision_merge
    side = max(1, round(resolution / unit))
    tokens = side * side
    return tokens * a.vision_merge ** 2, tokens


def _fuse(lins: list[Linear], names: tuple[str, ...], fused_name: str) -> list[Linear]:
    """Merge same-input linears (e.g. q, k, v) into one ``in → sum(out)`` matrix, as stored on disk."""
    parts = [l for l in lins if l.name.split(".")[-1] in names]
    if len(parts) < 2:
        return lins
    first = parts[0]
    merged = Linear(first.name.rsplit(".", 1)[0] + "." + fused_name if "." in first.name else fused_name,
                    first.fan_in, sum(p.fan_out for p in parts), first.bias, first.count, first.active, first.expert)
    out, done = [], False
    for l in lins:
        if l in parts:
            if not done:
                out.append(merged)
                done = True
        else:
            out.append(l)
    return out


#: the ``lora_targets`` that adapt the MLP's linears (a MoE layer's experts too): see :func:`lora_linears`
LORA_MLP_TARGETS = ("all_linear", "mlp", "qkv_mlp")


def lora_linears(a: ModelArch, targets: str) -> list[Linear]:
    """The linear layers PEFT adapts: ``attention`` = q/k/v/o projections (MLA: its projections); ``qkv`` = the
    fused query/key/value projection alone (Megatron ``linear_qkv``);
    ``qv`` = q_proj and v_proj (PEFT's default for Llama-family models; fused q/k/v: the fused projection);
    ``mlp`` = the MLP's linears alone (gate/up/down, the experts' too);
    ``qkv_mlp`` = ``all_linear`` less ``o_proj`` (Answer.AI fsdp_qlora's "all");
    ``all_linear`` = every linear layer in the blocks except the router (PEFT ``target_modules="all-linear"``
    excludes the output head; Mixtral's experts are linear layers and are included). Where the modelling
    code stores q/k/v (or gate/up) as one matrix — GPT-2 ``c_attn``, NeoX/BLOOM/Falcon/ChatGLM
    ``query_key_value``, Phi-3 ``qkv_proj``/``gate_up_proj`` — PEFT puts one adapter ``r·(in + Σout)`` on it."""
    lin = attention_linears(a)
    if (a.fused_qkv or targets == "qkv") and not a.is_mla:
        lin = _fuse(lin, ("q_proj", "k_proj", "v_proj"), "qkv_proj")
    if targets == "qv":
        # PEFT's model-type default (utils/constants.py TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING: llama,
        # mistral, qwen2 … ["q_proj", "v_proj"]; GPT-2 ["c_attn"], NeoX ["query_key_value"], Phi-3 ["qkv_proj"]: the
        # fused projection); MLA: its query and KV projections, as ``qkv``
        keep = ("q_proj", "v_proj", "qkv_proj", "q_a_proj", "kv_a_proj_with_mqa")
        return [(l, a.num_layers) for l in lin if l.name in keep]
    if targets == "qkv":
        # Megatron-Core keeps q/k/v in one ``linear_qkv`` whatever the checkpoint stores; its LoRA puts one adapter
        # ``r·(h + q + 2·kv)`` on it (Megatron-Bridge ``peft/lora.py`` → ``ParallelLinearAdapter`` over the linear's
        # in/out features); MLA has no fused projection: its query and KV down-projections
        return [(l, a.num_layers) for l in lin if l.name in ("qkv_proj", "q_proj", "q_a_proj", "kv_a_proj_with_mqa")]

    def mlp(moe: bool) -> list[Linear]:
        m = [l for l in mlp_linears(a, moe) if l.name not in ("router", "shared_expert_gate")]
        return _fuse(m, ("gate_proj", "up_proj"), "gate_up_proj") if a.fused_gate_up else m

    if targets == "qkv_mlp":
        # AnswerDotAI/fsdp_qlora train.py @27ce87d ``lora_target_modules="all"`` (its default): ["k_proj", "q_proj",
        # "v_proj", "up_proj", "down_proj", "gate_proj"]: every linear of the blocks but the attention output o_proj
        return [x for x in lora_linears(a, "all_linear") if x[0].name != "o_proj"]
    if targets in ("all_linear", "mlp"):
        n_moe = a.num_moe_layers
        dense = mlp(False) if a.num_layers - n_moe else []
        moe = mlp(True) if n_moe else []
        # ``mlp``: PEFT target_modules=["gate_proj", "up_proj", "down_proj"] (the experts' linears carry those names)
        attn = [] if targets == "mlp" else [(l, a.num_layers) for l in lin]
        return attn + [(l, a.num_layers - n_moe) for l in dense] + [(l, n_moe) for l in moe]
    return [(l, a.num_layers) for l in lin]


@lru_cache(maxsize=256)
def lora_io_elements(a, targets: str) -> tuple[float, float]:
    """Per token, summed over the adapted linears of all layers (the experts a token is routed to, for MoE):
    the input width ``Σ fan_in`` and output width ``Σ fan_out`` that LoRA's adapter path reads and writes
    (``flops.lora_traffic_elements``)."""
    d_in = d_out = 0.0
    for lin, n_layers in lora_linears(a, targets):
        d_in += float(lin.fan_in * lin.active * n_layers)
        d_out += float(lin.fan_out * lin.active * n_layers)
    return d_in, d_out


@lru_cache(maxsize=256)
def dora_magnitude_params(a: ModelArch, targets: str) -> int:
    """DoRA's trainable magnitude vectors: one element per output row of each adapted linear (PEFT
    ``DoraLinearLayer.update_layer``: ``nn.Parameter(weight_norm)``, length fan_out)."""
    return sum(lin.fan_out * lin.count * n for lin, n in lora_linears(a, targets))


def adapter_params(a: ModelArch, rank: int, targets: str, dora: bool = False) -> int:
    """Trainable adapter parameters of LoRA/QLoRA: the adapters (:func:`lora_params`' total) and, with DoRA, its
    magnitude vectors (:func:`dora_magnitude_params`)."""
    return lora_params(a, rank, targets)[0] + (dora_magnitude_params(a, targets) if dora else 0)


@lru_cache(maxsize=256)
def dora_largest_weight(a: ModelArch, targets: str) -> int:
    """Elements of the largest adapted weight (one expert's for MoE): DoRA's weight-norm temporaries are that size."""
    return max((lin.fan_in * lin.fan_out for lin, _n in lora_linears(a, targets)), default=0)


@lru_cache(maxsize=256)
def lora_params(a: ModelArch, rank: int, targets: str) -> tuple[int, int]:
    """(total, active) LoRA adapter parameters: each adapted ``in→out`` matrix gets
    ``A: r×in`` and ``B: out×r`` (Hu et al. 2021, arXiv:2106.09685 §4.1)."""
    total = active = 0
    for lin, n_layers in lora_linears(a, targets):
        per = rank * (lin.fan_in + lin.fan_out)
        total += per * lin.count * n_layers
        active += per * lin.active * n_layers
    return total, active


@lru_cache(maxsize=64)
def base_linear_params(a: ModelArch) -> int:
    """Weights of all linear layers inside the blocks (what QLoRA quantises to NF4); embeddings, head,
    norms and biases stay in 16-bit (Dettmers et al. 2023, arXiv:2305.14314 §3)."""
    n_moe = a.num_moe_layers
    n_dense = a.num_layers - n_moe
    total = 0
    if n_dense:
        total += n_dense * sum(l.weight_each * l.count for l in attention_linears(a) + mlp_linears(a, False))
    if n_moe:
        total += n_moe * sum(l.weight_each * l.count for l in attention_linears(a) + mlp_linears(a, True))
    return total


def tier(total_params: float) -> str:
    """Scale tier used for guidance: ~10B (one node), ~100B (multi-node TP+PP), ~1000B (cluster pool)."""
    if total_params < 30e9:
        return "10B"
    if total_params < 300e9:
        return "100B"
    return "1000B"


#: safetensors dtypes whose element count is the parameter count (one element per weight). Quantised
#: checkpoints pack several weights per element (GPTQ/AWQ ``qweight`` in I32, bitsandbytes 4-bit in U8), so
#: their header count is not a parameter count.
FLOAT_DTYPES = frozenset({"F64", "F32", "F16", "BF16", "F8_E4M3", "F8_E5M2"})


def weights_count(a: ModelArch) -> int | None:
    """The parameter count the checkpoint's weights hold (safetensors headers), when it is one: a float
    checkpoint; None without headers or for a quantised checkpoint."""
    if a.stored_params is None or a.stored_params <= 0 or (a.stored_dtype or "").upper() not in FLOAT_DTYPES:
        return None
    return int(a.stored_params)


def weights_scale(a: ModelArch, total: int | None = None) -> float:
    """Weights' count / config's count: memory is sized from the weights when the two disagree (1.0 when they
    agree or the weights are unknown)."""
    w = weights_count(a)
    total = count_params(a).total if total is None else total
    if w is None or total <= 0 or w == total:
        return 1.0
    return w / total
