"""Activation recomputation as a policy: what each framework's checkpointing saves and what it recomputes.

The scenario names a policy (``training.recompute``); the memory model (:mod:`memory`) and the time model
(:mod:`timing`) read it through the integer codes and the element-wise shares below, so the plan search can
carry the policy as a numpy array. Policies and their sources:

* ``none`` — autograd keeps every tensor the layer's ops save (Korthikanti et al. 2022, arXiv:2205.05198 §4).
* ``megatron_selective`` — Megatron-Core ``--recompute-granularity selective`` (``--recompute-activations``):
  only the attention core (softmax, dropout, scores: the ``5as²b`` term) is recomputed (Korthikanti §5).
  With flash attention the core saves no ``s²`` tensor, so this saves nothing beyond flash's own log-sum-exp
  (and costs only the attention-core forward). ``selective`` is kept as an alias of this policy: plan files
  and scripts written before the policies were split keep their meaning (the attention core, as before).
* ``full`` — the whole decoder layer is checkpointed: its input is kept and its forward re-run in backward
  (HF ``gradient_checkpointing_enable``, DeepSpeed ``activation_checkpointing``, torchtitan
  ``activation_checkpoint.mode = "full"``, Megatron ``--recompute-granularity full``). Megatron's
  ``--recompute-num-layers k`` (``training.recompute_num_layers``) with ``--recompute-method``
  (``training.recompute_method``): ``block`` checkpoints the first ``k`` layers of each pipeline stage and
  keeps the rest whole; ``uniform`` checkpoints the input of every group of ``k`` consecutive layers and re-runs
  a whole group in backward (Megatron-LM ``megatron/training/arguments.py`` help texts;
  ``TransformerBlock._checkpointed_forward`` in ``megatron/core/transformer/transformer_block.py``).
* ``op_sac`` — torchtitan's per-op selective activation checkpointing (``activation_checkpoint.mode =
  "selective"``, ``selective_ac_option = "op"``): every transformer block runs under
  ``torch.utils.checkpoint`` with ``create_selective_checkpoint_contexts``; the policy saves the outputs of the
  ops in the save list (``aten.mm``, the SDPA kernels — flash, efficient, cuDNN —, ``reduce_scatter_tensor``,
  ``aten.max`` for float8 scales) *except every second ``aten.mm``* (the ``mm_count % 2 == 0`` rule), and
  recomputes everything else (torchtitan ``torchtitan/distributed/activation_checkpoint.py``,
  ``_apply_op_sac``; save list in ``torchtitan/models/llama3/infra/parallelize.py``, 2024–2025). A bias-free
  ``nn.Linear`` on a 3-D input dispatches to ``aten.mm``; a linear with a bias dispatches to ``aten.addmm``
  (not in the list: recomputed, not counted). In a Llama block the matmuls run q, k, v, o, gate, up, down:
  q, v, gate and down are saved, k, o and up recomputed, and the SDPA output and log-sum-exp are saved.
  Routed experts (grouped GEMMs) and the MoE router (forced recompute in torchtitan,
  ``per_op_sac_force_recompute_mm_shapes_by_fqns``) are recomputed.
* ``layer_sac`` — torchtitan's layer selective checkpointing (``selective_ac_option = "N"``): every N-th
  block (``training.recompute_every_n``; the blocks whose 1-based index is a multiple of N) is fully
  checkpointed, the others keep everything (``_apply_layer_sac``).

The saved bytes of every policy are measured against PyTorch itself on the CPU (``tests_validate/``,
``docs/validation_pytorch.md``).
"""

from __future__ import annotations

import functools

from .arrayops import ops_for as _xp
from .i18n import QT_TRANSLATE_NOOP
from .params import attention_linears, mlp_linears

#: the recompute policies as people read them (the scenario keeps the identifiers); translated in the Plans'
#: context (``LABEL_CTX``), where the search, the Plans page and the report read them
LABEL_CTX = "Plan"
RECOMPUTE_LABELS = {"none": QT_TRANSLATE_NOOP(LABEL_CTX, "no recompute"),
                    "selective": QT_TRANSLATE_NOOP(LABEL_CTX, "selective"),
                    "megatron_selective": QT_TRANSLATE_NOOP(LABEL_CTX, "selective, attention core"),
                    "op_sac": QT_TRANSLATE_NOOP(LABEL_CTX, "per-op selective"),
                    "layer_sac": QT_TRANSLATE_NOOP(LABEL_CTX, "every N-th layer"),
                    "full": QT_TRANSLATE_NOOP(LABEL_CTX, "full")}
#: Megatron-Core's selective-recompute modules (``training.recompute_modules``) as people read them, the Advanced
#: box's menu items (ui/pages/advanced_fields.RecomputeModuleChecks)
MODULE_LABELS = {"core_attn": QT_TRANSLATE_NOOP(LABEL_CTX, "attention core"),
                 "layernorm": QT_TRANSLATE_NOOP(LABEL_CTX, "norms"),
                 "moe_act": QT_TRANSLATE_NOOP(LABEL_CTX, "expert activation"),
                 "mla_up_proj": QT_TRANSLATE_NOOP(LABEL_CTX, "MLA up projections"),
                 "mlp": QT_TRANSLATE_NOOP(LABEL_CTX, "dense MLP"),
                 "moe": QT_TRANSLATE_NOOP(LABEL_CTX, "MoE layer"),
                 "shared_experts": QT_TRANSLATE_NOOP(LABEL_CTX, "shared experts")}


def label_msg(policy: str, modules=None):
    """A recompute policy's label as a message: Megatron's selective recompute names the modules the scenario
    recomputes (``training.recompute_modules``: "selective, norms, expert activation"), not its default's
    "attention core" (ux19: the CLI table and the PDF said "attention core" for a run that ticked others)."""
    from .messages import Msg

    if policy == "megatron_selective" and modules:
        return Msg(LABEL_CTX, QT_TRANSLATE_NOOP(LABEL_CTX, "selective, {modules}"),
                   {"modules": [Msg(LABEL_CTX, MODULE_LABELS.get(m, m)) for m in modules]})
    return Msg(LABEL_CTX, RECOMPUTE_LABELS.get(policy, policy))

NONE, MEGATRON_SELECTIVE, FULL, OP_SAC, LAYER_SAC = 0, 1, 2, 3, 4
#: the canonical policy names, indexed by code
POLICIES = ("none", "megatron_selective", "full", "op_sac", "layer_sac")
#: old names that keep working (documented in the module docstring)
ALIASES = {"selective": "megatron_selective"}
#: name (canonical or alias) → code
CODES = {**{p: i for i, p in enumerate(POLICIES)}, **{a: POLICIES.index(c) for a, c in ALIASES.items()}}
#: torchtitan's default layer-SAC period (``selective_ac_option = "2"``, torchtitan job config)
DEFAULT_EVERY_N = 2
METHODS = ("uniform", "block")
#: linears whose output is ``hidden`` wide and row-parallel under tensor parallelism
ROW_PARALLEL_SUFFIXES = ("o_proj", "down_proj", "fc2")


def canonical(name: str) -> str:
    """The canonical policy name of ``name`` (aliases resolved)."""
    return ALIASES.get(name, name)


def op_sac_plan(arch) -> dict:
    """What torchtitan's per-op SAC saves and recomputes in one decoder layer, per token (see
    :func:`_op_sac_plan`; a pure function of the architecture, kept per architecture: it walks every linear of
    the layer, ~15 % of one estimate). Returns a new dict each call."""
    try:
        return dict(_op_sac_plan_cached(arch))
    except TypeError:  # an architecture that cannot be hashed: computed each time
        return _op_sac_plan(arch)


@functools.lru_cache(maxsize=256)
def _op_sac_plan_cached(arch) -> dict:
    return _op_sac_plan(arch)


def _op_sac_plan(arch) -> dict:
    """What torchtitan's per-op SAC saves and recomputes in one decoder layer, per token.

    Walks the layer's linears in execution order (:func:`params.attention_linears`, then
    :func:`params.mlp_linears`) and applies the "save every ``aten.mm`` except every second one" rule. Returns
    ``saved_split`` (elements per token of saved column-parallel matmul outputs: split by tensor parallelism),
    ``saved_rep`` (saved row-parallel outputs, ``hidden`` wide: replicated across TP ranks unless sequence
    parallelism splits them) and ``recompute_linear`` (the share of the layer's linear FLOPs re-run), each
    averaged over dense and MoE layers.
    """
    n_moe = arch.num_moe_layers
    L = max(arch.num_layers, 1)
    out = {"saved_split": 0.0, "saved_rep": 0.0, "recompute_linear": 0.0}
    tot_flops = rec_flops = 0.0
    for moe, n_layers in ((False, L - n_moe), (True, n_moe)):
        if n_layers <= 0:
            continue
        w = n_layers / L
        count = 0
        attn = attention_linears(arch)
        o_name = attn[-1].name
        for lin in attn + mlp_linears(arch, moe):
            flops = 2.0 * lin.fan_in * lin.fan_out * (lin.active if lin.expert else lin.count)
            tot_flops += w * flops
            is_mm = not lin.bias and not lin.expert and lin.name != "router"
            saved = False
            if is_mm:
                count += 1
                saved = count % 2 == 1
            if not saved:
                rec_flops += w * flops
                continue
            row_parallel = lin.name == o_name or lin.name.endswith(ROW_PARALLEL_SUFFIXES)
            key = "saved_rep" if row_parallel else "saved_split"
            out[key] += w * lin.fan_out
    out["recompute_linear"] = rec_flops / tot_flops if tot_flops else 0.0
    return out


def layer_counts(code, layers, every_n: int = DEFAULT_EVERY_N, num_layers: int | None = None,
                 method: str = "uniform"):
    """How the ``layers`` of one pipeline stage are treated under a policy, element-wise.

    Returns ``(n_ckpt, n_groups, group)``: layers fully checkpointed (their forward re-run in backward),
    checkpoint inputs kept for them (one per layer; one per group under Megatron ``uniform`` with
    ``num_layers`` > 1), and the layers re-run together in backward (the working set).
    """
    return _layer_counts(code, layers, every_n, num_layers, method, False)


def _layer_counts(code, layers, every_n, num_layers, method, ckpt_only: bool):
    """:func:`layer_counts`; ``ckpt_only``: ``n_ckpt`` alone. Each policy test is made once, and the layer-SAC
    count is left out where no row runs layer SAC (it would be picked by no row: the values are the same)."""
    xp = _xp(code, layers)
    code = xp.asarray(code)
    layers = xp.asarray(layers, dtype=float) * 1.0
    n = max(int(every_n or DEFAULT_EVERY_N), 1)
    is_full, is_lsac = code == FULL, code == LAYER_SAC
    layer_sac = layers // n if is_lsac is True or (is_lsac is not False and bool(is_lsac.any())) else 0.0
    if num_layers is None or num_layers <= 0:
        full_ck, full_groups, full_group = layers, None, 1.0  # (groups: one per checkpointed layer)
    elif method == "block":
        k = xp.minimum(float(num_layers), layers)
        full_ck, full_groups, full_group = k, None, 1.0
    else:
        k = float(num_layers)
        full_ck, full_groups, full_group = layers, -(-layers // k), xp.minimum(k, layers)
    n_ck = xp.where(is_full, full_ck, xp.where(is_lsac, layer_sac, 0.0))
    if ckpt_only:
        return n_ck
    n_groups = n_ck if full_groups is None else xp.where(is_full, full_groups, xp.where(is_lsac, layer_sac, 0.0))
    group = xp.where(is_full, full_group, xp.where(is_lsac, 1.0, 0.0))
    return n_ck, n_groups, group


def time_shares(code, layers, every_n: int = DEFAULT_EVERY_N, num_layers: int | None = None,
                method: str = "uniform", op_recompute_linear: float = 0.0):
    """Per-layer shares of the forward that a policy re-runs in backward, element-wise (time model).

    Returns ``(whole, attention_core, op)``: ``whole`` the share of layers whose forward is re-run whole
    (full / layer SAC / Megatron's block method), ``attention_core`` 1 for Megatron's selective (attention
    core re-run), ``op`` 1 for per-op SAC (its matmul share is ``op_recompute_linear``; its element-wise ops
    and attention pre/post-processing are all re-run).
    """
    xp = _xp(code, layers)
    code = xp.asarray(code)
    layers = xp.maximum(xp.asarray(layers, dtype=float), 1.0)
    n_ck = _layer_counts(code, layers, every_n, num_layers, method, True)
    whole = n_ck / layers
    attn = xp.where(code == MEGATRON_SELECTIVE, 1.0, 0.0)
    op = xp.where(code == OP_SAC, 1.0, 0.0)
    return whole, attn, op


#: Megatron-Core's default ``recompute_modules`` (Megatron-LM d98e8a64 ``transformer_config.py`` ``__post_init__``:
#: ``if self.recompute_modules is None: self.recompute_modules = ["core_attn"]``)
MEGATRON_DEFAULT_MODULES = ("core_attn",)


def megatron_modules(t) -> tuple | None:
    """The scenario's ``training.recompute_modules`` as a tuple (None: Megatron's default, the attention core)."""
    mods = getattr(t, "recompute_modules", None)
    return None if mods is None else tuple(mods)


def _linear_fwd_flops(linears, only=None) -> float:
    """Forward FLOPs per token of ``linears`` (each expert counted at its active count), those named with a prefix
    in ``only`` when given."""
    return sum(2.0 * lin.fan_in * lin.fan_out * (lin.active if lin.expert else lin.count) for lin in linears
               if only is None or lin.name.startswith(only))


def module_terms(m, modules, fp8_te: bool = False) -> dict:
    """What Megatron-Core's ``--recompute-granularity selective --recompute-modules …`` re-runs and frees, per token.

    Where each module's checkpoint sits (NVIDIA/Megatron-LM d98e8a64):

    * ``core_attn`` — ``transformer/attention.py`` ``_checkpointed_attention_forward`` (``tensor_parallel.
      checkpoint`` around the core attention): the ``s²`` scores without flash (``megatron_selective``).
    * ``layernorm`` — ``transformer/transformer_layer.py``: ``CheckpointWithoutOutput`` around ``input_layernorm``
      and ``pre_mlp_layernorm`` only where they are their own module (``not isinstance(..., IdentityOp)``): with
      Transformer Engine the dense layer's norms are fused into ``TELayerNormColumnParallelLinear`` (IdentityOp);
      the MoE layer's pre-MLP norm (the router's and dispatcher's input) and, with MLA, the input norm are
      ``TENorm``. The norm output (``h`` per token; FP8: 1 byte) is dropped and re-made in backward.
    * ``moe_act`` — ``transformer/moe/experts.py`` (``TEGroupedMLP``): ``CheckpointWithoutOutput`` around the
      activation: its ``f_moe``-wide output per routed copy is dropped and re-made.
    * ``mla_up_proj`` — ``transformer/multi_latent_attention.py``: ``CheckpointWithoutOutput`` around the q and kv
      up projections and RoPE: the query, key and value tensors are dropped; the two up projections run again.
    * ``mlp`` — ``transformer_layer.py`` ``recompute_mlp`` (dense layers only: ``if not self.is_moe_layer``):
      ``tensor_parallel.checkpoint`` of the MLP (with TE, the fused norm + FC1 + act + FC2): everything but its
      input is dropped, its forward runs again.
    * ``moe`` — ``transformer/moe/moe_layer.py`` ``moe_layer_recompute``: the whole MoE layer (router, dispatch,
      experts, combine, shared experts) under ``tensor_parallel.checkpoint``: its forward, all-to-alls included,
      runs again.
    * ``shared_experts`` — ``moe_layer.py`` ``shared_experts_recompute``: the shared experts' MLP checkpointed.

    Returns totals over the model's layers per token: ``flops`` (forward FLOPs re-run), ``ew_rep`` / ``ew_split``
    (bytes the element-wise re-runs move: replicated or split by TP), ``moe`` (1.0 when the MoE layer's dispatch
    re-runs), ``core_attn``; and the bytes per token and layer (averaged) no longer saved: ``save_rep`` (the norm
    outputs, replicated unless sequence parallelism splits them), ``save_split`` (split by TP). The saved sizes are
    those :func:`memory.activation_parts_per_layer` counts for Megatron (16-bit, the same tensors)."""
    mods = set(MEGATRON_DEFAULT_MODULES if modules is None else modules)
    a = m.arch
    L = float(max(a.num_layers, 1))
    mf = float(m.moe_frac)
    k = float(m.k_active or 0)
    g = 4.0 if m.gated else 2.0
    nb = 1.0 if fp8_te else 2.0  # the norm output's bytes (TE saves the FP8 copy under an FP8 recipe)
    out = {"flops": 0.0, "ew_rep": 0.0, "ew_split": 0.0, "moe": 0.0, "core_attn": "core_attn" in mods,
           "save_rep": 0.0, "save_split": 0.0}
    if "layernorm" in mods:
        norms = mf + (1.0 if a.is_mla else 0.0)  # separate norms per layer, on average
        out["save_rep"] += norms * nb * m.h
        out["ew_rep"] += norms * 4.0 * m.h * L  # read the 16-bit input, write the output
    if "moe_act" in mods and mf and "moe" not in mods:
        out["save_split"] += mf * k * 2.0 * m.f_moe
        out["ew_split"] += mf * k * (g + 2.0) * m.f_moe * L  # read gate and up (or fc1), write the product
    if "mla_up_proj" in mods and a.is_mla:
        out["save_split"] += 2.0 * (m.q_dim + 2.0 * m.kv_dim)
        out["flops"] += _linear_fwd_flops(attention_linears(a), ("q_b_proj", "kv_b_proj")) * L
    if "mlp" in mods and mf < 1.0:
        out["save_rep"] += (1.0 - mf) * nb * m.h  # the fused norm's output, inside the checkpoint
        out["save_split"] += (1.0 - mf) * 2.0 * m.f * (4 if m.gated else 2)
        out["flops"] += _linear_fwd_flops(mlp_linears(a, False)) * (1.0 - mf) * L
    if "moe" in mods and mf:
        out["moe"] = 1.0
        out["save_split"] += mf * (k * (2.0 * m.h + 2.0 * m.f_moe * g) + 2.0 * m.shared_f * g + 4.0 * m.n_experts)
        out["flops"] += _linear_fwd_flops(mlp_linears(a, True)) * mf * L
    elif "shared_experts" in mods and mf and m.shared_f:
        out["save_split"] += mf * 2.0 * m.shared_f * g
        out["flops"] += _linear_fwd_flops(mlp_linears(a, True), ("shared_expert",)) * mf * L
    return out


def describe(name: str, every_n: int | None = None, num_layers: int | None = None,
             method: str | None = None) -> str:
    """A short machine-readable description of a policy with its parameters (CLI JSON, plan sentences)."""
    c = canonical(name)
    if c == "layer_sac":
        return f"layer_sac every {every_n or DEFAULT_EVERY_N}"
    if c == "full" and num_layers:
        return f"full {num_layers} layers ({method or 'uniform'})"
    return c


__all__ = ["NONE", "MEGATRON_SELECTIVE", "FULL", "OP_SAC", "LAYER_SAC", "POLICIES", "ALIASES", "CODES",
           "DEFAULT_EVERY_N", "METHODS", "MEGATRON_DEFAULT_MODULES", "megatron_modules", "module_terms", "canonical", "op_sac_plan", "layer_counts", "time_shares", "describe"]
