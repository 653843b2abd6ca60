"""What each training framework runs: the one table the plan search enumerates from.

One row per ``training.framework`` value. The search (:mod:`core.search`) builds its candidate layouts from
these rows only; the memory and time models (:mod:`core.memory`, :mod:`core.timing`) hold each framework's
byte conventions and communication-overlap defaults (:func:`timing.overlap_flags` documents those defaults and
their sources; :func:`overlap_defaults` below reads them from there, so there is one copy).

Sources, per row:

* ``hf`` — Hugging Face Trainer / Accelerate: data parallelism with PyTorch DDP, ZeRO 1–3 through its DeepSpeed
  integration or FSDP; no tensor, pipeline, context or expert parallelism in the Trainer (Transformers docs
  "Efficient training on multiple GPUs" / "DeepSpeed" / "FSDP"). Activation checkpointing is
  ``gradient_checkpointing_enable()``: each decoder layer recomputed whole (``torch.utils.checkpoint``), no
  selective policy. LoRA/QLoRA through PEFT.
* ``deepspeed`` — DeepSpeed: ZeRO stages 0–3; pipeline parallelism (``PipelineModule``) only with ZeRO ≤ 1
  ("ZeRO stages 2 and 3 are not compatible with pipeline parallelism", DeepSpeed pipeline docs);
  ``deepspeed.checkpointing`` recomputes whole layers. Its AutoTP training and Ulysses sequence parallelism
  are newer and not modelled here. LoRA/QLoRA through PEFT (PEFT docs "DeepSpeed").
* ``fsdp`` — PyTorch FSDP2 as torchtitan applies it (Liang et al. 2024, "TorchTitan", arXiv:2410.06511):
  DDP, ``SHARD_GRAD_OP`` (ZeRO-2) or ``FULL_SHARD`` (ZeRO-3) composed with tensor parallelism (DTensor),
  pipeline parallelism (``torch.distributed.pipelining``) and context parallelism; activation checkpointing
  ``none``, ``full``, and the two ``selective`` modes: per-op (``op_sac``, ``selective_ac_option = "op"``) and
  every-N-th layer (``layer_sac``, ``selective_ac_option = "N"``) (torchtitan ``activation_checkpoint``
  config and ``torchtitan/distributed/activation_checkpoint.py``; :mod:`core.recompute`). torchtitan has no
  attention-core-only policy. Expert parallelism in
  torchtitan is recent and not modelled. LoRA/QLoRA: torchtune's FSDP2 recipes and Answer.AI's FSDP-QLoRA.
* ``megatron`` — Megatron-Core / Megatron-LM: tensor (with sequence parallelism, Korthikanti et al. 2022),
  pipeline (1F1B and the interleaved schedule, Narayanan et al. 2021, arXiv:2104.04473), context and expert
  parallelism, the distributed optimizer (ZeRO-1: ``--use-distributed-optimizer``), selective
  (``--recompute-activations``: ``megatron_selective``) or full (``--recompute-granularity full``, on all or
  ``--recompute-num-layers`` layers with ``--recompute-method uniform|block``) recomputation; pretraining and
  full fine-tuning (Megatron-LM has no LoRA; NeMo adds it on top). Layers must divide evenly into the pipeline
  stages unless uneven first/last stages are configured (``megatron/training/arguments.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

from .i18n import QT_TRANSLATE_NOOP
from .timing import OVERLAP_FIELDS, overlap_flags

CTX = "Framework"


@dataclass(frozen=True)
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
    #: FP8 recipes it runs (core/fp8.py; the first is its default): Megatron-Core, DeepSpeed and Accelerate
    #: through Transformer Engine (Megatron ``--fp8-recipe delayed|tensorwise``; Accelerate also torchao),
    #: torchtitan through torchao (``quantize.linear.float8``: tensorwise, rowwise)
    fp8_recipes: tuple[str, ...] = ()


FRAMEWORKS: dict[str, FrameworkSupport] = {
    "hf": FrameworkSupport(
        id="hf", name="Hugging Face Trainer / Accelerate", tensor_parallel=False, pipeline_parallel=False,
        context_parallel=False, expert_parallel=False, sequence_parallel=False, interleaved_pipeline=False,
        zero_stages=(0, 1, 2, 3), pipeline_max_zero=3, recompute=("none", "full"),
        methods=("pretrain", "full", "lora", "qlora"), fused_kernels=False,
        setup=QT_TRANSLATE_NOOP(CTX, "runs Hugging Face checkpoints as they are; DDP or ZeRO through DeepSpeed/FSDP"),
        source="Transformers docs: Efficient training on multiple GPUs, DeepSpeed, FSDP",
        fp8_recipes=("te_delayed", "te_current", "torchao_tensorwise", "torchao_rowwise")),
    "deepspeed": FrameworkSupport(
        id="deepspeed", name="DeepSpeed", tensor_parallel=False, pipeline_parallel=True, context_parallel=False,
        expert_parallel=False, sequence_parallel=False, interleaved_pipeline=False, zero_stages=(0, 1, 2, 3),
        pipeline_max_zero=1, recompute=("none", "full"), methods=("pretrain", "full", "lora", "qlora"),
        fused_kernels=False,
        setup=QT_TRANSLATE_NOOP(CTX, "needs a DeepSpeed config; pipeline parallelism needs the model as a "
                                     "PipelineModule"),
        source="DeepSpeed docs: ZeRO, pipeline parallelism (ZeRO-2/3 not compatible with PP), activation "
               "checkpointing", fp8_recipes=("te_delayed", "te_current")),
    "fsdp": FrameworkSupport(
        id="fsdp", name="PyTorch FSDP2 (torchtitan)", tensor_parallel=True, pipeline_parallel=True,
        context_parallel=True, expert_parallel=False, sequence_parallel=False, interleaved_pipeline=False,
        zero_stages=(0, 2, 3), pipeline_max_zero=3, recompute=("none", "op_sac", "layer_sac", "full"),
        methods=("pretrain", "full", "lora", "qlora"), fused_kernels=False,
        setup=QT_TRANSLATE_NOOP(CTX, "torchtitan/torchtune recipes; reads Hugging Face weights after conversion "
                                     "to DCP"),
        source="Liang et al. 2024, TorchTitan (arXiv:2410.06511); PyTorch fully_shard docs",
        fp8_recipes=("torchao_tensorwise", "torchao_rowwise")),
    "megatron": FrameworkSupport(
        id="megatron", name="Megatron-Core", tensor_parallel=True, pipeline_parallel=True, context_parallel=True,
        expert_parallel=True, sequence_parallel=True, interleaved_pipeline=True, zero_stages=(0, 1),
        pipeline_max_zero=1, recompute=("none", "megatron_selective", "full"), methods=("pretrain", "full"),
        fused_kernels=True,
        setup=QT_TRANSLATE_NOOP(CTX, "needs Megatron checkpoints (convert Hugging Face weights) and a tested "
                                     "image; ask the vendor for a pre-configured Megatron-LM"),
        source="Narayanan et al. 2021 (arXiv:2104.04473); Korthikanti et al. 2022 (arXiv:2205.05198); "
               "Megatron-LM docs and megatron/training/arguments.py", fp8_recipes=("te_delayed", "te_current")),
}

#: The order frameworks are tried and listed in (simplest to set up first: ties go to the simpler one).
ORDER = ("hf", "deepspeed", "fsdp", "megatron")


def support(framework: str) -> FrameworkSupport:
    return FRAMEWORKS[framework]


def frameworks_for(method: str, allowed=None) -> tuple[str, ...]:
    """The frameworks (in :data:`ORDER`) that run ``method``, among ``allowed`` when given."""
    ok = set(allowed) if allowed else set(FRAMEWORKS)
    return tuple(f for f in ORDER if f in ok and method in FRAMEWORKS[f].methods)


def overlap_defaults(framework: str, zero: int, vpp: int, pp: int, sp: bool) -> dict[str, bool]:
    """The communication-overlap switches a framework turns on by default for one layout (read from
    :func:`timing.overlap_flags`, the time model's one copy of these defaults)."""

    return dict(zip(OVERLAP_FIELDS, (bool(v) for v in overlap_flags(framework, zero, vpp, pp, sp))))


def to_json() -> dict:
    """The table as data (``gpuplanner`` documentation, tests)."""
    out = {}
    for k in ORDER:
        f = FRAMEWORKS[k]
        out[k] = {key: (list(v) if isinstance(v, tuple) else v) for key, v in f.__dict__.items()}
    return out
