"""DeepSpeed ZeRO-3's per-submodule hooks: host time per micro-batch (time model).

ZeRO-3 hooks every ``nn.Module`` of the model, recursively, down to the leaves or to a module marked as a "z3
leaf" (``deepspeed/runtime/zero/parameter_offload.py``, ``DeepSpeedZeRoOffload._register_deepspeed_module``):

* a forward pre-hook (``pre_sub_module_forward_function`` → ``PartitionedParameterCoordinator.fetch_sub_module``:
  the trace bookkeeping, the all-gather of the module's partitioned parameters or the wait for its prefetch, and
  the prefetch of the next modules of the recorded trace);
* a forward hook (``post_sub_module_forward_function`` → ``release_sub_module``: each gathered parameter's buffer
  freed again);
* two autograd ``Function``\\ s applied in the forward to the module's outputs and inputs
  (``_pre_backward_module_hook`` / ``_post_backward_module_hook``), whose ``backward`` runs the same fetch and
  release around the module's backward (``pre_sub_module_backward_function``, ``post_sub_module_backward_function``).

Every hook runs in Python on the host, once per module per pass: forward, the recompute forward of gradient
checkpointing (it re-enters the same hooks) and backward. In the backward each trainable parameter's gradient
also goes through ZeRO-3's per-parameter hook (``stage3.py`` ``reduce_partition_and_remove_grads``: the gradient
copied into the reduce bucket and dropped).

Parameters smaller than ``stage3_param_persistence_threshold`` stay gathered (``mark_persistent_parameters``):
the DeepSpeed default is 1e5 elements (``docs/_pages/config-json.md``); the Hugging Face integration that the
fine-tuning tools use fills ``"auto"`` with ``10 * hidden_size`` (transformers ``integrations/deepspeed.py``,
``HfTrainerDeepSpeedConfig.trainer_config_finalize``). Norm weights and biases stay resident; every linear
weight is partitioned; a LoRA adapter (``r × h``) is partitioned once ``r·h`` reaches the threshold.

Mixture-of-experts blocks written as a Python loop over ``nn.ModuleList`` experts (Transformers' Mixtral and
Qwen-MoE blocks) are hooked expert by expert, each expert's MLP, its linears and its activation a hooked module,
unless the tool marks the block a z3 leaf (``deepspeed.utils.set_z3_leaf_modules``: "ZeRO gathers all of its
descendants immediately and stops inserting hooks beneath it", DeepSpeed ``docs/code-docs/source/training.rst``).
LLaMA-Factory does so for its MoE models (``src/llamafactory/model/model_utils/moe.py``,
``add_z3_leaf_module``); DeepSpeed's ``stage3_module_granularity_threshold`` (default 0, off) exists to cut
"host and communication overhead from separate hooks" (``config-json.md``; PR #6649 measured 40% on a
64-expert model on HPU).

Host cost, counted in DeepSpeed's code and priced at :data:`methods.EAGER_FWD_OP_S` per Python-issued operation
(the same price as an eager forward op; a judgement from counting, like :data:`timing.EAGER_OPS_FWD_LAYER`):

* :data:`Z3_HOOK_OPS_MODULE` per hooked module per pass (5): the two autograd ``Function`` applications (forward)
  or their ``backward`` calls, ``fetch_sub_module``'s bookkeeping (``trace_prologue``, the step id, the walk of the
  prefetch queue: 2) and ``release_sub_module``'s (1);
* :data:`Z3_HOOK_OPS_FETCH` per module with partitioned parameters per pass (3): the flat buffer
  (``torch.empty``), the all-gather's launch (``_all_gather_params`` → ``all_gather_into_tensor``) and the
  compute stream's ``wait_stream`` on the all-gather stream;
* :data:`Z3_HOOK_OPS_PARAM` per partitioned parameter per pass (4): its view into the gathered buffer, the
  handle's ``wait`` with the fetch event recorded (``__ongoing_fetch_events``), and in the release the
  ``param.data`` swap to an empty tensor and its ``record_stream``;
* :data:`Z3_GRAD_OPS_PARAM` per trainable parameter per backward (2): the copy into the reduce bucket and the
  gradient dropped.

The GPU runs ahead of this host work only so far: ``fetch_sub_module`` synchronises on the oldest fetch event
once more than ``__max_ongoing_fetch_events`` (2) are outstanding, so the layers take at least the host's time:
the time model adds it to the eager host floor of each micro-batch (``timing.time_gpu``: the GPU waits only where
the host's time exceeds its own).
"""

from __future__ import annotations

from functools import lru_cache

from .architecture import ModelArch
from .methods import EAGER_FWD_OP_S, EAGER_OP_S
from .params import _fuse, lora_linears, mlp_linears

Z3_HOOK_OPS_MODULE = 5.0
Z3_HOOK_OPS_FETCH = 3.0
Z3_HOOK_OPS_PARAM = 4.0
Z3_GRAD_OPS_PARAM = 2.0
#: hooked modules of a decoder layer besides its linears: the layer, its two norms, the attention and MLP
#: containers and the MLP's activation module (Transformers ``LlamaDecoderLayer``: ``input_layernorm``,
#: ``self_attn``, ``post_attention_layernorm``, ``mlp``, ``act_fn``)
Z3_LAYER_MODULES = 6.0
#: hooked modules a per-head query/key norm adds to the attention (``ModelArch.qk_norm``): ``q_norm`` and ``k_norm``,
#: each an ``RMSNorm`` module that the attention's forward calls (Transformers ``Olmo2Attention``:
#: ``self.q_norm(self.q_proj(hidden_states))``, ``self.k_norm(self.k_proj(hidden_states))``; ``Qwen3Attention``
#: likewise). DeepSpeed hooks every submodule (``_register_hooks_recursively``), so each runs the four hooks in
#: every pass; their weights (head_dim or hidden elements) stay below the persistence threshold (no gather), and
#: each is one more trainable tensor in the backward's gradient hooks and reduce buckets. Counted on
#: Transformers 4.47.1 (the version open-instruct 686a521a3 pins): an OLMo 2 decoder layer is 16 modules, 15 of
#: them called in the forward (its attention's unused ``rotary_emb`` is not), Llama's 14 and 13 (round 12, z3host12).
Z3_QK_NORM_MODULES = 2.0
#: hooked modules of one routed expert besides its linears: the expert's MLP and its activation
Z3_EXPERT_MODULES = 2.0
#: hooked modules a PEFT LoRA linear adds besides its base linear: the ``lora.Linear`` wrapper, the dropout,
#: ``lora_A`` and ``lora_B`` (PEFT ``tuners/lora/layer.py``)
Z3_LORA_MODULES = 4.0
#: ``stage3_param_persistence_threshold``: DeepSpeed's default (elements) and the HF integration's ``auto``
#: (× hidden size)
Z3_PERSIST_DEFAULT, Z3_PERSIST_HF_PER_H = 1e5, 10.0
#: tools that mark the MoE block a z3 leaf (LLaMA-Factory ``model_utils/moe.py`` ``add_z3_leaf_module``)
Z3_LEAF_MOE_TOOLS = ("llamafactory",)
#: engines whose ZeRO-3 is DeepSpeed's (the HF-based tools run DeepSpeed for ZeRO: core/overlap.py)
Z3_ENGINES = ("hf", "deepspeed")


def _stored_mlp_linears(a: ModelArch, moe: bool) -> list:
    """One layer's MLP or MoE-block linears as the checkpoint stores them (``gate_up_proj`` where fused), less the
    Qwen-MoE shared expert's one-output gate, which stays resident: below any persistence threshold."""
    lins = [l for l in mlp_linears(a, moe) if l.name != "shared_expert_gate"]
    if a.fused_gate_up:
        lins = _fuse(lins, ("gate_proj", "up_proj"), "gate_up_proj")
    return lins


def _persist_threshold(a: ModelArch, framework: str) -> float:
    """``stage3_param_persistence_threshold`` in elements: DeepSpeed's default, or the HF ``auto`` (× hidden)."""
    return Z3_PERSIST_DEFAULT if framework == "deepspeed" else Z3_PERSIST_HF_PER_H * float(a.hidden_size)


def _linears(a: ModelArch, moe: bool) -> tuple[float, float, float]:
    """(attention linears, MLP or MoE-block linears, routed experts) of one layer (:func:`_stored_mlp_linears`)."""
    att = sum(float(l.count) for l, _n in lora_linears(a, "attention"))  # as stored: Qwen ``c_attn`` is one
    mlp = sum(float(l.count) for l in _stored_mlp_linears(a, moe))
    return att, mlp, float(a.num_experts) if moe else 0.0


def _layer_ops(a: ModelArch, moe: bool, leaf: bool, n_ad: float, ad_part: float) -> float:
    """Host ops of one layer's hooks in one pass (module docstring)."""
    att, mlp, n_exp = _linears(a, moe)
    fp = Z3_HOOK_OPS_FETCH + Z3_HOOK_OPS_PARAM
    if leaf:
        # the MoE block is one hooked module: one fetch of all its weights, no hooks beneath it
        mods = Z3_LAYER_MODULES + att
        fetch = att * fp + Z3_HOOK_OPS_FETCH + mlp * Z3_HOOK_OPS_PARAM
    else:
        mods = Z3_LAYER_MODULES + att + mlp + Z3_EXPERT_MODULES * n_exp
        fetch = (att + mlp) * fp
    mods += Z3_LORA_MODULES * n_ad + (Z3_QK_NORM_MODULES if a.qk_norm else 0.0)
    fetch += ad_part * n_ad * fp  # lora_A and lora_B: two hooked modules of one partitioned weight each
    return mods * Z3_HOOK_OPS_MODULE + fetch


def _adapters(a: ModelArch, framework: str, method: str, lora_rank: int,
              lora_targets: str) -> tuple[bool, float, float]:
    """(LoRA or not, adapted linears per layer, partitioned weights per adapted linear: 2 where ``lora_A`` and
    ``lora_B`` are over ``stage3_param_persistence_threshold``, else 0)."""
    h = float(a.hidden_size)
    thr = _persist_threshold(a, framework)
    lora = method in ("lora", "qlora")
    L = max(float(a.num_layers), 1.0)
    n_ad = sum(float(l.count) * n for l, n in lora_linears(a, lora_targets)) / L if lora else 0.0
    ad_part = 2.0 if lora and lora_rank * h >= thr else 0.0  # lora_A and lora_B partitioned
    return lora, n_ad, ad_part


def _layer_kinds(a: ModelArch):
    """``(moe, layers)`` of the dense and the MoE layers, those present."""
    n_moe = float(a.num_moe_layers)
    for moe, share in ((False, max(float(a.num_layers), 1.0) - n_moe), (True, n_moe)):
        if share > 0.0:
            yield moe, share


@lru_cache(maxsize=256)
def z3_ops_layer(a: ModelArch, framework: str, tool: str | None, method: str, lora_rank: int,
                 lora_targets: str) -> tuple[float, float]:
    """(host ops per pass, gradient-hook ops per backward) of ZeRO-3's hooks for one decoder layer, averaged over
    the dense and MoE layers (module docstring)."""
    lora, n_ad, ad_part = _adapters(a, framework, method, lora_rank, lora_targets)
    per_pass = grads = 0.0
    for moe, share in _layer_kinds(a):
        att, mlp, _n_exp = _linears(a, moe)
        per_pass += share * _layer_ops(a, moe, moe and tool in Z3_LEAF_MOE_TOOLS, n_ad, ad_part)
        # full: every linear weight, the two norms and the query/key norms
        trainable = 2.0 * n_ad if lora else att + mlp + 2.0 + (Z3_QK_NORM_MODULES if a.qk_norm else 0.0)
        grads += share * trainable * Z3_GRAD_OPS_PARAM
    L = max(float(a.num_layers), 1.0)
    return per_pass / L, grads / L


def z3_host_seconds_layer(a: ModelArch, framework: str, tool: str | None, method: str, lora_rank: int,
                          lora_targets: str, rec_whole):
    """Host seconds of ZeRO-3's hooks per decoder layer and micro-batch: forward, backward and the recompute
    forward (``rec_whole``: the share of layers re-run whole; may be an array). 0 where the engine's ZeRO-3 is
    not DeepSpeed's (FSDP, Megatron)."""
    if framework not in Z3_ENGINES:
        return 0.0 * rec_whole
    per_pass, grads = z3_ops_layer(a, framework, tool, method, int(lora_rank), lora_targets)
    return (per_pass * (2.0 + rec_whole) + grads) * EAGER_FWD_OP_S


# ------------------------------------------------------------------ gradient reduce-scatter, bucket by bucket
#: ZeRO-3's gradient path in the backward, host ops (``deepspeed/runtime/zero/stage3.py`` at v0.10.3 … v0.12.4,
#: ``__reduce_and_partition_ipg_grads`` → ``__avg_scatter_grads`` → ``runtime/comm/coalesced_collectives.py``
#: ``reduce_scatter_coalesced`` → ``partition_grads``), each at :data:`methods.EAGER_OP_S` (one aten op or CUDA
#: call from Python with its bookkeeping, as ``timing.ds_list_collectives`` prices DeepSpeed's per-rank loop):
#:
#: * per reduce-scatter (:data:`Z3_RS_OPS_BUCKET`, 7): the query of the oldest reduce event, the switch to the
#:   reduction stream, the flat buffer (a view, or ``torch.cat`` of several gradients), the pre-division
#:   (``div_``), ``torch.chunk`` into the ranks' parts, the collective's launch, and the new event's record;
#: * per gradient tensor in the bucket (:data:`Z3_RS_OPS_TENSOR`, 8, plus one per data-parallel rank): the stream
#:   wait in ``__add_grad_to_ipg_bucket``, the flat ``view``, one slice per rank (``reduce_scatter_coalesced``
#:   cuts every gradient into ``world_size`` parts), the output ``narrow``, ``partition_grads``' ``narrow`` of the
#:   partition buffer, the copy into it (or, after the first micro-batch, ``add_`` of the cast and viewed part: 3)
#:   and ``record_stream`` (the gradient's release is :data:`Z3_GRAD_OPS_PARAM`'s).
#:
#: A new reduce-scatter starts when the next gradient would overflow ``reduce_bucket_size`` elements: DeepSpeed's
#: default 5e8 (``zero/config.py``), ``hidden_size²`` under the Hugging Face integration's ``auto``
#: (transformers ``integrations/deepspeed.py``, ``trainer_config_finalize``). So under ``auto`` each weight matrix of
#: ``h²`` or more is reduced on its own, and the small tensors between them (norms, biases) in their own buckets.
Z3_RS_OPS_BUCKET = 7.0
Z3_RS_OPS_TENSOR = 8.0
Z3_REDUCE_BUCKET_DEFAULT, Z3_REDUCE_BUCKET_HF_PER_H2 = 5e8, 1.0


def _trainable_tensors(a: ModelArch, moe: bool, lora: bool, lora_rank: int, lora_targets: str) -> list:
    """``(elements, count)`` of one layer's trainable tensors: LoRA's A and B per adapted linear; else every
    weight matrix as the checkpoint stores it, the attention biases, the two norms and the query/key norms."""
    L = max(float(a.num_layers), 1.0)
    if lora:
        out = []
        for l, n in lora_linears(a, lora_targets):
            out += [(float(lora_rank * l.fan_in), float(l.count) * n / L),
                    (float(lora_rank * l.fan_out), float(l.count) * n / L)]
        return out
    att = [l for l, _n in lora_linears(a, "attention")]
    lins = mlp_linears(a, moe)
    if a.fused_gate_up:
        lins = _fuse(lins, ("gate_proj", "up_proj"), "gate_up_proj")
    out = [(float(l.weight_each), float(l.count)) for l in att + lins]
    out += [(float(l.fan_out), float(l.count)) for l in att + lins if l.bias]
    qk = [(float(a.head_dim), Z3_QK_NORM_MODULES)] if a.qk_norm else []  # as core/params.layer_norm_params
    return out + [(float(a.hidden_size), 2.0)] + qk


@lru_cache(maxsize=256)
def z3_rs_ops_layer(a: ModelArch, framework: str, method: str, lora_rank: int, lora_targets: str) -> tuple:
    """``(reduce-scatters, gradient tensors)`` per decoder layer and backward, averaged over the dense and MoE layers
    (the note above :data:`Z3_RS_OPS_BUCKET`): tensors of ``reduce_bucket_size`` or more are reduced alone; the
    smaller ones fill buckets, and between two large ones (a norm, the attention biases) start one of their own."""
    bucket = (Z3_REDUCE_BUCKET_DEFAULT if framework == "deepspeed"
              else Z3_REDUCE_BUCKET_HF_PER_H2 * float(a.hidden_size) ** 2)
    rs = tensors = 0.0
    for moe, share in _layer_kinds(a):
        tt = _trainable_tensors(a, moe, method in ("lora", "qlora"), lora_rank, lora_targets)
        big = sum(c for e, c in tt if e >= bucket)
        small_el = sum(e * c for e, c in tt if e < bucket)
        n_small = sum(c for e, c in tt if e < bucket)
        runs = max(small_el / bucket, min(2.0, n_small)) if big > 0 else small_el / bucket
        rs += share * (big + runs)
        tensors += share * sum(c for _e, c in tt)
    L = max(float(a.num_layers), 1.0)
    return rs / L, tensors / L


def z3_rs_host_seconds_layer(a: ModelArch, framework: str, method: str, lora_rank: int, lora_targets: str, n_dp):
    """Host seconds of ZeRO-3's gradient reduce-scatter path per decoder layer and micro-batch (its backward);
    ``n_dp`` (the data-parallel ranks) may be an array. 0 where the engine's ZeRO-3 is not DeepSpeed's."""
    if framework not in Z3_ENGINES:
        return 0.0 * n_dp
    rs, tensors = z3_rs_ops_layer(a, framework, method, int(lora_rank), lora_targets)
    return (rs * Z3_RS_OPS_BUCKET + tensors * (Z3_RS_OPS_TENSOR + n_dp)) * EAGER_OP_S


# ------------------------------------------------------------------ the all-gather itself, on more than one rank
#: What a real all-gather adds per gathered weight to :data:`Z3_HOOK_OPS_FETCH` / :data:`Z3_HOOK_OPS_PARAM` on more
#: than one rank (``partition_parameters.py`` v0.10.3 … v0.12.4, ``all_gather_coalesced``, the one-parameter path a
#: hooked linear takes): the partition's ``.to(device)``, the buffer's ``narrow`` and the view's ``.to(device)``
#: besides the counted buffer, launch and view (3). On one rank ``_no_gather_coalesced`` returns a
#: ``NoGatherHandle`` instead (the partition's ``.to`` and ``.view``, and in ``wait`` a synchronisation of the
#: gather stream, which holds no collective): as many ops as counted, so nothing is added there.
Z3_GATHER_OPS_MULTI = 3.0


@lru_cache(maxsize=256)
def z3_gathered_layer(a: ModelArch, framework: str, tool: str | None, method: str, lora_rank: int,
                      lora_targets: str) -> float:
    """Weights one decoder layer gathers in one pass, averaged over the dense and MoE layers: every linear as stored
    (each routed expert's), LoRA's A and B where they are partitioned, a z3-leaf MoE block as one gather."""
    _lora, n_ad, ad_part = _adapters(a, framework, method, lora_rank, lora_targets)
    total = 0.0
    for moe, share in _layer_kinds(a):
        att, mlp, _n = _linears(a, moe)
        leaf = moe and tool in Z3_LEAF_MOE_TOOLS
        total += share * (att + (1.0 if leaf else mlp) + ad_part * n_ad)
    return total / max(float(a.num_layers), 1.0)


def z3_gather_host_seconds_layer(a: ModelArch, framework: str, tool: str | None, method: str, lora_rank: int,
                                 lora_targets: str, n_dp):
    """Host seconds per decoder layer and micro-batch that ZeRO-3's all-gathers add on more than one rank: two
    gathers of each weight (the forward, and the recompute forward or the backward), :data:`Z3_GATHER_OPS_MULTI`
    ops each. ``n_dp`` may be an array; 0 on one rank and where ZeRO-3 is not DeepSpeed's."""
    if framework not in Z3_ENGINES:
        return 0.0 * n_dp
    g = z3_gathered_layer(a, framework, tool, method, int(lora_rank), lora_targets)
    return (n_dp > 1.0) * (2.0 * g * Z3_GATHER_OPS_MULTI * EAGER_FWD_OP_S)


# ------------------------------------------------------------------ where the prefetched all-gathers can hide
#: How far ZeRO-3's prefetch really runs ahead (DeepSpeed ``runtime/zero/partitioned_param_coordinator.py``,
#: ``PartitionedParameterCoordinator._fetch_sub_module_impl`` / ``fetch_sub_module``, the same at v0.10.3, v0.12.4
#: and edaa722):
#:
#: * Every hooked module's pre-hook, those without parameters too, first waits for its own weights, then makes the
#:   compute stream wait for the whole all-gather stream (``get_accelerator().current_stream().wait_stream(
#:   self.__allgather_stream)``, skipped only on a "synchronized" device: ``cuda_accelerator.py``
#:   ``is_synchronized_device`` / ``resolves_data_dependency`` return False), and only then issues the next
#:   prefetch. So a gather issued at one hook must be done before the GPU work after the next hook starts: it hides
#:   only under the GPU work queued between those two hooks (one segment), never deeper.
#: * Each prefetch takes the next parameters of the recorded trace until ``stage3_prefetch_bucket_size`` elements
#:   are reached, at least one whole weight, within ``stage3_max_live_parameters − __n_available_params``. Under the
#:   Hugging Face ``auto`` (``0.9·hidden²``: transformers ``integrations/deepspeed.py``,
#:   ``HfTrainerDeepSpeedConfig.trainer_config_finalize``) that is one weight per hook. There are more hooks than
#:   weights, so the issue front runs ahead until ``stage3_max_live_parameters`` (1e9 in the tools' configs) binds;
#:   from then on a weight is issued at the first hook after each release (``release_sub_module`` →
#:   ``__release_param`` lowers ``__n_available_params``). The bucket size does not change this.
#: * So in steady state each release issues about one weight at the next hook, and whether that gather hides
#:   depends on the GPU work after that hook. In Transformers' decoder layer (``LlamaDecoderLayer``, PEFT
#:   ``tuners/lora/layer.py`` for the adapters) three releases a layer and pass are followed by a segment without a
#:   GEMM: ``o_proj`` → ``post_attention_layernorm``, ``gate_proj`` (or ``fc1``) → ``act_fn``, the last MLP weight →
#:   the next decoder layer's own hook (the backward has three such places too: ``up_proj`` → ``act_fn``,
#:   ``gate_proj`` → the norm, ``q_proj`` → the attention container). Which weight the front holds there depends on
#:   the phase, so each is taken as the layer's mean gather.
#: * A LoRA-adapted linear: the base weight's release is followed by ``lora_dropout`` (an element-wise pass or an
#:   ``Identity``), partitioned ``lora_A`` by ``lora_B``'s rank-``r`` product, ``lora_B`` by the next module's
#:   hooks: none of them a window.
#: * Routed experts hooked one by one: ``gate_proj`` → ``act_fn`` and ``down_proj`` → the next expert, two of each
#:   expert's three; a z3-leaf MoE block is one gather followed by the next layer.
Z3_OPEN_RELEASES_LAYER = 3.0
Z3_OPEN_RELEASES_EXPERT_SHARE = 2.0 / 3.0
#: of a layer's open releases, those whose segment still holds some element-wise GPU work: the
#: ``post_attention_layernorm`` norm and the ``act_fn`` activation (one each), and with ``lora_dropout`` > 0 each
#: adapted linear's dropout on its input (``down_proj`` → the next layer, ``lora_A`` → ``lora_B``'s rank-r product
#: and ``lora_B`` → the next wrapper hold nothing); ``timing.time_layout`` counts their bytes
Z3_WINDOWED_RELEASES_LAYER = 2.0


def _open_releases(a: ModelArch, moe: bool, leaf: bool, n_ad: float, ad_part: float,
                   dropout: bool) -> tuple[float, float, float]:
    """(releases followed by a segment without a GEMM, of which with some element-wise work, all releases) of one
    layer and pass (note above)."""
    att, mlp, _n_exp = _linears(a, moe)
    if leaf:
        lins, plain_open = att + 1.0, 2.0
    elif moe:
        lins, plain_open = att + mlp, 1.0 + Z3_OPEN_RELEASES_EXPERT_SHARE * mlp
    else:
        lins, plain_open = att + mlp, min(Z3_OPEN_RELEASES_LAYER, att + mlp)
    adapted = min(n_ad, lins)
    # adapted linears: every release (base, and lora_A/lora_B where partitioned) is open; the others as without LoRA
    open_ = adapted * (1.0 + ad_part) + plain_open * (lins - adapted) / max(lins, 1.0)
    windowed = min(open_, Z3_WINDOWED_RELEASES_LAYER + (adapted if dropout else 0.0))
    return open_, windowed, lins + adapted * ad_part


@lru_cache(maxsize=256)
def z3_open_gather_share(a: ModelArch, framework: str, tool: str | None, method: str, lora_rank: int,
                         lora_targets: str, lora_dropout: bool = False) -> tuple[float, float]:
    """``(open, windowed)``: the share of a layer's ZeRO-3 all-gathers issued into a segment without a GEMM, where
    the prefetch cannot hide them, and of those the share whose segment holds some element-wise work (note above
    :data:`Z3_OPEN_RELEASES_LAYER`), averaged over the dense and MoE layers. ``(0, 0)`` where the engine's ZeRO-3 is
    not DeepSpeed's."""
    if framework not in Z3_ENGINES:
        return 0.0, 0.0
    lora, n_ad, ad_part = _adapters(a, framework, method, lora_rank, lora_targets)
    open_ = windowed = total = 0.0
    for moe, share in _layer_kinds(a):
        o, w, t = _open_releases(a, moe, moe and tool in Z3_LEAF_MOE_TOOLS, n_ad, ad_part, lora and lora_dropout)
        open_, windowed, total = open_ + share * o, windowed + share * w, total + share * t
    total = max(total, 1.0)
    return min(open_ / total, 1.0), min(windowed / total, 1.0)


# ------------------------------------------------------------------ coalesced prefetches: per-rank loops on the host
#: A prefetch that takes more than one weight gathers them in one coalesced call, and that call loops over the
#: ranks on the host (DeepSpeed ``runtime/zero/partition_parameters.py`` at v0.10.3, v0.12.6, v0.14.4, v0.15.4 and
#: v0.16.4; v0.15.4 is what open-instruct pins):
#:
#: * ``all_gather_coalesced`` sends one weight down its one-parameter path (no loop) and two or more to
#:   ``_all_gather_dtype``, which cuts the flat buffer into ``world_size`` partitions (``flat_tensor.narrow`` per
#:   rank: :data:`Z3_COALESCED_OPS_RANK`);
#: * ``AllGatherCoalescedHandle.wait`` then rebuilds each weight from its piece on every rank: per weight and rank a
#:   ``narrow`` of that rank's partition and, after the ``torch.cat``, a ``record_stream`` of the piece
#:   (:data:`Z3_COALESCED_OPS_PARAM_RANK`).
#:
#: Which weights a prefetch takes (``runtime/zero/partitioned_param_coordinator.py`` ``fetch_sub_module``, the
#: same versions): at every hooked module, those without weights too, the next weights of the recorded trace that are
#: not yet gathered, until ``min(stage3_max_live_parameters − gathered, stage3_prefetch_bucket_size)`` elements are
#: reached; a module's weights are released after its forward. Weights under ``stage3_param_persistence_threshold``
#: stay whole and are skipped. :func:`z3_prefetch_groups_layer` replays that walk over the model's weights in the
#: order Transformers' decoder layer runs its modules. ``stage3_prefetch_bucket_size``: DeepSpeed's default 5e7
#: (``zero/config.py``); Transformers' and Accelerate's ``auto``: ``0.9·hidden²`` (``trainer_config_finalize``,
#: ``Accelerator._prepare_deepspeed``). Under ``auto`` a model with grouped-query attention (k and v far under
#: ``hidden²``) prefetches ``k_proj``, ``v_proj`` and ``o_proj`` together once a layer and pass; with as many KV heads
#: as query heads every weight reaches the bucket alone and no loop runs. These ops launch no kernel: a view
#: (``narrow``) or an allocator call (``record_stream``), each priced at :data:`Z3_VIEW_OP_S`, the host time of a
#: view op called from Python as PyTorch measured it: 1.6–2.5 µs for ``view_as_real`` / ``view_as_complex`` and
#: 3.5–4.2 µs for ``.real`` (pytorch/pytorch PR #44908), 2.3–3.4 µs for ``split`` (PR #32194, operator
#: micro-benchmark): 2.5 µs. (A launched kernel costs more: :data:`methods.EAGER_OP_S`.)
Z3_COALESCED_OPS_RANK = 1.0
Z3_COALESCED_OPS_PARAM_RANK = 2.0
Z3_PREFETCH_DEFAULT, Z3_PREFETCH_HF_PER_H2 = 5e7, 0.9
Z3_MAX_LIVE_PARAMS = 1e9
Z3_VIEW_OP_S = 2.5e-6


def _hooked_weights(a: ModelArch, moe: bool, n_ad: float, ad_part: float, lora_targets: str, lora_rank: int):
    """One decoder layer's hooked modules in forward order, each as its weight's elements (0: no weight, or one that
    stays whole): the layer, its norm, the attention container, the attention linears as stored, the second norm,
    the MLP container and its linears with the activation after the first (routed experts one by one), and PEFT's
    ``lora_A`` / ``lora_B`` after each adapted linear where they are partitioned."""
    adapted = {l.name for l, _n in lora_linears(a, lora_targets)} if n_ad > 0.0 and ad_part > 0.0 else set()
    att = [l for l, _n in lora_linears(a, "attention")]
    lins = _stored_mlp_linears(a, moe)

    def mods(l):
        out = [float(l.weight_each)]
        if l.name in adapted:
            out += [0.0, float(lora_rank * l.fan_in), float(lora_rank * l.fan_out)]
        return out

    seq = [0.0, 0.0, 0.0]
    for l in att:
        # the query/key norm right after its projection (Z3_QK_NORM_MODULES): a hooked module with no gathered weight
        seq += mods(l) + ([0.0] if a.qk_norm and l.name.endswith(("q_proj", "k_proj")) else [])
    seq += [0.0, 0.0]
    for l in lins:
        for _ in range(int(l.count)):
            seq += mods(l) + ([0.0] if l.name.endswith(("gate_proj", "gate_up_proj", "fc1")) else [])
    return seq


def _coalesced_walk(mods: list[float], bucket: float, persist: float) -> float:
    """Σ (1 + 2·weights) over the prefetches of two or more weights, replaying ``fetch_sub_module`` over the hooked
    modules ``mods`` (elements of each one's weight, 0 for none) as one pass (note above)."""
    queue = [i for i, n in enumerate(mods) if n >= persist]
    state = {i: 0 for i in queue}  # 0 not gathered, 1 gathered
    head, live, ops = 0, 0.0, 0.0
    for i, n in enumerate(mods):
        if n >= persist:
            if state[i] == 0:
                state[i], live = 1, live + n
            while head < len(queue) and queue[head] <= i:
                head += 1
        room, took, count = min(Z3_MAX_LIVE_PARAMS - live, bucket), 0.0, 0
        while head < len(queue) and took < room:
            j = queue[head]
            head += 1
            if state[j] == 0:
                state[j], live, took, count = 1, live + mods[j], took + mods[j], count + 1
        if count >= 2:
            ops += Z3_COALESCED_OPS_RANK + Z3_COALESCED_OPS_PARAM_RANK * count
        if n >= persist:
            state[i], live = 0, live - n
    return ops


@lru_cache(maxsize=256)
def z3_prefetch_groups_layer(a: ModelArch, framework: str, method: str, lora_rank: int,
                             lora_targets: str) -> tuple[float, float]:
    """``(forward order, backward order)``: the per-rank host ops of ZeRO-3's coalesced prefetches per decoder layer
    and pass, divided by the data-parallel ranks (note above :data:`Z3_COALESCED_OPS_RANK`). No ``tool``: the
    walk takes each routed expert as its own hooked module whatever the tool (a z3-leaf MoE block is not modelled
    here)."""
    h = float(a.hidden_size)
    bucket = Z3_PREFETCH_DEFAULT if framework == "deepspeed" else Z3_PREFETCH_HF_PER_H2 * h * h
    persist = _persist_threshold(a, framework)
    _lora, n_ad, ad_part = _adapters(a, framework, method, lora_rank, lora_targets)
    mods: list[float] = []
    for moe, share in _layer_kinds(a):
        mods += _hooked_weights(a, moe, n_ad, ad_part, lora_targets, lora_rank) * int(round(share))
    L = max(float(a.num_layers), 1.0)
    return _coalesced_walk(mods, bucket, persist) / L, _coalesced_walk(mods[::-1], bucket, persist) / L


def z3_coalesced_host_seconds_layer(a: ModelArch, framework: str, tool: str | None, method: str, lora_rank: int,
                                    lora_targets: str, n_dp, rec_whole):
    """Host seconds per decoder layer and micro-batch of the coalesced prefetches' per-rank loops: the forward, then
    the recompute forward (``rec_whole``, in forward order) or the backward's re-gather (reverse order), as
    :func:`z3_gather_host_seconds_layer` counts two gathers of each weight. ``n_dp`` and ``rec_whole`` may be
    arrays; 0 on one rank (``_no_gather_coalesced``: no loop) and where ZeRO-3 is not DeepSpeed's. ``tool`` is not
    read (the walk does not depend on it); it stays so the signature matches :func:`z3_host_seconds_layer`'s and
    :func:`z3_gather_host_seconds_layer`'s (bench/z3_release_walk.py wraps this function and reads it)."""
    if framework not in Z3_ENGINES:
        return 0.0 * n_dp * rec_whole
    fwd, rev = z3_prefetch_groups_layer(a, framework, method, int(lora_rank), lora_targets)
    per_rank = fwd * (1.0 + rec_whole) + rev * (1.0 - rec_whole)
    return (n_dp > 1.0) * n_dp * per_rank * Z3_VIEW_OP_S
