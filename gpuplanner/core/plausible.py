"""Plans that are absurd although each input is in its range (issue #32): refused, naming the field.

A mistyped MFU of 1e-9 or a work pattern of 0.2 hours a week passes every field's own bound, yet makes a
job last millions of years; every figure and series over time after it (the project's week-by-week
timeline) would grow with that length. :func:`check_plausible` is the one test, applied to every plan that is
shown (:func:`gpuplanner.app.answer.shown`: the plan a document stands for, in every command and in the window's
live estimate) and to every training phase of a project (:mod:`core.project`), never to the candidates of a
search, which may be as slow as they like.
"""

from __future__ import annotations

import math
from typing import Any

from .errors import ScenarioError
from .i18n import QT_TRANSLATE_NOOP
from .messages import MsgStr

CTX = "Project"
HOURS_PER_WEEK = 168.0
#: below any published training run (the calibration set's lowest MFU is several percent)
MIN_MFU = 0.001
#: 100 years: no rental plan runs longer
MAX_CALENDAR_DAYS = 36_525.0


class ImplausibleError(ScenarioError):
    """A plan refused by :func:`check_plausible` (a :class:`ScenarioError` naming the field; its own type so a
    caller can tell "absurd" from "cannot be evaluated")."""


def _training_mfu(ev: Any) -> float:
    """The plan's MFU over the step's training phase: an RL step's rollouts (``generation`` seconds) are decoding,
    not training, and HF ``generate`` in eager PyTorch is host-bound (methods.EAGER_DECODE_S_PER_LAYER: ~1 ms
    per layer and token), so a small model's GRPO step under TRL's default engine sits far below any published
    training MFU while its training phase does not."""
    t = getattr(ev, "time", None)
    train = getattr(t, "mfu_training", None)  # timing.time_gpu's mfu_training (the MFU grade reads it too)
    return ev.mfu if train is None or not math.isfinite(train) else train


def check_plausible(ev: Any, hours_per_week: float = HOURS_PER_WEEK) -> None:
    """Refuse, naming the field, a plan whose job is absurd although each input is in its range: an MFU below
    :data:`MIN_MFU` (0.1 %: no published run comes near; assumptions.mfu), or a calendar that never ends or
    lasts over :data:`MAX_CALENDAR_DAYS` (100 years): constraints.hours_per_week when no session outlasts its
    setup or the work pattern is what stretches it, else data.tokens (the work itself). Every series over time
    (the project's timeline) is bounded by this."""
    train_mfu = _training_mfu(ev)
    if train_mfu < MIN_MFU:
        raise ImplausibleError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "an MFU of {mfu:.2g} is below 0.1%: no training run is that slow; enter a measured value"),
            mfu=train_mfu), field="assumptions.mfu")
    days = ev.calendar_days
    if math.isfinite(days) and days <= MAX_CALENDAR_DAYS:
        return
    work_too_long = not ev.compute_days <= MAX_CALENDAR_DAYS / 4  # the work itself (NaN, inf included)
    if not math.isfinite(days) and not work_too_long:
        raise ImplausibleError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
            CTX, "at {h:g} hours a week no session outlasts its setup: the work never finishes"), h=hours_per_week),
            field="constraints.hours_per_week")
    # a calendar that overflows on a huge job is counted by its compute (never "inf years")
    years = (days if math.isfinite(days) else ev.compute_days) / 365.25
    years = years if math.isfinite(years) else 1e300
    field_name = "data.tokens" if work_too_long else "constraints.hours_per_week"
    raise ImplausibleError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(
        CTX, "the job would take {years:,.0f} years on the calendar (more than 100)"), years=years),
        field=field_name)


