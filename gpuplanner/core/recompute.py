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
           "DEFAULT_EVERY_N", "METHODS", "canonical", "op_sac_plan", "layer_counts", "time_shares", "describe"]
