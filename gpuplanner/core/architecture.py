"""Model architecture: one resolved description of a transformer, whatever it came from.

A :class:`ModelArch` is built from a preset (``resources/models/<id>.json``, which stores the model's
Hugging Face ``config.json``), a user's ``config.json`` or model folder, or explicit fields. The
Hugging Face config keys per ``model_type`` follow the ``configuration_*.py`` files of the
``transformers`` library (and the model repos' own code for chatglm, baichuan, internlm2, deepseek).
"""

from __future__ import annotations

import dataclasses
import math
from functools import lru_cache
from typing import Any, Callable, Protocol

from dataclasses import dataclass
from .errors import CatalogError, ModelConfigError, ScenarioError
from .i18n import QT_TRANSLATE_NOOP
from .messages import MsgStr, error_text

_CTX_CFG = "ModelConfig"


def _cfg_msg(template: str, /, **params: Any) -> MsgStr:
    """A config.json problem as a sentence that keeps its message id (translated where it is shown)."""
    return MsgStr.make(_CTX_CFG, template, **params)


@dataclass(slots=True, frozen=True)
class ModelArch:
    """A decoder-only transformer, resolved. Sizes are counts (not bytes)."""

    name: str
    model_type: str
    hidden_size: int
    num_layers: int
    num_heads: int
    num_kv_heads: int
    head_dim: int
    intermediate_size: int  # dense MLP width (dense layers)
    vocab_size: int
    gated_mlp: bool = True
    tie_word_embeddings: bool = False
    # MoE
    num_experts: int = 0  # routed experts per MoE layer (0 = dense model)
    num_experts_per_tok: int = 0
    moe_intermediate_size: int = 0
    num_shared_experts: int = 0  # shared experts of moe_intermediate_size (DeepSeek)
    shared_expert_intermediate_size: int = 0  # one shared expert of this width + sigmoid gate (Qwen-MoE)
    num_dense_layers: int = 0  # leading dense layers in an MoE model (DeepSeek first_k_dense_replace)
    router_bias: bool = False  # DeepSeek-V3 e_score_correction_bias
    # MLA (DeepSeek-V2/V3)
    q_lora_rank: int = 0
    kv_lora_rank: int = 0
    qk_rope_head_dim: int = 0
    qk_nope_head_dim: int = 0
    v_head_dim: int = 0
    # details
    attention_bias: bool = False  # biases on q, k, v projections
    attention_out_bias: bool = False
    mlp_bias: bool = False
    norm_type: str = "rmsnorm"  # rmsnorm: weight only; layernorm: weight + bias
    norms_per_layer: int = 2
    qk_norm: bool = False  # per-head RMSNorm on q and k (Qwen3, Gemma 3)
    position_embedding: str = "rope"  # rope | learned | alibi | none
    max_position_embeddings: int = 0
    embedding_norm: bool = False  # LayerNorm after the word embeddings (BLOOM)
    parallel_attn_mlp: bool = False  # attention and MLP share one input norm (Falcon, GPT-J)
    dropout: bool = False  # GPT-style dropout masks saved for backward (Megatron GPT)
    mlp_act: str = ""  # the MLP activation as the config names it (hidden_act): "" unknown (time model only)
    fused_qkv: bool = False  # q, k, v stored as one matrix (GPT-2 c_attn, NeoX/BLOOM/Falcon query_key_value, ...)
    fused_gate_up: bool = False  # gate and up stored as one matrix (Phi-3 gate_up_proj, ChatGLM dense_h_to_4h)
    stored_params: int | None = None  # exact count read from safetensors headers, when known
    stored_dtype: str | None = None
    # block-scaled FP8 checkpoint (issue 35 r14, fp8block14): the config's ``quantization_config.weight_block_size``
    # [block_n, block_k] (Qwen3-*-FP8, DeepSeek-V3/R1: [128, 128]); 0, 0 when absent (unquantised or per-tensor)
    weight_block_n: int = 0
    weight_block_k: int = 0
    # what the reader did not know (never silent: core/intake.py turns these into warnings)
    unrecognised: str = ""  # the config's model_type when its family is not one this module reads exactly
    uncounted: str = ""  # config sections not counted (e.g. "vision_config"), comma-separated
    context_length: int = 0  # tokens the model is meant for: max_position_embeddings, RoPE scaling applied
    # vision encoder + projector of a vision-language model (vision_kind "" = text only); see _vision_fields
    vision_kind: str = ""  # qwen2_vl | qwen2_5_vl | clip | siglip | intern_vit
    vision_hidden: int = 0
    vision_layers: int = 0
    vision_heads: int = 0
    vision_intermediate: int = 0
    vision_gated: bool = False  # SwiGLU MLP (Qwen2.5-VL) instead of fc1/act/fc2
    vision_norm: str = "layernorm"  # layernorm (weight + bias) | rmsnorm (weight)
    vision_patch: int = 0
    vision_temporal_patch: int = 1  # Qwen2-VL's Conv3d covers this many frames (an image is repeated)
    vision_merge: int = 1  # spatial_merge_size: merge² patches become one language-model token
    vision_in_chans: int = 3
    vision_image_size: int = 0  # fixed input resolution (CLIP/SigLIP); 0 = dynamic (Qwen2-VL)
    vision_head: bool = False  # SigLIP's attention-pooling head (vision_use_head)
    projector_in: int = 0  # projector input width (LLaVA: vision width × feature layers)
    projector_out: int = 0  # the language model's width
    projector_bias: bool = True
    image_newline: bool = False  # LLaVA-NeXT's learned image_newline vector (hidden)
    vision_qkv_bias: bool = True  # biases on the vision attention's q/k/v (InternViT: qkv_bias)
    vision_qk_norm: bool = False  # InternViT-6B's q_norm/k_norm (RMSNorm over the full width)
    vision_layer_scale: bool = False  # InternViT's ls1/ls2 per-channel scales
    vision_max_tiles: int = 0  # InternVL dynamic tiling: at most this many image_size tiles (0 = no tiling)
    vision_thumbnail: bool = False  # InternVL adds a thumbnail tile when an image is split

    @property
    def is_moe(self) -> bool:
        return self.num_experts > 0

    @property
    def is_mla(self) -> bool:
        return self.kv_lora_rank > 0

    @property
    def num_moe_layers(self) -> int:
        return self.num_layers - self.num_dense_layers if self.is_moe else 0

    @property
    def q_dim(self) -> int:
        """Width of the query projection output (all heads)."""
        if self.is_mla:
            return self.num_heads * (self.qk_nope_head_dim + self.qk_rope_head_dim)
        return self.num_heads * self.head_dim

    @property
    def kv_dim(self) -> int:
        """Width of one of K or V (all KV heads); for MLA, the per-token latent plus rope key."""
        if self.is_mla:
            return self.kv_lora_rank + self.qk_rope_head_dim
        return self.num_kv_heads * self.head_dim

    def replace(self, **changes: Any) -> "ModelArch":
        return dataclasses.replace(self, **changes)


def _get(cfg: dict, *keys: str, default: Any = None) -> Any:
    for k in keys:
        if k in cfg and cfg[k] is not None:
            return cfg[k]
    return default


#: Upper bounds for any count read from a config.json (far above every real model: 2^20 hidden units,
#: 10,000 layers, 2^27 vocabulary entries); beyond them the file is not a model, and arithmetic must not
#: overflow. Per field, :func:`check_arch` applies the physical ranges.
MAX_CONFIG_INT = 1 << 40


def _int(cfg: dict, *keys: str, default: Any = None, required: bool = True, minimum: int = 0) -> int | None:
    """An integer field of a config.json: a whole, finite number in ``[minimum, MAX_CONFIG_INT]``."""
    v = _get(cfg, *keys, default=default)
    key = next((k for k in keys if cfg.get(k) is not None), keys[0])  # the key the file holds (probe15)
    if v is None:
        if required:
            raise ModelConfigError(_cfg_msg(QT_TRANSLATE_NOOP(_CTX_CFG, "missing '{key}'"), key=keys[0]), field="config.json")
        return None
    ok = not isinstance(v, bool) and isinstance(v, (int, float)) and (not isinstance(v, float) or math.isfinite(v))
    if not ok or int(v) != v or v < minimum or v > MAX_CONFIG_INT:
        shown = repr(v) if isinstance(v, (int, float, str, bool)) else type(v).__name__
        raise ModelConfigError(_cfg_msg(QT_TRANSLATE_NOOP(
            _CTX_CFG, "'{key}' must be a whole number ≥ {minimum}, got {got}"), key=key, minimum=minimum,
            got=shown[:40]), field="config.json")
    return int(v)


def _size(cfg: dict, *keys: str, default: Any = None) -> int:
    """A size that must be positive (hidden width, heads, layers, vocabulary)."""
    return _int(cfg, *keys, default=default, minimum=1)


def _number(cfg: dict, *keys: str, default: float) -> float:
    v = _get(cfg, *keys, default=default)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or not 0 < v <= 1024:
        raise ModelConfigError(_cfg_msg(QT_TRANSLATE_NOOP(_CTX_CFG, "'{key}' must be a positive number, got {got}"),
                                        key=keys[0], got=str(v)[:40]), field="config.json")
    return float(v)


def _obj(cfg: dict, key: str) -> dict:
    v = cfg.get(key)
    if v is None:
        return {}
    if not isinstance(v, dict):
        raise ModelConfigError(_cfg_msg(QT_TRANSLATE_NOOP(_CTX_CFG, "'{key}' must be an object"), key=key),
                               field="config.json")
    return v


def _div(h: int, heads: int, key: str = "num_attention_heads") -> int:
    """head_dim = hidden / heads, which must divide (the modelling code asserts it)."""
    if h % heads:
        raise ModelConfigError(_cfg_msg(QT_TRANSLATE_NOOP(
            _CTX_CFG, "hidden_size={h} is not divisible by {key}={heads}; give head_dim"), h=h, key=key, heads=heads),
            field="config.json")
    return h // heads


_GELU_ACTS = {"gelu", "gelu_new", "gelu_fast", "gelu_pytorch_tanh", "relu", "quick_gelu", "gelu_python", "relu2"}


# ------------------------------------------------------------------------- config.json key tables
#
# Each family is one table: a tuple of steps ``(field, reader)`` read in order (the order decides which problem a
# broken config reports first). ``field`` is a ModelArch field, or a name starting with "_" for a value the
# table uses later (or a check) that is not a field; a later step for the same field replaces the earlier value.
# A reader is ``reader(cfg, got)``: ``cfg`` the config (or, for the vision tables, its sections by name) and
# ``got`` the fields read so far. The readers below say how a key is read; the named functions after them are
# the fields that are genuinely computed.

Reader = Callable[[dict, dict], Any]
Steps = tuple[tuple[str, Reader], ...]


def _value(default: Any, got: dict) -> Any:
    return default(got) if callable(default) else default


def _section(cfg: dict, at: str | None) -> dict:
    return cfg if at is None else _obj(cfg, at)


def size(*keys: str, default: Any = None, at: str | None = None) -> Reader:
    """A positive whole number from the first key given (``default``, or missing)."""
    return lambda cfg, got: _size(_section(cfg, at), *keys, default=_value(default, got))


def count(*keys: str, default: Any = None, at: str | None = None) -> Reader:
    """A whole number ≥ 0 from the first key given (``default``, or missing)."""
    return lambda cfg, got: _int(_section(cfg, at), *keys, default=_value(default, got))


def optional(*keys: str, otherwise: Any = 0, at: str | None = None) -> Reader:
    """A whole number ≥ 0 when given; absent, null or 0 read as ``otherwise``."""
    return lambda cfg, got: _int(_section(cfg, at), *keys, required=False) or _value(otherwise, got)


def maybe(*keys: str) -> Reader:
    """A whole number ≥ 0, or None when absent."""
    return lambda cfg, got: _int(cfg, *keys, required=False)


def number(key: str, default: float, at: str | None = None) -> Reader:
    """A positive number (ratios)."""
    return lambda cfg, got: _number(_section(cfg, at), key, default=default)


def flag(*keys: str, default: Any = False, at: str | None = None) -> Reader:
    """The truth of the first key present (even when null), else of ``default``."""
    def read(cfg: dict, got: dict) -> bool:
        d = _section(cfg, at)
        for k in keys:
            if k in d:
                return bool(d[k])
        return bool(_value(default, got))
    return read


def const(value: Any) -> Reader:
    """What the modelling code builds whatever the config says."""
    return lambda cfg, got: value


def same(field: str) -> Reader:
    """The value of a field read before."""
    return lambda cfg, got: got[field]


def of(field: str) -> Callable[[dict], Any]:
    """A default: the value of a field read before."""
    return lambda got: got[field]


def _read(cfg: dict, steps: Steps, got: dict) -> dict:
    for field, reader in steps:
        got[field] = reader(cfg, got)
    return got


# -- computed fields

def _head_dim(got: dict) -> int:
    return _div(got["hidden_size"], got["num_heads"])


def _four_h(got: dict) -> int:
    return 4 * got["hidden_size"]


def _opt_projection(cfg: dict, got: dict) -> None:
    if _int(cfg, "word_embed_proj_dim", default=got["hidden_size"]) != got["hidden_size"]:
        raise ModelConfigError(_cfg_msg(QT_TRANSLATE_NOOP(
            _CTX_CFG, "OPT with word_embed_proj_dim != hidden_size (OPT-350m) is not supported")), field="config.json")


def _opt_positions(cfg: dict, got: dict) -> int:
    return _int(cfg, "max_position_embeddings") + 2  # OPT's learned positions have 2 extra rows (offset 2)


def _falcon_kv_heads(cfg: dict, got: dict) -> int:
    """Falcon's new decoder (40B/180B) has grouped KV heads; the old one multi-query (one) or full heads."""
    if bool(cfg.get("new_decoder_architecture", False)):
        return _size(cfg, "num_kv_heads", "n_head_kv", default=got["num_heads"])
    return 1 if cfg.get("multi_query", True) else got["num_heads"]


def _falcon_norms(cfg: dict, got: dict) -> int:
    """Two norms per layer (ln_attn, ln_mlp) in the new decoder or a sequential block, else one shared."""
    return 2 if (bool(cfg.get("new_decoder_architecture", False)) or not got["parallel_attn_mlp"]) else 1


def _mpt_ffn(cfg: dict, got: dict) -> int:
    return max(1, int(_number(cfg, "expansion_ratio", default=4) * got["hidden_size"]))


def _mpt_norm(cfg: dict, got: dict) -> str:
    return "layernorm_nobias" if got["_no_bias"] else "layernorm"


def _mpt_positions(cfg: dict, got: dict) -> str:
    return "alibi" if _obj(cfg, "attn_config").get("alibi", True) else "learned"


def _glm_kv_heads(cfg: dict, got: dict) -> int:
    if bool(cfg.get("multi_query_attention", False)):
        return _size(cfg, "multi_query_group_num", default=got["num_heads"])
    return got["num_heads"]


def _glm_qkv_bias(cfg: dict, got: dict) -> bool:
    return bool(cfg.get("add_qkv_bias", False) or cfg.get("add_bias_linear", False))


def _glm_norm(cfg: dict, got: dict) -> str:
    return "rmsnorm" if cfg.get("rmsnorm", True) else "layernorm"


def _gated(cfg: dict, got: dict) -> bool:
    """SwiGLU unless the activation is a GELU/ReLU of a plain MLP (Gemma's GELU is gated: GeGLU)."""
    act = str(_get(cfg, "hidden_act", "activation_function", "hidden_activation", default="silu")).lower()[:64]
    return act not in _GELU_ACTS or got["_mt"].startswith("gemma")


def _act_name(*keys: str, default: str):
    """The MLP activation's name from a config key (``hidden_act``, ``activation_function``, ...), lower case."""
    def step(cfg: dict, got: dict) -> str:
        v = _get(cfg, *keys, default=default)
        return (v if isinstance(v, str) else default).lower()[:64]
    return step


def _mpt_act(cfg: dict, got: dict) -> str:
    """MPT: ``ffn_config.ffn_act_fn`` (llm-foundry ``layers/ffn.py``: default ``{'name': 'gelu', 'approximate':
    'none'}``, i.e. ``nn.GELU``); v0.3.0 and the released configs hard-code ``nn.GELU(approximate='none')``."""
    fn = _obj(cfg, "ffn_config").get("ffn_act_fn")
    name = fn.get("name", "gelu") if isinstance(fn, dict) else "gelu"
    return (name if isinstance(name, str) else "gelu").lower()[:64]


def _check_moe_every_layer(cfg: dict, got: dict) -> None:
    if (_int(cfg, "moe_layer_freq", default=1, required=False) or 1) != 1:
        raise ModelConfigError(_cfg_msg(QT_TRANSLATE_NOOP(_CTX_CFG, "moe_layer_freq != 1 is not supported")),
                               field="config.json")


def _mla_head_dim(cfg: dict, got: dict) -> int:
    return got["qk_nope_head_dim"] + got["qk_rope_head_dim"]


def _deepseek_router_bias(cfg: dict, got: dict) -> bool:
    return got["_mt"] == "deepseek_v3" or cfg.get("topk_method") == "noaux_tc"


def _llama4_all_moe(cfg: dict, got: dict) -> None:
    """Llama 4 Maverick interleaves dense and MoE layers; only Scout's all-MoE layout is read."""
    step = _int(cfg, "interleave_moe_layer_step", default=1, required=False) or 1
    moe_layers = cfg.get("moe_layers")
    if step != 1 or (isinstance(moe_layers, list) and len(moe_layers) != got["num_layers"]):
        raise ModelConfigError(_cfg_msg(QT_TRANSLATE_NOOP(
            _CTX_CFG, "Llama 4 with interleaved dense and MoE layers (interleave_moe_layer_step > 1) "
            "is not supported")),
            field="config.json")


#: model types whose experts are built ``moe_intermediate_size`` wide (transformers Qwen2MoeSparseMoeBlock,
#: Qwen3MoeSparseMoeBlock, DeepSeekMoE's DeepseekMLP(intermediate_size=config.moe_intermediate_size)): 0 there is
#: experts of no width, no real model; Mixtral's experts are intermediate_size wide and ignore the key
_MOE_WIDTH_TYPES = ("qwen2_moe", "qwen3_moe", "deepseek")
#: model types whose every decoder layer builds its sparse MoE block whatever the expert count (transformers
#: MixtralDecoderLayer: MixtralSparseMoeBlock, a router Linear(hidden, num_local_experts) and top-k over it): 0
#: experts is no model there; Qwen-MoE builds a dense MLP when num_experts is 0 (modeling_qwen3_moe.py), so it reads
_ALWAYS_MOE_TYPES = ("mixtral",)


def _routed_experts(cfg: dict, got: dict) -> int:
    """Routed experts (num_local_experts / num_experts / n_routed_experts; absent or null: none)."""
    minimum = 1 if got["_mt"] in _ALWAYS_MOE_TYPES else 0
    return _int(cfg, "num_local_experts", "num_experts", "n_routed_experts", required=False, minimum=minimum) or 0


def _given_head_dim(cfg: dict, got: dict) -> int:
    """``head_dim`` when given, else hidden_size / heads. 0 is refused: LlamaConfig keeps it (``head_dim if head_dim
    is not None``) and the attention builds q/k/v/o ``heads × 0`` wide while RoPE falls back to hidden/heads
    (``getattr(config, "head_dim", None) or ...``): no model runs with it."""
    return _int(cfg, "head_dim", required=False, minimum=1) or _head_dim(got)


def _moe_width(cfg: dict, got: dict) -> int:
    minimum = 1 if got["_mt"] in _MOE_WIDTH_TYPES else 0
    moe_inter = _int(cfg, "moe_intermediate_size", default=None, required=False, minimum=minimum) or got["_inter"]
    if not moe_inter:
        raise ModelConfigError(_cfg_msg(QT_TRANSLATE_NOOP(_CTX_CFG, "an MoE config needs '{key}' or '{alt}'"),
                                        key="moe_intermediate_size", alt="intermediate_size"), field="config.json")
    return moe_inter


def _deepseek_dense_width(cfg: dict, got: dict) -> int:
    if got["_inter"] is None:
        raise ModelConfigError(_cfg_msg(QT_TRANSLATE_NOOP(_CTX_CFG, "missing '{key}'"), key="intermediate_size"),
                               field="config.json")
    return got["_inter"]


def _leading_dense_layers(cfg: dict, got: dict) -> int:
    """Qwen-MoE's dense layers (mlp_only_layers, decoder_sparse_step), read only when they lead the stack."""
    mlp_only = cfg.get("mlp_only_layers") or []
    if not isinstance(mlp_only, list) or not all(isinstance(x, int) and not isinstance(x, bool) for x in mlp_only):
        raise ModelConfigError(_cfg_msg(QT_TRANSLATE_NOOP(_CTX_CFG, "'{key}' must be a list of layer numbers"),
                                        key="mlp_only_layers"), field="config.json")
    # transformers (modeling_qwen2_moe.py, modeling_qwen3_moe.py) takes (layer_idx + 1) % decoder_sparse_step when the
    # model has experts: 0 is a division by zero there, so a config with experts needs a step of at least 1
    step = _int(cfg, "decoder_sparse_step", default=1, required=False, minimum=1 if got.get("num_experts") else 0) or 1
    if mlp_only or step != 1:
        if list(mlp_only) != list(range(len(mlp_only))) or step != 1:
            raise ModelConfigError(_cfg_msg(QT_TRANSLATE_NOOP(
                _CTX_CFG, "interleaved dense/MoE layers (mlp_only_layers, decoder_sparse_step) are only supported as "
                "leading dense layers")), field="config.json")
        return len(mlp_only)
    return got.get("num_dense_layers", 0)


def _dense_width(cfg: dict, got: dict) -> int:
    """intermediate_size; an MoE model without dense layers may leave it out."""
    if got["_inter"] is None:
        if not got.get("num_experts"):
            raise ModelConfigError(_cfg_msg(QT_TRANSLATE_NOOP(_CTX_CFG, "missing '{key}'"), key="intermediate_size"),
                                   field="config.json")
        return 0
    return got["_inter"]


# -- the families with their own layout (transformers configuration_*.py / modeling_*.py per model_type)

_PLAIN_MLP = (("gated_mlp", const(False)),)
_ALL_BIASES = (("attention_bias", const(True)), ("attention_out_bias", const(True)), ("mlp_bias", const(True)))

#: GPT-2 (configuration_gpt2.py): Conv1D c_attn (fused q/k/v), learned positions, biases everywhere, dropout
GPT2: Steps = (
    ("hidden_size", size("n_embd", "hidden_size")),
    ("num_heads", size("n_head", "num_attention_heads")),
    ("intermediate_size", optional("n_inner", otherwise=_four_h)),
    ("num_layers", size("n_layer", "num_hidden_layers")),
    ("num_kv_heads", same("num_heads")),
    ("head_dim", lambda cfg, got: _head_dim(got)),
    ("vocab_size", size("vocab_size")),
    *_PLAIN_MLP,
    ("tie_word_embeddings", flag("tie_word_embeddings", default=True)),
    *_ALL_BIASES,
    ("norm_type", const("layernorm")),
    ("position_embedding", const("learned")),
    ("max_position_embeddings", count("n_positions", "n_ctx", default=1024)),
    ("dropout", const(True)),
    ("fused_qkv", const(True)),
    ("mlp_act", _act_name("activation_function", default="gelu_new")),
)
#: GPT-NeoX (configuration_gpt_neox.py): fused query_key_value, LayerNorm, biases per attention_bias
GPT_NEOX: Steps = (
    ("hidden_size", size("hidden_size")),
    ("num_heads", size("num_attention_heads")),
    ("num_layers", size("num_hidden_layers")),
    ("num_kv_heads", same("num_heads")),
    ("head_dim", lambda cfg, got: _head_dim(got)),
    ("intermediate_size", size("intermediate_size", default=_four_h)),
    ("vocab_size", size("vocab_size")),
    *_PLAIN_MLP,
    ("tie_word_embeddings", flag("tie_word_embeddings", default=False)),
    ("attention_bias", flag("attention_bias", default=True)),
    ("attention_out_bias", flag("attention_bias", default=True)),
    ("mlp_bias", const(True)),
    ("norm_type", const("layernorm")),
    ("parallel_attn_mlp", const(False)),
    ("fused_qkv", const(True)),
    ("mlp_act", _act_name("hidden_act", default="gelu")),
)
#: OPT (configuration_opt.py): learned positions with an offset of 2, biases per enable_bias
OPT: Steps = (
    ("hidden_size", size("hidden_size")),
    ("num_heads", size("num_attention_heads")),
    ("_projection", _opt_projection),
    ("num_layers", size("num_hidden_layers")),
    ("num_kv_heads", same("num_heads")),
    ("head_dim", lambda cfg, got: _head_dim(got)),
    ("intermediate_size", size("ffn_dim")),
    ("vocab_size", size("vocab_size")),
    *_PLAIN_MLP,
    ("tie_word_embeddings", flag("tie_word_embeddings", default=True)),
    ("attention_bias", flag("enable_bias", default=True)),
    ("attention_out_bias", flag("enable_bias", default=True)),
    ("mlp_bias", flag("enable_bias", default=True)),
    ("norm_type", const("layernorm")),
    ("position_embedding", const("learned")),
    ("max_position_embeddings", _opt_positions),
    ("dropout", const(True)),
    ("mlp_act", _act_name("activation_function", default="relu")),
)
#: BLOOM (configuration_bloom.py): ALiBi, a LayerNorm after the embeddings, 4h MLP, tied embeddings
BLOOM: Steps = (
    ("hidden_size", size("hidden_size", "n_embed")),
    ("num_heads", size("n_head", "num_attention_heads")),
    ("num_layers", size("n_layer", "num_hidden_layers")),
    ("num_kv_heads", same("num_heads")),
    ("head_dim", lambda cfg, got: _head_dim(got)),
    ("intermediate_size", lambda cfg, got: _four_h(got)),
    ("vocab_size", size("vocab_size")),
    *_PLAIN_MLP,
    ("tie_word_embeddings", const(True)),
    *_ALL_BIASES,
    ("norm_type", const("layernorm")),
    ("position_embedding", const("alibi")),
    ("embedding_norm", const(True)),
    ("fused_qkv", const(True)),
    ("mlp_act", const("bloom_gelu")),
)
#: Falcon / RefinedWeb (configuration_falcon.py): multi-query or grouped KV, parallel attention and MLP
FALCON: Steps = (
    ("model_type", const("falcon")),
    ("hidden_size", size("hidden_size", "n_embed")),
    ("num_heads", size("num_attention_heads", "n_head")),
    ("num_kv_heads", _falcon_kv_heads),
    ("parallel_attn_mlp", flag("parallel_attn", default=True)),
    ("norms_per_layer", _falcon_norms),
    ("attention_bias", flag("bias", default=False)),
    ("attention_out_bias", same("attention_bias")),
    ("mlp_bias", same("attention_bias")),
    ("num_layers", size("num_hidden_layers", "n_layer")),
    ("head_dim", lambda cfg, got: _head_dim(got)),
    ("intermediate_size", optional("ffn_hidden_size", otherwise=_four_h)),
    ("vocab_size", size("vocab_size")),
    *_PLAIN_MLP,
    ("tie_word_embeddings", flag("tie_word_embeddings", default=True)),
    ("norm_type", const("layernorm")),
    ("fused_qkv", const(True)),
    ("position_embedding", lambda cfg, got: "alibi" if cfg.get("alibi") else "rope"),
    ("mlp_act", _act_name("activation", default="gelu")),
)
#: MPT (configuration_mpt.py): d_model, expansion_ratio, attn_config (kv_n_heads, alibi), no_bias
MPT: Steps = (
    ("hidden_size", size("d_model")),
    ("num_heads", size("n_heads")),
    ("intermediate_size", _mpt_ffn),
    ("_no_bias", flag("no_bias", default=True)),
    ("_attn_config", lambda cfg, got: _obj(cfg, "attn_config")),
    ("num_layers", size("n_layers")),
    ("num_kv_heads", size("kv_n_heads", default=of("num_heads"), at="attn_config")),
    ("head_dim", lambda cfg, got: _head_dim(got)),
    ("vocab_size", size("vocab_size")),
    *_PLAIN_MLP,
    ("tie_word_embeddings", const(True)),
    ("attention_bias", lambda cfg, got: not got["_no_bias"]),
    ("attention_out_bias", same("attention_bias")),
    ("mlp_bias", same("attention_bias")),
    ("norm_type", _mpt_norm),
    ("position_embedding", _mpt_positions),
    ("max_position_embeddings", count("max_seq_len", default=2048)),
    ("fused_qkv", const(True)),
    ("mlp_act", _mpt_act),
)
#: ChatGLM2/3, GLM-4 (THUDM configuration_chatglm.py): multi-query groups, kv_channels, fused QKV and gate/up
CHATGLM: Steps = (
    ("hidden_size", size("hidden_size")),
    ("num_heads", size("num_attention_heads")),
    ("num_kv_heads", _glm_kv_heads),
    ("head_dim", size("kv_channels", default=lambda got: max(1, got["hidden_size"] // got["num_heads"]))),
    ("num_layers", size("num_layers", "num_hidden_layers")),
    ("intermediate_size", size("ffn_hidden_size")),
    ("vocab_size", size("padded_vocab_size", "vocab_size")),
    ("gated_mlp", const(True)),
    ("tie_word_embeddings", const(False)),
    ("attention_bias", _glm_qkv_bias),
    ("attention_out_bias", flag("add_bias_linear", default=False)),
    ("mlp_bias", flag("add_bias_linear", default=False)),
    ("norm_type", _glm_norm),
    ("fused_qkv", const(True)),
    ("fused_gate_up", const(True)),
)
_OWN_FAMILIES: dict[str, Steps] = {
    "gpt2": GPT2, "gpt_neox": GPT_NEOX, "opt": OPT, "bloom": BLOOM, "mpt": MPT, "chatglm": CHATGLM,
    **dict.fromkeys(("falcon", "refinedweb", "refinedwebmodel", "rw"), FALCON),
}

# -- Llama-like decoders: one table, what each model_type builds differently, and the MoE/MLA keys

_GEMMA_TIED = ("gemma", "gemma2", "gemma3_text")
LLAMA: Steps = (
    ("hidden_size", size("hidden_size")),
    ("num_heads", size("num_attention_heads")),
    ("num_kv_heads", size("num_key_value_heads", default=of("num_heads"))),
    ("head_dim", _given_head_dim),
    ("_inter", maybe("intermediate_size")),
    ("num_layers", size("num_hidden_layers")),
    ("vocab_size", size("vocab_size")),
    ("tie_word_embeddings", flag("tie_word_embeddings", default=lambda got: got["_mt"] in _GEMMA_TIED)),
    ("gated_mlp", _gated),
    ("mlp_act", _act_name("hidden_act", "activation_function", "hidden_activation", default="silu")),
    ("max_position_embeddings", count("max_position_embeddings", default=0)),
    ("attention_bias", flag("attention_bias", "bias", default=False)),
    ("mlp_bias", flag("mlp_bias", default=False)),
)
_QWEN2_BIAS: Steps = (("attention_bias", const(True)),)  # q/k/v biases hard-coded in Qwen2Attention (and Qwen2-VL's)
_LLAMA_O_BIAS: Steps = (("attention_out_bias", flag("attention_bias", default=False)),)  # LlamaAttention: o_proj too
_QK_NORM: Steps = (("qk_norm", const(True)),)
#: what a model_type's modelling code builds beyond LlamaDecoderLayer; PEFT adapts fused matrices once
LLAMA_VARIANTS: dict[str, Steps] = {
    **dict.fromkeys(("llama", "mistral", "yi"), _LLAMA_O_BIAS),
    **dict.fromkeys(("qwen2", "qwen2_moe", "qwen2_vl", "qwen2_5_vl", "qwen2_vl_text", "qwen2_5_vl_text"), _QWEN2_BIAS),
    "qwen3": _QK_NORM, "qwen3_moe": _QK_NORM,
    # Transformers ``models/olmo2`` (docs ``model_doc/olmo2.md``: "Norm is applied to attention queries and keys";
    # ``Olmo2Attention`` builds ``q_norm`` and ``k_norm``): the flag z3host12's ZeRO-3 hook count reads (review r12)
    "olmo2": _QK_NORM,
    "gemma2": (("norms_per_layer", const(4)),),
    "gemma3_text": (*_QK_NORM, ("norms_per_layer", const(4))),
    "internlm2": (("attention_bias", flag("bias", default=False)), ("attention_out_bias", flag("bias", default=False)),
                  ("fused_qkv", const(True))),
    "baichuan": (("fused_qkv", const(True)),),
    "phi3": (("fused_qkv", const(True)), ("fused_gate_up", const(True))),
}

#: Mixtral, Qwen-MoE, OLMoE, …: routed experts (num_local_experts / num_experts / n_routed_experts), an
#: optional shared expert of its own width (Qwen-MoE), leading dense layers (mlp_only_layers)
MOE: Steps = (
    ("num_experts", _routed_experts),
)
MOE_EXPERTS: Steps = (
    ("moe_intermediate_size", _moe_width),
    ("num_experts_per_tok", count("num_experts_per_tok", "num_experts_per_token", default=2)),
    ("shared_expert_intermediate_size", optional("shared_expert_intermediate_size")),
)
MOE_LEADING_DENSE: Steps = (("num_dense_layers", _leading_dense_layers),)
#: DeepSeekMoE (deepseek-ai/deepseek-moe-16b-base modeling_deepseek.py): n_shared_experts experts of
#: moe_intermediate_size beside the routed ones; the first first_k_dense_replace layers are dense
DEEPSEEK_MOE: Steps = (
    ("_every_layer", _check_moe_every_layer),
    ("num_shared_experts", optional("n_shared_experts")),
    ("num_dense_layers", optional("first_k_dense_replace")),
    ("intermediate_size", _deepseek_dense_width),
)
#: DeepSeek-V2/V3 multi-head latent attention (modeling_deepseek_v3.py): every key and value is read from the
#: kv_lora_rank-wide latent (``kv_a_layernorm = RMSNorm(kv_lora_rank)``, ``kv_b_proj = Linear(kv_lora_rank, …)``),
#: so the rank and v_head_dim are positive, as the scenario's own fields (ModelSection kv_lora_rank, v_head_dim > 0);
#: a 0 read as "no MLA" before and estimated another attention (probe14)
MLA: Steps = (
    ("q_lora_rank", optional("q_lora_rank")),
    ("kv_lora_rank", size("kv_lora_rank")),
    ("qk_rope_head_dim", count("qk_rope_head_dim")),
    ("qk_nope_head_dim", count("qk_nope_head_dim")),
    ("v_head_dim", size("v_head_dim")),
    ("head_dim", _mla_head_dim),
    ("num_experts", optional("n_routed_experts")),
)
MLA_EXPERTS: Steps = (
    ("num_experts_per_tok", count("num_experts_per_tok")),
    ("moe_intermediate_size", count("moe_intermediate_size")),
    ("num_shared_experts", optional("n_shared_experts")),
    ("num_dense_layers", optional("first_k_dense_replace")),
    ("router_bias", _deepseek_router_bias),
    ("_every_layer", _check_moe_every_layer),
)
#: Llama 4 (transformers modeling_llama4.py): Llama4TextMoe = router Linear(h, E) + E experts of
#: intermediate_size (fused gate_up and down) + one shared expert Llama4TextMLP(intermediate_size); the QK norm
#: is a parameter-free L2 norm; dense layers use intermediate_size_mlp. Every layer is MoE when
#: interleave_moe_layer_step is 1 (Scout); interleaved dense/MoE layers (Maverick) are not read.
LLAMA4_MOE: Steps = (
    ("_all_moe", _llama4_all_moe),
    ("num_experts", size("num_local_experts")),
    ("num_experts_per_tok", size("num_experts_per_tok")),
    ("moe_intermediate_size", size("intermediate_size")),
    ("num_shared_experts", const(1)),
    ("intermediate_size", optional("intermediate_size_mlp")),
)


def _llama_like(cfg: dict, mt: str) -> dict:
    """The fields of a Llama-like decoder: the shared table, the type's own steps, then its experts."""
    got = _read(cfg, LLAMA + LLAMA_VARIANTS.get(mt, ()), {"_mt": mt})
    if mt in ("deepseek_v2", "deepseek_v3"):
        _read(cfg, MLA, got)
        if got["num_experts"]:
            _read(cfg, MLA_EXPERTS, got)
        got["intermediate_size"] = got["_inter"] or 0
        return got
    if mt == "llama4_text":
        return _read(cfg, LLAMA4_MOE, got)
    _read(cfg, MOE, got)
    if got["num_experts"]:
        _read(cfg, MOE_EXPERTS, got)
        if mt == "deepseek":
            return _read(cfg, DEEPSEEK_MOE, got)
        _read(cfg, MOE_LEADING_DENSE, got)
    got["intermediate_size"] = _dense_width(cfg, got)
    return got


def _unwrap(cfg: dict) -> tuple[dict, dict]:
    """(the language model's config, the outer config): LLaVA's text_config (with LlamaConfig's defaults),
    InternVL's llm_config, any other text_config; a plain config is both."""
    outer = cfg
    if str(cfg.get("model_type", "")).lower() in LLAVA_TYPES and "hidden_size" not in cfg:
        tc = cfg.get("text_config")
        tc = tc if isinstance(tc, dict) else {"model_type": "llama"}
        if str(tc.get("model_type", "llama")).lower() == "llama":
            tc = {**LLAMA_CONFIG_DEFAULTS, "model_type": "llama", **tc}
        cfg = {**cfg, "text_config": tc}
        outer = cfg
    if str(cfg.get("model_type", "")).lower() in INTERNVL_TYPES and isinstance(cfg.get("llm_config"), dict) \
            and "hidden_size" not in cfg:
        cfg = {**cfg, "text_config": cfg["llm_config"]}  # InternVL's remote code names it llm_config
        outer = cfg
    if "text_config" in cfg and isinstance(cfg["text_config"], dict) and "hidden_size" not in cfg:
        cfg = {**cfg["text_config"], "model_type": cfg["text_config"].get("model_type", cfg.get("model_type"))}
    return cfg, outer


def arch_from_hf_config(cfg: dict, name: str | None = None) -> ModelArch:
    """Translate a Hugging Face ``config.json`` dict into a :class:`ModelArch`.

    Handles the key names of llama/mistral/mixtral/qwen2/qwen2_moe/qwen3/qwen3_moe/deepseek/deepseek_v2/v3,
    gemma/gemma2, phi3, internlm2, baichuan, chatglm, yi (llama), gpt2, gpt_neox, falcon, bloom, opt, mpt
    (one key table per family above). Any other ``model_type`` is read as a Llama-like decoder and marked
    ``unrecognised``; sections it does not count (a vision tower) are named in ``uncounted``, so the estimate can
    say so.
    """
    if not isinstance(cfg, dict):
        raise ModelConfigError(_cfg_msg(QT_TRANSLATE_NOOP(_CTX_CFG, "config.json must be a JSON object")),
                               field="config.json")
    cfg, outer = _unwrap(cfg)
    mt = cfg.get("model_type")
    inferred = not (isinstance(mt, str) and mt)
    raw_archs = cfg.get("architectures", outer.get("architectures"))
    archs = " ".join(a for a in raw_archs if isinstance(a, str)).lower() if isinstance(raw_archs, list) else ""
    if inferred and ("chatglm" in archs or "baichuan" in archs):
        inferred = False
    return _finish(_arch_from_text_config(cfg, name, archs), outer, inferred, text_cfg=cfg)


def _arch_from_text_config(cfg: dict, name: str | None, archs: str) -> ModelArch:
    mt = cfg.get("model_type")
    mt = mt.lower()[:64] if isinstance(mt, str) else ""
    if not mt:
        mt = "chatglm" if "chatglm" in archs else ("baichuan" if "baichuan" in archs else "llama")
    if not (isinstance(name, str) and name):
        nop = cfg.get("_name_or_path")
        name = nop if isinstance(nop, str) and nop else mt
    name = "".join(ch if ch.isprintable() else " " for ch in name)[:200]
    own = _OWN_FAMILIES.get(mt)
    got = _read(cfg, own, {"model_type": mt}) if own is not None else _llama_like(cfg, mt)
    fields = {k: v for k, v in got.items() if not k.startswith("_")}
    return ModelArch(name=name, **{"model_type": mt, **fields})


#: ``model_type`` values the Llama-like table of :func:`arch_from_hf_config` reads exactly (their modelling code
#: builds the layers the way :mod:`params` counts them). Any other type is estimated as a Llama-like
#: decoder and flagged (``ModelArch.unrecognised``).
LLAMA_LIKE_TYPES = frozenset({
    "llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "deepseek", "deepseek_v2",
    "deepseek_v3", "gemma", "gemma2", "gemma3_text", "phi3", "internlm2", "baichuan", "yi",
    # the language models of Qwen2-VL / Qwen2.5-VL (Qwen2 decoder layers; the vision tower: _vision_fields)
    "qwen2_vl", "qwen2_5_vl", "qwen2_vl_text", "qwen2_5_vl_text",
    "llama4_text",  # the language model of Llama 4 Scout (all layers MoE + a shared expert)
})

#: transformers' ``LlamaConfig`` defaults: LLaVA configs (llava-hf) give only the keys that differ from them in
#: ``text_config``, and ``LlavaConfig`` builds the text model with ``CONFIG_MAPPING["llama"](**text_config)``
LLAMA_CONFIG_DEFAULTS = {"hidden_size": 4096, "intermediate_size": 11008, "num_hidden_layers": 32,
                         "num_attention_heads": 32, "vocab_size": 32000, "max_position_embeddings": 2048}
#: transformers ``CLIPVisionConfig`` / ``SiglipVisionConfig`` defaults (configuration_clip.py, configuration_siglip.py)
CLIP_VISION_DEFAULTS = {"hidden_size": 768, "intermediate_size": 3072, "num_hidden_layers": 12,
                        "num_attention_heads": 12, "num_channels": 3, "image_size": 224, "patch_size": 32}
SIGLIP_VISION_DEFAULTS = {**CLIP_VISION_DEFAULTS, "patch_size": 16}
#: ``LlavaConfig``'s vision tower when the config gives none: CLIP ViT-L/14 at 336 px
LLAVA_DEFAULT_VISION = {"model_type": "clip_vision_model", "hidden_size": 1024, "intermediate_size": 4096,
                        "num_hidden_layers": 24, "num_attention_heads": 16, "image_size": 336, "patch_size": 14}
LLAVA_TYPES = ("llava", "llava_next")
INTERNVL_TYPES = ("internvl_chat",)


# -- vision towers: one table per kind, read from the sections "vision" (vision_config) and "outer" (the
#    whole config); got["_text_hidden"] is the language model's width

def _projector_in(got: dict) -> int:
    return got["vision_hidden"] * got["vision_merge"] ** 2


def _qwen2_vl_mlp(cfg: dict, got: dict) -> int:
    return max(1, int(got["vision_hidden"] * _number(cfg["vision"], "mlp_ratio", default=4)))


#: Qwen2-VL (transformers ``modeling_qwen2_vl.py``): ``PatchEmbed`` Conv3d ``in_chans → embed_dim`` over
#: ``temporal_patch_size × patch_size²`` without bias; ``depth`` blocks of LayerNorm, fused ``qkv`` and ``proj``
#: with biases, MLP ``fc1``/QuickGELU/``fc2`` of width ``embed_dim·mlp_ratio`` with biases; ``PatchMerger``:
#: LayerNorm(embed_dim), Linear(embed_dim·merge², same), GELU, Linear(…, hidden_size).
QWEN_VL_VISION: Steps = (
    ("vision_in_chans", size("in_chans", "in_channels", default=3, at="vision")),
    ("vision_heads", size("num_heads", default=16, at="vision")),
    ("vision_layers", size("depth", default=32, at="vision")),
    ("vision_patch", size("patch_size", default=14, at="vision")),
    ("vision_temporal_patch", size("temporal_patch_size", default=2, at="vision")),
    ("vision_merge", size("spatial_merge_size", default=2, at="vision")),
    ("vision_image_size", const(0)),
)
QWEN2_VL_VISION: Steps = QWEN_VL_VISION + (
    ("vision_hidden", size("embed_dim", default=1280, at="vision")),
    ("vision_intermediate", _qwen2_vl_mlp),
    ("projector_out", size("hidden_size", default=of("_text_hidden"), at="vision")),
    ("vision_gated", const(False)),
    ("vision_norm", const("layernorm")),
    ("projector_in", lambda cfg, got: _projector_in(got)),
)
#: Qwen2.5-VL (``modeling_qwen2_5_vl.py``): the same with RMSNorm, a SwiGLU MLP of ``intermediate_size``
#: (gate/up/down with biases) and ``out_hidden_size`` for the merger's output.
QWEN2_5_VL_VISION: Steps = QWEN_VL_VISION + (
    ("vision_hidden", size("hidden_size", default=1280, at="vision")),
    ("projector_out", size("out_hidden_size", default=of("_text_hidden"), at="vision")),
    ("vision_intermediate", size("intermediate_size", default=3420, at="vision")),
    ("vision_gated", const(True)),
    ("vision_norm", const("rmsnorm")),
    ("projector_in", lambda cfg, got: _projector_in(got)),
)


def _internvl_merge(cfg: dict, got: dict) -> int:
    """Pixel shuffle by 1/downsample_ratio merges that many patches per side."""
    ratio = _number(cfg["outer"], "downsample_ratio", default=0.5)
    merge = int(round(1 / ratio))
    if merge < 1 or abs(merge * ratio - 1) > 1e-6:
        raise ModelConfigError(_cfg_msg(QT_TRANSLATE_NOOP(_CTX_CFG, "'{key}' must be 1/n"), key="downsample_ratio"),
                               field="config.json")
    return merge


def _internvl_image(cfg: dict, got: dict) -> int:
    return _size(cfg["outer"], "force_image_size", default=_size(cfg["vision"], "image_size", default=448))


def _internvl_patch(cfg: dict, got: dict) -> int:
    patch, img = _size(cfg["vision"], "patch_size", default=14), got["vision_image_size"]
    if patch > img or (img // patch) % got["vision_merge"]:
        raise ModelConfigError(_cfg_msg(QT_TRANSLATE_NOOP(
            _CTX_CFG, "vision_config: image_size/patch_size must be a multiple of 1/downsample_ratio")),
            field="config.json")
    return patch


def _internvl_tiles(cfg: dict, got: dict) -> int:
    return _size(cfg["outer"], "max_dynamic_patch", default=12) if got["_dynamic"] else 0


#: InternVL 1.5/2/2.5 (OpenGVLab remote code: modeling_intern_vit.py, modeling_internvl_chat.py): InternViT (class
#: token, Conv2d patch embedding with bias, learned positions, blocks of norm1/attn/ls1 + norm2/mlp/ls2, fused
#: qkv, optional q/k RMSNorm), pixel shuffle by 1/downsample_ratio, and mlp1 = LayerNorm(w·s²), Linear(w·s², text),
#: GELU, Linear(text, text)
INTERNVL_VISION: Steps = (
    ("vision_merge", _internvl_merge),
    ("vision_hidden", size("hidden_size", at="vision")),
    ("vision_image_size", _internvl_image),
    ("vision_patch", _internvl_patch),
    ("vision_norm", lambda cfg, got: "layernorm" if str(cfg["vision"].get("norm_type", "rms_norm")).lower()
     == "layer_norm" else "rmsnorm"),
    ("_dynamic", flag("dynamic_image_size", default=False, at="outer")),
    ("vision_layers", size("num_hidden_layers", at="vision")),
    ("vision_heads", size("num_attention_heads", at="vision")),
    ("vision_intermediate", size("intermediate_size", at="vision")),
    ("vision_gated", const(False)),
    ("vision_temporal_patch", const(1)),
    ("vision_in_chans", size("num_channels", default=3, at="vision")),
    ("projector_in", lambda cfg, got: _projector_in(got)),
    ("projector_out", same("_text_hidden")),
    ("vision_qkv_bias", flag("qkv_bias", default=False, at="vision")),
    ("vision_qk_norm", flag("qk_normalization", default=False, at="vision")),
    ("vision_layer_scale", const(True)),
    ("vision_max_tiles", _internvl_tiles),
    ("vision_thumbnail", lambda cfg, got: got["_dynamic"] and bool(cfg["outer"].get("use_thumbnail", False))),
)


def _llava_features(cfg: dict, got: dict) -> int:
    """LLaVA concatenates the vision features of each layer in vision_feature_layer."""
    layer = cfg["outer"].get("vision_feature_layer", -2)
    n_feat = len(layer) if isinstance(layer, list) and layer else 1
    if n_feat > 64:
        raise ModelConfigError(_cfg_msg(QT_TRANSLATE_NOOP(_CTX_CFG, "'{key}' lists too many layers"),
                                        key="vision_feature_layer"), field="config.json")
    return n_feat


def _llava_image(cfg: dict, got: dict) -> int:
    img = _size(cfg["vision"], "image_size")
    if got["vision_patch"] > img:
        raise ModelConfigError(_cfg_msg(QT_TRANSLATE_NOOP(
            _CTX_CFG, "vision_config: patch_size is larger than image_size")), field="config.json")
    return img


def _siglip_head(cfg: dict, got: dict) -> bool:
    """SigLIP's attention-pooling head (vision_use_head, default true); CLIP has none."""
    return got["vision_kind"] == "siglip" and bool(cfg["vision"].get("vision_use_head", True))


#: LLaVA (``modeling_llava.py``): a CLIP or SigLIP vision tower (``modeling_clip.py``/``modeling_siglip.py``) and
#: ``LlavaMultiModalProjector``: Linear(vision width × feature layers, text width), GELU, Linear(text width, text
#: width), biases per ``multimodal_projector_bias`` (default true). The "vision" section carries the tower's
#: defaults (CLIP_VISION_DEFAULTS / SIGLIP_VISION_DEFAULTS) under what the config gives.
LLAVA_VISION: Steps = (
    ("vision_hidden", size("hidden_size", at="vision")),
    ("_features", _llava_features),
    ("vision_patch", size("patch_size", at="vision")),
    ("vision_image_size", _llava_image),
    ("vision_layers", size("num_hidden_layers", at="vision")),
    ("vision_heads", size("num_attention_heads", at="vision")),
    ("vision_intermediate", size("intermediate_size", at="vision")),
    ("vision_gated", const(False)),
    ("vision_norm", const("layernorm")),
    ("vision_temporal_patch", const(1)),
    ("vision_merge", const(1)),
    ("vision_in_chans", size("num_channels", default=3, at="vision")),
    ("vision_head", _siglip_head),
    ("projector_in", lambda cfg, got: got["vision_hidden"] * got["_features"]),
    ("projector_out", same("_text_hidden")),
    ("projector_bias", flag("multimodal_projector_bias", default=True, at="outer")),
    ("image_newline", lambda cfg, got: str(cfg["outer"].get("model_type", "")).lower()[:64] == "llava_next"),
)


def _vision_table(outer: dict, mt: str) -> tuple[str, dict, Steps] | None:
    """The vision tower's kind, its config section and its table; None when the config has no vision part this
    reader knows (it is then named in ``uncounted``)."""
    vc = outer.get("vision_config")
    outer_mt = str(outer.get("model_type", "")).lower()[:64]
    if outer_mt in ("qwen2_vl", "qwen2_5_vl") or mt in ("qwen2_vl", "qwen2_5_vl"):
        if not isinstance(vc, dict):
            return None
        if "qwen2_5_vl" in (outer_mt, mt):
            return "qwen2_5_vl", vc, QWEN2_5_VL_VISION
        return "qwen2_vl", vc, QWEN2_VL_VISION
    if outer_mt in INTERNVL_TYPES:
        if not isinstance(vc, dict) or str(vc.get("model_type", "intern_vit_6b")).lower() != "intern_vit_6b":
            return None
        return "intern_vit", vc, INTERNVL_VISION
    if outer_mt in LLAVA_TYPES:
        vc = LLAVA_DEFAULT_VISION if vc is None else vc
        if not isinstance(vc, dict):
            return None
        vmt = str(vc.get("model_type", "clip_vision_model")).lower()[:64]
        if vmt not in ("clip_vision_model", "siglip_vision_model"):
            return None
        if vmt == "siglip_vision_model":
            return "siglip", {**SIGLIP_VISION_DEFAULTS, **vc}, LLAVA_VISION
        return "clip", {**CLIP_VISION_DEFAULTS, **vc}, LLAVA_VISION
    return None


def _vision_fields(outer: dict, mt: str, text_hidden: int) -> dict[str, Any] | None:
    """The vision encoder and projector of a vision-language config, as :class:`ModelArch` fields (the tables
    above cite the modelling code); None when the config has no vision part this reader knows."""
    found = _vision_table(outer, mt)
    if found is None:
        return None
    kind, vision, steps = found
    got = _read({"vision": vision, "outer": outer}, steps, {"vision_kind": kind, "_text_hidden": text_hidden})
    return {k: v for k, v in got.items() if not k.startswith("_")}


#: families read by their own tables above
OWN_BRANCH_TYPES = frozenset(_OWN_FAMILIES)


def context_length(cfg: dict, max_pos: int) -> int:
    """The context the model is meant for: ``max_position_embeddings``, stretched by RoPE scaling.

    ``rope_scaling`` (transformers ``modeling_rope_utils.py``): ``linear``, ``dynamic`` and ``yarn`` scale the
    original context (``original_max_position_embeddings``, else ``max_position_embeddings``) by ``factor``;
    ``llama3`` and ``longrope`` configs already give the extended length in ``max_position_embeddings``."""
    rs = cfg.get("rope_scaling")
    if not isinstance(rs, dict):
        return max_pos
    kind = str(rs.get("rope_type", rs.get("type", ""))).lower()[:32]
    factor = rs.get("factor")
    if kind not in ("linear", "dynamic", "yarn") or isinstance(factor, bool) or \
            not isinstance(factor, (int, float)) or not math.isfinite(factor) or not 1 <= factor <= 1024:
        return max_pos
    orig = rs.get("original_max_position_embeddings", cfg.get("original_max_position_embeddings"))
    if isinstance(orig, bool) or not isinstance(orig, int) or not 0 < orig <= (1 << 31):
        orig = max_pos
    return max(max_pos, min(int(orig * factor), 1 << 31))


def _finish(arch: ModelArch, cfg: dict, inferred: bool = False, text_cfg: dict | None = None) -> ModelArch:
    """Record what was not read exactly: an unknown family, sections not counted, the context length."""
    changes: dict[str, Any] = {}
    if inferred or (arch.model_type not in LLAMA_LIKE_TYPES and arch.model_type not in OWN_BRANCH_TYPES):
        changes["unrecognised"] = arch.model_type if not inferred else "(none)"
    vision = _vision_fields(cfg, arch.model_type, arch.hidden_size)
    if vision:
        changes.update(vision)
    uncounted = [k for k in ("vision_config", "audio_config", "speech_config") if isinstance(cfg.get(k), dict)
                 and not (k == "vision_config" and vision)]
    if uncounted:
        changes["uncounted"] = ",".join(uncounted)
    rope_cfg = text_cfg if isinstance(text_cfg, dict) and isinstance(text_cfg.get("rope_scaling"), dict) else cfg
    changes["context_length"] = context_length(rope_cfg, arch.max_position_embeddings)
    quant_at = cfg if isinstance(cfg.get("quantization_config"), dict) or not isinstance(text_cfg, dict) else text_cfg
    changes["weight_block_n"], changes["weight_block_k"] = weight_block_size(quant_at)
    return arch.replace(**changes)


def weight_block_size(cfg: dict) -> tuple[int, int]:
    """``quantization_config.weight_block_size`` of a block-scaled FP8 checkpoint as (block_n, block_k): the tile of
    weights that shares one scale (vLLM ``Fp8Config.from_config`` reads the same key; ``Fp8LinearMethod`` then runs
    ``W8A8BlockFp8LinearOp``; SGLang ``Fp8Config`` likewise). (0, 0) when the config has no such key (BF16, or a
    per-tensor/per-channel FP8 checkpoint); a value that is not two whole numbers ≥ 1 is a config error."""
    q = cfg.get("quantization_config") if isinstance(cfg, dict) else None
    block = q.get("weight_block_size") if isinstance(q, dict) else None
    if block is None:
        return 0, 0
    if (not isinstance(block, (list, tuple)) or len(block) != 2
            or not all(isinstance(b, int) and not isinstance(b, bool) and 1 <= b <= MAX_CONFIG_INT for b in block)):
        raise ModelConfigError(_cfg_msg(QT_TRANSLATE_NOOP(_CTX_CFG, "'{key}' must be two whole numbers, got {got}"),
                                        key="weight_block_size", got=str(block)[:40]), field="config.json")
    return int(block[0]), int(block[1])


# ---------------------------------------------------------------------------------------------- presets

@dataclass(slots=True, frozen=True)
class Preset:
    id: str
    name: str
    family: str
    source: str
    source_date: str
    config: dict
    published_total: int | None
    published_active: int | None
    published_source: str | None
    notes: str | None = None

    @property
    def arch(self) -> ModelArch:
        return _preset_arch(self.id)


def _preset_from(name: str, data: Any) -> Preset:
    """A :class:`Preset` from one parsed preset file (``data`` may be the error reading it: raised as a
    CatalogError that names the file)."""
    try:
        if isinstance(data, Exception):
            raise ValueError(error_text(data))
        pub = data.get("published_params") or {}
        return Preset(
            id=data["id"], name=data["name"], family=data.get("family", ""), source=data.get("source", ""),
            source_date=data.get("source_date", ""), config=data["config"],
            published_total=pub.get("total"), published_active=pub.get("active"),
            published_source=pub.get("source"), notes=data.get("notes"),
        )
    except (KeyError, ValueError, TypeError, AttributeError) as err:
        raise CatalogError(_cfg_msg(QT_TRANSLATE_NOOP(_CTX_CFG, "model preset {name} is malformed: {err}"),
                                    name=name, err=error_text(err))) from None


@lru_cache(maxsize=1)
def load_presets() -> dict[str, Preset]:
    """All model presets shipped in ``resources/models`` (each file cites its source)."""
    from .shipped import model_preset_documents

    out: dict[str, Preset] = {}
    for name, data in model_preset_documents():
        p = _preset_from(name, data)
        out[p.id] = p
    return out


@lru_cache(maxsize=64)
def _one_preset(preset_id: str) -> Preset | None:
    """The preset ``preset_id`` read from its own file alone (``models/<id>.json``), or None (no such file, or a
    file whose id differs: then the full list decides)."""
    from .shipped import model_preset_document

    doc = model_preset_document(preset_id)
    if doc is None:
        return None
    p = _preset_from(*doc)
    return p if p.id == preset_id else None


@lru_cache(maxsize=None)
def _preset_arch(preset_id: str) -> ModelArch:
    p = get_preset(preset_id)
    return arch_from_hf_config(p.config, name=p.name)


def get_preset(preset_id: str) -> Preset:
    """The shipped preset ``preset_id`` (its own file when named by its id, else from the full list); unknown ids
    raise a ScenarioError with the closest ids."""
    one = _one_preset(preset_id) if isinstance(preset_id, str) else None
    if one is not None:
        return one
    presets = load_presets()
    if preset_id not in presets:
        import difflib

        close = difflib.get_close_matches(preset_id, list(presets), n=3, cutoff=0.5)
        # the hint is a message of its own, kept as a parameter (``+`` would give a plain str: no id); the ids a
        # list, joined the language's way ("llama-3-8b、llama-2-7b" in Chinese, not ", "; ux24)
        hint = (_cfg_msg(QT_TRANSLATE_NOOP(_CTX_CFG, "; did you mean {ids}?"), ids=list(close)) if close
                else _cfg_msg(QT_TRANSLATE_NOOP(_CTX_CFG, "; see the preset list in the app or examples/")))
        raise ScenarioError(_cfg_msg(QT_TRANSLATE_NOOP(_CTX_CFG, "unknown preset '{id}'{hint}"), id=preset_id,
                                     hint=hint), field="model.preset")
    return presets[preset_id]


# ------------------------------------------------------------------------------------ scenario -> arch

EXPLICIT_FIELDS = {
    "hidden_size": "hidden_size", "num_hidden_layers": "num_layers", "num_attention_heads": "num_heads",
    "num_key_value_heads": "num_kv_heads", "head_dim": "head_dim", "intermediate_size": "intermediate_size",
    "gated_mlp": "gated_mlp", "vocab_size": "vocab_size", "tie_word_embeddings": "tie_word_embeddings",
    "num_experts": "num_experts", "num_experts_per_tok": "num_experts_per_tok",
    "moe_intermediate_size": "moe_intermediate_size", "num_shared_experts": "num_shared_experts",
    "shared_expert_intermediate_size": "shared_expert_intermediate_size",
    "first_k_dense_replace": "num_dense_layers", "q_lora_rank": "q_lora_rank", "kv_lora_rank": "kv_lora_rank",
    "qk_rope_head_dim": "qk_rope_head_dim", "qk_nope_head_dim": "qk_nope_head_dim", "v_head_dim": "v_head_dim",
    "attention_bias": "attention_bias", "attention_out_bias": "attention_out_bias", "mlp_bias": "mlp_bias",
    "norm_type": "norm_type", "norms_per_layer": "norms_per_layer", "qk_norm": "qk_norm",
    "position_embedding": "position_embedding", "max_position_embeddings": "max_position_embeddings",
    "hidden_act": "mlp_act",
    "unrecognised_model_type": "unrecognised", "uncounted_sections": "uncounted", "context_length": "context_length",
    **{k: k for k in ("vision_kind", "vision_hidden", "vision_layers", "vision_heads", "vision_intermediate",
                      "vision_gated", "vision_norm", "vision_patch", "vision_temporal_patch", "vision_merge",
                      "vision_in_chans", "vision_image_size", "vision_head", "projector_in", "projector_out",
                      "projector_bias", "image_newline", "vision_qkv_bias", "vision_qk_norm",
                      "vision_layer_scale", "vision_max_tiles", "vision_thumbnail")},
}
#: explicit fields a plan's embedded architecture writes only when they differ from the default (a text model's
#: scenario stays as short as before)
WRITE_IF_SET = frozenset(k for k in EXPLICIT_FIELDS if k.startswith(("vision_", "projector_", "image_"))
                         or k in ("unrecognised_model_type", "uncounted_sections", "context_length", "hidden_act"))


class ModelSource(Protocol):
    """Where ``model.hf_config`` references are read (the core never reads files):
    :class:`gpuplanner.io.model_files.ModelFiles` in the app and the CLI."""

    def load(self, ref: str) -> "ModelArch": ...


def resolve_arch(model_section: Any, models: ModelSource | None = None) -> ModelArch:
    """Resolve the scenario's ``model`` section into a :class:`ModelArch`.

    Order: preset or hf_config gives the base (an ``hf_config`` is read by ``models``, the io layer's
    :class:`ModelSource`); explicit fields override it. With neither, the explicit fields must describe the
    whole model. Raises :class:`ScenarioError` naming the field.
    """
    ms = model_section
    base: ModelArch | None = None
    if ms.preset and ms.hf_config:
        raise ScenarioError(_cfg_msg(QT_TRANSLATE_NOOP(_CTX_CFG, "give either a preset or an hf_config, not both")),
                            field="model")
    if ms.preset:
        base = get_preset(ms.preset).arch
    elif ms.hf_config:
        if models is None:
            raise ScenarioError(_cfg_msg(QT_TRANSLATE_NOOP(_CTX_CFG, "the model's config.json has not been read")),
                                field="model.hf_config")
        base = models.load(ms.hf_config)
    explicit = {
        EXPLICIT_FIELDS[k]: v for k, v in ms.model_dump().items() if k in EXPLICIT_FIELDS and v is not None
    }
    if base is None:
        required = ["hidden_size", "num_hidden_layers", "num_attention_heads", "vocab_size"]
        missing = [k for k in required if getattr(ms, k) is None]
        if missing:
            raise ScenarioError(_cfg_msg(QT_TRANSLATE_NOOP(
                _CTX_CFG, "missing {keys} (give a preset, an hf_config, or all architecture fields)"),
                keys=", ".join(missing)), field="model")
        h, a = ms.hidden_size, ms.num_attention_heads
        if ms.head_dim is None and h % a:
            raise ScenarioError(_cfg_msg(QT_TRANSLATE_NOOP(
                _CTX_CFG, "hidden_size={h} is not divisible by {key}={heads}; give head_dim"), h=h,
                key="num_attention_heads", heads=a), field="model.num_attention_heads")
        inter = ms.intermediate_size
        if inter is None and not ms.num_experts:
            raise ScenarioError(_cfg_msg(QT_TRANSLATE_NOOP(_CTX_CFG, "missing {keys}"), keys="intermediate_size"),
                                field="model")
        base = ModelArch(
            name=ms.name or "custom", model_type="custom", hidden_size=h, num_layers=ms.num_hidden_layers,
            num_heads=a, num_kv_heads=ms.num_key_value_heads or a, head_dim=ms.head_dim or h // a,
            intermediate_size=inter or 0, vocab_size=ms.vocab_size,
        )
    explicit.pop("name", None)
    arch = base.replace(**explicit) if explicit else base
    if ms.name:
        arch = arch.replace(name=ms.name)
    if explicit and base.stored_params is not None:
        arch = arch.replace(stored_params=None)  # the stored count no longer describes this model
    check_arch(arch)
    return arch


#: Physical ranges of an architecture (inclusive), far beyond any published model; outside them the input is
#: not a model and the arithmetic downstream (parameter counts, FLOPs, bytes) would overflow or mislead.
ARCH_LIMITS = {
    "hidden_size": (1, 1 << 20), "num_layers": (1, 10_000), "num_heads": (1, 1 << 16), "num_kv_heads": (1, 1 << 16),
    "head_dim": (1, 1 << 16), "intermediate_size": (0, 1 << 24), "vocab_size": (1, 1 << 27),
    "num_experts": (0, 1 << 16), "num_experts_per_tok": (0, 1 << 16), "moe_intermediate_size": (0, 1 << 24),
    "num_shared_experts": (0, 1024), "shared_expert_intermediate_size": (0, 1 << 24), "num_dense_layers": (0, 10_000),
    "q_lora_rank": (0, 1 << 20), "kv_lora_rank": (0, 1 << 20), "qk_rope_head_dim": (0, 1 << 16),
    "qk_nope_head_dim": (0, 1 << 16), "v_head_dim": (0, 1 << 16), "max_position_embeddings": (0, 1 << 31),
    "norms_per_layer": (0, 16),
    "vision_hidden": (0, 1 << 20), "vision_layers": (0, 10_000), "vision_heads": (0, 1 << 16),
    "vision_intermediate": (0, 1 << 24), "vision_patch": (0, 1 << 16), "vision_temporal_patch": (1, 64),
    "vision_merge": (1, 64), "vision_in_chans": (1, 1024), "vision_image_size": (0, 1 << 20),
    "projector_in": (0, 1 << 26), "projector_out": (0, 1 << 20), "vision_max_tiles": (0, 1024),
}


def check_arch(a: ModelArch) -> None:
    """Ranges (:data:`ARCH_LIMITS`) and consistency; raises :class:`ScenarioError` naming the field."""
    section = {v: k for k, v in EXPLICIT_FIELDS.items()}
    for key, (lo, hi) in ARCH_LIMITS.items():
        v = getattr(a, key)
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ScenarioError(_cfg_msg(QT_TRANSLATE_NOOP(_CTX_CFG, "{key}={value} is outside {lo:,}–{hi:,}"),
                                         key=section.get(key, key), value=str(v)[:40], lo=lo, hi=hi),
                                field=f"model.{section.get(key, key)}")
    if a.mlp_act == "relu2" and a.gated_mlp:
        raise ScenarioError(_cfg_msg(QT_TRANSLATE_NOOP(
            _CTX_CFG, "hidden_act=relu2 (squared ReLU) is costed for a plain MLP; set gated_mlp to false")),
            field="model.hidden_act")
    if a.num_heads % a.num_kv_heads and not a.is_mla:
        raise ScenarioError(_cfg_msg(QT_TRANSLATE_NOOP(
            _CTX_CFG, "num_attention_heads={heads} is not a multiple of num_key_value_heads={kv_heads}"),
            heads=a.num_heads, kv_heads=a.num_kv_heads), field="model.num_key_value_heads")
    if a.is_moe:
        if a.num_experts_per_tok <= 0 or a.num_experts_per_tok > a.num_experts:
            raise ScenarioError(_cfg_msg(QT_TRANSLATE_NOOP(
                _CTX_CFG, "num_experts_per_tok={top_k} must be between 1 and num_experts={experts}"),
                top_k=a.num_experts_per_tok, experts=a.num_experts), field="model.num_experts_per_tok")
        if a.moe_intermediate_size <= 0:
            raise ScenarioError(_cfg_msg(QT_TRANSLATE_NOOP(_CTX_CFG, "MoE models need {key}"),
                                         key="moe_intermediate_size"), field="model.moe_intermediate_size")
        if a.num_dense_layers and a.intermediate_size <= 0:
            raise ScenarioError(_cfg_msg(QT_TRANSLATE_NOOP(_CTX_CFG, "dense layers need {key}"),
                                         key="intermediate_size"), field="model.intermediate_size")
    if a.num_dense_layers > a.num_layers:
        raise ScenarioError(_cfg_msg(QT_TRANSLATE_NOOP(_CTX_CFG, "{key} exceeds {limit}"), key="first_k_dense_replace",
                                     limit="num_hidden_layers"), field="model.first_k_dense_replace")
    if not a.is_moe and a.intermediate_size <= 0:
        raise ScenarioError(_cfg_msg(QT_TRANSLATE_NOOP(_CTX_CFG, "{key} must be > 0"), key="intermediate_size"),
                            field="model.intermediate_size")
    if a.vision_kind:
        for key in ("vision_hidden", "vision_layers", "vision_heads", "vision_intermediate", "vision_patch",
                    "projector_in", "projector_out"):
            if getattr(a, key) <= 0:
                raise ScenarioError(_cfg_msg(QT_TRANSLATE_NOOP(_CTX_CFG, "a vision encoder needs {key} > 0"), key=key),
                                    field=f"model.{key}")
        if a.vision_kind in ("clip", "siglip") and a.vision_image_size < a.vision_patch:
            raise ScenarioError(_cfg_msg(QT_TRANSLATE_NOOP(_CTX_CFG, "{key} must be at least {minimum}"),
                                         key="vision_image_size", minimum="vision_patch"),
                                field="model.vision_image_size")
