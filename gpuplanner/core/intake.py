"""What the model intake knows and does not: warnings carried by the Evaluation, and the host RAM offload needs.

Nothing here changes what the user set; it says where the estimate is approximate or where the plan may fail
outside the GPU:

* an architecture the reader does not recognise (``ModelArch.unrecognised``) is estimated as a Llama-like
  decoder, and says so; sections of the config it does not count (a vision tower) are named;
* a checkpoint whose safetensors headers hold another parameter count than config.json describes: memory is
  sized from the weights (:func:`params.weights_scale`, applied in ``estimate._facts_for``) and both numbers are
  shown;
* ``training.seq_len`` beyond the model's context (``max_position_embeddings``, RoPE scaling applied):
  the estimate uses the user's length and warns;
* CPU offload: the host RAM it needs per node (:func:`host_ram`), checked against ``hardware.host_ram_gib``
  when the user gave it.
"""

from __future__ import annotations

from typing import Any

from dataclasses import dataclass

import numpy as np
from .frameworks import engine_of, pipeline_split
from .estimate import memory_kwargs
from .i18n import QT_TRANSLATE_NOOP
from .memory import GIB, RECOMPUTE_CODES, memory_arrays, rl_model_offloaded, state_bytes
from .methods import method_profile
from .timing import RL_MODEL_OFFLOAD_OPT_BYTES
from .messages import Msg
from .params import vision_tokens_per_image, weights_count

CTX = "Intake"

#: DeepSpeed's memory estimators (``estimate_zero2_model_states_mem_needs`` /
#: ``estimate_zero3_model_states_mem_needs``, deepspeed/runtime/zero; documented at
#: https://deepspeed.readthedocs.io/en/latest/memory.html) multiply the offloaded model states by
#: ``additional_buffer_factor=1.5`` for pinned staging buffers and allocator slack.
OFFLOAD_BUFFER_FACTOR = 1.5
#: fp32 gradients the offloaded optimizer steps on (ZeRO-Offload, Ren et al. 2021, arXiv:2101.06840 §4.1: the
#: CPU holds fp32 parameters, gradients, momentum and variance: 16 bytes per parameter with Adam)
CPU_GRAD_BYTES = 4.0


@dataclass(slots=True, frozen=True)
class HostRam:
    """Host (CPU) memory per node that offloading needs, in GiB, by part."""

    optimizer: float = 0.0   # fp32 master weights, gradients and optimizer moments (offload_optimizer)
    params: float = 0.0      # the 16-bit parameters (offload_params)
    activations: float = 0.0  # saved activations (training.activation_offload)
    buffer_factor: float = OFFLOAD_BUFFER_FACTOR
    available: float | None = None  # hardware.host_ram_gib, when given

    @property
    def total(self) -> float:
        return (self.optimizer + self.params) * self.buffer_factor + self.activations

    @property
    def fits(self) -> bool | None:
        return None if self.available is None else self.total <= self.available

    def to_json(self) -> dict:
        return {"optimizer": self.optimizer, "params": self.params, "activations": self.activations,
                "buffer_factor": self.buffer_factor, "total": self.total, "available": self.available,
                "fits": self.fits}


def host_ram(r: Any, trainable: int) -> HostRam | None:
    """Host RAM per node for the scenario's CPU offload (None without offload).

    Per GPU, the offloaded states of its shard (:func:`offloaded_states`); offloaded activations: what the layers
    save for backward without offload (``memory_arrays``' ``activations_saved``)."""
    s = r.scenario
    p, t, h = s.parallel, s.training, s.hardware
    rl_off = rl_model_offloaded(method_profile(t), t.framework)
    if not (p.offload_optimizer or p.offload_params or t.activation_offload or rl_off):
        return None
    gpus_in_node = min(h.num_gpus, h.gpus_per_node)
    dp = s.dp
    opt, params = offloaded_states(r, trainable, tp=p.tp, pp=p.pp, dp=dp, zero=p.zero, offload=p.offload_optimizer,
                                   offload_params=p.offload_params, num_gpus=h.num_gpus,
                                   gpus_per_node=h.gpus_per_node)
    acts = 0.0
    if t.activation_offload:
        kw = memory_kwargs(r)
        kw["activation_offload"] = False
        arr = memory_arrays(
            r.facts, **kw, tp=p.tp, pp=p.pp, cp=p.cp, ep=p.ep, dp=dp, zero=p.zero,
            recompute=RECOMPUTE_CODES[t.recompute], mbs=t.micro_batch_size, sp=p.sequence_parallel and p.tp > 1,
            grad_accum=s.grad_accum, vpp=p.vpp, offload=p.offload_optimizer)
        acts = float(arr["activations_saved"]) * gpus_in_node
    return HostRam(optimizer=float(opt) / GIB, params=float(params) / GIB, activations=acts / GIB,
                   available=getattr(h, "host_ram_gib", None))


def offloaded_states(r: Any, trainable: int, *, tp, pp, dp, zero, offload, offload_params, num_gpus,
                     gpus_per_node: int):
    """Bytes of optimizer states and of parameters that CPU offload keeps in one node's host RAM,
    ``(optimizer, params)``, element-wise over the layout arguments (scalars for one plan, the search's columns for
    its rows; :func:`host_ram` and ``search._host_ram_unfit`` read the same figures).

    The model is split over ``tp·pp`` and, with ZeRO ≥ 1, the optimizer side over the data-parallel ranks (ZeRO-3
    also the parameters); a node holds ``min(num_gpus, gpus_per_node)`` GPUs' shares. Bytes per trainable
    parameter: fp32 master (or the framework's master bytes) + moments + fp32 gradients for the optimizer, 2 for
    16-bit parameters (DeepSpeed's estimators count the same 16 and 18 bytes). ``training.rl.offload_model``
    (issue 35 round 12): Megatron-SWIFT's pinned copy of the 16-bit weights and, unless the CPU optimizer keeps
    them there, the fp32 master and moments (timing.RL_MODEL_OFFLOAD_OPT_BYTES)."""
    s = r.scenario
    t = s.training
    rl_off = rl_model_offloaded(method_profile(t), t.framework)
    gpus_in_node = np.minimum(np.asarray(num_gpus), gpus_per_node)
    model_split = np.asarray(tp) * np.asarray(pp)
    zero, offload, offload_params = np.asarray(zero), np.asarray(offload, bool), np.asarray(offload_params, bool)
    opt_dp = np.where(zero >= 1, np.asarray(dp), 1)
    sb = state_bytes(t.framework, t.precision, t.optimizer, t.master_weights)
    moments = r.facts.adafactor_bytes_per_param if t.optimizer == "adafactor" else sb.moments
    per_param = max(sb.master, 4.0 if t.master_weights else 2.0) + moments + CPU_GRAD_BYTES
    opt = np.where(offload | offload_params, per_param * trainable / model_split / opt_dp * gpus_in_node, 0.0)
    frozen_b = 2.0 if t.precision != "fp32" else 4.0
    params = np.where(offload_params, frozen_b * r.params.total / model_split / np.where(zero >= 3, np.asarray(dp), 1)
                      * gpus_in_node, 0.0)
    if rl_off:
        params = params + 2.0 * r.params.total / model_split * gpus_in_node
        opt = opt + np.where(offload, 0.0, RL_MODEL_OFFLOAD_OPT_BYTES * trainable / model_split / opt_dp * gpus_in_node)
    return opt, params


def intake_warnings(r: Any, host: HostRam | None = None) -> tuple[Msg, ...]:
    """The model intake's warnings for a resolved scenario (``estimate.Resolved``)."""
    a = r.arch
    s = r.scenario
    out: list[Msg] = []
    if a.unrecognised:
        out.append(Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "Approximate: architecture '{model_type}' not recognised, counted as decoder-only (Llama-like); "
                 "check the parameter count ({total:,}) against the model card."),
            {"model_type": a.unrecognised, "total": r.params.total}))
    if a.uncounted:
        out.append(Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "Approximate: {sections} of the model's config.json is not counted; only the language model is "
                 "estimated."), {"sections": a.uncounted}))
    w = weights_count(a)
    total = r.params.total
    if w is not None and total > 0 and abs(w - total) > 1e-4 * total:
        out.append(Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "The weights hold {weights:,} parameters, config.json describes {config:,} ({diff:+,}, "
                 "{pct:+.1%}); memory is sized from the weights."),
            {"weights": w, "config": total, "diff": w - total, "pct": (w - total) / total}))
    elif a.stored_params and w is None and a.stored_dtype:
        out.append(Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "The weights are stored as {dtype} (quantised): their size does not give the parameter count; "
                 "config.json's count is used."), {"dtype": a.stored_dtype}))
    ctx_len = a.context_length or a.max_position_embeddings
    seq = s.training.seq_len
    if ctx_len and seq > ctx_len:
        out.append(Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "seq_len {seq:,} is longer than the model's context of {ctx:,} tokens: the estimate uses your "
                 "length, but the model needs RoPE scaling or long-context training for it."),
            {"seq": seq, "ctx": ctx_len}))
    if a.vision_kind and s.data.images_per_sample:
        _patches, per_image = vision_tokens_per_image(a, s.data.image_resolution)
        img_tokens = per_image * s.data.images_per_sample
        if img_tokens > seq:
            out.append(Msg(CTX, QT_TRANSLATE_NOOP(
                CTX, "The images take {tokens:,.0f} tokens per sample ({n:g} × {per:,}), more than seq_len "
                     "{seq:,}: raise seq_len or use fewer or smaller images."),
                {"tokens": img_tokens, "n": s.data.images_per_sample, "per": per_image, "seq": seq}))
    pp = s.parallel.pp
    _mb, m = pipeline_split(engine_of(s.training.framework), pp, s.training.micro_batch_size, s.grad_accum,
                            s.training.pipeline_microbatch_size)
    if pp > 1 and m < pp:
        # 1F1B: (p−1) idle micro-batch slots against m working ones (Narayanan et al. 2021, arXiv:2104.04473
        # §2.2); the micro-batches per step as the framework forms them (frameworks.pipeline_split)
        out.append(Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "The {pp}-stage pipeline gets only {m} micro-batch(es) per step, so most of each step is pipeline "
                 "bubble (see the time share). Give more sequences per step (global batch) or, with torchtitan, a "
                 "smaller pipeline micro-batch (training.pipeline_microbatch_size)."),
            {"pp": pp, "m": int(m)}))
    line = host_ram_line(host)
    if line is not None:
        out.append(line)
    return tuple(out)


def host_ram_line(host: HostRam | None) -> Msg | None:
    """What a plan with CPU offload says about host RAM per server: too little where the user gave the server's
    (``hardware.host_ram_gib``), and where the user gave none, how much to ask the vendor for; None without offload
    or when it fits. Issue 35 round 16 (advice16): the Mixtral example's #1 (8 × L40S, the optimizer in CPU
    memory, a saver the user did not ask for) needs 1,044 GiB per server — more than the 1 TB of the 8-GPU servers
    the price sheets list (SMM: "H100 ×8 (HGX, 1TB RAM)") — and no view of ``plan`` said so (only ``estimate``'s
    memory table did). The planning guide's checklist step 2 ("Estimate memory") and its vendor questions: the
    server's CPU memory is part of what is rented. The search's plans carry it among their warnings
    (search.plan_warnings)."""
    if host is None or host.total <= 0 or host.fits is True:
        return None
    if host.fits is False:
        return Msg(CTX, QT_TRANSLATE_NOOP(
            CTX, "CPU offload needs {need:,.0f} GiB of host RAM per node; the node has {have:,.0f} GiB."),
            {"need": host.total, "have": host.available})
    return Msg(CTX, QT_TRANSLATE_NOOP(
        CTX, "CPU offload needs about {need:,.0f} GiB of host RAM per server (the offloaded states × {buf:g} for "
             "pinned buffers): ask the vendor for servers with that much CPU memory, or enter it (CPU memory per "
             "server) to check it."), {"need": host.total, "buf": host.buffer_factor})
