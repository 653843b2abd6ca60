"""The busiest expert-parallel rank of a dropless MoE layer (issue 35 round 10, helper moeimb10).

Under expert parallelism each GPU runs the routed copies that land on its own experts. The counts change with every
micro-batch, and the all-to-all that combines the experts' outputs cannot finish before the slowest rank has run its
grouped GEMM. So a dropless layer (Megatron-Core's default ``moe_expert_capacity_factor`` None) runs at the pace of the
most loaded rank, not of the mean one.

What the model counts: the routed copies a rank receives, drawn at random. Megatron-Core's forced balancing
(``--moe-router-force-load-balancing``, set by Megatron-Bridge's performance recipes) replaces the router's logits by
standard normal draws (``moe_utils.RandomSTE``: ``logits.clone().normal_()``, Megatron-LM d98e8a64), so every token
takes ``k`` distinct experts uniformly at random, and a rank holding ``E / ep`` of the ``E`` experts
(``num_local_experts``, contiguous) receives a hypergeometric count per token: mean ``k / ep``, variance
``k · (1/ep)(1 − 1/ep) · (E − k)/(E − 1)``. Summed over the tokens that enter the EP group, a rank's load is close to
normal, and the expected maximum of ``ep`` such loads is ``μ + z(ep) · σ``, with ``z(n)`` the expected largest of
``n`` standard normal draws (the integral ``∫ x d(Φ(x)ⁿ)`` of :func:`rank_imbalance.expected_max_normal`: z(8) = 1.4236;
until round 11 Blom's approximation ``Φ⁻¹((n − 0.375)/(n + 0.25))``, +0.7% at n = 8).

A trained router under an auxiliary loss was less even than random in the one published per-micro-batch dump read
(scattermoe issue #10, 16 layers of 8 experts, 5,120 copies per layer) has a mean max/mean of 1.084 against 1.049–1.053
for random routing at the same counts. That excess is not added (one small model, one iteration, top-k not stated);
the random-routing value is used for every run as the floor. See docs/notes/2026-12-07/issue-35-r10-moeimb10.md.

Pure functions; they take a plain number or a numpy array of candidates (the plan search) alike.
"""

from __future__ import annotations

import numpy as np

from .rank_imbalance import expected_max_normal


def expected_max_std_normal(n):
    """The expected largest of ``n`` independent standard normal draws (0 for n ≤ 1), ``n`` rounded to whole ranks:
    :func:`rank_imbalance.expected_max_normal`'s integral (one copy for both). ``n``: a number or a numpy array."""
    if isinstance(n, np.ndarray):
        return np.asarray(expected_max_normal(np.rint(n)))
    return expected_max_normal(float(round(float(n))))


def moe_rank_imbalance(n_experts: float, k: float, tokens_rank, ep, ops, exp_tp=1.0):
    """Expected routed copies on the busiest of ``ep`` expert-parallel ranks over the mean rank's, one MoE layer and
    micro-batch: ``1 + z(ep) · sqrt((1 − 1/ep) · (E − k)/(E − 1) / μ)`` with ``μ = tokens_rank · k · exp_tp`` the mean
    rank's copies (``tokens_rank``: the tokens that enter the MoE layer on one GPU, after the sequence-parallel split;
    an expert-TP group of ``exp_tp`` ranks gathers its members' tokens). 1 where ``ep`` ≤ 1 or the model has no routed
    experts. Random routing (module docstring): exact for Megatron's forced balancing, the floor for a trained router."""
    n_exp, k = float(n_experts or 0.0), float(k or 0.0)
    if n_exp <= 1.0 or k <= 0.0:
        return 1.0
    ep_f = ops.f(ep)
    mu = ops.maximum(ops.f(tokens_rank) * k * ops.f(exp_tp), 1.0)
    hyper = max(n_exp - k, 0.0) / (n_exp - 1.0)
    rel_var = (1.0 - 1.0 / ops.maximum(ep_f, 1.0)) * hyper / mu
    return 1.0 + expected_max_std_normal(ep_f) * rel_var ** 0.5
