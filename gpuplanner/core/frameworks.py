"""What each training framework runs: the one table the plan search enumerates from.

One row per ``training.framework`` value. The search (:mod:`core.search`) builds its candidate layouts from
these rows only; the memory and time models (:mod:`core.memory`, :mod:`core.timing`) hold each framework's
byte conventions and communication-overlap defaults (:func:`overlap.overlap_flags` documents those defaults and
their sources; :func:`overlap_defaults` below reads them from there, so there is one copy).

Sources, per row:

* ``hf`` — Hugging Face Trainer / Accelerate: data parallelism with PyTorch DDP, ZeRO 1–3 through its DeepSpeed
  integration or FSDP; no tensor, pipeline, context or expert parallelism in the Trainer (Transformers docs
  "Efficient training on multiple GPUs" / "DeepSpeed" / "FSDP"). Activation checkpointing is
  ``gradient_checkpointing_enable()``: each decoder layer recomputed whole (``torch.utils.checkpoint``), no
  selective policy. LoRA/QLoRA through PEFT.
* ``deepspeed`` — DeepSpeed: ZeRO stages 0–3; pipeline parallelism (``PipelineModule``) only with ZeRO ≤ 1
  ("ZeRO stages 2 and 3 are not compatible with pipeline parallelism", DeepSpeed pipeline docs);
  ``deepspeed.checkpointing`` recomputes whole layers. AutoTP training (``"tensor_parallel": {"autotp_size": N}``,
  DeepSpeed ≥ 0.16.4: deepspeed.ai tutorial "Automatic Tensor Parallelism (Training)") splits a Hugging Face model's
  linears Megatron-style (column then row parallel, one all-reduce per block and pass, no sequence parallelism)
  with ZeRO 0–2 over the data-parallel ranks: entered only (the plan search does not try it: newer than the rest of
  the table), refused with ZeRO-3 or PP. Ulysses sequence parallelism is not modelled. LoRA/QLoRA through PEFT (PEFT
  docs "DeepSpeed"); AutoTP with PEFT adapters is not documented (refused like every PEFT tool's TP).
* ``fsdp`` — PyTorch FSDP2 as torchtitan applies it (Liang et al. 2024, "TorchTitan", arXiv:2410.06511):
  DDP, ``SHARD_GRAD_OP`` (ZeRO-2) or ``FULL_SHARD`` (ZeRO-3) composed with tensor parallelism (DTensor, with
  sequence parallelism by default: ``parallelism.enable_sequence_parallel``), pipeline parallelism
  (``torch.distributed.pipelining``: 1F1B and looped schedules such as Interleaved1F1B) and context parallelism; activation checkpointing
  ``none``, ``full`` and per-op selective (``op_sac``) (torchtitan ``activation_checkpoint`` config and
  ``torchtitan/distributed/activation_checkpoint.py``; :mod:`core.recompute`); the every-N-th-layer mode
  (``layer_sac``, ``selective_ac_option = "N"``) ran until pytorch/torchtitan 114151ad4 (2026-03-23) removed it: the
  search no longer offers it, an entered one is estimated with a warning (:data:`TORCHTITAN_RETIRED_RECOMPUTE`).
  torchtitan has no attention-core-only policy. Expert parallelism in
  torchtitan is recent and not modelled. LoRA/QLoRA: torchtune's FSDP2 recipes and Answer.AI's FSDP-QLoRA.
* ``megatron`` — Megatron-Core / Megatron-LM: tensor (with sequence parallelism, Korthikanti et al. 2022),
  pipeline (1F1B and the interleaved schedule, Narayanan et al. 2021, arXiv:2104.04473), context and expert
  parallelism, the distributed optimizer (ZeRO-1: ``--use-distributed-optimizer``), Megatron-FSDP (ZeRO-3:
  ``--use-megatron-fsdp --data-parallel-sharding-strategy optim_grads_params``, Megatron-Core ≥ 0.14; ZeRO-2 is its
  ``optim_grads`` strategy, entered only, not searched; composes with
  TP, PP, CP and EP: Megatron-LM ``docs/user-guide/features/megatron_fsdp.md``, Megatron-Bridge
  ``docs/training/megatron-fsdp.md``; Bridge's performance recipes run it, e.g. Llama 3 8B on H100 and Llama 3 70B
  on GB200; mechanics in :mod:`core.megatron_fsdp`; it has no parameter CPU offload), selective
  (``--recompute-activations``: ``megatron_selective``) or full (``--recompute-granularity full``, on all or
  ``--recompute-num-layers`` layers with ``--recompute-method uniform|block``) recomputation; pretraining and
  full fine-tuning (Megatron-LM has no LoRA; NeMo adds it on top). Layers must divide evenly into the pipeline
  stages unless uneven first/last stages are configured (``megatron/training/arguments.py``). LoRA: Megatron-LM
  itself has none; Megatron-Bridge (framework ``megatron-bridge``, and NeMo 2.0 before it) trains LoRA on
  Megatron-Core models with TP, PP and the interleaved schedule (``src/megatron/bridge/peft/lora.py``; its performance tables publish Llama 3 70B LoRA at
  TP 2 PP 4 VP 20 on H100); QLoRA is not offered (no 4-bit base weights in Megatron-Core).

Fine-tuning tools (one row each; ``engine`` is the framework above whose byte conventions and communication
they run, :func:`tool_mechanics` what they change on top; the scenario applies each tool's default activation
recomputation when ``training.recompute`` is not given, ``scenario._TOOL_RECOMPUTE``, and its LoRA dropout,
:data:`TOOL_LORA_DROPOUT`):

* ``llamafactory`` — LLaMA-Factory (hiyouga/LLaMA-Factory): the HF Trainer with PEFT; gradient checkpointing is
  on unless ``disable_gradient_checkpointing`` (``src/llamafactory/hparams/model_args.py``: default False;
  ``model/model_utils/checkpointing.py`` enables it for every decoder layer); ships DeepSpeed configs
  ``examples/deepspeed/ds_z0/z2/z3_config.json`` and ``ds_z2/z3_offload_config.json`` (ZeRO-1 has no shipped file,
  but ``deepspeed:`` is the Trainer's own argument and takes any DeepSpeed config, so ZeRO-1 runs too; DeepSpeed's
  own ``overlap_comm`` default, off, holds for it) (``overlap_comm``
  false since 2025-10, true before: ``overlap.DS_TOOL_OVERLAP``) and FSDP through Accelerate; Liger kernels and Unsloth's checkpointing only when asked
  (``enable_liger_kernel``, ``use_unsloth_gc``: default False). Trains sft, dpo, kto, orpo, simpo (its
  ``pref_loss``), reward models and PPO (``stage: ppo``).
* ``unsloth`` — Unsloth: ``FastLanguageModel.get_peft_model(use_gradient_checkpointing="unsloth")`` (as the
  Unsloth README and every official notebook set it) recomputes every layer and offloads the checkpointed layer inputs to CPU memory ("uses 30% less
  VRAM", Unsloth README; unsloth.ai/blog/long-context); hand-written Triton kernels for RMSNorm, RoPE,
  SwiGLU and LoRA's matmuls (fused: time model); the loss through Apple's Cut Cross-Entropy — no logits tensor
  (unsloth.ai/blog/llama3-3). Single-GPU or DDP; LoRA/QLoRA and full fine-tuning; DPO/ORPO/KTO/GRPO through
  TRL's trainers.
* ``ms-swift`` — ModelScope SWIFT: the HF Trainer (``swift sft``/``swift rlhf``) with ``gradient_checkpointing``
  default true (SWIFT docs "Command line parameters"); ships ``zero0``–``zero3`` and ``zero2_offload``/
  ``zero3_offload`` DeepSpeed configs (``swift/llm/ds_config``; ``overlap_comm`` false since 3.3, 2025-03, true
  before: ``overlap.DS_TOOL_OVERLAP``); dpo, kto, orpo, simpo, cpo, reward (``rlhf_type
  rm``), ppo and grpo (with vLLM colocate or server).
* ``megatron-swift`` — Megatron-SWIFT (``megatron sft``/``megatron rlhf``): Megatron-Core with
  ``recompute_granularity`` default ``selective`` (core attention, ``recompute_modules=["core_attn"]``),
  ``sequence_parallel`` default false, ``micro_batch_size`` 1, the distributed optimizer; TP, PP, CP, EP;
  LoRA through its own tuner (SWIFT docs "Megatron-SWIFT / Command line parameters", v3.10).
* ``megatron-bridge`` — NeMo / Megatron-Bridge (NVIDIA-NeMo/Megatron-Bridge; NeMo 1.0's NLP collection before it):
  Megatron-Core with its own PEFT (LoRA adapters inside the Megatron model: TP/PP apply), recomputation off in the
  fine-tuning recipes (``recipes/llama/llama3.py``), packed sequences and Transformer Engine FP8; SFT and LoRA.
* ``trl`` — Hugging Face TRL: ``SFTConfig``/``DPOConfig``/``GRPOConfig`` set ``gradient_checkpointing = True``
  instead of the Trainer's False (``trl/trainer/*_config.py`` at f2cd577, 2026-07); DeepSpeed/FSDP through
  Accelerate configs; every method of :mod:`core.methods`.
* ``axolotl`` — Axolotl: the HF Trainer with ``gradient_checkpointing: false`` unless the YAML sets it
  (axolotl config reference); ships ``deepspeed_configs/zero1/2/3*.json``; FSDP through Accelerate; sft, dpo,
  ipo, kto, orpo, simpo, reward models and grpo (through TRL).
"""

from __future__ import annotations


from dataclasses import dataclass, fields, replace
from .i18n import QT_TRANSLATE_NOOP
from .messages import Msg
from .overlap import OVERLAP_FIELDS, overlap_flags

CTX = "Framework"


@dataclass(slots=True, frozen=True)
class FrameworkSupport:
    """What one framework runs (the search enumerates only these)."""

    id: str
    name: str                      # display name (a product name, shown as it is)
    tensor_parallel: bool
    pipeline_parallel: bool
    context_parallel: bool
    expert_parallel: bool
    sequence_parallel: bool        # on with tensor parallelism
    interleaved_pipeline: bool     # virtual pipeline stages
    zero_stages: tuple[int, ...]   # ZeRO stages (0 = plain data parallel)
    pipeline_max_zero: int         # highest ZeRO stage allowed together with pipeline parallelism
    recompute: tuple[str, ...]     # activation recomputation policies
    methods: tuple[str, ...]       # training methods it runs
    fused_kernels: bool            # fused element-wise kernels by default (time model: ``fused``)
    setup: str                     # what it costs to get running (shown with the plan)
    source: str
    engine: str = ""               # the framework whose memory/communication conventions it runs ("" = itself)
    objectives: tuple[str, ...] = ("sft",)   # training objectives it runs (core/methods.py)
    default_recompute: str | None = None     # its documented default activation recomputation (tools)
    #: FP8 recipes it runs (core/fp8.py; the first is its default): Megatron-Core, DeepSpeed and Accelerate
    #: through Transformer Engine (Megatron ``--fp8-recipe delayed|tensorwise``; Accelerate also torchao),
    #: torchtitan through torchao (``quantize.linear.float8``: tensorwise, rowwise)
    fp8_recipes: tuple[str, ...] = ()
    #: tensor/pipeline parallelism also with LoRA/QLoRA (PEFT adapters): only Megatron-family tools build
    #: their LoRA inside the Megatron-Core model (Megatron-SWIFT's tuner; NeMo's PEFT). PEFT tools (LLaMA-Factory,
    #: Unsloth, TRL, ms-swift, Axolotl, the HF Trainer) wrap a Hugging Face model and run it with DDP, ZeRO or FSDP
    #: only; DeepSpeed's pipeline engine needs the model written as a ``PipelineModule`` (DeepSpeed docs
    #: "Pipeline Parallelism"), which no PEFT tool builds; torchtune's LoRA recipes (``lora_finetune_distributed``)
    #: shard with FSDP2 alone.
    peft_model_parallel: bool = False
    #: accelerator vendors (catalog ``vendor``) it runs on; empty: any vendor whose PyTorch backend runs it.
    #: Unsloth's kernels are Triton/CUDA: NVIDIA GPUs of compute capability ≥ 7.0, and AMD and Intel GPUs through
    #: its dedicated guides (Unsloth docs "Unsloth Requirements", unsloth.ai/docs/get-started/
    #: fine-tuning-for-beginners/unsloth-requirements); no Ascend, Cambricon or Hygon backend.
    vendors: tuple[str, ...] = ()
    #: recomputation policies with LoRA/QLoRA where the PEFT program differs from the row's (None: ``recompute``)
    peft_recompute: tuple[str, ...] | None = None
    #: parameter CPU offload under ZeRO-3 (``parallel.offload_params``: DeepSpeed ``offload_param``, FSDP
    #: ``CPUOffload(offload_params=True)``); Megatron-FSDP has none (core/megatron_fsdp.py)
    param_offload: bool = True
    #: the ZeRO stages the plan search tries (None: every stage it runs); Megatron-FSDP's ``optim_grads``
    #: (ZeRO-2) is runnable but no published recipe uses it (core/megatron_fsdp.py)
    searched_zero: tuple[int, ...] | None = None
    #: tensor parallelism tried by the plan search (False: entered only), the highest ZeRO stage it runs with, and
    #: whether it composes with pipeline parallelism. DeepSpeed's AutoTP training: "ZeRO Optimization: … (Stage 0,
    #: 1, or 2)", no sequence parallelism, no documented pipeline composition (deepspeed.ai tutorial "Automatic Tensor
    #: Parallelism (Training)"; DeepSpeed ``blogs/huggingface-tp``: deepspeed ≥ 0.16.4)
    tp_searched: bool = True
    tp_max_zero: int = 3
    tp_with_pp: bool = True
    #: the methods for which the plan search tries pipeline parallelism (None: every method it runs). DeepSpeed's
    #: pipeline engine trains a ``deepspeed.pipe.PipelineModule`` (a flat list of layers) through
    #: ``engine.train_batch()`` (DeepSpeed docs "Pipeline Parallelism"; ``deepspeed/runtime/pipe/engine.py``
    #: ``PipelineEngine``: "model must be a PipelineModule"). Pretraining stacks build their models that way
    #: (Megatron-DeepSpeed ``GPTModelPipe``, GPT-NeoX ``GPT2ModelPipe``); a Hugging Face checkpoint fine-tuned with
    #: the Trainer's DeepSpeed integration (``transformers/integrations/deepspeed.py``: ZeRO only) runs no pipeline,
    #: so a fine-tune would need the model rewritten by hand (issue 35 round 6, advice5). Entered by the user: kept.
    pp_searched_methods: tuple[str, ...] | None = None
    #: training objectives whose trainer does not run the interleaved pipeline schedule (virtual stages), though the
    #: row does for its others: the search does not try VPP for them (a VPP the user enters is kept and warned).
    #: Megatron-SWIFT's GRPO: "GRPO currently does not support VPP." (modelscope/ms-swift
    #: swift/megatron/trainers/grpo_trainer.py ``_maybe_compute_logps``, an assert on the reference model's virtual
    #: stages, at 3602360; docs "Megatron-SWIFT / GRPO" v3.11–v4.0 list VPP under "to be supported"); its DPO
    #: trainer runs one reference model per virtual stage (``dpo_trainer.py``: ``ref_models[vp_stage or 0]``).
    #: Issue 35 round 7, advice6: GRPO plans #1 of 11, 44 and 54 were Megatron-SWIFT with VPP 2 to 32.
    no_vpp_objectives: tuple[str, ...] = ()
    #: the ZeRO stages its LoRA/QLoRA program runs with more than one data-parallel rank, where that program differs
    #: from the row's (None: every stage it runs). torchtune's ``lora_finetune_distributed`` (the ``fsdp`` row's PEFT
    #: program, :data:`PEFT_NAMES`) always shards with FSDP2: "Resharding of parameters after the forward pass is done
    #: by default (corresponding to FULL_SHARD sharding strategy), but can be disabled by setting the config
    #: ``fsdp_reshard_after_forward`` to False (this corresponds to SHARD_GRAD_OP sharding strategy). DDP is currently
    #: not supported." (pytorch/torchtune recipes/lora_finetune_distributed.py, class docstring): ZeRO-3 or ZeRO-2,
    #: never plain data parallel; one GPU runs ``lora_finetune_single_device`` (nothing sharded). Issue 35 round 8,
    #: advice8: plans #2 of LoRA 7B on 2 × RTX 5090 and 14B on 2 × H800 were "torchtune, plain data parallel".
    peft_dp_zero: tuple[int, ...] | None = None


FRAMEWORKS: dict[str, FrameworkSupport] = {
    "hf": FrameworkSupport(
        id="hf", name="Hugging Face Trainer / Accelerate", tensor_parallel=False, pipeline_parallel=False,
        context_parallel=False, expert_parallel=False, sequence_parallel=False, interleaved_pipeline=False,
        zero_stages=(0, 1, 2, 3), pipeline_max_zero=3, recompute=("none", "full"),
        methods=("pretrain", "full", "lora", "qlora"), fused_kernels=False,
        setup=QT_TRANSLATE_NOOP(CTX, "runs Hugging Face checkpoints as they are; DDP or ZeRO through DeepSpeed/FSDP"),
        source=QT_TRANSLATE_NOOP(CTX, "Transformers docs: Efficient training on multiple GPUs, DeepSpeed, FSDP"),
        fp8_recipes=("te_delayed", "te_current", "torchao_tensorwise", "torchao_rowwise")),
    "deepspeed": FrameworkSupport(
        id="deepspeed", name="DeepSpeed", tensor_parallel=True, pipeline_parallel=True, context_parallel=False,
        expert_parallel=False, sequence_parallel=False, interleaved_pipeline=False, zero_stages=(0, 1, 2, 3),
        pipeline_max_zero=1, recompute=("none", "full"), methods=("pretrain", "full", "lora", "qlora"),
        fused_kernels=False, tp_searched=False, tp_max_zero=2, tp_with_pp=False, pp_searched_methods=("pretrain",),
        setup=QT_TRANSLATE_NOOP(CTX, "needs a DeepSpeed config; pipeline parallelism needs the model as a "
                                     "PipelineModule"),
        source=QT_TRANSLATE_NOOP(CTX, "DeepSpeed docs: ZeRO, pipeline parallelism (ZeRO-2/3 not compatible with PP), activation "
               "checkpointing"), fp8_recipes=("te_delayed", "te_current")),
    "fsdp": FrameworkSupport(
        # torchtitan: tensor parallelism with sequence parallelism on by default
        # (``parallelism.enable_sequence_parallel = True``), looped pipeline schedules (Interleaved1F1B,
        # interleaved zero-bubble: ``parallelism.pipeline_parallel_schedule``; benchmarks/
        # llama3_h100_202412_torchtitan.md Table 5 runs Interleaved 1F1B)
        id="fsdp", name="PyTorch FSDP2 (torchtitan)", tensor_parallel=True, pipeline_parallel=True,
        context_parallel=True, expert_parallel=False, sequence_parallel=True, interleaved_pipeline=True,
        zero_stages=(0, 2, 3), pipeline_max_zero=3, recompute=("none", "op_sac", "full"),
        methods=("pretrain", "full", "lora", "qlora"), fused_kernels=False,
        # (no ``layer_sac``: torchtitan 114151ad4, 2026-03-23, removed every-N-th-layer AC;
        # TORCHTITAN_RETIRED_RECOMPUTE)
        # torchtune's lora_finetune_distributed has one switch, enable_activation_checkpointing: every decoder
        # layer checkpointed whole (training.set_activation_checkpointing), no per-op or every-N-th policy
        peft_recompute=("none", "full"), peft_dp_zero=(2, 3),
        setup=QT_TRANSLATE_NOOP(CTX, "torchtitan/torchtune recipes; reads Hugging Face weights after conversion "
                                     "to DCP"),
        source=QT_TRANSLATE_NOOP(CTX, "Liang et al. 2024, TorchTitan (arXiv:2410.06511); PyTorch fully_shard docs"),
        fp8_recipes=("torchao_tensorwise", "torchao_rowwise")),
    "megatron": FrameworkSupport(
        id="megatron", name="Megatron-Core", tensor_parallel=True, pipeline_parallel=True, context_parallel=True,
        expert_parallel=True, sequence_parallel=True, interleaved_pipeline=True, zero_stages=(0, 1, 2, 3),
        pipeline_max_zero=3, recompute=("none", "megatron_selective", "full"), methods=("pretrain", "full"),
        fused_kernels=True, param_offload=False, searched_zero=(0, 1, 3),
        setup=QT_TRANSLATE_NOOP(CTX, "needs Megatron checkpoints (convert Hugging Face weights) and a tested "
                                     "image; ask the vendor for a pre-configured Megatron-LM"),
        source=QT_TRANSLATE_NOOP(CTX, "Narayanan et al. 2021 (arXiv:2104.04473); Korthikanti et al. 2022 (arXiv:2205.05198); "
               "Megatron-LM docs and megatron/training/arguments.py; Megatron-FSDP feature guide"),
        fp8_recipes=("te_delayed", "te_current", "te_mxfp8")),
}

_ALL_OBJ = ("sft", "dpo", "ipo", "kto", "orpo", "simpo", "cpo", "reward", "ppo", "grpo")
_FT = ("full", "lora", "qlora")
_TOOLS = {
    "llamafactory": FrameworkSupport(
        id="llamafactory", name="LLaMA-Factory", tensor_parallel=False, pipeline_parallel=False,
        context_parallel=False, expert_parallel=False, sequence_parallel=False, interleaved_pipeline=False,
        zero_stages=(0, 1, 2, 3), pipeline_max_zero=3, recompute=("none", "full"), methods=("pretrain",) + _FT,
        fused_kernels=False, engine="hf", default_recompute="full",
        objectives=("sft", "dpo", "ipo", "kto", "orpo", "simpo", "reward", "ppo"),
        setup=QT_TRANSLATE_NOOP(CTX, "llamafactory-cli with a YAML; DeepSpeed ZeRO-0/2/3 configs are shipped"),
        source=QT_TRANSLATE_NOOP(CTX, "hiyouga/LLaMA-Factory: hparams/model_args.py (disable_gradient_checkpointing=False), "
               "model/model_utils/checkpointing.py, examples/deepspeed/ds_z*_config.json")),
    "unsloth": FrameworkSupport(
        id="unsloth", name="Unsloth", tensor_parallel=False, pipeline_parallel=False, context_parallel=False,
        expert_parallel=False, sequence_parallel=False, interleaved_pipeline=False, zero_stages=(0,),
        pipeline_max_zero=0, recompute=("none", "full"), methods=_FT, fused_kernels=True, engine="hf",
        default_recompute="full", objectives=("sft", "dpo", "kto", "orpo", "simpo", "grpo"),
        vendors=("NVIDIA", "AMD", "Intel"),
        setup=QT_TRANSLATE_NOOP(CTX, "pip install unsloth; one GPU (or DDP); Hugging Face models as they are"),
        source=QT_TRANSLATE_NOOP(CTX, "unslothai/unsloth README and notebooks: get_peft_model(use_gradient_checkpointing='unsloth'); Unsloth docs "
               "'Unsloth Benchmarks'; unsloth.ai/blog/llama3-3 (Cut Cross-Entropy)")),
    "ms-swift": FrameworkSupport(
        id="ms-swift", name="ms-swift", tensor_parallel=False, pipeline_parallel=False, context_parallel=False,
        expert_parallel=False, sequence_parallel=False, interleaved_pipeline=False, zero_stages=(0, 1, 2, 3),
        pipeline_max_zero=3, recompute=("none", "full"), methods=("pretrain",) + _FT, fused_kernels=False,
        engine="hf", default_recompute="full", objectives=_ALL_OBJ,
        setup=QT_TRANSLATE_NOOP(CTX, "swift sft / swift rlhf; DeepSpeed zero0–zero3 configs are shipped"),
        source=QT_TRANSLATE_NOOP(CTX, "modelscope/ms-swift docs 'Command line parameters' (gradient_checkpointing true), "
               "swift/llm/ds_config")),
    "megatron-swift": FrameworkSupport(
        id="megatron-swift", name="Megatron-SWIFT", tensor_parallel=True, pipeline_parallel=True,
        context_parallel=True, expert_parallel=True, sequence_parallel=True, interleaved_pipeline=True,
        zero_stages=(0, 1), pipeline_max_zero=1, recompute=("none", "megatron_selective", "full"),
        methods=("pretrain",) + _FT, fused_kernels=True, engine="megatron", default_recompute="megatron_selective",
        objectives=("sft", "dpo", "kto", "reward", "grpo"), peft_model_parallel=True, no_vpp_objectives=("grpo",),
        setup=QT_TRANSLATE_NOOP(CTX, "megatron sft / megatron rlhf (ms-swift); converts Hugging Face weights "
                                     "itself; needs Transformer Engine and Apex"),
        source=QT_TRANSLATE_NOOP(CTX, "ms-swift docs 'Megatron-SWIFT / Command line parameters' (recompute_granularity selective, "
               "sequence_parallel false)")),
    "megatron-bridge": FrameworkSupport(
        # NeMo 2 / Megatron-Bridge (and NeMo 1.0's NLP collection before it): fine-tuning on Megatron-Core with its
        # own PEFT (``megatron/bridge/peft/lora.py``: ``ParallelLinearAdapter`` inside the Megatron model, so TP/PP
        # apply to LoRA too); the fine-tuning recipes leave recomputation off (``recipes/llama/llama3.py``
        # ``*_sft_config`` / ``*_peft_config``: ``recompute_granularity = None``); packed sequences (THD) and FP8
        # through Transformer Engine. No QLoRA in the Megatron path (bitsandbytes only on Hugging Face modules).
        id="megatron-bridge", name="NeMo / Megatron-Bridge", tensor_parallel=True, pipeline_parallel=True,
        context_parallel=True, expert_parallel=True, sequence_parallel=True, interleaved_pipeline=True,
        zero_stages=(0, 1, 2, 3), pipeline_max_zero=3, recompute=("none", "megatron_selective", "full"),
        methods=("pretrain", "full", "lora"), fused_kernels=True, engine="megatron", default_recompute="none",
        objectives=("sft",), peft_model_parallel=True, param_offload=False, searched_zero=(0, 1, 3),
        setup=QT_TRANSLATE_NOOP(CTX, "Megatron-Bridge recipes (NeMo framework container); converts Hugging Face "
                                     "weights itself (AutoBridge)"),
        source=QT_TRANSLATE_NOOP(CTX, "NVIDIA-NeMo/Megatron-Bridge src/megatron/bridge/recipes/llama/llama3.py, peft/lora.py, "
               "scripts/performance/configs/llama/")),
    "nanotron": FrameworkSupport(
        # Hugging Face's pretraining library (github.com/huggingface/nanotron, v0.5; the Ultra-Scale Playbook's
        # benchmark runs): Megatron-style mechanics on its own code, so the Megatron engine's conventions apply
        # (issue 35 round 9, ptoos9): sequence-parallel TP (``tp_mode: REDUCE_SCATTER``,
        # ``parallel/tensor_parallel/functional.py``), the non-interleaved 1F1B schedule
        # (``OneForwardOneBackwardPipelineEngine``; no virtual stages), ZeRO-0/1 (``optim/zero.py``
        # ``ZeroDistributedOptimizer``), fp32 gradient accumulation and reduction (``accumulate_grad_in_fp32``), an
        # unfused vocab-parallel cross-entropy (``sharded_cross_entropy``), whole-layer recomputation only
        # (``recompute_layer``). What it does differently is in core/timing.py: ``nanotron_list_copies`` and
        # ``nanotron_stage_shares``.
        id="nanotron", name="Nanotron", tensor_parallel=True, pipeline_parallel=True, context_parallel=False,
        expert_parallel=False, sequence_parallel=True, interleaved_pipeline=False, zero_stages=(0, 1),
        pipeline_max_zero=1, recompute=("none", "full"), methods=("pretrain",), fused_kernels=True,
        engine="megatron", default_recompute="none", objectives=("sft",), param_offload=False,
        setup=QT_TRANSLATE_NOOP(CTX, "pip install nanotron; a YAML config (parallelism dp/tp/pp, tokens, optimizer "
                                     "zero_stage); Llama-style models only"),
        source=QT_TRANSLATE_NOOP(CTX, "huggingface/nanotron src/nanotron/optim/zero.py, optim/gradient_accumulator.py, "
               "models/base.py build_model, parallel/pipeline_parallel/engine.py; scripts/scaling_benchmarks.py")),
    "gpt-neox": FrameworkSupport(
        # EleutherAI's GPT-NeoX v1.0 (github.com/EleutherAI/gpt-neox tag v1.0, 71df4d50; the Pythia runs): Megatron's
        # model code (``megatron/mpu``: column/row-parallel linears, no sequence parallelism) trained by DeepSpeed
        # (``megatron/training.py`` ``setup_model_and_optimizer``: ``deepspeed.initialize``; ZeRO-0/1 with TP, the
        # Pythia configs' ``zero_optimization.stage: 1``), DeepSpeed's pipeline engine (``PipelineModule``, 1F1B, no
        # virtual stages), whole-layer recomputation (``checkpoint-activations``, off by default in
        # ``neox_args.py``), the unfused vocab-parallel cross-entropy (``mpu/cross_entropy.py``), fp16/bf16 without
        # Transformer Engine. What its layer does differently (unfused bias adds, layout copies around the flash
        # kernel, one all-reduce with ``gpt_j_residual``) is in core/timing.py: ``gpt_neox_copies_bytes``.
        id="gpt-neox", name="GPT-NeoX", tensor_parallel=True, pipeline_parallel=True, context_parallel=False,
        expert_parallel=False, sequence_parallel=False, interleaved_pipeline=False, zero_stages=(0, 1),
        pipeline_max_zero=1, recompute=("none", "full"), methods=("pretrain",), fused_kernels=True,
        engine="megatron", default_recompute="none", objectives=("sft",), param_offload=False,
        setup=QT_TRANSLATE_NOOP(CTX, "git clone EleutherAI/gpt-neox (v1.0); a YAML config (model-parallel-size, "
                                     "pipe-parallel-size, zero_optimization); deepy.py train"),
        source=QT_TRANSLATE_NOOP(CTX, "EleutherAI/gpt-neox v1.0 megatron/model/transformer.py, megatron/mpu/layers.py, "
               "megatron/neox_arguments/neox_args.py; EleutherAI/pythia models/*/pythia-*.yml")),
    "trl": FrameworkSupport(
        id="trl", name="TRL", tensor_parallel=False, pipeline_parallel=False, context_parallel=False,
        expert_parallel=False, sequence_parallel=False, interleaved_pipeline=False, zero_stages=(0, 1, 2, 3),
        pipeline_max_zero=3, recompute=("none", "full"), methods=_FT, fused_kernels=False, engine="hf",
        default_recompute="full", objectives=_ALL_OBJ,
        setup=QT_TRANSLATE_NOOP(CTX, "trl CLI or a script; DeepSpeed/FSDP through Accelerate configs"),
        source=QT_TRANSLATE_NOOP(CTX, "huggingface/trl trl/trainer/*_config.py (gradient_checkpointing defaults to True)")),
    "axolotl": FrameworkSupport(
        id="axolotl", name="Axolotl", tensor_parallel=False, pipeline_parallel=False, context_parallel=False,
        expert_parallel=False, sequence_parallel=False, interleaved_pipeline=False, zero_stages=(0, 1, 2, 3),
        pipeline_max_zero=3, recompute=("none", "full"), methods=("pretrain",) + _FT, fused_kernels=False,
        engine="hf", default_recompute="none",
        objectives=("sft", "dpo", "ipo", "kto", "orpo", "simpo", "reward", "grpo"),
        setup=QT_TRANSLATE_NOOP(CTX, "axolotl train config.yml; DeepSpeed configs are shipped"),
        source=QT_TRANSLATE_NOOP(CTX, "axolotl-ai-cloud/axolotl config reference (gradient_checkpointing false), deepspeed_configs/")),
}
FRAMEWORKS.update(_TOOLS)
for _k in ("hf", "deepspeed", "fsdp", "megatron"):
    FRAMEWORKS[_k] = replace(FRAMEWORKS[_k], engine=_k, objectives=_ALL_OBJ)
# a tool runs its engine's FP8 recipes (LLaMA-Factory, ms-swift, TRL and Axolotl train through Accelerate /
# DeepSpeed with Transformer Engine; Megatron-SWIFT through Megatron-Core) unless its entry says otherwise
for _k in _TOOLS:
    _f = FRAMEWORKS[_k]
    # (Nanotron trains in BF16 without Transformer Engine: no FP8 recipe)
    # (nor does GPT-NeoX v1.0: fp16/bf16 through DeepSpeed, no Transformer Engine)
    if not _f.fp8_recipes and _f.engine in FRAMEWORKS and _k not in ("nanotron", "gpt-neox"):
        FRAMEWORKS[_k] = replace(_f, fp8_recipes=FRAMEWORKS[_f.engine].fp8_recipes)

#: The order frameworks are tried and listed in (simplest to set up first: ties go to the simpler one). The
#: fine-tuning tools are the user's pick (``training.framework``), not searched over.
ORDER = ("hf", "deepspeed", "fsdp", "megatron")
TOOLS = tuple(_TOOLS)


def engine_of(framework: str) -> str:
    """The framework whose byte conventions and communication a framework or tool runs."""
    f = FRAMEWORKS.get(framework)
    return (f.engine or framework) if f is not None else framework


#: The tools that run their own LoRA layers besides the Megatron-Core ones (whose adapters are Megatron's,
#: timing.lora_fused): Unsloth's ``fast_lora`` kernels. ``training.lora_layer`` (NeMo AutoModel's linears, which patch
#: Transformers' ``nn.Linear`` modules, issue 35 round 14) does not apply to them: :func:`lora_layer_applies`.
OWN_LORA_LAYER_TOOLS = ("unsloth",)


def own_lora_layers(framework: str, engine: str | None = None) -> bool:
    """Whether ``framework`` (on ``engine``, by default its own :func:`engine_of`) runs its own LoRA layers: the
    Megatron-Core tools and :data:`OWN_LORA_LAYER_TOOLS`."""
    return (engine or engine_of(framework)) == "megatron" or framework in OWN_LORA_LAYER_TOOLS


#: The engines whose ``parallel.zero`` 2/3 shards gradients with FSDP's no_sync/unit switches
#: (``training.fsdp_no_sync``, ``training.fsdp_lora_mixed_units``; issue 35 round 14, memoos14): PyTorch FSDP and
#: the Hugging Face stack (Accelerate's FSDP plugin).
FSDP_SWITCH_ENGINES = ("fsdp", "hf")


def fsdp_sharded_gradients(framework: str, zero, fsdp_version) -> bool:
    """Whether a plan of ``framework`` at ZeRO stage ``zero`` runs FSDP with sharded gradients (:data:`FSDP_SWITCH_ENGINES`,
    stage 2 or 3; on the Hugging Face stack only through Accelerate's FSDP1, ``fsdp_version`` 1: at 2 its ZeRO is
    DeepSpeed's, :func:`hf_sharded_by_fsdp`, review15): the one rule the scenario's check
    (scenario._check_fsdp_no_sync) and the Training page's rows read (parity14)."""
    engine = engine_of(framework)
    return int(zero) >= 2 and engine in FSDP_SWITCH_ENGINES and (engine != "hf" or int(fsdp_version) == 1)


def fsdp_lora_units_apply(framework: str, zero, fsdp_version, method: str) -> bool:
    """Whether ``training.fsdp_lora_mixed_units`` (LoRA inside its block's FSDP1 unit, memory.fsdp_lora_unit_params,
    timing.FSDP_MIXED_UNIT_WGRAD) can hold: LoRA under FSDP1 (flat parameters; FSDP2 shards per parameter, so a frozen
    weight gets no gradient) with sharded gradients (:func:`fsdp_sharded_gradients`). The one rule the scenario's
    check and the Training page's row read (review15: the memory model charged the block gradients on FSDP2 and under
    the HF stack's DeepSpeed, where the time model charged nothing)."""
    return method == "lora" and int(fsdp_version) == 1 and fsdp_sharded_gradients(framework, zero, fsdp_version)


#: objectives whose loss TRL computes from ``selective_log_softmax`` on the model's logits (memory.memory_arrays):
#: 16-bit under DeepSpeed, fp32 under Accelerate's native AMP (memory.trl_amp_saved_bytes_per_logit)
TRL_SELECTIVE_LOG_SOFTMAX = ("dpo", "ipo", "kto", "orpo", "simpo", "cpo", "ppo", "grpo")


def compiled_loss(framework: str, torch_compile: bool, compile_loss, fsdp_version) -> bool:
    """Whether the run's cross-entropy is compiled: only with ``torch_compile``; ``training.compile_loss`` when
    given, else torchtitan's default (framework ``fsdp`` with FSDP2: ``compile.components = ["model", "loss"]``,
    torchtitan ``torchtitan/config`` ``CompileConfig``; the loss is compiled since commit bbb1b616, April 2025)."""
    if not torch_compile:
        return False
    if compile_loss is not None:
        return bool(compile_loss)
    return engine_of(framework) == "fsdp" and int(fsdp_version) == 2


def logits_held_unpriced(t) -> str | None:
    """The one-line refusal (a template of ``framework``/``objective``, context "Scenario": scenario._check_logits_
    held raises it) saying why ``training.logits_held`` (a loop that keeps the fp32 logits through backward, memory.
    held_logits_bytes_per_logit) means nothing for the training section ``t``, or None where the memory model
    applies it: the eager,
    unchunked cross-entropy of Hugging Face modelling code (memory.memory_arrays' ``not trl`` branch). Elsewhere no
    fp32 logits tensor exists for a loop to hold: TRL's trainers take 16-bit ``selective_log_softmax``; a chunked
    loss computes the logits a chunk at a time; a compiled loss keeps them inside its graph; Liger's and Cut
    Cross-Entropy's fused losses and Unsloth's kernel never build them in fp32; Megatron-style engines run their own
    loss (issue 35 round 17, fixes17: the field was ignored silently there). The one rule the scenario's check, the
    search and the Training page's row read."""
    if engine_of(t.framework) not in ("hf", "fsdp", "deepspeed") or t.framework == "unsloth":
        return QT_TRANSLATE_NOOP("Scenario", "training.logits_held describes an eager cross-entropy on Hugging "
                                             "Face modelling code; framework {framework} computes its own loss")
    if t.objective in TRL_SELECTIVE_LOG_SOFTMAX:
        return QT_TRANSLATE_NOOP("Scenario", "training.logits_held does not apply to objective {objective}: TRL's "
                                             "trainer computes its own log-probabilities, already modelled")
    if t.chunked_loss:
        return QT_TRANSLATE_NOOP("Scenario", "training.logits_held does not apply with chunked_loss: the logits "
                                             "exist one chunk at a time")
    if compiled_loss(t.framework, t.torch_compile, t.compile_loss, t.fsdp_version):
        return QT_TRANSLATE_NOOP("Scenario", "training.logits_held does not apply to a compiled loss (torch_compile "
                                             "with compile_loss): the fp32 logits stay inside the compiled graph")
    if t.liger_kernel:
        return QT_TRANSLATE_NOOP("Scenario", "training.logits_held does not apply with liger_kernel: its fused loss "
                                             "never builds the logits")
    return None


#: The tools whose QLoRA goes through PEFT's ``prepare_model_for_kbit_training`` (flops.KBIT_FP32_EW_FACTOR) and keeps
#: its fp32 casts: a plain HF Trainer script following PEFT's quantization guide and TRL (``prepare_peft_model``,
#: 2023-09 to 2025). LLaMA-Factory keeps its norms in the compute dtype (``upcast_layernorm`` defaults to False);
#: Unsloth has its own kernels. Axolotl calls it but casts back: its loader then converts every module named ``norm``
#: and the embedding / LM head to ``cfg.torch_dtype`` ("LlamaRMSNorm layers are in fp32 after kbit_training ... so we
#: need to convert them back to fp16/bf16", axolotl-ai-cloud/axolotl ``src/axolotl/loaders/model.py``
#: ``_configure_embedding_dtypes`` at ae7395e9, ``should_convert`` true for every LoRA/QLoRA adapter outside
#: FSDP-QLoRA, where it skips the preparation itself; its earlier single-function loaders end with the same
#: conversion), so its QLoRA runs in 16 bits (issue 35 round 18, review18).
KBIT_PREP_TOOLS = ("hf", "trl")


#: The engines whose plans run Hugging Face modelling code (memory.memory_arrays' ``hf_style``), the only ones where
#: ``training.use_cache`` (transformers' key/value cache returned while training, memory.returned_kv_cache_bytes)
#: exists; Megatron-Core builds its own model. The one rule the scenario's check, the search and the Training page
#: read (issue 35 round 18, review18: the field was ignored, not refused, on the Megatron tools).
USE_CACHE_ENGINES = ("hf", "fsdp", "deepspeed")


def use_cache_applies(framework: str) -> bool:
    """Whether ``training.use_cache`` is priced on ``framework`` (:data:`USE_CACHE_ENGINES`)."""
    return engine_of(framework) in USE_CACHE_ENGINES


def kbit_upcast_applies(framework: str, method: str, qlora_no_upcast: bool = False) -> bool:
    """Whether a QLoRA base is prepared by PEFT's ``prepare_model_for_kbit_training``, which casts every parameter
    that is not 4-bit (norms, embeddings, output layer) to fp32 (peft ``utils/other.py``: "cast all non INT8
    parameters to fp32"): method qlora on a tool of :data:`KBIT_PREP_TOOLS`, unless the user's
    ``training.qlora_no_upcast`` says the run skips that cast — fms-acceleration's accelerated-peft bitsandbytes
    plugin (``plugins/accelerated-peft/src/fms_acceleration_peft/framework_plugin_bnb.py`` @8af8fa7: its own
    ``_prepare_model_for_kbit_training``, "in the original version, all non-INT8 params (e.g., fp16, bf16) are
    upcast to full precision ... the activations will then be constantly downcasted, resulting in greatly reduced
    throughput"), used through fms-hf-tuning's HF Trainer / TRL (issue 35 round 18, ftoos18)."""
    return method == "qlora" and framework in KBIT_PREP_TOOLS and not qlora_no_upcast


def qlora_no_upcast_allowed(framework: str, method: str) -> bool:
    """Whether ``training.qlora_no_upcast`` may be set: where the tool's QLoRA upcasts by default
    (:func:`kbit_upcast_applies` without the switch). The one rule the scenario's check, the search and the Training
    page's row read."""
    return kbit_upcast_applies(framework, method)


def mixed_precision_off_allowed(framework: str, zero, fsdp_version, method: str) -> bool:
    """Whether ``training.mixed_precision_off`` (the Hugging Face Trainer without ``--bf16``/``--fp16``: no autocast,
    and under Accelerate's FSDP1 no MixedPrecision policy, so PEFT's fp32 adapters run entirely in fp32) may be set:
    LoRA on the Hugging Face stack without DeepSpeed — one GPU or DDP (``zero`` 0), or Accelerate's FSDP1
    (:func:`hf_sharded_by_fsdp`). DeepSpeed runs the whole model in its own 16-bit precision. The one rule the
    scenario's check, the search and the Training page's row read (issue 35 round 17, ftoos17)."""
    z = int(zero)
    return method == "lora" and engine_of(framework) == "hf" and (
        z == 0 or bool(hf_sharded_by_fsdp(framework, fsdp_version, z)))


def hf_sharded_by_fsdp(framework: str, fsdp_version, zero, engine: str | None = None):
    """Whether a plan of the Hugging Face stack (``framework`` on engine hf: the Trainer, Accelerate and the tools on
    them) shards its model states with PyTorch FSDP (Accelerate's FSDP plugin, FSDP1 ``FullyShardedDataParallel``)
    rather than DeepSpeed ZeRO: ZeRO stage 2/3 (FSDP's ``SHARD_GRAD_OP`` / ``FULL_SHARD``; FSDP has no ZeRO-1) with
    ``training.fsdp_version`` 1. Otherwise the stack's ZeRO is DeepSpeed's (transformers ``TrainingArguments.
    deepspeed``; the tools ship DeepSpeed configs), as before. Element-wise over ``zero``. The one decision the memory
    model (memory.memory_arrays: state bytes, buckets, kept weights; FSDP1's root unit and no_sync) and the time
    model (timing.time_layout: per-unit gathers, FSDP1's copies and gradient passes instead of DeepSpeed's per-linear
    gathers) read (issue 35 round 15, consist15: the time model priced DeepSpeed where memory followed FSDP1)."""
    return hf_fsdp_choice(framework, zero, engine) & (int(fsdp_version) == 1)


def hf_fsdp_choice(framework: str, zero, engine: str | None = None):
    """Whether a plan's ``training.fsdp_version`` chooses how the Hugging Face stack shards (DeepSpeed ZeRO, the
    default, or Accelerate's FSDP1: :func:`hf_sharded_by_fsdp`): engine hf at ZeRO stage 2/3. Element-wise over
    ``zero``. The one rule :func:`hf_sharded_by_fsdp` and the Training page's FSDP version row read (issue 35 round
    15, parity15: the page kept its own copy)."""
    return (zero >= 2) & ((engine or engine_of(framework)) == "hf")


def fsdp_version_choice(framework: str, zero, searched: bool, fsdp_version) -> str | None:
    """Which choice ``training.fsdp_version`` is to a plan, as the Training page offers it: ``"fsdp"`` (FSDP2 or FSDP1)
    on framework fsdp; ``"hf"`` (DeepSpeed ZeRO or Accelerate's FSDP1, :func:`hf_sharded_by_fsdp`) on the Hugging
    Face stack where ZeRO 2/3 runs: the scenario's ``parallel.zero``, or any stage the plan search tries
    (``searched``: ``parallel.auto``; the stack's searched stages include 2 and 3), or where the field already says
    FSDP1 (a value that moves the estimate stays in sight); None elsewhere (issue 35 round 15, review15: under the
    automatic layout the row hid while the search's ZeRO-2/3 rows read it)."""
    if framework == "fsdp":
        return "fsdp"
    if engine_of(framework) == "hf" and (bool(hf_fsdp_choice(framework, int(zero))) or bool(searched)
                                         or int(fsdp_version) == 1):
        return "hf"
    return None


def fsdp2_upcast_applies(framework: str, fsdp_version, zero) -> bool:
    """Whether a plan runs FSDP2 with sharded parameters, where ``training.fsdp2_fp32_upcast`` (Accelerate before 1.13
    casting the whole model to fp32) can apply: the engine ``fsdp`` at ``fsdp_version`` 2, ``parallel.zero`` 3
    (FULL_SHARD; Accelerate's ``fsdp_reshard_after_forward`` true). The one rule the scenario's check and the Training
    page's row read."""
    return engine_of(framework) == "fsdp" and int(fsdp_version) == 2 and int(zero) >= 3


def fsdp2_upcast_allowed(framework: str, fsdp_version, zero, method: str) -> bool:
    """Whether ``training.fsdp2_fp32_upcast`` may be set: LoRA (16-bit base weights beside the adapters) where
    :func:`fsdp2_upcast_applies`. The one rule the scenario's check and the Training page's row read (parity16: the
    page added ``method == "lora"`` to :func:`fsdp2_upcast_applies` itself)."""
    return method == "lora" and fsdp2_upcast_applies(framework, fsdp_version, zero)


def lora_layer_applies(method: str, dora: bool, framework: str, engine: str | None = None) -> bool:
    """Whether a plan can run the LoRA layer ``training.lora_layer`` names (NeMo AutoModel's ``LinearLoRA``): LoRA or
    QLoRA without DoRA, on a framework whose LoRA layers are PEFT's (not :func:`own_lora_layers`). The one rule that
    the scenario's check (scenario._check_lora_layer), the search's frameworks (search.searched_frameworks), the time
    model (timing.lora_layer_of) and the Training page's control read (issue 35 round 14, parity14)."""
    return method in ("lora", "qlora") and not dora and not own_lora_layers(framework, engine)


#: Whether each Megatron-Core tool runs the fused vocab-parallel cross-entropy (``cross_entropy_loss_fusion``) by
#: default. Megatron-LM: off (``--cross-entropy-loss-fusion`` is a ``store_true`` flag in
#: ``megatron/training/arguments.py``, e.g. at f2e5db402c44, July 2024; ``ModelParallelConfig.cross_entropy_loss_fusion:
#: bool = False`` in ``megatron/core/model_parallel_config.py``). Megatron-Bridge: on (NVIDIA-NeMo/Megatron-Bridge
#: ``src/megatron/bridge/models/gpt_provider.py`` at 0254ddd: ``GPTModelProvider.cross_entropy_loss_fusion: bool =
#: True``), as NeMo 2's ``GPTConfig`` before it (``nemo/collections/llm/gpt/model/base.py``). Megatron-SWIFT: on
#: (ms-swift ``swift/megatron/arguments/megatron_args.py`` at 3602360). ``training.fused_cross_entropy`` overrides it.
FUSED_CE_DEFAULT = {"megatron": False, "megatron-bridge": True, "megatron-swift": True}


def fused_cross_entropy_of(framework: str, choice: bool | None = None) -> bool:
    """Whether ``framework``'s Megatron-Core loss is the fused cross-entropy: the user's ``choice``
    (``training.fused_cross_entropy``) or the tool's default (:data:`FUSED_CE_DEFAULT`). False off Megatron."""
    if framework not in FUSED_CE_DEFAULT:
        return False
    return FUSED_CE_DEFAULT[framework] if choice is None else bool(choice)


#: the objectives whose loss each Megatron-Core tool computes through the model's own next-token cross-entropy
#: (``GPTModel.compute_language_model_loss``, where ``cross_entropy_loss_fusion`` picks the fused or the unfused
#: vocab-parallel kernel): the labels go into the model and the per-token loss comes back. Megatron-LM
#: (``pretrain_gpt.py``) and Megatron-Bridge: the next-token loss (``sft``, pretraining included). Megatron-SWIFT
#: also DPO and KTO: ``swift/megatron/trainers/dpo_trainer.py`` and ``kto_trainer.py`` call ``model(**data)`` with
#: the labels and take ``per_token_logps = -output_tensor`` (``get_logps``). Not its GRPO, which pops the labels and
#: takes log-probabilities from the logits itself (``grpo_trainer.py``: ``compute_logps_and_entropy_from_logits``),
#: nor its reward model (a value head). The RL and preference trainers on plain Megatron-Core (NeMo RL, whose
#: scenarios name ``megatron``) take every loss's log-probabilities with their own vocab-parallel code
#: (NVIDIA-NeMo/RL ``nemo_rl/distributed/model_utils.py`` ``from_parallel_logits_to_logprobs``).
#: Nanotron's next-token loss is the same unfused vocab-parallel cross-entropy in fp32 (``parallel/tensor_parallel/
#: functional.py`` ``sharded_cross_entropy``: max all-reduce, shift, exp, sum all-reduce, log, target gather; no fused
#: kernel, not in :data:`FUSED_CE_DEFAULT`, so always unfused).
#: GPT-NeoX v1.0's loss is Megatron's unfused ``_VocabParallelCrossEntropy`` (``megatron/mpu/cross_entropy.py``).
MEGATRON_CE_OBJECTIVES = {"megatron": ("sft",), "megatron-bridge": ("sft",), "megatron-swift": ("sft", "dpo", "kto"),
                          "nanotron": ("sft",), "gpt-neox": ("sft",)}


def megatron_ce_fused(framework: str, objective: str, choice: bool | None = None) -> bool | None:
    """Whether ``framework`` computes ``objective``'s loss with Megatron-Core's fused cross-entropy (True), its unfused
    ``tensor_parallel.vocab_parallel_cross_entropy`` (False), or not through Megatron-Core's loss at all (None:
    :data:`MEGATRON_CE_OBJECTIVES`). Fused or not: the user's ``choice`` (``training.fused_cross_entropy``) or the
    tool's default (:func:`fused_cross_entropy_of`). The one rule the memory model (:func:`tool_mechanics`) and the
    time model (``timing.megatron_unfused_ce``) read."""
    if objective not in MEGATRON_CE_OBJECTIVES.get(framework, ()):
        return None
    return fused_cross_entropy_of(framework, choice)


def tool_mechanics(framework: str, recompute: str = "", liger: bool = False, cut_cross_entropy: bool = True,
                   objective: str = "sft", fused_cross_entropy: bool | None = None) -> dict:
    """What a fine-tuning tool does beyond its engine (module docstring): CPU offload of the checkpointed layer
    inputs (Unsloth's gradient checkpointing; applies where layers are recomputed), the loss kernel
    (``cce``: no logits tensor) and fused element-wise kernels (time model).

    ``liger`` (``training.liger_kernel``; HF TrainingArguments ``use_liger_kernel``, default False): Liger Kernel's
    ``LigerFusedLinearCrossEntropyLoss`` computes the head's matmul and the loss chunk by chunk and writes the
    input gradient in the forward, so no vocabulary-sized logits tensor lives (the ``cce`` path); its RMSNorm, RoPE
    and SwiGLU are fused Triton kernels (``fused``). Source: linkedin/Liger-Kernel README and
    ``ops/fused_linear_cross_entropy.py``; Hsu et al. 2024, arXiv:2410.10989 §3. Only on Hugging Face models.

    ``cut_cross_entropy`` (``training.cut_cross_entropy``, Unsloth only): Unsloth computes its loss with Cut
    Cross-Entropy since commit fa8e59e ("Cut Cross Entropy", 2024-11-17; ``fused_linear_cross_entropy`` and
    ``logits=None`` in ``unsloth/models/llama.py`` when ``cut_cross_entropy`` is installed). Before it (e.g. 6dad5dd,
    2024-04-15) ``Fast_CrossEntropyLoss`` (``unsloth/kernels/cross_entropy_loss.py``) ran on the 16-bit logits, saved
    them for backward and wrote the gradient into them in place: the ``unsloth_ce`` loss path
    (:func:`memory.unsloth_ce_copy_bytes_per_logit`)."""
    if framework == "unsloth":
        return {"checkpoint_offload": True, "loss_kernel": "cce" if cut_cross_entropy else "unsloth_ce",
                "fused": True, "layer_kernels": "unsloth"}
    f = FRAMEWORKS.get(framework)
    liger = bool(liger) and engine_of(framework) in ("hf", "deepspeed", "fsdp")
    # Megatron-SWIFT: ``cross_entropy_loss_fusion`` defaults to True (memory.megatron_fused_ce_bytes_per_logit) where
    # the labels go into the model (megatron_ce_fused). The memory model prices the fused kernel for Megatron-SWIFT
    # only: Megatron-LM's and Megatron-Bridge's published rows keep memory.logits_bytes (not re-checked with it)
    fused_ce = framework == "megatron-swift" and bool(megatron_ce_fused(framework, objective, fused_cross_entropy))
    return {"checkpoint_offload": False,
            "loss_kernel": "cce" if liger else ("megatron_fused" if fused_ce else "standard"),
            "fused": bool(f and f.fused_kernels) or liger, "layer_kernels": "liger" if liger else "hf"}


def support(framework: str) -> FrameworkSupport:
    return FRAMEWORKS[framework]


def interleaves(framework: str, objective: str) -> bool:
    """Whether ``framework`` runs the interleaved pipeline schedule for ``objective`` (``interleaved_pipeline``,
    less ``no_vpp_objectives``)."""
    f = FRAMEWORKS.get(framework)
    return f is not None and f.interleaved_pipeline and objective not in f.no_vpp_objectives


def no_vpp_words(framework: str, objective: str) -> Msg | None:
    """Why the interleaved pipeline is not tried for ``objective`` on ``framework`` (``no_vpp_objectives``), or
    None where it is."""
    f = FRAMEWORKS.get(framework)
    if f is None or not f.interleaved_pipeline or objective not in f.no_vpp_objectives:
        return None
    return Msg(CTX, QT_TRANSLATE_NOOP(
        CTX, "The interleaved pipeline (virtual pipeline stages, VPP) is not tried: {fw}'s {objective} trainer does "
             "not run it (ms-swift swift/megatron/trainers/grpo_trainer.py asserts that GRPO does not support "
             "VPP)."), {"fw": f.name, "objective": objective.upper()})


#: the training methods in words, the one list for every text that names one: a refusal ("does not run TP 2 for
#: full fine-tuning"), the plan's "Not tried" line (core/search.py) and the report's training table
#: (report/render.py); translated in this context where shown (``i18n.translate_param`` looks here)
METHOD_WORDS = {"pretrain": QT_TRANSLATE_NOOP(CTX, "pretraining"),
                "full": QT_TRANSLATE_NOOP(CTX, "full fine-tuning"),
                "lora": QT_TRANSLATE_NOOP(CTX, "LoRA fine-tuning"), "qlora": QT_TRANSLATE_NOOP(CTX, "QLoRA fine-tuning")}


def method_word(method: str) -> str:
    """``method`` as a refusal names it (:data:`METHOD_WORDS`)."""
    return METHOD_WORDS.get(method, str(method))


def unsupported(framework: str, method: str, *, tp: int = 1, pp: int = 1, cp: int = 1, ep: int = 1,
                zero: int = 0, vpp: int = 1, offload_params: bool = False, sp: bool = False,
                offload_optimizer: bool = False) -> Msg | None:
    """Why ``framework`` cannot run this layout (a translatable message naming what it does run), or None.

    Read from the one table above: an explicit choice outside it is an error, never estimated silently."""
    f = FRAMEWORKS.get(framework)
    if f is None:
        return None
    if offload_optimizer and optimizer_offload_refused(framework, zero):
        return Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "{fw} does not keep the optimizer states in CPU memory with Megatron-FSDP (ZeRO-{zero}): its "
                 "optimizer CPU offload runs with the distributed optimizer only ({source}). Set parallel.zero to 1 "
                 "or parallel.offload_optimizer off."),
            {"fw": f.name, "zero": int(zero), "source": OPTIMIZER_OFFLOAD_SOURCE})
    peft = method in ("lora", "qlora")
    bad = []
    if tp > 1 and not (f.tensor_parallel and (f.peft_model_parallel or not peft)):
        bad.append(f"TP {tp}")
    if pp > 1 and not (f.pipeline_parallel and (f.peft_model_parallel or not peft)):
        bad.append(f"PP {pp}")
    if vpp > 1 and pp > 1 and not f.interleaved_pipeline:
        bad.append(f"VPP {vpp}")
    if cp > 1 and not f.context_parallel:
        bad.append(f"CP {cp}")
    if ep > 1 and not f.expert_parallel:
        bad.append(f"EP {ep}")
    if zero not in f.zero_stages:
        bad.append(f"ZeRO-{zero}")
    elif pp > 1 and zero > f.pipeline_max_zero:
        bad.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "ZeRO-{zero} with PP"), {"zero": zero}))
    elif tp > 1 and zero > f.tp_max_zero:
        bad.append(Msg(CTX, QT_TRANSLATE_NOOP(CTX, "ZeRO-{zero} with TP"), {"zero": zero}))
    if tp > 1 and pp > 1 and not f.tp_with_pp:
        bad.append(QT_TRANSLATE_NOOP(CTX, "TP with PP"))
    if sp and tp > 1 and f.tensor_parallel and not f.sequence_parallel:
        bad.append("sequence_parallel")  # the field, as the user wrote it (DeepSpeed AutoTP has none)
    if method not in f.methods:
        bad.append(method)
    if offload_params and not f.param_offload:
        bad.append("offload_params")  # the field, as the user wrote it
    if not bad:
        return None
    if method not in f.methods:
        # the method alone: say which frameworks on the same engine run it (Megatron-Core's LoRA: Megatron-Bridge)
        same = [g.name for g in FRAMEWORKS.values()
                if (g.engine or g.id) == (f.engine or f.id) and g.id != f.id and method in g.methods]
        msg = (QT_TRANSLATE_NOOP(CTX, "{fw} does not run {method} ({source}); on the same engine {alts} does. "
                                      "Choose another framework.") if same else
               QT_TRANSLATE_NOOP(CTX, "{fw} does not run {method} ({source}). Choose another framework."))
        return Msg(CTX, msg, {"fw": f.name, "method": method_word(method), "what": method_word(method),
                              "source": f.source, "alts": tuple(same)})
    runs = ["DDP"] + [f"ZeRO-{z}" for z in f.zero_stages if z]
    if f.tensor_parallel and (f.peft_model_parallel or not peft):
        runs.append("TP")
    if f.pipeline_parallel and (f.peft_model_parallel or not peft):
        runs.append("PP")
    runs += [n for n, ok in (("CP", f.context_parallel), ("EP", f.expert_parallel)) if ok]
    return Msg(CTX, QT_TRANSLATE_NOOP(CTX, "{fw} does not run {what} for {method}: it runs {runs} ({source}). "
                                           "Choose another framework or layout."),
               {"fw": f.name, "what": tuple(bad), "method": method_word(method), "runs": tuple(runs),
                "source": f.source})


#: the program a framework row is run with, where it is not the row's name: torchtitan has no LoRA/QLoRA (its
#: ``torchtitan/models`` train full weights only), so PEFT plans of the ``fsdp`` row run torchtune's
#: ``lora_finetune_distributed`` recipe — FSDP2 with context parallelism (``context_parallel_dim``) and no tensor
#: parallelism ("Tensor parallelism is not supported in this recipe": pytorch/torchtune recipes/
#: lora_finetune_distributed.py at bd2a0fc)
#: The ZeRO stages, per engine, at which the optimizer states cannot go to CPU memory (``parallel.offload_optimizer``).
#: Megatron-Core's optimizer CPU offload (``--optimizer-cpu-offload``: ``HybridDeviceOptimizer``,
#: ``megatron/core/optimizer/cpu_offloading``) is built for the distributed optimizer (ZeRO-1), which feeds it plain
#: local shards; Megatron-FSDP (ZeRO-2 ``optim_grads``, ZeRO-3 ``optim_grads_params``) hands it DTensor parameters
#: that it copies whole (``DistributedOptimizer.__init__`` returns early under ``use_megatron_fsdp``; no DTensor
#: or ``to_local`` in ``hybrid_optimizer.py``; NVIDIA/Megatron-LM d98e8a64dd, 2026-08-22). Bug reports: "Megatron
#: FSDP does not work with CPU_OFFLOADING" (NVIDIA/Megatron-LM issue #1986, open, labelled ``module:
#: megatron-fsdp``, on an EP 8 MoE run) and the checkpoint-save hang of issue #4910; the fix, PR #4623 "Fix
#: Megatron-FSDP optimizer CPU offload and checkpointing", is not merged at that commit. No Megatron-LM test or
#: recipe runs the two together. The argument check (``megatron/training/arguments.py``) does not refuse it, so a
#: plan with both would be accepted at launch and fail in ``get_megatron_optimizer``. Issue 35 round 17 (stack17).
#: Megatron-FSDP with expert parallelism is documented and tested (``docs/user-guide/features/megatron_fsdp.md``
#: "FSDP sharding is always performed last" over TP/EP shards; ``tests/functional_tests/test_cases/moe/
#: deepseek_proxy_fsdp_ep2_fsdp2``): kept.
OPTIMIZER_OFFLOAD_REFUSED_ZERO = {"megatron": (2, 3)}
OPTIMIZER_OFFLOAD_SOURCE = "NVIDIA/Megatron-LM issue #1986, PR #4623 (not merged at d98e8a64dd)"


def optimizer_offload_refused(framework: str, zero) -> object:
    """Whether ``framework`` cannot keep the optimizer states in CPU memory at ZeRO stage ``zero``
    (:data:`OPTIMIZER_OFFLOAD_REFUSED_ZERO`); element-wise over an array ``zero``. The one rule the scenario's
    check (:func:`unsupported`) and the plan search (search._candidates) read."""
    import numpy as np

    refused = OPTIMIZER_OFFLOAD_REFUSED_ZERO.get(engine_of(framework), ())
    z = np.isin(np.asarray(zero), refused)
    return z if z.ndim else bool(z)


PEFT_NAMES = {"fsdp": "PyTorch FSDP2 (torchtune)"}


def peft_unsharded(framework: str, method: str, zero: int, dp: int) -> bool:
    """A LoRA/QLoRA layout with several data-parallel ranks at a ZeRO stage the framework's PEFT program does not run
    (:attr:`FrameworkSupport.peft_dp_zero`: torchtune runs no DDP)."""
    f = FRAMEWORKS.get(framework)
    allowed = getattr(f, "peft_dp_zero", None)
    return bool(allowed) and method in ("lora", "qlora") and dp > 1 and zero not in allowed


def name_for(framework: str, method: str) -> str:
    """The product name a plan of ``method`` runs under ``framework`` (the row's name unless PEFT_NAMES says)."""
    if method in ("lora", "qlora") and framework in PEFT_NAMES:
        return PEFT_NAMES[framework]
    f = FRAMEWORKS.get(framework)
    return f.name if f is not None else str(framework)


def runs_on(framework: str, gpu) -> bool:
    """Whether ``framework`` runs on ``gpu``'s vendor (its ``vendors``; a user-entered card counts as any)."""
    f = FRAMEWORKS.get(framework)
    vendor = getattr(gpu, "vendor", None)
    return f is None or not f.vendors or vendor in (None, "custom") or vendor in f.vendors


def vendor_unsupported(framework: str, gpu) -> Msg | None:
    """Why ``framework`` cannot run on ``gpu`` (its vendor), or None."""
    if runs_on(framework, gpu):
        return None
    f = FRAMEWORKS[framework]
    return Msg(CTX, QT_TRANSLATE_NOOP(CTX, "{fw} does not run on {gpu}: it runs on cards made by {makers} "
                                           "({source})."),
               {"fw": f.name, "gpu": getattr(gpu, "name", gpu.vendor), "makers": tuple(f.vendors),
                "source": f.source})


def frameworks_for(method: str, allowed=None, objective: str = "sft") -> tuple[str, ...]:
    """The frameworks (in :data:`ORDER`, then the tools named in ``allowed``) that run ``method``, among
    ``allowed`` when given. For a preference or RL objective (DPO, KTO, ORPO, SimPO, reward, PPO, GRPO) the
    default list is the fine-tuning tools that document a trainer for it (each row's ``objectives``):
    Megatron-LM, DeepSpeed, torchtitan and the HF Trainer have none of their own — those objectives run in TRL,
    LLaMA-Factory, ms-swift, Megatron-SWIFT, Axolotl or Unsloth on top of them."""
    if not allowed and objective != "sft":
        tools = tuple(f for f in TOOLS if method in FRAMEWORKS[f].methods and objective in FRAMEWORKS[f].objectives)
        if tools:
            return tools
    ok = set(allowed) if allowed else set(ORDER)
    return tuple(f for f in ORDER + TOOLS if f in ok and method in FRAMEWORKS[f].methods)


def overlap_defaults(framework: str, zero: int, vpp: int, pp: int, sp: bool) -> dict[str, bool]:
    """The communication-overlap switches a framework turns on by default for one layout (read from
    :func:`overlap.overlap_flags`, the one copy of these defaults)."""

    return dict(zip(OVERLAP_FIELDS, (bool(v) for v in overlap_flags(engine_of(framework), zero, vpp, pp, sp,
                                                                     tool=framework))))


def to_json() -> dict:
    """The table as data (``gpuplanner`` documentation, tests)."""
    out = {}
    for k in ORDER + TOOLS:
        f = FRAMEWORKS[k]
        values = {x.name: getattr(f, x.name) for x in fields(f)}
        out[k] = {key: (list(v) if isinstance(v, tuple) else v) for key, v in values.items()}
    return out


#: Issue 35 round 12 (savers12): the tools whose colocated RL moves the training model to CPU memory while vLLM
#: generates as a user's choice (``training.rl.offload_model``): Megatron-SWIFT, ``megatron rlhf --offload_model true
#: --offload_optimizer true`` (modelscope/ms-swift 3602360a5, ``swift/megatron/arguments/megatron_args.py``: both
#: ``bool = False``; ``swift/megatron/trainers/rollout_mixin.py`` ``offload_context``;
#: ``examples/megatron/grpo/moe_colocate_full.sh``). The others, read and left out: ms-swift's Hugging Face trainer
#: has the same two flags (``swift/rlhf_trainers/args_mixin.py``) but moves other bytes (DeepSpeed's moments into
#: pageable buffers, the fp32 master kept: ``rollout_mixin.offload_optimizer``); verl's actor
#: ``fsdp_config.param_offload`` / ``optimizer_offload`` (default false, ``verl/trainer/config/engine/fsdp.yaml``)
#: are ``parallel.offload_params`` / ``offload_optimizer`` on the ``fsdp`` framework here (time: timing.verl_phase_bytes;
#: memory: memory.verl_offload_per_phase for the training moment, memory.verl_generation_offload for the generation,
#: issue 35 round 17); NeMo RL does it always
#: when colocated (timing.nemo_rl_swap_bytes); OpenRLHF ``--ds.enable_sleep`` (default False,
#: ``openrlhf/cli/train_ppo_ray.py``) is no framework of this planner; TRL has no such option.
RL_OFFLOAD_MODEL_TOOLS = ("megatron-swift",)
#: Issue 35 round 18 (advice20): the tools that generate GRPO/PPO rollouts with vLLM only, never with the training
#: model's own generate() (``training.rl.generation_engine`` "training"): Megatron-SWIFT, "`use_vllm`: Megatron GRPO
#: supports rollout inference using vLLM only" (modelscope/ms-swift docs/source_en/Megatron-SWIFT/GRPO.md @72662cbf;
#: "Inference Acceleration: vLLM colocate mode and server mode"). The search leaves them out for an RL plan that
#: generates with the training model (search.searched_frameworks), and a plan the user sets so says it
#: (evaluate._rollouts_unrun).
RL_VLLM_ONLY_TOOLS = ("megatron-swift",)


def rl_engine_unrun(framework: str, objective: str, generation_engine: str) -> bool:
    """Whether ``framework`` does not run the RL plan's rollout engine (:data:`RL_VLLM_ONLY_TOOLS`)."""
    return objective in ("ppo", "grpo") and generation_engine == "training" and framework in RL_VLLM_ONLY_TOOLS
#: Issue 35 round 13 (postoos13): the tools whose generation by the training model can decode through DeepSpeed's
#: Hybrid Engine (``training.rl.hybrid_engine``): DeepSpeed-Chat, ``--enable_hybrid_engine`` (DeepSpeed config
#: ``hybrid_engine.enabled``; :data:`methods.DS_HYBRID_DECODE_OPS_PER_LAYER`), the ``deepspeed`` framework here. The
#: one list the validation, the time model, the search and the app read (review13).
RL_HYBRID_ENGINE_TOOLS = ("deepspeed",)


#: torchtitan's pipeline micro-batch when the scenario gives none (``parallelism.pipeline_parallel_microbatch_size``
#: defaults to 1 in ``torchtitan/config/job_config.py``).
TORCHTITAN_PIPELINE_MICROBATCH = 1


def pipeline_split(framework, pp, mbs, grad_accum, pipeline_mbs=None):
    """The micro-batch a pipeline stage runs and the micro-batches per step, as the framework runs them.

    Megatron-LM and DeepSpeed pipelines run ``micro_batch_size`` sequences per micro-batch and
    ``grad_accum`` micro-batches per step (Megatron: global batch = micro-batch × data-parallel × number of
    micro-batches). torchtitan (framework ``fsdp``) with pipeline parallelism splits each rank's batch
    (``training.local_batch_size``: here ``micro_batch_size`` × accumulation) into micro-batches of
    ``parallelism.pipeline_parallel_microbatch_size`` sequences (default 1): ``n_microbatches =
    local_batch_size // pipeline_parallel_microbatch_size`` (``torchtitan/distributed/pipeline_parallel.py``),
    so a local batch of 16 on an 8-stage 1F1B pipeline is 16 micro-batches of one sequence, not one of 16
    (which would leave 7/8 of the step idle). Where the batch does not divide, the values are kept (torchtitan
    refuses such a configuration). Approximation: with gradient accumulation on top (a global batch larger than
    local batch × data-parallel) torchtitan runs one pipeline schedule per accumulation step, each with its own
    fill and drain; here the step's micro-batches form one schedule, so the bubble is under-counted by the
    number of accumulation steps.
    Element-wise on numpy arrays; the product ``mbs × grad_accum`` (sequences per rank per step) never changes.
    """
    import numpy as np

    if framework != "fsdp":
        return mbs, grad_accum
    split = TORCHTITAN_PIPELINE_MICROBATCH if pipeline_mbs is None else int(pipeline_mbs)
    pp_a, mbs_a, ga_a = np.asarray(pp), np.asarray(mbs), np.asarray(grad_accum)
    on = (pp_a > 1) & (mbs_a > split) & (np.mod(mbs_a, split) == 0)
    if np.ndim(on) == 0:  # scalars in, Python numbers out (the scalar estimate path)
        new_mbs = np.where(on, split, mbs_a)
        return new_mbs.item(), np.where(on, mbs_a * ga_a // np.maximum(new_mbs, 1), ga_a).item()
    if not on.any():  # nothing split: the values as they are, in the shape the element-wise result has
        if mbs_a.shape == ga_a.shape == on.shape:
            return mbs_a, ga_a
        return np.array(np.broadcast_to(mbs_a, on.shape)), np.array(np.broadcast_to(ga_a, on.shape))
    # the rows split, computed on those rows alone (the same values as element-wise over all of them)
    rows = np.flatnonzero(on)
    new_mbs, new_ga = np.array(np.broadcast_to(mbs_a, on.shape)), np.array(np.broadcast_to(ga_a, on.shape))
    per_rank = new_mbs[rows] * new_ga[rows]
    new_mbs[rows] = split
    new_ga[rows] = per_rank // max(split, 1)
    return new_mbs, new_ga


#: The tools that run their own activation-checkpoint function, reentrant, with no ``use_reentrant`` switch:
#: Megatron-Core's ``tensor_parallel.checkpoint`` (a reentrant ``torch.autograd.Function``) and Unsloth's offloaded
#: checkpoint (``use_gradient_checkpointing="unsloth"``, its own autograd Function).
OWN_CHECKPOINT_TOOLS = ("megatron", "megatron-swift", "megatron-bridge", "unsloth")
#: ``training.checkpoint_reentrant`` values each tool cannot run, the one list (core/scenario.py refuses them, the
#: Training page disables the switch where a tool refuses either: :func:`reentrant_switch`): the tools above refuse
#: both; torchtitan/torchtune (``fsdp``) wrap layers with ``checkpoint_wrapper``'s ``CheckpointImpl.NO_REENTRANT``
#: (:func:`checkpoint_nonreentrant` has the sources) and refuse True.
CHECKPOINT_REENTRANT_REFUSED = {True: OWN_CHECKPOINT_TOOLS + ("fsdp",), False: OWN_CHECKPOINT_TOOLS}


#: Tools whose whole-layer recompute is not PyTorch's non-reentrant checkpoint, so ``training.checkpoint_early_stop``
#: does nothing there (issue 35 round 16, ac16): Megatron-Core tools and Unsloth (their own functions), DeepSpeed's
#: reentrant ``deepspeed.checkpointing.checkpoint``, GPT-NeoX v1.0 (Megatron's/DeepSpeed's ``CheckpointFunction``,
#: ``megatron/mpu/random.py``), nanotron (huggingface/nanotron ``src/nanotron/utils.py`` @17468b22
#: ``checkpoint_method``: ``torch.utils.checkpoint.checkpoint(func, *all_args)`` with no ``use_reentrant``, which
#: torch takes as reentrant; review16).
EARLY_STOP_NO_SWITCH = OWN_CHECKPOINT_TOOLS + ("deepspeed", "gpt-neox", "nanotron")


def early_stop_switch(tool: str) -> bool:
    """Whether ``training.checkpoint_early_stop`` can matter for ``tool`` (:data:`EARLY_STOP_NO_SWITCH`)."""
    return tool not in EARLY_STOP_NO_SWITCH


#: torchtitan's early stop (issue 35 round 16, titan16): pytorch/torchtitan 25413d224 (#1580, 2025-08-29, "Add config
#: to AC to toggle early-stop with a default of False") passes ``early_stop=ac_config.early_stop`` (default False) to
#: ``ptd_checkpoint_wrapper`` for full, every-N-th-layer and per-op AC; at b5bcd76c6 (2026-08) ``FullAC`` and
#: ``SelectiveAC`` pass ``early_stop=False`` outright (``torchtitan/distributed/activation_checkpoint.py``, no switch
#: left). Before 25413d224 torchtitan called ``ptd_checkpoint_wrapper(module, preserve_rng_state=False)``: PyTorch's
#: default, on; its runs of 2024 – August 2025 state ``training.checkpoint_early_stop: true``. The ``fsdp`` row's
#: full training runs torchtitan (FSDP2); its LoRA/QLoRA plans run torchtune (:data:`PEFT_NAMES`), whose
#: ``training/activations.py`` keeps PyTorch's default; FSDP1 on the ``fsdp`` row is another program (Composer,
#: fms-fsdp), and so is a preference or RL objective (torchtitan has no trainer for them: OLMo-core, prime-rl,
#: verl's FSDP workers): PyTorch's default.
TORCHTITAN_EARLY_STOP = False


#: Activation-checkpointing modes torchtitan ran once and the current tool does not (issue 35 round 16,
#: titanadv16): policy → (commit that removed it, date). pytorch/torchtitan 114151ad4 (#2357, 2026-03-23, "[SAC]
#: Centralize selective AC policy and remove per-model op save lists") deletes ``selective_ac_option`` (``"2"``:
#: every 2nd layer, the default until then, ``torchtitan/config/job_config.py``) and ``_layer_sac_count`` from
#: ``torchtitan/distributed/activation_checkpoint.py``: per-op SAC is its only selective mode since. The search
#: offers only what the current tool runs (``FRAMEWORKS["fsdp"].recompute``); a scenario that states the mode for an
#: older version is kept as entered and warned (:func:`retired_recompute_version`).
TORCHTITAN_RETIRED_RECOMPUTE = {"layer_sac": ("114151ad4", "2026-03-23")}
#: torchtitan's activation checkpointing when none is configured: ``SelectiveAC.Config`` (per-op SAC) at b5bcd76c6
#: (2026-08-21; ``torchtitan/trainer.py`` ``activation_checkpoint: ActivationCheckpointingConfig =
#: field(default_factory=SelectiveAC.Config)``), and ``ActivationCheckpointConfig.mode = "selective"`` at 114151ad4,
#: which is per-op once the every-N-th-layer option is gone; ``mode = "selective"`` with ``selective_ac_option = "2"``
#: (every 2nd layer) before it. The scenario applies it where ``training.recompute`` is left out
#: (:func:`tool_default_recompute`).
TORCHTITAN_DEFAULT_RECOMPUTE = "op_sac"


def runs_torchtitan(tool: str, fsdp_version: int, method: str, objective: str = "sft") -> bool:
    """Whether a plan on ``tool`` runs torchtitan: the ``fsdp`` row with FSDP2, full training or pretraining, no
    preference/RL objective. Its LoRA/QLoRA plans run torchtune (:data:`PEFT_NAMES`), FSDP1 on the row is another
    program (Composer, fms-fsdp), and torchtitan has no preference/RL trainer (OLMo-core, prime-rl, verl)."""
    return tool == "fsdp" and int(fsdp_version) == 2 and method not in ("lora", "qlora") and objective == "sft"


def tool_default_recompute(tool: str, fsdp_version: int, method: str, objective: str) -> str | None:
    """torchtitan's own activation checkpointing (:data:`TORCHTITAN_DEFAULT_RECOMPUTE`) for a plan that runs it
    (:func:`runs_torchtitan`), None elsewhere (the scenario's table or its field default applies). torchtune's
    recipes keep ``enable_activation_checkpointing`` False unless configured (pytorch/torchtune bd2a0fc7c
    ``recipes/full_finetune_distributed.py``): the field default, none."""
    return TORCHTITAN_DEFAULT_RECOMPUTE if runs_torchtitan(tool, fsdp_version, method, objective) else None


def retired_recompute_version(tool: str, recompute: str, fsdp_version: int, method: str,
                              objective: str = "sft") -> tuple[str, str] | None:
    """(commit, date) of the torchtitan change that removed ``recompute`` when the plan runs torchtitan and states
    such a mode (:data:`TORCHTITAN_RETIRED_RECOMPUTE`), else None."""
    if not runs_torchtitan(tool, fsdp_version, method, objective):
        return None
    return TORCHTITAN_RETIRED_RECOMPUTE.get(recompute)


def checkpoint_early_stop_default(tool: str, fsdp_version: int, lora: bool, objective: str = "sft") -> bool:
    """Whether non-reentrant checkpointing stops its recompute early when ``training.checkpoint_early_stop`` is not
    given: :data:`TORCHTITAN_EARLY_STOP` for torchtitan (``fsdp``, FSDP2, full training or pretraining, no
    preference/RL objective), PyTorch's default (on since 2.1, pytorch/pytorch#96866) elsewhere."""
    if runs_torchtitan(tool, fsdp_version, "lora" if lora else "full", objective):
        return TORCHTITAN_EARLY_STOP
    return True


def reentrant_switch(tool: str) -> bool:
    """Whether ``tool`` lets the user choose ``use_reentrant`` (it refuses neither value:
    :data:`CHECKPOINT_REENTRANT_REFUSED`)."""
    return not any(tool in tools for tools in CHECKPOINT_REENTRANT_REFUSED.values())


#: Tools whose whole-layer recompute is reentrant unless the user says otherwise (:func:`checkpoint_nonreentrant`
#: has the sources): no saved-tensor hooks, so no :data:`timing.CKPT_NONREENTRANT_LAYER_S` host cost.
REENTRANT_DEFAULT_TOOLS = OWN_CHECKPOINT_TOOLS + ("deepspeed", "gpt-neox", "nanotron")


def checkpoint_nonreentrant(tool: str, choice: bool | None, objective: str, lora: bool, dp, zero):
    """Whether whole-layer recompute runs ``torch.utils.checkpoint`` with ``use_reentrant=False`` (saved-tensor
    hooks; its host cost is :data:`timing.CKPT_NONREENTRANT_LAYER_S`). ``choice``: ``training.checkpoint_reentrant``
    (None: the tool's default). ``dp``/``zero`` may be candidate arrays (element-wise ``&``, ``|``).

    Tool defaults at the versions the profiles model (a published run of an older version states its own):

    * ``hf``: transformers >= 5.0 calls ``checkpoint(..., use_reentrant=False)`` when
      ``gradient_checkpointing_kwargs`` is unset (huggingface/transformers#43203, 2026-01); 4.35–4.57 set
      ``{"use_reentrant": True}`` (#28538), and before 4.35 torch's own default was reentrant.
    * ``trl``: every trainer sets ``use_reentrant=False`` by default (huggingface/trl#4811,
      ``trl/trainer/sft_trainer.py`` and ``dpo_trainer.py``: ``setdefault("use_reentrant", False)`` for
      transformers < 5), except PEFT under DeepSpeed ZeRO-3, which it forces to ``True`` (same files).
    * ``llamafactory``: ``ModelArguments.use_reentrant_gc = True`` (``src/llamafactory/hparams/model_args.py``), passed
      by ``model/model_utils/checkpointing.py`` ``_get_gradient_checkpointing_kwargs``: reentrant.
    * ``axolotl``: ``utils/config/__init__.py`` sets ``{"use_reentrant": True}`` when gradient checkpointing is on
      and ``rl`` is unset; its preference/RL trainers are TRL's (non-reentrant).
    * ``ms-swift``: ``swift/trainers/mixin.py`` ``_fix_gradient_checkpointing``: unset ``use_reentrant`` becomes
      False under plain DDP (distributed, no DeepSpeed, no FSDP), True otherwise (one GPU, DeepSpeed). Older
      releases differ: v1.4 to v2.x (``swift/llm/utils/model.py`` ``fix_gradient_checkpointing_warning``) made an
      unset ``use_reentrant`` False for torch >= 2.1 everywhere (dense models), so their runs state
      ``checkpoint_reentrant: false`` (``bench/validate_ft_tools.py`` ``SWIFT_V1_CKPT``).
    * ``deepspeed`` (Megatron-DeepSpeed): ``deepspeed.checkpointing.checkpoint`` is a reentrant autograd Function.
    * ``fsdp`` (torchtitan ``distributed/activation_checkpoint.py``, torchtune ``training/activations.py``):
      ``checkpoint_wrapper`` with ``CheckpointImpl.NO_REENTRANT``, no switch.
    * ``gpt-neox``: ``megatron/mpu/random.py`` (EleutherAI/gpt-neox @1023e5ab) binds ``checkpoint =
      deepspeed.runtime.activation_checkpointing.checkpointing.checkpoint``, DeepSpeed's reentrant
      ``CheckpointFunction``; ``nanotron``: ``src/nanotron/utils.py`` @17468b22 ``checkpoint_method`` calls
      ``torch.utils.checkpoint.checkpoint(func, *all_args)`` with no ``use_reentrant``: reentrant (issue 35 round
      16, review16; both in :data:`EARLY_STOP_NO_SWITCH` for the same reason).
    * Megatron-Core tools and Unsloth run their own reentrant checkpoint functions (no switch).
    """
    if tool in REENTRANT_DEFAULT_TOOLS:
        return False if choice is None else not choice
    if choice is not None:
        return not choice
    if tool == "fsdp":
        return True
    if tool == "llamafactory":
        return False
    if tool == "axolotl":
        return objective != "sft"
    if tool == "trl":
        return (zero < 3) | (not lora)
    if tool == "ms-swift":
        return (dp > 1) & (zero == 0)
    return True


# ------------------------------------------------------------------------------------------ models a framework runs

#: The Hugging Face ``model_type`` values whose checkpoints Megatron-SWIFT converts into its Megatron-Core model
#: (``megatron sft``/``megatron rlhf`` refuse any other). Read from ms-swift's registrations, one
#: ``register_megatron_model`` per family: ``swift/megatron/model/gpts/__init__.py`` at 20ec461 (MegatronModelType.gpt:
#: qwen2, llama, codefuse_codellama, yi, openbuddy_llama, qwen3, qwen2_moe, qwen3_moe, internlm3, mimo, deepseek,
#: deepseek_v2, deepseek_v3, dots1, ernie4_5, ernie4_5_moe, glm4_moe, glm4_moe_lite, gpt_oss), ``gpts/glm4.py`` (glm4:
#: GLM-4-0414's Glm4ForCausalLM, not the chatglm GLM-4-9B), ``gpts/qwen3_next.py``, ``gpts/minimax_m2.py`` and
#: ``mm_gpts/qwen.py`` (qwen2_vl, qwen2_5_vl, qwen2_5_omni, ovis2_5), ``mm_gpts/qwen3_vl.py``, ``mm_gpts/internvl.py``;
#: the "Support Megatron" column of ms-swift's docs "Supported Models and Datasets" lists the same. ms-swift's own
#: model types map to the config's ``model_type`` (Yi, DeepSeek-LLM, CodeFuse-CodeLlama and OpenBuddy ship Llama
#: configs). Not there: mistral, mixtral, gemma2, baichuan, chatglm, internlm2, phi3, bloom, gpt_neox, gpt2 — those
#: train in ms-swift's HF path (``swift sft``), not in Megatron-SWIFT.
MEGATRON_SWIFT_MODEL_TYPES = frozenset({
    "llama", "qwen2", "qwen3", "qwen2_moe", "qwen3_moe", "qwen3_next", "internlm3", "mimo", "deepseek_v2",
    "deepseek_v3", "dots1", "ernie4_5", "ernie4_5_moe", "glm4", "glm4_moe", "glm4_moe_lite", "gpt_oss", "minimax_m2",
    "qwen2_vl", "qwen2_5_vl", "qwen2_5_omni", "qwen3_vl", "qwen3_vl_moe", "internvl_chat", "ovis2_5"})
#: The ``model_type`` values torchtune has model builders for (its LoRA/QLoRA recipes build the model from
#: ``torchtune/models/<family>``; no generic Hugging Face loader): llama2, llama3, llama3_1, llama3_2, llama3_3,
#: llama4, code_llama2 and falcon3 (Llama configs), mistral, gemma, gemma2, gemma3, phi3, phi4 (phi3 config),
#: qwen2, qwen2_5 (qwen2 config), qwen3 with its MoE builders (``torchtune/models/qwen3/__init__.py`` at 23b0857:
#: ``lora_qwen3_moe_30b_a3b_*``, ``lora_qwen3_moe_235b_a22b``), deepseek_v3 and llama3_2_vision (``mllama``).
#: No mixtral, qwen2_moe, deepseek_v2, qwen2_vl, baichuan, chatglm, internlm2 directory: torchtune does not tune
#: those.
TORCHTUNE_MODEL_TYPES = frozenset({
    "llama", "llama4", "mistral", "gemma", "gemma2", "gemma3", "gemma3_text", "phi3", "qwen2", "qwen3", "qwen3_moe",
    "deepseek_v3", "mllama"})
#: The ``model_type`` values torchtitan builds (full training and pretraining on the ``fsdp`` row; issue 35 round 6,
#: advice5). torchtitan has no generic Hugging Face loader: a model is one of its registered train specs
#: (pytorch/torchtitan ``torchtitan/models/__init__.py`` at 00c7d452: ``_supported_models = frozenset(["llama3",
#: "llama3_ft", "deepseek_v3", "qwen3"])``; ``llama4`` in its later trees), each with a HF state-dict adapter for
#: its own family. llama3 is the Llama architecture (HF ``llama``); qwen3 has dense and MoE flavours
#: (``torchtitan/models/qwen3``: "30B-A3B", "235B-A22B"); deepseek_v3's flavours include "16B" (DeepSeek-V2-Lite's
#: shape: 27 layers, 64 routed experts, kv_lora_rank 512, q_lora_rank 0) and "236B" (DeepSeek-V2), so
#: ``deepseek_v2`` loads too. Not there: qwen2 (Qwen2/2.5 have QKV biases, Qwen3 does not), mistral, mixtral,
#: gemma2, phi3, baichuan, chatglm, internlm2, qwen2_moe, bloom, gpt2, gpt_neox.
TORCHTITAN_MODEL_TYPES = frozenset({"llama", "llama4", "qwen3", "qwen3_moe", "deepseek_v2", "deepseek_v3"})
#: Per-framework model lists (a framework absent here runs any decoder the rest of this table describes); the
#: ``fsdp`` row's list is for its PEFT plans, which run torchtune (:data:`PEFT_NAMES`).
MODEL_TYPES: dict[str, frozenset[str]] = {"megatron-swift": MEGATRON_SWIFT_MODEL_TYPES}
PEFT_MODEL_TYPES: dict[str, frozenset[str]] = {"fsdp": TORCHTUNE_MODEL_TYPES}
#: the same for full training and pretraining (the ``fsdp`` row runs torchtitan for those: :data:`PEFT_NAMES`)
FULL_MODEL_TYPES: dict[str, frozenset[str]] = {"fsdp": TORCHTITAN_MODEL_TYPES}
#: Frameworks that do not train vision-language models (a vision encoder and projector before the decoder):
#: Megatron-LM's ``pretrain_gpt.py`` builds a text-only GPTModel (its multimodal example, ``examples/multimodal``,
#: trains its own LLaVA-style model, not Qwen2-VL's checkpoints); torchtitan's ``torchtitan/models`` are text
#: decoders, and torchtune's only vision-language family is Llama 3.2 Vision (``torchtune/models/llama3_2_vision``).
#: The Hugging Face stacks (Trainer, DeepSpeed through it, LLaMA-Factory, ms-swift, TRL, Axolotl, Unsloth) load
#: the model's ``*ForConditionalGeneration`` class; Megatron-SWIFT converts the VL families listed above.
NO_VISION_LANGUAGE = ("fsdp", "megatron")


def model_unsupported(framework: str, model_type: str, vision: bool, model_name: str = "",
                      method: str = "full") -> Msg | None:
    """Why ``framework`` does not train this model (its ``model_type``; ``vision``: a vision-language model), or
    None. A model entered by its fields (``custom``) or without a type is not judged."""
    f = FRAMEWORKS.get(framework)
    if f is None:
        return None
    name = model_name or model_type
    if vision and framework in NO_VISION_LANGUAGE:
        return Msg(CTX, QT_TRANSLATE_NOOP(CTX, "{fw} does not train vision-language models ({model}): it "
                                               "builds text-only decoders"),
                   {"fw": name_for(framework, method), "model": name})
    known = bool(model_type) and model_type != "custom"
    types = MODEL_TYPES.get(framework)
    if types is not None and known and model_type not in types:
        return Msg(CTX, QT_TRANSLATE_NOOP(CTX, "{fw} does not convert {model} (model_type {type}): it is not in "
                                               "ms-swift's Megatron model registry"),
                   {"fw": f.name, "model": name, "type": model_type})
    types = PEFT_MODEL_TYPES.get(framework) if method in ("lora", "qlora") else None
    if types is not None and known and model_type not in types:
        return Msg(CTX, QT_TRANSLATE_NOOP(CTX, "{fw} has no model builder for {model} (model_type {type}) in "
                                               "torchtune/models"),
                   {"fw": name_for(framework, method), "model": name, "type": model_type})
    types = FULL_MODEL_TYPES.get(framework) if method in ("pretrain", "full") else None
    if types is not None and known and model_type not in types:
        return Msg(CTX, QT_TRANSLATE_NOOP(CTX, "{fw} does not build {model} (model_type {type}): torchtitan's "
                                               "models are Llama 3/4, Qwen3 and DeepSeek-V2/V3"),
                   {"fw": name_for(framework, method), "model": name, "type": model_type})
    return None


#: LoRA dropout each tool applies by default where it differs from PEFT's ``LoraConfig`` default (0.0): the plan
#: runs it when ``training.lora_dropout`` is not given (issue 35 round 12, swiftlora12; review r12: read here for the
#: framework each plan runs, so the search's framework candidates get their own tool's default). ms-swift
#: ``swift/llm/argument/tuner_args.py`` ``TunerArguments.lora_dropout: float = 0.05`` and Megatron-SWIFT
#: ``swift/megatron/argument/megatron_args.py`` ``lora_dropout: float = 0.05`` (github.com/modelscope/ms-swift commit
#: ea766ff5b, 2025-07-10; the same at 3602360a5: ``swift/arguments/tuner_args.py``,
#: ``swift/megatron/arguments/megatron_args.py``). LLaMA-Factory (``finetuning_args.py``: 0.0), Megatron-Bridge and
#: the HF Trainer with PEFT keep 0.0.
TOOL_LORA_DROPOUT = {"ms-swift": 0.05, "megatron-swift": 0.05}


def lora_dropout_of(t) -> float:
    """The LoRA dropout a plan runs: ``t.lora_dropout`` where the user gave one (0 included), else the tool's own
    default (:data:`TOOL_LORA_DROPOUT`), else PEFT's 0.0. The one place that decides it."""
    v = getattr(t, "lora_dropout", None)
    return float(v) if v is not None else TOOL_LORA_DROPOUT.get(getattr(t, "framework", ""), 0.0)


def objective_default_beta(objective: str, field_default: float = 0.1) -> float:
    """The KL coefficient an objective's trainer uses when the scenario leaves ``training.preference.beta`` out:
    TRL ``GRPOConfig.beta = 0.0`` (trl/trainer/grpo_config.py: "the reference model is not loaded"; verl likewise
    loads no reference unless ``actor.use_kl_loss`` or ``algorithm.use_kl_in_reward``), else the preference
    section's default (TRL ``DPOConfig.beta = 0.1``). The one rule: the scenario resolves it
    (scenario._apply_objective_defaults) and :func:`methods.method_profile` reads it (issue 35 r17 plangap17)."""
    return 0.0 if objective == "grpo" else field_default
