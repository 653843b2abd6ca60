"""verl's LoRA actor under FSDP1: every adapter weight is its own FSDP unit (time model, host side).

verl's FSDP workers (``actor.strategy: fsdp``: FSDP1 ``FullyShardedDataParallel``, built with
``use_orig_params=False`` in ``fsdp_workers.py`` ``_build_model_optimizer`` of mid-2025, later a config key that
defaults to False; ``limit_all_gathers`` left at FSDP1's default, True) wrap
a LoRA actor with ``verl/utils/fsdp_utils.py`` ``get_fsdp_wrap_policy(module, config, is_lora=True)``: besides the
decoder-layer units, a lambda policy wraps every leaf module whose ``weight`` requires grad, i.e. each PEFT
``lora_A`` and ``lora_B`` ``nn.Linear`` (PEFT ``tuners/lora/layer.py``). So an adapted linear brings two FSDP
units of one small flat parameter each. (verl's FSDP2 path, ``apply_fsdp2``, shards only the decoder layers and
the root: not affected.)

FSDP1 runs Python around every unit, every pass (``torch/distributed/fsdp/_runtime_utils.py`` and
``_flat_param.py``, ``FlatParamHandle``). Counted there, one unit, in Python-issued operations priced at
:data:`methods.EAGER_FWD_OP_S` (hooks run in Python, as :mod:`core.zero3` prices DeepSpeed's):

* :data:`FSDP1_OPS_UNSHARD` (17): ``_unshard`` → ``pre_unshard`` (the mixed-precision shard: ``_alloc_storage``,
  the cast ``copy_``, the ``.data`` swap; no write-back check without ``use_orig_params``), the two stream contexts in
  and out and ``wait_stream``, the padded buffer's ``_alloc_storage``, ``all_gather_into_tensor``,
  ``_use_unsharded_flat_param`` (slice and ``.data`` swap) with ``_use_unsharded_views`` (the weight's view and
  ``setattr``),
  ``post_unshard`` (``record_stream`` and free of the low-precision shard), the compute stream's ``wait_stream``;
* :data:`FSDP1_OPS_RESHARD` (8): ``reshard`` → ``_use_sharded_flat_param`` (``.data`` swap, the original
  parameter's sharded view and swap), ``_free_unsharded_flat_param`` (``record_stream``, free), the rate
  limiter's ``Event`` and ``record`` (``limit_all_gathers``), ``post_reshard``;
* :data:`FSDP1_OPS_GRAD_FWD` (3) in a forward with grad: ``_register_post_backward_hook`` (``expand_as`` and
  the hook on its ``grad_fn``) and ``_register_pre_backward_hooks`` on the output;
* :data:`FSDP1_OPS_REDUCE` (14) in the backward: ``_post_backward_hook`` → ``_reduce_grad`` (the stream switch in
  and out and its wait, the gradient's cast to the reduce dtype, the padded chunk's ``new_zeros`` and copy,
  ``reduce_scatter_tensor``, the pre- and post-divide, the sharded gradient's accumulation),
  ``_post_reduce_grad_callback`` (the cast back, the sharded gradient's view) and the unsharded gradient's
  ``record_stream`` and free.

Per unit: a no-grad forward unshards and reshards (25); a forward with grad adds the hooks (28); gradient
checkpointing (verl: non-reentrant) re-runs the forward hooks in the recompute (``_pre_forward`` returns early
only in ``BACKWARD_PRE``); the backward unshards again (``_pre_backward_hook``), reduces and reshards (39).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .methods import EAGER_FWD_OP_S
from .params import lora_linears

FSDP1_OPS_UNSHARD = 17.0
FSDP1_OPS_RESHARD = 8.0
FSDP1_OPS_GRAD_FWD = 3.0
FSDP1_OPS_REDUCE = 14.0
#: FSDP units per adapted linear: ``lora_A`` and ``lora_B`` (get_fsdp_wrap_policy's lambda policy)
FSDP1_UNITS_PER_ADAPTER = 2.0


def applies(rl: bool, framework: str, fsdp_version: int, method: str, hf_fsdp=False, mixed_units: bool = False) -> bool:
    """verl's FSDP1 worker with a LoRA actor (RL on ``framework`` fsdp is verl's workers: timing.offload_layout), or
    (issue 35 round 16, ftoos16) the Hugging Face stack sharded by Accelerate's FSDP1 (``hf_fsdp``:
    ``frameworks.hf_sharded_by_fsdp``, any element of it) with a PEFT LoRA model: transformers' ``Trainer``
    (``trainer.py`` ``_fsdp_qlora_plugin_updates``, called from ``create_accelerator_and_postprocess``; v4.48.1, the
    stack of fms-acceleration's reference run) replaces Accelerate's wrap policy with PEFT's ``fsdp_auto_wrap_policy``
    (``peft/utils/other.py``: a lambda policy on every leaf module whose ``weight`` requires grad, or'ed with the
    decoder-layer policy), the same ``lora_A`` / ``lora_B`` units as verl's. Not where the adapters sit inside their
    block's unit (``mixed_units``: ``training.fsdp_lora_mixed_units``, Lightning Fabric's wrap)."""
    if method not in ("lora", "qlora") or int(fsdp_version) != 1 or mixed_units:
        return False
    return (bool(rl) and framework == "fsdp") or bool(np.any(hf_fsdp))


def unit_ops() -> tuple[float, float, float]:
    """(no-grad forward, forward with grad, backward) Python-issued operations of one FSDP1 unit (module docstring)."""
    nograd = FSDP1_OPS_UNSHARD + FSDP1_OPS_RESHARD
    return nograd, nograd + FSDP1_OPS_GRAD_FWD, nograd + FSDP1_OPS_REDUCE


def adapter_unit_host_s(adapters_per_layer, layers, rec_whole) -> tuple:
    """(one training micro-batch: forward, the recompute forward of the ``rec_whole`` share, backward; one no-grad
    forward micro-batch) host seconds of the adapter units over ``layers`` decoder layers."""
    return units_host_s(adapters_per_layer * FSDP1_UNITS_PER_ADAPTER * layers, rec_whole)


def units_host_s(units, rec_whole) -> tuple:
    """(one training micro-batch: forward, the recompute forward of the ``rec_whole`` share, backward; one no-grad
    forward) host seconds of the hooks of ``units`` FSDP1 units (:func:`unit_ops`, each op at
    :data:`methods.EAGER_FWD_OP_S`)."""
    nograd, fwd, bwd = unit_ops()
    return units * (fwd * (1.0 + rec_whole) + bwd) * EAGER_FWD_OP_S, units * nograd * EAGER_FWD_OP_S


@lru_cache(maxsize=256)
def segment_shares(a, targets: str) -> tuple:
    """Per kind of adapted linear (:func:`params.lora_linears`): (its share of the layers' ``lora_A``/``lora_B`` hook
    pairs, its share of the adapted linears' matmul FLOPs per token, ``fan_in·fan_out·active``). FSDP1's rate limiter
    lets the host run one adapted linear ahead of the GPU (timing.fsdp1_lora_waits, issue 35 round 14), so each kind's
    hook pairs hide only under its own matmuls. Qwen2.5-32B, all linear: 7 kinds of 1/7 of the pairs each; q and o
    5.3% of the FLOPs each, k and v 1.1%, gate, up and down 29.1%. Empty where nothing is adapted."""
    lins = lora_linears(a, targets)
    pairs = sum(float(n) for _l, n in lins)
    flops = sum(float(l.fan_in) * l.fan_out * l.active * n for l, n in lins)
    if pairs <= 0.0 or flops <= 0.0:
        return ()
    return tuple((float(n) / pairs, float(l.fan_in) * l.fan_out * l.active * n / flops) for l, n in lins)
