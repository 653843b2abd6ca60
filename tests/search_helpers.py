"""What the search tests share: a scenario from a few sections, a search result as comparable JSON, and both
rankings of one scenario (one plan per GPU count, and every layout)."""

from __future__ import annotations

import json

from gpuplanner.core import search as S
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
