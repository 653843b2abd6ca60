"""One scenario in, one estimate out: parameters, memory per GPU (and, with the time model, time).

This is the single entry point the CLI, the app and the report use for one configuration. The plan
search calls the same vectorised formulas (:func:`memory.memory_arrays`) over many configurations.
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from typing import Any

from dataclasses import dataclass
from .architecture import ModelArch, ModelSource, resolve_arch
from .errors import CatalogError, ScenarioError
from .i18n import QT_TRANSLATE_NOOP
from .messages import MsgStr
from .memory import (
    DEFAULT_CUDA_CONTEXT_GIB,
    DEFAULT_FRAGMENTATION,
    FP32_LOGPS_OBJECTIVES,
    FP32_LOGPS_TOOLS,
    GIB,
    RECOMPUTE_CODES,
    MemoryBreakdown,
    ModelFacts,
    expandable_segments_default,
    expert_tp_of,
    memory_arrays,
    model_facts,
    varlen_record_fraction,
)
from .recompute import megatron_modules as rc_modules
from .params import ParamCount, adapter_params, count_params, tier, vision_tokens_per_image, weights_scale
from .scenario import EMPTY_CACHE_ENGINES, Scenario
# imported here, not inside functions: the search runs on a worker thread, where an import statement goes through PySide6's import hook (a deadlock was seen there)
from .catalog_hw import get_gpu, get_network, lookup_gpu
from .timing import adamw_unfused, lora_layer_of, sample_shape_of, time_estimate
from .frameworks import compiled_loss, engine_of, fsdp2_upcast_applies, kbit_upcast_applies, lora_dropout_of, tool_mechanics
from .methods import method_profile
from .rules import pipeline_slots

CTX = "Estimate"

TIER_GUIDANCE = {
    "10B": QT_TRANSLATE_NOOP(
        "Tier", "~10B tier: one node of 4–8 GPUs (≥160 GB in total) is enough; NVLink inside the node helps "
        "tensor parallelism, PCIe servers work with ZeRO/FSDP data parallelism."),
    "100B": QT_TRANSLATE_NOOP(
        "Tier", "~100B tier: several nodes with tensor + pipeline parallelism, ≥80 GB cards, ≥400 Gb/s "
        "between nodes (InfiniBand or RoCE), NVLink inside each node."),
    "1000B": QT_TRANSLATE_NOOP(
        "Tier", "~1000B tier: hundreds of cards from a cluster pool; confirm the vendor's real elastic "
        "capacity, the network topology and failure handling before planning."),
}

#: the same tiers for a parameter-efficient run (LoRA, QLoRA): the frozen weights, not the optimizer, size the GPUs.
#: QLoRA: "finetune a 65B parameter model on a single 48GB GPU" (Dettmers et al. 2023, arXiv:2305.14314, abstract).
TIER_GUIDANCE_PEFT = {
    "10B": QT_TRANSLATE_NOOP(
        "Tier", "~10B tier, LoRA/QLoRA: the frozen weights (2 bytes per parameter, about 0.5 with 4-bit QLoRA) and "
                "small adapters fit on one GPU (a 24 GB card for a 7B model); more GPUs only shorten the run."),
    "100B": QT_TRANSLATE_NOOP(
        "Tier", "~100B tier, LoRA/QLoRA: the frozen weights decide the cards: one node of ≥80 GB cards for 16-bit "
                "LoRA, a single 48–80 GB card for a ~70B model with 4-bit QLoRA; no multi-node network is needed."),
    "1000B": TIER_GUIDANCE["1000B"],
}


def tier_guidance(tier: str, method: str | None = None) -> str:
    """The tier's guidance (untranslated source text, context "Tier") for the training method: parameter-efficient
    runs (LoRA, QLoRA) get their own, so one RTX 4090 for a 7B LoRA is not told "one node of 4–8 GPUs"."""
    table = TIER_GUIDANCE_PEFT if method in ("lora", "qlora") else TIER_GUIDANCE
    return table.get(tier, TIER_GUIDANCE.get(tier, ""))


@dataclass(slots=True, frozen=True)
class Resolved:
    """A scenario with its model resolved and derived facts computed (cheap to reuse)."""

    scenario: Scenario
    arch: ModelArch
    facts: ModelFacts
    gpu: Any  # catalog_hw.GPU

    @property
    def params(self) -> ParamCount:
        return self.facts.params


def _gpu(gpu_id: str):

    return get_gpu(gpu_id)


@lru_cache(maxsize=64)
def _facts_for(arch: ModelArch) -> ModelFacts:
    p = count_params(arch)
    facts = model_facts(arch, p)
    k = weights_scale(arch, p.total)
    if k != 1.0:
        # the checkpoint's weights hold another count than config.json describes: memory is sized from the
        # weights (every part of the model in proportion; core/intake.py shows both numbers)
        facts = dataclasses.replace(
            facts, layer_non_expert=facts.layer_non_expert * k, layer_expert=facts.layer_expert * k,
            first_extra=facts.first_extra * k, last_extra=facts.last_extra * k)
    return facts


def _check_ep_fold(scenario: Scenario) -> None:
    """Where the expert-parallel ranks come from. Megatron-Core folds the expert layers' parallelism over the whole
    tensor × context × data-parallel grid of a stage ("MoE Parallel Folding": ``parallel_state.
    initialize_model_parallel`` builds the expert groups from ``expert_tensor_parallel_size × expert_model_parallel_
    size × expert data parallel × pp = world size``), so ``ep × expert_tp`` must divide ``tp × cp × dp``; other
    frameworks carve the expert-parallel ranks out of the data-parallel ones (``ep`` divides ``dp``)."""
    p = scenario.parallel
    if engine_of(scenario.training.framework) == "megatron":
        etp = int(expert_tp_of("megatron", p.tp, p.expert_tp, tool=scenario.training.framework))
        grid = p.tp * p.cp * scenario.dp
        if grid % (p.ep * etp):
            raise ScenarioError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
                CTX, "ep={ep} × expert_tp={etp} must divide tp × cp × dp = {grid} (Megatron's expert parallel folding)"),
                ep=p.ep, etp=etp, grid=grid), field="parallel.ep")
    elif scenario.dp % p.ep:
        raise ScenarioError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "ep={ep} must divide the data-parallel degree {dp}"), ep=p.ep, dp=scenario.dp), field="parallel.ep")


def _check_moe_dispatcher(scenario: Scenario) -> None:
    """``parallel.moe_dispatcher`` names one of Megatron-Core's token dispatchers (``--moe-token-dispatcher-type``;
    other frameworks are refused by the scenario itself). The flex dispatcher (DeepEP / HybridEP) needs
    ``tp × ep > 1`` (``token_dispatcher.py``, ``MoEFlexTokenDispatcher``: "Flex token dispatcher requires TPxEP > 1")."""
    p = scenario.parallel
    if p.moe_dispatcher == "flex" and p.tp * p.ep <= 1 and not p.auto:  # the plan search picks its own layouts
        raise ScenarioError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "moe_dispatcher=flex needs tp × ep > 1 (Megatron's flex dispatcher)")),
            field="parallel.moe_dispatcher")


def _check_recompute_modules_arch(scenario: Scenario, arch: ModelArch) -> None:
    """``mla_up_proj`` needs multi-latent attention (Megatron-LM d98e8a64 ``transformer_config.py``: "mla_up_proj in
    recompute_modules is only supported with multi_latent_attention")."""
    if "mla_up_proj" in (scenario.training.recompute_modules or ()) and not arch.is_mla:
        raise ScenarioError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "recompute_modules mla_up_proj needs a model with multi-latent attention (Megatron-Core)")),
            field="training.recompute_modules")


def _check_cuda_graph_moe(scenario: Scenario, is_moe: bool) -> None:
    """The router's CUDA graph scope needs MoE layers (Megatron-LM ``transformer_config.py`` ``__post_init__``,
    commit d98e8a64: "moe cuda graph is only supported for MoE"); a whole MoE layer needs drop-and-pad."""
    scope = scenario.parallel.cuda_graph_scope
    if scope in ("moe_router", "attn_moe_router") and not is_moe:
        raise ScenarioError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "cuda_graph_scope={scope} captures the MoE router; the model has no MoE layers"), scope=scope),
            field="parallel.cuda_graph_scope")
    # the whole layer holds the experts: "moe cuda graph is only supported with drop-padding MoE" (same function)
    if scope == "layer" and is_moe and not scenario.parallel.moe_pad_to_capacity:
        raise ScenarioError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "cuda_graph_scope=layer on an MoE model needs moe_pad_to_capacity (Megatron graphs MoE layers only "
                 "with drop-and-pad)")), field="parallel.cuda_graph_scope")


def resolve(scenario: Scenario, models: ModelSource | None = None) -> Resolved:
    """Resolve the model and GPU and check the layout against the architecture."""
    arch = resolve_arch(scenario.model, models)
    p = scenario.parallel
    if arch.num_heads % p.tp:
        raise ScenarioError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "tp={tp} does not divide num_attention_heads={heads}"), tp=p.tp, heads=arch.num_heads),
            field="parallel.tp")
    if arch.num_layers < p.pp:
        raise ScenarioError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "pp={pp} exceeds the model's {layers} layers"),
                                        pp=p.pp, layers=arch.num_layers), field="parallel.pp")
    if p.vpp > 1 and p.pp == 1 and not p.auto:
        # Megatron-LM arguments.py (d98e8a64): "When interleaved schedule is used, pipeline-model-parallel size should
        # be greater than 1"; the estimate priced vpp=2 on pp=1 without a word (probe14)
        raise ScenarioError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "vpp={vpp} interleaves pipeline stages; it needs pp > 1"), vpp=p.vpp), field="parallel.vpp")
    if p.vpp > 1 and pipeline_slots(arch.num_layers, True) < p.pp * p.vpp:
        # each virtual stage holds whole layers: Megatron-Core builds num_layers // pp // vpp of them a chunk
        # (transformer_layer.py ``num_layers_per_virtual_rank = num_layers_per_pipeline_rank // vp_size``, d98e8a64),
        # none at all past this; the estimate priced pp=8 vpp=8 on 32 layers as 64 chunks (probe14). With
        # ``account_for_embedding_in_pipeline_split`` / ``account_for_loss_in_pipeline_split`` (TransformerConfig)
        # the embedding and the loss each count as a layer, so Megatron-Bridge's Llama 3.1 405B GB200 recipe runs
        # pp 16 × vpp 8 = 128 chunks on 126 layers: the bound is the layers plus those two.
        raise ScenarioError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "vpp={vpp} with pp={pp} makes {chunks} model chunks, more than the model's {layers} layers "
                 "plus its embedding and loss"),
            vpp=p.vpp, pp=p.pp, chunks=p.pp * p.vpp, layers=arch.num_layers), field="parallel.vpp")
    if p.ep > 1:
        if not arch.is_moe:
            raise ScenarioError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "expert parallelism needs an MoE model")),
                                field="parallel.ep")
        if arch.num_experts % p.ep:
            raise ScenarioError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "ep={ep} does not divide num_experts={experts}"),
                                            ep=p.ep, experts=arch.num_experts), field="parallel.ep")
        _check_ep_fold(scenario)
    _check_moe_dispatcher(scenario)
    _check_cuda_graph_moe(scenario, arch.is_moe)
    _check_recompute_modules_arch(scenario, arch)
    if scenario.training.seq_len % p.cp:
        raise ScenarioError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "cp={cp} does not divide seq_len={seq_len}"),
                                        cp=p.cp, seq_len=scenario.training.seq_len), field="parallel.cp")

    try:
        gpu = lookup_gpu(scenario.hardware.gpu, scenario.hardware.custom_gpus)
    except CatalogError as err:  # the field the id came from, as every other check of the scenario names it (probe13)
        raise ScenarioError(err.args[0], field="hardware.gpu") from None
    _check_network_id(scenario)
    return Resolved(scenario=scenario, arch=arch, facts=_facts_for(arch), gpu=gpu)


def _check_network_id(scenario: Scenario) -> None:
    """``hardware.inter_node`` names a network of the catalog: an unknown id names its field, as an unknown GPU does
    (probe14: "unknown network 'ib-zz'; known: …" said neither the field nor where to change it)."""
    net = scenario.hardware.inter_node
    if net is None:
        return
    try:
        get_network(net)
    except CatalogError as err:
        raise ScenarioError(err.args[0], field="hardware.inter_node") from None


def trainable_params(r: Resolved) -> int:
    """Parameters the optimizer updates: the policy's (LoRA adapters or every weight; reward-model training: a
    ``hidden × 1`` value head instead of the LM head). A PPO critic's are in the memory part ``critic``."""
    t = r.scenario.training
    if t.method in ("lora", "qlora"):
        return adapter_params(r.arch, t.lora_rank, t.lora_targets, bool(getattr(t, "dora", False)))
    p = r.params
    # a vision-language model's frozen encoder/projector (training.freeze_vision / freeze_projector)
    frozen = (p.vision if t.freeze_vision else 0) + (p.projector if t.freeze_projector else 0)
    if getattr(t, "objective", "sft") == "reward":
        return p.total - frozen - p.lm_head + r.arch.hidden_size
    return p.total - frozen


def vision_inputs(r: Resolved) -> dict:
    """The vision arguments of :func:`memory_arrays`: which parts train, encoder patches and language-model
    tokens per sample (``data.images_per_sample`` images of ``data.image_resolution``)."""
    a, s = r.arch, r.scenario
    if not a.vision_kind:
        return {}
    patches, tokens = vision_tokens_per_image(a, s.data.image_resolution)
    n = s.data.images_per_sample
    return dict(vision_trainable=not s.training.freeze_vision, projector_trainable=not s.training.freeze_projector,
                vision_patches=patches * n, vision_tokens=tokens * n, vision_images=n)


def compile_loss_of(t) -> bool:
    """Whether the run's cross-entropy is compiled: only with ``torch_compile``; ``training.compile_loss`` when
    given, else torchtitan's default (framework ``fsdp`` with FSDP2: ``compile.components = ["model", "loss"]``,
    torchtitan ``torchtitan/config`` ``CompileConfig``; the loss is compiled since commit bbb1b616, April 2025)."""
    return compiled_loss(t.framework, t.torch_compile, t.compile_loss, t.fsdp_version)


def varlen_batches_of(s) -> bool:
    """Whether the batches change length from step to step (memory.varlen_cache_bytes_per_logit): samples
    shorter than ``seq_len`` on average (``data.mean_sample_len``), neither packed nor flattened, on the Hugging
    Face stack, whose collators pad each batch to its own longest sample (transformers ``DataCollatorForSeq2Seq``
    ``padding=True``: "longest"; TRL; ms-swift ``Template.data_collator``). Megatron's datasets fill fixed
    ``seq_length`` rows."""
    t, mu = s.training, s.data.mean_sample_len
    return (mu is not None and mu < t.seq_len and not t.packing and not t.padding_free
            and engine_of(t.framework) in ("hf", "deepspeed", "fsdp"))


def memory_kwargs(r: Resolved) -> dict:
    """The fixed (per-scenario) arguments of :func:`memory_arrays`."""
    s, t, a = r.scenario, r.scenario.training, r.scenario.assumptions
    prof = method_profile(t)
    tool = tool_mechanics(t.framework, t.recompute, t.liger_kernel, t.cut_cross_entropy, t.objective,
                          t.fused_cross_entropy)
    row_len = sample_shape_of(s, prof).row_len
    return dict(
        method=t.method, precision=t.precision, optimizer=t.optimizer, framework=engine_of(t.framework),
        master_weights=t.master_weights, seq_len=row_len,
        lora_rank=t.lora_rank, lora_targets=t.lora_targets, dora=bool(getattr(t, "dora", False)),
        flash=t.flash_attention, optimizer_in_backward=t.optimizer_in_backward,
        activation_offload=t.activation_offload, checkpoint_offload=tool["checkpoint_offload"],
        chunked_loss=t.chunked_loss, torch_compile=t.torch_compile, paged_optimizer=t.paged_optimizer,
        loss_kernel=tool["loss_kernel"], layer_kernels=tool["layer_kernels"], profile=prof,
        gpu_capacity_gib=float(getattr(r.gpu, "memory_gib", 0.0) or 0.0) if r.gpu is not None else 0.0,
        offload_params=s.parallel.offload_params,
        cuda_context_gib=DEFAULT_CUDA_CONTEXT_GIB if a.cuda_context_gib is None else a.cuda_context_gib,
        fragmentation=DEFAULT_FRAGMENTATION if a.fragmentation is None else a.fragmentation,
        expandable_segments=(expandable_segments_default(engine_of(t.framework), int(t.fsdp_version))
                             if a.expandable_segments is None else a.expandable_segments),
        pipeline_mbs=t.pipeline_microbatch_size, expert_tp=s.parallel.expert_tp,
        compile_loss=compile_loss_of(t),
        fsdp_root_embedding=bool(t.fsdp_root_embedding) and engine_of(t.framework) == "fsdp"
        and int(t.fsdp_version) == 2,
        logits_held=bool(t.logits_held), use_cache=bool(t.use_cache),
        kbit_fp32=kbit_upcast_applies(t.framework, t.method, t.qlora_no_upcast),
        fp32_logps=t.framework in FP32_LOGPS_TOOLS and t.objective in FP32_LOGPS_OBJECTIVES,
        varlen_batches=varlen_batches_of(s),
        # the HF Trainer's torch_empty_cache_steps: a plan on another engine (the search's candidates) never empties it
        varlen_record_frac=varlen_record_fraction(
            t.empty_cache_steps if engine_of(t.framework) in EMPTY_CACHE_ENGINES else None, s.data.mean_sample_len,
            row_len),
        legacy_bnb_4bit=bool(t.legacy_bnb_4bit), ckpt_tool=t.framework, checkpoint_reentrant=t.checkpoint_reentrant,
        bnb_fp16_storage=bool(t.bnb_fp16_storage),
        lora_dropout=lora_dropout_of(t) if t.method in ("lora", "qlora") else 0.0,
        # the LoRA layer the time model prices (timing.lora_layer_of): what its adapters keep for backward
        lora_layer=lora_layer_of(t, engine_of(t.framework)),
        # the HF Trainer without --bf16 (frameworks.mixed_precision_off_allowed): PEFT's fp32 adapter path keeps fp32
        # copies for backward (memory.lora_fp32_path_bytes_per_token)
        no_autocast=bool(getattr(t, "mixed_precision_off", False)) and t.method == "lora",
        # the HF stack's ZeRO 2/3 through FSDP1 or DeepSpeed (frameworks.hf_sharded_by_fsdp reads it)
        fsdp_version=int(t.fsdp_version),
        # PyTorch FSDP1 (FullyShardedDataParallel): framework fsdp or the HF stack with fsdp_version 1
        fsdp1_root=engine_of(t.framework) in ("fsdp", "hf") and int(t.fsdp_version) == 1,
        # FSDP's no_sync over the accumulation (memory.fsdp_no_sync_on): the user's switch, else the HF Trainer on FSDP1
        fsdp_no_sync=fsdp_no_sync_of(t),
        # LoRA in its block's FSDP1 unit (memory.fsdp_lora_unit_params): the user's statement of the wrapping
        fsdp_lora_units=bool(t.fsdp_lora_mixed_units),
        # verl's remove-padding path divides a view of the logits in place (memory.verl_loss_bytes_per_logit)
        padding_free=bool(t.padding_free),
        # torch.optim.AdamW's unfused step (memory.adamw_foreach_step_bytes): the user's choice, else the tool's
        # default (timing.adamw_unfused: verl's FSDP workers)
        adamw_foreach=adamw_unfused(t.optimizer_implementation, prof, t.framework),
        # Accelerate < 1.13's FSDP2 upcast of the frozen base (memory.fsdp2_fp32_base_applies): the user's statement
        # (frameworks.fsdp2_upcast_applies, the scenario check's rule, at FULL_SHARD: the sharding stage is per
        # candidate, memory_arrays gates on zero)
        fsdp2_fp32_base=bool(t.fsdp2_fp32_upcast) and fsdp2_upcast_applies(t.framework, t.fsdp_version, 3),
        **vision_inputs(r),
        **recompute_kwargs(t),
    )


def fsdp_no_sync_of(t) -> bool:
    """``training.fsdp_no_sync``, or the tool's default: the Hugging Face Trainer on FSDP1 (engine hf, fsdp_version 1)
    runs every micro-batch but the last under ``accelerator.no_sync`` (transformers ``Trainer._inner_training_loop``:
    ``functools.partial(self.accelerator.no_sync, model=model) if i != len(batch_samples) - 1 and
    self.accelerator.distributed_type != DistributedType.DEEPSPEED``); torchtitan, torchtune and Composer sync every
    micro-batch. The memory model applies it only with accumulation and sharded gradients (memory.fsdp_no_sync_on)."""
    if t.fsdp_no_sync is not None:
        return bool(t.fsdp_no_sync)
    return engine_of(t.framework) == "hf" and int(t.fsdp_version) == 1


def recompute_kwargs(t) -> dict:
    """The recompute policy's parameters (core/recompute.py) for the memory and time models."""
    return dict(recompute_every_n=t.recompute_every_n, recompute_num_layers=t.recompute_num_layers,
                recompute_method=t.recompute_method, recompute_modules=rc_modules(t), fp8_recipe=t.fp8_recipe,
                fp8_all_gather=t.fp8_all_gather)


def memory_breakdown(r: Resolved) -> MemoryBreakdown:
    s = r.scenario
    p, t = s.parallel, s.training
    arr = memory_arrays(
        r.facts, **memory_kwargs(r),
        tp=p.tp, pp=p.pp, cp=p.cp, ep=p.ep, dp=s.dp, zero=p.zero, recompute=RECOMPUTE_CODES[t.recompute],
        mbs=t.micro_batch_size, sp=p.sequence_parallel and p.tp > 1, grad_accum=s.grad_accum, vpp=p.vpp,
        offload=p.offload_optimizer,
    )
    return MemoryBreakdown.from_arrays(arr, float(r.gpu.memory_gib or 0.0), s.assumptions.memory_headroom_gib,
                                       held=method_profile(t).models_held())


@dataclass(slots=True, frozen=True)
class Estimate:
    resolved: Resolved
    memory: MemoryBreakdown
    trainable: int
    time: Any = None  # timing.TimeEstimate

    @property
    def params(self) -> ParamCount:
        return self.resolved.params

    @property
    def tier(self) -> str:
        return tier(self.params.total)

    def to_json(self) -> dict:
        s = self.resolved.scenario
        out: dict[str, Any] = {
            "model": self.resolved.arch.name,
            "params": {
                "total": self.params.total,
                "active": self.params.active,
                "trainable": self.trainable,
                "stored": self.resolved.arch.stored_params,
            },
            "tier": self.tier,
            "gpu": s.hardware.gpu,
            "gpu_memory_gib": self.memory.capacity,
            "num_gpus": s.hardware.num_gpus,
            "layout": {"tp": s.parallel.tp, "pp": s.parallel.pp, "cp": s.parallel.cp, "ep": s.parallel.ep,
                       "dp": s.dp, "zero": s.parallel.zero, "grad_accum": s.grad_accum},
            "memory_per_gpu_gib": {k: round(v, 4) for k, v in self.memory.as_dict().items()},
            "memory_headroom_gib": self.memory.headroom,
            "fits": self.memory.fits,
        }
        if self.time is not None and hasattr(self.time, "to_json"):
            out.update(self.time.to_json())
        return out


def estimate(scenario: Scenario, models: ModelSource | None = None, resolved: Resolved | None = None) -> Estimate:
    """Estimate one scenario end to end."""
    r = resolved or resolve(scenario, models)
    return Estimate(resolved=r, memory=memory_breakdown(r), trainable=trainable_params(r), time=time_estimate(r))
