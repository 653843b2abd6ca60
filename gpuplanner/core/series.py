"""The series the charts plot, read from the scaling sweep (:class:`core.evaluate.Scaling`, each point an
Evaluation): the app's live charts (``ui/charts/``) and the PDF's (``report/charts.py``) draw them each their own
way but take the same series from here, so the two cannot disagree on a point."""

from __future__ import annotations

import math
from typing import Any


def memory_of(sweep: Any) -> Any:
    """The sweep's memory against GPU count (``Scaling.memory``, a ``MemoryByCount``), or the ``MemoryByCount``
    itself; None without one."""
    if sweep is None or hasattr(sweep, "points"):
        return sweep
    return getattr(sweep, "memory", None)


def memory_least(sweep: Any) -> list[tuple[int, float]]:
    """(GPUs, GiB per GPU) of the least-memory layout the framework runs at each count that has one."""
    mb = memory_of(sweep)
    return [] if mb is None else [(p.num_gpus, p.memory.total) for p in mb.points if p.memory is not None]


def memory_own(sweep: Any) -> list[tuple[int, float]]:
    """(GPUs, GiB per GPU) of the plan's own layout at each count where it runs."""
    mb = memory_of(sweep)
    return [] if mb is None else [(p.num_gpus, p.current.total) for p in mb.points if p.current is not None]


def card_capacities(sweep: Any) -> list[tuple[str, float]]:
    """(card name, GiB) of each candidate card, the plan's first."""
    mb = memory_of(sweep)
    return [] if mb is None else [(c.name, c.memory_gib) for c in mb.cards]


def days_by_count(sweep: Any) -> list[tuple[int, float]]:
    """(GPUs, calendar days) of the plan's layout at other GPU counts, the fastest link class at each count
    (:func:`core.evaluate.scaling`: data parallelism grows, TP/PP/CP stay)."""
    best: dict[int, float] = {}
    for sr in getattr(sweep, "series", None) or ():
        for n, d in zip(sr.gpus, sr.calendar_days):
            if math.isfinite(d):
                best[n] = min(d, best.get(n, math.inf))
    return sorted(best.items())


def ideal_days(sweep: Any) -> list[tuple[int, float]]:
    """(GPUs, calendar days) of the ideal linear line (``Scaling.ideal_calendar_days``): the app's scaling chart in
    days and the PDF's draw these points, neither works them out."""
    xs = getattr(sweep, "ideal_gpus", None) or ()
    ds = getattr(sweep, "ideal_calendar_days", None) or ()
    return [(n, d) for n, d in zip(xs, ds) if math.isfinite(d)]
