"""Nanotron's pipeline split (issue 35 round 9, ptoos9): the one copy the time and memory models read.

Nanotron does not split the decoder layers evenly over the pipeline stages: ``models/base.py`` ``build_model``
(github.com/huggingface/nanotron at c252843, v0.5) walks the pipeline blocks in order (token embedding, the decoder
layers, final norm, LM head, loss) with the costs of ``get_block_compute_costs`` (``models/llama.py``: a decoder
layer ``4·heads·head_dim·h + 3·ffn·h``, the LM head ``V·h``, the others 0) and puts each block on the current stage,
which closes once the running cost exceeds ``total × (rank + 1) / pp``. The stages before the head carry more
layers than ``L / pp``, the head's stage fewer.
"""

from __future__ import annotations

import numpy as np


def stage_split(n_layers: int, layer_cost: float, head_cost: float, pp: int) -> tuple[list[int], int]:
    """(decoder layers per stage, the stage holding the LM head) as ``build_model`` assigns them."""
    pp = max(int(pp), 1)
    total, cum, rank = n_layers * layer_cost + head_cost, 0.0, 0
    layers, head_rank = [0] * pp, pp - 1
    for i in range(n_layers + 2):  # the layers, the final norm (cost 0), the LM head
        cum += layer_cost if i < n_layers else (head_cost if i == n_layers + 1 else 0.0)
        if i < n_layers:
            layers[rank] += 1
        elif i == n_layers + 1:
            head_rank = rank
        if cum > total * (rank + 1) / pp and rank < pp - 1:
            rank += 1
    return layers, head_rank


def _costs(m) -> tuple[int, float, float]:
    a = m.arch
    return int(m.L), 4.0 * a.num_heads * a.head_dim * m.h + 3.0 * m.f * m.h, float(m.V) * m.h


def _per_pp(pp, fn):
    """``fn(int pp)`` for a number, element-wise (one call per distinct value) for an array."""
    if isinstance(pp, np.ndarray):
        vals = {v: fn(v) for v in np.unique(pp).tolist()}
        return np.vectorize(lambda v: vals[v], otypes=[float])(pp)
    return fn(pp)


def stage_shares(m, pp) -> tuple:
    """(most layers on a stage without the head, layers beside the head), as multiples of the even ``L / pp``."""
    L, layer, head = _costs(m)

    def mid(p):
        layers, hr = stage_split(L, layer, head, int(round(p)))
        rest = [n for r, n in enumerate(layers) if r != hr]
        return max(rest) / (L / len(layers)) if rest else 1.0

    def last(p):
        layers, hr = stage_split(L, layer, head, int(round(p)))
        return layers[hr] / (L / len(layers)) if len(layers) > 1 else 1.0

    return _per_pp(pp, mid), _per_pp(pp, last)


def max_stage_layers(m, pp):
    """The most decoder layers any stage holds (the memory model's busiest stage)."""
    L, layer, head = _costs(m)
    return _per_pp(pp, lambda p: float(max(stage_split(L, layer, head, int(round(p)))[0])))
