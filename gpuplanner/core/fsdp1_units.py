"""FSDP1's Python hooks around each decoder-layer unit of a fully trained model (time model, host side).

PyTorch FSDP1 (``FullyShardedDataParallel``, ``training.fsdp_version = 1``) wrapped with a transformer-layer auto-wrap
policy makes every decoder layer one FSDP unit with one flat parameter. verl's FSDP workers (``actor.strategy: fsdp``)
build it that way: ``verl/utils/fsdp_utils.py`` ``get_fsdp_wrap_policy`` takes the model's ``_no_split_modules``
(``Qwen2DecoderLayer``, ``LlamaDecoderLayer``) when ``wrap_policy.min_num_params`` is 0, its default
(volcengine/verl v0.3.0.post1, 070ed6ac; ``fsdp_workers.py`` ``_build_model_optimizer``: ``use_orig_params=False``,
``forward_prefetch=False``, ``limit_all_gathers`` left at FSDP1's default); Accelerate's and Composer's FSDP1 do
the same with ``TRANSFORMER_BASED_WRAP``.

Each pass of each unit runs FSDP1's own Python (``torch/distributed/fsdp/_runtime_utils.py`` ``_pre_forward``,
``_post_forward``, ``_pre_backward_hook``, ``_post_backward_hook``; ``_flat_param.py`` ``FlatParamHandle``). The
operation counts per unit are the ones :mod:`core.fsdp1_lora` reads from that code for verl's adapter units (the
hooks do not depend on the flat parameter's size): a no-grad forward 25, a forward with grad 28, the backward 39;
non-reentrant checkpointing re-runs the forward hooks in the recompute. A decoder-layer unit adds them once per
layer and pass, priced like every Python-issued operation at :data:`methods.EAGER_FWD_OP_S`. The count per layer
is then (28 × (1 + recomputed share) + 39) operations a training micro-batch: 95 × 24 µs = 2.28 ms with full
recompute, against the model's 41-kernel eager forward (:data:`timing.EAGER_OPS_FWD_LAYER`) that does not include
them.

Where it applies: ``framework`` fsdp at ``fsdp_version`` 1, a full (or pretraining) run, not a fused/compiled step.
A LoRA actor's decoder-layer flat parameter is frozen (no reduce path) and its adapter units are
:mod:`core.fsdp1_lora`'s: left to that module. FSDP2 (``fully_shard``) runs different hooks: not counted here.
The root unit (embedding, final norm, output layer) is one unit more per pass: left out (one of 25–81).
"""

from __future__ import annotations

from .fsdp1_lora import units_host_s

#: the methods whose decoder-layer units carry trainable flat parameters (the backward's reduce path runs)
FULL_METHODS = ("full", "pretrain")


def applies(framework: str, fsdp_version: int, method: str) -> bool:
    """FSDP1 with decoder-layer units of trainable weights (module docstring)."""
    return framework == "fsdp" and int(fsdp_version) == 1 and method in FULL_METHODS


def decoder_unit_host_s(layers, rec_whole) -> tuple:
    """(one training micro-batch: forward, the recompute of the ``rec_whole`` share, backward; one no-grad forward)
    host seconds of FSDP1's hooks on ``layers`` decoder-layer units (one unit a layer)."""
    return units_host_s(layers, rec_whole)
