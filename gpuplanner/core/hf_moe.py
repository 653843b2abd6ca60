"""Transformers' eager mixture-of-experts block: the per-expert Python loop and its host syncs (time model).

Hugging Face Transformers runs a routed-expert layer as a Python loop over the experts, an ``nn.ModuleList`` of
small MLPs. Source: ``src/transformers/models/qwen2_moe/modeling_qwen2_moe.py``, ``Qwen2MoeSparseMoeBlock.forward``
(huggingface/transformers @00a3f93; Mixtral's, OLMoE's, Qwen3-MoE's and DeepSeek-V3's blocks are written the same
way):

* once per layer: the router GEMM, softmax, ``topk``, ``one_hot`` and ``expert_hitted = (expert_mask.sum(...) >
  0).nonzero(...).tolist()``: a device-to-host copy of the hit experts' ids, so the host waits for the GPU;
* for each hit expert: ``idx, top_x = torch.where(expert_mask[expert_idx])``. A one-argument ``torch.where`` is
  ``nonzero``, whose output size is data-dependent: PyTorch counts the nonzeros on the device, copies the count to the
  host and synchronises the stream before it allocates the result. Then the expert's tokens are gathered
  (``hidden_states[None, top_x]``), the expert MLP runs (``gate_proj``, activation, ``up_proj``, multiply,
  ``down_proj``), the routing weights are gathered (``routing_weights[top_x, idx, None]``) and multiplied in, and
  ``index_add_`` adds the result to the output.

Because every expert starts with a host sync, the GPU cannot run ahead of the host through the loop: the loop's
host issue time is serialised with the GPU, expert after expert. The GPU's own expert GEMMs run while the host
issues the next kernels, so what the loop adds to the step is its host time less the experts' forward GPU time (at
least nothing). The forward runs in Python, and so does the recompute forward of gradient checkpointing; the
backward is autograd's C++ engine with no sync, so its per-expert kernels only join the eager host floor.

Counted per hit expert and Python forward pass (:data:`HF_MOE_FWD_OPS_EXPERT`, 12): ``nonzero``'s count kernel,
its device-to-host copy and its select kernel (3), the token gather (1), the MLP (5), the routing-weight gather
(1), the multiply (1) and ``index_add_`` (1), each at :data:`methods.EAGER_FWD_OP_S`. Per MoE layer and pass
(:data:`HF_MOE_LAYER_OPS`, 3): the hit-expert sum, compare and ``nonzero().tolist()``. In the backward
(:data:`HF_MOE_BWD_OPS_EXPERT`, 27, at :data:`methods.EAGER_OP_S`): ``index_add_``'s gradient (``index_select``, 1),
the multiply's (2 multiplies and the routing-weight sum, 3), the routing-weight gather's (zeros and an accumulating
``index_put_``: an index division, a radix sort of 3 kernels and the put, 6), the MLP's (6 GEMMs, the multiply's 2,
the activation's 1 and the sum of the two input gradients 1: 10), the token gather's (6, as the routing weights')
and the accumulation into the layer input's gradient (1). A judgement from counting, like
:data:`timing.EAGER_OPS_FWD_LAYER`.

Hit experts: with ``t`` routed tokens and top-``k`` of ``E`` experts, an expert receives no token with probability
``(1 − k/E)^t`` (uniform routing), so ``E·(1 − (1 − k/E)^t)`` experts are hit. It applies to the tools that run
Transformers' modelling code with its eager MoE block (engine ``hf``: HF Trainer, TRL, Axolotl, LLaMA-Factory,
ms-swift's DeepSpeed path), not to Unsloth (its own kernels), Megatron or torchtitan (grouped GEMMs).
"""

from __future__ import annotations

from .frameworks import FRAMEWORKS, engine_of
from .methods import EAGER_FWD_OP_S, EAGER_OP_S

HF_MOE_FWD_OPS_EXPERT = 12.0
HF_MOE_BWD_OPS_EXPERT = 27.0
HF_MOE_LAYER_OPS = 3.0


def applies(framework: str, m) -> bool:
    """Whether the run goes through Transformers' eager expert loop (module docstring)."""
    f = FRAMEWORKS.get(framework)
    if f is None or engine_of(framework) != "hf" or f.fused_kernels:
        return False
    return float(getattr(m, "n_experts", 0) or 0) > 0 and bool(m.moe_frac)


def experts_hit(n_exp: float, k: float, tokens):
    """Expected experts that receive at least one of ``tokens`` tokens under uniform top-``k`` routing (may be an
    array)."""
    n_exp = max(float(n_exp), 1.0)
    miss = max(1.0 - min(float(k), n_exp) / n_exp, 0.0)
    return n_exp * (1.0 - miss ** tokens)


def loop_host_seconds(m, framework: str, tokens_mb, rec_whole, pp):
    """``(forward loop host seconds, backward host seconds)`` of one micro-batch's MoE layers on one pipeline stage:
    the first is serialised with the GPU (the step adds what exceeds the experts' forward GPU time), the second
    joins the eager host floor. ``(0, 0)`` where the run does not go through Transformers' eager expert loop.
    ``tokens_mb`` and ``rec_whole`` may be arrays."""
    if not applies(framework, m):
        return 0.0 * tokens_mb, 0.0 * tokens_mb
    n_moe = float(m.moe_frac) * float(m.L) / pp
    hit = experts_hit(m.n_experts, m.k_active, tokens_mb)
    fwd = n_moe * (1.0 + rec_whole) * (hit * HF_MOE_FWD_OPS_EXPERT + HF_MOE_LAYER_OPS) * EAGER_FWD_OP_S
    bwd = n_moe * hit * HF_MOE_BWD_OPS_EXPERT * EAGER_OP_S
    return fwd, bwd


def expert_forward_share(lora: bool, rec_whole):
    """The Python forward passes' share of the routed experts' GEMM time in one micro-batch: forward and recompute
    (1 + ``rec_whole``) against the backward's 2 (data and weight gradients), or 1 where the experts are frozen
    (LoRA: data gradient only)."""
    bwd = 1.0 if lora else 2.0
    return (1.0 + rec_whole) / (1.0 + rec_whole + bwd)
