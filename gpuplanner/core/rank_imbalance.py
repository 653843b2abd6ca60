"""The slowest rank of each RL training micro-batch: rollouts of different lengths are not balanced per micro-batch
across the data-parallel ranks (time model).

verl (volcengine/verl v0.3.0.post1, 070ed6ac) balances a step's rollouts over the ranks once, by total tokens:
``trainer/ppo/ray_trainer.py`` ``_balance_batch`` (``trainer.balance_batch``, default True) partitions the step's
sequences into equal-count groups of near-equal token sums (``utils/seqlen_balancing.py``
``get_seqlen_balanced_partitions(equal_size=True)``) and keeps each group in its original order
(``_check_and_sort_partitions``). Each rank then cuts its share into mini-batches by position
(``workers/actor/dp_actor.py`` ``update_policy``: ``batch.split(ppo_mini_batch_size)``) and each mini-batch into
micro-batches, with ``use_dynamic_bsz`` by ``rearrange_micro_batches``, whose count is the largest over the ranks
(``dist.all_reduce(..., op=MAX)``). So a micro-batch's sequences are a random draw of the step's lengths on every
rank, and its token count differs from rank to rank; with padding removed (``use_remove_padding``) a rank's work is
its own token count. FSDP's collectives in every layer keep the ranks in step, so each micro-batch takes the time
of the rank with the most tokens.

With ``n`` sequences a rank's micro-batch and a length spread ``cv`` (std / mean of prompt + completion), the sum
is about normal with relative spread ``cv / √n``; the largest of ``R`` ranks is, in expectation, ``e_R`` standard
deviations above the mean (:func:`expected_max_normal`, ``e_8`` = 1.42). The micro-batch's GPU work is scaled by
``1 + cv · e_R / √n`` (:func:`straggler_factor`). The completion's spread is the model's log-normal one
(:data:`methods.ROLLOUT_LEN_CV`, or ``rl.response_len_std``); the prompts' own spread is left out (0 here).

Applies to RL on ``framework`` fsdp (verl's FSDP workers) with ``padding_free`` (``use_remove_padding``): padded rows
are the same shape on every rank. Only the training micro-batch is scaled; the log-prob, reference and critic
forwards (whose micro-batches hold more sequences) are not.
"""

from __future__ import annotations

import math

import numpy as np

#: the standard normal's grid for :func:`expected_max_normal` (±8 σ, 1/100 σ steps)
_X = np.linspace(-8.0, 8.0, 1601)
_PHI = np.array([0.5 * (1.0 + math.erf(x / math.sqrt(2.0))) for x in _X])


def expected_max_normal(ranks):
    """E[max of ``ranks`` independent standard normals] (0 for one rank): ∫ x d(Φ(x)^R) on a grid; ``ranks`` a
    number or an array."""
    r = np.maximum(np.asarray(ranks, dtype=float), 1.0)
    # the search passes one rank count per candidate: integrate once per distinct count
    uniq, inv = np.unique(r.reshape(-1), return_inverse=True)
    cdf = _PHI[None, :] ** uniq.reshape(-1, 1)
    per = (np.diff(cdf, axis=1) * 0.5 * (_X[1:] + _X[:-1])[None, :]).sum(axis=1)
    out = np.where(uniq <= 1.0, 0.0, per)[inv]
    return float(out[0]) if np.ndim(ranks) == 0 else out.reshape(np.shape(ranks))


def straggler_factor(cv, n_seqs, ranks):
    """The slowest rank's share of a micro-batch's token-bound work over the mean rank's (module docstring)."""
    n = np.maximum(np.asarray(n_seqs, dtype=float), 1.0)
    out = 1.0 + np.asarray(cv, dtype=float) * np.asarray(expected_max_normal(ranks)) / np.sqrt(n)
    return float(out) if np.ndim(out) == 0 else out


def length_cv(prompt_len: float, mean_completion: float, completion_cv: float) -> float:
    """The spread (std / mean) of a rollout's tokens, prompt + completion, with the prompt's own spread left out."""
    total = float(prompt_len) + float(mean_completion)
    return 0.0 if total <= 0.0 else float(completion_cv) * float(mean_completion) / total


def rank_len_cv(training, prof, engine: str) -> float:
    """The rollout length spread that :func:`straggler_factor` takes for this run, 0 where it does not apply
    (not RL, not verl's FSDP workers, padded rows)."""
    if not prof.rl or engine != "fsdp" or not bool(getattr(training, "padding_free", False)):
        return 0.0
    mean = prof.mean_response_fraction * float(prof.rollout_len)
    return length_cv(prof.prompt_len, min(mean, float(prof.rollout_len)), prof.response_len_cv)
