"""Megatron-FSDP: Megatron-Core's fully sharded data parallelism (``parallel.zero = 3`` with framework ``megatron``).

What a user sets: ``--use-megatron-fsdp --data-parallel-sharding-strategy optim_grads_params`` (Megatron-LM
``megatron/training/arguments.py``; Megatron-Core ≥ 0.14), or in Megatron-Bridge ``ddp.use_megatron_fsdp = True`` with
``data_parallel_sharding_strategy = "optim_grads_params"`` (what Bridge's performance harness sets:
``scripts/performance/utils/overrides.py`` ``_set_megatron_fsdp_overrides``). It runs with the distributed optimizer
(Megatron-FSDP v1 forces ``use_distributed_optimizer``) and composes with TP, PP, CP and EP ("FSDP sharding is always
performed last", Megatron-LM ``docs/user-guide/features/megatron_fsdp.md`` "Mixing FSDP & Model Parallelism";
Megatron-Bridge ``docs/training/megatron-fsdp.md``: "intended to work with tensor, pipeline, context, expert
parallelism"). The facts the memory and time models read, with their sources (Megatron-LM at d98e8a6, 2026-08):

* **Sharded states** (``optim_grads_params`` = ZeRO-3): the optimizer states, the fp32 main weights
  (``megatron_fsdp_main_params_dtype`` default fp32), the compute weights and the main gradients are sharded over the
  data × context-parallel ranks (``distributed_data_parallel_config.py``; the sharding group is ``dp_cp``).
* **Gradient dtype**: ``megatron_fsdp_main_grads_dtype`` defaults to None = "match the dtype of the model compute
  parameters" (BF16; BF16 also for FP8 parameters), and the reduce-scatter runs in it unless
  ``megatron_fsdp_grad_comm_dtype`` says otherwise (``distributed_data_parallel_config.py``; since
  NVIDIA/Megatron-LM b969f76, 2026-03, "Add dtype customization to Megatron-FSDP" — before it the buffer followed
  ``grad_reduce_in_fp32``). :func:`grad_bytes`.
* **Compute weights with ``--fp8-param-gather``**: the sharded compute weights are TE-quantised (FP8, 1 byte; MXFP8
  keeps row- and column-wise data, both sharded) and all-gathered quantised; the high-precision main weights stay
  fp32 ("Quantized Parameters", "Sharded Quantization" in the feature guide). Without it the compute weights are
  BF16 and Transformer Engine casts the gathered weight to FP8 in every forward (the gathered tensor is released
  after the unit, so there is no FP8 weight cache across micro-batches). :func:`weight_bytes`.
* **FSDP units and buffers**: each ``TransformerLayer`` is a unit (``mcore_fsdp_adapter.py``: ``fsdp_unit_modules =
  [TransformerLayer, MoETransformerLayer, MambaLayer]``) whose parameters live in one contiguous bucket, all-gathered
  in one collective before its forward and again before its backward, released after each (``megatron_fsdp.py``
  post-forward/post-backward hooks), its gradients reduce-scattered per unit on every micro-batch ("For grads shard
  mode there will actually always be gradient sync happening", ``MegatronFSDP.no_sync``). "To overlap the pre-fetch
  all-gather with computation, at least two FSDP units worth of un-sharded weight memory is required … to overlap
  gradient reduce-scatter with wgrad computation, at least two FSDP units worth of un-sharded gradient memory" (feature
  guide, "FSDP Unit Modules"); ``--fsdp-double-buffer`` makes the two buffers persistent. :func:`buffer_bytes`.
* **Non-unit modules** — the embedding, the output layer and the final norm — "remain persistently un-sharded" once
  gathered (feature guide, "FSDP Module Hooks"; only units get the post-forward release hook,
  ``MegatronFSDP._register_fsdp_hooks``): gathered once per step, held whole (16-bit: they are not TE FP8 linears).
* **No copies**: parameters are views into the flat buffers the collectives read and write ("zero-COPY", "Advanced
  Bucketing"), unlike FSDP2's copy-in/copy-out (``timing.time_layout``'s ``fsdp_copy_bytes`` stays off).

* **``optim_grads`` (ZeRO-2, ``parallel.zero = 2``)**: optimizer states, main weights and main gradients sharded, the
  compute weights whole; "Gradient reduce-scatter is overlapped with backward compute and accumulated during every
  backward pass" (feature guide, "Data-Parallel Sharding Strategies"), so each micro-batch reduce-scatters its BF16
  gradients through two units' un-sharded gradient buffers, and the updated weights are all-gathered after the step
  like the distributed optimizer's. Entered only: NVIDIA's recipes use ``optim_grads_params`` or the distributed
  optimizer, so the plan search does not propose it (``frameworks.FrameworkSupport.searched_zero``).

Not modelled: HSDP/HFSDP (``--num-distributed-optimizer-instances``, outer-DP sharding), the ``optim`` strategy
(ZeRO-1 under Megatron-FSDP; the scenario's ZeRO-1 is the classic distributed optimizer, same states),
NCCL user-buffer/SHARP SM savings, Megatron-FSDP v2, CPU offload of parameters (Megatron-FSDP has none).
"""

from __future__ import annotations

from . import fp8 as fp8mod

#: units whose un-sharded parameters (current + prefetched) and gradients (computed + being reduce-scattered) are
#: live at once (Megatron-FSDP feature guide, "FSDP Unit Modules"; the double buffer's two slots)
UNITS_IN_FLIGHT = 2.0
#: bytes per element of the non-unit modules' (embedding, output layer, final norm) persistently gathered weights
NON_UNIT_BYTES = 2.0


def applies(framework: str, zero, stage: int = 3) -> object:
    """Megatron-FSDP with this sharding strategy is in force (framework ``megatron``; ``stage`` 3 =
    ``optim_grads_params``, 2 = ``optim_grads``); element-wise over ``zero``."""
    import numpy as np

    z = np.asarray(zero) == stage
    return z & (framework == "megatron") if z.ndim else bool(z) and framework == "megatron"


def grad_bytes(precision: str) -> float:
    """Bytes per element of the main gradients and of their reduce-scatter (module docstring: the compute dtype)."""
    return 4.0 if precision == "fp32" else 2.0


def weight_bytes(precision: str, fp8_recipe: str | None, fp8_all_gather: bool) -> float:
    """Bytes per parameter of the sharded compute weights: TE's quantised weight under ``--fp8-param-gather``
    (``Fp8Recipe.weight_copy``: 1 byte, MXFP8 both orientations 2.0625), else the 16-bit (fp32) weight."""
    if precision == "fp32":
        return 4.0
    if fp8_all_gather:
        return fp8mod.recipe_for("megatron", fp8_recipe).weight_copy
    return 2.0


def non_unit_params(first_extra, last_extra, tied: bool, pp):
    """Parameters of the modules outside every FSDP unit on the most loaded stage: embedding (first stage) and
    output layer + final norm (last stage); with PP the larger of the two stages (a tied head on the last stage
    holds its own copy of the embedding, as Megatron-Core does)."""
    import numpy as np

    pp = np.asarray(pp)
    both = first_extra + last_extra
    split = np.maximum(first_extra, last_extra + (first_extra if tied else 0))
    return np.where(pp > 1, split, both) if pp.ndim else (split if pp > 1 else both)


def buffer_bytes(layer_params, gathered_b: float, g_b: float, non_unit, tp):
    """Megatron-FSDP's buffers beside the sharded states, per GPU: two units' gathered parameters and two units'
    un-sharded gradients (:data:`UNITS_IN_FLIGHT`), plus the persistently gathered non-unit modules (16-bit),
    ``layer_params`` and ``non_unit`` before tensor parallelism is divided out for the latter."""
    return UNITS_IN_FLIGHT * layer_params * (gathered_b + g_b) + non_unit * NON_UNIT_BYTES / tp


#: GPU generations where Megatron-LM advises against combining Megatron-FSDP with tensor or context parallelism:
#: "Try not to using them together since they require different CUDA_MAX_CONNECTIONS settings for best performance.
#: sequence parallelism requires setting the environment variable CUDA_DEVICE_MAX_CONNECTIONS to 1 while Megatron-FSDP
#: requires not setting CUDA_DEVICE_MAX_CONNECTIONS=1" — raised for ``get_device_arch_version() < 10`` only
#: ("CUDA_DEVICE_MAX_CONNECTIONS requirement no longer exists since the Blackwell architecture"), and Megatron-FSDP
#: asserts the variable is not 1 (``megatron/training/arguments.py``). NVIDIA's published Megatron-FSDP runs follow it:
#: TP 1 on H100 (Llama 3 8B), TP 1–2 on GB200 (Llama 3 70B, Llama 3.1 405B). The plan search therefore does not
#: propose Megatron-FSDP with TP or CP > 1 on these generations; a user who enters it gets it estimated.
MODEL_PARALLEL_ADVISED_AGAINST = ("hopper", "ampere", "ada", "volta", "turing")


def search_excludes(framework: str, generation: str, zero, tp, cp):
    """Rows the plan search leaves out (element-wise): Megatron-FSDP with TP or CP > 1 on a generation where
    Megatron-LM advises against it (:data:`MODEL_PARALLEL_ADVISED_AGAINST`)."""
    import numpy as np

    if framework != "megatron" or generation not in MODEL_PARALLEL_ADVISED_AGAINST:
        return np.zeros(np.broadcast(zero, tp, cp).shape, dtype=bool)
    return (np.asarray(zero) >= 3) & ((np.asarray(tp) > 1) | (np.asarray(cp) > 1))
