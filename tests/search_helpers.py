"""What the search tests share: a scenario from a few sections, a search result as comparable JSON, and both
rankings of one scenario (one plan per GPU count, and every layout)."""

from __future__ import annotations

import json
from dataclasses import replace

from gpuplanner.core import search as S
from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.scenario import scenario_from_dict


def scn(model="llama-3-8b", **sections):
    """An 8B-style scenario (20B tokens, up to 64 GPUs) with ``sections`` merged in."""
    base = {"model": {"preset": model}, "data": {"tokens": "20B"}, "constraints": {"max_gpus": 64}}
    for k, v in sections.items():
        base.setdefault(k, {}).update(v)
    return scenario_from_dict(base)


def result_json(r) -> str:
    """A search result's JSON without its timing (``search_ms``)."""
    d = r.to_json()
    d.pop("search_ms")
    return json.dumps(d, sort_keys=False)


def rankings_around(scenario, top_every: int, change):
    """Both rankings of ``scenario`` — one plan per GPU count (top 6) and every layout
    (``search(distinct=False, top=top_every)``) — as JSON, before and after ``change()`` (which patches the
    search): ``(the first one-per-count result, (JSON, JSON) before, (JSON, JSON) after)``."""
    def both():
        one = S.search(scenario, top=6)
        return one, (result_json(one), result_json(S.search(scenario, top=top_every, distinct=False)))

    first, before = both()
    change()
    return first, before, both()[1]


def sampled_candidates(scenario, rng, per_context: int, fits_only: bool = True):
    """Random candidates of the vectorised search of ``scenario`` (at most ``per_context`` per GPU context, drawn
    with ``rng``; with ``fits_only`` those that fit), each with ``evaluate()`` of its own scenario: yields
    ``(ctx, vec, i, candidate scenario, Evaluation)`` — the pair the search-equals-evaluate tests compare."""
    for ctx in S.iter_contexts(scenario):
        c = S.enumerate_candidates(ctx, scenario.constraints.max_gpus)
        if not len(c["tp"]):
            continue
        vec = S.evaluate_candidates(ctx, c)
        for i in rng.choice(len(c["tp"]), size=min(per_context, len(c["tp"])), replace=False):
            if fits_only and not vec["fits"][i]:
                continue
            sc = S.candidate_scenario(ctx, c, int(i))
            ev = evaluate(sc, resolved=replace(ctx.resolved, scenario=sc), prices=ctx.table,
                          overheads=ctx.overheads, rent_vs_build=False)
            yield ctx, vec, int(i), sc, ev


def vectorised_step_s(vec, i: int, ev) -> float:
    """The search's step time of candidate ``i``: its training hours over the Evaluation's compute days."""
    return vec["train_hours"][i] / ev.time_modelled.compute_days / 24.0 * ev.time_modelled.step_time_s
