"""Imported by the search processes' fork server (``forkserver`` start method, Linux) and nowhere else.

Importing it imports the search (:mod:`gpuplanner.app.search_worker`) and runs one small search (Llama 3.1 8B on
up to eight H100s), so the catalogs, presets, pydantic validators and caches the core builds on first use are
built once in the fork server: every search process forked from it starts warm. Measured on the project's
shared 2-core VM (2026-12-01, load 5–6): a new window's first search 0.84/0.72 s with this module against
1.00/1.01 s without (median of 8 new processes each, interleaved). Never raises: a failed warm-up only means a
colder first search.
"""

from __future__ import annotations

from . import search_worker


def warm_up() -> bool:
    try:
        from gpuplanner.core.scenario import Scenario

        small = Scenario.model_validate({"model": {"preset": "llama-3.1-8b"}, "data": {"tokens": 2e9},
                                         "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8, "gpus_per_node": 8},
                                         "constraints": {"max_gpus": 8}})
        kind, _ = search_worker.run_job({"scenario": small, "base_dir": None, "ui": {}, "top": 20},
                                        lambda: False, lambda _f: None)
        return kind == search_worker.DONE
    except Exception:  # noqa: BLE001 - see the module docstring
        return False


WARM = warm_up()
